#include "connectors/storagegrid/storagegridclient.h"

#include "connectors/http/jsonparse.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>
#include <stdexcept>

namespace strata::storagegrid {

using connectors::Result;
using http::CancelToken;
using http::HttpRequest;
using http::HttpResponse;
using http::Method;
using Kind = connectors::Error::Kind;
using nlohmann::json;

namespace {

connectors::Error parseError(std::string_view what, const std::string &detail, int status = 200)
{
    return connectors::Error::make(Kind::Parse, std::string(what) + ": " + detail, status);
}

std::string recordName(const json &record)
{
    if (record.is_object()) {
        for (const char *field : {"name", "id"}) {
            if (auto it = record.find(field); it != record.end() && it->is_string()) {
                return " (" + it->get<std::string>() + ")";
            }
        }
    }
    return {};
}

/// nlohmann's errors in plain words; the grid DTOs' own messages ("\"name\" is missing") as they are.
std::string gridMismatch(const std::exception &e, const std::string &subject)
{
    if (dynamic_cast<const json::exception *>(&e)) {
        return "the grid sent " + http::describeJsonMismatch(e, subject);
    }
    return (subject.empty() ? std::string() : subject + ": ") + e.what();
}

template <class T, class F> Result<std::vector<T>> parseList(const json &data, std::string_view what, F parse)
{
    if (!data.is_array()) {
        return connectors::fail(parseError(
            what, std::string("the grid sent a JSON ") + data.type_name() + " where the data array belongs"));
    }
    std::vector<T> out;
    out.reserve(data.size());
    for (std::size_t i = 0; i < data.size(); ++i) {
        try {
            out.push_back(parse(data[i]));
        } catch (const std::exception &e) {
            return connectors::fail(
                parseError(what, gridMismatch(e, "record " + std::to_string(i + 1) + recordName(data[i]))));
        }
    }
    return out;
}

template <class T, class F> Result<T> parseOne(const json &data, std::string_view what, F parse)
{
    try {
        return parse(data);
    } catch (const std::exception &e) {
        return connectors::fail(parseError(what, gridMismatch(e, {})));
    }
}

// A version entry may be 4, 4.0, "4" or "4.0"; returns its major number or -1.
int majorVersion(const json &entry)
{
    if (entry.is_number_integer() || entry.is_number_unsigned()) {
        return entry.get<int>();
    }
    if (entry.is_number_float()) {
        return static_cast<int>(std::floor(entry.get<double>()));
    }
    if (entry.is_string()) {
        const std::string text = entry.get<std::string>();
        std::size_t i = (!text.empty() && (text[0] == 'v' || text[0] == 'V')) ? 1 : 0;
        int value = 0;
        bool any = false;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9' && value < 1000; ++i) {
            value = value * 10 + (text[i] - '0');
            any = true;
        }
        return any ? value : -1;
    }
    return -1;
}

std::string idOf(const json &record)
{
    if (record.is_object()) {
        if (auto it = record.find("id"); it != record.end() && it->is_string()) {
            return it->get<std::string>();
        }
    }
    return {};
}

} // namespace

