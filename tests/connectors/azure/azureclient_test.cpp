// AzureClient ARM conventions against scripted sim::HttpServer handlers: api-version, bearer,
// paging, 401 refresh, 429, error bodies, malformed bodies, reads of every record type.
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

json listOf(const std::vector<json> &items, const std::string &nextLink = {})
{
    json body = {{"value", items}};
    if (!nextLink.empty()) {
        body["nextLink"] = nextLink;
    }
    return body;
}

} // namespace

TEST(AzureClient, Url_AddsApiVersionOnceAndKeepsAbsoluteUrls)
{
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions("https://arm.example/", sleeper));

    EXPECT_EQ(client.url("/subscriptions/s", "2025-06-01"),
              "https://arm.example/subscriptions/s?api-version=2025-06-01");
    EXPECT_EQ(client.url("/x?$top=5", "v1"), "https://arm.example/x?$top=5&api-version=v1");
    EXPECT_EQ(client.url("https://other/x?a=1&api-version=2024-01-01", "v1"),
              "https://other/x?a=1&api-version=2024-01-01");
    EXPECT_EQ(client.url("https://other/x?Api-Version=2024-01-01", "v1"), "https://other/x?Api-Version=2024-01-01");
    EXPECT_EQ(client.scope(), "https://arm.example/.default");

    AzureClientOptions publicCloud;
    publicCloud.subscriptionId = kSub;
    AzureClient armClient(transport, tokens, publicCloud);
    EXPECT_EQ(armClient.scope(), "https://management.azure.com/.default");
    EXPECT_EQ(armClient.url("/subscriptions", "2022-12-01"),
              "https://management.azure.com/subscriptions?api-version=2022-12-01");
}

