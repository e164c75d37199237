#pragma once

#include "connectors/http/httpclient.h"
#include "connectors/storagegrid/dto.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::storagegrid {

struct StorageGridOptions
{
    /// baseUrl = the admin node, "https://admin.example:443" (no /api); retry and sleeper apply to
    /// GETs (POST authorize is sent once). `basic`/`bearer` are ignored: the client authorizes.
    http::ClientOptions http;
    std::string username;
    std::string password; ///< never logged, never part of an error message
    /// 20-digit tenant account id for the Tenant Management API (org/...); empty = grid admin.
    std::string accountId;
    /// "v4" or "v3" to skip discovery; empty = GET /api/versions on first use.
    std::string apiVersion;
    /// Records per page for limit/marker lists (1..1000).
    int pageSize = 25;
};

/// Blocking client of the StorageGRID Grid (grid/...) and Tenant (org/...) Management API.
/// Thread-safe when the transport is (the token is shared under a mutex).
///
/// Conventions:
/// - the API version comes from `GET /api/versions` (no auth; `{"data":[2,3,4]}`): the highest of
///   the versions this client speaks (3 and 4) is used as `/api/v<N>/...`;
/// - `POST /api/v<N>/authorize` {"username","password","cookie":false,"csrfToken":false
///   [,"accountId"]} returns the token in `data`; every other call sends `Authorization: Bearer`.
///   Calls authorize on first use. A 401 (expired token) makes the client authorize again and
///   repeat the call once; a second 401 is Kind::Auth. Concurrent 401s authorize only once;
/// - the envelope's `data` is unwrapped; lists with limit/marker are paged with marker = the
///   last record's id until a page comes back empty (a page that repeats the marker is a
///   Parse error rather than an endless loop);
/// - GETs are retried per http.retry on transport errors, timeouts, 429/502/503/504.
///
/// Errors (never exceptions):
/// - error envelope {"status":"error","code":N,"message":{"text","key"},"errors":[...]} ->
///   apiCode = message.key (else the code as text), message "<what>: <message.text>"; kind Auth
///   for 401/403, else Api. A non-2xx without an envelope -> Kind::Http "<what>: HTTP status N"
///   (404: apiCode "error.404");
/// - a 2xx body that is not JSON, has no `data`, says status "error", or has a record of the
///   wrong shape -> Kind::Parse naming `what` (and the record number).
class StorageGridClient
{
public:
    StorageGridClient(std::shared_ptr<http::IHttpTransport> transport, StorageGridOptions options);

    // ---- session ---------------------------------------------------------------------------
    /// GET /api/versions; "v4" or "v3". Stored for later calls. Kind::Api apiCode
    /// "UnsupportedVersion" when the grid offers neither.
    connectors::Result<std::string> discoverApiVersion(const http::CancelToken &cancel = {});
    /// POST authorize (discovering the version first when needed); stores the token.
    connectors::Result<void> authorize(const http::CancelToken &cancel = {});
    /// DELETE authorize (sent once, no retries) and forget the token; nothing to do when not
    /// authorized. `timeout` bounds the round trip (nullopt = the transport's total timeout). A
    /// 401 counts as success: the token had expired anyway.
    connectors::Result<void> logout(const http::CancelToken &cancel = {},
                                    std::optional<std::chrono::milliseconds> timeout = std::nullopt);
    /// True while the client holds a token (authorized and not logged out).
    [[nodiscard]] bool hasSession() const;

    /// GET `/api/<v>/<path>` (path "grid/health", may carry a query) and return `data`.
    connectors::Result<nlohmann::json>
    getData(const std::string &path, std::string_view what, const http::CancelToken &cancel = {});
    /// Every record of a limit/marker list at `path` (no query of its own).
    connectors::Result<std::vector<nlohmann::json>>
    getPaged(const std::string &path, std::string_view what, const http::CancelToken &cancel = {});

