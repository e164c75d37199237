#include "views/eventfilterproxy.h"

#include "models/item/eventtablemodel.h"
#include "models/item/roles.h"

namespace strata::views {

EventFilterProxy::EventFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(models::RawValueRole);
    setFilterRole(models::FilterTextRole);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void EventFilterProxy::setMaximumRank(int rank)
{
    if (rank != m_maxRank) {
        m_maxRank = rank;
        invalidateRowsFilter();
    }
}

bool EventFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_maxRank >= 0
        && sourceModel()
                   ->index(sourceRow, models::EventTableModel::Severity, sourceParent)
                   .data(models::RawValueRole)
                   .toInt()
               > m_maxRank) {
        return false;
    }
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

} // namespace strata::views
