#pragma once

// Internal to strata::web: what the web server's controllers (web/*routes.cpp) share. Not part
// of the library's public interface (web/webserver.h is).

#include "web/apierror.h"
#include "web/auth.h"
#include "web/livefeed.h"
#include "web/liveviewers.h"
#include "web/loginqueue.h"
#include "web/metrics.h"
#include "web/sharedauth.h"
#include "web/webserver.h"

#include "models/core/runtime/sourceadmin.h"

#include <QElapsedTimer>
#include <QHash>
#include <QHttpServer>
#include <QHttpServerResponder>
#include <QJsonObject>
#include <QJsonValue>
#include <QPointer>
#include <QTcpSocket>

#include <memory>
#include <optional>
#include <utility>

class QHttpServerRequest;
class QTcpServer;

namespace strata::core {
class HistoryService;
}

namespace strata::web {

class HttpGuard;
struct HeadVerdict;
struct RequestHead;

using HttpStatus = QHttpServerResponder::StatusCode;
/// Extra response headers; Set-Cookie may repeat.
using ReplyHeaders = QList<std::pair<QByteArray, QByteArray>>;

/// The session cookie's name.
inline constexpr char kSessionCookieName[] = "strata_session";

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

/// Per-user admission to routes whose work grows with the estate rather than the request (a
/// what-if runs the scheduler over a whole cluster): at most `inFlight` at once per user and
/// `perMinute` started in any 60 s. Owner thread only.
class ExpensiveRouteLimiter
{
public:
    ExpensiveRouteLimiter(int inFlight, int perMinute);
    /// 0 when `user` may start one now (it counts until finish()), else the seconds to wait (>= 1).
    int admit(const QString &user);
    void finish(const QString &user);

private:
    struct Use
    {
        int running = 0;
        QList<qint64> starts; ///< m_clock ms, oldest first, within the last minute
    };
    int m_inFlight;
    int m_perMinute;
    QHash<QString, Use> m_users;
    QElapsedTimer m_clock;
};

/// The first header of that name (case-insensitive); empty when missing.
QByteArray requestHeader(const QHttpServerRequest &request, const QByteArray &name);
/// The value of cookie `name` in a Cookie header; empty when absent.
QString cookieValue(const QByteArray &cookieHeader, const QByteArray &name);
/// {"user","role","csrf_token"}: the answer of login and GET /api/v1/session.
QJsonObject sessionJson(const Session &session);

/// The web server's shared state and the replies, checks and audit every controller uses.
/// Owner thread only.
class ServerContext
{
    Q_DISABLE_COPY_MOVE(ServerContext)

public:
    ServerContext(WebServer *owner, core::Engine &engine, UserStore &users, WebServerOptions options);
    ~ServerContext();

    WebServer *q; ///< the context of deferred answers
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
    WebServerCounters counters;
    /// Poll durations and live-feed delivery delays for /metrics (followPollTimings()).
    ServerTimings timings;
    /// Replicas sharing a store (WebServer::setReplicaCoordinator); null in a single process.
    const core::ReplicaCoordinator *replicas = nullptr;
    std::unique_ptr<HttpGuard> guard;
    /// Host names (lower case) the Host header may carry besides IP literals (hostAllowed()).
    QStringList hostNames;
    /// Read-only JSON routes of features with a one-segment path (GET /api/v1/<path>).
    struct ExtraRoute
    {
        Role role;
        WebServer::JsonHandler handler;
    };
    QHash<QString, ExtraRoute> extraRoutes;
    LoginQueue logins;
    LiveViewers live;
    /// What-if predictions per user (WebServerOptions::expensiveRoutes*).
    ExpensiveRouteLimiter expensive;
    /// Users and sessions shared with other replicas through the history store
    /// (WebServerOptions::usersInStore); null in the single-process mode.
    std::unique_ptr<SharedAuth> shared;

    [[nodiscard]] bool tls() const { return !options.tlsCertFile.isEmpty(); }

    void reply(QHttpServerResponder &&responder,
               HttpStatus status,
               const QByteArray &mime,
               const QByteArray &body,
               const ReplyHeaders &extra = {}) const;
    void replyJson(QHttpServerResponder &&responder,
                   const QJsonValue &value,
                   HttpStatus status = HttpStatus::Ok,
                   const ReplyHeaders &extra = {}) const;
    /// A feature route's answer: apiErrorValue() (web/apierror.h) is an error with its status,
    /// anything else 200.
    void replyHandled(QHttpServerResponder &&responder, const QJsonValue &value) const;
    /// Every error reply of the API: the status and body of `error` from the one map in
    /// web/apierror.h.
    void replyError(QHttpServerResponder &&responder,
                    ApiError error,
                    const QString &message,
                    const ReplyHeaders &extra = {}) const;
    /// The reply for a core::Error: its message with the status of apiErrorFor().
    void replyError(QHttpServerResponder &&responder, const core::Error &error, const ReplyHeaders &extra = {}) const;
    /// The same for a route that names the status; a status outside the map is a server error.
    void replyError(QHttpServerResponder &&responder,
                    HttpStatus status,
                    const QString &message,
                    const ReplyHeaders &extra = {}) const;

    /// The session of a request that may go on, or nullopt after answering 401/403. With shared
    /// users, a cookie unknown here that another replica may have just created is looked up in
    /// the store without blocking: the answer waits for the lookup and is then a 307 to the same
    /// URL (the session is known by then, so the client's repeat goes through; browsers repeat
    /// a 307 with its method and body) or the 401.
    std::optional<Session>
    authorize(const QHttpServerRequest &request, QHttpServerResponder &responder, Role role, bool stateChanging);
    /// The history store; nullptr after answering 503 when there is none.
    core::HistoryService *historyOrUnavailable(QHttpServerResponder &responder);
    /// Whether `origin` is the server's own (from the Host header) or an allowed one.
    [[nodiscard]] bool originAllowed(const QByteArray &origin, const QByteArray &host) const;
    /// Whether a Host header (with or without port) names this server (DNS rebinding).
    [[nodiscard]] bool hostAllowed(const QByteArray &host) const;
    /// HttpGuard's check of a complete header block: Host, WebSocket upgrades, body limits.
    HeadVerdict checkHead(const RequestHead &head);
    [[nodiscard]] QByteArray sessionCookie(const QString &value, bool expire) const;
    /// Ends every session and live connection of a user (removed, new password or role).
    void endUserConnections(const QString &name, const QString &why);
    /// Appends an entry of this server (source "strata-server", a new action id, now) to the
    /// audit log when there is a history store; never with a secret in it. False when the entry
    /// is lost (HistoryService::appendAudit(): the audit spool is full or unwritable): the
    /// reply then says the action was not audited.
    bool audit(const QString &user,
               const QString &kind,
               const QString &target,
               const QString &from,
               const QString &to,
               const QString &outcome,
               const QString &message = {});

private:
    /// Observes every successful inventory poll of a source into `timings` (once per new
    /// lastSuccess) and forgets the polls of removed sources.
    void followPollTimings();
    QHash<QString, QDateTime> m_pollsSeen; ///< lastSuccess already observed, per source
};

} // namespace strata::web
