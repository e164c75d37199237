#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

/// Typed records of the ONTAP REST API (ONTAP 9.6+, `/api`). Field names follow the API;
/// sizes are bytes, QoS limits as ONTAP reports them (IOPS, MB/s), latency µs, throughput B/s.
/// Fields absent from a response stay at their defaults / nullopt: ONTAP omits what was not
/// asked for with `fields=`, so absence is normal and never an error (null counts as absent).
/// Required, throwing nlohmann out_of_range when missing: `uuid` and `name` of every object
/// (Cluster, Svm, Aggregate, Volume, Snapshot, FlexCache, QosPolicy), EmsEvent::index and
/// Job::uuid/state. A present field of the wrong type throws type_error naming the field.
/// Enumerations stay strings, so values newer than this code pass through unchanged.
namespace strata::ontap {

/// `name` + `uuid` reference to another object (svm, aggregate, policy, volume, snapshot).
struct ObjectRef
{
    std::string name;
    std::string uuid; ///< may be empty when ONTAP returns only the name

    bool operator==(const ObjectRef &) const = default;
};

/// GET /api/cluster
struct Cluster
{
    std::string name;
    std::string uuid;
    std::string versionFull;   ///< "NetApp Release 9.14.1: ..."
    int versionGeneration = 0; ///< 9
    int versionMajor = 0;      ///< 14
    int versionMinor = 0;      ///< 1
};

/// GET /api/svm/svms
struct Svm
{
    std::string uuid;
    std::string name;
    std::string state;   ///< "running", "stopped", "starting", "stopping", "deleting"
    std::string subtype; ///< "default", "dp_destination", "sync_source", ... (may be empty)
};

/// GET /api/storage/aggregates
struct Aggregate
{
    std::string uuid;
    std::string name;
    std::string node;                ///< home node name, may be empty
    std::string state;               ///< "online", "offline", ...
    std::int64_t sizeBytes = 0;      ///< space.block_storage.size
    std::int64_t usedBytes = 0;      ///< space.block_storage.used
    std::int64_t availableBytes = 0; ///< space.block_storage.available
};

/// Volume performance sample from the `metric` field (latest 15 s average).
struct VolumeMetric
{
    std::string timestamp; ///< ISO 8601 as sent
    double readIops = 0, writeIops = 0, totalIops = 0;
    double readThroughputBps = 0, writeThroughputBps = 0, totalThroughputBps = 0; ///< bytes/s
    double readLatencyUs = 0, writeLatencyUs = 0, totalLatencyUs = 0;             ///< microseconds

    bool operator==(const VolumeMetric &) const = default;
};

/// GET /api/storage/volumes (one record)
struct Volume
{
    std::string uuid;
    std::string name;
    ObjectRef svm;
    std::vector<ObjectRef> aggregates; ///< one for FlexVol, several for FlexGroup
    std::string state;                 ///< "online", "offline", "restricted", "error", "mixed"
    std::string style;                 ///< "flexvol", "flexgroup", "flexgroup_constituent"
    std::string type;                  ///< "rw", "dp", "ls"
    std::int64_t sizeBytes = 0;        ///< `size` (else space.size), provisioned bytes; 0 when absent
    /// space.used; nullopt when absent. `space` is optional in the Swagger and ONTAP leaves it
    /// out for an offline volume: unknown, not 0.
    std::optional<std::int64_t> usedBytes;
    std::optional<std::int64_t> availableBytes; ///< space.available; nullopt when absent
    /// space.percent_used (0..100); ONTAP < 9.9 lacks it, then derived from used/size; nullopt
    /// when neither is there.
    std::optional<double> percentUsed;
    int snapshotReservePercent = 0;               ///< space.snapshot.reserve_percent (0..90)
    std::int64_t snapshotUsedBytes = 0;           ///< space.snapshot.used
    std::optional<ObjectRef> qosPolicy;           ///< qos.policy, absent when none is assigned
    bool isFlexClone = false;                     ///< clone.is_flexclone
    std::optional<ObjectRef> cloneParentVolume;   ///< clone.parent_volume
    std::optional<ObjectRef> cloneParentSnapshot; ///< clone.parent_snapshot
    std::string nasPath;                          ///< nas.path (junction), empty when unmounted
    int snapshotCount = 0;                        ///< snapshot_count
    std::string createTime;                       ///< ISO 8601, may be empty
    std::optional<VolumeMetric> metric;           ///< only when fields includes `metric`

