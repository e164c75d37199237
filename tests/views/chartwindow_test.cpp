// A history chart with little data zooms to what exists and says since when it has
// been collecting, instead of a dot at the right edge of a 24-hour axis.

#include "views/chartwindow.h"
#include "views/throughputchart.h"

#include <QChart>
#include <QChartView>

#include <gtest/gtest.h>

using namespace strata;

TEST(ChartWindow, LittleDataZoomsToItAndSaysSinceWhen)
{
    const QDateTime to = QDateTime::currentDateTimeUtc();
    const QDateTime from = to.addSecs(-24 * 3600);

    const views::ChartWindow fresh = views::chartWindow(from, to, to.addSecs(-1200));
    EXPECT_EQ(fresh.left, to.addSecs(-1200));
    EXPECT_FALSE(fresh.collectingSince.isEmpty());
    EXPECT_FALSE(fresh.collectingSince.contains(QLatin1Char('s'))) << "minutes, no seconds";

    const views::ChartWindow full = views::chartWindow(from, to, from.addSecs(600));
    EXPECT_EQ(full.left, from) << "history from the start of the range: the whole range";
    EXPECT_TRUE(full.collectingSince.isEmpty());

    // One sample a moment ago: at least five minutes are shown.
    EXPECT_EQ(views::chartWindow(from, to, to.addSecs(-10)).left, to.addSecs(-300));
}

TEST(ChartWindow, ThroughputChartSaysCollectingSinceOnlyWithLittleData)
{
    views::ThroughputChart chart;
    const QDateTime to = QDateTime::currentDateTimeUtc();
    const QDateTime from = to.addSecs(-24 * 3600);
    std::vector<core::ThroughputPoint> points;
    for (int i = 2; i >= 0; --i) {
        points.push_back(core::ThroughputPoint{to.addSecs(-600 * i), 12.0, 15.6});
    }
    chart.setPoints(points, from, to);
    auto *view = chart.findChild<QChartView *>();
    ASSERT_NE(view, nullptr);
    EXPECT_TRUE(view->chart()->title().startsWith(QStringLiteral("collecting since ")))
        << view->chart()->title().toStdString();

    points.insert(points.begin(), core::ThroughputPoint{from.addSecs(300), 10.0, 15.6});
    chart.setPoints(points, from, to);
    EXPECT_TRUE(view->chart()->title().isEmpty()) << view->chart()->title().toStdString();
}
