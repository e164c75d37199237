// ActionManager::recoverInterrupted() in process: which journal entries it takes over (owner
// gone, source connected), that the executor runs in recovery mode with the journaled handle and
// cannot send, and that kinds an executor cannot check are closed as failed, not repeated.

#include "models/core/services/actions.h"
#include "models/core/services/historyservice.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"

#include <QCoreApplication>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <gtest/gtest.h>

#include <atomic>
#include <future>

using strata::testsupport::succeeded;
using strata::testsupport::valueOf;
using namespace strata::core;
using strata::testsupport::ManualClock;

namespace {

/// Records how recovery ran it; the effect is "there" when `effectPresent`.
class RecoveringExecutor final : public IActionExecutor
{
public:
    std::atomic<int> runs{0};
    std::atomic<int> sent{0};
    std::atomic<bool> sawRecovery{false};
    QString seenHandle; ///< written on the worker, read after the action finished
    QString seenKey;
    bool effectPresent = true;

    ActionPreview preview(const ActionRequest &) const override { return {}; }

    std::function<ActionResult(const ActionContext &)> prepare(const ActionRequest &) override
    {
        return [this](const ActionContext &ctx) {
            runs++;
            sawRecovery = ctx.recovery;
            seenHandle = ctx.handle;
            seenKey = ctx.idempotencyKey;
            if (ctx.recovery && effectPresent) {
                return ActionResult{true, false, QStringLiteral("job followed")};
            }
            if (!ctx.sending()) {
                return ActionResult{false, false, QStringLiteral("not sent again")};
            }
            sent++;
            return ActionResult{true, false, QStringLiteral("sent")};
        };
    }

    bool recovers(ActionKind kind) const override { return kind == ActionKind::ServiceLevelChange; }
};

class ActionRecoveryTest : public ::testing::Test
{
protected:
    QTemporaryDir dir;
    ManualClock clock;
    QThreadPool pool;
    std::unique_ptr<HistoryService> history;
    RecoveringExecutor executor;

    void SetUp() override
    {
        history = std::make_unique<HistoryService>(
            std::make_unique<SqlHistoryStore>(dir.filePath(QStringLiteral("h.sqlite")), clock));
        ASSERT_TRUE(history->openError().isEmpty());
    }

    // A taken-over action may still run on the pool when a test ends: it uses `executor`,
    // which is destroyed before the pool would wait for it.
    void TearDown() override { pool.waitForDone(); }

    /// What a process with `owner` left behind when it was killed.
    void leftBehind(const QString &id, ActionKind kind, const QString &owner, const QString &handle)
    {
        ActionRequest request(kind, QStringLiteral("ontap-ai"), QStringLiteral("vol1"));
        request.targetLevel = QStringLiteral("gold");
        JournalEntry e;
        e.actionId = id;
        e.idempotencyKey = QStringLiteral("key-") + id;
        e.source = QStringLiteral("ontap-ai");
        e.kind = actionKindName(kind);
        e.request = actionRequestToJson(request);
        e.user = QStringLiteral("alice");
        e.target = QStringLiteral("svm/vol1");
        e.submitted = clock.now();
        e.phase = handle.isEmpty() ? QStringLiteral("intended") : QStringLiteral("accepted");
        e.handle = handle;
        e.owner = owner;
        e.heartbeat = clock.now();
        ASSERT_TRUE(history->journalIntent(e));
        if (!handle.isEmpty()) {
            ASSERT_TRUE(valueOf(history->journalProgress(id, e.phase, handle, e.heartbeat)));
        }
    }

    static QString deadOwner() { return QSysInfo::machineHostName() + QStringLiteral("/999999999"); }

    std::vector<AuditEntry> audit()
    {
        history->flush();
        std::vector<AuditEntry> entries;
        bool done = false;
        history->auditLog(0, {}, QCoreApplication::instance(), [&](Result<std::vector<AuditEntry>> list) {
            entries = valueOf(std::move(list));
            done = true;
        });
        EXPECT_TRUE(QTest::qWaitFor(
            [&] {
                return done;
            },
            5000));
        return entries;
    }
};

} // namespace

TEST_F(ActionRecoveryTest, DeadOwnersActionIsFollowedWithItsHandleAndNeverSent)
{
    leftBehind(QStringLiteral("a1"), ActionKind::ServiceLevelChange, deadOwner(), QStringLiteral("job-42"));
    ActionManager manager(clock, pool, history.get(), QStringLiteral("bob"));
    manager.setExecutor(QStringLiteral("ontap-ai"), &executor);
    manager.recoverInterrupted();
    EXPECT_FALSE(manager.recoveryIdle());
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return manager.recoveryIdle() && manager.find(QStringLiteral("a1"));
        },
        5000));
    const ActionRecord *record = manager.find(QStringLiteral("a1"));
    EXPECT_TRUE(record->recovered);
    EXPECT_EQ(record->state, ActionState::Succeeded);
    EXPECT_EQ(record->user, QStringLiteral("alice"));
    EXPECT_EQ(record->request.targetLevel, QStringLiteral("gold"));
    EXPECT_TRUE(record->message.startsWith(QStringLiteral("Recovered after a restart: ")))
        << record->message.toStdString();
    EXPECT_TRUE(executor.sawRecovery);
    EXPECT_EQ(executor.seenHandle, QStringLiteral("job-42"));
    EXPECT_EQ(executor.seenKey, QStringLiteral("key-a1"));
    EXPECT_EQ(executor.sent, 0);
    // A second call (the next poll round) finds nothing open.
    manager.recoverInterrupted();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return manager.recoveryIdle();
        },
        5000));
    EXPECT_EQ(executor.runs, 1);
    const auto entries = audit();
    ASSERT_EQ(entries.size(), 1U);
    EXPECT_EQ(entries[0].outcome, QStringLiteral("succeeded"));
}

