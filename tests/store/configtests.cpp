#include "models/core/store/config.h"
#include "tests/support/qt/corestatus.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <cctype>

using strata::testsupport::errorText;
using strata::testsupport::succeeded;
using namespace strata::core;

namespace {

AppConfig sampleConfig()
{
    AppConfig config;
    SourceConfig keychain;
    keychain.name = QStringLiteral("ontap-ai");
    keychain.url = QStringLiteral("https://cluster-mgmt.example.com");
    keychain.username = QStringLiteral("admin");
    keychain.password = SecretRef{SecretRef::Kind::Keychain, credentialKey(QStringLiteral("ontap-ai"))};
    keychain.caFile = QStringLiteral("/etc/strata/ca/ontap-ai.pem");
    keychain.configIntervalSeconds = 300;
    keychain.perfIntervalSeconds = 15;

    SourceConfig env;
    env.name = QStringLiteral("lab_2.dev");
    env.url = QStringLiteral("http://10.0.0.5:8080");
    env.username = QStringLiteral("monitor");
    env.password = SecretRef{SecretRef::Kind::Env, QStringLiteral("LAB_PASSWORD")};
    env.insecureSkipTlsVerify = true;

    SourceConfig file;
    file.name = QStringLiteral("k8s-mounted");
    file.url = QStringLiteral("https://ontap.internal");
    file.password = SecretRef{SecretRef::Kind::File, QStringLiteral("/run/secrets/ontap")};

    SourceConfig none;
    none.name = QStringLiteral("anonymous");
    none.url = QStringLiteral("https://sim.local:8443");

    config.sources = {keychain, env, file, none};
    config.historyPath = QStringLiteral("/var/lib/strata/history.sqlite");
    config.historyRetentionDays = 30;
    return config;
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// Wraps one source object into a config document.
QByteArray withSourceConfig(const char *sourceJson)
{
    return QByteArray(R"({"sources": [)") + sourceJson + "]}";
}

} // namespace

TEST(AppConfig, ParsesDocumentedFormat)
{
    const QByteArray json = R"({
        "sources": [{
            "name": "ontap-ai", "kind": "ontap", "url": "https://cluster-mgmt.example.com",
            "username": "admin", "password": {"keychain": "strata/ontap-ai/password"},
            "ca_file": "/etc/ca.pem", "insecure_skip_tls_verify": false,
            "poll": {"config_seconds": 180, "performance_seconds": 60},
            "some_future_key": {"ignored": true}
        }],
        "history": {"path": "/data/history.sqlite", "retention_days": 90},
        "ui": "unknown keys are ignored"
    })";
    AppConfig config;
    ASSERT_TRUE(succeeded(AppConfig::parse(json, &config)));
    ASSERT_EQ(config.sources.size(), 1);
    const SourceConfig &source = config.sources.front();
    EXPECT_EQ(source.name, QStringLiteral("ontap-ai"));
    EXPECT_EQ(source.kind, SourceKind::Ontap);
    EXPECT_EQ(source.url, QStringLiteral("https://cluster-mgmt.example.com"));
    EXPECT_EQ(source.username, QStringLiteral("admin"));
    EXPECT_EQ(source.password, (SecretRef{SecretRef::Kind::Keychain, QStringLiteral("strata/ontap-ai/password")}));
    EXPECT_EQ(source.caFile, QStringLiteral("/etc/ca.pem"));
    EXPECT_FALSE(source.insecureSkipTlsVerify);
    EXPECT_EQ(source.configIntervalSeconds, 180);
    EXPECT_EQ(source.perfIntervalSeconds, 60);
    EXPECT_EQ(config.historyPath, QStringLiteral("/data/history.sqlite"));
    EXPECT_EQ(config.historyRetentionDays, 90);
    EXPECT_EQ(config.source(QStringLiteral("ontap-ai")), &config.sources.front());
    EXPECT_EQ(config.source(QStringLiteral("nope")), nullptr);
}

