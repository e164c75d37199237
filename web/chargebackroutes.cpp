#include "web/controllers.h"
#include "web/router.h"
#include "web/servercontext.h"

#include "models/core/planning/chargeback.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/historyservice.h"
#include "models/core/services/servicelevels.h"
#include "models/rows/chargebackrows.h"

#include <QUrlQuery>

namespace strata::web {

namespace {

/// GET /api/v1/chargeback?month=YYYY-MM[&source=S...]: `strata get chargeback -o json`;
/// with &format=csv, `-o csv` as a download.
void chargebackReport(RouteCall &call)
{
    ServerContext &c = call.context;
    const QUrlQuery query = call.request.query();
    const QDateTime now = c.engine.clock().now().toUTC();
    QString month = query.queryItemValue(QStringLiteral("month"), QUrl::FullyDecoded);
    if (!query.hasQueryItem(QStringLiteral("month"))) {
        month = now.toString(QStringLiteral("yyyy-MM"));
    }
    const core::Result<core::ChargebackPeriod> period = core::chargebackMonth(month);
    if (!period) {
        c.replyError(std::move(call.responder), period.error());
        return;
    }
    core::HistoryService *history = c.historyOrUnavailable(call.responder);
    if (!history) {
        return;
    }
    const QStringList clusters = query.allQueryItemValues(QStringLiteral("source"), QUrl::FullyDecoded);
    const QString format = query.queryItemValue(QStringLiteral("format"), QUrl::FullyDecoded);
    if (!format.isEmpty() && format != QLatin1String("json") && format != QLatin1String("csv")) {
        c.replyError(std::move(call.responder),
                     core::Error::invalid(QStringLiteral("format"),
                                          QStringLiteral("format must be json or csv, not \"%1\"").arg(format)));
        return;
    }
    const bool csv = format == QLatin1String("csv");
    auto holder = std::make_shared<Deferred>(std::move(call.responder));
    ServerContext *ctx = &c;
    history->chargeback(core::chargebackInput(c.engine.estate(), clusters),
                        *period,
                        c.engine.serviceLevels().rateCard(),
                        now,
                        c.q,
                        [ctx, holder, csv](core::Result<core::Chargeback> cb) {
                            if (!holder->socket) {
                                return;
                            }
                            if (!cb) {
                                ctx->replyError(std::move(holder->responder), cb.error());
                                return;
                            }
                            if (csv) {
                                const QByteArray name = "strata-chargeback-" + cb->period.label.toLatin1() + ".csv";
                                ctx->reply(std::move(holder->responder),
                                           HttpStatus::Ok,
                                           "text/csv; charset=utf-8",
                                           rows::chargebackCsv(*cb).toUtf8(),
                                           {{"Content-Disposition", "attachment; filename=\"" + name + '"'},
                                            {"Cache-Control", "no-store"}});
                                return;
                            }
                            ctx->replyJson(std::move(holder->responder), rows::chargebackToJson(*cb));
                        });
}

} // namespace

void registerChargebackRoutes(Router &router)
{
    router.add({{Router::Method::Get,
                 QStringLiteral("/api/v1/chargeback"),
                 Router::Access::Read,
                 Role::Viewer,
                 &chargebackReport}});
}

} // namespace strata::web
