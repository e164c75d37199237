#include "connectors/http/httpclient.h"
#include "connectors/http/jsonparse.h"

#include <gtest/gtest.h>

#include <string>

using strata::http::JsonParseFailure;
using strata::http::kMaxJsonDepth;
using strata::http::parseJsonBounded;

namespace {

std::string nestedArrays(std::size_t depth)
{
    return std::string(depth, '[') + std::string(depth, ']');
}

} // namespace

TEST(JsonParseBounded, NestingUpToTheLimitParses)
{
    JsonParseFailure failure;
    const nlohmann::json doc = parseJsonBounded(nestedArrays(kMaxJsonDepth), &failure);
    ASSERT_FALSE(doc.is_discarded()) << failure.message;
    EXPECT_TRUE(doc.is_array());
    const nlohmann::json objects = parseJsonBounded(R"({"a":{"b":{"c":[1,2,{"d":null}]}}})");
    ASSERT_TRUE(objects.is_object());
    EXPECT_TRUE(objects["a"]["b"]["c"][2]["d"].is_null());
}

TEST(JsonParseBounded, OneLevelDeeperIsRefusedAsTooDeep)
{
    JsonParseFailure failure;
    EXPECT_TRUE(parseJsonBounded(nestedArrays(kMaxJsonDepth + 1), &failure).is_discarded());
    EXPECT_TRUE(failure.tooDeep);
    EXPECT_EQ(failure.message, "JSON nested deeper than 256 levels");
    // Objects count as levels too.
    std::string objects;
    for (std::size_t i = 0; i <= kMaxJsonDepth; ++i) {
        objects += "{\"k\":";
    }
    objects += "1" + std::string(kMaxJsonDepth + 1, '}');
    EXPECT_TRUE(parseJsonBounded(objects).is_discarded());
}

TEST(JsonParseBounded, AMillionOpeningBracketsStopAtTheLimitWithoutRecursion)
{
    // The unbounded parser builds every level; copying or dumping the result then recursed a
    // million frames deep. Only brackets inside strings are text.
    JsonParseFailure failure;
    EXPECT_TRUE(parseJsonBounded(std::string(1'000'000, '['), &failure).is_discarded());
    EXPECT_TRUE(failure.tooDeep);
    const nlohmann::json text = parseJsonBounded("\"" + std::string(100'000, '[') + "\"");
    ASSERT_TRUE(text.is_string());
    EXPECT_EQ(text.get<std::string>().size(), 100'000u);
}

TEST(JsonParseBounded, MalformedTextSaysWhere)
{
    JsonParseFailure failure;
    EXPECT_TRUE(parseJsonBounded(R"({"a": tru})", &failure).is_discarded());
    EXPECT_FALSE(failure.tooDeep);
    EXPECT_EQ(failure.byte, 10u);
    EXPECT_NE(failure.message.find("malformed JSON at byte 10: "), std::string::npos) << failure.message;
    EXPECT_TRUE(parseJsonBounded("{} trailing").is_discarded()) << "one document, nothing after it";
    EXPECT_TRUE(parseJsonBounded("").is_discarded());
}

TEST(JsonParseBounded, HttpClientNamesTheDepthAsTheParseError)
{
    strata::http::HttpResponse response;
    response.status = 200;
    response.body = nestedArrays(300);
    const auto parsed = strata::http::HttpClient::parseJson(response, "GET /api/things");
    ASSERT_FALSE(parsed);
    EXPECT_EQ(parsed.error().kind, strata::connectors::Error::Kind::Parse);
    EXPECT_EQ(parsed.error().message, "GET /api/things: JSON nested deeper than 256 levels");
}
