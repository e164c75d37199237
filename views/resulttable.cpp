#include "views/resulttable.h"

#include "models/rows/output.h"

#include <QTableWidget>

namespace strata::views {

QStringList fillTableFromRows(QTableWidget *table, const rows::ResultSet &rs)
{
    QList<int> shown;
    QStringList keys;
    QStringList headers;
    for (int c = 0; c < rs.columns.size(); ++c) {
        if (!rs.columns[c].header.isEmpty()) {
            shown.append(c);
            keys.append(rs.columns[c].key);
            const QString header = rs.columns[c].header.toLower();
            headers.append(header.left(1).toUpper() + header.mid(1));
        }
    }
    table->clear();
    table->setColumnCount(int(shown.size()));
    table->setHorizontalHeaderLabels(headers);
    table->setRowCount(int(rs.values.size()));
    for (int r = 0; r < rs.values.size(); ++r) {
        for (int i = 0; i < shown.size(); ++i) {
            const int c = shown[i];
            const QString text = rs.display.value(r).value(c, rs.values[r].value(c).toString());
            auto *item = new QTableWidgetItem(text);
            item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
            const int type = rs.values[r].value(c).typeId();
            if (type == QMetaType::Double || type == QMetaType::Int || type == QMetaType::LongLong) {
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            }
            table->setItem(r, i, item);
        }
    }
    table->resizeColumnsToContents();
    return keys;
}

} // namespace strata::views
