// The window fits its screen, failing jobs look failed, sources that have not answered yet are
// loading (not empty), and numbers read down a right edge (desktop).

#include "models/core/runtime/engine.h"
#include "models/core/store/credentialstore.h"
#include "models/item/activitymodel.h"
#include "models/item/jobtablemodel.h"
#include "models/item/projecttablemodel.h"
#include "models/item/roles.h"
#include "models/item/snapshotlistmodel.h"
#include "models/item/sourcetablemodel.h"
#include "models/item/timelinemodel.h"
#include "models/item/volumetablemodel.h"
#include "tests/models/computefixture.h"
#include "tests/support/qt/manualclock.h"
#include "views/chartfit.h"
#include "views/jobdetailpanel.h"
#include "views/jobfilterproxy.h"
#include "views/jobspage.h"
#include "views/mainwindow.h"
#include "views/overviewpage.h"
#include "views/statusdelegate.h"

#include <QChart>
#include <QChartView>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QScreen>
#include <QTableView>
#include <QTest>
#include <QValueAxis>

#include <gtest/gtest.h>

using namespace strata;
using models::JobTableModel;

namespace {

/// state48 plus a job whose image cannot be pulled, holding half a GPU, with the kubelet's
/// long message (the text that used to grow the window).
testsupport::ComputeState polishFailingState()
{
    testsupport::ComputeState state = testsupport::state48();
    testsupport::JobDef pulling = testsupport::runningJob(QStringLiteral("bert-serve"),
                                                          QStringLiteral("team-a"),
                                                          500,
                                                          core::JobType::Interactive,
                                                          QStringLiteral("dgx1-2"),
                                                          {7});
    pulling.status = core::JobStatus::ContainerCreating;
    pulling.failureReason = QStringLiteral("ImagePullBackOff");
    pulling.pendingReason =
        QStringLiteral("ImagePullBackOff: Back-off pulling image \"nvcr.io/nvidia/pytorch:24.13-py3\"")
        + QStringLiteral(": rpc error: code = NotFound desc = failed to resolve reference").repeated(6);
    state.jobs.push_back(pulling);
    return state;
}

int polishRowNamed(const QAbstractItemModel *model, const QString &name)
{
    for (int r = 0; r < model->rowCount(); ++r) {
        if (model->index(r, JobTableModel::Name).data().toString() == name) {
            return r;
        }
    }
    return -1;
}

bool polishFits(const QWidget &window)
{
    return window.screen()->availableGeometry().contains(window.frameGeometry());
}

/// A main window with the compute pages over `engine`'s estate.
struct PolishUi
{
    testsupport::ManualClock clock;
    core::InMemoryCredentialStore credentials;
    core::Engine engine{{clock, credentials, nullptr, QStringLiteral("tester")}};
    std::unique_ptr<models::VolumeTableModel> volumes;
    std::unique_ptr<models::SnapshotListModel> snapshots;
    std::unique_ptr<models::SourceTableModel> sources;
    std::unique_ptr<models::ActivityModel> activity;
    std::unique_ptr<models::TimelineModel> timeline;
    std::unique_ptr<JobTableModel> jobs;
    std::unique_ptr<models::ProjectTableModel> projects;
    std::unique_ptr<views::MainWindow> window;

    void build()
    {
        volumes = std::make_unique<models::VolumeTableModel>(engine.estate());
        snapshots = std::make_unique<models::SnapshotListModel>(engine.estate());
        sources = std::make_unique<models::SourceTableModel>(engine);
        activity = std::make_unique<models::ActivityModel>(engine.actions());
        timeline = std::make_unique<models::TimelineModel>(engine.timeline());
        jobs = std::make_unique<JobTableModel>(engine.estate(), [this] {
            return engine.clock().now();
        });
        projects = std::make_unique<models::ProjectTableModel>(engine.estate());
        window = std::make_unique<views::MainWindow>(views::MainWindow::Models{volumes.get(),
                                                                               snapshots.get(),
                                                                               sources.get(),
                                                                               activity.get(),
                                                                               timeline.get(),
                                                                               &engine.estate(),
                                                                               jobs.get(),
                                                                               projects.get()},
                                                     engine.clock());
    }
};

core::SourceConfig polishSource(const QString &name, core::SourceKind kind)
{
    core::SourceConfig c;
    c.name = name;
    c.kind = kind;
    c.url = QStringLiteral("https://127.0.0.1:9"); // discard port: never answers with data
    c.username = QStringLiteral("admin");
    return c;
}

} // namespace

