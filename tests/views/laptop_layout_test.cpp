// A 1280 px wide window over the whole demo: the columns a reader compares stay on screen
// (Service levels: cap, p95, cap use, flag; Jobs: cluster, project, GPUs) and the rest scroll;
// the GPUs page stacks its allocation chart by project.
//
// STRATA_LAYOUT_SCREENSHOTS=/dir saves the pages it looks at (light, and the GPUs page dark), then
// the pages a manager and an admin read every day (Overview, Chargeback, Forecasts, Triage, GPUs)
// in light and dark: the README's and the release notes' desktop pictures.

#include "models/item/jobtablemodel.h"
#include "models/item/servicelevelmodel.h"
#include "models/item/volumetablemodel.h"
#include "tests/views/demodesktop.h"
#include "views/allocationhistorychart.h"
#include "views/gpupage.h"
#include "views/jobspage.h"
#include "views/mainwindow.h"
#include "views/quotawhatifdialog.h"
#include "views/servicelevelspage.h"
#include "views/volumespage.h"

#include <QApplication>
#include <QDir>
#include <QHeaderView>
#include <QPixmap>
#include <QPushButton>
#include <QScrollBar>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

using namespace strata;

namespace {

class LaptopLayout : public testsupport::DemoDesktopTest
{
protected:
    void SetUp() override { startDemo({.demoHistory = true}); }

    void save(QWidget &widget, const QString &name)
    {
        const QString dir = qEnvironmentVariable("STRATA_LAYOUT_SCREENSHOTS");
        if (dir.isEmpty()) {
            return;
        }
        QDir().mkpath(dir);
        QTest::qWait(400); // screenshot only: lets the page paint; no assertion depends on it
        widget.grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
    }
};

/// Why `column` of `view` is not readable without scrolling, empty when it is: shown, wider
/// than its header's text needs to start, and inside the viewport with the view scrolled left.
std::string laptopColumnProblem(const QTableView *view, int column)
{
    const QString title = view->model()->headerData(column, Qt::Horizontal).toString();
    if (view->isColumnHidden(column)) {
        return title.toStdString() + ": hidden";
    }
    const int width = view->columnWidth(column);
    const int minimum = view->horizontalHeader()->fontMetrics().horizontalAdvance(title) / 2;
    if (width < minimum) {
        return title.toStdString() + ": " + std::to_string(width) + " px wide";
    }
    const int left = view->horizontalHeader()->sectionPosition(column);
    if (left + width > view->viewport()->width()) {
        return title.toStdString() + ": ends at " + std::to_string(left + width) + " px of a "
               + std::to_string(view->viewport()->width()) + " px table";
    }
    return {};
}

void expectKeyColumnsOnScreen(const QTableView *view, std::initializer_list<int> columns)
{
    for (const int column : columns) {
        EXPECT_EQ(laptopColumnProblem(view, column), std::string()) << view->objectName().toStdString();
    }
}

} // namespace

TEST_F(LaptopLayout, KeyColumnsStayOnScreenAt1280PixelsAndTheRestScroll)
{
    ASSERT_FALSE(HasFatalFailure());
    views::MainWindow &window = controller->window();
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    // The offscreen screen is 800 x 600 and a shown window fits itself to its screen: the
    // laptop's size is set afterwards.
    window.resize(1280, 800);
    ASSERT_EQ(window.width(), 1280);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return engine->allPolledOnce();
        },
        90000));

    // Volumes: the columns of the volume field list; name and capacity stay in view.
    using V = models::VolumeTableModel;
    window.showPage(views::MainWindow::Page::Volumes);
    QTableView *volumes = window.volumesPage()->tableView();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return volumes->model()->rowCount() > 5;
        },
        30000));
    QTest::qWait(300); // the table fitter widens columns to the rows that arrived
    expectKeyColumnsOnScreen(volumes, {V::Name, V::State, V::Size, V::Used, V::PercentUsed});
    save(window, QStringLiteral("volumes-1280"));

    using L = models::ServiceLevelTableModel;
    window.showPage(views::MainWindow::Page::ServiceLevels);
    QTableView *levels = window.serviceLevelsPage()->tableView();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return levels->model()->rowCount() > 5;
        },
        30000));
    QTest::qWait(300); // the table fitter widens columns to the rows that arrived
    EXPECT_LE(window.width(), 1280);
    expectKeyColumnsOnScreen(levels, {L::Volume, L::Level, L::Cap, L::P95, L::CapUse, L::Flag});
    save(window, QStringLiteral("service-levels-1280"));

    using J = models::JobTableModel;
    window.showPage(views::MainWindow::Page::Jobs);
    views::JobsPage *jobs = window.jobsPage();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return jobs->runningView()->model()->rowCount() > 3;
        },
        30000));
    QTest::qWait(300);
    expectKeyColumnsOnScreen(jobs->runningView(), {J::Name, J::Status, J::Source, J::Project, J::Gpus});
    expectKeyColumnsOnScreen(jobs->queuedView(), {J::QueuePosition, J::Name, J::Source, J::Project, J::Gpus});
    save(window, QStringLiteral("jobs-1280"));

    // The GPUs page: allocation stacked by project under the total quota.
    // dgx: four projects (aks-gpu, listed first, has one).
    window.showPage(views::MainWindow::Page::Gpus);
    ASSERT_TRUE(window.gpuPage()->setCluster(QStringLiteral("dgx")));
    views::AllocationHistoryChart *chart = window.gpuPage()->historyChart();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return chart->showsChart() && chart->stack().projects.size() >= 2;
        },
        30000));
    const core::AllocationStack &stack = chart->stack();
    const QString top = stack.projects.back();
    ASSERT_FALSE(chart->bandUpperPoints(top).isEmpty());
    EXPECT_DOUBLE_EQ(chart->bandUpperPoints(top).back().y(), double(stack.total(int(stack.times.size()) - 1)) / 1000.0)
        << "the top band ends at the cluster's total";
    save(window, QStringLiteral("gpus-1280"));
    const QPalette light = QApplication::palette();
    QApplication::setPalette(testsupport::darkPalette());
    save(window, QStringLiteral("gpus-1280-dark"));
    QApplication::setPalette(light);

    window.gpuPage()->whatIfButton()->click();
    auto *whatIf = window.findChild<views::QuotaWhatIfDialog *>(QStringLiteral("quotaWhatIfDialog"));
    ASSERT_TRUE(whatIf);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return whatIf->result().has_value();
        },
        10000));
    EXPECT_FALSE(whatIf->applyHint().isEmpty());
    save(*whatIf, QStringLiteral("whatif-dialog"));
    whatIf->close();

    if (qEnvironmentVariableIsEmpty("STRATA_LAYOUT_SCREENSHOTS")) {
        return;
    }
    using P = views::MainWindow::Page;
    const std::pair<P, QString> pages[] = {{P::Overview, QStringLiteral("overview")},
                                           {P::Chargeback, QStringLiteral("chargeback")},
                                           {P::Forecasts, QStringLiteral("forecasts")},
                                           {P::Events, QStringLiteral("triage")},
                                           {P::Gpus, QStringLiteral("gpus")}};
    for (const bool dark : {false, true}) {
        QApplication::setPalette(dark ? testsupport::darkPalette() : light);
        for (const auto &[page, name] : pages) {
            window.showPage(page);
            save(window, name + (dark ? QStringLiteral("-1280-dark") : QStringLiteral("-1280-light")));
        }
    }
    QApplication::setPalette(light);
}
