// What only the PostgreSQL dialect of the history store has to show: several processes (here
// several connections on threads) sharing one database, its own audit trigger, and a password
// that never reaches a message. The behaviour both dialects share runs in the *Dialects suites.

#include "models/core/store/historystore.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"
#include "tests/support/qt/pgfixture.h"

#include <QElapsedTimer>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QUrl>

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

using strata::testsupport::ScratchPostgresDatabase;
using strata::testsupport::succeeded;
using strata::testsupport::valueOf;
using namespace strata::core;

namespace {

strata::testsupport::ManualClock &pgTestClock()
{
    static strata::testsupport::ManualClock clock;
    return clock;
}

const QDateTime kPgT0(QDate(2026, 5, 4), QTime(8, 0), Qt::UTC);

AuditEntry pgOutcome(const QString &actionId, const QString &outcome)
{
    AuditEntry a;
    a.time = kPgT0;
    a.user = QStringLiteral("alice");
    a.actionId = actionId;
    a.source = QStringLiteral("anf-west");
    a.kind = QStringLiteral("volume.service_level");
    a.target = QStringLiteral("acct/pool/criteo-data");
    a.outcome = outcome;
    return a;
}

/// A plain QPSQL connection to `url` for looking at the database the way psql would.
class PgInspector
{
public:
    explicit PgInspector(const QString &url)
        : m_name(QStringLiteral("pg-inspector-%1").arg(++s_counter))
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), m_name);
        const QUrl u(url);
        db.setHostName(u.host());
        db.setPort(u.port());
        db.setUserName(u.userName());
        db.setPassword(u.password());
        db.setDatabaseName(u.path().mid(1));
        m_open = db.open();
    }
    ~PgInspector()
    {
        QSqlDatabase::database(m_name, false).close();
        QSqlDatabase::removeDatabase(m_name);
    }
    PgInspector(const PgInspector &) = delete;
    PgInspector &operator=(const PgInspector &) = delete;

    [[nodiscard]] bool isOpen() const { return m_open; }

    bool exec(const QString &sql, QString *error = nullptr)
    {
        QSqlQuery query(QSqlDatabase::database(m_name, false));
        const bool ok = query.exec(sql);
        if (error) {
            *error = query.lastError().text();
        }
        return ok;
    }

    QVariant scalar(const QString &sql)
    {
        QSqlQuery query(QSqlDatabase::database(m_name, false));
        if (!query.exec(sql) || !query.next()) {
            return {};
        }
        return query.value(0);
    }

private:
    static inline std::atomic<int> s_counter{0};
    QString m_name;
    bool m_open = false;
};

} // namespace

TEST(PostgresHistoryStore, RecognisesItsUrlsAndNeverShowsThePassword)
{
    EXPECT_TRUE(SqlHistoryStore::isPostgresLocation(QStringLiteral("postgresql://u@db/strata")));
    EXPECT_TRUE(SqlHistoryStore::isPostgresLocation(QStringLiteral("postgres://u@db/strata")));
    EXPECT_FALSE(SqlHistoryStore::isPostgresLocation(QStringLiteral("/var/lib/strata/history.sqlite")));
    EXPECT_FALSE(SqlHistoryStore::isPostgresLocation(QStringLiteral(":memory:")));
    const QString shown = SqlHistoryStore::displayLocation(
        QStringLiteral("postgresql://strata:s3cr%2Ft@db.example.com:5433/strata?sslmode=require&password=other"));
    EXPECT_EQ(shown, QStringLiteral("postgresql://strata@db.example.com:5433/strata"));
    EXPECT_EQ(SqlHistoryStore::displayLocation(QStringLiteral("/tmp/h.sqlite")), QStringLiteral("/tmp/h.sqlite"));
}

TEST(PostgresHistoryStore, AWrongPasswordIsAClearErrorWithoutThePassword)
{
    ScratchPostgresDatabase db;
    ASSERT_FALSE(db.url().isEmpty());
    QUrl url(db.url());
    url.setPassword(QStringLiteral("Wrong-Horse-Battery-7"));
    SqlHistoryStore store(url.toString(), pgTestClock());
    const Status opened = store.open();
    ASSERT_FALSE(opened);
    const QString message = opened.error().message;
    EXPECT_TRUE(message.contains(QStringLiteral("cannot open history database postgresql://strata@127.0.0.1")))
        << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("password authentication failed"))) << message.toStdString();
    EXPECT_FALSE(message.contains(QStringLiteral("Wrong-Horse"))) << message.toStdString();
    EXPECT_FALSE(store.lastError().contains(QStringLiteral("Wrong-Horse")));
}

