// The simulator's GPU scheduler: TR-4858 sections 4.8-4.10 replayed against SCHEDULING.md 3.5, and
// the rules R1-R9 one by one on small clusters.

#include "simulators/kubernetes/scheduler.h"
#include "simulators/kubernetes/tr4858.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

using namespace strata::sim::kube;

namespace {

using Kind = Decision::Kind;

SchedJob train(const std::string &id, const std::string &project, MilliGpu gpus)
{
    return {id, project, gpus, JobKind::Train, 0};
}

SchedJob interactive(const std::string &id, const std::string &project, MilliGpu gpus)
{
    return {id, project, gpus, JobKind::Interactive, 0};
}

std::map<std::string, ProjectStatus> byName(const Scheduler &s)
{
    std::map<std::string, ProjectStatus> out;
    for (const auto &p : s.projects())
        out[p.name] = p;
    return out;
}

int count(const std::vector<Decision> &decisions, Kind kind)
{
    return int(std::count_if(decisions.begin(), decisions.end(), [&](const Decision &d) {
        return d.kind == kind;
    }));
}

std::string stateOf(const Scheduler &s, const std::string &id)
{
    const auto *job = s.job(id);
    if (job == nullptr)
        return "missing";
    return job->state == JobState::Running ? "running on " + job->node : "pending";
}

// Replays TR-4858 step by step and checks every step against tr4858::expectedAfter().
class Tr4858Replay : public ::testing::Test
{
protected:
    void SetUp() override
    {
        scheduler.setNodes(tr4858::nodes());
        for (const auto &q : tr4858::queues())
            scheduler.setProject(q.project, q.quota);
        steps = tr4858::allSteps();
    }

    std::vector<Decision> apply(std::size_t index)
    {
        const auto &step = steps.at(index);
        if (step.op == tr4858::ScenarioStep::Op::Submit)
            EXPECT_TRUE(scheduler.submit(tr4858::toSchedJob(step.job))) << step.title;
        else
            EXPECT_TRUE(scheduler.remove(tr4858::jobId(step.job))) << step.title;
        return scheduler.schedule();
    }

    void expectState(std::size_t index)
    {
        const auto projects = byName(scheduler);
        for (const auto &want : tr4858::expectedAfter(index)) {
            SCOPED_TRACE("after step " + std::to_string(index) + " (" + steps[index].title + "), " + want.project);
            ASSERT_EQ(projects.count(want.project), 1u);
            const auto &got = projects.at(want.project);
            EXPECT_EQ(got.allocated, want.allocated);
            EXPECT_EQ(got.quota, want.quota);
            EXPECT_EQ(got.fairShare, want.fairShare);
            EXPECT_EQ(got.queued, want.queued);
        }
    }

    Scheduler scheduler;
    std::vector<tr4858::ScenarioStep> steps;
};

} // namespace

