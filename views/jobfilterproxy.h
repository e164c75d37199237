#pragma once

#include "views/asyncsortproxy.h"

#include <QString>

#include <memory>

namespace strata::core {
struct Job;
}
namespace strata::models {
class JobTableModel;
}

namespace strata::views {

template <class T> class FoldedTexts;

/// Filters the rows of a JobTableModel for one table of the Jobs page: the scope (queued =
/// pending or preempted; running = every other job, i.e. starting, running and finished), a
/// cluster and project (empty = all), a status (-1 = all, else int(core::JobStatus)) and free
/// text (case-insensitive, over JobTableModel::filterText). Sorts by the column's RawValueRole
/// order, read from the typed records (names as text, figures and times as numbers); the queue
/// column sorts by project, then FIFO position, so each project's queue reads in order. Ties
/// sort by name.
///
/// At 100,000 jobs a new sort, filter or search is computed on a worker thread from a snapshot
/// of the records and applied in one layout change (AsyncSortFilterProxy); a poll's diff is
/// applied in place. The case-folded text of each job searched is kept for the next search
/// (FoldedTexts, by record: a changed job's record is new, so its text is folded again).
/// Any source model other than a JobTableModel shows no rows.
class JobFilterProxy final : public AsyncSortFilterProxy
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
    ~JobFilterProxy() override;

    void setScope(Scope scope);
    [[nodiscard]] Scope scope() const { return m_scope; }
    void setCluster(const QString &source);
    void setProject(const QString &project);
    void setStatus(int status);
    void setText(const QString &text);
    [[nodiscard]] QString cluster() const { return m_cluster; }
    [[nodiscard]] QString project() const { return m_project; }
    [[nodiscard]] int status() const { return m_status; }
    [[nodiscard]] QString text() const { return m_text; }

    void setSourceModel(QAbstractItemModel *model) override;
    /// Jobs whose folded filter text is kept from the last search (tests).
    [[nodiscard]] int cachedTextRows() const;

protected:
    std::shared_ptr<RowOrder> rowOrder(int column, bool snapshot) const override;
    void adoptPrepared(const RowOrder &prepared) override;
    bool filterReads(int column) const override;

private:
    Scope m_scope;
    QString m_cluster;
    QString m_project;
    int m_status = -1;
    QString m_text;       ///< trimmed, as typed
    QString m_textFolded; ///< m_text case-folded
    const models::JobTableModel *m_jobs = nullptr;
    std::shared_ptr<const FoldedTexts<core::Job>> m_texts;
};

} // namespace strata::views
