#include "views/asyncsortproxy.h"

#include "models/item/roles.h"

#include <QFutureWatcher>
#include <QPromise>

#include <algorithm>
#include <climits>

namespace strata::views {

RowOrder::~RowOrder() = default;

struct AsyncSortFilterProxy::Result
{
    std::vector<int> order; ///< accepted source rows, in their shown order
};

struct AsyncSortFilterProxy::Request
{
    quint64 sequence = 0;
    std::shared_ptr<RowOrder> live;
    std::shared_ptr<RowOrder> snapshot;
    int column = -1;
    Qt::SortOrder order = Qt::AscendingOrder;
    std::shared_ptr<Result> result = std::make_shared<Result>();
};

namespace {

/// Whether row `a` comes before row `b` under `order` by `column` in `direction`: ties (and no
/// sort column) by source row, so the order is total and the same on every thread.
bool asyncRowBefore(const RowOrder &order, int column, Qt::SortOrder direction, int a, int b)
{
    if (column >= 0) {
        const int c = order.compare(a, b);
        if (c != 0) {
            return direction == Qt::DescendingOrder ? c > 0 : c < 0;
        }
    }
    return a < b;
}

/// Every row `order` accepts, sorted: the whole work of a request.
std::vector<int> asyncSortedRows(RowOrder &order, int column, Qt::SortOrder direction)
{
    order.prepare();
    std::vector<int> rows;
    rows.reserve(std::size_t(order.rows()));
    for (int row = 0; row < order.rows(); ++row) {
        if (order.accepts(row)) {
            rows.push_back(row);
        }
    }
    if (column >= 0) {
        std::sort(rows.begin(), rows.end(), [&](int a, int b) {
            return asyncRowBefore(order, column, direction, a, b);
        });
    }
    return rows;
}

/// Proxy rows changed by one dataChanged beyond which one signal over the whole proxy is cheaper.
constexpr int kAsyncForwardRows = 64;
/// Contiguous runs of a removal beyond which one layout change replaces the remove signals.
constexpr std::size_t kAsyncRemoveRuns = 8;

} // namespace

AsyncSortFilterProxy::AsyncSortFilterProxy(QObject *parent)
    : QAbstractProxyModel(parent)
{
    // One worker: a newer request supersedes the older, they never need to run side by side.
    m_pool.setMaxThreadCount(1);
}

AsyncSortFilterProxy::~AsyncSortFilterProxy()
{
    m_pool.clear();
    m_pool.waitForDone();
}

void AsyncSortFilterProxy::setSourceModel(QAbstractItemModel *model)
{
    beginResetModel();
    for (const QMetaObject::Connection &c : m_connections) {
        disconnect(c);
    }
    m_connections.clear();
    ++m_sequence;
    m_pending.reset();
    m_pool.clear();
    m_shown.reset();
    m_proxyToSource.clear();
    QAbstractProxyModel::setSourceModel(model);
    rebuildPositions();
    if (model) {
        using M = QAbstractItemModel;
        const auto aboutToReset = [this] {
            beginResetModel();
        };
        const auto reset = [this] {
            m_proxyToSource.clear();
            m_shown.reset();
            rebuildPositions();
            endResetModel();
            request();
        };
        m_connections = {
            connect(model, &M::dataChanged, this, &AsyncSortFilterProxy::onDataChanged),
            connect(model, &M::headerDataChanged, this, &M::headerDataChanged),
            connect(model, &M::rowsAboutToBeRemoved, this, &AsyncSortFilterProxy::onRowsAboutToBeRemoved),
            connect(model, &M::rowsRemoved, this, &AsyncSortFilterProxy::onRowsRemoved),
            connect(model, &M::rowsInserted, this, &AsyncSortFilterProxy::onRowsInserted),
            // A source that re-lays out, moves rows or changes columns (not a keyed table's
            // poll): start over.
            connect(model, &M::layoutAboutToBeChanged, this, aboutToReset),
            connect(model, &M::layoutChanged, this, reset),
            connect(model, &M::rowsAboutToBeMoved, this, aboutToReset),
            connect(model, &M::rowsMoved, this, reset),
            connect(model, &M::modelAboutToBeReset, this, aboutToReset),
            connect(model, &M::modelReset, this, reset),
            connect(model, &M::columnsAboutToBeInserted, this, aboutToReset),
            connect(model, &M::columnsInserted, this, reset),
            connect(model, &M::columnsAboutToBeRemoved, this, aboutToReset),
            connect(model, &M::columnsRemoved, this, reset),
        };
    }
    endResetModel();
    request();
}

QModelIndex AsyncSortFilterProxy::mapToSource(const QModelIndex &proxyIndex) const
{
    if (!proxyIndex.isValid() || !sourceModel() || proxyIndex.model() != this || proxyIndex.row() < 0
        || std::size_t(proxyIndex.row()) >= m_proxyToSource.size()) {
        return {};
    }
    return sourceModel()->index(m_proxyToSource[std::size_t(proxyIndex.row())], proxyIndex.column());
}

QModelIndex AsyncSortFilterProxy::mapFromSource(const QModelIndex &sourceIndex) const
{
    if (!sourceIndex.isValid() || sourceIndex.model() != sourceModel() || sourceIndex.parent().isValid()
        || std::size_t(sourceIndex.row()) >= m_sourceToProxy.size()) {
        return {};
    }
    const int row = m_sourceToProxy[std::size_t(sourceIndex.row())];
    return row < 0 ? QModelIndex() : createIndex(row, sourceIndex.column());
}

QModelIndex AsyncSortFilterProxy::index(int row, int column, const QModelIndex &parent) const
{
    if (parent.isValid() || row < 0 || column < 0 || row >= rowCount() || column >= columnCount()) {
        return {};
    }
    return createIndex(row, column);
}

QModelIndex AsyncSortFilterProxy::parent(const QModelIndex &child) const
{
    Q_UNUSED(child)
    return {};
}

QModelIndex AsyncSortFilterProxy::sibling(int row, int column, const QModelIndex &idx) const
{
    Q_UNUSED(idx)
    return index(row, column);
}

int AsyncSortFilterProxy::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_proxyToSource.size());
}

