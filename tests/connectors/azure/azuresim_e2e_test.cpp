// End to end: ClientSecretCredential + AzureClient against the Azure simulator (AiLab preset)
// over HTTPS, trusting only the simulator's certificate.
#if defined(STRATA_HAVE_SIMAZURE)

#include "simulators/azure/azuresimulator.h"
#include "simulators/common/serverthread.h"
#include "tests/connectors/azure/azuretestsupport.h"

#include <QJsonObject>

#include <gtest/gtest.h>

#include <memory>

using namespace strata;
using namespace strata::azure;
using namespace strata::azure::test;
using http::CancelToken;
using http::CurlTransport;
using sim::azure::AzureSimulator;
using Kind = connectors::Error::Kind;

namespace {

class AzureEndToEnd : public ::testing::Test
{
protected:
    void start(int pageSize = 100)
    {
        AzureSimulator::Options options;
        options.preset = AzureSimulator::Options::Preset::AiLab;
        options.lroDuration = 100ms;
        options.lroRetryAfterSeconds = 0; // the client polls every lroPollInterval instead
        options.pageSize = pageSize;
        // RSA key generation costs ~0.5 s: one identity for every test.
        static const sim::TlsIdentity identity = sim::TlsIdentity::generate(QStringLiteral("strata-azure-e2e"));
        options.tls = identity;
        QString error;
        m_sim = AzureSimulator::startOnThread(m_thread, options, &error);
        ASSERT_NE(m_sim, nullptr) << error.toStdString();
        http::TransportOptions transport = fastTransport();
        transport.caPem = m_sim->caPem().toStdString();
        m_transport = std::make_unique<CurlTransport>(transport);
        m_credential = std::make_unique<ClientSecretCredential>(*m_transport, secretOptions());
        AzureClientOptions clientOptions;
        clientOptions.http.baseUrl = m_sim->baseUrl().toStdString();
        clientOptions.http.retry = fastRetry();
        clientOptions.subscriptionId = options.subscriptionId.toStdString();
        clientOptions.lroPollInterval = 20ms;
        clientOptions.lroTimeout = 20s;
        m_client = std::make_unique<AzureClient>(*m_transport, *m_credential, clientOptions);
    }

    ClientSecretOptions secretOptions(const std::string &secret = {}) const
    {
        ClientSecretOptions options;
        options.authorityUrl = m_sim->baseUrl().toStdString();
        options.tenantId = m_sim->options().tenantId.toStdString();
        options.clientId = m_sim->options().clientId.toStdString();
        options.clientSecret = secret.empty() ? m_sim->options().clientSecret.toStdString() : secret;
        options.retry = fastRetry();
        return options;
    }

    std::string volumeId(const char *pool, const char *volume) const
    {
        return m_sim->volumeId(QStringLiteral("anf-ai-lab"), QString::fromLatin1(pool), QString::fromLatin1(volume))
            .toStdString();
    }
    std::string poolId(const char *pool) const
    {
        return m_sim->poolId(QStringLiteral("anf-ai-lab"), QString::fromLatin1(pool)).toStdString();
    }

    sim::ServerThread m_thread;
    AzureSimulator *m_sim = nullptr;
    std::unique_ptr<CurlTransport> m_transport;
    std::unique_ptr<ClientSecretCredential> m_credential;
    std::unique_ptr<AzureClient> m_client;
};

} // namespace

TEST_F(AzureEndToEnd, Inventory_AccountsPoolsVolumesSnapshotsOverPages)
{
    start(1); // every list needs nextLink
    ASSERT_NE(m_sim, nullptr);

    const auto subscription = m_client->subscription();
    ASSERT_TRUE(subscription) << subscription.error().message;
    EXPECT_EQ(subscription->displayName, "ai-lab");
    const auto accounts = m_client->listAccounts();
    ASSERT_TRUE(accounts) << accounts.error().message;
    ASSERT_EQ(accounts->size(), 1u);
    EXPECT_EQ((*accounts)[0].name, "anf-ai-lab");
    const auto pools = m_client->listPools((*accounts)[0].id);
    ASSERT_TRUE(pools) << pools.error().message;
    ASSERT_EQ(pools->size(), 2u);
    const auto volumes = m_client->listVolumes(poolId("pool-standard"));
    ASSERT_TRUE(volumes) << volumes.error().message;
    ASSERT_EQ(volumes->size(), 2u);
    for (const auto &volume : *volumes) {
        EXPECT_EQ(volume.serviceLevel, "Standard");
        EXPECT_FALSE(volume.fileSystemId.empty());
        EXPECT_FALSE(volume.mountIps.empty());
    }
    const auto snapshots = m_client->listSnapshots(volumeId("pool-standard", "criteo-data"));
    ASSERT_TRUE(snapshots) << snapshots.error().message;
    EXPECT_EQ(snapshots->size(), 2u);
    EXPECT_EQ(m_credential->requestCount(), 1); // one token for all of it
}

