#pragma once

#include <QDateTime>
#include <QLocale>
#include <QString>

#include <algorithm>

namespace strata::views {

/// The time span a history chart shows: the chosen range [from, to], unless history starts
/// well inside it (a fresh install, a new volume): then the axis starts at the first sample, so
/// little data fills the chart instead of a dot at the right edge, and `collectingSince` names
/// that time in the user's locale ("04:57"; with the date when it is not today), for a
/// "collecting since …" caption. `collectingSince` is empty when the chart shows the full range.
struct ChartWindow
{
    QDateTime left;
    QString collectingSince;
};

/// `firstSample` invalid = no samples (the full range). "Well inside" = more than a tenth of
/// the range after `from`; at least five minutes are shown.
inline ChartWindow chartWindow(const QDateTime &from, const QDateTime &to, const QDateTime &firstSample)
{
    ChartWindow w;
    w.left = from.isValid() ? from : to.addSecs(-3600);
    if (!firstSample.isValid() || !to.isValid()) {
        return w;
    }
    const qint64 range = w.left.secsTo(to);
    if (range <= 0 || w.left.secsTo(firstSample) <= range / 10) {
        return w;
    }
    w.left = std::min(firstSample, to.addSecs(-300));
    const QDateTime local = firstSample.toLocalTime();
    const QLocale locale;
    // Minutes are enough for "since when" (the C locale's short format carries seconds).
    QString time = locale.timeFormat(QLocale::ShortFormat);
    time.remove(QStringLiteral(":ss"));
    w.collectingSince = local.date() == to.toLocalTime().date()
                            ? locale.toString(local.time(), time)
                            : locale.toString(local, locale.dateFormat(QLocale::ShortFormat) + QLatin1Char(' ') + time);
    return w;
}

} // namespace strata::views
