#pragma once

#include "../integration/simfixture.h"
#include "web/auth.h"
#include "web/webserver.h"

#include "models/core/services/historyservice.h"
#include "models/core/store/historystore.h"
#include "tests/support/qt/corestatus.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslConfiguration>
#include <QTimer>
#include <QWebSocket>

#include <memory>

namespace strata::testsupport {

/// strata-server's WebServer over a real engine polling an in-process ONTAP simulator, with the
/// users admin/operator/viewer (password "<name>-password"), and a plain HTTP client that
/// handles cookies itself (no cookie jar: each request says which session it carries).
class WebFixture : public SimFixture
{
protected:
    core::SystemClock clock;
    std::unique_ptr<core::HistoryService> history;
    std::unique_ptr<core::Engine> engine;
    std::unique_ptr<web::UserStore> users;
    std::unique_ptr<web::WebServer> server;
    QNetworkAccessManager nam;
    QSslConfiguration clientTls;

    struct Reply
    {
        int status = 0;
        QByteArray body;
        QList<QNetworkReply::RawHeaderPair> headers;
        QString error;

        [[nodiscard]] QByteArray header(const QByteArray &name) const
        {
            for (const auto &[key, value] : headers) {
                if (key.compare(name, Qt::CaseInsensitive) == 0) {
                    return value;
                }
            }
            return {};
        }
        [[nodiscard]] QJsonDocument json() const { return QJsonDocument::fromJson(body); }
    };

    struct Login
    {
        QByteArray cookie; ///< "strata_session=..."
        QByteArray csrf;
    };

    void SetUp() override
    {
        SimFixture::SetUp();
        useHistoryStore(QStringLiteral(":memory:"));
        if (HasFatalFailure()) {
            return;
        }
        users = std::make_unique<web::UserStore>(dir.filePath(QStringLiteral("users.json")), clock);
        for (const auto &[name, role] : {std::pair{QStringLiteral("admin"), web::Role::Admin},
                                         std::pair{QStringLiteral("operator"), web::Role::Operator},
                                         std::pair{QStringLiteral("viewer"), web::Role::Viewer}}) {
            // Few iterations: the tests log in often; the cost is tested in auth's own tests.
            ASSERT_TRUE(testsupport::succeeded(users->addUser(name, name + QStringLiteral("-password"), role, 1000)));
        }
    }

    /// (Re)creates the history service on the store at `location` (SqlHistoryStore) and the
    /// engine on it, and waits for the first poll. Before startServer().
    void useHistoryStore(const QString &location)
    {
        engine.reset();
        history = std::make_unique<core::HistoryService>(std::make_unique<core::SqlHistoryStore>(location, clock));
        ASSERT_TRUE(history->openError().isEmpty()) << history->openError().toStdString();
        engine = std::make_unique<core::Engine>(
            core::Engine::Deps{clock, credentials, history.get(), QStringLiteral("strata-server")});
        engine->setSources({sourceConfig()});
        ASSERT_TRUE(waitFor([&] {
            return engine->allPolledOnce();
        }));
    }

    /// The id of the first volume GET /api/v1/volumes lists.
    QString firstVolumeId(const Login &as)
    {
        return get(QStringLiteral("/api/v1/volumes"), as)
            .json()
            .array()
            .first()
            .toObject()
            .value(QLatin1String("id"))
            .toString();
    }

    void TearDown() override
    {
        server.reset();
        engine.reset();
        history.reset();
    }

    void startServer(web::WebServerOptions options = {})
    {
        options.address = QHostAddress::LocalHost;
        options.port = 0;
        server = std::make_unique<web::WebServer>(*engine, *users, options);
        ASSERT_TRUE(testsupport::succeeded(server->listen()));
        ASSERT_NE(server->port(), 0);
    }

    [[nodiscard]] QUrl url(const QString &path) const
    {
        QUrl u = server->url();
        const qsizetype q = path.indexOf(QLatin1Char('?'));
        u.setPath(q >= 0 ? path.left(q) : path);
        if (q >= 0) {
            u.setQuery(path.mid(q + 1));
        }
        return u;
    }

