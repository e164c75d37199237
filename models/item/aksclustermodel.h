#pragma once

#include "models/core/domain/estate.h"
#include "models/core/domain/records.h"
#include "models/item/keyedtablemodel.h"

namespace strata::models {

/// The AKS clusters of every Azure source (Estate::aksClusters()), updated by estate diffs,
/// for the Sources page's "Clusters in Azure" list.
class AksClusterModel final : public KeyedTableModel<core::AksCluster>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AksClusterModel)

public:
    enum Column
    {
        Name,
        Source,
        ResourceGroup,
        Location,
        Version,
        Nodes,
        AgentPools,       ///< "gpupool: 3 x Standard_NC6s_v3; …"
        State,            ///< power state, else provisioning state
        KubernetesSource, ///< the Strata source added from it, empty = none
        ColumnCount
    };

    explicit AksClusterModel(core::Estate &estate, QObject *parent = nullptr);

    /// Kubernetes sources Strata added from clusters, by estate key "<source>/<cluster id>", for
    /// the "Added as" column when the record itself does not name one.
    void setAddedSources(const QHash<QString, QString> &added);
    [[nodiscard]] QString addedSource(const QString &key) const;

private:
    QVariant recordData(const core::AksCluster &record, const QModelIndex &index, int role) const override;
    std::optional<QVariant> sortData(const core::AksCluster &record, int column) const override;
    QVariant displayData(const core::AksCluster &record, int column) const override;
    QStringList columnTitles() const override;

    QHash<QString, QString> m_added;
};

} // namespace strata::models
