// The real Azure CLI (Debian's azure-cli) against the simulator, as ecosystem.md 4d-bis sets it
// up: a registered cloud whose Active Directory endpoint is the simulator's /adfs authority,
// `az login --service-principal`, then `az netappfiles volume list` and
// `az netappfiles volume pool-change` and a list under the new pool. Skipped without `az`
// unless STRATA_REQUIRE_ALL=1.

#include "tests/simulators/azuretestsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace strata::testsupport::azuresim;
using strata::sim::azure::AzureSimulator;

namespace {

struct AzResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

class AzureCliTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        az = QStandardPaths::findExecutable(QStringLiteral("az"));
        if (az.isEmpty()) {
            if (qEnvironmentVariable("STRATA_REQUIRE_ALL") == QLatin1String("1")) {
                FAIL() << "the Azure CLI (az) is required (STRATA_REQUIRE_ALL=1); scripts/deps.sh --test installs it";
            }
            GTEST_SKIP() << "the Azure CLI (az) is not installed; scripts/deps.sh --test installs it";
        }
        ASSERT_TRUE(dir.isValid());
        AzureSimulator::Options options = testOptions();
        options.lroRetryAfterSeconds = 1; // without Retry-After the CLI polls every 30 s
        sim = std::make_unique<RunningAzure>(options);
        ASSERT_TRUE(sim->isRunning()) << sim->error().toStdString();
        caPath = dir.filePath(QStringLiteral("ca.pem"));
        QFile ca(caPath);
        ASSERT_TRUE(ca.open(QIODevice::WriteOnly) && ca.write((*sim)->caPem()) > 0);
    }

    AzResult run(const QStringList &args, int timeoutMs = 120000)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("AZURE_CONFIG_DIR"), dir.filePath(QStringLiteral("azure")));
        env.insert(QStringLiteral("AZURE_EXTENSION_DIR"), dir.filePath(QStringLiteral("extensions")));
        env.insert(QStringLiteral("AZURE_CORE_COLLECT_TELEMETRY"), QStringLiteral("false"));
        env.insert(QStringLiteral("AZURE_CORE_NO_COLOR"), QStringLiteral("true"));
        env.insert(QStringLiteral("AZURE_CORE_SURVEY_MESSAGE"), QStringLiteral("false"));
        env.insert(QStringLiteral("REQUESTS_CA_BUNDLE"), caPath);
        env.insert(QStringLiteral("NO_PROXY"), QStringLiteral("127.0.0.1,localhost"));
        process.setProcessEnvironment(env);
        process.start(az, args);
        AzResult result;
        if (!process.waitForFinished(timeoutMs)) {
            process.kill();
            process.waitForFinished();
            result.err = "timed out";
            return result;
        }
        result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        result.out = process.readAllStandardOutput();
        result.err = process.readAllStandardError();
        return result;
    }

    QJsonArray listVolumes(const QString &pool)
    {
        const AzResult r = run({QStringLiteral("netappfiles"),
                                QStringLiteral("volume"),
                                QStringLiteral("list"),
                                QStringLiteral("-g"),
                                QStringLiteral("ai-lab-rg"),
                                QStringLiteral("-a"),
                                QStringLiteral("anf-ai-lab"),
                                QStringLiteral("-p"),
                                pool,
                                QStringLiteral("-o"),
                                QStringLiteral("json")});
        EXPECT_EQ(r.exitCode, 0) << r.err.toStdString();
        return QJsonDocument::fromJson(r.out).array();
    }

    QString az;
    QTemporaryDir dir;
    QString caPath;
    std::unique_ptr<RunningAzure> sim;
};

QString field(const QJsonValue &volume, const char *name)
{
    // az flattens "properties" into the object.
    const QJsonObject o = volume.toObject();
    return o.contains(QLatin1String(name))
               ? o.value(QLatin1String(name)).toVariant().toString()
               : o.value(QStringLiteral("properties")).toObject().value(QLatin1String(name)).toVariant().toString();
}

} // namespace

