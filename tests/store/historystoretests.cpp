#include "models/core/store/historystore.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"
#include "tests/support/qt/pgfixture.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <cstdio>

using strata::testsupport::errorText;
using strata::testsupport::succeeded;
using strata::testsupport::valueOf;
using namespace strata::core;

namespace {

/// Stamps what a test writes without a time; every writer here passes one.
strata::testsupport::ManualClock &historyTestClock()
{
    static strata::testsupport::ManualClock clock;
    return clock;
}

const QDateTime kT0(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);

QDateTime minutes(int m)
{
    return kT0.addSecs(m * 60LL);
}

/// A second, independent connection for looking at the file the way sqlite3 would.
class Inspector
{
public:
    explicit Inspector(const QString &path)
        : m_name(QStringLiteral("test-inspector-%1").arg(++s_counter))
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
        db.setDatabaseName(path);
        m_open = db.open();
    }
    ~Inspector()
    {
        QSqlDatabase::database(m_name, false).close();
        QSqlDatabase::removeDatabase(m_name);
    }
    Inspector(const Inspector &) = delete;
    Inspector &operator=(const Inspector &) = delete;

    [[nodiscard]] bool isOpen() const { return m_open; }

    QVariant scalar(const QString &sql)
    {
        QSqlQuery query(QSqlDatabase::database(m_name, false));
        if (!query.exec(sql) || !query.next()) {
            return {};
        }
        return query.value(0);
    }

    bool exec(const QString &sql, QString *error = nullptr)
    {
        QSqlQuery query(QSqlDatabase::database(m_name, false));
        const bool ok = query.exec(sql);
        if (error) {
            *error = query.lastError().text();
        }
        return ok;
    }

private:
    static inline int s_counter = 0;
    QString m_name;
    bool m_open = false;
};

std::vector<UsageSample> all(SqlHistoryStore &store, const QString &source, const QString &volume)
{
    return valueOf(store.volumeUsage(source, volume, {}, {}));
}

std::vector<QDateTime> times(const std::vector<UsageSample> &samples)
{
    std::vector<QDateTime> result;
    for (const UsageSample &sample : samples) {
        result.push_back(sample.time);
    }
    return result;
}

AuditEntry audit(const QString &source, const QString &outcome, const QDateTime &time)
{
    AuditEntry entry;
    entry.time = time;
    entry.user = QStringLiteral("alice");
    entry.actionId = QStringLiteral("0b9f8a52-1d43-4c55-a1a7-6f1f3c6a9d10");
    entry.source = source;
    entry.kind = QStringLiteral("snapshot.create");
    entry.target = QStringLiteral("svm_ai/chest_xray@daily.2024-03-01");
    entry.toState = QStringLiteral("present");
    entry.outcome = outcome;
    return entry;
}

} // namespace

/// Runs a test on both dialects of the store: SQLite in memory and a scratch PostgreSQL database.
class HistoryStoreDialects : public ::testing::TestWithParam<strata::testsupport::StoreBackend>
{
protected:
    [[nodiscard]] QString location() const { return m_scratch.location(); }

private:
    strata::testsupport::ScratchStore m_scratch{GetParam()};
};

INSTANTIATE_TEST_SUITE_P(Dialects,
                         HistoryStoreDialects,
                         ::testing::Values(strata::testsupport::StoreBackend::Sqlite,
                                           strata::testsupport::StoreBackend::Postgres),
                         strata::testsupport::storeBackendName);

TEST(SqlHistoryStore, OpensFileInWalModeAtLatestSchema)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sub/dir/history.sqlite"));
    {
        SqlHistoryStore store(path, historyTestClock());
        QString error;
        ASSERT_TRUE(succeeded(store.open()));
        EXPECT_TRUE(error.isEmpty());
        EXPECT_TRUE(succeeded(store.open())) << "opening twice is harmless";
    }
    Inspector db(path);
    ASSERT_TRUE(db.isOpen());
    EXPECT_EQ(db.scalar(QStringLiteral("PRAGMA journal_mode")).toString(), QStringLiteral("wal"));
    EXPECT_EQ(db.scalar(QStringLiteral("SELECT version FROM schema_version")).toInt(),
              SqlHistoryStore::latestSchemaVersion());
    EXPECT_EQ(db.scalar(QStringLiteral("SELECT COUNT(*) FROM schema_version")).toInt(), 1);
    for (const char *name : {"volume_series", "volume_usage_sample", "volume_usage", "audit_log"}) {
        EXPECT_EQ(
            db.scalar(QStringLiteral("SELECT COUNT(*) FROM sqlite_master WHERE name = '%1'").arg(QLatin1String(name)))
                .toInt(),
            1)
            << name;
    }
}

