#pragma once

#include <QAbstractProxyModel>
#include <QThreadPool>

#include <memory>
#include <vector>

template <class T> class QFutureWatcher;

namespace strata::views {

/// One sort and filter request over the rows of a flat source model: which rows pass and how two
/// rows compare on the sort column. Immutable once built, except prepare(), which runs once
/// before any other call (on the worker thread for a snapshot). A snapshot owns (shared
/// pointers to) everything it reads, so it can be evaluated on another thread while the GUI
/// thread goes on; a live order reads the source model as it is now (GUI thread only).
class RowOrder
{
public:
    RowOrder() = default;
    virtual ~RowOrder();
    RowOrder(const RowOrder &) = delete;
    RowOrder &operator=(const RowOrder &) = delete;

    /// Rows it covers (the source's rowCount() when it was taken).
    [[nodiscard]] virtual int rows() const = 0;
    /// Whether source `row` (0 <= row < rows()) passes the filter.
    [[nodiscard]] virtual bool accepts(int row) const = 0;
    /// <0, 0 or >0 as row `a` sorts before, with or after row `b` on the sort column, ascending
    /// (ties are ordered by the proxy: by source row). Only called with a sort column >= 0.
    [[nodiscard]] virtual int compare(int a, int b) const = 0;
    /// Work done once before the first accepts()/compare() (e.g. folding the filter texts).
    virtual void prepare() {}
};

/// No rows (a proxy over a source model it cannot read).
class EmptyRowOrder final : public RowOrder
{
public:
    [[nodiscard]] int rows() const override { return 0; }
    [[nodiscard]] bool accepts(int row) const override
    {
        Q_UNUSED(row)
        return false;
    }
    [[nodiscard]] int compare(int a, int b) const override
    {
        Q_UNUSED(a)
        Q_UNUSED(b)
        return 0;
    }
};

/// A sort/filter proxy over a flat table model (no tree) whose full re-sort and re-filter of
/// 100,000 rows runs on a worker thread: a new sort column, filter or search word takes a
/// snapshot of the rows (RowOrder, shared pointers to the immutable records) on the GUI thread,
/// the worker filters and sorts it, and the GUI thread applies the result in one layout change
/// (selection and current row kept through the persistent indexes). A newer request drops a
/// pending one; a source insert, removal or relayout while one is pending restarts it from a
/// fresh snapshot; rows whose data changed while one is pending are re-checked once it lands.
/// Until a result lands the rows keep their previous order and filter (with their data live).
///
/// Below asyncRows() source rows everything runs at once on the GUI thread (as QSortFilterProxyModel
/// would): small tables and tests stay synchronous.
///
/// A poll's keyed diff (rows inserted, removed or changed) is applied in place on the GUI
/// thread: a changed or new row is checked against the applied filter and put at its place by
/// binary search (no full re-sort, never a reset); more than incrementalRows() rows at once, or
/// a change of the sort column over most of the table (the clock's tick of a time column), is
/// a full request instead. A source layout change, move or reset resets the proxy.
///
/// Ties in the sort column keep the source order (as QSortFilterProxyModel's stable sort), in
/// either direction. sortColumn() -1 = the source order.
class AsyncSortFilterProxy : public QAbstractProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AsyncSortFilterProxy)

