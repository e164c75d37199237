#include "models/item/forecastmodel.h"

#include "models/core/domain/format.h"
#include "models/rows/forecastrows.h"

#include <QLocale>

#include <cmath>
#include <limits>

namespace strata::models {

namespace {

using ForecastTrend = core::CapacityForecast::Trend;

bool sameReleases(const QList<core::CapacityRelease> &a, const QList<core::CapacityRelease> &b)
{
    if (a.size() != b.size()) {
        return false;
    }
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].at != b[i].at || a[i].bytes != b[i].bytes) {
            return false;
        }
    }
    return true;
}

// The figures of the container's own row, as `get forecasts` and the web show them; -1 without
// a limit or a level.
double forecastUsedPercent(const core::ContainerForecast &f)
{
    return core::forecastShownPercent(f).value_or(-1.0);
}

QString forecastGrowthText(double bytesPerDay)
{
    return ForecastTableModel::tr("%1/day").arg(core::formatBytesDelta(std::llround(bytesPerDay)));
}

bool forecastHasSlope(const core::CapacityForecast &f)
{
    return f.trend == ForecastTrend::Growing || f.trend == ForecastTrend::NoTrend;
}

// "5 h" under two days, "12 days" from there (the "full in" texts' spans).
QString forecastSpanText(qint64 seconds)
{
    const double days = double(seconds) / 86400.0;
    if (days < 2.0) {
        return ForecastTableModel::tr("%n h", nullptr, int(std::lround(std::max(0.0, days * 24.0))));
    }
    return ForecastTableModel::tr("%n days", nullptr, int(std::lround(days)));
}

} // namespace

bool ForecastRecord::operator==(const ForecastRecord &other) const
{
    const core::ForecastContainer &a = forecast.container;
    const core::ForecastContainer &b = other.forecast.container;
    const core::CapacityForecast &f = forecast.forecast;
    const core::CapacityForecast &g = other.forecast.forecast;
    return source == other.source && id == other.id && a.name == b.name && a.capacityBytes == b.capacityBytes
           && a.usedBytes == b.usedBytes && sameReleases(a.releases, b.releases)
           && forecast.releasedBytes == other.forecast.releasedBytes && f.trend == g.trend
           && f.bytesPerDay == g.bytesPerDay && f.bytesPerDayLow == g.bytesPerDayLow
           && f.bytesPerDayHigh == g.bytesPerDayHigh && f.usedBytes == g.usedBytes && f.capacityBytes == g.capacityBytes
           && f.fullAt == g.fullAt && f.fullAtEarliest == g.fullAtEarliest && f.fullAtLatest == g.fullAtLatest
           && f.samples == g.samples && f.from == g.from && f.to == g.to;
}

ForecastTableModel::ForecastTableModel(core::ForecastService *forecasts,
                                       std::function<QDateTime()> now,
                                       QObject *parent)
    : KeyedTableModel<ForecastRecord>(ColumnCount, parent)
    , m_now(std::move(now))
    , m_tickNow(m_now())
{
    setNumericColumns({Growth, History});
    if (forecasts) {
        const auto update = [this, forecasts] {
            setForecasts(forecasts->forecasts());
            if (forecasts->historyError() != m_historyError || forecasts->computedAt() != m_computedAt) {
                m_historyError = forecasts->historyError();
                m_computedAt = forecasts->computedAt();
                Q_EMIT statusChanged();
            }
        };
        connect(forecasts, &core::ForecastService::changed, this, update);
        update();
    }
}

ForecastTableModel::~ForecastTableModel() = default;

QString ForecastTableModel::key(const core::ContainerForecast &forecast)
{
    return forecast.container.source + QLatin1Char('/') + core::containerKindName(forecast.container.kind)
           + QLatin1Char('/') + forecast.container.id;
}

