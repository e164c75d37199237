// AzureClient long-running operations: Azure-AsyncOperation and Location polling, terminal
// states, timeouts, and what the caller learns when the outcome is unknown.
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

const std::string kOpPath =
    "/subscriptions/" + kSub + "/providers/Microsoft.NetApp/locations/eastus/operationResults/op-1";

/// Answers the POST/PUT/DELETE with 202 (or `acceptStatus`) + the LRO headers, status polls from
/// `statuses` (the last repeats), and the Location with `locationStatus`.
struct LroScript
{
    std::vector<json> statuses;
    bool asyncHeader = true;
    bool locationHeader = true;
    int acceptStatus = 202;
    QByteArray acceptBody;
    QByteArray retryAfter;                  ///< on the 202 and on each status poll, empty = none
    std::vector<int> locationStatuses{200}; ///< the last repeats
    QByteArray locationBody;
};

class LroServer
{
public:
    explicit LroServer(LroScript script)
        : m_script(std::move(script))
        , m_server([this](const Request &request, const Responder &responder) {
            handle(request, responder);
        })
    {}

    std::string url() const { return m_server.url(); }
    std::vector<Request> requests() const { return m_seen.all(); }
    int count(const char *method, const std::string &p = {}) const
    {
        int n = 0;
        for (const auto &request : m_seen.all()) {
            n += request.method == method && (p.empty() || path(request) == p) ? 1 : 0;
        }
        return n;
    }
    int statusPolls() const
    {
        int n = 0;
        for (const auto &request : m_seen.all()) {
            n += path(request) == kOpPath && query(request, "operationResultResponseType").empty() ? 1 : 0;
        }
        return n;
    }
    int locationPolls() const
    {
        int n = 0;
        for (const auto &request : m_seen.all()) {
            n += query(request, "operationResultResponseType") == "Location" ? 1 : 0;
        }
        return n;
    }

private:
    void handle(const Request &request, const Responder &responder)
    {
        m_seen.add(request);
        const std::string opUrl = origin(request) + kOpPath + "?api-version=2025-06-01";
        if (request.method != "GET") {
            Response response = Response::json(m_script.acceptStatus, m_script.acceptBody);
            if (m_script.asyncHeader) {
                response.withHeader("Azure-AsyncOperation", QByteArray::fromStdString(opUrl));
            }
            if (m_script.locationHeader) {
                response.withHeader("Location",
                                    QByteArray::fromStdString(opUrl + "&operationResultResponseType=Location"));
            }
            if (!m_script.retryAfter.isEmpty()) {
                response.withHeader("Retry-After", m_script.retryAfter);
            }
            responder.send(response);
            return;
        }
        if (path(request) == kOpPath && query(request, "operationResultResponseType") == "Location") {
            const std::size_t i = std::min<std::size_t>(m_locationPolls++, m_script.locationStatuses.size() - 1);
            const int status = m_script.locationStatuses[i];
            responder.send(Response::json(status, status == 200 ? m_script.locationBody : QByteArray()));
            return;
        }
        if (path(request) == kOpPath) {
            const std::size_t i = std::min<std::size_t>(m_statusPolls++, m_script.statuses.size() - 1);
            Response response = Response::json(200, toBytes(m_script.statuses[i]));
            if (!m_script.retryAfter.isEmpty()) {
                response.withHeader("Retry-After", m_script.retryAfter);
            }
            responder.send(response);
            return;
        }
        // A re-read of the resource after a PUT.
        responder.send(Response::json(200, m_script.locationBody));
    }

    LroScript m_script;
    SeenRequests m_seen;
    std::size_t m_statusPolls = 0;
    std::size_t m_locationPolls = 0;
    testsupport::LoopbackServer m_server;
};

json failedDoc(const std::string &code, const std::string &message)
{
    json doc = statusDoc("Failed", 100);
    doc["error"] = {{"code", code},
                    {"message", message},
                    {"details", {{{"code", "ErrorPerformingActionOnResource"}, {"message", message}}}}};
    return doc;
}

} // namespace

