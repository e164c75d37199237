// The Triage page over a live Timeline: keyed updates without resets, the filter bar, "Go to"
// that selects the volume or job on its page, and the Overview's "Needs attention" links.

#include "models/core/runtime/engine.h"
#include "models/core/runtime/timeline.h"
#include "models/core/store/credentialstore.h"
#include "models/item/activitymodel.h"
#include "models/item/jobtablemodel.h"
#include "models/item/projecttablemodel.h"
#include "models/item/roles.h"
#include "models/item/snapshotlistmodel.h"
#include "models/item/sourcetablemodel.h"
#include "models/item/timelinemodel.h"
#include "models/item/volumetablemodel.h"
#include "tests/support/qt/manualclock.h"
#include "tests/views/viewtestutil.h"
#include "views/jobspage.h"
#include "views/mainwindow.h"
#include "views/overviewpage.h"
#include "views/triagepage.h"
#include "views/volumespage.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

using namespace strata;

namespace {

constexpr auto FatalTriage = QAbstractItemModelTester::FailureReportingMode::Fatal;

struct TriageEstate
{
    testsupport::ManualClock clock{QDateTime(QDate(2026, 3, 1), QTime(12, 0), Qt::UTC)};
    core::InMemoryCredentialStore credentials;
    core::Engine engine{{clock, credentials, nullptr, QStringLiteral("tester")}};
    models::VolumeTableModel volumes{engine.estate()};
    models::SnapshotListModel snapshots{engine.estate()};
    models::SourceTableModel sources{engine};
    models::ActivityModel activity{engine.actions()};
    models::TimelineModel timeline{engine.timeline()};
    models::JobTableModel jobs{engine.estate(), [this] {
                                   return clock.now();
                               }};
    models::ProjectTableModel projects{engine.estate()};

    views::MainWindow::Models models()
    {
        return {&volumes, &snapshots, &sources, &activity, &timeline, &engine.estate(), &jobs, &projects};
    }

    core::Job job(core::JobStatus status) const
    {
        core::Job j;
        j.source = QStringLiteral("dgx");
        j.namespaceName = QStringLiteral("runai-team-a");
        j.name = QStringLiteral("a-1");
        j.id = QStringLiteral("runai-team-a/a-1");
        j.project = QStringLiteral("team-a");
        j.status = status;
        j.created = clock.now().addSecs(-600);
        j.gpusRequested = 1000;
        if (status == core::JobStatus::Running) {
            j.started = clock.now().addSecs(-300);
            j.gpusAllocated = 1000;
            j.node = QStringLiteral("dgx-1");
        }
        return j;
    }

    void publishJob(core::JobStatus status)
    {
        core::ComputePublish compute;
        compute.jobs = std::make_shared<const core::KeyedList<core::Job>>(
            std::vector<core::Ptr<core::Job>>{std::make_shared<const core::Job>(job(status))});
        engine.estate().publishCompute(QStringLiteral("dgx"), compute);
    }

    void publishEms(const QString &id, const QString &severity, int secondsAgo)
    {
        core::Event e;
        e.source = QStringLiteral("s1");
        e.id = id;
        e.time = clock.now().addSecs(-secondsAgo);
        e.severity = severity;
        e.name = QStringLiteral("wafl.vol.full");
        e.message = QStringLiteral("Volume vol_00003 is full");
        std::vector<core::Ptr<core::Event>> all;
        if (const auto current = engine.estate().events().scope(QStringLiteral("s1"))) {
            all = current->items();
        }
        all.push_back(std::make_shared<const core::Event>(e));
        engine.estate().publishEvents(QStringLiteral("s1"),
                                      std::make_shared<const core::KeyedList<core::Event>>(std::move(all)));
    }
};

int rowOfTitle(const views::TriagePage &page, const QString &title)
{
    const QAbstractItemModel *m = page.tableView()->model();
    for (int r = 0; r < m->rowCount(); ++r) {
        if (m->index(r, models::TimelineModel::Title).data().toString() == title) {
            return r;
        }
    }
    return -1;
}

} // namespace

