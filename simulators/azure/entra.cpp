#include "simulators/azure/azurestate.h"

#include <QDateTime>
#include <QJsonArray>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>
#include <cstdint>

namespace strata::sim::azure {

namespace {

QByteArray base64Url(const QByteArray &data)
{
    return data.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

} // namespace

void AzureState::aadError(
    const std::shared_ptr<AzureExchange> &ex, int status, const QString &error, int code, const QString &description)
{
    const QString now = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd HH:mm:ssZ"));
    const QString trace = rng.uuid();
    const QString correlation = rng.uuid();
    QJsonObject o{
        {QStringLiteral("error"), error},
        {QStringLiteral("error_description"),
         QStringLiteral("AADSTS%1: %2 Trace ID: %3 Correlation ID: %4 Timestamp: %5")
             .arg(code)
             .arg(description, trace, correlation, now)},
        {QStringLiteral("error_codes"), QJsonArray{code}},
        {QStringLiteral("timestamp"), now},
        {QStringLiteral("trace_id"), trace},
        {QStringLiteral("correlation_id"), correlation},
        {QStringLiteral("error_uri"), QString(baseUrl + QStringLiteral("/error?code=") + QString::number(code))},
    };
    Response r = Response::json(status, compact(o));
    r.headers.append({QByteArrayLiteral("Cache-Control"), QByteArrayLiteral("no-store, no-cache")});
    send(ex, std::move(r));
}

void AzureState::serveOpenIdConfiguration(const std::shared_ptr<AzureExchange> &ex, const QString &authority, bool adfs)
{
    const QString base = baseUrl + QLatin1Char('/') + authority;
    const QString oauth = adfs ? base + QStringLiteral("/oauth2") : base + QStringLiteral("/oauth2/v2.0");
    QJsonObject o{
        {QStringLiteral("token_endpoint"), QString(oauth + QStringLiteral("/token"))},
        {QStringLiteral("token_endpoint_auth_methods_supported"),
         QJsonArray{QStringLiteral("client_secret_post"),
                    QStringLiteral("private_key_jwt"),
                    QStringLiteral("client_secret_basic")}},
        {QStringLiteral("jwks_uri"), QString(base + QStringLiteral("/discovery/v2.0/keys"))},
        {QStringLiteral("response_modes_supported"),
         QJsonArray{QStringLiteral("query"), QStringLiteral("fragment"), QStringLiteral("form_post")}},
        {QStringLiteral("subject_types_supported"), QJsonArray{QStringLiteral("pairwise")}},
        {QStringLiteral("id_token_signing_alg_values_supported"), QJsonArray{QStringLiteral("RS256")}},
        {QStringLiteral("response_types_supported"),
         QJsonArray{QStringLiteral("code"),
                    QStringLiteral("id_token"),
                    QStringLiteral("code id_token"),
                    QStringLiteral("id_token token")}},
        {QStringLiteral("scopes_supported"),
         QJsonArray{QStringLiteral("openid"),
                    QStringLiteral("profile"),
                    QStringLiteral("email"),
                    QStringLiteral("offline_access")}},
        {QStringLiteral("issuer"), adfs ? base : QString(base + QStringLiteral("/v2.0"))},
        {QStringLiteral("request_uri_parameter_supported"), false},
        {QStringLiteral("userinfo_endpoint"), QString(baseUrl + QStringLiteral("/oidc/userinfo"))},
        {QStringLiteral("authorization_endpoint"), QString(oauth + QStringLiteral("/authorize"))},
        {QStringLiteral("device_authorization_endpoint"), QString(oauth + QStringLiteral("/devicecode"))},
        {QStringLiteral("http_logout_supported"), true},
        {QStringLiteral("frontchannel_logout_supported"), true},
        {QStringLiteral("end_session_endpoint"), QString(oauth + QStringLiteral("/logout"))},
        {QStringLiteral("claims_supported"),
         QJsonArray{QStringLiteral("sub"),
                    QStringLiteral("iss"),
                    QStringLiteral("aud"),
                    QStringLiteral("exp"),
                    QStringLiteral("iat"),
                    QStringLiteral("tid")}},
        {QStringLiteral("tenant_region_scope"), QStringLiteral("NA")},
        {QStringLiteral("cloud_instance_name"), QStringLiteral("microsoftonline.com")},
        {QStringLiteral("cloud_graph_host_name"), QStringLiteral("graph.windows.net")},
        {QStringLiteral("msgraph_host"), QStringLiteral("graph.microsoft.com")},
    };
    send(ex, Response::json(200, compact(o)));
}

void AzureState::serveToken(const std::shared_ptr<AzureExchange> &ex, const QString &tenant)
{
    if (ex->request.method != "POST") {
        aadError(ex,
                 405,
                 QStringLiteral("invalid_request"),
                 900561,
                 QStringLiteral("The endpoint only accepts POST requests. Received a %1 request.")
                     .arg(QString::fromLatin1(ex->request.method)));
        return;
    }
    const bool adfs = same(tenant, QStringLiteral("adfs"));
    if (!adfs && !same(tenant, opt.tenantId)) {
        aadError(ex,
                 400,
                 QStringLiteral("invalid_request"),
                 90002,
                 QStringLiteral("Tenant '%1' not found. Check to make sure you have the correct tenant ID and are "
                                "signing into the correct cloud.")
                     .arg(tenant));
        return;
    }
    QByteArray body = ex->request.body;
    body.replace('+', "%20");
    const QUrlQuery form(QString::fromUtf8(body));
    auto field = [&](const char *name) {
        return form.queryItemValue(QLatin1String(name), QUrl::FullyDecoded);
    };
    const QString grant = field("grant_type");
    const QString clientId = field("client_id");
    const QString secret = field("client_secret");
    QString scope = field("scope");
    if (grant != QLatin1String("client_credentials")) {
        aadError(ex,
                 400,
                 QStringLiteral("unsupported_grant_type"),
                 70003,
                 QStringLiteral("The app requested an unsupported grant type '%1'.").arg(grant));
        return;
    }
    if (clientId != opt.clientId) {
        aadError(ex,
                 400,
                 QStringLiteral("unauthorized_client"),
                 700016,
                 QStringLiteral("Application with identifier '%1' was not found in the directory '%2'. This can "
                                "happen if the application has not been installed by the administrator of the "
                                "tenant or consented to by any user in the tenant.")
                     .arg(clientId, opt.tenantId));
        return;
    }
    if (secret.isEmpty()) {
        aadError(ex,
                 401,
                 QStringLiteral("invalid_client"),
                 7000216,
                 QStringLiteral("'client_assertion', 'client_secret' or 'request' is required for the "
                                "'client_credentials' grant type."));
        return;
    }
    if (secret != opt.clientSecret) {
        aadError(ex,
                 401,
                 QStringLiteral("invalid_client"),
                 7000215,
                 QStringLiteral("Invalid client secret provided. Ensure the secret being sent in the request is "
                                "the client secret value, not the client secret ID, for a secret added to app "
                                "'%1'.")
                     .arg(opt.clientId));
        return;
    }
    if (scope.isEmpty() && !field("resource").isEmpty()) {
        scope = field("resource") + QStringLiteral("/.default");
    }
    if (scope.isEmpty()) {
        aadError(ex,
                 400,
                 QStringLiteral("invalid_request"),
                 900144,
                 QStringLiteral("The request body must contain the following parameter: 'scope'."));
        return;
    }
    const QString resourceScope = scope.split(QLatin1Char(' '), Qt::SkipEmptyParts).value(0);
    if (!resourceScope.endsWith(QLatin1String("/.default"))) {
        aadError(ex,
                 400,
                 QStringLiteral("invalid_scope"),
                 1002012,
                 QStringLiteral("The provided value for scope %1 is not valid. Client credential flows must have "
                                "a scope value with /.default suffixed to the resource identifier (application "
                                "ID URI).")
                     .arg(scope));
        return;
    }
    const qint64 now = nowMs();
    const int lifetime = std::clamp(opt.tokenLifetimeSeconds, 1, 86400);
    const qint64 iat = now / 1000;
    const QJsonObject header{{QStringLiteral("typ"), QStringLiteral("JWT")},
                             {QStringLiteral("alg"), QStringLiteral("RS256")},
                             {QStringLiteral("x5t"), QStringLiteral("strata-sim")},
                             {QStringLiteral("kid"), QStringLiteral("strata-sim")}};
    const QString oid = rng.uuid();
    const QJsonObject payload{
        {QStringLiteral("aud"), resourceScope.chopped(int(qstrlen("/.default")))},
        {QStringLiteral("iss"), QString(baseUrl + QLatin1Char('/') + opt.tenantId + QLatin1Char('/'))},
        {QStringLiteral("iat"), iat},
        {QStringLiteral("nbf"), iat},
        {QStringLiteral("exp"), iat + lifetime},
        {QStringLiteral("appid"), opt.clientId},
        {QStringLiteral("appidacr"), QStringLiteral("1")},
        {QStringLiteral("idtyp"), QStringLiteral("app")},
        {QStringLiteral("oid"), oid},
        {QStringLiteral("sub"), oid},
        {QStringLiteral("tid"), opt.tenantId},
        {QStringLiteral("uti"), rng.uuid()},
        {QStringLiteral("ver"), QStringLiteral("1.0")},
    };
    QByteArray signature(32, '\0');
    for (int i = 0; i < 32; i += 8) {
        const std::uint64_t r = rng.next();
        for (int j = 0; j < 8; ++j) {
            signature[i + j] = char((r >> (8 * j)) & 0xff);
        }
    }
    const QByteArray token =
        base64Url(compact(header)) + '.' + base64Url(compact(payload)) + '.' + base64Url(signature);
    tokens.insert(QString::fromLatin1(token), now + qint64(lifetime) * 1000);
    QJsonObject o{{QStringLiteral("token_type"), QStringLiteral("Bearer")},
                  {QStringLiteral("expires_in"), lifetime},
                  {QStringLiteral("ext_expires_in"), lifetime},
                  {QStringLiteral("access_token"), QString::fromLatin1(token)}};
    if (lifetime >= 7200) {
        o.insert(QStringLiteral("refresh_in"), lifetime / 2);
    }
    Response r = Response::json(200, compact(o));
    r.headers.append({QByteArrayLiteral("Cache-Control"), QByteArrayLiteral("no-store, no-cache")});
    send(ex, std::move(r));
}

bool AzureState::routeEntra(const std::shared_ptr<AzureExchange> &ex)
{
    const QStringList &s = ex->segs;
    // Entra ID: /{tenant}/oauth2/v2.0/token, /adfs/oauth2/token, openid-configuration.
    if (isTokenPath(s) && (s.size() == 3 || (s.size() == 4 && same(s[2], QStringLiteral("v2.0"))))) {
        serveToken(ex, s[0]);
        return true;
    }
    if (s.size() >= 3 && s[s.size() - 2] == QLatin1String(".well-known")
        && s.last() == QLatin1String("openid-configuration")) {
        const QString authority = s[0];
        const bool adfs = same(authority, QStringLiteral("adfs"));
        if (!adfs && !same(authority, opt.tenantId)) {
            aadError(ex,
                     400,
                     QStringLiteral("invalid_tenant"),
                     90002,
                     QStringLiteral("Tenant '%1' not found.").arg(authority));
            return true;
        }
        serveOpenIdConfiguration(ex, authority, adfs);
        return true;
    }
    if (s.size() >= 3 && s[1] == QLatin1String("discovery") && s.last() == QLatin1String("keys")) {
        send(ex, Response::json(200, R"({"keys":[]})"));
        return true;
    }
    return false;
}

bool AzureState::isTokenPath(const QStringList &segs)
{
    return segs.size() >= 3 && same(segs.last(), QStringLiteral("token")) && same(segs[1], QStringLiteral("oauth2"));
}

void AzureState::revoke()
{
    const qint64 expired = nowMs() - 1;
    for (auto it = tokens.begin(); it != tokens.end(); ++it) {
        it.value() = std::min(it.value(), expired);
    }
}

} // namespace strata::sim::azure
