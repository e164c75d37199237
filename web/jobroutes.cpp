#include "web/controllers.h"
#include "web/router.h"
#include "web/servercontext.h"

#include "models/core/domain/estate.h"
#include "models/core/domain/offthread.h"
#include "models/core/planning/quotawhatif.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/diagnosisservice.h"
#include "models/rows/whatifrows.h"

#include <QJsonDocument>
#include <QSet>
#include <QThreadPool>
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
    core::diagnoseJobAsync(
        c.engine.estate(),
        c.engine.history(),
        source,
        jobId,
        c.engine.clock().now(),
        c.q,
        [ctx, holder](core::JobDiagnosis d) {
            if (holder->socket) {
                ctx->replyJson(std::move(holder->responder), core::diagnosisToJson(d));
            }
        },
        3600,
        core::notPolledYet(c.engine, {core::SourceKind::Ontap, core::SourceKind::Azure}));
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

/// POST /api/v1/what-if/quota {"source": "dgx", "quotas": {"team-d": 4}, "weights": {"team-b": 3}}:
/// the JSON of `strata what-if quota -o json`. Changes nothing (viewer role). The body is read
/// in time linear in its size (names checked against the cluster's projects by hash); the
/// prediction, which grows with the cluster, runs on the worker pool, a few per user at a time.
void quotaWhatIf(RouteCall &call)
{
    ServerContext &c = call.context;
    const QJsonDocument doc = QJsonDocument::fromJson(call.request.body());
    if (!doc.isObject()) {
        c.replyError(std::move(call.responder), ApiError::BadRequest, QStringLiteral("the body must be a JSON object"));
        return;
    }
    const QJsonObject body = doc.object();
    const QString source = body.value(QStringLiteral("source")).toString();
    if (!c.engine.estate().gpuClusters().scope(source)) {
        c.replyError(std::move(call.responder), ApiError::NotFound, QStringLiteral("no GPU cluster %1").arg(source));
        return;
    }
    core::QuotaWhatIfInput input = core::quotaWhatIfInput(c.engine.estate(), source);
    QSet<QString> names;
    names.reserve(input.projects.size());
    for (const core::Project &project : std::as_const(input.projects)) {
        names.insert(project.name);
    }
    const core::Result<QList<core::QuotaChange>> changes = core::quotaChangesFromJson(body, source, names);
    if (!changes) {
        c.replyError(std::move(call.responder), ApiError::BadRequest, changes.error().message);
        return;
    }
    const QString user = call.session->user;
    if (const int wait = c.expensive.admit(user); wait > 0) {
        ++c.counters.refusedRequests["expensive_throttled"];
        c.replyError(std::move(call.responder),
                     ApiError::TooManyRequests,
                     QStringLiteral("too many what-if predictions at once; try again in %1 s").arg(wait),
                     {{"Retry-After", QByteArray::number(wait)}});
        return;
    }
    auto holder = std::make_shared<Deferred>(std::move(call.responder));
    ServerContext *ctx = &c;
    core::runOffThread(
        *QThreadPool::globalInstance(),
        c.q,
        [source, input = std::move(input), changes = *changes] {
            return core::predictQuotaChange(source, input.nodes, input.projects, input.jobs, changes);
        },
        [ctx, holder, user](core::Result<core::QuotaWhatIf> whatIf) {
            ctx->expensive.finish(user);
            if (!holder->socket) {
                return;
            }
            if (!whatIf) {
                ctx->replyError(std::move(holder->responder), ApiError::BadRequest, whatIf.error().message);
                return;
            }
            ctx->replyJson(std::move(holder->responder), rows::whatIfToJson(*whatIf));
        });
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
                {Method::Get, QStringLiteral("/api/v1/diagnosis"), Access::Read, Role::Viewer, &queryDiagnosis},
                {Method::Post, QStringLiteral("/api/v1/what-if/quota"), Access::Write, Role::Viewer, &quotaWhatIf}});
}

} // namespace strata::web
