#pragma once

#include "models/core/domain/estate.h"
#include "models/core/domain/records.h"
#include "models/item/keyedtablemodel.h"

namespace strata::models {

/// Every project (KAI queue or namespace GPU quota) of every Kubernetes source, updated by
/// estate diffs. GPU columns show the document's decimals ("0.6") and keep milli-GPUs in
/// RawValueRole; Allocation is the TR-4858 "allocated/quota" notation ("8/4").
class ProjectTableModel final : public KeyedTableModel<core::Project>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProjectTableModel)

public:
    enum Column
    {
        Name,
        Source,
        Allocation, ///< "allocated/quota", e.g. "8/4"
        Quota,      ///< guaranteed GPUs; "none" when not set
        Allocated,
        InQuota,
        OverQuota, ///< StatusRole "warning" when > 0 (those jobs may be preempted)
        Pending,   ///< GPUs requested by queued jobs
        FairShare,
        Running, ///< running jobs
        Queued,  ///< queued jobs (the "Workloads Queued" column)
        Utilization,
        IdleAllocated,
        ColumnCount
    };

    explicit ProjectTableModel(core::Estate &estate, QObject *parent = nullptr);

    /// "8/4", "0.6/2", "3/none" (SCHEDULING.md 3.2.1 allocated/quota with decimals).
    static QString allocationText(const core::Project &project);

private:
    QVariant recordData(const core::Project &record, const QModelIndex &index, int role) const override;
    std::optional<QVariant> sortData(const core::Project &record, int column) const override;
    QVariant displayData(const core::Project &record, int column) const override;
    QStringList columnTitles() const override;
};

} // namespace strata::models
