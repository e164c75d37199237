// /metrics (web::prometheusText) over a hand-published estate: exact values per family, label
// escaping, no duplicate series, stable order; then real peers: Debian's `promtool check metrics`
// accepts (and lints) the output, and a real Prometheus 2.x scrapes a QHttpServer serving it and
// answers PromQL queries with the published values, escaped labels included.
// The real-peer tests skip when prometheus/promtool are absent, unless STRATA_REQUIRE_ALL is set.
// Also strata-server's own process, poll and live-delivery figures (runtimeMetricsText).
#include "web/metrics.h"

#include "models/core/runtime/engine.h"
#include "models/core/services/capacityforecast.h"
#include "models/core/store/credentialstore.h"
#include "models/rows/forecastrows.h"
#include "models/rows/resources.h"
#include "tests/support/qt/manualclock.h"

#include <QEventLoop>
#include <QFile>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

#include <gtest/gtest.h>

#include <cmath>

namespace strata::web::test {
namespace {

using namespace core;

template <class T> std::shared_ptr<const KeyedList<T>> listOf(std::vector<T> items)
{
    std::vector<Ptr<T>> ptrs;
    for (T &item : items) {
        ptrs.push_back(std::make_shared<const T>(std::move(item)));
    }
    return std::make_shared<const KeyedList<T>>(std::move(ptrs));
}

Project project(const QString &name, MilliGpu quota, MilliGpu allocated, double utilization)
{
    Project p;
    p.source = QStringLiteral("k8s-ai");
    p.id = p.name = name;
    p.namespaceName = QStringLiteral("runai-") + name;
    p.quota = quota;
    p.allocated = allocated;
    p.inQuota = std::min(allocated, std::max<MilliGpu>(quota, 0));
    p.overQuota = std::max<MilliGpu>(0, allocated - std::max<MilliGpu>(quota, 0));
    p.utilization = utilization;
    return p;
}

Volume
volume(const QString &source, const QString &id, const QString &svm, const QString &name, qint64 size, qint64 used)
{
    Volume v;
    v.source = source;
    v.id = id;
    v.svm = svm;
    v.name = name;
    v.sizeBytes = size;
    v.usedBytes = used;
    return v;
}

/// The estate every test reads: one GPU cluster with three projects, ONTAP volumes (one with a
/// performance sample, one with characters that need escaping, two ANF-style twins), a cache
/// target with cached commits in three states.
void publishEstate(Estate &estate)
{
    GpuCluster cluster;
    cluster.source = cluster.id = QStringLiteral("k8s-ai");
    cluster.name = QStringLiteral("dgx");
    cluster.gpuTotal = 16000;
    cluster.gpuAllocated = 9600;

    GpuNode node;
    node.source = QStringLiteral("k8s-ai");
    node.id = node.name = QStringLiteral("dgx-01");
    node.allocatable = 8000;
    node.allocated = 7600;
    node.utilization = 62.5;
    GpuNode cold = node;
    cold.id = cold.name = QStringLiteral("dgx-02");
    cold.allocated = 2000;
    cold.utilization = -1;

    Project a = project(QStringLiteral("team-a"), 2000, 2600, 37.5);
    a.idleAllocated = 600;
    a.pending = 1000;
    a.runningJobs = 3;
    a.queuedJobs = 1;
    Project b = project(QStringLiteral("team-b"), 4000, 7000, -1);
    b.runningJobs = 5;
    Project c = project(QStringLiteral("interns"), -1, 0, -1);

    ComputePublish compute;
    compute.clusters = listOf<GpuCluster>({cluster});
    compute.nodes = listOf<GpuNode>({cold, node});
    compute.projects = listOf<Project>({b, c, a});
    estate.publishCompute(QStringLiteral("k8s-ai"), compute);

    estate.publishVolumes(QStringLiteral("ontap-ai"),
                          listOf<Volume>({
                              volume(QStringLiteral("ontap-ai"),
                                     QStringLiteral("u-2"),
                                     QStringLiteral("svm1"),
                                     QStringLiteral("imagenet"),
                                     107374182400,
                                     53687091200),
                              volume(QStringLiteral("ontap-ai"),
                                     QStringLiteral("u-1"),
                                     QStringLiteral("svm1"),
                                     QStringLiteral("odd \"q\" \\ back\nline"),
                                     1000,
                                     10),
                          }));
    VolumePerf perf;
    perf.source = QStringLiteral("ontap-ai");
    perf.id = QStringLiteral("u-2");
    perf.readIops = 1200;
    perf.writeIops = 300.5;
    perf.totalIops = 1500.5;
    perf.throughputBps = 524288000;
    perf.latencyUs = 250;
    estate.publishVolumePerf(QStringLiteral("ontap-ai"), listOf<VolumePerf>({perf}));

    // Two ANF volumes of the same name in one account (different pools): both must be kept.
    estate.publishVolumes(QStringLiteral("anf"),
                          listOf<Volume>({
                              volume(QStringLiteral("anf"),
                                     QStringLiteral("fs-1"),
                                     QStringLiteral("acct"),
                                     QStringLiteral("data"),
                                     4398046511104,
                                     0),
                              volume(QStringLiteral("anf"),
                                     QStringLiteral("fs-2"),
                                     QStringLiteral("acct"),
                                     QStringLiteral("data"),
                                     2199023255552,
                                     1),
                          }));

    CacheTarget target;
    target.source = QStringLiteral("k8s-ai");
    target.id = QStringLiteral("cache_01");
    target.capacityBytes = 1099511627776;
    target.usedBytes = 300000000000;
    target.cachedBytes = 290200000000;
    std::vector<CachedCommit> commits;
    for (const auto &[commit, state] : {std::pair{"c1", CacheState::Ready},
                                        std::pair{"c2", CacheState::Ready},
                                        std::pair{"c3", CacheState::Loading},
                                        std::pair{"c4", CacheState::Failed}}) {
        CachedCommit cc;
        cc.source = QStringLiteral("k8s-ai");
        cc.target = QStringLiteral("cache_01");
        cc.commitId = QString::fromLatin1(commit);
        cc.id = cc.target + QLatin1Char('/') + cc.commitId;
        cc.state = state;
        commits.push_back(cc);
    }
    CachePublish caches;
    caches.targets = listOf<CacheTarget>({target});
    caches.cachedCommits = listOf<CachedCommit>(std::move(commits));
    estate.publishCaches(QStringLiteral("k8s-ai"), caches);
}

/// The sample lines of the exposition (no comments), as "name{labels} value".
QStringList samples(const QByteArray &text)
{
    QStringList out;
    for (const QString &line : QString::fromUtf8(text).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (!line.startsWith(QLatin1Char('#'))) {
            out.append(line);
        }
    }
    return out;
}

class MetricsTest : public ::testing::Test
{
protected:
    MetricsTest() { publishEstate(engine.estate()); }

