#include "views/jobfilterproxy.h"

#include "models/core/domain.h"
#include "models/item/jobtablemodel.h"
#include "models/item/roles.h"

namespace strata::views {

namespace {

/// -1, 0 or 1 as `a` sorts before, with or after `b` (QVariant::compare's order for one type).
template <class V> int jobOrder(const V &a, const V &b)
{
    return a < b ? -1 : (b < a ? 1 : 0);
}

int jobOrder(const QString &a, const QString &b)
{
    const int c = a.compare(b);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

} // namespace

JobFilterProxy::JobFilterProxy(Scope scope, QObject *parent)
    : QSortFilterProxyModel(parent)
    , m_scope(scope)
    , m_haystacks(this,
                  [this](int row) {
                      return models::JobTableModel::filterText(*m_jobs->recordAt(row));
                  },
                  {models::JobTableModel::Name,
                   models::JobTableModel::Node,
                   models::JobTableModel::Image,
                   models::JobTableModel::Project,
                   models::JobTableModel::User,
                   models::JobTableModel::Source})
{
    setSortRole(models::RawValueRole);
    setDynamicSortFilter(true);
}

void JobFilterProxy::setSourceModel(QAbstractItemModel *model)
{
    m_jobs = qobject_cast<const models::JobTableModel *>(model);
    m_haystacks.follow(m_jobs);
    QSortFilterProxyModel::setSourceModel(model);
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
        m_textFolded = trimmed.toCaseFolded();
        invalidateFilter();
    }
}

bool JobFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const core::Job *job = m_jobs && !sourceParent.isValid() ? m_jobs->recordAt(sourceRow) : nullptr;
    const QModelIndex index = job ? QModelIndex() : sourceModel()->index(sourceRow, 0, sourceParent);
    const auto status = job ? job->status : core::JobStatus(index.data(models::JobStatusRole).toInt());
    const bool queued = models::JobTableModel::isQueued(status);
    if ((m_scope == Scope::Queued && !queued) || (m_scope == Scope::Running && queued)) {
        return false;
    }
    if (m_status >= 0 && int(status) != m_status) {
        return false;
    }
    if (!m_cluster.isEmpty() && (job ? job->source : index.data(models::SourceRole).toString()) != m_cluster) {
        return false;
    }
    if (!m_project.isEmpty() && (job ? job->project : index.data(models::ProjectRole).toString()) != m_project) {
        return false;
    }
    if (m_text.isEmpty()) {
        return true;
    }
    return job ? m_haystacks.folded(sourceRow).contains(m_textFolded)
               : index.data(models::FilterTextRole).toString().contains(m_text, Qt::CaseInsensitive);
}

bool JobFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    using JTM = models::JobTableModel;
    const core::Job *a = m_jobs ? m_jobs->recordAt(left.row()) : nullptr;
    const core::Job *b = m_jobs ? m_jobs->recordAt(right.row()) : nullptr;
    int order = 0;
    if (a && b) {
        // The same order as RawValueRole through QVariant::compare, on the typed fields.
        switch (left.column()) {
        case JTM::Name:
            order = jobOrder(a->name, b->name);
            break;
        case JTM::Status:
            order = jobOrder(int(a->status), int(b->status));
            break;
        case JTM::Age:
            order = jobOrder(JTM::ageSeconds(*a, m_jobs->now()), JTM::ageSeconds(*b, m_jobs->now()));
            break;
        case JTM::Node:
            order = jobOrder(a->node, b->node);
            break;
        case JTM::Image:
            order = jobOrder(a->image, b->image);
            break;
        case JTM::Project:
            order = jobOrder(a->project, b->project);
            break;
        case JTM::User:
            order = jobOrder(a->user, b->user);
            break;
        case JTM::Gpus:
            order = jobOrder(JTM::shownGpus(*a), JTM::shownGpus(*b));
            break;
        case JTM::CreatedByCli:
            order = jobOrder(a->createdByCli, b->createdByCli);
            break;
        case JTM::RunTime:
            order = jobOrder(JTM::runSeconds(*a, m_jobs->now()), JTM::runSeconds(*b, m_jobs->now()));
            break;
        case JTM::GpuUtilization:
            order = jobOrder(a->gpuUtilization, b->gpuUtilization);
            break;
        case JTM::WaitTime:
            order = jobOrder(JTM::waitSeconds(*a, m_jobs->now()), JTM::waitSeconds(*b, m_jobs->now()));
            break;
        case JTM::QueuePosition:
            order = jobOrder(a->project, b->project);
            if (order == 0) {
                order =
                    jobOrder(m_jobs->queuePosition(core::estateKey(*a)), m_jobs->queuePosition(core::estateKey(*b)));
            }
            break;
        case JTM::Source:
            order = jobOrder(a->source, b->source);
            break;
        default: // Type and PendingReason: their translated or conditional display text
            order = jobOrder(left.data(models::RawValueRole).toString(), right.data(models::RawValueRole).toString());
            break;
        }
        return order < 0 || (order == 0 && a->name < b->name);
    }
    if (left.column() == JTM::QueuePosition) {
        const QString lp = left.data(models::ProjectRole).toString();
        const QString rp = right.data(models::ProjectRole).toString();
        if (lp != rp) {
            return lp < rp;
        }
    }
    const QPartialOrdering partial =
        QVariant::compare(left.data(models::RawValueRole), right.data(models::RawValueRole));
    if (partial == QPartialOrdering::Less) {
        return true;
    }
    if (partial == QPartialOrdering::Greater) {
        return false;
    }
    return left.sibling(left.row(), JTM::Name).data().toString()
           < right.sibling(right.row(), JTM::Name).data().toString();
}

} // namespace strata::views
