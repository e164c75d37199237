#include "models/core/domain/estate.h"
#include "models/core/runtime/engine.h"
#include "models/core/store/credentialstore.h"
#include "models/item/roles.h"
#include "models/item/snapshotlistmodel.h"
#include "models/item/timelinemodel.h"
#include "models/item/volumetablemodel.h"
#include "tests/support/qt/manualclock.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <random>

using namespace strata;
using core::Ptr;
using core::Volume;

namespace {

Ptr<Volume> vol(int i, qint64 used = 100, const QString &source = QStringLiteral("c1"))
{
    Volume v;
    v.source = source;
    v.id = QStringLiteral("uuid-%1").arg(i);
    v.name = QStringLiteral("vol_%1").arg(i, 5, 10, QLatin1Char('0'));
    v.svm = QStringLiteral("svm_ai");
    v.state = QStringLiteral("online");
    v.style = QStringLiteral("flexvol");
    v.sizeBytes = 1000;
    v.usedBytes = used;
    v.percentUsed = double(used) / 10.0;
    return std::make_shared<const Volume>(v);
}

std::shared_ptr<const core::KeyedList<Volume>> list(const std::vector<Ptr<Volume>> &items)
{
    return std::make_shared<const core::KeyedList<Volume>>(items);
}

class VolumeModelTest : public ::testing::Test
{
protected:
    core::Estate estate;
    models::VolumeTableModel model{estate};
    QAbstractItemModelTester tester{&model, QAbstractItemModelTester::FailureReportingMode::Fatal};
    QSignalSpy inserted{&model, &QAbstractItemModel::rowsInserted};
    QSignalSpy removed{&model, &QAbstractItemModel::rowsRemoved};
    QSignalSpy changed{&model, &QAbstractItemModel::dataChanged};
    QSignalSpy reset{&model, &QAbstractItemModel::modelReset};

    void clearSpies()
    {
        inserted.clear();
        removed.clear();
        changed.clear();
    }

    /// Every row's key maps back to its row, and rows match the estate exactly.
    void expectConsistent()
    {
        const auto all = estate.volumes().all();
        ASSERT_EQ(model.rowCount(), int(all.size()));
        for (int r = 0; r < model.rowCount(); ++r) {
            const QString key = model.index(r, 0).data(models::KeyRole).toString();
            EXPECT_EQ(model.rowOf(key), r);
            const Ptr<Volume> expected = estate.volumes().find(QStringLiteral("c1"), key);
            ASSERT_TRUE(expected) << key.toStdString();
            EXPECT_EQ(model.recordAt(r)->usedBytes, expected->usedBytes);
        }
    }
};

} // namespace

TEST_F(VolumeModelTest, FirstPoll_InsertsAllRowsWithOneSignal)
{
    std::vector<Ptr<Volume>> items;
    for (int i = 0; i < 100; ++i) {
        items.push_back(vol(i));
    }
    estate.publishVolumes(QStringLiteral("c1"), list(items));
    EXPECT_EQ(inserted.count(), 1);
    EXPECT_EQ(model.rowCount(), 100);
    EXPECT_EQ(reset.count(), 0);
    expectConsistent();
}

// A volume without space figures (ONTAP offline) shows "—", not "0 B" / "0.0 %".
TEST_F(VolumeModelTest, UnknownSpace_ShowsADashAndSortsAsNull)
{
    Volume v = *vol(1);
    v.state = QStringLiteral("offline");
    v.usedBytes.reset();
    v.availableBytes.reset();
    v.percentUsed.reset();
    estate.publishVolumes(QStringLiteral("c1"), list({std::make_shared<const Volume>(v), vol(2, 0)}));
    ASSERT_EQ(model.rowCount(), 2);
    const int unknown = model.rowOf(core::estateKey(v));
    const int zero = model.rowOf(core::estateKey(*vol(2, 0)));
    ASSERT_GE(unknown, 0);
    ASSERT_GE(zero, 0);
    for (const int column :
         {models::VolumeTableModel::Used, models::VolumeTableModel::Available, models::VolumeTableModel::PercentUsed}) {
        EXPECT_EQ(model.index(unknown, column).data().toString(), QStringLiteral("\u2014")) << column;
        EXPECT_FALSE(model.index(unknown, column).data(models::RawValueRole).isValid()) << column;
    }
    EXPECT_EQ(model.index(zero, models::VolumeTableModel::Used).data().toString(), QStringLiteral("0 B"));
    EXPECT_EQ(model.index(zero, models::VolumeTableModel::PercentUsed).data().toString(), QStringLiteral("0.0 %"));
    v.state = QStringLiteral("online");
    EXPECT_EQ(models::VolumeTableModel::capacityStatus(v), QStringLiteral("unknown"));
}

