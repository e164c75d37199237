#include "connectors/http/curltransport.h"
#include "connectors/http/httpclient.h"
#include "connectors/http/retry.h"
#include "tests/connectors/http/httptestsupport.h"
#include "tests/support/faketransport.h"
#include "tests/support/qt/loopbackserver.h"

#include <gtest/gtest.h>

#include <atomic>

using namespace std::chrono_literals;
using strata::http::CancelToken;
using strata::http::ClientOptions;
using strata::http::CurlTransport;
using strata::http::HttpClient;
namespace connectors = strata::connectors;
using strata::http::HttpRequest;
using strata::http::HttpResponse;
using strata::http::Method;
using strata::http::RetryPolicy;
using strata::http::sendWithRetry;
using strata::http::test::RecordingSleeper;
using strata::sim::Request;
using strata::sim::Responder;
using strata::sim::Response;
using strata::testsupport::FakeTransport;
using strata::testsupport::LoopbackServer;

namespace {

RetryPolicy quickPolicy(int maxAttempts = 4)
{
    RetryPolicy policy;
    policy.maxAttempts = maxAttempts;
    policy.baseDelay = 10ms;
    policy.maxDelay = 1s;
    policy.jitter = 0.0;
    return policy;
}

HttpRequest request(Method method, const std::string &url)
{
    HttpRequest r;
    r.method = method;
    r.url = url;
    return r;
}

constexpr const char *Url = "https://cluster.example/api/storage/volumes";
constexpr const char *Path = "/api/storage/volumes";

} // namespace

TEST(RetryPolicy, Backoff_NoJitter_DoublesPerAttempt)
{
    RetryPolicy policy;
    policy.baseDelay = 100ms;
    policy.maxDelay = 10s;
    policy.jitter = 0.0;

    EXPECT_EQ(policy.backoff(1, 0.7), 100ms);
    EXPECT_EQ(policy.backoff(2, 0.7), 200ms);
    EXPECT_EQ(policy.backoff(3, 0.7), 400ms);
    EXPECT_EQ(policy.backoff(4, 0.7), 800ms);
}

TEST(RetryPolicy, Backoff_WithJitter_StaysWithinJitterBand)
{
    RetryPolicy policy;
    policy.baseDelay = 100ms;
    policy.maxDelay = 10s;
    policy.jitter = 0.5;

    // Attempt 3: the exponential delay is 400 ms, of which half is randomised.
    EXPECT_EQ(policy.backoff(3, 0.0), 200ms);
    EXPECT_EQ(policy.backoff(3, 0.5), 300ms);
    for (const double unit : {0.0, 0.1, 0.25, 0.5, 0.75, 0.999}) {
        const auto delay = policy.backoff(3, unit);
        EXPECT_GE(delay, 200ms) << unit;
        EXPECT_LE(delay, 400ms) << unit;
    }
    EXPECT_LT(policy.backoff(3, 0.2), policy.backoff(3, 0.8));
}

TEST(RetryPolicy, Backoff_FullJitter_CanReachZero)
{
    RetryPolicy policy;
    policy.baseDelay = 100ms;
    policy.jitter = 1.0;

    EXPECT_EQ(policy.backoff(2, 0.0), 0ms);
    EXPECT_EQ(policy.backoff(2, 0.5), 100ms);
}

TEST(RetryPolicy, Backoff_ManyAttempts_CappedAtMaxDelay)
{
    RetryPolicy policy;
    policy.baseDelay = 250ms;
    policy.maxDelay = 30s;
    policy.jitter = 0.5;

    for (const int attempt : {8, 9, 20, 63, 1000}) {
        EXPECT_LE(policy.backoff(attempt, 0.999), 30s) << attempt;
        EXPECT_GE(policy.backoff(attempt, 0.0), 15s) << attempt;
    }
    policy.jitter = 0.0;
    EXPECT_EQ(policy.backoff(1000, 0.3), 30s);
}

