// Capacity forecasts on synthetic histories: steady growth, flat, a step change, noise, too
// little data and already full.

#include "models/core/domain/estate.h"
#include "models/core/planning/forecast.h"
#include "models/core/services/capacityforecast.h"
#include "models/core/services/historyservice.h"
#include "tests/support/qt/manualclock.h"
#include "tests/support/qt/sqlitetables.h"

#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

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

/// Volume "svm/data" of source "ontap" in `estate`, half full of 100 GiB, with 48 hourly samples
/// growing 1 GiB an hour in `history`.
void seedGrowingVolume(Estate &estate, HistoryService &history)
{
    Volume v;
    v.source = QStringLiteral("ontap");
    v.id = QStringLiteral("v1");
    v.svm = QStringLiteral("svm");
    v.name = QStringLiteral("data");
    v.sizeBytes = 100 * kForecastGiB;
    v.usedBytes = 50 * kForecastGiB;
    estate.publishVolumes(
        QStringLiteral("ontap"),
        std::make_shared<const KeyedList<Volume>>(std::vector<Ptr<Volume>>{std::make_shared<const Volume>(v)}));
    for (int h = 0; h < 48; ++h) {
        history.recordVolumeUsage(QStringLiteral("ontap"),
                                  {VolumeUsage{QStringLiteral("v1"), (2 + h) * kForecastGiB, 100 * kForecastGiB}},
                                  kForecastStart.addSecs(qint64(h) * 3600));
    }
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

TEST(Forecast, PlannedEvictionsPushTheFillDateBackByWhatTheyFree)
{
    // +24 GiB a day from 265 GiB; 1 TiB fills in 31.625 days. An eviction of 48 GiB in 10 days
    // buys two days; one due now (over the high watermark) counts at once.
    const auto samples = forecastHourly(7 * 24, [](int h) {
        return 100 * kForecastGiB + qint64(h) * kForecastGiB;
    });
    const QDateTime now = samples.constLast().time;
    const CapacityForecast plain = forecastFill(samples, 1024 * kForecastGiB, now);
    const CapacityForecast later =
        forecastFill(samples, 1024 * kForecastGiB, now, {CapacityRelease{now.addDays(10), 48 * kForecastGiB}});
    EXPECT_NEAR(double(plain.fullAt.secsTo(later.fullAt)) / 86400.0, 2.0, 0.001);
    const CapacityForecast dueNow =
        forecastFill(samples, 1024 * kForecastGiB, now, {CapacityRelease{now.addSecs(-60), 24 * kForecastGiB}});
    EXPECT_NEAR(double(plain.fullAt.secsTo(dueNow.fullAt)) / 86400.0, 1.0, 0.001);
    // An eviction after the container is full changes nothing.
    const CapacityForecast tooLate =
        forecastFill(samples, 1024 * kForecastGiB, now, {CapacityRelease{now.addDays(40), 500 * kForecastGiB}});
    EXPECT_EQ(tooLate.fullAt, plain.fullAt);
    // An eviction that frees more than growth adds until then: the line restarts lower there.
    const CapacityForecast big =
        forecastFill(samples, 1024 * kForecastGiB, now, {CapacityRelease{now.addDays(30), 700 * kForecastGiB}});
    EXPECT_NEAR(double(now.secsTo(big.fullAt)) / 86400.0, 31.625 + 700.0 / 24.0, 0.001);
}

TEST(Forecast, GrowthWithoutALimitIsGrowingWithNoDate)
{
    const auto samples = forecastHourly(48, [](int h) {
        return 10 * kForecastGiB + qint64(h) * kForecastGiB;
    });
    const CapacityForecast f = forecastFill(samples, 0, samples.constLast().time);
    EXPECT_EQ(f.trend, CapacityForecast::Trend::Growing);
    EXPECT_NEAR(f.bytesPerDay / double(kForecastGiB), 24.0, 1e-6);
    EXPECT_FALSE(f.fullAt.isValid());
    EXPECT_FALSE(f.fullAtEarliest.isValid());
}

TEST(ForecastAll, JoinsHistoryByKindAndListsFullSoonestFirst)
{
    const QDateTime now = kForecastStart.addDays(7);
    const auto container = [](const QString &id, ContainerKind kind, qint64 capacity, qint64 used) {
        ForecastContainer c;
        c.source = QStringLiteral("s");
        c.kind = kind;
        c.id = id;
        c.name = id;
        c.capacityBytes = capacity;
        c.usedBytes = used;
        return c;
    };
    const auto series = [](const QString &id, const QString &kind, qint64 perHour, qint64 base) {
        CapacitySeries s{QStringLiteral("s"), kind, id, {}};
        for (int h = 0; h < 7 * 24; ++h) {
            s.samples.push_back({kForecastStart.addSecs(qint64(h) * 3600), base + perHour * h, 0});
        }
        return s;
    };
    std::vector<ForecastContainer> containers{
        container(QStringLiteral("flat"), ContainerKind::Volume, 100 * kForecastGiB, 90 * kForecastGiB),
        container(QStringLiteral("slow"), ContainerKind::Volume, 1000 * kForecastGiB, 0),
        container(QStringLiteral("fast"), ContainerKind::Pool, 1000 * kForecastGiB, 0),
        container(QStringLiteral("full"), ContainerKind::Aggregate, 10 * kForecastGiB, 10 * kForecastGiB),
        container(QStringLiteral("new"), ContainerKind::Bucket, 0, 5 * kForecastGiB),
        // Same id as "fast" but another kind: it must not take the pool's history.
        container(QStringLiteral("fast"), ContainerKind::Tenant, 1000 * kForecastGiB, 1),
    };
    containers[1].releases = {CapacityRelease{now.addDays(1), kForecastGiB}, CapacityRelease{now.addDays(2), 2}};
    const std::vector<CapacitySeries> history{
        series(QStringLiteral("fast"), QStringLiteral("pool"), kForecastGiB, 0),
        series(QStringLiteral("flat"), QStringLiteral("volume"), 0, 90 * kForecastGiB),
        series(QStringLiteral("slow"), QStringLiteral("volume"), kForecastGiB / 8, 0)};
    const std::vector<ContainerForecast> out = forecastAll(containers, history, now);
    ASSERT_EQ(out.size(), 6u);
    QStringList order;
    for (const ContainerForecast &f : out) {
        order << f.container.id + QLatin1Char(':') + containerKindName(f.container.kind);
    }
    EXPECT_EQ(order,
              (QStringList{QStringLiteral("full:aggregate"),
                           QStringLiteral("fast:pool"),
                           QStringLiteral("slow:volume"),
                           QStringLiteral("flat:volume"),
                           QStringLiteral("fast:tenant"),
                           QStringLiteral("new:bucket")}))
        << "without a capacity, a bucket sorts after every container with one";
    EXPECT_EQ(out[0].forecast.trend, CapacityForecast::Trend::Full) << "full from the estate, without history";
    EXPECT_EQ(out[1].forecast.trend, CapacityForecast::Trend::Growing);
    EXPECT_EQ(out[2].releasedBytes, kForecastGiB + 2);
    EXPECT_EQ(out[3].forecast.trend, CapacityForecast::Trend::NoTrend);
    EXPECT_EQ(out[4].forecast.trend, CapacityForecast::Trend::TooLittleData);
    EXPECT_EQ(out[4].forecast.samples, 0);
    EXPECT_EQ(out[5].forecast.usedBytes, 5 * kForecastGiB) << "the estate's level when there is no history";
}

// Refreshing faster than a computation takes (a page polling, a burst of polls) must not starve
// it: each call during a computation only asks for one more after it.
TEST(ForecastServiceTest, RefreshesFasterThanAComputationStillAnswer)
{
    strata::testsupport::ManualClock clock(kForecastStart.addDays(2));
    HistoryService history(std::make_unique<SqlHistoryStore>(QStringLiteral(":memory:"), clock));
    ASSERT_TRUE(history.openError().isEmpty());
    Estate estate;
    seedGrowingVolume(estate, history);
    ForecastService service(estate, clock, &history);
    int changes = 0;
    QObject::connect(&service, &ForecastService::changed, [&changes] {
        ++changes;
    });
    // A refresh at every turn of the event loop, as long as the test waits.
    QTimer hammer;
    QObject::connect(&hammer, &QTimer::timeout, &service, &ForecastService::refresh);
    hammer.start(0);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return changes >= 1 && !service.forecasts().empty()
                   && service.forecasts().front().forecast.trend == CapacityForecast::Trend::Growing;
        },
        30000));
    hammer.stop();
    EXPECT_EQ(service.forecasts().front().container.name, QStringLiteral("svm/data"));
}

