#pragma once

#include <QStringList>

class QTableWidget;

namespace strata::rows {
struct ResultSet;
}

namespace strata::views {

/// Fills `table` with the columns of `rs` that have a table header (as `strata get` prints them:
/// "FAIR SHARE" reads "Fair share") and their display texts; numbers right-aligned; read-only.
/// Returns the keys of the columns shown, in table order.
QStringList fillTableFromRows(QTableWidget *table, const rows::ResultSet &rs);

} // namespace strata::views
