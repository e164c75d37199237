#include "web/controllers.h"
#include "web/httpguard.h"
#include "web/router.h"
#include "web/servercontext.h"

#include "models/core/runtime/engine.h"

#include <QJsonDocument>

namespace strata::web {

namespace {

/// Counts, logs and audits the lockout a failed login started (nothing for None).
void auditLoginLockout(ServerContext &c, LoginLockout lockout, const QString &client, const QString &name)
{
    if (lockout == LoginLockout::None) {
        return;
    }
    const LoginLimits &limits = c.limiter.limits();
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
    ++c.counters.loginLockouts[scope];
    qWarning("strata-server: login lockout: %s", qUtf8Printable(message));
    c.audit(user,
            QStringLiteral("login.lockout"),
            QStringLiteral("%1 from %2").arg(user, client),
            QString(),
            QString::fromLatin1(scope),
            QStringLiteral("refused"),
            message);
}

void sessionLogin(RouteCall &call)
{
    ServerContext &c = call.context;
    const QByteArray origin = requestHeader(call.request, "Origin");
    if (!origin.isEmpty() && !c.originAllowed(origin, requestHeader(call.request, "Host"))) {
        c.replyError(std::move(call.responder), ApiError::Forbidden, QStringLiteral("origin not allowed"));
        return;
    }
    const QJsonObject body = QJsonDocument::fromJson(call.request.body()).object();
    const QString name = body.value(QLatin1String("user")).toString();
    const QString password = body.value(QLatin1String("password")).toString();
    const QString client = clientKey(forwardedClient(
        call.request.remoteAddress(), requestHeader(call.request, "X-Forwarded-For"), c.options.trustedProxies));
    if (const auto wait = c.limiter.retryAfter(client, name); wait.count() > 0) {
        ++c.counters.refusedRequests["login_throttled"];
        c.replyError(std::move(call.responder),
                     ApiError::TooManyRequests,
                     QStringLiteral("too many failed logins; try again in %1 s").arg(wait.count()),
                     {{"Retry-After", QByteArray::number(qint64(wait.count()))}});
        return;
    }
    if (c.logins.inFlight.contains(client)) {
        ++c.counters.refusedRequests["login_busy"];
        c.replyError(std::move(call.responder),
                     ApiError::TooManyRequests,
                     QStringLiteral("a login from this address is being checked"),
                     {{"Retry-After", "1"}});
        return;
    }
    auto held = std::make_shared<Deferred>(std::move(call.responder));
    // A copy for the worker: the users may change here (a web route, another replica) meanwhile.
    const LoginCandidate candidate = c.users.snapshot(name);
    ServerContext *ctx = &c;
    const bool queued = c.logins.enqueue(c.logins.laneOf(client), [ctx, held, candidate, name, password, client] {
        std::optional<User> user = candidate.authenticate(password);
        QMetaObject::invokeMethod(
            ctx->q,
            [ctx, held, name, client, user = std::move(user)] {
                ctx->logins.inFlight.remove(client);
                if (!user) {
                    auditLoginLockout(*ctx, ctx->limiter.recordFailure(client, name), client, name);
                    if (held->socket) {
                        ctx->replyError(std::move(held->responder),
                                        ApiError::LoginRequired,
                                        QStringLiteral("wrong user name or password"));
                    }
                    return;
                }
                ctx->limiter.recordSuccess(client, name);
                ctx->logins.trust(client);
                if (!held->socket) {
                    return;
                }
                const Session session = ctx->sessions.create(*user);
                if (!ctx->shared) {
                    ctx->replyJson(std::move(held->responder),
                                   sessionJson(session),
                                   HttpStatus::Ok,
                                   {{"Set-Cookie", ctx->sessionCookie(session.id, false)}});
                    return;
                }
                // The cookie leaves only once the session is in the store, where every replica
                // can find it.
                ctx->shared->persist(session, user->passwordHash, [ctx, held, session](core::Result<bool> stored) {
                    if (!held->socket) {
                        return;
                    }
                    if (!stored) {
                        ctx->replyError(
                            std::move(held->responder),
                            ApiError::Unavailable,
                            QStringLiteral("the session store is unavailable: %1").arg(stored.error().message),
                            {{"Retry-After", "5"}});
                    } else if (!*stored) {
                        ctx->replyError(std::move(held->responder),
                                        ApiError::LoginRequired,
                                        QStringLiteral("wrong user name or password"));
                    } else {
                        ctx->replyJson(std::move(held->responder),
                                       sessionJson(session),
                                       HttpStatus::Ok,
                                       {{"Set-Cookie", ctx->sessionCookie(session.id, false)}});
                    }
                });
            },
            Qt::QueuedConnection);
    });
    if (!queued) {
        ++c.counters.refusedRequests["login_busy"];
        c.replyError(std::move(held->responder),
                     ApiError::TooManyRequests,
                     QStringLiteral("too many logins are being checked; try again in a moment"),
                     {{"Retry-After", "1"}});
        return;
    }
    c.logins.inFlight.insert(client);
}

void sessionLogout(RouteCall &call)
{
    ServerContext &c = call.context;
    c.sessions.remove(call.session->id);
    if (c.shared) {
        c.shared->endSession(*call.session);
    }
    c.live.closeSession(call.session->id);
    c.replyJson(std::move(call.responder),
                QJsonObject{{QStringLiteral("ok"), true}},
                HttpStatus::Ok,
                {{"Set-Cookie", c.sessionCookie(QString(), true)}});
}

void sessionShow(RouteCall &call)
{
    call.context.replyJson(std::move(call.responder), sessionJson(*call.session));
}

} // namespace

void registerSessionRoutes(Router &router)
{
    using Method = Router::Method;
    using Access = Router::Access;
    router.add({{Method::Post, QStringLiteral("/api/v1/login"), Access::Public, Role::Viewer, &sessionLogin},
                {Method::Post, QStringLiteral("/api/v1/logout"), Access::Write, Role::Viewer, &sessionLogout},
                {Method::Get, QStringLiteral("/api/v1/session"), Access::Read, Role::Viewer, &sessionShow}});
}

} // namespace strata::web