TEST(DeskPolish, WindowStaysOnTheScreenWhenAFailingJobIsSelected)
{
    PolishUi ui;
    polishFailingState().publish(ui.engine.estate());
    ui.build();
    views::MainWindow &window = *ui.window;
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    const QRect available = window.screen()->availableGeometry();
    EXPECT_TRUE(polishFits(window)) << window.frameGeometry().height() << " > " << available.height();
    // Nothing ran yet: the Activity dock leaves the height to the pages.
    EXPECT_FALSE(window.activityDock()->isVisible());

    window.showPage(views::MainWindow::Page::Jobs);
    ASSERT_TRUE(window.jobsPage()->selectJob(testsupport::kCluster, QStringLiteral("runai-team-a/bert-serve")));
    QTest::qWait(50); // bounded on purpose: checks that the window does not grow past the screen
    QCoreApplication::processEvents();
    EXPECT_TRUE(polishFits(window)) << "after selecting: " << window.frameGeometry().width() << "x"
                                    << window.frameGeometry().height() << " on " << available.width() << "x"
                                    << available.height();
    // The job list keeps its rows instead of shrinking to one.
    EXPECT_GE(window.jobsPage()->runningView()->viewport()->height(),
              3 * window.jobsPage()->runningView()->verticalHeader()->defaultSectionSize());

    // The job splitter's state is part of the saved layout.
    const QVariantMap state = window.layoutState();
    EXPECT_TRUE(state.contains(QStringLiteral("splitters/jobSplitter")));
}

TEST(DeskPolish, FailingJobIsRedWithItsReasonInTableAndDetail)
{
    core::Estate estate;
    JobTableModel jobs{estate, [] {
                           return testsupport::computeNow();
                       }};
    polishFailingState().publish(estate);
    views::JobsPage page(&estate, &jobs);
    const int row = polishRowNamed(page.runningProxy(), QStringLiteral("bert-serve"));
    ASSERT_GE(row, 0);
    const QModelIndex status = page.runningProxy()->index(row, JobTableModel::Status);
    EXPECT_EQ(status.data().toString(), QStringLiteral("ImagePullBackOff"));
    EXPECT_EQ(status.data(models::StatusRole).toString(), QStringLiteral("failed"));
    EXPECT_TRUE(status.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Back-off pulling image")));
    // A healthy running job keeps its blue "Running".
    const QModelIndex fine =
        page.runningProxy()->index(polishRowNamed(page.runningProxy(), QStringLiteral("a-1-1-jupyter")), 0);
    EXPECT_EQ(fine.siblingAtColumn(JobTableModel::Status).data(models::StatusRole).toString(),
              QStringLiteral("running"));

    ASSERT_TRUE(page.selectJob(testsupport::kCluster, QStringLiteral("runai-team-a/bert-serve")));
    auto *label = page.findChild<QLabel *>(QStringLiteral("jobStatusLabel"));
    ASSERT_TRUE(label);
    EXPECT_TRUE(label->text().startsWith(QStringLiteral("ImagePullBackOff: Back-off pulling image")))
        << label->text().toStdString();
    EXPECT_EQ(label->palette().color(QPalette::WindowText),
              views::StatusDelegate::colorFor(QStringLiteral("failed"), page.palette()));
    EXPECT_TRUE(page.findChild<QLabel *>(QStringLiteral("jobPlacementLabel"))
                    ->text()
                    .contains(QStringLiteral("0.5 GPUs requested")));
}

TEST(DeskPolish, SourcesThatHaveNotAnsweredAreLoadingNotEmpty)
{
    PolishUi ui;
    ui.engine.setSources({polishSource(QStringLiteral("dgx"), core::SourceKind::Kubernetes),
                          polishSource(QStringLiteral("ontap-ai"), core::SourceKind::Ontap)});
    ui.sources = std::make_unique<models::SourceTableModel>(ui.engine);
    // No event loop has run: no poll has landed.
    views::OverviewPage page(&ui.engine.estate(), ui.sources.get());
    const auto *loading = page.findChild<QLabel *>(QStringLiteral("overviewLoadingLabel"));
    ASSERT_TRUE(loading);
    EXPECT_EQ(loading->text(), QStringLiteral("Loading dgx…"));
    EXPECT_FALSE(page.findChild<QLabel *>(QStringLiteral("overviewEmptyLabel")));
    const auto *volumes = page.findChild<QLabel *>(QStringLiteral("tile_storage_volumes_value"));
    ASSERT_TRUE(volumes);
    EXPECT_EQ(volumes->text(), QStringLiteral("…"));
    bool saysLoading = false;
    for (const QLabel *l : page.findChildren<QLabel *>()) {
        saysLoading = saysLoading || l->text() == QStringLiteral("Loading ontap-ai…");
        EXPECT_FALSE(l->text().contains(QStringLiteral("0 B used of 0 B"))) << l->text().toStdString();
    }
    EXPECT_TRUE(saysLoading);
    EXPECT_EQ(views::MainWindow::healthSummary({core::Health::Unknown, core::Health::Unknown}),
              QStringLiteral("2 sources: 2 connecting…"));
}

TEST(DeskPolish, NumericColumnsAreRightAligned)
{
    PolishUi ui;
    testsupport::state49().publish(ui.engine.estate());
    ui.engine.setSources({polishSource(QStringLiteral("ontap-ai"), core::SourceKind::Ontap)});
    ui.build();
    auto right = [](const QModelIndex &index) {
        return (index.data(Qt::TextAlignmentRole).toInt() & Qt::AlignRight) != 0;
    };
    EXPECT_TRUE(right(ui.sources->index(0, models::SourceTableModel::Latency)));
    EXPECT_FALSE(right(ui.sources->index(0, models::SourceTableModel::Name)));
    for (int column : {JobTableModel::Age,
                       JobTableModel::Gpus,
                       JobTableModel::RunTime,
                       JobTableModel::GpuUtilization,
                       JobTableModel::WaitTime,
                       JobTableModel::QueuePosition}) {
        EXPECT_TRUE(right(ui.jobs->index(0, column))) << column;
    }
}

TEST(DeskPolish, JobsIconStaysVisibleInDarkMode)
{
    PolishUi ui;
    ui.build();
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2d, 0x2d, 0x2d));
    dark.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    ui.window->setPalette(dark);
    QCoreApplication::processEvents();
    const int row = int(ui.window->pageOrder().indexOf(views::MainWindow::Page::Jobs));
    auto *navigation = ui.window->findChild<QListWidget *>(QStringLiteral("navigationListWidget"));
    ASSERT_TRUE(navigation);
    const QImage image = navigation->item(row)->icon().pixmap(24, 24).toImage();
    int light = 0;
    int opaque = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.alpha() > 128) {
                ++opaque;
                light += c.lightness() > 128 ? 1 : 0;
            }
        }
    }
    ASSERT_GT(opaque, 0);
    // Most of the glyph contrasts with the dark window.
    EXPECT_GT(light * 2, opaque) << light << " of " << opaque << " pixels are light";
}

