#include "models/core/sources/systempoller.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPointer>
#include <QThreadPool>

namespace strata::core {

SystemPoller::SystemPoller(Options options, IClock &clock, QThreadPool &pool, JobFactory factory, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_clock(clock)
    , m_pool(pool)
    , m_factory(std::move(factory))
    , m_alive(std::make_shared<bool>(true))
{
    m_state.paused = true;
}

SystemPoller::~SystemPoller()
{
    *m_alive = false;
    stop();
}

void SystemPoller::start()
{
    m_started = true;
    m_state.paused = false;
    if (wanted()) {
        schedule(std::chrono::milliseconds(0));
    }
    Q_EMIT stateChanged();
}

void SystemPoller::stop()
{
    m_started = false;
    m_generation++;
    if (m_timer) {
        m_clock.cancel(m_timer);
        m_timer = 0;
    }
    if (m_state.running && m_current.cancel) {
        m_current.cancel();
    }
    m_current = {};
    m_state.running = false;
    m_state.paused = true;
    m_state.nextPoll = {};
}

void SystemPoller::pollNow()
{
    if (!m_started) {
        return;
    }
    m_state.paused = false;
    if (m_state.running) {
        // Supersede: the running poll's result is dropped, a fresh one starts now.
        m_generation++;
        if (m_current.cancel) {
            m_current.cancel();
        }
        m_state.running = false;
    }
    schedule(std::chrono::milliseconds(0));
}

void SystemPoller::resume()
{
    if (!m_started) {
        return;
    }
    m_state.paused = false;
    m_state.consecutiveFailures = 0;
    schedule(std::chrono::milliseconds(0));
    Q_EMIT stateChanged();
}

void SystemPoller::addSubscriber()
{
    m_subscribers++;
    if (m_options.onDemand && m_subscribers == 1 && m_started && !m_state.paused && !m_state.running) {
        schedule(std::chrono::milliseconds(0));
    }
}

void SystemPoller::removeSubscriber()
{
    if (m_subscribers == 0) {
        return;
    }
    m_subscribers--;
    if (m_options.onDemand && m_subscribers == 0 && m_timer) {
        m_clock.cancel(m_timer);
        m_timer = 0;
        m_state.nextPoll = {};
    }
}

bool SystemPoller::wanted() const
{
    return !m_options.onDemand || m_subscribers > 0;
}

std::chrono::milliseconds SystemPoller::backoffFor(int failures, int retryAfterSeconds) const
{
    using namespace std::chrono;
    milliseconds delay = m_options.minBackoff;
    for (int i = 1; i < failures && delay < m_options.maxBackoff; ++i) {
        delay *= 2;
    }
    delay = std::min(delay, m_options.maxBackoff);
    if (retryAfterSeconds > 0) {
        delay = std::max<milliseconds>(delay, seconds(retryAfterSeconds));
    }
    return delay;
}

void SystemPoller::schedule(std::chrono::milliseconds delay)
{
    if (m_timer) {
        m_clock.cancel(m_timer);
    }
    m_state.nextPoll = m_clock.now().addMSecs(delay.count());
    m_timer = m_clock.callAfter(delay, this, [this] {
        m_timer = 0;
        launch();
    });
}

void SystemPoller::launch()
{
    if (!m_started || m_state.paused || m_state.running || !wanted()) {
        m_state.nextPoll = {};
        return;
    }
    const quint64 generation = ++m_generation;
    m_current = m_factory();
    m_state.running = true;
    m_state.lastAttempt = m_clock.now();
    m_state.nextPoll = {};
    Q_EMIT stateChanged();

    // The result is posted to the application object and forwarded only if this poller still
    // exists: posting to `this` from a worker would race with its destruction.
    std::weak_ptr<bool> alive = m_alive;
    QPointer<SystemPoller> self(this);
    auto run = m_current.run;
    m_pool.start([run, alive, self, generation] {
        QElapsedTimer timer;
        timer.start();
        PollOutcome outcome;
        if (run) {
            outcome = run();
        }
        const qint64 elapsed = timer.elapsed();
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [alive, self, generation, outcome = std::move(outcome), elapsed]() mutable {
                if (!alive.expired() && self) {
                    self->finish(generation, std::move(outcome), elapsed);
                }
            },
            Qt::QueuedConnection);
    });
}

void SystemPoller::finish(quint64 generation, PollOutcome outcome, qint64 durationMs)
{
    if (generation != m_generation) {
        return; // superseded or stopped
    }
    m_state.running = false;
    m_current = {};
    const QDateTime now = m_clock.now();
    if (!outcome.error) {
        if (outcome.apply) {
            outcome.apply();
        }
        m_state.health = Health::Ok;
        m_state.consecutiveFailures = 0;
        m_state.lastError.clear();
        m_state.lastSuccess = now;
        m_state.lastDurationMs = durationMs;
        if (wanted()) {
            schedule(m_options.interval);
        }
    } else {
        const FetchError &error = *outcome.error;
        m_state.consecutiveFailures++;
        m_state.lastError = error.message;
        if (error.kind == FetchError::Kind::Cancelled) {
            m_state.consecutiveFailures--;
        } else if (error.kind == FetchError::Kind::Auth) {
            // Retrying bad credentials only locks accounts: wait for the user.
            m_state.health = Health::AuthRequired;
            m_state.paused = true;
        } else if (error.isConnectivity() && m_state.consecutiveFailures >= m_options.unreachableAfter) {
            m_state.health = Health::Unreachable;
        } else {
            m_state.health = Health::Degraded;
        }
        if (!m_state.paused && wanted()) {
            schedule(backoffFor(std::max(1, m_state.consecutiveFailures), error.retryAfterSeconds));
        }
    }
    updateStale();
    Q_EMIT stateChanged();
    Q_EMIT polled(!outcome.error);
}

void SystemPoller::updateStale()
{
    const QDateTime now = m_clock.now();
    m_state.stale =
        !m_state.lastSuccess.isValid()
            ? m_state.consecutiveFailures > 0
            : (m_state.consecutiveFailures > 0 || m_state.lastSuccess.msecsTo(now) > 2 * m_options.interval.count());
}

void subscribeKeyedPoller(QHash<QString, SystemPoller *> &pollers,
                          const QString &key,
                          const std::function<SystemPoller *()> &make)
{
    SystemPoller *&poller = pollers[key];
    if (!poller) {
        poller = make();
        poller->start();
    }
    poller->addSubscriber();
}

void unsubscribeKeyedPoller(QHash<QString, SystemPoller *> &pollers, const QString &key)
{
    if (SystemPoller *poller = pollers.value(key)) {
        poller->removeSubscriber();
        if (poller->subscriberCount() == 0) {
            pollers.remove(key);
            poller->stop();
            poller->deleteLater();
        }
    }
}

} // namespace strata::core
