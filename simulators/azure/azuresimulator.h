#pragma once

#include "simulators/common/simulatorbase.h"
#include "simulators/common/tlsidentity.h"

#include <QByteArray>
#include <QDateTime>
#include <QHostAddress>
#include <QJsonObject>
#include <QObject>
#include <QString>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>

namespace strata::sim {
class ServerThread;
}

namespace strata::sim::azure {

struct AzureState;
struct AzureExchange;

/// Start-up options of an AzureSimulator.
struct AzureSimulatorOptions
{
    enum class Preset
    {
        /// The subscription and the resource group `resourceGroup` only: no NetApp account, no AKS.
        Empty,
        /// The demo estate (ARCHITECTURE.md): account "anf-ai-lab" with pools "pool-standard"
        /// (Standard, 4 TiB, Auto QoS) and "pool-premium" (Premium, 4 TiB, Auto); volumes
        /// "criteo-data" (1000 GiB, NFSv3, mount 10.0.1.4) and "tusimple" (500 GiB, mount 10.0.1.5)
        /// in pool-standard with two snapshots each; AKS cluster "aks-gpu" (system pool 1 x
        /// Standard_D4s_v5, gpupool 3 x Standard_NC6s_v3).
        AiLab,
        /// AiLab plus account "anf-scale" in resource group "scale-rg" with `scaleVolumes` volumes
        /// of 100 GiB in pools of at most 100 volumes (Standard/Premium/Ultra in turn).
        Scale,
    };

    Preset preset = Preset::AiLab;

    // Microsoft Entra ID (the token endpoint). Only this client with this secret gets tokens.
    QString tenantId = QStringLiteral("5c1d2e3f-4a5b-4c6d-8e7f-90a1b2c3d4e5");
    QString clientId = QStringLiteral("0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a");
    QString clientSecret = QStringLiteral("strata-sim-secret");
    /// Lifetime of issued access tokens (expires_in), seconds. 1..86400.
    int tokenLifetimeSeconds = 3600;

    // Azure Resource Manager.
    QString subscriptionId = QStringLiteral("8a1b2c3d-4e5f-4a6b-9c7d-0e1f2a3b4c5d");
    QString subscriptionName = QStringLiteral("ai-lab"); ///< displayName of the subscription
    /// Resource group of the AiLab objects (and the one resource group of the Empty preset).
    QString resourceGroup = QStringLiteral("ai-lab-rg");
    QString location = QStringLiteral("eastus");
    int scaleVolumes = 500; ///< Scale preset: volumes in "anf-scale", 0..100000
    /// Real time every long-running operation (create, delete, pool change, revert, snapshot)
    /// takes from acceptance to its terminal status. Tests use ~100 ms.
    std::chrono::milliseconds lroDuration{3000};
    /// Retry-After (seconds) sent with 202/201 LRO answers and in-progress status documents; the
    /// Azure SDKs (and `az`) wait this long between polls (they fall back to 30 s without it).
    int lroRetryAfterSeconds = 1;
    /// Items per list page; longer lists get a nextLink (absolute URL with $skiptoken). >= 1.
    int pageSize = 100;
    /// ARM read requests allowed per rolling hour before 429 + Retry-After (0 = unlimited; the
    /// real default is 12,000). x-ms-ratelimit-remaining-subscription-reads counts down either way.
    int readsPerHour = 0;
    std::uint64_t seed = 42; ///< uuids (fileSystemId, poolId, snapshotId) and metric noise

    /// Kubeconfig (YAML) that listClusterUserCredential returns for "aks-gpu" (e.g. a
    /// KubeSimulator's kubeconfig()). Empty = one pointing at
    /// https://aks-gpu-<hash>.hcp.<location>.azmk8s.io:443 with a static token.
    QByteArray aksKubeconfig;

