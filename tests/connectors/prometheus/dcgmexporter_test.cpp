// The simulator's DcgmExporter served over HTTP, read by the same PrometheusClient/queryGpuMetrics
// code as a real Prometheus: fed samples come back per GPU, /metrics is dcgm-exporter's text
// format, range queries return the fed history at the requested step, and anything beyond bare
// selectors is refused with Prometheus' bad_data envelope.
#include "connectors/prometheus/dcgm.h"
#include "simulators/kubernetes/dcgm.h"
#include "tests/connectors/prometheus/dcgmfleet.h"
#include "tests/connectors/prometheus/prometheustestsupport.h"

#include <QRegularExpression>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

namespace strata::prometheus::test {
namespace {

using Kind = connectors::Error::Kind;
using sim::kube::DcgmExporter;
using sim::kube::DcgmGpuSample;
using testsupport::LoopbackServer;

// 2026-01-01T00:00:00Z
constexpr double kBase = 1767225600.0;
constexpr int kTickSeconds = 15;

QDateTime tickTime(std::int64_t k)
{
    return QDateTime::fromSecsSinceEpoch(static_cast<qint64>(kBase) + k * kTickSeconds, Qt::UTC);
}

double tickSeconds(std::int64_t k)
{
    return kBase + static_cast<double>(k * kTickSeconds);
}

QList<DcgmGpuSample> toSamples(const std::vector<FleetGpu> &fleet)
{
    QList<DcgmGpuSample> out;
    for (const FleetGpu &g : fleet) {
        DcgmGpuSample s;
        s.node = QString::fromStdString(g.node);
        s.gpu = g.gpu;
        s.uuid = QString::fromStdString(g.uuid);
        s.model = QString::fromStdString(g.model);
        s.utilPct = g.utilPct;
        s.fbUsedMiB = g.fbUsedMiB;
        s.fbFreeMiB = g.fbFreeMiB;
        s.powerW = g.powerW;
        s.tempC = g.tempC;
        s.pod = QString::fromStdString(g.pod);
        s.namespace_ = QString::fromStdString(g.namespace_);
        s.container = QString::fromStdString(g.container);
        out.append(s);
    }
    return out;
}

class DcgmExporterTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        server = std::make_unique<LoopbackServer>([this](const sim::Request &r, const sim::Responder &out) {
            log.add(r);
            if (!exporter.handle(r, out)) {
                out.send(sim::Response::text(404, "404 page not found\n"));
            }
        });
    }

    /// Records ticks first..last (inclusive) of the fleet on the server thread.
    void feed(std::int64_t first, std::int64_t last)
    {
        server->thread().runBlocking([&] {
            for (std::int64_t k = first; k <= last; ++k) {
                exporter.record(tickTime(k), toSamples(fleetAt(k)));
            }
        });
    }

    PrometheusClient &client(bool usePost = true)
    {
        PrometheusOptions options;
        options.http = clientOptions(server->url(), nullptr);
        options.usePost = usePost;
        m_client = std::make_unique<PrometheusClient>(transport, options);
        return *m_client;
    }

    http::HttpResponse get(const std::string &pathAndQuery)
    {
        http::HttpRequest request;
        request.url = server->url(pathAndQuery);
        auto response = transport.send(request, {});
        EXPECT_TRUE(response) << response.error().message;
        return response ? *response : http::HttpResponse{};
    }

    DcgmExporter exporter; // declared before the server, so destroyed after it
    RequestLog log;
    std::unique_ptr<LoopbackServer> server;
    http::CurlTransport transport;

private:
    std::unique_ptr<PrometheusClient> m_client;
};

void expectGpuMatches(const GpuMetrics &got, const FleetGpu &want)
{
    SCOPED_TRACE(want.node + "/" + std::to_string(want.gpu));
    EXPECT_EQ(got.node, want.node);
    EXPECT_EQ(got.gpu, want.gpu);
    EXPECT_EQ(got.uuid, want.uuid);
    EXPECT_EQ(got.model, want.model);
    EXPECT_EQ(got.pod, want.pod);
    EXPECT_EQ(got.namespace_, want.namespace_);
    EXPECT_EQ(got.container, want.container);
    EXPECT_DOUBLE_EQ(got.utilPct, want.utilPct);
    EXPECT_DOUBLE_EQ(got.fbUsedMiB, want.fbUsedMiB);
    EXPECT_DOUBLE_EQ(got.fbFreeMiB, want.fbFreeMiB);
    EXPECT_DOUBLE_EQ(got.powerW, want.powerW);
    EXPECT_DOUBLE_EQ(got.tempC, want.tempC);
}

