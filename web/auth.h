#pragma once

#include "models/core/error.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

class QTextStream;

#include <chrono>
#include <optional>

namespace strata::core {
class IClock;
}

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

/// The web console's local users, in a JSON file (mode 0600, replaced atomically with
/// QSaveFile) beside the server's state: {"users":[{"name","role","password_hash","created"}]}.
/// Not thread-safe (owner thread).
class UserStore
{
public:
    /// `clock` dates new users (User::created); it must outlive the store.
    UserStore(QString path, const core::IClock &clock);

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
};

/// A logged-in browser: the id travels in the HttpOnly cookie "strata_session", the CSRF token
/// in the JSON of POST /api/v1/login and GET /api/v1/session, and must come back in the
/// "X-CSRF-Token" header of every state-changing request.
struct Session
{
    QString id; ///< 32 random bytes, base64url (no padding)
    QString user;
    Role role = Role::Viewer;
    QString csrfToken; ///< 32 random bytes, base64url
    QDateTime created; ///< UTC
    QDateTime lastSeen;
};

/// In-memory sessions (a restart logs everybody out). Idle timeout 8 h, absolute 24 h.
class SessionManager
{
public:
    explicit SessionManager(core::IClock &clock,
                            std::chrono::seconds idle = std::chrono::hours(8),
                            std::chrono::seconds absolute = std::chrono::hours(24));

    Session create(const User &user);
    /// The live session (lastSeen updated), nullopt when unknown or expired (then dropped).
    std::optional<Session> find(const QString &id);
    void remove(const QString &id);
    /// Ends every session of a user (removed, or role changed).
    void removeUser(const QString &name);
    [[nodiscard]] int count() const { return int(m_sessions.size()); }

private:
    core::IClock &m_clock;
    std::chrono::seconds m_idle;
    std::chrono::seconds m_absolute;
    QHash<QString, Session> m_sessions;
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
/// A running server reads the users file at start, so changes apply at its next start.
/// `clock` dates added users. `iterations` is the PBKDF2 cost of new hashes (lowered only by tests).
int runUserCommand(const QStringList &args,
                   const QString &defaultUsersPath,
                   QTextStream &in,
                   QTextStream &out,
                   QTextStream &err,
                   const core::IClock &clock,
                   int iterations = 600000);

} // namespace strata::web