TEST(Tr4858Data, StepsFollowTheDocument)
{
    const auto steps = tr4858::allSteps();
    ASSERT_EQ(steps.size(), 22u);
    EXPECT_EQ(tr4858::section48().size(), 13u);
    EXPECT_EQ(tr4858::section49().size(), 2u);
    EXPECT_EQ(tr4858::section410().size(), 7u);
    for (std::size_t i = 0; i < steps.size(); ++i)
        EXPECT_EQ(tr4858::expectedAfter(i).size(), 4u) << i;
    EXPECT_TRUE(tr4858::expectedAfter(22).empty());

    EXPECT_EQ(steps[0].job.name, "a-1-1-jupyter");
    EXPECT_EQ(steps[0].job.image, "jupyter/base-notebook");
    EXPECT_EQ(steps[0].job.kind, JobKind::Interactive);
    EXPECT_EQ(steps[0].job.command, std::vector<std::string>{"start-notebook.sh"});
    EXPECT_EQ(steps[3].job.name, "b-1-g06");
    EXPECT_EQ(steps[3].job.gpus, 600);
    EXPECT_EQ(steps[3].title, "team-b submits b-1-g06 (0.6 GPUs, interactive)");
    // E4: the "NetApp" image of the 4.8 table is the quickstart image.
    EXPECT_EQ(steps[5].job.name, "b-3-g");
    EXPECT_EQ(steps[5].job.image, "gcr.io/run-ai-demo/quickstart");
    EXPECT_EQ(steps[5].cli, "runai submit b-3-g -i gcr.io/run-ai-demo/quickstart -g 1 -p team-b");
    EXPECT_EQ(steps[12].job.name, "d-1-gggg");
    EXPECT_EQ(steps[12].job.gpus, 4000);
    EXPECT_EQ(steps[13].section, "4.9");
    EXPECT_EQ(steps[13].title, "team-d submits d-2-gg (2 GPUs)");
    EXPECT_EQ(steps[18].job.name, "c-6-gg");
    for (std::size_t i = 19; i < 22; ++i) {
        EXPECT_EQ(steps[i].op, tr4858::ScenarioStep::Op::Delete);
        EXPECT_EQ(steps[i].job.project, "team-d");
        EXPECT_EQ(steps[i].section, "4.10");
    }
    EXPECT_EQ(steps[21].job.name, "d-3-gg");
    EXPECT_EQ(tr4858::jobId(steps[21].job), "runai-team-d/d-3-gg");

    int interactiveCount = 0;
    for (const auto &s : tr4858::section48())
        interactiveCount += s.job.kind == JobKind::Interactive ? 1 : 0;
    EXPECT_EQ(interactiveCount, 6); // "seven training and six interactive jobs"

    MilliGpu quotaSum = 0;
    for (const auto &q : tr4858::queues())
        quotaSum += q.quota;
    int gpuSum = 0;
    for (const auto &n : tr4858::nodes())
        gpuSum += n.gpus;
    EXPECT_EQ(quotaSum, 16000);
    EXPECT_EQ(gpuSum, 16);
    EXPECT_FALSE(tr4858::documentedState(19));
    EXPECT_TRUE(tr4858::documentedState(21));
}

TEST_F(Tr4858Replay, Section48FillsTheClusterWithoutPreemption)
{
    // The document's running totals per team after each submission (L.5599-5613).
    const std::map<std::string, std::vector<MilliGpu>> totals = {
        {"team-a", {1000, 2000, 4000}},
        {"team-b", {600, 1000, 2000, 4000}},
        {"team-c", {500, 800, 1000, 3000, 4000}},
        {"team-d", {4000}},
    };
    std::map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < 13; ++i) {
        const auto decisions = apply(i);
        EXPECT_EQ(count(decisions, Kind::Preempt), 0) << i;
        ASSERT_EQ(decisions.size(), 1u) << i;
        EXPECT_EQ(decisions[0].jobId, tr4858::jobId(steps[i].job));
        const auto &project = steps[i].job.project;
        EXPECT_EQ(byName(scheduler).at(project).allocated, totals.at(project).at(seen[project]++)) << i;
        expectState(i);
    }
    const auto nodes = scheduler.nodes();
    ASSERT_EQ(nodes.size(), 2u);
    EXPECT_EQ(nodes[0].allocated, 8000);
    EXPECT_EQ(nodes[1].allocated, 8000);
    // 0.6 + 0.4 share one physical GPU, as do 0.5 + 0.3 + 0.2.
    const auto *b1 = scheduler.job("runai-team-b/b-1-g06");
    const auto *b2 = scheduler.job("runai-team-b/b-2-g04");
    ASSERT_TRUE(b1 && b2);
    EXPECT_EQ(b1->node, b2->node);
    EXPECT_EQ(b1->gpuIndices, b2->gpuIndices);
    const auto *c1 = scheduler.job("runai-team-c/c-1-g05");
    const auto *c3 = scheduler.job("runai-team-c/c-3-g02");
    ASSERT_TRUE(c1 && c3);
    EXPECT_EQ(c1->node, c3->node);
    EXPECT_EQ(c1->gpuIndices, c3->gpuIndices);
    const auto *d1 = scheduler.job("runai-team-d/d-1-gggg");
    ASSERT_TRUE(d1);
    EXPECT_EQ(d1->gpuIndices.size(), 4u);
}

