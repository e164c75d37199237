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
// With --replicas N it measures replicas instead: a throwaway PostgreSQL
// (tests/support/pg-fixture.sh), `--sources` Kubernetes simulators in this process, N real
// `strata-server serve --store ... --replica-id rI` processes sharing them, and the viewers spread
// over the replicas (viewer j on replica j % N, a handful of real logins whose cookies every
// replica accepts). Each change creates a Job at one simulator (the sources in turn); the delay is
// from that create at the simulator to the first frame naming the job at each viewer, so it
// includes the owner's watch, its publish, the share through the store, the follower's read and
// the live feed's coalescing. It reports p50/p99/max per replica (split into the viewers of the
// replica polling the changed source and of the others), each replica's notify lag, CPU and peak
// RSS from /proc and /metrics, and the simulators' API requests over a fixed quiet window.
//
// Beside the Kubernetes sources (watched: no request while nothing changes) `--ontap` ONTAP
// simulators are polled every `--ontap-poll-s`, so the quiet window counts polls too.
//
//   strata_web_bench --replicas 3 [--viewers 3000] [--sources 3] [--ontap 1] [--ontap-poll-s 10]
//                    [--changes 10] [--sessions 6] [--lease-seconds 10] [--window-s 30]
//                    [--gap-ms 2500] [--server PATH]
//
// Figures, not a pass/fail timing test: exit 1 only when a viewer could not connect or missed a
// change within the timeout.
#include "benchsupport.h"
#include "web/auth.h"
#include "web/webserver.h"

#include "models/core/domain/clock.h"
#include "models/core/runtime/engine.h"
#include "models/core/store/credentialstore.h"
#include "simulators/common/serverthread.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "simulators/ontap/ontapsimulator.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
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
#include <unistd.h>
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
    // Replicas mode (0 = the in-process server above).
    int replicas = 0;
    int sources = 3;
    int ontap = 1;
    int ontapPollS = 10;
    int sessions = 6;
    int leaseSeconds = 10;
    int windowS = 30;
    int gapMs = 2500;
    QString server;
};

