// "Why is this job pending?" and "Why is this GPU idle?" from the simulators through a real
// Engine: the demo estate's aks-gpu triage workloads (the allegro.ai pair against the capped ANF
// volume criteo-data, an idle notebook, jobs held by fair share, an unbound PVC and an image that
// cannot be pulled), a job no node has room for on the AKS preset, and `strata why`.

#include "app/cli/cli.h"
#include "demo/demoestate.h"
#include "models/core/domain/clock.h"
#include "models/core/domain/estate.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/diagnosisservice.h"
#include "models/core/services/historyservice.h"
#include "models/core/store/credentialstore.h"
#include "simulators/common/serverthread.h"
#include "simulators/kubernetes/kubesimulator.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using namespace strata;

namespace {

constexpr int kDiagnosisTimeoutMs = 60000;

QString jobId(const char *name)
{
    return QStringLiteral("ml-team/") + QLatin1String(name);
}

QStringList rules(const core::JobDiagnosis &d)
{
    QStringList out;
    for (const core::DiagnosisFinding &f : d.findings) {
        out << f.rule;
    }
    return out;
}

std::string describe(const core::JobDiagnosis &d)
{
    return QJsonDocument(core::diagnosisToJson(d)).toJson(QJsonDocument::Compact).toStdString();
}

/// The whole demo estate polled by one Engine, as the desktop app and `strata --demo` see it.
class DiagnosisDemo : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        auto started = demo::DemoEstate::start({});
        ASSERT_TRUE(started) << started.error().message.toStdString();
        s_demo = started->release();
        s_clock = new core::SystemClock;
        s_engine = new core::Engine(core::Engine::Deps{*s_clock, s_demo->credentials(), nullptr, QStringLiteral("t")});
        s_engine->setSources(s_demo->config().sources);
        ASSERT_TRUE(QTest::qWaitFor(
            [] {
                return s_engine->allPolledOnce();
            },
            kDiagnosisTimeoutMs));
    }

    static void TearDownTestSuite()
    {
        delete s_engine;
        s_engine = nullptr;
        delete s_demo;
        s_demo = nullptr;
        delete s_clock;
        s_clock = nullptr;
    }

    /// Waits until the diagnosis of `name` on aks-gpu satisfies `ok` (polls land over time).
    static core::JobDiagnosis waitFor(const char *name, const std::function<bool(const core::JobDiagnosis &)> &ok)
    {
        core::JobDiagnosis d;
        (void)QTest::qWaitFor(
            [&] {
                d = core::diagnoseJob(
                    s_engine->estate(), QStringLiteral("aks-gpu"), jobId(name), s_engine->clock().now());
                return ok(d);
            },
            kDiagnosisTimeoutMs);
        return d;
    }

    static inline core::SystemClock *s_clock = nullptr;
    static inline demo::DemoEstate *s_demo = nullptr;
    static inline core::Engine *s_engine = nullptr;
};

} // namespace

TEST_F(DiagnosisDemo, UncachedTwinIsDataBoundAgainstTheAnfCap)
{
    const core::JobDiagnosis d = waitFor(demo::DemoEstate::kUncachedTrainJob, [](const core::JobDiagnosis &d) {
        return d.verdict == core::Verdict::DataBound;
    });
    ASSERT_EQ(d.verdict, core::Verdict::DataBound) << describe(d);
    EXPECT_DOUBLE_EQ(d.gpuUtilization, 58.1);
    EXPECT_EQ(d.storageSource, QStringLiteral("ai-lab"));
    EXPECT_TRUE(d.volumeName.endsWith(QStringLiteral("criteo-data"))) << describe(d);
    // criteo-data's Standard pool caps it at 16 MiB/s x 1 TiB ... its demand (~40 MiB/s) is above.
    EXPECT_GT(d.capMBps, 0);
    EXPECT_GE(d.throughputMBps, core::kNearCapRatio * d.capMBps) << describe(d);
    ASSERT_FALSE(d.findings.isEmpty());
    EXPECT_EQ(d.findings.front().rule, QStringLiteral("storage_at_cap"));
    EXPECT_EQ(d.findings.front().actionKind, QStringLiteral("change_service_level"));
    EXPECT_TRUE(rules(d).contains(QStringLiteral("uncached")));
    EXPECT_FALSE(d.cached);
}

