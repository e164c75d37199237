#include "app/server/serve.h"

#include "web/auth.h"
#include "web/httpguard.h"
#include "web/sentimentroutes.h"

#include "app/server/serversetup.h"
#include "demo/demoestate.h"
#include "models/core/runtime/engine.h"
#include "models/core/runtime/replicas.h"
#include "models/core/runtime/sentimentservice.h"
#include "models/core/runtime/sharedsettings.h"
#include "models/core/store/historystore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSocketNotifier>
#include <QUrl>

#include <csignal>
#include <tuple>
#include <unistd.h>

namespace strata::server {

struct ServeCommand::CommandLine
{
    CommandLine()
    {
        parser.setApplicationDescription(QStringLiteral(
            "strata-server serve: the Strata web console.\n"
            "Settings come from the options, else the environment (STRATA_CONFIG, STRATA_LISTEN, STRATA_TLS_CERT,\n"
            "STRATA_TLS_KEY, STRATA_USERS, STRATA_PUBLIC_URL, STRATA_ALLOWED_ORIGINS and STRATA_ALLOWED_HOSTS\n"
            "comma-separated), else the config file's \"web\" object (listen, tls_cert, tls_key, users, public_url,\n"
            "allowed_origins, allowed_hosts, max_connections, max_connections_per_client). --demo without --users "
            "creates "
            "the users admin, operator\n"
            "and viewer with STRATA_DEMO_PASSWORD, or random passwords printed once. --store (STRATA_STORE, the "
            "config's\n"
            "\"store\") puts history, audit log and schedules in PostgreSQL for several replicas; its password comes "
            "from\n"
            "STRATA_SECRET_STORE_PASSWORD or $STRATA_SECRETS_DIR/store/password."));
        parser.addHelpOption();
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
    }

