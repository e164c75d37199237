#pragma once

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>
#include <QSslConfiguration>
#include <QUrlQuery>

#include <chrono>
#include <functional>
#include <memory>

class QTcpServer;

namespace strata::sim {

/// One parsed HTTP/1.1 request as a simulator sees it.
struct Request
{
    QByteArray method; ///< "GET", "POST", ...
    QByteArray target; ///< raw request target, "/api/storage/volumes?fields=name"
    /// Percent-decoded path with repeated slashes collapsed ("/api//x" -> "/api/x"), as ONTAP
    /// tolerates them and Ansible sends them.
    QString path;
    QUrlQuery query;                       ///< fully decoded on access via QUrl::FullyDecoded
    QHash<QByteArray, QByteArray> headers; ///< lower-case names
    QByteArray body;
    quint64 connectionId = 0; ///< same for requests on one keep-alive connection

    [[nodiscard]] QByteArray header(const QByteArray &lowerName) const { return headers.value(lowerName); }
    /// Query value decoded, or `fallback` when absent.
    [[nodiscard]] QString queryValue(const QString &key, const QString &fallback = {}) const;
};

/// Ways a response can misbehave, for fault injection.
enum class Fault
{
    None,
    Reset,     ///< close the connection without answering (after `delay`)
    Truncate,  ///< send headers with the full Content-Length, then half the body, then close
    Malformed, ///< replace the body with invalid JSON of the same length class
    Stall,     ///< never answer; the client must time out
};

struct Response
{
    int status = 200;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    std::chrono::milliseconds delay{0}; ///< wait this long before the first byte
    Fault fault = Fault::None;

    static Response json(int status, const QByteArray &body);
    static Response text(int status, const QByteArray &body);
    Response &withHeader(const QByteArray &name, const QByteArray &value);
};

class Connection;

/// Handle through which a handler answers, now or later (it may be copied into a timer).
/// A handler must answer exactly once, with send() or with beginStream() ... endStream().
class Responder
{
public:
    Responder() = default;
    explicit Responder(Connection *connection, quint64 requestSerial);

    void send(Response response) const;
    /// Starts a chunked 200-style streaming response (Kubernetes watch).
    void beginStream(int status, const QList<QPair<QByteArray, QByteArray>> &headers) const;
    /// Writes one chunk; returns false when the client has gone.
    bool writeChunk(const QByteArray &data) const;
    void endStream() const;
    [[nodiscard]] bool isConnected() const;

private:
    QPointer<Connection> m_connection;
    quint64 m_serial = 0;
};

/// A small, complete HTTP/1.1 server (keep-alive, Content-Length and chunked request bodies,
/// Expect: 100-continue, chunked streaming responses) over plain TCP or TLS, with fault
/// injection at the socket level. It lives in the thread that created it.
class HttpServer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpServer)

public:
    using Handler = std::function<void(const Request &, const Responder &)>;

    explicit HttpServer(QObject *parent = nullptr);
    ~HttpServer() override;

    /// Serve TLS with this configuration (certificate + key set); call before listen().
    void setTlsConfiguration(const QSslConfiguration &configuration);
    void setHandler(Handler handler);
    /// Maximum accepted request body, larger bodies get 413 (default 64 MiB).
    void setMaxBodyBytes(qint64 bytes);

    /// Listens on `address`:`port` (0 = a free port). Returns false and sets errorString().
    bool listen(const QHostAddress &address = QHostAddress::LocalHost, quint16 port = 0);
    void close();
    [[nodiscard]] quint16 port() const;
    [[nodiscard]] bool isTls() const;
    /// "https://127.0.0.1:<port>" or "http://..."
    [[nodiscard]] QString baseUrl() const;
    [[nodiscard]] QString errorString() const;
    /// Requests answered so far (for tests asserting retry counts).
    [[nodiscard]] int requestCount() const;
    /// Connections accepted so far.
    [[nodiscard]] int connectionCount() const;

private:
    friend class Connection;
    void dispatch(Connection *connection, const Request &request, quint64 serial);

    std::unique_ptr<QTcpServer> m_server;
    QSslConfiguration m_tls;
    bool m_useTls = false;
    Handler m_handler;
    qint64 m_maxBodyBytes = 64 * 1024 * 1024;
    QString m_error;
    int m_requests = 0;
    int m_connections = 0;
    quint64 m_nextConnectionId = 1;
};

} // namespace strata::sim
