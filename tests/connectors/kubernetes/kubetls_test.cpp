// TLS with CA and client-certificate PEM blobs against an HTTPS server that requires a client
// certificate; certificates are generated at run time (simulators/common/tlsidentity.h).
#include "simulators/common/serverthread.h"
#include "simulators/common/tlsidentity.h"
#include "tests/connectors/kubernetes/kubetestsupport.h"

#include <QSslCertificate>
#include <QSslSocket>

#include <gtest/gtest.h>

#include <memory>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

using namespace strata;
using namespace strata::kubernetes;
using namespace strata::kubernetes::test;
using http::CancelToken;
using http::CurlTransport;

namespace {

/// HTTPS server on its own thread that only completes handshakes with a certificate signed by
/// (here: equal to) `clientCa`.
class MutualTlsServer
{
public:
    MutualTlsServer(const sim::TlsIdentity &server, const sim::TlsIdentity &clientCa)
    {
        m_thread.start([&]() -> QObject * {
            auto *http = new sim::HttpServer;
            QSslConfiguration config = server.serverConfiguration();
            config.setPeerVerifyMode(QSslSocket::VerifyPeer);
            config.setCaCertificates({QSslCertificate(clientCa.certificatePem, QSsl::Pem)});
            http->setTlsConfiguration(config);
            http->setHandler([](const sim::Request &, const sim::Responder &responder) {
                responder.send(sim::Response::json(200, R"({"gitVersion":"v1.34.0-mtls"})"));
            });
            if (!http->listen(QHostAddress::LocalHost, 0)) {
                ADD_FAILURE() << "cannot listen: " << http->errorString().toStdString();
            }
            m_url = http->baseUrl().toStdString();
            return http;
        });
    }
    [[nodiscard]] const std::string &url() const { return m_url; }

private:
    sim::ServerThread m_thread;
    std::string m_url;
};

const sim::TlsIdentity &serverIdentity()
{
    static const sim::TlsIdentity identity = sim::TlsIdentity::generate(QStringLiteral("kube-apiserver"));
    return identity;
}

/// A client CA and a client certificate it signed (extendedKeyUsage clientAuth, as kubeadm issues
/// for kubernetes-admin), made with OpenSSL at run time. TlsIdentity certificates are serverAuth
/// only, which a verifying server refuses as a client certificate.
struct ClientPki
{
    sim::TlsIdentity ca;     ///< certificate only matters (the server's trust anchor)
    sim::TlsIdentity client; ///< certificate + key presented by the client
};

using KeyPtr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using CertPtr = std::unique_ptr<X509, decltype(&X509_free)>;

bool addExtension(X509 *cert, X509 *issuer, int nid, const char *value)
{
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
    const bool ok = ext && X509_add_ext(cert, ext, -1) == 1;
    X509_EXTENSION_free(ext);
    return ok;
}

CertPtr
makeCertificate(EVP_PKEY *key, const char *commonName, X509 *issuer, EVP_PKEY *issuerKey, bool isCa, long serial)
{
    CertPtr cert(X509_new(), &X509_free);
    X509_set_version(cert.get(), 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial);
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), 24 * 3600);
    X509_set_pubkey(cert.get(), key);
    X509_NAME *name = X509_get_subject_name(cert.get());
    X509_NAME_add_entry_by_txt(
        name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char *>(commonName), -1, -1, 0);
    X509_set_issuer_name(cert.get(), issuer ? X509_get_subject_name(issuer) : name);
    X509 *issuerCert = issuer ? issuer : cert.get();
    const bool ok =
        isCa ? addExtension(cert.get(), issuerCert, NID_basic_constraints, "critical,CA:TRUE")
                   && addExtension(cert.get(), issuerCert, NID_key_usage, "critical,keyCertSign,cRLSign")
             : addExtension(cert.get(), issuerCert, NID_basic_constraints, "critical,CA:FALSE")
                   && addExtension(cert.get(), issuerCert, NID_key_usage, "critical,digitalSignature,keyEncipherment")
                   && addExtension(cert.get(), issuerCert, NID_ext_key_usage, "clientAuth");
    if (!ok || X509_sign(cert.get(), issuerKey ? issuerKey : key, EVP_sha256()) == 0) {
        return CertPtr(nullptr, &X509_free);
    }
    return cert;
}

QByteArray certPem(X509 *cert)
{
    BIO *bio = BIO_new(BIO_s_mem());
    PEM_write_bio_X509(bio, cert);
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    QByteArray pem(data, static_cast<qsizetype>(size));
    BIO_free(bio);
    return pem;
}

QByteArray keyPem(EVP_PKEY *key)
{
    BIO *bio = BIO_new(BIO_s_mem());
    PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    QByteArray pem(data, static_cast<qsizetype>(size));
    BIO_free(bio);
    return pem;
}

