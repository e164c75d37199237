#include "simulators/common/httpserver.h"

#include <QDateTime>
#include <QLocale>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>

namespace strata::sim {

namespace {

constexpr qsizetype MaxHeadBytes = 64 * 1024;

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 100:
        return "Continue";
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 202:
        return "Accepted";
    case 204:
        return "No Content";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 409:
        return "Conflict";
    case 410:
        return "Gone";
    case 413:
        return "Payload Too Large";
    case 422:
        return "Unprocessable Entity";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    default:
        return "Status";
    }
}

QString normalisedPath(const QByteArray &target)
{
    const qsizetype q = target.indexOf('?');
    QByteArray raw = q < 0 ? target : target.left(q);
    QString path = QUrl::fromPercentEncoding(raw);
    while (path.contains(QStringLiteral("//"))) {
        path.replace(QStringLiteral("//"), QStringLiteral("/"));
    }
    return path;
}

} // namespace

QString Request::queryValue(const QString &key, const QString &fallback) const
{
    if (!query.hasQueryItem(key)) {
        return fallback;
    }
    return query.queryItemValue(key, QUrl::FullyDecoded);
}

Response Response::json(int status, const QByteArray &body)
{
    Response r;
    r.status = status;
    r.body = body;
    r.headers.append({QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json")});
    return r;
}

Response Response::text(int status, const QByteArray &body)
{
    Response r;
    r.status = status;
    r.body = body;
    r.headers.append({QByteArrayLiteral("Content-Type"), QByteArrayLiteral("text/plain; charset=utf-8")});
    return r;
}

Response &Response::withHeader(const QByteArray &name, const QByteArray &value)
{
    headers.append({name, value});
    return *this;
}

/// One client connection: parses requests one at a time and writes their responses in order.
class Connection final : public QObject
{
public:
    Connection(HttpServer *server, QTcpSocket *socket, quint64 id)
        : QObject(server)
        , m_server(server)
        , m_socket(socket)
        , m_id(id)
    {
        m_socket->setParent(this);
        connect(m_socket, &QTcpSocket::readyRead, this, &Connection::onReadyRead);
        connect(m_socket, &QTcpSocket::disconnected, this, &Connection::onDisconnected);
        onReadyRead();
    }

    bool isConnected() const { return m_socket && m_socket->state() == QAbstractSocket::ConnectedState; }
    bool isCurrent(quint64 serial) const { return m_pending && serial == m_serial; }

    void send(quint64 serial, Response response)
    {
        if (!isCurrent(serial)) {
            return;
        }
        m_answering = true;
        if (response.delay.count() > 0 || response.fault == Fault::Stall) {
            if (response.fault == Fault::Stall) {
                return; // never answer; the client gives up and closes
            }
            QTimer::singleShot(response.delay, this, [this, serial, response]() mutable {
                response.delay = std::chrono::milliseconds{0};
                write(serial, std::move(response));
            });
            return;
        }
        write(serial, std::move(response));
    }

    void beginStream(quint64 serial, int status, const QList<QPair<QByteArray, QByteArray>> &headers)
    {
        if (!isCurrent(serial) || m_streaming) {
            return;
        }
        m_answering = true;
        m_streaming = true;
        QByteArray head = statusLine(status);
        for (const auto &h : headers) {
            head += h.first + ": " + h.second + "\r\n";
        }
        head += "Transfer-Encoding: chunked\r\n";
        head += m_keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
        m_socket->write(head);
        m_socket->flush();
    }

    bool writeChunk(quint64 serial, const QByteArray &data)
    {
        if (!isCurrent(serial) || !m_streaming || !isConnected()) {
            return false;
        }
        if (data.isEmpty()) {
            return true;
        }
        m_socket->write(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
        m_socket->flush();
        return true;
    }

    void endStream(quint64 serial)
    {
        if (!isCurrent(serial) || !m_streaming) {
            return;
        }
        if (isConnected()) {
            m_socket->write("0\r\n\r\n");
            m_socket->flush();
        }
        m_streaming = false;
        finishRequest();
    }

private:
    QByteArray statusLine(int status) const
    {
        return "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    }

    void write(quint64 serial, Response response)
    {
        if (!isCurrent(serial) || !isConnected()) {
            return;
        }
        if (response.fault == Fault::Reset) {
            m_socket->abort();
            return;
        }
        if (response.fault == Fault::Malformed) {
            response.body = QByteArrayLiteral("{\"records\": [ {\"uuid\": \"broken\", \"name\": ");
        }
        const bool isHead = m_method == "HEAD";
        QByteArray head = statusLine(response.status);
        bool hasDate = false;
        for (const auto &h : std::as_const(response.headers)) {
            head += h.first + ": " + h.second + "\r\n";
            hasDate = hasDate || h.first.compare("date", Qt::CaseInsensitive) == 0;
        }
        if (!hasDate) {
            head += "Date: "
                    + QLocale::c()
                          .toString(QDateTime::currentDateTimeUtc(), QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"))
                          .toLatin1()
                    + "\r\n";
        }
        head += "Content-Length: " + QByteArray::number(response.body.size()) + "\r\n";
        head += m_keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
        m_socket->write(head);
        if (response.fault == Fault::Truncate) {
            m_socket->write(response.body.left(response.body.size() / 2));
            m_socket->flush();
            m_socket->disconnectFromHost();
            return;
        }
        if (!isHead) {
            m_socket->write(response.body);
        }
        m_socket->flush();
        finishRequest();
    }

    void finishRequest()
    {
        m_pending = false;
        m_answering = false;
        if (!m_keepAlive) {
            m_socket->disconnectFromHost();
            return;
        }
        // Pipelined requests may already be buffered: handle them from the event loop so a
        // handler answering synchronously does not recurse.
        QMetaObject::invokeMethod(this, &Connection::processBuffer, Qt::QueuedConnection);
    }

    void onReadyRead()
    {
        if (!m_socket) {
            return;
        }
        m_in += m_socket->readAll();
        processBuffer();
    }

    void onDisconnected()
    {
        m_pending = false;
        deleteLater();
    }

    void fail(int status)
    {
        m_keepAlive = false;
        m_pending = true;
        m_serial++;
        send(m_serial, Response::text(status, reasonPhrase(status) + '\n'));
    }

    void processBuffer()
    {
        while (!m_pending && isConnected()) {
            if (!m_haveHead) {
                const qsizetype end = m_in.indexOf("\r\n\r\n");
                if (end < 0) {
                    if (m_in.size() > MaxHeadBytes) {
                        fail(431);
                    }
                    return;
                }
                if (!parseHead(m_in.left(end))) {
                    fail(400);
                    return;
                }
                m_in.remove(0, end + 4);
                m_haveHead = true;
                if (m_contentLength > m_server->m_maxBodyBytes) {
                    fail(413);
                    return;
                }
                if (m_expectContinue) {
                    m_socket->write("HTTP/1.1 100 Continue\r\n\r\n");
                    m_socket->flush();
                }
            }
            if (!readBody()) {
                return;
            }
            m_haveHead = false;
            m_pending = true;
            m_serial++;
            m_server->dispatch(this, m_request, m_serial);
        }
    }

    bool parseHead(const QByteArray &head)
    {
        const QList<QByteArray> lines = head.split('\n');
        const QList<QByteArray> start = lines.value(0).trimmed().split(' ');
        if (start.size() != 3 || !start[2].startsWith("HTTP/1.")) {
            return false;
        }
        m_request = Request{};
        m_request.method = start[0];
        m_request.target = start[1];
        m_request.path = normalisedPath(start[1]);
        const qsizetype q = start[1].indexOf('?');
        if (q >= 0) {
            m_request.query = QUrlQuery(QString::fromUtf8(start[1].mid(q + 1)));
        }
        m_request.connectionId = m_id;
        m_method = m_request.method;
        m_keepAlive = start[2] == "HTTP/1.1";
        m_contentLength = 0;
        m_chunked = false;
        m_expectContinue = false;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines[i].trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            const QByteArray name = line.left(colon).trimmed().toLower();
            const QByteArray value = line.mid(colon + 1).trimmed();
            m_request.headers.insert(name, value);
            if (name == "content-length") {
                bool ok = false;
                m_contentLength = value.toLongLong(&ok);
                if (!ok || m_contentLength < 0) {
                    return false;
                }
            } else if (name == "transfer-encoding") {
                m_chunked = value.toLower().contains("chunked");
            } else if (name == "connection") {
                const QByteArray v = value.toLower();
                if (v.contains("close")) {
                    m_keepAlive = false;
                } else if (v.contains("keep-alive")) {
                    m_keepAlive = true;
                }
            } else if (name == "expect") {
                m_expectContinue = value.toLower() == "100-continue";
            }
        }
        return true;
    }

    // Returns true once the whole body is in m_request.body.
    bool readBody()
    {
        if (!m_chunked) {
            if (m_in.size() < m_contentLength) {
                return false;
            }
            m_request.body = m_in.left(m_contentLength);
            m_in.remove(0, m_contentLength);
            return true;
        }
        for (;;) {
            const qsizetype lineEnd = m_in.indexOf("\r\n");
            if (lineEnd < 0) {
                return false;
            }
            bool ok = false;
            const qint64 size = m_in.left(lineEnd).split(';').value(0).trimmed().toLongLong(&ok, 16);
            if (!ok) {
                fail(400);
                return false;
            }
            if (size == 0) {
                const qsizetype trailerEnd = m_in.indexOf("\r\n", lineEnd + 2);
                if (trailerEnd < 0) {
                    return false;
                }
                m_in.remove(0, trailerEnd + 2);
                return true;
            }
            if (m_in.size() < lineEnd + 2 + size + 2) {
                return false;
            }
            m_request.body += m_in.mid(lineEnd + 2, size);
            if (m_request.body.size() > m_server->m_maxBodyBytes) {
                fail(413);
                return false;
            }
            m_in.remove(0, lineEnd + 2 + size + 2);
        }
    }

    HttpServer *m_server;
    QTcpSocket *m_socket;
    quint64 m_id;
    QByteArray m_in;
    Request m_request;
    QByteArray m_method;
    bool m_haveHead = false;
    bool m_pending = false;
    bool m_answering = false;
    bool m_streaming = false;
    bool m_keepAlive = true;
    bool m_chunked = false;
    bool m_expectContinue = false;
    qint64 m_contentLength = 0;
    quint64 m_serial = 0;
};

Responder::Responder(Connection *connection, quint64 requestSerial)
    : m_connection(connection)
    , m_serial(requestSerial)
{}

void Responder::send(Response response) const
{
    if (m_connection) {
        m_connection->send(m_serial, std::move(response));
    }
}

void Responder::beginStream(int status, const QList<QPair<QByteArray, QByteArray>> &headers) const
{
    if (m_connection) {
        m_connection->beginStream(m_serial, status, headers);
    }
}

bool Responder::writeChunk(const QByteArray &data) const
{
    return m_connection && m_connection->writeChunk(m_serial, data);
}

void Responder::endStream() const
{
    if (m_connection) {
        m_connection->endStream(m_serial);
    }
}

bool Responder::isConnected() const
{
    return m_connection && m_connection->isConnected();
}

HttpServer::HttpServer(QObject *parent)
    : QObject(parent)
{}

HttpServer::~HttpServer() = default;

void HttpServer::setTlsConfiguration(const QSslConfiguration &configuration)
{
    m_tls = configuration;
    m_useTls = true;
}

void HttpServer::setHandler(Handler handler)
{
    m_handler = std::move(handler);
}

void HttpServer::setMaxBodyBytes(qint64 bytes)
{
    m_maxBodyBytes = bytes;
}

bool HttpServer::listen(const QHostAddress &address, quint16 port)
{
    if (m_useTls) {
        auto ssl = std::make_unique<QSslServer>();
        ssl->setSslConfiguration(m_tls);
        m_server = std::move(ssl);
    } else {
        m_server = std::make_unique<QTcpServer>();
    }
    // QSslServer announces a connection only once its handshake has completed.
    connect(m_server.get(), &QTcpServer::pendingConnectionAvailable, this, [this] {
        while (m_server->hasPendingConnections()) {
            QTcpSocket *socket = m_server->nextPendingConnection();
            if (!socket) {
                break;
            }
            // Answers are written as a head and, for bodies of 4 KiB or more, a second segment:
            // with Nagle's algorithm that segment waits for the client's delayed ACK (40 ms on
            // Linux), a pause real servers avoid by setting TCP_NODELAY (nginx's tcp_nodelay,
            // on by default: https://nginx.org/en/docs/http/ngx_http_core_module.html#tcp_nodelay).
            socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
            m_connections++;
            new Connection(this, socket, m_nextConnectionId++);
        }
    });
    if (!m_server->listen(address, port)) {
        m_error = m_server->errorString();
        return false;
    }
    return true;
}

void HttpServer::close()
{
    if (m_server) {
        m_server->close();
    }
    const auto connections = findChildren<Connection *>(Qt::FindDirectChildrenOnly);
    for (Connection *c : connections) {
        delete c;
    }
}

quint16 HttpServer::port() const
{
    return m_server ? m_server->serverPort() : 0;
}

bool HttpServer::isTls() const
{
    return m_useTls;
}

QString HttpServer::baseUrl() const
{
    return (m_useTls ? QStringLiteral("https://127.0.0.1:") : QStringLiteral("http://127.0.0.1:"))
           + QString::number(port());
}

QString HttpServer::errorString() const
{
    return m_error;
}

int HttpServer::requestCount() const
{
    return m_requests;
}

int HttpServer::connectionCount() const
{
    return m_connections;
}

void HttpServer::dispatch(Connection *connection, const Request &request, quint64 serial)
{
    m_requests++;
    const Responder responder(connection, serial);
    if (!m_handler) {
        responder.send(Response::text(404, "no handler\n"));
        return;
    }
    m_handler(request, responder);
}

} // namespace strata::sim
