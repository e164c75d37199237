#include "web/httpguard.h"

#include "web/metrics.h"

#include "connectors/http/reasonphrase.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>

#include <algorithm>
#include <limits>
#include <string_view>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

namespace strata::web {

namespace {

/// Descriptors kept free for everything else the server opens (sources, history store, files).
constexpr qint64 kGuardReservedDescriptors = 128;
/// How long a refused connection is still read (and dropped) so the client sees the answer
/// before the close, instead of a reset that can discard it.
constexpr int kGuardLingerMs = 2000;
/// What a connection may send ahead while an answer is in progress, before the server stops
/// reading from it (the kernel's buffers and TCP flow control then hold the rest).
constexpr qint64 kGuardHoldBytes = 1024 * 1024 + 64 * 1024;
/// Pending connections the kernel queues before accept() (see createServer).
constexpr int kListenBacklog = 4096;

QByteArray guardReasonPhrase(int status)
{
    const std::string_view phrase = http::reasonPhrase(status);
    return phrase.empty() ? QByteArrayLiteral("Error") : QByteArray(phrase.data(), qsizetype(phrase.size()));
}

/// QHttpServer's limits on a header block (QHttpHeaderParser): fields, and bytes of one field line.
constexpr int kGuardMaxHeaderFields = 100;
constexpr int kGuardMaxHeaderFieldBytes = 8 * 1024;
/// The longest chunk-size line (digits and extension) a chunked body may carry.
constexpr int kGuardMaxChunkLineBytes = 1024;

/// An RFC 9110 token: what QHttpServer accepts as a header name.
bool guardIsFieldName(const QByteArray &name)
{
    static constexpr std::string_view others = "!#$%&'*+-.^_`|~";
    return !name.isEmpty() && std::all_of(name.begin(), name.end(), [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
               || others.find(ch) != std::string_view::npos;
    });
}

bool guardIsHttpToken(const QByteArray &method)
{
    if (method.isEmpty() || method.size() > 16) {
        return false;
    }
    return std::all_of(method.begin(), method.end(), [](char ch) {
        return ch >= 'A' && ch <= 'Z';
    });
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Header block parsing

RequestHeadParse parseRequestHead(const QByteArray &block, int maxUrlBytes)
{
    RequestHeadParse out;
    const auto refused = [&out](int status, QString message) {
        out.status = status;
        out.message = std::move(message);
        out.reason = status == 414   ? QByteArray("url_too_long")
                     : status == 431 ? QByteArray("header_too_large")
                                     : QByteArray("bad_request");
        return out;
    };
    QList<QByteArray> lines = block.split('\n');
    for (QByteArray &line : lines) {
        if (line.endsWith('\r')) {
            line.chop(1);
        }
        // A CR anywhere else ends a line for some parsers and not for others.
        if (line.contains('\r')) {
            return refused(400, QStringLiteral("malformed header line"));
        }
    }
    RequestHead &head = out.head;
    const QList<QByteArray> requestLine = lines.value(0).split(' ');
    if (requestLine.size() != 3 || !guardIsHttpToken(requestLine.at(0)) || !requestLine.at(2).startsWith("HTTP/1.")
        || requestLine.at(2).size() != 8) {
        return refused(400, QStringLiteral("malformed request line"));
    }
    head.method = requestLine.at(0);
    head.target = requestLine.at(1);
    head.version = requestLine.at(2);
    if (head.target.size() > maxUrlBytes) {
        return refused(414, QStringLiteral("the request URL is too long"));
    }
    for (qsizetype l = 1; l < lines.size(); ++l) {
        const QByteArray &line = lines.at(l);
        if (line.isEmpty()) {
            continue;
        }
        // QHttpServer (Qt 6.4) drops every header of a request when one of them breaks its
        // rules (a name that is not a token, a folded line, over 100 fields or a field over
        // 8 KiB): it would then read no body where this guard reads one. Refused here instead.
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0 || !guardIsFieldName(line.left(colon))) {
            return refused(400, QStringLiteral("malformed header line"));
        }
        if (head.headers.size() >= kGuardMaxHeaderFields || line.size() > kGuardMaxHeaderFieldBytes) {
            return refused(431, QStringLiteral("the request headers are too large"));
        }
        head.headers.append({line.left(colon), line.mid(colon + 1).trimmed()});
    }
    const auto count = [&head](const QByteArray &name) {
        return std::count_if(head.headers.cbegin(), head.headers.cend(), [&name](const auto &header) {
            return header.first.compare(name, Qt::CaseInsensitive) == 0;
        });
    };
    for (const char *single : {"Host", "Content-Length", "Transfer-Encoding", "Upgrade"}) {
        if (count(QByteArray(single)) > 1) {
            return refused(400, QStringLiteral("more than one %1 header").arg(QLatin1String(single)));
        }
    }
    const QByteArray encoding = head.header("Transfer-Encoding");
    const QByteArray lengthText = head.header("Content-Length");
    if (count("Transfer-Encoding") > 0) {
        // Only "chunked": Qt takes any value containing the word for chunked.
        if (encoding.compare("chunked", Qt::CaseInsensitive) != 0) {
            return refused(400, QStringLiteral("unsupported Transfer-Encoding (only chunked)"));
        }
        if (count("Content-Length") > 0) {
            return refused(400, QStringLiteral("both Content-Length and Transfer-Encoding"));
        }
        out.chunked = true;
    }
    if (count("Content-Length") > 0) {
        const bool digits = !lengthText.isEmpty() && lengthText.size() <= 18
                            && std::all_of(lengthText.begin(), lengthText.end(), [](char ch) {
                                   return ch >= '0' && ch <= '9';
                               });
        if (!digits) {
            return refused(400, QStringLiteral("malformed Content-Length"));
        }
        out.contentLength = lengthText.toLongLong();
    }
    return out;
}

qsizetype findRequestHeadEnd(const QByteArray &head, qsizetype from)
{
    for (qsizetype p = std::max<qsizetype>(from, 1); p < head.size(); ++p) {
        if (head[p] != '\n') {
            continue;
        }
        if (head[p - 1] == '\n' || (p >= 2 && head[p - 1] == '\r' && head[p - 2] == '\n')) {
            return p + 1;
        }
    }
    return -1;
}

qint64 parseChunkSizeLine(const QByteArray &line)
{
    ChunkedBodyScanner scanner(std::numeric_limits<qint64>::max());
    const QByteArray framed = line + "\r\n";
    const qsizetype taken = scanner.feed(framed.constData(), framed.size());
    if (scanner.status() == ChunkedBodyScanner::Status::Malformed || taken != framed.size()) {
        return -1;
    }
    // Past the line the scanner waits for data (or, after a last chunk, for its CRLF).
    return scanner.awaitingFinalLf() || scanner.status() != ChunkedBodyScanner::Status::More ? -1
                                                                                             : scanner.pendingChunk();
}

// ---------------------------------------------------------------------------------------------
// ChunkedBodyScanner

ChunkedBodyScanner::ChunkedBodyScanner(qint64 maxBodyBytes)
    : m_max(std::max<qint64>(0, maxBodyBytes))
{}

qsizetype ChunkedBodyScanner::feed(const char *data, qsizetype size)
{
    qsizetype i = 0;
    const auto malformed = [this, &i] {
        m_status = Status::Malformed;
        return i;
    };
    while (i < size && m_status == Status::More) {
        if (m_state == State::Data) {
            const qint64 take = std::min<qint64>(m_size, size - i);
            m_size -= take;
            i += qsizetype(take);
            if (m_size == 0) {
                m_state = State::DataCr;
            }
            continue;
        }
        const char ch = data[i++];
        switch (m_state) {
        case State::Size:
        case State::SizeSpace:
        case State::Extension: {
            if (++m_lineBytes > kGuardMaxChunkLineBytes) {
                return malformed();
            }
            const bool hex = (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
            if (m_state == State::Size && hex) {
                if (++m_digits > 15) {
                    return malformed();
                }
                m_size = m_size * 16 + (ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10);
            } else if (ch == '\r' && m_digits > 0) {
                m_state = State::SizeLf;
            } else if (m_state == State::Extension) {
                // Anything visible (or a space or tab) but CR: Qt ignores what follows the ";".
                if (ch != '\t' && (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)) {
                    return malformed();
                }
            } else if (m_digits > 0 && (ch == ' ' || ch == '\t')) {
                m_state = State::SizeSpace;
            } else if (m_digits > 0 && ch == ';') {
                m_state = State::Extension;
            } else {
                return malformed();
            }
            break;
        }
        case State::SizeLf:
            if (ch != '\n') {
                return malformed();
            }
            m_digits = 0;
            m_lineBytes = 0;
            if (m_size == 0) {
                m_state = State::FinalCr;
            } else if (m_size > m_max - m_seen) {
                m_status = Status::TooLarge;
                return i;
            } else {
                m_seen += m_size;
                m_state = State::Data;
            }
            break;
        case State::DataCr:
        case State::FinalCr:
            if (ch != '\r') {
                return malformed();
            }
            m_state = m_state == State::DataCr ? State::DataLf : State::FinalLf;
            break;
        case State::DataLf:
            if (ch != '\n') {
                return malformed();
            }
            m_state = State::Size;
            m_size = 0;
            break;
        case State::FinalLf:
            if (ch != '\n') {
                return malformed();
            }
            m_state = State::Done;
            m_status = Status::Done;
            break;
        case State::Data:
        case State::Done:
            break;
        }
    }
    return i;
}

// ---------------------------------------------------------------------------------------------
// RequestHead

QByteArray RequestHead::header(const QByteArray &name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0) {
            return value;
        }
    }
    return {};
}

QByteArray RequestHead::path() const
{
    const qsizetype q = target.indexOf('?');
    return q < 0 ? target : target.left(q);
}

bool RequestHead::websocketUpgrade() const
{
    // QHttpServer reads every Connection header, joined.
    bool upgrade = false;
    for (const auto &[key, value] : headers) {
        upgrade =
            upgrade || (key.compare("Connection", Qt::CaseInsensitive) == 0 && value.toLower().contains("upgrade"));
    }
    return upgrade && header("Upgrade").compare("websocket", Qt::CaseInsensitive) == 0;
}

QString clientKey(const QHostAddress &address)
{
    bool v4 = false;
    const quint32 ipv4 = address.toIPv4Address(&v4);
    if (v4) {
        return QHostAddress(ipv4).toString();
    }
    Q_IPV6ADDR bytes = address.toIPv6Address();
    for (int i = 8; i < 16; ++i) {
        bytes[i] = 0;
    }
    return QHostAddress(bytes).toString() + QStringLiteral("/64");
}

core::Result<QList<QPair<QHostAddress, int>>> parseTrustedProxies(const QStringList &values)
{
    QList<QPair<QHostAddress, int>> out;
    for (const QString &raw : values) {
        const QString value = raw.trimmed();
        QPair<QHostAddress, int> subnet;
        if (value.contains(QLatin1Char('/'))) {
            subnet = QHostAddress::parseSubnet(value);
        } else {
            const QHostAddress address(value);
            subnet = {address, address.protocol() == QAbstractSocket::IPv6Protocol ? 128 : 32};
        }
        if (subnet.first.isNull() || subnet.second < 0) {
            return core::fail(core::Error::invalid(
                {},
                QStringLiteral("trusted proxy \"%1\" is not an address or a subnet (10.0.0.5, 10.1.0.0/16)")
                    .arg(value)));
        }
        out.append(subnet);
    }
    return out;
}

bool isTrustedProxy(const QHostAddress &address, const QList<QPair<QHostAddress, int>> &proxies)
{
    bool v4 = false;
    const quint32 ipv4 = address.toIPv4Address(&v4);
    const QHostAddress plain = v4 ? QHostAddress(ipv4) : address;
    return std::any_of(proxies.begin(), proxies.end(), [&plain](const QPair<QHostAddress, int> &subnet) {
        return plain.isInSubnet(subnet);
    });
}

QHostAddress forwardedClient(const QHostAddress &peer,
                             const QByteArray &forwardedFor,
                             const QList<QPair<QHostAddress, int>> &proxies)
{
    if (forwardedFor.isEmpty() || !isTrustedProxy(peer, proxies)) {
        return peer;
    }
    const QList<QByteArray> hops = forwardedFor.split(',');
    for (auto it = hops.rbegin(); it != hops.rend(); ++it) {
        const QHostAddress hop(QString::fromLatin1(it->trimmed()));
        if (hop.isNull()) {
            return peer;
        }
        if (!isTrustedProxy(hop, proxies)) {
            return hop;
        }
    }
    return peer;
}

qint64 raiseOpenFileLimit()
{
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) {
        return -1;
    }
    if (limit.rlim_cur < limit.rlim_max) {
        rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0) {
            limit = raised;
        }
    }
    return limit.rlim_cur == RLIM_INFINITY ? std::numeric_limits<qint64>::max() : qint64(limit.rlim_cur);
}

