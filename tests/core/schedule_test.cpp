#include "models/core/domain/estate.h"
#include "models/core/services/actions.h"
#include "models/core/services/historyservice.h"
#include "models/core/services/scheduleservice.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"
#include "tests/support/qt/pgfixture.h"
#include "tests/support/qt/sqlitetables.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QTemporaryDir>
#include <QThreadPool>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

using strata::testsupport::renameSqliteTable;
using strata::testsupport::succeeded;
using strata::testsupport::valueOf;
using namespace strata::core;
using strata::testsupport::ManualClock;

namespace {

// Monday 2 March 2026.
const QDateTime kMonday(QDate(2026, 3, 2), QTime(8, 0), Qt::UTC);

QDateTime atSchedule(int day, int hour, int minute = 0)
{
    return QDateTime(QDate(2026, 3, day), QTime(hour, minute), Qt::UTC);
}

template <class Pred> bool waitFor(Pred pred)
{
    QDeadlineTimer deadline(30000); // generous: a loaded CI machine runs three suites at once
    while (!pred() && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return pred();
}

ServiceLevelSchedule schedule(Recurrence recurrence, const QDateTime &start, const QDateTime &end = {})
{
    ServiceLevelSchedule s;
    s.id = 7;
    s.source = QStringLiteral("azure");
    s.volumeId = QStringLiteral("fs-criteo");
    s.volumeName = QStringLiteral("criteo-data");
    s.level = QStringLiteral("Premium");
    s.revertLevel = end.isValid() ? QStringLiteral("Standard") : QString();
    s.start = start;
    s.end = end;
    s.recurrence = recurrence;
    return s;
}

QList<QDateTime> times(const QList<UpcomingChange> &edges)
{
    QList<QDateTime> out;
    for (const UpcomingChange &e : edges) {
        out << e.time;
    }
    return out;
}

} // namespace

TEST(ScheduleEdges, OnceAndWindow)
{
    const auto once = nextEdges(schedule(Recurrence::Once, atSchedule(2, 10)), kMonday, 5);
    ASSERT_EQ(once.size(), 1);
    EXPECT_EQ(once[0].time, atSchedule(2, 10));
    EXPECT_EQ(once[0].toLevel, QStringLiteral("Premium"));
    EXPECT_FALSE(once[0].revert);
    EXPECT_EQ(once[0].scheduleId, 7);
    EXPECT_TRUE(nextEdges(schedule(Recurrence::Once, atSchedule(2, 10)), atSchedule(2, 10), 5).isEmpty())
        << "strictly after";

    const auto window =
        nextEdges(schedule(Recurrence::Once, atSchedule(2, 10), atSchedule(2, 14)), atSchedule(2, 11), 5);
    ASSERT_EQ(window.size(), 1);
    EXPECT_EQ(window[0].time, atSchedule(2, 14));
    EXPECT_TRUE(window[0].revert);
    EXPECT_EQ(window[0].toLevel, QStringLiteral("Standard"));
}

TEST(ScheduleEdges, DailyWeekdaysAndWeeklyRecur)
{
    EXPECT_EQ(times(nextEdges(schedule(Recurrence::Daily, atSchedule(2, 22), atSchedule(3, 2)), atSchedule(3, 1), 4)),
              (QList<QDateTime>{atSchedule(3, 2), atSchedule(3, 22), atSchedule(4, 2), atSchedule(4, 22)}))
        << "a window across midnight";
    // Friday 6 March 09:00, inside Friday's window: its end, then Monday's window.
    EXPECT_EQ(
        times(nextEdges(schedule(Recurrence::Weekdays, atSchedule(2, 8), atSchedule(2, 10)), atSchedule(6, 9), 4)),
        (QList<QDateTime>{atSchedule(6, 10), atSchedule(9, 8), atSchedule(9, 10), atSchedule(10, 8)}));
    EXPECT_EQ(times(nextEdges(schedule(Recurrence::Weekly, atSchedule(2, 8)), atSchedule(3, 0), 2)),
              (QList<QDateTime>{atSchedule(9, 8), atSchedule(16, 8)}));
    // Far in the future it skips ahead instead of walking every day.
    const QDateTime later(QDate(2031, 3, 2), QTime(9, 0), Qt::UTC);
    const auto far = nextEdges(schedule(Recurrence::Daily, atSchedule(2, 8)), later, 2);
    ASSERT_EQ(far.size(), 2);
    EXPECT_EQ(far[0].time, QDateTime(QDate(2031, 3, 3), QTime(8, 0), Qt::UTC));
    EXPECT_EQ(recurrenceFromName(QStringLiteral("weekdays")), Recurrence::Weekdays);
    EXPECT_EQ(recurrenceFromName(QStringLiteral("hourly")), std::nullopt);
}

namespace {

/// Applies service-level changes by counting them; checks, when asked, that the store already
/// marks the edge fired at the moment the action is prepared.
class LevelExecutor final : public IActionExecutor
{
public:
    std::atomic<int> applied{0};
    QStringList levels;
    QString storePath;
    bool firedBeforeSubmit = true;
    std::atomic<int> followed{0}; ///< recoveries: the vendor's work followed, nothing sent

