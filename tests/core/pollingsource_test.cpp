#include "models/core/sources/pollingsource.h"
#include "tests/support/qt/manualclock.h"

#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

#include <gtest/gtest.h>

#include <deque>
#include <mutex>

using namespace strata::core;
using namespace std::chrono_literals;
using strata::testsupport::ManualClock;

namespace {

/// Scripted outcomes of one poller: each poll pops the next (success when empty).
struct PollingScript
{
    std::mutex mutex;
    std::deque<std::optional<FetchError>> outcomes;

    void push(std::optional<FetchError> outcome)
    {
        std::lock_guard lock(mutex);
        outcomes.push_back(std::move(outcome));
    }

    SystemPoller::JobFactory factory()
    {
        return [this] {
            PollJob job;
            job.run = [this] {
                PollOutcome out;
                std::lock_guard lock(mutex);
                if (!outcomes.empty()) {
                    out.error = outcomes.front();
                    outcomes.pop_front();
                }
                out.apply = [] {};
                return out;
            };
            return job;
        };
    }
};

FetchError pollingFailure(FetchError::Kind kind, const QString &message)
{
    return FetchError{kind, message, -1};
}

/// A PollingSource with an inventory poller and the secondaries a test adds.
class ScriptedSource final : public PollingSource
{
public:
    ScriptedSource(IClock &clock, QThreadPool &pool, PollingScript &inventory)
        : PollingSource(config(), clock, pool)
    {
        Role role;
        role.counts = Counts::Primary;
        role.inventory = true;
        m_inventory = addPoller(pollerOptions(QStringLiteral("inventory"), 60s), inventory.factory(), role);
    }

    static SourceConfig config()
    {
        SourceConfig c;
        c.name = QStringLiteral("lab");
        c.url = QStringLiteral("https://lab.example");
        c.configIntervalSeconds = 60;
        return c;
    }

    SystemPoller *addSecondary(const QString &what, PollingScript &script, Role role, bool onDemand = false)
    {
        SystemPoller::Options options = pollerOptions(what, 60s);
        options.onDemand = onDemand;
        return addPoller(options, script.factory(), role);
    }
    using PollingSource::Counts;
    using PollingSource::Merge;
    using PollingSource::Role;
    using PollingSource::setPollerProblem;

    // IActionExecutor: this test source runs no actions.
    [[nodiscard]] ActionPreview preview(const ActionRequest &) const override { return {}; }
    [[nodiscard]] std::function<ActionResult(const ActionContext &)> prepare(const ActionRequest &) override
    {
        return {};
    }

    SystemPoller *m_inventory = nullptr;
    QStringList passwords;

protected:
    void describe(SourceStatus &status) const override
    {
        status.kind = SourceKind::StorageGrid;
        status.systemName = QStringLiteral("lab-system");
    }
    void reconnect(const QString &password) override { passwords << password; }
};

class PollingSourceTest : public ::testing::Test
{
protected:
    ManualClock clock;
    QThreadPool pool;
    PollingScript inventory;

    /// Advances the clock by `by` and waits until `poller` has finished `count` polls more.
    bool polls(SystemPoller *poller, std::chrono::milliseconds by, int count = 1)
    {
        QSignalSpy spy(poller, &SystemPoller::polled);
        clock.advance(by);
        return QTest::qWaitFor(
            [&] {
                return spy.count() >= count;
            },
            5000);
    }
};

} // namespace

TEST_F(PollingSourceTest, FailedPoll_KeepsTheLastDataMarkedStale)
{
    ScriptedSource source(clock, pool, inventory);
    source.start();
    ASSERT_TRUE(polls(source.m_inventory, 0ms));
    SourceStatus ok = source.status();
    EXPECT_EQ(ok.health, Health::Ok);
    EXPECT_FALSE(ok.stale);
    EXPECT_EQ(ok.name, QStringLiteral("lab"));
    EXPECT_EQ(ok.url, QStringLiteral("https://lab.example"));
    EXPECT_EQ(ok.kind, SourceKind::StorageGrid); // describe() fills what is the subclass's
    EXPECT_EQ(ok.systemName, QStringLiteral("lab-system"));

    inventory.push(pollingFailure(FetchError::Kind::Http, QStringLiteral("HTTP 500")));
    ASSERT_TRUE(polls(source.m_inventory, 60s));
    const SourceStatus failed = source.status();
    EXPECT_EQ(failed.health, Health::Degraded);
    EXPECT_TRUE(failed.stale);
    EXPECT_EQ(failed.lastError, QStringLiteral("HTTP 500"));
    EXPECT_EQ(failed.lastSuccess, ok.lastSuccess); // the data shown is the last good poll's
    EXPECT_EQ(failed.consecutiveFailures, 1);
}

