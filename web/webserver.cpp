#include "web/webserver.h"

#include "web/api.h"
#include "web/apierror.h"
#include "web/httpguard.h"
#include "web/livefeed.h"
#include "web/metrics.h"

#include "models/core/bundle.h"
#include "models/core/clock.h"
#include "models/core/config.h"
#include "models/core/credentialstore.h"
#include "models/core/diagnosis.h"
#include "models/core/domain.h"
#include "models/core/engine.h"
#include "models/core/historyservice.h"
#include "models/core/historystore.h"
#include "models/core/overviewsummary.h"
#include "models/core/schedule.h"
#include "models/core/source.h"
#include "models/core/sourceadmin.h"
#include "models/core/timeline.h"
#include "models/rows/levelrows.h"
#include "models/rows/resources.h"
#include "models/rows/triagerows.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QHostInfo>
#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QHttpServerResponse>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkRequest>
#include <QPointer>
#include <QSaveFile>
#include <QSet>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThreadPool>
#include <QUrlQuery>
#include <QUuid>
#include <QWebSocket>

#include <algorithm>
#include <deque>

namespace strata::web {

namespace {

using Status = QHttpServerResponder::StatusCode;

const QByteArray kCookieName = QByteArrayLiteral("strata_session");
const QByteArray kJson = QByteArrayLiteral("application/json");

QByteArray header(const QList<QPair<QByteArray, QByteArray>> &headers, const QByteArray &name)
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0) {
            return value;
        }
    }
    return {};
}

QByteArray header(const QHttpServerRequest &request, const QByteArray &name)
{
    return header(request.headers(), name);
}

QString cookieValue(const QByteArray &cookieHeader, const QByteArray &name)
{
    for (const QByteArray &part : cookieHeader.split(';')) {
        const QByteArray trimmed = part.trimmed();
        const qsizetype eq = trimmed.indexOf('=');
        if (eq > 0 && trimmed.left(eq) == name) {
            return QString::fromLatin1(trimmed.mid(eq + 1));
        }
    }
    return {};
}

QByteArray mimeFor(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("html")) {
        return "text/html; charset=utf-8";
    }
    if (suffix == QLatin1String("js") || suffix == QLatin1String("mjs")) {
        return "text/javascript; charset=utf-8";
    }
    if (suffix == QLatin1String("css")) {
        return "text/css; charset=utf-8";
    }
    if (suffix == QLatin1String("svg")) {
        return "image/svg+xml";
    }
    if (suffix == QLatin1String("png")) {
        return "image/png";
    }
    if (suffix == QLatin1String("ico")) {
        return "image/x-icon";
    }
    if (suffix == QLatin1String("json")) {
        return kJson;
    }
    if (suffix == QLatin1String("woff2")) {
        return "font/woff2";
    }
    return "application/octet-stream";
}

/// A response answered later (history store reads, password checks on the worker pool). The
/// client may have gone by then: its socket is checked before writing.
struct Deferred
{
    explicit Deferred(QHttpServerResponder &&r)
        : responder(std::move(r))
        , socket(responder.socket())
    {}

    QHttpServerResponder responder;
    QPointer<QTcpSocket> socket;
};

QJsonObject sessionJson(const Session &s)
{
    return QJsonObject{{QStringLiteral("user"), s.user},
                       {QStringLiteral("role"), roleName(s.role)},
                       {QStringLiteral("csrf_token"), s.csrfToken}};
}

} // namespace

struct WebServer::Private
{
    Private(WebServer *owner, core::Engine &engine, UserStore &users, WebServerOptions options)
        : q(owner)
        , engine(engine)
        , users(users)
        , options(std::move(options))
        , sourceAdmin(engine, core::SourceAdmin::Options{this->options.configPath, true})
        , sessions(engine.clock())
        , limiter(engine.clock(),
                  LoginLimits{this->options.loginMaxFailures,
                              this->options.loginClientMaxFailures,
                              this->options.loginGlobalMaxFailures,
                              std::chrono::seconds(std::max(1, this->options.loginWindowSeconds))})
        , feed(engine, this->options.liveCoalesceMs, this->options.liveKeptDiffs)
    {
        feed.setMaxKeptBytes(this->options.liveKeptDiffBytes);
        loginPool.setMaxThreadCount(std::max(1, this->options.loginWorkers));
    }

    WebServer *q;
    core::Engine &engine;
    UserStore &users;
    WebServerOptions options;
    /// Source changes over the web (remote rules: secrets only as themselves).
    core::SourceAdmin sourceAdmin;
    QHttpServer http;
    QTcpServer *server = nullptr; ///< owned by `http` after bind()
    SessionManager sessions;
    LoginLimiter limiter;
    LiveFeed feed;
    struct ExtraRoute
    {
        Role role;
        JsonHandler handler;
    };
    QHash<QString, ExtraRoute> extraRoutes;
    QList<QPointer<QWebSocket>> viewers;
    /// Whether this server holds one of the engine's performance subscriptions: while a viewer
    /// is connected, as the desktop does while its Volumes page shows (ONTAP polls volume
    /// performance only on demand; without it the Service levels page has no "Now").
    bool perfSubscribed = false;
    WebServerCounters counters;
    std::unique_ptr<HttpGuard> guard;
    /// Host names (lower case) the Host header may carry besides IP literals (hostAllowed()).
    QStringList hostNames;
    /// PBKDF2 takes ~0.3 s: checked off the event loop so live updates keep flowing, by
    /// loginWorkers threads. One check in flight per client address bounds what parallel
    /// guessing could do before the limiter has counted the failures. Checks wait in three
    /// lanes of at most loginQueueLimit each, served in this order: addresses a user logged in
    /// from before (trusted), addresses without recent failures (clean), addresses that failed
    /// recently (suspect). A full lane refuses at once (429), so attackers cannot make a real
    /// login wait behind all of their guesses.
    QThreadPool loginPool;
    QSet<QString> loginsInFlight;
    enum class Lane
    {
        Trusted,
        Clean,
        Suspect
    };
    std::deque<std::function<void()>> lanes[3];
    QHash<QString, QDateTime> trustedClients; ///< address -> last successful login (bounded)
    int hashing = 0;

    [[nodiscard]] bool tls() const { return !options.tlsCertFile.isEmpty(); }

    void reply(QHttpServerResponder &&responder,
               Status status,
               const QByteArray &mime,
               const QByteArray &body,
               const QList<std::pair<QByteArray, QByteArray>> &extra = {}) const
    {
        QHttpServerResponse response(mime, body, status);
        response.setHeader("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("X-Strata-Api-Version", kApiVersion);
        if (tls()) {
            response.setHeader("Strict-Transport-Security", "max-age=31536000");
        }
        bool cacheSet = false;
        for (const auto &[name, value] : extra) {
            if (name.compare("Set-Cookie", Qt::CaseInsensitive) == 0) {
                response.addHeader(name, value); // several cookies must stay separate headers
            } else {
                response.setHeader(name, value);
            }
            cacheSet = cacheSet || name.compare("Cache-Control", Qt::CaseInsensitive) == 0;
        }
        if (!cacheSet) {
            response.setHeader("Cache-Control", "no-store");
        }
        response.write(std::move(responder));
    }

    void replyJson(QHttpServerResponder &&responder,
                   const QJsonValue &value,
                   Status status = Status::Ok,
                   const QList<std::pair<QByteArray, QByteArray>> &extra = {}) const
    {
        const QByteArray body = value.isArray() ? QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact)
                                                : QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
        reply(std::move(responder), status, kJson, body, extra);
    }

    /// A feature route's answer: apiErrorValue() (web/apierror.h) is an error with its status,
    /// anything else 200.
    void replyHandled(QHttpServerResponder &&responder, const QJsonValue &value) const
    {
        const QJsonObject object = value.toObject();
        const QStringList keys = object.keys();
        const bool onlyErrorKeys = std::all_of(keys.cbegin(), keys.cend(), [](const QString &key) {
            return key == QLatin1String("error") || key == QLatin1String("status") || key == QLatin1String("code");
        });
        if (value.isObject() && object.contains(QStringLiteral("error")) && onlyErrorKeys) {
            const ApiError error =
                apiErrorForStatus(object.value(QStringLiteral("status")).toInt(400)).value_or(ApiError::BadRequest);
            replyError(std::move(responder), error, object.value(QStringLiteral("error")).toString());
            return;
        }
        replyJson(std::move(responder), value);
    }

