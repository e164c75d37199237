// Crash-safe actions: the real `strata-server` binary runs `set service-level` against the ONTAP
// (QoS policy change, a job) and Azure (pool change, an LRO) simulators, and `strata-server serve`
// creates a snapshot for a web admin (an ONTAP job); each is killed with
// SIGKILL at each step of the action (STRATA_TEST_CRASH_AT, and once by an external kill while
// the ONTAP job runs). The next start (`get events`, which opens the same history store) must
// settle the action from the vendor's state: the simulator saw exactly one mutation (none when
// the process died before sending), and the audit log has exactly one outcome entry, the true one.

#include "demo/demoestate.h"
#include "models/core/domain/clock.h"
#include "models/core/store/config.h"
#include "models/core/store/historystore.h"
#include "simulators/azure/azuresimulator.h"
#include "simulators/common/serverthread.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "simulators/ontap/ontapsimulator.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/webcall.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using strata::testsupport::succeeded;
using strata::testsupport::valueOf;
using namespace strata;

namespace {

const QString kOntapVolume = QStringLiteral("chest_xray");
const QString kOntapPolicy = QStringLiteral("ai-training");
const QString kAnfVolume = QStringLiteral("criteo-data");

class CrashRecoveryTest : public ::testing::Test
{
protected:
    sim::ServerThread ontapThread;
    sim::ServerThread azureThread;
    sim::ontap::OntapSimulator *ontap = nullptr;
    sim::azure::AzureSimulator *azure = nullptr;
    QTemporaryDir dir;
    QString configPath;
    QString historyPath;
    QString ontapVolumeUuid;

    void SetUp() override
    {
        sim::ontap::OntapSimulatorOptions ontapOptions;
        ontapOptions.tickInterval = std::chrono::milliseconds(0);
        // Long enough that a kill after the job was accepted finds it still running.
        ontapOptions.jobDurationMin = std::chrono::milliseconds(2500);
        ontapOptions.jobDurationMax = std::chrono::milliseconds(3000);
        QString error;
        ontap = sim::ontap::OntapSimulator::startOnThread(ontapThread, ontapOptions, &error);
        ASSERT_NE(ontap, nullptr) << error.toStdString();
        sim::azure::AzureSimulatorOptions azureOptions;
        azureOptions.lroDuration = std::chrono::milliseconds(2500);
        azureOptions.lroRetryAfterSeconds = 1;
        azure = sim::azure::AzureSimulator::startOnThread(azureThread, azureOptions, &error);
        ASSERT_NE(azure, nullptr) << error.toStdString();
        const auto volume = ontap->volumeByName(QStringLiteral("svm_ai"), kOntapVolume);
        ASSERT_TRUE(volume.has_value());
        ontapVolumeUuid = volume->uuid;

        const QString ontapCa = dir.filePath(QStringLiteral("ontap-ca.pem"));
        const QString azureCa = dir.filePath(QStringLiteral("azure-ca.pem"));
        for (const auto &[path, pem] :
             {std::pair{ontapCa, ontap->certificatePem()}, std::pair{azureCa, azure->caPem()}}) {
            QFile f(path);
            ASSERT_TRUE(f.open(QIODevice::WriteOnly));
            f.write(pem);
        }
        historyPath = dir.filePath(QStringLiteral("history.sqlite"));
        const QJsonArray sources{
            QJsonObject{{QStringLiteral("name"), QStringLiteral("ontap-ai")},
                        {QStringLiteral("kind"), QStringLiteral("ontap")},
                        {QStringLiteral("url"), ontap->baseUrl()},
                        {QStringLiteral("username"), ontapOptions.username},
                        {QStringLiteral("password"),
                         QJsonObject{{QStringLiteral("env"), QStringLiteral("STRATA_IT_ONTAP_PASSWORD")}}},
                        {QStringLiteral("ca_file"), ontapCa}},
            QJsonObject{{QStringLiteral("name"), QStringLiteral("ai-lab")},
                        {QStringLiteral("kind"), QStringLiteral("azure")},
                        {QStringLiteral("url"), azure->baseUrl()},
                        {QStringLiteral("authority_url"), azure->baseUrl()},
                        {QStringLiteral("tenant_id"), azureOptions.tenantId},
                        {QStringLiteral("client_id"), azureOptions.clientId},
                        {QStringLiteral("subscription_id"), azureOptions.subscriptionId},
                        {QStringLiteral("password"),
                         QJsonObject{{QStringLiteral("env"), QStringLiteral("STRATA_IT_AZURE_SECRET")}}},
                        {QStringLiteral("ca_file"), azureCa}}};
        configPath = dir.filePath(QStringLiteral("config.json"));
        QFile c(configPath);
        ASSERT_TRUE(c.open(QIODevice::WriteOnly));
        c.write(
            QJsonDocument(QJsonObject{{QStringLiteral("sources"), sources},
                                      {QStringLiteral("history"), QJsonObject{{QStringLiteral("path"), historyPath}}}})
                .toJson());
    }