// ---------------------------------------------------------------------------------------------
// Servers and the per-connection state

/// A child of each guarded socket: tells the guard when the socket is gone, whoever deletes it
/// (QHttpServer on disconnect, the WebSocket that took it over). A destroyed() connection would
/// not do: QHttpServer disconnects every signal of a socket it upgrades.
class ConnSentinel final : public QObject
{
public:
    ConnSentinel(HttpGuard *guard, QTcpSocket *socket)
        : QObject(socket)
        , m_guard(guard)
        , m_socket(socket)
    {}
    ~ConnSentinel() override
    {
        if (m_guard) {
            m_guard->forget(m_socket);
        }
    }
    ConnSentinel(const ConnSentinel &) = delete;
    ConnSentinel &operator=(const ConnSentinel &) = delete;

private:
    QPointer<HttpGuard> m_guard;
    QTcpSocket *m_socket; ///< only a key once the socket is being destroyed
};

class GuardedTcpServer final : public QTcpServer
{
public:
    GuardedTcpServer(HttpGuard *guard, QObject *parent)
        : QTcpServer(parent)
        , m_guard(guard)
    {}

protected:
    void incomingConnection(qintptr descriptor) override
    {
        if (!m_guard || !m_guard->admit(descriptor)) {
            return;
        }
        auto *socket = new QTcpSocket(this);
        if (!socket->setSocketDescriptor(descriptor)) {
            delete socket;
            ::close(int(descriptor));
            return;
        }
        m_guard->adopt(socket, false);
        addPendingConnection(socket); // QHttpServer connects its readyRead now, after the guard's
        m_guard->attach(socket);
    }

private:
    QPointer<HttpGuard> m_guard;
};

