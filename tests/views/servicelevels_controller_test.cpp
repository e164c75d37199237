// The desktop controller's service-level wiring: the rate card saved into the config and
// applied, a schedule saved from the dialog and listed as upcoming, and "Change level…"
// leading into the standard action preview.

#include "app/desktop/desktopcontroller.h"
#include "models/core/runtime/engine.h"
#include "models/core/runtime/sharedsettings.h"
#include "models/core/services/historyservice.h"
#include "models/core/services/scheduleservice.h"
#include "models/core/services/servicelevels.h"
#include "models/core/store/credentialstore.h"
#include "models/item/servicelevelmodel.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"
#include "views/actiondialog.h"
#include "views/levelchangedialog.h"
#include "views/mainwindow.h"
#include "views/scheduledialog.h"
#include "views/servicelevelspage.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using strata::testsupport::succeeded;
using strata::testsupport::valueOf;
using namespace strata;

namespace {

class ServiceLevelControllerTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(dir.isValid());
        options.configPath = dir.filePath(QStringLiteral("config.json"));
        options.settingsPath = dir.filePath(QStringLiteral("ui.ini"));
        // An ONTAP volume with a fixed QoS policy, as a poll would publish it.
        core::Volume v;
        v.source = QStringLiteral("ontap-ai");
        v.id = QStringLiteral("uuid-chest");
        v.name = QStringLiteral("chest_xray");
        v.svm = QStringLiteral("svm_ai");
        v.state = QStringLiteral("online");
        v.style = QStringLiteral("flexvol");
        v.sizeBytes = 1024LL * 1024 * 1024 * 1024;
        v.qosPolicy = QStringLiteral("Bronze");
        engine.estate().publishVolumes(
            QStringLiteral("ontap-ai"),
            std::make_shared<const core::KeyedList<core::Volume>>(
                std::vector<core::Ptr<core::Volume>>{std::make_shared<const core::Volume>(v)}));
        auto policy = [](const QString &id, const QString &name, qint64 mbps) {
            core::QosPolicy p;
            p.source = QStringLiteral("ontap-ai");
            p.id = id;
            p.name = name;
            p.svm = QStringLiteral("svm_ai");
            p.maxMbps = mbps;
            return std::make_shared<const core::QosPolicy>(p);
        };
        engine.estate().publishInventory(
            QStringLiteral("ontap-ai"),
            std::make_shared<const core::KeyedList<core::Svm>>(),
            std::make_shared<const core::KeyedList<core::Aggregate>>(),
            std::make_shared<const core::KeyedList<core::QosPolicy>>(
                std::vector<core::Ptr<core::QosPolicy>>{policy(QStringLiteral("q1"), QStringLiteral("Bronze"), 100),
                                                        policy(QStringLiteral("q2"), QStringLiteral("Gold"), 800)}),
            std::make_shared<const core::KeyedList<core::FlexCache>>());
    }

    template <class D> D *waitForDialog(desktop::DesktopController &controller)
    {
        D *found = nullptr;
        (void)QTest::qWaitFor(
            [&] {
                for (D *d : controller.window().findChildren<D *>()) {
                    if (d->isVisible()) {
                        found = d;
                    }
                }
                return found != nullptr;
            },
            5000);
        return found;
    }

    testsupport::ManualClock clock{QDateTime(QDate(2026, 11, 22), QTime(10, 0), Qt::UTC)};
    core::InMemoryCredentialStore store;
    core::Engine engine{{clock, store, nullptr, QStringLiteral("tester")}};
    QTemporaryDir dir;
    desktop::DesktopController::Options options;
};

} // namespace

TEST_F(ServiceLevelControllerTest, RateCardIsSavedIntoTheConfigAndApplied)
{
    desktop::DesktopController controller(engine, {}, options);
    core::RateCard card = core::RateCard::defaults();
    card.currency = QStringLiteral("EUR");
    card.ontapPerGibMonth.insert(QStringLiteral("Bronze"), 0.02);
    card.coolDownMinutes = 15;
    controller.applyRateCard(card);
    EXPECT_EQ(engine.serviceLevels().rateCard(), card);
    EXPECT_EQ(controller.config().rateCard, card);
    core::AppConfig reloaded;
    ASSERT_TRUE(succeeded(core::AppConfig::load(options.configPath, &reloaded)));
    EXPECT_EQ(reloaded.rateCard, card);
    // The page shows the ONTAP volume's price in the new currency: 1024 GiB x 0.02.
    models::ServiceLevelTableModel &model = controller.serviceLevelModel();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return model.rowCount() == 1
                   && model.index(0, models::ServiceLevelTableModel::Cost).data().toString()
                          == QStringLiteral("20.48 EUR");
        },
        5000))
        << model.index(0, models::ServiceLevelTableModel::Cost).data().toString().toStdString();
}

