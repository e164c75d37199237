// CurlLoop: many transfers at once on one thread, cancellation by stop() without waiting for the
// server, timers and posted tasks, and outcomes worded exactly as CurlTransport words them.
#include "connectors/http/curlloop.h"
#include "tests/connectors/http/httptestsupport.h"
#include "tests/support/qt/loopbackserver.h"

#include <QTimer>

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

using namespace std::chrono_literals;
using strata::http::CancelToken;
using strata::http::CurlLoop;
using strata::http::CurlTransport;
namespace connectors = strata::connectors;
using strata::http::HttpRequest;
using strata::http::HttpResponse;
using strata::http::TransportOptions;
using strata::sim::Request;
using strata::sim::Responder;
using strata::sim::Response;
using strata::testsupport::LoopbackServer;

namespace {

TransportOptions loopTestOptions()
{
    TransportOptions options;
    options.connectTimeout = 2s;
    options.totalTimeout = 5s;
    return options;
}

HttpRequest loopGet(const std::string &url)
{
    HttpRequest request;
    request.url = url;
    return request;
}

/// `message` without libcurl's timing ("... after 0 ms: ..."), which differs run to run.
std::string withoutTiming(const std::string &message)
{
    return message.substr(0, message.find(" after "));
}

} // namespace

TEST(CurlLoop, TwelveStreamsRunAtOnceOnTheOneLoopThread)
{
    constexpr int kStreams = 12;
    LoopbackServer server([](const Request &request, const Responder &responder) {
        responder.beginStream(200, {{"Content-Type", "application/json"}});
        responder.writeChunk("hello " + request.path.toUtf8() + "\n");
        // ... and the stream stays open: only a loop that multiplexes sees every first chunk.
    });
    CurlLoop loop(loopTestOptions());
    std::set<int> heard;
    std::set<std::thread::id> threads;
    int done = 0;
    for (int i = 0; i < kStreams; ++i) {
        loop.start(
            loopGet(server.url("/s/" + std::to_string(i))),
            [&, i](std::string_view chunk) {
                EXPECT_EQ(chunk, "hello /s/" + std::to_string(i) + "\n");
                heard.insert(i);
                threads.insert(std::this_thread::get_id());
                if (static_cast<int>(heard.size()) == kStreams) {
                    loop.stop();
                }
                return true;
            },
            [&](strata::connectors::Result<HttpResponse>) {
                ++done;
            });
    }
    EXPECT_EQ(loop.activeTransfers(), static_cast<std::size_t>(kStreams));

    loop.run();

    EXPECT_EQ(static_cast<int>(heard.size()), kStreams);
    EXPECT_EQ(threads, std::set<std::thread::id>{std::this_thread::get_id()});
    EXPECT_EQ(done, 0); // stopped: dropped without callbacks
    EXPECT_EQ(loop.activeTransfers(), 0u);
}

TEST(CurlLoop, StopFromAnotherThread_ReturnsWhileTheServerStillHoldsEveryAnswer)
{
    std::atomic<int> seen{0};
    LoopbackServer server([&](const Request &, const Responder &) {
        ++seen; // never answers
    });
    CurlLoop loop(loopTestOptions());
    std::atomic<bool> anyDone{false};
    for (int i = 0; i < 3; ++i) {
        loop.start(loopGet(server.url("/hang")), {}, [&](strata::connectors::Result<HttpResponse>) {
            anyDone = true;
        });
    }
    std::thread stopper([&] {
        while (seen.load() < 3) {
            std::this_thread::sleep_for(2ms);
        }
        loop.stop();
    });

    loop.run(); // returns only through stop(): the server never answers

    stopper.join();
    EXPECT_FALSE(anyDone.load());
    EXPECT_TRUE(loop.isStopped());
    loop.run(); // a stopped loop returns at once
}

