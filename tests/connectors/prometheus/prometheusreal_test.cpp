// The Prometheus connector against a real Prometheus 2.x: a deterministic DCGM fleet (2 nodes x 8
// GPUs, one sample a minute for 2 hours, all older than now) is backfilled with
// `promtool tsdb create-blocks-from openmetrics`, then queried. The same fleet fed to the
// simulator's DcgmExporter must answer the same selector queries identically, and the
// client-side aggregation must equal PromQL's `avg by (namespace)`.
// Skips when prometheus/promtool are absent, unless STRATA_REQUIRE_ALL=1.
#include "connectors/prometheus/dcgm.h"
#include "simulators/kubernetes/dcgm.h"
#include "tests/connectors/prometheus/dcgmfleet.h"
#include "tests/connectors/prometheus/prometheustestsupport.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QThread>

#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace strata::prometheus::test {
namespace {

using Kind = connectors::Error::Kind;
using sim::kube::DcgmExporter;
using sim::kube::DcgmGpuSample;
using testsupport::LoopbackServer;

constexpr std::int64_t kTicks = 121; // k = 0..120, one a minute

std::string number(double value)
{
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
    return std::string(buffer, result.ptr);
}

struct MetricColumn
{
    const char *name;
    const char *help;
    double FleetGpu::*field;
};

constexpr MetricColumn kColumns[] = {
    {"DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", &FleetGpu::utilPct},
    {"DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", &FleetGpu::fbUsedMiB},
    {"DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", &FleetGpu::fbFreeMiB},
    {"DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", &FleetGpu::powerW},
    {"DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).", &FleetGpu::tempC},
};

/// The backfill: every metric family's samples together, each series in time order, `# EOF`.
std::string openMetrics(std::int64_t firstSecond)
{
    std::string out;
    for (const MetricColumn &column : kColumns) {
        out += std::string("# HELP ") + column.name + " " + column.help + "\n";
        out += std::string("# TYPE ") + column.name + " gauge\n";
        for (int n = 0; n < kFleetNodes; ++n) {
            for (int gpu = 0; gpu < kFleetGpusPerNode; ++gpu) {
                const FleetGpu g0 = fleetGpu(n, gpu, 0);
                std::string labels = "gpu=\"" + std::to_string(gpu) + "\",UUID=\"" + g0.uuid + "\",device=\"nvidia"
                                     + std::to_string(gpu) + "\",modelName=\"" + g0.model + "\",Hostname=\"" + g0.node
                                     + "\"";
                if (!g0.pod.empty()) {
                    labels += ",container=\"" + g0.container + "\",namespace=\"" + g0.namespace_ + "\",pod=\"" + g0.pod
                              + "\"";
                }
                for (std::int64_t k = 0; k < kTicks; ++k) {
                    out += std::string(column.name) + "{" + labels + "} " + number(fleetGpu(n, gpu, k).*column.field)
                           + " " + std::to_string(firstSecond + k * 60) + "\n";
                }
            }
        }
    }
    out += "# EOF\n";
    return out;
}

/// One Prometheus for the whole suite (startup and backfill take about a second).
struct RealPrometheus
{
    QString missing;   ///< non-empty: a tool is not installed
    std::string error; ///< non-empty: setup failed
    QTemporaryDir dir;
    QProcess process;
    std::string baseUrl;
    std::int64_t firstSecond = 0; ///< time of tick 0, unix seconds