class GuardedSslServer final : public QSslServer
{
public:
    GuardedSslServer(HttpGuard *guard, QObject *parent)
        : QSslServer(parent)
        , m_guard(guard)
    {}

protected:
    void incomingConnection(qintptr descriptor) override
    {
        if (!m_guard || !m_guard->admit(descriptor)) {
            return;
        }
        QSslServer::incomingConnection(descriptor);
        // QSslServer made the socket as its newest child; QHttpServer gets it after the handshake.
        const QObjectList &kids = children();
        auto *socket = kids.isEmpty() ? nullptr : qobject_cast<QSslSocket *>(kids.last());
        if (!socket || socket->socketDescriptor() != descriptor) {
            return;
        }
        m_guard->adopt(socket, true);
        HttpGuard *guard = m_guard;
        // Connected after QSslServer's own encrypted() slot, which hands the socket to QHttpServer.
        QObject::connect(socket, &QSslSocket::encrypted, guard, [guard, socket] {
            guard->attach(socket);
        });
    }

private:
    QPointer<HttpGuard> m_guard;
};

struct HttpGuard::Conn
{
    enum class Phase
    {
        Handshake, ///< TLS handshake: the bytes are not HTTP yet
        Head,      ///< reading a request line and headers (or idle between requests)
        Body,      ///< a Content-Length body
        Chunked,   ///< a chunked body
        Upgraded,  ///< a WebSocket now: not guarded, still counted
        Closing    ///< refused or timed out: dropping what arrives until closed
    };
    QTcpSocket *socket = nullptr;
    QHostAddress peer;
    QString client;
    bool counted = true;
    Phase phase = Phase::Head;
    QByteArray head;     ///< the header block so far
    qint64 bodyLeft = 0; ///< Body: bytes still to come
    HeadVerdict verdict; ///< of the request being read
    ChunkedBodyScanner chunked;
    /// Chunked: the previous batch of bytes ended between the last chunk's CR and LF.
    bool finalCrAtBatchEnd = false;
    qint64 leftover = 0;   ///< bytes QHttpServer's parser left unread after its last turn
    bool awaiting = false; ///< a complete request is being answered
    /// QHttpServer took a complete request whose answer is not written out yet.
    bool answering = false;
    /// The bytes after that request are kept from QHttpServer in a read transaction of ours.
    bool holding = false;
    /// A refusal waiting for the answer in progress to go out first.
    QByteArray pendingRefusal;
    bool started = false; ///< at least one request was read on this connection
    qint64 deadline = 0;  ///< m_clock ms; 0 = none
    QByteArray deadlineReason;
    qint64 since = 0; ///< when it began waiting for its current request (eviction order)
    QList<QMetaObject::Connection> links;
};

