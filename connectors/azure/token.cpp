#include "connectors/azure/token.h"

#include "connectors/http/childprocess.h"
#include "connectors/http/httpclient.h"
#include "connectors/http/jsonparse.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <ctime>

namespace strata::azure {

using Kind = connectors::Error::Kind;
using nlohmann::json;
using std::chrono::system_clock;

namespace {

system_clock::time_point nowOf(const Clock &clock)
{
    return clock ? clock() : system_clock::now();
}

std::string trimmed(std::string text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
        text.pop_back();
    }
    std::size_t start = 0;
    while (start < text.size() && std::isspace(static_cast<unsigned char>(text[start]))) {
        ++start;
    }
    return text.substr(start);
}

std::string firstLine(const std::string &text)
{
    // Entra ID separates the description from its trace lines with CRLF.
    const std::string t = trimmed(text);
    return trimmed(t.substr(0, t.find_first_of("\r\n")));
}

std::string hostOf(const std::string &url)
{
    auto start = url.find("://");
    start = start == std::string::npos ? 0 : start + 3;
    const auto end = url.find_first_of("/?#", start);
    return url.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// Token lifetimes beyond this are not meant literally; they would also overflow the clock's
// nanoseconds (and a double beyond int64 is undefined to convert).
constexpr std::int64_t kMaxTokenSeconds = std::int64_t(10) * 365 * 24 * 3600;

// A number or a numeric string ("3599"): the v1 endpoint and ADFS send expires_in as text. Values beyond
// +-kMaxTokenSeconds count as absent.
std::int64_t secondsField(const json &body, const char *key, std::int64_t fallback)
{
    const auto it = body.find(key);
    if (it == body.end()) {
        return fallback;
    }
    double seconds = 0;
    if (it->is_number()) {
        seconds = it->get<double>();
    } else if (it->is_string()) {
        try {
            seconds = static_cast<double>(std::stoll(it->get<std::string>()));
        } catch (const std::exception &) {
            return fallback;
        }
    } else {
        return fallback;
    }
    if (!(seconds >= -static_cast<double>(kMaxTokenSeconds) && seconds <= static_cast<double>(kMaxTokenSeconds))) {
        return fallback;
    }
    return static_cast<std::int64_t>(seconds);
}

} // namespace

ClientSecretCredential::ClientSecretCredential(http::IHttpTransport &transport, ClientSecretOptions options)
    : m_transport(transport)
    , m_options(std::move(options))
{}

std::string ClientSecretCredential::tokenEndpoint() const
{
    std::string authority =
        m_options.authorityUrl.empty() ? "https://login.microsoftonline.com" : m_options.authorityUrl;
    while (!authority.empty() && authority.back() == '/') {
        authority.pop_back();
    }
    const bool adfsAuthority = authority.size() >= 5 && authority.compare(authority.size() - 5, 5, "/adfs") == 0;
    if (m_options.tenantId.empty() || m_options.tenantId == "adfs" || adfsAuthority) {
        return authority + "/oauth2/v2.0/token";
    }
    return authority + "/" + http::urlEncode(m_options.tenantId) + "/oauth2/v2.0/token";
}

int ClientSecretCredential::requestCount() const
{
    std::lock_guard lock(m_mutex);
    return m_requests;
}

connectors::Result<AccessToken>
ClientSecretCredential::token(const std::string &scope, const http::CancelToken &cancel, bool forceRefresh)
{
    // One request at a time: concurrent pollers asking at expiry share the one new token.
    std::lock_guard lock(m_mutex);
    const auto now = nowOf(m_options.now);
    if (!forceRefresh) {
        if (auto it = m_cache.find(scope); it != m_cache.end() && now < it->second.refreshAt) {
            return it->second.token;
        }
    }
    const std::string endpoint = tokenEndpoint();
    const std::string host = hostOf(endpoint);
    http::HttpRequest request;
    request.method = http::Method::Post;
    request.url = endpoint;
    request.idempotent = true; // no side effects: safe to retry
    request.headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
    request.headers.emplace_back("Accept", "application/json");
    request.body = "client_id=" + http::urlEncode(m_options.clientId)
                   + "&client_secret=" + http::urlEncode(m_options.clientSecret)
                   + "&grant_type=client_credentials&scope=" + http::urlEncode(scope);
    ++m_requests;
    const http::Sleeper sleeper = m_options.sleeper ? m_options.sleeper : http::realSleeper();
    auto response = http::sendWithRetry(m_transport, request, m_options.retry, cancel, sleeper);
    if (!response) {
        connectors::Error error = std::move(response).error();
        if (error.kind != Kind::Cancelled) {
            error.message = "Cannot get a token from Microsoft Entra ID at " + host + ": " + error.message;
        }
        return connectors::fail(std::move(error));
    }
    json body;
    body = http::parseJsonBounded(response->body);
    if (body.is_discarded()) {
        body = json();
    }
    if (!response->isSuccess()) {
        const int status = response->status;
        if (body.is_object() && body.contains("error") && body["error"].is_string()) {
            const std::string code = body["error"].get<std::string>();
            // A description of another type counts as absent (json::value() would throw).
            std::string description;
            if (const auto d = body.find("error_description"); d != body.end() && d->is_string()) {
                description = d->get<std::string>();
            }
            description = firstLine(description);
            const bool rejected = status == 400 || status == 401 || status == 403;
            connectors::Error error = connectors::Error::make(
                rejected ? Kind::Auth : Kind::Http,
                rejected ? "Microsoft Entra ID rejected the client credentials: "
                               + (description.empty() ? code : description)
                         : "Microsoft Entra ID at " + host + " answered HTTP " + std::to_string(status) + ": "
                               + (description.empty() ? code : description),
                status);
            error.apiCode = code;
            error.retryAfterSeconds = http::parseRetryAfter(response->header("Retry-After"));
            return connectors::fail(std::move(error));
        }
        connectors::Error error =
            connectors::Error::make(status == 401 || status == 403 ? Kind::Auth : Kind::Http,
                                    "The token endpoint at " + host + " answered HTTP " + std::to_string(status),
                                    status);
        error.retryAfterSeconds = http::parseRetryAfter(response->header("Retry-After"));
        return connectors::fail(std::move(error));
    }
    if (!body.is_object() || !body.contains("access_token") || !body["access_token"].is_string()
        || body["access_token"].get<std::string>().empty()) {
        return connectors::fail(connectors::Error::make(
            Kind::Parse, "The token endpoint at " + host + " sent an answer without access_token", response->status));
    }
    Cached cached;
    cached.token.token = body["access_token"].get<std::string>();
    const std::int64_t expiresIn = secondsField(body, "expires_in", 3600);
    cached.token.expiresOn = now + std::chrono::seconds{expiresIn};
    cached.refreshAt = cached.token.expiresOn - m_options.refreshMargin;
    const std::int64_t refreshIn = secondsField(body, "refresh_in", -1);
    if (refreshIn > 0) {
        cached.refreshAt = std::min(cached.refreshAt, now + std::chrono::seconds{refreshIn});
    }
    m_cache[scope] = cached;
    return cached.token;
}

// ---- Azure CLI ---------------------------------------------------------------------------------

connectors::Result<ProcessOutput>
runProcess(const std::vector<std::string> &argv, std::chrono::milliseconds timeout, const http::CancelToken &cancel)
{
    if (argv.empty()) {
        return connectors::fail(connectors::Error::make(Kind::Process, "No program to run"));
    }
    http::ChildProcess run = http::runChildProcess(argv, nullptr, timeout, cancel);
    switch (run.end) {
    case http::ChildProcess::End::NotStarted: {
        connectors::Error error =
            connectors::Error::make(Kind::Process, argv[0] + " cannot be started: " + std::strerror(run.startErrno));
        error.apiCode = run.startErrno == ENOENT ? "ENOENT" : "";
        return connectors::fail(std::move(error));
    }
    case http::ChildProcess::End::Cancelled:
        return connectors::fail(connectors::Error::make(Kind::Cancelled, argv[0] + " was cancelled"));
    case http::ChildProcess::End::TimedOut:
        return connectors::fail(connectors::Error::make(
            Kind::Timeout,
            argv[0] + " did not finish within "
                + std::to_string(std::chrono::duration_cast<std::chrono::seconds>(timeout).count()) + " s"));
    case http::ChildProcess::End::Exited:
    case http::ChildProcess::End::Signalled:
        break;
    }
    return ProcessOutput{run.exitCode, std::move(run.stdoutText), std::move(run.stderrText)};
}

connectors::Result<AccessToken> parseCliToken(const std::string &text)
{
    json body;
    body = http::parseJsonBounded(text);
    if (body.is_discarded()) {
        return connectors::fail(connectors::Error::make(Kind::Parse, "az account get-access-token printed no JSON"));
    }
    if (!body.is_object() || !body.contains("accessToken") || !body["accessToken"].is_string()) {
        return connectors::fail(
            connectors::Error::make(Kind::Parse, "az account get-access-token printed no accessToken"));
    }
    AccessToken token;
    token.token = body["accessToken"].get<std::string>();
    if (const auto it = body.find("expires_on"); it != body.end() && (it->is_number() || it->is_string())) {
        // Up to 2200-01-01: a later one is not meant literally and would overflow the clock's
        // nanoseconds (which end in 2262); a double beyond int64 is also undefined to convert.
        constexpr std::int64_t maxEpoch = 7258118400;
        std::int64_t epoch = 0;
        if (it->is_number()) {
            const double seconds = it->get<double>();
            epoch = seconds > 0 && seconds <= static_cast<double>(maxEpoch) ? static_cast<std::int64_t>(seconds) : 0;
        } else {
            try {
                epoch = std::stoll(it->get<std::string>());
            } catch (const std::exception &) {
                epoch = 0;
            }
        }
        if (epoch > 0 && epoch <= maxEpoch) {
            token.expiresOn = system_clock::from_time_t(static_cast<std::time_t>(epoch));
            return token;
        }
    }
    if (const auto it = body.find("expiresOn"); it != body.end() && it->is_string()) {
        // Older az prints local time without a zone: "2026-11-22 10:00:00.000000".
        std::tm tm{};
        const std::string value = it->get<std::string>();
        if (::strptime(value.c_str(), "%Y-%m-%d %H:%M:%S", &tm) != nullptr) {
            tm.tm_isdst = -1;
            const std::time_t t = std::mktime(&tm);
            if (t != static_cast<std::time_t>(-1)) {
                token.expiresOn = system_clock::from_time_t(t);
                return token;
            }
        }
    }
    return connectors::fail(connectors::Error::make(Kind::Parse, "az account get-access-token printed no expiry time"));
}

AzureCliCredential::AzureCliCredential(AzureCliOptions options)
    : m_options(std::move(options))
{}

int AzureCliCredential::runCount() const
{
    std::lock_guard lock(m_mutex);
    return m_runs;
}

connectors::Result<AccessToken>
AzureCliCredential::token(const std::string &scope, const http::CancelToken &cancel, bool forceRefresh)
{
    std::lock_guard lock(m_mutex);
    const auto now = nowOf(m_options.now);
    if (!forceRefresh) {
        if (auto it = m_cache.find(scope);
            it != m_cache.end() && now + m_options.refreshMargin < it->second.expiresOn) {
            return it->second;
        }
    }
    const std::string az = m_options.azPath.empty() ? "az" : m_options.azPath;
    std::vector<std::string> argv{az, "account", "get-access-token", "--scope", scope, "-o", "json"};
    if (!m_options.tenantId.empty()) {
        argv.insert(argv.end(), {"--tenant", m_options.tenantId});
    }
    ++m_runs;
    const ProcessRunner &runner = m_options.runner;
    auto output = runner ? runner(argv, m_options.timeout, cancel) : runProcess(argv, m_options.timeout, cancel);
    if (!output) {
        connectors::Error error = std::move(output).error();
        if (error.kind == Kind::Cancelled) {
            return connectors::fail(std::move(error));
        }
        if (error.kind == Kind::Process) {
            connectors::Error auth = connectors::Error::make(
                Kind::Auth,
                "Azure CLI (" + az + ") was not found or cannot be started; install azure-cli and run az login ("
                    + error.message + ")");
            return connectors::fail(std::move(auth));
        }
        error.kind = Kind::Auth;
        error.message = "Azure CLI: " + error.message;
        return connectors::fail(std::move(error));
    }
    if (output->exitCode != 0) {
        const std::string line = firstLine(output->stderrText);
        return connectors::fail(connectors::Error::make(Kind::Auth,
                                                        "Azure CLI could not get a token (exit status "
                                                            + std::to_string(output->exitCode) + ")"
                                                            + (line.empty() ? std::string() : ": " + line)));
    }
    auto token = parseCliToken(output->stdoutText);
    if (!token) {
        return token;
    }
    m_cache[scope] = *token;
    return token;
}

} // namespace strata::azure
