// A bounded soak of strata-server: the demo estate under churn, viewers reconnecting at random, a
// fault schedule on every simulator and scheduled service-level changes firing, for a few minutes
// (CI) or hours (by hand). It samples the server's RSS and descriptors, each source's poll health
// and the live feed's delay, and fails on a leak trend, descriptor growth, a scheduled change lost
// or applied twice, or a viewer that never catches up.
//
//   strata_soak [--minutes 3] [--viewers 500] [--client-threads 4] [--fault-every-s 10]
//               [--reconnect-mean-s 20] [--schedules 3] [--speed 4] [--sample-s 5]
//               [--max-rss-slope 6] [--warmup-s S] [--max-fd-growth 24] [--server PATH] [--seed N]
//
// Why the real binary: the soak spawns `strata-server serve` (the process an operator runs) with a
// config file, users file and secrets from the environment, exactly as systemd or the chart start
// it, so every piece of the server's runtime wiring (engine with schedules, history store, web
// server, connection limits) is the shipped one and nothing here re-implements it. The simulators
// (DemoEstate) and the viewers run in this process instead: the server's RSS and descriptor count
// (/proc/<pid>) are then its own, not mixed with the clients' sockets or the simulators' estate,
// and every simulator's fault hooks are at hand in-process (ONTAP's over its /_sim/faults route).
//
// What happens during the run:
// - viewers: each logs in over HTTP (its own session) and opens /api/v1/live; at random (mean
//   --reconnect-mean-s) it drops the socket and reconnects with ?since=<last revision> (the
//   catch-up contract), or logs out and starts over with a new session;
// - churn: the Kubernetes simulators run at --speed and `dgx` emits pod changes every second;
//   every 4 s a probe Job is created on `dgx`: the time from its creation to the frame that
//   carries it at each viewer is the live-feed delay (publish -> frame, watch and coalescing
//   included);
// - faults: every --fault-every-s the next simulator in turn misbehaves (5xx, 429 with
//   Retry-After, slow answers, reset connections, stalls, expired tokens, dropped watches);
// - scheduled changes: `strata-server set service-level VOLUME --to LEVEL --at TIME` (the CLI
//   path an operator uses with strata-server) on distinct ONTAP volumes, due during the run; the
//   first one's PATCH gets its answer lost after ONTAP applied it (apply_then_reset).
// At the end churn and faults stop; every viewer must be connected, caught up, and see a last
// probe; each schedule must have fired exactly once (its outcome, one audit entry, one ONTAP job
// and the volume's QoS policy).
#include "benchsupport.h"
#include "web/auth.h"

#include "demo/demoestate.h"
#include "models/core/domain/clock.h"
#include "models/core/store/config.h"
#include "models/core/store/credentialstore.h"
#include "simulators/azure/azuresimulator.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "simulators/storagegrid/storagegridsimulator.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QRandomGenerator>
#include <QSet>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QWebSocket>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <sys/resource.h>
#include <vector>

using namespace strata;

namespace {

using SoakClock = std::chrono::steady_clock;

qint64 soakNowNs()
{
    return SoakClock::now().time_since_epoch().count();
}

struct SoakOptions
{
    double minutes = 3;
    int viewers = 500;
    int clientThreads = 4;
    int faultEveryS = 10;
    double reconnectMeanS = 20;
    int schedules = 3;
    double speed = 4;
    int sampleS = 5;
    double maxRssSlope = 6; ///< MiB/min after the warm-up
    double warmupS = -1;    ///< samples before this are not in the RSS trend; -1 = the first half
    int maxFdGrowth = 24;
    QString server;
    quint32 seed = 1;
};

bool parseSoakOptions(const QStringList &args, SoakOptions *o)
{
    for (int i = 1; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (i + 1 >= args.size()) {
            return false;
        }
        const QString v = args.at(++i);
        bool ok = true;
        if (a == QLatin1String("--minutes")) {
            o->minutes = v.toDouble(&ok);
        } else if (a == QLatin1String("--viewers")) {
            o->viewers = v.toInt(&ok);
        } else if (a == QLatin1String("--client-threads")) {
            o->clientThreads = v.toInt(&ok);
        } else if (a == QLatin1String("--fault-every-s")) {
            o->faultEveryS = v.toInt(&ok);
        } else if (a == QLatin1String("--reconnect-mean-s")) {
            o->reconnectMeanS = v.toDouble(&ok);
        } else if (a == QLatin1String("--schedules")) {
            o->schedules = v.toInt(&ok);
        } else if (a == QLatin1String("--speed")) {
            o->speed = v.toDouble(&ok);
        } else if (a == QLatin1String("--sample-s")) {
            o->sampleS = v.toInt(&ok);
        } else if (a == QLatin1String("--max-rss-slope")) {
            o->maxRssSlope = v.toDouble(&ok);
        } else if (a == QLatin1String("--warmup-s")) {
            o->warmupS = v.toDouble(&ok);
        } else if (a == QLatin1String("--max-fd-growth")) {
            o->maxFdGrowth = v.toInt(&ok);
        } else if (a == QLatin1String("--server")) {
            o->server = v;
        } else if (a == QLatin1String("--seed")) {
            o->seed = v.toUInt(&ok);
        } else {
            return false;
        }
        if (!ok) {
            return false;
        }
    }
    return o->minutes > 0 && o->viewers > 0 && o->clientThreads > 0 && o->faultEveryS > 0 && o->reconnectMeanS > 0
           && o->schedules >= 0 && o->schedules <= 4 && o->speed > 0 && o->sampleS > 0;
}

/// The probe Job names: fixed width, so one never contains another.
QString probeName(int index)
{
    return QStringLiteral("soak-probe-%1").arg(index, 5, 10, QLatin1Char('0'));
}

/// What the viewers report, shared between their threads and the main thread.
struct ViewerStats
{
    std::atomic<int> connected{0};       ///< viewers with a hello on their current socket
    std::atomic<int> logins{0};          ///< sessions created
    std::atomic<int> loginRetries{0};    ///< refused or failed logins (retried)
    std::atomic<int> reconnects{0};      ///< reconnects with ?since=
    std::atomic<int> unexpectedDrops{0}; ///< sockets the server or network closed
    std::atomic<int> gaps{0};            ///< a diff whose revision was not the next one
    std::atomic<int> reloads{0};         ///< catch-up too old or too large: "reload"
    std::atomic<int> neverCaughtUp{0};   ///< connections not caught up within the deadline
    std::atomic<int> neverConnected{0};  ///< opens without a hello within the deadline
    std::atomic<bool> stopChurn{false};
    std::atomic<int> probe{0};        ///< current probe index (0 = none yet)
    std::atomic<qint64> probeAtNs{0}; ///< steady clock of its creation
    std::atomic<int> probeReceivers{0};
    std::mutex mutex;
    std::vector<double> delaysMs;  ///< probe creation -> frame, viewers connected before it
    std::vector<double> catchUpMs; ///< hello -> caught up, reconnects only
};

/// One thread's viewers: logins, sockets and random reconnects all live on that thread.
class ViewerGroup final : public QObject
{
public:
    ViewerGroup(ViewerStats &stats, QUrl base, QString password, int count, quint32 seed, double reconnectMeanS)
        : m_stats(stats)
        , m_base(std::move(base))
        , m_password(std::move(password))
        , m_viewers(static_cast<std::size_t>(count))
        , m_rng(seed)
        , m_reconnectMeanMs(reconnectMeanS * 1000.0)
    {}

