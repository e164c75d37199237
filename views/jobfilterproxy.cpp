#include "views/jobfilterproxy.h"

#include "models/core/domain.h"
#include "models/item/jobtablemodel.h"
#include "models/item/roles.h"

namespace strata::views {

JobFilterProxy::JobFilterProxy(Scope scope, QObject *parent)
    : QSortFilterProxyModel(parent)
    , m_scope(scope)
{
    setSortRole(models::RawValueRole);
    setDynamicSortFilter(true);
}

void JobFilterProxy::setScope(Scope scope)
{
    if (scope != m_scope) {
        m_scope = scope;
        invalidateFilter();
    }
}

void JobFilterProxy::setCluster(const QString &source)
{
    if (source != m_cluster) {
        m_cluster = source;
        invalidateFilter();
    }
}

void JobFilterProxy::setProject(const QString &project)
{
    if (project != m_project) {
        m_project = project;
        invalidateFilter();
    }
}

void JobFilterProxy::setStatus(int status)
{
    if (status != m_status) {
        m_status = status;
        invalidateFilter();
    }
}

void JobFilterProxy::setText(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed != m_text) {
        m_text = trimmed;
        invalidateFilter();
    }
}

bool JobFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    const auto status = core::JobStatus(index.data(models::JobStatusRole).toInt());
    const bool queued = models::JobTableModel::isQueued(status);
    if ((m_scope == Scope::Queued && !queued) || (m_scope == Scope::Running && queued)) {
        return false;
    }
    if (m_status >= 0 && int(status) != m_status) {
        return false;
    }
    if (!m_cluster.isEmpty() && index.data(models::SourceRole).toString() != m_cluster) {
        return false;
    }
    if (!m_project.isEmpty() && index.data(models::ProjectRole).toString() != m_project) {
        return false;
    }
    return m_text.isEmpty() || index.data(models::FilterTextRole).toString().contains(m_text, Qt::CaseInsensitive);
}

bool JobFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    if (left.column() == models::JobTableModel::QueuePosition) {
        const QString lp = left.data(models::ProjectRole).toString();
        const QString rp = right.data(models::ProjectRole).toString();
        if (lp != rp) {
            return lp < rp;
        }
    }
    const QVariant l = left.data(models::RawValueRole);
    const QVariant r = right.data(models::RawValueRole);
    const QPartialOrdering order = QVariant::compare(l, r);
    if (order == QPartialOrdering::Less) {
        return true;
    }
    if (order == QPartialOrdering::Greater) {
        return false;
    }
    return left.sibling(left.row(), models::JobTableModel::Name).data().toString()
           < right.sibling(right.row(), models::JobTableModel::Name).data().toString();
}

} // namespace strata::views
