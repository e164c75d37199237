// The Azure simulator as an ARM/Entra ID client sees it: tokens, ARM conventions, the AiLab
// estate, long-running operations, poolChange moving the volume, ANF limits, paging, throttling,
// fault rules, metrics and AKS.

#include "tests/simulators/azuretestsupport.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QThread>

#include <gtest/gtest.h>

using namespace strata::testsupport::azuresim;
using strata::sim::azure::AzureSimulator;

namespace {

constexpr qint64 kArmGiB = qint64(1) << 30;
constexpr qint64 TiB = qint64(1) << 40;

class AzureSimTest : public ::testing::Test
{
protected:
    void start(AzureSimulator::Options options = testOptions())
    {
        sim = std::make_unique<RunningAzure>(std::move(options));
        ASSERT_TRUE(sim->isRunning()) << sim->error().toStdString();
        http = std::make_unique<AzureHttp>(**sim);
        ASSERT_TRUE(http->login());
    }
    QString api(const QString &path) const { return AzureHttp::withApi(path); }
    QString pool(const QString &name) const { return (*sim)->poolId(QStringLiteral("anf-ai-lab"), name); }
    QString volume(const QString &poolName, const QString &name) const
    {
        return (*sim)->volumeId(QStringLiteral("anf-ai-lab"), poolName, name);
    }
    static QString code(const HttpResult &r)
    {
        return r.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString();
    }
    QStringList names(const HttpResult &r) const
    {
        QStringList out;
        for (const QJsonValue &v : r.json.value(QStringLiteral("value")).toArray()) {
            out.append(v.toObject().value(QStringLiteral("name")).toString());
        }
        return out;
    }

    std::unique_ptr<RunningAzure> sim;
    std::unique_ptr<AzureHttp> http;
};

QJsonObject jwtPayload(const QString &token)
{
    const QStringList parts = token.split(QLatin1Char('.'));
    if (parts.size() != 3) {
        return {};
    }
    return QJsonDocument::fromJson(QByteArray::fromBase64(parts[1].toLatin1(), QByteArray::Base64UrlEncoding)).object();
}

} // namespace

TEST_F(AzureSimTest, ClientCredentialsTokenForTenantAndAdfsAuthorities)
{
    start();
    const HttpResult ok = http->requestToken((*sim)->options().clientSecret);
    ASSERT_EQ(ok.status, 200) << ok.body.toStdString();
    EXPECT_EQ(ok.json.value(QStringLiteral("token_type")).toString(), QStringLiteral("Bearer"));
    EXPECT_EQ(ok.json.value(QStringLiteral("expires_in")).toInt(), 3600);
    const QJsonObject claims = jwtPayload(ok.json.value(QStringLiteral("access_token")).toString());
    EXPECT_EQ(claims.value(QStringLiteral("tid")).toString(), (*sim)->options().tenantId);
    EXPECT_EQ(claims.value(QStringLiteral("aud")).toString(), QStringLiteral("https://management.azure.com"));
    const qint64 exp = claims.value(QStringLiteral("exp")).toInteger();
    EXPECT_NEAR(double(exp - QDateTime::currentSecsSinceEpoch()), 3600, 5);

    EXPECT_EQ(http->requestToken((*sim)->options().clientSecret, QStringLiteral("adfs")).status, 200);

    const HttpResult wrong = http->requestToken(QStringLiteral("not-the-secret"));
    EXPECT_EQ(wrong.status, 401);
    EXPECT_EQ(wrong.json.value(QStringLiteral("error")).toString(), QStringLiteral("invalid_client"));
    EXPECT_TRUE(
        wrong.json.value(QStringLiteral("error_description")).toString().startsWith(QStringLiteral("AADSTS7000215: ")));
    EXPECT_EQ(wrong.json.value(QStringLiteral("error_codes")).toArray().first().toInt(), 7000215);
    EXPECT_FALSE(wrong.body.contains("not-the-secret"));

    const HttpResult tenant =
        http->requestToken((*sim)->options().clientSecret, QStringLiteral("11111111-2222-4333-8444-555555555555"));
    EXPECT_EQ(tenant.status, 400);
    EXPECT_TRUE(
        tenant.json.value(QStringLiteral("error_description")).toString().startsWith(QStringLiteral("AADSTS90002")));
    EXPECT_EQ((*sim)->tokenRequests(), 5); // with the fixture's login

    for (const QString &path : {QStringLiteral("/adfs/.well-known/openid-configuration"),
                                QString(QLatin1Char('/') + (*sim)->options().tenantId
                                        + QStringLiteral("/v2.0/.well-known/openid-configuration"))}) {
        const HttpResult oidc = http->get(path);
        ASSERT_EQ(oidc.status, 200) << path.toStdString();
        const QString endpoint = oidc.json.value(QStringLiteral("token_endpoint")).toString();
        EXPECT_TRUE(endpoint.startsWith((*sim)->baseUrl())) << endpoint.toStdString();
        EXPECT_TRUE(endpoint.endsWith(QStringLiteral("/token")));
        EXPECT_FALSE(oidc.json.value(QStringLiteral("issuer")).toString().isEmpty());
    }
}