TEST(TriageViews, RowsArriveAsDiffsAndTheFilterBarNarrowsThem)
{
    TriageEstate e;
    views::TriagePage page(&e.timeline);
    page.show();
    QAbstractItemModelTester modelTester(&e.timeline, FatalTriage);
    QAbstractItemModelTester proxyTester(page.proxy(), FatalTriage);
    QSignalSpy resets(&e.timeline, &QAbstractItemModel::modelReset);

    e.publishEms(QStringLiteral("n1/1"), QStringLiteral("emergency"), 7200);
    e.publishEms(QStringLiteral("n1/2"), QStringLiteral("informational"), 60);
    e.publishJob(core::JobStatus::Running); // queued + started, reconstructed
    EXPECT_EQ(e.timeline.rowCount(), 4);
    EXPECT_TRUE(QTest::qWaitFor([&] {
        // Updated once per event-loop turn; the two wafl.vol.full reports are one row.
        return page.countText() == QLatin1String("3 rows of 4 entries");
    })) << page.countText().toStdString();
    // Newest first.
    EXPECT_EQ(page.tableView()->model()->index(0, models::TimelineModel::Title).data().toString(),
              QStringLiteral("wafl.vol.full"));

    page.systemCombo()->setCurrentIndex(page.systemCombo()->findData(QStringLiteral("kubernetes")));
    EXPECT_EQ(page.proxy()->rowCount(), 2);
    EXPECT_EQ(page.countText(), QStringLiteral("2 rows of 4 entries"));
    page.categoryCombo()->setCurrentIndex(page.categoryCombo()->findData(QStringLiteral("alert")));
    EXPECT_EQ(page.proxy()->rowCount(), 0);
    page.categoryCombo()->setCurrentIndex(0);
    page.jobEdit()->setText(QStringLiteral("a-1"));
    EXPECT_EQ(page.proxy()->rowCount(), 2);
    page.jobEdit()->clear();

    page.systemCombo()->setCurrentIndex(0);
    page.severityCombo()->setCurrentIndex(page.severityCombo()->findData(int(core::TimelineSeverity::Critical)));
    EXPECT_EQ(page.proxy()->rowCount(), 1);
    page.severityCombo()->setCurrentIndex(0);
    page.rangeCombo()->setCurrentIndex(page.rangeCombo()->findData(qint64(3600)));
    EXPECT_EQ(page.proxy()->rowCount(), 3); // the informational event, the job's queueing and start
    page.rangeCombo()->setCurrentIndex(page.rangeCombo()->count() - 1);
    page.searchEdit()->setText(QStringLiteral("VOL_00003"));
    EXPECT_EQ(page.proxy()->rowCount(), 1); // both reports of it, as one row
    page.searchEdit()->clear();

    // A live transition adds one row; nothing is ever reset.
    e.clock.advance(std::chrono::seconds(10));
    e.publishJob(core::JobStatus::Preempted);
    EXPECT_EQ(e.timeline.rowCount(), 5);
    EXPECT_GE(rowOfTitle(page, QStringLiteral("Job preempted")), 0);
    EXPECT_EQ(resets.count(), 0);
}

TEST(TriageViews, GoToSelectsTheVolumeOrTheJob)
{
    TriageEstate e;
    e.engine.estate().publishVolumes(QStringLiteral("s1"), viewtests::syntheticVolumes(QStringLiteral("s1"), 6));
    e.publishJob(core::JobStatus::Running);
    views::MainWindow window(e.models(), e.clock);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    views::TriagePage *page = window.triagePage();
    ASSERT_TRUE(page);

    // vol_00004 gets a QoS policy: a service-level entry about that volume.
    auto changed = std::make_shared<std::vector<core::Ptr<core::Volume>>>(
        viewtests::syntheticVolumes(QStringLiteral("s1"), 6)->items());
    core::Volume v = *(*changed)[4];
    v.qosPolicy = QStringLiteral("Gold");
    (*changed)[4] = std::make_shared<const core::Volume>(v);
    e.engine.estate().publishVolumes(QStringLiteral("s1"),
                                     std::make_shared<const core::KeyedList<core::Volume>>(*changed));
    window.showPage(views::MainWindow::Page::Events);
    EXPECT_EQ(window.currentPage(), views::MainWindow::Page::Events);

    const int qosRow = rowOfTitle(*page, QStringLiteral("QoS policy changed"));
    ASSERT_GE(qosRow, 0);
    page->tableView()->setCurrentIndex(page->tableView()->model()->index(qosRow, 0));
    EXPECT_TRUE(page->goToButton()->isEnabled());
    page->goToButton()->click();
    EXPECT_EQ(window.currentPage(), views::MainWindow::Page::Volumes);
    const QModelIndex selected =
        window.volumesPage()->findChild<QTableView *>(QStringLiteral("volumeTableView"))->currentIndex();
    EXPECT_EQ(selected.data(models::KeyRole).toString(), QStringLiteral("s1/s1-uuid-4"));

    window.showPage(views::MainWindow::Page::Events);
    const int jobRow = rowOfTitle(*page, QStringLiteral("Job started"));
    ASSERT_GE(jobRow, 0);
    page->tableView()->setCurrentIndex(page->tableView()->model()->index(jobRow, 0));
    // A double click is a press that sets the pressed index, then the double-click event.
    const QPoint at = page->tableView()->visualRect(page->tableView()->currentIndex()).center();
    QTest::mouseClick(page->tableView()->viewport(), Qt::LeftButton, {}, at);
    QTest::mouseDClick(page->tableView()->viewport(), Qt::LeftButton, {}, at);
    EXPECT_EQ(window.currentPage(), views::MainWindow::Page::Jobs);
    EXPECT_EQ(window.jobsPage()->runningView()->currentIndex().data(models::KeyRole).toString(),
              QStringLiteral("dgx/runai-team-a/a-1"));
}

