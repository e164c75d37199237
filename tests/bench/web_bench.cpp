// strata-server's live feed under load, on loopback: the real WebServer over a hand-published
// estate, N WebSocket viewers (each its own session, as N browsers), then a few estate changes.
// For each change it measures how long every viewer waits for the diff (from the publish on the
// server's thread to the frame arriving in a viewer), and it reports the server thread's CPU time
// (getrusage RUSAGE_THREAD) plus the live feed's worker thread ("live-feed", from /proc) and the
// process RSS. Viewers run on their own threads in this process.
//
//   strata_web_bench [--viewers 1000] [--projects 50] [--changes 5] [--client-threads 4]
//                    [--coalesce-ms 200] [--timeout-s 30]
//
// Figures, not a pass/fail timing test: exit 1 only when a viewer could not connect or missed a
// change within the timeout.
#include "benchsupport.h"
#include "web/auth.h"
#include "web/webserver.h"

#include "models/core/clock.h"
#include "models/core/credentialstore.h"
#include "models/core/engine.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QWebSocket>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <sys/resource.h>
#include <vector>

using namespace strata;

namespace {

using Clock = std::chrono::steady_clock;

struct Options
{
    int viewers = 1000;
    int projects = 50;
    int changes = 5;
    int clientThreads = 4;
    int coalesceMs = web::WebServerOptions{}.liveCoalesceMs;
    int timeoutS = 30;
};

bool parse(const QStringList &args, Options *o)
{
    for (int i = 1; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (i + 1 >= args.size()) {
            return false;
        }
        const int value = args.at(++i).toInt();
        if (a == QLatin1String("--viewers")) {
            o->viewers = value;
        } else if (a == QLatin1String("--projects")) {
            o->projects = value;
        } else if (a == QLatin1String("--changes")) {
            o->changes = value;
        } else if (a == QLatin1String("--client-threads")) {
            o->clientThreads = value;
        } else if (a == QLatin1String("--coalesce-ms")) {
            o->coalesceMs = value;
        } else if (a == QLatin1String("--timeout-s")) {
            o->timeoutS = value;
        } else {
            return false;
        }
    }
    return o->viewers > 0 && o->projects > 0 && o->changes > 0 && o->clientThreads > 0;
}

/// The bench's estate: one GPU cluster with `projects` projects; `round` moves one project's
/// allocation so every change is a one-row diff of "projects".
core::ComputePublish compute(int projects, int round)
{
    std::vector<core::Ptr<core::Project>> list;
    for (int i = 0; i < projects; ++i) {
        core::Project p;
        p.source = QStringLiteral("k8s-bench");
        p.id = p.name = QStringLiteral("team-%1").arg(i, 3, 10, QLatin1Char('0'));
        p.namespaceName = QStringLiteral("runai-") + p.name;
        p.quota = 4000;
        p.allocated = 1000 * (i % 7) + (i == round % projects ? 500 * (round + 1) : 0);
        p.runningJobs = i % 5;
        list.push_back(std::make_shared<const core::Project>(p));
    }
    core::GpuCluster cluster;
    cluster.source = cluster.id = cluster.name = QStringLiteral("k8s-bench");
    cluster.gpuTotal = 4000LL * projects;
    core::ComputePublish publish;
    publish.clusters = std::make_shared<const core::KeyedList<core::GpuCluster>>(
        std::vector<core::Ptr<core::GpuCluster>>{std::make_shared<const core::GpuCluster>(cluster)});
    publish.projects = std::make_shared<const core::KeyedList<core::Project>>(std::move(list));
    return publish;
}

double threadCpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
           + static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/// CPU seconds of this process's threads named `name` (/proc/self/task/*/comm; Qt names a
/// QThread's OS thread after its objectName): the live feed's worker, "live-feed". 0 when none.
/// Read from schedstat (nanoseconds), since a tick-based count cannot see one small diff.
double namedThreadsCpuSeconds(const QByteArray &name)
{
    double seconds = 0;
    for (const QString &task : QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile comm(QStringLiteral("/proc/self/task/%1/comm").arg(task));
        if (!comm.open(QIODevice::ReadOnly) || comm.readAll().trimmed() != name) {
            continue;
        }
        QFile schedstat(QStringLiteral("/proc/self/task/%1/schedstat").arg(task));
        if (schedstat.open(QIODevice::ReadOnly)) {
            seconds += static_cast<double>(schedstat.readAll().split(' ').first().toLongLong()) / 1e9;
        }
    }
    return seconds;
}

double processCpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
           + static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/// What the viewers saw, shared between their threads and the main thread.
struct Shared
{
    std::atomic<int> hellos{0};
    std::atomic<int> failures{0};
    std::atomic<qint64> publishedAtNs{0}; ///< steady clock of the current change's publish
    std::atomic<int> expectedChange{0};   ///< viewers count a diff for this change number
    std::mutex mutex;
    std::vector<std::vector<double>> delaysMs; ///< per change
    std::vector<int> received;                 ///< per change
};

/// One thread's viewers. Lives on its QThread; sockets are created there.
class ViewerGroup final : public QObject
{
public:
    ViewerGroup(Shared &shared, QUrl url, QString origin, QStringList sessions)
        : m_shared(shared)
        , m_url(std::move(url))
        , m_origin(std::move(origin))
        , m_sessions(std::move(sessions))
    {}

