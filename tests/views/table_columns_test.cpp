// Table columns fit their contents and the spare width stays empty, not stretched into the last
// column ("one wide, mostly empty column takes the spare width"); a free-text column
// named with setFillColumn() takes the spare width instead.

#include "models/core/runtime/engine.h"
#include "models/core/store/credentialstore.h"
#include "models/item/activitymodel.h"
#include "models/item/jobtablemodel.h"
#include "models/item/projecttablemodel.h"
#include "models/item/snapshotlistmodel.h"
#include "models/item/sourcetablemodel.h"
#include "models/item/timelinemodel.h"
#include "models/item/volumetablemodel.h"
#include "tests/models/computefixture.h"
#include "tests/support/qt/manualclock.h"
#include "views/mainwindow.h"
#include "views/tableviewstyle.h"

#include <QHeaderView>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

using namespace strata;

namespace {

/// Three short columns ("Name", "State", "Size") in a table far wider than they need.
struct NarrowTable
{
    QStandardItemModel model{0, 3};
    QTableView view;

    NarrowTable()
    {
        model.setHorizontalHeaderLabels({QStringLiteral("Name"), QStringLiteral("State"), QStringLiteral("Size")});
        for (int i = 0; i < 4; ++i) {
            model.appendRow({new QStandardItem(QStringLiteral("vol_%1").arg(i)),
                             new QStandardItem(QStringLiteral("online")),
                             new QStandardItem(QStringLiteral("%1 GiB").arg(10 * i))});
        }
        view.setModel(&model);
        views::applyTableStyle(&view);
        view.resize(1200, 300);
    }

    void showAndSettle()
    {
        view.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&view));
        QTest::qWait(20); // the fitter runs on a zero timer after the first paint; "fitted" has no signal
    }

    /// The width the last column's header and values need.
    [[nodiscard]] int lastContentWidth() const
    {
        return std::max(view.horizontalHeader()->sectionSizeHint(2),
                        static_cast<const QAbstractItemView &>(view).sizeHintForColumn(2));
    }
};

} // namespace

TEST(TableColumns, LastColumnDoesNotStretchPastItsContent)
{
    NarrowTable t;
    t.showAndSettle();
    QHeaderView *header = t.view.horizontalHeader();
    EXPECT_FALSE(header->stretchLastSection());
    // The last column is as wide as its content (never cut), not the rest of a 1,200 px view.
    EXPECT_GE(header->sectionSize(2), t.lastContentWidth());
    EXPECT_LE(header->sectionSize(2), std::max(t.lastContentWidth(), header->defaultSectionSize()));
    EXPECT_LT(header->length(), t.view.viewport()->width() / 2);
}

TEST(TableColumns, FillColumnTakesTheSpareWidthAndGivesItBack)
{
    NarrowTable t;
    views::setFillColumn(&t.view, 0);
    t.showAndSettle();
    QHeaderView *header = t.view.horizontalHeader();
    EXPECT_EQ(header->length(), t.view.viewport()->width());
    EXPECT_LE(header->sectionSize(2), std::max(t.lastContentWidth(), header->defaultSectionSize()));
    const int wide = header->sectionSize(0);
    t.view.resize(700, 300);
    // The fitter runs on a zero timer after the resize: until then the header is still wider.
    (void)QTest::qWaitFor([&] {
        return header->length() == t.view.viewport()->width();
    });
    EXPECT_EQ(header->length(), t.view.viewport()->width());
    EXPECT_LT(header->sectionSize(0), wide);
}

TEST(TableColumns, NoTablePageStretchesItsLastColumn)
{
    testsupport::ManualClock clock;
    core::InMemoryCredentialStore credentials;
    core::Engine engine{{clock, credentials, nullptr, QStringLiteral("tester")}};
    testsupport::state49().publish(engine.estate());
    models::VolumeTableModel volumes(engine.estate());
    models::SnapshotListModel snapshots(engine.estate());
    models::SourceTableModel sources(engine);
    models::ActivityModel activity(engine.actions());
    models::TimelineModel timeline(engine.timeline());
    models::JobTableModel jobs(engine.estate(), [&engine] {
        return engine.clock().now();
    });
    models::ProjectTableModel projects(engine.estate());
    views::MainWindow window(
        views::MainWindow::Models{
            &volumes, &snapshots, &sources, &activity, &timeline, &engine.estate(), &jobs, &projects},
        clock);
    const QList<QTableView *> tables = window.findChildren<QTableView *>();
    ASSERT_GE(tables.size(), 8); // volumes, snapshots, sources, AKS, activity, triage, jobs, projects
    for (QTableView *table : tables) {
        EXPECT_FALSE(table->horizontalHeader()->stretchLastSection()) << table->objectName().toStdString();
    }
}

// A fit measures the rows on screen and a few neighbours, not Qt's default 1,000 rows per
// column: a fit follows every change of the model, and at 100,000 jobs under churn measuring
// 16,000 cells each time stalled the GUI thread. A long value far below the visible
// rows does not widen its column until it is on screen.
TEST(TableColumns, FitMeasuresTheRowsOnScreenNotAThousand)
{
    QStandardItemModel model{0, 2};
    model.setHorizontalHeaderLabels({QStringLiteral("Name"), QStringLiteral("State")});
    for (int i = 0; i < 3000; ++i) {
        const QString name =
            i == 600 ? QStringLiteral("a-very-long-volume-name-far-below-the-screen") : QStringLiteral("vol_%1").arg(i);
        model.appendRow({new QStandardItem(name), new QStandardItem(QStringLiteral("online"))});
    }
    QTableView view;
    view.setModel(&model);
    views::applyTableStyle(&view);
    view.resize(900, 300);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    QTest::qWait(20);
    const int longWidth = view.fontMetrics().horizontalAdvance(model.item(600, 0)->text());
    EXPECT_LT(view.horizontalHeader()->sectionSize(0), longWidth);

    // Scrolled into view, the next fit (after any change of the model) measures it.
    view.scrollTo(model.index(600, 0));
    model.item(599, 1)->setText(QStringLiteral("offline"));
    EXPECT_TRUE(QTest::qWaitFor([&] {
        return view.horizontalHeader()->sectionSize(0) >= longWidth;
    }));
}
