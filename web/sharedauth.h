#pragma once

#include "web/auth.h"

#include "models/core/domain/error.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <chrono>
#include <functional>
#include <vector>

namespace strata::core {
class HistoryService;
class IClock;
struct WebAuthChanges;
} // namespace strata::core

namespace strata::web {

/// Web console users and sessions shared by strata-server replicas through one history store
/// (PostgreSQL; tables of models/core/store/webauthstore.h), so a session cookie works on any replica
/// and a logout, password or role change or user removal on one ends the sessions on all.
///
/// The request path never waits for the database: the UserStore and SessionManager maps stay
/// what requests are checked against. Writes go to the store's thread in order (users through
/// UserStore's write-through, logouts, a coarse lastSeen at most once per
/// SessionManager::kTouchInterval per session). Every `syncInterval` the store's thread reads
/// what changed since the last look (web_auth_change) and this applies it: users added,
/// changed (their sessions and WebSockets end) or removed, sessions created or ended elsewhere.
/// So a change on one replica takes effect on the others within syncInterval plus one store
/// round trip (1.5 s + the store's queue; documented as "within 3 s").
/// A cookie this replica does not know may belong to a session another replica created
/// moments ago: lookup() asks the store for that one session off the request path.
/// Owner thread only.
class SharedAuth final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SharedAuth)

public:
    /// What ends a user's connections here (ServerContext::endUserConnections) and one
    /// session's WebSockets (LiveViewers::closeSession).
    struct Hooks
    {
        std::function<void(const QString &user, const QString &why)> endUser;
        std::function<void(const QString &sessionId)> closeSession;
    };

    SharedAuth(core::HistoryService &history,
               UserStore &users,
               SessionManager &sessions,
               const core::IClock &clock,
               Hooks hooks,
               std::chrono::milliseconds syncInterval = std::chrono::milliseconds(1500),
               QObject *parent = nullptr);
    ~SharedAuth() override;

    /// Reads every user and live session from the store (waits for it: before the server
    /// listens) and starts the periodic sync. An error naming the store when it cannot be read.
    core::Status start();

    /// Records a new session; `done(inserted)` once it is committed, so any replica finds it
    /// as soon as its cookie exists (false: the user's password or role changed meanwhile on
    /// another replica; the session is then dropped here).
    void persist(const Session &session, const QString &passwordHash, std::function<void(core::Result<bool>)> done);
    /// A logout: ends the session everywhere.
    void endSession(const Session &session);

    enum class LookupStart
    {
        NotShared, ///< malformed id, or the store said no moments ago: answer 401
        Started,   ///< `done` will run (found or not)
        Busy       ///< too many lookups in flight: answer 503 with Retry-After
    };
    /// Asks the store for the session of a cookie unknown here; when found it is adopted into
    /// SessionManager before `done(true)`. A miss is remembered for kNegativeTtl, so repeated
    /// unknown cookies cost one query each per that time. At most kMaxLookups at once.
    LookupStart lookup(const QString &id, std::function<void(bool found)> done);

    /// One sync now (tests); the periodic ones keep running.
    void syncNow();
    /// Syncs finished since start (tests wait on it).
    [[nodiscard]] qint64 syncs() const { return m_syncs; }

    static constexpr int kMaxLookups = 256;
    static constexpr std::chrono::seconds kNegativeTtl{10};

private:
    void sync();
    void apply(const core::WebAuthChanges &changes);

    core::HistoryService &m_history;
    UserStore &m_users;
    SessionManager &m_sessions;
    const core::IClock &m_clock;
    Hooks m_hooks;
    QTimer m_timer;
    qint64 m_cursor = 0;
    qint64 m_syncs = 0;
    bool m_syncing = false;
    QDateTime m_lastPrune;
    QHash<QString, std::vector<std::function<void(bool)>>> m_lookups; ///< by idHash
    QHash<QString, QDateTime> m_misses;                               ///< idHash -> forget after
    /// Sessions ended here lately (idHash -> until): a sync read queued before the logout's
    /// delete must not bring one back.
    QHash<QString, QDateTime> m_ended;
};

} // namespace strata::web