TEST_F(PollingSourceTest, Secondaries_MakeTheStatusWorseNeverBetter)
{
    PollingScript events;
    ScriptedSource source(clock, pool, inventory);
    SystemPoller *secondary = source.addSecondary(QStringLiteral("events"), events, {});
    source.start();
    events.push(pollingFailure(FetchError::Kind::Auth, QStringLiteral("401 on events")));
    QSignalSpy statusSpy(&source, &Source::statusChanged);
    clock.advance(0ms);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return source.m_inventory->state().health == Health::Ok
                   && secondary->state().health == Health::AuthRequired;
        },
        5000));
    EXPECT_GT(statusSpy.count(), 0);
    SourceStatus s = source.status();
    EXPECT_EQ(s.health, Health::AuthRequired);
    EXPECT_EQ(s.lastError, QStringLiteral("401 on events"));
    EXPECT_FALSE(s.stale); // only the primary's data age counts by default

    // A healthy secondary does not hide a failing primary.
    inventory.push(pollingFailure(FetchError::Kind::Http, QStringLiteral("HTTP 503")));
    source.setPassword(QStringLiteral("new")); // resumes both: they poll at once
    clock.advance(0ms);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return source.m_inventory->state().health == Health::Degraded && secondary->state().health == Health::Ok;
        },
        5000));
    s = source.status();
    EXPECT_EQ(s.health, Health::Degraded);
    EXPECT_EQ(s.lastError, QStringLiteral("HTTP 503"));
}

TEST_F(PollingSourceTest, WhileWatchedSecondary_CountsOnlyWithSubscribers)
{
    PollingScript perf;
    ScriptedSource source(clock, pool, inventory);
    ScriptedSource::Role role;
    role.counts = ScriptedSource::Counts::WhileWatched;
    SystemPoller *watched = source.addSecondary(QStringLiteral("performance"), perf, role, true);
    perf.push(pollingFailure(FetchError::Kind::Http, QStringLiteral("perf down")));
    source.start();
    ASSERT_TRUE(polls(source.m_inventory, 0ms));
    watched->addSubscriber();
    ASSERT_TRUE(polls(watched, 0ms));
    EXPECT_EQ(source.status().health, Health::Degraded);
    EXPECT_EQ(source.status().lastError, QStringLiteral("perf down"));
    watched->removeSubscriber();
    EXPECT_EQ(source.status().health, Health::Ok);
    EXPECT_TRUE(source.status().lastError.isEmpty());
}

TEST_F(PollingSourceTest, RankedSecondaryWithProblem_ShowsItFormattedAndCountsAsPolled)
{
    PollingScript hub;
    ScriptedSource source(clock, pool, inventory);
    ScriptedSource::Role role;
    role.merge = ScriptedSource::Merge::Ranked;
    role.errorFormat = QStringLiteral("S3: %1");
    role.inventory = true;
    role.autoStart = false;
    SystemPoller *hubPoller = source.addSecondary(QStringLiteral("hub"), hub, role);
    QSignalSpy polled(&source, &Source::inventoryPolled);
    source.start();
    ASSERT_TRUE(polls(source.m_inventory, 0ms));
    EXPECT_EQ(polled.count(), 1);
    EXPECT_FALSE(source.hasPolledOnce()); // the hub has not run
    EXPECT_TRUE(hubPoller->state().paused);

    source.setPollerProblem(hubPoller, QStringLiteral("no S3 secret"));
    EXPECT_TRUE(source.hasPolledOnce()); // nothing more will come
    EXPECT_EQ(source.status().health, Health::AuthRequired);
    EXPECT_EQ(source.status().lastError, QStringLiteral("S3: no S3 secret"));

    source.setPollerProblem(hubPoller, QString());
    EXPECT_FALSE(source.hasPolledOnce());
    EXPECT_EQ(source.status().health, Health::Ok);
}

TEST_F(PollingSourceTest, SetPassword_ReconnectsAndResumesOnlyPollersThatUseIt)
{
    PollingScript hub;
    ScriptedSource source(clock, pool, inventory);
    ScriptedSource::Role role;
    role.resumeOnPassword = false;
    SystemPoller *other = source.addSecondary(QStringLiteral("hub"), hub, role);
    inventory.push(pollingFailure(FetchError::Kind::Auth, QStringLiteral("401")));
    hub.push(pollingFailure(FetchError::Kind::Auth, QStringLiteral("403")));
    source.start();
    clock.advance(0ms);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return source.m_inventory->state().paused && other->state().paused;
        },
        5000));
    EXPECT_TRUE(source.hasPolledOnce()); // a failed poll counts

    source.setPassword(QStringLiteral("s3cret"));
    EXPECT_EQ(source.passwords, QStringList{QStringLiteral("s3cret")});
    ASSERT_TRUE(polls(source.m_inventory, 0ms));
    EXPECT_EQ(source.m_inventory->state().health, Health::Ok);
    EXPECT_TRUE(other->state().paused);
    EXPECT_EQ(source.status().health, Health::AuthRequired); // the other one still fails
    EXPECT_EQ(source.status().lastError, QStringLiteral("403"));
}
