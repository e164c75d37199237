// /api/v1/sentiment/* over HTTP against a SentimentService reading the StorageGRID simulator's
// bucket `sentiment` (the demo's support-center stream, shortened): the JSON shapes of
// web/sentimentroutes.h, the viewer role, parameter errors, and a live call's new sentence
// reaching the LiveFeed as a "sentences" diff keyed "<call>/<index>".

#include "web/livefeed.h"
#include "web/sentimentroutes.h"

#include "models/core/runtime/sentimentservice.h"
#include "simulators/sentiment/sentimentstream.h"
#include "simulators/storagegrid/storagegridsimulator.h"
#include "tests/web/webfixture.h"

#include <QElapsedTimer>
#include <QSignalSpy>

using namespace strata;

namespace {

class SentimentRoutesTest : public testsupport::WebFixture
{
protected:
    sim::ServerThread gridThread;
    sim::storagegrid::StorageGridSimulator *grid = nullptr;
    std::unique_ptr<core::SentimentService> service;
    int historySentences = 0;

    void SetUp() override
    {
        WebFixture::SetUp();
        QString error;
        grid = sim::storagegrid::StorageGridSimulator::startOnThread(gridThread, {}, &error);
        ASSERT_NE(grid, nullptr) << error.toStdString();
        const QString ca = dir.filePath(QStringLiteral("grid-ca.pem"));
        QFile f(ca);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(grid->caPem());
        f.close();
        sim::sentiment::StreamOptions options;
        options.historicalCalls = 40;
        sim::sentiment::SentimentStream stream(grid->store(), options);
        historySentences = stream.writeHistory();

        core::SourceConfig lake;
        lake.name = QStringLiteral("datalake");
        lake.kind = core::SourceKind::StorageGrid;
        lake.url = grid->managementUrl();
        lake.username = QStringLiteral("root");
        lake.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(lake.name)};
        lake.caFile = ca;
        lake.s3Url = grid->s3Url();
        lake.s3AccessKey = grid->options().s3AccessKey;
        lake.s3Secret = core::SecretRef{core::SecretRef::Kind::Keychain,
                                        core::credentialKey(lake.name, QStringLiteral("s3_secret"))};
        lake.configIntervalSeconds = 3600;
        lake.perfIntervalSeconds = 3600;
        credentials.set(lake.password.value, grid->options().rootPassword);
        credentials.set(lake.s3Secret.value, grid->options().s3SecretKey);
        credentials.set(QStringLiteral("strata/datalake/sentiment"), grid->options().s3SecretKey2);
        engine->setSources({sourceConfig(), lake});

        core::SentimentConfig config;
        config.source = lake.name;
        config.s3AccessKey = grid->options().s3AccessKey2;
        config.s3Secret = core::SecretRef{core::SecretRef::Kind::Keychain, QStringLiteral("strata/datalake/sentiment")};
        service = std::make_unique<core::SentimentService>(*engine, config);
        startServer();
        web::registerSentimentRoutes(*server, *service);
        service->start();
        ASSERT_TRUE(waitFor([&] {
            return service->status().sentences == historySentences;
        })) << service->status().error.toStdString();
    }

    void TearDown() override
    {
        service.reset();
        WebFixture::TearDown();
    }

    QJsonDocument getJson(const QString &path, const Login &login)
    {
        const Reply r = get(path, login);
        EXPECT_EQ(r.status, 200) << path.toStdString() << ": " << r.body.toStdString();
        return r.json();
    }
};

} // namespace

