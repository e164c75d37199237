#include "models/core/domain/estate.h"
#include "models/item/roles.h"
#include "models/item/volumetablemodel.h"
#include "tests/views/viewtestutil.h"
#include "views/volumefilterproxy.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

using namespace strata;
using models::VolumeTableModel;

namespace {

constexpr int kVolumes = 3000;

class VolumeFilterProxyTest : public ::testing::Test
{
protected:
    VolumeFilterProxyTest()
    {
        estate.publishVolumes(QStringLiteral("east"), viewtests::syntheticVolumes(QStringLiteral("east"), kVolumes));
        estate.publishVolumes(QStringLiteral("west"),
                              viewtests::syntheticVolumes(QStringLiteral("west"), kVolumes / 3));
        proxy.setSourceModel(&model);
    }

    QString nameAt(int row) const { return proxy.index(row, VolumeTableModel::Name).data().toString(); }

    core::Estate estate;
    VolumeTableModel model{estate};
    views::VolumeFilterProxy proxy;
};

} // namespace

TEST_F(VolumeFilterProxyTest, TextFilter_IsCaseInsensitiveOverFilterTextRole)
{
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_EQ(proxy.rowCount(), kVolumes + kVolumes / 3);
    proxy.setTextFilter(QStringLiteral("VOL_0012"));
    // vol_00120..vol_00129 in both sources (west has 1000 volumes).
    EXPECT_EQ(proxy.rowCount(), 20);
    // FilterTextRole also carries the QoS policy and the junction path.
    proxy.setTextFilter(QStringLiteral("gold"));
    EXPECT_EQ(proxy.rowCount(), (kVolumes + 2) / 3 + (kVolumes / 3 + 2) / 3);
    proxy.setTextFilter(QStringLiteral("/vol_00007"));
    EXPECT_EQ(proxy.rowCount(), 2);
    proxy.setTextFilter(QString());
    EXPECT_EQ(proxy.rowCount(), kVolumes + kVolumes / 3);
}

TEST_F(VolumeFilterProxyTest, SourceAndStateFilters_Combine)
{
    proxy.setSourceFilter(QStringLiteral("west"));
    EXPECT_EQ(proxy.rowCount(), kVolumes / 3);
    proxy.setStateFilter(QStringLiteral("offline"));
    EXPECT_EQ(proxy.rowCount(), (kVolumes / 3 + 6) / 7);
    for (int row = 0; row < proxy.rowCount(); ++row) {
        ASSERT_EQ(proxy.index(row, VolumeTableModel::State).data().toString(), QStringLiteral("offline"));
        ASSERT_EQ(proxy.index(row, VolumeTableModel::Source).data().toString(), QStringLiteral("west"));
    }
    proxy.setSourceFilter(QString());
    EXPECT_EQ(proxy.rowCount(), (kVolumes + 6) / 7 + (kVolumes / 3 + 6) / 7);
    proxy.setTextFilter(QStringLiteral("svm_a"));
    for (int row = 0; row < proxy.rowCount(); ++row) {
        ASSERT_EQ(proxy.index(row, VolumeTableModel::Svm).data().toString(), QStringLiteral("svm_a"));
    }
}

TEST_F(VolumeFilterProxyTest, SortsBytesNumericallyNotAsText)
{
    proxy.sort(VolumeTableModel::Size, Qt::AscendingOrder);
    qint64 previous = -1;
    for (int row = 0; row < proxy.rowCount(); ++row) {
        const qint64 bytes = proxy.index(row, VolumeTableModel::Size).data(models::RawValueRole).toLongLong();
        ASSERT_GE(bytes, previous) << "row " << row;
        previous = bytes;
    }
    // As text "9.0 GiB" would sort after "117.0 GiB"; by bytes the smallest comes first.
    EXPECT_TRUE(proxy.index(0, VolumeTableModel::Size).data().toString().startsWith(QStringLiteral("9.0")));

    proxy.sort(VolumeTableModel::PercentUsed, Qt::DescendingOrder);
    // % used is computed from used, size and reserve, so 99 % arrives within rounding.
    EXPECT_NEAR(proxy.index(0, VolumeTableModel::PercentUsed).data(models::RawValueRole).toDouble(), 99.0, 1e-6);
    proxy.sort(VolumeTableModel::Name, Qt::DescendingOrder);
    EXPECT_EQ(nameAt(0), QStringLiteral("vol_02999"));
}

