#include "web/router.h"

#include "web/servercontext.h"

#include <QHttpServer>
#include <QHttpServerResponder>

namespace strata::web {

Router::Router(ServerContext &context)
    : m_context(context)
{}

void Router::add(std::initializer_list<Route> routes)
{
    ServerContext *context = &m_context;
    for (const Route &r : routes) {
        route(
            r.path,
            r.method,
            [context, r](const QStringList &args, const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                std::optional<Session> session;
                if (r.access != Access::Public) {
                    session = context->authorize(request, responder, r.role, r.access == Access::Write);
                    if (!session) {
                        return;
                    }
                }
                RouteCall call{*context, args, request, responder, session ? &*session : nullptr};
                r.action(call);
            });
    }
}

void Router::route(const QString &path, Method method, Handler handler)
{
    using Request = const QHttpServerRequest &;
    using Responder = QHttpServerResponder &&;
    QHttpServer &http = m_context.http;
    // QHttpServer takes the arguments as parameters of the view: one lambda per count.
    switch (path.count(QLatin1String("<arg>"))) {
    case 0:
        http.route(path, method, [handler](Request request, Responder responder) {
            handler({}, request, std::move(responder));
        });
        return;
    case 1:
        http.route(path, method, [handler](const QString &a, Request request, Responder responder) {
            handler({a}, request, std::move(responder));
        });
        return;
    case 2:
        http.route(path, method, [handler](const QString &a, const QString &b, Request request, Responder responder) {
            handler({a, b}, request, std::move(responder));
        });
        return;
    case 3:
        http.route(
            path,
            method,
            [handler](const QString &a, const QString &b, const QString &c, Request request, Responder responder) {
                handler({a, b, c}, request, std::move(responder));
            });
        return;
    default:
        qFatal("Router: more than three <arg> in %s", qUtf8Printable(path));
    }
}

} // namespace strata::web
