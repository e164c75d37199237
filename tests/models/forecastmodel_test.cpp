// The Forecasts table (models/item/forecastmodel.h): the "full soonest" rows with their texts
// and warnings, "full in" sorting by date rather than by text, and recomputations applied as
// keyed diffs (source/kind/id), never a reset.

#include "models/item/forecastmodel.h"
#include "models/item/roles.h"

#include <QAbstractItemModelTester>
#include <QPersistentModelIndex>
#include <QSignalSpy>
#include <QSortFilterProxyModel>

#include <gtest/gtest.h>

using namespace strata;
using models::ForecastTableModel;
using Trend = core::CapacityForecast::Trend;

namespace {

constexpr qint64 kForecastGiB = qint64(1) << 30;

const QDateTime kForecastNow = QDateTime(QDate(2026, 11, 26), QTime(12, 0), Qt::UTC);

core::ContainerForecast forecastOf(const QString &name,
                                   core::ContainerKind kind,
                                   const QString &id,
                                   Trend trend,
                                   qint64 usedGiB,
                                   qint64 capacityGiB,
                                   double fullInDays = -1)
{
    core::ContainerForecast f;
    f.container.source = QStringLiteral("ontap-ai");
    f.container.kind = kind;
    f.container.id = id;
    f.container.name = name;
    f.container.capacityBytes = capacityGiB * kForecastGiB;
    f.container.usedBytes = usedGiB * kForecastGiB;
    f.forecast.trend = trend;
    f.forecast.usedBytes = usedGiB * kForecastGiB;
    f.forecast.capacityBytes = capacityGiB * kForecastGiB;
    f.forecast.samples = trend == Trend::TooLittleData ? 2 : 240;
    f.forecast.from = kForecastNow.addDays(trend == Trend::TooLittleData ? 0 : -30);
    f.forecast.to = kForecastNow;
    if (trend == Trend::Growing || trend == Trend::NoTrend) {
        f.forecast.bytesPerDay = trend == Trend::Growing ? 2.0 * double(kForecastGiB) : 0.0;
        f.forecast.bytesPerDayLow = trend == Trend::Growing ? 1.5 * double(kForecastGiB) : -0.5 * double(kForecastGiB);
        f.forecast.bytesPerDayHigh = 2.5 * double(kForecastGiB);
    }
    if (fullInDays >= 0) {
        f.forecast.fullAt = kForecastNow.addSecs(qint64(fullInDays * 86400));
        f.forecast.fullAtEarliest = kForecastNow.addSecs(qint64(fullInDays * 0.8 * 86400));
        f.forecast.fullAtLatest = kForecastNow.addSecs(qint64(fullInDays * 1.4 * 86400));
    }
    return f;
}

/// The demo-like mix: a volume and an aggregate sharing an id, full, soon, later, flat, new.
std::vector<core::ContainerForecast> forecastMix()
{
    using K = core::ContainerKind;
    std::vector<core::ContainerForecast> out;
    out.push_back(forecastOf(QStringLiteral("svm_ai/scratch"), K::Volume, QStringLiteral("v1"), Trend::Full, 100, 100));
    out.back().forecast.fullAt = kForecastNow.addDays(-2); // when it was seen full
    out.push_back(
        forecastOf(QStringLiteral("svm_ai/train"), K::Volume, QStringLiteral("x"), Trend::Growing, 80, 100, 10));
    out.push_back(
        forecastOf(QStringLiteral("aggr1"), K::Aggregate, QStringLiteral("x"), Trend::Growing, 500, 1000, 100));
    out.push_back(forecastOf(QStringLiteral("svm_ai/logs"), K::Volume, QStringLiteral("v3"), Trend::NoTrend, 90, 100));
    out.push_back(forecastOf(QStringLiteral("ml/raw"), K::Bucket, QStringLiteral("b1"), Trend::TooLittleData, 5, 0));
    return out;
}

ForecastTableModel newForecastModel()
{
    return ForecastTableModel(nullptr, [] {
        return kForecastNow;
    });
}

QString cellText(const QAbstractItemModel &m, int row, int column, int role = Qt::DisplayRole)
{
    return m.index(row, column).data(role).toString();
}

} // namespace

