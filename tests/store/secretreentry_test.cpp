#include "models/core/store/config.h"

#include <gtest/gtest.h>

using namespace strata::core;

namespace {

SourceConfig reentryOntap()
{
    SourceConfig c;
    c.name = QStringLiteral("lab");
    c.kind = SourceKind::Ontap;
    c.url = QStringLiteral("https://cluster.example.com");
    c.username = QStringLiteral("admin");
    c.password = SecretRef{SecretRef::Kind::Keychain, credentialKey(QStringLiteral("lab"))};
    c.caFile = QStringLiteral("/etc/strata/lab.pem");
    return c;
}

SourceConfig reentryGrid()
{
    SourceConfig c = reentryOntap();
    c.kind = SourceKind::StorageGrid;
    c.s3Url = QStringLiteral("https://s3.example.com:10443");
    c.s3AccessKey = QStringLiteral("AKIA");
    c.s3Secret =
        SecretRef{SecretRef::Kind::Keychain, credentialKey(QStringLiteral("lab"), QStringLiteral("s3_secret"))};
    return c;
}

} // namespace

TEST(SecretReentry, SameEndpointKeepsTheStoredSecret)
{
    const SourceConfig before = reentryOntap();
    SourceConfig after = before;
    after.url = QStringLiteral("HTTPS://Cluster.Example.com:443/some/path"); // same scheme, host and port
    after.username = QStringLiteral("monitor");
    after.configIntervalSeconds = 60;
    after.insecureSkipTlsVerify = false;
    EXPECT_TRUE(secretMustBeReentered(before, after).isEmpty());

    // Making TLS stricter needs nothing either.
    SourceConfig insecure = before;
    insecure.insecureSkipTlsVerify = true;
    EXPECT_TRUE(secretMustBeReentered(insecure, before).isEmpty());
}

TEST(SecretReentry, ChangedHostPortOrSchemeNeedsThePasswordAgain)
{
    const SourceConfig before = reentryOntap();
    for (const QString &url : {QStringLiteral("https://evil.example"),
                               QStringLiteral("https://cluster.example.com:8443"),
                               QStringLiteral("http://cluster.example.com")}) {
        SourceConfig after = before;
        after.url = url;
        const QList<SecretReentry> r = secretMustBeReentered(before, after);
        ASSERT_EQ(r.size(), 1) << url.toStdString();
        EXPECT_EQ(r.first(), (SecretReentry{QStringLiteral("password"), QStringLiteral("url")}));
        EXPECT_EQ(r.first().message(after).toStdString(),
                  QStringLiteral("the url of lab now points at %1, so its password must be given again (a stored "
                                 "secret never follows a changed endpoint or TLS setting)")
                      .arg(url)
                      .toStdString());
    }
    // A new secret (a different ref) or none at all is nothing to re-enter.
    SourceConfig typed = before;
    typed.url = QStringLiteral("https://other.example");
    typed.password = SecretRef{SecretRef::Kind::Keychain, credentialKey(QStringLiteral("lab2"))};
    EXPECT_TRUE(secretMustBeReentered(before, typed).isEmpty());
    typed.password = {};
    EXPECT_TRUE(secretMustBeReentered(before, typed).isEmpty());
}

TEST(SecretReentry, WeakerTlsNeedsTheSecretAgain)
{
    const SourceConfig before = reentryOntap();
    SourceConfig after = before;
    after.insecureSkipTlsVerify = true;
    EXPECT_EQ(secretMustBeReentered(before, after),
              (QList<SecretReentry>{{QStringLiteral("password"), QStringLiteral("insecure_skip_tls_verify")}}));
    EXPECT_TRUE(secretMustBeReentered(before, after)
                    .first()
                    .message(after)
                    .startsWith(QStringLiteral("lab now skips TLS verification, so its password must be given again")));

    after = before;
    after.caFile = QStringLiteral("/tmp/attacker.pem");
    EXPECT_EQ(secretMustBeReentered(before, after),
              (QList<SecretReentry>{{QStringLiteral("password"), QStringLiteral("ca_file")}}));
}

TEST(SecretReentry, S3SecretFollowsTheS3UrlAndThePasswordTheAdminNode)
{
    const SourceConfig before = reentryGrid();
    SourceConfig after = before;
    after.s3Url = QStringLiteral("https://collector.example:10443");
    EXPECT_EQ(secretMustBeReentered(before, after),
              (QList<SecretReentry>{{QStringLiteral("s3_secret"), QStringLiteral("s3_url")}}));
    EXPECT_TRUE(secretMustBeReentered(before, after).first().message(after).contains(QLatin1String("S3 secret key")));

    after = before;
    after.insecureSkipTlsVerify = true;
    EXPECT_EQ(secretMustBeReentered(before, after),
              (QList<SecretReentry>{{QStringLiteral("password"), QStringLiteral("insecure_skip_tls_verify")},
                                    {QStringLiteral("s3_secret"), QStringLiteral("insecure_skip_tls_verify")}}));
}

TEST(SecretReentry, AzureSecretFollowsTheAuthorityAndTheArmUrl)
{
    SourceConfig before;
    before.name = QStringLiteral("anf");
    before.kind = SourceKind::Azure;
    before.tenantId = QStringLiteral("t");
    before.clientId = QStringLiteral("c");
    before.password = SecretRef{SecretRef::Kind::Keychain, credentialKey(QStringLiteral("anf"))};

    SourceConfig after = before;
    after.url = QStringLiteral("https://management.azure.com"); // the default spelled out
    after.authorityUrl = QStringLiteral("https://login.microsoftonline.com/");
    EXPECT_TRUE(secretMustBeReentered(before, after).isEmpty());

    after.authorityUrl = QStringLiteral("https://login.evil.example");
    EXPECT_EQ(secretMustBeReentered(before, after),
              (QList<SecretReentry>{{QStringLiteral("password"), QStringLiteral("authority_url")}}));
    EXPECT_TRUE(secretMustBeReentered(before, after).first().message(after).contains(QLatin1String("client secret")));

    after = before;
    after.url = QStringLiteral("https://arm.evil.example");
    EXPECT_EQ(secretMustBeReentered(before, after),
              (QList<SecretReentry>{{QStringLiteral("password"), QStringLiteral("url")}}));
}

TEST(SecretReentry, KubernetesTokenFollowsTheUrlUnlessTheKubeconfigIsTheSecret)
{
    SourceConfig before;
    before.name = QStringLiteral("gpu");
    before.kind = SourceKind::Kubernetes;
    before.kubeconfigInSecret = true;
    before.password = SecretRef{SecretRef::Kind::Keychain, credentialKey(QStringLiteral("gpu"))};
    SourceConfig after = before;
    after.kubeContext = QStringLiteral("other");
    EXPECT_TRUE(secretMustBeReentered(before, after).isEmpty());

    // The stored kubeconfig would go out as a bearer token to a URL.
    after.kubeconfigInSecret = false;
    after.url = QStringLiteral("https://api.evil.example:6443");
    EXPECT_EQ(secretMustBeReentered(before, after),
              (QList<SecretReentry>{{QStringLiteral("password"), QStringLiteral("url")}}));
    EXPECT_TRUE(secretMustBeReentered(before, after).first().message(after).contains(QLatin1String("token")));
}