connectors::Error gridError(const HttpResponse &response, std::string_view what)
{
    const int status = response.status;
    json body = http::parseJsonBounded(response.body);
    std::string text;
    std::string key;
    std::string detail;
    int code = 0;
    bool envelope = false;
    if (body.is_object()) {
        if (auto it = body.find("message"); it != body.end()) {
            if (it->is_object()) {
                if (auto t = it->find("text"); t != it->end() && t->is_string()) {
                    text = t->get<std::string>();
                }
                if (auto k = it->find("key"); k != it->end() && k->is_string()) {
                    key = k->get<std::string>();
                }
            } else if (it->is_string()) {
                text = it->get<std::string>();
            }
        }
        if (auto it = body.find("errors"); it != body.end() && it->is_array() && !it->empty() && (*it)[0].is_object()) {
            if (auto t = (*it)[0].find("text"); t != (*it)[0].end() && t->is_string()) {
                detail = t->get<std::string>();
            }
            if (key.empty()) {
                if (auto k = (*it)[0].find("key"); k != (*it)[0].end() && k->is_string()) {
                    key = k->get<std::string>();
                }
            }
        }
        if (auto it = body.find("code"); it != body.end() && it->is_number_integer()) {
            code = it->get<int>();
        }
        const auto statusIt = body.find("status");
        envelope = !text.empty() || !key.empty()
                   || (statusIt != body.end() && statusIt->is_string() && statusIt->get<std::string>() == "error");
    }
    if (text.empty() && !detail.empty()) {
        text = detail;
        detail.clear();
    }
    Kind kind = envelope ? Kind::Api : Kind::Http;
    if (status == 401 || status == 403) {
        kind = Kind::Auth;
    }
    std::string message = std::string(what) + ": ";
    if (!text.empty()) {
        message += text;
        if (!detail.empty() && detail != text) {
            message += " (" + detail + ")";
        }
    } else {
        message += "HTTP status " + std::to_string(status);
    }
    connectors::Error error = connectors::Error::make(kind, std::move(message), status);
    error.apiCode = key;
    if (error.apiCode.empty() && code != 0) {
        error.apiCode = std::to_string(code);
    }
    if (error.apiCode.empty() && status == 404) {
        error.apiCode = "error.404";
    }
    error.retryAfterSeconds = http::parseRetryAfter(response.header("Retry-After"));
    return error;
}

std::string isoUtcMillis(std::chrono::system_clock::time_point time)
{
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count();
    const std::time_t seconds = static_cast<std::time_t>(millis / 1000 - (millis % 1000 < 0 ? 1 : 0));
    const long fraction = static_cast<long>(((millis % 1000) + 1000) % 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char buffer[40];
    const std::size_t n = std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &utc);
    std::snprintf(buffer + n, sizeof buffer - n, ".%03ldZ", fraction);
    return buffer;
}

StorageGridClient::StorageGridClient(std::shared_ptr<http::IHttpTransport> transport, StorageGridOptions options)
    : m_transport(std::move(transport))
    , m_options(std::move(options))
    , m_http(*m_transport,
             [this] {
                 http::ClientOptions http = m_options.http;
                 http.basic.reset();
                 http.bearer.reset();
                 return http;
             }())
    , m_version(m_options.apiVersion)
{}

std::string StorageGridClient::apiVersion() const
{
    std::lock_guard lock(m_mutex);
    return m_version;
}

int StorageGridClient::authorizations() const
{
    std::lock_guard lock(m_mutex);
    return m_authorizations;
}

Result<std::string> StorageGridClient::discoverApiVersion(const CancelToken &cancel)
{
    const std::string what = "StorageGRID API versions";
    HttpRequest request;
    request.url = "/api/versions";
    auto response = m_http.send(std::move(request), cancel);
    if (!response) {
        return connectors::fail(response.error());
    }
    if (!response->isSuccess()) {
        return connectors::fail(gridError(*response, what));
    }
    auto body = http::HttpClient::parseJson(*response, what);
    if (!body) {
        return connectors::fail(body.error());
    }
    const json *list = nullptr;
    if (body->is_object()) {
        if (auto it = body->find("data"); it != body->end()) {
            list = &*it;
        }
    } else if (body->is_array()) {
        list = &*body;
    }
    if (!list || !list->is_array()) {
        return connectors::fail(parseError(what, "no list of versions in data"));
    }
    int best = -1;
    std::string offered;
    for (const json &entry : *list) {
        const int major = majorVersion(entry);
        offered += (offered.empty() ? "" : ", ") + entry.dump();
        if ((major == 3 || major == 4) && major > best) {
            best = major;
        }
    }
    if (best < 0) {
        connectors::Error error = connectors::Error::make(Kind::Api,
                                                          what + ": the grid offers API versions [" + offered
                                                              + "], Strata speaks v3 (11.x) and v4 (11.8+)",
                                                          response->status);
        error.apiCode = "UnsupportedVersion";
        return connectors::fail(std::move(error));
    }
    const std::string version = "v" + std::to_string(best);
    std::lock_guard lock(m_mutex);
    m_version = version;
    return version;
}