TEST_F(SentimentRoutesTest, ViewersReadTheDashboardsJson)
{
    const Login viewer = login(QStringLiteral("viewer"));
    EXPECT_EQ(get(QStringLiteral("/api/v1/sentiment/summary")).status, 401);

    const QJsonObject summary = getJson(QStringLiteral("/api/v1/sentiment/summary?range=31536000"), viewer).object();
    EXPECT_EQ(summary.value(QLatin1String("calls")).toInt(), 40);
    EXPECT_EQ(summary.value(QLatin1String("sentences")).toInt(), historySentences);
    const QJsonObject counts = summary.value(QLatin1String("counts")).toObject();
    EXPECT_EQ(counts.value(QLatin1String("positive")).toInt() + counts.value(QLatin1String("neutral")).toInt()
                  + counts.value(QLatin1String("negative")).toInt(),
              historySentences);
    const QJsonObject status = summary.value(QLatin1String("status")).toObject();
    EXPECT_EQ(status.value(QLatin1String("state")).toString(), QStringLiteral("ok"));
    EXPECT_EQ(status.value(QLatin1String("bucket")).toString(), QStringLiteral("sentiment"));
    EXPECT_FALSE(QJsonDocument(summary).toJson().contains(grid->options().s3SecretKey2.toUtf8()));

    const QJsonArray calls = getJson(QStringLiteral("/api/v1/sentiment/calls?limit=5"), viewer).array();
    ASSERT_EQ(calls.size(), 5);
    const QJsonObject first = calls.first().toObject();
    for (const char *key : {"key",
                            "call",
                            "agent",
                            "team",
                            "call_start",
                            "duration",
                            "sentences",
                            "counts",
                            "mean",
                            "customer_mean",
                            "agent_mean",
                            "last_label",
                            "live",
                            "ground_truth_sentences",
                            "model"}) {
        EXPECT_TRUE(first.contains(QLatin1String(key))) << key;
    }
    EXPECT_GE(first.value(QLatin1String("call_start")).toString(),
              calls.last().toObject().value(QLatin1String("call_start")).toString());

    const QString id = first.value(QLatin1String("call")).toString();
    const QJsonObject call = getJson(QStringLiteral("/api/v1/sentiment/call?id=") + id, viewer).object();
    const QJsonArray sentences = call.value(QLatin1String("sentences")).toArray();
    ASSERT_EQ(sentences.size(), first.value(QLatin1String("sentences")).toInt());
    for (int i = 0; i < sentences.size(); ++i) {
        const QJsonObject s = sentences.at(i).toObject();
        EXPECT_EQ(s.value(QLatin1String("key")).toString(), id + QLatin1Char('/') + QString::number(i));
        EXPECT_EQ(s.value(QLatin1String("index")).toInt(), i);
        EXPECT_TRUE(s.contains(QLatin1String("running")));
        EXPECT_TRUE(s.contains(QLatin1String("ground_truth")));
        EXPECT_EQ(s.value(QLatin1String("model")).toString(), QStringLiteral("riva-sentiment-bert-base"));
    }
    const Reply missing = get(QStringLiteral("/api/v1/sentiment/call?id=nope"), viewer);
    EXPECT_EQ(missing.status, 404);
    EXPECT_TRUE(missing.json().object().value(QLatin1String("error")).toString().contains(QStringLiteral("nope")));

    // The agent table and the Calls KPI count the same calls for the same range.
    const auto agentCallsIn = [&](const QString &query) {
        int calls = 0;
        for (const QJsonValue &a : getJson(QStringLiteral("/api/v1/sentiment/agents") + query, viewer).array()) {
            calls += a.toObject().value(QLatin1String("calls")).toInt();
            EXPECT_FALSE(a.toObject().value(QLatin1String("trend")).toArray().isEmpty());
        }
        return calls;
    };
    EXPECT_EQ(agentCallsIn(QStringLiteral("?range=2678400")), 40);
    EXPECT_EQ(
        agentCallsIn(QString()),
        getJson(QStringLiteral("/api/v1/sentiment/summary"), viewer).object().value(QLatin1String("calls")).toInt())
        << "both default to the last 24 h";
    EXPECT_EQ(get(QStringLiteral("/api/v1/sentiment/agents?range=5"), viewer).status, 400);

    const QJsonObject teams =
        getJson(QStringLiteral("/api/v1/sentiment/teams?range=2678400&bucket=86400"), viewer).object();
    EXPECT_EQ(teams.value(QLatin1String("bucket")).toInt(), 86400);
    qint64 inBuckets = 0;
    for (const QJsonValue &t : teams.value(QLatin1String("teams")).toArray()) {
        const QJsonArray buckets = t.toObject().value(QLatin1String("buckets")).toArray();
        EXPECT_EQ(buckets.size(), 32); // 31 days, aligned to midnight: 32 buckets
        for (const QJsonValue &b : buckets) {
            const QJsonObject o = b.toObject();
            inBuckets += o.value(QLatin1String("positive")).toInt() + o.value(QLatin1String("neutral")).toInt()
                         + o.value(QLatin1String("negative")).toInt();
        }
    }
    EXPECT_EQ(inBuckets, historySentences);
    const Reply badRange = get(QStringLiteral("/api/v1/sentiment/teams?range=5"), viewer);
    EXPECT_EQ(badRange.status, 400);
    EXPECT_TRUE(badRange.json().object().contains(QLatin1String("error")));

    const QJsonObject metrics = getJson(QStringLiteral("/api/v1/sentiment/metrics"), viewer).object();
    const core::SentimentMetrics m = service->metrics();
    EXPECT_EQ(metrics.value(QLatin1String("labeled_sentences")).toInteger(), m.labeledSentences);
    EXPECT_GT(m.labeledSentences, 0);
    EXPECT_DOUBLE_EQ(metrics.value(QLatin1String("labels"))
                         .toObject()
                         .value(QLatin1String("positive"))
                         .toObject()
                         .value(QLatin1String("f1"))
                         .toDouble(),
                     m.labels[2].f1);
    EXPECT_DOUBLE_EQ(metrics.value(QLatin1String("mean_sentiment_difference")).toDouble(), m.meanSentimentDifference);
    EXPECT_EQ(metrics.value(QLatin1String("confusion")).toObject().value(QLatin1String("matrix")).toArray().size(), 3);
}

