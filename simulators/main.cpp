// strata-sim: runs a protocol-faithful simulator until SIGINT/SIGTERM.
//   strata-sim ontap [--port N] [--host 127.0.0.1] [--volumes N | --demo] [--username admin]
//                    [--password-file F | --password P] [--cert-out ca.pem]
//                    [--tls-cert F --tls-key F] [--page-cap N]
//   strata-sim kubernetes [--port N] [--preset dgx|scale|aks|empty] [--token T] [--cert-out ca.pem]
//                         [--kubeconfig-out FILE] [--prometheus-port N] [--tick-ms MS] [--speed N]
//                         [--pods N --nodes N --namespaces N]
//   strata-sim azure [--port N] [--preset ailab|scale|empty] [--volumes N] [--cert-out ca.pem]
//                    [--client-secret S] [--lro-ms MS] [--page-size N] [--kubeconfig-file F]
//   strata-sim storagegrid [--port N] [--s3-port N] [--s3-tls] [--preset datalake|empty]
//                          [--password P] [--token-ttl S] [--cert-out ca.pem] [--tls-cert F --tls-key F]

#include "simulators/azure/azuresimulator.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "simulators/ontap/ontapsimulator.h"
#include "simulators/storagegrid/storagegridsimulator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QSocketNotifier>
#include <QTextStream>

#include <csignal>
#include <sys/socket.h>
#include <unistd.h>

namespace {

int g_signalPipe[2] = {-1, -1};

void onSignal(int)
{
    const char byte = 1;
    if (::write(g_signalPipe[1], &byte, 1) < 0) {
        // Nothing useful can be done inside a signal handler.
    }
}

// Translation context for lupdate: Cli::tr("...").
struct Cli
{
    Q_DECLARE_TR_FUNCTIONS(Cli)
};

QString randomPassword()
{
    static const char alphabet[] = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    QString out;
    for (int i = 0; i < 16; ++i) {
        out += QLatin1Char(alphabet[QRandomGenerator::system()->bounded(int(sizeof alphabet) - 1)]);
    }
    return out;
}

int fail(const QString &message)
{
    QTextStream(stderr) << QStringLiteral("strata-sim: ") << message << Qt::endl;
    return 1;
}

bool installSignalHandlers()
{
    // Signals reach the event loop through a socket pair: Qt is not async-signal-safe.
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalPipe) != 0) {
        return false;
    }
    auto *notifier = new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read, QCoreApplication::instance());
    QObject::connect(notifier, &QSocketNotifier::activated, QCoreApplication::instance(), [] {
        char byte = 0;
        if (::read(g_signalPipe[0], &byte, 1) >= 0) {
            QCoreApplication::quit();
        }
    });
    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    return true;
}

bool writeFile(const QString &path, const QByteArray &data, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(data) < 0) {
        *error = file.errorString();
        return false;
    }
    return true;
}

// The options every system reads alike. Each reader answers the message to fail with, or an
// empty string when the option is fine.

/// The whole number in option `name`; `ok` says whether it is one within [min, max].
qint64 numberOption(const QCommandLineParser &parser, const QString &name, qint64 min, qint64 max, bool *ok)
{
    const qint64 value = parser.value(name).toLongLong(ok);
    *ok = *ok && value >= min && value <= max;
    return value;
}

QString readPortOption(const QCommandLineParser &parser, const QString &name, quint16 *port)
{
    bool ok = true;
    *port = quint16(numberOption(parser, name, 0, 65535, &ok));
    return ok ? QString() : Cli::tr("--%1 must be between 0 and 65535.").arg(name);
}

QString readHostOption(const QCommandLineParser &parser, QHostAddress *address)
{
    const QString host = parser.value(QStringLiteral("host"));
    *address = host == QLatin1String("localhost") ? QHostAddress(QHostAddress::LocalHost) : QHostAddress(host);
    return address->isNull() ? Cli::tr("--host must be an IP address.") : QString();
}

template <class Seed> QString readSeedOption(const QCommandLineParser &parser, Seed *seed)
{
    bool ok = true;
    *seed = Seed(numberOption(parser, QStringLiteral("seed"), 0, std::numeric_limits<qint64>::max(), &ok));
    return ok ? QString() : Cli::tr("--seed must be a non-negative number.");
}

