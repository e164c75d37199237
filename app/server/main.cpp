// strata-server: the headless entry point. `serve` runs the web console (the engine, its history
// store and schedules, and the WebServer); `user` manages the console's users, `settings` the rate
// card and cache targets the replicas share; the CLI verbs run with secrets from the environment or
// mounted files instead of a desktop keychain; and a self-test proves a host can run Strata without
// a display.

#include "web/auth.h"
#include "web/httpguard.h"
#include "web/sentimentroutes.h"
#include "web/webserver.h"

#include "app/cli/cli.h"
#include "demo/demoestate.h"
#include "models/core/domain/clock.h"
#include "models/core/runtime/engine.h"
#include "models/core/runtime/replicas.h"
#include "models/core/runtime/runtime.h"
#include "models/core/runtime/sentimentservice.h"
#include "models/core/runtime/sharedsettings.h"
#include "models/core/sources/source.h"
#include "models/core/store/credentialstore.h"
#include "models/core/store/historystore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSocketNotifier>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>
#include <QUrl>

#include <csignal>
#include <cstdio>
#include <tuple>
#include <unistd.h>

namespace {

/// How long a one-shot run (a CLI verb, the self-test) may take to stop its sources after its
/// answer is printed.
constexpr int kTeardownGraceSeconds = 10;

/// Starts the demo estate, polls it through the real engine, and checks that volumes (ONTAP), GPU
/// nodes and jobs (Kubernetes), ANF volumes, capacity pools and AKS clusters (Azure), and grid
/// health, tenants and datasets (StorageGRID) arrive.
/// Waits at most `timeoutSeconds` for the first poll of every source; a source still without a
/// complete answer then is reported as FAIL with "no complete answer within N s".
int selfTest(int timeoutSeconds, QTextStream &out, QTextStream &err)
{
    using namespace strata;
    core::RuntimeOptions runtimeOptions;
    runtimeOptions.demo = strata::demo::startForCommand;
    runtimeOptions.history = false;
    runtimeOptions.user = QStringLiteral("self-test");
    runtimeOptions.firstPollDeadline = std::chrono::milliseconds(timeoutSeconds * 750);
    core::Result<std::unique_ptr<core::Runtime>> built = core::Runtime::build(runtimeOptions);
    if (!built) {
        err << "strata-server: self-test: " << built.error().message << '\n';
        return 1;
    }
    const std::unique_ptr<core::Runtime> runtime = std::move(*built);
    core::Engine &engine = runtime->engine();
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    QObject::connect(&engine, &core::Engine::allSourcesPolled, &loop, &QEventLoop::quit);
    deadline.start(timeoutSeconds * 1000);
    if (!engine.allPolledOnce()) {
        loop.exec();
    }
    int failures = 0;
    for (const core::SourceStatus &s : engine.statuses()) {
        // Each kind must deliver what its pages show: volumes from ONTAP, GPU nodes and jobs from
        // a Kubernetes cluster.
        const core::Source *source = engine.source(s.name);
        const bool answered = source && source->hasPolledOnce();
        bool ok = s.health == core::Health::Ok && answered;
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
            bool hub = false;
            for (const core::SourceConfig &c : runtime->config().sources) {
                hub = hub || (c.name == s.name && !c.s3Url.isEmpty());
            }
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
        if (!answered) {
            out << " (" << QStringLiteral("no complete answer within %1 s").arg(timeoutSeconds) << ')';
        }
        if (!s.lastError.isEmpty()) {
            out << " (" << s.lastError << ')';
        }
        out << '\n';
        failures += ok ? 0 : 1;
    }
    const int code = failures == 0 ? 0 : 1;
    cli::armExitWatchdog(code, kTeardownGraceSeconds, QStringLiteral("strata-server"), out, err);
    return code;
}

QString defaultUsersPath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dir);
    return dir + QStringLiteral("/users.json");
}

/// "HOST:PORT", ":PORT" or "PORT"; "[::1]:8443" for IPv6.
bool parseListen(const QString &text, strata::web::WebServerOptions *options)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    QString host = colon >= 0 ? text.left(colon) : QString();
    const QString portText = colon >= 0 ? text.mid(colon + 1) : text;
    bool ok = false;
    const uint port = portText.toUInt(&ok);
    if (!ok || port > 65535) {
        return false;
    }
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']'))) {
        host = host.mid(1, host.size() - 2);
    }
    if (!host.isEmpty()) {
        const QHostAddress address(host == QLatin1String("localhost") ? QStringLiteral("127.0.0.1") : host);
        if (address.isNull()) {
            return false;
        }
        options->address = address;
    }
    options->port = quint16(port);
    return true;
}

/// A random password of 16 characters from an alphabet without look-alikes.
QString randomPassword()
{
    static const QString alphabet = QStringLiteral("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789");
    QString out;
    for (int i = 0; i < 16; ++i) {
        out += alphabet.at(int(QRandomGenerator::system()->bounded(quint32(alphabet.size()))));
    }
    return out;
}

