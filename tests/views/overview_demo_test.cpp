// The desktop Overview over the whole demo: a GPU allocation chart per cluster
// drawn from the 72 h of history the demo ships with, a card per storage system and cache
// target with the figures `strata get systems` / `get cache-targets` print, and a "Needs
// attention" list with the rows of `strata get attention`, each a click from its page.

#include "app/desktop/desktopcontroller.h"
#include "demo/demoestate.h"
#include "models/core/domain/clock.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/historyservice.h"
#include "models/core/store/credentialstore.h"
#include "models/core/store/historystore.h"
#include "models/rows/resources.h"
#include "tests/views/demodesktop.h"
#include "views/allocationhistorychart.h"
#include "views/mainwindow.h"
#include "views/overviewpage.h"

#include <QApplication>
#include <QGuiApplication>
#include <QPixmap>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using namespace strata;

namespace {

constexpr int kOverviewTimeoutMs = 90000;

class OverviewDemo : public testsupport::DemoDesktopTest
{
protected:
    // The store the demo backfilled (72 h of GPU and volume history) and its cache targets.
    void SetUp() override { startDemo({.demoHistory = true, .cacheTargets = true}); }

    /// "<source>/<name>=<used> / <capacity> · <throughput>" from the rows `strata get <resource>`
    /// prints, with the table's own text for each figure.
    QStringList rowTexts(const QString &resource,
                         const QStringList &nameKeys,
                         const QStringList &figureKeys,
                         const QString &format) const
    {
        const auto rows = rows::resourceRows(*engine, resource, {}, clock.now());
        EXPECT_TRUE(rows.has_value());
        QStringList out;
        for (qsizetype r = 0; rows && r < rows->values.size(); ++r) {
            const auto text = [&](const QString &key) {
                for (qsizetype c = 0; c < rows->columns.size(); ++c) {
                    if (rows->columns[c].key == key) {
                        const QString shown = rows->display.value(r).value(c);
                        return shown.isEmpty() ? rows->values[r][c].toString() : shown;
                    }
                }
                ADD_FAILURE() << "no column " << key.toStdString();
                return QString();
            };
            QStringList names;
            for (const QString &k : nameKeys) {
                names << text(k);
            }
            QString line = format;
            for (const QString &k : figureKeys) {
                line = line.arg(text(k));
            }
            out << names.join(QLatin1Char('/')) + QLatin1Char('=') + line;
        }
        return out;
    }
};

} // namespace

