#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

namespace strata::core {

/// Capacity a container will get back at a known time: a cached commit the eviction policy
/// clears at `at` (cachepolicy.h applyEvictionPolicy()).
struct CapacityRelease
{
    QDateTime at;     ///< UTC; at or before `now` = due now
    qint64 bytes = 0; ///< > 0
};

/// One observation of a container's used capacity (a volume, pool, bucket, cache target).
struct CapacitySample
{
    QDateTime time; ///< UTC
    qint64 usedBytes = 0;
};

/// When a container fills, from its history: a Theil–Sen trend (the median of the slopes between
/// every pair of samples, robust to outliers and to a step change that is not a trend) with the
/// 95 % band of Sen's rank method. Growth is only claimed when the whole band is above zero.
struct CapacityForecast
{
    enum class Trend
    {
        TooLittleData, ///< fewer than kMinSamples samples or less than kMinSpan of history
        NoTrend,       ///< flat, shrinking, or too noisy to tell growth from zero
        Growing,       ///< the band's lower slope is above zero
        Full,          ///< already at or over capacity
    };
    Trend trend = Trend::TooLittleData;
    double bytesPerDay = 0;     ///< the median slope (may be <= 0)
    double bytesPerDayLow = 0;  ///< lower end of the 95 % band
    double bytesPerDayHigh = 0; ///< upper end of the 95 % band
    qint64 usedBytes = 0;       ///< the level the forecast starts from: the median of the last samples
    qint64 capacityBytes = 0;
    QDateTime fullAt;         ///< Growing: at the median slope; else invalid
    QDateTime fullAtEarliest; ///< Growing: at the band's upper slope
    QDateTime fullAtLatest;   ///< Growing: at the band's lower slope
    int samples = 0;          ///< how many samples it used (after thinning, see forecastFill)
    QDateTime from;           ///< the first and last sample's time
    QDateTime to;
};

/// Samples and span below which no trend is claimed.
inline constexpr int kForecastMinSamples = 6;
inline constexpr qint64 kForecastMinSpanSeconds = 6 * 3600;

/// The fill forecast of a container of `capacityBytes` from `samples` in any order, as seen at
/// `now`. More than 400 samples are read as the level at 400 evenly spaced times (linear between
/// samples; the pairwise slopes grow with the square), so the same history gives the same
/// forecast however densely it was polled; the level now is the median of the last five
/// samples. Samples with invalid times are ignored.
/// `capacityBytes` <= 0 means no limit (a bucket without quota): the trend is still told, with no fill dates.
/// `releases` (any order) lower the projected level from their time on, so a cache target whose commits are due for
/// eviction fills later by what they free; the trend itself is the history's.
CapacityForecast forecastFill(QList<CapacitySample> samples,
                              qint64 capacityBytes,
                              const QDateTime &now,
                              QList<CapacityRelease> releases = {});

/// "growing", "no_trend", "too_little_data", "full".
QString forecastTrendName(CapacityForecast::Trend trend);

} // namespace strata::core
