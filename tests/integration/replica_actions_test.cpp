// Actions on a Kubernetes cluster sent to any of three strata-server replicas sharing one
// PostgreSQL store: one replica polls the cluster (it holds the lease), yet each replica that
// receives an action runs it against the API server itself, once, and every replica shows the
// outcome. Behind a load balancer a user reaches any replica; an action must not depend on which.

#include "models/core/domain/clock.h"
#include "models/core/runtime/engine.h"
#include "models/core/runtime/replicas.h"
#include "models/core/services/actions.h"
#include "models/core/services/historyservice.h"
#include "models/core/store/config.h"
#include "models/core/store/credentialstore.h"
#include "models/core/store/historystore.h"
#include "simulators/common/serverthread.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "tests/support/qt/pgfixture.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using namespace strata;
using namespace strata::testsupport;

namespace {

const QString kActionCluster = QStringLiteral("dgx");

struct ActionReplica
{
    std::unique_ptr<core::HistoryService> history;
    std::unique_ptr<core::Engine> engine;
    std::unique_ptr<core::ReplicaCoordinator> coordinator;
};

class ReplicaActionsTest : public ::testing::Test
{
protected:
    sim::ServerThread thread;
    sim::kube::KubeSimulator *simulator = nullptr;
    QTemporaryDir dir;
    QString caFile;
    core::InMemoryCredentialStore credentials;
    core::SystemClock clock;
    std::unique_ptr<ScratchPostgresDatabase> database;
    std::vector<std::unique_ptr<ActionReplica>> replicas;

    void SetUp() override
    {
        sim::kube::KubeSimulatorOptions options;
        options.tickInterval = std::chrono::milliseconds(0);
        QString error;
        simulator = sim::kube::KubeSimulator::startOnThread(thread, options, &error);
        ASSERT_NE(simulator, nullptr) << error.toStdString();
        caFile = dir.filePath(QStringLiteral("ca.pem"));
        QFile f(caFile);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(simulator->caPem());
        f.close();
        credentials.set(core::credentialKey(kActionCluster), simulator->token());
        database = std::make_unique<ScratchPostgresDatabase>();
        ASSERT_FALSE(database->url().isEmpty());
    }

    void TearDown() override
    {
        replicas.clear();
        database.reset();
    }

    core::SourceConfig cluster() const
    {
        core::SourceConfig s;
        s.name = kActionCluster;
        s.kind = core::SourceKind::Kubernetes;
        s.url = simulator->baseUrl();
        s.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(kActionCluster)};
        s.caFile = caFile;
        s.perfIntervalSeconds = 3600;
        return s;
    }

    ActionReplica &addReplica(const QString &id)
    {
        auto r = std::make_unique<ActionReplica>();
        r->history =
            std::make_unique<core::HistoryService>(std::make_unique<core::SqlHistoryStore>(database->url(), clock));
        EXPECT_TRUE(r->history->openError().isEmpty()) << r->history->openError().toStdString();
        r->engine = std::make_unique<core::Engine>(core::Engine::Deps{clock, credentials, r->history.get(), id});
        r->engine->setLeased(true);
        core::ReplicaCoordinator::Options options;
        options.replicaId = id;
        options.leaseTime = std::chrono::milliseconds(2000);
        options.renewEvery = std::chrono::milliseconds(300);
        options.shareEvery = std::chrono::milliseconds(100);
        options.readEvery = std::chrono::milliseconds(500);
        r->coordinator = std::make_unique<core::ReplicaCoordinator>(*r->engine, *r->history, options);
        r->engine->setSources({cluster()});
        r->coordinator->start();
        replicas.push_back(std::move(r));
        return *replicas.back();
    }

    static bool waitFor(const std::function<bool()> &done, int timeoutMs = 30000)
    {
        return QTest::qWaitFor(done, timeoutMs);
    }

    static core::Ptr<core::Project> project(core::Engine &engine, const QString &name)
    {
        return engine.estate().projects().find(kActionCluster, kActionCluster + QLatin1Char('/') + name);
    }

    /// Runs `request` on `engine` to its end; the record's final state and message.
    static std::pair<core::ActionState, QString> run(core::Engine &engine, const core::ActionRequest &request)
    {
        const auto submitted = engine.actions().submit(request);
        if (!submitted.hasValue()) {
            return {core::ActionState::Failed, submitted.error().message};
        }
        const bool ended = waitFor([&] {
            return engine.actions().find(*submitted)->state != core::ActionState::Running;
        });
        const core::ActionRecord *record = engine.actions().find(*submitted);
        return {ended ? record->state : core::ActionState::Running, record->message};
    }
};

TEST_F(ReplicaActionsTest, AClusterActionSentToEachReplicaRunsOnceThereAndEveryReplicaShowsIt)
{
    for (const QString &id : {QStringLiteral("replica-0"), QStringLiteral("replica-1"), QStringLiteral("replica-2")}) {
        addReplica(id);
    }
    // One replica polls the cluster; all three show its projects through the store.
    ASSERT_TRUE(waitFor([&] {
        int holders = 0;
        for (const auto &r : replicas) {
            holders += r->engine->heldSources().contains(kActionCluster) ? 1 : 0;
            if (!project(*r->engine, QStringLiteral("team-b"))) {
                return false;
            }
        }
        return holders == 1;
    }));

    // A quota change and a job submission on each replica, the poller included.
    const QStringList projects{QStringLiteral("team-a"), QStringLiteral("team-b"), QStringLiteral("team-c")};
    for (int i = 0; i < 3; ++i) {
        core::Engine &engine = *replicas[size_t(i)]->engine;
        SCOPED_TRACE(engine.heldSources().contains(kActionCluster) ? "the polling replica"
                                                                   : "a replica that does not poll");

        core::ActionRequest quota;
        quota.kind = core::ActionKind::ProjectQuotaEdit;
        quota.source = kActionCluster;
        quota.project = projects[i];
        quota.quota = 1000 * (i + 5);
        const auto [quotaState, quotaMessage] = run(engine, quota);
        EXPECT_EQ(quotaState, core::ActionState::Succeeded) << quotaMessage.toStdString();

        core::ActionRequest submit;
        submit.kind = core::ActionKind::JobSubmit;
        submit.source = kActionCluster;
        submit.job.name = QStringLiteral("any-replica-%1").arg(i);
        submit.job.project = projects[i];
        submit.job.image = QStringLiteral("nvcr.io/nvidia/pytorch:24.01-py3");
        submit.job.gpus = 1000;
        const auto [submitState, submitMessage] = run(engine, submit);
        EXPECT_EQ(submitState, core::ActionState::Succeeded) << submitMessage.toStdString();
    }

    // No replica took over an action another was still running: each shows the two it was sent.
    for (const auto &r : replicas) {
        const QList<core::ActionRecord> records = r->engine->actions().records();
        EXPECT_EQ(records.size(), 2);
        for (const core::ActionRecord &record : records) {
            EXPECT_FALSE(record.recovered) << record.id.toStdString();
        }
    }
    // Each job was created exactly once, by whichever replica took it.
    const QStringList creates = simulator->createRequests(QStringLiteral("jobs"));
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(creates.count(QStringLiteral("any-replica-%1").arg(i)), 1) << creates.join(u' ').toStdString();
    }
    // Every replica shows every new quota, from the poller's watch through the store.
    for (const auto &r : replicas) {
        for (int i = 0; i < 3; ++i) {
            EXPECT_TRUE(waitFor([&] {
                const auto p = project(*r->engine, projects[i]);
                return p && p->quota == 1000 * (i + 5);
            })) << projects[i].toStdString();
        }
    }
}

} // namespace
