#pragma once

#include "connectors/error.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::kubernetes {

/// Typed views of the objects Strata reads. parseXxx(json) never throws: an object that is not
/// a JSON object or has no metadata.name is an error (Kind::Parse, message names the kind and,
/// when known, the object); a malformed optional field is ignored (left at its default), so one
/// odd field never hides an object. Timestamps stay RFC 3339 strings as the server sent them
/// (empty when absent). GPU amounts are milli-GPUs (1000 = one GPU); sizes are bytes.

/// Value of a Kubernetes quantity ("8", "500m", "0.5", "1Gi", "100Mi", "1e3", "1.5k"), or
/// nullopt when `text` is not a quantity. Accepts a JSON number's text as well.
std::optional<long double> parseQuantity(std::string_view text);
/// Quantity * 1000 rounded up (Kubernetes' MilliValue): "8" -> 8000, "0.5" -> 500, "250m" -> 250.
std::optional<std::int64_t> quantityMilli(std::string_view text);
/// Quantity rounded up to a whole unit (Kubernetes' Value): "1Gi" -> 1073741824, "1.5" -> 2.
std::optional<std::int64_t> quantityValue(std::string_view text);
/// A quantity given as a JSON string or number (CRDs use both), in milli-units; nullopt if neither.
std::optional<std::int64_t> quantityMilliOf(const nlohmann::json &value);

/// metadata of every object.
struct ObjectMeta
{
    std::string namespace_; ///< empty for cluster-scoped objects
    std::string name;
    std::string uid;
    std::string resourceVersion;
    std::map<std::string, std::string> labels;
    std::map<std::string, std::string> annotations;
    std::string creationTimestamp;
    std::string deletionTimestamp; ///< set while the object is terminating

    /// "ns/name" or "name" (the Reflector's key).
    [[nodiscard]] std::string key() const { return namespace_.empty() ? name : namespace_ + "/" + name; }

    /// Field-wise; callers that ignore resourceVersion-only updates copy it over first.
    bool operator==(const ObjectMeta &) const = default;
};

/// status.conditions[] entry (Pod, Job, Node, PodGroup ...).
struct Condition
{
    std::string type;
    std::string status; ///< "True", "False", "Unknown"
    std::string reason;
    std::string message;
    std::string lastTransitionTime;

    /// Field-wise; callers that ignore resourceVersion-only updates copy it over first.
    bool operator==(const Condition &) const = default;
};

struct NodeDto : ObjectMeta
{
    std::int64_t gpuCapacityMilli = 0;    ///< status.capacity["nvidia.com/gpu"], 0 when absent
    std::int64_t gpuAllocatableMilli = 0; ///< status.allocatable["nvidia.com/gpu"]
    std::string gpuProduct;               ///< label nvidia.com/gpu.product
    std::int64_t gpuMemoryMiB = 0;        ///< label nvidia.com/gpu.memory, 0 when absent
    bool ready = false;                   ///< condition Ready == True
    bool unschedulable = false;           ///< spec.unschedulable (cordoned)
    std::vector<Condition> conditions;

    /// Field-wise; callers that ignore resourceVersion-only updates copy it over first.
    bool operator==(const NodeDto &) const = default;
};

struct NamespaceDto : ObjectMeta
{
    std::string phase; ///< "Active", "Terminating"

    /// Field-wise; callers that ignore resourceVersion-only updates copy it over first.
    bool operator==(const NamespaceDto &) const = default;
};

struct PodDto : ObjectMeta
{
    std::string phase;    ///< Pending, Running, Succeeded, Failed, Unknown
    std::string nodeName; ///< empty until bound
    /// Label job-name (or batch.kubernetes.io/job-name), else the name of an owning Job.
    std::string jobName;
    std::string queue;     ///< label kai.scheduler/queue
    std::string user;      ///< label user
    std::string createdBy; ///< label strata.io/created-by: "cli", "strata", empty = other
    std::string priorityClassName;
    std::string schedulerName;
    /// Sum of containers' limits["nvidia.com/gpu"] (requests when no limit) * 1000, or the
    /// gpu-fraction annotation * 1000 when there is no whole-GPU limit; 0 = no GPU.
    std::int64_t gpuLimitMilli = 0;
    /// Annotation runai-gpu ("0" or "0,1"): physical GPU indices on nodeName.
    std::vector<int> gpuIndices;
    std::vector<std::string> images;    ///< one per container, in order
    std::vector<std::string> command;   ///< first container's command
    std::vector<std::string> args;      ///< first container's args
    std::vector<std::string> pvcClaims; ///< volumes[].persistentVolumeClaim.claimName
    /// Parallel to pvcClaims: the subPath of the first container mount of that volume (in
    /// container order), empty when mounted whole or not mounted by any container.
    std::vector<std::string> pvcSubPaths;
    std::string startTime;
    /// First waiting container's reason ("ContainerCreating", "ImagePullBackOff"), else empty.
    std::string waitingReason;
    std::string waitingMessage;
    /// First container whose current state is terminated with a reason other than
    /// "Completed" ("OOMKilled", "Error"; kubectl's STATUS column shows it), else empty.
    std::string terminatedReason;
    /// First container's lastState.terminated.reason ("OOMKilled" before a restart), else
    /// empty; with its exitCode (137 for OOMKilled), -1 when absent.
    std::string lastTerminatedReason;
    int lastExitCode = -1;
    /// PodScheduled condition; status empty when the pod has none yet.
    Condition scheduledCondition;
    /// DisruptionTarget condition True (about to be preempted/evicted).
    bool disruptionTarget = false;
    std::string disruptionReason; ///< its reason, e.g. "PreemptionByScheduler"
    std::vector<Condition> conditions;

