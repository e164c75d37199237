// The StorageGRID simulator's Grid and Tenant Management API (apis.md section 2): discovery,
// authorize tokens and their expiry, the error envelope, health, nodes, alerts over time, tenants
// with limit/marker paging and usage taken from the S3 store, ILM, metric queries, tenant side.

#include "tests/simulators/storagegridtestsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTimeZone>
#include <QUrl>

#include <gtest/gtest.h>

using namespace strata::testsupport::gridsim;
using strata::sim::storagegrid::StorageGridSimulator;

namespace {

const QString DataScience = QStringLiteral("27842394817204129340");
const QString SupportCenter = QStringLiteral("61020483957721640118");

QDateTime gridMgmtIso(const QString &text)
{
    return QDateTime::fromString(text, Qt::ISODateWithMs);
}

class GridMgmt : public ::testing::Test
{
protected:
    void SetUp() override
    {
        grid = std::make_unique<RunningGrid>();
        ASSERT_TRUE(grid->isRunning()) << grid->error().toStdString();
        api = std::make_unique<GridApi>(**grid);
    }

    static void expectEnvelopeError(const HttpResult &r, int code, const QString &key)
    {
        EXPECT_EQ(r.status, code) << r.body.toStdString();
        ASSERT_TRUE(r.jsonValid) << r.body.toStdString();
        EXPECT_EQ(r.json.value(QStringLiteral("status")).toString(), QStringLiteral("error"));
        EXPECT_EQ(r.json.value(QStringLiteral("code")).toInt(), code);
        const QJsonObject message = r.json.value(QStringLiteral("message")).toObject();
        EXPECT_EQ(message.value(QStringLiteral("key")).toString(), key);
        EXPECT_FALSE(message.value(QStringLiteral("text")).toString().isEmpty());
        EXPECT_EQ(r.json.value(QStringLiteral("errors")).toArray().size(), 1);
    }

