#pragma once

#include "models/core/domain/keyed.h"
#include "models/core/domain/records.h"

#include <QObject>

namespace strata::core {

using VolumeDiff = Diff<Volume>;
using VolumePerfDiff = Diff<VolumePerf>;
using SnapshotDiff = Diff<Snapshot>;
using EventDiff = Diff<Event>;
using GpuClusterDiff = Diff<GpuCluster>;
using GpuNodeDiff = Diff<GpuNode>;
using ProjectDiff = Diff<Project>;
using JobDiff = Diff<Job>;
using PvcDiff = Diff<Pvc>;
using CapacityPoolDiff = Diff<CapacityPool>;
using AksClusterDiff = Diff<AksCluster>;
using GridSummaryDiff = Diff<GridSummary>;
using GridNodeDiff = Diff<GridNode>;
using GridAlertDiff = Diff<GridAlert>;
using TenantDiff = Diff<Tenant>;
using BucketDiff = Diff<Bucket>;
using DatasetDiff = Diff<Dataset>;
using CommitDiff = Diff<Commit>;
using CacheTargetDiff = Diff<CacheTarget>;
using CachedCommitDiff = Diff<CachedCommit>;

/// One publish of a StorageGRID source's grid state; null members leave that list unchanged.
struct GridPublish
{
    std::shared_ptr<const KeyedList<GridSummary>> summary;
    std::shared_ptr<const KeyedList<GridNode>> nodes;
    std::shared_ptr<const KeyedList<GridAlert>> alerts; ///< active and recently resolved
    std::shared_ptr<const KeyedList<Tenant>> tenants;
    std::shared_ptr<const KeyedList<Bucket>> buckets;
};

/// One publish of a source's datasets and their commits (StorageGRID hub or ONTAP file
/// datasets); null members leave that list unchanged.
struct DatasetPublish
{
    std::shared_ptr<const KeyedList<Dataset>> datasets;
    std::shared_ptr<const KeyedList<Commit>> commits;
};

/// One publish of a Kubernetes source's cache targets and cached commits (null = unchanged).
struct CachePublish
{
    std::shared_ptr<const KeyedList<CacheTarget>> targets;
    std::shared_ptr<const KeyedList<CachedCommit>> cachedCommits;
};

/// One consistent publish of a Kubernetes source's compute state (all lists from one view of
/// the cluster, so the GPU chart and the job queue never disagree).
struct ComputePublish
{
    std::shared_ptr<const KeyedList<GpuCluster>> clusters;
    std::shared_ptr<const KeyedList<GpuNode>> nodes;
    std::shared_ptr<const KeyedList<Project>> projects;
    std::shared_ptr<const KeyedList<Job>> jobs;
    std::shared_ptr<const KeyedList<Pvc>> pvcs;
    /// Optional, with `jobs`: what it changed relative to `jobsBase` (the jobs list the builder
    /// published before). The estate takes it instead of comparing every job while `jobsBase`
    /// is still the current list of the source, so a publish costs what changed.
    std::shared_ptr<const KeyedList<Job>> jobsBase;
    std::shared_ptr<JobDiff> jobsDiff;
};

/// Everything Strata currently knows, as immutable per-source lists, on the owner (GUI)
/// thread. Pollers publish here; item models and the web layer listen to the per-publish diff
/// signals (exactly one signal per publish, qBittorrent's torrentsUpdated contract). Data of a
/// failing source stays here (shown stale) until the source is removed.
class Estate final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Estate)