TEST_F(AzureSimTest, ArmRequiresBearerTokenAndApiVersion)
{
    start();
    const QString accounts = QStringLiteral("/subscriptions/%1/providers/Microsoft.NetApp/netAppAccounts")
                                 .arg((*sim)->options().subscriptionId);
    EXPECT_EQ(http->get(api(accounts)).status, 200);

    const HttpResult missing = http->get(accounts);
    EXPECT_EQ(missing.status, 400);
    EXPECT_EQ(code(missing), QStringLiteral("MissingApiVersionParameter"));
    const HttpResult old = http->get(AzureHttp::withApi(accounts, QStringLiteral("2019-11-01")));
    EXPECT_EQ(old.status, 400);
    EXPECT_EQ(code(old), QStringLiteral("InvalidApiVersionParameter"));
    EXPECT_EQ(http->get(AzureHttp::withApi(accounts, QStringLiteral("2022-05-01"))).status, 200); // az 2.45
    EXPECT_EQ(http->get(AzureHttp::withApi(accounts, QStringLiteral("2025-12-01"))).status, 200);

    (*sim)->revokeTokens();
    const HttpResult expired = http->get(api(accounts));
    EXPECT_EQ(expired.status, 401);
    EXPECT_EQ(code(expired), QStringLiteral("InvalidAuthenticationTokenExpired"));
    EXPECT_TRUE(expired.headers.contains("www-authenticate"));
    ASSERT_TRUE(http->login());
    EXPECT_EQ(http->get(api(accounts)).status, 200);

    http->setToken("bogus");
    EXPECT_EQ(code(http->get(api(accounts))), QStringLiteral("InvalidAuthenticationToken"));
    http->clearToken();
    EXPECT_EQ(code(http->get(api(accounts))), QStringLiteral("AuthenticationFailed"));
    ASSERT_TRUE(http->login());

    const HttpResult wrongSub = http->get(api(QStringLiteral(
        "/subscriptions/00000000-0000-0000-0000-000000000001/providers/Microsoft.NetApp/netAppAccounts")));
    EXPECT_EQ(wrongSub.status, 404);
    EXPECT_EQ(code(wrongSub), QStringLiteral("SubscriptionNotFound"));
    const HttpResult noRg =
        http->get(api(QStringLiteral("/subscriptions/%1/resourceGroups/nope/providers/Microsoft.NetApp/netAppAccounts")
                          .arg((*sim)->options().subscriptionId)));
    EXPECT_EQ(noRg.status, 404);
    EXPECT_EQ(code(noRg), QStringLiteral("ResourceGroupNotFound"));
    const HttpResult noVolume = http->get(api(volume(QStringLiteral("pool-standard"), QStringLiteral("nope"))));
    EXPECT_EQ(noVolume.status, 404);
    EXPECT_EQ(code(noVolume), QStringLiteral("ResourceNotFound"));
    EXPECT_FALSE(noVolume.headers.value("x-ms-request-id").isEmpty());
    EXPECT_FALSE(noVolume.headers.value("x-ms-ratelimit-remaining-subscription-reads").isEmpty());
}

