// StorageGridClient against scripted sim::HttpServer handlers: version discovery, authorize and
// Bearer, 401 re-authorize once, error envelopes, limit/marker paging, malformed and truncated
// bodies, 5xx, timeouts, metric vectors and matrices, and the record types.
#include "connectors/http/curltransport.h"
#include "connectors/storagegrid/storagegridclient.h"
#include "tests/connectors/http/httptestsupport.h"
#include "tests/support/fixtures.h"
#include "tests/support/qt/loopbackserver.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>

using namespace strata;
using namespace strata::storagegrid;
using namespace std::chrono_literals;
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

QByteArray bytes(const json &value)
{
    return QByteArray::fromStdString(value.dump());
}

json envelope(const json &data)
{
    return {{"responseTime", "2026-06-01T10:00:00.000Z"}, {"status", "success"}, {"apiVersion", "4.0"}, {"data", data}};
}

json errorEnvelope(int code, const std::string &text, const std::string &key)
{
    return {{"responseTime", "2026-06-01T10:00:00.000Z"},
            {"status", "error"},
            {"apiVersion", "4.0"},
            {"code", code},
            {"message", {{"text", text}, {"key", key}, {"context", nullptr}, {"developerMessage", ""}}},
            {"errors", json::array({{{"text", text}, {"key", key}}})}};
}

std::string pathOf(const Request &request)
{
    return request.path.toStdString();
}

std::string queryOf(const Request &request, const char *key)
{
    return request.queryValue(QString::fromLatin1(key)).toStdString();
}

/// A minimal grid: /api/versions, authorize handing out tok-1, tok-2, ..., and the routes a test
/// adds. Tokens older than `validFrom` get 401 (expiry).
class FakeGrid
{
public:
    using Route = std::function<void(const Request &, const Responder &)>;

    FakeGrid()
        : m_server([this](const Request &request, const Responder &responder) {
            handle(request, responder);
        })
    {}

    void route(const std::string &path, Route route)
    {
        std::lock_guard lock(m_mutex);
        m_routes[path] = std::move(route);
    }
    void setVersions(json versions)
    {
        std::lock_guard lock(m_mutex);
        m_versions = std::move(versions);
    }
    /// Every token issued so far stops working.
    void expireTokens()
    {
        std::lock_guard lock(m_mutex);
        m_validFrom = m_issued + 1;
    }
    void setRejectAllTokens(bool reject)
    {
        std::lock_guard lock(m_mutex);
        m_rejectAll = reject;
    }
    void setPassword(std::string password)
    {
        std::lock_guard lock(m_mutex);
        m_password = std::move(password);
    }
    [[nodiscard]] int issued() const
    {
        std::lock_guard lock(m_mutex);
        return m_issued;
    }
    [[nodiscard]] std::vector<Request> requests() const { return m_seen.all(); }
    [[nodiscard]] std::string url() const { return m_server.url(); }

private:
    void handle(const Request &request, const Responder &responder)
    {
        m_seen.add(request);
        std::unique_lock lock(m_mutex);
        const std::string path = pathOf(request);
        if (path == "/api/versions") {
            responder.send(Response::json(200, bytes(envelope(m_versions))));
            return;
        }
        if ((path == "/api/v4/authorize" || path == "/api/v3/authorize") && request.method == "POST") {
            const json body = json::parse(request.body.toStdString(), nullptr, false);
            if (!body.is_object() || body.value("password", "") != m_password) {
                responder.send(Response::json(
                    401,
                    bytes(errorEnvelope(401,
                                        "Your credentials for this account were invalid. Please try again.",
                                        "error.invalid_credentials"))));
                return;
            }
            ++m_issued;
            responder.send(Response::json(200, bytes(envelope("tok-" + std::to_string(m_issued)))));
            return;
        }
        const std::string auth = request.header("authorization").toStdString();
        const std::string prefix = "Bearer tok-";
        int number = 0;
        if (auth.rfind(prefix, 0) == 0) {
            number = std::atoi(auth.c_str() + prefix.size());
        }
        if (number <= 0 || number < m_validFrom || m_rejectAll) {
            responder.send(
                Response::json(401, bytes(errorEnvelope(401, "The request is not authorized", "error.unauthorized"))));
            return;
        }
        if (path.rfind("/api/v4/", 0) != 0 && path.rfind("/api/v3/", 0) != 0) {
            responder.send(Response::json(404, bytes(errorEnvelope(404, "Not found", "error.404"))));
            return;
        }
        const std::string rest = path.substr(8);
        const auto it = m_routes.find(rest);
        if (it == m_routes.end()) {
            json body = errorEnvelope(404, "The resource was not found", "error.404");
            body["data"] = json::object();
            responder.send(Response::json(404, bytes(body)));
            return;
        }
        Route route = it->second;
        lock.unlock();
        route(request, responder);
    }

    mutable std::mutex m_mutex;
    std::map<std::string, Route> m_routes;
    json m_versions = json::array({2, 3, 4});
    std::string m_password = "secret";
    int m_issued = 0;
    int m_validFrom = 0;
    bool m_rejectAll = false;
    SeenRequests m_seen;
    LoopbackServer m_server;
};

http::TransportOptions fastTransport()
{
    http::TransportOptions options;
    options.connectTimeout = 2s;
    options.totalTimeout = 5s;
    return options;
}

StorageGridOptions gridOptions(const std::string &url, RecordingSleeper &sleeper, int attempts = 3)
{
    StorageGridOptions options;
    options.http.baseUrl = url;
    options.http.retry.maxAttempts = attempts;
    options.http.retry.baseDelay = 1ms;
    options.http.retry.maxElapsed = 0ms;
    options.http.sleeper = sleeper.sleeper();
    options.username = "root";
    options.password = "secret";
    return options;
}

struct HarnessStoragegridclient
{
    FakeGrid grid;
    RecordingSleeper sleeper;
    std::shared_ptr<CurlTransport> transport = std::make_shared<CurlTransport>(fastTransport());

    StorageGridClient client(StorageGridOptions options) { return StorageGridClient(transport, std::move(options)); }
    StorageGridClient client() { return client(gridOptions(grid.url(), sleeper)); }
};

