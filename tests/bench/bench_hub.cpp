// Dataset hub scale benchmark: N datasets x C commits in one bucket of the in-process
// StorageGRID simulator, read over S3 (SigV4) by the real StorageGridSource through the Engine.
// Reports the cold hub poll (lists every dataset's commits and reads every manifest header with
// a ranged GET), a warm poll (lists only: headers are cached by manifest key), the hub summary
// over the published estate, a diff of a dataset's first and last commit, and peak RSS.
//   strata_hub_bench --datasets 200 --commits 25 --objects 20
// Figures for the notes, never a pass/fail timing test.

#include "connectors/dataset/manifest.h"
#include "models/core/domain/clock.h"
#include "models/core/planning/datasethub.h"
#include "models/core/runtime/engine.h"
#include "models/core/sources/storagegrid/storagegridsource.h"
#include "models/core/store/credentialstore.h"
#include "simulators/common/serverthread.h"
#include "simulators/storagegrid/storagegridsimulator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <sys/resource.h>

using namespace strata;

namespace {

long peakRssKb()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

/// Writes `commits` chained manifests of `objects` entries for each dataset straight into the
/// simulator's store (the objects themselves need not exist to list commits).
int seed(sim::storagegrid::S3Store &store, int datasets, int commits, int objects)
{
    int written = 0;
    for (int d = 0; d < datasets; ++d) {
        const std::string name = "ds" + std::to_string(1000 + d);
        const std::string prefix = name + "/";
        std::string parent;
        for (int c = 0; c < commits; ++c) {
            dataset::Manifest m;
            m.header.dataset = name;
            m.header.bucket = "hub";
            m.header.prefix = prefix;
            m.header.parent = parent;
            m.header.author = "bench";
            m.header.message = "revision " + std::to_string(c + 1);
            m.header.time = dataset::isoUtcSeconds(1780000000 + std::int64_t(d) * 100000 + c * 60);
            for (int o = 0; o < objects; ++o) {
                // Each revision rewrites one object and adds one.
                const int version = o == c % objects ? c : 0;
                m.entries.push_back(dataset::ManifestEntry{prefix + "part-" + std::to_string(10000 + o) + ".csv",
                                                           1000000 + o * 10 + version,
                                                           std::string(31, 'a') + char('a' + version % 26),
                                                           ""});
            }
            m.entries.push_back(dataset::ManifestEntry{
                prefix + "extra-" + std::to_string(10000 + c) + ".csv", 5000, std::string(32, 'e'), ""});
            if (c > 0) {
                for (int k = 0; k < c; ++k) {
                    m.entries.push_back(dataset::ManifestEntry{
                        prefix + "extra-" + std::to_string(10000 + k) + ".csv", 5000, std::string(32, 'e'), ""});
                }
            }
            const std::string bytes = dataset::serializeManifest(m);
            const std::string id = dataset::commitId(bytes);
            store.putObject("hub", dataset::manifestKey(prefix, id), bytes, "application/x-ndjson");
            parent = id;
            ++written;
        }
    }
    return written;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({QStringLiteral("datasets"),
                      QStringLiteral("Datasets in the bucket."),
                      QStringLiteral("n"),
                      QStringLiteral("200")});
    parser.addOption(
        {QStringLiteral("commits"), QStringLiteral("Commits per dataset."), QStringLiteral("n"), QStringLiteral("25")});
    parser.addOption({QStringLiteral("objects"),
                      QStringLiteral("Objects per manifest."),
                      QStringLiteral("n"),
                      QStringLiteral("20")});
    parser.process(app);
    const int datasets = parser.value(QStringLiteral("datasets")).toInt();
    const int commits = parser.value(QStringLiteral("commits")).toInt();
    const int objects = parser.value(QStringLiteral("objects")).toInt();
    if (datasets < 1 || commits < 2 || objects < 1) {
        std::fprintf(stderr, "--datasets >= 1, --commits >= 2, --objects >= 1\n");
        return 2;
    }

    sim::ServerThread thread;
    QString error;
    auto *simulator = sim::storagegrid::StorageGridSimulator::startOnThread(thread, {}, &error);
    if (!simulator) {
        std::fprintf(stderr, "simulator: %s\n", qPrintable(error));
        return 1;
    }
    std::string owner;
    for (const auto &t : simulator->tenants()) {
        if (t.name == QLatin1String("data-science")) {
            owner = t.id.toStdString();
        }
    }
    if (simulator->store().createBucket("hub", owner) != sim::storagegrid::StoreError::None) {
        std::fprintf(stderr, "cannot create bucket hub\n");
        return 1;
    }
    QElapsedTimer timer;
    timer.start();
    const int written = seed(simulator->store(), datasets, commits, objects);
    std::printf("seeded %d manifests in %lld ms\n", written, timer.elapsed());

    QTemporaryDir dir;
    const QString caFile = dir.filePath(QStringLiteral("ca.pem"));
    QFile f(caFile);
    if (!f.open(QIODevice::WriteOnly)) {
        return 1;
    }
    f.write(simulator->caPem());
    f.close();
    core::InMemoryCredentialStore credentials;
    credentials.set(core::credentialKey(QStringLiteral("hub")), simulator->options().rootPassword);
    credentials.set(core::credentialKey(QStringLiteral("hub"), QStringLiteral("s3_secret")),
                    simulator->options().s3SecretKey);
    core::SystemClock clock;
    core::Engine engine(core::Engine::Deps{clock, credentials, nullptr, QStringLiteral("bench")});
    core::SourceConfig c;
    c.name = QStringLiteral("hub");
    c.kind = core::SourceKind::StorageGrid;
    c.url = simulator->managementUrl();
    c.username = QStringLiteral("root");
    c.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(QStringLiteral("hub"))};
    c.caFile = caFile;
    c.s3Url = simulator->s3Url();
    c.s3AccessKey = simulator->options().s3AccessKey;
    c.s3Secret = core::SecretRef{core::SecretRef::Kind::Keychain,
                                 core::credentialKey(QStringLiteral("hub"), QStringLiteral("s3_secret"))};
    c.datasetRoots = {QStringLiteral("hub/*")};
    c.configIntervalSeconds = 3600;

