#pragma once

#include "models/core/estate.h"
#include "models/item/keyedtablemodel.h"

namespace strata::models {

/// Events of every source (ONTAP EMS), updated by estate diffs.
class EventTableModel final : public KeyedTableModel<core::Event>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EventTableModel)

public:
    enum Column
    {
        Time,
        Severity,
        Source,
        Name,
        Message,
        ColumnCount
    };

    explicit EventTableModel(core::Estate &estate, QObject *parent = nullptr);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Severity rank for sorting: emergency 0 ... debug 5, unknown 6.
    static int severityRank(const QString &severity);
};

} // namespace strata::models