void ForecastTableModel::setForecasts(const std::vector<core::ContainerForecast> &forecasts)
{
    std::vector<core::Ptr<ForecastRecord>> records;
    records.reserve(forecasts.size());
    for (const core::ContainerForecast &f : forecasts) {
        ForecastRecord record;
        record.source = f.container.source;
        record.id = core::containerKindName(f.container.kind) + QLatin1Char('/') + f.container.id;
        record.forecast = f;
        // An unchanged forecast keeps its shown record: the diff then skips it by pointer.
        if (m_shown) {
            if (core::Ptr<ForecastRecord> shown = m_shown->find(core::estateKey(record)); shown && *shown == record) {
                records.push_back(std::move(shown));
                continue;
            }
        }
        records.push_back(std::make_shared<const ForecastRecord>(std::move(record)));
    }
    auto next = std::make_unique<core::KeyedList<ForecastRecord>>(std::move(records));
    applyDiff(core::diffOf(m_shown.get(), *next));
    m_shown = std::move(next);
    // "full in" is relative: rows whose figures did not change may still read differently now.
    if (m_now() != m_tickNow) {
        tick();
    }
}

void ForecastTableModel::tick()
{
    const QDateTime now = m_now();
    if (now == m_tickNow) {
        return;
    }
    m_tickNow = now;
    const std::vector<int> dated = rowsWhere([](const ForecastRecord &r) {
        return r.forecast.forecast.fullAt.isValid();
    });
    // The texts and the warning (StatusRole of every column) depend on now.
    emitChanged(dated, 0, ColumnCount - 1);
}

QString ForecastTableModel::kindText(core::ContainerKind kind)
{
    switch (kind) {
    case core::ContainerKind::Volume:
        return tr("Volume");
    case core::ContainerKind::Aggregate:
        return tr("Aggregate");
    case core::ContainerKind::Pool:
        return tr("Capacity pool");
    case core::ContainerKind::Bucket:
        return tr("Bucket");
    case core::ContainerKind::Tenant:
        return tr("Tenant");
    case core::ContainerKind::CacheTarget:
        return tr("Cache target");
    }
    return {};
}

QString ForecastTableModel::trendText(core::CapacityForecast::Trend trend)
{
    switch (trend) {
    case ForecastTrend::Growing:
        return tr("Growing");
    case ForecastTrend::Full:
        return tr("Full");
    case ForecastTrend::NoTrend:
        return tr("No trend");
    case ForecastTrend::TooLittleData:
        return tr("Too little data");
    }
    return {};
}

QString ForecastTableModel::severity(const core::ContainerForecast &forecast, const QDateTime &now)
{
    const core::CapacityForecast &f = forecast.forecast;
    if (f.trend == ForecastTrend::Full) {
        return QStringLiteral("critical");
    }
    if (f.trend == ForecastTrend::Growing && f.fullAt.isValid() && f.fullAt <= now.addDays(kSoonDays)) {
        return QStringLiteral("warning");
    }
    return QStringLiteral("ok");
}

double ForecastTableModel::fullInSortKey(const core::ContainerForecast &forecast)
{
    const core::CapacityForecast &f = forecast.forecast;
    const double percent = forecastUsedPercent(forecast);
    if (f.trend == ForecastTrend::Full) {
        return -1e15 - std::max(0.0, percent);
    }
    if (f.trend == ForecastTrend::Growing && f.fullAt.isValid()) {
        return double(f.fullAt.toMSecsSinceEpoch());
    }
    return 1e16 - percent * 1e12;
}

QVariant ForecastTableModel::displayData(const ForecastRecord &record, int column) const
{
    const core::ContainerForecast &row = record.forecast;
    const core::CapacityForecast &f = row.forecast;
    switch (column) {
    case Name:
        return row.container.name;
    case Kind:
        return kindText(row.container.kind);
    case Source:
        return row.container.source;
    case Used:
        if (row.container.capacityBytes <= 0) {
            return tr("%1 · no limit").arg(core::formatBytes(core::forecastShownUsedBytes(row)));
        }
        return tr("%1 / %2 (%3)")
            .arg(core::formatBytes(core::forecastShownUsedBytes(row)),
                 core::formatBytes(row.container.capacityBytes),
                 core::formatPercent(core::forecastShownPercent(row)));
    case Growth:
        return forecastHasSlope(f) ? forecastGrowthText(f.bytesPerDay) : QString::fromUtf16(core::kUnknownText);
    case FullIn:
        return rows::forecastFullInText(f, m_tickNow);
    case Trend:
        return trendText(f.trend);
    case History: {
        const QString samples = f.samples == 1 ? tr("1 sample") : tr("%1 samples").arg(QLocale().toString(f.samples));
        // The span only once the samples cover some time (one sample covers none).
        return f.from.isValid() && f.to.isValid() && f.from.secsTo(f.to) >= 60
                   ? tr("%1 · %2").arg(samples, forecastSpanText(f.from.secsTo(f.to)))
                   : samples;
    }
    default:
        return {};
    }
}

