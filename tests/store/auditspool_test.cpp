// Audit entries survive a history store outage: they wait in a spool file and reach the store
// when it answers again, in order and exactly once, also when the process ended between the
// store's commit and the spool's update.

#include "models/core/services/historyservice.h"
#include "models/core/store/auditspool.h"
#include "models/core/store/historystore.h"
#include "tests/store/journalentries.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"
#include "tests/support/qt/pgfixture.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QUrl>

#include <gtest/gtest.h>

#include <atomic>

using strata::testsupport::ScratchPostgresDatabase;
using strata::testsupport::succeeded;
using strata::testsupport::valueOf;
using namespace strata::core;

namespace {

const QDateTime kSpoolT0(QDate(2026, 11, 30), QTime(9, 0), Qt::UTC);

strata::testsupport::ManualClock &spoolTestClock()
{
    static strata::testsupport::ManualClock clock;
    return clock;
}

AuditEntry spoolEntryOf(int n, const QString &kind, const QString &outcome)
{
    AuditEntry e;
    e.time = kSpoolT0.addSecs(n);
    e.user = QStringLiteral("admin");
    e.actionId = QStringLiteral("spool-%1").arg(n);
    e.source = QStringLiteral("strata-server");
    e.kind = kind;
    e.target = QStringLiteral("target %1").arg(n);
    e.outcome = outcome;
    e.message = QStringLiteral("entry %1").arg(n);
    return e;
}

/// SQL on `url` over a short-lived connection; the error text, empty when it ran.
QString spoolSql(const QString &url, const QString &sql, QStringList *column = nullptr)
{
    static std::atomic<int> counter{0};
    const QString name = QStringLiteral("audit-spool-test-%1").arg(++counter);
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
        const QUrl u(url);
        db.setHostName(u.host());
        db.setPort(u.port());
        db.setUserName(u.userName());
        db.setPassword(u.password());
        db.setDatabaseName(u.path().mid(1));
        if (!db.open()) {
            error = db.lastError().text();
        } else if (QSqlQuery query(db); !query.exec(sql)) {
            error = query.lastError().text();
        } else {
            while (column && query.next()) {
                column->append(query.value(0).toString());
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return error;
}

bool waitForSpool(const HistoryService &history, int count, int ms = 30000)
{
    QDeadlineTimer deadline(ms);
    while (history.spooledAuditCount() != count && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    return history.spooledAuditCount() == count;
}

QStringList spoolActionIds(const std::vector<AuditEntry> &newestFirst)
{
    QStringList ids;
    for (auto it = newestFirst.crbegin(); it != newestFirst.crend(); ++it) {
        ids << it->actionId;
    }
    return ids;
}

} // namespace

// The store goes away under a running server (its connections end and new ones are refused),
// a login lockout, a refused source.add and a refused quota action are audited meanwhile, and
// the store comes back: every entry is in audit_log once, in order.
TEST(AuditSpool, EntriesOfAPostgresOutageReachTheStoreOnceInOrder)
{
    ScratchPostgresDatabase db;
    ASSERT_FALSE(db.url().isEmpty());
    const QString admin = strata::testsupport::postgresUrl();
    QTemporaryDir dir;
    const QString spoolPath = dir.filePath(QStringLiteral("audit.spool"));
    {
        HistoryService history(std::make_unique<SqlHistoryStore>(db.url(), spoolTestClock()));
        ASSERT_TRUE(history.openError().isEmpty()) << history.openError().toStdString();
        ASSERT_TRUE(succeeded(
            history.enableAuditSpool(spoolPath, AuditSpool::kDefaultMaxBytes, std::chrono::milliseconds(100))));
        EXPECT_TRUE(history.appendAudit(spoolEntryOf(1, QStringLiteral("source.add"), QStringLiteral("succeeded"))));
        history.flush();
        EXPECT_EQ(history.spooledAuditCount(), 0);

        ASSERT_EQ(spoolSql(admin, QStringLiteral("ALTER DATABASE %1 ALLOW_CONNECTIONS false").arg(db.name())),
                  QString());
        ASSERT_EQ(spoolSql(admin,
                           QStringLiteral("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '%1'")
                               .arg(db.name())),
                  QString());
        EXPECT_TRUE(history.appendAudit(spoolEntryOf(2, QStringLiteral("login.lockout"), QStringLiteral("refused"))));
        EXPECT_TRUE(history.appendAudit(spoolEntryOf(3, QStringLiteral("source.add"), QStringLiteral("refused"))));
        EXPECT_TRUE(history.appendAudit(spoolEntryOf(4, QStringLiteral("project.quota"), QStringLiteral("failed"))));
        history.flush();
        EXPECT_EQ(history.spooledAuditCount(), 3) << "the store is down: the entries wait";
        EXPECT_TRUE(QFile::exists(spoolPath));

        ASSERT_EQ(spoolSql(admin, QStringLiteral("ALTER DATABASE %1 ALLOW_CONNECTIONS true").arg(db.name())),
                  QString());
        EXPECT_TRUE(history.appendAudit(spoolEntryOf(5, QStringLiteral("login.lockout"), QStringLiteral("refused"))));
        EXPECT_TRUE(waitForSpool(history, 0)) << history.spooledAuditCount() << " entries still waiting";
        EXPECT_FALSE(QFile::exists(spoolPath)) << "an empty spool leaves no file";
    }
    QStringList ids;
    ASSERT_EQ(spoolSql(db.url(), QStringLiteral("SELECT action_id FROM audit_log ORDER BY id"), &ids), QString());
    EXPECT_EQ(ids,
              (QStringList{QStringLiteral("spool-1"),
                           QStringLiteral("spool-2"),
                           QStringLiteral("spool-3"),
                           QStringLiteral("spool-4"),
                           QStringLiteral("spool-5")}));
}

// The process ended after the store committed some spooled entries and before the spool
// forgot them: the next process writes only the missing ones.
TEST(AuditSpool, ReplayAfterARestartWritesEachEntryOnce)
{
    QTemporaryDir dir;
    const QString storePath = dir.filePath(QStringLiteral("history.sqlite"));
    const QString spoolPath = auditSpoolPathFor(storePath);
    EXPECT_EQ(spoolPath, storePath + QStringLiteral(".audit-spool"));
    {
        SqlHistoryStore store(storePath, spoolTestClock());
        ASSERT_TRUE(succeeded(store.open()));
        ASSERT_GT(
            valueOf(store.appendAudit(spoolEntryOf(1, QStringLiteral("login.lockout"), QStringLiteral("refused")))), 0);
        ASSERT_GT(valueOf(store.appendAudit(spoolEntryOf(2, QStringLiteral("source.add"), QStringLiteral("refused")))),
                  0);
    }
    {
        AuditSpool spool(spoolPath);
        ASSERT_TRUE(spool.tryLock());
        ASSERT_TRUE(
            succeeded(spool.append(spoolEntryOf(1, QStringLiteral("login.lockout"), QStringLiteral("refused")))));
        ASSERT_TRUE(succeeded(spool.append(spoolEntryOf(2, QStringLiteral("source.add"), QStringLiteral("refused")))));
        ASSERT_TRUE(
            succeeded(spool.append(spoolEntryOf(3, QStringLiteral("project.quota"), QStringLiteral("failed")))));
        ASSERT_TRUE(
            succeeded(spool.append(spoolEntryOf(4, QStringLiteral("login.lockout"), QStringLiteral("refused")))));
        // A line cut short by a crash while appending.
        QFile file(spoolPath);
        ASSERT_TRUE(file.open(QIODevice::Append));
        file.write("{\"user\":\"adm");
    }
    {
        HistoryService history(std::make_unique<SqlHistoryStore>(storePath, spoolTestClock()));
        ASSERT_TRUE(history.openError().isEmpty());
        ASSERT_TRUE(succeeded(history.enableAuditSpool(spoolPath)));
        history.flush();
        EXPECT_EQ(history.spooledAuditCount(), 0);
        EXPECT_TRUE(history.appendAudit(spoolEntryOf(5, QStringLiteral("source.add"), QStringLiteral("refused"))));
        history.flush();
    }
    EXPECT_FALSE(QFile::exists(spoolPath));
    SqlHistoryStore store(storePath, spoolTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    EXPECT_EQ(spoolActionIds(valueOf(store.auditLog())),
              (QStringList{QStringLiteral("spool-1"),
                           QStringLiteral("spool-2"),
                           QStringLiteral("spool-3"),
                           QStringLiteral("spool-4"),
                           QStringLiteral("spool-5")}));
}

// An action's outcome closes its journal row and is audited in one transaction. While the store
// is down it waits in the spool with the other entries; once the store answers the journal is
// closed and the outcome is in the log once, also when a restarted process replays the line.
TEST(AuditSpool, AnActionOutcomeDuringAnOutageClosesItsJournalOnce)
{
    QTemporaryDir dir;
    const QString storePath = dir.filePath(QStringLiteral("history.sqlite"));
    const QString spoolPath = auditSpoolPathFor(storePath);
    const JournalEntry intent = strata::testsupport::journalIntentEntry(QStringLiteral("spool-2"));
    {
        SqlHistoryStore store(storePath, spoolTestClock());
        ASSERT_TRUE(succeeded(store.open()));
        ASSERT_TRUE(store.journalIntent(intent));
    }
    const AuditEntry outcome = spoolEntryOf(2, QStringLiteral("project.quota"), QStringLiteral("succeeded"));
    {
        // The process that ran the action ends before the store took its spool.
        AuditSpool spool(spoolPath);
        ASSERT_TRUE(spool.tryLock());
        ASSERT_TRUE(
            succeeded(spool.append(spoolEntryOf(1, QStringLiteral("login.lockout"), QStringLiteral("refused")))));
        ASSERT_TRUE(succeeded(spool.append(outcome, true)));
    }
    {
        HistoryService history(std::make_unique<SqlHistoryStore>(storePath, spoolTestClock()));
        ASSERT_TRUE(history.openError().isEmpty());
        ASSERT_TRUE(succeeded(history.enableAuditSpool(spoolPath)));
        history.flush();
        EXPECT_EQ(history.spooledAuditCount(), 0);
        // The same outcome finished again (a second recovery): the journal says it is done.
        bool kept = false;
        QObject context;
        history.journalFinish(outcome, &context, [&kept](bool written) {
            kept = written;
        });
        history.flush();
        QCoreApplication::processEvents();
        EXPECT_TRUE(kept) << "the spool took the entry";
        EXPECT_TRUE(waitForSpool(history, 0));
    }
    SqlHistoryStore store(storePath, spoolTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    EXPECT_EQ(spoolActionIds(valueOf(store.auditLog())),
              (QStringList{QStringLiteral("spool-1"), QStringLiteral("spool-2")}));
    const std::optional<JournalEntry> closed = valueOf(store.journalEntry(QStringLiteral("spool-2")));
    ASSERT_TRUE(closed);
    EXPECT_EQ(closed->phase, QStringLiteral("finished"));
    EXPECT_EQ(closed->outcome, QStringLiteral("succeeded"));
    EXPECT_TRUE(valueOf(store.openJournal()).empty());
}

// A spool that cannot keep an entry says so, and a second process on the same host gets a spool
// of its own instead of sharing the file.
TEST(AuditSpool, AFullSpoolRefusesAndEachProcessHasItsOwnFile)
{
    QTemporaryDir dir;
    const QString storePath = dir.filePath(QStringLiteral("history.sqlite"));
    const QString spoolPath = dir.filePath(QStringLiteral("spool"));
    AuditSpool small(spoolPath, 300);
    ASSERT_TRUE(small.tryLock());
    ASSERT_TRUE(succeeded(small.load()));
    EXPECT_TRUE(succeeded(small.append(spoolEntryOf(1, QStringLiteral("login.lockout"), QStringLiteral("refused")))));
    const Status full = small.append(spoolEntryOf(2, QStringLiteral("login.lockout"), QStringLiteral("refused")));
    ASSERT_FALSE(full);
    EXPECT_TRUE(full.error().message.contains(QStringLiteral("is full"))) << full.error().message.toStdString();
    EXPECT_EQ(small.size(), 1);

    HistoryService history(std::make_unique<SqlHistoryStore>(storePath, spoolTestClock()));
    ASSERT_TRUE(succeeded(history.enableAuditSpool(spoolPath, 300)));
    EXPECT_TRUE(history.appendAudit(spoolEntryOf(3, QStringLiteral("source.add"), QStringLiteral("refused"))));
    history.flush();
    AuditEntry huge = spoolEntryOf(4, QStringLiteral("source.add"), QStringLiteral("refused"));
    huge.message = QString(400, QLatin1Char('x'));
    EXPECT_FALSE(history.appendAudit(huge)) << "an entry the spool cannot keep is reported lost";
    EXPECT_EQ(small.size(), 1) << "the other process's spool is left alone";
    EXPECT_TRUE(QFile::exists(spoolPath));
}
