#include "views/tableviewstyle.h"

#include "views/statusdelegate.h"

#include <QHeaderView>
#include <QTableView>

namespace strata::views {

void applyTableStyle(QTableView *view, int rowPadding)
{
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->setShowGrid(false);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + rowPadding);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setHighlightSections(false);
    view->setItemDelegate(new StatusDelegate(view));
}

} // namespace strata::views
