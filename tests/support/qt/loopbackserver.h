#pragma once

#include "simulators/common/httpserver.h"
#include "simulators/common/serverthread.h"
#include "simulators/common/tlsidentity.h"

#include <QString>

#include <atomic>
#include <memory>

namespace strata::testsupport {

/// A scripted HTTP(S) server on 127.0.0.1:<random port>, running on its own thread so blocking
/// clients (libcurl, subprocesses) can talk to it from the test thread. The handler runs on the
/// server thread.
class LoopbackServer
{
public:
    /// `tls` true: serves HTTPS with a freshly generated self-signed certificate.
    explicit LoopbackServer(sim::HttpServer::Handler handler, bool tls = false);
    ~LoopbackServer();

    [[nodiscard]] QString baseUrl() const { return m_baseUrl; }
    [[nodiscard]] std::string url(const std::string &path = {}) const { return m_baseUrl.toStdString() + path; }
    [[nodiscard]] quint16 port() const { return m_port; }
    /// PEM of the server certificate (pin it as CA); empty for plain HTTP.
    [[nodiscard]] const QByteArray &certificatePem() const { return m_identity.certificatePem; }
    /// Writes certificatePem() to a temporary file and returns its path.
    [[nodiscard]] std::string writeCaFile() const;
    [[nodiscard]] int requestCount();
    [[nodiscard]] int connectionCount();
    sim::ServerThread &thread() { return m_thread; }

private:
    sim::ServerThread m_thread;
    sim::HttpServer *m_server = nullptr;
    sim::TlsIdentity m_identity;
    QString m_baseUrl;
    quint16 m_port = 0;
};

} // namespace strata::testsupport
