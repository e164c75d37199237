// Poll + parse + diff benchmark: an in-process ONTAP simulator with N volumes, polled over
// HTTPS by the real connector and model layer, applied to the Volumes table model.
//   strata_bench --volumes 50000 --rounds 3
// Prints wall times per phase and the process's peak RSS. Not a pass/fail test.

#include "connectors/http/curltransport.h"
#include "connectors/ontap/ontapclient.h"
#include "models/core/clock.h"
#include "models/core/credentialstore.h"
#include "models/core/engine.h"
#include "models/item/volumetablemodel.h"
#include "simulators/common/serverthread.h"
#include "simulators/ontap/ontapsimulator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <sys/resource.h>

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
    parser.addOptions({volumesOption, roundsOption});
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

    // 1. Connector alone: paged HTTPS listing + JSON parse into DTOs.
    {
        http::TransportOptions t;
        t.caFile = caFile.toStdString();
        http::CurlTransport transport(t);
        ontap::OntapClientOptions o;
        o.http.baseUrl = simulator->baseUrl().toStdString();
        o.http.basic = http::BasicAuth{options.username.toStdString(), options.password.toStdString()};
        ontap::OntapClient client(transport, o);
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
        }
    }

    // 2. The whole pipeline: engine poll (fetch, parse, convert, diff off the GUI thread),
    //    publish into the estate, item model applies the diff.
    core::SystemClock clock;
    core::InMemoryCredentialStore credentials;
    credentials.set(core::credentialKey(QStringLiteral("bench")), options.password);
    core::Engine engine({clock, credentials, nullptr, QStringLiteral("bench")});
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
    std::printf("  first poll, end to end            %7lld ms  (worker: %lld ms; model apply %lld ms; %d rows)\n",
                timer.elapsed(),
                first.latencyMs,
                applyMs,
                model.rowCount());

    for (int round = 0; round < rounds; ++round) {
        simulator->tick(); // some volumes grow, snapshots rotate: a realistic steady-state diff
        applied = 0;
        applyMs = 0;
        const QDateTime before = engine.status(QStringLiteral("bench"))->lastSuccess;
        timer.restart();
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
        const core::SourceStatus s = *engine.status(QStringLiteral("bench"));
        std::printf(
            "  steady poll %d, end to end         %7lld ms  (worker: %lld ms; model apply %lld ms; diff %d records)\n",
            round + 1,
            timer.elapsed(),
            s.latencyMs,
            applyMs,
            applied);
    }
    std::printf("  RSS: simulator alone %ld MiB, now %ld MiB, peak %ld MiB (simulator and client share the process)\n",
                baseRss,
                currentRssMiB(),
                peakRssMiB());
    return model.rowCount() == simulator->volumeCount() ? 0 : 1;
}
