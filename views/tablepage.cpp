#include "views/tablepage.h"

#include "models/item/cachemodels.h"
#include "models/item/roles.h"
#include "views/bardelegate.h"
#include "views/statusdelegate.h"
#include "views/tableviewstyle.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHeaderView>
#include <QLineEdit>
#include <QLocale>
#include <QTableView>
#include <QTimer>

namespace strata::views {

QTableView *newTableView(QWidget *parent,
                         const QString &objectName,
                         QAbstractItemModel *model,
                         QAbstractItemView::SelectionMode mode,
                         int rowPadding)
{
    auto *view = new QTableView(parent);
    view->setObjectName(objectName);
    view->setModel(model);
    applyTableStyle(view, rowPadding);
    view->setSelectionMode(mode);
    return view;
}

QTableView *newCachedCommitView(QWidget *parent, const QString &objectName, QAbstractItemModel *model)
{
    using models::CachedCommitModel;
    QTableView *view = newTableView(parent, objectName, model, QAbstractItemView::SingleSelection);
    view->setItemDelegateForColumn(CachedCommitModel::State, new StatusDelegate(view, StatusDelegate::Mode::Badge));
    view->setItemDelegateForColumn(CachedCommitModel::Progress, new BarDelegate(view));
    setColumnWidthsEm(view, {{CachedCommitModel::Progress, 22}});
    return view;
}

void setColumnWidthsEm(QTableView *view, std::initializer_list<std::pair<int, int>> widths)
{
    const int em = view->fontMetrics().horizontalAdvance(QLatin1Char('M'));
    for (const auto &[column, ems] : widths) {
        view->horizontalHeader()->resizeSection(column, ems * em);
    }
}

void setColumnOrder(QTableView *view, std::initializer_list<int> order)
{
    QHeaderView *header = view->horizontalHeader();
    int visual = 0;
    for (const int column : order) {
        header->moveSection(header->visualIndex(column), visual++);
    }
}

void clearCurrentWhenRemoved(QTableView *view, QAbstractItemModel *model)
{
    QObject::connect(
        model, &QAbstractItemModel::rowsAboutToBeRemoved, view, [view](const QModelIndex &, int first, int last) {
            QItemSelectionModel *selection = view->selectionModel();
            const int row = selection ? selection->currentIndex().row() : -1;
            if (row >= first && row <= last) {
                selection->clear();
            }
        });
}

bool selectRow(QTableView *view, const QModelIndex &index)
{
    if (!index.isValid()) {
        return false;
    }
    view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    view->scrollTo(index);
    return true;
}

QString refillSourceCombo(QComboBox *combo, const QAbstractItemModel *sources)
{
    const QString current = combo->currentData().toString();
    const QSignalBlocker blocker(combo);
    combo->clear();
    // The pages' own context, so the existing translations still apply.
    combo->addItem(QCoreApplication::translate("strata::views::VolumesPage", "All sources"), QString());
    for (int row = 0; sources && row < sources->rowCount(); ++row) {
        const QString name = sources->index(row, 0).data(models::SourceRole).toString();
        combo->addItem(name, name);
    }
    const int index = combo->findData(current);
    combo->setCurrentIndex(index < 0 ? 0 : index);
    return combo->currentData().toString();
}

void onFilterTextSettled(QLineEdit *edit, QObject *context, std::function<void(const QString &text)> apply)
{
    auto *timer = new QTimer(context);
    timer->setSingleShot(true);
    timer->setInterval(150);
    QObject::connect(edit, &QLineEdit::textChanged, timer, qOverload<>(&QTimer::start));
    QObject::connect(timer, &QTimer::timeout, context, [edit, apply = std::move(apply)] {
        apply(edit->text());
    });
}

QString volumeCountText(int shown, int total)
{
    if (shown != total) {
        const QLocale locale;
        return QCoreApplication::translate("strata::views::VolumesPage", "%1 of %2 volumes")
            .arg(locale.toString(shown), locale.toString(total));
    }
    return total == 1 ? QCoreApplication::translate("strata::views::VolumesPage", "%Ln volume", nullptr, total)
                      : QCoreApplication::translate("strata::views::VolumesPage", "%Ln volumes", nullptr, total);
}

} // namespace strata::views
