#pragma once

#include "models/core/domain/clock.h"
#include "models/core/domain/error.h"
#include "models/core/store/historystore.h"
#include "models/core/systempoller.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QStringList>

#include <chrono>
#include <functional>
#include <optional>

class QThreadPool;
class QTimer;

namespace strata::core {

class HistoryService;

enum class ActionKind
{
    SnapshotCreate,
    SnapshotDelete,
    SnapshotRestore,
    VolumeClone,
    JobSubmit,          ///< Kubernetes: submit a workload to a project
    JobDelete,          ///< Kubernetes: delete one or several jobs of a source
    ProjectQuotaEdit,   ///< Kubernetes: set a project's guaranteed GPUs
    ServiceLevelChange, ///< ANF: move the volume to a pool of another level; ONTAP: set its QoS policy
    DatasetCommit,      ///< StorageGRID: write a commit manifest of the dataset's current objects
    CacheCommit,        ///< Kubernetes: load a commit onto a cache target (loader Job)
    CacheEvict          ///< Kubernetes: clear a cached commit from its target (evictor Job)
};

/// "snapshot.create", "snapshot.delete", "snapshot.restore", "volume.clone", "job.submit",
/// "job.delete", "project.quota", "volume.service_level", "dataset.commit", "cache.load",
/// "cache.evict"
QString actionKindName(ActionKind kind);

/// A PVC mounted into a submitted job.
struct PvcMount
{
    QString claim; ///< PVC name in the project's namespace
    QString path;  ///< mount path in the container, "/mnt/data"
    bool readOnly = false;

    bool operator==(const PvcMount &) const = default;
};

/// What `runai submit` takes that makes sense on Kubernetes (TR-4858 1.1.1).
struct JobSpec
{
    QString name;    ///< DNS-1123 label, unique in the project
    QString project; ///< project (queue) name
    QString image;
    MilliGpu gpus = 1000; ///< whole GPUs (multiples of 1000) or a fraction below 1000
    JobType type = JobType::Train;
    QStringList command; ///< entrypoint override, may be empty
    QStringList args;
    QList<PvcMount> pvcs;
    QString user; ///< recorded as the job's `user` label; empty = the Strata user
    /// Simulator hint written as an annotation (demo only): seconds until it completes, 0 = none.
    int durationSeconds = 0;

    bool operator==(const JobSpec &) const = default;
};

/// What the user asked for. Ids are the source's stable ids (ONTAP uuids).
struct ActionRequest
{
    ActionRequest() = default;
    /// The volume actions' short form: {kind, source, volumeId, snapshotId, name, comment}.
    ActionRequest(ActionKind kind,
                  QString source,
                  QString volumeId = {},
                  QString snapshotId = {},
                  QString name = {},
                  QString comment = {})
        : kind(kind)
        , source(std::move(source))
        , volumeId(std::move(volumeId))
        , snapshotId(std::move(snapshotId))
        , name(std::move(name))
        , comment(std::move(comment))
    {}

    ActionKind kind = ActionKind::SnapshotCreate;
    QString source;
    QString volumeId;
    QString snapshotId; ///< delete, restore, clone
    QString name;       ///< new snapshot name (create) or new volume name (clone)
    QString comment;    ///< snapshot comment (create), optional
    JobSpec job;        ///< JobSubmit
    QStringList jobIds; ///< JobDelete: "<namespace>/<name>" ids of one source
    QString project;    ///< ProjectQuotaEdit
    MilliGpu quota = 0; ///< ProjectQuotaEdit: new guaranteed GPUs
    /// ServiceLevelChange: ANF "Standard", "Premium" or "Ultra"; ONTAP the QoS policy name
    /// ("" = remove the policy).
    QString targetLevel;
    /// ServiceLevelChange, ANF: the capacity pool (name, same account) to move to; empty = the
    /// pool of `targetLevel` with room that the preview names.
    QString targetPool;
    /// ServiceLevelChange, ANF: create `targetPool` of `poolSizeBytes` first (the preview's
    /// offer when no pool of that level has room). Ignored when the pool exists.
    bool createPool = false;
    qint64 poolSizeBytes = 0;
    qint64 scheduleId = 0; ///< the schedule that fired this action, 0 = a user's direct request
    /// The schedule's edge (UTC) this action runs; invalid unless `scheduleId`. Journaled, so a
    /// replica that takes the action over records the outcome on that edge.
    QDateTime scheduleEdge;
    /// DatasetCommit: the dataset id (Dataset::id) in `source`; `comment` is the message.
    /// CacheCommit/CacheEvict: the dataset of `commitId`.
    QString datasetId;
    QString datasetSource; ///< CacheCommit/CacheEvict: the source holding the dataset
    QString commitId;      ///< CacheCommit/CacheEvict: the commit (64 hex for S3 datasets)
    QString cacheTarget;   ///< CacheCommit/CacheEvict: the target's name (`source` = its Kubernetes source)
    /// CacheEvict: why ("unused for 3 days", "over the high watermark", "" = a user's request).
    QString evictReason;

