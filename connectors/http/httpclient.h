#pragma once

#include "connectors/http/retry.h"

#include <nlohmann/json_fwd.hpp>

#include <exception>
#include <optional>
#include <string>

namespace strata::http {

/// Where and how a connector talks to one system.
struct ClientOptions
{
    /// "https://cluster.example.com" or "https://127.0.0.1:8443"; no trailing slash needed.
    std::string baseUrl;
    std::optional<BasicAuth> basic;
    std::optional<BearerAuth> bearer;
    RetryPolicy retry;
    Sleeper sleeper; ///< empty = realSleeper()
};

/// Thin helper every connector uses: resolves paths against the base URL, adds auth and
/// default headers, retries idempotent requests, and parses JSON bodies. Thread-safe when the
/// transport is.
class HttpClient
{
public:
    HttpClient(IHttpTransport &transport, ClientOptions options);

    /// `pathOrUrl` is "/api/..." (joined to the base URL) or an absolute http(s) URL.
    [[nodiscard]] std::string resolve(const std::string &pathOrUrl) const;

    connectors::Result<HttpResponse> send(HttpRequest request, const CancelToken &cancel) const;

    /// Parses `response.body` as JSON; a Kind::Parse error names `what` on failure.
    static connectors::Result<nlohmann::json> parseJson(const HttpResponse &response, std::string_view what);

    [[nodiscard]] const ClientOptions &options() const { return m_options; }
    void setBearer(std::optional<BearerAuth> bearer) { m_options.bearer = std::move(bearer); }

private:
    IHttpTransport &m_transport;
    ClientOptions m_options;
};

/// Plain words for an exception a JSON DTO parser threw (nlohmann names its own functions:
/// "cannot use at() with array", "type must be string, but is number", "key 'uuid' not found";
/// "field 'a.b': " prefixes from the connectors' converters are kept as the field), to follow
/// "<system> sent ": "a JSON array where an object belongs (the cluster)", "a JSON number where
/// a string belongs (field 'name' of record 3 \"vol1\")", "no \"uuid\" field (record 3)".
/// `subject` (may be empty) names what was being read; other exceptions keep their text.
std::string describeJsonMismatch(const std::exception &e, std::string_view subject = {});

/// Percent-encodes a query component (RFC 3986 unreserved characters pass through).
std::string urlEncode(std::string_view value);

} // namespace strata::http