TEST(Retry, Get_503Then200_RetriedOnceWithBackoff)
{
    FakeTransport transport;
    transport.enqueue(Method::Get, Path, HttpResponse::withStatus(503));
    transport.enqueueJson(Method::Get, Path, "{}");
    RecordingSleeper sleeper;

    const auto result =
        sendWithRetry(transport, request(Method::Get, Url), quickPolicy(), CancelToken{}, sleeper.sleeper());

    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, 200);
    EXPECT_EQ(transport.requestCount(), 2);
    ASSERT_EQ(sleeper.delays().size(), 1u);
    EXPECT_EQ(sleeper.delays()[0], 10ms);
}

TEST(Retry, Get_AlwaysFailing_StopsAtMaxAttemptsWithGrowingDelays)
{
    FakeTransport transport;
    for (int i = 0; i < 5; ++i) {
        transport.enqueue(Method::Get, Path, HttpResponse::withStatus(502));
    }
    RecordingSleeper sleeper;

    const auto result =
        sendWithRetry(transport, request(Method::Get, Url), quickPolicy(3), CancelToken{}, sleeper.sleeper());

    ASSERT_TRUE(result);
    EXPECT_EQ(result->status, 502);
    EXPECT_EQ(transport.requestCount(), 3);
    EXPECT_EQ(sleeper.delays(), (std::vector<std::chrono::milliseconds>{10ms, 20ms}));
}

TEST(Retry, Get_TransportErrorThenSuccess_Retried)
{
    FakeTransport transport;
    transport.enqueueError(Method::Get, Path, connectors::Error::Kind::Transport, "connection reset");
    transport.enqueueError(Method::Get, Path, connectors::Error::Kind::Timeout, "timed out");
    transport.enqueueJson(Method::Get, Path, "{}");
    RecordingSleeper sleeper;

    const auto result =
        sendWithRetry(transport, request(Method::Get, Url), quickPolicy(), CancelToken{}, sleeper.sleeper());

    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(transport.requestCount(), 3);
}

TEST(Retry, Get_TlsErrorOr404_NotRetried)
{
    FakeTransport transport;
    transport.enqueueError(Method::Get, Path, connectors::Error::Kind::Tls, "not trusted");
    transport.enqueue(Method::Get, "/other", HttpResponse::withStatus(404));
    RecordingSleeper sleeper;

    const auto tls =
        sendWithRetry(transport, request(Method::Get, Url), quickPolicy(), CancelToken{}, sleeper.sleeper());
    const auto notFound = sendWithRetry(transport,
                                        request(Method::Get, "https://cluster.example/other"),
                                        quickPolicy(),
                                        CancelToken{},
                                        sleeper.sleeper());

    ASSERT_FALSE(tls);
    EXPECT_EQ(tls.error().kind, connectors::Error::Kind::Tls);
    ASSERT_TRUE(notFound);
    EXPECT_EQ(notFound->status, 404);
    EXPECT_EQ(transport.requestCount(), 2);
    EXPECT_TRUE(sleeper.delays().empty());
}

TEST(Retry, PutAndDelete_IdempotentOnlyWhenDeclared)
{
    FakeTransport transport;
    transport.enqueue(Method::Put, Path, HttpResponse::withStatus(503));
    transport.enqueue(Method::Put, Path, HttpResponse::withStatus(503));
    transport.enqueueJson(Method::Put, Path, "{}");
    RecordingSleeper sleeper;
    HttpRequest undeclared = request(Method::Put, Url);
    HttpRequest declared = request(Method::Put, Url);
    declared.idempotent = true;

    const auto once = sendWithRetry(transport, undeclared, quickPolicy(), CancelToken{}, sleeper.sleeper());
    const auto retried = sendWithRetry(transport, declared, quickPolicy(), CancelToken{}, sleeper.sleeper());

    ASSERT_TRUE(once);
    EXPECT_EQ(once->status, 503);
    ASSERT_TRUE(retried);
    EXPECT_EQ(retried->status, 200);
    EXPECT_EQ(transport.requestCount(), 3);
}

