// The quota what-if (models/core/planning/gpuallocator + quotawhatif) against SCHEDULING.md §3.5's golden
// tables (TR-4858 §4.8–4.10), and against the Kubernetes simulator's scheduler on random clusters.
// The two allocators share no code, so each checks the other.

#include "models/core/planning/gpuallocator.h"
#include "models/core/planning/quotawhatif.h"
#include "simulators/kubernetes/scheduler.h"
#include "simulators/kubernetes/tr4858.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

using strata::core::GpuAllocator;
using strata::core::MilliGpu;
using strata::core::QuotaChange;
using strata::core::WhatIfJob;
// Aliases of their own: the unity build puts this file next to others that say `sim` or `core`.
namespace wicore = strata::core;
namespace wisim = strata::sim::kube;
namespace witr = strata::sim::kube::tr4858;

namespace {

const QString kWhatIfCluster = QStringLiteral("dgx");

QString whatIfText(const std::string &text)
{
    return QString::fromStdString(text);
}

wicore::JobType whatIfJobType(wisim::JobKind kind)
{
    return kind == wisim::JobKind::Interactive ? wicore::JobType::Interactive : wicore::JobType::Train;
}

GpuAllocator whatIfTr4858Allocator()
{
    GpuAllocator allocator;
    QList<GpuAllocator::Node> nodes;
    for (const auto &node : witr::nodes()) {
        nodes.append({whatIfText(node.name), node.gpus, true});
    }
    allocator.setNodes(nodes);
    for (const auto &queue : witr::queues()) {
        allocator.setQuota(whatIfText(queue.project), queue.quota);
    }
    return allocator;
}

std::map<QString, GpuAllocator::ProjectState> whatIfProjectsOf(const GpuAllocator &allocator)
{
    std::map<QString, GpuAllocator::ProjectState> out;
    for (const auto &p : allocator.projects()) {
        out[p.name] = p;
    }
    return out;
}

// The live estate's rows (what the Kubernetes source publishes) for a simulator scheduler's state.
struct WhatIfEstateRows
{
    QList<wicore::GpuNode> nodes;
    QList<wicore::Project> projects;
    QList<wicore::Job> jobs;
};

WhatIfEstateRows whatIfRowsOf(const wisim::Scheduler &scheduler)
{
    WhatIfEstateRows rows;
    for (const auto &node : scheduler.nodes()) {
        wicore::GpuNode row;
        row.source = kWhatIfCluster;
        row.id = row.name = whatIfText(node.name);
        row.gpuCount = node.gpus;
        row.allocatable = MilliGpu(node.gpus) * 1000;
        row.ready = true;
        rows.nodes.append(row);
    }
    for (const auto &project : scheduler.projects()) {
        wicore::Project row;
        row.source = kWhatIfCluster;
        row.id = row.name = whatIfText(project.name);
        row.quota = project.quota;
        rows.projects.append(row);
    }
    const QDateTime epoch = QDateTime::fromSecsSinceEpoch(1'700'000'000, Qt::UTC);
    for (const auto &job : scheduler.jobs()) {
        wicore::Job row;
        row.source = kWhatIfCluster;
        row.id = whatIfText(job.job.id);
        row.name = row.id.section(QLatin1Char('/'), -1);
        row.project = whatIfText(job.job.project);
        row.type = whatIfJobType(job.job.kind);
        row.gpusRequested = job.job.gpus;
        row.created = epoch.addSecs(qint64(job.job.submitSeq));
        if (job.state == wisim::JobState::Running) {
            row.status = wicore::JobStatus::Running;
            row.node = whatIfText(job.node);
            QStringList indices;
            for (const int i : job.gpuIndices) {
                indices.append(QString::number(i));
            }
            row.gpuIndices = indices.join(QLatin1Char(','));
            row.started = epoch.addSecs(100'000 + qint64(job.startSeq));
        } else {
            row.status = job.preempted ? wicore::JobStatus::Preempted : wicore::JobStatus::Pending;
        }
        rows.jobs.append(row);
    }
    return rows;
}

} // namespace

// SCHEDULING.md §3.5: every step of TR-4858 §4.8–4.10, each from the state the step before left.
TEST(GpuAllocatorGolden, ReproducesEveryTr4858Table)
{
    GpuAllocator allocator = whatIfTr4858Allocator();
    const auto steps = witr::allSteps();
    quint64 order = 1;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const auto &step = steps[i];
        const QString id = whatIfText(witr::jobId(step.job));
        if (step.op == witr::ScenarioStep::Op::Submit) {
            ASSERT_TRUE(allocator.submit(
                {id, whatIfText(step.job.project), step.job.gpus, whatIfJobType(step.job.kind), order++}))
                << step.title;
        } else {
            ASSERT_TRUE(allocator.remove(id)) << step.title;
        }
        allocator.settle();
        const auto got = whatIfProjectsOf(allocator);
        for (const auto &want : witr::expectedAfter(i)) {
            SCOPED_TRACE("after step " + std::to_string(i) + " (" + step.title + "), " + want.project);
            const auto it = got.find(whatIfText(want.project));
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
    GpuAllocator allocator = whatIfTr4858Allocator();
    const auto steps = witr::allSteps();
    quint64 order = 1;
    QList<GpuAllocator::Decision> last;
    for (std::size_t i = 0; i < 14; ++i) {
        const auto &step = steps[i];
        allocator.submit({whatIfText(witr::jobId(step.job)),
                          whatIfText(step.job.project),
                          step.job.gpus,
                          whatIfJobType(step.job.kind),
                          order++});
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
    wisim::Scheduler scheduler;
    scheduler.setNodes(witr::nodes());
    for (const auto &q : witr::queues()) {
        scheduler.setProject(q.project, q.quota);
    }
    const auto steps = witr::allSteps();
    for (std::size_t i = 0; i < 15; ++i) {
        scheduler.submit(witr::toSchedJob(steps[i].job));
        scheduler.schedule();
    }
    const WhatIfEstateRows rows = whatIfRowsOf(scheduler);
    QList<QuotaChange> changes;
    for (const char *team : {"team-a", "team-b", "team-c", "team-d"}) {
        changes.append({QString::fromLatin1(team), MilliGpu(4000), std::nullopt});
    }
    const auto outcome = wicore::predictQuotaChange(kWhatIfCluster, rows.nodes, rows.projects, rows.jobs, changes);
    ASSERT_TRUE(outcome) << outcome.error().message.toStdString();
    const wicore::QuotaWhatIf &whatIf = *outcome;
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
    wisim::Scheduler scheduler;
    scheduler.setNodes(witr::nodes());
    scheduler.setProject("team-a", 4000);
    const WhatIfEstateRows rows = whatIfRowsOf(scheduler);
    auto outcome = wicore::predictQuotaChange(kWhatIfCluster,
                                              rows.nodes,
                                              rows.projects,
                                              rows.jobs,
                                              {{QStringLiteral("team-z"), MilliGpu(1000), std::nullopt}});
    EXPECT_FALSE(outcome);
    EXPECT_EQ(outcome.error().message, QStringLiteral("dgx has no project team-z"));
    EXPECT_EQ(outcome.error().kind, wicore::Error::Kind::NotFound);
    outcome = wicore::predictQuotaChange(
        kWhatIfCluster, rows.nodes, rows.projects, rows.jobs, {{QStringLiteral("team-a"), MilliGpu(-1), std::nullopt}});
    EXPECT_FALSE(outcome);
    outcome = wicore::predictQuotaChange(QStringLiteral("other"), rows.nodes, rows.projects, rows.jobs, {});
    EXPECT_FALSE(outcome);

    const auto malformed = wicore::parseQuotaChange(QStringLiteral("team-a"), false);
    ASSERT_FALSE(malformed);
    EXPECT_EQ(malformed.error().kind, wicore::Error::Kind::Invalid);
    EXPECT_FALSE(malformed.error().message.isEmpty());
    EXPECT_FALSE(wicore::parseQuotaChange(QStringLiteral("team-a=-2"), false));
    EXPECT_FALSE(wicore::parseQuotaChange(QStringLiteral("=2"), true));
    const auto change = wicore::parseQuotaChange(QStringLiteral("team-b=2.5"), false);
    ASSERT_TRUE(change);
    EXPECT_EQ(change->project, QStringLiteral("team-b"));
    EXPECT_EQ(change->quota, MilliGpu(2500));
    EXPECT_FALSE(change->overQuotaWeight);
    const auto weight = wicore::parseQuotaChange(QStringLiteral("team-b=3"), true);
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
        wisim::Scheduler scheduler;
        std::vector<wisim::SchedNode> nodes;
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
            const wisim::JobKind kind = pick(0, 4) == 0 ? wisim::JobKind::Interactive : wisim::JobKind::Train;
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
                changes.append({whatIfText(project), MilliGpu(pick(0, 8)) * 1000, std::nullopt});
            }
        }
        const WhatIfEstateRows rows = whatIfRowsOf(scheduler);
        const auto outcome = wicore::predictQuotaChange(kWhatIfCluster, rows.nodes, rows.projects, rows.jobs, changes);
        ASSERT_TRUE(outcome) << outcome.error().message.toStdString();
        ASSERT_TRUE(outcome->notes.isEmpty());

        for (const auto &change : changes) {
            scheduler.setProject(change.project.toStdString(), *change.quota);
        }
        const auto decisions = scheduler.schedule();
        withChanges += decisions.empty() ? 0 : 1;
        for (const auto &d : decisions) {
            reclaims += d.kind == wisim::Decision::Kind::Preempt ? 1 : 0;
        }

        std::map<QString, const WhatIfJob *> predicted;
        for (const auto &job : outcome->jobs) {
            predicted[job.id] = &job;
        }
        for (const auto &job : scheduler.jobs()) {
            const auto it = predicted.find(whatIfText(job.job.id));
            ASSERT_NE(it, predicted.end()) << job.job.id;
            const bool predictedRunning = it->second->outcome == WhatIfJob::Outcome::KeepsRunning
                                          || it->second->outcome == WhatIfJob::Outcome::Starts;
            EXPECT_EQ(predictedRunning, job.state == wisim::JobState::Running) << job.job.id;
            if (predictedRunning && job.state == wisim::JobState::Running) {
                EXPECT_EQ(it->second->node, whatIfText(job.node)) << job.job.id;
            }
            ++compared;
        }
        std::map<QString, MilliGpu> allocated;
        for (const auto &p : scheduler.projects()) {
            allocated[whatIfText(p.name)] = p.allocated;
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
