// The desktop Chargeback page over the whole demo: the controller computes this month's
// chargeback from the 72 h of history the demo ships with (on the history thread), the page
// shows the same lines `strata get chargeback` prints, and a line opens its volumes and jobs.

#include "models/core/planning/chargeback.h"
#include "models/rows/chargebackrows.h"
#include "tests/views/demodesktop.h"
#include "views/chargebackpage.h"
#include "views/mainwindow.h"
#include "views/ratecarddialog.h"

#include <QApplication>
#include <QComboBox>
#include <QGuiApplication>
#include <QPixmap>
#include <QScreen>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include <gtest/gtest.h>

using namespace strata;

namespace {

class ChargebackDemo : public testsupport::DemoDesktopTest
{
protected:
    void SetUp() override { startDemo({.demoHistory = true, .cacheTargets = true}); }
};

int chargebackRowOf(const QTableWidget *table, const QString &project)
{
    for (int r = 0; r < table->rowCount(); ++r) {
        for (int c = 0; c < table->columnCount(); ++c) {
            if (table->item(r, c) && table->item(r, c)->text() == project) {
                return r;
            }
        }
    }
    return -1;
}

} // namespace

TEST_F(ChargebackDemo, ThisMonthShowsEveryProjectTheUnattributedLineAndADrillDown)
{
    ASSERT_FALSE(HasFatalFailure());
    views::MainWindow &window = controller->window();
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    // Let the clusters and storage answer first: the lines join projects to their volumes.
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return engine->allPolledOnce();
        },
        90000));
    views::ChargebackPage *page = window.chargebackPage();
    ASSERT_NE(page, nullptr);
    EXPECT_TRUE(window.pageOrder().contains(views::MainWindow::Page::Chargeback));
    window.showPage(views::MainWindow::Page::Chargeback);
    const QString month = clock.now().toUTC().toString(QStringLiteral("yyyy-MM"));
    EXPECT_EQ(page->month(), month);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return page->chargeback().has_value() && page->chargeback()->period.label == month;
        },
        30000))
        << page->summaryText().toStdString();
    const core::Chargeback &cb = *page->chargeback();
    // The rows are the CLI's: every line and the total.
    EXPECT_EQ(page->lineTable()->rowCount(), cb.lines.size() + 1);
    const int teamA = chargebackRowOf(page->lineTable(), QStringLiteral("team-a"));
    ASSERT_GE(teamA, 0);
    EXPECT_GT(cb.lines[teamA].gpuHoursAllocated, 24) << "the demo's 72 h of team-a's GPUs";
    EXPECT_GT(cb.lines[teamA].cost, 0);
    EXPECT_GE(chargebackRowOf(page->lineTable(), QStringLiteral("(unattributed)")), 0);
    EXPECT_GE(chargebackRowOf(page->lineTable(), QStringLiteral("TOTAL")), 0);
    EXPECT_TRUE(page->summaryText().contains(QStringLiteral("GPU-hours allocated")))
        << page->summaryText().toStdString();

    page->selectLine(teamA);
    EXPECT_TRUE(page->detailTitle().contains(QStringLiteral("team-a"))) << page->detailTitle().toStdString();
    EXPECT_EQ(page->volumeTable()->rowCount(), cb.lines[teamA].volumes.size());
    EXPECT_GT(page->volumeTable()->rowCount(), 0) << "team-a's PVCs join it to ONTAP volumes";
    EXPECT_EQ(page->jobTable()->rowCount(), cb.lines[teamA].jobs.size());

    // Another month is asked for when picked; an earlier month has no GPU-hours, all missing.
    QSignalSpy wanted(page, &views::ChargebackPage::chargebackWanted);
    const QString earlier = clock.now().toUTC().date().addMonths(-2).toString(QStringLiteral("yyyy-MM"));
    ASSERT_TRUE(page->setMonth(earlier));
    ASSERT_GE(wanted.count(), 1);
    EXPECT_EQ(wanted.last().at(0).toString(), earlier);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return page->chargeback().has_value() && page->chargeback()->period.label == earlier;
        },
        30000));
    EXPECT_DOUBLE_EQ(page->chargeback()->total.gpuHoursAllocated, 0);
    EXPECT_GT(page->chargeback()->total.missingHours, 24 * 27);
    ASSERT_TRUE(page->setMonth(month));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return page->chargeback().has_value() && page->chargeback()->period.label == month;
        },
        30000));
    page->selectLine(chargebackRowOf(page->lineTable(), QStringLiteral("team-a")));

    // STRATA_CHARGEBACK_SCREENSHOT=/path/chargeback.png saves the window in light and dark.
    if (const QString shot = qEnvironmentVariable("STRATA_CHARGEBACK_SCREENSHOT"); !shot.isEmpty()) {
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
}

// Settings > Rate card prices GPU-hours by GPU product, with a price for any other GPU; the
// estate's products are listed without a price, and a negative price keeps Save disabled.
TEST(ChargebackRateCardDialog, GpuPricesRoundTripAndListTheEstatesProducts)
{
    core::RateCard card = core::RateCard::defaults();
    card.gpuPerHour.insert(QStringLiteral("NVIDIA-A100-SXM4-80GB"), 4.1);
    card.gpuDefaultPerHour = 2.5;
    views::RateCardDialog dialog(card, {});
    EXPECT_EQ(dialog.rateCard(), card);
    dialog.setGpuProducts({QStringLiteral("Tesla-V100-SXM2-32GB"), QStringLiteral("NVIDIA-A100-SXM4-80GB")});
    QTableWidget *gpu = dialog.gpuTable();
    ASSERT_EQ(gpu->rowCount(), 3); // any other GPU, A100, V100
    EXPECT_EQ(dialog.rateCard(), card) << "a listed product without a price costs the default";
    for (int row = 0; row < gpu->rowCount(); ++row) {
        if (gpu->item(row, 0)->text() == QLatin1String("Tesla-V100-SXM2-32GB")) {
            gpu->item(row, 1)->setText(QStringLiteral("3.06"));
        }
    }
    const core::RateCard edited = dialog.rateCard();
    EXPECT_DOUBLE_EQ(edited.gpuPrice(QStringLiteral("Tesla-V100-SXM2-32GB")), 3.06);
    EXPECT_DOUBLE_EQ(edited.gpuPrice(QStringLiteral("Tesla-T4")), 2.5);
    const auto parsed = core::RateCard::fromJson(edited.toJson());
    ASSERT_TRUE(parsed.hasValue());
    EXPECT_EQ(*parsed, edited);
    gpu->item(0, 1)->setText(QStringLiteral("-2"));
    EXPECT_TRUE(dialog.validationError().contains(QStringLiteral("0 or more")))
        << dialog.validationError().toStdString();
}