TEST_F(DiagnosisDemo, CachedTwinIsComputeBound)
{
    const core::JobDiagnosis d = waitFor(demo::DemoEstate::kCachedTrainJob, [](const core::JobDiagnosis &d) {
        return d.verdict == core::Verdict::ComputeBound;
    });
    ASSERT_EQ(d.verdict, core::Verdict::ComputeBound) << describe(d);
    EXPECT_DOUBLE_EQ(d.gpuUtilization, 97.3);
    EXPECT_TRUE(d.headline.contains(QStringLiteral("not a problem")));
    EXPECT_TRUE(d.nextAction.isEmpty());
}

TEST_F(DiagnosisDemo, IdleNotebookIsAnIdleSession)
{
    const core::JobDiagnosis d = waitFor(demo::DemoEstate::kIdleNotebook, [](const core::JobDiagnosis &d) {
        return d.verdict == core::Verdict::IdleSession;
    });
    ASSERT_EQ(d.verdict, core::Verdict::IdleSession) << describe(d);
    EXPECT_EQ(d.type, core::JobType::Interactive);
    EXPECT_LT(d.gpuUtilization, core::kIdlePercent);
    EXPECT_EQ(d.findings.front().actionKind, QStringLiteral("end_session"));
}

TEST_F(DiagnosisDemo, JobOverFairShareIsHeldByTheFairShareRule)
{
    const core::JobDiagnosis d = waitFor(demo::DemoEstate::kFairShareJob, [](const core::JobDiagnosis &d) {
        return !d.findings.isEmpty();
    });
    ASSERT_EQ(d.verdict, core::Verdict::Pending) << describe(d);
    ASSERT_EQ(rules(d), (QStringList{QStringLiteral("fair_share"), QStringLiteral("no_node_fits")})) << describe(d);
    // ml-team's quota is 3; the pair, the notebook and bert-serve hold all 3.
    EXPECT_EQ(d.findings.front().summary,
              QStringLiteral("Project ml-team holds 3 of its 3 guaranteed GPUs and its fair share is 3; this job asks "
                             "for 1 more."));
}

TEST_F(DiagnosisDemo, JobWithUnboundPvcNamesTheClassNobodyProvisions)
{
    const core::JobDiagnosis d = waitFor(demo::DemoEstate::kUnboundPvcJob, [](const core::JobDiagnosis &d) {
        return !d.findings.isEmpty();
    });
    ASSERT_EQ(d.verdict, core::Verdict::Pending) << describe(d);
    ASSERT_FALSE(d.findings.isEmpty());
    EXPECT_EQ(d.findings.front().rule, QStringLiteral("pvc_unbound"));
    EXPECT_TRUE(d.findings.front().summary.contains(QStringLiteral("azure-netapp-ultra"))) << describe(d);
    EXPECT_EQ(d.findings.front().actionTarget, QStringLiteral("ml-team/scratch-ultra"));
    // The simulator held it back from the scheduler like the volume-binding filter does.
    const auto pod = s_engine->estate().jobs().find(
        QStringLiteral("aks-gpu"), QStringLiteral("aks-gpu/") + jobId(demo::DemoEstate::kUnboundPvcJob));
    ASSERT_TRUE(pod);
    EXPECT_TRUE(pod->node.isEmpty());
}

TEST_F(DiagnosisDemo, JobWithUnpullableImageIsHeldByTheImagePull)
{
    const core::JobDiagnosis d = waitFor(demo::DemoEstate::kImagePullJob, [](const core::JobDiagnosis &d) {
        return !d.findings.isEmpty() && d.findings.front().summary.contains(QStringLiteral("not found"));
    });
    ASSERT_EQ(d.verdict, core::Verdict::Pending) << describe(d);
    EXPECT_EQ(d.status, core::JobStatus::ContainerCreating);
    ASSERT_EQ(rules(d), QStringList{QStringLiteral("image_pull")}) << describe(d);
    EXPECT_TRUE(d.findings.front().summary.contains(QStringLiteral("nvcr.io/nvidia/pytorch:24.13-py3")));
    // The kubelet's own events are in the estate.
    bool backOff = false;
    for (const auto &e : s_engine->estate().events().all()) {
        backOff = backOff || (e->source == QStringLiteral("aks-gpu") && e->name == QStringLiteral("BackOff"));
    }
    EXPECT_TRUE(backOff);
}

