#include "web/controllers.h"
#include "web/router.h"
#include "web/servercontext.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace strata::web {

namespace {

void webAddUser(RouteCall &call)
{
    ServerContext &c = call.context;
    const QJsonObject body = QJsonDocument::fromJson(call.request.body()).object();
    const QString name = body.value(QLatin1String("name")).toString();
    const QString password = body.value(QLatin1String("password")).toString();
    const auto role = roleFromName(body.value(QLatin1String("role")).toString());
    if (!role) {
        c.replyError(
            std::move(call.responder), ApiError::BadRequest, QStringLiteral("role must be viewer, operator or admin"));
        return;
    }
    if (const core::Status valid = UserStore::validateNewUser(name, password); !valid) {
        c.replyError(std::move(call.responder), valid.error());
        return;
    }
    // The slow hash runs on the login pool so live updates keep flowing meanwhile.
    auto held = std::make_shared<Deferred>(std::move(call.responder));
    const Session by = *call.session;
    ServerContext *ctx = &c;
    c.logins.enqueue(
        LoginQueue::Lane::Trusted,
        [ctx, held, by, name, password, role = *role] {
            QString hash = hashPassword(password);
            QMetaObject::invokeMethod(
                ctx->q,
                [ctx, held, by, name, role, hash = std::move(hash)] {
                    const std::optional<User> before = ctx->users.find(name);
                    if (const core::Status added = ctx->users.addHashedUser(name, hash, role); !added) {
                        if (held->socket) {
                            ctx->replyError(std::move(held->responder), ApiError::Internal, added.error().message);
                        }
                        return;
                    }
                    // A replaced user signs in again with the new password or role, everywhere.
                    ctx->endUserConnections(name, QStringLiteral("password or role changed"));
                    ctx->audit(by.user,
                               before ? QStringLiteral("user.replace") : QStringLiteral("user.add"),
                               name,
                               before ? roleName(before->role) : QString(),
                               roleName(role),
                               QStringLiteral("succeeded"));
                    if (held->socket) {
                        ctx->replyJson(
                            std::move(held->responder),
                            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("role"), roleName(role)}},
                            before ? HttpStatus::Ok : HttpStatus::Created);
                    }
                },
                Qt::QueuedConnection);
        },
        true);
}

void webRemoveUser(RouteCall &call)
{
    ServerContext &c = call.context;
    const QString &name = call.args.at(0);
    const std::optional<User> user = c.users.find(name);
    if (!user) {
        c.replyError(
            std::move(call.responder), ApiError::NotFound, QStringLiteral("no user \"%1\"").arg(name.left(64)));
        return;
    }
    if (name == call.session->user) {
        // Removing yourself could leave the server without an administrator.
        c.replyError(
            std::move(call.responder), ApiError::Conflict, QStringLiteral("you cannot remove your own account"));
        return;
    }
    if (const core::Status removed = c.users.removeUser(name); !removed) {
        c.replyError(std::move(call.responder), ApiError::Internal, removed.error().message);
        return;
    }
    c.endUserConnections(name, QStringLiteral("account removed"));
    c.audit(call.session->user,
            QStringLiteral("user.remove"),
            name,
            roleName(user->role),
            QString(),
            QStringLiteral("succeeded"));
    c.replyJson(std::move(call.responder), QJsonObject{{QStringLiteral("removed"), name}});
}

void webListUsers(RouteCall &call)
{
    QJsonArray out;
    QList<User> list = call.context.users.users();
    std::sort(list.begin(), list.end(), [](const User &a, const User &b) {
        return a.name < b.name;
    });
    for (const User &u : std::as_const(list)) {
        out.append(QJsonObject{{QStringLiteral("name"), u.name},
                               {QStringLiteral("role"), roleName(u.role)},
                               {QStringLiteral("created"), u.created.toString(Qt::ISODate)}});
    }
    call.context.replyJson(std::move(call.responder), out);
}

} // namespace

void registerUserRoutes(Router &router)
{
    using Method = Router::Method;
    using Access = Router::Access;
    router.add({{Method::Get, QStringLiteral("/api/v1/users"), Access::Read, Role::Admin, &webListUsers},
                {Method::Post, QStringLiteral("/api/v1/users"), Access::Write, Role::Admin, &webAddUser},
                {Method::Delete, QStringLiteral("/api/v1/users/<arg>"), Access::Write, Role::Admin, &webRemoveUser}});
}

} // namespace strata::web