TEST(AppConfig, MinimalSourceGetsDefaults)
{
    AppConfig config;
    ASSERT_TRUE(succeeded(
        AppConfig::parse(withSourceConfig(R"({"name": "a", "kind": "ontap", "url": "https://a"})"), &config)));
    const SourceConfig &source = config.sources.front();
    EXPECT_EQ(source.password.kind, SecretRef::Kind::None);
    EXPECT_EQ(source.configIntervalSeconds, 180);
    EXPECT_EQ(source.perfIntervalSeconds, 60);
    EXPECT_FALSE(source.insecureSkipTlsVerify);
    EXPECT_TRUE(config.historyPath.isEmpty());
    EXPECT_EQ(config.historyRetentionDays, 90);

    AppConfig empty;
    ASSERT_TRUE(succeeded(AppConfig::parse("{}", &empty)));
    EXPECT_TRUE(empty.sources.isEmpty());
}

TEST(AppConfig, KubernetesSourceFromAKubeconfigNeedsNoUrlAndRoundTrips)
{
    AppConfig config;
    ASSERT_TRUE(succeeded(AppConfig::parse(withSourceConfig(R"({"name": "dgx", "kind": "kubernetes",
        "kubeconfig": "/home/me/.kube/config", "context": "dgx-admin",
        "prometheus_url": "http://prometheus.monitoring:9090"})"),
                                           &config)));
    const SourceConfig &source = config.sources.front();
    EXPECT_EQ(source.kind, SourceKind::Kubernetes);
    EXPECT_TRUE(source.url.isEmpty());
    EXPECT_EQ(source.kubeconfig, QStringLiteral("/home/me/.kube/config"));
    EXPECT_EQ(source.kubeContext, QStringLiteral("dgx-admin"));
    EXPECT_EQ(source.prometheusUrl, QStringLiteral("http://prometheus.monitoring:9090"));
    AppConfig again;
    ASSERT_TRUE(succeeded(AppConfig::parse(config.toJson(), &again)));
    EXPECT_EQ(again.sources, config.sources);
}

TEST(AppConfig, AzureSourceParsesAndRoundTrips)
{
    AppConfig config;
    ASSERT_TRUE(succeeded(AppConfig::parse(withSourceConfig(R"({"name": "azure-ai", "kind": "azure",
        "subscription_id": "11111111-2222-3333-4444-555555555555",
        "tenant_id": "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", "client_id": "strata-reader",
        "password": {"keychain": "strata/azure-ai/password"},
        "authority_url": "https://login.microsoftonline.us", "credential_source": "client_secret",
        "poll": {"config_seconds": 300}})"),
                                           &config)));
    const SourceConfig &source = config.sources.front();
    EXPECT_EQ(source.kind, SourceKind::Azure);
    EXPECT_TRUE(source.url.isEmpty()) << "ARM endpoint defaults in the source, not in the file";
    EXPECT_EQ(source.subscriptionId, QStringLiteral("11111111-2222-3333-4444-555555555555"));
    EXPECT_EQ(source.tenantId, QStringLiteral("aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"));
    EXPECT_EQ(source.clientId, QStringLiteral("strata-reader"));
    EXPECT_EQ(source.authorityUrl, QStringLiteral("https://login.microsoftonline.us"));
    EXPECT_EQ(source.credentialSource, QStringLiteral("client_secret"));
    EXPECT_EQ(source.configIntervalSeconds, 300);
    AppConfig again;
    ASSERT_TRUE(succeeded(AppConfig::parse(config.toJson(), &again)));
    EXPECT_EQ(again.sources, config.sources);

    // The Azure CLI's login needs neither an app registration nor a secret.
    AppConfig cli;
    ASSERT_TRUE(succeeded(AppConfig::parse(withSourceConfig(R"({"name": "azure-me", "kind": "azure",
        "subscription_id": "s", "credential_source": "azure_cli", "url": "https://management.usgovcloudapi.net"})"),
                                           &cli)));
    EXPECT_EQ(cli.sources.front().credentialSource, QStringLiteral("azure_cli"));
    EXPECT_EQ(cli.sources.front().url, QStringLiteral("https://management.usgovcloudapi.net"));
    EXPECT_FALSE(cli.toJson().contains("tenant_id"));
}

TEST(AppConfig, KubeconfigInSecretRoundTrips)
{
    AppConfig config;
    ASSERT_TRUE(succeeded(AppConfig::parse(withSourceConfig(R"({"name": "aks-gpu", "kind": "kubernetes",
        "kubeconfig_in_secret": true, "password": {"keychain": "strata/aks-gpu/password"}})"),
                                           &config)));
    EXPECT_TRUE(config.sources.front().kubeconfigInSecret);
    EXPECT_TRUE(config.toJson().contains("\"kubeconfig_in_secret\": true"));
    AppConfig again;
    ASSERT_TRUE(succeeded(AppConfig::parse(config.toJson(), &again)));
    EXPECT_EQ(again.sources, config.sources);

    AppConfig plain;
    ASSERT_TRUE(succeeded(AppConfig::parse(withSourceConfig(R"({"name": "k", "kind": "kubernetes"})"), &plain)));
    EXPECT_FALSE(plain.sources.front().kubeconfigInSecret);
    EXPECT_FALSE(plain.toJson().contains("kubeconfig_in_secret"));
}

