#pragma once

#include "app/desktop/desktopcontroller.h"
#include "demo/demoestate.h"
#include "demo/demoscenario.h"
#include "models/core/domain/clock.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/historyservice.h"
#include "models/core/store/credentialstore.h"
#include "models/core/store/historystore.h"

#include <QColor>
#include <QPalette>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <memory>

namespace strata::testsupport {

/// A dark system theme (the colours of a typical dark desktop), for screenshots and for the
/// system switching themes while the app runs.
inline QPalette darkPalette()
{
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2d, 0x2d, 0x2d));
    dark.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    dark.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    dark.setColor(QPalette::ButtonText, QColor(0xe0, 0xe0, 0xe0));
    dark.setColor(QPalette::Highlight, QColor(0x2a, 0x82, 0xda));
    dark.setColor(QPalette::HighlightedText, Qt::white);
    dark.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
    dark.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    dark.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    return dark;
}

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
        history = std::make_unique<core::HistoryService>(std::make_unique<core::SqlHistoryStore>(
            setup.demoHistory ? demo->config().historyPath : QStringLiteral(":memory:"), clock));
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
