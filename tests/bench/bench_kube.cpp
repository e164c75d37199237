// Kubernetes scale benchmark (its target: list and watch at 50,000 pods): an in-process Kubernetes simulator with N
// pods in M namespaces on K nodes, listed and watched over HTTPS by the real KubernetesSource; then the simulator
// modifies pods at a fixed rate. Reports time to the first full view, Strata's CPU per 1,000 pod changes, memory, and
// `kubectl get pods -A -o json` against the same simulator.
//   strata_kube_bench --pods 50000 --nodes 2000 --namespaces 20 --churn 1000 --churn-seconds 10
// Figures for the notes, never a pass/fail timing test.
//
// Separating Strata's CPU from the simulator's: both run in this process, so process CPU time
// (getrusage RUSAGE_SELF, user + sys) counts both. The simulator is single-threaded (its
// ServerThread: HTTP, TLS, JSON and the churn all run there), so its own CPU time is read from
// that thread's CPU clock (pthread_getcpuclockid) and subtracted: Strata = process - simulator
// thread. As a cross-check the windowed method is reported too: the simulator's churn cost is
// measured in a window with churn running and no Strata engine (it then has no watch to serve,
// so this under-counts what the simulator spends with a watcher: that is why the thread clock is
// the primary figure), and an idle window (simulator running, no churn, no engine) gives the
// baseline. Every window has the same length as the churn window.

#include "connectors/http/curltransport.h"
#include "connectors/kubernetes/client.h"
#include "models/core/domain/clock.h"
#include "models/core/runtime/engine.h"
#include "models/core/sources/kubernetes/kubernetessource.h"
#include "models/core/store/credentialstore.h"
#include "simulators/common/serverthread.h"
#include "simulators/kubernetes/kubesimulator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace strata;

extern char **environ;

namespace {

constexpr auto kSource = "scale";

double seconds(const timeval &t)
{
    return double(t.tv_sec) + double(t.tv_usec) / 1e6;
}

double processCpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double maxRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

double currentRssMiB()
{
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly)) {
        return -1;
    }
    const QList<QByteArray> parts = f.readAll().split(' ');
    return parts.size() > 1 ? double(parts[1].toLong()) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0) : -1;
}

/// VmHWM (peak RSS since start or since resetPeakRss()), MiB; -1 when unreadable.
double peakRssMiB()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly)) {
        return -1;
    }
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmHWM:")) {
            return double(line.mid(6).trimmed().split(' ').value(0).toLong()) / 1024.0;
        }
    }
    return -1;
}

/// Resets VmHWM to the current RSS (Linux clear_refs "5"), so a later peakRssMiB() is the peak of
/// what ran since. False when the kernel refuses.
bool resetPeakRss()
{
    QFile f(QStringLiteral("/proc/self/clear_refs"));
    return f.open(QIODevice::WriteOnly) && f.write("5") == 1;
}

/// CPU clock of one thread (the simulator's), seconds.
class ThreadCpu
{
public:
    explicit ThreadCpu(pthread_t thread) { m_ok = pthread_getcpuclockid(thread, &m_clock) == 0; }
    [[nodiscard]] double seconds() const
    {
        timespec ts{};
        if (!m_ok || clock_gettime(m_clock, &ts) != 0) {
            return 0;
        }
        return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
    }

private:
    clockid_t m_clock{};
    bool m_ok = false;
};

struct Window
{
    double wall = 0;    ///< s
    double process = 0; ///< process CPU s
    double sim = 0;     ///< simulator thread CPU s
    [[nodiscard]] double strata() const { return process - sim; }
};

/// Runs the event loop for `ms` (the GUI thread of the engine keeps working) and returns the CPU
/// consumed meanwhile.
Window measure(const ThreadCpu &simCpu, int ms)
{
    QElapsedTimer wall;
    const double p0 = processCpuSeconds();
    const double s0 = simCpu.seconds();
    wall.start();
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
    Window w;
    w.wall = double(wall.nsecsElapsed()) / 1e9;
    w.process = processCpuSeconds() - p0;
    w.sim = simCpu.seconds() - s0;
    return w;
}

