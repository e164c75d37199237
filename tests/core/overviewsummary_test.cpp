#include "models/core/domain/convert.h"
#include "models/core/domain/estate.h"
#include "models/core/planning/overviewsummary.h"

#include <gtest/gtest.h>

using namespace strata::core;

namespace {

constexpr qint64 kOvGiB = 1024LL * 1024 * 1024;

Ptr<Volume>
ovVolume(const QString &source, const QString &id, qint64 size, std::optional<qint64> used, bool anf = false)
{
    auto v = std::make_shared<Volume>();
    v->source = source;
    v->id = id;
    v->name = id;
    v->svm = anf ? QStringLiteral("anf-acct") : QStringLiteral("svm1");
    v->state = used ? QStringLiteral("online") : QStringLiteral("offline");
    v->sizeBytes = size;
    v->usedBytes = used;
    if (used) {
        v->percentUsed = 100.0 * double(*used) / double(size);
    }
    if (anf) {
        v->armId = QStringLiteral("/subscriptions/x/") + id;
        v->provisioningState = QStringLiteral("Succeeded");
    }
    return v;
}

Ptr<VolumePerf> ovPerf(const QString &source, const QString &id, double bps)
{
    auto p = std::make_shared<VolumePerf>();
    p->source = source;
    p->id = id;
    p->throughputBps = bps;
    return p;
}

/// An estate with one ONTAP cluster (a near-full, an offline and a half-used volume, two with
/// perf samples), one ANF account (a pool still updating) and a grid with one major alert.
void fillOverviewEstate(Estate &estate)
{
    estate.publishVolumes(
        QStringLiteral("ontap"),
        keyed<Volume>({ovVolume(QStringLiteral("ontap"), QStringLiteral("full"), 100 * kOvGiB, 96 * kOvGiB),
                       ovVolume(QStringLiteral("ontap"), QStringLiteral("off"), 20 * kOvGiB, std::nullopt),
                       ovVolume(QStringLiteral("ontap"), QStringLiteral("half"), 100 * kOvGiB, 50 * kOvGiB)}));
    estate.publishVolumePerf(
        QStringLiteral("ontap"),
        keyed<VolumePerf>({ovPerf(QStringLiteral("ontap"), QStringLiteral("full"), 1048576.0),
                           ovPerf(QStringLiteral("ontap"), QStringLiteral("half"), 2 * 1048576.0)}));
    estate.publishVolumes(
        QStringLiteral("azure"),
        keyed<Volume>({ovVolume(QStringLiteral("azure"), QStringLiteral("fs1"), 1000 * kOvGiB, 880 * kOvGiB, true)}));
    auto pool = std::make_shared<CapacityPool>();
    pool->source = QStringLiteral("azure");
    pool->id = QStringLiteral("pool-1");
    pool->name = QStringLiteral("pool-premium");
    pool->account = QStringLiteral("anf-acct");
    pool->sizeBytes = 4096 * kOvGiB;
    pool->allocatedBytes = 1000 * kOvGiB;
    pool->provisioningState = QStringLiteral("Updating");
    estate.publishAzure(QStringLiteral("azure"), keyed<CapacityPool>({pool}), keyed<AksCluster>({}));
    auto grid = std::make_shared<GridSummary>();
    grid->source = QStringLiteral("grid");
    grid->id = QStringLiteral("grid");
    grid->gridName = QStringLiteral("datalake");
    grid->nodesConnected = 5;
    grid->alertsMajor = 1;
    grid->usedBytes = 3 * kOvGiB;
    grid->usableBytes = 300 * kOvGiB;
    auto alert = std::make_shared<GridAlert>();
    alert->source = QStringLiteral("grid");
    alert->id = QStringLiteral("a1");
    alert->name = QStringLiteral("Low installed node memory");
    alert->severity = QStringLiteral("major");
    alert->node = QStringLiteral("dc1-s3");
    auto resolved = std::make_shared<GridAlert>(*alert);
    resolved->id = QStringLiteral("a0");
    resolved->resolved = true;
    GridPublish publish;
    publish.summary = keyed<GridSummary>({grid});
    publish.alerts = keyed<GridAlert>({alert, resolved});
    estate.publishGrid(QStringLiteral("grid"), publish);
}

} // namespace

