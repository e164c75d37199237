#pragma once

#include <QByteArray>
#include <QString>

class QNetworkAccessManager;

namespace strata::testsupport {

/// What one web console request answered.
struct WebCallReply
{
    int status = 0; ///< HTTP status; 0 when the connection broke (the server died) or timed out
    QByteArray body;
    QByteArray cookie; ///< "name=value" of the Set-Cookie header, empty when none
};

/// One request to a strata-server on loopback, waited for on the caller's event loop: a POST of
/// `body` (JSON) when it is not null, else a GET. Cookies go only as given (`cookie`, never a
/// jar: several servers on 127.0.0.1 would share it); `csrf` is sent as X-CSRF-Token. Aborted
/// after `timeoutMs`.
WebCallReply webCall(QNetworkAccessManager &net,
                     const QString &url,
                     const QByteArray &body = QByteArray(),
                     const QByteArray &cookie = {},
                     const QByteArray &csrf = {},
                     int timeoutMs = 60000);

} // namespace strata::testsupport
