#include "web/controllers.h"
#include "web/httpguard.h"
#include "web/router.h"
#include "web/servercontext.h"

#include "models/core/runtime/engine.h"
#include "models/core/runtime/replicas.h"
#include "models/core/services/historyservice.h"
#include "models/core/sources/source.h"

#include <QFile>
#include <QFileInfo>
#include <QHttpServer>

#include <openssl/crypto.h>

namespace strata::web {

namespace {

QByteArray siteMimeFor(const QString &path)
{
    static const QHash<QString, QByteArray> kTypes{
        {QStringLiteral("html"), "text/html; charset=utf-8"},
        {QStringLiteral("js"), "text/javascript; charset=utf-8"},
        {QStringLiteral("mjs"), "text/javascript; charset=utf-8"},
        {QStringLiteral("css"), "text/css; charset=utf-8"},
        {QStringLiteral("svg"), "image/svg+xml"},
        {QStringLiteral("png"), "image/png"},
        {QStringLiteral("ico"), "image/x-icon"},
        {QStringLiteral("json"), "application/json"},
        {QStringLiteral("woff2"), "font/woff2"},
    };
    return kTypes.value(QFileInfo(path).suffix().toLower(), "application/octet-stream");
}

void siteIndex(RouteCall &call)
{
    QFile f(QStringLiteral(":/www/index.html"));
    if (!f.open(QIODevice::ReadOnly)) {
        call.context.replyError(
            std::move(call.responder), ApiError::NotFound, QStringLiteral("the web console is not bundled"));
        return;
    }
    call.context.reply(std::move(call.responder),
                       HttpStatus::Ok,
                       siteMimeFor(f.fileName()),
                       f.readAll(),
                       {{"Cache-Control", "no-cache"}});
}

/// Whether `header` is "Bearer <token>", in time independent of where they differ.
bool siteBearerMatches(const QByteArray &header, const QByteArray &token)
{
    const QByteArray expected = "Bearer " + token;
    if (header.size() != expected.size()) {
        return false;
    }
    return CRYPTO_memcmp(header.constData(), expected.constData(), size_t(expected.size())) == 0;
}

void siteMetrics(RouteCall &call)
{
    ServerContext &c = call.context;
    if (!c.options.metricsToken.isEmpty()
        && !siteBearerMatches(requestHeader(call.request, "Authorization"), c.options.metricsToken)) {
        ++c.counters.refusedRequests["metrics_unauthorized"];
        c.replyError(std::move(call.responder),
                     ApiError::LoginRequired,
                     QStringLiteral("/metrics needs the metrics bearer token"),
                     {{"WWW-Authenticate", "Bearer realm=\"metrics\""}});
        return;
    }
    c.counters.connections = c.guard ? c.guard->connections() : 0;
    c.counters.liveViewers = c.live.count();
    c.counters.liveQueuedBytes = c.live.queuedBytes();
    c.counters.liveKeptBytes = c.feed.keptBytes();
    c.counters.publicUrl = c.options.publicUrl;
    c.live.holdPerformanceForScrape();
    c.reply(std::move(call.responder),
            HttpStatus::Ok,
            "text/plain; version=0.0.4; charset=utf-8",
            prometheusText(c.engine) + webServerMetricsText(c.counters)
                + runtimeMetricsText(readProcessFigures(), c.timings)
                + (c.replicas ? replicaMetricsText(c.replicas->stats(), c.replicas->owners()) : QByteArray()));
}

void siteHealth(RouteCall &call)
{
    ServerContext &c = call.context;
    QStringList failing;
    for (const core::SourceStatus &s : c.engine.statuses()) {
        if (s.health != core::Health::Ok && s.health != core::Health::Degraded) {
            failing << s.name + QStringLiteral(": ")
                           + (s.lastError.isEmpty() ? core::healthName(s.health) : s.lastError);
        }
    }
    if (failing.isEmpty() && c.engine.allPolledOnce()) {
        c.reply(std::move(call.responder), HttpStatus::Ok, "text/plain; charset=utf-8", "ok\n");
        return;
    }
    // Which sources fail and why (endpoints, vendor errors) only for a signed-in user: the
    // probe itself needs just the status.
    const QString id = cookieValue(requestHeader(call.request, "Cookie"), kSessionCookieName);
    if (id.isEmpty() || !c.sessions.find(id)) {
        c.reply(std::move(call.responder),
                HttpStatus::ServiceUnavailable,
                "text/plain; charset=utf-8",
                failing.isEmpty()     ? QByteArray("not ready: not every source has been polled yet\n")
                : failing.size() == 1 ? QByteArray("not ready: 1 source failing\n")
                                      : "not ready: " + QByteArray::number(failing.size()) + " sources failing\n");
        return;
    }
    if (failing.isEmpty()) {
        failing << QStringLiteral("not every source has been polled yet");
    }
    c.reply(std::move(call.responder),
            HttpStatus::ServiceUnavailable,
            "text/plain; charset=utf-8",
            failing.join(QLatin1Char('\n')).toUtf8() + '\n');
}

/// Liveness: the event loop answers. Nothing else: a vendor or the database being down is no
/// reason to restart the process.
void siteLive(RouteCall &call)
{
    call.context.reply(std::move(call.responder), HttpStatus::Ok, "text/plain; charset=utf-8", "ok\n");
}

/// Readiness: the history store answers (replicas share their schedules, audit log and journal
/// through it). Sources being down do not take the console out of the load balancer: it shows
/// them as down.
void siteReady(RouteCall &call)
{
    ServerContext &c = call.context;
    core::HistoryService *history = c.engine.history();
    if (!history) {
        c.reply(std::move(call.responder), HttpStatus::Ok, "text/plain; charset=utf-8", "ok (no history store)\n");
        return;
    }
    auto holder = std::make_shared<Deferred>(std::move(call.responder));
    ServerContext *ctx = &c;
    history->ping(c.q, [ctx, holder](const QString &error) {
        if (!holder->socket) {
            return;
        }
        if (error.isEmpty()) {
            ctx->reply(std::move(holder->responder), HttpStatus::Ok, "text/plain; charset=utf-8", "ok\n");
            return;
        }
        ctx->reply(std::move(holder->responder),
                   HttpStatus::ServiceUnavailable,
                   "text/plain; charset=utf-8",
                   QStringLiteral("store: %1\n").arg(error).toUtf8());
    });
}

void siteVersion(RouteCall &call)
{
    // No login: a client checks what it talks to before it signs in.
    call.context.replyJson(std::move(call.responder),
                           QJsonObject{{QStringLiteral("api_version"), QLatin1String(kApiVersion)}});
}

} // namespace

void registerSiteRoutes(Router &router)
{
    using Method = Router::Method;
    router.add({{Method::Get, QStringLiteral("/"), Router::Access::Public, Role::Viewer, &siteIndex}});
    // A QUrl argument spans several path segments (static/pages/x.js): QHttpServer's own route.
    ServerContext *c = &router.context();
    c->http.route(QStringLiteral("/static/<arg>"),
                  QHttpServerRequest::Method::Get,
                  [c](const QUrl &file, QHttpServerResponder &&responder) {
                      const QString path = file.path();
                      if (path.contains(QLatin1String("..")) || path.startsWith(QLatin1Char('/'))) {
                          c->replyError(std::move(responder), ApiError::NotFound, QStringLiteral("not found"));
                          return;
                      }
                      QFile f(QStringLiteral(":/www/") + path);
                      if (!f.open(QIODevice::ReadOnly)) {
                          c->replyError(std::move(responder), ApiError::NotFound, QStringLiteral("not found"));
                          return;
                      }
                      c->reply(std::move(responder),
                               HttpStatus::Ok,
                               siteMimeFor(path),
                               f.readAll(),
                               {{"Cache-Control", "max-age=" + QByteArray::number(c->options.staticMaxAgeSeconds)}});
                  });
    router.add({{Method::Get, QStringLiteral("/healthz"), Router::Access::Public, Role::Viewer, &siteHealth},
                {Method::Get, QStringLiteral("/livez"), Router::Access::Public, Role::Viewer, &siteLive},
                {Method::Get, QStringLiteral("/readyz"), Router::Access::Public, Role::Viewer, &siteReady},
                {Method::Get, QStringLiteral("/api/v1/version"), Router::Access::Public, Role::Viewer, &siteVersion},
                {Method::Get, QStringLiteral("/metrics"), Router::Access::Public, Role::Viewer, &siteMetrics}});
}

} // namespace strata::web
