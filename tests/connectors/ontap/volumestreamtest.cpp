// The streaming volume-page decoder (simdjson On-Demand) against the DOM route it replaces for
// large lists: same records, same next link, and every page it is not sure of left to the DOM.
#include "connectors/ontap/volumestream.h"

#include "connectors/http/jsonparse.h"
#include "tests/connectors/ontap/ontaptestsupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace strata::ontap::test {
namespace {

struct StreamDomPage
{
    std::vector<Volume> records;
    std::string next;
};

// What listAll did with every page before the streaming decoder: parse, then from_json.
StreamDomPage domDecodeVolumePage(const std::string &body)
{
    const nlohmann::json page = http::parseJsonBounded(body);
    StreamDomPage out;
    if (auto records = page.find("records"); records != page.end()) {
        out.records = records->get<std::vector<Volume>>();
    }
    if (auto links = page.find("_links"); links != page.end() && links->is_object()) {
        if (auto n = links->find("next"); n != links->end() && n->is_object()) {
            out.next = n->value("href", std::string());
        }
    }
    return out;
}

// Decodes `body` both ways and expects the streaming decoder to take it with the same result.
void expectSameAsDom(std::string body)
{
    SCOPED_TRACE(body.substr(0, 200));
    const StreamDomPage dom = domDecodeVolumePage(body);
    VolumePageDecoder decoder;
    std::vector<Volume> streamed;
    std::string next = "unchanged";
    ASSERT_TRUE(decoder.decode(body, streamed, next));
    EXPECT_EQ(next, dom.next);
    ASSERT_EQ(streamed.size(), dom.records.size());
    for (std::size_t i = 0; i < streamed.size(); ++i) {
        EXPECT_TRUE(streamed[i] == dom.records[i]) << "record " << i + 1 << " (" << dom.records[i].name << ")";
    }
}

constexpr const char *kStreamVolumesPath = "/api/storage/volumes";

std::string streamOneRecord(const std::string &fields)
{
    return R"({"records":[{"uuid":"u1","name":"v1")" + (fields.empty() ? "" : "," + fields) + "}]}";
}

TEST(VolumeStream, HarvestRecordedVolumes_SameRecordsAsTheDomDecoder)
{
    // A real cluster's answer (NetApp Harvest's recording, tests/fixtures/ontap/recorded/PROVENANCE.md).
    const std::string body = fixture("ontap/recorded/volumes.json");
    expectSameAsDom(body);
    VolumePageDecoder decoder;
    std::vector<Volume> volumes;
    std::string next;
    std::string copy = body;
    ASSERT_TRUE(decoder.decode(copy, volumes, next));
    ASSERT_EQ(volumes.size(), 4u);
    EXPECT_EQ(volumes[0].name, "trident_pvc_6d88681a_7653_49c5_8970_eab7d84a55c2");
    EXPECT_EQ(volumes[0].sizeBytes, 8589934592);
    EXPECT_EQ(copy, body) << "the text is left as it was";
}

TEST(VolumeStream, SwaggerShapedPages_SameRecordsAndNextLinkAsTheDomDecoder)
{
    expectSameAsDom(ontapFixture("volumes_page1.json"));
    expectSameAsDom(ontapFixture("volumes_page2.json"));
}

TEST(VolumeStream, FieldRulesOfFromJson_Kept)
{
    // null is absent; an object with neither name nor uuid is no reference; size falls back to
    // space.size; percent_used derived from used/size; a non-object on the way is looked through.
    expectSameAsDom(streamOneRecord(R"("svm":null,"state":null,"qos":{"policy":{}},"size":0,)"
                                    R"("space":{"size":2000,"used":500,"snapshot":{"reserve_percent":5,"used":7}})"));
    expectSameAsDom(streamOneRecord(R"("svm":{"name":"s"},"qos":{"policy":{"name":"gold"}},"space":"n/a",)"
                                    R"("clone":7,"nas":{"path":null},"metric":5)"));
    expectSameAsDom(streamOneRecord(R"("metric":{"timestamp":"t","iops":{"read":1,"write":2.5,"total":3},)"
                                    R"("throughput":[1,2],"latency":{"total":-0.0e-5}})"));
    expectSameAsDom(streamOneRecord(R"("aggregates":[{"name":"a1"},{"uuid":"x","name":null}],"aggregates_x":[[[{}]]],)"
                                    R"("clone":{"is_flexclone":true,"parent_volume":{"name":"p","uuid":"pu"},)"
                                    R"("parent_snapshot":null},"snapshot_count":-3,"create_time":"2024")"));
    expectSameAsDom(
        streamOneRecord(R"("n\u0061s":{"path":"/escaped/key"},"big":123456789012345678901234567890,"s":"\ud83d\ude00",)"
                        R"("state":"caf\u00e9 \"quoted\" \\ \n")"));
    expectSameAsDom(R"({"num_records":0,"records":[],"_links":{"self":{"href":"/a"},"next":{"href":"/b"}}})");
    expectSameAsDom(R"({"_links":{"next":"not an object"}})");
    expectSameAsDom(" \n{}\n ");
}

// Pages the decoder must not take: the DOM route decides (and words the error) instead.
TEST(VolumeStream, AnythingItIsNotSureOf_LeftToTheDomWithOutputUntouched)
{
    const std::vector<std::string> bodies = {
        "",
        R"({"records":[{"uuid":"a","name":)",                         // truncated
        R"({"records":[{"uuid":"a","name":"b"}]} x)",                 // trailing content
        R"({"records":[{"uuid":"a","name":"b"}]}})",                  // trailing brace
        R"({"records":[{"uuid":"a","name":"b","x":[1 2]}]})",         // malformed where nothing is read
        R"({"records":[{"uuid":"a","name":"b","size":1.0e3}]})",      // from_json converts floats: its call
        R"({"records":[{"uuid":"a","name":"b","size":1,"size":2}]})", // DOM keeps the last
        R"({"records":[{"uuid":"a","name":7}]})",
        R"({"records":[{"name":"no uuid"}]})",
        R"({"records":[{"uuid":null,"name":"b"}]})",
        R"({"records":[{"uuid":"a","name":"b","svm":"s"}]})",
        R"({"records":[{"uuid":"a","name":"b","space":{"percent_used":true}}]})",
        R"({"records":[{"uuid":"a","name":"b","snapshot_count":3000000000}]})",
        R"({"records":[{"uuid":"a","name":"b","x":"\udc00"}]})",
        R"({"records":{"uuid":"a"}})",
        R"({"records":[5]})",
        R"([{"uuid":"a","name":"b"}])",
        R"({"_links":{"next":{"href":null}}})",
        "\xEF\xBB\xBF{}",
        "{\"records\":[{\"uuid\":\"a\",\"name\":\"b\",\"x\":" + std::string(100, '[') + std::string(100, ']') + "}]}",
    };
    for (std::string body : bodies) {
        SCOPED_TRACE(body.substr(0, 120));
        VolumePageDecoder decoder;
        std::vector<Volume> out(1);
        out[0].name = "kept";
        std::string next = "kept";
        EXPECT_FALSE(decoder.decode(body, out, next));
        ASSERT_EQ(out.size(), 1u);
        EXPECT_EQ(out[0].name, "kept");
        EXPECT_EQ(next, "kept");
    }
}

TEST(VolumeStream, DecoderReusedAcrossPages_AppendsInOrder)
{
    VolumePageDecoder decoder;
    std::vector<Volume> out;
    std::string next;
    std::string first = ontapFixture("volumes_page1.json");
    std::string bad = R"({"records":[{"uuid":"z","name":"z"},{"uuid":1}]})";
    std::string second = ontapFixture("volumes_page2.json");
    ASSERT_TRUE(decoder.decode(first, out, next));
    const std::size_t afterFirst = out.size();
    EXPECT_FALSE(decoder.decode(bad, out, next));
    EXPECT_EQ(out.size(), afterFirst) << "a page given up leaves none of its records behind";
    ASSERT_TRUE(decoder.decode(second, out, next));
    std::vector<Volume> dom = domDecodeVolumePage(ontapFixture("volumes_page1.json")).records;
    for (Volume &v : domDecodeVolumePage(ontapFixture("volumes_page2.json")).records) {
        dom.push_back(std::move(v));
    }
    EXPECT_TRUE(out == dom);
    EXPECT_EQ(next, "");
}

// Through the client: a page only the DOM takes (a float size) mixes with streamed pages.
TEST_F(OntapClientTest, ListVolumes_PageTheStreamingDecoderGivesUp_DecodedByTheDomWithTheSameRules)
{
    transport.enqueueJson(Method::Get,
                          kStreamVolumesPath,
                          R"({"records":[{"uuid":"a","name":"v1","size":10}],)"
                          R"("_links":{"next":{"href":"/api/storage/volumes?start.uuid=a"}}})");
    transport.enqueueJson(Method::Get, kStreamVolumesPath, R"({"records":[{"uuid":"b","name":"v2","size":1.0e3}]})");
    const auto volumes = client().listVolumes();
    ASSERT_TRUE(volumes) << volumes.error().message;
    ASSERT_EQ(volumes->size(), 2u);
    EXPECT_EQ((*volumes)[0].sizeBytes, 10);
    EXPECT_EQ((*volumes)[1].sizeBytes, 1000);
}

TEST_F(OntapClientTest, ForEachVolume_HandsOverEachPagesVolumesInOrderWithoutConstituents)
{
    transport.enqueueJson(Method::Get, kStreamVolumesPath, ontapFixture("volumes_page1.json"));
    transport.enqueueJson(Method::Get, kStreamVolumesPath, ontapFixture("volumes_page2.json"));
    std::vector<std::string> names;
    const auto walked = client().forEachVolume(false, [&](Volume &&v) {
        names.push_back(v.name);
    });
    ASSERT_TRUE(walked) << walked.error().message;
    std::vector<std::string> expected;
    for (const char *page : {"volumes_page1.json", "volumes_page2.json"}) {
        for (const Volume &v : domDecodeVolumePage(ontapFixture(page)).records) {
            expected.push_back(v.name);
        }
    }
    EXPECT_EQ(names, expected);
    EXPECT_EQ(transport.requestCount(), 2);

    transport.enqueueJson(Method::Get,
                          kStreamVolumesPath,
                          R"({"records":[{"uuid":"c","name":"fg__0001","style":"flexgroup_constituent"},)"
                          R"({"uuid":"d","name":"after"}]})");
    names.clear();
    ASSERT_TRUE(client().forEachVolume(false, [&](Volume &&v) {
        names.push_back(v.name);
    }));
    EXPECT_EQ(names, std::vector<std::string>{"after"});
}

// A 400 naming a newer field on a later page is not the old-cluster answer the retry is for, and
// retrying would hand the first page's volumes over twice.
TEST_F(OntapClientTest, ForEachVolume_RejectionAfterVolumesWereHandedOver_NotRetried)
{
    transport.enqueueJson(
        Method::Get,
        kStreamVolumesPath,
        R"({"records":[{"uuid":"a","name":"v1"}],"_links":{"next":{"href":"/api/storage/volumes?p=2"}}})");
    transport.enqueueJson(Method::Get, kStreamVolumesPath, ontapFixture("error_unexpected_argument.json"), 400);
    int handedOver = 0;
    const auto walked = client().forEachVolume(false, [&](Volume &&) {
        ++handedOver;
    });
    ASSERT_FALSE(walked);
    EXPECT_EQ(walked.error().httpStatus, 400);
    EXPECT_EQ(handedOver, 1);
    EXPECT_EQ(transport.requestCount(), 2);
}

TEST_F(OntapClientTest, ListVolumes_BadRecordOnSecondPage_NumberedAcrossPages)
{
    transport.enqueueJson(Method::Get,
                          kStreamVolumesPath,
                          R"({"records":[{"uuid":"a","name":"v1"},{"uuid":"b","name":"v2"}],)"
                          R"("_links":{"next":{"href":"/api/storage/volumes?p=2"}}})");
    transport.enqueueJson(Method::Get, kStreamVolumesPath, R"({"records":[{"name":"trident_pvc_broken"}]})");
    const auto volumes = client().listVolumes();
    ASSERT_FALSE(volumes);
    EXPECT_EQ(volumes.error().message,
              "listing ONTAP volumes: ONTAP sent no \"uuid\" field (record 3 \"trident_pvc_broken\")");
}

} // namespace
} // namespace strata::ontap::test
