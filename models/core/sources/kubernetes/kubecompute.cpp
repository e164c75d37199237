#include "models/core/sources/kubernetes/kubecompute.h"

#include "models/core/domain/convert.h"

#include <QTimeZone>

#include <algorithm>
#include <cmath>
#include <limits>
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
bool isFailingWaitReason(const QString &reason)
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
        return reason == QLatin1String(f);
    });
}

bool isFinishedPhase(const QString &phase)
{
    return phase == QLatin1String("Succeeded") || phase == QLatin1String("Failed");
}

bool isTerminal(const CachedPod &pod)
{
    return isFinishedPhase(pod.phase) || pod.terminating;
}

JobType jobTypeOf(const QString &priorityClass, const std::string &preemptibility)
{
    if (preemptibility == "non-preemptible") {
        return JobType::Interactive;
    }
    if (preemptibility == "preemptible") {
        return JobType::Train;
    }
    return (priorityClass == QLatin1String("build") || priorityClass == QLatin1String("interactive")
            || priorityClass == QLatin1String("inference"))
               ? JobType::Interactive
               : JobType::Train;
}

// The pod that represents a job now: a live one (bound first), else the newest.
const CachedPod *currentPod(const std::vector<const CachedPod *> &pods)
{
    const CachedPod *best = nullptr;
    auto rank = [](const CachedPod *p) {
        if (isTerminal(*p)) {
            return 0;
        }
        return p->nodeName.isEmpty() ? 1 : 2;
    };
    for (const CachedPod *p : pods) {
        // Ties go to the first name, so the choice never hangs on the order pods were listed.
        if (!best || rank(p) > rank(best)
            || (rank(p) == rank(best)
                && (p->created > best->created || (p->created == best->created && p->name < best->name)))) {
            best = p;
        }
    }
    return best;
}

std::string gpuIndexText(const std::vector<int> &indices)
{
    std::string text;
    for (int i : indices) {
        if (!text.empty()) {
            text += ',';
        }
        text += std::to_string(i);
    }
    return text;
}

