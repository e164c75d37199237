#include "models/core/planning/gpuallocator.h"

#include "models/core/domain/format.h"
#include "models/core/domain/translate.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace strata::core {

namespace {

constexpr MilliGpu kWholeGpu = 1000;

MilliGpu roundedUpGpus(MilliGpu gpus)
{
    if (gpus > kWholeGpu && gpus % kWholeGpu != 0) {
        return (gpus / kWholeGpu + 1) * kWholeGpu;
    }
    return gpus;
}

// x/y < z/w where a fair share (or quota) of 0 ranks last: such a project has no claim.
bool claimsLess(MilliGpu x, MilliGpu y, MilliGpu z, MilliGpu w)
{
    if (y > 0 && w > 0) {
        return x * w < z * y;
    }
    if (y > 0 || w > 0) {
        return y > 0;
    }
    return x < z;
}

// GPUs on one node for `need`: a fraction on a partly used GPU first, then an empty one; whole GPUs
// on the lowest empty indices.
std::optional<QList<int>> fitOnNode(const std::vector<MilliGpu> &used, MilliGpu need)
{
    if (need <= 0) {
        return QList<int>{};
    }
    if (need < kWholeGpu) {
        for (const bool wantPartlyUsed : {true, false}) {
            for (std::size_t i = 0; i < used.size(); ++i) {
                if ((used[i] > 0) == wantPartlyUsed && used[i] + need <= kWholeGpu) {
                    return QList<int>{int(i)};
                }
            }
        }
        return std::nullopt;
    }
    QList<int> picked;
    const qsizetype wanted = need / kWholeGpu;
    for (std::size_t i = 0; i < used.size() && picked.size() < wanted; ++i) {
        if (used[i] == 0) {
            picked.append(int(i));
        }
    }
    if (picked.size() < wanted) {
        return std::nullopt;
    }
    return picked;
}

bool queuesBefore(const GpuAllocator::JobState *a, const GpuAllocator::JobState *b)
{
    if (a->preempted != b->preempted) {
        return a->preempted;
    }
    if (a->spec.submitOrder != b->spec.submitOrder) {
        return a->spec.submitOrder < b->spec.submitOrder;
    }
    return a->spec.id < b->spec.id;
}

} // namespace

MilliGpu perGpuShare(MilliGpu gpus)
{
    return std::min(gpus, kWholeGpu);
}

void GpuAllocator::setNodes(QList<Node> nodes)
{
    std::sort(nodes.begin(), nodes.end(), [](const Node &a, const Node &b) {
        return a.name < b.name;
    });
    m_nodes = std::move(nodes);
    m_slots.assign(std::size_t(m_nodes.size()), Slot{});
    for (qsizetype n = 0; n < m_nodes.size(); ++n) {
        m_slots[std::size_t(n)].used.assign(std::size_t(std::max(0, m_nodes[n].gpus)), 0);
    }
    // Jobs keep their binding where the node still has the GPUs; the others queue again.
    std::vector<JobState *> bound;
    for (auto &[id, job] : m_jobs) {
        if (job.running) {
            bound.push_back(&job);
        }
    }
    std::sort(bound.begin(), bound.end(), [](const JobState *a, const JobState *b) {
        return a->startOrder < b->startOrder;
    });
    for (JobState *job : bound) {
        const auto it = std::find_if(m_nodes.cbegin(), m_nodes.cend(), [&](const Node &node) {
            return node.name == job->node;
        });
        const bool fits = it != m_nodes.cend() && std::all_of(job->indices.cbegin(), job->indices.cend(), [&](int i) {
                              return i < it->gpus;
                          });
        if (!fits) {
            job->running = false;
            job->node.clear();
            job->indices.clear();
            job->startOrder = 0;
            continue;
        }
        auto &used = m_slots[std::size_t(it - m_nodes.cbegin())].used;
        for (const int i : job->indices) {
            used[std::size_t(i)] += perGpuShare(job->spec.gpus);
        }
    }
}

void GpuAllocator::setQuota(const QString &project, MilliGpu quota)
{
    m_quotas[project] = std::max<MilliGpu>(0, quota);
}

