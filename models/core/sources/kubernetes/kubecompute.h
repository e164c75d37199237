#pragma once

#include "connectors/kubernetes/dto.h"
#include "connectors/prometheus/dcgm.h"
#include "models/core/domain/estate.h"

#include <QDateTime>
#include <QHash>
#include <QStringList>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

/// Internal to the model layer (KubernetesSource and its tests): turns the Kubernetes objects a
/// source keeps current into Strata's compute records.
namespace strata::core::kube {

/// What moved in a ClusterCache since the builder last read it, by the cache maps' keys. The
/// reflectors fill it under the cache's mutex; ComputeBuilder::update() consumes it.
struct CacheChanges
{
    /// Rebuild everything: the first build, a re-list, or a change every job may depend on
    /// (queues, quotas and namespaces decide projects; DCGM readings every job's utilization).
    bool all = true;
    std::unordered_set<std::string> pods;
    std::unordered_set<std::string> jobs;
    std::unordered_set<std::string> podGroups;
    std::unordered_set<std::string> nodes;
    std::unordered_set<std::string> pvcs;
    bool pvs = false; ///< PV objects (they only feed PVC records)

    [[nodiscard]] bool any() const
    {
        return all || pvs || !pods.empty() || !jobs.empty() || !podGroups.empty() || !nodes.empty() || !pvcs.empty();
    }
    void clear() { *this = CacheChanges{false, {}, {}, {}, {}, {}, false}; }
};

/// Interns the short texts many pods share (namespace, node, phase, queue, user, image, command)
/// as implicitly shared QStrings: 50,000 pods on 2,000 nodes in 20 namespaces hold 2,000 node
/// names, not 50,000, and the job records built from them share that text too. Holds at most
/// kMaxEntries distinct texts (and as many lists); past that it returns unshared copies, so
/// values unique to each pod cannot grow it without bound. Not thread-safe: one owner (the
/// ClusterCache, under its source's mutex).
class StringPool
{
public:
    static constexpr std::size_t kMaxEntries = 65'536;

    /// `text` as a QString equal to qs(text), shared with every earlier call for the same text.
    QString intern(std::string_view text);
    /// `first` then `second` as one QStringList, shared like intern().
    QStringList internList(const std::vector<std::string> &first, const std::vector<std::string> &second);
    /// Distinct texts held (tests).
    [[nodiscard]] std::size_t size() const { return m_strings.size(); }

private:
    struct Hash
    {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
    };
    std::unordered_map<std::string, QString, Hash, std::equal_to<>> m_strings;
    std::unordered_map<std::string, QStringList, Hash, std::equal_to<>> m_lists;
};

/// What few pods carry (a waiting or killed container, a PVC, an unscheduled condition, an
/// explicit PodGroup): kept apart so that a running pod pays one null pointer for all of it.
struct CachedPodDetail
{
    /// Annotation pod-group-name; nullopt when absent (the job's group is then "pg-<name>").
    std::optional<std::string> podGroupName;
    QStringList pvcClaims;   ///< as PodDto::pvcClaims
    QStringList pvcSubPaths; ///< parallel to pvcClaims, as PodDto::pvcSubPaths
    QString waitingReason, waitingMessage, terminatedReason, lastTerminatedReason;
    int lastExitCode = -1;
    /// PodScheduled is False (the only status a job record reads), with its reason and message.
    bool notScheduled = false;
    QString scheduledReason, scheduledMessage;