TEST_F(DiagnosisDemo, TheAsyncHelperReadsTheVolumeHistory)
{
    QTemporaryDir dir;
    core::HistoryService history(
        std::make_unique<core::SqlHistoryStore>(dir.filePath(QStringLiteral("h.sqlite")), *s_clock));
    // The job, its claim and the claim's volume arrive in separate lists after the first polls,
    // as the other tests here wait for.
    core::JobVolume where;
    (void)QTest::qWaitFor(
        [&] {
            where = core::jobVolume(
                s_engine->estate(), QStringLiteral("aks-gpu"), jobId(demo::DemoEstate::kUncachedTrainJob));
            return !where.volumeId.isEmpty();
        },
        kDiagnosisTimeoutMs);
    ASSERT_FALSE(where.volumeId.isEmpty());
    // The hour before a day ago, as a bundle's frozen clock would say: the window ends there,
    // not at the wall clock's now (where the store has nothing).
    const QDateTime now = QDateTime::currentDateTimeUtc().addDays(-1);
    for (int i = 3; i >= 1; --i) {
        core::VolumePerfSample s;
        s.volumeId = where.volumeId;
        s.throughputBps = 13.0e6 + 1.0e6 * i; // distinct: the store keeps changes (and a heartbeat)
        s.latencyUs = 1000.0 * i;
        history.recordVolumePerf(where.source, {s}, now.addSecs(-600 * i));
    }
    history.flush();
    std::optional<core::JobDiagnosis> got;
    QObject context;
    core::diagnoseJobAsync(s_engine->estate(),
                           &history,
                           QStringLiteral("aks-gpu"),
                           jobId(demo::DemoEstate::kUncachedTrainJob),
                           now,
                           &context,
                           [&](core::JobDiagnosis d) {
                               got = std::move(d);
                           });
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return got.has_value();
        },
        kDiagnosisTimeoutMs));
    ASSERT_GE(got->series.size(), 3);
    EXPECT_NEAR(got->series.at(0).throughputMBps, 16.0, 0.01);
    EXPECT_NEAR(got->series.at(0).latencyMs, 3.0, 0.01);
    EXPECT_NEAR(got->series.at(2).throughputMBps, 14.0, 0.01);
}

// The AKS preset on its own: three nodes with one V100 each, ml-team's quota 3.
TEST(DiagnosisSim, NoNodeHasTwoFreeGpusTogether)
{
    sim::ServerThread thread;
    sim::kube::KubeSimulatorOptions options;
    options.preset = sim::kube::KubeSimulatorOptions::Preset::Aks;
    options.tickInterval = std::chrono::milliseconds(0);
    QString error;
    sim::kube::KubeSimulator *simulator = sim::kube::KubeSimulator::startOnThread(thread, options, &error);
    ASSERT_NE(simulator, nullptr) << error.toStdString();
    for (const auto &[name, gpus] : {std::pair{"small", 1000}, std::pair{"wide", 2000}}) {
        sim::kube::KubeJobSpec spec;
        spec.namespace_ = QStringLiteral("ml-team");
        spec.queue = QStringLiteral("ml-team");
        spec.name = QLatin1String(name);
        spec.gpuMilli = gpus;
        ASSERT_TRUE(
            simulator->createObject(QStringLiteral("jobs"), sim::kube::KubeSimulator::jobManifest(spec), &error))
            << error.toStdString();
        simulator->tick(5);
    }

    QTemporaryDir dir;
    const QString caFile = dir.filePath(QStringLiteral("ca.pem"));
    QFile f(caFile);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(simulator->caPem());
    f.close();
    core::InMemoryCredentialStore credentials;
    credentials.set(core::credentialKey(QStringLiteral("aks")), simulator->token());
    core::SystemClock clock;
    core::Engine engine(core::Engine::Deps{clock, credentials, nullptr, QStringLiteral("t")});
    core::SourceConfig s;
    s.name = QStringLiteral("aks");
    s.kind = core::SourceKind::Kubernetes;
    s.url = simulator->baseUrl();
    s.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(s.name)};
    s.caFile = caFile;
    engine.setSources({s});
    core::JobDiagnosis d;
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            d = core::diagnoseJob(engine.estate(), QStringLiteral("aks"), QStringLiteral("ml-team/wide"), clock.now());
            return !d.findings.isEmpty();
        },
        kDiagnosisTimeoutMs))
        << describe(d);
    EXPECT_EQ(d.verdict, core::Verdict::Pending);
    // 1 + 2 is within the quota of 3: the node shape alone holds it.
    ASSERT_EQ(rules(d), QStringList{QStringLiteral("no_node_fits")}) << describe(d);
    EXPECT_TRUE(d.findings.front().summary.contains(QStringLiteral("largest free block is 1 GPU on aks-gpupool")))
        << describe(d);
    EXPECT_TRUE(d.findings.front().summary.contains(QStringLiteral("2 free in the cluster")));
    EXPECT_EQ(d.findings.front().actionKind, QStringLiteral("reduce_request"));
    const core::JobDiagnosis small =
        core::diagnoseJob(engine.estate(), QStringLiteral("aks"), QStringLiteral("ml-team/small"), clock.now());
    EXPECT_NE(small.verdict, core::Verdict::Pending);
}

