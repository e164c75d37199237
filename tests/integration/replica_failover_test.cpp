// Three real `strata-server serve` replicas on one PostgreSQL database, with an ONTAP
// simulator behind two sources and an Azure simulator behind `ai-lab`: each source is polled by
// one replica and every replica shows every source. replica-0 runs an ANF pool change (whoever
// polls ai-lab) and is SIGKILLed with the LRO in flight: the source it polled moves to a live
// replica within the lease bound, another replica finishes the pool change once from the LRO
// (one outcome in the shared audit log, naming that replica), the browsers on the other replicas
// keep their live feeds and are sent the change, and the session made on the dead replica keeps
// working on the others. A second test kills whichever replica claimed a due schedule edge.

#include "models/core/domain/clock.h"
#include "models/core/domain/schedule.h"
#include "models/core/store/historystore.h"
#include "simulators/azure/azuresimulator.h"
#include "simulators/common/serverthread.h"
#include "simulators/ontap/ontapsimulator.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/pgfixture.h"
#include "tests/support/qt/webcall.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <QWebSocket>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>

using strata::testsupport::ScratchPostgresDatabase;
using strata::testsupport::succeeded;
using strata::testsupport::valueOf;
using namespace strata;

namespace {

const QString kFailoverAnfVolume = QStringLiteral("criteo-data");
constexpr int kFailoverReplicas = 3;
constexpr int kFailoverLeaseSeconds = 3;

using FailoverReply = testsupport::WebCallReply;

class ReplicaFailoverTest : public ::testing::Test
{
protected:
    sim::ServerThread ontapThread;
    sim::ServerThread azureThread;
    sim::ontap::OntapSimulator *ontap = nullptr;
    sim::azure::AzureSimulator *azure = nullptr;
    QTemporaryDir dir;
    std::unique_ptr<ScratchPostgresDatabase> database;
    QString storeUrl; ///< without the password
    QString storePassword;
    QString configPath;
    const QByteArray adminPassword = QByteArrayLiteral("failover-test-password-1");
    std::vector<std::unique_ptr<QProcess>> servers;
    QStringList bases; ///< http://127.0.0.1:<port> per replica
    std::vector<qint64> pids;
    QNetworkAccessManager net;

    void SetUp() override
    {
        database = std::make_unique<ScratchPostgresDatabase>();
        ASSERT_FALSE(database->url().isEmpty());
        QUrl url(database->url());
        storePassword = url.password();
        url.setPassword({});
        storeUrl = url.toString();

        sim::ontap::OntapSimulatorOptions ontapOptions;
        ontapOptions.tickInterval = std::chrono::milliseconds(0);
        QString error;
        ontap = sim::ontap::OntapSimulator::startOnThread(ontapThread, ontapOptions, &error);
        ASSERT_NE(ontap, nullptr) << error.toStdString();
        sim::azure::AzureSimulatorOptions azureOptions;
        azureOptions.lroDuration = std::chrono::milliseconds(4000);
        azureOptions.lroRetryAfterSeconds = 1;
        azure = sim::azure::AzureSimulator::startOnThread(azureThread, azureOptions, &error);
        ASSERT_NE(azure, nullptr) << error.toStdString();
        const QString ontapCa = dir.filePath(QStringLiteral("ontap-ca.pem"));
        const QString azureCa = dir.filePath(QStringLiteral("azure-ca.pem"));
        for (const auto &[path, pem] :
             {std::pair{ontapCa, ontap->certificatePem()}, std::pair{azureCa, azure->caPem()}}) {
            QFile f(path);
            ASSERT_TRUE(f.open(QIODevice::WriteOnly));
            f.write(pem);
        }
        QJsonArray sources;
        for (const QString &name : {QStringLiteral("ontap-a"), QStringLiteral("ontap-b")}) {
            sources.append(QJsonObject{
                {QStringLiteral("name"), name},
                {QStringLiteral("kind"), QStringLiteral("ontap")},
                {QStringLiteral("url"), ontap->baseUrl()},
                {QStringLiteral("username"), ontapOptions.username},
                {QStringLiteral("password"), QJsonObject{{QStringLiteral("env"), QStringLiteral("STRATA_FO_ONTAP")}}},
                {QStringLiteral("ca_file"), ontapCa},
                {QStringLiteral("poll"), QJsonObject{{QStringLiteral("config_seconds"), 5}}}});
        }
        sources.append(QJsonObject{
            {QStringLiteral("name"), QStringLiteral("ai-lab")},
            {QStringLiteral("kind"), QStringLiteral("azure")},
            {QStringLiteral("url"), azure->baseUrl()},
            {QStringLiteral("authority_url"), azure->baseUrl()},
            {QStringLiteral("tenant_id"), azureOptions.tenantId},
            {QStringLiteral("client_id"), azureOptions.clientId},
            {QStringLiteral("subscription_id"), azureOptions.subscriptionId},
            {QStringLiteral("password"), QJsonObject{{QStringLiteral("env"), QStringLiteral("STRATA_FO_AZURE")}}},
            {QStringLiteral("ca_file"), azureCa},
            {QStringLiteral("poll"), QJsonObject{{QStringLiteral("config_seconds"), 5}}}});
        configPath = dir.filePath(QStringLiteral("config.json"));
        QFile c(configPath);
        ASSERT_TRUE(c.open(QIODevice::WriteOnly));
        c.write(QJsonDocument(QJsonObject{{QStringLiteral("sources"), sources}}).toJson());
        c.close();
    }