    /// The history store for a viewer's read; nullptr when it already answered (401, 403, or 503
    /// without a store).
    core::HistoryService *viewerHistory(const QHttpServerRequest &request, QHttpServerResponder &responder)
    {
        if (!authorize(request, responder, Role::Viewer, false)) {
            return nullptr;
        }
        core::HistoryService *history = engine.history();
        if (!history) {
            replyError(std::move(responder), ApiError::Unavailable, QStringLiteral("no history store"));
        }
        return history;
    }

    /// Every error reply of the API: the status and body of `error` from the one map in
    /// web/apierror.h.
    void replyError(QHttpServerResponder &&responder,
                    ApiError error,
                    const QString &message,
                    const QList<std::pair<QByteArray, QByteArray>> &extra = {}) const
    {
        replyJson(std::move(responder), apiErrorBody(error, message), Status(apiErrorStatus(error)), extra);
    }
    /// The same for a route that still names the status (the source routes, until they move to
    /// their own controller); a status outside the map is a server error.
    void replyError(QHttpServerResponder &&responder,
                    Status status,
                    const QString &message,
                    const QList<std::pair<QByteArray, QByteArray>> &extra = {}) const
    {
        replyError(std::move(responder), apiErrorForStatus(int(status)).value_or(ApiError::Internal), message, extra);
    }

    /// The server's own origin as the browser sends it, from the Host header.
    [[nodiscard]] bool originAllowed(const QByteArray &origin, const QByteArray &host) const
    {
        const QString o = QString::fromLatin1(origin).trimmed();
        if (o.isEmpty() || o == QLatin1String("null")) {
            return false;
        }
        const QString own =
            (tls() ? QStringLiteral("https://") : QStringLiteral("http://")) + QString::fromLatin1(host);
        if (!host.isEmpty() && o.compare(own, Qt::CaseInsensitive) == 0) {
            return true;
        }
        for (QString allowed : options.allowedOrigins) {
            while (allowed.endsWith(QLatin1Char('/'))) {
                allowed.chop(1);
            }
            if (o.compare(allowed, Qt::CaseInsensitive) == 0) {
                return true;
            }
        }
        return false;
    }

    /// The session of a request that may go on, or nullopt after answering 401/403.
    std::optional<Session>
    authorize(const QHttpServerRequest &request, QHttpServerResponder &responder, Role role, bool stateChanging)
    {
        const QString id = cookieValue(header(request, "Cookie"), kCookieName);
        std::optional<Session> session = id.isEmpty() ? std::nullopt : sessions.find(id);
        if (!session) {
            replyError(std::move(responder), ApiError::LoginRequired, QStringLiteral("login required"));
            return std::nullopt;
        }
        if (stateChanging) {
            const QByteArray origin = header(request, "Origin");
            if (!origin.isEmpty() && !originAllowed(origin, header(request, "Host"))) {
                replyError(std::move(responder), ApiError::Forbidden, QStringLiteral("origin not allowed"));
                return std::nullopt;
            }
            const QByteArray token = header(request, "X-CSRF-Token");
            if (token.isEmpty() || QString::fromLatin1(token) != session->csrfToken) {
                replyError(std::move(responder), ApiError::Forbidden, QStringLiteral("missing or wrong CSRF token"));
                return std::nullopt;
            }
        }
        if (int(session->role) < int(role)) {
            replyError(std::move(responder),
                       ApiError::Forbidden,
                       QStringLiteral("the %1 role is required").arg(roleName(role)));
            return std::nullopt;
        }
        return session;
    }

    [[nodiscard]] QByteArray sessionCookie(const QString &value, bool expire) const
    {
        QByteArray c = kCookieName + '=' + value.toLatin1() + "; Path=/; HttpOnly; SameSite=Strict";
        if (tls()) {
            c += "; Secure";
        }
        if (expire) {
            c += "; Max-Age=0";
        }
        return c;
    }

