// One capacity definition (core::volumeCapacity, ONTAP System Manager's): a volume with a
// snapshot reserve reads the same used, size and % used in the rows `strata get volumes` and the
// web API print, the desktop's volume table, the forecasts' rows and the desktop Forecasts table;
// the size is the active file system's (the provisioned size less the reserve) and every text
// that shows a % used says of what.

#include "models/core/domain/estate.h"
#include "models/core/planning/volumecapacity.h"
#include "models/core/services/capacityforecast.h"
#include "models/item/forecastmodel.h"
#include "models/item/volumetablemodel.h"
#include "models/rows/forecastrows.h"
#include "models/rows/resources.h"

#include <QJsonArray>
#include <QJsonObject>

#include <gtest/gtest.h>

using namespace strata;

namespace {

constexpr qint64 kCapacityGiB = qint64(1) << 30;
const QDateTime kCapacityNow = QDateTime(QDate(2026, 11, 26), QTime(12, 0), Qt::UTC);

// 300 GiB with a 5 % snapshot reserve (15 GiB), 250 GiB used in the active file system: ONTAP
// reports percent_used 88 (a whole number of 250 of 285 GiB); 250 of 300 GiB would be 83.3 %.
core::Volume capacityReservedVolume()
{
    core::Volume v;
    v.source = QStringLiteral("ontap-ai");
    v.id = QStringLiteral("uuid-chest");
    v.name = QStringLiteral("chest_xray");
    v.svm = QStringLiteral("svm_ai");
    v.state = QStringLiteral("online");
    v.style = QStringLiteral("flexvol");
    v.type = QStringLiteral("rw");
    v.sizeBytes = 300 * kCapacityGiB;
    v.snapshotReservePercent = 5;
    v.usedBytes = 250 * kCapacityGiB;
    v.availableBytes = 35 * kCapacityGiB;
    v.percentUsed = 88.0; // the system's rounding, as a record from elsewhere (a bundle) may carry
    return v;
}

QJsonObject capacityRowOf(const rows::ResultSet &rs, const QString &kind)
{
    for (const QJsonValue &row : rows::toJson(rs)) {
        if (kind.isEmpty() || row.toObject().value(QStringLiteral("kind")).toString() == kind) {
            return row.toObject();
        }
    }
    return {};
}

} // namespace

TEST(VolumeCapacity, TheActiveFileSystemIsTheDenominatorAndTheReserveIsStatedApart)
{
    const core::VolumeCapacity c = core::volumeCapacity(capacityReservedVolume());
    EXPECT_EQ(c.sizeBytes, 300 * kCapacityGiB);
    EXPECT_EQ(c.reserveBytes, 15 * kCapacityGiB);
    EXPECT_EQ(c.usableBytes, 285 * kCapacityGiB);
    ASSERT_TRUE(c.percentUsed);
    EXPECT_NEAR(*c.percentUsed, 100.0 * 250.0 / 285.0, 1e-9);
    EXPECT_EQ(core::volumeCapacityText(c).toStdString(),
              "87.7 % used: 250 GiB of 285 GiB (300 GiB less a 15.0 GiB snapshot reserve)");

    // No reserve (ANF): the size is the denominator, nothing to state apart.
    EXPECT_EQ(core::volumeCapacityText(core::volumeCapacity(1000 * kCapacityGiB, 0, 880 * kCapacityGiB)).toStdString(),
              "88.0 % used: 880 GiB of 1,000 GiB");
    // Used unknown (an offline volume): no percentage, never 0.
    const core::VolumeCapacity unknown = core::volumeCapacity(300 * kCapacityGiB, 5, std::nullopt);
    EXPECT_FALSE(unknown.percentUsed);
    EXPECT_EQ(unknown.usableBytes, 285 * kCapacityGiB);
}

