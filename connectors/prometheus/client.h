#pragma once

#include "connectors/http/httpclient.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace strata::prometheus {

using Labels = std::map<std::string, std::string>;

/// One instant-vector element (or the single element of a scalar result, with no labels).
struct Sample
{
    Labels labels;        ///< includes "__name__" for bare selectors; functions drop it
    double timestamp = 0; ///< unix seconds (millisecond precision): the evaluation time
    double value = 0;     ///< may be NaN or +/-infinity ("NaN", "+Inf", "-Inf" on the wire)
};

/// One range-vector (matrix) series: points as (unix seconds, value), ascending in time.
struct Series
{
    Labels labels;
    std::vector<std::pair<double, double>> points;
};

enum class ResultType
{
    Vector,
    Matrix,
    Scalar,
    String
};

/// The `data` of a successful query.
struct QueryResult
{
    ResultType type = ResultType::Vector;
    /// Vector: every element. Scalar: exactly one, with empty labels. String: one element whose
    /// timestamp is set and value is NaN (the text is in `text`). Matrix: empty.
    std::vector<Sample> samples;
    std::vector<Series> series; ///< Matrix only
    std::string text;           ///< String only
    /// Prometheus' non-fatal `warnings` (e.g. partial data from a remote store), verbatim.
    std::vector<std::string> warnings;
};

/// Version info of /api/v1/status/buildinfo.
struct BuildInfo
{
    std::string version; ///< "2.42.0"
    std::string revision;
    std::string goVersion;
};

struct PrometheusOptions
{
    /// Base URL of the server or of a proxy prefix: "http://prometheus:9090",
    /// "https://rancher/k8s/clusters/c-1/api/v1/namespaces/monitoring/services/http:prometheus:9090/proxy".
    /// Optional basic or bearer auth; retry and sleeper as for every connector.
    http::ClientOptions http;
    /// POST form-encoded (default: no URL length limit) or GET with the query in the URL (for
    /// proxies that refuse POST). Both are retried as idempotent.
    bool usePost = true;
    /// Sent as the `timeout` parameter (server-side evaluation limit), seconds; 0 = not sent.
    double evaluationTimeoutSeconds = 0;
};

/// Blocking client for the Prometheus HTTP API v1 (Prometheus 2.x, Thanos, Mimir, VictoriaMetrics
/// share it). Thread-safe when the transport is.
///
/// Errors (never exceptions):
/// - transport failures pass through unchanged; 429/502/503/504 are retried with backoff or the
///   server's Retry-After (per http.retry) and, when retries run out, returned with
///   retryAfterSeconds set;
/// - 401/403 -> Kind::Auth;
/// - an error envelope {"status":"error","errorType":"bad_data","error":"..."} (any HTTP status,
///   typically 400 bad_data, 422 execution, 503 timeout) -> Kind::Api, apiCode = errorType,
///   message "Prometheus rejected the query: <error>";
/// - other non-2xx -> Kind::Http; a 2xx body that is not JSON or lacks data/resultType/result, or
///   a value that is not a number string -> Kind::Parse.
class PrometheusClient
{
public:
    PrometheusClient(http::IHttpTransport &transport, PrometheusOptions options);
    PrometheusClient(http::IHttpTransport &transport, http::ClientOptions options);

    /// /api/v1/query at `time` (unix seconds; nullopt = the server's "now"). A selector sees the
    /// newest sample within the server's lookback (5 minutes by default) before `time`.
    connectors::Result<QueryResult>
    instantQuery(const std::string &query, std::optional<double> time = {}, const http::CancelToken &cancel = {});

    /// /api/v1/query_range evaluating at start, start + step, ... <= end (unix seconds, step > 0
    /// seconds). Prometheus refuses more than 11,000 points per series (Kind::Api, bad_data).
    connectors::Result<QueryResult>
    rangeQuery(const std::string &query, double start, double end, double step, const http::CancelToken &cancel = {});

    /// /api/v1/status/buildinfo (a cheap reachability and version probe).
    connectors::Result<BuildInfo> buildInfo(const http::CancelToken &cancel = {});

    [[nodiscard]] const PrometheusOptions &options() const { return m_options; }

private:
    connectors::Result<QueryResult> query(const std::string &path,
                                          std::vector<std::pair<std::string, std::string>> params,
                                          const http::CancelToken &cancel);

    http::HttpClient m_http;
    PrometheusOptions m_options;
};

/// Parses a full API response body ({"status":"success","data":{...},"warnings":[...]}).
/// Exposed for tests.
connectors::Result<QueryResult> parseQueryResponse(const std::string &body, int httpStatus = 200);

/// Maps a non-2xx or status:"error" response to an connectors::Error (see PrometheusClient). Exposed for
/// tests.
connectors::Error prometheusError(const http::HttpResponse &response);

/// Formats unix seconds as Prometheus accepts them, with millisecond precision ("1700000000.123").
std::string formatTimestamp(double unixSeconds);

} // namespace strata::prometheus