bool parse(const QStringList &args, Options *o)
{
    for (int i = 1; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (i + 1 >= args.size()) {
            return false;
        }
        if (a == QLatin1String("--server")) {
            o->server = args.at(++i);
            continue;
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
        } else if (a == QLatin1String("--replicas")) {
            o->replicas = value;
        } else if (a == QLatin1String("--sources")) {
            o->sources = value;
        } else if (a == QLatin1String("--ontap")) {
            o->ontap = value;
        } else if (a == QLatin1String("--ontap-poll-s")) {
            o->ontapPollS = value;
        } else if (a == QLatin1String("--sessions")) {
            o->sessions = value;
        } else if (a == QLatin1String("--lease-seconds")) {
            o->leaseSeconds = value;
        } else if (a == QLatin1String("--window-s")) {
            o->windowS = value;
        } else if (a == QLatin1String("--gap-ms")) {
            o->gapMs = value;
        } else {
            return false;
        }
    }
    return o->viewers > 0 && o->projects > 0 && o->changes > 0 && o->clientThreads > 0 && o->replicas >= 0
           && o->sources > 0 && o->ontap >= 0 && o->ontapPollS >= 5 && o->sessions > 0 && o->leaseSeconds > 0
           && o->windowS >= 0 && o->gapMs >= 0;
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

// ---- Replicas mode (--replicas N): real strata-server processes over one PostgreSQL store ----

QString replicaProbeName(int change)
{
    return QStringLiteral("bench-probe-%1").arg(change, 4, 10, QLatin1Char('0'));
}

/// What the viewers of the replicas saw, shared between their threads and the main thread.
struct ReplicaShared
{
    std::atomic<int> hellos{0};
    std::atomic<int> failures{0};
    std::atomic<int> probe{0};        ///< the change whose job the viewers look for (1-based)
    std::atomic<qint64> probeAtNs{0}; ///< steady clock of its create at the simulator
    std::mutex mutex;
    std::vector<std::vector<std::vector<double>>> delaysMs; ///< [change - 1][replica]
    std::vector<int> received;                              ///< per change
};

struct ReplicaViewer
{
    QUrl live;
    QString origin;
    QString session;
    int replica = 0;
};

/// One thread's viewers of the replicas. Lives on its QThread; sockets are created there.
class ReplicaViewerGroup final : public QObject
{
public:
    ReplicaViewerGroup(ReplicaShared &shared, std::vector<ReplicaViewer> viewers)
        : m_shared(shared)
        , m_viewers(std::move(viewers))
    {}

    void open()
    {
        for (const ReplicaViewer &viewer : m_viewers) {
            auto *ws = new QWebSocket(viewer.origin, QWebSocketProtocol::VersionLatest, this);
            auto seen = std::make_shared<int>(0); // highest change this viewer counted
            const int replica = viewer.replica;
            connect(ws, &QWebSocket::textMessageReceived, this, [this, seen, replica](const QString &message) {
                const qint64 now = Clock::now().time_since_epoch().count();
                if (message.contains(QLatin1String("\"type\":\"hello\""))) {
                    m_shared.hellos.fetch_add(1);
                    return;
                }
                const int probe = m_shared.probe.load();
                if (probe <= *seen || !message.contains(replicaProbeName(probe))) {
                    return;
                }
                *seen = probe;
                const double ms = static_cast<double>(now - m_shared.probeAtNs.load()) / 1e6;
                std::lock_guard lock(m_shared.mutex);
                m_shared.delaysMs[static_cast<std::size_t>(probe - 1)][static_cast<std::size_t>(replica)].push_back(ms);
                ++m_shared.received[static_cast<std::size_t>(probe - 1)];
            });
            connect(ws,
                    qOverload<QAbstractSocket::SocketError>(&QWebSocket::error),
                    this,
                    [this](QAbstractSocket::SocketError) {
                        m_shared.failures.fetch_add(1);
                    });
            QNetworkRequest request(viewer.live);
            request.setRawHeader("Cookie", "strata_session=" + viewer.session.toLatin1());
            ws->open(request);
        }
    }

private:
    ReplicaShared &m_shared;
    std::vector<ReplicaViewer> m_viewers;
};

/// user + system CPU seconds of process `pid` (/proc/<pid>/stat); -1 when it is gone.
double replicaProcessCpuSeconds(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) {
        return -1;
    }
    const QByteArray text = stat.readAll();
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13) {
        return -1;
    }
    const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
    return static_cast<double>(fields.at(11).toLongLong() + fields.at(12).toLongLong()) / ticks;
}

/// The value of the first sample of `family` in a Prometheus text exposition whose labels
/// contain `labels` (empty = any); -1 when absent.
double replicaMetric(const QByteArray &text, const QByteArray &family, const QByteArray &labels = {})
{
    for (const QByteArray &line : text.split('\n')) {
        if (!line.startsWith(family) || line.size() <= family.size()
            || (line.at(family.size()) != ' ' && line.at(family.size()) != '{')) {
            continue;
        }
        if (!labels.isEmpty() && !line.contains(labels)) {
            continue;
        }
        return line.mid(line.lastIndexOf(' ') + 1).toDouble();
    }
    return -1;
}

/// GET `url`, waiting in the event loop; the body, empty on failure.
QByteArray replicaHttpGet(QNetworkAccessManager &manager, const QUrl &url, int timeoutMs)
{
    QNetworkRequest request(url);
    request.setTransferTimeout(timeoutMs);
    QNetworkReply *reply = manager.get(request);
    bench::waitUntil(
        [reply] {
            return reply->isFinished();
        },
        timeoutMs + 1000);
    QByteArray body;
    if (reply->isFinished() && reply->error() == QNetworkReply::NoError) {
        body = reply->readAll();
    }
    reply->deleteLater();
    return body;
}

/// Runs `program` with `arguments`, waiting at most `timeoutMs`; exit code (-1: did not finish)
/// and combined output.
std::pair<int, QByteArray>
replicaRun(const QString &program, const QStringList &arguments, const QProcessEnvironment &env, int timeoutMs)
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return {-1, process.readAll()};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAll()};
}