TEST_F(AzureSimTest, AiLabEstateAndAks)
{
    start();
    const QString sub = (*sim)->options().subscriptionId;
    const HttpResult subs =
        http->get(AzureHttp::withApi(QStringLiteral("/subscriptions"), QStringLiteral("2022-12-01")));
    ASSERT_EQ(subs.status, 200);
    const QJsonObject s = subs.json.value(QStringLiteral("value")).toArray().first().toObject();
    EXPECT_EQ(s.value(QStringLiteral("displayName")).toString(), QStringLiteral("ai-lab"));
    EXPECT_EQ(s.value(QStringLiteral("state")).toString(), QStringLiteral("Enabled"));

    const HttpResult pools =
        http->get(api((*sim)->accountId(QStringLiteral("anf-ai-lab")) + QStringLiteral("/capacityPools")));
    ASSERT_EQ(pools.status, 200);
    EXPECT_EQ(names(pools),
              (QStringList{QStringLiteral("anf-ai-lab/pool-premium"), QStringLiteral("anf-ai-lab/pool-standard")}));
    const QJsonObject standard = pools.json.value(QStringLiteral("value"))
                                     .toArray()
                                     .at(1)
                                     .toObject()
                                     .value(QStringLiteral("properties"))
                                     .toObject();
    EXPECT_EQ(standard.value(QStringLiteral("serviceLevel")).toString(), QStringLiteral("Standard"));
    EXPECT_EQ(standard.value(QStringLiteral("size")).toDouble(), double(4 * TiB));
    EXPECT_EQ(standard.value(QStringLiteral("qosType")).toString(), QStringLiteral("Auto"));
    EXPECT_DOUBLE_EQ(standard.value(QStringLiteral("totalThroughputMibps")).toDouble(), 64);
    EXPECT_NEAR(standard.value(QStringLiteral("utilizedThroughputMibps")).toDouble(), 15.625 + 7.8125, 0.002);

    const HttpResult criteo = http->get(api(volume(QStringLiteral("pool-standard"), QStringLiteral("criteo-data"))));
    ASSERT_EQ(criteo.status, 200);
    EXPECT_TRUE(criteo.headers.value("etag").startsWith("W/\"datetime'"));
    const QJsonObject p = criteo.json.value(QStringLiteral("properties")).toObject();
    EXPECT_EQ(p.value(QStringLiteral("usageThreshold")).toDouble(), double(1000 * kArmGiB));
    EXPECT_DOUBLE_EQ(p.value(QStringLiteral("throughputMibps")).toDouble(), 15.625);
    EXPECT_EQ(p.value(QStringLiteral("protocolTypes")).toArray().first().toString(), QStringLiteral("NFSv3"));
    EXPECT_EQ(p.value(QStringLiteral("mountTargets"))
                  .toArray()
                  .first()
                  .toObject()
                  .value(QStringLiteral("ipAddress"))
                  .toString(),
              QStringLiteral("10.0.1.4"));
    EXPECT_EQ(p.value(QStringLiteral("creationToken")).toString(), QStringLiteral("criteo-data"));
    const HttpResult snaps = http->get(
        api(volume(QStringLiteral("pool-standard"), QStringLiteral("criteo-data")) + QStringLiteral("/snapshots")));
    EXPECT_EQ(snaps.json.value(QStringLiteral("value")).toArray().size(), 2);

    const HttpResult clusters = http->get(AzureHttp::withApi(
        QStringLiteral("/subscriptions/%1/providers/Microsoft.ContainerService/managedClusters").arg(sub),
        QStringLiteral("2025-07-01")));
    ASSERT_EQ(clusters.status, 200);
    const QJsonObject aks = clusters.json.value(QStringLiteral("value")).toArray().first().toObject();
    EXPECT_EQ(aks.value(QStringLiteral("id")).toString(), (*sim)->managedClusterId(QStringLiteral("aks-gpu")));
    const QJsonArray profiles =
        aks.value(QStringLiteral("properties")).toObject().value(QStringLiteral("agentPoolProfiles")).toArray();
    ASSERT_EQ(profiles.size(), 2);
    const QJsonObject gpu = profiles.at(1).toObject();
    EXPECT_EQ(gpu.value(QStringLiteral("name")).toString(), QStringLiteral("gpupool"));
    EXPECT_EQ(gpu.value(QStringLiteral("count")).toInt(), 3);
    EXPECT_EQ(gpu.value(QStringLiteral("vmSize")).toString(), QStringLiteral("Standard_NC6s_v3"));
    EXPECT_EQ(gpu.value(QStringLiteral("mode")).toString(), QStringLiteral("User"));
    const HttpResult agentPools = http->get(
        AzureHttp::withApi((*sim)->managedClusterId(QStringLiteral("aks-gpu")) + QStringLiteral("/agentPools"),
                           QStringLiteral("2025-07-01")));
    EXPECT_EQ(names(agentPools), (QStringList{QStringLiteral("system"), QStringLiteral("gpupool")}));

    const HttpResult creds = http->post(AzureHttp::withApi((*sim)->managedClusterId(QStringLiteral("aks-gpu"))
                                                               + QStringLiteral("/listClusterUserCredential"),
                                                           QStringLiteral("2025-07-01")),
                                        {});
    ASSERT_EQ(creds.status, 200);
    const QByteArray yaml = QByteArray::fromBase64(creds.json.value(QStringLiteral("kubeconfigs"))
                                                       .toArray()
                                                       .first()
                                                       .toObject()
                                                       .value(QStringLiteral("value"))
                                                       .toString()
                                                       .toLatin1());
    EXPECT_TRUE(yaml.contains(".hcp.eastus.azmk8s.io:443")) << yaml.toStdString();
    EXPECT_TRUE(yaml.contains("token: "));
}

TEST_F(AzureSimTest, ListClusterUserCredentialReturnsTheConfiguredKubeconfig)
{
    AzureSimulator::Options options = testOptions();
    options.aksKubeconfig = QByteArrayLiteral("apiVersion: v1\nkind: Config\nclusters: []\n");
    start(options);
    const HttpResult creds = http->post(AzureHttp::withApi((*sim)->managedClusterId(QStringLiteral("aks-gpu"))
                                                               + QStringLiteral("/listClusterUserCredential"),
                                                           QStringLiteral("2025-07-01")),
                                        {});
    const QJsonObject kc = creds.json.value(QStringLiteral("kubeconfigs")).toArray().first().toObject();
    EXPECT_EQ(kc.value(QStringLiteral("name")).toString(), QStringLiteral("clusterUser"));
    EXPECT_EQ(QByteArray::fromBase64(kc.value(QStringLiteral("value")).toString().toLatin1()), options.aksKubeconfig);
}

