#pragma once

#include "models/core/domain/error.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <unordered_map>

class QSslConfiguration;
class QTcpServer;
class QTcpSocket;

namespace strata::web {

struct WebServerCounters;

/// The request line and headers of one request, as HttpGuard read them before any body byte.
struct RequestHead
{
    QByteArray method;                            ///< as sent, e.g. "POST"
    QByteArray target;                            ///< as sent: path and query, e.g. "/api/v1/login"
    QByteArray version;                           ///< "HTTP/1.1" or "HTTP/1.0"
    QList<QPair<QByteArray, QByteArray>> headers; ///< in order, values trimmed

    /// The first header of that name (case-insensitive); empty when missing.
    [[nodiscard]] QByteArray header(const QByteArray &name) const;
    /// target without its query.
    [[nodiscard]] QByteArray path() const;
    /// Connection: upgrade and Upgrade: websocket, the two QHttpServer hands to its WebSocket server.
    [[nodiscard]] bool websocketUpgrade() const;
};

/// What parseRequestHead() made of one complete header block.
struct RequestHeadParse
{
    RequestHead head;
    /// 0 = well-formed; otherwise the refusal: 400 (malformed request line, header line or
    /// Content-Length) or 414 (a target longer than maxUrlBytes).
    int status = 0;
    QString message;          ///< refusal: the sentence of the JSON body
    QByteArray reason;        ///< refusal: "bad_request" or "url_too_long"
    bool chunked = false;     ///< Transfer-Encoding names chunked
    qint64 contentLength = 0; ///< the declared Content-Length (>= 0), 0 when absent
};

/// Parses a complete header block (request line, header lines and the blank line, with CRLF or
/// bare LF line ends) the way HttpGuard does before QHttpServer sees the request. Pure: no I/O.
RequestHeadParse parseRequestHead(const QByteArray &block, int maxUrlBytes);

/// The index just past the blank line that ends a header block in `head` (CRLF or bare LF line
/// ends), looking at line ends from `from` on; -1 when the block is not complete yet.
qsizetype findRequestHeadEnd(const QByteArray &head, qsizetype from);

/// The size in a chunked body's chunk-size line without its CRLF: 1 to 15 hex digits, then
/// optionally spaces and a ";extension" (ignored); -1 for anything else (signs, "0x", leading
/// spaces, a bare LF).
qint64 parseChunkSizeLine(const QByteArray &line);

/// Reads a chunked request body as a stream and says where it ends, strictly enough that
/// QHttpServer's own reader (Qt 6.4) ends it at the same byte however the bytes are split:
///   chunk      = 1*15HEXDIG [ *(SP / HTAB) [ ";" chunk-ext ] ] CRLF data CRLF
///   last-chunk = 1*15"0"    [ *(SP / HTAB) [ ";" chunk-ext ] ] CRLF CRLF
/// Trailers are refused (Qt reads exactly two bytes after the last chunk and would parse a
/// trailer as the next request), as are bare LF, a CR not before LF, and a chunk-size line over
/// 1 KiB. Pure: no I/O.
class ChunkedBodyScanner
{
public:
    enum class Status
    {
        More,      ///< the body goes on: feed the next bytes
        Done,      ///< the body ended (feed() stopped right after its last byte)
        Malformed, ///< not the grammar above
        TooLarge,  ///< its data passed maxBodyBytes
    };

    /// maxBodyBytes: the most data bytes (chunk contents, not framing) allowed, >= 0.
    explicit ChunkedBodyScanner(qint64 maxBodyBytes = 0);

