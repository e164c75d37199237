// strata-sim: runs a protocol-faithful simulator until SIGINT/SIGTERM.
//   strata-sim ontap [--port N] [--host 127.0.0.1] [--volumes N | --demo] [--username admin]
//                    [--password-file F | --password P] [--cert-out ca.pem]
//                    [--tls-cert F --tls-key F] [--page-cap N]

#include "simulators/ontap/ontapsimulator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
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

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("strata-sim"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QCommandLineParser parser;
    parser.setApplicationDescription(Cli::tr("Runs a protocol-faithful simulator of a system Strata talks to."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("system"), Cli::tr("The system to simulate: ontap."));
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
    if (positional.size() != 1 || positional.front() != QLatin1String("ontap")) {
        return fail(Cli::tr("name the system to simulate; supported: ontap. See --help."));
    }

    auto number = [&](const QCommandLineOption &option, qint64 min, qint64 max, bool *ok) {
        const qint64 value = parser.value(option).toLongLong(ok);
        *ok = *ok && value >= min && value <= max;
        return value;
    };
    bool ok = true;
    strata::sim::ontap::OntapSimulator::Options options;
    options.port = quint16(number(portOption, 0, 65535, &ok));
    if (!ok) {
        return fail(Cli::tr("--port must be between 0 and 65535."));
    }
    const QString host = parser.value(hostOption);
    options.address = host == QLatin1String("localhost") ? QHostAddress(QHostAddress::LocalHost) : QHostAddress(host);
    if (options.address.isNull()) {
        return fail(Cli::tr("--host must be an IP address."));
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
    options.seed = quint64(number(seedOption, 0, std::numeric_limits<qint64>::max(), &ok));
    if (!ok) {
        return fail(Cli::tr("--seed must be a non-negative number."));
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

    if (parser.isSet(tlsCertOption) != parser.isSet(tlsKeyOption)) {
        return fail(Cli::tr("--tls-cert and --tls-key go together."));
    }
    if (parser.isSet(tlsCertOption)) {
        options.tls = strata::sim::TlsIdentity::load(parser.value(tlsCertOption), parser.value(tlsKeyOption));
        if (options.tls.isNull()) {
            return fail(Cli::tr("cannot read the TLS certificate or key."));
        }
    }

    if (parser.isSet(verboseOption)) {
        QLoggingCategory::setFilterRules(QStringLiteral("strata.sim.ontap.info=true"));
    }

    strata::sim::ontap::OntapSimulator simulator(options);
    if (!simulator.start()) {
        return fail(Cli::tr("cannot start the ONTAP simulator: %1").arg(simulator.errorString()));
    }

    const QString caPath =
        parser.isSet(certOutOption)
            ? parser.value(certOutOption)
            : QDir::temp().filePath(QStringLiteral("strata-sim-ontap-%1-ca.pem").arg(simulator.port()));
    QFile caFile(caPath);
    if (!caFile.open(QIODevice::WriteOnly | QIODevice::Truncate) || caFile.write(simulator.certificatePem()) < 0) {
        return fail(Cli::tr("cannot write the CA certificate to %1: %2").arg(caPath, caFile.errorString()));
    }
    caFile.close();

    QTextStream out(stdout);
    out << Cli::tr("ONTAP simulator (cluster %1, %2 volumes) listening on %3/api")
               .arg(options.clusterName)
               .arg(simulator.volumeCount())
               .arg(simulator.baseUrl())
        << Qt::endl;
    out << Cli::tr("CA certificate: %1").arg(QFileInfo(caPath).absoluteFilePath()) << Qt::endl;
    out << Cli::tr("Username: %1").arg(options.username) << Qt::endl;
    out << Cli::tr("Password: %1").arg(passwordSource) << Qt::endl;
    out << Cli::tr("Press Ctrl+C to stop.") << Qt::endl;

    // Signals reach the event loop through a socket pair: Qt is not async-signal-safe.
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalPipe) != 0) {
        return fail(Cli::tr("cannot install signal handlers."));
    }
    QSocketNotifier notifier(g_signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, &app, [] {
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

    const int rc = app.exec();
    out << Cli::tr("Stopped.") << Qt::endl;
    return rc;
}
