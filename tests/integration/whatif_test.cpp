// The quota what-if (models/core/gpuallocator + quotawhatif) against SCHEDULING.md §3.5's golden
// tables (TR-4858 §4.8–4.10), and against the Kubernetes simulator's scheduler on random clusters.
// The two allocators share no code, so each checks the other.

#include "models/core/gpuallocator.h"
#include "models/core/quotawhatif.h"
#include "simulators/kubernetes/scheduler.h"
#include "simulators/kubernetes/tr4858.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

using strata::core::GpuAllocator;
using strata::core::MilliGpu;
using strata::core::QuotaChange;
using strata::core::WhatIfJob;
namespace core = strata::core;
namespace sim = strata::sim::kube;
namespace tr4858 = strata::sim::kube::tr4858;

namespace {

const QString kWhatIfCluster = QStringLiteral("dgx");

QString qstr(const std::string &text)
{
    return QString::fromStdString(text);
}

core::JobType jobTypeOf(sim::JobKind kind)
{
    return kind == sim::JobKind::Interactive ? core::JobType::Interactive : core::JobType::Train;
}

GpuAllocator tr4858Allocator()
{
    GpuAllocator allocator;
    QList<GpuAllocator::Node> nodes;
    for (const auto &node : tr4858::nodes()) {
        nodes.append({qstr(node.name), node.gpus, true});
    }
    allocator.setNodes(nodes);
    for (const auto &queue : tr4858::queues()) {
        allocator.setQuota(qstr(queue.project), queue.quota);
    }
    return allocator;
}

std::map<QString, GpuAllocator::ProjectState> projectsOf(const GpuAllocator &allocator)
{
    std::map<QString, GpuAllocator::ProjectState> out;
    for (const auto &p : allocator.projects()) {
        out[p.name] = p;
    }
    return out;
}

// The live estate's rows (what the Kubernetes source publishes) for a simulator scheduler's state.
struct EstateRows
{
    QList<core::GpuNode> nodes;
    QList<core::Project> projects;
    QList<core::Job> jobs;
};

EstateRows rowsOf(const sim::Scheduler &scheduler)
{
    EstateRows rows;
    for (const auto &node : scheduler.nodes()) {
        core::GpuNode row;
        row.source = kWhatIfCluster;
        row.id = row.name = qstr(node.name);
        row.gpuCount = node.gpus;
        row.allocatable = MilliGpu(node.gpus) * 1000;
        row.ready = true;
        rows.nodes.append(row);
    }
    for (const auto &project : scheduler.projects()) {
        core::Project row;
        row.source = kWhatIfCluster;
        row.id = row.name = qstr(project.name);
        row.quota = project.quota;
        rows.projects.append(row);
    }
    const QDateTime epoch = QDateTime::fromSecsSinceEpoch(1'700'000'000, Qt::UTC);
    for (const auto &job : scheduler.jobs()) {
        core::Job row;
        row.source = kWhatIfCluster;
        row.id = qstr(job.job.id);
        row.name = row.id.section(QLatin1Char('/'), -1);
        row.project = qstr(job.job.project);
        row.type = jobTypeOf(job.job.kind);
        row.gpusRequested = job.job.gpus;
        row.created = epoch.addSecs(qint64(job.job.submitSeq));
        if (job.state == sim::JobState::Running) {
            row.status = core::JobStatus::Running;
            row.node = qstr(job.node);
            QStringList indices;
            for (const int i : job.gpuIndices) {
                indices.append(QString::number(i));
            }
            row.gpuIndices = indices.join(QLatin1Char(','));
            row.started = epoch.addSecs(100'000 + qint64(job.startSeq));
        } else {
            row.status = job.preempted ? core::JobStatus::Preempted : core::JobStatus::Pending;
        }
        rows.jobs.append(row);
    }
    return rows;
}

} // namespace

// SCHEDULING.md §3.5: every step of TR-4858 §4.8–4.10, each from the state the step before left.
TEST(GpuAllocatorGolden, ReproducesEveryTr4858Table)
{
    GpuAllocator allocator = tr4858Allocator();
    const auto steps = tr4858::allSteps();
    quint64 order = 1;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const auto &step = steps[i];
        const QString id = qstr(tr4858::jobId(step.job));
        if (step.op == tr4858::ScenarioStep::Op::Submit) {
            ASSERT_TRUE(
                allocator.submit({id, qstr(step.job.project), step.job.gpus, jobTypeOf(step.job.kind), order++}))
                << step.title;
        } else {
            ASSERT_TRUE(allocator.remove(id)) << step.title;
        }
        allocator.settle();
        const auto got = projectsOf(allocator);
        for (const auto &want : tr4858::expectedAfter(i)) {
            SCOPED_TRACE("after step " + std::to_string(i) + " (" + step.title + "), " + want.project);
            const auto it = got.find(qstr(want.project));
            ASSERT_NE(it, got.end());
            EXPECT_EQ(it->second.allocated, want.allocated);
            EXPECT_EQ(it->second.quota, want.quota);
            EXPECT_EQ(it->second.fairShare, want.fairShare);
            EXPECT_EQ(it->second.queued, want.queued);
        }
    }
}

// §4.9: d-2-gg makes team-d reclaim; the paused 2-GPU job is c-4-gg (the documented tie-break: the
// most recently started victim), on the node where the freed pair lets d-2-gg start.
TEST(GpuAllocatorGolden, ReclaimPausesOneTwoGpuJobOfTheNewestTeam)
{
    GpuAllocator allocator = tr4858Allocator();
    const auto steps = tr4858::allSteps();
    quint64 order = 1;
    QList<GpuAllocator::Decision> last;
    for (std::size_t i = 0; i < 14; ++i) {
        const auto &step = steps[i];
        allocator.submit(
            {qstr(tr4858::jobId(step.job)), qstr(step.job.project), step.job.gpus, jobTypeOf(step.job.kind), order++});
        last = allocator.settle();
    }
    ASSERT_EQ(steps[13].job.name, "d-2-gg");
    ASSERT_EQ(last.size(), 2);
    EXPECT_EQ(last[0].kind, GpuAllocator::Decision::Kind::Preempt);
    EXPECT_EQ(last[0].job, QStringLiteral("runai-team-c/c-4-gg"));
    EXPECT_EQ(last[0].byProject, QStringLiteral("team-d"));
    EXPECT_EQ(last[1].kind, GpuAllocator::Decision::Kind::Start);
    EXPECT_EQ(last[1].job, QStringLiteral("runai-team-d/d-2-gg"));
    EXPECT_EQ(last[1].node, last[0].node);
    EXPECT_EQ(allocator.pendingReason(QStringLiteral("runai-team-c/c-4-gg")),
              QStringLiteral("preempted by team-d reclaiming its quota"));
}

// A quota what-if on the live rows of the §4.9 end state (d 8/8, b 2/2 and c 2/2 with their paused
// jobs queued): giving every team 4 GPUs lets b and c reclaim 2 each from team-d's newest jobs.
TEST(QuotaWhatIf, EqualQuotasFromTheTr4858State_ReclaimsTeamDsNewestJobs)
{
    sim::Scheduler scheduler;
    scheduler.setNodes(tr4858::nodes());
    for (const auto &q : tr4858::queues()) {
        scheduler.setProject(q.project, q.quota);
    }
    const auto steps = tr4858::allSteps();
    for (std::size_t i = 0; i < 15; ++i) {
        scheduler.submit(tr4858::toSchedJob(steps[i].job));
        scheduler.schedule();
    }
    const EstateRows rows = rowsOf(scheduler);
    QList<QuotaChange> changes;
    for (const char *team : {"team-a", "team-b", "team-c", "team-d"}) {
        changes.append({QString::fromLatin1(team), MilliGpu(4000), std::nullopt});
    }
    const auto outcome = core::predictQuotaChange(kWhatIfCluster, rows.nodes, rows.projects, rows.jobs, changes);
    ASSERT_TRUE(outcome) << outcome.error().message.toStdString();
    const core::QuotaWhatIf &whatIf = *outcome;
    EXPECT_EQ(whatIf.capacity, 16000);
    EXPECT_EQ(whatIf.quotaTotalBefore, 16000);
    EXPECT_EQ(whatIf.quotaTotalAfter, 16000);
    ASSERT_EQ(whatIf.projects.size(), 4);
    for (const auto &p : whatIf.projects) {
        SCOPED_TRACE(p.project.toStdString());
        EXPECT_EQ(p.quotaAfter, 4000);
        EXPECT_EQ(p.allocatedAfter, 4000);
        EXPECT_EQ(p.fairShareAfter, 4000);
        EXPECT_EQ(p.queuedAfter, p.project == QLatin1String("team-d") ? 2 : 0);
    }
    EXPECT_EQ(whatIf.projects[3].allocatedBefore, 8000);
    EXPECT_EQ(whatIf.projects[3].preempted, 2);
    EXPECT_EQ(whatIf.projects[1].starts, 1);
    ASSERT_GE(whatIf.jobs.size(), 4);
    QStringList preempted;
    QStringList started;
    for (const auto &job : whatIf.jobs) {
        if (job.outcome == WhatIfJob::Outcome::Preempted) {
            preempted.append(job.name);
        } else if (job.outcome == WhatIfJob::Outcome::Starts) {
            started.append(job.name);
        }
    }
    preempted.sort();
    started.sort();
    EXPECT_EQ(preempted, (QStringList{QStringLiteral("d-2-gg"), QStringLiteral("d-3-gg")}));
    EXPECT_EQ(started, (QStringList{QStringLiteral("b-4-gg"), QStringLiteral("c-4-gg")}));
    EXPECT_EQ(whatIf.jobs[0].outcome, WhatIfJob::Outcome::Preempted);
}

TEST(QuotaWhatIf, RefusesUnknownProjectsAndNegativeQuotas)
{
    sim::Scheduler scheduler;
    scheduler.setNodes(tr4858::nodes());
    scheduler.setProject("team-a", 4000);
    const EstateRows rows = rowsOf(scheduler);
    auto outcome = core::predictQuotaChange(kWhatIfCluster,
                                            rows.nodes,
                                            rows.projects,
                                            rows.jobs,
                                            {{QStringLiteral("team-z"), MilliGpu(1000), std::nullopt}});
    EXPECT_FALSE(outcome);
    EXPECT_EQ(outcome.error().message, QStringLiteral("dgx has no project team-z"));
    EXPECT_EQ(outcome.error().kind, core::Error::Kind::NotFound);
    outcome = core::predictQuotaChange(
        kWhatIfCluster, rows.nodes, rows.projects, rows.jobs, {{QStringLiteral("team-a"), MilliGpu(-1), std::nullopt}});
    EXPECT_FALSE(outcome);
    outcome = core::predictQuotaChange(QStringLiteral("other"), rows.nodes, rows.projects, rows.jobs, {});
    EXPECT_FALSE(outcome);

    const auto malformed = core::parseQuotaChange(QStringLiteral("team-a"), false);
    ASSERT_FALSE(malformed);
    EXPECT_EQ(malformed.error().kind, core::Error::Kind::Invalid);
    EXPECT_FALSE(malformed.error().message.isEmpty());
    EXPECT_FALSE(core::parseQuotaChange(QStringLiteral("team-a=-2"), false));
    EXPECT_FALSE(core::parseQuotaChange(QStringLiteral("=2"), true));
    const auto change = core::parseQuotaChange(QStringLiteral("team-b=2.5"), false);
    ASSERT_TRUE(change);
    EXPECT_EQ(change->project, QStringLiteral("team-b"));
    EXPECT_EQ(change->quota, MilliGpu(2500));
    EXPECT_FALSE(change->overQuotaWeight);
    const auto weight = core::parseQuotaChange(QStringLiteral("team-b=3"), true);
    ASSERT_TRUE(weight);
    EXPECT_EQ(weight->overQuotaWeight, 3.0);
}

// Random clusters, quotas and job mixes: the what-if's prediction from the simulator's live state
// must be exactly what the simulator's scheduler then does once the quotas change.
TEST(QuotaWhatIf, PredictsTheSimulatorsSchedulerOnRandomClusters)
{
    std::mt19937 random(20261126);
    const auto pick = [&](int lo, int hi) {
        return std::uniform_int_distribution<int>(lo, hi)(random);
    };
    const MilliGpu sizes[] = {250, 500, 600, 1000, 1000, 2000, 2000, 3000, 4000};
    int compared = 0;
    int withChanges = 0;
    int reclaims = 0;
    for (int round = 0; round < 400; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        sim::Scheduler scheduler;
        std::vector<sim::SchedNode> nodes;
        const int nodeCount = pick(1, 3);
        for (int n = 0; n < nodeCount; ++n) {
            nodes.push_back({"node-" + std::to_string(n), pick(2, 8)});
        }
        scheduler.setNodes(nodes);
        const int projectCount = pick(2, 4);
        std::vector<std::string> projects;
        for (int p = 0; p < projectCount; ++p) {
            projects.push_back("team-" + std::string(1, char('a' + p)));
            scheduler.setProject(projects.back(), MilliGpu(pick(0, 6)) * 1000);
        }
        const int jobCount = pick(6, 24);
        for (int j = 0; j < jobCount; ++j) {
            const auto &project = projects[std::size_t(pick(0, projectCount - 1))];
            const sim::JobKind kind = pick(0, 4) == 0 ? sim::JobKind::Interactive : sim::JobKind::Train;
            scheduler.submit({project + "/job-" + std::to_string(j), project, sizes[pick(0, 8)], kind, 0});
            if (pick(0, 2) == 0) {
                scheduler.schedule();
            }
            if (pick(0, 5) == 0 && j > 0) {
                scheduler.remove(projects[0] + "/job-" + std::to_string(pick(0, j - 1)));
            }
        }
        scheduler.schedule();

        QList<QuotaChange> changes;
        for (const auto &project : projects) {
            if (pick(0, 1) == 0) {
                changes.append({qstr(project), MilliGpu(pick(0, 8)) * 1000, std::nullopt});
            }
        }
        const EstateRows rows = rowsOf(scheduler);
        const auto outcome = core::predictQuotaChange(kWhatIfCluster, rows.nodes, rows.projects, rows.jobs, changes);
        ASSERT_TRUE(outcome) << outcome.error().message.toStdString();
        ASSERT_TRUE(outcome->notes.isEmpty());

        for (const auto &change : changes) {
            scheduler.setProject(change.project.toStdString(), *change.quota);
        }
        const auto decisions = scheduler.schedule();
        withChanges += decisions.empty() ? 0 : 1;
        for (const auto &d : decisions) {
            reclaims += d.kind == sim::Decision::Kind::Preempt ? 1 : 0;
        }

        std::map<QString, const WhatIfJob *> predicted;
        for (const auto &job : outcome->jobs) {
            predicted[job.id] = &job;
        }
        for (const auto &job : scheduler.jobs()) {
            const auto it = predicted.find(qstr(job.job.id));
            ASSERT_NE(it, predicted.end()) << job.job.id;
            const bool predictedRunning = it->second->outcome == WhatIfJob::Outcome::KeepsRunning
                                          || it->second->outcome == WhatIfJob::Outcome::Starts;
            EXPECT_EQ(predictedRunning, job.state == sim::JobState::Running) << job.job.id;
            if (predictedRunning && job.state == sim::JobState::Running) {
                EXPECT_EQ(it->second->node, qstr(job.node)) << job.job.id;
            }
            ++compared;
        }
        std::map<QString, MilliGpu> allocated;
        for (const auto &p : scheduler.projects()) {
            allocated[qstr(p.name)] = p.allocated;
        }
        for (const auto &p : outcome->projects) {
            EXPECT_EQ(p.allocatedAfter, allocated[p.project]) << p.project.toStdString();
        }
        if (HasFailure()) {
            break;
        }
    }
    EXPECT_GT(compared, 1000);
    EXPECT_GT(withChanges, 80); // the rounds must exercise starts and reclaims, not only no-ops
    EXPECT_GT(reclaims, 40);
}
