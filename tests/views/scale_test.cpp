#include "app/desktop/desktopcontroller.h"
#include "demo/demoestate.h"
#include "models/core/clock.h"
#include "models/core/credentialstore.h"
#include "models/core/engine.h"
#include "models/item/volumetablemodel.h"
#include "views/mainwindow.h"
#include "views/volumefilterproxy.h"
#include "views/volumespage.h"

#include <QElapsedTimer>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <gtest/gtest.h>

using namespace strata;

// The desktop app over a generated 50,000-volume cluster: how long the GUI thread is ever blocked
// while the table fills, refreshes, sorts and filters. Slow (the simulator builds and serves the
// whole cluster), so it only runs with STRATA_SCALE_TEST=1; it reports numbers, a benchmark
// rather than a timed unit test.
TEST(DesktopScale, FiftyThousandVolumes_GuiThreadStaysResponsive)
{
    if (qEnvironmentVariableIntValue("STRATA_SCALE_TEST") != 1) {
        GTEST_SKIP() << "set STRATA_SCALE_TEST=1";
    }
    constexpr int kVolumes = 50000;
    QString error;
    demo::DemoEstate::Options demoOptions;
    demoOptions.generatedVolumes = kVolumes;
    auto demo = strata::demo::DemoEstate::start(demoOptions, &error);
    ASSERT_TRUE(demo) << error.toStdString();
    core::SystemClock clock;
    core::Engine engine({clock, demo->credentials(), nullptr, QStringLiteral("tester")});
    engine.setSources(demo->config().sources);
    QTemporaryDir dir;
    desktop::DesktopController::Options options;
    options.demo = true;
    options.settingsPath = dir.filePath(QStringLiteral("ui.ini"));
    desktop::DesktopController controller(engine, demo->config(), options);
    views::MainWindow &window = controller.window();
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));

    // A 10 ms heartbeat: the largest gap between beats is the longest freeze a user would feel.
    QElapsedTimer sinceBeat;
    qint64 worstGap = 0;
    QTimer heartbeat;
    heartbeat.setInterval(10);
    QObject::connect(&heartbeat, &QTimer::timeout, [&] {
        worstGap = std::max(worstGap, sinceBeat.restart());
    });
    sinceBeat.start();
    heartbeat.start();

    QElapsedTimer total;
    total.start();
    auto *table = window.findChild<QTableView *>(QStringLiteral("volumeTableView"));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return table->model()->rowCount() >= kVolumes;
        },
        240000))
        << table->model()->rowCount();
    const qint64 loaded = total.elapsed();
    const qint64 fillGap = worstGap;

    worstGap = 0;
    sinceBeat.restart();
    table->sortByColumn(models::VolumeTableModel::Size, Qt::DescendingOrder);
    QTest::qWait(50);
    const qint64 sortGap = worstGap;

    worstGap = 0;
    sinceBeat.restart();
    QTest::keyClicks(window.findChild<QLineEdit *>(QStringLiteral("volumeFilterLineEdit")), QStringLiteral("vol_1"));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return table->model()->rowCount() < kVolumes;
        },
        5000));
    const qint64 filterGap = worstGap;
    window.findChild<QLineEdit *>(QStringLiteral("volumeFilterLineEdit"))->clear();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return table->model()->rowCount() >= kVolumes;
        },
        5000));

    // A second inventory poll applies as a diff while the user watches.
    worstGap = 0;
    sinceBeat.restart();
    QSignalSpy polled(&engine, &core::Engine::sourceStatusChanged);
    engine.refresh();
    QTest::qWait(15000);
    const qint64 pollGap = worstGap;

    std::printf("50,000 volumes: shown after %lld ms; longest GUI stall: fill %lld ms, sort %lld ms, filter %lld ms, "
                "re-poll %lld ms\n",
                loaded,
                fillGap,
                sortGap,
                filterGap,
                pollGap);
    RecordProperty("loaded_ms", int(loaded));
    RecordProperty("fill_gap_ms", int(fillGap));
    RecordProperty("sort_gap_ms", int(sortGap));
    RecordProperty("filter_gap_ms", int(filterGap));
    RecordProperty("poll_gap_ms", int(pollGap));
}
