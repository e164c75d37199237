#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

/// Typed records of Azure Resource Manager: Azure NetApp Files (Microsoft.NetApp, api-version
/// 2025-06-01), Azure Monitor metrics, AKS managed clusters and subscriptions.
///
/// ARM resources share `id` (the full ARM resource id, "/subscriptions/.../volumes/v1"), `name`
/// (for nested ANF resources the slash-joined path "account/pool/volume") and `location`
/// ("eastus"). Sizes are bytes, throughputs MiB/s. Absent or null optional fields keep their
/// defaults; a present field of the wrong type throws nlohmann type_error naming the field;
/// a missing required field (`id`, `name` everywhere; listed per record) throws out_of_range.
/// AzureClient turns both into Kind::Parse naming the record. Enumerations stay strings so new
/// values pass through.
namespace strata::azure {

/// Microsoft.NetApp/netAppAccounts
struct NetAppAccount
{
    std::string id;
    std::string name; ///< the account name ("anf-ai-lab")
    std::string location;
    std::string provisioningState; ///< "Succeeded", "Creating", "Deleting", "Failed"
};

/// Microsoft.NetApp/netAppAccounts/capacityPools
struct CapacityPool
{
    std::string id;
    std::string name; ///< "account/pool" as ARM returns it; see ArmId for the pool name alone
    std::string location;
    std::string poolId;                 ///< UUID of the pool (properties.poolId)
    std::string serviceLevel;           ///< "Standard", "Premium", "Ultra", "Flexible" (required)
    std::int64_t sizeBytes = 0;         ///< provisioned size (properties.size, required), multiples of 1 TiB
    std::string qosType;                ///< "Auto" (throughput follows quota) or "Manual"
    double totalThroughputMibps = 0;    ///< throughput the pool can hand out
    double utilizedThroughputMibps = 0; ///< throughput assigned to its volumes
    std::string provisioningState;
};

/// Microsoft.NetApp/netAppAccounts/capacityPools/volumes
struct AnfVolume
{
    std::string id;
    std::string name; ///< "account/pool/volume"
    std::string location;
    /// UUID of the file system (required): stable across a pool change, when `id` moves under
    /// the new pool.
    std::string fileSystemId;
    std::string creationToken;            ///< the export path ("criteo-data"), unique per subnet
    std::int64_t usageThresholdBytes = 0; ///< quota (properties.usageThreshold), 100 GiB..100 TiB
    std::string serviceLevel;             ///< of the pool it is in
    /// Throughput cap in MiB/s: set by ANF for Auto QoS pools (quota x level rate), by the user
    /// for Manual QoS; nullopt when not reported.
    std::optional<double> throughputMibps;
    /// Cap in force (may differ from throughputMibps for large volumes); nullopt when absent.
    std::optional<double> actualThroughputMibps;
    std::vector<std::string> protocolTypes; ///< "NFSv3", "NFSv4.1", "CIFS"; empty when absent
    std::vector<std::string> mountIps;      ///< mountTargets[].ipAddress, in order
    std::string provisioningState;
    std::string subnetId; ///< ARM id of the delegated subnet
};

/// Microsoft.NetApp/.../volumes/snapshots
struct AnfSnapshot
{
    std::string id;
    std::string name; ///< "account/pool/volume/snapshot"
    std::string location;
    std::string snapshotId; ///< UUID
    std::string created;    ///< ISO 8601 UTC ("2017-08-15T13:23:33Z"), may be empty while creating
    std::string provisioningState;
};

/// One Azure Monitor sample (5-minute grain for ANF).
struct MetricPoint
{
    std::string timeStamp;         ///< ISO 8601 UTC, start of the grain
    std::optional<double> average; ///< nullopt when Monitor has no data for that grain
};

/// One metric of an Azure Monitor answer (first time series; ANF volume metrics have no
/// dimensions).
struct MetricSeries
{
    std::string name; ///< name.value: "ReadThroughput", "VolumeLogicalSize", ...
    /// "BytesPerSecond" (throughputs), "CountPerSecond" (IOPS), "MilliSeconds" (latency), "Bytes".
    std::string unit;
    std::vector<MetricPoint> points; ///< in time order
};

/// One node pool of an AKS cluster (properties.agentPoolProfiles[]).
struct AgentPool
{
    std::string name;   ///< "gpupool"
    int count = 0;      ///< nodes
    std::string vmSize; ///< "Standard_NC6s_v3"
    std::string mode;   ///< "System" or "User"
};

/// Microsoft.ContainerService/managedClusters
struct ManagedCluster
{
    std::string id;
    std::string name;
    std::string location;
    std::string kubernetesVersion; ///< "1.33.2"
    std::string fqdn;              ///< API server host, empty for private-only clusters
    std::string provisioningState;
    std::string powerState; ///< powerState.code: "Running" or "Stopped"
    std::vector<AgentPool> agentPools;
};

/// GET /subscriptions
struct Subscription
{
    std::string subscriptionId; ///< UUID (required)
    std::string displayName;
    std::string state; ///< "Enabled", "Disabled", "Warned", "PastDue", "Deleted"
    std::string tenantId;
};

/// The parts of an ANF (or any) ARM resource id. Segment names match case-insensitively
/// ("resourcegroups" works); absent parts stay empty.
struct ArmId
{
    std::string subscription;
    std::string resourceGroup;
    std::string account;        ///< netAppAccounts/{account}
    std::string pool;           ///< capacityPools/{pool}
    std::string volume;         ///< volumes/{volume}
    std::string snapshot;       ///< snapshots/{snapshot}
    std::string managedCluster; ///< managedClusters/{name}

    /// nullopt unless `id` starts with /subscriptions/{sub} and has an even number of
    /// segments (type/name pairs after a providers/{namespace} pair).
    static std::optional<ArmId> parse(const std::string &id);
};

void from_json(const nlohmann::json &j, NetAppAccount &v);
void from_json(const nlohmann::json &j, CapacityPool &v);
void from_json(const nlohmann::json &j, AnfVolume &v);
void from_json(const nlohmann::json &j, AnfSnapshot &v);
void from_json(const nlohmann::json &j, MetricPoint &v);
void from_json(const nlohmann::json &j, MetricSeries &v);
void from_json(const nlohmann::json &j, AgentPool &v);
void from_json(const nlohmann::json &j, ManagedCluster &v);
void from_json(const nlohmann::json &j, Subscription &v);

} // namespace strata::azure
