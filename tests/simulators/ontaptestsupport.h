#pragma once

#include "simulators/common/serverthread.h"
#include "simulators/common/tlsidentity.h"
#include "simulators/ontap/ontapsimulator.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslConfiguration>
#include <QString>

#include <memory>

namespace strata::testsupport::ontapsim {

/// One TLS identity for all simulator tests (RSA key generation costs ~100 ms).
const sim::TlsIdentity &sharedIdentity();

/// An OntapSimulator running on its own ServerThread for one test.
class RunningSimulator
{
public:
    explicit RunningSimulator(sim::ontap::OntapSimulator::Options options);
    ~RunningSimulator();

    /// Options tuned for tests: shared TLS identity, fast jobs, no background ticks.
    static sim::ontap::OntapSimulator::Options testOptions();

    sim::ontap::OntapSimulator *operator->() const { return m_simulator; }
    sim::ontap::OntapSimulator &operator*() const { return *m_simulator; }
    [[nodiscard]] sim::ontap::OntapSimulator *get() const { return m_simulator; }
    [[nodiscard]] bool isRunning() const { return m_simulator != nullptr; }
    [[nodiscard]] QString error() const { return m_error; }

private:
    std::unique_ptr<sim::ServerThread> m_thread;
    sim::ontap::OntapSimulator *m_simulator = nullptr;
    QString m_error;
};

/// One HTTP exchange as the client saw it.
struct HttpResult
{
    int status = 0;
    QByteArray body;
    QJsonObject json; ///< parsed body when it is a JSON object
    bool jsonValid = false;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QString errorString;
    QHash<QByteArray, QByteArray> headers; ///< lower-case names
    qint64 elapsedMs = 0;
};

/// A QNetworkAccessManager client on the test thread (nested event loop per request) that pins
/// the simulator's certificate and sends basic auth.
class QnamClient
{
public:
    QnamClient(const QString &baseUrl, const QByteArray &caPem, const QString &username, const QString &password);
    /// A client for `simulator` with its configured credentials.
    explicit QnamClient(const sim::ontap::OntapSimulator &simulator);

    /// `pathAndQuery` is sent as-is (already percent-encoded), e.g. "/api//storage/volumes?fields=name".
    HttpResult send(const QByteArray &method,
                    const QString &pathAndQuery,
                    const QByteArray &body = {},
                    const QList<QPair<QByteArray, QByteArray>> &headers = {},
                    int timeoutMs = 15000);
    HttpResult get(const QString &pathAndQuery) { return send("GET", pathAndQuery); }
    HttpResult post(const QString &pathAndQuery, const QJsonObject &body);
    HttpResult patch(const QString &pathAndQuery, const QJsonObject &body);
    HttpResult del(const QString &pathAndQuery) { return send("DELETE", pathAndQuery); }

    /// Polls /api/cluster/jobs/{uuid} until success or failure; returns the final job (empty on
    /// timeout). `states` collects every state seen, in order, without repeats.
    QJsonObject waitForJob(const QString &uuid, QStringList *states = nullptr, int timeoutMs = 15000);
    /// The job uuid of a 202/200/201 mutation answer, or empty.
    static QString jobUuid(const HttpResult &result);

    void setAuthorization(const QByteArray &headerValue) { m_authorization = headerValue; }
    void setAccept(const QByteArray &accept) { m_accept = accept; }

private:
    QNetworkAccessManager m_nam;
    QString m_baseUrl;
    QSslConfiguration m_ssl;
    QByteArray m_authorization;
    QByteArray m_accept;
};

/// What a raw, one-request-per-connection HTTPS client observed (for fault kinds QNAM would
/// paper over with retries).
struct RawResult
{
    bool encrypted = false; ///< TLS handshake completed
    bool timedOut = false;  ///< nothing (more) arrived before the deadline
    bool closedByPeer = false;
    QByteArray raw; ///< every byte received
    int status = 0;
    qint64 contentLength = -1; ///< declared Content-Length
    QByteArray body;           ///< bytes after the head
    qint64 elapsedMs = 0;

    [[nodiscard]] bool complete() const { return contentLength >= 0 && body.size() >= contentLength; }
};

/// A minimal HTTP/1.1 client over QSslSocket: one request per connection (Connection: close).
class RawClient
{
public:
    RawClient(quint16 port, const QByteArray &caPem, const QByteArray &authorization);
    explicit RawClient(const sim::ontap::OntapSimulator &simulator);

    RawResult
    request(const QByteArray &method, const QByteArray &target, const QByteArray &body = {}, int timeoutMs = 5000);

private:
    quint16 m_port;
    QByteArray m_caPem;
    QByteArray m_authorization;
};

/// "Basic base64(user:password)"
QByteArray basicAuth(const QString &username, const QString &password);

} // namespace strata::testsupport::ontapsim