void answer(FakeGrid &grid, const std::string &path, const json &data)
{
    grid.route(path, [data](const Request &, const Responder &responder) {
        responder.send(Response::json(200, bytes(envelope(data))));
    });
}

} // namespace

TEST(StorageGridClient, DiscoverApiVersion_PicksTheHighestSupported)
{
    HarnessStoragegridclient h;
    auto client = h.client();
    auto version = client.discoverApiVersion();
    ASSERT_TRUE(version) << version.error().message;
    EXPECT_EQ(*version, "v4");
    EXPECT_EQ(client.apiVersion(), "v4");

    h.grid.setVersions(json::array({2, 3}));
    auto older = h.client();
    ASSERT_TRUE(older.discoverApiVersion());
    EXPECT_EQ(older.apiVersion(), "v3");

    h.grid.setVersions(json::array({"3.0", "4.1", 5}));
    auto strings = h.client();
    ASSERT_TRUE(strings.discoverApiVersion());
    EXPECT_EQ(strings.apiVersion(), "v4");

    h.grid.setVersions(json::array({1, 2}));
    auto none = h.client();
    auto failed = none.discoverApiVersion();
    ASSERT_FALSE(failed);
    EXPECT_EQ(failed.error().kind, Kind::Api);
    EXPECT_EQ(failed.error().apiCode, "UnsupportedVersion");
    EXPECT_NE(failed.error().message.find("[1, 2]"), std::string::npos) << failed.error().message;

    h.grid.setVersions("four");
    auto junk = h.client();
    auto bad = junk.discoverApiVersion();
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().kind, Kind::Parse);
}

TEST(StorageGridClient, V3Grid_UsesV3PathsEverywhere)
{
    HarnessStoragegridclient h;
    h.grid.setVersions(json::array({2, 3}));
    answer(h.grid, "grid/health", json::object());
    auto client = h.client();
    ASSERT_TRUE(client.health());
    const auto requests = h.grid.requests();
    ASSERT_EQ(requests.size(), 3u);
    EXPECT_EQ(pathOf(requests[1]), "/api/v3/authorize");
    EXPECT_EQ(pathOf(requests[2]), "/api/v3/grid/health");
}

TEST(StorageGridClient, Authorize_GridAdminBodyThenBearerOnEveryCall)
{
    HarnessStoragegridclient h;
    answer(h.grid,
           "grid/health",
           {{"alarms", {{"critical", 0}, {"major", 1}, {"minor", 2}, {"notice", 3}}},
            {"alerts", {{"critical", 1}, {"major", 0}, {"minor", 4}}},
            {"nodes", {{"connected", 5}, {"administratively-down", 1}, {"unknown", 0}}}});
    auto client = h.client();

    const auto health = client.health();
    ASSERT_TRUE(health) << health.error().message;
    EXPECT_EQ(health->alarmsNotice, 3);
    EXPECT_EQ(health->alertsCritical, 1);
    EXPECT_EQ(health->alertsMinor, 4);
    EXPECT_EQ(health->nodesConnected, 5);
    EXPECT_EQ(health->nodesAdminDown, 1);
    ASSERT_TRUE(client.health());

    const auto requests = h.grid.requests();
    ASSERT_EQ(requests.size(), 4u); // versions, authorize, health, health
    EXPECT_EQ(pathOf(requests[0]), "/api/versions");
    EXPECT_TRUE(requests[0].header("authorization").isEmpty());
    EXPECT_EQ(pathOf(requests[1]), "/api/v4/authorize");
    EXPECT_EQ(requests[1].method, "POST");
    const json body = json::parse(requests[1].body.toStdString());
    EXPECT_EQ(body, json({{"username", "root"}, {"password", "secret"}, {"cookie", false}, {"csrfToken", false}}));
    EXPECT_EQ(requests[1].header("content-type"), "application/json");
    EXPECT_EQ(requests[2].header("authorization"), "Bearer tok-1");
    EXPECT_EQ(requests[3].header("authorization"), "Bearer tok-1");
    EXPECT_EQ(client.authorizations(), 1);
}

TEST(StorageGridClient, Authorize_TenantSendsAccountIdAndUsesOrgPaths)
{
    HarnessStoragegridclient h;
    answer(h.grid, "org/config/product-version", {{"productVersion", "11.8.0.2-20240131.1852.bbc9e4a"}});
    answer(h.grid,
           "org/containers",
           json::array({{{"name", "datasets"}, {"creationTime", "2026-01-02T03:04:05.000Z"}, {"region", "us-east-1"}},
                        {{"name", "sentiment"}}}));
    answer(h.grid,
           "org/usage",
           {{"calculationTime", "2026-06-01T10:00:00.000Z"},
            {"objectCount", 12},
            {"dataBytes", 290200000},
            {"buckets",
             json::array({{{"name", "datasets"},
                           {"objectCount", 12},
                           {"dataBytes", "290200000"},
                           {"versioningEnabled", true}}})}});
    auto options = gridOptions(h.grid.url(), h.sleeper);
    options.accountId = "27500541853349137040";
    auto client = h.client(options);

    const auto version = client.productVersion();
    ASSERT_TRUE(version) << version.error().message;
    EXPECT_EQ(*version, "11.8.0.2-20240131.1852.bbc9e4a");
    const auto buckets = client.containers();
    ASSERT_TRUE(buckets) << buckets.error().message;
    ASSERT_EQ(buckets->size(), 2u);
    EXPECT_EQ((*buckets)[0].name, "datasets");
    EXPECT_EQ((*buckets)[0].region, "us-east-1");
    EXPECT_EQ((*buckets)[1].creationTime, "");
    const auto usage = client.tenantUsage();
    ASSERT_TRUE(usage) << usage.error().message;
    ASSERT_EQ(usage->buckets.size(), 1u);
    EXPECT_EQ(usage->buckets[0].dataBytes, 290200000);
    EXPECT_TRUE(usage->buckets[0].versioningEnabled);

    const auto requests = h.grid.requests();
    const json body = json::parse(requests[1].body.toStdString());
    EXPECT_EQ(body.value("accountId", ""), "27500541853349137040");
    EXPECT_EQ(queryOf(requests.back(), "includeBucketDetail"), "true");
}

