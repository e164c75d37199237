#include "models/core/domain/format.h"

#include <cmath>

namespace strata::core {

namespace {

const char *const kBinaryByteUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
constexpr int kLargestBinaryUnit = 5;

// The magnitude of `value` in its own binary unit, per format.h's digit rules; `unit` gets the
// unit's index. Rounding is decided before the unit, so 1,023.97 KiB reads "1.0 MiB".
QString binaryMagnitude(double value, const QLocale &locale, int *unit)
{
    double magnitude = std::abs(value);
    int u = 0;
    while (u < kLargestBinaryUnit) {
        const double rounded = magnitude < 100 ? std::round(magnitude * 10) / 10 : std::round(magnitude);
        if (u == 0 ? std::round(magnitude) < 1024 : rounded < 1024) {
            break;
        }
        magnitude /= 1024.0;
        ++u;
    }
    *unit = u;
    int decimals = 0;
    if (u > 0) {
        decimals = std::round(magnitude * 10) / 10 < 100 ? 1 : 0;
    }
    return locale.toString(u == 0 ? std::round(magnitude) : magnitude, 'f', decimals);
}

QString binaryFigure(double value, const QLocale &locale, const QString &suffix)
{
    int unit = 0;
    const QString number = binaryMagnitude(value, locale, &unit);
    QString text = number + QLatin1Char(' ') + QLatin1String(kBinaryByteUnits[unit]) + suffix;
    // "-0.0 KiB" is not a figure anyone reported: only non-zero negatives keep their sign.
    if (value < 0 && std::round(std::abs(value)) != 0) {
        text.prepend(locale.negativeSign());
    }
    return text;
}

} // namespace

QString formatBytes(qint64 bytes, const QLocale &locale)
{
    return binaryFigure(static_cast<double>(bytes), locale, {});
}

QString formatBytes(const std::optional<qint64> &bytes)
{
    return bytes ? formatBytes(*bytes) : QString::fromUtf16(kUnknownText);
}

QString formatBytesDelta(qint64 bytes, const QLocale &locale)
{
    if (bytes == 0) {
        return formatBytes(0, locale);
    }
    const QString magnitude = binaryFigure(std::abs(static_cast<double>(bytes)), locale, {});
    return (bytes > 0 ? QStringLiteral("+") : QStringLiteral("\u2212")) + magnitude;
}

QString formatRate(double bytesPerSecond, const QLocale &locale)
{
    if (!std::isfinite(bytesPerSecond) || bytesPerSecond < 0) {
        return QString::fromUtf16(kUnknownText);
    }
    return binaryFigure(bytesPerSecond, locale, QStringLiteral("/s"));
}

QString formatRateMibps(double mibps, const QLocale &locale)
{
    return mibps < 0 ? QString::fromUtf16(kUnknownText) : formatRate(mibps * units::kMiB, locale);
}

QString formatVendorMegabytesPerSecond(qint64 megabytesPerSecond, const QLocale &locale)
{
    return locale.toString(megabytesPerSecond) + QStringLiteral(" MB/s");
}

QString formatPercent(const std::optional<double> &percent, const QLocale &locale)
{
    return percent ? locale.toString(*percent, 'f', 1) + QStringLiteral(" %") : QString::fromUtf16(kUnknownText);
}

QString formatCount(qint64 count, const QLocale &locale)
{
    return locale.toString(count);
}

QString formatGpus(MilliGpu milli)
{
    const bool negative = milli < 0;
    const MilliGpu abs = negative ? -milli : milli;
    // Round to hundredths, then drop trailing zeros.
    const MilliGpu hundredths = (abs + 5) / 10;
    QString text = QString::number(hundredths / 100);
    const MilliGpu frac = hundredths % 100;
    if (frac != 0) {
        text += QLatin1Char('.') + QString::number(frac).rightJustified(2, QLatin1Char('0'));
        while (text.endsWith(QLatin1Char('0'))) {
            text.chop(1);
        }
    }
    return negative ? QLatin1Char('-') + text : text;
}

QString formatDuration(qint64 seconds)
{
    if (seconds < 0) {
        return QString::fromUtf16(kUnknownText);
    }
    const qint64 days = seconds / 86400;
    const qint64 hours = seconds % 86400 / 3600;
    const qint64 minutes = seconds % 3600 / 60;
    const qint64 secs = seconds % 60;
    const auto two = [](qint64 v) {
        return QString::number(v).rightJustified(2, QLatin1Char('0'));
    };
    if (days > 0) {
        return QString::number(days) + QStringLiteral("d ") + two(hours) + QLatin1Char('h');
    }
    if (hours > 0) {
        return QString::number(hours) + QStringLiteral("h ") + two(minutes) + QLatin1Char('m');
    }
    if (minutes > 0) {
        return QString::number(minutes) + QStringLiteral("m ") + two(secs) + QLatin1Char('s');
    }
    return QString::number(secs) + QLatin1Char('s');
}

} // namespace strata::core