/// The store `location` ready to open: a PostgreSQL URL without a password gets the store's
/// secret (STRATA_SECRET_STORE_PASSWORD or $STRATA_SECRETS_DIR/store/password) when one is set;
/// without one libpq's PGPASSWORD / PGPASSFILE apply. A SQLite path is returned as is.
strata::core::Result<QString> withStorePassword(const QString &location, strata::core::ICredentialStore &credentials)
{
    using namespace strata;
    if (!core::SqlHistoryStore::isPostgresLocation(location)) {
        return location;
    }
    QUrl url(location, QUrl::StrictMode);
    if (!url.isValid()) {
        return core::fail(
            QStringLiteral("the store %1 is not a valid URL").arg(core::SqlHistoryStore::displayLocation(location)));
    }
    if (!url.password().isEmpty()) {
        return location;
    }
    QEventLoop loop;
    std::optional<QString> secret;
    QString error;
    credentials.read(core::credentialKey(QStringLiteral("store")), [&](std::optional<QString> s, QString e) {
        secret = std::move(s);
        error = std::move(e);
        loop.quit();
    });
    loop.exec();
    if (!error.isEmpty()) {
        return core::fail(QStringLiteral("the store's password: %1").arg(error));
    }
    if (secret) {
        url.setPassword(*secret, QUrl::DecodedMode);
    }
    return url.toString(QUrl::FullyEncoded);
}

/// The store named by --store, else STRATA_STORE, else the config file's "store" (which
/// Runtime reads itself, so empty here), with its password (withStorePassword()).
strata::core::Result<QString>
storeLocation(const QString &option, const QString &configPath, strata::core::ICredentialStore &credentials)
{
    using namespace strata;
    QString location = option.isEmpty() ? qEnvironmentVariable("STRATA_STORE") : option;
    if (location.isEmpty() && !configPath.isEmpty() && QFile::exists(configPath)) {
        core::AppConfig config;
        if (core::AppConfig::load(configPath, &config)) {
            location = config.store;
        }
    }
    return location.isEmpty() ? core::Result<QString>(QString()) : withStorePassword(location, credentials);
}

/// `strata-server migrate --from-sqlite PATH --to URL [--users PATH]`: moves an installation's
/// history, audit log, schedules, action journal and shared settings (rate card, cache targets)
/// into an empty PostgreSQL database, imports
/// the console's users file (beside the SQLite file unless given), and says what it moved.
int migrate(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    using namespace strata;
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "strata-server migrate: copy a SQLite history store (history, audit log, schedules, action journal, the\n"
        "shared rate card and cache targets) into an\n"
        "empty PostgreSQL database, ids included, in one transaction, and import the web console's users.json\n"
        "(beside the SQLite file, or --users): servers on PostgreSQL keep users and sessions there. The source is\n"
        "only read. The password comes from the URL, STRATA_SECRET_STORE_PASSWORD, "
        "$STRATA_SECRETS_DIR/store/password,\n"
        "or libpq's PGPASSFILE."));
    parser.addHelpOption();
    const QCommandLineOption fromOption(
        QStringLiteral("from-sqlite"), QStringLiteral("The SQLite history file."), QStringLiteral("path"));
    const QCommandLineOption toOption(
        QStringLiteral("to"), QStringLiteral("postgresql://user@host:port/database"), QStringLiteral("url"));
    const QCommandLineOption usersOption(
        QStringLiteral("users"),
        QStringLiteral("The web console's users file to import (default: users.json beside the SQLite file, when "
                       "there is one)."),
        QStringLiteral("path"));
    parser.addOptions({fromOption, toOption, usersOption});
    if (!parser.parse(QStringList{QStringLiteral("strata-server migrate")} + arguments)) {
        err << "strata-server migrate: " << parser.errorText() << '\n';
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << parser.helpText();
        return 0;
    }
    const QString from = parser.value(fromOption);
    const QString to = parser.value(toOption);
    if (from.isEmpty() || !core::SqlHistoryStore::isPostgresLocation(to)) {
        err << "strata-server migrate: wants --from-sqlite PATH --to postgresql://user@host:port/database\n";
        return 2;
    }
    if (!QFile::exists(from)) {
        err << "strata-server migrate: " << from << " does not exist\n";
        return 2;
    }
    // The console's users move along: the servers on PostgreSQL keep them in the store.
    const bool usersGiven = parser.isSet(usersOption);
    const QString usersPath =
        usersGiven ? parser.value(usersOption) : QFileInfo(from).absoluteDir().filePath(QStringLiteral("users.json"));
    if (usersGiven && !QFile::exists(usersPath)) {
        err << "strata-server migrate: " << usersPath << " does not exist\n";
        return 2;
    }
    core::SystemClock usersClock;
    web::UserStore usersFile(QFile::exists(usersPath) ? usersPath : QString(), usersClock);
    if (const core::Status loaded = usersFile.load(); !loaded) {
        err << "strata-server migrate: " << loaded.error().message << '\n';
        return 2;
    }
    core::EnvFileCredentialStore credentials;
    const core::Result<QString> target = withStorePassword(to, credentials);
    if (!target) {
        err << "strata-server migrate: " << target.error().message << '\n';
        return 2;
    }
    core::SystemClock clock;
    // Opening migrates the SQLite file to this build's schema first, as any start would.
    core::SqlHistoryStore source(from, clock);
    core::SqlHistoryStore destination(*target, clock);
    for (core::SqlHistoryStore *store : {&source, &destination}) {
        if (const core::Status opened = store->open(); !opened) {
            err << "strata-server migrate: " << opened.error().message << '\n';
            return 1;
        }
    }
    const auto copied = destination.copyFrom(source);
    if (!copied) {
        err << "strata-server migrate: " << copied.error().message << '\n';
        return copied.error().kind == core::Error::Kind::Invalid ? 2 : 1;
    }
    const QList<web::User> imported = usersFile.users();
    for (const web::User &u : imported) {
        const core::Status saved = destination.saveWebUser(
            core::WebUserRecord{u.name, web::roleName(u.role), u.passwordHash, u.created}, clock.now());
        if (!saved) {
            err << "strata-server migrate: the history moved, but importing " << usersPath
                << " failed: " << saved.error().message << '\n';
            return 1;
        }
    }
    qint64 total = 0;
    out << "strata-server migrate: " << from << " -> " << core::SqlHistoryStore::displayLocation(to) << '\n';
    for (const core::SqlHistoryStore::TableCopy &table : *copied) {
        out << QStringLiteral("  %1 %2 (%3)\n").arg(table.rows, 10).arg(table.what, table.table);
        total += table.rows;
    }
    if (!imported.isEmpty()) {
        out << QStringLiteral("  %1 web console users imported from %2 (web_user)\n")
                   .arg(imported.size(), 10)
                   .arg(usersPath);
    }
    out << "moved " << total << " rows; the SQLite file is unchanged. Start the servers with --store "
        << core::SqlHistoryStore::displayLocation(to) << '\n';
    return 0;
}

