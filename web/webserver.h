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
class QSslCipher;

namespace strata::core {
class ReplicaCoordinator;
class Engine;
} // namespace strata::core

namespace strata::web {

class LiveFeed;

/// The TLS cipher suites the server offers: Mozilla's "intermediate" profile (TLS 1.2 with
/// ECDHE/DHE and AES-GCM or ChaCha20-Poly1305, TLS 1.3's three), those the TLS library has.
QList<QSslCipher> intermediateTlsCiphers();

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
    /// While at least one viewer is connected, the server holds a performance subscription on
    /// the engine (as the desktop's Volumes page does), so ONTAP volumes have a current
    /// throughput on the Service levels page; a /metrics scrape holds it for 10 minutes too
    /// (the throughput-cap alert). Off: performance is only recorded for history.
    bool watchPerformanceWithViewers = true;
    /// The config file that POST/DELETE /api/v1/sources rewrite (its "sources" array only; the
    /// other keys, "web" included, are kept). Empty = source changes live in memory only
    /// (--demo, tests) and their replies say {"saved": false}.
    QString configPath;
    /// The console's address as users open it ("https://strata.example.com", no trailing
    /// slash), exported as strata_console_info{url} so alert rules link to its pages; empty =
    /// not configured (the alerts then carry only the page's "/#/..." path).
    QString publicUrl;

    /// Host names the server answers to besides its listen address, localhost (when listening
    /// on loopback or every address), the machine's own name, the hosts of allowedOrigins and
    /// the TLS certificate's DNS names. Any other Host header is refused with 421 before any
    /// route (DNS rebinding). Case-insensitive, without port.
    QStringList allowedHosts;

    // Request limits, checked on the header block before any byte of a body is read. A request
    // over one is answered with the status named and the connection closed.
    int maxHeaderBytes = 16 * 1024;       ///< request line + headers; 431
    int maxUrlBytes = 8 * 1024;           ///< the request target (path and query); 414
    qint64 maxLoginBodyBytes = 4 * 1024;  ///< POST /api/v1/login; 413
    qint64 maxApiBodyBytes = 1024 * 1024; ///< other /api/v1 requests with a live session; 413
    qint64 maxOtherBodyBytes = 1024;      ///< every other route; 413 (/api/v1 without a session: 401)
    /// When set, GET /metrics answers only a request with "Authorization: Bearer <token>"
    /// (401 otherwise), as Prometheus' bearer_token / a ServiceMonitor's bearerTokenSecret send
    /// it. Empty: /metrics is open to whoever reaches the server. A secret: never logged.
    QByteArray metricsToken;
    /// POST /api/v1/what-if/quota: a body naming every project of a 2,000-project cluster in
    /// both members fits; 413.
    qint64 maxWhatIfBodyBytes = 256 * 1024;
    /// Routes whose work grows with the estate (the quota what-if): per user at most this many
    /// at once and this many started a minute; more is 429 with Retry-After.
    int expensiveRoutesInFlight = 2;
    int expensiveRoutesPerMinute = 30;

    // Connection limits.
    int headerTimeoutMs = 10000;      ///< a complete header block within this of its first byte (408)
    int idleTimeoutMs = 60000;        ///< no byte either way for this long closes the connection
    int maxConnections = 1000;        ///< at once (WebSockets included); lowered to fit RLIMIT_NOFILE
    int maxConnectionsPerClient = 64; ///< at once from one address; excess closed at accept
    /// Reverse proxies in front of the server (addresses or CIDR subnets, see
    /// parseTrustedProxies()): their connections are exempt from maxConnectionsPerClient, and a
    /// request through one counts, for login throttling and the audit, as coming from the
    /// address it names in X-Forwarded-For. X-Forwarded-For from anyone else is ignored.
    QList<QPair<QHostAddress, int>> trustedProxies;

    // Logins (web/auth.h LoginLimiter, and the PBKDF2 work queue).
    int loginMaxFailures = 5;         ///< per (user, address) within the window, then 429
    int loginClientMaxFailures = 20;  ///< per address over all names within the window
    int loginGlobalMaxFailures = 100; ///< over all addresses; then addresses that failed wait
    int loginWindowSeconds = 300;
    int loginWorkers = 2;    ///< password hashes checked at once (threads)
    int loginQueueLimit = 8; ///< checks waiting per lane (addresses that failed / the others); 429

    // Replicas (web/sharedauth.h).
    /// Users and sessions live in the engine's history store (a PostgreSQL database several
    /// replicas share) instead of the UserStore's file and this process's memory: a session
    /// works on every replica, and logout, password and role changes and user removals reach
    /// every replica within 3 s. The UserStore must then be memory-only (empty path).
    bool usersInStore = false;
    int sharedSyncMs = 1500; ///< how often a replica reads what the others changed

    // Live feed memory.
    qint64 liveMaxIncomingBytes = 64 * 1024;          ///< largest frame and message a viewer may send
    qint64 liveSendQueueBytes = 8 * 1024 * 1024;      ///< unsent bytes per viewer, then it is dropped
    qint64 liveQueuedBytesBudget = 192 * 1024 * 1024; ///< unsent bytes of all viewers together
    qint64 liveKeptDiffBytes = 64 * 1024 * 1024;      ///< diffs kept for ?since= catch-up, in bytes
};