TEST_F(AzureSimTest, PoolChangeIsALongRunningOperationThatMovesTheVolume)
{
    AzureSimulator::Options options = testOptions();
    options.lroDuration = std::chrono::milliseconds(300);
    start(options);
    const QString oldId = volume(QStringLiteral("pool-standard"), QStringLiteral("criteo-data"));
    const QString newId = volume(QStringLiteral("pool-premium"), QStringLiteral("criteo-data"));
    const QString fsid = http->get(api(oldId))
                             .json.value(QStringLiteral("properties"))
                             .toObject()
                             .value(QStringLiteral("fileSystemId"))
                             .toString();
    ASSERT_FALSE(fsid.isEmpty());

    const HttpResult accepted =
        http->post(api(oldId + QStringLiteral("/poolChange")),
                   QJsonObject{{QStringLiteral("newPoolResourceId"), pool(QStringLiteral("pool-premium"))}});
    ASSERT_EQ(accepted.status, 202) << accepted.body.toStdString();
    EXPECT_TRUE(accepted.body.isEmpty());
    const QString asyncUrl = QString::fromUtf8(accepted.headers.value("azure-asyncoperation"));
    const QString location = QString::fromUtf8(accepted.headers.value("location"));
    EXPECT_TRUE(asyncUrl.startsWith(
        (*sim)->baseUrl()
        + QStringLiteral("/subscriptions/%1/providers/Microsoft.NetApp/locations/eastus/operationResults/")
              .arg((*sim)->options().subscriptionId)));
    EXPECT_TRUE(asyncUrl.endsWith(QStringLiteral("?api-version=2025-06-01")));
    EXPECT_EQ(location, asyncUrl + QStringLiteral("&operationResultResponseType=Location"));
    EXPECT_TRUE(accepted.headers.contains("retry-after"));

    // While running: the Location form says 202, the volume is still in its old pool and busy.
    const HttpResult running = http->get(location);
    EXPECT_EQ(running.status, 202);
    EXPECT_EQ(http->get(api(oldId)).status, 200);
    EXPECT_EQ((*sim)->runningOperations(), 1);
    const HttpResult again =
        http->post(api(oldId + QStringLiteral("/poolChange")),
                   QJsonObject{{QStringLiteral("newPoolResourceId"), pool(QStringLiteral("pool-premium"))}});
    EXPECT_EQ(again.status, 409);
    EXPECT_EQ(code(again), QStringLiteral("AnotherOperationInProgress"));

    QStringList statuses;
    const QJsonObject done = http->waitForOperation(accepted, &statuses);
    EXPECT_EQ(done.value(QStringLiteral("status")).toString(), QStringLiteral("Succeeded"));
    EXPECT_EQ(statuses.front(), QStringLiteral("InProgress"));
    EXPECT_EQ(statuses.back(), QStringLiteral("Succeeded"));
    EXPECT_EQ(done.value(QStringLiteral("percentComplete")).toDouble(), 100);
    EXPECT_EQ(done.value(QStringLiteral("properties")).toObject().value(QStringLiteral("action")).toString(),
              QStringLiteral("POOLCHANGE"));
    EXPECT_EQ(http->get(location).status, 204);

    const HttpResult gone = http->get(api(oldId));
    EXPECT_EQ(gone.status, 404);
    EXPECT_EQ(code(gone), QStringLiteral("ResourceNotFound"));
    const HttpResult moved = http->get(api(newId));
    ASSERT_EQ(moved.status, 200);
    EXPECT_EQ(moved.json.value(QStringLiteral("id")).toString(), newId);
    EXPECT_EQ(moved.json.value(QStringLiteral("name")).toString(),
              QStringLiteral("anf-ai-lab/pool-premium/criteo-data"));
    const QJsonObject p = moved.json.value(QStringLiteral("properties")).toObject();
    EXPECT_EQ(p.value(QStringLiteral("fileSystemId")).toString(), fsid);
    EXPECT_EQ(p.value(QStringLiteral("serviceLevel")).toString(), QStringLiteral("Premium"));
    EXPECT_DOUBLE_EQ(p.value(QStringLiteral("throughputMibps")).toDouble(), 62.5);
    EXPECT_EQ(names(http->get(api(pool(QStringLiteral("pool-standard")) + QStringLiteral("/volumes")))),
              QStringList{QStringLiteral("anf-ai-lab/pool-standard/tusimple")});
    EXPECT_EQ((*sim)->poolVolumes(pool(QStringLiteral("pool-premium"))).size(), 1);
    EXPECT_EQ((*sim)->volume(fsid)->value(QStringLiteral("id")).toString(), newId);

    // The load model: capped at Standard's 15.6 MiB/s before, demand (~40 MiB/s) flows after.
    const QDateTime before = QDateTime::currentDateTimeUtc().addSecs(-3600);
    const QDateTime after = QDateTime::currentDateTimeUtc().addSecs(3600);
    EXPECT_NEAR((*sim)->observedThroughputMibps(fsid, before), 15.5, 0.15);
    EXPECT_GT((*sim)->observedThroughputMibps(fsid, after), 25);
}