// ---------------------------------------------------------------------------------------------
// HttpGuard

HttpGuard::HttpGuard(HttpGuardLimits limits, HeadCheck check, WebServerCounters &counters, QObject *parent)
    : QObject(parent)
    , m_limits(std::move(limits))
    , m_check(std::move(check))
    , m_counters(counters)
{
    m_clock.start();
    m_maxConnections = std::max(1, m_limits.maxConnections);
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        // Two descriptors per connection would be too cautious: one is the socket, the listener
        // and the rest are in the reserve.
        const qint64 fits = std::max<qint64>(32, qint64(limit.rlim_cur) - kGuardReservedDescriptors);
        if (fits < m_maxConnections) {
            qWarning("strata-server: at most %lld connections (RLIMIT_NOFILE %lld), not %d",
                     static_cast<long long>(fits),
                     static_cast<long long>(limit.rlim_cur),
                     m_maxConnections);
            m_maxConnections = int(fits);
        }
    }
    m_limits.maxConnectionsPerClient = std::max(1, m_limits.maxConnectionsPerClient);
    m_sweep.setInterval(std::clamp(std::min(m_limits.headerTimeoutMs, m_limits.idleTimeoutMs) / 4, 20, 1000));
    connect(&m_sweep, &QTimer::timeout, this, &HttpGuard::sweep);
}

HttpGuard::~HttpGuard()
{
    for (auto &[socket, conn] : m_conns) {
        for (const QMetaObject::Connection &link : std::as_const(conn->links)) {
            QObject::disconnect(link);
        }
    }
}

