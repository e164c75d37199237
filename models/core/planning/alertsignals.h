#pragma once

#include "models/core/domain/records.h"
#include "models/core/domain/schedule.h"

#include <QDateTime>
#include <QList>

#include <optional>

namespace strata::core {

class Estate;

// The per-object figures Strata's shipped alert rules (packaging/prometheus/strata-alerts.yml,
// docs/alerts.md) compare with their thresholds. strata-server exports them on /metrics; the
// thresholds stay in the rules, so Alertmanager users tune them without a Strata release.

/// A job waiting for GPUs (JobStatus Pending or Preempted, as Project::queuedJobs counts them).
struct PendingJobSignal
{
    QString source;
    QString project;
    QString job; ///< Job::id, "<namespace>/<name>"
    MilliGpu gpusRequested = 0;
    qint64 pendingSeconds = 0; ///< now - Job::created, >= 0 (a clock behind the API server gives 0)
};

/// Every waiting job of the estate with a valid creation time, sorted by source, project, job.
/// Running, finished and unknown jobs are left out.
QList<PendingJobSignal> pendingJobSignals(const Estate &estate, const QDateTime &now);

/// The throughput cap of `volume` in bytes per second (levelCapOf(): ANF manual or auto QoS,
/// ONTAP fixed QoS policy max MB/s), nullopt when it has none or it is not throughput-based
/// (adaptive QoS, no policy, unknown ANF level).
std::optional<double> throughputCapBytesPerSecond(const Estate &estate, const Volume &volume);

/// A cached commit whose load failed (CacheState::Failed): it stays so until it is evicted or
/// requested again.
struct FailedCacheLoadSignal
{
    QString source; ///< the target's Kubernetes source
    QString target;
    QString dataset; ///< CachedCommit::datasetName, else datasetId
    QString commit;  ///< CachedCommit::commitId
};

/// Sorted by source, target, commit.
QList<FailedCacheLoadSignal> failedCacheLoadSignals(const Estate &estate);

/// True when the schedule's last edge did not change the level: its outcome is "failed: ..."
/// (the action failed or was refused) or "missed" (Strata was not running within
/// ScheduleService::kGraceSeconds of the edge). A disabled schedule never counts: disabling it
/// is how an operator acknowledges the failure without deleting the schedule.
bool scheduleLastRunFailed(const ServiceLevelSchedule &schedule);

} // namespace strata::core