TEST_F(AzureSimTest, LroFailuresHangsAndVolumesDeletedMidChange)
{
    start();
    const QString criteo = volume(QStringLiteral("pool-standard"), QStringLiteral("criteo-data"));
    const QJsonObject toPremium{{QStringLiteral("newPoolResourceId"), pool(QStringLiteral("pool-premium"))}};
    QString error;
    ASSERT_GT((*sim)->addFaultRule(QJsonObject{{QStringLiteral("kind"), QStringLiteral("lroFail")},
                                               {QStringLiteral("path"), QStringLiteral("/poolChange$")},
                                               {QStringLiteral("code"), QStringLiteral("VolumeMoveFailed")},
                                               {QStringLiteral("message"), QStringLiteral("simulated")},
                                               {QStringLiteral("count"), 1}},
                                   &error),
              0)
        << error.toStdString();
    HttpResult accepted = http->post(api(criteo + QStringLiteral("/poolChange")), toPremium);
    ASSERT_EQ(accepted.status, 202);
    QJsonObject done = http->waitForOperation(accepted);
    EXPECT_EQ(done.value(QStringLiteral("status")).toString(), QStringLiteral("Failed"));
    EXPECT_EQ(done.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
              QStringLiteral("VolumeMoveFailed"));
    EXPECT_EQ(http->get(api(criteo)).status, 200) << "a failed move leaves the volume where it was";
    const HttpResult location = http->get(QString::fromUtf8(accepted.headers.value("location")));
    EXPECT_EQ(location.status, 400);
    EXPECT_EQ(code(location), QStringLiteral("VolumeMoveFailed"));

    // Deleted while moving: the operation fails with ResourceNotFound.
    accepted = http->post(api(criteo + QStringLiteral("/poolChange")), toPremium);
    ASSERT_EQ(accepted.status, 202);
    ASSERT_TRUE((*sim)->deleteVolume(criteo));
    done = http->waitForOperation(accepted);
    EXPECT_EQ(done.value(QStringLiteral("status")).toString(), QStringLiteral("Failed"));
    EXPECT_EQ(done.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
              QStringLiteral("ResourceNotFound"));
    EXPECT_FALSE((*sim)->volume(criteo).has_value());

    // A hanging operation never ends.
    ASSERT_GT((*sim)->addFaultRule(QJsonObject{{QStringLiteral("kind"), QStringLiteral("lroHang")},
                                               {QStringLiteral("method"), QStringLiteral("POST")},
                                               {QStringLiteral("count"), 1}}),
              0);
    const QString tusimple = volume(QStringLiteral("pool-standard"), QStringLiteral("tusimple"));
    accepted = http->post(api(tusimple + QStringLiteral("/poolChange")), toPremium);
    ASSERT_EQ(accepted.status, 202);
    QStringList statuses;
    EXPECT_TRUE(http->waitForOperation(accepted, &statuses, 400).isEmpty());
    EXPECT_EQ(statuses, QStringList{QStringLiteral("InProgress")});
    EXPECT_EQ((*sim)->runningOperations(), 1);
}