/// `strata-server user ...` (web/auth.h runUserCommand): the users of the PostgreSQL store the
/// servers share when one is configured (--store URL, STRATA_STORE, or the config's "store" with
/// --config / STRATA_CONFIG), else the users file.
int userCommand(QStringList arguments, QTextStream &in, QTextStream &out, QTextStream &err)
{
    using namespace strata;
    QString storeOption;
    QString configPath = qEnvironmentVariable("STRATA_CONFIG", core::AppConfig::defaultPath());
    for (qsizetype i = 0; i < arguments.size();) {
        const QString arg = arguments.at(i);
        QString *target = nullptr;
        QString name;
        for (const auto &[option, value] :
             {std::pair{QStringLiteral("--store"), &storeOption}, std::pair{QStringLiteral("--config"), &configPath}}) {
            if (arg == option || arg.startsWith(option + u'=')) {
                target = value;
                name = option;
            }
        }
        if (!target) {
            ++i;
            continue;
        }
        if (arg.startsWith(name + u'=')) {
            *target = arg.mid(name.size() + 1);
            arguments.removeAt(i);
        } else if (i + 1 < arguments.size()) {
            *target = arguments.at(i + 1);
            arguments.remove(i, 2);
        } else {
            err << "strata-server user: " << name << " needs a value\n";
            return 2;
        }
    }
    core::EnvFileCredentialStore credentials;
    const core::Result<QString> location = storeLocation(storeOption, configPath, credentials);
    if (!location) {
        err << "strata-server user: " << location.error().message << '\n';
        return 2;
    }
    core::SystemClock clock;
    if (!core::SqlHistoryStore::isPostgresLocation(*location)) {
        return web::runUserCommand(arguments, defaultUsersPath(), in, out, err, clock);
    }
    core::SqlHistoryStore store(*location, clock);
    if (const core::Status opened = store.open(); !opened) {
        err << "strata-server user: " << opened.error().message << '\n';
        return 1;
    }
    return web::runUserCommand(arguments, defaultUsersPath(), in, out, err, clock, 600000, &store);
}

