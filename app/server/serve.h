#pragma once

#include "web/webserver.h"

#include "models/core/runtime/runtime.h"
#include "models/core/store/credentialstore.h"

#include <QJsonObject>
#include <QStringList>
#include <QTemporaryDir>
#include <QTextStream>

#include <memory>
#include <optional>

class QCommandLineOption;

namespace strata::core {
class ReplicaCoordinator;
class SentimentService;
} // namespace strata::core
namespace strata::web {
class UserStore;
}

namespace strata::server {

/// `strata-server serve`: the web console until SIGINT/SIGTERM. run() reads the options, then
/// composes the server from its parts, each step in its own function and in this order: the
/// runtime (store, demo estate, engine), the web server's options (command line, then the
/// environment, then the config's "web" object), the users (a file, or the PostgreSQL store the
/// replicas share), the replica coordinator, the web server with the shared settings, and the
/// sentiment dashboards. A step that cannot go on says why on `err` and ends run() with the
/// exit code: 2 for options, files or settings the user must fix, 1 for a part that failed to
/// start (the service manager retries). The parts are members, so they live as long as the
/// server and are torn down in the reverse order.
class ServeCommand
{
public:
    ServeCommand(QTextStream &out, QTextStream &err);
    ~ServeCommand();
    ServeCommand(const ServeCommand &) = delete;
    ServeCommand &operator=(const ServeCommand &) = delete;

    /// `arguments`: what follows "serve". The exit code: 0 after SIGINT/SIGTERM or --help.
    int run(const QStringList &arguments);

private:
    struct CommandLine;
    // Each step: nullopt to go on, else the exit code.
    std::optional<int> parse(const QStringList &arguments);
    std::optional<int> buildRuntime();
    std::optional<int> readWebOptions();
    std::optional<int> readConnectionLimits();
    std::optional<int> loadUsers();
    std::optional<int> startReplicas();
    std::optional<int> startServer();
    void startSentiment();
    int waitForSignal();

    /// The command line's `option`, else the environment's `env`, else the config's "web"."key".
    [[nodiscard]] QString setting(const QCommandLineOption &option, const char *env, const char *key) const;
    bool addDemoUsers(web::UserStore &users);

    QTextStream &m_out;
    QTextStream &m_err;
    std::unique_ptr<CommandLine> m_cli;
    bool m_demo = false;
    core::EnvFileCredentialStore m_envCredentials;
    core::RuntimeOptions m_runtimeOptions;
    std::unique_ptr<core::Runtime> m_runtime;
    QJsonObject m_webConfig;
    web::WebServerOptions m_options;
    QTemporaryDir m_demoUsersDir;
    QString m_usersPath;
    std::unique_ptr<web::UserStore> m_users;
    std::unique_ptr<core::ReplicaCoordinator> m_replicas;
    std::unique_ptr<web::WebServer> m_server;
    std::unique_ptr<core::SentimentService> m_sentiment;
};

} // namespace strata::server