TEST(PostgresHistoryStore, NothingListeningFailsWithinTheConnectTimeout)
{
    // A port nobody listens on: refused at once. A black-holed host would wait connect_timeout.
    SqlHistoryStore store(QStringLiteral("postgresql://strata@127.0.0.1:1/strata?connect_timeout=2"), pgTestClock());
    const Status opened = store.open();
    ASSERT_FALSE(opened);
    EXPECT_TRUE(opened.error().message.contains(QStringLiteral("127.0.0.1:1/strata")))
        << opened.error().message.toStdString();
}

TEST(PostgresHistoryStore, AServerThatAcceptsButNeverAnswersFailsWithinTheConnectTimeout)
{
    // A black hole after the TCP handshake (a hung server, a proxy without a backend): the
    // open must give up after connect_timeout, not wait for the OS's TCP timeout.
    QTcpServer silent;
    ASSERT_TRUE(silent.listen(QHostAddress::LocalHost, 0));
    const QString location =
        QStringLiteral("postgresql://strata@127.0.0.1:%1/strata?connect_timeout=2").arg(silent.serverPort());
    QElapsedTimer timer;
    timer.start();
    SqlHistoryStore store(location, pgTestClock());
    const Status opened = store.open();
    ASSERT_FALSE(opened);
    EXPECT_LT(timer.elapsed(), 15000) << "open waited " << timer.elapsed() << " ms";
    EXPECT_TRUE(opened.error().message.contains(QStringLiteral("cannot open history database postgresql://strata@")))
        << opened.error().message.toStdString();
}