TEST(OverviewSummary, StorageSystemsAddUpVolumesPerfPoolsAndGrids)
{
    Estate estate;
    fillOverviewEstate(estate);
    const auto systems = storageSystems(estate);
    ASSERT_EQ(systems.size(), 3U);

    const StorageSystemSummary &ontap = systems[0];
    EXPECT_EQ(ontap.kind, SourceKind::Ontap);
    EXPECT_EQ(ontap.name, QStringLiteral("ontap"));
    EXPECT_EQ(ontap.volumes, 3);
    EXPECT_EQ(ontap.volumesWithoutSpace, 1);
    // The offline volume counts in neither total, as on the Volumes page.
    EXPECT_EQ(ontap.usedBytes, 146 * kOvGiB);
    EXPECT_EQ(ontap.capacityBytes, 200 * kOvGiB);
    EXPECT_DOUBLE_EQ(ontap.throughputBps, 3 * 1048576.0);
    EXPECT_EQ(ontap.nearFullVolumes, 1);
    EXPECT_EQ(storageSystemStatus(ontap), QStringLiteral("warning"));

    const StorageSystemSummary &anf = systems[1];
    EXPECT_EQ(anf.kind, SourceKind::Azure);
    EXPECT_EQ(anf.name, QStringLiteral("anf-acct"));
    EXPECT_EQ(anf.pools, 1);
    EXPECT_EQ(anf.poolSizeBytes, 4096 * kOvGiB);
    EXPECT_EQ(anf.notProvisioned, 1);
    EXPECT_LT(anf.throughputBps, 0) << "no perf sample: unknown, not 0";
    EXPECT_EQ(storageSystemHealth(anf), QStringLiteral("1 pool · 1 not provisioned · 1 volume near full"));

    const StorageSystemSummary &grid = systems[2];
    EXPECT_EQ(grid.kind, SourceKind::StorageGrid);
    EXPECT_EQ(grid.name, QStringLiteral("datalake"));
    EXPECT_EQ(grid.usedBytes, 3 * kOvGiB);
    EXPECT_EQ(grid.capacityBytes, 300 * kOvGiB);
    EXPECT_DOUBLE_EQ(grid.percentUsed(), 1.0);
    EXPECT_EQ(storageSystemHealth(grid), QStringLiteral("5 nodes up · 1 major alert"));
}