    /// Logs every viewer in over `rampMs` and starts their churn (on the group's thread).
    void start(int rampMs)
    {
        m_manager = new QNetworkAccessManager(this);
        auto *watchdog = new QTimer(this);
        connect(watchdog, &QTimer::timeout, this, &ViewerGroup::checkProgress);
        watchdog->start(1000);
        for (std::size_t i = 0; i < m_viewers.size(); ++i) {
            QTimer::singleShot(uniformMs(0, rampMs), this, [this, i] {
                login(i);
            });
            scheduleChurn(i);
        }
    }

    /// Viewers not connected and caught up now (group's thread).
    [[nodiscard]] int notSettled() const
    {
        int n = 0;
        for (const Viewer &v : m_viewers) {
            n += v.ws && v.hello && v.caughtUp ? 0 : 1;
        }
        return n;
    }

    void closeAll()
    {
        for (Viewer &v : m_viewers) {
            if (v.ws) {
                v.closing = true;
                v.ws->close();
            }
        }
    }

private:
    struct Viewer
    {
        QWebSocket *ws = nullptr;
        QString session;
        QString csrf;
        qint64 lastRev = -1;      ///< newest revision seen (the `since` of a reconnect)
        qint64 expectedNext = -1; ///< the revision the next diff must carry
        qint64 catchUpTarget = -1;
        qint64 openedNs = 0;
        qint64 helloNs = 0;
        bool hello = false;
        bool caughtUp = false;
        bool closing = false;  ///< closed by the churn, not by the server
        bool reported = false; ///< this connection's failure was counted
        int probeSeen = 0;
    };

    int uniformMs(int lo, int hi) { return std::uniform_int_distribution<int>(lo, std::max(lo, hi))(m_rng); }

    void scheduleChurn(std::size_t i)
    {
        std::exponential_distribution<double> next(1.0 / m_reconnectMeanMs);
        const int ms = static_cast<int>(std::min(next(m_rng), 10 * m_reconnectMeanMs)) + 500;
        QTimer::singleShot(ms, this, [this, i] {
            churn(i);
        });
    }

    void login(std::size_t i)
    {
        bench::postLogin(
            *m_manager, m_base, QStringLiteral("viewer"), m_password, [this, i](const bench::LoginAnswer &a) {
                if (a.session.isEmpty()) {
                    // The login pool refuses when full (503) or throttles (429): a browser retries.
                    m_stats.loginRetries.fetch_add(1);
                    QTimer::singleShot(uniformMs(500, 2500), this, [this, i] {
                        login(i);
                    });
                    return;
                }
                m_stats.logins.fetch_add(1);
                Viewer &v = m_viewers[i];
                v.session = a.session;
                v.csrf = a.csrfToken;
                v.lastRev = -1; // a new page: it reads every resource over HTTP, then follows the feed
                open(i);
            });
    }

    void open(std::size_t i)
    {
        Viewer &v = m_viewers[i];
        v.ws = new QWebSocket(bench::originOf(m_base), QWebSocketProtocol::VersionLatest, this);
        v.hello = false;
        v.caughtUp = false;
        v.closing = false;
        v.reported = false;
        v.openedNs = soakNowNs();
        v.expectedNext = v.lastRev >= 0 ? v.lastRev + 1 : -1;
        if (v.lastRev >= 0) {
            m_stats.reconnects.fetch_add(1);
        }
        QWebSocket *ws = v.ws;
        connect(ws, &QWebSocket::textMessageReceived, this, [this, i, ws](const QString &message) {
            if (m_viewers[i].ws == ws) {
                onMessage(i, message);
            }
        });
        connect(ws, &QWebSocket::disconnected, this, [this, i, ws] {
            ws->deleteLater();
            if (m_viewers[i].ws == ws) {
                onClosed(i);
            }
        });
        QNetworkRequest request(bench::liveUrl(m_base, v.lastRev));
        request.setRawHeader("Cookie", "strata_session=" + v.session.toLatin1());
        ws->open(request);
    }

    static qint64 revisionOf(const QString &message)
    {
        static const QString key = QStringLiteral("\"revision\":");
        const qsizetype at = message.indexOf(key);
        if (at < 0) {
            return -1;
        }
        qint64 value = 0;
        for (qsizetype p = at + key.size(); p < message.size() && message.at(p).isDigit(); ++p) {
            value = value * 10 + message.at(p).digitValue();
        }
        return value;
    }

    void onMessage(std::size_t i, const QString &message)
    {
        Viewer &v = m_viewers[i];
        const qint64 now = soakNowNs();
        const qint64 revision = revisionOf(message);
        // The frame's type sits among its first keys (sorted: hello's "feed" and "revision" come
        // first), so a short head tells a hello from a diff without scanning a large diff.
        const QStringView head = QStringView(message).left(96);
        if (head.contains(QLatin1String("\"type\":\"hello\""))) {
            v.hello = true;
            v.helloNs = now;
            v.catchUpTarget = revision;
            m_stats.connected.fetch_add(1);
            if (v.expectedNext < 0) {
                v.expectedNext = revision + 1;
            }
            v.caughtUp = v.expectedNext > revision;
            v.lastRev = std::max(v.lastRev, revision);
            return;
        }
        if (message.contains(QLatin1String("\"type\":\"reload\""))) {
            m_stats.reloads.fetch_add(1);
            v.expectedNext = revision + 1;
            v.lastRev = revision;
            v.caughtUp = true;
            return;
        }
        if (revision < 0) {
            return;
        }
        if (v.expectedNext >= 0 && revision != v.expectedNext) {
            m_stats.gaps.fetch_add(1);
        }
        v.expectedNext = revision + 1;
        v.lastRev = revision;
        if (!v.caughtUp && revision >= v.catchUpTarget) {
            v.caughtUp = true;
            std::lock_guard lock(m_stats.mutex);
            m_stats.catchUpMs.push_back(static_cast<double>(now - v.helloNs) / 1e6);
        }
        const int probe = m_stats.probe.load();
        if (probe > v.probeSeen && message.contains(probeName(probe))) {
            v.probeSeen = probe;
            m_stats.probeReceivers.fetch_add(1);
            const qint64 at = m_stats.probeAtNs.load();
            if (v.helloNs <= at) {
                std::lock_guard lock(m_stats.mutex);
                m_stats.delaysMs.push_back(static_cast<double>(now - at) / 1e6);
            }
        }
    }

