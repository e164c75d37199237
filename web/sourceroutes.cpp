#include "web/api.h"
#include "web/controllers.h"
#include "web/router.h"
#include "web/servercontext.h"

#include "models/core/runtime/engine.h"
#include "models/core/store/config.h"
#include "models/rows/resources.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace strata::web {

namespace {

/// 422's body: every field error for the form, the first also as "error" and "field".
QJsonObject fieldErrorsJson(const QList<core::Error> &errors)
{
    QJsonArray list;
    for (const core::Error &e : errors) {
        list.append(QJsonObject{{QStringLiteral("field"), e.field}, {QStringLiteral("message"), e.message}});
    }
    QJsonObject out{{QStringLiteral("errors"), list}};
    if (!errors.isEmpty()) {
        out.insert(QStringLiteral("error"), errors.first().message);
        out.insert(QStringLiteral("field"), errors.first().field);
    }
    return out;
}

HttpStatus sourceAdminStatus(core::SourceAdmin::Status status)
{
    switch (status) {
    case core::SourceAdmin::Status::Ok:
        return HttpStatus::Ok;
    case core::SourceAdmin::Status::Invalid:
        return HttpStatus::UnprocessableEntity;
    case core::SourceAdmin::Status::NotFound:
        return HttpStatus::NotFound;
    case core::SourceAdmin::Status::Conflict:
    case core::SourceAdmin::Status::ReadOnly:
        return HttpStatus::Conflict;
    case core::SourceAdmin::Status::Failed:
        break;
    }
    return HttpStatus::InternalServerError;
}

/// The source's row of GET /api/v1/sources ({"name"} alone when it has none).
QJsonObject sourceRow(const ServerContext &c, const QString &name)
{
    rows::ResourceFilter filter;
    filter.sources = QStringList{name};
    const std::optional<rows::ResultSet> rows =
        rows::resourceRows(c.engine, QStringLiteral("sources"), filter, c.engine.clock().now());
    const QJsonArray keyed = rows ? keyedRows(QStringLiteral("sources"), *rows) : QJsonArray();
    return keyed.isEmpty() ? QJsonObject{{QStringLiteral("name"), name}} : keyed.first().toObject();
}

void putSource(RouteCall &call)
{
    ServerContext &c = call.context;
    QJsonObject body = QJsonDocument::fromJson(call.request.body()).object();
    const QString name = body.value(QLatin1String("name")).toString();
    const QList<core::SourceConfig> current = c.engine.sourceConfigs();
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
    if (const core::Status read = core::sourceFromJson(body, &edit.config); !read) {
        c.replyError(std::move(call.responder), read.error());
        return;
    }
    if (replacing && !body.contains(QLatin1String("password"))) {
        edit.config.password = old->password;
    }
    if (replacing && !body.contains(QLatin1String("s3_secret"))) {
        edit.config.s3Secret = old->s3Secret;
    }
    const QString kind = core::sourceKindName(edit.config.kind);
    if (const QList<core::Error> errors = c.sourceAdmin.check(edit); !errors.isEmpty()) {
        // The reason names no secret: the change may be an attempt to send the server's secrets
        // somewhere.
        QJsonObject reply = fieldErrorsJson(errors);
        if (!c.audit(call.session->user,
                     action,
                     name.left(64),
                     oldKind,
                     kind,
                     QStringLiteral("refused"),
                     errors.first().message)) {
            reply.insert(QStringLiteral("audit"), QStringLiteral("this refusal could not be written to the audit log"));
        }
        c.replyJson(std::move(call.responder), reply, HttpStatus::UnprocessableEntity);
        return;
    }
    auto held = std::make_shared<Deferred>(std::move(call.responder));
    const QPointer<WebServer> alive(c.q);
    const Session by = *call.session;
    ServerContext *ctx = &c;
    c.sourceAdmin.apply(edit, [ctx, alive, held, by, name, kind, oldKind](const core::SourceAdmin::Outcome &outcome) {
        if (!alive) {
            return;
        }
        if (outcome.ok()) {
            ctx->audit(by.user,
                       outcome.replaced ? QStringLiteral("source.replace") : QStringLiteral("source.add"),
                       name,
                       oldKind,
                       kind,
                       QStringLiteral("succeeded"));
        }
        if (!held->socket) {
            return;
        }
        if (outcome.status == core::SourceAdmin::Status::Invalid) {
            ctx->replyJson(
                std::move(held->responder), fieldErrorsJson(outcome.fieldErrors), HttpStatus::UnprocessableEntity);
        } else if (!outcome.ok()) {
            ctx->replyError(std::move(held->responder), sourceAdminStatus(outcome.status), outcome.error);
        } else {
            QJsonObject row = sourceRow(*ctx, name);
            row.insert(QStringLiteral("saved"), outcome.saved);
            ctx->replyJson(std::move(held->responder), row, outcome.replaced ? HttpStatus::Ok : HttpStatus::Created);
        }
    });
}

void removeSource(RouteCall &call)
{
    ServerContext &c = call.context;
    const QString &name = call.args.at(0);
    const core::SourceConfig *stored = nullptr;
    const QList<core::SourceConfig> current = c.engine.sourceConfigs();
    for (const core::SourceConfig &s : current) {
        stored = s.name == name ? &s : stored;
    }
    const QString oldKind = stored ? core::sourceKindName(stored->kind) : QString();
    auto held = std::make_shared<Deferred>(std::move(call.responder));
    const QPointer<WebServer> alive(c.q);
    const Session by = *call.session;
    ServerContext *ctx = &c;
    c.sourceAdmin.remove(name, [ctx, alive, held, by, name, oldKind](const core::SourceAdmin::Outcome &outcome) {
        if (!alive) {
            return;
        }
        // A secret that could not be deleted (outcome.error with Ok) does not bring the source back.
        if (outcome.ok()) {
            ctx->audit(by.user, QStringLiteral("source.remove"), name, oldKind, QString(), QStringLiteral("succeeded"));
        }
        if (!held->socket) {
            return;
        }
        if (!outcome.ok()) {
            ctx->replyError(std::move(held->responder), sourceAdminStatus(outcome.status), outcome.error);
            return;
        }
        ctx->replyJson(std::move(held->responder),
                       QJsonObject{{QStringLiteral("removed"), name}, {QStringLiteral("saved"), outcome.saved}});
    });
}

} // namespace

void registerSourceRoutes(Router &router)
{
    using Method = Router::Method;
    using Access = Router::Access;
    router.add({{Method::Post, QStringLiteral("/api/v1/sources"), Access::Write, Role::Admin, &putSource},
                {Method::Delete, QStringLiteral("/api/v1/sources/<arg>"), Access::Write, Role::Admin, &removeSource}});
}

} // namespace strata::web
