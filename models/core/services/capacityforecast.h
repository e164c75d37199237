#pragma once

#include "models/core/domain/keyed.h"
#include "models/core/domain/records.h"
#include "models/core/planning/forecast.h"
#include "models/core/store/historystore.h"

#include <QObject>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QThreadPool;

namespace strata::core {

class Estate;
class HistoryService;
class IClock;

/// A container of the estate to forecast, copied from the estate on its thread.
struct ForecastContainer
{
    QString source;
    ContainerKind kind = ContainerKind::Volume;
    QString id;   ///< the estate key (Volume::id, Aggregate::id, CapacityPool::id, Bucket::id, ...)
    QString name; ///< as the pages show it: "svm_ai/chest_xray", "aggr1", "anf-acct/pool-premium",
                  ///< "tenant/bucket", "dgx-cache-1"
    /// A volume's active file system (volumeCapacity().usableBytes: the size less the snapshot
    /// reserve), aggregate size, pool size, bucket/tenant quota (0 = none)
    qint64 capacityBytes = 0;
    qint64 usedBytes = 0; ///< now, as the estate has it (-1 unknown)
    /// Cache targets: ready commits the eviction policy has planned (CachedCommit::evictAt).
    QList<CapacityRelease> releases;
};

/// One row of the "full soonest" list.
struct ContainerForecast
{
    ForecastContainer container;
    CapacityForecast forecast;
    qint64 releasedBytes = 0; ///< sum of container.releases
};

/// The level a forecast's row shows: the container's now as the estate has it (the figure its
/// volume, pool, bucket... row shows), else the level the forecast starts from when it has
/// samples; nullopt when neither is known (an ANF volume before its first metrics).
std::optional<qint64> forecastShownUsedBytes(const ContainerForecast &forecast);
/// 100 × forecastShownUsedBytes() / capacityBytes (the same % used as the container's own row);
/// nullopt without a limit or a level.
std::optional<double> forecastShownPercent(const ContainerForecast &forecast);

/// The estate's records that forecastContainers() reads, as pointers to the immutable
/// published records: taken on the estate's thread (a pointer copy per record), read on any.
struct ContainerSnapshot
{
    std::vector<Ptr<Volume>> volumes;
    std::vector<Ptr<Aggregate>> aggregates;
    std::vector<Ptr<CapacityPool>> pools;
    std::vector<Ptr<Bucket>> buckets;
    std::vector<Ptr<Tenant>> tenants;
    std::vector<Ptr<CacheTarget>> cacheTargets;
    std::vector<Ptr<CachedCommit>> cachedCommits; ///< with cacheTargets: the planned releases
};

/// What `estate` holds of `only` (nullopt = every kind). Estate's thread.
ContainerSnapshot containerSnapshot(const Estate &estate, std::optional<ContainerKind> only = std::nullopt);

/// Every container of `estate` with a capacity history worth keeping: ONTAP and ANF volumes,
/// aggregates, ANF capacity pools, StorageGRID buckets and tenants (with or without a quota),
/// cache targets, in no particular order. Must run on the estate's thread.
std::vector<ForecastContainer> forecastContainers(const Estate &estate);
/// The same from a snapshot of the estate: any thread.
std::vector<ForecastContainer> forecastContainers(const ContainerSnapshot &snapshot);

/// The capacity of `kind` containers of `source` as IHistoryStore::recordCapacity() takes it
/// (not volumes: sources record those themselves). Estate's thread.
std::vector<VolumeUsage> containerUsage(const Estate &estate, const QString &source, ContainerKind kind);

/// Forecasts `containers` from `history` (IHistoryStore::capacityHistory()) as seen at `now`:
/// a container without samples gets Trend::TooLittleData with the estate's level. Sorted full
/// soonest first: full ones, then growing ones by fill date (no date last), then the rest by
/// used fraction, highest first; ties by source, kind, name and id. Pure: any thread.
std::vector<ContainerForecast> forecastAll(std::vector<ForecastContainer> containers,
                                           const std::vector<CapacitySeries> &history,
                                           const QDateTime &now);

/// Keeps the estate's forecasts: records the capacity of aggregates, pools, buckets, tenants and
/// cache targets into the history store as their sources publish them (volumes are recorded by
/// their sources), and recomputes every forecast from `kHistoryDays` of history off the estate's
/// thread (the estate's records are copied as pointers on its thread, the containers built from
/// them on the history thread), at start, every `kRefreshMinutes` and on refresh(). Without a history store it
/// records nothing and every forecast says too little data.
class ForecastService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ForecastService)

public:
    /// History the forecasts read (days) and how often they are recomputed (minutes).
    static constexpr int kHistoryDays = 30;
    static constexpr int kRefreshMinutes = 10;
    /// Without a history store, fewer containers than this are forecast at once on the owner
    /// thread, more on a worker thread (changed() follows either way).
    static constexpr int kInlineContainers = 2000;

    ForecastService(Estate &estate, IClock &clock, HistoryService *history, QObject *parent = nullptr);
    ~ForecastService() override;

    /// The forecasts of the last computation, full soonest first (empty before the first).
    [[nodiscard]] const std::vector<ContainerForecast> &forecasts() const { return m_forecasts; }
    /// When they were computed (invalid before the first).
    [[nodiscard]] QDateTime computedAt() const { return m_computedAt; }
    /// Why the last computation could not read the history store (empty when it could): the
    /// forecasts of computedAt() stay, since forecasts from no history would all read "too
    /// little data".
    [[nodiscard]] QString historyError() const { return m_historyError; }
    /// A computation is under way (or one more was asked for): forecasts() is about to change.
    [[nodiscard]] bool isComputing() const { return m_computing || m_again; }
    /// Replicas sharing a store: record the capacity of a source only when `recordsHere(source)`
    /// (the replica that polls it), so a sample is written once, not once per replica. Default:
    /// every source.
    void setRecordFilter(std::function<bool(const QString &source)> recordsHere)
    {
        m_recordsHere = std::move(recordsHere);
    }
    /// Recomputes now (reads the history, then forecasts on the history thread); changed()
    /// follows. While a computation is under way, another call only asks for one more after it,
    /// so calls faster than a computation never starve it.
    void refresh();

Q_SIGNALS:
    /// forecasts() were recomputed, or historyError() changed.
    void changed();

private:
    void markDirty(const QString &source, ContainerKind kind);
    void recordDirty();

    Estate &m_estate;
    IClock &m_clock;
    HistoryService *m_history;
    std::vector<ContainerForecast> m_forecasts;
    QDateTime m_computedAt;
    QString m_historyError;
    quint64 m_timer = 0;
    bool m_recordQueued = false;
    std::function<bool(const QString &)> m_recordsHere;
    QList<QPair<QString, ContainerKind>> m_dirty;
    bool m_computing = false;
    bool m_again = false;
    std::unique_ptr<QThreadPool> m_pool; ///< one thread: forecasts without a history store
};

} // namespace strata::core
