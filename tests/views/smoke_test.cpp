#include "models/core/runtime/engine.h"
#include "models/core/store/credentialstore.h"
#include "models/item/activitymodel.h"
#include "models/item/snapshotlistmodel.h"
#include "models/item/sourcetablemodel.h"
#include "models/item/timelinemodel.h"
#include "models/item/volumetablemodel.h"
#include "tests/support/qt/manualclock.h"
#include "tests/views/viewtestutil.h"
#include "views/activitypanel.h"
#include "views/capacitychart.h"
#include "views/mainwindow.h"
#include "views/sourcespage.h"
#include "views/triagepage.h"
#include "views/volumedetailpanel.h"
#include "views/volumefilterproxy.h"
#include "views/volumespage.h"

#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

using namespace strata;

namespace {

/// An Engine with no sources, and every item model over it.
struct EmptyEstate
{
    testsupport::ManualClock clock;
    core::InMemoryCredentialStore credentials;
    core::Engine engine{{clock, credentials, nullptr, QStringLiteral("tester")}};
    models::VolumeTableModel volumes{engine.estate()};
    models::SnapshotListModel snapshots{engine.estate()};
    models::SourceTableModel sources{engine};
    models::ActivityModel activity{engine.actions()};
    models::TimelineModel timeline{engine.timeline()};

    views::MainWindow::Models models() { return {&volumes, &snapshots, &sources, &activity, &timeline}; }
};

constexpr auto FatalSmoke = QAbstractItemModelTester::FailureReportingMode::Fatal;

} // namespace

TEST(ViewsSmoke, EachPageConstructsOverEmptyModels)
{
    EmptyEstate e;
    QAbstractItemModelTester t1(&e.volumes, FatalSmoke);
    QAbstractItemModelTester t2(&e.snapshots, FatalSmoke);
    QAbstractItemModelTester t3(&e.sources, FatalSmoke);
    QAbstractItemModelTester t4(&e.activity, FatalSmoke);
    QAbstractItemModelTester t5(&e.timeline, FatalSmoke);

    views::VolumesPage volumes(&e.volumes, &e.snapshots, e.clock, &e.sources);
    volumes.show();
    QAbstractItemModelTester t6(volumes.proxy(), FatalSmoke);
    EXPECT_EQ(volumes.countText(), QStringLiteral("0 volumes"));
    EXPECT_FALSE(volumes.detailPanel()->volume());

    views::SourcesPage sources(&e.sources);
    sources.show();
    // No sources: the page says how to start instead of showing an empty table.
    auto *hint = sources.findChild<QLabel *>(QStringLiteral("sourceEmptyLabel"));
    ASSERT_TRUE(hint);
    EXPECT_TRUE(hint->isVisible());
    EXPECT_TRUE(hint->text().contains(QStringLiteral("Add a source to get started")));
    EXPECT_FALSE(sources.findChild<QWidget *>(QStringLiteral("sourceEditButton"))->isEnabled());

    views::TriagePage triage(&e.timeline);
    triage.show();
    QAbstractItemModelTester t7(triage.proxy(), FatalSmoke);
    EXPECT_EQ(triage.countText(), QStringLiteral("0 entries"));
    EXPECT_FALSE(triage.goToButton()->isEnabled());

    views::ActivityPanel activity(&e.activity);
    activity.show();
    EXPECT_FALSE(activity.findChild<QWidget *>(QStringLiteral("activityRetryButton"))->isEnabled());
}