    /// Every field at its default.
    static const CachedPodDetail &none();
    bool operator==(const CachedPodDetail &) const = default;
};

/// A pod as the source's cache keeps it: only the fields the job records read (kubecompute.cpp),
/// shared texts interned (StringPool), times parsed once. PodDto was about 1.1 KB a pod (most
/// of it ~30 empty strings) plus its texts; this is a fifth of that (docs/benchmarks.md,
/// "Kubernetes: list, watch and churn", its history). Two pods that differ only in what no job record reads (labels and
/// annotations other than those read, other conditions, a probe time, resourceVersion, uid,
/// further images) are equal: a kubelet heartbeat is no change.
struct CachedPod
{
    QString namespaceName; ///< interned
    QString name;
    std::string jobName; ///< as PodDto::jobName
    /// Interned, as the PodDto fields of the same names; `image` is the first container's.
    QString phase, nodeName, queue, user, createdBy, priorityClassName, image;
    QString gpuIndices;  ///< PodDto::gpuIndices as "0,1" (interned), empty when none
    QStringList command; ///< first container's command then args (interned)
    QDateTime created;   ///< creationTimestamp (parseTime: invalid when absent or malformed)
    QDateTime started;   ///< status.startTime, likewise
    qint64 gpuLimitMilli = 0;
    bool terminating = false;                      ///< deletionTimestamp set
    std::shared_ptr<const CachedPodDetail> detail; ///< null when every detail field is at its default

    /// The detail fields (defaults when there is no detail).
    [[nodiscard]] const CachedPodDetail &details() const;
    bool operator==(const CachedPod &other) const;
};

/// What the cache keeps of `pod`, its shared texts taken from `pool`.
CachedPod cachePod(const kubernetes::PodDto &pod, StringPool &pool);

/// Everything one Kubernetes source knows, keyed by objectKey() ("ns/name" or "name"). Owned by
/// the source's cache under its mutex; build() reads a consistent copy.
struct ClusterCache
{
    std::map<std::string, kubernetes::NodeDto> nodes;
    /// Pods as CachedPod (putPod()): the bulk of the cache at scale.
    std::unordered_map<std::string, CachedPod> pods;
    std::unordered_map<std::string, kubernetes::JobDto> jobs;
    std::map<std::string, kubernetes::QueueDto> queues;
    std::unordered_map<std::string, kubernetes::PodGroupDto> podGroups;
    std::map<std::string, kubernetes::ResourceQuotaDto> quotas;
    std::map<std::string, kubernetes::NamespaceDto> namespaces;
    std::map<std::string, kubernetes::PvcDto> pvcs;
    std::map<std::string, kubernetes::PvDto> pvs;
    std::vector<prometheus::GpuMetrics> gpuMetrics;
    bool metricsAvailable = false;
    bool hasKai = false;  ///< scheduling.run.ai/v2 queues are served
    std::string version;  ///< "v1.34.1"
    CacheChanges changes; ///< since the last ComputeBuilder::update()
    StringPool strings;   ///< the pods' shared texts

    /// Stores `pod` under pod.key() as a CachedPod; false when an equal record was there already
    /// (nothing a job record reads moved). Does not note the change in `changes`.
    bool putPod(const kubernetes::PodDto &pod);
};

/// A storage volume a PVC may resolve to (from the estate's ONTAP volumes), by volume name.
struct StorageVolumeRef
{
    QString source;
    QString id;
};

/// GPUs below this utilization (%) count as idle while allocated.
inline constexpr double kIdleUtilizationPct = 10.0;

/// Keeps a source's compute records between publishes and rebuilds only what a change touches:
/// a pod change rebuilds the job that owns it (and the one it left), then that job's node and
/// project; joins (pod -> job, job -> node/project/claim/podgroup) are kept by key, so the work
/// of an update follows the number of changed objects, not the cluster's size. One builder per
/// source, used by one thread at a time.
class ComputeBuilder
{
public:
    explicit ComputeBuilder(QString source);

    /// Brings the records up to `cache` given what moved (`changes`; the caller clears it).
    /// `storageChanged`: `storageByName` differs from the last call's. Returns only the lists
    /// that changed (null members = unchanged, so a change no record shows publishes nothing);
    /// `jobs` comes with `jobsDiff` against `jobsBase`, the jobs list returned before. The first
    /// update returns every list.
    ComputePublish update(const ClusterCache &cache,
                          const CacheChanges &changes,
                          const QHash<QString, StorageVolumeRef> &storageByName,
                          bool storageChanged);
    /// Every current list (after the first update).
    [[nodiscard]] const ComputePublish &current() const { return m_current; }

    /// Job records rebuilt by the last update (tests, benchmarks).
    [[nodiscard]] std::size_t lastRebuilt() const { return m_lastRebuilt; }

