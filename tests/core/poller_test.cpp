#include "models/core/sources/systempoller.h"
#include "tests/support/qt/manualclock.h"

#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <future>
#include <mutex>

using namespace strata::core;
using namespace std::chrono_literals;
using strata::testsupport::ManualClock;

namespace {

/// Scripted poll outcomes; each poll pops the next one (or succeeds when empty).
struct Script
{
    std::mutex mutex;
    std::deque<std::optional<FetchError>> outcomes;
    std::atomic<int> runs{0};
    std::atomic<int> applied{0};

    SystemPoller::JobFactory factory()
    {
        return [this] {
            PollJob job;
            job.run = [this] {
                runs++;
                PollOutcome out;
                std::lock_guard lock(mutex);
                if (!outcomes.empty()) {
                    out.error = outcomes.front();
                    outcomes.pop_front();
                }
                if (!out.error) {
                    out.apply = [this] {
                        applied++;
                    };
                }
                return out;
            };
            return job;
        };
    }
};

FetchError error(FetchError::Kind kind, int retryAfter = -1)
{
    return FetchError{kind, QStringLiteral("boom"), retryAfter};
}

class PollerTest : public ::testing::Test
{
protected:
    ManualClock clock;
    QThreadPool pool;
    Script script;

    std::unique_ptr<SystemPoller> make(SystemPoller::Options options)
    {
        return std::make_unique<SystemPoller>(options, clock, pool, script.factory());
    }

    /// Advances the clock by `by` and waits for the poll it triggers to be applied.
    static bool pollCompletes(ManualClock &clock, SystemPoller &poller, std::chrono::milliseconds by)
    {
        QSignalSpy spy(&poller, &SystemPoller::polled);
        clock.advance(by);
        return spy.count() > 0 || spy.wait(5000);
    }
};

} // namespace

TEST_F(PollerTest, Start_PollsAtOnceThenEveryIntervalAfterCompletion)
{
    auto poller = make({.name = QStringLiteral("t"), .interval = 60s});
    poller->start();
    ASSERT_TRUE(pollCompletes(clock, *poller, 0ms));
    EXPECT_EQ(script.runs, 1);
    EXPECT_EQ(script.applied, 1);
    EXPECT_EQ(poller->state().health, Health::Ok);
    EXPECT_EQ(clock.nextDue(), 60s);
    clock.advance(59s);
    EXPECT_EQ(script.runs, 1);
    ASSERT_TRUE(pollCompletes(clock, *poller, 1s));
    EXPECT_EQ(script.runs, 2);
}

TEST_F(PollerTest, Failures_BackOffExponentiallyThenRecover)
{
    auto poller = make({.name = QStringLiteral("t"), .interval = 180s, .minBackoff = 5s, .maxBackoff = 40s});
    script.outcomes = {error(FetchError::Kind::Http),
                       error(FetchError::Kind::Http),
                       error(FetchError::Kind::Http),
                       error(FetchError::Kind::Http),
                       error(FetchError::Kind::Http)};
    poller->start();
    ASSERT_TRUE(pollCompletes(clock, *poller, 0ms));
    EXPECT_EQ(poller->state().health, Health::Degraded);
    const std::vector<std::chrono::milliseconds> expected{5s, 10s, 20s, 40s, 40s};
    for (std::size_t i = 0; i + 1 < expected.size(); ++i) {
        EXPECT_EQ(clock.nextDue(), expected[i]) << "after failure " << i + 1;
        ASSERT_TRUE(pollCompletes(clock, *poller, expected[i]));
    }
    EXPECT_EQ(clock.nextDue(), 40s);
    ASSERT_TRUE(pollCompletes(clock, *poller, 40s)); // succeeds: script empty
    EXPECT_EQ(poller->state().health, Health::Ok);
    EXPECT_EQ(poller->state().consecutiveFailures, 0);
    EXPECT_EQ(clock.nextDue(), 180s);
}

