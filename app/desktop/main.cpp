#include "app/cli/cli.h"
#include "app/desktop/desktopcontroller.h"
#include "app/desktop/keychaincredentialstore.h"
#include "demo/demoestate.h"
#include "demo/demoscenario.h"
#include "models/core/domain/clock.h"
#include "models/core/runtime/bundle.h"
#include "models/core/runtime/engine.h"
#include "models/core/runtime/runtime.h"
#include "models/core/runtime/sharedsettings.h"
#include "models/core/store/config.h"
#include "models/core/store/credentialstore.h"
#include "views/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTextStream>
#include <QTimer>
#include <QTranslator>

#include <algorithm>
#include <cstdio>
#include <memory>

#ifndef STRATA_VERSION
#define STRATA_VERSION "0.0.0"
#endif

namespace {

void setIdentity()
{
    QCoreApplication::setApplicationName(QStringLiteral("strata"));
    QCoreApplication::setOrganizationName(QStringLiteral("Strata"));
    QCoreApplication::setApplicationVersion(QStringLiteral(STRATA_VERSION));
}

QString currentUser()
{
    QString user = qEnvironmentVariable("USER");
    return user.isEmpty() ? qEnvironmentVariable("USERNAME") : user;
}

/// Loads :/i18n/strata_<locale>.qm for the system locale when one is embedded; without one
/// (another language, the C locale) the English catalogue, which holds only plural forms, so
/// "%n object(s)" reads "1 object" / "3 objects" over the English source strings.
void installTranslator(QTranslator &translator)
{
    if (translator.load(QLocale(), QStringLiteral("strata"), QStringLiteral("_"), QStringLiteral(":/i18n"))
        || translator.load(QStringLiteral("strata_en"), QStringLiteral(":/i18n"))) {
        QCoreApplication::installTranslator(&translator);
    }
}

/// How long a one-shot command may take to stop its sources after printing its answer.
constexpr int kTeardownGraceSeconds = 10;

int runCli(int argc, char **argv, const QStringList &arguments)
{
    QCoreApplication app(argc, argv);
    setIdentity();
    QTranslator translator;
    installTranslator(translator);
    strata::desktop::KeychainCredentialStore keychain;
    QTextStream out(stdout);
    QTextStream err(stderr);
    strata::cli::RunHooks hooks;
    hooks.answered = [&out, &err](int exitCode) {
        strata::cli::armExitWatchdog(exitCode, kTeardownGraceSeconds, QStringLiteral("strata"), out, err);
    };
    hooks.startDemo = strata::demo::startScopedForCommand;
    const int code = strata::cli::run(
        arguments, keychain, strata::cli::Console{QStringLiteral("strata"), currentUser(), out, err}, hooks);
    out.flush();
    err.flush();
    return code;
}

/// `strata --bundle FILE`: the bundle in a read-only window that connects to nothing.
int runBundleWindow(QApplication &app, const QString &path)
{
    std::optional<strata::core::Bundle> bundle;
    QString error;
    bool read = false;
    QEventLoop loop;
    // Read off the GUI thread; the event loop keeps running meanwhile.
    strata::core::openBundleAsync(path, &loop, [&](std::optional<strata::core::Bundle> b, const QString &e) {
        bundle = std::move(b);
        error = e;
        read = true;
        loop.quit();
    });
    if (!read) {
        loop.exec();
    }
    if (!bundle) {
        QMessageBox::critical(
            nullptr,
            QCoreApplication::translate("main", "Strata"),
            QCoreApplication::translate("main", "The support bundle %1 cannot be opened: %2").arg(path, error));
        return 2;
    }
    strata::core::OfflineEngine offline(*bundle, currentUser());
    strata::core::AppConfig config;
    config.sources = bundle->sources;
    config.rateCard = bundle->rateCard;
    config.cacheTargets = bundle->cacheTargets;
    strata::desktop::DesktopController::Options options;
    options.bundle = bundle->meta;
    strata::desktop::DesktopController controller(offline.engine(), config, options);
    controller.window().show();
    return app.exec();
}

} // namespace

/// The first bare word of a desktop start that is neither `demo` nor an option's value: an
/// unknown command such as `what-if`, told before a window (and a display) is needed.
QString unknownWord(const QStringList &arguments)
{
    static const QStringList withValue{QStringLiteral("--config"),
                                       QStringLiteral("-config"),
                                       QStringLiteral("--demo-volumes"),
                                       QStringLiteral("-demo-volumes"),
                                       QStringLiteral("--bundle"),
                                       QStringLiteral("-bundle")};
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString &a = arguments[i];
        if (withValue.contains(a)) {
            ++i;
        } else if (!a.startsWith(QLatin1Char('-')) && a != QLatin1String("demo")) {
            return a;
        }
    }
    return {};
}