    void TearDown() override
    {
        if (HasFailure()) {
            for (std::size_t i = 0; i < servers.size(); ++i) {
                std::fprintf(stderr,
                             "replica-%zu (%s):\n%s\n",
                             i,
                             servers[i]->state() == QProcess::Running ? "running" : "ended",
                             servers[i]->readAllStandardError().right(3000).constData());
            }
        }
        for (auto &server : servers) {
            if (server->state() != QProcess::NotRunning) {
                server->terminate();
                if (!server->waitForFinished(30000)) {
                    server->kill();
                    server->waitForFinished(10000);
                }
            }
        }
        servers.clear();
        database.reset();
    }

    /// Every replica carries the crash hook, and the first to reach it dies
    /// (STRATA_TEST_CRASH_ONCE): whichever claims a scheduled edge, a test cannot pick it.
    bool crashFirstRunner = false;

    /// `crashing`: the replica dies when an action it runs has its handle (STRATA_TEST_CRASH_AT);
    /// only the victim, as a replica taking the action over passes that step again.
    QProcessEnvironment environment(bool crashing = false) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), dir.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral(".config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral(".local/share")));
        env.insert(QStringLiteral("STRATA_FO_ONTAP"), ontap->options().password);
        env.insert(QStringLiteral("STRATA_FO_AZURE"), azure->options().clientSecret);
        env.insert(QStringLiteral("STRATA_SECRET_STORE_PASSWORD"), storePassword);
        env.remove(QStringLiteral("STRATA_STORE"));
        env.remove(QStringLiteral("PGPASSWORD"));
        env.remove(QStringLiteral("STRATA_TEST_CRASH_AT"));
        env.remove(QStringLiteral("STRATA_TEST_CRASH_ONCE"));
        if (crashing) {
            env.insert(QStringLiteral("STRATA_TEST_CRASH_AT"), QStringLiteral("handle"));
        }
        if (crashFirstRunner) {
            env.insert(QStringLiteral("STRATA_TEST_CRASH_AT"), QStringLiteral("handle"));
            env.insert(QStringLiteral("STRATA_TEST_CRASH_ONCE"), dir.filePath(QStringLiteral("crashed-once")));
        }
        return env;
    }

    static quint16 freePort()
    {
        QTcpServer probe;
        return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
    }

