#pragma once

#include "models/core/domain/format.h"

#include <QDateTime>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

/// Strata's domain records: what every page, the CLI and the web API show. They are plain
/// values translated from connector DTOs inside strata::core (connector types never leak out),
/// keyed by a stable id that is unique within a source. Sizes are bytes; percentages 0..100.
namespace strata::core {

/// Kinds of system a source can connect to.
enum class SourceKind
{
    Ontap,
    Kubernetes, ///< a Kubernetes GPU cluster (KAI/Run:ai queues or namespace GPU quotas) + optional Prometheus
    Azure,      ///< an Azure subscription: Azure NetApp Files (accounts, pools, volumes) and AKS clusters
    StorageGrid ///< a StorageGRID grid: management API (grid health, alerts, tenants, buckets) + S3 dataset hub
};

QString sourceKindName(SourceKind kind); ///< "ontap", "kubernetes", "azure", "storagegrid"
std::optional<SourceKind> sourceKindFromName(const QString &name);

/// Health of one source, worst-of over its pollers.
enum class Health
{
    Unknown, ///< not polled yet
    Ok,
    Degraded,     ///< some polls fail or data is late, last good data shown as stale
    Unreachable,  ///< transport/TLS/timeout failures in a row
    AuthRequired, ///< credentials rejected or missing; polling paused until they change
};

QString healthName(Health health); ///< "ok", "degraded", "unreachable", "auth_required", "unknown"

/// Live state of a configured source (the Sources page, the CLI `get sources`).
struct SourceStatus
{
    QString name; ///< the source's unique name from the config, e.g. "ontap-ai"
    SourceKind kind = SourceKind::Ontap;
    QString url;
    Health health = Health::Unknown;
    bool stale = false;    ///< last successful data is older than expected, or the last poll failed
    QString lastError;     ///< empty when the last poll succeeded
    QDateTime lastSuccess; ///< UTC, invalid when never
    QDateTime lastAttempt; ///< UTC, invalid when never
    qint64 latencyMs = -1; ///< duration of the last successful poll, -1 when unknown
    QString systemName;    ///< cluster name reported by the system, may be empty
    QString systemVersion; ///< "9.14.1", may be empty
    int consecutiveFailures = 0;
    QDateTime nextPoll; ///< UTC, invalid when paused
    /// strata-server replicas sharing a store: the replica whose lease polls this source
    /// ("strata-0/4711"); empty in a single process.
    QString polledBy;

    bool operator==(const SourceStatus &) const = default;
};

/// Storage volume (ONTAP FlexVol/FlexGroup/FlexCache, or an Azure NetApp Files volume). Key:
/// the ONTAP volume uuid, or the ANF `fileSystemId`, which survives a pool change (the ARM id
/// does not), so history and selection follow the volume across the move.
struct Volume
{
    QString source;
    QString id; ///< ONTAP uuid; ANF fileSystemId
    QString name;
    QString svm;       ///< ONTAP SVM; ANF: the NetApp account name
    QString aggregate; ///< ONTAP: first aggregate (FlexGroups span several); ANF: the capacity pool name
    int aggregateCount = 0;
    QString state; ///< "online", "offline", "restricted", "error", "mixed"
    QString style; ///< "flexvol", "flexgroup"
    QString type;  ///< "rw", "dp", "ls"
    bool isFlexCache = false;
    qint64 sizeBytes = 0;
    // Space as the system reports it; nullopt = unknown (ONTAP leaves `space` out for an offline
    // volume). Shown as null in JSON and "—" in tables and charts, never as 0.
    std::optional<qint64> usedBytes;
    std::optional<qint64> availableBytes;
    std::optional<double> percentUsed; ///< 0..100
    int snapshotReservePercent = 0;
    qint64 snapshotUsedBytes = 0;
    int snapshotCount = 0;
    QString qosPolicy;   ///< empty when none
    QString cloneParent; ///< "volume@snapshot" for a FlexClone, else empty
    QString nasPath;     ///< junction path, empty when unmounted; ANF: "10.0.0.4:/criteo-data"
    QDateTime created;   ///< UTC, may be invalid

