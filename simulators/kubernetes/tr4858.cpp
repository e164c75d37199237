#include "simulators/kubernetes/tr4858.h"

namespace strata::sim::kube::tr4858 {

namespace {

const std::string kQuickstart = "gcr.io/run-ai-demo/quickstart";

ScenarioStep submit(const std::string &section,
                    const std::string &name,
                    const std::string &project,
                    MilliGpu gpus,
                    JobKind kind,
                    const std::string &image = kQuickstart)
{
    ScenarioStep step;
    step.section = section;
    step.op = ScenarioStep::Op::Submit;
    step.job = {name, project, "root", image, gpus, kind, {}, {}};
    const std::string amount = formatGpus(gpus);
    step.title = project + " submits " + name + " (" + amount + (gpus == kMilliPerGpu ? " GPU" : " GPUs")
                 + (kind == JobKind::Interactive ? ", interactive)" : ")");
    step.cli = "runai submit " + name + " -i " + image + " -g " + amount
               + (kind == JobKind::Interactive ? " --interactive" : "") + " -p " + project;
    return step;
}

ScenarioStep remove(const std::string &name, const std::string &project)
{
    ScenarioStep step;
    step.section = "4.10";
    step.op = ScenarioStep::Op::Delete;
    step.job.name = name;
    step.job.project = project;
    step.title = project + " deletes " + name;
    step.cli = "runai delete -p " + project + " " + name;
    return step;
}

} // namespace

std::vector<SchedNode> nodes()
{
    return {{"dgx1-1", 8}, {"dgx1-2", 8}};
}

std::vector<ScenarioQueue> queues()
{
    return {{"team-a", 4000}, {"team-b", 2000}, {"team-c", 2000}, {"team-d", 8000}};
}

std::vector<ScenarioStep> section48()
{
    using enum JobKind;
    auto jupyter = submit("4.8", "a-1-1-jupyter", "team-a", 1000, Interactive, "jupyter/base-notebook");
    // L.5625-5628: the command split across lines is "start-notebook.sh" (E6); the base_url argument is
    // kept as the document ran it.
    jupyter.job.command = {"start-notebook.sh"};
    jupyter.job.args = {"--NotebookApp.base_url=team-a-test-ingress"};
    jupyter.cli = "runai submit a-1-1-jupyter -i jupyter/base-notebook -g 1 --interactive --service-type=ingress "
                  "--port 8888 --args=\"--NotebookApp.base_url=team-a-test-ingress\" --command=start-notebook.sh "
                  "-p team-a";
    return {
        jupyter,
        submit("4.8", "a-1-g", "team-a", 1000, Train),
        submit("4.8", "a-2-gg", "team-a", 2000, Train),
        submit("4.8", "b-1-g06", "team-b", 600, Interactive),
        submit("4.8", "b-2-g04", "team-b", 400, Interactive),
        submit("4.8", "b-3-g", "team-b", 1000, Train),
        submit("4.8", "b-4-gg", "team-b", 2000, Train),
        submit("4.8", "c-1-g05", "team-c", 500, Interactive),
        submit("4.8", "c-2-g03", "team-c", 300, Interactive),
        submit("4.8", "c-3-g02", "team-c", 200, Interactive),
        submit("4.8", "c-4-gg", "team-c", 2000, Train),
        submit("4.8", "c-5-g", "team-c", 1000, Train),
        submit("4.8", "d-1-gggg", "team-d", 4000, Train),
    };
}

std::vector<ScenarioStep> section49()
{
    return {
        submit("4.9", "d-2-gg", "team-d", 2000, JobKind::Train),
        submit("4.9", "d-3-gg", "team-d", 2000, JobKind::Train),
    };
}

std::vector<ScenarioStep> section410()
{
    return {
        submit("4.10", "a-3-gg", "team-a", 2000, JobKind::Train),
        submit("4.10", "a-4-gg", "team-a", 2000, JobKind::Train),
        submit("4.10", "b-5-gg", "team-b", 2000, JobKind::Train),
        submit("4.10", "c-6-gg", "team-c", 2000, JobKind::Train),
        remove("d-1-gggg", "team-d"),
        remove("d-2-gg", "team-d"),
        remove("d-3-gg", "team-d"),
    };
}

std::vector<ScenarioStep> allSteps()
{
    auto steps = section48();
    for (auto part : {section49(), section410()})
        steps.insert(steps.end(), part.begin(), part.end());
    return steps;
}

std::string namespaceOf(const std::string &project)
{
    return "runai-" + project;
}

std::string jobId(const ScenarioJob &job)
{
    return namespaceOf(job.project) + "/" + job.name;
}

SchedJob toSchedJob(const ScenarioJob &job)
{
    return {jobId(job), job.project, job.gpus, job.kind, 0};
}

namespace {

struct Row
{
    MilliGpu allocated[4];
    MilliGpu fairShare[4];
    int queued[4];
    bool documented;
};

// One row per step of allSteps(): allocated, fair share (team-a..d, milli-GPUs), queued, documented.
// While total demand fits the cluster (all of 4.8) fair share equals demand.
const Row kRows[] = {
    // 4.8 running totals (L.5599-5613)
    {{1000, 0, 0, 0}, {1000, 0, 0, 0}, {0, 0, 0, 0}, true},
    {{2000, 0, 0, 0}, {2000, 0, 0, 0}, {0, 0, 0, 0}, true},
    {{4000, 0, 0, 0}, {4000, 0, 0, 0}, {0, 0, 0, 0}, true},
    {{4000, 600, 0, 0}, {4000, 600, 0, 0}, {0, 0, 0, 0}, true},
    {{4000, 1000, 0, 0}, {4000, 1000, 0, 0}, {0, 0, 0, 0}, true},
    {{4000, 2000, 0, 0}, {4000, 2000, 0, 0}, {0, 0, 0, 0}, true},
    {{4000, 4000, 0, 0}, {4000, 4000, 0, 0}, {0, 0, 0, 0}, true},
    {{4000, 4000, 500, 0}, {4000, 4000, 500, 0}, {0, 0, 0, 0}, true},
    {{4000, 4000, 800, 0}, {4000, 4000, 800, 0}, {0, 0, 0, 0}, true},
    {{4000, 4000, 1000, 0}, {4000, 4000, 1000, 0}, {0, 0, 0, 0}, true},
    {{4000, 4000, 3000, 0}, {4000, 4000, 3000, 0}, {0, 0, 0, 0}, true},
    {{4000, 4000, 4000, 0}, {4000, 4000, 4000, 0}, {0, 0, 0, 0}, true},
    {{4000, 4000, 4000, 4000}, {4000, 4000, 4000, 4000}, {0, 0, 0, 0}, true},
    // 4.9 d-2-gg: c-4-gg paused (tie-break), d 6/8, fair share 4,3,3,6
    {{4000, 4000, 2000, 6000}, {4000, 3000, 3000, 6000}, {0, 0, 1, 0}, true},
    // 4.9 d-3-gg: b-4-gg paused too (E3: one queued each for b and c)
    {{4000, 2000, 2000, 8000}, {4000, 2000, 2000, 8000}, {0, 1, 1, 0}, true},
    // 4.10 submits: nothing moves, queues grow
    {{4000, 2000, 2000, 8000}, {4000, 2000, 2000, 8000}, {1, 1, 1, 0}, true},
    {{4000, 2000, 2000, 8000}, {4000, 2000, 2000, 8000}, {2, 1, 1, 0}, true},
    {{4000, 2000, 2000, 8000}, {4000, 2000, 2000, 8000}, {2, 2, 1, 0}, true},
    {{4000, 2000, 2000, 8000}, {4000, 2000, 2000, 8000}, {2, 2, 2, 0}, true},
    // delete d-1-gggg: fair share 6,3,3,4; a-3-gg within its share, then b-4-gg on the idle rest
    {{6000, 4000, 2000, 4000}, {6000, 3000, 3000, 4000}, {1, 1, 2, 0}, false},
    // delete d-2-gg: fair share 7,3.5,3.5,2; c is furthest below its share and gets c-4-gg
    {{6000, 4000, 4000, 2000}, {7000, 3500, 3500, 2000}, {1, 1, 1, 0}, false},
    // delete d-3-gg: the stable state of L.5538-5546 (8/4, 4/2, 4/2, 0/8; b-5-gg and c-6-gg queued)
    {{8000, 4000, 4000, 0}, {8000, 4000, 4000, 0}, {0, 1, 1, 0}, true},
};

} // namespace

std::vector<ExpectedProject> expectedAfter(std::size_t stepIndex)
{
    if (stepIndex >= std::size(kRows))
        return {};
    const Row &row = kRows[stepIndex];
    const auto qs = queues();
    std::vector<ExpectedProject> out;
    for (std::size_t i = 0; i < qs.size(); ++i)
        out.push_back({qs[i].project, row.allocated[i], qs[i].quota, row.fairShare[i], row.queued[i]});
    return out;
}

bool documentedState(std::size_t stepIndex)
{
    return stepIndex < std::size(kRows) && kRows[stepIndex].documented;
}

} // namespace strata::sim::kube::tr4858