    QProcessEnvironment environment(const QString &crashAt) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("STRATA_IT_ONTAP_PASSWORD"), ontap->options().password);
        env.insert(QStringLiteral("STRATA_IT_AZURE_SECRET"), azure->options().clientSecret);
        env.remove(QStringLiteral("STRATA_TEST_CRASH_AT"));
        if (!crashAt.isEmpty()) {
            env.insert(QStringLiteral("STRATA_TEST_CRASH_AT"), crashAt);
        }
        return env;
    }

    static QString binary() { return QStringLiteral(STRATA_BINARY_DIR "/app/server/strata-server"); }

    struct Exit
    {
        bool finished = false;
        QProcess::ExitStatus status = QProcess::NormalExit;
        int code = -1;
        QString err;
    };

    Exit runCli(const QStringList &args, const QString &crashAt = {})
    {
        QProcess process;
        process.setProcessEnvironment(environment(crashAt));
        process.start(
            binary(),
            QStringList{QStringLiteral("--config"), configPath, QStringLiteral("--timeout"), QStringLiteral("60")}
                + args);
        Exit e;
        e.finished = process.waitForFinished(90000);
        if (!e.finished) {
            process.kill();
            process.waitForFinished();
        }
        e.status = process.exitStatus();
        e.code = process.exitCode();
        e.err = QString::fromUtf8(process.readAllStandardError());
        return e;
    }

    QStringList setLevel(const QString &source, const QString &volume, const QString &level) const
    {
        return {QStringLiteral("set"),
                QStringLiteral("service-level"),
                volume,
                QStringLiteral("--to"),
                level,
                QStringLiteral("--source"),
                source};
    }

    /// Starts the next Strata: a read that opens the history store takes the action over.
    void restart()
    {
        const Exit e =
            runCli({QStringLiteral("get"), QStringLiteral("events"), QStringLiteral("-o"), QStringLiteral("json")});
        ASSERT_TRUE(e.finished);
        ASSERT_EQ(e.status, QProcess::NormalExit) << e.err.toStdString();
    }

    /// Outcome entries (not "started") of `kind` in the audit log, and whether the journal is closed.
    std::vector<core::AuditEntry> outcomes(const QString &kind, bool *journalClosed = nullptr)
    {
        core::SystemClock clock; // reads only
        core::SqlHistoryStore store(historyPath, clock);
        QString error;
        EXPECT_TRUE(succeeded(store.open()));
        std::vector<core::AuditEntry> found;
        for (const core::AuditEntry &e : valueOf(store.auditLog(0))) {
            if (e.kind == kind && e.outcome != QLatin1String("started")) {
                found.push_back(e);
            }
        }
        if (journalClosed) {
            *journalClosed = valueOf(store.openJournal()).empty();
        }
        return found;
    }

    int ontapQosJobs() const
    {
        int n = 0;
        for (const sim::ontap::Job &job : ontap->jobs()) {
            n += job.description.startsWith(QStringLiteral("PATCH /api/storage/volumes/") + ontapVolumeUuid) ? 1 : 0;
        }
        return n;
    }

    QString ontapPolicy() const { return ontap->volume(ontapVolumeUuid)->qosPolicy.name; }

    QString anfLevel() const
    {
        for (const QString &pool : {QStringLiteral("pool-standard"), QStringLiteral("pool-premium")}) {
            const auto v = azure->volume(azure->volumeId(QStringLiteral("anf-ai-lab"), pool, kAnfVolume));
            if (v) {
                return v->value(QStringLiteral("properties"))
                    .toObject()
                    .value(QStringLiteral("serviceLevel"))
                    .toString();
            }
        }
        return {};
    }

    /// Kills `strata-server set service-level` for the ONTAP volume at `step`, restarts, and
    /// checks the vendor and the audit.
    void ontapKilledAt(const QString &step, bool applied)
    {
        const Exit killed = runCli(setLevel(QStringLiteral("ontap-ai"), kOntapVolume, kOntapPolicy), step);
        ASSERT_TRUE(killed.finished);
        ASSERT_EQ(killed.status, QProcess::CrashExit)
            << "not killed at " << step.toStdString() << ": " << killed.err.toStdString();
        EXPECT_TRUE(outcomes(QStringLiteral("volume.service_level")).empty()) << "the killed run wrote an outcome";
        restart();
        bool closed = false;
        const auto entries = outcomes(QStringLiteral("volume.service_level"), &closed);
        ASSERT_EQ(entries.size(), 1U) << "exactly one outcome after the restart";
        EXPECT_TRUE(closed);
        EXPECT_EQ(ontapQosJobs(), applied ? 1 : 0) << "ONTAP saw the PATCH a wrong number of times";
        if (applied) {
            EXPECT_NE(entries.front().outcome, QLatin1String("failed")) << entries.front().message.toStdString();
            EXPECT_TRUE(QTest::qWaitFor(
                [&] {
                    return ontapPolicy() == kOntapPolicy;
                },
                10000));
        } else {
            EXPECT_EQ(entries.front().outcome, QStringLiteral("failed"));
            EXPECT_TRUE(entries.front().message.contains(QStringLiteral("not sent again")))
                << entries.front().message.toStdString();
            EXPECT_NE(ontapPolicy(), kOntapPolicy);
        }
        EXPECT_TRUE(entries.front().message.startsWith(QStringLiteral("Recovered after a restart")))
            << entries.front().message.toStdString();
        // A second start finds nothing left to do and writes nothing more.
        restart();
        EXPECT_EQ(outcomes(QStringLiteral("volume.service_level")).size(), 1U);
        EXPECT_EQ(ontapQosJobs(), applied ? 1 : 0);
    }

    QString snapshotJobsPrefix() const
    {
        return QStringLiteral("POST /api/storage/volumes/") + ontapVolumeUuid + QStringLiteral("/snapshots");
    }

    int snapshotJobs() const
    {
        int n = 0;
        for (const sim::ontap::Job &job : ontap->jobs()) {
            n += job.description.startsWith(snapshotJobsPrefix()) ? 1 : 0;
        }
        return n;
    }

    /// `strata-server serve` with a web admin; the admin creates snapshot `name` of the ONTAP
    /// volume while the server is set to kill itself at `step`.
    void snapshotThroughWebKilledAt(const QString &step, const QString &name)
    {
        const QString users = dir.filePath(QStringLiteral("users.json"));
        const QByteArray password = QByteArrayLiteral("crash-test-password-1");
        {
            QProcess add;
            QProcessEnvironment env = environment({});
            env.insert(QStringLiteral("STRATA_NEW_PASSWORD"), QString::fromLatin1(password));
            add.setProcessEnvironment(env);
            add.start(binary(),
                      {QStringLiteral("user"),
                       QStringLiteral("add"),
                       QStringLiteral("admin"),
                       QStringLiteral("--role"),
                       QStringLiteral("admin"),
                       QStringLiteral("--users"),
                       users});
            ASSERT_TRUE(add.waitForFinished(30000));
            ASSERT_EQ(add.exitCode(), 0) << add.readAllStandardError().toStdString();
        }
        quint16 port = 0;
        {
            QTcpServer probe;
            ASSERT_TRUE(probe.listen(QHostAddress::LocalHost, 0));
            port = probe.serverPort();
        }
        const QString base = QStringLiteral("http://127.0.0.1:%1").arg(port);
        QProcess server;
        server.setProcessEnvironment(environment(step));
        server.start(binary(),
                     {QStringLiteral("serve"),
                      QStringLiteral("--config"),
                      configPath,
                      QStringLiteral("--users"),
                      users,
                      QStringLiteral("--listen"),
                      QStringLiteral("127.0.0.1:%1").arg(port)});
        QByteArray out;
        ASSERT_TRUE(QTest::qWaitFor(
            [&] {
                out += server.readAllStandardOutput();
                return out.contains("serving the web console") || server.state() == QProcess::NotRunning;
            },
            30000));
        ASSERT_EQ(server.state(), QProcess::Running) << server.readAllStandardError().toStdString();
        QNetworkAccessManager net;
        const testsupport::WebCallReply login =
            testsupport::webCall(net,
                                 base + QStringLiteral("/api/v1/login"),
                                 QJsonDocument(QJsonObject{{QStringLiteral("user"), QStringLiteral("admin")},
                                                           {QStringLiteral("password"), QString::fromLatin1(password)}})
                                     .toJson());
        ASSERT_EQ(login.status, 200) << login.body.toStdString();
        const QByteArray csrf =
            QJsonDocument::fromJson(login.body).object().value(QStringLiteral("csrf_token")).toString().toLatin1();
        const QByteArray action = QJsonDocument(QJsonObject{{QStringLiteral("kind"), QStringLiteral("snapshot.create")},
                                                            {QStringLiteral("source"), QStringLiteral("ontap-ai")},
                                                            {QStringLiteral("volume_id"), ontapVolumeUuid},
                                                            {QStringLiteral("name"), name}})
                                      .toJson();
        // The volume is known once the server's first poll is in: until then the preview blocks.
        testsupport::WebCallReply submitted;
        ASSERT_TRUE(QTest::qWaitFor(
            [&] {
                submitted =
                    testsupport::webCall(net, base + QStringLiteral("/api/v1/actions"), action, login.cookie, csrf);
                return submitted.status != 400 && submitted.status != 409 && submitted.status != 422;
            },
            30000))
            << submitted.body.toStdString();
        // waitForFinished() is false for a process that already ended while the reply was awaited.
        ASSERT_TRUE(server.state() == QProcess::NotRunning || server.waitForFinished(60000))
            << "the server was not killed at " << step.toStdString() << "; the submit answered " << submitted.status
            << ' ' << submitted.body.toStdString() << server.readAllStandardError().toStdString();
        ASSERT_EQ(server.exitStatus(), QProcess::CrashExit);
    }

    void anfKilledAt(const QString &step, bool applied)
    {
        const Exit killed = runCli(setLevel(QStringLiteral("ai-lab"), kAnfVolume, QStringLiteral("Premium")), step);
        ASSERT_TRUE(killed.finished);
        ASSERT_EQ(killed.status, QProcess::CrashExit)
            << "not killed at " << step.toStdString() << ": " << killed.err.toStdString();
        restart();
        bool closed = false;
        const auto entries = outcomes(QStringLiteral("volume.service_level"), &closed);
        ASSERT_EQ(entries.size(), 1U) << "exactly one outcome after the restart";
        EXPECT_TRUE(closed);
        EXPECT_EQ(azure->operationCount(), applied ? 1 : 0) << "Azure saw the poolChange a wrong number of times";
        if (applied) {
            EXPECT_NE(entries.front().outcome, QLatin1String("failed")) << entries.front().message.toStdString();
            EXPECT_EQ(anfLevel(), QStringLiteral("Premium"));
        } else {
            EXPECT_EQ(entries.front().outcome, QStringLiteral("failed"));
            EXPECT_TRUE(entries.front().message.contains(QStringLiteral("not sent again")))
                << entries.front().message.toStdString();
            EXPECT_EQ(anfLevel(), QStringLiteral("Standard"));
        }
        restart();
        EXPECT_EQ(outcomes(QStringLiteral("volume.service_level")).size(), 1U);
        EXPECT_EQ(azure->operationCount(), applied ? 1 : 0);
    }
};

} // namespace

