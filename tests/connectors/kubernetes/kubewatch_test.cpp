// Streaming transport and KubeClient::watch against chunked streams from sim::HttpServer.
#include "tests/connectors/kubernetes/kubetestsupport.h"

#include <QTimer>

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace strata;
using namespace strata::kubernetes;
using namespace strata::kubernetes::test;
using http::CancelToken;
using http::CurlTransport;
using http::HttpRequest;
using nlohmann::json;
using sim::Request;
using sim::Responder;
using sim::Response;
using testsupport::LoopbackServer;

namespace {

/// Writes `chunks` one per 10 ms, then ends the stream (or leaves it open / drops it).
enum class StreamEnd
{
    End,
    Open,
};

void streamChunks(const Responder &responder, std::vector<std::string> chunks, StreamEnd end = StreamEnd::End)
{
    responder.beginStream(200, {{"Content-Type", "application/json"}});
    int delay = 10;
    for (const auto &chunk : chunks) {
        QTimer::singleShot(std::chrono::milliseconds{delay}, [responder, chunk] {
            responder.writeChunk(QByteArray::fromStdString(chunk));
        });
        delay += 10;
    }
    if (end == StreamEnd::End) {
        QTimer::singleShot(std::chrono::milliseconds{delay}, [responder] {
            responder.endStream();
        });
    }
}

HttpRequest get(const std::string &url)
{
    HttpRequest request;
    request.url = url;
    return request;
}

} // namespace

TEST(KubeTransport, Stream_DeliversChunksAsTheyArriveAndStopsOnFalse)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        // Never ends: only an early stop can return.
        streamChunks(responder, {"first\n", "second\n"}, StreamEnd::Open);
    });
    CurlTransport transport(fastTransport());
    std::string received;

    const auto result = transport.stream(
        get(server.url("/watch")),
        [&received](std::string_view chunk) {
            received.append(chunk);
            return received.find("second") == std::string::npos;
        },
        CancelToken{});

    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, 200);
    EXPECT_TRUE(result->body.empty());
    EXPECT_EQ(received, "first\nsecond\n");
    EXPECT_EQ(transport.inFlight(), 0);
}

TEST(KubeTransport, Stream_ErrorStatusBodyCollectedNotStreamed)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        responder.send(Response::json(410, toBytes(status(410, "Expired", "too old resource version: 1 (5)"))));
    });
    CurlTransport transport(fastTransport());
    int calls = 0;

    const auto result = transport.stream(
        get(server.url("/watch")),
        [&calls](std::string_view) {
            ++calls;
            return true;
        },
        CancelToken{});

    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, 410);
    EXPECT_NE(result->body.find("too old resource version"), std::string::npos);
    EXPECT_EQ(calls, 0);
}

TEST(KubeTransport, Stream_NoTotalTimeoutButIdleTimeoutNoticesDeadStream)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        // Headers only, then silence. (After data, libcurl's speed window of about five seconds
        // delays the verdict; the 120 s default makes that irrelevant in production.)
        streamChunks(responder, {}, StreamEnd::Open);
    });
    auto options = fastTransport();
    options.totalTimeout = 200ms; // not applied to streams
    options.streamIdleTimeout = 1s;
    CurlTransport transport(options);
    std::string received;

    const auto started = std::chrono::steady_clock::now();
    const auto result = transport.stream(
        get(server.url("/watch")),
        [&received](std::string_view chunk) {
            received.append(chunk);
            return true;
        },
        CancelToken{});

    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, connectors::Error::Kind::Timeout) << result.error().message;
    EXPECT_TRUE(received.empty());
    EXPECT_GE(std::chrono::steady_clock::now() - started, 900ms);
}

TEST(KubeTransport, Stream_CancelEndsWithCancelled)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        streamChunks(responder, {"x\n"}, StreamEnd::Open);
    });
    CurlTransport transport(fastTransport());
    CancelToken cancel;

    const auto result = transport.stream(
        get(server.url("/watch")),
        [&cancel](std::string_view) {
            cancel.cancel();
            return true;
        },
        cancel);

    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, connectors::Error::Kind::Cancelled);
}