    void open()
    {
        for (const QString &session : std::as_const(m_sessions)) {
            auto *ws = new QWebSocket(m_origin, QWebSocketProtocol::VersionLatest, this);
            auto seen = std::make_shared<int>(0); // highest change this viewer counted
            connect(ws, &QWebSocket::textMessageReceived, this, [this, seen](const QString &message) {
                const qint64 now = Clock::now().time_since_epoch().count();
                if (message.contains(QLatin1String("\"type\":\"hello\""))) {
                    m_shared.hellos.fetch_add(1);
                    return;
                }
                const int change = m_shared.expectedChange.load();
                if (change <= *seen || !message.contains(QLatin1String("\"resource\":\"projects\""))) {
                    return;
                }
                *seen = change;
                const double ms = static_cast<double>(now - m_shared.publishedAtNs.load()) / 1e6;
                std::lock_guard lock(m_shared.mutex);
                m_shared.delaysMs[static_cast<std::size_t>(change - 1)].push_back(ms);
                ++m_shared.received[static_cast<std::size_t>(change - 1)];
            });
            connect(ws,
                    qOverload<QAbstractSocket::SocketError>(&QWebSocket::error),
                    this,
                    [this](QAbstractSocket::SocketError) {
                        m_shared.failures.fetch_add(1);
                    });
            QNetworkRequest request(m_url);
            request.setRawHeader("Cookie", "strata_session=" + session.toLatin1());
            ws->open(request);
        }
    }

private:
    Shared &m_shared;
    QUrl m_url;
    QString m_origin;
    QStringList m_sessions;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    Options o;
    if (!parse(app.arguments(), &o)) {
        std::fprintf(stderr,
                     "usage: strata_web_bench [--viewers N] [--projects N] [--changes N] [--client-threads N] "
                     "[--coalesce-ms MS] [--timeout-s S]\n");
        return 2;
    }
    // Two descriptors per viewer (both ends are in this process).
    rlimit files{};
    getrlimit(RLIMIT_NOFILE, &files);
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
    if (files.rlim_cur < static_cast<rlim_t>(2 * o.viewers + 200)) {
        std::fprintf(stderr,
                     "open file limit %llu is too low for %d viewers\n",
                     static_cast<unsigned long long>(files.rlim_cur),
                     o.viewers);
        return 2;
    }

    core::SystemClock clock;
    core::InMemoryCredentialStore credentials;
    core::Engine engine({clock, credentials, nullptr, QStringLiteral("bench")});
    // The API and the feed list the data of configured sources: a Kubernetes source whose token
    // is not stored stays paused (auth_required) and never polls, so the published estate stays.
    core::SourceConfig source;
    source.name = QStringLiteral("k8s-bench");
    source.kind = core::SourceKind::Kubernetes;
    source.url = QStringLiteral("https://127.0.0.1:1");
    source.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(source.name)};
    engine.setSources({source});
    bench::waitUntil(
        [&] {
            return engine.status(source.name)->health == core::Health::AuthRequired;
        },
        10000);
    engine.estate().publishCompute(QStringLiteral("k8s-bench"), compute(o.projects, -1));

    QTemporaryDir dir;
    web::UserStore users(dir.filePath(QStringLiteral("users.json")), engine.clock());
    const QString password = QStringLiteral("bench-password-1");
    if (const core::Status added = users.addUser(QStringLiteral("viewer"), password, web::Role::Viewer, 1000); !added) {
        std::fprintf(stderr, "cannot add the viewer: %s\n", qPrintable(added.error().message));
        return 1;
    }
    web::WebServerOptions options;
    options.liveCoalesceMs = o.coalesceMs;
    // Every simulated viewer comes from 127.0.0.1: lift the per-address and total connection caps
    // above the viewer count, as a deployment behind one reverse proxy would.
    options.maxConnections = o.viewers + 64;
    options.maxConnectionsPerClient = o.viewers + 64;
    web::WebServer server(engine, users, options);
    if (const core::Status listening = server.listen(); !listening) {
        std::fprintf(stderr, "cannot listen: %s\n", qPrintable(listening.error().message));
        return 1;
    }
    const QUrl base = server.url();
    const QString origin = bench::originOf(base);

    // One real login over HTTP (the browser's way in); the other viewers get sessions of the same
    // kind from the session manager, since the login throttle and the slow hash are not what is
    // measured here.
    QNetworkAccessManager manager;
    const bench::LoginAnswer answer = bench::login(manager, base, QStringLiteral("viewer"), password, 10000);
    if (answer.session.isEmpty()) {
        std::fprintf(stderr, "login failed: HTTP %d\n", answer.status);
        return 1;
    }
    const QString firstSession = answer.session;
    const web::User viewer = *users.find(QStringLiteral("viewer"));
    QStringList sessions{firstSession};
    while (sessions.size() < o.viewers) {
        sessions.append(server.sessions().create(viewer).id);
    }