    testsupport::ManualClock clock;
    InMemoryCredentialStore credentials;
    Engine engine{{clock, credentials, nullptr, QStringLiteral("tester")}};
};

TEST_F(MetricsTest, ProjectFamilies_ExactValuesInWholeGpus)
{
    const QStringList lines = samples(prometheusText(engine));
    for (const char *expected : {
             R"(strata_project_gpus_allocated{source="k8s-ai",project="team-a"} 2.6)",
             R"(strata_project_gpus_allocated{source="k8s-ai",project="team-b"} 7)",
             R"(strata_project_gpus_allocated{source="k8s-ai",project="interns"} 0)",
             R"(strata_project_gpu_quota{source="k8s-ai",project="team-a"} 2)",
             R"(strata_project_gpu_quota{source="k8s-ai",project="team-b"} 4)",
             R"(strata_project_gpus_over_quota{source="k8s-ai",project="team-a"} 0.6)",
             R"(strata_project_gpus_over_quota{source="k8s-ai",project="team-b"} 3)",
             R"(strata_project_gpus_idle_allocated{source="k8s-ai",project="team-a"} 0.6)",
             R"(strata_project_gpus_pending{source="k8s-ai",project="team-a"} 1)",
             R"(strata_project_gpu_utilization_ratio{source="k8s-ai",project="team-a"} 0.375)",
             R"(strata_project_jobs{source="k8s-ai",project="team-a",state="running"} 3)",
             R"(strata_project_jobs{source="k8s-ai",project="team-a",state="pending"} 1)",
             R"(strata_project_jobs{source="k8s-ai",project="team-b",state="running"} 5)",
             R"(strata_cluster_gpus{source="k8s-ai",cluster="dgx"} 16)",
             R"(strata_cluster_gpus_allocated{source="k8s-ai",cluster="dgx"} 9.6)",
             R"(strata_node_gpus_allocated{source="k8s-ai",node="dgx-01"} 7.6)",
             R"(strata_node_gpus_allocated{source="k8s-ai",node="dgx-02"} 2)",
             R"(strata_node_gpu_utilization_ratio{source="k8s-ai",node="dgx-01"} 0.625)",
         }) {
        EXPECT_TRUE(lines.contains(QString::fromUtf8(expected))) << expected;
    }
    // Unknown utilization and "no quota" are absent, not 0 or -1.
    for (const QString &line : lines) {
        EXPECT_FALSE(
            line.startsWith(QStringLiteral("strata_project_gpu_quota{source=\"k8s-ai\",project=\"interns\"}")));
        EXPECT_FALSE(line.startsWith(
            QStringLiteral("strata_project_gpu_utilization_ratio{source=\"k8s-ai\",project=\"team-b\"}")));
        EXPECT_FALSE(
            line.startsWith(QStringLiteral("strata_node_gpu_utilization_ratio{source=\"k8s-ai\",node=\"dgx-02\"}")));
        EXPECT_FALSE(line.endsWith(QStringLiteral(" -1")) || line.endsWith(QStringLiteral(" -0.01")))
            << line.toStdString();
    }
}

TEST_F(MetricsTest, VolumeAndCacheFamilies_ExactValues)
{
    const QStringList lines = samples(prometheusText(engine));
    for (const char *expected : {
             R"(strata_volume_size_bytes{source="ontap-ai",svm="svm1",volume="imagenet"} 107374182400)",
             R"(strata_volume_used_bytes{source="ontap-ai",svm="svm1",volume="imagenet"} 53687091200)",
             R"(strata_volume_read_iops{source="ontap-ai",svm="svm1",volume="imagenet"} 1200)",
             R"(strata_volume_write_iops{source="ontap-ai",svm="svm1",volume="imagenet"} 300.5)",
             R"(strata_volume_iops{source="ontap-ai",svm="svm1",volume="imagenet"} 1500.5)",
             R"(strata_volume_throughput_bytes_per_second{source="ontap-ai",svm="svm1",volume="imagenet"} 524288000)",
             R"(strata_volume_latency_seconds{source="ontap-ai",svm="svm1",volume="imagenet"} 0.00025)",
             R"(strata_cache_target_capacity_bytes{source="k8s-ai",target="cache_01"} 1099511627776)",
             R"(strata_cache_target_used_bytes{source="k8s-ai",target="cache_01"} 300000000000)",
             R"(strata_cache_target_cached_bytes{source="k8s-ai",target="cache_01"} 290200000000)",
             R"(strata_cached_commits{source="k8s-ai",target="cache_01",state="ready"} 2)",
             R"(strata_cached_commits{source="k8s-ai",target="cache_01",state="loading"} 1)",
             R"(strata_cached_commits{source="k8s-ai",target="cache_01",state="failed"} 1)",
             R"(strata_cached_commits{source="k8s-ai",target="cache_01",state="evicted"} 0)",
             R"(strata_cached_commits{source="k8s-ai",target="cache_01",state="requested"} 0)",
             R"(strata_cached_commits{source="k8s-ai",target="cache_01",state="evicting"} 0)",
             // Same svm and name: the second (by id) also carries its id.
             R"(strata_volume_size_bytes{source="anf",svm="acct",volume="data"} 4398046511104)",
             R"(strata_volume_size_bytes{source="anf",svm="acct",volume="data",volume_id="fs-2"} 2199023255552)",
         }) {
        EXPECT_TRUE(lines.contains(QString::fromUtf8(expected))) << expected;
    }
    // Only the sampled volume has performance series.
    EXPECT_EQ(lines.filter(QStringLiteral("strata_volume_read_iops{")).size(), 1);
}

TEST_F(MetricsTest, VolumeWithASnapshotReserve_UsedRatioIsOfTheActiveFileSystemAsOnThePages)
{
    // 300 GiB with a 5 % snapshot reserve, 250 GiB used: 250 of 285 GiB, as the volume rows,
    // the forecasts and the desktop show it; the reserve is its own series.
    constexpr qint64 gib = qint64(1) << 30;
    Volume reserved = volume(QStringLiteral("ontap-r"),
                             QStringLiteral("u-r"),
                             QStringLiteral("svm_ai"),
                             QStringLiteral("chest_xray"),
                             300 * gib,
                             250 * gib);
    reserved.snapshotReservePercent = 5;
    reserved.percentUsed = 88.0;
    engine.estate().publishVolumes(QStringLiteral("ontap-r"), listOf<Volume>({reserved}));
    const QStringList lines = samples(prometheusText(engine));
    const auto valueOf = [&](const QString &family) {
        const QString prefix = family + QStringLiteral(R"({source="ontap-r",svm="svm_ai",volume="chest_xray"} )");
        for (const QString &line : lines) {
            if (line.startsWith(prefix)) {
                return line.mid(prefix.size()).toDouble();
            }
        }
        ADD_FAILURE() << "no " << family.toStdString();
        return -1.0;
    };
    EXPECT_EQ(valueOf(QStringLiteral("strata_volume_size_bytes")), double(300 * gib));
    EXPECT_EQ(valueOf(QStringLiteral("strata_volume_usable_bytes")), double(285 * gib));
    EXPECT_EQ(valueOf(QStringLiteral("strata_volume_snapshot_reserve_bytes")), double(15 * gib));
    EXPECT_EQ(valueOf(QStringLiteral("strata_volume_used_bytes")), double(250 * gib));
    const double ratio = valueOf(QStringLiteral("strata_volume_used_ratio"));
    EXPECT_NEAR(ratio, 250.0 / 285.0, 1e-12);

    const QJsonObject row =
        rows::toJson(rows::volumeRows(engine.estate().volumes().all(QStringLiteral("ontap-r")))).first().toObject();
    EXPECT_EQ(row.value(QStringLiteral("percent_used")).toDouble(), std::round(ratio * 1000.0) / 10.0);
    const QJsonArray forecasts = rows::toJson(
        rows::forecastRows(forecastAll(forecastContainers(engine.estate()), {}, clock.now()), clock.now()));
    bool found = false;
    for (const QJsonValue &f : forecasts) {
        if (f[QStringLiteral("id")].toString() == QStringLiteral("u-r")) {
            found = true;
            EXPECT_EQ(f[QStringLiteral("percent_used")].toDouble(),
                      row.value(QStringLiteral("percent_used")).toDouble());
            EXPECT_EQ(f[QStringLiteral("capacity_bytes")].toDouble(), double(285 * gib));
        }
    }
    EXPECT_TRUE(found);
}

TEST_F(MetricsTest, LabelValues_AreEscaped)
{
    const QByteArray text = prometheusText(engine);
    EXPECT_TRUE(text.contains(
        "strata_volume_size_bytes{source=\"ontap-ai\",svm=\"svm1\",volume=\"odd \\\"q\\\" \\\\ back\\nline\"} 1000\n"))
        << text.toStdString();
    // A raw newline inside a value would split the sample: every line is a comment or a sample.
    for (const QByteArray &line : text.split('\n')) {
        if (line.isEmpty() || line.startsWith('#')) {
            continue;
        }
        EXPECT_TRUE(line.startsWith("strata_")) << line.toStdString();
    }
}

TEST_F(MetricsTest, Exposition_OneHelpAndTypePerFamily_NoDuplicateSeries_StableOrder)
{
    const QByteArray text = prometheusText(engine);
    QSet<QByteArray> helps, types, series;
    QByteArray currentFamily;
    for (const QByteArray &line : text.split('\n')) {
        if (line.isEmpty()) {
            continue;
        }
        if (line.startsWith("# HELP ")) {
            const QByteArray name = line.mid(7, line.indexOf(' ', 7) - 7);
            EXPECT_FALSE(helps.contains(name)) << name.toStdString();
            helps.insert(name);
            currentFamily = name;
        } else if (line.startsWith("# TYPE ")) {
            EXPECT_EQ(line, "# TYPE " + currentFamily + " gauge");
            types.insert(currentFamily);
        } else {
            const qsizetype brace = line.indexOf('{');
            ASSERT_GT(brace, 0) << line.toStdString();
            EXPECT_EQ(line.left(brace), currentFamily) << "sample outside its family: " << line.toStdString();
            const QByteArray key = line.left(line.lastIndexOf(' '));
            EXPECT_FALSE(series.contains(key)) << "duplicate series " << key.toStdString();
            series.insert(key);
        }
    }
    EXPECT_EQ(helps, types);
    EXPECT_TRUE(helps.contains("strata_project_gpu_quota"));
    EXPECT_TRUE(text.endsWith('\n'));
    // Sorted by source then name, so two scrapes of one estate are byte-identical.
    EXPECT_EQ(text, prometheusText(engine));
    const QByteArray quotas = text.mid(text.indexOf("strata_project_gpus_allocated{"));
    EXPECT_LT(quotas.indexOf("project=\"interns\""), quotas.indexOf("project=\"team-a\""));
    EXPECT_LT(quotas.indexOf("project=\"team-a\""), quotas.indexOf("project=\"team-b\""));
}

TEST_F(MetricsTest, Sources_UpHealthAndFailures)
{
    SourceConfig config;
    config.name = QStringLiteral("ontap-ai");
    config.kind = SourceKind::Ontap;
    config.url = QStringLiteral("https://127.0.0.1:9");
    config.username = QStringLiteral("admin");
    config.password = SecretRef{SecretRef::Kind::Keychain, credentialKey(config.name)};
    engine.setSources({config});

    // Before the secret lookup answers the source is unknown; then its password is missing.
    QStringList lines = samples(prometheusText(engine));
    EXPECT_TRUE(lines.contains(QStringLiteral(R"(strata_source_up{source="ontap-ai",kind="ontap"} 0)")));
    EXPECT_TRUE(
        lines.contains(QStringLiteral(R"(strata_source_health{source="ontap-ai",kind="ontap",health="unknown"} 1)")));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return engine.status(config.name)->health == Health::AuthRequired;
        },
        5000));
    lines = samples(prometheusText(engine));
    EXPECT_TRUE(lines.contains(QStringLiteral(R"(strata_source_up{source="ontap-ai",kind="ontap"} 0)")));
    EXPECT_TRUE(lines.contains(
        QStringLiteral(R"(strata_source_health{source="ontap-ai",kind="ontap",health="auth_required"} 1)")));
    EXPECT_TRUE(
        lines.contains(QStringLiteral(R"(strata_source_health{source="ontap-ai",kind="ontap",health="unknown"} 0)")));
    EXPECT_TRUE(
        lines.contains(QStringLiteral(R"(strata_source_consecutive_failures{source="ontap-ai",kind="ontap"} 0)")));
    EXPECT_EQ(lines.filter(QStringLiteral("strata_source_health{")).size(), 5);
    // Never succeeded: no last-success series rather than a 1970 timestamp.
    EXPECT_TRUE(lines.filter(QStringLiteral("strata_source_last_success_timestamp_seconds{")).isEmpty());
}