Result<std::string> StorageGridClient::ensureVersion(const CancelToken &cancel)
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_version.empty()) {
            return m_version;
        }
    }
    return discoverApiVersion(cancel);
}

Result<StorageGridClient::Session> StorageGridClient::authorizeLocked(const CancelToken &cancel)
{
    auto version = ensureVersion(cancel);
    if (!version) {
        return connectors::fail(version.error());
    }
    const std::string what = m_options.accountId.empty() ? "StorageGRID authorize as " + m_options.username
                                                         : "StorageGRID authorize as " + m_options.username
                                                               + " of tenant " + m_options.accountId;
    json body = {
        {"username", m_options.username}, {"password", m_options.password}, {"cookie", false}, {"csrfToken", false}};
    if (!m_options.accountId.empty()) {
        body["accountId"] = m_options.accountId;
    }
    HttpRequest request;
    request.method = Method::Post;
    request.url = "/api/" + *version + "/authorize";
    request.body = body.dump();
    auto response = m_http.send(std::move(request), cancel);
    if (!response) {
        return connectors::fail(response.error());
    }
    if (!response->isSuccess()) {
        return connectors::fail(gridError(*response, what));
    }
    auto parsed = http::HttpClient::parseJson(*response, what);
    if (!parsed) {
        return connectors::fail(parsed.error());
    }
    const json *token = nullptr;
    if (parsed->is_object()) {
        if (auto it = parsed->find("data"); it != parsed->end() && it->is_string()) {
            token = &*it;
        }
    }
    if (!token || token->get_ref<const std::string &>().empty()) {
        return connectors::fail(parseError(what, "no token in data", response->status));
    }
    std::lock_guard lock(m_mutex);
    m_session.token = token->get<std::string>();
    ++m_session.generation;
    ++m_authorizations;
    return m_session;
}

Result<void> StorageGridClient::authorize(const CancelToken &cancel)
{
    std::lock_guard auth(m_authMutex);
    auto session = authorizeLocked(cancel);
    if (!session) {
        return connectors::fail(session.error());
    }
    return {};
}

Result<StorageGridClient::Session> StorageGridClient::ensureSession(const CancelToken &cancel)
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_session.token.empty()) {
            return m_session;
        }
    }
    return reauthorize(-1, cancel);
}

Result<StorageGridClient::Session> StorageGridClient::reauthorize(int staleGeneration, const CancelToken &cancel)
{
    std::lock_guard auth(m_authMutex);
    {
        std::lock_guard lock(m_mutex);
        // Another caller authorized while this one waited: use its token.
        if (!m_session.token.empty() && m_session.generation != staleGeneration) {
            return m_session;
        }
    }
    return authorizeLocked(cancel);
}

bool StorageGridClient::hasSession() const
{
    std::lock_guard lock(m_mutex);
    return !m_session.token.empty();
}

Result<void> StorageGridClient::logout(const CancelToken &cancel, std::optional<std::chrono::milliseconds> timeout)
{
    Session session;
    std::string version;
    {
        std::lock_guard lock(m_mutex);
        session = m_session;
        version = m_version;
    }
    if (session.token.empty() || version.empty()) {
        return {};
    }
    HttpRequest request;
    request.method = Method::Delete;
    request.url = "/api/" + version + "/authorize";
    request.bearer = http::BearerAuth{session.token};
    request.totalTimeout = timeout;
    // Sent once: a logout is best effort and must not outlast its timeout with retries.
    http::ClientOptions once = m_options.http;
    once.basic.reset();
    once.bearer.reset();
    once.retry.maxAttempts = 1;
    const http::HttpClient client(*m_transport, std::move(once));
    auto response = client.send(std::move(request), cancel);
    {
        std::lock_guard lock(m_mutex);
        if (m_session.generation == session.generation) {
            m_session.token.clear();
        }
    }
    if (!response) {
        return connectors::fail(response.error());
    }
    // 401: the token had expired anyway, which is what logging out wants.
    if (!response->isSuccess() && response->status != 401) {
        return connectors::fail(gridError(*response, "StorageGRID logout"));
    }
    return {};
}