    /// Field-wise; callers that ignore resourceVersion-only updates copy it over first.
    bool operator==(const PodDto &) const = default;
};

struct JobDto : ObjectMeta
{
    std::string queue, user, createdBy; ///< labels as on PodDto
    std::string priorityClassName;      ///< pod template's
    /// Pod template GPUs, as PodDto::gpuLimitMilli (template annotations for gpu-fraction).
    std::int64_t gpuMilli = 0;
    std::string image; ///< first container's
    std::vector<std::string> command, args;
    std::vector<std::string> pvcClaims;
    std::vector<std::string> pvcSubPaths; ///< parallel to pvcClaims, as PodDto::pvcSubPaths
    int active = 0, succeeded = 0, failed = 0;
    int backoffLimit = 6; ///< spec.backoffLimit (6 when unset): failed pods retried up to this
    int completions = 1;  ///< spec.completions (1 when unset)
    bool suspended = false;
    std::string startTime, completionTime;
    std::vector<Condition> conditions; ///< Complete, Failed, Suspended, ...
    bool complete = false;             ///< condition Complete True
    bool failedCondition = false;      ///< condition Failed True

    /// Field-wise; callers that ignore resourceVersion-only updates copy it over first.
    bool operator==(const JobDto &) const = default;
};

struct EventDto : ObjectMeta
{
    std::string involvedKind, involvedNamespace, involvedName;
    std::string reason, message;
    std::string type; ///< Normal or Warning
    std::string firstTimestamp, lastTimestamp, eventTime;
    /// The best timestamp available: eventTime, lastTimestamp, firstTimestamp, creationTimestamp.
    std::string timestamp;
    int count = 1;
    std::string reportingComponent; ///< reportingComponent, else source.component

    /// Field-wise; callers that ignore resourceVersion-only updates copy it over first.
    bool operator==(const EventDto &) const = default;
};

struct ResourceQuotaDto : ObjectMeta
{
    std::int64_t hardGpuMilli = -1; ///< spec.hard["requests.nvidia.com/gpu"], -1 when not set
    std::int64_t usedGpuMilli = 0;  ///< status.used["requests.nvidia.com/gpu"]

    /// Field-wise; callers that ignore resourceVersion-only updates copy it over first.
    bool operator==(const ResourceQuotaDto &) const = default;
};

struct PvcDto : ObjectMeta
{
    std::string phase; ///< Pending, Bound, Lost
    std::string storageClass;
    std::string volumeName;
    std::int64_t capacityBytes = 0; ///< status.capacity.storage (0 until bound)
    std::int64_t requestBytes = 0;  ///< spec.resources.requests.storage
    std::vector<std::string> accessModes;
    std::string dataSourceKind, dataSourceName; ///< spec.dataSource (restore from a VolumeSnapshot)

    /// Field-wise; callers that ignore resourceVersion-only updates copy it over first.
    bool operator==(const PvcDto &) const = default;
};

struct PvDto : ObjectMeta
{
    std::string phase; ///< Available, Bound, Released, Failed
    std::string csiDriver, volumeHandle;
    std::map<std::string, std::string> volumeAttributes; ///< Trident: "internalName", "backendUUID", ...
    std::string nfsServer, nfsPath;                      ///< spec.nfs
    std::string claimNamespace, claimName;               ///< spec.claimRef
    std::int64_t capacityBytes = 0;
    std::string storageClass;
    std::string reclaimPolicy;

    /// Field-wise; callers that ignore resourceVersion-only updates copy it over first.
    bool operator==(const PvDto &) const = default;
};

struct StorageClassDto : ObjectMeta
{
    std::string provisioner;
    std::map<std::string, std::string> parameters;
    std::string reclaimPolicy;
    bool allowVolumeExpansion = false;
    bool isDefault = false; ///< annotation storageclass.kubernetes.io/is-default-class == "true"