int AsyncSortFilterProxy::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || !sourceModel() ? 0 : sourceModel()->columnCount();
}

bool AsyncSortFilterProxy::hasChildren(const QModelIndex &parent) const
{
    return !parent.isValid() && rowCount() > 0 && columnCount() > 0;
}

void AsyncSortFilterProxy::sort(int column, Qt::SortOrder order)
{
    m_column = column;
    m_order = order;
    request();
}

void AsyncSortFilterProxy::invalidateOrder()
{
    request();
}

void AsyncSortFilterProxy::settle()
{
    if (!m_pending) {
        return;
    }
    const int asyncRows = m_asyncRows;
    m_asyncRows = INT_MAX;
    request();
    m_asyncRows = asyncRows;
}

void AsyncSortFilterProxy::request()
{
    ++m_sequence;
    if (m_pending) {
        ++m_dropped;
        m_pending.reset();
    }
    m_dirtyWhilePending.clear();
    if (m_watcher) {
        m_watcher->disconnect(this);
        m_watcher->deleteLater();
        m_watcher = nullptr;
    }
    m_pool.clear(); // a queued, superseded request never starts
    if (!sourceModel()) {
        return;
    }
    std::shared_ptr<RowOrder> live = rowOrder(m_column, false);
    if (sourceModel()->rowCount() < m_asyncRows) {
        std::vector<int> order = asyncSortedRows(*live, m_column, m_order);
        adoptPrepared(*live);
        m_shown = std::move(live);
        m_shownColumn = m_column;
        m_shownOrder = m_order;
        changeLayout(std::move(order));
        ++m_applied;
        Q_EMIT settled();
        return;
    }
    m_pending = std::make_unique<Request>();
    m_pending->sequence = m_sequence;
    m_pending->live = std::move(live);
    m_pending->snapshot = rowOrder(m_column, true);
    m_pending->column = m_column;
    m_pending->order = m_order;
    startWorker();
}

void AsyncSortFilterProxy::startWorker()
{
    auto promise = std::make_shared<QPromise<void>>();
    m_watcher = new QFutureWatcher<void>(this);
    const quint64 sequence = m_pending->sequence;
    connect(m_watcher, &QFutureWatcherBase::finished, this, [this, sequence] {
        if (!m_pending || m_pending->sequence != sequence) {
            return; // superseded meanwhile
        }
        const std::unique_ptr<Request> done = std::move(m_pending);
        m_watcher->deleteLater();
        m_watcher = nullptr;
        adoptPrepared(*done->snapshot);
        m_shown = done->live;
        m_shownColumn = done->column;
        m_shownOrder = done->order;
        changeLayout(std::move(done->result->order));
        ++m_applied;
        // Rows whose data changed while the worker sorted: put them where they now belong.
        std::vector<int> dirty = std::move(m_dirtyWhilePending);
        m_dirtyWhilePending.clear();
        if (!dirty.empty()) {
            reposition(std::move(dirty));
        }
        Q_EMIT settled();
    });
    promise->start();
    m_watcher->setFuture(promise->future());
    m_pool.start([promise,
                  snapshot = m_pending->snapshot,
                  result = m_pending->result,
                  column = m_pending->column,
                  order = m_pending->order] {
        // Only what the request owns: the proxy may be gone or on to a newer request.
        result->order = asyncSortedRows(*snapshot, column, order);
        promise->finish();
    });
}