ClientPki makeClientPki()
{
    KeyPtr caKey(EVP_RSA_gen(2048), &EVP_PKEY_free);
    KeyPtr clientKey(EVP_RSA_gen(2048), &EVP_PKEY_free);
    if (!caKey || !clientKey) {
        return {};
    }
    CertPtr caCert = makeCertificate(caKey.get(), "strata-test-client-ca", nullptr, nullptr, true, 1);
    if (!caCert) {
        return {};
    }
    CertPtr clientCert = makeCertificate(clientKey.get(), "kubernetes-admin", caCert.get(), caKey.get(), false, 2);
    if (!clientCert) {
        return {};
    }
    ClientPki pki;
    pki.ca.certificatePem = certPem(caCert.get());
    pki.ca.privateKeyPem = keyPem(caKey.get());
    pki.client.certificatePem = certPem(clientCert.get());
    pki.client.privateKeyPem = keyPem(clientKey.get());
    return pki;
}

const ClientPki &clientPki()
{
    static const ClientPki pki = makeClientPki();
    return pki;
}

const sim::TlsIdentity &clientIdentity()
{
    return clientPki().client;
}

ClusterEndpoint mtlsEndpoint(const std::string &url)
{
    ClusterEndpoint endpoint;
    endpoint.server = url;
    endpoint.caPem = serverIdentity().certificatePem.toStdString();
    endpoint.clientCertPem = clientIdentity().certificatePem.toStdString();
    endpoint.clientKeyPem = clientIdentity().privateKeyPem.toStdString();
    return endpoint;
}

} // namespace

TEST(KubeTls, ClientCertificateBlobs_HandshakeAccepted)
{
    ASSERT_FALSE(serverIdentity().isNull());
    ASSERT_FALSE(clientIdentity().isNull());
    MutualTlsServer server(serverIdentity(), clientPki().ca);
    const ClusterEndpoint endpoint = mtlsEndpoint(server.url());
    CurlTransport transport(transportOptions(endpoint, fastTransport()));
    KubeClient client(transport, endpoint, fastRetry(1));

    const auto version = client.version(CancelToken{});

    ASSERT_TRUE(version) << version.error().message;
    EXPECT_EQ(version->gitVersion, "v1.34.0-mtls");
}

TEST(KubeTls, WithoutClientCertificate_Refused)
{
    MutualTlsServer server(serverIdentity(), clientPki().ca);
    ClusterEndpoint endpoint = mtlsEndpoint(server.url());
    endpoint.clientCertPem.clear();
    endpoint.clientKeyPem.clear();
    CurlTransport transport(transportOptions(endpoint, fastTransport()));
    KubeClient client(transport, endpoint, fastRetry(1));

    const auto version = client.version(CancelToken{});

    ASSERT_FALSE(version);
    EXPECT_NE(version.error().kind, connectors::Error::Kind::Api);
}

TEST(KubeTls, PerRequestClientCertificate_OverridesTransport)
{
    MutualTlsServer server(serverIdentity(), clientPki().ca);
    ClusterEndpoint endpoint = mtlsEndpoint(server.url());
    http::TransportOptions options = fastTransport();
    options.caPem = endpoint.caPem; // no client identity in the transport
    CurlTransport transport(options);
    http::HttpRequest request;
    request.url = server.url() + "/version";
    request.clientCertPem = endpoint.clientCertPem;
    request.clientKeyPem = endpoint.clientKeyPem;

    const auto response = transport.send(request, CancelToken{});

    ASSERT_TRUE(response) << response.error().message;
    EXPECT_EQ(response->status, 200);
}

TEST(KubeTls, CaPemBlob_TrustsPinnedServerOnly)
{
    MutualTlsServer server(serverIdentity(), clientPki().ca);
    ClusterEndpoint endpoint = mtlsEndpoint(server.url());
    endpoint.caPem = clientIdentity().certificatePem.toStdString(); // the wrong CA
    CurlTransport transport(transportOptions(endpoint, fastTransport()));
    KubeClient client(transport, endpoint, fastRetry(1));

    const auto version = client.version(CancelToken{});

    ASSERT_FALSE(version);
    EXPECT_EQ(version.error().kind, connectors::Error::Kind::Tls) << version.error().message;
    EXPECT_NE(version.error().message.find("not trusted"), std::string::npos) << version.error().message;
}

TEST(KubeTls, GarbageClientCertificate_TlsErrorNamesIt)
{
    MutualTlsServer server(serverIdentity(), clientPki().ca);
    ClusterEndpoint endpoint = mtlsEndpoint(server.url());
    endpoint.clientCertPem = "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n";
    CurlTransport transport(transportOptions(endpoint, fastTransport()));
    KubeClient client(transport, endpoint, fastRetry(1));

    const auto version = client.version(CancelToken{});

    ASSERT_FALSE(version);
    EXPECT_EQ(version.error().kind, connectors::Error::Kind::Tls) << version.error().message;
    EXPECT_NE(version.error().message.find("Client certificate"), std::string::npos) << version.error().message;
}
