// The desktop Forecasts page over the whole demo (capacity forecast): every container
// the engine forecasts, as `strata get forecasts` lists them, sorted full soonest first by date,
// filterable by kind, source and text.

#include "models/item/forecastmodel.h"
#include "models/item/roles.h"
#include "models/rows/forecastrows.h"
#include "tests/support/qt/sqlitetables.h"
#include "tests/views/demodesktop.h"
#include "views/forecastspage.h"
#include "views/mainwindow.h"
#include "views/statusdelegate.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLineEdit>
#include <QPixmap>
#include <QScreen>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

using namespace strata;
using models::ForecastTableModel;
using Trend = core::CapacityForecast::Trend;

namespace {

constexpr int kForecastPageTimeoutMs = 90000;

class ForecastsDemo : public testsupport::DemoDesktopTest
{
protected:
    void SetUp() override { startDemo({.demoHistory = true, .cacheTargets = true}); }

    /// Column `column` of every row the page shows, top to bottom.
    static QStringList shownColumn(const QTableView *view, int column, int role = Qt::DisplayRole)
    {
        QStringList out;
        for (int row = 0; row < view->model()->rowCount(); ++row) {
            out << view->model()->index(row, column).data(role).toString();
        }
        return out;
    }
};

} // namespace

TEST_F(ForecastsDemo, ListsEveryContainerFullSoonestFirstWithKindAndSourceFilters)
{
    views::MainWindow &window = controller->window();
    window.resize(1440, 900);
    window.show();
    ASSERT_TRUE(window.pageOrder().contains(views::MainWindow::Page::Forecasts));
    window.showPage(views::MainWindow::Page::Forecasts);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    EXPECT_EQ(window.currentPage(), views::MainWindow::Page::Forecasts);
    views::ForecastsPage *page = window.forecastsPage();
    ASSERT_TRUE(page);
    QTableView *view = page->view();

    // Every container of the demo once its sources have been polled and the history read:
    // ONTAP volumes and aggregates, the ANF pool and volumes, the grid's buckets and tenants,
    // the cache targets.
    core::ForecastService &service = engine->forecasts();
    QElapsedTimer sinceRefresh;
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            if (engine->allPolledOnce() && (!sinceRefresh.isValid() || sinceRefresh.elapsed() > 3000)) {
                service.refresh();
                sinceRefresh.start();
            }
            QSet<QString> kinds;
            for (const core::ContainerForecast &f : service.forecasts()) {
                kinds.insert(core::containerKindName(f.container.kind));
            }
            return kinds.size() == 6 && std::size_t(view->model()->rowCount()) == service.forecasts().size();
        },
        kForecastPageTimeoutMs))
        << view->model()->rowCount() << " rows, " << service.forecasts().size() << " forecasts";

    // The same containers as `strata get forecasts`, with its "full in" texts.
    const auto rows = rows::forecastRows(service.forecasts(), clock.now());
    QStringList expected;
    for (qsizetype r = 0; r < rows.values.size(); ++r) {
        expected << rows.values[r][0].toString() + QLatin1Char('/') + rows.values[r][3].toString();
    }
    QStringList shown;
    for (int row = 0; row < view->model()->rowCount(); ++row) {
        shown << view->model()->index(row, ForecastTableModel::Source).data().toString() + QLatin1Char('/')
                     + view->model()->index(row, ForecastTableModel::Name).data().toString();
    }
    expected.sort();
    QStringList shownSorted = shown;
    shownSorted.sort();
    EXPECT_EQ(shownSorted, expected);
    EXPECT_FALSE(page->summaryText().isEmpty());
    EXPECT_EQ(page->countText(), QStringLiteral("%1 containers").arg(view->model()->rowCount()));

    // Sorted by "full in" as dates: full ones, then growing ones by fill date, then the rest.
    EXPECT_EQ(view->horizontalHeader()->sortIndicatorSection(), int(ForecastTableModel::FullIn));
    double previous = -std::numeric_limits<double>::max();
    for (int row = 0; row < view->model()->rowCount(); ++row) {
        const double key = view->model()->index(row, ForecastTableModel::FullIn).data(models::RawValueRole).toDouble();
        EXPECT_LE(previous, key) << "row " << row << ": " << shown[row].toStdString();
        previous = key;
    }
    const QStringList fullIn = shownColumn(view, ForecastTableModel::FullIn);
    for (const QString &text : fullIn) {
        EXPECT_FALSE(text.isEmpty());
    }

    // Kind filter: only aggregates; source filter: only the ONTAP cluster; text filter.
    const int all = view->model()->rowCount();
    const int aggregates = page->kindCombo()->findData(ForecastTableModel::kindText(core::ContainerKind::Aggregate));
    ASSERT_GE(aggregates, 0);
    page->kindCombo()->setCurrentIndex(aggregates);
    ASSERT_GT(view->model()->rowCount(), 0);
    EXPECT_LT(view->model()->rowCount(), all);
    for (const QString &kind : shownColumn(view, ForecastTableModel::Kind)) {
        EXPECT_EQ(kind, ForecastTableModel::kindText(core::ContainerKind::Aggregate));
    }
    EXPECT_EQ(page->countText(), QStringLiteral("%1 of %2 containers").arg(view->model()->rowCount()).arg(all));
    page->kindCombo()->setCurrentIndex(0);
    EXPECT_EQ(view->model()->rowCount(), all);
    const QString ontap = view->model()->index(0, ForecastTableModel::Source).data().toString();
    const int source = page->sourceCombo()->findData(ontap);
    ASSERT_GT(source, 0);
    page->sourceCombo()->setCurrentIndex(source);
    for (const QString &s : shownColumn(view, ForecastTableModel::Source)) {
        EXPECT_EQ(s, ontap);
    }
    page->sourceCombo()->setCurrentIndex(0);
    const QString first = view->model()->index(0, ForecastTableModel::Name).data().toString();
    page->filterEdit()->setText(first);
    ASSERT_TRUE(QTest::qWaitFor([&] {
        return view->model()->rowCount() < all;
    }));
    EXPECT_TRUE(shownColumn(view, ForecastTableModel::Name).contains(first));
    page->filterEdit()->clear();
    ASSERT_TRUE(QTest::qWaitFor([&] {
        return view->model()->rowCount() == all;
    }));

    // The layout keeps the sort the user chose.
    view->sortByColumn(ForecastTableModel::Growth, Qt::DescendingOrder);
    const QVariantMap layout = window.layoutState();
    ASSERT_TRUE(layout.contains(QStringLiteral("forecasts/header")));
    view->sortByColumn(ForecastTableModel::FullIn, Qt::AscendingOrder);
    window.restoreLayoutState(layout);
    EXPECT_EQ(view->horizontalHeader()->sortIndicatorSection(), int(ForecastTableModel::Growth));
    EXPECT_EQ(view->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
    view->sortByColumn(ForecastTableModel::FullIn, Qt::AscendingOrder);

    // STRATA_FORECAST_SCREENSHOT=/path/forecasts.png saves the page in the light and a dark
    // palette as forecasts-light.png and forecasts-dark.png.
    if (const QString shot = qEnvironmentVariable("STRATA_FORECAST_SCREENSHOT"); !shot.isEmpty()) {
        const auto save = [&](const QString &suffix) {
            QTest::qWait(400); // screenshot only: lets the platform paint; no assertion depends on it
            const QPixmap pixmap = QGuiApplication::platformName() == QLatin1String("xcb")
                                       ? window.screen()->grabWindow(0)
                                       : window.grab();
            pixmap.save(QString(shot).replace(QStringLiteral(".png"), suffix + QStringLiteral(".png")));
        };
        save(QStringLiteral("-light"));
        const QPalette light = QApplication::palette();
        QApplication::setPalette(testsupport::darkPalette());
        save(QStringLiteral("-dark"));
        QApplication::setPalette(light);
    }

    // A history that cannot be read keeps the rows and says from when they are.
    ASSERT_TRUE(testsupport::renameSqliteTable(demo->config().historyPath, "capacity_sample", "capacity_sample_away"));
    service.refresh();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return !service.historyError().isEmpty();
        },
        kForecastPageTimeoutMs));
    const QDateTime computed = service.computedAt();
    ASSERT_TRUE(computed.isValid());
    EXPECT_EQ(view->model()->rowCount(), all);
    EXPECT_TRUE(page->summaryText().startsWith(QStringLiteral("The capacity history is unavailable (")))
        << page->summaryText().toStdString();
    EXPECT_TRUE(page->summaryText().contains(QLocale().toString(computed.toLocalTime(), QLocale::ShortFormat)))
        << page->summaryText().toStdString();
    if (const QString shot = qEnvironmentVariable("STRATA_FORECAST_SCREENSHOT"); !shot.isEmpty()) {
        QTest::qWait(200); // screenshot only: the wrapped summary's new height is laid out first
        window.grab().save(QString(shot).replace(QStringLiteral(".png"), QStringLiteral("-unavailable-light.png")));
        const QPalette light = QApplication::palette();
        QApplication::setPalette(testsupport::darkPalette());
        QTest::qWait(200); // screenshot only
        window.grab().save(QString(shot).replace(QStringLiteral(".png"), QStringLiteral("-unavailable-dark.png")));
        QApplication::setPalette(light);
    }
    ASSERT_TRUE(testsupport::renameSqliteTable(demo->config().historyPath, "capacity_sample_away", "capacity_sample"));
    service.refresh();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return service.historyError().isEmpty();
        },
        kForecastPageTimeoutMs));
    EXPECT_FALSE(page->summaryText().contains(QStringLiteral("unavailable"))) << page->summaryText().toStdString();
}

