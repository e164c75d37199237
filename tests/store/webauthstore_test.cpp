// Web console users and sessions in the history store (SQLite and PostgreSQL), as strata-server
// replicas share them: a replaced or removed user takes its sessions with it, a login checked
// against an outdated copy of a user is refused, the change feed hands a second reader exactly
// what changed, sessions keep only the hash of their id, and expired rows are pruned.

#include "models/core/store/historystore.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"
#include "tests/support/qt/pgfixture.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using strata::testsupport::succeeded;
using namespace strata::core;

namespace {

strata::testsupport::ManualClock &webAuthTestClock()
{
    static strata::testsupport::ManualClock clock;
    return clock;
}

const QDateTime kWebT0(QDate(2026, 4, 1), QTime(8, 0), Qt::UTC);

WebUserRecord webUser(const QString &name, const QString &role = QStringLiteral("viewer"), const QString &hash = {})
{
    return WebUserRecord{name, role, hash.isEmpty() ? QStringLiteral("hash-of-") + name : hash, kWebT0};
}

WebSessionRecord webSessionOf(const QString &hash, const QString &user, const QString &role = QStringLiteral("viewer"))
{
    return WebSessionRecord{hash, user, role, kWebT0, kWebT0, kWebT0.addSecs(8 * 3600)};
}

class WebAuthStoreDialects : public ::testing::TestWithParam<strata::testsupport::StoreBackend>
{
protected:
    void SetUp() override
    {
        ASSERT_FALSE(m_scratch.location().isEmpty());
        store = std::make_unique<SqlHistoryStore>(m_scratch.location(), webAuthTestClock());
        ASSERT_TRUE(succeeded(store->open()));
    }

    /// A second connection to the same database, as another replica has (PostgreSQL only).
    std::unique_ptr<SqlHistoryStore> replica()
    {
        auto other = std::make_unique<SqlHistoryStore>(m_scratch.location(), webAuthTestClock());
        EXPECT_TRUE(succeeded(other->open()));
        return other;
    }

