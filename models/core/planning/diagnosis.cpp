#include "models/core/planning/diagnosis.h"

#include "models/core/domain/estate.h"
#include "models/core/domain/translate.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QPointer>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace strata::core {

namespace {

QString diagnosisNumber(double value)
{
    return QString::number(value, 'f', 1);
}

// Throughput the model holds in MB/s (10^6 B/s, its JSON fields), in Strata's units (format.h).
QString diagnosisRate(double megabytesPerSecond)
{
    return formatRate(megabytesPerSecond * 1e6);
}

Ptr<Job> findJob(const Estate &estate, const QString &source, const QString &jobId)
{
    return estate.jobs().find(source, source + QLatin1Char('/') + jobId);
}

bool isWaiting(JobStatus status)
{
    return status == JobStatus::Pending || status == JobStatus::Preempted || status == JobStatus::ContainerCreating;
}

JobDiagnosis baseOf(const QString &source, const QString &jobId, const Job *job)
{
    JobDiagnosis d;
    d.source = source;
    d.jobId = jobId;
    if (job) {
        d.jobName = job->name;
        d.project = job->project;
        d.status = job->status;
        d.type = job->type;
        d.gpus = job->gpusAllocated > 0 ? job->gpusAllocated : job->gpusRequested;
        d.gpuUtilization = job->gpuUtilization;
    }
    return d;
}

JobDiagnosis unknownJob(const QString &source, const QString &jobId)
{
    JobDiagnosis d = baseOf(source, jobId, nullptr);
    d.verdict = Verdict::UnknownJob;
    d.headline = tr("No job %1 in source %2.").arg(jobId, source);
    return d;
}

JobDiagnosis notPending(const QString &source, const QString &jobId, const Job &job)
{
    JobDiagnosis d = baseOf(source, jobId, &job);
    d.verdict = Verdict::NotPending;
    d.headline = tr("Job %1 is not pending: it is %2.").arg(job.name, jobStatusName(job.status));
    return d;
}

/// Largest number of GPUs one node can give a job right now, in milli-GPUs: whole free GPUs, or
/// for a fractional request the largest free part of one GPU.
struct FreeBlock
{
    MilliGpu milli = 0;
    QString node;
};

FreeBlock freeBlockOf(const GpuNode &node, MilliGpu request)
{
    if (!node.ready || !node.schedulable) {
        return {};
    }
    FreeBlock block{0, node.name};
    if (node.slots.isEmpty()) {
        const MilliGpu free = std::max<MilliGpu>(0, node.allocatable - node.allocated);
        block.milli = request < 1000 ? std::min<MilliGpu>(free, 1000) : free / 1000 * 1000;
        return block;
    }
    if (request < 1000) {
        for (const GpuSlot &slot : node.slots) {
            block.milli = std::max<MilliGpu>(block.milli, 1000 - slot.used);
        }
    } else {
        for (const GpuSlot &slot : node.slots) {
            block.milli += slot.used == 0 ? 1000 : 0;
        }
    }
    return block;
}

void addStorageFindings(const Estate &estate, const Job &job, QList<DiagnosisFinding> &findings)
{
    const auto pvcs = estate.pvcs().scope(job.source);
    QStringList boundClasses;
    if (pvcs) {
        for (const Ptr<Pvc> &pvc : pvcs->items()) {
            if (pvc->phase == QLatin1String("Bound") && !pvc->storageClass.isEmpty()
                && !boundClasses.contains(pvc->storageClass)) {
                boundClasses.append(pvc->storageClass);
            }
        }
    }
    for (const QString &claim : job.pvcs) {
        const QString id = job.namespaceName + QLatin1Char('/') + claim;
        const Ptr<Pvc> pvc = pvcs ? pvcs->find(job.source + QLatin1Char('/') + id) : nullptr;
        DiagnosisFinding f;
        f.rule = QStringLiteral("pvc_unbound");
        f.actionKind = QStringLiteral("bind_pvc");
        f.actionTarget = id;
        if (!pvc) {
            f.summary = tr("The job mounts PVC %1, which does not exist.").arg(id);
            f.action = tr("Create PVC %1, or remove the mount from the job.").arg(id);
        } else if (pvc->phase != QLatin1String("Bound")) {
            const QString phase = pvc->phase.isEmpty() ? QStringLiteral("Pending") : pvc->phase;
            if (pvc->storageClass.isEmpty()) {
                f.summary = tr("PVC %1 is %2: it names no storage class and no volume.").arg(id, phase);
                f.action = tr("Bind PVC %1: give it a storage class or create a PersistentVolume for it.").arg(id);
            } else if (!boundClasses.contains(pvc->storageClass)) {
                f.summary = tr("PVC %1 is %2: no claim of storage class %3 was ever bound here, so nothing provisions "
                               "it.")
                                .arg(id, phase, pvc->storageClass);
                f.action = boundClasses.isEmpty()
                               ? tr("Bind PVC %1: its storage class %2 has no provisioner.").arg(id, pvc->storageClass)
                               : tr("Bind PVC %1: its storage class %2 has no provisioner; use %3 instead.")
                                     .arg(id, pvc->storageClass, boundClasses.join(QStringLiteral(", ")));
            } else {
                f.summary = tr("PVC %1 is %2 (storage class %3).").arg(id, phase, pvc->storageClass);
                f.action = tr("Bind PVC %1: check its provisioner's events for errors.").arg(id);
            }
        } else {
            continue;
        }
        findings.append(f);
    }
}

void addImageFinding(const Estate &estate, const Job &job, QList<DiagnosisFinding> &findings)
{
    const bool reasonSays = job.pendingReason.contains(QLatin1String("ErrImagePull"))
                            || job.pendingReason.contains(QLatin1String("ImagePullBackOff"));
    QString message;
    bool eventSays = false;
    bool haveDetail = false;
    if (!job.podName.isEmpty()) {
        const QString object = QStringLiteral("Pod %1/%2").arg(job.namespaceName, job.podName);
        if (const auto events = estate.events().scope(job.source)) {
            QDateTime newest;
            for (const Ptr<Event> &e : events->items()) {
                if (e->object != object) {
                    continue;
                }
                const bool pull = e->name == QLatin1String("ErrImagePull")
                                  || e->name == QLatin1String("ImagePullBackOff")
                                  || ((e->name == QLatin1String("Failed") || e->name == QLatin1String("BackOff"))
                                      && e->message.contains(QLatin1String("pull"), Qt::CaseInsensitive));
                if (pull) {
                    eventSays = true;
                    // The kubelet's "Failed to pull image ...: <registry error>" says why; the
                    // later back-off events only repeat that it failed.
                    const bool detailed = e->message.startsWith(QLatin1String("Failed to pull image"));
                    if (detailed || (!haveDetail && (!newest.isValid() || e->time > newest))) {
                        if (!detailed || !haveDetail || e->time > newest) {
                            newest = e->time;
                            message = e->message;
                        }
                        haveDetail = haveDetail || detailed;
                    }
                }
            }
        }
    }
    if (!reasonSays && !eventSays) {
        return;
    }
    DiagnosisFinding f;
    f.rule = QStringLiteral("image_pull");
    f.summary = message.isEmpty() ? tr("Image %1 cannot be pulled (%2).").arg(job.image, job.pendingReason)
                                  : tr("Image %1 cannot be pulled: %2").arg(job.image, message);
    if (job.gpusAllocated > 0 && !job.node.isEmpty()) {
        f.summary +=
            QLatin1Char(' ') + tr("Its pod holds %1 GPU on %2 meanwhile.").arg(formatGpus(job.gpusAllocated), job.node);
    }
    f.action = tr("Fix the image name or tag, or give the node access to the registry (imagePullSecrets).");
    f.actionKind = QStringLiteral("fix_image");
    f.actionTarget = job.image;
    findings.append(f);
}

} // namespace

