// strata-server's HTTP API and live feed against a real engine polling the ONTAP simulator:
// the rows `strata get` prints, health and metrics, actions audited with the web user's name,
// and live diffs with catch-up and reload.

#include "web/api.h"
#include "web/livefeed.h"
#include "webfixture.h"

#include "models/core/runtime/engine.h"
#include "models/core/services/capacityforecast.h"
#include "models/rows/computerows.h"
#include "models/rows/resources.h"
#include "tests/models/computefixture.h"
#include "tests/support/qt/sqlitetables.h"

#include <QElapsedTimer>
#include <QSet>

#include <iostream>

namespace strata::testsupport {
namespace {

using WebServerTest = WebFixture;

QJsonArray withoutKeys(QJsonArray rows)
{
    for (qsizetype i = 0; i < rows.size(); ++i) {
        QJsonObject o = rows.at(i).toObject();
        o.remove(QStringLiteral("key"));
        rows.replace(i, o);
    }
    return rows;
}

TEST_F(WebServerTest, ServesTheRowsTheCliPrintsWithAKeyPerRow)
{
    startServer();
    const Login viewer = login(QStringLiteral("viewer"));
    const Reply r = get(QStringLiteral("/api/v1/volumes"), viewer);
    ASSERT_EQ(r.status, 200) << r.body.toStdString();
    const QJsonArray rows = r.json().array();
    ASSERT_GT(rows.size(), 3);
    const auto expected = rows::resourceRows(*engine, QStringLiteral("volumes"), {}, clock.now());
    ASSERT_TRUE(expected.has_value());
    EXPECT_EQ(withoutKeys(rows), rows::toJson(*expected));
    for (const QJsonValue &v : rows) {
        const QJsonObject row = v.toObject();
        EXPECT_EQ(row.value(QLatin1String("key")).toString(),
                  QStringLiteral("ontap-ai/") + row.value(QLatin1String("id")).toString());
    }
    EXPECT_FALSE(r.header("X-Strata-Revision").isEmpty());

    // The CLI's filters are query parameters.
    const QString name = rows.first().toObject().value(QLatin1String("name")).toString();
    const Reply one = get(QStringLiteral("/api/v1/volumes?volume=") + name, viewer);
    ASSERT_EQ(one.status, 200);
    EXPECT_EQ(one.json().array().size(), 1);
    EXPECT_EQ(get(QStringLiteral("/api/v1/volumes?source=elsewhere"), viewer).json().array().size(), 0);

    EXPECT_EQ(get(QStringLiteral("/api/v1/no-such-thing"), viewer).status, 404);
    EXPECT_EQ(get(QStringLiteral("/api/v1/sources"), viewer).json().array().size(), 1);
    EXPECT_EQ(get(QStringLiteral("/api/v1/service-levels"), viewer).status, 200);
    const Reply schedules = get(QStringLiteral("/api/v1/schedules"), viewer);
    EXPECT_EQ(schedules.status, 200);
    EXPECT_TRUE(schedules.json().isArray());
}

TEST_F(WebServerTest, ServesTheFieldsOfAResourceInTheOrderOfItsRows)
{
    startServer();
    EXPECT_EQ(get(QStringLiteral("/api/v1/fields/volumes")).status, 401) << "the field list needs a session";
    const Login viewer = login(QStringLiteral("viewer"));
    const Reply r = get(QStringLiteral("/api/v1/fields/vol"), viewer);
    ASSERT_EQ(r.status, 200) << r.body.toStdString();
    EXPECT_EQ(r.json().object().value(QLatin1String("resource")).toString(), QStringLiteral("volumes"));
    const QJsonArray fields = r.json().object().value(QLatin1String("fields")).toArray();
    const QJsonObject row = get(QStringLiteral("/api/v1/volumes"), viewer).json().array().first().toObject();
    QStringList keys;
    for (const QJsonValue &f : fields) {
        keys.append(f.toObject().value(QLatin1String("key")).toString());
        EXPECT_FALSE(f.toObject().value(QLatin1String("title")).toString().isEmpty());
    }
    QStringList rowKeys = row.keys();
    rowKeys.removeAll(QStringLiteral("key"));
    EXPECT_EQ(QSet<QString>(keys.begin(), keys.end()), QSet<QString>(rowKeys.begin(), rowKeys.end()))
        << "one field per key of a row";
    EXPECT_EQ(keys.first(), QStringLiteral("name"));
    EXPECT_EQ(fields.at(keys.indexOf(QStringLiteral("used_bytes"))).toObject().value(QLatin1String("kind")).toString(),
              QStringLiteral("bytes"));
    EXPECT_EQ(get(QStringLiteral("/api/v1/fields/no-such-thing"), viewer).status, 404);
}

// The jobs' field list: every key of a jobs row, in the desktop's column order, with the
// web table's columns and the kinds their figures are written as.
TEST_F(WebServerTest, ServesTheFieldsOfTheJobs)
{
    state49().publish(engine->estate());
    startServer();
    EXPECT_EQ(get(QStringLiteral("/api/v1/fields/jobs")).status, 401) << "the field list needs a session";
    const Login viewer = login(QStringLiteral("viewer"));
    const Reply r = get(QStringLiteral("/api/v1/fields/jobs"), viewer);
    ASSERT_EQ(r.status, 200) << r.body.toStdString();
    EXPECT_EQ(r.json().object().value(QLatin1String("resource")).toString(), QStringLiteral("jobs"));
    const QJsonArray fields = r.json().object().value(QLatin1String("fields")).toArray();
    // The rows /api/v1/jobs serves for a configured cluster (this server has none configured).
    const QJsonArray jobs = rows::toJson(rows::jobRows(engine->estate(), {}, QDateTime::currentDateTimeUtc()));
    ASSERT_FALSE(jobs.isEmpty());
    const QJsonObject row = jobs.first().toObject();
    QStringList keys;
    QStringList columns;
    QHash<QString, QString> kinds;
    for (const QJsonValue &v : fields) {
        const QJsonObject f = v.toObject();
        keys.append(f.value(QLatin1String("key")).toString());
        kinds.insert(keys.last(), f.value(QLatin1String("kind")).toString());
        if (f.value(QLatin1String("column")).toBool()) {
            columns.append(keys.last());
        }
        EXPECT_FALSE(f.value(QLatin1String("title")).toString().isEmpty()) << keys.last().toStdString();
    }
    QStringList rowKeys = row.keys();
    rowKeys.removeAll(QStringLiteral("key"));
    EXPECT_EQ(QSet<QString>(keys.begin(), keys.end()), QSet<QString>(rowKeys.begin(), rowKeys.end()))
        << "one field per key of a row";
    EXPECT_EQ(columns.first(), QStringLiteral("name"));
    EXPECT_TRUE(columns.contains(QStringLiteral("gpus_requested")));
    EXPECT_FALSE(columns.contains(QStringLiteral("pending_reason"))) << "in the rows only";
    EXPECT_EQ(kinds.value(QStringLiteral("age_seconds")), QStringLiteral("duration"));
    EXPECT_EQ(kinds.value(QStringLiteral("gpus_requested")), QStringLiteral("gpus"));
    EXPECT_EQ(kinds.value(QStringLiteral("gpu_utilization")), QStringLiteral("percent"));
}

TEST_F(WebServerTest, HealthzMetricsAndTheConsolePageNeedNoLogin)
{
    startServer();
    const Reply health = get(QStringLiteral("/healthz"));
    EXPECT_EQ(health.status, 200);
    EXPECT_EQ(health.body.trimmed(), QByteArray("ok"));
    const Reply metrics = get(QStringLiteral("/metrics"));
    EXPECT_EQ(metrics.status, 200);
    EXPECT_TRUE(metrics.header("Content-Type").startsWith("text/plain"));
    EXPECT_TRUE(metrics.body.contains("strata_source_up")) << metrics.body.left(400).toStdString();
    const Reply page = get(QStringLiteral("/"));
    if (QFile::exists(QStringLiteral(":/www/index.html"))) {
        EXPECT_EQ(page.status, 200);
        EXPECT_TRUE(page.header("Content-Type").startsWith("text/html"));
    }
    EXPECT_EQ(page.header("Content-Security-Policy").left(18), QByteArray("default-src 'self'"));
    EXPECT_EQ(page.header("X-Content-Type-Options"), QByteArray("nosniff"));
    EXPECT_EQ(get(QStringLiteral("/static/../webserver.cpp")).status, 404);

    // A source that stops answering makes /healthz fail for probes.
    sim::ontap::FaultRule rule;
    rule.kind = sim::ontap::FaultRule::Kind::Status;
    rule.status = 401; // credentials rejected: the source is down, not just late
    simulator->addFaultRule(rule);
    engine->refresh();
    ASSERT_TRUE(waitFor(
        [&] {
            return get(QStringLiteral("/healthz")).status == 503;
        },
        30000));
}

TEST_F(WebServerTest, LivezAnswersAlwaysReadyzFollowsTheStoreNotTheSources)
{
    startServer();
    EXPECT_EQ(get(QStringLiteral("/livez")).status, 200);
    const Reply ready = get(QStringLiteral("/readyz"));
    EXPECT_EQ(ready.status, 200) << ready.body.toStdString();

    // A replica whose PostgreSQL does not answer leaves the load balancer, naming the store
    // but not its password; it stays alive.
    server.reset();
    engine.reset();
    history = std::make_unique<core::HistoryService>(std::make_unique<core::SqlHistoryStore>(
        QStringLiteral("postgresql://strata:Hidden-Pass-42@127.0.0.1:1/strata?connect_timeout=2"), clock));
    engine = std::make_unique<core::Engine>(
        core::Engine::Deps{clock, credentials, history.get(), QStringLiteral("strata-server")});
    startServer();
    const Reply down = get(QStringLiteral("/readyz"));
    EXPECT_EQ(down.status, 503);
    EXPECT_TRUE(down.body.startsWith("store: ")) << down.body.toStdString();
    EXPECT_TRUE(down.body.contains("postgresql://strata@127.0.0.1:1/strata")) << down.body.toStdString();
    EXPECT_FALSE(down.body.contains("Hidden-Pass")) << down.body.toStdString();
    EXPECT_EQ(get(QStringLiteral("/livez")).status, 200);
}

TEST_F(WebServerTest, ALiveDiffArrivesAfterTheSimulatorChangesAVolume)
{
    startServer();
    const Login viewer = login(QStringLiteral("viewer"));
    auto live = openLive(viewer, ownOrigin());
    ASSERT_TRUE(waitFor([&] {
        return !live->messages.isEmpty();
    }));
    const QJsonObject hello = live->messages.first();
    EXPECT_EQ(hello.value(QLatin1String("type")).toString(), QStringLiteral("hello"));
    const qint64 start = qint64(hello.value(QLatin1String("revision")).toDouble());

    const QJsonObject volume = get(QStringLiteral("/api/v1/volumes"), viewer).json().array().first().toObject();
    const QString key = volume.value(QLatin1String("key")).toString();
    const qint64 usedBefore = qint64(volume.value(QLatin1String("used_bytes")).toDouble());
    qint64 usedAfter = 0;
    ASSERT_EQ(simulator->changeVolumeUsed(volume.value(QLatin1String("svm")).toString(),
                                          volume.value(QLatin1String("name")).toString(),
                                          qint64(1) << 30,
                                          &usedAfter),
              sim::ontap::OntapSimulator::SpaceChange::Changed);
    ASSERT_NE(usedAfter, usedBefore);
    QElapsedTimer timer;
    timer.start();
    engine->refresh(QStringLiteral("ontap-ai"));
    QJsonObject diff;
    ASSERT_TRUE(waitFor([&] {
        for (const QJsonObject &m : std::as_const(live->messages)) {
            if (m.value(QLatin1String("resource")).toString() != QLatin1String("volumes")) {
                continue;
            }
            for (const QJsonValue &row : m.value(QLatin1String("upsert")).toArray()) {
                if (row.toObject().value(QLatin1String("key")).toString() == key
                    && qint64(row.toObject().value(QLatin1String("used_bytes")).toDouble()) == usedAfter) {
                    diff = m;
                    return true;
                }
            }
        }
        return false;
    }));
    std::cout << "[ measure  ] poll + diff delivered " << timer.elapsed() << " ms after the refresh\n";
    EXPECT_EQ(diff.value(QLatin1String("type")).toString(), QStringLiteral("diff"));
    EXPECT_GT(qint64(diff.value(QLatin1String("revision")).toDouble()), start);
    // Only what changed travels: not every volume.
    EXPECT_LT(diff.value(QLatin1String("upsert")).toArray().size(),
              get(QStringLiteral("/api/v1/volumes"), viewer).json().array().size());
}

// An operator sees the server's memory, its polls and the live feed's delay on /metrics: each
// poll of the source is one observation, and a diff a viewer receives is one delivery, its
// delay including the feed's coalescing.
TEST_F(WebServerTest, MetricsShowTheServersMemoryPollDurationsAndLiveDeliveryDelay)
{
    startServer();
    const auto sample = [&](const QByteArray &series) {
        const QByteArray body = get(QStringLiteral("/metrics")).body;
        const qsizetype at = body.indexOf(QByteArray("\n" + series + ' '));
        return at < 0
                   ? -1.0
                   : body.mid(at + series.size() + 2, body.indexOf('\n', at + 1) - at - series.size() - 2).toDouble();
    };
    const QByteArray polls = "strata_source_poll_duration_seconds_count{source=\"ontap-ai\",kind=\"ontap\"}";
    ASSERT_TRUE(waitFor([&] {
        return sample(polls) >= 1;
    }));
    EXPECT_GT(sample("process_resident_memory_bytes"), 10.0 * (1 << 20));
    EXPECT_GT(sample("process_cpu_seconds_total"), 0);
    EXPECT_EQ(sample("strata_web_live_delivery_delay_seconds_count"), 0) << "no viewer yet";

    const Login viewer = login(QStringLiteral("viewer"));
    auto live = openLive(viewer, ownOrigin());
    ASSERT_TRUE(waitFor([&] {
        return !live->messages.isEmpty();
    }));
    const double before = sample(polls);
    const QJsonObject volume = get(QStringLiteral("/api/v1/volumes"), viewer).json().array().first().toObject();
    qint64 usedAfter = 0;
    ASSERT_EQ(simulator->changeVolumeUsed(volume.value(QLatin1String("svm")).toString(),
                                          volume.value(QLatin1String("name")).toString(),
                                          qint64(1) << 30,
                                          &usedAfter),
              sim::ontap::OntapSimulator::SpaceChange::Changed);
    engine->refresh(QStringLiteral("ontap-ai"));
    ASSERT_TRUE(waitFor([&] {
        return sample(polls) > before && sample("strata_web_live_delivery_delay_seconds_count") >= 1;
    }));
    EXPECT_GT(sample("strata_web_live_delivery_delay_seconds_sum"), 0)
        << "the delay counts from the change, so the coalescing (if any) and the fan-out are in it";
    EXPECT_GT(sample("strata_source_poll_duration_seconds_sum{source=\"ontap-ai\",kind=\"ontap\"}"), 0);
}

// ONTAP polls volume performance only while someone watches it: a connected viewer is someone,
// so the Service levels page shows each ONTAP volume's throughput "Now" instead of "–".
TEST_F(WebServerTest, AConnectedViewerWatchesOntapPerformanceSoServiceLevelsHaveANow)
{
    startServer();
    const Login viewer = login(QStringLiteral("viewer"));
    const auto observedCount = [&] {
        int n = 0;
        for (const QJsonValue &row : get(QStringLiteral("/api/v1/service-levels"), viewer).json().array()) {
            n += row.toObject().value(QLatin1String("observed_mibps")).isDouble() ? 1 : 0;
        }
        return n;
    };
    ASSERT_FALSE(get(QStringLiteral("/api/v1/service-levels"), viewer).json().array().isEmpty());
    EXPECT_EQ(observedCount(), 0) << "nobody watches yet: no on-demand performance poll";

    auto live = openLive(viewer, ownOrigin());
    ASSERT_TRUE(waitFor([&] {
        return observedCount() > 0;
    })) << "a live viewer subscribes to performance";
    // The figure reaches the open page over the live feed (diffs are coalesced: it may follow).
    EXPECT_TRUE(waitFor([&] {
        for (const QJsonObject &m : std::as_const(live->messages)) {
            if (m.value(QLatin1String("resource")).toString() != QLatin1String("service-levels")) {
                continue;
            }
            for (const QJsonValue &row : m.value(QLatin1String("upsert")).toArray()) {
                if (row.toObject().value(QLatin1String("observed_mibps")).isDouble()) {
                    return true;
                }
            }
        }
        return false;
    }));
}

// Prometheus scraping /metrics is someone watching too: without a browser open, the scrapes keep
// ONTAP volume throughput on /metrics, which the throughput-cap alert compares with the cap.
TEST_F(WebServerTest, AMetricsScrapeWatchesOntapPerformanceSoThroughputIsExported)
{
    startServer();
    const auto throughputSeries = [&] {
        return get(QStringLiteral("/metrics")).body.count("\nstrata_volume_throughput_bytes_per_second{");
    };
    ASSERT_TRUE(waitFor([&] {
        return get(QStringLiteral("/metrics")).body.contains("\nstrata_volume_size_bytes{");
    })) << "the volumes are polled";
    EXPECT_TRUE(waitFor([&] {
        return throughputSeries() > 0;
    })) << "the scrapes subscribe to performance";
}

// The "full soonest" list of the Capacity forecast page: every container the engine forecasts,
// in its order, with the keys models/rows/forecastrows.h documents, keyed source/kind/id (an
// aggregate and a volume may share an id); a recomputation reaches an open page as a diff.
TEST_F(WebServerTest, ForecastsAnswerTheDocumentedRowsFullSoonestFirstAndFollowRecomputations)
{
    startServer();
    const Login viewer = login(QStringLiteral("viewer"));
    core::ForecastService &forecasts = engine->forecasts();
    ASSERT_TRUE(waitFor([&] {
        return forecasts.computedAt().isValid() && !forecasts.forecasts().empty();
    }));
    const Reply r = get(QStringLiteral("/api/v1/forecasts"), viewer);
    ASSERT_EQ(r.status, 200) << r.body.toStdString();
    const QJsonArray rows = r.json().array();
    ASSERT_EQ(std::size_t(rows.size()), forecasts.forecasts().size());
    const QStringList documented{QStringLiteral("source"),
                                 QStringLiteral("kind"),
                                 QStringLiteral("id"),
                                 QStringLiteral("name"),
                                 QStringLiteral("trend"),
                                 QStringLiteral("used_bytes"),
                                 QStringLiteral("capacity_bytes"),
                                 QStringLiteral("percent_used"),
                                 QStringLiteral("growth_bytes_per_day"),
                                 QStringLiteral("growth_low_bytes_per_day"),
                                 QStringLiteral("growth_high_bytes_per_day"),
                                 QStringLiteral("full_at"),
                                 QStringLiteral("full_earliest"),
                                 QStringLiteral("full_latest"),
                                 QStringLiteral("days_to_full"),
                                 QStringLiteral("full_in"),
                                 QStringLiteral("released_bytes"),
                                 QStringLiteral("samples"),
                                 QStringLiteral("history_from"),
                                 QStringLiteral("history_to"),
                                 QStringLiteral("key")};
    QSet<QString> kinds;
    QSet<QString> keys;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const QJsonObject row = rows.at(i).toObject();
        QStringList got = row.keys();
        got.sort();
        QStringList want = documented;
        want.sort();
        EXPECT_EQ(got, want);
        const core::ContainerForecast &f = forecasts.forecasts()[std::size_t(i)];
        EXPECT_EQ(row.value(QLatin1String("name")).toString(), f.container.name) << "row " << i;
        EXPECT_EQ(row.value(QLatin1String("kind")).toString(), core::containerKindName(f.container.kind));
        const QString key = row.value(QLatin1String("key")).toString();
        EXPECT_EQ(key,
                  row.value(QLatin1String("source")).toString() + QLatin1Char('/')
                      + row.value(QLatin1String("kind")).toString() + QLatin1Char('/')
                      + row.value(QLatin1String("id")).toString());
        EXPECT_FALSE(keys.contains(key)) << key.toStdString();
        keys.insert(key);
        kinds.insert(row.value(QLatin1String("kind")).toString());
        EXPECT_FALSE(row.value(QLatin1String("full_in")).toString().isEmpty());
        EXPECT_TRUE(row.value(QLatin1String("samples")).isDouble());
    }
    EXPECT_TRUE(kinds.contains(QStringLiteral("volume")) && kinds.contains(QStringLiteral("aggregate")))
        << QStringList(kinds.values()).join(QLatin1Char(',')).toStdString();

