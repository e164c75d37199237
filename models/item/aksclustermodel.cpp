#include "models/item/aksclustermodel.h"

#include "models/item/roles.h"

namespace strata::models {

AksClusterModel::AksClusterModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(parent)
{
    core::AksClusterDiff initial;
    initial.added = estate.aksClusters().all();
    applyDiff(initial);
    connect(&estate, &core::Estate::aksClustersChanged, this, [this](const core::AksClusterDiff &diff) {
        applyDiff(diff);
    });
}

int AksClusterModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AksClusterModel::data(const QModelIndex &index, int role) const
{
    const core::AksCluster *c = recordAt(index.row());
    if (!c || index.column() < 0 || index.column() >= ColumnCount) {
        return {};
    }
    switch (role) {
    case KeyRole:
        return core::estateKey(*c);
    case SourceRole:
        return c->source;
    case IdRole:
        return c->id;
    case StatusRole:
        if (index.column() == State) {
            if (c->powerState.compare(QLatin1String("Running"), Qt::CaseInsensitive) == 0
                && (c->provisioningState.isEmpty()
                    || c->provisioningState.compare(QLatin1String("Succeeded"), Qt::CaseInsensitive) == 0)) {
                return QStringLiteral("ok");
            }
            return c->powerState.compare(QLatin1String("Stopped"), Qt::CaseInsensitive) == 0
                       ? QStringLiteral("offline")
                       : QStringLiteral("warning");
        }
        return QStringLiteral("ok");
    case Qt::ToolTipRole:
        if (index.column() == Name) {
            return c->fqdn.isEmpty() ? c->armId : c->fqdn;
        }
        if (index.column() == AgentPools) {
            return c->agentPools.join(QLatin1Char('\n'));
        }
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == Nodes ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case RawValueRole:
        if (index.column() == Nodes) {
            return c->nodeCount;
        }
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name:
            return c->name;
        case Source:
            return c->source;
        case ResourceGroup:
            return c->resourceGroup;
        case Location:
            return c->location;
        case Version:
            return c->kubernetesVersion;
        case Nodes:
            return c->nodeCount;
        case AgentPools:
            return c->agentPools.join(QStringLiteral("; "));
        case State:
            return c->powerState.isEmpty() ? c->provisioningState : c->powerState;
        case KubernetesSource:
            return c->kubernetesSource.isEmpty() ? m_added.value(core::estateKey(*c)) : c->kubernetesSource;
        default:
            return {};
        }
    default:
        return {};
    }
}

void AksClusterModel::setAddedSources(const QHash<QString, QString> &added)
{
    std::vector<int> rows;
    for (int row = 0; row < rowCount(); ++row) {
        const QString key = core::estateKey(*recordAt(row));
        if (added.value(key) != m_added.value(key)) {
            rows.push_back(row);
        }
    }
    m_added = added;
    emitChanged(std::move(rows), KubernetesSource, KubernetesSource);
}

QString AksClusterModel::addedSource(const QString &key) const
{
    return m_added.value(key);
}

QVariant AksClusterModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Name:
        return tr("AKS cluster");
    case Source:
        return tr("Azure source");
    case ResourceGroup:
        return tr("Resource group");
    case Location:
        return tr("Location");
    case Version:
        return tr("Kubernetes");
    case Nodes:
        return tr("Nodes");
    case AgentPools:
        return tr("Node pools");
    case State:
        return tr("State");
    case KubernetesSource:
        return tr("Added as");
    default:
        return {};
    }
}

} // namespace strata::models
