#pragma once

// Internal to strata::web: how the controllers (web/*routes.cpp) register their routes.

#include "web/auth.h"

#include <QHttpServerRequest>
#include <QString>
#include <QStringList>

#include <functional>
#include <initializer_list>

class QHttpServer;
class QHttpServerResponder;

namespace strata::web {

class ServerContext;

/// One request as a controller's action sees it.
struct RouteCall
{
    ServerContext &context;
    const QStringList &args; ///< the path's "<arg>" segments, in order
    const QHttpServerRequest &request;
    QHttpServerResponder &responder; ///< answer by moving from it (once)
    /// The caller's session, checked against the route's role; null on a public route.
    const Session *session;
};

/// Registers routes on the server's QHttpServer with one handler shape for any number of path
/// arguments. A path names its arguments "<arg>" (each one path segment), e.g.
/// "/api/v1/users/<arg>". Routes match in the order they are registered: the first whose path
/// and method fit answers.
class Router
{
public:
    using Method = QHttpServerRequest::Method;
    using Handler = std::function<void(
        const QStringList &args, const QHttpServerRequest &request, QHttpServerResponder &&responder)>;
    using Action = void (*)(RouteCall &call);
    /// Who may call a route: anyone (the action checks what it needs), or a session with at
    /// least the route's role, for a state-changing route also with its CSRF token and an
    /// allowed Origin (ServerContext::authorize answers 401/403 otherwise).
    enum class Access
    {
        Public,
        Read,
        Write
    };
    struct Route
    {
        Method method;
        QString path;
        Access access;
        Role role; ///< ignored for Public
        Action action;
    };

    explicit Router(ServerContext &context);

    [[nodiscard]] ServerContext &context() const { return m_context; }
    /// A controller's routes, in order.
    void add(std::initializer_list<Route> routes);
    /// At most three "<arg>" per path (aborts on more: a programming error).
    void route(const QString &path, Method method, Handler handler);

private:
    ServerContext &m_context;
};

} // namespace strata::web