TEST_F(MetricsTest, AlertFamilies_PendingJobsCapsFailedLoadsAndConsoleUrl)
{
    Job waiting;
    waiting.source = QStringLiteral("k8s-ai");
    waiting.project = QStringLiteral("team-a");
    waiting.id = QStringLiteral("runai-team-a/train-7");
    waiting.status = JobStatus::Pending;
    waiting.created = clock.now().addSecs(-2400);
    Job running = waiting;
    running.id = QStringLiteral("runai-team-a/train-1");
    running.status = JobStatus::Running;
    ComputePublish compute;
    compute.jobs = listOf<Job>({running, waiting});
    engine.estate().publishCompute(QStringLiteral("k8s-ai"), compute);
    Volume capped = volume(QStringLiteral("anf"),
                           QStringLiteral("fs-1"),
                           QStringLiteral("acct"),
                           QStringLiteral("data"),
                           4398046511104,
                           0);
    capped.armId = QStringLiteral("/subscriptions/s/resourceGroups/rg/providers/Microsoft.NetApp/netAppAccounts/acct/"
                                  "capacityPools/p/volumes/data");
    capped.qosType = QStringLiteral("Manual");
    capped.throughputMibps = 250;
    engine.estate().publishVolumes(QStringLiteral("anf"), listOf<Volume>({capped}));

    const QStringList lines = samples(prometheusText(engine));
    for (const char *expected : {
             R"(strata_job_pending_seconds{source="k8s-ai",project="team-a",job_name="runai-team-a/train-7"} 2400)",
             R"(strata_cache_load_failed{source="k8s-ai",target="cache_01",dataset="",commit="c4"} 1)",
             R"(strata_volume_throughput_cap_bytes_per_second{source="anf",svm="acct",volume="data"} 262144000)",
         }) {
        EXPECT_TRUE(lines.contains(QString::fromUtf8(expected))) << expected;
    }
    // Only what a rule alerts on: no running job, no loaded commit, no volume without a cap.
    EXPECT_EQ(lines.filter(QStringLiteral("strata_job_pending_seconds{")).size(), 1);
    EXPECT_EQ(lines.filter(QStringLiteral("strata_cache_load_failed{")).size(), 1);
    EXPECT_EQ(lines.filter(QStringLiteral("strata_volume_throughput_cap_bytes_per_second{")).size(), 1);

    WebServerCounters counters;
    EXPECT_FALSE(webServerMetricsText(counters).contains("strata_console_info"));
    counters.publicUrl = QStringLiteral("https://strata.example.com");
    EXPECT_TRUE(
        webServerMetricsText(counters).contains("\nstrata_console_info{url=\"https://strata.example.com\"} 1\n"));
}

