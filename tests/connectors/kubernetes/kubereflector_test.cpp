// Reflector: list, watch, re-watch, re-list and backoff against scripted API server handlers, each
// case both blocking on its own thread (run()) and as events of a shared CurlLoop (start()).
#include "connectors/kubernetes/reflector.h"
#include "tests/connectors/kubernetes/kubetestsupport.h"

#include <QTimer>

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

using namespace strata;
using namespace strata::kubernetes;
using namespace strata::kubernetes::test;
using http::CancelToken;
using http::CurlTransport;
using http::test::RecordingSleeper;
using nlohmann::json;
using sim::Request;
using sim::Responder;
using sim::Response;
using testsupport::LoopbackServer;

namespace {

/// Records what a Reflector delivered; thread: the test thread (run() caller).
struct Recorder
{
    std::vector<Reflector::Batch> batches;
    std::vector<connectors::Error> errors;

    Reflector::BatchHandler onBatch()
    {
        return [this](Reflector::Batch &&batch) {
            batches.push_back(std::move(batch));
        };
    }
    Reflector::ErrorHandler onError()
    {
        return [this](const connectors::Error &error) {
            errors.push_back(error);
        };
    }
};

std::vector<std::string> keys(const std::vector<json> &objects)
{
    std::vector<std::string> out;
    for (const auto &o : objects) {
        out.push_back(objectKey(o));
    }
    return out;
}

/// The requests a scripted server saw, split into lists and watches.
struct Script
{
    std::mutex mutex;
    std::vector<std::string> watchVersions; ///< resourceVersion= of each watch request
    int lists = 0;

    int addWatch(const Request &request)
    {
        std::lock_guard lock(mutex);
        watchVersions.push_back(query(request, "resourceVersion"));
        return static_cast<int>(watchVersions.size());
    }
    int addList()
    {
        std::lock_guard lock(mutex);
        return ++lists;
    }
};

bool isWatch(const Request &request)
{
    return query(request, "watch") == "1";
}

void stream(const Responder &responder, const std::string &body, bool end = true)
{
    responder.beginStream(200, {{"Content-Type", "application/json"}});
    QTimer::singleShot(5ms, [responder, body, end] {
        responder.writeChunk(QByteArray::fromStdString(body));
        if (end) {
            responder.endStream();
        }
    });
}

/// Holds a watch open until the client goes away (the test cancels).
void hold(const Responder &responder)
{
    responder.beginStream(200, {{"Content-Type", "application/json"}});
}

Reflector::Options options(RecordingSleeper &sleeper)
{
    Reflector::Options o;
    o.list.limit = 100;
    o.watchTimeoutSeconds = 30;
    o.minBackoff = 500ms;
    o.maxBackoff = 4s;
    o.sleeper = sleeper.sleeper();
    return o;
}

enum class ReflectorMode
{
    Thread, ///< run(): blocks the calling thread
    Loop,   ///< start(): events of a CurlLoop
};

} // namespace

class KubeReflector : public ::testing::TestWithParam<ReflectorMode>
{
protected:
    /// Runs `reflector` until `cancel` fires, in the mode under test, on this thread.
    static void runReflector(Reflector &reflector, const CancelToken &cancel)
    {
        if (GetParam() == ReflectorMode::Thread) {
            reflector.run(cancel);
            return;
        }
        http::CurlLoop loop(fastTransport());
        std::thread stopper([&] {
            while (!cancel.isCancelled()) {
                std::this_thread::sleep_for(5ms);
            }
            loop.stop();
        });
        reflector.start(loop, cancel);
        loop.run();
        stopper.join();
        reflector.stop();
    }
};

INSTANTIATE_TEST_SUITE_P(Modes,
                         KubeReflector,
                         ::testing::Values(ReflectorMode::Thread, ReflectorMode::Loop),
                         [](const ::testing::TestParamInfo<ReflectorMode> &info) {
                             return info.param == ReflectorMode::Thread ? std::string("Thread") : std::string("Loop");
                         });