TEST_F(VolumeModelTest, Poll_AppliesScatteredChangesRemovalsAndAdditionsWithoutReset)
{
    std::vector<Ptr<Volume>> items;
    for (int i = 0; i < 50; ++i) {
        items.push_back(vol(i));
    }
    estate.publishVolumes(QStringLiteral("c1"), list(items));
    clearSpies();

    std::vector<Ptr<Volume>> next;
    for (int i = 0; i < 50; ++i) {
        if (i == 3 || i == 4 || i == 5 || i == 20 || i == 49) {
            continue; // removed: one contiguous range of 3 and two singles
        }
        next.push_back(i == 10 || i == 11 || i == 30 ? vol(i, 500) : vol(i));
    }
    next.push_back(vol(100));
    next.push_back(vol(101));
    estate.publishVolumes(QStringLiteral("c1"), list(next));

    EXPECT_EQ(reset.count(), 0);
    EXPECT_EQ(removed.count(), 3) << "contiguous removals are coalesced";
    EXPECT_EQ(inserted.count(), 1);
    EXPECT_EQ(changed.count(), 2) << "rows 10-11 coalesce into one range, row 30 another";
    expectConsistent();
}

TEST_F(VolumeModelTest, MostRowsChanged_OneDataChangedForTheWholeTable)
{
    std::vector<Ptr<Volume>> items;
    for (int i = 0; i < 10; ++i) {
        items.push_back(vol(i));
    }
    estate.publishVolumes(QStringLiteral("c1"), list(items));
    clearSpies();
    std::vector<Ptr<Volume>> next;
    for (int i = 0; i < 10; ++i) {
        next.push_back(i % 3 == 0 ? vol(i) : vol(i, 999));
    }
    estate.publishVolumes(QStringLiteral("c1"), list(next));
    EXPECT_EQ(changed.count(), 1);
    expectConsistent();
}

TEST_F(VolumeModelTest, RandomPolls_StayConsistent)
{
    std::mt19937 rng(42);
    std::vector<int> ids;
    for (int i = 0; i < 300; ++i) {
        ids.push_back(i);
    }
    int nextId = 300;
    for (int round = 0; round < 30; ++round) {
        std::vector<int> kept;
        for (int id : ids) {
            if (rng() % 10 != 0) {
                kept.push_back(id);
            }
        }
        for (int k = 0; k < int(rng() % 20); ++k) {
            kept.push_back(nextId++);
        }
        std::shuffle(kept.begin(), kept.end(), rng); // systems do not promise an order
        ids = kept;
        std::vector<Ptr<Volume>> items;
        for (int id : ids) {
            items.push_back(vol(id, qint64(rng() % 4) * 100));
        }
        estate.publishVolumes(QStringLiteral("c1"), list(items));
        ASSERT_NO_FATAL_FAILURE(expectConsistent()) << "round " << round;
    }
    EXPECT_EQ(reset.count(), 0);
}

TEST_F(VolumeModelTest, StaleSource_MarksItsRowsAndExplains)
{
    estate.publishVolumes(QStringLiteral("c1"), list({vol(1), vol(2)}));
    clearSpies();
    core::SourceStatus s;
    s.name = QStringLiteral("c1");
    s.health = core::Health::Unreachable;
    s.stale = true;
    s.lastError = QStringLiteral("connection refused");
    model.setSourceStatus(s);
    EXPECT_GE(changed.count(), 1);
    EXPECT_TRUE(model.index(0, 0).data(models::StaleRole).toBool());
    EXPECT_TRUE(model.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("connection refused")));
    EXPECT_EQ(model.rowCount(), 2) << "stale data stays visible";
}

TEST_F(VolumeModelTest, Perf_UpdatesOnlyPerfColumns)
{
    estate.publishVolumes(QStringLiteral("c1"), list({vol(1), vol(2)}));
    clearSpies();
    core::VolumePerf p;
    p.source = QStringLiteral("c1");
    p.id = QStringLiteral("uuid-2");
    p.totalIops = 1234;
    p.throughputBps = 10 * 1024 * 1024;
    p.latencyUs = 420;
    estate.publishVolumePerf(QStringLiteral("c1"),
                             std::make_shared<const core::KeyedList<core::VolumePerf>>(
                                 std::vector<Ptr<core::VolumePerf>>{std::make_shared<const core::VolumePerf>(p)}));
    ASSERT_EQ(changed.count(), 1);
    const auto topLeft = changed.at(0).at(0).value<QModelIndex>();
    const auto bottomRight = changed.at(0).at(1).value<QModelIndex>();
    EXPECT_EQ(topLeft.row(), 1);
    EXPECT_EQ(topLeft.column(), models::VolumeTableModel::Iops);
    EXPECT_EQ(bottomRight.column(), models::VolumeTableModel::Latency);
    EXPECT_EQ(model.index(1, models::VolumeTableModel::Iops).data().toString(), QStringLiteral("1,234"));
    EXPECT_EQ(model.index(1, models::VolumeTableModel::Latency).data().toString(), QStringLiteral("0.42 ms"));
}

