#include "models/core/domain/estate.h"
#include "models/core/planning/diagnosis.h"

#include <QJsonArray>

#include <gtest/gtest.h>

using namespace strata::core;

namespace {

const QString kSource = QStringLiteral("dgx");
/// The engine clock's time the diagnoses are made at.
const QDateTime kDiagnosisNow(QDate(2026, 3, 1), QTime(12, 0), Qt::UTC);

template <class T> std::shared_ptr<const KeyedList<T>> diagnosisListOf(std::vector<T> items)
{
    std::vector<Ptr<T>> out;
    for (T &item : items) {
        out.push_back(std::make_shared<const T>(std::move(item)));
    }
    return std::make_shared<const KeyedList<T>>(std::move(out));
}

GpuNode node(const QString &name, int gpus, const QList<MilliGpu> &used)
{
    GpuNode n;
    n.source = kSource;
    n.id = n.name = name;
    n.gpuCount = gpus;
    n.allocatable = gpus * 1000;
    n.ready = true;
    for (int i = 0; i < gpus; ++i) {
        GpuSlot s;
        s.index = i;
        s.used = i < used.size() ? used.at(i) : 0;
        n.allocated += s.used;
        n.slots.append(s);
    }
    return n;
}

Project project(const QString &name, MilliGpu quota, MilliGpu allocated, MilliGpu fairShare)
{
    Project p;
    p.source = kSource;
    p.id = p.name = name;
    p.quota = quota;
    p.allocated = allocated;
    p.fairShare = fairShare;
    return p;
}

Job diagnosisJob(
    const QString &name, const QString &proj, JobStatus status, MilliGpu gpus, JobType type = JobType::Train)
{
    Job j;
    j.source = kSource;
    j.namespaceName = QStringLiteral("runai-") + proj;
    j.name = name;
    j.id = j.namespaceName + QLatin1Char('/') + name;
    j.project = proj;
    j.status = status;
    j.type = type;
    j.gpusRequested = gpus;
    if (status == JobStatus::Running) {
        j.gpusAllocated = gpus;
        j.node = QStringLiteral("dgx1-1");
        j.podName = name + QStringLiteral("-abcde");
    }
    return j;
}

void publish(Estate &estate,
             std::vector<GpuNode> nodes,
             std::vector<Project> projects,
             std::vector<Job> jobs,
             std::vector<Pvc> pvcs = {})
{
    ComputePublish c;
    c.nodes = diagnosisListOf(std::move(nodes));
    c.projects = diagnosisListOf(std::move(projects));
    c.jobs = diagnosisListOf(std::move(jobs));
    c.pvcs = diagnosisListOf(std::move(pvcs));
    estate.publishCompute(kSource, c);
}

QStringList rules(const JobDiagnosis &d)
{
    QStringList out;
    for (const DiagnosisFinding &f : d.findings) {
        out << f.rule;
    }
    return out;
}

} // namespace

TEST(Diagnosis, UnknownJob_SaysSo)
{
    Estate estate;
    const JobDiagnosis d = diagnoseJob(estate, kSource, QStringLiteral("runai-team-a/nope"), kDiagnosisNow);
    EXPECT_EQ(d.verdict, Verdict::UnknownJob);
    EXPECT_TRUE(d.findings.isEmpty());
    EXPECT_TRUE(d.headline.contains(QStringLiteral("runai-team-a/nope")));
    EXPECT_EQ(diagnosisToJson(d).value(QStringLiteral("verdict")).toString(), QStringLiteral("unknown_job"));
}

TEST(Diagnosis, FinishedJob_IsNotPending)
{
    Estate estate;
    publish(
        estate, {}, {}, {diagnosisJob(QStringLiteral("done"), QStringLiteral("team-a"), JobStatus::Succeeded, 1000)});
    const JobDiagnosis d = diagnosePending(estate, kSource, QStringLiteral("runai-team-a/done"));
    EXPECT_EQ(d.verdict, Verdict::NotPending);
    EXPECT_TRUE(d.headline.contains(QStringLiteral("not pending")));
    EXPECT_TRUE(d.findings.isEmpty());
}

