// `strata get service-levels|pools|aks|schedules` and `strata set service-level` against the
// Azure simulator (ai-lab) and the ONTAP simulator, through a config file as a user runs them.

#include "app/cli/cli.h"
#include "simulators/azure/azuresimulator.h"
#include "tests/integration/simfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace strata;
using namespace strata::testsupport;

namespace {

class CliServiceLevelTest : public SimFixture
{
protected:
    sim::ServerThread azureThread;
    sim::azure::AzureSimulator *azure = nullptr;
    QString configPath;

    void SetUp() override
    {
        SimFixture::SetUp();
        sim::azure::AzureSimulatorOptions options;
        options.lroDuration = std::chrono::milliseconds(200);
        options.lroRetryAfterSeconds = 0;
        QString error;
        azure = sim::azure::AzureSimulator::startOnThread(azureThread, options, &error);
        ASSERT_NE(azure, nullptr) << error.toStdString();
        const QString azureCa = dir.filePath(QStringLiteral("azure-ca.pem"));
        QFile f(azureCa);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(azure->caPem());
        f.close();
        qputenv("STRATA_IT_ONTAP_PASSWORD", simulator->options().password.toUtf8());
        qputenv("STRATA_IT_AZURE_SECRET", options.clientSecret.toUtf8());
        const QJsonArray sources{
            QJsonObject{{QStringLiteral("name"), QStringLiteral("ontap-ai")},
                        {QStringLiteral("kind"), QStringLiteral("ontap")},
                        {QStringLiteral("url"), simulator->baseUrl()},
                        {QStringLiteral("username"), simulator->options().username},
                        {QStringLiteral("password"),
                         QJsonObject{{QStringLiteral("env"), QStringLiteral("STRATA_IT_ONTAP_PASSWORD")}}},
                        {QStringLiteral("ca_file"), caFile}},
            QJsonObject{{QStringLiteral("name"), QStringLiteral("ai-lab")},
                        {QStringLiteral("kind"), QStringLiteral("azure")},
                        {QStringLiteral("url"), azure->baseUrl()},
                        {QStringLiteral("authority_url"), azure->baseUrl()},
                        {QStringLiteral("tenant_id"), options.tenantId},
                        {QStringLiteral("client_id"), options.clientId},
                        {QStringLiteral("subscription_id"), options.subscriptionId},
                        {QStringLiteral("password"),
                         QJsonObject{{QStringLiteral("env"), QStringLiteral("STRATA_IT_AZURE_SECRET")}}},
                        {QStringLiteral("ca_file"), azureCa}}};
        configPath = dir.filePath(QStringLiteral("config.json"));
        QFile c(configPath);
        ASSERT_TRUE(c.open(QIODevice::WriteOnly));
        c.write(QJsonDocument(QJsonObject{{QStringLiteral("sources"), sources},
                                          {QStringLiteral("history"),
                                           QJsonObject{{QStringLiteral("path"),
                                                        dir.filePath(QStringLiteral("history.sqlite"))}}}})
                    .toJson());
    }

    struct Run
    {
        int code = -1;
        QString out;
        QString err;
    };

    Run run(QStringList args)
    {
        Run r;
        QTextStream out(&r.out);
        QTextStream err(&r.err);
        args.prepend(configPath);
        args.prepend(QStringLiteral("--config"));
        r.code = cli::run(args, credentials, cli::Console{QStringLiteral("strata"), QStringLiteral("cli"), out, err});
        out.flush();
        err.flush();
        return r;
    }

    static QJsonArray jsonArray(const QString &text) { return QJsonDocument::fromJson(text.toUtf8()).array(); }

    static QJsonObject row(const QJsonArray &rows, const QString &key, const QString &value)
    {
        for (const QJsonValue &v : rows) {
            if (v.toObject().value(key).toString() == value) {
                return v.toObject();
            }
        }
        return {};
    }
};

} // namespace