    // Azure NetApp Files only (empty / -1 for ONTAP).
    QString serviceLevel;        ///< "Standard", "Premium", "Ultra", "Flexible": the pool's level
    QString armId;               ///< current ARM resource id (moves under the new pool after poolChange)
    QString resourceGroup;       ///< ARM resource group
    QString location;            ///< Azure region, "eastus"
    QString protocols;           ///< "NFSv3", "NFSv4.1", "CIFS", comma-joined
    QString qosType;             ///< the pool's "Auto" or "Manual"
    double throughputMibps = -1; ///< ANF throughput cap in MiB/s, -1 unknown
    QString provisioningState;   ///< ARM provisioningState, "Succeeded", "Updating", ...

    [[nodiscard]] const QString &key() const { return id; }
    [[nodiscard]] bool isAnf() const { return !armId.isEmpty(); }
    bool operator==(const Volume &) const = default;
};

/// Latest performance of a volume (polled separately, more often). Key: volume id.
struct VolumePerf
{
    QString source;
    QString id;     ///< volume uuid
    QDateTime time; ///< UTC sample time
    double readIops = 0, writeIops = 0, totalIops = 0;
    double throughputBps = 0; ///< bytes per second, total
    double latencyUs = 0;     ///< microseconds, total average

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const VolumePerf &) const = default;
};

/// A volume snapshot. Key: snapshot uuid.
struct Snapshot
{
    QString source;
    QString id; ///< ONTAP snapshot uuid
    QString volumeId;
    QString volumeName;
    QString svm;
    QString name;
    QDateTime created; ///< UTC
    QString comment;
    QString snapmirrorLabel;
    QString state;        ///< "valid", "invalid", "partial" or empty
    qint64 sizeBytes = 0; ///< 0 when the system does not report it

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const Snapshot &) const = default;
};

struct Svm
{
    QString source;
    QString id;
    QString name;
    QString state;

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const Svm &) const = default;
};

struct Aggregate
{
    QString source;
    QString id;
    QString name;
    QString node;
    QString state;
    qint64 sizeBytes = 0;
    qint64 usedBytes = 0;
    qint64 availableBytes = 0;

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const Aggregate &) const = default;
};

/// ONTAP QoS policy: the volume service level on ONTAP.
struct QosPolicy
{
    QString source;
    QString id;
    QString name;
    QString svm;
    bool adaptive = false;
    qint64 maxIops = 0; ///< fixed policies, 0 = unlimited
    qint64 maxMbps = 0; ///< fixed policies, MB/s, 0 = unlimited
    qint64 minIops = 0;
    qint64 expectedIopsPerTb = 0; ///< adaptive policies
    qint64 peakIopsPerTb = 0;     ///< adaptive policies
    int objectCount = 0;

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const QosPolicy &) const = default;
};

/// An Azure NetApp Files capacity pool: the service level of the volumes in it. Key: ARM id
/// (lower-case; ARM ids compare case-insensitively).
struct CapacityPool
{
    QString source;
    QString id;      ///< ARM id, lower-cased
    QString armId;   ///< ARM id as the service returned it
    QString name;    ///< pool name ("pool-premium"), not ARM's "account/pool"
    QString account; ///< NetApp account name
    QString resourceGroup;
    QString location;
    QString poolId;            ///< the service's uuid
    QString serviceLevel;      ///< "Standard", "Premium", "Ultra", "Flexible"
    QString qosType;           ///< "Auto", "Manual"
    qint64 sizeBytes = 0;      ///< provisioned size (1 TiB steps; 4 TiB = 4398046511104)
    qint64 allocatedBytes = 0; ///< sum of its volumes' quotas
    int volumeCount = 0;
    double totalThroughputMibps = 0;    ///< the pool's throughput budget
    double utilizedThroughputMibps = 0; ///< assigned to its volumes
    QString provisioningState;

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const CapacityPool &) const = default;
};

