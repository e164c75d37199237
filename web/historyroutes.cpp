#include "web/api.h"
#include "web/controllers.h"
#include "web/router.h"
#include "web/servercontext.h"

#include "models/core/planning/overviewsummary.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/historyservice.h"
#include "models/core/sources/source.h"

#include <QJsonArray>
#include <QUrlQuery>

#include <algorithm>
#include <optional>

namespace strata::web {

namespace {

/// ?range=SECONDS (an hour to a year; default a day) ending now.
std::pair<QDateTime, QDateTime> historyRangeOf(const QUrlQuery &query, const QDateTime &now)
{
    bool ok = false;
    qint64 seconds = query.queryItemValue(QStringLiteral("range")).toLongLong(&ok);
    if (!ok) {
        seconds = 86400;
    }
    seconds = std::clamp<qint64>(seconds, 3600, 31536000);
    return {now.addSecs(-seconds), now};
}

void projectHistory(RouteCall &call)
{
    ServerContext &c = call.context;
    core::HistoryService *history = c.historyOrUnavailable(call.responder);
    if (!history) {
        return;
    }
    const QUrlQuery query = call.request.query();
    QString source = query.queryItemValue(QStringLiteral("source"), QUrl::FullyDecoded);
    if (source.isEmpty()) {
        for (const core::SourceStatus &s : c.engine.statuses()) {
            if (s.kind == core::SourceKind::Kubernetes) {
                source = s.name;
                break;
            }
        }
    }
    const auto [from, to] = historyRangeOf(query, c.engine.clock().now());
    auto holder = std::make_shared<Deferred>(std::move(call.responder));
    ServerContext *ctx = &c;
    // ?total=1: the cluster's sum over its projects (the Overview's chart, core::clusterHistory).
    const bool total = query.queryItemValue(QStringLiteral("total")) == QLatin1String("1");
    history->projectHistory(source,
                            query.queryItemValue(QStringLiteral("project"), QUrl::FullyDecoded),
                            from,
                            to,
                            c.q,
                            [ctx, holder, source, total](core::Result<std::vector<core::ProjectSample>> read) {
                                if (!holder->socket) {
                                    return;
                                }
                                if (!read) {
                                    ctx->replyError(std::move(holder->responder), read.error());
                                    return;
                                }
                                std::vector<core::ProjectSample> samples = std::move(read).value();
                                if (total) {
                                    samples = core::clusterHistory(samples, source);
                                }
                                QJsonArray out;
                                for (const core::ProjectSample &s : samples) {
                                    QJsonObject o = projectSampleToJson(s);
                                    o.insert(QStringLiteral("source"), source);
                                    out.append(o);
                                }
                                ctx->replyJson(std::move(holder->responder), out);
                            });
}

void volumeHistory(RouteCall &call)
{
    ServerContext &c = call.context;
    core::HistoryService *history = c.historyOrUnavailable(call.responder);
    if (!history) {
        return;
    }
    const QUrlQuery query = call.request.query();
    const QString source = query.queryItemValue(QStringLiteral("source"), QUrl::FullyDecoded);
    const QString volume = query.queryItemValue(QStringLiteral("volume"), QUrl::FullyDecoded);
    if (source.isEmpty() || volume.isEmpty()) {
        c.replyError(
            std::move(call.responder), ApiError::BadRequest, QStringLiteral("source and volume (id) are required"));
        return;
    }
    const auto [from, to] = historyRangeOf(query, c.engine.clock().now());
    // Capacity and throughput come from two tables; answer once both reads are back.
    struct Pending
    {
        Deferred held;
        QJsonArray usage;
        QJsonArray perf;
        int left = 2;
        std::optional<core::Error> error; ///< the first failed read's
    };
    auto pending = std::make_shared<Pending>(Pending{Deferred(std::move(call.responder)), {}, {}, 2, {}});
    ServerContext *ctx = &c;
    const auto finish = [ctx, pending] {
        if (--pending->left != 0 || !pending->held.socket) {
            return;
        }
        if (pending->error) {
            ctx->replyError(std::move(pending->held.responder), *pending->error);
        } else {
            ctx->replyJson(
                std::move(pending->held.responder),
                QJsonObject{{QStringLiteral("usage"), pending->usage}, {QStringLiteral("perf"), pending->perf}});
        }
    };
    const auto failed = [pending](const core::Error &error) {
        if (!pending->error) {
            pending->error = error;
        }
    };
    history->volumeUsage(source,
                         volume,
                         from,
                         to,
                         c.q,
                         [finish, failed, pending](const core::Result<std::vector<core::UsageSample>> &read) {
                             if (!read) {
                                 failed(read.error());
                                 finish();
                                 return;
                             }
                             for (const core::UsageSample &s : *read) {
                                 pending->usage.append(
                                     QJsonObject{{QStringLiteral("time"), s.time.toUTC().toString(Qt::ISODate)},
                                                 {QStringLiteral("used_bytes"), s.usedBytes},
                                                 {QStringLiteral("size_bytes"), s.sizeBytes}});
                             }
                             finish();
                         });
    history->volumePerfHistory(
        source,
        volume,
        from,
        to,
        c.q,
        [pending, finish, failed](const core::Result<std::vector<core::VolumePerfSample>> &read) {
            if (!read) {
                failed(read.error());
                finish();
                return;
            }
            for (const core::VolumePerfSample &s : *read) {
                pending->perf.append(QJsonObject{
                    {QStringLiteral("time"), s.time.toUTC().toString(Qt::ISODate)},
                    {QStringLiteral("throughput_bytes_per_second"), s.throughputBps},
                    {QStringLiteral("iops"), s.iops},
                    {QStringLiteral("latency_us"), s.latencyUs >= 0 ? QJsonValue(s.latencyUs) : QJsonValue()},
                    {QStringLiteral("cap_bytes_per_second"), s.capBps >= 0 ? QJsonValue(s.capBps) : QJsonValue()}});
            }
            finish();
        });
}

} // namespace

void registerHistoryRoutes(Router &router)
{
    using Method = Router::Method;
    using Access = Router::Access;
    router.add({{Method::Get, QStringLiteral("/api/v1/history/projects"), Access::Read, Role::Viewer, &projectHistory},
                {Method::Get, QStringLiteral("/api/v1/history/volumes"), Access::Read, Role::Viewer, &volumeHistory}});
}

} // namespace strata::web
