#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace strata::http {

enum class Method
{
    Get,
    Head,
    Post,
    Put,
    Patch,
    Delete
};

const char *methodName(Method method);

/// Ordered header list; names compare case-insensitively on lookup.
using Headers = std::vector<std::pair<std::string, std::string>>;

/// Returns the first header called `name` (case-insensitive), or nullopt.
std::optional<std::string> findHeader(const Headers &headers, std::string_view name);

struct BasicAuth
{
    std::string username;
    std::string password;
};

struct BearerAuth
{
    std::string token;
};

/// AWS Signature Version 4 (S3): libcurl signs; the caller sets x-amz-content-sha256.
struct AwsSigV4Auth
{
    std::string accessKey;
    std::string secretKey;
    std::string region; ///< e.g. "us-east-1"
    std::string service = "s3";
};

struct HttpRequest
{
    Method method = Method::Get;
    /// Absolute URL ("https://host:port/api/...") once it reaches a transport; HttpClient
    /// resolves paths relative to its base URL.
    std::string url;
    Headers headers;
    std::string body;
    std::optional<BasicAuth> basic;
    std::optional<BearerAuth> bearer;
    std::optional<AwsSigV4Auth> sigv4;
    /// Overrides the transport's total timeout for this request (watch streams need longer).
    std::optional<std::chrono::milliseconds> totalTimeout;
    /// Set to declare a PUT/DELETE idempotent for retries; GET and HEAD always are, POST and
    /// PATCH never are unless this is explicitly true.
    std::optional<bool> idempotent;
    /// TLS client identity for this request (PEM text, both or neither), overriding the
    /// transport's: credentials an exec plugin hands out at run time. Never logged.
    std::string clientCertPem;
    std::string clientKeyPem;

    [[nodiscard]] bool isIdempotent() const;
};

} // namespace strata::http