    Shared shared;
    shared.delaysMs.resize(static_cast<std::size_t>(o.changes));
    shared.received.resize(static_cast<std::size_t>(o.changes));
    const double rssBefore = bench::procStatusMiB(0, "VmRSS:");
    const QUrl live = bench::liveUrl(base);

    std::vector<std::unique_ptr<QThread>> threads;
    std::vector<ViewerGroup *> groups;
    for (int t = 0; t < o.clientThreads; ++t) {
        QStringList mine;
        for (int i = t; i < sessions.size(); i += o.clientThreads) {
            mine.append(sessions.at(i));
        }
        auto thread = std::make_unique<QThread>();
        auto *group = new ViewerGroup(shared, live, origin, mine);
        group->moveToThread(thread.get());
        QObject::connect(thread.get(), &QThread::finished, group, &QObject::deleteLater);
        thread->start();
        QMetaObject::invokeMethod(
            group,
            [group] {
                group->open();
            },
            Qt::QueuedConnection);
        groups.push_back(group);
        threads.push_back(std::move(thread));
    }

    const double cpuConnect0 = threadCpuSeconds();
    QElapsedTimer connectTimer;
    connectTimer.start();
    const bool connected = bench::waitUntil(
        [&] {
            return shared.hellos.load() >= o.viewers || shared.failures.load() > 0;
        },
        o.timeoutS * 1000);
    const double connectSeconds = static_cast<double>(connectTimer.elapsed()) / 1000.0;
    const double cpuConnect = threadCpuSeconds() - cpuConnect0;
    const double rssConnected = bench::procStatusMiB(0, "VmRSS:");
    bool ok = connected && shared.failures.load() == 0;
    std::printf("viewers: %d connected of %d in %.2f s (server thread CPU %.2f s), %d errors\n",
                shared.hellos.load(),
                o.viewers,
                connectSeconds,
                cpuConnect,
                shared.failures.load());

    std::vector<double> all;
    double cpuChanges = 0;
    double feedCpuChanges = 0; ///< the live feed's worker thread (absent before it had one)
    for (int change = 1; ok && change <= o.changes; ++change) {
        bench::waitUntil(
            [] {
                return false;
            },
            300); // the previous diff is out; next publish is its own diff
        shared.expectedChange.store(change);
        const double cpu0 = threadCpuSeconds();
        const double feedCpu0 = namedThreadsCpuSeconds("live-feed");
        shared.publishedAtNs.store(Clock::now().time_since_epoch().count());
        engine.estate().publishCompute(QStringLiteral("k8s-bench"), compute(o.projects, change));
        const bool delivered = bench::waitUntil(
            [&] {
                std::lock_guard lock(shared.mutex);
                return shared.received[static_cast<std::size_t>(change - 1)] >= o.viewers;
            },
            o.timeoutS * 1000);
        cpuChanges += threadCpuSeconds() - cpu0;
        feedCpuChanges += namedThreadsCpuSeconds("live-feed") - feedCpu0;
        std::vector<double> delays;
        {
            std::lock_guard lock(shared.mutex);
            delays = shared.delaysMs[static_cast<std::size_t>(change - 1)];
        }
        std::printf("change %d: %zu/%d viewers, delay p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
                    change,
                    delays.size(),
                    o.viewers,
                    bench::percentile(delays, 0.50),
                    bench::percentile(delays, 0.99),
                    bench::percentile(delays, 1.0));
        all.insert(all.end(), delays.begin(), delays.end());
        ok = ok && delivered;
    }

    std::printf("all changes: %zu deliveries, delay p50 %.1f ms, p99 %.1f ms, max %.1f ms (live coalescing %d ms)\n",
                all.size(),
                bench::percentile(all, 0.50),
                bench::percentile(all, 0.99),
                bench::percentile(all, 1.0),
                o.coalesceMs);
    std::printf("server thread CPU per change: %.1f ms (%d viewers); live-feed thread %.1f ms; server total %.1f ms\n",
                1000.0 * cpuChanges / o.changes,
                o.viewers,
                1000.0 * feedCpuChanges / o.changes,
                1000.0 * (cpuChanges + feedCpuChanges) / o.changes);
    std::printf("RSS: %.1f MiB before viewers, %.1f MiB with %d viewers connected, peak %.1f MiB "
                "(viewers' sockets share the process); process CPU %.2f s\n",
                rssBefore,
                rssConnected,
                o.viewers,
                bench::procStatusMiB(0, "VmHWM:"),
                processCpuSeconds());

    for (auto &thread : threads) {
        thread->quit();
        thread->wait();
    }
    if (!ok) {
        std::fprintf(stderr, "FAILED: a viewer did not connect or missed a change within %d s\n", o.timeoutS);
        return 1;
    }
    return 0;
}
