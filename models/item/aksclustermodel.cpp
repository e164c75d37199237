#include "models/item/aksclustermodel.h"

#include "models/item/roles.h"

namespace strata::models {

AksClusterModel::AksClusterModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(ColumnCount, parent)
{
    setNumericColumns({Nodes});
    follow(estate.aksClusters(), &estate, &core::Estate::aksClustersChanged);
}

QVariant AksClusterModel::recordData(const core::AksCluster &c, const QModelIndex &index, int role) const
{
    switch (role) {
    case StatusRole:
        if (index.column() == State) {
            if (c.powerState.compare(QLatin1String("Running"), Qt::CaseInsensitive) == 0
                && (c.provisioningState.isEmpty()
                    || c.provisioningState.compare(QLatin1String("Succeeded"), Qt::CaseInsensitive) == 0)) {
                return QStringLiteral("ok");
            }
            return c.powerState.compare(QLatin1String("Stopped"), Qt::CaseInsensitive) == 0 ? QStringLiteral("offline")
                                                                                            : QStringLiteral("warning");
        }
        return QStringLiteral("ok");
    case Qt::ToolTipRole:
        if (index.column() == Name) {
            return c.fqdn.isEmpty() ? c.armId : c.fqdn;
        }
        if (index.column() == AgentPools) {
            return c.agentPools.join(QLatin1Char('\n'));
        }
        return {};
    default:
        return {};
    }
}

std::optional<QVariant> AksClusterModel::sortData(const core::AksCluster &c, int column) const
{
    return column == Nodes ? std::optional<QVariant>(c.nodeCount) : std::nullopt;
}

QVariant AksClusterModel::displayData(const core::AksCluster &c, int column) const
{
    switch (column) {
    case Name:
        return c.name;
    case Source:
        return c.source;
    case ResourceGroup:
        return c.resourceGroup;
    case Location:
        return c.location;
    case Version:
        return c.kubernetesVersion;
    case Nodes:
        return c.nodeCount;
    case AgentPools:
        return c.agentPools.join(QStringLiteral("; "));
    case State:
        return c.powerState.isEmpty() ? c.provisioningState : c.powerState;
    case KubernetesSource:
        return c.kubernetesSource.isEmpty() ? m_added.value(core::estateKey(c)) : c.kubernetesSource;
    default:
        return {};
    }
}

void AksClusterModel::setAddedSources(const QHash<QString, QString> &added)
{
    std::vector<int> rows = rowsWhere([&](const core::AksCluster &c) {
        const QString key = core::estateKey(c);
        return added.value(key) != m_added.value(key);
    });
    m_added = added;
    emitChanged(std::move(rows), KubernetesSource, KubernetesSource);
}

QString AksClusterModel::addedSource(const QString &key) const
{
    return m_added.value(key);
}

QStringList AksClusterModel::columnTitles() const
{
    return {tr("AKS cluster"),
            tr("Azure source"),
            tr("Resource group"),
            tr("Location"),
            tr("Kubernetes"),
            tr("Nodes"),
            tr("Node pools"),
            tr("State"),
            tr("Added as")};
}

} // namespace strata::models