namespace {

const QDateTime kForecastPageNow = QDateTime(QDate(2026, 11, 26), QTime(12, 0), Qt::UTC);

core::ContainerForecast
pageForecast(const QString &name, core::ContainerKind kind, Trend trend, int percent, double days)
{
    constexpr qint64 gib = qint64(1) << 30;
    core::ContainerForecast f;
    f.container.source = kind == core::ContainerKind::Pool ? QStringLiteral("ai-lab") : QStringLiteral("ontap-ai");
    f.container.kind = kind;
    f.container.id = name;
    f.container.name = name;
    f.container.capacityBytes = 100 * gib;
    f.forecast.trend = trend;
    f.forecast.usedBytes = percent * gib;
    f.forecast.capacityBytes = 100 * gib;
    f.forecast.samples = 240;
    f.forecast.from = kForecastPageNow.addDays(-30);
    f.forecast.to = kForecastPageNow;
    f.forecast.bytesPerDay = trend == Trend::Growing ? 1.5 * double(gib) : 0.0;
    f.forecast.bytesPerDayLow = trend == Trend::Growing ? 1.0 * double(gib) : -0.2 * double(gib);
    f.forecast.bytesPerDayHigh = 2.0 * double(gib);
    if (days >= 0) {
        f.forecast.fullAt = kForecastPageNow.addSecs(qint64(days * 86400));
        f.forecast.fullAtEarliest = kForecastPageNow.addSecs(qint64(days * 0.75 * 86400));
        f.forecast.fullAtLatest = kForecastPageNow.addSecs(qint64(days * 1.5 * 86400));
    }
    return f;
}

} // namespace

