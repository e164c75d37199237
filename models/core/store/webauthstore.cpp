#include "models/core/store/webauthstore.h"

#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>

namespace strata::core::webauth {

namespace {

const QString kWebUserChange = QStringLiteral("user");
const QString kWebSessionChange = QStringLiteral("session");
constexpr qint64 kWebChangeRowsKeptMs = 24LL * 3600 * 1000;

Error webAuthSqlError(const QString &what, const QSqlError &error)
{
    return Error::failed(QStringLiteral("%1: %2").arg(what, error.text()));
}

QDateTime webAuthTime(const QVariant &ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms.toLongLong(), Qt::UTC);
}

const QString kWebSessionColumns =
    QStringLiteral("id_sha256, user_name, role, created_t, last_seen_t, expires_t FROM web_session");

WebSessionRecord webSessionFromRow(const QSqlQuery &q)
{
    return WebSessionRecord{q.value(0).toString(),
                            q.value(1).toString(),
                            q.value(2).toString(),
                            webAuthTime(q.value(3)),
                            webAuthTime(q.value(4)),
                            webAuthTime(q.value(5))};
}

WebUserRecord webUserFromRow(const QSqlQuery &q)
{
    return WebUserRecord{q.value(0).toString(), q.value(1).toString(), q.value(2).toString(), webAuthTime(q.value(3))};
}

/// Runs a prepared statement with `values`; the error names `what`.
Status webAuthExec(QSqlQuery &query, const QVariantList &values, const QString &what)
{
    for (const QVariant &v : values) {
        query.addBindValue(v);
    }
    if (!query.exec()) {
        return fail(webAuthSqlError(what, query.lastError()));
    }
    return {};
}

Status webAuthRun(QSqlDatabase &db, const QString &sql, const QVariantList &values, const QString &what)
{
    QSqlQuery query(db);
    query.prepare(sql);
    return webAuthExec(query, values, what);
}

Status webAuthLogChange(QSqlDatabase &db, const QString &kind, const QString &name, qint64 at)
{
    return webAuthRun(db,
                      QStringLiteral("INSERT INTO web_auth_change (t, kind, name) VALUES (?, ?, ?)"),
                      {at, kind, name},
                      QStringLiteral("cannot record a change of the web users"));
}

/// Deletes the user's sessions, with a change row for each (inside the caller's transaction).
Status webAuthEndUserSessions(QSqlDatabase &db, const QString &name, qint64 at)
{
    QSqlQuery list(db);
    list.prepare(QStringLiteral("SELECT id_sha256 FROM web_session WHERE user_name = ?"));
    if (Status s = webAuthExec(list, {name}, QStringLiteral("cannot read the sessions of %1").arg(name)); !s) {
        return s;
    }
    QStringList hashes;
    while (list.next()) {
        hashes << list.value(0).toString();
    }
    for (const QString &hash : std::as_const(hashes)) {
        if (Status s = webAuthLogChange(db, kWebSessionChange, hash, at); !s) {
            return s;
        }
    }
    return webAuthRun(db,
                      QStringLiteral("DELETE FROM web_session WHERE user_name = ?"),
                      {name},
                      QStringLiteral("cannot end the sessions of %1").arg(name));
}

/// Runs `body` in a transaction: committed when it succeeds, rolled back otherwise.
template <class Body> auto webAuthInTransaction(QSqlDatabase &db, Body body) -> decltype(body())
{
    if (!db.transaction()) {
        return fail(webAuthSqlError(QStringLiteral("cannot begin a transaction"), db.lastError()));
    }
    auto result = body();
    if (!result) {
        db.rollback();
        return result;
    }
    if (!db.commit()) {
        const QSqlError error = db.lastError();
        db.rollback();
        return fail(webAuthSqlError(QStringLiteral("cannot commit"), error));
    }
    return result;
}

} // namespace

Status saveUser(QSqlDatabase &db, const WebUserRecord &user, const QDateTime &at)
{
    const qint64 now = at.toMSecsSinceEpoch();
    const qint64 created = user.created.isValid() ? user.created.toMSecsSinceEpoch() : now;
    return webAuthInTransaction(db, [&]() -> Status {
        // ON CONFLICT keeps the first created time: a replaced user is the same account.
        if (Status s =
                webAuthRun(db,
                           QStringLiteral("INSERT INTO web_user (name, role, password_hash, created_t, updated_t)"
                                          " VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET"
                                          " role = excluded.role, password_hash = excluded.password_hash,"
                                          " updated_t = excluded.updated_t"),
                           {user.name, user.role, user.passwordHash, created, now},
                           QStringLiteral("cannot save web user %1").arg(user.name));
            !s) {
            return s;
        }
        if (Status s = webAuthEndUserSessions(db, user.name, now); !s) {
            return s;
        }
        return webAuthLogChange(db, kWebUserChange, user.name, now);
    });
}

