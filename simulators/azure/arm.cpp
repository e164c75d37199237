#include "simulators/azure/azurestate.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>

Q_LOGGING_CATEGORY(lcAzureSim, "strata.sim.azure", QtWarningMsg)

namespace strata::sim::azure {

namespace {

const QString NetAppMinApi = QStringLiteral("2022-05-01");
const QString NetAppMaxApi = QStringLiteral("2025-12-15");

bool isApiVersion(const QString &v)
{
    static const QRegularExpression re(QStringLiteral("^\\d{4}-\\d{2}-\\d{2}(-preview|-beta|-alpha)?$"));
    return re.match(v).hasMatch();
}

} // namespace

void AzureState::addArmHeaders(Response &r, const AzureExchange &ex)
{
    const QByteArray requestId = rng.uuid().toLatin1();
    r.headers.append({QByteArrayLiteral("Cache-Control"), QByteArrayLiteral("no-cache")});
    r.headers.append({QByteArrayLiteral("Pragma"), QByteArrayLiteral("no-cache")});
    r.headers.append({QByteArrayLiteral("Expires"), QByteArrayLiteral("-1")});
    r.headers.append({QByteArrayLiteral("x-ms-request-id"), requestId});
    const QByteArray correlation = ex.request.header("x-ms-client-request-id");
    r.headers.append(
        {QByteArrayLiteral("x-ms-correlation-request-id"), correlation.isEmpty() ? requestId : correlation});
    r.headers.append({QByteArrayLiteral("x-ms-routing-request-id"),
                      QByteArrayLiteral("EASTUS:")
                          + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMddTHHmmss")).toLatin1()
                          + QByteArrayLiteral("Z:") + requestId});
    r.headers.append(
        {QByteArrayLiteral("Strict-Transport-Security"), QByteArrayLiteral("max-age=31536000; includeSubDomains")});
    r.headers.append({QByteArrayLiteral("X-Content-Type-Options"), QByteArrayLiteral("nosniff")});
    const int readLimit = opt.readsPerHour > 0 ? opt.readsPerHour : 12000;
    if (ex.write) {
        r.headers.append({QByteArrayLiteral("x-ms-ratelimit-remaining-subscription-writes"),
                          QByteArray::number(std::max<qint64>(0, 1200 - qint64(writes.size())))});
    } else {
        r.headers.append({QByteArrayLiteral("x-ms-ratelimit-remaining-subscription-reads"),
                          QByteArray::number(std::max<qint64>(0, readLimit - qint64(reads.size())))});
    }
}

void AzureState::send(const std::shared_ptr<AzureExchange> &ex, Response r)
{
    if (ex->fault) {
        ex->fault->applyTo(r);
    }
    qCInfo(lcAzureSim).noquote() << QString::fromLatin1(ex->request.method) << QString::fromUtf8(ex->request.target)
                                 << "->" << r.status;
    ex->responder.send(std::move(r));
}

void AzureState::sendArm(const std::shared_ptr<AzureExchange> &ex,
                         int status,
                         const QByteArray &body,
                         const QList<QPair<QByteArray, QByteArray>> &extra)
{
    Response r = Response::json(status, body);
    if (body.isEmpty()) {
        r.headers.clear();
    } else {
        r.headers.clear();
        r.headers.append({QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json; charset=utf-8")});
    }
    addArmHeaders(r, *ex);
    for (const auto &h : extra) {
        r.headers.append(h);
    }
    send(ex, std::move(r));
}

void AzureState::sendJson(const std::shared_ptr<AzureExchange> &ex,
                          int status,
                          const QJsonObject &o,
                          const QList<QPair<QByteArray, QByteArray>> &extra)
{
    sendArm(ex, status, compact(o), extra);
}

void AzureState::armError(const std::shared_ptr<AzureExchange> &ex,
                          int status,
                          const QString &code,
                          const QString &message,
                          const QList<QPair<QByteArray, QByteArray>> &extra)
{
    QJsonObject error{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}};
    sendJson(ex, status, QJsonObject{{QStringLiteral("error"), error}}, extra);
}

void AzureState::notFound(const std::shared_ptr<AzureExchange> &ex, const QString &type, const QString &rg)
{
    armError(ex,
             404,
             QStringLiteral("ResourceNotFound"),
             QStringLiteral("The Resource '%1' under resource group '%2' was not found. For more details please go "
                            "to https://aka.ms/ARMResourceNotFoundFix")
                 .arg(type, rg));
}

void AzureState::methodNotAllowed(const std::shared_ptr<AzureExchange> &ex)
{
    armError(ex,
             405,
             QStringLiteral("MethodNotAllowed"),
             QStringLiteral("The requested resource does not support http method '%1'.")
                 .arg(QString::fromLatin1(ex->request.method)));
}

void AzureState::invalidResourceType(const std::shared_ptr<AzureExchange> &ex, const QString &ns, const QString &type)
{
    armError(ex,
             404,
             QStringLiteral("InvalidResourceType"),
             QStringLiteral("The resource type '%1' could not be found in the namespace '%2' for api version '%3'.")
                 .arg(type, ns, ex->apiVersion));
}

void AzureState::sendList(const std::shared_ptr<AzureExchange> &ex, const QJsonArray &items)
{
    bool ok = true;
    const QString token = ex->request.queryValue(QStringLiteral("$skiptoken"));
    const int skip = token.isEmpty() ? 0 : token.toInt(&ok);
    if (!ok || skip < 0) {
        armError(ex,
                 400,
                 QStringLiteral("InvalidSkipToken"),
                 QStringLiteral("The provided $skiptoken '%1' is not valid.").arg(token));
        return;
    }
    const int pageSize = std::max(1, opt.pageSize);
    QJsonArray page;
    for (qsizetype i = skip; i < items.size() && i < qsizetype(skip) + pageSize; ++i) {
        page.append(items[i]);
    }
    QJsonObject body{{QStringLiteral("value"), page}};
    if (qsizetype(skip) + pageSize < items.size()) {
        QUrlQuery q;
        q.addQueryItem(QStringLiteral("api-version"), ex->apiVersion);
        q.addQueryItem(QStringLiteral("$skiptoken"), QString::number(skip + pageSize));
        body.insert(QStringLiteral("nextLink"),
                    QString(baseUrl + QString::fromUtf8(QUrl::toPercentEncoding(ex->request.path, "/"))
                            + QLatin1Char('?') + q.toString(QUrl::FullyEncoded)));
    }
    sendJson(ex, 200, body);
}

std::optional<QJsonObject> AzureState::bodyObject(const std::shared_ptr<AzureExchange> &ex)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(ex->request.body, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        armError(ex,
                 400,
                 QStringLiteral("InvalidRequestContent"),
                 QStringLiteral("The request content was invalid and could not be deserialized: '%1'.")
                     .arg(error.error != QJsonParseError::NoError ? error.errorString()
                                                                  : QStringLiteral("not a JSON object")));
        return std::nullopt;
    }
    return doc.object();
}

std::optional<QJsonObject> AzureState::actionBody(const std::shared_ptr<AzureExchange> &ex)
{
    if (ex->request.method != "POST") {
        methodNotAllowed(ex);
        return std::nullopt;
    }
    return bodyObject(ex);
}

QString AzureState::requireLocation(const std::shared_ptr<AzureExchange> &ex, const QJsonObject &body)
{
    const QString location = body.value(QStringLiteral("location")).toString();
    if (location.isEmpty()) {
        armError(ex,
                 400,
                 QStringLiteral("LocationRequired"),
                 QStringLiteral("The location property is required for this definition."));
    }
    return location;
}

void AzureState::nestedResourcesExist(const std::shared_ptr<AzureExchange> &ex)
{
    armError(ex,
             409,
             QStringLiteral("CannotDeleteResource"),
             QStringLiteral("Can not delete resource before nested resources are deleted."));
}

bool AzureState::authorise(const std::shared_ptr<AzureExchange> &ex)
{
    const QByteArray auth = ex->request.header("authorization").trimmed();
    const QByteArray challenge =
        QByteArrayLiteral("Bearer authorization_uri=\"") + baseUrl.toUtf8() + '/' + opt.tenantId.toUtf8()
        + QByteArrayLiteral("\", error=\"invalid_token\", error_description=\"The authentication failed\"");
    if (auth.isEmpty()) {
        armError(ex,
                 401,
                 QStringLiteral("AuthenticationFailed"),
                 QStringLiteral("Authentication failed. The 'Authorization' header is missing."),
                 {{QByteArrayLiteral("WWW-Authenticate"), challenge}});
        return false;
    }
    const qsizetype space = auth.indexOf(' ');
    if (space <= 0 || auth.left(space).toLower() != "bearer") {
        armError(ex,
                 401,
                 QStringLiteral("AuthenticationFailed"),
                 QStringLiteral("Authentication failed. The 'Authorization' header is provided in an invalid "
                                "format."),
                 {{QByteArrayLiteral("WWW-Authenticate"), challenge}});
        return false;
    }
    const QString token = QString::fromLatin1(auth.mid(space + 1).trimmed());
    const auto it = tokens.constFind(token);
    if (it == tokens.constEnd()) {
        armError(ex,
                 401,
                 QStringLiteral("InvalidAuthenticationToken"),
                 QStringLiteral("The access token is invalid."),
                 {{QByteArrayLiteral("WWW-Authenticate"), challenge}});
        return false;
    }
    const qint64 now = nowMs();
    if (it.value() <= now) {
        const QString format = QStringLiteral("MM/dd/yyyy HH:mm:ss");
        armError(ex,
                 401,
                 QStringLiteral("InvalidAuthenticationTokenExpired"),
                 QStringLiteral("The access token expiry UTC time '%1' is earlier than current UTC time '%2'.")
                     .arg(QDateTime::fromMSecsSinceEpoch(it.value(), Qt::UTC).toString(format),
                          QDateTime::fromMSecsSinceEpoch(now, Qt::UTC).toString(format)),
                 {{QByteArrayLiteral("WWW-Authenticate"),
                   challenge.left(challenge.indexOf("error="))
                       + QByteArrayLiteral("error=\"invalid_token\", "
                                           "error_description=\"The "
                                           "access token has expired.\"")}});
        return false;
    }
    return true;
}

bool AzureState::admit(const std::shared_ptr<AzureExchange> &ex)
{
    const qint64 now = nowMs();
    auto &window = ex->write ? writes : reads;
    while (!window.empty() && window.front() <= now - 3600000) {
        window.pop_front();
    }
    if (!ex->write && opt.readsPerHour > 0 && qint64(reads.size()) >= opt.readsPerHour) {
        const qint64 retry = std::max<qint64>(1, (reads.front() + 3600000 - now + 999) / 1000);
        armError(ex,
                 429,
                 QStringLiteral("SubscriptionRequestsThrottled"),
                 QStringLiteral("Number of 'read' requests for subscription '%1' actor '%2' exceeded. Please try "
                                "again after '%3' seconds after the first request. The throttling limit is %4 "
                                "requests per hour.")
                     .arg(opt.subscriptionId, opt.clientId)
                     .arg(retry)
                     .arg(opt.readsPerHour),
                 {{QByteArrayLiteral("Retry-After"), QByteArray::number(retry)}});
        return false;
    }
    window.push_back(now);
    return true;
}

void AzureState::handle(const Request &request, const Responder &responder)
{
    ++requests;
    auto ex = std::make_shared<AzureExchange>();
    ex->request = request;
    ex->responder = responder;
    QString path = request.path;
    while (path.size() > 1 && path.endsWith(QLatin1Char('/'))) {
        path.chop(1);
    }
    ex->segs = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    ex->write = request.method != "GET" && request.method != "HEAD";
    if (isTokenPath(ex->segs)) {
        ++tokenRequests; // faults included: a client's retries show here
    }
    if (!ex->segs.isEmpty() && ex->segs.front() == QLatin1String("_sim")) {
        handleControl(ex);
        return;
    }
    ex->fault = faults.fire(request.method, request.path, [](const FaultRule &rule) {
        return !isLroFault(rule);
    });
    if (ex->fault) {
        if (auto hang = ex->fault->connectionFault()) {
            responder.send(std::move(*hang));
            return;
        }
        if (ex->fault->kind == QLatin1String("status")) {
            serveStatusFault(ex);
            return;
        }
    }
    route(ex);
}

void AzureState::serveStatusFault(const std::shared_ptr<AzureExchange> &ex)
{
    const FaultRule &f = *ex->fault;
    QList<QPair<QByteArray, QByteArray>> extra;
    if (f.status == 429 || f.status == 503) {
        extra.append({QByteArrayLiteral("Retry-After"), QByteArray::number(f.retryAfterSeconds)});
    }
    if (isTokenPath(ex->segs)) {
        Response r = Response::json(
            f.status,
            compact(QJsonObject{
                {QStringLiteral("error"), f.code.isEmpty() ? QStringLiteral("temporarily_unavailable") : f.code},
                {QStringLiteral("error_description"),
                 f.message.isEmpty() ? QStringLiteral("AADSTS50196: The server terminated an "
                                                      "operation because it encountered a client "
                                                      "request loop.")
                                     : f.message}}));
        r.headers.append(extra);
        send(ex, std::move(r));
        return;
    }
    QString code = f.code;
    QString message = f.message;
    if (code.isEmpty()) {
        switch (f.status) {
        case 429:
            code = QStringLiteral("TooManyRequests");
            break;
        case 409:
            code = QStringLiteral("Conflict");
            break;
        case 503:
            code = QStringLiteral("ServiceUnavailable");
            break;
        case 504:
            code = QStringLiteral("GatewayTimeout");
            break;
        default:
            code = f.status >= 500 ? QStringLiteral("InternalServerError") : QStringLiteral("BadRequest");
        }
    }
    if (message.isEmpty()) {
        message = f.status == 429 ? QStringLiteral("The request is being throttled. Please retry after %1 seconds.")
                                        .arg(f.retryAfterSeconds)
                                  : QStringLiteral("The server encountered an internal error (simulated fault).");
    }
    armError(ex, f.status, code, message, extra);
}

void AzureState::route(const std::shared_ptr<AzureExchange> &ex)
{
    const QStringList &s = ex->segs;
    if (routeEntra(ex)) {
        return;
    }
    if (s.isEmpty() || (!same(s[0], QStringLiteral("subscriptions")) && !same(s[0], QStringLiteral("tenants")))) {
        armError(ex,
                 404,
                 QStringLiteral("NotFound"),
                 QStringLiteral("The requested path '%1' does not exist.").arg(ex->request.path));
        return;
    }
    if (!authorise(ex)) {
        return;
    }
    ex->apiVersion = ex->request.queryValue(QStringLiteral("api-version"));
    if (ex->apiVersion.isEmpty()) {
        armError(ex,
                 400,
                 QStringLiteral("MissingApiVersionParameter"),
                 QStringLiteral("The api-version query parameter (?api-version=) is required for all requests."));
        return;
    }
    QString provider;
    for (qsizetype i = 0; i + 1 < s.size(); ++i) {
        if (same(s[i], QStringLiteral("providers"))) {
            provider = s[i + 1];
        }
    }
    const bool netApp = same(provider, QStringLiteral("Microsoft.NetApp"));
    const QString bare = ex->apiVersion.section(QLatin1Char('-'), 0, 2);
    if (!isApiVersion(ex->apiVersion) || (netApp && (bare < NetAppMinApi || bare > NetAppMaxApi))) {
        armError(ex,
                 400,
                 QStringLiteral("InvalidApiVersionParameter"),
                 netApp ? QStringLiteral("The api-version '%1' is invalid. The supported versions are '%2' .. "
                                         "'%3' for resource provider 'Microsoft.NetApp'.")
                              .arg(ex->apiVersion, NetAppMinApi, NetAppMaxApi)
                        : QStringLiteral("The api-version '%1' is invalid.").arg(ex->apiVersion));
        return;
    }
    if (!admit(ex)) {
        return;
    }
    if (same(s[0], QStringLiteral("tenants"))) {
        sendList(ex,
                 QJsonArray{QJsonObject{{QStringLiteral("id"), QString(QStringLiteral("/tenants/") + opt.tenantId)},
                                        {QStringLiteral("tenantId"), opt.tenantId},
                                        {QStringLiteral("countryCode"), QStringLiteral("US")},
                                        {QStringLiteral("displayName"), QStringLiteral("Strata Simulated Tenant")},
                                        {QStringLiteral("tenantCategory"), QStringLiteral("Home")},
                                        {QStringLiteral("defaultDomain"), QStringLiteral("stratasim.onmicrosoft.com")},
                                        {QStringLiteral("tenantType"), QStringLiteral("AAD")}}});
        return;
    }
    if (s.size() == 1) {
        sendList(ex, QJsonArray{subscriptionJson()});
        return;
    }
    if (!same(s[1], opt.subscriptionId)) {
        armError(ex,
                 404,
                 QStringLiteral("SubscriptionNotFound"),
                 QStringLiteral("The subscription '%1' could not be found.").arg(s[1]));
        return;
    }
    const QStringList rest = s.mid(2);
    if (rest.isEmpty()) {
        if (ex->request.method != "GET") {
            methodNotAllowed(ex);
            return;
        }
        sendJson(ex, 200, subscriptionJson());
        return;
    }
    if (same(rest[0], QStringLiteral("providers")) && rest.size() >= 3) {
        routeSubscriptionProvider(ex, rest);
        return;
    }
    if (same(rest[0], QStringLiteral("resourceGroups"))) {
        routeResourceGroup(ex, rest);
        return;
    }
    armError(ex,
             404,
             QStringLiteral("NotFound"),
             QStringLiteral("The requested path '%1' does not exist.").arg(ex->request.path));
}

QJsonObject AzureState::subscriptionJson() const
{
    return QJsonObject{
        {QStringLiteral("id"), subPrefix()},
        {QStringLiteral("authorizationSource"), QStringLiteral("RoleBased")},
        {QStringLiteral("managedByTenants"), QJsonArray{}},
        {QStringLiteral("subscriptionId"), opt.subscriptionId},
        {QStringLiteral("tenantId"), opt.tenantId},
        {QStringLiteral("displayName"), opt.subscriptionName},
        {QStringLiteral("state"), QStringLiteral("Enabled")},
        {QStringLiteral("subscriptionPolicies"),
         QJsonObject{{QStringLiteral("locationPlacementId"), QStringLiteral("Public_2014-09-01")},
                     {QStringLiteral("quotaId"), QStringLiteral("PayAsYouGo_2014-09-01")},
                     {QStringLiteral("spendingLimit"), QStringLiteral("Off")}}},
    };
}

void AzureState::routeSubscriptionProvider(const std::shared_ptr<AzureExchange> &ex, const QStringList &rest)
{
    const QString &ns = rest[1];
    if (same(ns, QStringLiteral("Microsoft.NetApp"))) {
        if (rest.size() == 3 && same(rest[2], QStringLiteral("netAppAccounts"))) {
            if (ex->request.method != "GET") {
                methodNotAllowed(ex);
                return;
            }
            listAccounts(ex, {});
            return;
        }
        if (rest.size() == 6 && same(rest[2], QStringLiteral("locations"))
            && same(rest[4], QStringLiteral("operationResults"))) {
            serveOperation(ex, rest[5]);
            return;
        }
        invalidResourceType(ex, ns, rest.mid(2).join(QLatin1Char('/')));
        return;
    }
    if (same(ns, QStringLiteral("Microsoft.ContainerService")) && rest.size() == 3
        && same(rest[2], QStringLiteral("managedClusters"))) {
        if (ex->request.method != "GET") {
            methodNotAllowed(ex);
            return;
        }
        listClusters(ex, {});
        return;
    }
    invalidResourceType(ex, ns, rest.mid(2).join(QLatin1Char('/')));
}

void AzureState::routeResourceGroup(const std::shared_ptr<AzureExchange> &ex, const QStringList &rest)
{
    auto rgJson = [this](const QString &rg) {
        return QJsonObject{{QStringLiteral("id"), rgPrefix(rg)},
                           {QStringLiteral("name"), rg},
                           {QStringLiteral("type"), QStringLiteral("Microsoft.Resources/resourceGroups")},
                           {QStringLiteral("location"), opt.location},
                           {QStringLiteral("properties"),
                            QJsonObject{{QStringLiteral("provisioningState"), QStringLiteral("Succeeded")}}}};
    };
    if (rest.size() == 1) {
        QJsonArray items;
        for (const QString &rg : resourceGroups) {
            items.append(rgJson(rg));
        }
        sendList(ex, items);
        return;
    }
    const QString rg = findRg(rest[1]);
    if (rg.isEmpty()) {
        armError(ex,
                 404,
                 QStringLiteral("ResourceGroupNotFound"),
                 QStringLiteral("Resource group '%1' could not be found.").arg(rest[1]),
                 {{QByteArrayLiteral("x-ms-failure-cause"), QByteArrayLiteral("gateway")}});
        return;
    }
    if (rest.size() == 2) {
        sendJson(ex, 200, rgJson(rg));
        return;
    }
    if (rest.size() >= 5 && same(rest[2], QStringLiteral("providers"))) {
        if (same(rest[3], QStringLiteral("Microsoft.NetApp")) && same(rest[4], QStringLiteral("netAppAccounts"))) {
            routeNetApp(ex, rg, rest.mid(5));
            return;
        }
        if (same(rest[3], QStringLiteral("Microsoft.ContainerService"))
            && same(rest[4], QStringLiteral("managedClusters"))) {
            routeAks(ex, rg, rest.mid(5));
            return;
        }
        invalidResourceType(ex, rest[3], rest.mid(4).join(QLatin1Char('/')));
        return;
    }
    armError(ex,
             404,
             QStringLiteral("NotFound"),
             QStringLiteral("The requested path '%1' does not exist.").arg(ex->request.path));
}

} // namespace strata::sim::azure