    QJsonValue data(const QString &path)
    {
        const HttpResult r = api->get(path);
        EXPECT_EQ(r.status, 200) << path.toStdString() << ": " << r.body.toStdString();
        EXPECT_EQ(r.json.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
        return r.json.value(QStringLiteral("data"));
    }

    std::unique_ptr<RunningGrid> grid;
    std::unique_ptr<GridApi> api;
};

} // namespace

TEST_F(GridMgmt, Versions_NeedNoToken_AndBothBasePathsServe)
{
    const HttpResult versions = api->get(QStringLiteral("/api/versions"));
    ASSERT_EQ(versions.status, 200);
    EXPECT_EQ(versions.json.value(QStringLiteral("data")).toArray(), (QJsonArray{3, 4}));
    ASSERT_TRUE(api->authorize(QStringLiteral("root"), (*grid)->options().rootPassword, {}, QStringLiteral("v3")).status
                == 200);
    const HttpResult v3 = api->get(QStringLiteral("/api/v3/grid/config/product-version"));
    EXPECT_EQ(v3.status, 200);
    EXPECT_EQ(v3.json.value(QStringLiteral("apiVersion")).toString(), QStringLiteral("3.0"));
    EXPECT_TRUE(v3.json.value(QStringLiteral("data"))
                    .toObject()
                    .value(QStringLiteral("productVersion"))
                    .toString()
                    .startsWith(QStringLiteral("11.8.")));
    const HttpResult v4 = api->get(QStringLiteral("/api/v4/grid/config/product-version"));
    EXPECT_EQ(v4.json.value(QStringLiteral("apiVersion")).toString(), QStringLiteral("4.0"));
    expectEnvelopeError(
        api->get(QStringLiteral("/api/v2/grid/health")), 400, QStringLiteral("error.apiVersion.unsupported"));
}

TEST_F(GridMgmt, Authorize_WrongPasswordOrMalformedBody_AreErrorEnvelopes)
{
    expectEnvelopeError(api->authorize(QStringLiteral("root"), QStringLiteral("wrong")),
                        401,
                        QStringLiteral("error.authentication.invalid"));
    expectEnvelopeError(
        api->authorize(QStringLiteral("root"), QStringLiteral("strata-sim-tenant"), DataScience + QLatin1Char('9')),
        401,
        QStringLiteral("error.authentication.invalid"));
    expectEnvelopeError(api->send("POST", QStringLiteral("/api/v4/authorize"), "{\"username\": \"root\", "),
                        400,
                        QStringLiteral("error.json.invalid"));
    expectEnvelopeError(
        api->get(QStringLiteral("/api/v4/grid/health")), 401, QStringLiteral("error.authentication.required"));
    EXPECT_EQ((*grid)->authorizations(), 0);
}

TEST_F(GridMgmt, Token_ExpiresAfterTtl_RevokeAndLogoutInvalidate)
{
    StorageGridSimulator::Options options = testOptions();
    options.tokenTtl = std::chrono::seconds(60);
    grid = std::make_unique<RunningGrid>(options);
    ASSERT_TRUE(grid->isRunning());
    api = std::make_unique<GridApi>(**grid);
    ASSERT_TRUE(api->loginGrid());
    EXPECT_EQ(api->get(QStringLiteral("/api/v4/grid/health")).status, 200);
    (*grid)->advanceClock(std::chrono::seconds(61));
    expectEnvelopeError(api->get(QStringLiteral("/api/v4/grid/health")), 401, QStringLiteral("error.token.expired"));
    ASSERT_TRUE(api->loginGrid()) << "re-authorize after expiry";
    EXPECT_EQ(api->get(QStringLiteral("/api/v4/grid/health")).status, 200);
    (*grid)->revokeTokens();
    expectEnvelopeError(api->get(QStringLiteral("/api/v4/grid/health")), 401, QStringLiteral("error.token.expired"));
    ASSERT_TRUE(api->loginGrid());
    EXPECT_EQ(api->send("DELETE", QStringLiteral("/api/v4/authorize")).status, 204);
    expectEnvelopeError(
        api->get(QStringLiteral("/api/v4/grid/health")), 401, QStringLiteral("error.authentication.required"));
    EXPECT_EQ((*grid)->authorizations(), 3);
}

TEST_F(GridMgmt, TenantToken_ServesOrgPaths_ButNotGridPaths)
{
    ASSERT_TRUE(api->loginTenant(DataScience));
    const QJsonArray containers = data(QStringLiteral("/api/v4/org/containers")).toArray();
    ASSERT_EQ(containers.size(), 1);
    EXPECT_EQ(containers[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("datasets"));
    EXPECT_TRUE(containers[0].toObject().value(QStringLiteral("versioningEnabled")).toBool());
    const QJsonObject usage = data(QStringLiteral("/api/v4/org/usage")).toObject();
    EXPECT_EQ(usage.value(QStringLiteral("dataBytes")).toInteger(), 290'200'000);
    expectEnvelopeError(api->get(QStringLiteral("/api/v4/grid/accounts")), 403, QStringLiteral("error.forbidden"));

    ASSERT_TRUE(api->loginGrid());
    expectEnvelopeError(api->get(QStringLiteral("/api/v4/org/containers")), 403, QStringLiteral("error.forbidden"));
    expectEnvelopeError(api->get(QStringLiteral("/api/v4/grid/no-such-thing")), 404, QStringLiteral("error.404"));
}

TEST_F(GridMgmt, HealthTopologyAndNodes_DescribeTheDatalakeGrid)
{
    ASSERT_TRUE(api->loginGrid());
    const QJsonObject health = data(QStringLiteral("/api/v4/grid/health")).toObject();
    EXPECT_EQ(health.value(QStringLiteral("nodes")).toObject().value(QStringLiteral("connected")).toInt(), 5);
    EXPECT_TRUE(health.value(QStringLiteral("alarms")).toObject().contains(QStringLiteral("notice")));
    const QJsonObject topology = data(QStringLiteral("/api/v4/grid/health/topology?depth=node")).toObject();
    EXPECT_EQ(topology.value(QStringLiteral("name")).toString(), QStringLiteral("datalake"));
    const QJsonObject site = topology.value(QStringLiteral("children")).toArray().at(0).toObject();
    EXPECT_EQ(site.value(QStringLiteral("name")).toString(), QStringLiteral("dc1"));
    EXPECT_EQ(site.value(QStringLiteral("children")).toArray().size(), 5);
    EXPECT_FALSE(data(QStringLiteral("/api/v4/grid/health/topology?depth=grid"))
                     .toObject()
                     .contains(QStringLiteral("children")));
    expectEnvelopeError(
        api->get(QStringLiteral("/api/v4/grid/health/topology?depth=planet")), 400, QStringLiteral("error.validation"));

    const QJsonArray nodes = data(QStringLiteral("/api/v4/grid/node-health")).toArray();
    ASSERT_EQ(nodes.size(), 5);
    QSet<QString> names;
    QSet<QString> ids;
    int storage = 0;
    for (const QJsonValue &v : nodes) {
        const QJsonObject n = v.toObject();
        names.insert(n.value(QStringLiteral("name")).toString());
        ids.insert(n.value(QStringLiteral("id")).toString());
        storage += n.value(QStringLiteral("type")).toString() == QLatin1String("storageNode") ? 1 : 0;
        EXPECT_EQ(n.value(QStringLiteral("siteName")).toString(), QStringLiteral("dc1"));
        EXPECT_EQ(n.value(QStringLiteral("state")).toString(), QStringLiteral("connected"));
    }
    EXPECT_EQ(names,
              (QSet<QString>{QStringLiteral("dc1-adm1"),
                             QStringLiteral("dc1-s1"),
                             QStringLiteral("dc1-s2"),
                             QStringLiteral("dc1-s3"),
                             QStringLiteral("dc1-g1")}));
    EXPECT_EQ(ids.size(), 5);
    EXPECT_EQ(storage, 3);
}

TEST_F(GridMgmt, Alerts_FireAndResolve_AsTheClockAdvances)
{
    ASSERT_TRUE(api->loginGrid());
    // Move to minute 1 of a 10-minute cycle: nothing fires; minute 3: the memory alert fires.
    const std::int64_t now = (*grid)->nowMs();
    const std::int64_t intoCycle = now % 600000;
    (*grid)->advanceClock(std::chrono::milliseconds(600000 - intoCycle + 60000));
    EXPECT_EQ(data(QStringLiteral("/api/v4/grid/alerts")).toArray().size(), 0);
    EXPECT_EQ(data(QStringLiteral("/api/v4/grid/health"))
                  .toObject()
                  .value(QStringLiteral("alerts"))
                  .toObject()
                  .value(QStringLiteral("major")),
              0);
    (*grid)->advanceClock(std::chrono::minutes(2));
    const QJsonArray active = data(QStringLiteral("/api/v4/grid/alerts")).toArray();
    ASSERT_EQ(active.size(), 1);
    const QJsonObject alert = active[0].toObject();
    EXPECT_EQ(alert.value(QStringLiteral("name")).toString(), QStringLiteral("Low installed node memory"));
    EXPECT_EQ(alert.value(QStringLiteral("status")).toString(), QStringLiteral("active"));
    EXPECT_EQ(alert.value(QStringLiteral("labels")).toObject().value(QStringLiteral("severity")).toString(),
              QStringLiteral("major"));
    EXPECT_EQ(alert.value(QStringLiteral("labels")).toObject().value(QStringLiteral("instance")).toString(),
              QStringLiteral("dc1-s3"));
    EXPECT_FALSE(
        alert.value(QStringLiteral("annotations")).toObject().value(QStringLiteral("summary")).toString().isEmpty());
    const QString id = alert.value(QStringLiteral("id")).toString();
    EXPECT_EQ(data(QStringLiteral("/api/v4/grid/health"))
                  .toObject()
                  .value(QStringLiteral("alerts"))
                  .toObject()
                  .value(QStringLiteral("major")),
              1);
    bool nodeMajor = false;
    for (const QJsonValue &n : data(QStringLiteral("/api/v4/grid/node-health")).toArray()) {
        nodeMajor = nodeMajor
                    || (n.toObject().value(QStringLiteral("name")).toString() == QLatin1String("dc1-s3")
                        && n.toObject().value(QStringLiteral("severity")).toString() == QLatin1String("major"));
    }
    EXPECT_TRUE(nodeMajor);

    (*grid)->advanceClock(std::chrono::minutes(4));
    EXPECT_EQ(data(QStringLiteral("/api/v4/grid/alerts")).toArray().size(), 0);
    const QJsonArray history = data(QStringLiteral("/api/v4/grid/alert-history")).toArray();
    ASSERT_GE(history.size(), 5);
    const QJsonObject resolved = history[0].toObject();
    EXPECT_EQ(resolved.value(QStringLiteral("id")).toString(), id)
        << "the alert that just resolved comes first, its id the fingerprint the active one had";
    EXPECT_EQ(history[1].toObject().value(QStringLiteral("id")).toString(), id)
        << "the same alert, ten minutes earlier";
    EXPECT_NE(history[1].toObject().value(QStringLiteral("eventId")), resolved.value(QStringLiteral("eventId")));
    // swagger ResolvedAlertRecord: exactly these members.
    QStringList keys = resolved.keys();
    keys.sort();
    EXPECT_EQ(keys,
              (QStringList{QStringLiteral("annotations"),
                           QStringLiteral("endTime"),
                           QStringLiteral("event"),
                           QStringLiteral("eventId"),
                           QStringLiteral("id"),
                           QStringLiteral("inhibited"),
                           QStringLiteral("instance"),
                           QStringLiteral("labels"),
                           QStringLiteral("name"),
                           QStringLiteral("severity"),
                           QStringLiteral("startTime"),
                           QStringLiteral("status")}));
    EXPECT_TRUE(resolved.value(QStringLiteral("eventId")).isDouble());
    EXPECT_EQ(resolved.value(QStringLiteral("status")).toString(), QStringLiteral("resolved"));
    EXPECT_EQ(resolved.value(QStringLiteral("event")).toString(), QStringLiteral("triggered"));
    EXPECT_EQ(resolved.value(QStringLiteral("severity")).toString(), QStringLiteral("major"));
    EXPECT_EQ(resolved.value(QStringLiteral("instance")).toString(), QStringLiteral("dc1-s3"));
    const auto started = gridMgmtIso(resolved.value(QStringLiteral("startTime")).toString());
    const auto ended = gridMgmtIso(resolved.value(QStringLiteral("endTime")).toString());
    ASSERT_TRUE(started.isValid() && ended.isValid());
    EXPECT_EQ(started.msecsTo(ended), 4 * 60 * 1000);

    QSet<QString> everything;
    for (const QJsonValue &v : history) {
        everything.insert(v.toObject().value(QStringLiteral("name")).toString());
    }
    EXPECT_TRUE(everything.contains(QStringLiteral("Node network connectivity error")));
    EXPECT_TRUE(everything.contains(QStringLiteral("Low object data storage"))) << "nine days old, kept";

    // timeTriggeredEarliest/-Latest bound the trigger time.
    const QDateTime gridNow = QDateTime::fromMSecsSinceEpoch((*grid)->nowMs(), QTimeZone::utc());
    const QString weekAgo = gridNow.addDays(-7).toString(Qt::ISODateWithMs);
    const QJsonArray week = data(QStringLiteral("/api/v4/grid/alert-history?timeTriggeredEarliest=")
                                 + QString::fromLatin1(QUrl::toPercentEncoding(weekAgo)))
                                .toArray();
    ASSERT_FALSE(week.isEmpty());
    for (const QJsonValue &v : week) {
        EXPECT_GE(gridMgmtIso(v.toObject().value(QStringLiteral("startTime")).toString()), gridNow.addDays(-7));
        EXPECT_NE(v.toObject().value(QStringLiteral("name")).toString(), QStringLiteral("Low object data storage"));
    }
    EXPECT_LT(week.size(), history.size());
    const QString threeDaysAgo = gridNow.addDays(-3).toString(Qt::ISODateWithMs);
    const QJsonArray older = data(QStringLiteral("/api/v4/grid/alert-history?timeTriggeredLatest=")
                                  + QString::fromLatin1(QUrl::toPercentEncoding(threeDaysAgo)))
                                 .toArray();
    ASSERT_FALSE(older.isEmpty());
    for (const QJsonValue &v : older) {
        EXPECT_LE(gridMgmtIso(v.toObject().value(QStringLiteral("startTime")).toString()), gridNow.addDays(-3));
    }
    expectEnvelopeError(api->get(QStringLiteral("/api/v4/grid/alert-history?timeTriggeredEarliest=yesterday")),
                        400,
                        QStringLiteral("error.validation"));
}

TEST_F(GridMgmt, Accounts_PageWithLimitAndMarker_UntilEmpty)
{
    for (int i = 0; i < 3; ++i) {
        (*grid)->addTenant({{}, QStringLiteral("extra-%1").arg(i), {}, {}, -1});
    }
    ASSERT_TRUE(api->loginGrid());
    QSet<QString> seen;
    QString marker;
    int pages = 0;
    for (;;) {
        QString path = QStringLiteral("/api/v4/grid/accounts?limit=2");
        if (!marker.isEmpty()) {
            path += QStringLiteral("&marker=") + marker;
        }
        const QJsonArray page = data(path).toArray();
        if (page.isEmpty()) {
            break;
        }
        ASSERT_LE(page.size(), 2);
        for (const QJsonValue &v : page) {
            const QString id = v.toObject().value(QStringLiteral("id")).toString();
            EXPECT_FALSE(seen.contains(id)) << "duplicate " << id.toStdString();
            seen.insert(id);
            EXPECT_EQ(v.toObject().value(QStringLiteral("capabilities")).toArray(),
                      (QJsonArray{QStringLiteral("management"), QStringLiteral("s3")}));
        }
        marker = page.last().toObject().value(QStringLiteral("id")).toString();
        ASSERT_LT(++pages, 10);
    }
    EXPECT_EQ(seen.size(), 5);
    EXPECT_EQ(pages, 3);
    const QJsonArray withMarker =
        data(QStringLiteral("/api/v4/grid/accounts?limit=1&includeMarker=true&marker=") + DataScience).toArray();
    ASSERT_EQ(withMarker.size(), 1);
    EXPECT_EQ(withMarker[0].toObject().value(QStringLiteral("id")).toString(), DataScience);
    expectEnvelopeError(
        api->get(QStringLiteral("/api/v4/grid/accounts?order=desc")), 400, QStringLiteral("error.validation"));

    // Without a limit both lists stop at the documented default, 25; the cache takes no marker.
    for (int i = 3; i < 28; ++i) {
        (*grid)->addTenant({{}, QStringLiteral("extra-%1").arg(i), {}, {}, -1});
    }
    EXPECT_EQ(data(QStringLiteral("/api/v4/grid/accounts")).toArray().size(), 25);
    const QJsonArray cache = data(QStringLiteral("/api/v4/grid/accounts-cache")).toArray();
    ASSERT_EQ(cache.size(), 25);
    EXPECT_TRUE(cache[0].toObject().contains(QStringLiteral("dataBytes")));
    EXPECT_EQ(data(QStringLiteral("/api/v4/grid/accounts-cache?limit=31")).toArray().size(), 30);
    const QJsonArray ignoringMarker = data(QStringLiteral("/api/v4/grid/accounts-cache?limit=2&marker=")
                                           + cache[0].toObject().value(QStringLiteral("id")).toString())
                                          .toArray();
    ASSERT_EQ(ignoringMarker.size(), 2);
    EXPECT_EQ(ignoringMarker[0].toObject().value(QStringLiteral("id")),
              cache[0].toObject().value(QStringLiteral("id")));
    expectEnvelopeError(
        api->get(QStringLiteral("/api/v4/grid/accounts?limit=-1")), 400, QStringLiteral("error.validation"));
}

TEST_F(GridMgmt, Usage_ComesFromTheS3Store)
{
    ASSERT_TRUE(api->loginGrid());
    const QJsonArray cache = data(QStringLiteral("/api/v4/grid/accounts-cache")).toArray();
    ASSERT_EQ(cache.size(), 2);
    QJsonObject science;
    for (const QJsonValue &v : cache) {
        if (v.toObject().value(QStringLiteral("name")).toString() == QLatin1String("data-science")) {
            science = v.toObject();
        }
    }
    EXPECT_EQ(science.value(QStringLiteral("id")).toString(), DataScience);
    EXPECT_EQ(science.value(QStringLiteral("dataBytes")).toInteger(), 290'200'000);
    const auto bucket = (*grid)->store().bucket("datasets");
    ASSERT_TRUE(bucket);
    EXPECT_EQ(science.value(QStringLiteral("objectCount")).toInteger(), bucket->objectCount);

    // A new object version counts at once.
    ASSERT_TRUE((*grid)->store().putObject("datasets", "fraud_jun/extra.csv", std::string(1000, 'x')));
    const QJsonObject usage =
        data(QStringLiteral("/api/v4/grid/accounts/%1/usage?includeBucketDetail=true").arg(DataScience)).toObject();
    EXPECT_EQ(usage.value(QStringLiteral("dataBytes")).toInteger(), 290'201'000);
    const QJsonArray buckets = usage.value(QStringLiteral("buckets")).toArray();
    ASSERT_EQ(buckets.size(), 1);
    const QJsonObject b = buckets[0].toObject();
    EXPECT_EQ(b.value(QStringLiteral("name")).toString(), QStringLiteral("datasets"));
    EXPECT_TRUE(b.value(QStringLiteral("versioningEnabled")).toBool());
    EXPECT_EQ(b.value(QStringLiteral("objectCount")).toInteger(), bucket->objectCount + 1);
    EXPECT_EQ(b.value(QStringLiteral("region")).toString(), QStringLiteral("us-east-1"));
    EXPECT_FALSE(data(QStringLiteral("/api/v4/grid/accounts/%1/usage").arg(SupportCenter))
                     .toObject()
                     .contains(QStringLiteral("buckets")));
    const HttpResult missing = api->get(QStringLiteral("/api/v4/grid/accounts/12345678901234567890/usage"));
    expectEnvelopeError(missing, 404, QStringLiteral("error.404"));
    EXPECT_TRUE(missing.json.value(QStringLiteral("data")).isObject());
}

TEST_F(GridMgmt, IlmPolicies_OneActive)
{
    ASSERT_TRUE(api->loginGrid());
    const QJsonArray all = data(QStringLiteral("/api/v4/grid/ilm-policies")).toArray();
    ASSERT_EQ(all.size(), 2);
    const QJsonArray active = data(QStringLiteral("/api/v4/grid/ilm-policies?type=active")).toArray();
    ASSERT_EQ(active.size(), 1);
    EXPECT_TRUE(active[0].toObject().value(QStringLiteral("active")).toBool());
    EXPECT_EQ(active[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("Data lake 2 copies"));
}

TEST_F(GridMgmt, MetricQuery_VectorAndMatrix_ShowUsageGrowth)
{
    ASSERT_TRUE(api->loginGrid());
    const QJsonObject vector = data(QStringLiteral("/api/v4/grid/metric-query?query=")
                                    + QString::fromLatin1(QUrl::toPercentEncoding(QStringLiteral(
                                        "storagegrid_tenant_usage_data_bytes{tenant_name=\"data-science\"}"))))
                                   .toObject();
    EXPECT_EQ(vector.value(QStringLiteral("resultType")).toString(), QStringLiteral("vector"));
    const QJsonArray result = vector.value(QStringLiteral("result")).toArray();
    ASSERT_EQ(result.size(), 1);
    const QJsonObject series = result[0].toObject();
    EXPECT_EQ(series.value(QStringLiteral("metric")).toObject().value(QStringLiteral("tenant_id")).toString(),
              DataScience);
    const QJsonArray value = series.value(QStringLiteral("value")).toArray();
    ASSERT_EQ(value.size(), 2);
    EXPECT_TRUE(value[0].isDouble());
    EXPECT_EQ(value[1].toString(), QStringLiteral("290200000")) << "the instant value is the store's usage";

    const std::int64_t end = (*grid)->nowMs() / 1000;
    const QString range = QStringLiteral("/api/v4/grid/metric-query-range?query=%1&start=%2&end=%3&step=1d")
                              .arg(QString::fromLatin1(QUrl::toPercentEncoding(
                                  QStringLiteral("sum(storagegrid_tenant_bucket_usage_data_bytes) by (bucket)"))))
                              .arg(end - 7 * 86400)
                              .arg(end);
    const QJsonObject matrix = data(range).toObject();
    EXPECT_EQ(matrix.value(QStringLiteral("resultType")).toString(), QStringLiteral("matrix"));
    const QJsonArray buckets = matrix.value(QStringLiteral("result")).toArray();
    ASSERT_EQ(buckets.size(), 2);
    for (const QJsonValue &b : buckets) {
        const QJsonObject metric = b.toObject().value(QStringLiteral("metric")).toObject();
        EXPECT_EQ(metric.keys(), QStringList{QStringLiteral("bucket")}) << "sum by (bucket) keeps only bucket";
        const QJsonArray values = b.toObject().value(QStringLiteral("values")).toArray();
        ASSERT_EQ(values.size(), 8);
        const double first = values.first().toArray().at(1).toString().toDouble();
        const double last = values.last().toArray().at(1).toString().toDouble();
        EXPECT_LT(first, last) << "usage grew over the week";
        EXPECT_GT(first, last * 0.5);
    }
    const QJsonObject nodes =
        data(QStringLiteral("/api/v4/grid/metric-query?query=storagegrid_storage_utilization_total_space_bytes"))
            .toObject();
    EXPECT_EQ(nodes.value(QStringLiteral("result")).toArray().size(), 3) << "one per storage node";
    EXPECT_GE(data(QStringLiteral("/api/v4/grid/metric-names")).toArray().size(), 8);
}

TEST_F(GridMgmt, MetricQuery_BadInput_Is400)
{
    ASSERT_TRUE(api->loginGrid());
    expectEnvelopeError(api->get(QStringLiteral("/api/v4/grid/metric-query")), 400, QStringLiteral("error.validation"));
    expectEnvelopeError(api->get(QStringLiteral("/api/v4/grid/metric-query?query=rate(x%5B5m%5D")),
                        400,
                        QStringLiteral("error.metric.query"));
    expectEnvelopeError(api->get(QStringLiteral("/api/v4/grid/metric-query?query=up&time=yesterday")),
                        400,
                        QStringLiteral("error.metric.query"));
    expectEnvelopeError(
        api->get(QStringLiteral(
            "/api/v4/grid/metric-query-range?query=up&start=2026-01-02T00:00:00Z&end=2026-01-01T00:00:00Z&step=60")),
        400,
        QStringLiteral("error.metric.query"));
    expectEnvelopeError(
        api->get(QStringLiteral("/api/v4/grid/metric-query-range?query=up&start=0&end=100000000&step=1")),
        400,
        QStringLiteral("error.metric.query"));
    const QJsonObject none = data(QStringLiteral("/api/v4/grid/metric-query?query=no_such_metric")).toObject();
    EXPECT_TRUE(none.value(QStringLiteral("result")).toArray().isEmpty());
}

TEST_F(GridMgmt, Faults_StatusMalformedAndTruncated)
{
    ASSERT_TRUE(api->loginGrid());
    (*grid)->addManagementFault(QStringLiteral("/grid/health$"), QStringLiteral("status"), 503, 1);
    expectEnvelopeError(api->get(QStringLiteral("/api/v4/grid/health")), 503, QStringLiteral("error.simulated"));
    EXPECT_EQ(api->get(QStringLiteral("/api/v4/grid/health")).status, 200) << "count 1: only the first request";
    (*grid)->addManagementFault(QStringLiteral("/grid/accounts-cache$"), QStringLiteral("malformed"));
    const HttpResult malformed = api->get(QStringLiteral("/api/v4/grid/accounts-cache"));
    EXPECT_EQ(malformed.status, 200);
    EXPECT_FALSE(malformed.jsonValid);
    (*grid)->addManagementFault(QStringLiteral("/grid/node-health$"), QStringLiteral("truncate"));
    const HttpResult truncated = api->get(QStringLiteral("/api/v4/grid/node-health"));
    EXPECT_FALSE(truncated.jsonValid);
}