TEST(Diagnosis, PendingOverFairShare_FairShareIsDecisiveWithNumbers)
{
    Estate estate;
    publish(estate,
            {node(QStringLiteral("dgx1-1"), 8, {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000})},
            {project(QStringLiteral("team-a"), 4000, 4000, 4000)},
            {diagnosisJob(QStringLiteral("a-3-gg"), QStringLiteral("team-a"), JobStatus::Pending, 2000)});
    const JobDiagnosis d = diagnosePending(estate, kSource, QStringLiteral("runai-team-a/a-3-gg"));
    // With team-b running over its quota, that is what to wait for.
    publish(estate,
            {node(QStringLiteral("dgx1-1"), 8, {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000})},
            {project(QStringLiteral("team-a"), 4000, 4000, 4000), project(QStringLiteral("team-b"), 2000, 4000, 4000)},
            {diagnosisJob(QStringLiteral("a-3-gg"), QStringLiteral("team-a"), JobStatus::Pending, 2000)});
    EXPECT_EQ(diagnosePending(estate, kSource, QStringLiteral("runai-team-a/a-3-gg")).nextAction,
              QStringLiteral("Wait for the over-quota jobs of team-b to finish, or for team-a's own running jobs to "
                             "end."));
    EXPECT_EQ(d.verdict, Verdict::Pending);
    ASSERT_EQ(rules(d), (QStringList{QStringLiteral("fair_share"), QStringLiteral("no_node_fits")}));
    EXPECT_EQ(d.findings.front().summary,
              QStringLiteral("Project team-a holds 4 of its 4 guaranteed GPUs and its fair share is 4; this job asks "
                             "for 2 more."));
    EXPECT_EQ(d.nextAction,
              QStringLiteral("Wait for team-a's own running jobs to end; no other project runs over its quota."));
}

TEST(Diagnosis, InteractiveJob_InQuotaRuleEvenBelowFairShare)
{
    Estate estate;
    // Fair share 6 would let a train job run; an interactive one must fit the quota of 4, which
    // the project's running notebooks fill.
    publish(
        estate,
        {node(QStringLiteral("dgx1-1"), 8, {1000, 1000, 1000, 1000})},
        {project(QStringLiteral("team-a"), 4000, 4000, 6000)},
        {diagnosisJob(QStringLiteral("nb"), QStringLiteral("team-a"), JobStatus::Running, 4000, JobType::Interactive),
         diagnosisJob(
             QStringLiteral("jupyter"), QStringLiteral("team-a"), JobStatus::Pending, 1000, JobType::Interactive)});
    const JobDiagnosis d = diagnosePending(estate, kSource, QStringLiteral("runai-team-a/jupyter"));
    ASSERT_FALSE(d.findings.isEmpty());
    EXPECT_EQ(d.findings.front().rule, QStringLiteral("quota"));
    EXPECT_TRUE(d.findings.front().summary.contains(QStringLiteral("within the quota")));
}