    /// Reads `size` bytes of the stream, stopping after the body's last byte or at the first
    /// byte that breaks the grammar; returns how many it took (the rest belong to the next
    /// request). Does nothing once status() is not More.
    qsizetype feed(const char *data, qsizetype size);
    [[nodiscard]] Status status() const { return m_status; }
    /// Data bytes so far (within maxBodyBytes).
    [[nodiscard]] qint64 bodyBytes() const { return m_seen; }
    /// The last chunk and the CR after it were read, its LF has not come yet.
    [[nodiscard]] bool awaitingFinalLf() const { return m_state == State::FinalLf; }
    /// Data bytes of the current chunk still to come; 0 between chunks.
    [[nodiscard]] qint64 pendingChunk() const { return m_state == State::Data ? m_size : 0; }

private:
    enum class State
    {
        Size,      ///< hex digits
        SizeSpace, ///< spaces after the digits, before ";"
        Extension, ///< after ";" up to CR
        SizeLf,
        Data,
        DataCr,
        DataLf,
        FinalCr,
        FinalLf,
        Done
    };
    qint64 m_max = 0;
    qint64 m_seen = 0;
    qint64 m_size = 0;   ///< the chunk-size being read / the chunk's data still to come
    int m_digits = 0;    ///< hex digits of the size line so far
    int m_lineBytes = 0; ///< bytes of the size line so far
    State m_state = State::Size;
    Status m_status = Status::More;
};

/// The server's decision on a complete header block (HttpGuard::HeadCheck).
struct HeadVerdict
{
    int status = 0;                               ///< 0 = let through; otherwise answered with this status and closed
    QString message;                              ///< refusal: the sentence of the JSON body {"error": message}
    QByteArray reason;                            ///< refusal: label of strata_web_refused_requests_total
    QList<QPair<QByteArray, QByteArray>> headers; ///< refusal: extra response headers
    /// Let through: the body's limit in bytes (declared or, chunked, counted as it arrives).
    qint64 maxBodyBytes = 0;
    /// Let through: how a body over maxBodyBytes is answered (413 unless the route says so).
    int tooLargeStatus = 413;
    QString tooLargeMessage;
    QByteArray tooLargeReason = "body_too_large";
    /// Let through as a WebSocket upgrade: the connection leaves HTTP guarding (the WebSocket
    /// has limits of its own) but stays counted until it closes.
    bool upgrade = false;
};

/// Limits of HttpGuard (WebServerOptions carries the documented defaults).
struct HttpGuardLimits
{
    int maxHeaderBytes = 16 * 1024;
    int maxUrlBytes = 8 * 1024;
    int headerTimeoutMs = 10000;
    int idleTimeoutMs = 60000;
    int maxConnections = 1000;
    int maxConnectionsPerClient = 64;
    /// Reverse proxies ("10.0.0.5", "10.1.0.0/16") whose connections carry many clients: they
    /// are not held to maxConnectionsPerClient (maxConnections still applies).
    QList<QPair<QHostAddress, int>> trustedProxies;
    /// Security headers every refusal carries (the server's usual ones).
    QList<QPair<QByteArray, QByteArray>> responseHeaders;
};

/// The address a client is counted under: IPv4 (IPv4-mapped IPv6 included) as is, IPv6 by its
/// /64 prefix ("2001:db8:1:2::/64"), since one host commonly holds a whole /64.
QString clientKey(const QHostAddress &address);

/// Parses "--trusted-proxy" values: an address ("10.0.0.5", "::1") or a subnet in CIDR
/// notation ("10.1.0.0/16"), as (address, prefix length) in the given order. An
/// Error::Kind::Invalid naming the first value that is anything else.
core::Result<QList<QPair<QHostAddress, int>>> parseTrustedProxies(const QStringList &values);
/// Whether `address` (IPv4-mapped IPv6 as IPv4) lies in one of `proxies`.
bool isTrustedProxy(const QHostAddress &address, const QList<QPair<QHostAddress, int>> &proxies);
/// The client a request comes from: `peer`, or, when `peer` is a trusted proxy, the address that
/// proxy reports in X-Forwarded-For: the rightmost entry that is not itself a trusted proxy (the
/// entries left of it are whatever the client wrote). `peer` when the header is absent or an
/// entry is not an address.
QHostAddress forwardedClient(const QHostAddress &peer,
                             const QByteArray &forwardedFor,
                             const QList<QPair<QHostAddress, int>> &proxies);

/// Raises this process's soft RLIMIT_NOFILE to its hard limit (best effort: a seccomp filter
/// or a container may refuse) and returns the soft limit in force afterwards (-1 unknown).
qint64 raiseOpenFileLimit();

/// Guards QHttpServer (Qt 6.4 reads whole requests without limits) on the connection level.
/// Its servers (createServer) accept each connection themselves and look at every byte before
/// QHttpServer's parser does (QIODevice::peek, a readyRead slot connected first):
///   - connections: at most maxConnectionsPerClient per clientKey() and maxConnections in all
///     (lowered to fit RLIMIT_NOFILE); the excess is closed at accept, except that at the total
///     limit the connection waiting longest for a request is closed to make room;
///   - a complete header block within headerTimeoutMs of its first byte (of the connection, for
///     the first request), else 408; no byte either way for idleTimeoutMs closes a connection;
///   - request line and headers: a target over maxUrlBytes is 414, a header block over
///     maxHeaderBytes 431, before more of it is read;
///   - the HeadCheck's verdict on the complete header block (Host, WebSocket upgrades, the
///     route's body limit), then a declared Content-Length over the limit is refused before the
///     body is read, and a chunked body as soon as it passes the limit.
/// Pipelined requests are answered in order: while a request is being answered, the bytes of
/// the next ones are checked as they arrive but kept from the parser until the answer is out.
/// A refusal is one JSON response with Connection: close (after the answer in progress, if
/// any); the parser never sees the request,
/// what the client still sends is read and dropped for a moment (so it receives the answer),
/// then the connection closes. Counters go to WebServerCounters (strata_web_refused_*).
/// Owner thread only.
class HttpGuard final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpGuard)

