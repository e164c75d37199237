#include "models/core/services/capacityforecast.h"

#include "models/core/domain/clock.h"
#include "models/core/domain/estate.h"
#include "models/core/domain/offthread.h"
#include "models/core/planning/volumecapacity.h"
#include "models/core/services/historyservice.h"

#include <QHash>
#include <QLoggingCategory>
#include <QSet>
#include <QThreadPool>

#include <algorithm>
#include <tuple>

namespace strata::core {

namespace {

Q_LOGGING_CATEGORY(lcForecasts, "strata.forecasts", QtInfoMsg)

QString joinedName(const QString &parent, const QString &name)
{
    return parent.isEmpty() ? name : parent + QLatin1Char('/') + name;
}

// A bucket or tenant without a quota has no capacity to fill (0 = none, as the store keeps it).
qint64 quotaOrNone(qint64 quotaBytes)
{
    return quotaBytes > 0 ? quotaBytes : 0;
}

template <class T, class Fn> void eachOf(const std::vector<Ptr<T>> &items, const QString &source, Fn fn)
{
    for (const Ptr<T> &item : items) {
        if (source.isEmpty() || item->source == source) {
            fn(*item);
        }
    }
}

// What the snapshot says about every container of `kind` (of `source`, empty = all).
void containersOf(const ContainerSnapshot &snapshot,
                  const QString &source,
                  ContainerKind kind,
                  const std::function<void(ForecastContainer)> &emit)
{
    const auto make = [kind](const QString &src, const QString &id, const QString &name, qint64 size, qint64 used) {
        ForecastContainer c;
        c.source = src;
        c.kind = kind;
        c.id = id;
        c.name = name;
        c.capacityBytes = size;
        c.usedBytes = used;
        return c;
    };
    switch (kind) {
    case ContainerKind::Volume:
        eachOf(snapshot.volumes, source, [&](const Volume &v) {
            // What fills is the active file system: the size less the snapshot reserve.
            emit(make(
                v.source, v.id, joinedName(v.svm, v.name), volumeCapacity(v).usableBytes, v.usedBytes.value_or(-1)));
        });
        break;
    case ContainerKind::Aggregate:
        eachOf(snapshot.aggregates, source, [&](const Aggregate &a) {
            emit(make(a.source, a.id, a.name, a.sizeBytes, a.usedBytes));
        });
        break;
    case ContainerKind::Pool:
        eachOf(snapshot.pools, source, [&](const CapacityPool &p) {
            emit(make(p.source, p.id, joinedName(p.account, p.name), p.sizeBytes, p.allocatedBytes));
        });
        break;
    case ContainerKind::Bucket:
        eachOf(snapshot.buckets, source, [&](const Bucket &b) {
            emit(make(b.source, b.id, joinedName(b.tenantName, b.name), quotaOrNone(b.quotaBytes), b.dataBytes));
        });
        break;
    case ContainerKind::Tenant:
        eachOf(snapshot.tenants, source, [&](const Tenant &t) {
            emit(make(t.source, t.id, t.name, quotaOrNone(t.quotaBytes), t.dataBytes));
        });
        break;
    case ContainerKind::CacheTarget: {
        QHash<QString, QList<CapacityRelease>> releases;
        for (const Ptr<CachedCommit> &c : snapshot.cachedCommits) {
            if (c->state == CacheState::Ready && c->evictAt.isValid() && c->bytesTotal > 0) {
                releases[c->source + QLatin1Char('\n') + c->target].append(CapacityRelease{c->evictAt, c->bytesTotal});
            }
        }
        eachOf(snapshot.cacheTargets, source, [&](const CacheTarget &t) {
            ForecastContainer c = make(t.source, t.id, t.id, t.capacityBytes, t.usedBytes);
            c.releases = releases.value(t.source + QLatin1Char('\n') + t.id);
            emit(std::move(c));
        });
        break;
    }
    }
}

constexpr ContainerKind kAllKinds[] = {ContainerKind::Volume,
                                       ContainerKind::Aggregate,
                                       ContainerKind::Pool,
                                       ContainerKind::Bucket,
                                       ContainerKind::Tenant,
                                       ContainerKind::CacheTarget};

double usedFraction(const ContainerForecast &f)
{
    const qint64 capacity = f.container.capacityBytes;
    return capacity > 0 ? double(f.forecast.usedBytes) / double(capacity) : -1.0;
}

// Full first, then growing by fill date (growing without a date after those with one), then the
// rest by used fraction.
int sortGroup(const ContainerForecast &f)
{
    switch (f.forecast.trend) {
    case CapacityForecast::Trend::Full:
        return 0;
    case CapacityForecast::Trend::Growing:
        return f.forecast.fullAt.isValid() ? 1 : 2;
    case CapacityForecast::Trend::NoTrend:
    case CapacityForecast::Trend::TooLittleData:
        break;
    }
    return 3;
}

} // namespace

std::optional<qint64> forecastShownUsedBytes(const ContainerForecast &forecast)
{
    if (forecast.container.usedBytes >= 0) {
        return forecast.container.usedBytes;
    }
    return forecast.forecast.samples > 0 ? std::optional<qint64>(forecast.forecast.usedBytes) : std::nullopt;
}

std::optional<double> forecastShownPercent(const ContainerForecast &forecast)
{
    const std::optional<qint64> used = forecastShownUsedBytes(forecast);
    const qint64 capacity = forecast.container.capacityBytes;
    return used && capacity > 0 ? std::optional<double>(100.0 * double(*used) / double(capacity)) : std::nullopt;
}

ContainerSnapshot containerSnapshot(const Estate &estate, std::optional<ContainerKind> only)
{
    const auto wants = [only](ContainerKind kind) {
        return !only || *only == kind;
    };
    ContainerSnapshot s;
    if (wants(ContainerKind::Volume)) {
        s.volumes = estate.volumes().all();
    }
    if (wants(ContainerKind::Aggregate)) {
        s.aggregates = estate.aggregates().all();
    }
    if (wants(ContainerKind::Pool)) {
        s.pools = estate.capacityPools().all();
    }
    if (wants(ContainerKind::Bucket)) {
        s.buckets = estate.buckets().all();
    }
    if (wants(ContainerKind::Tenant)) {
        s.tenants = estate.tenants().all();
    }
    if (wants(ContainerKind::CacheTarget)) {
        s.cacheTargets = estate.cacheTargets().all();
        s.cachedCommits = estate.cachedCommits().all();
    }
    return s;
}

std::vector<ForecastContainer> forecastContainers(const ContainerSnapshot &snapshot)
{
    std::vector<ForecastContainer> out;
    out.reserve(snapshot.volumes.size() + snapshot.aggregates.size() + snapshot.pools.size() + snapshot.buckets.size()
                + snapshot.tenants.size() + snapshot.cacheTargets.size());
    for (const ContainerKind kind : kAllKinds) {
        containersOf(snapshot, {}, kind, [&out](ForecastContainer c) {
            out.push_back(std::move(c));
        });
    }
    // No sort here: forecastAll() orders them, off the estate's thread.
    return out;
}

std::vector<ForecastContainer> forecastContainers(const Estate &estate)
{
    return forecastContainers(containerSnapshot(estate));
}

std::vector<VolumeUsage> containerUsage(const Estate &estate, const QString &source, ContainerKind kind)
{
    std::vector<VolumeUsage> out;
    if (kind == ContainerKind::Volume || source.isEmpty()) {
        return out;
    }
    containersOf(containerSnapshot(estate, kind), source, kind, [&out](ForecastContainer c) {
        if (c.usedBytes >= 0) {
            out.push_back(VolumeUsage{c.id, c.usedBytes, c.capacityBytes});
        }
    });
    return out;
}

std::vector<ContainerForecast>
forecastAll(std::vector<ForecastContainer> containers, const std::vector<CapacitySeries> &history, const QDateTime &now)
{
    QHash<QString, const CapacitySeries *> byKey;
    byKey.reserve(qsizetype(history.size()));
    const auto keyOf = [](const QString &source, const QString &kind, const QString &id) -> QString {
        return source + QLatin1Char('\n') + kind + QLatin1Char('\n') + id;
    };
    for (const CapacitySeries &series : history) {
        byKey.insert(keyOf(series.source, series.kind, series.id), &series);
    }
    std::vector<ContainerForecast> out;
    out.reserve(containers.size());
    for (ForecastContainer &c : containers) {
        ContainerForecast f;
        QList<CapacitySample> samples;
        if (const CapacitySeries *series = byKey.value(keyOf(c.source, containerKindName(c.kind), c.id))) {
            samples.reserve(qsizetype(series->samples.size()));
            for (const UsageSample &s : series->samples) {
                samples.append(CapacitySample{s.time, s.usedBytes});
            }
        }
        for (const CapacityRelease &r : std::as_const(c.releases)) {
            f.releasedBytes += r.bytes;
        }
        f.forecast = forecastFill(samples, c.capacityBytes, now, c.releases);
        if (f.forecast.samples == 0) {
            f.forecast.usedBytes = std::max<qint64>(0, c.usedBytes);
            if (c.capacityBytes > 0 && c.usedBytes >= c.capacityBytes) {
                f.forecast.trend = CapacityForecast::Trend::Full;
            }
        }
        f.container = std::move(c);
        out.push_back(std::move(f));
    }
    std::sort(out.begin(), out.end(), [](const ContainerForecast &a, const ContainerForecast &b) {
        const int ga = sortGroup(a);
        const int gb = sortGroup(b);
        if (ga != gb) {
            return ga < gb;
        }
        if (ga == 1 && a.forecast.fullAt != b.forecast.fullAt) {
            return a.forecast.fullAt < b.forecast.fullAt;
        }
        const double fa = usedFraction(a);
        const double fb = usedFraction(b);
        if (ga != 1 && fa != fb) {
            return fa > fb;
        }
        // Ties in a stable order, whatever order the estate's tables gave.
        const ForecastContainer &ca = a.container;
        const ForecastContainer &cb = b.container;
        return std::tie(ca.source, ca.kind, ca.name, ca.id) < std::tie(cb.source, cb.kind, cb.name, cb.id);
    });
    return out;
}

// ---------------------------------------------------------------------------------------------

ForecastService::ForecastService(Estate &estate, IClock &clock, HistoryService *history, QObject *parent)
    : QObject(parent)
    , m_estate(estate)
    , m_clock(clock)
    , m_history(history)
    , m_pool(std::make_unique<QThreadPool>())
{
    m_pool->setMaxThreadCount(1);
    if (m_history) {
        connect(&m_estate, &Estate::inventoryChanged, this, [this](const QString &source) {
            markDirty(source, ContainerKind::Aggregate);
        });
        const auto sourcesOf = [](const auto &diff) {
            QSet<QString> sources;
            for (const auto *list : {&diff.added, &diff.changed}) {
                for (const auto &item : *list) {
                    sources.insert(item->source);
                }
            }
            return sources;
        };
        connect(&m_estate, &Estate::capacityPoolsChanged, this, [this, sourcesOf](const CapacityPoolDiff &diff) {
            for (const QString &source : sourcesOf(diff)) {
                markDirty(source, ContainerKind::Pool);
            }
        });
        connect(&m_estate, &Estate::bucketsChanged, this, [this, sourcesOf](const BucketDiff &diff) {
            for (const QString &source : sourcesOf(diff)) {
                markDirty(source, ContainerKind::Bucket);
            }
        });
        connect(&m_estate, &Estate::tenantsChanged, this, [this, sourcesOf](const TenantDiff &diff) {
            for (const QString &source : sourcesOf(diff)) {
                markDirty(source, ContainerKind::Tenant);
            }
        });
        connect(&m_estate, &Estate::cacheTargetsChanged, this, [this, sourcesOf](const CacheTargetDiff &diff) {
            for (const QString &source : sourcesOf(diff)) {
                markDirty(source, ContainerKind::CacheTarget);
            }
        });
    }
    refresh();
}

ForecastService::~ForecastService()
{
    if (m_timer) {
        m_clock.cancel(m_timer);
    }
}

void ForecastService::markDirty(const QString &source, ContainerKind kind)
{
    const QPair<QString, ContainerKind> key{source, kind};
    if (!m_dirty.contains(key)) {
        m_dirty.append(key);
    }
    if (!m_recordQueued) {
        m_recordQueued = true;
        // A poll publishes several tables in a row: record once after it.
        QMetaObject::invokeMethod(this, &ForecastService::recordDirty, Qt::QueuedConnection);
    }
}

void ForecastService::recordDirty()
{
    m_recordQueued = false;
    const QDateTime now = m_clock.now();
    for (const auto &[source, kind] : std::as_const(m_dirty)) {
        if (m_recordsHere && !m_recordsHere(source)) {
            continue;
        }
        std::vector<VolumeUsage> usage = containerUsage(m_estate, source, kind);
        if (!usage.empty()) {
            m_history->recordCapacity(source, kind, std::move(usage), now);
        }
    }
    m_dirty.clear();
}

void ForecastService::refresh()
{
    if (m_timer) {
        m_clock.cancel(m_timer);
    }
    m_timer = m_clock.callAfter(std::chrono::minutes(kRefreshMinutes), this, [this] {
        m_timer = 0;
        refresh();
    });
    if (m_computing) {
        m_again = true;
        return;
    }
    const QDateTime now = m_clock.now();
    ContainerSnapshot snapshot = containerSnapshot(m_estate);
    const auto landed = [this, now](Result<std::vector<ContainerForecast>> forecasts) {
        m_computing = false;
        if (forecasts) {
            m_forecasts = std::move(forecasts).value();
            m_computedAt = now;
            m_historyError.clear();
        } else {
            qCWarning(lcForecasts).noquote() << forecasts.error().message;
            m_historyError = forecasts.error().message;
        }
        Q_EMIT changed();
        if (m_again) {
            m_again = false;
            refresh();
        }
    };
    if (!m_history || !m_history->openError().isEmpty()) {
        const std::size_t containers = snapshot.volumes.size() + snapshot.aggregates.size() + snapshot.pools.size()
                                       + snapshot.buckets.size() + snapshot.tenants.size()
                                       + snapshot.cacheTargets.size();
        if (containers < std::size_t(kInlineContainers)) {
            landed(forecastAll(forecastContainers(snapshot), {}, now));
            return;
        }
        // Tens of thousands of volumes: building, forecasting and sorting them is not for the
        // GUI thread even without a history to read.
        m_computing = true;
        runOffThread(
            *m_pool,
            this,
            [snapshot = std::move(snapshot), now] {
                return forecastAll(forecastContainers(snapshot), {}, now);
            },
            landed);
        return;
    }
    // Pending capacity writes go first, so the forecasts include this poll's level.
    recordDirty();
    m_computing = true;
    m_history->forecastCapacity(std::move(snapshot), now.addDays(-kHistoryDays), now, this, landed);
}

} // namespace strata::core
