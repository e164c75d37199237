#pragma once

// The web console's users and sessions in the history store's database (tables web_user,
// web_session, web_auth_change; both SQL dialects), so strata-server replicas sharing one
// PostgreSQL database share their logins. Used through IHistoryStore (models/core/store/historystore.h).

#include "models/core/domain/error.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace strata::core {

/// A web console user (web/auth.h User) as the store keeps it.
struct WebUserRecord
{
    QString name;         ///< 1-64 chars of [A-Za-z0-9._@-] (checked by web/auth.h)
    QString role;         ///< "viewer", "operator" or "admin"
    QString passwordHash; ///< web/auth.h hashPassword() encoding
    QDateTime created;    ///< UTC, whole seconds

    bool operator==(const WebUserRecord &) const = default;
};

/// A web console session. The cookie's session id is never stored: only its SHA-256, so a
/// reader of the database (or a backup) cannot take over a session.
struct WebSessionRecord
{
    QString idHash; ///< lower-case hex SHA-256 of the session id's ASCII bytes (64 chars)
    QString user;
    QString role;       ///< the user's role when the session began
    QDateTime created;  ///< UTC, millisecond precision
    QDateTime lastSeen; ///< UTC; written coarsely (web/auth.h: about once a minute per session)
    QDateTime expires;  ///< UTC: min(created + absolute limit, lastSeen + idle limit)

    bool operator==(const WebSessionRecord &) const = default;
};

/// What changed in the web tables since a cursor (IHistoryStore::webAuthChanges()).
struct WebAuthChanges
{
    qint64 cursor = 0; ///< hand back on the next call
    /// true when the call read everything (cursor <= 0): `users` and `sessions` are then the
    /// whole tables (unexpired sessions), and the removed lists are empty.
    bool full = false;
    std::vector<WebUserRecord> users;       ///< current rows of users added or changed
    QStringList removedUsers;               ///< names
    std::vector<WebSessionRecord> sessions; ///< current rows of sessions created (or touched)
    QStringList removedSessions;            ///< id hashes of sessions ended or expired
};

/// SQL of the tables above on an open connection (owner thread of `db`); every write also
/// appends a row to web_auth_change so other replicas read only what changed. Errors name the
/// table; `postgres` picks the dialect where it matters.
namespace webauth {

/// Inserts or replaces `user` (a replaced user keeps its created time) and ends every session
/// of that user (a new password or role signs in again), in one transaction.
Status saveUser(QSqlDatabase &db, const WebUserRecord &user, const QDateTime &at);
/// Removes the user and its sessions; false when there was no such user.
Result<bool> removeUser(QSqlDatabase &db, const QString &name, const QDateTime &at);
/// Every user, by name.
Result<std::vector<WebUserRecord>> users(QSqlDatabase &db);
/// Inserts a session only while its user still has `passwordHash` and the session's role (a
/// login checked against a replica's older copy of the user does not outlive a password or
/// role change made elsewhere); false when the user changed or is gone.
Result<bool> insertSession(QSqlDatabase &db, const WebSessionRecord &session, const QString &passwordHash);
/// Ends one session (logout); ending an unknown one is not an error.
Status removeSession(QSqlDatabase &db, const QString &idHash, const QDateTime &at);
/// Writes lastSeen and expires of sessions (no change rows: other replicas need not know).
Status touchSessions(QSqlDatabase &db, const std::vector<WebSessionRecord> &sessions);
/// The session unless unknown or expired at `now`.
Result<std::optional<WebSessionRecord>> session(QSqlDatabase &db, const QString &idHash, const QDateTime &now);
/// Everything (cursor <= 0) or what changed after `cursor`. Change ids a concurrent
/// transaction had taken but not committed at the last call are caught by re-reading the last
/// kChangeOverlap change rows each time (applying a change twice is harmless).
Result<WebAuthChanges> changes(QSqlDatabase &db, qint64 cursor, const QDateTime &now);
/// Deletes expired sessions and change rows older than a day; how many rows went.
Result<qint64> prune(QSqlDatabase &db, const QDateTime &now);

inline constexpr qint64 kChangeOverlap = 32;

} // namespace webauth

} // namespace strata::core