TEST(AzureLro, PoolChange_AsyncOperationInProgressTwiceThenSucceeded)
{
    LroScript script;
    script.statuses = {statusDoc("InProgress", 10), statusDoc("Moving", 60), statusDoc("Succeeded", 100)};
    script.retryAfter = "3";
    script.locationStatuses = {200};
    LroServer server(script);
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));
    std::vector<LroStatus> seen;

    const auto newId = client.poolChange(kVolumeId, kPool2, [&seen](const LroStatus &status) {
        seen.push_back(status);
    });

    ASSERT_TRUE(newId) << newId.error().message;
    EXPECT_EQ(*newId, kPool2 + "/volumes/volume1");
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[0].status, "InProgress");
    EXPECT_DOUBLE_EQ(seen[0].percentComplete, 10);
    EXPECT_EQ(seen[1].status, "Moving");
    EXPECT_EQ(seen[2].status, "Succeeded");
    EXPECT_EQ(seen[2].operationId, "op-1");
    EXPECT_EQ(server.count("POST"), 1);
    EXPECT_EQ(server.statusPolls(), 3);
    EXPECT_EQ(server.locationPolls(), 1); // read once for the final result
    const auto requests = server.requests();
    EXPECT_EQ(path(requests[0]), kVolumeId + "/poolChange");
    EXPECT_EQ(json::parse(requests[0].body.toStdString()), json({{"newPoolResourceId", kPool2}}));
    EXPECT_EQ(query(requests[0], "api-version"), "2025-06-01");
    for (const auto &request : requests) {
        EXPECT_EQ(request.query.allQueryItemValues(QStringLiteral("api-version")).size(), 1);
        EXPECT_EQ(request.header("authorization"), QByteArray("Bearer token-1"));
    }
    for (const auto delay : sleeper.delays()) {
        EXPECT_EQ(delay, 3000ms); // Retry-After beats the 1 s poll interval
    }
    EXPECT_EQ(sleeper.delays().size(), 3u);
}

TEST(AzureLro, Revert_LocationOnly_PolledUntilNot202)
{
    LroScript script;
    script.asyncHeader = false;
    script.locationStatuses = {202, 202, 204};
    LroServer server(script);
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));
    int reports = 0;

    const auto reverted = client.revertVolume(kVolumeId, kVolumeId + "/snapshots/s1", [&reports](const LroStatus &s) {
        ++reports;
        EXPECT_EQ(s.status, "InProgress");
    });

    ASSERT_TRUE(reverted) << reverted.error().message;
    EXPECT_EQ(server.locationPolls(), 3);
    EXPECT_EQ(server.statusPolls(), 0);
    EXPECT_EQ(reports, 2);
    EXPECT_EQ(sleeper.delays(), (std::vector<std::chrono::milliseconds>{1000ms, 1000ms, 1000ms}));
    const auto requests = server.requests();
    EXPECT_EQ(path(requests[0]), kVolumeId + "/revert");
    EXPECT_EQ(json::parse(requests[0].body.toStdString()), json({{"snapshotId", kVolumeId + "/snapshots/s1"}}));
}

TEST(AzureLro, Failed_ApiErrorFromStatusDocument)
{
    LroScript script;
    script.statuses = {statusDoc("InProgress", 0), failedDoc("PoolChangeFailed", "The volume could not be moved.")};
    LroServer server(script);
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto moved = client.poolChange(kVolumeId, kPool2);

    ASSERT_FALSE(moved);
    EXPECT_EQ(moved.error().kind, Kind::Api);
    EXPECT_EQ(moved.error().apiCode, "PoolChangeFailed");
    EXPECT_EQ(moved.error().message, "moving volume volume1 to pool pool2 failed: The volume could not be moved.");
    EXPECT_FALSE(moved.error().outcomeUnknown);
    EXPECT_EQ(server.locationPolls(), 0);
}

// Found by tests/fuzz/azure_dto: a status document whose "name" or error fields were not strings
// threw json::type_error out of the client and ended the process.
TEST(AzureLro, StatusDocumentWithNonStringFields_IsReadNotThrown)
{
    LroScript script;
    json inProgress = statusDoc("InProgress", 50);
    inProgress["name"] = 7;
    json failed = statusDoc("Failed", 100);
    failed["error"] = {{"code", 409}, {"message", {{"text", "x"}}}, {"details", {{{"message", false}}}}};
    script.statuses = {inProgress, failed};
    LroServer server(script);
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));
    std::vector<LroStatus> seen;

    const auto moved = client.poolChange(kVolumeId, kPool2, [&seen](const LroStatus &status) {
        seen.push_back(status);
    });

    ASSERT_FALSE(moved);
    EXPECT_EQ(moved.error().kind, Kind::Api);
    EXPECT_EQ(moved.error().apiCode, "Failed");
    EXPECT_EQ(moved.error().message, "moving volume volume1 to pool pool2 failed: no reason given");
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0].operationId, "op-1");
}

TEST(AzureLro, VolumeDeletedMidChange_FailedWithResourceNotFound)
{
    LroScript script;
    script.statuses = {statusDoc("InProgress", 20),
                       failedDoc("ResourceNotFound",
                                 "The Resource 'Microsoft.NetApp/netAppAccounts/account1/capacityPools/pool1/volumes/"
                                 "volume1' under resource group 'myRG' was not found.")};
    LroServer server(script);
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto moved = client.poolChange(kVolumeId, kPool2);

    ASSERT_FALSE(moved);
    EXPECT_EQ(moved.error().kind, Kind::Api);
    EXPECT_EQ(moved.error().apiCode, "ResourceNotFound");
    EXPECT_NE(moved.error().message.find("was not found"), std::string::npos);
}

