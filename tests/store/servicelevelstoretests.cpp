#include "models/core/store/historystore.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"
#include "tests/support/qt/pgfixture.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using strata::testsupport::succeeded;
using strata::testsupport::valueOf;
using namespace strata::core;

namespace {

/// Stamps what a test writes without a time; every writer here passes one.
strata::testsupport::ManualClock &serviceLevelTestClock()
{
    static strata::testsupport::ManualClock clock;
    return clock;
}

const QDateTime kLevelT0(QDate(2026, 3, 2), QTime(8, 0), Qt::UTC);

QDateTime minutesServicelevelstore(int m)
{
    return kLevelT0.addSecs(m * 60LL);
}

VolumePerfSample perf(const QString &volume, double mibps, double capMibps = -1)
{
    VolumePerfSample s;
    s.volumeId = volume;
    s.throughputBps = mibps * 1048576.0;
    s.iops = mibps * 10;
    s.latencyUs = 250;
    s.capBps = capMibps < 0 ? -1 : capMibps * 1048576.0;
    return s;
}

ServiceLevelSchedule window()
{
    ServiceLevelSchedule s;
    s.source = QStringLiteral("anf");
    s.volumeId = QStringLiteral("fs-criteo");
    s.volumeName = QStringLiteral("criteo-data");
    s.level = QStringLiteral("Premium");
    s.revertLevel = QStringLiteral("Standard");
    s.start = minutesServicelevelstore(60);
    s.end = minutesServicelevelstore(180);
    s.recurrence = Recurrence::Weekdays;
    s.createdBy = QStringLiteral("alice");
    s.created = kLevelT0;
    return s;
}

// Runs SQL on a file with a private connection, as an older Strata would have left it.
bool execAll(const QString &path, const QStringList &statements)
{
    const QString name = QStringLiteral("servicelevelstore-setup");
    bool ok = true;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        ok = db.open();
        for (const QString &sql : statements) {
            QSqlQuery q(db);
            ok = ok && q.exec(sql);
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}

} // namespace

/// Runs a test on both dialects of the store: SQLite in memory and a scratch PostgreSQL database.
class ServiceLevelStoreDialects : public ::testing::TestWithParam<strata::testsupport::StoreBackend>
{
protected:
    [[nodiscard]] QString location() const { return m_scratch.location(); }

private:
    strata::testsupport::ScratchStore m_scratch{GetParam()};
};

INSTANTIATE_TEST_SUITE_P(Dialects,
                         ServiceLevelStoreDialects,
                         ::testing::Values(strata::testsupport::StoreBackend::Sqlite,
                                           strata::testsupport::StoreBackend::Postgres),
                         strata::testsupport::storeBackendName);

TEST(ServiceLevelStore, MigratesAVersion2DatabaseKeepingItsData)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("v2.sqlite"));
    {
        SqlHistoryStore store(path, serviceLevelTestClock());
        ASSERT_TRUE(succeeded(store.open()));
        ASSERT_TRUE(store.recordVolumeUsage(QStringLiteral("ontap"), {{QStringLiteral("v1"), 10, 100}}, kLevelT0));
    }
    // Roll the file back to what schema version 2 had.
    ASSERT_TRUE(execAll(path,
                        {QStringLiteral("DROP TABLE volume_perf_sample"),
                         QStringLiteral("DROP TABLE level_schedule"),
                         QStringLiteral("DROP TABLE action_journal"),
                         QStringLiteral("DROP TABLE capacity_sample"),
                         QStringLiteral("DROP TABLE capacity_series"),
                         QStringLiteral("DROP TABLE source_lease"),
                         QStringLiteral("DROP TABLE replica"),
                         QStringLiteral("DROP TABLE source_state"),
                         QStringLiteral("DROP TABLE state_counter"),
                         QStringLiteral("DROP TABLE web_user"),
                         QStringLiteral("DROP TABLE web_session"),
                         QStringLiteral("DROP TABLE web_auth_change"),
                         QStringLiteral("DROP TABLE setting"),
                         QStringLiteral("ALTER TABLE audit_log DROP COLUMN replica"),
                         QStringLiteral("UPDATE schema_version SET version = 2")}));
    SqlHistoryStore store(path, serviceLevelTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    EXPECT_EQ(SqlHistoryStore::latestSchemaVersion(), 9);
    EXPECT_EQ(valueOf(store.volumeUsage(QStringLiteral("ontap"), QStringLiteral("v1"), {}, {})).size(), 1U);
    EXPECT_TRUE(store.recordVolumePerf(QStringLiteral("ontap"), {perf(QStringLiteral("v1"), 5)}, kLevelT0));
    EXPECT_EQ(valueOf(store.volumePerfHistory(QStringLiteral("ontap"), QStringLiteral("v1"), {}, {})).size(), 1U);
    EXPECT_GT(valueOf(store.saveSchedule(window())), 0);
    EXPECT_TRUE(
        store.recordCapacity(QStringLiteral("grid"), ContainerKind::Bucket, {{QStringLiteral("t/b"), 1, 0}}, kLevelT0));
    EXPECT_EQ(valueOf(store.capacityHistory({}, {})).size(), 2U) << "the volume's usage and the new bucket series";
}