    TlsIdentity tls; ///< generated at start() when null (SANs localhost and 127.0.0.1)
    QHostAddress address = QHostAddress(QHostAddress::LocalHost);
    quint16 port = 0; ///< 0 = any free port
};

/// A protocol-faithful Azure endpoint on one HTTPS port: the Microsoft Entra ID token endpoint
/// (client credentials, for a tenant or the "adfs" authority that `az cloud register` uses) and
/// Azure Resource Manager for the subscription, Microsoft.NetApp (accounts, capacity pools,
/// volumes, snapshots, revert, poolChange, operationResults), Microsoft.Insights volume metrics
/// and Microsoft.ContainerService managed clusters. Point clients at baseUrl() as both the
/// authority (`<baseUrl>/<tenant>` or `<baseUrl>/adfs`) and the ARM endpoint.
///
/// ARM behaviour follows the real service: api-version required on every ARM call
/// (Microsoft.NetApp accepts 2022-05-01 .. 2025-12-15), bearer token required (expired ->
/// 401 InvalidAuthenticationTokenExpired), ARM error bodies {"error":{code,message,details}},
/// nextLink paging, ETags, x-ms-ratelimit-remaining-* headers. Writes are long-running operations:
/// PUT create -> 201 + Azure-AsyncOperation; DELETE and POST actions -> 202 + Azure-AsyncOperation +
/// Location (…&operationResultResponseType=Location), both under
/// /subscriptions/{sub}/providers/Microsoft.NetApp/locations/{location}/operationResults/{opId}.
/// The status document reads Creating/Deleting/InProgress with percentComplete until lroDuration
/// has passed, then Succeeded (or Failed with an error). The Location URL answers 202 while
/// running, then 200 with the resource (creates) or 204 (actions, deletes).
///
/// poolChange moves the volume when its operation completes: the ARM id and name change to the
/// new pool, serviceLevel and (Auto QoS) throughputMibps follow the new pool (quota TiB x 16
/// Standard, 64 Premium, 128 Ultra MiB/s), fileSystemId stays. ANF limits are enforced
/// synchronously with 400 ARM errors: pool size a multiple of 1 TiB and >= 1 TiB
/// (InvalidPoolSize), volume quota 100 GiB .. 100 TiB (InvalidVolumeQuota), a pool whose volumes'
/// quotas would exceed its size (PoolSizeTooSmall), 500 volumes per pool (MaxVolumesPerPoolReached),
/// a pool change to another service level's pool within the same account only.
///
/// Metrics follow a deterministic load model per volume: observed throughput = min(demand, the
/// cap in force at that time), so criteo-data (demand ~40 MiB/s) sits at its Standard cap of
/// 15.6 MiB/s until it moves to Premium, and tusimple (demand ~1.2 MiB/s) stays far below its cap.
///
/// Control endpoints (no token needed; loopback), JSON bodies:
/// - GET /_sim/state: counts, operations, tokens issued, requests, fault rules;
/// - GET/POST/DELETE /_sim/faults, DELETE /_sim/faults/{id}: rules
///   {"method":"POST","path":"/poolChange$","kind":"status|reset|stall|malformed|truncate|latency|lroFail|lroHang",
///    "status":429,"retryAfterSeconds":2,"code":"...","message":"...","latency_ms":0,"count":1}
///   (path is a regular expression on the decoded path; lroFail/lroHang apply to the next
///   long-running operation accepted on a matching request: it ends Failed with code/message, or
///   never ends);
/// - POST /_sim/tokens/revoke: every issued token is now expired;
/// - POST /_sim/volumes/delete {"id":"<volume ARM id or fileSystemId>"}: the volume vanishes.
///
/// Lives on one thread (normally a ServerThread); the in-process API below may be called from
/// any thread and runs on the simulator's thread (blocking).
class AzureSimulator final : public SimulatorBase
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AzureSimulator)

