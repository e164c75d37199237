#include "connectors/http/jsonfields.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

using nlohmann::json;
namespace jsonfields = strata::http::jsonfields;

TEST(JsonFields, FindWalksThePathAndTreatsNullAsAbsent)
{
    const json doc = json::parse(R"({"properties": {"size": 5, "unset": null}, "name": "x"})");

    ASSERT_NE(jsonfields::find(doc, {"properties", "size"}), nullptr);
    EXPECT_EQ(*jsonfields::find(doc, {"properties", "size"}), 5);
    EXPECT_EQ(jsonfields::find(doc, {"properties", "unset"}), nullptr);
    EXPECT_EQ(jsonfields::find(doc, {"properties", "missing"}), nullptr);
    EXPECT_EQ(jsonfields::find(doc, {"name", "deeper"}), nullptr); // a step that is no object
}

TEST(JsonFields, ReadKeepsTheDefaultWhenAbsentAndFillsOptionals)
{
    const json doc = json::parse(R"({"a": {"b": 7}, "n": null})");
    int value = -1;
    int untouched = -1;
    std::optional<int> present;
    std::optional<int> absent;

    jsonfields::read(doc, {"a", "b"}, value);
    jsonfields::read(doc, {"n"}, untouched);
    jsonfields::read(doc, {"a", "b"}, present);
    jsonfields::read(doc, {"a", "c"}, absent);

    EXPECT_EQ(value, 7);
    EXPECT_EQ(untouched, -1);
    EXPECT_EQ(present, 7);
    EXPECT_FALSE(absent.has_value());
}

TEST(JsonFields, WrongTypeNamesTheDottedPath)
{
    const json doc = json::parse(R"({"properties": {"size": "big"}})");
    long long size = 0;
    try {
        jsonfields::read(doc, {"properties", "size"}, size);
        FAIL() << "a string read as a number must throw";
    } catch (const json::type_error &e) {
        EXPECT_NE(std::string(e.what()).find("field 'properties.size': type must be number"), std::string::npos)
            << e.what();
    }
}

TEST(JsonFields, RequireThrowsOutOfRangeForAbsentAndNull)
{
    const json doc = json::parse(R"({"id": null})");
    std::string id;
    try {
        jsonfields::require(doc, {"id"}, id);
        FAIL() << "a null required key must throw";
    } catch (const json::out_of_range &e) {
        EXPECT_NE(std::string(e.what()).find("key 'id' not found"), std::string::npos) << e.what();
    }
    EXPECT_THROW(jsonfields::require(doc, {"properties", "name"}, id), json::out_of_range);
}

// Found by the ontap_dto fuzz target in CI: an aggregate whose "space.block_storage.size" was
// 1.2e27 reached nlohmann's float-to-long conversion, which is undefined out of range (UBSan).
TEST(JsonFields, IntegerFieldRefusesNumbersItCannotHold)
{
    namespace jf = strata::http::jsonfields;
    const auto sizeOf = [](const char *body) {
        long size = 0;
        jf::read(nlohmann::json::parse(body), {"space", "size"}, size);
        return size;
    };
    EXPECT_THROW(sizeOf(R"({"space":{"size":1.21553e27}})"), nlohmann::json::type_error);
    EXPECT_THROW(sizeOf(R"({"space":{"size":-1e300}})"), nlohmann::json::type_error);
    EXPECT_THROW(sizeOf(R"({"space":{"size":18446744073709551615}})"), nlohmann::json::type_error);
    EXPECT_EQ(sizeOf(R"({"space":{"size":3.0}})"), 3);
    EXPECT_EQ(sizeOf(R"({"space":{"size":28561204985856}})"), 28561204985856L);
    try {
        sizeOf(R"({"space":{"size":1e27}})");
        FAIL() << "no exception";
    } catch (const nlohmann::json::type_error &e) {
        EXPECT_NE(std::string(e.what()).find("field 'space.size': number out of range"), std::string::npos) << e.what();
    }
    int small = 0;
    EXPECT_THROW(jf::read(nlohmann::json::parse(R"({"n":4294967296})"), {"n"}, small), nlohmann::json::type_error);
    unsigned count = 0;
    EXPECT_THROW(jf::read(nlohmann::json::parse(R"({"n":-1})"), {"n"}, count), nlohmann::json::type_error);
}
