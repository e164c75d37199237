// A forecast's "full in" text (rows::forecastFullInText, the one formatting every front end
// shows: `strata get forecasts`, the web's rows, the desktop's Forecasts table) writes its band in
// one unit, and the same history gives the same forecast in the rows and in the desktop model.

#include "models/core/services/capacityforecast.h"
#include "models/item/forecastmodel.h"
#include "models/rows/forecastrows.h"

#include <QJsonArray>
#include <QJsonObject>

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

using namespace strata;
using BandTrend = core::CapacityForecast::Trend;

namespace {

const QDateTime kBandNow = QDateTime(QDate(2026, 11, 26), QTime(12, 0), Qt::UTC);
constexpr qint64 kBandGiB = qint64(1) << 30;

core::CapacityForecast bandForecast(double medianHours, double earliestHours, double latestHours)
{
    core::CapacityForecast f;
    f.trend = BandTrend::Growing;
    f.capacityBytes = 100 * kBandGiB;
    f.usedBytes = 50 * kBandGiB;
    f.fullAt = kBandNow.addSecs(qint64(medianHours * 3600));
    f.fullAtEarliest = kBandNow.addSecs(qint64(earliestHours * 3600));
    f.fullAtLatest = latestHours < 0 ? QDateTime() : kBandNow.addSecs(qint64(latestHours * 3600));
    return f;
}

} // namespace

TEST(ForecastBand, IsWrittenInTheMediansUnitOnly)
{
    // Median just over two days, earliest under two: the band stays in days.
    EXPECT_EQ(rows::forecastFullInText(bandForecast(50, 46, 144), kBandNow), QStringLiteral("in 2 days (2–6)"));
    // Median in hours, latest days away: the band in hours.
    EXPECT_EQ(rows::forecastFullInText(bandForecast(40, 30, 240), kBandNow), QStringLiteral("in 40 h (30–240)"));
    // An end under one unit keeps a decimal rather than reading "0".
    EXPECT_EQ(rows::forecastFullInText(bandForecast(12 * 24, 10, 17 * 24), kBandNow),
              QStringLiteral("in 12 days (0.4–17)"));
    // Unbounded latest end.
    EXPECT_EQ(rows::forecastFullInText(bandForecast(12 * 24, 9 * 24, -1), kBandNow),
              QStringLiteral("in 12 days (9–∞)"));
    // Years: the ends in years too, in tenths while the median is under ten.
    EXPECT_EQ(rows::forecastFullInText(bandForecast(12 * 8766, 6 * 8766, 30 * 8766), kBandNow),
              QStringLiteral("in 12 years (6–30)"));
    // From a year on, years: 629 days (418–1172) would read beside "in 13 years" as far sooner.
    EXPECT_EQ(rows::forecastFullInText(bandForecast(629 * 24, 418 * 24, 1172 * 24), kBandNow),
              QStringLiteral("in 1.7 years (1.1–3.2)"));
    EXPECT_EQ(rows::forecastFullInText(bandForecast(364 * 24, 300 * 24, 400 * 24), kBandNow),
              QStringLiteral("in 364 days (300–400)"));
    for (const auto &[median, early, late] : {std::tuple{50.0, 46.0, 144.0},
                                              std::tuple{30.0, 20.0, 100.0},
                                              std::tuple{100.0, 40.0, 9000.0},
                                              std::tuple{47.0, 47.0, 49.0}}) {
        const QString text = rows::forecastFullInText(bandForecast(median, early, late), kBandNow);
        const int units = int(text.contains(QStringLiteral(" h"))) + int(text.contains(QStringLiteral(" day")))
                          + int(text.contains(QStringLiteral(" year")));
        EXPECT_EQ(units, 1) << text.toStdString();
    }
}