TEST(Retry, Get_RetryAfterBeyondMaxElapsed_ReturnsResponseWithoutWaiting)
{
    FakeTransport transport;
    transport.enqueue(Method::Get, Path, HttpResponse::withStatus(429, "", {{"Retry-After", "3600"}}));
    RecordingSleeper sleeper;
    RetryPolicy policy = quickPolicy();
    policy.maxElapsed = 60s;

    const auto result = sendWithRetry(transport, request(Method::Get, Url), policy, CancelToken{}, sleeper.sleeper());

    ASSERT_TRUE(result);
    EXPECT_EQ(result->status, 429);
    EXPECT_EQ(transport.requestCount(), 1);
    EXPECT_TRUE(sleeper.delays().empty());
}

TEST(Retry, Get_CancelledDuringBackoff_StopsImmediately)
{
    FakeTransport transport;
    transport.enqueue(Method::Get, Path, HttpResponse::withStatus(503));
    transport.enqueueJson(Method::Get, Path, "{}");
    const CancelToken cancel;
    int sleeps = 0;
    const strata::http::Sleeper cancelling = [&](std::chrono::milliseconds, const CancelToken &token) {
        ++sleeps;
        token.cancel();
        return false;
    };

    const auto result = sendWithRetry(transport, request(Method::Get, Url), quickPolicy(), cancel, cancelling);

    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, connectors::Error::Kind::Cancelled);
    EXPECT_EQ(sleeps, 1);
    EXPECT_EQ(transport.requestCount(), 1);
}

TEST(Retry, RealSleeper_Cancelled_ReturnsFalseAtOnce)
{
    const CancelToken cancel;
    cancel.cancel();
    const auto started = std::chrono::steady_clock::now();

    EXPECT_FALSE(strata::http::realSleeper()(30s, cancel));
    EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
}

// Against the real libcurl path and loopback server.

TEST(Retry, Loopback_429WithRetryAfter_SleepsAtLeastRetryAfter)
{
    std::atomic<int> calls{0};
    LoopbackServer server([&calls](const Request &, const Responder &responder) {
        if (calls++ == 0) {
            responder.send(Response::json(429, R"({"message":"slow down"})").withHeader("Retry-After", "2"));
        } else {
            responder.send(Response::json(200, "{}"));
        }
    });
    CurlTransport transport;
    RecordingSleeper sleeper;
    HttpClient client(transport,
                      ClientOptions{server.url(), std::nullopt, std::nullopt, quickPolicy(), sleeper.sleeper()});

    const auto result = client.send(request(Method::Get, "/api/v1/pods"), CancelToken{});

    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, 200);
    EXPECT_EQ(server.requestCount(), 2);
    ASSERT_EQ(sleeper.delays().size(), 1u);
    EXPECT_GE(sleeper.delays()[0], 2s);
}

TEST(Retry, Loopback_Get503Then200_Retried)
{
    std::atomic<int> calls{0};
    LoopbackServer server([&calls](const Request &, const Responder &responder) {
        responder.send(calls++ == 0 ? Response::json(503, "{}") : Response::json(200, R"({"ok":true})"));
    });
    CurlTransport transport;
    RecordingSleeper sleeper;
    HttpClient client(transport,
                      ClientOptions{server.url(), std::nullopt, std::nullopt, quickPolicy(), sleeper.sleeper()});

    const auto result = client.send(request(Method::Get, "/api/cluster"), CancelToken{});

    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->body, R"({"ok":true})");
    EXPECT_EQ(server.requestCount(), 2);
    EXPECT_EQ(sleeper.delays().size(), 1u);
}

TEST(Retry, Loopback_Post503_SentExactlyOnce)
{
    LoopbackServer server([](const Request &, const Responder &responder) {
        responder.send(Response::json(503, "{}"));
    });
    CurlTransport transport;
    RecordingSleeper sleeper;
    HttpClient client(transport,
                      ClientOptions{server.url(), std::nullopt, std::nullopt, quickPolicy(), sleeper.sleeper()});
    HttpRequest post = request(Method::Post, "/api/storage/volumes");
    post.body = R"({"name":"vol1"})";

    const auto result = client.send(post, CancelToken{});

    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, 503);
    EXPECT_EQ(server.requestCount(), 1);
    EXPECT_TRUE(sleeper.delays().empty());
}
