#include "web/api.h"
#include "web/controllers.h"
#include "web/router.h"
#include "web/servercontext.h"

#include "models/core/domain/schedule.h"
#include "models/core/runtime/engine.h"
#include "models/core/runtime/timeline.h"
#include "models/core/services/historyservice.h"
#include "models/rows/levelrows.h"
#include "models/rows/resources.h"
#include "models/rows/triagerows.h"

#include <QJsonObject>
#include <QUrlQuery>

#include <algorithm>

namespace strata::web {

namespace {

void serveSchedules(ServerContext &c,
                    const QStringList &sources,
                    const ReplyHeaders &revision,
                    QHttpServerResponder &&responder)
{
    core::HistoryService *history = c.historyOrUnavailable(responder);
    if (!history) {
        return;
    }
    auto holder = std::make_shared<Deferred>(std::move(responder));
    ServerContext *ctx = &c;
    history->schedules(
        c.q, [ctx, holder, sources, revision](const core::Result<std::vector<core::ServiceLevelSchedule>> &stored) {
            if (!holder->socket) {
                return;
            }
            if (!stored) {
                ctx->replyError(std::move(holder->responder), stored.error());
                return;
            }
            QList<core::ServiceLevelSchedule> list(stored->begin(), stored->end());
            list.removeIf([&](const core::ServiceLevelSchedule &s) {
                return !sources.isEmpty() && !sources.contains(s.source);
            });
            ctx->replyJson(std::move(holder->responder),
                           keyedRows(QStringLiteral("schedules"), rows::scheduleRows(list, ctx->engine.clock().now())),
                           HttpStatus::Ok,
                           revision);
        });
}

/// The facets and checks of `strata get events` on top of the common ones; false after
/// answering 400.
bool timelineFilter(ServerContext &c,
                    const QUrlQuery &query,
                    const std::function<QStringList(const char *)> &values,
                    rows::ResourceFilter *filter,
                    QHttpServerResponder &responder)
{
    filter->systems = values("system");
    for (const QString &system : std::as_const(filter->systems)) {
        if (!rows::timelineSystemNames().contains(system)) {
            c.replyError(
                std::move(responder), ApiError::BadRequest, QStringLiteral("unknown system \"%1\"").arg(system));
            return false;
        }
    }
    filter->severity = query.queryItemValue(QStringLiteral("severity"), QUrl::FullyDecoded);
    if (!filter->severity.isEmpty() && !core::timelineSeverityFromName(filter->severity)) {
        c.replyError(std::move(responder),
                     ApiError::BadRequest,
                     QStringLiteral("unknown severity \"%1\" (critical, error, warning, info)").arg(filter->severity));
        return false;
    }
    for (const auto &[key, bound] : {std::pair{"since", &filter->since}, std::pair{"until", &filter->until}}) {
        const QString text = query.queryItemValue(QString::fromLatin1(key), QUrl::FullyDecoded);
        if (text.isEmpty()) {
            continue;
        }
        const auto t = rows::parseTimeBound(text, c.engine.clock().now());
        if (!t) {
            c.replyError(std::move(responder),
                         ApiError::BadRequest,
                         QStringLiteral("%1 needs an ISO 8601 time or a duration ago like 2h").arg(QLatin1String(key)));
            return false;
        }
        *bound = *t;
    }
    filter->jobs = values("job");
    filter->search = query.queryItemValue(QStringLiteral("search"), QUrl::FullyDecoded);
    bool limitOk = false;
    const int limit = query.queryItemValue(QStringLiteral("limit")).toInt(&limitOk);
    filter->limit = limitOk ? std::max(0, limit) : 0;
    bool offsetOk = false;
    const int offset = query.queryItemValue(QStringLiteral("offset")).toInt(&offsetOk);
    filter->offset = offsetOk ? std::max(0, offset) : 0;
    return true;
}

void getResource(RouteCall &call)
{
    ServerContext &c = call.context;
    const QString &resource = call.args.at(0);
    // Public in the table: a feature's one-segment route names its own role.
    const auto extra = c.extraRoutes.constFind(resource);
    const Role role = extra != c.extraRoutes.constEnd() ? extra->role : Role::Viewer;
    const std::optional<Session> session = c.authorize(call.request, call.responder, role, false);
    if (!session) {
        return;
    }
    if (extra != c.extraRoutes.constEnd()) {
        c.replyHandled(std::move(call.responder), extra->handler(call.request, *session));
        return;
    }
    const QUrlQuery query = call.request.query();
    const auto values = [&query](const char *key) {
        QStringList out;
        for (const QString &v : query.allQueryItemValues(QString::fromLatin1(key), QUrl::FullyDecoded)) {
            out << v.split(QLatin1Char(','), Qt::SkipEmptyParts);
        }
        return out;
    };
    const ReplyHeaders revision{{"X-Strata-Revision", QByteArray::number(c.feed.revision())}};
    if (resource == QLatin1String("schedules")) {
        serveSchedules(c, values("source"), revision, std::move(call.responder));
        return;
    }
    rows::ResourceFilter filter;
    filter.sources = values("source");
    filter.volumes = values("volume");
    filter.projects = values("project");
    filter.datasets = values("dataset");
    filter.targets = values("target");
    if (resource == QLatin1String("events") && !timelineFilter(c, query, values, &filter, call.responder)) {
        return;
    }
    const std::optional<rows::ResultSet> rows = rows::resourceRows(c.engine, resource, filter, c.engine.clock().now());
    if (!rows) {
        c.replyError(
            std::move(call.responder), ApiError::NotFound, QStringLiteral("no resource named \"%1\"").arg(resource));
        return;
    }
    c.replyJson(std::move(call.responder), keyedRows(resource, *rows), HttpStatus::Ok, revision);
}

void getFields(RouteCall &call)
{
    ServerContext &c = call.context;
    const QString resource = rows::normaliseResource(call.args.at(0));
    const std::optional<QJsonArray> fields = rows::resourceFields(resource);
    if (!fields) {
        c.replyError(std::move(call.responder),
                     ApiError::NotFound,
                     QStringLiteral("no field list for \"%1\"").arg(call.args.at(0)));
        return;
    }
    c.replyJson(std::move(call.responder),
                QJsonObject{{QStringLiteral("resource"), resource}, {QStringLiteral("fields"), *fields}});
}

} // namespace

void registerResourceRoutes(Router &router)
{
    using Method = Router::Method;
    using Access = Router::Access;
    router.add({{Method::Get, QStringLiteral("/api/v1/fields/<arg>"), Access::Read, Role::Viewer, &getFields},
                {Method::Get, QStringLiteral("/api/v1/<arg>"), Access::Public, Role::Viewer, &getResource}});
}

} // namespace strata::web