TEST_F(Tr4858Replay, Section49TeamDReclaimsItsQuotaOneJobEach)
{
    for (std::size_t i = 0; i < 13; ++i)
        apply(i);

    auto decisions = apply(13); // d-2-gg
    ASSERT_EQ(decisions.size(), 2u);
    EXPECT_EQ(decisions[0].kind, Kind::Preempt);
    EXPECT_EQ(decisions[0].jobId, "runai-team-c/c-4-gg"); // tie-break: most recently started victim
    EXPECT_EQ(decisions[0].byProject, "team-d");
    EXPECT_EQ(decisions[1].kind, Kind::Start);
    EXPECT_EQ(decisions[1].jobId, "runai-team-d/d-2-gg");
    EXPECT_EQ(decisions[1].node, decisions[0].node);
    expectState(13);
    const auto *c4 = scheduler.job("runai-team-c/c-4-gg");
    ASSERT_TRUE(c4);
    EXPECT_EQ(c4->state, JobState::Pending);
    EXPECT_TRUE(c4->preempted);
    EXPECT_EQ(c4->preemptedBy, "team-d");
    EXPECT_EQ(c4->pendingReason, "preempted by team-d reclaiming its quota");
    // R5: c (2/2, fair share 3) does not take c-4-gg back from b.
    EXPECT_TRUE(scheduler.schedule().empty());

    decisions = apply(14); // d-3-gg
    ASSERT_EQ(decisions.size(), 2u);
    EXPECT_EQ(decisions[0].kind, Kind::Preempt);
    EXPECT_EQ(decisions[0].jobId, "runai-team-b/b-4-gg");
    EXPECT_EQ(decisions[1].jobId, "runai-team-d/d-3-gg");
    expectState(14);
    // Interactive fractions and in-quota jobs keep running.
    for (const auto *id : {"runai-team-b/b-1-g06",
                           "runai-team-b/b-2-g04",
                           "runai-team-b/b-3-g",
                           "runai-team-c/c-1-g05",
                           "runai-team-c/c-5-g",
                           "runai-team-a/a-2-gg"})
        EXPECT_EQ(stateOf(scheduler, id).rfind("running", 0), 0u) << id;
    EXPECT_TRUE(scheduler.schedule().empty());
}

TEST_F(Tr4858Replay, Section410OverQuotaSplitsInProportionToQuota)
{
    for (std::size_t i = 0; i < 15; ++i)
        apply(i);
    for (std::size_t i = 15; i < 19; ++i) {
        EXPECT_TRUE(apply(i).empty()) << steps[i].title;
        expectState(i);
    }
    EXPECT_EQ(scheduler.job("runai-team-a/a-3-gg")->pendingReason,
              "project team-a is at or over its fair share (4/4 GPUs)");
    EXPECT_EQ(scheduler.job("runai-team-b/b-5-gg")->pendingReason,
              "project team-b is at or over its fair share (2/2 GPUs)");
    EXPECT_EQ(scheduler.job("runai-team-b/b-4-gg")->pendingReason, "preempted by team-d reclaiming its quota");

    for (std::size_t i = 19; i < 22; ++i) {
        const auto decisions = apply(i);
        EXPECT_EQ(count(decisions, Kind::Preempt), 0) << steps[i].title;
        expectState(i);
    }
    // R9: the jobs still queued are the later ones, b-5-gg and c-6-gg.
    EXPECT_EQ(scheduler.queue("team-b"), std::vector<std::string>{"runai-team-b/b-5-gg"});
    EXPECT_EQ(scheduler.queue("team-c"), std::vector<std::string>{"runai-team-c/c-6-gg"});
    EXPECT_TRUE(scheduler.queue("team-a").empty());
    const auto *b4 = scheduler.job("runai-team-b/b-4-gg");
    ASSERT_TRUE(b4);
    EXPECT_EQ(b4->state, JobState::Running);
    EXPECT_FALSE(b4->preempted);
    EXPECT_TRUE(b4->pendingReason.empty());
    EXPECT_EQ(b4->preemptions, 1);
    EXPECT_EQ(scheduler.nodes()[0].allocated + scheduler.nodes()[1].allocated, 16000);
}

TEST(KubeScheduler, FormatsGpuAmounts)
{
    EXPECT_EQ(formatGpus(600), "0.6");
    EXPECT_EQ(formatGpus(2000), "2");
    EXPECT_EQ(formatGpus(3500), "3.5");
    EXPECT_EQ(formatGpus(333), "0.33");
    EXPECT_EQ(formatGpus(999), "1");
    EXPECT_EQ(formatGpus(0), "0");
    EXPECT_EQ(formatGpus(12250), "12.25");
}

