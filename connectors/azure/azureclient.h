#pragma once

#include "connectors/azure/dto.h"
#include "connectors/azure/token.h"
#include "connectors/http/httpclient.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::azure {

struct AzureClientOptions
{
    /// baseUrl "https://management.azure.com" (set when empty) or a simulator; retry applies to
    /// GET/PUT/DELETE; sleeper also paces LRO polling (tests pass a no-op recorder). `bearer`
    /// and `basic` are ignored: tokens come from the ITokenProvider.
    http::ClientOptions http;
    /// Subscription the ANF and AKS calls list (UUID). Required for everything but
    /// subscriptions().
    std::string subscriptionId;
    std::string apiVersion = "2025-06-01";        ///< Microsoft.NetApp
    std::string monitorApiVersion = "2023-10-01"; ///< Microsoft.Insights/metrics
    std::string aksApiVersion = "2025-07-01";     ///< Microsoft.ContainerService
    std::string subscriptionsApiVersion = "2022-12-01";
    /// Token scope; empty = "https://management.azure.com/.default" for the public cloud's
    /// base URL, else "<baseUrl>/.default".
    std::string scope;
    /// Wait between LRO polls when the server sends no Retry-After.
    std::chrono::milliseconds lroPollInterval{2000};
    /// Give up waiting for an LRO after this long; counts the larger of wall time and the sum of
    /// waits asked of the sleeper (deterministic under a no-op test sleeper).
    std::chrono::milliseconds lroTimeout{30 * 60'000};
};

/// One read of an LRO's status document (or a Location poll).
struct LroStatus
{
    std::string status;          ///< "InProgress", "Creating", "Moving", "Succeeded", ...
    double percentComplete = -1; ///< 0..100, -1 when not reported
    std::string operationId;     ///< last segment of the operation URL (name of the status doc)
    /// The URL being polled (Azure-AsyncOperation, else Location), absolute: a caller that
    /// stores it can follow the operation after a restart (getJson of it is the status doc).
    std::string operationUrl;
};

/// Called on the calling thread after each poll; exceptions from it are swallowed.
using LroProgress = std::function<void(const LroStatus &)>;

/// Blocking client of Azure Resource Manager for Azure NetApp Files, Azure Monitor, AKS and
/// subscriptions. Thread-safe when the transport and token provider are.
///
/// Conventions:
/// - every request carries `api-version` (the per-service one) unless its URL already has one
///   (nextLink and LRO URLs do) and `Authorization: Bearer` from the ITokenProvider;
/// - a 401 (InvalidAuthenticationTokenExpired, ExpiredAuthenticationToken, or any) makes the
///   client fetch a fresh token (forceRefresh) and repeat the request once; a second 401 ->
///   Kind::Auth;
/// - lists follow `nextLink` (absolute URL) until absent or repeating;
/// - GET/PUT/DELETE are retried per http.retry on 429/502/503/504/transport errors, honouring
///   Retry-After; POST actions are sent once: a 429 on a POST comes back as an error with
///   retryAfterSeconds set (ARM refused it before acting, so the caller may resend);
/// - LRO: a 201/202 with Azure-AsyncOperation is polled there until Succeeded/Failed/Canceled
///   (any other status keeps polling), honouring Retry-After else lroPollInterval; with only
///   Location, Location is polled until it answers 200/204 (202 = running). After Succeeded
///   with a Location, the Location is read once for the final result (a PUT without one reads
///   the resource).
///
/// Errors (never exceptions):
/// - ARM error body {"error":{code,message,details}} -> Kind::Api, apiCode = error.code,
///   message "<what>: <error.message>[ (<details[0].message>)]"; 401/403 -> Kind::Auth with the
///   same apiCode/message; other non-2xx -> Kind::Http (404 without body: apiCode "NotFound");
/// - 2xx with malformed JSON or a record missing a required field -> Kind::Parse naming `what`
///   and the record;
/// - LRO Failed -> Kind::Api with the status doc's error.code/message; Canceled -> Kind::Api
///   "<what> was canceled"; lroTimeout -> Kind::Timeout, outcomeUnknown, "<what> still running
///   after N s; Strata did not retry it"; any polling failure after ARM accepted the request
///   sets outcomeUnknown (reconcile, do not resubmit blindly).
class AzureClient
{
public:
    AzureClient(http::IHttpTransport &transport, ITokenProvider &tokens, AzureClientOptions options);