// SCHEDULING.md R8 as KAI checks it (AllocatedNotPreemptible + request <= Deserved): the
// project's training GPUs do not hold a notebook back, its other notebooks do.
TEST(Diagnosis, InteractiveJob_OnlyNonPreemptibleGpusCountAgainstTheQuota)
{
    Estate estate;
    // One 8-GPU node, quota 1, a 1-GPU training job running, a 0.2-GPU notebook waiting.
    publish(
        estate,
        {node(QStringLiteral("dgx1-1"), 8, {1000})},
        {project(QStringLiteral("team-b"), 1000, 1000, 1000)},
        {diagnosisJob(QStringLiteral("b-3-g"), QStringLiteral("team-b"), JobStatus::Running, 1000),
         diagnosisJob(QStringLiteral("nb"), QStringLiteral("team-b"), JobStatus::Pending, 200, JobType::Interactive)});
    EXPECT_EQ(nonPreemptibleAllocated(estate, kSource, QStringLiteral("team-b")), 0);
    const JobDiagnosis free = diagnosePending(estate, kSource, QStringLiteral("runai-team-b/nb"));
    EXPECT_FALSE(rules(free).contains(QStringLiteral("quota"))) << free.headline.toStdString();

    // A running 0.9-GPU notebook leaves 0.1 of the quota for notebooks.
    publish(
        estate,
        {node(QStringLiteral("dgx1-1"), 8, {1000, 900})},
        {project(QStringLiteral("team-b"), 1000, 1900, 1900)},
        {diagnosisJob(QStringLiteral("b-3-g"), QStringLiteral("team-b"), JobStatus::Running, 1000),
         diagnosisJob(QStringLiteral("nb-1"), QStringLiteral("team-b"), JobStatus::Running, 900, JobType::Interactive),
         diagnosisJob(QStringLiteral("nb"), QStringLiteral("team-b"), JobStatus::Pending, 200, JobType::Interactive)});
    EXPECT_EQ(nonPreemptibleAllocated(estate, kSource, QStringLiteral("team-b")), 900);
    const JobDiagnosis held = diagnosePending(estate, kSource, QStringLiteral("runai-team-b/nb"));
    ASSERT_FALSE(held.findings.isEmpty());
    EXPECT_EQ(held.findings.front().rule, QStringLiteral("quota"));
    EXPECT_EQ(held.findings.front().summary,
              QStringLiteral("Project team-b's interactive jobs hold 0.9 of its 1 guaranteed GPUs; this interactive "
                             "job asks for 0.2 more and interactive (non-preemptible) jobs must stay within the "
                             "quota. Training jobs do not count against this limit."));
    EXPECT_EQ(held.findings.front().action,
              QStringLiteral("End another interactive session of team-b, or lower the request to 0.1 GPU."));
}

TEST(Diagnosis, NoNodeFits_NamesLargestBlockAndSuggestsSmallerRequest)
{
    Estate estate;
    publish(estate,
            {node(QStringLiteral("dgx1-1"), 8, {1000, 1000, 1000, 1000, 1000, 1000, 1000}),
             node(QStringLiteral("dgx1-2"), 8, {1000, 1000, 1000, 1000, 1000, 1000}),
             [] {
                 GpuNode n = node(QStringLiteral("dgx1-3"), 8, {});
                 n.schedulable = false; // cordoned: its free GPUs do not count
                 return n;
             }()},
            {project(QStringLiteral("team-d"), 8000, 2000, 8000)},
            {diagnosisJob(QStringLiteral("d-2-gg"), QStringLiteral("team-d"), JobStatus::Pending, 3000)});
    const JobDiagnosis d = diagnosePending(estate, kSource, QStringLiteral("runai-team-d/d-2-gg"));
    ASSERT_EQ(rules(d), QStringList{QStringLiteral("no_node_fits")});
    EXPECT_TRUE(d.findings.front().summary.contains(QStringLiteral("largest free block is 2 GPU on dgx1-2")))
        << d.findings.front().summary.toStdString();
    EXPECT_TRUE(d.findings.front().summary.contains(QStringLiteral("3 free in the cluster")));
    EXPECT_EQ(d.findings.front().action,
              QStringLiteral("Lower its request to 2 GPU, or wait until jobs on one node end."));
}