TEST_P(KubeReflector, ListWatchRewatchFromBookmarkAndRelistOnExpired)
{
    Script script;
    CancelToken cancel;
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        if (!isWatch(request)) {
            const int n = script.addList();
            if (n == 1) {
                responder.send(
                    Response::json(200, toBytes(listBody({podObject("a", "p1"), podObject("a", "p2")}, "10"))));
            } else {
                responder.send(Response::json(
                    200, toBytes(listBody({podObject("a", "p2"), podObject("a", "p3"), podObject("b", "p4")}, "20"))));
            }
            return;
        }
        switch (script.addWatch(request)) {
        case 1:
            stream(responder,
                   eventLine("ADDED", podObject("a", "p3", "11")) + eventLine("DELETED", podObject("a", "p1", "12"))
                       + eventLine("BOOKMARK", bookmark("15")));
            break;
        case 2:
            stream(responder, eventLine("ERROR", status(410, "Expired", "too old resource version: 15 (19)")), false);
            break;
        default:
            cancel.cancel();
            hold(responder);
            break;
        }
    });
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    KubeClient client(transport, endpointFor(server), fastRetry(), sleeper.sleeper());
    Recorder recorder;
    Reflector reflector(client, kPods, options(sleeper), recorder.onBatch(), recorder.onError());

    runReflector(reflector, cancel);

    ASSERT_EQ(recorder.batches.size(), 3u);
    EXPECT_TRUE(recorder.batches[0].replace);
    EXPECT_EQ(keys(recorder.batches[0].upserts), (std::vector<std::string>{"a/p1", "a/p2"}));
    EXPECT_EQ(recorder.batches[0].resourceVersion, "10");
    EXPECT_FALSE(recorder.batches[1].replace); // one chunk, one batch
    EXPECT_EQ(keys(recorder.batches[1].upserts), std::vector<std::string>{"a/p3"});
    EXPECT_EQ(recorder.batches[1].deletedKeys, std::vector<std::string>{"a/p1"});
    EXPECT_EQ(recorder.batches[1].resourceVersion, "15"); // the bookmark in the same chunk
    EXPECT_TRUE(recorder.batches[2].replace);
    EXPECT_EQ(keys(recorder.batches[2].upserts), (std::vector<std::string>{"a/p2", "a/p3", "b/p4"}));
    EXPECT_EQ(recorder.batches[2].resourceVersion, "20");
    std::lock_guard lock(script.mutex);
    EXPECT_EQ(script.lists, 2);
    EXPECT_EQ(script.watchVersions, (std::vector<std::string>{"10", "15", "20"}));
    EXPECT_TRUE(recorder.errors.empty());
    EXPECT_TRUE(sleeper.delays().empty()); // no backoff on a clean close or an expiry
}

// decodePods: list pages and watch events arrive as PodDto records (the streaming decoder), the
// resourceVersion still follows events and bookmarks, deletes still name their keys, and an
// object the decoder leaves to the DOM route (a repeated key) arrives all the same.
TEST_P(KubeReflector, DecodedPods_ListAndWatchDeliverRecords)
{
    Script script;
    CancelToken cancel;
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        if (!isWatch(request)) {
            script.addList();
            json labelled = podObject("a", "p2");
            labelled["metadata"]["labels"] = {{"job-name", "train"}};
            responder.send(Response::json(200, toBytes(listBody({podObject("a", "p1"), labelled}, "10"))));
            return;
        }
        if (script.addWatch(request) == 1) {
            stream(responder,
                   eventLine("ADDED", podObject("a", "p3", "11")) + eventLine("DELETED", podObject("a", "p1", "12"))
                       + R"({"type":"MODIFIED","object":{"metadata":{"namespace":"a","name":"x","name":"p2",)"
                         R"("resourceVersion":"13"}}})"
                         "\n"
                       + eventLine("BOOKMARK", bookmark("15")));
        } else {
            cancel.cancel();
            hold(responder);
        }
    });
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    KubeClient client(transport, endpointFor(server), fastRetry(), sleeper.sleeper());
    Recorder recorder;
    Reflector::Options decoded = options(sleeper);
    decoded.list.decodePods = true;
    Reflector reflector(client, kPods, decoded, recorder.onBatch(), recorder.onError());

    runReflector(reflector, cancel);

    ASSERT_EQ(recorder.batches.size(), 2u);
    const Reflector::Batch &list = recorder.batches[0];
    EXPECT_TRUE(list.replace);
    EXPECT_TRUE(list.upserts.empty());
    ASSERT_EQ(list.pods.size(), 2u);
    EXPECT_EQ(list.pods[0].key(), "a/p1");
    EXPECT_EQ(list.pods[1].jobName, "train");
    const Reflector::Batch &events = recorder.batches[1];
    EXPECT_TRUE(events.upserts.empty());
    ASSERT_EQ(events.pods.size(), 2u);
    EXPECT_EQ(events.pods[0].key(), "a/p3");
    EXPECT_EQ(events.pods[1].key(), "a/p2"); // the DOM route keeps the last "name"
    EXPECT_EQ(events.deletedKeys, std::vector<std::string>{"a/p1"});
    EXPECT_EQ(events.resourceVersion, "15");
    std::lock_guard lock(script.mutex);
    EXPECT_EQ(script.watchVersions, (std::vector<std::string>{"10", "15"}));
    EXPECT_TRUE(recorder.errors.empty());
}

