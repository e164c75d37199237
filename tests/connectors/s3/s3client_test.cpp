// The S3 connector against scripted servers (sim::HttpServer): what RGW will not do on request —
// malformed and truncated XML, SlowDown/InternalError retries, 500s, stalls, looping pagers —
// plus the XML reader on its own.
#include "connectors/http/curltransport.h"
#include "connectors/s3/s3client.h"
#include "connectors/s3/s3xml.h"
#include "tests/connectors/http/httptestsupport.h"
#include "tests/support/qt/loopbackserver.h"

#include <gtest/gtest.h>

#include <atomic>

namespace strata::s3::test {
namespace {

using namespace std::chrono_literals;
using http::test::RecordingSleeper;
using http::test::SeenRequests;
using Kind = connectors::Error::Kind;
using sim::Fault;
using sim::Request;
using sim::Responder;
using sim::Response;
using testsupport::LoopbackServer;

Response xml(int status, const std::string &body)
{
    Response response;
    response.status = status;
    response.body = QByteArray::fromStdString(body);
    response.withHeader("Content-Type", "application/xml");
    return response;
}

std::string errorXml(const std::string &code, const std::string &message)
{
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code + "</Code><Message>" + message
           + "</Message><RequestId>tx1</RequestId></Error>";
}

const std::string kPage = R"(<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>datasets</Name><Prefix>fraud_jun/</Prefix>
<KeyCount>2</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>
<Contents><Key>fraud_jun/a.csv</Key><LastModified>2026-06-01T10:00:00.000Z</LastModified>
<ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag><Size>123</Size><StorageClass>STANDARD</StorageClass></Contents>
<Contents><Key>fraud_jun/b &amp; c.csv</Key><LastModified>2026-06-01T10:00:01.000Z</LastModified>
<ETag>"d41d8cd98f00b204e9800998ecf8427e-2"</ETag><Size>9000000000</Size></Contents>
<CommonPrefixes><Prefix>fraud_jun/img/</Prefix></CommonPrefixes>
</ListBucketResult>)";

struct Harness
{
    RecordingSleeper sleeper;
    std::unique_ptr<S3Client> client;