TEST(OverviewSummary, NeedsAttentionListsWhatTheCoreKnowsWorstFirst)
{
    Estate estate;
    fillOverviewEstate(estate);
    auto job = std::make_shared<Job>();
    job->source = QStringLiteral("dgx");
    job->id = QStringLiteral("team-a/train-7");
    job->status = JobStatus::ContainerCreating;
    job->failureReason = QStringLiteral("ImagePullBackOff");
    job->gpusAllocated = 500;
    auto cluster = std::make_shared<GpuCluster>();
    cluster->source = QStringLiteral("dgx");
    cluster->id = QStringLiteral("dgx");
    cluster->gpuTotal = 4000;
    cluster->quotaTotal = 4000;
    cluster->pendingJobs = 2;
    cluster->gpuIdleAllocated = 1000;
    ComputePublish compute;
    compute.clusters = keyed<GpuCluster>({cluster});
    compute.jobs = keyed<Job>({job});
    estate.publishCompute(QStringLiteral("dgx"), compute);
    SourceStatus down;
    down.name = QStringLiteral("lab");
    down.kind = SourceKind::Ontap;
    down.health = Health::Unreachable;
    down.lastError = QStringLiteral("connection refused");
    SourceStatus fine = down;
    fine.name = QStringLiteral("ok");
    fine.health = Health::Ok;

    const auto items = needsAttention(estate, {down, fine});
    QStringList lines;
    for (const AttentionItem &a : items) {
        lines << QStringLiteral("%1|%2|%3|%4|%5").arg(a.severity, a.kind, a.source, a.subject, a.message);
    }
    ASSERT_EQ(lines.size(), 7) << lines.join(QLatin1Char('\n')).toStdString();
    EXPECT_EQ(lines[0], QStringLiteral("critical|volume|ontap|svm1/full|96.0 % used: 96.0 GiB of 100 GiB"));
    EXPECT_EQ(lines[1], QStringLiteral("error|job|dgx|team-a/train-7|ImagePullBackOff · GPUs held: 0.5"));
    EXPECT_EQ(lines[2], QStringLiteral("error|source|lab|lab|unreachable: connection refused"));
    EXPECT_EQ(lines[3], QStringLiteral("error|alert|grid|Low installed node memory on dc1-s3|major alert"))
        << "the resolved alert is not listed";
    EXPECT_EQ(lines[4], QStringLiteral("warning|volume|azure|anf-acct/fs1|88.0 % used: 880 GiB of 1,000 GiB"));
    EXPECT_EQ(lines[5], QStringLiteral("warning|pool|azure|anf-acct/pool-premium|provisioning state Updating"));
    EXPECT_EQ(lines[6], QStringLiteral("warning|cluster|dgx|dgx|2 jobs pending while allocated GPUs idle: 1"));
}

TEST(OverviewSummary, ClusterHistoryCarriesEachProjectForwardAndWeighsUtilization)
{
    const QDateTime t0(QDate(2026, 11, 23), QTime(0, 0), Qt::UTC);
    const auto sample = [](const QString &project, const QDateTime &t, MilliGpu alloc, MilliGpu quota, double util) {
        ProjectSample s;
        s.project = project;
        s.time = t;
        s.allocated = alloc;
        s.quota = quota;
        s.utilization = util;
        return s;
    };
    // By project, then time (the store's order). a and b did not change before the window: b's
    // first sample is its heartbeat 5 min in. c is created 2 h in.
    const std::vector<ProjectSample> samples{sample(QStringLiteral("a"), t0, 2000, 4000, 80),
                                             sample(QStringLiteral("a"), t0.addSecs(600), 4000, 4000, 50),
                                             sample(QStringLiteral("b"), t0.addSecs(300), 1000, -1, -1),
                                             sample(QStringLiteral("b"), t0.addSecs(600), 2000, 2000, 20),
                                             sample(QStringLiteral("c"), t0.addSecs(7200), 1000, 1000, -1)};
    const auto total = clusterHistory(samples, QStringLiteral("dgx"));
    ASSERT_EQ(total.size(), 3U);
    EXPECT_EQ(total[0].time, t0.addSecs(300)) << "no total at t0: b was there but had not reported";
    EXPECT_EQ(total[0].allocated, 3000);
    EXPECT_EQ(total[0].quota, 4000) << "b has no quota yet";
    EXPECT_DOUBLE_EQ(total[0].utilization, 80) << "b's utilization is unknown: only a's GPUs weigh";
    EXPECT_EQ(total[1].time, t0.addSecs(600));
    EXPECT_EQ(total[1].allocated, 6000);
    EXPECT_EQ(total[1].quota, 6000);
    EXPECT_DOUBLE_EQ(total[1].utilization, (50.0 * 4 + 20.0 * 2) / 6);
    EXPECT_EQ(total[1].project, QStringLiteral("dgx"));
    EXPECT_EQ(total[2].time, t0.addSecs(7200)) << "a project created later does not hold the totals back";
    EXPECT_EQ(total[2].allocated, 7000);
    EXPECT_EQ(total[2].quota, 7000);
    EXPECT_DOUBLE_EQ(total[2].utilization, (50.0 * 4 + 20.0 * 2) / 6) << "c's utilization is unknown";
    EXPECT_TRUE(clusterHistory({}, QStringLiteral("dgx")).empty());
}