TEST(KubeScheduler, FractionsPackIntoOneGpuFirstFit)
{
    Scheduler s;
    s.setNodes({{"n1", 2}});
    s.setProject("p", 2000);
    s.submit(interactive("p/f06", "p", 600));
    s.submit(interactive("p/f04", "p", 400));
    s.schedule();
    auto nodes = s.nodes();
    ASSERT_EQ(nodes.size(), 1u);
    EXPECT_EQ(nodes[0].slots[0].used, 1000); // 0.6 + 0.4 == 1 exactly
    EXPECT_EQ(nodes[0].slots[0].jobs.size(), 2u);
    EXPECT_EQ(nodes[0].slots[1].used, 0);

    s.submit(train("p/h1", "p", 500));
    s.submit(train("p/h2", "p", 500));
    s.submit(train("p/h3", "p", 700)); // does not fit next to the two halves
    s.schedule();
    EXPECT_EQ(s.job("p/h1")->gpuIndices, std::vector<int>{1});
    EXPECT_EQ(s.job("p/h2")->gpuIndices, std::vector<int>{1}); // two 0.5 share one GPU
    EXPECT_EQ(s.job("p/h3")->state, JobState::Pending);
    EXPECT_EQ(s.job("p/h3")->pendingReason, "project p is at or over its fair share (2/2 GPUs)");
    nodes = s.nodes();
    EXPECT_EQ(nodes[0].allocated, 2000);
    EXPECT_EQ(nodes[0].slots[1].jobs[0].first, "p/h1");
    EXPECT_EQ(nodes[0].slots[1].jobs[0].second, 500);
}

TEST(KubeScheduler, FractionPrefersAPartiallyUsedGpuOnAnyNode)
{
    Scheduler s;
    s.setNodes({{"n1", 1}, {"n2", 2}});
    s.setProject("p", 3000);
    s.submit(train("p/whole", "p", 1000)); // n1 gpu 0
    s.submit(train("p/f7", "p", 700));     // n2 gpu 0
    s.submit(train("p/f5", "p", 500));     // n2 gpu 1 (0.7 + 0.5 > 1)
    s.submit(train("p/f3", "p", 300));     // first fit: back onto n2 gpu 0
    s.schedule();
    EXPECT_EQ(s.job("p/whole")->node, "n1");
    EXPECT_EQ(s.job("p/f7")->gpuIndices, std::vector<int>{0});
    EXPECT_EQ(s.job("p/f5")->gpuIndices, std::vector<int>{1});
    EXPECT_EQ(s.job("p/f3")->node, "n2");
    EXPECT_EQ(s.job("p/f3")->gpuIndices, std::vector<int>{0});
    EXPECT_EQ(s.nodes()[1].slots[0].used, 1000);
}

TEST(KubeScheduler, AJobNeedsAllItsGpusOnOneNode)
{
    Scheduler s;
    s.setNodes({{"n1", 2}, {"n2", 2}});
    s.setProject("p", 4000);
    s.submit(train("p/j1", "p", 1000));
    s.submit(train("p/j2", "p", 1000));
    s.submit(train("p/j3", "p", 1000));
    s.schedule();
    EXPECT_EQ(s.job("p/j1")->node, "n1");
    EXPECT_EQ(s.job("p/j2")->node, "n1");
    EXPECT_EQ(s.job("p/j3")->node, "n2");
    ASSERT_TRUE(s.remove("p/j2")); // now one free GPU on each node
    s.submit(train("p/big", "p", 2000));
    EXPECT_TRUE(s.schedule().empty());
    const auto *big = s.job("p/big");
    ASSERT_TRUE(big);
    EXPECT_EQ(big->state, JobState::Pending);
    EXPECT_EQ(big->pendingReason, "no node has 2 free GPUs together");
    EXPECT_EQ(byName(s).at("p").allocated, 2000);

    // Freeing n2 lets it start there, on both GPUs.
    s.remove("p/j3");
    const auto decisions = s.schedule();
    ASSERT_EQ(decisions.size(), 1u);
    EXPECT_EQ(decisions[0].node, "n2");
    EXPECT_EQ(decisions[0].gpuIndices, (std::vector<int>{0, 1}));
}

