// DTO parsing against the modelled 9.14 fixtures (tests/fixtures/ontap/README.md) and inline
// edge cases: missing optional fields, unknown enum strings, derived values.
#include "connectors/ontap/dto.h"

#include "tests/connectors/ontap/ontaptestsupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace strata::ontap::test {
namespace {

using nlohmann::json;

json load(const std::string &name)
{
    return json::parse(ontapFixture(name));
}

template <class T> std::vector<T> records(const std::string &name)
{
    return load(name).at("records").get<std::vector<T>>();
}

TEST(OntapDto, Cluster_Fixture_ParsesNameUuidAndVersion)
{
    const auto c = load("cluster.json").get<Cluster>();
    EXPECT_EQ(c.name, "ntap-prod-01");
    EXPECT_EQ(c.uuid, "7bd8ac4c-4ef8-11ee-a2c5-005056ae5bd6");
    EXPECT_EQ(c.versionFull, "NetApp Release 9.14.1P2: Thu Feb 01 00:45:32 UTC 2024");
    EXPECT_EQ(c.versionGeneration, 9);
    EXPECT_EQ(c.versionMajor, 14);
    EXPECT_EQ(c.versionMinor, 1);
}

TEST(OntapDto, Svm_Fixture_ParsesStateAndSubtype)
{
    const auto svms = records<Svm>("svms.json");
    ASSERT_EQ(svms.size(), 3u);
    EXPECT_EQ(svms[0].name, "svm_trident");
    EXPECT_EQ(svms[0].uuid, "3e2c1d0a-4ef9-11ee-a2c5-005056ae5bd6");
    EXPECT_EQ(svms[0].state, "running");
    EXPECT_EQ(svms[2].state, "stopped");
    EXPECT_EQ(svms[2].subtype, "dp_destination");
}

TEST(OntapDto, Aggregate_Fixture_ParsesBlockStorageBytes)
{
    const auto aggrs = records<Aggregate>("aggregates.json");
    ASSERT_EQ(aggrs.size(), 2u);
    EXPECT_EQ(aggrs[0].name, "aggr1_n01");
    EXPECT_EQ(aggrs[0].node, "ntap-prod-01-01");
    EXPECT_EQ(aggrs[0].state, "online");
    EXPECT_EQ(aggrs[0].sizeBytes, 28561204985856);
    EXPECT_EQ(aggrs[0].usedBytes, 16405858664448);
    EXPECT_EQ(aggrs[0].availableBytes, 12155346321408);
}

TEST(OntapDto, Aggregate_WithoutNode_FallsBackToHomeNode)
{
    const auto aggrs = records<Aggregate>("aggregates.json");
    ASSERT_EQ(aggrs.size(), 2u);
    EXPECT_EQ(aggrs[1].node, "ntap-prod-01-02");
}

TEST(OntapDto, Volume_FlexVolRecord_ParsesSpaceQosAndPath)
{
    const auto vols = records<Volume>("volumes_page1.json");
    ASSERT_EQ(vols.size(), 3u);
    const Volume &v = vols[0];
    EXPECT_EQ(v.uuid, "6b1f0c2e-d0a4-11ee-b3c1-005056ae5bd6");
    EXPECT_EQ(v.name, "trident_pvc_2f9c3e4b_8a1d_4c5e_9b7f_0d6e1a2b3c4d");
    EXPECT_EQ(v.svm.name, "svm_trident");
    EXPECT_EQ(v.svm.uuid, "3e2c1d0a-4ef9-11ee-a2c5-005056ae5bd6");
    ASSERT_EQ(v.aggregates.size(), 1u);
    EXPECT_EQ(v.aggregates[0].name, "aggr1_n01");
    EXPECT_EQ(v.state, "online");
    EXPECT_EQ(v.style, "flexvol");
    EXPECT_EQ(v.type, "rw");
    EXPECT_EQ(v.sizeBytes, 107374182400);
    EXPECT_EQ(v.usedBytes, 53687091200);
    EXPECT_EQ(v.availableBytes, 48318382080);
    ASSERT_TRUE(v.percentUsed.has_value());
    EXPECT_DOUBLE_EQ(*v.percentUsed, 52.0);
    EXPECT_EQ(v.snapshotReservePercent, 5);
    EXPECT_EQ(v.snapshotUsedBytes, 1073741824);
    ASSERT_TRUE(v.qosPolicy.has_value());
    EXPECT_EQ(v.qosPolicy->name, "gold_pvc");
    EXPECT_FALSE(v.isFlexClone);
    EXPECT_FALSE(v.cloneParentVolume.has_value());
    EXPECT_EQ(v.nasPath, "/trident_pvc_2f9c3e4b_8a1d_4c5e_9b7f_0d6e1a2b3c4d");
    EXPECT_EQ(v.snapshotCount, 4);
    EXPECT_EQ(v.createTime, "2024-02-12T09:14:03+00:00");
    EXPECT_FALSE(v.metric.has_value());
}

TEST(OntapDto, Volume_FlexCloneRecord_ParsesParentVolumeAndSnapshot)
{
    const auto vols = records<Volume>("volumes_page1.json");
    ASSERT_EQ(vols.size(), 3u);
    const Volume &clone = vols[1];
    EXPECT_TRUE(clone.isFlexClone);
    ASSERT_TRUE(clone.cloneParentVolume.has_value());
    EXPECT_EQ(clone.cloneParentVolume->name, "trident_pvc_2f9c3e4b_8a1d_4c5e_9b7f_0d6e1a2b3c4d");
    EXPECT_EQ(clone.cloneParentVolume->uuid, "6b1f0c2e-d0a4-11ee-b3c1-005056ae5bd6");
    ASSERT_TRUE(clone.cloneParentSnapshot.has_value());
    EXPECT_EQ(clone.cloneParentSnapshot->name, "snapshot-5c1f7e2a-9d3b-4a6c-8e1f-2b3c4d5e6f70");
}

TEST(OntapDto, Volume_FlexGroupRecord_KeepsEveryAggregate)
{
    const auto vols = records<Volume>("volumes_page1.json");
    ASSERT_EQ(vols.size(), 3u);
    const Volume &fg = vols[2];
    EXPECT_EQ(fg.style, "flexgroup");
    ASSERT_EQ(fg.aggregates.size(), 2u);
    EXPECT_EQ(fg.aggregates[1].name, "aggr1_n02");
    EXPECT_EQ(fg.sizeBytes, 219902325555200);
    EXPECT_FALSE(fg.qosPolicy.has_value());
}

TEST(OntapDto, Volume_OfflineWithoutSpace_LeavesSpaceUnknown)
{
    const auto vols = records<Volume>("volumes_page2.json");
    ASSERT_EQ(vols.size(), 2u);
    const Volume &offline = vols[0];
    EXPECT_EQ(offline.name, "vol_archive_2019");
    EXPECT_EQ(offline.state, "offline");
    EXPECT_EQ(offline.sizeBytes, 2199023255552);
    EXPECT_FALSE(offline.usedBytes.has_value()) << "space omitted: unknown, not 0";
    EXPECT_FALSE(offline.availableBytes.has_value());
    EXPECT_FALSE(offline.percentUsed.has_value()) << "no space.used: nothing to derive from";
    EXPECT_TRUE(offline.nasPath.empty());
}

TEST(OntapDto, Volume_OfflineSingleRecord_HasSizeButNoSpaceFigures)
{
    const auto v = load("volume_offline.json").get<Volume>();
    EXPECT_EQ(v.state, "offline");
    EXPECT_EQ(v.sizeBytes, 2199023255552);
    EXPECT_FALSE(v.usedBytes.has_value());
    EXPECT_FALSE(v.availableBytes.has_value());
    EXPECT_FALSE(v.percentUsed.has_value());
}

TEST(OntapDto, Volume_WithoutPercentUsed_DerivesItFromUsedAndSize)
{
    // A 9.8 cluster: no space.percent_used.
    const auto v =
        json::parse(R"({"uuid":"u1","name":"vol1","size":1000,"space":{"used":250,"available":700}})").get<Volume>();
    ASSERT_TRUE(v.percentUsed.has_value());
    EXPECT_DOUBLE_EQ(*v.percentUsed, 25.0);
}

TEST(OntapDto, Volume_OnlyRequiredFields_EverythingElseDefaults)
{
    const auto v = json::parse(R"({"uuid":"u1","name":"vol1"})").get<Volume>();
    EXPECT_EQ(v.sizeBytes, 0);
    EXPECT_FALSE(v.percentUsed.has_value());
    EXPECT_TRUE(v.svm.name.empty());
    EXPECT_TRUE(v.aggregates.empty());
    EXPECT_FALSE(v.qosPolicy.has_value());
    EXPECT_FALSE(v.metric.has_value());
}

TEST(OntapDto, Volume_UnknownEnumStrings_PassThroughUnchanged)
{
    const auto v = json::parse(R"({"uuid":"u1","name":"vol1","state":"migrating","style":"flexcache_v2","type":"tmp"})")
                       .get<Volume>();
    EXPECT_EQ(v.state, "migrating");
    EXPECT_EQ(v.style, "flexcache_v2");
    EXPECT_EQ(v.type, "tmp");
}

TEST(OntapDto, Volume_NullQosPolicy_TreatedAsAbsent)
{
    const auto v =
        json::parse(R"({"uuid":"u1","name":"vol1","qos":{"policy":null},"nas":{"path":null}})").get<Volume>();
    EXPECT_FALSE(v.qosPolicy.has_value());
    EXPECT_TRUE(v.nasPath.empty());
}

TEST(OntapDto, Volume_MissingUuid_Throws)
{
    EXPECT_THROW((void)json::parse(R"({"name":"vol1"})").get<Volume>(), json::out_of_range);
}

TEST(OntapDto, Volume_SizeAsString_TypeErrorNamesTheField)
{
    try {
        (void)json::parse(R"({"uuid":"u","name":"v","space":{"used":"100g"}})").get<Volume>();
        FAIL() << "expected a type_error";
    } catch (const json::type_error &e) {
        EXPECT_NE(std::string(e.what()).find("field 'space.used'"), std::string::npos) << e.what();
    }
}

TEST(OntapDto, Volume_MetricFixture_ParsesIopsLatencyAndThroughput)
{
    const auto v = load("volume.json").get<Volume>();
    ASSERT_TRUE(v.metric.has_value());
    EXPECT_EQ(v.metric->timestamp, "2024-03-01T10:15:00Z");
    EXPECT_DOUBLE_EQ(v.metric->readIops, 1520);
    EXPECT_DOUBLE_EQ(v.metric->writeIops, 310);
    EXPECT_DOUBLE_EQ(v.metric->totalIops, 1842);
    EXPECT_DOUBLE_EQ(v.metric->readLatencyUs, 245);
    EXPECT_DOUBLE_EQ(v.metric->totalLatencyUs, 273);
    EXPECT_DOUBLE_EQ(v.metric->readThroughputBps, 99614720);
    EXPECT_DOUBLE_EQ(v.metric->totalThroughputBps, 119930880);
}

TEST(OntapDto, Snapshot_Fixture_ParsesLabelsExpiryAndSize)
{
    const auto snaps = records<Snapshot>("snapshots.json");
    ASSERT_EQ(snaps.size(), 3u);
    EXPECT_EQ(snaps[0].name, "daily.2024-03-01_0010");
    EXPECT_EQ(snaps[0].snapmirrorLabel, "daily");
    EXPECT_EQ(snaps[0].createTime, "2024-03-01T00:10:00+00:00");
    EXPECT_EQ(snaps[0].sizeBytes, 412467200);
    EXPECT_EQ(snaps[0].state, "valid");
    EXPECT_TRUE(snaps[0].expiryTime.empty());
    EXPECT_EQ(snaps[0].volume.uuid, "6b1f0c2e-d0a4-11ee-b3c1-005056ae5bd6");
    EXPECT_EQ(snaps[0].svm.name, "svm_trident");
    EXPECT_EQ(snaps[1].uuid, "4d2c1b0a-d7b0-11ee-b3c1-005056ae5bd6");
    EXPECT_EQ(snaps[1].expiryTime, "2024-06-01T00:00:00+00:00");
    EXPECT_EQ(snaps[1].comment, "Trident CSI snapshot of PVC pvc-2f9c3e4b-8a1d-4c5e-9b7f-0d6e1a2b3c4d");
    EXPECT_TRUE(snaps[1].snapmirrorLabel.empty());
}

TEST(OntapDto, FlexCache_Fixture_ParsesLocalAndRemoteOrigins)
{
    const auto caches = records<FlexCache>("flexcaches.json");
    ASSERT_EQ(caches.size(), 2u);
    EXPECT_EQ(caches[0].name, "fc_analytics_edge");
    EXPECT_EQ(caches[0].svm.name, "svm_nfs");
    EXPECT_EQ(caches[0].sizeBytes, 10995116277760);
    EXPECT_EQ(caches[0].path, "/fc_analytics");
    ASSERT_EQ(caches[0].origins.size(), 1u);
    EXPECT_EQ(caches[0].origins[0].volumeName, "fg_analytics");
    EXPECT_EQ(caches[0].origins[0].clusterName, "ntap-prod-01");
    EXPECT_TRUE(caches[1].path.empty());
    ASSERT_EQ(caches[1].origins.size(), 1u);
    EXPECT_EQ(caches[1].origins[0].clusterName, "ntap-dc2-02");
    EXPECT_EQ(caches[1].origins[0].svmName, "svm_models");
    EXPECT_EQ(caches[1].origins[0].volumeName, "models_vol");
}

TEST(OntapDto, QosPolicy_FixedAndAdaptive_FillTheirOwnFields)
{
    const auto policies = records<QosPolicy>("qos_policies.json");
    ASSERT_EQ(policies.size(), 2u);
    const QosPolicy &fixed = policies[0];
    EXPECT_EQ(fixed.name, "gold_pvc");
    EXPECT_FALSE(fixed.isAdaptive);
    EXPECT_EQ(fixed.objectCount, 14);
    EXPECT_EQ(fixed.maxIops, 5000);
    EXPECT_EQ(fixed.maxMbps, 200);
    EXPECT_EQ(fixed.minIops, 1000);
    EXPECT_EQ(fixed.minMbps, 0);
    EXPECT_FALSE(fixed.capacityShared);
    EXPECT_EQ(fixed.expectedIopsPerTb, 0);

    const QosPolicy &adaptive = policies[1];
    EXPECT_EQ(adaptive.name, "extreme");
    EXPECT_TRUE(adaptive.isAdaptive);
    EXPECT_EQ(adaptive.expectedIopsPerTb, 6144);
    EXPECT_EQ(adaptive.peakIopsPerTb, 12288);
    EXPECT_EQ(adaptive.absoluteMinIops, 1000);
    EXPECT_EQ(adaptive.maxIops, 0);
}

TEST(OntapDto, EmsEvent_Fixture_ParsesIndexSeverityAndNode)
{
    const auto events = records<EmsEvent>("ems_events.json");
    ASSERT_EQ(events.size(), 3u);
    EXPECT_EQ(events[0].index, 48213);
    EXPECT_EQ(events[0].time, "2024-03-01T10:14:52+00:00");
    EXPECT_EQ(events[0].node, "ntap-prod-01-02");
    EXPECT_EQ(events[0].messageName, "wafl.vol.autoSize.done");
    EXPECT_EQ(events[0].severity, "notice");
    EXPECT_EQ(events[1].severity, "alert");
    EXPECT_NE(events[1].logMessage.find("nearly full"), std::string::npos);
}

TEST(OntapDto, Job_EachStateFixture_ParsedWithTerminality)
{
    const auto running = load("job_running.json").get<Job>();
    EXPECT_EQ(running.uuid, "e43a40db-cd61-11eb-a170-005056b338cd");
    EXPECT_EQ(running.state, "running");
    EXPECT_FALSE(running.isTerminal());
    EXPECT_EQ(running.startTime, "2024-03-01T10:20:41+00:00");
    EXPECT_TRUE(running.endTime.empty());

    const auto success = load("job_success.json").get<Job>();
    EXPECT_TRUE(success.isTerminal());
    EXPECT_EQ(success.endTime, "2024-03-01T10:20:43+00:00");

    const auto failure = load("job_failure.json").get<Job>();
    EXPECT_TRUE(failure.isTerminal());
    EXPECT_EQ(failure.code, 917536);
    EXPECT_EQ(failure.description, "POST /api/storage/volumes");
}

TEST(OntapDto, Job_CodeAsString_Accepted)
{
    const auto job = json::parse(R"({"uuid":"j","state":"failure","code":"524486"})").get<Job>();
    EXPECT_EQ(job.code, 524486);
}

TEST(OntapDto, Job_NonNumericStringCode_ThrowsTypeError)
{
    EXPECT_THROW((void)json::parse(R"({"uuid":"j","state":"failure","code":"E42"})").get<Job>(), json::type_error);
}

TEST(OntapDto, Job_MissingState_Throws)
{
    EXPECT_THROW((void)json::parse(R"({"uuid":"j"})").get<Job>(), json::out_of_range);
}

} // namespace
} // namespace strata::ontap::test