QTcpServer *HttpGuard::createServer(QObject *http, const QSslConfiguration *tls)
{
    m_http = http;
    QTcpServer *server = nullptr;
    if (tls) {
        auto *ssl = new GuardedSslServer(this, nullptr);
        ssl->setSslConfiguration(*tls);
        ssl->setHandshakeTimeout(m_limits.headerTimeoutMs);
        server = ssl;
    } else {
        server = new GuardedTcpServer(this, nullptr);
    }
    // Qt's default backlog of 50 overflows when a thousand browsers reconnect at once (a replica
    // restarting behind a load balancer): the kernel then drops SYNs and clients retry after 1,
    // 3, 7 s... Linux caps it at net.core.somaxconn.
    server->setListenBacklogSize(kListenBacklog);
    // Out of descriptors, Qt stops accepting for good; try again shortly (the caps above should
    // keep this from happening, other descriptors of the process may not).
    connect(server, &QTcpServer::acceptError, this, [this, server](QAbstractSocket::SocketError) {
        ++m_counters.refusedConnections["accept_error"];
        QTimer::singleShot(100, server, [server] {
            server->resumeAccepting();
        });
    });
    return server;
}

QTcpSocket *HttpGuard::upgradedSocket(const QHostAddress &peer, quint16 port) const
{
    for (const auto &[socket, conn] : m_conns) {
        if (conn->phase == Conn::Phase::Upgraded && socket->peerPort() == port && conn->peer == peer) {
            return socket;
        }
    }
    return nullptr;
}

bool HttpGuard::admit(qintptr descriptor)
{
    sockaddr_storage storage{};
    socklen_t length = sizeof storage;
    QHostAddress peer;
    if (::getpeername(int(descriptor), reinterpret_cast<sockaddr *>(&storage), &length) == 0) {
        peer = QHostAddress(reinterpret_cast<const sockaddr *>(&storage));
    }
    const QString client = clientKey(peer);
    if (m_perClient.value(client) >= m_limits.maxConnectionsPerClient
        && !isTrustedProxy(peer, m_limits.trustedProxies)) {
        ++m_counters.refusedConnections["per_client_limit"];
        ::close(int(descriptor));
        return false;
    }
    if (m_open >= m_maxConnections && !evictOne()) {
        ++m_counters.refusedConnections["total_limit"];
        ::close(int(descriptor));
        return false;
    }
    return true;
}

void HttpGuard::adopt(QTcpSocket *socket, bool tls)
{
    auto conn = std::make_unique<Conn>();
    Conn &c = *conn;
    c.socket = socket;
    c.peer = socket->peerAddress();
    c.client = clientKey(c.peer);
    c.phase = tls ? Conn::Phase::Handshake : Conn::Phase::Head;
    c.since = now();
    c.deadline = now() + m_limits.headerTimeoutMs;
    c.deadlineReason = "header_timeout";
    ++m_open;
    ++m_perClient[c.client];
    m_conns.emplace(socket, std::move(conn));
    new ConnSentinel(this, socket);
    // Connected before QHttpServer's own readyRead slot: the guard sees each byte first.
    c.links << connect(socket, &QIODevice::readyRead, this, [this, socket] {
        onReadyRead(socket);
    });
    c.links << connect(socket, &QIODevice::bytesWritten, this, [this, socket] {
        onWritten(socket);
    });
    armSweep();
}

void HttpGuard::attach(QTcpSocket *socket)
{
    const auto it = m_conns.find(socket);
    if (it == m_conns.end()) {
        return;
    }
    Conn &c = *it->second;
    if (c.phase == Conn::Phase::Handshake) {
        c.phase = Conn::Phase::Head;
    }
    // After QHttpServer's parser: what it left unread is not new the next time.
    c.links << connect(socket, &QIODevice::readyRead, this, [this, socket] {
        const auto found = m_conns.find(socket);
        if (found == m_conns.end()) {
            return;
        }
        Conn &conn = *found->second;
        conn.leftover = socket->bytesAvailable();
        if (conn.phase == Conn::Phase::Closing || conn.phase == Conn::Phase::Upgraded || conn.holding) {
            return;
        }
        // QHttpServer commits its read transaction when it has a complete request (and keeps it
        // open while a request is partial): one was just handed to a route.
        if (!socket->isTransactionStarted()) {
            conn.answering = true;
            if (socket->bytesAvailable() > 0) {
                hold(conn);
            }
        }
    });
}

void HttpGuard::forget(QTcpSocket *socket)
{
    const auto it = m_conns.find(socket);
    if (it == m_conns.end()) {
        return;
    }
    release(*it->second);
    m_conns.erase(it);
    if (m_conns.empty()) {
        m_sweep.stop();
    }
}

void HttpGuard::release(Conn &c)
{
    if (!c.counted) {
        return;
    }
    c.counted = false;
    --m_open;
    if (--m_perClient[c.client] <= 0) {
        m_perClient.remove(c.client);
    }
}

void HttpGuard::armSweep()
{
    if (!m_sweep.isActive()) {
        m_sweep.start();
    }
}

