#include "models/core/planning/forecast.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace strata::core {

namespace {

constexpr int kMaxForecastSamples = 400;
constexpr double kSecondsPerDay = 86400.0;

// The first time the projected level reaches `capacityBytes`: a line of `bytesPerDay` from
// `usedBytes` at `now`, stepped down by each release from its time on. `releases` sorted by time.
QDateTime fillDate(const QDateTime &now,
                   qint64 usedBytes,
                   qint64 capacityBytes,
                   double bytesPerDay,
                   const QList<CapacityRelease> &releases)
{
    if (bytesPerDay <= 0) {
        return {};
    }
    double freed = 0;
    qsizetype next = 0;
    while (next < releases.size() && releases[next].at <= now) {
        freed += double(releases[next++].bytes);
    }
    QDateTime segmentStart = now;
    for (;;) {
        const double days = (double(capacityBytes) - double(usedBytes) + freed) / bytesPerDay;
        // Beyond a century the date means nothing; say "not within the horizon" (invalid).
        if (!std::isfinite(days) || days > 36500) {
            return {};
        }
        const QDateTime at = now.addMSecs(qint64(days * kSecondsPerDay * 1000.0));
        if (next >= releases.size() || at < releases[next].at) {
            return std::max(at, segmentStart);
        }
        segmentStart = releases[next].at;
        freed += double(releases[next++].bytes);
    }
}

// More than kMaxForecastSamples samples: the level at kMaxForecastSamples evenly spaced times,
// linear between the samples around each, so the trend follows the history's course over time
// and not how often it was polled (a process that polled a volume every 30 s for a day and one
// that kept a sample every five minutes read the same line from the same history). A time in a
// gap of more than four steps is left out rather than made up. `samples` sorted by time.
QList<CapacitySample> resampledOnGrid(const QList<CapacitySample> &samples)
{
    if (samples.size() <= kMaxForecastSamples) {
        return samples;
    }
    const qint64 first = samples.constFirst().time.toMSecsSinceEpoch();
    const qint64 span = samples.constLast().time.toMSecsSinceEpoch() - first;
    if (span <= 0) {
        return samples.mid(samples.size() - kMaxForecastSamples);
    }
    const double step = double(span) / double(kMaxForecastSamples - 1);
    QList<CapacitySample> out;
    out.reserve(kMaxForecastSamples);
    qsizetype j = 0;
    for (int k = 0; k < kMaxForecastSamples; ++k) {
        const qint64 t = k == kMaxForecastSamples - 1 ? first + span : first + std::llround(double(k) * step);
        while (j + 2 < samples.size() && samples[j + 1].time.toMSecsSinceEpoch() <= t) {
            ++j;
        }
        const CapacitySample &a = samples[j];
        const CapacitySample &b = samples[j + 1];
        const qint64 ta = a.time.toMSecsSinceEpoch();
        const qint64 tb = b.time.toMSecsSinceEpoch();
        qint64 used = a.usedBytes;
        if (t >= tb) {
            used = b.usedBytes;
        } else if (t > ta && tb > ta) {
            if (double(tb - ta) > 4.0 * step) {
                continue;
            }
            used = a.usedBytes + std::llround(double(b.usedBytes - a.usedBytes) * double(t - ta) / double(tb - ta));
        }
        out.append(CapacitySample{QDateTime::fromMSecsSinceEpoch(t, Qt::UTC), used});
    }
    return out;
}

} // namespace

QString forecastTrendName(CapacityForecast::Trend trend)
{
    switch (trend) {
    case CapacityForecast::Trend::NoTrend:
        return QStringLiteral("no_trend");
    case CapacityForecast::Trend::Growing:
        return QStringLiteral("growing");
    case CapacityForecast::Trend::Full:
        return QStringLiteral("full");
    case CapacityForecast::Trend::TooLittleData:
        break;
    }
    return QStringLiteral("too_little_data");
}