Result<bool> removeUser(QSqlDatabase &db, const QString &name, const QDateTime &at)
{
    const qint64 now = at.toMSecsSinceEpoch();
    return webAuthInTransaction(db, [&]() -> Result<bool> {
        QSqlQuery del(db);
        del.prepare(QStringLiteral("DELETE FROM web_user WHERE name = ?"));
        if (Status s = webAuthExec(del, {name}, QStringLiteral("cannot remove web user %1").arg(name)); !s) {
            return fail(s.error());
        }
        if (del.numRowsAffected() == 0) {
            return false;
        }
        if (Status s = webAuthEndUserSessions(db, name, now); !s) {
            return fail(s.error());
        }
        if (Status s = webAuthLogChange(db, kWebUserChange, name, now); !s) {
            return fail(s.error());
        }
        return true;
    });
}

Result<std::vector<WebUserRecord>> users(QSqlDatabase &db)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT name, role, password_hash, created_t FROM web_user ORDER BY name"));
    if (Status s = webAuthExec(query, {}, QStringLiteral("cannot read the web users")); !s) {
        return fail(s.error());
    }
    std::vector<WebUserRecord> out;
    while (query.next()) {
        out.push_back(webUserFromRow(query));
    }
    return out;
}

Result<bool> insertSession(QSqlDatabase &db, const WebSessionRecord &session, const QString &passwordHash)
{
    const qint64 created = session.created.toMSecsSinceEpoch();
    return webAuthInTransaction(db, [&]() -> Result<bool> {
        QSqlQuery insert(db);
        insert.prepare(QStringLiteral("INSERT INTO web_session (id_sha256, user_name, role, created_t, last_seen_t,"
                                      " expires_t) SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM web_user"
                                      " WHERE name = ? AND password_hash = ? AND role = ?)"));
        if (Status s = webAuthExec(insert,
                                   {session.idHash,
                                    session.user,
                                    session.role,
                                    created,
                                    session.lastSeen.toMSecsSinceEpoch(),
                                    session.expires.toMSecsSinceEpoch(),
                                    session.user,
                                    passwordHash,
                                    session.role},
                                   QStringLiteral("cannot record a session of %1").arg(session.user));
            !s) {
            return fail(s.error());
        }
        if (insert.numRowsAffected() == 0) {
            return false;
        }
        if (Status s = webAuthLogChange(db, kWebSessionChange, session.idHash, created); !s) {
            return fail(s.error());
        }
        return true;
    });
}

Status removeSession(QSqlDatabase &db, const QString &idHash, const QDateTime &at)
{
    return webAuthInTransaction(db, [&]() -> Status {
        if (Status s = webAuthRun(db,
                                  QStringLiteral("DELETE FROM web_session WHERE id_sha256 = ?"),
                                  {idHash},
                                  QStringLiteral("cannot end a session"));
            !s) {
            return s;
        }
        return webAuthLogChange(db, kWebSessionChange, idHash, at.toMSecsSinceEpoch());
    });
}

Status touchSessions(QSqlDatabase &db, const std::vector<WebSessionRecord> &sessions)
{
    if (sessions.empty()) {
        return {};
    }
    return webAuthInTransaction(db, [&]() -> Status {
        QSqlQuery update(db);
        update.prepare(QStringLiteral("UPDATE web_session SET last_seen_t = ?, expires_t = ? WHERE id_sha256 = ?"
                                      " AND last_seen_t < ?"));
        for (const WebSessionRecord &s : sessions) {
            const qint64 seen = s.lastSeen.toMSecsSinceEpoch();
            if (Status done = webAuthExec(update,
                                          {seen, s.expires.toMSecsSinceEpoch(), s.idHash, seen},
                                          QStringLiteral("cannot touch a session"));
                !done) {
                return done;
            }
        }
        return {};
    });
}