    explicit Harness(const std::string &endpoint, int attempts = 3, std::chrono::milliseconds timeout = 5s)
    {
        S3Config config;
        config.endpoint = endpoint;
        config.accessKey = "AKID";
        config.secretKey = "secret";
        config.retry.maxAttempts = attempts;
        config.retry.baseDelay = 100ms;
        config.retry.maxElapsed = 0ms;
        config.sleeper = sleeper.sleeper();
        config.timeoutMs = static_cast<long>(timeout.count());
        http::TransportOptions options;
        options.connectTimeout = 2s;
        client = std::make_unique<S3Client>(config, std::make_shared<http::CurlTransport>(options));
    }
};

TEST(S3Xml, ParsesElementsTextAndEntities)
{
    auto parsed = parseXml(kPage);
    ASSERT_TRUE(parsed.root) << parsed.error;
    EXPECT_EQ(parsed.root->name, "ListBucketResult");
    const auto contents = parsed.root->childrenNamed("Contents");
    ASSERT_EQ(contents.size(), 2u);
    EXPECT_EQ(contents[1]->childText("Key"), "fraud_jun/b & c.csv");
    EXPECT_EQ(parsed.root->childText("Missing", "fallback"), "fallback");
}

TEST(S3Xml, RejectsMalformedTruncatedEmptyAndEntityBombs)
{
    EXPECT_FALSE(parseXml("").root);
    EXPECT_FALSE(parseXml("<a><b></a>").root);
    auto truncated = parseXml(kPage.substr(0, kPage.size() / 2));
    EXPECT_FALSE(truncated.root);
    EXPECT_NE(truncated.error.find("line"), std::string::npos) << truncated.error;
    EXPECT_FALSE(parseXml("not xml at all").root);
    EXPECT_FALSE(parseXml("<a/><b/>").root); // two roots
    auto bomb =
        parseXml("<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;\">]><x>&b;</x>");
    EXPECT_FALSE(bomb.root);
    std::string deep;
    for (int i = 0; i < 100; ++i) {
        deep += "<d>";
    }
    EXPECT_FALSE(parseXml(deep).root);
}

TEST(S3Helpers, EncodingAndEtags)
{
    EXPECT_EQ(s3Encode("a b/c+d=e&f~g", true), "a%20b/c%2Bd%3De%26f~g");
    EXPECT_EQ(s3Encode("a/b", false), "a%2Fb");
    EXPECT_EQ(s3Encode("ü", false), "%C3%BC");
    EXPECT_EQ(unquoteEtag("\"abc\""), "abc");
    EXPECT_EQ(unquoteEtag("abc"), "abc");
    EXPECT_EQ(unquoteEtag("&quot;abc&quot;"), "abc");
    EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(S3Scripted, ListParsesEntriesAndSendsCanonicalQuery)
{
    SeenRequests seen;
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        seen.add(request);
        responder.send(xml(200, kPage));
    });
    Harness h(server.url());
    auto page = h.client->listObjectsV2("datasets", "fraud_jun/", "/", "tok/+=", 2);
    ASSERT_TRUE(page) << page.error().message;
    ASSERT_EQ(page->objects.size(), 2u);
    EXPECT_EQ(page->objects[0].etag, "9b2cf535f27731c974343645a3985328");
    EXPECT_EQ(page->objects[0].size, 123);
    EXPECT_EQ(page->objects[1].key, "fraud_jun/b & c.csv");
    EXPECT_EQ(page->objects[1].etag, "d41d8cd98f00b204e9800998ecf8427e-2");
    EXPECT_EQ(page->objects[1].size, 9'000'000'000);
    EXPECT_EQ(page->commonPrefixes, std::vector<std::string>{"fraud_jun/img/"});
    const Request request = seen.last();
    EXPECT_EQ(request.target.toStdString(),
              "/datasets?continuation-token=tok%2F%2B%3D&delimiter=%2F&list-type=2&max-"
              "keys=2&prefix=fraud_jun%2F");
    EXPECT_TRUE(request.header("authorization").startsWith("AWS4-HMAC-SHA256 Credential=AKID/"));
    EXPECT_EQ(request.header("x-amz-content-sha256").toStdString(), sha256Hex(""));
}

TEST(S3Scripted, MalformedAndTruncatedXmlAreParseErrorsNamingTheCall)
{
    std::atomic<int> mode{0};
    LoopbackServer server([&](const Request &, const Responder &responder) {
        switch (mode.load()) {
        case 0:
            responder.send(xml(200, "<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>x</Key>"));
            break;
        case 1:
            responder.send(xml(200, "<ListBucketResult><IsTruncated>maybe</IsTruncated></ListBucketResult>"));
            break;
        case 2:
            responder.send(xml(200,
                               "<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>x</Key>"
                               "<Size>lots</Size></Contents></ListBucketResult>"));
            break;
        case 3:
            responder.send(xml(200, "<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>"));
            break;
        case 4:
            responder.send(xml(200, "<Unexpected/>"));
            break;
        case 5:
            responder.send(xml(200, "<VersioningConfiguration><Status>Sideways</Status></VersioningConfiguration>"));
            break;
        case 6:
            responder.send(xml(200,
                               "<ListVersionsResult><IsTruncated>false</IsTruncated><Version><Key>k</Key>"
                               "<Size>1</Size><IsLatest>true</IsLatest></Version></ListVersionsResult>"));
            break;
        default: {
            Response response = xml(200, kPage);
            response.fault = Fault::Truncate; // full Content-Length, half the body, close
            responder.send(response);
        }
        }
    });
    Harness h(server.url(), 1);
    auto expectParse = [&](int m, auto call, const std::string &needle) {
        mode = m;
        auto result = call();
        ASSERT_FALSE(result) << "mode " << m;
        EXPECT_EQ(result.error().kind, Kind::Parse) << "mode " << m << ": " << result.error().message;
        EXPECT_NE(result.error().message.find(needle), std::string::npos) << result.error().message;
    };
    auto list = [&] {
        return h.client->listObjectsV2("datasets", {});
    };
    expectParse(0, list, "ListObjectsV2 datasets: malformed XML");
    expectParse(1, list, "<IsTruncated> is \"maybe\"");
    expectParse(2, list, "<Size> of x");
    expectParse(3, list, "no <NextContinuationToken>");
    expectParse(4, list, "expected <ListBucketResult>");
    expectParse(
        5,
        [&] {
            return h.client->bucketVersioning("datasets");
        },
        "GetBucketVersioning datasets");
    expectParse(
        6,
        [&] {
            return h.client->listObjectVersions("datasets", {});
        },
        "has no <VersionId>");

    mode = 7;
    auto truncated = h.client->listObjectsV2("datasets", {});
    ASSERT_FALSE(truncated);
    EXPECT_EQ(truncated.error().kind, Kind::Transport) << truncated.error().message;
    EXPECT_NE(truncated.error().message.find("ListObjectsV2 datasets"), std::string::npos);
}

TEST(S3Scripted, SlowDownIsRetriedWithBackoffThenSucceeds)
{
    std::atomic<int> calls{0};
    LoopbackServer server([&](const Request &, const Responder &responder) {
        if (++calls <= 2) {
            responder.send(xml(503, errorXml("SlowDown", "Please reduce your request rate.")));
        } else {
            responder.send(xml(200, kPage));
        }
    });
    Harness h(server.url(), 4);
    auto page = h.client->listObjectsV2("datasets", {});
    ASSERT_TRUE(page) << page.error().message;
    EXPECT_EQ(calls.load(), 3);
    const auto delays = h.sleeper.delays();
    ASSERT_EQ(delays.size(), 2u);
    EXPECT_GE(delays[1], delays[0] / 2); // exponential with jitter: the second is not shorter than half
    EXPECT_LE(delays[0], 100ms);
}

TEST(S3Scripted, SlowDownForeverReturnsTheS3ErrorAfterTheLastAttempt)
{
    std::atomic<int> calls{0};
    LoopbackServer server([&](const Request &, const Responder &responder) {
        ++calls;
        responder.send(xml(503, errorXml("SlowDown", "Please reduce your request rate.")));
    });
    Harness h(server.url(), 3);
    auto got = h.client->getObject("datasets", "k");
    ASSERT_FALSE(got);
    EXPECT_EQ(calls.load(), 3);
    EXPECT_EQ(got.error().kind, Kind::Api);
    EXPECT_EQ(got.error().apiCode, "SlowDown");
    EXPECT_EQ(got.error().httpStatus, 503);
    EXPECT_EQ(got.error().message, "S3 SlowDown: Please reduce your request rate. (GetObject datasets/k)");
}

TEST(S3Scripted, InternalErrorIsRetriedAndPlain500WithoutBodyIsHttp)
{
    std::atomic<int> calls{0};
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        ++calls;
        if (request.path.contains(QStringLiteral("plain"))) {
            responder.send(Response::text(500, {}));
        } else if (calls == 1) {
            responder.send(xml(500, errorXml("InternalError", "We encountered an internal error.")));
        } else {
            responder.send(Response::text(200, "bytes").withHeader("ETag", "\"e\""));
        }
    });
    Harness h(server.url(), 3);
    auto got = h.client->getObject("datasets", "k");
    ASSERT_TRUE(got) << got.error().message;
    EXPECT_EQ(*got, "bytes");
    EXPECT_EQ(calls.load(), 2);

    calls = 0;
    auto plain = h.client->getObject("datasets", "plain");
    ASSERT_FALSE(plain);
    EXPECT_EQ(calls.load(), 3);
    EXPECT_EQ(plain.error().kind, Kind::Http);
    EXPECT_EQ(plain.error().httpStatus, 500);
    EXPECT_NE(plain.error().message.find("GetObject datasets/plain"), std::string::npos);
}

