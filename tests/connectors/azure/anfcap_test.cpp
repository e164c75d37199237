// The ANF throughput cap Strata shows, against what the real service reports: recorded ARM bodies
// (tests/fixtures/azure/PROVENANCE.md, recorded/) parsed by the Azure connector, then the cap
// rule every view uses (core::anfVolumeCapMibps / anfAutoQosMibps).

#include "connectors/azure/dto.h"
#include "models/core/domain/ratecard.h"
#include "tests/support/fixtures.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace strata;

namespace {

constexpr qint64 kAnfCapGiB = 1024LL * 1024 * 1024;

nlohmann::json anfCapBody(const std::string &relativePath)
{
    return nlohmann::json::parse(testsupport::fixture(relativePath));
}

} // namespace

// A report filed this as "2.3 % low" (262.144 MiB/s for a 4 TiB Premium pool). The service
// itself answers 256.0 for that pool: 64 MiB/s per TiB of 2^40 bytes, which is what Strata uses.
TEST(AnfCap, AutoQosRateMatchesWhatTheServiceReportsForAPool)
{
    const auto pool = anfCapBody("azure/recorded/Pools_Get_Premium_4TiB_2022-11-01.json").get<azure::CapacityPool>();
    ASSERT_EQ(pool.qosType, "Auto");
    EXPECT_DOUBLE_EQ(core::anfAutoQosMibps(QString::fromStdString(pool.serviceLevel), pool.sizeBytes),
                     pool.totalThroughputMibps);
    EXPECT_DOUBLE_EQ(pool.totalThroughputMibps, 256.0);
    // Microsoft's service-levels page: 100 GiB of Premium quota -> 6.25 MiB/s.
    EXPECT_DOUBLE_EQ(core::anfAutoQosMibps(QStringLiteral("Premium"), 100 * kAnfCapGiB), 6.25);
    EXPECT_DOUBLE_EQ(core::anfAutoQosMibps(QStringLiteral("Standard"), 4096 * kAnfCapGiB), 64.0);
    EXPECT_DOUBLE_EQ(core::anfAutoQosMibps(QStringLiteral("Ultra"), 4096 * kAnfCapGiB), 512.0);
    EXPECT_LT(core::anfAutoQosMibps(QStringLiteral("Flexible"), 4096 * kAnfCapGiB), 0);
}

// api-version 2019-07-01 has no throughputMibps: the cap follows from level and quota.
TEST(AnfCap, OlderApiVersionWithoutThroughputGetsTheCapFromLevelAndQuota)
{
    const auto v = anfCapBody("azure/recorded/Volumes_Get_Premium_100GiB_2019-07-01.json").get<azure::AnfVolume>();
    ASSERT_FALSE(v.throughputMibps.has_value());
    EXPECT_DOUBLE_EQ(
        core::anfVolumeCapMibps(
            v.throughputMibps, QStringLiteral("Auto"), QString::fromStdString(v.serviceLevel), v.usageThresholdBytes),
        6.25);
}

// An auto-QoS volume reported with throughputMibps 0 (the vendor example Volumes_Get.json with
// the value an older api-version answers) is not shown as "0.0 MiB/s": no auto-QoS volume has a
// cap of 0. A Manual-QoS volume keeps what the user set, 0 included.
TEST(AnfCap, ZeroThroughputOnAnAutoQosVolumeIsComputedNotShownAsZero)
{
    nlohmann::json body = anfCapBody("azure/Volumes_Get.json")["responses"]["200"]["body"];
    body["properties"]["throughputMibps"] = 0;
    const auto v = body.get<azure::AnfVolume>();
    ASSERT_TRUE(v.throughputMibps.has_value());
    ASSERT_EQ(*v.throughputMibps, 0.0);
    const QString level = QString::fromStdString(v.serviceLevel);
    EXPECT_DOUBLE_EQ(core::anfVolumeCapMibps(v.throughputMibps, QStringLiteral("Auto"), level, v.usageThresholdBytes),
                     6.25);
    EXPECT_DOUBLE_EQ(core::anfVolumeCapMibps(v.throughputMibps, QString(), level, v.usageThresholdBytes), 6.25)
        << "pool not known: not Manual";
    EXPECT_DOUBLE_EQ(core::anfVolumeCapMibps(v.throughputMibps, QStringLiteral("Manual"), level, v.usageThresholdBytes),
                     0.0);
    // What ARM reports wins when it is a real cap (the example's 128 on a Manual pool).
    EXPECT_DOUBLE_EQ(core::anfVolumeCapMibps(128.0, QStringLiteral("Manual"), level, v.usageThresholdBytes), 128.0);
    EXPECT_DOUBLE_EQ(core::anfVolumeCapMibps(std::nullopt, QStringLiteral("Manual"), level, v.usageThresholdBytes),
                     -1.0);
}
