#include "connectors/prometheus/client.h"

#include "connectors/http/jsonparse.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <limits>

namespace strata::prometheus {

using connectors::fail;
using connectors::Result;
using http::CancelToken;
using http::HttpResponse;
using nlohmann::json;
using Kind = connectors::Error::Kind;

namespace {

connectors::Error parseError(const std::string &detail, int status)
{
    return connectors::Error::make(Kind::Parse, "Prometheus returned an unexpected response (" + detail + ")", status);
}

// Values travel as Go's FormatFloat text, plus "NaN", "+Inf", "-Inf" (also "Inf").
bool parseValue(const json &value, double &out)
{
    if (value.is_number()) {
        out = value.get<double>();
        return true;
    }
    if (!value.is_string()) {
        return false;
    }
    const auto &text = value.get_ref<const std::string &>();
    if (text == "NaN") {
        out = std::numeric_limits<double>::quiet_NaN();
        return true;
    }
    if (text == "+Inf" || text == "Inf") {
        out = std::numeric_limits<double>::infinity();
        return true;
    }
    if (text == "-Inf") {
        out = -std::numeric_limits<double>::infinity();
        return true;
    }
    const char *begin = text.data();
    const char *end = begin + text.size();
    if (begin != end && *begin == '+') {
        ++begin;
    }
    const auto result = std::from_chars(begin, end, out);
    return result.ec == std::errc() && result.ptr == end;
}

// [<unix seconds>, "<value>"]
bool parsePoint(const json &pair, double &timestamp, double &value)
{
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number()) {
        return false;
    }
    timestamp = pair[0].get<double>();
    return parseValue(pair[1], value);
}

bool parseLabels(const json &metric, Labels &labels)
{
    if (metric.is_null()) {
        return true;
    }
    if (!metric.is_object()) {
        return false;
    }
    for (const auto &[key, value] : metric.items()) {
        if (!value.is_string()) {
            return false;
        }
        labels.emplace(key, value.get<std::string>());
    }
    return true;
}

// A string member of an answer, "" when absent or of another type: json::value() would throw
// type_error on {"status": {...}} and end the process.
std::string promStringField(const json &object, const char *key)
{
    if (const auto it = object.find(key); it != object.end() && it->is_string()) {
        return it->get<std::string>();
    }
    return {};
}

std::string formEncode(const std::vector<std::pair<std::string, std::string>> &params)
{
    std::string out;
    for (const auto &[key, value] : params) {
        if (!out.empty()) {
            out += '&';
        }
        out += http::urlEncode(key) + '=' + http::urlEncode(value);
    }
    return out;
}

std::string formatSeconds(double seconds)
{
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, seconds, std::chars_format::fixed);
    return std::string(buffer, result.ptr);
}

} // namespace

std::string formatTimestamp(double unixSeconds)
{
    return formatSeconds(std::round(unixSeconds * 1000.0) / 1000.0);
}

connectors::Error prometheusError(const HttpResponse &response)
{
    connectors::Error error;
    error.httpStatus = response.status;
    error.retryAfterSeconds = http::parseRetryAfter(response.header("Retry-After"));
    const json body = http::parseJsonBounded(response.body);
    if (body.is_object() && promStringField(body, "status") == "error") {
        error.kind = Kind::Api;
        error.apiCode = promStringField(body, "errorType");
        const std::string message = promStringField(body, "error");
        error.message =
            "Prometheus rejected the query: " + (message.empty() ? "HTTP " + std::to_string(response.status) : message);
        if (response.status == 401 || response.status == 403) {
            error.kind = Kind::Auth;
        }
        return error;
    }
    if (response.status == 401) {
        error.kind = Kind::Auth;
        error.message = "Prometheus (or the proxy in front of it) rejected the credentials";
    } else if (response.status == 403) {
        error.kind = Kind::Auth;
        error.message = "Prometheus (or the proxy in front of it) refused access: HTTP 403";
    } else {
        error.kind = Kind::Http;
        error.message = "Prometheus query failed: HTTP " + std::to_string(response.status);
    }
    return error;
}