    /// Position of a job in the published order: creation time (invalid first), then id.
    struct Order
    {
        qint64 ms = 0; ///< creation time, the lowest qint64 when invalid
        /// The job's id: points into the record the order belongs to (Placed::job, or a record
        /// the caller holds), as `key` views the builder's record map, so an order costs no
        /// allocation and little room (three of them per job).
        const QString *id = nullptr;
        /// Builder key ("j:ns/name" Job, "p:ns/name" bare pod).
        std::string_view key;
        bool operator<(const Order &other) const;
    };

private:
    struct Placed
    {
        Order order;
        Ptr<Job> job;
        bool operator<(const Placed &other) const { return order < other.order; }
    };
    void resetInputs(const ClusterCache &cache);
    void trackPod(const ClusterCache &cache, const std::string &podKey, std::unordered_set<std::string> &dirty);
    std::string attachPod(const std::string &podKey, const CachedPod &pod);
    Ptr<Job> makeJob(const ClusterCache &cache, const std::string &key, std::string *groupKey) const;
    void unindex(const std::string &key, const Ptr<Job> &job);
    /// `sorted`: jobs come in published order (a full update), each placed at its set's end.
    void index(const std::string &key, const Ptr<Job> &job, bool sorted);
    GpuNode makeNode(const kubernetes::NodeDto &dto) const;
    Project makeProjectAggregate(const Project &base) const;

    QString m_source;
    bool m_first = true;
    ComputePublish m_current;
    std::size_t m_lastRebuilt = 0;
    // Inputs every job reads, rebuilt on a full update.
    QHash<QString, double> m_utilByGpu;
    QHash<QString, QString> m_projectByNamespace;
    std::map<QString, Project> m_projectBase; ///< the projects, before their aggregates
    bool m_defaultQueueInUse = false;
    // Records and joins, by builder key.
    std::unordered_map<std::string, Ptr<Job>> m_jobs;
    std::set<Placed> m_order;
    std::unordered_map<std::string, std::unordered_set<std::string>> m_podsOfJob; ///< "ns/job" -> pod keys
    /// A Job's pod key -> builder key it feeds (a bare pod feeds "p:" + its key: not listed).
    std::unordered_map<std::string, std::string> m_jobOfPod;
    /// builder key -> podgroup key, for a record whose pod names a group other than its own
    /// ("ns/pg-<name>", found from the group's key).
    std::unordered_map<std::string, std::string> m_groupOfJob;
    std::unordered_map<std::string, std::unordered_set<std::string>> m_jobsOfGroup;
    std::unordered_set<std::string> m_defaultQueueUsers;    ///< builder/pod keys in KAI's default-queue
    std::map<std::string, std::set<Placed>> m_placedOnNode; ///< node -> jobs holding its GPUs
    std::map<QString, std::set<Placed>> m_jobsOfProject;
    std::map<QString, std::multiset<Placed>> m_jobsOfClaim; ///< "ns/claim" -> jobs mounting it
    std::map<std::string, Ptr<GpuNode>> m_nodes;
    std::map<QString, Project> m_projectAggregates; ///< before fair shares
    int m_running = 0;                              ///< jobs holding GPUs (Running, ContainerCreating)
    int m_waiting = 0;                              ///< Pending, Preempted
};

/// Builds every compute list of `source` from `cache` at once (a fresh ComputeBuilder's first
/// update). `storageByName` maps a backend volume name (Trident internalName, NFS export leaf)
/// to a known storage volume.
ComputePublish build(const QString &source,
                     const ClusterCache &cache,
                     const QHash<QString, StorageVolumeRef> &storageByName,
                     const QDateTime &now);

/// Project name of a namespace by Run:ai's convention ("runai-team-a" -> "team-a"), else empty.
QString projectOfNamespace(const QString &namespaceName);
/// Namespace a project's jobs run in ("team-a" -> "runai-team-a").
QString namespaceOfProject(const QString &project);

/// RFC 3339 text to UTC QDateTime (invalid when empty or malformed).
QDateTime parseTime(const std::string &text);

} // namespace strata::core::kube
