#include "views/volumefilterproxy.h"

#include "models/item/roles.h"
#include "models/item/volumetablemodel.h"

namespace strata::views {

VolumeFilterProxy::VolumeFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(models::RawValueRole);
    setFilterRole(models::FilterTextRole);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    setFilterKeyColumn(models::VolumeTableModel::Name);
}

void VolumeFilterProxy::setTextFilter(const QString &text)
{
    setFilterFixedString(text.trimmed());
}

void VolumeFilterProxy::setSourceFilter(const QString &source)
{
    if (source != m_source) {
        m_source = source;
        invalidateRowsFilter();
    }
}

void VolumeFilterProxy::setStateFilter(const QString &state)
{
    if (state != m_state) {
        m_state = state;
        invalidateRowsFilter();
    }
}

bool VolumeFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QAbstractItemModel *model = sourceModel();
    if (!m_source.isEmpty()
        && model->index(sourceRow, models::VolumeTableModel::Source, sourceParent).data(models::SourceRole).toString()
               != m_source) {
        return false;
    }
    if (!m_state.isEmpty()
        && model->index(sourceRow, models::VolumeTableModel::State, sourceParent).data(Qt::DisplayRole).toString()
               != m_state) {
        return false;
    }
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

} // namespace strata::views