    const long rssBefore = peakRssKb();
    timer.restart();
    engine.setSources({c});
    if (!QTest::qWaitFor(
            [&] {
                return engine.allPolledOnce();
            },
            600000)) {
        std::fprintf(stderr, "first poll did not finish\n");
        return 1;
    }
    const qint64 coldMs = timer.elapsed();
    const auto published = engine.estate().commits().all(QStringLiteral("hub"));
    const auto status = *engine.status(QStringLiteral("hub"));
    if (int(published.size()) != written || status.health != core::Health::Ok) {
        std::fprintf(stderr,
                     "hub shows %zu of %d commits (%s: %s)\n",
                     published.size(),
                     written,
                     qPrintable(core::healthName(status.health)),
                     qPrintable(status.lastError));
        return 1;
    }
    std::printf("cold hub poll: %d datasets, %zu commits in %lld ms (grid poll in parallel)\n",
                datasets,
                published.size(),
                coldMs);

    // Warm: both pollers report; the hub's answer is the one that lists only.
    int polled = 0;
    QObject::connect(engine.source(QStringLiteral("hub")), &core::Source::inventoryPolled, [&polled] {
        ++polled;
    });
    timer.restart();
    engine.refresh(QStringLiteral("hub"));
    (void)QTest::qWaitFor(
        [&] {
            return polled >= 2;
        },
        600000);
    std::printf("warm hub poll (headers cached): %lld ms\n", timer.elapsed());

    timer.restart();
    core::HubSummary summary;
    constexpr int kRounds = 20;
    for (int i = 0; i < kRounds; ++i) {
        summary = core::summarize(engine.estate());
    }
    std::printf("summarize: %.2f ms per call; %s\n",
                double(timer.nsecsElapsed()) / 1e6 / kRounds,
                qPrintable(summary.headerText()));

    const auto first = engine.estate().datasets().all(QStringLiteral("hub")).front();
    QString firstCommit;
    for (const auto &commit : published) {
        if (commit->datasetId == first->id && commit->parent.isEmpty()) {
            firstCommit = commit->id;
        }
    }
    auto *grid = qobject_cast<core::StorageGridSource *>(engine.source(QStringLiteral("hub")));
    bool done = false;
    core::CommitComparison diff;
    QString diffError;
    timer.restart();
    grid->diffCommits(first->id, firstCommit, first->headCommit, &app, [&](core::CommitComparison d, QString e) {
        diff = std::move(d);
        diffError = e;
        done = true;
    });
    (void)QTest::qWaitFor(
        [&] {
            return done;
        },
        60000);
    std::printf("diff first..head of %s: %lld ms, +%lld -%lld ~%lld objects%s%s\n",
                qPrintable(first->name),
                timer.elapsed(),
                qlonglong(diff.added.size()),
                qlonglong(diff.removed.size()),
                qlonglong(diff.changed.size()),
                diffError.isEmpty() ? "" : " error: ",
                qPrintable(diffError));
    std::printf("peak RSS: %ld MB (before the engine: %ld MB)\n", peakRssKb() / 1024, rssBefore / 1024);
    return diffError.isEmpty() ? 0 : 1;
}