/// --tls-cert and --tls-key: the identity to serve instead of a generated one (left as is when
/// neither is given).
QString readTlsOptions(const QCommandLineParser &parser, strata::sim::TlsIdentity *tls)
{
    if (parser.isSet(QStringLiteral("tls-cert")) != parser.isSet(QStringLiteral("tls-key"))) {
        return Cli::tr("--tls-cert and --tls-key go together.");
    }
    if (parser.isSet(QStringLiteral("tls-cert"))) {
        *tls = strata::sim::TlsIdentity::load(parser.value(QStringLiteral("tls-cert")),
                                              parser.value(QStringLiteral("tls-key")));
        if (tls->isNull()) {
            return Cli::tr("cannot read the TLS certificate or key.");
        }
    }
    return {};
}

/// --verbose: log every request of the simulator whose logging category is `category`.
void applyVerboseOption(const QCommandLineParser &parser, const QString &category)
{
    if (parser.isSet(QStringLiteral("verbose"))) {
        QLoggingCategory::setFilterRules(category + QStringLiteral(".info=true"));
    }
}

/// Writes the CA certificate clients should trust to --cert-out, or else to
/// <tmp>/strata-sim-<system>-<port>-ca.pem; `caPath` says where.
QString writeCaCertificate(
    const QCommandLineParser &parser, const QString &system, quint16 port, const QByteArray &pem, QString *caPath)
{
    *caPath = parser.isSet(QStringLiteral("cert-out"))
                  ? parser.value(QStringLiteral("cert-out"))
                  : QDir::temp().filePath(QStringLiteral("strata-sim-%1-%2-ca.pem").arg(system).arg(port));
    QString error;
    if (!writeFile(*caPath, pem, &error)) {
        return Cli::tr("cannot write the CA certificate to %1: %2").arg(*caPath, error);
    }
    return {};
}

/// Serves until SIGINT/SIGTERM; the exit code of the event loop.
int serveUntilSignalled(QTextStream &out)
{
    out << Cli::tr("Press Ctrl+C to stop.") << Qt::endl;
    if (!installSignalHandlers()) {
        return fail(Cli::tr("cannot install signal handlers."));
    }
    const int rc = QCoreApplication::exec();
    out << Cli::tr("Stopped.") << Qt::endl;
    return rc;
}

