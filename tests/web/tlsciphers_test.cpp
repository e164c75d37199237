// The TLS suites strata-server accepts, asked with `openssl s_client` one suite at a time:
// forward-secret AEAD suites (Mozilla's "intermediate" profile) and TLS 1.3 only.

#include "webfixture.h"

#include <QProcess>

#include <iostream>

namespace strata::testsupport {
namespace {

using WebTlsCiphersTest = WebFixture;

/// Whether `openssl s_client` completes a handshake with 127.0.0.1:port offering only `cipher`
/// (TLS 1.2) or, with an empty cipher, TLS 1.3. nullopt when the CLI is missing.
std::optional<bool> tlsCiphersHandshake(quint16 port, const QString &cipher)
{
    QStringList args{QStringLiteral("s_client"),
                     QStringLiteral("-connect"),
                     QStringLiteral("127.0.0.1:%1").arg(port),
                     QStringLiteral("-brief")};
    if (cipher.isEmpty()) {
        args << QStringLiteral("-tls1_3");
    } else {
        // Security level 0: the client offers what the server must refuse.
        args << QStringLiteral("-tls1_2") << QStringLiteral("-cipher") << cipher + QStringLiteral(":@SECLEVEL=0");
    }
    QProcess client;
    client.start(QStringLiteral("openssl"), args);
    if (!client.waitForStarted()) {
        return std::nullopt;
    }
    client.closeWriteChannel();
    // The server runs on this thread's event loop: wait without blocking it.
    (void)QTest::qWaitFor(
        [&client] {
            return client.state() == QProcess::NotRunning;
        },
        20000);
    const QByteArray err = client.readAllStandardError();
    const bool established = err.contains("CONNECTION ESTABLISHED");
    std::cout << "[probe] TLS " << (cipher.isEmpty() ? "1.3" : cipher.toStdString()) << ": "
              << (established ? "accepted" : "refused") << '\n';
    return established;
}

TEST_F(WebTlsCiphersTest, OnlyForwardSecretAeadSuitesAreAccepted)
{
    if (!QSslSocket::supportsSsl()) {
        GTEST_SKIP() << "no TLS backend";
    }
    const QString cert = dir.filePath(QStringLiteral("ciphers-cert.pem"));
    const QString key = dir.filePath(QStringLiteral("ciphers-key.pem"));
    QProcess openssl;
    openssl.start(QStringLiteral("openssl"),
                  {QStringLiteral("req"),
                   QStringLiteral("-x509"),
                   QStringLiteral("-newkey"),
                   QStringLiteral("rsa:2048"),
                   QStringLiteral("-nodes"),
                   QStringLiteral("-keyout"),
                   key,
                   QStringLiteral("-out"),
                   cert,
                   QStringLiteral("-days"),
                   QStringLiteral("1"),
                   QStringLiteral("-subj"),
                   QStringLiteral("/CN=127.0.0.1")});
    if (!openssl.waitForStarted()) {
        GTEST_SKIP() << "openssl CLI not available";
    }
    ASSERT_TRUE(openssl.waitForFinished(60000));
    ASSERT_EQ(openssl.exitCode(), 0) << openssl.readAllStandardError().toStdString();
    web::WebServerOptions options;
    options.tlsCertFile = cert;
    options.tlsKeyFile = key;
    startServer(options);
    const quint16 port = server->port();

    for (const char *accepted :
         {"ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-CHACHA20-POLY1305"}) {
        EXPECT_EQ(tlsCiphersHandshake(port, QString::fromLatin1(accepted)), true) << accepted;
    }
    EXPECT_EQ(tlsCiphersHandshake(port, {}), true) << "TLS 1.3";
    // RSA key exchange (no forward secrecy), CBC with SHA-1 or SHA-2, 3DES.
    for (const char *refused : {"AES128-SHA",
                                "AES256-SHA",
                                "AES128-GCM-SHA256",
                                "AES256-GCM-SHA384",
                                "AES128-SHA256",
                                "ECDHE-RSA-AES128-SHA",
                                "ECDHE-RSA-AES256-SHA",
                                "ECDHE-RSA-AES128-SHA256",
                                "DHE-RSA-AES128-SHA",
                                "DES-CBC3-SHA"}) {
        EXPECT_EQ(tlsCiphersHandshake(port, QString::fromLatin1(refused)), false) << refused;
    }
}

} // namespace
} // namespace strata::testsupport