TEST_F(AzureEndToEnd, PoolChange_VolumeMovesUnderNewPoolKeepingFileSystemId)
{
    start();
    ASSERT_NE(m_sim, nullptr);
    const std::string oldId = volumeId("pool-standard", "criteo-data");
    const auto before = m_client->volume(oldId);
    ASSERT_TRUE(before) << before.error().message;
    std::vector<LroStatus> progress;

    const auto newId = m_client->poolChange(oldId, poolId("pool-premium"), [&progress](const LroStatus &status) {
        progress.push_back(status);
    });

    ASSERT_TRUE(newId) << newId.error().message;
    EXPECT_EQ(*newId, volumeId("pool-premium", "criteo-data"));
    ASSERT_FALSE(progress.empty());
    EXPECT_EQ(progress.back().status, "Succeeded");
    const auto after = m_client->volume(*newId);
    ASSERT_TRUE(after) << after.error().message;
    EXPECT_EQ(after->serviceLevel, "Premium");
    EXPECT_EQ(after->fileSystemId, before->fileSystemId);
    ASSERT_TRUE(after->throughputMibps && before->throughputMibps);
    EXPECT_GT(*after->throughputMibps, *before->throughputMibps);
    const auto gone = m_client->volume(oldId);
    ASSERT_FALSE(gone);
    EXPECT_EQ(gone.error().httpStatus, 404);
    const auto left = m_client->listVolumes(poolId("pool-standard"));
    ASSERT_TRUE(left) << left.error().message;
    EXPECT_EQ(left->size(), 1u);
}

TEST_F(AzureEndToEnd, CreatePoolThenPoolFull)
{
    start();
    ASSERT_NE(m_sim, nullptr);
    const auto accountId = m_sim->accountId(QStringLiteral("anf-ai-lab")).toStdString();

    const auto pool = m_client->createPool(accountId, "pool-ultra", "eastus", "Ultra", 1099511627776LL);
    ASSERT_TRUE(pool) << pool.error().message;
    EXPECT_EQ(pool->serviceLevel, "Ultra");
    EXPECT_EQ(pool->sizeBytes, 1099511627776LL);
    EXPECT_EQ(pool->provisioningState, "Succeeded");

    const auto first = m_client->poolChange(volumeId("pool-standard", "criteo-data"), pool->id); // 1000 GiB fits
    ASSERT_TRUE(first) << first.error().message;
    const auto second = m_client->poolChange(volumeId("pool-standard", "tusimple"), pool->id); // 500 more do not
    ASSERT_FALSE(second);
    EXPECT_EQ(second.error().kind, Kind::Api);
    EXPECT_EQ(second.error().apiCode, "PoolSizeTooSmall") << second.error().message;

    const auto badSize = m_client->createPool(accountId, "pool-odd", "eastus", "Premium", 1500LL << 30);
    ASSERT_FALSE(badSize);
    EXPECT_EQ(badSize.error().httpStatus, 400);
}

TEST_F(AzureEndToEnd, RevokedTokens_RefreshedOnceAndCallSucceeds)
{
    start();
    ASSERT_NE(m_sim, nullptr);
    ASSERT_TRUE(m_client->listAccounts());
    EXPECT_EQ(m_sim->tokenRequests(), 1);

    m_sim->revokeTokens();
    const auto accounts = m_client->listAccounts();

    ASSERT_TRUE(accounts) << accounts.error().message;
    EXPECT_EQ(m_sim->tokenRequests(), 2);
}

TEST_F(AzureEndToEnd, WrongSecret_AuthErrorFromEntraId)
{
    start();
    ASSERT_NE(m_sim, nullptr);
    ClientSecretCredential wrong(*m_transport, secretOptions("not-the-secret"));

    const auto token = wrong.token(m_client->scope(), CancelToken{});

    ASSERT_FALSE(token);
    EXPECT_EQ(token.error().kind, Kind::Auth);
    EXPECT_NE(token.error().message.find("AADSTS7000215"), std::string::npos) << token.error().message;
    EXPECT_EQ(token.error().message.find("not-the-secret"), std::string::npos);
}

