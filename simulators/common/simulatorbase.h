#pragma once

#include "simulators/common/httpserver.h"
#include "simulators/common/tlsidentity.h"

#include <QHostAddress>
#include <QMetaObject>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QThread>

#include <type_traits>

namespace strata::sim {

/// What every vendor simulator shares: it lives on one thread, serves one HTTP(S) endpoint
/// (m_server) whose URL is baseUrl(), reports start-up failures through errorString(), and runs
/// its in-process API on its own thread whichever thread calls it.
class SimulatorBase : public QObject
{
public:
    ~SimulatorBase() override = default;
    SimulatorBase(const SimulatorBase &) = delete;
    SimulatorBase &operator=(const SimulatorBase &) = delete;

    /// Why start() failed; empty before and after a successful start().
    [[nodiscard]] QString errorString() const { return m_error; }
    /// "https://<host>:<port>" of the endpoint (no trailing slash); empty before start().
    [[nodiscard]] QString baseUrl() const { return m_baseUrl; }
    /// The port the endpoint listens on; 0 before start().
    [[nodiscard]] quint16 port() const { return m_port; }

protected:
    explicit SimulatorBase(QObject *parent = nullptr);

    /// The host a client on this machine puts in its URL to reach a server listening on
    /// `address`: "127.0.0.1" for loopback and any-address, "[::1]" for IPv6 loopback/any, else
    /// the address itself (IPv6 in brackets).
    static QString clientHost(const QHostAddress &address);
    /// Subject alternative names of a certificate for a server on `address`: localhost,
    /// 127.0.0.1, ::1, clientHost(address), and this machine's host name when it listens on every
    /// interface (so other machines can verify it by name).
    static QStringList certificateHosts(const QHostAddress &address);

    /// Generates a self-signed `tls` (CN `commonName`, SANs `hosts`) when it is null. Returns
    /// false with errorString() set when generation fails.
    bool ensureTls(TlsIdentity &tls, const QString &commonName, const QStringList &hosts);
    /// Creates m_server with handle() as its handler, serving TLS with `tls` (plain HTTP when
    /// null), and listens on `address`:`port` (0 = any free port). On success sets m_port and
    /// m_baseUrl ("http(s)://<clientHost(address)>:<port>"); on failure returns false with
    /// errorString() set.
    bool listen(const QHostAddress &address, quint16 port, const TlsIdentity *tls);

    /// Answers one request of m_server (on the simulator's thread).
    virtual void handle(const Request &request, const Responder &responder) = 0;

    /// Runs `fn` on the simulator's thread and returns its result: directly when called there,
    /// else blocking the caller until the simulator's event loop has run it.
    template <class F> auto onOwnThread(F &&fn) const
    {
        using R = decltype(fn());
        auto *self = const_cast<SimulatorBase *>(this);
        if (QThread::currentThread() == thread()) {
            return fn();
        }
        if constexpr (std::is_void_v<R>) {
            QMetaObject::invokeMethod(
                self,
                [&] {
                    fn();
                },
                Qt::BlockingQueuedConnection);
        } else {
            R result{};
            QMetaObject::invokeMethod(
                self,
                [&] {
                    result = fn();
                },
                Qt::BlockingQueuedConnection);
            return result;
        }
    }

    QString m_error;
    QString m_baseUrl;
    quint16 m_port = 0;
    HttpServer *m_server = nullptr;
};

} // namespace strata::sim