TEST(ForecastTableModel, ShowsEachContainerWithItsTextsAndWarnings)
{
    ForecastTableModel model(nullptr, [] {
        return kForecastNow;
    });
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setForecasts(forecastMix());
    ASSERT_EQ(model.rowCount(), 5);
    // The volume and the aggregate with id "x" are two rows.
    const int train = model.rowOf(QStringLiteral("ontap-ai/volume/x"));
    const int aggr = model.rowOf(QStringLiteral("ontap-ai/aggregate/x"));
    ASSERT_GE(train, 0);
    ASSERT_GE(aggr, 0);
    ASSERT_NE(train, aggr);
    EXPECT_EQ(cellText(model, train, ForecastTableModel::Name), QStringLiteral("svm_ai/train"));
    EXPECT_EQ(cellText(model, train, ForecastTableModel::Kind), QStringLiteral("Volume"));
    EXPECT_EQ(cellText(model, aggr, ForecastTableModel::Kind), QStringLiteral("Aggregate"));
    EXPECT_EQ(cellText(model, train, ForecastTableModel::Source), QStringLiteral("ontap-ai"));
    EXPECT_EQ(cellText(model, train, ForecastTableModel::Used), QStringLiteral("80.0 GiB / 100 GiB (80.0 %)"));
    EXPECT_DOUBLE_EQ(model.index(train, ForecastTableModel::Used).data(models::RawValueRole).toDouble(), 80.0);
    EXPECT_EQ(cellText(model, train, ForecastTableModel::Growth), QStringLiteral("+2.0 GiB/day"));
    EXPECT_EQ(cellText(model, train, ForecastTableModel::Growth, Qt::ToolTipRole),
              QStringLiteral("95 %: +1.5 GiB/day to +2.5 GiB/day"));
    EXPECT_EQ(cellText(model, train, ForecastTableModel::FullIn), QStringLiteral("in 10 days (8–14)"));
    EXPECT_EQ(cellText(model, train, ForecastTableModel::Trend), QStringLiteral("Growing"));
    EXPECT_EQ(cellText(model, train, ForecastTableModel::History), QStringLiteral("240 samples · 30 days"));
    EXPECT_EQ(cellText(model, aggr, ForecastTableModel::FullIn), QStringLiteral("in 100 days (80–140)"));

    const int full = model.rowOf(QStringLiteral("ontap-ai/volume/v1"));
    const int flat = model.rowOf(QStringLiteral("ontap-ai/volume/v3"));
    const int bucket = model.rowOf(QStringLiteral("ontap-ai/bucket/b1"));
    EXPECT_EQ(cellText(model, full, ForecastTableModel::FullIn), QStringLiteral("full"));
    EXPECT_EQ(cellText(model, flat, ForecastTableModel::FullIn), QStringLiteral("no trend"));
    EXPECT_EQ(cellText(model, flat, ForecastTableModel::Growth), QStringLiteral("0 B/day"));
    EXPECT_EQ(cellText(model, bucket, ForecastTableModel::FullIn), QStringLiteral("too little data"));
    EXPECT_EQ(cellText(model, bucket, ForecastTableModel::Growth), QStringLiteral("—"));
    EXPECT_EQ(cellText(model, bucket, ForecastTableModel::Used), QStringLiteral("5.0 GiB · no limit"));
    EXPECT_LT(model.index(bucket, ForecastTableModel::Used).data(models::RawValueRole).toDouble(), 0)
        << "no limit: the bar paints text only";

    // Full is critical, full within 30 days a warning, 100 days and the rest plain.
    for (int column = 0; column < ForecastTableModel::ColumnCount; ++column) {
        if (column == ForecastTableModel::Trend) {
            continue;
        }
        EXPECT_EQ(cellText(model, full, column, models::StatusRole), QStringLiteral("critical"));
        EXPECT_EQ(cellText(model, train, column, models::StatusRole), QStringLiteral("warning"));
        EXPECT_EQ(cellText(model, aggr, column, models::StatusRole), QStringLiteral("ok"));
        EXPECT_EQ(cellText(model, flat, column, models::StatusRole), QStringLiteral("ok"));
    }
    EXPECT_EQ(cellText(model, aggr, ForecastTableModel::Trend, models::StatusRole), QStringLiteral("warning"));
    EXPECT_EQ(cellText(model, bucket, ForecastTableModel::Trend, models::StatusRole), QStringLiteral("unknown"));
    EXPECT_EQ(cellText(model, train, 0, models::KeyRole), QStringLiteral("ontap-ai/volume/x"));
}

