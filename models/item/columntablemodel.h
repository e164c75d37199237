#pragma once

#include <QAbstractTableModel>
#include <QStringList>

#include <initializer_list>
#include <vector>

namespace strata::models {

/// Flat table model with a fixed set of columns, the common part of Strata's table models. It
/// answers columnCount(), the horizontal header (DisplayRole from columnTitles(), ToolTipRole
/// from columnToolTip()) and the right alignment of numeric columns; subclasses keep the rows
/// and answer data().
class ColumnTableModel : public QAbstractTableModel
{
public:
    /// `columns` (>= 0) is fixed for the model's life.
    explicit ColumnTableModel(int columns, QObject *parent = nullptr);

    /// The fixed column count for the root, 0 below it (a flat table).
    int columnCount(const QModelIndex &parent = {}) const final;
    /// Horizontal DisplayRole: columnTitles()[section]; ToolTipRole: columnToolTip(section)
    /// (invalid when empty); anything else, or a section out of range, is invalid.
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    /// The translated title of every column, in column order (columnCount() entries).
    [[nodiscard]] virtual QStringList columnTitles() const = 0;
    /// Header tooltip of `section`; empty (the default) shows none.
    [[nodiscard]] virtual QString columnToolTip(int section) const;

    /// Marks the columns whose figures align right; alignment() answers for them.
    void setNumericColumns(std::initializer_list<int> columns);
    /// Qt::TextAlignmentRole of `column`: right and vertically centred for a numeric column,
    /// else invalid (the view's default).
    [[nodiscard]] QVariant alignment(int column) const;
    /// dataChanged over every column of `row`.
    void emitRowChanged(int row);

private:
    int m_columns;
    std::vector<bool> m_numeric;
};

} // namespace strata::models
