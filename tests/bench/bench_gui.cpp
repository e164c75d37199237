// The desktop window over a generated ONTAP cluster: how long the GUI thread is ever blocked
// while the Volumes table fills, sorts, filters and takes a re-poll as a keyed diff. A 10 ms
// heartbeat timer runs on the GUI thread; the longest gap between two beats, less the 10 ms, is
// the longest freeze a user would feel. Offscreen unless QT_QPA_PLATFORM says otherwise.
//
//   strata_gui_bench [--volumes 50000] [--timeout-s 600]
//
// Figures, not a pass/fail timing test: exit 1 only when the table never shows every volume, a
// filter never applies or the re-poll never lands.
#include "app/desktop/desktopcontroller.h"
#include "models/core/clock.h"
#include "models/core/credentialstore.h"
#include "models/core/engine.h"
#include "models/item/volumetablemodel.h"
#include "simulators/common/serverthread.h"
#include "simulators/ontap/ontapsimulator.h"
#include "views/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <cstdio>

using namespace strata;

namespace {

/// The longest gap between beats of a 10 ms GUI-thread timer since the last reset().
class Heartbeat
{
public:
    static constexpr qint64 kIntervalMs = 10;

    Heartbeat()
    {
        m_timer.setInterval(int(kIntervalMs));
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            m_worst = std::max(m_worst, m_sinceBeat.restart());
        });
        m_sinceBeat.start();
        m_timer.start();
    }
    void reset()
    {
        m_worst = 0;
        m_sinceBeat.restart();
    }
    /// Milliseconds the GUI thread could not run the timer, beyond its own interval.
    [[nodiscard]] qint64 worstStallMs() const { return std::max<qint64>(0, m_worst - kIntervalMs); }

private:
    QTimer m_timer;
    QElapsedTimer m_sinceBeat;
    qint64 m_worst = 0;
};

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption volumesOption(QStringLiteral("volumes"),
                                           QStringLiteral("Volumes in the simulated cluster."),
                                           QStringLiteral("n"),
                                           QStringLiteral("50000"));
    const QCommandLineOption timeoutOption(QStringLiteral("timeout-s"),
                                           QStringLiteral("Give up on any one step after this long."),
                                           QStringLiteral("s"),
                                           QStringLiteral("600"));
    parser.addOptions({volumesOption, timeoutOption});
    parser.process(app);
    const int volumes = parser.value(volumesOption).toInt();
    const int timeoutMs = parser.value(timeoutOption).toInt() * 1000;
    std::printf("strata_gui_bench: desktop Volumes page over %d volumes (platform %s)\n",
                volumes,
                qPrintable(QGuiApplication::platformName()));

    sim::ServerThread thread;
    sim::ontap::OntapSimulatorOptions simOptions;
    simOptions.preset = sim::ontap::OntapSimulatorOptions::Preset::Generated;
    simOptions.volumeCount = volumes;
    simOptions.tickInterval = std::chrono::milliseconds(0);
    QString error;
    sim::ontap::OntapSimulator *simulator = sim::ontap::OntapSimulator::startOnThread(thread, simOptions, &error);
    if (!simulator) {
        std::fprintf(stderr, "simulator: %s\n", qPrintable(error));
        return 1;
    }
    QTemporaryDir dir;
    const QString caFile = dir.filePath(QStringLiteral("ca.pem"));
    QFile ca(caFile);
    if (!ca.open(QIODevice::WriteOnly) || ca.write(simulator->certificatePem()) < 0) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(caFile));
        return 1;
    }
    ca.close();

    core::InMemoryCredentialStore credentials;
    core::SourceConfig source;
    source.name = QStringLiteral("ontap-scale");
    source.kind = core::SourceKind::Ontap;
    source.url = simulator->baseUrl();
    source.username = simOptions.username;
    source.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(source.name)};
    source.caFile = caFile;
    // Only the explicit refresh below polls again while the figures are taken.
    source.configIntervalSeconds = 3600;
    source.perfIntervalSeconds = 3600;
    credentials.set(source.password.value, simOptions.password);
    core::AppConfig config;
    config.sources = {source};

    core::SystemClock clock;
    core::Engine engine({clock, credentials, nullptr, QStringLiteral("bench")});
    engine.setSources(config.sources);
    desktop::DesktopController::Options options;
    options.settingsPath = dir.filePath(QStringLiteral("ui.ini"));
    desktop::DesktopController controller(engine, config, options);
    views::MainWindow &window = controller.window();
    window.resize(1400, 900);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window)) {
        std::fprintf(stderr, "the window was never exposed\n");
        return 1;
    }
    auto *table = window.findChild<QTableView *>(QStringLiteral("volumeTableView"));
    auto *filter = window.findChild<QLineEdit *>(QStringLiteral("volumeFilterLineEdit"));
    if (!table || !filter) {
        std::fprintf(stderr, "the Volumes page has no volumeTableView or volumeFilterLineEdit\n");
        return 1;
    }
    auto rows = [table] {
        return table->model()->rowCount();
    };

    Heartbeat heartbeat;
    QElapsedTimer total;
    total.start();
    if (!QTest::qWaitFor(
            [&] {
                return rows() >= volumes;
            },
            timeoutMs)) {
        std::fprintf(stderr, "the table shows %d of %d volumes after %d s\n", rows(), volumes, timeoutMs / 1000);
        return 1;
    }
    const qint64 shownMs = total.elapsed();
    const qint64 fillStall = heartbeat.worstStallMs();

    heartbeat.reset();
    total.restart();
    table->sortByColumn(models::VolumeTableModel::Size, Qt::DescendingOrder);
    QTest::qWait(50);
    const qint64 sortStall = heartbeat.worstStallMs();

    heartbeat.reset();
    QTest::keyClicks(filter, QStringLiteral("vol_1"));
    if (!QTest::qWaitFor(
            [&] {
                return rows() < volumes;
            },
            timeoutMs)) {
        std::fprintf(stderr, "the filter never applied\n");
        return 1;
    }
    const qint64 filterStall = heartbeat.worstStallMs();
    filter->clear();
    if (!QTest::qWaitFor(
            [&] {
                return rows() >= volumes;
            },
            timeoutMs)) {
        std::fprintf(stderr, "clearing the filter never brought every row back\n");
        return 1;
    }

    // A second inventory poll applies as a diff while the user watches.
    heartbeat.reset();
    bool polled = false;
    QObject::connect(&engine, &core::Engine::allSourcesPolled, &app, [&polled] {
        polled = true;
    });
    total.restart();
    engine.refresh();
    if (!QTest::qWaitFor(
            [&] {
                return polled;
            },
            timeoutMs)) {
        std::fprintf(stderr, "the re-poll never completed\n");
        return 1;
    }
    QTest::qWait(200); // the diff's application on the GUI thread follows the signal
    const qint64 repollMs = total.elapsed();
    const qint64 pollStall = heartbeat.worstStallMs();

    std::printf("  every row shown after             %7lld ms\n", shownMs);
    std::printf("  longest GUI-thread stall: fill    %7lld ms\n", fillStall);
    std::printf("                            sort    %7lld ms\n", sortStall);
    std::printf("                            filter  %7lld ms\n", filterStall);
    std::printf("                            re-poll %7lld ms (poll took %lld ms)\n", pollStall, repollMs);
    return 0;
}
