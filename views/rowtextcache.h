#pragma once

#include <QMetaObject>
#include <QString>

#include <functional>
#include <vector>

class QAbstractItemModel;
class QObject;

namespace strata::views {

/// The case-folded filter text of each row of a flat source model, computed on first use and
/// kept until the source reports the row changed in one of the `searchable` columns, or rows
/// inserted, removed, moved, re-laid out or reset. A filter proxy over tens of thousands of rows
/// then re-filters (a new search word, a dataChanged it re-checks) without building a QVariant
/// and a joined string per row each time.
///
/// follow() must run before the proxy's QSortFilterProxyModel::setSourceModel(): Qt calls slots
/// in connection order, so the cache forgets a changed row before the proxy re-filters it.
class RowTextCache
{
public:
    /// `text(row)`: the row's filter text (any case) for a valid row of the followed model.
    RowTextCache(QObject *context, std::function<QString(int row)> text, std::vector<int> searchable);
    ~RowTextCache();
    RowTextCache(const RowTextCache &) = delete;
    RowTextCache &operator=(const RowTextCache &) = delete;

    /// Follows `model` (null = none) instead of the previous one; forgets every row.
    void follow(const QAbstractItemModel *model);
    /// The case-folded text of `row` (0 <= row < the model's rowCount()).
    [[nodiscard]] const QString &folded(int row) const;
    /// Rows whose text is computed (tests).
    [[nodiscard]] int cachedRows() const;

private:
    void forget(int first, int last, int firstColumn, int lastColumn);
    void clear();

    QObject *m_context;
    std::function<QString(int)> m_text;
    std::vector<int> m_searchable;
    const QAbstractItemModel *m_model = nullptr;
    /// Null: not computed yet.
    mutable std::vector<QString> m_rows;
    std::vector<QMetaObject::Connection> m_connections;
};

} // namespace strata::views
