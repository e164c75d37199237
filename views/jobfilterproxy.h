#pragma once

#include "views/rowtextcache.h"

#include <QSortFilterProxyModel>

namespace strata::models {
class JobTableModel;
}

namespace strata::views {

/// Filters JobTableModel rows for one table of the Jobs page: the scope (queued = pending or
/// preempted; running = every other job, i.e. starting, running and finished), a cluster and
/// project (empty = all), a status (-1 = all, else int(core::JobStatus)) and free text over
/// FilterTextRole. Sorts by RawValueRole; the queue column sorts by project, then FIFO position,
/// so each project's queue reads in order. Ties sort by name.
///
/// Over a JobTableModel (the Jobs page's case) it reads the typed records instead of data():
/// at 100,000 jobs every re-filter or re-sort would otherwise build millions of QVariants. The
/// case-folded filter text of each source row is cached until the source reports that row
/// changed in a searchable column, or inserted, removed or reordered rows. Any other source
/// model is read through its roles.
class JobFilterProxy final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobFilterProxy)

public:
    enum class Scope
    {
        All,
        Running,
        Queued
    };

    explicit JobFilterProxy(Scope scope, QObject *parent = nullptr);

    void setScope(Scope scope);
    [[nodiscard]] Scope scope() const { return m_scope; }
    void setCluster(const QString &source);
    void setProject(const QString &project);
    void setStatus(int status);
    void setText(const QString &text);
    [[nodiscard]] QString cluster() const { return m_cluster; }
    [[nodiscard]] QString project() const { return m_project; }
    [[nodiscard]] int status() const { return m_status; }

    void setSourceModel(QAbstractItemModel *model) override;
    /// Source rows whose filter text is cached (tests).
    [[nodiscard]] int cachedTextRows() const { return m_haystacks.cachedRows(); }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    Scope m_scope;
    QString m_cluster;
    QString m_project;
    int m_status = -1;
    QString m_text;       ///< trimmed, as typed
    QString m_textFolded; ///< m_text case-folded
    const models::JobTableModel *m_jobs = nullptr;
    RowTextCache m_haystacks; ///< FilterTextRole per source row, over a JobTableModel
};

} // namespace strata::views