TEST(ViewsSmoke, MainWindowFindsWidgetsByObjectName)
{
    EmptyEstate e;
    views::MainWindow window(e.models(), e.clock);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    for (const char *name :
         {"volumeTableView",       "volumeFilterLineEdit", "volumeSourceComboBox", "volumeStateComboBox",
          "volumeCountLabel",      "snapshotTableView",    "snapshotCreateButton", "snapshotDeleteButton",
          "snapshotRestoreButton", "snapshotCloneButton",  "sourceTableView",      "sourceAddButton",
          "triageTableView",       "triageSearchLineEdit", "triageSystemComboBox", "triageGoToButton",
          "activityTableView",     "activityRetryButton",  "navigationListWidget", "pageStackedWidget",
          "sourceHealthLabel"}) {
        EXPECT_TRUE(window.findChild<QWidget *>(QString::fromLatin1(name))) << name;
    }
    // Nothing has run yet: the Activity dock starts collapsed, the pages get the height.
    EXPECT_FALSE(window.findChild<QDockWidget *>(QStringLiteral("activityDockWidget"))->isVisible());
    EXPECT_EQ(window.healthSummaryText(), QStringLiteral("No sources configured"));
    // No volume selected: snapshot actions are off.
    EXPECT_FALSE(window.findChild<QWidget *>(QStringLiteral("snapshotCreateButton"))->isEnabled());

    window.showPage(views::MainWindow::Page::Events);
    EXPECT_EQ(window.currentPage(), views::MainWindow::Page::Events);
    EXPECT_TRUE(window.triagePage()->isVisible());
    EXPECT_FALSE(window.volumesPage()->isVisible());
}

TEST(ViewsSmoke, VolumesPageWantsPerformanceOnlyWhileVisible)
{
    EmptyEstate e;
    views::MainWindow window(e.models(), e.clock);
    QSignalSpy spy(window.volumesPage(), &views::VolumesPage::performanceWanted);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_EQ(spy.count(), 1);
    EXPECT_TRUE(spy.at(0).at(0).toBool());
    window.showPage(views::MainWindow::Page::Sources);
    ASSERT_EQ(spy.count(), 2);
    EXPECT_FALSE(spy.at(1).at(0).toBool());
    window.showPage(views::MainWindow::Page::Events);
    EXPECT_EQ(spy.count(), 2); // still hidden: no duplicate unsubscribe
    window.showPage(views::MainWindow::Page::Volumes);
    ASSERT_EQ(spy.count(), 3);
    EXPECT_TRUE(spy.at(2).at(0).toBool());
}

TEST(ViewsSmoke, SelectingAVolumeAsksForItsSnapshotsAndHistory)
{
    EmptyEstate e;
    e.engine.estate().publishVolumes(QStringLiteral("s1"), viewtests::syntheticVolumes(QStringLiteral("s1"), 20));
    views::MainWindow window(e.models(), e.clock);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    views::VolumeDetailPanel *panel = window.volumesPage()->detailPanel();
    QSignalSpy wanted(panel, &views::VolumeDetailPanel::snapshotsWanted);
    QSignalSpy unwanted(panel, &views::VolumeDetailPanel::snapshotsUnwanted);
    QSignalSpy history(panel, &views::VolumeDetailPanel::capacityHistoryWanted);

    ASSERT_TRUE(window.volumesPage()->selectVolume(QStringLiteral("s1/s1-uuid-3")));
    ASSERT_EQ(wanted.count(), 1);
    EXPECT_EQ(wanted.at(0).at(1).toString(), QStringLiteral("s1-uuid-3"));
    EXPECT_EQ(history.count(), 1);
    ASSERT_TRUE(panel->volume());
    EXPECT_EQ(panel->volume()->name, QStringLiteral("vol_00003"));
    auto *state = panel->findChild<QLabel *>(QStringLiteral("snapshotStateLabel"));
    EXPECT_EQ(state->text(), QStringLiteral("Loading snapshots…"));
    panel->setSnapshotError(QStringLiteral("timeout"));
    EXPECT_EQ(state->text(), QStringLiteral("Cannot load snapshots: timeout"));

    ASSERT_TRUE(window.volumesPage()->selectVolume(QStringLiteral("s1/s1-uuid-4")));
    ASSERT_EQ(unwanted.count(), 1);
    EXPECT_EQ(unwanted.at(0).at(1).toString(), QStringLiteral("s1-uuid-3"));
    EXPECT_EQ(wanted.count(), 2);

    // Hiding the page drops the subscription; showing it again takes it back.
    window.showPage(views::MainWindow::Page::Events);
    EXPECT_EQ(unwanted.count(), 2);
    window.showPage(views::MainWindow::Page::Volumes);
    EXPECT_EQ(wanted.count(), 3);

    // The volume disappears from the estate: the panel empties and lets go.
    e.engine.estate().publishVolumes(QStringLiteral("s1"), viewtests::syntheticVolumes(QStringLiteral("s1"), 3));
    EXPECT_FALSE(panel->volume());
    EXPECT_EQ(unwanted.count(), 3);
}

