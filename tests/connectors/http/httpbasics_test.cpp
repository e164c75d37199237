#include "connectors/error.h"
#include "connectors/http/httpresponse.h"
#include "connectors/http/transport.h"

#include <gtest/gtest.h>

#include <climits>
#include <thread>

using namespace std::chrono_literals;
using strata::http::CancelToken;
namespace connectors = strata::connectors;
using strata::http::HttpRequest;
using strata::http::Method;
using strata::http::parseRetryAfter;

namespace {

// Sun, 06 Nov 1994 08:49:37 GMT (RFC 9110's example) as a system_clock time point.
const auto Rfc9110Example = std::chrono::sys_days{std::chrono::year{1994} / 11 / 6} + 8h + 49min + 37s;

connectors::Error withStatus(connectors::Error::Kind kind, int status)
{
    return connectors::Error::make(kind, "x", status);
}

} // namespace

TEST(HttpRetryAfter, DeltaSeconds_ParsedAsSeconds)
{
    EXPECT_EQ(parseRetryAfter(std::string("120")), 120);
    EXPECT_EQ(parseRetryAfter(std::string("0")), 0);
    EXPECT_EQ(parseRetryAfter(std::string(" 7 ")), 7);
    EXPECT_EQ(parseRetryAfter(std::string("99999999999999999999")), INT_MAX);
}

TEST(HttpRetryAfter, AbsentOrInvalid_MinusOne)
{
    EXPECT_EQ(parseRetryAfter(std::nullopt), -1);
    EXPECT_EQ(parseRetryAfter(std::string("")), -1);
    EXPECT_EQ(parseRetryAfter(std::string("-5")), -1);
    EXPECT_EQ(parseRetryAfter(std::string("1.5")), -1);
    EXPECT_EQ(parseRetryAfter(std::string("soon")), -1);
    EXPECT_EQ(parseRetryAfter(std::string("Sun, 31 Feb 1994 08:49:37 GMT")), -1);
    EXPECT_EQ(parseRetryAfter(std::string("Sun, 06 Nov 1994 08:49:37 PST")), -1);
}

TEST(HttpRetryAfter, HttpDateInFuture_SecondsUntilThen)
{
    const auto now = Rfc9110Example - 90s;

    EXPECT_EQ(parseRetryAfter(std::string("Sun, 06 Nov 1994 08:49:37 GMT"), now), 90);
    EXPECT_EQ(parseRetryAfter(std::string("Sun, 06 Nov 1994 08:49:37 GMT"), now + 500ms), 90);
}

TEST(HttpRetryAfter, HttpDateInPast_Zero)
{
    EXPECT_EQ(parseRetryAfter(std::string("Sun, 06 Nov 1994 08:49:37 GMT"), Rfc9110Example + 1h), 0);
    EXPECT_EQ(parseRetryAfter(std::string("Sun, 06 Nov 1994 08:49:37 GMT")), 0);
}

TEST(ConnectorError, Retryable_TransportTimeoutAndThrottlingStatuses)
{
    EXPECT_TRUE(connectors::Error::make(connectors::Error::Kind::Transport, "reset").retryable());
    EXPECT_TRUE(connectors::Error::make(connectors::Error::Kind::Timeout, "slow").retryable());
    for (const int status : {429, 502, 503, 504}) {
        EXPECT_TRUE(withStatus(connectors::Error::Kind::Http, status).retryable()) << status;
        EXPECT_TRUE(withStatus(connectors::Error::Kind::Api, status).retryable()) << status;
    }
    for (const int status : {400, 401, 403, 404, 409, 500, 501}) {
        EXPECT_FALSE(withStatus(connectors::Error::Kind::Http, status).retryable()) << status;
    }
    EXPECT_FALSE(connectors::Error::make(connectors::Error::Kind::Tls, "untrusted").retryable());
    EXPECT_FALSE(connectors::Error::make(connectors::Error::Kind::Parse, "bad").retryable());
    EXPECT_FALSE(connectors::Error::make(connectors::Error::Kind::Auth, "denied").retryable());
    EXPECT_FALSE(connectors::Error::make(connectors::Error::Kind::Cancelled, "stop").retryable());
    EXPECT_FALSE(connectors::Error::make(connectors::Error::Kind::Process, "az cannot be started").retryable());
}

