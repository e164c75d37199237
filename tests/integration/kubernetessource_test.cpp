// The model layer against the Kubernetes simulator over real HTTPS with a bearer token: list then
// watch, the TR-4858 golden tables (SCHEDULING.md 3.5) as the GPU chart and the job queue read
// them from the estate, job submit/delete and quota actions through the action framework, PVCs
// joined to storage, DCGM utilization from the simulator's Prometheus API, and faults.

#include "app/cli/cli.h"
#include "demo/demoscenario.h"
#include "models/core/domain/clock.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/historyservice.h"
#include "models/core/sources/source.h"
#include "models/core/store/credentialstore.h"
#include "simulators/common/serverthread.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "simulators/kubernetes/tr4858.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using namespace strata;
namespace tr = strata::sim::kube::tr4858;

namespace {

constexpr auto kSourceKubernetessource = "dgx";

class KubernetesSourceTest : public ::testing::Test
{
protected:
    sim::ServerThread thread;
    sim::kube::KubeSimulator *simulator = nullptr;
    QTemporaryDir dir;
    QString caFile;
    core::InMemoryCredentialStore credentials;
    core::SystemClock clock;
    std::unique_ptr<core::HistoryService> history;
    std::unique_ptr<core::Engine> engine;

    void startSimulator(sim::kube::KubeSimulatorOptions options = {})
    {
        options.tickInterval = std::chrono::milliseconds(0); // the test drives simulated time
        QString error;
        simulator = sim::kube::KubeSimulator::startOnThread(thread, options, &error);
        ASSERT_NE(simulator, nullptr) << error.toStdString();
        caFile = dir.filePath(QStringLiteral("ca.pem"));
        QFile f(caFile);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(simulator->caPem());
        f.close();
        credentials.set(core::credentialKey(QString::fromLatin1(kSourceKubernetessource)), simulator->token());
        history = std::make_unique<core::HistoryService>(
            std::make_unique<core::SqlHistoryStore>(dir.filePath(QStringLiteral("h.sqlite")), clock));
        engine = std::make_unique<core::Engine>(
            core::Engine::Deps{clock, credentials, history.get(), QStringLiteral("tester")});
    }

    void TearDown() override
    {
        engine.reset();
        history.reset();
    }

    core::SourceConfig sourceConfig() const
    {
        core::SourceConfig s;
        s.name = QString::fromLatin1(kSourceKubernetessource);
        s.kind = core::SourceKind::Kubernetes;
        s.url = simulator->baseUrl();
        s.password = core::SecretRef{core::SecretRef::Kind::Keychain,
                                     core::credentialKey(QString::fromLatin1(kSourceKubernetessource))};
        s.caFile = caFile;
        s.prometheusUrl = simulator->prometheusUrl();
        s.perfIntervalSeconds = 5;
        return s;
    }

    static bool waitFor(const std::function<bool()> &done, int timeoutMs = 20000)
    {
        return QTest::qWaitFor(done, timeoutMs);
    }

    void startAndWait()
    {
        engine->setSources({sourceConfig()});
        ASSERT_TRUE(waitFor([&] {
            return engine->allPolledOnce();
        })) << "first full view never published: "
            << engine->status(QString::fromLatin1(kSourceKubernetessource))->lastError.toStdString();
    }

    core::Ptr<core::Project> project(const QString &name) const
    {
        return engine->estate().projects().find(QString::fromLatin1(kSourceKubernetessource),
                                                QString::fromLatin1(kSourceKubernetessource) + QLatin1Char('/') + name);
    }

    core::Ptr<core::Job> job(const QString &ns, const QString &name) const
    {
        return engine->estate().jobs().find(QString::fromLatin1(kSourceKubernetessource),
                                            QString::fromLatin1(kSourceKubernetessource) + QLatin1Char('/') + ns
                                                + QLatin1Char('/') + name);
    }