TEST(ViewsSmoke, CapacityChartEndsAtTheEnginesClock)
{
    EmptyEstate e; // its clock reads 2026-01-01, not the wall clock's today
    e.engine.estate().publishVolumes(QStringLiteral("s1"), viewtests::syntheticVolumes(QStringLiteral("s1"), 5));
    views::MainWindow window(e.models(), e.clock);
    ASSERT_TRUE(window.volumesPage()->selectVolume(QStringLiteral("s1/s1-uuid-3")));
    views::VolumeDetailPanel *panel = window.volumesPage()->detailPanel();
    core::UsageSample sample;
    sample.time = e.clock.now().addSecs(-3600);
    sample.usedBytes = 1;
    sample.sizeBytes = 2;
    panel->setCapacityHistory({sample});
    EXPECT_EQ(panel->capacityChart()->pointCount(), 2) << "the live value at the clock's now";
    // A sample as new as the clock's now is the end of the line: no live point after it.
    sample.time = e.clock.now();
    panel->setCapacityHistory({sample});
    EXPECT_EQ(panel->capacityChart()->pointCount(), 1);
}

TEST(ViewsSmoke, HealthSummaryCountsAndNamesTheWorstState)
{
    QString worst;
    EXPECT_EQ(views::MainWindow::healthSummary({core::Health::Ok, core::Health::Unreachable}, &worst),
              QStringLiteral("2 sources: 1 OK, 1 unreachable"));
    EXPECT_EQ(worst, QStringLiteral("critical"));
    EXPECT_EQ(views::MainWindow::healthSummary({core::Health::Ok}, &worst), QStringLiteral("1 source: 1 OK"));
    EXPECT_EQ(worst, QStringLiteral("ok"));
    EXPECT_EQ(views::MainWindow::healthSummary({core::Health::Degraded, core::Health::Ok, core::Health::Ok}, &worst),
              QStringLiteral("3 sources: 2 OK, 1 degraded"));
    EXPECT_EQ(worst, QStringLiteral("warning"));
}

TEST(ViewsSmoke, StatusBarShowsSourcesThatCannotStart)
{
    // Two sources whose passwords are missing from the store: both need authentication.
    EmptyEstate e;
    core::SourceConfig a;
    a.name = QStringLiteral("a");
    a.url = QStringLiteral("https://a.invalid");
    a.username = QStringLiteral("admin");
    a.password = {core::SecretRef::Kind::Keychain, core::credentialKey(QStringLiteral("a"))};
    core::SourceConfig b = a;
    b.name = QStringLiteral("b");
    b.password.value = core::credentialKey(QStringLiteral("b"));
    e.engine.setSources({a, b});
    views::MainWindow window(e.models(), e.clock);
    QAbstractItemModelTester tester(&e.sources, FatalSmoke);
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            return window.healthSummaryText() == QStringLiteral("2 sources: 2 authentication required");
        },
        5000))
        << window.healthSummaryText().toStdString();
    auto *label = window.findChild<QLabel *>(QStringLiteral("sourceHealthLabel"));
    EXPECT_TRUE(label->text().contains(QStringLiteral("color:"))); // the worst state is coloured
    EXPECT_TRUE(label->toolTip().contains(QStringLiteral("No password is stored for a")));
}