TEST_P(ServiceLevelStoreDialects, PerfSamplesRecordChangesHeartbeatsAndReadBackInRange)
{
    SqlHistoryStore store(location(), serviceLevelTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    const QString src = QStringLiteral("anf");
    ASSERT_TRUE(store.recordVolumePerf(
        src, {perf(QStringLiteral("a"), 10, 15.625), perf(QStringLiteral("b"), 1)}, minutesServicelevelstore(0)));
    // Same values 5 minutes later: skipped; a change of one volume: only that one written.
    ASSERT_TRUE(store.recordVolumePerf(
        src, {perf(QStringLiteral("a"), 10, 15.625), perf(QStringLiteral("b"), 2)}, minutesServicelevelstore(5)));
    // After the heartbeat an unchanged volume is written again.
    ASSERT_TRUE(store.recordVolumePerf(src, {perf(QStringLiteral("a"), 10, 15.625)}, minutesServicelevelstore(65)));

    const auto a = valueOf(store.volumePerfHistory(src, QStringLiteral("a"), {}, {}));
    ASSERT_EQ(a.size(), 2U);
    EXPECT_EQ(a[0].time, minutesServicelevelstore(0));
    EXPECT_EQ(a[1].time, minutesServicelevelstore(65));
    EXPECT_DOUBLE_EQ(a[0].throughputBps, 10 * 1048576.0);
    EXPECT_DOUBLE_EQ(a[0].capBps, 15.625 * 1048576.0);
    EXPECT_DOUBLE_EQ(a[0].latencyUs, 250);
    EXPECT_EQ(a[0].volumeId, QStringLiteral("a"));

    const auto b = valueOf(
        store.volumePerfHistory(src, QStringLiteral("b"), minutesServicelevelstore(1), minutesServicelevelstore(10)));
    ASSERT_EQ(b.size(), 1U);
    EXPECT_EQ(b[0].time, minutesServicelevelstore(5));
    EXPECT_DOUBLE_EQ(b[0].capBps, -1) << "an unknown cap reads back as -1";
    EXPECT_TRUE(valueOf(store.volumePerfHistory(QStringLiteral("other"), QStringLiteral("a"), {}, {})).empty());
}

TEST_P(ServiceLevelStoreDialects, AVolumeListedTwiceInOnePollKeepsItsLastSample)
{
    SqlHistoryStore store(location(), serviceLevelTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    VolumePerfSample first;
    first.volumeId = QStringLiteral("v1");
    first.throughputBps = 1e6;
    first.iops = 10;
    VolumePerfSample second = first;
    second.throughputBps = 2e6;
    // PostgreSQL refuses one statement that updates a row twice; SQLite lets the last win.
    ASSERT_TRUE(store.recordVolumePerf(QStringLiteral("s"), {first, second}, kLevelT0))
        << store.lastError().toStdString();
    const auto history = valueOf(store.volumePerfHistory(QStringLiteral("s"), QStringLiteral("v1"), {}, {}));
    ASSERT_EQ(history.size(), 1U);
    EXPECT_EQ(history[0].throughputBps, 2e6);
}

TEST_P(ServiceLevelStoreDialects, StatsGiveTheNearestRankP95PerVolume)
{
    SqlHistoryStore store(location(), serviceLevelTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    // 1..20 MiB/s: the 95th percentile by nearest rank is the 19th value.
    for (int i = 1; i <= 20; ++i) {
        ASSERT_TRUE(store.recordVolumePerf(
            QStringLiteral("anf"), {perf(QStringLiteral("a"), 21 - i)}, minutesServicelevelstore(5 * i)));
    }
    ASSERT_TRUE(
        store.recordVolumePerf(QStringLiteral("ontap"), {perf(QStringLiteral("a"), 3)}, minutesServicelevelstore(7)));
    const auto stats = valueOf(store.volumePerfStats(minutesServicelevelstore(0), minutesServicelevelstore(1000)));
    ASSERT_EQ(stats.size(), 2U);
    EXPECT_EQ(stats[0].source, QStringLiteral("anf"));
    EXPECT_EQ(stats[0].samples, 20);
    EXPECT_DOUBLE_EQ(stats[0].p95ThroughputBps, 19 * 1048576.0);
    EXPECT_DOUBLE_EQ(stats[0].p95Iops, 190);
    EXPECT_EQ(stats[0].first, minutesServicelevelstore(5));
    EXPECT_EQ(stats[0].last, minutesServicelevelstore(100));
    EXPECT_EQ(stats[1].source, QStringLiteral("ontap"));
    EXPECT_DOUBLE_EQ(stats[1].p95ThroughputBps, 3 * 1048576.0);

    const auto window = valueOf(store.volumePerfStats(minutesServicelevelstore(90), minutesServicelevelstore(100)));
    ASSERT_EQ(window.size(), 1U);
    EXPECT_EQ(window[0].samples, 3);
}

TEST_P(ServiceLevelStoreDialects, RetentionAppliesToPerfSamples)
{
    SqlHistoryStore store(location(), serviceLevelTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    ASSERT_TRUE(
        store.recordVolumePerf(QStringLiteral("anf"), {perf(QStringLiteral("a"), 1)}, minutesServicelevelstore(0)));
    ASSERT_TRUE(
        store.recordVolumePerf(QStringLiteral("anf"), {perf(QStringLiteral("a"), 2)}, minutesServicelevelstore(100)));
    valueOf(store.applyRetention(minutesServicelevelstore(50)));
    const auto left = valueOf(store.volumePerfHistory(QStringLiteral("anf"), QStringLiteral("a"), {}, {}));
    ASSERT_EQ(left.size(), 1U);
    EXPECT_EQ(left[0].time, minutesServicelevelstore(100));
    // Recording continues, and an unchanged value after retention is written again.
    ASSERT_TRUE(
        store.recordVolumePerf(QStringLiteral("anf"), {perf(QStringLiteral("a"), 2)}, minutesServicelevelstore(105)));
    EXPECT_EQ(valueOf(store.volumePerfHistory(QStringLiteral("anf"), QStringLiteral("a"), {}, {})).size(), 2U);
}

TEST(ServiceLevelStore, SchedulesPersistUpdateFireAndRemoveAcrossReopen)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.sqlite"));
    qint64 id = 0;
    ServiceLevelSchedule at = window();
    at.end = {};
    at.revertLevel.clear();
    at.recurrence = Recurrence::Once;
    at.level = QStringLiteral("Ultra");
    qint64 atId = 0;
    {
        SqlHistoryStore store(path, serviceLevelTestClock());
        ASSERT_TRUE(succeeded(store.open()));
        id = valueOf(store.saveSchedule(window()));
        atId = valueOf(store.saveSchedule(at));
        ASSERT_GT(id, 0);
        ASSERT_GT(atId, id);
        ServiceLevelSchedule changed = window();
        changed.id = id;
        changed.enabled = false;
        changed.level = QStringLiteral("Ultra");
        EXPECT_EQ(valueOf(store.saveSchedule(changed)), id);
        EXPECT_TRUE(store.markScheduleFired(id, minutesServicelevelstore(60), QStringLiteral("submitted")));
        const Status missing = store.markScheduleFired(9999, minutesServicelevelstore(60), QStringLiteral("submitted"));
        ASSERT_FALSE(missing);
        EXPECT_EQ(missing.error().kind, Error::Kind::NotFound);
        ServiceLevelSchedule unknown = window();
        unknown.id = 9999;
        const Result<qint64> gone = store.saveSchedule(unknown);
        ASSERT_FALSE(gone);
        EXPECT_EQ(gone.error().kind, Error::Kind::NotFound);
    }
    SqlHistoryStore store(path, serviceLevelTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    auto all = valueOf(store.schedules());
    ASSERT_EQ(all.size(), 2U);
    ServiceLevelSchedule expected = window();
    expected.id = id;
    expected.enabled = false;
    expected.level = QStringLiteral("Ultra");
    expected.lastFired = minutesServicelevelstore(60);
    expected.lastOutcome = QStringLiteral("submitted");
    EXPECT_EQ(all[0], expected);
    EXPECT_FALSE(all[1].isWindow());
    EXPECT_FALSE(all[1].lastFired.isValid());
    EXPECT_EQ(all[1].recurrence, Recurrence::Once);
    EXPECT_TRUE(store.removeSchedule(id));
    all = valueOf(store.schedules());
    ASSERT_EQ(all.size(), 1U);
    EXPECT_EQ(all[0].id, atId);
}

TEST_P(ServiceLevelStoreDialects, AuditOfKindFiltersByKindAndTime)
{
    SqlHistoryStore store(location(), serviceLevelTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    for (int i = 0; i < 4; ++i) {
        AuditEntry e;
        e.time = minutesServicelevelstore(i * 10);
        e.user = QStringLiteral("alice");
        e.actionId = QString::number(i);
        e.source = QStringLiteral("anf");
        e.kind = i == 2 ? QStringLiteral("snapshot.create") : QStringLiteral("volume.service_level");
        e.outcome = QStringLiteral("succeeded");
        ASSERT_GT(valueOf(store.appendAudit(e)), 0);
    }
    const auto entries =
        valueOf(store.auditLogOfKind(QStringLiteral("volume.service_level"), minutesServicelevelstore(5)));
    ASSERT_EQ(entries.size(), 2U);
    EXPECT_EQ(entries[0].actionId, QStringLiteral("3"));
    EXPECT_EQ(entries[1].actionId, QStringLiteral("1"));
    EXPECT_EQ(valueOf(store.auditLogOfKind(QStringLiteral("volume.service_level"), {})).size(), 3U);
}
