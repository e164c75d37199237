#include "simulators/azure/azurestate.h"

#include <QJsonArray>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace strata::sim::azure {

Operation &AzureState::startOperation(const std::shared_ptr<AzureExchange> &ex,
                                      const QString &resourceId,
                                      const QString &action,
                                      const QString &runningStatus)
{
    Operation op;
    op.id = rng.uuid();
    op.resourceId = resourceId;
    op.action = action;
    op.runningStatus = runningStatus;
    op.startMs = nowMs();
    op.durationMs = std::max<qint64>(0, opt.lroDuration.count());
    if (const auto rule = faults.fire(ex->request.method, ex->request.path, isLroFault)) {
        if (rule->kind == QLatin1String("lroHang")) {
            op.hang = true;
        } else {
            op.injected =
                ArmError{rule->code.isEmpty() ? QStringLiteral("InternalServerError") : rule->code,
                         rule->message.isEmpty() ? QStringLiteral("The operation failed (simulated).") : rule->message};
        }
    }
    ++operationCounter;
    const QString id = op.id;
    auto [pos, inserted] = operations.emplace(id, std::move(op));
    if (!pos->second.hang) {
        QTimer::singleShot(std::chrono::milliseconds(pos->second.durationMs), sim, [this, id] {
            finishOperation(id);
        });
    }
    return pos->second;
}

void AzureState::finishOperation(const QString &id)
{
    auto it = operations.find(id);
    if (it == operations.end() || it->second.done) {
        return;
    }
    Operation &op = it->second;
    std::optional<ArmError> error = op.injected;
    if (!error && op.apply) {
        error = op.apply();
    }
    if (error && op.onFailed) {
        op.onFailed();
    }
    op.error = error;
    op.done = true;
    op.endMs = nowMs();
}

QList<QPair<QByteArray, QByteArray>>
AzureState::lroHeaders(const Operation &op, const QString &apiVersion, bool location)
{
    const QString base = baseUrl + operationPath(op.id) + QStringLiteral("?api-version=") + apiVersion;
    QList<QPair<QByteArray, QByteArray>> h{{QByteArrayLiteral("Azure-AsyncOperation"), base.toUtf8()}};
    if (location) {
        h.append(
            {QByteArrayLiteral("Location"), (base + QStringLiteral("&operationResultResponseType=Location")).toUtf8()});
    }
    h.append({QByteArrayLiteral("Retry-After"), QByteArray::number(opt.lroRetryAfterSeconds)});
    return h;
}

QJsonObject AzureState::operationJson(const Operation &op) const
{
    QString status = op.runningStatus;
    double percent = 0;
    if (op.done) {
        status = op.error ? QStringLiteral("Failed") : QStringLiteral("Succeeded");
        percent = 100;
    } else if (op.durationMs > 0) {
        percent = std::min(99.0, std::floor(100.0 * double(nowMs() - op.startMs) / double(op.durationMs)));
    }
    QJsonObject o{
        {QStringLiteral("id"), operationPath(op.id)},
        {QStringLiteral("name"), op.id},
        {QStringLiteral("status"), status},
        {QStringLiteral("startTime"), isoTime(op.startMs, true)},
        {QStringLiteral("endTime"), op.done ? isoTime(op.endMs, true) : QStringLiteral("0001-01-01T00:00:00Z")},
        {QStringLiteral("percentComplete"), percent},
        {QStringLiteral("properties"),
         QJsonObject{{QStringLiteral("resourceName"), op.resourceId}, {QStringLiteral("action"), op.action}}},
    };
    if (op.done && op.error) {
        o.insert(QStringLiteral("error"),
                 QJsonObject{{QStringLiteral("code"), op.error->code},
                             {QStringLiteral("message"), op.error->message},
                             {QStringLiteral("details"),
                              QJsonArray{QJsonObject{{QStringLiteral("code"), op.error->code},
                                                     {QStringLiteral("message"), op.error->message}}}}});
    }
    return o;
}

void AzureState::serveOperation(const std::shared_ptr<AzureExchange> &ex, const QString &opId)
{
    if (ex->request.method != "GET") {
        methodNotAllowed(ex);
        return;
    }
    auto it = operations.find(opId.toLower());
    if (it == operations.end()) {
        armError(ex,
                 404,
                 QStringLiteral("OperationNotFound"),
                 QStringLiteral("The operation '%1' could not be found.").arg(opId));
        return;
    }
    const Operation &op = it->second;
    const bool locationForm =
        same(ex->request.queryValue(QStringLiteral("operationResultResponseType")), QStringLiteral("Location"));
    if (!locationForm) {
        QList<QPair<QByteArray, QByteArray>> extra;
        if (!op.done) {
            extra.append({QByteArrayLiteral("Retry-After"), QByteArray::number(opt.lroRetryAfterSeconds)});
        }
        sendJson(ex, 200, operationJson(op), extra);
        return;
    }
    if (!op.done) {
        sendArm(ex, 202, {}, lroHeaders(op, ex->apiVersion, true).mid(1));
        return;
    }
    if (op.error) {
        armError(
            ex, op.error->code == QLatin1String("ResourceNotFound") ? 404 : 400, op.error->code, op.error->message);
        return;
    }
    if (op.result) {
        if (std::optional<QJsonObject> body = op.result()) {
            sendJson(ex, 200, *body);
            return;
        }
    }
    sendArm(ex, 204, {});
}

int AzureState::running() const
{
    return int(std::count_if(operations.begin(), operations.end(), [](const auto &kv) {
        return !kv.second.done;
    }));
}

} // namespace strata::sim::azure
