// Poll + parse + diff benchmark: an in-process ONTAP simulator with N volumes, polled over
// HTTPS by the real connector and model layer, applied to the Volumes table model.
//   strata_bench --volumes 50000 --rounds 3
// Prints wall times per phase and the process's peak RSS. Not a pass/fail test.

#include "connectors/http/curltransport.h"
#include "connectors/http/jsonparse.h"
#include "connectors/ontap/ontapclient.h"
#include "connectors/ontap/volumestream.h"
#include "models/core/domain/clock.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/historyservice.h"
#include "models/core/store/credentialstore.h"
#include "models/core/store/historystore.h"
#include "models/item/volumetablemodel.h"
#include "simulators/common/serverthread.h"
#include "simulators/ontap/ontapsimulator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace strata;

namespace {

long peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024;
}

long currentRssMiB()
{
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly)) {
        return -1;
    }
    const QList<QByteArray> parts = f.readAll().split(' ');
    return parts.size() > 1 ? parts[1].toLong() * 4096 / (1024 * 1024) : -1;
}

/// Heap bytes in use (allocated, not freed) in MiB: unlike RSS, blind to freed memory malloc keeps.
double heapInUseMiB()
{
    const struct mallinfo2 info = mallinfo2();
    return double(info.uordblks + info.hblkhd) / (1024.0 * 1024.0);
}

/// Blocks in an event loop (no busy waiting: the machine has two cores to share with the
/// worker and the simulator) until `done()` holds after one of the engine's signals.
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
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return done();
}

/// CPU seconds (user + system) of the whole process, threads that have ended included.
double processCpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
           + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/// CPU seconds (utime + stime) of the live threads by name (/proc/self/task/<tid>/comm and stat).
std::map<QByteArray, double> threadCpuByName()
{
    std::map<QByteArray, double> seconds;
    const long ticks = sysconf(_SC_CLK_TCK);
    for (const QString &tid : QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile comm(QStringLiteral("/proc/self/task/%1/comm").arg(tid));
        QFile stat(QStringLiteral("/proc/self/task/%1/stat").arg(tid));
        if (!comm.open(QIODevice::ReadOnly) || !stat.open(QIODevice::ReadOnly)) {
            continue;
        }
        // The fields after the command name, which ends at the last ')': state is field 3, utime 14.
        const QByteArray text = stat.readAll();
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 12) {
            seconds[comm.readAll().trimmed()] +=
                double(fields[11].toLongLong() + fields[12].toLongLong()) / double(ticks);
        }
    }
    return seconds;
}

/// CPU used since construction, split by thread: the in-process simulator ("strata-sim") apart
/// from the client (main thread, the engine's pool threads, the history thread).
struct ClientCpu
{
    double process = processCpuSeconds();
    std::map<QByteArray, double> threads = threadCpuByName();

    [[nodiscard]] double since(const std::map<QByteArray, double> &now, const char *name) const
    {
        const auto it = threads.find(name);
        const auto nowIt = now.find(name);
        return (nowIt == now.end() ? 0 : nowIt->second) - (it == threads.end() ? 0 : it->second);
    }
    /// "CPU 0.57 s (main 0.10, pool 0.25, history 0.20; simulator 0.36 s)"
    [[nodiscard]] std::string describe() const
    {
        const auto now = threadCpuByName();
        const double simulator = since(now, "strata-sim");
        char text[200];
        std::snprintf(text,
                      sizeof text,
                      "CPU %.2f s (main %.2f, pool %.2f, history %.2f; simulator %.2f s)",
                      processCpuSeconds() - process - simulator,
                      since(now, qPrintable(QFileInfo(QCoreApplication::applicationFilePath()).fileName().left(15))),
                      since(now, "Thread (pooled)"),
                      since(now, "strata-history"),
                      simulator);
        return text;
    }
};

