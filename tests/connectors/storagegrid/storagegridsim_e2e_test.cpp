// StorageGridClient end to end against the StorageGRID simulator's management API (HTTPS with
// its own CA, expiring tokens, faults): the datalake preset read the way the StorageGRID source
// reads it.
#include "connectors/http/curltransport.h"
#include "connectors/storagegrid/storagegridclient.h"
#include "simulators/common/serverthread.h"
#include "simulators/storagegrid/storagegridsimulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <set>

using namespace strata;
using namespace strata::storagegrid;
using namespace std::chrono_literals;
using Kind = connectors::Error::Kind;
namespace sg = strata::sim::storagegrid;

namespace {

class StorageGridSimE2E : public ::testing::Test
{
protected:
    void SetUp() override
    {
        QString error;
        m_sim = sg::StorageGridSimulator::startOnThread(m_thread, sg::StorageGridSimulatorOptions{}, &error);
        ASSERT_NE(m_sim, nullptr) << error.toStdString();
    }

    StorageGridClient client(const std::string &accountId = {}, const std::string &password = {})
    {
        http::TransportOptions transport;
        transport.caPem = m_sim->caPem().toStdString();
        transport.connectTimeout = 2s;
        transport.totalTimeout = 10s;
        StorageGridOptions options;
        options.http.baseUrl = m_sim->managementUrl().toStdString();
        options.http.retry.maxAttempts = 1;
        options.username = "root";
        options.password = password.empty() ? m_sim->options().rootPassword.toStdString() : password;
        options.accountId = accountId;
        return StorageGridClient(std::make_shared<http::CurlTransport>(transport), options);
    }

    sim::ServerThread m_thread;
    sg::StorageGridSimulator *m_sim = nullptr;
};

} // namespace

TEST_F(StorageGridSimE2E, DatalakeGrid_ReadsEverything)
{
    auto c = client();
    ASSERT_EQ(c.discoverApiVersion().value(), "v4");
    const auto version = c.productVersion();
    ASSERT_TRUE(version) << version.error().message;
    EXPECT_EQ(*version, m_sim->options().productVersion.toStdString());
    const auto name = c.topologyGridName();
    ASSERT_TRUE(name) << name.error().message;
    EXPECT_EQ(*name, "datalake");

    const auto health = c.health();
    ASSERT_TRUE(health) << health.error().message;
    const auto nodes = c.nodeHealth();
    ASSERT_TRUE(nodes) << nodes.error().message;
    EXPECT_EQ(nodes->size(), 5u); // admin, 3 storage, gateway
    EXPECT_EQ(health->nodesConnected + health->nodesAdminDown + health->nodesUnknown, static_cast<int>(nodes->size()));

    const auto alerts = c.alerts();
    ASSERT_TRUE(alerts) << alerts.error().message;
    const auto history = c.alertHistory();
    ASSERT_TRUE(history) << history.error().message;

    const auto accounts = c.accounts();
    ASSERT_TRUE(accounts) << accounts.error().message;
    const auto cache = c.accountsCache();
    ASSERT_TRUE(cache) << cache.error().message;
    ASSERT_EQ(accounts->size(), cache->size());
    const auto science = std::find_if(cache->begin(), cache->end(), [](const Account &a) {
        return a.name == "data-science";
    });
    ASSERT_NE(science, cache->end());
    ASSERT_TRUE(science->dataBytes.has_value());

    const auto usage = c.accountUsage(science->id, true);
    ASSERT_TRUE(usage) << usage.error().message;
    const auto datasets = std::find_if(usage->buckets.begin(), usage->buckets.end(), [](const BucketUsage &b) {
        return b.name == "datasets";
    });
    ASSERT_NE(datasets, usage->buckets.end());
    EXPECT_TRUE(datasets->versioningEnabled);
    EXPECT_GE(datasets->dataBytes, 290'200'000); // TR-4841: 290.2 MB of current data

    const auto policies = c.ilmPolicies();
    ASSERT_TRUE(policies) << policies.error().message;
    EXPECT_EQ(std::count_if(policies->begin(),
                            policies->end(),
                            [](const IlmPolicy &p) {
                                return p.active;
                            }),
              1);

    const auto now = std::chrono::system_clock::time_point(std::chrono::milliseconds(m_sim->nowMs()));
    const auto instant = c.metricQuery("storagegrid_tenant_usage_data_bytes", now);
    ASSERT_TRUE(instant) << instant.error().message;
    EXPECT_EQ(instant->resultType, "vector");
    const auto range = c.metricQueryRange("storagegrid_tenant_usage_data_bytes", now - 24h * 7, now, 3600);
    ASSERT_TRUE(range) << range.error().message;
    EXPECT_EQ(range->resultType, "matrix");
    ASSERT_FALSE(range->series.empty());
    EXPECT_GT(range->series[0].samples.size(), 100u);
}