TEST(ForecastBand, TheSameHistoryGivesTheSameForecastInTheRowsAndTheDesktopModel)
{
    // A volume growing about 2 GiB a day with a wobble, three days of five-minute samples.
    core::ForecastContainer container;
    container.source = QStringLiteral("ontap-ai");
    container.kind = core::ContainerKind::Volume;
    container.id = QStringLiteral("uuid-exp42");
    container.name = QStringLiteral("svm_ai/chest_xray_exp42");
    container.capacityBytes = 285 * kBandGiB;
    container.usedBytes = 200 * kBandGiB;
    core::CapacitySeries series{container.source, QStringLiteral("volume"), container.id, {}};
    const int steps = 72 * 12;
    for (int i = 0; i <= steps; ++i) {
        const double days = double(steps - i) / (24 * 12);
        const double wobble = ((i * 7919) % 13 - 6) * 0.05 * double(kBandGiB);
        series.samples.push_back(
            core::UsageSample{kBandNow.addSecs(-qint64(steps - i) * 300),
                              qint64(double(container.usedBytes) - days * 2.0 * double(kBandGiB) + wobble),
                              285 * kBandGiB});
    }
    const std::vector<core::ContainerForecast> forecasts = core::forecastAll({container}, {series}, kBandNow);
    ASSERT_EQ(forecasts.size(), 1u);
    ASSERT_EQ(forecasts[0].forecast.trend, BandTrend::Growing);

    const QJsonObject row = rows::toJson(rows::forecastRows(forecasts, kBandNow)).first().toObject();
    models::ForecastTableModel model(nullptr, [] {
        return kBandNow;
    });
    model.setForecasts(forecasts);
    ASSERT_EQ(model.rowCount(), 1);
    const QString modelText = model.index(0, models::ForecastTableModel::FullIn).data().toString();
    EXPECT_EQ(row.value(QStringLiteral("full_in")).toString(), modelText);
    EXPECT_TRUE(modelText.startsWith(QStringLiteral("in "))) << modelText.toStdString();
}

TEST(ForecastBand, HowOftenAHistoryWasPolledDoesNotChangeItsForecast)
{
    // Flat for two days, then growing 6 GiB a day for one: once sampled every five minutes
    // throughout, once every 30 s in its last day (a process that polled it live). The same
    // course of the level: the same forecast.
    core::ForecastContainer container;
    container.source = QStringLiteral("ontap-ai");
    container.kind = core::ContainerKind::Volume;
    container.id = QStringLiteral("uuid-exp42");
    container.name = QStringLiteral("svm_ai/chest_xray_exp42");
    container.capacityBytes = 285 * kBandGiB;
    const auto levelAt = [](qint64 secondsBeforeNow) {
        const double growingDays = std::max(0.0, 1.0 - double(secondsBeforeNow) / 86400.0);
        return qint64(100.0 * double(kBandGiB) + growingDays * 6.0 * double(kBandGiB));
    };
    container.usedBytes = levelAt(0);
    const auto seriesOf = [&](int lastDayStepSeconds) {
        core::CapacitySeries series{container.source, QStringLiteral("volume"), container.id, {}};
        for (qint64 before = 3 * 86400; before >= 0;) {
            series.samples.push_back(core::UsageSample{kBandNow.addSecs(-before), levelAt(before), 285 * kBandGiB});
            before -= before > 86400 ? 300 : lastDayStepSeconds;
        }
        return series;
    };
    const core::CapacitySeries sparse = seriesOf(300);
    const core::CapacitySeries dense = seriesOf(30);
    ASSERT_GT(dense.samples.size(), 3 * sparse.samples.size());
    const core::CapacityForecast a = core::forecastAll({container}, {sparse}, kBandNow)[0].forecast;
    const core::CapacityForecast b = core::forecastAll({container}, {dense}, kBandNow)[0].forecast;
    ASSERT_EQ(a.trend, BandTrend::Growing);
    EXPECT_EQ(b.trend, a.trend);
    EXPECT_EQ(rows::forecastFullInText(b, kBandNow), rows::forecastFullInText(a, kBandNow));
    EXPECT_NEAR(b.bytesPerDay / a.bytesPerDay, 1.0, 0.02);
}
