#pragma once

#include <QAbstractItemView>
#include <QString>

#include <functional>
#include <initializer_list>
#include <utility>

class QAbstractItemModel;
class QComboBox;
class QLineEdit;
class QTableView;
class QWidget;

namespace strata::views {

/// Building blocks the table pages share (Volumes, Service levels, Datasets, Cache targets, ...).

/// A table named `objectName` over `model`, in the list look (applyTableStyle() with
/// `rowPadding`), selecting whole rows in `mode`. Sorting and delegates stay with the page.
QTableView *newTableView(QWidget *parent,
                         const QString &objectName,
                         QAbstractItemModel *model,
                         QAbstractItemView::SelectionMode mode,
                         int rowPadding = 8);

/// The cached-commits table of the Datasets and Cache targets pages over `model` (a proxy of
/// CachedCommitModel): single selection, the state as a badge, the loading progress as a bar
/// 22 ems wide.
QTableView *newCachedCommitView(QWidget *parent, const QString &objectName, QAbstractItemModel *model);

/// Starting widths of columns, in ems of the view's font, as (logical column, ems) pairs. The
/// table fitter widens them to their contents later.
void setColumnWidthsEm(QTableView *view, std::initializer_list<std::pair<int, int>> widths);

/// Shows `view`'s columns in `order` (logical columns, left to right), the ones not named after
/// them in their current order: key columns first stay on screen in a narrow window, the rest
/// scroll. A header state restored later (the user's own arrangement) wins.
void setColumnOrder(QTableView *view, std::initializer_list<int> order);

/// Clears `view`'s selection when its current row is removed from `model`, so the current row
/// never moves to a neighbour the user did not pick (acting on it would be worse than no
/// selection). Call before `view->setModel(model)`: the guard must run before the selection
/// model moves the current index.
void clearCurrentWhenRemoved(QTableView *view, QAbstractItemModel *model);

/// Makes `index` (of the view's model) current and selected as a whole row and scrolls to it;
/// false when `index` is invalid (the row is filtered out or gone).
bool selectRow(QTableView *view, const QModelIndex &index);

/// Refills a source filter combo: "All sources" (data "") and one entry per source name
/// (SourceRole of column 0 of `sources`, which may be null), keeping the chosen source when it
/// is still there, without emitting change signals. Returns the chosen source ("" for all).
QString refillSourceCombo(QComboBox *combo, const QAbstractItemModel *sources);

/// Calls `apply` with `edit`'s text once typing in it has paused for 150 ms (a filter re-runs
/// once per word, not per key), for `context`'s life.
void onFilterTextSettled(QLineEdit *edit, QObject *context, std::function<void(const QString &text)> apply);

/// "12 volumes", "1 volume" or "3 of 12 volumes" (locale digits) for a filtered volume list.
QString volumeCountText(int shown, int total);

} // namespace strata::views
