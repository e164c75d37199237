#pragma once

#include "web/auth.h"

#include <QHostAddress>
#include <QJsonObject>
#include <QJsonValue>
#include <QObject>
#include <QStringList>
#include <QUrl>

#include <functional>
#include <memory>

class QHttpServerRequest;

namespace strata::core {
class Engine;
}

namespace strata::web {

class LiveFeed;

struct WebServerOptions
{
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 0; ///< 0 = any free port (see WebServer::port())
    /// PEM certificate chain and key; both empty = plain HTTP (loopback and tests only; the
    /// session cookie is then not marked Secure).
    QString tlsCertFile;
    QString tlsKeyFile;
    /// Origins ("https://strata.example.com") allowed to open the WebSocket and to send
    /// state-changing requests, besides the server's own origin (scheme://host:port of the
    /// request's Host header).
    QStringList allowedOrigins;
    /// Responses to static assets are cached this long by browsers (index.html never).
    int staticMaxAgeSeconds = 3600;
    /// LiveFeed tuning (web/livefeed.h): estate changes are coalesced this long, and this many
    /// diffs are kept for clients that reconnect with ?since=.
    int liveCoalesceMs = 200;
    int liveKeptDiffs = 4096;
    /// The config file that POST/DELETE /api/v1/sources rewrite (its "sources" array only; the
    /// other keys, "web" included, are kept). Empty = source changes live in memory only
    /// (--demo, tests) and their replies say {"saved": false}.
    QString configPath;
};

/// strata-server's HTTP side on QHttpServer (TLS through QSslServer), one port:
///
///   GET  /                         the web console (qrc :/www/index.html), no login needed
///   GET  /static/<file>            bundled JS/CSS (qrc :/www/...)
///   GET  /healthz                  200 "ok" when every source polled once and none is down, else
///                                  503 with the failing sources (no login: for probes)
///   GET  /metrics                  Prometheus text format (no login; web/metrics.h)
///   POST /api/v1/login             {"user","password"} -> 200 {"user","role","csrf_token"} + cookie;
///                                  401 wrong; 429 + Retry-After when throttled
///   POST /api/v1/logout            ends the session
///   GET  /api/v1/session           {"user","role","csrf_token"} or 401
///   GET  /api/v1/<resource>        rows as `strata get <resource> -o json` prints them
///                                  (rows::resourceRows) plus "key" (web/api.h rowKey); query
///                                  parameters source, volume, project, dataset, target as the
///                                  CLI flags (repeatable or comma-separated); header
///                                  X-Strata-Revision = the feed's revision when read
///   GET  /api/v1/events            the Triage timeline (`strata get events`), newest first, key =
///                                  the entry id; also ?system=, severity= (that and worse), job=,
///                                  since=/until= (ISO 8601 or 2h, 30m, 7d ago), search=, limit=N;
///                                  unknown system/severity or a malformed time -> 400. The live
///                                  feed's "events" holds the newest 2,000.
///   GET  /api/v1/history/projects  ?source=S&project=P&range=SECONDS (3600..31536000, default a
///                                  day): [{"time","source","project","allocated","quota",
///                                  "pending","utilization" 0..1|null}] (GPUs)
///   GET  /api/v1/history/volumes   ?source=S&volume=ID&range=SECONDS: {"usage":[{"time",
///                                  "used_bytes","size_bytes"}],"perf":[{"time",
///                                  "throughput_bytes_per_second","iops","latency_us",
///                                  "cap_bytes_per_second"}]}
///   GET  /api/v1/audit?limit=N     the audit log, newest first (web/api.h auditEntryToJson)
///   GET  /api/v1/users             names, roles and creation times (admin; never hashes)
///   POST /api/v1/sources           a source object in the config-file format (core::AppConfig),
///                                  plus optional "password" and "s3_secret" strings -> 201 new /
///                                  200 replaced: the sources row + "saved"; the secrets go to the
///                                  engine's credential store under core::credentialKey and the
///                                  source refers to them as keychain refs (a replace without them
///                                  keeps the old refs); 400 with the parser's sentence (admin)
///   DELETE /api/v1/sources/<name>  removes the source and the secrets it stored (admin)
///                                  Both are audited (source.add/replace/remove), never with a
///                                  secret, and rewrite WebServerOptions::configPath when set.
///   POST /api/v1/actions/preview   ActionRequest JSON (web/api.h) -> preview (operator)
///   POST /api/v1/actions           ActionRequest JSON -> 202 {"id"}; audited with the session's
///                                  user; 400 unknown/not offered kind, 409 blocked
///   GET  /api/v1/actions/<id>      state, progress, message, user
///   GET  /api/v1/live?since=<rev>  WebSocket: LiveFeed diffs (web/livefeed.h); refused (401/403
///                                  on the handshake) without a session or from a foreign Origin
///
/// Every /api/v1 route needs a session (401 otherwise) and the route's role (403 otherwise).
/// Logins are throttled (web/auth.h LoginLimiter: 429 + Retry-After) and checked on a worker
/// thread, one at a time per client address; logging out closes that session's WebSockets.
/// POST/PUT/DELETE need the session's X-CSRF-Token and, when sent, an allowed Origin (403).
/// Responses carry Content-Security-Policy "default-src 'self'", X-Content-Type-Options nosniff,
/// Referrer-Policy no-referrer and (TLS) Strict-Transport-Security. Secrets never appear in a
/// response: source configs are served without passwords, keys or secret references.
class WebServer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WebServer)

public:
    WebServer(core::Engine &engine, UserStore &users, WebServerOptions options, QObject *parent = nullptr);
    ~WebServer() override;

    /// Binds and listens. false + error (port in use, unreadable certificate or key).
    bool listen(QString *error = nullptr);
    [[nodiscard]] quint16 port() const;
    /// "https://127.0.0.1:8443" (or http://).
    [[nodiscard]] QUrl url() const;

    /// A read-only JSON route under /api/v1/ (path without that prefix, e.g. "sentiment/calls").
    /// Query parameters are available from the request. The handler runs on the owner thread
    /// and must not block. Returning {"error": sentence} answers 400 with it, {"error": sentence,
    /// "status": 404} that status.
    using JsonHandler = std::function<QJsonValue(const QHttpServerRequest &request, const Session &session)>;
    void addGetRoute(const QString &path, Role role, JsonHandler handler);

    /// The live update channel (also used by features to publish their own resources).
    [[nodiscard]] LiveFeed &feed();
    [[nodiscard]] SessionManager &sessions();

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace strata::web