QString verdictName(Verdict verdict)
{
    switch (verdict) {
    case Verdict::UnknownJob:
        return QStringLiteral("unknown_job");
    case Verdict::Pending:
        return QStringLiteral("pending");
    case Verdict::NotPending:
        return QStringLiteral("not_pending");
    case Verdict::DataBound:
        return QStringLiteral("data_bound");
    case Verdict::ComputeBound:
        return QStringLiteral("compute_bound");
    case Verdict::IdleSession:
        return QStringLiteral("idle_session");
    case Verdict::LowUtilization:
        return QStringLiteral("low_utilization");
    case Verdict::UtilizationUnknown:
        return QStringLiteral("utilization_unknown");
    case Verdict::Incomplete:
        return QStringLiteral("incomplete");
    }
    return QStringLiteral("unknown_job");
}

MilliGpu nonPreemptibleAllocated(const Estate &estate, const QString &source, const QString &project)
{
    MilliGpu held = 0;
    if (const auto jobs = estate.jobs().scope(source)) {
        for (const Ptr<Job> &j : jobs->items()) {
            if (j->project == project && j->type == JobType::Interactive) {
                held += j->gpusAllocated;
            }
        }
    }
    return held;
}

JobDiagnosis diagnosePending(const Estate &estate, const QString &source, const QString &jobId)
{
    const Ptr<Job> found = findJob(estate, source, jobId);
    if (!found) {
        return unknownJob(source, jobId);
    }
    const Job &job = *found;
    if (!isWaiting(job.status)) {
        return notPending(source, jobId, job);
    }
    JobDiagnosis d = baseOf(source, jobId, &job);
    d.verdict = Verdict::Pending;
    d.gpus = job.gpusRequested;

    // A job whose pod cannot start (no volume, no image) stays put whatever the GPUs do, so these
    // come first.
    QList<DiagnosisFinding> blocking;
    addStorageFindings(estate, job, blocking);
    addImageFinding(estate, job, blocking);

    QList<DiagnosisFinding> gpuFindings;
    const MilliGpu request = job.gpusRequested;
    bool quotaDecisive = false;
    if (job.status != JobStatus::ContainerCreating && request > 0) {
        const Ptr<Project> project =
            job.project.isEmpty() ? nullptr : estate.projects().find(source, source + QLatin1Char('/') + job.project);
        // The rule that holds the project's jobs: SCHEDULING.md R1/R5 (train) and R8 (interactive:
        // only the project's non-preemptible GPUs count against its quota, as KAI checks it).
        if (project && project->quota >= 0) {
            const MilliGpu quota = project->quota;
            const bool interactive = job.type == JobType::Interactive;
            const MilliGpu held =
                interactive ? nonPreemptibleAllocated(estate, source, project->name) : project->allocated;
            const MilliGpu allowed = interactive ? quota : std::max(quota, project->fairShare);
            if (held + request > allowed) {
                DiagnosisFinding f;
                if (interactive) {
                    f.rule = QStringLiteral("quota");
                    f.summary = tr("Project %1's interactive jobs hold %2 of its %3 guaranteed GPUs; this interactive "
                                   "job asks for %4 more and interactive (non-preemptible) jobs must stay within the "
                                   "quota. Training jobs do not count against this limit.")
                                    .arg(project->name, formatGpus(held), formatGpus(quota), formatGpus(request));
                    const MilliGpu room = std::max<MilliGpu>(0, quota - held);
                    f.action = room > 0 ? tr("End another interactive session of %1, or lower the request to %2 GPU.")
                                              .arg(project->name, formatGpus(room))
                                        : tr("End another interactive session of %1, submit this one as a training "
                                             "(preemptible) job, or raise its quota.")
                                              .arg(project->name);
                    f.actionKind = room > 0 ? QStringLiteral("reduce_request") : QStringLiteral("wait");
                } else {
                    f.rule = QStringLiteral("fair_share");
                    f.summary = tr("Project %1 holds %2 of its %3 guaranteed GPUs and its fair share is %4; this job "
                                   "asks for %5 more.")
                                    .arg(project->name,
                                         formatGpus(project->allocated),
                                         formatGpus(quota),
                                         formatGpus(project->fairShare),
                                         formatGpus(request));
                    QStringList overQuota;
                    if (const auto projects = estate.projects().scope(source)) {
                        for (const Ptr<Project> &other : projects->items()) {
                            if (other->name != project->name
                                && other->allocated > std::max<MilliGpu>(0, other->quota)) {
                                overQuota << other->name;
                            }
                        }
                    }
                    f.action = overQuota.isEmpty()
                                   ? tr("Wait for %1's own running jobs to end; no other project runs over its quota.")
                                         .arg(project->name)
                                   : tr("Wait for the over-quota jobs of %1 to finish, or for %2's own running jobs "
                                        "to end.")
                                         .arg(overQuota.join(QStringLiteral(", ")), project->name);
                    f.actionKind = QStringLiteral("wait");
                }
                f.actionTarget = project->name;
                gpuFindings.append(f);
                quotaDecisive = true;
            }
        }

        FreeBlock best;
        MilliGpu freeTotal = 0;
        if (const auto nodes = estate.gpuNodes().scope(source)) {
            for (const Ptr<GpuNode> &node : nodes->items()) {
                const FreeBlock block = freeBlockOf(*node, request);
                if (block.milli > best.milli || (block.milli == best.milli && best.node.isEmpty())) {
                    best = block;
                }
                if (node->ready && node->schedulable) {
                    freeTotal += std::max<MilliGpu>(0, node->allocatable - node->allocated);
                }
            }
        }
        if (best.milli < request) {
            DiagnosisFinding f;
            f.rule = QStringLiteral("no_node_fits");
            if (best.milli <= 0) {
                f.summary =
                    tr("No node has %1 free GPU together: every schedulable GPU is taken.").arg(formatGpus(request));
            } else {
                f.summary = tr("No node has %1 free GPU together; the largest free block is %2 GPU on %3 (%4 free in "
                               "the cluster).")
                                .arg(formatGpus(request), formatGpus(best.milli), best.node, formatGpus(freeTotal));
            }
            if (best.milli > 0) {
                f.action =
                    tr("Lower its request to %1 GPU, or wait until jobs on one node end.").arg(formatGpus(best.milli));
                f.actionKind = QStringLiteral("reduce_request");
                f.actionTarget = formatGpus(best.milli);
            } else if (quotaDecisive) {
                f.action = tr("Wait until running jobs end.");
                f.actionKind = QStringLiteral("wait");
            } else {
                f.action =
                    tr("Wait for over-quota jobs of other projects to be preempted, or for running jobs to end.");
                f.actionKind = QStringLiteral("wait");
            }
            // Within its share, the node shape is what holds the job; over it, the share is.
            if (quotaDecisive) {
                gpuFindings.append(f);
            } else {
                gpuFindings.prepend(f);
            }
        }
    }

    d.findings = blocking + gpuFindings;
    if (d.findings.isEmpty() && !job.pendingReason.isEmpty()) {
        DiagnosisFinding f;
        f.rule = QStringLiteral("scheduler");
        f.summary = tr("The scheduler says: %1").arg(job.pendingReason);
        d.findings.append(f);
    }
    if (d.findings.isEmpty()) {
        d.headline = job.status == JobStatus::ContainerCreating
                         ? tr("Job %1 is starting on %2; nothing holds it.").arg(job.name, job.node)
                         : tr("Job %1 waits for %2 GPU, but no rule holds it now: it should be scheduled on the next "
                              "cycle.")
                               .arg(job.name, formatGpus(request));
        return d;
    }
    d.headline = tr("Job %1 is %2: %3").arg(job.name, jobStatusName(job.status), d.findings.front().summary);
    d.nextAction = d.findings.front().action;
    return d;
}

