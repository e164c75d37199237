#include "web/servercontext.h"

#include "web/httpguard.h"

#include "models/core/domain/clock.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/historyservice.h"

#include <QHostAddress>
#include <QHttpServerRequest>
#include <QHttpServerResponse>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUuid>

#include <algorithm>

namespace strata::web {

namespace {

const QByteArray kJsonMime = QByteArrayLiteral("application/json");

} // namespace

QByteArray requestHeader(const QHttpServerRequest &request, const QByteArray &name)
{
    for (const auto &[key, value] : request.headers()) {
        if (key.compare(name, Qt::CaseInsensitive) == 0) {
            return value;
        }
    }
    return {};
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

QJsonObject sessionJson(const Session &session)
{
    return QJsonObject{{QStringLiteral("user"), session.user},
                       {QStringLiteral("role"), roleName(session.role)},
                       {QStringLiteral("csrf_token"), session.csrfToken}};
}

ExpensiveRouteLimiter::ExpensiveRouteLimiter(int inFlight, int perMinute)
    : m_inFlight(std::max(1, inFlight))
    , m_perMinute(std::max(1, perMinute))
{
    m_clock.start();
}

int ExpensiveRouteLimiter::admit(const QString &user)
{
    constexpr qint64 kMinuteMs = 60 * 1000;
    const qint64 now = m_clock.elapsed();
    Use &use = m_users[user];
    while (!use.starts.isEmpty() && use.starts.constFirst() <= now - kMinuteMs) {
        use.starts.removeFirst();
    }
    if (use.running >= m_inFlight) {
        return 1;
    }
    if (use.starts.size() >= m_perMinute) {
        return int(std::max<qint64>(1, (use.starts.constFirst() + kMinuteMs - now + 999) / 1000));
    }
    ++use.running;
    use.starts.append(now);
    return 0;
}

void ExpensiveRouteLimiter::finish(const QString &user)
{
    const auto it = m_users.find(user);
    if (it == m_users.end()) {
        return;
    }
    it->running = std::max(0, it->running - 1);
    if (it->running == 0 && it->starts.isEmpty()) {
        m_users.erase(it);
    }
}

ServerContext::ServerContext(WebServer *owner, core::Engine &engine, UserStore &users, WebServerOptions options)
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
    , logins(owner, engine.clock(), limiter, this->options.loginWorkers, this->options.loginQueueLimit)
    , live(*this)
    , expensive(this->options.expensiveRoutesInFlight, this->options.expensiveRoutesPerMinute)
{
    feed.setMaxKeptBytes(this->options.liveKeptDiffBytes);
    followPollTimings();
    if (this->options.usersInStore && engine.history()) {
        SharedAuth::Hooks hooks;
        hooks.endUser = [this](const QString &name, const QString &why) {
            endUserConnections(name, why);
        };
        hooks.closeSession = [this](const QString &id) {
            live.closeSession(id);
        };
        shared = std::make_unique<SharedAuth>(*engine.history(),
                                              users,
                                              sessions,
                                              engine.clock(),
                                              std::move(hooks),
                                              std::chrono::milliseconds(std::max(50, this->options.sharedSyncMs)));
    }
}

void ServerContext::followPollTimings()
{
    QObject::connect(&engine, &core::Engine::sourceStatusChanged, q, [this](const QString &name) {
        const std::optional<core::SourceStatus> s = engine.status(name);
        if (!s || !s->lastSuccess.isValid() || s->latencyMs < 0 || m_pollsSeen.value(name) == s->lastSuccess) {
            return;
        }
        m_pollsSeen.insert(name, s->lastSuccess);
        timings.observePoll(name, core::sourceKindName(s->kind), double(s->latencyMs) / 1000.0);
    });
    QObject::connect(&engine, &core::Engine::sourcesChanged, q, [this] {
        std::vector<QString> names;
        for (const core::SourceStatus &s : engine.statuses()) {
            names.push_back(s.name);
        }
        timings.keepSources(names);
        m_pollsSeen.removeIf([&names](const auto &entry) {
            return std::find(names.cbegin(), names.cend(), entry.key()) == names.cend();
        });
    });
}

ServerContext::~ServerContext()
{
    logins.waitForDone();
}

void ServerContext::reply(QHttpServerResponder &&responder,
                          HttpStatus status,
                          const QByteArray &mime,
                          const QByteArray &body,
                          const ReplyHeaders &extra) const
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

void ServerContext::replyJson(QHttpServerResponder &&responder,
                              const QJsonValue &value,
                              HttpStatus status,
                              const ReplyHeaders &extra) const
{
    const QByteArray body = value.isArray() ? QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact)
                                            : QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
    reply(std::move(responder), status, kJsonMime, body, extra);
}

void ServerContext::replyHandled(QHttpServerResponder &&responder, const QJsonValue &value) const
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

void ServerContext::replyError(QHttpServerResponder &&responder,
                               ApiError error,
                               const QString &message,
                               const ReplyHeaders &extra) const
{
    replyJson(std::move(responder), apiErrorBody(error, message), HttpStatus(apiErrorStatus(error)), extra);
}

void ServerContext::replyError(QHttpServerResponder &&responder,
                               HttpStatus status,
                               const QString &message,
                               const ReplyHeaders &extra) const
{
    replyError(std::move(responder), apiErrorForStatus(int(status)).value_or(ApiError::Internal), message, extra);
}

void ServerContext::replyError(QHttpServerResponder &&responder,
                               const core::Error &error,
                               const ReplyHeaders &extra) const
{
    replyError(std::move(responder), apiErrorFor(error), error.message, extra);
}

core::HistoryService *ServerContext::historyOrUnavailable(QHttpServerResponder &responder)
{
    core::HistoryService *history = engine.history();
    if (!history) {
        replyError(std::move(responder), ApiError::Unavailable, QStringLiteral("no history store"));
    }
    return history;
}

bool ServerContext::originAllowed(const QByteArray &origin, const QByteArray &host) const
{
    const QString o = QString::fromLatin1(origin).trimmed();
    if (o.isEmpty() || o == QLatin1String("null")) {
        return false;
    }
    const QString own = (tls() ? QStringLiteral("https://") : QStringLiteral("http://")) + QString::fromLatin1(host);
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

std::optional<Session> ServerContext::authorize(const QHttpServerRequest &request,
                                                QHttpServerResponder &responder,
                                                Role role,
                                                bool stateChanging)
{
    const QString id = cookieValue(requestHeader(request, "Cookie"), kSessionCookieName);
    std::optional<Session> session = id.isEmpty() ? std::nullopt : sessions.find(id);
    if (!session && shared && !id.isEmpty()) {
        // Possibly a session another replica made a moment ago: ask the store, off this path.
        auto held = std::make_shared<Deferred>(std::move(responder));
        const QByteArray again = request.url().toEncoded(QUrl::RemoveScheme | QUrl::RemoveAuthority);
        const SharedAuth::LookupStart started = shared->lookup(id, [this, held, again](bool found) {
            if (!held->socket) {
                return;
            }
            if (found) {
                reply(std::move(held->responder),
                      HttpStatus::TemporaryRedirect,
                      kJsonMime,
                      QByteArrayLiteral("{}"),
                      {{"Location", again.isEmpty() ? QByteArrayLiteral("/") : again}});
            } else {
                replyError(std::move(held->responder), ApiError::LoginRequired, QStringLiteral("login required"));
            }
        });
        if (started == SharedAuth::LookupStart::Busy) {
            replyError(std::move(held->responder),
                       ApiError::Unavailable,
                       QStringLiteral("too many sessions are being checked; try again in a moment"),
                       {{"Retry-After", "1"}});
        } else if (started == SharedAuth::LookupStart::NotShared) {
            replyError(std::move(held->responder), ApiError::LoginRequired, QStringLiteral("login required"));
        }
        return std::nullopt;
    }
    if (!session) {
        replyError(std::move(responder), ApiError::LoginRequired, QStringLiteral("login required"));
        return std::nullopt;
    }
    if (stateChanging) {
        const QByteArray origin = requestHeader(request, "Origin");
        if (!origin.isEmpty() && !originAllowed(origin, requestHeader(request, "Host"))) {
            replyError(std::move(responder), ApiError::Forbidden, QStringLiteral("origin not allowed"));
            return std::nullopt;
        }
        const QByteArray token = requestHeader(request, "X-CSRF-Token");
        if (token.isEmpty() || QString::fromLatin1(token) != session->csrfToken) {
            replyError(std::move(responder), ApiError::Forbidden, QStringLiteral("missing or wrong CSRF token"));
            return std::nullopt;
        }
    }
    if (int(session->role) < int(role)) {
        replyError(
            std::move(responder), ApiError::Forbidden, QStringLiteral("the %1 role is required").arg(roleName(role)));
        return std::nullopt;
    }
    return session;
}

QByteArray ServerContext::sessionCookie(const QString &value, bool expire) const
{
    QByteArray c = QByteArray(kSessionCookieName) + '=' + value.toLatin1() + "; Path=/; HttpOnly; SameSite=Strict";
    if (tls()) {
        c += "; Secure";
    }
    if (expire) {
        c += "; Max-Age=0";
    }
    return c;
}

bool ServerContext::hostAllowed(const QByteArray &hostHeader) const
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

HeadVerdict ServerContext::checkHead(const RequestHead &head)
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
    const QString id = cookieValue(head.header("Cookie"), kSessionCookieName);
    if (head.websocketUpgrade()) {
        // Refused here, once, before QHttpServer could answer the handshake with 101.
        v.reason = "websocket_refused";
        if (path != "/api/v1/live") {
            v.status = 404;
            v.message = QStringLiteral("WebSockets are served at /api/v1/live only");
            return v;
        }
        if (id.isEmpty() || !sessions.find(id)) {
            if (shared && !id.isEmpty() && shared->lookup(id, [](bool) {}) == SharedAuth::LookupStart::Started) {
                // A session of another replica, maybe: the next attempt finds it known here.
                v.status = 503;
                v.message = QStringLiteral("the session is being checked; try again");
                v.reason = "session_lookup";
                v.headers = {{"Retry-After", "1"}};
                return v;
            }
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
    } else if (writes && path == "/api/v1/what-if/quota" && !id.isEmpty() && sessions.find(id)) {
        v.maxBodyBytes = std::min(options.maxWhatIfBodyBytes, options.maxApiBodyBytes);
    } else if (writes && path.startsWith("/api/v1/")) {
        // A cookie another replica may have made gets the session's limit: its lookup starts now,
        // and the route answers it (web/servercontext.h authorize()).
        if (!id.isEmpty()
            && (sessions.find(id) || (shared && shared->lookup(id, [](bool) {}) == SharedAuth::LookupStart::Started))) {
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

void ServerContext::endUserConnections(const QString &name, const QString &why)
{
    sessions.removeUser(name);
    live.closeUser(name, why);
}

bool ServerContext::audit(const QString &user,
                          const QString &kind,
                          const QString &target,
                          const QString &from,
                          const QString &to,
                          const QString &outcome,
                          const QString &message)
{
    core::HistoryService *history = engine.history();
    if (!history) {
        return true;
    }
    core::AuditEntry e;
    e.time = engine.clock().now().toUTC();
    e.user = user;
    e.actionId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    e.source = QStringLiteral("strata-server");
    e.kind = kind;
    e.target = target;
    e.fromState = from;
    e.toState = to;
    e.outcome = outcome;
    e.message = message;
    return history->appendAudit(e);
}

} // namespace strata::web
