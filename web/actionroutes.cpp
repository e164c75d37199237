#include "web/api.h"
#include "web/controllers.h"
#include "web/router.h"
#include "web/servercontext.h"

#include "models/core/runtime/engine.h"

#include <QJsonDocument>

namespace strata::web {

namespace {

void submitAction(RouteCall &call, bool preview)
{
    ServerContext &c = call.context;
    const QHttpServerRequest &request = call.request;
    QHttpServerResponder &responder = call.responder;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(request.body(), &parseError);
    if (!doc.isObject()) {
        c.replyError(std::move(responder), ApiError::BadRequest, QStringLiteral("the body must be a JSON object"));
        return;
    }
    const core::Result<core::ActionRequest> actionRequest = actionRequestFromJson(doc.object());
    if (!actionRequest) {
        c.replyError(std::move(responder), actionRequest.error());
        return;
    }
    if (preview) {
        c.replyJson(std::move(responder), previewToJson(c.engine.actions().preview(*actionRequest)));
        return;
    }
    const core::Result<QString> id = c.engine.actions().submit(*actionRequest, call.session->user);
    if (!id) {
        c.replyError(std::move(responder), id.error());
        return;
    }
    c.replyJson(std::move(responder), QJsonObject{{QStringLiteral("id"), *id}}, HttpStatus::Accepted);
}

void previewAction(RouteCall &call)
{
    submitAction(call, true);
}

void startAction(RouteCall &call)
{
    submitAction(call, false);
}

void showAction(RouteCall &call)
{
    ServerContext &c = call.context;
    const core::ActionRecord *record = c.engine.actions().find(call.args.at(0));
    if (!record) {
        c.replyError(std::move(call.responder), ApiError::NotFound, QStringLiteral("no such action"));
        return;
    }
    c.replyJson(std::move(call.responder), actionRecordToJson(*record));
}

} // namespace

void registerActionRoutes(Router &router)
{
    using Method = Router::Method;
    using Access = Router::Access;
    router.add(
        {{Method::Post, QStringLiteral("/api/v1/actions/preview"), Access::Write, Role::Operator, &previewAction},
         {Method::Post, QStringLiteral("/api/v1/actions"), Access::Write, Role::Operator, &startAction},
         {Method::Get, QStringLiteral("/api/v1/actions/<arg>"), Access::Read, Role::Viewer, &showAction}});
}

} // namespace strata::web