    // A volume grows on the cluster: the next recomputation sends its row to the open page.
    auto live = openLive(viewer, ownOrigin());
    ASSERT_TRUE(waitFor([&] {
        return !live->messages.isEmpty();
    }));
    QJsonObject volume;
    for (const QJsonValue &v : rows) {
        if (v.toObject().value(QLatin1String("kind")).toString() == QLatin1String("volume")) {
            volume = v.toObject();
            break;
        }
    }
    qint64 usedAfter = 0;
    const QStringList svmAndName = volume.value(QLatin1String("name")).toString().split(QLatin1Char('/'));
    ASSERT_EQ(svmAndName.size(), 2);
    ASSERT_EQ(simulator->changeVolumeUsed(svmAndName[0], svmAndName[1], qint64(1) << 30, &usedAfter),
              sim::ontap::OntapSimulator::SpaceChange::Changed);
    engine->refresh(QStringLiteral("ontap-ai"));
    const QString key = volume.value(QLatin1String("key")).toString();
    QElapsedTimer sinceRefresh;
    ASSERT_TRUE(waitFor([&] {
        // The volume's new sample may still be on its way into the history: ask again now and then.
        if (!sinceRefresh.isValid() || sinceRefresh.elapsed() > 500) {
            forecasts.refresh();
            sinceRefresh.start();
        }
        for (const QJsonObject &m : std::as_const(live->messages)) {
            if (m.value(QLatin1String("resource")).toString() != QLatin1String("forecasts")) {
                continue;
            }
            for (const QJsonValue &row : m.value(QLatin1String("upsert")).toArray()) {
                if (row.toObject().value(QLatin1String("key")).toString() == key
                    && qint64(row.toObject().value(QLatin1String("used_bytes")).toDouble()) == usedAfter) {
                    return true;
                }
            }
        }
        return false;
    })) << "no forecasts diff with "
        << key.toStdString() << " at " << usedAfter << " bytes";
}

TEST_F(WebServerTest, AViewerReconnectingWithSinceCatchesUpInOrder)
{
    web::WebServerOptions options;
    options.watchPerformanceWithViewers = false; // a quiet estate: only the diffs this test makes
    startServer(options);
    const Login viewer = login(QStringLiteral("viewer"));
    web::LiveFeed &feed = server->feed();
    // Features publish their own resources through the same feed.
    const qint64 before = feed.revision();
    const auto sentence = [](const QString &key) {
        return QJsonArray{QJsonObject{{QStringLiteral("key"), key}, {QStringLiteral("text"), QStringLiteral("hello")}}};
    };
    feed.append(QStringLiteral("sentences"), sentence(QStringLiteral("call-1/0")));
    ASSERT_TRUE(waitFor([&] {
        return feed.rows(QStringLiteral("sentences")).size() == 1;
    }));
    // The first diff is out (the flush ran), so the next append is a diff of its own.
    ASSERT_TRUE(waitFor([&] {
        return feed.revision() > before;
    }));
    feed.append(QStringLiteral("sentences"), sentence(QStringLiteral("call-1/1")));
    // rows() has the row once the worker applied it; the revision counts it once the owner
    // thread has numbered and sent the diff, a moment later.
    ASSERT_TRUE(waitFor([&] {
        return feed.rows(QStringLiteral("sentences")).size() == 2 && feed.revision() >= before + 2;
    }));
    const qint64 after = feed.revision();
    ASSERT_GE(after, before + 2);

    auto live = openLive(viewer, ownOrigin(), QStringLiteral("since=%1").arg(before));
    // Other resources may take revisions in between (the estate is live): read until the second
    // sentence has arrived, then check that every revision since `before` came once, in order.
    QStringList sentences;
    ASSERT_TRUE(waitFor([&] {
        sentences.clear();
        for (qsizetype i = 1; i < live->messages.size(); ++i) {
            const QJsonObject m = live->messages.at(i);
            if (m.value(QLatin1String("resource")).toString() == QLatin1String("sentences")) {
                for (const QJsonValue &row : m.value(QLatin1String("upsert")).toArray()) {
                    sentences << row.toObject().value(QLatin1String("key")).toString();
                }
            }
        }
        return live->messages.size() >= 1 + (after - before) && sentences.contains(QStringLiteral("call-1/1"));
    }));
    EXPECT_EQ(live->messages.at(0).value(QLatin1String("type")).toString(), QStringLiteral("hello"));
    qint64 expected = before;
    for (qsizetype i = 1; i < live->messages.size(); ++i) {
        if (live->messages.at(i).contains(QLatin1String("revision"))) {
            EXPECT_EQ(qint64(live->messages.at(i).value(QLatin1String("revision")).toDouble()), ++expected)
                << "in order, none missing";
        }
    }
    EXPECT_GE(expected, after);
    EXPECT_EQ(sentences, (QStringList{QStringLiteral("call-1/0"), QStringLiteral("call-1/1")}));

    // Up to date: hello only.
    auto current = openLive(viewer, ownOrigin(), QStringLiteral("since=%1").arg(feed.revision()));
    ASSERT_TRUE(waitFor([&] {
        return !current->messages.isEmpty();
    }));
    QTest::qWait(300); // bounded on purpose: checks that nothing follows the hello
    EXPECT_EQ(current->messages.size(), 1);
}

TEST_F(WebServerTest, AViewerTooFarBehindIsToldToReload)
{
    web::WebServerOptions options;
    options.liveCoalesceMs = 1;
    options.liveKeptDiffs = 2;
    options.watchPerformanceWithViewers = false; // a quiet estate: only the diffs this test makes
    startServer(options);
    const Login viewer = login(QStringLiteral("viewer"));
    web::LiveFeed &feed = server->feed();
    const qint64 before = feed.revision();
    for (int i = 0; i < 4; ++i) {
        feed.append(QStringLiteral("sentences"), QJsonArray{QJsonObject{{QStringLiteral("key"), QString::number(i)}}});
        ASSERT_TRUE(waitFor([&] {
            return feed.revision() >= before + i + 1;
        }));
    }
    QList<QByteArray> diffs;
    EXPECT_FALSE(feed.diffsSince(before, &diffs));
    EXPECT_TRUE(feed.diffsSince(feed.revision() - 2, &diffs));
    EXPECT_EQ(diffs.size(), 2);
    EXPECT_FALSE(feed.diffsSince(feed.revision() + 1, &diffs));

    for (const QString &since : {QString::number(before), QString::number(feed.revision() + 5), QStringLiteral("x")}) {
        auto live = openLive(viewer, ownOrigin(), QStringLiteral("since=") + since);
        ASSERT_TRUE(waitFor([&] {
            return live->messages.size() >= 2;
        })) << since.toStdString();
        EXPECT_EQ(live->messages.at(1).value(QLatin1String("type")).toString(), QStringLiteral("reload"));
        EXPECT_EQ(qint64(live->messages.at(1).value(QLatin1String("revision")).toDouble()), feed.revision());
    }

    // A revision this feed still keeps, but counted by another feed (another replica, an earlier
    // process): reload, not this feed's diffs after it. The same revision with this feed's id
    // catches up.
    const QString since = QString::number(feed.revision() - 1);
    auto other = openLive(viewer, ownOrigin(), QStringLiteral("since=%1&feed=0123456789abcdef").arg(since));
    ASSERT_TRUE(waitFor([&] {
        return other->messages.size() >= 2;
    }));
    EXPECT_EQ(other->messages.at(0).value(QLatin1String("feed")).toString(), feed.feedId());
    EXPECT_EQ(other->messages.at(1).value(QLatin1String("type")).toString(), QStringLiteral("reload"));
    auto same = openLive(viewer, ownOrigin(), QStringLiteral("since=%1&feed=%2").arg(since, feed.feedId()));
    ASSERT_TRUE(waitFor([&] {
        return same->messages.size() >= 2;
    }));
    EXPECT_EQ(same->messages.at(1).value(QLatin1String("type")).toString(), QStringLiteral("diff"));
}

TEST_F(WebServerTest, AnOperatorsActionRunsAndTheAuditLogNamesThem)
{
    startServer();
    const Login op = login(QStringLiteral("operator"));
    const QJsonObject volume = get(QStringLiteral("/api/v1/volumes"), op).json().array().first().toObject();
    const QJsonObject body{{QStringLiteral("kind"), QStringLiteral("snapshot.create")},
                           {QStringLiteral("source"), QStringLiteral("ontap-ai")},
                           {QStringLiteral("volume_id"), volume.value(QLatin1String("id")).toString()},
                           {QStringLiteral("name"), QStringLiteral("from-the-web")}};
    const Reply preview = post(QStringLiteral("/api/v1/actions/preview"), body, op);
    ASSERT_EQ(preview.status, 200) << preview.body.toStdString();
    EXPECT_FALSE(preview.json().object().value(QLatin1String("title")).toString().isEmpty());
    EXPECT_TRUE(preview.json().object().value(QLatin1String("blocked_reason")).toString().isEmpty());

    const Reply submitted = post(QStringLiteral("/api/v1/actions"), body, op);
    ASSERT_EQ(submitted.status, 202) << submitted.body.toStdString();
    const QString id = submitted.json().object().value(QLatin1String("id")).toString();
    ASSERT_FALSE(id.isEmpty());
    QJsonObject state;
    ASSERT_TRUE(waitFor([&] {
        state = get(QStringLiteral("/api/v1/actions/") + id, op).json().object();
        return state.value(QLatin1String("state")).toString() != QLatin1String("running");
    }));
    EXPECT_EQ(state.value(QLatin1String("state")).toString(), QStringLiteral("succeeded"))
        << state.value(QLatin1String("message")).toString().toStdString();
    EXPECT_EQ(state.value(QLatin1String("user")).toString(), QStringLiteral("operator"));
    EXPECT_TRUE(simulator->snapshotNames(volume.value(QLatin1String("id")).toString())
                    .contains(QStringLiteral("from-the-web")));

    QJsonArray audit;
    ASSERT_TRUE(waitFor([&] {
        audit = get(QStringLiteral("/api/v1/audit?limit=10"), op).json().array();
        return audit.size() >= 2;
    }));
    bool found = false;
    for (const QJsonValue &v : audit) {
        const QJsonObject e = v.toObject();
        EXPECT_EQ(e.value(QLatin1String("user")).toString(), QStringLiteral("operator"));
        found = found
                || (e.value(QLatin1String("action")).toString() == QLatin1String("snapshot.create")
                    && e.value(QLatin1String("outcome")).toString() == QLatin1String("succeeded"));
    }
    EXPECT_TRUE(found);

    // Kinds the console does not offer are refused.
    QJsonObject restore = body;
    restore.insert(QStringLiteral("kind"), QStringLiteral("snapshot.restore"));
    EXPECT_EQ(post(QStringLiteral("/api/v1/actions"), restore, op).status, 400);
    EXPECT_EQ(get(QStringLiteral("/api/v1/actions/no-such-id"), op).status, 404);
}

TEST_F(WebServerTest, HistoryRoutesAnswerFromTheHistoryStore)
{
    startServer();
    const Login viewer = login(QStringLiteral("viewer"));
    const Reply projects = get(QStringLiteral("/api/v1/history/projects?source=ontap-ai&range=3600"), viewer);
    ASSERT_EQ(projects.status, 200);
    EXPECT_TRUE(projects.json().isArray());
    const QString volumeId = firstVolumeId(viewer);
    QJsonObject volumes;
    ASSERT_TRUE(waitFor([&] {
        const Reply r =
            get(QStringLiteral("/api/v1/history/volumes?source=ontap-ai&range=86400&volume=") + volumeId, viewer);
        volumes = r.json().object();
        return r.status == 200 && !volumes.value(QLatin1String("usage")).toArray().isEmpty();
    }));
    EXPECT_GT(volumes.value(QLatin1String("usage"))
                  .toArray()
                  .first()
                  .toObject()
                  .value(QLatin1String("size_bytes"))
                  .toDouble(),
              0);
    EXPECT_EQ(get(QStringLiteral("/api/v1/history/volumes?source=ontap-ai"), viewer).status, 400);
}

TEST_F(WebServerTest, HistoryRoutesAnswerTheStoresErrorInsteadOfAnEmptyHistory)
{
    // A store on a file, so another connection can take its tables away.
    const QString path = dir.filePath(QStringLiteral("history.db"));
    useHistoryStore(path);
    startServer();
    const Login viewer = login(QStringLiteral("viewer"));
    const QString volumeId = firstVolumeId(viewer);
    const QString volumeHistory = QStringLiteral("/api/v1/history/volumes?source=ontap-ai&volume=") + volumeId;
    ASSERT_EQ(get(volumeHistory, viewer).status, 200);

    for (const auto &[table, away] : {std::pair{"volume_perf_sample", "volume_perf_sample_away"},
                                      std::pair{"project_sample", "project_sample_away"},
                                      std::pair{"audit_log", "audit_log_away"}}) {
        ASSERT_TRUE(testsupport::renameSqliteTable(path, table, away));
    }

    // Capacity still reads, throughput does not: the answer is the error, not half a history.
    const Reply volumes = get(volumeHistory, viewer);
    EXPECT_EQ(volumes.status, 500) << volumes.body.toStdString();
    EXPECT_TRUE(volumes.body.contains("volume_perf_sample")) << volumes.body.toStdString();
    const Reply projects = get(QStringLiteral("/api/v1/history/projects?source=ontap-ai"), viewer);
    EXPECT_EQ(projects.status, 500) << projects.body.toStdString();
    EXPECT_TRUE(projects.body.contains("project_sample")) << projects.body.toStdString();
    const Reply audit = get(QStringLiteral("/api/v1/audit"), login(QStringLiteral("admin")));
    EXPECT_EQ(audit.status, 500) << audit.body.toStdString();
    EXPECT_TRUE(audit.body.contains("audit_log")) << audit.body.toStdString();
}

TEST_F(WebServerTest, AdminsListUsersWithoutTheirHashes)
{
    startServer();
    const Reply r = get(QStringLiteral("/api/v1/users"), login(QStringLiteral("admin")));
    ASSERT_EQ(r.status, 200);
    const QJsonArray list = r.json().array();
    ASSERT_EQ(list.size(), 3);
    EXPECT_EQ(list.at(0).toObject().value(QLatin1String("name")).toString(), QStringLiteral("admin"));
    EXPECT_EQ(list.at(1).toObject().value(QLatin1String("role")).toString(), QStringLiteral("operator"));
    EXPECT_FALSE(r.body.contains("pbkdf2"));
    EXPECT_FALSE(r.body.contains("hash"));
    EXPECT_EQ(get(QStringLiteral("/api/v1/users"), login(QStringLiteral("operator"))).status, 403);
}

TEST_F(WebServerTest, AdminsAddReplaceAndRemoveUsersAndTheAuditLogNamesThem)
{
    startServer();
    const Login admin = login(QStringLiteral("admin"));
    const QJsonObject analyst{{QStringLiteral("name"), QStringLiteral("analyst")},
                              {QStringLiteral("password"), QStringLiteral("analyst-secret-1")},
                              {QStringLiteral("role"), QStringLiteral("operator")}};
    // Only admins, only with the CSRF token, only valid input.
    EXPECT_EQ(post(QStringLiteral("/api/v1/users"), analyst, login(QStringLiteral("operator"))).status, 403);
    EXPECT_EQ(post(QStringLiteral("/api/v1/users"), analyst, admin, false).status, 403);
    QJsonObject badRole = analyst;
    badRole.insert(QStringLiteral("role"), QStringLiteral("root"));
    EXPECT_EQ(post(QStringLiteral("/api/v1/users"), badRole, admin).status, 400);
    QJsonObject shortPassword = analyst;
    shortPassword.insert(QStringLiteral("password"), QStringLiteral("short"));
    EXPECT_EQ(post(QStringLiteral("/api/v1/users"), shortPassword, admin).status, 400);

    const Reply added = post(QStringLiteral("/api/v1/users"), analyst, admin);
    ASSERT_EQ(added.status, 201) << added.body.toStdString();
    EXPECT_FALSE(added.body.contains("secret"));
    const Reply first = loginReply(QStringLiteral("analyst"), QStringLiteral("analyst-secret-1"));
    ASSERT_EQ(first.status, 200);
    EXPECT_EQ(first.json().object().value(QLatin1String("role")).toString(), QStringLiteral("operator"));
    Login analystLogin;
    analystLogin.cookie = first.header("Set-Cookie").left(first.header("Set-Cookie").indexOf(';'));

    // Replacing the user (new role) ends their sessions.
    QJsonObject demoted = analyst;
    demoted.insert(QStringLiteral("role"), QStringLiteral("viewer"));
    ASSERT_EQ(post(QStringLiteral("/api/v1/users"), demoted, admin).status, 200);
    EXPECT_EQ(get(QStringLiteral("/api/v1/session"), analystLogin).status, 401);

    const QList<std::pair<QByteArray, QByteArray>> adminHeaders{{"Cookie", admin.cookie}, {"X-CSRF-Token", admin.csrf}};
    EXPECT_EQ(request("DELETE", QStringLiteral("/api/v1/users/analyst"), {}, {{"Cookie", admin.cookie}}).status, 403);
    EXPECT_EQ(request("DELETE", QStringLiteral("/api/v1/users/analyst"), {}, adminHeaders).status, 200);
    EXPECT_EQ(loginReply(QStringLiteral("analyst"), QStringLiteral("analyst-secret-1")).status, 401);
    EXPECT_EQ(request("DELETE", QStringLiteral("/api/v1/users/analyst"), {}, adminHeaders).status, 404);
    EXPECT_EQ(request("DELETE", QStringLiteral("/api/v1/users/admin"), {}, adminHeaders).status, 409);

    QJsonArray audit;
    ASSERT_TRUE(waitFor([&] {
        audit = get(QStringLiteral("/api/v1/audit?limit=20"), admin).json().array();
        return audit.size() >= 3;
    }));
    QStringList kinds;
    for (const QJsonValue &v : audit) {
        const QJsonObject e = v.toObject();
        if (e.value(QLatin1String("target")).toString() == QLatin1String("analyst")) {
            EXPECT_EQ(e.value(QLatin1String("user")).toString(), QStringLiteral("admin"));
            kinds << e.value(QLatin1String("action")).toString();
        }
    }
    kinds.sort();
    EXPECT_EQ(kinds,
              (QStringList{QStringLiteral("user.add"), QStringLiteral("user.remove"), QStringLiteral("user.replace")}));
    EXPECT_FALSE(get(QStringLiteral("/api/v1/audit?limit=20"), admin).body.contains("analyst-secret"));
}

TEST_F(WebServerTest, FeaturesAddTheirOwnRoutes)
{
    startServer();
    server->addGetRoute(
        QStringLiteral("sentiment/agents"), web::Role::Viewer, [](const QHttpServerRequest &, const web::Session &s) {
            return QJsonValue(QJsonArray{s.user});
        });
    server->addGetRoute(
        QStringLiteral("secrets"), web::Role::Admin, [](const QHttpServerRequest &, const web::Session &) {
            return QJsonValue(QJsonObject{});
        });
    const Login viewer = login(QStringLiteral("viewer"));
    const Reply r = get(QStringLiteral("/api/v1/sentiment/agents"), viewer);
    ASSERT_EQ(r.status, 200);
    EXPECT_EQ(r.json().array().first().toString(), QStringLiteral("viewer"));
    EXPECT_EQ(get(QStringLiteral("/api/v1/sentiment/agents")).status, 401);
    EXPECT_EQ(get(QStringLiteral("/api/v1/secrets"), viewer).status, 403);
}

// The feed throttles rather than delays: a change after a quiet spell goes out at once, and a
// change right after a flush waits out the rest of the window (one flush per window at most).
TEST(LiveFeedTest, ALoneChangeGoesOutAtOnceAndABurstWaitsForTheWindow)
{
    core::SystemClock clock;
    core::InMemoryCredentialStore credentials;
    core::Engine engine({clock, credentials, nullptr, QStringLiteral("test")});
    constexpr int kWindowMs = 4000;
    web::LiveFeed feed(engine, kWindowMs, 16);
    int value = 1;
    feed.addResource(QStringLiteral("things"), [&] {
        return QJsonArray{QJsonObject{{QStringLiteral("key"), QStringLiteral("a")}, {QStringLiteral("v"), value}}};
    });
    int sent = 0;
    QObject::connect(&feed, &web::LiveFeed::diffReady, [&](qint64, const QByteArray &) {
        ++sent;
    });
    QElapsedTimer quiet;
    quiet.start();
    value = 2;
    feed.markDirty(QStringLiteral("things"));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return sent == 1;
        },
        kWindowMs / 2))
        << "a lone change waited for the coalescing window";
    value = 3;
    feed.markDirty(QStringLiteral("things"));
    QTest::qWait(kWindowMs / 4); // bounded on purpose: within the window nothing more goes out
    EXPECT_EQ(sent, 1);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return sent == 2;
        },
        kWindowMs * 2));
    EXPECT_GE(quiet.elapsed(), kWindowMs * 9 / 10) << "the second flush came before the window ended";
}