TEST_F(VolumeFilterProxyTest, PollDiffKeepsSortAndFilterWithoutReset)
{
    proxy.setStateFilter(QStringLiteral("online"));
    proxy.sort(VolumeTableModel::Name, Qt::AscendingOrder);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    int resets = 0;
    QObject::connect(&proxy, &QAbstractItemModel::modelReset, [&resets] {
        ++resets;
    });
    const int before = proxy.rowCount();
    // The next poll has 10 fewer volumes of "east".
    estate.publishVolumes(QStringLiteral("east"), viewtests::syntheticVolumes(QStringLiteral("east"), kVolumes - 10));
    EXPECT_EQ(resets, 0);
    EXPECT_LT(proxy.rowCount(), before);
    EXPECT_EQ(nameAt(0), QStringLiteral("vol_00001"));
}

TEST_F(VolumeFilterProxyTest, FiftyThousandVolumesFilterQuickly)
{
    core::Estate big;
    big.publishVolumes(QStringLiteral("scale"), viewtests::syntheticVolumes(QStringLiteral("scale"), 50000));
    VolumeTableModel bigModel(big);
    views::VolumeFilterProxy bigProxy;
    bigProxy.setSourceModel(&bigModel);
    bigProxy.sort(VolumeTableModel::Name, Qt::AscendingOrder);
    QElapsedTimer timer;
    timer.start();
    // At this size each request runs on the worker thread and lands once the event loop runs.
    const auto landed = [&bigProxy] {
        return QTest::qWaitFor(
            [&bigProxy] {
                return !bigProxy.isPending();
            },
            5000);
    };
    bigProxy.setTextFilter(QStringLiteral("vol_4"));
    ASSERT_TRUE(landed());
    EXPECT_EQ(bigProxy.rowCount(), 10000);
    bigProxy.setTextFilter(QString());
    ASSERT_TRUE(landed());
    EXPECT_EQ(bigProxy.rowCount(), 50000);
    // Generous bound (debug build, shared cores): it guards against accidental O(n^2) work.
    EXPECT_LT(timer.elapsed(), 5000);
}

// A re-poll that changes most volumes at once (more than incrementalRows()) while the table is
// sorted by used space: the rows' figures are live at once, the new order is computed on the
// worker and lands as one layout change, never a reset; the current volume stays current. A
// source turning stale (colour and tooltip only) re-sorts nothing.
TEST_F(VolumeFilterProxyTest, ARePollOfMostVolumesIsReSortedOnTheWorker)
{
    views::VolumeFilterProxy sync; // the same proxy on the GUI thread: the reference order
    sync.setSourceModel(&model);
    proxy.setAsyncRows(0);
    proxy.setIncrementalRows(100);
    for (views::VolumeFilterProxy *p : {&proxy, &sync}) {
        p->setSourceFilter(QStringLiteral("east"));
        p->sort(VolumeTableModel::Used, Qt::DescendingOrder);
    }
    ASSERT_TRUE(QTest::qWaitFor(
        [this] {
            return !proxy.isPending();
        },
        5000));
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QItemSelectionModel selection(&proxy);
    const QString current = nameAt(5);
    selection.setCurrentIndex(proxy.index(5, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QSignalSpy resets(&proxy, &QAbstractItemModel::modelReset);
    const int applied = proxy.appliedRequests();

    std::vector<core::Ptr<core::Volume>> next = viewtests::syntheticVolumes(QStringLiteral("east"), kVolumes)->items();
    for (std::size_t i = 0; i < next.size(); i += 2) { // every other volume grew by i bytes
        core::Volume v = *next[i];
        v.usedBytes = *v.usedBytes + qint64(i) * 1000000;
        next[i] = std::make_shared<const core::Volume>(std::move(v));
    }
    estate.publishVolumes(QStringLiteral("east"), std::make_shared<const core::KeyedList<core::Volume>>(next));
    EXPECT_TRUE(proxy.isPending());
    ASSERT_TRUE(QTest::qWaitFor(
        [this] {
            return !proxy.isPending();
        },
        5000));
    EXPECT_EQ(proxy.appliedRequests(), applied + 1);
    EXPECT_EQ(resets.count(), 0);
    ASSERT_EQ(proxy.rowCount(), sync.rowCount());
    for (int row = 0; row < proxy.rowCount(); ++row) {
        ASSERT_EQ(nameAt(row), sync.index(row, VolumeTableModel::Name).data().toString()) << "row " << row;
    }
    EXPECT_EQ(selection.currentIndex().data().toString(), current);

    core::SourceStatus stale;
    stale.name = QStringLiteral("east");
    stale.stale = true;
    model.setSourceStatus(stale);
    EXPECT_FALSE(proxy.isPending());
    EXPECT_EQ(proxy.appliedRequests(), applied + 1);
}
