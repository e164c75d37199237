#include "web/controllers.h"
#include "web/router.h"
#include "web/servercontext.h"

#include "models/core/chargeback.h"
#include "models/core/engine.h"
#include "models/core/historyservice.h"
#include "models/core/servicelevels.h"
#include "models/rows/chargebackrows.h"

#include <QUrlQuery>

namespace strata::web {

namespace {

/// GET /api/v1/chargeback?month=YYYY-MM[&source=S...]: `strata get chargeback -o json`.
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
    auto holder = std::make_shared<Deferred>(std::move(call.responder));
    ServerContext *ctx = &c;
    history->chargeback(core::chargebackInput(c.engine.estate(), clusters),
                        *period,
                        c.engine.serviceLevels().rateCard(),
                        now,
                        c.q,
                        [ctx, holder](core::Result<core::Chargeback> cb) {
                            if (!holder->socket) {
                                return;
                            }
                            if (!cb) {
                                ctx->replyError(std::move(holder->responder), cb.error());
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
