#include "app/desktop/desktopcontroller.h"
#include "demo/demoestate.h"
#include "demo/demoscenario.h"
#include "models/core/domain/clock.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/historyservice.h"
#include "models/core/store/credentialstore.h"
#include "models/core/store/historystore.h"
#include "models/item/activitymodel.h"
#include "models/item/roles.h"
#include "models/item/snapshotlistmodel.h"
#include "models/item/volumetablemodel.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "tests/views/demodesktop.h"
#include "views/actiondialog.h"
#include "views/capacitychart.h"
#include "views/mainwindow.h"
#include "views/volumedetailpanel.h"
#include "views/volumespage.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using namespace strata;

namespace {

// Generous: qWaitFor returns as soon as the condition holds; under ASan on a loaded 2-core CI
// machine the demo estate's first full poll alone has taken close to 20 s.
constexpr int kTimeoutMs = 60000;

/// Row of the first proxy row whose Name column reads `name`, or -1.
int rowNamed(const QAbstractItemModel *model, const QString &name)
{
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, 0).data().toString() == name) {
            return row;
        }
    }
    return -1;
}

/// The whole desktop app over the in-process demo estate (empty history, no cache targets).
class DesktopDemo : public testsupport::DemoDesktopTest
{
protected:
    void SetUp() override { startDemo({}); }
};

} // namespace