CapacityForecast
forecastFill(QList<CapacitySample> samples, qint64 capacityBytes, const QDateTime &now, QList<CapacityRelease> releases)
{
    releases.removeIf([](const CapacityRelease &r) {
        return !r.at.isValid() || r.bytes <= 0;
    });
    std::sort(releases.begin(), releases.end(), [](const CapacityRelease &a, const CapacityRelease &b) {
        return a.at < b.at;
    });
    samples.removeIf([](const CapacitySample &s) {
        return !s.time.isValid();
    });
    std::sort(samples.begin(), samples.end(), [](const CapacitySample &a, const CapacitySample &b) {
        return a.time < b.time;
    });
    CapacityForecast f;
    f.capacityBytes = capacityBytes;
    if (samples.isEmpty()) {
        return f;
    }
    f.from = samples.constFirst().time;
    f.to = samples.constLast().time;
    // The level now: the median of the last few samples, so one odd reading does not move it.
    std::vector<qint64> tail;
    for (qsizetype i = std::max<qsizetype>(0, samples.size() - 5); i < samples.size(); ++i) {
        tail.push_back(samples[i].usedBytes);
    }
    std::nth_element(tail.begin(), tail.begin() + qsizetype(tail.size() / 2), tail.end());
    f.usedBytes = tail[tail.size() / 2];
    samples = resampledOnGrid(samples);
    f.samples = int(samples.size());
    if (capacityBytes > 0 && f.usedBytes >= capacityBytes) {
        f.trend = CapacityForecast::Trend::Full;
        f.fullAt = f.fullAtEarliest = f.fullAtLatest = f.to;
        return f;
    }
    if (samples.size() < kForecastMinSamples || f.from.secsTo(f.to) < kForecastMinSpanSeconds) {
        return f;
    }

    std::vector<double> slopes; // bytes per day
    slopes.reserve(std::size_t(samples.size() * (samples.size() - 1) / 2));
    for (qsizetype i = 0; i < samples.size(); ++i) {
        for (qsizetype j = i + 1; j < samples.size(); ++j) {
            const qint64 ms = samples[i].time.msecsTo(samples[j].time);
            if (ms > 0) {
                slopes.push_back(double(samples[j].usedBytes - samples[i].usedBytes) / (double(ms) / 1000.0)
                                 * kSecondsPerDay);
            }
        }
    }
    if (slopes.empty()) {
        return f;
    }
    std::sort(slopes.begin(), slopes.end());
    const auto at = [&slopes](double rank) {
        const auto index = std::clamp<qsizetype>(qsizetype(std::llround(rank)), 0, qsizetype(slopes.size()) - 1);
        return slopes[std::size_t(index)];
    };
    const double pairs = double(slopes.size());
    f.bytesPerDay = slopes.size() % 2 == 1 ? slopes[slopes.size() / 2]
                                           : (slopes[slopes.size() / 2 - 1] + slopes[slopes.size() / 2]) / 2.0;
    // Sen's 95 % band: ranks (N ∓ C) / 2 with C = 1.96 · sqrt(n(n-1)(2n+5)/18) (Kendall's S variance).
    const double n = double(samples.size());
    const double c = 1.96 * std::sqrt(n * (n - 1.0) * (2.0 * n + 5.0) / 18.0);
    f.bytesPerDayLow = at((pairs - c) / 2.0 - 1.0);
    f.bytesPerDayHigh = at((pairs + c) / 2.0);
    if (f.bytesPerDayLow <= 0) {
        f.trend = CapacityForecast::Trend::NoTrend;
        return f;
    }
    f.trend = CapacityForecast::Trend::Growing;
    if (capacityBytes <= 0) {
        return f;
    }
    f.fullAt = fillDate(now, f.usedBytes, capacityBytes, f.bytesPerDay, releases);
    f.fullAtEarliest = fillDate(now, f.usedBytes, capacityBytes, f.bytesPerDayHigh, releases);
    f.fullAtLatest = fillDate(now, f.usedBytes, capacityBytes, f.bytesPerDayLow, releases);
    return f;
}

} // namespace strata::core