TEST(PostgresHistoryStore, UsesIdentityKeysDoublePrecisionAndTheAuditTrigger)
{
    ScratchPostgresDatabase db;
    ASSERT_FALSE(db.url().isEmpty());
    SqlHistoryStore store(db.url(), pgTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    EXPECT_TRUE(store.isPostgres());
    ASSERT_GT(valueOf(store.appendAudit(pgOutcome(QStringLiteral("a1"), QStringLiteral("started")))), 0);

    PgInspector sql(db.url());
    ASSERT_TRUE(sql.isOpen());
    EXPECT_EQ(sql.scalar(QStringLiteral("SELECT version FROM schema_version")).toInt(),
              SqlHistoryStore::latestSchemaVersion());
    // REAL would be a 4-byte float in PostgreSQL and round a throughput of 1.5 GB/s.
    EXPECT_EQ(sql.scalar(QStringLiteral("SELECT data_type FROM information_schema.columns"
                                        " WHERE table_name = 'volume_perf_sample' AND column_name = 'throughput_bps'"))
                  .toString(),
              QStringLiteral("double precision"));
    EXPECT_EQ(sql.scalar(QStringLiteral("SELECT is_identity FROM information_schema.columns"
                                        " WHERE table_name = 'audit_log' AND column_name = 'id'"))
                  .toString(),
              QStringLiteral("YES"));
    QString error;
    EXPECT_FALSE(sql.exec(QStringLiteral("UPDATE audit_log SET outcome = 'succeeded'"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("append-only"))) << error.toStdString();
    EXPECT_FALSE(sql.exec(QStringLiteral("DELETE FROM audit_log"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("append-only"))) << error.toStdString();
    EXPECT_EQ(valueOf(store.auditLog(0)).size(), 1U);
}

TEST(PostgresHistoryStore, ReplicasOpeningOneDatabaseAtOnceMigrateItOnce)
{
    ScratchPostgresDatabase db;
    ASSERT_FALSE(db.url().isEmpty());
    constexpr int kReplicas = 4;
    std::atomic<int> opened{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < kReplicas; ++i) {
        threads.emplace_back([&] {
            SqlHistoryStore store(db.url(), pgTestClock());
            if (store.open()) {
                ++opened;
            }
        });
    }
    for (std::thread &t : threads) {
        t.join();
    }
    EXPECT_EQ(opened.load(), kReplicas) << "without the advisory lock, CREATE TABLE races fail";
    PgInspector sql(db.url());
    EXPECT_EQ(sql.scalar(QStringLiteral("SELECT count(*) FROM schema_version")).toInt(), 1);
}

TEST(PostgresHistoryStore, TwoReplicasFinishingOneActionWriteOneOutcome)
{
    ScratchPostgresDatabase db;
    ASSERT_FALSE(db.url().isEmpty());
    {
        SqlHistoryStore setup(db.url(), pgTestClock());
        ASSERT_TRUE(succeeded(setup.open()));
        for (int i = 0; i < 20; ++i) {
            JournalEntry e;
            e.actionId = QStringLiteral("act-%1").arg(i);
            e.idempotencyKey = QStringLiteral("key-%1").arg(i);
            e.source = QStringLiteral("anf-west");
            e.kind = QStringLiteral("volume.service_level");
            e.request = QStringLiteral("{}");
            e.submitted = kPgT0;
            e.heartbeat = kPgT0;
            e.owner = QStringLiteral("replica-dead/1");
            ASSERT_TRUE(setup.journalIntent(e));
        }
    }
    // Two replicas reconcile the same dead owner's actions at the same moment.
    std::atomic<int> written{0};
    std::vector<std::thread> replicas;
    for (int r = 0; r < 2; ++r) {
        replicas.emplace_back([&, r] {
            SqlHistoryStore store(db.url(), pgTestClock());
            if (!store.open()) {
                return;
            }
            for (int i = 0; i < 20; ++i) {
                AuditEntry outcome = pgOutcome(QStringLiteral("act-%1").arg(i), QStringLiteral("reconciled"));
                outcome.message = QStringLiteral("replica %1").arg(r);
                if (const Result<qint64> id = store.journalFinish(outcome); id && *id > 0) {
                    ++written;
                }
            }
        });
    }
    for (std::thread &t : replicas) {
        t.join();
    }
    EXPECT_EQ(written.load(), 20);
    SqlHistoryStore check(db.url(), pgTestClock());
    ASSERT_TRUE(succeeded(check.open()));
    EXPECT_EQ(valueOf(check.auditLog(0)).size(), 20U) << "one outcome per action, never two";
    EXPECT_TRUE(valueOf(check.openJournal()).empty());
}

// Replicas each apply retention on their own 24 h timer; one finding another at it skips.
TEST(PostgresHistoryStore, RetentionRunsInOneReplicaAtATime)
{
    strata::testsupport::ScratchPostgresDatabase database;
    ASSERT_FALSE(database.url().isEmpty());
    SqlHistoryStore store(database.url(), pgTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    ASSERT_TRUE(store.recordVolumeUsage(QStringLiteral("s"), {{QStringLiteral("v"), 1, 10}}, kPgT0));
    ASSERT_TRUE(store.recordVolumeUsage(QStringLiteral("s"), {{QStringLiteral("v"), 2, 10}}, kPgT0.addSecs(60)));
    PgInspector other(database.url());
    ASSERT_TRUE(other.isOpen());
    // Another replica's retention holds the turn (its transaction-scoped lock, taken here for the session).
    ASSERT_TRUE(other.exec(QStringLiteral("SELECT pg_advisory_lock(%1)").arg(0x5374726174610003LL)));
    EXPECT_EQ(valueOf(store.applyRetention(kPgT0.addSecs(30))), 0);
    EXPECT_TRUE(store.lastError().isEmpty()) << store.lastError().toStdString();
    EXPECT_EQ(other.scalar(QStringLiteral("SELECT count(*) FROM volume_usage_sample")).toInt(), 2);
    ASSERT_TRUE(other.exec(QStringLiteral("SELECT pg_advisory_unlock(%1)").arg(0x5374726174610003LL)));
    EXPECT_EQ(valueOf(store.applyRetention(kPgT0.addSecs(30))), 1);
    EXPECT_EQ(other.scalar(QStringLiteral("SELECT count(*) FROM volume_usage_sample")).toInt(), 1);
}

TEST(PostgresHistoryStore, ReopenKeepsDataAndChangeDetection)
{
    ScratchPostgresDatabase db;
    ASSERT_FALSE(db.url().isEmpty());
    const QString s = QStringLiteral("ontap-ai");
    {
        SqlHistoryStore store(db.url(), pgTestClock());
        ASSERT_TRUE(succeeded(store.open()));
        ASSERT_TRUE(store.recordVolumeUsage(s, {{QStringLiteral("v"), 100, 1000}}, kPgT0));
    }
    SqlHistoryStore store(db.url(), pgTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    // Unchanged within the heartbeat: the last sample is read back, nothing new is written.
    ASSERT_TRUE(store.recordVolumeUsage(s, {{QStringLiteral("v"), 100, 1000}}, kPgT0.addSecs(60)));
    ASSERT_TRUE(store.recordVolumeUsage(s, {{QStringLiteral("v"), 150, 1000}}, kPgT0.addSecs(120)));
    const auto samples = valueOf(store.volumeUsage(s, QStringLiteral("v"), {}, {}));
    ASSERT_EQ(samples.size(), 2U);
    EXPECT_EQ(samples[0].usedBytes, 100);
    EXPECT_EQ(samples[1].usedBytes, 150);
    EXPECT_EQ(samples[1].time, kPgT0.addSecs(120));
}

TEST(PostgresHistoryStore, MigrateFromSqliteMovesEveryKindOfRecordWithItsIds)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("history.sqlite"));
    SqlHistoryStore sqlite(path, pgTestClock());
    ASSERT_TRUE(succeeded(sqlite.open()));
    const QString s = QStringLiteral("ontap-ai");
    ASSERT_TRUE(sqlite.recordVolumeUsage(s, {{QStringLiteral("v1"), 10, 100}, {QStringLiteral("v2"), 5, 50}}, kPgT0));
    ASSERT_TRUE(sqlite.recordVolumeUsage(s, {{QStringLiteral("v1"), 20, 100}}, kPgT0.addSecs(600)));
    ASSERT_TRUE(sqlite.recordCapacity(s, ContainerKind::Aggregate, {{QStringLiteral("aggr1"), 7, 70}}, kPgT0));
    ProjectSample project;
    project.project = QStringLiteral("team-a");
    project.allocated = 4000;
    project.quota = 8000;
    project.utilization = 61.5;
    ProjectSample unknownUtil = project;
    unknownUtil.project = QStringLiteral("team-b");
    unknownUtil.utilization = -1;
    ASSERT_TRUE(sqlite.recordProjectSamples(QStringLiteral("dgx"), {project, unknownUtil}, kPgT0));
    VolumePerfSample perf;
    perf.volumeId = QStringLiteral("v1");
    perf.throughputBps = 1.25e9;
    perf.iops = 3000;
    perf.latencyUs = 412.5;
    ASSERT_TRUE(sqlite.recordVolumePerf(s, {perf}, kPgT0));
    ServiceLevelSchedule schedule;
    schedule.source = QStringLiteral("anf-west");
    schedule.volumeId = QStringLiteral("vol-uuid");
    schedule.volumeName = QStringLiteral("criteo-data");
    schedule.level = QStringLiteral("Premium");
    schedule.revertLevel = QStringLiteral("Standard");
    schedule.start = kPgT0;
    schedule.end = kPgT0.addSecs(12 * 3600);
    schedule.recurrence = Recurrence::Daily;
    schedule.createdBy = QStringLiteral("alice");
    schedule.created = kPgT0;
    const qint64 scheduleId = valueOf(sqlite.saveSchedule(schedule));
    ASSERT_GT(scheduleId, 0);
    schedule.id = scheduleId;
    JournalEntry open;
    open.actionId = QStringLiteral("act-open");
    open.idempotencyKey = QStringLiteral("key-open");
    open.source = QStringLiteral("anf-west");
    open.kind = QStringLiteral("volume.service_level");
    open.request = QStringLiteral("{\"level\":\"Premium\"}");
    open.submitted = kPgT0;
    open.heartbeat = kPgT0;
    open.phase = QStringLiteral("accepted");
    open.handle = QStringLiteral("https://management.azure.com/op/1");
    open.owner = QStringLiteral("host/1");
    ASSERT_TRUE(sqlite.journalIntent(open));
    ASSERT_GT(valueOf(sqlite.appendAudit(pgOutcome(QStringLiteral("a1"), QStringLiteral("started")))), 0);
    ASSERT_GT(valueOf(sqlite.appendAudit(pgOutcome(QStringLiteral("a1"), QStringLiteral("succeeded")))), 0);
    ASSERT_TRUE(sqlite.putSharedSetting(SharedSetting{QStringLiteral("rate_card"),
                                                      QByteArrayLiteral("{\"currency\":\"EUR\"}"),
                                                      0,
                                                      {},
                                                      QStringLiteral("alice on host/1"),
                                                      QStringLiteral("abc")},
                                        0,
                                        std::nullopt));

    ScratchPostgresDatabase db;
    ASSERT_FALSE(db.url().isEmpty());
    SqlHistoryStore pg(db.url(), pgTestClock());
    ASSERT_TRUE(succeeded(pg.open()));
    const auto copied = pg.copyFrom(sqlite);
    ASSERT_TRUE(copied) << copied.error().message.toStdString();
    qint64 total = 0;
    for (const auto &table : *copied) {
        total += table.rows;
        EXPECT_FALSE(table.what.isEmpty());
    }
    EXPECT_EQ(copied->size(), 13U) << "the web console's users, sessions and their changes too (empty here)";
    EXPECT_EQ(total, 2 + 3 + 1 + 1 + 2 + 1 + 1 + 1 + 2 + 1);
    const auto settings = pg.sharedSettings();
    ASSERT_TRUE(settings);
    EXPECT_EQ(*settings, *sqlite.sharedSettings()) << "the shared rate card, with its revision and config hash";

    // Read back through the store, field by field.
    EXPECT_EQ(valueOf(pg.volumeUsage(s, QStringLiteral("v1"), {}, {})),
              valueOf(sqlite.volumeUsage(s, QStringLiteral("v1"), {}, {})));
    EXPECT_EQ(valueOf(pg.volumeUsage(s, QStringLiteral("v2"), {}, {})).size(), 1U);
    const auto capacity = valueOf(pg.capacityHistory({}, {}));
    EXPECT_EQ(capacity.size(), 3U) << "two volumes and one aggregate";
    EXPECT_EQ(valueOf(pg.projectHistory(QStringLiteral("dgx"), {}, {}, {})),
              valueOf(sqlite.projectHistory(QStringLiteral("dgx"), {}, {}, {})));
    EXPECT_EQ(valueOf(pg.volumePerfHistory(s, QStringLiteral("v1"), {}, {})),
              valueOf(sqlite.volumePerfHistory(s, QStringLiteral("v1"), {}, {})));
    ASSERT_EQ(valueOf(pg.schedules()).size(), 1U);
    EXPECT_EQ(valueOf(pg.schedules())[0], schedule);
    EXPECT_EQ(valueOf(pg.openJournal()), valueOf(sqlite.openJournal()));
    EXPECT_EQ(valueOf(pg.auditLog(0)), valueOf(sqlite.auditLog(0))) << "ids included";
    // New rows continue after the copied ids; change detection knows the copied samples.
    const qint64 next = valueOf(pg.appendAudit(pgOutcome(QStringLiteral("a2"), QStringLiteral("started"))));
    EXPECT_EQ(next, valueOf(sqlite.auditLog(1))[0].id + 1);
    EXPECT_EQ(valueOf(pg.saveSchedule([&] {
                  ServiceLevelSchedule another = schedule;
                  another.id = 0;
                  return another;
              }())),
              scheduleId + 1);
    ASSERT_TRUE(pg.recordVolumeUsage(s, {{QStringLiteral("v1"), 20, 100}}, kPgT0.addSecs(1200)));
    EXPECT_EQ(valueOf(pg.volumeUsage(s, QStringLiteral("v1"), {}, {})).size(), 2U) << "unchanged: not written again";

    // A second migration into the same database is refused, naming what is there.
    const auto again = pg.copyFrom(sqlite);
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().kind, Error::Kind::Invalid);
    EXPECT_TRUE(again.error().message.contains(QStringLiteral("migrate into an empty database")))
        << again.error().message.toStdString();
}