TEST(TriageViews, OverviewNeedsAttentionOpensTriageForThatSystem)
{
    TriageEstate e;
    e.publishJob(core::JobStatus::Running);
    e.publishEms(QStringLiteral("n1/1"), QStringLiteral("emergency"), 600);
    e.publishEms(QStringLiteral("n1/2"), QStringLiteral("error"), 300);
    e.publishEms(QStringLiteral("n1/3"), QStringLiteral("error"), 200);
    views::MainWindow window(e.models(), e.clock);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    views::OverviewPage *overview = window.overviewPage();
    ASSERT_TRUE(overview);
    EXPECT_EQ(overview->attentionLines(), QStringList{QStringLiteral("ONTAP: 1 critical · 2 errors")});

    overview->openAttention(QStringLiteral("ontap"));
    EXPECT_EQ(window.currentPage(), views::MainWindow::Page::Events);
    EXPECT_EQ(window.triagePage()->systemCombo()->currentData().toString(), QStringLiteral("ontap"));
    // The three wafl.vol.full reports, as one row.
    ASSERT_EQ(window.triagePage()->proxy()->rowCount(), 1);
    EXPECT_EQ(window.triagePage()->proxy()->index(0, models::TimelineModel::Count).data().toString(),
              QStringLiteral("3"));
}

TEST(TriageViews, AnAlertFiringEveryTenMinutesIsOneActiveRowOnTop)
{
    TriageEstate e;
    views::TriagePage page(&e.timeline);
    QAbstractItemModelTester proxyTester(page.proxy(), FatalTriage);
    e.publishEms(QStringLiteral("n1/1"), QStringLiteral("error"), 5); // newer than the alert's last firing
    std::vector<core::Ptr<core::GridAlert>> firings;
    for (int i = 0; i < 144; ++i) {
        core::GridAlert a;
        a.source = QStringLiteral("datalake");
        a.startsAt = e.clock.now().addSecs(-600LL * i - 60);
        a.id = QStringLiteral("fp-desk@") + QString::number(a.startsAt.toMSecsSinceEpoch());
        a.name = QStringLiteral("Low installed node memory");
        a.severity = QStringLiteral("major");
        a.resolved = i > 0;
        a.endsAt = a.resolved ? a.startsAt.addSecs(240) : QDateTime();
        firings.push_back(std::make_shared<const core::GridAlert>(a));
    }
    core::GridPublish grid;
    grid.alerts = std::make_shared<const core::KeyedList<core::GridAlert>>(std::move(firings));
    e.engine.estate().publishGrid(QStringLiteral("datalake"), grid);

    EXPECT_EQ(e.timeline.rowCount(), 144 * 2 - 1 + 1);
    ASSERT_EQ(page.proxy()->rowCount(), 2);
    const QAbstractItemModel *m = page.tableView()->model();
    EXPECT_EQ(m->index(0, models::TimelineModel::Title).data().toString(),
              QStringLiteral("Alert fired: Low installed node memory"));
    EXPECT_EQ(m->index(0, models::TimelineModel::State).data().toString(), QStringLiteral("Active"));
    EXPECT_EQ(m->index(0, models::TimelineModel::Count).data().toString(), QStringLiteral("144"));
    EXPECT_EQ(m->index(0, models::TimelineModel::Severity).data().toString(), QStringLiteral("Error"));
    EXPECT_EQ(m->index(1, models::TimelineModel::Title).data().toString(), QStringLiteral("wafl.vol.full"));
    EXPECT_EQ(m->index(1, models::TimelineModel::Count).data().toString(), QStringLiteral("1"));
    EXPECT_TRUE(QTest::qWaitFor([&] {
        return page.countText() == QLatin1String("2 rows of 288 entries");
    })) << page.countText().toStdString();
}