public:
    using Options = AzureSimulatorOptions;

    explicit AzureSimulator(Options options = {}, QObject *parent = nullptr);
    ~AzureSimulator() override;

    /// Builds the preset and listens. Call on the simulator's thread. Returns false and sets
    /// errorString() on failure.
    bool start();
    /// Creates and starts a simulator on `thread`; the thread owns it. nullptr on failure.
    static AzureSimulator *startOnThread(ServerThread &thread, Options options, QString *error = nullptr);

    // errorString(), port() and baseUrl() ("https://127.0.0.1:<port>": ARM endpoint and authority
    // host) come from SimulatorBase.
    /// "<baseUrl>/<tenantId>": the authority a client-credentials client uses (token endpoint
    /// "<authorityUrl>/oauth2/v2.0/token").
    [[nodiscard]] QString authorityUrl() const { return m_baseUrl + QLatin1Char('/') + m_options.tenantId; }
    /// PEM of the serving certificate: clients trust it as their CA (REQUESTS_CA_BUNDLE for az).
    [[nodiscard]] QByteArray caPem() const { return m_options.tls.certificatePem; }
    [[nodiscard]] const Options &options() const { return m_options; }

    /// ARM ids of the demo objects ("/subscriptions/<sub>/resourceGroups/<rg>/providers/...").
    [[nodiscard]] QString accountId(const QString &account) const;
    [[nodiscard]] QString poolId(const QString &account, const QString &pool) const;
    [[nodiscard]] QString volumeId(const QString &account, const QString &pool, const QString &volume) const;
    [[nodiscard]] QString managedClusterId(const QString &name) const;

    // In-process API (any thread).
    /// The resource as ARM returns it on GET, or nullopt. `id` is an ARM id (case-insensitive);
    /// for volumes the fileSystemId also works (follows a volume across pool changes).
    std::optional<QJsonObject> volume(const QString &idOrFileSystemId) const;
    /// One volume's load in the 5-minute bucket starting at a time, from the same model Azure
    /// Monitor's metrics are served from (sampleLoad), whether now or in the past.
    struct PerfPoint
    {
        QString fileSystemId;
        double throughputBps = 0; ///< ReadThroughput + WriteThroughput
        double iops = 0;          ///< ReadIops + WriteIops
        double latencyUs = 0;     ///< read and write latency weighted by their IOPS
        double capBps = -1;       ///< the throughput cap in force then
    };
    /// Every volume that existed at `atMs` (UTC ms; rounded down to its PT5M bucket).
    QList<PerfPoint> perfAt(qint64 atMs) const;
    std::optional<QJsonObject> pool(const QString &id) const;
    /// Volumes of the pool (ARM GET bodies), empty when the pool does not exist.
    QList<QJsonObject> poolVolumes(const QString &poolId) const;
    /// Removes a volume at once (as if deleted elsewhere); running operations on it fail with
    /// ResourceNotFound when they complete. Returns false when there is no such volume.
    bool deleteVolume(const QString &idOrFileSystemId);
    /// Every access token issued so far is expired from now on (clients must get a new one).
    void revokeTokens();
    /// Adds a fault rule (JSON form of /_sim/faults); returns its id, or -1 with `error` set.
    int addFaultRule(const QJsonObject &rule, QString *error = nullptr);
    void clearFaultRules();
    /// Requests answered so far, all endpoints (control endpoints included).
    int requestCount() const;
    /// Requests to a token endpoint so far (successful or not).
    int tokenRequests() const;
    /// Long-running operations accepted so far, and those not yet terminal.
    int operationCount() const;
    int runningOperations() const;
    /// Observed total (read + write) throughput of a volume at `at` in MiB/s from the load model
    /// (what the metrics endpoint reports for the PT5M bucket containing `at`).
    double observedThroughputMibps(const QString &idOrFileSystemId, const QDateTime &at) const;
    /// Same as GET /_sim/state.
    QJsonObject state() const;

private:
    void handle(const Request &request, const Responder &responder) override;

    Options m_options;
    std::unique_ptr<AzureState> m_state;
};

} // namespace strata::sim::azure