/// Keeps every response body the connector reads, so the decoders can be timed on the same text.
class RecordingTransport : public http::IHttpTransport
{
public:
    explicit RecordingTransport(http::IHttpTransport &inner)
        : m_inner(inner)
    {}
    connectors::Result<http::HttpResponse> send(const http::HttpRequest &request,
                                                const http::CancelToken &cancel) override
    {
        auto response = m_inner.send(request, cancel);
        if (response && recording) {
            bodies.push_back(response->body);
        }
        return response;
    }
    bool recording = true;
    std::vector<std::string> bodies;

private:
    http::IHttpTransport &m_inner;
};

/// nlohmann's SAX interface with a handler that does nothing: what any SAX decoder costs at least.
struct NullSaxHandler
{
    bool null() { return true; }
    bool boolean(bool) { return true; }
    bool number_integer(nlohmann::json::number_integer_t) { return true; }
    bool number_unsigned(nlohmann::json::number_unsigned_t) { return true; }
    bool number_float(nlohmann::json::number_float_t, const std::string &) { return true; }
    bool string(std::string &) { return true; }
    bool binary(nlohmann::json::binary_t &) { return true; }
    bool start_object(std::size_t) { return true; }
    bool key(std::string &) { return true; }
    bool end_object() { return true; }
    bool start_array(std::size_t) { return true; }
    bool end_array() { return true; }
    bool parse_error(std::size_t, const std::string &, const nlohmann::json::exception &) { return false; }
};

/// This thread's CPU time in milliseconds: on a shared machine wall time mostly measures the others.
double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

/// Median of three runs of `run`, in CPU milliseconds of the calling thread.
template <class Run> double medianMs(Run run)
{
    std::vector<double> ms;
    for (int i = 0; i < 3; ++i) {
        const double start = threadCpuMs();
        run();
        ms.push_back(threadCpuMs() - start);
    }
    std::sort(ms.begin(), ms.end());
    return ms[1];
}