TEST(AppConfig, RateCardDefaultsStayOutOfTheFileAndEditsRoundTrip)
{
    AppConfig config;
    ASSERT_TRUE(succeeded(AppConfig::parse("{}", &config)));
    EXPECT_EQ(config.rateCard, RateCard::defaults());
    EXPECT_FALSE(config.toJson().contains("rate_card"));

    ASSERT_TRUE(succeeded(AppConfig::parse(R"({"rate_card": {"currency": "EUR", "anf_per_gib_month": {"Premium": 0.25},
        "ontap_per_gib_month": {"gold": 0.08, "": 0.02}, "cool_down_minutes": 30}})",
                                           &config)));
    EXPECT_EQ(config.rateCard.currency, QStringLiteral("EUR"));
    EXPECT_DOUBLE_EQ(config.rateCard.anfPerGibMonth.value(QStringLiteral("Premium")), 0.25);
    // Levels the file does not name keep their defaults.
    EXPECT_DOUBLE_EQ(config.rateCard.anfPerGibMonth.value(QStringLiteral("Standard")),
                     RateCard::defaults().anfPerGibMonth.value(QStringLiteral("Standard")));
    EXPECT_DOUBLE_EQ(config.rateCard.ontapPerGibMonth.value(QString()), 0.02);
    EXPECT_EQ(config.rateCard.coolDownMinutes, 30);
    AppConfig again;
    ASSERT_TRUE(succeeded(AppConfig::parse(config.toJson(), &again)));
    EXPECT_EQ(again.rateCard, config.rateCard);
}

TEST(AppConfig, StoreIsAPostgresUrlWithoutPasswordOrAPathAndWinsOverTheHistoryPath)
{
    AppConfig config;
    ASSERT_TRUE(succeeded(AppConfig::parse(R"({"history": {"path": "/var/lib/strata/h.sqlite"},
        "store": "postgresql://strata@db.example.com:5432/strata?sslmode=verify-full"})",
                                           &config)));
    EXPECT_EQ(config.store, QStringLiteral("postgresql://strata@db.example.com:5432/strata?sslmode=verify-full"));
    EXPECT_EQ(historyPathFor(config), config.store);
    AppConfig again;
    ASSERT_TRUE(succeeded(AppConfig::parse(config.toJson(), &again)));
    EXPECT_EQ(again.store, config.store);
    config.store.clear();
    EXPECT_EQ(historyPathFor(config), QStringLiteral("/var/lib/strata/h.sqlite"));
    EXPECT_FALSE(config.toJson().contains("\"store\""));

    for (const char *json : {R"({"store": "postgresql://strata:hunter2-secret@db/strata"})",
                             R"({"store": "postgres://strata@db/strata?password=hunter2-secret"})"}) {
        const Status refused = AppConfig::parse(json, nullptr);
        ASSERT_FALSE(refused) << json;
        EXPECT_TRUE(refused.error().message.contains(QStringLiteral("STRATA_SECRET_STORE_PASSWORD")));
        EXPECT_FALSE(refused.error().message.contains(QStringLiteral("hunter2"))) << "never echo the password";
    }
    EXPECT_FALSE(AppConfig::parse(R"({"store": 5})", nullptr));
    EXPECT_FALSE(AppConfig::parse(R"({"store": "  "})", nullptr));
}