    void addAdmin()
    {
        QProcess add;
        QProcessEnvironment env = environment();
        env.insert(QStringLiteral("STRATA_NEW_PASSWORD"), QString::fromLatin1(adminPassword));
        add.setProcessEnvironment(env);
        add.start(QStringLiteral(STRATA_BINARY_DIR "/app/server/strata-server"), userAddArguments());
        ASSERT_TRUE(add.waitForFinished(60000));
        ASSERT_EQ(add.exitCode(), 0) << add.readAllStandardError().toStdString();
    }

    /// `user add admin` into the store the replicas share (users live there with a PostgreSQL store).
    QStringList userAddArguments() const
    {
        return {QStringLiteral("user"),
                QStringLiteral("add"),
                QStringLiteral("admin"),
                QStringLiteral("--role"),
                QStringLiteral("admin"),
                QStringLiteral("--store"),
                storeUrl};
    }

    void startReplica(int i)
    {
        const quint16 port = freePort();
        ASSERT_NE(port, 0);
        auto server = std::make_unique<QProcess>();
        server->setProcessEnvironment(environment(i == 0 && !crashFirstRunner));
        server->start(QStringLiteral(STRATA_BINARY_DIR "/app/server/strata-server"),
                      {QStringLiteral("serve"),
                       QStringLiteral("--config"),
                       configPath,
                       QStringLiteral("--store"),
                       storeUrl,
                       QStringLiteral("--replica-id"),
                       QStringLiteral("replica-%1").arg(i),
                       QStringLiteral("--lease-seconds"),
                       QString::number(kFailoverLeaseSeconds),
                       QStringLiteral("--listen"),
                       QStringLiteral("127.0.0.1:%1").arg(port)});
        QByteArray out;
        ASSERT_TRUE(QTest::qWaitFor(
            [&] {
                out += server->readAllStandardOutput();
                return out.contains("serving the web console") || server->state() == QProcess::NotRunning;
            },
            60000));
        ASSERT_EQ(server->state(), QProcess::Running) << server->readAllStandardError().toStdString();
        pids.push_back(server->processId());
        servers.push_back(std::move(server));
        bases << QStringLiteral("http://127.0.0.1:%1").arg(port);
    }

    FailoverReply
    call(const QString &url, const QByteArray &body = {}, const QByteArray &cookie = {}, const QByteArray &csrf = {})
    {
        return testsupport::webCall(net, url, body, cookie, csrf, 30000);
    }

    /// Replica i's /metrics, empty when it does not answer.
    QByteArray metrics(int i) { return call(bases.at(i) + QStringLiteral("/metrics")).body; }

    /// source -> replica polling it, as replica i's /metrics reports it.
    QHash<QString, QString> pollers(int i)
    {
        QHash<QString, QString> out;
        static const QRegularExpression line(
            QStringLiteral("^strata_source_poller\\{source=\"([^\"]+)\",replica=\"([^\"]*)\"\\} 1$"),
            QRegularExpression::MultilineOption);
        auto it = line.globalMatch(QString::fromUtf8(metrics(i)));
        while (it.hasNext()) {
            const auto m = it.next();
            out.insert(m.captured(1), m.captured(2));
        }
        return out;
    }

    /// A Prometheus sample `name{labels}` of replica i, or -1.
    double sample(int i, const QString &series)
    {
        const QString text = QString::fromUtf8(metrics(i));
        for (const QString &l : text.split(QLatin1Char('\n'))) {
            if (l.startsWith(series + QLatin1Char(' '))) {
                return l.mid(series.size() + 1).toDouble();
            }
        }
        return -1;
    }

