#include "models/core/services/actions.h"
#include "models/core/services/historyservice.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"

#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

#include <gtest/gtest.h>

#include <atomic>

using strata::testsupport::errorText;
using strata::testsupport::valueOf;
using namespace strata::core;
using strata::testsupport::ManualClock;

namespace {

/// Executor whose effect is a counter; it fails the first `failFirst` attempts and reconciles
/// when the effect already happened, like the ONTAP executor.
class CountingExecutor final : public IActionExecutor
{
public:
    std::atomic<int> applied{0};
    std::atomic<int> attempts{0};
    int failFirst = 0;
    bool loseResponse = false; ///< apply, then report an unknown outcome (lost response)
    QString blocked;

    ActionPreview preview(const ActionRequest &request) const override
    {
        ActionPreview p;
        p.title = QStringLiteral("Create snapshot");
        p.target = request.volumeId + QLatin1Char('@') + request.name;
        p.fromState = QStringLiteral("1 snapshot");
        p.toState = QStringLiteral("2 snapshots");
        p.blockedReason = blocked;
        return p;
    }

    std::function<ActionResult(const ActionContext &)> prepare(const ActionRequest &) override
    {
        return [this](const ActionContext &ctx) {
            attempts++;
            ctx.progress(ActionProgress{50, QStringLiteral("ONTAP job running")});
            if (ctx.attempt > 1 && applied > 0) {
                return ActionResult{true, true, QStringLiteral("already there")};
            }
            if (loseResponse) {
                applied++;
                return ActionResult{false, false, QStringLiteral("connection reset; outcome unknown")};
            }
            if (attempts <= failFirst) {
                return ActionResult{false, false, QStringLiteral("ONTAP job failed")};
            }
            applied++;
            return ActionResult{true, false, QStringLiteral("created")};
        };
    }
};

class ActionsTest : public ::testing::Test
{
protected:
    ManualClock clock;
    QThreadPool pool;
    HistoryService history{std::make_unique<SqlHistoryStore>(QStringLiteral(":memory:"), clock)};
    ActionManager manager{clock, pool, &history, QStringLiteral("alice")};
    CountingExecutor executor;

    void SetUp() override
    {
        ASSERT_TRUE(history.openError().isEmpty()) << history.openError().toStdString();
        manager.setExecutor(QStringLiteral("ontap-ai"), &executor);
    }

    ActionRequest request() const
    {
        return ActionRequest{ActionKind::SnapshotCreate,
                             QStringLiteral("ontap-ai"),
                             QStringLiteral("vol1"),
                             {},
                             QStringLiteral("snap1"),
                             {}};
    }

    bool waitFinished(const QString &id)
    {
        return QTest::qWaitFor(
            [&] {
                return manager.find(id) && manager.find(id)->state != ActionState::Running;
            },
            5000);
    }

    std::vector<AuditEntry> audit()
    {
        std::vector<AuditEntry> out;
        bool done = false;
        history.auditLog(100, {}, &manager, [&](Result<std::vector<AuditEntry>> e) {
            out = valueOf(std::move(e));
            done = true;
        });
        EXPECT_TRUE(QTest::qWaitFor(
            [&] {
                return done;
            },
            5000));
        return out;
    }
};

} // namespace

TEST_F(ActionsTest, Submit_RunsReportsProgressAndAudits)
{
    QSignalSpy changed(&manager, &ActionManager::actionChanged);
    const auto idSubmitted = manager.submit(request());
    const QString id = idSubmitted ? *idSubmitted : QString();
    ASSERT_FALSE(id.isEmpty());
    ASSERT_TRUE(waitFinished(id));
    const ActionRecord *r = manager.find(id);
    EXPECT_EQ(r->state, ActionState::Succeeded);
    EXPECT_EQ(r->message, QStringLiteral("created"));
    EXPECT_EQ(r->user, QStringLiteral("alice"));
    EXPECT_GE(changed.count(), 1);
    EXPECT_EQ(executor.applied, 1);
    const auto entries = audit();
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0].outcome, QStringLiteral("succeeded")); // newest first
    EXPECT_EQ(entries[1].outcome, QStringLiteral("started"));
    EXPECT_EQ(entries[0].actionId, id);
    EXPECT_EQ(entries[0].user, QStringLiteral("alice"));
    EXPECT_EQ(entries[0].kind, QStringLiteral("snapshot.create"));
    EXPECT_EQ(entries[0].fromState, QStringLiteral("1 snapshot"));
    EXPECT_EQ(entries[0].toState, QStringLiteral("2 snapshots"));
}

TEST_F(ActionsTest, DoubleSubmitWhileRunning_ReturnsTheSameAction)
{
    const auto firstSubmitted = manager.submit(request());
    const QString first = firstSubmitted ? *firstSubmitted : QString();
    const auto secondSubmitted = manager.submit(request());
    const QString second = secondSubmitted ? *secondSubmitted : QString();
    EXPECT_EQ(first, second);
    ASSERT_TRUE(waitFinished(first));
    EXPECT_EQ(executor.applied, 1);
    EXPECT_EQ(manager.records().size(), 1);
}

TEST_F(ActionsTest, Blocked_IsNotRun)
{
    executor.blocked = QStringLiteral("name taken");
    QString error = errorText(manager.submit(request()));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(error, QStringLiteral("name taken"));
    EXPECT_EQ(executor.attempts, 0);
}

TEST_F(ActionsTest, RetryAfterFailure_RunsAgainAsSecondAttempt)
{
    executor.failFirst = 1;
    const auto idSubmitted = manager.submit(request());
    const QString id = idSubmitted ? *idSubmitted : QString();
    ASSERT_TRUE(waitFinished(id));
    EXPECT_EQ(manager.find(id)->state, ActionState::Failed);
    ASSERT_TRUE(manager.retry(id));
    ASSERT_TRUE(waitFinished(id));
    EXPECT_EQ(manager.find(id)->state, ActionState::Succeeded);
    EXPECT_EQ(manager.find(id)->attempts, 2);
    EXPECT_EQ(executor.applied, 1);
}

TEST_F(ActionsTest, RetryAfterLostResponse_ReconcilesInsteadOfApplyingTwice)
{
    executor.loseResponse = true;
    const auto idSubmitted = manager.submit(request());
    const QString id = idSubmitted ? *idSubmitted : QString();
    ASSERT_TRUE(waitFinished(id));
    EXPECT_EQ(manager.find(id)->state, ActionState::Failed);
    executor.loseResponse = false;
    ASSERT_TRUE(manager.retry(id));
    ASSERT_TRUE(waitFinished(id));
    EXPECT_EQ(manager.find(id)->state, ActionState::Succeeded);
    EXPECT_TRUE(manager.find(id)->reconciled);
    EXPECT_EQ(executor.applied, 1);
    EXPECT_FALSE(manager.retry(id)) << "a succeeded action cannot be retried";
}

TEST_F(ActionsTest, UnknownSource_PreviewIsBlocked)
{
    ActionRequest r = request();
    r.source = QStringLiteral("nope");
    EXPECT_FALSE(manager.preview(r).allowed());
}