/// Blocks in an event loop until `done()` holds after a signal of `engine` or its estate.
bool waitUntil(core::Engine &engine, const std::function<bool()> &done, int timeoutMs)
{
    if (done()) {
        return true;
    }
    QEventLoop loop;
    auto check = [&] {
        if (done()) {
            loop.quit();
        }
    };
    QObject::connect(&engine, &core::Engine::sourceStatusChanged, &loop, check);
    QObject::connect(&engine, &core::Engine::allSourcesPolled, &loop, check);
    QObject::connect(&engine.estate(), &core::Estate::computeChanged, &loop, check);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return done();
}

struct ChildRun
{
    bool ok = false;
    QString error;
    double wall = 0;   ///< s
    double cpu = 0;    ///< child user + sys, s
    double maxRss = 0; ///< child peak RSS, MiB
};

/// Runs `argv` with stdout to /dev/null and stderr to `stderrFile`; wall time and the child's
/// rusage (wait4).
ChildRun runChild(const std::vector<std::string> &argv, const std::string &stderrFile)
{
    ChildRun run;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderrFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    std::vector<char *> args;
    for (const std::string &a : argv) {
        args.push_back(const_cast<char *>(a.c_str()));
    }
    args.push_back(nullptr);
    QElapsedTimer wall;
    wall.start();
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        run.error = QStringLiteral("cannot start %1").arg(QString::fromStdString(argv[0]));
        return run;
    }
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid) {
        run.error = QStringLiteral("wait4 failed");
        return run;
    }
    run.wall = double(wall.nsecsElapsed()) / 1e9;
    run.cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    run.maxRss = double(usage.ru_maxrss) / 1024.0;
    run.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!run.ok) {
        QFile err(QString::fromStdString(stderrFile));
        run.error = err.open(QIODevice::ReadOnly) ? QString::fromUtf8(err.readAll()).trimmed()
                                                  : QStringLiteral("exit status %1").arg(status);
    }
    return run;
}

double threadCpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
}

/// Decode cost of what Strata reads from the simulator, on the calling thread's CPU clock:
/// every pod list page (limit 500, as the source lists) through the DOM route (nlohmann +
/// parsePod) and the streaming one, and 2,000 MODIFIED watch events made of the first items.
struct DecodeShare
{
    std::size_t pages = 0;
    double pageMiB = 0;
    double listDom = 0, listStream = 0;   ///< seconds for all pages
    double watchDom = 0, watchStream = 0; ///< seconds per 1,000 events
};