    /// Waits until each replica polls one source and all three agree on who polls what; returns
    /// source -> replica.
    QHash<QString, QString> agreedOwners()
    {
        QHash<QString, QString> owners;
        const bool agreed = QTest::qWaitFor(
            [&] {
                owners = pollers(0);
                QSet<QString> distinct;
                for (const QString &o : std::as_const(owners)) {
                    if (!o.isEmpty()) {
                        distinct.insert(o);
                    }
                }
                return owners.size() == 3 && distinct.size() == 3 && pollers(1) == owners && pollers(2) == owners;
            },
            60000);
        EXPECT_TRUE(agreed) << metrics(0).toStdString();
        return agreed ? owners : QHash<QString, QString>();
    }

    /// Logs the admin in on every replica.
    std::vector<FailoverReply> loginEverywhere()
    {
        const QByteArray login =
            QJsonDocument(QJsonObject{{QStringLiteral("user"), QStringLiteral("admin")},
                                      {QStringLiteral("password"), QString::fromLatin1(adminPassword)}})
                .toJson();
        std::vector<FailoverReply> sessions;
        for (const QString &base : std::as_const(bases)) {
            sessions.push_back(call(base + QStringLiteral("/api/v1/login"), login));
            EXPECT_EQ(sessions.back().status, 200) << sessions.back().body.toStdString();
        }
        return sessions;
    }

    /// The capacity pool replica i shows the ANF volume in, empty when it does not show it.
    QString poolOn(int i, const FailoverReply &session)
    {
        const FailoverReply r = call(bases.at(i) + QStringLiteral("/api/v1/volumes"), QByteArray(), session.cookie);
        for (const QJsonValue &v : QJsonDocument::fromJson(r.body).array()) {
            const QJsonObject o = v.toObject();
            if (o.value(QStringLiteral("name")).toString() == kFailoverAnfVolume) {
                return o.value(QStringLiteral("aggregate")).toString(); // ANF: the capacity pool
            }
        }
        return {};
    }

    /// The shared audit log has no gap and no duplicate: each action has exactly one "started"
    /// entry and one outcome after it, ids are unique, and no journal entry is left open.
    /// Returns the outcomes of `kind`, once the journal is closed (or after 60 s).
    std::vector<core::AuditEntry> expectCompleteAudit(core::SqlHistoryStore &store, const QString &kind)
    {
        std::vector<core::AuditEntry> all;
        EXPECT_TRUE(QTest::qWaitFor(
            [&] {
                return valueOf(store.openJournal()).empty();
            },
            60000))
            << "an action is still open in the journal";
        all = valueOf(store.auditLog(0));
        QHash<QString, int> started;
        QHash<QString, int> finished;
        QSet<qint64> ids;
        std::vector<core::AuditEntry> outcomes;
        // auditLog() is newest first: walk it oldest first, so an outcome must follow its start.
        for (auto it = all.crbegin(); it != all.crend(); ++it) {
            const core::AuditEntry &e = *it;
            EXPECT_FALSE(ids.contains(e.id)) << "audit id " << e.id << " twice";
            ids.insert(e.id);
            if (e.outcome == QLatin1String("started")) {
                ++started[e.actionId];
                continue;
            }
            EXPECT_EQ(started.value(e.actionId), 1) << e.actionId.toStdString() << ": an outcome without one start";
            ++finished[e.actionId];
            if (e.kind == kind) {
                outcomes.push_back(e);
            }
        }
        for (auto it = started.cbegin(); it != started.cend(); ++it) {
            EXPECT_EQ(it.value(), 1) << it.key().toStdString() << " started " << it.value() << " times";
            EXPECT_EQ(finished.value(it.key()), 1)
                << it.key().toStdString() << " has " << finished.value(it.key()) << " outcomes";
        }
        return outcomes;
    }

    /// "/<pid>" of replica i, as the audit's "<host>/<pid>" ends (kept: a dead QProcess forgets it).
    QString processOf(int i) const { return QStringLiteral("/%1").arg(pids.at(std::size_t(i))); }