void HttpGuard::onReadyRead(QTcpSocket *socket)
{
    const auto it = m_conns.find(socket);
    if (it == m_conns.end()) {
        return;
    }
    Conn &c = *it->second;
    if (c.phase == Conn::Phase::Handshake || c.phase == Conn::Phase::Upgraded) {
        return;
    }
    if (c.phase == Conn::Phase::Closing) {
        // Refused: drop what still arrives (the parser is no longer connected).
        if (socket->isTransactionStarted()) {
            socket->commitTransaction();
        }
        socket->skip(socket->bytesAvailable());
        return;
    }
    const qint64 available = socket->bytesAvailable();
    if (available <= c.leftover) {
        c.leftover = available;
        return;
    }
    const QByteArray fresh = socket->peek(available).mid(c.leftover);
    c.leftover = available;
    scan(c, fresh);
    if ((c.answering || c.holding) && c.phase != Conn::Phase::Closing && c.phase != Conn::Phase::Upgraded) {
        hold(c);
    }
}

void HttpGuard::hold(Conn &c)
{
    QTcpSocket *socket = c.socket;
    if (!c.holding) {
        if (socket->isTransactionStarted()) {
            return; // QHttpServer is inside a request: nothing to keep from it
        }
        socket->startTransaction();
        socket->setReadBufferSize(kGuardHoldBytes);
        c.holding = true;
    }
    // Read, so QHttpServer finds nothing; the transaction keeps the bytes for later.
    (void)socket->read(socket->bytesAvailable());
    c.leftover = 0;
}

void HttpGuard::unhold(Conn &c)
{
    QTcpSocket *socket = c.socket;
    c.holding = false;
    socket->rollbackTransaction();
    socket->setReadBufferSize(0);
    // Already checked: not new to the guard when QHttpServer now reads them.
    c.leftover = socket->bytesAvailable();
    if (c.leftover > 0) {
        QMetaObject::invokeMethod(
            socket,
            [socket] {
                Q_EMIT socket->readyRead();
            },
            Qt::QueuedConnection);
    }
}

void HttpGuard::onWritten(QTcpSocket *socket)
{
    const auto it = m_conns.find(socket);
    if (it == m_conns.end()) {
        return;
    }
    Conn &c = *it->second;
    if (c.answering && socket->bytesToWrite() == 0) {
        // The answer is written: the next request may reach QHttpServer.
        c.answering = false;
        if (!c.pendingRefusal.isEmpty()) {
            socket->write(std::exchange(c.pendingRefusal, QByteArray()));
            c.deadline = now() + kGuardLingerMs;
            return;
        }
        if (c.holding && c.phase != Conn::Phase::Closing) {
            unhold(c);
        }
    }
    if (c.phase == Conn::Phase::Closing) {
        const auto *ssl = qobject_cast<QSslSocket *>(socket);
        if (socket->bytesToWrite() == 0 && (!ssl || ssl->encryptedBytesToWrite() == 0) && !c.answering) {
            // The answer is out: end our side, keep reading until the client closes.
            ::shutdown(int(socket->socketDescriptor()), SHUT_WR);
        }
        return;
    }
    if (c.phase != Conn::Phase::Head || !c.head.isEmpty()) {
        return;
    }
    // Answering, or idle after the answer: the idle timeout runs from the last byte written.
    if (socket->bytesToWrite() == 0) {
        c.awaiting = false;
    }
    c.deadline = now() + m_limits.idleTimeoutMs;
    c.deadlineReason = "idle_timeout";
    c.since = now();
}

