#include "simulators/azure/azurestate.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace strata::sim::azure {

HttpFaultSyntax azureFaultSyntax()
{
    return HttpFaultSyntax{HttpFaultSyntax::commonFields() << QStringLiteral("code"),
                           HttpFaultSyntax::commonKinds() << QStringLiteral("lroFail") << QStringLiteral("lroHang"),
                           QRegularExpression::CaseInsensitiveOption,
                           true};
}

QJsonObject AzureState::stateJson() const
{
    int snapshots = 0;
    for (const auto &v : volumes) {
        snapshots += int(v->snapshots.size());
    }
    QJsonArray ops;
    for (const auto &[id, op] : operations) {
        ops.append(operationJson(op));
    }
    return QJsonObject{{QStringLiteral("accounts"), int(accounts.size())},
                       {QStringLiteral("pools"), int(pools.size())},
                       {QStringLiteral("volumes"), int(volumes.size())},
                       {QStringLiteral("snapshots"), snapshots},
                       {QStringLiteral("managedClusters"), int(clusters.size())},
                       {QStringLiteral("operations"), ops},
                       {QStringLiteral("runningOperations"), running()},
                       {QStringLiteral("tokensIssued"), int(tokens.size())},
                       {QStringLiteral("tokenRequests"), tokenRequests},
                       {QStringLiteral("requests"), requests},
                       {QStringLiteral("faults"), faults.toJson()},
                       {QStringLiteral("now"), isoTime(nowMs())}};
}

void AzureState::handleControl(const std::shared_ptr<AzureExchange> &ex)
{
    const QByteArray &method = ex->request.method;
    const QString path = ex->segs.join(QLatin1Char('/'));
    const QJsonObject body = QJsonDocument::fromJson(ex->request.body).object();
    auto ok = [&](const QJsonObject &o) {
        send(ex, Response::json(200, compact(o)));
    };
    auto bad = [&](int status, const QString &message) {
        send(ex, Response::json(status, compact(QJsonObject{{QStringLiteral("error"), message}})));
    };
    if (path == QLatin1String("_sim/faults")) {
        if (method == "GET") {
            ok(QJsonObject{{QStringLiteral("items"), faults.toJson()}});
            return;
        }
        if (method == "DELETE") {
            faults.clear();
            ok(QJsonObject{{QStringLiteral("items"), QJsonArray{}}});
            return;
        }
        if (method == "POST") {
            QString error;
            const int id = faults.add(body, &error);
            if (id < 0) {
                bad(400, error);
                return;
            }
            ok(QJsonObject{{QStringLiteral("id"), id}});
            return;
        }
    } else if (path.startsWith(QLatin1String("_sim/faults/")) && method == "DELETE") {
        if (!faults.remove(ex->segs.value(2).toInt())) {
            bad(404, QStringLiteral("fault rule not found"));
            return;
        }
        ok({});
        return;
    } else if (path == QLatin1String("_sim/state") && method == "GET") {
        ok(stateJson());
        return;
    } else if (path == QLatin1String("_sim/tokens/revoke") && method == "POST") {
        revoke();
        ok(QJsonObject{{QStringLiteral("revoked"), int(tokens.size())}});
        return;
    } else if (path == QLatin1String("_sim/volumes/delete") && method == "POST") {
        Volume *v = findVolumeAny(body.value(QStringLiteral("id")).toString());
        if (!v) {
            bad(404, QStringLiteral("no such volume"));
            return;
        }
        removeVolume(v->fileSystemId);
        ok({});
        return;
    }
    bad(404, QStringLiteral("unknown control endpoint"));
}

} // namespace strata::sim::azure
