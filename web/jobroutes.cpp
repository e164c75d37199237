#include "web/controllers.h"
#include "web/router.h"
#include "web/servercontext.h"

#include "models/core/diagnosis.h"
#include "models/core/engine.h"

#include <QUrlQuery>

namespace strata::web {

namespace {

/// The JSON of `strata why -o json` for a job "<namespace>/<name>" (viewer role).
void jobDiagnosis(ServerContext &c, const QString &source, const QString &jobId, QHttpServerResponder &&responder)
{
    if (source.isEmpty() || !jobId.contains(QLatin1Char('/'))) {
        c.replyError(std::move(responder),
                     ApiError::BadRequest,
                     QStringLiteral("source and job (<namespace>/<name>) are required"));
        return;
    }
    if (!c.engine.estate().jobs().find(source, source + QLatin1Char('/') + jobId)) {
        c.replyJson(std::move(responder),
                    core::diagnosisToJson(core::diagnoseJob(c.engine.estate(), source, jobId, c.engine.clock().now())),
                    HttpStatus::NotFound);
        return;
    }
    // The volume's perf history comes from the store's thread; answer when it is back.
    auto holder = std::make_shared<Deferred>(std::move(responder));
    ServerContext *ctx = &c;
    core::diagnoseJobAsync(c.engine.estate(),
                           c.engine.history(),
                           source,
                           jobId,
                           c.engine.clock().now(),
                           c.q,
                           [ctx, holder](core::JobDiagnosis d) {
                               if (holder->socket) {
                                   ctx->replyJson(std::move(holder->responder), core::diagnosisToJson(d));
                               }
                           });
}

/// GET /api/v1/jobs/<source>/<namespace>/<name>/diagnosis
void pathDiagnosis(RouteCall &call)
{
    jobDiagnosis(
        call.context, call.args.at(0), call.args.at(1) + QLatin1Char('/') + call.args.at(2), std::move(call.responder));
}

/// GET /api/v1/diagnosis?source=&job=
void queryDiagnosis(RouteCall &call)
{
    const QUrlQuery query = call.request.query();
    jobDiagnosis(call.context,
                 query.queryItemValue(QStringLiteral("source"), QUrl::FullyDecoded),
                 query.queryItemValue(QStringLiteral("job"), QUrl::FullyDecoded),
                 std::move(call.responder));
}

} // namespace

void registerJobRoutes(Router &router)
{
    using Method = Router::Method;
    using Access = Router::Access;
    router.add({{Method::Get,
                 QStringLiteral("/api/v1/jobs/<arg>/<arg>/<arg>/diagnosis"),
                 Access::Read,
                 Role::Viewer,
                 &pathDiagnosis},
                {Method::Get, QStringLiteral("/api/v1/diagnosis"), Access::Read, Role::Viewer, &queryDiagnosis}});
}

} // namespace strata::web
