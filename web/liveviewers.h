#pragma once

// Internal to strata::web (web/servercontext.h): the viewers of GET /api/v1/live.

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QPointer>
#include <QString>

class QTcpSocket;
class QWebSocket;

namespace strata::web {

class Router;
class ServerContext;

/// RFC 6455 §5.2 frames of one text message as a server sends them (unmasked): FIN and opcode
/// 1 on the first, continuation frames (opcode 0) after it when `utf8` is longer than
/// `maxFrameBytes` (> 0), FIN on the last, payload lengths in 7, 16 or 64 bits: the bytes
/// QWebSocket::sendTextMessage writes for the same message and outgoingFrameSize().
QByteArray webSocketTextFrames(const QByteArray &utf8, quint64 maxFrameBytes);

/// The connected live viewers: accepts them, sends the feed's diffs, drops the ones too far
/// behind, and holds the engine's performance subscription while any is connected or a
/// /metrics scrape was recent.
class LiveViewers
{
    Q_DISABLE_COPY_MOVE(LiveViewers)

public:
    explicit LiveViewers(ServerContext &context);
    ~LiveViewers();

    /// GET /api/v1/live (the handshake) and the accepting of upgraded connections.
    void registerRoutes(Router &router);
    /// Sends one diff to every viewer within the send-queue cap and the memory budget. Its frames
    /// are encoded once (every viewer gets the same bytes) and written to each viewer's
    /// connection, not converted and framed again per viewer by QWebSocket. Returns the number
    /// of viewers it was written to.
    int broadcast(const QByteArray &message);
    /// Closes the viewers of a session (logout) or of a user (removed, new password or role).
    void closeSession(const QString &sessionId);
    void closeUser(const QString &name, const QString &why);
    /// A /metrics scrape: holds the performance subscription for kScrapeHoldSeconds after it, so
    /// a Prometheus that scrapes (every 15-60 s, typically) keeps volume throughput current on
    /// /metrics for the throughput-cap alert without a browser open; without scrapes ONTAP is
    /// polled on demand only, as before.
    void holdPerformanceForScrape();
    static constexpr int kScrapeHoldSeconds = 600;
    /// Connected viewers and their unsent bytes (for /metrics).
    [[nodiscard]] qint64 count() const;
    [[nodiscard]] qint64 queuedBytes() const;

private:
    struct Viewer
    {
        QPointer<QWebSocket> ws;
        /// The connection under `ws` (HttpGuard::upgradedSocket), written to by broadcast();
        /// null when unknown (then QWebSocket::sendTextMessage).
        QPointer<QTcpSocket> raw;
    };

    void accept();
    void drop(QWebSocket *ws, const QByteArray &reason);
    void forget(QWebSocket *ws);
    /// Subscribes to the engine's performance polls while any viewer is connected or a scrape
    /// holds them.
    void watchPerformance();

    ServerContext &m_context;
    QList<Viewer> m_viewers;
    /// Whether this server holds one of the engine's performance subscriptions: while a viewer
    /// is connected, as the desktop does while its Volumes page shows (ONTAP polls volume
    /// performance only on demand; without it the Service levels page has no "Now").
    bool m_perfSubscribed = false;
    /// Until when the last /metrics scrape holds the subscription (UTC; invalid = never).
    QDateTime m_scrapeHoldUntil;
    quint64 m_scrapeTimer = 0; ///< IClock timer that ends the hold, 0 = none
};

} // namespace strata::web
