#pragma once

class QTableView;

namespace strata::views {

/// The list look shared by Strata's tables: whole-row selection, alternating rows, no grid, no
/// word wrap, fixed row heights (`rowPadding` pixels above the font height; fixed heights keep
/// large tables cheap), hidden row header, stretched last column, StatusDelegate for status
/// colours. Interactive columns grow to fit their header and values as rows arrive (values up
/// to about 56 characters; a column the user resized keeps its width), and a cell whose text is
/// elided shows all of it as its tooltip when the model gives none. Selection mode and sorting
/// stay with each view.
void applyTableStyle(QTableView *view, int rowPadding = 8);

} // namespace strata::views