TEST(S3Scripted, ClientErrorsAreNotRetried)
{
    std::atomic<int> calls{0};
    LoopbackServer server([&](const Request &, const Responder &responder) {
        ++calls;
        responder.send(xml(403, errorXml("AccessDenied", "Access Denied")));
    });
    Harness h(server.url(), 4);
    auto put = h.client->putObject("datasets", "k", "v");
    ASSERT_FALSE(put);
    EXPECT_EQ(calls.load(), 1);
    EXPECT_EQ(put.error().kind, Kind::Auth);
    EXPECT_EQ(put.error().apiCode, "AccessDenied");
    EXPECT_TRUE(h.sleeper.delays().empty());
}

TEST(S3Scripted, StalledServerTimesOut)
{
    LoopbackServer server([&](const Request &, const Responder &responder) {
        Response response = xml(200, kPage);
        response.fault = Fault::Stall;
        responder.send(response);
    });
    Harness h(server.url(), 2, 300ms);
    const auto started = std::chrono::steady_clock::now();
    auto head = h.client->headObject("datasets", "k");
    ASSERT_FALSE(head);
    EXPECT_EQ(head.error().kind, Kind::Timeout) << head.error().message;
    EXPECT_NE(head.error().message.find("HeadObject datasets/k"), std::string::npos) << head.error().message;
    EXPECT_EQ(h.sleeper.delays().size(), 1u); // one retry, then the last timeout is reported
    EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
}