void GpuAllocator::setOverQuotaWeights(QHash<QString, double> weights)
{
    m_weights = std::move(weights);
}

bool GpuAllocator::submit(JobSpec spec, bool preempted)
{
    if (spec.gpus < 0 || m_jobs.count(spec.id) != 0) {
        return false;
    }
    spec.gpus = roundedUpGpus(spec.gpus);
    JobState state;
    state.preempted = preempted;
    const QString id = spec.id;
    state.spec = std::move(spec);
    m_jobs.emplace(id, std::move(state));
    return true;
}

bool GpuAllocator::bind(JobSpec spec, const QString &node, QList<int> indices, quint64 startOrder)
{
    if (spec.gpus < 0 || m_jobs.count(spec.id) != 0) {
        return false;
    }
    spec.gpus = roundedUpGpus(spec.gpus);
    const auto it = std::find_if(m_nodes.cbegin(), m_nodes.cend(), [&](const Node &n) {
        return n.name == node;
    });
    if (it == m_nodes.cend()) {
        return false;
    }
    const int n = int(it - m_nodes.cbegin());
    const auto &used = m_slots[std::size_t(n)].used;
    if (indices.isEmpty() && spec.gpus > 0) {
        const auto fit = fitOnNode(used, spec.gpus);
        if (!fit) {
            return false;
        }
        indices = *fit;
    }
    const MilliGpu share = perGpuShare(spec.gpus);
    for (const int i : std::as_const(indices)) {
        if (i < 0 || std::size_t(i) >= used.size() || used[std::size_t(i)] + share > kWholeGpu) {
            return false;
        }
    }
    JobState state;
    const QString id = spec.id;
    state.spec = std::move(spec);
    auto &job = m_jobs.emplace(id, std::move(state)).first->second;
    occupy(job, n, std::move(indices), nullptr);
    job.startOrder = startOrder;
    m_nextStart = std::max(m_nextStart, startOrder + 1);
    return true;
}

bool GpuAllocator::remove(const QString &id)
{
    const auto it = m_jobs.find(id);
    if (it == m_jobs.end()) {
        return false;
    }
    release(it->second);
    m_jobs.erase(it);
    return true;
}

void GpuAllocator::occupy(JobState &job, int node, QList<int> indices, QList<Decision> *out)
{
    auto &used = m_slots[std::size_t(node)].used;
    for (const int i : std::as_const(indices)) {
        used[std::size_t(i)] += perGpuShare(job.spec.gpus);
    }
    job.running = true;
    job.node = m_nodes[node].name;
    job.indices = std::move(indices);
    job.startOrder = m_nextStart++;
    job.preempted = false;
    job.preemptedBy.clear();
    if (out) {
        out->append(Decision{Decision::Kind::Start, job.spec.id, job.node, {}, job.indices});
    }
}

void GpuAllocator::release(JobState &job)
{
    if (!job.running) {
        return;
    }
    for (qsizetype n = 0; n < m_nodes.size(); ++n) {
        if (m_nodes[n].name != job.node) {
            continue;
        }
        for (const int i : std::as_const(job.indices)) {
            m_slots[std::size_t(n)].used[std::size_t(i)] -= perGpuShare(job.spec.gpus);
        }
    }
    job.running = false;
    job.node.clear();
    job.indices.clear();
    job.startOrder = 0;
}

MilliGpu GpuAllocator::capacity() const
{
    MilliGpu total = 0;
    for (const Node &node : m_nodes) {
        if (node.accepting) {
            total += MilliGpu(std::max(0, node.gpus)) * kWholeGpu;
        }
    }
    return total;
}

