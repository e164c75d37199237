#include "models/core/estate.h"

namespace strata::core {

Estate::Estate(QObject *parent)
    : QObject(parent)
{}

QString Estate::snapshotScope(const QString &source, const QString &volumeId)
{
    return source + QLatin1Char('/') + volumeId;
}

Ptr<Volume> Estate::volume(const QString &source, const QString &id) const
{
    return m_volumes.find(source, source + QLatin1Char('/') + id);
}

bool Estate::hasSnapshots(const QString &source, const QString &volumeId) const
{
    return m_snapshots.scope(snapshotScope(source, volumeId)) != nullptr;
}

void Estate::publishVolumes(const QString &source,
                            std::shared_ptr<const KeyedList<Volume>> next,
                            const std::shared_ptr<const KeyedList<Volume>> &base,
                            VolumeDiff *diff)
{
    VolumeDiff d = m_volumes.publish(source, std::move(next), base, diff);
    if (!d.isEmpty()) {
        Q_EMIT volumesChanged(d);
    }
}

void Estate::publishVolumePerf(const QString &source, std::shared_ptr<const KeyedList<VolumePerf>> next)
{
    VolumePerfDiff d = m_perf.publish(source, std::move(next));
    if (!d.isEmpty()) {
        Q_EMIT volumePerfChanged(d);
    }
}

void Estate::publishSnapshots(const QString &source,
                              const QString &volumeId,
                              std::shared_ptr<const KeyedList<Snapshot>> next)
{
    const bool first = !hasSnapshots(source, volumeId);
    SnapshotDiff d = m_snapshots.publish(snapshotScope(source, volumeId), std::move(next));
    // The first publish of an empty list still matters: it tells views the list is loaded.
    if (!d.isEmpty() || first) {
        Q_EMIT snapshotsChanged(source, volumeId, d);
    }
}

void Estate::publishInventory(const QString &source,
                              std::shared_ptr<const KeyedList<Svm>> svms,
                              std::shared_ptr<const KeyedList<Aggregate>> aggregates,
                              std::shared_ptr<const KeyedList<QosPolicy>> qos,
                              std::shared_ptr<const KeyedList<FlexCache>> flexCaches)
{
    bool changed = false;
    changed |= !m_svms.publish(source, std::move(svms)).isEmpty();
    changed |= !m_aggregates.publish(source, std::move(aggregates)).isEmpty();
    changed |= !m_qos.publish(source, std::move(qos)).isEmpty();
    changed |= !m_flexCaches.publish(source, std::move(flexCaches)).isEmpty();
    if (changed) {
        Q_EMIT inventoryChanged(source);
    }
}

void Estate::publishEvents(const QString &source, std::shared_ptr<const KeyedList<Event>> next)
{
    EventDiff d = m_events.publish(source, std::move(next));
    if (!d.isEmpty()) {
        Q_EMIT eventsChanged(d);
    }
}

void Estate::publishCompute(const QString &source, ComputePublish next)
{
    bool changed = false;
    auto apply = [&](auto &table, auto list, auto signal) {
        if (!list) {
            return;
        }
        auto d = table.publish(source, std::move(list));
        if (!d.isEmpty()) {
            changed = true;
            Q_EMIT(this->*signal)(d);
        }
    };
    apply(m_clusters, std::move(next.clusters), &Estate::gpuClustersChanged);
    apply(m_nodes, std::move(next.nodes), &Estate::gpuNodesChanged);
    apply(m_projects, std::move(next.projects), &Estate::projectsChanged);
    apply(m_jobs, std::move(next.jobs), &Estate::jobsChanged);
    apply(m_pvcs, std::move(next.pvcs), &Estate::pvcsChanged);
    if (changed) {
        Q_EMIT computeChanged(source);
    }
}

void Estate::publishAzure(const QString &source,
                          std::shared_ptr<const KeyedList<CapacityPool>> pools,
                          std::shared_ptr<const KeyedList<AksCluster>> aks)
{
    if (pools) {
        if (CapacityPoolDiff d = m_pools.publish(source, std::move(pools)); !d.isEmpty()) {
            Q_EMIT capacityPoolsChanged(d);
        }
    }
    if (aks) {
        if (AksClusterDiff d = m_aks.publish(source, std::move(aks)); !d.isEmpty()) {
            Q_EMIT aksClustersChanged(d);
        }
    }
}

void Estate::publishGrid(const QString &source, GridPublish next)
{
    bool changed = false;
    auto apply = [&](auto &table, auto list, auto signal) {
        if (!list) {
            return;
        }
        auto d = table.publish(source, std::move(list));
        if (!d.isEmpty()) {
            changed = true;
            Q_EMIT(this->*signal)(d);
        }
    };
    apply(m_grids, std::move(next.summary), &Estate::gridSummariesChanged);
    apply(m_gridNodes, std::move(next.nodes), &Estate::gridNodesChanged);
    apply(m_gridAlerts, std::move(next.alerts), &Estate::gridAlertsChanged);
    apply(m_tenants, std::move(next.tenants), &Estate::tenantsChanged);
    apply(m_buckets, std::move(next.buckets), &Estate::bucketsChanged);
    if (changed) {
        Q_EMIT gridChanged(source);
    }
}

void Estate::publishDatasets(const QString &source, DatasetPublish next)
{
    bool changed = false;
    if (next.datasets) {
        if (DatasetDiff d = m_datasets.publish(source, std::move(next.datasets)); !d.isEmpty()) {
            changed = true;
            Q_EMIT datasetsChanged(d);
        }
    }
    if (next.commits) {
        if (CommitDiff d = m_commits.publish(source, std::move(next.commits)); !d.isEmpty()) {
            changed = true;
            Q_EMIT commitsChanged(d);
        }
    }
    if (changed) {
        Q_EMIT hubChanged();
    }
}

void Estate::publishCaches(const QString &source, CachePublish next)
{
    bool changed = false;
    if (next.targets) {
        if (CacheTargetDiff d = m_cacheTargets.publish(source, std::move(next.targets)); !d.isEmpty()) {
            changed = true;
            Q_EMIT cacheTargetsChanged(d);
        }
    }
    if (next.cachedCommits) {
        if (CachedCommitDiff d = m_cachedCommits.publish(source, std::move(next.cachedCommits)); !d.isEmpty()) {
            changed = true;
            Q_EMIT cachedCommitsChanged(d);
        }
    }
    if (changed) {
        Q_EMIT hubChanged();
    }
}

void Estate::removeSource(const QString &source)
{
    if (VolumeDiff d = m_volumes.clear(source); !d.isEmpty()) {
        Q_EMIT volumesChanged(d);
    }
    if (VolumePerfDiff d = m_perf.clear(source); !d.isEmpty()) {
        Q_EMIT volumePerfChanged(d);
    }
    const QString prefix = source + QLatin1Char('/');
    const QStringList scopes = m_snapshots.scopes();
    for (const QString &scope : scopes) {
        if (scope.startsWith(prefix)) {
            SnapshotDiff d = m_snapshots.clear(scope);
            Q_EMIT snapshotsChanged(source, scope.mid(prefix.size()), d);
        }
    }
    m_svms.clear(source);
    m_aggregates.clear(source);
    m_qos.clear(source);
    m_flexCaches.clear(source);
    if (EventDiff d = m_events.clear(source); !d.isEmpty()) {
        Q_EMIT eventsChanged(d);
    }
    Q_EMIT inventoryChanged(source);
    bool computeCleared = false;
    auto clear = [&](auto &table, auto signal) {
        auto d = table.clear(source);
        if (!d.isEmpty()) {
            computeCleared = true;
            Q_EMIT(this->*signal)(d);
        }
    };
    clear(m_clusters, &Estate::gpuClustersChanged);
    clear(m_nodes, &Estate::gpuNodesChanged);
    clear(m_projects, &Estate::projectsChanged);
    clear(m_jobs, &Estate::jobsChanged);
    clear(m_pvcs, &Estate::pvcsChanged);
    if (computeCleared) {
        Q_EMIT computeChanged(source);
    }
    if (CapacityPoolDiff d = m_pools.clear(source); !d.isEmpty()) {
        Q_EMIT capacityPoolsChanged(d);
    }
    if (AksClusterDiff d = m_aks.clear(source); !d.isEmpty()) {
        Q_EMIT aksClustersChanged(d);
    }
    bool gridCleared = false;
    auto clearGrid = [&](auto &table, auto signal) {
        auto d = table.clear(source);
        if (!d.isEmpty()) {
            gridCleared = true;
            Q_EMIT(this->*signal)(d);
        }
    };
    clearGrid(m_grids, &Estate::gridSummariesChanged);
    clearGrid(m_gridNodes, &Estate::gridNodesChanged);
    clearGrid(m_gridAlerts, &Estate::gridAlertsChanged);
    clearGrid(m_tenants, &Estate::tenantsChanged);
    clearGrid(m_buckets, &Estate::bucketsChanged);
    if (gridCleared) {
        Q_EMIT gridChanged(source);
    }
    bool hubCleared = false;
    auto clearHub = [&](auto &table, auto signal) {
        auto d = table.clear(source);
        if (!d.isEmpty()) {
            hubCleared = true;
            Q_EMIT(this->*signal)(d);
        }
    };
    clearHub(m_datasets, &Estate::datasetsChanged);
    clearHub(m_commits, &Estate::commitsChanged);
    clearHub(m_cacheTargets, &Estate::cacheTargetsChanged);
    clearHub(m_cachedCommits, &Estate::cachedCommitsChanged);
    if (hubCleared) {
        Q_EMIT hubChanged();
    }
}

} // namespace strata::core
