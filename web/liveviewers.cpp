#include "web/liveviewers.h"

#include "web/httpguard.h"
#include "web/router.h"
#include "web/servercontext.h"

#include "models/core/runtime/engine.h"

#include <QHttpServerRequest>
#include <QJsonDocument>
#include <QNetworkRequest>
#include <QTcpSocket>
#include <QUrlQuery>
#include <QWebSocket>

#include <algorithm>
#include <vector>

namespace strata::web {

QByteArray webSocketTextFrames(const QByteArray &utf8, quint64 maxFrameBytes)
{
    const quint64 total = quint64(utf8.size());
    const quint64 step = std::max<quint64>(1, maxFrameBytes);
    QByteArray out;
    out.reserve(utf8.size() + 14 * qsizetype(total / step + 1));
    quint64 offset = 0;
    do {
        const quint64 size = std::min(step, total - offset);
        const bool last = offset + size >= total;
        const auto opcode = char(offset == 0 ? 0x1 : 0x0);
        out += char((last ? 0x80 : 0x00) | opcode);
        if (size < 126) {
            out += char(size);
        } else if (size <= 0xFFFF) {
            out += char(126);
            out += char((size >> 8) & 0xFF);
            out += char(size & 0xFF);
        } else {
            out += char(127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                out += char((size >> shift) & 0xFF);
            }
        }
        out.append(utf8.constData() + offset, qsizetype(size));
        offset += size;
    } while (offset < total);
    return out;
}

LiveViewers::LiveViewers(ServerContext &context)
    : m_context(context)
{}

LiveViewers::~LiveViewers()
{
    for (const Viewer &v : std::as_const(m_viewers)) {
        if (v.ws) {
            v.ws->disconnect(m_context.q);
        }
    }
    if (m_scrapeTimer != 0) {
        m_context.engine.clock().cancel(m_scrapeTimer);
    }
    if (m_perfSubscribed) {
        m_context.engine.unsubscribePerformance();
    }
}

namespace {

void liveHandshake(RouteCall &call)
{
    // A WebSocket upgrade reaches this route only after the connection guard (checkHead())
    // accepted its session, Origin and Host: refusing here as well would answer the handshake
    // twice (Qt 6.4 still switches protocols after the route). accept() checks again.
    const bool upgrade = requestHeader(call.request, "Upgrade").compare("websocket", Qt::CaseInsensitive) == 0
                         && requestHeader(call.request, "Connection").toLower().contains("upgrade");
    if (!upgrade) {
        call.context.replyError(
            std::move(call.responder), ApiError::BadRequest, QStringLiteral("WebSocket upgrade expected"));
    }
}

} // namespace

void LiveViewers::registerRoutes(Router &router)
{
    // Public: the connection guard checked the session and Origin of an upgrade already.
    router.add(
        {{Router::Method::Get, QStringLiteral("/api/v1/live"), Router::Access::Public, Role::Viewer, &liveHandshake}});
    QObject::connect(&m_context.http, &QHttpServer::newWebSocketConnection, m_context.q, [this] {
        accept();
    });
    QObject::connect(&m_context.feed, &LiveFeed::diffReady, m_context.q, [this](qint64, const QByteArray &message) {
        if (broadcast(message) > 0) {
            m_context.timings.liveDelivery.observe(m_context.feed.deliveringAgeSeconds());
        }
    });
}

void LiveViewers::forget(QWebSocket *ws)
{
    m_viewers.removeIf([ws](const Viewer &v) {
        return v.ws == ws || !v.ws;
    });
    watchPerformance();
}

void LiveViewers::drop(QWebSocket *ws, const QByteArray &reason)
{
    ++m_context.counters.droppedViewers[reason];
    forget(ws);
    // The browser reconnects with ?since= and catches up (or reloads).
    ws->abort();
    ws->deleteLater();
}

void LiveViewers::watchPerformance()
{
    m_viewers.removeIf([](const Viewer &v) {
        return !v.ws;
    });
    const bool scraped = m_scrapeHoldUntil.isValid() && m_context.engine.clock().now() < m_scrapeHoldUntil;
    const bool wanted = m_context.options.watchPerformanceWithViewers && (!m_viewers.isEmpty() || scraped);
    if (wanted == m_perfSubscribed) {
        return;
    }
    m_perfSubscribed = wanted;
    if (wanted) {
        m_context.engine.subscribePerformance();
    } else {
        m_context.engine.unsubscribePerformance();
    }
}

void LiveViewers::holdPerformanceForScrape()
{
    if (!m_context.options.watchPerformanceWithViewers) {
        return;
    }
    core::IClock &clock = m_context.engine.clock();
    m_scrapeHoldUntil = clock.now().addSecs(kScrapeHoldSeconds);
    if (m_scrapeTimer != 0) {
        clock.cancel(m_scrapeTimer);
    }
    m_scrapeTimer = clock.callAfter(std::chrono::seconds(kScrapeHoldSeconds), m_context.q, [this] {
        m_scrapeTimer = 0;
        watchPerformance();
    });
    watchPerformance();
}

void LiveViewers::closeSession(const QString &sessionId)
{
    const QList<Viewer> current = m_viewers;
    for (const Viewer &v : current) {
        if (v.ws && v.ws->property("strata_session").toString() == sessionId) {
            v.ws->close(QWebSocketProtocol::CloseCodeNormal, QStringLiteral("logged out"));
        }
    }
}

void LiveViewers::closeUser(const QString &name, const QString &why)
{
    const QList<Viewer> current = m_viewers;
    for (const Viewer &v : current) {
        if (v.ws && v.ws->property("strata_user").toString() == name) {
            v.ws->close(QWebSocketProtocol::CloseCodePolicyViolated, why);
        }
    }
}

qint64 LiveViewers::count() const
{
    return std::count_if(m_viewers.cbegin(), m_viewers.cend(), [](const Viewer &v) {
        return !v.ws.isNull();
    });
}

qint64 LiveViewers::queuedBytes() const
{
    qint64 queued = 0;
    for (const Viewer &v : std::as_const(m_viewers)) {
        queued += v.ws ? v.ws->bytesToWrite() : 0;
    }
    return queued;
}

int LiveViewers::broadcast(const QByteArray &message)
{
    int written = 0;
    const qint64 size = message.size();
    struct Pending
    {
        QWebSocket *ws;
        QTcpSocket *raw;
        qint64 queued;
    };
    std::vector<Pending> all;
    qint64 total = 0;
    for (const Viewer &v : std::as_const(m_viewers)) {
        if (v.ws) {
            all.push_back({v.ws.data(), v.raw.data(), v.ws->bytesToWrite()});
            total += all.back().queued;
        }
    }
    // Over the budget, the viewers furthest behind go first.
    std::sort(all.begin(), all.end(), [](const Pending &a, const Pending &b) {
        return a.queued > b.queued;
    });
    std::size_t first = 0;
    while (first < all.size() && all[first].queued > 0
           && total + size * qint64(all.size() - first) > m_context.options.liveQueuedBytesBudget) {
        total -= all[first].queued;
        drop(all[first].ws, "memory_budget");
        ++first;
    }
    // Encoded once per frame size (every viewer has QWebSocket's default), and the same bytes are
    // written to each connection: QWebSocket::sendTextMessage would convert the text to UTF-8,
    // copy and frame it again for every viewer.
    QByteArray frames;
    quint64 framesFor = 0;
    QString text;
    for (std::size_t i = first; i < all.size(); ++i) {
        QWebSocket *ws = all[i].ws;
        if (all[i].queued + size > m_context.options.liveSendQueueBytes) {
            drop(ws, "send_queue");
            continue;
        }
        if (!all[i].raw || ws->state() != QAbstractSocket::ConnectedState) {
            if (text.isEmpty()) {
                text = QString::fromUtf8(message);
            }
            ws->sendTextMessage(text);
            ++written;
            continue;
        }
        if (frames.isEmpty() || framesFor != ws->outgoingFrameSize()) {
            framesFor = ws->outgoingFrameSize();
            frames = webSocketTextFrames(message, framesFor);
        }
        all[i].raw->write(frames);
        ++written;
    }
    return written;
}

void LiveViewers::accept()
{
    ServerContext &c = m_context;
    while (c.http.hasPendingWebSocketConnections()) {
        std::unique_ptr<QWebSocket> owned = c.http.nextPendingWebSocketConnection();
        QWebSocket *ws = owned.release();
        ws->setParent(c.q);
        // Viewers only listen: a large frame or message from one is an attack, refused with 1009.
        ws->setMaxAllowedIncomingFrameSize(quint64(std::max<qint64>(125, c.options.liveMaxIncomingBytes)));
        ws->setMaxAllowedIncomingMessageSize(quint64(std::max<qint64>(125, c.options.liveMaxIncomingBytes)));
        const QNetworkRequest handshake = ws->request();
        const QByteArray origin = handshake.rawHeader("Origin");
        const QString id = cookieValue(handshake.rawHeader("Cookie"), kSessionCookieName);
        const std::optional<Session> viewerSession = id.isEmpty() ? std::nullopt : c.sessions.find(id);
        const bool hasSession = viewerSession.has_value();
        const bool originOk = origin.isEmpty() || c.originAllowed(origin, handshake.rawHeader("Host"));
        if (!hasSession || !originOk || ws->state() != QAbstractSocket::ConnectedState) {
            ws->close(QWebSocketProtocol::CloseCodePolicyViolated,
                      hasSession ? QStringLiteral("origin not allowed") : QStringLiteral("login required"));
            ws->deleteLater();
            continue;
        }
        QObject::connect(ws, &QWebSocket::disconnected, c.q, [this, ws] {
            forget(ws);
            ws->deleteLater();
        });
        ws->setProperty("strata_session", id);
        ws->setProperty("strata_user", viewerSession->user);
        m_viewers.append(Viewer{ws, c.guard ? c.guard->upgradedSocket(ws->peerAddress(), ws->peerPort()) : nullptr});
        watchPerformance();
        const qint64 now = c.feed.revision();
        ws->sendTextMessage(
            QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("hello")},
                                                        {QStringLiteral("revision"), now},
                                                        {QStringLiteral("feed"), c.feed.feedId()}})
                                  .toJson(QJsonDocument::Compact)));
        const QUrlQuery query(handshake.url());
        const QString sinceText = query.queryItemValue(QStringLiteral("since"));
        if (sinceText.isEmpty()) {
            continue;
        }
        bool ok = false;
        const qint64 since = sinceText.toLongLong(&ok);
        // Revisions of another replica's (or an earlier process's) feed mean nothing here.
        const QString feed = query.queryItemValue(QStringLiteral("feed"));
        ok = ok && (feed.isEmpty() || feed == c.feed.feedId());
        QList<QByteArray> diffs;
        qint64 catchUp = 0;
        if (ok && c.feed.diffsSince(since, &diffs)) {
            for (const QByteArray &d : std::as_const(diffs)) {
                catchUp += d.size();
            }
        }
        // A catch-up larger than a viewer's send queue is cheaper as a reload over HTTP.
        if (ok && catchUp <= c.options.liveSendQueueBytes / 2 && c.feed.diffsSince(since, nullptr)) {
            for (const QByteArray &d : std::as_const(diffs)) {
                ws->sendTextMessage(QString::fromUtf8(d));
            }
        } else {
            ws->sendTextMessage(
                QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("reload")},
                                                            {QStringLiteral("revision"), now}})
                                      .toJson(QJsonDocument::Compact)));
        }
    }
}

} // namespace strata::web