public:
    explicit Estate(QObject *parent = nullptr);

    /// Scope key for a volume's snapshots: "<source>/<volumeId>".
    static QString snapshotScope(const QString &source, const QString &volumeId);

    [[nodiscard]] const Table<Volume> &volumes() const { return m_volumes; }
    [[nodiscard]] const Table<VolumePerf> &volumePerf() const { return m_perf; }
    [[nodiscard]] const Table<Snapshot> &snapshots() const { return m_snapshots; }
    [[nodiscard]] const Table<Svm> &svms() const { return m_svms; }
    [[nodiscard]] const Table<Aggregate> &aggregates() const { return m_aggregates; }
    [[nodiscard]] const Table<QosPolicy> &qosPolicies() const { return m_qos; }
    [[nodiscard]] const Table<FlexCache> &flexCaches() const { return m_flexCaches; }
    [[nodiscard]] const Table<Event> &events() const { return m_events; }
    [[nodiscard]] const Table<GpuCluster> &gpuClusters() const { return m_clusters; }
    [[nodiscard]] const Table<GpuNode> &gpuNodes() const { return m_nodes; }
    [[nodiscard]] const Table<Project> &projects() const { return m_projects; }
    [[nodiscard]] const Table<Job> &jobs() const { return m_jobs; }
    [[nodiscard]] const Table<Pvc> &pvcs() const { return m_pvcs; }
    [[nodiscard]] const Table<CapacityPool> &capacityPools() const { return m_pools; }
    [[nodiscard]] const Table<AksCluster> &aksClusters() const { return m_aks; }
    [[nodiscard]] const Table<GridSummary> &gridSummaries() const { return m_grids; }
    [[nodiscard]] const Table<GridNode> &gridNodes() const { return m_gridNodes; }
    [[nodiscard]] const Table<GridAlert> &gridAlerts() const { return m_gridAlerts; }
    [[nodiscard]] const Table<Tenant> &tenants() const { return m_tenants; }
    [[nodiscard]] const Table<Bucket> &buckets() const { return m_buckets; }
    [[nodiscard]] const Table<Dataset> &datasets() const { return m_datasets; }
    [[nodiscard]] const Table<Commit> &commits() const { return m_commits; }
    [[nodiscard]] const Table<CacheTarget> &cacheTargets() const { return m_cacheTargets; }
    [[nodiscard]] const Table<CachedCommit> &cachedCommits() const { return m_cachedCommits; }

    /// Convenience lookup of one volume by source and id (nullptr when unknown).
    [[nodiscard]] Ptr<Volume> volume(const QString &source, const QString &id) const;
    /// Whether snapshots of this volume have been fetched at least once.
    [[nodiscard]] bool hasSnapshots(const QString &source, const QString &volumeId) const;

    // Publishing (owner thread only). `base`/`diff` come from a worker that diffed against
    // `base`; when `base` is no longer current the diff is recomputed.
    void publishVolumes(const QString &source,
                        std::shared_ptr<const KeyedList<Volume>> next,
                        const std::shared_ptr<const KeyedList<Volume>> &base = nullptr,
                        VolumeDiff *diff = nullptr);
    void publishVolumePerf(const QString &source, std::shared_ptr<const KeyedList<VolumePerf>> next);
    void
    publishSnapshots(const QString &source, const QString &volumeId, std::shared_ptr<const KeyedList<Snapshot>> next);
    void publishInventory(const QString &source,
                          std::shared_ptr<const KeyedList<Svm>> svms,
                          std::shared_ptr<const KeyedList<Aggregate>> aggregates,
                          std::shared_ptr<const KeyedList<QosPolicy>> qos,
                          std::shared_ptr<const KeyedList<FlexCache>> flexCaches);
    void publishEvents(const QString &source, std::shared_ptr<const KeyedList<Event>> next);
    /// Publishes a Kubernetes source's compute state; null members leave that list unchanged.
    /// Emits the per-type signals whose lists changed, then computeChanged(source) once.
    void publishCompute(const QString &source, ComputePublish next);
    /// Publishes an Azure source's capacity pools and AKS clusters; null leaves a list unchanged.
    void publishAzure(const QString &source,
                      std::shared_ptr<const KeyedList<CapacityPool>> pools,
                      std::shared_ptr<const KeyedList<AksCluster>> aks);
    /// Publishes a StorageGRID source's grid state. Emits the per-type signals whose lists
    /// changed, then gridChanged(source) once when anything did.
    void publishGrid(const QString &source, GridPublish next);
    /// Publishes a source's datasets and commits (per-type signals, then datasetsPublished).
    void publishDatasets(const QString &source, DatasetPublish next);
    /// Publishes a Kubernetes source's cache targets and cached commits.
    void publishCaches(const QString &source, CachePublish next);
    /// Removes everything of a source (it was deleted from the config).
    void removeSource(const QString &source);

Q_SIGNALS:
    void volumesChanged(const strata::core::VolumeDiff &diff);
    void volumePerfChanged(const strata::core::VolumePerfDiff &diff);
    void snapshotsChanged(const QString &source, const QString &volumeId, const strata::core::SnapshotDiff &diff);
    void eventsChanged(const strata::core::EventDiff &diff);
    /// SVMs, aggregates, QoS policies or FlexCaches of `source` were republished.
    void inventoryChanged(const QString &source);
    void gpuClustersChanged(const strata::core::GpuClusterDiff &diff);
    void gpuNodesChanged(const strata::core::GpuNodeDiff &diff);
    void projectsChanged(const strata::core::ProjectDiff &diff);
    void jobsChanged(const strata::core::JobDiff &diff);
    void pvcsChanged(const strata::core::PvcDiff &diff);
    /// After any publishCompute() that changed something of `source`.
    void computeChanged(const QString &source);
    void capacityPoolsChanged(const strata::core::CapacityPoolDiff &diff);
    void aksClustersChanged(const strata::core::AksClusterDiff &diff);
    void gridSummariesChanged(const strata::core::GridSummaryDiff &diff);
    void gridNodesChanged(const strata::core::GridNodeDiff &diff);
    void gridAlertsChanged(const strata::core::GridAlertDiff &diff);
    void tenantsChanged(const strata::core::TenantDiff &diff);
    void bucketsChanged(const strata::core::BucketDiff &diff);
    /// After any publishGrid() that changed something of `source`.
    void gridChanged(const QString &source);
    void datasetsChanged(const strata::core::DatasetDiff &diff);
    void commitsChanged(const strata::core::CommitDiff &diff);
    void cacheTargetsChanged(const strata::core::CacheTargetDiff &diff);
    void cachedCommitsChanged(const strata::core::CachedCommitDiff &diff);
    /// After any publishDatasets()/publishCaches() that changed something (the hub header).
    void hubChanged();
    /// After any publish that changed something of `source` (following its specific signals);
    /// not for removeSource(). Replicas share a source's state when it fires.
    void sourcePublished(const QString &source);

private:
    Table<Volume> m_volumes;
    Table<VolumePerf> m_perf;
    Table<Snapshot> m_snapshots;
    Table<Svm> m_svms;
    Table<Aggregate> m_aggregates;
    Table<QosPolicy> m_qos;
    Table<FlexCache> m_flexCaches;
    Table<Event> m_events;
    Table<GpuCluster> m_clusters;
    Table<GpuNode> m_nodes;
    Table<Project> m_projects;
    Table<Job> m_jobs;
    Table<Pvc> m_pvcs;
    Table<CapacityPool> m_pools;
    Table<AksCluster> m_aks;
    Table<GridSummary> m_grids;
    Table<GridNode> m_gridNodes;
    Table<GridAlert> m_gridAlerts;
    Table<Tenant> m_tenants;
    Table<Bucket> m_buckets;
    Table<Dataset> m_datasets;
    Table<Commit> m_commits;
    Table<CacheTarget> m_cacheTargets;
    Table<CachedCommit> m_cachedCommits;
};

} // namespace strata::core