    // ---- grid (grid admin token) ------------------------------------------------------------
    /// grid/config/product-version (org/config/product-version for a tenant):
    /// "11.8.0.2-20240131.1852.bbc9e4a".
    connectors::Result<std::string> productVersion(const http::CancelToken &cancel = {});
    connectors::Result<GridHealth> health(const http::CancelToken &cancel = {});
    /// grid/health/topology?depth=grid -> data.name ("datalake").
    connectors::Result<std::string> topologyGridName(const http::CancelToken &cancel = {});
    connectors::Result<std::vector<NodeHealth>> nodeHealth(const http::CancelToken &cancel = {});
    /// Active alerts (grid/alerts).
    connectors::Result<std::vector<Alert>> alerts(const http::CancelToken &cancel = {});
    /// Resolved alerts (grid/alert-history, records parsed by parseResolvedAlert), newest first
    /// as the grid sends them. `triggeredSince` non-zero adds the API's own filter
    /// `timeTriggeredEarliest=<ISO 8601>` (alerts triggered at or after it); zero asks for the
    /// grid's whole history. The API documents no limit for this list.
    connectors::Result<std::vector<Alert>> alertHistory(std::chrono::system_clock::time_point triggeredSince = {},
                                                        const http::CancelToken &cancel = {});
    /// grid/accounts: every tenant, paged with limit (options.pageSize) and marker (the last
    /// record's id) until a page comes back empty.
    connectors::Result<std::vector<Account>> accounts(const http::CancelToken &cancel = {});
    /// grid/accounts-cache: every tenant, with objectCount and dataBytes where the grid's cache
    /// has them. The API's only parameter is `limit` (default 25, no marker), so the client
    /// sends limit=options.pageSize; a full page means the list may be cut, and then the
    /// tenants are listed with accounts() (paged) and the cache is asked again with a limit
    /// above their number. Tenants the cache still lacks (new ones take up to 15 minutes to
    /// appear in it) come from grid/accounts with objectCount/dataBytes nullopt. Order: by
    /// grid/accounts (id) in that case, else as the cache sent them.
    connectors::Result<std::vector<Account>> accountsCache(const http::CancelToken &cancel = {});
    /// grid/accounts/{id}/usage[?includeBucketDetail=true].
    connectors::Result<AccountUsage>
    accountUsage(const std::string &accountId, bool includeBucketDetail, const http::CancelToken &cancel = {});
    connectors::Result<std::vector<IlmPolicy>> ilmPolicies(const http::CancelToken &cancel = {});
    /// grid/metric-query?query=&time= (instant; `time` omitted when zero = "now").
    connectors::Result<MetricResult> metricQuery(const std::string &promql,
                                                 std::chrono::system_clock::time_point time = {},
                                                 const http::CancelToken &cancel = {});
    /// grid/metric-query-range?query=&start=&end=&step=<s>s; stepSeconds >= 1.
    connectors::Result<MetricResult> metricQueryRange(const std::string &promql,
                                                      std::chrono::system_clock::time_point start,
                                                      std::chrono::system_clock::time_point end,
                                                      int stepSeconds,
                                                      const http::CancelToken &cancel = {});

    // ---- tenant (tenant token: options.accountId set) -----------------------------------------
    /// org/containers: the tenant's buckets.
    connectors::Result<std::vector<Container>> containers(const http::CancelToken &cancel = {});
    /// org/usage (with bucket detail).
    connectors::Result<AccountUsage> tenantUsage(const http::CancelToken &cancel = {});

    /// "v4"/"v3" once known, else empty.
    [[nodiscard]] std::string apiVersion() const;
    /// Successful authorize calls so far (tests, diagnostics).
    [[nodiscard]] int authorizations() const;
    [[nodiscard]] const StorageGridOptions &options() const { return m_options; }

private:
    struct Session
    {
        std::string token;
        int generation = 0;
    };
    connectors::Result<std::string> ensureVersion(const http::CancelToken &cancel);
    connectors::Result<Session> ensureSession(const http::CancelToken &cancel);
    /// Authorizes unless another thread already replaced the token of `staleGeneration`.
    connectors::Result<Session> reauthorize(int staleGeneration, const http::CancelToken &cancel);
    connectors::Result<Session> authorizeLocked(const http::CancelToken &cancel);
    connectors::Result<http::HttpResponse> sendAuthorized(http::Method method,
                                                          const std::string &path,
                                                          std::string_view what,
                                                          const http::CancelToken &cancel);

    std::shared_ptr<http::IHttpTransport> m_transport;
    StorageGridOptions m_options;
    http::HttpClient m_http;
    mutable std::mutex m_mutex; ///< guards m_version, m_session, m_authorizations
    std::mutex m_authMutex;     ///< serialises authorize round trips
    std::string m_version;
    Session m_session;
    int m_authorizations = 0;
};

/// Maps a non-2xx StorageGRID response to an connectors::Error (see StorageGridClient). For tests.
connectors::Error gridError(const http::HttpResponse &response, std::string_view what);

/// "2026-06-01T10:00:00.000Z" (UTC, milliseconds).
std::string isoUtcMillis(std::chrono::system_clock::time_point time);

} // namespace strata::storagegrid
