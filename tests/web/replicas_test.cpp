// Two strata-server replicas (two WebServers, each with its own engine and history store
// connection) sharing one PostgreSQL database: a session cookie from one works on the other, a
// logout, a new password and a removed user on one end the sessions on the other within the
// documented bound (3 s), and a restarted replica keeps the sessions.

#include "web/auth.h"
#include "web/webserver.h"

#include "models/core/domain/clock.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/historyservice.h"
#include "models/core/store/credentialstore.h"
#include "models/core/store/historystore.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/pgfixture.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>
#include <QWebSocket>

#include <gtest/gtest.h>

#include <memory>

using namespace strata;

namespace {

/// The bound README and docs/architecture.md promise for a change to reach every replica.
constexpr qint64 kReplicaBoundMs = 3000;

/// One replica: its own history service (connection) on the shared database, engine, users
/// (memory-only, filled from the store) and web server.
struct SharedReplica
{
    std::unique_ptr<core::HistoryService> history;
    std::unique_ptr<core::Engine> engine;
    std::unique_ptr<web::UserStore> users;
    std::unique_ptr<web::WebServer> server;

    void stop()
    {
        server.reset();
        engine.reset();
        history.reset();
        users.reset();
    }
};

struct ReplicaReply
{
    int status = 0;
    QByteArray body;
    QByteArray location;
    QByteArray setCookie;

    [[nodiscard]] QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
};

struct ReplicaLogin
{
    QByteArray cookie;
    QByteArray csrf;
};

class ReplicasTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_FALSE(db.url().isEmpty());
        // Users as `strata-server user add --store` leaves them (cheap hashes: tests log in often).
        core::SqlHistoryStore seed(db.url(), clock);
        ASSERT_TRUE(testsupport::succeeded(seed.open()));
        for (const auto &[name, role] : {std::pair{QStringLiteral("admin"), QStringLiteral("admin")},
                                         std::pair{QStringLiteral("bob"), QStringLiteral("viewer")}}) {
            ASSERT_TRUE(testsupport::succeeded(seed.saveWebUser(
                core::WebUserRecord{
                    name, role, web::hashPassword(name + QStringLiteral("-password"), 1000), clock.now()},
                clock.now())));
        }
    }

    void start(SharedReplica &r, int syncMs = 1500)
    {
        r.history = std::make_unique<core::HistoryService>(std::make_unique<core::SqlHistoryStore>(db.url(), clock));
        ASSERT_TRUE(r.history->openError().isEmpty()) << r.history->openError().toStdString();
        r.engine = std::make_unique<core::Engine>(
            core::Engine::Deps{clock, credentials, r.history.get(), QStringLiteral("strata-server")});
        r.users = std::make_unique<web::UserStore>(QString(), clock);
        web::WebServerOptions options;
        options.address = QHostAddress::LocalHost;
        options.port = 0;
        options.usersInStore = true;
        options.sharedSyncMs = syncMs;
        r.server = std::make_unique<web::WebServer>(*r.engine, *r.users, options);
        ASSERT_TRUE(testsupport::succeeded(r.server->listen()));
    }

    ReplicaReply send(SharedReplica &r,
                      const QByteArray &method,
                      const QString &path,
                      const ReplicaLogin &login = {},
                      const QJsonObject &body = {})
    {
        QUrl u = r.server->url();
        u.setPath(path);
        QNetworkRequest request(u);
        request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
        request.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
        request.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
        if (!login.cookie.isEmpty()) {
            request.setRawHeader("Cookie", login.cookie);
            request.setRawHeader("X-CSRF-Token", login.csrf);
        }
        QByteArray data;
        if (!body.isEmpty()) {
            data = QJsonDocument(body).toJson(QJsonDocument::Compact);
            request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        }
        QNetworkReply *reply = nam.sendCustomRequest(request, method, data);
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(20000, &loop, &QEventLoop::quit);
        loop.exec();
        ReplicaReply out;
        out.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        out.body = reply->readAll();
        out.location = reply->rawHeader("Location");
        out.setCookie = reply->rawHeader("Set-Cookie");
        reply->deleteLater();
        return out;
    }

    ReplicaLogin logIn(SharedReplica &r, const QString &user, const QString &password)
    {
        const ReplicaReply reply =
            send(r,
                 "POST",
                 QStringLiteral("/api/v1/login"),
                 {},
                 QJsonObject{{QStringLiteral("user"), user}, {QStringLiteral("password"), password}});
        EXPECT_EQ(reply.status, 200) << reply.body.toStdString();
        ReplicaLogin out;
        out.cookie = reply.setCookie.left(reply.setCookie.indexOf(';'));
        out.csrf = reply.json().value(QLatin1String("csrf_token")).toString().toLatin1();
        return out;
    }

    /// Waits (at most `boundMs`) until GET /api/v1/session on `r` answers `status`; the time
    /// it took, or -1.
    qint64
    msUntilSessionStatus(SharedReplica &r, const ReplicaLogin &login, int status, qint64 boundMs = kReplicaBoundMs)
    {
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() <= boundMs) {
            if (send(r, "GET", QStringLiteral("/api/v1/session"), login).status == status) {
                return timer.elapsed();
            }
            QEventLoop wait;
            QTimer::singleShot(50, &wait, &QEventLoop::quit);
            wait.exec();
        }
        return -1;
    }

    core::SystemClock clock;
    core::InMemoryCredentialStore credentials;
    testsupport::ScratchPostgresDatabase db;
    QNetworkAccessManager nam;
    SharedReplica a;
    SharedReplica b;
};