TEST(CurlLoop, CollectedAnswersAndErrors_AreTheOnesCurlTransportReturns)
{
    LoopbackServer server([](const Request &request, const Responder &responder) {
        if (request.path == QLatin1String("/big")) {
            responder.send(Response::json(200, QByteArray(4096, 'x')));
        } else if (request.path == QLatin1String("/moved")) {
            responder.send(Response::text(302, "").withHeader("Location", "http://elsewhere.invalid/x"));
        } else {
            responder.send(Response::json(200, R"({"ok":true})").withHeader("X-Seen", request.path.toUtf8()));
        }
    });
    TransportOptions options = loopTestOptions();
    options.maxResponseBytes = 1024;
    CurlTransport transport(options);
    CurlLoop loop(options);
    const std::vector<std::string> urls{
        server.url("/ok"), server.url("/big"), server.url("/moved"), "http://127.0.0.1:1/refused"};
    std::vector<strata::connectors::Result<HttpResponse>> results(urls.size(),
                                                                  strata::connectors::fail(connectors::Error{}));
    int pending = static_cast<int>(urls.size());
    for (std::size_t i = 0; i < urls.size(); ++i) {
        loop.start(loopGet(urls[i]), {}, [&, i](strata::connectors::Result<HttpResponse> result) {
            results[i] = std::move(result);
            if (--pending == 0) {
                loop.stop();
            }
        });
    }
    loop.run();

    ASSERT_EQ(pending, 0);
    ASSERT_TRUE(results[0]);
    EXPECT_EQ(results[0]->status, 200);
    EXPECT_EQ(results[0]->body, R"({"ok":true})");
    EXPECT_EQ(results[0]->header("X-Seen").value_or(""), "/ok");
    for (std::size_t i = 1; i < urls.size(); ++i) {
        const auto expected = transport.send(loopGet(urls[i]), CancelToken{});
        ASSERT_FALSE(expected) << urls[i];
        ASSERT_FALSE(results[i]) << urls[i];
        EXPECT_EQ(results[i].error().kind, expected.error().kind) << urls[i];
        EXPECT_EQ(withoutTiming(results[i].error().message), withoutTiming(expected.error().message)) << urls[i];
    }
    EXPECT_NE(results[1].error().message.find("exceeds the limit of 1024 bytes"), std::string::npos);
}

TEST(CurlLoop, SilentStream_EndsWithTimeoutAfterTheIdleLimit)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        responder.beginStream(200, {{"Content-Type", "application/json"}}); // then nothing
    });
    TransportOptions options = loopTestOptions();
    options.streamIdleTimeout = 1s;
    CurlLoop loop(options);
    std::optional<connectors::Error> error;
    loop.start(
        loopGet(server.url("/watch")),
        [](std::string_view) {
            return true;
        },
        [&](strata::connectors::Result<HttpResponse> result) {
            if (!result) {
                error = result.error();
            }
            loop.stop();
        });
    loop.after(20s, [&] {
        loop.stop(); // the idle limit never fired
    });

    loop.run();

    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->kind, connectors::Error::Kind::Timeout) << error->message;
}

TEST(CurlLoop, TimersAndPostedTasks_RunOnTheLoopThreadInTheirOrder)
{
    CurlLoop loop(loopTestOptions());
    std::vector<std::string> order;
    std::set<std::thread::id> threads;
    const auto note = [&](const std::string &what) {
        order.push_back(what);
        threads.insert(std::this_thread::get_id());
    };
    std::atomic<bool> late{false};
    loop.after(30ms, [&] {
        note("30ms");
        late = true;
    });
    loop.after(5ms, [&] {
        note("5ms");
    });
    const CurlLoop::Id cancelled = loop.after(10ms, [&] {
        note("cancelled");
    });
    loop.cancelTimer(cancelled);
    std::thread poster([&] {
        while (!late.load()) {
            std::this_thread::sleep_for(1ms);
        }
        loop.post([&] {
            note("posted");
            loop.stop();
        });
    });

    loop.run(); // nothing else wakes it: the posted task must

    poster.join();
    EXPECT_EQ(order, (std::vector<std::string>{"5ms", "30ms", "posted"}));
    EXPECT_EQ(threads, std::set<std::thread::id>{std::this_thread::get_id()});
}

TEST(CurlLoop, AbortedTransfer_ClosesItsConnectionAndCallsNothing)
{
    std::atomic<int> seen{0};
    LoopbackServer server([&](const Request &, const Responder &responder) {
        ++seen;
        responder.beginStream(200, {{"Content-Type", "application/json"}});
        responder.writeChunk("one\n");
    });
    CurlLoop loop(loopTestOptions());
    bool doneCalled = false;
    CurlLoop::Id id = 0;
    id = loop.start(
        loopGet(server.url("/watch")),
        [&](std::string_view) {
            loop.post([&] {
                loop.abort(id);
                EXPECT_EQ(loop.activeTransfers(), 0u);
                loop.after(50ms, [&] {
                    loop.stop();
                });
            });
            return true;
        },
        [&](strata::connectors::Result<HttpResponse>) {
            doneCalled = true;
        });

    loop.run();

    EXPECT_FALSE(doneCalled);
    EXPECT_EQ(seen.load(), 1);
}