TEST(KubeScheduler, WorkConservingOverQuotaThenReclaim)
{
    Scheduler s;
    s.setNodes({{"n1", 4}});
    s.setProject("x", 2000);
    s.setProject("y", 2000);
    s.submit(train("x/t1", "x", 2000));
    s.submit(train("x/t2", "x", 2000));
    EXPECT_EQ(s.schedule().size(), 2u); // R2: x uses the idle GPUs beyond its quota
    EXPECT_EQ(byName(s).at("x").allocated, 4000);

    s.submit(train("y/y1", "y", 2000));
    const auto decisions = s.schedule();
    ASSERT_EQ(decisions.size(), 2u);
    EXPECT_EQ(decisions[0].kind, Kind::Preempt);
    EXPECT_EQ(decisions[0].jobId, "x/t2"); // most recently started
    EXPECT_EQ(decisions[0].byProject, "y");
    EXPECT_EQ(decisions[1].jobId, "y/y1");
    EXPECT_EQ(byName(s).at("x").allocated, 2000); // R3: not below its quota
    EXPECT_EQ(byName(s).at("y").allocated, 2000);
}

TEST(KubeScheduler, InteractiveJobsAreNeverPreempted)
{
    Scheduler s;
    s.setNodes({{"n1", 4}});
    s.setProject("x", 4000);
    s.submit(interactive("x/i1", "x", 4000));
    s.schedule();
    ASSERT_EQ(s.job("x/i1")->state, JobState::Running);

    // x's quota shrinks, so all of i1 is now over quota, and y is entitled to reclaim.
    s.setProject("x", 0);
    s.setProject("y", 4000);
    s.submit(train("y/t1", "y", 2000));
    EXPECT_TRUE(s.schedule().empty());
    EXPECT_EQ(s.job("x/i1")->state, JobState::Running);
    EXPECT_EQ(s.job("y/t1")->state, JobState::Pending);
    EXPECT_EQ(s.job("y/t1")->pendingReason, "no node has 2 free GPUs together");

    // R8: a non-preemptible job does not start beyond its quota even on idle GPUs.
    Scheduler t;
    t.setNodes({{"n1", 4}});
    t.setProject("x", 1000);
    t.submit(interactive("x/i1", "x", 1000));
    t.submit(interactive("x/i2", "x", 1000));
    t.submit(train("x/t1", "x", 1000));
    const auto decisions = t.schedule();
    EXPECT_EQ(decisions.size(), 2u);
    EXPECT_EQ(t.job("x/i2")->state, JobState::Pending);
    EXPECT_EQ(t.job("x/i2")->pendingReason,
              "Non-preemptible workload is over quota. Workload requested 1 GPUs, but x quota is 1 GPUs, while 1 GPUs "
              "are already allocated for non-preemptible pods. Use a preemptible workload to go over quota.");
    EXPECT_EQ(t.job("x/t1")->state, JobState::Running);
}

// R8 exactly as KAI checks it (capacity_policy/quota_check.go): AllocatedNotPreemptible + request
// <= Deserved. The project's training GPUs do not count, so training over quota does not keep a
// notebook off idle GPUs.
TEST(KubeScheduler, InteractiveJobCountsOnlyNonPreemptibleGpusAgainstTheQuota)
{
    Scheduler s;
    s.setNodes({{"n1", 8}});
    s.setProject("x", 1000);
    s.submit(train("x/t1", "x", 1000));
    s.schedule();
    ASSERT_EQ(s.job("x/t1")->state, JobState::Running);
    s.submit(interactive("x/i1", "x", 200));
    s.schedule();
    EXPECT_EQ(s.job("x/i1")->state, JobState::Running) << s.job("x/i1")->pendingReason;

    // 0.2 + 0.8 = 1 fills the quota exactly; one more notebook does not fit, whatever is idle.
    s.submit(interactive("x/i2", "x", 800));
    s.submit(interactive("x/i3", "x", 100));
    s.schedule();
    EXPECT_EQ(s.job("x/i2")->state, JobState::Running) << s.job("x/i2")->pendingReason;
    EXPECT_EQ(s.job("x/i3")->state, JobState::Pending);
    EXPECT_EQ(s.job("x/i3")->pendingReason,
              "Non-preemptible workload is over quota. Workload requested 0.1 GPUs, but x quota is 1 GPUs, while 1 "
              "GPUs are already allocated for non-preemptible pods. Use a preemptible workload to go over quota.");
    EXPECT_EQ(byName(s).at("x").allocated, 2000);
}