TEST(S3Scripted, RepeatedContinuationTokenStopsListing)
{
    LoopbackServer server([&](const Request &, const Responder &responder) {
        responder.send(xml(200,
                           "<ListBucketResult><IsTruncated>true</IsTruncated><NextContinuationToken>same"
                           "</NextContinuationToken><Contents><Key>k</Key><Size>1</Size></Contents>"
                           "</ListBucketResult>"));
    });
    Harness h(server.url());
    auto all = h.client->listAll("datasets", {});
    ASSERT_FALSE(all);
    EXPECT_EQ(all.error().kind, Kind::Parse);
    EXPECT_NE(all.error().message.find("repeated a continuation token"), std::string::npos) << all.error().message;
}

TEST(S3Scripted, PutSendsPayloadHashAndContentMd5)
{
    SeenRequests seen;
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        seen.add(request);
        responder.send(Response::text(200, {})
                           .withHeader("ETag", "\"5d41402abc4b2a76b9719d911017c592\"")
                           .withHeader("x-amz-version-id", "v1"));
    });
    Harness h(server.url());
    auto put = h.client->putObject("datasets", "a/b c.txt", "hello", "text/plain");
    ASSERT_TRUE(put) << put.error().message;
    EXPECT_EQ(put->etag, "5d41402abc4b2a76b9719d911017c592");
    EXPECT_EQ(put->versionId, "v1");
    const Request request = seen.last();
    EXPECT_EQ(request.method, "PUT");
    EXPECT_EQ(request.target.toStdString(), "/datasets/a/b%20c.txt");
    EXPECT_EQ(request.body, "hello");
    EXPECT_EQ(request.header("x-amz-content-sha256").toStdString(), sha256Hex("hello"));
    EXPECT_EQ(request.header("content-md5"), "XUFAKrxLKna5cZ2REBfFkg==");
    EXPECT_EQ(request.header("content-type"), "text/plain");
}

TEST(S3Scripted, RangedGetSendsRangeAndCutsWhenIgnored)
{
    SeenRequests seen;
    LoopbackServer server([&](const Request &request, const Responder &responder) {
        seen.add(request);
        responder.send(Response::text(200, "0123456789")); // ignores Range
    });
    Harness h(server.url());
    auto got = h.client->getObject("datasets", "k", "ver/1", std::pair<std::int64_t, std::int64_t>{3, 5});
    ASSERT_TRUE(got) << got.error().message;
    EXPECT_EQ(*got, "345");
    EXPECT_EQ(seen.last().header("range"), "bytes=3-5");
    EXPECT_EQ(seen.last().target.toStdString(), "/datasets/k?versionId=ver%2F1");
    auto bad = h.client->getObject("datasets", "k", {}, std::pair<std::int64_t, std::int64_t>{5, 3});
    EXPECT_FALSE(bad);
}

} // namespace
} // namespace strata::s3::test