void HttpGuard::scan(Conn &c, const QByteArray &bytes)
{
    qsizetype i = 0;
    const qsizetype n = bytes.size();
    while (i < n) {
        switch (c.phase) {
        case Conn::Phase::Head: {
            if (c.head.isEmpty()) {
                // QHttpServer skips whitespace before a request line.
                while (i < n
                       && (bytes[i] == '\r' || bytes[i] == '\n' || bytes[i] == ' ' || bytes[i] == '\t'
                           || bytes[i] == '\v')) {
                    ++i;
                }
                if (i == n) {
                    return;
                }
                if (c.started || c.awaiting) {
                    // The next request on a kept-alive connection: its own header deadline.
                    c.deadline = now() + m_limits.headerTimeoutMs;
                    c.deadlineReason = "header_timeout";
                }
            }
            // Take at most one byte more than the limit; look for the blank line after the
            // request line and headers (CRLF or bare LF, as QHttpServer accepts).
            const qsizetype room = qsizetype(m_limits.maxHeaderBytes) + 1 - c.head.size();
            const qsizetype take = std::min<qsizetype>(n - i, std::max<qsizetype>(room, 0));
            const qsizetype searchFrom = std::max<qsizetype>(0, c.head.size() - 3);
            c.head.append(bytes.constData() + i, take);
            const qsizetype end = findRequestHeadEnd(c.head, searchFrom);
            if (end < 0) {
                const qsizetype lineEnd = c.head.indexOf('\n');
                if (lineEnd < 0 && c.head.size() > qsizetype(m_limits.maxUrlBytes) + 32) {
                    refuse(c, 414, QStringLiteral("the request URL is too long"), "url_too_long");
                    return;
                }
                if (c.head.size() > m_limits.maxHeaderBytes) {
                    refuse(c, 431, QStringLiteral("the request headers are too large"), "header_too_large");
                    return;
                }
                return; // the rest of the header block comes later
            }
            // Bytes after the blank line belong to the body or the next request.
            const qsizetype extra = c.head.size() - end;
            c.head.truncate(end);
            i += take - extra;
            if (!headComplete(c)) {
                return;
            }
            break;
        }
        case Conn::Phase::Body: {
            const qint64 take = std::min<qint64>(c.bodyLeft, n - i);
            c.bodyLeft -= take;
            i += qsizetype(take);
            c.deadline = now() + m_limits.idleTimeoutMs;
            c.deadlineReason = "idle_timeout";
            if (c.bodyLeft == 0) {
                requestDone(c);
            }
            break;
        }
        case Conn::Phase::Chunked: {
            c.deadline = now() + m_limits.idleTimeoutMs;
            c.deadlineReason = "idle_timeout";
            const qsizetype taken = c.chunked.feed(bytes.constData() + i, n - i);
            const bool lfFirst = i == 0 && taken == 1 && c.finalCrAtBatchEnd;
            i += taken;
            c.finalCrAtBatchEnd = false;
            switch (c.chunked.status()) {
            case ChunkedBodyScanner::Status::More:
                // Qt reads the two bytes after the last chunk in one go: when only the CR was
                // there, its next read takes the LF and one byte of whatever follows.
                c.finalCrAtBatchEnd = c.chunked.awaitingFinalLf();
                break;
            case ChunkedBodyScanner::Status::Done:
                if (lfFirst && i < n) {
                    refuse(c, 400, QStringLiteral("malformed chunked body"), "bad_request");
                    return;
                }
                requestDone(c);
                break;
            case ChunkedBodyScanner::Status::Malformed:
                refuse(c, 400, QStringLiteral("malformed chunked body"), "bad_request");
                return;
            case ChunkedBodyScanner::Status::TooLarge:
                refuse(c, c.verdict.tooLargeStatus, c.verdict.tooLargeMessage, c.verdict.tooLargeReason);
                return;
            }
            break;
        }
        case Conn::Phase::Handshake:
        case Conn::Phase::Upgraded:
        case Conn::Phase::Closing:
            return;
        }
    }
}

bool HttpGuard::headComplete(Conn &c)
{
    c.started = true;
    RequestHeadParse parsed = parseRequestHead(std::exchange(c.head, QByteArray()), m_limits.maxUrlBytes);
    if (parsed.status != 0) {
        refuse(c, parsed.status, parsed.message, parsed.reason);
        return false;
    }
    const RequestHead &head = parsed.head;
    const bool chunked = parsed.chunked;
    const qint64 length = parsed.contentLength;
    HeadVerdict verdict = m_check(head, c.peer);
    if (verdict.status != 0) {
        refuse(c, verdict.status, verdict.message, verdict.reason, verdict.headers);
        return false;
    }
    if (verdict.upgrade && (c.answering || c.holding)) {
        // The WebSocket server would take the socket over before the answers ahead of it.
        refuse(c, 400, QStringLiteral("a WebSocket upgrade cannot be pipelined"), "bad_request");
        return false;
    }
    if (verdict.upgrade) {
        // The WebSocket server takes the socket over (and has frame limits of its own).
        c.phase = Conn::Phase::Upgraded;
        c.deadline = 0;
        for (const QMetaObject::Connection &link : std::as_const(c.links)) {
            QObject::disconnect(link);
        }
        c.links.clear();
        // Nobody deletes a socket QHttpServer handed to its WebSocket server (the QWebSocket does
        // not own it): once it has (QHttpServer disconnects all its signals first), delete it when
        // it closes, which also ends its place in the connection count.
        QPointer<QTcpSocket> socket = c.socket;
        QTimer::singleShot(0, this, [socket] {
            if (!socket) {
                return;
            }
            if (socket->state() == QAbstractSocket::UnconnectedState) {
                socket->deleteLater();
                return;
            }
            QObject::connect(socket, &QAbstractSocket::disconnected, socket, &QObject::deleteLater);
        });
        return false;
    }
    if (verdict.tooLargeMessage.isEmpty()) {
        verdict.tooLargeMessage = QStringLiteral("the request body is larger than %1 bytes").arg(verdict.maxBodyBytes);
    }
    c.verdict = verdict;
    if (chunked) {
        c.phase = Conn::Phase::Chunked;
        c.chunked = ChunkedBodyScanner(verdict.maxBodyBytes);
        c.finalCrAtBatchEnd = false;
        c.deadline = now() + m_limits.idleTimeoutMs;
        c.deadlineReason = "idle_timeout";
        return true;
    }
    if (length > verdict.maxBodyBytes) {
        refuse(c, verdict.tooLargeStatus, verdict.tooLargeMessage, verdict.tooLargeReason);
        return false;
    }
    if (length > 0) {
        c.phase = Conn::Phase::Body;
        c.bodyLeft = length;
        c.deadline = now() + m_limits.idleTimeoutMs;
        c.deadlineReason = "idle_timeout";
        return true;
    }
    requestDone(c);
    return true;
}

