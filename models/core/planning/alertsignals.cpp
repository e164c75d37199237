#include "models/core/planning/alertsignals.h"

#include "models/core/domain/estate.h"
#include "models/core/planning/levelcaps.h"

#include <algorithm>
#include <tuple>

namespace strata::core {

QList<PendingJobSignal> pendingJobSignals(const Estate &estate, const QDateTime &now)
{
    QList<PendingJobSignal> out;
    for (const Ptr<Job> &job : estate.jobs().all()) {
        const bool waits = job->status == JobStatus::Pending || job->status == JobStatus::Preempted;
        if (!waits || !job->created.isValid()) {
            continue;
        }
        const qint64 seconds = std::max<qint64>(0, job->created.secsTo(now));
        out.append(PendingJobSignal{job->source, job->project, job->id, job->gpusRequested, seconds});
    }
    std::sort(out.begin(), out.end(), [](const PendingJobSignal &a, const PendingJobSignal &b) {
        return std::tie(a.source, a.project, a.job) < std::tie(b.source, b.project, b.job);
    });
    return out;
}

std::optional<double> throughputCapBytesPerSecond(const Estate &estate, const Volume &volume)
{
    constexpr double kBytesPerMib = 1024.0 * 1024.0;
    const LevelCap cap = levelCapOf(estate, volume);
    if (cap.mibps <= 0) {
        return std::nullopt;
    }
    return cap.mibps * kBytesPerMib;
}

QList<FailedCacheLoadSignal> failedCacheLoadSignals(const Estate &estate)
{
    QList<FailedCacheLoadSignal> out;
    for (const Ptr<CachedCommit> &c : estate.cachedCommits().all()) {
        if (c->state == CacheState::Failed) {
            out.append(FailedCacheLoadSignal{
                c->source, c->target, c->datasetName.isEmpty() ? c->datasetId : c->datasetName, c->commitId});
        }
    }
    std::sort(out.begin(), out.end(), [](const FailedCacheLoadSignal &a, const FailedCacheLoadSignal &b) {
        return std::tie(a.source, a.target, a.commit) < std::tie(b.source, b.target, b.commit);
    });
    return out;
}

bool scheduleLastRunFailed(const ServiceLevelSchedule &schedule)
{
    return schedule.enabled
           && (schedule.lastOutcome.startsWith(QLatin1String("failed"))
               || schedule.lastOutcome == QLatin1String("missed"));
}

} // namespace strata::core