TEST_F(AzureSimTest, AnfLimits)
{
    start();
    const QString account = (*sim)->accountId(QStringLiteral("anf-ai-lab"));
    const QString location = QStringLiteral("eastus");
    auto poolBody = [&](double size, const QString &level) {
        return QJsonObject{{QStringLiteral("location"), location},
                           {QStringLiteral("properties"),
                            QJsonObject{{QStringLiteral("size"), size}, {QStringLiteral("serviceLevel"), level}}}};
    };
    HttpResult r = http->put(api(account + QStringLiteral("/capacityPools/odd")),
                             poolBody(1.5 * double(TiB), QStringLiteral("Premium")));
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(code(r), QStringLiteral("InvalidPoolSize"));
    r = http->put(api(account + QStringLiteral("/capacityPools/tiny")),
                  poolBody(512.0 * double(kArmGiB), QStringLiteral("Premium")));
    EXPECT_EQ(code(r), QStringLiteral("InvalidPoolSize"));

    r = http->put(api(account + QStringLiteral("/capacityPools/pool-ultra")),
                  poolBody(double(TiB), QStringLiteral("Ultra")));
    ASSERT_EQ(r.status, 201) << r.body.toStdString();
    EXPECT_EQ(
        r.json.value(QStringLiteral("properties")).toObject().value(QStringLiteral("provisioningState")).toString(),
        QStringLiteral("Creating"));
    EXPECT_EQ(http->waitForOperation(r).value(QStringLiteral("status")).toString(), QStringLiteral("Succeeded"));
    EXPECT_EQ(http->get(api(account + QStringLiteral("/capacityPools/pool-ultra")))
                  .json.value(QStringLiteral("properties"))
                  .toObject()
                  .value(QStringLiteral("provisioningState"))
                  .toString(),
              QStringLiteral("Succeeded"));

    auto volumeBody = [&](double quota, const QString &token) {
        return QJsonObject{{QStringLiteral("location"), location},
                           {QStringLiteral("properties"),
                            QJsonObject{{QStringLiteral("creationToken"), token},
                                        {QStringLiteral("usageThreshold"), quota},
                                        {QStringLiteral("subnetId"),
                                         QStringLiteral("/subscriptions/x/resourceGroups/ai-lab-rg/providers/"
                                                        "Microsoft.Network/virtualNetworks/v/subnets/s")}}}};
    };
    const QString ultra = account + QStringLiteral("/capacityPools/pool-ultra/volumes/");
    r = http->put(api(ultra + QStringLiteral("small")), volumeBody(50.0 * double(kArmGiB), QStringLiteral("small")));
    EXPECT_EQ(code(r), QStringLiteral("InvalidVolumeQuota"));
    r = http->put(api(ultra + QStringLiteral("scratch")),
                  volumeBody(200.0 * double(kArmGiB), QStringLiteral("scratch")));
    ASSERT_EQ(r.status, 201) << r.body.toStdString();
    EXPECT_DOUBLE_EQ(
        r.json.value(QStringLiteral("properties")).toObject().value(QStringLiteral("throughputMibps")).toDouble(), 25);
    r = http->put(api(ultra + QStringLiteral("big")), volumeBody(900.0 * double(kArmGiB), QStringLiteral("big")));
    EXPECT_EQ(code(r), QStringLiteral("PoolSizeTooSmall"));

    // criteo-data (1000 kArmGiB) does not fit the 1 TiB pool next to a 200 kArmGiB volume.
    r = http->post(
        api(volume(QStringLiteral("pool-standard"), QStringLiteral("criteo-data")) + QStringLiteral("/poolChange")),
        QJsonObject{{QStringLiteral("newPoolResourceId"), pool(QStringLiteral("pool-ultra"))}});
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(code(r), QStringLiteral("PoolSizeTooSmall"));
    EXPECT_TRUE(r.json.value(QStringLiteral("error"))
                    .toObject()
                    .value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("criteo-data")));
    r = http->post(
        api(volume(QStringLiteral("pool-standard"), QStringLiteral("criteo-data")) + QStringLiteral("/poolChange")),
        QJsonObject{{QStringLiteral("newPoolResourceId"), pool(QStringLiteral("pool-standard"))}});
    EXPECT_EQ(r.status, 400);
    r = http->post(
        api(volume(QStringLiteral("pool-standard"), QStringLiteral("criteo-data")) + QStringLiteral("/poolChange")),
        QJsonObject{{QStringLiteral("newPoolResourceId"), pool(QStringLiteral("nope"))}});
    EXPECT_EQ(r.status, 404);

    // A pool with volumes cannot be deleted, an empty one can (202 LRO).
    EXPECT_EQ(http->del(api(pool(QStringLiteral("pool-standard")))).status, 409);
    r = http->del(api(pool(QStringLiteral("pool-premium"))));
    ASSERT_EQ(r.status, 202);
    EXPECT_EQ(http->waitForOperation(r).value(QStringLiteral("status")).toString(), QStringLiteral("Succeeded"));
    EXPECT_EQ(http->get(api(pool(QStringLiteral("pool-premium")))).status, 404);
}

TEST_F(AzureSimTest, SnapshotsCreateDeleteAndRevert)
{
    start();
    const QString v = volume(QStringLiteral("pool-standard"), QStringLiteral("tusimple"));
    HttpResult r = http->put(api(v + QStringLiteral("/snapshots/before-train")),
                             QJsonObject{{QStringLiteral("location"), QStringLiteral("eastus")}});
    ASSERT_EQ(r.status, 201) << r.body.toStdString();
    EXPECT_EQ(http->waitForOperation(r).value(QStringLiteral("status")).toString(), QStringLiteral("Succeeded"));
    HttpResult list = http->get(api(v + QStringLiteral("/snapshots")));
    ASSERT_EQ(list.json.value(QStringLiteral("value")).toArray().size(), 3);
    const QString oldest =
        list.json.value(QStringLiteral("value")).toArray().first().toObject().value(QStringLiteral("id")).toString();

    r = http->post(api(v + QStringLiteral("/revert")), QJsonObject{{QStringLiteral("snapshotId"), oldest}});
    ASSERT_EQ(r.status, 202) << r.body.toStdString();
    EXPECT_FALSE(r.headers.value("location").isEmpty());
    EXPECT_EQ(http->waitForOperation(r).value(QStringLiteral("status")).toString(), QStringLiteral("Succeeded"));
    list = http->get(api(v + QStringLiteral("/snapshots")));
    EXPECT_EQ(list.json.value(QStringLiteral("value")).toArray().size(), 1)
        << "newer snapshots are gone after a revert";

    r = http->del(api(oldest));
    ASSERT_EQ(r.status, 202);
    EXPECT_EQ(http->waitForOperation(r).value(QStringLiteral("status")).toString(), QStringLiteral("Succeeded"));
    EXPECT_EQ(http->get(api(oldest)).status, 404);
    EXPECT_EQ(code(http->post(api(v + QStringLiteral("/revert")), QJsonObject{{QStringLiteral("snapshotId"), oldest}})),
              QStringLiteral("SnapshotNotFound"));
}