    [[nodiscard]] bool recovers(ActionKind kind) const override { return kind == ActionKind::ServiceLevelChange; }

    ActionPreview preview(const ActionRequest &request) const override
    {
        ActionPreview p;
        p.title = QStringLiteral("Change service level");
        p.target = request.volumeId;
        return p;
    }

    std::function<ActionResult(const ActionContext &)> prepare(const ActionRequest &request) override
    {
        levels << request.targetLevel;
        if (!storePath.isEmpty()) {
            ManualClock peekClock; // reads only
            SqlHistoryStore peek(storePath, peekClock);
            bool fired = bool(peek.open());
            for (const ServiceLevelSchedule &s : valueOf(peek.schedules())) {
                fired = fired && s.id == request.scheduleId && s.lastFired.isValid();
            }
            firedBeforeSubmit = firedBeforeSubmit && fired;
        }
        return [this](const ActionContext &context) {
            if (context.recovery) {
                followed++;
                return ActionResult{true, false, QStringLiteral("the pool change finished")};
            }
            applied++;
            return ActionResult{true, false, QStringLiteral("changed")};
        };
    }
};

class ScheduleServiceTest : public ::testing::Test
{
protected:
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("history.sqlite"));
    ManualClock clock{kMonday};
    QThreadPool pool;
    Estate estate;
    LevelExecutor executor;
    std::unique_ptr<HistoryService> history;
    std::unique_ptr<ActionManager> actions;
    std::unique_ptr<ScheduleService> service;

    void SetUp() override
    {
        Volume v;
        v.source = QStringLiteral("azure");
        v.id = QStringLiteral("fs-criteo");
        v.name = QStringLiteral("criteo-data");
        estate.publishVolumes(
            QStringLiteral("azure"),
            std::make_shared<const KeyedList<Volume>>(std::vector<Ptr<Volume>>{std::make_shared<const Volume>(v)}));
        executor.storePath = path;
    }

    void TearDown() override { stop(); }

    /// Starts Strata on the file: history, actions and schedules, and waits for the load.
    void boot()
    {
        history = std::make_unique<HistoryService>(std::make_unique<SqlHistoryStore>(path, clock));
        ASSERT_TRUE(history->openError().isEmpty());
        actions = std::make_unique<ActionManager>(clock, pool, history.get(), QStringLiteral("alice"));
        actions->setExecutor(QStringLiteral("azure"), &executor);
        service = std::make_unique<ScheduleService>(*actions, estate, clock, history.get());
        service->start();
        ASSERT_TRUE(waitFor([this] {
            return service->isLoaded();
        }));
    }

    /// Strata exits (or dies: the store keeps what was written).
    void stop()
    {
        pool.waitForDone();
        QCoreApplication::processEvents();
        service.reset();
        actions.reset();
        if (history) {
            history->flush();
        }
        history.reset();
    }