int runKubernetes(const QCommandLineParser &parser)
{
    using strata::sim::kube::KubeSimulator;
    bool ok = true;
    KubeSimulator::Options options;
    if (const QString error = readPortOption(parser, QStringLiteral("port"), &options.port); !error.isEmpty()) {
        return fail(error);
    }
    if (const QString error = readPortOption(parser, QStringLiteral("prometheus-port"), &options.prometheusPort);
        !error.isEmpty()) {
        return fail(error);
    }
    if (const QString error = readHostOption(parser, &options.address); !error.isEmpty()) {
        return fail(error);
    }
    const QString preset = parser.value(QStringLiteral("preset"));
    if (preset == QLatin1String("dgx")) {
        options.preset = KubeSimulator::Options::Preset::Dgx;
    } else if (preset == QLatin1String("scale")) {
        options.preset = KubeSimulator::Options::Preset::Scale;
    } else if (preset == QLatin1String("empty")) {
        options.preset = KubeSimulator::Options::Preset::Empty;
    } else if (preset == QLatin1String("aks")) {
        options.preset = KubeSimulator::Options::Preset::Aks;
    } else {
        return fail(Cli::tr("--preset must be dgx, scale, aks or empty."));
    }
    options.scalePods = int(numberOption(parser, QStringLiteral("pods"), 0, 1000000, &ok));
    if (!ok) {
        return fail(Cli::tr("--pods must be between 0 and 1000000."));
    }
    options.scaleNodes = int(numberOption(parser, QStringLiteral("nodes"), 1, 100000, &ok));
    if (!ok) {
        return fail(Cli::tr("--nodes must be between 1 and 100000."));
    }
    options.scaleNamespaces = int(numberOption(parser, QStringLiteral("namespaces"), 1, 10000, &ok));
    if (!ok) {
        return fail(Cli::tr("--namespaces must be between 1 and 10000."));
    }
    if (const QString error = readSeedOption(parser, &options.seed); !error.isEmpty()) {
        return fail(error);
    }
    // --tick-ms defaults to the ONTAP simulator's 5000; the cluster ticks every second unless told.
    options.tickInterval = std::chrono::milliseconds(
        parser.isSet(QStringLiteral("tick-ms")) ? numberOption(parser, QStringLiteral("tick-ms"), 0, 3600000, &ok)
                                                : 1000);
    if (!ok) {
        return fail(Cli::tr("--tick-ms must be between 0 and 3600000."));
    }
    options.tickStep = std::chrono::seconds(numberOption(parser, QStringLiteral("speed"), 1, 86400, &ok));
    if (!ok) {
        return fail(Cli::tr("--speed must be between 1 and 86400."));
    }
    options.token = parser.isSet(QStringLiteral("token")) ? parser.value(QStringLiteral("token")) : randomPassword();
    if (options.token.isEmpty()) {
        return fail(Cli::tr("the token must not be empty."));
    }
    if (const QString error = readTlsOptions(parser, &options.tls); !error.isEmpty()) {
        return fail(error);
    }
    applyVerboseOption(parser, QStringLiteral("strata.sim.kube"));

    KubeSimulator simulator(options);
    if (!simulator.start()) {
        return fail(Cli::tr("cannot start the Kubernetes simulator: %1").arg(simulator.errorString()));
    }
    QString caPath;
    if (const QString error =
            writeCaCertificate(parser, QStringLiteral("kubernetes"), simulator.port(), simulator.caPem(), &caPath);
        !error.isEmpty()) {
        return fail(error);
    }
    const QString kubeconfigPath =
        parser.isSet(QStringLiteral("kubeconfig-out"))
            ? parser.value(QStringLiteral("kubeconfig-out"))
            : QDir::temp().filePath(QStringLiteral("strata-sim-kubernetes-%1.kubeconfig").arg(simulator.port()));
    if (QString error; !writeFile(kubeconfigPath, simulator.kubeconfig(), &error)) {
        return fail(Cli::tr("cannot write the kubeconfig to %1: %2").arg(kubeconfigPath, error));
    }

    QTextStream out(stdout);
    out << Cli::tr("Kubernetes simulator (preset %1: %2 nodes, %3 pods) listening on %4")
               .arg(preset)
               .arg(simulator.objectCount(QStringLiteral("nodes")))
               .arg(simulator.objectCount(QStringLiteral("pods")))
               .arg(simulator.baseUrl())
        << Qt::endl;
    if (!simulator.prometheusUrl().isEmpty()) {
        out << Cli::tr("Prometheus API and DCGM metrics: %1").arg(simulator.prometheusUrl()) << Qt::endl;
    }
    out << Cli::tr("CA certificate: %1").arg(QFileInfo(caPath).absoluteFilePath()) << Qt::endl;
    out << Cli::tr("Kubeconfig: %1 (kubectl --kubeconfig %1 get pods -A)")
               .arg(QFileInfo(kubeconfigPath).absoluteFilePath())
        << Qt::endl;
    out << Cli::tr("Token: %1").arg(options.token) << Qt::endl;
    return serveUntilSignalled(out);
}