void HttpGuard::requestDone(Conn &c)
{
    c.phase = Conn::Phase::Head;
    c.awaiting = true;
    c.deadline = 0; // the route answers in its own time; the idle timeout starts when it writes
    c.since = now();
}

void HttpGuard::refuse(Conn &c,
                       int status,
                       const QString &message,
                       const QByteArray &reason,
                       const QList<QPair<QByteArray, QByteArray>> &extra,
                       bool connectionCounter)
{
    QTcpSocket *socket = c.socket;
    ++(connectionCounter ? m_counters.refusedConnections : m_counters.refusedRequests)[reason];
    // QHttpServer's parser never sees this request (nor anything after it).
    if (m_http) {
        QObject::disconnect(socket, &QIODevice::readyRead, m_http, nullptr);
    }
    c.phase = Conn::Phase::Closing;
    c.head.clear();
    c.deadline = now() + kGuardLingerMs;
    c.deadlineReason.clear();
    const QByteArray body =
        QJsonDocument(QJsonObject{{QStringLiteral("error"), message}}).toJson(QJsonDocument::Compact);
    QByteArray response = "HTTP/1.1 " + QByteArray::number(status) + ' ' + guardReasonPhrase(status) + "\r\n";
    for (const auto &[name, value] : m_limits.responseHeaders) {
        response += name + ": " + value + "\r\n";
    }
    for (const auto &[name, value] : extra) {
        response += name + ": " + value + "\r\n";
    }
    response += "Cache-Control: no-store\r\nContent-Type: application/json\r\nContent-Length: "
                + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
    // What was buffered for the parser (or held from it) is dropped now.
    if (socket->isTransactionStarted()) {
        socket->commitTransaction();
    }
    socket->skip(socket->bytesAvailable());
    if (c.holding) {
        c.holding = false;
        socket->setReadBufferSize(0);
    }
    if (c.answering) {
        // After the answer in progress, in order.
        c.pendingRefusal = response;
        c.deadline = now() + m_limits.idleTimeoutMs;
        return;
    }
    socket->write(response);
}

void HttpGuard::closeQuietly(Conn &c, const QByteArray &reason)
{
    ++m_counters.refusedConnections[reason];
    if (m_http) {
        QObject::disconnect(c.socket, &QIODevice::readyRead, m_http, nullptr);
    }
    c.phase = Conn::Phase::Closing;
    c.deadline = now() + kGuardLingerMs;
    c.deadlineReason.clear();
    c.socket->disconnectFromHost();
}

bool HttpGuard::evictOne()
{
    Conn *oldest = nullptr;
    for (auto &[socket, conn] : m_conns) {
        Conn &c = *conn;
        const bool waiting =
            c.counted && !c.awaiting && (c.phase == Conn::Phase::Head || c.phase == Conn::Phase::Handshake);
        if (waiting && (!oldest || c.since < oldest->since)) {
            oldest = &c;
        }
    }
    if (!oldest) {
        return false;
    }
    ++m_counters.refusedConnections["evicted"];
    oldest->phase = Conn::Phase::Closing;
    oldest->deadline = 0;
    release(*oldest);
    oldest->socket->abort();
    return true;
}

void HttpGuard::sweep()
{
    const qint64 t = now();
    QList<QTcpSocket *> due;
    for (const auto &[socket, conn] : m_conns) {
        if (conn->deadline != 0 && conn->deadline <= t) {
            due << socket;
        }
    }
    for (QTcpSocket *socket : std::as_const(due)) {
        const auto it = m_conns.find(socket);
        if (it == m_conns.end()) {
            continue;
        }
        Conn &c = *it->second;
        if (c.phase == Conn::Phase::Closing) {
            c.deadline = 0;
            release(c);
            socket->abort();
        } else if (c.phase == Conn::Phase::Head && !c.head.isEmpty()) {
            refuse(c, 408, QStringLiteral("the request headers did not arrive in time"), c.deadlineReason, {}, true);
        } else {
            closeQuietly(c, c.deadlineReason);
        }
    }
}

} // namespace strata::web