std::optional<QVariant> ForecastTableModel::sortData(const ForecastRecord &record, int column) const
{
    const core::ContainerForecast &row = record.forecast;
    const core::CapacityForecast &f = row.forecast;
    switch (column) {
    case Used:
        return forecastUsedPercent(row);
    case Growth:
        return forecastHasSlope(f) ? f.bytesPerDay : -std::numeric_limits<double>::max();
    case FullIn:
        return fullInSortKey(row);
    case Trend:
        return double(int(f.trend));
    case History:
        return double(f.samples);
    default:
        return std::nullopt;
    }
}

QVariant ForecastTableModel::recordData(const ForecastRecord &record, const QModelIndex &index, int role) const
{
    const core::ContainerForecast &row = record.forecast;
    const core::CapacityForecast &f = row.forecast;
    const QLocale locale;
    switch (role) {
    case FilterTextRole:
        return QString(row.container.name + QLatin1Char(' ') + kindText(row.container.kind) + QLatin1Char(' ')
                       + row.container.source);
    case StatusRole:
        if (index.column() == Trend) {
            switch (f.trend) {
            case ForecastTrend::Full:
                return QStringLiteral("critical");
            case ForecastTrend::Growing:
                return QStringLiteral("warning");
            case ForecastTrend::NoTrend:
                return QStringLiteral("ok");
            case ForecastTrend::TooLittleData:
                return QStringLiteral("unknown");
            }
        }
        return severity(row, m_tickNow);
    case Qt::ToolTipRole:
        switch (index.column()) {
        case Growth:
            return forecastHasSlope(f)
                       ? QVariant(tr("95 %: %1 to %2")
                                      .arg(forecastGrowthText(f.bytesPerDayLow), forecastGrowthText(f.bytesPerDayHigh)))
                       : QVariant();
        case FullIn:
            if (!f.fullAt.isValid()) {
                return {};
            }
            if (f.trend == ForecastTrend::Full) {
                return tr("Full since %1").arg(locale.toString(f.fullAt.toLocalTime(), QLocale::ShortFormat));
            }
            return f.fullAtEarliest.isValid()
                       ? tr("Full at %1; 95 % between %2 and %3")
                             .arg(locale.toString(f.fullAt.toLocalTime(), QLocale::ShortFormat),
                                  locale.toString(f.fullAtEarliest.toLocalTime(), QLocale::ShortFormat),
                                  f.fullAtLatest.isValid()
                                      ? locale.toString(f.fullAtLatest.toLocalTime(), QLocale::ShortFormat)
                                      : tr("never"))
                       : tr("Full at %1").arg(locale.toString(f.fullAt.toLocalTime(), QLocale::ShortFormat));
        case Used:
            if (row.releasedBytes > 0) {
                return tr("%1 of planned evictions counted in").arg(core::formatBytes(row.releasedBytes));
            }
            // The denominator, as on the volume pages (core::volumeCapacity).
            return row.container.kind == core::ContainerKind::Volume
                       ? QVariant(tr("Of the active file system: the volume's size less its snapshot reserve"))
                       : QVariant();
        case History:
            return f.from.isValid()
                       ? QVariant(tr("%1 – %2").arg(locale.toString(f.from.toLocalTime(), QLocale::ShortFormat),
                                                    locale.toString(f.to.toLocalTime(), QLocale::ShortFormat)))
                       : QVariant(tr("No samples yet"));
        default:
            return {};
        }
    default:
        return {};
    }
}

QStringList ForecastTableModel::columnTitles() const
{
    return {tr("Name"),
            tr("Kind"),
            tr("Source"),
            tr("Used / capacity"),
            tr("Growth / day"),
            tr("Full in"),
            tr("Trend"),
            tr("History")};
}

} // namespace strata::models