TEST_F(StorageGridSimE2E, RevokedTokens_ReauthorizeOnce)
{
    auto c = client();
    ASSERT_TRUE(c.health());
    m_sim->revokeTokens();
    const auto health = c.health();
    ASSERT_TRUE(health) << health.error().message;
    EXPECT_EQ(c.authorizations(), 2);
    ASSERT_TRUE(c.logout());
}

TEST_F(StorageGridSimE2E, WrongPasswordAndFaults)
{
    auto wrong = client({}, "not-the-password");
    const auto refused = wrong.health();
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().kind, Kind::Auth) << refused.error().message;

    auto c = client();
    m_sim->addManagementFault(QStringLiteral("grid/health$"), QStringLiteral("malformed"));
    const auto malformed = c.health();
    ASSERT_FALSE(malformed);
    EXPECT_EQ(malformed.error().kind, Kind::Parse) << malformed.error().message;

    m_sim->addManagementFault(QStringLiteral("grid/node-health"), QStringLiteral("status"), 500);
    const auto failed = c.nodeHealth();
    ASSERT_FALSE(failed);
    EXPECT_EQ(failed.error().httpStatus, 500);
    ASSERT_TRUE(c.nodeHealth()); // the fault was for one request
}

TEST_F(StorageGridSimE2E, TenantToken_ListsTheTenantsBuckets)
{
    const auto tenants = m_sim->tenants();
    const auto science = std::find_if(tenants.begin(), tenants.end(), [](const sg::TenantSpec &t) {
        return t.name == QStringLiteral("data-science");
    });
    ASSERT_NE(science, tenants.end());
    auto c = client(science->id.toStdString(), science->rootPassword.toStdString());
    const auto buckets = c.containers();
    ASSERT_TRUE(buckets) << buckets.error().message;
    ASSERT_EQ(buckets->size(), 1u);
    EXPECT_EQ((*buckets)[0].name, "datasets");
    const auto usage = c.tenantUsage();
    ASSERT_TRUE(usage) << usage.error().message;
    EXPECT_GE(usage->dataBytes, 290'200'000);
}

namespace {

/// Adds tenants "bulk-0".. until the simulator has `total`; returns every id.
std::set<std::string> growSimTenants(sg::StorageGridSimulator &sim, int total)
{
    for (int i = static_cast<int>(sim.tenants().size()); i < total; ++i) {
        sim.addTenant({{}, QStringLiteral("bulk-%1").arg(i), {}, {}, -1});
    }
    std::set<std::string> ids;
    for (const auto &t : sim.tenants()) {
        ids.insert(t.id.toStdString());
    }
    return ids;
}

std::set<std::string> sgAccountIds(const std::vector<Account> &accounts)
{
    std::set<std::string> ids;
    for (const Account &a : accounts) {
        ids.insert(a.id);
    }
    return ids;
}

} // namespace

TEST_F(StorageGridSimE2E, ThirtyAndThousandTenants_AllListed)
{
    for (const int total : {30, 1000}) {
        const std::set<std::string> expected = growSimTenants(*m_sim, total);
        ASSERT_EQ(expected.size(), static_cast<std::size_t>(total));
        auto c = client(); // pageSize 25: the API's default page
        const auto cache = c.accountsCache();
        ASSERT_TRUE(cache) << cache.error().message;
        EXPECT_EQ(cache->size(), static_cast<std::size_t>(total));
        EXPECT_EQ(sgAccountIds(*cache), expected);
        for (const Account &a : *cache) {
            EXPECT_TRUE(a.dataBytes.has_value()) << a.name;
        }
        const auto accounts = c.accounts();
        ASSERT_TRUE(accounts) << accounts.error().message;
        EXPECT_EQ(sgAccountIds(*accounts), expected);
    }
}

TEST_F(StorageGridSimE2E, AlertHistory_TimesAndTheWeekFilter)
{
    auto c = client();
    const auto now = std::chrono::system_clock::time_point(std::chrono::milliseconds(m_sim->nowMs()));
    const auto weekAgo = now - 24h * 7;
    const auto week = c.alertHistory(weekAgo);
    ASSERT_TRUE(week) << week.error().message;
    ASSERT_FALSE(week->empty());
    for (const Alert &a : *week) {
        EXPECT_FALSE(a.startsAt.empty()) << a.name;
        EXPECT_FALSE(a.endsAt.empty()) << a.name;
        EXPECT_GE(a.startsAt, isoUtcMillis(weekAgo)) << a.name; // same format: text order is time order
        EXPECT_LE(a.startsAt, a.endsAt);
        EXPECT_TRUE(a.eventId.has_value());
        EXPECT_EQ(a.status, "resolved");
        EXPECT_NE(a.name, "Low object data storage");
    }
    const auto all = c.alertHistory();
    ASSERT_TRUE(all) << all.error().message;
    EXPECT_TRUE(std::any_of(all->begin(), all->end(), [](const Alert &a) {
        return a.name == "Low object data storage";
    })) << "the nine-day-old alert is in the unfiltered history";
}