// TR-4858 4.8 with team-b's training jobs submitted before its notebooks: the notebooks still
// start (they are b's only non-preemptible GPUs, 1 of its quota of 2), and the end state is the
// document's.
TEST(KubeScheduler, Tr4858NotebooksAfterTrainingOverQuotaStillStart)
{
    auto steps = tr4858::section48();
    const auto at = [&](const std::string &name) {
        return std::find_if(steps.begin(), steps.end(), [&](const tr4858::ScenarioStep &step) {
            return step.job.name == name;
        });
    };
    // b-1-g06, b-2-g04, b-3-g, b-4-gg -> b-3-g, b-4-gg, b-1-g06, b-2-g04
    std::rotate(at("b-1-g06"), at("b-3-g"), at("b-4-gg") + 1);
    ASSERT_EQ(at("b-3-g") + 2, at("b-1-g06"));

    Scheduler s;
    s.setNodes(tr4858::nodes());
    for (const auto &q : tr4858::queues())
        s.setProject(q.project, q.quota);
    for (const auto &step : steps) {
        ASSERT_TRUE(s.submit(tr4858::toSchedJob(step.job))) << step.title;
        s.schedule();
        if (step.job.name == "b-2-g04") {
            EXPECT_EQ(byName(s).at("team-b").allocated, 4000); // 1 + 2 training, 0.6 + 0.4 notebooks
        }
    }
    for (const char *id : {"runai-team-b/b-1-g06", "runai-team-b/b-2-g04"}) {
        ASSERT_NE(s.job(id), nullptr) << id;
        EXPECT_EQ(s.job(id)->state, JobState::Running) << id << ": " << s.job(id)->pendingReason;
    }
    const auto projects = byName(s);
    for (const auto &want : tr4858::expectedAfter(tr4858::section48().size() - 1)) {
        EXPECT_EQ(projects.at(want.project).allocated, want.allocated) << want.project;
        EXPECT_EQ(projects.at(want.project).queued, want.queued) << want.project;
    }
}

TEST(KubeScheduler, PreemptionSkipsInteractiveVictims)
{
    Scheduler s;
    s.setNodes({{"n1", 4}});
    s.setProject("x", 2000);
    s.setProject("y", 2000);
    s.submit(train("x/t1", "x", 2000));
    s.schedule();
    // R8: x's training GPUs do not count against the quota for non-preemptible jobs (0 + 2 <= 2),
    // so the notebook takes the idle GPUs although x then runs 4 on a quota of 2.
    s.submit(interactive("x/i1", "x", 2000));
    s.schedule();
    ASSERT_EQ(s.job("x/i1")->state, JobState::Running); // started last, but not preemptible
    s.submit(train("y/y1", "y", 2000));
    const auto decisions = s.schedule();
    ASSERT_EQ(decisions.size(), 2u);
    EXPECT_EQ(decisions[0].jobId, "x/t1");
    EXPECT_EQ(s.job("x/i1")->state, JobState::Running);
}

TEST(KubeScheduler, PreemptedJobIsFirstInItsProjectQueue)
{
    Scheduler s;
    s.setNodes({{"n1", 4}});
    s.setProject("x", 2000);
    s.setProject("y", 2000);
    s.submit(train("x/t1", "x", 2000));
    s.submit(train("x/big", "x", 4000)); // earlier than t2, never fits next to t1
    s.submit(train("x/t2", "x", 2000));  // backfills past big
    s.schedule();
    ASSERT_EQ(s.job("x/t2")->state, JobState::Running);
    EXPECT_EQ(s.queue("x"), std::vector<std::string>{"x/big"});

    s.submit(train("y/y1", "y", 2000));
    s.schedule();
    EXPECT_EQ(s.job("x/t2")->state, JobState::Pending);
    EXPECT_EQ(s.queue("x"), (std::vector<std::string>{"x/t2", "x/big"}));
    EXPECT_EQ(s.job("x/big")->pendingReason, "project x is at or over its fair share (2/2 GPUs)");

    // y finishes: t2 runs again and its preempted state and reason are cleared.
    s.remove("y/y1");
    const auto decisions = s.schedule();
    ASSERT_EQ(decisions.size(), 1u);
    EXPECT_EQ(decisions[0].jobId, "x/t2");
    EXPECT_FALSE(s.job("x/t2")->preempted);
    EXPECT_TRUE(s.job("x/t2")->pendingReason.empty());
    EXPECT_EQ(s.queue("x"), std::vector<std::string>{"x/big"});
}

