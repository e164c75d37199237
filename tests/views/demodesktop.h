#pragma once

#include "app/desktop/desktopcontroller.h"
#include "demo/demoestate.h"
#include "demo/demoscenario.h"
#include "models/core/clock.h"
#include "models/core/credentialstore.h"
#include "models/core/engine.h"
#include "models/core/historyservice.h"
#include "models/core/historystore.h"

#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <memory>

namespace strata::testsupport {

/// The whole desktop app (real Engine, DesktopController and MainWindow) over the in-process
/// demo estate, as `strata --demo` wires it. A fixture derives from it and calls startDemo() in
/// SetUp(); the members are torn down in reverse order of their dependencies.
class DemoDesktopTest : public ::testing::Test
{
protected:
    struct Setup
    {
        /// Read the history the demo backfilled (72 h of GPU and volume samples); false: an empty
        /// in-memory store.
        bool demoHistory = false;
        /// Hand the engine the demo's cache targets.
        bool cacheTargets = false;
    };

    /// Starts the demo and the app; a failure is a fatal test failure (check HasFatalFailure()).
    void startDemo(Setup setup)
    {
        auto started = demo::DemoEstate::start({});
        ASSERT_TRUE(started) << started.error().message.toStdString();
        demo = std::move(*started);
        history = std::make_unique<core::HistoryService>(std::make_unique<core::SqliteHistoryStore>(
            setup.demoHistory ? demo->config().historyPath : QStringLiteral(":memory:")));
        ASSERT_TRUE(history->openError().isEmpty()) << history->openError().toStdString();
        engine = std::make_unique<core::Engine>(
            core::Engine::Deps{clock, demo->credentials(), history.get(), QStringLiteral("tester")});
        engine->setSources(demo->config().sources);
        if (setup.cacheTargets) {
            engine->setCacheTargets(demo->config().cacheTargets);
        }
        ASSERT_TRUE(settingsDir.isValid());
        desktop::DesktopController::Options options;
        options.demo = true;
        options.scenario = demo::DemoScenario().remaining(); // as main() passes it
        options.settingsPath = settingsDir.filePath(QStringLiteral("strata.ini"));
        controller = std::make_unique<desktop::DesktopController>(*engine, demo->config(), options);
    }

    void TearDown() override
    {
        controller.reset();
        engine.reset();
        history.reset();
        demo.reset();
    }

    std::unique_ptr<demo::DemoEstate> demo;
    core::SystemClock clock;
    std::unique_ptr<core::HistoryService> history;
    std::unique_ptr<core::Engine> engine;
    QTemporaryDir settingsDir;
    std::unique_ptr<desktop::DesktopController> controller;
};

} // namespace strata::testsupport
