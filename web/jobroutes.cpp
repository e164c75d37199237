#include "web/controllers.h"
#include "web/router.h"
#include "web/servercontext.h"

#include "models/core/diagnosis.h"
#include "models/core/engine.h"
#include "models/core/estate.h"
#include "models/core/quotawhatif.h"
#include "models/rows/whatifrows.h"

#include <QJsonDocument>
#include <QUrlQuery>

#include <cmath>

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

/// A {"project": number} member of a what-if body as quota (GPUs) or weight changes; false and
/// `error` on a value that is not a number >= 0.
bool readWhatIfMember(
    const QJsonObject &body, const QString &key, bool weight, QList<core::QuotaChange> &changes, QString &error)
{
    const QJsonObject members = body.value(key).toObject();
    for (auto it = members.begin(); it != members.end(); ++it) {
        const double value = it.value().toDouble(-1);
        if (!it.value().isDouble() || value < 0 || !std::isfinite(value) || value > 1e6) {
            error = QStringLiteral("%1.%2 must be a number >= 0").arg(key, it.key());
            return false;
        }
        auto existing = std::find_if(changes.begin(), changes.end(), [&](const core::QuotaChange &c) {
            return c.project == it.key();
        });
        if (existing == changes.end()) {
            existing = changes.insert(changes.end(), core::QuotaChange{it.key(), std::nullopt, std::nullopt});
        }
        if (weight) {
            existing->overQuotaWeight = value;
        } else {
            existing->quota = core::MilliGpu(std::llround(value * 1000.0));
        }
    }
    return true;
}

/// POST /api/v1/what-if/quota {"source": "dgx", "quotas": {"team-d": 4}, "weights": {"team-b": 3}}:
/// the JSON of `strata what-if quota -o json`. Changes nothing (viewer role).
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
    QList<core::QuotaChange> changes;
    QString error;
    if (!readWhatIfMember(body, QStringLiteral("quotas"), false, changes, error)
        || !readWhatIfMember(body, QStringLiteral("weights"), true, changes, error)) {
        c.replyError(std::move(call.responder), ApiError::BadRequest, error);
        return;
    }
    const core::Result<core::QuotaWhatIf> whatIf = core::predictQuotaChange(c.engine.estate(), source, changes);
    if (!whatIf) {
        c.replyError(std::move(call.responder), ApiError::BadRequest, whatIf.error().message);
        return;
    }
    c.replyJson(std::move(call.responder), rows::whatIfToJson(*whatIf));
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
