// A support bundle of the demo estate opened in the desktop app: the same pages show the same
// numbers as the live window did at the moment of export, read-only (banner, title, refused
// actions), and File ▸ Compare support bundles shows the diff as a tree.

#include "app/desktop/desktopcontroller.h"
#include "demo/demoestate.h"
#include "models/core/domain/clock.h"
#include "models/core/runtime/bundle.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/historyservice.h"
#include "models/core/store/historystore.h"
#include "tests/support/qt/corestatus.h"
#include "views/bundlediffdialog.h"
#include "views/cachetargetspage.h"
#include "views/datasetspage.h"
#include "views/gpupage.h"
#include "views/jobspage.h"
#include "views/mainwindow.h"
#include "views/overviewpage.h"
#include "views/storagegridpage.h"
#include "views/volumespage.h"

#include <QAction>
#include <QApplication>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <gtest/gtest.h>

using strata::testsupport::succeeded;
using namespace strata;

namespace {

constexpr int kBundleTimeoutMs = 30000;

/// What the pages show that a support engineer compares.
QStringList pageNumbers(views::MainWindow &w)
{
    return {w.volumesPage()->countText(),
            w.gpuPage()->kpiText(),
            w.jobsPage()->queueCountsText(),
            w.datasetsPage()->headerText(),
            w.cacheTargetsPage()->summaryText(),
            w.storageGridPage()->healthText(),
            w.healthSummaryText()};
}

QTreeWidgetItem *find(QTreeWidgetItem *parent, const QString &text)
{
    for (int i = 0; i < parent->childCount(); ++i) {
        if (parent->child(i)->text(0) == text) {
            return parent->child(i);
        }
    }
    return nullptr;
}

} // namespace

