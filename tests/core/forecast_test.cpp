// Capacity forecasts on synthetic histories: steady growth, flat, a step change, noise, too
// little data and already full.

#include "models/core/forecast.h"

#include <gtest/gtest.h>

#include <random>

using namespace strata::core;

namespace {

constexpr qint64 kForecastGiB = qint64(1) << 30;
const QDateTime kForecastStart = QDateTime(QDate(2026, 11, 1), QTime(0, 0), Qt::UTC);

/// One sample an hour for `hours`, used = f(hour).
template <class F> QList<CapacitySample> forecastHourly(int hours, F usedAt)
{
    QList<CapacitySample> out;
    for (int h = 0; h < hours; ++h) {
        out.append({kForecastStart.addSecs(qint64(h) * 3600), usedAt(h)});
    }
    return out;
}

} // namespace

TEST(Forecast, SteadyGrowthFillsOnTheDayTheLineReachesCapacity)
{
    // 100 GiB used, +24 GiB a day (1 GiB an hour), over 7 days; capacity 1 TiB.
    const auto samples = forecastHourly(7 * 24, [](int h) {
        return 100 * kForecastGiB + qint64(h) * kForecastGiB;
    });
    const QDateTime now = samples.constLast().time;
    const CapacityForecast f = forecastFill(samples, 1024 * kForecastGiB, now);
    ASSERT_EQ(f.trend, CapacityForecast::Trend::Growing);
    EXPECT_NEAR(f.bytesPerDay / double(kForecastGiB), 24.0, 1e-6);
    EXPECT_EQ(f.usedBytes, 100 * kForecastGiB + 165 * kForecastGiB); // the median of the last five hours
    // (1024 - 265) GiB at 24 GiB a day: 31.625 days.
    EXPECT_NEAR(double(now.secsTo(f.fullAt)) / 86400.0, 31.625, 0.001);
    EXPECT_LE(f.fullAtEarliest, f.fullAt);
    EXPECT_GE(f.fullAtLatest, f.fullAt);
    EXPECT_EQ(f.samples, 168);
    EXPECT_EQ(f.from, kForecastStart);
}

TEST(Forecast, FlatHistoryHasNoTrendAndNoDate)
{
    const auto samples = forecastHourly(72, [](int) {
        return 500 * kForecastGiB;
    });
    const CapacityForecast f = forecastFill(samples, 1024 * kForecastGiB, samples.constLast().time);
    EXPECT_EQ(f.trend, CapacityForecast::Trend::NoTrend);
    EXPECT_EQ(f.bytesPerDay, 0.0);
    EXPECT_FALSE(f.fullAt.isValid());
}

TEST(Forecast, OneStepChangeIsNotATrend)
{
    // Flat at 200 GiB for two days, one restore of 300 GiB, flat again for one day.
    const auto samples = forecastHourly(72, [](int h) {
        return h < 48 ? 200 * kForecastGiB : 500 * kForecastGiB;
    });
    const CapacityForecast f = forecastFill(samples, 1024 * kForecastGiB, samples.constLast().time);
    EXPECT_EQ(f.trend, CapacityForecast::Trend::NoTrend);
    EXPECT_EQ(f.usedBytes, 500 * kForecastGiB) << "the forecast starts from the level after the step";
}

TEST(Forecast, NoiseWithoutGrowthIsNoTrend_NoiseAroundGrowthStillGrows)
{
    std::mt19937 random(17);
    std::normal_distribution<double> noise(0.0, 20.0 * double(kForecastGiB));
    const auto noisyFlat = forecastHourly(96, [&](int) {
        return 400 * kForecastGiB + qint64(noise(random));
    });
    EXPECT_EQ(forecastFill(noisyFlat, 1024 * kForecastGiB, noisyFlat.constLast().time).trend,
              CapacityForecast::Trend::NoTrend);

    // +2 GiB an hour under the same noise, with two wild outliers.
    auto growing = forecastHourly(96, [&](int h) {
        return 100 * kForecastGiB + qint64(h) * 2 * kForecastGiB + qint64(noise(random));
    });
    growing[40].usedBytes = 0;
    growing[41].usedBytes = 1000 * kForecastGiB;
    const CapacityForecast f = forecastFill(growing, 1024 * kForecastGiB, growing.constLast().time);
    ASSERT_EQ(f.trend, CapacityForecast::Trend::Growing);
    EXPECT_NEAR(f.bytesPerDay / double(kForecastGiB), 48.0, 6.0);
    EXPECT_LT(f.bytesPerDayLow, f.bytesPerDay);
    EXPECT_GT(f.bytesPerDayHigh, f.bytesPerDay);
    EXPECT_LT(f.fullAtEarliest, f.fullAtLatest);
}

TEST(Forecast, TooLittleDataAndAlreadyFull)
{
    const auto few = forecastHourly(4, [](int h) {
        return qint64(h) * kForecastGiB;
    });
    EXPECT_EQ(forecastFill(few, 1024 * kForecastGiB, few.constLast().time).trend,
              CapacityForecast::Trend::TooLittleData);
    const auto shortSpan = forecastHourly(5,
                                          [](int h) {
                                              return qint64(h) * kForecastGiB;
                                          })
                           + forecastHourly(5, [](int h) {
                                 return qint64(h) * kForecastGiB;
                             });
    EXPECT_EQ(forecastFill(shortSpan, 1024 * kForecastGiB, kForecastStart).trend,
              CapacityForecast::Trend::TooLittleData);
    EXPECT_EQ(forecastFill({}, 1024 * kForecastGiB, kForecastStart).trend, CapacityForecast::Trend::TooLittleData);

    const auto full = forecastHourly(24, [](int) {
        return 1024 * kForecastGiB;
    });
    const CapacityForecast f = forecastFill(full, 1024 * kForecastGiB, full.constLast().time);
    EXPECT_EQ(f.trend, CapacityForecast::Trend::Full);
    EXPECT_EQ(f.fullAt, full.constLast().time);
    EXPECT_EQ(forecastTrendName(f.trend), QStringLiteral("full"));
}

TEST(Forecast, ManySamplesAreThinnedToFourHundred)
{
    const auto samples = forecastHourly(24 * 60, [](int h) {
        return 10 * kForecastGiB + qint64(h) * (kForecastGiB / 4);
    });
    const CapacityForecast f = forecastFill(samples, 2048 * kForecastGiB, samples.constLast().time);
    EXPECT_EQ(f.samples, 400);
    ASSERT_EQ(f.trend, CapacityForecast::Trend::Growing);
    EXPECT_NEAR(f.bytesPerDay / double(kForecastGiB), 6.0, 1e-6);
    EXPECT_EQ(f.to, samples.constLast().time);
}