TEST_P(HistoryStoreDialects, OpensEmptyAndRecords)
{
    SqlHistoryStore store(location(), historyTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    ASSERT_TRUE(store.recordVolumeUsage(QStringLiteral("s"), {{QStringLiteral("v"), 1, 2}}, kT0));
    EXPECT_EQ(all(store, QStringLiteral("s"), QStringLiteral("v")).size(), 1u);
}

TEST_P(HistoryStoreDialects, CallsBeforeOpenFailCleanly)
{
    SqlHistoryStore store(location(), historyTestClock());
    EXPECT_FALSE(store.recordVolumeUsage(QStringLiteral("s"), {{QStringLiteral("v"), 1, 2}}, kT0));
    EXPECT_FALSE(store.lastError().isEmpty());
    EXPECT_FALSE(store.volumeUsage(QStringLiteral("s"), QStringLiteral("v"), {}, {}));
    EXPECT_FALSE(store.appendAudit(audit(QStringLiteral("s"), QStringLiteral("started"), kT0)));
    const Result<std::vector<AuditEntry>> notOpen = store.auditLog();
    ASSERT_FALSE(notOpen) << "a store that is not open answers an error, not an empty log";
    EXPECT_EQ(notOpen.error().kind, Error::Kind::Unavailable);
    EXPECT_FALSE(store.applyRetention(kT0));
}

TEST_P(HistoryStoreDialects, RecordsOnlyChangesAndHeartbeats)
{
    SqlHistoryStore store(location(), historyTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    const QString s = QStringLiteral("ontap-ai");
    const QString v = QStringLiteral("vol-1");
    const qint64 heartbeat = 3600;

    ASSERT_TRUE(store.recordVolumeUsage(s, {{v, 100, 1000}}, minutes(0), heartbeat));  // first: written
    ASSERT_TRUE(store.recordVolumeUsage(s, {{v, 100, 1000}}, minutes(3), heartbeat));  // same: skipped
    ASSERT_TRUE(store.recordVolumeUsage(s, {{v, 150, 1000}}, minutes(6), heartbeat));  // used changed
    ASSERT_TRUE(store.recordVolumeUsage(s, {{v, 150, 2000}}, minutes(9), heartbeat));  // size changed
    ASSERT_TRUE(store.recordVolumeUsage(s, {{v, 150, 2000}}, minutes(68), heartbeat)); // 59 min: skipped
    ASSERT_TRUE(store.recordVolumeUsage(s, {{v, 150, 2000}}, minutes(69), heartbeat)); // 60 min: heartbeat
    ASSERT_TRUE(store.recordVolumeUsage(s, {{v, 150, 2000}}, minutes(72), heartbeat)); // skipped

    const auto samples = all(store, s, v);
    EXPECT_EQ(times(samples), (std::vector<QDateTime>{minutes(0), minutes(6), minutes(9), minutes(69)}));
    ASSERT_EQ(samples.size(), 4u);
    EXPECT_EQ(samples[1].usedBytes, 150);
    EXPECT_EQ(samples[1].sizeBytes, 1000);
    EXPECT_EQ(samples[2].sizeBytes, 2000);
    EXPECT_EQ(samples[0].time.timeSpec(), Qt::UTC);

    // Zero heartbeat: every poll is written.
    ASSERT_TRUE(store.recordVolumeUsage(s, {{v, 150, 2000}}, minutes(75), 0));
    EXPECT_EQ(all(store, s, v).size(), 5u);
}

TEST_P(HistoryStoreDialects, KeepsVolumesAndSourcesApart)
{
    SqlHistoryStore store(location(), historyTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    const QString a = QStringLiteral("a");
    const QString b = QStringLiteral("b");
    ASSERT_TRUE(store.recordVolumeUsage(a, {{QStringLiteral("v1"), 1, 10}, {QStringLiteral("v2"), 2, 20}}, minutes(0)));
    // Same volume id on another source is another volume; v2 unchanged is not rewritten.
    ASSERT_TRUE(store.recordVolumeUsage(b, {{QStringLiteral("v1"), 5, 50}}, minutes(0)));
    ASSERT_TRUE(store.recordVolumeUsage(a, {{QStringLiteral("v1"), 3, 10}, {QStringLiteral("v2"), 2, 20}}, minutes(3)));

    EXPECT_EQ(all(store, a, QStringLiteral("v1")).size(), 2u);
    EXPECT_EQ(all(store, a, QStringLiteral("v2")).size(), 1u);
    const auto fromB = all(store, b, QStringLiteral("v1"));
    ASSERT_EQ(fromB.size(), 1u);
    EXPECT_EQ(fromB[0].usedBytes, 5);
    EXPECT_TRUE(all(store, b, QStringLiteral("v2")).empty());
    EXPECT_TRUE(all(store, QStringLiteral("c"), QStringLiteral("v1")).empty());
}

TEST_P(HistoryStoreDialects, RangeQueryIsInclusiveAndOldestFirst)
{
    SqlHistoryStore store(location(), historyTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    const QString s = QStringLiteral("s");
    const QString v = QStringLiteral("v");
    // Recorded out of order on purpose: the query orders, not the insertion.
    for (const int m : {30, 0, 10, 20, 40}) {
        ASSERT_TRUE(store.recordVolumeUsage(s, {{v, m, 100}}, minutes(m)));
    }
    EXPECT_EQ(times(valueOf(store.volumeUsage(s, v, minutes(10), minutes(30)))),
              (std::vector<QDateTime>{minutes(10), minutes(20), minutes(30)}));
    EXPECT_EQ(times(valueOf(store.volumeUsage(s, v, minutes(11), minutes(29)))), (std::vector<QDateTime>{minutes(20)}));
    EXPECT_EQ(times(valueOf(store.volumeUsage(s, v, {}, minutes(10)))),
              (std::vector<QDateTime>{minutes(0), minutes(10)}));
    EXPECT_EQ(times(valueOf(store.volumeUsage(s, v, minutes(40), {}))), (std::vector<QDateTime>{minutes(40)}));
    EXPECT_TRUE(valueOf(store.volumeUsage(s, v, minutes(41), minutes(50))).empty());
    // Non-UTC input means the same instant.
    const QDateTime plusTwo = minutes(20).toOffsetFromUtc(2 * 3600);
    EXPECT_EQ(times(valueOf(store.volumeUsage(s, v, plusTwo, plusTwo))), (std::vector<QDateTime>{minutes(20)}));
}

TEST_P(HistoryStoreDialects, SameTimestampTwiceKeepsTheLatestValues)
{
    SqlHistoryStore store(location(), historyTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    const QString s = QStringLiteral("s");
    ASSERT_TRUE(store.recordVolumeUsage(s, {{QStringLiteral("v"), 1, 10}}, minutes(0)));
    ASSERT_TRUE(store.recordVolumeUsage(s, {{QStringLiteral("v"), 2, 10}}, minutes(0)));
    // A volume listed twice in one call.
    ASSERT_TRUE(store.recordVolumeUsage(s, {{QStringLiteral("w"), 1, 10}, {QStringLiteral("w"), 3, 10}}, minutes(0)));
    const auto v = all(store, s, QStringLiteral("v"));
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].usedBytes, 2);
    const auto w = all(store, s, QStringLiteral("w"));
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0].usedBytes, 3);
}

// Each item is first looked for where the previous call had it: a listing that
// reorders, grows (enough to make the store's index grow), shrinks or repeats a volume must still
// compare each volume with its own last sample.
TEST_P(HistoryStoreDialects, ChangeOnlyWritesFollowEachVolumeWhateverTheOrderOfTheListing)
{
    SqlHistoryStore store(location(), historyTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    const QString s = QStringLiteral("s");
    const auto u = [](const char *id, qint64 used) {
        return VolumeUsage{QString::fromLatin1(id), used, 100};
    };
    const auto record = [&](std::vector<VolumeUsage> usage, int minute) {
        ASSERT_TRUE(store.recordVolumeUsage(s, usage, minutes(minute))) << store.lastError().toStdString();
    };
    record({u("a", 1), u("b", 2), u("c", 3)}, 0);
    record({u("a", 1), u("b", 2), u("c", 3)}, 1);
    record({u("c", 3), u("a", 1), u("b", 2)}, 2);
    record({u("c", 3), u("a", 1), u("b", 5)}, 3);
    record({u("c", 3), u("d", 4), u("a", 1), u("b", 5)}, 4);
    record({u("c", 3), u("d", 4), u("a", 1), u("b", 5)}, 5);
    record({u("a", 1), u("b", 5)}, 6);
    record({u("b", 6), u("a", 1), u("b", 6)}, 7);
    record({u("d", 4), u("c", 3), u("b", 6), u("a", 1)}, 8);
    EXPECT_EQ(times(all(store, s, QStringLiteral("a"))), (std::vector<QDateTime>{minutes(0)}));
    EXPECT_EQ(times(all(store, s, QStringLiteral("b"))), (std::vector<QDateTime>{minutes(0), minutes(3), minutes(7)}));
    EXPECT_EQ(times(all(store, s, QStringLiteral("c"))), (std::vector<QDateTime>{minutes(0)}));
    EXPECT_EQ(times(all(store, s, QStringLiteral("d"))), (std::vector<QDateTime>{minutes(4)}));

    std::vector<QByteArray> ids;
    for (int i = 0; i < 300; ++i) {
        ids.push_back("grown-" + QByteArray::number(i));
    }
    std::vector<VolumeUsage> grown = {u("a", 1), u("b", 6)};
    for (const QByteArray &id : ids) {
        grown.push_back(u(id.constData(), 7));
    }
    grown.push_back(u("c", 3));
    record(grown, 9);
    grown[1].usedBytes = 8;
    grown.back().usedBytes = 9;
    record(grown, 10);
    std::reverse(grown.begin(), grown.end());
    record(grown, 11);
    EXPECT_EQ(times(all(store, s, QStringLiteral("a"))), (std::vector<QDateTime>{minutes(0)}));
    EXPECT_EQ(times(all(store, s, QStringLiteral("b"))),
              (std::vector<QDateTime>{minutes(0), minutes(3), minutes(7), minutes(10)}));
    EXPECT_EQ(times(all(store, s, QStringLiteral("c"))), (std::vector<QDateTime>{minutes(0), minutes(10)}));
    EXPECT_EQ(times(all(store, s, QStringLiteral("grown-0"))), (std::vector<QDateTime>{minutes(9)}));
    EXPECT_EQ(times(all(store, s, QStringLiteral("grown-299"))), (std::vector<QDateTime>{minutes(9)}));
}

TEST_P(HistoryStoreDialects, RetentionDeletesOlderSamplesAndRecordingContinues)
{
    SqlHistoryStore store(location(), historyTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    const QString s = QStringLiteral("s");
    for (int m = 0; m < 10; ++m) {
        ASSERT_TRUE(store.recordVolumeUsage(s, {{QStringLiteral("busy"), m, 100}}, minutes(m)));
    }
    ASSERT_TRUE(store.recordVolumeUsage(s, {{QStringLiteral("idle"), 7, 100}}, minutes(0)));

    EXPECT_EQ(valueOf(store.applyRetention(minutes(5))), 6) << "5 busy + 1 idle samples are older than the cutoff";
    EXPECT_EQ(times(all(store, s, QStringLiteral("busy"))),
              (std::vector<QDateTime>{minutes(5), minutes(6), minutes(7), minutes(8), minutes(9)}));
    EXPECT_TRUE(all(store, s, QStringLiteral("idle")).empty());
    EXPECT_EQ(valueOf(store.applyRetention(minutes(5))), 0);

    // The idle volume's last sample is gone, so its unchanged value is written again.
    ASSERT_TRUE(
        store.recordVolumeUsage(s, {{QStringLiteral("idle"), 7, 100}, {QStringLiteral("busy"), 9, 100}}, minutes(11)));
    EXPECT_EQ(all(store, s, QStringLiteral("idle")).size(), 1u);
    EXPECT_EQ(all(store, s, QStringLiteral("busy")).size(), 5u) << "busy is unchanged since minute 9";
}

TEST_P(HistoryStoreDialects, AuditAppendsAndListsNewestFirst)
{
    strata::testsupport::ManualClock clock(QDateTime(QDate(2021, 2, 3), QTime(4, 5, 6), Qt::UTC));
    SqlHistoryStore store(location(), clock);
    ASSERT_TRUE(succeeded(store.open()));
    const QDateTime t1 = kT0.addMSecs(1234);
    AuditEntry started = audit(QStringLiteral("ontap-ai"), QStringLiteral("started"), t1);
    AuditEntry failed = audit(QStringLiteral("ontap-ai"), QStringLiteral("failed"), t1.addSecs(2));
    failed.message = QStringLiteral("snapshot already exists");
    AuditEntry other = audit(QStringLiteral("grid"), QStringLiteral("succeeded"), t1.addSecs(5));
    other.user = QString(); // null strings are stored as empty text

    const qint64 id1 = valueOf(store.appendAudit(started));
    const qint64 id2 = valueOf(store.appendAudit(failed));
    const qint64 id3 = valueOf(store.appendAudit(other));
    EXPECT_GT(id1, 0);
    EXPECT_GT(id2, id1);
    EXPECT_GT(id3, id2);

    const auto entries = valueOf(store.auditLog());
    ASSERT_EQ(entries.size(), 3u);
    EXPECT_EQ(entries[0].id, id3);
    EXPECT_EQ(entries[1].id, id2);
    EXPECT_EQ(entries[2].id, id1);
    started.id = id1;
    failed.id = id2;
    EXPECT_EQ(entries[2], started) << "every field round-trips, time to the millisecond";
    EXPECT_EQ(entries[1], failed);
    EXPECT_EQ(entries[2].time.timeSpec(), Qt::UTC);
    EXPECT_TRUE(entries[0].user.isEmpty());

    const auto limited = valueOf(store.auditLog(2));
    ASSERT_EQ(limited.size(), 2u);
    EXPECT_EQ(limited[0].id, id3);
    EXPECT_EQ(limited[1].id, id2);

    const auto ontap = valueOf(store.auditLog(500, QStringLiteral("ontap-ai")));
    ASSERT_EQ(ontap.size(), 2u);
    EXPECT_EQ(ontap[0].outcome, QStringLiteral("failed"));
    EXPECT_EQ(ontap[1].outcome, QStringLiteral("started"));
    EXPECT_EQ(valueOf(store.auditLog(1, QStringLiteral("ontap-ai"))).size(), 1u);
    EXPECT_TRUE(valueOf(store.auditLog(500, QStringLiteral("nope"))).empty());
    EXPECT_EQ(valueOf(store.auditLog(0)).size(), 3u) << "limit <= 0 = all";

    // An entry without a time gets the store's clock's time, not the wall clock's.
    AuditEntry untimed = audit(QStringLiteral("grid"), QStringLiteral("started"), {});
    ASSERT_GT(valueOf(store.appendAudit(untimed)), id3);
    EXPECT_EQ(valueOf(store.auditLog(1))[0].time, clock.now());
}

TEST(SqlHistoryStore, AuditLogIsAppendOnly)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.sqlite"));
    SqlHistoryStore store(path, historyTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    ASSERT_GT(valueOf(store.appendAudit(audit(QStringLiteral("s"), QStringLiteral("started"), kT0))), 0);

    Inspector db(path);
    QString error;
    EXPECT_FALSE(db.exec(QStringLiteral("UPDATE audit_log SET outcome = 'succeeded'"), &error));
    EXPECT_TRUE(error.contains(QLatin1String("append-only"))) << error.toStdString();
    EXPECT_FALSE(db.exec(QStringLiteral("DELETE FROM audit_log"), &error));
    EXPECT_EQ(valueOf(store.auditLog())[0].outcome, QStringLiteral("started"));
}

TEST(SqlHistoryStore, ReopenKeepsDataAndLastSamples)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("history.sqlite"));
    {
        SqlHistoryStore store(path, historyTestClock());
        ASSERT_TRUE(succeeded(store.open()));
        ASSERT_TRUE(store.recordVolumeUsage(QStringLiteral("s"), {{QStringLiteral("v"), 1, 10}}, minutes(0)));
        ASSERT_TRUE(store.recordVolumeUsage(QStringLiteral("s"), {{QStringLiteral("v"), 2, 10}}, minutes(3)));
        ASSERT_GT(valueOf(store.appendAudit(audit(QStringLiteral("s"), QStringLiteral("started"), kT0))), 0);
    }
    SqlHistoryStore store(path, historyTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    EXPECT_EQ(all(store, QStringLiteral("s"), QStringLiteral("v")).size(), 2u);
    ASSERT_EQ(valueOf(store.auditLog()).size(), 1u);
    // The last sample (2 at minute 3) is known after reopening: an unchanged value is skipped...
    ASSERT_TRUE(store.recordVolumeUsage(QStringLiteral("s"), {{QStringLiteral("v"), 2, 10}}, minutes(6)));
    EXPECT_EQ(all(store, QStringLiteral("s"), QStringLiteral("v")).size(), 2u);
    // ...and the heartbeat counts from it.
    ASSERT_TRUE(store.recordVolumeUsage(QStringLiteral("s"), {{QStringLiteral("v"), 2, 10}}, minutes(63)));
    EXPECT_EQ(times(all(store, QStringLiteral("s"), QStringLiteral("v"))),
              (std::vector<QDateTime>{minutes(0), minutes(3), minutes(63)}));
}

TEST(SqlHistoryStore, TwoInstancesOnTwoFilesDoNotCollide)
{
    QTemporaryDir dir;
    SqlHistoryStore first(dir.filePath(QStringLiteral("one.sqlite")), historyTestClock());
    SqlHistoryStore second(dir.filePath(QStringLiteral("two.sqlite")), historyTestClock());
    ASSERT_TRUE(succeeded(first.open()));
    ASSERT_TRUE(succeeded(second.open()));
    ASSERT_TRUE(first.recordVolumeUsage(QStringLiteral("s"), {{QStringLiteral("v"), 1, 10}}, minutes(0)));
    ASSERT_TRUE(second.recordVolumeUsage(QStringLiteral("s"), {{QStringLiteral("v"), 2, 20}}, minutes(0)));
    ASSERT_TRUE(second.recordVolumeUsage(QStringLiteral("s"), {{QStringLiteral("v"), 3, 20}}, minutes(1)));
    ASSERT_GT(valueOf(first.appendAudit(audit(QStringLiteral("s"), QStringLiteral("started"), kT0))), 0);

    const auto one = all(first, QStringLiteral("s"), QStringLiteral("v"));
    const auto two = all(second, QStringLiteral("s"), QStringLiteral("v"));
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].usedBytes, 1);
    ASSERT_EQ(two.size(), 2u);
    EXPECT_EQ(two[0].usedBytes, 2);
    EXPECT_EQ(valueOf(first.auditLog()).size(), 1u);
    EXPECT_TRUE(valueOf(second.auditLog()).empty());
}