Result<HttpResponse> StorageGridClient::sendAuthorized(Method method,
                                                       const std::string &path,
                                                       std::string_view what,
                                                       const CancelToken &cancel)
{
    auto version = ensureVersion(cancel);
    if (!version) {
        return connectors::fail(version.error());
    }
    auto session = ensureSession(cancel);
    if (!session) {
        return connectors::fail(session.error());
    }
    for (int attempt = 0;; ++attempt) {
        HttpRequest request;
        request.method = method;
        request.url = "/api/" + *version + "/" + path;
        request.bearer = http::BearerAuth{session->token};
        auto response = m_http.send(std::move(request), cancel);
        if (!response) {
            return connectors::fail(response.error());
        }
        if (response->status == 401 && attempt == 0) {
            session = reauthorize(session->generation, cancel);
            if (!session) {
                return connectors::fail(session.error());
            }
            continue;
        }
        if (!response->isSuccess()) {
            connectors::Error error = gridError(*response, what);
            if (response->status == 401) {
                error.message += " (the grid refused a fresh token too)";
            }
            return connectors::fail(std::move(error));
        }
        return response;
    }
}

Result<json> StorageGridClient::getData(const std::string &path, std::string_view what, const CancelToken &cancel)
{
    auto response = sendAuthorized(Method::Get, path, what, cancel);
    if (!response) {
        return connectors::fail(response.error());
    }
    auto body = http::HttpClient::parseJson(*response, what);
    if (!body) {
        return connectors::fail(body.error());
    }
    if (!body->is_object()) {
        return connectors::fail(parseError(
            what, std::string("the body is a ") + body->type_name() + ", expected an object", response->status));
    }
    if (auto it = body->find("status"); it != body->end() && it->is_string() && it->get<std::string>() == "error") {
        connectors::Error error = gridError(*response, what);
        error.kind = Kind::Api;
        return connectors::fail(std::move(error));
    }
    auto data = body->find("data");
    if (data == body->end()) {
        return connectors::fail(parseError(what, "no data in the response", response->status));
    }
    return std::move(*data);
}

Result<std::vector<json>>
StorageGridClient::getPaged(const std::string &path, std::string_view what, const CancelToken &cancel)
{
    const int limit = std::clamp(m_options.pageSize, 1, 1000);
    std::vector<json> all;
    std::string marker;
    std::set<std::string> seenMarkers;
    for (;;) {
        std::string page = path + "?limit=" + std::to_string(limit);
        if (!marker.empty()) {
            page += "&marker=" + http::urlEncode(marker);
        }
        auto data = getData(page, what, cancel);
        if (!data) {
            return connectors::fail(data.error());
        }
        if (!data->is_array()) {
            return connectors::fail(
                parseError(what, std::string("data is a ") + data->type_name() + ", expected an array"));
        }
        if (data->empty()) {
            return all;
        }
        const std::string last = idOf(data->back());
        if (last.empty()) {
            return connectors::fail(
                parseError(what, "record " + std::to_string(all.size() + data->size()) + " has no id to page on"));
        }
        if (!seenMarkers.insert(last).second) {
            return connectors::fail(parseError(what, "paging did not advance (marker " + last + " came back again)"));
        }
        for (json &record : *data) {
            all.push_back(std::move(record));
        }
        marker = last;
    }
}