/// An AKS managed cluster of an Azure source. Key: ARM id, lower-cased.
struct AksCluster
{
    QString source;
    QString id;    ///< ARM id, lower-cased
    QString armId; ///< as returned
    QString name;
    QString resourceGroup;
    QString location;
    QString kubernetesVersion; ///< "1.33.2"
    QString fqdn;              ///< API server host
    QString provisioningState;
    QString powerState;       ///< "Running", "Stopped"
    int nodeCount = 0;        ///< over all agent pools
    QStringList agentPools;   ///< "gpupool: 3 x Standard_NC6s_v3", one per pool
    QString kubernetesSource; ///< name of the Strata Kubernetes source added from it, empty = none

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const AksCluster &) const = default;
};

struct FlexCache
{
    QString source;
    QString id;
    QString name;
    QString svm;
    qint64 sizeBytes = 0;
    QString path;
    QString origin; ///< "cluster:svm:volume" of the first origin

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const FlexCache &) const = default;
};

/// An event reported by a system (ONTAP EMS). Key: "<node>/<index>".
struct Event
{
    QString source;
    QString id;
    QDateTime time;   ///< UTC
    QString severity; ///< "emergency", "alert", "error", "notice", "informational", "debug"
    QString name;     ///< message name, e.g. "wafl.vol.full"
    QString message;
    QString node;
    QString object; ///< what it concerns, "Pod runai-team-a/a-1-g" (Kubernetes); empty for EMS

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const Event &) const = default;
};

// ---- Object storage: StorageGRID grids, tenants and buckets ----

/// A StorageGRID grid's summary (`/grid/health`, product version, topology). Key: the source
/// name (one grid per source).
struct GridSummary
{
    QString source;
    QString id;                                               ///< = source
    QString gridName;                                         ///< topology root name, "datalake"
    QString productVersion;                                   ///< "11.8.0.2-20240131.1852.bbc9e4a"
    QString apiVersion;                                       ///< "v4" or "v3", from /api/versions
    int alertsCritical = 0, alertsMajor = 0, alertsMinor = 0; ///< active alerts by severity
    int nodesConnected = 0, nodesAdminDown = 0, nodesUnknown = 0;
    QString activeIlmPolicy; ///< name of the active ILM policy, empty when unknown
    qint64 usableBytes = -1; ///< storage usable space over all storage nodes, -1 unknown
    qint64 usedBytes = -1;   ///< object data bytes stored, -1 unknown

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const GridSummary &) const = default;
};

/// A grid node (`/grid/node-health`). Key: node id.
struct GridNode
{
    QString source;
    QString id;
    QString name;     ///< "dc1-sn1"
    QString site;     ///< site name
    QString type;     ///< "primaryAdminNode", "storageNode", "gatewayNode", ... (may be empty)
    QString severity; ///< "normal", "minor", "major", "critical"
    QString state;    ///< "connected", "administratively-down", "unknown"

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const GridNode &) const = default;
};

/// A StorageGRID alert, active (`/grid/alerts`) or resolved (`/grid/alert-history`). Key: the
/// grid's alert id.
struct GridAlert
{
    QString source;
    QString id;
    QString name;        ///< rule name, "Low object data storage"
    QString severity;    ///< "critical", "major", "minor"
    QString summary;     ///< annotations.summary
    QString description; ///< annotations.description
    QString node;        ///< labels.instance / node name, may be empty
    QString site;        ///< may be empty
    QDateTime startsAt;  ///< UTC
    QDateTime endsAt;    ///< UTC, invalid while active
    bool resolved = false;
    bool silenced = false;

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const GridAlert &) const = default;
};