TEST(LiveFeedTest, KeyedDiffsCarryOnlyChangedAndRemovedRows)
{
    core::SystemClock clock;
    core::InMemoryCredentialStore credentials;
    core::Engine engine({clock, credentials, nullptr, QStringLiteral("test")});
    web::LiveFeed feed(engine, 1, 16);
    QJsonArray rows{QJsonObject{{QStringLiteral("key"), QStringLiteral("a")}, {QStringLiteral("v"), 1}},
                    QJsonObject{{QStringLiteral("key"), QStringLiteral("b")}, {QStringLiteral("v"), 2}}};
    feed.addResource(QStringLiteral("things"), [&] {
        return rows;
    });
    EXPECT_EQ(feed.revision(), 0); // the first read is the baseline, not a diff
    QList<QByteArray> sent;
    QObject::connect(&feed, &web::LiveFeed::diffReady, [&](qint64, const QByteArray &m) {
        sent << m;
    });
    feed.markDirty(QStringLiteral("things")); // nothing changed: no diff
    QTest::qWait(30);                         // bounded on purpose: checks that no diff comes
    EXPECT_TRUE(sent.isEmpty());
    rows = QJsonArray{QJsonObject{{QStringLiteral("key"), QStringLiteral("a")}, {QStringLiteral("v"), 5}},
                      QJsonObject{{QStringLiteral("key"), QStringLiteral("c")}, {QStringLiteral("v"), 3}}};
    feed.markDirty(QStringLiteral("things"));
    feed.markDirty(QStringLiteral("things")); // coalesced
    ASSERT_TRUE(QTest::qWaitFor([&] {
        return !sent.isEmpty();
    }));
    QTest::qWait(30); // bounded on purpose: checks that no second diff follows
    ASSERT_EQ(sent.size(), 1);
    const QJsonObject diff = QJsonDocument::fromJson(sent.first()).object();
    EXPECT_EQ(diff.value(QLatin1String("revision")).toInt(), 1);
    EXPECT_EQ(diff.value(QLatin1String("resource")).toString(), QStringLiteral("things"));
    EXPECT_EQ(diff.value(QLatin1String("upsert")).toArray().size(), 2); // a changed, c new
    EXPECT_EQ(diff.value(QLatin1String("remove")).toArray(), QJsonArray{QStringLiteral("b")});
    EXPECT_EQ(feed.rows(QStringLiteral("things")), rows);
}