TEST(ForecastServiceTest, AHistoryThatCannotBeReadKeepsTheForecastsItHadAndSaysWhy)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("history.db"));
    strata::testsupport::ManualClock clock(kForecastStart.addDays(2));
    HistoryService history(std::make_unique<SqlHistoryStore>(path, clock));
    ASSERT_TRUE(history.openError().isEmpty());
    Estate estate;
    seedGrowingVolume(estate, history);
    ForecastService service(estate, clock, &history);
    const auto growing = [&] {
        return !service.forecasts().empty()
               && service.forecasts().front().forecast.trend == CapacityForecast::Trend::Growing;
    };
    ASSERT_TRUE(QTest::qWaitFor(growing, 30000));
    const QDateTime computed = service.computedAt();

    // Another connection takes the samples away: every read of the capacity history now fails.
    ASSERT_TRUE(strata::testsupport::renameSqliteTable(path, "capacity_sample", "capacity_sample_away"));
    clock.advance(std::chrono::minutes(1));
    service.refresh();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return !service.historyError().isEmpty();
        },
        30000));
    EXPECT_TRUE(growing()) << "a failed read is not \"every container has too little data\"";
    EXPECT_EQ(service.computedAt(), computed) << "the forecasts shown are still those of the last read";

    ASSERT_TRUE(strata::testsupport::renameSqliteTable(path, "capacity_sample_away", "capacity_sample"));
    service.refresh();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return service.historyError().isEmpty();
        },
        30000));
    EXPECT_TRUE(growing());
    EXPECT_GT(service.computedAt(), computed);
}