TEST(VolumeCapacity, VolumeRowsForecastRowsAndTheDesktopModelsAgree)
{
    core::Estate estate;
    const core::Volume volume = capacityReservedVolume();
    estate.publishVolumes(volume.source,
                          std::make_shared<const core::KeyedList<core::Volume>>(
                              std::vector<core::Ptr<core::Volume>>{std::make_shared<const core::Volume>(volume)}));

    // `strata get volumes` and GET /api/v1/volumes.
    const QJsonObject volumeRow = capacityRowOf(rows::volumeRows(estate.volumes().all()), {});
    EXPECT_EQ(volumeRow.value(QStringLiteral("percent_used")).toDouble(), 87.7);
    EXPECT_EQ(volumeRow.value(QStringLiteral("usable_bytes")).toDouble(), double(285 * kCapacityGiB));
    EXPECT_EQ(volumeRow.value(QStringLiteral("snapshot_reserve_bytes")).toDouble(), double(15 * kCapacityGiB));
    EXPECT_EQ(volumeRow.value(QStringLiteral("size_bytes")).toDouble(), double(300 * kCapacityGiB));

    // `strata get forecasts` and GET /api/v1/forecasts: the same used, of the same size.
    const std::vector<core::ContainerForecast> forecasts =
        core::forecastAll(core::forecastContainers(estate), {}, kCapacityNow);
    const QJsonObject forecastRow =
        capacityRowOf(rows::forecastRows(forecasts, kCapacityNow), QStringLiteral("volume"));
    EXPECT_EQ(forecastRow.value(QStringLiteral("percent_used")).toDouble(),
              volumeRow.value(QStringLiteral("percent_used")).toDouble());
    EXPECT_EQ(forecastRow.value(QStringLiteral("used_bytes")).toDouble(),
              volumeRow.value(QStringLiteral("used_bytes")).toDouble());
    EXPECT_EQ(forecastRow.value(QStringLiteral("capacity_bytes")).toDouble(),
              volumeRow.value(QStringLiteral("usable_bytes")).toDouble());

    // The desktop's Volumes table: the same figure, its tooltip states the denominator.
    models::VolumeTableModel volumes(estate);
    ASSERT_EQ(volumes.rowCount(), 1);
    const QModelIndex percent = volumes.index(0, models::VolumeTableModel::PercentUsed);
    EXPECT_EQ(percent.data().toString(), QStringLiteral("87.7 %"));
    EXPECT_EQ(percent.data(Qt::ToolTipRole).toString().toStdString(),
              "87.7 % used: 250 GiB of 285 GiB (300 GiB less a 15.0 GiB snapshot reserve)");

    // The desktop's Forecasts table.
    models::ForecastTableModel forecastModel(nullptr, [] {
        return kCapacityNow;
    });
    forecastModel.setForecasts(forecasts);
    ASSERT_EQ(forecastModel.rowCount(), 1);
    EXPECT_EQ(forecastModel.index(0, models::ForecastTableModel::Used).data().toString(),
              QStringLiteral("250 GiB / 285 GiB (87.7 %)"));
}

TEST(VolumeCapacity, AVolumeWithoutAReportedLevelIsUnknownInTheForecastsNotEmpty)
{
    // An ANF volume before Azure Monitor's first metrics: its row says "—", so does its forecast.
    core::Estate estate;
    core::Volume volume = capacityReservedVolume();
    volume.snapshotReservePercent = 0;
    volume.usedBytes.reset();
    volume.availableBytes.reset();
    volume.percentUsed.reset();
    estate.publishVolumes(volume.source,
                          std::make_shared<const core::KeyedList<core::Volume>>(
                              std::vector<core::Ptr<core::Volume>>{std::make_shared<const core::Volume>(volume)}));
    const rows::ResultSet rs =
        rows::forecastRows(core::forecastAll(core::forecastContainers(estate), {}, kCapacityNow), kCapacityNow);
    const QJsonObject row = capacityRowOf(rs, QStringLiteral("volume"));
    EXPECT_TRUE(row.value(QStringLiteral("used_bytes")).isNull());
    EXPECT_TRUE(row.value(QStringLiteral("percent_used")).isNull());
}