    /// Field-wise; callers that ignore resourceVersion-only updates copy it over first.
    bool operator==(const StorageClassDto &) const = default;
};

struct VolumeSnapshotDto : ObjectMeta
{
    std::string pvcName; ///< spec.source.persistentVolumeClaimName
    std::string snapshotClassName;
    bool readyToUse = false;
    std::int64_t restoreSizeBytes = 0;
    std::string snapshotContentName; ///< status.boundVolumeSnapshotContentName
    std::string creationTime;        ///< status.creationTime
    std::string errorMessage;        ///< status.error.message

    /// Field-wise; callers that ignore resourceVersion-only updates copy it over first.
    bool operator==(const VolumeSnapshotDto &) const = default;
};

/// KAI Queue (a Run:ai project or department).
struct QueueDto : ObjectMeta
{
    std::string displayName;
    std::string parentQueue;
    std::int64_t gpuQuotaMilli = -1; ///< spec.resources.gpu.quota * 1000; -1 = unlimited / not set
    std::int64_t gpuLimitMilli = -1; ///< spec.resources.gpu.limit * 1000; -1 = no limit
    double overQuotaWeight = 1.0;
    int priority = 0;
    std::int64_t allocatedGpuMilli = 0; ///< status.allocated["nvidia.com/gpu"] (or "gpu")
    std::int64_t requestedGpuMilli = 0; ///< status.requested[...]

    /// Field-wise; callers that ignore resourceVersion-only updates copy it over first.
    bool operator==(const QueueDto &) const = default;
};

/// KAI PodGroup: one per job, carries the scheduler's view of it.
struct PodGroupDto : ObjectMeta
{
    std::string queue;
    std::string preemptibility; ///< "preemptible", "non-preemptible", empty
    std::string priorityClassName;
    int minMember = 1;
    std::string phase; ///< Pending, Running, Succeeded, Failed (empty when unknown)
    /// First status.schedulingConditions[].message: why it is not scheduled.
    std::string pendingMessage;
    std::string pendingReason;
    bool evicted = false; ///< condition Evicted True
    std::string evictedMessage;
    std::vector<Condition> conditions;

    /// Field-wise; callers that ignore resourceVersion-only updates copy it over first.
    bool operator==(const PodGroupDto &) const = default;
};

/// A ConfigMap's string data (binaryData is ignored).
struct ConfigMapDto : ObjectMeta
{
    std::map<std::string, std::string> data; ///< data; a non-string value is skipped

    /// Field-wise; callers that ignore resourceVersion-only updates copy it over first.
    bool operator==(const ConfigMapDto &) const = default;
};

connectors::Result<ObjectMeta> parseMeta(const nlohmann::json &object, std::string_view kind);
connectors::Result<NodeDto> parseNode(const nlohmann::json &object);
connectors::Result<NamespaceDto> parseNamespace(const nlohmann::json &object);
connectors::Result<PodDto> parsePod(const nlohmann::json &object);
connectors::Result<JobDto> parseJob(const nlohmann::json &object);
connectors::Result<EventDto> parseEvent(const nlohmann::json &object);
connectors::Result<ResourceQuotaDto> parseResourceQuota(const nlohmann::json &object);
connectors::Result<PvcDto> parsePvc(const nlohmann::json &object);
connectors::Result<PvDto> parsePv(const nlohmann::json &object);
connectors::Result<StorageClassDto> parseStorageClass(const nlohmann::json &object);
connectors::Result<VolumeSnapshotDto> parseVolumeSnapshot(const nlohmann::json &object);
connectors::Result<QueueDto> parseQueue(const nlohmann::json &object);
connectors::Result<PodGroupDto> parsePodGroup(const nlohmann::json &object);
connectors::Result<ConfigMapDto> parseConfigMap(const nlohmann::json &object);

/// Parses every object of a list with `parse`, keeping the good ones and describing each bad
/// one in `skipped` (one sentence each). `Json` is nlohmann::json; a template parameter so that
/// this header needs only json_fwd.hpp under clang too (which checks non-dependent code early).
template <class T, class Parse, class Json = nlohmann::json>
std::vector<T> parseAll(const std::vector<Json> &objects, Parse parse, std::vector<std::string> *skipped = nullptr)
{
    std::vector<T> out;
    out.reserve(objects.size());
    for (const auto &object : objects) {
        auto parsed = parse(object);
        if (parsed) {
            out.push_back(std::move(*parsed));
        } else if (skipped) {
            skipped->push_back(parsed.error().message);
        }
    }
    return out;
}

} // namespace strata::kubernetes