TEST_F(CrashRecoveryTest, OntapJob_KilledAfterTheIntentWasJournaled_IsRecordedAsNotSentAndNeverSent)
{
    ontapKilledAt(QStringLiteral("intended"), false);
}

TEST_F(CrashRecoveryTest, OntapJob_KilledBeforeTheJobUuidWasJournaled_IsFoundOnOntapAndNotResent)
{
    ontapKilledAt(QStringLiteral("sent"), true);
}

TEST_F(CrashRecoveryTest, OntapJob_KilledWhileTheJobRuns_IsFollowedToItsEnd)
{
    ontapKilledAt(QStringLiteral("handle"), true);
}

TEST_F(CrashRecoveryTest, OntapJob_KilledBeforeTheOutcomeWasWritten_IsRecordedOnce)
{
    ontapKilledAt(QStringLiteral("finished"), true);
}

TEST_F(CrashRecoveryTest, AnfPoolChange_KilledAfterTheIntentWasJournaled_IsRecordedAsNotSentAndNeverSent)
{
    anfKilledAt(QStringLiteral("intended"), false);
}

TEST_F(CrashRecoveryTest, AnfPoolChange_KilledBeforeTheOperationUrlWasJournaled_IsFoundInAzureAndNotResent)
{
    anfKilledAt(QStringLiteral("sent"), true);
}