TEST(DeskPolish, ShortChartsShowFewerAxisLabelsInsteadOfElidingThem)
{
    auto *chart = new QChart();
    auto *series = new QLineSeries(chart);
    series->append(0, 0);
    series->append(100, 3000);
    chart->addSeries(series);
    auto *value = new QValueAxis(chart);
    value->setRange(0, 3000);
    value->setLabelFormat(QStringLiteral("%.0f MiB/s"));
    value->setTickCount(11);
    auto *time = new QValueAxis(chart);
    time->setRange(0, 100);
    time->setTickCount(21);
    chart->addAxis(time, Qt::AlignBottom);
    chart->addAxis(value, Qt::AlignLeft);
    series->attachAxis(time);
    series->attachAxis(value);
    views::keepAxisLabelsWhole(chart);
    QChartView view(chart);
    view.resize(360, 150);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    const QFontMetrics metrics(value->labelsFont());
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return value->tickCount() >= 2 && value->tickCount() < 11 && time->tickCount() < 21
                   && chart->plotArea().height() / (value->tickCount() - 1) >= metrics.height();
        },
        10000));
    // Each label has its line and half a line of room, so none is elided.
    ASSERT_GE(value->tickCount(), 2);
    EXPECT_LT(value->tickCount(), 11);
    EXPECT_GE(chart->plotArea().height() / (value->tickCount() - 1), metrics.height());
    EXPECT_LT(time->tickCount(), 21);

    // Tall again: back to the ticks the chart asked for.
    view.resize(360, 900);
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            return value->tickCount() == 11;
        },
        10000));
    EXPECT_EQ(value->tickCount(), 11);
    // A later wish is kept and fitted as well.
    value->setTickCount(9);
    QTest::qWait(20); // bounded on purpose: checks that the fitting does not undo the wish
    EXPECT_EQ(value->tickCount(), 9);
}