TEST_F(CliServiceLevelTest, GetServiceLevels_ListsAnfAndOntapVolumesWithCapsAndPrices)
{
    const Run r =
        run({QStringLiteral("get"), QStringLiteral("service-levels"), QStringLiteral("-o"), QStringLiteral("json")});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    const QJsonArray rows = jsonArray(r.out);
    const QJsonObject criteo = row(rows, QStringLiteral("volume"), QStringLiteral("criteo-data"));
    ASSERT_FALSE(criteo.isEmpty()) << r.out.left(400).toStdString();
    EXPECT_EQ(criteo.value(QStringLiteral("source")).toString(), QStringLiteral("ai-lab"));
    EXPECT_EQ(criteo.value(QStringLiteral("kind")).toString(), QStringLiteral("azure"));
    EXPECT_EQ(criteo.value(QStringLiteral("level")).toString(), QStringLiteral("Standard"));
    // 1000 GiB at 16 MiB/s per TiB.
    EXPECT_NEAR(criteo.value(QStringLiteral("cap_mibps")).toDouble(), 15.6, 0.05);
    // 1000 GiB x 0.1475 USD per GiB-month (rate card defaults).
    EXPECT_NEAR(criteo.value(QStringLiteral("cost_per_month")).toDouble(), 147.5, 0.01);
    EXPECT_EQ(criteo.value(QStringLiteral("currency")).toString(), QStringLiteral("USD"));
    bool ontapSeen = false;
    for (const QJsonValue &v : rows) {
        ontapSeen |= v.toObject().value(QStringLiteral("kind")).toString() == QLatin1String("ontap");
    }
    EXPECT_TRUE(ontapSeen);
}

TEST_F(CliServiceLevelTest, GetPoolsAndAks_ShowTheSubscription)
{
    const Run pools =
        run({QStringLiteral("get"), QStringLiteral("pools"), QStringLiteral("-o"), QStringLiteral("json")});
    ASSERT_EQ(pools.code, 0) << pools.err.toStdString();
    const QJsonObject premium = row(jsonArray(pools.out), QStringLiteral("name"), QStringLiteral("pool-premium"));
    EXPECT_EQ(premium.value(QStringLiteral("service_level")).toString(), QStringLiteral("Premium"));
    EXPECT_EQ(premium.value(QStringLiteral("size_bytes")).toDouble(), 4398046511104.0);
    const Run aks = run({QStringLiteral("get"), QStringLiteral("aks"), QStringLiteral("-o"), QStringLiteral("json")});
    ASSERT_EQ(aks.code, 0) << aks.err.toStdString();
    const QJsonObject cluster = row(jsonArray(aks.out), QStringLiteral("name"), QStringLiteral("aks-gpu"));
    ASSERT_FALSE(cluster.isEmpty()) << aks.out.toStdString();
    const QJsonArray agentPools = cluster.value(QStringLiteral("agent_pools")).toArray();
    bool gpuPool = false;
    for (const QJsonValue &p : agentPools) {
        gpuPool |= p.toString().contains(QStringLiteral("gpupool: 3 x Standard_NC6s_v3"));
    }
    EXPECT_TRUE(gpuPool) << aks.out.toStdString();
}

TEST_F(CliServiceLevelTest, SetServiceLevelDryRun_PreviewsCapAndCostAndChangesNothing)
{
    const Run r = run({QStringLiteral("set"),
                       QStringLiteral("service-level"),
                       QStringLiteral("criteo-data"),
                       QStringLiteral("--to"),
                       QStringLiteral("Premium"),
                       QStringLiteral("--dry-run")});
    ASSERT_EQ(r.code, 0) << r.err.toStdString() << r.out.toStdString();
    EXPECT_TRUE(r.out.contains(QStringLiteral("62.5"))) << r.out.toStdString();
    EXPECT_TRUE(r.out.contains(QStringLiteral("Dry run"))) << r.out.toStdString();
    const auto volume = azure->volume(
        azure->volumeId(QStringLiteral("anf-ai-lab"), QStringLiteral("pool-standard"), QStringLiteral("criteo-data")));
    ASSERT_TRUE(volume.has_value());
    EXPECT_EQ(azure->operationCount(), 0);
}

