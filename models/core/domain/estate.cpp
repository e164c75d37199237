#include "models/core/domain/estate.h"

namespace strata::core {

namespace {

// Publishes `list` (nothing when it is null: that table is not part of this update) into `table`
// and emits `signal` with the diff when it changed anything; true then.
template <class Table, class List, class Diff>
bool publishTable(Estate *estate, Table &table, const QString &source, List list, void (Estate::*signal)(const Diff &))
{
    if (!list) {
        return false;
    }
    const auto diff = table.publish(source, std::move(list));
    if (diff.isEmpty()) {
        return false;
    }
    Q_EMIT(estate->*signal)(diff);
    return true;
}

// Drops `source` from `table` and emits `signal` with the diff when it held anything; true then.
template <class Table, class Diff>
bool clearTable(Estate *estate, Table &table, const QString &source, void (Estate::*signal)(const Diff &))
{
    const auto diff = table.clear(source);
    if (diff.isEmpty()) {
        return false;
    }
    Q_EMIT(estate->*signal)(diff);
    return true;
}

} // namespace

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
        Q_EMIT sourcePublished(source);
    }
}

void Estate::publishVolumePerf(const QString &source, std::shared_ptr<const KeyedList<VolumePerf>> next)
{
    VolumePerfDiff d = m_perf.publish(source, std::move(next));
    if (!d.isEmpty()) {
        Q_EMIT volumePerfChanged(d);
        Q_EMIT sourcePublished(source);
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
        Q_EMIT sourcePublished(source);
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
        Q_EMIT sourcePublished(source);
    }
}

void Estate::publishEvents(const QString &source, std::shared_ptr<const KeyedList<Event>> next)
{
    EventDiff d = m_events.publish(source, std::move(next));
    if (!d.isEmpty()) {
        Q_EMIT eventsChanged(d);
        Q_EMIT sourcePublished(source);
    }
}

void Estate::publishCompute(const QString &source, ComputePublish next)
{
    bool changed = false;
    changed |= publishTable(this, m_clusters, source, std::move(next.clusters), &Estate::gpuClustersChanged);
    changed |= publishTable(this, m_nodes, source, std::move(next.nodes), &Estate::gpuNodesChanged);
    changed |= publishTable(this, m_projects, source, std::move(next.projects), &Estate::projectsChanged);
    if (next.jobs) {
        const JobDiff d = m_jobs.publish(source, std::move(next.jobs), next.jobsBase, next.jobsDiff.get());
        if (!d.isEmpty()) {
            Q_EMIT jobsChanged(d);
            changed = true;
        }
    }
    changed |= publishTable(this, m_pvcs, source, std::move(next.pvcs), &Estate::pvcsChanged);
    if (changed) {
        Q_EMIT computeChanged(source);
        Q_EMIT sourcePublished(source);
    }
}

void Estate::publishAzure(const QString &source,
                          std::shared_ptr<const KeyedList<CapacityPool>> pools,
                          std::shared_ptr<const KeyedList<AksCluster>> aks)
{
    bool changed = publishTable(this, m_pools, source, std::move(pools), &Estate::capacityPoolsChanged);
    changed |= publishTable(this, m_aks, source, std::move(aks), &Estate::aksClustersChanged);
    if (changed) {
        Q_EMIT sourcePublished(source);
    }
}

void Estate::publishGrid(const QString &source, GridPublish next)
{
    bool changed = false;
    changed |= publishTable(this, m_grids, source, std::move(next.summary), &Estate::gridSummariesChanged);
    changed |= publishTable(this, m_gridNodes, source, std::move(next.nodes), &Estate::gridNodesChanged);
    changed |= publishTable(this, m_gridAlerts, source, std::move(next.alerts), &Estate::gridAlertsChanged);
    changed |= publishTable(this, m_tenants, source, std::move(next.tenants), &Estate::tenantsChanged);
    changed |= publishTable(this, m_buckets, source, std::move(next.buckets), &Estate::bucketsChanged);
    if (changed) {
        Q_EMIT gridChanged(source);
        Q_EMIT sourcePublished(source);
    }
}

void Estate::publishDatasets(const QString &source, DatasetPublish next)
{
    bool changed = false;
    changed |= publishTable(this, m_datasets, source, std::move(next.datasets), &Estate::datasetsChanged);
    changed |= publishTable(this, m_commits, source, std::move(next.commits), &Estate::commitsChanged);
    if (changed) {
        Q_EMIT hubChanged();
        Q_EMIT sourcePublished(source);
    }
}

void Estate::publishCaches(const QString &source, CachePublish next)
{
    bool changed = false;
    changed |= publishTable(this, m_cacheTargets, source, std::move(next.targets), &Estate::cacheTargetsChanged);
    changed |=
        publishTable(this, m_cachedCommits, source, std::move(next.cachedCommits), &Estate::cachedCommitsChanged);
    if (changed) {
        Q_EMIT hubChanged();
        Q_EMIT sourcePublished(source);
    }
}

void Estate::removeSource(const QString &source)
{
    clearTable(this, m_volumes, source, &Estate::volumesChanged);
    clearTable(this, m_perf, source, &Estate::volumePerfChanged);
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
    clearTable(this, m_events, source, &Estate::eventsChanged);
    Q_EMIT inventoryChanged(source);
    bool computeCleared = false;
    computeCleared |= clearTable(this, m_clusters, source, &Estate::gpuClustersChanged);
    computeCleared |= clearTable(this, m_nodes, source, &Estate::gpuNodesChanged);
    computeCleared |= clearTable(this, m_projects, source, &Estate::projectsChanged);
    computeCleared |= clearTable(this, m_jobs, source, &Estate::jobsChanged);
    computeCleared |= clearTable(this, m_pvcs, source, &Estate::pvcsChanged);
    if (computeCleared) {
        Q_EMIT computeChanged(source);
    }
    clearTable(this, m_pools, source, &Estate::capacityPoolsChanged);
    clearTable(this, m_aks, source, &Estate::aksClustersChanged);
    bool gridCleared = false;
    gridCleared |= clearTable(this, m_grids, source, &Estate::gridSummariesChanged);
    gridCleared |= clearTable(this, m_gridNodes, source, &Estate::gridNodesChanged);
    gridCleared |= clearTable(this, m_gridAlerts, source, &Estate::gridAlertsChanged);
    gridCleared |= clearTable(this, m_tenants, source, &Estate::tenantsChanged);
    gridCleared |= clearTable(this, m_buckets, source, &Estate::bucketsChanged);
    if (gridCleared) {
        Q_EMIT gridChanged(source);
    }
    bool hubCleared = false;
    hubCleared |= clearTable(this, m_datasets, source, &Estate::datasetsChanged);
    hubCleared |= clearTable(this, m_commits, source, &Estate::commitsChanged);
    hubCleared |= clearTable(this, m_cacheTargets, source, &Estate::cacheTargetsChanged);
    hubCleared |= clearTable(this, m_cachedCommits, source, &Estate::cachedCommitsChanged);
    if (hubCleared) {
        Q_EMIT hubChanged();
    }
}

} // namespace strata::core
