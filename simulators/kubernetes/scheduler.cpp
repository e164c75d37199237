#include "simulators/kubernetes/scheduler.h"

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

namespace strata::sim::kube {

std::string formatGpus(MilliGpu amount)
{
    const bool negative = amount < 0;
    const MilliGpu centi = ((negative ? -amount : amount) + 5) / 10;
    std::string text = std::to_string(centi / 100);
    const MilliGpu frac = centi % 100;
    if (frac != 0) {
        text += '.';
        text += char('0' + frac / 10);
        if (frac % 10 != 0)
            text += char('0' + frac % 10);
    }
    return negative ? "-" + text : text;
}

struct Scheduler::Occupancy
{
    struct Gpu
    {
        MilliGpu used = 0;
        std::vector<const JobStatus *> jobs;
    };
    struct Node
    {
        std::string name;
        std::vector<Gpu> gpus;
    };
    std::vector<Node> nodes; // Scheduler::m_nodes order
};

namespace {

MilliGpu normalizedGpus(MilliGpu gpus)
{
    if (gpus > kMilliPerGpu && gpus % kMilliPerGpu != 0)
        return (gpus / kMilliPerGpu + 1) * kMilliPerGpu;
    return gpus;
}

MilliGpu shareOnOneGpu(const JobStatus &job)
{
    return job.job.gpus < kMilliPerGpu ? job.job.gpus : kMilliPerGpu;
}

// a/b < c/d with b or d == 0 meaning "infinitely large" (a project without fair share goes last).
bool ratioLess(MilliGpu a, MilliGpu b, MilliGpu c, MilliGpu d)
{
    if (b <= 0 || d <= 0) {
        if (b > 0)
            return true;
        if (d > 0)
            return false;
        return a < c;
    }
    return a * d < c * b;
}

// First-fit placement on one node's GPUs: a fraction onto a partially used GPU first, then an empty one.
std::optional<std::vector<int>> placeOnNode(const std::vector<Scheduler::Occupancy::Gpu> &gpus, MilliGpu need)
{
    if (need <= 0)
        return std::vector<int>{};
    if (need < kMilliPerGpu) {
        for (int pass = 0; pass < 2; ++pass) {
            for (std::size_t i = 0; i < gpus.size(); ++i) {
                const bool partial = gpus[i].used > 0;
                if ((pass == 0) == partial && gpus[i].used + need <= kMilliPerGpu)
                    return std::vector<int>{int(i)};
            }
        }
        return std::nullopt;
    }
    std::vector<int> indices;
    const auto count = std::size_t(need / kMilliPerGpu);
    for (std::size_t i = 0; i < gpus.size() && indices.size() < count; ++i) {
        if (gpus[i].used == 0)
            indices.push_back(int(i));
    }
    if (indices.size() < count)
        return std::nullopt;
    return indices;
}

struct Placement
{
    std::size_t node = 0;
    std::vector<int> indices;
};

std::optional<Placement> place(const Scheduler::Occupancy &occ, MilliGpu need)
{
    if (need > 0 && need < kMilliPerGpu) {
        // Packing wins over node order: any partially used GPU anywhere before an empty one.
        for (std::size_t n = 0; n < occ.nodes.size(); ++n) {
            const auto &gpus = occ.nodes[n].gpus;
            for (std::size_t i = 0; i < gpus.size(); ++i) {
                if (gpus[i].used > 0 && gpus[i].used + need <= kMilliPerGpu)
                    return Placement{n, {int(i)}};
            }
        }
    }
    for (std::size_t n = 0; n < occ.nodes.size(); ++n) {
        if (auto indices = placeOnNode(occ.nodes[n].gpus, need))
            return Placement{n, std::move(*indices)};
    }
    return std::nullopt;
}

// SCHEDULING.md R8, as KAI's capacity policy checks it (NVIDIA/KAI-Scheduler@72de64fc,
// pkg/scheduler/plugins/proportion/capacity_policy/quota_check.go, isAllocatedNonPreemptibleOverQuota):
// a non-preemptible job is admitted only while AllocatedNotPreemptible + request <= Deserved.
// Training (preemptible) GPUs do not count.
bool nonPreemptibleOverQuota(const JobStatus &job, MilliGpu nonPreemptible, MilliGpu quota)
{
    return job.job.kind == JobKind::Interactive && nonPreemptible + job.job.gpus > quota;
}

std::string
pendingReasonFor(const JobStatus &job, MilliGpu allocated, MilliGpu nonPreemptible, MilliGpu quota, MilliGpu fairShare)
{
    const MilliGpu g = job.job.gpus;
    const std::string &p = job.job.project;
    if (job.preempted)
        return "preempted by " + job.preemptedBy + " reclaiming its quota";
    if (nonPreemptibleOverQuota(job, nonPreemptible, quota))
        // KAI's message (pkg/scheduler/api/unschedule_info.go, GetBuildOverCapacityMessageForQueue).
        return "Non-preemptible workload is over quota. Workload requested " + formatGpus(g) + " GPUs, but " + p
               + " quota is " + formatGpus(quota) + " GPUs, while " + formatGpus(nonPreemptible)
               + " GPUs are already allocated for non-preemptible pods. Use a preemptible workload to go over quota.";
    if (allocated + g > fairShare)
        return "project " + p + " is at or over its fair share (" + formatGpus(allocated) + "/" + formatGpus(fairShare)
               + " GPUs)";
    if (g < kMilliPerGpu)
        return "no GPU has " + formatGpus(g) + " free";
    return "no node has " + formatGpus(g) + " free GPUs together";
}

} // namespace

void Scheduler::setNodes(std::vector<SchedNode> nodes)
{
    std::sort(nodes.begin(), nodes.end(), [](const SchedNode &a, const SchedNode &b) {
        return a.name < b.name;
    });
    m_nodes = std::move(nodes);
    for (auto &[id, job] : m_jobs) {
        if (job.state != JobState::Running)
            continue;
        const auto it = std::find_if(m_nodes.begin(), m_nodes.end(), [&](const SchedNode &n) {
            return n.name == job.node;
        });
        const bool fits = it != m_nodes.end() && std::all_of(job.gpuIndices.begin(), job.gpuIndices.end(), [&](int i) {
                              return i < it->gpus;
                          });
        if (!fits) {
            job.state = JobState::Pending;
            job.node.clear();
            job.gpuIndices.clear();
            job.startSeq = 0;
        }
    }
}

void Scheduler::setProject(const std::string &name, MilliGpu quota)
{
    m_quotas[name] = std::max<MilliGpu>(0, quota);
}

void Scheduler::removeProject(const std::string &name)
{
    m_quotas.erase(name);
}

bool Scheduler::submit(SchedJob job)
{
    if (job.gpus < 0 || m_jobs.count(job.id) != 0)
        return false;
    job.gpus = normalizedGpus(job.gpus);
    if (job.submitSeq == 0)
        job.submitSeq = m_nextSubmitSeq;
    m_nextSubmitSeq = std::max(m_nextSubmitSeq, job.submitSeq + 1);
    JobStatus status;
    status.job = std::move(job);
    const std::string id = status.job.id;
    m_jobs.emplace(id, std::move(status));
    refreshReasons();
    return true;
}

bool Scheduler::remove(const std::string &jobId)
{
    return m_jobs.erase(jobId) != 0;
}

const JobStatus *Scheduler::job(const std::string &id) const
{
    const auto it = m_jobs.find(id);
    return it == m_jobs.end() ? nullptr : &it->second;
}

std::vector<JobStatus> Scheduler::jobs() const
{
    std::vector<JobStatus> out;
    out.reserve(m_jobs.size());
    for (const auto &[id, job] : m_jobs)
        out.push_back(job);
    std::sort(out.begin(), out.end(), [](const JobStatus &a, const JobStatus &b) {
        return std::tie(a.job.submitSeq, a.job.id) < std::tie(b.job.submitSeq, b.job.id);
    });
    return out;
}

std::vector<std::string> Scheduler::queue(const std::string &project) const
{
    std::vector<const JobStatus *> pending;
    for (const auto &[id, job] : m_jobs) {
        if (job.job.project == project && job.state == JobState::Pending)
            pending.push_back(&job);
    }
    std::sort(pending.begin(), pending.end(), [](const JobStatus *a, const JobStatus *b) {
        return std::make_tuple(!a->preempted, a->job.submitSeq, a->job.id)
               < std::make_tuple(!b->preempted, b->job.submitSeq, b->job.id);
    });
    std::vector<std::string> ids;
    for (const auto *job : pending)
        ids.push_back(job->job.id);
    return ids;
}

std::vector<JobStatus *> Scheduler::pendingInQueueOrder(const std::string &project)
{
    std::vector<JobStatus *> out;
    for (const auto &id : queue(project))
        out.push_back(&m_jobs.at(id));
    return out;
}

MilliGpu Scheduler::totalGpus() const
{
    MilliGpu total = 0;
    for (const auto &node : m_nodes)
        total += MilliGpu(node.gpus) * kMilliPerGpu;
    return total;
}

std::map<std::string, Scheduler::ProjectCalc> Scheduler::calcProjects() const
{
    std::map<std::string, ProjectCalc> calc;
    for (const auto &[name, quota] : m_quotas)
        calc[name].quota = quota;
    for (const auto &[id, job] : m_jobs) {
        auto &p = calc[job.job.project];
        p.demand += job.job.gpus;
        if (job.state == JobState::Running) {
            p.allocated += job.job.gpus;
            if (job.job.kind == JobKind::Interactive)
                p.nonPreemptible += job.job.gpus;
            ++p.running;
        } else {
            p.pending += job.job.gpus;
            ++p.queued;
        }
    }

    // R4 water-filling.
    MilliGpu spare = totalGpus();
    for (auto &[name, p] : calc) {
        p.fairShare = std::min(p.demand, p.quota);
        spare -= p.fairShare;
    }
    while (spare > 0) {
        MilliGpu hungryQuota = 0;
        for (const auto &[name, p] : calc) {
            if (p.demand > p.fairShare)
                hungryQuota += p.quota;
        }
        if (hungryQuota == 0)
            break;
        MilliGpu given = 0;
        for (auto &[name, p] : calc) {
            if (p.demand <= p.fairShare)
                continue;
            const MilliGpu give = std::min(spare * p.quota / hungryQuota, p.demand - p.fairShare);
            p.fairShare += give;
            given += give;
        }
        if (given == 0) {
            // Rounding left less than one milli-GPU per project: hand it out one by one in name order.
            for (auto &[name, p] : calc) {
                if (given < spare && p.quota > 0 && p.demand > p.fairShare) {
                    ++p.fairShare;
                    ++given;
                }
            }
        }
        spare -= given;
    }
    return calc;
}

Scheduler::Occupancy Scheduler::occupancy() const
{
    Occupancy occ;
    std::map<std::string, std::size_t> index;
    for (const auto &node : m_nodes) {
        index[node.name] = occ.nodes.size();
        occ.nodes.push_back({node.name, std::vector<Occupancy::Gpu>(std::size_t(std::max(0, node.gpus)))});
    }
    std::vector<const JobStatus *> running;
    for (const auto &[id, job] : m_jobs) {
        if (job.state == JobState::Running)
            running.push_back(&job);
    }
    std::sort(running.begin(), running.end(), [](const JobStatus *a, const JobStatus *b) {
        return a->startSeq < b->startSeq;
    });
    for (const auto *job : running) {
        auto &gpus = occ.nodes[index.at(job->node)].gpus;
        for (int i : job->gpuIndices) {
            gpus[std::size_t(i)].used += shareOnOneGpu(*job);
            gpus[std::size_t(i)].jobs.push_back(job);
        }
    }
    return occ;
}

std::vector<ProjectStatus> Scheduler::projects() const
{
    std::vector<ProjectStatus> out;
    for (const auto &[name, p] : calcProjects())
        out.push_back({name, p.quota, p.allocated, p.demand, p.fairShare, p.pending, p.running, p.queued});
    return out;
}

std::vector<NodeStatus> Scheduler::nodes() const
{
    std::vector<NodeStatus> out;
    for (const auto &node : occupancy().nodes) {
        NodeStatus status;
        status.name = node.name;
        status.gpus = int(node.gpus.size());
        for (std::size_t i = 0; i < node.gpus.size(); ++i) {
            GpuSlot slot;
            slot.index = int(i);
            slot.used = node.gpus[i].used;
            for (const auto *job : node.gpus[i].jobs)
                slot.jobs.emplace_back(job->job.id, shareOnOneGpu(*job));
            status.allocated += slot.used;
            status.slots.push_back(std::move(slot));
        }
        out.push_back(std::move(status));
    }
    return out;
}

void Scheduler::start(JobStatus &job, const std::string &node, std::vector<int> indices, std::vector<Decision> &out)
{
    job.state = JobState::Running;
    job.node = node;
    job.gpuIndices = std::move(indices);
    job.startSeq = m_nextStartSeq++;
    job.preempted = false;
    job.preemptedBy.clear();
    job.pendingReason.clear();
    out.push_back({Decision::Kind::Start, job.job.id, node, {}, job.gpuIndices});
}

std::vector<Decision> Scheduler::schedule()
{
    std::vector<Decision> out;
    // Every reclaim raises the sum of in-quota allocations and every start adds a job, so this ends
    // long before the guard; the guard only protects against a future rule breaking that argument.
    for (std::size_t guard = 0; guard < 4 * m_jobs.size() + 16; ++guard) {
        if (startOne(true, out))
            continue;
        if (reclaimOne(out))
            continue;
        if (startOne(false, out))
            continue;
        break;
    }
    refreshReasons();
    return out;
}

bool Scheduler::startOne(bool withinFairShare, std::vector<Decision> &out)
{
    const auto calc = calcProjects();
    const auto occ = occupancy();
    struct Candidate
    {
        const std::string *project;
        const ProjectCalc *calc;
        JobStatus *job;
        Placement placement;
    };
    std::optional<Candidate> best;
    for (const auto &[name, p] : calc) {
        if (p.queued == 0)
            continue;
        for (JobStatus *job : pendingInQueueOrder(name)) {
            const MilliGpu after = p.allocated + job->job.gpus;
            if (nonPreemptibleOverQuota(*job, p.nonPreemptible, p.quota))
                continue;
            if ((after <= p.fairShare) != withinFairShare)
                continue;
            auto placement = place(occ, job->job.gpus);
            if (!placement)
                continue;
            const bool better =
                !best || ratioLess(p.allocated, p.fairShare, best->calc->allocated, best->calc->fairShare);
            if (better)
                best = Candidate{&name, &p, job, std::move(*placement)};
            break;
        }
    }
    if (!best)
        return false;
    start(*best->job, occ.nodes[best->placement.node].name, std::move(best->placement.indices), out);
    return true;
}

bool Scheduler::reclaimOne(std::vector<Decision> &out)
{
    const auto calc = calcProjects();
    const auto occ = occupancy();

    std::vector<std::string> order;
    for (const auto &[name, p] : calc) {
        if (p.queued > 0 && p.allocated < p.quota)
            order.push_back(name);
    }
    std::stable_sort(order.begin(), order.end(), [&](const std::string &a, const std::string &b) {
        const auto &pa = calc.at(a);
        const auto &pb = calc.at(b);
        return ratioLess(pa.allocated, pa.quota, pb.allocated, pb.quota);
    });

    for (const auto &name : order) {
        const auto &p = calc.at(name);
        // R3: what each other over-quota project can give without dropping below min(quota, demand).
        std::map<std::string, MilliGpu> budget;
        for (const auto &[other, o] : calc) {
            if (other != name && o.allocated > o.quota)
                budget[other] = o.allocated - std::min(o.quota, o.demand);
        }
        if (budget.empty())
            return false;

        for (JobStatus *job : pendingInQueueOrder(name)) {
            const MilliGpu need = job->job.gpus;
            const MilliGpu after = p.allocated + need;
            if (need <= 0 || after > p.quota || after > std::max(p.quota, p.fairShare))
                continue;

            // R7: per node, the smallest set of preemptible jobs that makes room; across nodes fewest
            // victims, then the most recently started victims, then node name.
            struct Plan
            {
                std::size_t node = 0;
                std::vector<const JobStatus *> victims; // newest first
                std::vector<std::uint64_t> starts;      // descending
            };
            std::optional<Plan> best;
            auto better = [](const Plan &a, const Plan &b) {
                if (a.victims.size() != b.victims.size())
                    return a.victims.size() < b.victims.size();
                if (a.starts != b.starts)
                    return std::lexicographical_compare(
                        b.starts.begin(), b.starts.end(), a.starts.begin(), a.starts.end());
                return a.node < b.node; // m_nodes is in name order
            };

            for (std::size_t n = 0; n < occ.nodes.size(); ++n) {
                const auto &gpus = occ.nodes[n].gpus;
                std::set<const JobStatus *> seen;
                std::vector<const JobStatus *> candidates;
                for (const auto &gpu : gpus) {
                    for (const auto *v : gpu.jobs) {
                        if (v->job.kind == JobKind::Train && v->job.gpus > 0 && budget.count(v->job.project) != 0
                            && v->job.gpus <= budget.at(v->job.project) && seen.insert(v).second)
                            candidates.push_back(v);
                    }
                }
                std::sort(candidates.begin(), candidates.end(), [](const JobStatus *a, const JobStatus *b) {
                    return a->startSeq > b->startSeq;
                });

                std::optional<Plan> nodeBest;
                std::size_t evaluated = 0;
                const std::size_t maxEvaluated = 200000;
                for (std::size_t size = 1; size <= candidates.size() && !nodeBest && evaluated < maxEvaluated; ++size) {
                    // Combinations of `size` candidates in lexicographic index order.
                    std::vector<std::size_t> pick(size);
                    for (std::size_t i = 0; i < size; ++i)
                        pick[i] = i;
                    while (evaluated < maxEvaluated) {
                        ++evaluated;
                        std::map<std::string, MilliGpu> taken;
                        bool withinBudget = true;
                        auto freed = gpus;
                        Plan plan;
                        plan.node = n;
                        for (std::size_t i : pick) {
                            const auto *v = candidates[i];
                            taken[v->job.project] += v->job.gpus;
                            withinBudget = withinBudget && taken[v->job.project] <= budget.at(v->job.project);
                            for (int g : v->gpuIndices)
                                freed[std::size_t(g)].used -= shareOnOneGpu(*v);
                            plan.victims.push_back(v);
                            plan.starts.push_back(v->startSeq);
                        }
                        if (withinBudget && placeOnNode(freed, need) && (!nodeBest || better(plan, *nodeBest)))
                            nodeBest = std::move(plan);
                        // Next combination.
                        std::size_t i = size;
                        while (i > 0 && pick[i - 1] == candidates.size() - size + (i - 1))
                            --i;
                        if (i == 0)
                            break;
                        ++pick[i - 1];
                        for (std::size_t j = i; j < size; ++j)
                            pick[j] = pick[j - 1] + 1;
                    }
                }
                if (nodeBest && (!best || better(*nodeBest, *best)))
                    best = std::move(nodeBest);
            }
            if (!best)
                continue;

            const std::string nodeName = occ.nodes[best->node].name;
            for (const auto *victim : best->victims) {
                auto &v = m_jobs.at(victim->job.id);
                out.push_back({Decision::Kind::Preempt, v.job.id, v.node, name, v.gpuIndices});
                v.state = JobState::Pending;
                v.node.clear();
                v.gpuIndices.clear();
                v.startSeq = 0;
                v.preempted = true;
                v.preemptedBy = name;
                ++v.preemptions;
            }
            const auto freedOcc = occupancy();
            auto indices = placeOnNode(freedOcc.nodes[best->node].gpus, need);
            start(*job, nodeName, std::move(*indices), out);
            return true;
        }
    }
    return false;
}

void Scheduler::refreshReasons()
{
    const auto calc = calcProjects();
    for (auto &[id, job] : m_jobs) {
        if (job.state != JobState::Pending) {
            job.pendingReason.clear();
            continue;
        }
        const auto &p = calc.at(job.job.project);
        job.pendingReason = pendingReasonFor(job, p.allocated, p.nonPreemptible, p.quota, p.fairShare);
    }
}

} // namespace strata::sim::kube
