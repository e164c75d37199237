#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QTcpSocket>
#include <QTest>

#include <memory>

namespace strata::testsupport {

/// A hand-written HTTP/1.1 client on one TCP connection from a chosen loopback address
/// (127.0.0.0/8 all reach the server on 127.0.0.1), for what QNetworkAccessManager will not send:
/// oversized or unfinished headers, lying Content-Lengths, WebSocket upgrades read byte for byte.
class RawHttpClient
{
public:
    explicit RawHttpClient(const QString &from = QStringLiteral("127.0.0.1"))
        : m_socket(std::make_unique<QTcpSocket>())
    {
        m_socket->bind(QHostAddress(from), 0);
        QObject::connect(m_socket.get(), &QTcpSocket::readyRead, m_socket.get(), [this] {
            if (m_reading) {
                m_received += m_socket->readAll();
            }
        });
        QObject::connect(m_socket.get(), &QTcpSocket::disconnected, m_socket.get(), [this] {
            m_closed = true;
        });
        QObject::connect(m_socket.get(), &QTcpSocket::errorOccurred, m_socket.get(), [this] {
            if (m_socket->state() != QAbstractSocket::ConnectedState) {
                m_closed = true;
            }
        });
    }

    /// Connects to 127.0.0.1:port; false when that did not happen within 5 s.
    bool open(quint16 port)
    {
        m_socket->connectToHost(QHostAddress::LocalHost, port);
        return QTest::qWaitFor(
                   [this] {
                       return m_socket->state() == QAbstractSocket::ConnectedState || m_closed;
                   },
                   5000)
               && !m_closed;
    }

    void send(const QByteArray &bytes) { m_socket->write(bytes); }

    /// A client that stops reading: the kernel buffers fill and the server's writes back up.
    void stopReading()
    {
        m_reading = false;
        m_socket->setReadBufferSize(4096);
    }

    /// True once a whole first response (head and Content-Length body) arrived or the server
    /// closed the connection, within timeoutMs.
    bool waitResponse(int timeoutMs = 3000)
    {
        return QTest::qWaitFor(
            [this] {
                return m_closed || complete();
            },
            timeoutMs);
    }

    bool waitClosed(int timeoutMs = 3000)
    {
        return QTest::qWaitFor(
            [this] {
                return m_closed;
            },
            timeoutMs);
    }

    /// The first response's status, 0 when none arrived.
    [[nodiscard]] int status() const
    {
        if (!m_received.startsWith("HTTP/1.")) {
            return 0;
        }
        return m_received.mid(9, 3).toInt();
    }

    [[nodiscard]] QByteArray header(const QByteArray &name) const
    {
        const qsizetype end = m_received.indexOf("\r\n\r\n");
        const QList<QByteArray> lines = m_received.left(end < 0 ? m_received.size() : end).split('\n');
        for (const QByteArray &line : lines) {
            const qsizetype colon = line.indexOf(':');
            if (colon > 0 && line.left(colon).trimmed().compare(name, Qt::CaseInsensitive) == 0) {
                return line.mid(colon + 1).trimmed();
            }
        }
        return {};
    }

    [[nodiscard]] QByteArray body() const
    {
        const qsizetype end = m_received.indexOf("\r\n\r\n");
        return end < 0 ? QByteArray() : m_received.mid(end + 4);
    }

    /// How many status lines arrived (a refused WebSocket upgrade must get exactly one).
    [[nodiscard]] int statusLines() const
    {
        int n = 0;
        for (qsizetype at = m_received.indexOf("HTTP/1.1 "); at >= 0; at = m_received.indexOf("HTTP/1.1 ", at + 1)) {
            ++n;
        }
        return n;
    }

    [[nodiscard]] const QByteArray &received() const { return m_received; }
    [[nodiscard]] bool closed() const { return m_closed; }
    [[nodiscard]] QTcpSocket &socket() { return *m_socket; }

private:
    [[nodiscard]] bool complete() const
    {
        const qsizetype end = m_received.indexOf("\r\n\r\n");
        if (end < 0) {
            return false;
        }
        bool ok = false;
        const qint64 length = header("Content-Length").toLongLong(&ok);
        return ok && m_received.size() - (end + 4) >= length;
    }

    std::unique_ptr<QTcpSocket> m_socket;
    QByteArray m_received;
    bool m_closed = false;
    bool m_reading = true;
};

} // namespace strata::testsupport