/// A tenant account with usage (`/grid/accounts-cache`, `/grid/accounts/{id}/usage`). Key: the
/// 20-digit account id.
struct Tenant
{
    QString source;
    QString id;
    QString name;
    QString description;
    QStringList capabilities; ///< "management", "s3"
    qint64 quotaBytes = -1;   ///< -1 = no quota
    qint64 dataBytes = 0;
    qint64 objectCount = 0;
    int bucketCount = 0;
    /// Data bytes added over the last 7 days (metric-query-range), negative when it shrank;
    /// nullopt when the grid did not answer.
    std::optional<qint64> growth7dBytes;

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const Tenant &) const = default;
};

/// An S3 bucket of a tenant (usage with includeBucketDetail). Key: "<tenantId>/<bucket>".
struct Bucket
{
    QString source;
    QString id; ///< "<tenantId>/<name>"
    QString tenantId;
    QString tenantName;
    QString name;
    QString region;
    bool versioning = false;
    qint64 objectCount = 0;
    qint64 dataBytes = 0;
    qint64 quotaBytes = -1;              ///< -1 = no quota
    std::optional<qint64> growth7dBytes; ///< as Tenant::growth7dBytes

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const Bucket &) const = default;
};

// ---- Data: datasets, commits, cache targets and cached commits (TR-4841) ----

enum class DatasetKind
{
    S3Prefix,   ///< a prefix in a bucket ("datasets/fraud_jun/"); commits are manifests beside it
    S3Bucket,   ///< a whole bucket; commits are manifests under ".strata/commits/"
    OntapVolume ///< an ONTAP volume; commits are its snapshots, caching is a FlexClone
};

QString datasetKindName(DatasetKind kind); ///< "s3_prefix", "s3_bucket", "ontap_volume"

/// A versioned dataset. Key: "<bucket>/<prefix>" for S3 datasets ("datasets/fraud_jun/"),
/// "<bucket>/" for a bucket, the volume uuid for ONTAP.
struct Dataset
{
    QString source; ///< the StorageGRID (or ONTAP) source holding it
    QString id;
    QString name; ///< "fraud_jun": the prefix's last component, bucket or volume name
    DatasetKind kind = DatasetKind::S3Prefix;
    QString bucket;   ///< S3 kinds
    QString prefix;   ///< S3Prefix: "fraud_jun/" (ends with '/'); empty for a bucket
    QString volumeId; ///< OntapVolume: the volume uuid
    int commitCount = 0;
    QString headCommit;     ///< newest commit id, empty when none
    qint64 sizeBytes = 0;   ///< bytes of the head commit (0 when no commit)
    qint64 objectCount = 0; ///< objects of the head commit
    QDateTime lastActivity; ///< UTC: newest commit or cache use, invalid when none

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const Dataset &) const = default;
};

/// An immutable dataset version. S3: a manifest object (connectors/dataset/manifest.h), id =
/// the SHA-256 (64 lower-case hex) of the manifest's bytes. ONTAP: a snapshot (id = uuid).
/// Key: the id.
struct Commit
{
    QString source;
    QString id;
    QString datasetId;
    QString datasetName;
    QString parent; ///< parent commit id, empty for the first
    QString author;
    QString message;
    QDateTime time; ///< UTC commit time
    qint64 objectCount = 0;
    qint64 bytes = 0;    ///< sum of the objects' sizes
    QString manifestKey; ///< S3: key of the manifest object; ONTAP: snapshot name

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const Commit &) const = default;
};