/// The throwaway PostgreSQL cluster of one run, stopped and deleted at the end.
class ReplicaPostgres
{
public:
    explicit ReplicaPostgres(QString dir)
        : m_dir(std::move(dir))
    {}
    ~ReplicaPostgres()
    {
        if (m_up) {
            (void)replicaRun(
                script(), {QStringLiteral("down"), m_dir}, QProcessEnvironment::systemEnvironment(), 60000);
        }
    }
    ReplicaPostgres(const ReplicaPostgres &) = delete;
    ReplicaPostgres &operator=(const ReplicaPostgres &) = delete;

    /// The admin URL (with its password), or empty with `error` set.
    QString up(QString *error)
    {
        const auto [code, output] =
            replicaRun(script(), {QStringLiteral("up"), m_dir}, QProcessEnvironment::systemEnvironment(), 180000);
        m_up = code == 0;
        QFile url(m_dir + QStringLiteral("/url"));
        if (!m_up || !url.open(QIODevice::ReadOnly)) {
            *error = QString::fromLocal8Bit(output);
            return {};
        }
        return QString::fromUtf8(url.readAll()).trimmed();
    }

private:
    static QString script() { return QStringLiteral(STRATA_BENCH_PG_FIXTURE); }

    QString m_dir;
    bool m_up = false;
};

struct ReplicaServer
{
    QString id;
    std::unique_ptr<QProcess> process;
    QByteArray out;
    QUrl base;
    qint64 pid = 0;
};

/// p50/p99/max of `delays` as one table row.
void printReplicaRow(const char *label, const QString &replica, const std::vector<double> &delays)
{
    std::printf("  %-10s %-4s %6zu deliveries  p50 %7.1f ms  p99 %7.1f ms  max %7.1f ms\n",
                label,
                qPrintable(replica),
                delays.size(),
                bench::percentile(delays, 0.50),
                bench::percentile(delays, 0.99),
                bench::percentile(delays, 1.0));
}