TEST(LiveFeedTest, AppendOnlyRowsKeepTheNewestTwentyThousand)
{
    core::SystemClock clock;
    core::InMemoryCredentialStore credentials;
    core::Engine engine({clock, credentials, nullptr, QStringLiteral("test")});
    web::LiveFeed feed(engine, 1, 16);
    int upserts = 0;
    QObject::connect(&feed, &web::LiveFeed::diffReady, [&](qint64, const QByteArray &m) {
        upserts += int(QJsonDocument::fromJson(m).object().value(QLatin1String("upsert")).toArray().size());
    });
    QJsonArray batch;
    for (int i = 0; i < 20010; ++i) {
        batch.append(QJsonObject{{QStringLiteral("key"), QString::number(i)}});
    }
    feed.append(QStringLiteral("sentences"), batch);
    ASSERT_TRUE(QTest::qWaitFor([&] {
        return upserts == 20010; // viewers get every row
    }));
    const QJsonArray kept = feed.rows(QStringLiteral("sentences"));
    ASSERT_EQ(kept.size(), 20000);
    EXPECT_EQ(kept.first().toObject().value(QLatin1String("key")).toString(), QStringLiteral("10"));
    EXPECT_EQ(kept.last().toObject().value(QLatin1String("key")).toString(), QStringLiteral("20009"));
}