TEST(AzureLro, LocationOnly_ErrorBody_IsTheOperationsVerdict)
{
    LroScript script;
    script.asyncHeader = false;
    script.locationStatuses = {202, 404};
    LroServer server(script);
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto moved = client.poolChange(kVolumeId, kPool2);

    ASSERT_FALSE(moved);
    EXPECT_EQ(moved.error().httpStatus, 404);
    EXPECT_TRUE(moved.error().outcomeUnknown); // no ARM body: the outcome is not known
}

TEST(AzureLro, Canceled_ApiError)
{
    LroScript script;
    script.statuses = {statusDoc("Canceled", 40)};
    LroServer server(script);
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto moved = client.poolChange(kVolumeId, kPool2);

    ASSERT_FALSE(moved);
    EXPECT_EQ(moved.error().kind, Kind::Api);
    EXPECT_EQ(moved.error().apiCode, "Canceled");
    EXPECT_EQ(moved.error().message, "moving volume volume1 to pool pool2 was canceled");
}

TEST(AzureLro, NeverEnds_TimeoutOutcomeUnknownAndExactlyOnePost)
{
    LroScript script;
    script.statuses = {statusDoc("InProgress", 50)};
    LroServer server(script);
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    auto options = clientOptions(server.url(), sleeper);
    options.lroPollInterval = 2s;
    options.lroTimeout = 10s;
    AzureClient client(transport, tokens, options);

    const auto moved = client.poolChange(kVolumeId, kPool2);

    ASSERT_FALSE(moved);
    EXPECT_EQ(moved.error().kind, Kind::Timeout);
    EXPECT_TRUE(moved.error().outcomeUnknown);
    EXPECT_EQ(moved.error().message,
              "moving volume volume1 to pool pool2 still running after 10 s (last status InProgress, operation op-1); "
              "Strata did not retry it");
    EXPECT_EQ(server.count("POST"), 1);
    EXPECT_EQ(server.statusPolls(), 5); // 5 waits of 2 s
}

TEST(AzureLro, PollingFailsAfterAcceptance_OutcomeUnknown)
{
    std::atomic<int> polls{0};
    LoopbackServer server([&polls](const Request &request, const Responder &responder) {
        if (request.method == "POST") {
            responder.send(Response::json(202, {}).withHeader(
                "Azure-AsyncOperation",
                QByteArray::fromStdString(origin(request) + kOpPath + "?api-version=2025-06-01")));
            return;
        }
        ++polls;
        responder.send(Response::json(500, toBytes(armErrorBody("InternalServerError", "Something went wrong."))));
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto reverted = client.revertVolume(kVolumeId, kVolumeId + "/snapshots/s");

    ASSERT_FALSE(reverted);
    EXPECT_TRUE(reverted.error().outcomeUnknown);
    EXPECT_EQ(reverted.error().apiCode, "InternalServerError");
    EXPECT_EQ(polls.load(), 1); // 500 is not retryable; the POST is never resent
}

TEST(AzureLro, MalformedStatusDocument_ParseOutcomeUnknown)
{
    LroScript script;
    script.statuses = {json{{"name", "op-1"}, {"percentComplete", 5}}}; // no status
    LroServer server(script);
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto moved = client.poolChange(kVolumeId, kPool2);

    ASSERT_FALSE(moved);
    EXPECT_EQ(moved.error().kind, Kind::Parse);
    EXPECT_TRUE(moved.error().outcomeUnknown);
}

TEST(AzureLro, CancelledWhileWaiting_CancelledOutcomeUnknown)
{
    LroScript script;
    script.statuses = {statusDoc("InProgress", 50)};
    LroServer server(script);
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));
    CancelToken cancel;
    int reports = 0;

    const auto moved = client.poolChange(
        kVolumeId,
        kPool2,
        [&](const LroStatus &) {
            if (++reports == 2) {
                cancel.cancel();
            }
        },
        cancel);

    ASSERT_FALSE(moved);
    EXPECT_EQ(moved.error().kind, Kind::Cancelled);
    EXPECT_TRUE(moved.error().outcomeUnknown);
    EXPECT_EQ(server.statusPolls(), 2);
}