TEST(SqlHistoryStore, RefusesANewerSchema)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("future.sqlite"));
    {
        SqlHistoryStore store(path, historyTestClock());
        ASSERT_TRUE(succeeded(store.open()));
    }
    {
        Inspector db(path);
        ASSERT_TRUE(db.exec(QStringLiteral("UPDATE schema_version SET version = 99")));
    }
    SqlHistoryStore store(path, historyTestClock());
    QString error = errorText(store.open());
    EXPECT_FALSE(error.isEmpty());
    EXPECT_TRUE(error.contains(QLatin1String("newer"))) << error.toStdString();
    EXPECT_TRUE(error.contains(path)) << error.toStdString();
}

TEST(SqlHistoryStore, NotADatabaseFailsToOpen)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("garbage.sqlite"));
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(4096, 'x'));
    }
    SqlHistoryStore store(path, historyTestClock());
    QString error = errorText(store.open());
    EXPECT_FALSE(error.isEmpty());
    EXPECT_FALSE(store.recordVolumeUsage(QStringLiteral("s"), {{QStringLiteral("v"), 1, 10}}, kT0));
}

// 50,000 volumes every 3 minutes is the sizing target. The timings are printed for the record,
// not asserted: a unit test must not fail on a slow CI machine.
TEST(SqlHistoryStore, FiftyThousandVolumesInOneCall)
{
    constexpr int kVolumes = 50'000;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.sqlite"));
    const QString s = QStringLiteral("ontap-ai");

    std::vector<VolumeUsage> usage;
    usage.reserve(kVolumes);
    for (int i = 0; i < kVolumes; ++i) {
        // uuid-shaped ids, as ONTAP reports them.
        usage.push_back({QStringLiteral("%1-4c55-a1a7-6f1f-3c6a9d10%2")
                             .arg(i, 8, 16, QLatin1Char('0'))
                             .arg(i % 97, 4, 10, QLatin1Char('0')),
                         qint64(i) * 1'000'000,
                         qint64(1) << 40});
    }

    qint64 firstMs = 0;
    qint64 unchangedMs = 0;
    qint64 changedMs = 0;
    qint64 allChangedMs = 0;
    qint64 reopenMs = 0;
    {
        SqlHistoryStore store(path, historyTestClock());
        ASSERT_TRUE(succeeded(store.open()));
        QElapsedTimer timer;
        timer.start();
        ASSERT_TRUE(store.recordVolumeUsage(s, usage, minutes(0))) << store.lastError().toStdString();
        firstMs = timer.restart();
        ASSERT_TRUE(store.recordVolumeUsage(s, usage, minutes(3)));
        unchangedMs = timer.restart();
        for (int i = 0; i < kVolumes; i += 10) { // 10 % of the volumes grow
            usage[i].usedBytes += 4096;
        }
        ASSERT_TRUE(store.recordVolumeUsage(s, usage, minutes(6)));
        changedMs = timer.restart();

        ASSERT_EQ(valueOf(store.volumeUsage(s, usage[10].volumeId, {}, {})).size(), 2u);
        ASSERT_EQ(valueOf(store.volumeUsage(s, usage[11].volumeId, {}, {})).size(), 1u);
        EXPECT_EQ(valueOf(store.volumeUsage(s, usage[12345].volumeId, {}, {}))[0].usedBytes, qint64(12345) * 1'000'000);

        for (VolumeUsage &volume : usage) { // every volume grows
            volume.usedBytes += 8192;
        }
        timer.restart();
        ASSERT_TRUE(store.recordVolumeUsage(s, usage, minutes(9)));
        allChangedMs = timer.restart();
        ASSERT_EQ(valueOf(store.volumeUsage(s, usage[11].volumeId, {}, {})).size(), 2u);
    }
    {
        SqlHistoryStore store(path, historyTestClock());
        ASSERT_TRUE(succeeded(store.open()));
        QElapsedTimer timer;
        timer.start();
        // First record after a restart loads the 50,000 last samples from disk.
        ASSERT_TRUE(store.recordVolumeUsage(s, usage, minutes(12)));
        reopenMs = timer.elapsed();
    }
    constexpr int kSamples = kVolumes + kVolumes / 10 + kVolumes;
    qint64 retentionMs = 0;
    qint64 bytes = 0;
    qint64 sampleBytes = 0;
    qint64 seriesBytes = 0;
    {
        Inspector before(path);
        ASSERT_EQ(before.scalar(QStringLiteral("SELECT COUNT(*) FROM volume_usage")).toInt(), kSamples)
            << "unchanged polls write nothing";
        before.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
        bytes = QFileInfo(path).size();
        // dbstat is compiled into Debian's SQLite; 0 where it is not.
        sampleBytes = before.scalar(QStringLiteral("SELECT SUM(pgsize) FROM dbstat WHERE name = 'volume_usage_sample'"))
                          .toLongLong();
        seriesBytes = before
                          .scalar(QStringLiteral("SELECT SUM(pgsize) FROM dbstat WHERE name IN"
                                                 " (SELECT name FROM sqlite_master WHERE tbl_name = 'volume_series')"))
                          .toLongLong();
    }
    {
        SqlHistoryStore store(path, historyTestClock());
        ASSERT_TRUE(succeeded(store.open()));
        QElapsedTimer timer;
        timer.start();
        EXPECT_EQ(valueOf(store.applyRetention(minutes(7))), kVolumes + kVolumes / 10);
        retentionMs = timer.elapsed();
    }
    Inspector db(path);
    EXPECT_EQ(db.scalar(QStringLiteral("SELECT COUNT(*) FROM volume_series")).toInt(), kVolumes);
    EXPECT_EQ(db.scalar(QStringLiteral("SELECT COUNT(*) FROM volume_usage")).toInt(), kVolumes)
        << "only the minute-9 samples survive retention";
    EXPECT_EQ(
        db.scalar(QStringLiteral("SELECT COUNT(*) FROM volume_usage WHERE t = %1").arg(minutes(9).toMSecsSinceEpoch()))
            .toInt(),
        kVolumes);
    std::printf("[ measure  ] 50,000 volumes: first record (new volumes) %lld ms, unchanged %lld ms, 10%% changed "
                "%lld ms, all changed %lld ms, first record after reopen (loads last samples) %lld ms\n",
                static_cast<long long>(firstMs),
                static_cast<long long>(unchangedMs),
                static_cast<long long>(changedMs),
                static_cast<long long>(allChangedMs),
                static_cast<long long>(reopenMs));
    std::printf("[ measure  ] retention of %d of %d samples %lld ms\n",
                kVolumes + kVolumes / 10,
                kSamples,
                static_cast<long long>(retentionMs));
    std::printf("[ measure  ] DB file %.2f MiB for %d volumes and %d samples: samples %.1f bytes each, "
                "volume series %.1f bytes each\n",
                static_cast<double>(bytes) / (1024.0 * 1024.0),
                kVolumes,
                kSamples,
                static_cast<double>(sampleBytes) / kSamples,
                static_cast<double>(seriesBytes) / kVolumes);
}

