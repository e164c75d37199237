#include "connectors/http/httpclient.h"
#include "tests/connectors/http/httptestsupport.h"
#include "tests/support/faketransport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace std::chrono_literals;
using strata::http::BasicAuth;
using strata::http::BearerAuth;
using strata::http::CancelToken;
using strata::http::ClientOptions;
using strata::http::findHeader;
using strata::http::HttpClient;
namespace connectors = strata::connectors;
using strata::http::HttpRequest;
using strata::http::HttpResponse;
using strata::http::Method;
using strata::testsupport::FakeTransport;

namespace {

ClientOptions optionsFor(std::string baseUrl)
{
    ClientOptions options;
    options.baseUrl = std::move(baseUrl);
    options.retry.maxAttempts = 1;
    options.sleeper = [](std::chrono::milliseconds, const CancelToken &) {
        return true;
    };
    return options;
}

HttpRequest getHttpclient(const std::string &path)
{
    HttpRequest request;
    request.url = path;
    return request;
}

} // namespace

TEST(HttpClient, Resolve_SlashesOnEitherSide_JoinedWithExactlyOne)
{
    FakeTransport transport;
    const HttpClient withSlash(transport, optionsFor("https://cluster.example:8443/"));
    const HttpClient withoutSlash(transport, optionsFor("https://cluster.example:8443"));

    EXPECT_EQ(withSlash.resolve("/api/cluster"), "https://cluster.example:8443/api/cluster");
    EXPECT_EQ(withSlash.resolve("api/cluster"), "https://cluster.example:8443/api/cluster");
    EXPECT_EQ(withoutSlash.resolve("/api/cluster"), "https://cluster.example:8443/api/cluster");
    EXPECT_EQ(withoutSlash.resolve("api/cluster?fields=name"), "https://cluster.example:8443/api/cluster?fields=name");
    EXPECT_EQ(withoutSlash.resolve(""), "https://cluster.example:8443");
}

TEST(HttpClient, Resolve_BaseWithPathPrefix_KeepsPrefix)
{
    FakeTransport transport;
    const HttpClient client(transport, optionsFor("https://grid.example/api/v4/"));

    EXPECT_EQ(client.resolve("/grid/config"), "https://grid.example/api/v4/grid/config");
}

TEST(HttpClient, Resolve_AbsoluteUrl_PassesThrough)
{
    FakeTransport transport;
    const HttpClient client(transport, optionsFor("https://management.azure.com"));
    const std::string next = "https://management.azure.com/subscriptions/s/providers/x?api-version=1&$skiptoken=abc";

    EXPECT_EQ(client.resolve(next), next);
    EXPECT_EQ(client.resolve("HTTP://other.example/x"), "HTTP://other.example/x");
}

TEST(HttpClient, Send_NoAuthOnRequest_AddsBasicFromOptionsAndJsonAccept)
{
    FakeTransport transport;
    transport.enqueueJson(Method::Get, "/api/cluster", "{}");
    ClientOptions options = optionsFor("https://cluster.example");
    options.basic = BasicAuth{"admin", "pw"};
    const HttpClient client(transport, options);

    ASSERT_TRUE(client.send(getHttpclient("/api/cluster"), CancelToken{}));

    const auto sent = transport.requests();
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].url, "https://cluster.example/api/cluster");
    ASSERT_TRUE(sent[0].basic.has_value());
    EXPECT_EQ(sent[0].basic->username, "admin");
    EXPECT_FALSE(sent[0].bearer.has_value());
    EXPECT_EQ(findHeader(sent[0].headers, "accept").value_or(""), "application/json");
}