// A page over growing, full and flat containers: sorted full soonest first by date (not by the
// "full in" text), full red and within 30 days amber through the status colours.
TEST(ForecastsPage, SortsFullSoonestFirstByDateAndMarksFullAndSoon)
{
    using K = core::ContainerKind;
    ForecastTableModel model(nullptr, [] {
        return kForecastPageNow;
    });
    std::vector<core::ContainerForecast> rows{
        pageForecast(QStringLiteral("svm_ai/logs"), K::Volume, Trend::NoTrend, 70, -1),
        pageForecast(QStringLiteral("svm_ai/train"), K::Volume, Trend::Growing, 85, 12),
        pageForecast(QStringLiteral("aggr1"), K::Aggregate, Trend::Growing, 40, 120),
        pageForecast(QStringLiteral("svm_ai/scratch"), K::Volume, Trend::Full, 100, 0),
        pageForecast(QStringLiteral("anf-acct/pool-premium"), K::Pool, Trend::Growing, 95, 5.0 / 24.0),
    };
    model.setForecasts(rows);
    views::ForecastsPage page(&model, nullptr);
    page.resize(1300, 320);
    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    const QAbstractItemModel *shown = page.view()->model();
    QStringList order;
    QStringList status;
    for (int row = 0; row < shown->rowCount(); ++row) {
        order << shown->index(row, ForecastTableModel::Name).data().toString();
        status << shown->index(row, ForecastTableModel::FullIn).data(models::StatusRole).toString();
    }
    EXPECT_EQ(order,
              (QStringList{QStringLiteral("svm_ai/scratch"),
                           QStringLiteral("anf-acct/pool-premium"),
                           QStringLiteral("svm_ai/train"),
                           QStringLiteral("aggr1"),
                           QStringLiteral("svm_ai/logs")}));
    EXPECT_EQ(status,
              (QStringList{QStringLiteral("critical"),
                           QStringLiteral("warning"),
                           QStringLiteral("warning"),
                           QStringLiteral("ok"),
                           QStringLiteral("ok")}));
    EXPECT_EQ(shown->index(1, ForecastTableModel::FullIn).data().toString(), QStringLiteral("in 5 h (4–8)"));
    EXPECT_EQ(page.summaryText(), QStringLiteral("1 full · 2 full within 30 days · 5 containers"));
    // The status colours differ for full, soon and plain rows (light palette).
    const QPalette palette = page.view()->palette();
    const QColor critical = views::StatusDelegate::colorFor(QStringLiteral("critical"), palette);
    const QColor warning = views::StatusDelegate::colorFor(QStringLiteral("warning"), palette);
    EXPECT_TRUE(critical.isValid() && warning.isValid());
    EXPECT_NE(critical, warning);
    EXPECT_FALSE(views::StatusDelegate::colorFor(QStringLiteral("ok"), palette).isValid());

    if (const QString shot = qEnvironmentVariable("STRATA_FORECAST_SCREENSHOT"); !shot.isEmpty()) {
        QTest::qWait(300); // screenshot only
        page.grab().save(QString(shot).replace(QStringLiteral(".png"), QStringLiteral("-colours-light.png")));
        page.setPalette(testsupport::darkPalette());
        QTest::qWait(300);
        page.grab().save(QString(shot).replace(QStringLiteral(".png"), QStringLiteral("-colours-dark.png")));
    }
}
