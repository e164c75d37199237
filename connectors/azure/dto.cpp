#include "connectors/azure/dto.h"

#include "connectors/http/jsonfields.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace strata::azure {

using nlohmann::json;

namespace {

// ARM sends null for unset optional properties; null and absent both mean "absent".
using http::jsonfields::find;
using http::jsonfields::read;
using http::jsonfields::require;

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