    std::unique_ptr<SqlHistoryStore> store;

private:
    strata::testsupport::ScratchStore m_scratch{GetParam()};
};

INSTANTIATE_TEST_SUITE_P(Dialects,
                         WebAuthStoreDialects,
                         ::testing::Values(strata::testsupport::StoreBackend::Sqlite,
                                           strata::testsupport::StoreBackend::Postgres),
                         strata::testsupport::storeBackendName);

TEST_P(WebAuthStoreDialects, UsersAreSavedReplacedAndRemovedWithTheirSessions)
{
    ASSERT_TRUE(succeeded(store->saveWebUser(webUser(QStringLiteral("bob"), QStringLiteral("operator")), kWebT0)));
    ASSERT_TRUE(succeeded(store->saveWebUser(webUser(QStringLiteral("alice"), QStringLiteral("admin")), kWebT0)));
    auto users = store->webUsers();
    ASSERT_TRUE(users);
    ASSERT_EQ(users->size(), 2U);
    EXPECT_EQ((*users)[0], webUser(QStringLiteral("alice"), QStringLiteral("admin")));
    EXPECT_EQ((*users)[1].name, QStringLiteral("bob"));

    const QString h1 = QString(64, u'a');
    const QString h2 = QString(64, u'b');
    auto inserted = store->insertWebSession(webSessionOf(h1, QStringLiteral("bob"), QStringLiteral("operator")),
                                            QStringLiteral("hash-of-bob"));
    ASSERT_TRUE(inserted);
    EXPECT_TRUE(*inserted);
    ASSERT_TRUE(*store->insertWebSession(webSessionOf(h2, QStringLiteral("alice"), QStringLiteral("admin")),
                                         QStringLiteral("hash-of-alice")));
    auto found = store->webSession(h1, kWebT0.addSecs(60));
    ASSERT_TRUE(found);
    ASSERT_TRUE(found->has_value());
    EXPECT_EQ(**found, webSessionOf(h1, QStringLiteral("bob"), QStringLiteral("operator")));

    // A new password (or role) ends bob's sessions, and keeps the account's creation time.
    WebUserRecord changed = webUser(QStringLiteral("bob"), QStringLiteral("viewer"), QStringLiteral("new-hash"));
    changed.created = kWebT0.addDays(3);
    ASSERT_TRUE(succeeded(store->saveWebUser(changed, kWebT0.addSecs(120))));
    EXPECT_FALSE(store->webSession(h1, kWebT0.addSecs(121))->has_value());
    EXPECT_TRUE(store->webSession(h2, kWebT0.addSecs(121))->has_value());
    users = store->webUsers();
    EXPECT_EQ((*users)[1].role, QStringLiteral("viewer"));
    EXPECT_EQ((*users)[1].created, kWebT0);

    // Removing alice removes her session; removing her again says there was none.
    auto removed = store->removeWebUser(QStringLiteral("alice"), kWebT0.addSecs(180));
    ASSERT_TRUE(removed);
    EXPECT_TRUE(*removed);
    EXPECT_FALSE(store->webSession(h2, kWebT0.addSecs(181))->has_value());
    EXPECT_FALSE(*store->removeWebUser(QStringLiteral("alice"), kWebT0.addSecs(200)));
    EXPECT_EQ(store->webUsers()->size(), 1U);
}

TEST_P(WebAuthStoreDialects, ALoginCheckedAgainstAnOutdatedUserIsNotRecorded)
{
    ASSERT_TRUE(succeeded(store->saveWebUser(webUser(QStringLiteral("bob"), QStringLiteral("operator")), kWebT0)));
    const QString hash = QString(64, u'c');
    // The replica checked the old password, or the old role, or a user removed meanwhile.
    EXPECT_FALSE(*store->insertWebSession(webSessionOf(hash, QStringLiteral("bob"), QStringLiteral("operator")),
                                          QStringLiteral("old-hash")));
    EXPECT_FALSE(*store->insertWebSession(webSessionOf(hash, QStringLiteral("bob"), QStringLiteral("admin")),
                                          QStringLiteral("hash-of-bob")));
    EXPECT_FALSE(
        *store->insertWebSession(webSessionOf(hash, QStringLiteral("carol")), QStringLiteral("hash-of-carol")));
    EXPECT_FALSE(store->webSession(hash, kWebT0)->has_value());
}

TEST_P(WebAuthStoreDialects, TheChangeFeedGivesAnotherReaderWhatChangedOnly)
{
    ASSERT_TRUE(succeeded(store->saveWebUser(webUser(QStringLiteral("bob")), kWebT0)));
    const QString h1 = QString(64, u'1');
    ASSERT_TRUE(*store->insertWebSession(webSessionOf(h1, QStringLiteral("bob")), QStringLiteral("hash-of-bob")));

    const bool postgres = GetParam() == strata::testsupport::StoreBackend::Postgres;
    std::unique_ptr<SqlHistoryStore> other = postgres ? replica() : nullptr;
    SqlHistoryStore &reader = other ? *other : *store;

    auto all = reader.webAuthChanges(0, kWebT0.addSecs(1));
    ASSERT_TRUE(all);
    EXPECT_TRUE(all->full);
    ASSERT_EQ(all->users.size(), 1U);
    ASSERT_EQ(all->sessions.size(), 1U);
    EXPECT_EQ(all->sessions[0].idHash, h1);
    const qint64 cursor = all->cursor;
    EXPECT_GT(cursor, 0);

    // Many users that did not change are not read again.
    for (int i = 0; i < 50; ++i) {
        ASSERT_TRUE(succeeded(store->saveWebUser(webUser(QStringLiteral("quiet%1").arg(i)), kWebT0)));
    }
    auto quiet = reader.webAuthChanges(0, kWebT0.addSecs(2));
    const qint64 afterQuiet = quiet->cursor;

    const QString h2 = QString(64, u'2');
    ASSERT_TRUE(*store->insertWebSession(webSessionOf(h2, QStringLiteral("bob")), QStringLiteral("hash-of-bob")));
    ASSERT_TRUE(succeeded(store->removeWebSession(h1, kWebT0.addSecs(3))));
    ASSERT_TRUE(*store->removeWebUser(QStringLiteral("quiet7"), kWebT0.addSecs(3)));

    auto changes = reader.webAuthChanges(afterQuiet, kWebT0.addSecs(4));
    ASSERT_TRUE(changes);
    EXPECT_FALSE(changes->full);
    EXPECT_GT(changes->cursor, afterQuiet);
    ASSERT_EQ(changes->sessions.size(), 1U);
    EXPECT_EQ(changes->sessions[0].idHash, h2);
    EXPECT_EQ(changes->removedSessions, QStringList{h1});
    EXPECT_EQ(changes->removedUsers, QStringList{QStringLiteral("quiet7")});
    // The overlap re-reads at most kChangeOverlap earlier changes, never the whole table.
    EXPECT_LE(qint64(changes->users.size()), webauth::kChangeOverlap);

    // Nothing new: nothing beyond the overlap, and the cursor stays.
    auto none = reader.webAuthChanges(changes->cursor, kWebT0.addSecs(5));
    ASSERT_TRUE(none);
    EXPECT_EQ(none->cursor, changes->cursor);
    EXPECT_TRUE(none->removedUsers.isEmpty() || none->removedUsers == QStringList{QStringLiteral("quiet7")});
}

TEST_P(WebAuthStoreDialects, LastSeenMovesForwardAndExpiredSessionsArePruned)
{
    ASSERT_TRUE(succeeded(store->saveWebUser(webUser(QStringLiteral("bob")), kWebT0)));
    const QString hash = QString(64, u'd');
    ASSERT_TRUE(*store->insertWebSession(webSessionOf(hash, QStringLiteral("bob")), QStringLiteral("hash-of-bob")));
    WebSessionRecord touched = webSessionOf(hash, QStringLiteral("bob"));
    touched.lastSeen = kWebT0.addSecs(3600);
    touched.expires = kWebT0.addSecs(9 * 3600);
    ASSERT_TRUE(succeeded(store->touchWebSessions({touched})));
    // An older lastSeen (a slower replica) does not move it back.
    WebSessionRecord older = touched;
    older.lastSeen = kWebT0.addSecs(60);
    older.expires = kWebT0.addSecs(8 * 3600 + 60);
    ASSERT_TRUE(succeeded(store->touchWebSessions({older})));
    EXPECT_EQ((*store->webSession(hash, kWebT0.addSecs(8 * 3600 + 30)))->lastSeen, touched.lastSeen);

    // Past its expiry it is not found, and pruning deletes it.
    EXPECT_FALSE(store->webSession(hash, kWebT0.addSecs(9 * 3600))->has_value());
    auto pruned = store->pruneWebAuth(kWebT0.addSecs(9 * 3600));
    ASSERT_TRUE(pruned);
    EXPECT_GE(*pruned, 1);
    EXPECT_FALSE(store->webSession(hash, kWebT0)->has_value());
}

TEST(WebAuthStore, TheSessionIdIsNeverStoredOnlyItsHash)
{
    // The table's columns are the contract: no column can hold the cookie's value.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.sqlite"));
    {
        SqlHistoryStore store(path, webAuthTestClock());
        ASSERT_TRUE(succeeded(store.open()));
    }
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("webauth-columns"));
        db.setDatabaseName(path);
        ASSERT_TRUE(db.open());
        QSqlQuery q(db);
        ASSERT_TRUE(q.exec(QStringLiteral("SELECT name FROM pragma_table_info('web_session') ORDER BY cid")));
        QStringList columns;
        while (q.next()) {
            columns << q.value(0).toString();
        }
        EXPECT_EQ(columns,
                  (QStringList{QStringLiteral("id_sha256"),
                               QStringLiteral("user_name"),
                               QStringLiteral("role"),
                               QStringLiteral("created_t"),
                               QStringLiteral("last_seen_t"),
                               QStringLiteral("expires_t")}));
    }
    QSqlDatabase::removeDatabase(QStringLiteral("webauth-columns"));
}

