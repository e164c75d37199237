// GET /api/v1/events: the Triage timeline as `strata get events` prints it, with the CLI's
// filters as query parameters, and the live feed carrying new entries.

#include "web/livefeed.h"
#include "webfixture.h"

#include "models/core/runtime/timeline.h"
#include "models/rows/resources.h"

namespace strata::testsupport {
namespace {

using WebEventsTest = WebFixture;

QJsonArray eventRowsWithoutKeys(QJsonArray rows)
{
    for (qsizetype i = 0; i < rows.size(); ++i) {
        QJsonObject o = rows.at(i).toObject();
        o.remove(QStringLiteral("key"));
        rows.replace(i, o);
    }
    return rows;
}

TEST_F(WebEventsTest, ServesTheCliRowsWithItsFilters)
{
    startServer();
    const Login viewer = login(QStringLiteral("viewer"));
    ASSERT_TRUE(waitFor([&] {
        return engine->timeline().size() > 0;
    })) << "the ONTAP simulator reports EMS events";

    rows::ResourceFilter filter;
    filter.systems = {QStringLiteral("ontap")};
    filter.severity = QStringLiteral("info");
    filter.limit = 5;
    // The simulator may log a new event between the two reads: compare a consistent pair.
    QJsonArray rows;
    QJsonArray expected;
    int status = 0;
    EXPECT_TRUE(waitFor([&] {
        const Reply r = get(QStringLiteral("/api/v1/events?system=ontap&severity=info&limit=5"), viewer);
        status = r.status;
        rows = r.json().array();
        const auto cliRows = rows::resourceRows(*engine, QStringLiteral("events"), filter, clock.now());
        expected = cliRows ? rows::toJson(*cliRows) : QJsonArray();
        return status == 200 && eventRowsWithoutKeys(rows) == expected;
    })) << status;
    ASSERT_FALSE(rows.isEmpty());
    EXPECT_LE(rows.size(), 5);
    EXPECT_EQ(eventRowsWithoutKeys(rows), expected);
    for (const QJsonValue &v : rows) {
        const QJsonObject row = v.toObject();
        EXPECT_EQ(row.value(QLatin1String("system")).toString(), QStringLiteral("ontap"));
        EXPECT_EQ(row.value(QLatin1String("key")).toString(), row.value(QLatin1String("group")).toString());
    }

    // Facets that match nothing, and a time window in the future.
    EXPECT_EQ(get(QStringLiteral("/api/v1/events?system=storagegrid"), viewer).json().array().size(), 0);
    EXPECT_EQ(get(QStringLiteral("/api/v1/events?since=2999-01-01T00:00:00Z"), viewer).json().array().size(), 0);
    EXPECT_EQ(get(QStringLiteral("/api/v1/events?search=no-such-text-anywhere"), viewer).json().array().size(), 0);
    // Everything kept is younger than the 7-day retention (new events may arrive in between).
    const qsizetype all = get(QStringLiteral("/api/v1/events"), viewer).json().array().size();
    EXPECT_GE(get(QStringLiteral("/api/v1/events?since=7d"), viewer).json().array().size(), all);

    // Values the CLI refuses are a 400 here.
    EXPECT_EQ(get(QStringLiteral("/api/v1/events?severity=major"), viewer).status, 400);
    EXPECT_EQ(get(QStringLiteral("/api/v1/events?system=netapp"), viewer).status, 400);
    EXPECT_EQ(get(QStringLiteral("/api/v1/events?since=yesterday"), viewer).status, 400);
}

TEST_F(WebEventsTest, RepeatedAlertFiringsComeGroupedAndPaged)
{
    startServer();
    const Login viewer = login(QStringLiteral("viewer"));
    // An alert firing every ten minutes for a day, the newest still active.
    const QDateTime now = clock.now();
    std::vector<core::Ptr<core::GridAlert>> firings;
    for (int i = 0; i < 144; ++i) {
        core::GridAlert a;
        a.source = QStringLiteral("datalake");
        a.startsAt = now.addSecs(-600LL * i - 60);
        a.id = QStringLiteral("fp-web@") + QString::number(a.startsAt.toMSecsSinceEpoch());
        a.name = QStringLiteral("Low installed node memory");
        a.severity = QStringLiteral("major");
        a.resolved = i > 0;
        a.endsAt = a.resolved ? a.startsAt.addSecs(240) : QDateTime();
        firings.push_back(std::make_shared<const core::GridAlert>(a));
    }
    core::GridPublish grid;
    grid.alerts = std::make_shared<const core::KeyedList<core::GridAlert>>(std::move(firings));
    engine->estate().publishGrid(QStringLiteral("datalake"), grid);

    const QJsonArray alerts = get(QStringLiteral("/api/v1/events?system=storagegrid"), viewer).json().array();
    ASSERT_EQ(alerts.size(), 1);
    const QJsonObject row = alerts.first().toObject();
    EXPECT_EQ(row.value(QLatin1String("count")).toInt(), 144);
    EXPECT_EQ(row.value(QLatin1String("state")).toString(), QStringLiteral("active"));
    EXPECT_EQ(row.value(QLatin1String("severity")).toString(), QStringLiteral("error"));
    EXPECT_EQ(row.value(QLatin1String("key")).toString(), QStringLiteral("alert:datalake:fp-web"));

    // The whole timeline: the active alert first, then pages that add up to it.
    QJsonArray all;
    QJsonArray paged;
    ASSERT_TRUE(waitFor([&] {
        all = get(QStringLiteral("/api/v1/events"), viewer).json().array();
        paged = QJsonArray();
        for (int offset = 0; offset < all.size() + 3; offset += 3) {
            for (const QJsonValue &v :
                 get(QStringLiteral("/api/v1/events?limit=3&offset=%1").arg(offset), viewer).json().array()) {
                paged.append(v);
            }
        }
        return paged == all; // a new EMS event in between shifts the pages: read again
    }));
    ASSERT_GE(all.size(), 2);
    EXPECT_EQ(all.first().toObject().value(QLatin1String("key")).toString(), QStringLiteral("alert:datalake:fp-web"));
    EXPECT_LT(all.size(), 144);
    EXPECT_EQ(get(QStringLiteral("/api/v1/events?limit=1&offset=%1").arg(all.size()), viewer).json().array().size(), 0);
}

TEST_F(WebEventsTest, AnActionFromTheConsoleIsAnOperationEntry)
{
    startServer();
    const Login op = login(QStringLiteral("operator"));
    const QJsonObject volume = get(QStringLiteral("/api/v1/volumes"), op).json().array().first().toObject();
    const QJsonObject body{{QStringLiteral("kind"), QStringLiteral("snapshot.create")},
                           {QStringLiteral("source"), QStringLiteral("ontap-ai")},
                           {QStringLiteral("volume_id"), volume.value(QLatin1String("id")).toString()},
                           {QStringLiteral("name"), QStringLiteral("triage-check")}};
    ASSERT_EQ(post(QStringLiteral("/api/v1/actions"), body, op).status, 202);
    QJsonArray ops;
    ASSERT_TRUE(waitFor([&] {
        ops = get(QStringLiteral("/api/v1/events?search=triage-check"), op).json().array();
        return ops.size() >= 2;
    }));
    for (const QJsonValue &v : ops) {
        const QJsonObject row = v.toObject();
        EXPECT_EQ(row.value(QLatin1String("category")).toString(), QStringLiteral("operation"));
        EXPECT_EQ(row.value(QLatin1String("user")).toString(), QStringLiteral("operator"));
        EXPECT_EQ(row.value(QLatin1String("object_kind")).toString(), QStringLiteral("volume"));
        EXPECT_EQ(row.value(QLatin1String("object_id")).toString(), volume.value(QLatin1String("id")).toString());
    }
    EXPECT_EQ(ops.first().toObject().value(QLatin1String("title")).toString(),
              QStringLiteral("Create snapshot succeeded"));
    // The live feed carries the resource too, keyed by entry id.
    const QString id = ops.first().toObject().value(QLatin1String("id")).toString();
    EXPECT_TRUE(waitFor([&] {
        for (const QJsonValue &v : server->feed().rows(QStringLiteral("events"))) {
            if (v.toObject().value(QLatin1String("key")).toString() == id) {
                return true;
            }
        }
        return false;
    }));
}

} // namespace
} // namespace strata::testsupport
