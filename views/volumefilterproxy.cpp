#include "views/volumefilterproxy.h"

#include "models/item/roles.h"
#include "models/item/volumetablemodel.h"

namespace strata::views {

VolumeFilterProxy::VolumeFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
    , m_texts(this,
              [this](int row) {
                  return models::VolumeTableModel::filterText(*m_volumes->recordAt(row));
              },
              {models::VolumeTableModel::Name,
               models::VolumeTableModel::Source,
               models::VolumeTableModel::Svm,
               models::VolumeTableModel::Qos})
{
    setSortRole(models::RawValueRole);
    setFilterRole(models::FilterTextRole);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    setFilterKeyColumn(models::VolumeTableModel::Name);
}

void VolumeFilterProxy::setTextFilter(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed != m_text) {
        m_text = trimmed;
        m_textFolded = trimmed.toCaseFolded();
        invalidateRowsFilter();
    }
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

void VolumeFilterProxy::setSourceModel(QAbstractItemModel *model)
{
    m_volumes = qobject_cast<const models::VolumeTableModel *>(model);
    m_texts.follow(m_volumes);
    QSortFilterProxyModel::setSourceModel(model);
}

bool VolumeFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const core::Volume *a = m_volumes ? m_volumes->recordAt(left.row()) : nullptr;
    const core::Volume *b = m_volumes ? m_volumes->recordAt(right.row()) : nullptr;
    if (!a || !b) {
        return QSortFilterProxyModel::lessThan(left, right);
    }
    auto text = [](const QString &x, const QString &y) {
        return x.compare(y, Qt::CaseInsensitive) < 0;
    };
    auto style = [](const core::Volume *v) {
        return v->isFlexCache ? QStringLiteral("flexcache") : v->style;
    };
    using VTM = models::VolumeTableModel;
    switch (left.column()) {
    case VTM::Name:
        return text(a->name, b->name);
    case VTM::Source:
        return text(a->source, b->source);
    case VTM::Svm:
        return text(a->svm, b->svm);
    case VTM::State:
        return text(a->state, b->state);
    case VTM::Style:
        return text(style(a), style(b));
    case VTM::Size:
        return a->sizeBytes < b->sizeBytes;
    case VTM::Used:
        return a->usedBytes < b->usedBytes;
    case VTM::PercentUsed:
        return a->percentUsed < b->percentUsed;
    case VTM::Available:
        return a->availableBytes < b->availableBytes;
    case VTM::Qos:
        return text(a->qosPolicy, b->qosPolicy);
    case VTM::Snapshots:
        return a->snapshotCount < b->snapshotCount;
    default:
        return QSortFilterProxyModel::lessThan(left, right); // performance columns
    }
}

bool VolumeFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (const core::Volume *v = m_volumes ? m_volumes->recordAt(sourceRow) : nullptr) {
        if ((!m_source.isEmpty() && v->source != m_source) || (!m_state.isEmpty() && v->state != m_state)) {
            return false;
        }
        return m_text.isEmpty() || m_texts.folded(sourceRow).contains(m_textFolded);
    }
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
    return m_text.isEmpty()
           || model->index(sourceRow, models::VolumeTableModel::Name, sourceParent)
                  .data(models::FilterTextRole)
                  .toString()
                  .contains(m_text, Qt::CaseInsensitive);
}

} // namespace strata::views