    QCommandLineParser parser;
    const QCommandLineOption configOption{
        QStringLiteral("config"), QStringLiteral("Config file."), QStringLiteral("path")};
    const QCommandLineOption demoOption{QStringLiteral("demo"), QStringLiteral("Serve the built-in simulated estate.")};
    const QCommandLineOption listenOption{
        QStringLiteral("listen"),
        QStringLiteral("HOST:PORT to listen on (default 127.0.0.1:8080; 8443 with TLS)."),
        QStringLiteral("host:port")};
    const QCommandLineOption certOption{
        QStringLiteral("tls-cert"), QStringLiteral("PEM certificate chain."), QStringLiteral("file")};
    const QCommandLineOption keyOption{
        QStringLiteral("tls-key"), QStringLiteral("PEM private key."), QStringLiteral("file")};
    const QCommandLineOption usersOption{
        QStringLiteral("users"), QStringLiteral("Users file (JSON)."), QStringLiteral("path")};
    const QCommandLineOption publicUrlOption{
        QStringLiteral("public-url"),
        QStringLiteral("The console's address as users open it (https://strata.example.com): exported on /metrics "
                       "as strata_console_info so alerts link to its pages."),
        QStringLiteral("url")};
    const QCommandLineOption originOption{
        QStringLiteral("allow-origin"),
        QStringLiteral("Another origin allowed to use the API and WebSocket (repeatable)."),
        QStringLiteral("url")};
    const QCommandLineOption hostOption{
        QStringLiteral("allow-host"),
        QStringLiteral("Another host name clients reach the server by (repeatable). The listen address, localhost, the "
                       "allowed origins' hosts, the certificate's names and, listening on every address, this "
                       "machine's name are allowed already; other Host headers get 421."),
        QStringLiteral("name")};
    const QCommandLineOption maxConnectionsOption{
        QStringLiteral("max-connections"),
        QStringLiteral("Connections at once, WebSockets included (default 1000; lowered to fit the open-file limit)."),
        QStringLiteral("n")};
    const QCommandLineOption maxPerClientOption{QStringLiteral("max-connections-per-client"),
                                                QStringLiteral("Connections at once from one address (default 64)."),
                                                QStringLiteral("n")};
    const QCommandLineOption trustedProxyOption{
        QStringLiteral("trusted-proxy"),
        QStringLiteral("A reverse proxy in front of the server, an address or a CIDR subnet (repeatable): its "
                       "connections are not held to the per-address limit, and X-Forwarded-For from it names the "
                       "client for login throttling and the audit. X-Forwarded-For from anyone else is ignored."),
        QStringLiteral("address")};
    const QCommandLineOption storeOption{
        QStringLiteral("store"),
        QStringLiteral("History store: postgresql://user@host:port/database, or a SQLite file (default: the config's "
                       "\"store\", else its history path)."),
        QStringLiteral("url")};
    const QCommandLineOption replicaIdOption{
        QStringLiteral("replica-id"),
        QStringLiteral(
            "With a PostgreSQL store: this replica's name among those sharing it (default STRATA_REPLICA_ID, "
            "else <host>/<pid>; in Kubernetes the pod name)."),
        QStringLiteral("name")};
    const QCommandLineOption metricsTokenFileOption{
        QStringLiteral("metrics-token-file"),
        QStringLiteral("A file holding the bearer token /metrics then requires (Authorization: Bearer <token>); or "
                       "the token itself in STRATA_METRICS_TOKEN. Without one /metrics is open to whoever reaches "
                       "the server."),
        QStringLiteral("path")};
    const QCommandLineOption leaseOption{
        QStringLiteral("lease-seconds"),
        QStringLiteral("With a PostgreSQL store: how long a replica's sources stay with it after it stops answering "
                       "(default 10; renewed every third of it)."),
        QStringLiteral("seconds")};
};

ServeCommand::ServeCommand(QTextStream &out, QTextStream &err)
    : m_out(out)
    , m_err(err)
    , m_cli(std::make_unique<CommandLine>())
{}

ServeCommand::~ServeCommand() = default;

int ServeCommand::run(const QStringList &arguments)
{
    if (const std::optional<int> code = parse(arguments)) {
        return *code;
    }
    for (const auto step : {&ServeCommand::buildRuntime,
                            &ServeCommand::readWebOptions,
                            &ServeCommand::readConnectionLimits,
                            &ServeCommand::loadUsers,
                            &ServeCommand::startReplicas,
                            &ServeCommand::startServer}) {
        if (const std::optional<int> code = (this->*step)()) {
            return *code;
        }
    }
    startSentiment();
    return waitForSignal();
}

std::optional<int> ServeCommand::parse(const QStringList &arguments)
{
    if (!m_cli->parser.parse(QStringList{QStringLiteral("strata-server serve")} + arguments)) {
        m_err << "strata-server serve: " << m_cli->parser.errorText() << '\n';
        return 2;
    }
    if (m_cli->parser.isSet(QStringLiteral("help"))) {
        m_out << m_cli->parser.helpText();
        return 0;
    }
    if (!m_cli->parser.positionalArguments().isEmpty()) {
        m_err << "strata-server serve: unexpected argument " << m_cli->parser.positionalArguments().first() << '\n';
        return 2;
    }
    return std::nullopt;
}

std::optional<int> ServeCommand::buildRuntime()
{
    m_demo = m_cli->parser.isSet(m_cli->demoOption);
    // With --demo, the runtime's demo is set below, once the store is known: the demo writes
    // its past into that store.
    if (!m_demo) {
        m_runtimeOptions.configPath = m_cli->parser.isSet(m_cli->configOption)
                                          ? m_cli->parser.value(m_cli->configOption)
                                          : qEnvironmentVariable("STRATA_CONFIG", core::AppConfig::defaultPath());
        m_runtimeOptions.credentials = &m_envCredentials;
    }
    if (const QString given = m_cli->parser.value(m_cli->storeOption);
        core::SqlHistoryStore::isPostgresLocation(given) && !QUrl(given).password().isEmpty()) {
        m_err << "strata-server: a password in --store is visible to every user in the process list: use "
                 "STRATA_SECRET_STORE_PASSWORD or $STRATA_SECRETS_DIR/store/password\n";
    }
    if (const core::Result<QString> store =
            storeLocation(m_cli->parser.value(m_cli->storeOption), m_runtimeOptions.configPath, m_envCredentials);
        store) {
        m_runtimeOptions.store = *store;
        if (m_demo) { // *store may be empty: the demo's own temporary SQLite file
            strata::demo::DemoEstate::Options demoOptions;
            demoOptions.store = *store;
            m_runtimeOptions.demo = strata::demo::starter(demoOptions);
        }
    } else {
        m_err << "strata-server: " << store.error().message << '\n';
        return 2;
    }
    m_runtimeOptions.user = QStringLiteral("strata-server");
    m_runtimeOptions.runSchedules = true;
    m_runtimeOptions.replicaId = m_cli->parser.isSet(m_cli->replicaIdOption)
                                     ? m_cli->parser.value(m_cli->replicaIdOption)
                                     : qEnvironmentVariable("STRATA_REPLICA_ID");
    // The sources start once the options are checked and the server is about to listen.
    m_runtimeOptions.startSources = false;
    core::Result<std::unique_ptr<core::Runtime>> built = core::Runtime::build(m_runtimeOptions);
    if (!built) {
        m_err << "strata-server: " << (m_demo ? QStringLiteral("the demo estate could not start: ") : QString())
              << built.error().message << '\n';
        return m_demo ? 1 : 2;
    }
    m_runtime = std::move(*built);
    return std::nullopt;
}

QString ServeCommand::setting(const QCommandLineOption &option, const char *env, const char *key) const
{
    if (m_cli->parser.isSet(option)) {
        return m_cli->parser.value(option);
    }
    if (qEnvironmentVariableIsSet(env)) {
        return qEnvironmentVariable(env);
    }
    return m_webConfig.value(QLatin1String(key)).toString();
}

// Settings: command line, then environment, then the config file's "web" object.
std::optional<int> ServeCommand::readWebOptions()
{
    const QString configPath = m_runtime->configPath(); ///< empty with --demo: source changes stay in memory
    if (QFile f(configPath); !configPath.isEmpty() && f.open(QIODevice::ReadOnly)) {
        m_webConfig = QJsonDocument::fromJson(f.readAll()).object().value(QLatin1String("web")).toObject();
    }
    m_options.configPath = configPath;
    m_options.tlsCertFile = setting(m_cli->certOption, "STRATA_TLS_CERT", "tls_cert");
    m_options.tlsKeyFile = setting(m_cli->keyOption, "STRATA_TLS_KEY", "tls_key");
    if (m_options.tlsCertFile.isEmpty() != m_options.tlsKeyFile.isEmpty()) {
        m_err << "strata-server: --tls-cert and --tls-key go together\n";
        return 2;
    }
    m_options.address = QHostAddress::LocalHost;
    m_options.port = m_options.tlsCertFile.isEmpty() ? 8080 : 8443;
    const QString listen = setting(m_cli->listenOption, "STRATA_LISTEN", "listen");
    if (!listen.isEmpty() && !parseListen(listen, &m_options)) {
        m_err << "strata-server: --listen wants HOST:PORT, not \"" << listen << "\"\n";
        return 2;
    }
    const QString publicUrl = setting(m_cli->publicUrlOption, "STRATA_PUBLIC_URL", "public_url");
    if (!publicUrl.isEmpty()) {
        const QUrl url(publicUrl, QUrl::StrictMode);
        const QString scheme = url.scheme();
        if (!url.isValid() || (scheme != QLatin1String("https") && scheme != QLatin1String("http"))
            || url.host().isEmpty() || url.hasQuery() || url.hasFragment()) {
            m_err << "strata-server: --public-url wants an http(s) URL such as https://strata.example.com, not \""
                  << publicUrl << "\"\n";
            return 2;
        }
        m_options.publicUrl = publicUrl.endsWith(QLatin1Char('/')) ? publicUrl.chopped(1) : publicUrl;
    }
    m_options.allowedOrigins = m_cli->parser.values(m_cli->originOption);
    for (const QString &o :
         qEnvironmentVariable("STRATA_ALLOWED_ORIGINS").split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        m_options.allowedOrigins << o.trimmed();
    }
    for (const QJsonValue &o : m_webConfig.value(QLatin1String("allowed_origins")).toArray()) {
        m_options.allowedOrigins << o.toString();
    }
    m_options.allowedHosts = m_cli->parser.values(m_cli->hostOption);
    for (const QString &h : qEnvironmentVariable("STRATA_ALLOWED_HOSTS").split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        m_options.allowedHosts << h.trimmed();
    }
    for (const QJsonValue &h : m_webConfig.value(QLatin1String("allowed_hosts")).toArray()) {
        m_options.allowedHosts << h.toString();
    }
    QStringList trustedProxies = m_cli->parser.values(m_cli->trustedProxyOption);
    for (const QString &p :
         qEnvironmentVariable("STRATA_TRUSTED_PROXIES").split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        trustedProxies << p.trimmed();
    }
    for (const QJsonValue &p : m_webConfig.value(QLatin1String("trusted_proxies")).toArray()) {
        trustedProxies << p.toString();
    }
    if (const auto proxies = web::parseTrustedProxies(trustedProxies); proxies) {
        m_options.trustedProxies.append(*proxies);
    } else {
        m_err << "strata-server: " << proxies.error().message << '\n';
        return 2;
    }
    // The scrape token: from the environment (a Kubernetes Secret) or a file; never printed.
    m_options.metricsToken = qgetenv("STRATA_METRICS_TOKEN").trimmed();
    if (const QString tokenFile =
            setting(m_cli->metricsTokenFileOption, "STRATA_METRICS_TOKEN_FILE", "metrics_token_file");
        m_options.metricsToken.isEmpty() && !tokenFile.isEmpty()) {
        QFile f(tokenFile);
        if (!f.open(QIODevice::ReadOnly)) {
            m_err << "strata-server: cannot read the metrics token file " << tokenFile << ": " << f.errorString()
                  << '\n';
            return 2;
        }
        m_options.metricsToken = f.read(4096).trimmed();
        if (m_options.metricsToken.isEmpty()) {
            m_err << "strata-server: the metrics token file " << tokenFile << " is empty\n";
            return 2;
        }
    }
    return std::nullopt;
}

std::optional<int> ServeCommand::readConnectionLimits()
{
    for (const auto &[option, key, target] :
         {std::tuple{&m_cli->maxConnectionsOption, "max_connections", &m_options.maxConnections},
          std::tuple{&m_cli->maxPerClientOption, "max_connections_per_client", &m_options.maxConnectionsPerClient}}) {
        if (!m_cli->parser.isSet(*option) && !m_webConfig.contains(QLatin1String(key))) {
            continue;
        }
        bool ok = true;
        const int value = m_cli->parser.isSet(*option) ? m_cli->parser.value(*option).toInt(&ok)
                                                       : m_webConfig.value(QLatin1String(key)).toInt(0);
        if (!ok || value < 1) {
            m_err << "strata-server: --" << option->names().first() << " wants a positive number\n";
            return 2;
        }
        *target = value;
    }
    // Each connection is a descriptor: use what the hard limit allows (systemd's LimitNOFILE,
    // the container runtime's default in Kubernetes).
    const qint64 openFiles = web::raiseOpenFileLimit();
    if (openFiles > 0 && openFiles < 1024) {
        m_err << "strata-server: only " << openFiles << " open files allowed (ulimit -n): fewer connections fit\n";
    }
    return std::nullopt;
}

bool ServeCommand::addDemoUsers(web::UserStore &demoUsers)
{
    const QString shared = qEnvironmentVariable("STRATA_DEMO_PASSWORD");
    for (const auto &[name, role] : {std::pair{QStringLiteral("admin"), web::Role::Admin},
                                     std::pair{QStringLiteral("operator"), web::Role::Operator},
                                     std::pair{QStringLiteral("viewer"), web::Role::Viewer}}) {
        const QString password = shared.isEmpty() ? randomPassword() : shared;
        if (const core::Status added = demoUsers.addUser(name, password, role); !added) {
            m_err << "strata-server: demo user " << name << ": " << added.error().message << '\n';
            return false;
        }
        if (shared.isEmpty()) {
            m_out << "demo user " << name << " (" << web::roleName(role) << "), password " << password << '\n';
        }
    }
    return true;
}

std::optional<int> ServeCommand::loadUsers()
{
    // Users: in the PostgreSQL store the replicas share (web/sharedauth.h), else a file; the demo
    // without one gets admin/operator/viewer (in a throwaway file, or in the store) with
    // STRATA_DEMO_PASSWORD or random passwords printed once.
    const bool usersInStore = core::SqlHistoryStore::isPostgresLocation(m_runtimeOptions.store);
    m_options.usersInStore = usersInStore;
    m_usersPath = setting(m_cli->usersOption, "STRATA_USERS", "users");
    if (usersInStore && !m_usersPath.isEmpty()) {
        m_err << "strata-server: the users live in the store "
              << core::SqlHistoryStore::displayLocation(m_runtimeOptions.store) << ", not in " << m_usersPath
              << " (import that file once with strata-server migrate --users)\n";
        m_usersPath.clear();
    }
    if (m_usersPath.isEmpty() && m_demo && !usersInStore) {
        m_usersPath = m_demoUsersDir.filePath(QStringLiteral("users.json"));
        web::UserStore demoUsers(m_usersPath, m_runtime->engine().clock());
        if (!addDemoUsers(demoUsers)) {
            return 1;
        }
    }
    if (m_usersPath.isEmpty() && !usersInStore) {
        m_usersPath = defaultUsersPath();
    }
    // Memory only with the store: the server fills it from there and writes changes back.
    m_users = std::make_unique<web::UserStore>(usersInStore ? QString() : m_usersPath, m_runtime->engine().clock());
    if (const core::Status loaded = m_users->load(); !loaded) {
        m_err << "strata-server: users file " << m_usersPath << ": " << loaded.error().message << '\n';
        return 2;
    }
    if (m_users->users().isEmpty() && !usersInStore) {
        m_err << "strata-server: no users in " << m_usersPath
              << " yet: add one with `strata-server user add NAME --role admin`\n";
    }
    return std::nullopt;
}

std::optional<int> ServeCommand::startReplicas()
{
    if (!m_runtime->historyError().isEmpty()) {
        m_err << "strata-server: history store unavailable: " << m_runtime->historyError() << '\n';
        // Replicas share their schedules and audit through PostgreSQL: one running without it
        // would act on its own. Exit, so the service manager retries once the database is back.
        if (core::SqlHistoryStore::isPostgresLocation(m_runtimeOptions.store)) {
            return 1;
        }
    }
    core::Engine &engine = m_runtime->engine();
    // Replicas on one PostgreSQL store poll each source once between them and share what they
    // poll; a single server on PostgreSQL is a replica set of one.
    if (core::SqlHistoryStore::isPostgresLocation(m_runtimeOptions.store) && m_runtime->history()) {
        core::ReplicaCoordinator::Options replicaOptions;
        replicaOptions.replicaId = m_runtimeOptions.replicaId;
        if (m_cli->parser.isSet(m_cli->leaseOption)) {
            bool ok = false;
            const double seconds = m_cli->parser.value(m_cli->leaseOption).toDouble(&ok);
            if (!ok || seconds < 1 || seconds > 3600) {
                m_err << "strata-server: --lease-seconds wants 1 to 3600, not "
                      << m_cli->parser.value(m_cli->leaseOption) << '\n';
                return 2;
            }
            replicaOptions.leaseTime = std::chrono::milliseconds(qint64(seconds * 1000));
            replicaOptions.renewEvery = replicaOptions.leaseTime / 3;
        }
        engine.setLeased(true);
        m_replicas = std::make_unique<core::ReplicaCoordinator>(engine, *m_runtime->history(), replicaOptions);
    }
    engine.setSources(m_runtime->config().sources);
    return std::nullopt;
}

std::optional<int> ServeCommand::startServer()
{
    m_server = std::make_unique<web::WebServer>(m_runtime->engine(), *m_users, m_options);
    if (m_replicas) {
        m_server->setReplicaCoordinator(m_replicas.get());
        m_replicas->start();
        m_out << "strata-server: replica " << m_replicas->replicaId() << " shares its sources through "
              << core::SqlHistoryStore::displayLocation(m_runtimeOptions.store) << '\n';
    }
    // The rate card and cache targets follow the store: an edit made on any replica (or with
    // `strata-server settings set`) applies here within seconds.
    if (!m_runtime->settingsError().isEmpty()) {
        m_err << "strata-server: shared settings unavailable, using the config file's: " << m_runtime->settingsError()
              << '\n';
    } else if (core::SharedSettings *settings = m_runtime->settings(); settings && m_replicas) {
        settings->follow(*m_replicas);
    } else if (settings) {
        settings->watch();
    }
    if (const core::Status listening = m_server->listen(); !listening) {
        m_err << "strata-server: " << listening.error().message << '\n';
        return 1;
    }
    if (m_options.usersInStore && m_demo && !addDemoUsers(*m_users)) {
        return 1;
    }
    if (m_options.usersInStore && m_users->users().isEmpty()) {
        m_err << "strata-server: no users in the store yet: add one with `strata-server user add NAME --role admin "
                 "--store URL`\n";
    }
    return std::nullopt;
}

void ServeCommand::startSentiment()
{
    // The support-center sentiment dashboards (TR-4910), when the config names the bucket.
    if (const core::AppConfig &config = m_runtime->config(); config.sentiment) {
        m_sentiment = std::make_unique<core::SentimentService>(m_runtime->engine(), *config.sentiment);
        web::registerSentimentRoutes(*m_server, *m_sentiment);
        m_sentiment->start();
    }
    m_out << "strata-server: serving the web console on " << m_server->url().toString() << '\n';
    m_out.flush();
    m_err.flush();
}

int ServeCommand::waitForSignal()
{
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

} // namespace strata::server
