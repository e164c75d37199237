#pragma once

#include "models/core/domain/records.h"
#include "models/core/store/historystore.h"

#include <QDateTime>
#include <QList>
#include <QString>

#include <vector>

namespace strata::core {

class Estate;

/// Volume usage at or above this percentage is "near full" (the Volumes page's warning colour).
inline constexpr double kVolumeNearFullPercent = 85.0;
/// ... and at or above this one "full" (the Volumes page's critical colour).
inline constexpr double kVolumeFullPercent = 95.0;

/// One storage system as the Overview shows it: an ONTAP cluster (one per ONTAP source), an
/// Azure NetApp Files account (an Azure source may hold several) or a StorageGRID grid.
struct StorageSystemSummary
{
    QString source; ///< source name
    SourceKind kind = SourceKind::Ontap;
    QString name;                ///< ONTAP: the source name; ANF: the NetApp account; grid: the grid name
    int volumes = 0;             ///< ONTAP/ANF volumes; 0 for a grid
    int volumesWithoutSpace = 0; ///< volumes that report no space (offline): in neither total
    /// ONTAP/ANF: Σ used bytes of the volumes that report space; grid: object data stored. -1 unknown.
    qint64 usedBytes = -1;
    /// ONTAP/ANF: Σ active file system size of the same volumes (volumeCapacity().usableBytes:
    /// size less snapshot reserve); grid: usable space. -1 unknown.
    qint64 capacityBytes = -1;
    /// Σ of the latest polled throughput of its volumes (bytes/s, read + write); -1 when none
    /// of its volumes has a performance sample (a grid has none).
    double throughputBps = -1;
    int nearFullVolumes = 0; ///< online volumes at or above kVolumeNearFullPercent
    // ANF only.
    int pools = 0;
    qint64 poolSizeBytes = 0;      ///< Σ provisioned pool size
    qint64 poolAllocatedBytes = 0; ///< Σ of the pools' volume quotas
    /// Pools and volumes whose ARM provisioningState is not "Succeeded" (creating, updating,
    /// failed...); empty states (not reported) are not counted.
    int notProvisioned = 0;
    // StorageGRID only (GridSummary).
    int nodesConnected = 0, nodesDown = 0, nodesUnknown = 0;
    int alertsCritical = 0, alertsMajor = 0, alertsMinor = 0;

    /// used / capacity in percent, -1 when either is unknown or the capacity is 0.
    [[nodiscard]] double percentUsed() const
    {
        return usedBytes >= 0 && capacityBytes > 0 ? 100.0 * double(usedBytes) / double(capacityBytes) : -1;
    }
    bool operator==(const StorageSystemSummary &) const = default;
};

/// Every storage system in the estate: ONTAP sources, then ANF accounts, then grids, each kind
/// ordered by source then name. Only what the estate holds; nothing is estimated.
std::vector<StorageSystemSummary> storageSystems(const Estate &estate);

/// The system's health in a few words, the same on every surface: a grid's nodes and active
/// alerts ("5 nodes up · 1 major alert"), an ANF account's pools and provisioning ("2 pools ·
/// all provisioned", "1 not provisioned"), an ONTAP cluster's near-full and offline volumes
/// ("2 volumes near full · 1 without space figures", "all volumes below 85 %").
QString storageSystemHealth(const StorageSystemSummary &system);
/// "critical", "warning" or "ok" for storageSystemHealth()'s colour.
QString storageSystemStatus(const StorageSystemSummary &system);

/// One thing a manager should look at, with the object to open.
struct AttentionItem
{
    QString severity; ///< "critical", "error" or "warning"
    QString system;   ///< "kubernetes", "ontap", "azure", "storagegrid", "strata"
    QString source;   ///< source name
    /// The object to open (MainWindow::showObject kinds): "source", "job", "volume", "pool",
    /// "alert", "cache_target", "cluster".
    QString kind;
    QString id; ///< the object's id within the source (job "<ns>/<name>", volume id, ...)
    /// Why, as a stable word: "source_health", "job_failing", "job_failed", "pending_while_idle",
    /// "quota_mismatch", "grid_alert", "volume_full", "provisioning", "cache_problem",
    /// "cache_watermark". (source, kind, id, reason) identifies an item.
    QString reason;
    QString subject; ///< human name of the object ("runai-team-a/train-7", "criteo", ...)
    QString message; ///< what is wrong, one sentence ("ImagePullBackOff, holds 0.5 GPU")

    bool operator==(const AttentionItem &) const = default;
};

/// What needs attention now, worst first (critical, error, warning; then system, source,
/// subject), from what the core already computes: sources not OK (SourceStatus::health), jobs
/// with a failureReason or that failed, active unsilenced StorageGRID alerts, online volumes at
/// or above kVolumeNearFullPercent, ANF pools and volumes not provisioned, cache targets with a
/// problem or above their high watermark, clusters with pending jobs while allocated GPUs idle
/// (GpuCluster::pendingJobs and gpuIdleAllocated) and clusters whose project quotas do not add
/// up to their GPUs.
std::vector<AttentionItem> needsAttention(const Estate &estate, const QList<SourceStatus> &statuses);

/// How often a project is sampled at the latest while nothing changes (the history store's
/// heartbeat for project samples, IHistoryStore::recordProjectSamples).
inline constexpr qint64 kProjectHeartbeatSeconds = 600;

/// One cluster's allocation over time from its projects' samples (HistoryService order: by
/// project, then time; each stored only on change): at every sample time each project counts
/// with its latest value at or before it (nothing before its first sample). Totals start once
/// every project whose first sample comes within kProjectHeartbeatSeconds of the earliest one
/// has reported (it existed before the window; a total without it would be too low). allocated, pending
/// and quota (quotas >= 0 only; -1 when no project has one) are sums; utilization is the mean
/// over the allocated GPUs of the projects whose utilization is known (-1 when none holds GPUs
/// with a known utilization). Every sample gets `label` as its project. Oldest first.
std::vector<ProjectSample> clusterHistory(const std::vector<ProjectSample> &byProject, const QString &label);

} // namespace strata::core