int runReplicas(const Options &o)
{
#ifndef STRATA_BENCH_SERVER
    const QString defaultServer;
#else
    const QString defaultServer = QStringLiteral(STRATA_BENCH_SERVER);
#endif
    const QString serverBinary = o.server.isEmpty() ? defaultServer : o.server;
    if (serverBinary.isEmpty() || !QFile::exists(serverBinary)) {
        std::fprintf(stderr,
                     "no strata-server at \"%s\": build it (cmake --build build/bench --target strata-server) or "
                     "pass --server PATH\n",
                     qPrintable(serverBinary));
        return 2;
    }
    const int replicaCount = o.replicas;
    QTemporaryDir dir;
    ReplicaPostgres postgres(dir.filePath(QStringLiteral("pg")));
    QString error;
    const QString adminUrl = postgres.up(&error);
    if (adminUrl.isEmpty()) {
        std::fprintf(stderr, "cannot start PostgreSQL: %s\n", qPrintable(error));
        return 1;
    }
    QUrl storeUrl(adminUrl);
    const QString storePassword = storeUrl.password();
    storeUrl.setPassword({});
    const QString store = storeUrl.toString();

    // The vendor systems: one Kubernetes simulator (TR-4858 DGX preset) per Kubernetes source,
    // one ONTAP simulator (demo cluster) per ONTAP source; each source pins its simulator's CA.
    std::vector<std::unique_ptr<sim::ServerThread>> simThreads;
    std::vector<sim::kube::KubeSimulator *> sims;
    std::vector<sim::ontap::OntapSimulator *> ontaps;
    QJsonArray sourceArray;
    const auto addSource = [&](QJsonObject source, const char *what, const QString &baseUrl, const QByteArray &caPem) {
        if (baseUrl.isEmpty()) {
            std::fprintf(stderr, "cannot start %s simulator: %s\n", what, qPrintable(error));
            return false;
        }
        const QString ca = dir.filePath(source.value(QLatin1String("name")).toString() + QStringLiteral("-ca.pem"));
        QFile caFile(ca);
        if (!caFile.open(QIODevice::WriteOnly) || caFile.write(caPem) < 0) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(ca));
            return false;
        }
        source.insert(QStringLiteral("url"), baseUrl);
        source.insert(QStringLiteral("ca_file"), ca);
        sourceArray.append(source);
        return true;
    };
    for (int s = 0; s < o.sources; ++s) {
        simThreads.push_back(std::make_unique<sim::ServerThread>());
        sim::kube::KubeSimulator *sim = sim::kube::KubeSimulator::startOnThread(*simThreads.back(), {}, &error);
        if (sim) {
            sims.push_back(sim);
        }
        if (!addSource({{QStringLiteral("name"), QStringLiteral("k8s-%1").arg(s)},
                        {QStringLiteral("kind"), QStringLiteral("kubernetes")},
                        {QStringLiteral("password"),
                         QJsonObject{{QStringLiteral("env"), QStringLiteral("STRATA_BENCH_KUBE_TOKEN")}}}},
                       "a Kubernetes",
                       sim ? sim->baseUrl() : QString(),
                       sim ? sim->caPem() : QByteArray())) {
            return 1;
        }
    }
    for (int s = 0; s < o.ontap; ++s) {
        simThreads.push_back(std::make_unique<sim::ServerThread>());
        sim::ontap::OntapSimulator *sim = sim::ontap::OntapSimulator::startOnThread(*simThreads.back(), {}, &error);
        if (sim) {
            ontaps.push_back(sim);
        }
        if (!addSource({{QStringLiteral("name"), QStringLiteral("ontap-%1").arg(s)},
                        {QStringLiteral("kind"), QStringLiteral("ontap")},
                        {QStringLiteral("username"), sim ? sim->options().username : QString()},
                        {QStringLiteral("password"),
                         QJsonObject{{QStringLiteral("env"), QStringLiteral("STRATA_BENCH_ONTAP_PASSWORD")}}},
                        {QStringLiteral("poll"),
                         QJsonObject{{QStringLiteral("config_seconds"), o.ontapPollS},
                                     {QStringLiteral("performance_seconds"), o.ontapPollS}}}},
                       "an ONTAP",
                       sim ? sim->baseUrl() : QString(),
                       sim ? sim->certificatePem() : QByteArray())) {
            return 1;
        }
    }
    QStringList sourceNames;
    for (const QJsonValue &source : std::as_const(sourceArray)) {
        sourceNames << source.toObject().value(QLatin1String("name")).toString();
    }
    const QString configPath = dir.filePath(QStringLiteral("config.json"));
    {
        QFile config(configPath);
        if (!config.open(QIODevice::WriteOnly)
            || config.write(QJsonDocument(QJsonObject{{QStringLiteral("sources"), sourceArray}}).toJson()) < 0) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(configPath));
            return 1;
        }
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), dir.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral(".config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral(".local/share")));
    env.insert(QStringLiteral("STRATA_SECRET_STORE_PASSWORD"), storePassword);
    env.insert(QStringLiteral("STRATA_BENCH_KUBE_TOKEN"), sims.front()->token());
    if (!ontaps.empty()) {
        env.insert(QStringLiteral("STRATA_BENCH_ONTAP_PASSWORD"), ontaps.front()->options().password);
    }
    for (const char *name : {"PGPASSWORD", "STRATA_STORE", "STRATA_CONFIG", "STRATA_REPLICA_ID"}) {
        env.remove(QString::fromLatin1(name));
    }

    // The viewer account, in the store every replica reads (PBKDF2 at the production 600,000).
    const QString password = QStringLiteral("bench-password-1");
    {
        QProcessEnvironment userEnv = env;
        userEnv.insert(QStringLiteral("STRATA_NEW_PASSWORD"), password);
        const auto [code, output] = replicaRun(serverBinary,
                                               {QStringLiteral("user"),
                                                QStringLiteral("add"),
                                                QStringLiteral("viewer"),
                                                QStringLiteral("--role"),
                                                QStringLiteral("viewer"),
                                                QStringLiteral("--store"),
                                                store},
                                               userEnv,
                                               120000);
        if (code != 0) {
            std::fprintf(stderr, "strata-server user add failed (%d): %s\n", code, output.constData());
            return 1;
        }
    }

    const int maxConnections = o.viewers + 200;
    std::vector<ReplicaServer> servers(static_cast<std::size_t>(replicaCount));
    const auto startedAt = Clock::now();
    for (int r = 0; r < replicaCount; ++r) {
        ReplicaServer &server = servers[static_cast<std::size_t>(r)];
        server.id = QStringLiteral("r%1").arg(r);
        server.process = std::make_unique<QProcess>();
        server.process->setProcessEnvironment(env);
        server.process->setStandardErrorFile(dir.filePath(server.id + QStringLiteral(".log")));
        server.process->start(serverBinary,
                              {QStringLiteral("serve"),
                               QStringLiteral("--config"),
                               configPath,
                               QStringLiteral("--store"),
                               store,
                               QStringLiteral("--replica-id"),
                               server.id,
                               QStringLiteral("--lease-seconds"),
                               QString::number(o.leaseSeconds),
                               QStringLiteral("--listen"),
                               QStringLiteral("127.0.0.1:0"),
                               QStringLiteral("--max-connections"),
                               QString::number(maxConnections),
                               QStringLiteral("--max-connections-per-client"),
                               QString::number(maxConnections)});
    }
    const auto serverLogTails = [&] {
        for (const ReplicaServer &server : servers) {
            QFile log(dir.filePath(server.id + QStringLiteral(".log")));
            if (log.open(QIODevice::ReadOnly)) {
                std::fprintf(stderr,
                             "--- %s stderr (tail) ---\n%s\n",
                             qPrintable(server.id),
                             log.readAll().right(3000).constData());
            }
        }
    };
    const auto stopServers = [&] {
        for (ReplicaServer &server : servers) {
            if (server.process && server.process->state() != QProcess::NotRunning) {
                server.process->terminate();
            }
        }
        for (ReplicaServer &server : servers) {
            if (server.process && !server.process->waitForFinished(20000)) {
                server.process->kill();
                server.process->waitForFinished(5000);
            }
        }
    };
    const bool serving = bench::waitUntil(
        [&] {
            bool all = true;
            for (ReplicaServer &server : servers) {
                if (!server.base.isEmpty()) {
                    continue;
                }
                server.out += server.process->readAllStandardOutput();
                const qsizetype at = server.out.indexOf("serving the web console on ");
                const qsizetype end = at >= 0 ? server.out.indexOf('\n', at) : -1;
                if (end > at) {
                    server.base = QUrl(QString::fromUtf8(server.out.mid(at + 27, end - at - 27).trimmed()));
                    server.pid = server.process->processId();
                } else {
                    all = false;
                    if (server.process->state() == QProcess::NotRunning) {
                        return true;
                    }
                }
            }
            return all;
        },
        120000);
    for (const ReplicaServer &server : servers) {
        if (!serving || server.base.isEmpty()) {
            std::fprintf(stderr, "strata-server %s did not start\n", qPrintable(server.id));
            serverLogTails();
            stopServers();
            return 1;
        }
    }

    QNetworkAccessManager manager;
    const auto metricsOf = [&](const ReplicaServer &server) {
        return replicaHttpGet(manager, server.base.resolved(QUrl(QStringLiteral("/metrics"))), 10000);
    };
    // Leases balanced: every replica sees all live, every source has one poller, none holds more
    // than its share.
    const int share = (static_cast<int>(sourceNames.size()) + replicaCount - 1) / replicaCount;
    QHash<QString, QString> owners; // source -> replica id
    const bool balanced = bench::waitUntil(
        [&] {
            int held = 0;
            owners.clear();
            for (const ReplicaServer &server : servers) {
                const QByteArray metrics = metricsOf(server);
                const double live = replicaMetric(metrics, "strata_replica_live_replicas");
                const double mine = replicaMetric(metrics, "strata_replica_leases_held");
                if (static_cast<int>(live) != replicaCount || mine < 0 || mine > share) {
                    return false;
                }
                held += static_cast<int>(mine);
                for (const QString &source : std::as_const(sourceNames)) {
                    const QByteArray label =
                        "source=\"" + source.toLatin1() + "\",replica=\"" + server.id.toLatin1() + "\"";
                    if (replicaMetric(metrics, "strata_source_poller", label) == 1) {
                        owners.insert(source, server.id);
                    }
                }
            }
            return held == sourceNames.size() && owners.size() == sourceNames.size();
        },
        120000);
    const double balanceSeconds = std::chrono::duration<double>(Clock::now() - startedAt).count();
    if (!balanced) {
        std::fprintf(stderr, "the leases did not settle within 120 s\n");
        serverLogTails();
        stopServers();
        return 1;
    }
    std::printf("replicas: %d serving, leases balanced %.1f s after start:", replicaCount, balanceSeconds);
    for (const QString &source : std::as_const(sourceNames)) {
        std::printf(" %s@%s", qPrintable(source), qPrintable(owners.value(source)));
    }
    std::printf("\n");
    // Every replica has every source's records before the viewers come (the first shares).
    bench::waitUntil(
        [] {
            return false;
        },
        5000);

    // A handful of real logins, spread over the replicas; every replica accepts every cookie.
    QStringList sessions;
    QElapsedTimer loginTimer;
    loginTimer.start();
    for (int k = 0; k < o.sessions; ++k) {
        const ReplicaServer &server = servers[static_cast<std::size_t>(k % replicaCount)];
        const bench::LoginAnswer answer = bench::login(manager, server.base, QStringLiteral("viewer"), password, 60000);
        if (answer.session.isEmpty()) {
            std::fprintf(stderr, "login on %s failed: HTTP %d\n", qPrintable(server.id), answer.status);
            serverLogTails();
            stopServers();
            return 1;
        }
        sessions.append(answer.session);
    }
    std::printf("logins: %lld in %.1f s (PBKDF2 600,000)\n",
                static_cast<long long>(sessions.size()),
                static_cast<double>(loginTimer.elapsed()) / 1000.0);

    ReplicaShared shared;
    shared.delaysMs.assign(static_cast<std::size_t>(o.changes),
                           std::vector<std::vector<double>>(static_cast<std::size_t>(replicaCount)));
    shared.received.assign(static_cast<std::size_t>(o.changes), 0);
    std::vector<std::vector<ReplicaViewer>> perThread(static_cast<std::size_t>(o.clientThreads));
    std::vector<int> viewersOf(static_cast<std::size_t>(replicaCount), 0);
    for (int j = 0; j < o.viewers; ++j) {
        const int r = j % replicaCount;
        const ReplicaServer &server = servers[static_cast<std::size_t>(r)];
        perThread[static_cast<std::size_t>(j % o.clientThreads)].push_back(ReplicaViewer{
            bench::liveUrl(server.base), bench::originOf(server.base), sessions.at(j % sessions.size()), r});
        ++viewersOf[static_cast<std::size_t>(r)];
    }
    std::vector<double> cpuStart;
    for (const ReplicaServer &server : servers) {
        cpuStart.push_back(replicaProcessCpuSeconds(server.pid));
    }
    std::vector<std::unique_ptr<QThread>> threads;
    for (auto &mine : perThread) {
        auto thread = std::make_unique<QThread>();
        auto *group = new ReplicaViewerGroup(shared, std::move(mine));
        group->moveToThread(thread.get());
        QObject::connect(thread.get(), &QThread::finished, group, &QObject::deleteLater);
        thread->start();
        QMetaObject::invokeMethod(
            group,
            [group] {
                group->open();
            },
            Qt::QueuedConnection);
        threads.push_back(std::move(thread));
    }
    QElapsedTimer connectTimer;
    connectTimer.start();
    const bool connected = bench::waitUntil(
        [&] {
            return shared.hellos.load() >= o.viewers || shared.failures.load() > 0;
        },
        o.timeoutS * 1000);
    bool ok = connected && shared.failures.load() == 0;
    std::printf("viewers: %d connected of %d in %.2f s (",
                shared.hellos.load(),
                o.viewers,
                static_cast<double>(connectTimer.elapsed()) / 1000.0);
    for (int r = 0; r < replicaCount; ++r) {
        std::printf("%s%s: %d",
                    r ? ", " : "",
                    qPrintable(servers[static_cast<std::size_t>(r)].id),
                    viewersOf[static_cast<std::size_t>(r)]);
    }
    std::printf("), %d errors\n", shared.failures.load());

    const auto kubeRequests = [&] {
        long long total = 0;
        for (sim::kube::KubeSimulator *sim : sims) {
            total += sim->requestCount();
        }
        return total;
    };
    const auto ontapRequests = [&] {
        long long total = 0;
        for (sim::ontap::OntapSimulator *sim : ontaps) {
            total += sim->requestCount();
        }
        return total;
    };
    std::vector<double> cpuConnected;
    for (const ReplicaServer &server : servers) {
        cpuConnected.push_back(replicaProcessCpuSeconds(server.pid));
    }
    // Vendor API calls over a quiet window: the viewers connected, no change driven.
    if (ok && o.windowS > 0) {
        const long long kubeBefore = kubeRequests();
        const long long ontapBefore = ontapRequests();
        bench::waitUntil(
            [] {
                return false;
            },
            o.windowS * 1000);
        const long long kubeDuring = kubeRequests() - kubeBefore;
        const long long ontapDuring = ontapRequests() - ontapBefore;
        std::printf("vendor API requests in a quiet %d s window: Kubernetes %lld over %d API servers, ONTAP %lld "
                    "over %d clusters (polled every %d s); since they started: Kubernetes %lld, ONTAP %lld\n",
                    o.windowS,
                    kubeDuring,
                    o.sources,
                    ontapDuring,
                    o.ontap,
                    o.ontapPollS,
                    kubeRequests(),
                    ontapRequests());
    }

    std::vector<double> cpuBefore;
    for (const ReplicaServer &server : servers) {
        cpuBefore.push_back(replicaProcessCpuSeconds(server.pid));
    }
    const long long requestsBeforeChanges = kubeRequests();
    std::vector<std::vector<double>> local(static_cast<std::size_t>(replicaCount));  // viewers of the poller
    std::vector<std::vector<double>> remote(static_cast<std::size_t>(replicaCount)); // of the others
    for (int change = 1; ok && change <= o.changes; ++change) {
        bench::waitUntil(
            [] {
                return false;
            },
            o.gapMs);
        const int s = (change - 1) % o.sources;
        const QString source = QStringLiteral("k8s-%1").arg(s);
        sim::kube::KubeJobSpec spec;
        spec.namespace_ = QStringLiteral("runai-team-a");
        spec.name = replicaProbeName(change);
        spec.queue = QStringLiteral("team-a");
        spec.gpuMilli = 500;
        spec.durationSeconds = 30;
        const QJsonObject manifest = sim::kube::KubeSimulator::jobManifest(spec);
        shared.probe.store(change);
        shared.probeAtNs.store(Clock::now().time_since_epoch().count());
        if (QString createError;
            !sims[static_cast<std::size_t>(s)]->createObject(QStringLiteral("jobs"), manifest, &createError)) {
            std::fprintf(stderr, "change %d: %s\n", change, qPrintable(createError));
            ok = false;
            break;
        }
        const bool delivered = bench::waitUntil(
            [&] {
                std::lock_guard lock(shared.mutex);
                return shared.received[static_cast<std::size_t>(change - 1)] >= o.viewers;
            },
            o.timeoutS * 1000);
        std::vector<std::vector<double>> delays;
        {
            std::lock_guard lock(shared.mutex);
            delays = shared.delaysMs[static_cast<std::size_t>(change - 1)];
        }
        std::printf(
            "change %d (job at %s, polled by %s):", change, qPrintable(source), qPrintable(owners.value(source)));
        for (int r = 0; r < replicaCount; ++r) {
            const std::vector<double> &mine = delays[static_cast<std::size_t>(r)];
            std::printf(" %s %zu/%d p50 %.0f p99 %.0f max %.0f ms;",
                        qPrintable(servers[static_cast<std::size_t>(r)].id),
                        mine.size(),
                        viewersOf[static_cast<std::size_t>(r)],
                        bench::percentile(mine, 0.50),
                        bench::percentile(mine, 0.99),
                        bench::percentile(mine, 1.0));
            auto &bucket = servers[static_cast<std::size_t>(r)].id == owners.value(source) ? local : remote;
            bucket[static_cast<std::size_t>(r)].insert(
                bucket[static_cast<std::size_t>(r)].end(), mine.begin(), mine.end());
        }
        std::printf("\n");
        std::fflush(stdout);
        ok = ok && delivered;
    }
    const long long requestsDuringChanges = kubeRequests() - requestsBeforeChanges;

    std::printf("delivery delay, from the job's create at the simulator to the viewer's frame (live coalescing "
                "%d ms in the servers):\n",
                web::WebServerOptions{}.liveCoalesceMs);
    std::vector<double> allLocal;
    std::vector<double> allRemote;
    for (int r = 0; r < replicaCount; ++r) {
        const QString &id = servers[static_cast<std::size_t>(r)].id;
        std::vector<double> both = local[static_cast<std::size_t>(r)];
        both.insert(both.end(), remote[static_cast<std::size_t>(r)].begin(), remote[static_cast<std::size_t>(r)].end());
        printReplicaRow("all", id, both);
        printReplicaRow("polled", id, local[static_cast<std::size_t>(r)]);
        printReplicaRow("shared", id, remote[static_cast<std::size_t>(r)]);
        allLocal.insert(
            allLocal.end(), local[static_cast<std::size_t>(r)].begin(), local[static_cast<std::size_t>(r)].end());
        allRemote.insert(
            allRemote.end(), remote[static_cast<std::size_t>(r)].begin(), remote[static_cast<std::size_t>(r)].end());
    }
    printReplicaRow("polled", QStringLiteral("any"), allLocal);
    printReplicaRow("shared", QStringLiteral("any"), allRemote);
    std::printf("Kubernetes API requests during the %d changes: %lld; all vendor requests since the start: "
                "Kubernetes %lld, ONTAP %lld\n",
                o.changes,
                requestsDuringChanges,
                kubeRequests(),
                ontapRequests());
    std::printf("per replica (CPU from /proc/<pid>/stat; notify lag and states from /metrics):\n");
    for (int r = 0; r < replicaCount; ++r) {
        const ReplicaServer &server = servers[static_cast<std::size_t>(r)];
        const QByteArray metrics = metricsOf(server);
        const double cpuNow = replicaProcessCpuSeconds(server.pid);
        std::printf("  %s: CPU %.2f s connecting %d viewers, %.2f s in the quiet %d s window, %.2f s over the %d "
                    "changes, %.2f s in all; RSS %.1f MiB, peak %.1f MiB; notify lag last %.3f s, max %.3f s; states "
                    "shared %.0f, applied %.0f; leases held %.0f\n",
                    qPrintable(server.id),
                    cpuConnected[static_cast<std::size_t>(r)] - cpuStart[static_cast<std::size_t>(r)],
                    viewersOf[static_cast<std::size_t>(r)],
                    cpuBefore[static_cast<std::size_t>(r)] - cpuConnected[static_cast<std::size_t>(r)],
                    o.windowS,
                    cpuNow - cpuBefore[static_cast<std::size_t>(r)],
                    o.changes,
                    cpuNow,
                    bench::procStatusMiB(server.pid, "VmRSS:"),
                    bench::procStatusMiB(server.pid, "VmHWM:"),
                    replicaMetric(metrics, "strata_replica_notify_lag_seconds"),
                    replicaMetric(metrics, "strata_replica_notify_lag_max_seconds"),
                    replicaMetric(metrics, "strata_replica_states_shared_total"),
                    replicaMetric(metrics, "strata_replica_states_applied_total"),
                    replicaMetric(metrics, "strata_replica_leases_held"));
    }
    std::printf("bench process (viewers and simulators): CPU %.2f s, peak RSS %.1f MiB\n",
                processCpuSeconds(),
                bench::procStatusMiB(0, "VmHWM:"));
    std::fflush(stdout);

    for (auto &thread : threads) {
        thread->quit();
        thread->wait();
    }
    stopServers();
    if (!ok) {
        std::fprintf(stderr, "FAILED: a viewer did not connect or missed a change within %d s\n", o.timeoutS);
        serverLogTails();
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    Options o;
    if (!parse(app.arguments(), &o)) {
        std::fprintf(stderr,
                     "usage: strata_web_bench [--viewers N] [--projects N] [--changes N] [--client-threads N] "
                     "[--coalesce-ms MS] [--timeout-s S]\n"
                     "       strata_web_bench --replicas N [--viewers N] [--sources N] [--changes N] [--sessions N] "
                     "[--ontap N] [--ontap-poll-s S] [--lease-seconds S] [--window-s S] [--gap-ms MS] [--server PATH] "
                     "[--client-threads N] "
                     "[--timeout-s S]\n");
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
    if (o.replicas > 0) {
        return runReplicas(o);
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