JobVolume jobVolume(const Estate &estate, const QString &source, const QString &jobId)
{
    const Ptr<Job> job = findJob(estate, source, jobId);
    if (!job) {
        return {};
    }
    for (const QString &claim : job->pvcs) {
        const Ptr<Pvc> pvc =
            estate.pvcs().find(source, source + QLatin1Char('/') + job->namespaceName + QLatin1Char('/') + claim);
        if (pvc && !pvc->storageSource.isEmpty() && !pvc->storageVolumeId.isEmpty()) {
            return {pvc->storageSource, pvc->storageVolumeId};
        }
    }
    return {};
}

JobDiagnosis diagnoseIdle(const Estate &estate,
                          const QString &source,
                          const QString &jobId,
                          const QDateTime &now,
                          const std::vector<VolumePerfSample> &samples)
{
    const Ptr<Job> found = findJob(estate, source, jobId);
    if (!found) {
        return unknownJob(source, jobId);
    }
    const Job &job = *found;
    if (job.status != JobStatus::Running) {
        return isWaiting(job.status) ? diagnosePending(estate, source, jobId) : notPending(source, jobId, job);
    }
    JobDiagnosis d = baseOf(source, jobId, &job);

    // Cached: it mounts a cache target's claim at a cached commit's directory, or a cache record
    // names it as a user.
    for (const Ptr<CachedCommit> &c : estate.cachedCommits().all()) {
        if (c->source != source || c->state != CacheState::Ready) {
            continue;
        }
        bool uses = c->usedBy.contains(jobId);
        const Ptr<CacheTarget> target = estate.cacheTargets().find(source, source + QLatin1Char('/') + c->target);
        for (qsizetype i = 0; !uses && target && i < job.pvcs.size(); ++i) {
            uses = target->namespaceName == job.namespaceName && target->pvc == job.pvcs.at(i)
                   && i < job.pvcSubPaths.size() && job.pvcSubPaths.at(i) == c->path;
        }
        if (uses) {
            d.cached = true;
            d.cachedCommit = c->id;
            break;
        }
    }

    const JobVolume where = jobVolume(estate, source, jobId);
    Ptr<Volume> volume;
    if (!where.volumeId.isEmpty()) {
        d.storageSource = where.source;
        d.volumeId = where.volumeId;
        volume = estate.volume(where.source, where.volumeId);
        d.volumeName = volume ? (volume->svm.isEmpty() ? volume->name : volume->svm + QLatin1Char('/') + volume->name)
                              : where.volumeId;
        if (volume && volume->throughputMibps > 0) {
            d.capMBps = volume->throughputMibps * 1048576.0 / 1e6;
        } else if (volume && !volume->qosPolicy.isEmpty()) {
            for (const Ptr<QosPolicy> &q : estate.qosPolicies().all()) {
                if (q->source == where.source && q->name == volume->qosPolicy && q->maxMbps > 0) {
                    d.capMBps = double(q->maxMbps);
                }
            }
        }
        for (const VolumePerfSample &s : samples) {
            DiagnosisPoint p;
            p.time = s.time;
            p.throughputMBps = s.throughputBps / 1e6;
            p.latencyMs = s.latencyUs >= 0 ? s.latencyUs / 1000.0 : -1;
            p.capMBps = s.capBps > 0 ? s.capBps / 1e6 : d.capMBps;
            d.series.append(p);
        }
        const Ptr<VolumePerf> perf =
            estate.volumePerf().find(where.source, where.source + QLatin1Char('/') + where.volumeId);
        if (perf && (d.series.isEmpty() || perf->time > d.series.back().time)) {
            d.series.append(
                DiagnosisPoint{perf->time, -1, perf->throughputBps / 1e6, perf->latencyUs / 1000.0, d.capMBps});
        }
        if (!d.series.isEmpty()) {
            d.throughputMBps = d.series.back().throughputMBps;
            d.latencyMs = d.series.back().latencyMs;
            if (d.series.back().capMBps > 0) {
                d.capMBps = d.series.back().capMBps;
            }
        }
    }
    // DCGM history is not kept per job: the newest point carries the utilization now.
    if (d.series.isEmpty()) {
        d.series.append(DiagnosisPoint{now.toUTC(), job.gpuUtilization, -1, -1, -1});
    } else {
        d.series.back().gpuPercent = job.gpuUtilization;
    }

    const double util = job.gpuUtilization;
    const bool atCap = d.capMBps > 0 && d.throughputMBps >= kNearCapRatio * d.capMBps;
    const bool slow = d.latencyMs >= kHighLatencyMs;
    const bool noIo = d.throughputMBps < 0 || d.throughputMBps < 0.5;
    const QString gpus = formatGpus(d.gpus);

    auto finding = [](const QString &rule,
                      const QString &summary,
                      const QString &action,
                      const QString &kind,
                      const QString &target) {
        return DiagnosisFinding{rule, summary, action, kind, target};
    };
    const QString levelTarget = d.storageSource + QLatin1Char('/') + d.volumeId;
    const QString levelAction =
        volume && volume->isAnf()
            ? tr("Raise the service level of %1 (move it to a Premium or Ultra capacity pool).").arg(d.volumeName)
            : tr("Raise the service level of %1 (a QoS policy with a higher limit).").arg(d.volumeName);

    if (util < 0) {
        d.verdict = Verdict::UtilizationUnknown;
        d.headline = tr("Job %1 runs on %2 GPU, but its utilization is unknown: no DCGM metrics were reported for "
                        "its GPUs.")
                         .arg(job.name, gpus);
        d.findings.append(finding(QStringLiteral("no_metrics"),
                                  tr("No DCGM utilization for %1's GPUs on %2.").arg(job.name, job.node),
                                  tr("Configure the source's Prometheus URL (dcgm-exporter) to see GPU utilization."),
                                  {},
                                  {}));
    } else if (util >= kComputeBoundPercent) {
        d.verdict = Verdict::ComputeBound;
        d.headline = tr("Job %1 keeps its %2 GPU %3 % busy: compute-bound, not a problem.")
                         .arg(job.name, gpus, diagnosisNumber(util));
        QString storage = d.throughputMBps >= 0
                              ? tr("Its volume %1 delivers %2").arg(d.volumeName, diagnosisRate(d.throughputMBps))
                              : tr("Storage does not hold it back");
        if (d.cached) {
            storage += QLatin1Char(' ') + tr("and it reads cached commit %1.").arg(d.cachedCommit);
        } else {
            storage += QLatin1Char('.');
        }
        d.findings.append(finding(QStringLiteral("gpu_busy"),
                                  tr("GPU utilization %1 % (at least %2 %). %3")
                                      .arg(diagnosisNumber(util), diagnosisNumber(kComputeBoundPercent), storage),
                                  {},
                                  {},
                                  {}));
    } else if (job.type == JobType::Interactive && util < kIdlePercent && noIo) {
        d.verdict = Verdict::IdleSession;
        d.headline = tr("Interactive session %1 holds %2 GPU at %3 % with no I/O: it is idle.")
                         .arg(job.name, gpus, diagnosisNumber(util));
        d.findings.append(finding(QStringLiteral("idle_session"),
                                  tr("GPU utilization %1 % and %2 from storage since %3.")
                                      .arg(diagnosisNumber(util),
                                           diagnosisRate(std::max(0.0, d.throughputMBps)),
                                           job.started.toString(Qt::ISODate)),
                                  tr("End the session %1 to give its %2 GPU back to the queue.").arg(job.name, gpus),
                                  QStringLiteral("end_session"),
                                  jobId));
    } else if (atCap || slow) {
        d.verdict = Verdict::DataBound;
        d.headline =
            tr("Job %1's GPUs wait for data: %2 % busy while volume %3 ")
                .arg(job.name, diagnosisNumber(util), d.volumeName)
            + (atCap ? tr("runs at %1 of its %2 cap.").arg(diagnosisRate(d.throughputMBps), diagnosisRate(d.capMBps))
                     : tr("answers in %1 ms.").arg(diagnosisNumber(d.latencyMs)));
        if (atCap) {
            d.findings.append(finding(QStringLiteral("storage_at_cap"),
                                      tr("Volume %1 delivers %2 against its cap of %3 (%4 %) while the GPUs "
                                         "are %5 % busy.")
                                          .arg(d.volumeName,
                                               diagnosisRate(d.throughputMBps),
                                               diagnosisRate(d.capMBps),
                                               diagnosisNumber(100.0 * d.throughputMBps / d.capMBps),
                                               diagnosisNumber(util)),
                                      levelAction,
                                      QStringLiteral("change_service_level"),
                                      levelTarget));
        }
        if (slow) {
            d.findings.append(
                finding(QStringLiteral("storage_latency"),
                        tr("Volume %1 answers in %2 ms on average (slow from %3 ms).")
                            .arg(d.volumeName, diagnosisNumber(d.latencyMs), diagnosisNumber(kHighLatencyMs)),
                        levelAction,
                        QStringLiteral("change_service_level"),
                        levelTarget));
        }
    } else if (!d.cached && !d.volumeId.isEmpty()) {
        // Storage is not saturated, but the job decodes its data from the source volume on the fly.
        d.verdict = Verdict::LowUtilization;
        d.headline = tr("Job %1 keeps its GPUs %2 % busy; its volume %3 is below its limits.")
                         .arg(job.name, diagnosisNumber(util), d.volumeName);
    } else {
        d.verdict = Verdict::LowUtilization;
        d.headline = tr("Job %1 keeps its GPUs only %2 % busy, and storage does not hold it back.")
                         .arg(job.name, diagnosisNumber(util));
    }

    if (d.verdict == Verdict::DataBound || d.verdict == Verdict::LowUtilization) {
        if (!d.cached) {
            d.findings.append(
                finding(QStringLiteral("uncached"),
                        d.volumeId.isEmpty()
                            ? tr("The job reads no cached commit and no known storage volume: its data "
                                 "comes straight from the source.")
                            : tr("The job reads its data uncached from %1, decoding it on the fly.").arg(d.volumeName),
                        tr("Cache the dataset's commit on a cache target next to the cluster and mount "
                           "it."),
                        QStringLiteral("cache_commit"),
                        {}));
        }
        if (d.verdict == Verdict::LowUtilization) {
            d.findings.append(finding(QStringLiteral("input_pipeline"),
                                      tr("GPU utilization %1 % with storage below its limits: the job's own input "
                                         "pipeline (CPU decoding, small batches) keeps the GPUs waiting.")
                                          .arg(diagnosisNumber(util)),
                                      tr("Profile the data loader: more loader workers, larger batches."),
                                      {},
                                      {}));
        }
    }
    if (!d.findings.isEmpty()) {
        d.nextAction = d.findings.front().action;
    }
    return d;
}