    Reply request(const QByteArray &method,
                  const QString &path,
                  const QByteArray &body = {},
                  const QList<std::pair<QByteArray, QByteArray>> &headers = {})
    {
        QNetworkRequest r(url(path));
        r.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
        r.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
        r.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
        if (!clientTls.isNull()) {
            r.setSslConfiguration(clientTls);
        }
        if (!body.isEmpty()) {
            r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        }
        for (const auto &[name, value] : headers) {
            r.setRawHeader(name, value);
        }
        QNetworkReply *reply = nam.sendCustomRequest(r, method, body);
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(20000, &loop, &QEventLoop::quit);
        loop.exec();
        Reply out;
        out.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        out.body = reply->readAll();
        out.headers = reply->rawHeaderPairs();
        out.error = reply->errorString();
        reply->deleteLater();
        return out;
    }

    Reply get(const QString &path, const Login &login = {})
    {
        if (login.cookie.isEmpty()) {
            return request("GET", path);
        }
        return request("GET", path, {}, {{"Cookie", login.cookie}});
    }

    Reply post(const QString &path, const QJsonObject &body, const Login &login, bool withCsrf = true)
    {
        QList<std::pair<QByteArray, QByteArray>> headers{{"Cookie", login.cookie}};
        if (withCsrf) {
            headers.append({"X-CSRF-Token", login.csrf});
        }
        return request("POST", path, QJsonDocument(body).toJson(QJsonDocument::Compact), headers);
    }

    Reply loginReply(const QString &user, const QString &password)
    {
        return request(
            "POST",
            QStringLiteral("/api/v1/login"),
            QJsonDocument(QJsonObject{{QStringLiteral("user"), user}, {QStringLiteral("password"), password}})
                .toJson(QJsonDocument::Compact));
    }

    Login login(const QString &user)
    {
        const Reply r = loginReply(user, user + QStringLiteral("-password"));
        EXPECT_EQ(r.status, 200) << r.body.toStdString();
        Login out;
        const QByteArray setCookie = r.header("Set-Cookie");
        out.cookie = setCookie.left(setCookie.indexOf(';'));
        out.csrf = r.json().object().value(QLatin1String("csrf_token")).toString().toLatin1();
        return out;
    }

    /// A WebSocket client of /api/v1/live collecting every text message.
    struct LiveClient
    {
        std::unique_ptr<QWebSocket> socket;
        QList<QJsonObject> messages;
        bool closed = false;
    };

    std::unique_ptr<LiveClient> openLive(const Login &login, const QString &origin, const QString &query = {})
    {
        auto client = std::make_unique<LiveClient>();
        client->socket = std::make_unique<QWebSocket>(origin);
        if (!clientTls.isNull()) {
            client->socket->setSslConfiguration(clientTls);
        }
        LiveClient *c = client.get();
        QObject::connect(c->socket.get(), &QWebSocket::textMessageReceived, c->socket.get(), [c](const QString &text) {
            c->messages.append(QJsonDocument::fromJson(text.toUtf8()).object());
        });
        QObject::connect(c->socket.get(), &QWebSocket::disconnected, c->socket.get(), [c] {
            c->closed = true;
        });
        QString path = QStringLiteral("/api/v1/live");
        if (!query.isEmpty()) {
            path += QLatin1Char('?');
            path += query;
        }
        QUrl u = url(path);
        u.setScheme(u.scheme() == QLatin1String("https") ? QStringLiteral("wss") : QStringLiteral("ws"));
        QNetworkRequest r(u);
        if (!login.cookie.isEmpty()) {
            r.setRawHeader("Cookie", login.cookie);
        }
        c->socket->open(r);
        return client;
    }

    [[nodiscard]] QString ownOrigin() const
    {
        return QStringLiteral("%1://127.0.0.1:%2").arg(server->url().scheme()).arg(server->port());
    }
};

} // namespace strata::testsupport
