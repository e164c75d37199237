#include "simulators/azure/azurestate.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

namespace strata::sim::azure {

QJsonObject FaultRule::toJson() const
{
    QJsonObject o{{QStringLiteral("id"), id},
                  {QStringLiteral("kind"), kind},
                  {QStringLiteral("count"), count},
                  {QStringLiteral("fired"), fired}};
    if (!method.isEmpty()) {
        o.insert(QStringLiteral("method"), method);
    }
    if (!path.isEmpty()) {
        o.insert(QStringLiteral("path"), path);
    }
    if (kind == QLatin1String("status")) {
        o.insert(QStringLiteral("status"), status);
        o.insert(QStringLiteral("retryAfterSeconds"), retryAfterSeconds);
    }
    if (!code.isEmpty()) {
        o.insert(QStringLiteral("code"), code);
    }
    if (!message.isEmpty()) {
        o.insert(QStringLiteral("message"), message);
    }
    if (latencyMs > 0) {
        o.insert(QStringLiteral("latency_ms"), latencyMs);
    }
    return o;
}

int AzureState::addRule(const QJsonObject &json, QString *error)
{
    static const QStringList knownFields{QStringLiteral("method"),
                                         QStringLiteral("path"),
                                         QStringLiteral("kind"),
                                         QStringLiteral("status"),
                                         QStringLiteral("retryAfterSeconds"),
                                         QStringLiteral("code"),
                                         QStringLiteral("message"),
                                         QStringLiteral("latency_ms"),
                                         QStringLiteral("count")};
    static const QStringList kinds{QStringLiteral("status"),
                                   QStringLiteral("reset"),
                                   QStringLiteral("stall"),
                                   QStringLiteral("malformed"),
                                   QStringLiteral("truncate"),
                                   QStringLiteral("latency"),
                                   QStringLiteral("lroFail"),
                                   QStringLiteral("lroHang")};
    auto fail = [&](const QString &message) {
        if (error) {
            *error = message;
        }
        return -1;
    };
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (!knownFields.contains(it.key())) {
            return fail(QStringLiteral("unknown field \"%1\"").arg(it.key()));
        }
    }
    FaultRule rule;
    rule.kind = json.value(QStringLiteral("kind")).toString(QStringLiteral("status"));
    if (!kinds.contains(rule.kind)) {
        return fail(QStringLiteral("\"kind\" must be one of %1").arg(kinds.join(QStringLiteral(", "))));
    }
    rule.method = json.value(QStringLiteral("method")).toString().toUpper();
    rule.path = json.value(QStringLiteral("path")).toString();
    rule.regex = QRegularExpression(rule.path, QRegularExpression::CaseInsensitiveOption);
    if (!rule.regex.isValid()) {
        return fail(QStringLiteral("\"path\" is not a valid regular expression"));
    }
    rule.status = json.value(QStringLiteral("status")).toInt(503);
    rule.retryAfterSeconds = json.value(QStringLiteral("retryAfterSeconds")).toInt(1);
    rule.code = json.value(QStringLiteral("code")).toString();
    rule.message = json.value(QStringLiteral("message")).toString();
    rule.latencyMs = json.value(QStringLiteral("latency_ms")).toInt(0);
    rule.count = json.value(QStringLiteral("count")).toInt(-1);
    if (rule.status < 100 || rule.status > 599 || rule.count == 0 || rule.count < -1 || rule.latencyMs < 0
        || rule.retryAfterSeconds < 0) {
        return fail(QStringLiteral("status, count, latency_ms or retryAfterSeconds out of range"));
    }
    if (rule.kind == QLatin1String("latency") && rule.latencyMs == 0) {
        return fail(QStringLiteral("a latency rule needs latency_ms"));
    }
    rule.id = nextRuleId++;
    rules.push_back(rule);
    return rule.id;
}

QJsonArray AzureState::rulesJson() const
{
    QJsonArray items;
    for (const FaultRule &r : rules) {
        items.append(r.toJson());
    }
    return items;
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
                       {QStringLiteral("faults"), rulesJson()},
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
            ok(QJsonObject{{QStringLiteral("items"), rulesJson()}});
            return;
        }
        if (method == "DELETE") {
            rules.clear();
            ok(QJsonObject{{QStringLiteral("items"), QJsonArray{}}});
            return;
        }
        if (method == "POST") {
            QString error;
            const int id = addRule(body, &error);
            if (id < 0) {
                bad(400, error);
                return;
            }
            ok(QJsonObject{{QStringLiteral("id"), id}});
            return;
        }
    } else if (path.startsWith(QLatin1String("_sim/faults/")) && method == "DELETE") {
        const int id = ex->segs.value(2).toInt();
        const auto it = std::find_if(rules.begin(), rules.end(), [id](const FaultRule &r) {
            return r.id == id;
        });
        if (it == rules.end()) {
            bad(404, QStringLiteral("fault rule not found"));
            return;
        }
        rules.erase(it);
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