Result<std::optional<WebSessionRecord>> session(QSqlDatabase &db, const QString &idHash, const QDateTime &now)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT ") + kWebSessionColumns
                  + QStringLiteral(" WHERE id_sha256 = ? AND expires_t > ?"));
    if (Status s = webAuthExec(query, {idHash, now.toMSecsSinceEpoch()}, QStringLiteral("cannot read a session")); !s) {
        return fail(s.error());
    }
    if (!query.next()) {
        return std::optional<WebSessionRecord>();
    }
    return std::optional<WebSessionRecord>(webSessionFromRow(query));
}

Result<WebAuthChanges> changes(QSqlDatabase &db, qint64 cursor, const QDateTime &now)
{
    WebAuthChanges out;
    const qint64 nowMs = now.toMSecsSinceEpoch();
    if (cursor <= 0) {
        // The cursor first, then the rows: a change committed in between is read again next
        // time, which is harmless.
        QSqlQuery top(db);
        if (!top.exec(QStringLiteral("SELECT COALESCE(MAX(id), 0) FROM web_auth_change")) || !top.next()) {
            return fail(webAuthSqlError(QStringLiteral("cannot read the web changes"), top.lastError()));
        }
        // At least 1: 0 would ask for everything again next time.
        out.cursor = std::max<qint64>(1, top.value(0).toLongLong());
        out.full = true;
        auto all = users(db);
        if (!all) {
            return fail(all.error());
        }
        out.users = std::move(*all);
        QSqlQuery live(db);
        live.setForwardOnly(true);
        live.prepare(QStringLiteral("SELECT ") + kWebSessionColumns + QStringLiteral(" WHERE expires_t > ?"));
        if (Status s = webAuthExec(live, {nowMs}, QStringLiteral("cannot read the sessions")); !s) {
            return fail(s.error());
        }
        while (live.next()) {
            out.sessions.push_back(webSessionFromRow(live));
        }
        return out;
    }
    QSqlQuery feed(db);
    feed.setForwardOnly(true);
    feed.prepare(QStringLiteral("SELECT id, kind, name FROM web_auth_change WHERE id > ? ORDER BY id"));
    if (Status s = webAuthExec(feed, {cursor - kChangeOverlap}, QStringLiteral("cannot read the web changes")); !s) {
        return fail(s.error());
    }
    out.cursor = cursor;
    QStringList userNames;
    QStringList sessionHashes;
    while (feed.next()) {
        out.cursor = std::max(out.cursor, feed.value(0).toLongLong());
        QStringList &names = feed.value(1).toString() == kWebUserChange ? userNames : sessionHashes;
        if (const QString name = feed.value(2).toString(); !names.contains(name)) {
            names << name;
        }
    }
    QSqlQuery user(db);
    user.setForwardOnly(true);
    user.prepare(QStringLiteral("SELECT name, role, password_hash, created_t FROM web_user WHERE name = ?"));
    for (const QString &name : std::as_const(userNames)) {
        if (Status s = webAuthExec(user, {name}, QStringLiteral("cannot read web user %1").arg(name)); !s) {
            return fail(s.error());
        }
        if (user.next()) {
            out.users.push_back(webUserFromRow(user));
        } else {
            out.removedUsers << name;
        }
    }
    for (const QString &hash : std::as_const(sessionHashes)) {
        auto found = session(db, hash, now);
        if (!found) {
            return fail(found.error());
        }
        if (*found) {
            out.sessions.push_back(**found);
        } else {
            out.removedSessions << hash;
        }
    }
    return out;
}

Result<qint64> prune(QSqlDatabase &db, const QDateTime &now)
{
    const qint64 nowMs = now.toMSecsSinceEpoch();
    return webAuthInTransaction(db, [&]() -> Result<qint64> {
        qint64 rows = 0;
        for (const auto &[sql, bound] :
             {std::pair{QStringLiteral("DELETE FROM web_session WHERE expires_t <= ?"), nowMs},
              std::pair{QStringLiteral("DELETE FROM web_auth_change WHERE t < ?"), nowMs - kWebChangeRowsKeptMs}}) {
            QSqlQuery del(db);
            del.prepare(sql);
            if (Status s = webAuthExec(del, {bound}, QStringLiteral("cannot prune the web sessions")); !s) {
                return fail(s.error());
            }
            rows += std::max(0, del.numRowsAffected());
        }
        return rows;
    });
}

} // namespace strata::core::webauth