TEST_F(OverviewDemo, ChartPerClusterWithHistoryAndStorageCardsWithTheCliFigures)
{
    views::MainWindow &window = controller->window();
    window.resize(1400, 900);
    window.show();
    window.showPage(views::MainWindow::Page::Overview);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    views::OverviewPage *overview = window.overviewPage();
    ASSERT_TRUE(overview);

    // A chart per cluster, drawn from the backfilled day: many steps, reaching back ~24 h.
    const QString allProjects = views::OverviewPage::tr("All projects");
    for (const QString &cluster : {QStringLiteral("dgx"), QStringLiteral("aks-gpu")}) {
        ASSERT_TRUE(QTest::qWaitFor(
            [&] {
                const views::AllocationHistoryChart *chart = overview->clusterChart(cluster);
                return chart && chart->showsChart() && chart->allocationPoints(allProjects).size() > 10;
            },
            kOverviewTimeoutMs))
            << cluster.toStdString() << ": no chart with history";
        const views::AllocationHistoryChart *chart = overview->clusterChart(cluster);
        EXPECT_EQ(chart->projectNames(), QStringList{allProjects});
        const QList<QPointF> points = chart->allocationPoints(allProjects);
        const double hours = (points.last().x() - points.first().x()) / 3600000.0;
        EXPECT_GT(hours, 20) << cluster.toStdString() << ": the chart spans " << hours << " h";
        EXPECT_TRUE(std::any_of(points.cbegin(),
                                points.cend(),
                                [](const QPointF &p) {
                                    return p.y() > 0;
                                }))
            << cluster.toStdString() << ": GPUs were allocated at some point";
        if (cluster == QLatin1String("dgx")) {
            // dgx ran all along (aks-gpu's workloads start with the demo: no utilization before).
            EXPECT_GT(chart->utilizationPoints(allProjects).size(), 10);
        }
        // Shown beside the cluster's tiles (a refresh re-parents it; the new group shows next event).
        EXPECT_TRUE(QTest::qWaitFor(
            [&] {
                return overview->clusterChart(cluster)->isVisible();
            },
            5000));
    }

    // A card per storage system (ONTAP cluster, ANF account, grid) and per cache target.
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            overview->refresh();
            // Cache targets know their capacity once their claim and volume are joined.
            return overview->storageCards().size() == 3 && overview->cacheCards().size() == 3
                   && !overview->cacheCards().join(QLatin1Char('\n')).contains(QChar(0x2014));
        },
        kOverviewTimeoutMs))
        << (overview->storageCards() + overview->cacheCards()).join(QLatin1Char('\n')).toStdString();
    // The same moment for both: what the page shows equals what `strata get` prints.
    overview->refresh();
    EXPECT_EQ(overview->storageCards(),
              rowTexts(QStringLiteral("systems"),
                       {QStringLiteral("source"), QStringLiteral("name")},
                       {QStringLiteral("used_bytes"),
                        QStringLiteral("capacity_bytes"),
                        QStringLiteral("throughput_bytes_per_second")},
                       QStringLiteral("%1 / %2 · %3")));
    EXPECT_EQ(overview->cacheCards(),
              rowTexts(QStringLiteral("cache-targets"),
                       {QStringLiteral("name")},
                       {QStringLiteral("used_bytes"), QStringLiteral("capacity_bytes")},
                       QStringLiteral("%1 / %2")));
    for (const QString &card : overview->storageCards()) {
        EXPECT_FALSE(card.contains(QStringLiteral(" GB")) || card.contains(QStringLiteral(" TB"))
                     || card.contains(QStringLiteral("MB/s")))
            << "binary units only: " << card.toStdString();
    }

    // Needs attention: the rows of `get attention` (the demo's image that cannot be pulled,
    // the grid's active alert, the near-full volumes), worst first.
    const auto attention = rows::resourceRows(*engine, QStringLiteral("attention"), {}, clock.now());
    ASSERT_TRUE(attention && !attention->values.isEmpty());
    EXPECT_EQ(overview->attentionItems().size(), std::min<qsizetype>(attention->values.size(), 12));
    EXPECT_EQ(overview->attentionItems().first(),
              attention->values[0][7].toString() + QStringLiteral(": ") + attention->values[0][8].toString());

    // STRATA_OVERVIEW_SCREENSHOT=/path/overview.png saves the page top to bottom in the light
    // and a dark palette (under Xvfb with QT_QPA_PLATFORM=xcb: the window as the X server shows it).
    if (const QString shot = qEnvironmentVariable("STRATA_OVERVIEW_SCREENSHOT"); !shot.isEmpty()) {
        auto *scroll = overview->findChild<QScrollArea *>(QStringLiteral("overviewScrollArea"));
        ASSERT_TRUE(scroll);
        const auto saveAll = [&](const QString &suffix) {
            QScrollBar *bar = scroll->verticalScrollBar();
            const int pageStep = std::max(1, bar->pageStep());
            int part = 0;
            for (int at = 0;; at += pageStep) {
                bar->setValue(std::min(at, bar->maximum()));
                QTest::qWait(400); // screenshot only: lets the platform paint; no assertion depends on it
                const QPixmap pixmap = QGuiApplication::platformName() == QLatin1String("xcb")
                                           ? window.screen()->grabWindow(0)
                                           : window.grab();
                pixmap.save(
                    QString(shot).replace(QStringLiteral(".png"), QStringLiteral("%1-%2.png").arg(suffix).arg(++part)));
                if (at >= bar->maximum()) {
                    break;
                }
            }
            bar->setValue(0);
        };
        saveAll(QStringLiteral("-light"));
        const QPalette light = QApplication::palette();
        QApplication::setPalette(testsupport::darkPalette());
        overview->refresh();
        saveAll(QStringLiteral("-dark"));
        QApplication::setPalette(light);
        overview->refresh();
    }

    // Each card is a click from its page.
    ASSERT_TRUE(overview->activateTile(QStringLiteral("card_system_datalake_datalake")));
    EXPECT_EQ(window.currentPage(), views::MainWindow::Page::StorageGrid);
    window.showPage(views::MainWindow::Page::Overview);
    ASSERT_TRUE(overview->activateTile(QStringLiteral("card_cache_dgx-cache-1")));
    EXPECT_EQ(window.currentPage(), views::MainWindow::Page::CacheTargets);
    window.showPage(views::MainWindow::Page::Overview);
    ASSERT_TRUE(overview->activateAttentionItem(0));
    EXPECT_NE(window.currentPage(), views::MainWindow::Page::Overview);
}