TEST(WebAuthStore, MigrateCopiesTheWebTablesToo)
{
    SqlHistoryStore source(QStringLiteral(":memory:"), webAuthTestClock());
    SqlHistoryStore target(QStringLiteral(":memory:"), webAuthTestClock());
    ASSERT_TRUE(succeeded(source.open()));
    ASSERT_TRUE(succeeded(target.open()));
    ASSERT_TRUE(succeeded(source.saveWebUser(webUser(QStringLiteral("bob")), kWebT0)));
    ASSERT_TRUE(*source.insertWebSession(webSessionOf(QString(64, u'e'), QStringLiteral("bob")),
                                         QStringLiteral("hash-of-bob")));
    auto copied = target.copyFrom(source);
    ASSERT_TRUE(copied) << copied.error().message.toStdString();
    QStringList tables;
    for (const auto &t : *copied) {
        if (t.table.startsWith(QLatin1String("web_"))) {
            tables << QStringLiteral("%1=%2").arg(t.table).arg(t.rows);
        }
    }
    EXPECT_EQ(tables,
              (QStringList{
                  QStringLiteral("web_user=1"), QStringLiteral("web_session=1"), QStringLiteral("web_auth_change=2")}));
    EXPECT_EQ(target.webUsers()->size(), 1U);
    EXPECT_TRUE(target.webSession(QString(64, u'e'), kWebT0)->has_value());
}

} // namespace