TEST(AppConfig, RoundTripsThroughJsonAndFile)
{
    const AppConfig original = sampleConfig();
    AppConfig parsed;
    ASSERT_TRUE(succeeded(AppConfig::parse(original.toJson(), &parsed)));
    EXPECT_EQ(parsed.sources, original.sources);
    EXPECT_EQ(parsed.historyPath, original.historyPath);
    EXPECT_EQ(parsed.historyRetentionDays, original.historyRetentionDays);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("nested/strata/config.json"));
    ASSERT_TRUE(succeeded(original.save(path)));
    AppConfig loaded;
    ASSERT_TRUE(succeeded(AppConfig::load(path, &loaded)));
    EXPECT_EQ(loaded.sources, original.sources);
    EXPECT_EQ(loaded.historyPath, original.historyPath);
    EXPECT_EQ(loaded.historyRetentionDays, original.historyRetentionDays);
    // Saving what was loaded changes nothing.
    EXPECT_EQ(loaded.toJson(), original.toJson());
}

TEST(AppConfig, SaveIsOwnerOnlyPrettyAndHoldsOnlyReferences)
{
    const AppConfig config = sampleConfig();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("config.json"));
    // A pre-existing world-readable file must come out 0600.
    {
        QFile old(path);
        ASSERT_TRUE(old.open(QIODevice::WriteOnly));
        old.write("{}");
    }
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther);
    ASSERT_TRUE(succeeded(config.save(path)));
    const auto mode = QFileInfo(path).permissions()
                      & (QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                         | QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ExeGroup
                         | QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther);
    EXPECT_EQ(mode, QFileDevice::ReadOwner | QFileDevice::WriteOwner);

    const QByteArray saved = readFile(path);
    EXPECT_TRUE(saved.contains("\n    ")) << "pretty-printed";
    EXPECT_TRUE(saved.contains(R"("keychain": "strata/ontap-ai/password")"));
    EXPECT_TRUE(saved.contains(R"("env": "LAB_PASSWORD")"));
    EXPECT_TRUE(saved.contains(R"("file": "/run/secrets/ontap")"));
    // Every "password" value is an object reference, never a string.
    EXPECT_FALSE(saved.contains(R"("password": ")"));
    EXPECT_EQ(saved.count("\"password\""), 3);
    // The secrets the references point at never end up in the file.
    qputenv("LAB_PASSWORD", "s3cr3t-lab");
    EXPECT_FALSE(saved.contains("s3cr3t-lab"));
    qunsetenv("LAB_PASSWORD");
    // No temporary file left next to it.
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
}

TEST(AppConfig, SaveRefusesWhatLoadWouldReject)
{
    AppConfig config = sampleConfig();
    config.sources[1].name = QStringLiteral("has space");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("config.json"));
    QString error = errorText(config.save(path));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_TRUE(error.contains(path)) << error.toStdString();
    EXPECT_TRUE(error.contains(QLatin1String("has space"))) << error.toStdString();
    EXPECT_FALSE(QFile::exists(path));
}