TEST_F(ActionRecoveryTest, AbsentEffectIsFailedNotSent)
{
    executor.effectPresent = false;
    leftBehind(QStringLiteral("a1"), ActionKind::ServiceLevelChange, deadOwner(), {});
    ActionManager manager(clock, pool, history.get(), QStringLiteral("bob"));
    manager.setExecutor(QStringLiteral("ontap-ai"), &executor);
    manager.recoverInterrupted();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return manager.recoveryIdle() && manager.find(QStringLiteral("a1"));
        },
        5000));
    EXPECT_EQ(manager.find(QStringLiteral("a1"))->state, ActionState::Failed);
    EXPECT_EQ(executor.sent, 0);
    EXPECT_EQ(audit().size(), 1U);
}

TEST_F(ActionRecoveryTest, LiveOwnerOrUnconnectedSourceIsLeftAlone)
{
    // This test process is alive: an entry it owns on this host belongs to a running Strata.
    const QString live = QSysInfo::machineHostName() + QLatin1Char('/')
                         + QString::number(QCoreApplication::applicationPid() == 1 ? 2 : 1);
    leftBehind(QStringLiteral("live"), ActionKind::ServiceLevelChange, live, QStringLiteral("job-1"));
    leftBehind(QStringLiteral("elsewhere"), ActionKind::ServiceLevelChange, deadOwner(), QStringLiteral("job-2"));
    ActionManager manager(clock, pool, history.get(), QStringLiteral("bob"));
    manager.setExecutor(QStringLiteral("other-source"), &executor);
    manager.recoverInterrupted();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return manager.recoveryIdle();
        },
        5000));
    EXPECT_EQ(manager.find(QStringLiteral("live")), nullptr);
    EXPECT_EQ(manager.find(QStringLiteral("elsewhere")), nullptr) << "its source is not connected here";
    EXPECT_EQ(executor.runs, 0);
    EXPECT_TRUE(audit().empty());
}

TEST_F(ActionRecoveryTest, KindTheExecutorCannotCheckIsClosedAsFailedNotRepeated)
{
    leftBehind(QStringLiteral("c1"), ActionKind::VolumeClone, deadOwner(), {});
    ActionManager manager(clock, pool, history.get(), QStringLiteral("bob"));
    manager.setExecutor(QStringLiteral("ontap-ai"), &executor);
    manager.recoverInterrupted();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return manager.recoveryIdle() && manager.find(QStringLiteral("c1"));
        },
        5000));
    const ActionRecord *record = manager.find(QStringLiteral("c1"));
    EXPECT_EQ(record->state, ActionState::Failed);
    EXPECT_TRUE(record->message.contains(QStringLiteral("not repeated"))) << record->message.toStdString();
    EXPECT_EQ(executor.runs, 0);
    const auto entries = audit();
    ASSERT_EQ(entries.size(), 1U);
    EXPECT_EQ(entries[0].outcome, QStringLiteral("failed"));
}

TEST_F(ActionRecoveryTest, SubmittedActionIsJournaledBeforeItRunsAndClosedAfter)
{
    ActionManager manager(clock, pool, history.get(), QStringLiteral("bob"));
    manager.setExecutor(QStringLiteral("ontap-ai"), &executor);
    ActionRequest request(ActionKind::ServiceLevelChange, QStringLiteral("ontap-ai"), QStringLiteral("vol1"));
    const auto idSubmitted = manager.submit(request);
    const QString id = idSubmitted ? *idSubmitted : QString();
    ASSERT_FALSE(id.isEmpty());
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return manager.find(id)->state != ActionState::Running;
        },
        5000));
    EXPECT_EQ(executor.sent, 1);
    EXPECT_FALSE(executor.sawRecovery);
    EXPECT_EQ(executor.seenKey, manager.find(id)->idempotencyKey);
    history->flush();
    SqlHistoryStore reader(dir.filePath(QStringLiteral("h.sqlite")), clock);
    ASSERT_TRUE(succeeded(reader.open()));
    const auto entry = valueOf(reader.journalEntry(id));
    ASSERT_TRUE(entry.has_value());
    EXPECT_EQ(entry->phase, QStringLiteral("finished"));
    EXPECT_EQ(entry->outcome, QStringLiteral("succeeded"));
    EXPECT_EQ(entry->idempotencyKey, manager.find(id)->idempotencyKey);
    EXPECT_EQ(entry->owner,
              QSysInfo::machineHostName() + QLatin1Char('/') + QString::number(QCoreApplication::applicationPid()));
}