TEST(ApiTest, RowKeysAndActionRequests)
{
    EXPECT_EQ(web::rowKey(QStringLiteral("jobs"),
                          QJsonObject{{QStringLiteral("source"), QStringLiteral("dgx")},
                                      {QStringLiteral("namespace"), QStringLiteral("runai-a")},
                                      {QStringLiteral("name"), QStringLiteral("train")}}),
              QStringLiteral("dgx/runai-a/train"));
    EXPECT_EQ(web::rowKey(QStringLiteral("sources"), QJsonObject{{QStringLiteral("name"), QStringLiteral("ontap-ai")}}),
              QStringLiteral("ontap-ai"));
    const auto r =
        web::actionRequestFromJson(QJsonObject{{QStringLiteral("kind"), QStringLiteral("cache.load")},
                                               {QStringLiteral("source"), QStringLiteral("dgx")},
                                               {QStringLiteral("dataset_source"), QStringLiteral("datalake")},
                                               {QStringLiteral("dataset_id"), QStringLiteral("ds")},
                                               {QStringLiteral("commit_id"), QStringLiteral("c1")},
                                               {QStringLiteral("cache_target"), QStringLiteral("t1")}});
    ASSERT_TRUE(r) << r.error().message.toStdString();
    EXPECT_EQ(r->kind, core::ActionKind::CacheCommit);
    EXPECT_EQ(r->cacheTarget, QStringLiteral("t1"));
    const auto notFromWeb = web::actionRequestFromJson(QJsonObject{
        {QStringLiteral("kind"), QStringLiteral("job.submit")}, {QStringLiteral("source"), QStringLiteral("dgx")}});
    ASSERT_FALSE(notFromWeb);
    EXPECT_EQ(notFromWeb.error().message,
              QStringLiteral("action \"job.submit\" is not available from the web console"));
    const auto noSource =
        web::actionRequestFromJson(QJsonObject{{QStringLiteral("kind"), QStringLiteral("cache.evict")}});
    ASSERT_FALSE(noSource);
    EXPECT_EQ(noSource.error().kind, core::Error::Kind::Invalid);

    // A quota change (the what-if's "Apply quota") carries GPUs with decimals; without one it is refused.
    const auto quota = web::actionRequestFromJson(QJsonObject{{QStringLiteral("kind"), QStringLiteral("project.quota")},
                                                              {QStringLiteral("source"), QStringLiteral("dgx")},
                                                              {QStringLiteral("project"), QStringLiteral("team-b")},
                                                              {QStringLiteral("quota"), 2.5}});
    ASSERT_TRUE(quota) << quota.error().message.toStdString();
    EXPECT_EQ(quota->kind, core::ActionKind::ProjectQuotaEdit);
    EXPECT_EQ(quota->project, QStringLiteral("team-b"));
    EXPECT_EQ(quota->quota, 2500);
    for (const QJsonValue &bad :
         {QJsonValue(), QJsonValue(-1), QJsonValue(QStringLiteral("")), QJsonValue(QStringLiteral("x"))}) {
        QJsonObject body{{QStringLiteral("kind"), QStringLiteral("project.quota")},
                         {QStringLiteral("source"), QStringLiteral("dgx")},
                         {QStringLiteral("project"), QStringLiteral("team-b")}};
        if (!bad.isNull()) {
            body.insert(QStringLiteral("quota"), bad);
        }
        const auto refused = web::actionRequestFromJson(body);
        ASSERT_FALSE(refused) << QJsonDocument(body).toJson().toStdString();
        EXPECT_EQ(refused.error().field, QStringLiteral("quota"));
    }

    rows::ResultSet sources;
    sources.columns = {{QStringLiteral("name"), QString()}, {QStringLiteral("url"), QString()}};
    sources.addRow({QStringLiteral("s"), QStringLiteral("https://admin:hunter22@ontap.example:443/api")});
    const QJsonArray rows = web::keyedRows(QStringLiteral("sources"), sources);
    EXPECT_EQ(rows.first().toObject().value(QLatin1String("url")).toString(),
              QStringLiteral("https://ontap.example:443/api"));
}