TEST(BundleDesktop, OpenedBundleShowsTheSameNumbersReadOnly)
{
    QString error;
    auto demoStarted = strata::demo::DemoEstate::start({});
    ASSERT_TRUE(succeeded(demoStarted));
    std::unique_ptr<demo::DemoEstate> demo = std::move(*demoStarted);
    core::SystemClock clock;
    core::HistoryService history(std::make_unique<core::SqlHistoryStore>(QStringLiteral(":memory:"), clock));
    core::Engine live({clock, demo->credentials(), &history, QStringLiteral("tester")});
    live.setRateCard(demo->config().rateCard);
    live.setCacheTargets(demo->config().cacheTargets);
    live.setSources(demo->config().sources);
    QTemporaryDir settings;
    desktop::DesktopController::Options liveOptions;
    liveOptions.demo = true;
    liveOptions.settingsPath = settings.filePath(QStringLiteral("live.ini"));
    desktop::DesktopController liveController(live, demo->config(), liveOptions);
    views::MainWindow &liveWindow = liveController.window();
    liveWindow.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&liveWindow));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            static const QRegularExpression allOk(QStringLiteral("^(\\d+) sources: \\1 OK$"));
            return live.allPolledOnce() && allOk.match(liveWindow.healthSummaryText()).hasMatch()
                   && liveWindow.datasetsPage()->headerText().startsWith(QStringLiteral("7 Datasets | "))
                   && !liveWindow.gpuPage()->kpiText().isEmpty();
        },
        kBundleTimeoutMs))
        << liveWindow.healthSummaryText().toStdString() << " / "
        << liveWindow.datasetsPage()->headerText().toStdString();

    // The numbers and the bundle from one moment. Pages coalesce updates for a moment (the GPU
    // page waits 150 ms), so a reading is kept only when it still holds a little later: then no
    // update was pending when the estate went into the bundle.
    QStringList liveNumbers;
    std::optional<core::Bundle> bundle;
    for (int attempt = 0; attempt < 5; ++attempt) {
        QTest::qWait(400); // bounded on purpose: a quiet period, then the reading must hold
        liveNumbers = pageNumbers(liveWindow);
        std::optional<core::Bundle> collected;
        core::BundleOptions bundleOptions;
        bundleOptions.user = QStringLiteral("tester");
        core::collectBundle(live, bundleOptions, &live, [&](core::Bundle b, const QString &) {
            collected = std::move(b);
        });
        ASSERT_TRUE(QTest::qWaitFor(
            [&] {
                return collected.has_value();
            },
            kBundleTimeoutMs));
        QTest::qWait(400); // bounded on purpose: checks that no page update was still pending
        if (pageNumbers(liveWindow) == liveNumbers) {
            bundle = std::move(collected);
            break;
        }
    }
    ASSERT_TRUE(bundle) << "the live pages never held still";
    EXPECT_TRUE(liveNumbers[0].endsWith(QStringLiteral(" volumes"))) << liveNumbers[0].toStdString();
    EXPECT_TRUE(liveNumbers[3].startsWith(QStringLiteral("7 Datasets | "))) << liveNumbers[3].toStdString();

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("demo.strata-bundle"));
    ASSERT_TRUE(succeeded(core::writeBundle(*bundle, path, nullptr)));
    std::optional<core::Bundle> opened;
    core::openBundleAsync(path, &liveController, [&](std::optional<core::Bundle> b, const QString &e) {
        opened = std::move(b);
        error = e;
    });
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return opened.has_value() || !error.isEmpty();
        },
        kBundleTimeoutMs))
        << error.toStdString();
    ASSERT_TRUE(opened) << error.toStdString();

    core::OfflineEngine offline(*opened, QStringLiteral("support"));
    core::AppConfig config;
    config.sources = opened->sources;
    config.rateCard = opened->rateCard;
    config.cacheTargets = opened->cacheTargets;
    desktop::DesktopController::Options options;
    options.bundle = opened->meta;
    options.settingsPath = settings.filePath(QStringLiteral("bundle.ini"));
    desktop::DesktopController controller(offline.engine(), config, options);
    views::MainWindow &window = controller.window();
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));

    EXPECT_EQ(pageNumbers(window).join(QLatin1Char('\n')).toStdString(),
              liveNumbers.join(QLatin1Char('\n')).toStdString());
    EXPECT_EQ(liveNumbers.size(), 7);
    for (const QString &text : std::as_const(liveNumbers)) {
        EXPECT_FALSE(text.isEmpty());
    }
    EXPECT_TRUE(window.readOnlyBannerText().startsWith(QStringLiteral("Support bundle from ")))
        << window.readOnlyBannerText().toStdString();
    EXPECT_TRUE(window.readOnlyBannerText().endsWith(QStringLiteral("(") + opened->meta.host
                                                     + QStringLiteral(") — read-only snapshot")))
        << window.readOnlyBannerText().toStdString();
    EXPECT_TRUE(window.windowTitle().contains(QStringLiteral("read-only"))) << window.windowTitle().toStdString();
    EXPECT_FALSE(window.refreshAction()->isEnabled());
    EXPECT_TRUE(liveWindow.readOnlyBannerText().isEmpty());
    EXPECT_TRUE(liveWindow.refreshAction()->isEnabled());

    // Actions are refused with the bundle's reason; nothing connects.
    const core::Ptr<core::Volume> volume = offline.engine().estate().volumes().all().front();
    const core::ActionPreview preview = offline.engine().actions().preview(
        core::ActionRequest(core::ActionKind::SnapshotCreate, volume->source, volume->id));
    EXPECT_TRUE(preview.blockedReason.startsWith(QStringLiteral("read-only: this is a support bundle from ")))
        << preview.blockedReason.toStdString();
    for (const core::SourceConfig &c : std::as_const(config.sources)) {
        EXPECT_EQ(offline.engine().source(c.name), nullptr) << c.name.toStdString();
    }
    QString refused;
    controller.applySource(config.sources.front(), QStringLiteral("pw"), [&](const QString &e) {
        refused = e;
    });
    EXPECT_EQ(refused, offline.engine().readOnlyReason());

    // File ▸ Compare support bundles: a later bundle with a job gone and a volume added.
    core::Bundle later = *opened;
    later.meta.created = later.meta.created.addSecs(3600);
    const QString kube = QStringLiteral("dgx");
    ASSERT_FALSE(later.estate.jobs.value(kube).isEmpty());
    const core::Job gone = later.estate.jobs[kube].takeFirst();
    const QString ontap = QStringLiteral("ontap-ai");
    core::Volume added = later.estate.volumes.value(ontap).front();
    added.id = QStringLiteral("new-volume-uuid");
    added.name = QStringLiteral("genomics");
    later.estate.volumes[ontap].append(added);
    const QString laterPath = dir.filePath(QStringLiteral("later.strata-bundle"));
    ASSERT_TRUE(succeeded(core::writeBundle(later, laterPath, nullptr)));
    Q_EMIT window.compareBundlesRequested(path, laterPath);
    views::BundleDiffDialog *dialog = nullptr;
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            dialog = window.findChild<views::BundleDiffDialog *>();
            return dialog != nullptr;
        },
        kBundleTimeoutMs))
        << window.notificationText().toStdString();
    QTreeWidget *tree = dialog->tree();
    ASSERT_EQ(tree->topLevelItemCount(), 2);
    QTreeWidgetItem *kubernetes = tree->topLevelItem(0);
    EXPECT_EQ(kubernetes->text(0), QStringLiteral("kubernetes"));
    QTreeWidgetItem *dgx = find(kubernetes, kube);
    ASSERT_TRUE(dgx);
    QTreeWidgetItem *jobs = find(dgx, QStringLiteral("jobs: 0 appeared, 1 disappeared, 0 changed"));
    ASSERT_TRUE(jobs);
    EXPECT_EQ(jobs->child(0)->text(0), QStringLiteral("\u2212 ") + gone.id);
    QTreeWidgetItem *ontapItem = tree->topLevelItem(1);
    EXPECT_EQ(ontapItem->text(0), QStringLiteral("ontap"));
    QTreeWidgetItem *volumes =
        find(find(ontapItem, ontap), QStringLiteral("volumes: 1 appeared, 0 disappeared, 0 changed"));
    ASSERT_TRUE(volumes);
    EXPECT_EQ(volumes->child(0)->text(0), QStringLiteral("+ new-volume-uuid"));
    dialog->close();

    // A file that is no bundle is reported, not opened.
    Q_EMIT window.compareBundlesRequested(path, dir.filePath(QStringLiteral("missing")));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return window.notificationText().contains(QStringLiteral("Cannot compare the support bundles"));
        },
        kBundleTimeoutMs));
}