// strata-server's own figures: the process families under the client libraries' names, and the
// histograms as cumulative buckets with +Inf, _sum and _count.
TEST(RuntimeMetricsTest, Histograms_CumulativeBucketsSumAndCount_OrderedBySource)
{
    ServerTimings timings;
    timings.observePoll(QStringLiteral("ontap-b"), QStringLiteral("ontap"), 0.3);
    timings.observePoll(QStringLiteral("k8s-a"), QStringLiteral("kubernetes"), 0.02);
    timings.observePoll(QStringLiteral("k8s-a"), QStringLiteral("kubernetes"), 0.5);   // on a bound: le="0.5"
    timings.observePoll(QStringLiteral("k8s-a"), QStringLiteral("kubernetes"), 500.0); // past every bound
    timings.liveDelivery.observe(0.21);
    timings.liveDelivery.observe(-1); // a clock step: counted as 0

    const QByteArray text = runtimeMetricsText(ProcessFigures{}, timings);
    const QStringList lines = samples(text);
    const QString k8s =
        QStringLiteral("strata_source_poll_duration_seconds_bucket{source=\"k8s-a\",kind=\"kubernetes\",le=");
    EXPECT_TRUE(lines.contains(k8s + QStringLiteral("\"0.01\"} 0")));
    EXPECT_TRUE(lines.contains(k8s + QStringLiteral("\"0.025\"} 1")));
    EXPECT_TRUE(lines.contains(k8s + QStringLiteral("\"0.25\"} 1")));
    EXPECT_TRUE(lines.contains(k8s + QStringLiteral("\"0.5\"} 2")));
    EXPECT_TRUE(lines.contains(k8s + QStringLiteral("\"120\"} 2")));
    EXPECT_TRUE(lines.contains(k8s + QStringLiteral("\"+Inf\"} 3")));
    EXPECT_TRUE(lines.contains(
        QStringLiteral("strata_source_poll_duration_seconds_sum{source=\"k8s-a\",kind=\"kubernetes\"} 500.52")));
    EXPECT_TRUE(lines.contains(
        QStringLiteral("strata_source_poll_duration_seconds_count{source=\"k8s-a\",kind=\"kubernetes\"} 3")));
    EXPECT_TRUE(lines.contains(
        QStringLiteral("strata_source_poll_duration_seconds_count{source=\"ontap-b\",kind=\"ontap\"} 1")));
    EXPECT_LT(text.indexOf("source=\"k8s-a\""), text.indexOf("source=\"ontap-b\""));
    EXPECT_TRUE(lines.contains(QStringLiteral("strata_web_live_delivery_delay_seconds_bucket{le=\"0.005\"} 1")));
    EXPECT_TRUE(lines.contains(QStringLiteral("strata_web_live_delivery_delay_seconds_bucket{le=\"0.2\"} 1")));
    EXPECT_TRUE(lines.contains(QStringLiteral("strata_web_live_delivery_delay_seconds_bucket{le=\"0.25\"} 2")));
    EXPECT_TRUE(lines.contains(QStringLiteral("strata_web_live_delivery_delay_seconds_sum 0.21")));
    EXPECT_TRUE(lines.contains(QStringLiteral("strata_web_live_delivery_delay_seconds_count 2")));
    EXPECT_EQ(text.count("# TYPE strata_source_poll_duration_seconds histogram\n"), 1);
    // Unknown process figures are left out, not written as -1.
    EXPECT_FALSE(text.contains("process_"));
    EXPECT_EQ(text, runtimeMetricsText(ProcessFigures{}, timings));

    // A source removed from the config leaves /metrics.
    timings.keepSources({QStringLiteral("ontap-b")});
    EXPECT_FALSE(runtimeMetricsText(ProcessFigures{}, timings).contains("k8s-a"));
}

