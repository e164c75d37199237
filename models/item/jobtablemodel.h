#pragma once

#include "models/core/domain/estate.h"
#include "models/core/domain/records.h"
#include "models/core/planning/jobfields.h"
#include "models/item/keyedtablemodel.h"

#include <functional>

namespace strata::models {

/// Every job (workload) of every Kubernetes source, updated by estate diffs (never a reset on a
/// poll). The columns are the Desktop fields of core::kJobFields, in its order, which follows the
/// Run:ai job list (SCHEDULING.md 3.3): NAME, STATUS, AGE, NODE, IMAGE, TYPE, PROJECT, USER,
/// GPUs, CREATED BY CLI, then run time, GPU utilization, wait time, reason, queue position and
/// cluster. Display text, sort value (RawValueRole), title and header tooltip are the field's,
/// so a cell reads as `strata get jobs` and the web console show it. Both the running and the
/// queued table of the Jobs page are proxies over this one model.
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
    // The columns the views address, from the field list.
    static constexpr int Name = core::fieldColumn(core::jobFields(), "name", core::Desktop);
    /// kubectl's word ("Running"), or the failing container's ("ImagePullBackOff")
    static constexpr int Status = core::fieldColumn(core::jobFields(), "status", core::Desktop);
    static constexpr int Age = core::fieldColumn(core::jobFields(), "age_seconds", core::Desktop); ///< since creation
    static constexpr int Node = core::fieldColumn(core::jobFields(), "node", core::Desktop);
    static constexpr int Image = core::fieldColumn(core::jobFields(), "image", core::Desktop);
    static constexpr int Type = core::fieldColumn(core::jobFields(), "type", core::Desktop);
    static constexpr int Project = core::fieldColumn(core::jobFields(), "project", core::Desktop);
    static constexpr int User = core::fieldColumn(core::jobFields(), "user", core::Desktop);
    /// GPUs requested (RawValueRole: GPUs, a double)
    static constexpr int Gpus = core::fieldColumn(core::jobFields(), "gpus_requested", core::Desktop);
    static constexpr int CreatedByCli = core::fieldColumn(core::jobFields(), "created_by_cli", core::Desktop);
    /// current run (or the finished run); a dash while queued
    static constexpr int RunTime = core::fieldColumn(core::jobFields(), "run_seconds", core::Desktop);
    static constexpr int GpuUtilization = core::fieldColumn(core::jobFields(), "gpu_utilization", core::Desktop);
    /// since creation, only while queued
    static constexpr int WaitTime = core::fieldColumn(core::jobFields(), "wait_seconds", core::Desktop);
    /// the failing container's word, else why a queued job waits (core::jobReason)
    static constexpr int PendingReason = core::fieldColumn(core::jobFields(), "reason", core::Desktop);
    /// 1-based FIFO position in its project's queue; a dash when not queued
    static constexpr int QueuePosition = core::fieldColumn(core::jobFields(), "queue_position", core::Desktop);
    static constexpr int Source = core::fieldColumn(core::jobFields(), "source", core::Desktop);
    static constexpr int ColumnCount = core::fieldCount(core::jobFields(), core::Desktop);

    /// The field shown in `column`, or nullptr.
    static const core::Field<core::JobRow> *field(int column)
    {
        return core::fieldAt(core::jobFields(), column, core::Desktop);
    }

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
    /// core::jobStatusWord(): "Running", "Pending", "ContainerCreating", ... as kubectl prints them
    /// and the Status column shows them (so the status filter offers the words the column shows).
    static QString statusText(core::JobStatus status);
    /// StatusRole value: "running", "pending", "preempted", "starting", "succeeded", "failed",
    /// "unknown". The Status column of a job whose container fails (Job::failureReason) shows
    /// that word ("ImagePullBackOff") as "failed" instead, with the kubelet's message as tooltip.
    static QString statusKey(core::JobStatus status);
    /// "45s", "3m 12s", "2h 05m", "3d 04h" (core::formatDuration); empty for negative.
    static QString formatDuration(qint64 seconds);

    /// Seconds since creation; -1 when unknown (core::jobAgeSeconds).
    static qint64 ageSeconds(const core::Job &job, const QDateTime &now);
    /// Seconds of the current (or finished) run; -1 when it has not started.
    static qint64 runSeconds(const core::Job &job, const QDateTime &now);
    /// Seconds waited so far while queued; -1 when not queued.
    static qint64 waitSeconds(const core::Job &job, const QDateTime &now);
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
    [[nodiscard]] core::JobRow joined(const core::Job &job) const;

    Clock m_clock;
    QDateTime m_now;
    QHash<QString, int> m_queuePosition;
};

} // namespace strata::models
