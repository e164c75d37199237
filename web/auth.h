#pragma once

#include "models/core/domain/error.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

class QTextStream;

#include <chrono>
#include <functional>
#include <optional>
#include <vector>

namespace strata::core {
class IClock;
class IHistoryStore;
} // namespace strata::core

namespace strata::web {

/// What a web user may do: viewers see dashboards and read-only pages, operators also run
/// actions (cache, evict, job delete, service-level change), admins also manage sources and
/// users. Ordered: a higher role includes the lower ones.
enum class Role
{
    Viewer = 0,
    Operator = 1,
    Admin = 2
};

/// "viewer", "operator", "admin".
QString roleName(Role role);
std::optional<Role> roleFromName(const QString &name);

/// PBKDF2-HMAC-SHA256 with a 16-byte random salt, encoded
/// "pbkdf2-sha256$<iterations>$<salt base64>$<hash base64>" (32-byte hash). `iterations` >= 1;
/// the default (OWASP 2023: 600,000) takes ~0.3 s on a 2-core CI machine in Debug.
QString hashPassword(const QString &password, int iterations = 600000);
/// Constant-time comparison of the derived hash; false for a malformed encoding.
bool verifyPassword(const QString &password, const QString &encoded);

struct User
{
    QString name; ///< 1-64 chars of [A-Za-z0-9._@-]
    Role role = Role::Viewer;
    QString passwordHash; ///< hashPassword() encoding; never leaves the server
    QDateTime created;    ///< UTC
};

/// What UserStore::snapshot() copied for one login check off the owner thread.
struct LoginCandidate
{
    std::optional<User> user; ///< the named user, when known
    QString dummyHash;        ///< verified instead when the user is unknown (constant timing)
    bool anyUsers = false;    ///< false: nobody can log in, nothing to verify

    /// The user when the password matches; thread-safe (works on the copy).
    [[nodiscard]] std::optional<User> authenticate(const QString &password) const;
};

/// The web console's local users, in a JSON file (mode 0600, replaced atomically with
/// QSaveFile) beside the server's state: {"users":[{"name","role","password_hash","created"}]}.
/// With an empty path the users live in memory only, and every change goes to the write-through
/// (setWriteThrough()) instead of a file: how replicas keep them in a shared history store
/// (web/sharedauth.h). Not thread-safe (owner thread).
class UserStore
{
public:
    /// `clock` dates new users (User::created); it must outlive the store. An empty `path`:
    /// memory only (see above).
    UserStore(QString path, const core::IClock &clock);

    /// Called after every change made through addUser()/addHashedUser()/removeUser() with the
    /// user as it is now (nullopt: removed), instead of writing a file. Only for an empty path.
    using WriteThrough = std::function<void(const QString &name, const std::optional<User> &user)>;
    void setWriteThrough(WriteThrough writeThrough) { m_writeThrough = std::move(writeThrough); }
    /// Takes a user as another replica wrote it (no write-through): added or replaced.
    void applyRemote(const User &user);
    /// Forgets a user another replica removed (no write-through).
    void forgetRemote(const QString &name);
    /// Replaces every user (a replica's first load from the store; no write-through).
    void replaceAll(const QList<User> &users);
    /// A copy of what a login check of `name` needs, for a worker thread.
    [[nodiscard]] LoginCandidate snapshot(const QString &name) const;

    /// Reads the file; a missing file is an empty store (success). A Kind::Failed error naming
    /// the file when unreadable or malformed (the store is then empty and refuses logins).
    core::Status load();
    /// Adds or replaces (new password, new role) a user and saves. Kind::Invalid for an invalid
    /// name or a password shorter than 8 characters; Kind::Failed for a write failure or a
    /// store whose file could not be read.
    core::Status addUser(const QString &name, const QString &password, Role role, int iterations = 600000);
    /// Adds or replaces a user whose password was hashed already (hashPassword(), e.g. on a
    /// worker thread); the name rules of addUser().
    core::Status addHashedUser(const QString &name, const QString &passwordHash, Role role);
    /// addUser()'s name and password rules, without hashing (Kind::Invalid).
    static core::Status validateNewUser(const QString &name, const QString &password);
    /// Removes `name` and saves; Kind::NotFound for an unknown name.
    core::Status removeUser(const QString &name);
    [[nodiscard]] std::optional<User> find(const QString &name) const;
    [[nodiscard]] QList<User> users() const;
    /// The user when the password matches. An unknown name still costs one hash derivation
    /// (against a dummy hash) so timing does not reveal which names exist.
    [[nodiscard]] std::optional<User> authenticate(const QString &name, const QString &password) const;
    [[nodiscard]] QString path() const { return m_path; }

private:
    void refreshDummyHash();
    core::Status save(const QHash<QString, User> &users) const;

