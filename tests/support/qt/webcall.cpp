#include "tests/support/qt/webcall.h"

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>
#include <QUrl>

namespace strata::testsupport {

WebCallReply webCall(QNetworkAccessManager &net,
                     const QString &url,
                     const QByteArray &body,
                     const QByteArray &cookie,
                     const QByteArray &csrf,
                     int timeoutMs)
{
    QNetworkRequest request{QUrl(url)};
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    request.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
    request.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
    if (!cookie.isEmpty()) {
        request.setRawHeader("Cookie", cookie);
    }
    if (!csrf.isEmpty()) {
        request.setRawHeader("X-CSRF-Token", csrf);
    }
    QNetworkReply *reply = body.isNull() ? net.get(request) : net.post(request, body);
    if (!reply->isFinished()) {
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
    }
    if (!reply->isFinished()) {
        reply->abort();
    }
    WebCallReply r;
    r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    r.body = reply->readAll();
    const QByteArray setCookie = reply->rawHeader("Set-Cookie");
    r.cookie = setCookie.left(setCookie.indexOf(';'));
    reply->deleteLater();
    return r;
}

} // namespace strata::testsupport