    void onClosed(std::size_t i)
    {
        Viewer &v = m_viewers[i];
        if (v.hello) {
            m_stats.connected.fetch_sub(1);
        }
        v.ws = nullptr;
        v.hello = false;
        if (!v.closing) {
            // The server dropped it (a slow viewer, a limit): reconnect as the page does.
            m_stats.unexpectedDrops.fetch_add(1);
            QTimer::singleShot(uniformMs(500, 1500), this, [this, i] {
                if (!m_viewers[i].ws) {
                    open(i);
                }
            });
        }
    }

    /// Drops the socket, then reconnects with ?since= (three in four) or logs out and in again.
    void churn(std::size_t i)
    {
        if (m_stats.stopChurn.load()) {
            return;
        }
        Viewer &v = m_viewers[i];
        if (v.ws && v.hello) {
            v.closing = true;
            v.ws->close();
            const bool newSession = uniformMs(0, 3) == 0;
            QTimer::singleShot(uniformMs(100, 3000), this, [this, i, newSession] {
                if (m_viewers[i].ws) {
                    return;
                }
                if (newSession) {
                    logout(i);
                    login(i);
                } else {
                    open(i);
                }
            });
        }
        scheduleChurn(i);
    }

    void logout(std::size_t i)
    {
        Viewer &v = m_viewers[i];
        QNetworkRequest request(m_base.resolved(QUrl(QStringLiteral("/api/v1/logout"))));
        request.setRawHeader("Cookie", "strata_session=" + v.session.toLatin1());
        request.setRawHeader("X-CSRF-Token", v.csrf.toLatin1());
        request.setRawHeader("Origin", bench::originOf(m_base).toLatin1());
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        QNetworkReply *reply = m_manager->post(request, QByteArray("{}"));
        connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
        v.session.clear();
    }

    /// A socket without a hello, or a hello not caught up, within 30 s is a failure.
    void checkProgress()
    {
        const qint64 now = soakNowNs();
        constexpr qint64 deadlineNs = 30'000'000'000LL;
        for (Viewer &v : m_viewers) {
            if (!v.ws || v.reported) {
                continue;
            }
            if (!v.hello && now - v.openedNs > deadlineNs) {
                v.reported = true;
                m_stats.neverConnected.fetch_add(1);
                std::fprintf(stderr, "soak: a viewer's socket got no hello within 30 s\n");
            } else if (v.hello && !v.caughtUp && now - v.helloNs > deadlineNs) {
                v.reported = true;
                m_stats.neverCaughtUp.fetch_add(1);
                std::fprintf(stderr,
                             "soak: a viewer did not catch up to revision %lld within 30 s (at %lld)\n",
                             static_cast<long long>(v.catchUpTarget),
                             static_cast<long long>(v.lastRev));
            }
        }
    }

    ViewerStats &m_stats;
    QUrl m_base;
    QString m_password;
    std::vector<Viewer> m_viewers;
    std::mt19937 m_rng;
    double m_reconnectMeanMs;
    QNetworkAccessManager *m_manager = nullptr;
};

/// One sample of the server process.
struct SoakSample
{
    double atS = 0;
    double rssMiB = 0;
    int fds = 0;
    int viewers = 0; ///< strata_web_live_viewers
    std::map<QString, int> up;
};

/// Least-squares slope of y over x; 0 with fewer than 3 points.
double slopeOf(const std::vector<std::pair<double, double>> &points)
{
    if (points.size() < 3) {
        return 0;
    }
    double sx = 0;
    double sy = 0;
    for (const auto &[x, y] : points) {
        sx += x;
        sy += y;
    }
    const double n = static_cast<double>(points.size());
    const double mx = sx / n;
    const double my = sy / n;
    double num = 0;
    double den = 0;
    for (const auto &[x, y] : points) {
        num += (x - mx) * (y - my);
        den += (x - mx) * (x - mx);
    }
    return den > 0 ? num / den : 0;
}

/// HTTP helper of the main thread: JSON requests to the server and to ONTAP's control routes.
class SoakHttp
{
public:
    struct Answer
    {
        int status = 0;
        QByteArray body;
    };