TEST_F(SentimentRoutesTest, ALiveSentenceReachesTheFeed)
{
    QSignalSpy diffs(&server->feed(), &web::LiveFeed::diffReady);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    sim::sentiment::StreamOptions options;
    auto call = sim::sentiment::generateCall(7, 9001, now - now % 1000 - 5000, true, options, true);
    call[0].end = 5;
    call[0].start = 4;
    QElapsedTimer timer;
    timer.start();
    grid->store().putObject("sentiment",
                            sim::sentiment::streamKey("calls/", call[0].callStartMs, call[0].call, 0),
                            sim::sentiment::jsonLine(call[0], options.model) + "\n");
    QJsonObject found;
    ASSERT_TRUE(waitFor(
        [&] {
            for (const QList<QVariant> &args : std::as_const(diffs)) {
                const QJsonObject diff = QJsonDocument::fromJson(args.at(1).toByteArray()).object();
                if (diff.value(QLatin1String("resource")).toString() == QLatin1String("sentences")) {
                    found = diff;
                    return true;
                }
            }
            return false;
        },
        30000));
    // Reported, not asserted: speed is the benchmarks' to check (a loaded CI machine under ASan
    // took 1.2 s here), this test checks that the sentence arrives and how.
    const qint64 latency = timer.elapsed();
    std::printf("sentiment: object written -> LiveFeed diff in %lld ms\n", static_cast<long long>(latency));
    const QJsonArray upsert = found.value(QLatin1String("upsert")).toArray();
    ASSERT_EQ(upsert.size(), 1);
    EXPECT_EQ(upsert.first().toObject().value(QLatin1String("key")).toString(), QStringLiteral("sc-09001/0"));
    const Login viewer = login(QStringLiteral("viewer"));
    const QJsonArray live = getJson(QStringLiteral("/api/v1/sentiment/calls?live=1"), viewer).array();
    ASSERT_EQ(live.size(), 1);
    EXPECT_EQ(live.first().toObject().value(QLatin1String("call")).toString(), QStringLiteral("sc-09001"));
}
