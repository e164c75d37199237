#pragma once

#include <QByteArray>
#include <QSslConfiguration>
#include <QString>
#include <QStringList>

namespace strata::sim {

/// A self-signed certificate (also usable as its own CA: basicConstraints CA:TRUE) with
/// subjectAltNames for the given hosts, made at start-up with OpenSSL, so no private key is
/// ever committed. Clients trust it by pinning `certificatePem` as their CA file.
struct TlsIdentity
{
    QByteArray certificatePem;
    QByteArray privateKeyPem;

    /// ECDSA P-256, valid from one day ago for ten years, CN=`commonName`, SAN DNS/IP entries for
    /// `hosts` ("localhost", "127.0.0.1", ...). Returns an empty identity on failure.
    static TlsIdentity generate(const QString &commonName,
                                const QStringList &hosts = {QStringLiteral("localhost"), QStringLiteral("127.0.0.1")});
    /// Loads PEM files (for `strata-sim --tls-cert/--tls-key`). Empty on failure.
    static TlsIdentity load(const QString &certificatePath, const QString &keyPath);

    [[nodiscard]] bool isNull() const { return certificatePem.isEmpty() || privateKeyPem.isEmpty(); }
    /// Server-side configuration (TLS 1.2+, no client certificate requested).
    [[nodiscard]] QSslConfiguration serverConfiguration() const;
    /// Writes the certificate PEM to `path` (mode 0644). Returns false on I/O error.
    bool writeCertificate(const QString &path) const;
};

} // namespace strata::sim
