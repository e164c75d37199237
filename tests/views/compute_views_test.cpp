// The GPU, Jobs and Overview pages over estates holding the TR-4858 states (SCHEDULING.md 3.5).

#include "models/core/domain/estate.h"
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
#include "views/actiondialog.h"
#include "views/allocationhistorychart.h"
#include "views/gpupage.h"
#include "views/gpuprojectchart.h"
#include "views/jobdetailpanel.h"
#include "views/jobfilterproxy.h"
#include "views/jobspage.h"
#include "views/jobsubmitdialog.h"
#include "views/mainwindow.h"
#include "views/nodepackingview.h"
#include "views/overviewpage.h"
#include "views/quotawhatifdialog.h"
#include "views/statusdelegate.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

#include <gtest/gtest.h>

using namespace strata;
using models::JobTableModel;
using testsupport::computeNow;
using testsupport::kCluster;

namespace {

constexpr auto Fatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

QStringList strs(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *item : items) {
        out << QString::fromUtf8(item);
    }
    return out;
}

QList<core::Project> projectsOf(const core::Estate &estate)
{
    QList<core::Project> out;
    for (const auto &p : estate.projects().all()) {
        out << *p;
    }
    std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) {
        return a.name < b.name;
    });
    return out;
}

QStringList labels(const views::GpuProjectChart::Layout &layout)
{
    QStringList out;
    for (const auto &bar : layout.bars) {
        out << bar.label;
    }
    return out;
}

/// Width in GPUs of a segment on the chart's scale.
double gpusOf(const views::GpuProjectChart::Layout &layout, const QRectF &rect)
{
    return rect.isEmpty() ? 0.0 : rect.width() / layout.plot.width() * double(layout.scaleMax) / 1000.0;
}

int rowOf(const QAbstractItemModel *model, const QString &name)
{
    for (int r = 0; r < model->rowCount(); ++r) {
        if (model->index(r, JobTableModel::Name).data().toString() == name) {
            return r;
        }
    }
    return -1;
}

struct ComputeUi
{
    core::Estate estate;
    JobTableModel jobs{estate, [] {
                           return computeNow();
                       }};
    models::ProjectTableModel projects{estate};
};

} // namespace

TEST(GpuProjectChart, Section48_BarsSplitInAndOverQuotaWithDocumentLabels)
{
    core::Estate estate;
    testsupport::state48().publish(estate);
    QFont font;
    font.setPixelSize(12);
    const auto layout =
        views::GpuProjectChart::computeLayout(projectsOf(estate), QRectF(0, 0, 800, 300), QFontMetricsF(font));
    EXPECT_EQ(labels(layout), strs({"4/4", "4/2", "4/2", "4/8"}));
    EXPECT_EQ(layout.scaleMax, 8000); // team-d's quota is the widest thing to show
    const auto &b = layout.bars[1];
    EXPECT_NEAR(gpusOf(layout, b.inQuotaRect), 2.0, 0.01);
    EXPECT_NEAR(gpusOf(layout, b.overQuotaRect), 2.0, 0.01);
    EXPECT_NEAR(b.quotaX, layout.xFor(2000), 0.01);
    EXPECT_DOUBLE_EQ(b.overQuotaRect.left(), b.inQuotaRect.right());
    const auto &d = layout.bars[3];
    EXPECT_NEAR(gpusOf(layout, d.inQuotaRect), 4.0, 0.01);
    EXPECT_TRUE(d.overQuotaRect.isEmpty());
    EXPECT_NEAR(d.quotaX, layout.plot.right(), 0.01);
    EXPECT_TRUE(d.pendingRect.isEmpty());
    // Bars never overlap and stay inside the plot.
    for (int i = 1; i < layout.bars.size(); ++i) {
        EXPECT_GE(layout.bars[i].inQuotaRect.top(), layout.bars[i - 1].inQuotaRect.bottom());
    }
    EXPECT_LE(layout.plot.right(), 800);
}

TEST(GpuProjectChart, Section410_OverQuotaPendingGhostAndEmptyProject)
{
    core::Estate estate;
    testsupport::state410().publish(estate);
    QFont font;
    font.setPixelSize(14);
    const auto layout =
        views::GpuProjectChart::computeLayout(projectsOf(estate), QRectF(0, 0, 640, 260), QFontMetricsF(font));
    EXPECT_EQ(labels(layout), strs({"8/4", "4/2", "4/2", "0/8"}));
    const auto &a = layout.bars[0];
    EXPECT_NEAR(gpusOf(layout, a.inQuotaRect), 4.0, 0.01);
    EXPECT_NEAR(gpusOf(layout, a.overQuotaRect), 4.0, 0.01);
    const auto &b = layout.bars[1];
    EXPECT_NEAR(gpusOf(layout, b.pendingRect), 2.0, 0.01); // b-5-gg waits for 2 GPUs
    EXPECT_DOUBLE_EQ(b.pendingRect.left(), b.overQuotaRect.right());
    const auto &d = layout.bars[3];
    EXPECT_NEAR(gpusOf(layout, d.inQuotaRect), 0.0, 0.01);
    EXPECT_NEAR(d.quotaX, layout.xFor(8000), 0.01);
}