TEST_P(KubeReflector, DroppedWatch_RewatchesFromLastSeenVersionWithoutRelist)
{
    Script script;
    CancelToken cancel;
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        if (!isWatch(request)) {
            script.addList();
            responder.send(Response::json(200, toBytes(listBody({podObject("a", "p1")}, "10"))));
            return;
        }
        if (script.addWatch(request) == 1) {
            responder.beginStream(200, {{"Content-Type", "application/json"}});
            responder.writeChunk(QByteArray::fromStdString(eventLine("MODIFIED", podObject("a", "p1", "13"))));
            QTimer::singleShot(20ms, [responder] {
                responder.send(
                    Response{.status = 200, .headers = {}, .body = {}, .delay = 0ms, .fault = sim::Fault::Reset});
            });
        } else {
            cancel.cancel();
            hold(responder);
        }
    });
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    KubeClient client(transport, endpointFor(server), fastRetry(), sleeper.sleeper());
    Recorder recorder;
    Reflector reflector(client, kPods, options(sleeper), recorder.onBatch(), recorder.onError());

    runReflector(reflector, cancel);

    std::lock_guard lock(script.mutex);
    EXPECT_EQ(script.lists, 1);
    EXPECT_EQ(script.watchVersions, (std::vector<std::string>{"10", "13"}));
    ASSERT_EQ(recorder.batches.size(), 2u);
    EXPECT_EQ(recorder.batches[1].resourceVersion, "13");
    EXPECT_EQ(reflector.stats().lists, 1);
}

TEST_P(KubeReflector, Http410OnWatch_Relists)
{
    Script script;
    CancelToken cancel;
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        if (!isWatch(request)) {
            const int n = script.addList();
            responder.send(Response::json(
                200, toBytes(listBody({podObject("a", "p" + std::to_string(n))}, std::to_string(n * 10)))));
            return;
        }
        if (script.addWatch(request) == 1) {
            responder.send(Response::json(410, toBytes(status(410, "Expired", "too old resource version: 10 (99)"))));
        } else {
            cancel.cancel();
            hold(responder);
        }
    });
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    KubeClient client(transport, endpointFor(server), fastRetry(), sleeper.sleeper());
    Recorder recorder;
    Reflector reflector(client, kPods, options(sleeper), recorder.onBatch(), recorder.onError());

    runReflector(reflector, cancel);

    std::lock_guard lock(script.mutex);
    EXPECT_EQ(script.lists, 2);
    EXPECT_EQ(script.watchVersions, (std::vector<std::string>{"10", "20"}));
    ASSERT_EQ(recorder.batches.size(), 2u);
    EXPECT_TRUE(recorder.batches[1].replace);
    EXPECT_EQ(keys(recorder.batches[1].upserts), std::vector<std::string>{"a/p2"});
}

TEST_P(KubeReflector, ErrorsReportedBackedOffAndRetried)
{
    Script script;
    CancelToken cancel;
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        if (!isWatch(request)) {
            if (script.addList() == 1) {
                responder.send(
                    Response::json(500, toBytes(status(500, "InternalError", "etcdserver: leader changed"))));
            } else {
                json body = listBody({podObject("a", "p1"), podObject("a", "p2")}, "10");
                body["items"].push_back(json{{"metadata", {{"namespace", "a"}}}});
                responder.send(Response::json(200, toBytes(body)));
            }
            return;
        }
        switch (script.addWatch(request)) {
        case 1:
            responder.send(Response::json(429, toBytes(status(429, "TooManyRequests", "too many requests")))
                               .withHeader("Retry-After", "7"));
            break;
        case 2:
            stream(responder, "garbage line\n" + eventLine("ADDED", podObject("a", "p3", "11")));
            break;
        default:
            cancel.cancel();
            hold(responder);
            break;
        }
    });
    CurlTransport transport(fastTransport());
    RecordingSleeper clientSleeper;
    KubeClient client(transport, endpointFor(server), fastRetry(1), clientSleeper.sleeper());
    RecordingSleeper sleeper;
    Recorder recorder;
    Reflector reflector(client, kPods, options(sleeper), recorder.onBatch(), recorder.onError());

    runReflector(reflector, cancel);

    ASSERT_EQ(recorder.errors.size(), 4u);
    EXPECT_EQ(recorder.errors[0].httpStatus, 500); // failed list
    EXPECT_NE(recorder.errors[0].message.find("leader changed"), std::string::npos);
    EXPECT_EQ(recorder.errors[1].kind, connectors::Error::Kind::Parse); // the nameless list item
    EXPECT_EQ(recorder.errors[2].httpStatus, 429);                      // the throttled watch
    EXPECT_EQ(recorder.errors[3].kind, connectors::Error::Kind::Parse); // the garbage watch line
    const auto delays = sleeper.delays();
    ASSERT_EQ(delays.size(), 2u);
    EXPECT_EQ(delays[0], 500ms);  // after the failed list
    EXPECT_GE(delays[1], 7000ms); // Retry-After is a floor for the watch backoff
    ASSERT_EQ(recorder.batches.size(), 2u);
    EXPECT_EQ(keys(recorder.batches[0].upserts), (std::vector<std::string>{"a/p1", "a/p2"}));
    EXPECT_EQ(keys(recorder.batches[1].upserts), std::vector<std::string>{"a/p3"});
    std::lock_guard lock(script.mutex);
    EXPECT_EQ(script.watchVersions, (std::vector<std::string>{"10", "10", "11"}));
}