Result<std::string> StorageGridClient::productVersion(const CancelToken &cancel)
{
    const std::string what = "StorageGRID product version";
    auto data = getData(
        m_options.accountId.empty() ? "grid/config/product-version" : "org/config/product-version", what, cancel);
    if (!data) {
        return connectors::fail(data.error());
    }
    if (!data->is_object() || !data->contains("productVersion") || !(*data)["productVersion"].is_string()) {
        return connectors::fail(parseError(what, "no productVersion in data"));
    }
    return (*data)["productVersion"].get<std::string>();
}

Result<GridHealth> StorageGridClient::health(const CancelToken &cancel)
{
    const std::string what = "StorageGRID grid health";
    auto data = getData("grid/health", what, cancel);
    if (!data) {
        return connectors::fail(data.error());
    }
    return parseOne<GridHealth>(*data, what, parseGridHealth);
}

Result<std::string> StorageGridClient::topologyGridName(const CancelToken &cancel)
{
    const std::string what = "StorageGRID topology";
    auto data = getData("grid/health/topology?depth=grid", what, cancel);
    if (!data) {
        return connectors::fail(data.error());
    }
    if (!data->is_object() || !data->contains("name") || !(*data)["name"].is_string()) {
        return connectors::fail(parseError(what, "no grid name in data"));
    }
    return (*data)["name"].get<std::string>();
}

Result<std::vector<NodeHealth>> StorageGridClient::nodeHealth(const CancelToken &cancel)
{
    const std::string what = "StorageGRID node health";
    auto data = getData("grid/node-health", what, cancel);
    if (!data) {
        return connectors::fail(data.error());
    }
    return parseList<NodeHealth>(*data, what, parseNodeHealth);
}

Result<std::vector<Alert>> StorageGridClient::alerts(const CancelToken &cancel)
{
    const std::string what = "StorageGRID alerts";
    auto data = getData("grid/alerts", what, cancel);
    if (!data) {
        return connectors::fail(data.error());
    }
    return parseList<Alert>(*data, what, parseAlert);
}

Result<std::vector<Alert>> StorageGridClient::alertHistory(std::chrono::system_clock::time_point triggeredSince,
                                                           const CancelToken &cancel)
{
    const std::string what = "StorageGRID alert history";
    std::string path = "grid/alert-history";
    if (triggeredSince.time_since_epoch().count() != 0) {
        path += "?timeTriggeredEarliest=" + http::urlEncode(isoUtcMillis(triggeredSince));
    }
    auto data = getData(path, what, cancel);
    if (!data) {
        return connectors::fail(data.error());
    }
    return parseList<Alert>(*data, what, parseResolvedAlert);
}

Result<std::vector<Account>> StorageGridClient::accounts(const CancelToken &cancel)
{
    const std::string what = "StorageGRID tenant accounts";
    auto records = getPaged("grid/accounts", what, cancel);
    if (!records) {
        return connectors::fail(records.error());
    }
    return parseList<Account>(json(std::move(*records)), what, parseAccount);
}

Result<std::vector<Account>> StorageGridClient::accountsCache(const CancelToken &cancel)
{
    const std::string what = "StorageGRID tenant accounts (cache)";
    const int limit = std::clamp(m_options.pageSize, 1, 1000);
    auto cacheWithLimit = [&](std::size_t n) -> Result<std::vector<Account>> {
        auto data = getData("grid/accounts-cache?limit=" + std::to_string(n), what, cancel);
        if (!data) {
            return connectors::fail(data.error());
        }
        return parseList<Account>(*data, what, parseAccount);
    };
    auto first = cacheWithLimit(static_cast<std::size_t>(limit));
    if (!first || first->size() < static_cast<std::size_t>(limit)) {
        return first;
    }
    // A full page may be a cut list: the cache cannot be paged (no marker), grid/accounts can.
    auto all = accounts(cancel);
    if (!all) {
        return connectors::fail(all.error());
    }
    std::vector<Account> cached = std::move(*first);
    if (all->size() >= cached.size()) {
        auto again = cacheWithLimit(all->size() + 1);
        if (!again) {
            return connectors::fail(again.error());
        }
        cached = std::move(*again);
    }
    std::map<std::string, Account> byId;
    for (Account &a : cached) {
        const std::string id = a.id;
        byId.insert_or_assign(id, std::move(a));
    }
    std::vector<Account> out;
    out.reserve(std::max(all->size(), byId.size()));
    for (Account &a : *all) {
        if (auto it = byId.find(a.id); it != byId.end()) {
            out.push_back(std::move(it->second));
            byId.erase(it);
        } else {
            out.push_back(std::move(a));
        }
    }
    // Created between the two lists: in the cache only.
    for (auto &entry : byId) {
        out.push_back(std::move(entry.second));
    }
    return out;
}