TEST_F(CrashRecoveryTest, AnfPoolChange_KilledWhileTheOperationRuns_IsFollowedToItsEnd)
{
    anfKilledAt(QStringLiteral("handle"), true);
}

TEST_F(CrashRecoveryTest, AnfPoolChange_KilledBeforeTheOutcomeWasWritten_IsRecordedOnce)
{
    anfKilledAt(QStringLiteral("finished"), true);
}

// No test hook: an external SIGKILL (what `kill -9` and the OOM killer send) while ONTAP runs
// the job.
TEST_F(CrashRecoveryTest, OntapJob_ExternalSigkillWhileTheJobRuns_IsFollowedToItsEndAfterRestart)
{
    QProcess process;
    process.setProcessEnvironment(environment({}));
    process.start(binary(),
                  QStringList{QStringLiteral("--config"), configPath, QStringLiteral("--timeout"), QStringLiteral("60")}
                      + setLevel(QStringLiteral("ontap-ai"), kOntapVolume, kOntapPolicy));
    ASSERT_TRUE(process.waitForStarted());
    QString err;
    // Progress lines go to stderr; "ONTAP job" appears once the job was read (its uuid journaled).
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            process.waitForReadyRead(50);
            err += QString::fromUtf8(process.readAllStandardError());
            return err.contains(QStringLiteral("ONTAP job")) || process.state() == QProcess::NotRunning;
        },
        60000))
        << err.toStdString();
    ASSERT_EQ(process.state(), QProcess::Running) << "finished before it could be killed: " << err.toStdString();
    process.kill(); // SIGKILL
    process.waitForFinished();
    ASSERT_EQ(process.exitStatus(), QProcess::CrashExit);
    EXPECT_TRUE(outcomes(QStringLiteral("volume.service_level")).empty());
    EXPECT_NE(ontapPolicy(), kOntapPolicy) << "the job should still be running when the process is killed";

    restart();
    const auto entries = outcomes(QStringLiteral("volume.service_level"));
    ASSERT_EQ(entries.size(), 1U);
    EXPECT_EQ(entries.front().outcome, QStringLiteral("succeeded")) << entries.front().message.toStdString();
    EXPECT_EQ(ontapQosJobs(), 1);
    EXPECT_EQ(ontapPolicy(), kOntapPolicy);
}