TEST(SnapshotListModel, FollowsSelectedVolumeOnly)
{
    core::Estate estate;
    models::SnapshotListModel model(estate);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    auto snap = [](const QString &vol, const QString &id) {
        core::Snapshot s;
        s.source = QStringLiteral("c1");
        s.volumeId = vol;
        s.id = id;
        s.name = QStringLiteral("daily.") + id;
        return std::make_shared<const core::Snapshot>(s);
    };
    using L = core::KeyedList<core::Snapshot>;
    model.setVolume(QStringLiteral("c1"), QStringLiteral("v1"));
    EXPECT_FALSE(model.isLoaded());
    QSignalSpy loaded(&model, &models::SnapshotListModel::loaded);
    estate.publishSnapshots(
        QStringLiteral("c1"),
        QStringLiteral("v1"),
        std::make_shared<const L>(std::vector<Ptr<core::Snapshot>>{snap(QStringLiteral("v1"), QStringLiteral("a"))}));
    estate.publishSnapshots(
        QStringLiteral("c1"),
        QStringLiteral("v2"),
        std::make_shared<const L>(std::vector<Ptr<core::Snapshot>>{snap(QStringLiteral("v2"), QStringLiteral("b"))}));
    EXPECT_EQ(loaded.count(), 1);
    EXPECT_TRUE(model.isLoaded());
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.index(0, 0).data().toString(), QStringLiteral("daily.a"));
    model.setVolume(QStringLiteral("c1"), QStringLiteral("v2"));
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.index(0, 0).data().toString(), QStringLiteral("daily.b"));
    estate.publishSnapshots(
        QStringLiteral("c1"), QStringLiteral("v2"), std::make_shared<const L>(std::vector<Ptr<core::Snapshot>>{}));
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(TimelineModel, FollowsTheTimelineWithoutResets)
{
    testsupport::ManualClock clock(QDateTime(QDate(2026, 3, 1), QTime(12, 0), Qt::UTC));
    core::InMemoryCredentialStore credentials;
    core::Engine engine{{clock, credentials, nullptr, QStringLiteral("tester")}};
    core::Estate &estate = engine.estate();
    const auto event = [&](const QString &id, const QString &severity, int secondsAgo) {
        core::Event e;
        e.source = QStringLiteral("c1");
        e.id = id;
        e.time = clock.now().addSecs(-secondsAgo);
        e.severity = severity;
        e.name = QStringLiteral("wafl.vol.full");
        return std::make_shared<const core::Event>(e);
    };
    using EL = core::KeyedList<core::Event>;
    estate.publishEvents(QStringLiteral("c1"),
                         std::make_shared<const EL>(std::vector<Ptr<core::Event>>{
                             event(QStringLiteral("n1/1"), QStringLiteral("alert"), 60)}));
    models::TimelineModel model(engine.timeline());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    models::TimelineFilterModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserts(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removals(&model, &QAbstractItemModel::rowsRemoved);
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.index(0, models::TimelineModel::Severity).data(models::StatusRole).toString(),
              QStringLiteral("critical"));
    EXPECT_EQ(model.index(0, models::TimelineModel::Severity).data().toString(), QStringLiteral("Critical"));
    EXPECT_EQ(model.index(0, models::TimelineModel::System).data().toString(), QStringLiteral("ONTAP"));
    EXPECT_EQ(model.index(0, models::TimelineModel::Title).data().toString(), QStringLiteral("wafl.vol.full"));

    estate.publishEvents(QStringLiteral("c1"),
                         std::make_shared<const EL>(std::vector<Ptr<core::Event>>{
                             event(QStringLiteral("n1/1"), QStringLiteral("alert"), 60),
                             event(QStringLiteral("n1/2"), QStringLiteral("notice"), 30),
                             event(QStringLiteral("n1/3"), QStringLiteral("debug"), 10)}));
    EXPECT_EQ(model.rowCount(), 3);
    EXPECT_EQ(inserts.count(), 1);
    core::TimelineFilter warnings;
    warnings.minSeverity = core::TimelineSeverity::Warning;
    proxy.setFilter(warnings);
    EXPECT_EQ(proxy.rowCount(), 1); // two reports of wafl.vol.full: one row, at its worst
    EXPECT_EQ(proxy.index(0, models::TimelineModel::Count).data().toString(), QStringLiteral("2"));
    EXPECT_EQ(proxy.index(0, models::TimelineModel::Severity).data().toString(), QStringLiteral("Critical"));
    proxy.setGrouped(false);
    EXPECT_EQ(proxy.rowCount(), 2);

    // A restored bundle replaces rows by removal and insertion, still without a reset.
    core::TimelineEntry bundled = *engine.timeline().entry(QStringLiteral("event:c1:n1/3"));
    engine.timeline().restore({bundled});
    EXPECT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.rowOfId(bundled.id), 0);
    EXPECT_GE(removals.count(), 1);
    EXPECT_EQ(proxy.rowCount(), 0);
    EXPECT_EQ(resets.count(), 0);
}
