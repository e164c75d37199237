#include "views/jobfilterproxy.h"

#include "models/core/domain/records.h"
#include "models/item/jobtablemodel.h"
#include "views/recordroworder.h"

namespace strata::views {

namespace {

using JTM = models::JobTableModel;

/// A JobFilterProxy's filter and sort column over the jobs, for one request.
class JobRowOrder final : public RecordRowOrder<core::Job>
{
public:
    struct Filter
    {
        JobFilterProxy::Scope scope = JobFilterProxy::Scope::All;
        QString cluster;
        QString project;
        int status = -1;
    };

    JobRowOrder(const JTM &jobs,
                bool snapshot,
                std::shared_ptr<const FoldedTexts<core::Job>> texts,
                QString needle,
                Filter filter,
                int column)
        : RecordRowOrder(jobs, snapshot, std::move(texts), std::move(needle), &JTM::filterText)
        , m_jobs(snapshot ? nullptr : &jobs)
        , m_filter(std::move(filter))
        , m_column(column)
        , m_now(jobs.now())
        , m_queue(jobs.queuePositions())
    {}

    bool accepts(int row) const override
    {
        const core::Job &job = record(row);
        const bool queued = JTM::isQueued(job.status);
        if ((m_filter.scope == JobFilterProxy::Scope::Queued && !queued)
            || (m_filter.scope == JobFilterProxy::Scope::Running && queued)) {
            return false;
        }
        if ((m_filter.status >= 0 && int(job.status) != m_filter.status)
            || (!m_filter.cluster.isEmpty() && job.source != m_filter.cluster)
            || (!m_filter.project.isEmpty() && job.project != m_filter.project)) {
            return false;
        }
        return textMatches(row);
    }

    int compare(int left, int right) const override
    {
        const core::Job &a = record(left);
        const core::Job &b = record(right);
        const int order = compareColumn(a, b);
        return order != 0 ? order : recordOrder(a.name, b.name);
    }

private:
    /// The order of RawValueRole: the field's value (core::compareFieldValues); the queue
    /// position within each project.
    int compareColumn(const core::Job &a, const core::Job &b) const
    {
        const core::Field<core::JobRow> *field = JTM::field(m_column);
        if (!field) {
            return 0;
        }
        const QDateTime now = m_jobs ? m_jobs->now() : m_now;
        const QHash<QString, int> &queue = m_jobs ? m_jobs->queuePositions() : m_queue;
        if (m_column == JTM::QueuePosition) {
            const int order = recordOrder(a.project, b.project);
            if (order != 0) {
                return order;
            }
        }
        const auto value = [&](const core::Job &job) {
            return core::fieldValue(*field, core::JobRow{job, now, queue.value(core::estateKey(job))});
        };
        return core::compareFieldValues(value(a), value(b));
    }

    const JTM *m_jobs; ///< live: the clock and queue as they are now
    Filter m_filter;
    int m_column;
    QDateTime m_now;
    QHash<QString, int> m_queue;
};

} // namespace

JobFilterProxy::JobFilterProxy(Scope scope, QObject *parent)
    : AsyncSortFilterProxy(parent)
    , m_scope(scope)
{}

JobFilterProxy::~JobFilterProxy() = default;

void JobFilterProxy::setSourceModel(QAbstractItemModel *model)
{
    m_jobs = qobject_cast<const models::JobTableModel *>(model);
    m_texts.reset();
    AsyncSortFilterProxy::setSourceModel(model);
}

int JobFilterProxy::cachedTextRows() const
{
    return m_texts ? m_texts->size() : 0;
}

void JobFilterProxy::setScope(Scope scope)
{
    if (scope != m_scope) {
        m_scope = scope;
        invalidateOrder();
    }
}

void JobFilterProxy::setCluster(const QString &source)
{
    if (source != m_cluster) {
        m_cluster = source;
        invalidateOrder();
    }
}

void JobFilterProxy::setProject(const QString &project)
{
    if (project != m_project) {
        m_project = project;
        invalidateOrder();
    }
}

void JobFilterProxy::setStatus(int status)
{
    if (status != m_status) {
        m_status = status;
        invalidateOrder();
    }
}

void JobFilterProxy::setText(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed != m_text) {
        m_text = trimmed;
        m_textFolded = trimmed.toCaseFolded();
        invalidateOrder();
    }
}

std::shared_ptr<RowOrder> JobFilterProxy::rowOrder(int column, bool snapshot) const
{
    if (!m_jobs) {
        return std::make_shared<EmptyRowOrder>();
    }
    return std::make_shared<JobRowOrder>(
        *m_jobs, snapshot, m_texts, m_textFolded, JobRowOrder::Filter{m_scope, m_cluster, m_project, m_status}, column);
}

void JobFilterProxy::adoptPrepared(const RowOrder &prepared)
{
    if (m_jobs) {
        if (auto texts = static_cast<const JobRowOrder &>(prepared).prepared()) {
            m_texts = std::move(texts);
        }
    }
}

bool JobFilterProxy::filterReads(int column) const
{
    // The clock's tick moves only Age, RunTime and WaitTime; a queue move only QueuePosition.
    return column != JTM::Age && column != JTM::RunTime && column != JTM::WaitTime && column != JTM::QueuePosition;
}

} // namespace strata::views
