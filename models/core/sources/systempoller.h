#pragma once

#include "models/core/domain/clock.h"
#include "models/core/domain/records.h"

#include <QHash>
#include <QObject>

#include <chrono>
#include <functional>
#include <optional>

class QThreadPool;

namespace strata::core {

/// Why a poll (or an action step) failed, in the model layer's own terms.
struct FetchError
{
    enum class Kind
    {
        Transport,
        Timeout,
        Tls,
        Http,
        Api,
        Parse,
        Auth,
        Cancelled
    };
    Kind kind = Kind::Transport;
    QString message;            ///< one user-presentable line
    int retryAfterSeconds = -1; ///< server's Retry-After, -1 when none

    /// Failures that mean "cannot reach the system" rather than "it answered badly".
    [[nodiscard]] bool isConnectivity() const
    {
        return kind == Kind::Transport || kind == Kind::Timeout || kind == Kind::Tls;
    }
};

/// Result of one poll, produced on a worker thread. `apply` runs on the poller's thread after a
/// success and publishes into the estate.
struct PollOutcome
{
    std::optional<FetchError> error;
    std::function<void()> apply;
    QString systemName; ///< optional identity learnt during the poll
    QString systemVersion;
};

/// One poll's work: `run` executes on a worker thread (blocking connector calls), `cancel` may
/// be called from the owner thread to abort it.
struct PollJob
{
    std::function<PollOutcome()> run;
    std::function<void()> cancel;
};

/// Live state of one poller, for health and staleness.
struct PollerState
{
    Health health = Health::Unknown;
    bool running = false;
    bool paused = false; ///< auth required, or stopped
    bool stale = false;
    int consecutiveFailures = 0;
    QString lastError;
    QDateTime lastSuccess; ///< UTC
    QDateTime lastAttempt; ///< UTC
    QDateTime nextPoll;    ///< UTC, invalid when not scheduled
    qint64 lastDurationMs = -1;
};

/// Polls one resource class of one source on a schedule (qBittorrent's re-armed refresh): the
/// next poll is scheduled only after the previous one completes, so a slow system never piles
/// requests up. Work runs on a thread pool; results are applied on the poller's thread; a result
/// from a poll that was superseded (stop, pollNow, restart) is dropped by generation. On failure
/// it backs off exponentially (honouring Retry-After); an authentication failure pauses it until
/// resume(). On-demand pollers only run while they have subscribers (reference counted, as
/// ksystemstats does for sensors).
class SystemPoller final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SystemPoller)

public:
    struct Options
    {
        QString name; ///< "ontap-ai/inventory", for logs
        std::chrono::milliseconds interval{180'000};
        std::chrono::milliseconds minBackoff{5'000}; ///< first retry delay after a failure
        std::chrono::milliseconds maxBackoff{300'000};
        /// Only poll while addSubscriber() count > 0.
        bool onDemand = false;
        /// Consecutive connectivity failures after which the health is Unreachable.
        int unreachableAfter = 2;
    };

    using JobFactory = std::function<PollJob()>;

    SystemPoller(Options options, IClock &clock, QThreadPool &pool, JobFactory factory, QObject *parent = nullptr);
    ~SystemPoller() override;

    /// Starts polling now (first poll immediately).
    void start();
    /// Stops scheduling and cancels a running poll; its result will be dropped.
    void stop();
    /// Polls at once (cancels the pending timer; a running poll is superseded).
    void pollNow();
    /// Resumes a poller paused by an authentication failure (credentials changed).
    void resume();

    void addSubscriber();
    void removeSubscriber();
    [[nodiscard]] int subscriberCount() const { return m_subscribers; }

    [[nodiscard]] const PollerState &state() const { return m_state; }
    [[nodiscard]] const Options &options() const { return m_options; }
    /// Delay before the next attempt after `failures` consecutive failures (exposed for tests).
    [[nodiscard]] std::chrono::milliseconds backoffFor(int failures, int retryAfterSeconds) const;

Q_SIGNALS:
    void stateChanged();
    /// A poll finished and, on success, was applied.
    void polled(bool ok);

private:
    void schedule(std::chrono::milliseconds delay);
    void launch();
    void finish(quint64 generation, PollOutcome outcome, qint64 durationMs);
    void updateStale();
    [[nodiscard]] bool wanted() const;

    Options m_options;
    IClock &m_clock;
    QThreadPool &m_pool;
    JobFactory m_factory;
    PollerState m_state;
    PollJob m_current;
    quint64 m_generation = 0;
    IClock::TimerId m_timer = 0;
    int m_subscribers = 0;
    bool m_started = false;
    std::shared_ptr<bool> m_alive;
};

/// One subscriber more for the on-demand poller of `key` (a volume's snapshot list), created by
/// `make` and started on first use.
void subscribeKeyedPoller(QHash<QString, SystemPoller *> &pollers,
                          const QString &key,
                          const std::function<SystemPoller *()> &make);
/// One subscriber less; the poller stops and is deleted with its last subscriber.
void unsubscribeKeyedPoller(QHash<QString, SystemPoller *> &pollers, const QString &key);

} // namespace strata::core