int main(int argc, char **argv)
{
    QStringList arguments;
    for (int i = 1; i < argc; ++i) {
        arguments << QString::fromLocal8Bit(argv[i]);
    }
    if (strata::cli::isCommand(arguments)) {
        return runCli(argc, argv, arguments);
    }
    if (const QString word = unknownWord(arguments); !word.isEmpty()) {
        // Through the CLI, which names the word and lists the commands (exit 2).
        return runCli(argc, argv, arguments);
    }

    QApplication app(argc, argv);
    setIdentity();
    QGuiApplication::setApplicationDisplayName(QStringLiteral("Strata"));
    QGuiApplication::setDesktopFileName(QStringLiteral("strata"));

    QTranslator translator;
    installTranslator(translator);

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("main", "Strata: storage and GPUs behind AI work."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption demoOption(QStringLiteral("demo"),
                                        QCoreApplication::translate("main", "Start the built-in simulated estate."));
    const QCommandLineOption configOption(
        QStringLiteral("config"),
        QCoreApplication::translate("main", "Config file (default: %1).").arg(strata::core::AppConfig::defaultPath()),
        QStringLiteral("path"));
    const QCommandLineOption demoVolumesOption(
        QStringLiteral("demo-volumes"),
        QCoreApplication::translate("main", "With --demo: a generated cluster with this many volumes (scale checks)."),
        QStringLiteral("count"));
    const QCommandLineOption bundleOption(
        QStringLiteral("bundle"),
        QCoreApplication::translate("main", "Show this support bundle read-only, connecting to nothing."),
        QStringLiteral("file"));
    parser.addOptions({demoOption, configOption, demoVolumesOption, bundleOption});
    parser.addPositionalArgument(
        QStringLiteral("demo"), QCoreApplication::translate("main", "Same as --demo."), QStringLiteral("[demo]"));
    parser.process(app);
    const QStringList positional = parser.positionalArguments();
    for (const QString &p : positional) {
        if (p != QLatin1String("demo")) {
            QTextStream(stderr) << QCoreApplication::translate("main", "strata: unknown argument \"%1\"").arg(p)
                                << '\n';
            return 2;
        }
    }
    if (parser.isSet(bundleOption)) {
        return runBundleWindow(app, parser.value(bundleOption));
    }
    const bool demoMode = parser.isSet(demoOption) || positional.contains(QStringLiteral("demo"));

    strata::desktop::KeychainCredentialStore keychain;
    strata::core::RuntimeOptions runtimeOptions;
    if (demoMode) {
        strata::demo::DemoEstate::Options demoOptions;
        demoOptions.generatedVolumes = std::max(0, parser.value(demoVolumesOption).toInt());
        runtimeOptions.demo = strata::demo::starter(demoOptions);
    } else {
        runtimeOptions.configPath =
            parser.isSet(configOption) ? parser.value(configOption) : strata::core::AppConfig::defaultPath();
        runtimeOptions.configOptional = true; // the first start: no sources yet
        runtimeOptions.credentials = &keychain;
    }
    runtimeOptions.user = currentUser();
    runtimeOptions.runSchedules = true; // the desktop app runs planned service-level changes
    strata::core::Result<std::unique_ptr<strata::core::Runtime>> built = strata::core::Runtime::build(runtimeOptions);
    if (!built) {
        const QString &error = built.error().message;
        QMessageBox::critical(
            nullptr,
            QCoreApplication::translate("main", "Strata"),
            demoMode ? QCoreApplication::translate("main", "The demo estate could not start: %1").arg(error)
                     : QCoreApplication::translate("main", "The configuration cannot be read:\n%1").arg(error));
        return demoMode ? 1 : 2;
    }
    const std::unique_ptr<strata::core::Runtime> runtime = std::move(*built);
    if (!runtime->historyError().isEmpty()) {
        qWarning("strata: history store unavailable: %s", qPrintable(runtime->historyError()));
    }

    strata::desktop::DesktopController::Options options;
    options.demo = demoMode;
    if (demoMode) {
        options.scenario = strata::demo::DemoScenario().remaining();
    }
    options.configPath = runtime->configPath();
    if (!runtime->settingsError().isEmpty()) {
        qWarning("strata: shared settings unavailable, using the config file's: %s",
                 qPrintable(runtime->settingsError()));
    } else if (strata::core::SharedSettings *settings = runtime->settings()) {
        // The rate card and cache targets live in the store: edits made by another process on it
        // (a strata-server replica, `strata-server settings set`) show here within seconds.
        settings->watch();
        options.settings = settings;
    }
    strata::desktop::DesktopController controller(runtime->engine(), runtime->config(), options);
    controller.window().show();
    if (!runtime->historyError().isEmpty()) {
        controller.window().showNotification(
            QCoreApplication::translate("main", "Capacity history and the audit log are not recorded: %1")
                .arg(runtime->historyError()));
    }
    return app.exec();
}
