#pragma once

#include "connectors/http/retry.h"
#include "connectors/http/transport.h"

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

/// Microsoft Entra ID (Azure AD) access tokens for ARM: the OAuth2 client-credentials flow and the
/// Azure CLI's cached login. Plain C++, errors as values; secrets never appear in messages.
namespace strata::azure {

/// A bearer token and the moment it stops being accepted.
struct AccessToken
{
    std::string token; ///< the raw access token (a JWT), sent as "Authorization: Bearer <token>"
    std::chrono::system_clock::time_point expiresOn;
};

/// Source of bearer tokens per scope ("https://management.azure.com/.default"). Implementations
/// cache per scope and are thread-safe.
class ITokenProvider
{
public:
    virtual ~ITokenProvider() = default;
    /// A token valid for `scope`, from the cache when it is not close to expiry. `forceRefresh`
    /// skips the cache (ARM answered 401 with the cached token). Errors: Kind::Auth when the
    /// identity platform or the CLI refuses, Transport/Timeout when it cannot be reached,
    /// Kind::Cancelled.
    virtual connectors::Result<AccessToken>
    token(const std::string &scope, const http::CancelToken &cancel, bool forceRefresh = false) = 0;
};

/// Wall clock, injectable for tests.
using Clock = std::function<std::chrono::system_clock::time_point()>;

struct ClientSecretOptions
{
    /// "https://login.microsoftonline.com" (public cloud), another cloud's authority, an ADFS
    /// authority ".../adfs", or a simulator's base URL. No trailing slash needed.
    std::string authorityUrl = "https://login.microsoftonline.com";
    /// Directory (tenant) id. Empty or "adfs": the token endpoint has no tenant segment
    /// ({authority}/oauth2/v2.0/token), as with `az cloud register` ADFS authorities.
    std::string tenantId;
    std::string clientId;     ///< application (client) id of the service principal
    std::string clientSecret; ///< never logged nor put in an error message
    /// Token requests have no side effects, so they are retried on 429/5xx/transport errors.
    http::RetryPolicy retry;
    http::Sleeper sleeper; ///< empty = realSleeper()
    Clock now;             ///< empty = system_clock::now
    /// A cached token is renewed once it is this close to expiry (or after the server's
    /// refresh_in, whichever comes first).
    std::chrono::seconds refreshMargin{300};
};

/// OAuth2 client credentials against Microsoft Entra ID:
/// POST {authority}/{tenant}/oauth2/v2.0/token, form-encoded client_id, client_secret,
/// grant_type=client_credentials, scope; answer {token_type, expires_in, access_token,
/// refresh_in?}. Tokens are cached per scope (mutex-protected).
///
/// Errors: unreachable/timeout -> Transport/Timeout naming the token endpoint's host;
/// 400/401 with {"error":"invalid_client","error_description":"AADSTS7000215: ..."} ->
/// Kind::Auth "Microsoft Entra ID rejected the client credentials: AADSTS7000215: ..."
/// (apiCode = error); other non-2xx -> Kind::Http; a 2xx without access_token -> Kind::Parse.
class ClientSecretCredential final : public ITokenProvider
{
public:
    ClientSecretCredential(http::IHttpTransport &transport, ClientSecretOptions options);

    connectors::Result<AccessToken>
    token(const std::string &scope, const http::CancelToken &cancel, bool forceRefresh = false) override;

    /// The URL tokens are requested from.
    [[nodiscard]] std::string tokenEndpoint() const;
    /// Token requests sent so far (tests).
    [[nodiscard]] int requestCount() const;

private:
    struct Cached
    {
        AccessToken token;
        std::chrono::system_clock::time_point refreshAt;
    };

    http::IHttpTransport &m_transport;
    ClientSecretOptions m_options;
    mutable std::mutex m_mutex;
    std::map<std::string, Cached> m_cache;
    int m_requests = 0;
};

/// What a finished process left behind.
struct ProcessOutput
{
    int exitCode = -1; ///< exit status, or -1 when killed by a signal
    std::string stdoutText;
    std::string stderrText;
};

/// Runs argv[0] (looked up in PATH when it has no slash) with the given arguments, no shell.
/// Errors: Kind::Process when it cannot be started (message names the program and errno's
/// text), Kind::Timeout after `timeout`, Kind::Cancelled.
using ProcessRunner = std::function<connectors::Result<ProcessOutput>(
    const std::vector<std::string> &argv, std::chrono::milliseconds timeout, const http::CancelToken &cancel)>;

/// The default ProcessRunner: posix_spawnp with stdin from /dev/null, stdout/stderr captured
/// (each up to 4 MiB).
connectors::Result<ProcessOutput>
runProcess(const std::vector<std::string> &argv, std::chrono::milliseconds timeout, const http::CancelToken &cancel);

struct AzureCliOptions
{
    std::string azPath = "az"; ///< the Azure CLI executable
    /// Optional: --tenant for get-access-token (a login spanning several tenants).
    std::string tenantId;
    ProcessRunner runner; ///< empty = runProcess
    Clock now;            ///< empty = system_clock::now
    std::chrono::milliseconds timeout{60'000};
    std::chrono::seconds refreshMargin{300};
};

/// Tokens from the Azure CLI's login: `az account get-access-token --scope <scope> -o json`
/// (argv, no shell). Reads accessToken and expires_on (epoch seconds, az >= 2.54) or
/// expiresOn ("2026-11-22 10:00:00.000000", local time). Cached per scope like
/// ClientSecretCredential.
///
/// Errors (Kind::Auth): az missing ("Azure CLI (az) was not found ..."), a non-zero exit
/// (the first line of stderr, e.g. "ERROR: Please run 'az login' to setup account."), output
/// without accessToken (Kind::Parse).
class AzureCliCredential final : public ITokenProvider
{
public:
    explicit AzureCliCredential(AzureCliOptions options = {});

    connectors::Result<AccessToken>
    token(const std::string &scope, const http::CancelToken &cancel, bool forceRefresh = false) override;

    /// CLI runs so far (tests).
    [[nodiscard]] int runCount() const;

private:
    AzureCliOptions m_options;
    mutable std::mutex m_mutex;
    std::map<std::string, AccessToken> m_cache;
    int m_runs = 0;
};

/// Parses `az account get-access-token -o json` output (exposed for tests).
connectors::Result<AccessToken> parseCliToken(const std::string &json);

} // namespace strata::azure