bool AsyncSortFilterProxy::lessRow(const RowOrder &order, int a, int b) const
{
    return asyncRowBefore(order, m_shownColumn, m_shownOrder, a, b);
}

void AsyncSortFilterProxy::rebuildPositions()
{
    m_sourceToProxy.assign(sourceModel() ? std::size_t(sourceModel()->rowCount()) : 0, -1);
    for (std::size_t p = 0; p < m_proxyToSource.size(); ++p) {
        const int source = m_proxyToSource[p];
        if (source >= 0 && std::size_t(source) < m_sourceToProxy.size()) {
            m_sourceToProxy[std::size_t(source)] = int(p);
        }
    }
}

void AsyncSortFilterProxy::changeLayout(std::vector<int> order)
{
    const bool countChanged = order.size() != m_proxyToSource.size();
    const auto hint = countChanged ? QAbstractItemModel::NoLayoutChangeHint : QAbstractItemModel::VerticalSortHint;
    Q_EMIT layoutAboutToBeChanged({}, hint);
    const QModelIndexList from = persistentIndexList();
    std::vector<int> sources;
    sources.reserve(std::size_t(from.size()));
    for (const QModelIndex &index : from) {
        const auto row = std::size_t(index.row());
        sources.push_back(row < m_proxyToSource.size() ? m_proxyToSource[row] : -1);
    }
    m_proxyToSource = std::move(order);
    rebuildPositions();
    QModelIndexList to;
    to.reserve(from.size());
    for (qsizetype i = 0; i < from.size(); ++i) {
        const int source = sources[std::size_t(i)];
        const int row =
            source >= 0 && std::size_t(source) < m_sourceToProxy.size() ? m_sourceToProxy[std::size_t(source)] : -1;
        to.push_back(row >= 0 ? createIndex(row, from.at(i).column()) : QModelIndex());
    }
    changePersistentIndexList(from, to);
    Q_EMIT layoutChanged({}, hint);
}

void AsyncSortFilterProxy::reposition(std::vector<int> rows)
{
    if (!m_shown || !sourceModel()) {
        return;
    }
    const int sourceRows = sourceModel()->rowCount();
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    rows.erase(std::remove_if(rows.begin(),
                              rows.end(),
                              [sourceRows](int row) {
                                  return row < 0 || row >= sourceRows;
                              }),
               rows.end());
    if (rows.empty()) {
        return;
    }
    if (int(rows.size()) > m_incrementalRows) {
        request();
        return;
    }
    const RowOrder &order = *m_shown;
    std::vector<int> accepted;
    bool inPlace = true;
    for (const int row : rows) {
        const bool passes = order.accepts(row);
        const int at = m_sourceToProxy[std::size_t(row)];
        if (passes) {
            accepted.push_back(row);
        }
        if (passes != (at >= 0)) {
            inPlace = false;
        } else if (at >= 0 && inPlace) {
            // Still sorted when each changed row stays between its neighbours.
            const auto p = std::size_t(at);
            inPlace = (p == 0 || lessRow(order, m_proxyToSource[p - 1], row))
                      && (p + 1 == m_proxyToSource.size() || lessRow(order, row, m_proxyToSource[p + 1]));
        }
    }
    if (inPlace) {
        return;
    }
    std::vector<int> rest;
    rest.reserve(m_proxyToSource.size());
    for (const int source : m_proxyToSource) {
        if (!std::binary_search(rows.cbegin(), rows.cend(), source)) {
            rest.push_back(source);
        }
    }
    const auto before = [this, &order](int a, int b) {
        return lessRow(order, a, b);
    };
    std::sort(accepted.begin(), accepted.end(), before);
    std::vector<int> merged;
    merged.reserve(rest.size() + accepted.size());
    auto from = rest.cbegin();
    for (const int row : accepted) {
        const auto at = std::upper_bound(from, rest.cend(), row, before);
        merged.insert(merged.end(), from, at);
        merged.push_back(row);
        from = at;
    }
    merged.insert(merged.end(), from, rest.cend());
    changeLayout(std::move(merged));
}

