#pragma once

#include "models/core/keyed.h"

#include <QAbstractTableModel>

#include <algorithm>
#include <vector>

namespace strata::models {

/// Table model base over records keyed by estate key ("<source>/<id>"). applyDiff() turns a
/// core Diff into the minimal row-level signals: removals as contiguous ranges from the bottom,
/// changes as coalesced dataChanged ranges (the whole table when more than half changed, as
/// qBittorrent does), additions appended with one insert. Never a reset on a poll.
template <class T> class KeyedTableModel : public QAbstractTableModel
{
public:
    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
    }

    /// Record shown in `row`, or nullptr when out of range.
    [[nodiscard]] const T *recordAt(int row) const
    {
        return row >= 0 && row < static_cast<int>(m_rows.size()) ? m_rows[std::size_t(row)].get() : nullptr;
    }
    [[nodiscard]] core::Ptr<T> pointerAt(int row) const
    {
        return row >= 0 && row < static_cast<int>(m_rows.size()) ? m_rows[std::size_t(row)] : nullptr;
    }
    /// Row of the record with this estate key, or -1.
    [[nodiscard]] int rowOf(const QString &key) const { return m_index.value(key, -1); }

    void applyDiff(const core::Diff<T> &diff)
    {
        removeKeys(diff.removed);
        std::vector<int> changedRows;
        changedRows.reserve(diff.changed.size());
        for (const core::Ptr<T> &item : diff.changed) {
            const int row = rowOf(core::estateKey(*item));
            if (row >= 0) {
                m_rows[std::size_t(row)] = item;
                changedRows.push_back(row);
            }
        }
        std::vector<core::Ptr<T>> added;
        for (const core::Ptr<T> &item : diff.added) {
            const int row = rowOf(core::estateKey(*item));
            if (row >= 0) {
                // Already shown (e.g. a model built from a later snapshot): treat as a change.
                m_rows[std::size_t(row)] = item;
                changedRows.push_back(row);
            } else {
                added.push_back(item);
            }
        }
        emitChanged(changedRows, 0, columnCount() - 1);
        if (!added.empty()) {
            const int first = rowCount();
            beginInsertRows(QModelIndex(), first, first + static_cast<int>(added.size()) - 1);
            for (core::Ptr<T> &item : added) {
                m_index.insert(core::estateKey(*item), static_cast<int>(m_rows.size()));
                m_rows.push_back(std::move(item));
            }
            endInsertRows();
        }
    }

protected:
    /// Emits dataChanged for `rows` over columns [firstColumn, lastColumn], coalesced.
    void emitChanged(std::vector<int> rows, int firstColumn, int lastColumn, const QList<int> &roles = {})
    {
        if (rows.empty() || lastColumn < firstColumn) {
            return;
        }
        if (rows.size() * 2 > m_rows.size()) {
            // More than half the table: one signal is cheaper for every view and proxy.
            Q_EMIT this->dataChanged(this->index(0, firstColumn), this->index(rowCount() - 1, lastColumn), roles);
            return;
        }
        std::sort(rows.begin(), rows.end());
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
        std::size_t start = 0;
        for (std::size_t i = 1; i <= rows.size(); ++i) {
            if (i == rows.size() || rows[i] != rows[i - 1] + 1) {
                Q_EMIT this->dataChanged(
                    this->index(rows[start], firstColumn), this->index(rows[i - 1], lastColumn), roles);
                start = i;
            }
        }
    }

    void removeKeys(const QStringList &keys)
    {
        std::vector<int> rows;
        rows.reserve(std::size_t(keys.size()));
        for (const QString &key : keys) {
            const int row = rowOf(key);
            if (row >= 0) {
                rows.push_back(row);
            }
        }
        if (rows.empty()) {
            return;
        }
        std::sort(rows.begin(), rows.end(), std::greater<>());
        std::size_t start = 0;
        for (std::size_t i = 1; i <= rows.size(); ++i) {
            if (i == rows.size() || rows[i] != rows[i - 1] - 1) {
                const int last = rows[start];
                const int first = rows[i - 1];
                beginRemoveRows(QModelIndex(), first, last);
                for (int r = first; r <= last; ++r) {
                    m_index.remove(core::estateKey(*m_rows[std::size_t(r)]));
                }
                m_rows.erase(m_rows.begin() + first, m_rows.begin() + last + 1);
                endRemoveRows();
                start = i;
            }
        }
        const int lowest = rows.back();
        for (int r = lowest; r < static_cast<int>(m_rows.size()); ++r) {
            m_index.insert(core::estateKey(*m_rows[std::size_t(r)]), r);
        }
    }

    /// Replaces every row (only for a scope switch, e.g. another volume's snapshots).
    void resetRows(std::vector<core::Ptr<T>> rows)
    {
        beginResetModel();
        m_rows = std::move(rows);
        m_index.clear();
        for (std::size_t i = 0; i < m_rows.size(); ++i) {
            m_index.insert(core::estateKey(*m_rows[i]), static_cast<int>(i));
        }
        endResetModel();
    }

    std::vector<core::Ptr<T>> m_rows;
    QHash<QString, int> m_index;
};

} // namespace strata::models
