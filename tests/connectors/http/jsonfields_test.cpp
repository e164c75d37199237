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