TEST(StorageGridClient, ExpiredToken_ReauthorizesOnceAndRetries)
{
    HarnessStoragegridclient h;
    answer(h.grid, "grid/health/topology", {{"name", "datalake"}, {"type", "grid"}});
    auto client = h.client();
    ASSERT_TRUE(client.topologyGridName());

    h.grid.expireTokens();
    const auto name = client.topologyGridName();
    ASSERT_TRUE(name) << name.error().message;
    EXPECT_EQ(*name, "datalake");
    EXPECT_EQ(client.authorizations(), 2);
    EXPECT_EQ(h.grid.issued(), 2);
    const auto requests = h.grid.requests();
    ASSERT_EQ(requests.size(), 6u); // versions, auth, topo, topo(401), auth, topo
    EXPECT_EQ(requests[3].header("authorization"), "Bearer tok-1");
    EXPECT_EQ(pathOf(requests[4]), "/api/v4/authorize");
    EXPECT_EQ(requests[5].header("authorization"), "Bearer tok-2");
    EXPECT_EQ(queryOf(requests[5], "depth"), "grid");
}

TEST(StorageGridClient, TokenRefusedTwice_AuthErrorWithoutLooping)
{
    HarnessStoragegridclient h;
    answer(h.grid, "grid/health", json::object());
    h.grid.setRejectAllTokens(true);
    auto client = h.client();

    const auto health = client.health();
    ASSERT_FALSE(health);
    EXPECT_EQ(health.error().kind, Kind::Auth);
    EXPECT_EQ(health.error().httpStatus, 401);
    EXPECT_EQ(health.error().apiCode, "error.unauthorized");
    EXPECT_NE(health.error().message.find("StorageGRID grid health: The request is not authorized"), std::string::npos)
        << health.error().message;
    EXPECT_EQ(h.grid.requests().size(), 5u); // versions, auth, health, auth, health
}

TEST(StorageGridClient, WrongPassword_AuthErrorWithTheGridsTextAndNoSecret)
{
    HarnessStoragegridclient h;
    h.grid.setPassword("other");
    auto client = h.client();
    const auto result = client.authorize();
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, Kind::Auth);
    EXPECT_EQ(result.error().apiCode, "error.invalid_credentials");
    EXPECT_NE(
        result.error().message.find("StorageGRID authorize as root: Your credentials for this account were invalid"),
        std::string::npos)
        << result.error().message;
    EXPECT_EQ(result.error().message.find("secret"), std::string::npos);

    const auto health = client.health();
    ASSERT_FALSE(health);
    EXPECT_EQ(health.error().kind, Kind::Auth);
    // POST authorize is never retried.
    EXPECT_EQ(h.grid.requests().size(), 3u);
}

TEST(StorageGridClient, ErrorEnvelopes_404And400AndBareStatus)
{
    HarnessStoragegridclient h;
    h.grid.route("grid/accounts/123/usage", [](const Request &, const Responder &responder) {
        responder.send(Response::json(400, bytes(errorEnvelope(400, "Invalid account id", "error.invalid_account"))));
    });
    h.grid.route("grid/ilm-policies", [](const Request &, const Responder &responder) {
        responder.send(Response::text(500, "boom"));
    });
    auto client = h.client();

    const auto missing = client.alerts();
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().kind, Kind::Api);
    EXPECT_EQ(missing.error().httpStatus, 404);
    EXPECT_EQ(missing.error().apiCode, "error.404");
    EXPECT_EQ(missing.error().message, "StorageGRID alerts: The resource was not found");

    const auto usage = client.accountUsage("123", true);
    ASSERT_FALSE(usage);
    EXPECT_EQ(usage.error().kind, Kind::Api);
    EXPECT_EQ(usage.error().apiCode, "error.invalid_account");
    EXPECT_EQ(usage.error().message, "StorageGRID usage of tenant 123: Invalid account id");

    const auto policies = client.ilmPolicies();
    ASSERT_FALSE(policies);
    EXPECT_EQ(policies.error().kind, Kind::Http);
    EXPECT_EQ(policies.error().message, "StorageGRID ILM policies: HTTP status 500");

    // A 200 that says status "error" is still an error.
    h.grid.route("grid/alert-history", [](const Request &, const Responder &responder) {
        responder.send(
            Response::json(200, bytes(errorEnvelope(200, "Prometheus is not reachable", "error.prometheus"))));
    });
    const auto history = client.alertHistory();
    ASSERT_FALSE(history);
    EXPECT_EQ(history.error().kind, Kind::Api);
    EXPECT_EQ(history.error().apiCode, "error.prometheus");
}

TEST(StorageGridClient, ServiceUnavailable_RetriedThenSucceeds)
{
    HarnessStoragegridclient h;
    std::atomic<int> calls{0};
    h.grid.route("grid/node-health", [&calls](const Request &, const Responder &responder) {
        if (++calls <= 2) {
            responder.send(Response::text(503, "busy").withHeader("Retry-After", "1"));
            return;
        }
        responder.send(Response::json(
            200,
            bytes(envelope(json::array({{{"id", "n1"},
                                         {"name", "dc1-adm1"},
                                         {"type", "primaryAdminNode"},
                                         {"siteId", "s1"},
                                         {"siteName", "dc1"},
                                         {"severity", "normal"},
                                         {"state", "connected"}},
                                        {{"id", "n2"}, {"name", "dc1-sn1"}, {"state", "administratively-down"}}})))));
    });
    auto client = h.client();
    const auto nodes = client.nodeHealth();
    ASSERT_TRUE(nodes) << nodes.error().message;
    ASSERT_EQ(nodes->size(), 2u);
    EXPECT_EQ((*nodes)[0].type, "primaryAdminNode");
    EXPECT_EQ((*nodes)[0].siteName, "dc1");
    EXPECT_EQ((*nodes)[1].state, "administratively-down");
    EXPECT_EQ((*nodes)[1].severity, "");
    EXPECT_EQ(calls.load(), 3);
    const auto delays = h.sleeper.delays();
    ASSERT_EQ(delays.size(), 2u);
    EXPECT_GE(delays[0], 1000ms); // Retry-After honoured

    calls = -100; // every answer a 503 from now on: the last error comes back
    const auto failed = client.nodeHealth();
    ASSERT_FALSE(failed);
    EXPECT_EQ(failed.error().httpStatus, 503);
    EXPECT_EQ(failed.error().kind, Kind::Http);
}