TEST(KubeWatch, EventsSplitAcrossChunks_JoinedAndBatchedPerChunk)
{
    const std::string added = eventLine("ADDED", podObject("a", "p1", "11"));
    const std::string modified = eventLine("MODIFIED", podObject("a", "p1", "12"));
    const std::string deleted = eventLine("DELETED", podObject("a", "p2", "13"));
    const std::string mark = eventLine("BOOKMARK", bookmark("14"));
    std::vector<std::string> chunks{added.substr(0, 10),
                                    added.substr(10) + modified.substr(0, 5),
                                    modified.substr(5) + deleted + mark.substr(0, mark.size() - 1)};
    // The last event has no trailing newline: the stream end completes it.
    std::string lastQuery;
    std::mutex mutex;
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        {
            std::lock_guard lock(mutex);
            lastQuery = request.target.toStdString();
        }
        streamChunks(responder, chunks);
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());
    std::vector<std::vector<WatchEvent>> batches;
    WatchOptions options;
    options.namespace_ = "a";
    options.resourceVersion = "10";
    options.timeoutSeconds = 60;

    const auto end = client.watchBatches(
        kPods,
        options,
        [&batches](std::vector<WatchEvent> &events) {
            batches.push_back(events);
            return true;
        },
        CancelToken{});

    ASSERT_TRUE(end) << end.error().message;
    EXPECT_EQ(*end, WatchEnd::Closed);
    ASSERT_EQ(batches.size(), 3u);
    ASSERT_EQ(batches[0].size(), 1u); // chunk 2 completes ADDED
    EXPECT_EQ(batches[0][0].type, WatchEvent::Type::Added);
    EXPECT_EQ(batches[0][0].object["kind"], "Pod");
    ASSERT_EQ(batches[1].size(), 2u); // chunk 3 completes MODIFIED and DELETED
    EXPECT_EQ(batches[1][0].type, WatchEvent::Type::Modified);
    EXPECT_EQ(batches[1][1].type, WatchEvent::Type::Deleted);
    ASSERT_EQ(batches[2].size(), 1u); // the unterminated bookmark at the end
    EXPECT_EQ(batches[2][0].type, WatchEvent::Type::Bookmark);
    EXPECT_EQ(batches[2][0].object["metadata"]["resourceVersion"], "14");
    std::lock_guard lock(mutex);
    EXPECT_NE(lastQuery.find("/api/v1/namespaces/a/pods?watch=1&allowWatchBookmarks=true&resourceVersion=10"),
              std::string::npos)
        << lastQuery;
    EXPECT_NE(lastQuery.find("timeoutSeconds=60"), std::string::npos);
}

TEST(KubeWatch, ErrorEvent410_Expired)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        streamChunks(responder,
                     {eventLine("ADDED", podObject("a", "p1", "11")),
                      eventLine("ERROR", status(410, "Expired", "too old resource version: 5 (11)")),
                      eventLine("ADDED", podObject("a", "never", "12"))},
                     StreamEnd::Open);
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());
    std::vector<std::string> seen;

    const auto end = client.watch(
        kPods,
        WatchOptions{.resourceVersion = "5"},
        [&seen](WatchEvent event) {
            seen.push_back(objectKey(event.object));
            return true;
        },
        CancelToken{});

    ASSERT_TRUE(end) << end.error().message;
    EXPECT_EQ(*end, WatchEnd::Expired);
    EXPECT_EQ(seen, std::vector<std::string>{"a/p1"});
}

TEST(KubeWatch, Http410_Expired)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        responder.send(Response::json(410, toBytes(status(410, "Expired", "too old resource version: 1 (50)"))));
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());

    const auto end = client.watch(
        kNodes,
        WatchOptions{.resourceVersion = "1"},
        [](WatchEvent) {
            return true;
        },
        CancelToken{});

    ASSERT_TRUE(end) << end.error().message;
    EXPECT_EQ(*end, WatchEnd::Expired);
}

TEST(KubeWatch, OtherErrorEvent_ApiError)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        streamChunks(responder, {eventLine("ERROR", status(500, "InternalError", "etcd is unhappy"))}, StreamEnd::Open);
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());

    const auto end = client.watch(
        kNodes,
        WatchOptions{},
        [](WatchEvent) {
            return true;
        },
        CancelToken{});

    ASSERT_FALSE(end);
    EXPECT_EQ(end.error().kind, connectors::Error::Kind::Api);
    EXPECT_EQ(end.error().apiCode, "InternalError");
    EXPECT_NE(end.error().message.find("etcd is unhappy"), std::string::npos);
}

// Found by tests/fuzz/kube_watch: an ERROR event whose Status code was not a number threw
// json::type_error out of the stream callback and ended the process.
TEST(KubeWatch, ErrorEventWithNonNumericCode_ApiErrorNotThrown)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        json bad = status(410, "Expired", "too old resource version");
        bad["code"] = "410";
        streamChunks(responder, {eventLine("ERROR", bad)}, StreamEnd::Open);
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());

    const auto end = client.watch(
        kNodes,
        WatchOptions{},
        [](WatchEvent) {
            return true;
        },
        CancelToken{});

    ASSERT_FALSE(end);
    EXPECT_EQ(end.error().kind, connectors::Error::Kind::Api);
    EXPECT_EQ(end.error().httpStatus, 500);
    EXPECT_EQ(end.error().apiCode, "Expired");
}