TEST(KubeScheduler, NoPingPongBetweenOverQuotaProjects)
{
    Scheduler s;
    s.setNodes({{"n1", 4}, {"n2", 4}});
    s.setProject("b", 2000);
    s.setProject("c", 2000);
    s.setProject("d", 4000);
    for (const auto *id : {"b/b1", "b/b2"})
        s.submit(train(id, "b", 2000));
    for (const auto *id : {"c/c1", "c/c2"})
        s.submit(train(id, "c", 2000));
    EXPECT_EQ(s.schedule().size(), 4u);

    s.submit(train("d/d1", "d", 2000));
    auto decisions = s.schedule();
    ASSERT_EQ(decisions.size(), 2u);
    EXPECT_EQ(decisions[0].jobId, "c/c2");
    auto projects = byName(s);
    EXPECT_EQ(projects.at("c").fairShare, 3000);
    EXPECT_EQ(projects.at("c").allocated, 2000);
    EXPECT_EQ(projects.at("b").allocated, 4000);
    // c is below its fair share (2 < 3) but 2 + 2 > max(quota 2, fair share 3): no preemption of b.
    for (int cycle = 0; cycle < 3; ++cycle)
        EXPECT_TRUE(s.schedule().empty());
    EXPECT_EQ(s.job("c/c2")->pendingReason, "preempted by d reclaiming its quota");

    s.submit(train("d/d2", "d", 2000));
    decisions = s.schedule();
    ASSERT_EQ(decisions.size(), 2u);
    EXPECT_EQ(decisions[0].jobId, "b/b2");
    EXPECT_TRUE(s.schedule().empty());
    projects = byName(s);
    EXPECT_EQ(projects.at("b").allocated, 2000);
    EXPECT_EQ(projects.at("c").allocated, 2000);
    EXPECT_EQ(projects.at("d").allocated, 4000);
}

TEST(KubeScheduler, VictimSetIsSmallestOnOneNode)
{
    // Freeing two whole GPUs: two 1-GPU jobs on different nodes would free enough GPUs in total but
    // not together; the single 2-GPU job on n2 is the answer even though it started earlier.
    Scheduler s;
    s.setNodes({{"n1", 4}, {"n2", 4}});
    s.setProject("x", 1000);
    s.setProject("y", 7000);
    for (const auto &job : {train("y/fill1", "y", 3000),    // n1 0-2
                            train("x/big", "x", 2000),      // n2 0-1
                            train("x/s1", "x", 1000),       // n1 3
                            train("x/s2", "x", 1000),       // n2 2
                            train("y/fill2", "y", 1000)}) { // n2 3
        s.submit(job);
        ASSERT_EQ(s.schedule().size(), 1u) << job.id;
    }
    ASSERT_EQ(s.job("x/big")->node, "n2");
    ASSERT_EQ(s.job("x/s1")->node, "n1");

    s.submit(train("y/need", "y", 2000));
    const auto decisions = s.schedule();
    ASSERT_EQ(decisions.size(), 2u);
    EXPECT_EQ(decisions[0].jobId, "x/big");
    EXPECT_EQ(decisions[1].jobId, "y/need");
    EXPECT_EQ(decisions[1].node, "n2");
    EXPECT_EQ(byName(s).at("x").allocated, 2000);
}

TEST(KubeScheduler, QuotaChangeReevaluates)
{
    Scheduler s;
    s.setNodes({{"n1", 4}});
    s.setProject("p", 4000);
    s.setProject("q", 0);
    for (const auto *id : {"p/a", "p/b", "p/c", "p/d"})
        s.submit(train(id, "p", 1000));
    s.submit(train("q/j", "q", 2000));
    EXPECT_EQ(s.schedule().size(), 4u);
    EXPECT_EQ(s.job("q/j")->pendingReason, "project q is at or over its fair share (0/0 GPUs)");

    s.setProject("p", 2000);
    s.setProject("q", 2000);
    const auto decisions = s.schedule();
    ASSERT_EQ(decisions.size(), 3u);
    EXPECT_EQ(decisions[0].jobId, "p/d");
    EXPECT_EQ(decisions[1].jobId, "p/c");
    EXPECT_EQ(decisions[2].jobId, "q/j");
    const auto projects = byName(s);
    EXPECT_EQ(projects.at("p").allocated, 2000);
    EXPECT_EQ(projects.at("p").queued, 2);
    EXPECT_EQ(projects.at("q").allocated, 2000);
}