    Answer send(QNetworkRequest request, const QByteArray &method, const QByteArray &body = {}, int timeoutMs = 20000)
    {
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        QNetworkReply *reply = m_manager.sendCustomRequest(request, method, body);
        bench::waitUntil(
            [reply] {
                return reply->isFinished();
            },
            timeoutMs);
        Answer a;
        if (reply->isFinished()) {
            a.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            a.body = reply->readAll();
        } else {
            reply->abort();
        }
        reply->deleteLater();
        return a;
    }
    QNetworkAccessManager &manager() { return m_manager; }

private:
    QNetworkAccessManager m_manager;
};

/// A scheduled service-level change and what was seen of it.
struct SoakSchedule
{
    QString volume; ///< ONTAP volume name in svm_ai
    QString from;
    QString to;
    double dueS = 0; ///< seconds after the run started
    qint64 id = 0;
    QString uuid;
    QString lastOutcome;
    int actions = 0;       ///< distinct audited action ids (submissions)
    int auditOutcomes = 0; ///< entries with an outcome (not "started")
    QString auditOutcome;  ///< the last of them: "succeeded", or "reconciled" after a lost answer
    int ontapJobs = 0;
    QString finalPolicy;
};

/// A fault rule in the JSON form the ONTAP, Kubernetes and Azure simulators share, on GETs (the
/// polls): `kind` status, latency or reset.
QJsonObject soakFault(const char *kind, int count, int status = 0, int latencyMs = 0, int retryAfterS = 0)
{
    QJsonObject rule{{QStringLiteral("method"), QStringLiteral("GET")},
                     {QStringLiteral("kind"), QLatin1String(kind)},
                     {QStringLiteral("count"), count}};
    if (status > 0) {
        rule.insert(QStringLiteral("status"), status);
    }
    if (latencyMs > 0) {
        rule.insert(QStringLiteral("latency_ms"), latencyMs);
    }
    if (retryAfterS > 0) {
        rule.insert(QStringLiteral("retryAfterSeconds"), retryAfterS);
    }
    return rule;
}

QString secretsEnvironmentName(const QString &key)
{
    return core::EnvFileCredentialStore::environmentVariableFor(key);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    SoakOptions o;
    if (!parseSoakOptions(app.arguments(), &o)) {
        std::fprintf(
            stderr,
            "usage: strata_soak [--minutes M] [--viewers N] [--client-threads N] [--fault-every-s S] "
            "[--reconnect-mean-s S] [--schedules 0..4] [--speed X] [--sample-s S] [--max-rss-slope MIB_PER_MIN] "
            "[--warmup-s S] "
            "[--max-fd-growth N] [--server PATH] [--seed N]\n");
        return 2;
    }
    if (o.server.isEmpty()) {
        o.server = QCoreApplication::applicationDirPath() + QStringLiteral("/../../app/server/strata-server");
    }
    if (!QFile::exists(o.server)) {
        std::fprintf(stderr, "soak: no strata-server at %s (--server PATH)\n", qPrintable(o.server));
        return 2;
    }
    rlimit files{};
    getrlimit(RLIMIT_NOFILE, &files);
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
    const double runS = o.minutes * 60.0;
    std::mt19937 rng(o.seed);

    // The estate, its config file and its secrets as the server's environment.
    QString error;
    demo::DemoEstate::Options demoOptions;
    demoOptions.speed = o.speed;
    auto started = demo::DemoEstate::start(demoOptions);
    if (!started) {
        std::fprintf(stderr, "soak: the demo estate did not start: %s\n", qPrintable(started.error().message));
        return 1;
    }
    std::unique_ptr<demo::DemoEstate> estate = std::move(*started);
    QTemporaryDir dir;
    core::AppConfig config = estate->config();
    config.historyPath = dir.filePath(QStringLiteral("history.sqlite"));
    const QString configPath = dir.filePath(QStringLiteral("config.json"));
    if (const core::Status saved = config.save(configPath); !saved) {
        std::fprintf(stderr, "soak: %s\n", qPrintable(saved.error().message));
        return 1;
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    std::map<QString, QString> secrets; // key -> value
    auto wantSecret = [&](const core::SecretRef &ref) {
        if (ref.kind == core::SecretRef::Kind::Keychain) {
            secrets[ref.value];
        }
    };
    for (const core::SourceConfig &s : std::as_const(config.sources)) {
        wantSecret(s.password);
        wantSecret(s.s3Secret);
    }
    if (config.sentiment) {
        wantSecret(config.sentiment->s3Secret);
    }
    int pending = static_cast<int>(secrets.size());
    for (auto &[key, value] : secrets) {
        estate->credentials().read(key, [&pending, &value](std::optional<QString> secret, QString) {
            value = secret.value_or(QString());
            --pending;
        });
    }
    bench::waitUntil(
        [&] {
            return pending == 0;
        },
        5000);
    for (const auto &[key, value] : secrets) {
        env.insert(secretsEnvironmentName(key), value);
    }
    // ASan keeps freed memory in quarantine (256 MiB by default): a small one, so its filling is
    // not mistaken for a leak trend.
    const QString asan = env.value(QStringLiteral("ASAN_OPTIONS"));
    if (!asan.contains(QLatin1String("quarantine_size_mb"))) {
        env.insert(QStringLiteral("ASAN_OPTIONS"),
                   (asan.isEmpty() ? QString() : asan + QLatin1Char(':')) + QStringLiteral("quarantine_size_mb=16"));
    }

    const QString password = QStringLiteral("soak-viewer-password");
    {
        core::SystemClock clock;
        web::UserStore users(dir.filePath(QStringLiteral("users.json")), clock);
        // A cheap hash: the viewers log in hundreds of times, and the login pool's cost is not
        // what the soak measures.
        if (const core::Status added = users.addUser(QStringLiteral("viewer"), password, web::Role::Viewer, 1000);
            !added) {
            std::fprintf(stderr, "soak: cannot add the viewer: %s\n", qPrintable(added.error().message));
            return 1;
        }
    }

    // The scheduled changes go in before the server starts: the CLI reads ONTAP without faults.
    const std::vector<std::pair<QString, std::pair<QString, QString>>> volumes{
        {QStringLiteral("chest_xray"), {QStringLiteral("performance"), QStringLiteral("extreme")}},
        {QStringLiteral("imagenet"), {QStringLiteral("extreme"), QStringLiteral("performance")}},
        {QStringLiteral("tusimple"), {QStringLiteral("ai-training"), QStringLiteral("extreme")}},
        {QStringLiteral("criteo"), {QStringLiteral("ai-training"), QStringLiteral("performance")}}};
    std::vector<SoakSchedule> schedules;
    const auto runStart = SoakClock::now();
    auto elapsedS = [&runStart] {
        return std::chrono::duration<double>(SoakClock::now() - runStart).count();
    };
    const QDateTime wallStart = QDateTime::currentDateTimeUtc();
    for (int i = 0; i < o.schedules; ++i) {
        SoakSchedule s;
        s.volume = volumes[static_cast<std::size_t>(i)].first;
        s.from = volumes[static_cast<std::size_t>(i)].second.first;
        s.to = volumes[static_cast<std::size_t>(i)].second.second;
        // Due between 45 s in and 20 s before the end: the server reads schedules the CLI wrote
        // every 60 s, so the first may fire at that reload and the others on their timer.
        s.dueS = 45.0 + (o.schedules > 1 ? i * std::max(10.0, (runS - 65.0) / (o.schedules - 1)) : 0.0);
        if (s.dueS > runS - 15) {
            std::fprintf(stderr, "soak: %d schedules do not fit into %.1f minutes\n", o.schedules, o.minutes);
            return 2;
        }
        schedules.push_back(s);
    }

    QProcess server;
    server.setProcessEnvironment(env);
    server.setProcessChannelMode(QProcess::SeparateChannels);
    server.setStandardErrorFile(dir.filePath(QStringLiteral("server.log")));
    const int maxConnections = o.viewers * 2 + 200;
    server.start(o.server,
                 {QStringLiteral("serve"),
                  QStringLiteral("--config"),
                  configPath,
                  QStringLiteral("--users"),
                  dir.filePath(QStringLiteral("users.json")),
                  QStringLiteral("--listen"),
                  QStringLiteral("127.0.0.1:0"),
                  QStringLiteral("--max-connections"),
                  QString::number(maxConnections),
                  QStringLiteral("--max-connections-per-client"),
                  QString::number(maxConnections)});
    QByteArray serverOut;
    QUrl base;
    bench::waitUntil(
        [&] {
            serverOut += server.readAllStandardOutput();
            const qsizetype at = serverOut.indexOf("serving the web console on ");
            if (at >= 0 && serverOut.indexOf('\n', at) > at) {
                const qsizetype from = at + 27;
                base = QUrl(QString::fromUtf8(serverOut.mid(from, serverOut.indexOf('\n', at) - from).trimmed()));
                return true;
            }
            return server.state() == QProcess::NotRunning;
        },
        60000);
    auto serverLogTail = [&dir] {
        QFile f(dir.filePath(QStringLiteral("server.log")));
        if (f.open(QIODevice::ReadOnly)) {
            const QByteArray all = f.readAll();
            std::fprintf(stderr, "--- strata-server stderr (tail) ---\n%s\n", all.right(4000).constData());
        }
    };
    if (!base.isValid() || base.port() <= 0) {
        std::fprintf(stderr, "soak: strata-server did not start\n%s\n", serverOut.constData());
        serverLogTail();
        return 1;
    }
    const qint64 pid = server.processId();
    std::printf("soak: strata-server pid %lld on %s; %d viewers, %.1f min, faults every %d s, %d schedules\n",
                static_cast<long long>(pid),
                qPrintable(base.toString()),
                o.viewers,
                o.minutes,
                o.faultEveryS,
                o.schedules);
    std::fflush(stdout);

    for (SoakSchedule &s : schedules) {
        QProcess cli;
        cli.setProcessEnvironment(env);
        // A slow machine (ASan, a loaded CI) may spend the first seconds starting up: a change
        // must still lie ahead when the CLI stores it.
        QDateTime due = wallStart.addMSecs(static_cast<qint64>(s.dueS * 1000));
        const QDateTime earliest = QDateTime::currentDateTimeUtc().addSecs(15);
        if (due < earliest) {
            due = earliest;
            s.dueS = static_cast<double>(wallStart.msecsTo(due)) / 1000.0;
        }
        cli.start(o.server,
                  {QStringLiteral("--config"),
                   configPath,
                   QStringLiteral("set"),
                   QStringLiteral("service-level"),
                   QStringLiteral("svm_ai/") + s.volume,
                   QStringLiteral("--to"),
                   s.to,
                   QStringLiteral("--at"),
                   due.toString(Qt::ISODate),
                   QStringLiteral("--source"),
                   QStringLiteral("ontap-ai"),
                   QStringLiteral("-o"),
                   QStringLiteral("json")});
        if (!cli.waitForFinished(60000) || cli.exitCode() != 0) {
            std::fprintf(stderr,
                         "soak: `set service-level %s --at` failed: %s%s\n",
                         qPrintable(s.volume),
                         cli.readAllStandardOutput().constData(),
                         cli.readAllStandardError().constData());
            server.kill();
            return 1;
        }
        s.id = QJsonDocument::fromJson(cli.readAllStandardOutput())
                   .object()
                   .value(QStringLiteral("schedule_id"))
                   .toInteger();
    }

    // ONTAP's control routes (basic auth, its own CA).
    SoakHttp http;
    const core::SourceConfig *ontapSource = config.source(QStringLiteral("ontap-ai"));
    QSslConfiguration ontapTls = QSslConfiguration::defaultConfiguration();
    ontapTls.setCaCertificates(QSslCertificate::fromPath(ontapSource->caFile));
    const QByteArray ontapAuth =
        "Basic "
        + (ontapSource->username + QLatin1Char(':') + secrets[ontapSource->password.value]).toUtf8().toBase64();
    auto ontap = [&](const QByteArray &method, const QString &path, const QJsonObject &body = {}) {
        QNetworkRequest request(QUrl(estate->ontapUrl() + path));
        request.setSslConfiguration(ontapTls);
        request.setRawHeader("Authorization", ontapAuth);
        return http.send(
            request, method, body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson(QJsonDocument::Compact));
    };
    auto addOntapFault = [&](QJsonObject rule) {
        if (ontap("POST", QStringLiteral("/_sim/faults"), rule).status != 201) {
            std::fprintf(stderr, "soak: ONTAP refused the fault %s\n", QJsonDocument(rule).toJson().constData());
        }
    };
    for (SoakSchedule &s : schedules) {
        const auto a = ontap("GET", QStringLiteral("/api/storage/volumes?name=%1&fields=uuid").arg(s.volume));
        s.uuid = QJsonDocument::fromJson(a.body)
                     .object()
                     .value(QStringLiteral("records"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("uuid"))
                     .toString();
    }
    if (!schedules.empty()) {
        // The first scheduled PATCH is applied, then its answer is lost: it must not run twice.
        addOntapFault(QJsonObject{{QStringLiteral("method"), QStringLiteral("PATCH")},
                                  {QStringLiteral("path"), QStringLiteral("^/api/storage/volumes/")},
                                  {QStringLiteral("kind"), QStringLiteral("apply_then_reset")},
                                  {QStringLiteral("count"), 1}});
    }

    // The soak's own session: /metrics, the schedules and the audit.
    const bench::LoginAnswer admin = bench::login(http.manager(), base, QStringLiteral("viewer"), password, 20000);
    if (admin.session.isEmpty()) {
        std::fprintf(stderr, "soak: login failed: HTTP %d\n", admin.status);
        server.kill();
        return 1;
    }
    auto serverGet = [&](const QString &path) {
        QNetworkRequest request(base.resolved(QUrl(path)));
        request.setRawHeader("Cookie", "strata_session=" + admin.session.toLatin1());
        return http.send(request, "GET");
    };

    // Viewers.
    ViewerStats stats;
    std::vector<std::unique_ptr<QThread>> threads;
    std::vector<ViewerGroup *> groups;
    const int rampMs = std::min(20000, 20 * o.viewers);
    for (int t = 0; t < o.clientThreads; ++t) {
        const int count = o.viewers / o.clientThreads + (t < o.viewers % o.clientThreads ? 1 : 0);
        auto thread = std::make_unique<QThread>();
        auto *group =
            new ViewerGroup(stats, base, password, count, o.seed * 7919 + static_cast<quint32>(t), o.reconnectMeanS);
        group->moveToThread(thread.get());
        QObject::connect(thread.get(), &QThread::finished, group, &QObject::deleteLater);
        thread->start();
        QMetaObject::invokeMethod(
            group,
            [group, rampMs] {
                group->start(rampMs);
            },
            Qt::QueuedConnection);
        groups.push_back(group);
        threads.push_back(std::move(thread));
    }
    auto stopViewers = [&] {
        for (std::size_t t = 0; t < groups.size(); ++t) {
            QMetaObject::invokeMethod(
                groups[t],
                [group = groups[t]] {
                    group->closeAll();
                },
                Qt::BlockingQueuedConnection);
            threads[t]->quit();
            threads[t]->wait();
        }
    };

    // Churn on `dgx`, and probes.
    estate->kubernetes()->setChurn(2);
    QNetworkAccessManager kubeManager;
    QSslConfiguration kubeTls = QSslConfiguration::defaultConfiguration();
    kubeTls.setCaCertificates(QSslCertificate::fromData(estate->kubernetes()->caPem()));
    auto publishProbe = [&] {
        const int index = stats.probe.load() + 1;
        sim::kube::KubeJobSpec spec;
        spec.namespace_ = QStringLiteral("runai-team-a");
        spec.name = probeName(index);
        spec.queue = QStringLiteral("team-a");
        spec.gpuMilli = 500;
        spec.durationSeconds = 30;
        stats.probeReceivers.store(0);
        stats.probeAtNs.store(soakNowNs());
        stats.probe.store(index);
        QString createError;
        if (!estate->kubernetes()->createObject(
                QStringLiteral("jobs"), sim::kube::KubeSimulator::jobManifest(spec), &createError)) {
            std::fprintf(stderr, "soak: probe %d: %s\n", index, qPrintable(createError));
        }
        // Old probes go, so the estate stays the same size over hours.
        if (index > 5) {
            QNetworkRequest request(QUrl(estate->kubernetes()->baseUrl()
                                         + QStringLiteral("/apis/batch/v1/namespaces/runai-team-a/jobs/")
                                         + probeName(index - 5) + QStringLiteral("?propagationPolicy=Background")));
            request.setSslConfiguration(kubeTls);
            request.setRawHeader("Authorization", "Bearer " + estate->kubernetes()->token().toLatin1());
            QNetworkReply *reply = kubeManager.deleteResource(request);
            QObject::connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
        }
    };

    // The fault schedule: the next simulator in turn, its next kind of trouble.
    struct Fault
    {
        QString name;
        std::function<void()> apply;
    };
    auto kubeRule = [](sim::kube::KubeSimulator *kube, QJsonObject rule) {
        QString e;
        if (kube->addFaultRule(rule, &e) < 0) {
            std::fprintf(stderr, "soak: kube fault refused: %s\n", qPrintable(e));
        }
    };
    auto azureRule = [&](QJsonObject rule) {
        QString e;
        if (estate->azure()->addFaultRule(rule, &e) < 0) {
            std::fprintf(stderr, "soak: azure fault refused: %s\n", qPrintable(e));
        }
    };
    std::vector<std::vector<Fault>> faults{
        {{QStringLiteral("ontap-ai 503 x3"),
          [&] {
              addOntapFault(soakFault("status", 3, 503));
          }},
         {QStringLiteral("ontap-ai 429 x3"),
          [&] {
              addOntapFault(soakFault("status", 3, 429));
          }},
         {QStringLiteral("ontap-ai slow 3 s x4"),
          [&] {
              addOntapFault(soakFault("latency", 4, 0, 3000));
          }},
         {QStringLiteral("ontap-ai reset x3"),
          [&] {
              addOntapFault(soakFault("reset", 3));
          }},
         {QStringLiteral("ontap-ai truncated x2"),
          [&] {
              addOntapFault(soakFault("truncate", 2));
          }}},
        {{QStringLiteral("dgx 500 x3"),
          [&] {
              kubeRule(estate->kubernetes(), soakFault("status", 3, 500));
          }},
         {QStringLiteral("dgx watches dropped"),
          [&] {
              estate->kubernetes()->dropWatches();
          }},
         {QStringLiteral("dgx 429 Retry-After 2 x3"),
          [&] {
              kubeRule(estate->kubernetes(), soakFault("status", 3, 429, 0, 2));
          }},
         {QStringLiteral("dgx watches expired (410)"),
          [&] {
              estate->kubernetes()->expireWatches();
          }},
         {QStringLiteral("dgx slow 2 s x5"),
          [&] {
              kubeRule(estate->kubernetes(), soakFault("latency", 5, 0, 2000));
          }}},
        {{QStringLiteral("ai-lab 503 Retry-After 2 x3"),
          [&] {
              azureRule(soakFault("status", 3, 503, 0, 2));
          }},
         {QStringLiteral("ai-lab tokens expired"),
          [&] {
              estate->azure()->revokeTokens();
          }},
         {QStringLiteral("ai-lab 429 Retry-After 2 x3"),
          [&] {
              azureRule(soakFault("status", 3, 429, 0, 2));
          }},
         {QStringLiteral("ai-lab slow 2 s x5"),
          [&] {
              azureRule(soakFault("latency", 5, 0, 2000));
          }},
         {QStringLiteral("ai-lab reset x3"),
          [&] {
              azureRule(soakFault("reset", 3));
          }}},
        {{QStringLiteral("datalake 500 x3"),
          [&] {
              estate->grid()->addManagementFault(QStringLiteral("."), QStringLiteral("status"), 500, 3);
          }},
         {QStringLiteral("datalake tokens expired"),
          [&] {
              estate->grid()->revokeTokens();
          }},
         {QStringLiteral("datalake S3 503 SlowDown x3"),
          [&] {
              estate->grid()->injectSlowDown(3);
          }},
         {QStringLiteral("datalake reset x2"),
          [&] {
              estate->grid()->addManagementFault(QStringLiteral("."), QStringLiteral("reset"), 0, 2);
          }},
         {QStringLiteral("datalake S3 slow 2 s"),
          [&] {
              estate->grid()->setS3Latency(std::chrono::milliseconds(2000));
              QTimer::singleShot(o.faultEveryS * 1000 / 2, estate->grid(), [&estate] {
                  estate->grid()->setS3Latency(std::chrono::milliseconds(0));
              });
          }}},
        {{QStringLiteral("aks-gpu 500 x3"),
          [&] {
              kubeRule(estate->aks(), soakFault("status", 3, 500));
          }},
         {QStringLiteral("aks-gpu watches dropped"),
          [&] {
              estate->aks()->dropWatches();
          }},
         {QStringLiteral("aks-gpu reset x3"), [&] {
              kubeRule(estate->aks(), soakFault("reset", 3));
          }}}};
    std::map<QString, int> faultsFired;
    std::size_t faultTurn = 0;
    std::vector<std::size_t> faultNext(faults.size(), 0);
    auto fireFault = [&] {
        const std::size_t system = faultTurn++ % faults.size();
        const Fault &f = faults[system][faultNext[system]++ % faults[system].size()];
        f.apply();
        ++faultsFired[f.name];
        std::printf("%7.1f s  fault: %s\n", elapsedS(), qPrintable(f.name));
    };

    // ONTAP forgets finished jobs after 5 minutes: every sample collects them (uuid -> record).
    std::map<QString, QJsonObject> ontapJobs;
    auto collectOntapJobs = [&] {
        const auto jobs =
            QJsonDocument::fromJson(
                ontap("GET", QStringLiteral("/api/cluster/jobs?fields=uuid,description,state&max_records=10000")).body)
                .object()
                .value(QStringLiteral("records"))
                .toArray();
        for (const QJsonValue &j : jobs) {
            ontapJobs[j.toObject().value(QStringLiteral("uuid")).toString()] = j.toObject();
        }
    };
    std::vector<SoakSample> samples;
    std::map<QString, std::pair<int, int>> pollUp; // source -> (samples up, samples)
    auto takeSample = [&] {
        SoakSample s;
        s.atS = elapsedS();
        s.rssMiB = bench::procStatusMiB(pid, "VmRSS:");
        s.fds = bench::procOpenFiles(pid);
        const auto metrics = serverGet(QStringLiteral("/metrics"));
        for (const QByteArray &line : metrics.body.split('\n')) {
            if (line.startsWith("strata_source_up{")) {
                const qsizetype q = line.indexOf("source=\"");
                const qsizetype end = line.indexOf('"', q + 8);
                const QString source = QString::fromUtf8(line.mid(q + 8, end - q - 8));
                s.up[source] = line.trimmed().endsWith(" 1") ? 1 : 0;
                auto &[upCount, total] = pollUp[source];
                upCount += s.up[source];
                ++total;
            } else if (line.startsWith("strata_web_live_viewers ")) {
                s.viewers = line.mid(24).trimmed().toInt();
            }
        }
        samples.push_back(s);
        collectOntapJobs();
        QString down;
        for (const auto &[source, up] : s.up) {
            if (!up) {
                down += QLatin1Char(' ') + source;
            }
        }
        std::vector<double> delays;
        {
            std::lock_guard lock(stats.mutex);
            delays = stats.delaysMs;
        }
        std::printf("%7.1f s  RSS %7.1f MiB  fds %5d  viewers %4d (%4d live)  feed p50 %6.0f ms  down:%s\n",
                    s.atS,
                    s.rssMiB,
                    s.fds,
                    stats.connected.load(),
                    s.viewers,
                    bench::percentile(delays, 0.5),
                    down.isEmpty() ? " -" : qPrintable(down));
        std::fflush(stdout);
    };

    // The run: all on this thread's event loop.
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, &app, takeSample);
    QTimer faultTimer;
    QObject::connect(&faultTimer, &QTimer::timeout, &app, fireFault);
    QTimer prober;
    QObject::connect(&prober, &QTimer::timeout, &app, publishProbe);
    takeSample();
    sampler.start(o.sampleS * 1000);
    prober.start(4000);
    // Faults start once the viewers are in and the sources polled once.
    QTimer::singleShot(std::max(rampMs, 10000), &app, [&] {
        faultTimer.start(o.faultEveryS * 1000);
    });
    bool serverDied = false;
    bench::waitUntil(
        [&] {
            serverDied = server.state() == QProcess::NotRunning;
            return serverDied || elapsedS() >= runS;
        },
        static_cast<int>(runS * 1000) + 1000);
    faultTimer.stop();
    stats.stopChurn.store(true);
    estate->kubernetes()->setChurn(0);
    estate->kubernetes()->clearFaultRules();
    estate->aks()->clearFaultRules();
    ontap("DELETE", QStringLiteral("/_sim/faults"));
    estate->grid()->setS3Latency(std::chrono::milliseconds(0));
    std::printf("%7.1f s  churn and faults stop\n", elapsedS());

    // Settle: every viewer connected and caught up, then a last probe reaches all of them.
    auto notSettled = [&] {
        int n = 0;
        for (ViewerGroup *g : groups) {
            int part = 0;
            QMetaObject::invokeMethod(
                g,
                [g, &part] {
                    part = g->notSettled();
                },
                Qt::BlockingQueuedConnection);
            n += part;
        }
        return n;
    };
    int unsettled = o.viewers;
    bench::waitUntil(
        [&] {
            unsettled = notSettled();
            return serverDied || unsettled == 0;
        },
        60000);
    publishProbe();
    const int finalProbe = stats.probe.load();
    bench::waitUntil(
        [&] {
            return stats.probe.load() == finalProbe && stats.probeReceivers.load() >= o.viewers;
        },
        30000);
    const int finalReceivers = stats.probeReceivers.load();
    takeSample();
    const QJsonArray sourcesAtEnd = QJsonDocument::fromJson(serverGet(QStringLiteral("/api/v1/sources")).body).array();

    // The schedules: each fired once, with one audit entry and one ONTAP job.
    bench::waitUntil(
        [&] {
            const auto a = serverGet(QStringLiteral("/api/v1/schedules"));
            int done = 0;
            for (const QJsonValue &row : QJsonDocument::fromJson(a.body).array()) {
                const QString outcome = row.toObject().value(QStringLiteral("last_outcome")).toString();
                // "submitted" = its action still runs.
                done += outcome.isEmpty() || outcome == QLatin1String("submitted") ? 0 : 1;
            }
            return done >= o.schedules;
        },
        90000);
    {
        const auto rows = QJsonDocument::fromJson(serverGet(QStringLiteral("/api/v1/schedules")).body).array();
        const auto auditAnswer = serverGet(QStringLiteral("/api/v1/audit?limit=10000"));
        const auto audit = QJsonDocument::fromJson(auditAnswer.body).array();
        if (auditAnswer.status != 200) {
            std::fprintf(stderr, "soak: GET /api/v1/audit answered HTTP %d\n", auditAnswer.status);
        }
        collectOntapJobs();
        for (SoakSchedule &s : schedules) {
            for (const QJsonValue &row : rows) {
                if (row.toObject().value(QStringLiteral("id")).toInteger() == s.id) {
                    s.lastOutcome = row.toObject().value(QStringLiteral("last_outcome")).toString();
                }
            }
            // "svm_ai/chest_xray [volume <uuid>]": a "started" entry, then the outcome.
            QSet<QString> actionIds;
            for (const QJsonValue &e : audit) {
                const QJsonObject entry = e.toObject();
                if (entry.value(QStringLiteral("action")).toString() == QLatin1String("volume.service_level")
                    && entry.value(QStringLiteral("target")).toString().contains(s.uuid)) {
                    actionIds.insert(entry.value(QStringLiteral("action_id")).toString());
                    const QString outcome = entry.value(QStringLiteral("outcome")).toString();
                    if (outcome != QLatin1String("started")) {
                        ++s.auditOutcomes;
                        s.auditOutcome = outcome;
                    }
                }
            }
            s.actions = static_cast<int>(actionIds.size());
            for (const auto &[uuid, job] : ontapJobs) {
                s.ontapJobs += job.value(QStringLiteral("description")).toString()
                                           == QStringLiteral("PATCH /api/storage/volumes/") + s.uuid
                                       && job.value(QStringLiteral("state")).toString() == QLatin1String("success")
                                   ? 1
                                   : 0;
            }
            s.finalPolicy =
                QJsonDocument::fromJson(
                    ontap("GET", QStringLiteral("/api/storage/volumes/%1?fields=qos.policy.name").arg(s.uuid)).body)
                    .object()
                    .value(QStringLiteral("qos"))
                    .toObject()
                    .value(QStringLiteral("policy"))
                    .toObject()
                    .value(QStringLiteral("name"))
                    .toString();
        }
    }

    stopViewers();
    serverDied = serverDied || server.state() == QProcess::NotRunning;
    const int serverExit = serverDied ? server.exitCode() : 0;
    server.terminate();
    if (!server.waitForFinished(15000)) {
        server.kill();
        server.waitForFinished(5000);
    }

    // The report.
    // RSS trend after the warm-up (caches, the history store and the estate fill first).
    const double warmupS = o.warmupS >= 0 ? o.warmupS : runS / 2;
    std::vector<std::pair<double, double>> trend;
    for (const SoakSample &s : samples) {
        if (s.atS >= warmupS && s.atS <= runS + 1 && s.rssMiB > 0) {
            trend.emplace_back(s.atS / 60.0, s.rssMiB);
        }
    }
    const double rssSlope = slopeOf(trend);
    // Descriptors besides the viewers' sockets: their median while the churn ran, against the
    // quiet end (every viewer connected again).
    std::vector<double> others;
    for (const SoakSample &s : samples) {
        if (s.atS >= rampMs / 1000.0 + 5 && s.atS <= runS && s.fds > 0) {
            others.push_back(s.fds - s.viewers);
        }
    }
    const int fdBaseline = others.empty() ? -1 : static_cast<int>(bench::percentile(others, 0.5));
    std::vector<double> delays;
    std::vector<double> catchUps;
    {
        std::lock_guard lock(stats.mutex);
        delays = stats.delaysMs;
        catchUps = stats.catchUpMs;
    }
    const SoakSample &first = samples.front();
    const SoakSample &last = samples.back();
    double peak = 0;
    int fdPeak = 0;
    for (const SoakSample &s : samples) {
        peak = std::max(peak, s.rssMiB);
        fdPeak = std::max(fdPeak, s.fds);
    }
    std::printf("\n== strata-server soak: %.1f min, %d viewers ==\n", o.minutes, o.viewers);
    std::printf("RSS            start %.1f MiB, end %.1f MiB, peak %.1f MiB; second-half trend %+.2f MiB/min "
                "(limit %.2f)\n",
                first.rssMiB,
                last.rssMiB,
                peak,
                rssSlope,
                o.maxRssSlope);
    const int fdEnd = last.fds - last.viewers;
    std::printf("descriptors    start %d, peak %d, end %d with %d viewers; besides the viewers' sockets: %d during "
                "the churn (median), %d at the end (growth limit %d)\n",
                first.fds,
                fdPeak,
                last.fds,
                last.viewers,
                fdBaseline,
                fdEnd,
                o.maxFdGrowth);
    std::printf("viewers        %d logins (%d retried), %d reconnects with since, %d dropped by the server, "
                "%d reloads, %d gaps\n",
                stats.logins.load(),
                stats.loginRetries.load(),
                stats.reconnects.load(),
                stats.unexpectedDrops.load(),
                stats.reloads.load(),
                stats.gaps.load());
    std::printf("catch-up       %zu reconnects caught up: p50 %.0f ms, p99 %.0f ms; never caught up %d, no hello %d, "
                "unsettled at the end %d\n",
                catchUps.size(),
                bench::percentile(catchUps, 0.5),
                bench::percentile(catchUps, 0.99),
                stats.neverCaughtUp.load(),
                stats.neverConnected.load(),
                unsettled);
    std::printf("live feed      %zu probe deliveries: p50 %.0f ms, p99 %.0f ms, max %.0f ms (Job created -> frame); "
                "last probe reached %d of %d viewers\n",
                delays.size(),
                bench::percentile(delays, 0.5),
                bench::percentile(delays, 0.99),
                bench::percentile(delays, 1.0),
                finalReceivers,
                o.viewers);
    std::printf("poll success   ");
    for (const auto &[source, counts] : pollUp) {
        std::printf("%s %.0f %%  ", qPrintable(source), 100.0 * counts.first / std::max(1, counts.second));
    }
    std::printf("(samples with the source up)\nat the end     ");
    for (const QJsonValue &row : sourcesAtEnd) {
        const QJsonObject r = row.toObject();
        const QString error = r.value(QStringLiteral("last_error")).toString();
        std::printf("%s %s%s  ",
                    qPrintable(r.value(QStringLiteral("name")).toString()),
                    qPrintable(r.value(QStringLiteral("health")).toString()),
                    qPrintable(error.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(error)));
    }
    std::printf("\nfaults         ");
    int faultCount = 0;
    for (const auto &[name, n] : faultsFired) {
        faultCount += n;
    }
    std::printf("%d injected over %zu simulators\n", faultCount, faults.size());
    std::printf("%-12s %-12s %-12s %-6s %-12s %-8s %-14s %-10s %s\n",
                "schedule",
                "from",
                "to",
                "due s",
                "outcome",
                "actions",
                "audit outcome",
                "ONTAP jobs",
                "policy now");
    for (const SoakSchedule &s : schedules) {
        std::printf(
            "%-12s %-12s %-12s %-6.0f %-12s %-8d %-14s %-10d %s\n",
            qPrintable(s.volume),
            qPrintable(s.from),
            qPrintable(s.to),
            s.dueS,
            qPrintable(s.lastOutcome.isEmpty() ? QStringLiteral("-") : s.lastOutcome),
            s.actions,
            qPrintable(s.auditOutcomes == 1 ? s.auditOutcome : QStringLiteral("%1 entries").arg(s.auditOutcomes)),
            s.ontapJobs,
            qPrintable(s.finalPolicy));
    }

    QStringList failures;
    if (serverDied) {
        failures << QStringLiteral("strata-server exited (code %1) during the run").arg(serverExit);
    }
    if (rssSlope > o.maxRssSlope) {
        failures << QStringLiteral("RSS grows %1 MiB/min over the second half (limit %2)")
                        .arg(rssSlope, 0, 'f', 2)
                        .arg(o.maxRssSlope);
    }
    if (fdBaseline > 0 && fdEnd - fdBaseline > o.maxFdGrowth) {
        failures
            << QStringLiteral("descriptors besides the viewers' sockets grew from %1 to %2").arg(fdBaseline).arg(fdEnd);
    }
    if (stats.neverCaughtUp.load() > 0 || stats.neverConnected.load() > 0 || unsettled > 0) {
        failures << QStringLiteral("viewers that never caught up: %1 (no hello: %2, unsettled at the end: %3)")
                        .arg(stats.neverCaughtUp.load())
                        .arg(stats.neverConnected.load())
                        .arg(unsettled);
    }
    if (stats.gaps.load() > 0) {
        failures << QStringLiteral("%1 diffs skipped a revision").arg(stats.gaps.load());
    }
    if (finalReceivers < o.viewers) {
        failures << QStringLiteral("the last probe reached %1 of %2 viewers").arg(finalReceivers).arg(o.viewers);
    }
    for (const SoakSchedule &s : schedules) {
        const bool audited =
            s.actions == 1 && s.auditOutcomes == 1
            && (s.auditOutcome == QLatin1String("succeeded") || s.auditOutcome == QLatin1String("reconciled"));
        if (s.lastOutcome != QLatin1String("succeeded") || !audited || s.ontapJobs != 1 || s.finalPolicy != s.to) {
            failures << QStringLiteral("scheduled change of %1 to %2: schedule outcome \"%3\", %4 actions audited "
                                       "(%5 outcomes, last \"%6\"), %7 ONTAP jobs, policy now %8 (want exactly one)")
                            .arg(s.volume, s.to, s.lastOutcome)
                            .arg(s.actions)
                            .arg(s.auditOutcomes)
                            .arg(s.auditOutcome)
                            .arg(s.ontapJobs)
                            .arg(s.finalPolicy);
        }
    }
    if (!failures.isEmpty()) {
        for (const QString &f : std::as_const(failures)) {
            std::fprintf(stderr, "FAILED: %s\n", qPrintable(f));
        }
        serverLogTail();
        return 1;
    }
    std::printf("soak passed\n");
    return 0;
}
