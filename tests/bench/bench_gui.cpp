// The desktop window over a generated ONTAP cluster and a generated Kubernetes cluster, both live:
// how long the GUI thread is blocked while the Volumes and Jobs tables fill, while pod changes
// arrive at a fixed rate over the real watch, and while the user sorts, filters and searches and
// an ONTAP re-poll lands as a keyed diff. An event-loop probe (a 5 ms timer on the GUI thread)
// records every gap between two beats; a gap longer than the interval is a stall the user feels,
// and each phase reports the p50, p99 and max of those stalls. Offscreen unless QT_QPA_PLATFORM
// says otherwise.
//
//   strata_gui_bench [--volumes 50000] [--pods 100000] [--churn 1000] [--churn-seconds 20]
//                    [--timeout-s 600]
//
// The churn is the Kubernetes simulator's (a kubelet status heartbeat on `churn` pods per second,
// sent on the watch Strata holds open): the changes/s the GUI thread has to keep up with. Figures,
// not a pass/fail timing test: exit 1 only when a table never shows the whole estate, a filter or
// search never applies, the churn never arrives or the re-poll never lands.
#include "app/desktop/desktopcontroller.h"
#include "models/core/domain/clock.h"
#include "models/core/domain/estate.h"
#include "models/core/runtime/engine.h"
#include "models/core/store/credentialstore.h"
#include "models/item/jobtablemodel.h"
#include "models/item/volumetablemodel.h"
#include "simulators/common/serverthread.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "simulators/ontap/ontapsimulator.h"
#include "views/asyncsortproxy.h"
#include "views/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QLineEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

using namespace strata;

namespace {

/// Every gap between beats of a 5 ms GUI-thread timer since the last reset(), as the time the
/// GUI thread could not run it beyond the interval.
class StallProbe
{
public:
    static constexpr int kIntervalMs = 5;

    StallProbe()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(kIntervalMs);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const double gapMs = double(m_sinceBeat.nsecsElapsed()) / 1e6;
            m_sinceBeat.restart();
            m_stallsMs.push_back(std::max(0.0, gapMs - kIntervalMs));
        });
        m_sinceBeat.start();
        m_timer.start();
    }
    void reset()
    {
        m_stallsMs.clear();
        m_sinceBeat.restart();
    }
    /// The stall below which `fraction` (0..1) of the beats fall (nearest rank); 0 without beats.
    [[nodiscard]] double percentileMs(double fraction) const
    {
        if (m_stallsMs.empty()) {
            return 0;
        }
        std::vector<double> sorted = m_stallsMs;
        std::sort(sorted.begin(), sorted.end());
        const auto rank = std::size_t(std::ceil(fraction * double(sorted.size())));
        return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
    }
    [[nodiscard]] double maxMs() const
    {
        return m_stallsMs.empty() ? 0 : *std::max_element(m_stallsMs.cbegin(), m_stallsMs.cend());
    }
    [[nodiscard]] std::size_t beats() const { return m_stallsMs.size(); }

private:
    QTimer m_timer;
    QElapsedTimer m_sinceBeat;
    std::vector<double> m_stallsMs;
};

void printPhase(const char *phase, const StallProbe &probe, const QString &note = {})
{
    std::printf("  %-34s p50 %7.1f  p99 %7.1f  max %7.1f ms  (%zu beats)%s%s\n",
                phase,
                probe.percentileMs(0.50),
                probe.percentileMs(0.99),
                probe.maxMs(),
                probe.beats(),
                note.isEmpty() ? "" : "  ",
                qPrintable(note));
}

/// Runs the GUI thread's event loop until `done` or `timeoutMs`: QTest::qWait and qWaitFor sleep
/// 10 ms between event batches, which the probe would count as stalls.
bool spinUntil(const std::function<bool()> &done, int timeoutMs)
{
    if (done()) {
        return true;
    }
    QEventLoop loop;
    QTimer check;
    check.setInterval(2);
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        if (done()) {
            loop.quit();
        }
    });
    check.start();
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return done();
}