    bool operator==(const Volume &) const = default;
};

/// GET /api/storage/volumes/{uuid}/snapshots
struct Snapshot
{
    std::string uuid;
    std::string name;
    std::string createTime; ///< ISO 8601 with offset, "2024-03-01T10:00:00+00:00"
    std::string comment;
    std::string expiryTime;      ///< may be empty
    std::string snapmirrorLabel; ///< may be empty
    std::string state;           ///< "valid", "invalid", "partial"; may be empty
    std::int64_t sizeBytes = 0;  ///< `size` (9.10+), 0 when not reported
    ObjectRef volume;
    ObjectRef svm;
};

/// GET /api/storage/flexcache/flexcaches
struct FlexCacheOrigin
{
    std::string clusterName; ///< may be empty for a local origin
    std::string svmName;
    std::string volumeName;
};

struct FlexCache
{
    std::string uuid;
    std::string name;
    ObjectRef svm;
    std::int64_t sizeBytes = 0;
    std::string path; ///< junction path, may be empty
    std::vector<FlexCacheOrigin> origins;
};

/// GET /api/storage/qos/policies
struct QosPolicy
{
    std::string uuid;
    std::string name;
    ObjectRef svm;
    int objectCount = 0;     ///< volumes/LUNs using it
    bool isAdaptive = false; ///< true when `adaptive` is set, false for `fixed`
    /// fixed: max_throughput_iops / max_throughput_mbps (0 = unlimited), min likewise.
    std::int64_t maxIops = 0;
    std::int64_t maxMbps = 0;
    std::int64_t minIops = 0;
    std::int64_t minMbps = 0;
    bool capacityShared = false;
    /// adaptive: IOPS per TB of allocated/used space.
    std::int64_t expectedIopsPerTb = 0;
    std::int64_t peakIopsPerTb = 0;
    std::int64_t absoluteMinIops = 0;
};

/// GET /api/support/ems/events
struct EmsEvent
{
    std::int64_t index = 0;  ///< monotonically increasing per node
    std::string time;        ///< ISO 8601
    std::string node;        ///< node.name
    std::string messageName; ///< message.name, e.g. "wafl.vol.full"
    std::string severity;    ///< "emergency", "alert", "error", "notice", "informational", "debug"
    std::string logMessage;  ///< the rendered text
};

/// GET /api/cluster/jobs/{uuid}
struct Job
{
    std::string uuid;
    std::string description;
    std::string state; ///< "queued", "running", "paused", "success", "failure"
    std::string message;
    std::int64_t code = 0; ///< final error code on failure (integer; a numeric string is accepted)
    std::string startTime;
    std::string endTime;

    [[nodiscard]] bool isTerminal() const { return state == "success" || state == "failure"; }
};

void from_json(const nlohmann::json &j, ObjectRef &v);
void from_json(const nlohmann::json &j, Cluster &v);
void from_json(const nlohmann::json &j, Svm &v);
void from_json(const nlohmann::json &j, Aggregate &v);
void from_json(const nlohmann::json &j, Volume &v);
void from_json(const nlohmann::json &j, Snapshot &v);
void from_json(const nlohmann::json &j, FlexCache &v);
void from_json(const nlohmann::json &j, QosPolicy &v);
void from_json(const nlohmann::json &j, EmsEvent &v);
void from_json(const nlohmann::json &j, Job &v);

} // namespace strata::ontap
