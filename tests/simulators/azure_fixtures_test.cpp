// Conformance: every recorded example in tests/fixtures/azure (azure-rest-api-specs, Microsoft.NetApp
// 2025-06-01) is replayed against the simulator, built from the example's own parameters
// (subscription, resource group, account/pool/volume/snapshot names). The simulator's answer must
// use one of the example's status codes, carry every key of the example's body with the same JSON
// type (recursively; the simulator may add fields the example leaves out) and the example's LRO
// headers in the same URL shape.

#include "tests/simulators/azuretestsupport.h"
#include "tests/support/fixtures.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <gtest/gtest.h>

using namespace strata::testsupport::azuresim;
using strata::sim::azure::AzureSimulator;

namespace {

QString typeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("bool");
    case QJsonValue::Double:
        return QStringLiteral("number");
    case QJsonValue::String:
        return QStringLiteral("string");
    case QJsonValue::Array:
        return QStringLiteral("array");
    case QJsonValue::Object:
        return QStringLiteral("object");
    default:
        return QStringLiteral("undefined");
    }
}

/// Differences of `actual` from `expected` (keys missing or of another type), as "path: what".
void compareShape(const QJsonValue &expected, const QJsonValue &actual, const QString &path, QStringList *out)
{
    if (typeName(expected) != typeName(actual)) {
        out->append(QStringLiteral("%1: %2 expected, %3 found").arg(path, typeName(expected), typeName(actual)));
        return;
    }
    if (expected.isObject()) {
        const QJsonObject e = expected.toObject();
        const QJsonObject a = actual.toObject();
        for (auto it = e.begin(); it != e.end(); ++it) {
            if (!a.contains(it.key())) {
                out->append(QStringLiteral("%1.%2: missing").arg(path, it.key()));
                continue;
            }
            compareShape(it.value(), a.value(it.key()), path + QLatin1Char('.') + it.key(), out);
        }
    } else if (expected.isArray() && !expected.toArray().isEmpty()) {
        if (actual.toArray().isEmpty()) {
            out->append(QStringLiteral("%1: empty array").arg(path));
            return;
        }
        compareShape(expected.toArray().first(), actual.toArray().first(), path + QStringLiteral("[0]"), out);
    }
}

/// The value at "a/b/0/c" (object keys and array indexes).
QJsonValue dig(const QJsonValue &root, const char *path)
{
    QJsonValue v = root;
    for (const QString &part : QString::fromLatin1(path).split(QLatin1Char('/'))) {
        bool index = false;
        const int i = part.toInt(&index);
        v = index && v.isArray() ? v.toArray().at(i) : v.toObject().value(part);
    }
    return v;
}