TEST(StorageGridClient, Paging_LimitMarkerUntilEmpty)
{
    HarnessStoragegridclient h;
    std::vector<json> all;
    for (int i = 1; i <= 5; ++i) {
        all.push_back({{"id", "0000000000000000000" + std::to_string(i)},
                       {"name", "tenant-" + std::to_string(i)},
                       {"capabilities", {"management", "s3"}},
                       {"policy", {{"quotaObjectBytes", i * 1000}, {"allowPlatformServices", i % 2 == 0}}}});
    }
    h.grid.route("grid/accounts", [all](const Request &request, const Responder &responder) {
        const int limit = std::stoi(queryOf(request, "limit"));
        const std::string marker = queryOf(request, "marker");
        std::size_t start = 0;
        if (!marker.empty()) {
            while (start < all.size() && all[start]["id"] != marker) {
                ++start;
            }
            ++start;
        }
        json page = json::array();
        for (std::size_t i = start; i < all.size() && static_cast<int>(page.size()) < limit; ++i) {
            page.push_back(all[i]);
        }
        responder.send(Response::json(200, bytes(envelope(page))));
    });
    auto options = gridOptions(h.grid.url(), h.sleeper);
    options.pageSize = 2;
    auto client = h.client(options);

    const auto accounts = client.accounts();
    ASSERT_TRUE(accounts) << accounts.error().message;
    ASSERT_EQ(accounts->size(), 5u);
    EXPECT_EQ((*accounts)[4].name, "tenant-5");
    EXPECT_EQ((*accounts)[2].quotaObjectBytes, 3000);
    EXPECT_TRUE((*accounts)[1].allowPlatformServices);
    EXPECT_FALSE((*accounts)[0].objectCount.has_value());

    std::vector<std::string> markers;
    for (const auto &request : h.grid.requests()) {
        if (pathOf(request) == "/api/v4/grid/accounts") {
            EXPECT_EQ(queryOf(request, "limit"), "2");
            markers.push_back(queryOf(request, "marker"));
        }
    }
    EXPECT_EQ(markers,
              (std::vector<std::string>{"", "00000000000000000002", "00000000000000000004", "00000000000000000005"}));
}

TEST(StorageGridClient, Paging_RepeatedMarkerIsAParseErrorNotAnEndlessLoop)
{
    HarnessStoragegridclient h;
    h.grid.route("grid/accounts", [](const Request &, const Responder &responder) {
        responder.send(Response::json(200, bytes(envelope(json::array({{{"id", "1"}, {"name", "same"}}})))));
    });
    auto client = h.client();
    const auto accounts = client.accounts();
    ASSERT_FALSE(accounts);
    EXPECT_EQ(accounts.error().kind, Kind::Parse);
    EXPECT_NE(accounts.error().message.find("paging did not advance"), std::string::npos);

    h.grid.route("grid/accounts", [](const Request &, const Responder &responder) {
        responder.send(Response::json(200, bytes(envelope(json::array({{{"name", "no id"}}})))));
    });
    const auto noId = client.accounts();
    ASSERT_FALSE(noId);
    EXPECT_NE(noId.error().message.find("has no id to page on"), std::string::npos);
}

TEST(StorageGridClient, AccountsCache_HarvestFixtureWithNulls)
{
    HarnessStoragegridclient h;
    const std::string fixture = testsupport::fixture("storagegrid/accounts-cache.json");
    ASSERT_FALSE(fixture.empty());
    h.grid.route("grid/accounts-cache", [fixture](const Request &, const Responder &responder) {
        responder.send(Response::json(200, QByteArray::fromStdString(fixture)));
    });
    auto client = h.client();
    const auto accounts = client.accountsCache();
    ASSERT_TRUE(accounts) << accounts.error().message;
    ASSERT_EQ(accounts->size(), 9u);
    const Account &first = (*accounts)[0];
    EXPECT_EQ(first.id, "93344766954338342034");
    EXPECT_EQ(first.name, "aron");
    EXPECT_EQ(first.description, "");
    EXPECT_EQ(first.capabilities, (std::vector<std::string>{"management", "s3"}));
    EXPECT_FALSE(first.quotaObjectBytes.has_value());
    EXPECT_TRUE(first.useAccountIdentitySource);
    EXPECT_EQ(first.objectCount, 41);
    EXPECT_EQ(first.dataBytes, 4071);
    EXPECT_EQ((*accounts)[3].dataBytes, 177282918666);
    EXPECT_EQ((*accounts)[5].description, "ONTAP integration (FP, S3 SM, SM-C)");
    EXPECT_EQ((*accounts)[6].objectCount, 2000000);
}

TEST(StorageGridClient, AccountUsage_BucketDetail)
{
    HarnessStoragegridclient h;
    answer(h.grid,
           "grid/accounts/27500541853349137040/usage",
           {{"calculationTime", "2026-06-01T09:58:00.000Z"},
            {"objectCount", 3},
            {"dataBytes", 1500},
            {"buckets",
             json::array({{{"name", "datasets"},
                           {"region", "us-east-1"},
                           {"versioningEnabled", true},
                           {"objectCount", 2},
                           {"dataBytes", 1000},
                           {"quotaObjectBytes", nullptr}},
                          {{"name", "quota"}, {"objectCount", 1}, {"dataBytes", 500}, {"quotaObjectBytes", 10000}}})}});
    auto client = h.client();
    const auto usage = client.accountUsage("27500541853349137040", true);
    ASSERT_TRUE(usage) << usage.error().message;
    EXPECT_EQ(usage->calculationTime, "2026-06-01T09:58:00.000Z");
    EXPECT_EQ(usage->dataBytes, 1500);
    ASSERT_EQ(usage->buckets.size(), 2u);
    EXPECT_TRUE(usage->buckets[0].versioningEnabled);
    EXPECT_FALSE(usage->buckets[0].quotaObjectBytes.has_value());
    EXPECT_EQ(usage->buckets[1].quotaObjectBytes, 10000);
    EXPECT_EQ(queryOf(h.grid.requests().back(), "includeBucketDetail"), "true");

    ASSERT_TRUE(client.accountUsage("27500541853349137040", false));
    EXPECT_FALSE(h.grid.requests().back().query.hasQueryItem(QStringLiteral("includeBucketDetail")));

    answer(h.grid,
           "grid/accounts/1/usage",
           {{"dataBytes", 1}, {"buckets", json::array({{{"name", "b"}, {"dataBytes", "lots"}}})}});
    const auto bad = client.accountUsage("1", true);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().kind, Kind::Parse);
    EXPECT_NE(bad.error().message.find("bucket 1: \"dataBytes\" is \"lots\", expected a whole number"),
              std::string::npos)
        << bad.error().message;
}