    qint64 add(ServiceLevelSchedule s)
    {
        qint64 id = 0;
        QString error = QStringLiteral("pending");
        QObject context;
        service->add(std::move(s), &context, [&](qint64 i, QString e) {
            id = i;
            error = e;
        });
        EXPECT_TRUE(waitFor([&] {
            return error != QLatin1String("pending");
        }));
        EXPECT_TRUE(error.isEmpty()) << error.toStdString();
        return id;
    }

    /// Writes a schedule straight into the file, as an earlier run would have left it.
    qint64 seed(ServiceLevelSchedule s)
    {
        SqlHistoryStore store(path, clock);
        EXPECT_TRUE(succeeded(store.open()));
        s.id = 0;
        return valueOf(store.saveSchedule(s));
    }

    QString outcome(qint64 id) const { return service->schedule(id).value_or(ServiceLevelSchedule{}).lastOutcome; }
};

} // namespace

TEST_F(ScheduleServiceTest, FiresAnEdgeExactlyOnceAcrossARestart)
{
    boot();
    const qint64 id = add(schedule(Recurrence::Once, kMonday.addSecs(600)));
    ASSERT_GT(id, 0);
    ASSERT_EQ(service->upcoming(5).size(), 1);
    clock.advance(std::chrono::minutes(9));
    EXPECT_EQ(executor.applied, 0);
    clock.advance(std::chrono::minutes(1));
    ASSERT_TRUE(waitFor([&] {
        return outcome(id) == QLatin1String("succeeded");
    })) << outcome(id).toStdString();
    EXPECT_EQ(executor.applied, 1);
    EXPECT_EQ(executor.levels, QStringList{QStringLiteral("Premium")});
    EXPECT_TRUE(executor.firedBeforeSubmit) << "lastFired must be on disk before the action is submitted";
    EXPECT_TRUE(service->upcoming(5).isEmpty());

    stop();
    boot();
    clock.advance(std::chrono::hours(2));
    QCoreApplication::processEvents();
    pool.waitForDone();
    QCoreApplication::processEvents();
    EXPECT_EQ(executor.applied, 1) << "the restart must not submit the edge again";
    EXPECT_EQ(outcome(id), QStringLiteral("succeeded"));
    EXPECT_EQ(service->schedule(id)->lastFired, kMonday.addSecs(600));
}

TEST_F(ScheduleServiceTest, AnEdgeMarkedFiredBeforeACrashIsNotSubmittedAgain)
{
    ServiceLevelSchedule s = schedule(Recurrence::Once, kMonday.addSecs(60));
    s.lastFired = s.start;
    s.lastOutcome = QStringLiteral("submitted");
    const qint64 id = seed(s);
    clock.advance(std::chrono::minutes(2));
    boot();
    pool.waitForDone();
    QCoreApplication::processEvents();
    EXPECT_EQ(executor.applied, 0);
    EXPECT_EQ(outcome(id), QStringLiteral("submitted"));
}