    // ---- generic ARM ---------------------------------------------------------------------
    /// GET of one document. `pathOrUrl` is "/subscriptions/..." (joined to baseUrl) or absolute.
    connectors::Result<nlohmann::json>
    getJson(const std::string &pathOrUrl, std::string_view what, const http::CancelToken &cancel = {});
    /// Every `value[]` item of a list, following nextLink.
    connectors::Result<std::vector<nlohmann::json>>
    listAll(const std::string &pathOrUrl, std::string_view what, const http::CancelToken &cancel = {});
    /// Sends a mutation and waits for its LRO. Returns the final resource body (from the 200/201
    /// answer, the Location, or a re-read), or null for actions/deletes without one.
    connectors::Result<nlohmann::json> sendLro(http::Method method,
                                               const std::string &pathOrUrl,
                                               const nlohmann::json &body,
                                               std::string_view what,
                                               const LroProgress &progress = {},
                                               const http::CancelToken &cancel = {});

    // ---- Azure NetApp Files -----------------------------------------------------------------
    /// All NetApp accounts of the subscription (subscription-wide list).
    connectors::Result<std::vector<NetAppAccount>> listAccounts(const http::CancelToken &cancel = {});
    connectors::Result<std::vector<CapacityPool>> listPools(const std::string &accountId,
                                                            const http::CancelToken &cancel = {});
    connectors::Result<CapacityPool> pool(const std::string &poolId, const http::CancelToken &cancel = {});
    connectors::Result<std::vector<AnfVolume>> listVolumes(const std::string &poolId,
                                                           const http::CancelToken &cancel = {});
    /// 404 -> Kind::Api, apiCode "ResourceNotFound" (ARM's) or "NotFound" (no body).
    connectors::Result<AnfVolume> volume(const std::string &volumeId, const http::CancelToken &cancel = {});
    connectors::Result<std::vector<AnfSnapshot>> listSnapshots(const std::string &volumeId,
                                                               const http::CancelToken &cancel = {});
    /// PUT {volumeId}/snapshots/{name} {"location": location}; waits for the LRO.
    connectors::Result<AnfSnapshot> createSnapshot(const std::string &volumeId,
                                                   const std::string &name,
                                                   const std::string &location,
                                                   const LroProgress &progress = {},
                                                   const http::CancelToken &cancel = {});
    connectors::Result<void> deleteSnapshot(const std::string &snapshotId,
                                            const LroProgress &progress = {},
                                            const http::CancelToken &cancel = {});
    /// POST {volumeId}/revert {"snapshotId": snapshotId (full ARM id)}; waits for the LRO.
    connectors::Result<void> revertVolume(const std::string &volumeId,
                                          const std::string &snapshotId,
                                          const LroProgress &progress = {},
                                          const http::CancelToken &cancel = {});
    /// POST {volumeId}/poolChange {"newPoolResourceId": newPoolId}; waits for the LRO. Returns
    /// the volume's new ARM id (newPoolId + "/volumes/" + volume name): the old id is gone.
    connectors::Result<std::string> poolChange(const std::string &volumeId,
                                               const std::string &newPoolId,
                                               const LroProgress &progress = {},
                                               const http::CancelToken &cancel = {});
    /// PUT {accountId}/capacityPools/{name} {location, properties{serviceLevel, size, qosType}};
    /// waits for the LRO. sizeBytes: multiples of 1 TiB (ANF rejects others).
    connectors::Result<CapacityPool> createPool(const std::string &accountId,
                                                const std::string &name,
                                                const std::string &location,
                                                const std::string &serviceLevel,
                                                std::int64_t sizeBytes,
                                                const std::string &qosType = "Auto",
                                                const LroProgress &progress = {},
                                                const http::CancelToken &cancel = {});
    /// Azure Monitor, 5-minute averages over [from, to] of ReadThroughput, WriteThroughput
    /// (bytes/s), ReadIops, WriteIops, AverageReadLatency, AverageWriteLatency (ms) and
    /// VolumeLogicalSize (bytes), in that order when Monitor returns them all.
    connectors::Result<std::vector<MetricSeries>> volumeMetrics(const std::string &volumeId,
                                                                std::chrono::system_clock::time_point from,
                                                                std::chrono::system_clock::time_point to,
                                                                const http::CancelToken &cancel = {});