QStringList pvcsAwaitingStorageJoin(const Estate &estate)
{
    QSet<QString> volumeNames;
    for (const Ptr<Volume> &v : estate.volumes().all()) {
        volumeNames.insert(v->name);
    }
    QStringList out;
    for (const Ptr<Pvc> &pvc : estate.pvcs().all()) {
        if (pvc->storageSource.isEmpty() && !pvc->backendVolume.isEmpty() && volumeNames.contains(pvc->backendVolume)) {
            out << pvc->source + QLatin1Char('/') + pvc->id;
        }
    }
    return out;
}

JobDiagnosis diagnoseJob(const Estate &estate,
                         const QString &source,
                         const QString &jobId,
                         const QDateTime &now,
                         const std::vector<VolumePerfSample> &samples,
                         const QStringList &unanswered)
{
    JobDiagnosis d = diagnoseIdle(estate, source, jobId, now, samples);
    const Ptr<Job> job = findJob(estate, source, jobId);
    if (!job || d.status != JobStatus::Running || !d.volumeId.isEmpty()) {
        return d;
    }
    // No volume known: say so rather than judge its storage when the data that would name it
    // has not arrived (a storage source not polled yet, a claim its cluster has not joined yet).
    const QStringList awaiting = pvcsAwaitingStorageJoin(estate);
    QStringList claims;
    bool backed = false;
    for (const QString &claim : job->pvcs) {
        const QString key = source + QLatin1Char('/') + job->namespaceName + QLatin1Char('/') + claim;
        const Ptr<Pvc> pvc = estate.pvcs().find(source, key);
        backed = backed || (pvc && !pvc->backendVolume.isEmpty());
        if (awaiting.contains(key)) {
            claims << claim;
        }
    }
    if (!backed || (unanswered.isEmpty() && claims.isEmpty())) {
        return d;
    }
    d.verdict = Verdict::Incomplete;
    const QString what = !unanswered.isEmpty()
                             ? tr("%1 not polled yet").arg(unanswered.join(QStringLiteral(", ")))
                             : tr("claim %1 not joined to its volume yet").arg(claims.join(QStringLiteral(", ")));
    d.headline =
        tr("Job %1 runs on %2 GPU; its storage is not known yet: %3.").arg(job->name, formatGpus(d.gpus), what);
    d.findings = {DiagnosisFinding{
        QStringLiteral("not_polled"),
        tr("%1: the volume %2 reads may be there, so whether storage holds it back cannot be said yet.")
            .arg(what, job->name),
        tr("Ask again once every source has answered (a longer --timeout, or the Sources page)."),
        QStringLiteral("wait"),
        {}}};
    d.nextAction = d.findings.front().action;
    return d;
}

