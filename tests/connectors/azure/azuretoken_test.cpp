// ClientSecretCredential and AzureCliCredential: token endpoint requests, caching, errors.
#include "tests/connectors/azure/azuretestsupport.h"

#include <gtest/gtest.h>

#include <atomic>

using namespace strata;
using namespace strata::azure;
using namespace strata::azure::test;
using http::CancelToken;
using http::CurlTransport;
using http::test::RecordingSleeper;
using http::test::SeenRequests;
using nlohmann::json;
using sim::Request;
using sim::Responder;
using sim::Response;
using testsupport::LoopbackServer;
using Kind = connectors::Error::Kind;

namespace {

const std::string kTenant = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const std::string kSecret = "s3cr3t~value";
const std::string kScope = "https://management.azure.com/.default";

ClientSecretOptions secretOptions(const std::string &authority, RecordingSleeper &sleeper)
{
    ClientSecretOptions options;
    options.authorityUrl = authority;
    options.tenantId = kTenant;
    options.clientId = "app-1";
    options.clientSecret = kSecret;
    options.retry = fastRetry(2);
    options.sleeper = sleeper.sleeper();
    return options;
}

json tokenBody(const std::string &token, int expiresIn, int refreshIn = -1)
{
    json body = {
        {"token_type", "Bearer"}, {"expires_in", expiresIn}, {"ext_expires_in", expiresIn}, {"access_token", token}};
    if (refreshIn > 0) {
        body["refresh_in"] = refreshIn;
    }
    return body;
}

} // namespace

TEST(ClientSecretCredential, PostsFormEncodedClientCredentialsAndParsesToken)
{
    SeenRequests seen;
    LoopbackServer server([&seen](const Request &request, const Responder &responder) {
        seen.add(request);
        responder.send(Response::json(200, toBytes(tokenBody("eyJ.token.1", 3599))));
    });
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    const auto start = std::chrono::system_clock::now();
    ClientSecretCredential credential(transport, secretOptions(server.url(), sleeper));

    const auto token = credential.token(kScope, CancelToken{});

    ASSERT_TRUE(token) << token.error().message;
    EXPECT_EQ(token->token, "eyJ.token.1");
    EXPECT_GE(token->expiresOn, start + std::chrono::seconds{3599});
    EXPECT_LE(token->expiresOn, std::chrono::system_clock::now() + std::chrono::seconds{3600});
    const Request request = seen.last();
    EXPECT_EQ(request.method, QByteArray("POST"));
    EXPECT_EQ(path(request), "/" + kTenant + "/oauth2/v2.0/token");
    EXPECT_EQ(request.header("content-type"), QByteArray("application/x-www-form-urlencoded"));
    const QUrlQuery form(QString::fromUtf8(request.body));
    EXPECT_EQ(form.queryItemValue(QStringLiteral("client_id")).toStdString(), "app-1");
    EXPECT_EQ(form.queryItemValue(QStringLiteral("client_secret"), QUrl::FullyDecoded).toStdString(), kSecret);
    EXPECT_EQ(form.queryItemValue(QStringLiteral("grant_type")).toStdString(), "client_credentials");
    EXPECT_EQ(form.queryItemValue(QStringLiteral("scope"), QUrl::FullyDecoded).toStdString(), kScope);
    EXPECT_EQ(credential.tokenEndpoint(), server.url("/" + kTenant + "/oauth2/v2.0/token"));
}

TEST(ClientSecretCredential, AdfsAuthority_HasNoTenantSegment)
{
    RecordingSleeper sleeper;
    CurlTransport transport(fastTransport());
    auto options = secretOptions("https://adfs.contoso.local/adfs/", sleeper);
    EXPECT_EQ(ClientSecretCredential(transport, options).tokenEndpoint(),
              "https://adfs.contoso.local/adfs/oauth2/v2.0/token");
    options.authorityUrl = "https://login.azurestack.local";
    options.tenantId = "adfs";
    EXPECT_EQ(ClientSecretCredential(transport, options).tokenEndpoint(),
              "https://login.azurestack.local/oauth2/v2.0/token");
    options.tenantId.clear();
    EXPECT_EQ(ClientSecretCredential(transport, options).tokenEndpoint(),
              "https://login.azurestack.local/oauth2/v2.0/token");
    options.tenantId = kTenant;
    options.authorityUrl.clear();
    EXPECT_EQ(ClientSecretCredential(transport, options).tokenEndpoint(),
              "https://login.microsoftonline.com/" + kTenant + "/oauth2/v2.0/token");
}