TEST_F(AzureCliTest, VolumeListAndPoolChange)
{
    const QString base = (*sim)->baseUrl();
    AzResult r = run({QStringLiteral("cloud"),
                      QStringLiteral("register"),
                      QStringLiteral("-n"),
                      QStringLiteral("StrataSim"),
                      QStringLiteral("--endpoint-resource-manager"),
                      base + QLatin1Char('/'),
                      QStringLiteral("--endpoint-active-directory"),
                      base + QStringLiteral("/adfs"),
                      QStringLiteral("--endpoint-active-directory-resource-id"),
                      QStringLiteral("https://management.core.windows.net/"),
                      QStringLiteral("--endpoint-active-directory-graph-resource-id"),
                      QStringLiteral("https://graph.local/"),
                      QStringLiteral("--endpoint-management"),
                      QStringLiteral("https://management.core.windows.net/")});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    r = run({QStringLiteral("cloud"), QStringLiteral("set"), QStringLiteral("-n"), QStringLiteral("StrataSim")});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    r = run({QStringLiteral("login"),
             QStringLiteral("--service-principal"),
             QStringLiteral("-u"),
             (*sim)->options().clientId,
             QStringLiteral("-p"),
             (*sim)->options().clientSecret,
             QStringLiteral("--tenant"),
             QStringLiteral("adfs"),
             QStringLiteral("-o"),
             QStringLiteral("json")});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    const QJsonObject account = QJsonDocument::fromJson(r.out).array().first().toObject();
    EXPECT_EQ(account.value(QStringLiteral("name")).toString(), QStringLiteral("ai-lab"));
    EXPECT_EQ(account.value(QStringLiteral("id")).toString(), (*sim)->options().subscriptionId);
    EXPECT_GE((*sim)->tokenRequests(), 1);

    const QJsonArray standard = listVolumes(QStringLiteral("pool-standard"));
    ASSERT_EQ(standard.size(), 2);
    const QJsonValue criteo = standard.first();
    EXPECT_EQ(criteo.toObject().value(QStringLiteral("name")).toString(),
              QStringLiteral("anf-ai-lab/pool-standard/criteo-data"));
    EXPECT_EQ(field(criteo, "serviceLevel"), QStringLiteral("Standard"));
    const QString fsid = field(criteo, "fileSystemId");
    ASSERT_FALSE(fsid.isEmpty());

    const QString target = (*sim)->poolId(QStringLiteral("anf-ai-lab"), QStringLiteral("pool-premium"));
    r = run({QStringLiteral("netappfiles"),
             QStringLiteral("volume"),
             QStringLiteral("pool-change"),
             QStringLiteral("-g"),
             QStringLiteral("ai-lab-rg"),
             QStringLiteral("-a"),
             QStringLiteral("anf-ai-lab"),
             QStringLiteral("-p"),
             QStringLiteral("pool-standard"),
             QStringLiteral("-n"),
             QStringLiteral("criteo-data"),
             QStringLiteral("--new-pool-resource-id"),
             target});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    EXPECT_EQ((*sim)->operationCount(), 1);
    EXPECT_EQ((*sim)->runningOperations(), 0) << "az waits for the long-running operation";

    const QJsonArray premium = listVolumes(QStringLiteral("pool-premium"));
    ASSERT_EQ(premium.size(), 1);
    EXPECT_EQ(
        premium.first().toObject().value(QStringLiteral("id")).toString(),
        (*sim)->volumeId(QStringLiteral("anf-ai-lab"), QStringLiteral("pool-premium"), QStringLiteral("criteo-data")));
    EXPECT_EQ(field(premium.first(), "serviceLevel"), QStringLiteral("Premium"));
    EXPECT_EQ(field(premium.first(), "fileSystemId"), fsid);
    EXPECT_EQ((*sim)->poolVolumes((*sim)->poolId(QStringLiteral("anf-ai-lab"), QStringLiteral("pool-standard"))).size(),
              1);
}