// Mean utilization of the GPUs `indices` ("0,1") on `node`, -1 when none has a reading.
double slotUtilization(const QHash<QString, double> &utilByGpu, const QString &node, const QString &indices)
{
    if (utilByGpu.isEmpty() || indices.isEmpty()) {
        return -1.0; // no metrics: skip building a lookup key per GPU of every job
    }
    double sum = 0;
    int n = 0;
    for (const QString &index : indices.split(QLatin1Char(','))) {
        const auto it = utilByGpu.constFind(node + QLatin1Char('/') + index);
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

QString StringPool::intern(std::string_view text)
{
    if (text.empty()) {
        return {};
    }
    if (const auto it = m_strings.find(text); it != m_strings.end()) {
        return it->second;
    }
    QString value = QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
    if (m_strings.size() < kMaxEntries) {
        m_strings.emplace(std::string(text), value);
    }
    return value;
}

QStringList StringPool::internList(const std::vector<std::string> &first, const std::vector<std::string> &second)
{
    if (first.empty() && second.empty()) {
        return {};
    }
    // Each item ends with a NUL, so ["a b"] and ["a", "b"] have different keys.
    std::string key;
    for (const auto *list : {&first, &second}) {
        for (const std::string &item : *list) {
            key += item;
            key += '\0';
        }
    }
    if (const auto it = m_lists.find(key); it != m_lists.end()) {
        return it->second;
    }
    QStringList value = qsl(first) + qsl(second);
    if (m_lists.size() < kMaxEntries) {
        m_lists.emplace(std::move(key), value);
    }
    return value;
}

const CachedPodDetail &CachedPodDetail::none()
{
    static const CachedPodDetail empty;
    return empty;
}

const CachedPodDetail &CachedPod::details() const
{
    return detail ? *detail : CachedPodDetail::none();
}

bool CachedPod::operator==(const CachedPod &other) const
{
    return namespaceName == other.namespaceName && name == other.name && jobName == other.jobName
           && phase == other.phase && nodeName == other.nodeName && queue == other.queue && user == other.user
           && createdBy == other.createdBy && priorityClassName == other.priorityClassName && image == other.image
           && gpuIndices == other.gpuIndices && command == other.command && created == other.created
           && started == other.started && gpuLimitMilli == other.gpuLimitMilli && terminating == other.terminating
           && details() == other.details();
}

CachedPod cachePod(const kubernetes::PodDto &pod, StringPool &pool)
{
    CachedPod out;
    out.namespaceName = pool.intern(pod.namespace_);
    out.name = qs(pod.name);
    out.jobName = pod.jobName;
    out.phase = pool.intern(pod.phase);
    out.nodeName = pool.intern(pod.nodeName);
    out.queue = pool.intern(pod.queue);
    out.user = pool.intern(pod.user);
    out.createdBy = pool.intern(pod.createdBy);
    out.priorityClassName = pool.intern(pod.priorityClassName);
    out.image = pod.images.empty() ? QString() : pool.intern(pod.images.front());
    out.gpuIndices = pool.intern(gpuIndexText(pod.gpuIndices));
    out.command = pool.internList(pod.command, pod.args);
    out.created = parseTime(pod.creationTimestamp);
    out.started = parseTime(pod.startTime);
    out.gpuLimitMilli = pod.gpuLimitMilli;
    out.terminating = !pod.deletionTimestamp.empty();

    CachedPodDetail detail;
    if (const auto group = pod.annotations.find("pod-group-name"); group != pod.annotations.end()) {
        detail.podGroupName = group->second;
    }
    detail.pvcClaims = qsl(pod.pvcClaims);
    detail.pvcSubPaths = qsl(pod.pvcSubPaths);
    detail.waitingReason = pool.intern(pod.waitingReason);
    detail.waitingMessage = qs(pod.waitingMessage);
    detail.terminatedReason = pool.intern(pod.terminatedReason);
    detail.lastTerminatedReason = pool.intern(pod.lastTerminatedReason);
    detail.lastExitCode = pod.lastExitCode;
    if (pod.scheduledCondition.status == "False") {
        detail.notScheduled = true;
        detail.scheduledReason = pool.intern(pod.scheduledCondition.reason);
        detail.scheduledMessage = qs(pod.scheduledCondition.message);
    }
    if (!(detail == CachedPodDetail::none())) {
        out.detail = std::make_shared<const CachedPodDetail>(std::move(detail));
    }
    return out;
}

bool ClusterCache::putPod(const kubernetes::PodDto &pod)
{
    CachedPod cached = cachePod(pod, strings);
    auto [it, inserted] = pods.try_emplace(pod.key());
    if (!inserted && it->second == cached) {
        return false;
    }
    it->second = std::move(cached);
    return true;
}

bool ComputeBuilder::Order::operator<(const Order &other) const
{
    if (ms != other.ms) {
        return ms < other.ms;
    }
    if (*id != *other.id) {
        return *id < *other.id;
    }
    return key < other.key;
}

namespace {

constexpr const char *kDefaultQueue = "default-queue";

ComputeBuilder::Order orderOfJob(std::string_view key, const Job &job)
{
    ComputeBuilder::Order order;
    order.ms = job.created.isValid() ? job.created.toMSecsSinceEpoch() : std::numeric_limits<qint64>::min();
    order.id = &job.id;
    order.key = key;
    return order;
}

bool isStandalonePod(const CachedPod &pod)
{
    return pod.jobName.empty() && (pod.gpuLimitMilli > 0 || !pod.queue.isEmpty());
}

// The builder key of the job record a pod feeds: its Job's, its own when it is a bare GPU pod
// or queued, none otherwise.
std::string builderKeyOfPod(const std::string &podKey, const CachedPod &pod)
{
    if (!pod.jobName.empty()) {
        return "j:" + ss(pod.namespaceName) + "/" + pod.jobName;
    }
    return isStandalonePod(pod) ? "p:" + podKey : std::string();
}

// The PodGroup a record reads unless its pod names another: "ns/pg-<name>" for "j:ns/<name>"
// and "p:ns/<name>" (makeJob).
std::string ownGroupKey(const std::string &key)
{
    const std::size_t slash = key.find('/', 2);
    return slash == std::string::npos ? "/pg-" + key.substr(2)
                                      : key.substr(2, slash - 1) + "pg-" + key.substr(slash + 1);
}

// Every item of `next` is the previous list's item at the same place: nothing to publish.
template <class T> bool sameItems(const std::shared_ptr<const KeyedList<T>> &previous, const std::vector<Ptr<T>> &next)
{
    if (!previous || previous->size() != next.size()) {
        return false;
    }
    const auto &items = previous->items();
    for (std::size_t i = 0; i < next.size(); ++i) {
        if (items[i] != next[i]) {
            return false;
        }
    }
    return true;
}

// A PVC's record; `usedBy` names the jobs that mount it.
Pvc makePvcRecord(const QString &source,
                  const kubernetes::PvcDto &dto,
                  const ClusterCache &cache,
                  const QHash<QString, StorageVolumeRef> &storageByName,
                  QStringList usedBy)
{
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
    pvc.usedBy = std::move(usedBy);
    return pvc;
}

} // namespace

ComputeBuilder::ComputeBuilder(QString source)
    : m_source(std::move(source))
{}

void ComputeBuilder::resetInputs(const ClusterCache &cache)
{
    m_utilByGpu.clear();
    for (const prometheus::GpuMetrics &m : cache.gpuMetrics) {
        if (m.gpu >= 0 && !std::isnan(m.utilPct)) {
            m_utilByGpu.insert(qs(m.node) + QLatin1Char('/') + QString::number(m.gpu), m.utilPct);
        }
    }
    m_defaultQueueUsers.clear();
    for (const auto &[key, job] : cache.jobs) {
        if (job.queue == kDefaultQueue) {
            m_defaultQueueUsers.insert("j:" + key);
        }
    }
    m_podsOfJob.clear();
    m_jobOfPod.clear();
    for (const auto &[key, pod] : cache.pods) {
        attachPod(key, pod);
    }
    m_defaultQueueInUse = !m_defaultQueueUsers.empty();

    // ---- Projects known to the cluster ----
    // KAI queues with children are departments; the leaves are projects.
    m_projectBase.clear();
    m_projectByNamespace.clear();
    std::unordered_set<std::string> parents;
    for (const auto &[key, queue] : cache.queues) {
        if (!queue.parentQueue.empty()) {
            parents.insert(queue.parentQueue);
        }
    }
    if (cache.hasKai) {
        for (const auto &[key, queue] : cache.queues) {
            // Departments (queues with children) are not projects; KAI's built-in default queue
            // only counts while something runs in it.
            if (parents.count(queue.name) != 0
                || (queue.name == kDefaultQueue && queue.gpuQuotaMilli <= 0 && !m_defaultQueueInUse)) {
                continue;
            }
            Project project;
            project.source = m_source;
            project.id = project.name = qs(queue.name);
            project.origin = ProjectOrigin::KaiQueue;
            project.quota = queue.gpuQuotaMilli;
            project.limit = queue.gpuLimitMilli;
            project.overQuotaWeight = queue.overQuotaWeight;
            const QString ns = namespaceOfProject(project.name);
            if (cache.namespaces.count(ns.toStdString()) != 0) {
                project.namespaceName = ns;
                m_projectByNamespace.insert(ns, project.name);
            }
            m_projectBase.emplace(project.name, std::move(project));
        }
    } else {
        for (const auto &[key, quota] : cache.quotas) {
            if (quota.hardGpuMilli < 0) {
                continue;
            }
            const QString ns = qs(quota.namespace_);
            auto [it, inserted] = m_projectBase.try_emplace(ns);
            Project &project = it->second;
            if (inserted) {
                project.source = m_source;
                project.id = project.name = project.namespaceName = ns;
                project.origin = ProjectOrigin::NamespaceQuota;
                project.quota = 0;
            }
            project.quota += quota.hardGpuMilli;
            m_projectByNamespace.insert(ns, ns);
        }
    }
}

// Moves one changed pod between the jobs it feeds, marking the job it left and the one it joins.
void ComputeBuilder::trackPod(const ClusterCache &cache,
                              const std::string &podKey,
                              std::unordered_set<std::string> &dirty)
{
    if (const auto old = m_jobOfPod.find(podKey); old != m_jobOfPod.end()) {
        dirty.insert(old->second);
        if (old->second.rfind("j:", 0) == 0) {
            const auto pods = m_podsOfJob.find(old->second.substr(2));
            if (pods != m_podsOfJob.end()) {
                pods->second.erase(podKey);
                if (pods->second.empty()) {
                    m_podsOfJob.erase(pods);
                }
            }
        }
        m_jobOfPod.erase(old);
    }
    // A bare pod's record is keyed by the pod (not listed in m_jobOfPod).
    if (std::string own = "p:" + podKey; m_jobs.count(own) != 0) {
        dirty.insert(std::move(own));
    }
    m_defaultQueueUsers.erase("pod:" + podKey);
    const auto it = cache.pods.find(podKey);
    if (it == cache.pods.end()) {
        return;
    }
    if (std::string owner = attachPod(podKey, it->second); !owner.empty()) {
        dirty.insert(std::move(owner));
    }
}

// Joins a pod to the job record it feeds; that record's builder key, empty when none. Only a
// Job's pods are listed: a bare pod's record is "p:" + its key.
std::string ComputeBuilder::attachPod(const std::string &podKey, const CachedPod &pod)
{
    if (pod.queue == QLatin1String(kDefaultQueue) && pod.jobName.empty()) {
        m_defaultQueueUsers.insert("pod:" + podKey);
    }
    std::string owner = builderKeyOfPod(podKey, pod);
    if (!pod.jobName.empty()) {
        m_podsOfJob[owner.substr(2)].insert(podKey);
        m_jobOfPod.insert_or_assign(podKey, owner);
    }
    return owner;
}

Ptr<Job> ComputeBuilder::makeJob(const ClusterCache &cache, const std::string &key, std::string *groupKey) const
{
    const kubernetes::JobDto *jobDto = nullptr;
    const CachedPod *pod = nullptr;
    const std::string cacheKey = key.substr(2);
    if (key.rfind("j:", 0) == 0) {
        const auto it = cache.jobs.find(cacheKey);
        if (it == cache.jobs.end()) {
            return nullptr;
        }
        jobDto = &it->second;
        std::vector<const CachedPod *> pods;
        if (const auto owned = m_podsOfJob.find(cacheKey); owned != m_podsOfJob.end()) {
            for (const std::string &podKey : owned->second) {
                if (const auto p = cache.pods.find(podKey); p != cache.pods.end()) {
                    pods.push_back(&p->second);
                }
            }
        }
        pod = currentPod(pods);
    } else {
        const auto it = cache.pods.find(cacheKey);
        if (it == cache.pods.end() || !isStandalonePod(it->second)) {
            return nullptr;
        }
        pod = &it->second;
    }
    const CachedPodDetail &detail = pod ? pod->details() : CachedPodDetail::none();
    Job job;
    job.source = m_source;
    // A bare pod's texts are the cache's (interned or the pod's own): shared, not copied.
    job.name = jobDto ? qs(jobDto->name) : pod->name;
    job.namespaceName = jobDto ? qs(jobDto->namespace_) : pod->namespaceName;
    job.id = job.namespaceName + QLatin1Char('/') + job.name;
    const QString queue = jobDto && !jobDto->queue.empty() ? qs(jobDto->queue) : pod ? pod->queue : QString();
    if (!queue.isEmpty()) {
        job.project = queue;
    } else {
        const QString byNs = m_projectByNamespace.value(job.namespaceName);
        job.project = byNs.isEmpty() ? projectOfNamespace(job.namespaceName) : byNs;
    }
    job.user = jobDto ? qs(jobDto->user) : pod->user;
    if (job.user.isEmpty() && pod) {
        job.user = pod->user;
    }
    job.createdBy = jobDto ? qs(jobDto->createdBy) : pod->createdBy;
    job.createdByCli = job.createdBy == QLatin1String("cli");
    if (jobDto) {
        job.image = qs(jobDto->image);
        job.command = qsl(jobDto->command) + qsl(jobDto->args);
        job.pvcs = qsl(jobDto->pvcClaims);
        job.pvcSubPaths = qsl(jobDto->pvcSubPaths);
    } else {
        job.image = pod->image;
        job.command = pod->command;
        job.pvcs = detail.pvcClaims;
        job.pvcSubPaths = detail.pvcSubPaths;
    }
    job.gpusRequested = jobDto ? jobDto->gpuMilli : pod->gpuLimitMilli;
    if (job.gpusRequested == 0 && pod) {
        job.gpusRequested = pod->gpuLimitMilli;
    }
    job.created = jobDto ? parseTime(jobDto->creationTimestamp) : pod->created;

    const kubernetes::PodGroupDto *group = nullptr;
    const std::string ns = jobDto ? jobDto->namespace_ : ss(pod->namespaceName);
    if (pod && detail.podGroupName) {
        *groupKey = ns + "/" + *detail.podGroupName;
    } else {
        *groupKey = ns + "/pg-" + (jobDto ? jobDto->name : ss(pod->name));
    }
    if (const auto it = cache.podGroups.find(*groupKey); it != cache.podGroups.end()) {
        group = &it->second;
    }
    const QString priorityClass = jobDto ? qs(jobDto->priorityClassName) : pod->priorityClassName;
    job.type = jobTypeOf(priorityClass, group ? group->preemptibility : std::string());

    const bool live = pod && !isTerminal(*pod);
    if (jobDto && jobDto->complete) {
        job.status = JobStatus::Succeeded;
        job.finished = parseTime(jobDto->completionTime);
    } else if (jobDto && jobDto->failedCondition) {
        job.status = JobStatus::Failed;
        job.finished = parseTime(jobDto->completionTime);
    } else if (!jobDto && pod && isFinishedPhase(pod->phase)) {
        job.status = pod->phase == QLatin1String("Succeeded") ? JobStatus::Succeeded : JobStatus::Failed;
    } else if (live && pod->phase == QLatin1String("Running")) {
        job.status = JobStatus::Running;
    } else if (live && !pod->nodeName.isEmpty()) {
        job.status = JobStatus::ContainerCreating;
    } else {
        job.status = group && group->evicted ? JobStatus::Preempted : JobStatus::Pending;
    }

    if (live && !pod->nodeName.isEmpty()) {
        job.node = pod->nodeName;
        job.gpusAllocated = pod->gpuLimitMilli > 0 ? pod->gpuLimitMilli : job.gpusRequested;
        job.gpuIndices = pod->gpuIndices;
        job.podName = pod->name;
        if (job.status == JobStatus::Running) {
            job.started = pod->started;
        }
        job.gpuUtilization = slotUtilization(m_utilByGpu, job.node, pod->gpuIndices);
        if (job.gpuUtilization < 0 && !cache.gpuMetrics.empty()) {
            const std::string podName = ss(pod->name);
            for (const prometheus::GpuMetrics &m : cache.gpuMetrics) {
                if (m.pod == podName && m.namespace_ == ns && !std::isnan(m.utilPct)) {
                    job.gpuUtilization = m.utilPct;
                    break;
                }
            }
        }
        // What the container died of before its restart (the Kubernetes docs' OOM example:
        // lastState.terminated.reason OOMKilled, exitCode 137) explains a CrashLoopBackOff.
        const QString lastExit =
            detail.lastTerminatedReason.isEmpty()
                ? QString()
                : (detail.lastExitCode >= 0 ? QStringLiteral(" (last exit: %1, code %2)")
                                                  .arg(detail.lastTerminatedReason)
                                                  .arg(detail.lastExitCode)
                                            : QStringLiteral(" (last exit: %1)").arg(detail.lastTerminatedReason));
        if (!detail.waitingReason.isEmpty() && detail.waitingReason != QLatin1String("ContainerCreating")) {
            job.pendingReason = QStringLiteral("%1: %2").arg(detail.waitingReason, detail.waitingMessage) + lastExit;
            if (isFailingWaitReason(detail.waitingReason)) {
                job.failureReason = detail.waitingReason;
            }
        } else if (!detail.terminatedReason.isEmpty() && !isFinishedPhase(pod->phase)) {
            // Killed and about to restart: kubectl's STATUS shows the reason ("OOMKilled").
            job.failureReason = detail.terminatedReason;
            job.pendingReason = detail.terminatedReason + lastExit;
        }
    } else if (pod) {
        job.podName = pod->name;
    }

    if (job.status == JobStatus::Pending || job.status == JobStatus::Preempted) {
        if (group && job.status == JobStatus::Preempted && !group->evictedMessage.empty()
            && group->pendingMessage.empty()) {
            job.pendingReason = qs(group->evictedMessage);
        } else if (group && !group->pendingMessage.empty()) {
            job.pendingReason = qs(group->pendingMessage);
        } else if (pod && detail.notScheduled) {
            job.pendingReason = detail.scheduledMessage.isEmpty() ? detail.scheduledReason : detail.scheduledMessage;
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
        if (job.pendingReason.isEmpty() && pod && !detail.waitingReason.isEmpty()) {
            job.pendingReason = detail.waitingReason;
        }
    }
    return std::make_shared<const Job>(std::move(job));
}

void ComputeBuilder::index(const std::string &key, const Ptr<Job> &job, bool sorted)
{
    const auto record = m_jobs.insert_or_assign(key, job).first;
    const Placed placed{orderOfJob(record->first, *job), job};
    // A full update adds in published order: each insert at the end is then O(1).
    auto add = [&placed, sorted](auto &set) {
        if (sorted) {
            set.emplace_hint(set.end(), placed);
        } else {
            set.insert(placed);
        }
    };
    add(m_order);
    if (holdsGpus(*job)) {
        ++m_running;
    } else if (waitsForGpus(*job)) {
        ++m_waiting;
    }
    if (!job->node.isEmpty() && job->gpusAllocated > 0) {
        add(m_placedOnNode[job->node.toStdString()]);
    }
    add(m_jobsOfProject[job->project]);
    for (const QString &claim : std::as_const(job->pvcs)) {
        add(m_jobsOfClaim[job->namespaceName + QLatin1Char('/') + claim]);
    }
}

void ComputeBuilder::unindex(const std::string &key, const Ptr<Job> &job)
{
    const auto record = m_jobs.find(key);
    if (record == m_jobs.end()) {
        return;
    }
    const Placed placed{orderOfJob(record->first, *job), job};
    m_order.erase(placed);
    if (holdsGpus(*job)) {
        --m_running;
    } else if (waitsForGpus(*job)) {
        --m_waiting;
    }
    if (!job->node.isEmpty() && job->gpusAllocated > 0) {
        const auto it = m_placedOnNode.find(job->node.toStdString());
        if (it != m_placedOnNode.end()) {
            it->second.erase(placed);
            if (it->second.empty()) {
                m_placedOnNode.erase(it);
            }
        }
    }
    if (const auto it = m_jobsOfProject.find(job->project); it != m_jobsOfProject.end()) {
        it->second.erase(placed);
        if (it->second.empty()) {
            m_jobsOfProject.erase(it);
        }
    }
    for (const QString &claim : std::as_const(job->pvcs)) {
        const auto it = m_jobsOfClaim.find(job->namespaceName + QLatin1Char('/') + claim);
        if (it != m_jobsOfClaim.end()) {
            it->second.erase(placed);
            if (it->second.empty()) {
                m_jobsOfClaim.erase(it);
            }
        }
    }
    m_jobs.erase(record); // last: `placed` views its key
}

GpuNode ComputeBuilder::makeNode(const kubernetes::NodeDto &dto) const
{
    GpuNode node;
    node.source = m_source;
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
        const auto util = m_utilByGpu.constFind(node.name + QLatin1Char('/') + QString::number(i));
        slot.utilization = util == m_utilByGpu.cend() ? -1.0 : *util;
        node.slots.append(slot);
    }
    if (const auto placed = m_placedOnNode.find(dto.name); placed != m_placedOnNode.end()) {
        for (const Placed &entry : placed->second) {
            const Job *job = entry.job.get();
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
    }
    node.utilization = nodeUtilCount ? nodeUtil / nodeUtilCount : -1.0;
    return node;
}

// A project's aggregates over its jobs, in the published job order (so the utilization sum
// adds up in the same order whichever jobs changed).
Project ComputeBuilder::makeProjectAggregate(const Project &base) const
{
    Project p = base;
    double utilWeighted = 0;
    MilliGpu utilGpus = 0;
    if (const auto it = m_jobsOfProject.find(base.name); it != m_jobsOfProject.end()) {
        for (const Placed &entry : it->second) {
            const Job &job = *entry.job;
            if (holdsGpus(job)) {
                p.allocated += job.gpusAllocated;
                ++p.runningJobs;
                if (job.gpuUtilization >= 0) {
                    utilWeighted += job.gpuUtilization * static_cast<double>(job.gpusAllocated);
                    utilGpus += job.gpusAllocated;
                    if (job.gpuUtilization < kIdleUtilizationPct) {
                        p.idleAllocated += job.gpusAllocated;
                    }
                }
            } else if (waitsForGpus(job)) {
                p.pending += job.gpusRequested;
                ++p.queuedJobs;
            }
        }
    }
    const MilliGpu quota = std::max<MilliGpu>(p.quota, 0);
    p.inQuota = std::min(p.allocated, quota);
    p.overQuota = std::max<MilliGpu>(0, p.allocated - quota);
    p.utilization = utilGpus > 0 ? utilWeighted / static_cast<double>(utilGpus) : -1.0;
    return p;
}

ComputePublish ComputeBuilder::update(const ClusterCache &cache,
                                      const CacheChanges &changes,
                                      const QHash<QString, StorageVolumeRef> &storageByName,
                                      bool storageChanged)
{
    bool full = m_first || changes.all;
    std::unordered_set<std::string> dirty;
    if (!full) {
        for (const std::string &podKey : changes.pods) {
            trackPod(cache, podKey, dirty);
        }
        for (const std::string &jobKey : changes.jobs) {
            m_defaultQueueUsers.erase("j:" + jobKey);
            if (const auto it = cache.jobs.find(jobKey); it != cache.jobs.end() && it->second.queue == kDefaultQueue) {
                m_defaultQueueUsers.insert("j:" + jobKey);
            }
            dirty.insert("j:" + jobKey);
        }
        for (const std::string &groupKey : changes.podGroups) {
            if (const auto it = m_jobsOfGroup.find(groupKey); it != m_jobsOfGroup.end()) {
                dirty.insert(it->second.begin(), it->second.end());
            }
            // A record's own group ("ns/pg-<name>") is not listed: the record is "j:ns/<name>" or
            // "p:ns/<name>".
            const std::size_t slash = groupKey.find('/');
            if (slash != std::string::npos && groupKey.compare(slash + 1, 3, "pg-") == 0) {
                const std::string owner = groupKey.substr(0, slash + 1) + groupKey.substr(slash + 4);
                for (const char *prefix : {"j:", "p:"}) {
                    if (std::string key = prefix + owner; m_jobs.count(key) != 0) {
                        dirty.insert(std::move(key));
                    }
                }
            }
        }
        for (const std::string &pvcKey : changes.pvcs) {
            if (const auto it = m_jobsOfClaim.find(qs(pvcKey)); it != m_jobsOfClaim.end()) {
                for (const Placed &entry : it->second) {
                    dirty.emplace(entry.order.key);
                }
            }
        }
        // KAI's default queue is a project only while something runs in it.
        full = m_defaultQueueUsers.empty() == m_defaultQueueInUse;
    }
    std::unordered_map<std::string, Ptr<Job>> previous;
    if (full) {
        resetInputs(cache);
        previous = std::move(m_jobs);
        m_jobs.clear();
        m_order.clear();
        m_placedOnNode.clear();
        m_jobsOfProject.clear();
        m_jobsOfClaim.clear();
        m_groupOfJob.clear();
        m_jobsOfGroup.clear();
        m_running = m_waiting = 0;
        dirty.clear();
        for (const auto &[key, job] : previous) {
            dirty.insert(key);
        }
        for (const auto &[key, job] : cache.jobs) {
            dirty.insert("j:" + key);
        }
        for (const auto &[key, pod] : cache.pods) {
            if (isStandalonePod(pod)) {
                dirty.insert("p:" + key);
            }
        }
    }

    // ---- Jobs: only the dirty ones ----
    std::vector<Placed> added;
    std::vector<Placed> changed;
    QStringList removed;
    std::unordered_set<std::string> dirtyNodes = changes.nodes;
    std::set<QString> dirtyProjects;
    bool claimsMoved = false;
    m_lastRebuilt = dirty.size();
    std::vector<std::pair<const std::string *, Ptr<Job>>> fresh; // a full update's records
    for (const std::string &key : dirty) {
        Ptr<Job> old;
        if (full) {
            if (const auto it = previous.find(key); it != previous.end()) {
                old = it->second;
            }
        } else if (const auto it = m_jobs.find(key); it != m_jobs.end()) {
            old = it->second;
        }
        std::string group;
        Ptr<Job> next = makeJob(cache, key, &group);
        if (const auto it = m_groupOfJob.find(key); it != m_groupOfJob.end()) {
            if (const auto members = m_jobsOfGroup.find(it->second); members != m_jobsOfGroup.end()) {
                members->second.erase(key);
                if (members->second.empty()) {
                    m_jobsOfGroup.erase(members);
                }
            }
            m_groupOfJob.erase(it);
        }
        if (next && group != ownGroupKey(key)) {
            m_jobsOfGroup[group].insert(key);
            m_groupOfJob.emplace(key, std::move(group));
        }
        if (next && old && *next == *old) {
            next = old;
        }
        if (!full && next == old) {
            continue; // a change no field of the record shows
        }
        if (!full && old) {
            unindex(key, old);
        }
        if (next && full) {
            fresh.emplace_back(&key, next);
        } else if (next) {
            index(key, next, false);
        }
        if (next == old) {
            continue;
        }
        for (const Ptr<Job> &job : {old, next}) {
            if (job) {
                if (!job->node.isEmpty()) {
                    dirtyNodes.insert(job->node.toStdString());
                }
                dirtyProjects.insert(job->project);
                claimsMoved |= !job->pvcs.isEmpty();
            }
        }
        if (!next) {
            removed.append(estateKey(*old));
        } else if (!old) {
            added.push_back(Placed{orderOfJob(key, *next), next});
        } else {
            changed.push_back(Placed{orderOfJob(key, *next), next});
        }
    }
    if (full) {
        // Indexed in published order, so every set grows at its end.
        std::vector<std::pair<Order, std::size_t>> order;
        order.reserve(fresh.size());
        for (std::size_t i = 0; i < fresh.size(); ++i) {
            order.emplace_back(orderOfJob(*fresh[i].first, *fresh[i].second), i);
        }
        std::sort(order.begin(), order.end(), [](const auto &a, const auto &b) {
            return a.first < b.first;
        });
        for (const auto &[o, i] : order) {
            index(*fresh[i].first, fresh[i].second, true);
        }
        for (const auto &[name, project] : m_projectBase) {
            dirtyProjects.insert(name);
        }
    }

    ComputePublish out;
    const bool jobsMoved = m_first || !added.empty() || !changed.empty() || !removed.isEmpty();
    if (jobsMoved) {
        std::vector<Ptr<Job>> jobs;
        jobs.reserve(m_order.size());
        for (const Placed &entry : m_order) {
            jobs.push_back(entry.job);
        }
        out.jobs = keep(std::move(jobs));
        if (!m_first) {
            auto diff = std::make_shared<JobDiff>();
            std::sort(added.begin(), added.end());
            std::sort(changed.begin(), changed.end());
            for (const Placed &entry : added) {
                diff->added.push_back(entry.job);
            }
            for (const Placed &entry : changed) {
                diff->changed.push_back(entry.job);
            }
            diff->removed = std::move(removed);
            out.jobsBase = m_current.jobs;
            out.jobsDiff = std::move(diff);
        }
        m_current.jobs = out.jobs;
    }

    // ---- Nodes and GPU packing: the nodes whose jobs or object moved ----
    bool nodesMoved = m_first;
    if (full) {
        m_nodes.clear();
        nodesMoved = true;
        for (const auto &[key, dto] : cache.nodes) {
            dirtyNodes.insert(dto.name);
        }
    }
    for (const std::string &name : dirtyNodes) {
        const auto dto = cache.nodes.find(name);
        const auto old = m_nodes.find(name);
        if (dto == cache.nodes.end() || dto->second.gpuCapacityMilli <= 0) {
            if (old != m_nodes.end()) {
                m_nodes.erase(old);
                nodesMoved = true;
            }
            continue;
        }
        GpuNode node = makeNode(dto->second);
        if (old != m_nodes.end() && *old->second == node) {
            continue;
        }
        const Ptr<GpuNode> previousNode = full && m_current.nodes ? m_current.nodes->find(estateKey(node)) : nullptr;
        m_nodes[name] =
            previousNode && *previousNode == node ? previousNode : std::make_shared<const GpuNode>(std::move(node));
        nodesMoved = true;
    }
    if (nodesMoved) {
        std::vector<Ptr<GpuNode>> nodes;
        nodes.reserve(m_nodes.size());
        for (const auto &[name, node] : m_nodes) {
            nodes.push_back(node);
        }
        if (m_first || !sameItems(m_current.nodes, nodes)) {
            out.nodes = keep(std::move(nodes));
            m_current.nodes = out.nodes;
        }
    }

    // ---- Project aggregates: the projects whose jobs moved ----
    for (const QString &name : dirtyProjects) {
        if (const auto base = m_projectBase.find(name); base != m_projectBase.end()) {
            m_projectAggregates[name] = makeProjectAggregate(base->second);
        } else {
            m_projectAggregates.erase(name);
        }
    }
    if (full) {
        for (auto it = m_projectAggregates.begin(); it != m_projectAggregates.end();) {
            it = m_projectBase.count(it->first) ? std::next(it) : m_projectAggregates.erase(it);
        }
    }
    MilliGpu quotaTotal = 0;
    for (const auto &[name, project] : m_projectAggregates) {
        quotaTotal += std::max<MilliGpu>(project.quota, 0);
    }

    // ---- The cluster, from the node records ----
    GpuCluster cluster;
    cluster.source = cluster.id = cluster.name = m_source;
    cluster.version = qs(cache.version);
    cluster.hasKai = cache.hasKai;
    cluster.metricsAvailable = cache.metricsAvailable;
    cluster.nodeCount = static_cast<int>(cache.nodes.size());
    double utilSum = 0;
    int utilCount = 0;
    for (const auto &[name, node] : m_nodes) {
        for (const GpuSlot &slot : node->slots) {
            if (slot.used > 0 && slot.utilization >= 0) {
                utilSum += slot.utilization;
                ++utilCount;
                if (slot.utilization < kIdleUtilizationPct) {
                    cluster.gpuIdleAllocated += slot.used;
                }
            }
        }
        ++cluster.gpuNodeCount;
        if (node->ready) {
            cluster.gpuTotal += node->allocatable;
        }
        cluster.gpuAllocated += node->allocated;
    }
    cluster.utilization = utilCount ? utilSum / utilCount : -1.0;
    cluster.runningJobs = m_running;
    cluster.pendingJobs = m_waiting;
    cluster.quotaTotal = quotaTotal;
    const Ptr<GpuCluster> oldCluster =
        m_current.clusters && m_current.clusters->size() == 1 ? m_current.clusters->items().front() : nullptr;
    if (m_first || !oldCluster || !(*oldCluster == cluster)) {
        out.clusters = keep(std::vector<Ptr<GpuCluster>>{std::make_shared<const GpuCluster>(std::move(cluster))});
        m_current.clusters = out.clusters;
    }

    // Fair shares hang on the cluster's capacity and every project's demand: recomputed over the
    // projects (few) when any of them or the capacity moved.
    const MilliGpu gpuTotal = m_current.clusters->items().front()->gpuTotal;
    if (m_first || !dirtyProjects.empty() || out.clusters) {
        QList<MilliGpu> quotas;
        QList<MilliGpu> demands;
        for (const auto &[name, p] : m_projectAggregates) {
            quotas.append(std::max<MilliGpu>(p.quota, 0));
            demands.append(p.allocated + p.pending);
        }
        const QList<MilliGpu> shares = fairShares(gpuTotal, quotas, demands);
        std::vector<Ptr<Project>> projects;
        qsizetype index = 0;
        for (const auto &[name, aggregate] : m_projectAggregates) {
            Project project = aggregate;
            project.fairShare = shares.value(index++);
            projects.push_back(reuse(m_current.projects, std::move(project)));
        }
        if (m_first || !sameItems(m_current.projects, projects)) {
            out.projects = keep(std::move(projects));
            m_current.projects = out.projects;
        }
    }

    // ---- PVCs (few): rebuilt when a claim, a volume or a job mounting one moved ----
    if (m_first || full || storageChanged || claimsMoved || changes.pvs || !changes.pvcs.empty()) {
        std::vector<Ptr<Pvc>> pvcs;
        for (const auto &[key, dto] : cache.pvcs) {
            QStringList usedBy;
            if (const auto users = m_jobsOfClaim.find(qs(key)); users != m_jobsOfClaim.end()) {
                for (const Placed &entry : users->second) {
                    usedBy.append(entry.job->name);
                }
            }
            pvcs.push_back(
                reuse(m_current.pvcs, makePvcRecord(m_source, dto, cache, storageByName, std::move(usedBy))));
        }
        if (m_first || !sameItems(m_current.pvcs, pvcs)) {
            out.pvcs = keep(std::move(pvcs));
            m_current.pvcs = out.pvcs;
        }
    }
    m_first = false;
    return out;
}

ComputePublish build(const QString &source,
                     const ClusterCache &cache,
                     const QHash<QString, StorageVolumeRef> &storageByName,
                     const QDateTime &now)
{
    Q_UNUSED(now)
    ComputeBuilder builder(source);
    return builder.update(cache, CacheChanges{}, storageByName, true);
}

} // namespace strata::core::kube