std::map<QString, GpuAllocator::ProjectState> GpuAllocator::tally() const
{
    std::map<QString, ProjectState> out;
    for (const auto &[name, quota] : m_quotas) {
        out[name].quota = quota;
    }
    for (const auto &[id, job] : m_jobs) {
        ProjectState &p = out[job.spec.project];
        p.demand += job.spec.gpus;
        if (job.running) {
            p.allocated += job.spec.gpus;
            ++p.running;
            if (job.spec.type == JobType::Interactive) {
                p.nonPreemptible += job.spec.gpus;
            }
        } else {
            p.pending += job.spec.gpus;
            ++p.queued;
        }
    }
    QList<MilliGpu> quotas;
    QList<MilliGpu> demands;
    QList<qint64> weights;
    for (auto &[name, p] : out) {
        p.name = name;
        quotas.append(p.quota);
        demands.append(p.demand);
        weights.append(m_weights.isEmpty() ? p.quota : qint64(std::llround(m_weights.value(name, 1.0) * 1000.0)));
    }
    const QList<MilliGpu> shares = fairShares(capacity(), quotas, demands, weights);
    qsizetype i = 0;
    for (auto &[name, p] : out) {
        p.fairShare = shares.value(i++);
    }
    return out;
}

std::map<QString, std::vector<const GpuAllocator::JobState *>> GpuAllocator::queues() const
{
    std::map<QString, std::vector<const JobState *>> out;
    for (const auto &[id, job] : m_jobs) {
        if (!job.running) {
            out[job.spec.project].push_back(&job);
        }
    }
    for (auto &[project, queue] : out) {
        std::sort(queue.begin(), queue.end(), queuesBefore);
    }
    return out;
}

std::optional<GpuAllocator::Placement> GpuAllocator::findPlacement(MilliGpu need) const
{
    if (need > 0 && need < kWholeGpu) {
        // Packing beats node order: a partly used GPU anywhere before an empty one.
        for (qsizetype n = 0; n < m_nodes.size(); ++n) {
            const auto &used = m_slots[std::size_t(n)].used;
            for (std::size_t i = 0; m_nodes[n].accepting && i < used.size(); ++i) {
                if (used[i] > 0 && used[i] + need <= kWholeGpu) {
                    return Placement{int(n), {int(i)}};
                }
            }
        }
    }
    for (qsizetype n = 0; n < m_nodes.size(); ++n) {
        if (!m_nodes[n].accepting) {
            continue;
        }
        if (auto fit = fitOnNode(m_slots[std::size_t(n)].used, need)) {
            return Placement{int(n), std::move(*fit)};
        }
    }
    return std::nullopt;
}

bool GpuAllocator::startNext(bool withinFairShare, QList<Decision> &out)
{
    const auto projects = tally();
    const auto waiting = queues();
    // Placement does not depend on the project, and what has no room for g has none for more.
    MilliGpu unplaceable = std::numeric_limits<MilliGpu>::max();
    const ProjectState *chosenProject = nullptr;
    const JobState *chosenJob = nullptr;
    Placement chosenPlace;
    for (const auto &[name, p] : projects) {
        if (p.queued == 0) {
            continue;
        }
        if (chosenProject
            && !claimsLess(p.allocated, p.fairShare, chosenProject->allocated, chosenProject->fairShare)) {
            continue;
        }
        const auto queue = waiting.find(name);
        for (const JobState *job : queue == waiting.end() ? std::vector<const JobState *>{} : queue->second) {
            const MilliGpu g = job->spec.gpus;
            if (g >= unplaceable || (job->spec.type == JobType::Interactive && p.nonPreemptible + g > p.quota)) {
                continue;
            }
            if ((p.allocated + g <= p.fairShare) != withinFairShare) {
                continue;
            }
            if (auto place = findPlacement(g)) {
                chosenProject = &p;
                chosenJob = job;
                chosenPlace = std::move(*place);
                break;
            }
            unplaceable = g;
        }
    }
    if (!chosenJob) {
        return false;
    }
    occupy(m_jobs.at(chosenJob->spec.id), chosenPlace.node, std::move(chosenPlace.indices), &out);
    return true;
}

