// strata-server: the headless entry point. Today it carries the CLI verbs (with secrets from
// the environment or mounted files instead of a desktop keychain) and a self-test used by CI
// and by packagers to prove a host can run Strata without a display.

#include "app/cli/cli.h"
#include "app/cli/demo.h"
#include "models/core/clock.h"
#include "models/core/credentialstore.h"
#include "models/core/engine.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTextStream>
#include <QTimer>

#include <cstdio>

namespace {

/// Starts the demo estate, polls it through the real engine, and checks that volumes (ONTAP), GPU
/// nodes and jobs (Kubernetes), ANF volumes, capacity pools and AKS clusters (Azure), and grid
/// health, tenants and datasets (StorageGRID) arrive.
int selfTest(QTextStream &out, QTextStream &err)
{
    using namespace strata;
    QString error;
    auto demo = cli::DemoEstate::start({}, &error);
    if (!demo) {
        err << "strata-server: self-test: " << error << '\n';
        return 1;
    }
    core::SystemClock clock;
    core::Engine engine({clock, demo->credentials(), nullptr, QStringLiteral("self-test")});
    engine.setCacheTargets(demo->config().cacheTargets);
    engine.setSources(demo->config().sources);
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    QObject::connect(&engine, &core::Engine::allSourcesPolled, &loop, &QEventLoop::quit);
    deadline.start(60'000);
    if (!engine.allPolledOnce()) {
        loop.exec();
    }
    int failures = 0;
    for (const core::SourceStatus &s : engine.statuses()) {
        // Each kind must deliver what its pages show: volumes from ONTAP, GPU nodes and jobs from
        // a Kubernetes cluster.
        bool ok = s.health == core::Health::Ok;
        QString detail;
        if (s.kind == core::SourceKind::Kubernetes) {
            const auto nodes = engine.estate().gpuNodes().scope(s.name);
            const auto jobs = engine.estate().jobs().scope(s.name);
            const std::size_t nodeCount = nodes ? nodes->size() : 0;
            const std::size_t jobCount = jobs ? jobs->size() : 0;
            const auto targets = engine.estate().cacheTargets().scope(s.name);
            const auto cached = engine.estate().cachedCommits().scope(s.name);
            const std::size_t targetCount = targets ? targets->size() : 0;
            const std::size_t cachedCount = cached ? cached->size() : 0;
            ok = ok && nodeCount > 0 && jobCount > 0;
            detail = QStringLiteral("%1 GPU nodes, %2 jobs, %3 cache targets with %4 cached commits, Kubernetes %5")
                         .arg(nodeCount)
                         .arg(jobCount)
                         .arg(targetCount)
                         .arg(cachedCount)
                         .arg(s.systemVersion);
        } else if (s.kind == core::SourceKind::Azure) {
            const auto volumes = engine.estate().volumes().scope(s.name);
            const auto pools = engine.estate().capacityPools().scope(s.name);
            const auto aks = engine.estate().aksClusters().scope(s.name);
            const std::size_t volumeCount = volumes ? volumes->size() : 0;
            const std::size_t poolCount = pools ? pools->size() : 0;
            const std::size_t aksCount = aks ? aks->size() : 0;
            ok = ok && volumeCount > 0 && poolCount > 0 && aksCount > 0;
            detail = QStringLiteral("%1 ANF volumes in %2 capacity pools, %3 AKS clusters")
                         .arg(volumeCount)
                         .arg(poolCount)
                         .arg(aksCount);
        } else if (s.kind == core::SourceKind::StorageGrid) {
            // The grid pages need the summary and tenants; the hub needs datasets when S3 is set.
            const auto grids = engine.estate().gridSummaries().scope(s.name);
            const auto tenants = engine.estate().tenants().scope(s.name);
            const auto datasets = engine.estate().datasets().scope(s.name);
            const auto commits = engine.estate().commits().scope(s.name);
            const core::SourceConfig *config = nullptr;
            for (const core::SourceConfig &c : demo->config().sources) {
                config = c.name == s.name ? &c : config;
            }
            const bool hub = config && !config->s3Url.isEmpty();
            const std::size_t tenantCount = tenants ? tenants->size() : 0;
            const std::size_t datasetCount = datasets ? datasets->size() : 0;
            ok = ok && grids && grids->size() == 1 && tenantCount > 0 && (!hub || datasetCount > 0);
            detail = QStringLiteral("grid %1, %2 tenants, %3 datasets, %4 commits, %5")
                         .arg(grids && grids->size() == 1 ? grids->items().front()->gridName : QStringLiteral("?"))
                         .arg(tenantCount)
                         .arg(datasetCount)
                         .arg(commits ? commits->size() : 0)
                         .arg(s.systemVersion);
        } else {
            const auto volumes = engine.estate().volumes().scope(s.name);
            const std::size_t count = volumes ? volumes->size() : 0;
            ok = ok && count > 0;
            detail = QStringLiteral("%1 volumes, ONTAP %2").arg(count).arg(s.systemVersion);
        }
        out << (ok ? "ok   " : "FAIL ") << s.name << ": " << core::healthName(s.health) << ", " << detail;
        if (!s.lastError.isEmpty()) {
            out << " (" << s.lastError << ')';
        }
        out << '\n';
        failures += ok ? 0 : 1;
    }
    out.flush();
    return failures == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("strata-server"));
    QCoreApplication::setOrganizationName(QStringLiteral("Strata"));
    QCoreApplication::setApplicationVersion(QStringLiteral(STRATA_VERSION));

    QTextStream out(stdout);
    QTextStream err(stderr);
    QStringList arguments = QCoreApplication::arguments().mid(1);
    if (arguments.contains(QStringLiteral("--self-test"))) {
        return selfTest(out, err);
    }
    if (!strata::cli::isCommand(arguments)) {
        err << "usage: strata-server [--config PATH | --demo] get sources|volumes|snapshots [--source NAME] "
               "[--volume NAME] [-o table|json|csv]\n"
               "       strata-server --self-test\n"
               "Secrets come from STRATA_SECRET_<SOURCE>_PASSWORD or $STRATA_SECRETS_DIR/<source>/password.\n";
        return 2;
    }
    strata::core::EnvFileCredentialStore credentials;
    const QString user = qEnvironmentVariable("USER", QStringLiteral("strata-server"));
    const int code = strata::cli::run(arguments, QStringLiteral("strata-server"), credentials, user, out, err);
    out.flush();
    err.flush();
    return code;
}