TEST_F(CrashRecoveryTest, WebSnapshotCreate_KilledAtEachStep_OneSnapshotJobAndOneTrueOutcome)
{
    struct Case
    {
        const char *step;
        bool applied;
    };
    int expectedJobs = 0;
    int expectedOutcomes = 0;
    for (const Case &c : {Case{"intended", false}, Case{"sent", true}, Case{"handle", true}, Case{"finished", true}}) {
        SCOPED_TRACE(c.step);
        const QString name = QStringLiteral("crash_%1").arg(QString::fromLatin1(c.step));
        snapshotThroughWebKilledAt(QString::fromLatin1(c.step), name);
        restart();
        expectedJobs += c.applied ? 1 : 0;
        ++expectedOutcomes;
        bool closed = false;
        const auto entries = outcomes(QStringLiteral("snapshot.create"), &closed);
        ASSERT_EQ(int(entries.size()), expectedOutcomes);
        EXPECT_TRUE(closed);
        EXPECT_EQ(snapshotJobs(), expectedJobs) << "ONTAP saw the snapshot POST a wrong number of times";
        const core::AuditEntry &last = entries.front(); // newest first
        EXPECT_EQ(last.user, QStringLiteral("admin"));
        if (c.applied) {
            EXPECT_NE(last.outcome, QLatin1String("failed")) << last.message.toStdString();
            EXPECT_TRUE(ontap->snapshotNames(ontapVolumeUuid).contains(name));
        } else {
            EXPECT_EQ(last.outcome, QStringLiteral("failed"));
            EXPECT_TRUE(last.message.contains(QStringLiteral("not sent again"))) << last.message.toStdString();
            EXPECT_FALSE(ontap->snapshotNames(ontapVolumeUuid).contains(name));
        }
    }
}

