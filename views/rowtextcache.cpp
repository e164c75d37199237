#include "views/rowtextcache.h"

#include <QAbstractItemModel>

#include <algorithm>

namespace strata::views {

RowTextCache::RowTextCache(QObject *context, std::function<QString(int row)> text, std::vector<int> searchable)
    : m_context(context)
    , m_text(std::move(text))
    , m_searchable(std::move(searchable))
{}

RowTextCache::~RowTextCache()
{
    for (const QMetaObject::Connection &c : m_connections) {
        QObject::disconnect(c);
    }
}

void RowTextCache::follow(const QAbstractItemModel *model)
{
    for (const QMetaObject::Connection &c : m_connections) {
        QObject::disconnect(c);
    }
    m_connections.clear();
    m_model = model;
    clear();
    if (!model) {
        return;
    }
    using M = QAbstractItemModel;
    const auto reset = [this] {
        clear();
    };
    m_connections = {
        QObject::connect(model,
                         &M::dataChanged,
                         m_context,
                         [this](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
                             forget(topLeft.row(), bottomRight.row(), topLeft.column(), bottomRight.column());
                         }),
        QObject::connect(model,
                         &M::rowsInserted,
                         m_context,
                         [this](const QModelIndex &parent, int first, int last) {
                             if (!parent.isValid()) {
                                 const auto at = std::min<std::ptrdiff_t>(first, std::ptrdiff_t(m_rows.size()));
                                 m_rows.insert(m_rows.begin() + at, std::size_t(last - first + 1), QString());
                             }
                         }),
        QObject::connect(model,
                         &M::rowsRemoved,
                         m_context,
                         [this](const QModelIndex &parent, int first, int last) {
                             if (!parent.isValid()) {
                                 const auto size = std::ptrdiff_t(m_rows.size());
                                 m_rows.erase(m_rows.begin() + std::min<std::ptrdiff_t>(first, size),
                                              m_rows.begin() + std::min<std::ptrdiff_t>(last + 1, size));
                             }
                         }),
        QObject::connect(model, &M::rowsMoved, m_context, reset),
        QObject::connect(model, &M::layoutChanged, m_context, reset),
        QObject::connect(model, &M::modelReset, m_context, reset),
    };
}

void RowTextCache::clear()
{
    m_rows.assign(m_model ? std::size_t(m_model->rowCount()) : 0, QString());
}

void RowTextCache::forget(int first, int last, int firstColumn, int lastColumn)
{
    const bool searchable = std::any_of(m_searchable.cbegin(), m_searchable.cend(), [&](int column) {
        return column >= firstColumn && column <= lastColumn;
    });
    if (!searchable) {
        return; // e.g. the clock's tick of the time columns
    }
    for (int row = std::max(0, first); row <= last && row < int(m_rows.size()); ++row) {
        m_rows[std::size_t(row)] = QString();
    }
}

const QString &RowTextCache::folded(int row) const
{
    if (std::size_t(row) >= m_rows.size()) {
        m_rows.resize(std::size_t(row) + 1);
    }
    QString &text = m_rows[std::size_t(row)];
    if (text.isNull()) {
        text = m_text(row).toCaseFolded();
        if (text.isNull()) {
            text = QStringLiteral(""); // empty, yet computed
        }
    }
    return text;
}

int RowTextCache::cachedRows() const
{
    return int(std::count_if(m_rows.cbegin(), m_rows.cend(), [](const QString &text) {
        return !text.isNull();
    }));
}

} // namespace strata::views