    /// Azure has moved the ANF volume to Premium, and each replica in `replicas` shows it in
    /// pool-premium (through its own poll or the shared state).
    void expectPremiumOn(const QList<int> &replicas, const std::vector<FailoverReply> &sessions)
    {
        ASSERT_TRUE(QTest::qWaitFor(
            [&] {
                return anfLevel() == QStringLiteral("Premium");
            },
            60000));
        expectPoolOn(replicas, sessions, QStringLiteral("pool-premium"));
    }

    /// Each replica in `replicas` shows the ANF volume in capacity pool `pool` within 60 s.
    void expectPoolOn(const QList<int> &replicas, const std::vector<FailoverReply> &sessions, const QString &pool)
    {
        for (int i : replicas) {
            ASSERT_TRUE(QTest::qWaitFor(
                [&] {
                    return poolOn(i, sessions.at(std::size_t(i))) == pool;
                },
                60000))
                << "replica " << i << " shows " << kFailoverAnfVolume.toStdString() << " in \""
                << poolOn(i, sessions.at(std::size_t(i))).toStdString() << "\", not " << pool.toStdString();
        }
    }

    QString anfFileSystemId() const
    {
        const auto v = azure->volume(
            azure->volumeId(QStringLiteral("anf-ai-lab"), QStringLiteral("pool-standard"), kFailoverAnfVolume));
        return v ? v->value(QStringLiteral("properties")).toObject().value(QStringLiteral("fileSystemId")).toString()
                 : QString();
    }

    QString anfLevel() const
    {
        for (const QString &pool : {QStringLiteral("pool-standard"), QStringLiteral("pool-premium")}) {
            const auto v = azure->volume(azure->volumeId(QStringLiteral("anf-ai-lab"), pool, kFailoverAnfVolume));
            if (v) {
                return v->value(QStringLiteral("properties"))
                    .toObject()
                    .value(QStringLiteral("serviceLevel"))
                    .toString();
            }
        }
        return {};
    }
};