    bool operator==(const ActionRequest &) const = default;
};

/// What an action will do, computed from the current estate before the user confirms.
struct ActionPreview
{
    QString title;            ///< "Create snapshot", "Restore volume from snapshot"
    QString target;           ///< "svm_ai/chest_xray" or "svm_ai/chest_xray@daily.2026-01-01"
    QString fromState;        ///< e.g. "12 snapshots"
    QString toState;          ///< e.g. "13 snapshots"
    QStringList effects;      ///< what will happen, one sentence each
    QStringList warnings;     ///< irreversible consequences, shown prominently
    bool destructive = false; ///< deletes or overwrites data: confirmation must be explicit
    QString blockedReason;    ///< non-empty when the action cannot run as asked

    [[nodiscard]] bool allowed() const { return blockedReason.isEmpty(); }
};

enum class ActionState
{
    Running,
    Succeeded,
    Failed
};

QString actionStateName(ActionState state); ///< "running", "succeeded", "failed"

struct ActionProgress
{
    int percent = -1; ///< 0..100, -1 when indeterminate
    QString text;     ///< "ONTAP job running", ...
};

/// One submitted action as the Activity panel shows it.
struct ActionRecord
{
    QString id; ///< uuid
    ActionRequest request;
    ActionPreview preview;
    ActionState state = ActionState::Running;
    ActionProgress progress;
    QString message; ///< result or error sentence
    QString user;
    QDateTime submitted; ///< UTC
    QDateTime finished;  ///< UTC, invalid while running
    int attempts = 0;
    /// The effect was found already applied (an earlier attempt's response was lost), so it was
    /// not submitted again.
    bool reconciled = false;
    /// uuid written to the action journal before anything is sent; stable across attempts and
    /// restarts (executors derive vendor-side names from it where the vendor dedupes by name).
    QString idempotencyKey;
    /// Taken over from a Strata process that stopped (killed, crashed) while it ran: its outcome
    /// was found from the vendor's state, and its mutation was never sent again.
    bool recovered = false;
};

/// Context handed to an executor for one attempt (worker thread).
struct ActionContext
{
    int attempt = 1;     ///< 1 for the first run; > 1 means "reconcile before submitting"
    QDateTime submitted; ///< UTC time of the first attempt
    std::function<void(const ActionProgress &)> progress;
    std::function<bool()> isCancelled;

    /// See ActionRecord::idempotencyKey.
    QString idempotencyKey;
    /// Strata stopped while this action ran and this is the next start taking it over: follow
    /// `handle` (or find the vendor's work) to its end, or report what the vendor shows. The
    /// mutation must never be sent in this mode: sending() answers false.
    bool recovery = false;
    /// recovery: the vendor handle journaled before the stop (ONTAP job uuid, ARM operation URL,
    /// "<namespace>/<job>"), empty when the process stopped before the vendor accepted.
    QString handle;
    /// recovery: the journal phase at the stop, "intended", "sent" or "accepted".
    QString phase;
    /// Set by the manager: journals "sent" durably; call right before the mutating request.
    std::function<bool()> onSending;
    /// Set by the manager: journals the vendor's handle durably (when it differs from the last).
    std::function<void(const QString &)> onAccepted;

    /// Call immediately before sending the mutation. false = do not send (recovery mode).
    [[nodiscard]] bool sending() const { return !recovery && (!onSending || onSending()); }
    /// Call as soon as the vendor accepted the mutation and named its work (job, operation).
    void accepted(const QString &vendorHandle) const
    {
        if (onAccepted && !recovery) {
            onAccepted(vendorHandle);
        }
    }
};

/// A deterministic crash for the crash-recovery tests. When the environment variable
/// STRATA_TEST_CRASH_AT names `step`, the process kills itself with SIGKILL (no cleanup, no
/// flush: exactly what `kill -9` does). Inert without the variable. Steps of an action:
/// "intended" (journaled, nothing sent), "sent" (the vendor accepted; its handle is not yet
/// journaled), "handle" (the handle is journaled, the vendor's work runs), "finished" (the
/// executor returned; the outcome is not yet written).
void actionCrashPoint(const char *step);

/// The request as compact JSON for the action journal, and back (nullopt when unreadable).
QString actionRequestToJson(const ActionRequest &request);
std::optional<ActionRequest> actionRequestFromJson(const QString &json);

struct ActionResult
{
    bool ok = false;
    bool reconciled = false; ///< see ActionRecord::reconciled
    QString message;
};

/// Implemented per source kind (OntapSource). preview() runs on the owner thread without I/O;
/// execute() runs on a worker thread and must be idempotent across attempts: with
/// attempt > 1, or after a lost response, it checks whether the effect already exists before
/// submitting, so a retried action is never applied twice.
class IActionExecutor
{
public:
    virtual ~IActionExecutor() = default;
    [[nodiscard]] virtual ActionPreview preview(const ActionRequest &request) const = 0;
    /// Returns the work to run on a worker thread (it must not touch the executor's QObject
    /// state; capture what it needs).
    [[nodiscard]] virtual std::function<ActionResult(const ActionContext &)> prepare(const ActionRequest &request) = 0;
    /// Owner thread, after success: refresh what changed.
    virtual void afterSuccess(const ActionRequest &request) { Q_UNUSED(request) }
    /// Whether prepare() honours ActionContext::recovery for `kind` (follows the journaled
    /// handle or inspects the vendor, and never sends). Actions of other kinds interrupted by a
    /// stop are closed as failed ("not checked; not repeated") on the next start.
    [[nodiscard]] virtual bool recovers(ActionKind kind) const
    {
        Q_UNUSED(kind)
        return false;
    }
};

/// Runs actions (preview -> confirm -> run with progress -> result), keeps them for the
/// Activity panel, writes the audit log, and refuses to run the same request twice at once.
class ActionManager final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ActionManager)