TEST_F(AzureSimTest, PagingWithNextLink)
{
    AzureSimulator::Options options = testOptions(AzureSimulator::Options::Preset::Scale);
    options.scaleVolumes = 250;
    options.pageSize = 40;
    start(options);
    const QString pools = QStringLiteral("/subscriptions/%1/resourceGroups/scale-rg/providers/Microsoft.NetApp/"
                                         "netAppAccounts/anf-scale/capacityPools/pool-001/volumes")
                              .arg(options.subscriptionId);
    QString next = api(pools);
    QStringList seen;
    int pages = 0;
    while (!next.isEmpty() && pages < 10) {
        const HttpResult page = http->get(next);
        ASSERT_EQ(page.status, 200) << page.body.toStdString();
        seen.append(names(page));
        next = page.json.value(QStringLiteral("nextLink")).toString();
        if (!next.isEmpty()) {
            EXPECT_TRUE(next.startsWith((*sim)->baseUrl() + pools + QStringLiteral("?api-version=2025-06-01&")));
            EXPECT_TRUE(next.contains(QStringLiteral("%24skiptoken=")) || next.contains(QStringLiteral("$skiptoken=")));
        }
        ++pages;
    }
    EXPECT_EQ(pages, 3);
    EXPECT_EQ(seen.size(), 100);
    EXPECT_EQ(seen.removeDuplicates(), 0);
    EXPECT_EQ(seen.front(), QStringLiteral("anf-scale/pool-001/vol-00001"));
    EXPECT_EQ((*sim)->state().value(QStringLiteral("volumes")).toInt(), 252);
}

TEST_F(AzureSimTest, ThrottlingAndFaultRules)
{
    AzureSimulator::Options options = testOptions();
    options.readsPerHour = 3;
    start(options);
    const QString accounts =
        api(QStringLiteral("/subscriptions/%1/providers/Microsoft.NetApp/netAppAccounts").arg(options.subscriptionId));
    EXPECT_EQ(http->get(accounts).headers.value("x-ms-ratelimit-remaining-subscription-reads"), "2");
    EXPECT_EQ(http->get(accounts).headers.value("x-ms-ratelimit-remaining-subscription-reads"), "1");
    EXPECT_EQ(http->get(accounts).status, 200);
    const HttpResult throttled = http->get(accounts);
    EXPECT_EQ(throttled.status, 429);
    EXPECT_EQ(code(throttled), QStringLiteral("SubscriptionRequestsThrottled"));
    EXPECT_GT(throttled.headers.value("retry-after").toInt(), 3000);
}

TEST_F(AzureSimTest, FaultRulesOverHttpAndInProcess)
{
    start();
    const QString volumes = api(pool(QStringLiteral("pool-standard")) + QStringLiteral("/volumes"));
    strata::testsupport::ontapsim::QnamClient control((*sim)->baseUrl(), (*sim)->caPem(), {}, {});
    control.setAuthorization({});
    HttpResult added = control.post(QStringLiteral("/_sim/faults"),
                                    QJsonObject{{QStringLiteral("method"), QStringLiteral("GET")},
                                                {QStringLiteral("path"), QStringLiteral("/volumes$")},
                                                {QStringLiteral("status"), 429},
                                                {QStringLiteral("retryAfterSeconds"), 7},
                                                {QStringLiteral("count"), 2}});
    ASSERT_EQ(added.status, 200) << added.body.toStdString();
    for (int i = 0; i < 2; ++i) {
        const HttpResult r = http->get(volumes);
        EXPECT_EQ(r.status, 429);
        EXPECT_EQ(r.headers.value("retry-after"), "7");
        EXPECT_EQ(code(r), QStringLiteral("TooManyRequests"));
    }
    EXPECT_EQ(http->get(volumes).status, 200);
    EXPECT_EQ(control.get(QStringLiteral("/_sim/faults")).json.value(QStringLiteral("items")).toArray().size(), 0);

    ASSERT_GT((*sim)->addFaultRule(QJsonObject{{QStringLiteral("kind"), QStringLiteral("malformed")},
                                               {QStringLiteral("path"), QStringLiteral("/volumes$")},
                                               {QStringLiteral("count"), 1}}),
              0);
    const HttpResult malformed = http->get(volumes);
    EXPECT_EQ(malformed.status, 200);
    EXPECT_FALSE(malformed.jsonValid);
    ASSERT_GT((*sim)->addFaultRule(QJsonObject{{QStringLiteral("status"), 500},
                                               {QStringLiteral("path"), QStringLiteral("/oauth2/")},
                                               {QStringLiteral("count"), 1}}),
              0);
    EXPECT_EQ(http->requestToken((*sim)->options().clientSecret).status, 500);
    EXPECT_EQ(http->requestToken((*sim)->options().clientSecret).status, 200);

    QString error;
    EXPECT_EQ((*sim)->addFaultRule(QJsonObject{{QStringLiteral("kind"), QStringLiteral("explode")}}, &error), -1);
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(control.post(QStringLiteral("/_sim/tokens/revoke"), {}).status, 200);
    EXPECT_EQ(code(http->get(volumes)), QStringLiteral("InvalidAuthenticationTokenExpired"));
    const QJsonObject state = control.get(QStringLiteral("/_sim/state")).json;
    EXPECT_EQ(state.value(QStringLiteral("volumes")).toInt(), 2);
    EXPECT_EQ(state.value(QStringLiteral("managedClusters")).toInt(), 1);
    EXPECT_GE(state.value(QStringLiteral("tokenRequests")).toInt(), 3);
}

