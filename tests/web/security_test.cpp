// The web console's security properties as a browser or an attacker meets them: no session,
// wrong passwords and throttling, CSRF and Origin checks, roles, cross-origin WebSockets,
// secrets kept out of responses, cookie flags and TLS.

#include "web/livefeed.h"
#include "webfixture.h"

#include "models/rows/resources.h"
#include "tests/support/qt/corestatus.h"

#include <QProcess>
#include <QSslCertificate>
#include <QSslSocket>

namespace strata::testsupport {
namespace {

using strata::testsupport::errorText;
using strata::testsupport::succeeded;
using WebSecurityTest = WebFixture;

/// Every read route an admin can call.
QStringList webPaths()
{
    QStringList out{QStringLiteral("/api/v1/session"),
                    QStringLiteral("/api/v1/users"),
                    QStringLiteral("/api/v1/audit"),
                    QStringLiteral("/metrics"),
                    QStringLiteral("/healthz")};
    for (const QString &resource : rows::resourceNames()) {
        out << QStringLiteral("/api/v1/") + resource;
    }
    return out;
}

TEST_F(WebSecurityTest, WithoutASessionTheApiAnswers401)
{
    startServer();
    for (const QString &path : {QStringLiteral("/api/v1/volumes"),
                                QStringLiteral("/api/v1/session"),
                                QStringLiteral("/api/v1/audit"),
                                QStringLiteral("/api/v1/history/projects"),
                                QStringLiteral("/api/v1/users")}) {
        const Reply r = get(path);
        EXPECT_EQ(r.status, 401) << path.toStdString();
        EXPECT_EQ(r.json().object().value(QLatin1String("error")).toString(), QStringLiteral("login required"));
    }
    EXPECT_EQ(request("GET", QStringLiteral("/api/v1/volumes"), {}, {{"Cookie", "strata_session=forged"}}).status, 401);
    EXPECT_EQ(post(QStringLiteral("/api/v1/actions"), QJsonObject{}, Login{}).status, 401);

    // Logging out ends the session for good, and its live updates.
    const Login viewer = login(QStringLiteral("viewer"));
    EXPECT_EQ(get(QStringLiteral("/api/v1/session"), viewer).status, 200);
    auto live = openLive(viewer, ownOrigin());
    ASSERT_TRUE(waitFor([&] {
        return !live->messages.isEmpty();
    }));
    EXPECT_EQ(post(QStringLiteral("/api/v1/logout"), QJsonObject{}, viewer).status, 200);
    EXPECT_EQ(get(QStringLiteral("/api/v1/session"), viewer).status, 401);
    EXPECT_TRUE(waitFor([&] {
        return live->closed;
    }));
}

TEST_F(WebSecurityTest, WrongPasswordsAre401ThenThrottledWith429AndRetryAfter)
{
    startServer();
    for (int i = 0; i < 5; ++i) {
        const Reply r = loginReply(QStringLiteral("operator"), QStringLiteral("guess-%1").arg(i));
        EXPECT_EQ(r.status, 401) << i;
        EXPECT_TRUE(r.header("Set-Cookie").isEmpty());
    }
    // Another name from that address is counted on its own (an office behind one address).
    EXPECT_EQ(loginReply(QStringLiteral("nobody"), QStringLiteral("whatever1")).status, 401);
    const Reply throttled = loginReply(QStringLiteral("operator"), QStringLiteral("operator-password"));
    EXPECT_EQ(throttled.status, 429);
    bool ok = false;
    const int retryAfter = throttled.header("Retry-After").toInt(&ok);
    EXPECT_TRUE(ok);
    EXPECT_GE(retryAfter, 1);
    EXPECT_LE(retryAfter, 300);
    EXPECT_TRUE(throttled.header("Set-Cookie").isEmpty());
}

TEST_F(WebSecurityTest, OnePasswordCheckAtATimePerClientAddress)
{
    // A realistic hash cost, so that the two requests overlap.
    ASSERT_TRUE(succeeded(
        users->addUser(QStringLiteral("slowpoke"), QStringLiteral("slowpoke-password"), web::Role::Viewer, 200000)));
    startServer();
    // Password hashes are checked off the event loop; parallel guesses from one address do not
    // get ahead of the limiter.
    QList<QNetworkReply *> replies;
    for (int i = 0; i < 2; ++i) {
        QNetworkRequest r(url(QStringLiteral("/api/v1/login")));
        r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        replies << nam.post(r, QByteArrayLiteral("{\"user\":\"slowpoke\",\"password\":\"wrong-password\"}"));
    }
    ASSERT_TRUE(waitFor([&] {
        return replies.at(0)->isFinished() && replies.at(1)->isFinished();
    }));
    QList<int> statuses;
    for (QNetworkReply *reply : std::as_const(replies)) {
        statuses << reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (statuses.last() == 429) {
            EXPECT_EQ(reply->rawHeader("Retry-After"), QByteArray("1"));
        }
        reply->deleteLater();
    }
    std::sort(statuses.begin(), statuses.end());
    EXPECT_EQ(statuses, (QList<int>{401, 429}));
}

TEST_F(WebSecurityTest, LoginSetsAnHttpOnlySameSiteCookieAndSecurityHeaders)
{
    startServer();
    const Reply r = loginReply(QStringLiteral("viewer"), QStringLiteral("viewer-password"));
    ASSERT_EQ(r.status, 200);
    const QByteArray cookie = r.header("Set-Cookie");
    EXPECT_TRUE(cookie.startsWith("strata_session="));
    EXPECT_TRUE(cookie.contains("HttpOnly"));
    EXPECT_TRUE(cookie.contains("SameSite=Strict"));
    EXPECT_FALSE(cookie.contains("Secure")); // plain HTTP (loopback)
    const QJsonObject body = r.json().object();
    EXPECT_EQ(body.value(QLatin1String("user")).toString(), QStringLiteral("viewer"));
    EXPECT_EQ(body.value(QLatin1String("role")).toString(), QStringLiteral("viewer"));
    EXPECT_GE(body.value(QLatin1String("csrf_token")).toString().size(), 32);
    EXPECT_FALSE(r.body.contains(cookie.mid(15, cookie.indexOf(';') - 15))); // the session id stays in the cookie
    EXPECT_EQ(r.header("X-Content-Type-Options"), QByteArray("nosniff"));
    EXPECT_EQ(r.header("Referrer-Policy"), QByteArray("no-referrer"));
    EXPECT_TRUE(r.header("Content-Security-Policy").startsWith("default-src 'self'"));
    EXPECT_EQ(r.header("Cache-Control"), QByteArray("no-store"));
}

TEST_F(WebSecurityTest, StateChangingRequestsNeedTheCsrfTokenAndAnAllowedOrigin)
{
    startServer();
    const Login op = login(QStringLiteral("operator"));
    const QJsonObject body{{QStringLiteral("kind"), QStringLiteral("snapshot.create")},
                           {QStringLiteral("source"), QStringLiteral("ontap-ai")},
                           {QStringLiteral("volume_id"), QStringLiteral("nope")},
                           {QStringLiteral("name"), QStringLiteral("s")}};
    EXPECT_EQ(post(QStringLiteral("/api/v1/actions"), body, op, false).status, 403);
    Login wrong = op;
    wrong.csrf = "not-the-token";
    const Reply r = post(QStringLiteral("/api/v1/actions"), body, wrong);
    EXPECT_EQ(r.status, 403);
    EXPECT_TRUE(r.json().object().value(QLatin1String("error")).toString().contains(QLatin1String("CSRF")));
    // Another user's token does not fit this session.
    Login swapped = op;
    swapped.csrf = login(QStringLiteral("admin")).csrf;
    EXPECT_EQ(post(QStringLiteral("/api/v1/actions/preview"), body, swapped).status, 403);
    // The right token from a foreign page is still refused.
    const QByteArray json = QJsonDocument(body).toJson(QJsonDocument::Compact);
    EXPECT_EQ(request("POST",
                      QStringLiteral("/api/v1/actions/preview"),
                      json,
                      {{"Cookie", op.cookie}, {"X-CSRF-Token", op.csrf}, {"Origin", "https://evil.example"}})
                  .status,
              403);
    EXPECT_EQ(request("POST",
                      QStringLiteral("/api/v1/login"),
                      QByteArrayLiteral("{\"user\":\"viewer\",\"password\":\"viewer-password\"}"),
                      {{"Origin", "https://evil.example"}})
                  .status,
              403);
    // With both, the request goes through (the preview names the unknown volume).
    EXPECT_EQ(request("POST",
                      QStringLiteral("/api/v1/actions/preview"),
                      json,
                      {{"Cookie", op.cookie}, {"X-CSRF-Token", op.csrf}, {"Origin", ownOrigin().toLatin1()}})
                  .status,
              200);
}

TEST_F(WebSecurityTest, AViewerCallingAnOperatorEndpointGets403)
{
    startServer();
    const Login viewer = login(QStringLiteral("viewer"));
    const QString volumeId = firstVolumeId(viewer);
    const QJsonObject body{{QStringLiteral("kind"), QStringLiteral("snapshot.create")},
                           {QStringLiteral("source"), QStringLiteral("ontap-ai")},
                           {QStringLiteral("volume_id"), volumeId},
                           {QStringLiteral("name"), QStringLiteral("viewer-snap")}};
    for (const QString &path : {QStringLiteral("/api/v1/actions"), QStringLiteral("/api/v1/actions/preview")}) {
        const Reply r = post(path, body, viewer);
        EXPECT_EQ(r.status, 403) << path.toStdString();
        EXPECT_TRUE(r.json().object().value(QLatin1String("error")).toString().contains(QLatin1String("operator")));
    }
    QTest::qWait(200); // bounded on purpose: checks that no snapshot is made after the refusal
    EXPECT_FALSE(simulator->snapshotNames(volumeId).contains(QStringLiteral("viewer-snap")));
    EXPECT_TRUE(engine->actions().records().isEmpty());
    EXPECT_EQ(get(QStringLiteral("/api/v1/users"), viewer).status, 403);
}

TEST_F(WebSecurityTest, CrossOriginWebSocketsAreRefused)
{
    web::WebServerOptions options;
    options.allowedOrigins = {QStringLiteral("https://console.example/")};
    startServer(options);
    const Login viewer = login(QStringLiteral("viewer"));

    auto foreign = openLive(viewer, QStringLiteral("https://evil.example"));
    auto anonymous = openLive(Login{}, ownOrigin());
    auto allowed = openLive(viewer, QStringLiteral("https://console.example"));
    auto own = openLive(viewer, ownOrigin());
    ASSERT_TRUE(waitFor([&] {
        return !own->messages.isEmpty() && !allowed->messages.isEmpty();
    }));
    ASSERT_TRUE(waitFor([&] {
        return foreign->socket->state() == QAbstractSocket::UnconnectedState
               && anonymous->socket->state() == QAbstractSocket::UnconnectedState;
    }));
    EXPECT_TRUE(foreign->messages.isEmpty());
    EXPECT_TRUE(anonymous->messages.isEmpty());
    EXPECT_EQ(own->messages.first().value(QLatin1String("type")).toString(), QStringLiteral("hello"));

    // A refused socket never receives diffs.
    server->feed().append(QStringLiteral("sentences"),
                          QJsonArray{QJsonObject{{QStringLiteral("key"), QStringLiteral("k")}}});
    ASSERT_TRUE(waitFor([&] {
        return own->messages.size() >= 2;
    }));
    EXPECT_TRUE(foreign->messages.isEmpty());
    EXPECT_EQ(own->messages.at(1).value(QLatin1String("type")).toString(), QStringLiteral("diff"));
}

TEST_F(WebSecurityTest, SecretsNeverReachTheBrowser)
{
    startServer();
    const Login admin = login(QStringLiteral("admin"));
    const QString password = simulator->options().password;
    ASSERT_FALSE(password.isEmpty());
    const Reply sources = get(QStringLiteral("/api/v1/sources"), admin);
    ASSERT_EQ(sources.status, 200);
    const QJsonArray rows = sources.json().array();
    ASSERT_EQ(rows.size(), 1);
    for (const QString &column : rows.first().toObject().keys()) {
        EXPECT_FALSE(column.contains(QLatin1String("password"), Qt::CaseInsensitive)) << column.toStdString();
        EXPECT_FALSE(column.contains(QLatin1String("secret"), Qt::CaseInsensitive)) << column.toStdString();
        EXPECT_FALSE(column.contains(QLatin1String("credential"), Qt::CaseInsensitive)) << column.toStdString();
    }
    for (const QString &path : webPaths()) {
        const Reply r = get(path, admin);
        EXPECT_FALSE(r.body.contains(password.toUtf8())) << path.toStdString();
        EXPECT_FALSE(r.body.contains("password_hash")) << path.toStdString();
        EXPECT_FALSE(r.body.contains("pbkdf2-sha256$")) << path.toStdString();
    }
    EXPECT_FALSE(server->feed().rows(QStringLiteral("sources")).isEmpty());
    EXPECT_FALSE(QJsonDocument(server->feed().rows(QStringLiteral("sources"))).toJson().contains(password.toUtf8()));
}

TEST_F(WebSecurityTest, TlsServesHttpsAndWssWithSecureCookiesAndHsts)
{
    if (!QSslSocket::supportsSsl()) {
        GTEST_SKIP() << "no TLS backend";
    }
    // A throwaway self-signed certificate for 127.0.0.1.
    const QString cert = dir.filePath(QStringLiteral("web-cert.pem"));
    const QString key = dir.filePath(QStringLiteral("web-key.pem"));
    QProcess openssl;
    openssl.start(QStringLiteral("openssl"),
                  {QStringLiteral("req"),
                   QStringLiteral("-x509"),
                   QStringLiteral("-newkey"),
                   QStringLiteral("rsa:2048"),
                   QStringLiteral("-nodes"),
                   QStringLiteral("-keyout"),
                   key,
                   QStringLiteral("-out"),
                   cert,
                   QStringLiteral("-days"),
                   QStringLiteral("1"),
                   QStringLiteral("-subj"),
                   QStringLiteral("/CN=127.0.0.1"),
                   QStringLiteral("-addext"),
                   QStringLiteral("subjectAltName=IP:127.0.0.1")});
    if (!openssl.waitForStarted()) {
        GTEST_SKIP() << "openssl CLI not available";
    }
    ASSERT_TRUE(openssl.waitForFinished(60000));
    ASSERT_EQ(openssl.exitCode(), 0) << openssl.readAllStandardError().toStdString();

    web::WebServerOptions bad;
    bad.tlsCertFile = cert;
    bad.tlsKeyFile = dir.filePath(QStringLiteral("missing.pem"));
    web::WebServer refused(*engine, *users, bad);
    const QString error = errorText(refused.listen());
    EXPECT_FALSE(error.isEmpty());
    EXPECT_TRUE(error.contains(QLatin1String("missing.pem"))) << error.toStdString();

    web::WebServerOptions options;
    options.tlsCertFile = cert;
    options.tlsKeyFile = key;
    startServer(options);
    EXPECT_EQ(server->url().scheme(), QStringLiteral("https"));
    clientTls = QSslConfiguration::defaultConfiguration();
    clientTls.setCaCertificates(QSslCertificate::fromPath(cert));

    const Reply health = get(QStringLiteral("/healthz"));
    ASSERT_EQ(health.status, 200) << health.error.toStdString();
    EXPECT_EQ(health.header("Strict-Transport-Security"), QByteArray("max-age=31536000"));
    const Reply r = loginReply(QStringLiteral("viewer"), QStringLiteral("viewer-password"));
    ASSERT_EQ(r.status, 200);
    EXPECT_TRUE(r.header("Set-Cookie").contains("; Secure"));
    const Login viewer = login(QStringLiteral("viewer"));
    EXPECT_EQ(get(QStringLiteral("/api/v1/volumes"), viewer).status, 200);

    auto live = openLive(viewer, ownOrigin());
    ASSERT_TRUE(waitFor([&] {
        return !live->messages.isEmpty();
    })) << live->socket->errorString().toStdString();
    EXPECT_EQ(live->messages.first().value(QLatin1String("type")).toString(), QStringLiteral("hello"));
    // Diffs are written to the encrypted connection under the WebSocket, framed once for all.
    server->feed().append(QStringLiteral("sentences"),
                          QJsonArray{QJsonObject{{QStringLiteral("key"), QStringLiteral("call-1/0")},
                                                 {QStringLiteral("text"), QStringLiteral("über TLS")}}});
    const auto sentence = [&live] {
        for (const QJsonObject &m : std::as_const(live->messages)) {
            if (m.value(QLatin1String("resource")).toString() == QLatin1String("sentences")) {
                return m.value(QLatin1String("upsert")).toArray().first().toObject().value(QLatin1String("text"));
            }
        }
        return QJsonValue();
    };
    ASSERT_TRUE(waitFor([&] {
        return !sentence().isUndefined() && !sentence().isNull();
    }));
    EXPECT_EQ(sentence().toString(), QStringLiteral("über TLS"));
    EXPECT_FALSE(live->closed);
    auto foreign = openLive(viewer, QStringLiteral("https://evil.example"));
    ASSERT_TRUE(waitFor([&] {
        return foreign->socket->state() == QAbstractSocket::UnconnectedState;
    }));
    EXPECT_TRUE(foreign->messages.isEmpty());

    // Plain HTTP to the TLS port gets nothing.
    clientTls = {};
    QUrl plain = server->url();
    plain.setScheme(QStringLiteral("http"));
    QNetworkRequest plainRequest(plain.resolved(QUrl(QStringLiteral("/healthz"))));
    QNetworkReply *reply = nam.get(plainRequest);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(10000, &loop, &QEventLoop::quit);
    loop.exec();
    EXPECT_NE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    reply->deleteLater();
}

} // namespace
} // namespace strata::testsupport