TEST(Diagnosis, UnboundPvcComesFirstAndNamesTheClassWithoutProvisioner)
{
    Estate estate;
    Job j = diagnosisJob(QStringLiteral("prep"), QStringLiteral("team-a"), JobStatus::Pending, 1000);
    j.pvcs = {QStringLiteral("scratch"), QStringLiteral("missing")};
    Pvc bound;
    bound.source = kSource;
    bound.namespaceName = j.namespaceName;
    bound.name = QStringLiteral("imagenet");
    bound.id = bound.namespaceName + QStringLiteral("/imagenet");
    bound.phase = QStringLiteral("Bound");
    bound.storageClass = QStringLiteral("ontap-nas");
    Pvc scratch = bound;
    scratch.name = QStringLiteral("scratch");
    scratch.id = scratch.namespaceName + QStringLiteral("/scratch");
    scratch.phase = QStringLiteral("Pending");
    scratch.storageClass = QStringLiteral("fast-nvme");
    publish(estate,
            {node(QStringLiteral("dgx1-1"), 8, {})},
            {project(QStringLiteral("team-a"), 4000, 0, 4000)},
            {j},
            {bound, scratch});
    const JobDiagnosis d = diagnosePending(estate, kSource, j.id);
    ASSERT_EQ(rules(d), (QStringList{QStringLiteral("pvc_unbound"), QStringLiteral("pvc_unbound")}));
    EXPECT_TRUE(d.findings.at(0).summary.contains(QStringLiteral("fast-nvme")));
    EXPECT_EQ(d.findings.at(0).action,
              QStringLiteral("Bind PVC runai-team-a/scratch: its storage class fast-nvme has no provisioner; use "
                             "ontap-nas instead."));
    EXPECT_TRUE(d.findings.at(1).summary.contains(QStringLiteral("does not exist")));
}

TEST(Diagnosis, ImagePullFromEvents)
{
    Estate estate;
    Job j = diagnosisJob(QStringLiteral("serve"), QStringLiteral("team-a"), JobStatus::ContainerCreating, 1000);
    j.podName = QStringLiteral("serve-x1");
    j.node = QStringLiteral("dgx1-1");
    j.gpusAllocated = 1000;
    j.image = QStringLiteral("nvcr.io/nvidia/pytorch:99.99");
    publish(estate,
            {node(QStringLiteral("dgx1-1"), 8, {1000})},
            {project(QStringLiteral("team-a"), 4000, 1000, 4000)},
            {j});
    Event e;
    e.source = kSource;
    e.id = QStringLiteral("e1");
    e.time = QDateTime::currentDateTimeUtc();
    e.name = QStringLiteral("Failed");
    e.message = QStringLiteral("Failed to pull image \"nvcr.io/nvidia/pytorch:99.99\": not found");
    e.object = QStringLiteral("Pod runai-team-a/serve-x1");
    Event other = e;
    other.id = QStringLiteral("e2");
    other.object = QStringLiteral("Pod runai-team-a/someone-else");
    estate.publishEvents(kSource, diagnosisListOf<Event>({e, other}));
    const JobDiagnosis d = diagnosePending(estate, kSource, j.id);
    ASSERT_EQ(rules(d), QStringList{QStringLiteral("image_pull")});
    EXPECT_TRUE(d.findings.front().summary.contains(QStringLiteral("not found")));
    EXPECT_TRUE(d.findings.front().summary.contains(QStringLiteral("holds 1 GPU on dgx1-1")));
    EXPECT_EQ(d.findings.front().actionKind, QStringLiteral("fix_image"));
}

TEST(Diagnosis, PendingWithoutAnyRule_ReportsTheSchedulerMessage)
{
    Estate estate;
    Job j = diagnosisJob(QStringLiteral("x"), QStringLiteral("team-a"), JobStatus::Pending, 1000);
    j.pendingReason = QStringLiteral("node affinity mismatch");
    publish(estate, {node(QStringLiteral("dgx1-1"), 8, {})}, {project(QStringLiteral("team-a"), 4000, 0, 4000)}, {j});
    const JobDiagnosis d = diagnosePending(estate, kSource, j.id);
    ASSERT_EQ(rules(d), QStringList{QStringLiteral("scheduler")});
    EXPECT_TRUE(d.findings.front().summary.contains(QStringLiteral("node affinity mismatch")));
}