TEST(StorageGridClient, AlertsAndHistory_Fields)
{
    HarnessStoragegridclient h;
    const json active =
        json::array({{{"id", "a1"},
                      {"name", "Low installed node memory"},
                      {"labels", {{"severity", "major"}, {"instance", "dc1-sn2"}, {"site_name", "dc1"}}},
                      {"annotations", {{"summary", "Low memory"}, {"description", "8 GB installed"}}},
                      {"startsAt", "2026-06-01T09:00:00.000Z"},
                      {"status", "active"},
                      {"silenced", false}}});
    const std::string fixture = testsupport::fixture("storagegrid/alert-history.json");
    ASSERT_FALSE(fixture.empty());
    answer(h.grid, "grid/alerts", active);
    h.grid.route("grid/alert-history", [fixture](const Request &, const Responder &responder) {
        responder.send(Response::json(200, QByteArray::fromStdString(fixture)));
    });
    auto client = h.client();
    const auto alerts = client.alerts();
    ASSERT_TRUE(alerts) << alerts.error().message;
    ASSERT_EQ(alerts->size(), 1u);
    EXPECT_EQ((*alerts)[0].severity, "major");
    EXPECT_EQ((*alerts)[0].instance, "dc1-sn2");
    EXPECT_EQ((*alerts)[0].siteName, "dc1");
    EXPECT_EQ((*alerts)[0].summary, "Low memory");
    EXPECT_EQ((*alerts)[0].description, "8 GB installed");
    EXPECT_EQ((*alerts)[0].startsAt, "2026-06-01T09:00:00.000Z");
    EXPECT_EQ((*alerts)[0].endsAt, "");

    // Resolved records (the swagger's ResolvedAlertRecord) carry startTime and endTime.
    const auto history = client.alertHistory();
    ASSERT_TRUE(history) << history.error().message;
    ASSERT_EQ(history->size(), 2u);
    const Alert &memory = (*history)[0];
    EXPECT_EQ(memory.id, "6b5c2d9e0f7a8e31");
    EXPECT_EQ(memory.eventId, 2734);
    EXPECT_EQ(memory.name, "Low installed node memory");
    EXPECT_EQ(memory.severity, "major");
    EXPECT_EQ(memory.instance, "dc1-sn2");
    EXPECT_EQ(memory.siteName, "dc1");
    EXPECT_EQ(memory.status, "resolved");
    EXPECT_EQ(memory.startsAt, "2026-05-31T09:02:00.000Z");
    EXPECT_EQ(memory.endsAt, "2026-05-31T09:06:00.000Z");
    EXPECT_EQ(memory.labels.at("service"), "ldr");
    const Alert &network = (*history)[1];
    EXPECT_EQ(network.name, "Node network connectivity error");
    EXPECT_EQ(network.severity, "critical");
    EXPECT_EQ(network.instance, "");
    EXPECT_TRUE(network.inhibited);
    EXPECT_EQ(network.startsAt, "2026-05-30T14:10:00.000Z");
    EXPECT_EQ(network.endsAt, "2026-05-30T14:35:00.000Z");

    // The record's own severity and instance stand in for missing labels; names no vendor
    // document uses for this list (startsAt, endsAt, resolvedAt) are not read.
    answer(h.grid,
           "grid/alert-history",
           json::array({{{"id", "f1"},
                         {"eventId", "77"},
                         {"name", "Low metadata storage"},
                         {"severity", "minor"},
                         {"instance", "dc1-sn3"},
                         {"labels", json::object()},
                         {"startsAt", "2026-05-31T09:00:00.000Z"},
                         {"endsAt", "2026-05-31T09:30:00.000Z"},
                         {"resolvedAt", "2026-05-31T09:30:00.000Z"}}}));
    const auto other = client.alertHistory();
    ASSERT_TRUE(other) << other.error().message;
    ASSERT_EQ(other->size(), 1u);
    EXPECT_EQ((*other)[0].severity, "minor");
    EXPECT_EQ((*other)[0].instance, "dc1-sn3");
    EXPECT_EQ((*other)[0].eventId, 77);
    EXPECT_EQ((*other)[0].startsAt, "");
    EXPECT_EQ((*other)[0].endsAt, "");

    answer(h.grid, "grid/alerts", json::array({{{"id", "a1"}, {"labels", "major"}}}));
    const auto bad = client.alerts();
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().kind, Kind::Parse);
    EXPECT_NE(bad.error().message.find("record 1 (a1): \"labels\" is a string, expected an object"), std::string::npos)
        << bad.error().message;
}

TEST(StorageGridClient, IlmPolicies_RulesAsStringsOrObjects)
{
    HarnessStoragegridclient h;
    answer(h.grid,
           "grid/ilm-policies",
           json::array({{{"id", "p1"},
                         {"name", "Data lake: 2 copies"},
                         {"reason", "initial"},
                         {"active", true},
                         {"rules", json::array({"r1", {{"id", "r2"}}})},
                         {"defaultRule", "r2"}},
                        {{"name", "Baseline 2 Copies Policy"}, {"active", false}}}));
    auto client = h.client();
    const auto policies = client.ilmPolicies();
    ASSERT_TRUE(policies) << policies.error().message;
    ASSERT_EQ(policies->size(), 2u);
    EXPECT_TRUE((*policies)[0].active);
    EXPECT_EQ((*policies)[0].rules, (std::vector<std::string>{"r1", "r2"}));
    EXPECT_EQ((*policies)[0].defaultRule, "r2");
    EXPECT_FALSE((*policies)[1].active);

    answer(h.grid, "grid/ilm-policies", json::array({{{"id", "p3"}}}));
    const auto bad = client.ilmPolicies();
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("record 1 (p3): \"name\" is missing"), std::string::npos) << bad.error().message;
}

