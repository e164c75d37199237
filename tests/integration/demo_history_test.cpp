// The demo estate ships with days of history from its simulators' own clocks, so
// the GPU allocation and utilization charts, service-level throughput over 24 h and every p95
// have data the moment the app starts.

#include "demo/demoestate.h"
#include "models/core/domain/clock.h"
#include "models/core/store/historystore.h"
#include "tests/support/qt/corestatus.h"

#include <QSet>

#include <gtest/gtest.h>

using strata::testsupport::succeeded;
using strata::testsupport::valueOf;
using namespace strata;

TEST(DemoHistory, ShipsADayOfGpuAndVolumeHistoryAtStart)
{
    auto estateStarted = demo::DemoEstate::start({});
    ASSERT_TRUE(succeeded(estateStarted));
    const std::unique_ptr<demo::DemoEstate> estate = std::move(*estateStarted);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QDateTime dayAgo = now.addSecs(-24 * 3600);

    core::SystemClock clock; // the demo's simulators run on the wall clock
    core::SqlHistoryStore store(estate->config().historyPath, clock);
    ASSERT_TRUE(succeeded(store.open()));

    // GPU allocation and utilization per project on `dgx`, from a day ago until now.
    const std::vector<core::ProjectSample> projects = valueOf(store.projectHistory(QStringLiteral("dgx"), {}, {}, {}));
    QHash<QString, QPair<QDateTime, QDateTime>> spanOf;
    QSet<QString> allocating;
    QSet<QString> utilized;
    for (const core::ProjectSample &s : projects) {
        auto &[first, last] = spanOf[s.project];
        first = first.isValid() ? std::min(first, s.time) : s.time;
        last = last.isValid() ? std::max(last, s.time) : s.time;
        if (s.allocated > 0) {
            allocating.insert(s.project);
        }
        if (s.utilization >= 0 && s.time <= dayAgo) {
            utilized.insert(s.project);
        }
    }
    ASSERT_TRUE(spanOf.contains(QStringLiteral("team-a"))) << projects.size() << " project samples";
    for (auto it = spanOf.cbegin(); it != spanOf.cend(); ++it) {
        EXPECT_LE(it.value().first, dayAgo) << it.key().toStdString() << " starts too late";
        // A steady project is written on change or every 600 s (the store's heartbeat), on 5-minute
        // steps up to the start: its last sample is under 10 minutes before the demo started, and
        // `now` was read after the start (seconds later under ASan), so allow one more step.
        EXPECT_GE(it.value().second, now.addSecs(-600 - 300)) << it.key().toStdString() << " ends too early";
    }
    EXPECT_FALSE(allocating.isEmpty()) << "TR-4858's jobs held GPUs all along";
    EXPECT_FALSE(utilized.isEmpty()) << "DCGM utilization a day ago";

    // Throughput of the ONTAP volumes for the whole last day (one sample per 5 minutes).
    const std::vector<core::VolumePerfStats> stats = valueOf(store.volumePerfStats(dayAgo, now));
    int fullDay = 0;
    for (const core::VolumePerfStats &s : stats) {
        if (s.source == QLatin1String("ontap-ai") && s.first <= dayAgo.addSecs(600) && s.samples >= 280) {
            ++fullDay;
            EXPECT_GT(s.p95ThroughputBps, 0) << s.volumeId.toStdString();
        }
    }
    EXPECT_GE(fullDay, 5) << stats.size() << " volumes with samples";
    // And the ANF volumes of `ai-lab`, from the load model Azure Monitor's metrics come from.
    int anfFullDay = 0;
    for (const core::VolumePerfStats &s : stats) {
        if (s.source == QLatin1String("ai-lab") && s.first <= dayAgo.addSecs(600) && s.samples >= 280) {
            ++anfFullDay;
        }
    }
    EXPECT_EQ(anfFullDay, 2) << "criteo-data and tusimple";
}