public:
    /// Default asyncRows(): at 10,000 rows a full sort costs the GUI thread about 10-20 ms.
    static constexpr int kDefaultAsyncRows = 10000;
    /// Default incrementalRows().
    static constexpr int kDefaultIncrementalRows = 2000;

    explicit AsyncSortFilterProxy(QObject *parent = nullptr);
    ~AsyncSortFilterProxy() override;

    void setSourceModel(QAbstractItemModel *model) override;
    [[nodiscard]] QModelIndex mapToSource(const QModelIndex &proxyIndex) const override;
    [[nodiscard]] QModelIndex mapFromSource(const QModelIndex &sourceIndex) const override;
    [[nodiscard]] QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    [[nodiscard]] QModelIndex parent(const QModelIndex &child) const override;
    [[nodiscard]] QModelIndex sibling(int row, int column, const QModelIndex &idx) const override;
    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] bool hasChildren(const QModelIndex &parent = {}) const override;
    /// Requests the order by `column` (-1: source order); applies at once below asyncRows().
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    /// The requested sort column and order (what the header shows; a pending request may not
    /// have landed yet).
    [[nodiscard]] int sortColumn() const { return m_column; }
    [[nodiscard]] Qt::SortOrder sortOrder() const { return m_order; }

    /// Source rows from which a full sort/filter runs on the worker thread (0: always).
    void setAsyncRows(int rows) { m_asyncRows = rows; }
    [[nodiscard]] int asyncRows() const { return m_asyncRows; }
    /// Rows changed, inserted or removed at once above which a diff triggers a full request.
    void setIncrementalRows(int rows) { m_incrementalRows = rows; }
    [[nodiscard]] int incrementalRows() const { return m_incrementalRows; }

    /// A request is being computed on the worker thread.
    [[nodiscard]] bool isPending() const { return m_pending != nullptr; }
    /// Computes a pending request now on the GUI thread and applies it (e.g. before selecting
    /// a row the new filter brings back); nothing when none is pending.
    void settle();
    /// Full requests applied since construction (tests, the bench).
    [[nodiscard]] int appliedRequests() const { return m_applied; }
    /// Requests dropped unapplied because a newer one or a source change superseded them.
    [[nodiscard]] int droppedRequests() const { return m_dropped; }

Q_SIGNALS:
    /// A full request was applied: the rows now follow the current sort and filter.
    void settled();

protected:
    /// The filter or the way rows compare changed: re-evaluates every row (on the worker at
    /// scale). Subclasses call it from their setters.
    void invalidateOrder();
    /// The subclass's current filter and the sort `column` over the source's rows: a `snapshot`
    /// that owns what it reads (for the worker), or a live view of the source (GUI thread, used
    /// right away and for the diffs that follow). Never null while a source model is set.
    [[nodiscard]] virtual std::shared_ptr<RowOrder> rowOrder(int column, bool snapshot) const = 0;
    /// Called on the GUI thread with a snapshot once the worker prepared it, whether or not its
    /// result was applied (e.g. to keep the texts it folded for the next request).
    virtual void adoptPrepared(const RowOrder &prepared) { Q_UNUSED(prepared) }
    /// Whether a change of `column` can move a row in or out of the filter (default: every
    /// column). A change of another column that is not the sort column is only forwarded.
    [[nodiscard]] virtual bool filterReads(int column) const
    {
        Q_UNUSED(column)
        return true;
    }

private:
    struct Request;
    struct Result;

    void request();
    void startWorker();
    [[nodiscard]] bool lessRow(const RowOrder &order, int a, int b) const;
    void reposition(std::vector<int> rows);
    void forwardChanged(int first, int last, int firstColumn, int lastColumn, const QList<int> &roles);
    void onDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles);
    void onRowsAboutToBeRemoved(const QModelIndex &parent, int first, int last);
    void onRowsRemoved(const QModelIndex &parent, int first, int last);
    void onRowsInserted(const QModelIndex &parent, int first, int last);
    void rebuildPositions();
    /// Shows `order` (proxy row -> source row) in one layout change, persistent indexes kept.
    void changeLayout(std::vector<int> order);

    std::vector<int> m_proxyToSource;
    std::vector<int> m_sourceToProxy; ///< -1: filtered out
    int m_column = -1;
    Qt::SortOrder m_order = Qt::AscendingOrder;
    /// The order the shown rows follow (live) and its column and direction.
    std::shared_ptr<RowOrder> m_shown;
    int m_shownColumn = -1;
    Qt::SortOrder m_shownOrder = Qt::AscendingOrder;

    std::unique_ptr<Request> m_pending;
    std::vector<int> m_dirtyWhilePending; ///< source rows changed since the pending snapshot
    QFutureWatcher<void> *m_watcher = nullptr;
    QThreadPool m_pool;
    quint64 m_sequence = 0;
    int m_asyncRows = kDefaultAsyncRows;
    int m_incrementalRows = kDefaultIncrementalRows;
    int m_applied = 0;
    int m_dropped = 0;
    std::vector<QMetaObject::Connection> m_connections;
};

} // namespace strata::views