namespace {

/// The demo estate in this process, described by a config file whose secrets are environment
/// references, so a `strata-server` child process reaches the same simulators.
class CrashRecoveryCacheTest : public ::testing::Test
{
protected:
    std::unique_ptr<demo::DemoEstate> estate;
    QTemporaryDir dir;
    QString configPath;
    QString historyPath;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();

    void SetUp() override
    {
        auto started = demo::DemoEstate::start({});
        ASSERT_TRUE(started) << started.error().message.toStdString();
        estate = std::move(*started);
        core::AppConfig config = estate->config();
        int n = 0;
        const auto toEnv = [&](core::SecretRef &ref) {
            if (ref.kind != core::SecretRef::Kind::Keychain) {
                return;
            }
            std::optional<QString> secret;
            bool read = false;
            estate->credentials().read(ref.value, [&](std::optional<QString> value, const QString &) {
                secret = std::move(value);
                read = true;
            });
            ASSERT_TRUE(QTest::qWaitFor(
                [&] {
                    return read;
                },
                5000));
            const QString name = QStringLiteral("STRATA_IT_CRASH_SECRET_%1").arg(++n);
            env.insert(name, secret.value_or(QString()));
            ref = core::SecretRef{core::SecretRef::Kind::Env, name};
        };
        for (core::SourceConfig &source : config.sources) {
            toEnv(source.password);
            toEnv(source.s3Secret);
        }
        if (config.sentiment) {
            toEnv(config.sentiment->s3Secret);
        }
        historyPath = dir.filePath(QStringLiteral("history.sqlite"));
        config.historyPath = historyPath;
        configPath = dir.filePath(QStringLiteral("strata.json"));
        ASSERT_TRUE(succeeded(config.save(configPath)));
        env.remove(QStringLiteral("STRATA_TEST_CRASH_AT"));
    }