TEST(AzureLro, PoolFull_RejectedUpFront_NoPolling)
{
    SeenRequests seen;
    LoopbackServer server([&seen](const Request &request, const Responder &responder) {
        seen.add(request);
        responder.send(Response::json(
            400,
            toBytes(armErrorBody("PoolSizeTooSmall",
                                 "The capacity pool 'pool2' does not have enough free space: 500 GiB are needed, "
                                 "200 GiB are free."))));
    });
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto moved = client.poolChange(kVolumeId, kPool2);

    ASSERT_FALSE(moved);
    EXPECT_EQ(moved.error().kind, Kind::Api);
    EXPECT_EQ(moved.error().apiCode, "PoolSizeTooSmall");
    EXPECT_EQ(moved.error().httpStatus, 400);
    EXPECT_FALSE(moved.error().outcomeUnknown);
    EXPECT_EQ(seen.all().size(), 1u);
}

TEST(AzureLro, CreateSnapshot_Put201ThenReadsResource)
{
    const json snapshot = {{"id", kVolumeId + "/snapshots/snap-1"},
                           {"name", "account1/pool1/volume1/snap-1"},
                           {"type", "Microsoft.NetApp/netAppAccounts/capacityPools/volumes/snapshots"},
                           {"location", "eastus"},
                           {"properties",
                            {{"snapshotId", "9760acf5-4638-11e7-9bdb-020073ca3333"},
                             {"created", "2026-01-01T00:00:00Z"},
                             {"provisioningState", "Succeeded"}}}};
    json creating = snapshot;
    creating["properties"]["provisioningState"] = "Creating";
    LroScript script;
    script.acceptStatus = 201;
    script.acceptBody = toBytes(creating);
    script.locationHeader = false;
    script.statuses = {statusDoc("Creating", 0), statusDoc("Succeeded", 100)};
    script.locationBody = toBytes(snapshot);
    LroServer server(script);
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto created = client.createSnapshot(kVolumeId, "snap-1", "eastus");

    ASSERT_TRUE(created) << created.error().message;
    EXPECT_EQ(created->provisioningState, "Succeeded");
    EXPECT_EQ(created->snapshotId, "9760acf5-4638-11e7-9bdb-020073ca3333");
    const auto requests = server.requests();
    EXPECT_EQ(requests[0].method, QByteArray("PUT"));
    EXPECT_EQ(path(requests[0]), kVolumeId + "/snapshots/snap-1");
    EXPECT_EQ(json::parse(requests[0].body.toStdString()), json({{"location", "eastus"}}));
    EXPECT_EQ(server.count("GET", kVolumeId + "/snapshots/snap-1"), 1); // the re-read after Succeeded
}

TEST(AzureLro, CreatePool_BodyAndResult)
{
    const std::string poolId = kAccountId + "/capacityPools/pool-ultra";
    const json pool = {{"id", poolId},
                       {"name", "account1/pool-ultra"},
                       {"location", "eastus"},
                       {"properties",
                        {{"poolId", "p-1"},
                         {"serviceLevel", "Ultra"},
                         {"size", 2199023255552},
                         {"qosType", "Auto"},
                         {"totalThroughputMibps", 256.0},
                         {"utilizedThroughputMibps", 0.0},
                         {"provisioningState", "Succeeded"}}}};
    LroScript script;
    script.acceptStatus = 201;
    script.acceptBody = toBytes(pool);
    script.locationHeader = false;
    script.statuses = {statusDoc("Succeeded", 100)};
    script.locationBody = toBytes(pool);
    LroServer server(script);
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto created = client.createPool(kAccountId, "pool-ultra", "eastus", "Ultra", 2199023255552);

    ASSERT_TRUE(created) << created.error().message;
    EXPECT_EQ(created->id, poolId);
    EXPECT_EQ(created->serviceLevel, "Ultra");
    EXPECT_DOUBLE_EQ(created->totalThroughputMibps, 256.0);
    const auto requests = server.requests();
    EXPECT_EQ(requests[0].method, QByteArray("PUT"));
    EXPECT_EQ(path(requests[0]), poolId);
    EXPECT_EQ(json::parse(requests[0].body.toStdString()),
              json({{"location", "eastus"},
                    {"properties", {{"serviceLevel", "Ultra"}, {"size", 2199023255552}, {"qosType", "Auto"}}}}));
}

TEST(AzureLro, DeleteSnapshot_202ThenDone)
{
    LroScript script;
    script.statuses = {statusDoc("Deleting", 0), statusDoc("Succeeded", 100)};
    script.locationStatuses = {204};
    LroServer server(script);
    FakeTokens tokens;
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    AzureClient client(transport, tokens, clientOptions(server.url(), sleeper));

    const auto deleted = client.deleteSnapshot(kVolumeId + "/snapshots/s1");

    ASSERT_TRUE(deleted) << deleted.error().message;
    EXPECT_EQ(server.count("DELETE", kVolumeId + "/snapshots/s1"), 1);
    EXPECT_EQ(server.statusPolls(), 2);
}
