#pragma once

#include "models/core/domain/records.h"
#include "models/core/store/historystore.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>
#include <vector>

/// "Why is this job pending?" and "Why is this GPU idle?": pure functions over the Estate that
/// explain a job from the scheduler's and the storage's own numbers (triage). The CLI
/// (`strata why`), the web API and the Jobs page's detail panel all show the same JobDiagnosis.
namespace strata::core {

class Estate;

/// What the diagnosis concluded about a job.
enum class Verdict
{
    UnknownJob,         ///< no such job in the source
    Pending,            ///< waiting (pending, preempted or starting): see the findings
    NotPending,         ///< finished (succeeded/failed) or in an unknown state: nothing to explain
    DataBound,          ///< GPUs wait for data: storage at its cap, slow, or data read uncached
    ComputeBound,       ///< GPUs busy (>= kComputeBoundPercent): not a problem
    IdleSession,        ///< interactive session with GPUs at ~0 % and no I/O: end it
    LowUtilization,     ///< GPUs underused while storage looks fine: the job itself (input pipeline, batch size)
    UtilizationUnknown, ///< running, but no DCGM utilization was reported (no Prometheus, or not scraped yet)
    Incomplete, ///< running, but the storage it may read has not answered yet (a source not polled, a claim not joined)
};

/// "unknown_job", "pending", "not_pending", "data_bound", "compute_bound", "idle_session",
/// "low_utilization", "utilization_unknown", "incomplete" (the JSON and CLI spelling).
QString verdictName(Verdict verdict);

/// GPU utilization (DCGM %) from which a running job counts as compute-bound.
inline constexpr double kComputeBoundPercent = 80;
/// Below this DCGM % a job's GPUs count as idle (also the "low utilization" threshold of views).
inline constexpr double kIdlePercent = 5;
/// Running jobs below this DCGM % get a "Why idle?" diagnosis in the views.
inline constexpr double kLowUtilizationPercent = 60;
/// Storage throughput at or above this share of the volume's cap counts as "at its cap".
inline constexpr double kNearCapRatio = 0.9;
/// Average volume latency (ms) from which storage counts as slow for a training reader.
inline constexpr double kHighLatencyMs = 5;

/// One reason, with its numbers and the way out. Findings of a pending job are ordered so the
/// first is the decisive one (what would still hold the job if every later one were fixed first).
struct DiagnosisFinding
{
    /// Rule id: "pvc_unbound", "image_pull", "quota" (interactive in-quota rule), "fair_share",
    /// "no_node_fits", "scheduler" (the scheduler's own message, when no rule matched),
    /// "storage_at_cap", "storage_latency", "uncached", "gpu_busy", "idle_session",
    /// "input_pipeline", "no_metrics", "not_polled" (Verdict::Incomplete).
    QString rule;
    QString summary; ///< human sentence with the numbers, translated
    QString action;  ///< what would let it run / make it faster, translated; may be empty
    /// Machine form of the action, for buttons: "change_service_level" (target = storage source
    /// + "/" + volume id), "cache_commit" (target = dataset source + "/" + dataset id, may be
    /// empty), "end_session" (target = job id), "bind_pvc" (target = PVC id), "fix_image",
    /// "reduce_request", "wait"; empty when there is nothing to do.
    QString actionKind;
    QString actionTarget;

    bool operator==(const DiagnosisFinding &) const = default;
};

/// One point of the idle timeline. Fields are -1 when unknown at that time.
struct DiagnosisPoint
{
    QDateTime time;             ///< UTC
    double gpuPercent = -1;     ///< job's DCGM %; history is not kept, so only the newest point has it
    double throughputMBps = -1; ///< volume throughput, MB/s (10^6 bytes)
    double latencyMs = -1;      ///< volume average latency, ms
    double capMBps = -1;        ///< throughput cap in force, MB/s, -1 none/unknown