void AsyncSortFilterProxy::forwardChanged(int first, int last, int firstColumn, int lastColumn, const QList<int> &roles)
{
    if (m_proxyToSource.empty()) {
        return;
    }
    if (last - first + 1 > kAsyncForwardRows) {
        Q_EMIT dataChanged(index(0, firstColumn), index(rowCount() - 1, lastColumn), roles);
        return;
    }
    for (int row = first; row <= last && std::size_t(row) < m_sourceToProxy.size(); ++row) {
        const int at = m_sourceToProxy[std::size_t(row)];
        if (at >= 0) {
            Q_EMIT dataChanged(index(at, firstColumn), index(at, lastColumn), roles);
        }
    }
}

void AsyncSortFilterProxy::onDataChanged(const QModelIndex &topLeft,
                                         const QModelIndex &bottomRight,
                                         const QList<int> &roles)
{
    if (!topLeft.isValid() || topLeft.parent().isValid()) {
        return;
    }
    const int first = topLeft.row();
    const int last = bottomRight.row();
    const int firstColumn = topLeft.column();
    const int lastColumn = bottomRight.column();
    // A change of what a row shows (not only its colour, tooltip or staleness) may move it.
    const bool values = roles.isEmpty() || roles.contains(Qt::DisplayRole) || roles.contains(models::RawValueRole);
    bool reorders = false;
    for (int column = firstColumn; values && column <= lastColumn && !reorders; ++column) {
        reorders = filterReads(column);
    }
    const int sortColumn = m_pending ? m_pending->column : m_shownColumn;
    reorders = reorders
               || (values
                   && ((m_shownColumn >= firstColumn && m_shownColumn <= lastColumn)
                       || (sortColumn >= firstColumn && sortColumn <= lastColumn)));
    if (reorders) {
        if (last - first + 1 > m_incrementalRows) {
            request(); // e.g. the clock's tick of the sorted time column: a full request
        } else {
            std::vector<int> rows;
            for (int row = first; row <= last; ++row) {
                rows.push_back(row);
            }
            if (m_pending) {
                m_dirtyWhilePending.insert(m_dirtyWhilePending.end(), rows.cbegin(), rows.cend());
            }
            reposition(std::move(rows));
        }
    }
    forwardChanged(first, last, firstColumn, lastColumn, roles);
}

void AsyncSortFilterProxy::onRowsAboutToBeRemoved(const QModelIndex &parent, int first, int last)
{
    if (parent.isValid()) {
        return;
    }
    std::vector<int> gone; // proxy rows, descending
    for (int row = first; row <= last && std::size_t(row) < m_sourceToProxy.size(); ++row) {
        if (m_sourceToProxy[std::size_t(row)] >= 0) {
            gone.push_back(m_sourceToProxy[std::size_t(row)]);
        }
    }
    if (gone.empty()) {
        return;
    }
    std::sort(gone.begin(), gone.end(), std::greater<>());
    std::vector<std::pair<int, int>> runs; // [low, high]
    for (const int row : gone) {
        if (!runs.empty() && runs.back().first == row + 1) {
            runs.back().first = row;
        } else {
            runs.emplace_back(row, row);
        }
    }
    if (runs.size() > kAsyncRemoveRuns) {
        std::vector<int> kept;
        kept.reserve(m_proxyToSource.size() - gone.size());
        for (const int source : m_proxyToSource) {
            if (source < first || source > last) {
                kept.push_back(source);
            }
        }
        changeLayout(std::move(kept));
        return;
    }
    for (const auto &[low, high] : runs) {
        beginRemoveRows({}, low, high);
        m_proxyToSource.erase(m_proxyToSource.begin() + low, m_proxyToSource.begin() + high + 1);
        rebuildPositions();
        endRemoveRows();
    }
}

void AsyncSortFilterProxy::onRowsRemoved(const QModelIndex &parent, int first, int last)
{
    if (parent.isValid()) {
        return;
    }
    const int count = last - first + 1;
    for (int &source : m_proxyToSource) {
        if (source > last) {
            source -= count;
        }
    }
    rebuildPositions();
    if (m_pending) {
        request(); // its snapshot has rows that are gone: start over from the rows as they are
    }
}

void AsyncSortFilterProxy::onRowsInserted(const QModelIndex &parent, int first, int last)
{
    if (parent.isValid()) {
        return;
    }
    const int count = last - first + 1;
    for (int &source : m_proxyToSource) {
        if (source >= first) {
            source += count;
        }
    }
    rebuildPositions();
    if (m_pending || count > m_incrementalRows) {
        request(); // e.g. the first poll's 100,000 rows: sorted on the worker at scale
        return;
    }
    std::vector<int> rows;
    for (int row = first; row <= last; ++row) {
        rows.push_back(row);
    }
    reposition(std::move(rows));
}

} // namespace strata::views