    /// "team-a 4/4 q0, team-b 4/2 q0, ..." as the GPU chart and queue counters show it.
    std::string chart() const
    {
        QStringList parts;
        for (const char *name : {"team-a", "team-b", "team-c", "team-d"}) {
            const auto p = project(QString::fromLatin1(name));
            parts << (p ? QStringLiteral("%1 %2/%3 q%4")
                              .arg(p->name, core::formatGpus(p->allocated), core::formatGpus(p->quota))
                              .arg(p->queuedJobs)
                        : QString::fromLatin1(name) + QStringLiteral(" missing"));
        }
        return parts.join(QStringLiteral(", ")).toStdString();
    }

    static std::string expectedChart(const std::vector<tr::ExpectedProject> &expected)
    {
        QStringList parts;
        for (const tr::ExpectedProject &e : expected) {
            parts << QStringLiteral("%1 %2/%3 q%4")
                         .arg(QString::fromStdString(e.project),
                              core::formatGpus(e.allocated),
                              core::formatGpus(e.quota))
                         .arg(e.queued);
        }
        return parts.join(QStringLiteral(", ")).toStdString();
    }

    const core::ActionRecord *runAction(const core::ActionRequest &request)
    {
        const core::ActionPreview preview = engine->actions().preview(request);
        EXPECT_TRUE(preview.allowed()) << preview.blockedReason.toStdString();
        QString error;
        const auto idSubmitted = engine->actions().submit(request);
        const QString id = idSubmitted ? *idSubmitted : QString();
        if (!idSubmitted) {
            error = idSubmitted.error().message;
        }
        EXPECT_FALSE(id.isEmpty()) << error.toStdString();
        EXPECT_TRUE(waitFor([&] {
            return engine->actions().find(id)->state != core::ActionState::Running;
        }));
        return engine->actions().find(id);
    }
};

TEST_F(KubernetesSourceTest, FirstViewShowsTheSection48EndStateAsThePaperPrintsIt)
{
    startSimulator();
    startAndWait();
    const std::vector<tr::ScenarioStep> all = tr::allSteps();
    const std::size_t last48 = tr::section48().size() - 1;
    EXPECT_EQ(chart(), expectedChart(tr::expectedAfter(last48)));

    const auto clusters = engine->estate().gpuClusters().all();
    ASSERT_EQ(clusters.size(), 1u);
    EXPECT_EQ(clusters[0]->gpuTotal, 16000);
    EXPECT_EQ(clusters[0]->gpuAllocated, 16000);
    EXPECT_EQ(clusters[0]->quotaTotal, 16000);
    EXPECT_TRUE(clusters[0]->hasKai);
    EXPECT_EQ(clusters[0]->runningJobs, 13);
    EXPECT_EQ(clusters[0]->pendingJobs, 0);

    // Fractions pack one physical GPU: 0.6 + 0.4 fill a GPU exactly.
    const auto b1 = job(QStringLiteral("runai-team-b"), QStringLiteral("b-1-g06"));
    ASSERT_TRUE(b1);
    EXPECT_EQ(b1->gpusAllocated, 600);
    EXPECT_EQ(b1->status, core::JobStatus::Running);
    const auto node =
        engine->estate().gpuNodes().find(QString::fromLatin1(kSourceKubernetessource),
                                         QString::fromLatin1(kSourceKubernetessource) + QLatin1Char('/') + b1->node);
    ASSERT_TRUE(node);
    EXPECT_EQ(node->gpuCount, 8);
    EXPECT_EQ(node->gpuProduct, QStringLiteral("Tesla-V100-SXM2-32GB"));
    bool packed = false;
    for (const core::GpuSlot &slot : node->slots) {
        if (slot.jobs.contains(QStringLiteral("b-1-g06 0.6"))) {
            EXPECT_EQ(slot.used, 1000) << slot.jobs.join(QStringLiteral(" + ")).toStdString();
            packed = true;
        }
    }
    EXPECT_TRUE(packed);
}

// The simulator serves KAI's CRDs at their real versions (queues v2, podgroups only v2alpha2):
// `strata get projects` returns, exits 0 and prints the TR-4858 4.8 table (SCHEDULING.md 3.5).
TEST_F(KubernetesSourceTest, CliGetProjectsPrintsTheSection48TableFromKaiCrdVersions)
{
    startSimulator();
    qputenv("STRATA_IT_KUBE_TOKEN", simulator->token().toUtf8());
    const QString configPath = dir.filePath(QStringLiteral("config.json"));
    {
        QFile f(configPath);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        const QJsonObject source{
            {QStringLiteral("name"), QString::fromLatin1(kSourceKubernetessource)},
            {QStringLiteral("kind"), QStringLiteral("kubernetes")},
            {QStringLiteral("url"), simulator->baseUrl()},
            {QStringLiteral("password"), QJsonObject{{QStringLiteral("env"), QStringLiteral("STRATA_IT_KUBE_TOKEN")}}},
            {QStringLiteral("ca_file"), caFile}};
        f.write(QJsonDocument(QJsonObject{{QStringLiteral("sources"), QJsonArray{source}}}).toJson());
    }
    QString outText;
    QString errText;
    QTextStream out(&outText);
    QTextStream err(&errText);
    const int code = cli::run({QStringLiteral("--config"),
                               configPath,
                               QStringLiteral("get"),
                               QStringLiteral("projects"),
                               QStringLiteral("--timeout"),
                               QStringLiteral("60")},
                              credentials,
                              cli::Console{QStringLiteral("strata"), QStringLiteral("cli-test"), out, err});
    out.flush();
    err.flush();
    ASSERT_EQ(code, 0) << errText.toStdString() << outText.toStdString();
    const QStringList lines = outText.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_FALSE(lines.isEmpty());
    const QStringList header = lines.front().simplified().split(QLatin1Char(' '));
    const qsizetype nameColumn = header.indexOf(QStringLiteral("NAME"));
    const qsizetype allocatedColumn = header.indexOf(QStringLiteral("ALLOCATED"));
    const qsizetype queuedColumn = header.indexOf(QStringLiteral("QUEUED"));
    ASSERT_GE(nameColumn, 0) << lines.front().toStdString();
    ASSERT_GE(allocatedColumn, 0) << lines.front().toStdString();
    ASSERT_GE(queuedColumn, 0) << lines.front().toStdString();
    std::map<QString, QStringList> rows;
    for (const QString &line : lines.mid(1)) {
        const QStringList cells = line.simplified().split(QLatin1Char(' '));
        if (cells.size() == header.size()) {
            rows[cells.at(nameColumn)] = cells;
        }
    }
    for (const tr::ExpectedProject &want : tr::expectedAfter(tr::section48().size() - 1)) {
        const QString name = QString::fromStdString(want.project);
        ASSERT_EQ(rows.count(name), 1u) << name.toStdString() << " missing in\n" << outText.toStdString();
        EXPECT_EQ(rows[name].at(allocatedColumn),
                  core::formatGpus(want.allocated) + QLatin1Char('/') + core::formatGpus(want.quota))
            << outText.toStdString();
        EXPECT_EQ(rows[name].at(queuedColumn), QString::number(want.queued)) << outText.toStdString();
    }
}

TEST_F(KubernetesSourceTest, GoldenTablesOfSections49And410ThroughActionsAndWatches)
{
    startSimulator();
    startAndWait();
    // The desktop demo's "play next step" sequence: sections 4.9 and 4.10 after the preset's 4.8.
    demo::DemoScenario scenario;
    const std::vector<tr::ScenarioStep> all = tr::allSteps();
    ASSERT_EQ(std::size_t(scenario.stepCount()), all.size() - tr::section48().size());
    for (std::size_t i = tr::section48().size(); i < all.size(); ++i, scenario.advance()) {
        const tr::ScenarioStep &step = all[i];
        SCOPED_TRACE(step.title);
        const core::ActionRecord *record = runAction(scenario.nextRequest());
        ASSERT_TRUE(record);
        ASSERT_EQ(record->state, core::ActionState::Succeeded) << record->message.toStdString();
        // Let the simulator schedule and start what it can (ContainerCreating takes 3 s).
        simulator->tick(5);
        if (!tr::documentedState(i)) {
            continue;
        }
        const std::string expected = expectedChart(tr::expectedAfter(i));
        EXPECT_TRUE(waitFor([&] {
            return chart() == expected;
        })) << "after "
            << step.title << "\n  estate:   " << chart() << "\n  expected: " << expected;
    }
    // The §4.10 end: b and c each have one job queued; d holds nothing.
    const auto b5 = job(QStringLiteral("runai-team-b"), QStringLiteral("b-5-gg"));
    ASSERT_TRUE(b5);
    EXPECT_TRUE(b5->status == core::JobStatus::Pending || b5->status == core::JobStatus::Preempted)
        << core::jobStatusName(b5->status).toStdString();
    EXPECT_FALSE(b5->pendingReason.isEmpty());
}

TEST_F(KubernetesSourceTest, PreemptedJobIsToldApartFromNewPendingWithItsReason)
{
    startSimulator();
    startAndWait();
    const core::ActionRecord *record = runAction(demo::DemoScenario().nextRequest()); // d-2-gg
    ASSERT_EQ(record->state, core::ActionState::Succeeded) << record->message.toStdString();
    simulator->tick(5);
    ASSERT_TRUE(waitFor([&] {
        const auto c4 = job(QStringLiteral("runai-team-c"), QStringLiteral("c-4-gg"));
        return c4 && c4->status == core::JobStatus::Preempted;
    })) << chart();
    const auto c4 = job(QStringLiteral("runai-team-c"), QStringLiteral("c-4-gg"));
    EXPECT_TRUE(c4->pendingReason.contains(QStringLiteral("team-d"))) << c4->pendingReason.toStdString();
    EXPECT_EQ(c4->gpusAllocated, 0);
    // The watch may deliver the preemption before d-2-gg's start: wait for both.
    ASSERT_TRUE(waitFor([&] {
        const auto d2 = job(QStringLiteral("runai-team-d"), QStringLiteral("d-2-gg"));
        return d2 && d2->status == core::JobStatus::Running;
    })) << chart();
    const auto d2 = job(QStringLiteral("runai-team-d"), QStringLiteral("d-2-gg"));
    ASSERT_TRUE(d2);
    EXPECT_EQ(d2->status, core::JobStatus::Running);
    EXPECT_EQ(d2->gpusAllocated, 2000);
}

TEST_F(KubernetesSourceTest, QuotaEditPatchesTheQueueAndTheChartFollows)
{
    startSimulator();
    startAndWait();
    core::ActionRequest r;
    r.kind = core::ActionKind::ProjectQuotaEdit;
    r.source = QString::fromLatin1(kSourceKubernetessource);
    r.project = QStringLiteral("team-b");
    r.quota = 3000;
    const core::ActionPreview preview = engine->actions().preview(r);
    EXPECT_EQ(preview.fromState.toStdString(), "guaranteed 2 GPU(s)");
    EXPECT_FALSE(preview.warnings.isEmpty()); // quotas would add up to 17 of 16
    const core::ActionRecord *record = runAction(r);
    ASSERT_EQ(record->state, core::ActionState::Succeeded) << record->message.toStdString();
    EXPECT_TRUE(waitFor([&] {
        const auto p = project(QStringLiteral("team-b"));
        return p && p->quota == 3000;
    }));
    const auto queue = simulator->object(QStringLiteral("queues"), {}, QStringLiteral("team-b"));
    ASSERT_TRUE(queue);
}

// SCHEDULING.md R8 as KAI checks it: team-b runs 4 GPUs on a quota of 2, but only its notebooks
// (0.6 + 0.4) count against the quota for interactive jobs, so a 1-GPU notebook starts on the
// GPUs team-d freed. The preview says so and the simulator's scheduler agrees.
TEST_F(KubernetesSourceTest, NotebookOfAProjectWhoseTrainingRunsOverQuotaStartsOnIdleGpus)
{
    startSimulator();
    startAndWait();
    core::ActionRequest del;
    del.kind = core::ActionKind::JobDelete;
    del.source = QString::fromLatin1(kSourceKubernetessource);
    del.jobIds << QStringLiteral("runai-team-d/d-1-gggg");
    ASSERT_EQ(runAction(del)->state, core::ActionState::Succeeded);
    ASSERT_TRUE(waitFor([&] {
        const auto d = project(QStringLiteral("team-d"));
        return d && d->allocated == 0;
    }));

    core::ActionRequest r;
    r.kind = core::ActionKind::JobSubmit;
    r.source = QString::fromLatin1(kSourceKubernetessource);
    r.job.name = QStringLiteral("b-9-nb");
    r.job.project = QStringLiteral("team-b");
    r.job.image = QStringLiteral("jupyter/base-notebook");
    r.job.type = core::JobType::Interactive;
    r.job.gpus = 1000;
    const core::ActionPreview preview = engine->actions().preview(r);
    ASSERT_TRUE(preview.allowed()) << preview.blockedReason.toStdString();
    EXPECT_TRUE(preview.effects.join(QLatin1Char(' ')).contains(QStringLiteral("(2 of 2 GPUs)")))
        << preview.effects.join(QLatin1Char(' ')).toStdString();
    EXPECT_TRUE(preview.warnings.isEmpty()) << preview.warnings.join(QLatin1Char(' ')).toStdString();
    ASSERT_EQ(runAction(r)->state, core::ActionState::Succeeded);
    simulator->tick(5, std::chrono::seconds(1));
    EXPECT_TRUE(waitFor([&] {
        const auto j = job(QStringLiteral("runai-team-b"), QStringLiteral("b-9-nb"));
        return j && j->status == core::JobStatus::Running;
    })) <<
        [&] {
            const auto j = job(QStringLiteral("runai-team-b"), QStringLiteral("b-9-nb"));
            return j ? j->pendingReason.toStdString() : std::string("missing");
        }();
}

TEST_F(KubernetesSourceTest, SubmitIsNeverAppliedTwiceAndNamesAreChecked)
{
    startSimulator();
    startAndWait();
    core::ActionRequest r;
    r.kind = core::ActionKind::JobSubmit;
    r.source = QString::fromLatin1(kSourceKubernetessource);
    r.job.name = QStringLiteral("a-1-g"); // exists
    r.job.project = QStringLiteral("team-a");
    r.job.image = QStringLiteral("gcr.io/run-ai-demo/quickstart");
    r.job.gpus = 1000;
    EXPECT_FALSE(engine->actions().preview(r).allowed());
    r.job.name = QStringLiteral("Bad_Name");
    EXPECT_FALSE(engine->actions().preview(r).allowed());
    r.job.name = QStringLiteral("a-9-g");
    r.job.gpus = 1500; // neither whole nor a fraction
    EXPECT_FALSE(engine->actions().preview(r).allowed());
    r.job.gpus = 9000; // larger than any node
    EXPECT_FALSE(engine->actions().preview(r).allowed());
    r.job.gpus = 500;
    const core::ActionRecord *record = runAction(r);
    ASSERT_EQ(record->state, core::ActionState::Succeeded) << record->message.toStdString();
    EXPECT_TRUE(waitFor([&] {
        return job(QStringLiteral("runai-team-a"), QStringLiteral("a-9-g")) != nullptr;
    }));
    const auto created =
        simulator->object(QStringLiteral("jobs"), QStringLiteral("runai-team-a"), QStringLiteral("a-9-g"));
    ASSERT_TRUE(created);
    EXPECT_EQ(created->value(QStringLiteral("metadata"))
                  .toObject()
                  .value(QStringLiteral("labels"))
                  .toObject()
                  .value(QStringLiteral("kai.scheduler/queue"))
                  .toString(),
              QStringLiteral("team-a"));
    // A second attempt of the same submission (its response was lost) reconciles instead of
    // creating a second job; the same name from another submission is refused.
    core::IActionExecutor *executor = engine->source(QString::fromLatin1(kSourceKubernetessource))->actionExecutor();
    core::ActionContext ctx;
    ctx.attempt = 2;
    ctx.submitted = record->submitted;
    ctx.progress = [](const core::ActionProgress &) {};
    ctx.isCancelled = [] {
        return false;
    };
    const core::ActionResult again = executor->prepare(r)(ctx);
    EXPECT_TRUE(again.ok) << again.message.toStdString();
    EXPECT_TRUE(again.reconciled);
    ctx.attempt = 1;
    ctx.submitted = record->submitted.addSecs(5);
    const core::ActionResult other = executor->prepare(r)(ctx);
    EXPECT_FALSE(other.ok);
    EXPECT_TRUE(other.message.contains(QStringLiteral("already exists"))) << other.message.toStdString();
    EXPECT_EQ(simulator->objectCount(QStringLiteral("jobs")), 14);
}

TEST_F(KubernetesSourceTest, DcgmUtilizationReachesJobsNodesAndProjects)
{
    startSimulator();
    startAndWait();
    simulator->tick(3); // GPU samples for the running jobs
    engine->refresh(QString::fromLatin1(kSourceKubernetessource));
    EXPECT_TRUE(waitFor([&] {
        const auto clusters = engine->estate().gpuClusters().all();
        return !clusters.empty() && clusters[0]->metricsAvailable && clusters[0]->utilization > 0;
    })) << engine->status(QString::fromLatin1(kSourceKubernetessource))->lastError.toStdString();
    const auto a = project(QStringLiteral("team-a"));
    ASSERT_TRUE(a);
    EXPECT_GT(a->utilization, 0);
}

TEST_F(KubernetesSourceTest, PvcsJoinTheirTridentVolumeName)
{
    startSimulator();
    startAndWait();
    const auto pvcs = engine->estate().pvcs().all();
    ASSERT_FALSE(pvcs.empty());
    for (const auto &pvc : pvcs) {
        EXPECT_EQ(pvc->phase, QStringLiteral("Bound")) << pvc->id.toStdString();
        EXPECT_TRUE(pvc->backendVolume.startsWith(QStringLiteral("trident_pvc_"))) << pvc->backendVolume.toStdString();
        EXPECT_EQ(pvc->csiDriver, QStringLiteral("csi.trident.netapp.io"));
    }
}

TEST_F(KubernetesSourceTest, RejectedTokenIsAuthRequiredAndUnreachableIsUnreachable)
{
    startSimulator();
    credentials.set(core::credentialKey(QString::fromLatin1(kSourceKubernetessource)), QStringLiteral("wrong-token"));
    engine->setSources({sourceConfig()});
    EXPECT_TRUE(waitFor([&] {
        return engine->status(QString::fromLatin1(kSourceKubernetessource))->health == core::Health::AuthRequired;
    })) << engine->status(QString::fromLatin1(kSourceKubernetessource))->lastError.toStdString();

    core::SourceConfig gone = sourceConfig();
    gone.name = QStringLiteral("gone");
    gone.url = QStringLiteral("https://127.0.0.1:1");
    gone.password = {};
    engine->setSources({gone});
    EXPECT_TRUE(waitFor([&] {
        return engine->status(QStringLiteral("gone"))->health == core::Health::Unreachable;
    })) << engine->status(QStringLiteral("gone"))->lastError.toStdString();
}

TEST_F(KubernetesSourceTest, ExpiredWatchesRelistAndDroppedWatchesResumeWithoutLosingData)
{
    startSimulator();
    startAndWait();
    simulator->expireWatches();
    simulator->dropWatches();
    // A change after the re-list still arrives through the new watch.
    core::ActionRequest r;
    r.kind = core::ActionKind::JobDelete;
    r.source = QString::fromLatin1(kSourceKubernetessource);
    r.jobIds << QStringLiteral("runai-team-a/a-1-g");
    const core::ActionRecord *record = runAction(r);
    ASSERT_EQ(record->state, core::ActionState::Succeeded) << record->message.toStdString();
    EXPECT_TRUE(waitFor([&] {
        return job(QStringLiteral("runai-team-a"), QStringLiteral("a-1-g")) == nullptr;
    }));
    EXPECT_EQ(engine->estate().jobs().all().size(), 12u);
    EXPECT_EQ(engine->status(QString::fromLatin1(kSourceKubernetessource))->health, core::Health::Ok)
        << engine->status(QString::fromLatin1(kSourceKubernetessource))->lastError.toStdString();
}

} // namespace
