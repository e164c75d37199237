#pragma once

// Internal to strata::web (web/servercontext.h).

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QThreadPool>

#include <deque>
#include <functional>

namespace strata::core {
class IClock;
}

namespace strata::web {

class LoginLimiter;

/// Password hashes (PBKDF2, ~0.3 s each) run off the event loop so live updates keep flowing,
/// on `workers` threads. One check in flight per client address bounds what parallel guessing
/// could do before the limiter has counted the failures. Checks wait in three lanes of at most
/// `queueLimit` each, served in this order: addresses a user logged in from before (trusted),
/// addresses without recent failures (clean), addresses that failed recently (suspect). A full
/// lane refuses at once (429), so attackers cannot make a real login wait behind all of their
/// guesses. Owner thread only (the work itself runs on the pool).
class LoginQueue
{
    Q_DISABLE_COPY_MOVE(LoginQueue)

public:
    enum class Lane
    {
        Trusted,
        Clean,
        Suspect
    };

    /// `context` receives the completions (queued); `limiter` says which addresses failed.
    LoginQueue(QObject *context, core::IClock &clock, const LoginLimiter &limiter, int workers, int queueLimit);
    ~LoginQueue();

    /// Queues a hash; false when the lane is full (unless `force`).
    bool enqueue(Lane lane, std::function<void()> work, bool force = false);
    [[nodiscard]] Lane laneOf(const QString &client) const;
    /// Remembers an address a user logged in from (bounded; kept for 30 days).
    void trust(const QString &client);
    /// Waits for the running hashes (before the server goes).
    void waitForDone() { m_pool.waitForDone(); }

    /// Client addresses whose login is being checked now.
    QSet<QString> inFlight;

private:
    void pump();

    QObject *m_context;
    core::IClock &m_clock;
    const LoginLimiter &m_limiter;
    int m_queueLimit;
    QThreadPool m_pool;
    std::deque<std::function<void()>> m_lanes[3];
    QHash<QString, QDateTime> m_trusted; ///< address -> last successful login
    int m_hashing = 0;
};

} // namespace strata::web