public:
    /// `history` may be null (no audit persistence, e.g. some tests). `user` is recorded in the
    /// audit log.
    ActionManager(IClock &clock, QThreadPool &pool, HistoryService *history, QString user, QObject *parent = nullptr);
    ~ActionManager() override;

    void setExecutor(const QString &source, IActionExecutor *executor);
    void removeExecutor(const QString &source);

    [[nodiscard]] ActionPreview preview(const ActionRequest &request) const;
    /// Runs a confirmed action. Returns its id, or the id of an identical action still running
    /// (double submit). A Kind::Conflict error with the preview's blockedReason when it is
    /// blocked. `user` (e.g. the web console's logged-in user) is recorded in the ActionRecord
    /// and the audit log instead of the manager's user when non-empty.
    Result<QString> submit(const ActionRequest &request, const QString &user = {});
    /// Runs a failed action again (attempt + 1; the executor reconciles first). false when the
    /// action is unknown or not failed.
    bool retry(const QString &id);

    /// Takes over the actions a stopped Strata process left open in the history store's
    /// journal (its owner is gone: same host and its pid is dead, or no heartbeat for 45 s,
    /// owners refreshing theirs every 10 s) whose source has an executor now: follows the
    /// journaled job or operation to its end, or records what the vendor shows. Never sends a
    /// mutation again; each gets exactly one outcome audit entry, and appears in records() with
    /// `recovered` set. Safe to call repeatedly and from several processes (an entry is claimed
    /// by one). After the first call the journal is checked again every recovery interval, so a
    /// replica sharing a PostgreSQL store takes over what a killed one left within about a
    /// minute. No-op without a history store.
    void recoverInterrupted();
    /// How often the journal is checked again after the first recoverInterrupted() (default
    /// 15 s; tests shorten it).
    void setRecoveryInterval(std::chrono::milliseconds interval);
    /// False while recoverInterrupted() is still reading the journal or a recovered action runs.
    [[nodiscard]] bool recoveryIdle() const;

    [[nodiscard]] const ActionRecord *find(const QString &id) const;
    /// Oldest first.
    [[nodiscard]] QList<ActionRecord> records() const;
    [[nodiscard]] int runningCount() const;

    /// This process's name in the action journal and among replicas: "<host>/<pid>".
    [[nodiscard]] QString ownerId() const { return m_owner; }

Q_SIGNALS:
    void actionAdded(const QString &id);
    void actionChanged(const QString &id);
    void actionFinished(const QString &id, bool ok);
    /// An audit record was written (or would be, without a history store): an action started,
    /// succeeded, was reconciled or failed. The Triage timeline follows this.
    void audited(const strata::core::AuditEntry &entry);
    /// recoverInterrupted() read the journal and took over what it could.
    void recoveryChecked();

private:
    /// `recovering`: the journal entry being taken over (never sends), else a normal attempt.
    void run(ActionRecord &record, const JournalEntry *recovering = nullptr);
    void finish(const QString &id, const ActionResult &result);
    void audit(const ActionRecord &record, const QString &outcome);
    void recover(const JournalEntry &entry);
    /// Whether an action manager of this process (this one or another engine's) has run or runs
    /// `actionId`.
    [[nodiscard]] bool runsInThisProcess(const QString &actionId) const;
    void heartbeat();

    IClock &m_clock;
    QThreadPool &m_pool;
    HistoryService *m_history;
    QString m_user;
    QHash<QString, IActionExecutor *> m_executors;
    QList<ActionRecord> m_records;
    QHash<QString, qsizetype> m_index;
    std::shared_ptr<bool> m_alive;
    QString m_owner; ///< "<host>/<pid>", the journal's owner of this process's actions
    QSet<QString> m_journaled;
    int m_journalReads = 0;
    QTimer *m_recoveryTimer = nullptr; ///< started by the first recoverInterrupted()
    std::chrono::milliseconds m_recoveryInterval{15'000};
};

} // namespace strata::core
