#include "connectors/ontap/dto.h"

#include "connectors/http/jsonfields.h"

#include <nlohmann/json.hpp>

#include <charconv>

namespace strata::ontap {

using nlohmann::json;

namespace {

// ONTAP omits unrequested fields and occasionally sends null for unset ones; both mean "absent".
using http::jsonfields::convert;
using http::jsonfields::find;
using http::jsonfields::read;

// Required keys: a missing one throws out_of_range ("key 'uuid' not found").
template <class T> void require(const json &j, const char *key, T &out)
{
    convert(j.at(key), {key}, out);
}

std::optional<ObjectRef> readRef(const json &j, std::initializer_list<const char *> path)
{
    const json *node = find(j, path);
    if (!node) {
        return std::nullopt;
    }
    ObjectRef ref = node->get<ObjectRef>();
    if (ref.name.empty() && ref.uuid.empty()) {
        return std::nullopt;
    }
    return ref;
}

} // namespace

void from_json(const json &j, ObjectRef &v)
{
    if (!j.is_object()) {
        throw json::type_error::create(
            302, "object reference must be an object, not " + std::string(j.type_name()), &j);
    }
    read(j, {"name"}, v.name);
    read(j, {"uuid"}, v.uuid);
}

void from_json(const json &j, Cluster &v)
{
    require(j, "name", v.name);
    require(j, "uuid", v.uuid);
    read(j, {"version", "full"}, v.versionFull);
    read(j, {"version", "generation"}, v.versionGeneration);
    read(j, {"version", "major"}, v.versionMajor);
    read(j, {"version", "minor"}, v.versionMinor);
}

void from_json(const json &j, Svm &v)
{
    require(j, "uuid", v.uuid);
    require(j, "name", v.name);
    read(j, {"state"}, v.state);
    read(j, {"subtype"}, v.subtype);
}

void from_json(const json &j, Aggregate &v)
{
    require(j, "uuid", v.uuid);
    require(j, "name", v.name);
    read(j, {"node", "name"}, v.node);
    if (v.node.empty()) {
        read(j, {"home_node", "name"}, v.node);
    }
    read(j, {"state"}, v.state);
    read(j, {"space", "block_storage", "size"}, v.sizeBytes);
    read(j, {"space", "block_storage", "used"}, v.usedBytes);
    read(j, {"space", "block_storage", "available"}, v.availableBytes);
}

void from_json(const json &j, Volume &v)
{
    require(j, "uuid", v.uuid);
    require(j, "name", v.name);
    if (auto svm = readRef(j, {"svm"})) {
        v.svm = *svm;
    }
    read(j, {"aggregates"}, v.aggregates);
    read(j, {"state"}, v.state);
    read(j, {"style"}, v.style);
    read(j, {"type"}, v.type);
    read(j, {"size"}, v.sizeBytes);
    if (v.sizeBytes == 0) {
        read(j, {"space", "size"}, v.sizeBytes);
    }
    read(j, {"space", "used"}, v.usedBytes);
    read(j, {"space", "available"}, v.availableBytes);
    read(j, {"space", "percent_used"}, v.percentUsed);
    // space.percent_used arrived in 9.9; older clusters only send used and size.
    if (!v.percentUsed && v.usedBytes && v.sizeBytes > 0) {
        v.percentUsed = 100.0 * static_cast<double>(*v.usedBytes) / static_cast<double>(v.sizeBytes);
    }
    read(j, {"space", "snapshot", "reserve_percent"}, v.snapshotReservePercent);
    read(j, {"space", "snapshot", "used"}, v.snapshotUsedBytes);
    v.qosPolicy = readRef(j, {"qos", "policy"});
    read(j, {"clone", "is_flexclone"}, v.isFlexClone);
    v.cloneParentVolume = readRef(j, {"clone", "parent_volume"});
    v.cloneParentSnapshot = readRef(j, {"clone", "parent_snapshot"});
    read(j, {"nas", "path"}, v.nasPath);
    read(j, {"snapshot_count"}, v.snapshotCount);
    read(j, {"create_time"}, v.createTime);
    if (const json *m = find(j, {"metric"})) {
        VolumeMetric metric;
        read(*m, {"timestamp"}, metric.timestamp);
        read(*m, {"iops", "read"}, metric.readIops);
        read(*m, {"iops", "write"}, metric.writeIops);
        read(*m, {"iops", "total"}, metric.totalIops);
        read(*m, {"throughput", "read"}, metric.readThroughputBps);
        read(*m, {"throughput", "write"}, metric.writeThroughputBps);
        read(*m, {"throughput", "total"}, metric.totalThroughputBps);
        read(*m, {"latency", "read"}, metric.readLatencyUs);
        read(*m, {"latency", "write"}, metric.writeLatencyUs);
        read(*m, {"latency", "total"}, metric.totalLatencyUs);
        v.metric = metric;
    }
}

void from_json(const json &j, Snapshot &v)
{
    require(j, "uuid", v.uuid);
    require(j, "name", v.name);
    read(j, {"create_time"}, v.createTime);
    read(j, {"comment"}, v.comment);
    read(j, {"expiry_time"}, v.expiryTime);
    read(j, {"snapmirror_label"}, v.snapmirrorLabel);
    read(j, {"state"}, v.state);
    read(j, {"size"}, v.sizeBytes);
    if (auto volume = readRef(j, {"volume"})) {
        v.volume = *volume;
    }
    if (auto svm = readRef(j, {"svm"})) {
        v.svm = *svm;
    }
}

void from_json(const json &j, FlexCache &v)
{
    require(j, "uuid", v.uuid);
    require(j, "name", v.name);
    if (auto svm = readRef(j, {"svm"})) {
        v.svm = *svm;
    }
    read(j, {"size"}, v.sizeBytes);
    read(j, {"path"}, v.path);
    if (const json *origins = find(j, {"origins"})) {
        for (const json &o : origins->get_ref<const json::array_t &>()) {
            FlexCacheOrigin origin;
            read(o, {"cluster", "name"}, origin.clusterName);
            read(o, {"svm", "name"}, origin.svmName);
            read(o, {"volume", "name"}, origin.volumeName);
            v.origins.push_back(std::move(origin));
        }
    }
}

void from_json(const json &j, QosPolicy &v)
{
    require(j, "uuid", v.uuid);
    require(j, "name", v.name);
    if (auto svm = readRef(j, {"svm"})) {
        v.svm = *svm;
    }
    read(j, {"object_count"}, v.objectCount);
    v.isAdaptive = find(j, {"adaptive"}) != nullptr;
    read(j, {"fixed", "max_throughput_iops"}, v.maxIops);
    read(j, {"fixed", "max_throughput_mbps"}, v.maxMbps);
    read(j, {"fixed", "min_throughput_iops"}, v.minIops);
    read(j, {"fixed", "min_throughput_mbps"}, v.minMbps);
    read(j, {"fixed", "capacity_shared"}, v.capacityShared);
    read(j, {"adaptive", "expected_iops"}, v.expectedIopsPerTb);
    read(j, {"adaptive", "peak_iops"}, v.peakIopsPerTb);
    read(j, {"adaptive", "absolute_min_iops"}, v.absoluteMinIops);
}

void from_json(const json &j, EmsEvent &v)
{
    require(j, "index", v.index);
    read(j, {"time"}, v.time);
    read(j, {"node", "name"}, v.node);
    read(j, {"message", "name"}, v.messageName);
    read(j, {"message", "severity"}, v.severity);
    read(j, {"log_message"}, v.logMessage);
}

void from_json(const json &j, Job &v)
{
    require(j, "uuid", v.uuid);
    require(j, "state", v.state);
    read(j, {"description"}, v.description);
    read(j, {"message"}, v.message);
    // The swagger types code as an integer, but string-typed codes are common elsewhere in the API.
    if (const json *code = find(j, {"code"}); code && code->is_string()) {
        const auto &text = code->get_ref<const std::string &>();
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v.code);
        if (ec != std::errc{} || end != text.data() + text.size()) {
            throw json::type_error::create(302, "field 'code': \"" + text + "\" is not a number", code);
        }
    } else {
        read(j, {"code"}, v.code);
    }
    read(j, {"start_time"}, v.startTime);
    read(j, {"end_time"}, v.endTime);
}

} // namespace strata::ontap