Result<QueryResult> parseQueryResponse(const std::string &body, int httpStatus)
{
    http::JsonParseFailure failure;
    const json root = http::parseJsonBounded(body, &failure);
    if (root.is_discarded()) {
        return fail(parseError((failure.tooDeep ? failure.message : std::string("malformed JSON")) + ", "
                                   + std::to_string(body.size()) + " bytes",
                               httpStatus));
    }
    if (!root.is_object()) {
        return fail(parseError(std::string("a JSON ") + root.type_name() + " where the response object belongs, "
                                   + std::to_string(body.size()) + " bytes",
                               httpStatus));
    }
    if (promStringField(root, "status") != "success") {
        HttpResponse response = HttpResponse::withStatus(httpStatus, body);
        return fail(prometheusError(response));
    }
    const auto data = root.find("data");
    if (data == root.end() || !data->is_object()) {
        return fail(parseError("no data object", httpStatus));
    }
    const auto type = data->find("resultType");
    const auto result = data->find("result");
    if (type == data->end() || !type->is_string() || result == data->end()) {
        return fail(parseError("no resultType or result", httpStatus));
    }

    QueryResult out;
    if (const auto warnings = root.find("warnings"); warnings != root.end() && warnings->is_array()) {
        for (const auto &warning : *warnings) {
            if (warning.is_string()) {
                out.warnings.push_back(warning.get<std::string>());
            }
        }
    }

    const auto &typeName = type->get_ref<const std::string &>();
    if (typeName == "vector") {
        out.type = ResultType::Vector;
        if (!result->is_array() && !result->is_null()) {
            return fail(parseError("vector result is not an array", httpStatus));
        }
        if (result->is_array()) {
            out.samples.reserve(result->size());
            for (const auto &element : *result) {
                Sample sample;
                if (!element.is_object() || !parseLabels(element.value("metric", json()), sample.labels)
                    || !parsePoint(element.value("value", json()), sample.timestamp, sample.value)) {
                    return fail(parseError("malformed vector element", httpStatus));
                }
                out.samples.push_back(std::move(sample));
            }
        }
    } else if (typeName == "matrix") {
        out.type = ResultType::Matrix;
        if (!result->is_array() && !result->is_null()) {
            return fail(parseError("matrix result is not an array", httpStatus));
        }
        if (result->is_array()) {
            out.series.reserve(result->size());
            for (const auto &element : *result) {
                Series series;
                if (!element.is_object() || !parseLabels(element.value("metric", json()), series.labels)) {
                    return fail(parseError("malformed matrix series", httpStatus));
                }
                const json values = element.value("values", json::array());
                if (!values.is_array()) {
                    return fail(parseError("matrix values are not an array", httpStatus));
                }
                series.points.reserve(values.size());
                for (const auto &pair : values) {
                    double t = 0;
                    double v = 0;
                    if (!parsePoint(pair, t, v)) {
                        return fail(parseError("malformed matrix point", httpStatus));
                    }
                    series.points.emplace_back(t, v);
                }
                out.series.push_back(std::move(series));
            }
        }
    } else if (typeName == "scalar") {
        out.type = ResultType::Scalar;
        Sample sample;
        if (!parsePoint(*result, sample.timestamp, sample.value)) {
            return fail(parseError("malformed scalar", httpStatus));
        }
        out.samples.push_back(std::move(sample));
    } else if (typeName == "string") {
        out.type = ResultType::String;
        if (!result->is_array() || result->size() != 2 || !(*result)[0].is_number() || !(*result)[1].is_string()) {
            return fail(parseError("malformed string result", httpStatus));
        }
        Sample sample;
        sample.timestamp = (*result)[0].get<double>();
        sample.value = std::numeric_limits<double>::quiet_NaN();
        out.samples.push_back(std::move(sample));
        out.text = (*result)[1].get<std::string>();
    } else {
        return fail(parseError("unknown resultType \"" + typeName + "\"", httpStatus));
    }
    return out;
}

PrometheusClient::PrometheusClient(http::IHttpTransport &transport, PrometheusOptions options)
    : m_http(transport, options.http)
    , m_options(std::move(options))
{}

PrometheusClient::PrometheusClient(http::IHttpTransport &transport, http::ClientOptions options)
    : PrometheusClient(transport, PrometheusOptions{std::move(options)})
{}

Result<QueryResult>
PrometheusClient::instantQuery(const std::string &query, std::optional<double> time, const CancelToken &cancel)
{
    std::vector<std::pair<std::string, std::string>> params{{"query", query}};
    if (time) {
        params.emplace_back("time", formatTimestamp(*time));
    }
    return this->query("/api/v1/query", std::move(params), cancel);
}

Result<QueryResult>
PrometheusClient::rangeQuery(const std::string &query, double start, double end, double step, const CancelToken &cancel)
{
    return this->query("/api/v1/query_range",
                       {{"query", query},
                        {"start", formatTimestamp(start)},
                        {"end", formatTimestamp(end)},
                        {"step", formatSeconds(step)}},
                       cancel);
}

Result<QueryResult> PrometheusClient::query(const std::string &path,
                                            std::vector<std::pair<std::string, std::string>> params,
                                            const CancelToken &cancel)
{
    if (m_options.evaluationTimeoutSeconds > 0) {
        params.emplace_back("timeout", formatSeconds(m_options.evaluationTimeoutSeconds));
    }
    http::HttpRequest request;
    // Queries have no side effects, so a POST may be retried like a GET.
    request.idempotent = true;
    if (m_options.usePost) {
        request.method = http::Method::Post;
        request.url = path;
        request.body = formEncode(params);
        request.headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
    } else {
        request.method = http::Method::Get;
        request.url = path + "?" + formEncode(params);
    }
    auto response = m_http.send(std::move(request), cancel);
    if (!response) {
        return fail(std::move(response).error());
    }
    if (!response->isSuccess()) {
        return fail(prometheusError(*response));
    }
    return parseQueryResponse(response->body, response->status);
}

Result<BuildInfo> PrometheusClient::buildInfo(const CancelToken &cancel)
{
    http::HttpRequest request;
    request.url = "/api/v1/status/buildinfo";
    auto response = m_http.send(std::move(request), cancel);
    if (!response) {
        return fail(std::move(response).error());
    }
    if (!response->isSuccess()) {
        return fail(prometheusError(*response));
    }
    const json root = http::parseJsonBounded(response->body);
    if (!root.is_object() || promStringField(root, "status") != "success" || !root.contains("data")
        || !root["data"].is_object()) {
        return fail(parseError("buildinfo is not a success envelope", response->status));
    }
    const json &data = root["data"];
    BuildInfo info;
    info.version = promStringField(data, "version");
    info.revision = promStringField(data, "revision");
    info.goVersion = promStringField(data, "goVersion");
    return info;
}

} // namespace strata::prometheus