TEST(RuntimeMetricsTest, ProcessFigures_FollowThisProcessesMemoryCpuAndDescriptors)
{
    const ProcessFigures before = readProcessFigures();
    ASSERT_GT(before.residentBytes, 0);
    EXPECT_GE(before.virtualBytes, before.residentBytes);
    EXPECT_GT(before.openFds, 2); // stdin, stdout, stderr at least
    EXPECT_GE(before.maxFds, before.openFds);
    const double now = double(QDateTime::currentSecsSinceEpoch());
    EXPECT_LE(before.startTimeSeconds, now + 1);
    EXPECT_GT(before.startTimeSeconds, now - 86400.0) << "this test process started less than a day ago";

    // 64 MiB touched page by page is resident; CPU spent shows in the counter.
    constexpr qsizetype kBytes = qsizetype(64) << 20;
    std::vector<char> block(std::size_t(kBytes), 1);
    QFile descriptor(QStringLiteral("/proc/self/statm"));
    ASSERT_TRUE(descriptor.open(QIODevice::ReadOnly));
    volatile double spin = 0;
    const ProcessFigures cpuStart = readProcessFigures();
    while (readProcessFigures().cpuSeconds - cpuStart.cpuSeconds < 0.05) {
        for (int i = 0; i < 100000; ++i) {
            spin = spin + 1.0;
        }
    }
    const ProcessFigures after = readProcessFigures();
    EXPECT_GE(after.residentBytes - before.residentBytes, kBytes - (qsizetype(4) << 20)) << int(block[1000]);
    EXPECT_GE(after.openFds, before.openFds + 1) << "the file opened above";
    EXPECT_GT(after.cpuSeconds, before.cpuSeconds);

    const QStringList lines = samples(runtimeMetricsText(after, ServerTimings{}));
    EXPECT_TRUE(
        lines.contains(QStringLiteral("process_resident_memory_bytes ") + QString::number(after.residentBytes)));
    EXPECT_TRUE(lines.contains(QStringLiteral("process_open_fds ") + QString::number(after.openFds)));
}