// Found by fuzzing (tests/fuzz/kube_watch): the ERROR event's object was dumped whole for the
// Status reader, recursing once per nesting level: a deeply nested member overflowed the stack.
TEST(KubeWatch, EventNestedDeep_SkippedAtTheDepthLimitWithoutRecursion)
{
    // Found by the kube_watch fuzz target: an ERROR event with a member nested 500,000 deep
    // overflowed the stack when its Status was dumped. Such a document is now refused while it
    // is parsed (connectors/http/jsonparse.h), and the watch goes on with the next event.
    constexpr std::size_t levels = 500'000;
    const std::string deep = R"({"type":"ERROR","object":{"kind":"Status","code":500,"reason":"InternalError",)"
                             R"("message":"etcd is unhappy","details":{"retryAfterSeconds":3},"x":)"
                             + std::string(levels, '[') + std::string(levels, ']') + "}}\n";
    LoopbackServer server([deep](const Request &, const Responder &responder) {
        streamChunks(responder, {deep, eventLine("ADDED", podObject("a", "after", "4"))});
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());
    std::vector<std::string> problems;
    std::vector<std::string> seen;
    WatchOptions options;
    options.onSkipped = [&problems](const connectors::Error &error) {
        problems.push_back(error.message);
    };

    const auto end = client.watch(
        kPods,
        options,
        [&seen](WatchEvent event) {
            seen.push_back(objectKey(event.object));
            return true;
        },
        CancelToken{});

    ASSERT_TRUE(end) << end.error().message;
    EXPECT_EQ(seen, std::vector<std::string>{"a/after"});
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("watch event with JSON nested deeper than 256 levels, skipped"), std::string::npos)
        << problems[0];
}

TEST(KubeWatch, MalformedEvents_ReportedAndSkippedOthersDelivered)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        streamChunks(responder,
                     {"{not json at all\n",
                      eventLine("ADDED", json{{"metadata", {{"namespace", "a"}}}}),
                      eventLine("WIBBLE", podObject("a", "x")) + eventLine("ADDED", podObject("a", "ok", "3")),
                      "[1,2]\n"});
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());
    std::vector<std::string> problems;
    std::vector<std::string> seen;
    WatchOptions options;
    options.onSkipped = [&problems](const connectors::Error &error) {
        EXPECT_EQ(error.kind, connectors::Error::Kind::Parse);
        problems.push_back(error.message);
    };

    const auto end = client.watch(
        kPods,
        options,
        [&seen](WatchEvent event) {
            seen.push_back(objectKey(event.object));
            return true;
        },
        CancelToken{});

    ASSERT_TRUE(end) << end.error().message;
    EXPECT_EQ(*end, WatchEnd::Closed);
    EXPECT_EQ(seen, std::vector<std::string>{"a/ok"});
    ASSERT_EQ(problems.size(), 4u);
    EXPECT_NE(problems[0].find("malformed watch event \"{not json at all\""), std::string::npos) << problems[0];
    EXPECT_NE(problems[1].find("no metadata.name"), std::string::npos) << problems[1];
    EXPECT_NE(problems[2].find("without a known type"), std::string::npos) << problems[2];
}

TEST(KubeWatch, DroppedAfterStart_ClosedNotError)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        responder.beginStream(200, {{"Content-Type", "application/json"}});
        responder.writeChunk(QByteArray::fromStdString(eventLine("ADDED", podObject("a", "p1", "7"))));
        // Drop the connection mid-stream, without the terminating chunk.
        QTimer::singleShot(20ms, [responder] {
            responder.send(
                Response{.status = 200, .headers = {}, .body = {}, .delay = 0ms, .fault = sim::Fault::Reset});
        });
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());
    int events = 0;

    const auto end = client.watch(
        kPods,
        WatchOptions{},
        [&events](WatchEvent) {
            ++events;
            return true;
        },
        CancelToken{});

    ASSERT_TRUE(end) << end.error().message;
    EXPECT_EQ(*end, WatchEnd::Closed);
    EXPECT_EQ(events, 1);
}

TEST(KubeWatch, Unauthorized_AuthErrorBeforeStream)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        responder.send(Response::json(401, toBytes(status(401, "Unauthorized", "Unauthorized"))));
    });
    CurlTransport transport(fastTransport());
    KubeClient client(transport, endpointFor(server), fastRetry());

    const auto end = client.watch(
        kPods,
        WatchOptions{},
        [](WatchEvent) {
            return true;
        },
        CancelToken{});

    ASSERT_FALSE(end);
    EXPECT_EQ(end.error().kind, connectors::Error::Kind::Auth);
}
