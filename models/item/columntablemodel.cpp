#include "models/item/columntablemodel.h"

#include <algorithm>

namespace strata::models {

ColumnTableModel::ColumnTableModel(int columns, QObject *parent)
    : QAbstractTableModel(parent)
    , m_columns(columns)
    , m_numeric(std::size_t(std::max(columns, 0)), false)
{}

int ColumnTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_columns;
}

QVariant ColumnTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= m_columns) {
        return {};
    }
    if (role == Qt::DisplayRole) {
        const QStringList titles = columnTitles();
        Q_ASSERT(titles.size() == m_columns);
        return titles.value(section);
    }
    if (role == Qt::ToolTipRole) {
        const QString tip = columnToolTip(section);
        return tip.isEmpty() ? QVariant() : QVariant(tip);
    }
    return {};
}

QString ColumnTableModel::columnToolTip(int) const
{
    return {};
}

void ColumnTableModel::setNumericColumns(std::initializer_list<int> columns)
{
    for (const int column : columns) {
        if (column >= 0 && column < m_columns) {
            m_numeric[std::size_t(column)] = true;
        }
    }
}

QVariant ColumnTableModel::alignment(int column) const
{
    if (column < 0 || column >= m_columns || !m_numeric[std::size_t(column)]) {
        return {};
    }
    return int(Qt::AlignRight | Qt::AlignVCenter);
}

void ColumnTableModel::emitRowChanged(int row)
{
    Q_EMIT dataChanged(index(row, 0), index(row, m_columns - 1));
}

} // namespace strata::models