TEST(ClientSecretCredential, TokenEndpointDown_TransportErrorNamesHostNotSecret)
{
    std::string deadUrl;
    {
        LoopbackServer server([](const Request &, const Responder &responder) {
            responder.send(Response::json(500, "{}"));
        });
        deadUrl = server.url();
    } // the port is closed now: connection refused
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    ClientSecretCredential credential(transport, secretOptions(deadUrl, sleeper));

    const auto token = credential.token(kScope, CancelToken{});

    ASSERT_FALSE(token);
    EXPECT_TRUE(token.error().kind == Kind::Transport || token.error().kind == Kind::Timeout)
        << connectors::Error::kindName(token.error().kind);
    const std::string host = deadUrl.substr(deadUrl.find("://") + 3);
    EXPECT_NE(token.error().message.find("Cannot get a token from Microsoft Entra ID at " + host), std::string::npos)
        << token.error().message;
    EXPECT_EQ(token.error().message.find(kSecret), std::string::npos);
    EXPECT_EQ(sleeper.delays().size(), 1u); // retried once (maxAttempts 2): no side effects
}

TEST(ClientSecretCredential, SecretRejected_AuthErrorWithAadstsDescription)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        responder.send(Response::json(
            401,
            toBytes({{"error", "invalid_client"},
                     {"error_description",
                      "AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request "
                      "is the client secret value, not the client secret ID.\r\nTrace ID: 1\r\nCorrelation ID: 2"},
                     {"error_codes", {7000215}}})));
    });
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    ClientSecretCredential credential(transport, secretOptions(server.url(), sleeper));

    const auto token = credential.token(kScope, CancelToken{});

    ASSERT_FALSE(token);
    EXPECT_EQ(token.error().kind, Kind::Auth);
    EXPECT_EQ(token.error().httpStatus, 401);
    EXPECT_EQ(token.error().apiCode, "invalid_client");
    EXPECT_EQ(token.error().message,
              "Microsoft Entra ID rejected the client credentials: AADSTS7000215: Invalid client secret provided. "
              "Ensure the secret being sent in the request is the client secret value, not the client secret ID.");
    EXPECT_EQ(token.error().message.find(kSecret), std::string::npos);
    EXPECT_TRUE(sleeper.delays().empty()); // a rejection is not retried
}

TEST(ClientSecretCredential, TokenWithoutAccessToken_ParseError)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        responder.send(Response::json(200, R"({"token_type":"Bearer","expires_in":3599})"));
    });
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    ClientSecretCredential credential(transport, secretOptions(server.url(), sleeper));

    const auto token = credential.token(kScope, CancelToken{});

    ASSERT_FALSE(token);
    EXPECT_EQ(token.error().kind, Kind::Parse);
}