TEST(Diagnosis, RunningWithoutMetrics_SaysUtilizationUnknown)
{
    Estate estate;
    publish(estate, {}, {}, {diagnosisJob(QStringLiteral("t"), QStringLiteral("team-a"), JobStatus::Running, 1000)});
    const JobDiagnosis d = diagnoseIdle(estate, kSource, QStringLiteral("runai-team-a/t"), kDiagnosisNow);
    EXPECT_EQ(d.verdict, Verdict::UtilizationUnknown);
    EXPECT_TRUE(d.headline.contains(QStringLiteral("unknown")));
    EXPECT_EQ(rules(d), QStringList{QStringLiteral("no_metrics")});
}

TEST(Diagnosis, SeriesWithoutPerfSamplesEndsAtTheGivenNowNotTheWallClock)
{
    // A bundle opened years later diagnoses at its frozen clock's time: the one point carrying
    // the utilization must be stamped then, or the chart spans from then to today.
    Estate estate;
    Job j = diagnosisJob(QStringLiteral("t"), QStringLiteral("team-a"), JobStatus::Running, 1000);
    j.gpuUtilization = 3;
    publish(estate, {}, {}, {j});
    const QDateTime past(QDate(2021, 6, 1), QTime(8, 30), Qt::UTC);
    const JobDiagnosis d = diagnoseIdle(estate, kSource, j.id, past);
    ASSERT_EQ(d.series.size(), 1);
    EXPECT_EQ(d.series.back().time, past);
    EXPECT_DOUBLE_EQ(d.series.back().gpuPercent, 3);
    EXPECT_EQ(diagnoseJob(estate, kSource, j.id, past).series.back().time, past);
}