Result<AccountUsage>
StorageGridClient::accountUsage(const std::string &accountId, bool includeBucketDetail, const CancelToken &cancel)
{
    const std::string what = "StorageGRID usage of tenant " + accountId;
    std::string path = "grid/accounts/" + http::urlEncode(accountId) + "/usage";
    if (includeBucketDetail) {
        path += "?includeBucketDetail=true";
    }
    auto data = getData(path, what, cancel);
    if (!data) {
        return connectors::fail(data.error());
    }
    return parseOne<AccountUsage>(*data, what, parseAccountUsage);
}

Result<std::vector<IlmPolicy>> StorageGridClient::ilmPolicies(const CancelToken &cancel)
{
    const std::string what = "StorageGRID ILM policies";
    auto data = getData("grid/ilm-policies", what, cancel);
    if (!data) {
        return connectors::fail(data.error());
    }
    return parseList<IlmPolicy>(*data, what, parseIlmPolicy);
}

Result<MetricResult> StorageGridClient::metricQuery(const std::string &promql,
                                                    std::chrono::system_clock::time_point time,
                                                    const CancelToken &cancel)
{
    const std::string what = "StorageGRID metric query " + promql;
    std::string path = "grid/metric-query?query=" + http::urlEncode(promql);
    if (time.time_since_epoch().count() != 0) {
        path += "&time=" + http::urlEncode(isoUtcMillis(time));
    }
    path += "&timeout=120s";
    auto data = getData(path, what, cancel);
    if (!data) {
        return connectors::fail(data.error());
    }
    return parseOne<MetricResult>(*data, what, parseMetricResult);
}

Result<MetricResult> StorageGridClient::metricQueryRange(const std::string &promql,
                                                         std::chrono::system_clock::time_point start,
                                                         std::chrono::system_clock::time_point end,
                                                         int stepSeconds,
                                                         const CancelToken &cancel)
{
    const std::string what = "StorageGRID metric range query " + promql;
    const std::string path = "grid/metric-query-range?query=" + http::urlEncode(promql) + "&start="
                             + http::urlEncode(isoUtcMillis(start)) + "&end=" + http::urlEncode(isoUtcMillis(end))
                             + "&step=" + std::to_string(std::max(1, stepSeconds)) + "s&timeout=120s";
    auto data = getData(path, what, cancel);
    if (!data) {
        return connectors::fail(data.error());
    }
    return parseOne<MetricResult>(*data, what, parseMetricResult);
}

Result<std::vector<Container>> StorageGridClient::containers(const CancelToken &cancel)
{
    const std::string what = "StorageGRID tenant buckets";
    auto data = getData("org/containers", what, cancel);
    if (!data) {
        return connectors::fail(data.error());
    }
    return parseList<Container>(*data, what, parseContainer);
}

Result<AccountUsage> StorageGridClient::tenantUsage(const CancelToken &cancel)
{
    const std::string what = "StorageGRID tenant usage";
    auto data = getData("org/usage?includeBucketDetail=true", what, cancel);
    if (!data) {
        return connectors::fail(data.error());
    }
    return parseOne<AccountUsage>(*data, what, parseAccountUsage);
}

} // namespace strata::storagegrid