QJsonObject diagnosisToJson(const JobDiagnosis &d)
{
    auto num = [](double v) {
        return v < 0 ? QJsonValue() : QJsonValue(std::round(v * 10) / 10);
    };
    QJsonArray findings;
    for (const DiagnosisFinding &f : d.findings) {
        findings.append(QJsonObject{{QStringLiteral("rule"), f.rule},
                                    {QStringLiteral("summary"), f.summary},
                                    {QStringLiteral("action"), f.action},
                                    {QStringLiteral("action_kind"), f.actionKind},
                                    {QStringLiteral("action_target"), f.actionTarget}});
    }
    QJsonArray series;
    for (const DiagnosisPoint &p : d.series) {
        series.append(QJsonObject{{QStringLiteral("time"), p.time.toString(Qt::ISODate)},
                                  {QStringLiteral("gpu_percent"), num(p.gpuPercent)},
                                  {QStringLiteral("throughput_mbps"), num(p.throughputMBps)},
                                  {QStringLiteral("latency_ms"), num(p.latencyMs)},
                                  {QStringLiteral("cap_mbps"), num(p.capMBps)}});
    }
    QJsonObject out{{QStringLiteral("source"), d.source},
                    {QStringLiteral("job"), d.jobId},
                    {QStringLiteral("name"), d.jobName},
                    {QStringLiteral("project"), d.project},
                    {QStringLiteral("status"), d.verdict == Verdict::UnknownJob ? QString() : jobStatusName(d.status)},
                    {QStringLiteral("type"), jobTypeName(d.type)},
                    {QStringLiteral("verdict"), verdictName(d.verdict)},
                    {QStringLiteral("headline"), d.headline},
                    {QStringLiteral("next_action"), d.nextAction},
                    {QStringLiteral("findings"), findings},
                    {QStringLiteral("gpus"), formatGpus(d.gpus)},
                    {QStringLiteral("gpu_utilization"), num(d.gpuUtilization)},
                    {QStringLiteral("cached"), d.cached},
                    {QStringLiteral("cached_commit"), d.cachedCommit},
                    {QStringLiteral("storage_source"), d.storageSource},
                    {QStringLiteral("volume_id"), d.volumeId},
                    {QStringLiteral("volume"), d.volumeName},
                    {QStringLiteral("throughput_mbps"), num(d.throughputMBps)},
                    {QStringLiteral("cap_mbps"), num(d.capMBps)},
                    {QStringLiteral("latency_ms"), num(d.latencyMs)},
                    {QStringLiteral("series"), series}};
    return out;
}

} // namespace strata::core