TEST_F(AzureEndToEnd, LroFailAndHangFaults)
{
    start();
    ASSERT_NE(m_sim, nullptr);
    QString error;
    ASSERT_GE(m_sim->addFaultRule(QJsonObject{{QStringLiteral("method"), QStringLiteral("POST")},
                                              {QStringLiteral("path"), QStringLiteral("/poolChange$")},
                                              {QStringLiteral("kind"), QStringLiteral("lroFail")},
                                              {QStringLiteral("code"), QStringLiteral("InternalServerError")},
                                              {QStringLiteral("message"), QStringLiteral("Pool change failed.")},
                                              {QStringLiteral("count"), 1}},
                                  &error),
              0)
        << error.toStdString();
    const auto failed = m_client->poolChange(volumeId("pool-standard", "tusimple"), poolId("pool-premium"));
    ASSERT_FALSE(failed);
    EXPECT_EQ(failed.error().kind, Kind::Api);
    EXPECT_EQ(failed.error().apiCode, "InternalServerError");
    EXPECT_FALSE(failed.error().outcomeUnknown);

    ASSERT_GE(m_sim->addFaultRule(QJsonObject{{QStringLiteral("method"), QStringLiteral("POST")},
                                              {QStringLiteral("path"), QStringLiteral("/poolChange$")},
                                              {QStringLiteral("kind"), QStringLiteral("lroHang")},
                                              {QStringLiteral("count"), 1}},
                                  &error),
              0)
        << error.toStdString();
    AzureClientOptions options = m_client->options();
    options.lroTimeout = 300ms;
    AzureClient impatient(*m_transport, *m_credential, options);
    const int requestsBefore = m_sim->requestCount();
    const auto hung = impatient.poolChange(volumeId("pool-standard", "tusimple"), poolId("pool-premium"));
    ASSERT_FALSE(hung);
    EXPECT_EQ(hung.error().kind, Kind::Timeout);
    EXPECT_TRUE(hung.error().outcomeUnknown);
    EXPECT_GT(m_sim->requestCount() - requestsBefore, 1); // polled, never re-posted (checked by scripted tests)
}

TEST_F(AzureEndToEnd, VolumeDeletedMidChange_ResourceNotFound)
{
    start();
    ASSERT_NE(m_sim, nullptr);
    const std::string id = volumeId("pool-standard", "tusimple");
    bool deleted = false;

    const auto moved = m_client->poolChange(id, poolId("pool-premium"), [&](const LroStatus &) {
        if (!deleted) {
            deleted = m_sim->deleteVolume(QString::fromStdString(id));
        }
    });

    EXPECT_TRUE(deleted);
    ASSERT_FALSE(moved);
    EXPECT_EQ(moved.error().kind, Kind::Api);
    EXPECT_EQ(moved.error().apiCode, "ResourceNotFound") << moved.error().message;
}

TEST_F(AzureEndToEnd, MetricsAksAndKubeconfig)
{
    start();
    ASSERT_NE(m_sim, nullptr);
    const auto now = std::chrono::system_clock::now();
    const auto series = m_client->volumeMetrics(volumeId("pool-standard", "criteo-data"), now - 1h, now);
    ASSERT_TRUE(series) << series.error().message;
    ASSERT_FALSE(series->empty());
    EXPECT_EQ((*series)[0].name, "ReadThroughput");
    EXPECT_GE((*series)[0].points.size(), 10u);

    const auto clusters = m_client->listManagedClusters();
    ASSERT_TRUE(clusters) << clusters.error().message;
    ASSERT_EQ(clusters->size(), 1u);
    EXPECT_EQ((*clusters)[0].name, "aks-gpu");
    bool gpuPool = false;
    for (const auto &pool : (*clusters)[0].agentPools) {
        gpuPool = gpuPool || (pool.name == "gpupool" && pool.count == 3 && pool.vmSize == "Standard_NC6s_v3");
    }
    EXPECT_TRUE(gpuPool);
    const auto kubeconfig = m_client->clusterUserKubeconfig((*clusters)[0].id);
    ASSERT_TRUE(kubeconfig) << kubeconfig.error().message;
    EXPECT_NE(kubeconfig->find("kind: Config"), std::string::npos) << *kubeconfig;
}

#endif // STRATA_HAVE_SIMAZURE
