#pragma once

#include "models/core/services/capacityforecast.h"
#include "models/item/keyedtablemodel.h"

#include <QDateTime>

#include <functional>
#include <memory>
#include <vector>

namespace strata::models {

/// One row of the "full soonest" list: a container's forecast under a key that is unique across
/// kinds ("<source>/<kind>/<container id>": an aggregate, a volume and a cache target of one
/// source may share an id).
struct ForecastRecord
{
    QString source;
    QString id; ///< "<kind>/<container id>" (containerKindName()), so estateKey() is source/kind/id
    core::ContainerForecast forecast;

    /// Same figures shown (name, capacity, levels, trend, band, dates, samples, releases).
    bool operator==(const ForecastRecord &other) const;
};

/// The capacity forecast of every container (ForecastService::forecasts()): name, kind,
/// source, used of capacity (a bar: RawValueRole percent, -1 without a limit), growth per day
/// with its 95 % band, "full in" with the band ("in 12 days (9–17)", rows::forecastFullInText),
/// trend and the history it used. Sorting "full in" by RawValueRole orders by date: full ones
/// first, then growing ones by fill date, then the rest by used fraction, highest first (the
/// service's order). StatusRole: "critical" for a full container, "warning" for one growing to
/// full within kSoonDays, else "ok" (the Trend column: "critical" full, "warning" growing,
/// "ok" no trend, "unknown" too little data).
///
/// Each recomputation (ForecastService::changed) is applied as a keyed diff against what is
/// shown (removals, in-place changes, appends): never a reset, so selection and sorting
/// survive. tick() re-reads the relative "full in" texts against the clock.
class ForecastTableModel final : public KeyedTableModel<ForecastRecord>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ForecastTableModel)

public:
    enum Column
    {
        Name,    ///< "svm_ai/chest_xray", "aggr1", "anf-acct/pool-premium", "tenant/bucket"
        Kind,    ///< "Volume", "Aggregate", "Capacity pool", "Bucket", "Tenant", "Cache target"
        Source,  ///< the configured source name
        Used,    ///< "1.2 TiB / 2.0 TiB" (RawValueRole percent 0..100+, -1 without a limit)
        Growth,  ///< "+12.0 GiB/day" (RawValueRole bytes per day; lowest without a slope)
        FullIn,  ///< "in 12 days (9–17)", "full", "no trend" (RawValueRole: the sort key above)
        Trend,   ///< "Growing", "Full", "No trend", "Too little data"
        History, ///< "42 samples · 30 days" (RawValueRole samples)
        ColumnCount
    };

    /// Rows growing to full within this many days are a warning.
    static constexpr int kSoonDays = 30;

    /// `forecasts` may be null (rows only through setForecasts(), e.g. tests); `now` is the
    /// engine's clock, read for the "full in" texts and the warning.
    ForecastTableModel(core::ForecastService *forecasts, std::function<QDateTime()> now, QObject *parent = nullptr);
    ~ForecastTableModel() override;

    /// Applies `forecasts` (any order) as a keyed diff against what is shown.
    void setForecasts(const std::vector<core::ContainerForecast> &forecasts);
    /// Re-reads the clock: when it moved, dataChanged on the rows with a fill date (their
    /// "full in" text and warning are relative to now).
    void tick();

    /// "<source>/<kind>/<id>".
    static QString key(const core::ContainerForecast &forecast);
    static QString kindText(core::ContainerKind kind);
    static QString trendText(core::CapacityForecast::Trend trend);
    /// "critical", "warning" or "ok" for `forecast` seen at `now` (see the class comment).
    static QString severity(const core::ContainerForecast &forecast, const QDateTime &now);
    /// The "full in" sort key: full < growing (by fill date, ms since the epoch) < the rest (by
    /// used fraction, highest first).
    static double fullInSortKey(const core::ContainerForecast &forecast);

    /// core::ForecastService::historyError() as last seen (empty when the history was read):
    /// the rows are then the forecasts of computedAt().
    [[nodiscard]] QString historyError() const { return m_historyError; }
    /// When the shown forecasts were computed (invalid before the first, or without a service).
    [[nodiscard]] QDateTime computedAt() const { return m_computedAt; }

Q_SIGNALS:
    /// historyError() or computedAt() changed.
    void statusChanged();

private:
    QVariant displayData(const ForecastRecord &record, int column) const override;
    std::optional<QVariant> sortData(const ForecastRecord &record, int column) const override;
    QVariant recordData(const ForecastRecord &record, const QModelIndex &index, int role) const override;
    QStringList columnTitles() const override;

    std::function<QDateTime()> m_now;
    QDateTime m_tickNow;
    std::unique_ptr<core::KeyedList<ForecastRecord>> m_shown;
    QString m_historyError;
    QDateTime m_computedAt;
};

} // namespace strata::models