TEST(AppConfig, LoadErrorsNameTheFile)
{
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("missing.json"));
    AppConfig config;
    QString error = errorText(AppConfig::load(missing, &config));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_TRUE(error.startsWith(missing + QStringLiteral(": "))) << error.toStdString();

    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    {
        QFile file(bad);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(
            withSourceConfig(R"({"name": "ontap-ai", "kind": "ontap", "url": "https://a", "password": "hunter2"})"));
    }
    error = errorText(AppConfig::load(bad, &config));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_TRUE(error.startsWith(bad + QStringLiteral(": source \"ontap-ai\": "))) << error.toStdString();
    EXPECT_FALSE(error.contains(QLatin1Char('\n')));
}

TEST(AppConfig, LiteralPasswordIsRejectedWithoutEchoingIt)
{
    AppConfig config = sampleConfig();
    const AppConfig before = config;
    QString error = errorText(AppConfig::parse(
        withSourceConfig(R"({"name": "ontap-ai", "kind": "ontap", "url": "https://a", "password": "hunter2"})"),
        &config));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(error,
              QStringLiteral("source \"ontap-ai\": passwords are not stored in the config file; use "
                             "{\"keychain\": ...}, {\"env\": ...} or {\"file\": ...}"));
    EXPECT_FALSE(error.contains(QLatin1String("hunter2")));
    EXPECT_EQ(config.sources, before.sources) << "config untouched on failure";
}

struct InvalidCase
{
    const char *label;
    QByteArray json;
    const char *expected; ///< substring of the error
};

class AppConfigValidation : public ::testing::TestWithParam<InvalidCase>
{
};

TEST_P(AppConfigValidation, RejectsWithOneLineErrorNamingTheSource)
{
    const InvalidCase &c = GetParam();
    AppConfig config;
    QString error = errorText(AppConfig::parse(c.json, &config));
    EXPECT_FALSE(error.isEmpty()) << c.label;
    EXPECT_TRUE(error.contains(QString::fromUtf8(c.expected)))
        << c.label << ": got \"" << error.toStdString() << "\", expected to contain \"" << c.expected << "\"";
    EXPECT_FALSE(error.contains(QLatin1Char('\n'))) << c.label;
}

INSTANTIATE_TEST_SUITE_P(
    AllErrors,
    AppConfigValidation,
    ::testing::Values(
        InvalidCase{"not json", "{", "invalid JSON"},
        InvalidCase{"not an object", "[]", "top level must be a JSON object"},
        InvalidCase{"sources not array", R"({"sources": {}})", "\"sources\" must be an array"},
        InvalidCase{"source not object", R"({"sources": [42]})", "sources[0]: must be an object"},
        InvalidCase{"missing name",
                    withSourceConfig(R"({"kind": "ontap", "url": "https://a"})"),
                    "sources[0]: name: Enter a name."},
        InvalidCase{"empty name",
                    withSourceConfig(R"({"name": "", "kind": "ontap", "url": "https://a"})"),
                    "sources[0]: name: Enter a name."},
        InvalidCase{"invalid name",
                    withSourceConfig(R"({"name": "ontap ai/1", "kind": "ontap", "url": "https://a"})"),
                    "source \"ontap ai/1\": name: The name may only contain letters"},
        InvalidCase{"duplicate names",
                    R"({"sources": [{"name": "a", "kind": "ontap", "url": "https://a"},
                                    {"name": "a", "kind": "ontap", "url": "https://b"}]})",
                    "source \"a\": duplicate name (sources[0] and sources[1])"},
        InvalidCase{
            "missing kind", withSourceConfig(R"({"name": "a", "url": "https://a"})"), "source \"a\": missing \"kind\""},
        InvalidCase{"unknown kind",
                    withSourceConfig(R"({"name": "a", "kind": "netbackup", "url": "https://a"})"),
                    "source \"a\": unknown kind \"netbackup\" (known: ontap, kubernetes, azure, storagegrid)"},
        InvalidCase{"missing url",
                    withSourceConfig(R"({"name": "a", "kind": "ontap"})"),
                    "source \"a\": url: Enter the URL of the cluster management interface."},
        InvalidCase{"prometheus url",
                    withSourceConfig(R"({"name": "a", "kind": "kubernetes", "prometheus_url": "prom:9090"})"),
                    "source \"a\": prometheus_url: The Prometheus URL must look like"},
        InvalidCase{"ftp url",
                    withSourceConfig(R"({"name": "a", "kind": "ontap", "url": "ftp://a"})"),
                    "source \"a\": url: The URL must look like https://cluster-mgmt.example.com."},
        InvalidCase{"url without host",
                    withSourceConfig(R"({"name": "a", "kind": "ontap", "url": "https://"})"),
                    "url: The URL must look like"},
        InvalidCase{"url without scheme",
                    withSourceConfig(R"({"name": "a", "kind": "ontap", "url": "cluster.example.com"})"),
                    "url: The URL must look like"},
        InvalidCase{"literal password",
                    withSourceConfig(R"({"name": "a", "kind": "ontap", "url": "https://a", "password": "x"})"),
                    "source \"a\": passwords are not stored in the config file"},
        InvalidCase{
            "password unknown ref",
            withSourceConfig(R"({"name": "a", "kind": "ontap", "url": "https://a", "password": {"vault": "x"}})"),
            "source \"a\": \"password\" must be one of"},
        InvalidCase{"password two refs",
                    withSourceConfig(R"({"name": "a", "kind": "ontap", "url": "https://a",
                                  "password": {"env": "X", "file": "/y"}})"),
                    "source \"a\": \"password\" must be one of"},
        InvalidCase{"password empty ref",
                    withSourceConfig(R"({"name": "a", "kind": "ontap", "url": "https://a", "password": {"env": ""}})"),
                    "source \"a\": \"password\" must be one of"},
        InvalidCase{"password number",
                    withSourceConfig(R"({"name": "a", "kind": "ontap", "url": "https://a", "password": 1234})"),
                    "source \"a\": \"password\" must be one of"},
        InvalidCase{"username not string",
                    withSourceConfig(R"({"name": "a", "kind": "ontap", "url": "https://a", "username": 7})"),
                    "source \"a\": \"username\" must be a string"},
        InvalidCase{"insecure not bool",
                    withSourceConfig(
                        R"({"name": "a", "kind": "ontap", "url": "https://a", "insecure_skip_tls_verify": "yes"})"),
                    "source \"a\": \"insecure_skip_tls_verify\" must be true or false"},
        InvalidCase{
            "config interval too short",
            withSourceConfig(R"({"name": "a", "kind": "ontap", "url": "https://a", "poll": {"config_seconds": 4}})"),
            "source \"a\": poll.config_seconds must be a whole number >= 5 (got 4)"},
        InvalidCase{"perf interval too short",
                    withSourceConfig(
                        R"({"name": "a", "kind": "ontap", "url": "https://a", "poll": {"performance_seconds": 1}})"),
                    "source \"a\": poll.performance_seconds must be a whole number >= 5 (got 1)"},
        InvalidCase{
            "interval fractional",
            withSourceConfig(R"({"name": "a", "kind": "ontap", "url": "https://a", "poll": {"config_seconds": 7.5}})"),
            "poll.config_seconds must be a whole number >= 5"},
        InvalidCase{
            "interval string",
            withSourceConfig(R"({"name": "a", "kind": "ontap", "url": "https://a", "poll": {"config_seconds": "60"}})"),
            "poll.config_seconds must be a whole number >= 5"},
        InvalidCase{"poll not object",
                    withSourceConfig(R"({"name": "a", "kind": "ontap", "url": "https://a", "poll": 60})"),
                    "source \"a\": \"poll\" must be an object"},
        InvalidCase{"error names the right source",
                    R"({"sources": [{"name": "good", "kind": "ontap", "url": "https://a"},
                                    {"name": "bad", "kind": "ontap", "url": "gopher://b"}]})",
                    "source \"bad\": url"},
        InvalidCase{"azure without subscription",
                    withSourceConfig(R"({"name": "a", "kind": "azure", "credential_source": "azure_cli"})"),
                    "source \"a\": subscription_id: Enter the subscription id."},
        InvalidCase{"azure secret without tenant",
                    withSourceConfig(R"({"name": "a", "kind": "azure", "subscription_id": "s", "client_id": "c",
                                  "password": {"env": "X"}})"),
                    "source \"a\": tenant_id: Enter the tenant id."},
        InvalidCase{"azure secret without password",
                    withSourceConfig(R"({"name": "a", "kind": "azure", "subscription_id": "s", "tenant_id": "t",
                                  "client_id": "c"})"),
                    "source \"a\": password: Enter the client secret."},
        InvalidCase{"azure unknown credential source",
                    withSourceConfig(R"({"name": "a", "kind": "azure", "subscription_id": "s",
                                  "credential_source": "managed_identity"})"),
                    "source \"a\": unknown credential_source \"managed_identity\" (known: client_secret, azure_cli)"},
        InvalidCase{"azure authority not url",
                    withSourceConfig(R"({"name": "a", "kind": "azure", "subscription_id": "s",
                                  "credential_source": "azure_cli", "authority_url": "login"})"),
                    "source \"a\": authority_url: The authority URL must look like"},
        InvalidCase{"azure subscription not string",
                    withSourceConfig(R"({"name": "a", "kind": "azure", "subscription_id": 7})"),
                    "source \"a\": \"subscription_id\" must be a string"},
        InvalidCase{"kubeconfig in secret not bool",
                    withSourceConfig(R"({"name": "a", "kind": "kubernetes", "kubeconfig_in_secret": "yes"})"),
                    "source \"a\": \"kubeconfig_in_secret\" must be true or false"},
        InvalidCase{"kubeconfig in secret without password",
                    withSourceConfig(R"({"name": "a", "kind": "kubernetes", "kubeconfig_in_secret": true})"),
                    "source \"a\": \"kubeconfig_in_secret\" needs a \"password\" reference"},
        InvalidCase{"kubeconfig in secret and path",
                    withSourceConfig(R"({"name": "a", "kind": "kubernetes", "kubeconfig_in_secret": true,
                                  "kubeconfig": "/k", "password": {"keychain": "k"}})"),
                    "source \"a\": \"kubeconfig\" and \"kubeconfig_in_secret\" exclude each other"},
        InvalidCase{"kubeconfig in secret on ontap",
                    withSourceConfig(R"({"name": "a", "kind": "ontap", "url": "https://a", "kubeconfig_in_secret": true,
                                  "password": {"keychain": "k"}})"),
                    "source \"a\": \"kubeconfig_in_secret\" is only for kubernetes sources"},
        InvalidCase{"rate card not object", R"({"rate_card": 3})", "\"rate_card\" must be an object"},
        InvalidCase{"rate card negative price",
                    R"({"rate_card": {"anf_per_gib_month": {"Premium": -1}}})",
                    "rate_card.anf_per_gib_month.Premium must be a price >= 0"},
        InvalidCase{"history not object", R"({"history": []})", "\"history\" must be an object"},
        InvalidCase{"retention zero",
                    R"({"history": {"retention_days": 0}})",
                    "history.retention_days must be a whole number >= 1"},
        InvalidCase{"history path not string", R"({"history": {"path": 3}})", "history: \"path\" must be a string"}),
    [](const ::testing::TestParamInfo<InvalidCase> &info) {
        std::string name;
        for (const char c : std::string(info.param.label)) {
            name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
        }
        return name;
    });

TEST(AppConfig, DefaultPathHonoursStrataConfigElseGenericConfigLocation)
{
    qputenv("STRATA_CONFIG", "/etc/strata/custom.json");
    EXPECT_EQ(AppConfig::defaultPath(), QStringLiteral("/etc/strata/custom.json"));
    qunsetenv("STRATA_CONFIG");

    const QString expected =
        QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + QStringLiteral("/strata/config.json");
    EXPECT_EQ(AppConfig::defaultPath(), expected);

    // The folder is "strata" whatever the process calls itself.
    const QString oldName = QCoreApplication::applicationName();
    const QString oldOrganization = QCoreApplication::organizationName();
    QCoreApplication::setApplicationName(QStringLiteral("strata-server"));
    QCoreApplication::setOrganizationName(QStringLiteral("NetApp"));
    EXPECT_EQ(AppConfig::defaultPath(), expected);
    EXPECT_FALSE(AppConfig::defaultPath().contains(QLatin1String("strata-server")));
    EXPECT_FALSE(AppConfig::defaultPath().contains(QLatin1String("NetApp")));
    QCoreApplication::setApplicationName(oldName);
    QCoreApplication::setOrganizationName(oldOrganization);
}