TEST_F(ReplicasTest, ACookieFromOneReplicaWorksOnTheOtherAtOnce)
{
    start(a);
    // B would not read A's new sessions for a minute: only the cookie's own lookup can find it.
    start(b, 60000);
    const ReplicaLogin login = logIn(a, QStringLiteral("bob"), QStringLiteral("bob-password"));
    ASSERT_FALSE(login.cookie.isEmpty());

    // Unknown on B: the answer waits for the store and sends the browser to the same URL again
    // (never a 401), which B then answers from memory.
    const ReplicaReply first = send(b, "GET", QStringLiteral("/api/v1/session"), login);
    EXPECT_EQ(first.status, 307) << first.body.toStdString();
    EXPECT_EQ(first.location, QByteArray("/api/v1/session"));
    const ReplicaReply again = send(b, "GET", QStringLiteral("/api/v1/session"), login);
    ASSERT_EQ(again.status, 200) << again.body.toStdString();
    EXPECT_EQ(again.json().value(QLatin1String("user")).toString(), QStringLiteral("bob"));
    // The CSRF token is derived from the cookie: the same on every replica.
    EXPECT_EQ(again.json().value(QLatin1String("csrf_token")).toString().toLatin1(), login.csrf);

    // A cookie no replica made is refused after the lookup, and its next use costs no query.
    const ReplicaLogin madeUp{QByteArray("strata_session=") + QByteArray(43, 'A'), QByteArray(43, 'B')};
    EXPECT_EQ(send(b, "GET", QStringLiteral("/api/v1/session"), madeUp).status, 401);
    EXPECT_EQ(send(b, "GET", QStringLiteral("/api/v1/session"), madeUp).status, 401);
}

TEST_F(ReplicasTest, ALogoutOnOneReplicaEndsTheSessionOnTheOtherWithinTheBound)
{
    start(a);
    start(b);
    const ReplicaLogin login = logIn(a, QStringLiteral("bob"), QStringLiteral("bob-password"));
    ASSERT_GE(msUntilSessionStatus(b, login, 200), 0);

    const ReplicaReply out = send(a, "POST", QStringLiteral("/api/v1/logout"), login);
    ASSERT_EQ(out.status, 200) << out.body.toStdString();
    EXPECT_EQ(send(a, "GET", QStringLiteral("/api/v1/session"), login).status, 401);
    const qint64 took = msUntilSessionStatus(b, login, 401);
    EXPECT_GE(took, 0) << "B still accepts the session " << kReplicaBoundMs << " ms after the logout on A";
}