int runAzure(const QCommandLineParser &parser)
{
    using strata::sim::azure::AzureSimulator;
    bool ok = true;
    AzureSimulator::Options options;
    if (const QString error = readPortOption(parser, QStringLiteral("port"), &options.port); !error.isEmpty()) {
        return fail(error);
    }
    if (const QString error = readHostOption(parser, &options.address); !error.isEmpty()) {
        return fail(error);
    }
    const QString preset =
        parser.isSet(QStringLiteral("preset")) ? parser.value(QStringLiteral("preset")) : QStringLiteral("ailab");
    if (preset == QLatin1String("ailab")) {
        options.preset = AzureSimulator::Options::Preset::AiLab;
    } else if (preset == QLatin1String("scale")) {
        options.preset = AzureSimulator::Options::Preset::Scale;
    } else if (preset == QLatin1String("empty")) {
        options.preset = AzureSimulator::Options::Preset::Empty;
    } else {
        return fail(Cli::tr("--preset must be ailab, scale or empty for azure."));
    }
    if (parser.isSet(QStringLiteral("volumes"))) {
        options.scaleVolumes = int(numberOption(parser, QStringLiteral("volumes"), 0, 100000, &ok));
        if (!ok) {
            return fail(Cli::tr("--volumes must be between 0 and 100000."));
        }
    }
    if (parser.isSet(QStringLiteral("lro-ms"))) {
        options.lroDuration =
            std::chrono::milliseconds(numberOption(parser, QStringLiteral("lro-ms"), 0, 3600000, &ok));
        if (!ok) {
            return fail(Cli::tr("--lro-ms must be between 0 and 3600000."));
        }
    }
    if (parser.isSet(QStringLiteral("page-size"))) {
        options.pageSize = int(numberOption(parser, QStringLiteral("page-size"), 1, 100000, &ok));
        if (!ok) {
            return fail(Cli::tr("--page-size must be between 1 and 100000."));
        }
    }
    if (const QString error = readSeedOption(parser, &options.seed); !error.isEmpty()) {
        return fail(error);
    }
    options.clientSecret = parser.isSet(QStringLiteral("client-secret")) ? parser.value(QStringLiteral("client-secret"))
                                                                         : randomPassword();
    if (options.clientSecret.isEmpty()) {
        return fail(Cli::tr("the client secret must not be empty."));
    }
    if (parser.isSet(QStringLiteral("kubeconfig-file"))) {
        QFile file(parser.value(QStringLiteral("kubeconfig-file")));
        if (!file.open(QIODevice::ReadOnly)) {
            return fail(Cli::tr("cannot read the kubeconfig: %1").arg(file.errorString()));
        }
        options.aksKubeconfig = file.readAll();
    }
    if (const QString error = readTlsOptions(parser, &options.tls); !error.isEmpty()) {
        return fail(error);
    }
    applyVerboseOption(parser, QStringLiteral("strata.sim.azure"));

    AzureSimulator simulator(options);
    if (!simulator.start()) {
        return fail(Cli::tr("cannot start the Azure simulator: %1").arg(simulator.errorString()));
    }
    QString caPath;
    if (const QString error =
            writeCaCertificate(parser, QStringLiteral("azure"), simulator.port(), simulator.caPem(), &caPath);
        !error.isEmpty()) {
        return fail(error);
    }
    const QJsonObject state = simulator.state();
    const QString ca = QFileInfo(caPath).absoluteFilePath();
    const QString base = simulator.baseUrl();
    QTextStream out(stdout);
    out << Cli::tr("Azure simulator (preset %1: subscription %2 \"%3\", %4 volumes, %5 AKS clusters) listening on %6")
               .arg(preset, options.subscriptionId, options.subscriptionName)
               .arg(state.value(QStringLiteral("volumes")).toInt())
               .arg(state.value(QStringLiteral("managedClusters")).toInt())
               .arg(base)
        << Qt::endl;
    out << Cli::tr("CA certificate: %1").arg(ca) << Qt::endl;
    out << Cli::tr("Authority: %1 (token endpoint %1/oauth2/v2.0/token)").arg(simulator.authorityUrl()) << Qt::endl;
    out << Cli::tr("Tenant: %1").arg(options.tenantId) << Qt::endl;
    out << Cli::tr("Client id: %1").arg(options.clientId) << Qt::endl;
    out << Cli::tr("Client secret: %1").arg(options.clientSecret) << Qt::endl;
    out << Cli::tr("Subscription: %1").arg(options.subscriptionId) << Qt::endl;
    out << Cli::tr("Azure CLI:") << Qt::endl;
    out << QStringLiteral("  export AZURE_CONFIG_DIR=$(mktemp -d) AZURE_CORE_COLLECT_TELEMETRY=false "
                          "REQUESTS_CA_BUNDLE=%1\n"
                          "  az cloud register -n StrataSim --endpoint-resource-manager %2/ "
                          "--endpoint-active-directory %2/adfs "
                          "--endpoint-active-directory-resource-id https://management.core.windows.net/ "
                          "--endpoint-active-directory-graph-resource-id https://graph.local/ "
                          "--endpoint-management https://management.core.windows.net/\n"
                          "  az cloud set -n StrataSim\n"
                          "  az login --service-principal -u %3 -p '%4' --tenant adfs\n"
                          "  az netappfiles volume list -g %5 -a anf-ai-lab -p pool-standard -o table")
               .arg(ca, base, options.clientId, options.clientSecret, options.resourceGroup)
        << Qt::endl;
    return serveUntilSignalled(out);
}

} // namespace