    void start()
    {
        const QString prometheus = QStandardPaths::findExecutable(QStringLiteral("prometheus"));
        const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
        if (prometheus.isEmpty() || promtool.isEmpty()) {
            missing = QStringLiteral("prometheus and promtool are needed (apt-get install prometheus)");
            return;
        }
        if (!dir.isValid()) {
            error = "no temporary directory";
            return;
        }
        // Whole minutes, the newest sample a minute in the past: backfilled samples must be older
        // than the head block's "now".
        const std::int64_t now = QDateTime::currentSecsSinceEpoch();
        const std::int64_t last = now / 60 * 60 - 60;
        firstSecond = last - (kTicks - 1) * 60;

        QFile om(dir.filePath(QStringLiteral("dcgm.om")));
        QFile config(dir.filePath(QStringLiteral("prometheus.yml")));
        if (!om.open(QIODevice::WriteOnly) || !config.open(QIODevice::WriteOnly)) {
            error = "cannot write the backfill or the config";
            return;
        }
        om.write(QByteArray::fromStdString(openMetrics(firstSecond)));
        om.close();
        config.write("global:\n  scrape_interval: 15s\n");
        config.close();

        const QString data = dir.filePath(QStringLiteral("data"));
        QProcess backfill;
        backfill.setProcessChannelMode(QProcess::MergedChannels);
        backfill.start(promtool,
                       {QStringLiteral("tsdb"),
                        QStringLiteral("create-blocks-from"),
                        QStringLiteral("openmetrics"),
                        om.fileName(),
                        data});
        if (!backfill.waitForFinished(60000) || backfill.exitCode() != 0) {
            error = "promtool backfill failed: " + backfill.readAll().toStdString();
            return;
        }

        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHost, 0)) {
            error = "no free port";
            return;
        }
        const quint16 port = probe.serverPort();
        probe.close();
        baseUrl = "http://127.0.0.1:" + std::to_string(port);
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.setWorkingDirectory(dir.path());
        process.start(prometheus,
                      {QStringLiteral("--config.file=") + config.fileName(),
                       QStringLiteral("--storage.tsdb.path=") + data,
                       QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(port),
                       QStringLiteral("--storage.tsdb.retention.time=30d")});
        if (!process.waitForStarted(10000)) {
            error = "prometheus did not start: " + process.errorString().toStdString();
            return;
        }
        http::CurlTransport transport;
        http::HttpRequest ready;
        ready.url = baseUrl + "/-/ready";
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (std::chrono::steady_clock::now() < deadline) {
            const auto response = transport.send(ready, {});
            if (response && response->status == 200) {
                return;
            }
            if (process.state() == QProcess::NotRunning) {
                break;
            }
            process.waitForReadyRead(50); // also paces the polling
        }
        error = "prometheus did not become ready:\n" + process.readAll().toStdString();
    }

    ~RealPrometheus()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(10000);
        }
    }

    [[nodiscard]] double tick(std::int64_t k) const { return static_cast<double>(firstSecond + k * 60); }
};

class PrometheusReal : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_prometheus = new RealPrometheus;
        s_prometheus->start();
    }

    static void TearDownTestSuite()
    {
        delete s_prometheus;
        s_prometheus = nullptr;
    }

    void SetUp() override
    {
        if (!s_prometheus->missing.isEmpty()) {
            if (qEnvironmentVariableIsSet("STRATA_REQUIRE_ALL")) {
                FAIL() << s_prometheus->missing.toStdString() << " (STRATA_REQUIRE_ALL is set)";
            }
            GTEST_SKIP() << s_prometheus->missing.toStdString();
        }
        ASSERT_TRUE(s_prometheus->error.empty()) << s_prometheus->error;
        m_client = std::make_unique<PrometheusClient>(transport, clientOptions(s_prometheus->baseUrl, nullptr));
    }

    PrometheusClient &client() { return *m_client; }
    static double tick(std::int64_t k) { return s_prometheus->tick(k); }

    static RealPrometheus *s_prometheus;
    http::CurlTransport transport;

private:
    std::unique_ptr<PrometheusClient> m_client;
};

RealPrometheus *PrometheusReal::s_prometheus = nullptr;

TEST_F(PrometheusReal, InstantQuery_InsideTheBackfill_ReturnsTheSampleAtOrBeforeTime)
{
    // 30 s after tick 60: the selector sees tick 60's sample, stamped with the evaluation time.
    const auto result = client().instantQuery(R"(DCGM_FI_DEV_GPU_UTIL{Hostname="dgx-01",gpu="2"})", tick(60) + 30);
    ASSERT_TRUE(result) << result.error().message;
    ASSERT_EQ(result->type, ResultType::Vector);
    ASSERT_EQ(result->samples.size(), 1u);
    const Sample &sample = result->samples[0];
    EXPECT_DOUBLE_EQ(sample.timestamp, tick(60) + 30);
    EXPECT_DOUBLE_EQ(sample.value, fleetGpu(0, 2, 60).utilPct);
    EXPECT_EQ(sample.labels.at("pod"), "train-a-0-abcde");
    EXPECT_EQ(sample.labels.at("namespace"), "runai-team-a");
    EXPECT_EQ(sample.labels.at("UUID"), fleetGpu(0, 2, 0).uuid);
    EXPECT_TRUE(result->warnings.empty());

    const auto before = client().instantQuery("DCGM_FI_DEV_GPU_UTIL", tick(0) - 1);
    ASSERT_TRUE(before) << before.error().message;
    EXPECT_TRUE(before->samples.empty());
}