bool GpuAllocator::reclaimNext(QList<Decision> &out)
{
    const auto projects = tally();
    const auto waiting = queues();
    std::vector<const ProjectState *> claimants;
    for (const auto &[name, p] : projects) {
        if (p.queued > 0 && p.allocated < p.quota) {
            claimants.push_back(&p);
        }
    }
    std::stable_sort(claimants.begin(), claimants.end(), [](const ProjectState *a, const ProjectState *b) {
        return claimsLess(a->allocated, a->quota, b->allocated, b->quota);
    });

    for (const ProjectState *claimant : claimants) {
        // R3: what each other project over its quota can give without dropping below min(quota, demand).
        std::map<QString, MilliGpu> spareOf;
        for (const auto &[name, p] : projects) {
            if (name != claimant->name && p.allocated > p.quota) {
                spareOf[name] = p.allocated - std::min(p.quota, p.demand);
            }
        }
        if (spareOf.empty()) {
            return false;
        }
        // Each node's preemptible jobs, newest start first, built once for all of this claimant's jobs.
        std::vector<std::vector<const JobState *>> pools(std::size_t(m_nodes.size()));
        QHash<QString, qsizetype> nodeIndex;
        for (qsizetype n = 0; n < m_nodes.size(); ++n) {
            nodeIndex.insert(m_nodes[n].name, n);
        }
        for (const auto &[id, other] : m_jobs) {
            const auto spare = spareOf.find(other.spec.project);
            if (other.running && other.spec.type == JobType::Train && other.spec.gpus > 0 && spare != spareOf.end()
                && other.spec.gpus <= spare->second) {
                pools[std::size_t(nodeIndex.value(other.node))].push_back(&other);
            }
        }
        for (auto &pool : pools) {
            std::sort(pool.begin(), pool.end(), [](const JobState *a, const JobState *b) {
                return a->startOrder > b->startOrder;
            });
        }
        // A need that found no room cannot be met by a larger one: room for g' >= g also fits g.
        MilliGpu unmet = std::numeric_limits<MilliGpu>::max();
        for (const JobState *job : waiting.at(claimant->name)) {
            const MilliGpu need = job->spec.gpus;
            const MilliGpu after = claimant->allocated + need;
            if (need <= 0 || need >= unmet || after > claimant->quota
                || after > std::max(claimant->quota, claimant->fairShare)) {
                continue;
            }
            // R7 over all nodes: fewest victims, then the newest starts (compared newest first).
            struct Plan
            {
                int node = -1;
                std::vector<const JobState *> victims; // newest start first
            };
            std::optional<Plan> best;
            const auto newerPlan = [](const Plan &a, const Plan &b) {
                for (std::size_t i = 0; i < a.victims.size() && i < b.victims.size(); ++i) {
                    if (a.victims[i]->startOrder != b.victims[i]->startOrder) {
                        return a.victims[i]->startOrder > b.victims[i]->startOrder;
                    }
                }
                return a.node < b.node;
            };
            for (qsizetype n = 0; n < m_nodes.size(); ++n) {
                if (!m_nodes[n].accepting) {
                    continue;
                }
                const std::vector<const JobState *> &pool = pools[std::size_t(n)];
                const std::size_t limit = best ? best->victims.size() : pool.size();
                // Depth-first over subsets of growing size; the first size that works is the node's best.
                std::vector<const JobState *> picked;
                std::optional<Plan> nodeBest;
                long budget = 200000; // subsets examined per node: bounds pathological nodes
                std::function<void(std::size_t, std::size_t)> choose = [&](std::size_t from, std::size_t size) {
                    if (budget <= 0) {
                        return;
                    }
                    if (picked.size() == size) {
                        --budget;
                        std::map<QString, MilliGpu> taken;
                        auto used = m_slots[std::size_t(n)].used;
                        for (const JobState *victim : picked) {
                            if ((taken[victim->spec.project] += victim->spec.gpus) > spareOf.at(victim->spec.project)) {
                                return;
                            }
                            for (const int i : victim->indices) {
                                used[std::size_t(i)] -= perGpuShare(victim->spec.gpus);
                            }
                        }
                        if (fitOnNode(used, need)) {
                            Plan plan{int(n), picked};
                            if (!nodeBest || newerPlan(plan, *nodeBest)) {
                                nodeBest = std::move(plan);
                            }
                        }
                        return;
                    }
                    for (std::size_t i = from; i < pool.size(); ++i) {
                        picked.push_back(pool[i]);
                        choose(i + 1, size);
                        picked.pop_back();
                    }
                };
                for (std::size_t size = 1; size <= std::min(limit, pool.size()) && !nodeBest; ++size) {
                    choose(0, size);
                }
                if (nodeBest
                    && (!best || nodeBest->victims.size() < best->victims.size()
                        || (nodeBest->victims.size() == best->victims.size() && newerPlan(*nodeBest, *best)))) {
                    best = std::move(nodeBest);
                }
            }
            if (!best) {
                unmet = std::min(unmet, need);
                continue;
            }
            for (const JobState *victim : best->victims) {
                JobState &v = m_jobs.at(victim->spec.id);
                out.append(Decision{Decision::Kind::Preempt, v.spec.id, v.node, claimant->name, v.indices});
                release(v);
                v.preempted = true;
                v.preemptedBy = claimant->name;
            }
            auto fit = fitOnNode(m_slots[std::size_t(best->node)].used, need);
            occupy(m_jobs.at(job->spec.id), best->node, std::move(*fit), &out);
            return true;
        }
    }
    return false;
}