TEST_F(PollerTest, ConnectivityFailures_BecomeUnreachableAndStale)
{
    auto poller = make({.name = QStringLiteral("t"), .interval = 60s, .unreachableAfter = 2});
    poller->start();
    ASSERT_TRUE(pollCompletes(clock, *poller, 0ms));
    script.outcomes = {error(FetchError::Kind::Timeout), error(FetchError::Kind::Transport)};
    ASSERT_TRUE(pollCompletes(clock, *poller, 60s));
    EXPECT_EQ(poller->state().health, Health::Degraded);
    EXPECT_TRUE(poller->state().stale);
    EXPECT_TRUE(poller->state().lastSuccess.isValid()); // last good data is kept, marked stale
    ASSERT_TRUE(pollCompletes(clock, *poller, clock.nextDue()));
    EXPECT_EQ(poller->state().health, Health::Unreachable);
    EXPECT_EQ(poller->state().lastError, QStringLiteral("boom"));
}

TEST_F(PollerTest, RetryAfter_DelaysTheNextAttempt)
{
    auto poller = make({.name = QStringLiteral("t"), .interval = 60s, .minBackoff = 5s});
    script.outcomes = {error(FetchError::Kind::Http, 30)};
    poller->start();
    ASSERT_TRUE(pollCompletes(clock, *poller, 0ms));
    EXPECT_EQ(clock.nextDue(), 30s);
}

TEST_F(PollerTest, AuthFailure_PausesUntilResume)
{
    auto poller = make({.name = QStringLiteral("t"), .interval = 60s});
    script.outcomes = {error(FetchError::Kind::Auth)};
    poller->start();
    ASSERT_TRUE(pollCompletes(clock, *poller, 0ms));
    EXPECT_EQ(poller->state().health, Health::AuthRequired);
    EXPECT_TRUE(poller->state().paused);
    EXPECT_EQ(clock.pendingCount(), 0u);
    clock.advance(3600s);
    EXPECT_EQ(script.runs, 1); // never hammers a server with bad credentials
    QSignalSpy spy(poller.get(), &SystemPoller::polled);
    poller->resume();
    clock.advance(0ms);
    ASSERT_TRUE(spy.count() > 0 || spy.wait(5000));
    EXPECT_EQ(poller->state().health, Health::Ok);
}

TEST_F(PollerTest, PollNowWhileRunning_DropsTheSupersededResult)
{
    // Poll 1 blocks until the test releases it (a broken promise releases it too, if the test
    // ends early).
    std::promise<void> release;
    const std::shared_future<void> released = release.get_future().share();
    std::atomic<int> started{0};
    std::atomic<int> applied{0};
    SystemPoller poller({.name = QStringLiteral("t"), .interval = 60s}, clock, pool, [&] {
        const int n = ++started;
        PollJob job;
        job.run = [&, n] {
            if (n == 1) {
                released.wait();
            }
            PollOutcome out;
            out.apply = [&, n] {
                applied += n;
            };
            return out;
        };
        return job;
    });
    QSignalSpy spy(&poller, &SystemPoller::polled);
    poller.start();
    clock.advance(0ms);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return started == 1;
        },
        5000));
    poller.pollNow(); // supersedes poll 1
    clock.advance(0ms);
    ASSERT_TRUE(spy.wait(5000));
    release.set_value();
    pool.waitForDone();
    QCoreApplication::processEvents();
    EXPECT_EQ(applied, 2) << "only the second poll's result may be applied";
    EXPECT_EQ(spy.count(), 1);
}

TEST_F(PollerTest, OnDemand_PollsOnlyWhileSubscribed)
{
    auto poller = make({.name = QStringLiteral("t"), .interval = 60s, .onDemand = true});
    poller->start();
    clock.advance(120s);
    EXPECT_EQ(script.runs, 0);
    poller->addSubscriber();
    ASSERT_TRUE(pollCompletes(clock, *poller, 0ms));
    EXPECT_EQ(script.runs, 1);
    poller->addSubscriber();
    poller->removeSubscriber();
    ASSERT_TRUE(pollCompletes(clock, *poller, 60s)); // still one subscriber
    EXPECT_EQ(script.runs, 2);
    poller->removeSubscriber();
    clock.advance(600s);
    EXPECT_EQ(script.runs, 2);
}

TEST_F(PollerTest, Stop_CancelsScheduleAndDropsRunningResult)
{
    auto poller = make({.name = QStringLiteral("t"), .interval = 60s});
    poller->start();
    ASSERT_TRUE(pollCompletes(clock, *poller, 0ms));
    poller->stop();
    clock.advance(600s);
    EXPECT_EQ(script.runs, 1);
    EXPECT_TRUE(poller->state().paused);
}