TEST_F(ReplicaFailoverTest, KillingTheOwnerMidActionMovesItsSourceAndFinishesTheActionOnce)
{
    const QString fileSystemId = anfFileSystemId();
    ASSERT_FALSE(fileSystemId.isEmpty());
    ASSERT_NO_FATAL_FAILURE(addAdmin());
    for (int i = 0; i < kFailoverReplicas; ++i) {
        ASSERT_NO_FATAL_FAILURE(startReplica(i));
    }

    // One source each, and all three replicas agree on who polls what.
    const QHash<QString, QString> owners = agreedOwners();
    ASSERT_FALSE(owners.isEmpty());
    for (int i = 0; i < kFailoverReplicas; ++i) {
        EXPECT_EQ(sample(i, QStringLiteral("strata_replica_leases_held")), 1.0) << i;
        EXPECT_EQ(sample(i, QStringLiteral("strata_replica_live_replicas")), 3.0) << i;
    }
    // replica-0 runs the pool change (whichever replica polls ai-lab) and dies with its LRO in
    // flight; the source it polls must move.
    const int victim = 0;
    const QString moving = owners.key(QStringLiteral("replica-0"));
    ASSERT_FALSE(moving.isEmpty());

    // Every replica shows the ANF volume (polled by one of them) once it is shared.
    const std::vector<FailoverReply> sessions = loginEverywhere();
    ASSERT_FALSE(HasFailure());
    ASSERT_NO_FATAL_FAILURE(expectPoolOn({0, 1, 2}, sessions, QStringLiteral("pool-standard")));

    // A browser on each other replica watches the live feed through the kill.
    struct Viewer
    {
        std::unique_ptr<QWebSocket> socket;
        QStringList frames;
        qsizetype beforeKill = 0; ///< frames received before the pool change was submitted
        bool closed = false;
    };
    std::vector<std::unique_ptr<Viewer>> viewers;
    for (int i = 1; i < kFailoverReplicas; ++i) {
        auto viewer = std::make_unique<Viewer>();
        viewer->socket = std::make_unique<QWebSocket>(bases.at(i));
        Viewer *v = viewer.get();
        QObject::connect(v->socket.get(), &QWebSocket::textMessageReceived, v->socket.get(), [v](const QString &t) {
            v->frames << t;
        });
        QObject::connect(v->socket.get(), &QWebSocket::disconnected, v->socket.get(), [v] {
            v->closed = true;
        });
        QUrl live(bases.at(i) + QStringLiteral("/api/v1/live"));
        live.setScheme(QStringLiteral("ws"));
        QNetworkRequest request(live);
        request.setRawHeader("Cookie", sessions.at(std::size_t(i)).cookie);
        v->socket->open(request);
        ASSERT_TRUE(QTest::qWaitFor(
            [v] {
                return !v->frames.isEmpty() || v->closed;
            },
            30000));
        ASSERT_FALSE(v->closed) << "replica " << i << " refused the live feed";
        viewers.push_back(std::move(viewer));
    }

    // The victim runs the pool change and dies after Azure accepted it (STRATA_TEST_CRASH_AT=handle).
    const QByteArray csrf = QJsonDocument::fromJson(sessions.at(victim).body)
                                .object()
                                .value(QStringLiteral("csrf_token"))
                                .toString()
                                .toLatin1();
    const QByteArray action =
        QJsonDocument(QJsonObject{{QStringLiteral("kind"), QStringLiteral("volume.service_level")},
                                  {QStringLiteral("source"), QStringLiteral("ai-lab")},
                                  {QStringLiteral("volume_id"), fileSystemId},
                                  {QStringLiteral("level"), QStringLiteral("Premium")}})
            .toJson();
    for (auto &viewer : viewers) {
        viewer->beforeKill = viewer->frames.size();
    }
    const FailoverReply submitted =
        call(bases.at(victim) + QStringLiteral("/api/v1/actions"), action, sessions.at(victim).cookie, csrf);
    QProcess &killed = *servers.at(std::size_t(victim));
    ASSERT_TRUE(killed.state() == QProcess::NotRunning || killed.waitForFinished(30000))
        << "the submit answered " << submitted.status << ' ' << submitted.body.toStdString();
    ASSERT_EQ(killed.exitStatus(), QProcess::CrashExit) << killed.readAllStandardError().toStdString();
    QElapsedTimer sinceKill;
    sinceKill.start();

    // Its source moves to a live replica within the lease time and a renewal (plus this test's polling).
    QList<int> survivors;
    for (int i = 0; i < kFailoverReplicas; ++i) {
        if (i != victim) {
            survivors << i;
        }
    }
    QString newOwner;
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            newOwner = pollers(survivors.first()).value(moving);
            return !newOwner.isEmpty() && newOwner != QStringLiteral("replica-%1").arg(victim);
        },
        30000))
        << metrics(survivors.first()).toStdString()
        << servers.at(std::size_t(survivors.first()))->readAllStandardError().toStdString();
    const qint64 moved = sinceKill.elapsed();
    EXPECT_LT(moved, (kFailoverLeaseSeconds + 4) * 1000) << moving.toStdString() << " took " << moved << " ms to move";
    // Each survivor counts the live replicas as of its own last renewal: wait for that renewal.
    double takeovers = 0;
    for (int i : survivors) {
        EXPECT_TRUE(QTest::qWaitFor(
            [&] {
                return sample(i, QStringLiteral("strata_replica_live_replicas")) == 2.0;
            },
            (kFailoverLeaseSeconds + 4) * 1000))
            << "replica " << i << " still counts " << sample(i, QStringLiteral("strata_replica_live_replicas"));
        takeovers += sample(i, QStringLiteral("strata_replica_lease_takeovers_total"));
    }
    // At least the victim's source; on a starved machine a survivor late to renew may lose a lease
    // too, which is the lease doing its work (the action below still finishes once).
    EXPECT_GE(takeovers, 1.0);

    // A survivor takes the interrupted action over from the journal and finishes it from the LRO:
    // Azure saw one pool change, the audit log has one outcome, and both survivors show Premium.
    ASSERT_NO_FATAL_FAILURE(expectPremiumOn(survivors, sessions));
    // Their viewers kept their feeds through the kill and were sent the change live.
    for (std::size_t v = 0; v < viewers.size(); ++v) {
        EXPECT_TRUE(QTest::qWaitFor(
            [&] {
                const QStringList &frames = viewers[v]->frames;
                return std::any_of(frames.cbegin() + viewers[v]->beforeKill, frames.cend(), [](const QString &f) {
                    const QJsonObject diff = QJsonDocument::fromJson(f.toUtf8()).object();
                    if (diff.value(QStringLiteral("resource")).toString() != QLatin1String("volumes")) {
                        return false;
                    }
                    const QJsonArray rows = diff.value(QStringLiteral("upsert")).toArray();
                    return std::any_of(rows.cbegin(), rows.cend(), [](const QJsonValue &row) {
                        const QJsonObject o = row.toObject();
                        return o.value(QStringLiteral("name")).toString() == kFailoverAnfVolume
                               && o.value(QStringLiteral("aggregate")).toString() == QLatin1String("pool-premium");
                    });
                });
            },
            30000))
            << "the viewer on replica " << v + 1 << " was not sent the pool change";
        EXPECT_FALSE(viewers[v]->closed) << "the viewer on replica " << v + 1 << " lost its feed";
    }
    core::SystemClock clock;
    core::SqlHistoryStore store(database->url(), clock);
    ASSERT_TRUE(succeeded(store.open()));
    const std::vector<core::AuditEntry> outcomes = expectCompleteAudit(store, QStringLiteral("volume.service_level"));
    ASSERT_EQ(outcomes.size(), 1U);
    EXPECT_NE(outcomes.front().outcome, QStringLiteral("failed")) << outcomes.front().message.toStdString();
    EXPECT_EQ(azure->operationCount(), 1) << "the pool change was sent again";
    // The outcome names the survivor that finished it; the start, the victim that sent it.
    QStringList survivorOwners;
    for (int i : survivors) {
        survivorOwners << processOf(i);
    }
    EXPECT_TRUE(std::any_of(survivorOwners.cbegin(), survivorOwners.cend(), [&](const QString &pid) {
        return outcomes.front().replica.endsWith(pid);
    })) << outcomes.front().replica.toStdString();

    // The session made on the dead replica works on the survivors (sessions live in the store).
    for (int i : survivors) {
        const FailoverReply me =
            call(bases.at(i) + QStringLiteral("/api/v1/session"), QByteArray(), sessions.at(victim).cookie);
        EXPECT_EQ(me.status, 200) << "replica " << i << ": " << me.body.toStdString();
    }
}