/// The three ways to decode the volume pages, timed on the same bodies (measure both
/// DOM-free decoders, keep the faster).
void compareDecoders(std::vector<std::string> pages)
{
    std::size_t bytes = 0;
    for (const auto &page : pages) {
        bytes += page.size();
    }
    std::size_t records = 0;
    const double dom = medianMs([&] {
        records = 0;
        for (const auto &page : pages) {
            const nlohmann::json body = http::parseJsonBounded(page);
            records += body.at("records").get<std::vector<ontap::Volume>>().size();
        }
    });
    const double sax = medianMs([&] {
        for (const auto &page : pages) {
            NullSaxHandler handler;
            nlohmann::json::sax_parse(page, &handler);
        }
    });
    std::size_t streamed = 0;
    const double onDemand = medianMs([&] {
        ontap::VolumePageDecoder decoder;
        std::vector<ontap::Volume> out;
        std::string next;
        for (auto &page : pages) {
            decoder.decode(page, out, next);
        }
        streamed = out.size();
    });
    std::printf("  decode %zu pages, %.1f MB, %zu volumes (CPU ms, median of 3):\n",
                pages.size(),
                double(bytes) / 1e6,
                records);
    std::printf("    nlohmann DOM + from_json (before)        %7.1f ms\n", dom);
    std::printf("    nlohmann SAX, handler does nothing       %7.1f ms  (the floor of any SAX decoder)\n", sax);
    std::printf("    simdjson On-Demand into Volume records   %7.1f ms  (%zu volumes)\n", onDemand, streamed);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption volumesOption(QStringLiteral("volumes"),
                                           QStringLiteral("Volumes in the simulated cluster."),
                                           QStringLiteral("n"),
                                           QStringLiteral("50000"));
    const QCommandLineOption roundsOption(QStringLiteral("rounds"),
                                          QStringLiteral("Steady-state polls after the first."),
                                          QStringLiteral("n"),
                                          QStringLiteral("3"));
    const QCommandLineOption compareOption(
        QStringLiteral("compare-decoders"),
        QStringLiteral("Also time the volume pages through nlohmann's DOM, its SAX parser and simdjson On-Demand."));
    const QCommandLineOption storeOption(
        QStringLiteral("store"),
        QStringLiteral("History store: a PostgreSQL URL (an empty database; password in the URL or PGPASSWORD) "
                       "instead of a SQLite file in a temporary directory."),
        QStringLiteral("url"));
    parser.addOptions({volumesOption, roundsOption, compareOption, storeOption});
    parser.process(app);
    const int volumes = parser.value(volumesOption).toInt();
    const int rounds = parser.value(roundsOption).toInt();

    std::printf("strata_bench: poll + parse + diff, %d volumes, %d steady rounds\n", volumes, rounds);
    sim::ServerThread thread;
    sim::ontap::OntapSimulatorOptions options;
    options.preset = sim::ontap::OntapSimulatorOptions::Preset::Generated;
    options.volumeCount = volumes;
    options.tickInterval = std::chrono::milliseconds(0);
    QElapsedTimer timer;
    timer.start();
    QString error;
    sim::ontap::OntapSimulator *simulator = sim::ontap::OntapSimulator::startOnThread(thread, options, &error);
    if (!simulator) {
        std::fprintf(stderr, "simulator: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("  simulator estate built            %7lld ms\n", timer.elapsed());
    QTemporaryDir dir;
    const QString caFile = dir.filePath(QStringLiteral("ca.pem"));
    QFile ca(caFile);
    ca.open(QIODevice::WriteOnly);
    ca.write(simulator->certificatePem());
    ca.close();
    const long baseRss = currentRssMiB();
    const double baseHeap = heapInUseMiB();

    // 1. Connector alone: paged HTTPS listing + JSON parse into DTOs.
    {
        http::TransportOptions t;
        t.caFile = caFile.toStdString();
        http::CurlTransport transport(t);
        ontap::OntapClientOptions o;
        o.http.baseUrl = simulator->baseUrl().toStdString();
        o.http.basic = http::BasicAuth{options.username.toStdString(), options.password.toStdString()};
        RecordingTransport recording(transport);
        ontap::OntapClient client(recording, o);
        for (int i = 0; i < 2; ++i) {
            timer.restart();
            auto list = client.listVolumes(false);
            if (!list) {
                std::fprintf(stderr, "listVolumes: %s\n", list.error().message.c_str());
                return 1;
            }
            std::printf("  connector listVolumes (%zu)     %7lld ms%s\n",
                        list->size(),
                        timer.elapsed(),
                        i == 0 ? " (cold)" : "");
            recording.recording = false; // the first listing's pages are enough
            if (!parser.isSet(compareOption)) {
                recording.bodies.clear();
            }
        }
        if (parser.isSet(compareOption)) {
            compareDecoders(std::move(recording.bodies));
        }
    }

    // 2. The whole pipeline: engine poll (fetch, parse, convert, diff off the GUI thread),
    //    publish into the estate, item model applies the diff.
    core::SystemClock clock;
    core::InMemoryCredentialStore credentials;
    credentials.set(core::credentialKey(QStringLiteral("bench")), options.password);
    // History as the desktop and strata-server keep it: SQLite in a file, written on its thread.
    core::HistoryService history(std::make_unique<core::SqlHistoryStore>(
        parser.isSet(storeOption) ? parser.value(storeOption) : dir.filePath(QStringLiteral("history.db")), clock));
    if (!history.openError().isEmpty()) {
        std::fprintf(stderr, "strata_bench: %s\n", qPrintable(history.openError()));
        return 1;
    }
    std::printf("  history store: %s\n",
                parser.isSet(storeOption)
                    ? qPrintable(core::SqlHistoryStore::displayLocation(parser.value(storeOption)))
                    : "SQLite (WAL) in a temporary directory");
    // Every poll records 50,000 usage samples on the history thread; a query queued behind them
    // answers once they are written, so each poll's figures include that work.
    const auto historyDrainedMs = [&] {
        QElapsedTimer drain;
        drain.start();
        QEventLoop loop;
        const QDateTime now = clock.now();
        history.volumeUsage(QStringLiteral("bench"), QStringLiteral("none"), now, now, &loop, [&](auto) {
            loop.quit();
        });
        loop.exec();
        return drain.elapsed();
    };
    core::Engine engine({clock, credentials, &history, QStringLiteral("bench")});
    // Slots run in connection order: start a timer before the model's slot, read it after.
    QElapsedTimer applyTimer;
    qint64 applyMs = 0;
    int applied = 0;
    QObject::connect(&engine.estate(), &core::Estate::volumesChanged, &engine, [&] {
        applyTimer.start();
    });
    models::VolumeTableModel model(engine.estate());
    QObject::connect(&engine.estate(), &core::Estate::volumesChanged, &model, [&](const core::VolumeDiff &diff) {
        applyMs = applyTimer.elapsed();
        applied = int(diff.size());
    });

    core::SourceConfig source;
    source.name = QStringLiteral("bench");
    source.url = simulator->baseUrl();
    source.username = options.username;
    source.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(QStringLiteral("bench"))};
    source.caFile = caFile;
    source.configIntervalSeconds = 3600;
    timer.restart();
    ClientCpu firstCpu;
    engine.setSources({source});
    if (!waitUntil(
            engine,
            [&] {
                return engine.allPolledOnce();
            },
            300'000)) {
        std::fprintf(stderr, "first poll timed out\n");
        return 1;
    }
    const core::SourceStatus first = *engine.status(QStringLiteral("bench"));
    if (first.health != core::Health::Ok) {
        std::fprintf(stderr, "poll failed: %s\n", qPrintable(first.lastError));
        return 1;
    }
    const qint64 firstDrainMs = historyDrainedMs();
    std::printf("  first poll, end to end            %7lld ms  %s  (worker: %lld ms; model "
                "apply %lld ms; history written %lld ms later; %d rows)\n",
                timer.elapsed(),
                firstCpu.describe().c_str(),
                first.latencyMs,
                applyMs,
                firstDrainMs,
                model.rowCount());

    for (int round = 0; round < rounds; ++round) {
        simulator->tick(); // some volumes grow, snapshots rotate: a realistic steady-state diff
        applied = 0;
        applyMs = 0;
        const QDateTime before = engine.status(QStringLiteral("bench"))->lastSuccess;
        timer.restart();
        ClientCpu cpu;
        engine.refresh();
        if (!waitUntil(
                engine,
                [&] {
                    return engine.status(QStringLiteral("bench"))->lastSuccess != before;
                },
                300'000)) {
            std::fprintf(stderr, "poll %d timed out\n", round + 2);
            return 1;
        }
        const qint64 drainMs = historyDrainedMs();
        const core::SourceStatus s = *engine.status(QStringLiteral("bench"));
        std::printf("  steady poll %d, end to end         %7lld ms  %s  (worker: %lld ms; model "
                    "apply %lld ms; history written %lld ms later; diff %d records)\n",
                    round + 1,
                    timer.elapsed(),
                    cpu.describe().c_str(),
                    s.latencyMs,
                    applyMs,
                    drainMs,
                    applied);
    }
    std::printf("  RSS: simulator alone %ld MiB, now %ld MiB, peak %ld MiB (simulator and client share the process)\n",
                baseRss,
                currentRssMiB(),
                peakRssMiB());
    malloc_trim(0);
    std::printf("  RSS after malloc_trim(0): %ld MiB (the rest of \"now\" was freed memory malloc kept)\n",
                currentRssMiB());
    std::printf("  heap in use: simulator alone %.0f MiB, now %.0f MiB: %.0f MiB more (estate, table model, history)\n",
                baseHeap,
                heapInUseMiB(),
                heapInUseMiB() - baseHeap);
    return model.rowCount() == simulator->volumeCount() ? 0 : 1;
}
