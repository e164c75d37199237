#pragma once

class QTableView;

namespace strata::views {

/// The list look shared by Strata's tables: whole-row selection, alternating rows, no grid, no
/// word wrap, fixed row heights (`rowPadding` pixels above the font height; fixed heights keep
/// large tables cheap), hidden row header, stretched last column, StatusDelegate for status
/// colours. Selection mode, sorting and column widths stay with each view.
void applyTableStyle(QTableView *view, int rowPadding = 8);

} // namespace strata::views