    QString m_path;
    const core::IClock &m_clock;
    QHash<QString, User> m_users;
    QString m_dummyHash;   ///< same iteration count as a real user's hash, matches no password
    bool m_broken = false; ///< the file was unreadable: writes would lose its users, so refuse them
    WriteThrough m_writeThrough;
};

/// A logged-in browser: the id travels in the HttpOnly cookie "strata_session", the CSRF token
/// in the JSON of POST /api/v1/login and GET /api/v1/session, and must come back in the
/// "X-CSRF-Token" header of every state-changing request.
struct Session
{
    /// 32 random bytes, base64url (no padding). Empty for a session another replica created
    /// until its cookie is seen here (only the hash travels through the store).
    QString id;
    QString idHash; ///< sessionIdHash(id): the key here and in the store
    QString user;
    Role role = Role::Viewer;
    QString csrfToken; ///< csrfTokenFor(id), 43 base64url characters
    QDateTime created; ///< UTC
    QDateTime lastSeen;
    QDateTime lastWritten; ///< lastSeen as last written to the store (shared mode)
};

/// Lower-case hex SHA-256 of the id's bytes: what the store keeps instead of the id.
QString sessionIdHash(const QString &id);
/// The session's CSRF token: HMAC-SHA256 keyed with the session id over a fixed label,
/// base64url without padding. Derived, so any replica that sees the cookie knows the token
/// without it being stored anywhere.
QString csrfTokenFor(const QString &id);
/// Whether `id` has the shape create() gives ids (43 base64url characters).
bool wellFormedSessionId(const QString &id);

/// The sessions of this server, by sessionIdHash(). Single process: in memory only (a restart
/// logs everybody out). Replicas sharing a store (web/sharedauth.h) also take sessions from the
/// store (adopt()) and write new ones, logouts and a coarse lastSeen there. Idle timeout 8 h,
/// absolute 24 h.
class SessionManager
{
public:
    /// A lastSeen older than this than the one written is written again (shared mode).
    static constexpr std::chrono::seconds kTouchInterval{60};

    explicit SessionManager(core::IClock &clock,
                            std::chrono::seconds idle = std::chrono::hours(8),
                            std::chrono::seconds absolute = std::chrono::hours(24));

    Session create(const User &user);
    /// The live session (lastSeen updated), nullopt when unknown or expired (then dropped).
    std::optional<Session> find(const QString &id);
    /// Removes a session by its id; the removed session (nullopt when unknown).
    std::optional<Session> remove(const QString &id);
    /// Removes a session by its hash (ended on another replica).
    std::optional<Session> removeByHash(const QString &idHash);
    /// Adds (or, known already, moves lastSeen forward for) a session read from the store;
    /// `session.id` may be empty. Expired ones are ignored.
    void adopt(const Session &session);
    /// Ends every session of a user (removed, or role changed).
    void removeUser(const QString &name);
    /// Sessions whose lastSeen moved kTouchInterval past lastWritten since the last call, now
    /// marked written.
    std::vector<Session> takeTouched();
    /// min(created + absolute, lastSeen + idle).
    [[nodiscard]] QDateTime expiresAt(const Session &session) const;
    [[nodiscard]] int count() const { return int(m_sessions.size()); }
    /// Keeps the sessions whose lastSeen should be written (takeTouched()); off by default.
    void trackTouches(bool on) { m_trackTouches = on; }

private:
    [[nodiscard]] bool expired(const Session &session, const QDateTime &now) const;