    void registerRoutes();
    /// Whether a Host header (with or without port) names this server (DNS rebinding).
    [[nodiscard]] bool hostAllowed(const QByteArray &host) const;
    /// HttpGuard's check of a complete header block: Host, WebSocket upgrades, body limits.
    HeadVerdict checkHead(const RequestHead &head);
    /// Queues a password hash (work runs on loginPool); false when the lane is full.
    bool enqueueHash(Lane lane, std::function<void()> work, bool force = false);
    [[nodiscard]] Lane laneOf(const QString &client) const;
    void trust(const QString &client);
    void pumpHashes();
    /// Ends every session and live connection of a user (removed, new password or role).
    void endUserConnections(const QString &name, const QString &why);
    /// Sends one diff to every viewer within the send-queue cap and the memory budget.
    void broadcast(const QByteArray &message);
    void dropViewer(QWebSocket *ws, const QByteArray &reason);
    /// Subscribes to the engine's performance polls while any viewer is connected.
    void watchPerformance();
    void auditLockout(LoginLockout lockout, const QString &client, const QString &name);
    [[nodiscard]] QByteArray metricsText();
    void login(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void getResource(const QString &resource, const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void addUser(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void removeUser(const QString &name, const QHttpServerRequest &request, QHttpServerResponder &&responder);
    /// Audits an admin's change of a user or source (never with a secret in it).
    void auditAdminChange(
        const Session &by, const QString &kind, const QString &name, const QString &from, const QString &to);
    void putSource(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void removeSource(const QString &name, const QHttpServerRequest &request, QHttpServerResponder &&responder);
    [[nodiscard]] QJsonObject sourceRow(const QString &name) const;
    void projectHistory(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void volumeHistory(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    /// GET /api/v1/jobs/<source>/<ns>/<name>/diagnosis and /api/v1/diagnosis?source=&job=: the
    /// JSON of `strata why -o json` (viewer role).
    void diagnosis(const QString &source,
                   const QString &jobId,
                   const QHttpServerRequest &request,
                   QHttpServerResponder &&responder);
    void audit(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    /// GET /api/v1/bundle (operators and admins): a support bundle of the estate now, as a
    /// download.
    void supportBundle(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void action(bool preview, const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void liveHandshake(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void acceptViewers();
    void healthz(QHttpServerResponder &&responder);
};

void WebServer::Private::registerRoutes()
{
    using Method = QHttpServerRequest::Method;
    http.route(QStringLiteral("/"), Method::Get, [this](QHttpServerResponder &&responder) {
        QFile f(QStringLiteral(":/www/index.html"));
        if (!f.open(QIODevice::ReadOnly)) {
            replyError(std::move(responder), ApiError::NotFound, QStringLiteral("the web console is not bundled"));
            return;
        }
        reply(std::move(responder), Status::Ok, mimeFor(f.fileName()), f.readAll(), {{"Cache-Control", "no-cache"}});
    });
    http.route(
        QStringLiteral("/static/<arg>"), Method::Get, [this](const QUrl &file, QHttpServerResponder &&responder) {
            const QString path = file.path();
            if (path.contains(QLatin1String("..")) || path.startsWith(QLatin1Char('/'))) {
                replyError(std::move(responder), ApiError::NotFound, QStringLiteral("not found"));
                return;
            }
            QFile f(QStringLiteral(":/www/") + path);
            if (!f.open(QIODevice::ReadOnly)) {
                replyError(std::move(responder), ApiError::NotFound, QStringLiteral("not found"));
                return;
            }
            reply(std::move(responder),
                  Status::Ok,
                  mimeFor(path),
                  f.readAll(),
                  {{"Cache-Control", "max-age=" + QByteArray::number(options.staticMaxAgeSeconds)}});
        });
    http.route(QStringLiteral("/healthz"), Method::Get, [this](QHttpServerResponder &&responder) {
        healthz(std::move(responder));
    });
    http.route(QStringLiteral("/api/v1/version"), Method::Get, [this](QHttpServerResponder &&responder) {
        // No login: a client checks what it talks to before it signs in.
        replyJson(std::move(responder), QJsonObject{{QStringLiteral("api_version"), QLatin1String(kApiVersion)}});
    });
    http.route(QStringLiteral("/metrics"), Method::Get, [this](QHttpServerResponder &&responder) {
        reply(std::move(responder), Status::Ok, "text/plain; version=0.0.4; charset=utf-8", metricsText());
    });
    http.route(QStringLiteral("/api/v1/login"),
               Method::Post,
               [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   login(request, std::move(responder));
               });
    http.route(QStringLiteral("/api/v1/logout"),
               Method::Post,
               [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   const auto session = authorize(request, responder, Role::Viewer, true);
                   if (!session) {
                       return;
                   }
                   sessions.remove(session->id);
                   for (const QPointer<QWebSocket> &ws : std::as_const(viewers)) {
                       if (ws && ws->property("strata_session").toString() == session->id) {
                           ws->close(QWebSocketProtocol::CloseCodeNormal, QStringLiteral("logged out"));
                       }
                   }
                   replyJson(std::move(responder),
                             QJsonObject{{QStringLiteral("ok"), true}},
                             Status::Ok,
                             {{"Set-Cookie", sessionCookie(QString(), true)}});
               });
    http.route(QStringLiteral("/api/v1/session"),
               Method::Get,
               [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   if (const auto session = authorize(request, responder, Role::Viewer, false)) {
                       replyJson(std::move(responder), sessionJson(*session));
                   }
               });
    http.route(QStringLiteral("/api/v1/users"),
               Method::Get,
               [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   if (!authorize(request, responder, Role::Admin, false)) {
                       return;
                   }
                   QJsonArray out;
                   QList<User> list = users.users();
                   std::sort(list.begin(), list.end(), [](const User &a, const User &b) {
                       return a.name < b.name;
                   });
                   for (const User &u : std::as_const(list)) {
                       out.append(QJsonObject{{QStringLiteral("name"), u.name},
                                              {QStringLiteral("role"), roleName(u.role)},
                                              {QStringLiteral("created"), u.created.toString(Qt::ISODate)}});
                   }
                   replyJson(std::move(responder), out);
               });
    http.route(QStringLiteral("/api/v1/users"),
               Method::Post,
               [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   addUser(request, std::move(responder));
               });
    http.route(QStringLiteral("/api/v1/users/<arg>"),
               Method::Delete,
               [this](const QString &name, const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   removeUser(name, request, std::move(responder));
               });
    http.route(QStringLiteral("/api/v1/sources"),
               Method::Post,
               [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   putSource(request, std::move(responder));
               });
    http.route(QStringLiteral("/api/v1/sources/<arg>"),
               Method::Delete,
               [this](const QString &name, const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   removeSource(name, request, std::move(responder));
               });
    http.route(QStringLiteral("/api/v1/history/projects"),
               Method::Get,
               [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   projectHistory(request, std::move(responder));
               });
    http.route(QStringLiteral("/api/v1/history/volumes"),
               Method::Get,
               [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   volumeHistory(request, std::move(responder));
               });
    http.route(QStringLiteral("/api/v1/jobs/<arg>/<arg>/<arg>/diagnosis"),
               Method::Get,
               [this](const QString &source,
                      const QString &ns,
                      const QString &name,
                      const QHttpServerRequest &request,
                      QHttpServerResponder &&responder) {
                   diagnosis(source, ns + QLatin1Char('/') + name, request, std::move(responder));
               });
    http.route(QStringLiteral("/api/v1/diagnosis"),
               Method::Get,
               [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   const QUrlQuery query = request.query();
                   diagnosis(query.queryItemValue(QStringLiteral("source"), QUrl::FullyDecoded),
                             query.queryItemValue(QStringLiteral("job"), QUrl::FullyDecoded),
                             request,
                             std::move(responder));
               });
    http.route(QStringLiteral("/api/v1/audit"),
               Method::Get,
               [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   audit(request, std::move(responder));
               });
    http.route(QStringLiteral("/api/v1/bundle"),
               Method::Get,
               [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   supportBundle(request, std::move(responder));
               });
    http.route(QStringLiteral("/api/v1/actions/preview"),
               Method::Post,
               [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   action(true, request, std::move(responder));
               });
    http.route(QStringLiteral("/api/v1/actions"),
               Method::Post,
               [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   action(false, request, std::move(responder));
               });
    http.route(QStringLiteral("/api/v1/actions/<arg>"),
               Method::Get,
               [this](const QString &id, const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   if (!authorize(request, responder, Role::Viewer, false)) {
                       return;
                   }
                   const core::ActionRecord *record = engine.actions().find(id);
                   if (!record) {
                       replyError(std::move(responder), ApiError::NotFound, QStringLiteral("no such action"));
                       return;
                   }
                   replyJson(std::move(responder), actionRecordToJson(*record));
               });
    http.route(QStringLiteral("/api/v1/live"),
               Method::Get,
               [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   liveHandshake(request, std::move(responder));
               });
    http.route(QStringLiteral("/api/v1/<arg>"),
               Method::Get,
               [this](const QString &resource, const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                   getResource(resource, request, std::move(responder));
               });
    QObject::connect(&http, &QHttpServer::newWebSocketConnection, q, [this] {
        acceptViewers();
    });
    QObject::connect(&feed, &LiveFeed::diffReady, q, [this](qint64, const QByteArray &message) {
        broadcast(message);
    });
}

bool WebServer::Private::hostAllowed(const QByteArray &hostHeader) const
{
    QString host = QString::fromLatin1(hostHeader).trimmed().toLower();
    QString name;
    if (host.startsWith(QLatin1Char('['))) {
        const qsizetype close = host.indexOf(QLatin1Char(']'));
        if (close < 0 || (close + 1 < host.size() && host.at(close + 1) != QLatin1Char(':'))) {
            return false;
        }
        name = host.mid(1, close - 1);
    } else {
        const qsizetype colon = host.indexOf(QLatin1Char(':'));
        if (colon >= 0 && host.indexOf(QLatin1Char(':'), colon + 1) >= 0) {
            return false;
        }
        name = colon >= 0 ? host.left(colon) : host;
    }
    if (name.endsWith(QLatin1Char('.'))) {
        name.chop(1);
    }
    if (name.isEmpty()) {
        return false;
    }
    const QHostAddress listen = options.address;
    const bool wildcard =
        listen == QHostAddress::Any || listen == QHostAddress::AnyIPv4 || listen == QHostAddress::AnyIPv6;
    QHostAddress literal;
    if (literal.setAddress(name)) {
        // A rebinding attacker's page carries its own name, never an IP literal: any address
        // the server listens on is fine.
        return wildcard || literal.isEqual(listen, QHostAddress::TolerantConversion)
               || (literal.isLoopback() && listen.isLoopback());
    }
    if ((wildcard || listen.isLoopback())
        && (name == QLatin1String("localhost") || name.endsWith(QLatin1String(".localhost")))) {
        return true;
    }
    for (const QString &allowed : hostNames) {
        if (allowed == name
            || (allowed.startsWith(QLatin1String("*.")) && name.endsWith(allowed.mid(1))
                && !name.left(name.size() - allowed.size() + 1).contains(QLatin1Char('.')))) {
            return true;
        }
    }
    return false;
}

HeadVerdict WebServer::Private::checkHead(const RequestHead &head)
{
    HeadVerdict v;
    const QByteArray host = head.header("Host");
    if (host.isEmpty() && head.version != "HTTP/1.0") {
        v.status = 400;
        v.message = QStringLiteral("a Host header is required");
        v.reason = "bad_request";
        return v;
    }
    if (!host.isEmpty() && !hostAllowed(host)) {
        v.status = 421;
        v.message = QStringLiteral("this server does not answer to the host \"%1\"; add it with --allow-host")
                        .arg(QString::fromLatin1(host.left(128)));
        v.reason = "host_not_allowed";
        return v;
    }
    const QByteArray path = head.path();
    const QString id = cookieValue(head.header("Cookie"), kCookieName);
    if (head.websocketUpgrade()) {
        // Refused here, once, before QHttpServer could answer the handshake with 101.
        v.reason = "websocket_refused";
        if (path != "/api/v1/live") {
            v.status = 404;
            v.message = QStringLiteral("WebSockets are served at /api/v1/live only");
            return v;
        }
        if (id.isEmpty() || !sessions.find(id)) {
            v.status = 401;
            v.message = QStringLiteral("login required");
            return v;
        }
        const QByteArray origin = head.header("Origin");
        if (!origin.isEmpty() && !originAllowed(origin, host)) {
            v.status = 403;
            v.message = QStringLiteral("origin not allowed");
            return v;
        }
        v.reason.clear();
        v.upgrade = true;
        return v;
    }
    const bool writes =
        head.method == "POST" || head.method == "PUT" || head.method == "PATCH" || head.method == "DELETE";
    if (writes && path == "/api/v1/login") {
        v.maxBodyBytes = options.maxLoginBodyBytes;
    } else if (writes && path.startsWith("/api/v1/")) {
        if (!id.isEmpty() && sessions.find(id)) {
            v.maxBodyBytes = options.maxApiBodyBytes;
        } else {
            // Without a session the route answers 401 anyway: not worth a large body.
            v.maxBodyBytes = options.maxLoginBodyBytes;
            v.tooLargeStatus = 401;
            v.tooLargeMessage = QStringLiteral("login required");
            v.tooLargeReason = "login_required";
        }
    } else {
        v.maxBodyBytes = options.maxOtherBodyBytes;
    }
    return v;
}

WebServer::Private::Lane WebServer::Private::laneOf(const QString &client) const
{
    if (limiter.hasRecentFailures(client)) {
        return Lane::Suspect;
    }
    const auto it = trustedClients.constFind(client);
    if (it != trustedClients.constEnd() && it->daysTo(engine.clock().now()) <= 30) {
        return Lane::Trusted;
    }
    return Lane::Clean;
}

void WebServer::Private::trust(const QString &client)
{
    constexpr qsizetype kTrustedKept = 4096;
    trustedClients.insert(client, engine.clock().now());
    if (trustedClients.size() > kTrustedKept) {
        // Forget the address that logged in longest ago.
        auto oldest = trustedClients.begin();
        for (auto it = trustedClients.begin(); it != trustedClients.end(); ++it) {
            if (it.value() < oldest.value()) {
                oldest = it;
            }
        }
        trustedClients.erase(oldest);
    }
}

bool WebServer::Private::enqueueHash(Lane lane, std::function<void()> work, bool force)
{
    auto &queue = lanes[int(lane)];
    if (!force && hashing >= loginPool.maxThreadCount() && int(queue.size()) >= std::max(0, options.loginQueueLimit)) {
        return false;
    }
    queue.push_back(std::move(work));
    pumpHashes();
    return true;
}

void WebServer::Private::pumpHashes()
{
    while (hashing < loginPool.maxThreadCount()) {
        auto next = std::find_if(std::begin(lanes), std::end(lanes), [](const auto &queue) {
            return !queue.empty();
        });
        if (next == std::end(lanes)) {
            return;
        }
        std::function<void()> work = std::move(next->front());
        next->pop_front();
        ++hashing;
        loginPool.start([this, work = std::move(work)] {
            work();
            QMetaObject::invokeMethod(
                q,
                [this] {
                    --hashing;
                    pumpHashes();
                },
                Qt::QueuedConnection);
        });
    }
}

void WebServer::Private::endUserConnections(const QString &name, const QString &why)
{
    sessions.removeUser(name);
    const QList<QPointer<QWebSocket>> current = viewers;
    for (const QPointer<QWebSocket> &ws : current) {
        if (ws && ws->property("strata_user").toString() == name) {
            ws->close(QWebSocketProtocol::CloseCodePolicyViolated, why);
        }
    }
}

void WebServer::Private::dropViewer(QWebSocket *ws, const QByteArray &reason)
{
    ++counters.droppedViewers[reason];
    viewers.removeAll(QPointer<QWebSocket>(ws));
    watchPerformance();
    // The browser reconnects with ?since= and catches up (or reloads).
    ws->abort();
    ws->deleteLater();
}

void WebServer::Private::watchPerformance()
{
    viewers.removeAll(QPointer<QWebSocket>());
    const bool wanted = options.watchPerformanceWithViewers && !viewers.isEmpty();
    if (wanted == perfSubscribed) {
        return;
    }
    perfSubscribed = wanted;
    if (wanted) {
        engine.subscribePerformance();
    } else {
        engine.unsubscribePerformance();
    }
}

void WebServer::Private::broadcast(const QByteArray &message)
{
    const qint64 size = message.size();
    struct Pending
    {
        QWebSocket *ws;
        qint64 queued;
    };
    std::vector<Pending> all;
    qint64 total = 0;
    for (const QPointer<QWebSocket> &ws : std::as_const(viewers)) {
        if (ws) {
            all.push_back({ws.data(), ws->bytesToWrite()});
            total += all.back().queued;
        }
    }
    // Over the budget, the viewers furthest behind go first.
    std::sort(all.begin(), all.end(), [](const Pending &a, const Pending &b) {
        return a.queued > b.queued;
    });
    std::size_t first = 0;
    while (first < all.size() && all[first].queued > 0
           && total + size * qint64(all.size() - first) > options.liveQueuedBytesBudget) {
        total -= all[first].queued;
        dropViewer(all[first].ws, "memory_budget");
        ++first;
    }
    const QString text = QString::fromUtf8(message); // once for every viewer
    for (std::size_t i = first; i < all.size(); ++i) {
        if (all[i].queued + size > options.liveSendQueueBytes) {
            dropViewer(all[i].ws, "send_queue");
            continue;
        }
        all[i].ws->sendTextMessage(text);
    }
}

void WebServer::Private::auditLockout(LoginLockout lockout, const QString &client, const QString &name)
{
    if (lockout == LoginLockout::None) {
        return;
    }
    const LoginLimits &limits = limiter.limits();
    const QString user = name.left(64);
    QByteArray scope;
    QString message;
    const qint64 window = qint64(limits.window.count());
    switch (lockout) {
    case LoginLockout::UserFromClient:
        scope = "user_from_address";
        message = QStringLiteral("%1 wrong passwords for %2 from %3 within %4 s: that address waits")
                      .arg(limits.perUserAndClient)
                      .arg(user, client)
                      .arg(window);
        break;
    case LoginLockout::Client:
        scope = "address";
        message = QStringLiteral("%1 failed logins from %2 within %3 s: that address waits for every user")
                      .arg(limits.perClient)
                      .arg(client)
                      .arg(window);
        break;
    case LoginLockout::Global:
        scope = "global";
        message = QStringLiteral("%1 failed logins from all addresses within %2 s: addresses that failed wait")
                      .arg(limits.global)
                      .arg(window);
        break;
    case LoginLockout::None:
        return;
    }
    ++counters.loginLockouts[scope];
    qWarning("strata-server: login lockout: %s", qUtf8Printable(message));
    core::HistoryService *history = engine.history();
    if (!history) {
        return;
    }
    core::AuditEntry e;
    e.time = engine.clock().now().toUTC();
    e.user = user;
    e.actionId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    e.source = QStringLiteral("strata-server");
    e.kind = QStringLiteral("login.lockout");
    e.target = QStringLiteral("%1 from %2").arg(user, client);
    e.toState = QString::fromLatin1(scope);
    e.outcome = QStringLiteral("refused");
    e.message = message;
    history->appendAudit(e);
}

QByteArray WebServer::Private::metricsText()
{
    counters.connections = guard ? guard->connections() : 0;
    qint64 queued = 0;
    qint64 live = 0;
    for (const QPointer<QWebSocket> &ws : std::as_const(viewers)) {
        if (ws) {
            ++live;
            queued += ws->bytesToWrite();
        }
    }
    counters.liveViewers = live;
    counters.liveQueuedBytes = queued;
    counters.liveKeptBytes = feed.keptBytes();
    return prometheusText(engine) + webServerMetricsText(counters);
}

void WebServer::Private::healthz(QHttpServerResponder &&responder)
{
    QStringList failing;
    for (const core::SourceStatus &s : engine.statuses()) {
        if (s.health != core::Health::Ok && s.health != core::Health::Degraded) {
            failing << s.name + QStringLiteral(": ")
                           + (s.lastError.isEmpty() ? core::healthName(s.health) : s.lastError);
        }
    }
    if (failing.isEmpty() && engine.allPolledOnce()) {
        reply(std::move(responder), Status::Ok, "text/plain; charset=utf-8", "ok\n");
        return;
    }
    if (failing.isEmpty()) {
        failing << QStringLiteral("not every source has been polled yet");
    }
    reply(std::move(responder),
          Status::ServiceUnavailable,
          "text/plain; charset=utf-8",
          failing.join(QLatin1Char('\n')).toUtf8() + '\n');
}

void WebServer::Private::login(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    const QByteArray origin = header(request, "Origin");
    if (!origin.isEmpty() && !originAllowed(origin, header(request, "Host"))) {
        replyError(std::move(responder), ApiError::Forbidden, QStringLiteral("origin not allowed"));
        return;
    }
    const QJsonObject body = QJsonDocument::fromJson(request.body()).object();
    const QString name = body.value(QLatin1String("user")).toString();
    const QString password = body.value(QLatin1String("password")).toString();
    const QString client =
        clientKey(forwardedClient(request.remoteAddress(), header(request, "X-Forwarded-For"), options.trustedProxies));
    if (const auto wait = limiter.retryAfter(client, name); wait.count() > 0) {
        ++counters.refusedRequests["login_throttled"];
        replyError(std::move(responder),
                   ApiError::TooManyRequests,
                   QStringLiteral("too many failed logins; try again in %1 s").arg(wait.count()),
                   {{"Retry-After", QByteArray::number(qint64(wait.count()))}});
        return;
    }
    if (loginsInFlight.contains(client)) {
        ++counters.refusedRequests["login_busy"];
        replyError(std::move(responder),
                   ApiError::TooManyRequests,
                   QStringLiteral("a login from this address is being checked"),
                   {{"Retry-After", "1"}});
        return;
    }
    auto held = std::make_shared<Deferred>(std::move(responder));
    const UserStore *store = &users;
    const bool queued = enqueueHash(laneOf(client), [this, held, store, name, password, client] {
        std::optional<User> user = store->authenticate(name, password);
        QMetaObject::invokeMethod(
            q,
            [this, held, name, client, user = std::move(user)] {
                loginsInFlight.remove(client);
                if (!user) {
                    auditLockout(limiter.recordFailure(client, name), client, name);
                    if (held->socket) {
                        replyError(std::move(held->responder),
                                   ApiError::LoginRequired,
                                   QStringLiteral("wrong user name or password"));
                    }
                    return;
                }
                limiter.recordSuccess(client, name);
                trust(client);
                if (!held->socket) {
                    return;
                }
                const Session session = sessions.create(*user);
                replyJson(std::move(held->responder),
                          sessionJson(session),
                          Status::Ok,
                          {{"Set-Cookie", sessionCookie(session.id, false)}});
            },
            Qt::QueuedConnection);
    });
    if (!queued) {
        ++counters.refusedRequests["login_busy"];
        replyError(std::move(held->responder),
                   ApiError::TooManyRequests,
                   QStringLiteral("too many logins are being checked; try again in a moment"),
                   {{"Retry-After", "1"}});
        return;
    }
    loginsInFlight.insert(client);
}

void WebServer::Private::auditAdminChange(
    const Session &by, const QString &kind, const QString &name, const QString &from, const QString &to)
{
    core::HistoryService *history = engine.history();
    if (!history) {
        return;
    }
    core::AuditEntry e;
    e.time = engine.clock().now().toUTC();
    e.user = by.user;
    e.actionId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    e.source = QStringLiteral("strata-server");
    e.kind = kind;
    e.target = name;
    e.fromState = from;
    e.toState = to;
    e.outcome = QStringLiteral("succeeded");
    history->appendAudit(e);
}

void WebServer::Private::addUser(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    const auto session = authorize(request, responder, Role::Admin, true);
    if (!session) {
        return;
    }
    const QJsonObject body = QJsonDocument::fromJson(request.body()).object();
    const QString name = body.value(QLatin1String("name")).toString();
    const QString password = body.value(QLatin1String("password")).toString();
    const auto role = roleFromName(body.value(QLatin1String("role")).toString());
    QString error;
    if (!role) {
        replyError(
            std::move(responder), ApiError::BadRequest, QStringLiteral("role must be viewer, operator or admin"));
        return;
    }
    if (!UserStore::validateNewUser(name, password, &error)) {
        replyError(std::move(responder), ApiError::BadRequest, error);
        return;
    }
    // The slow hash runs on the login pool so live updates keep flowing meanwhile.
    auto held = std::make_shared<Deferred>(std::move(responder));
    const Session by = *session;
    enqueueHash(
        Lane::Trusted,
        [this, held, by, name, password, role = *role] {
            QString hash = hashPassword(password);
            QMetaObject::invokeMethod(
                q,
                [this, held, by, name, role, hash = std::move(hash)] {
                    const std::optional<User> before = users.find(name);
                    QString error;
                    if (!users.addHashedUser(name, hash, role, &error)) {
                        if (held->socket) {
                            replyError(std::move(held->responder), ApiError::Internal, error);
                        }
                        return;
                    }
                    // A replaced user signs in again with the new password or role, everywhere.
                    endUserConnections(name, QStringLiteral("password or role changed"));
                    auditAdminChange(by,
                                     before ? QStringLiteral("user.replace") : QStringLiteral("user.add"),
                                     name,
                                     before ? roleName(before->role) : QString(),
                                     roleName(role));
                    if (held->socket) {
                        replyJson(std::move(held->responder),
                                  QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("role"), roleName(role)}},
                                  before ? Status::Ok : Status::Created);
                    }
                },
                Qt::QueuedConnection);
        },
        true);
}

void WebServer::Private::removeUser(const QString &name,
                                    const QHttpServerRequest &request,
                                    QHttpServerResponder &&responder)
{
    const auto session = authorize(request, responder, Role::Admin, true);
    if (!session) {
        return;
    }
    const std::optional<User> user = users.find(name);
    if (!user) {
        replyError(std::move(responder), ApiError::NotFound, QStringLiteral("no user \"%1\"").arg(name.left(64)));
        return;
    }
    if (name == session->user) {
        // Removing yourself could leave the server without an administrator.
        replyError(std::move(responder), ApiError::Conflict, QStringLiteral("you cannot remove your own account"));
        return;
    }
    QString error;
    if (!users.removeUser(name, &error)) {
        replyError(std::move(responder), ApiError::Internal, error);
        return;
    }
    endUserConnections(name, QStringLiteral("account removed"));
    auditAdminChange(*session, QStringLiteral("user.remove"), name, roleName(user->role), QString());
    replyJson(std::move(responder), QJsonObject{{QStringLiteral("removed"), name}});
}

namespace {

/// Audits a source change the server refused (the reason names no secret: it may be an attempt
/// to send the server's secrets somewhere).
void auditRefusedSourceChange(core::Engine &engine,
                              const QString &user,
                              const QString &action,
                              const QString &name,
                              const QString &fromKind,
                              const QString &toKind,
                              const QString &reason)
{
    core::HistoryService *history = engine.history();
    if (!history) {
        return;
    }
    core::AuditEntry e;
    e.time = engine.clock().now().toUTC();
    e.user = user;
    e.actionId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    e.source = QStringLiteral("strata-server");
    e.kind = action;
    e.target = name.left(64);
    e.fromState = fromKind;
    e.toState = toKind;
    e.outcome = QStringLiteral("refused");
    e.message = reason;
    history->appendAudit(e);
}

/// 422's body: every field error for the form, the first also as "error" and "field".
QJsonObject fieldErrorsJson(const QList<core::FieldError> &errors)
{
    QJsonArray list;
    for (const core::FieldError &e : errors) {
        list.append(QJsonObject{{QStringLiteral("field"), e.field}, {QStringLiteral("message"), e.message}});
    }
    QJsonObject out{{QStringLiteral("errors"), list}};
    if (!errors.isEmpty()) {
        out.insert(QStringLiteral("error"), errors.first().message);
        out.insert(QStringLiteral("field"), errors.first().field);
    }
    return out;
}

Status sourceAdminStatus(core::SourceAdmin::Status status)
{
    switch (status) {
    case core::SourceAdmin::Status::Ok:
        return Status::Ok;
    case core::SourceAdmin::Status::Invalid:
        return Status::UnprocessableEntity;
    case core::SourceAdmin::Status::NotFound:
        return Status::NotFound;
    case core::SourceAdmin::Status::Conflict:
    case core::SourceAdmin::Status::ReadOnly:
        return Status::Conflict;
    case core::SourceAdmin::Status::Failed:
        break;
    }
    return Status::InternalServerError;
}

} // namespace

QJsonObject WebServer::Private::sourceRow(const QString &name) const
{
    rows::ResourceFilter filter;
    filter.sources = QStringList{name};
    const std::optional<rows::ResultSet> rows =
        rows::resourceRows(engine, QStringLiteral("sources"), filter, engine.clock().now());
    const QJsonArray keyed = rows ? keyedRows(QStringLiteral("sources"), *rows) : QJsonArray();
    return keyed.isEmpty() ? QJsonObject{{QStringLiteral("name"), name}} : keyed.first().toObject();
}

void WebServer::Private::putSource(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    const auto session = authorize(request, responder, Role::Admin, true);
    if (!session) {
        return;
    }
    QJsonObject body = QJsonDocument::fromJson(request.body()).object();
    const QString name = body.value(QLatin1String("name")).toString();
    const QList<core::SourceConfig> current = engine.sourceConfigs();
    const auto old = std::find_if(current.begin(), current.end(), [&](const core::SourceConfig &s) {
        return s.name == name;
    });
    const bool replacing = old != current.end();
    const QString action = replacing ? QStringLiteral("source.replace") : QStringLiteral("source.add");
    const QString oldKind = replacing ? core::sourceKindName(old->kind) : QString();
    // Over the web a secret is given as itself: the strings go to SourceAdmin (the parser refuses
    // literal secrets); without them a replace keeps the stored references.
    core::SourceEdit edit;
    for (const auto &[field, typed] : {std::pair{QStringLiteral("password"), &edit.password},
                                       std::pair{QStringLiteral("s3_secret"), &edit.s3Secret}}) {
        if (const QJsonValue value = body.value(field); value.isString()) {
            *typed = value.toString();
            body.remove(field);
        }
    }
    QString error;
    if (!core::sourceFromJson(body, &edit.config, &error)) {
        replyError(std::move(responder), Status::BadRequest, error);
        return;
    }
    if (replacing && !body.contains(QLatin1String("password"))) {
        edit.config.password = old->password;
    }
    if (replacing && !body.contains(QLatin1String("s3_secret"))) {
        edit.config.s3Secret = old->s3Secret;
    }
    const QString kind = core::sourceKindName(edit.config.kind);
    if (const QList<core::FieldError> errors = sourceAdmin.check(edit); !errors.isEmpty()) {
        auditRefusedSourceChange(engine, session->user, action, name, oldKind, kind, errors.first().message);
        replyJson(std::move(responder), fieldErrorsJson(errors), Status::UnprocessableEntity);
        return;
    }
    auto held = std::make_shared<Deferred>(std::move(responder));
    const QPointer<WebServer> alive(q);
    const Session by = *session;
    sourceAdmin.apply(edit, [this, alive, held, by, name, kind, oldKind](const core::SourceAdmin::Outcome &outcome) {
        if (!alive) {
            return;
        }
        if (outcome.ok()) {
            auditAdminChange(by,
                             outcome.replaced ? QStringLiteral("source.replace") : QStringLiteral("source.add"),
                             name,
                             oldKind,
                             kind);
        }
        if (!held->socket) {
            return;
        }
        if (outcome.status == core::SourceAdmin::Status::Invalid) {
            replyJson(std::move(held->responder), fieldErrorsJson(outcome.fieldErrors), Status::UnprocessableEntity);
        } else if (!outcome.ok()) {
            replyError(std::move(held->responder), sourceAdminStatus(outcome.status), outcome.error);
        } else {
            QJsonObject row = sourceRow(name);
            row.insert(QStringLiteral("saved"), outcome.saved);
            replyJson(std::move(held->responder), row, outcome.replaced ? Status::Ok : Status::Created);
        }
    });
}

void WebServer::Private::removeSource(const QString &name,
                                      const QHttpServerRequest &request,
                                      QHttpServerResponder &&responder)
{
    const auto session = authorize(request, responder, Role::Admin, true);
    if (!session) {
        return;
    }
    const core::SourceConfig *stored = nullptr;
    const QList<core::SourceConfig> current = engine.sourceConfigs();
    for (const core::SourceConfig &s : current) {
        stored = s.name == name ? &s : stored;
    }
    const QString oldKind = stored ? core::sourceKindName(stored->kind) : QString();
    auto held = std::make_shared<Deferred>(std::move(responder));
    const QPointer<WebServer> alive(q);
    const Session by = *session;
    sourceAdmin.remove(name, [this, alive, held, by, name, oldKind](const core::SourceAdmin::Outcome &outcome) {
        if (!alive) {
            return;
        }
        // A secret that could not be deleted (outcome.error with Ok) does not bring the source back.
        if (outcome.ok()) {
            auditAdminChange(by, QStringLiteral("source.remove"), name, oldKind, QString());
        }
        if (!held->socket) {
            return;
        }
        if (!outcome.ok()) {
            replyError(std::move(held->responder), sourceAdminStatus(outcome.status), outcome.error);
            return;
        }
        replyJson(std::move(held->responder),
                  QJsonObject{{QStringLiteral("removed"), name}, {QStringLiteral("saved"), outcome.saved}});
    });
}

void WebServer::Private::getResource(const QString &resource,
                                     const QHttpServerRequest &request,
                                     QHttpServerResponder &&responder)
{
    if (const auto it = extraRoutes.constFind(resource); it != extraRoutes.constEnd()) {
        if (const auto session = authorize(request, responder, it->role, false)) {
            replyHandled(std::move(responder), it->handler(request, *session));
        }
        return;
    }
    if (!authorize(request, responder, Role::Viewer, false)) {
        return;
    }
    const QUrlQuery query = request.query();
    const auto values = [&](const char *key) {
        QStringList out;
        for (const QString &v : query.allQueryItemValues(QString::fromLatin1(key), QUrl::FullyDecoded)) {
            out << v.split(QLatin1Char(','), Qt::SkipEmptyParts);
        }
        return out;
    };
    const QList<std::pair<QByteArray, QByteArray>> revision{{"X-Strata-Revision", QByteArray::number(feed.revision())}};
    if (resource == QLatin1String("schedules")) {
        core::HistoryService *history = engine.history();
        if (!history) {
            replyError(std::move(responder), ApiError::Unavailable, QStringLiteral("no history store"));
            return;
        }
        const QStringList sources = values("source");
        auto holder = std::make_shared<Deferred>(std::move(responder));
        history->schedules(q, [this, holder, sources, revision](std::vector<core::ServiceLevelSchedule> stored) {
            if (!holder->socket) {
                return;
            }
            QList<core::ServiceLevelSchedule> list(stored.begin(), stored.end());
            list.removeIf([&](const core::ServiceLevelSchedule &s) {
                return !sources.isEmpty() && !sources.contains(s.source);
            });
            replyJson(std::move(holder->responder),
                      keyedRows(QStringLiteral("schedules"), rows::scheduleRows(list, engine.clock().now())),
                      Status::Ok,
                      revision);
        });
        return;
    }
    rows::ResourceFilter filter;
    filter.sources = values("source");
    filter.volumes = values("volume");
    filter.projects = values("project");
    filter.datasets = values("dataset");
    filter.targets = values("target");
    if (resource == QLatin1String("events")) {
        // The same facets and checks as `strata get events`.
        filter.systems = values("system");
        for (const QString &system : std::as_const(filter.systems)) {
            if (!rows::timelineSystemNames().contains(system)) {
                replyError(
                    std::move(responder), ApiError::BadRequest, QStringLiteral("unknown system \"%1\"").arg(system));
                return;
            }
        }
        filter.severity = query.queryItemValue(QStringLiteral("severity"), QUrl::FullyDecoded);
        if (!filter.severity.isEmpty() && !core::timelineSeverityFromName(filter.severity)) {
            replyError(std::move(responder),
                       ApiError::BadRequest,
                       QStringLiteral("unknown severity \"%1\" (critical, error, warning, info)").arg(filter.severity));
            return;
        }
        for (const auto &[key, bound] : {std::pair{"since", &filter.since}, std::pair{"until", &filter.until}}) {
            const QString text = query.queryItemValue(QString::fromLatin1(key), QUrl::FullyDecoded);
            if (text.isEmpty()) {
                continue;
            }
            const auto t = rows::parseTimeBound(text, engine.clock().now());
            if (!t) {
                replyError(
                    std::move(responder),
                    ApiError::BadRequest,
                    QStringLiteral("%1 needs an ISO 8601 time or a duration ago like 2h").arg(QLatin1String(key)));
                return;
            }
            *bound = *t;
        }
        filter.jobs = values("job");
        filter.search = query.queryItemValue(QStringLiteral("search"), QUrl::FullyDecoded);
        bool limitOk = false;
        const int limit = query.queryItemValue(QStringLiteral("limit")).toInt(&limitOk);
        filter.limit = limitOk ? std::max(0, limit) : 0;
    }
    const std::optional<rows::ResultSet> rows = rows::resourceRows(engine, resource, filter, engine.clock().now());
    if (!rows) {
        replyError(std::move(responder), ApiError::NotFound, QStringLiteral("no resource named \"%1\"").arg(resource));
        return;
    }
    replyJson(std::move(responder), keyedRows(resource, *rows), Status::Ok, revision);
}

namespace {

/// ?range=SECONDS (an hour to a year; default a day) ending now.
std::pair<QDateTime, QDateTime> rangeOf(const QUrlQuery &query, const QDateTime &now)
{
    bool ok = false;
    qint64 seconds = query.queryItemValue(QStringLiteral("range")).toLongLong(&ok);
    if (!ok) {
        seconds = 86400;
    }
    seconds = std::clamp<qint64>(seconds, 3600, 31536000);
    return {now.addSecs(-seconds), now};
}

} // namespace

void WebServer::Private::projectHistory(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    core::HistoryService *history = viewerHistory(request, responder);
    if (!history) {
        return;
    }
    const QUrlQuery query = request.query();
    QString source = query.queryItemValue(QStringLiteral("source"), QUrl::FullyDecoded);
    if (source.isEmpty()) {
        for (const core::SourceStatus &s : engine.statuses()) {
            if (s.kind == core::SourceKind::Kubernetes) {
                source = s.name;
                break;
            }
        }
    }
    const auto [from, to] = rangeOf(query, engine.clock().now());
    auto holder = std::make_shared<Deferred>(std::move(responder));
    // ?total=1: the cluster's sum over its projects (the Overview's chart, core::clusterHistory).
    const bool total = query.queryItemValue(QStringLiteral("total")) == QLatin1String("1");
    history->projectHistory(source,
                            query.queryItemValue(QStringLiteral("project"), QUrl::FullyDecoded),
                            from,
                            to,
                            q,
                            [this, holder, source, total](std::vector<core::ProjectSample> samples) {
                                if (!holder->socket) {
                                    return;
                                }
                                if (total) {
                                    samples = core::clusterHistory(samples, source);
                                }
                                QJsonArray out;
                                for (const core::ProjectSample &s : samples) {
                                    QJsonObject o = projectSampleToJson(s);
                                    o.insert(QStringLiteral("source"), source);
                                    out.append(o);
                                }
                                replyJson(std::move(holder->responder), out);
                            });
}

void WebServer::Private::volumeHistory(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    core::HistoryService *history = viewerHistory(request, responder);
    if (!history) {
        return;
    }
    const QUrlQuery query = request.query();
    const QString source = query.queryItemValue(QStringLiteral("source"), QUrl::FullyDecoded);
    const QString volume = query.queryItemValue(QStringLiteral("volume"), QUrl::FullyDecoded);
    if (source.isEmpty() || volume.isEmpty()) {
        replyError(std::move(responder), ApiError::BadRequest, QStringLiteral("source and volume (id) are required"));
        return;
    }
    const auto [from, to] = rangeOf(query, engine.clock().now());
    // Capacity and throughput come from two tables; answer once both reads are back.
    struct Pending
    {
        Deferred held;
        QJsonArray usage;
        QJsonArray perf;
        int left = 2;
    };
    auto pending = std::make_shared<Pending>(Pending{Deferred(std::move(responder)), {}, {}, 2});
    const auto finish = [this, pending] {
        if (--pending->left == 0 && pending->held.socket) {
            replyJson(std::move(pending->held.responder),
                      QJsonObject{{QStringLiteral("usage"), pending->usage}, {QStringLiteral("perf"), pending->perf}});
        }
    };
    history->volumeUsage(source, volume, from, to, q, [pending, finish](std::vector<core::UsageSample> samples) {
        for (const core::UsageSample &s : samples) {
            pending->usage.append(QJsonObject{{QStringLiteral("time"), s.time.toUTC().toString(Qt::ISODate)},
                                              {QStringLiteral("used_bytes"), s.usedBytes},
                                              {QStringLiteral("size_bytes"), s.sizeBytes}});
        }
        finish();
    });
    history->volumePerfHistory(
        source, volume, from, to, q, [pending, finish](std::vector<core::VolumePerfSample> samples) {
            for (const core::VolumePerfSample &s : samples) {
                pending->perf.append(QJsonObject{
                    {QStringLiteral("time"), s.time.toUTC().toString(Qt::ISODate)},
                    {QStringLiteral("throughput_bytes_per_second"), s.throughputBps},
                    {QStringLiteral("iops"), s.iops},
                    {QStringLiteral("latency_us"), s.latencyUs >= 0 ? QJsonValue(s.latencyUs) : QJsonValue()},
                    {QStringLiteral("cap_bytes_per_second"), s.capBps >= 0 ? QJsonValue(s.capBps) : QJsonValue()}});
            }
            finish();
        });
}

void WebServer::Private::diagnosis(const QString &source,
                                   const QString &jobId,
                                   const QHttpServerRequest &request,
                                   QHttpServerResponder &&responder)
{
    if (!authorize(request, responder, Role::Viewer, false)) {
        return;
    }
    if (source.isEmpty() || !jobId.contains(QLatin1Char('/'))) {
        replyError(std::move(responder),
                   ApiError::BadRequest,
                   QStringLiteral("source and job (<namespace>/<name>) are required"));
        return;
    }
    if (!engine.estate().jobs().find(source, source + QLatin1Char('/') + jobId)) {
        replyJson(std::move(responder),
                  core::diagnosisToJson(core::diagnoseJob(engine.estate(), source, jobId)),
                  Status::NotFound);
        return;
    }
    // The volume's perf history comes from the store's thread; answer when it is back.
    auto holder = std::make_shared<Deferred>(std::move(responder));
    core::diagnoseJobAsync(engine.estate(), engine.history(), source, jobId, q, [this, holder](core::JobDiagnosis d) {
        if (holder->socket) {
            replyJson(std::move(holder->responder), core::diagnosisToJson(d));
        }
    });
}

void WebServer::Private::audit(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    core::HistoryService *history = viewerHistory(request, responder);
    if (!history) {
        return;
    }
    const QUrlQuery query = request.query();
    bool ok = false;
    int limit = query.queryItemValue(QStringLiteral("limit")).toInt(&ok);
    limit = ok ? std::clamp(limit, 1, 10000) : 200;
    auto holder = std::make_shared<Deferred>(std::move(responder));
    history->auditLog(limit,
                      query.queryItemValue(QStringLiteral("source"), QUrl::FullyDecoded),
                      q,
                      [this, holder](std::vector<core::AuditEntry> entries) {
                          if (!holder->socket) {
                              return;
                          }
                          QJsonArray out;
                          for (const core::AuditEntry &e : entries) {
                              out.append(auditEntryToJson(e));
                          }
                          replyJson(std::move(holder->responder), out);
                      });
}

void WebServer::Private::supportBundle(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    const auto session = authorize(request, responder, Role::Operator, false);
    if (!session) {
        return;
    }
    auto holder = std::make_shared<Deferred>(std::move(responder));
    core::BundleOptions options;
    options.user = session->user;
    core::collectBundle(engine, options, q, [this, holder](core::Bundle bundle, const QString &) {
        const QString name = QStringLiteral("strata-%1.strata-bundle")
                                 .arg(bundle.meta.created.toUTC().toString(QStringLiteral("yyyyMMdd-HHmmss")));
        QPointer<QObject> self(q);
        // Compressing a large estate takes a while: not on the thread that serves every request.
        QThreadPool::globalInstance()->start([this, self, holder, name, bundle = std::move(bundle)] {
            auto bytes = std::make_shared<QByteArray>(core::encodeBundle(bundle));
            QMetaObject::invokeMethod(QCoreApplication::instance(), [this, self, holder, name, bytes] {
                if (!self || !holder->socket) {
                    return;
                }
                reply(std::move(holder->responder),
                      Status::Ok,
                      "application/gzip",
                      *bytes,
                      {{"Content-Disposition", "attachment; filename=\"" + name.toLatin1() + '"'},
                       {"Cache-Control", "no-store"}});
            });
        });
    });
}

void WebServer::Private::action(bool preview, const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    const auto session = authorize(request, responder, Role::Operator, true);
    if (!session) {
        return;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(request.body(), &parseError);
    if (!doc.isObject()) {
        replyError(std::move(responder), ApiError::BadRequest, QStringLiteral("the body must be a JSON object"));
        return;
    }
    QString error;
    const std::optional<core::ActionRequest> actionRequest = actionRequestFromJson(doc.object(), &error);
    if (!actionRequest) {
        replyError(std::move(responder), ApiError::BadRequest, error);
        return;
    }
    if (preview) {
        replyJson(std::move(responder), previewToJson(engine.actions().preview(*actionRequest)));
        return;
    }
    const QString id = engine.actions().submit(*actionRequest, &error, session->user);
    if (id.isEmpty()) {
        replyError(std::move(responder), ApiError::Conflict, error);
        return;
    }
    replyJson(std::move(responder), QJsonObject{{QStringLiteral("id"), id}}, Status::Accepted);
}

void WebServer::Private::liveHandshake(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    // A WebSocket upgrade reaches this route only after the connection guard (checkHead())
    // accepted its session, Origin and Host: refusing here as well would answer the handshake
    // twice (Qt 6.4 still switches protocols after the route). acceptViewers() checks again.
    const bool upgrade = header(request, "Upgrade").compare("websocket", Qt::CaseInsensitive) == 0
                         && header(request, "Connection").toLower().contains("upgrade");
    if (!upgrade) {
        replyError(std::move(responder), ApiError::BadRequest, QStringLiteral("WebSocket upgrade expected"));
    }
}

void WebServer::Private::acceptViewers()
{
    while (http.hasPendingWebSocketConnections()) {
        std::unique_ptr<QWebSocket> owned = http.nextPendingWebSocketConnection();
        QWebSocket *ws = owned.release();
        ws->setParent(q);
        // Viewers only listen: a large frame or message from one is an attack, refused with 1009.
        ws->setMaxAllowedIncomingFrameSize(quint64(std::max<qint64>(125, options.liveMaxIncomingBytes)));
        ws->setMaxAllowedIncomingMessageSize(quint64(std::max<qint64>(125, options.liveMaxIncomingBytes)));
        const QNetworkRequest handshake = ws->request();
        const QByteArray origin = handshake.rawHeader("Origin");
        const QString id = cookieValue(handshake.rawHeader("Cookie"), kCookieName);
        const std::optional<Session> viewerSession = id.isEmpty() ? std::nullopt : sessions.find(id);
        const bool hasSession = viewerSession.has_value();
        const bool originOk = origin.isEmpty() || originAllowed(origin, handshake.rawHeader("Host"));
        if (!hasSession || !originOk || ws->state() != QAbstractSocket::ConnectedState) {
            ws->close(QWebSocketProtocol::CloseCodePolicyViolated,
                      hasSession ? QStringLiteral("origin not allowed") : QStringLiteral("login required"));
            ws->deleteLater();
            continue;
        }
        QObject::connect(ws, &QWebSocket::disconnected, q, [this, ws] {
            viewers.removeAll(QPointer<QWebSocket>(ws));
            watchPerformance();
            ws->deleteLater();
        });
        ws->setProperty("strata_session", id);
        ws->setProperty("strata_user", viewerSession->user);
        viewers.append(ws);
        watchPerformance();
        const qint64 now = feed.revision();
        ws->sendTextMessage(
            QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("hello")},
                                                        {QStringLiteral("revision"), now}})
                                  .toJson(QJsonDocument::Compact)));
        const QString sinceText = QUrlQuery(handshake.url()).queryItemValue(QStringLiteral("since"));
        if (sinceText.isEmpty()) {
            continue;
        }
        bool ok = false;
        const qint64 since = sinceText.toLongLong(&ok);
        QList<QByteArray> diffs;
        qint64 catchUp = 0;
        if (ok && feed.diffsSince(since, &diffs)) {
            for (const QByteArray &d : std::as_const(diffs)) {
                catchUp += d.size();
            }
        }
        // A catch-up larger than a viewer's send queue is cheaper as a reload over HTTP.
        if (ok && catchUp <= options.liveSendQueueBytes / 2 && feed.diffsSince(since, nullptr)) {
            for (const QByteArray &d : std::as_const(diffs)) {
                ws->sendTextMessage(QString::fromUtf8(d));
            }
        } else {
            ws->sendTextMessage(
                QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("reload")},
                                                            {QStringLiteral("revision"), now}})
                                      .toJson(QJsonDocument::Compact)));
        }
    }
}

WebServer::WebServer(core::Engine &engine, UserStore &users, WebServerOptions options, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>(this, engine, users, std::move(options)))
{
    d->registerRoutes();
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

WebServer::~WebServer()
{
    d->loginPool.waitForDone();
    for (const QPointer<QWebSocket> &ws : std::as_const(d->viewers)) {
        if (ws) {
            ws->disconnect(this);
        }
    }
    if (d->perfSubscribed) {
        d->engine.unsubscribePerformance();
    }
}

bool WebServer::listen(QString *error)
{
    const auto fail = [error](const QString &why) {
        if (error) {
            *error = why;
        }
        return false;
    };
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
    Private *p = d.get();
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
    return true;
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
        d->extraRoutes.insert(path, Private::ExtraRoute{role, std::move(handler)});
        return;
    }
    d->http.route(QStringLiteral("/api/v1/") + path,
                  QHttpServerRequest::Method::Get,
                  [this, role, handler = std::move(handler)](const QHttpServerRequest &request,
                                                             QHttpServerResponder &&responder) {
                      if (const auto session = d->authorize(request, responder, role, false)) {
                          d->replyHandled(std::move(responder), handler(request, *session));
                      }
                  });
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