/// `strata-server settings get|set rate-card|cache-targets`: the rate card and cache targets every
/// process on the store uses (models/core/runtime/sharedsettings.h). `get` prints the stored JSON (the
/// config's form); `set` reads it from --file (or standard input), checks it as the config file
/// would, and writes it over the revision it read (or --if-revision), audited; running servers
/// apply it within seconds.
int settingsCommand(const QStringList &arguments, QTextStream &in, QTextStream &out, QTextStream &err)
{
    using namespace strata;
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "strata-server settings: the rate card and cache targets shared through the store (--store URL or path,\n"
        "STRATA_STORE, the config's \"store\", else its history file). The store's value wins over the config\n"
        "file's until the config file's value changes."));
    parser.addHelpOption();
    const QCommandLineOption storeOption(QStringLiteral("store"),
                                         QStringLiteral("postgresql://user@host:port/database or a SQLite file."),
                                         QStringLiteral("url"));
    const QCommandLineOption configOption(QStringLiteral("config"),
                                          QStringLiteral("The config file (its store, its sources for cache targets)."),
                                          QStringLiteral("path"));
    const QCommandLineOption fileOption(QStringLiteral("file"),
                                        QStringLiteral("set: the JSON to store (default: standard input)."),
                                        QStringLiteral("path"));
    const QCommandLineOption revisionOption(
        QStringLiteral("if-revision"),
        QStringLiteral("set: only over this stored revision (as `get` showed it); default: the one read now."),
        QStringLiteral("n"));
    parser.addOptions({storeOption, configOption, fileOption, revisionOption});
    parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("get or set"));
    parser.addPositionalArgument(QStringLiteral("name"), QStringLiteral("rate-card or cache-targets"));
    if (!parser.parse(QStringList{QStringLiteral("strata-server settings")} + arguments)) {
        err << "strata-server settings: " << parser.errorText() << '\n';
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << parser.helpText();
        return 0;
    }
    const QStringList positional = parser.positionalArguments();
    const QString action = positional.value(0);
    const QString name = positional.value(1) == QLatin1String("rate-card")       ? QString(core::kRateCardSetting)
                         : positional.value(1) == QLatin1String("cache-targets") ? QString(core::kCacheTargetsSetting)
                                                                                 : QString();
    if (positional.size() != 2 || (action != QLatin1String("get") && action != QLatin1String("set"))
        || name.isEmpty()) {
        err << "strata-server settings: wants get|set rate-card|cache-targets [--file F] [--store URL]\n";
        return 2;
    }
    const QString configPath = parser.isSet(configOption)
                                   ? parser.value(configOption)
                                   : qEnvironmentVariable("STRATA_CONFIG", core::AppConfig::defaultPath());
    std::optional<core::AppConfig> config;
    if (QFile::exists(configPath)) {
        core::AppConfig loaded;
        if (const core::Status read = core::AppConfig::load(configPath, &loaded); !read) {
            err << "strata-server settings: " << read.error().message << '\n';
            return 2;
        }
        config = std::move(loaded);
    }
    core::EnvFileCredentialStore credentials;
    core::Result<QString> location = storeLocation(parser.value(storeOption), configPath, credentials);
    if (location && location->isEmpty()) {
        location = core::historyPathFor(config.value_or(core::AppConfig{}));
    }
    if (!location) {
        err << "strata-server settings: " << location.error().message << '\n';
        return 2;
    }
    core::SystemClock clock;
    core::SqlHistoryStore store(*location, clock);
    const QString where = core::SqlHistoryStore::displayLocation(*location);
    if (const core::Status opened = store.open(); !opened) {
        err << "strata-server settings: " << opened.error().message << '\n';
        return 1;
    }
    const core::Result<std::vector<core::SharedSetting>> all = store.sharedSettings();
    if (!all) {
        err << "strata-server settings: " << all.error().message << '\n';
        return 1;
    }
    core::SharedSetting current;
    for (const core::SharedSetting &stored : *all) {
        if (stored.name == name) {
            current = stored;
        }
    }
    if (action == QLatin1String("get")) {
        if (current.revision == 0) {
            err << "strata-server settings: " << where << " has no " << core::settingDisplayName(name)
                << " yet (the first server to start seeds it from its config file)\n";
            return 1;
        }
        out << QJsonDocument::fromJson(current.body).toJson(QJsonDocument::Indented);
        err << core::settingDisplayName(name) << ": revision " << current.revision << ", "
            << current.updated.toString(Qt::ISODate) << " by " << current.updatedBy << '\n';
        return 0;
    }
    QByteArray json;
    if (!parser.isSet(fileOption) || parser.value(fileOption) == QLatin1String("-")) {
        json = in.readAll().toUtf8();
    } else if (QFile f(parser.value(fileOption)); f.open(QIODevice::ReadOnly)) {
        json = f.readAll();
    } else {
        err << "strata-server settings: cannot read " << f.fileName() << ": " << f.errorString() << '\n';
        return 2;
    }
    // Checked and written in the canonical form, so equal values hash alike.
    QByteArray body;
    if (name == core::kRateCardSetting) {
        const core::Result<core::RateCard> card = core::rateCardFromSetting(json);
        body = card ? core::rateCardSettingBody(*card) : QByteArray();
        if (!card) {
            err << "strata-server settings: " << card.error().message << '\n';
            return 2;
        }
    } else {
        const core::Result<QList<core::CacheTargetConfig>> targets =
            core::cacheTargetsFromSetting(json, config ? &config->sources : nullptr);
        if (!targets) {
            err << "strata-server settings: " << targets.error().message << '\n';
            return 2;
        }
        body = core::cacheTargetsSettingBody(*targets);
    }
    qint64 expected = current.revision;
    if (parser.isSet(revisionOption)) {
        bool ok = false;
        expected = parser.value(revisionOption).toLongLong(&ok);
        if (!ok || expected < 0) {
            err << "strata-server settings: --if-revision wants a revision number\n";
            return 2;
        }
    }
    const core::SettingWriter writer{qEnvironmentVariable("USER", QStringLiteral("strata-server")),
                                     QSysInfo::machineHostName() + QLatin1Char('/')
                                         + QString::number(QCoreApplication::applicationPid())};
    const core::Result<core::SharedSetting> written = core::writeSharedSetting(
        store, {name, body, expected, current.configHash, writer, QStringLiteral("strata-server settings set")});
    if (!written) {
        err << "strata-server settings: " << written.error().message << '\n';
        return written.error().kind == core::Error::Kind::Conflict ? 1 : 2;
    }
    out << "strata-server settings: " << core::settingDisplayName(name) << " stored in " << where << " as revision "
        << written->revision << "; running servers apply it within seconds\n";
    return 0;
}