QJsonObject loadExample(const QString &name)
{
    const std::string text = strata::testsupport::fixture("azure/" + name.toStdString() + ".json");
    return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

/// A URL pattern from an example header: any scheme+host, the example's uuids as any uuid.
QRegularExpression urlShape(const QString &exampleUrl)
{
    QString path = exampleUrl;
    path.remove(QRegularExpression(QStringLiteral("^https://[^/]+")));
    QString pattern = QRegularExpression::escape(path);
    pattern.replace(QRegularExpression(
                        QStringLiteral("[0-9a-f]{8}\\\\-[0-9a-f]{4}\\\\-[0-9a-f]{4}\\\\-[0-9a-f]{4}\\\\-[0-9a-f]{12}")),
                    QStringLiteral("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"));
    // The subscription of the example is the simulator's subscription; keep it literal.
    return QRegularExpression(QStringLiteral("^https://127\\.0\\.0\\.1:\\d+") + pattern + QLatin1Char('$'));
}

class AzureFixtureTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        const QJsonObject params =
            loadExample(QStringLiteral("Volumes_Get")).value(QStringLiteral("parameters")).toObject();
        sub = params.value(QStringLiteral("subscriptionId")).toString();
        rg = params.value(QStringLiteral("resourceGroupName")).toString();
        account = params.value(QStringLiteral("accountName")).toString();
        poolName = params.value(QStringLiteral("poolName")).toString();
        volumeName = params.value(QStringLiteral("volumeName")).toString();
        AzureSimulator::Options options = testOptions(AzureSimulator::Options::Preset::Empty);
        options.subscriptionId = sub;
        options.resourceGroup = rg;
        sim = std::make_unique<RunningAzure>(options);
        ASSERT_TRUE(sim->isRunning()) << sim->error().toStdString();
        http = std::make_unique<AzureHttp>(**sim);
        ASSERT_TRUE(http->login());
        const QJsonObject pool1 =
            dig(loadExample(QStringLiteral("Pools_List")), "responses/200/body/value/0").toObject();
        const QJsonObject volume1 = dig(loadExample(QStringLiteral("Volumes_Get")), "responses/200/body").toObject();
        // Build the example's estate through the API itself.
        create(accountPath(), QJsonObject{{QStringLiteral("location"), QStringLiteral("eastus")}});
        create(poolPath(poolName),
               QJsonObject{{QStringLiteral("location"), QStringLiteral("eastus")},
                           {QStringLiteral("properties"),
                            QJsonObject{{QStringLiteral("serviceLevel"), dig(pool1, "properties/serviceLevel")},
                                        {QStringLiteral("size"), dig(pool1, "properties/size")},
                                        {QStringLiteral("qosType"), dig(pool1, "properties/qosType")}}}});
        create(volumePath(),
               QJsonObject{{QStringLiteral("location"), QStringLiteral("eastus")},
                           {QStringLiteral("properties"),
                            QJsonObject{{QStringLiteral("creationToken"), dig(volume1, "properties/creationToken")},
                                        {QStringLiteral("usageThreshold"), dig(volume1, "properties/usageThreshold")},
                                        {QStringLiteral("subnetId"), dig(volume1, "properties/subnetId")}}}});
    }

    void create(const QString &path, const QJsonObject &body)
    {
        const HttpResult r = http->put(AzureHttp::withApi(path), body);
        ASSERT_EQ(r.status, 201) << path.toStdString() << ": " << r.body.toStdString();
        ASSERT_EQ(http->waitForOperation(r).value(QStringLiteral("status")).toString(), QStringLiteral("Succeeded"));
    }

    QString accountPath() const
    {
        return QStringLiteral("/subscriptions/%1/resourceGroups/%2/providers/Microsoft.NetApp/netAppAccounts/%3")
            .arg(sub, rg, account);
    }
    QString poolPath(const QString &pool) const { return accountPath() + QStringLiteral("/capacityPools/") + pool; }
    QString volumePath() const { return poolPath(poolName) + QStringLiteral("/volumes/") + volumeName; }

    /// Checks status, body shape and headers of `r` against the example's responses.
    void conforms(const QString &example, const HttpResult &r)
    {
        SCOPED_TRACE(example.toStdString());
        const QJsonObject responses = loadExample(example).value(QStringLiteral("responses")).toObject();
        const QString status = QString::number(r.status);
        ASSERT_TRUE(responses.contains(status))
            << "status " << r.status << " is not among the example's; body " << r.body.toStdString();
        const QJsonObject expected = responses.value(status).toObject();
        if (expected.contains(QStringLiteral("body"))) {
            ASSERT_TRUE(r.jsonValid) << r.body.toStdString();
            QStringList diffs;
            compareShape(expected.value(QStringLiteral("body")), r.json, QStringLiteral("body"), &diffs);
            EXPECT_TRUE(diffs.isEmpty()) << diffs.join(QStringLiteral("\n")).toStdString();
        } else {
            EXPECT_TRUE(r.body.isEmpty()) << r.body.toStdString();
        }
        const QJsonObject headers = expected.value(QStringLiteral("headers")).toObject();
        for (auto it = headers.begin(); it != headers.end(); ++it) {
            const QString actual = QString::fromUtf8(r.headers.value(it.key().toLower().toLatin1()));
            EXPECT_TRUE(urlShape(it.value().toString()).match(actual).hasMatch())
                << it.key().toStdString() << ": " << actual.toStdString() << " vs example "
                << it.value().toString().toStdString();
        }
        ++checked;
    }

    QString sub, rg, account, poolName, volumeName;
    std::unique_ptr<RunningAzure> sim;
    std::unique_ptr<AzureHttp> http;
    int checked = 0;
};

} // namespace