// ---- Real peers ----

QString requiredTool(const QString &name, QString *missing)
{
    const QString path = QStandardPaths::findExecutable(name);
    if (path.isEmpty()) {
        *missing = name + QStringLiteral(" is needed (apt-get install prometheus)");
    }
    return path;
}

#define SKIP_OR_FAIL_WHEN_MISSING(missing)                                                                             \
    if (!(missing).isEmpty()) {                                                                                        \
        if (qEnvironmentVariableIsSet("STRATA_REQUIRE_ALL")) {                                                         \
            FAIL() << (missing).toStdString() << " (STRATA_REQUIRE_ALL is set)";                                       \
        }                                                                                                              \
        GTEST_SKIP() << (missing).toStdString();                                                                       \
    }

TEST_F(MetricsTest, Promtool_CheckMetrics_AcceptsTheExpositionWithoutLintProblems)
{
    QString missing;
    const QString promtool = requiredTool(QStringLiteral("promtool"), &missing);
    SKIP_OR_FAIL_WHEN_MISSING(missing);

    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(promtool, {QStringLiteral("check"), QStringLiteral("metrics")});
    ASSERT_TRUE(process.waitForStarted(10000));
    // The estate and the web server's own families, as /metrics serves them together.
    WebServerCounters counters;
    counters.refusedRequests["body_too_large"] = 3;
    counters.loginLockouts["global"] = 1;
    counters.connections = 7;
    counters.publicUrl = QStringLiteral("https://strata.example.com");
    ServerTimings timings;
    timings.observePoll(QStringLiteral("ontap-ai"), QStringLiteral("ontap"), 1.7);
    timings.liveDelivery.observe(0.23);
    process.write(prometheusText(engine) + webServerMetricsText(counters)
                  + runtimeMetricsText(readProcessFigures(), timings));
    process.closeWriteChannel();
    ASSERT_TRUE(process.waitForFinished(30000));
    const QByteArray output = process.readAll();
    // Exit 1 = unparsable, 3 = lint problems (promtool prints them).
    EXPECT_EQ(process.exitCode(), 0) << output.toStdString();
    EXPECT_TRUE(output.trimmed().isEmpty()) << output.toStdString();

    // The check can fail: a counter without _total is a lint problem it reports.
    QProcess bad;
    bad.setProcessChannelMode(QProcess::MergedChannels);
    bad.start(promtool, {QStringLiteral("check"), QStringLiteral("metrics")});
    ASSERT_TRUE(bad.waitForStarted(10000));
    bad.write("# HELP strata_x X.\n# TYPE strata_x counter\nstrata_x 1\n");
    bad.closeWriteChannel();
    ASSERT_TRUE(bad.waitForFinished(30000));
    EXPECT_NE(bad.exitCode(), 0);
}

