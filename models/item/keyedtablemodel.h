#pragma once

#include "models/core/domain/keyed.h"
#include "models/item/columntablemodel.h"
#include "models/item/roles.h"

#include <QObject>

#include <algorithm>
#include <optional>
#include <vector>

namespace strata::models {

/// Table model base over records keyed by estate key ("<source>/<id>"). applyDiff() turns a
/// core Diff into the minimal row-level signals: removals as contiguous ranges from the bottom,
/// changes as coalesced dataChanged ranges (the whole table when more than half changed, as
/// qBittorrent does), additions appended with one insert. Never a reset on a poll.
///
/// data() answers what every keyed table shares (KeyRole, SourceRole, IdRole and the alignment
/// of numeric columns) for a valid row and column, takes DisplayRole from displayData() and
/// RawValueRole from sortData() (falling back to the displayed value), and asks recordData()
/// for every other role.
template <class T> class KeyedTableModel : public ColumnTableModel
{
public:
    /// `columns`: see ColumnTableModel.
    explicit KeyedTableModel(int columns, QObject *parent = nullptr)
        : ColumnTableModel(columns, parent)
    {}

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const final
    {
        const T *record = recordAt(index.row());
        if (!record || index.column() < 0 || index.column() >= columnCount()) {
            return {};
        }
        switch (role) {
        case KeyRole:
            return core::estateKey(*record);
        case SourceRole:
            return record->source;
        case IdRole:
            return record->id;
        case Qt::TextAlignmentRole:
            return alignment(index.column());
        case RawValueRole:
            if (std::optional<QVariant> raw = sortData(*record, index.column())) {
                return *raw;
            }
            return displayData(*record, index.column());
        case Qt::DisplayRole:
            return displayData(*record, index.column());
        default:
            return recordData(*record, index, role);
        }
    }

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
    /// Every row's record, in row order (a copy of it is an immutable snapshot of the table).
    [[nodiscard]] const std::vector<core::Ptr<T>> &rows() const { return m_rows; }
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
    /// Qt::DisplayRole of `record` in `column` (a valid column).
    [[nodiscard]] virtual QVariant displayData(const T &record, int column) const = 0;
    /// RawValueRole of `record` in `column`: the value to sort by, or nullopt (the default) to
    /// sort by displayData(). A null QVariant is a value (it sorts before every figure).
    [[nodiscard]] virtual std::optional<QVariant> sortData(const T &record, int column) const
    {
        Q_UNUSED(record)
        Q_UNUSED(column)
        return std::nullopt;
    }
    /// Every other role of `record`, shown at `index` (a valid row and column).
    [[nodiscard]] virtual QVariant recordData(const T &record, const QModelIndex &index, int role) const = 0;

    /// Shows every record of `table` now, then applies each diff that `signal` of `sender`
    /// delivers, through `apply` (default: applyDiff), for the model's life.
    template <class Sender, class Apply>
    void follow(const core::Table<T> &table,
                const Sender *sender,
                void (Sender::*signal)(const core::Diff<T> &),
                Apply apply)
    {
        core::Diff<T> initial;
        initial.added = table.all();
        apply(initial);
        QObject::connect(sender, signal, this, std::move(apply));
    }
    template <class Sender>
    void follow(const core::Table<T> &table, const Sender *sender, void (Sender::*signal)(const core::Diff<T> &))
    {
        follow(table, sender, signal, [this](const core::Diff<T> &diff) {
            applyDiff(diff);
        });
    }

    /// Rows whose record satisfies `pred(const T &)`, ascending (for emitChanged()).
    template <class Pred> [[nodiscard]] std::vector<int> rowsWhere(Pred pred) const
    {
        std::vector<int> rows;
        for (std::size_t i = 0; i < m_rows.size(); ++i) {
            if (pred(*m_rows[i])) {
                rows.push_back(static_cast<int>(i));
            }
        }
        return rows;
    }

    /// Separate dataChanged signals emitChanged() sends at most; more runs are sent as one.
    static constexpr std::size_t kMaxChangedRuns = 64;

    /// Emits dataChanged for `rows` over columns [firstColumn, lastColumn], coalesced: one signal
    /// per run of adjacent rows, or one over their span when there are more than
    /// kMaxChangedRuns runs or they are more than half the table.
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
        std::size_t runs = 1;
        for (std::size_t i = 1; i < rows.size(); ++i) {
            runs += rows[i] != rows[i - 1] + 1 ? 1 : 0;
        }
        if (runs > kMaxChangedRuns) {
            // Scattered over the table: one signal over their span, not one per run (a
            // sorted proxy re-places the span's rows at once).
            Q_EMIT this->dataChanged(
                this->index(rows.front(), firstColumn), this->index(rows.back(), lastColumn), roles);
            return;
        }
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
