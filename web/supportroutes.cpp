#include "web/api.h"
#include "web/controllers.h"
#include "web/router.h"
#include "web/servercontext.h"

#include "models/core/domain/offthread.h"
#include "models/core/runtime/bundle.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/historyservice.h"

#include <QJsonArray>
#include <QThreadPool>
#include <QUrlQuery>

#include <algorithm>

namespace strata::web {

namespace {

void auditLog(RouteCall &call)
{
    ServerContext &c = call.context;
    core::HistoryService *history = c.historyOrUnavailable(call.responder);
    if (!history) {
        return;
    }
    const QUrlQuery query = call.request.query();
    bool ok = false;
    int limit = query.queryItemValue(QStringLiteral("limit")).toInt(&ok);
    limit = ok ? std::clamp(limit, 1, 10000) : 200;
    auto holder = std::make_shared<Deferred>(std::move(call.responder));
    ServerContext *ctx = &c;
    history->auditLog(limit,
                      query.queryItemValue(QStringLiteral("source"), QUrl::FullyDecoded),
                      c.q,
                      [ctx, holder](const core::Result<std::vector<core::AuditEntry>> &entries) {
                          if (!holder->socket) {
                              return;
                          }
                          if (!entries) {
                              ctx->replyError(std::move(holder->responder), entries.error());
                              return;
                          }
                          QJsonArray out;
                          for (const core::AuditEntry &e : *entries) {
                              out.append(auditEntryToJson(e));
                          }
                          ctx->replyJson(std::move(holder->responder), out);
                      });
}

/// A support bundle of the estate now, as a download (operators and admins).
void supportBundle(RouteCall &call)
{
    ServerContext &c = call.context;
    auto holder = std::make_shared<Deferred>(std::move(call.responder));
    core::BundleOptions options;
    options.user = call.session->user;
    ServerContext *ctx = &c;
    core::collectBundle(c.engine, options, c.q, [ctx, holder](core::Bundle bundle, const QString &) {
        const QString name = QStringLiteral("strata-%1.strata-bundle")
                                 .arg(bundle.meta.created.toUTC().toString(QStringLiteral("yyyyMMdd-HHmmss")));
        // Compressing a large estate takes a while: not on the thread that serves every request.
        core::runOffThread(
            *QThreadPool::globalInstance(),
            ctx->q,
            [bundle = std::move(bundle)] {
                return core::encodeBundle(bundle);
            },
            [ctx, holder, name](const QByteArray &bytes) {
                if (!holder->socket) {
                    return;
                }
                ctx->reply(std::move(holder->responder),
                           HttpStatus::Ok,
                           "application/gzip",
                           bytes,
                           {{"Content-Disposition", "attachment; filename=\"" + name.toLatin1() + '"'},
                            {"Cache-Control", "no-store"}});
            });
    });
}

} // namespace

void registerSupportRoutes(Router &router)
{
    using Method = Router::Method;
    using Access = Router::Access;
    router.add({{Method::Get, QStringLiteral("/api/v1/audit"), Access::Read, Role::Viewer, &auditLog},
                {Method::Get, QStringLiteral("/api/v1/bundle"), Access::Read, Role::Operator, &supportBundle}});
}

} // namespace strata::web
