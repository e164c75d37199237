#include "web/sharedauth.h"

#include "models/core/domain/clock.h"
#include "models/core/services/historyservice.h"

namespace strata::web {

namespace {

User sharedUserFromRecord(const core::WebUserRecord &r)
{
    return User{r.name, roleFromName(r.role).value_or(Role::Viewer), r.passwordHash, r.created};
}

Session sharedSessionFromRecord(const core::WebSessionRecord &r, const QString &id)
{
    Session s;
    s.id = id;
    s.idHash = r.idHash;
    s.user = r.user;
    s.role = roleFromName(r.role).value_or(Role::Viewer);
    s.created = r.created;
    s.lastSeen = r.lastSeen;
    return s;
}

constexpr qint64 kSharedPruneEveryMs = 10 * 60 * 1000;

} // namespace

SharedAuth::SharedAuth(core::HistoryService &history,
                       UserStore &users,
                       SessionManager &sessions,
                       const core::IClock &clock,
                       Hooks hooks,
                       std::chrono::milliseconds syncInterval,
                       QObject *parent)
    : QObject(parent)
    , m_history(history)
    , m_users(users)
    , m_sessions(sessions)
    , m_clock(clock)
    , m_hooks(std::move(hooks))
{
    m_timer.setInterval(int(std::max<qint64>(50, syncInterval.count())));
    connect(&m_timer, &QTimer::timeout, this, &SharedAuth::sync);
    m_sessions.trackTouches(true);
    // Changes made here through the UserStore (web routes) go to the store in order.
    m_users.setWriteThrough([this](const QString &name, const std::optional<User> &user) {
        if (user) {
            m_history.saveWebUser(
                core::WebUserRecord{user->name, roleName(user->role), user->passwordHash, user->created},
                m_clock.now());
        } else {
            m_history.removeWebUser(name, m_clock.now());
        }
    });
}

SharedAuth::~SharedAuth()
{
    m_users.setWriteThrough({});
}

core::Status SharedAuth::start()
{
    const core::Result<core::WebAuthChanges> all = m_history.webAuthChangesNow(0, m_clock.now());
    if (!all) {
        return core::fail(
            QStringLiteral("cannot read the web console users from the store: %1").arg(all.error().message));
    }
    apply(*all);
    m_timer.start();
    return {};
}

void SharedAuth::persist(const Session &session,
                         const QString &passwordHash,
                         std::function<void(core::Result<bool>)> done)
{
    core::WebSessionRecord record{session.idHash,
                                  session.user,
                                  roleName(session.role),
                                  session.created,
                                  session.lastSeen,
                                  m_sessions.expiresAt(session)};
    const QString hash = session.idHash;
    m_history.insertWebSession(record, passwordHash, this, [this, hash, done = std::move(done)](core::Result<bool> r) {
        if (!r || !*r) {
            m_sessions.removeByHash(hash);
        }
        done(std::move(r));
    });
}

void SharedAuth::endSession(const Session &session)
{
    const QDateTime now = m_clock.now();
    m_ended.removeIf([&now](const QHash<QString, QDateTime>::iterator &it) {
        return it.value() <= now;
    });
    m_ended.insert(session.idHash, now.addSecs(60));
    m_history.removeWebSession(session.idHash, now);
}

SharedAuth::LookupStart SharedAuth::lookup(const QString &id, std::function<void(bool found)> done)
{
    if (!wellFormedSessionId(id)) {
        return LookupStart::NotShared;
    }
    const QString hash = sessionIdHash(id);
    const QDateTime now = m_clock.now();
    if (const auto miss = m_misses.constFind(hash); miss != m_misses.cend()) {
        if (*miss > now) {
            return LookupStart::NotShared;
        }
        m_misses.erase(miss);
    }
    if (const auto waiting = m_lookups.find(hash); waiting != m_lookups.end()) {
        waiting->push_back(std::move(done));
        return LookupStart::Started;
    }
    if (m_lookups.size() >= kMaxLookups) {
        return LookupStart::Busy;
    }
    m_lookups[hash].push_back(std::move(done));
    m_history.webSession(hash, now, this, [this, hash, id](core::Result<std::optional<core::WebSessionRecord>> r) {
        const bool found = r && r->has_value() && !m_ended.contains(hash);
        if (found) {
            m_sessions.adopt(sharedSessionFromRecord(**r, id));
        } else if (r) {
            if (m_misses.size() >= 10 * kMaxLookups) {
                m_misses.clear(); // a flood of made-up cookies must not grow this without bound
            }
            m_misses.insert(hash, m_clock.now().addSecs(kNegativeTtl.count()));
        }
        const std::vector<std::function<void(bool)>> waiting = m_lookups.take(hash);
        for (const auto &callback : waiting) {
            callback(found);
        }
    });
    return LookupStart::Started;
}

void SharedAuth::syncNow()
{
    sync();
}

void SharedAuth::sync()
{
    if (std::vector<Session> touched = m_sessions.takeTouched(); !touched.empty()) {
        std::vector<core::WebSessionRecord> records;
        records.reserve(touched.size());
        for (const Session &s : touched) {
            records.push_back(core::WebSessionRecord{
                s.idHash, s.user, roleName(s.role), s.created, s.lastSeen, m_sessions.expiresAt(s)});
        }
        m_history.touchWebSessions(std::move(records));
    }
    const QDateTime now = m_clock.now();
    if (!m_lastPrune.isValid() || m_lastPrune.msecsTo(now) >= kSharedPruneEveryMs) {
        m_lastPrune = now;
        m_history.pruneWebAuth(now);
    }
    if (m_syncing) {
        return; // the store is slow: one read at a time
    }
    m_syncing = true;
    m_history.webAuthChanges(m_cursor, now, this, [this](core::Result<core::WebAuthChanges> r) {
        m_syncing = false;
        if (!r) {
            qWarning("strata-server: cannot read web console changes: %s", qUtf8Printable(r.error().message));
            return;
        }
        apply(*r);
    });
}

void SharedAuth::apply(const core::WebAuthChanges &changes)
{
    m_cursor = std::max(m_cursor, changes.cursor);
    ++m_syncs;
    if (changes.full) {
        QList<User> all;
        for (const core::WebUserRecord &r : changes.users) {
            all.append(sharedUserFromRecord(r));
        }
        m_users.replaceAll(all);
    } else {
        for (const core::WebUserRecord &r : changes.users) {
            const User now = sharedUserFromRecord(r);
            const std::optional<User> before = m_users.find(r.name);
            if (before && before->passwordHash == now.passwordHash && before->role == now.role) {
                continue; // written here, or read again through the overlap
            }
            m_users.applyRemote(now);
            if (before) {
                m_hooks.endUser(r.name, QStringLiteral("password or role changed"));
            }
        }
        for (const QString &name : changes.removedUsers) {
            if (m_users.find(name)) {
                m_users.forgetRemote(name);
                m_hooks.endUser(name, QStringLiteral("account removed"));
            }
        }
    }
    for (const core::WebSessionRecord &r : changes.sessions) {
        if (!m_ended.contains(r.idHash)) {
            m_sessions.adopt(sharedSessionFromRecord(r, QString()));
        }
    }
    for (const QString &hash : changes.removedSessions) {
        if (const std::optional<Session> ended = m_sessions.removeByHash(hash); ended && !ended->id.isEmpty()) {
            m_hooks.closeSession(ended->id);
        }
    }
}

} // namespace strata::web
