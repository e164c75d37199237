#pragma once

// Internal to the StorageGRID simulator: grid topology, tenants, tokens, fault knobs and the
// deterministic models (alerts, metrics) behind the management API.

#include "simulators/storagegrid/storagegridsimulator.h"

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QString>

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace strata::sim::storagegrid {

struct GridNode
{
    QString id;   ///< uuid
    QString name; ///< "dc1-s1"
    QString type; ///< adminNode, storageNode, apiGatewayNode
    bool primaryAdmin = false;
};

struct Token
{
    std::int64_t expiresMs = 0;
    QString accountId; ///< empty = grid administrator
    QString username;
};

struct ManagementFault
{
    QRegularExpression path;
    QString kind;
    int status = 500;
    int remaining = 1;
};

/// One alert occurrence (active when endsMs is 0 or in the future).
struct AlertInstance
{
    QString id;               ///< fingerprint of the labels: the same for every occurrence
    std::int64_t eventId = 0; ///< this occurrence's record id (alert-history eventId)
    QString name;
    QString alertName; ///< Prometheus alertname label
    QString severity;  ///< critical, major, minor
    QString node;
    QString summary;
    QString description;
    std::int64_t startsMs = 0;
    std::int64_t endsMs = 0;
};

struct GridState
{
    mutable std::mutex mutex;
    QString siteId;
    std::vector<GridNode> nodes;
    std::vector<TenantSpec> tenants;
    QHash<QString, Token> tokens;
    std::vector<ManagementFault> faults;
    int authorizations = 0;
    int logouts = 0;
    int managementRequests = 0;
    int s3Requests = 0;
    int slowDownRemaining = 0;
    std::int64_t s3LatencyMs = 0;
    std::uint64_t tokenCounter = 0;
    std::uint64_t requestCounter = 0;
    /// access key -> {secret, tenant account id}
    std::vector<std::pair<std::string, std::pair<std::string, QString>>> s3Keys;
};

/// Days of resolved alerts /grid/alert-history keeps (the API documents no figure; a filter
/// cannot reach further back).
constexpr int kAlertHistoryRetentionDays = 10;

/// Alerts of the model that overlap [fromMs, toMs] (firing and resolved), newest first.
/// "Low installed node memory" on dc1-s3 fires for 4 minutes of every 10 (from minute 2),
/// "Node network connectivity error" on dc1-g1 fired once for 25 minutes two days before `nowMs`,
/// and "Low object data storage" on dc1-s1 fired once for an hour nine days before `nowMs`.
std::vector<AlertInstance> modelAlerts(const StorageGridSimulatorOptions &options,
                                       const std::vector<GridNode> &nodes,
                                       std::int64_t fromMs,
                                       std::int64_t toMs,
                                       std::int64_t nowMs);

/// ISO 8601 UTC with milliseconds.
QString isoMs(std::int64_t ms);
/// Parses ISO 8601 or a Unix timestamp (seconds, fractional allowed); nullopt when neither.
std::optional<std::int64_t> parseTimeMs(const QString &text);

/// Stable 64-bit hash (FNV-1a) of a string mixed with `salt`.
std::uint64_t stableHash(const std::string &text, std::uint64_t salt = 0);

/// The datalake objects of `dataset` at `revision` (1..revisions): key -> content.
struct DatasetObject
{
    std::string key;
    ObjectContent content;
    std::string contentType;
};
std::vector<DatasetObject> datasetObjects(const DatasetSpec &dataset, int revision, std::uint64_t seed);

/// The sentiment bucket's objects (support-center).
std::vector<DatasetObject> sentimentObjects(std::uint64_t seed);

} // namespace strata::sim::storagegrid
