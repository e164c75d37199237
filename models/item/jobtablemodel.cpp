#include "models/item/jobtablemodel.h"

#include "models/item/roles.h"

#include <tuple>

namespace strata::models {

JobTableModel::JobTableModel(core::Estate &estate, Clock now, QObject *parent)
    : KeyedTableModel(ColumnCount, parent)
    , m_clock(std::move(now))
    , m_now(m_clock())
{
    for (int c = 0; c < ColumnCount; ++c) {
        if (core::isNumericField(field(c)->kind)) {
            setNumericColumns({c});
        }
    }
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
    return core::jobStatusWord(status);
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
    return seconds < 0 ? QString() : core::formatDuration(seconds);
}

qint64 JobTableModel::ageSeconds(const core::Job &job, const QDateTime &now)
{
    return core::jobAgeSeconds(job, now);
}

qint64 JobTableModel::runSeconds(const core::Job &job, const QDateTime &now)
{
    return core::jobRunSeconds(job, now);
}

qint64 JobTableModel::waitSeconds(const core::Job &job, const QDateTime &now)
{
    return core::jobWaitSeconds(job, now);
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
    for (int column = 0; column < ColumnCount; ++column) {
        if (core::isJobTimeField(*field(column))) {
            Q_EMIT dataChanged(index(0, column), index(last, column), {Qt::DisplayRole, RawValueRole});
        }
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

core::JobRow JobTableModel::joined(const core::Job &job) const
{
    return {job, m_now, queuePosition(core::estateKey(job))};
}

std::optional<QVariant> JobTableModel::sortData(const core::Job &job, int column) const
{
    const core::Field<core::JobRow> *f = field(column);
    return f ? std::optional<QVariant>(core::fieldValue(*f, joined(job))) : std::nullopt;
}

QVariant JobTableModel::displayData(const core::Job &job, int column) const
{
    const core::Field<core::JobRow> *f = field(column);
    return f ? QVariant(core::fieldText(*f, joined(job))) : QVariant();
}

QStringList JobTableModel::columnTitles() const
{
    QStringList titles;
    for (int c = 0; c < ColumnCount; ++c) {
        titles.append(core::fieldTitle(field(c)->title));
    }
    return titles;
}

QString JobTableModel::columnToolTip(int section) const
{
    const core::Field<core::JobRow> *f = field(section);
    return f && *f->help ? core::fieldTitle(f->help) : QString();
}

} // namespace strata::models