TEST_F(ScheduleServiceTest, AnEdgeWhoseRunnerDiedMidActionIsRecordedByTheProcessThatTakesItOver)
{
    // Another process claimed the edge, sent the change and died with it in flight (a killed
    // replica): whoever takes the action over records the edge's outcome, and nothing is sent twice.
    const QDateTime edge = kMonday.addSecs(60);
    const qint64 id = seed(schedule(Recurrence::Once, edge));
    ActionRequest request(ActionKind::ServiceLevelChange, QStringLiteral("azure"), QStringLiteral("fs-criteo"));
    request.targetLevel = QStringLiteral("Premium");
    request.scheduleId = id;
    request.scheduleEdge = edge;
    {
        SqlHistoryStore store(path, clock);
        ASSERT_TRUE(succeeded(store.open()));
        ASSERT_TRUE(valueOf(store.claimScheduleEdge(id, edge)));
        JournalEntry entry;
        entry.actionId = QStringLiteral("a-dead");
        entry.idempotencyKey = QStringLiteral("k-dead");
        entry.source = request.source;
        entry.kind = actionKindName(request.kind);
        entry.request = actionRequestToJson(request);
        entry.target = request.volumeId;
        entry.submitted = edge;
        entry.phase = QStringLiteral("accepted");
        entry.handle = QStringLiteral("https://management.azure.com/operations/1");
        entry.owner = QStringLiteral("gone-host/4242");
        entry.heartbeat = edge;
        ASSERT_TRUE(store.journalIntent(entry));
    }
    clock.advance(std::chrono::minutes(10)); // its heartbeat is long stale
    boot();
    EXPECT_EQ(outcome(id), QStringLiteral("submitted"));
    actions->recoverInterrupted();
    ASSERT_TRUE(waitFor([&] {
        return outcome(id) == QLatin1String("succeeded");
    })) << outcome(id).toStdString();
    pool.waitForDone();
    EXPECT_EQ(executor.followed, 1);
    EXPECT_EQ(executor.applied, 0) << "the change was sent again";
    history->flush();
    SqlHistoryStore check(path, clock);
    ASSERT_TRUE(succeeded(check.open()));
    const std::vector<ServiceLevelSchedule> stored = valueOf(check.schedules());
    ASSERT_EQ(stored.size(), 1U);
    EXPECT_EQ(stored.front().lastFired, edge);
    EXPECT_EQ(stored.front().lastOutcome, QStringLiteral("succeeded")) << "the outcome must reach the store";
}

TEST_F(ScheduleServiceTest, MissedEdgesAtStartUp)
{
    // Strata was down from 08:00 to 09:00.
    const qint64 late = seed(schedule(Recurrence::Once, atSchedule(2, 8, 30)));   // 30 min late: missed
    const qint64 onTime = seed(schedule(Recurrence::Once, atSchedule(2, 8, 50))); // 10 min late: runs
    ServiceLevelSchedule inWindow = schedule(Recurrence::Once, atSchedule(2, 8, 10), atSchedule(2, 12));
    const qint64 window = seed(inWindow); // started while down, still open: apply now
    clock.advance(std::chrono::hours(1));
    boot();
    ASSERT_TRUE(waitFor([&] {
        return outcome(onTime) == QLatin1String("succeeded") && outcome(window) == QLatin1String("succeeded");
    })) << outcome(onTime).toStdString()
        << " / " << outcome(window).toStdString();
    EXPECT_EQ(outcome(late), QStringLiteral("missed"));
    EXPECT_EQ(executor.applied, 2);

    // The window's end reverts the level, once.
    clock.advance(std::chrono::hours(3));
    ASSERT_TRUE(waitFor([&] {
        return executor.applied == 3 && outcome(window) == QLatin1String("succeeded");
    }));
    EXPECT_EQ(executor.levels.last(), QStringLiteral("Standard"));
    EXPECT_EQ(service->schedule(window)->lastFired, atSchedule(2, 12));

    stop();
    boot();
    EXPECT_EQ(service->schedule(late)->lastOutcome, QStringLiteral("missed")) << "persisted";
}

TEST_F(ScheduleServiceTest, DailyScheduleFiresEachDay)
{
    boot();
    const qint64 id = add(schedule(Recurrence::Daily, atSchedule(2, 9), atSchedule(2, 11)));
    const auto upcoming = service->upcoming(3);
    EXPECT_EQ(times(upcoming), (QList<QDateTime>{atSchedule(2, 9), atSchedule(2, 11), atSchedule(3, 9)}));
    // Hour by hour as a real day passes (each change finishes long before the next edge), to
    // Tuesday 09:30: Monday's raise and revert, then Tuesday's raise.
    clock.advance(std::chrono::minutes(90)); // Monday 09:30
    ASSERT_TRUE(waitFor([&] {
        return executor.applied == 1;
    }));
    clock.advance(std::chrono::hours(2)); // Monday 11:30
    ASSERT_TRUE(waitFor([&] {
        return executor.applied == 2;
    }));
    clock.advance(std::chrono::hours(22)); // Tuesday 09:30
    ASSERT_TRUE(waitFor([&] {
        return executor.applied == 3;
    }));
    EXPECT_EQ(executor.levels,
              (QStringList{QStringLiteral("Premium"), QStringLiteral("Standard"), QStringLiteral("Premium")}));
    EXPECT_EQ(service->schedule(id)->lastFired, atSchedule(3, 9));

    // Disabled: nothing more fires, and nothing is upcoming.
    service->setEnabled(id, false);
    clock.advance(std::chrono::hours(48));
    pool.waitForDone();
    QCoreApplication::processEvents();
    EXPECT_EQ(executor.applied, 3);
    EXPECT_TRUE(service->upcoming(3).isEmpty());
}

