#include "connectors/azure/dto.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace strata::azure {

using nlohmann::json;

namespace {

// ARM sends null for unset optional properties; null and absent both mean "absent".
const json *find(const json &j, std::initializer_list<const char *> path)
{
    const json *node = &j;
    for (const char *key : path) {
        if (!node->is_object()) {
            return nullptr;
        }
        auto it = node->find(key);
        if (it == node->end() || it->is_null()) {
            return nullptr;
        }
        node = &*it;
    }
    return node;
}

std::string dotted(std::initializer_list<const char *> path)
{
    std::string text;
    for (const char *key : path) {
        text += (text.empty() ? "" : ".") + std::string(key);
    }
    return text;
}

// Without JSON_DIAGNOSTICS nlohmann does not say which key had the wrong type.
template <class T> void convert(const json &node, std::initializer_list<const char *> path, T &out)
{
    try {
        node.get_to(out);
    } catch (const json::type_error &e) {
        std::string_view detail = e.what();
        if (auto end = detail.find("] "); end != std::string_view::npos) {
            detail.remove_prefix(end + 2);
        }
        throw json::type_error::create(e.id, "field '" + dotted(path) + "': " + std::string(detail), &node);
    }
}

template <class T> void read(const json &j, std::initializer_list<const char *> path, T &out)
{
    if (const json *node = find(j, path)) {
        convert(*node, path, out);
    }
}

template <class T> void read(const json &j, std::initializer_list<const char *> path, std::optional<T> &out)
{
    if (const json *node = find(j, path)) {
        T value{};
        convert(*node, path, value);
        out = std::move(value);
    }
}

template <class T> void require(const json &j, std::initializer_list<const char *> path, T &out)
{
    const json *node = find(j, path);
    if (!node) {
        throw json::out_of_range::create(403, "key '" + dotted(path) + "' not found", &j);
    }
    convert(*node, path, out);
}

void readResource(const json &j, std::string &id, std::string &name, std::string &location)
{
    require(j, {"id"}, id);
    require(j, {"name"}, name);
    read(j, {"location"}, location);
}

bool equalsNoCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

} // namespace

void from_json(const json &j, NetAppAccount &v)
{
    readResource(j, v.id, v.name, v.location);
    read(j, {"properties", "provisioningState"}, v.provisioningState);
}

void from_json(const json &j, CapacityPool &v)
{
    readResource(j, v.id, v.name, v.location);
    read(j, {"properties", "poolId"}, v.poolId);
    require(j, {"properties", "serviceLevel"}, v.serviceLevel);
    require(j, {"properties", "size"}, v.sizeBytes);
    read(j, {"properties", "qosType"}, v.qosType);
    read(j, {"properties", "totalThroughputMibps"}, v.totalThroughputMibps);
    read(j, {"properties", "utilizedThroughputMibps"}, v.utilizedThroughputMibps);
    read(j, {"properties", "provisioningState"}, v.provisioningState);
}

void from_json(const json &j, AnfVolume &v)
{
    readResource(j, v.id, v.name, v.location);
    require(j, {"properties", "fileSystemId"}, v.fileSystemId);
    read(j, {"properties", "creationToken"}, v.creationToken);
    read(j, {"properties", "usageThreshold"}, v.usageThresholdBytes);
    read(j, {"properties", "serviceLevel"}, v.serviceLevel);
    read(j, {"properties", "throughputMibps"}, v.throughputMibps);
    read(j, {"properties", "actualThroughputMibps"}, v.actualThroughputMibps);
    read(j, {"properties", "protocolTypes"}, v.protocolTypes);
    read(j, {"properties", "provisioningState"}, v.provisioningState);
    read(j, {"properties", "subnetId"}, v.subnetId);
    v.mountIps.clear();
    if (const json *targets = find(j, {"properties", "mountTargets"}); targets && targets->is_array()) {
        for (const json &target : *targets) {
            std::string ip;
            read(target, {"ipAddress"}, ip);
            if (!ip.empty()) {
                v.mountIps.push_back(std::move(ip));
            }
        }
    }
}

void from_json(const json &j, AnfSnapshot &v)
{
    readResource(j, v.id, v.name, v.location);
    read(j, {"properties", "snapshotId"}, v.snapshotId);
    read(j, {"properties", "created"}, v.created);
    read(j, {"properties", "provisioningState"}, v.provisioningState);
}

void from_json(const json &j, MetricPoint &v)
{
    require(j, {"timeStamp"}, v.timeStamp);
    read(j, {"average"}, v.average);
}

void from_json(const json &j, MetricSeries &v)
{
    require(j, {"name", "value"}, v.name);
    read(j, {"unit"}, v.unit);
    v.points.clear();
    if (const json *series = find(j, {"timeseries"}); series && series->is_array() && !series->empty()) {
        read((*series)[0], {"data"}, v.points);
    }
}

void from_json(const json &j, AgentPool &v)
{
    require(j, {"name"}, v.name);
    read(j, {"count"}, v.count);
    read(j, {"vmSize"}, v.vmSize);
    read(j, {"mode"}, v.mode);
}

void from_json(const json &j, ManagedCluster &v)
{
    readResource(j, v.id, v.name, v.location);
    read(j, {"properties", "kubernetesVersion"}, v.kubernetesVersion);
    read(j, {"properties", "fqdn"}, v.fqdn);
    read(j, {"properties", "provisioningState"}, v.provisioningState);
    read(j, {"properties", "powerState", "code"}, v.powerState);
    read(j, {"properties", "agentPoolProfiles"}, v.agentPools);
}

void from_json(const json &j, Subscription &v)
{
    require(j, {"subscriptionId"}, v.subscriptionId);
    read(j, {"displayName"}, v.displayName);
    read(j, {"state"}, v.state);
    read(j, {"tenantId"}, v.tenantId);
}

std::optional<ArmId> ArmId::parse(const std::string &id)
{
    std::vector<std::string> segments;
    std::size_t pos = 0;
    while (pos < id.size()) {
        while (pos < id.size() && id[pos] == '/') {
            ++pos;
        }
        if (pos >= id.size()) {
            break;
        }
        const std::size_t end = std::min(id.find('/', pos), id.size());
        segments.push_back(id.substr(pos, end - pos));
        pos = end;
    }
    if (segments.size() < 2 || segments.size() % 2 != 0 || !equalsNoCase(segments[0], "subscriptions")) {
        return std::nullopt;
    }
    ArmId out;
    for (std::size_t i = 0; i + 1 < segments.size(); i += 2) {
        const std::string &type = segments[i];
        const std::string &name = segments[i + 1];
        if (equalsNoCase(type, "subscriptions")) {
            out.subscription = name;
        } else if (equalsNoCase(type, "resourceGroups")) {
            out.resourceGroup = name;
        } else if (equalsNoCase(type, "netAppAccounts")) {
            out.account = name;
        } else if (equalsNoCase(type, "capacityPools")) {
            out.pool = name;
        } else if (equalsNoCase(type, "volumes")) {
            out.volume = name;
        } else if (equalsNoCase(type, "snapshots")) {
            out.snapshot = name;
        } else if (equalsNoCase(type, "managedClusters")) {
            out.managedCluster = name;
        }
    }
    return out;
}

} // namespace strata::azure