TEST_P(KubeReflector, BackoffDoublesAndCaps)
{
    std::atomic<int> lists{0};
    CancelToken cancel;
    LoopbackServer server([&](const Request &, const Responder &responder) {
        ++lists;
        responder.send(Response::json(503, toBytes(status(503, "ServiceUnavailable", "apiserver is shutting down"))));
    });
    CurlTransport transport(fastTransport());
    RecordingSleeper clientSleeper;
    KubeClient client(transport, endpointFor(server), fastRetry(1), clientSleeper.sleeper());
    RecordingSleeper sleeper;
    Recorder recorder;
    Reflector reflector(client, kNodes, options(sleeper), recorder.onBatch(), [&](const connectors::Error &error) {
        recorder.errors.push_back(error);
        if (recorder.errors.size() == 6) {
            cancel.cancel();
        }
    });

    runReflector(reflector, cancel);

    EXPECT_EQ(recorder.batches.size(), 0u);
    EXPECT_EQ(recorder.errors.size(), 6u);
    EXPECT_EQ(lists.load(), 6);
    const auto delays = sleeper.delays();
    ASSERT_EQ(delays.size(), 6u); // the last one returns at once: cancelled
    EXPECT_EQ(delays[0], 500ms);
    EXPECT_EQ(delays[1], 1000ms);
    EXPECT_EQ(delays[2], 2000ms);
    EXPECT_EQ(delays[3], 4000ms);
    EXPECT_EQ(delays[4], 4000ms);
}

TEST_P(KubeReflector, PagedList_TransientErrorRetriedAndExpiredContinueRestartedAsOneList)
{
    std::mutex mutex;
    std::vector<std::string> continues; // continue= of each list request, in order
    CancelToken cancel;
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        if (isWatch(request)) {
            cancel.cancel();
            hold(responder);
            return;
        }
        const std::string token = query(request, "continue");
        int n = 0;
        {
            std::lock_guard lock(mutex);
            continues.push_back(token);
            n = static_cast<int>(std::count(continues.begin(), continues.end(), token));
        }
        if (token.empty() && n == 1) {
            responder.send(Response::json(503, toBytes(status(503, "ServiceUnavailable", "etcd is catching up"))));
        } else if (token.empty()) {
            responder.send(Response::json(200, toBytes(listBody({podObject("a", "p1")}, n == 2 ? "10" : "30", "c1"))));
        } else if (n == 1) {
            responder.send(
                Response::json(410, toBytes(status(410, "Expired", "The provided continue parameter is too old"))));
        } else {
            responder.send(Response::json(200, toBytes(listBody({podObject("a", "p2")}, "30"))));
        }
    });
    CurlTransport transport(fastTransport());
    RecordingSleeper sleeper;
    KubeClient client(transport, endpointFor(server), fastRetry(3), sleeper.sleeper());
    Recorder recorder;
    Reflector reflector(client, kPods, options(sleeper), recorder.onBatch(), recorder.onError());

    runReflector(reflector, cancel);

    EXPECT_TRUE(recorder.errors.empty()) << recorder.errors.front().message;
    ASSERT_EQ(recorder.batches.size(), 1u);
    EXPECT_TRUE(recorder.batches[0].replace);
    EXPECT_EQ(keys(recorder.batches[0].upserts), (std::vector<std::string>{"a/p1", "a/p2"}));
    EXPECT_EQ(recorder.batches[0].resourceVersion, "30"); // the restarted list's snapshot
    std::lock_guard lock(mutex);
    EXPECT_EQ(continues, (std::vector<std::string>{"", "", "c1", "", "c1"}));
    EXPECT_EQ(reflector.stats().lists, 1);
}