public:
    using HeadCheck = std::function<HeadVerdict(const RequestHead &head, const QHostAddress &peer)>;

    HttpGuard(HttpGuardLimits limits, HeadCheck check, WebServerCounters &counters, QObject *parent = nullptr);
    ~HttpGuard() override;

    /// A listening-ready TCP server (TLS when `tls` is given) whose connections pass this guard
    /// on their way to `http` (the QAbstractHttpServer it is then bound to). Owned by the caller.
    QTcpServer *createServer(QObject *http, const QSslConfiguration *tls);

    /// Connections open now (WebSockets included).
    [[nodiscard]] int connections() const { return m_open; }
    /// maxConnections as applied (after fitting it to RLIMIT_NOFILE).
    [[nodiscard]] int maxConnections() const { return m_maxConnections; }
    /// The connection from `peer`:`port` that became a WebSocket (the socket under a
    /// QWebSocket from QHttpServer, which keeps it hidden); nullptr when there is none.
    [[nodiscard]] QTcpSocket *upgradedSocket(const QHostAddress &peer, quint16 port) const;

private:
    struct Conn;
    friend class GuardedTcpServer;
    friend class GuardedSslServer;
    friend class ConnSentinel;

    bool admit(qintptr descriptor);
    void adopt(QTcpSocket *socket, bool tls);
    void attach(QTcpSocket *socket);
    void forget(QTcpSocket *socket);
    void onReadyRead(QTcpSocket *socket);
    void onWritten(QTcpSocket *socket);
    void scan(Conn &c, const QByteArray &bytes);
    void hold(Conn &c);
    void unhold(Conn &c);
    bool headComplete(Conn &c);
    void requestDone(Conn &c);
    void refuse(Conn &c,
                int status,
                const QString &message,
                const QByteArray &reason,
                const QList<QPair<QByteArray, QByteArray>> &extra = {},
                bool connectionCounter = false);
    void closeQuietly(Conn &c, const QByteArray &reason);
    void release(Conn &c);
    bool evictOne();
    void sweep();
    void armSweep();
    [[nodiscard]] qint64 now() const { return m_clock.elapsed(); }

    HttpGuardLimits m_limits;
    HeadCheck m_check;
    WebServerCounters &m_counters;
    QObject *m_http = nullptr;
    int m_maxConnections = 0;
    int m_open = 0;
    QHash<QString, int> m_perClient;
    std::unordered_map<QTcpSocket *, std::unique_ptr<Conn>> m_conns;
    QElapsedTimer m_clock;
    QTimer m_sweep;
};

} // namespace strata::web