TEST(StorageGridClient, MetricQuery_VectorWithTimeParameter)
{
    HarnessStoragegridclient h;
    answer(h.grid,
           "grid/metric-query",
           {{"resultType", "vector"},
            {"result",
             json::array({{{"metric",
                            {{"__name__", "storagegrid_storage_utilization_data_bytes"},
                             {"instance", "dc1-sn1"},
                             {"node_id", "n1"},
                             {"site_name", "dc1"}}},
                           {"value", json::array({1756363578.839, "29456490549248"})}},
                          {{"metric", {{"instance", "dc1-sn2"}}}, {"value", json::array({1756363578.839, "NaN"})}}})}});
    auto client = h.client();
    const auto time = std::chrono::system_clock::time_point(std::chrono::milliseconds(1780308000123));
    const auto result = client.metricQuery("sum(storagegrid_storage_utilization_data_bytes) by (instance)", time);
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->resultType, "vector");
    ASSERT_EQ(result->series.size(), 2u);
    EXPECT_EQ(result->series[0].labels.at("instance"), "dc1-sn1");
    ASSERT_EQ(result->series[0].samples.size(), 1u);
    EXPECT_DOUBLE_EQ(result->series[0].samples[0].value, 29456490549248.0);
    EXPECT_DOUBLE_EQ(result->series[0].samples[0].time, 1756363578.839);
    EXPECT_TRUE(std::isnan(result->series[1].samples[0].value));

    const Request request = h.grid.requests().back();
    EXPECT_EQ(queryOf(request, "query"), "sum(storagegrid_storage_utilization_data_bytes) by (instance)");
    EXPECT_EQ(queryOf(request, "time"), "2026-06-01T10:00:00.123Z");
    EXPECT_EQ(queryOf(request, "timeout"), "120s");

    ASSERT_TRUE(client.metricQuery("up"));
    EXPECT_FALSE(h.grid.requests().back().query.hasQueryItem(QStringLiteral("time")));
}

TEST(StorageGridClient, MetricQueryRange_MatrixAndBadShapes)
{
    HarnessStoragegridclient h;
    answer(h.grid,
           "grid/metric-query-range",
           {{"resultType", "matrix"},
            {"result",
             json::array({{{"metric", {{"tenant", "data-science"}}},
                           {"values",
                            json::array({json::array({1780000000, "100"}), json::array({1780003600, "250.5"})})}}})}});
    auto client = h.client();
    const auto start = std::chrono::system_clock::time_point(std::chrono::seconds(1780000000));
    const auto end = start + 1h;
    const auto result = client.metricQueryRange("storagegrid_tenant_usage_data_bytes", start, end, 3600);
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->resultType, "matrix");
    ASSERT_EQ(result->series.size(), 1u);
    ASSERT_EQ(result->series[0].samples.size(), 2u);
    EXPECT_DOUBLE_EQ(result->series[0].samples[1].value, 250.5);
    EXPECT_DOUBLE_EQ(result->series[0].samples[1].time, 1780003600);
    const Request request = h.grid.requests().back();
    EXPECT_EQ(queryOf(request, "start"), "2026-05-28T20:26:40.000Z");
    EXPECT_EQ(queryOf(request, "end"), "2026-05-28T21:26:40.000Z");
    EXPECT_EQ(queryOf(request, "step"), "3600s");

    struct Case
    {
        json data;
        std::string expect;
    };
    const std::vector<Case> cases = {
        {{{"resultType", "string"}, {"result", json::array()}}, "expected vector, matrix or scalar"},
        {{{"resultType", "matrix"}, {"result", json::object()}}, "\"result\" is a object, expected an array"},
        {{{"resultType", "matrix"}, {"result", json::array({{{"metric", json::object()}}})}}, "series 1: \"values\""},
        {{{"resultType", "matrix"}, {"result", json::array({{{"values", json::array({json::array({1, "x"})})}}})}},
         "sample value \"x\" is not a number"},
        {{{"resultType", "vector"}, {"result", json::array({{{"value", json::array({1})}}})}},
         "not a [time, \"value\"] pair"},
        {{{"result", json::array()}}, "\"resultType\" is missing"},
    };
    for (const Case &c : cases) {
        answer(h.grid, "grid/metric-query-range", c.data);
        const auto bad = client.metricQueryRange("x", start, end, 60);
        ASSERT_FALSE(bad) << c.data.dump();
        EXPECT_EQ(bad.error().kind, Kind::Parse);
        EXPECT_NE(bad.error().message.find(c.expect), std::string::npos) << bad.error().message;
    }

    answer(h.grid, "grid/metric-query", {{"resultType", "scalar"}, {"result", json::array({1780000000, "42"})}});
    const auto scalar = client.metricQuery("scalar(1)");
    ASSERT_TRUE(scalar) << scalar.error().message;
    ASSERT_EQ(scalar->series.size(), 1u);
    EXPECT_DOUBLE_EQ(scalar->series[0].samples[0].value, 42);
}