/// A volume next to a compute cluster that holds cached commits ("NFS connected"), registered in
/// the config (AppConfig::cacheTargets) and mounted by that cluster through a PVC. Key: the
/// target's name; `source` is the Kubernetes source of its cluster.
struct CacheTarget
{
    QString source; ///< Kubernetes source name
    QString id;     ///< target name, unique in the config, "dgx-cache-1"
    QString namespaceName;
    QString pvc;           ///< claim name in `namespaceName`
    QString pvcPhase;      ///< "Bound", ... empty when the claim was not found
    QString storageSource; ///< joined storage source (ONTAP/Azure), empty when unknown
    QString storageVolumeId;
    QString volumeName;            ///< "svm_cache/cache_01" or the ANF volume, empty when unknown
    qint64 capacityBytes = 0;      ///< the volume's size, else the PVC capacity
    qint64 usedBytes = 0;          ///< the volume's used bytes (all content), 0 when unknown
    qint64 cachedBytes = 0;        ///< bytes of cached commits on it (loading counts what is done)
    int evictAfterDays = 3;        ///< unused for this long => evicted
    int highWatermarkPercent = 90; ///< above this usage, least recently used are evicted first
    QString problem;               ///< why it cannot take caches now ("PVC not found"), empty when fine

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const CacheTarget &) const = default;
};

enum class CacheState
{
    Requested,
    Loading,
    Ready,
    Evicting,
    Evicted,
    Failed
};

QString cacheStateName(CacheState state); ///< "requested", "loading", "ready", "evicting", "evicted", "failed"
std::optional<CacheState> cacheStateFromName(const QString &name);

/// A commit cached (or being cached) on a target. Its state lives in the target's cluster: the
/// ConfigMap "strata-cache-<target>" and the loader/evictor Jobs. Key: "<target>/<commitId>";
/// `source` is the target's Kubernetes source.
struct CachedCommit
{
    QString source;
    QString id; ///< "<target>/<commitId>"
    QString target;
    QString commitId;
    QString datasetSource; ///< the StorageGRID/ONTAP source of the dataset
    QString datasetId;
    QString datasetName;
    CacheState state = CacheState::Requested;
    qint64 objectsDone = 0, objectsTotal = 0;
    qint64 bytesDone = 0, bytesTotal = 0;
    QString path;        ///< directory on the cache volume (= mount subPath), "fraud_jun/3f2a9c01d4e5b6a7"
    QString job;         ///< current loader or evictor Job "<namespace>/<name>", may be empty
    QString reason;      ///< Failed: why ("ETag of fraud_jun/x.csv changed since the commit")
    QDateTime requested; ///< UTC
    QDateTime readyAt;   ///< UTC, invalid unless it became ready
    QDateTime lastUsed;  ///< UTC: newest start/finish of a pod mounting it, invalid = never
    QStringList usedBy;  ///< jobs ("<namespace>/<name>") that mounted it, newest first
    QDateTime evictAt;   ///< UTC: when the policy will evict it, invalid = not planned
    QString evictReason; ///< "unused for 3 days", "over the 90 % high watermark (LRU)"

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const CachedCommit &) const = default;
};

// ---- Compute: Kubernetes GPU clusters, projects and jobs (TR-4858 / Run:ai semantics) ----

// GPU amounts are milli-GPUs (MilliGpu, format.h: 1000 = one GPU), so 0.6 + 0.4 == 1 exactly;
// formatGpus() prints them.

/// A Kubernetes cluster. Key: the source name (one cluster per source).
struct GpuCluster
{
    QString source;
    QString id; ///< = source
    QString name;
    QString version;     ///< "v1.34.1"
    bool hasKai = false; ///< projects come from scheduling.run.ai/v2 Queues (else namespace quotas)
    int nodeCount = 0;
    int gpuNodeCount = 0;
    MilliGpu gpuTotal = 0;     ///< allocatable nvidia.com/gpu over Ready nodes
    MilliGpu gpuAllocated = 0; ///< held by bound pods
    /// Allocated GPUs whose DCGM utilization is below 10 % (0 when utilization is unknown).
    MilliGpu gpuIdleAllocated = 0;
    MilliGpu quotaTotal = 0; ///< sum of project quotas; should equal gpuTotal (SCHEDULING.md 3.2.4)
    int runningJobs = 0;
    int pendingJobs = 0;           ///< pending, preempted and container-creating
    double utilization = -1;       ///< mean DCGM GPU utilization % over allocated GPUs, -1 unknown
    bool metricsAvailable = false; ///< a Prometheus answered the last metrics poll

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const GpuCluster &) const = default;
};