TEST_F(ScheduleServiceTest, AStoreThatCannotBeReadKeepsTheSchedulesItHad)
{
    boot();
    const qint64 id = add(schedule(Recurrence::Once, kMonday.addSecs(3 * 3600)));
    ASSERT_GT(id, 0);
    // Another connection takes the table away: every read of the schedules now fails.
    ASSERT_TRUE(renameSqliteTable(path, "level_schedule", "level_schedule_away"));
    service->reload(); // what the kReloadSeconds timer does
    history->flush();  // the read has run; its answer is queued to this thread
    QCoreApplication::processEvents();
    EXPECT_TRUE(service->schedule(id).has_value()) << "a failed read is not \"every schedule was removed\"";
    EXPECT_EQ(service->upcoming(5).size(), 1);

    ASSERT_TRUE(renameSqliteTable(path, "level_schedule_away", "level_schedule"));
    clock.advance(std::chrono::hours(3));
    ASSERT_TRUE(waitFor([&] {
        return outcome(id) == QLatin1String("succeeded");
    })) << outcome(id).toStdString();
    EXPECT_EQ(executor.applied, 1);
}

TEST_F(ScheduleServiceTest, PicksUpAScheduleAnotherProcessStored)
{
    boot();
    // `strata set service-level --window` writes straight into the shared store.
    const qint64 id = seed(schedule(Recurrence::Once, kMonday.addSecs(3 * 3600)));
    ASSERT_GT(id, 0);
    EXPECT_FALSE(service->schedule(id).has_value());
    service->reload(); // what the kReloadSeconds timer does
    ASSERT_TRUE(waitFor([&] {
        return service->schedule(id).has_value();
    }));
    EXPECT_EQ(service->upcoming(5).size(), 1);
    clock.advance(std::chrono::hours(3));
    ASSERT_TRUE(waitFor([&] {
        return outcome(id) == QLatin1String("succeeded");
    })) << outcome(id).toStdString();
    EXPECT_EQ(executor.applied, 1);
}

TEST_F(ScheduleServiceTest, RefusesInvalidSchedules)
{
    boot();
    QObject context;
    const auto refused = [&](ServiceLevelSchedule s) {
        QString error;
        bool done = false;
        service->add(std::move(s), &context, [&](qint64 id, QString e) {
            EXPECT_EQ(id, 0);
            error = e;
            done = true;
        });
        EXPECT_TRUE(waitFor([&] {
            return done;
        }));
        return error;
    };
    EXPECT_EQ(refused(schedule(Recurrence::Once, kMonday.addSecs(-60))),
              QStringLiteral("The time 2026-03-02 07:59 UTC has already passed."));
    EXPECT_EQ(refused(schedule(Recurrence::Once, atSchedule(2, 12), atSchedule(2, 10))),
              QStringLiteral("The window must end after it starts."));
    ServiceLevelSchedule unknown = schedule(Recurrence::Once, atSchedule(2, 12));
    unknown.volumeId = QStringLiteral("fs-gone");
    unknown.volumeName = QStringLiteral("gone");
    EXPECT_EQ(refused(unknown), QStringLiteral("Volume gone is not known to azure."));
    EXPECT_TRUE(service->schedules().isEmpty());
}