TEST_F(ReplicasTest, ALogoutOnOneReplicaClosesTheSessionsWebSocketOnTheOther)
{
    start(a);
    start(b);
    const ReplicaLogin login = logIn(a, QStringLiteral("bob"), QStringLiteral("bob-password"));
    ASSERT_GE(msUntilSessionStatus(b, login, 200), 0);

    QWebSocket socket;
    bool closed = false;
    QObject::connect(&socket, &QWebSocket::disconnected, &socket, [&closed] {
        closed = true;
    });
    QUrl u = b.server->url();
    u.setScheme(QStringLiteral("ws"));
    u.setPath(QStringLiteral("/api/v1/live"));
    QNetworkRequest handshake(u);
    handshake.setRawHeader("Cookie", login.cookie);
    QEventLoop connected;
    QObject::connect(&socket, &QWebSocket::connected, &connected, &QEventLoop::quit);
    QTimer::singleShot(10000, &connected, &QEventLoop::quit);
    socket.open(handshake);
    connected.exec();
    ASSERT_EQ(socket.state(), QAbstractSocket::ConnectedState);

    ASSERT_EQ(send(a, "POST", QStringLiteral("/api/v1/logout"), login).status, 200);
    QElapsedTimer timer;
    timer.start();
    while (!closed && timer.elapsed() <= kReplicaBoundMs) {
        QEventLoop wait;
        QTimer::singleShot(50, &wait, &QEventLoop::quit);
        wait.exec();
    }
    EXPECT_TRUE(closed) << "B's WebSocket of the ended session is still open " << kReplicaBoundMs << " ms later";
}

TEST_F(ReplicasTest, ANewPasswordOrARemovedUserOnOneReplicaEndsTheSessionsOnTheOther)
{
    start(a);
    start(b);
    const ReplicaLogin admin = logIn(a, QStringLiteral("admin"), QStringLiteral("admin-password"));
    const ReplicaLogin bob = logIn(a, QStringLiteral("bob"), QStringLiteral("bob-password"));
    ASSERT_GE(msUntilSessionStatus(b, bob, 200), 0);

    const ReplicaReply changed = send(a,
                                      "POST",
                                      QStringLiteral("/api/v1/users"),
                                      admin,
                                      QJsonObject{{QStringLiteral("name"), QStringLiteral("bob")},
                                                  {QStringLiteral("password"), QStringLiteral("bob-new-password")},
                                                  {QStringLiteral("role"), QStringLiteral("operator")}});
    ASSERT_EQ(changed.status, 200) << changed.body.toStdString();
    EXPECT_GE(msUntilSessionStatus(b, bob, 401), 0) << "bob's session outlived his new password on B";

    // B took the new password and role: the old one is refused there, the new one signs in.
    const ReplicaLogin bobAgain = logIn(b, QStringLiteral("bob"), QStringLiteral("bob-new-password"));
    const ReplicaReply session = send(b, "GET", QStringLiteral("/api/v1/session"), bobAgain);
    EXPECT_EQ(session.json().value(QLatin1String("role")).toString(), QStringLiteral("operator"));
    const ReplicaReply old = send(b,
                                  "POST",
                                  QStringLiteral("/api/v1/login"),
                                  {},
                                  QJsonObject{{QStringLiteral("user"), QStringLiteral("bob")},
                                              {QStringLiteral("password"), QStringLiteral("bob-password")}});
    EXPECT_EQ(old.status, 401);

    const ReplicaReply removed = send(a, "DELETE", QStringLiteral("/api/v1/users/bob"), admin);
    ASSERT_EQ(removed.status, 200) << removed.body.toStdString();
    EXPECT_GE(msUntilSessionStatus(b, bobAgain, 401), 0) << "a removed user's session lives on on B";
    const ReplicaReply gone = send(b,
                                   "POST",
                                   QStringLiteral("/api/v1/login"),
                                   {},
                                   QJsonObject{{QStringLiteral("user"), QStringLiteral("bob")},
                                               {QStringLiteral("password"), QStringLiteral("bob-new-password")}});
    EXPECT_EQ(gone.status, 401);
    // The admin's own session, on both, is untouched.
    EXPECT_EQ(send(a, "GET", QStringLiteral("/api/v1/session"), admin).status, 200);
}

TEST_F(ReplicasTest, ARestartedReplicaKeepsTheSessions)
{
    start(a);
    const ReplicaLogin login = logIn(a, QStringLiteral("bob"), QStringLiteral("bob-password"));
    ASSERT_EQ(send(a, "GET", QStringLiteral("/api/v1/session"), login).status, 200);
    a.stop();
    start(a);
    // Loaded at start: known at once, no lookup, no redirect.
    const ReplicaReply after = send(a, "GET", QStringLiteral("/api/v1/session"), login);
    EXPECT_EQ(after.status, 200) << after.body.toStdString();
    EXPECT_EQ(after.json().value(QLatin1String("csrf_token")).toString().toLatin1(), login.csrf);
}

} // namespace
