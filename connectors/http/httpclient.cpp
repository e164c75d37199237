#include "connectors/http/httpclient.h"

#include "connectors/http/jsonparse.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace strata::http {

namespace {

bool startsWithNoCase(std::string_view text, std::string_view prefix)
{
    return text.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), text.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
           });
}

} // namespace

HttpClient::HttpClient(IHttpTransport &transport, ClientOptions options)
    : m_transport(transport)
    , m_options(std::move(options))
{}

std::string HttpClient::resolve(const std::string &pathOrUrl) const
{
    if (startsWithNoCase(pathOrUrl, "http://") || startsWithNoCase(pathOrUrl, "https://")) {
        return pathOrUrl;
    }
    std::string_view base = m_options.baseUrl;
    while (!base.empty() && base.back() == '/') {
        base.remove_suffix(1);
    }
    std::string_view path = pathOrUrl;
    if (path.empty() || path.front() == '?') {
        return std::string(base) + std::string(path);
    }
    while (!path.empty() && path.front() == '/') {
        path.remove_prefix(1);
    }
    std::string url;
    url.reserve(base.size() + 1 + path.size());
    url.append(base).append("/").append(path);
    return url;
}

connectors::Result<HttpResponse> HttpClient::send(HttpRequest request, const CancelToken &cancel) const
{
    request.url = resolve(request.url);
    const bool hasAuth =
        request.basic || request.bearer || request.sigv4 || findHeader(request.headers, "Authorization").has_value();
    if (!hasAuth) {
        // A bearer token, once obtained (setBearer), supersedes the login credentials.
        if (m_options.bearer) {
            request.bearer = m_options.bearer;
        } else if (m_options.basic) {
            request.basic = m_options.basic;
        }
    }
    if (!findHeader(request.headers, "Accept")) {
        request.headers.emplace_back("Accept", "application/json");
    }
    if (!request.body.empty() && !findHeader(request.headers, "Content-Type")) {
        request.headers.emplace_back("Content-Type", "application/json");
    }
    const Sleeper sleeper = m_options.sleeper ? m_options.sleeper : realSleeper();
    return sendWithRetry(m_transport, request, m_options.retry, cancel, sleeper);
}

connectors::Result<nlohmann::json> HttpClient::parseJson(const HttpResponse &response, std::string_view what)
{
    JsonParseFailure failure;
    nlohmann::json body = parseJsonBounded(response.body, &failure);
    if (body.is_discarded()) {
        return connectors::fail(connectors::Error::make(
            connectors::Error::Kind::Parse, std::string(what) + ": " + failure.message, response.status));
    }
    return body;
}

std::string describeJsonMismatch(const std::exception &e, std::string_view subject)
{
    std::string_view text = e.what();
    if (text.starts_with("[json.exception.")) {
        if (const auto end = text.find("] "); end != std::string_view::npos) {
            text.remove_prefix(end + 2);
        }
    }
    std::string field;
    if (text.starts_with("field '")) {
        if (const auto end = text.find("': "); end != std::string_view::npos) {
            field = std::string(text.substr(7, end - 7));
            text.remove_prefix(end + 3);
        }
    }
    std::string context;
    if (!field.empty()) {
        context = " (field '" + field + "'" + (subject.empty() ? "" : " of " + std::string(subject)) + ")";
    } else if (!subject.empty()) {
        context = " (" + std::string(subject) + ")";
    }
    const auto article = [](std::string_view noun) {
        return !noun.empty() && std::string_view("aeiou").find(noun.front()) != std::string_view::npos ? "an " : "a ";
    };
    // "cannot use at() with array", "cannot use operator[] with a numeric argument with object"
    if (text.starts_with("cannot use ")) {
        if (const auto with = text.rfind(" with "); with != std::string_view::npos) {
            const bool index = text.find("numeric argument") != std::string_view::npos;
            return "a JSON " + std::string(text.substr(with + 6)) + " where " + (index ? "an array" : "an object")
                   + " belongs" + context;
        }
    }
    // "type must be string, but is number"
    if (text.starts_with("type must be ")) {
        if (const auto but = text.find(", but is "); but != std::string_view::npos) {
            const std::string_view wanted = text.substr(13, but - 13);
            return "a JSON " + std::string(text.substr(but + 9)) + " where " + article(wanted) + std::string(wanted)
                   + " belongs" + context;
        }
    }
    // "key 'uuid' not found"
    if (text.starts_with("key '") && text.ends_with("' not found")) {
        return "no \"" + std::string(text.substr(5, text.size() - 5 - 11)) + "\" field" + context;
    }
    return std::string(text) + context;
}

std::string urlEncode(std::string_view value)
{
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(value.size() * 3);
    for (const char c : value) {
        const auto byte = static_cast<unsigned char>(c);
        // Explicit ranges: std::isalnum follows the process locale, which Qt sets from the environment.
        const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'
                                || c == '.' || c == '_' || c == '~';
        if (unreserved) {
            out.push_back(c);
        } else {
            out.push_back('%');
            out.push_back(hex[byte >> 4]);
            out.push_back(hex[byte & 0x0F]);
        }
    }
    return out;
}

} // namespace strata::http
