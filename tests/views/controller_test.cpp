#include "app/desktop/desktopcontroller.h"
#include "models/core/runtime/engine.h"
#include "models/core/store/credentialstore.h"
#include "models/item/activitymodel.h"
#include "models/item/roles.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"
#include "views/activitypanel.h"
#include "views/mainwindow.h"

#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <atomic>

using strata::testsupport::succeeded;
using namespace strata;

namespace {

/// Fails the first attempt (as a lost connection would), succeeds when retried.
class FlakyExecutor final : public core::IActionExecutor
{
public:
    core::ActionPreview preview(const core::ActionRequest &request) const override
    {
        core::ActionPreview p;
        p.title = QStringLiteral("Create snapshot");
        p.target = QStringLiteral("svm/vol@") + request.name;
        p.effects << QStringLiteral("ONTAP takes snapshot %1.").arg(request.name);
        return p;
    }
    std::function<core::ActionResult(const core::ActionContext &)> prepare(const core::ActionRequest &) override
    {
        return [this](const core::ActionContext &ctx) {
            ++runs;
            return ctx.attempt == 1 ? core::ActionResult{false, false, QStringLiteral("connection reset")}
                                    : core::ActionResult{true, true, QStringLiteral("already there")};
        };
    }
    std::atomic<int> runs{0};
};

class ControllerTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(dir.isValid());
        options.configPath = dir.filePath(QStringLiteral("config.json"));
        options.settingsPath = dir.filePath(QStringLiteral("ui.ini"));
    }

    testsupport::ManualClock clock;
    core::InMemoryCredentialStore store;
    core::Engine engine{{clock, store, nullptr, QStringLiteral("tester")}};
    QTemporaryDir dir;
    desktop::DesktopController::Options options;
};

core::SourceConfig unreachableSource(const QString &name)
{
    core::SourceConfig c;
    c.name = name;
    c.url = QStringLiteral("https://127.0.0.1:9"); // discard port: refused at once
    c.username = QStringLiteral("admin");
    return c;
}

} // namespace

TEST_F(ControllerTest, NoSources_OpensTheSourcesPage)
{
    desktop::DesktopController controller(engine, {}, options);
    EXPECT_EQ(controller.window().currentPage(), views::MainWindow::Page::Sources);
    EXPECT_EQ(controller.window().windowTitle(), QStringLiteral("Strata"));
}

TEST_F(ControllerTest, AddSource_PasswordGoesToTheStoreNotTheConfig)
{
    desktop::DesktopController controller(engine, {}, options);
    QString result = QStringLiteral("pending");
    controller.applySource(
        unreachableSource(QStringLiteral("lab")), QStringLiteral("hunter2"), [&result](const QString &error) {
            result = error;
        });
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return result != QLatin1String("pending");
        },
        5000));
    EXPECT_TRUE(result.isEmpty()) << result.toStdString();
    EXPECT_TRUE(store.contains(core::credentialKey(QStringLiteral("lab"))));
    ASSERT_EQ(engine.sourceConfigs().size(), 1);
    EXPECT_EQ(engine.sourceConfigs().first().password.kind, core::SecretRef::Kind::Keychain);

    QFile file(options.configPath);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray json = file.readAll();
    EXPECT_FALSE(json.contains("hunter2"));
    EXPECT_TRUE(json.contains("strata/lab/password"));
    core::AppConfig reloaded;
    QString error;
    ASSERT_TRUE(succeeded(core::AppConfig::load(options.configPath, &reloaded)));
    EXPECT_EQ(reloaded.sources.size(), 1);

    controller.removeSource(QStringLiteral("lab"));
    EXPECT_TRUE(engine.sourceConfigs().isEmpty());
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            return !store.contains(core::credentialKey(QStringLiteral("lab")));
        },
        5000));
    ASSERT_TRUE(succeeded(core::AppConfig::load(options.configPath, &reloaded)));
    EXPECT_TRUE(reloaded.sources.isEmpty());
}

TEST_F(ControllerTest, DemoMode_NeverWritesTheConfig)
{
    options.demo = true;
    desktop::DesktopController controller(engine, {}, options);
    bool done = false;
    controller.applySource(unreachableSource(QStringLiteral("lab")), QStringLiteral("pw"), [&done](const QString &) {
        done = true;
    });
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return done;
        },
        5000));
    EXPECT_FALSE(QFile::exists(options.configPath));
    EXPECT_EQ(controller.window().windowTitle(), QStringLiteral("Strata (demo)"));
}

TEST_F(ControllerTest, FailedAction_NotifiesAndRetriesFromTheActivityPanel)
{
    FlakyExecutor executor;
    engine.actions().setExecutor(QStringLiteral("lab"), &executor);
    desktop::DesktopController controller(engine, {}, options);
    views::MainWindow &window = controller.window();
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));

    core::ActionRequest request;
    request.source = QStringLiteral("lab");
    request.volumeId = QStringLiteral("v1");
    request.name = QStringLiteral("snap1");
    QSignalSpy finished(&engine.actions(), &core::ActionManager::actionFinished);
    ASSERT_TRUE(succeeded(engine.actions().submit(request)));
    ASSERT_TRUE(finished.wait(5000));
    EXPECT_FALSE(finished.at(0).at(1).toBool());
    EXPECT_TRUE(window.notificationText().contains(QStringLiteral("connection reset")))
        << window.notificationText().toStdString();

    models::ActivityModel &activity = controller.activityModel();
    EXPECT_EQ(activity.index(0, models::ActivityModel::State).data(models::StatusRole).toString(),
              QStringLiteral("failed"));
    auto *table = window.findChild<QTableView *>(QStringLiteral("activityTableView"));
    auto *retry = window.findChild<QPushButton *>(QStringLiteral("activityRetryButton"));
    EXPECT_FALSE(retry->isEnabled());
    table->selectRow(0);
    ASSERT_TRUE(retry->isEnabled());
    QTest::mouseClick(retry, Qt::LeftButton);
    ASSERT_TRUE(finished.wait(5000));
    EXPECT_TRUE(finished.at(1).at(1).toBool());
    EXPECT_EQ(executor.runs.load(), 2);
    EXPECT_EQ(activity.index(0, models::ActivityModel::State).data().toString(),
              QStringLiteral("Succeeded (reconciled)"));
    EXPECT_FALSE(retry->isEnabled());
    engine.actions().removeExecutor(QStringLiteral("lab"));
}