TEST_F(DesktopDemo, CreateSnapshotThroughTheDialog_ShowsInActivityAndSnapshotList)
{
    views::MainWindow &window = controller->window();
    EXPECT_EQ(window.windowTitle(), QStringLiteral("Strata (demo)"));
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    // The Overview comes first now; the volume work happens on the Volumes page.
    EXPECT_EQ(window.currentPage(), views::MainWindow::Page::Overview);
    window.showPage(views::MainWindow::Page::Volumes);
    QAbstractItemModelTester volumeTester(&controller->volumeModel(),
                                          QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester snapshotTester(&controller->snapshotModel(),
                                            QAbstractItemModelTester::FailureReportingMode::Fatal);

    // 1. The table fills from the simulator's first inventory poll.
    auto *table = window.findChild<QTableView *>(QStringLiteral("volumeTableView"));
    ASSERT_TRUE(table);
    QAbstractItemModelTester proxyTester(table->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return rowNamed(table->model(), QStringLiteral("chest_xray")) >= 0;
        },
        kTimeoutMs))
        << "volumes shown: " << table->model()->rowCount();
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            // The demo is the ONTAP system, the dgx GPU cluster, the ai-lab Azure subscription and
            // its aks-gpu cluster: every one of them OK.
            static const QRegularExpression allOk(QStringLiteral("^(\\d+) sources: \\1 OK$"));
            return allOk.match(window.healthSummaryText()).hasMatch();
        },
        kTimeoutMs))
        << window.healthSummaryText().toStdString();
    EXPECT_TRUE(window.volumesPage()->countText().endsWith(QStringLiteral("volumes")));

    // 2. Select chest_xray as a user would: click its row.
    const QModelIndex index = table->model()->index(rowNamed(table->model(), QStringLiteral("chest_xray")), 0);
    table->scrollTo(index);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(index).center());
    views::VolumeDetailPanel *panel = window.volumesPage()->detailPanel();
    ASSERT_TRUE(panel->volume());
    EXPECT_EQ(panel->volume()->name, QStringLiteral("chest_xray"));
    EXPECT_EQ(panel->findChild<QLabel *>(QStringLiteral("volumeSvmLabel"))->text(), QStringLiteral("svm_ai"));
    panel->findChild<QTabWidget *>(QStringLiteral("volumeDetailTabWidget"))->setCurrentIndex(1);

    // 3. Its snapshots load (the demo gives chest_xray scheduled and DataOps Toolkit snapshots).
    models::SnapshotListModel &snapshots = controller->snapshotModel();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return snapshots.isLoaded() && snapshots.rowCount() > 0;
        },
        kTimeoutMs));
    auto *snapshotView = panel->findChild<QTableView *>(QStringLiteral("snapshotTableView"));
    EXPECT_TRUE(snapshotView->isVisible());
    // The simulated cluster's snapshot policy may add or rotate a scheduled snapshot while the
    // test runs (it did on a slow CI run), so the counts compare the snapshots no schedule makes.
    const auto manualSnapshots = [&snapshots] {
        static const QRegularExpression scheduled(QStringLiteral("^(hourly|daily|weekly)\\."));
        QStringList names;
        for (int row = 0; row < snapshots.rowCount(); ++row) {
            const QString name = snapshots.index(row, models::SnapshotListModel::Name).data().toString();
            if (!scheduled.match(name).hasMatch()) {
                names << name;
            }
        }
        names.sort();
        return names;
    };
    const QStringList before = manualSnapshots();
    // The capacity chart was answered from the history store.
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            return panel->capacityChart()->showsChart();
        },
        kTimeoutMs));

    // 4. Create snapshot: preview, name, confirm.
    auto *create = panel->findChild<QPushButton *>(QStringLiteral("snapshotCreateButton"));
    ASSERT_TRUE(create->isEnabled());
    QTest::mouseClick(create, Qt::LeftButton);
    views::ActionDialog *dialog = nullptr;
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            dialog = window.findChild<views::ActionDialog *>(QStringLiteral("actionDialog"));
            return dialog && dialog->isVisible();
        },
        kTimeoutMs));
    auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("snapshotNameLineEdit"));
    ASSERT_TRUE(name);
    EXPECT_TRUE(name->text().startsWith(QStringLiteral("strata_"))) << name->text().toStdString();
    auto *ok = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    EXPECT_TRUE(ok->isEnabled());
    EXPECT_EQ(dialog->preview().title, QStringLiteral("Create snapshot"));
    // An existing name is refused by the model layer's preview, live.
    const QString existing = snapshots.index(0, models::SnapshotListModel::Name).data().toString();
    name->setText(existing);
    EXPECT_FALSE(ok->isEnabled());
    name->clear();
    QTest::keyClicks(name, QStringLiteral("e2e_before_training"));
    dialog->findChild<QLineEdit *>(QStringLiteral("snapshotCommentLineEdit"))
        ->setText(QStringLiteral("from views_tests"));
    ASSERT_TRUE(ok->isEnabled()) << dialog->preview().blockedReason.toStdString();
    QTest::mouseClick(ok, Qt::LeftButton);

    // 5. The Activity panel shows it running, then Succeeded.
    models::ActivityModel &activity = controller->activityModel();
    auto *activityView = window.findChild<QTableView *>(QStringLiteral("activityTableView"));
    ASSERT_EQ(activityView->model(), &activity);
    ASSERT_EQ(activity.rowCount(), 1);
    EXPECT_TRUE(activityView->isVisible());
    EXPECT_TRUE(activity.index(0, models::ActivityModel::Target)
                    .data()
                    .toString()
                    .contains(QStringLiteral("e2e_before_training")));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return activity.index(0, models::ActivityModel::State).data(models::StatusRole).toString()
                   != QLatin1String("running");
        },
        kTimeoutMs));
    EXPECT_EQ(activity.index(0, models::ActivityModel::State).data().toString(), QStringLiteral("Succeeded"))
        << activity.index(0, models::ActivityModel::Message).data().toString().toStdString();
    EXPECT_FALSE(activity.index(0, 0).data(Qt::ToolTipRole).toString().isEmpty()); // the effects

    // 6. The snapshot list picks the new snapshot up (a diff, not a reset).
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return rowNamed(&snapshots, QStringLiteral("e2e_before_training")) >= 0;
        },
        kTimeoutMs));
    QStringList withNew = before;
    withNew << QStringLiteral("e2e_before_training");
    withNew.sort();
    EXPECT_EQ(manualSnapshots(), withNew);
    EXPECT_TRUE(window.notificationText().isEmpty()) << window.notificationText().toStdString();

    // 7. Delete it again: destructive, so the name must be typed before Delete enables.
    auto *snapshotProxy = snapshotView->model();
    snapshotView->selectRow(rowNamed(snapshotProxy, QStringLiteral("e2e_before_training")));
    ASSERT_TRUE(panel->findChild<QPushButton *>(QStringLiteral("snapshotDeleteButton"))->isEnabled());
    snapshotView->setFocus();
    QTest::keyClick(snapshotView, Qt::Key_Delete);
    views::ActionDialog *confirm = nullptr;
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            const auto dialogs = window.findChildren<views::ActionDialog *>(QStringLiteral("actionDialog"));
            for (views::ActionDialog *d : dialogs) {
                if (d->isVisible() && d->request().kind == core::ActionKind::SnapshotDelete) {
                    confirm = d;
                }
            }
            return confirm != nullptr;
        },
        kTimeoutMs));
    EXPECT_TRUE(confirm->preview().destructive);
    auto *deleteOk = confirm->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    EXPECT_FALSE(deleteOk->isEnabled());
    QTest::keyClicks(confirm->findChild<QLineEdit *>(QStringLiteral("confirmNameLineEdit")),
                     QStringLiteral("e2e_before_training"));
    ASSERT_TRUE(deleteOk->isEnabled()) << confirm->preview().blockedReason.toStdString();
    QTest::mouseClick(deleteOk, Qt::LeftButton);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return activity.rowCount() == 2
                   && activity.index(1, models::ActivityModel::State).data(models::StatusRole).toString()
                          != QLatin1String("running");
        },
        kTimeoutMs));
    EXPECT_EQ(activity.index(1, models::ActivityModel::State).data().toString(), QStringLiteral("Succeeded"))
        << activity.index(1, models::ActivityModel::Message).data().toString().toStdString();
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            return rowNamed(&snapshots, QStringLiteral("e2e_before_training")) < 0;
        },
        kTimeoutMs));
    EXPECT_EQ(manualSnapshots(), before);

    // STRATA_SCREENSHOT=/path/shot.png saves the Snapshots tab and <path>-overview.png the chart
    // (under xvfb-run with QT_QPA_PLATFORM=xcb, the real window as the X server shows it).
    const QString shot = qEnvironmentVariable("STRATA_SCREENSHOT");
    if (!shot.isEmpty()) {
        auto save = [&window](const QString &path) {
            QTest::qWait(300); // screenshots only: lets the platform paint; no assertion depends on it
            const QPixmap pixmap = QGuiApplication::platformName() == QLatin1String("xcb")
                                       ? window.screen()->grabWindow(0)
                                       : window.grab();
            pixmap.save(path);
        };
        save(shot);
        panel->findChild<QTabWidget *>(QStringLiteral("volumeDetailTabWidget"))->setCurrentIndex(0);
        save(QString(shot).replace(QStringLiteral(".png"), QStringLiteral("-overview.png")));
        window.showPage(views::MainWindow::Page::Sources);
        save(QString(shot).replace(QStringLiteral(".png"), QStringLiteral("-sources.png")));
        window.showPage(views::MainWindow::Page::Events);
        save(QString(shot).replace(QStringLiteral(".png"), QStringLiteral("-events.png")));
        window.showPage(views::MainWindow::Page::Volumes);
        // The system switching to a dark theme while the app runs.
        const QPalette light = QApplication::palette();
        QApplication::setPalette(testsupport::darkPalette());
        save(QString(shot).replace(QStringLiteral(".png"), QStringLiteral("-dark.png")));
        QApplication::setPalette(light);
    }
}

