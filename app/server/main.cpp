// strata-server: the headless entry point. `serve` runs the web console (the engine, its history
// store and schedules, and the WebServer); `user` manages the console's users, `settings` the rate
// card and cache targets the replicas share; the CLI verbs run with secrets from the environment or
// mounted files instead of a desktop keychain; and a self-test proves a host can run Strata without
// a display.

#include "web/auth.h"
#include "web/webserver.h"

#include "app/cli/cli.h"
#include "app/server/serve.h"
#include "app/server/serversetup.h"
#include "demo/demoestate.h"
#include "models/core/domain/clock.h"
#include "models/core/runtime/engine.h"
#include "models/core/runtime/runtime.h"
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
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>
#include <QUrl>

#include <cstdio>

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
    const core::Result<QString> target = server::withStorePassword(to, credentials);
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
    const core::Result<QString> location = server::storeLocation(storeOption, configPath, credentials);
    if (!location) {
        err << "strata-server user: " << location.error().message << '\n';
        return 2;
    }
    core::SystemClock clock;
    if (!core::SqlHistoryStore::isPostgresLocation(*location)) {
        return web::runUserCommand(arguments, server::defaultUsersPath(), in, out, err, clock);
    }
    core::SqlHistoryStore store(*location, clock);
    if (const core::Status opened = store.open(); !opened) {
        err << "strata-server user: " << opened.error().message << '\n';
        return 1;
    }
    return web::runUserCommand(arguments, server::defaultUsersPath(), in, out, err, clock, 600000, &store);
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
    core::Result<QString> location = server::storeLocation(parser.value(storeOption), configPath, credentials);
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
        return strata::server::ServeCommand(out, err).run(arguments.mid(1));
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
