#include "models/core/sources/kubernetes/kubecompute.h"

#include "models/core/convert.h"

#include <QTimeZone>

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace strata::core::kube {

namespace {

QStringList qsl(const std::vector<std::string> &list)
{
    QStringList out;
    out.reserve(static_cast<qsizetype>(list.size()));
    for (const std::string &item : list) {
        out.append(qs(item));
    }
    return out;
}

// The kubelet's waiting reasons for a container that will not start without someone acting
// (kubernetes pkg/kubelet/images/types.go and pkg/kubelet/container/sync_result.go); the
// transient ones (ContainerCreating, PodInitializing) are not failures.
bool isFailingWaitReason(const std::string &reason)
{
    static const char *const failing[] = {"ImagePullBackOff",
                                          "ErrImagePull",
                                          "ErrImageNeverPull",
                                          "InvalidImageName",
                                          "CrashLoopBackOff",
                                          "CreateContainerConfigError",
                                          "CreateContainerError",
                                          "RunContainerError",
                                          "OOMKilled"};
    return std::any_of(std::begin(failing), std::end(failing), [&reason](const char *f) {
        return reason == f;
    });
}

bool isTerminal(const kubernetes::PodDto &pod)
{
    return pod.phase == "Succeeded" || pod.phase == "Failed" || !pod.deletionTimestamp.empty();
}

JobType jobTypeOf(const std::string &priorityClass, const std::string &preemptibility)
{
    if (preemptibility == "non-preemptible") {
        return JobType::Interactive;
    }
    if (preemptibility == "preemptible") {
        return JobType::Train;
    }
    return (priorityClass == "build" || priorityClass == "interactive" || priorityClass == "inference")
               ? JobType::Interactive
               : JobType::Train;
}

// The pod that represents a job now: a live one (bound first), else the newest.
const kubernetes::PodDto *currentPod(const std::vector<const kubernetes::PodDto *> &pods)
{
    const kubernetes::PodDto *best = nullptr;
    auto rank = [](const kubernetes::PodDto *p) {
        if (isTerminal(*p)) {
            return 0;
        }
        return p->nodeName.empty() ? 1 : 2;
    };
    for (const kubernetes::PodDto *p : pods) {
        if (!best || rank(p) > rank(best)
            || (rank(p) == rank(best) && p->creationTimestamp > best->creationTimestamp)) {
            best = p;
        }
    }
    return best;
}

QString gpuIndexText(const std::vector<int> &indices)
{
    QStringList parts;
    for (int i : indices) {
        parts.append(QString::number(i));
    }
    return parts.join(QLatin1Char(','));
}

// Mean utilization of the GPUs `indices` on `node`, -1 when none has a reading.
double slotUtilization(const QHash<QString, double> &utilByGpu, const QString &node, const std::vector<int> &indices)
{
    if (utilByGpu.isEmpty()) {
        return -1.0; // no metrics: skip building a lookup key per GPU of every job
    }
    double sum = 0;
    int n = 0;
    for (int index : indices) {
        const auto it = utilByGpu.constFind(node + QLatin1Char('/') + QString::number(index));
        if (it != utilByGpu.cend()) {
            sum += *it;
            ++n;
        }
    }
    return n ? sum / n : -1.0;
}

template <class T> std::shared_ptr<const KeyedList<T>> keep(std::vector<Ptr<T>> items)
{
    return std::make_shared<const KeyedList<T>>(std::move(items));
}

// Reuses the previous record when equal, so the estate diff sees pointer equality.
template <class T> Ptr<T> reuse(const std::shared_ptr<const KeyedList<T>> &previous, T &&value)
{
    if (previous) {
        if (Ptr<T> old = previous->find(estateKey(value)); old && *old == value) {
            return old;
        }
    }
    return std::make_shared<const T>(std::move(value));
}

} // namespace

QString projectOfNamespace(const QString &namespaceName)
{
    static const QLatin1String prefix("runai-");
    return namespaceName.startsWith(prefix) ? namespaceName.mid(prefix.size()) : QString();
}

QString namespaceOfProject(const QString &project)
{
    return QStringLiteral("runai-") + project;
}

QDateTime parseTime(const std::string &text)
{
    if (text.empty()) {
        return {};
    }
    // Kubernetes writes "2024-05-01T12:00:00Z" (optionally with a fraction): parsed by hand, since
    // QDateTime::fromString was a third of a publish with 50,000 pods (two times per job). Other
    // shapes (offsets, longer fractions) take Qt's parser below.
    const std::size_t n = text.size();
    auto digits = [&](std::size_t at, std::size_t count) {
        int value = 0;
        for (std::size_t i = at; i < at + count; ++i) {
            if (text[i] < '0' || text[i] > '9') {
                return -1;
            }
            value = value * 10 + (text[i] - '0');
        }
        return value;
    };
    if (n >= 20 && text[n - 1] == 'Z' && text[4] == '-' && text[7] == '-' && text[10] == 'T' && text[13] == ':'
        && text[16] == ':' && (n == 20 || (text[19] == '.' && n >= 22 && n <= 24))) {
        const int year = digits(0, 4);
        const int month = digits(5, 2);
        const int day = digits(8, 2);
        const int hour = digits(11, 2);
        const int minute = digits(14, 2);
        const int second = digits(17, 2);
        int ms = 0;
        if (n > 20) {
            const std::size_t fraction = n - 21;
            ms = digits(20, fraction);
            for (std::size_t i = fraction; i < 3 && ms >= 0; ++i) {
                ms *= 10;
            }
        }
        const QDate date(year, month, day);
        const QTime time(hour, minute, second, ms);
        if (year >= 0 && month >= 0 && day >= 0 && hour >= 0 && minute >= 0 && second >= 0 && ms >= 0 && date.isValid()
            && time.isValid()) {
            return QDateTime(date, time, Qt::UTC);
        }
    }
    QDateTime t = QDateTime::fromString(qs(text), Qt::ISODateWithMs);
    if (!t.isValid()) {
        t = QDateTime::fromString(qs(text), Qt::ISODate);
    }
    return t.isValid() ? t.toUTC() : QDateTime();
}

ComputePublish build(const QString &source,
                     const ClusterCache &cache,
                     const QHash<QString, StorageVolumeRef> &storageByName,
                     const QDateTime &now,
                     const ComputePublish *previous)
{
    Q_UNUSED(now)
    // ---- DCGM readings by "node/gpu" ----
    QHash<QString, double> utilByGpu;
    for (const prometheus::GpuMetrics &m : cache.gpuMetrics) {
        if (m.gpu >= 0 && !std::isnan(m.utilPct)) {
            utilByGpu.insert(qs(m.node) + QLatin1Char('/') + QString::number(m.gpu), m.utilPct);
        }
    }

    // ---- Projects known to the cluster ----
    // KAI queues with children are departments; the leaves are projects.
    std::unordered_set<std::string> parents;
    for (const auto &[key, queue] : cache.queues) {
        if (!queue.parentQueue.empty()) {
            parents.insert(queue.parentQueue);
        }
    }
    struct ProjectAcc
    {
        Project project;
        double utilWeighted = 0;
        MilliGpu utilGpus = 0;
    };
    auto queueInUse = [&cache](const std::string &name) {
        for (const auto &[key, job] : cache.jobs) {
            if (job.queue == name) {
                return true;
            }
        }
        for (const auto &[key, pod] : cache.pods) {
            if (pod.queue == name && pod.jobName.empty()) {
                return true;
            }
        }
        return false;
    };
    std::map<QString, ProjectAcc> projects;
    QHash<QString, QString> projectByNamespace;
    if (cache.hasKai) {
        for (const auto &[key, queue] : cache.queues) {
            // Departments (queues with children) are not projects; KAI's built-in default queue
            // only counts while something runs in it.
            if (parents.count(queue.name) != 0
                || (queue.name == "default-queue" && queue.gpuQuotaMilli <= 0 && !queueInUse(queue.name))) {
                continue;
            }
            ProjectAcc acc;
            acc.project.source = source;
            acc.project.id = acc.project.name = qs(queue.name);
            acc.project.origin = ProjectOrigin::KaiQueue;
            acc.project.quota = queue.gpuQuotaMilli;
            acc.project.limit = queue.gpuLimitMilli;
            acc.project.overQuotaWeight = queue.overQuotaWeight;
            const QString ns = namespaceOfProject(acc.project.name);
            if (cache.namespaces.count(ns.toStdString()) != 0) {
                acc.project.namespaceName = ns;
                projectByNamespace.insert(ns, acc.project.name);
            }
            projects.emplace(acc.project.name, std::move(acc));
        }
    } else {
        for (const auto &[key, quota] : cache.quotas) {
            if (quota.hardGpuMilli < 0) {
                continue;
            }
            const QString ns = qs(quota.namespace_);
            auto [it, inserted] = projects.try_emplace(ns);
            ProjectAcc &acc = it->second;
            if (inserted) {
                acc.project.source = source;
                acc.project.id = acc.project.name = acc.project.namespaceName = ns;
                acc.project.origin = ProjectOrigin::NamespaceQuota;
                acc.project.quota = 0;
            }
            acc.project.quota += quota.hardGpuMilli;
            projectByNamespace.insert(ns, ns);
        }
    }
    auto projectOf = [&](const std::string &queueLabel, const std::string &ns) -> QString {
        if (!queueLabel.empty()) {
            return qs(queueLabel);
        }
        const QString byNs = projectByNamespace.value(qs(ns));
        return byNs.isEmpty() ? projectOfNamespace(qs(ns)) : byNs;
    };

    // ---- Pods by owning job ----
    std::unordered_map<std::string, std::vector<const kubernetes::PodDto *>> podsByJob;
    // Sorted by the cache key, taken from the map: PodDto::key() allocates, and calling it per
    // comparison made this sort most of a publish's cost with 50,000 bare pods.
    std::vector<std::pair<const std::string *, const kubernetes::PodDto *>> standaloneByKey;
    for (const auto &[key, pod] : cache.pods) {
        if (!pod.jobName.empty()) {
            podsByJob[pod.namespace_ + "/" + pod.jobName].push_back(&pod);
        } else if (pod.gpuLimitMilli > 0 || !pod.queue.empty()) {
            standaloneByKey.emplace_back(&key, &pod);
        }
    }
    std::sort(standaloneByKey.begin(), standaloneByKey.end(), [](const auto &a, const auto &b) {
        return *a.first < *b.first;
    });
    std::vector<const kubernetes::PodDto *> standalone;
    standalone.reserve(standaloneByKey.size());
    for (const auto &entry : standaloneByKey) {
        standalone.push_back(entry.second);
    }

    // ---- Jobs ----
    std::vector<Ptr<Job>> jobs;
    jobs.reserve(cache.jobs.size() + standalone.size());
    QHash<QString, QStringList> jobsByClaim; // "ns/claim" -> job names
    auto makeJob = [&](const kubernetes::JobDto *jobDto, const kubernetes::PodDto *pod) {
        Job job;
        job.source = source;
        const kubernetes::ObjectMeta &meta = jobDto ? static_cast<const kubernetes::ObjectMeta &>(*jobDto)
                                                    : static_cast<const kubernetes::ObjectMeta &>(*pod);
        job.name = qs(meta.name);
        job.namespaceName = qs(meta.namespace_);
        job.id = job.namespaceName + QLatin1Char('/') + job.name;
        const std::string &queue = jobDto ? jobDto->queue : pod->queue;
        job.project = projectOf(queue.empty() && pod ? pod->queue : queue, meta.namespace_);
        job.user = qs(jobDto ? jobDto->user : pod->user);
        if (job.user.isEmpty() && pod) {
            job.user = qs(pod->user);
        }
        job.createdBy = qs(jobDto ? jobDto->createdBy : pod->createdBy);
        job.createdByCli = job.createdBy == QLatin1String("cli");
        job.image = qs(jobDto ? jobDto->image : (pod->images.empty() ? std::string() : pod->images.front()));
        job.command = qsl(jobDto ? jobDto->command : pod->command) + qsl(jobDto ? jobDto->args : pod->args);
        job.pvcs = qsl(jobDto ? jobDto->pvcClaims : pod->pvcClaims);
        job.pvcSubPaths = qsl(jobDto ? jobDto->pvcSubPaths : pod->pvcSubPaths);
        job.gpusRequested = jobDto ? jobDto->gpuMilli : pod->gpuLimitMilli;
        if (job.gpusRequested == 0 && pod) {
            job.gpusRequested = pod->gpuLimitMilli;
        }
        job.created = parseTime(meta.creationTimestamp);

        const kubernetes::PodGroupDto *group = nullptr;
        if (pod) {
            const auto annotated = pod->annotations.find("pod-group-name");
            const std::string groupName =
                annotated != pod->annotations.end() ? annotated->second : "pg-" + (jobDto ? jobDto->name : pod->name);
            const auto it = cache.podGroups.find(meta.namespace_ + "/" + groupName);
            group = it == cache.podGroups.end() ? nullptr : &it->second;
        } else if (jobDto) {
            const auto it = cache.podGroups.find(meta.namespace_ + "/pg-" + jobDto->name);
            group = it == cache.podGroups.end() ? nullptr : &it->second;
        }
        const std::string &priorityClass = jobDto ? jobDto->priorityClassName : pod->priorityClassName;
        job.type = jobTypeOf(priorityClass, group ? group->preemptibility : std::string());

        const bool live = pod && !isTerminal(*pod);
        if (jobDto && jobDto->complete) {
            job.status = JobStatus::Succeeded;
            job.finished = parseTime(jobDto->completionTime);
        } else if (jobDto && jobDto->failedCondition) {
            job.status = JobStatus::Failed;
            job.finished = parseTime(jobDto->completionTime);
        } else if (!jobDto && pod && (pod->phase == "Succeeded" || pod->phase == "Failed")) {
            job.status = pod->phase == "Succeeded" ? JobStatus::Succeeded : JobStatus::Failed;
        } else if (live && pod->phase == "Running") {
            job.status = JobStatus::Running;
        } else if (live && !pod->nodeName.empty()) {
            job.status = JobStatus::ContainerCreating;
        } else {
            job.status = group && group->evicted ? JobStatus::Preempted : JobStatus::Pending;
        }

        if (live && !pod->nodeName.empty()) {
            job.node = qs(pod->nodeName);
            job.gpusAllocated = pod->gpuLimitMilli > 0 ? pod->gpuLimitMilli : job.gpusRequested;
            job.gpuIndices = gpuIndexText(pod->gpuIndices);
            job.podName = qs(pod->name);
            if (job.status == JobStatus::Running) {
                job.started = parseTime(pod->startTime);
            }
            job.gpuUtilization = slotUtilization(utilByGpu, job.node, pod->gpuIndices);
            if (job.gpuUtilization < 0) {
                for (const prometheus::GpuMetrics &m : cache.gpuMetrics) {
                    if (m.pod == pod->name && m.namespace_ == pod->namespace_ && !std::isnan(m.utilPct)) {
                        job.gpuUtilization = m.utilPct;
                        break;
                    }
                }
            }
            // What the container died of before its restart (the Kubernetes docs' OOM example:
            // lastState.terminated.reason OOMKilled, exitCode 137) explains a CrashLoopBackOff.
            const QString lastExit =
                pod->lastTerminatedReason.empty()
                    ? QString()
                    : (pod->lastExitCode >= 0 ? QStringLiteral(" (last exit: %1, code %2)")
                                                    .arg(qs(pod->lastTerminatedReason))
                                                    .arg(pod->lastExitCode)
                                              : QStringLiteral(" (last exit: %1)").arg(qs(pod->lastTerminatedReason)));
            if (!pod->waitingReason.empty() && pod->waitingReason != "ContainerCreating") {
                job.pendingReason =
                    QStringLiteral("%1: %2").arg(qs(pod->waitingReason), qs(pod->waitingMessage)) + lastExit;
                if (isFailingWaitReason(pod->waitingReason)) {
                    job.failureReason = qs(pod->waitingReason);
                }
            } else if (!pod->terminatedReason.empty() && pod->phase != "Succeeded" && pod->phase != "Failed") {
                // Killed and about to restart: kubectl's STATUS shows the reason ("OOMKilled").
                job.failureReason = qs(pod->terminatedReason);
                job.pendingReason = qs(pod->terminatedReason) + lastExit;
            }
        } else if (pod) {
            job.podName = qs(pod->name);
        }

        if (job.status == JobStatus::Pending || job.status == JobStatus::Preempted) {
            if (group && job.status == JobStatus::Preempted && !group->evictedMessage.empty()
                && group->pendingMessage.empty()) {
                job.pendingReason = qs(group->evictedMessage);
            } else if (group && !group->pendingMessage.empty()) {
                job.pendingReason = qs(group->pendingMessage);
            } else if (pod && pod->scheduledCondition.status == "False") {
                job.pendingReason = qs(pod->scheduledCondition.message.empty() ? pod->scheduledCondition.reason
                                                                               : pod->scheduledCondition.message);
            }
            for (const QString &claim : std::as_const(job.pvcs)) {
                const auto it = cache.pvcs.find(QString(job.namespaceName + QLatin1Char('/') + claim).toStdString());
                if (it == cache.pvcs.end()) {
                    job.pendingReason = QStringLiteral("PVC %1 does not exist").arg(claim);
                } else if (it->second.phase != "Bound") {
                    job.pendingReason = QStringLiteral("PVC %1 is not bound (%2)")
                                            .arg(claim, qs(it->second.phase.empty() ? "Pending" : it->second.phase));
                }
            }
            if (job.pendingReason.isEmpty() && pod && !pod->waitingReason.empty()) {
                job.pendingReason = qs(pod->waitingReason);
            }
        }
        for (const QString &claim : std::as_const(job.pvcs)) {
            jobsByClaim[job.namespaceName + QLatin1Char('/') + claim].append(job.name);
        }
        return job;
    };

    for (const auto &[key, jobDto] : cache.jobs) {
        const auto it = podsByJob.find(key);
        const kubernetes::PodDto *pod = it == podsByJob.end() ? nullptr : currentPod(it->second);
        jobs.push_back(reuse(previous ? previous->jobs : nullptr, makeJob(&jobDto, pod)));
    }
    for (const kubernetes::PodDto *pod : standalone) {
        jobs.push_back(reuse(previous ? previous->jobs : nullptr, makeJob(nullptr, pod)));
    }
    {
        // By creation time, then id; the times are read once, as QDateTime comparisons made this
        // sort a third of a publish with 50,000 jobs. Invalid times first, as QDateTime orders them.
        struct Order
        {
            bool valid;
            qint64 ms;
            std::size_t index;
        };
        std::vector<Order> order;
        order.reserve(jobs.size());
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            const QDateTime &created = jobs[i]->created;
            order.push_back(Order{created.isValid(), created.isValid() ? created.toMSecsSinceEpoch() : 0, i});
        }
        std::sort(order.begin(), order.end(), [&jobs](const Order &a, const Order &b) {
            if (a.valid != b.valid) {
                return !a.valid;
            }
            return a.ms != b.ms ? a.ms < b.ms : jobs[a.index]->id < jobs[b.index]->id;
        });
        std::vector<Ptr<Job>> sorted;
        sorted.reserve(jobs.size());
        for (const Order &o : order) {
            sorted.push_back(std::move(jobs[o.index]));
        }
        jobs = std::move(sorted);
    }

    // ---- Nodes and GPU packing ----
    GpuCluster cluster;
    cluster.source = cluster.id = cluster.name = source;
    cluster.version = qs(cache.version);
    cluster.hasKai = cache.hasKai;
    cluster.metricsAvailable = cache.metricsAvailable;
    cluster.nodeCount = static_cast<int>(cache.nodes.size());

    std::unordered_map<std::string, std::vector<const Job *>> jobsByNode;
    for (const Ptr<Job> &job : jobs) {
        if (!job->node.isEmpty() && job->gpusAllocated > 0) {
            jobsByNode[job->node.toStdString()].push_back(job.get());
        }
    }
    std::vector<Ptr<GpuNode>> nodes;
    double utilSum = 0;
    int utilCount = 0;
    for (const auto &[key, dto] : cache.nodes) {
        if (dto.gpuCapacityMilli <= 0) {
            continue;
        }
        GpuNode node;
        node.source = source;
        node.id = node.name = qs(dto.name);
        node.gpuProduct = qs(dto.gpuProduct);
        node.gpuMemoryMiB = static_cast<int>(dto.gpuMemoryMiB);
        node.gpuCount = static_cast<int>(dto.gpuCapacityMilli / 1000);
        node.allocatable = dto.gpuAllocatableMilli;
        node.ready = dto.ready;
        node.schedulable = !dto.unschedulable;
        for (int i = 0; i < node.gpuCount; ++i) {
            GpuSlot slot;
            slot.index = i;
            const auto util = utilByGpu.constFind(node.name + QLatin1Char('/') + QString::number(i));
            slot.utilization = util == utilByGpu.cend() ? -1.0 : *util;
            node.slots.append(slot);
        }
        const auto placed = jobsByNode.find(dto.name);
        if (placed != jobsByNode.end()) {
            for (const Job *job : placed->second) {
                node.allocated += job->gpusAllocated;
                ++node.runningJobs;
                QList<int> indices;
                for (const QString &part : job->gpuIndices.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                    bool ok = false;
                    const int index = part.toInt(&ok);
                    if (ok && index >= 0 && index < node.slots.size()) {
                        indices.append(index);
                    }
                }
                if (indices.isEmpty()) {
                    // No placement annotation: pack the way the scheduler would, first fit.
                    MilliGpu left = job->gpusAllocated;
                    for (GpuSlot &slot : node.slots) {
                        if (left <= 0) {
                            break;
                        }
                        const bool fraction = left < 1000;
                        if ((fraction && slot.used + left <= 1000) || (!fraction && slot.used == 0)) {
                            indices.append(slot.index);
                            left -= fraction ? left : 1000;
                        }
                    }
                }
                const bool fraction = job->gpusAllocated < 1000;
                for (int index : std::as_const(indices)) {
                    GpuSlot &slot = node.slots[index];
                    const MilliGpu share = fraction ? job->gpusAllocated : 1000;
                    slot.used = std::min<MilliGpu>(1000, slot.used + share);
                    slot.jobs.append(job->name + QLatin1Char(' ') + formatGpus(share));
                }
            }
        }
        double nodeUtil = 0;
        int nodeUtilCount = 0;
        for (const GpuSlot &slot : std::as_const(node.slots)) {
            if (slot.utilization >= 0) {
                nodeUtil += slot.utilization;
                ++nodeUtilCount;
            }
            if (slot.used > 0 && slot.utilization >= 0) {
                utilSum += slot.utilization;
                ++utilCount;
                if (slot.utilization < kIdleUtilizationPct) {
                    cluster.gpuIdleAllocated += slot.used;
                }
            }
        }
        node.utilization = nodeUtilCount ? nodeUtil / nodeUtilCount : -1.0;
        ++cluster.gpuNodeCount;
        if (node.ready) {
            cluster.gpuTotal += node.allocatable;
        }
        cluster.gpuAllocated += node.allocated;
        nodes.push_back(reuse(previous ? previous->nodes : nullptr, std::move(node)));
    }
    cluster.utilization = utilCount ? utilSum / utilCount : -1.0;

    // ---- Project aggregates ----
    for (const Ptr<Job> &job : jobs) {
        const auto it = projects.find(job->project);
        const bool holds = job->status == JobStatus::Running || job->status == JobStatus::ContainerCreating;
        const bool waits = job->status == JobStatus::Pending || job->status == JobStatus::Preempted;
        if (holds) {
            ++cluster.runningJobs;
        } else if (waits) {
            ++cluster.pendingJobs;
        }
        if (it == projects.end()) {
            continue;
        }
        ProjectAcc &acc = it->second;
        if (holds) {
            acc.project.allocated += job->gpusAllocated;
            ++acc.project.runningJobs;
            if (job->gpuUtilization >= 0) {
                acc.utilWeighted += job->gpuUtilization * static_cast<double>(job->gpusAllocated);
                acc.utilGpus += job->gpusAllocated;
                if (job->gpuUtilization < kIdleUtilizationPct) {
                    acc.project.idleAllocated += job->gpusAllocated;
                }
            }
        } else if (waits) {
            acc.project.pending += job->gpusRequested;
            ++acc.project.queuedJobs;
        }
    }
    QList<MilliGpu> quotas;
    QList<MilliGpu> demands;
    for (auto &[name, acc] : projects) {
        Project &p = acc.project;
        const MilliGpu quota = std::max<MilliGpu>(p.quota, 0);
        p.inQuota = std::min(p.allocated, quota);
        p.overQuota = std::max<MilliGpu>(0, p.allocated - quota);
        p.utilization = acc.utilGpus > 0 ? acc.utilWeighted / static_cast<double>(acc.utilGpus) : -1.0;
        quotas.append(quota);
        demands.append(p.allocated + p.pending);
        cluster.quotaTotal += quota;
    }
    const QList<MilliGpu> shares = fairShares(cluster.gpuTotal, quotas, demands);
    std::vector<Ptr<Project>> projectList;
    qsizetype index = 0;
    for (auto &[name, acc] : projects) {
        acc.project.fairShare = shares.value(index++);
        projectList.push_back(reuse(previous ? previous->projects : nullptr, std::move(acc.project)));
    }

    // ---- PVCs ----
    std::vector<Ptr<Pvc>> pvcs;
    for (const auto &[key, dto] : cache.pvcs) {
        Pvc pvc;
        pvc.source = source;
        pvc.namespaceName = qs(dto.namespace_);
        pvc.name = qs(dto.name);
        pvc.id = pvc.namespaceName + QLatin1Char('/') + pvc.name;
        pvc.phase = qs(dto.phase);
        pvc.storageClass = qs(dto.storageClass);
        pvc.capacityBytes = dto.capacityBytes > 0 ? dto.capacityBytes : dto.requestBytes;
        QStringList modes;
        for (const std::string &mode : dto.accessModes) {
            modes.append(mode == "ReadWriteMany"   ? QStringLiteral("RWX")
                         : mode == "ReadWriteOnce" ? QStringLiteral("RWO")
                         : mode == "ReadOnlyMany"  ? QStringLiteral("ROX")
                                                   : qs(mode));
        }
        pvc.accessModes = modes.join(QLatin1Char(','));
        pvc.pvName = qs(dto.volumeName);
        if (const auto pv = cache.pvs.find(dto.volumeName); pv != cache.pvs.end()) {
            const kubernetes::PvDto &v = pv->second;
            pvc.csiDriver = qs(v.csiDriver);
            pvc.volumeHandle = qs(v.volumeHandle);
            pvc.nfsServer = qs(v.nfsServer);
            pvc.nfsPath = qs(v.nfsPath);
            if (const auto internal = v.volumeAttributes.find("internalName"); internal != v.volumeAttributes.end()) {
                pvc.backendVolume = qs(internal->second);
            } else if (v.csiDriver == "csi.trident.netapp.io" && !v.volumeHandle.empty()) {
                // Trident's default internal name: its prefix plus the PV name with '-' -> '_'.
                pvc.backendVolume =
                    QStringLiteral("trident_") + qs(v.volumeHandle).replace(QLatin1Char('-'), QLatin1Char('_'));
            } else if (!v.nfsPath.empty()) {
                pvc.backendVolume = qs(v.nfsPath).section(QLatin1Char('/'), -1, -1, QString::SectionSkipEmpty);
            }
        }
        if (!pvc.backendVolume.isEmpty()) {
            const auto ref = storageByName.constFind(pvc.backendVolume);
            if (ref != storageByName.cend()) {
                pvc.storageSource = ref->source;
                pvc.storageVolumeId = ref->id;
            }
        }
        pvc.usedBy = jobsByClaim.value(pvc.id);
        pvcs.push_back(reuse(previous ? previous->pvcs : nullptr, std::move(pvc)));
    }

    ComputePublish out;
    out.clusters =
        keep(std::vector<Ptr<GpuCluster>>{reuse(previous ? previous->clusters : nullptr, std::move(cluster))});
    out.nodes = keep(std::move(nodes));
    out.projects = keep(std::move(projectList));
    out.jobs = keep(std::move(jobs));
    out.pvcs = keep(std::move(pvcs));
    return out;
}

} // namespace strata::core::kube