TEST(StorageGridClient, MalformedTruncatedAndMissingData)
{
    HarnessStoragegridclient h;
    auto client = h.client();

    h.grid.route("grid/health", [](const Request &, const Responder &responder) {
        responder.send(Response::json(200, R"({"status":"success","data":{"alerts":)"));
    });
    auto malformed = client.health();
    ASSERT_FALSE(malformed);
    EXPECT_EQ(malformed.error().kind, Kind::Parse);
    EXPECT_NE(malformed.error().message.find("StorageGRID grid health: malformed JSON"), std::string::npos)
        << malformed.error().message;

    h.grid.route("grid/health", [](const Request &, const Responder &responder) {
        responder.send(Response::json(200, R"({"status":"success","apiVersion":"4.0"})"));
    });
    auto noData = client.health();
    ASSERT_FALSE(noData);
    EXPECT_EQ(noData.error().kind, Kind::Parse);
    EXPECT_NE(noData.error().message.find("no data in the response"), std::string::npos);

    h.grid.route("grid/health", [](const Request &, const Responder &responder) {
        responder.send(Response::json(200, R"({"data":{"nodes":{"connected":"many"}}})"));
    });
    auto wrongType = client.health();
    ASSERT_FALSE(wrongType);
    EXPECT_NE(wrongType.error().message.find("\"connected\" is \"many\""), std::string::npos)
        << wrongType.error().message;

    h.grid.route("grid/node-health", [](const Request &, const Responder &responder) {
        Response response = Response::json(200, bytes(envelope(json::array({{{"id", "n1"}, {"name", "x"}}}))));
        response.fault = sim::Fault::Truncate;
        responder.send(response);
    });
    auto options = gridOptions(h.grid.url(), h.sleeper, 1);
    auto once = h.client(options);
    auto truncated = once.nodeHealth();
    ASSERT_FALSE(truncated);
    EXPECT_EQ(truncated.error().kind, Kind::Transport) << truncated.error().message;

    h.grid.route("grid/node-health", [](const Request &, const Responder &responder) {
        responder.send(Response::json(200, bytes(envelope(json::object({{"id", "n1"}})))));
    });
    auto notList = client.nodeHealth();
    ASSERT_FALSE(notList);
    EXPECT_NE(notList.error().message.find("the grid sent a JSON object where the data array belongs"),
              std::string::npos)
        << notList.error().message;
}

TEST(StorageGridClient, Timeout_IsReportedAsTimeout)
{
    FakeGrid grid;
    grid.route("grid/health", [](const Request &, const Responder &responder) {
        Response response = Response::json(200, bytes(envelope(json::object())));
        response.fault = sim::Fault::Stall;
        responder.send(response);
    });
    http::TransportOptions transportOptions = fastTransport();
    transportOptions.totalTimeout = 300ms;
    RecordingSleeper sleeper;
    StorageGridClient client(std::make_shared<CurlTransport>(transportOptions), gridOptions(grid.url(), sleeper, 2));
    const auto health = client.health();
    ASSERT_FALSE(health);
    EXPECT_EQ(health.error().kind, Kind::Timeout) << health.error().message;
    EXPECT_EQ(sleeper.delays().size(), 1u); // a GET: retried once, then given up
}

TEST(StorageGridClient, Logout_DeletesTheTokenAndTheNextCallAuthorizesAgain)
{
    HarnessStoragegridclient h;
    h.grid.route("authorize", [](const Request &request, const Responder &responder) {
        EXPECT_EQ(request.method, "DELETE");
        responder.send(Response::text(204, ""));
    });
    answer(h.grid, "grid/health", json::object());
    auto client = h.client();
    ASSERT_TRUE(client.logout()); // nothing to do yet
    EXPECT_TRUE(h.grid.requests().empty());
    ASSERT_TRUE(client.health());
    ASSERT_TRUE(client.logout());
    const auto afterLogout = h.grid.requests();
    ASSERT_EQ(afterLogout.size(), 4u);
    EXPECT_EQ(afterLogout[3].method, "DELETE");
    EXPECT_EQ(pathOf(afterLogout[3]), "/api/v4/authorize");
    EXPECT_EQ(afterLogout[3].header("authorization"), "Bearer tok-1");
    ASSERT_TRUE(client.health());
    EXPECT_EQ(client.authorizations(), 2);
    EXPECT_EQ(h.grid.requests().back().header("authorization"), "Bearer tok-2");
}

TEST(StorageGridClient, ConcurrentExpiry_AuthorizesOnce)
{
    HarnessStoragegridclient h;
    answer(h.grid, "grid/health", json::object());
    auto client = h.client();
    ASSERT_TRUE(client.health());
    h.grid.expireTokens();
    std::vector<std::thread> threads;
    std::atomic<int> ok{0};
    for (int i = 0; i < 4; ++i) {
        threads.emplace_back([&] {
            ok += client.health() ? 1 : 0;
        });
    }
    for (auto &thread : threads) {
        thread.join();
    }
    EXPECT_EQ(ok.load(), 4);
    EXPECT_EQ(client.authorizations(), 2);
}

TEST(StorageGridClient, IsoUtcMillis)
{
    EXPECT_EQ(isoUtcMillis(std::chrono::system_clock::time_point(std::chrono::milliseconds(1780308000123))),
              "2026-06-01T10:00:00.123Z");
    EXPECT_EQ(isoUtcMillis(std::chrono::system_clock::time_point(std::chrono::seconds(0))), "1970-01-01T00:00:00.000Z");
}

TEST(StorageGridClient, AlertHistory_AsksWithTheApisTriggerTimeFilter)
{
    HarnessStoragegridclient h;
    answer(h.grid, "grid/alert-history", json::array());
    auto client = h.client();
    const auto since = std::chrono::system_clock::time_point(std::chrono::milliseconds(1780218000123LL));
    ASSERT_TRUE(client.alertHistory(since));
    const Request asked = h.grid.requests().back();
    EXPECT_EQ(pathOf(asked), "/api/v4/grid/alert-history");
    EXPECT_EQ(queryOf(asked, "timeTriggeredEarliest"), isoUtcMillis(since));
    EXPECT_EQ(queryOf(asked, "timeTriggeredEarliest"), "2026-05-31T09:00:00.123Z");
    EXPECT_FALSE(asked.query.hasQueryItem(QStringLiteral("limit")));

    ASSERT_TRUE(client.alertHistory());
    EXPECT_FALSE(h.grid.requests().back().query.hasQueryItem(QStringLiteral("timeTriggeredEarliest")));
}