QList<GpuAllocator::Decision> GpuAllocator::settle()
{
    QList<Decision> out;
    // A reclaim raises the in-quota total and a start adds a running job, so the loop ends well
    // before the guard, which only stops a future rule that breaks that argument.
    for (std::size_t guard = 0; guard < 4 * m_jobs.size() + 16; ++guard) {
        if (!startNext(true, out) && !reclaimNext(out) && !startNext(false, out)) {
            break;
        }
    }
    return out;
}

const GpuAllocator::JobState *GpuAllocator::job(const QString &id) const
{
    const auto it = m_jobs.find(id);
    return it == m_jobs.end() ? nullptr : &it->second;
}

QList<GpuAllocator::JobState> GpuAllocator::jobs() const
{
    QList<JobState> out;
    for (const auto &[id, job] : m_jobs) {
        out.append(job);
    }
    std::sort(out.begin(), out.end(), [](const JobState &a, const JobState &b) {
        return a.spec.submitOrder != b.spec.submitOrder ? a.spec.submitOrder < b.spec.submitOrder
                                                        : a.spec.id < b.spec.id;
    });
    return out;
}

QList<GpuAllocator::ProjectState> GpuAllocator::projects() const
{
    QList<ProjectState> out;
    for (const auto &[name, p] : tally()) {
        out.append(p);
    }
    return out;
}

QString GpuAllocator::pendingReason(const QString &id) const
{
    const JobState *state = job(id);
    if (!state || state->running) {
        return {};
    }
    return reasonFor(*state, tally());
}

QHash<QString, QString> GpuAllocator::pendingReasons() const
{
    const auto projects = tally();
    QHash<QString, QString> out;
    for (const auto &[id, state] : m_jobs) {
        if (!state.running) {
            out.insert(id, reasonFor(state, projects));
        }
    }
    return out;
}

QString GpuAllocator::reasonFor(const JobState &state, const std::map<QString, ProjectState> &projects)
{
    if (state.preempted) {
        return tr("preempted by %1 reclaiming its quota").arg(state.preemptedBy);
    }
    const ProjectState &p = projects.at(state.spec.project);
    const MilliGpu g = state.spec.gpus;
    if (state.spec.type == JobType::Interactive && p.nonPreemptible + g > p.quota) {
        return tr("non-preemptible: %1 GPUs would take %2's non-preemptible GPUs past its quota of %3")
            .arg(formatGpus(g), p.name, formatGpus(p.quota));
    }
    if (p.allocated + g > p.fairShare) {
        return tr("project %1 is at or over its fair share (%2/%3 GPUs)")
            .arg(p.name, formatGpus(p.allocated), formatGpus(p.fairShare));
    }
    if (g < kWholeGpu) {
        return tr("no GPU has %1 free").arg(formatGpus(g));
    }
    if (g == kWholeGpu) {
        return tr("no node has a free GPU");
    }
    return tr("no node has %1 free GPUs together").arg(formatGpus(g));
}

} // namespace strata::core
