#pragma once

#include "models/core/domain/fieldschema.h"
#include "models/core/domain/records.h"

#include <algorithm>
#include <cmath>
#include <span>

namespace strata::core {

/// A job with what its figures are counted against: the clock its ages count to and, on the
/// desktop, its place in its project's queue (a listing has none).
struct JobRow
{
    using Record = Job;
    const Job &job;
    QDateTime now;         ///< UTC; ages, run and wait times count to it
    int queuePosition = 0; ///< 1-based FIFO place in its project's queue; 0 = not queued or not known

    [[nodiscard]] const Job &record() const { return job; }
};

/// Seconds since the job's creation; -1 when unknown.
inline qint64 jobAgeSeconds(const Job &job, const QDateTime &now)
{
    return job.created.isValid() ? std::max<qint64>(0, job.created.secsTo(now)) : -1;
}
/// Seconds of the current (or finished) run; -1 when it has not started.
inline qint64 jobRunSeconds(const Job &job, const QDateTime &now)
{
    if (!job.started.isValid()) {
        return -1;
    }
    return std::max<qint64>(0, job.started.secsTo(job.finished.isValid() ? job.finished : now));
}
/// Seconds waited so far while queued (waitsForGpus); -1 when not queued.
inline qint64 jobWaitSeconds(const Job &job, const QDateTime &now)
{
    return waitsForGpus(job) ? jobAgeSeconds(job, now) : -1;
}
/// The status as kubectl and runai print it: "Running", "Pending", "Preempted",
/// "ContainerCreating", "Succeeded", "Failed", "Unknown".
inline QString jobStatusWord(JobStatus status)
{
    switch (status) {
    case JobStatus::Pending:
        return QStringLiteral("Pending");
    case JobStatus::Preempted:
        return QStringLiteral("Preempted");
    case JobStatus::ContainerCreating:
        return QStringLiteral("ContainerCreating");
    case JobStatus::Running:
        return QStringLiteral("Running");
    case JobStatus::Succeeded:
        return QStringLiteral("Succeeded");
    case JobStatus::Failed:
        return QStringLiteral("Failed");
    case JobStatus::Unknown:
        break;
    }
    return QStringLiteral("Unknown");
}
/// Why the job is not doing its work: the kubelet's word for a container that cannot run
/// (Job::failureReason, "ImagePullBackOff"), else why a queued job waits, else empty.
inline QString jobReason(const Job &job)
{
    if (!job.failureReason.isEmpty()) {
        return job.failureReason;
    }
    return waitsForGpus(job) ? job.pendingReason : QString();
}
/// A GPU figure as the listing serves it: GPUs (double), from milli-GPUs.
inline QVariant jobGpusValue(MilliGpu milli)
{
    return QVariant(double(milli) / 1000.0);
}

/// Every field of a job, in the order every front end shows them: the desktop's Jobs tables
/// (Desktop), `strata get jobs` and /api/v1/jobs (Listed; the CLI table the CliTable ones) and the
/// web console's Jobs page (its WebTable fields, from GET /api/v1/fields/jobs). A status or type
/// is served as its API name ("container_creating") and shown as kubectl's word
/// ("ContainerCreating"); a job whose container cannot run shows that word ("ImagePullBackOff")
/// as its status. Times count to JobRow::now. A support bundle stores every field with a stored
/// member under its key (the fields of no surface are kept for bundles only).
// One line per field: key, title, CLI header, kind, surfaces, stored member[, value[, help[, text]]].
// clang-format off
inline constexpr Field<JobRow> kJobFields[] = {
    {"name", "Name", "NAME", FieldKind::Text, Listed | Desktop | InTable, &Job::name},
    {"status", "Status", "STATUS", FieldKind::Text, Listed | Desktop | InTable, &Job::status, [](const JobRow &r) { return QVariant(jobStatusName(r.job.status)); }, "", [](const JobRow &r) { return r.job.failureReason.isEmpty() ? jobStatusWord(r.job.status) : r.job.failureReason; }},
    {"age_seconds", "Age", "AGE", FieldKind::Duration, Listed | Desktop | InTable | Wide, {}, [](const JobRow &r) { const qint64 s = jobAgeSeconds(r.job, r.now); return s >= 0 ? QVariant(s) : QVariant(); }, "Time since the job was submitted"},
    {"node", "Node", "NODE", FieldKind::Text, Listed | Desktop | InTable | Wide, &Job::node},
    {"image", "Image", "IMAGE", FieldKind::Text, Listed | Desktop | CliTable, &Job::image},
    {"type", "Type", "TYPE", FieldKind::Text, Listed | Desktop | InTable | Wide, &Job::type, [](const JobRow &r) { return QVariant(jobTypeName(r.job.type)); }, "", [](const JobRow &r) { return r.job.type == JobType::Interactive ? QStringLiteral("Interactive") : QStringLiteral("Train"); }},
    {"project", "Project", "PROJECT", FieldKind::Text, Listed | Desktop | InTable | Wide, &Job::project},
    {"user", "User", "USER", FieldKind::Text, Listed | Desktop | InTable | Wide, &Job::user},
    {"gpus_requested", "GPUs", "GPUS", FieldKind::Gpus, Listed | Desktop | InTable, &Job::gpusRequested, [](const JobRow &r) { return jobGpusValue(r.job.gpusRequested); }, "GPUs the job requests, which it holds while it runs; fractions share one GPU"},
    {"created_by_cli", "Created by CLI", "CREATED-BY-CLI", FieldKind::Flag, Listed | Desktop | CliTable, &Job::createdByCli},
    {"run_seconds", "Run time", "", FieldKind::Duration, Listed | Desktop, {}, [](const JobRow &r) { const qint64 s = jobRunSeconds(r.job, r.now); return s >= 0 ? QVariant(s) : QVariant(); }, "Time since the current run started, or the finished run's length"},
    {"gpu_utilization", "GPU util.", "", FieldKind::Percent, Listed | Desktop | WebTable | Wide, &Job::gpuUtilization, [](const JobRow &r) { return r.job.gpuUtilization >= 0 ? QVariant(std::round(r.job.gpuUtilization * 10.0) / 10.0) : QVariant(); }, "DCGM's utilisation over the job's GPUs"},
    {"wait_seconds", "Wait time", "", FieldKind::Duration, Listed | Desktop, {}, [](const JobRow &r) { const qint64 s = jobWaitSeconds(r.job, r.now); return s >= 0 ? QVariant(s) : QVariant(); }, "Time since the job was submitted, while it waits"},
    {"reason", "Reason", "REASON", FieldKind::Text, Listed | Desktop | CliTable, {}, [](const JobRow &r) { return QVariant(jobReason(r.job)); }, "Why the container cannot run (ImagePullBackOff, CrashLoopBackOff...), else why a queued job waits"},
    {"queue_position", "Queue #", "", FieldKind::Count, Desktop, {}, [](const JobRow &r) { return r.queuePosition > 0 ? QVariant(qint64(r.queuePosition)) : QVariant(); }, "Place in its project's queue: first come, first served; preempted jobs keep their place"},
    {"source", "Cluster", "", FieldKind::Text, Listed | Desktop | WebTable | Wide, &Job::source},
    {"namespace", "Namespace", "", FieldKind::Text, Listed, &Job::namespaceName},
    {"gpus_allocated", "GPUs allocated", "", FieldKind::Gpus, Listed, &Job::gpusAllocated, [](const JobRow &r) { return jobGpusValue(r.job.gpusAllocated); }, "GPUs bound to the job now; 0 unless it is placed"},
    {"gpu_indices", "GPU indices", "", FieldKind::Text, Listed, &Job::gpuIndices},
    {"created", "Created", "", FieldKind::Time, Listed, &Job::created},
    {"pending_reason", "Pending reason", "", FieldKind::Text, Listed, &Job::pendingReason, [](const JobRow &r) { return QVariant(waitsForGpus(r.job) ? r.job.pendingReason : QString()); }},
    {"pvcs", "PVCs", "", FieldKind::Text, Listed, &Job::pvcs},
    {"waiting_reason", "Waiting reason", "", FieldKind::Text, Listed, {}, [](const JobRow &r) { return QVariant(waitsForGpus(r.job) ? QString() : r.job.pendingReason); }, "A placed job's container that cannot start or keeps failing (\"ImagePullBackOff: Back-off pulling image ...\")"},
    {"failure_reason", "Failure", "", FieldKind::Text, Listed, &Job::failureReason},
    {"id", "Id", "", FieldKind::Text, 0, &Job::id},
    {"command", "Command", "", FieldKind::Text, 0, &Job::command},
    {"pvc_sub_paths", "PVC sub-paths", "", FieldKind::Text, 0, &Job::pvcSubPaths},
    {"pod_name", "Pod", "", FieldKind::Text, 0, &Job::podName},
    {"started", "Started", "", FieldKind::Time, 0, &Job::started},
    {"finished", "Finished", "", FieldKind::Time, 0, &Job::finished},
    {"created_by", "Created by", "", FieldKind::Text, 0, &Job::createdBy},
};
// clang-format on

/// kJobFields as a span.
constexpr std::span<const Field<JobRow>> jobFields()
{
    return kJobFields;
}

/// Whether a job field counts to the clock (it changes with every tick of JobRow::now).
constexpr bool isJobTimeField(const Field<JobRow> &field)
{
    return field.kind == FieldKind::Duration;
}

} // namespace strata::core