TEST(HttpClient, Send_BearerSet_PreferredOverBasicAndRequestAuthKept)
{
    FakeTransport transport;
    transport.enqueueJson(Method::Get, "/a", "{}");
    transport.enqueueJson(Method::Get, "/b", "{}");
    ClientOptions options = optionsFor("https://grid.example");
    options.basic = BasicAuth{"admin", "pw"};
    HttpClient client(transport, options);
    client.setBearer(BearerAuth{"grid-token"});
    HttpRequest own = getHttpclient("/b");
    own.headers = {{"Accept", "application/hal+json"}};
    own.bearer = BearerAuth{"request-token"};

    ASSERT_TRUE(client.send(getHttpclient("/a"), CancelToken{}));
    ASSERT_TRUE(client.send(own, CancelToken{}));

    const auto sent = transport.requests();
    ASSERT_EQ(sent.size(), 2u);
    ASSERT_TRUE(sent[0].bearer.has_value());
    EXPECT_EQ(sent[0].bearer->token, "grid-token");
    EXPECT_FALSE(sent[0].basic.has_value());
    ASSERT_TRUE(sent[1].bearer.has_value());
    EXPECT_EQ(sent[1].bearer->token, "request-token");
    EXPECT_EQ(findHeader(sent[1].headers, "Accept").value_or(""), "application/hal+json");
    EXPECT_EQ(std::count_if(sent[1].headers.begin(),
                            sent[1].headers.end(),
                            [](const auto &h) {
                                return h.first == "Accept";
                            }),
              1);
}

TEST(HttpClient, Send_BodyWithoutContentType_SendsJsonContentType)
{
    FakeTransport transport;
    transport.enqueueJson(Method::Patch, "/api/storage/volumes/1", "{}", 202);
    const HttpClient client(transport, optionsFor("https://cluster.example"));
    HttpRequest patch = getHttpclient("/api/storage/volumes/1");
    patch.method = Method::Patch;
    patch.body = R"({"size":1})";

    ASSERT_TRUE(client.send(patch, CancelToken{}));

    EXPECT_EQ(findHeader(transport.requests().at(0).headers, "content-type").value_or(""), "application/json");
}

TEST(HttpClient, ParseJson_ValidBody_ReturnsDocument)
{
    const auto json =
        HttpClient::parseJson(HttpResponse::withStatus(200, R"({"records":[{"name":"vol1"}]})"), "volumes");

    ASSERT_TRUE(json) << json.error().message;
    EXPECT_EQ((*json)["records"][0]["name"], "vol1");
}

TEST(HttpClient, ParseJson_MalformedBody_ParseErrorWithByteOffset)
{
    const auto json = HttpClient::parseJson(HttpResponse::withStatus(200, R"({"records": [ {"uuid": )"), "volumes");

    ASSERT_FALSE(json);
    EXPECT_EQ(json.error().kind, connectors::Error::Kind::Parse);
    EXPECT_EQ(json.error().httpStatus, 200);
    EXPECT_EQ(json.error().message.rfind("volumes: malformed JSON at byte 24: ", 0), 0u) << json.error().message;
    EXPECT_EQ(json.error().message.find("json.exception"), std::string::npos) << json.error().message;
}

TEST(HttpClient, ParseJson_EmptyOrInvalidUtf8_ParseErrorNoThrow)
{
    const auto empty = HttpClient::parseJson(HttpResponse::withStatus(200, ""), "cluster");
    const auto badUtf8 = HttpClient::parseJson(HttpResponse::withStatus(200, "{\"name\":\"\xC3\x28\"}"), "cluster");

    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.error().kind, connectors::Error::Kind::Parse);
    ASSERT_FALSE(badUtf8);
    EXPECT_EQ(badUtf8.error().kind, connectors::Error::Kind::Parse);
}

TEST(HttpClient, UrlEncode_ReservedAndUtf8_PercentEncodedUppercase)
{
    using strata::http::urlEncode;
    EXPECT_EQ(urlEncode("AZaz09-._~"), "AZaz09-._~");
    EXPECT_EQ(urlEncode("a b/c?d&e=f+g"), "a%20b%2Fc%3Fd%26e%3Df%2Bg");
    EXPECT_EQ(urlEncode("name:vol*"), "name%3Avol%2A");
    EXPECT_EQ(urlEncode("\xC3\xA9"), "%C3%A9");
    EXPECT_EQ(urlEncode(""), "");
}