/// strata-server's HTTP side on QHttpServer (TLS through QSslServer), one port:
///
///   GET  /                         the web console (qrc :/www/index.html), no login needed
///   GET  /static/<file>            bundled JS/CSS (qrc :/www/...)
///   GET  /healthz                  200 "ok" when every source polled once and none is down, else
///                                  503 with the failing sources (no login: for probes)
///   GET  /metrics                  Prometheus text format (no login; web/metrics.h): the estate
///                                  and the server's own refusals (webServerMetricsText)
///   POST /api/v1/login             {"user","password"} -> 200 {"user","role","csrf_token"} + cookie;
///                                  401 wrong; 429 + Retry-After when throttled
///   POST /api/v1/logout            ends the session
///   GET  /api/v1/session           {"user","role","csrf_token"} or 401
///   GET  /api/v1/version           {"api_version": web/apierror.h kApiVersion} (no login)
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
///   GET  /api/v1/chargeback        ?month=YYYY-MM (UTC; default this month)&source=S (repeatable:
///                                  only these clusters' projects): `strata get chargeback -o
///                                  json` (rows::chargebackToJson). 400 malformed month or a
///                                  month not started, 503 no history store
///   POST /api/v1/what-if/quota     {"source","quotas":{"team-d":4},"weights":{"team-b":3}} (GPUs,
///                                  weights >= 0; viewer): `strata what-if quota -o json`
///                                  (rows::whatIfToJson); changes nothing. 404 no such cluster,
///                                  400 unknown project or a malformed value
///   GET  /api/v1/audit?limit=N     the audit log, newest first (web/api.h auditEntryToJson)
///   GET  /api/v1/users             names, roles and creation times (admin; never hashes)
///   POST /api/v1/sources           a source object in the config-file format (core::AppConfig),
///                                  plus optional "password" and "s3_secret" strings -> 201 new /
///                                  200 replaced: the sources row + "saved"; the secrets go to the
///                                  engine's credential store under core::credentialKey and the
///                                  source refers to them as keychain refs (a replace without them
///                                  keeps the old refs; core::SourceAdmin checks, stores and
///                                  saves); 400 with the parser's sentence for a malformed body;
///                                  422 {"error", "field", "errors": [{"field", "message"}]} with
///                                  SourceAdmin's sentences, the desktop dialog's (admin)
///   DELETE /api/v1/sources/<name>  removes the source and the secrets it stored (admin)
///                                  Both are audited (source.add/replace/remove), never with a
///                                  secret, and rewrite WebServerOptions::configPath when set.
///   POST /api/v1/actions/preview   ActionRequest JSON (web/api.h) -> preview (operator)
///   POST /api/v1/actions           ActionRequest JSON -> 202 {"id"}; audited with the session's
///                                  user; 400 unknown/not offered kind, 409 blocked
///   GET  /api/v1/actions/<id>      state, progress, message, user
///   GET  /api/v1/live?since=<rev>  WebSocket: LiveFeed diffs (web/livefeed.h); refused with one
///                                  401/403 on the handshake without a session or from a foreign
///                                  Origin. A viewer may send at most liveMaxIncomingBytes per
///                                  frame/message (else closed, 1009); one whose unsent diffs pass
///                                  liveSendQueueBytes, or the furthest behind when all viewers'
///                                  pass liveQueuedBytesBudget, is disconnected and catches up
///                                  through ?since= when it reconnects
///
/// Every connection passes web/httpguard.h first: connection caps, header deadline and idle
/// timeout, header/URL/body limits per route (431/414/413 before a body is read), and a Host
/// the server goes by (421; WebServerOptions::allowedHosts).
/// Every /api/v1 route but /version needs a session (401 otherwise) and the route's role (403
/// otherwise). Every API error is web/apierror.h apiErrorBody {"error","code"} with the status
/// of its ApiError; every response carries X-Strata-Api-Version (kApiVersion).
/// Logins are throttled per (user, address), per address and globally (web/auth.h
/// LoginLimiter: 429 + Retry-After; lockouts audited as "login.lockout" and counted on
/// /metrics) and checked on loginWorkers threads, one at a time per client address, queued in
/// lanes that keep attackers' guesses behind real users (429 + Retry-After when full). Logging
/// out closes that session's WebSockets; a removed user, or a new password or role, ends every
/// session and WebSocket of that user. With WebServerOptions::usersInStore all of that holds
/// across replicas within 3 s (web/sharedauth.h), and a cookie another replica made that this
/// one does not know yet is answered, after a lookup in the store, with 307 to the same URL
/// (or 401; a WebSocket handshake with 503 + Retry-After: 1).
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

    /// Binds and listens. A Kind::Failed error when the port is in use or the certificate or
    /// key cannot be read.
    core::Status listen();
    [[nodiscard]] quint16 port() const;
    /// "https://127.0.0.1:8443" (or http://).
    [[nodiscard]] QUrl url() const;

    /// A read-only JSON route under /api/v1/ (path without that prefix, e.g. "sentiment/calls").
    /// Query parameters are available from the request. The handler runs on the owner thread
    /// and must not block. Returning web/apierror.h apiErrorValue(reason, sentence) answers with
    /// that reason's status and error body ({"error": sentence} alone answers 400).
    using JsonHandler = std::function<QJsonValue(const QHttpServerRequest &request, const Session &session)>;
    void addGetRoute(const QString &path, Role role, JsonHandler handler);

    /// The live update channel (also used by features to publish their own resources).
    [[nodiscard]] LiveFeed &feed();
    [[nodiscard]] SessionManager &sessions();
    /// Replicas sharing a store: /metrics reports the coordinator's leases, takeovers and notify
    /// lag. Null (the default) in a single process. It must outlive the server.
    void setReplicaCoordinator(const core::ReplicaCoordinator *replicas);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace strata::web
