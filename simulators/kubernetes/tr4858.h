#pragma once

#include "simulators/kubernetes/scheduler.h"

#include <cstddef>
#include <string>
#include <vector>

/// The TR-4858 (NetApp + Run:AI) over-quota and fairness scenario of sections 4.8-4.10 as data, with
/// SCHEDULING.md section 4's errata applied (image gcr.io/run-ai-demo/quickstart, not "NetApp").
/// Used by `strata-sim kubernetes dgx`, the golden tests and the desktop "play next step" demo.
namespace strata::sim::kube::tr4858 {

struct ScenarioJob
{
    std::string name;    ///< e.g. "b-1-g06"
    std::string project; ///< e.g. "team-b" (namespace "runai-team-b")
    std::string user;    ///< "root", as in the document's job list
    std::string image;   ///< "gcr.io/run-ai-demo/quickstart" or "jupyter/base-notebook"
    MilliGpu gpus = 0;   ///< 600 = 0.6 GPU
    JobKind kind = JobKind::Train;
    std::vector<std::string> command, args; ///< empty = image default
};

struct ScenarioStep
{
    enum class Op
    {
        Submit,
        Delete
    };
    std::string section; ///< "4.8", "4.9", "4.10"
    std::string title;   ///< "team-d submits d-2-gg (2 GPUs)"
    Op op = Op::Submit;
    ScenarioJob job; ///< Delete: only name and project are meaningful
    std::string cli; ///< the Run:AI CLI command of the document (errata fixed), for display
};

struct ScenarioQueue
{
    std::string project;
    MilliGpu quota = 0;
};

/// Two DGX-1 nodes, dgx1-1 and dgx1-2, 8 GPUs each (Tesla V100-SXM2-32GB).
std::vector<SchedNode> nodes();
/// Test quotas (Table B, L.5446-5450): team-a 4, team-b 2, team-c 2, team-d 8 GPUs.
std::vector<ScenarioQueue> queues();
/// Section 4.8: the 13 submissions in document order.
std::vector<ScenarioStep> section48();
/// Section 4.9: team-d submits d-2-gg, then d-3-gg.
std::vector<ScenarioStep> section49();
/// Section 4.10: a-3-gg, a-4-gg, b-5-gg, c-6-gg, then `runai delete -p team-d d-1-gggg d-2-gg d-3-gg`
/// as three Delete steps.
std::vector<ScenarioStep> section410();
/// section48() + section49() + section410() (22 steps); the step index of expectedAfter().
std::vector<ScenarioStep> allSteps();

/// Kubernetes namespace of a project ("runai-team-a") and the scheduler job id ("runai-team-a/a-1-g").
std::string namespaceOf(const std::string &project);
std::string jobId(const ScenarioJob &job);
/// The scheduler input for a Submit step's job (submitSeq left 0).
SchedJob toSchedJob(const ScenarioJob &job);

/// Expected state of one project after a step (all GPU amounts in milli-GPUs).
struct ExpectedProject
{
    std::string project;
    MilliGpu allocated = 0;
    MilliGpu quota = 0;
    MilliGpu fairShare = 0;
    int queued = 0;
};

/// Expected team-a..team-d after allSteps()[stepIndex] has been applied and a scheduling cycle has run
/// (SCHEDULING.md 3.5). Empty for an index out of range. After d-2-gg, c-4-gg is the paused job
/// (the deterministic tie-break: most recently started victim).
std::vector<ExpectedProject> expectedAfter(std::size_t stepIndex);
/// True when the state after this step is printed in the document (or table 3.5 derives it directly);
/// false for the states between the three team-d deletes, which depend on the scheduling policy and on
/// a cycle running between the deletes.
bool documentedState(std::size_t stepIndex);

} // namespace strata::sim::kube::tr4858