namespace {

json sgTenantRecord(int i)
{
    char id[32];
    std::snprintf(id, sizeof id, "%020d", 10000 + i);
    return {{"id", id},
            {"name", "tenant-" + std::to_string(i)},
            {"capabilities", {"management", "s3"}},
            {"policy", {{"quotaObjectBytes", nullptr}}}};
}

/// A grid with `count` tenants that lists them as the swagger documents: grid/accounts with
/// limit (default 25), marker (an id) and includeMarker; grid/accounts-cache with limit only
/// (default 25), in id order, objectCount and dataBytes added. `cached` (<= count) tenants are
/// in the cache; the rest are too new for it.
void routeSgTenants(FakeGrid &grid, int count, int cached)
{
    std::vector<json> all;
    for (int i = 0; i < count; ++i) {
        all.push_back(sgTenantRecord(i));
    }
    auto limitOf = [](const Request &request) {
        const std::string limit = queryOf(request, "limit");
        return limit.empty() ? 25 : std::stoi(limit);
    };
    grid.route("grid/accounts", [all, limitOf](const Request &request, const Responder &responder) {
        const std::string marker = queryOf(request, "marker");
        const bool includeMarker = queryOf(request, "includeMarker") == "true";
        json page = json::array();
        for (const json &t : all) {
            const std::string id = t["id"];
            if (!marker.empty() && !(id > marker || (includeMarker && id == marker))) {
                continue;
            }
            if (static_cast<int>(page.size()) >= limitOf(request)) {
                break;
            }
            page.push_back(t);
        }
        responder.send(Response::json(200, bytes(envelope(page))));
    });
    grid.route("grid/accounts-cache", [all, cached, limitOf](const Request &request, const Responder &responder) {
        json page = json::array();
        for (int i = 0; i < cached && static_cast<int>(page.size()) < limitOf(request); ++i) {
            json t = all[static_cast<std::size_t>(i)];
            t["objectCount"] = i;
            t["dataBytes"] = 1000 * i;
            page.push_back(std::move(t));
        }
        responder.send(Response::json(200, bytes(envelope(page))));
    });
}

void expectEverySgTenant(const std::vector<Account> &accounts, int count, int cached)
{
    ASSERT_EQ(accounts.size(), static_cast<std::size_t>(count));
    std::set<std::string> ids;
    for (int i = 0; i < count; ++i) {
        const Account &a = accounts[static_cast<std::size_t>(i)];
        EXPECT_EQ(a.id, sgTenantRecord(i)["id"].get<std::string>());
        ids.insert(a.id);
        if (i < cached) {
            EXPECT_EQ(a.objectCount, i) << a.name;
            EXPECT_EQ(a.dataBytes, 1000 * i) << a.name;
        } else {
            EXPECT_FALSE(a.objectCount.has_value()) << a.name;
        }
    }
    EXPECT_EQ(ids.size(), static_cast<std::size_t>(count));
}

} // namespace

TEST(StorageGridClient, AccountsCache_ThirtyTenants_AllListedNotTheDefault25)
{
    HarnessStoragegridclient h;
    routeSgTenants(h.grid, 30, 30);
    auto client = h.client(); // pageSize 25, the API's default
    const auto accounts = client.accountsCache();
    ASSERT_TRUE(accounts) << accounts.error().message;
    expectEverySgTenant(*accounts, 30, 30);
    std::vector<std::string> cacheLimits;
    for (const Request &request : h.grid.requests()) {
        if (pathOf(request) == "/api/v4/grid/accounts-cache") {
            cacheLimits.push_back(queryOf(request, "limit"));
            EXPECT_FALSE(request.query.hasQueryItem(QStringLiteral("marker")));
        }
    }
    EXPECT_EQ(cacheLimits, (std::vector<std::string>{"25", "31"}));

    // A grid with fewer tenants than a page: one request.
    HarnessStoragegridclient small;
    routeSgTenants(small.grid, 24, 24);
    auto smallClient = small.client();
    const auto few = smallClient.accountsCache();
    ASSERT_TRUE(few) << few.error().message;
    expectEverySgTenant(*few, 24, 24);
    EXPECT_EQ(small.grid.requests().size(), 3u); // versions, authorize, accounts-cache
}

TEST(StorageGridClient, AccountsCache_ThousandTenants_AllListed)
{
    HarnessStoragegridclient h;
    routeSgTenants(h.grid, 1000, 1000);
    auto options = gridOptions(h.grid.url(), h.sleeper);
    options.pageSize = 100;
    auto client = h.client(options);
    const auto accounts = client.accountsCache();
    ASSERT_TRUE(accounts) << accounts.error().message;
    expectEverySgTenant(*accounts, 1000, 1000);

    const auto listed = client.accounts();
    ASSERT_TRUE(listed) << listed.error().message;
    ASSERT_EQ(listed->size(), 1000u);
    EXPECT_EQ(listed->back().name, "tenant-999");
}

TEST(StorageGridClient, AccountsCache_TenantsTooNewForTheCacheStillListed)
{
    HarnessStoragegridclient h;
    routeSgTenants(h.grid, 40, 33);
    auto client = h.client();
    const auto accounts = client.accountsCache();
    ASSERT_TRUE(accounts) << accounts.error().message;
    expectEverySgTenant(*accounts, 40, 33);
}

TEST(StorageGridClient, Logout_SentOnceWithoutRetries_BoundedByItsTimeout)
{
    FakeGrid grid;
    std::atomic<int> deletes{0};
    grid.route("authorize", [&deletes](const Request &, const Responder &responder) {
        ++deletes;
        Response response = Response::text(204, "");
        response.fault = sim::Fault::Stall;
        responder.send(response);
    });
    answer(grid, "grid/health", json::object());
    RecordingSleeper sleeper;
    StorageGridClient client(std::make_shared<CurlTransport>(fastTransport()), gridOptions(grid.url(), sleeper, 3));
    EXPECT_FALSE(client.hasSession());
    ASSERT_TRUE(client.health());
    EXPECT_TRUE(client.hasSession());
    const auto started = std::chrono::steady_clock::now();
    const auto out = client.logout({}, 300ms);
    const auto took = std::chrono::steady_clock::now() - started;
    ASSERT_FALSE(out);
    EXPECT_EQ(out.error().kind, Kind::Timeout) << out.error().message;
    EXPECT_LT(took, 2s);
    EXPECT_EQ(deletes.load(), 1);
    EXPECT_TRUE(sleeper.delays().empty());
    EXPECT_FALSE(client.hasSession()); // forgotten either way
    ASSERT_TRUE(client.logout({}, 300ms));
    EXPECT_EQ(deletes.load(), 1);
}