    bool operator==(const DiagnosisPoint &) const = default;
};

/// The answer for one job.
struct JobDiagnosis
{
    QString source;
    QString jobId; ///< "<namespace>/<name>" (the request's text when the job is unknown)
    QString jobName;
    QString project;
    JobStatus status = JobStatus::Unknown;
    JobType type = JobType::Train;
    Verdict verdict = Verdict::UnknownJob;
    QString headline;                 ///< one translated sentence: the verdict with its key number
    QList<DiagnosisFinding> findings; ///< decisive first; empty for NotPending/UnknownJob
    QString nextAction;               ///< the first finding's action (empty when none)

    // Idle evidence (running jobs); -1 / empty when unknown.
    MilliGpu gpus = 0;          ///< requested (pending) or allocated (running)
    double gpuUtilization = -1; ///< DCGM %
    QString storageSource;      ///< where the volume it reads lives
    QString volumeId;
    QString volumeName;
    double throughputMBps = -1;   ///< newest volume throughput
    double capMBps = -1;          ///< the volume's cap (ANF throughputMibps, ONTAP QoS max), -1 none
    double latencyMs = -1;        ///< newest volume latency
    bool cached = false;          ///< it reads a cached commit (TR-4841 cache next to the cluster)
    QString cachedCommit;         ///< "<target>/<commit>" when cached
    QList<DiagnosisPoint> series; ///< oldest first, for the chart

    bool operator==(const JobDiagnosis &) const = default;
};

/// GPUs the project's running interactive (non-preemptible) jobs hold on `source`: KAI's
/// AllocatedNotPreemptible. An interactive job is admitted while this plus its request stays
/// within the project's quota (SCHEDULING.md R8); training GPUs do not count.
MilliGpu nonPreemptibleAllocated(const Estate &estate, const QString &source, const QString &project);

/// Explains why a pending (also preempted or container-creating) job does not run: PVC not
/// bound, image not pullable, project over its quota (interactive) or fair share (train), no
/// node with enough free GPUs together. `jobId` is "<namespace>/<name>". A job that is not
/// waiting gets Verdict::NotPending (or the running verdict of diagnoseIdle when it runs).
JobDiagnosis diagnosePending(const Estate &estate, const QString &source, const QString &jobId);

/// Explains a running job's GPU utilization against the I/O of the volume it reads. `samples`
/// is that volume's perf history (IHistoryStore::volumePerf, oldest first; may be empty: the
/// newest VolumePerf of the estate is used then). `now` (UTC, the engine's IClock; a bundle's
/// frozen time) stamps the GPU utilization when no perf sample carries it. A job that is not
/// running is handed to diagnosePending.
JobDiagnosis diagnoseIdle(const Estate &estate,
                          const QString &source,
                          const QString &jobId,
                          const QDateTime &now,
                          const std::vector<VolumePerfSample> &samples = {});

/// The volume a job reads (its first PVC joined to a storage volume): `source`/`volumeId`, both
/// empty when none is known.
struct JobVolume
{
    QString source;
    QString volumeId;
};
JobVolume jobVolume(const Estate &estate, const QString &source, const QString &jobId);

/// Claims ("<source>/<namespace>/<name>") whose backend volume (Pvc::backendVolume) is a volume
/// the estate holds but that are not joined to it yet: their cluster publishes the join after
/// the storage source's poll. An answer that reads a claim's storage waits for this to empty.
QStringList pvcsAwaitingStorageJoin(const Estate &estate);

/// Pending jobs to diagnosePending, running ones to diagnoseIdle (with `now`), the rest NotPending.
/// `unanswered`: the storage sources (ONTAP, Azure) that have not answered yet
/// (notPolledYet()). A running job whose volume is not known while one of them has not
/// answered, or while one of its claims awaits its join, gets Verdict::Incomplete with a
/// "not_polled" finding naming them ("ai-lab not polled yet"), never a verdict on its storage
/// that the missing data would change.
JobDiagnosis diagnoseJob(const Estate &estate,
                         const QString &source,
                         const QString &jobId,
                         const QDateTime &now,
                         const std::vector<VolumePerfSample> &samples = {},
                         const QStringList &unanswered = {});

/// The JSON of `strata why -o json` and GET /api/v1/jobs/<source>/<ns>/<name>/diagnosis.
QJsonObject diagnosisToJson(const JobDiagnosis &diagnosis);

} // namespace strata::core