/// `strata-server serve`: the web console until SIGINT/SIGTERM.
int serve(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    using namespace strata;
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "strata-server serve: the Strata web console.\n"
        "Settings come from the options, else the environment (STRATA_CONFIG, STRATA_LISTEN, STRATA_TLS_CERT,\n"
        "STRATA_TLS_KEY, STRATA_USERS, STRATA_PUBLIC_URL, STRATA_ALLOWED_ORIGINS and STRATA_ALLOWED_HOSTS\n"
        "comma-separated), else the config file's \"web\" object (listen, tls_cert, tls_key, users, public_url,\n"
        "allowed_origins, allowed_hosts, max_connections, max_connections_per_client). --demo without --users creates "
        "the users admin, operator\n"
        "and viewer with STRATA_DEMO_PASSWORD, or random passwords printed once. --store (STRATA_STORE, the config's\n"
        "\"store\") puts history, audit log and schedules in PostgreSQL for several replicas; its password comes from\n"
        "STRATA_SECRET_STORE_PASSWORD or $STRATA_SECRETS_DIR/store/password."));
    parser.addHelpOption();
    const QCommandLineOption configOption(
        QStringLiteral("config"), QStringLiteral("Config file."), QStringLiteral("path"));
    const QCommandLineOption demoOption(QStringLiteral("demo"), QStringLiteral("Serve the built-in simulated estate."));
    const QCommandLineOption listenOption(
        QStringLiteral("listen"),
        QStringLiteral("HOST:PORT to listen on (default 127.0.0.1:8080; 8443 with TLS)."),
        QStringLiteral("host:port"));
    const QCommandLineOption certOption(
        QStringLiteral("tls-cert"), QStringLiteral("PEM certificate chain."), QStringLiteral("file"));
    const QCommandLineOption keyOption(
        QStringLiteral("tls-key"), QStringLiteral("PEM private key."), QStringLiteral("file"));
    const QCommandLineOption usersOption(
        QStringLiteral("users"), QStringLiteral("Users file (JSON)."), QStringLiteral("path"));
    const QCommandLineOption publicUrlOption(
        QStringLiteral("public-url"),
        QStringLiteral("The console's address as users open it (https://strata.example.com): exported on /metrics "
                       "as strata_console_info so alerts link to its pages."),
        QStringLiteral("url"));
    const QCommandLineOption originOption(
        QStringLiteral("allow-origin"),
        QStringLiteral("Another origin allowed to use the API and WebSocket (repeatable)."),
        QStringLiteral("url"));
    const QCommandLineOption hostOption(
        QStringLiteral("allow-host"),
        QStringLiteral("Another host name clients reach the server by (repeatable). The listen address, localhost, the "
                       "allowed origins' hosts, the certificate's names and, listening on every address, this "
                       "machine's name are allowed already; other Host headers get 421."),
        QStringLiteral("name"));
    const QCommandLineOption maxConnectionsOption(
        QStringLiteral("max-connections"),
        QStringLiteral("Connections at once, WebSockets included (default 1000; lowered to fit the open-file limit)."),
        QStringLiteral("n"));
    const QCommandLineOption maxPerClientOption(QStringLiteral("max-connections-per-client"),
                                                QStringLiteral("Connections at once from one address (default 64)."),
                                                QStringLiteral("n"));
    const QCommandLineOption trustedProxyOption(
        QStringLiteral("trusted-proxy"),
        QStringLiteral("A reverse proxy in front of the server, an address or a CIDR subnet (repeatable): its "
                       "connections are not held to the per-address limit, and X-Forwarded-For from it names the "
                       "client for login throttling and the audit. X-Forwarded-For from anyone else is ignored."),
        QStringLiteral("address"));
    const QCommandLineOption storeOption(
        QStringLiteral("store"),
        QStringLiteral("History store: postgresql://user@host:port/database, or a SQLite file (default: the config's "
                       "\"store\", else its history path)."),
        QStringLiteral("url"));
    const QCommandLineOption replicaIdOption(
        QStringLiteral("replica-id"),
        QStringLiteral(
            "With a PostgreSQL store: this replica's name among those sharing it (default STRATA_REPLICA_ID, "
            "else <host>/<pid>; in Kubernetes the pod name)."),
        QStringLiteral("name"));
    const QCommandLineOption metricsTokenFileOption(
        QStringLiteral("metrics-token-file"),
        QStringLiteral("A file holding the bearer token /metrics then requires (Authorization: Bearer <token>); or "
                       "the token itself in STRATA_METRICS_TOKEN. Without one /metrics is open to whoever reaches "
                       "the server."),
        QStringLiteral("path"));
    const QCommandLineOption leaseOption(
        QStringLiteral("lease-seconds"),
        QStringLiteral("With a PostgreSQL store: how long a replica's sources stay with it after it stops answering "
                       "(default 10; renewed every third of it)."),
        QStringLiteral("seconds"));
    parser.addOptions({configOption,
                       storeOption,
                       replicaIdOption,
                       leaseOption,
                       demoOption,
                       listenOption,
                       certOption,
                       keyOption,
                       usersOption,
                       publicUrlOption,
                       originOption,
                       hostOption,
                       maxConnectionsOption,
                       maxPerClientOption,
                       trustedProxyOption,
                       metricsTokenFileOption});
    if (!parser.parse(QStringList{QStringLiteral("strata-server serve")} + arguments)) {
        err << "strata-server serve: " << parser.errorText() << '\n';
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << parser.helpText();
        return 0;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "strata-server serve: unexpected argument " << parser.positionalArguments().first() << '\n';
        return 2;
    }

    // Settings: command line, then environment, then the config file's "web" object.
    const bool demoMode = parser.isSet(demoOption);
    core::EnvFileCredentialStore envCredentials;
    core::RuntimeOptions runtimeOptions;
    // With --demo, runtimeOptions.demo is set below, once the store is known: the demo writes
    // its past into that store.
    if (!demoMode) {
        runtimeOptions.configPath = parser.isSet(configOption)
                                        ? parser.value(configOption)
                                        : qEnvironmentVariable("STRATA_CONFIG", core::AppConfig::defaultPath());
        runtimeOptions.credentials = &envCredentials;
    }
    if (const QString given = parser.value(storeOption);
        core::SqlHistoryStore::isPostgresLocation(given) && !QUrl(given).password().isEmpty()) {
        err << "strata-server: a password in --store is visible to every user in the process list: use "
               "STRATA_SECRET_STORE_PASSWORD or $STRATA_SECRETS_DIR/store/password\n";
    }
    if (const core::Result<QString> store =
            storeLocation(parser.value(storeOption), runtimeOptions.configPath, envCredentials);
        store) {
        runtimeOptions.store = *store;
        if (demoMode) { // *store may be empty: the demo's own temporary SQLite file
            strata::demo::DemoEstate::Options demoOptions;
            demoOptions.store = *store;
            runtimeOptions.demo = strata::demo::starter(demoOptions);
        }
    } else {
        err << "strata-server: " << store.error().message << '\n';
        return 2;
    }
    runtimeOptions.user = QStringLiteral("strata-server");
    runtimeOptions.runSchedules = true;
    runtimeOptions.replicaId =
        parser.isSet(replicaIdOption) ? parser.value(replicaIdOption) : qEnvironmentVariable("STRATA_REPLICA_ID");
    // The sources start once the options are checked and the server is about to listen.
    runtimeOptions.startSources = false;
    core::Result<std::unique_ptr<core::Runtime>> built = core::Runtime::build(runtimeOptions);
    if (!built) {
        err << "strata-server: " << (demoMode ? QStringLiteral("the demo estate could not start: ") : QString())
            << built.error().message << '\n';
        return demoMode ? 1 : 2;
    }
    const std::unique_ptr<core::Runtime> runtime = std::move(*built);
    const core::AppConfig &config = runtime->config();
    const QString configPath = runtime->configPath(); ///< empty with --demo: source changes stay in memory
    QJsonObject webConfig;
    if (QFile f(configPath); !configPath.isEmpty() && f.open(QIODevice::ReadOnly)) {
        webConfig = QJsonDocument::fromJson(f.readAll()).object().value(QLatin1String("web")).toObject();
    }
    const auto setting = [&](const QCommandLineOption &option, const char *env, const char *key) {
        if (parser.isSet(option)) {
            return parser.value(option);
        }
        if (qEnvironmentVariableIsSet(env)) {
            return qEnvironmentVariable(env);
        }
        return webConfig.value(QLatin1String(key)).toString();
    };
    web::WebServerOptions options;
    options.configPath = configPath;
    options.tlsCertFile = setting(certOption, "STRATA_TLS_CERT", "tls_cert");
    options.tlsKeyFile = setting(keyOption, "STRATA_TLS_KEY", "tls_key");
    if (options.tlsCertFile.isEmpty() != options.tlsKeyFile.isEmpty()) {
        err << "strata-server: --tls-cert and --tls-key go together\n";
        return 2;
    }
    options.address = QHostAddress::LocalHost;
    options.port = options.tlsCertFile.isEmpty() ? 8080 : 8443;
    const QString listen = setting(listenOption, "STRATA_LISTEN", "listen");
    if (!listen.isEmpty() && !parseListen(listen, &options)) {
        err << "strata-server: --listen wants HOST:PORT, not \"" << listen << "\"\n";
        return 2;
    }
    const QString publicUrl = setting(publicUrlOption, "STRATA_PUBLIC_URL", "public_url");
    if (!publicUrl.isEmpty()) {
        const QUrl url(publicUrl, QUrl::StrictMode);
        const QString scheme = url.scheme();
        if (!url.isValid() || (scheme != QLatin1String("https") && scheme != QLatin1String("http"))
            || url.host().isEmpty() || url.hasQuery() || url.hasFragment()) {
            err << "strata-server: --public-url wants an http(s) URL such as https://strata.example.com, not \""
                << publicUrl << "\"\n";
            return 2;
        }
        options.publicUrl = publicUrl.endsWith(QLatin1Char('/')) ? publicUrl.chopped(1) : publicUrl;
    }
    options.allowedOrigins = parser.values(originOption);
    for (const QString &o :
         qEnvironmentVariable("STRATA_ALLOWED_ORIGINS").split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        options.allowedOrigins << o.trimmed();
    }
    for (const QJsonValue &o : webConfig.value(QLatin1String("allowed_origins")).toArray()) {
        options.allowedOrigins << o.toString();
    }
    options.allowedHosts = parser.values(hostOption);
    for (const QString &h : qEnvironmentVariable("STRATA_ALLOWED_HOSTS").split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        options.allowedHosts << h.trimmed();
    }
    for (const QJsonValue &h : webConfig.value(QLatin1String("allowed_hosts")).toArray()) {
        options.allowedHosts << h.toString();
    }
    QStringList trustedProxies = parser.values(trustedProxyOption);
    for (const QString &p :
         qEnvironmentVariable("STRATA_TRUSTED_PROXIES").split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        trustedProxies << p.trimmed();
    }
    for (const QJsonValue &p : webConfig.value(QLatin1String("trusted_proxies")).toArray()) {
        trustedProxies << p.toString();
    }
    if (const auto proxies = web::parseTrustedProxies(trustedProxies); proxies) {
        options.trustedProxies.append(*proxies);
    } else {
        err << "strata-server: " << proxies.error().message << '\n';
        return 2;
    }
    // The scrape token: from the environment (a Kubernetes Secret) or a file; never printed.
    options.metricsToken = qgetenv("STRATA_METRICS_TOKEN").trimmed();
    if (const QString tokenFile = setting(metricsTokenFileOption, "STRATA_METRICS_TOKEN_FILE", "metrics_token_file");
        options.metricsToken.isEmpty() && !tokenFile.isEmpty()) {
        QFile f(tokenFile);
        if (!f.open(QIODevice::ReadOnly)) {
            err << "strata-server: cannot read the metrics token file " << tokenFile << ": " << f.errorString() << '\n';
            return 2;
        }
        options.metricsToken = f.read(4096).trimmed();
        if (options.metricsToken.isEmpty()) {
            err << "strata-server: the metrics token file " << tokenFile << " is empty\n";
            return 2;
        }
    }
    for (const auto &[option, key, target] :
         {std::tuple{&maxConnectionsOption, "max_connections", &options.maxConnections},
          std::tuple{&maxPerClientOption, "max_connections_per_client", &options.maxConnectionsPerClient}}) {
        if (!parser.isSet(*option) && !webConfig.contains(QLatin1String(key))) {
            continue;
        }
        bool ok = true;
        const int value =
            parser.isSet(*option) ? parser.value(*option).toInt(&ok) : webConfig.value(QLatin1String(key)).toInt(0);
        if (!ok || value < 1) {
            err << "strata-server: --" << option->names().first() << " wants a positive number\n";
            return 2;
        }
        *target = value;
    }
    // Each connection is a descriptor: use what the hard limit allows (systemd's LimitNOFILE,
    // the container runtime's default in Kubernetes).
    const qint64 openFiles = web::raiseOpenFileLimit();
    if (openFiles > 0 && openFiles < 1024) {
        err << "strata-server: only " << openFiles << " open files allowed (ulimit -n): fewer connections fit\n";
    }

    // Users: in the PostgreSQL store the replicas share (web/sharedauth.h), else a file; the demo
    // without one gets admin/operator/viewer (in a throwaway file, or in the store) with
    // STRATA_DEMO_PASSWORD or random passwords printed once.
    const bool usersInStore = core::SqlHistoryStore::isPostgresLocation(runtimeOptions.store);
    options.usersInStore = usersInStore;
    QTemporaryDir demoUsersDir;
    QString usersPath = setting(usersOption, "STRATA_USERS", "users");
    if (usersInStore && !usersPath.isEmpty()) {
        err << "strata-server: the users live in the store "
            << core::SqlHistoryStore::displayLocation(runtimeOptions.store) << ", not in " << usersPath
            << " (import that file once with strata-server migrate --users)\n";
        usersPath.clear();
    }
    const auto addDemoUsers = [&](web::UserStore &demoUsers) {
        const QString shared = qEnvironmentVariable("STRATA_DEMO_PASSWORD");
        for (const auto &[name, role] : {std::pair{QStringLiteral("admin"), web::Role::Admin},
                                         std::pair{QStringLiteral("operator"), web::Role::Operator},
                                         std::pair{QStringLiteral("viewer"), web::Role::Viewer}}) {
            const QString password = shared.isEmpty() ? randomPassword() : shared;
            if (const core::Status added = demoUsers.addUser(name, password, role); !added) {
                err << "strata-server: demo user " << name << ": " << added.error().message << '\n';
                return false;
            }
            if (shared.isEmpty()) {
                out << "demo user " << name << " (" << web::roleName(role) << "), password " << password << '\n';
            }
        }
        return true;
    };
    if (usersPath.isEmpty() && demoMode && !usersInStore) {
        usersPath = demoUsersDir.filePath(QStringLiteral("users.json"));
        web::UserStore demoUsers(usersPath, runtime->engine().clock());
        if (!addDemoUsers(demoUsers)) {
            return 1;
        }
    }
    if (usersPath.isEmpty() && !usersInStore) {
        usersPath = defaultUsersPath();
    }
    // Memory only with the store: the server fills it from there and writes changes back.
    web::UserStore users(usersInStore ? QString() : usersPath, runtime->engine().clock());
    if (const core::Status loaded = users.load(); !loaded) {
        err << "strata-server: users file " << usersPath << ": " << loaded.error().message << '\n';
        return 2;
    }
    if (users.users().isEmpty() && !usersInStore) {
        err << "strata-server: no users in " << usersPath
            << " yet: add one with `strata-server user add NAME --role admin`\n";
    }

    if (!runtime->historyError().isEmpty()) {
        err << "strata-server: history store unavailable: " << runtime->historyError() << '\n';
        // Replicas share their schedules and audit through PostgreSQL: one running without it
        // would act on its own. Exit, so the service manager retries once the database is back.
        if (core::SqlHistoryStore::isPostgresLocation(runtimeOptions.store)) {
            return 1;
        }
    }
    core::Engine &engine = runtime->engine();
    // Replicas on one PostgreSQL store poll each source once between them and share what they
    // poll; a single server on PostgreSQL is a replica set of one.
    std::unique_ptr<core::ReplicaCoordinator> replicas;
    if (core::SqlHistoryStore::isPostgresLocation(runtimeOptions.store) && runtime->history()) {
        core::ReplicaCoordinator::Options replicaOptions;
        replicaOptions.replicaId = runtimeOptions.replicaId;
        if (parser.isSet(leaseOption)) {
            bool ok = false;
            const double seconds = parser.value(leaseOption).toDouble(&ok);
            if (!ok || seconds < 1 || seconds > 3600) {
                err << "strata-server: --lease-seconds wants 1 to 3600, not " << parser.value(leaseOption) << '\n';
                return 2;
            }
            replicaOptions.leaseTime = std::chrono::milliseconds(qint64(seconds * 1000));
            replicaOptions.renewEvery = replicaOptions.leaseTime / 3;
        }
        engine.setLeased(true);
        replicas = std::make_unique<core::ReplicaCoordinator>(engine, *runtime->history(), replicaOptions);
    }
    engine.setSources(config.sources);

    web::WebServer server(engine, users, options);
    if (replicas) {
        server.setReplicaCoordinator(replicas.get());
        replicas->start();
        out << "strata-server: replica " << replicas->replicaId() << " shares its sources through "
            << core::SqlHistoryStore::displayLocation(runtimeOptions.store) << '\n';
    }
    // The rate card and cache targets follow the store: an edit made on any replica (or with
    // `strata-server settings set`) applies here within seconds.
    if (!runtime->settingsError().isEmpty()) {
        err << "strata-server: shared settings unavailable, using the config file's: " << runtime->settingsError()
            << '\n';
    } else if (core::SharedSettings *settings = runtime->settings(); settings && replicas) {
        settings->follow(*replicas);
    } else if (settings) {
        settings->watch();
    }
    if (const core::Status listening = server.listen(); !listening) {
        err << "strata-server: " << listening.error().message << '\n';
        return 1;
    }
    if (usersInStore && demoMode && !addDemoUsers(users)) {
        return 1;
    }
    if (usersInStore && users.users().isEmpty()) {
        err << "strata-server: no users in the store yet: add one with `strata-server user add NAME --role admin "
               "--store URL`\n";
    }
    // The support-center sentiment dashboards (TR-4910), when the config names the bucket.
    std::unique_ptr<core::SentimentService> sentiment;
    if (config.sentiment) {
        sentiment = std::make_unique<core::SentimentService>(engine, *config.sentiment);
        web::registerSentimentRoutes(server, *sentiment);
        sentiment->start();
    }
    out << "strata-server: serving the web console on " << server.url().toString() << '\n';
    out.flush();
    err.flush();

    // SIGTERM (systemd, Kubernetes) and SIGINT end the event loop so the history store is
    // flushed; the handler only writes to a pipe (async-signal-safe).
    static int signalPipe[2] = {-1, -1};
    if (::pipe(signalPipe) == 0) {
        for (const int sig : {SIGINT, SIGTERM}) {
            std::signal(sig, [](int) {
                const char c = 1;
                [[maybe_unused]] const auto n = ::write(signalPipe[1], &c, 1);
            });
        }
    }
    QSocketNotifier stop(signalPipe[0], QSocketNotifier::Read);
    stop.setEnabled(signalPipe[0] >= 0);
    QObject::connect(&stop, &QSocketNotifier::activated, QCoreApplication::instance(), &QCoreApplication::quit);
    return QCoreApplication::exec();
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
        int timeoutSeconds = 60;
        if (const qsizetype at = arguments.indexOf(QStringLiteral("--timeout")); at >= 0) {
            bool ok = false;
            timeoutSeconds = arguments.value(at + 1).toInt(&ok);
            if (!ok || timeoutSeconds <= 0) {
                err << "strata-server: --timeout needs a positive number of seconds\n";
                return 2;
            }
        }
        return selfTest(timeoutSeconds, out, err);
    }
    if (!arguments.isEmpty() && arguments.first() == QLatin1String("serve")) {
        return serve(arguments.mid(1), out, err);
    }
    if (!arguments.isEmpty() && arguments.first() == QLatin1String("migrate")) {
        const int code = migrate(arguments.mid(1), out, err);
        out.flush();
        err.flush();
        return code;
    }
    if (!arguments.isEmpty() && arguments.first() == QLatin1String("settings")) {
        QTextStream in(stdin);
        const int code = settingsCommand(arguments.mid(1), in, out, err);
        out.flush();
        err.flush();
        return code;
    }
    if (!arguments.isEmpty() && arguments.first() == QLatin1String("user")) {
        QTextStream in(stdin);
        const int code = userCommand(arguments.mid(1), in, out, err);
        out.flush();
        err.flush();
        return code;
    }
    if (!strata::cli::isCommand(arguments)) {
        err << "usage: strata-server serve [--config PATH | --demo] [--listen HOST:PORT] [--tls-cert FILE --tls-key "
               "FILE]\n"
               "                          [--users PATH] [--allow-origin URL]...\n"
               "       strata-server migrate --from-sqlite PATH --to postgresql://user@host:port/database\n"
               "       strata-server user add NAME --role viewer|operator|admin | user remove NAME | user list "
               "[--users PATH]\n"
               "       strata-server settings get|set rate-card|cache-targets [--file F] [--store URL]\n"
               "       strata-server [--config PATH | --demo] get RESOURCE [--source NAME] [-o table|json|csv]\n"
               "       strata-server --self-test [--timeout SECONDS]\n"
               "Secrets come from STRATA_SECRET_<SOURCE>_PASSWORD or $STRATA_SECRETS_DIR/<source>/password.\n";
        return 2;
    }
    strata::core::EnvFileCredentialStore credentials;
    const QString user = qEnvironmentVariable("USER", QStringLiteral("strata-server"));
    strata::cli::RunHooks hooks;
    hooks.answered = [&out, &err](int exitCode) {
        strata::cli::armExitWatchdog(exitCode, kTeardownGraceSeconds, QStringLiteral("strata-server"), out, err);
    };
    hooks.startDemo = strata::demo::startScopedForCommand;
    const int code = strata::cli::run(
        arguments, credentials, strata::cli::Console{QStringLiteral("strata-server"), user, out, err}, hooks);
    out.flush();
    err.flush();
    return code;
}