namespace {

ProjectSample projectSample(const char *project, MilliGpu allocated, MilliGpu quota, MilliGpu pending, double util)
{
    return ProjectSample{QString::fromLatin1(project), {}, allocated, quota, pending, util};
}

} // namespace

TEST(ProjectHistory, StoresChangesOnlyAndReadsThemBackPerProjectAcrossRestarts)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.sqlite"));
    {
        SqlHistoryStore store(path, historyTestClock());
        QString error;
        ASSERT_TRUE(succeeded(store.open()));
        // §4.8 end, then §4.9 after d-2-gg: team-c drops to 2/2, team-d rises to 6/8.
        ASSERT_TRUE(store.recordProjectSamples(
            QStringLiteral("dgx"),
            {projectSample("team-c", 4000, 2000, 0, 97.5), projectSample("team-d", 4000, 8000, 0, -1)},
            minutes(0)));
        // Unchanged a minute later: nothing written (heartbeat 10 min).
        ASSERT_TRUE(store.recordProjectSamples(
            QStringLiteral("dgx"),
            {projectSample("team-c", 4000, 2000, 0, 97.6), projectSample("team-d", 4000, 8000, 0, -1)},
            minutes(1)));
        ASSERT_TRUE(store.recordProjectSamples(
            QStringLiteral("dgx"),
            {projectSample("team-c", 2000, 2000, 2000, 96.0), projectSample("team-d", 6000, 8000, 0, -1)},
            minutes(2)));
    }
    SqlHistoryStore store(path, historyTestClock());
    QString error;
    ASSERT_TRUE(succeeded(store.open()));
    const std::vector<ProjectSample> c =
        valueOf(store.projectHistory(QStringLiteral("dgx"), QStringLiteral("team-c"), {}, {}));
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].time, minutes(0));
    EXPECT_EQ(c[0].allocated, 4000);
    EXPECT_DOUBLE_EQ(c[0].utilization, 97.5);
    EXPECT_EQ(c[1].time, minutes(2));
    EXPECT_EQ(c[1].allocated, 2000);
    EXPECT_EQ(c[1].pending, 2000);
    const std::vector<ProjectSample> all = valueOf(store.projectHistory(QStringLiteral("dgx"), {}, minutes(1), {}));
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].project, QStringLiteral("team-c"));
    EXPECT_EQ(all[1].project, QStringLiteral("team-d"));
    EXPECT_EQ(all[1].allocated, 6000);
    EXPECT_DOUBLE_EQ(all[1].utilization, -1);
    EXPECT_EQ(valueOf(store.applyRetention(minutes(1))), 0); // volume samples only are counted
    EXPECT_EQ(valueOf(store.projectHistory(QStringLiteral("dgx"), {}, {}, {})).size(), 2u);
}

