#pragma once

#include "models/core/domain/records.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace strata::core {

// What a user asks Strata to change and what became of it, as values: requests, previews, records
// and the context an executor runs in. ActionManager (actions.h) runs them.

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
/// The kind actionKindName() names `name`, nullopt for any other text.
std::optional<ActionKind> actionKindFromName(const QString &name);

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

/// The request as compact JSON for the action journal, and back (nullopt when unreadable).
QString actionRequestToJson(const ActionRequest &request);
std::optional<ActionRequest> actionRequestFromJson(const QString &json);

struct ActionResult
{
    bool ok = false;
    bool reconciled = false; ///< see ActionRecord::reconciled
    QString message;
};

} // namespace strata::core
