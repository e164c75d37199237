#include "web/webserver.h"

#include "web/api.h"
#include "web/controllers.h"
#include "web/httpguard.h"
#include "web/router.h"
#include "web/servercontext.h"

#include "models/core/runtime/engine.h"
#include "models/rows/resources.h"

#include <QFile>
#include <QHostInfo>
#include <QHttpServerRequest>
#include <QSslCertificate>
#include <QSslCipher>
#include <QSslConfiguration>
#include <QSslKey>
#include <QTcpServer>

#include <algorithm>

namespace strata::web {

QList<QSslCipher> intermediateTlsCiphers()
{
    // Mozilla's "intermediate" configuration (version 5.7): forward-secret key exchange with an
    // AEAD cipher only; no RSA key exchange, no CBC, no SHA-1. TLS 1.3 keeps its three suites.
    static const char *const kNames[] = {
        "TLS_AES_128_GCM_SHA256",
        "TLS_AES_256_GCM_SHA384",
        "TLS_CHACHA20_POLY1305_SHA256",
        "ECDHE-ECDSA-AES128-GCM-SHA256",
        "ECDHE-RSA-AES128-GCM-SHA256",
        "ECDHE-ECDSA-AES256-GCM-SHA384",
        "ECDHE-RSA-AES256-GCM-SHA384",
        "ECDHE-ECDSA-CHACHA20-POLY1305",
        "ECDHE-RSA-CHACHA20-POLY1305",
        "DHE-RSA-AES128-GCM-SHA256",
        "DHE-RSA-AES256-GCM-SHA384",
        "DHE-RSA-CHACHA20-POLY1305",
    };
    QList<QSslCipher> ciphers;
    for (const char *name : kNames) {
        const QSslCipher cipher(QString::fromLatin1(name));
        if (!cipher.isNull()) {
            ciphers << cipher;
        }
    }
    return ciphers;
}

// The controllers (web/controllers.h) share the state; this file only wires them up.
struct WebServer::Private : ServerContext
{
    using ServerContext::ServerContext;
};

WebServer::WebServer(core::Engine &engine, UserStore &users, WebServerOptions options, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>(this, engine, users, std::move(options)))
{
    Router router(*d);
    registerSiteRoutes(router);
    registerSessionRoutes(router);
    registerUserRoutes(router);
    registerSourceRoutes(router);
    registerHistoryRoutes(router);
    registerChargebackRoutes(router);
    registerJobRoutes(router);
    registerSupportRoutes(router);
    registerActionRoutes(router);
    d->live.registerRoutes(router);
    registerResourceRoutes(router); // GET /api/v1/<resource> last: it matches any one segment
    // Every resource `strata get` lists from the estate is live; schedules change only through
    // actions and are re-read over HTTP. Estate lists follow the estate's keyed diffs; the rest
    // (derived rows) are re-read when what they show changes.
    for (const QString &resource : rows::resourceNames()) {
        if (resource == QLatin1String("schedules") || d->feed.addEstateResource(resource)) {
            continue;
        }
        // The timeline can hold 50,000 entries: the feed carries the newest, pages read the rest.
        rows::ResourceFilter all;
        all.limit = resource == QLatin1String("events") ? 2000 : 0;
        d->feed.addResource(resource, [this, resource, all] {
            const auto rows = rows::resourceRows(d->engine, resource, all, d->engine.clock().now());
            return rows ? keyedRows(resource, *rows) : QJsonArray();
        });
    }
}

WebServer::~WebServer() = default;

core::Status WebServer::listen()
{
    const auto fail = [](const QString &why) -> core::Status {
        return core::fail(why);
    };
    if (d->options.usersInStore) {
        // Users and sessions come from the store before the first request is answered.
        const core::Status loaded =
            d->shared ? d->shared->start()
                      : core::Status(
                          core::fail(QStringLiteral("users in the store need a history store, and there is none")));
        if (!loaded) {
            return loaded;
        }
    }
    // The names the Host header may carry (besides IP literals and localhost).
    d->hostNames.clear();
    const auto addHostName = [this](QString name) {
        name = name.trimmed().toLower();
        while (name.endsWith(QLatin1Char('.'))) {
            name.chop(1);
        }
        if (!name.isEmpty() && !d->hostNames.contains(name)) {
            d->hostNames << name;
        }
    };
    for (const QString &host : std::as_const(d->options.allowedHosts)) {
        addHostName(host);
    }
    for (const QString &origin : std::as_const(d->options.allowedOrigins)) {
        addHostName(QUrl(origin.trimmed()).host());
    }
    const QHostAddress listenAddress = d->options.address;
    if (listenAddress == QHostAddress::Any || listenAddress == QHostAddress::AnyIPv4
        || listenAddress == QHostAddress::AnyIPv6) {
        const QString machine = QHostInfo::localHostName();
        addHostName(machine);
        if (!QHostInfo::localDomainName().isEmpty()) {
            addHostName(machine + QLatin1Char('.') + QHostInfo::localDomainName());
        }
    }
    std::optional<QSslConfiguration> tlsConfig;
    if (d->tls()) {
        QFile certFile(d->options.tlsCertFile);
        QFile keyFile(d->options.tlsKeyFile);
        if (!certFile.open(QIODevice::ReadOnly)) {
            return fail(QStringLiteral("cannot read the TLS certificate %1: %2")
                            .arg(d->options.tlsCertFile, certFile.errorString()));
        }
        if (!keyFile.open(QIODevice::ReadOnly)) {
            return fail(
                QStringLiteral("cannot read the TLS key %1: %2").arg(d->options.tlsKeyFile, keyFile.errorString()));
        }
        const QList<QSslCertificate> chain = QSslCertificate::fromData(certFile.readAll(), QSsl::Pem);
        const QByteArray keyPem = keyFile.readAll();
        QSslKey key(keyPem, QSsl::Rsa, QSsl::Pem);
        if (key.isNull()) {
            key = QSslKey(keyPem, QSsl::Ec, QSsl::Pem);
        }
        if (chain.isEmpty() || chain.first().isNull()) {
            return fail(QStringLiteral("%1 holds no PEM certificate").arg(d->options.tlsCertFile));
        }
        if (key.isNull()) {
            return fail(QStringLiteral("%1 holds no PEM RSA or EC private key").arg(d->options.tlsKeyFile));
        }
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        config.setLocalCertificateChain(chain);
        config.setPrivateKey(key);
        config.setPeerVerifyMode(QSslSocket::VerifyNone);
        config.setProtocol(QSsl::TlsV1_2OrLater);
        config.setCiphers(intermediateTlsCiphers());
        tlsConfig = config;
        // The certificate's names are names the server goes by.
        for (const QString &name : chain.first().subjectAlternativeNames().values(QSsl::DnsEntry)) {
            addHostName(name);
        }
    }
    HttpGuardLimits limits;
    limits.maxHeaderBytes = d->options.maxHeaderBytes;
    limits.maxUrlBytes = d->options.maxUrlBytes;
    limits.headerTimeoutMs = std::max(1, d->options.headerTimeoutMs);
    limits.idleTimeoutMs = std::max(1, d->options.idleTimeoutMs);
    limits.maxConnections = d->options.maxConnections;
    limits.maxConnectionsPerClient = d->options.maxConnectionsPerClient;
    limits.trustedProxies = d->options.trustedProxies;
    limits.responseHeaders = {{"Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'"},
                              {"X-Content-Type-Options", "nosniff"},
                              {"Referrer-Policy", "no-referrer"},
                              {"X-Frame-Options", "DENY"}};
    if (d->tls()) {
        limits.responseHeaders.append(
            qMakePair(QByteArray("Strict-Transport-Security"), QByteArray("max-age=31536000")));
    }
    ServerContext *p = d.get();
    d->guard = std::make_unique<HttpGuard>(
        limits,
        [p](const RequestHead &head, const QHostAddress &) {
            return p->checkHead(head);
        },
        d->counters);
    d->server = d->guard->createServer(&d->http, tlsConfig ? &*tlsConfig : nullptr);
    d->server->setParent(&d->http);
    if (!d->server->listen(d->options.address, d->options.port)) {
        const QString why = d->server->errorString();
        delete d->server;
        d->server = nullptr;
        return fail(QStringLiteral("cannot listen on %1:%2: %3")
                        .arg(d->options.address.toString())
                        .arg(d->options.port)
                        .arg(why));
    }
    d->http.bind(d->server);
    return {};
}

quint16 WebServer::port() const
{
    return d->server ? d->server->serverPort() : 0;
}

QUrl WebServer::url() const
{
    QUrl u;
    u.setScheme(d->tls() ? QStringLiteral("https") : QStringLiteral("http"));
    QHostAddress host = d->options.address;
    if (host == QHostAddress::Any || host == QHostAddress::AnyIPv4) {
        host = QHostAddress::LocalHost;
    } else if (host == QHostAddress::AnyIPv6) {
        host = QHostAddress::LocalHostIPv6;
    }
    u.setHost(host.toString());
    u.setPort(port());
    u.setPath(QStringLiteral("/"));
    return u;
}

void WebServer::addGetRoute(const QString &path, Role role, JsonHandler handler)
{
    if (!path.contains(QLatin1Char('/'))) {
        d->extraRoutes.insert(path, ServerContext::ExtraRoute{role, std::move(handler)});
        return;
    }
    Router(*d).route(QStringLiteral("/api/v1/") + path,
                     Router::Method::Get,
                     [this, role, handler = std::move(handler)](
                         const QStringList &, const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                         if (const auto session = d->authorize(request, responder, role, false)) {
                             d->replyHandled(std::move(responder), handler(request, *session));
                         }
                     });
}

void WebServer::setReplicaCoordinator(const core::ReplicaCoordinator *replicas)
{
    d->replicas = replicas;
}

LiveFeed &WebServer::feed()
{
    return d->feed;
}

SessionManager &WebServer::sessions()
{
    return d->sessions;
}

} // namespace strata::web
