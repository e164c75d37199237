#include "models/item/projecttablemodel.h"

#include "models/item/roles.h"

namespace strata::models {

ProjectTableModel::ProjectTableModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(parent)
{
    core::ProjectDiff initial;
    initial.added = estate.projects().all();
    applyDiff(initial);
    connect(&estate, &core::Estate::projectsChanged, this, [this](const core::ProjectDiff &diff) {
        applyDiff(diff);
    });
}

int ProjectTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ProjectTableModel::allocationText(const core::Project &project)
{
    return core::formatGpus(project.allocated) + QLatin1Char('/')
           + (project.quota < 0 ? tr("none") : core::formatGpus(project.quota));
}

QVariant ProjectTableModel::data(const QModelIndex &index, int role) const
{
    const core::Project *p = recordAt(index.row());
    if (!p || index.column() < 0 || index.column() >= ColumnCount) {
        return {};
    }
    const int column = index.column();
    auto percent = [](double value) {
        return value >= 0 ? QString(QString::number(value, 'f', 0) + QStringLiteral(" %")) : QString();
    };
    switch (role) {
    case KeyRole:
        return core::estateKey(*p);
    case SourceRole:
        return p->source;
    case IdRole:
        return p->id;
    case ProjectRole:
        return p->name;
    case FilterTextRole:
        return QString(p->name + QLatin1Char(' ') + p->namespaceName + QLatin1Char(' ') + p->source);
    case StatusRole:
        if ((column == OverQuota || column == Allocation) && p->overQuota > 0) {
            return QStringLiteral("warning");
        }
        if (column == Queued && p->queuedJobs > 0) {
            return QStringLiteral("warning");
        }
        return QStringLiteral("ok");
    case Qt::ToolTipRole:
        switch (column) {
        case Allocation:
            return tr("%1 GPUs allocated of a %2 GPU quota: %3 in quota, %4 over quota")
                .arg(core::formatGpus(p->allocated),
                     p->quota < 0 ? tr("no") : core::formatGpus(p->quota),
                     core::formatGpus(p->inQuota),
                     core::formatGpus(p->overQuota));
        case OverQuota:
            return tr("Training jobs running over the quota may be preempted when another project reclaims its quota");
        case FairShare:
            return tr("Water-filling share of the cluster from quotas and current demand");
        case Name:
            return p->namespaceName.isEmpty() ? QVariant() : QVariant(tr("Namespace %1").arg(p->namespaceName));
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        return column == Name || column == Source ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case RawValueRole:
        switch (column) {
        case Allocation:
        case Allocated:
            return p->allocated;
        case Quota:
            return p->quota;
        case InQuota:
            return p->inQuota;
        case OverQuota:
            return p->overQuota;
        case Pending:
            return p->pending;
        case FairShare:
            return p->fairShare;
        case Running:
            return p->runningJobs;
        case Queued:
            return p->queuedJobs;
        case Utilization:
            return p->utilization;
        case IdleAllocated:
            return p->idleAllocated;
        default:
            break;
        }
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (column) {
        case Name:
            return p->name;
        case Source:
            return p->source;
        case Allocation:
            return allocationText(*p);
        case Quota:
            return p->quota < 0 ? tr("none") : core::formatGpus(p->quota);
        case Allocated:
            return core::formatGpus(p->allocated);
        case InQuota:
            return core::formatGpus(p->inQuota);
        case OverQuota:
            return core::formatGpus(p->overQuota);
        case Pending:
            return core::formatGpus(p->pending);
        case FairShare:
            return core::formatGpus(p->fairShare);
        case Running:
            return p->runningJobs;
        case Queued:
            return p->queuedJobs;
        case Utilization:
            return percent(p->utilization);
        case IdleAllocated:
            return core::formatGpus(p->idleAllocated);
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant ProjectTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Name:
        return tr("Project");
    case Source:
        return tr("Cluster");
    case Allocation:
        return tr("Allocated/Quota");
    case Quota:
        return tr("Quota");
    case Allocated:
        return tr("Allocated");
    case InQuota:
        return tr("In quota");
    case OverQuota:
        return tr("Over quota");
    case Pending:
        return tr("Pending GPUs");
    case FairShare:
        return tr("Fair share");
    case Running:
        return tr("Running");
    case Queued:
        return tr("Queued");
    case Utilization:
        return tr("GPU util.");
    case IdleAllocated:
        return tr("Idle allocated");
    default:
        return {};
    }
}

} // namespace strata::models