int runStorageGrid(const QCommandLineParser &parser)
{
    using strata::sim::storagegrid::StorageGridSimulator;
    bool ok = true;
    StorageGridSimulator::Options options;
    if (const QString error = readPortOption(parser, QStringLiteral("port"), &options.managementPort);
        !error.isEmpty()) {
        return fail(error);
    }
    if (parser.isSet(QStringLiteral("s3-port"))) {
        if (const QString error = readPortOption(parser, QStringLiteral("s3-port"), &options.s3Port);
            !error.isEmpty()) {
            return fail(error);
        }
    }
    options.s3Tls = parser.isSet(QStringLiteral("s3-tls"));
    if (const QString error = readHostOption(parser, &options.address); !error.isEmpty()) {
        return fail(error);
    }
    const QString preset =
        parser.isSet(QStringLiteral("preset")) ? parser.value(QStringLiteral("preset")) : QStringLiteral("datalake");
    if (preset == QLatin1String("datalake")) {
        options.preset = StorageGridSimulator::Options::Preset::Datalake;
    } else if (preset == QLatin1String("empty")) {
        options.preset = StorageGridSimulator::Options::Preset::Empty;
    } else {
        return fail(Cli::tr("--preset must be datalake or empty for storagegrid."));
    }
    if (parser.isSet(QStringLiteral("token-ttl"))) {
        options.tokenTtl = std::chrono::seconds(numberOption(parser, QStringLiteral("token-ttl"), 1, 7 * 86400, &ok));
        if (!ok) {
            return fail(Cli::tr("--token-ttl must be between 1 and 604800 seconds."));
        }
    }
    if (parser.isSet(QStringLiteral("password"))) {
        options.rootPassword = parser.value(QStringLiteral("password"));
        if (options.rootPassword.isEmpty()) {
            return fail(Cli::tr("the password must not be empty."));
        }
    }
    if (const QString error = readTlsOptions(parser, &options.tls); !error.isEmpty()) {
        return fail(error);
    }

    StorageGridSimulator simulator(options);
    if (!simulator.start()) {
        return fail(Cli::tr("cannot start the StorageGRID simulator: %1").arg(simulator.errorString()));
    }
    QString caPath;
    if (const QString error = writeCaCertificate(
            parser, QStringLiteral("storagegrid"), simulator.managementPort(), simulator.caPem(), &caPath);
        !error.isEmpty()) {
        return fail(error);
    }
    const QString ca = QFileInfo(caPath).absoluteFilePath();
    const auto &o = simulator.options();
    QTextStream out(stdout);
    out << Cli::tr("StorageGRID simulator (preset %1: grid \"%2\", %3 tenants)")
               .arg(preset, o.gridName)
               .arg(simulator.tenants().size())
        << Qt::endl;
    out << Cli::tr("Management API: %1/api/v4 (also /api/v3)").arg(simulator.managementUrl()) << Qt::endl;
    out << Cli::tr("CA certificate: %1").arg(ca) << Qt::endl;
    out << Cli::tr("Grid administrator: root / %1").arg(o.rootPassword) << Qt::endl;
    for (const auto &t : simulator.tenants()) {
        out << Cli::tr("Tenant %1: account id %2, user root / %3").arg(t.name, t.id, t.rootPassword) << Qt::endl;
    }
    out << Cli::tr("S3 endpoint: %1 (region %2, path-style; virtual-hosted as <bucket>.localhost:%3)")
               .arg(simulator.s3Url(), o.s3Region)
               .arg(simulator.s3Port())
        << Qt::endl;
    if (options.preset == StorageGridSimulator::Options::Preset::Datalake) {
        out << Cli::tr("S3 keys of data-science: %1 / %2").arg(o.s3AccessKey, o.s3SecretKey) << Qt::endl;
        out << Cli::tr("S3 keys of support-center: %1 / %2").arg(o.s3AccessKey2, o.s3SecretKey2) << Qt::endl;
        out << Cli::tr("AWS CLI:") << Qt::endl;
        out << QStringLiteral("  AWS_ACCESS_KEY_ID=%1 AWS_SECRET_ACCESS_KEY=%2 AWS_DEFAULT_REGION=%3 "
                              "aws --endpoint-url %4%5 s3api list-objects-v2 --bucket datasets --prefix fraud_jun/")
                   .arg(o.s3AccessKey,
                        o.s3SecretKey,
                        o.s3Region,
                        simulator.s3Url(),
                        o.s3Tls ? QStringLiteral(" --ca-bundle ") + ca : QString())
            << Qt::endl;
    }
    return serveUntilSignalled(out);
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("strata-sim"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QCommandLineParser parser;
    parser.setApplicationDescription(Cli::tr("Runs a protocol-faithful simulator of a system Strata talks to."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("system"),
                                 Cli::tr("The system to simulate: ontap, kubernetes, azure or storagegrid."));
    const QCommandLineOption portOption(QStringLiteral("port"),
                                        Cli::tr("TCP port to listen on (0 = any free port)."),
                                        Cli::tr("port"),
                                        QStringLiteral("0"));
    const QCommandLineOption hostOption(
        QStringLiteral("host"), Cli::tr("Address to listen on."), Cli::tr("address"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption volumesOption(QStringLiteral("volumes"),
                                           Cli::tr("Generate an estate of N volumes instead of the demo estate."),
                                           Cli::tr("N"));
    const QCommandLineOption demoOption(QStringLiteral("demo"), Cli::tr("Serve the demo estate (the default)."));
    const QCommandLineOption snapshotsOption(QStringLiteral("snapshots-per-volume"),
                                             Cli::tr("Snapshots per generated volume."),
                                             Cli::tr("N"),
                                             QStringLiteral("10"));
    const QCommandLineOption clusterOption(
        QStringLiteral("cluster-name"), Cli::tr("Cluster name."), Cli::tr("name"), QStringLiteral("ontap-ai"));
    const QCommandLineOption userOption(QStringLiteral("username"),
                                        Cli::tr("User name for basic authentication."),
                                        Cli::tr("name"),
                                        QStringLiteral("admin"));
    const QCommandLineOption passwordFileOption(
        QStringLiteral("password-file"), Cli::tr("Read the password from a file."), Cli::tr("file"));
    const QCommandLineOption passwordOption(
        QStringLiteral("password"),
        Cli::tr("The password (visible to other users in the process list; prefer --password-file)."),
        Cli::tr("password"));
    const QCommandLineOption certOutOption(QStringLiteral("cert-out"),
                                           Cli::tr("Write the CA certificate (PEM) clients should trust here."),
                                           Cli::tr("file"));
    const QCommandLineOption tlsCertOption(QStringLiteral("tls-cert"),
                                           Cli::tr("Serve this certificate (PEM) instead of a generated one."),
                                           Cli::tr("file"));
    const QCommandLineOption tlsKeyOption(
        QStringLiteral("tls-key"), Cli::tr("Private key (PEM) for --tls-cert."), Cli::tr("file"));
    const QCommandLineOption pageCapOption(QStringLiteral("page-cap"),
                                           Cli::tr("Records per collection page at most."),
                                           Cli::tr("N"),
                                           QStringLiteral("400"));
    const QCommandLineOption seedOption(
        QStringLiteral("seed"), Cli::tr("Seed of the generated estate."), Cli::tr("N"), QStringLiteral("42"));
    const QCommandLineOption verboseOption(QStringLiteral("verbose"), Cli::tr("Log every request and its status."));
    const QCommandLineOption tickOption(QStringLiteral("tick-ms"),
                                        Cli::tr("Period of background changes in milliseconds (0 = none)."),
                                        Cli::tr("ms"),
                                        QStringLiteral("5000"));
    const QCommandLineOption presetOption(
        QStringLiteral("preset"),
        Cli::tr("kubernetes: dgx (TR-4858 demo), scale, aks or empty; azure: ailab, scale or empty; "
                "storagegrid: datalake or empty."),
        Cli::tr("name"),
        QStringLiteral("dgx"));
    const QCommandLineOption tokenOption(
        QStringLiteral("token"), Cli::tr("kubernetes: the bearer token clients must send."), Cli::tr("token"));
    const QCommandLineOption kubeconfigOutOption(QStringLiteral("kubeconfig-out"),
                                                 Cli::tr("kubernetes: write a kubeconfig for the simulator here."),
                                                 Cli::tr("file"));
    const QCommandLineOption prometheusPortOption(QStringLiteral("prometheus-port"),
                                                  Cli::tr("kubernetes: port of the Prometheus/DCGM endpoint."),
                                                  Cli::tr("port"),
                                                  QStringLiteral("0"));
    const QCommandLineOption speedOption(QStringLiteral("speed"),
                                         Cli::tr("kubernetes: simulated seconds per tick."),
                                         Cli::tr("seconds"),
                                         QStringLiteral("1"));
    const QCommandLineOption clientSecretOption(QStringLiteral("client-secret"),
                                                Cli::tr("azure: the client secret the token endpoint accepts."),
                                                Cli::tr("secret"));
    const QCommandLineOption lroOption(
        QStringLiteral("lro-ms"), Cli::tr("azure: real time a long-running operation takes (ms)."), Cli::tr("ms"));
    const QCommandLineOption pageSizeOption(
        QStringLiteral("page-size"), Cli::tr("azure: items per list page before a nextLink."), Cli::tr("N"));
    const QCommandLineOption kubeconfigFileOption(
        QStringLiteral("kubeconfig-file"),
        Cli::tr("azure: kubeconfig that listClusterUserCredential returns for aks-gpu."),
        Cli::tr("file"));
    parser.addOptions({clientSecretOption, lroOption, pageSizeOption, kubeconfigFileOption});
    const QCommandLineOption s3PortOption(QStringLiteral("s3-port"),
                                          Cli::tr("storagegrid: port of the S3 endpoint (0 = any free port)."),
                                          Cli::tr("port"));
    const QCommandLineOption s3TlsOption(QStringLiteral("s3-tls"), Cli::tr("storagegrid: serve S3 over HTTPS."));
    const QCommandLineOption tokenTtlOption(
        QStringLiteral("token-ttl"), Cli::tr("storagegrid: lifetime of management API tokens."), Cli::tr("seconds"));
    parser.addOptions({s3PortOption, s3TlsOption, tokenTtlOption});
    const QCommandLineOption podsOption(
        QStringLiteral("pods"), Cli::tr("kubernetes scale preset: pods."), Cli::tr("N"), QStringLiteral("50000"));
    const QCommandLineOption nodesOption(
        QStringLiteral("nodes"), Cli::tr("kubernetes scale preset: nodes."), Cli::tr("N"), QStringLiteral("2000"));
    const QCommandLineOption namespacesOption(QStringLiteral("namespaces"),
                                              Cli::tr("kubernetes scale preset: namespaces."),
                                              Cli::tr("N"),
                                              QStringLiteral("20"));
    parser.addOptions({presetOption,
                       tokenOption,
                       kubeconfigOutOption,
                       prometheusPortOption,
                       speedOption,
                       podsOption,
                       nodesOption,
                       namespacesOption});
    parser.addOptions({portOption,
                       hostOption,
                       volumesOption,
                       demoOption,
                       snapshotsOption,
                       clusterOption,
                       userOption,
                       passwordFileOption,
                       passwordOption,
                       certOutOption,
                       tlsCertOption,
                       tlsKeyOption,
                       pageCapOption,
                       seedOption,
                       verboseOption,
                       tickOption});
    parser.process(app);

    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1
        || (positional.front() != QLatin1String("ontap") && positional.front() != QLatin1String("kubernetes")
            && positional.front() != QLatin1String("azure") && positional.front() != QLatin1String("storagegrid"))) {
        return fail(
            Cli::tr("name the system to simulate; supported: ontap, kubernetes, azure, storagegrid. See --help."));
    }

    auto number = [&](const QCommandLineOption &option, qint64 min, qint64 max, bool *ok) {
        return numberOption(parser, option.names().constFirst(), min, max, ok);
    };
    bool ok = true;
    if (positional.front() == QLatin1String("kubernetes")) {
        return runKubernetes(parser);
    }
    if (positional.front() == QLatin1String("azure")) {
        return runAzure(parser);
    }
    if (positional.front() == QLatin1String("storagegrid")) {
        return runStorageGrid(parser);
    }
    strata::sim::ontap::OntapSimulator::Options options;
    if (const QString error = readPortOption(parser, QStringLiteral("port"), &options.port); !error.isEmpty()) {
        return fail(error);
    }
    if (const QString error = readHostOption(parser, &options.address); !error.isEmpty()) {
        return fail(error);
    }
    if (parser.isSet(volumesOption) && parser.isSet(demoOption)) {
        return fail(Cli::tr("--volumes and --demo are exclusive."));
    }
    if (parser.isSet(volumesOption)) {
        options.preset = strata::sim::ontap::OntapSimulator::Options::Preset::Generated;
        options.volumeCount = int(number(volumesOption, 1, 200000, &ok));
        if (!ok) {
            return fail(Cli::tr("--volumes must be between 1 and 200000."));
        }
    }
    options.snapshotsPerVolume = int(number(snapshotsOption, 0, 1000, &ok));
    if (!ok) {
        return fail(Cli::tr("--snapshots-per-volume must be between 0 and 1000."));
    }
    options.pageCap = int(number(pageCapOption, 1, 100000, &ok));
    if (!ok) {
        return fail(Cli::tr("--page-cap must be a positive number."));
    }
    if (const QString error = readSeedOption(parser, &options.seed); !error.isEmpty()) {
        return fail(error);
    }
    options.tickInterval = std::chrono::milliseconds(number(tickOption, 0, 3600000, &ok));
    if (!ok) {
        return fail(Cli::tr("--tick-ms must be between 0 and 3600000."));
    }
    options.clusterName = parser.value(clusterOption);
    options.username = parser.value(userOption);

    QString passwordSource;
    if (parser.isSet(passwordFileOption) && parser.isSet(passwordOption)) {
        return fail(Cli::tr("--password and --password-file are exclusive."));
    }
    if (parser.isSet(passwordFileOption)) {
        QFile file(parser.value(passwordFileOption));
        if (!file.open(QIODevice::ReadOnly)) {
            return fail(Cli::tr("cannot read the password file: %1").arg(file.errorString()));
        }
        options.password = QString::fromUtf8(file.readAll()).trimmed();
        passwordSource = Cli::tr("from %1").arg(file.fileName());
    } else if (parser.isSet(passwordOption)) {
        options.password = parser.value(passwordOption);
        passwordSource = Cli::tr("as given");
    } else {
        options.password = randomPassword();
        passwordSource = options.password;
    }
    if (options.password.isEmpty()) {
        return fail(Cli::tr("the password must not be empty."));
    }

    if (const QString error = readTlsOptions(parser, &options.tls); !error.isEmpty()) {
        return fail(error);
    }
    applyVerboseOption(parser, QStringLiteral("strata.sim.ontap"));

    strata::sim::ontap::OntapSimulator simulator(options);
    if (!simulator.start()) {
        return fail(Cli::tr("cannot start the ONTAP simulator: %1").arg(simulator.errorString()));
    }

    QString caPath;
    if (const QString error =
            writeCaCertificate(parser, QStringLiteral("ontap"), simulator.port(), simulator.certificatePem(), &caPath);
        !error.isEmpty()) {
        return fail(error);
    }

    QTextStream out(stdout);
    out << Cli::tr("ONTAP simulator (cluster %1, %2 volumes) listening on %3/api")
               .arg(options.clusterName)
               .arg(simulator.volumeCount())
               .arg(simulator.baseUrl())
        << Qt::endl;
    out << Cli::tr("CA certificate: %1").arg(QFileInfo(caPath).absoluteFilePath()) << Qt::endl;
    out << Cli::tr("Username: %1").arg(options.username) << Qt::endl;
    out << Cli::tr("Password: %1").arg(passwordSource) << Qt::endl;
    return serveUntilSignalled(out);
}