void spinFor(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

void printStep(const char *step, const StallProbe &probe)
{
    std::printf("  %-34s longest %7.1f ms\n", step, probe.maxMs());
}

bool writeCa(const QString &path, const QByteArray &pem)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(pem) == pem.size();
}

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
                                           QStringLiteral("Volumes in the ONTAP cluster."),
                                           QStringLiteral("n"),
                                           QStringLiteral("50000"));
    const QCommandLineOption podsOption(QStringLiteral("pods"),
                                        QStringLiteral("Pods in the Kubernetes cluster."),
                                        QStringLiteral("n"),
                                        QStringLiteral("100000"));
    const QCommandLineOption churnOption(QStringLiteral("churn"),
                                         QStringLiteral("Pod changes per second while the user works."),
                                         QStringLiteral("n"),
                                         QStringLiteral("1000"));
    const QCommandLineOption churnSecondsOption(QStringLiteral("churn-seconds"),
                                                QStringLiteral("Length of the window with churn and no user."),
                                                QStringLiteral("s"),
                                                QStringLiteral("20"));
    const QCommandLineOption timeoutOption(QStringLiteral("timeout-s"),
                                           QStringLiteral("Give up on any one step after this long."),
                                           QStringLiteral("s"),
                                           QStringLiteral("600"));
    parser.addOptions({volumesOption, podsOption, churnOption, churnSecondsOption, timeoutOption});
    parser.process(app);
    const int volumes = parser.value(volumesOption).toInt();
    const int pods = std::max(1, parser.value(podsOption).toInt());
    const int churn = parser.value(churnOption).toInt();
    const int churnMs = std::max(1, parser.value(churnSecondsOption).toInt()) * 1000;
    const int timeoutMs = parser.value(timeoutOption).toInt() * 1000;
    std::printf("strata_gui_bench: desktop over %d ONTAP volumes and %d pods, churn %d pods/s (platform %s)\n",
                volumes,
                pods,
                churn,
                qPrintable(QGuiApplication::platformName()));

    QElapsedTimer total;
    total.start();
    sim::ServerThread ontapThread;
    sim::ontap::OntapSimulatorOptions ontapOptions;
    ontapOptions.preset = sim::ontap::OntapSimulatorOptions::Preset::Generated;
    ontapOptions.volumeCount = volumes;
    ontapOptions.tickInterval = std::chrono::milliseconds(0);
    QString error;
    sim::ontap::OntapSimulator *ontap = sim::ontap::OntapSimulator::startOnThread(ontapThread, ontapOptions, &error);
    if (!ontap) {
        std::fprintf(stderr, "ONTAP simulator: %s\n", qPrintable(error));
        return 1;
    }
    sim::ServerThread kubeThread;
    sim::kube::KubeSimulatorOptions kubeOptions;
    kubeOptions.preset = sim::kube::KubeSimulatorOptions::Preset::Scale;
    kubeOptions.scalePods = pods;
    kubeOptions.scaleNodes = std::max(1, pods / 50);
    kubeOptions.scaleNamespaces = 20;
    kubeOptions.tickInterval = std::chrono::milliseconds(0);
    sim::kube::KubeSimulator *kube = sim::kube::KubeSimulator::startOnThread(kubeThread, kubeOptions, &error);
    if (!kube) {
        std::fprintf(stderr, "Kubernetes simulator: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("  simulators built in %.1f s\n", double(total.elapsed()) / 1000.0);

    QTemporaryDir dir;
    const QString ontapCa = dir.filePath(QStringLiteral("ontap-ca.pem"));
    const QString kubeCa = dir.filePath(QStringLiteral("kube-ca.pem"));
    if (!writeCa(ontapCa, ontap->certificatePem()) || !writeCa(kubeCa, kube->caPem())) {
        std::fprintf(stderr, "cannot write the simulators' CA files under %s\n", qPrintable(dir.path()));
        return 1;
    }

    core::InMemoryCredentialStore credentials;
    core::SourceConfig storage;
    storage.name = QStringLiteral("ontap-scale");
    storage.kind = core::SourceKind::Ontap;
    storage.url = ontap->baseUrl();
    storage.username = ontapOptions.username;
    storage.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(storage.name)};
    storage.caFile = ontapCa;
    // Only the explicit re-poll below polls ONTAP again while the figures are taken.
    storage.configIntervalSeconds = 3600;
    storage.perfIntervalSeconds = 3600;
    credentials.set(storage.password.value, ontapOptions.password);
    core::SourceConfig cluster;
    cluster.name = QStringLiteral("k8s-scale");
    cluster.kind = core::SourceKind::Kubernetes;
    cluster.url = kube->baseUrl();
    cluster.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(cluster.name)};
    cluster.caFile = kubeCa;
    credentials.set(cluster.password.value, kube->token());
    core::AppConfig config;
    config.sources = {storage, cluster};

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
    auto *volumeTable = window.findChild<QTableView *>(QStringLiteral("volumeTableView"));
    auto *volumeFilter = window.findChild<QLineEdit *>(QStringLiteral("volumeFilterLineEdit"));
    auto *jobTable = window.findChild<QTableView *>(QStringLiteral("runningJobTableView"));
    auto *jobFilter = window.findChild<QLineEdit *>(QStringLiteral("jobFilterLineEdit"));
    if (!volumeTable || !volumeFilter || !jobTable || !jobFilter) {
        std::fprintf(stderr,
                     "the window lacks volumeTableView, volumeFilterLineEdit, runningJobTableView or "
                     "jobFilterLineEdit\n");
        return 1;
    }
    const auto volumeRows = [volumeTable] {
        return volumeTable->model()->rowCount();
    };
    const auto jobRows = [jobTable] {
        return jobTable->model()->rowCount();
    };
    const auto waitFor = [timeoutMs](const std::function<bool()> &done, const char *what) {
        if (spinUntil(done, timeoutMs)) {
            return true;
        }
        std::fprintf(stderr, "%s: not after %d s\n", what, timeoutMs / 1000);
        return false;
    };

    // At scale a table's order is computed on a worker thread: a sort step waits until it shows.
    const auto sorted = [&waitFor](const QTableView *table, const char *what) {
        const auto *proxy = qobject_cast<const views::AsyncSortFilterProxy *>(table->model());
        return !proxy
               || waitFor(
                   [proxy] {
                       return !proxy->isPending();
                   },
                   what);
    };

    // ---- The first full view of both clusters ----
    StallProbe probe;
    total.restart();
    std::size_t estateJobs = 0;
    if (!waitFor(
            [&] {
                estateJobs = engine.estate().jobs().all().size();
                return engine.allPolledOnce() && volumeRows() >= volumes && estateJobs > 0;
            },
            "every volume shown and the jobs listed")) {
        std::fprintf(
            stderr, "  (the table shows %d of %d volumes, the estate %zu jobs)\n", volumeRows(), volumes, estateJobs);
        return 1;
    }
    const qint64 shownMs = total.elapsed();
    std::printf("  both clusters shown after %.1f s: %d volumes, %zu jobs\n\n",
                double(shownMs) / 1000.0,
                volumeRows(),
                estateJobs);
    std::printf("GUI-thread stalls (gaps of a %d ms timer beyond its interval)\n", StallProbe::kIntervalMs);
    printPhase("fill (both clusters, first poll)", probe);

    // ---- Churn arriving, nobody touching the window ----
    probe.reset();
    const std::uint64_t rv0 = kube->resourceVersion();
    kube->setChurn(churn);
    QElapsedTimer window0;
    window0.start();
    spinFor(churnMs);
    const double churnWall = double(window0.elapsed()) / 1000.0;
    const double arrived = double(kube->resourceVersion() - rv0) / churnWall;
    if (churn > 0 && arrived < 1) {
        std::fprintf(stderr, "no pod change arrived in %.1f s\n", churnWall);
        return 1;
    }
    printPhase("churn, window idle", probe, QStringLiteral("%1 changes/s sent").arg(arrived, 0, 'f', 0));

    // ---- The user works while the churn goes on: every step is measured on its own ----
    StallProbe overall; // the whole interactive window under churn
    const auto step = [&](const char *name, const std::function<bool()> &act) {
        probe.reset();
        if (!act()) {
            return false;
        }
        spinFor(100); // what the step queued (re-sorts, repaints) runs in the same window
        printStep(name, probe);
        return true;
    };
    const bool worked = step("sort volumes by size",
                             [&] {
                                 volumeTable->sortByColumn(models::VolumeTableModel::Size, Qt::DescendingOrder);
                                 return sorted(volumeTable, "the volume sort applied");
                             })
                        && step("filter volumes \"vol_1\"",
                                [&] {
                                    QTest::keyClicks(volumeFilter, QStringLiteral("vol_1"));
                                    return waitFor(
                                        [&] {
                                            return volumeRows() < volumes;
                                        },
                                        "the volume filter applied");
                                })
                        && step("clear the volume filter",
                                [&] {
                                    volumeFilter->clear();
                                    return waitFor(
                                        [&] {
                                            return volumeRows() >= volumes;
                                        },
                                        "every volume back");
                                })
                        && step("switch to Jobs",
                                [&] {
                                    window.showPage(views::MainWindow::Page::Jobs);
                                    return waitFor(
                                        [&] {
                                            return jobRows() > 0;
                                        },
                                        "running jobs shown");
                                })
                        && step("sort jobs by name",
                                [&] {
                                    jobTable->sortByColumn(models::JobTableModel::Name, Qt::AscendingOrder);
                                    return sorted(jobTable, "the job sort applied");
                                })
                        && step("search jobs by a job's name",
                                [&] {
                                    const int before = jobRows();
                                    const QString name =
                                        jobTable->model()->index(0, models::JobTableModel::Name).data().toString();
                                    QTest::keyClicks(jobFilter, name);
                                    return waitFor(
                                        [&] {
                                            return jobRows() < before;
                                        },
                                        "the job search applied");
                                })
                        && step("clear the job search",
                                [&] {
                                    // The search applies once typing pauses: wait for it.
                                    const int filtered = jobRows();
                                    jobFilter->clear();
                                    return waitFor(
                                        [&] {
                                            return jobRows() > filtered;
                                        },
                                        "every running job back");
                                })
                        && step("switch back to Volumes", [&] {
                               window.showPage(views::MainWindow::Page::Volumes);
                               return true;
                           });
    if (!worked) {
        return 1;
    }
    printPhase("churn, whole interactive window", overall);

    // ---- An ONTAP re-poll applies as a diff while the churn goes on ----
    probe.reset();
    const QDateTime before = engine.status(storage.name)->lastSuccess;
    total.restart();
    engine.refresh(storage.name);
    if (!waitFor(
            [&] {
                return engine.status(storage.name)->lastSuccess > before;
            },
            "the ONTAP re-poll")) {
        return 1;
    }
    spinFor(200); // the diff's application on the GUI thread follows the status
    printPhase("ONTAP re-poll under churn", probe, QStringLiteral("poll took %1 ms").arg(total.elapsed()));
    kube->setChurn(0);
    return 0;
}