TEST_F(PrometheusReal, RangeQuery_ReturnsBackfilledPointsAtTheStep)
{
    const auto result =
        client().rangeQuery(R"(DCGM_FI_DEV_POWER_USAGE{namespace="runai-team-b"})", tick(10), tick(20), 120);
    ASSERT_TRUE(result) << result.error().message;
    ASSERT_EQ(result->type, ResultType::Matrix);
    ASSERT_EQ(result->series.size(), 4u);
    for (const Series &s : result->series) {
        const int n = s.labels.at("Hostname") == "dgx-01" ? 0 : 1;
        const int gpu = std::stoi(s.labels.at("gpu"));
        ASSERT_EQ(s.points.size(), 6u);
        for (std::size_t i = 0; i < s.points.size(); ++i) {
            const std::int64_t k = 10 + 2 * static_cast<std::int64_t>(i);
            EXPECT_DOUBLE_EQ(s.points[i].first, tick(k));
            EXPECT_DOUBLE_EQ(s.points[i].second, fleetGpu(n, gpu, k).powerW);
        }
    }
}

TEST_F(PrometheusReal, QueryGpuMetrics_JoinsFiveMetricsPerGpuWithAttribution)
{
    const auto gpus = queryGpuMetrics(client(), {}, tick(100));
    ASSERT_TRUE(gpus) << gpus.error().message;
    const auto want = fleetAt(100);
    ASSERT_EQ(gpus->size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        const GpuMetrics &got = (*gpus)[i];
        SCOPED_TRACE(want[i].node + "/" + std::to_string(want[i].gpu));
        EXPECT_EQ(got.node, want[i].node);
        EXPECT_EQ(got.gpu, want[i].gpu);
        EXPECT_EQ(got.uuid, want[i].uuid);
        EXPECT_EQ(got.model, want[i].model);
        EXPECT_EQ(got.pod, want[i].pod);
        EXPECT_EQ(got.namespace_, want[i].namespace_);
        EXPECT_EQ(got.container, want[i].container);
        EXPECT_DOUBLE_EQ(got.utilPct, want[i].utilPct);
        EXPECT_DOUBLE_EQ(got.fbUsedMiB, want[i].fbUsedMiB);
        EXPECT_DOUBLE_EQ(got.fbFreeMiB, want[i].fbFreeMiB);
        EXPECT_DOUBLE_EQ(got.powerW, want[i].powerW);
        EXPECT_DOUBLE_EQ(got.tempC, want[i].tempC);
    }
    const auto usage = usageByProject(*gpus, [](const std::string &ns, const std::string &) {
        return runaiProjectOfNamespace(ns);
    });
    ASSERT_EQ(usage.size(), 3u);
    EXPECT_EQ(usage[1].project, "team-a");
    EXPECT_EQ(usage[1].gpus, 4);
}

TEST_F(PrometheusReal, SyntaxError_IsApiErrorWithPrometheusMessage)
{
    const auto result = client().instantQuery("avg by (namespace) (DCGM_FI_DEV_GPU_UTIL", tick(10));
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, Kind::Api);
    EXPECT_EQ(result.error().httpStatus, 400);
    EXPECT_EQ(result.error().apiCode, "bad_data");
    EXPECT_NE(result.error().message.find("parse error: unclosed left parenthesis"), std::string::npos)
        << result.error().message;
}

TEST_F(PrometheusReal, ClientSideAverage_EqualsPromqlAvgByNamespace)
{
    const double start = tick(0);
    const double end = tick(120);
    const auto ours = utilizationHistoryByNamespace(client(), start, end, 300);
    ASSERT_TRUE(ours) << ours.error().message;
    const auto theirs = client().rangeQuery("avg by (namespace) (DCGM_FI_DEV_GPU_UTIL)", start, end, 300);
    ASSERT_TRUE(theirs) << theirs.error().message;
    ASSERT_EQ(ours->size(), 4u); // {}, research, runai-team-a, runai-team-b
    ASSERT_EQ(ours->size(), theirs->series.size());
    for (std::size_t i = 0; i < ours->size(); ++i) {
        const Series &a = (*ours)[i];
        const Series &b = theirs->series[i];
        EXPECT_EQ(a.labels, b.labels);
        ASSERT_EQ(a.points.size(), b.points.size());
        for (std::size_t p = 0; p < a.points.size(); ++p) {
            EXPECT_DOUBLE_EQ(a.points[p].first, b.points[p].first);
            EXPECT_NEAR(a.points[p].second, b.points[p].second, 1e-9);
        }
    }
}