TEST(ClientSecretCredential, CachedPerScope_RefreshedFiveMinutesBeforeExpiry)
{
    std::atomic<int> issued{0};
    LoopbackServer server([&issued](const Request &, const Responder &responder) {
        const int n = ++issued;
        responder.send(Response::json(200, toBytes(tokenBody("tok-" + std::to_string(n), 3600))));
    });
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    auto now = std::chrono::system_clock::time_point{std::chrono::seconds{1'800'000'000}};
    auto options = secretOptions(server.url(), sleeper);
    options.now = [&now] {
        return now;
    };
    ClientSecretCredential credential(transport, options);

    ASSERT_EQ(credential.token(kScope, CancelToken{})->token, "tok-1");
    now += std::chrono::seconds{3600 - 301};
    EXPECT_EQ(credential.token(kScope, CancelToken{})->token, "tok-1"); // 301 s left: still cached
    EXPECT_EQ(credential.requestCount(), 1);
    now += std::chrono::seconds{2}; // 299 s left: within the 5-minute margin
    EXPECT_EQ(credential.token(kScope, CancelToken{})->token, "tok-2");
    EXPECT_EQ(credential.requestCount(), 2);
    EXPECT_EQ(credential.token("https://other/.default", CancelToken{})->token, "tok-3"); // per scope
    EXPECT_EQ(credential.token(kScope, CancelToken{}, true)->token, "tok-4");             // forced
    EXPECT_EQ(issued.load(), 4);
}

// Found by tests/fuzz/azure_dto: an expires_in beyond int64 (1e300) was converted with undefined
// behaviour, and a huge one overflowed the clock, so the token counted as expired at once.
TEST(ClientSecretCredential, AbsurdExpiresIn_CountsAsAbsent)
{
    for (const char *expiresIn : {"1e300", "\"99999999999999999\"", "-1e300"}) {
        LoopbackServer server([expiresIn](const Request &, const Responder &responder) {
            responder.send(Response::json(
                200, QByteArray(R"({"token_type":"Bearer","access_token":"tok","expires_in":)") + expiresIn + "}"));
        });
        CurlTransport transport(fastTransport());
        RecordingSleeper sleeper;
        auto now = std::chrono::system_clock::time_point{std::chrono::seconds{1'800'000'000}};
        auto options = secretOptions(server.url(), sleeper);
        options.now = [&now] {
            return now;
        };
        ClientSecretCredential credential(transport, options);

        const auto token = credential.token(kScope, CancelToken{});
        ASSERT_TRUE(token) << expiresIn;
        EXPECT_EQ(token->expiresOn, now + std::chrono::seconds{3600}) << expiresIn;
        now += std::chrono::seconds{3000};
        EXPECT_TRUE(credential.token(kScope, CancelToken{})) << expiresIn;
        EXPECT_EQ(credential.requestCount(), 1) << expiresIn << ": still cached as if valid for an hour";
    }
}

TEST(ClientSecretCredential, RefreshInShortensTheCache)
{
    std::atomic<int> issued{0};
    LoopbackServer server([&issued](const Request &, const Responder &responder) {
        const int n = ++issued;
        responder.send(Response::json(200, toBytes(tokenBody("tok-" + std::to_string(n), 86399, 43199))));
    });
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    auto now = std::chrono::system_clock::time_point{std::chrono::seconds{1'800'000'000}};
    auto options = secretOptions(server.url(), sleeper);
    options.now = [&now] {
        return now;
    };
    ClientSecretCredential credential(transport, options);

    ASSERT_EQ(credential.token(kScope, CancelToken{})->token, "tok-1");
    now += std::chrono::seconds{43198};
    EXPECT_EQ(credential.token(kScope, CancelToken{})->token, "tok-1");
    now += std::chrono::seconds{2};
    EXPECT_EQ(credential.token(kScope, CancelToken{})->token, "tok-2");
}

// Found by tests/fuzz/azure_dto: an error_description that was not a string threw
// json::type_error out of token() and ended the process.
TEST(ClientSecretCredential, ErrorDescriptionOfAnotherType_AuthErrorNamesTheCode)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        responder.send(Response::json(401, R"({"error":"invalid_client","error_description":5})"));
    });
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    ClientSecretCredential credential(transport, secretOptions(server.url(), sleeper));

    const auto token = credential.token(kScope, CancelToken{});

    ASSERT_FALSE(token);
    EXPECT_EQ(token.error().kind, Kind::Auth);
    EXPECT_EQ(token.error().message, "Microsoft Entra ID rejected the client credentials: invalid_client");
}

// ---- Azure CLI --------------------------------------------------------------------------------

TEST(AzureCliCredential, RunsAzWithScopeAndParsesEpochExpiry)
{
    std::vector<std::string> argvSeen;
    const std::int64_t expiresOn = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now()) + 3600;
    AzureCliOptions options;
    options.azPath = "/opt/az/bin/az";
    options.runner = [&argvSeen,
                      expiresOn](const std::vector<std::string> &argv, std::chrono::milliseconds, const CancelToken &) {
        argvSeen = argv;
        const json out = {{"accessToken", "cli-token"},
                          {"expiresOn", "2020-01-01 10:00:00.000000"}, // ignored: expires_on wins
                          {"expires_on", expiresOn},
                          {"subscription", "s"},
                          {"tenant", "t"},
                          {"tokenType", "Bearer"}};
        return connectors::Result<ProcessOutput>(ProcessOutput{0, out.dump(), ""});
    };
    AzureCliCredential credential(options);

    const auto token = credential.token(kScope, CancelToken{});

    ASSERT_TRUE(token) << token.error().message;
    EXPECT_EQ(token->token, "cli-token");
    EXPECT_EQ(std::chrono::system_clock::to_time_t(token->expiresOn), expiresOn);
    const std::vector<std::string> expected{
        "/opt/az/bin/az", "account", "get-access-token", "--scope", kScope, "-o", "json"};
    EXPECT_EQ(argvSeen, expected);
    ASSERT_TRUE(credential.token(kScope, CancelToken{})); // cached: far from expiry
    EXPECT_EQ(credential.runCount(), 1);
}

TEST(AzureCliCredential, OldCliLocalExpiresOn)
{
    const auto token = parseCliToken(R"({"accessToken":"a","expiresOn":"2031-01-02 03:04:05.000000"})");
    ASSERT_TRUE(token) << token.error().message;
    std::tm tm{};
    tm.tm_year = 131;
    tm.tm_mon = 0;
    tm.tm_mday = 2;
    tm.tm_hour = 3;
    tm.tm_min = 4;
    tm.tm_sec = 5;
    tm.tm_isdst = -1;
    EXPECT_EQ(std::chrono::system_clock::to_time_t(token->expiresOn), std::mktime(&tm));
    // Found by tests/fuzz/azure_dto: expiries beyond the clock's range (2262) overflowed it, and
    // 1e300 was converted to an integer with undefined behaviour; after 2200 they are no expiry.
    EXPECT_FALSE(parseCliToken(R"({"accessToken":"a","expires_on":9000000000000000000})"));
    EXPECT_FALSE(parseCliToken(R"({"accessToken":"a","expires_on":"9000000000000000000"})"));
    EXPECT_FALSE(parseCliToken(R"({"accessToken":"a","expires_on":1e300})"));
    EXPECT_FALSE(parseCliToken(R"({"accessToken":"a","expires_on":7258118401})"));
    EXPECT_TRUE(parseCliToken(R"({"accessToken":"a","expires_on":7258118400})"));
    EXPECT_FALSE(parseCliToken(R"({"expires_on":1})"));
    EXPECT_FALSE(parseCliToken(R"({"accessToken":"a"})"));
    EXPECT_FALSE(parseCliToken("not json"));
}

TEST(AzureCliCredential, NonZeroExit_AuthErrorWithFirstStderrLine)
{
    AzureCliOptions options;
    options.runner = [](const std::vector<std::string> &, std::chrono::milliseconds, const CancelToken &) {
        return connectors::Result<ProcessOutput>(
            ProcessOutput{1, "", "ERROR: Please run 'az login' to setup account.\nmore detail\n"});
    };
    AzureCliCredential credential(options);

    const auto token = credential.token(kScope, CancelToken{});

    ASSERT_FALSE(token);
    EXPECT_EQ(token.error().kind, Kind::Auth);
    EXPECT_EQ(token.error().message,
              "Azure CLI could not get a token (exit status 1): ERROR: Please run 'az login' to setup account.");
}

TEST(AzureCliCredential, AzMissing_AuthErrorSaysNotFound)
{
    AzureCliOptions options;
    options.azPath = "/nonexistent/strata-test/az";
    AzureCliCredential credential(options); // the real runner

    const auto token = credential.token(kScope, CancelToken{});

    ASSERT_FALSE(token);
    EXPECT_EQ(token.error().kind, Kind::Auth);
    EXPECT_NE(token.error().message.find("Azure CLI (/nonexistent/strata-test/az) was not found"), std::string::npos)
        << token.error().message;
}

TEST(AzureCliCredential, RunProcessOfAMissingProgram_IsAProcessErrorNotRetried)
{
    const auto output = runProcess({"/nonexistent/strata-test/az"}, 10s, CancelToken{});

    ASSERT_FALSE(output);
    EXPECT_EQ(output.error().kind, Kind::Process) << connectors::Error::kindName(output.error().kind);
    EXPECT_EQ(output.error().apiCode, "ENOENT");
    EXPECT_FALSE(output.error().retryable());
    EXPECT_STREQ(connectors::Error::kindName(output.error().kind), "process");
}

TEST(AzureCliCredential, RunProcessCapturesOutputAndExitStatus)
{
    const auto output = runProcess({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, 10s, CancelToken{});
    ASSERT_TRUE(output) << output.error().message;
    EXPECT_EQ(output->exitCode, 3);
    EXPECT_EQ(output->stdoutText, "out\n");
    EXPECT_EQ(output->stderrText, "err\n");
}