TEST(AzureClient, ListAccounts_BearerApiVersionAndSubscriptionWidePath)
{
    SeenRequests seen;
    LoopbackServer server([&seen](const Request &request, const Responder &responder) {
        seen.add(request);
        responder.send(Response::json(200,
                                      toBytes(listOf({{{"id", kAccountId},
                                                       {"name", "account1"},
                                                       {"type", "Microsoft.NetApp/netAppAccounts"},
                                                       {"location", "eastus"},
                                                       {"properties", {{"provisioningState", "Succeeded"}}}}}))));
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto accounts = client.listAccounts();

    ASSERT_TRUE(accounts) << accounts.error().message;
    ASSERT_EQ(accounts->size(), 1u);
    EXPECT_EQ((*accounts)[0].id, kAccountId);
    EXPECT_EQ((*accounts)[0].name, "account1");
    EXPECT_EQ((*accounts)[0].location, "eastus");
    EXPECT_EQ((*accounts)[0].provisioningState, "Succeeded");
    const Request request = seen.last();
    EXPECT_EQ(path(request), "/subscriptions/" + kSub + "/providers/Microsoft.NetApp/netAppAccounts");
    EXPECT_EQ(query(request, "api-version"), "2025-06-01");
    EXPECT_EQ(request.header("authorization"), QByteArray("Bearer token-1"));
    EXPECT_EQ(tokens.scopes().front(), server.url() + "/.default");
}

TEST(AzureClient, ListVolumes_FollowsNextLinkOverThreePages)
{
    SeenRequests seen;
    LoopbackServer server([&seen](const Request &request, const Responder &responder) {
        seen.add(request);
        const std::string skip = query(request, "$skiptoken");
        const std::string base = origin(request) + path(request) + "?api-version=2025-06-01&$skiptoken=";
        if (skip.empty()) {
            responder.send(Response::json(
                200,
                toBytes(listOf({volumeJson(kPool1 + "/volumes/a"), volumeJson(kPool1 + "/volumes/b")}, base + "p2"))));
        } else if (skip == "p2") {
            responder.send(Response::json(200, toBytes(listOf({volumeJson(kPool1 + "/volumes/c")}, base + "p3"))));
        } else {
            responder.send(Response::json(200, toBytes(listOf({volumeJson(kPool1 + "/volumes/d")}))));
        }
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto volumes = client.listVolumes(kPool1);

    ASSERT_TRUE(volumes) << volumes.error().message;
    ASSERT_EQ(volumes->size(), 4u);
    EXPECT_EQ((*volumes)[3].id, kPool1 + "/volumes/d");
    const auto requests = seen.all();
    ASSERT_EQ(requests.size(), 3u);
    for (const auto &request : requests) {
        EXPECT_EQ(path(request), kPool1 + "/volumes");
        EXPECT_EQ(request.query.allQueryItemValues(QStringLiteral("api-version")).size(), 1); // never doubled
    }
    EXPECT_EQ(query(requests[1], "$skiptoken"), "p2");
    EXPECT_EQ(query(requests[2], "$skiptoken"), "p3");
}

TEST(AzureClient, ListAll_NextLinkPointingBack_Stops)
{
    std::atomic<int> calls{0};
    LoopbackServer server([&calls](const Request &request, const Responder &responder) {
        ++calls;
        const std::string self = origin(request) + path(request) + "?api-version=2025-06-01&$skiptoken=x";
        responder.send(Response::json(200, toBytes(listOf({json{{"n", calls.load()}}}, self))));
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto items = client.listAll("/subscriptions/" + kSub + "/things", "listing things");

    ASSERT_TRUE(items) << items.error().message;
    EXPECT_EQ(items->size(), 2u);
    EXPECT_EQ(calls.load(), 2);
}

TEST(AzureClient, ExpiredToken_RefreshesOnceAndRetries)
{
    // Real token endpoint and ARM on one server: the first token is "expired" for ARM.
    SeenRequests seen;
    std::atomic<int> issued{0};
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        seen.add(request);
        if (path(request).find("/oauth2/v2.0/token") != std::string::npos) {
            const int n = ++issued;
            responder.send(Response::json(
                200,
                toBytes(
                    {{"token_type", "Bearer"}, {"expires_in", 3599}, {"access_token", "jwt-" + std::to_string(n)}})));
            return;
        }
        if (request.header("authorization") == QByteArray("Bearer jwt-1")) {
            responder.send(Response::json(
                401,
                toBytes(armErrorBody("InvalidAuthenticationTokenExpired",
                                     "The access token expiry UTC time '1/1/2026 10:00:00 AM' is earlier than "
                                     "current UTC time '1/1/2026 10:05:00 AM'."))));
            return;
        }
        responder.send(Response::json(
            200,
            toBytes({{"subscriptionId", kSub}, {"displayName", "ai-lab"}, {"state", "Enabled"}, {"tenantId", "t"}})));
    });
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    ClientSecretOptions tokenOptions;
    tokenOptions.authorityUrl = server.url();
    tokenOptions.tenantId = "t";
    tokenOptions.clientId = "c";
    tokenOptions.clientSecret = "s";
    tokenOptions.sleeper = sleeper.sleeper();
    ClientSecretCredential credential(transport, tokenOptions);
    AzureClient client(transport, credential, clientOptions(server.url(), sleeper));

    const auto subscription = client.subscription();

    ASSERT_TRUE(subscription) << subscription.error().message;
    EXPECT_EQ(subscription->displayName, "ai-lab");
    EXPECT_EQ(subscription->state, "Enabled");
    EXPECT_EQ(issued.load(), 2);
    const auto requests = seen.all();
    ASSERT_EQ(requests.size(), 4u); // token, ARM (401), token, ARM
    EXPECT_EQ(requests[3].header("authorization"), QByteArray("Bearer jwt-2"));
    EXPECT_EQ(query(requests[3], "api-version"), "2022-12-01");
    // The next call uses the refreshed token from the cache.
    ASSERT_TRUE(client.subscription());
    EXPECT_EQ(issued.load(), 2);
}

TEST(AzureClient, Unauthorized_AfterRefresh_AuthErrorAndOnlyOneRetry)
{
    std::atomic<int> armCalls{0};
    LoopbackServer server([&armCalls](const Request &, const Responder &responder) {
        ++armCalls;
        responder.send(
            Response::json(401, toBytes(armErrorBody("InvalidAuthenticationToken", "The access token is invalid."))));
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto volume = client.volume(kVolumeId);

    ASSERT_FALSE(volume);
    EXPECT_EQ(volume.error().kind, Kind::Auth);
    EXPECT_EQ(volume.error().apiCode, "InvalidAuthenticationToken");
    EXPECT_EQ(volume.error().message, "reading volume volume1: The access token is invalid.");
    EXPECT_EQ(armCalls.load(), 2);
    EXPECT_EQ(tokens.forced(), 1);
}

TEST(AzureClient, TooManyRequestsOnGet_HonoursRetryAfterThenSucceeds)
{
    std::atomic<int> calls{0};
    LoopbackServer server([&calls](const Request &, const Responder &responder) {
        if (++calls <= 2) {
            responder.send(Response::json(429, toBytes(armErrorBody("TooManyRequests", "Slow down.")))
                               .withHeader("Retry-After", "7"));
            return;
        }
        responder.send(Response::json(200, toBytes(volumeJson(kVolumeId))));
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto volume = client.volume(kVolumeId);

    ASSERT_TRUE(volume) << volume.error().message;
    EXPECT_EQ(calls.load(), 3);
    const auto delays = sleeper.delays();
    ASSERT_EQ(delays.size(), 2u);
    EXPECT_GE(delays[0], 7000ms);
    EXPECT_GE(delays[1], 7000ms);
}

TEST(AzureClient, TooManyRequestsStorm_GivesUpWithRetryAfter)
{
    std::atomic<int> calls{0};
    LoopbackServer server([&calls](const Request &, const Responder &responder) {
        ++calls;
        responder.send(
            Response::json(429, toBytes(armErrorBody("TooManyRequests", "Slow down."))).withHeader("Retry-After", "9"));
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto pools = client.listPools(kAccountId);

    ASSERT_FALSE(pools);
    EXPECT_EQ(calls.load(), 3); // fastRetry(3)
    EXPECT_EQ(pools.error().httpStatus, 429);
    EXPECT_EQ(pools.error().apiCode, "TooManyRequests");
    EXPECT_EQ(pools.error().retryAfterSeconds, 9);
    EXPECT_TRUE(pools.error().retryable());
}

TEST(AzureClient, TooManyRequestsOnPost_NotRetried)
{
    SeenRequests seen;
    LoopbackServer server([&seen](const Request &request, const Responder &responder) {
        seen.add(request);
        responder.send(Response::json(429, toBytes(armErrorBody("TooManyRequests", "Too many writes.")))
                           .withHeader("Retry-After", "30"));
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto moved = client.poolChange(kVolumeId, kPool2);

    ASSERT_FALSE(moved);
    ASSERT_EQ(seen.all().size(), 1u);
    EXPECT_EQ(seen.last().method, QByteArray("POST"));
    EXPECT_EQ(moved.error().httpStatus, 429);
    EXPECT_EQ(moved.error().retryAfterSeconds, 30);
    EXPECT_FALSE(moved.error().outcomeUnknown); // ARM refused before acting
    EXPECT_TRUE(sleeper.delays().empty());
}

TEST(AzureClient, ArmErrorBodies_MapToKinds)
{
    http::HttpResponse notFound = http::HttpResponse::withStatus(
        404,
        R"({"error":{"code":"ResourceNotFound","message":"The Resource 'Microsoft.NetApp/netAppAccounts/a' under resource group 'rg' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix"}})",
        {{"x-ms-failure-cause", "gateway"}});
    connectors::Error error = armError(notFound, "reading volume v");
    EXPECT_EQ(error.kind, Kind::Api);
    EXPECT_EQ(error.apiCode, "ResourceNotFound");
    EXPECT_EQ(error.httpStatus, 404);
    EXPECT_EQ(error.message.rfind("reading volume v: The Resource 'Microsoft.NetApp/netAppAccounts/a'", 0), 0u);

    error = armError(
        http::HttpResponse::withStatus(
            400,
            R"({"error":{"code":"BadRequest","message":"Invalid pool size.","details":[{"code":"InvalidPoolSize","message":"Pool size must be a multiple of 1 TiB."}]}})"),
        "creating pool");
    EXPECT_EQ(error.kind, Kind::Api);
    EXPECT_EQ(error.apiCode, "BadRequest");
    EXPECT_EQ(error.message, "creating pool: Invalid pool size. (Pool size must be a multiple of 1 TiB.)");

    error = armError(http::HttpResponse::withStatus(404, ""), "reading volume v");
    EXPECT_EQ(error.kind, Kind::Http);
    EXPECT_EQ(error.apiCode, "NotFound");
    EXPECT_EQ(error.message, "reading volume v: HTTP status 404");

    error = armError(
        http::HttpResponse::withStatus(
            403,
            R"({"error":{"code":"AuthorizationFailed","message":"The client 'x' does not have authorization to perform action 'Microsoft.NetApp/netAppAccounts/read'."}})"),
        "listing NetApp accounts");
    EXPECT_EQ(error.kind, Kind::Auth);
    EXPECT_EQ(error.apiCode, "AuthorizationFailed");

    // Some providers send the error unwrapped.
    error = armError(http::HttpResponse::withStatus(409, R"({"code":"Conflict","message":"Busy."})"), "x");
    EXPECT_EQ(error.kind, Kind::Api);
    EXPECT_EQ(error.apiCode, "Conflict");
    EXPECT_EQ(error.message, "x: Busy.");

    error = armError(http::HttpResponse::withStatus(503, "<html>gateway</html>", {{"Retry-After", "12"}}), "x");
    EXPECT_EQ(error.kind, Kind::Http);
    EXPECT_EQ(error.retryAfterSeconds, 12);
}

TEST(AzureClient, VolumeGone_404ResourceNotFound)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        responder.send(Response::json(
            404,
            toBytes(armErrorBody("ResourceNotFound",
                                 "The Resource 'Microsoft.NetApp/netAppAccounts/account1/capacityPools/pool1/volumes/"
                                 "volume1' under resource group 'myRG' was not found."))));
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto volume = client.volume(kVolumeId);

    ASSERT_FALSE(volume);
    EXPECT_EQ(volume.error().kind, Kind::Api);
    EXPECT_EQ(volume.error().apiCode, "ResourceNotFound");
    EXPECT_TRUE(sleeper.delays().empty()); // a 404 is an answer, not retried
}

TEST(AzureClient, MalformedBodies_ParseErrorsNameWhatAndRecord)
{
    std::atomic<int> mode{0};
    LoopbackServer server([&mode](const Request &, const Responder &responder) {
        switch (mode.load()) {
        case 0: // truncated JSON on a 200
            responder.send(Response::json(200, R"({"value":[{"id":"/subscriptions/x","name":"a/p)"));
            break;
        case 1: { // a volume without id
            json volume = volumeJson(kVolumeId);
            volume.erase("id");
            responder.send(Response::json(200, toBytes(listOf({volumeJson(kPool1 + "/volumes/ok"), volume}))));
            break;
        }
        case 2: { // without fileSystemId
            json volume = volumeJson(kVolumeId);
            volume["properties"].erase("fileSystemId");
            responder.send(Response::json(200, toBytes(volume)));
            break;
        }
        case 3: { // wrong type
            json volume = volumeJson(kVolumeId);
            volume["properties"]["usageThreshold"] = "big";
            responder.send(Response::json(200, toBytes(volume)));
            break;
        }
        default: // value is not an array
            responder.send(Response::json(200, R"({"value":{"id":"x"}})"));
        }
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    auto list = client.listVolumes(kPool1);
    ASSERT_FALSE(list);
    EXPECT_EQ(list.error().kind, Kind::Parse);
    EXPECT_EQ(list.error().message.rfind("listing volumes of pool pool1: malformed JSON", 0), 0u)
        << list.error().message;

    mode = 1;
    list = client.listVolumes(kPool1);
    ASSERT_FALSE(list);
    EXPECT_EQ(list.error().kind, Kind::Parse);
    EXPECT_NE(list.error().message.find("record 2 (account1/pool1/volume1)"), std::string::npos)
        << list.error().message;
    EXPECT_EQ(list.error().message,
              "listing volumes of pool pool1: ARM sent no \"id\" field (record 2 (account1/pool1/volume1))");

    mode = 2;
    auto one = client.volume(kVolumeId);
    ASSERT_FALSE(one);
    EXPECT_EQ(one.error().kind, Kind::Parse);
    EXPECT_NE(one.error().message.find("properties.fileSystemId"), std::string::npos) << one.error().message;

    mode = 3;
    one = client.volume(kVolumeId);
    ASSERT_FALSE(one);
    EXPECT_EQ(one.error().kind, Kind::Parse);
    EXPECT_NE(one.error().message.find("properties.usageThreshold"), std::string::npos) << one.error().message;

    mode = 4;
    list = client.listVolumes(kPool1);
    ASSERT_FALSE(list);
    EXPECT_EQ(list.error().kind, Kind::Parse);
    EXPECT_NE(list.error().message.find("\"value\" is not an array"), std::string::npos);
}

TEST(AzureClient, TruncatedTransfer_TransportError)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        Response response = Response::json(200, toBytes(listOf({volumeJson(kVolumeId)})));
        response.fault = sim::Fault::Truncate;
        responder.send(response);
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    auto options = clientOptions(server.url(), sleeper);
    options.http.retry = fastRetry(1);
    AzureClient client(transport, tokens, options);

    const auto list = client.listVolumes(kPool1);

    ASSERT_FALSE(list);
    EXPECT_EQ(list.error().kind, Kind::Transport) << list.error().message;
}

TEST(AzureClient, Pools_VolumesSnapshots_ParseArmFields)
{
    LoopbackServer server([](const Request &request, const Responder &responder) {
        const std::string p = path(request);
        if (p == kAccountId + "/capacityPools") {
            responder.send(Response::json(200,
                                          toBytes(listOf({{{"id", kPool1},
                                                           {"name", "account1/pool1"},
                                                           {"type", "Microsoft.NetApp/netAppAccounts/capacityPools"},
                                                           {"location", "eastus"},
                                                           {"properties",
                                                            {{"provisioningState", "Succeeded"},
                                                             {"poolId", "9760acf5-4638-11e7-9bdb-020073ca7778"},
                                                             {"serviceLevel", "Premium"},
                                                             {"size", 4398046511104},
                                                             {"qosType", "Auto"},
                                                             {"totalThroughputMibps", 281.474},
                                                             {"utilizedThroughputMibps", 100.474}}}}}))));
        } else if (p == kVolumeId + "/snapshots") {
            responder.send(Response::json(200,
                                          toBytes(listOf({{{"id", kVolumeId + "/snapshots/snapshot1"},
                                                           {"name", "account1/pool1/volume1/snapshot1"},
                                                           {"location", "eastus"},
                                                           {"properties",
                                                            {{"snapshotId", "9760acf5-4638-11e7-9bdb-020073ca3333"},
                                                             {"created", "2017-08-15T13:23:33Z"},
                                                             {"provisioningState", "Succeeded"}}}}}))));
        } else {
            json volume = volumeJson(kVolumeId, "9760acf5-4638-11e7-9bdb-020073ca7778");
            volume["properties"]["actualThroughputMibps"] = nullptr; // null = absent
            responder.send(Response::json(200, toBytes(volume)));
        }
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto pools = client.listPools(kAccountId);
    ASSERT_TRUE(pools) << pools.error().message;
    ASSERT_EQ(pools->size(), 1u);
    const CapacityPool &pool = (*pools)[0];
    EXPECT_EQ(pool.name, "account1/pool1");
    EXPECT_EQ(pool.serviceLevel, "Premium");
    EXPECT_EQ(pool.sizeBytes, 4398046511104);
    EXPECT_EQ(pool.qosType, "Auto");
    EXPECT_DOUBLE_EQ(pool.totalThroughputMibps, 281.474);
    EXPECT_DOUBLE_EQ(pool.utilizedThroughputMibps, 100.474);
    EXPECT_EQ(pool.poolId, "9760acf5-4638-11e7-9bdb-020073ca7778");

    const auto volume = client.volume(kVolumeId);
    ASSERT_TRUE(volume) << volume.error().message;
    EXPECT_EQ(volume->fileSystemId, "9760acf5-4638-11e7-9bdb-020073ca7778");
    EXPECT_EQ(volume->name, "account1/pool1/volume1");
    EXPECT_EQ(volume->usageThresholdBytes, 107374182400);
    ASSERT_TRUE(volume->throughputMibps.has_value());
    EXPECT_DOUBLE_EQ(*volume->throughputMibps, 128.0);
    EXPECT_FALSE(volume->actualThroughputMibps.has_value());
    EXPECT_EQ(volume->protocolTypes, std::vector<std::string>{"NFSv3"});
    EXPECT_EQ(volume->mountIps, std::vector<std::string>{"10.0.1.4"});
    EXPECT_EQ(volume->creationToken, "volume1");

    const auto snapshots = client.listSnapshots(kVolumeId);
    ASSERT_TRUE(snapshots) << snapshots.error().message;
    ASSERT_EQ(snapshots->size(), 1u);
    EXPECT_EQ((*snapshots)[0].snapshotId, "9760acf5-4638-11e7-9bdb-020073ca3333");
    EXPECT_EQ((*snapshots)[0].created, "2017-08-15T13:23:33Z");
}

TEST(AzureClient, VolumeMetrics_Pt5mAverageQueryAndSeries)
{
    SeenRequests seen;
    LoopbackServer server([&seen](const Request &request, const Responder &responder) {
        seen.add(request);
        const auto metric = [](const std::string &name, const std::string &unit, json data) {
            return json{{"id", kVolumeId + "/providers/Microsoft.Insights/metrics/" + name},
                        {"type", "Microsoft.Insights/metrics"},
                        {"name", {{"value", name}, {"localizedValue", name}}},
                        {"unit", unit},
                        {"timeseries", {{{"metadatavalues", json::array()}, {"data", std::move(data)}}}},
                        {"errorCode", "Success"}};
        };
        json body = {
            {"cost", 0},
            {"timespan", "2026-01-01T00:00:00Z/2026-01-01T00:10:00Z"},
            {"interval", "PT5M"},
            {"namespace", "Microsoft.NetApp/netAppAccounts/capacityPools/volumes"},
            {"resourceregion", "eastus"},
            {"value",
             {metric("VolumeLogicalSize", "Bytes", {{{"timeStamp", "2026-01-01T00:00:00Z"}, {"average", 5e9}}}),
              metric("ReadThroughput",
                     "BytesPerSecond",
                     {{{"timeStamp", "2026-01-01T00:00:00Z"}, {"average", 16252928.0}},
                      {{"timeStamp", "2026-01-01T00:05:00Z"}}})}}};
        responder.send(Response::json(200, toBytes(body)));
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));
    const auto from = std::chrono::system_clock::from_time_t(1767225600); // 2026-01-01T00:00:00Z

    const auto series = client.volumeMetrics(kVolumeId, from, from + 10min);

    ASSERT_TRUE(series) << series.error().message;
    ASSERT_EQ(series->size(), 2u);
    EXPECT_EQ((*series)[0].name, "ReadThroughput"); // requested order
    EXPECT_EQ((*series)[0].unit, "BytesPerSecond");
    ASSERT_EQ((*series)[0].points.size(), 2u);
    EXPECT_DOUBLE_EQ((*series)[0].points[0].average.value(), 16252928.0);
    EXPECT_FALSE((*series)[0].points[1].average.has_value());
    EXPECT_EQ((*series)[1].name, "VolumeLogicalSize");
    const Request request = seen.last();
    EXPECT_EQ(path(request), kVolumeId + "/providers/Microsoft.Insights/metrics");
    EXPECT_EQ(query(request, "api-version"), "2023-10-01");
    EXPECT_EQ(query(request, "interval"), "PT5M");
    EXPECT_EQ(query(request, "aggregation"), "Average");
    EXPECT_EQ(query(request, "timespan"), "2026-01-01T00:00:00Z/2026-01-01T00:10:00Z");
    EXPECT_EQ(query(request, "metricnames"),
              "ReadThroughput,WriteThroughput,ReadIops,WriteIops,AverageReadLatency,AverageWriteLatency,"
              "VolumeLogicalSize");
}

// Found by fuzzing (tests/fuzz/azure_dto): the metric series were copied out of the answer, and a
// json copy recurses once per nesting level: a member nested 500,000 deep overflowed the stack.
// Such an answer is now refused while it is parsed, as a parse error of this source.
TEST(AzureClient, VolumeMetrics_DeeplyNestedMemberIsAParseErrorNotAStackOverflow)
{
    constexpr std::size_t levels = 500'000;
    const QByteArray body = QByteArray(R"({"value":[{"name":{"value":"ReadIops"},"unit":"CountPerSecond","x":)")
                            + QByteArray(levels, '[') + QByteArray(levels, ']') + "}]}";
    LoopbackServer server([body](const Request &, const Responder &responder) {
        responder.send(Response::json(200, body));
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));
    const auto from = std::chrono::system_clock::from_time_t(1767225600);

    const auto series = client.volumeMetrics(kVolumeId, from, from + 10min);

    ASSERT_FALSE(series);
    EXPECT_EQ(series.error().kind, connectors::Error::Kind::Parse);
    EXPECT_EQ(series.error().message,
              "reading Azure Monitor metrics of volume volume1: JSON nested deeper than 256 levels");
}

TEST(AzureClient, ManagedClustersAndUserKubeconfig)
{
    const std::string clusterId =
        "/subscriptions/" + kSub
        + "/resourceGroups/ai-lab-rg/providers/Microsoft.ContainerService/managedClusters/aks-gpu";
    const std::string yaml = "apiVersion: v1\nkind: Config\nclusters:\n- name: aks-gpu\n";
    SeenRequests seen;
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        seen.add(request);
        if (request.method == "POST") {
            responder.send(
                Response::json(200,
                               toBytes({{"kubeconfigs",
                                         {{{"name", "clusterUser"},
                                           {"value", QByteArray::fromStdString(yaml).toBase64().toStdString()}}}}})));
            return;
        }
        responder.send(Response::json(
            200,
            toBytes(listOf(
                {{{"id", clusterId},
                  {"name", "aks-gpu"},
                  {"location", "eastus"},
                  {"properties",
                   {{"kubernetesVersion", "1.33.2"},
                    {"fqdn", "aks-gpu-1234.hcp.eastus.azmk8s.io"},
                    {"provisioningState", "Succeeded"},
                    {"powerState", {{"code", "Running"}}},
                    {"agentPoolProfiles",
                     {{{"name", "systempool"}, {"count", 1}, {"vmSize", "Standard_D4s_v5"}, {"mode", "System"}},
                      {{"name", "gpupool"}, {"count", 3}, {"vmSize", "Standard_NC6s_v3"}, {"mode", "User"}}}}}}}}))));
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto clusters = client.listManagedClusters();
    ASSERT_TRUE(clusters) << clusters.error().message;
    ASSERT_EQ(clusters->size(), 1u);
    const ManagedCluster &cluster = (*clusters)[0];
    EXPECT_EQ(cluster.kubernetesVersion, "1.33.2");
    EXPECT_EQ(cluster.powerState, "Running");
    ASSERT_EQ(cluster.agentPools.size(), 2u);
    EXPECT_EQ(cluster.agentPools[1].name, "gpupool");
    EXPECT_EQ(cluster.agentPools[1].count, 3);
    EXPECT_EQ(cluster.agentPools[1].vmSize, "Standard_NC6s_v3");
    EXPECT_EQ(cluster.agentPools[1].mode, "User");
    EXPECT_EQ(path(seen.last()), "/subscriptions/" + kSub + "/providers/Microsoft.ContainerService/managedClusters");
    EXPECT_EQ(query(seen.last(), "api-version"), "2025-07-01");

    const auto kubeconfig = client.clusterUserKubeconfig(clusterId);
    ASSERT_TRUE(kubeconfig) << kubeconfig.error().message;
    EXPECT_EQ(*kubeconfig, yaml);
    EXPECT_EQ(path(seen.last()), clusterId + "/listClusterUserCredential");
    EXPECT_EQ(seen.last().method, QByteArray("POST"));
}

TEST(AzureClient, KubeconfigMissingOrNotBase64_ParseError)
{
    std::atomic<int> mode{0};
    LoopbackServer server([&mode](const Request &, const Responder &responder) {
        responder.send(Response::json(200,
                                      mode == 0 ? QByteArray(R"({"kubeconfigs":[]})")
                                                : QByteArray(R"({"kubeconfigs":[{"name":"u","value":"@@@"}]})")));
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    auto kubeconfig = client.clusterUserKubeconfig("/subscriptions/s/resourceGroups/r/providers/x/managedClusters/c");
    ASSERT_FALSE(kubeconfig);
    EXPECT_EQ(kubeconfig.error().kind, Kind::Parse);
    mode = 1;
    kubeconfig = client.clusterUserKubeconfig("/subscriptions/s/resourceGroups/r/providers/x/managedClusters/c");
    ASSERT_FALSE(kubeconfig);
    EXPECT_NE(kubeconfig.error().message.find("not base64"), std::string::npos);
}

TEST(AzureClient, Subscriptions_ListAndRequiredId)
{
    std::atomic<int> mode{0};
    LoopbackServer server([&mode](const Request &, const Responder &responder) {
        if (mode == 0) {
            responder.send(Response::json(200,
                                          toBytes(listOf({{{"id", "/subscriptions/" + kSub},
                                                           {"subscriptionId", kSub},
                                                           {"displayName", "ai-lab"},
                                                           {"state", "Enabled"},
                                                           {"tenantId", "t-1"}}}))));
        } else {
            responder.send(Response::json(200, toBytes(listOf({{{"displayName", "no id"}}}))));
        }
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    auto subscriptions = client.subscriptions();
    ASSERT_TRUE(subscriptions) << subscriptions.error().message;
    ASSERT_EQ(subscriptions->size(), 1u);
    EXPECT_EQ((*subscriptions)[0].displayName, "ai-lab");
    EXPECT_EQ((*subscriptions)[0].tenantId, "t-1");
    mode = 1;
    subscriptions = client.subscriptions();
    ASSERT_FALSE(subscriptions);
    EXPECT_EQ(subscriptions.error().kind, Kind::Parse);
    EXPECT_NE(subscriptions.error().message.find("subscriptionId"), std::string::npos);
}

TEST(ArmId, ParsesSegmentsCaseInsensitively)
{
    const auto id = ArmId::parse("/subscriptions/S/resourcegroups/RG/providers/Microsoft.NetApp/NETAPPACCOUNTS/a/"
                                 "capacityPools/p/volumes/v/snapshots/s");
    ASSERT_TRUE(id);
    EXPECT_EQ(id->subscription, "S");
    EXPECT_EQ(id->resourceGroup, "RG");
    EXPECT_EQ(id->account, "a");
    EXPECT_EQ(id->pool, "p");
    EXPECT_EQ(id->volume, "v");
    EXPECT_EQ(id->snapshot, "s");
    const auto aks =
        ArmId::parse("/subscriptions/S/resourceGroups/RG/providers/Microsoft.ContainerService/managedClusters/aks-gpu");
    ASSERT_TRUE(aks);
    EXPECT_EQ(aks->managedCluster, "aks-gpu");
    EXPECT_TRUE(aks->pool.empty());
    EXPECT_FALSE(ArmId::parse("/resourceGroups/RG"));
    EXPECT_FALSE(ArmId::parse("/subscriptions/S/resourceGroups"));
    EXPECT_FALSE(ArmId::parse(""));
}

TEST(Base64, DecodesWithAndWithoutPadding)
{
    EXPECT_EQ(base64Decode("aGVsbG8="), "hello");
    EXPECT_EQ(base64Decode("aGVsbG8"), "hello");
    EXPECT_EQ(base64Decode("aGVs\nbG8="), "hello");
    EXPECT_EQ(base64Decode(""), "");
    EXPECT_FALSE(base64Decode("a$b"));
    EXPECT_FALSE(base64Decode("aGVsbG8=x"));
    EXPECT_EQ(isoUtc(std::chrono::system_clock::from_time_t(1767225600)), "2026-01-01T00:00:00Z");
}
