#include "connectors/azure/azureclient.h"

#include "connectors/http/jsonparse.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <ctime>
#include <iterator>
#include <set>

namespace strata::azure {

using connectors::Result;
using http::CancelToken;
using http::HttpRequest;
using http::HttpResponse;
using http::Method;
using Kind = connectors::Error::Kind;
using nlohmann::json;

namespace {

constexpr const char *kPublicArm = "https://management.azure.com";

std::string trimSlashes(std::string text)
{
    while (!text.empty() && text.back() == '/') {
        text.pop_back();
    }
    return text;
}

bool hasApiVersion(const std::string &url)
{
    const auto query = url.find('?');
    if (query == std::string::npos) {
        return false;
    }
    std::string lower = url.substr(query);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return lower.find("?api-version=") != std::string::npos || lower.find("&api-version=") != std::string::npos;
}

connectors::Error parseError(std::string_view what, const std::string &detail, int status)
{
    return connectors::Error::make(Kind::Parse, std::string(what) + ": " + detail, status);
}

// A string member, `fallback` when absent or of another type (json::value() would throw
// type_error out of the client and end the process).
std::string armStringField(const json &object, const char *key, std::string fallback = {})
{
    if (object.is_object()) {
        if (auto it = object.find(key); it != object.end() && it->is_string()) {
            return it->get<std::string>();
        }
    }
    return fallback;
}

std::string nameOf(const json &record)
{
    if (record.is_object()) {
        if (auto it = record.find("name"); it != record.end() && it->is_string()) {
            return " (" + it->get<std::string>() + ")";
        }
        if (auto it = record.find("id"); it != record.end() && it->is_string()) {
            return " (" + it->get<std::string>() + ")";
        }
    }
    return {};
}

template <class T> Result<std::vector<T>> parseItems(const std::vector<json> &items, std::string_view what)
{
    std::vector<T> out;
    out.reserve(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        try {
            out.push_back(items[i].template get<T>());
        } catch (const std::exception &e) {
            return connectors::fail(parseError(
                what,
                "ARM sent " + http::describeJsonMismatch(e, "record " + std::to_string(i + 1) + nameOf(items[i])),
                200));
        }
    }
    return out;
}

template <class T> Result<T> parseOne(const json &body, std::string_view what, bool accepted = false)
{
    try {
        return body.template get<T>();
    } catch (const std::exception &e) {
        connectors::Error error = parseError(what, "ARM sent " + http::describeJsonMismatch(e) + nameOf(body), 200);
        // A mutation ARM accepted happened even if its answer is unreadable.
        error.outcomeUnknown = accepted;
        return connectors::fail(std::move(error));
    }
}

std::string lastSegment(const std::string &url)
{
    std::string path = url.substr(0, url.find('?'));
    path = trimSlashes(path);
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

Result<json> parseBody(const HttpResponse &response, std::string_view what)
{
    if (response.body.empty()) {
        return json();
    }
    return http::HttpClient::parseJson(response, what);
}

} // namespace

connectors::Error armError(const HttpResponse &response, std::string_view what)
{
    const int status = response.status;
    json body;
    body = http::parseJsonBounded(response.body);
    if (body.is_discarded()) {
        body = json();
    }
    std::string code;
    std::string message;
    std::string detail;
    // Most providers wrap the error ({"error":{...}}); a few older ones send it bare.
    const json *error = nullptr;
    if (body.is_object()) {
        if (auto it = body.find("error"); it != body.end() && it->is_object()) {
            error = &*it;
        } else if (body.contains("code") && body.contains("message")) {
            error = &body;
        }
    }
    if (error) {
        if (auto it = error->find("code"); it != error->end() && it->is_string()) {
            code = it->get<std::string>();
        }
        if (auto it = error->find("message"); it != error->end() && it->is_string()) {
            message = it->get<std::string>();
        }
        if (auto it = error->find("details");
            it != error->end() && it->is_array() && !it->empty() && (*it)[0].is_object()) {
            const json &first = (*it)[0];
            if (auto m = first.find("message"); m != first.end() && m->is_string()) {
                detail = m->get<std::string>();
            }
        }
    }
    const bool armBody = error && (!code.empty() || !message.empty());
    Kind kind = armBody ? Kind::Api : Kind::Http;
    if (status == 401 || status == 403) {
        kind = Kind::Auth;
    }
    std::string text = std::string(what) + ": ";
    if (armBody) {
        text += message.empty() ? code : message;
        if (!detail.empty() && detail != message) {
            text += " (" + detail + ")";
        }
    } else {
        text += "HTTP status " + std::to_string(status);
    }
    connectors::Error out = connectors::Error::make(kind, std::move(text), status);
    out.apiCode = code;
    if (out.apiCode.empty() && status == 404) {
        out.apiCode = "NotFound";
    }
    out.retryAfterSeconds = http::parseRetryAfter(response.header("Retry-After"));
    return out;
}

std::optional<std::string> base64Decode(std::string_view text)
{
    std::string out;
    out.reserve(text.size() * 3 / 4);
    std::uint32_t buffer = 0;
    int bits = 0;
    bool padding = false;
    for (const char c : text) {
        int value = -1;
        if (c >= 'A' && c <= 'Z') {
            value = c - 'A';
        } else if (c >= 'a' && c <= 'z') {
            value = c - 'a' + 26;
        } else if (c >= '0' && c <= '9') {
            value = c - '0' + 52;
        } else if (c == '+' || c == '-') {
            value = 62;
        } else if (c == '/' || c == '_') {
            value = 63;
        } else if (c == '=') {
            padding = true;
            continue;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            continue;
        } else {
            return std::nullopt;
        }
        if (padding) {
            return std::nullopt; // data after padding
        }
        buffer = (buffer << 6) | static_cast<std::uint32_t>(value);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
        }
    }
    if (bits >= 6) {
        return std::nullopt; // a lone sextet cannot encode a byte
    }
    return out;
}

std::string isoUtc(std::chrono::system_clock::time_point time)
{
    const std::time_t t = std::chrono::system_clock::to_time_t(time);
    std::tm tm{};
    gmtime_r(&t, &tm);
    std::array<char, 32> buffer{};
    std::strftime(buffer.data(), buffer.size(), "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buffer.data();
}

AzureClient::AzureClient(http::IHttpTransport &transport, ITokenProvider &tokens, AzureClientOptions options)
    : m_transport(transport)
    , m_tokens(tokens)
    , m_options(std::move(options))
    , m_http(transport, [this] {
        http::ClientOptions http = m_options.http;
        if (http.baseUrl.empty()) {
            http.baseUrl = kPublicArm;
        }
        http.basic.reset();
        http.bearer.reset();
        return http;
    }())
{
    if (m_options.http.baseUrl.empty()) {
        m_options.http.baseUrl = kPublicArm;
    }
    m_scope = m_options.scope;
    if (m_scope.empty()) {
        const std::string base = trimSlashes(m_options.http.baseUrl);
        m_scope = base + "/.default";
    }
}

std::string AzureClient::url(const std::string &pathOrUrl, const std::string &apiVersion) const
{
    std::string resolved = m_http.resolve(pathOrUrl);
    if (apiVersion.empty() || hasApiVersion(resolved)) {
        return resolved;
    }
    resolved += resolved.find('?') == std::string::npos ? '?' : '&';
    resolved += "api-version=" + http::urlEncode(apiVersion);
    return resolved;
}

http::Sleeper AzureClient::sleeper() const
{
    return m_options.http.sleeper ? m_options.http.sleeper : http::realSleeper();
}

std::string AzureClient::subscriptionPath() const
{
    return "/subscriptions/" + http::urlEncode(m_options.subscriptionId);
}

Result<HttpResponse> AzureClient::send(HttpRequest request, const CancelToken &cancel)
{
    for (int attempt = 0;; ++attempt) {
        // The second round follows a 401: the cached token expired or was revoked early.
        auto token = m_tokens.token(m_scope, cancel, attempt > 0);
        if (!token) {
            return connectors::fail(std::move(token).error());
        }
        request.bearer = http::BearerAuth{token->token};
        auto response = m_http.send(request, cancel);
        if (!response || response->status != 401 || attempt > 0) {
            return response;
        }
    }
}

Result<json> AzureClient::getWithVersion(const std::string &pathOrUrl,
                                         const std::string &apiVersion,
                                         std::string_view what,
                                         const CancelToken &cancel)
{
    HttpRequest request;
    request.method = Method::Get;
    request.url = url(pathOrUrl, apiVersion);
    auto response = send(std::move(request), cancel);
    if (!response) {
        return connectors::fail(std::move(response).error());
    }
    if (!response->isSuccess()) {
        return connectors::fail(armError(*response, what));
    }
    return http::HttpClient::parseJson(*response, what);
}

Result<std::vector<json>> AzureClient::listWithVersion(const std::string &pathOrUrl,
                                                       const std::string &apiVersion,
                                                       std::string_view what,
                                                       const CancelToken &cancel)
{
    std::vector<json> items;
    std::set<std::string> visited;
    std::string href = url(pathOrUrl, apiVersion);
    for (;;) {
        visited.insert(href);
        auto page = getWithVersion(href, apiVersion, what, cancel);
        if (!page) {
            return connectors::fail(std::move(page).error());
        }
        if (!page->is_object()) {
            return connectors::fail(
                parseError(what, std::string("a list must be an object, not ") + page->type_name(), 200));
        }
        if (auto value = page->find("value"); value != page->end() && !value->is_null()) {
            if (!value->is_array()) {
                return connectors::fail(parseError(what, "\"value\" is not an array", 200));
            }
            for (auto &item : *value) {
                items.push_back(std::move(item));
            }
        }
        std::string next;
        if (auto link = page->find("nextLink"); link != page->end() && link->is_string()) {
            next = link->get<std::string>();
        }
        if (next.empty()) {
            return items;
        }
        next = url(next, apiVersion);
        // A server that hands back a page already read would keep us here forever.
        if (visited.count(next) > 0) {
            return items;
        }
        href = std::move(next);
    }
}

Result<json> AzureClient::getJson(const std::string &pathOrUrl, std::string_view what, const CancelToken &cancel)
{
    return getWithVersion(pathOrUrl, m_options.apiVersion, what, cancel);
}

Result<std::vector<json>>
AzureClient::listAll(const std::string &pathOrUrl, std::string_view what, const CancelToken &cancel)
{
    return listWithVersion(pathOrUrl, m_options.apiVersion, what, cancel);
}

Result<json> AzureClient::sendLro(Method method,
                                  const std::string &pathOrUrl,
                                  const json &body,
                                  std::string_view what,
                                  const LroProgress &progress,
                                  const CancelToken &cancel)
{
    return sendLroWithVersion(method, pathOrUrl, m_options.apiVersion, body, what, progress, cancel);
}

Result<json> AzureClient::sendLroWithVersion(Method method,
                                             const std::string &pathOrUrl,
                                             const std::string &apiVersion,
                                             const json &body,
                                             std::string_view what,
                                             const LroProgress &progress,
                                             const CancelToken &cancel)
{
    HttpRequest request;
    request.method = method;
    request.url = url(pathOrUrl, apiVersion);
    if (!body.is_null()) {
        request.body = body.dump();
    }
    // ARM documents PUT and DELETE as idempotent; POST actions (poolChange, revert) are not.
    request.idempotent = method == Method::Put || method == Method::Delete;
    auto response = send(request, cancel);
    if (!response) {
        connectors::Error error = std::move(response).error();
        if (error.kind != Kind::Cancelled) {
            error.message = std::string(what) + ": " + error.message;
        }
        return connectors::fail(std::move(error));
    }
    if (!response->isSuccess()) {
        return connectors::fail(armError(*response, what));
    }
    const bool pollable = response->header("Azure-AsyncOperation").has_value() || response->header("Location");
    if ((response->status == 201 || response->status == 202) && pollable) {
        return pollLro(request, *response, what, progress, cancel);
    }
    auto parsed = parseBody(*response, what);
    if (!parsed) {
        connectors::Error error = std::move(parsed).error();
        error.outcomeUnknown = true;
        return connectors::fail(std::move(error));
    }
    return parsed;
}

Result<json> AzureClient::pollLro(const HttpRequest &original,
                                  const HttpResponse &accepted,
                                  std::string_view what,
                                  const LroProgress &progress,
                                  const CancelToken &cancel)
{
    using namespace std::chrono;
    const std::string asyncUrl = accepted.header("Azure-AsyncOperation").value_or(std::string());
    const std::string locationUrl = accepted.header("Location").value_or(std::string());
    const auto started = steady_clock::now();
    const http::Sleeper sleep = sleeper();
    milliseconds slept{0};
    const milliseconds interval = std::max(m_options.lroPollInterval, milliseconds{1});
    const std::string operationId = lastSegment(asyncUrl.empty() ? locationUrl : asyncUrl);
    int retryAfter = http::parseRetryAfter(accepted.header("Retry-After"));
    std::string lastStatus = "Accepted";

    const auto report = [&progress](const LroStatus &status) {
        if (progress) {
            try {
                progress(status);
            } catch (...) {
                // A throwing observer must not abandon an operation Azure is already running.
            }
        }
    };
    // After ARM accepted the request, every failure to learn the outcome leaves it unknown.
    const auto unknown = [&](connectors::Error error) {
        error.outcomeUnknown = true;
        if (error.kind == Kind::Cancelled) {
            error.message = std::string(what) + ": cancelled while waiting (last status " + lastStatus
                            + "); the operation continues in Azure";
        } else {
            error.message = std::string(what) + " (waiting for operation " + operationId + "): " + error.message;
        }
        return connectors::fail(std::move(error));
    };
    const auto waitNext = [&]() -> std::optional<connectors::Error> {
        const milliseconds delay = retryAfter > 0 ? milliseconds{seconds{retryAfter}} : interval;
        if (!sleep(delay, cancel) || cancel.isCancelled()) {
            return connectors::Error::make(Kind::Cancelled, "cancelled");
        }
        slept += delay;
        return std::nullopt;
    };
    const auto timedOut = [&]() -> std::optional<connectors::Error> {
        // With a no-op test sleeper wall time barely moves, so the waits asked for count too.
        const auto waited = std::max(duration_cast<milliseconds>(steady_clock::now() - started), slept);
        if (waited < m_options.lroTimeout) {
            return std::nullopt;
        }
        connectors::Error error = connectors::Error::make(
            Kind::Timeout,
            std::string(what) + " still running after " + std::to_string(duration_cast<seconds>(waited).count())
                + " s (last status " + lastStatus + ", operation " + operationId + "); Strata did not retry it");
        error.outcomeUnknown = true;
        return error;
    };
    const auto get = [&](const std::string &target) {
        HttpRequest request;
        request.method = Method::Get;
        request.url = url(target, m_options.apiVersion);
        return send(std::move(request), cancel);
    };
    // Polls the Location until it stops answering 202; 200/201 carry the result, 204 none.
    const auto followLocation = [&](bool waitFirst) -> Result<json> {
        for (bool first = true;; first = false) {
            if (!first || waitFirst) {
                if (auto stop = waitNext()) {
                    return unknown(*stop);
                }
            }
            auto response = get(locationUrl);
            if (!response) {
                return unknown(std::move(response).error());
            }
            retryAfter = http::parseRetryAfter(response->header("Retry-After"));
            if (response->status == 202) {
                lastStatus = "InProgress";
                report(LroStatus{lastStatus, -1, operationId, locationUrl});
                if (auto stop = timedOut()) {
                    return connectors::fail(*stop);
                }
                continue;
            }
            if (!response->isSuccess()) {
                connectors::Error error = armError(*response, what);
                // An ARM error body is the operation's verdict; anything else leaves it open.
                if (error.kind == Kind::Api) {
                    return connectors::fail(std::move(error));
                }
                return unknown(std::move(error));
            }
            lastStatus = "Succeeded";
            auto parsed = parseBody(*response, what);
            if (!parsed) {
                return unknown(std::move(parsed).error());
            }
            return parsed;
        }
    };

    if (asyncUrl.empty()) {
        return followLocation(true);
    }
    for (;;) {
        if (auto stop = waitNext()) {
            return unknown(*stop);
        }
        auto response = get(asyncUrl);
        if (!response) {
            return unknown(std::move(response).error());
        }
        if (!response->isSuccess()) {
            return unknown(armError(*response, what));
        }
        retryAfter = http::parseRetryAfter(response->header("Retry-After"));
        auto doc = http::HttpClient::parseJson(*response, what);
        if (!doc) {
            return unknown(std::move(doc).error());
        }
        if (!doc->is_object() || !doc->contains("status") || !(*doc)["status"].is_string()) {
            return unknown(parseError(what, "operation status without \"status\"", response->status));
        }
        LroStatus status;
        status.status = (*doc)["status"].get<std::string>();
        if (auto pc = doc->find("percentComplete"); pc != doc->end() && pc->is_number()) {
            status.percentComplete = pc->get<double>();
        }
        status.operationId = armStringField(*doc, "name", operationId);
        status.operationUrl = asyncUrl;
        lastStatus = status.status;
        report(status);
        if (status.status == "Succeeded") {
            if (!locationUrl.empty()) {
                return followLocation(false);
            }
            if (original.method == Method::Put) {
                auto resource = get(original.url);
                if (!resource) {
                    return unknown(std::move(resource).error());
                }
                if (!resource->isSuccess()) {
                    return unknown(armError(*resource, what));
                }
                auto parsed = parseBody(*resource, what);
                if (!parsed) {
                    return unknown(std::move(parsed).error());
                }
                return parsed;
            }
            return json();
        }
        if (status.status == "Failed") {
            std::string code;
            std::string message;
            std::string detail;
            if (auto error = doc->find("error"); error != doc->end() && error->is_object()) {
                code = armStringField(*error, "code");
                message = armStringField(*error, "message");
                if (auto details = error->find("details");
                    details != error->end() && details->is_array() && !details->empty() && (*details)[0].is_object()) {
                    detail = armStringField((*details)[0], "message");
                }
            }
            std::string text = std::string(what) + " failed: " + (message.empty() ? "no reason given" : message);
            if (!detail.empty() && detail != message) {
                text += " (" + detail + ")";
            }
            connectors::Error error = connectors::Error::make(Kind::Api, std::move(text), response->status);
            error.apiCode = code.empty() ? "Failed" : code;
            return connectors::fail(std::move(error));
        }
        if (status.status == "Canceled" || status.status == "Cancelled") {
            connectors::Error error =
                connectors::Error::make(Kind::Api, std::string(what) + " was canceled", response->status);
            error.apiCode = "Canceled";
            return connectors::fail(std::move(error));
        }
        if (auto stop = timedOut()) {
            return connectors::fail(*stop);
        }
    }
}

// ---- Azure NetApp Files ------------------------------------------------------------------------

Result<std::vector<NetAppAccount>> AzureClient::listAccounts(const CancelToken &cancel)
{
    const std::string what = "listing NetApp accounts";
    auto items = listAll(subscriptionPath() + "/providers/Microsoft.NetApp/netAppAccounts", what, cancel);
    if (!items) {
        return connectors::fail(std::move(items).error());
    }
    return parseItems<NetAppAccount>(*items, what);
}

Result<std::vector<CapacityPool>> AzureClient::listPools(const std::string &accountId, const CancelToken &cancel)
{
    const std::string what = "listing capacity pools of " + lastSegment(accountId);
    auto items = listAll(trimSlashes(accountId) + "/capacityPools", what, cancel);
    if (!items) {
        return connectors::fail(std::move(items).error());
    }
    return parseItems<CapacityPool>(*items, what);
}

Result<CapacityPool> AzureClient::pool(const std::string &poolId, const CancelToken &cancel)
{
    const std::string what = "reading capacity pool " + lastSegment(poolId);
    auto body = getJson(poolId, what, cancel);
    if (!body) {
        return connectors::fail(std::move(body).error());
    }
    return parseOne<CapacityPool>(*body, what);
}

Result<std::vector<AnfVolume>> AzureClient::listVolumes(const std::string &poolId, const CancelToken &cancel)
{
    const std::string what = "listing volumes of pool " + lastSegment(poolId);
    auto items = listAll(trimSlashes(poolId) + "/volumes", what, cancel);
    if (!items) {
        return connectors::fail(std::move(items).error());
    }
    return parseItems<AnfVolume>(*items, what);
}

Result<AnfVolume> AzureClient::volume(const std::string &volumeId, const CancelToken &cancel)
{
    const std::string what = "reading volume " + lastSegment(volumeId);
    auto body = getJson(volumeId, what, cancel);
    if (!body) {
        return connectors::fail(std::move(body).error());
    }
    return parseOne<AnfVolume>(*body, what);
}

Result<std::vector<AnfSnapshot>> AzureClient::listSnapshots(const std::string &volumeId, const CancelToken &cancel)
{
    const std::string what = "listing snapshots of volume " + lastSegment(volumeId);
    auto items = listAll(trimSlashes(volumeId) + "/snapshots", what, cancel);
    if (!items) {
        return connectors::fail(std::move(items).error());
    }
    return parseItems<AnfSnapshot>(*items, what);
}

Result<AnfSnapshot> AzureClient::createSnapshot(const std::string &volumeId,
                                                const std::string &name,
                                                const std::string &location,
                                                const LroProgress &progress,
                                                const CancelToken &cancel)
{
    const std::string what = "creating snapshot " + name + " of volume " + lastSegment(volumeId);
    const std::string path = trimSlashes(volumeId) + "/snapshots/" + http::urlEncode(name);
    auto result = sendLro(Method::Put, path, json{{"location", location}}, what, progress, cancel);
    if (!result) {
        return connectors::fail(std::move(result).error());
    }
    json body = std::move(*result);
    if (!body.is_object()) {
        auto reread = getJson(path, what, cancel);
        if (!reread) {
            connectors::Error error = std::move(reread).error();
            error.outcomeUnknown = true;
            return connectors::fail(std::move(error));
        }
        body = std::move(*reread);
    }
    return parseOne<AnfSnapshot>(body, what, true);
}

Result<void>
AzureClient::deleteSnapshot(const std::string &snapshotId, const LroProgress &progress, const CancelToken &cancel)
{
    const std::string what = "deleting snapshot " + lastSegment(snapshotId);
    auto result = sendLro(Method::Delete, snapshotId, json(), what, progress, cancel);
    if (!result) {
        return connectors::fail(std::move(result).error());
    }
    return {};
}

Result<void> AzureClient::revertVolume(const std::string &volumeId,
                                       const std::string &snapshotId,
                                       const LroProgress &progress,
                                       const CancelToken &cancel)
{
    const std::string what = "reverting volume " + lastSegment(volumeId) + " to snapshot " + lastSegment(snapshotId);
    auto result = sendLro(
        Method::Post, trimSlashes(volumeId) + "/revert", json{{"snapshotId", snapshotId}}, what, progress, cancel);
    if (!result) {
        return connectors::fail(std::move(result).error());
    }
    return {};
}

Result<std::string> AzureClient::poolChange(const std::string &volumeId,
                                            const std::string &newPoolId,
                                            const LroProgress &progress,
                                            const CancelToken &cancel)
{
    const auto parsed = ArmId::parse(volumeId);
    const std::string volumeName = parsed && !parsed->volume.empty() ? parsed->volume : lastSegment(volumeId);
    const std::string what = "moving volume " + volumeName + " to pool " + lastSegment(newPoolId);
    auto result = sendLro(Method::Post,
                          trimSlashes(volumeId) + "/poolChange",
                          json{{"newPoolResourceId", trimSlashes(newPoolId)}},
                          what,
                          progress,
                          cancel);
    if (!result) {
        return connectors::fail(std::move(result).error());
    }
    return trimSlashes(newPoolId) + "/volumes/" + volumeName;
}

Result<CapacityPool> AzureClient::createPool(const std::string &accountId,
                                             const std::string &name,
                                             const std::string &location,
                                             const std::string &serviceLevel,
                                             std::int64_t sizeBytes,
                                             const std::string &qosType,
                                             const LroProgress &progress,
                                             const CancelToken &cancel)
{
    const std::string what = "creating capacity pool " + name + " (" + serviceLevel + ")";
    const std::string path = trimSlashes(accountId) + "/capacityPools/" + http::urlEncode(name);
    json body = {{"location", location},
                 {"properties", {{"serviceLevel", serviceLevel}, {"size", sizeBytes}, {"qosType", qosType}}}};
    auto result = sendLro(Method::Put, path, body, what, progress, cancel);
    if (!result) {
        return connectors::fail(std::move(result).error());
    }
    json created = std::move(*result);
    if (!created.is_object()) {
        auto reread = getJson(path, what, cancel);
        if (!reread) {
            connectors::Error error = std::move(reread).error();
            error.outcomeUnknown = true;
            return connectors::fail(std::move(error));
        }
        created = std::move(*reread);
    }
    return parseOne<CapacityPool>(created, what, true);
}

Result<std::vector<MetricSeries>> AzureClient::volumeMetrics(const std::string &volumeId,
                                                             std::chrono::system_clock::time_point from,
                                                             std::chrono::system_clock::time_point to,
                                                             const CancelToken &cancel)
{
    static const std::array<const char *, 7> names = {"ReadThroughput",
                                                      "WriteThroughput",
                                                      "ReadIops",
                                                      "WriteIops",
                                                      "AverageReadLatency",
                                                      "AverageWriteLatency",
                                                      "VolumeLogicalSize"};
    std::string metricNames;
    for (const char *name : names) {
        metricNames += (metricNames.empty() ? "" : ",") + std::string(name);
    }
    const std::string what = "reading Azure Monitor metrics of volume " + lastSegment(volumeId);
    const std::string path = trimSlashes(volumeId) + "/providers/Microsoft.Insights/metrics?metricnames=" + metricNames
                             + "&timespan=" + http::urlEncode(isoUtc(from) + "/" + isoUtc(to))
                             + "&interval=PT5M&aggregation=Average";
    auto body = getWithVersion(path, m_options.monitorApiVersion, what, cancel);
    if (!body) {
        return connectors::fail(std::move(body).error());
    }
    if (!body->is_object()) {
        return connectors::fail(parseError(what, "the answer is not an object", 200));
    }
    std::vector<json> items;
    if (auto value = body->find("value"); value != body->end() && value->is_array()) {
        // Moved, not copied: a json copy recurses once per nesting level of what Monitor sent.
        items.assign(std::make_move_iterator(value->begin()), std::make_move_iterator(value->end()));
    } else if (value != body->end() && !value->is_null()) {
        return connectors::fail(parseError(what, "\"value\" is not an array", 200));
    }
    auto series = parseItems<MetricSeries>(items, what);
    if (!series) {
        return series;
    }
    const auto rank = [](const std::string &name) {
        const auto it = std::find(names.begin(), names.end(), name);
        return static_cast<std::size_t>(it - names.begin());
    };
    std::stable_sort(series->begin(), series->end(), [&rank](const MetricSeries &a, const MetricSeries &b) {
        return rank(a.name) < rank(b.name);
    });
    return series;
}

// ---- AKS -------------------------------------------------------------------------------------

Result<std::vector<ManagedCluster>> AzureClient::listManagedClusters(const CancelToken &cancel)
{
    const std::string what = "listing AKS clusters";
    auto items = listWithVersion(subscriptionPath() + "/providers/Microsoft.ContainerService/managedClusters",
                                 m_options.aksApiVersion,
                                 what,
                                 cancel);
    if (!items) {
        return connectors::fail(std::move(items).error());
    }
    return parseItems<ManagedCluster>(*items, what);
}

Result<std::string> AzureClient::clusterUserKubeconfig(const std::string &clusterId, const CancelToken &cancel)
{
    const std::string what = "reading the user kubeconfig of AKS cluster " + lastSegment(clusterId);
    HttpRequest request;
    request.method = Method::Post;
    request.url = url(trimSlashes(clusterId) + "/listClusterUserCredential", m_options.aksApiVersion);
    auto response = send(std::move(request), cancel);
    if (!response) {
        return connectors::fail(std::move(response).error());
    }
    if (!response->isSuccess()) {
        return connectors::fail(armError(*response, what));
    }
    auto body = http::HttpClient::parseJson(*response, what);
    if (!body) {
        return connectors::fail(std::move(body).error());
    }
    const json *value = nullptr;
    if (body->is_object()) {
        if (auto configs = body->find("kubeconfigs");
            configs != body->end() && configs->is_array() && !configs->empty() && (*configs)[0].is_object()) {
            if (auto v = (*configs)[0].find("value"); v != (*configs)[0].end() && v->is_string()) {
                value = &*v;
            }
        }
    }
    if (!value) {
        return connectors::fail(parseError(what, "no kubeconfigs[0].value in the answer", response->status));
    }
    auto decoded = base64Decode(value->get_ref<const std::string &>());
    if (!decoded) {
        return connectors::fail(parseError(what, "kubeconfigs[0].value is not base64", response->status));
    }
    return std::move(*decoded);
}

// ---- subscriptions -----------------------------------------------------------------------------

Result<std::vector<Subscription>> AzureClient::subscriptions(const CancelToken &cancel)
{
    const std::string what = "listing subscriptions";
    auto items = listWithVersion("/subscriptions", m_options.subscriptionsApiVersion, what, cancel);
    if (!items) {
        return connectors::fail(std::move(items).error());
    }
    return parseItems<Subscription>(*items, what);
}

Result<Subscription> AzureClient::subscription(const CancelToken &cancel)
{
    const std::string what = "reading subscription " + m_options.subscriptionId;
    auto body = getWithVersion(subscriptionPath(), m_options.subscriptionsApiVersion, what, cancel);
    if (!body) {
        return connectors::fail(std::move(body).error());
    }
    return parseOne<Subscription>(*body, what);
}

} // namespace strata::azure