TEST_F(DcgmExporterTest, QueryGpuMetrics_Default_ReturnsNewestTickPerGpuWithAttribution)
{
    feed(0, 3);
    const auto gpus = queryGpuMetrics(client());
    ASSERT_TRUE(gpus) << gpus.error().message;
    const auto want = fleetAt(3);
    ASSERT_EQ(gpus->size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        expectGpuMatches((*gpus)[i], want[i]);
    }
    EXPECT_EQ(log.last().method, "POST");
    EXPECT_EQ(log.last().time, "") << "no time: the simulator's newest record is 'now'";
}

TEST_F(DcgmExporterTest, QueryGpuMetrics_AtEarlierTime_SeesTheScrapeThenAndNothingBeyondLookback)
{
    feed(0, 40);                                                        // 10 minutes of 15 s ticks
    const auto at5 = queryGpuMetrics(client(), {}, tickSeconds(5) + 7); // between ticks 5 and 6
    ASSERT_TRUE(at5) << at5.error().message;
    const auto want = fleetAt(5);
    ASSERT_EQ(at5->size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        expectGpuMatches((*at5)[i], want[i]);
    }
    // Before the first scrape there is nothing; 5 minutes after the last, staleness hides all.
    const auto before = queryGpuMetrics(client(), {}, tickSeconds(0) - 1);
    ASSERT_TRUE(before) << before.error().message;
    EXPECT_TRUE(before->empty());
    const auto stale = queryGpuMetrics(client(), {}, tickSeconds(40) + 300.001);
    ASSERT_TRUE(stale) << stale.error().message;
    EXPECT_TRUE(stale->empty());
    const auto justInside = queryGpuMetrics(client(), {}, tickSeconds(40) + 300);
    ASSERT_TRUE(justInside) << justInside.error().message;
    EXPECT_EQ(justInside->size(), 16u);
}

TEST_F(DcgmExporterTest, InstantQuery_GetWithRfc3339Time_AnswersInPrometheusJsonShape)
{
    feed(0, 2);
    const auto response = get("/api/v1/query?query=DCGM_FI_DEV_GPU_UTIL%7BHostname%3D%22dgx-01%22%2Cgpu%3D%221%22%7D"
                              "&time=2026-01-01T00:00:15Z");
    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(response.header("Content-Type"), "application/json");
    const auto body = nlohmann::json::parse(response.body);
    EXPECT_EQ(body["status"], "success");
    EXPECT_EQ(body["data"]["resultType"], "vector");
    ASSERT_EQ(body["data"]["result"].size(), 1u);
    const auto &element = body["data"]["result"][0];
    EXPECT_EQ(element["metric"],
              nlohmann::json({{"__name__", "DCGM_FI_DEV_GPU_UTIL"},
                              {"Hostname", "dgx-01"},
                              {"UUID", fleetGpu(0, 1, 1).uuid},
                              {"container", "main"},
                              {"device", "nvidia1"},
                              {"gpu", "1"},
                              {"modelName", "Tesla V100-SXM2-32GB"},
                              {"namespace", "runai-team-a"},
                              {"pod", "train-a-0-abcde"}}));
    ASSERT_TRUE(element["value"].is_array());
    EXPECT_TRUE(element["value"][0].is_number());
    EXPECT_DOUBLE_EQ(element["value"][0].get<double>(), tickSeconds(1));
    ASSERT_TRUE(element["value"][1].is_string()) << "values travel as strings";
    EXPECT_EQ(element["value"][1], "16");
}