    bool runServer(const QStringList &args, const QString &crashAt, QProcess::ExitStatus *status, QString *err)
    {
        QProcess process;
        QProcessEnvironment e = env;
        if (!crashAt.isEmpty()) {
            e.insert(QStringLiteral("STRATA_TEST_CRASH_AT"), crashAt);
        }
        process.setProcessEnvironment(e);
        process.start(
            QStringLiteral(STRATA_BINARY_DIR "/app/server/strata-server"),
            QStringList{QStringLiteral("--config"), configPath, QStringLiteral("--timeout"), QStringLiteral("90")}
                + args);
        const bool finished = process.waitForFinished(120000);
        if (!finished) {
            process.kill();
            process.waitForFinished();
        }
        *status = process.exitStatus();
        *err = QString::fromUtf8(process.readAllStandardError());
        return finished;
    }

    int loaderJobCreates() const
    {
        int n = 0;
        for (const QString &name : estate->kubernetes()->createRequests(QStringLiteral("jobs"))) {
            n += name.startsWith(QStringLiteral("strata-load-")) ? 1 : 0;
        }
        return n;
    }

    std::vector<core::AuditEntry> cacheOutcomes()
    {
        core::SystemClock clock; // reads only
        core::SqlHistoryStore store(historyPath, clock);
        EXPECT_TRUE(succeeded(store.open()));
        std::vector<core::AuditEntry> found;
        for (const core::AuditEntry &e : valueOf(store.auditLog(0))) {
            if (e.kind == QLatin1String("cache.load") && e.outcome != QLatin1String("started")) {
                found.push_back(e);
            }
        }
        EXPECT_TRUE(valueOf(store.openJournal()).empty());
        return found;
    }
};

} // namespace

TEST_F(CrashRecoveryCacheTest, CacheLoad_KilledAtEachStep_OneLoaderJobAndOneTrueOutcome)
{
    struct Case
    {
        const char *step;
        const char *dataset;
        bool applied;
    };
    int expectedCreates = 0;
    int expectedOutcomes = 0;
    // One dataset per step: each load is a new commit on dgx-cache-2.
    for (const Case &c : {Case{"intended", "consumer_img1", false},
                          Case{"sent", "misc_base1", true},
                          Case{"handle", "fraud_sim_base", true},
                          Case{"finished", "fraud_may", true}}) {
        SCOPED_TRACE(c.step);
        QProcess::ExitStatus status = QProcess::NormalExit;
        QString err;
        ASSERT_TRUE(runServer({QStringLiteral("cache"),
                               QString::fromLatin1(c.dataset),
                               QStringLiteral("--target"),
                               QStringLiteral("dgx-cache-2")},
                              QString::fromLatin1(c.step),
                              &status,
                              &err));
        ASSERT_EQ(status, QProcess::CrashExit) << err.toStdString();
        ASSERT_TRUE(runServer({QStringLiteral("get"), QStringLiteral("events")}, {}, &status, &err));
        ASSERT_EQ(status, QProcess::NormalExit) << err.toStdString();
        expectedCreates += c.applied ? 1 : 0;
        ++expectedOutcomes;
        const auto entries = cacheOutcomes();
        ASSERT_EQ(int(entries.size()), expectedOutcomes);
        EXPECT_EQ(loaderJobCreates(), expectedCreates) << "the cluster saw a loader Job create a wrong number of times";
        const core::AuditEntry &last = entries.front();
        if (c.applied) {
            EXPECT_NE(last.outcome, QLatin1String("failed")) << last.message.toStdString();
        } else {
            EXPECT_EQ(last.outcome, QStringLiteral("failed"));
            EXPECT_TRUE(last.message.contains(QStringLiteral("not sent again"))) << last.message.toStdString();
        }
    }
}