/// One physical GPU of a node and what is packed on it.
struct GpuSlot
{
    int index = 0;
    MilliGpu used = 0;       ///< 0..1000
    QStringList jobs;        ///< "b-1-g06 0.6" per job on this GPU
    double utilization = -1; ///< DCGM %, -1 unknown

    bool operator==(const GpuSlot &) const = default;
};

/// A GPU node. Key: node name.
struct GpuNode
{
    QString source;
    QString id; ///< node name
    QString name;
    QString gpuProduct;   ///< "Tesla-V100-SXM2-32GB" (nvidia.com/gpu.product), may be empty
    int gpuMemoryMiB = 0; ///< per GPU, 0 unknown
    int gpuCount = 0;     ///< capacity nvidia.com/gpu
    MilliGpu allocatable = 0;
    MilliGpu allocated = 0;
    QList<GpuSlot> slots;    ///< one per physical GPU, index order
    double utilization = -1; ///< mean over its GPUs, -1 unknown
    bool ready = false;
    bool schedulable = true;
    int runningJobs = 0;

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const GpuNode &) const = default;
};

/// Where a project comes from.
enum class ProjectOrigin
{
    KaiQueue,      ///< a scheduling.run.ai/v2 Queue
    NamespaceQuota ///< a namespace with a requests.nvidia.com/gpu ResourceQuota
};

/// A project (team): guaranteed GPUs, what it holds and what it waits for. Key: project name.
struct Project
{
    QString source;
    QString id; ///< project name (queue name, or namespace)
    QString name;
    QString namespaceName; ///< where its jobs run ("runai-team-a"), may be empty
    ProjectOrigin origin = ProjectOrigin::KaiQueue;
    MilliGpu quota = 0;         ///< deserved / guaranteed GPUs; -1 = no quota set
    MilliGpu limit = -1;        ///< hard limit, -1 = none
    double overQuotaWeight = 1; ///< KAI share of spare GPUs (SCHEDULING.md R4 uses the quota)
    MilliGpu allocated = 0;     ///< GPUs held by its running and starting jobs
    MilliGpu inQuota = 0;       ///< min(allocated, quota)
    MilliGpu overQuota = 0;     ///< max(0, allocated - quota)
    MilliGpu pending = 0;       ///< GPUs requested by its queued jobs
    /// Water-filling fair share of the cluster (SCHEDULING.md R4) from quotas and demand.
    MilliGpu fairShare = 0;
    int runningJobs = 0;
    int queuedJobs = 0;
    double utilization = -1;    ///< mean DCGM % over its allocated GPUs, -1 unknown
    MilliGpu idleAllocated = 0; ///< allocated GPUs below 10 % utilization

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const Project &) const = default;
};

enum class JobType
{
    Train,      ///< preemptible, may run over quota
    Interactive ///< non-preemptible, within quota
};

enum class JobStatus
{
    Pending,           ///< new, waiting for its first start
    Preempted,         ///< was running, paused to give GPUs back, waiting to run again
    ContainerCreating, ///< bound to a node, starting
    Running,
    Succeeded,
    Failed,
    Unknown
};

QString jobTypeName(JobType type);       ///< "train", "interactive"
QString jobStatusName(JobStatus status); ///< "pending", "preempted", "container_creating", ...