DecodeShare measureDecode(const sim::kube::KubeSimulator &simulator)
{
    DecodeShare share;
    kubernetes::ClusterEndpoint endpoint;
    endpoint.server = simulator.baseUrl().toStdString();
    endpoint.caPem = simulator.caPem().toStdString();
    endpoint.token = simulator.token().toStdString();
    http::CurlTransport transport(kubernetes::transportOptions(endpoint));
    kubernetes::KubeClient client(transport, endpoint);
    std::vector<std::string> bodies;
    kubernetes::ListOptions options;
    options.limit = 500;
    for (;;) {
        const auto request =
            client.authorize(client.resolved(client.listRequest(kubernetes::kPods, options)), http::CancelToken());
        auto response = request ? transport.send(*request, http::CancelToken())
                                : connectors::Result<http::HttpResponse>(connectors::fail(request.error()));
        if (!response || !response->isSuccess()) {
            break;
        }
        bodies.push_back(response->body);
        auto page = kubernetes::KubeClient::listPageFrom(kubernetes::kPods, options, std::move(response));
        if (!page || page->continueToken.empty()) {
            break;
        }
        options.continueToken = page->continueToken;
    }
    share.pages = bodies.size();
    std::size_t pods = 0;
    std::string watch;
    std::size_t events = 0;
    double start = threadCpuSeconds();
    for (const std::string &body : bodies) {
        share.pageMiB += double(body.size()) / 1048576.0;
        auto page =
            kubernetes::KubeClient::listPageFrom(kubernetes::kPods, {}, http::HttpResponse::withStatus(200, body));
        for (const auto &item : page ? page->items : std::vector<nlohmann::json>{}) {
            pods += kubernetes::parsePod(item) ? 1 : 0;
            if (events < 2'000) {
                watch += nlohmann::json{{"type", "MODIFIED"}, {"object", item}}.dump() + "\n";
                ++events;
            }
        }
    }
    share.listDom = threadCpuSeconds() - start;
    kubernetes::ListOptions typed;
    typed.decodePods = true;
    start = threadCpuSeconds();
    for (const std::string &body : bodies) {
        auto page =
            kubernetes::KubeClient::listPageFrom(kubernetes::kPods, typed, http::HttpResponse::withStatus(200, body));
        pods -= page ? page->pods.size() : 0;
    }
    share.listStream = threadCpuSeconds() - start;
    for (const bool decodePods : {false, true}) {
        kubernetes::WatchOptions watchOptions;
        watchOptions.decodePods = decodePods;
        kubernetes::WatchDecoder decoder(kubernetes::kPods, watchOptions);
        std::size_t decoded = 0;
        start = threadCpuSeconds();
        (void)decoder.feed(watch, [&decoded](std::vector<kubernetes::WatchEvent> &batch) {
            for (auto &event : batch) {
                decoded += event.pod || kubernetes::parsePod(event.object) ? 1 : 0;
            }
            return true;
        });
        const double perThousand = events > 0 ? (threadCpuSeconds() - start) / (double(events) / 1000.0) : 0;
        (decodePods ? share.watchStream : share.watchDom) = perThousand;
        if (decoded != events) {
            std::fprintf(stderr, "decode share: %zu of %zu events decoded\n", decoded, events);
        }
    }
    if (pods != 0) {
        std::fprintf(stderr, "decode share: the two routes disagree on the number of pods\n");
    }
    return share;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Kubernetes list + watch + churn benchmark"));
    parser.addHelpOption();
    const QCommandLineOption podsOption(QStringLiteral("pods"),
                                        QStringLiteral("Pods in the simulated cluster."),
                                        QStringLiteral("n"),
                                        QStringLiteral("50000"));
    const QCommandLineOption nodesOption(QStringLiteral("nodes"),
                                         QStringLiteral("GPU nodes (8 GPUs each)."),
                                         QStringLiteral("n"),
                                         QStringLiteral("2000"));
    const QCommandLineOption namespacesOption(QStringLiteral("namespaces"),
                                              QStringLiteral("Project namespaces (one KAI queue each)."),
                                              QStringLiteral("n"),
                                              QStringLiteral("20"));
    const QCommandLineOption churnOption(QStringLiteral("churn"),
                                         QStringLiteral("Pod changes per second during the churn window."),
                                         QStringLiteral("n"),
                                         QStringLiteral("1000"));
    const QCommandLineOption churnSecondsOption(QStringLiteral("churn-seconds"),
                                                QStringLiteral("Length of the churn window (and of each baseline "
                                                               "window), seconds."),
                                                QStringLiteral("s"),
                                                QStringLiteral("10"));
    const QCommandLineOption noKubectlOption(QStringLiteral("no-kubectl"), QStringLiteral("Skip the kubectl side."));
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("Also print the figures as JSON."));
    const QCommandLineOption noDecodeOption(
        QStringLiteral("no-decode-share"),
        QStringLiteral("Skip the decode-share measurement (so that a heap profiler's peak is the engine's)."));
    parser.addOptions({podsOption,
                       nodesOption,
                       namespacesOption,
                       churnOption,
                       churnSecondsOption,
                       noKubectlOption,
                       jsonOption,
                       noDecodeOption});
    parser.process(app);
    const int pods = parser.value(podsOption).toInt();
    const int nodes = parser.value(nodesOption).toInt();
    const int namespaces = parser.value(namespacesOption).toInt();
    const int churn = parser.value(churnOption).toInt();
    const int windowMs = qMax(1, parser.value(churnSecondsOption).toInt()) * 1000;
    QJsonObject out;

    std::printf("strata_kube_bench: %d pods, %d namespaces, %d nodes; churn %d pods/s for %d s; %u cores\n",
                pods,
                namespaces,
                nodes,
                churn,
                windowMs / 1000,
                std::thread::hardware_concurrency());
    out[QStringLiteral("pods")] = pods;
    out[QStringLiteral("namespaces")] = namespaces;
    out[QStringLiteral("nodes")] = nodes;
    out[QStringLiteral("churnPerSecond")] = churn;
    out[QStringLiteral("windowSeconds")] = windowMs / 1000;
    out[QStringLiteral("cores")] = int(std::thread::hardware_concurrency());

    // ---- Simulator ----
    sim::ServerThread thread;
    sim::kube::KubeSimulatorOptions options;
    options.preset = sim::kube::KubeSimulatorOptions::Preset::Scale;
    options.scalePods = pods;
    options.scaleNodes = nodes;
    options.scaleNamespaces = namespaces;
    options.tickInterval = std::chrono::milliseconds(0);
    QElapsedTimer timer;
    timer.start();
    QString error;
    sim::kube::KubeSimulator *simulator = sim::kube::KubeSimulator::startOnThread(thread, options, &error);
    if (!simulator) {
        std::fprintf(stderr, "simulator: %s\n", qPrintable(error));
        return 1;
    }
    pthread_t simThread{};
    thread.runBlocking([&] {
        simThread = pthread_self();
    });
    const ThreadCpu simCpu(simThread);
    const double simBuildS = double(timer.elapsed()) / 1000.0;
    const double simRss = currentRssMiB();
    std::printf("\nSimulator (in process, own thread)\n");
    std::printf("  estate built                          %8.2f s\n", simBuildS);
    std::printf("  RSS with the simulator alone          %8.0f MiB   (ru_maxrss %.0f MiB)\n", simRss, maxRssMiB());
    out[QStringLiteral("simulatorBuildSeconds")] = simBuildS;
    out[QStringLiteral("simulatorRssMiB")] = simRss;

    QTemporaryDir dir;
    const QString caFile = dir.filePath(QStringLiteral("ca.pem"));
    {
        QFile ca(caFile);
        if (!ca.open(QIODevice::WriteOnly)) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(caFile));
            return 1;
        }
        ca.write(simulator->caPem());
    }

    // ---- Baselines without Strata: idle, then the simulator's own churn cost ----
    const Window idle = measure(simCpu, windowMs);
    const std::uint64_t rvBeforeSimChurn = simulator->resourceVersion();
    simulator->setChurn(churn);
    const Window simChurn = measure(simCpu, windowMs);
    simulator->setChurn(0);
    const std::uint64_t simOnlyChanges = simulator->resourceVersion() - rvBeforeSimChurn;
    std::printf("  idle window (no churn, no Strata)     %8.3f s CPU in %.1f s (simulator thread %.3f s)\n",
                idle.process,
                idle.wall,
                idle.sim);
    std::printf("  churn, no watcher (no Strata)         %8.3f s CPU in %.1f s (simulator thread %.3f s), %llu "
                "changes = %.0f/s\n",
                simChurn.process,
                simChurn.wall,
                simChurn.sim,
                static_cast<unsigned long long>(simOnlyChanges),
                double(simOnlyChanges) / simChurn.wall);
    out[QStringLiteral("idleProcessCpuSeconds")] = idle.process;
    out[QStringLiteral("simChurnNoWatcherCpuSeconds")] = simChurn.process;

    // ---- kubectl on the same data ----
    ChildRun kubectl;
    ChildRun kubectlWarm;
    const QString kubectlPath = QStandardPaths::findExecutable(QStringLiteral("kubectl"));
    std::printf("\nkubectl get pods -A -o json > /dev/null\n");
    if (parser.isSet(noKubectlOption)) {
        std::printf("  skipped (--no-kubectl)\n");
    } else if (kubectlPath.isEmpty()) {
        std::printf("  skipped: kubectl is not on PATH\n");
    } else {
        const QString kubeconfig = dir.filePath(QStringLiteral("kubeconfig"));
        QFile f(kubeconfig);
        if (!f.open(QIODevice::WriteOnly)) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(kubeconfig));
            return 1;
        }
        f.write(simulator->kubeconfig());
        f.close();
        // A private discovery cache: the first run is cold (discovery), the second warm.
        const std::vector<std::string> args{kubectlPath.toStdString(),
                                            "--kubeconfig",
                                            kubeconfig.toStdString(),
                                            "--cache-dir",
                                            dir.filePath(QStringLiteral("kubectl-cache")).toStdString(),
                                            "get",
                                            "pods",
                                            "-A",
                                            "-o",
                                            "json"};
        const std::string err = dir.filePath(QStringLiteral("kubectl.err")).toStdString();
        const double s0 = simCpu.seconds();
        kubectl = runChild(args, err);
        const double kubectlSimCpu = simCpu.seconds() - s0;
        if (kubectl.ok) {
            kubectlWarm = runChild(args, err);
        }
        if (!kubectl.ok || !kubectlWarm.ok) {
            std::printf("  failed: %s\n", qPrintable(kubectl.ok ? kubectlWarm.error : kubectl.error));
        } else {
            std::printf("  wall, cold discovery cache            %8.2f s   (kubectl CPU %.2f s, peak RSS %.0f MiB; "
                        "simulator serving it %.2f s CPU)\n",
                        kubectl.wall,
                        kubectl.cpu,
                        kubectl.maxRss,
                        kubectlSimCpu);
            std::printf("  wall, warm discovery cache            %8.2f s   (kubectl CPU %.2f s, peak RSS %.0f MiB)\n",
                        kubectlWarm.wall,
                        kubectlWarm.cpu,
                        kubectlWarm.maxRss);
            out[QStringLiteral("kubectlWallSeconds")] = kubectl.wall;
            out[QStringLiteral("kubectlWarmWallSeconds")] = kubectlWarm.wall;
            out[QStringLiteral("kubectlCpuSeconds")] = kubectl.cpu;
            out[QStringLiteral("kubectlMaxRssMiB")] = std::max(kubectl.maxRss, kubectlWarm.maxRss);
        }
    }

    // ---- Strata: first full view ----
    core::SystemClock clock;
    core::InMemoryCredentialStore credentials;
    credentials.set(core::credentialKey(QString::fromLatin1(kSource)), simulator->token());
    const double rssBeforeEngine = currentRssMiB();
    const double maxRssBeforeEngine = maxRssMiB();
    const bool hwmReset = resetPeakRss();
    core::Engine engine({clock, credentials, nullptr, QStringLiteral("bench")});
    std::size_t jobRecordsChanged = 0;
    QObject::connect(&engine.estate(), &core::Estate::jobsChanged, &engine, [&](const core::JobDiff &diff) {
        jobRecordsChanged += diff.size();
    });
    core::SourceConfig source;
    source.name = QString::fromLatin1(kSource);
    source.kind = core::SourceKind::Kubernetes;
    source.url = simulator->baseUrl();
    source.password =
        core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(QString::fromLatin1(kSource))};
    source.caFile = caFile;
    source.prometheusUrl = simulator->prometheusUrl(); // empty for the Scale preset

    const double p0 = processCpuSeconds();
    const double s0 = simCpu.seconds();
    timer.restart();
    engine.setSources({source});
    if (!waitUntil(
            engine,
            [&] {
                return engine.allPolledOnce();
            },
            600'000)) {
        std::fprintf(stderr, "first full view timed out\n");
        return 1;
    }
    const double firstViewS = double(timer.nsecsElapsed()) / 1e9;
    const double firstViewProcess = processCpuSeconds() - p0;
    const double firstViewSim = simCpu.seconds() - s0;
    const core::SourceStatus status = *engine.status(QString::fromLatin1(kSource));
    if (status.health != core::Health::Ok) {
        std::fprintf(stderr, "source unhealthy: %s\n", qPrintable(status.lastError));
        return 1;
    }
    auto *kube = qobject_cast<core::KubernetesSource *>(engine.source(QString::fromLatin1(kSource)));
    const auto clusters = engine.estate().gpuClusters().all();
    const std::size_t jobs = engine.estate().jobs().all().size();
    const std::size_t gpuNodes = engine.estate().gpuNodes().all().size();
    const std::size_t projects = engine.estate().projects().all().size();
    const double rssFirstView = currentRssMiB();
    const double hwmFirstView = peakRssMiB();
    std::printf("\nStrata: list + watch (KubernetesSource, %s)\n", clusters.empty() ? "no cluster" : "one cluster");
    std::printf("  time to first full view               %8.2f s   (Strata CPU %.2f s; simulator thread %.2f s)\n",
                firstViewS,
                firstViewProcess - firstViewSim,
                firstViewSim);
    if (!clusters.empty()) {
        const core::GpuCluster &c = *clusters.front();
        std::printf("  estate: %zu jobs (bare pods with a GPU limit and a kai.scheduler/queue label count as jobs), "
                    "%zu GPU nodes, %zu projects; %d running, %d pending; GPUs %s/%s allocated\n",
                    jobs,
                    gpuNodes,
                    projects,
                    c.runningJobs,
                    c.pendingJobs,
                    qPrintable(core::formatGpus(c.gpuAllocated)),
                    qPrintable(core::formatGpus(c.gpuTotal)));
    }
    std::printf("  RSS at first view                     %8.0f MiB   (+%.0f MiB over the simulator alone)\n",
                rssFirstView,
                rssFirstView - rssBeforeEngine);
    out[QStringLiteral("firstViewSeconds")] = firstViewS;
    out[QStringLiteral("firstViewStrataCpuSeconds")] = firstViewProcess - firstViewSim;
    out[QStringLiteral("firstViewSimCpuSeconds")] = firstViewSim;
    out[QStringLiteral("estateJobs")] = qint64(jobs);
    out[QStringLiteral("estateGpuNodes")] = qint64(gpuNodes);
    out[QStringLiteral("estateProjects")] = qint64(projects);
    if (kubectl.ok && kubectlWarm.ok) {
        const double best = std::min(kubectl.wall, kubectlWarm.wall);
        std::printf("  ratio first view / kubectl wall       %8.2f     (cold kubectl %.2f, warm %.2f)\n",
                    firstViewS / best,
                    firstViewS / kubectl.wall,
                    firstViewS / kubectlWarm.wall);
        out[QStringLiteral("firstViewOverKubectl")] = firstViewS / best;
    }

    // ---- Strata idle (watches open, no churn), then churn ----
    const Window engineIdle = measure(simCpu, windowMs);
    const int publishesBefore = kube ? kube->publishCount() : 0;
    const std::size_t jobsChangedBefore = jobRecordsChanged;
    const std::uint64_t rvBefore = simulator->resourceVersion();
    simulator->setChurn(churn);
    const Window churnWindow = measure(simCpu, windowMs);
    const std::uint64_t changes = simulator->resourceVersion() - rvBefore;
    const int publishes = (kube ? kube->publishCount() : 0) - publishesBefore;
    const std::size_t jobsChanged = jobRecordsChanged - jobsChangedBefore;

    // End-to-end lag while churn still runs: delete one pod and time until its job leaves the
    // estate (the delete queues behind every churn event already on the watch).
    auto markerLatency = [&](std::size_t index) -> double {
        const auto all = engine.estate().jobs().all();
        if (all.size() <= index) {
            return -1;
        }
        const core::Ptr<core::Job> victim = all[index];
        kubernetes::ClusterEndpoint endpoint;
        endpoint.server = simulator->baseUrl().toStdString();
        endpoint.caPem = simulator->caPem().toStdString();
        endpoint.token = simulator->token().toStdString();
        http::CurlTransport transport(kubernetes::transportOptions(endpoint));
        kubernetes::KubeClient client(transport, endpoint);
        QElapsedTimer lag;
        lag.start();
        const auto removed = client.remove(
            kubernetes::kPods, victim->namespaceName.toStdString(), victim->name.toStdString(), http::CancelToken());
        if (!removed) {
            std::fprintf(stderr, "delete marker pod: %s\n", removed.error().message.c_str());
            return -1;
        }
        const QString key = QString::fromLatin1(kSource) + QLatin1Char('/') + victim->id;
        if (!waitUntil(
                engine,
                [&] {
                    return !engine.estate().jobs().find(QString::fromLatin1(kSource), key);
                },
                120'000)) {
            return -1;
        }
        return double(lag.nsecsElapsed()) / 1e9;
    };
    const double lagChurn = markerLatency(0);
    simulator->setChurn(0);
    const double lagIdle = markerLatency(1);

    const double strataChurn = churnWindow.strata();
    const double strataNet = strataChurn - engineIdle.strata();
    const double perThousand = changes > 0 ? strataNet / (double(changes) / 1000.0) : 0;
    const double windowedStrata = churnWindow.process - simChurn.process;
    const double rssAfterChurn = currentRssMiB();
    const double hwmAfterChurn = peakRssMiB();
    const double maxRssAfter = maxRssMiB();
    const bool ok = jobs == std::size_t(pods) && changes > 0;

    std::printf("\nStrata under churn (%d pods/s requested, %.1f s window)\n", churn, churnWindow.wall);
    std::printf("  changes produced by the simulator     %8llu     = %.0f/s (requested %d/s)\n",
                static_cast<unsigned long long>(changes),
                double(changes) / churnWindow.wall,
                churn);
    std::printf("  Strata publishes in the window        %8d     (coalesced to one per 250 ms; %zu job records "
                "changed: the churn is a kubelet status heartbeat, no job field moves)\n",
                publishes,
                jobsChanged);
    std::printf("  delete -> gone from the estate        %8.3f s under churn, %.3f s idle (end-to-end lag)\n",
                lagChurn,
                lagIdle);
    std::printf("  CPU, idle window with Strata          %8.3f s   (Strata %.3f s, simulator thread %.3f s)\n",
                engineIdle.process,
                engineIdle.strata(),
                engineIdle.sim);
    std::printf("  CPU, churn window with Strata         %8.3f s   (Strata %.3f s, simulator thread %.3f s)\n",
                churnWindow.process,
                strataChurn,
                churnWindow.sim);
    std::printf("  Strata CPU per 1,000 changes          %8.3f s   (thread-clock method, net of Strata's idle "
                "window) = %.1f%% of one core at %.0f changes/s\n",
                perThousand,
                100.0 * strataNet / churnWindow.wall,
                double(changes) / churnWindow.wall);
    std::printf("  Strata CPU per publish                %8.3f s   (each publish rebuilds only the job records its "
                "changes touch)\n",
                publishes > 0 ? strataNet / publishes : 0);
    std::printf("  cross-check, window method            %8.3f s   per 1,000 (churn window minus churn-without-"
                "watcher window; counts the simulator's watch serving as Strata's)\n",
                changes > 0 ? windowedStrata / (double(changes) / 1000.0) : 0);
    std::printf("\nMemory (RSS, MiB)\n");
    std::printf("  simulator alone                       %8.0f\n", simRss);
    std::printf("  before Strata / after churn           %8.0f / %.0f   (ru_maxrss %.0f / %.0f)\n",
                rssBeforeEngine,
                rssAfterChurn,
                maxRssBeforeEngine,
                maxRssAfter);
    if (hwmReset && hwmAfterChurn > 0) {
        std::printf("  Strata peak (VmHWM since engine start %8.0f MiB (first view %.0f) minus RSS before)  %.0f\n",
                    hwmAfterChurn,
                    hwmFirstView,
                    hwmAfterChurn - rssBeforeEngine);
        out[QStringLiteral("strataPeakMiB")] = hwmAfterChurn - rssBeforeEngine;
    } else {
        std::printf("  Strata peak (ru_maxrss delta)         %8.0f\n", maxRssAfter - maxRssBeforeEngine);
        out[QStringLiteral("strataPeakMiB")] = maxRssAfter - maxRssBeforeEngine;
    }
    std::printf("  Strata steady (RSS after churn minus before) %.0f\n", rssAfterChurn - rssBeforeEngine);
    if (kubectl.ok) {
        std::printf("  kubectl peak (child ru_maxrss)        %8.0f\n", std::max(kubectl.maxRss, kubectlWarm.maxRss));
    }

    // ---- Decode share: the pod list pages and watch events Strata decoded, again on this thread ----
    const DecodeShare decode = parser.isSet(noDecodeOption) ? DecodeShare{} : measureDecode(*simulator);
    std::printf("\nDecode share (the same pod pages and 2,000 watch events, decoded again on one thread)\n");
    std::printf("  %zu list pages, %.0f MiB: DOM + parsePod %.2f s, streaming %.2f s = %.0f%% of the first view's "
                "Strata CPU\n",
                decode.pages,
                decode.pageMiB,
                decode.listDom,
                decode.listStream,
                firstViewProcess - firstViewSim > 0 ? 100.0 * decode.listStream / (firstViewProcess - firstViewSim)
                                                    : 0);
    std::printf("  per 1,000 watch events: DOM + parsePod %.4f s, streaming %.4f s = %.0f%% of Strata CPU per 1,000 "
                "changes\n",
                decode.watchDom,
                decode.watchStream,
                perThousand > 0 ? 100.0 * decode.watchStream / perThousand : 0);
    out[QStringLiteral("decodeListDomSeconds")] = decode.listDom;
    out[QStringLiteral("decodeListStreamSeconds")] = decode.listStream;
    out[QStringLiteral("decodeWatchDomPer1000")] = decode.watchDom;
    out[QStringLiteral("decodeWatchStreamPer1000")] = decode.watchStream;

    out[QStringLiteral("changes")] = qint64(changes);
    out[QStringLiteral("changesPerSecond")] = double(changes) / churnWindow.wall;
    out[QStringLiteral("publishes")] = publishes;
    out[QStringLiteral("jobRecordsChanged")] = qint64(jobsChanged);
    out[QStringLiteral("markerLagChurnSeconds")] = lagChurn;
    out[QStringLiteral("markerLagIdleSeconds")] = lagIdle;
    out[QStringLiteral("strataIdleCpuSeconds")] = engineIdle.strata();
    out[QStringLiteral("strataChurnCpuSeconds")] = strataChurn;
    out[QStringLiteral("simChurnCpuSeconds")] = churnWindow.sim;
    out[QStringLiteral("strataCpuPer1000Changes")] = perThousand;
    out[QStringLiteral("strataCpuPerPublish")] = publishes > 0 ? strataNet / publishes : 0;
    out[QStringLiteral("strataCorePercentAtChurn")] = 100.0 * strataNet / churnWindow.wall;
    out[QStringLiteral("windowMethodCpuPer1000Changes")] =
        changes > 0 ? windowedStrata / (double(changes) / 1000.0) : 0;
    out[QStringLiteral("rssBeforeStrataMiB")] = rssBeforeEngine;
    out[QStringLiteral("rssAfterChurnMiB")] = rssAfterChurn;
    out[QStringLiteral("ok")] = ok;
    if (parser.isSet(jsonOption)) {
        std::printf("%s\n", QJsonDocument(out).toJson(QJsonDocument::Compact).constData());
    }
    if (!ok) {
        std::fprintf(stderr,
                     "incomplete: %zu jobs for %d pods, %llu changes\n",
                     jobs,
                     pods,
                     static_cast<unsigned long long>(changes));
    }
    return ok ? 0 : 1;
}