TEST_P(HistoryStoreDialects, CapacityKeepsContainersByKindWithChangeOnlyWritesAndReadsThemWithTheVolumes)
{
    SqlHistoryStore store(location(), historyTestClock());
    ASSERT_TRUE(succeeded(store.open()));
    const QString grid = QStringLiteral("datalake");
    ASSERT_TRUE(store.recordVolumeUsage(QStringLiteral("ontap"), {{QStringLiteral("v1"), 10, 100}}, minutes(0)));
    // The same id as a bucket and as a tenant are two series.
    ASSERT_TRUE(store.recordCapacity(grid, ContainerKind::Bucket, {{QStringLiteral("t/b"), 5, 0}}, minutes(0)));
    ASSERT_TRUE(store.recordCapacity(grid, ContainerKind::Tenant, {{QStringLiteral("t/b"), 7, 50}}, minutes(0)));
    // Unchanged within the heartbeat: not written; changed: written.
    ASSERT_TRUE(store.recordCapacity(grid, ContainerKind::Bucket, {{QStringLiteral("t/b"), 5, 0}}, minutes(5)));
    ASSERT_TRUE(store.recordCapacity(grid, ContainerKind::Bucket, {{QStringLiteral("t/b"), 6, 0}}, minutes(10)));
    // After the heartbeat an unchanged value is written again.
    ASSERT_TRUE(store.recordCapacity(grid, ContainerKind::Tenant, {{QStringLiteral("t/b"), 7, 50}}, minutes(61)));
    EXPECT_FALSE(store.recordCapacity(grid, ContainerKind::Volume, {{QStringLiteral("v"), 1, 2}}, minutes(1)))
        << "volumes go through recordVolumeUsage";

    const std::vector<CapacitySeries> all = valueOf(store.capacityHistory({}, {}));
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[0].source, grid);
    EXPECT_EQ(all[0].kind, QStringLiteral("bucket"));
    EXPECT_EQ(all[0].samples, (std::vector<UsageSample>{{minutes(0), 5, 0}, {minutes(10), 6, 0}}));
    EXPECT_EQ(all[1].kind, QStringLiteral("tenant"));
    EXPECT_EQ(all[1].samples.size(), 2u);
    EXPECT_EQ(all[2].source, QStringLiteral("ontap"));
    EXPECT_EQ(all[2].kind, QStringLiteral("volume"));
    EXPECT_EQ(all[2].id, QStringLiteral("v1"));

    // The window bounds every family.
    const std::vector<CapacitySeries> late = valueOf(store.capacityHistory(minutes(10), {}));
    ASSERT_EQ(late.size(), 2u);
    EXPECT_EQ(late[0].samples, (std::vector<UsageSample>{{minutes(10), 6, 0}}));

    // Retention takes capacity samples too, and a series left empty goes with them.
    EXPECT_GE(valueOf(store.applyRetention(minutes(11))), 1);
    const std::vector<CapacitySeries> kept = valueOf(store.capacityHistory({}, {}));
    ASSERT_EQ(kept.size(), 1u);
    EXPECT_EQ(kept[0].kind, QStringLiteral("tenant"));
    // A bucket recorded again after its series went starts a new one.
    ASSERT_TRUE(store.recordCapacity(grid, ContainerKind::Bucket, {{QStringLiteral("t/b"), 6, 0}}, minutes(70)));
    EXPECT_EQ(valueOf(store.capacityHistory(minutes(70), {})).size(), 1u);
}

TEST(CapacityHistory, KindNamesRoundTrip)
{
    for (const ContainerKind kind : {ContainerKind::Volume,
                                     ContainerKind::Aggregate,
                                     ContainerKind::Pool,
                                     ContainerKind::Bucket,
                                     ContainerKind::Tenant,
                                     ContainerKind::CacheTarget}) {
        EXPECT_EQ(containerKindFromName(containerKindName(kind)), kind);
    }
    EXPECT_EQ(containerKindName(ContainerKind::CacheTarget), QStringLiteral("cache_target"));
    EXPECT_FALSE(containerKindFromName(QStringLiteral("lun")).has_value());
}