// The quota what-if route: a prediction for a viewer, and a clear refusal for every malformed body.
TEST_F(WebServerTest, QuotaWhatIfPredictsAndRefusesMalformedBodies)
{
    state49().publish(engine->estate());
    startServer();
    const Login viewer = login(QStringLiteral("viewer"));
    const QString path = QStringLiteral("/api/v1/what-if/quota");
    const QJsonObject equal{{QStringLiteral("team-a"), 4},
                            {QStringLiteral("team-b"), 4},
                            {QStringLiteral("team-c"), 4},
                            {QStringLiteral("team-d"), 4}};
    const Reply ok =
        post(path, QJsonObject{{QStringLiteral("source"), kCluster}, {QStringLiteral("quotas"), equal}}, viewer);
    ASSERT_EQ(ok.status, 200) << ok.body.toStdString();
    const QJsonObject whatIf = ok.json().object();
    EXPECT_EQ(whatIf.value(QLatin1String("cluster")).toString(), kCluster);
    EXPECT_EQ(whatIf.value(QLatin1String("quota_total_after")).toDouble(), 16.0);
    int preempted = 0;
    for (const QJsonValue &job : whatIf.value(QLatin1String("jobs")).toArray()) {
        preempted += job.toObject().value(QLatin1String("outcome")).toString() == QLatin1String("preempted") ? 1 : 0;
    }
    EXPECT_EQ(preempted, 1) << "team-c reclaims its paused job from team-d";

    // Malformed, truncated, wrong types, unknown names, no CSRF token.
    const auto postRaw = [&](const QByteArray &body) {
        return request("POST", path, body, {{"Cookie", viewer.cookie}, {"X-CSRF-Token", viewer.csrf}});
    };
    EXPECT_EQ(postRaw(QByteArrayLiteral("{\"source\": \"k8s")).status, 400);
    EXPECT_EQ(postRaw(QByteArrayLiteral("[1, 2]")).status, 400);
    EXPECT_EQ(post(path, QJsonObject{{QStringLiteral("source"), QStringLiteral("nope")}}, viewer).status, 404);
    for (const QJsonValue &bad : {QJsonValue(QStringLiteral("4")), QJsonValue(-1), QJsonValue(1e300)}) {
        const Reply refused =
            post(path,
                 QJsonObject{{QStringLiteral("source"), kCluster},
                             {QStringLiteral("quotas"), QJsonObject{{QStringLiteral("team-a"), bad}}}},
                 viewer);
        EXPECT_EQ(refused.status, 400) << refused.body.toStdString();
        EXPECT_TRUE(refused.json().object().value(QLatin1String("error")).toString().contains(QLatin1String(">= 0")))
            << refused.body.toStdString();
    }
    const Reply unknown = post(path,
                               QJsonObject{{QStringLiteral("source"), kCluster},
                                           {QStringLiteral("quotas"), QJsonObject{{QStringLiteral("team-z"), 1}}}},
                               viewer);
    EXPECT_EQ(unknown.status, 400);
    EXPECT_TRUE(unknown.body.contains("has no project team-z")) << unknown.body.toStdString();
    EXPECT_EQ(post(path, QJsonObject{{QStringLiteral("source"), kCluster}}, viewer, false).status, 403);
}

