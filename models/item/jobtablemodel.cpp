#include "models/item/jobtablemodel.h"

#include "models/item/roles.h"

#include <tuple>

namespace strata::models {

JobTableModel::JobTableModel(core::Estate &estate, Clock now, QObject *parent)
    : KeyedTableModel(ColumnCount, parent)
    , m_clock(std::move(now))
    , m_now(m_clock())
{
    setNumericColumns({Age, Gpus, RunTime, GpuUtilization, WaitTime, QueuePosition});
    follow(estate.jobs(), &estate, &core::Estate::jobsChanged, [this](const core::JobDiff &diff) {
        apply(diff);
    });
}

bool JobTableModel::isQueued(core::JobStatus status)
{
    return status == core::JobStatus::Pending || status == core::JobStatus::Preempted;
}

bool JobTableModel::isActive(core::JobStatus status)
{
    return status == core::JobStatus::Running || status == core::JobStatus::ContainerCreating;
}

QString JobTableModel::statusText(core::JobStatus status)
{
    switch (status) {
    case core::JobStatus::Pending:
        return tr("Pending");
    case core::JobStatus::Preempted:
        return tr("Preempted");
    case core::JobStatus::ContainerCreating:
        return tr("ContainerCreating");
    case core::JobStatus::Running:
        return tr("Running");
    case core::JobStatus::Succeeded:
        return tr("Succeeded");
    case core::JobStatus::Failed:
        return tr("Failed");
    case core::JobStatus::Unknown:
        break;
    }
    return tr("Unknown");
}

QString JobTableModel::statusKey(core::JobStatus status)
{
    switch (status) {
    case core::JobStatus::Pending:
        return QStringLiteral("pending");
    case core::JobStatus::Preempted:
        return QStringLiteral("preempted");
    case core::JobStatus::ContainerCreating:
        return QStringLiteral("starting");
    case core::JobStatus::Running:
        return QStringLiteral("running");
    case core::JobStatus::Succeeded:
        return QStringLiteral("succeeded");
    case core::JobStatus::Failed:
        return QStringLiteral("failed");
    case core::JobStatus::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QString JobTableModel::formatDuration(qint64 seconds)
{
    if (seconds < 0) {
        return {};
    }
    const qint64 days = seconds / 86400;
    const qint64 hours = seconds % 86400 / 3600;
    const qint64 minutes = seconds % 3600 / 60;
    const qint64 secs = seconds % 60;
    auto two = [](qint64 v) {
        return QString::number(v).rightJustified(2, QLatin1Char('0'));
    };
    if (days > 0) {
        return tr("%1d %2h").arg(days).arg(two(hours));
    }
    if (hours > 0) {
        return tr("%1h %2m").arg(hours).arg(two(minutes));
    }
    if (minutes > 0) {
        return tr("%1m %2s").arg(minutes).arg(two(secs));
    }
    return tr("%1s").arg(secs);
}

qint64 JobTableModel::ageSeconds(const core::Job &job, const QDateTime &now)
{
    return job.created.isValid() ? std::max<qint64>(0, job.created.secsTo(now)) : -1;
}

qint64 JobTableModel::runSeconds(const core::Job &job, const QDateTime &now)
{
    if (!job.started.isValid()) {
        return -1;
    }
    const QDateTime end = job.finished.isValid() ? job.finished : now;
    return std::max<qint64>(0, job.started.secsTo(end));
}

qint64 JobTableModel::waitSeconds(const core::Job &job, const QDateTime &now)
{
    return isQueued(job.status) ? ageSeconds(job, now) : -1;
}

core::MilliGpu JobTableModel::shownGpus(const core::Job &job)
{
    return isActive(job.status) && job.gpusAllocated > 0 ? job.gpusAllocated : job.gpusRequested;
}

QString JobTableModel::typeText(core::JobType type)
{
    return type == core::JobType::Interactive ? tr("Interactive") : tr("Train");
}

QString JobTableModel::reasonText(const core::Job &job)
{
    return isQueued(job.status) || !job.failureReason.isEmpty() ? job.pendingReason : QString();
}

QString JobTableModel::filterText(const core::Job &job)
{
    return QStringList{job.name, job.project, job.user, job.node, job.image, job.namespaceName, job.source}.join(
        QLatin1Char(' '));
}

QHash<QString, int> JobTableModel::queuedCounts() const
{
    QHash<QString, int> counts;
    for (const core::Ptr<core::Job> &job : m_rows) {
        if (isQueued(job->status)) {
            ++counts[job->source + QLatin1Char('/') + job->project];
        }
    }
    return counts;
}

void JobTableModel::tick()
{
    m_now = m_clock();
    if (m_rows.empty()) {
        return;
    }
    const int last = rowCount() - 1;
    for (int column : {int(Age), int(RunTime), int(WaitTime)}) {
        Q_EMIT dataChanged(index(0, column), index(last, column), {Qt::DisplayRole, RawValueRole});
    }
}

void JobTableModel::apply(const core::JobDiff &diff)
{
    applyDiff(diff);
    updateQueuePositions();
}

void JobTableModel::updateQueuePositions()
{
    std::vector<const core::Job *> queued;
    for (const core::Ptr<core::Job> &job : m_rows) {
        if (isQueued(job->status)) {
            queued.push_back(job.get());
        }
    }
    std::sort(queued.begin(), queued.end(), [](const core::Job *a, const core::Job *b) {
        return std::tie(a->source, a->project, a->created, a->name)
               < std::tie(b->source, b->project, b->created, b->name);
    });
    QHash<QString, int> next;
    int position = 0;
    for (std::size_t i = 0; i < queued.size(); ++i) {
        const bool sameProject =
            i > 0 && queued[i]->source == queued[i - 1]->source && queued[i]->project == queued[i - 1]->project;
        position = sameProject ? position + 1 : 1;
        next.insert(core::estateKey(*queued[i]), position);
    }
    std::vector<int> rows;
    for (auto it = next.cbegin(); it != next.cend(); ++it) {
        if (m_queuePosition.value(it.key()) != it.value()) {
            rows.push_back(rowOf(it.key()));
        }
    }
    for (auto it = m_queuePosition.cbegin(); it != m_queuePosition.cend(); ++it) {
        if (!next.contains(it.key()) && rowOf(it.key()) >= 0) {
            rows.push_back(rowOf(it.key()));
        }
    }
    m_queuePosition = std::move(next);
    emitChanged(std::move(rows), QueuePosition, QueuePosition);
}

QVariant JobTableModel::recordData(const core::Job &job, const QModelIndex &index, int role) const
{
    const int column = index.column();
    switch (role) {
    case ProjectRole:
        return job.project;
    case JobStatusRole:
        return int(job.status);
    case FilterTextRole:
        return filterText(job);
    case StatusRole:
        if (column == Status) {
            return job.failureReason.isEmpty() ? statusKey(job.status) : QStringLiteral("failed");
        }
        if (column == PendingReason && job.status == core::JobStatus::Preempted) {
            return QStringLiteral("warning");
        }
        return job.status == core::JobStatus::Failed ? QStringLiteral("failed") : QStringLiteral("ok");
    case Qt::ToolTipRole:
        if (column == PendingReason || column == Status) {
            return job.pendingReason.isEmpty() ? QVariant() : QVariant(job.pendingReason);
        }
        if (column == Image) {
            return job.image;
        }
        if (column == Node && !job.gpuIndices.isEmpty()) {
            return tr("GPU %1 on %2").arg(job.gpuIndices, job.node);
        }
        return {};
    default:
        return {};
    }
}

std::optional<QVariant> JobTableModel::sortData(const core::Job &job, int column) const
{
    switch (column) {
    case Status:
        return int(job.status);
    case Age:
        return ageSeconds(job, m_now);
    case Gpus:
        return shownGpus(job);
    case CreatedByCli:
        return job.createdByCli;
    case RunTime:
        return runSeconds(job, m_now);
    case GpuUtilization:
        return job.gpuUtilization;
    case WaitTime:
        return waitSeconds(job, m_now);
    case QueuePosition:
        return queuePosition(core::estateKey(job));
    default:
        return std::nullopt;
    }
}

QVariant JobTableModel::displayData(const core::Job &job, int column) const
{
    switch (column) {
    case Name:
        return job.name;
    case Status:
        return job.failureReason.isEmpty() ? statusText(job.status) : job.failureReason;
    case Age:
        return formatDuration(ageSeconds(job, m_now));
    case Node:
        return job.node;
    case Image:
        return job.image;
    case Type:
        return typeText(job.type);
    case Project:
        return job.project;
    case User:
        return job.user;
    case Gpus:
        return core::formatGpus(shownGpus(job));
    case CreatedByCli:
        return job.createdByCli ? tr("Yes") : tr("No");
    case RunTime:
        return formatDuration(runSeconds(job, m_now));
    case GpuUtilization:
        return job.gpuUtilization >= 0 && isActive(job.status)
                   ? QString(QString::number(job.gpuUtilization, 'f', 0) + QStringLiteral(" %"))
                   : QString();
    case WaitTime:
        return formatDuration(waitSeconds(job, m_now));
    case PendingReason:
        return reasonText(job);
    case QueuePosition: {
        const int position = queuePosition(core::estateKey(job));
        return position > 0 ? QString::number(position) : QString();
    }
    case Source:
        return job.source;
    default:
        return {};
    }
}

QStringList JobTableModel::columnTitles() const
{
    return {tr("Name"),
            tr("Status"),
            tr("Age"),
            tr("Node"),
            tr("Image"),
            tr("Type"),
            tr("Project"),
            tr("User"),
            tr("GPUs"),
            tr("Created by CLI"),
            tr("Run time"),
            tr("GPU util."),
            tr("Wait time"),
            tr("Reason"),
            tr("Queue #"),
            tr("Cluster")};
}

QString JobTableModel::columnToolTip(int section) const
{
    switch (section) {
    case Gpus:
        return tr("GPUs allocated while the job holds them, else GPUs requested; fractions share one GPU");
    case QueuePosition:
        return tr("Place in its project's queue: first come, first served; preempted jobs keep their place");
    case WaitTime:
        return tr("Time since the job was submitted, while it waits");
    default:
        return {};
    }
}

} // namespace strata::models