    core::IClock &m_clock;
    std::chrono::seconds m_idle;
    std::chrono::seconds m_absolute;
    QHash<QString, Session> m_sessions; ///< by idHash
    QSet<QString> m_touched;            ///< idHashes
    bool m_trackTouches = false;
};

/// Limits of LoginLimiter. Counts are failures within `window`.
struct LoginLimits
{
    int perUserAndClient = 5; ///< one name from one address
    int perClient = 20;       ///< all names from one address (password spraying)
    int global = 100;         ///< all addresses: then addresses with a failure in the window wait
    std::chrono::seconds window = std::chrono::minutes(5);
};

/// Why a failure started a lockout (LoginLimiter::recordFailure).
enum class LoginLockout
{
    None,
    UserFromClient, ///< this name from this address
    Client,         ///< this address, for every name
    Global          ///< every address that failed recently
};

/// Login throttling that an attacker cannot turn against a user: failures count per (name,
/// client address) and per address over all names, never per name alone, so wrong passwords
/// from elsewhere cannot lock a user out of their own address. A global limit bounds guessing
/// from many addresses: past it, addresses with a failure in the window wait too, while an
/// address without failures (a user who has not mistyped) still gets in. After `limit`
/// failures, further attempts wait until the oldest failure leaves the window. A success
/// forgets only that (client, user) pair's failures: logging in to one's own account does not
/// unlock the client's guesses at other accounts.
class LoginLimiter
{
public:
    explicit LoginLimiter(core::IClock &clock, LoginLimits limits = {});
    /// `maxFailures` per (user, client); 4x that per client, 20x globally.
    LoginLimiter(core::IClock &clock, int maxFailures, std::chrono::seconds window);

    /// 0 = may try now; otherwise the seconds to put in Retry-After (>= 1).
    [[nodiscard]] std::chrono::seconds retryAfter(const QString &client, const QString &user) const;
    /// True when the client failed within the window (its checks queue behind the others').
    [[nodiscard]] bool hasRecentFailures(const QString &client) const;
    /// Counts a failure; says when it is the one that started a lockout.
    LoginLockout recordFailure(const QString &client, const QString &user);
    /// Clears the user's failures from this client.
    void recordSuccess(const QString &client, const QString &user);
    [[nodiscard]] const LoginLimits &limits() const { return m_limits; }

private:
    struct Failure
    {
        QDateTime time;
        QString user;
    };
    [[nodiscard]] std::chrono::seconds wait(const QList<QDateTime> &recentFailures, int limit) const;
    [[nodiscard]] QList<QDateTime> recent(const QList<Failure> &failures, const QString *user) const;
    void prune(const QString &client);
    void pruneGlobal();
    void sweep();

    core::IClock &m_clock;
    LoginLimits m_limits;
    QHash<QString, QList<Failure>> m_byClient; ///< failures by client address, oldest first
    QList<QDateTime> m_global;                 ///< every failure in the window, oldest first
    int m_recordedSinceSweep = 0;
};

/// `strata-server user add NAME --role viewer|operator|admin [--users PATH]` (password from
/// STRATA_NEW_PASSWORD, else one line read from `in`, without echo when `in` is a terminal),
/// `user remove NAME [--users PATH]`, `user list [--users PATH]` (name, role, created; never
/// the hash). Returns the exit code (0, 1 error, 2 usage). `args` starts after "user".
/// Without `store` the users file is changed, and a running server reads it at start, so
/// changes apply at its next start. With `store` (an open history store: the servers share a
/// PostgreSQL database) the users live there (--users is refused) and running replicas take a
/// change within their sync bound (web/sharedauth.h); an added (replaced) or removed user's
/// sessions end. `clock` dates added users. `iterations` is the PBKDF2 cost of new hashes
/// (lowered only by tests).
int runUserCommand(const QStringList &args,
                   const QString &defaultUsersPath,
                   QTextStream &in,
                   QTextStream &out,
                   QTextStream &err,
                   const core::IClock &clock,
                   int iterations = 600000,
                   core::IHistoryStore *store = nullptr);

} // namespace strata::web
