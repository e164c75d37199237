#include "models/item/projecttablemodel.h"

#include "models/item/roles.h"

namespace strata::models {

ProjectTableModel::ProjectTableModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(ColumnCount, parent)
{
    setNumericColumns({Allocation,
                       Quota,
                       Allocated,
                       InQuota,
                       OverQuota,
                       Pending,
                       FairShare,
                       Running,
                       Queued,
                       Utilization,
                       IdleAllocated});
    follow(estate.projects(), &estate, &core::Estate::projectsChanged);
}

QString ProjectTableModel::allocationText(const core::Project &project)
{
    return core::formatGpus(project.allocated) + QLatin1Char('/')
           + (project.quota < 0 ? tr("none") : core::formatGpus(project.quota));
}

QVariant ProjectTableModel::recordData(const core::Project &p, const QModelIndex &index, int role) const
{
    const int column = index.column();
    switch (role) {
    case ProjectRole:
        return p.name;
    case FilterTextRole:
        return QString(p.name + QLatin1Char(' ') + p.namespaceName + QLatin1Char(' ') + p.source);
    case StatusRole:
        if ((column == OverQuota || column == Allocation) && p.overQuota > 0) {
            return QStringLiteral("warning");
        }
        if (column == Queued && p.queuedJobs > 0) {
            return QStringLiteral("warning");
        }
        return QStringLiteral("ok");
    case Qt::ToolTipRole:
        switch (column) {
        case Allocation:
            return tr("%1 GPUs allocated of a %2 GPU quota: %3 in quota, %4 over quota")
                .arg(core::formatGpus(p.allocated),
                     p.quota < 0 ? tr("no") : core::formatGpus(p.quota),
                     core::formatGpus(p.inQuota),
                     core::formatGpus(p.overQuota));
        case OverQuota:
            return tr("Training jobs running over the quota may be preempted when another project reclaims its quota");
        case FairShare:
            return tr("Water-filling share of the cluster from quotas and current demand");
        case Name:
            return p.namespaceName.isEmpty() ? QVariant() : QVariant(tr("Namespace %1").arg(p.namespaceName));
        default:
            return {};
        }
    default:
        return {};
    }
}

std::optional<QVariant> ProjectTableModel::sortData(const core::Project &p, int column) const
{
    switch (column) {
    case Allocation:
    case Allocated:
        return p.allocated;
    case Quota:
        return p.quota;
    case InQuota:
        return p.inQuota;
    case OverQuota:
        return p.overQuota;
    case Pending:
        return p.pending;
    case FairShare:
        return p.fairShare;
    case Running:
        return p.runningJobs;
    case Queued:
        return p.queuedJobs;
    case Utilization:
        return p.utilization;
    case IdleAllocated:
        return p.idleAllocated;
    default:
        return std::nullopt;
    }
}

QVariant ProjectTableModel::displayData(const core::Project &p, int column) const
{
    auto percent = [](double value) {
        return value >= 0 ? QString(QString::number(value, 'f', 0) + QStringLiteral(" %")) : QString();
    };
    switch (column) {
    case Name:
        return p.name;
    case Source:
        return p.source;
    case Allocation:
        return allocationText(p);
    case Quota:
        return p.quota < 0 ? tr("none") : core::formatGpus(p.quota);
    case Allocated:
        return core::formatGpus(p.allocated);
    case InQuota:
        return core::formatGpus(p.inQuota);
    case OverQuota:
        return core::formatGpus(p.overQuota);
    case Pending:
        return core::formatGpus(p.pending);
    case FairShare:
        return core::formatGpus(p.fairShare);
    case Running:
        return p.runningJobs;
    case Queued:
        return p.queuedJobs;
    case Utilization:
        return percent(p.utilization);
    case IdleAllocated:
        return core::formatGpus(p.idleAllocated);
    default:
        return {};
    }
}

QStringList ProjectTableModel::columnTitles() const
{
    return {tr("Project"),
            tr("Cluster"),
            tr("Allocated/Quota"),
            tr("Quota"),
            tr("Allocated"),
            tr("In quota"),
            tr("Over quota"),
            tr("Pending GPUs"),
            tr("Fair share"),
            tr("Running"),
            tr("Queued"),
            tr("GPU util."),
            tr("Idle allocated")};
}

} // namespace strata::models