TEST(ForecastTableModel, FullInSortsByDateNotByText)
{
    ForecastTableModel model = newForecastModel();
    auto mix = forecastMix();
    // "in 5 h" sorts before "in 10 days" although "1" < "5" as text.
    mix.push_back(forecastOf(QStringLiteral("svm_ai/hot"),
                             core::ContainerKind::Volume,
                             QStringLiteral("v9"),
                             Trend::Growing,
                             99,
                             100,
                             5.0 / 24.0));
    model.setForecasts(mix);
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(models::RawValueRole);
    proxy.sort(ForecastTableModel::FullIn, Qt::AscendingOrder);
    QStringList order;
    for (int row = 0; row < proxy.rowCount(); ++row) {
        order << proxy.index(row, ForecastTableModel::Name).data().toString();
    }
    // Full first, then by fill date, then the rest by used fraction, highest first.
    EXPECT_EQ(order,
              (QStringList{QStringLiteral("svm_ai/scratch"),
                           QStringLiteral("svm_ai/hot"),
                           QStringLiteral("svm_ai/train"),
                           QStringLiteral("aggr1"),
                           QStringLiteral("svm_ai/logs"),
                           QStringLiteral("ml/raw")}));
    EXPECT_EQ(proxy.index(1, ForecastTableModel::FullIn).data().toString(), QStringLiteral("in 5 h (4–7)"));
}

TEST(ForecastTableModel, ARecomputationIsAKeyedDiffNeverAReset)
{
    ForecastTableModel model = newForecastModel();
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setForecasts(forecastMix());
    const QPersistentModelIndex aggr = model.index(model.rowOf(QStringLiteral("ontap-ai/aggregate/x")), 0);
    const QPersistentModelIndex flat = model.index(model.rowOf(QStringLiteral("ontap-ai/volume/v3")), 0);

    QSignalSpy reset(&model, &QAbstractItemModel::modelAboutToBeReset);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

    // The same figures again: nothing to tell the view.
    model.setForecasts(forecastMix());
    EXPECT_EQ(removed.count() + inserted.count() + changed.count(), 0);

    // The train volume grew, the bucket is gone, a cache target appeared (order changed too).
    auto next = forecastMix();
    next.erase(next.begin() + 4);
    next[1].forecast.usedBytes += kForecastGiB;
    next[1].container.usedBytes += kForecastGiB; // the estate's level moved with it
    next[1].forecast.fullAt = kForecastNow.addDays(8);
    next.insert(next.begin(),
                forecastOf(QStringLiteral("dgx-cache-1"),
                           core::ContainerKind::CacheTarget,
                           QStringLiteral("dgx-cache-1"),
                           Trend::NoTrend,
                           10,
                           100));
    model.setForecasts(next);
    EXPECT_EQ(reset.count(), 0);
    EXPECT_EQ(removed.count(), 1);
    EXPECT_EQ(inserted.count(), 1);
    ASSERT_EQ(changed.count(), 1) << "only the train volume's row";
    const int train = model.rowOf(QStringLiteral("ontap-ai/volume/x"));
    EXPECT_EQ(changed.first().at(0).toModelIndex().row(), train);
    EXPECT_EQ(changed.first().at(1).toModelIndex().row(), train);
    EXPECT_EQ(model.rowCount(), 5);
    EXPECT_EQ(model.rowOf(QStringLiteral("ontap-ai/bucket/b1")), -1);
    EXPECT_GE(model.rowOf(QStringLiteral("ontap-ai/cache_target/dgx-cache-1")), 0);
    EXPECT_EQ(cellText(model, train, ForecastTableModel::Used), QStringLiteral("81.0 GiB / 100 GiB (81.0 %)"));
    // Rows that did not change kept their identity.
    ASSERT_TRUE(aggr.isValid() && flat.isValid());
    EXPECT_EQ(aggr.data(models::KeyRole).toString(), QStringLiteral("ontap-ai/aggregate/x"));
    EXPECT_EQ(flat.data(models::KeyRole).toString(), QStringLiteral("ontap-ai/volume/v3"));
}

TEST(ForecastTableModel, TickRereadsTheRelativeTextsWhenTheClockMoved)
{
    QDateTime now = kForecastNow;
    ForecastTableModel model(nullptr, [&now] {
        return now;
    });
    model.setForecasts(forecastMix());
    const int train = model.rowOf(QStringLiteral("ontap-ai/volume/x"));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.tick();
    EXPECT_EQ(changed.count(), 0) << "the same minute: nothing moved";
    now = kForecastNow.addDays(3);
    model.tick();
    EXPECT_GE(changed.count(), 1);
    EXPECT_EQ(cellText(model, train, ForecastTableModel::FullIn), QStringLiteral("in 7 days (5–11)"));
}