TEST_F(DcgmExporterTest, Timestamps_RenderedWithPrometheusDigits)
{
    // Recorded from Prometheus 2.42 (tests/fixtures/prometheus/query-vector.json):
    // "value":[1795354380.500,"2"]: whole seconds, then three fraction digits when non-zero.
    feed(0, 0);
    const auto half = get("/api/v1/query?query=DCGM_FI_DEV_GPU_UTIL%7Bgpu%3D%220%22%7D&time=1767225600.5");
    EXPECT_NE(half.body.find(R"("value":[1767225600.500,")"), std::string::npos) << half.body;
    const auto whole = get("/api/v1/query?query=DCGM_FI_DEV_GPU_UTIL%7Bgpu%3D%220%22%7D&time=1767225601");
    EXPECT_NE(whole.body.find(R"("value":[1767225601,")"), std::string::npos) << whole.body;
    const auto small = get("/api/v1/query?query=DCGM_FI_DEV_GPU_UTIL%7Bgpu%3D%220%22%7D&time=1767225601.07");
    EXPECT_NE(small.body.find(R"("value":[1767225601.070,")"), std::string::npos) << small.body;
}

TEST_F(DcgmExporterTest, Matchers_EqualNotEqualAnchoredRegex)
{
    feed(0, 0);
    auto &c = client(/*usePost=*/false);
    const auto count = [&](const std::string &query) {
        const auto result = c.instantQuery(query);
        EXPECT_TRUE(result) << query << ": " << (result ? "" : result.error().message);
        return result ? static_cast<int>(result->samples.size()) : -1;
    };
    EXPECT_EQ(count("DCGM_FI_DEV_GPU_UTIL"), 16);
    EXPECT_EQ(count(R"(DCGM_FI_DEV_GPU_UTIL{namespace="runai-team-a"})"), 4);
    EXPECT_EQ(count(R"(DCGM_FI_DEV_GPU_UTIL{namespace="runai-team-b"})"), 4);
    EXPECT_EQ(count(R"(DCGM_FI_DEV_GPU_UTIL{namespace=""})"), 7) << "idle GPUs have no namespace label";
    EXPECT_EQ(count(R"(DCGM_FI_DEV_GPU_UTIL{namespace!=""})"), 9);
    EXPECT_EQ(count(R"(DCGM_FI_DEV_GPU_UTIL{Hostname=~"dgx-0"})"), 0) << "regexes are anchored";
    EXPECT_EQ(count(R"(DCGM_FI_DEV_GPU_UTIL{Hostname=~"dgx-0[12]", gpu=~"[0-3]"})"), 8);
    EXPECT_EQ(count(R"(DCGM_FI_DEV_GPU_UTIL{namespace=~"runai-.*",Hostname!~".*2"})"), 6);
    EXPECT_EQ(count(R"q({__name__=~"DCGM_FI_DEV_FB_(USED|FREE)",Hostname='dgx-02'})q"), 16);
    EXPECT_EQ(count("DCGM_FI_DEV_SM_CLOCK"), 0) << "an unknown metric matches nothing";
}

TEST_F(DcgmExporterTest, RangeQuery_ReturnsFedHistoryAtTheRequestedStep)
{
    feed(0, 19);
    // Every second tick (30 s), starting 5 s after tick 2: each point is the scrape at or before it.
    const double start = tickSeconds(2) + 5;
    const double end = tickSeconds(18) + 5;
    const auto result = client().rangeQuery(R"(DCGM_FI_DEV_GPU_UTIL{namespace="runai-team-a"})", start, end, 30);
    ASSERT_TRUE(result) << result.error().message;
    ASSERT_EQ(result->type, ResultType::Matrix);
    ASSERT_EQ(result->series.size(), 4u);
    for (int gpu = 0; gpu < 4; ++gpu) {
        const Series &s = result->series[static_cast<std::size_t>(gpu)];
        EXPECT_EQ(s.labels.at("gpu"), std::to_string(gpu)) << "series sorted by labels";
        EXPECT_EQ(s.labels.at("__name__"), "DCGM_FI_DEV_GPU_UTIL");
        ASSERT_EQ(s.points.size(), 9u);
        for (std::size_t i = 0; i < s.points.size(); ++i) {
            const std::int64_t k = 2 + 2 * static_cast<std::int64_t>(i);
            EXPECT_DOUBLE_EQ(s.points[i].first, start + 30.0 * static_cast<double>(i));
            EXPECT_DOUBLE_EQ(s.points[i].second, fleetGpu(0, gpu, k).utilPct) << "point " << i;
        }
    }
    const SeenRequest seen = log.last();
    EXPECT_EQ(seen.step, "30");
}

TEST_F(DcgmExporterTest, UtilizationHistoryByNamespace_AveragesClientSide)
{
    feed(0, 7);
    const auto history = utilizationHistoryByNamespace(client(), tickSeconds(0), tickSeconds(7), kTickSeconds);
    ASSERT_TRUE(history) << history.error().message;
    EXPECT_EQ(log.last().query, "DCGM_FI_DEV_GPU_UTIL") << "a bare selector, aggregated client-side";
    // Groups: {} (idle GPUs), research, runai-team-a, runai-team-b.
    ASSERT_EQ(history->size(), 4u);
    EXPECT_TRUE((*history)[0].labels.empty());
    EXPECT_EQ((*history)[2].labels, (Labels{{"namespace", "runai-team-a"}}));
    for (const auto &[t, v] : (*history)[0].points) {
        EXPECT_DOUBLE_EQ(v, 0.0);
    }
    const Series &teamB = (*history)[3];
    ASSERT_EQ(teamB.points.size(), 8u);
    for (std::int64_t k = 0; k < 8; ++k) {
        const double want = (fleetGpu(0, 4, k).utilPct + fleetGpu(0, 5, k).utilPct + fleetGpu(1, 0, k).utilPct
                             + fleetGpu(1, 1, k).utilPct)
                            / 4.0;
        EXPECT_DOUBLE_EQ(teamB.points[static_cast<std::size_t>(k)].second, want) << "tick " << k;
    }
}

TEST_F(DcgmExporterTest, UsageByProject_RunaiNamespaces)
{
    feed(0, 0);
    const auto gpus = queryGpuMetrics(client());
    ASSERT_TRUE(gpus) << gpus.error().message;
    const auto usage = usageByProject(*gpus, [](const std::string &ns, const std::string &) {
        return runaiProjectOfNamespace(ns);
    });
    ASSERT_EQ(usage.size(), 3u);
    EXPECT_EQ(usage[0].project, "") << "research/notebook-0 belongs to no project";
    EXPECT_EQ(usage[0].gpus, 1);
    EXPECT_EQ(usage[1].project, "team-a");
    EXPECT_EQ(usage[1].gpus, 4);
    EXPECT_EQ(usage[2].project, "team-b");
    EXPECT_EQ(usage[2].gpus, 4);
    double util = 0;
    double fb = 0;
    for (int gpu = 0; gpu < 4; ++gpu) {
        util += fleetGpu(0, gpu, 0).utilPct;
        fb += fleetGpu(0, gpu, 0).fbUsedMiB;
    }
    EXPECT_DOUBLE_EQ(usage[1].avgUtilPct, util / 4);
    EXPECT_DOUBLE_EQ(usage[1].fbUsedMiB, fb);
}

TEST_F(DcgmExporterTest, Metrics_TextExpositionWithHelpTypeAndDcgmLabels)
{
    feed(0, 1);
    const auto response = get("/metrics");
    ASSERT_EQ(response.status, 200);
    EXPECT_EQ(response.header("Content-Type").value_or("").rfind("text/plain; version=0.0.4", 0), 0u);
    const std::string &text = response.body;
    EXPECT_NE(text.find("# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"),
              std::string::npos);
    EXPECT_NE(text.find("# HELP DCGM_FI_DEV_FB_USED Framebuffer memory used (in MiB).\n"), std::string::npos);
    EXPECT_NE(text.find("# HELP DCGM_FI_DEV_FB_FREE Framebuffer memory free (in MiB).\n"), std::string::npos);
    EXPECT_NE(text.find("# HELP DCGM_FI_DEV_POWER_USAGE Power draw (in W).\n"), std::string::npos);
    EXPECT_NE(text.find("# HELP DCGM_FI_DEV_GPU_TEMP GPU temperature (in C).\n"), std::string::npos);

    // Parse every sample line: name{labels} value.
    static const QRegularExpression line(QStringLiteral(R"(^([A-Z_]+)\{([^}]*)\} (\S+)$)"));
    static const QRegularExpression pair(QStringLiteral(R"re(([A-Za-z_]+)="([^"]*)")re"));
    std::map<std::string, int> perMetric;
    std::set<std::string> typed;
    int samples = 0;
    for (const QString &row : QString::fromStdString(text).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (row.startsWith(QLatin1String("# TYPE "))) {
            typed.insert(row.section(QLatin1Char(' '), 2, 2).toStdString());
            EXPECT_TRUE(row.endsWith(QLatin1String(" gauge"))) << row.toStdString();
            continue;
        }
        if (row.startsWith(QLatin1Char('#'))) {
            continue;
        }
        const auto m = line.match(row);
        ASSERT_TRUE(m.hasMatch()) << row.toStdString();
        const std::string metric = m.captured(1).toStdString();
        EXPECT_TRUE(typed.count(metric)) << "TYPE precedes the samples of " << metric;
        ++perMetric[metric];
        ++samples;
        std::map<std::string, std::string> labels;
        std::vector<std::string> order;
        for (auto it = pair.globalMatch(m.captured(2)); it.hasNext();) {
            const auto p = it.next();
            labels[p.captured(1).toStdString()] = p.captured(2).toStdString();
            order.push_back(p.captured(1).toStdString());
        }
        const int n = labels.at("Hostname") == "dgx-01" ? 0 : 1;
        const FleetGpu want = fleetGpu(n, std::stoi(labels.at("gpu")), 1);
        EXPECT_EQ(labels.at("UUID"), want.uuid);
        EXPECT_EQ(labels.at("device"), "nvidia" + labels.at("gpu"));
        EXPECT_EQ(labels.at("modelName"), want.model);
        ASSERT_GE(order.size(), 5u);
        EXPECT_EQ(std::vector<std::string>(order.begin(), order.begin() + 5),
                  (std::vector<std::string>{"gpu", "UUID", "device", "modelName", "Hostname"}))
            << "dcgm-exporter's label order";
        if (want.pod.empty()) {
            EXPECT_EQ(labels.count("pod"), 0u) << row.toStdString();
        } else {
            EXPECT_EQ(labels.at("pod"), want.pod);
            EXPECT_EQ(labels.at("namespace"), want.namespace_);
            EXPECT_EQ(labels.at("container"), want.container);
        }
        if (metric == "DCGM_FI_DEV_POWER_USAGE") {
            EXPECT_DOUBLE_EQ(m.captured(3).toDouble(), want.powerW);
        }
    }
    EXPECT_EQ(samples, 5 * 16);
    EXPECT_EQ(perMetric.size(), 5u);
}

TEST_F(DcgmExporterTest, Unsupported_AggregationIsBadDataWith400)
{
    feed(0, 0);
    const auto result = client().instantQuery("avg by (namespace) (DCGM_FI_DEV_GPU_UTIL)");
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, Kind::Api);
    EXPECT_EQ(result.error().httpStatus, 400);
    EXPECT_EQ(result.error().apiCode, "bad_data");
    EXPECT_NE(result.error().message.find("invalid parameter \"query\""), std::string::npos) << result.error().message;

    for (const char *query : {"",
                              "DCGM_FI_DEV_GPU_UTIL{",
                              R"(DCGM_FI_DEV_GPU_UTIL{gpu=~"("})",
                              R"({gpu=""})",
                              "rate(DCGM_FI_DEV_GPU_UTIL[5m])"}) {
        const auto bad = client().instantQuery(query);
        ASSERT_FALSE(bad) << query;
        EXPECT_EQ(bad.error().apiCode, "bad_data") << query;
    }
}

TEST_F(DcgmExporterTest, RangeQuery_BadParameters_AreBadData)
{
    feed(0, 0);
    const auto zeroStep = client().rangeQuery("DCGM_FI_DEV_GPU_UTIL", kBase, kBase + 60, 0);
    ASSERT_FALSE(zeroStep);
    EXPECT_NE(zeroStep.error().message.find("zero or negative query resolution step"), std::string::npos);
    const auto backwards = client().rangeQuery("DCGM_FI_DEV_GPU_UTIL", kBase + 60, kBase, 15);
    ASSERT_FALSE(backwards);
    EXPECT_EQ(backwards.error().apiCode, "bad_data");
    const auto tooMany = client().rangeQuery("DCGM_FI_DEV_GPU_UTIL", kBase, kBase + 86400, 1);
    ASSERT_FALSE(tooMany);
    EXPECT_NE(tooMany.error().message.find("11,000 points"), std::string::npos);

    const auto duration = get("/api/v1/query_range?query=DCGM_FI_DEV_GPU_UTIL&start=1767225600&end=1767225660&step=1m");
    EXPECT_EQ(duration.status, 200) << duration.body;
    const auto notATime = get("/api/v1/query_range?query=up&start=yesterday&end=1767225660&step=15");
    EXPECT_EQ(notATime.status, 400);
    EXPECT_NE(notATime.body.find(R"("errorType":"bad_data")"), std::string::npos);
}

TEST_F(DcgmExporterTest, BuildInfoAndForeignPaths)
{
    const auto info = client().buildInfo();
    ASSERT_TRUE(info) << info.error().message;
    EXPECT_EQ(info->version, "2.42.0");
    // Other /api/v1/ paths are the Kubernetes API's on a shared port: handle() leaves them alone.
    for (const char *path : {"/api/v1/targets", "/api/v1/namespaces/default/pods", "/healthz"}) {
        const auto response = get(path);
        EXPECT_EQ(response.status, 404) << path;
        EXPECT_EQ(response.body, "404 page not found\n") << path;
    }
}

TEST(DcgmExporterPrefix, ServedUnderTheApiServerProxyPath)
{
    DcgmExporter::Options options;
    options.pathPrefix = QStringLiteral("/api/v1/namespaces/gpu-operator/services/prometheus:9090/proxy");
    DcgmExporter exporter(options);
    LoopbackServer server([&](const sim::Request &r, const sim::Responder &out) {
        if (!exporter.handle(r, out)) {
            out.send(sim::Response::text(404, "404 page not found\n"));
        }
    });
    server.thread().runBlocking([&] {
        exporter.record(tickTime(0), toSamples(fleetAt(0)));
    });
    http::CurlTransport transport;
    PrometheusClient client(transport, clientOptions(server.url(options.pathPrefix.toStdString()), nullptr));
    const auto gpus = queryGpuMetrics(client);
    ASSERT_TRUE(gpus) << gpus.error().message;
    EXPECT_EQ(gpus->size(), 16u);
    http::HttpRequest root;
    root.url = server.url("/api/v1/query?query=DCGM_FI_DEV_GPU_UTIL");
    const auto unprefixed = transport.send(root, {});
    ASSERT_TRUE(unprefixed);
    EXPECT_EQ(unprefixed->status, 404);
    root.url = server.url(options.pathPrefix.toStdString() + "/metrics");
    const auto metrics = transport.send(root, {});
    ASSERT_TRUE(metrics);
    EXPECT_EQ(metrics->status, 200);
    EXPECT_NE(metrics->body.find("# TYPE DCGM_FI_DEV_GPU_UTIL gauge"), std::string::npos);
}

TEST(DcgmExporterHistory, FastTicks_KeepOneScrapePerInterval)
{
    DcgmExporter exporter; // 15 s scrape interval
    const QDateTime start = tickTime(0);
    for (int s = 0; s < 60; ++s) {
        auto gpus = toSamples(fleetAt(s));
        exporter.record(start.addSecs(s), gpus);
    }
    EXPECT_EQ(exporter.scrapeCount(), 4u); // opened at 0, 15, 30, 45
    EXPECT_EQ(exporter.latestTime(), start.addSecs(59));
    // /metrics shows the newest tick even though it shares a scrape with 45..58.
    const QByteArray text = exporter.metricsText();
    const auto want = fleetGpu(0, 0, 59);
    const std::string line = "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"" + want.uuid
                             + "\",device=\"nvidia0\",modelName=\"Tesla V100-SXM2-32GB\",Hostname=\"dgx-01\","
                               "container=\"main\",namespace=\"runai-team-a\",pod=\"train-a-0-abcde\"} "
                             + std::to_string(static_cast<int>(want.utilPct)) + "\n";
    EXPECT_TRUE(text.contains(QByteArray::fromStdString(line))) << line << text.left(800).toStdString();
    // Going back in time is ignored.
    exporter.record(start, {});
    EXPECT_EQ(exporter.latestTime(), start.addSecs(59));
}

TEST(DcgmExporterHistory, RetentionAndCap_DropOldestScrapes)
{
    DcgmExporter::Options options;
    options.retention = std::chrono::minutes(1);
    DcgmExporter byAge(options);
    for (int k = 0; k <= 40; ++k) {
        byAge.record(tickTime(k), {});
    }
    EXPECT_EQ(byAge.scrapeCount(), 5u); // ticks 36..40 are within a minute of tick 40

    options.retention = std::chrono::hours(24);
    options.maxScrapes = 10;
    DcgmExporter byCount(options);
    for (int k = 0; k <= 40; ++k) {
        byCount.record(tickTime(k), {});
    }
    EXPECT_EQ(byCount.scrapeCount(), 10u);
}

TEST(DcgmJoin, SharedGpuSeriesAndExportedLabels)
{
    const auto sample = [](const std::string &metric, Labels extra, double value) {
        Labels labels{{"__name__", metric}, {"Hostname", "n1"}, {"gpu", "0"}, {"UUID", "GPU-x"}};
        labels.insert(extra.begin(), extra.end());
        return Sample{labels, 1.0, value};
    };
    const std::vector<Sample> samples{
        sample(kGpuUtil, {{"pod", "b"}, {"namespace", "ns"}}, 40),
        sample(kGpuUtil, {{"pod", "a"}, {"namespace", "ns"}}, 40),
        sample(kGpuUtil, {}, 41),
        sample(kFbUsed, {}, 1000),
        // Prometheus with honor_labels off: the exporter's own pod is in `pod`.
        sample(kPowerUsage,
               {{"pod", "dcgm-exporter-xyz"},
                {"namespace", "gpu-operator"},
                {"exported_pod", "c"},
                {"exported_namespace", "ns2"}},
               250),
        sample("DCGM_FI_DEV_SM_CLOCK", {}, 1500),
        Sample{{{"__name__", kGpuTemp}, {"Hostname", "n1"}, {"UUID", "GPU-y"}}, 1.0, 50}, // no gpu label
    };
    const auto gpus = joinGpuMetrics(samples);
    ASSERT_EQ(gpus.size(), 2u);
    EXPECT_EQ(gpus[0].gpu, -1);
    EXPECT_EQ(gpus[0].uuid, "GPU-y");
    EXPECT_DOUBLE_EQ(gpus[0].tempC, 50);
    EXPECT_TRUE(std::isnan(gpus[0].utilPct));
    const GpuMetrics &g = gpus[1];
    EXPECT_EQ(g.gpu, 0);
    EXPECT_EQ(g.pod, "a") << "a series naming a pod wins; among those the first in label order";
    EXPECT_EQ(g.namespace_, "ns");
    EXPECT_DOUBLE_EQ(g.utilPct, 40);
    EXPECT_DOUBLE_EQ(g.fbUsedMiB, 1000);
    EXPECT_DOUBLE_EQ(g.powerW, 250);
    EXPECT_TRUE(std::isnan(g.fbFreeMiB)) << "a missing metric stays NaN";
    EXPECT_TRUE(std::isnan(g.tempC));
}

TEST(DcgmJoin, AggregateSeries_AllOperationsAndMissingPoints)
{
    const std::vector<Series> series{
        {{{"namespace", "a"}, {"gpu", "0"}}, {{10, 1}, {20, 3}}},
        {{{"namespace", "a"}, {"gpu", "1"}}, {{10, 5}, {20, std::nan("")}, {30, 7}}},
        {{{"gpu", "2"}}, {{10, 0}}},
    };
    const auto avg = aggregateSeries(series, {"namespace"}, Aggregation::Avg);
    ASSERT_EQ(avg.size(), 2u);
    EXPECT_TRUE(avg[0].labels.empty());
    EXPECT_EQ(avg[1].labels, (Labels{{"namespace", "a"}}));
    ASSERT_EQ(avg[1].points.size(), 3u);
    EXPECT_DOUBLE_EQ(avg[1].points[0].second, 3);
    EXPECT_DOUBLE_EQ(avg[1].points[1].second, 3) << "NaN skipped";
    EXPECT_DOUBLE_EQ(avg[1].points[2].second, 7);
    EXPECT_DOUBLE_EQ(aggregateSeries(series, {"namespace"}, Aggregation::Sum)[1].points[0].second, 6);
    EXPECT_DOUBLE_EQ(aggregateSeries(series, {"namespace"}, Aggregation::Max)[1].points[0].second, 5);
    EXPECT_DOUBLE_EQ(aggregateSeries(series, {"namespace"}, Aggregation::Min)[1].points[0].second, 1);
    EXPECT_DOUBLE_EQ(aggregateSeries(series, {"namespace"}, Aggregation::Count)[1].points[1].second, 2);
    EXPECT_EQ(aggregateSeries(series, {}, Aggregation::Count).size(), 1u);
}

TEST(DcgmJoin, RunaiProjectOfNamespace)
{
    EXPECT_EQ(runaiProjectOfNamespace("runai-team-a"), "team-a");
    EXPECT_EQ(runaiProjectOfNamespace("runai-"), "");
    EXPECT_EQ(runaiProjectOfNamespace("default"), "");
}

} // namespace
} // namespace strata::prometheus::test