TEST(GpuProjectChart, FractionsKeepDecimalsAndTooltipsGiveExactValues)
{
    core::Project p;
    p.name = QStringLiteral("team-b");
    p.allocated = 600;
    p.quota = 2000;
    p.inQuota = 600;
    p.utilization = 23;
    EXPECT_EQ(views::GpuProjectChart::label(p), QStringLiteral("0.6/2"));
    const QString tip = views::GpuProjectChart::toolTipText(p);
    EXPECT_TRUE(tip.contains(QStringLiteral("0.6 GPUs allocated"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("23.0 %"))) << tip.toStdString();

    views::GpuProjectChart chart;
    chart.resize(500, 200);
    chart.setProjects({p});
    chart.show();
    EXPECT_EQ(chart.currentLayout().bars.value(0).label, QStringLiteral("0.6/2"));
    EXPECT_NEAR(gpusOf(chart.currentLayout(), chart.currentLayout().bars[0].inQuotaRect), 0.6, 0.01);
}

TEST(NodePackingView, ShowsFractionalPackingPerGpu)
{
    core::Estate estate;
    testsupport::state48().publish(estate);
    QList<core::GpuNode> nodes;
    for (const auto &n : estate.gpuNodes().all()) {
        nodes << *n;
    }
    std::sort(nodes.begin(), nodes.end(), [](const auto &a, const auto &b) {
        return a.name < b.name;
    });
    ASSERT_EQ(nodes.size(), 2);
    EXPECT_EQ(views::NodePackingView::slotText(nodes[0].slots[4]), QStringLiteral("b-1-g06 0.6 + b-2-g04 0.4"));
    EXPECT_EQ(views::NodePackingView::slotText(nodes[1].slots[0]),
              QStringLiteral("c-1-g05 0.5 + c-2-g03 0.3 + c-3-g02 0.2"));
    EXPECT_TRUE(views::NodePackingView::headerText(nodes[0]).contains(QStringLiteral("8/8 GPUs allocated")));

    QFont font;
    font.setPixelSize(12);
    const auto layout = views::NodePackingView::computeLayout(nodes, 1200, QFontMetricsF(font));
    ASSERT_EQ(layout.cells.size(), 16);
    ASSERT_EQ(layout.nodes.size(), 2);
    for (const auto &cell : layout.cells) {
        EXPECT_NEAR(cell.fillRect.width() / (cell.rect.width() - 8), double(cell.used) / 1000.0, 0.01);
    }
    // Narrow: the cells wrap, the view grows.
    const auto narrow = views::NodePackingView::computeLayout(nodes, 320, QFontMetricsF(font));
    EXPECT_GT(narrow.height, layout.height);
}

TEST(AllocationHistoryChart, StacksProjectsUnderTheTotalQuotaWithAReadout)
{
    const QDateTime t0 = computeNow().addSecs(-3600);
    const auto steps = views::AllocationHistoryChart::stepPoints({{t0, 0.0}, {t0.addSecs(60), 0.6}}, t0.addSecs(120));
    ASSERT_EQ(steps.size(), 4);
    EXPECT_EQ(steps[1].y(), 0.0); // held until the change
    EXPECT_EQ(steps[2].y(), 0.6);
    EXPECT_EQ(steps[3].x(), double(t0.addSecs(120).toMSecsSinceEpoch()));

    std::vector<core::ProjectSample> samples;
    for (const auto &[project, values] : std::vector<std::pair<QString, std::vector<core::MilliGpu>>>{
             {QStringLiteral("team-a"), {0, 1000, 2000, 4000}},
             {QStringLiteral("team-b"), {0, 600, 1000, 2000, 4000}}}) {
        for (std::size_t i = 0; i < values.size(); ++i) {
            core::ProjectSample s;
            s.project = project;
            s.time = t0.addSecs(qint64(i) * 60);
            s.allocated = values[i];
            s.quota = project == QLatin1String("team-a") ? 4000 : 2000;
            s.utilization = 40;
            samples.push_back(s);
        }
    }
    views::AllocationHistoryChart chart;
    chart.setHistory(samples, t0, computeNow());
    EXPECT_TRUE(chart.showsChart());
    EXPECT_EQ(chart.projectNames(), strs({"team-a", "team-b"}));
    const QList<QPointF> b = chart.allocationPoints(QStringLiteral("team-b"));
    ASSERT_FALSE(b.isEmpty());
    EXPECT_DOUBLE_EQ(b.back().y(), 4.0);
    EXPECT_TRUE(std::any_of(b.begin(), b.end(), [](const QPointF &p) {
        return qFuzzyCompare(p.y(), 0.6);
    }));
    // Stacked: team-b's band sits on team-a's, its top is the total; the quota line is the sum.
    const QList<QPointF> bTop = chart.bandUpperPoints(QStringLiteral("team-b"));
    ASSERT_FALSE(bTop.isEmpty());
    EXPECT_DOUBLE_EQ(bTop.back().y(), 8.0);
    EXPECT_EQ(chart.bandLowerPoints(QStringLiteral("team-b")), chart.bandUpperPoints(QStringLiteral("team-a")));
    EXPECT_TRUE(chart.bandLowerPoints(QStringLiteral("team-a")).isEmpty()) << "the bottom band starts at 0";
    const QList<QPointF> quota = chart.quotaPoints();
    ASSERT_FALSE(quota.isEmpty());
    EXPECT_TRUE(std::all_of(quota.begin(), quota.end(), [](const QPointF &p) {
        return p.y() == 6.0;
    }));
    EXPECT_FALSE(chart.utilizationPoints(QStringLiteral("team-a")).isEmpty());
    // The hover readout: each project's own GPUs (top of the stack first) and the total.
    const QString readout = chart.readoutAt(t0.addSecs(4 * 60 + 30));
    EXPECT_TRUE(readout.contains(QStringLiteral("team-b: 4 GPUs\nteam-a: 4 GPUs\nTotal: 8 of 6 GPUs quota")))
        << readout.toStdString();
    EXPECT_TRUE(chart.readoutAt(t0.addSecs(-60)).isEmpty());

    chart.setHistory({}, t0, computeNow());
    EXPECT_FALSE(chart.showsChart());
}

TEST(AllocationHistoryChart, UtilizationTitleSaysWhenNothingWasMeasuredForMostOfTheRange)
{
    // An idle cluster: a project with a quota and nothing allocated for 23 h, then work for the
    // last hour. Utilization (DCGM over held GPUs) exists only for that hour.
    const QDateTime to = computeNow();
    const QDateTime from = to.addSecs(-24 * 3600);
    std::vector<core::ProjectSample> samples;
    for (int hour = 0; hour <= 24; ++hour) {
        core::ProjectSample s;
        s.project = QStringLiteral("team-a");
        s.time = from.addSecs(qint64(hour) * 3600);
        s.quota = 3000;
        s.allocated = hour >= 23 ? 3000 : 0;
        s.utilization = hour >= 23 ? 52 : -1;
        samples.push_back(s);
    }
    views::AllocationHistoryChart chart;
    chart.setHistory(samples, from, to);
    EXPECT_TRUE(chart.utilizationTitle().contains(QStringLiteral("measured since")))
        << chart.utilizationTitle().toStdString();

    for (core::ProjectSample &s : samples) {
        s.allocated = 0;
        s.utilization = -1;
    }
    chart.setHistory(samples, from, to);
    EXPECT_TRUE(chart.utilizationTitle().contains(QStringLiteral("none measured")))
        << chart.utilizationTitle().toStdString();

    for (core::ProjectSample &s : samples) {
        s.allocated = 3000;
        s.utilization = 75;
    }
    chart.setHistory(samples, from, to);
    EXPECT_EQ(chart.utilizationTitle(), QStringLiteral("GPU utilization"));
}

TEST(GpuPage, KpisQuotaInvariantAndHistoryRequests)
{
    ComputeUi ui;
    testsupport::state48().publish(ui.estate);
    views::GpuPage page(&ui.estate, &ui.projects);
    QSignalSpy wanted(&page, &views::GpuPage::projectHistoryWanted);
    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    EXPECT_EQ(page.cluster(), kCluster);
    ASSERT_GE(wanted.count(), 1);
    EXPECT_EQ(wanted.last().at(0).toString(), kCluster);
    EXPECT_EQ(wanted.last().at(1).toLongLong(), 3600);
    EXPECT_TRUE(page.kpiText().contains(QStringLiteral("16/16 GPUs allocated"))) << page.kpiText().toStdString();
    EXPECT_TRUE(page.quotaWarning().isEmpty());
    EXPECT_EQ(labels(page.projectChart()->currentLayout()), strs({"4/4", "4/2", "4/2", "4/8"}));
    EXPECT_EQ(page.projectView()->model()->rowCount(), 4);
    EXPECT_EQ(page.packingView()->nodes().size(), 2);

    // A broken invariant is flagged; the next publish updates the chart without a reset.
    QSignalSpy reset(page.projectView()->model(), &QAbstractItemModel::modelReset);
    auto s = testsupport::state410();
    s.quotas[QStringLiteral("team-d")] = 6000;
    s.publish(ui.estate);
    page.refresh();
    EXPECT_FALSE(page.quotaWarning().isEmpty());
    EXPECT_TRUE(page.quotaWarning().contains(QStringLiteral("14"))) << page.quotaWarning().toStdString();
    EXPECT_EQ(labels(page.projectChart()->currentLayout()), strs({"8/4", "4/2", "4/2", "0/6"}));
    EXPECT_EQ(reset.count(), 0);

    page.setHistoryRangeIndex(4);
    EXPECT_EQ(wanted.last().at(1).toLongLong(), 30 * 86400);
    page.setProjectHistory(kCluster, {}, computeNow().addDays(-30), computeNow());
    // No stored samples yet: the live values still draw one point per project.
    EXPECT_EQ(page.historyChart()->projectNames().size(), 4);
}

TEST(GpuPage, EditQuotaAsksForAProjectQuotaEdit)
{
    ComputeUi ui;
    testsupport::state48().publish(ui.estate);
    views::GpuPage page(&ui.estate, &ui.projects);
    page.show();
    QSignalSpy requested(&page, &views::GpuPage::actionRequested);
    QTableView *view = page.projectView();
    view->setCurrentIndex(view->model()->index(1, 0)); // sorted by name: team-b
    auto *edit = page.findChild<QPushButton *>(QStringLiteral("editQuotaButton"));
    ASSERT_TRUE(edit);
    ASSERT_TRUE(edit->isEnabled());
    edit->click();
    ASSERT_EQ(requested.count(), 1);
    const auto request = requested.at(0).at(0).value<core::ActionRequest>();
    EXPECT_EQ(request.kind, core::ActionKind::ProjectQuotaEdit);
    EXPECT_EQ(request.project, QStringLiteral("team-b"));
    EXPECT_EQ(request.quota, 2000);

    // The confirmation dialog edits the new quota with decimals and re-previews.
    core::ActionRequest seen;
    views::ActionDialog dialog(request, [&seen](const core::ActionRequest &r) {
        seen = r;
        core::ActionPreview p;
        p.title = QStringLiteral("Set quota");
        return p;
    });
    auto *spin = dialog.findChild<QDoubleSpinBox *>(QStringLiteral("quotaDoubleSpinBox"));
    ASSERT_TRUE(spin);
    EXPECT_DOUBLE_EQ(spin->value(), 2.0);
    spin->setValue(2.5);
    EXPECT_EQ(seen.quota, 2500);
    EXPECT_TRUE(dialog.canConfirm());
}

TEST(JobsPage, SeparatesRunningFromQueuedAndShowsPreemptedDistinctly)
{
    ComputeUi ui;
    views::JobsPage page(&ui.estate, &ui.jobs);
    QAbstractItemModelTester running(page.runningProxy(), Fatal);
    QAbstractItemModelTester queued(page.queuedProxy(), Fatal);
    QSignalSpy reset(&ui.jobs, &QAbstractItemModel::modelReset);
    testsupport::state48().publish(ui.estate);
    EXPECT_EQ(page.runningProxy()->rowCount(), 13);
    EXPECT_EQ(page.queuedProxy()->rowCount(), 0);

    testsupport::state49().publish(ui.estate);
    EXPECT_EQ(page.runningProxy()->rowCount(), 13); // d-2-gg in, c-4-gg out
    ASSERT_EQ(page.queuedProxy()->rowCount(), 1);
    const QModelIndex status = page.queuedProxy()->index(0, JobTableModel::Status);
    EXPECT_EQ(page.queuedProxy()->index(0, JobTableModel::Name).data().toString(), QStringLiteral("c-4-gg"));
    EXPECT_EQ(status.data().toString(), QStringLiteral("Preempted"));
    EXPECT_EQ(status.data(models::StatusRole).toString(), QStringLiteral("preempted"));
    const QPalette light;
    EXPECT_NE(views::StatusDelegate::colorFor(QStringLiteral("preempted"), light, true),
              views::StatusDelegate::colorFor(QStringLiteral("pending"), light, true));
    EXPECT_TRUE(page.queueCountsText().contains(QStringLiteral("team-c 1"))) << page.queueCountsText().toStdString();

    testsupport::state410().publish(ui.estate);
    EXPECT_EQ(page.queuedProxy()->rowCount(), 2);
    EXPECT_EQ(page.runningProxy()->rowCount(), 14);
    EXPECT_EQ(reset.count(), 0);

    // Project and status filters apply to both tables.
    page.showJobs(kCluster, QStringLiteral("team-b"));
    EXPECT_EQ(page.runningProxy()->rowCount(), 4);
    EXPECT_EQ(page.queuedProxy()->rowCount(), 1);
    EXPECT_EQ(page.queueCountsText(), QStringLiteral("Queued per project: team-b 1"));
    page.statusCombo()->setCurrentIndex(page.statusCombo()->findData(int(core::JobStatus::Pending)));
    EXPECT_EQ(page.runningProxy()->rowCount(), 0);
    EXPECT_EQ(page.queuedProxy()->rowCount(), 1);
    page.showJobs({}, {});
    page.filterEdit()->setText(QStringLiteral("jupyter"));
    // The search applies once typing pauses.
    EXPECT_TRUE(QTest::qWaitFor(
        [&page] {
            return page.runningProxy()->rowCount() == 1;
        },
        2000));
}

TEST(JobsPage, QueueTableListsEachProjectFifo)
{
    ComputeUi ui;
    auto s = testsupport::state410();
    s.jobs.push_back(
        testsupport::queuedJob(QStringLiteral("b-6-g"), QStringLiteral("team-b"), 1000, core::JobType::Train));
    s.publish(ui.estate);
    views::JobsPage page(&ui.estate, &ui.jobs);
    const QAbstractItemModel *q = page.queuedProxy();
    ASSERT_EQ(q->rowCount(), 3);
    QStringList order;
    for (int r = 0; r < q->rowCount(); ++r) {
        order << q->index(r, JobTableModel::Name).data().toString();
    }
    EXPECT_EQ(order, strs({"b-5-gg", "b-6-g", "c-6-gg"}));
}

TEST(JobsPage, DeleteBuildsOneRequestWithTheSelectedIds)
{
    ComputeUi ui;
    testsupport::state410().publish(ui.estate);
    views::JobsPage page(&ui.estate, &ui.jobs);
    page.show();
    QSignalSpy requested(&page, &views::JobsPage::actionRequested);
    const core::Result<core::ActionRequest> nothingSelected = page.deleteRequest();
    ASSERT_FALSE(nothingSelected);
    EXPECT_EQ(nothingSelected.error().message, QStringLiteral("Select the jobs to delete."));

    QTableView *running = page.runningView();
    auto *selection = running->selectionModel();
    for (const QString &name : {QStringLiteral("a-4-gg"), QStringLiteral("a-3-gg")}) {
        selection->select(running->model()->index(rowOf(running->model(), name), 0),
                          QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
    QTableView *queued = page.queuedView();
    queued->selectionModel()->select(queued->model()->index(rowOf(queued->model(), QStringLiteral("b-5-gg")), 0),
                                     QItemSelectionModel::Select | QItemSelectionModel::Rows);
    page.requestDelete();
    ASSERT_EQ(requested.count(), 1);
    const auto request = requested.at(0).at(0).value<core::ActionRequest>();
    EXPECT_EQ(request.kind, core::ActionKind::JobDelete);
    EXPECT_EQ(request.source, kCluster);
    EXPECT_EQ(request.jobIds, strs({"runai-team-a/a-3-gg", "runai-team-a/a-4-gg", "runai-team-b/b-5-gg"}));

    // The confirmation needs the explicit check box, never just Enter.
    views::ActionDialog dialog(request, [](const core::ActionRequest &) {
        core::ActionPreview p;
        p.title = QStringLiteral("Delete jobs");
        p.destructive = true;
        return p;
    });
    EXPECT_FALSE(dialog.canConfirm());
    auto *check = dialog.findChild<QCheckBox *>(QStringLiteral("confirmDeleteCheckBox"));
    ASSERT_TRUE(check);
    EXPECT_TRUE(check->text().contains(QStringLiteral("3 jobs"))) << check->text().toStdString();
    check->setChecked(true);
    EXPECT_TRUE(dialog.canConfirm());
}

TEST(JobSubmitDialog, ValidatesNameGpusProjectAndMounts)
{
    using views::JobSubmitDialog;
    core::JobSpec spec;
    spec.name = QStringLiteral("a-5-g");
    spec.project = QStringLiteral("team-a");
    spec.image = QStringLiteral("gcr.io/run-ai-demo/quickstart");
    spec.gpus = 1000;
    EXPECT_EQ(JobSubmitDialog::validate(spec, {}), QString());
    spec.gpus = 500;
    EXPECT_EQ(JobSubmitDialog::validate(spec, {}), QString());
    spec.gpus = 2000;
    EXPECT_EQ(JobSubmitDialog::validate(spec, {}), QString());
    spec.gpus = 1500;
    EXPECT_FALSE(JobSubmitDialog::validate(spec, {}).isEmpty()); // fractions only below one GPU
    spec.gpus = 0;
    EXPECT_FALSE(JobSubmitDialog::validate(spec, {}).isEmpty());
    spec.gpus = 1000;
    for (const QString &bad : {QStringLiteral("A-5"),
                               QStringLiteral("-a5"),
                               QStringLiteral("a_5"),
                               QStringLiteral("a5-"),
                               QString(63 + 1, QLatin1Char('a'))}) {
        spec.name = bad;
        EXPECT_FALSE(JobSubmitDialog::validate(spec, {}).isEmpty()) << bad.toStdString();
    }
    spec.name = QStringLiteral("a-1-g");
    EXPECT_FALSE(JobSubmitDialog::validate(spec, {QStringLiteral("a-1-g")}).isEmpty());
    spec.name = QStringLiteral("a-5-g");
    spec.project.clear();
    EXPECT_FALSE(JobSubmitDialog::validate(spec, {}).isEmpty());
    spec.project = QStringLiteral("team-a");
    spec.pvcs = {{QStringLiteral("data"), QStringLiteral("mnt/data"), false}};
    EXPECT_FALSE(JobSubmitDialog::validate(spec, {}).isEmpty());
}

TEST(JobSubmitDialog, BuildsAJobSubmitRequestWithFractionAndPvcMount)
{
    core::Estate estate;
    testsupport::state48().publish(estate);
    views::JobSubmitDialog dialog(estate, kCluster, QStringLiteral("team-b"));
    QSignalSpy submitted(&dialog, &views::JobSubmitDialog::submitRequested);
    auto *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    EXPECT_FALSE(ok->isEnabled()); // no name yet
    dialog.findChild<QLineEdit *>(QStringLiteral("submitNameLineEdit"))->setText(QStringLiteral("b-1-g06"));
    EXPECT_FALSE(ok->isEnabled()); // taken in team-b
    EXPECT_TRUE(dialog.validationError().contains(QStringLiteral("already"))) << dialog.validationError().toStdString();
    dialog.findChild<QLineEdit *>(QStringLiteral("submitNameLineEdit"))->setText(QStringLiteral("b-6-g05"));
    dialog.findChild<QDoubleSpinBox *>(QStringLiteral("submitGpuDoubleSpinBox"))->setValue(0.5);
    auto *type = dialog.findChild<QComboBox *>(QStringLiteral("submitTypeComboBox"));
    type->setCurrentIndex(type->findData(int(core::JobType::Interactive)));
    dialog.findChild<QLineEdit *>(QStringLiteral("submitArgsLineEdit"))->setText(QStringLiteral("--epochs 10"));
    auto *pvcs = dialog.findChild<QTableWidget *>(QStringLiteral("submitPvcTableWidget"));
    ASSERT_EQ(pvcs->rowCount(), 1); // team-b's namespace has one claim
    pvcs->item(0, 0)->setCheckState(Qt::Checked);
    ASSERT_TRUE(ok->isEnabled()) << dialog.validationError().toStdString();
    ok->click();
    ASSERT_EQ(submitted.count(), 1);
    const auto request = submitted.at(0).at(0).value<core::ActionRequest>();
    EXPECT_EQ(request.kind, core::ActionKind::JobSubmit);
    EXPECT_EQ(request.source, kCluster);
    EXPECT_EQ(request.job.project, QStringLiteral("team-b"));
    EXPECT_EQ(request.job.gpus, 500);
    EXPECT_EQ(request.job.type, core::JobType::Interactive);
    EXPECT_EQ(request.job.args, strs({"--epochs", "10"}));
    ASSERT_EQ(request.job.pvcs.size(), 1);
    EXPECT_EQ(request.job.pvcs[0].claim, QStringLiteral("data"));
    EXPECT_EQ(request.job.pvcs[0].path, QStringLiteral("/mnt/data"));
}

TEST(JobDetailPanel, ShowsTheJobsEventsAndVolumesBehindItsClaims)
{
    core::Estate estate;
    testsupport::state49().publish(estate);
    std::vector<core::Ptr<core::Event>> events;
    auto event = [&](const QString &object, const QString &reason, int minutesAgo) {
        core::Event e;
        e.source = kCluster;
        e.id = QString::number(events.size());
        e.time = computeNow().addSecs(-60 * minutesAgo);
        e.severity = QStringLiteral("warning");
        e.name = reason;
        e.message = reason + QStringLiteral(" message");
        e.object = object;
        events.push_back(std::make_shared<const core::Event>(e));
    };
    event(QStringLiteral("Pod runai-team-c/c-4-gg-x7k2p"), QStringLiteral("Preempted"), 2);
    event(QStringLiteral("PodGroup runai-team-c/pg-c-4-gg"), QStringLiteral("Unschedulable"), 1);
    event(QStringLiteral("Pod runai-team-c/c-4-ggg-abcde"), QStringLiteral("Other"), 1); // another job
    event(QStringLiteral("Pod runai-team-b/c-4-gg-x7k2p"), QStringLiteral("Other"), 1);  // another namespace
    estate.publishEvents(kCluster, std::make_shared<const core::KeyedList<core::Event>>(events));

    views::JobDetailPanel panel(&estate);
    const auto job = estate.jobs().find(kCluster, kCluster + QStringLiteral("/runai-team-c/c-4-gg"));
    ASSERT_TRUE(job);
    panel.setJob(job, computeNow());
    EXPECT_EQ(panel.eventLines(), strs({"Unschedulable: Unschedulable message", "Preempted: Preempted message"}));
    EXPECT_TRUE(panel.statusText().startsWith(QStringLiteral("Preempted"))) << panel.statusText().toStdString();
    EXPECT_TRUE(panel.timingsText().contains(QStringLiteral("waiting 50m 00s"))) << panel.timingsText().toStdString();
    ASSERT_EQ(panel.volumeLines().size(), 1);
    EXPECT_TRUE(panel.volumeLines()[0].startsWith(QStringLiteral("data → pvc-team-c → ontap-ai: trident_pvc_team-c")))
        << panel.volumeLines()[0].toStdString();

    QSignalSpy volume(&panel, &views::JobDetailPanel::volumeRequested);
    auto *label = panel.findChild<QLabel *>(QStringLiteral("jobVolumesLabel"));
    ASSERT_TRUE(label);
    Q_EMIT label->linkActivated(QStringLiteral("strata:volume?source=ontap-ai&id=uuid-team-c"));
    ASSERT_EQ(volume.count(), 1);
    EXPECT_EQ(volume.at(0).at(0).toString(), QStringLiteral("ontap-ai"));
    EXPECT_EQ(volume.at(0).at(1).toString(), QStringLiteral("uuid-team-c"));
}

TEST(OverviewPage, TilesPerClusterFlagTheQuotaInvariantAndNavigate)
{
    core::Estate estate;
    testsupport::state48().publish(estate);
    views::OverviewPage page(&estate);
    const QStringList values = page.tileValues();
    EXPECT_TRUE(values.contains(QStringLiteral("tile_k8s-ai_gpus=16/16")))
        << values.join(QLatin1Char(' ')).toStdString();
    EXPECT_TRUE(values.contains(QStringLiteral("tile_k8s-ai_running=13")));
    EXPECT_TRUE(values.contains(QStringLiteral("tile_k8s-ai_nodes=2")));
    EXPECT_TRUE(values.contains(QStringLiteral("tile_k8s-ai_quota=16")));
    EXPECT_TRUE(page.warnings().isEmpty());

    QSignalSpy gpu(&page, &views::OverviewPage::gpuPageRequested);
    QSignalSpy jobs(&page, &views::OverviewPage::jobsPageRequested);
    EXPECT_TRUE(page.activateTile(QStringLiteral("tile_k8s-ai_gpus")));
    EXPECT_TRUE(page.activateTile(QStringLiteral("tile_k8s-ai_pending")));
    ASSERT_EQ(gpu.count(), 1);
    EXPECT_EQ(gpu.at(0).at(0).toString(), kCluster);
    ASSERT_EQ(jobs.count(), 1);
    EXPECT_TRUE(jobs.at(0).at(1).toBool());

    auto s = testsupport::state49();
    s.quotas[QStringLiteral("team-a")] = 2000;
    s.publish(estate);
    page.refresh();
    EXPECT_EQ(page.warnings().size(), 1);
    EXPECT_TRUE(page.tileValues().contains(QStringLiteral("tile_k8s-ai_pending=1")));

    // A second cluster adds a total.
    estate.publishCompute(QStringLiteral("k8s-b"), [] {
        auto p = testsupport::state410().build();
        auto c = *p.clusters->items().front();
        c.source = c.id = QStringLiteral("k8s-b");
        p.clusters = std::make_shared<const core::KeyedList<core::GpuCluster>>(
            std::vector<core::Ptr<core::GpuCluster>>{std::make_shared<const core::GpuCluster>(c)});
        p.nodes = nullptr;
        p.projects = nullptr;
        p.jobs = nullptr;
        p.pvcs = nullptr;
        return p;
    }());
    page.refresh();
    EXPECT_TRUE(page.tileValues().contains(QStringLiteral("tile_total_gpus=32/32")))
        << page.tileValues().join(QLatin1Char(' ')).toStdString();
}

TEST(MainWindowCompute, OverviewFirstAndTilesOpenTheirPages)
{
    testsupport::ManualClock clock;
    core::InMemoryCredentialStore credentials;
    core::Engine engine{{clock, credentials, nullptr, QStringLiteral("tester")}};
    testsupport::state48().publish(engine.estate());
    models::VolumeTableModel volumes{engine.estate()};
    models::SnapshotListModel snapshots{engine.estate()};
    models::SourceTableModel sources{engine};
    models::ActivityModel activity{engine.actions()};
    models::TimelineModel timeline{engine.timeline()};
    JobTableModel jobs{engine.estate(), [&engine] {
                           return engine.clock().now();
                       }};
    models::ProjectTableModel projects{engine.estate()};
    views::MainWindow window({&volumes, &snapshots, &sources, &activity, &timeline, &engine.estate(), &jobs, &projects},
                             clock);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    EXPECT_EQ(window.currentPage(), views::MainWindow::Page::Overview);
    EXPECT_EQ(window.findChild<QListWidget *>(QStringLiteral("navigationListWidget"))->count(), 6);
    EXPECT_EQ(window.pageOrder().front(), views::MainWindow::Page::Overview);

    ASSERT_TRUE(window.overviewPage()->activateTile(QStringLiteral("tile_k8s-ai_gpus")));
    EXPECT_EQ(window.currentPage(), views::MainWindow::Page::Gpus);
    EXPECT_EQ(window.gpuPage()->cluster(), kCluster);
    ASSERT_TRUE(window.overviewPage()->activateTile(QStringLiteral("tile_k8s-ai_running")));
    EXPECT_EQ(window.currentPage(), views::MainWindow::Page::Jobs);
    EXPECT_EQ(window.jobsPage()->runningProxy()->rowCount(), 13);

    // Layout state keeps the page by its stable value.
    const QVariantMap state = window.layoutState();
    window.showPage(views::MainWindow::Page::Events);
    window.restoreLayoutState(state);
    EXPECT_EQ(window.currentPage(), views::MainWindow::Page::Jobs);
}

// What if… on the GPUs page: equal quotas after §4.9 let team-c reclaim its paused c-4-gg from
// team-d's newest job; the dialog shows it and asks for the audited quota change on Apply.
TEST(GpuPage, WhatIfPredictsAReclaimAndAppliesTheTriedQuota)
{
    ComputeUi ui;
    testsupport::state49().publish(ui.estate);
    views::GpuPage page(&ui.estate, &ui.projects);
    page.show();
    QSignalSpy requested(&page, &views::GpuPage::actionRequested);
    ASSERT_TRUE(page.whatIfButton());
    page.whatIfButton()->click();
    auto *dialog = page.findChild<views::QuotaWhatIfDialog *>(QStringLiteral("quotaWhatIfDialog"));
    ASSERT_TRUE(dialog);
    EXPECT_EQ(dialog->cluster(), kCluster);
    EXPECT_FALSE(dialog->setQuota(QStringLiteral("team-z"), 1.0));
    QSignalSpy predicted(dialog, &views::QuotaWhatIfDialog::predicted);
    // It opens with the prediction for the quotas as they are: §4.9 is stable, nothing moves.
    ASSERT_TRUE(predicted.wait(10000));
    EXPECT_TRUE(dialog->summaryText().contains(QStringLiteral("0 would start, 0 would be preempted")))
        << dialog->summaryText().toStdString();
    for (const char *team : {"team-a", "team-b", "team-c", "team-d"}) {
        ASSERT_TRUE(dialog->setQuota(QString::fromLatin1(team), 4.0)) << team;
    }
    dialog->predict();
    ASSERT_TRUE(predicted.wait(10000));
    ASSERT_TRUE(dialog->result()) << dialog->summaryText().toStdString();
    EXPECT_TRUE(dialog->summaryText().contains(QStringLiteral("1 would start, 1 would be preempted")))
        << dialog->summaryText().toStdString();

    QTableWidget *projects = dialog->projectTable();
    ASSERT_EQ(projects->rowCount(), 4);
    EXPECT_EQ(projects->item(2, 0)->text(), QStringLiteral("team-c"));
    EXPECT_EQ(projects->item(2, 1)->text(), QStringLiteral("2 → 4")); // quota
    EXPECT_EQ(projects->item(2, 2)->text(), QStringLiteral("2 → 4")); // allocated
    EXPECT_EQ(projects->item(3, 2)->text(), QStringLiteral("6 → 4")); // team-d gives 2 back
    QTableWidget *jobs = dialog->jobTable();
    QStringList outcomes;
    for (int r = 0; r < jobs->rowCount(); ++r) {
        outcomes << jobs->item(r, 0)->text() + QLatin1Char(' ') + jobs->item(r, 4)->text();
    }
    EXPECT_TRUE(outcomes.contains(QStringLiteral("d-2-gg Preempted"))) << outcomes.join(u'|').toStdString();
    EXPECT_TRUE(outcomes.contains(QStringLiteral("c-4-gg Starts"))) << outcomes.join(u'|').toStdString();

    auto *apply = dialog->findChild<QPushButton *>(QStringLiteral("whatIfApplyButton"));
    ASSERT_TRUE(apply);
    EXPECT_FALSE(apply->isEnabled());
    projects->selectRow(2);
    ASSERT_TRUE(apply->isEnabled());
    apply->click();
    ASSERT_EQ(requested.count(), 1);
    const auto request = requested.at(0).at(0).value<core::ActionRequest>();
    EXPECT_EQ(request.kind, core::ActionKind::ProjectQuotaEdit);
    EXPECT_EQ(request.source, kCluster);
    EXPECT_EQ(request.project, QStringLiteral("team-c"));
    EXPECT_EQ(request.quota, 4000);
}

// "Apply quota…" is disabled until a project whose tried quota differs is selected: the dialog
// says so beside the button (and in its tooltip) instead of leaving a dead button.
TEST(GpuPage, WhatIfSaysWhyApplyQuotaIsDisabled)
{
    ComputeUi ui;
    testsupport::state49().publish(ui.estate);
    views::GpuPage page(&ui.estate, &ui.projects);
    page.show();
    page.whatIfButton()->click();
    auto *dialog = page.findChild<views::QuotaWhatIfDialog *>(QStringLiteral("quotaWhatIfDialog"));
    ASSERT_TRUE(dialog);
    QSignalSpy predicted(dialog, &views::QuotaWhatIfDialog::predicted);
    ASSERT_TRUE(predicted.wait(10000));
    ASSERT_TRUE(dialog->setQuota(QStringLiteral("team-c"), 4.0));
    dialog->predict();
    ASSERT_TRUE(predicted.wait(10000));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(dialog));

    auto *apply = dialog->findChild<QPushButton *>(QStringLiteral("whatIfApplyButton"));
    auto *hint = dialog->findChild<QLabel *>(QStringLiteral("whatIfApplyHint"));
    ASSERT_TRUE(apply);
    ASSERT_TRUE(hint) << "the dialog says why Apply quota… is disabled";
    EXPECT_TRUE(hint->isVisible());
    EXPECT_FALSE(apply->isEnabled());
    EXPECT_EQ(dialog->applyHint(), QStringLiteral("Select a project in the table above to apply its tried quota."));
    EXPECT_EQ(apply->toolTip(), dialog->applyHint());

    QTableWidget *projects = dialog->projectTable();
    ASSERT_EQ(projects->item(0, 0)->text(), QStringLiteral("team-a"));
    projects->selectRow(0);
    EXPECT_FALSE(apply->isEnabled());
    EXPECT_TRUE(dialog->applyHint().startsWith(QStringLiteral("team-a keeps its quota of")))
        << dialog->applyHint().toStdString();
    projects->selectRow(2);
    EXPECT_TRUE(apply->isEnabled());
    EXPECT_EQ(dialog->applyHint(), QStringLiteral("Changes team-c's quota from 2 to 4 GPUs (preview first)."));
    EXPECT_EQ(hint->text(), dialog->applyHint());
}