struct HttpResult
{
    int status = 0;
    QByteArray body;
};

HttpResult httpGet(QNetworkAccessManager &manager, const QUrl &url)
{
    QNetworkRequest request(url);
    request.setTransferTimeout(5000);
    QNetworkReply *reply = manager.get(request);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    HttpResult result{reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), reply->readAll()};
    reply->deleteLater();
    return result;
}

/// A Prometheus 2.x on 127.0.0.1 scraping `target` every second.
class RealPrometheus
{
public:
    RealPrometheus(const QString &binary, quint16 target)
    {
        if (!m_dir.isValid()) {
            error = QStringLiteral("no temporary directory");
            return;
        }
        QFile config(m_dir.filePath(QStringLiteral("prometheus.yml")));
        if (!config.open(QIODevice::WriteOnly)) {
            error = QStringLiteral("cannot write prometheus.yml");
            return;
        }
        config.write(QStringLiteral("global:\n"
                                    "  scrape_interval: 1s\n"
                                    "  scrape_timeout: 1s\n"
                                    "scrape_configs:\n"
                                    "  - job_name: strata\n"
                                    "    static_configs:\n"
                                    "      - targets: ['127.0.0.1:%1']\n")
                         .arg(target)
                         .toUtf8());
        config.close();
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHost, 0)) {
            error = QStringLiteral("no free port");
            return;
        }
        const quint16 port = probe.serverPort();
        probe.close();
        baseUrl = QStringLiteral("http://127.0.0.1:%1").arg(port);
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.setWorkingDirectory(m_dir.path());
        m_process.start(binary,
                        {QStringLiteral("--config.file=") + config.fileName(),
                         QStringLiteral("--storage.tsdb.path=") + m_dir.filePath(QStringLiteral("data")),
                         QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(port)});
        if (!m_process.waitForStarted(10000)) {
            error = QStringLiteral("prometheus did not start: ") + m_process.errorString();
        }
    }

    ~RealPrometheus()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(10000)) {
                m_process.kill();
                m_process.waitForFinished(5000);
            }
        }
    }

    [[nodiscard]] QString log() { return QString::fromUtf8(m_process.readAll()); }
    [[nodiscard]] bool running() const { return m_process.state() == QProcess::Running; }

    QString error;
    QString baseUrl;

private:
    QTemporaryDir m_dir;
    QProcess m_process;
};