// The chargeback route: this month's lines for a viewer (the ONTAP volumes, which no project
// uses, on the unattributed line), and a 400 that says why for a malformed or future month.
TEST_F(WebServerTest, ChargebackAnswersTheMonthAndRefusesMalformedMonths)
{
    state49().publish(engine->estate());
    startServer();
    const Login viewer = login(QStringLiteral("viewer"));
    QJsonObject cb;
    ASSERT_TRUE(waitFor([&] {
        const Reply r = get(QStringLiteral("/api/v1/chargeback"), viewer);
        cb = r.json().object();
        const QJsonArray lines = cb.value(QLatin1String("lines")).toArray();
        return r.status == 200 && !lines.isEmpty()
               && !lines.last().toObject().value(QLatin1String("volume_list")).toArray().isEmpty();
    }));
    EXPECT_EQ(cb.value(QLatin1String("period")).toObject().value(QLatin1String("label")).toString(),
              QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM")));
    const QJsonArray lines = cb.value(QLatin1String("lines")).toArray();
    EXPECT_EQ(lines.last().toObject().value(QLatin1String("line")).toString(), QStringLiteral("unattributed"));
    bool teamA = false;
    for (const QJsonValue &l : lines) {
        teamA |= l.toObject().value(QLatin1String("project")).toString() == QLatin1String("team-a");
    }
    EXPECT_TRUE(teamA) << "every project of the cluster has a line";
    EXPECT_TRUE(cb.value(QLatin1String("total")).toObject().contains(QLatin1String("gpu_hours_allocated")));

    for (const char *bad : {"2026-13", "11-2026", "2026-1", "", "9999-01"}) {
        const Reply refused = get(QStringLiteral("/api/v1/chargeback?month=") + QLatin1String(bad), viewer);
        EXPECT_EQ(refused.status, 400) << bad << ": " << refused.body.toStdString();
        const QString error = refused.json().object().value(QLatin1String("error")).toString();
        EXPECT_TRUE(error.contains(QLatin1String("YYYY-MM")) || error.contains(QLatin1String("not started")))
            << error.toStdString();
    }
    EXPECT_EQ(get(QStringLiteral("/api/v1/chargeback?month=2026-11"), Login{}).status, 401);
}

// The console's CSV download is the CLI's CSV (one writer), served as an attachment; the JSON
// names GPU and storage coverage apart with the words every front end shows.
TEST_F(WebServerTest, ChargebackCsvDownloadIsTheCliCsvAndCoverageIsSplit)
{
    state49().publish(engine->estate());
    startServer();
    const Login viewer = login(QStringLiteral("viewer"));
    const QString month = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM"));
    Reply csv;
    ASSERT_TRUE(waitFor([&] {
        csv = get(QStringLiteral("/api/v1/chargeback?format=csv&month=") + month, viewer);
        return csv.status == 200 && csv.body.count('\n') >= 2;
    })) << csv.status
        << " " << csv.body.toStdString();
    EXPECT_TRUE(csv.header("Content-Type").startsWith("text/csv")) << csv.header("Content-Type").toStdString();
    EXPECT_EQ(csv.header("Content-Disposition"),
              QByteArray("attachment; filename=\"strata-chargeback-") + month.toLatin1() + ".csv\"");
    const QList<QByteArray> csvLines = csv.body.split('\n');
    const QList<QByteArray> header = csvLines.first().split(',');
    EXPECT_TRUE(header.contains("gpu_missing_hours") && header.contains("storage_missing_hours"))
        << csvLines.first().toStdString();
    EXPECT_FALSE(header.contains("total"));

    const QJsonObject cb = get(QStringLiteral("/api/v1/chargeback?month=") + month, viewer).json().object();
    QStringList labels;
    for (const QJsonValue &c : cb.value(QLatin1String("columns")).toArray()) {
        labels << c.toObject().value(QLatin1String("label")).toString();
    }
    EXPECT_TRUE(labels.contains(QStringLiteral("GPU missing h"))
                && labels.contains(QStringLiteral("Storage missing h")))
        << labels.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(cb.value(QLatin1String("coverage")).toString().contains(QLatin1String("GPU")))
        << cb.value(QLatin1String("coverage")).toString().toStdString();
    EXPECT_EQ(get(QStringLiteral("/api/v1/chargeback?format=xml"), viewer).status, 400);
    EXPECT_EQ(get(QStringLiteral("/api/v1/chargeback?format=csv"), Login{}).status, 401);
}

} // namespace
} // namespace strata::testsupport