TEST_F(CliServiceLevelTest, SetServiceLevel_MovesTheVolumeToThePremiumPool)
{
    const Run r = run({QStringLiteral("set"),
                       QStringLiteral("service-level"),
                       QStringLiteral("criteo-data"),
                       QStringLiteral("--to"),
                       QStringLiteral("Premium"),
                       QStringLiteral("-o"),
                       QStringLiteral("json")});
    ASSERT_EQ(r.code, 0) << r.err.toStdString() << r.out.toStdString();
    const QJsonObject result = QJsonDocument::fromJson(r.out.toUtf8()).object();
    EXPECT_EQ(result.value(QStringLiteral("state")).toString(), QStringLiteral("succeeded"));
    const auto moved = azure->volume(
        azure->volumeId(QStringLiteral("anf-ai-lab"), QStringLiteral("pool-premium"), QStringLiteral("criteo-data")));
    ASSERT_TRUE(moved.has_value());
    EXPECT_EQ(moved->value(QStringLiteral("properties")).toObject().value(QStringLiteral("serviceLevel")).toString(),
              QStringLiteral("Premium"));
    // Audited in the shared history store.
    const Run levels =
        run({QStringLiteral("get"), QStringLiteral("service-levels"), QStringLiteral("-o"), QStringLiteral("json")});
    const QJsonObject criteo = row(jsonArray(levels.out), QStringLiteral("volume"), QStringLiteral("criteo-data"));
    EXPECT_EQ(criteo.value(QStringLiteral("level")).toString(), QStringLiteral("Premium"));
    EXPECT_NEAR(criteo.value(QStringLiteral("cap_mibps")).toDouble(), 62.5, 0.05);
}

TEST_F(CliServiceLevelTest, SetServiceLevelWindow_IsSavedAndListedAsSchedule)
{
    const Run r = run({QStringLiteral("set"),
                       QStringLiteral("service-level"),
                       QStringLiteral("criteo-data"),
                       QStringLiteral("--to"),
                       QStringLiteral("Premium"),
                       QStringLiteral("--window"),
                       QStringLiteral("+2h..+10h"),
                       QStringLiteral("--repeat"),
                       QStringLiteral("weekdays")});
    ASSERT_EQ(r.code, 0) << r.err.toStdString() << r.out.toStdString();
    EXPECT_TRUE(r.out.contains(QStringLiteral("Scheduled as #"))) << r.out.toStdString();
    EXPECT_EQ(azure->operationCount(), 0) << "a scheduled change must not run now";
    const Run list =
        run({QStringLiteral("get"), QStringLiteral("schedules"), QStringLiteral("-o"), QStringLiteral("json")});
    ASSERT_EQ(list.code, 0) << list.err.toStdString();
    const QJsonArray schedules = jsonArray(list.out);
    ASSERT_EQ(schedules.size(), 1) << list.out.toStdString();
    const QJsonObject s = schedules.first().toObject();
    EXPECT_EQ(s.value(QStringLiteral("volume")).toString(), QStringLiteral("criteo-data"));
    EXPECT_EQ(s.value(QStringLiteral("level")).toString(), QStringLiteral("Premium"));
    EXPECT_EQ(s.value(QStringLiteral("revert_level")).toString(), QStringLiteral("Standard"));
    EXPECT_EQ(s.value(QStringLiteral("recurrence")).toString(), QStringLiteral("weekdays"));
    EXPECT_FALSE(s.value(QStringLiteral("next")).isNull());
}

TEST_F(CliServiceLevelTest, SetServiceLevel_UnknownLevelOrVolumeIsAUsageError)
{
    const Run level = run({QStringLiteral("set"),
                           QStringLiteral("service-level"),
                           QStringLiteral("criteo-data"),
                           QStringLiteral("--to"),
                           QStringLiteral("Gold")});
    EXPECT_EQ(level.code, 2);
    EXPECT_TRUE(level.err.contains(QStringLiteral("Standard, Premium, Ultra"))) << level.err.toStdString();
    const Run volume = run({QStringLiteral("set"),
                            QStringLiteral("service-level"),
                            QStringLiteral("no-such-volume"),
                            QStringLiteral("--to"),
                            QStringLiteral("Premium")});
    EXPECT_EQ(volume.code, 1);
    const Run noTo = run({QStringLiteral("set"), QStringLiteral("service-level"), QStringLiteral("criteo-data")});
    EXPECT_EQ(noTo.code, 2);
    const Run badSize = run({QStringLiteral("set"),
                             QStringLiteral("service-level"),
                             QStringLiteral("criteo-data"),
                             QStringLiteral("--to"),
                             QStringLiteral("Ultra"),
                             QStringLiteral("--create-pool"),
                             QStringLiteral("--pool-size"),
                             QStringLiteral("1.5x")});
    EXPECT_EQ(badSize.code, 2);
    EXPECT_TRUE(badSize.err.contains(QStringLiteral("--pool-size"))) << badSize.err.toStdString();
    EXPECT_EQ(azure->operationCount(), 0);
}