TEST_F(ReplicaFailoverTest, AScheduledChangeWhoseRunnerIsKilledRunsOnceAndTheAuditHasNoGap)
{
    // "Raise criteo-data to Premium" comes due on three replicas at once. One claims the edge,
    // sends the pool change and is SIGKILLed with the LRO in flight (every replica carries the
    // hook; the first to reach it dies). A survivor finishes it from the LRO and records the
    // edge's outcome; Azure saw one change, and the audit log has one start and one outcome.
    const QString fileSystemId = anfFileSystemId();
    ASSERT_FALSE(fileSystemId.isEmpty());
    crashFirstRunner = true;
    ASSERT_NO_FATAL_FAILURE(addAdmin());
    core::SystemClock clock;
    core::SqlHistoryStore store(database->url(), clock);
    ASSERT_TRUE(succeeded(store.open()));
    for (int i = 0; i < kFailoverReplicas; ++i) {
        ASSERT_NO_FATAL_FAILURE(startReplica(i));
    }
    const QHash<QString, QString> owners = agreedOwners();
    ASSERT_FALSE(owners.isEmpty());
    const std::vector<FailoverReply> sessions = loginEverywhere();
    ASSERT_FALSE(HasFailure());

    ASSERT_NO_FATAL_FAILURE(expectPoolOn({0, 1, 2}, sessions, QStringLiteral("pool-standard")));
    // Stored as `strata set service-level … --at` stores it, once every replica shows the volume:
    // each picks it up on its next reload of the store's schedules (every minute) and fires the
    // due edge then, as it fires an edge missed by less than 15 minutes.
    core::ServiceLevelSchedule schedule;
    schedule.source = QStringLiteral("ai-lab");
    schedule.volumeId = fileSystemId;
    schedule.volumeName = kFailoverAnfVolume;
    schedule.level = QStringLiteral("Premium");
    schedule.recurrence = core::Recurrence::Once;
    schedule.createdBy = QStringLiteral("admin");
    const QDateTime now = QDateTime::currentDateTimeUtc();
    schedule.created = now;
    schedule.start =
        QDateTime(now.date(), QTime(now.time().hour(), now.time().minute(), now.time().second()), Qt::UTC).addSecs(2);
    const qint64 scheduleId = valueOf(store.saveSchedule(schedule));
    ASSERT_GT(scheduleId, 0) << store.lastError().toStdString();

    int victim = -1;
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            for (int i = 0; i < kFailoverReplicas; ++i) {
                if (servers.at(std::size_t(i))->state() == QProcess::NotRunning) {
                    victim = i;
                    return true;
                }
            }
            return false;
        },
        150000))
        << "no replica ran the scheduled change";
    ASSERT_EQ(servers.at(std::size_t(victim))->exitStatus(), QProcess::CrashExit);
    QList<int> survivors;
    for (int i = 0; i < kFailoverReplicas; ++i) {
        if (i != victim) {
            survivors << i;
        }
    }

    // A survivor takes the action over and finishes it from the LRO, once.
    ASSERT_NO_FATAL_FAILURE(expectPremiumOn(survivors, sessions));
    const std::vector<core::AuditEntry> outcomes = expectCompleteAudit(store, QStringLiteral("volume.service_level"));
    ASSERT_EQ(outcomes.size(), 1U);
    EXPECT_NE(outcomes.front().outcome, QStringLiteral("failed")) << outcomes.front().message.toStdString();
    EXPECT_EQ(azure->operationCount(), 1) << "the scheduled pool change was sent again";
    EXPECT_TRUE(outcomes.front().replica.endsWith(processOf(survivors.first()))
                || outcomes.front().replica.endsWith(processOf(survivors.last())))
        << outcomes.front().replica.toStdString();
    for (const core::AuditEntry &e : valueOf(store.auditLog(0))) {
        if (e.actionId == outcomes.front().actionId && e.outcome == QLatin1String("started")) {
            EXPECT_TRUE(e.replica.endsWith(processOf(victim))) << "started by " << e.replica.toStdString();
        }
    }

    // The edge fired once and its outcome is recorded by the replica that finished it.
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            for (const core::ServiceLevelSchedule &s : valueOf(store.schedules())) {
                if (s.id == scheduleId) {
                    return s.lastOutcome == QLatin1String("succeeded");
                }
            }
            return false;
        },
        30000));
    for (const core::ServiceLevelSchedule &s : valueOf(store.schedules())) {
        if (s.id == scheduleId) {
            EXPECT_EQ(s.lastFired, schedule.start);
        }
    }
    // The dead replica's source has moved to a survivor.
    const QString moved = owners.key(QStringLiteral("replica-%1").arg(victim));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            const QString now = pollers(survivors.first()).value(moved);
            return !now.isEmpty() && now != QStringLiteral("replica-%1").arg(victim);
        },
        (kFailoverLeaseSeconds + 10) * 1000));
}

} // namespace
