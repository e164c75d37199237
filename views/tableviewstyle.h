#pragma once

class QTableView;

namespace strata::views {

/// The list look shared by Strata's tables: whole-row selection, alternating rows, no grid, no
/// word wrap, fixed row heights (`rowPadding` pixels above the font height; fixed heights keep
/// large tables cheap), hidden row header, StatusDelegate for status colours. Interactive
/// columns grow to fit their header and values as rows arrive (values up to about 56
/// characters; a column the user resized keeps its width), and a cell whose text is elided
/// shows all of it as its tooltip when the model gives none. The last column is not stretched:
/// width the columns do not need stays empty unless setFillColumn() names a column for it.
/// Selection mode and sorting stay with each view.
void applyTableStyle(QTableView *view, int rowPadding = 8);

/// Gives the width `view`'s columns leave free to `column` (a free-text column such as a
/// message), never narrowing it below its fitted width; -1: none. For views styled with
/// applyTableStyle(); a column the user resizes keeps the width they chose.
void setFillColumn(QTableView *view, int column);

} // namespace strata::views
