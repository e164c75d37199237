#include "simulators/common/tlsidentity.h"

#include <QFile>
#include <QHostAddress>
#include <QSslCertificate>
#include <QSslKey>

#include <memory>
#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace strata::sim {

namespace {

template <class T, void (*Free)(T *)> struct Deleter
{
    void operator()(T *p) const { Free(p); }
};
using PKeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using X509Ptr = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using BioPtr = std::unique_ptr<BIO, Deleter<BIO, BIO_free_all>>;
using ExtPtr = std::unique_ptr<X509_EXTENSION, Deleter<X509_EXTENSION, X509_EXTENSION_free>>;

QByteArray bioToBytes(BIO *bio)
{
    char *data = nullptr;
    const long len = BIO_get_mem_data(bio, &data);
    return QByteArray(data, static_cast<qsizetype>(len));
}

bool addExtension(X509 *cert, int nid, const QByteArray &value)
{
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
    ExtPtr ext(X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.constData()));
    return ext && X509_add_ext(cert, ext.get(), -1) == 1;
}

} // namespace

TlsIdentity TlsIdentity::generate(const QString &commonName, const QStringList &hosts)
{
    // ECDSA P-256: as strong as RSA-3072 for a test certificate, and generated in well under a
    // millisecond where RSA-2048 took 50-500 ms per simulator, most of the demo's start-up.
    PKeyPtr key(EVP_EC_gen("P-256"));
    if (!key) {
        return {};
    }
    X509Ptr cert(X509_new());
    X509_set_version(cert.get(), 2);
    // Random serial so that clients caching a previous run's certificate do not get confused.
    // (std::rand() without a seed gave every run the same serial: browsers then reject the new
    // certificate as a reused issuer + serial with a different key.)
    unsigned char serialBytes[16];
    if (RAND_bytes(serialBytes, sizeof serialBytes) != 1) {
        return {};
    }
    serialBytes[0] &= 0x7f;
    BIGNUM *serial = BN_bin2bn(serialBytes, sizeof serialBytes, nullptr);
    BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(cert.get()));
    BN_free(serial);
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), -24L * 3600);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), 10L * 365 * 24 * 3600);
    X509_set_pubkey(cert.get(), key.get());
    X509_NAME *name = X509_get_subject_name(cert.get());
    const QByteArray cn = commonName.toUtf8();
    X509_NAME_add_entry_by_txt(
        name, "O", MBSTRING_ASC, reinterpret_cast<const unsigned char *>("Strata simulators"), -1, -1, 0);
    X509_NAME_add_entry_by_txt(
        name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char *>(cn.constData()), -1, -1, 0);
    X509_set_issuer_name(cert.get(), name);

    QByteArray san;
    for (const QString &host : hosts) {
        if (!san.isEmpty()) {
            san += ',';
        }
        san += (QHostAddress(host).isNull() ? "DNS:" : "IP:") + host.toUtf8();
    }
    if (!addExtension(cert.get(), NID_basic_constraints, "critical,CA:TRUE")
        || !addExtension(cert.get(), NID_key_usage, "critical,digitalSignature,keyCertSign")
        || !addExtension(cert.get(), NID_ext_key_usage, "serverAuth")
        || !addExtension(cert.get(), NID_subject_key_identifier, "hash")
        || (!san.isEmpty() && !addExtension(cert.get(), NID_subject_alt_name, san))) {
        return {};
    }
    if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) {
        return {};
    }

    TlsIdentity identity;
    BioPtr certBio(BIO_new(BIO_s_mem()));
    PEM_write_bio_X509(certBio.get(), cert.get());
    identity.certificatePem = bioToBytes(certBio.get());
    BioPtr keyBio(BIO_new(BIO_s_mem()));
    PEM_write_bio_PrivateKey(keyBio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr);
    identity.privateKeyPem = bioToBytes(keyBio.get());
    return identity;
}

TlsIdentity TlsIdentity::load(const QString &certificatePath, const QString &keyPath)
{
    QFile certFile(certificatePath);
    QFile keyFile(keyPath);
    if (!certFile.open(QIODevice::ReadOnly) || !keyFile.open(QIODevice::ReadOnly)) {
        return {};
    }
    return TlsIdentity{certFile.readAll(), keyFile.readAll()};
}

QSslConfiguration TlsIdentity::serverConfiguration() const
{
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    config.setLocalCertificate(QSslCertificate(certificatePem, QSsl::Pem));
    // Generated identities are EC; one loaded from files (--tls-cert) may be either.
    QSslKey key(privateKeyPem, QSsl::Ec, QSsl::Pem);
    if (key.isNull()) {
        key = QSslKey(privateKeyPem, QSsl::Rsa, QSsl::Pem);
    }
    config.setPrivateKey(key);
    config.setPeerVerifyMode(QSslSocket::VerifyNone);
    config.setProtocol(QSsl::TlsV1_2OrLater);
    return config;
}

bool TlsIdentity::writeCertificate(const QString &path) const
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        return false;
    }
    return file.write(certificatePem) == certificatePem.size();
}

} // namespace strata::sim