TEST_F(AzureFixtureTest, EveryExampleMatchesFieldForField)
{
    conforms(QStringLiteral("Accounts_List"),
             http->get(AzureHttp::withApi(accountPath().section(QLatin1Char('/'), 0, -2))));
    conforms(QStringLiteral("Pools_List"),
             http->get(AzureHttp::withApi(accountPath() + QStringLiteral("/capacityPools"))));
    conforms(QStringLiteral("Volumes_List"),
             http->get(AzureHttp::withApi(poolPath(poolName) + QStringLiteral("/volumes"))));
    conforms(QStringLiteral("Volumes_Get"), http->get(AzureHttp::withApi(volumePath())));

    const QJsonObject snapshotParams =
        loadExample(QStringLiteral("Snapshots_Create")).value(QStringLiteral("parameters")).toObject();
    const QString snapshotPath =
        volumePath() + QStringLiteral("/snapshots/") + snapshotParams.value(QStringLiteral("snapshotName")).toString();
    const HttpResult created =
        http->put(AzureHttp::withApi(snapshotPath), snapshotParams.value(QStringLiteral("body")).toObject());
    conforms(QStringLiteral("Snapshots_Create"), created);
    ASSERT_EQ(http->waitForOperation(created).value(QStringLiteral("status")).toString(), QStringLiteral("Succeeded"));
    conforms(QStringLiteral("Snapshots_List"),
             http->get(AzureHttp::withApi(volumePath() + QStringLiteral("/snapshots"))));

    // Revert with the example's body verbatim (the snapshot's full ARM id).
    const QJsonObject revertBody = dig(loadExample(QStringLiteral("Volumes_Revert")), "parameters/body").toObject();
    const HttpResult reverted = http->post(AzureHttp::withApi(volumePath() + QStringLiteral("/revert")), revertBody);
    conforms(QStringLiteral("Volumes_Revert"), reverted);
    ASSERT_EQ(http->waitForOperation(reverted).value(QStringLiteral("status")).toString(), QStringLiteral("Succeeded"));

    // The PoolChange example names the volume's own pool as the target (a no-op ARM would
    // reject here); move to a second pool of the example's account instead.
    create(poolPath(QStringLiteral("pool2")),
           QJsonObject{{QStringLiteral("location"), QStringLiteral("eastus")},
                       {QStringLiteral("properties"),
                        QJsonObject{{QStringLiteral("serviceLevel"), QStringLiteral("Standard")},
                                    {QStringLiteral("size"), double(qint64(4) << 40)}}}});
    QJsonObject moveBody = dig(loadExample(QStringLiteral("Volumes_PoolChange")), "parameters/body").toObject();
    EXPECT_EQ(moveBody.value(QStringLiteral("newPoolResourceId")).toString(), poolPath(poolName));
    moveBody.insert(QStringLiteral("newPoolResourceId"), poolPath(QStringLiteral("pool2")));
    const HttpResult moved = http->post(AzureHttp::withApi(volumePath() + QStringLiteral("/poolChange")), moveBody);
    conforms(QStringLiteral("Volumes_PoolChange"), moved);
    ASSERT_EQ(http->waitForOperation(moved).value(QStringLiteral("status")).toString(), QStringLiteral("Succeeded"));
    const HttpResult after =
        http->get(AzureHttp::withApi(poolPath(QStringLiteral("pool2")) + QStringLiteral("/volumes/") + volumeName));
    conforms(QStringLiteral("Volumes_Get"), after);
    EXPECT_EQ(dig(after.json, "properties/serviceLevel").toString(), QStringLiteral("Standard"));
    EXPECT_EQ(checked, 9);
}

TEST_F(AzureFixtureTest, ShapeComparisonCatchesDifferences)
{
    QStringList diffs;
    compareShape(
        QJsonObject{{QStringLiteral("a"), 1},
                    {QStringLiteral("b"), QJsonArray{QJsonObject{{QStringLiteral("c"), QStringLiteral("x")}}}}},
        QJsonObject{{QStringLiteral("a"), QStringLiteral("1")}, {QStringLiteral("b"), QJsonArray{QJsonObject{}}}},
        QStringLiteral("body"),
        &diffs);
    EXPECT_EQ(
        diffs,
        (QStringList{QStringLiteral("body.a: number expected, string found"), QStringLiteral("body.b[0].c: missing")}));
}