TEST_F(ActionRecoveryTest, AnOwnersHeartbeatGoesStaleOnTheManagersClock)
{
    // Another host's process: only a heartbeat older than 45 s says it is gone.
    leftBehind(QStringLiteral("far"), ActionKind::ServiceLevelChange, QStringLiteral("other-host.example/4242"), {});
    ActionManager manager(clock, pool, history.get(), QStringLiteral("bob"));
    manager.setExecutor(QStringLiteral("ontap-ai"), &executor);
    manager.recoverInterrupted();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return manager.recoveryIdle();
        },
        10000));
    EXPECT_EQ(manager.find(QStringLiteral("far")), nullptr) << "its heartbeat is current";

    clock.advance(std::chrono::seconds(44));
    manager.recoverInterrupted();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return manager.recoveryIdle();
        },
        10000));
    EXPECT_EQ(manager.find(QStringLiteral("far")), nullptr) << "4 missed heartbeats are not yet silence";
    clock.advance(std::chrono::seconds(2));
    manager.recoverInterrupted();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return manager.recoveryIdle() && manager.find(QStringLiteral("far"));
        },
        10000));
    EXPECT_TRUE(manager.find(QStringLiteral("far"))->recovered);
    EXPECT_EQ(executor.sent, 0);
}

TEST_F(ActionRecoveryTest, AReplicaKeepsWatchingTheJournalAndTakesOverWhenAnOwnerFallsSilent)
{
    // A replica on another host was running an action when it was killed; this one started
    // long before, so nothing restarts: the periodic check alone must take it over.
    ActionManager manager(clock, pool, history.get(), QStringLiteral("bob"));
    manager.setExecutor(QStringLiteral("ontap-ai"), &executor);
    manager.setRecoveryInterval(std::chrono::milliseconds(50));
    manager.recoverInterrupted();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return manager.recoveryIdle();
        },
        10000));
    leftBehind(QStringLiteral("orphan"), ActionKind::ServiceLevelChange, QStringLiteral("replica-b.example/77"), {});
    QTest::qWait(200);
    EXPECT_EQ(manager.find(QStringLiteral("orphan")), nullptr) << "its owner's heartbeat is current";
    clock.advance(std::chrono::seconds(46));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return manager.find(QStringLiteral("orphan")) != nullptr;
        },
        10000));
    EXPECT_TRUE(manager.find(QStringLiteral("orphan"))->recovered);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return manager.find(QStringLiteral("orphan"))->state != ActionState::Running;
        },
        10000));
    EXPECT_EQ(manager.find(QStringLiteral("orphan"))->state, ActionState::Succeeded) << "the job was followed";
    EXPECT_EQ(executor.sent, 0) << "taken over, never sent again";
}

TEST_F(ActionRecoveryTest, JournalTimesComeFromTheManagersClock)
{
    // Sends, is accepted, then waits (on its worker) until the test has read the journal.
    class ParkedAfterAcceptExecutor final : public IActionExecutor
    {
    public:
        std::atomic<bool> parked{false};
        std::promise<void> release;
        std::shared_future<void> released = release.get_future().share();

        ActionPreview preview(const ActionRequest &) const override { return {}; }
        std::function<ActionResult(const ActionContext &)> prepare(const ActionRequest &) override
        {
            return [this](const ActionContext &ctx) {
                if (!ctx.sending()) {
                    return ActionResult{false, false, QStringLiteral("not sent")};
                }
                ctx.accepted(QStringLiteral("job-7"));
                parked = true;
                released.wait_for(std::chrono::seconds(30));
                return ActionResult{true, false, QStringLiteral("sent")};
            };
        }
    } parkedExecutor;

    ActionManager manager(clock, pool, history.get(), QStringLiteral("bob"));
    manager.setExecutor(QStringLiteral("ontap-ai"), &parkedExecutor);
    const auto idSubmitted = manager.submit(
        ActionRequest(ActionKind::ServiceLevelChange, QStringLiteral("ontap-ai"), QStringLiteral("vol1")));
    const QString id = idSubmitted ? *idSubmitted : QString();
    ASSERT_FALSE(id.isEmpty());
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return parkedExecutor.parked.load();
        },
        10000));
    {
        SqlHistoryStore reader(dir.filePath(QStringLiteral("h.sqlite")), clock);
        ASSERT_TRUE(succeeded(reader.open()));
        const auto entry = valueOf(reader.journalEntry(id));
        ASSERT_TRUE(entry.has_value());
        EXPECT_EQ(entry->phase, QStringLiteral("accepted"));
        EXPECT_EQ(entry->handle, QStringLiteral("job-7"));
        EXPECT_EQ(entry->submitted, clock.now());
        EXPECT_EQ(entry->heartbeat, clock.now()) << "the accepted stamp is on the manager's clock";
    }
    parkedExecutor.release.set_value();
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            return manager.find(id)->state != ActionState::Running;
        },
        10000));
    pool.waitForDone();
}