TEST(ConnectorError, KindName_EveryKind_LowerCaseWord)
{
    EXPECT_STREQ(connectors::Error::kindName(connectors::Error::Kind::Transport), "transport");
    EXPECT_STREQ(connectors::Error::kindName(connectors::Error::Kind::Timeout), "timeout");
    EXPECT_STREQ(connectors::Error::kindName(connectors::Error::Kind::Tls), "tls");
    EXPECT_STREQ(connectors::Error::kindName(connectors::Error::Kind::Http), "http");
    EXPECT_STREQ(connectors::Error::kindName(connectors::Error::Kind::Api), "api");
    EXPECT_STREQ(connectors::Error::kindName(connectors::Error::Kind::Parse), "parse");
    EXPECT_STREQ(connectors::Error::kindName(connectors::Error::Kind::Auth), "auth");
    EXPECT_STREQ(connectors::Error::kindName(connectors::Error::Kind::Cancelled), "cancelled");
    EXPECT_STREQ(connectors::Error::kindName(connectors::Error::Kind::Process), "process");
}

TEST(HttpRequest, IsIdempotent_ByMethodAndDeclaration)
{
    const auto idempotent = [](Method method, std::optional<bool> declared) {
        HttpRequest request;
        request.method = method;
        request.idempotent = declared;
        return request.isIdempotent();
    };
    EXPECT_TRUE(idempotent(Method::Get, std::nullopt));
    EXPECT_TRUE(idempotent(Method::Head, std::nullopt));
    EXPECT_TRUE(idempotent(Method::Get, false));
    EXPECT_FALSE(idempotent(Method::Put, std::nullopt));
    EXPECT_TRUE(idempotent(Method::Put, true));
    EXPECT_FALSE(idempotent(Method::Delete, std::nullopt));
    EXPECT_TRUE(idempotent(Method::Delete, true));
    EXPECT_FALSE(idempotent(Method::Post, std::nullopt));
    EXPECT_FALSE(idempotent(Method::Post, false));
    EXPECT_TRUE(idempotent(Method::Post, true));
    EXPECT_FALSE(idempotent(Method::Patch, std::nullopt));
    EXPECT_TRUE(idempotent(Method::Patch, true));
}

TEST(HttpRequest, FindHeader_CaseInsensitive_FirstMatch)
{
    const strata::http::Headers headers{{"Content-Type", "a"}, {"content-type", "b"}, {"Accept", "c"}};

    EXPECT_EQ(strata::http::findHeader(headers, "CONTENT-TYPE").value_or(""), "a");
    EXPECT_FALSE(strata::http::findHeader(headers, "Content").has_value());
    EXPECT_STREQ(strata::http::methodName(Method::Patch), "PATCH");
}

TEST(HttpCancelToken, SleepFor_CancelledFromOtherThread_ReturnsFalseEarly)
{
    const CancelToken cancel;
    const CancelToken copy = cancel; // copies share one state
    std::thread canceller([copy] {
        copy.cancel();
    });

    const auto started = std::chrono::steady_clock::now();
    const bool completed = cancel.sleepFor(30s);
    canceller.join();

    EXPECT_FALSE(completed);
    EXPECT_TRUE(cancel.isCancelled());
    EXPECT_LT(std::chrono::steady_clock::now() - started, 10s);
}

TEST(HttpCancelToken, SleepFor_NotCancelled_ReturnsTrue)
{
    const CancelToken cancel;

    EXPECT_TRUE(cancel.sleepFor(1ms));
    EXPECT_FALSE(cancel.isCancelled());
}
