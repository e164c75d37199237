#pragma once

#include "models/core/domain/error.h"
#include "models/core/domain/records.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

class QJsonObject;

#include <optional>

namespace strata::core {

/// One project's quota or over-quota weight in a what-if. Unset fields keep the live value.
struct QuotaChange
{
    QString project;
    std::optional<MilliGpu> quota;         ///< deserved milli-GPUs, >= 0
    std::optional<double> overQuotaWeight; ///< KAI weight, >= 0; any weight splits spare GPUs by weight
};

/// What a quota what-if predicts for one job of the cluster.
struct WhatIfJob
{
    enum class Outcome
    {
        KeepsRunning, ///< runs before and after
        Starts,       ///< waits now, would start
        Preempted,    ///< runs now, would be paused to give GPUs back (R1)
        StaysQueued,  ///< waits now and after
    };
    QString id; ///< "<namespace>/<name>"
    QString name;
    QString project;
    JobType type = JobType::Train;
    MilliGpu gpus = 0;
    Outcome outcome = Outcome::KeepsRunning;
    QString node;   ///< where it runs afterwards (Starts, KeepsRunning), else where it ran
    QString reason; ///< Preempted: by whom; StaysQueued: why it still waits; else empty
};

/// One project before and after, all milli-GPUs.
struct WhatIfProject
{
    QString project;
    MilliGpu quotaBefore = 0;
    MilliGpu quotaAfter = 0;
    MilliGpu allocatedBefore = 0;
    MilliGpu allocatedAfter = 0;
    MilliGpu fairShareBefore = 0;
    MilliGpu fairShareAfter = 0;
    int queuedBefore = 0;
    int queuedAfter = 0;
    int starts = 0;    ///< jobs that would start
    int preempted = 0; ///< jobs that would be paused
};

struct QuotaWhatIf
{
    QString cluster; ///< the GPU cluster's source name
    MilliGpu capacity = 0;
    MilliGpu quotaTotalBefore = 0;
    MilliGpu quotaTotalAfter = 0;  ///< should equal capacity (SCHEDULING.md 3.2.4)
    bool byWeight = false;         ///< spare GPUs split by over-quota weight instead of quota
    QList<WhatIfProject> projects; ///< name order
    QList<WhatIfJob> jobs;         ///< changes first (preempted, starts), then the rest; submit order within
    /// Jobs whose placement is unknown to Strata (bound without GPU indices on a node it cannot
    /// fit them on) and were left out, with why. Empty normally.
    QStringList notes;
};

/// Predicts what the project-queue rules (SCHEDULING.md R1–R9, GpuAllocator) do to one cluster if
/// `changes` were applied to its quotas now: which jobs start, which are preempted, which stay
/// queued, and each project's allocation afterwards. `nodes`, `projects` and `jobs` are the live
/// estate; rows of other sources are ignored. Finished jobs and jobs without GPUs do not take part.
/// Running and starting jobs stay where they are; pending and preempted jobs queue in creation
/// order (preempted first). Changing nothing predicts what the rules would still do with the live
/// state (normally nothing).
/// Errors: Kind::NotFound for a cluster without projects or an unknown project, Kind::Invalid
/// for a negative quota or weight (field "quota" / "weight"); one translated sentence.
/// `blocked`: waiting jobs a cause other than GPUs holds whatever the quotas
/// (QuotaWhatIfInput::blocked): they take no GPUs in the prediction and stay queued with that
/// cause as their reason, the same decisive reason `strata why` gives.
Result<QuotaWhatIf> predictQuotaChange(const QString &cluster,
                                       const QList<GpuNode> &nodes,
                                       const QList<Project> &projects,
                                       const QList<Job> &jobs,
                                       const QList<QuotaChange> &changes,
                                       const QHash<QString, QString> &blocked = {});

class Estate;

/// What a what-if reads of one cluster: copies of its estate rows, to hand to another thread.
struct QuotaWhatIfInput
{
    QList<GpuNode> nodes;
    QList<Project> projects; ///< name order
    QList<Job> jobs;
    /// Waiting jobs that cannot start whatever the GPUs do, by id ("<namespace>/<name>"): the
    /// decisive finding of diagnosePending when it is an unbound PVC or an image that cannot be
    /// pulled, as its summary.
    QHash<QString, QString> blocked;
};
/// The rows of `cluster` (a Kubernetes source name) as they are in the estate now.
QuotaWhatIfInput quotaWhatIfInput(const Estate &estate, const QString &cluster);

/// The same over the estate's nodes, projects and jobs of `cluster` (quotaWhatIfInput()).
Result<QuotaWhatIf> predictQuotaChange(const Estate &estate, const QString &cluster, const QList<QuotaChange> &changes);

/// "team-d=8" / "team-b=2.5" (GPUs, decimals allowed) into a change of quota, or of weight when
/// `weight` is true. Kind::Invalid on a malformed word.
Result<QuotaChange> parseQuotaChange(const QString &word, bool weight);

/// The changes of a what-if request body {"quotas": {"team-d": 4}, "weights": {"team-b": 3}}
/// (GPUs, decimals allowed, and over-quota weights; each a number from 0 to 1,000,000; both
/// members optional) for cluster `cluster` whose project names are `projects`. A project named
/// in both members is one change; order: quotas first, then new names of weights. Linear in the
/// body's members (hash look-ups), and every name is checked against `projects` before it is
/// kept, so there are never more changes than projects.
/// Errors: Kind::NotFound "<cluster> has no project <name>" for the first name not in
/// `projects`; Kind::Invalid "quotas.<name> must be a number >= 0" (or weights.) for a value out
/// of range or not a number, or "quotas must be an object" when a member is not an object.
Result<QList<QuotaChange>>
quotaChangesFromJson(const QJsonObject &body, const QString &cluster, const QSet<QString> &projects);

} // namespace strata::core