namespace {

/// One process sharing the store (a strata-server replica; the desktop app beside the CLI),
/// with its own history thread, actions and schedule service.
struct ScheduleReplica
{
    LevelExecutor executor;
    std::unique_ptr<HistoryService> history;
    std::unique_ptr<ActionManager> actions;
    std::unique_ptr<ScheduleService> service;

    ScheduleReplica(const QString &location, ManualClock &clock, QThreadPool &pool, Estate &estate, const QString &user)
        : history(std::make_unique<HistoryService>(std::make_unique<SqlHistoryStore>(location, clock)))
        , actions(std::make_unique<ActionManager>(clock, pool, history.get(), user))
    {
        actions->setExecutor(QStringLiteral("azure"), &executor);
        service = std::make_unique<ScheduleService>(*actions, estate, clock, history.get());
        service->start();
    }
    ~ScheduleReplica()
    {
        service.reset();
        actions.reset();
        history->flush();
    }
    ScheduleReplica(const ScheduleReplica &) = delete;
    ScheduleReplica &operator=(const ScheduleReplica &) = delete;

    [[nodiscard]] QString outcome(qint64 id) const
    {
        return service->schedule(id).value_or(ServiceLevelSchedule{}).lastOutcome;
    }
};

/// `replicas` processes on the store at `location` all see one edge come due at once: exactly
/// one submits it, and every one shows its outcome.
void expectOneOfManyFiresTheEdge(const QString &location, int replicas, ManualClock &clock, Estate &estate)
{
    QThreadPool pool;
    SqlHistoryStore seeder(location, clock);
    ASSERT_TRUE(succeeded(seeder.open())) << seeder.lastError().toStdString();
    ServiceLevelSchedule s = schedule(Recurrence::Once, kMonday.addSecs(600));
    s.id = 0;
    const qint64 id = valueOf(seeder.saveSchedule(s));
    ASSERT_GT(id, 0);
    std::vector<std::unique_ptr<ScheduleReplica>> all;
    for (int i = 0; i < replicas; ++i) {
        all.push_back(
            std::make_unique<ScheduleReplica>(location, clock, pool, estate, QStringLiteral("replica-%1").arg(i)));
    }
    ASSERT_TRUE(waitFor([&] {
        return std::all_of(all.cbegin(), all.cend(), [&](const auto &r) {
            return r->service->isLoaded() && r->service->schedule(id).has_value();
        });
    }));
    clock.advance(std::chrono::minutes(10));
    ASSERT_TRUE(waitFor([&] {
        return std::any_of(all.cbegin(), all.cend(), [&](const auto &r) {
            return r->outcome(id) == QLatin1String("succeeded");
        });
    }));
    pool.waitForDone();
    QCoreApplication::processEvents();
    int applied = 0;
    for (const auto &r : all) {
        applied += r->executor.applied;
    }
    EXPECT_EQ(applied, 1) << "one edge, one service-level change";
    // The others learn the outcome from the store, once the winner's write has landed: the
    // kReloadSeconds timer's reloads, here one every 100 ms.
    const auto everyoneKnows = [&] {
        return std::all_of(all.cbegin(), all.cend(), [&](const auto &r) {
            return r->outcome(id) == QLatin1String("succeeded");
        });
    };
    QDeadlineTimer deadline(30000);
    while (!everyoneKnows() && !deadline.hasExpired()) {
        for (const auto &r : all) {
            r->service->reload();
        }
        QDeadlineTimer beat(100);
        while (!beat.hasExpired()) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        }
    }
    EXPECT_TRUE(everyoneKnows());
    pool.waitForDone();
}

} // namespace

TEST_F(ScheduleServiceTest, TwoProcessesOnOneSqliteFileFireADueEdgeOnce)
{
    expectOneOfManyFiresTheEdge(path, 2, clock, estate);
}

TEST_F(ScheduleServiceTest, ThreeReplicasOnOnePostgresDatabaseFireADueEdgeOnce)
{
    strata::testsupport::ScratchPostgresDatabase db;
    ASSERT_FALSE(db.url().isEmpty());
    expectOneOfManyFiresTheEdge(db.url(), 3, clock, estate);
}
