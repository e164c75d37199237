#include "simulators/common/simulatorbase.h"

#include <QHostInfo>

namespace strata::sim {

SimulatorBase::SimulatorBase(QObject *parent)
    : QObject(parent)
{}

QString SimulatorBase::clientHost(const QHostAddress &address)
{
    if (address == QHostAddress::LocalHostIPv6 || address == QHostAddress::AnyIPv6) {
        return QStringLiteral("[::1]");
    }
    if (address == QHostAddress::LocalHost || address == QHostAddress::Any || address == QHostAddress::AnyIPv4) {
        return QStringLiteral("127.0.0.1");
    }
    return address.protocol() == QAbstractSocket::IPv6Protocol
               ? QLatin1Char('[') + address.toString() + QLatin1Char(']')
               : address.toString();
}

QStringList SimulatorBase::certificateHosts(const QHostAddress &address)
{
    QStringList hosts{QStringLiteral("localhost"), QStringLiteral("127.0.0.1"), QStringLiteral("::1")};
    const QString host = clientHost(address);
    if (!host.startsWith(QLatin1Char('[')) && !hosts.contains(host)) {
        hosts.append(host);
    }
    if (address == QHostAddress::Any || address == QHostAddress::AnyIPv4 || address == QHostAddress::AnyIPv6) {
        // Reachable from other machines: let them verify the certificate by host name too.
        hosts.append(QHostInfo::localHostName());
    }
    return hosts;
}

bool SimulatorBase::ensureTls(TlsIdentity &tls, const QString &commonName, const QStringList &hosts)
{
    if (tls.isNull()) {
        tls = TlsIdentity::generate(commonName, hosts);
        if (tls.isNull()) {
            m_error = QStringLiteral("cannot generate a TLS certificate");
            return false;
        }
    }
    return true;
}

bool SimulatorBase::listen(const QHostAddress &address, quint16 port, const TlsIdentity *tls)
{
    m_server = new HttpServer(this);
    if (tls) {
        m_server->setTlsConfiguration(tls->serverConfiguration());
    }
    m_server->setHandler([this](const Request &request, const Responder &responder) {
        handle(request, responder);
    });
    if (!m_server->listen(address, port)) {
        m_error = m_server->errorString();
        return false;
    }
    m_port = m_server->port();
    m_baseUrl = (tls ? QStringLiteral("https://") : QStringLiteral("http://")) + clientHost(address) + QLatin1Char(':')
                + QString::number(m_port);
    return true;
}

} // namespace strata::sim
