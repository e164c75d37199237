#pragma once

#include "models/core/domain/estate.h"
#include "models/core/domain/records.h"
#include "models/item/keyedtablemodel.h"

#include <functional>

namespace strata::models {

/// Every job (workload) of every Kubernetes source, updated by estate diffs (never a reset on a
/// poll). Columns follow the Run:ai job list (SCHEDULING.md 3.3): NAME, STATUS, AGE, NODE,
/// IMAGE, TYPE, PROJECT, USER, GPUs, CREATED BY CLI, then run time, GPU utilization, wait time,
/// pending reason, queue position and source. Both the running and the queued table of the Jobs
/// page are proxies over this one model.
///
/// Times are relative to now(): tick() re-reads the clock and emits dataChanged for the time
/// columns only (Age, RunTime, WaitTime), so one 1 s timer keeps every view current cheaply.
/// The queue position is FIFO within a project (creation time, then name): a preempted job keeps
/// its original place, so it is re-run first (SCHEDULING.md R9).
class JobTableModel final : public KeyedTableModel<core::Job>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobTableModel)

public:
    enum Column
    {
        Name,
        Status,
        Age, ///< since creation
        Node,
        Image,
        Type,
        Project,
        User,
        Gpus,         ///< allocated while bound, else requested; RawValueRole milli-GPUs
        CreatedByCli, ///< "Yes" / "No"
        RunTime,      ///< current run (or the finished run), empty while queued
        GpuUtilization,
        WaitTime,      ///< since creation, only while queued
        PendingReason, ///< why it waits
        QueuePosition, ///< 1-based FIFO position in its project's queue, empty when not queued
        Source,
        ColumnCount
    };

    using Clock = std::function<QDateTime()>;

    /// `now` is the engine's clock (IClock::now, UTC) the ages are counted to; required.
    JobTableModel(core::Estate &estate, Clock now, QObject *parent = nullptr);

    /// Re-reads the clock; emits dataChanged for Age, RunTime and WaitTime of every row.
    void tick();
    [[nodiscard]] QDateTime now() const { return m_now; }

    /// 1-based FIFO position of a queued job within its project, 0 when not queued.
    [[nodiscard]] int queuePosition(const QString &key) const { return m_queuePosition.value(key, 0); }
    /// Every queued job's queuePosition() by estate key (implicitly shared: a copy is a snapshot).
    [[nodiscard]] const QHash<QString, int> &queuePositions() const { return m_queuePosition; }
    /// Queued jobs per "<source>/<project>".
    [[nodiscard]] QHash<QString, int> queuedCounts() const;

    /// Pending or preempted: waiting for GPUs.
    static bool isQueued(core::JobStatus status);
    /// Bound to a node (running or container creating).
    static bool isActive(core::JobStatus status);
    /// "Running", "Pending", "Preempted", "ContainerCreating", ... as kubectl/runai print them.
    static QString statusText(core::JobStatus status);
    /// StatusRole value: "running", "pending", "preempted", "starting", "succeeded", "failed",
    /// "unknown". The Status column of a job whose container fails (Job::failureReason) shows
    /// that word ("ImagePullBackOff") as "failed" instead, with the kubelet's message as tooltip.
    static QString statusKey(core::JobStatus status);
    /// "45s", "3m 12s", "2h 05m", "3d 04h" (kubectl-like ages); empty for negative.
    static QString formatDuration(qint64 seconds);

    /// Seconds since creation; -1 when unknown.
    static qint64 ageSeconds(const core::Job &job, const QDateTime &now);
    /// Seconds of the current (or finished) run; -1 when it has not started.
    static qint64 runSeconds(const core::Job &job, const QDateTime &now);
    /// Seconds waited so far while queued; -1 when not queued.
    static qint64 waitSeconds(const core::Job &job, const QDateTime &now);
    /// GPUs the Gpus column shows: allocated while bound and holding some, else requested.
    static core::MilliGpu shownGpus(const core::Job &job);
    /// The Type column's text: "Interactive" or "Train" (translated).
    static QString typeText(core::JobType type);
    /// The PendingReason column's text: why a queued or failing job waits, else empty.
    static QString reasonText(const core::Job &job);
    /// FilterTextRole: name, project, user, node, image, namespace and source, space-separated.
    static QString filterText(const core::Job &job);

private:
    QVariant recordData(const core::Job &record, const QModelIndex &index, int role) const override;
    std::optional<QVariant> sortData(const core::Job &record, int column) const override;
    QVariant displayData(const core::Job &record, int column) const override;
    QStringList columnTitles() const override;
    QString columnToolTip(int section) const override;

    void apply(const core::JobDiff &diff);
    void updateQueuePositions();

    Clock m_clock;
    QDateTime m_now;
    QHash<QString, int> m_queuePosition;
};

} // namespace strata::models