// The simulator must be indistinguishable from Prometheus for the queries Strata sends.
TEST_F(PrometheusReal, SimulatorParity_SameSelectorsSameAnswers)
{
    DcgmExporter exporter;
    LoopbackServer server([&](const sim::Request &r, const sim::Responder &out) {
        if (!exporter.handle(r, out)) {
            out.send(sim::Response::text(404, "404 page not found\n"));
        }
    });
    server.thread().runBlocking([&] {
        for (std::int64_t k = 0; k < kTicks; ++k) {
            QList<DcgmGpuSample> samples;
            for (const FleetGpu &g : fleetAt(k)) {
                samples.append(DcgmGpuSample{QString::fromStdString(g.node),
                                             g.gpu,
                                             QString::fromStdString(g.uuid),
                                             QString::fromStdString(g.model),
                                             g.utilPct,
                                             g.fbUsedMiB,
                                             g.fbFreeMiB,
                                             g.powerW,
                                             g.tempC,
                                             QString::fromStdString(g.pod),
                                             QString::fromStdString(g.namespace_),
                                             QString::fromStdString(g.container)});
            }
            exporter.record(QDateTime::fromSecsSinceEpoch(static_cast<qint64>(tick(k)), Qt::UTC), samples);
        }
    });
    PrometheusClient simulated(transport, clientOptions(server.url(), nullptr));

    const auto sortedSamples = [](std::vector<Sample> samples) {
        std::sort(samples.begin(), samples.end(), [](const Sample &a, const Sample &b) {
            return a.labels < b.labels;
        });
        return samples;
    };
    const std::vector<std::string> queries{
        "DCGM_FI_DEV_GPU_UTIL",
        R"(DCGM_FI_DEV_FB_USED{namespace=~"runai-.*",Hostname!="dgx-02"})",
        R"q({__name__=~"DCGM_FI_DEV_(GPU_TEMP|POWER_USAGE)",gpu!~"[0-3]"})q",
        R"(DCGM_FI_DEV_GPU_UTIL{pod=""})",
    };
    // Between samples, exactly on one, at the lookback edge, just past it, before the data.
    const std::vector<double> times{tick(50) + 31, tick(77), tick(120) + 300, tick(120) + 300.5, tick(0) - 0.5};
    for (const std::string &query : queries) {
        for (const double t : times) {
            SCOPED_TRACE(query + " @ " + formatTimestamp(t));
            const auto real = client().instantQuery(query, t);
            const auto fake = simulated.instantQuery(query, t);
            ASSERT_TRUE(real) << real.error().message;
            ASSERT_TRUE(fake) << fake.error().message;
            const auto a = sortedSamples(real->samples);
            const auto b = sortedSamples(fake->samples);
            ASSERT_EQ(a.size(), b.size());
            for (std::size_t i = 0; i < a.size(); ++i) {
                EXPECT_EQ(a[i].labels, b[i].labels);
                EXPECT_DOUBLE_EQ(a[i].timestamp, b[i].timestamp);
                EXPECT_DOUBLE_EQ(a[i].value, b[i].value);
            }
        }
        SCOPED_TRACE(query + " range");
        const auto real = client().rangeQuery(query, tick(0) - 120, tick(120) + 400, 97);
        const auto fake = simulated.rangeQuery(query, tick(0) - 120, tick(120) + 400, 97);
        ASSERT_TRUE(real) << real.error().message;
        ASSERT_TRUE(fake) << fake.error().message;
        ASSERT_EQ(real->series.size(), fake->series.size());
        for (std::size_t i = 0; i < real->series.size(); ++i) {
            EXPECT_EQ(real->series[i].labels, fake->series[i].labels);
            EXPECT_EQ(real->series[i].points, fake->series[i].points);
        }
    }
}

} // namespace
} // namespace strata::prometheus::test