/// The vector result of an instant query, empty on any failure.
QJsonArray instantQuery(QNetworkAccessManager &manager, const QString &baseUrl, const QString &promql)
{
    QUrl url(baseUrl + QStringLiteral("/api/v1/query"));
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("query"), promql);
    url.setQuery(query);
    const HttpResult result = httpGet(manager, url);
    const QJsonObject root = QJsonDocument::fromJson(result.body).object();
    if (result.status != 200 || root.value(QStringLiteral("status")).toString() != QLatin1String("success")) {
        return {};
    }
    return root.value(QStringLiteral("data")).toObject().value(QStringLiteral("result")).toArray();
}

TEST_F(MetricsTest, RealPrometheus_ScrapesTheServedText_QueryReturnsQuotaAndEscapedLabels)
{
    QString missing;
    const QString binary = requiredTool(QStringLiteral("prometheus"), &missing);
    SKIP_OR_FAIL_WHEN_MISSING(missing);

    QHttpServer http;
    int scrapes = 0;
    http.route(QStringLiteral("/metrics"), [&] {
        ++scrapes;
        return QHttpServerResponse(QByteArray(kPrometheusContentType), prometheusText(engine));
    });
    const quint16 port = http.listen(QHostAddress::LocalHost, 0);
    ASSERT_NE(port, 0);

    RealPrometheus prometheus(binary, port);
    ASSERT_TRUE(prometheus.error.isEmpty()) << prometheus.error.toStdString();
    QNetworkAccessManager manager;

    // Ready, then the first successful scrape of the target (up == 1).
    QJsonArray up;
    const bool scraped = QTest::qWaitFor(
        [&] {
            if (!prometheus.running()) {
                return true;
            }
            up = instantQuery(manager, prometheus.baseUrl, QStringLiteral(R"(up{job="strata"})"));
            return !up.isEmpty()
                   && up.at(0).toObject().value(QStringLiteral("value")).toArray().at(1).toString()
                          == QLatin1String("1");
        },
        30000);
    ASSERT_TRUE(scraped && prometheus.running()) << prometheus.log().toStdString();
    EXPECT_GE(scrapes, 1);

    const auto valueOf = [](const QJsonObject &sample) {
        return sample.value(QStringLiteral("value")).toArray().at(1).toString();
    };
    QJsonArray quota = instantQuery(
        manager, prometheus.baseUrl, QStringLiteral(R"(strata_project_gpu_quota{source="k8s-ai",project="team-a"})"));
    ASSERT_EQ(quota.size(), 1) << prometheus.log().toStdString();
    const QJsonObject sample = quota.at(0).toObject();
    EXPECT_EQ(valueOf(sample), QStringLiteral("2"));
    const QJsonObject metric = sample.value(QStringLiteral("metric")).toObject();
    EXPECT_EQ(metric.value(QStringLiteral("job")).toString(), QStringLiteral("strata"));
    EXPECT_EQ(metric.value(QStringLiteral("instance")).toString(), QStringLiteral("127.0.0.1:%1").arg(port));

    // PromQL over the joined view: GPUs over quota summed across projects (0.6 + 3).
    const QJsonArray over = instantQuery(manager,
                                         prometheus.baseUrl,
                                         QStringLiteral("sum(strata_project_gpus_allocated - "
                                                        "strata_project_gpu_quota > 0)"));
    ASSERT_EQ(over.size(), 1);
    EXPECT_EQ(valueOf(over.at(0).toObject()), QStringLiteral("3.6"));

    // The escaped label comes back as the original string.
    const QJsonArray odd = instantQuery(
        manager, prometheus.baseUrl, QStringLiteral(R"(strata_volume_size_bytes{source="ontap-ai",svm="svm1"})"));
    QStringList names;
    for (const QJsonValue &v : odd) {
        names.append(
            v.toObject().value(QStringLiteral("metric")).toObject().value(QStringLiteral("volume")).toString());
    }
    EXPECT_TRUE(names.contains(QStringLiteral("odd \"q\" \\ back\nline")))
        << names.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(names.contains(QStringLiteral("imagenet")));

    // A change in the estate reaches Prometheus with the next scrape.
    Project changed = project(QStringLiteral("team-a"), 5000, 2600, 37.5);
    ComputePublish next;
    next.projects = listOf<Project>({changed});
    engine.estate().publishCompute(QStringLiteral("k8s-ai"), next);
    const bool updated = QTest::qWaitFor(
        [&] {
            quota = instantQuery(manager,
                                 prometheus.baseUrl,
                                 QStringLiteral(R"(strata_project_gpu_quota{source="k8s-ai",project="team-a"})"));
            return quota.size() == 1 && valueOf(quota.at(0).toObject()) == QLatin1String("5");
        },
        15000);
    EXPECT_TRUE(updated) << prometheus.log().toStdString();
}

} // namespace
} // namespace strata::web::test