TEST_F(ServiceLevelControllerTest, WithASharedStoreTheRateCardGoesThereAndEditsFromElsewhereShowHere)
{
    const QString file = dir.filePath(QStringLiteral("history.sqlite"));
    core::HistoryService history(std::make_unique<core::SqlHistoryStore>(file, clock));
    ASSERT_TRUE(history.openError().isEmpty()) << history.openError().toStdString();
    core::SharedSettings settings(
        engine, history, core::SettingWriter{QStringLiteral("tester"), QStringLiteral("desk/1")});
    ASSERT_TRUE(succeeded(settings.adopt(core::AppConfig{}, options.configPath)));
    settings.watch(std::chrono::milliseconds(100));
    options.settings = &settings;
    desktop::DesktopController controller(engine, {}, options);

    core::RateCard card = core::RateCard::defaults();
    card.currency = QStringLiteral("EUR");
    card.ontapPerGibMonth.insert(QStringLiteral("Bronze"), 0.02);
    controller.applyRateCard(card);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return engine.serviceLevels().rateCard() == card;
        },
        5000));
    EXPECT_FALSE(QFile::exists(options.configPath)) << "the store holds it, not the config file";
    EXPECT_EQ(settings.stored(QString(core::kRateCardSetting))->revision, 2);

    // Another process on the same store (strata-server settings set) changes it: shown here.
    core::SqlHistoryStore other(file, clock);
    ASSERT_TRUE(succeeded(other.open()));
    card.currency = QStringLiteral("GBP");
    const auto written = core::writeSharedSetting(other,
                                                  {QString(core::kRateCardSetting),
                                                   core::rateCardSettingBody(card),
                                                   2,
                                                   settings.stored(QString(core::kRateCardSetting))->configHash,
                                                   core::SettingWriter{QStringLiteral("ops"), QStringLiteral("cli")},
                                                   QStringLiteral("strata-server settings set")});
    ASSERT_TRUE(written) << written.error().message.toStdString();
    models::ServiceLevelTableModel &model = controller.serviceLevelModel();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            const QString cost = model.rowCount() == 1
                                     ? model.index(0, models::ServiceLevelTableModel::Cost).data().toString()
                                     : QString();
            return engine.serviceLevels().rateCard() == card && cost.contains(QStringLiteral("20.48"))
                   && !cost.contains(QStringLiteral("€"));
        },
        5000))
        << model.index(0, models::ServiceLevelTableModel::Cost).data().toString().toStdString();
    const auto audit = valueOf(other.auditLogOfKind(QStringLiteral("setting.rate_card"), {}));
    ASSERT_EQ(audit.size(), 2U);
    EXPECT_EQ(audit[1].user, QStringLiteral("tester"));
    EXPECT_EQ(audit[1].message, QStringLiteral("desktop rate card dialog"));
}

TEST_F(ServiceLevelControllerTest, ScheduleFromTheDialogShowsAsUpcoming)
{
    desktop::DesktopController controller(engine, {}, options);
    views::ServiceLevelsPage *page = controller.window().serviceLevelsPage();
    ASSERT_TRUE(page);
    controller.window().showPage(views::MainWindow::Page::ServiceLevels);
    ASSERT_TRUE(page->selectVolume(QStringLiteral("ontap-ai/uuid-chest")));
    Q_EMIT page->scheduleRequested(QStringLiteral("ontap-ai"), QStringLiteral("uuid-chest"));
    auto *dialog = waitForDialog<views::ScheduleDialog>(controller);
    ASSERT_TRUE(dialog);
    dialog->setLevel(QStringLiteral("Gold"));
    dialog->setStart(QDateTime(QDate(2026, 11, 23), QTime(6, 0), Qt::UTC));
    ASSERT_TRUE(dialog->validationError().isEmpty()) << dialog->validationError().toStdString();
    QTest::mouseClick(dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return engine.schedules().schedules().size() == 1;
        },
        5000));
    const core::ServiceLevelSchedule saved = engine.schedules().schedules().first();
    EXPECT_EQ(saved.volumeId, QStringLiteral("uuid-chest"));
    EXPECT_EQ(saved.level, QStringLiteral("Gold"));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return page->upcomingTexts().size() == 1;
        },
        5000));
    EXPECT_TRUE(page->upcomingTexts().first().endsWith(QStringLiteral("→ Gold")));
}

TEST_F(ServiceLevelControllerTest, ChangeLevelLeadsIntoThePreview)
{
    desktop::DesktopController controller(engine, {}, options);
    views::ServiceLevelsPage *page = controller.window().serviceLevelsPage();
    ASSERT_TRUE(page);
    Q_EMIT page->changeLevelRequested(QStringLiteral("ontap-ai"), QStringLiteral("uuid-chest"));
    auto *choose = waitForDialog<views::LevelChangeDialog>(controller);
    ASSERT_TRUE(choose);
    ASSERT_TRUE(choose->selectLevel(QStringLiteral("Gold")));
    choose->accept();
    auto *preview = waitForDialog<views::ActionDialog>(controller);
    ASSERT_TRUE(preview);
    const core::ActionRequest r = preview->request();
    EXPECT_EQ(r.kind, core::ActionKind::ServiceLevelChange);
    EXPECT_EQ(r.source, QStringLiteral("ontap-ai"));
    EXPECT_EQ(r.volumeId, QStringLiteral("uuid-chest"));
    EXPECT_EQ(r.targetLevel, QStringLiteral("Gold"));
    // The source is not connected: the preview says so and OK stays disabled.
    EXPECT_FALSE(preview->canConfirm());
}
