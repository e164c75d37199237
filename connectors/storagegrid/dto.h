#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

/// Typed records of the StorageGRID Grid and Tenant Management API (v3 and v4, the `data` member
/// of the response envelope). Sizes are bytes, counts are whole numbers, times stay the ISO 8601
/// text the grid sent ("2026-06-01T10:00:00.000Z").
///
/// Parsing rules (parse* functions): absent or null optional fields keep their defaults; a present
/// field of the wrong type throws std::invalid_argument naming the field; a missing required field
/// (`id` and/or `name` where listed) throws too. Whole numbers are accepted as JSON numbers or as
/// decimal strings (some grid versions quote 64-bit counters). StorageGridClient turns throws into
/// Kind::Parse naming the record.
namespace strata::storagegrid {

/// `GET /grid/health`.
struct GridHealth
{
    int alarmsCritical = 0, alarmsMajor = 0, alarmsMinor = 0, alarmsNotice = 0; ///< legacy alarms
    int alertsCritical = 0, alertsMajor = 0, alertsMinor = 0;                   ///< active alerts
    int nodesConnected = 0, nodesAdminDown = 0, nodesUnknown = 0;
};

/// One entry of `GET /grid/node-health`. Required: id, name.
struct NodeHealth
{
    std::string id;
    std::string name; ///< "dc1-sn1"
    std::string type; ///< "primaryAdminNode", "storageNode", "apiGatewayNode", ... (may be empty)
    std::string siteId;
    std::string siteName; ///< "dc1"
    std::string severity; ///< "normal", "minor", "major", "critical"
    std::string state;    ///< "connected", "administratively-down", "unknown"
};

/// One alert: an active one of `GET /grid/alerts` (parseAlert) or a resolved record of
/// `GET /grid/alert-history` (parseResolvedAlert). Required: id.
///
/// The two lists name their times differently (StorageGRID Management API swagger, models
/// `Alert` and `ResolvedAlertRecord`): an active alert has `startsAt`; a resolved record has
/// `startTime` and `endTime` and an `eventId`, and its `id` is the fingerprint of its labels, so
/// every recurrence of one alert on one node shares it.
struct Alert
{
    std::string id;          ///< active: the alert's id; resolved: the fingerprint of its labels
    std::string name;        ///< rule name, "Low installed node memory"
    std::string severity;    ///< labels.severity (else the record's severity): critical, major, minor
    std::string summary;     ///< annotations.summary
    std::string description; ///< annotations.description
    std::string instance;    ///< labels.instance (else the record's instance): node name, may be empty
    std::string siteName;    ///< labels.site_name, may be empty
    std::string startsAt;    ///< ISO 8601: active `startsAt`, resolved `startTime` (when triggered)
    std::string endsAt;      ///< ISO 8601: resolved `endTime` (when resolved); empty for an active alert
    std::string status;      ///< "active", "resolved", ... as sent
    bool silenced = false;   ///< active alerts only
    bool inhibited = false;
    std::optional<std::int64_t> eventId;       ///< resolved records: the record's own id
    std::map<std::string, std::string> labels; ///< every string label
};

/// A tenant account (`GET /grid/accounts`, `/grid/accounts-cache`). Required: id, name.
struct Account
{
    std::string id; ///< 20-digit account id
    std::string name;
    std::string description;                      ///< empty when null
    std::vector<std::string> capabilities;        ///< "management", "s3", "swift"
    std::optional<std::int64_t> quotaObjectBytes; ///< policy.quotaObjectBytes; nullopt = no quota
    bool useAccountIdentitySource = false;
    bool allowPlatformServices = false;
    bool allowSelectObjectContent = false;
    /// accounts-cache only (nullopt from /grid/accounts).
    std::optional<std::int64_t> objectCount;
    std::optional<std::int64_t> dataBytes;
};

/// A bucket in `GET /grid/accounts/{id}/usage?includeBucketDetail=true`. Required: name.
struct BucketUsage
{
    std::string name;
    std::string region;
    bool versioningEnabled = false;
    std::int64_t objectCount = 0;
    std::int64_t dataBytes = 0;
    std::optional<std::int64_t> quotaObjectBytes; ///< nullopt = no quota
};

/// `GET /grid/accounts/{id}/usage` (grid) or `/org/usage` (tenant).
struct AccountUsage
{
    std::string calculationTime; ///< when the grid computed the numbers (ISO 8601)
    std::int64_t objectCount = 0;
    std::int64_t dataBytes = 0;
    std::vector<BucketUsage> buckets; ///< empty unless bucket detail was asked for
};

/// One ILM policy of `GET /grid/ilm-policies`. Required: name.
struct IlmPolicy
{
    std::string id;
    std::string name;
    std::string reason;
    bool active = false;
    std::vector<std::string> rules; ///< rule ids or names in order (strings, or objects' id/name)
    std::string defaultRule;        ///< may be empty
};

/// A tenant's bucket (`GET /org/containers`). Required: name.
struct Container
{
    std::string name;
    std::string creationTime; ///< ISO 8601
    std::string region;
};

/// One (time, value) point of a Prometheus result. Values "NaN", "+Inf", "-Inf" parse as such.
struct MetricSample
{
    double time = 0; ///< Unix seconds (fractional)
    double value = 0;
};

struct MetricSeries
{
    std::map<std::string, std::string> labels; ///< metric{}: __name__, instance, node_id, ...
    std::vector<MetricSample> samples;         ///< one for vector/scalar, many for matrix
};

/// `data` of `/grid/metric-query` ("vector" or "scalar") and `/grid/metric-query-range` ("matrix").
struct MetricResult
{
    std::string resultType;
    std::vector<MetricSeries> series;
};

GridHealth parseGridHealth(const nlohmann::json &data);
NodeHealth parseNodeHealth(const nlohmann::json &item);
Alert parseAlert(const nlohmann::json &item);
Alert parseResolvedAlert(const nlohmann::json &item);
Account parseAccount(const nlohmann::json &item);
BucketUsage parseBucketUsage(const nlohmann::json &item);
AccountUsage parseAccountUsage(const nlohmann::json &data);
IlmPolicy parseIlmPolicy(const nlohmann::json &item);
Container parseContainer(const nlohmann::json &item);
/// Throws for an unknown resultType or malformed points.
MetricResult parseMetricResult(const nlohmann::json &data);

} // namespace strata::storagegrid