namespace {

struct WhyCliRun
{
    int code = -1;
    QString out;
    QString err;
};

WhyCliRun runWhyDemo(QStringList args)
{
    core::InMemoryCredentialStore unused;
    WhyCliRun r;
    QTextStream out(&r.out);
    QTextStream err(&r.err);
    args.prepend(QStringLiteral("--demo"));
    r.code = cli::run(args,
                      unused,
                      cli::Console{QStringLiteral("strata"), QStringLiteral("cli-test"), out, err},
                      cli::RunHooks{.answered = {}, .startDemo = strata::demo::startScopedForCommand});
    out.flush();
    err.flush();
    return r;
}

} // namespace

TEST(CliWhy, DemoPairIsDataBoundUncachedAndComputeBoundCached)
{
    const WhyCliRun uncached = runWhyDemo({QStringLiteral("why"),
                                           QStringLiteral("ml-team/ctr-train-uncached"),
                                           QStringLiteral("-o"),
                                           QStringLiteral("json")});
    ASSERT_EQ(uncached.code, 0) << uncached.err.toStdString();
    const QJsonObject a = QJsonDocument::fromJson(uncached.out.toUtf8()).object();
    EXPECT_EQ(a.value(QStringLiteral("verdict")).toString(), QStringLiteral("data_bound"))
        << uncached.out.toStdString();
    EXPECT_DOUBLE_EQ(a.value(QStringLiteral("gpu_utilization")).toDouble(), 58.1);
    EXPECT_EQ(a.value(QStringLiteral("findings")).toArray().at(0).toObject().value(QStringLiteral("rule")).toString(),
              QStringLiteral("storage_at_cap"));

    // A unique job name works without the namespace, and a table is the default.
    const WhyCliRun cached = runWhyDemo(
        {QStringLiteral("why"), QStringLiteral("ctr-train-cached"), QStringLiteral("-o"), QStringLiteral("json")});
    ASSERT_EQ(cached.code, 0) << cached.err.toStdString();
    const QJsonObject b = QJsonDocument::fromJson(cached.out.toUtf8()).object();
    EXPECT_EQ(b.value(QStringLiteral("verdict")).toString(), QStringLiteral("compute_bound"))
        << cached.out.toStdString();
    EXPECT_DOUBLE_EQ(b.value(QStringLiteral("gpu_utilization")).toDouble(), 97.3);
}

TEST(CliWhy, UnknownJobExitsOneAndUsageTwo)
{
    const WhyCliRun unknown = runWhyDemo({QStringLiteral("why"), QStringLiteral("ml-team/nope")});
    EXPECT_EQ(unknown.code, 1);
    EXPECT_TRUE(unknown.err.contains(QStringLiteral("no job ml-team/nope"))) << unknown.err.toStdString();
    const WhyCliRun usage = runWhyDemo({QStringLiteral("why")});
    EXPECT_EQ(usage.code, 2);
}