TEST_F(AzureSimTest, MetricsFollowTheLoadModel)
{
    start();
    const QDateTime end = QDateTime::currentDateTimeUtc().addSecs(-600);
    const QDateTime begin = end.addSecs(-3600);
    const QString span = begin.toString(Qt::ISODate) + QLatin1Char('/') + end.toString(Qt::ISODate);
    auto metrics = [&](const QString &volumeName) {
        return http->get(AzureHttp::withApi(
            volume(QStringLiteral("pool-standard"), volumeName)
                + QStringLiteral("/providers/Microsoft.Insights/"
                                 "metrics?metricnames=ReadThroughput,WriteThroughput,AverageReadLatency,"
                                 "VolumeLogicalSize&interval=PT5M&aggregation=Average&timespan=")
                + span,
            QStringLiteral("2023-10-01")));
    };
    const HttpResult criteo = metrics(QStringLiteral("criteo-data"));
    ASSERT_EQ(criteo.status, 200) << criteo.body.toStdString();
    EXPECT_EQ(criteo.json.value(QStringLiteral("interval")).toString(), QStringLiteral("PT5M"));
    const QJsonArray series = criteo.json.value(QStringLiteral("value")).toArray();
    ASSERT_EQ(series.size(), 4);
    auto points = [&](int i) {
        return series.at(i)
            .toObject()
            .value(QStringLiteral("timeseries"))
            .toArray()
            .first()
            .toObject()
            .value(QStringLiteral("data"))
            .toArray();
    };
    EXPECT_EQ(
        series.at(0).toObject().value(QStringLiteral("name")).toObject().value(QStringLiteral("value")).toString(),
        QStringLiteral("ReadThroughput"));
    EXPECT_EQ(series.at(0).toObject().value(QStringLiteral("unit")).toString(), QStringLiteral("BytesPerSecond"));
    ASSERT_GE(points(0).size(), 12);
    for (qsizetype i = 0; i < points(0).size(); ++i) {
        const double total = points(0).at(i).toObject().value(QStringLiteral("average")).toDouble()
                             + points(1).at(i).toObject().value(QStringLiteral("average")).toDouble();
        EXPECT_NEAR(total / 1048576.0, 15.5, 0.15) << "criteo-data sits at its Standard cap";
        EXPECT_GT(points(2).at(i).toObject().value(QStringLiteral("average")).toDouble(), 3.0) << "throttled latency";
    }
    EXPECT_NEAR(
        points(3).at(0).toObject().value(QStringLiteral("average")).toDouble() / double(1000 * kArmGiB), 0.88, 0.07);
    EXPECT_EQ(metrics(QStringLiteral("criteo-data")).body, criteo.body) << "deterministic";

    const HttpResult tusimple = metrics(QStringLiteral("tusimple"));
    const QJsonArray t = tusimple.json.value(QStringLiteral("value")).toArray();
    const double read = t.at(0)
                            .toObject()
                            .value(QStringLiteral("timeseries"))
                            .toArray()
                            .first()
                            .toObject()
                            .value(QStringLiteral("data"))
                            .toArray()
                            .first()
                            .toObject()
                            .value(QStringLiteral("average"))
                            .toDouble();
    EXPECT_LT(read / 1048576.0, 2.0) << "tusimple is far below its 7.8 MiB/s cap";
    EXPECT_GT(read, 0);

    const HttpResult bad =
        http->get(AzureHttp::withApi(volume(QStringLiteral("pool-standard"), QStringLiteral("tusimple"))
                                         + QStringLiteral("/providers/Microsoft.Insights/metrics?metricnames=Bogus"),
                                     QStringLiteral("2023-10-01")));
    EXPECT_EQ(bad.status, 400);
}
