#include "models/rows/forecastrows.h"

#include "models/core/domain/format.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>

namespace strata::rows {

namespace {

QVariant timeOrNull(const QDateTime &t)
{
    return t.isValid() ? QVariant(t.toUTC()) : QVariant();
}

double daysBetween(const QDateTime &from, const QDateTime &to)
{
    return double(from.msecsTo(to)) / 86'400'000.0;
}

// Hours under two days, days under a year, years from there ("in 629 days" beside "in 13 years"
// in one column read as if the first came sooner by far).
enum class SpanUnit
{
    Hours,
    Days,
    Years
};

constexpr double kDaysPerYear = 365.25;

SpanUnit unitOf(double days)
{
    return days < 2.0 ? SpanUnit::Hours : days < 365.0 ? SpanUnit::Days : SpanUnit::Years;
}

double spanValue(double days, SpanUnit unit)
{
    switch (unit) {
    case SpanUnit::Hours:
        return std::max(0.0, days * 24.0);
    case SpanUnit::Days:
        return std::max(0.0, days);
    case SpanUnit::Years:
        break;
    }
    return std::max(0.0, days / kDaysPerYear);
}

// Years are written with one decimal while the median is under ten ("in 1.7 years (1.1–3.2)"),
// whole beyond; hours and days whole. A whole band shares the median's precision.
bool tenthsOf(double medianDays, SpanUnit unit)
{
    return unit == SpanUnit::Years && spanValue(medianDays, unit) < 9.95;
}

// A number of `unit`, in tenths when `tenths`; an end under one unit keeps a decimal so a near
// end never reads "0".
QString spanNumberText(double days, SpanUnit unit, bool tenths)
{
    const double value = spanValue(days, unit);
    if ((value > 0.0 && value < 0.95) || tenths) {
        return QLocale::c().toString(std::max(0.1, std::round(value * 10.0) / 10.0), 'f', 1);
    }
    return QString::number(std::lround(value));
}

QString spanText(double days, SpanUnit unit)
{
    switch (unit) {
    case SpanUnit::Hours:
        return QCoreApplication::translate("rows", "%n h", nullptr, int(std::lround(spanValue(days, unit))));
    case SpanUnit::Days:
        return QCoreApplication::translate("rows", "%n days", nullptr, int(std::lround(spanValue(days, unit))));
    case SpanUnit::Years:
        break;
    }
    return QCoreApplication::translate("rows", "%1 years").arg(spanNumberText(days, unit, tenthsOf(days, unit)));
}

} // namespace

QString forecastFullInText(const core::CapacityForecast &forecast, const QDateTime &now)
{
    using Trend = core::CapacityForecast::Trend;
    switch (forecast.trend) {
    case Trend::Full:
        return QCoreApplication::translate("rows", "full");
    case Trend::NoTrend:
        return QCoreApplication::translate("rows", "no trend");
    case Trend::TooLittleData:
        return QCoreApplication::translate("rows", "too little data");
    case Trend::Growing:
        break;
    }
    if (forecast.capacityBytes <= 0) {
        return QCoreApplication::translate("rows", "growing, no limit");
    }
    if (!forecast.fullAt.isValid()) {
        return QCoreApplication::translate("rows", "not within 100 years");
    }
    const double median = daysBetween(now, forecast.fullAt);
    const SpanUnit unit = unitOf(median);
    const QString medianText = spanText(median, unit);
    const bool tenths = tenthsOf(median, unit);
    if (!forecast.fullAtEarliest.isValid()) {
        return QCoreApplication::translate("rows", "in %1").arg(medianText);
    }
    // The whole band in the median's unit ("in 12 days (9–17)", "in 40 h (30–70)"): one unit,
    // so the ends read against the median without a second unit in between.
    const auto bandEnd = [&](const QDateTime &at) {
        return at.isValid() ? spanNumberText(daysBetween(now, at), unit, tenths) : QStringLiteral("∞");
    };
    const QString early = bandEnd(forecast.fullAtEarliest);
    const QString late = bandEnd(forecast.fullAtLatest);
    // A band narrower than the unit says nothing the median does not.
    if (early == late && early == spanNumberText(median, unit, tenths)) {
        return QCoreApplication::translate("rows", "in %1").arg(medianText);
    }
    return QCoreApplication::translate("rows", "in %1 (%2–%3)").arg(medianText, early, late);
}

ResultSet forecastRows(const std::vector<core::ContainerForecast> &forecasts, const QDateTime &now)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("kind"), QStringLiteral("KIND")},
                  {QStringLiteral("id"), QString()},
                  {QStringLiteral("name"), QStringLiteral("NAME")},
                  {QStringLiteral("trend"), QString()},
                  {QStringLiteral("used_bytes"), QStringLiteral("USED")},
                  {QStringLiteral("capacity_bytes"), QStringLiteral("CAPACITY")},
                  {QStringLiteral("percent_used"), QStringLiteral("USED%")},
                  {QStringLiteral("growth_bytes_per_day"), QStringLiteral("GROWTH/DAY")},
                  {QStringLiteral("growth_low_bytes_per_day"), QString()},
                  {QStringLiteral("growth_high_bytes_per_day"), QString()},
                  {QStringLiteral("full_at"), QString()},
                  {QStringLiteral("full_earliest"), QString()},
                  {QStringLiteral("full_latest"), QString()},
                  {QStringLiteral("days_to_full"), QString()},
                  {QStringLiteral("full_in"), QStringLiteral("FULL IN")},
                  {QStringLiteral("released_bytes"), QString()},
                  {QStringLiteral("samples"), QStringLiteral("SAMPLES")},
                  {QStringLiteral("history_from"), QString()},
                  {QStringLiteral("history_to"), QString()}};
    for (const core::ContainerForecast &row : forecasts) {
        const core::ForecastContainer &c = row.container;
        const core::CapacityForecast &f = row.forecast;
        const bool hasCapacity = c.capacityBytes > 0;
        // The figures of the container's own row (volume, pool, bucket...), unknown as unknown.
        const std::optional<qint64> used = core::forecastShownUsedBytes(row);
        const std::optional<double> percent = core::forecastShownPercent(row);
        const bool hasSlope =
            f.trend == core::CapacityForecast::Trend::Growing || f.trend == core::CapacityForecast::Trend::NoTrend;
        const QVariant days = f.fullAt.isValid() && f.trend == core::CapacityForecast::Trend::Growing
                                  ? QVariant(std::round(daysBetween(now, f.fullAt) * 10.0) / 10.0)
                                  : QVariant();
        const QString kind = core::containerKindName(c.kind);
        rs.addRow(
            {c.source,
             kind,
             c.id,
             c.name,
             core::forecastTrendName(f.trend),
             used ? QVariant(*used) : QVariant(),
             hasCapacity ? QVariant(c.capacityBytes) : QVariant(),
             percent ? QVariant(std::round(*percent * 10.0) / 10.0) : QVariant(),
             hasSlope ? QVariant(qint64(std::llround(f.bytesPerDay))) : QVariant(),
             hasSlope ? QVariant(qint64(std::llround(f.bytesPerDayLow))) : QVariant(),
             hasSlope ? QVariant(qint64(std::llround(f.bytesPerDayHigh))) : QVariant(),
             timeOrNull(f.fullAt),
             timeOrNull(f.fullAtEarliest),
             timeOrNull(f.fullAtLatest),
             days,
             forecastFullInText(f, now),
             row.releasedBytes,
             f.samples,
             timeOrNull(f.from),
             timeOrNull(f.to)},
            {c.source,
             kind,
             c.id,
             c.name,
             core::forecastTrendName(f.trend),
             core::formatBytes(used),
             hasCapacity ? core::formatBytes(c.capacityBytes) : QString::fromUtf16(core::kUnknownText),
             core::formatPercent(percent),
             hasSlope ? core::formatBytesDelta(std::llround(f.bytesPerDay)) : QString::fromUtf16(core::kUnknownText),
             QString(),
             QString(),
             QString(),
             QString(),
             QString(),
             QString(),
             forecastFullInText(f, now),
             QString(),
             QString::number(f.samples),
             QString(),
             {}});
    }
    return rs;
}

} // namespace strata::rows