TEST(KubeScheduler, RemoveFreesGpusForQueuedJobs)
{
    Scheduler s;
    s.setNodes({{"n1", 2}});
    s.setProject("p", 2000);
    s.submit(train("p/j1", "p", 2000));
    s.submit(train("p/j2", "p", 1000));
    s.submit(train("p/j3", "p", 1000));
    s.schedule();
    EXPECT_EQ(s.job("p/j2")->pendingReason, "project p is at or over its fair share (2/2 GPUs)");
    EXPECT_EQ(byName(s).at("p").queued, 2);
    EXPECT_EQ(byName(s).at("p").pending, 2000);

    EXPECT_TRUE(s.remove("p/j1"));
    EXPECT_FALSE(s.remove("p/j1"));
    const auto decisions = s.schedule();
    ASSERT_EQ(decisions.size(), 2u);
    EXPECT_EQ(decisions[0].jobId, "p/j2");
    EXPECT_EQ(decisions[1].jobId, "p/j3");
    EXPECT_EQ(s.job("p/j2")->gpuIndices, std::vector<int>{0});
    EXPECT_EQ(s.job("p/j3")->gpuIndices, std::vector<int>{1});
    EXPECT_EQ(s.job("p/j1"), nullptr);
    EXPECT_EQ(byName(s).at("p").queued, 0);
}

TEST(KubeScheduler, FairShareWaterFillingCapsAtDemand)
{
    Scheduler s;
    s.setNodes({{"n1", 8}, {"n2", 8}});
    s.setProject("a", 4000);
    s.setProject("b", 2000);
    s.setProject("c", 2000);
    s.setProject("d", 8000);
    s.submit(train("a/1", "a", 8000)); // no schedule() needed: fair share follows demand
    s.submit(train("b/1", "b", 3000));
    s.submit(train("c/1", "c", 6000));
    s.submit(train("d/1", "d", 1000));
    // base 4,2,2,1 = 9, spare 7 split 4:2:2 -> a +3.5, b +1 (capped at demand 3), c +1.75; the 0.75
    // left after b's cap goes 2:1 to a and c.
    const auto projects = byName(s);
    EXPECT_EQ(projects.at("a").fairShare, 8000);
    EXPECT_EQ(projects.at("b").fairShare, 3000);
    EXPECT_EQ(projects.at("c").fairShare, 4000);
    EXPECT_EQ(projects.at("d").fairShare, 1000);
    EXPECT_EQ(projects.at("a").demand, 8000);
}

TEST(KubeScheduler, SubmitRejectsDuplicatesAndAssignsFifoOrder)
{
    Scheduler s;
    s.setNodes({{"n1", 1}});
    EXPECT_TRUE(s.submit(train("p/1", "p", 1000)));
    EXPECT_FALSE(s.submit(train("p/1", "p", 1000)));
    EXPECT_FALSE(s.submit(train("p/neg", "p", -1)));
    EXPECT_TRUE(s.submit(train("p/0", "p", 1500))); // rounded up to whole GPUs
    EXPECT_EQ(s.job("p/0")->job.gpus, 2000);
    const auto all = s.jobs();
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].job.id, "p/1");
    EXPECT_EQ(all[0].job.submitSeq, 1u);
    EXPECT_EQ(all[1].job.submitSeq, 2u);
    // Unknown project: quota 0, still listed.
    EXPECT_EQ(byName(s).at("p").quota, 0);
}

TEST(KubeScheduler, ShrinkingNodesRequeuesTheirJobs)
{
    Scheduler s;
    s.setNodes({{"n1", 2}, {"n2", 2}});
    s.setProject("p", 4000);
    s.submit(train("p/a", "p", 2000));
    s.submit(train("p/b", "p", 2000));
    s.schedule();
    ASSERT_EQ(s.job("p/b")->node, "n2");
    s.setNodes({{"n1", 2}});
    EXPECT_EQ(s.job("p/b")->state, JobState::Pending);
    EXPECT_FALSE(s.job("p/b")->preempted);
    EXPECT_EQ(s.totalGpus(), 2000);
}