/// A workload (batch Job and its pod). Key: "<namespace>/<name>".
struct Job
{
    QString source;
    QString id; ///< "<namespace>/<name>"
    QString name;
    QString namespaceName;
    QString project;
    QString user; ///< may be empty
    JobType type = JobType::Train;
    JobStatus status = JobStatus::Unknown;
    MilliGpu gpusRequested = 0;
    MilliGpu gpusAllocated = 0; ///< 0 unless bound
    QString node;               ///< empty while pending
    QString gpuIndices;         ///< "3" or "0,1" on its node, empty when unknown
    QString image;
    QStringList command;     ///< command then args
    QStringList pvcs;        ///< claim names it mounts (same namespace)
    QStringList pvcSubPaths; ///< parallel to `pvcs`: the mount's subPath, empty when none
    QString podName;         ///< the current pod, may be empty
    QDateTime created;       ///< UTC, job creation (wait and age count from here)
    QDateTime started;       ///< UTC, start of the current run; invalid when not running
    QDateTime finished;      ///< UTC, invalid unless succeeded/failed
    QString pendingReason;   ///< why it waits, empty when not pending
    /// The kubelet's word for a container that cannot run ("ImagePullBackOff", "ErrImagePull",
    /// "CrashLoopBackOff", "OOMKilled", "CreateContainerConfigError", ...), as kubectl, Headlamp
    /// and Lens show it; empty while nothing fails. Such a job may hold GPUs yet never runs:
    /// desktop, CLI (REASON) and web (`reason`) show it as failing. Details stay in pendingReason.
    QString failureReason;
    bool createdByCli = false;
    QString createdBy;          ///< "cli", "strata" or empty
    double gpuUtilization = -1; ///< DCGM % over its GPUs, -1 unknown

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const Job &) const = default;
};

/// A job that holds GPUs now (Running, ContainerCreating).
inline bool holdsGpus(const Job &job)
{
    return job.status == JobStatus::Running || job.status == JobStatus::ContainerCreating;
}

/// A job waiting for GPUs (Pending, Preempted).
inline bool waitsForGpus(const Job &job)
{
    return job.status == JobStatus::Pending || job.status == JobStatus::Preempted;
}

/// A PersistentVolumeClaim joined to its PV and, through the CSI volume handle or Trident's
/// internalName, to the storage volume behind it. Key: "<namespace>/<name>".
struct Pvc
{
    QString source;
    QString id;
    QString namespaceName;
    QString name;
    QString phase; ///< "Bound", "Pending", "Lost"
    QString storageClass;
    qint64 capacityBytes = 0; ///< status capacity, else the request
    QString accessModes;      ///< "RWX", "RWO,ROX"
    QString pvName;
    QString csiDriver; ///< "csi.trident.netapp.io"
    QString volumeHandle;
    QString backendVolume; ///< storage-side volume name (Trident internalName, NFS path leaf)
    QString nfsServer;
    QString nfsPath;
    QString storageSource;   ///< Strata source holding that volume (joined), empty when unknown
    QString storageVolumeId; ///< the volume's id in that source, empty when unknown
    QStringList usedBy;      ///< job names mounting it

    [[nodiscard]] const QString &key() const { return id; }
    bool operator==(const Pvc &) const = default;
};

/// Water-filling fair share (SCHEDULING.md R4): each project gets min(demand, quota), the rest
/// of `capacity` is split in proportion to quota among projects still wanting more, repeatedly.
/// `quota` and `demand` are parallel; the result is parallel to them. Quotas < 0 count as 0.
/// When rounding leaves less than one milli-GPU per hungry project, the rest goes one milli-GPU
/// at a time in list order, so no capacity is left unshared while someone wants it.
QList<MilliGpu> fairShares(MilliGpu capacity, const QList<MilliGpu> &quota, const QList<MilliGpu> &demand);
/// The same with the spare split in proportion to `weight` (parallel, >= 0; KAI's over-quota
/// weight) instead of quota. A project of weight 0 gets only min(demand, quota).
QList<MilliGpu>
fairShares(MilliGpu capacity, const QList<MilliGpu> &quota, const QList<MilliGpu> &demand, const QList<qint64> &weight);

// formatBytes, formatRate, formatPercent, formatCount and kUnknownText: models/core/domain/format.h.

} // namespace strata::core

Q_DECLARE_METATYPE(strata::core::SourceStatus)
