#include "tests/support/qt/loopbackserver.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

namespace strata::testsupport {

LoopbackServer::LoopbackServer(sim::HttpServer::Handler handler, bool tls)
{
    if (tls) {
        static const sim::TlsIdentity shared = sim::TlsIdentity::generate(QStringLiteral("strata-test"));
        m_identity = shared;
    }
    m_thread.start([&]() -> QObject * {
        auto *server = new sim::HttpServer;
        if (tls) {
            server->setTlsConfiguration(m_identity.serverConfiguration());
        }
        server->setHandler(std::move(handler));
        if (!server->listen(QHostAddress::LocalHost, 0)) {
            ADD_FAILURE() << "loopback server cannot listen: " << server->errorString().toStdString();
        }
        m_server = server;
        m_port = server->port();
        m_baseUrl = server->baseUrl();
        return server;
    });
}

LoopbackServer::~LoopbackServer() = default;

std::string LoopbackServer::writeCaFile() const
{
    static QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("ca-%1.pem").arg(m_port));
    m_identity.writeCertificate(path);
    return path.toStdString();
}

int LoopbackServer::requestCount()
{
    int n = 0;
    m_thread.runBlocking([&] {
        n = m_server->requestCount();
    });
    return n;
}

int LoopbackServer::connectionCount()
{
    int n = 0;
    m_thread.runBlocking([&] {
        n = m_server->connectionCount();
    });
    return n;
}

} // namespace strata::testsupport
