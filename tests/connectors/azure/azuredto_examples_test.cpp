// The Azure connector's DTOs fed the vendor-published ARM examples (azure-rest-api-specs,
// Microsoft.NetApp stable/2025-06-01/examples, copied in tests/fixtures/azure/, MIT), not bodies
// our simulator produced.

#include "connectors/azure/dto.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>

namespace {

using nlohmann::json;

// The 200/201 body of a published example file.
json armExampleBody(const std::string &name, const std::string &status = "200")
{
    std::ifstream in(std::string(STRATA_FIXTURES_DIR) + "/azure/" + name + ".json");
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_TRUE(in.good() || in.eof()) << name;
    return json::parse(text.str()).at("responses").at(status).at("body");
}

} // namespace

TEST(AzureDtoExamples, AccountsList_ParsesIdNameLocationState)
{
    const auto accounts = armExampleBody("Accounts_List").at("value").get<std::vector<strata::azure::NetAppAccount>>();
    ASSERT_EQ(accounts.size(), 1u);
    EXPECT_EQ(accounts[0].name, "account1");
    EXPECT_EQ(accounts[0].location, "eastus");
    EXPECT_EQ(accounts[0].provisioningState, "Succeeded");
    EXPECT_NE(accounts[0].id.find("/netAppAccounts/account1"), std::string::npos);
}

TEST(AzureDtoExamples, PoolsList_ParsesSizeServiceLevelAndThroughput)
{
    const auto pools = armExampleBody("Pools_List").at("value").get<std::vector<strata::azure::CapacityPool>>();
    ASSERT_EQ(pools.size(), 1u);
    EXPECT_EQ(pools[0].name, "account1/pool1");
    EXPECT_EQ(pools[0].poolId, "9760acf5-4638-11e7-9bdb-020073ca7778");
    EXPECT_EQ(pools[0].serviceLevel, "Premium");
    EXPECT_EQ(pools[0].sizeBytes, 4398046511104);
    EXPECT_EQ(pools[0].qosType, "Auto");
    EXPECT_DOUBLE_EQ(pools[0].totalThroughputMibps, 281.474);
    EXPECT_DOUBLE_EQ(pools[0].utilizedThroughputMibps, 100.474);
}

TEST(AzureDtoExamples, VolumesGet_ParsesQuotaTokenAndThroughput)
{
    const auto volume = armExampleBody("Volumes_Get").get<strata::azure::AnfVolume>();
    EXPECT_EQ(volume.name, "account1/pool1/volume1");
    EXPECT_EQ(volume.fileSystemId, "9760acf5-4638-11e7-9bdb-020073ca7778");
    EXPECT_EQ(volume.creationToken, "some-amazing-filepath");
    EXPECT_EQ(volume.usageThresholdBytes, 107374182400);
    EXPECT_EQ(volume.serviceLevel, "Premium");
    ASSERT_TRUE(volume.throughputMibps.has_value());
    EXPECT_DOUBLE_EQ(*volume.throughputMibps, 128);
    EXPECT_EQ(volume.provisioningState, "Succeeded");
    EXPECT_FALSE(volume.subnetId.empty());
}

TEST(AzureDtoExamples, VolumesList_EveryVolumeParses)
{
    const auto body = armExampleBody("Volumes_List");
    const auto volumes = body.at("value").get<std::vector<strata::azure::AnfVolume>>();
    ASSERT_EQ(volumes.size(), body.at("value").size());
    for (const auto &v : volumes) {
        EXPECT_FALSE(v.name.empty());
        EXPECT_GT(v.usageThresholdBytes, 0);
    }
}

TEST(AzureDtoExamples, SnapshotsList_ParsesIdAndCreated)
{
    const auto snapshots = armExampleBody("Snapshots_List").at("value").get<std::vector<strata::azure::AnfSnapshot>>();
    ASSERT_EQ(snapshots.size(), 1u);
    EXPECT_EQ(snapshots[0].name, "account1/pool1/volume1/snapshot1");
    EXPECT_EQ(snapshots[0].snapshotId, "9760acf5-4638-11e7-9bdb-020073ca3333");
    EXPECT_EQ(snapshots[0].created, "2017-08-15T13:23:33Z");
    EXPECT_EQ(snapshots[0].provisioningState, "Succeeded");
}

TEST(AzureDtoExamples, SnapshotsCreate_201BodyParses)
{
    const auto snapshot = armExampleBody("Snapshots_Create", "201").get<strata::azure::AnfSnapshot>();
    EXPECT_EQ(snapshot.name, "account1/pool1/volume1/snapshot1");
    EXPECT_EQ(snapshot.snapshotId, "9760acf5-4638-11e7-9bdb-020073ca3333");
}