TEST(Diagnosis, RunningVerdictsFollowUtilizationAndStorage)
{
    Estate estate;
    Volume v;
    v.source = QStringLiteral("ai-lab");
    v.id = QStringLiteral("fs-criteo");
    v.name = QStringLiteral("criteo-data");
    v.svm = QStringLiteral("ai-account");
    v.armId = QStringLiteral("/subscriptions/x/volumes/criteo-data");
    v.throughputMibps = 16;
    estate.publishVolumes(v.source, diagnosisListOf<Volume>({v}));
    VolumePerf perf;
    perf.source = v.source;
    perf.id = v.id;
    perf.time = kDiagnosisNow.addSecs(-60);
    perf.throughputBps = 16.0 * 1048576 * 0.97;
    perf.latencyUs = 1500;
    estate.publishVolumePerf(v.source, diagnosisListOf<VolumePerf>({perf}));

    Pvc pvc;
    pvc.source = kSource;
    pvc.namespaceName = QStringLiteral("runai-team-a");
    pvc.name = QStringLiteral("criteo");
    pvc.id = QStringLiteral("runai-team-a/criteo");
    pvc.phase = QStringLiteral("Bound");
    pvc.storageSource = v.source;
    pvc.storageVolumeId = v.id;

    Job slow = diagnosisJob(QStringLiteral("slow"), QStringLiteral("team-a"), JobStatus::Running, 1000);
    slow.gpuUtilization = 58.1;
    slow.pvcs = {QStringLiteral("criteo")};
    Job busy = slow;
    busy.name = QStringLiteral("busy");
    busy.id = QStringLiteral("runai-team-a/busy");
    busy.gpuUtilization = 97.3;
    Job notebook =
        diagnosisJob(QStringLiteral("nb"), QStringLiteral("team-a"), JobStatus::Running, 500, JobType::Interactive);
    notebook.gpuUtilization = 0;
    Job loader = slow;
    loader.name = QStringLiteral("loader");
    loader.id = QStringLiteral("runai-team-a/loader");
    loader.pvcs = {};
    loader.gpuUtilization = 40;
    publish(estate, {}, {}, {slow, busy, notebook, loader}, {pvc});

    std::vector<VolumePerfSample> history(3);
    for (int i = 0; i < 3; ++i) {
        history[std::size_t(i)].volumeId = v.id;
        history[std::size_t(i)].time = perf.time.addSecs(-300 * (3 - i));
        history[std::size_t(i)].throughputBps = 16.0e6;
        history[std::size_t(i)].latencyUs = 1400;
        history[std::size_t(i)].capBps = 16.0 * 1048576;
    }
    const JobDiagnosis dataBound = diagnoseIdle(estate, kSource, slow.id, kDiagnosisNow, history);
    EXPECT_EQ(dataBound.verdict, Verdict::DataBound);
    EXPECT_EQ(rules(dataBound), (QStringList{QStringLiteral("storage_at_cap"), QStringLiteral("uncached")}));
    EXPECT_EQ(dataBound.findings.front().actionKind, QStringLiteral("change_service_level"));
    EXPECT_EQ(dataBound.findings.front().actionTarget, QStringLiteral("ai-lab/fs-criteo"));
    EXPECT_NEAR(dataBound.capMBps, 16.777, 0.01);
    ASSERT_EQ(dataBound.series.size(), 4); // three from history, the estate's newer sample
    EXPECT_LT(dataBound.series.at(0).gpuPercent, 0);
    EXPECT_DOUBLE_EQ(dataBound.series.back().gpuPercent, 58.1);
    EXPECT_NEAR(dataBound.series.at(0).throughputMBps, 16.0, 1e-9);
    const QJsonObject json = diagnosisToJson(dataBound);
    EXPECT_EQ(json.value(QStringLiteral("verdict")).toString(), QStringLiteral("data_bound"));
    EXPECT_EQ(json.value(QStringLiteral("series")).toArray().size(), 4);

    const JobDiagnosis computeBound = diagnoseIdle(estate, kSource, busy.id, kDiagnosisNow);
    EXPECT_EQ(computeBound.verdict, Verdict::ComputeBound);
    EXPECT_TRUE(computeBound.headline.contains(QStringLiteral("not a problem")));

    const JobDiagnosis idle = diagnoseIdle(estate, kSource, notebook.id, kDiagnosisNow);
    EXPECT_EQ(idle.verdict, Verdict::IdleSession);
    EXPECT_EQ(idle.findings.front().actionKind, QStringLiteral("end_session"));

    const JobDiagnosis low = diagnoseIdle(estate, kSource, loader.id, kDiagnosisNow);
    EXPECT_EQ(low.verdict, Verdict::LowUtilization);
    EXPECT_EQ(rules(low), (QStringList{QStringLiteral("uncached"), QStringLiteral("input_pipeline")}));
}

TEST(Diagnosis, CachedCommitMountIsRecognised)
{
    Estate estate;
    CacheTarget t;
    t.source = kSource;
    t.id = QStringLiteral("dgx-cache-1");
    t.namespaceName = QStringLiteral("runai-team-a");
    t.pvc = QStringLiteral("dataset-cache");
    CachedCommit c;
    c.source = kSource;
    c.target = t.id;
    c.commitId = QStringLiteral("abc");
    c.id = t.id + QStringLiteral("/abc");
    c.state = CacheState::Ready;
    c.path = QStringLiteral("fraud_jun/abc");
    CachePublish cp;
    cp.targets = diagnosisListOf<CacheTarget>({t});
    cp.cachedCommits = diagnosisListOf<CachedCommit>({c});
    estate.publishCaches(kSource, cp);
    Job j = diagnosisJob(QStringLiteral("train"), QStringLiteral("team-a"), JobStatus::Running, 1000);
    j.pvcs = {QStringLiteral("dataset-cache")};
    j.pvcSubPaths = {QStringLiteral("fraud_jun/abc")};
    j.gpuUtilization = 95;
    publish(estate, {}, {}, {j});
    const JobDiagnosis d = diagnoseIdle(estate, kSource, j.id, kDiagnosisNow);
    EXPECT_TRUE(d.cached);
    EXPECT_EQ(d.cachedCommit, QStringLiteral("dgx-cache-1/abc"));
    EXPECT_EQ(d.verdict, Verdict::ComputeBound);
}