    // ---- AKS ----------------------------------------------------------------------------------
    connectors::Result<std::vector<ManagedCluster>> listManagedClusters(const http::CancelToken &cancel = {});
    /// POST {clusterId}/listClusterUserCredential; the decoded kubeconfigs[0].value (YAML).
    connectors::Result<std::string> clusterUserKubeconfig(const std::string &clusterId,
                                                          const http::CancelToken &cancel = {});

    // ---- subscriptions -----------------------------------------------------------------------
    /// GET /subscriptions: every subscription the principal can see.
    connectors::Result<std::vector<Subscription>> subscriptions(const http::CancelToken &cancel = {});
    /// GET /subscriptions/{subscriptionId} of the options.
    connectors::Result<Subscription> subscription(const http::CancelToken &cancel = {});

    /// Absolute URL of `pathOrUrl` with `api-version=<apiVersion>` added unless present.
    [[nodiscard]] std::string url(const std::string &pathOrUrl, const std::string &apiVersion) const;
    [[nodiscard]] const AzureClientOptions &options() const { return m_options; }
    /// The token scope in use.
    [[nodiscard]] const std::string &scope() const { return m_scope; }

private:
    /// Sends with bearer + retry; refreshes the token and resends once on 401.
    connectors::Result<http::HttpResponse> send(http::HttpRequest request, const http::CancelToken &cancel);
    connectors::Result<nlohmann::json> getWithVersion(const std::string &pathOrUrl,
                                                      const std::string &apiVersion,
                                                      std::string_view what,
                                                      const http::CancelToken &cancel);
    connectors::Result<std::vector<nlohmann::json>> listWithVersion(const std::string &pathOrUrl,
                                                                    const std::string &apiVersion,
                                                                    std::string_view what,
                                                                    const http::CancelToken &cancel);
    connectors::Result<nlohmann::json> pollLro(const http::HttpRequest &original,
                                               const http::HttpResponse &accepted,
                                               std::string_view what,
                                               const LroProgress &progress,
                                               const http::CancelToken &cancel);
    connectors::Result<nlohmann::json> sendLroWithVersion(http::Method method,
                                                          const std::string &pathOrUrl,
                                                          const std::string &apiVersion,
                                                          const nlohmann::json &body,
                                                          std::string_view what,
                                                          const LroProgress &progress,
                                                          const http::CancelToken &cancel);
    [[nodiscard]] http::Sleeper sleeper() const;
    [[nodiscard]] std::string subscriptionPath() const;

    http::IHttpTransport &m_transport;
    ITokenProvider &m_tokens;
    AzureClientOptions m_options;
    http::HttpClient m_http;
    std::string m_scope;
};

/// Maps a non-2xx ARM response to an connectors::Error (see AzureClient). Exposed for tests.
connectors::Error armError(const http::HttpResponse &response, std::string_view what);

/// Decodes standard base64 (padding optional, whitespace ignored); nullopt when invalid.
std::optional<std::string> base64Decode(std::string_view text);

/// "2026-11-22T10:00:00Z" (UTC, whole seconds), as Azure Monitor's timespan wants it.
std::string isoUtc(std::chrono::system_clock::time_point time);

} // namespace strata::azure