TEST_F(DesktopDemo, LayoutIsSavedAndRestored)
{
    views::MainWindow &window = controller->window();
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.showPage(views::MainWindow::Page::Events);
    window.close();
    controller.reset();

    desktop::DesktopController::Options options;
    options.demo = true;
    options.settingsPath = settingsDir.filePath(QStringLiteral("strata.ini"));
    controller = std::make_unique<desktop::DesktopController>(*engine, demo->config(), options);
    EXPECT_EQ(controller->window().currentPage(), views::MainWindow::Page::Events);
}

TEST_F(DesktopDemo, DemoMenuPlaysTheNextTr4858StepThroughTheActionDialog)
{
    views::MainWindow &window = controller->window();
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            // dgx's 13 §4.8 jobs (aks-gpu runs the triage workloads beside them).
            const auto dgx = engine->estate().jobs().scope(QStringLiteral("dgx"));
            return dgx && dgx->items().size() == 13;
        },
        kTimeoutMs));
    QAction *play = nullptr;
    for (QAction *action : window.findChildren<QAction *>()) {
        if (action->text().startsWith(QStringLiteral("Play step 1 of 9"))) {
            play = action;
        }
    }
    ASSERT_TRUE(play);
    EXPECT_TRUE(play->text().contains(QStringLiteral("d-2-gg"))) << play->text().toStdString();
    play->trigger();
    EXPECT_EQ(window.currentPage(), views::MainWindow::Page::Gpus);
    views::ActionDialog *dialog = nullptr;
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            dialog = window.findChild<views::ActionDialog *>(QStringLiteral("actionDialog"));
            return dialog && dialog->isVisible();
        },
        kTimeoutMs));
    EXPECT_EQ(dialog->preview().title, QStringLiteral("Submit job"));
    auto *ok = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    ASSERT_TRUE(ok->isEnabled()) << dialog->preview().blockedReason.toStdString();
    QTest::mouseClick(ok, Qt::LeftButton);
    EXPECT_TRUE(play->text().startsWith(QStringLiteral("Play step 2 of 9"))) << play->text().toStdString();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return engine->estate().jobs().find(QStringLiteral("dgx"), QStringLiteral("dgx/runai-team-d/d-2-gg"))
                   != nullptr;
        },
        kTimeoutMs));
    if (const QByteArray shot = qgetenv("STRATA_GPU_SCREENSHOT"); !shot.isEmpty()) {
        demo->kubernetes()->tick(5);
        QTest::qWait(1500); // screenshot only: lets the pages catch up; no assertion depends on it
        window.grab().save(QString::fromLocal8Bit(shot));
    }
}
