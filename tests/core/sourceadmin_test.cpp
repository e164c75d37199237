// SourceAdmin: the source rules every front end shows, secrets on add/replace/remove, and the
// config file written atomically with its other keys kept.

#include "models/core/runtime/engine.h"
#include "models/core/runtime/sourceadmin.h"
#include "models/core/store/credentialstore.h"
#include "models/core/store/sourcerules.h"
#include "tests/support/qt/corestatus.h"
#include "tests/support/qt/manualclock.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <functional>
#include <optional>

using strata::testsupport::succeeded;
using namespace strata;
using core::Error;
using core::SecretRef;
using core::SourceAdmin;
using core::SourceConfig;
using core::SourceKind;

namespace {

SourceConfig sourceAdminOntap()
{
    SourceConfig c;
    c.name = QStringLiteral("lab");
    c.kind = SourceKind::Ontap;
    // Nothing listens there: the engine's poll fails fast and quietly.
    c.url = QStringLiteral("https://127.0.0.1:1");
    c.username = QStringLiteral("admin");
    c.password = SecretRef{SecretRef::Kind::Keychain, core::credentialKey(c.name)};
    return c;
}

SourceConfig sourceAdminGrid()
{
    SourceConfig c;
    c.name = QStringLiteral("lake");
    c.kind = SourceKind::StorageGrid;
    c.url = QStringLiteral("https://127.0.0.1:1");
    c.username = QStringLiteral("root");
    c.password = SecretRef{SecretRef::Kind::Env, QStringLiteral("GRID_PW")};
    c.s3Url = QStringLiteral("https://127.0.0.1:2");
    c.s3AccessKey = QStringLiteral("AK");
    c.s3Secret = SecretRef{SecretRef::Kind::Env, QStringLiteral("GRID_S3")};
    c.datasetRoots = {QStringLiteral("datasets/*")};
    return c;
}

SourceConfig sourceAdminAzure()
{
    SourceConfig c;
    c.name = QStringLiteral("az");
    c.kind = SourceKind::Azure;
    c.subscriptionId = QStringLiteral("00000000-0000-0000-0000-000000000001");
    c.tenantId = QStringLiteral("t");
    c.clientId = QStringLiteral("c");
    c.password = SecretRef{SecretRef::Kind::Env, QStringLiteral("AZ_SECRET")};
    return c;
}

SourceConfig sourceAdminKube()
{
    SourceConfig c;
    c.name = QStringLiteral("dgx");
    c.kind = SourceKind::Kubernetes;
    c.url = QStringLiteral("https://127.0.0.1:6443");
    c.password = SecretRef{SecretRef::Kind::Env, QStringLiteral("KUBE_TOKEN")};
    return c;
}

struct RuleCase
{
    const char *label;
    std::function<SourceConfig()> make;
    const char *field;
    const char *message;
    bool fileRule = true; ///< also refused when a config file is loaded
};

// Each rule alone: the valid source of its kind with one thing broken.
const RuleCase kSourceAdminRules[] = {
    {"empty name",
     [] {
         SourceConfig c = sourceAdminOntap();
         c.name.clear();
         return c;
     },
     "name",
     "Enter a name."},
    {"bad name",
     [] {
         SourceConfig c = sourceAdminOntap();
         c.name = QStringLiteral("a b");
         return c;
     },
     "name",
     "The name may only contain letters, digits, '.', '_' and '-'."},
    {"ontap url missing",
     [] {
         SourceConfig c = sourceAdminOntap();
         c.url.clear();
         return c;
     },
     "url",
     "Enter the URL of the cluster management interface."},
    {"ontap url malformed",
     [] {
         SourceConfig c = sourceAdminOntap();
         c.url = QStringLiteral("ftp://a");
         return c;
     },
     "url",
     "The URL must look like https://cluster-mgmt.example.com."},
    {"ontap username",
     [] {
         SourceConfig c = sourceAdminOntap();
         c.username.clear();
         return c;
     },
     "username",
     "Enter a username.",
     false},
    {"ontap password",
     [] {
         SourceConfig c = sourceAdminOntap();
         c.password = {};
         return c;
     },
     "password",
     "Enter the password.",
     false},
    {"kube url malformed",
     [] {
         SourceConfig c = sourceAdminKube();
         c.url = QStringLiteral("api:6443");
         return c;
     },
     "url",
     "The URL must look like https://api.cluster.example.com:6443."},
    {"kube token",
     [] {
         SourceConfig c = sourceAdminKube();
         c.password = {};
         return c;
     },
     "password",
     "Enter the bearer token.",
     false},
    {"kube prometheus",
     [] {
         SourceConfig c = sourceAdminKube();
         c.prometheusUrl = QStringLiteral("prom:9090");
         return c;
     },
     "prometheus_url",
     "The Prometheus URL must look like http://prometheus.monitoring:9090."},
    {"kubeconfig in secret without secret",
     [] {
         SourceConfig c = sourceAdminKube();
         c.url.clear();
         c.password = {};
         c.kubeconfigInSecret = true;
         return c;
     },
     "password",
     "\"kubeconfig_in_secret\" needs a \"password\" reference holding the kubeconfig"},
    {"kubeconfig in secret and a file",
     [] {
         SourceConfig c = sourceAdminKube();
         c.url.clear();
         c.kubeconfigInSecret = true;
         c.kubeconfig = QStringLiteral("/k");
         return c;
     },
     "kubeconfig",
     "\"kubeconfig\" and \"kubeconfig_in_secret\" exclude each other"},
    {"kubeconfig in secret on ontap",
     [] {
         SourceConfig c = sourceAdminOntap();
         c.kubeconfigInSecret = true;
         return c;
     },
     "kubeconfig_in_secret",
     "\"kubeconfig_in_secret\" is only for kubernetes sources"},
    {"azure subscription",
     [] {
         SourceConfig c = sourceAdminAzure();
         c.subscriptionId.clear();
         return c;
     },
     "subscription_id",
     "Enter the subscription id."},
    {"azure subscription guid",
     [] {
         SourceConfig c = sourceAdminAzure();
         c.subscriptionId = QStringLiteral("sub");
         return c;
     },
     "subscription_id",
     "The subscription id looks like 00000000-0000-0000-0000-000000000000.",
     false},
    {"azure credential source",
     [] {
         SourceConfig c = sourceAdminAzure();
         c.credentialSource = QStringLiteral("managed_identity");
         return c;
     },
     "credential_source",
     "unknown credential_source \"managed_identity\" (known: client_secret, azure_cli)"},
    {"azure tenant",
     [] {
         SourceConfig c = sourceAdminAzure();
         c.tenantId.clear();
         return c;
     },
     "tenant_id",
     "Enter the tenant id."},
    {"azure client id",
     [] {
         SourceConfig c = sourceAdminAzure();
         c.clientId.clear();
         return c;
     },
     "client_id",
     "Enter the client id of the service principal."},
    {"azure client secret",
     [] {
         SourceConfig c = sourceAdminAzure();
         c.password = {};
         return c;
     },
     "password",
     "Enter the client secret."},
    {"azure authority",
     [] {
         SourceConfig c = sourceAdminAzure();
         c.authorityUrl = QStringLiteral("login");
         return c;
     },
     "authority_url",
     "The authority URL must look like https://login.microsoftonline.com."},
    {"azure arm url",
     [] {
         SourceConfig c = sourceAdminAzure();
         c.url = QStringLiteral("management");
         return c;
     },
     "url",
     "The ARM URL must look like https://management.azure.com."},
    {"grid url missing",
     [] {
         SourceConfig c = sourceAdminGrid();
         c.url.clear();
         return c;
     },
     "url",
     "Enter the URL of the grid's admin node."},
    {"grid url malformed",
     [] {
         SourceConfig c = sourceAdminGrid();
         c.url = QStringLiteral("admin");
         return c;
     },
     "url",
     "The admin node URL must look like https://admin.datalake.example."},
    {"grid username",
     [] {
         SourceConfig c = sourceAdminGrid();
         c.username.clear();
         return c;
     },
     "username",
     "Enter the grid administrator's username."},
    {"grid password",
     [] {
         SourceConfig c = sourceAdminGrid();
         c.password = {};
         return c;
     },
     "password",
     "Enter the password."},
    {"grid roots without s3",
     [] {
         SourceConfig c = sourceAdminGrid();
         c.s3Url.clear();
         c.s3AccessKey.clear();
         c.s3Secret = {};
         return c;
     },
     "dataset_roots",
     "\"dataset_roots\" needs \"s3_url\" (the S3 endpoint holding the datasets)"},
    {"grid s3 url",
     [] {
         SourceConfig c = sourceAdminGrid();
         c.s3Url = QStringLiteral("s3:10443");
         return c;
     },
     "s3_url",
     "The S3 URL must look like https://s3.datalake.example:10443."},
    {"grid s3 access key",
     [] {
         SourceConfig c = sourceAdminGrid();
         c.s3AccessKey.clear();
         return c;
     },
     "s3_access_key",
     "Enter the S3 access key."},
    {"grid s3 secret",
     [] {
         SourceConfig c = sourceAdminGrid();
         c.s3Secret = {};
         return c;
     },
     "s3_secret",
     "Enter the S3 secret key."},
    {"grid no roots",
     [] {
         SourceConfig c = sourceAdminGrid();
         c.datasetRoots.clear();
         return c;
     },
     "dataset_roots",
     "Enter at least one dataset root, e.g. datasets/*.",
     false},
    {"grid bad root",
     [] {
         SourceConfig c = sourceAdminGrid();
         c.datasetRoots = {QStringLiteral("datasets/*"), QStringLiteral("lake/no-slash")};
         return c;
     },
     "dataset_roots",
     "lake/no-slash is not a dataset root: use bucket/*, bucket or bucket/prefix/."},
    {"s3 keys on ontap",
     [] {
         SourceConfig c = sourceAdminOntap();
         c.s3AccessKey = QStringLiteral("AK");
         return c;
     },
     "s3_url",
     "the s3_* keys are only for storagegrid sources"},
    {"dataset roots on azure",
     [] {
         SourceConfig c = sourceAdminAzure();
         c.datasetRoots = {QStringLiteral("b")};
         return c;
     },
     "dataset_roots",
     "\"dataset_roots\" is only for storagegrid and ontap sources"},
};

class SourceAdminRule : public ::testing::TestWithParam<RuleCase>
{
};

TEST(SourceAdminValidate, TheValidSourcesOfEveryKindPass)
{
    for (const SourceConfig &c : {sourceAdminOntap(), sourceAdminGrid(), sourceAdminAzure(), sourceAdminKube()}) {
        EXPECT_TRUE(validateSource(c).isEmpty()) << c.name.toStdString();
    }
    // A kubeconfig cluster and an `az login` subscription need no secret of Strata's.
    SourceConfig kubeconfig = sourceAdminKube();
    kubeconfig.url.clear();
    kubeconfig.password = {};
    EXPECT_TRUE(validateSource(kubeconfig).isEmpty());
    SourceConfig cli = sourceAdminAzure();
    cli.credentialSource = QStringLiteral("azure_cli");
    cli.clientId.clear();
    cli.password = {};
    EXPECT_TRUE(validateSource(cli).isEmpty());
}

TEST_P(SourceAdminRule, RefusesWithTheFieldAndItsSentence)
{
    const RuleCase &rule = GetParam();
    const QList<Error> errors = validateSource(rule.make());
    ASSERT_EQ(errors.size(), 1) << rule.label << ": " << (errors.isEmpty() ? "" : errors.last().message.toStdString());
    EXPECT_EQ(errors.first().field, QString::fromLatin1(rule.field)) << rule.label;
    EXPECT_EQ(errors.first().message, QString::fromUtf8(rule.message)) << rule.label;
    // Files written before a form rule existed keep loading.
    EXPECT_EQ(validateSource(rule.make(), SourceRules::File).size(), rule.fileRule ? 1 : 0) << rule.label;
}

INSTANTIATE_TEST_SUITE_P(EachRule, SourceAdminRule, ::testing::ValuesIn(kSourceAdminRules));

TEST(SourceAdminValidate, EditsNeedFreeNamesAndSecretsTypedAgainWhenTheyWouldGoElsewhere)
{
    core::SourceEdit add{sourceAdminOntap(), QStringLiteral("typed"), {}};
    add.config.password = {};
    EXPECT_TRUE(SourceAdmin::validateEdit(add, nullptr, {QStringLiteral("other")}).isEmpty());
    const QList<Error> taken = SourceAdmin::validateEdit(add, nullptr, {QStringLiteral("lab")});
    ASSERT_EQ(taken.size(), 1);
    EXPECT_EQ(taken.first(),
              (Error::invalid(QStringLiteral("name"), QStringLiteral("A source named lab already exists."))));

    const SourceConfig before = sourceAdminOntap();
    core::SourceEdit moved{before, {}, {}};
    moved.config.url = QStringLiteral("https://10.0.0.2");
    const QList<Error> reentry = SourceAdmin::validateEdit(moved, &before, {QStringLiteral("lab")});
    ASSERT_EQ(reentry.size(), 1);
    EXPECT_EQ(reentry.first().field, QStringLiteral("password"));
    EXPECT_EQ(reentry.first().message,
              QStringLiteral("the url of lab now points at https://10.0.0.2, so its password must be given again (a "
                             "stored secret never follows a changed endpoint or TLS setting)"));
    moved.password = QStringLiteral("typed-again");
    EXPECT_TRUE(SourceAdmin::validateEdit(moved, &before, {QStringLiteral("lab")}).isEmpty());

    // An ONTAP password is no StorageGRID password: another kind needs it typed again.
    SourceConfig grid = sourceAdminGrid();
    grid.name = before.name;
    grid.password = before.password;
    grid.s3Url.clear();
    grid.s3AccessKey.clear();
    grid.s3Secret = {};
    grid.datasetRoots.clear();
    grid.url = before.url;
    const QList<Error> kind = SourceAdmin::validateEdit({grid, {}, {}}, &before, {QStringLiteral("lab")});
    ASSERT_FALSE(kind.isEmpty());
    EXPECT_EQ(kind.first(), (Error::invalid(QStringLiteral("password"), QStringLiteral("Enter the password."))));
}

TEST(SourceAdminValidate, OverTheWebSecretsComeAsThemselvesAndServerCredentialsStayTheServers)
{
    core::SourceEdit fromFile{sourceAdminOntap(), {}, {}};
    fromFile.config.password = SecretRef{SecretRef::Kind::File, QStringLiteral("/etc/shadow")};
    EXPECT_TRUE(SourceAdmin::validateEdit(fromFile, nullptr, {}, false).isEmpty());
    const QList<Error> remote = SourceAdmin::validateEdit(fromFile, nullptr, {}, true);
    ASSERT_EQ(remote.size(), 1);
    EXPECT_EQ(remote.first().field, QStringLiteral("password"));
    EXPECT_TRUE(remote.first().message.startsWith(QStringLiteral("password of source lab: give the secret itself")));
    // The stored reference, unchanged, is fine.
    const SourceConfig stored = fromFile.config;
    EXPECT_TRUE(SourceAdmin::validateEdit(fromFile, &stored, {QStringLiteral("lab")}, true).isEmpty());

    SourceConfig kube = sourceAdminKube();
    kube.url.clear();
    kube.password = {};
    kube.kubeconfig = QStringLiteral("/root/.kube/config");
    const QList<Error> server = SourceAdmin::validateEdit({kube, {}, {}}, nullptr, {}, true);
    ASSERT_EQ(server.size(), 1);
    EXPECT_EQ(server.first().field, QStringLiteral("url"));
    EXPECT_TRUE(server.first().message.contains(QStringLiteral("kubeconfig file of the server")));
}

/// An engine with an in-memory secret store and a config file holding a "web" key.
class SourceAdminTest : public ::testing::Test
{
protected:
    QTemporaryDir dir;
    testsupport::ManualClock clock;
    core::InMemoryCredentialStore secrets;
    std::unique_ptr<core::Engine> engine;
    QString configPath;

    void SetUp() override
    {
        ASSERT_TRUE(dir.isValid());
        engine = std::make_unique<core::Engine>(core::Engine::Deps{clock, secrets, nullptr, QStringLiteral("test")});
        configPath = dir.filePath(QStringLiteral("config.json"));
        QFile f(configPath);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(R"({"sources": [], "web": {"listen": "127.0.0.1:0"}})");
    }

    void TearDown() override { engine.reset(); }

    SourceAdmin::Outcome run(const std::function<void(std::function<void(SourceAdmin::Outcome)>)> &call)
    {
        std::optional<SourceAdmin::Outcome> outcome;
        call([&outcome](SourceAdmin::Outcome o) {
            outcome = std::move(o);
        });
        EXPECT_TRUE(QTest::qWaitFor(
            [&outcome] {
                return outcome.has_value();
            },
            5000));
        return outcome.value_or(SourceAdmin::Outcome{});
    }

    QByteArray fileText() const
    {
        QFile f(configPath);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    static std::optional<QString> read(core::ICredentialStore &store, const QString &key)
    {
        std::optional<QString> value;
        bool done = false;
        store.read(key, [&](std::optional<QString> secret, const QString &) {
            value = std::move(secret);
            done = true;
        });
        EXPECT_TRUE(QTest::qWaitFor([&done] {
            return done;
        }));
        return value;
    }
};

TEST_F(SourceAdminTest, AddStoresTheSecretSavesOnlyItsReferenceAndKeepsTheOtherKeys)
{
    SourceAdmin admin(*engine, {configPath, false});
    core::SourceEdit edit{sourceAdminOntap(), QStringLiteral("hunter2"), {}};
    edit.config.password = {};
    const SourceAdmin::Outcome added = run([&](auto done) {
        admin.apply(edit, done);
    });
    ASSERT_TRUE(added.ok()) << added.error.toStdString();
    EXPECT_FALSE(added.replaced);
    EXPECT_TRUE(added.saved);
    EXPECT_EQ(read(secrets, core::credentialKey(QStringLiteral("lab"))), QStringLiteral("hunter2"));
    ASSERT_EQ(engine->sourceConfigs().size(), 1);
    EXPECT_EQ(engine->sourceConfigs().first().password.value, QStringLiteral("strata/lab/password"));

    const QByteArray text = fileText();
    EXPECT_FALSE(text.contains("hunter2"));
    EXPECT_TRUE(text.contains("strata/lab/password"));
    EXPECT_EQ(
        QJsonDocument::fromJson(text).object().value(QLatin1String("web")).toObject().value(QLatin1String("listen")),
        QStringLiteral("127.0.0.1:0"));
    EXPECT_EQ(QFileInfo(configPath).permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther), 0);
    core::AppConfig reloaded;
    QString error;
    ASSERT_TRUE(succeeded(core::AppConfig::load(configPath, &reloaded)));
    EXPECT_EQ(reloaded.sources, engine->sourceConfigs());

    // Refused input changes nothing and says which field.
    core::SourceEdit bad{sourceAdminOntap(), {}, {}};
    bad.config.url = QStringLiteral("https://10.9.9.9");
    const SourceAdmin::Outcome refused = run([&](auto done) {
        admin.apply(bad, done);
    });
    EXPECT_EQ(refused.status, SourceAdmin::Status::Invalid);
    ASSERT_EQ(refused.fieldErrors.size(), 1);
    EXPECT_EQ(refused.fieldErrors.first().field, QStringLiteral("password"));
    EXPECT_EQ(fileText(), text);
    EXPECT_EQ(engine->sourceConfigs().first().url, sourceAdminOntap().url);
}

TEST_F(SourceAdminTest, AChangeTheFileCouldNotLoadIsRefusedAndTheFileStaysAsItWas)
{
    // A cache target on `dgx`: removing the cluster would leave a file that does not load.
    QFile f(configPath);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(R"({"sources": [{"name": "dgx", "kind": "kubernetes", "url": "https://127.0.0.1:6443",
        "password": {"env": "KUBE_TOKEN"}}],
        "cache_targets": [{"name": "c1", "kubernetes_source": "dgx", "namespace": "ns", "pvc": "p"}]})");
    f.close();
    const QByteArray before = fileText();
    engine->setSources({sourceAdminKube()});
    SourceAdmin admin(*engine, {configPath, false});
    const SourceAdmin::Outcome refused = run([&](auto done) {
        admin.remove(QStringLiteral("dgx"), done);
    });
    EXPECT_EQ(refused.status, SourceAdmin::Status::Conflict);
    EXPECT_TRUE(refused.error.contains(QStringLiteral("kubernetes_source"))) << refused.error.toStdString();
    EXPECT_EQ(fileText(), before);
    EXPECT_EQ(engine->sourceConfigs().size(), 1);
    // Nothing half-written is left next to it (QSaveFile writes a temporary file, then renames).
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("config.json")});
}

TEST_F(SourceAdminTest, RemoveDeletesTheSecretsStrataStoredButNotTheAdminsReferences)
{
    secrets.set(core::credentialKey(QStringLiteral("lab")), QStringLiteral("hunter2"));
    secrets.set(QStringLiteral("shared/password"), QStringLiteral("kept"));
    SourceConfig other = sourceAdminOntap();
    other.name = QStringLiteral("other");
    other.password = SecretRef{SecretRef::Kind::Keychain, QStringLiteral("shared/password")};
    engine->setSources({sourceAdminOntap(), other});
    SourceAdmin admin(*engine, {configPath, false});

    const SourceAdmin::Outcome removed = run([&](auto done) {
        admin.remove(QStringLiteral("lab"), done);
    });
    ASSERT_TRUE(removed.ok()) << removed.error.toStdString();
    EXPECT_TRUE(removed.saved);
    EXPECT_FALSE(secrets.contains(core::credentialKey(QStringLiteral("lab"))));
    const SourceAdmin::Outcome removedOther = run([&](auto done) {
        admin.remove(QStringLiteral("other"), done);
    });
    ASSERT_TRUE(removedOther.ok());
    EXPECT_TRUE(secrets.contains(QStringLiteral("shared/password")));
    EXPECT_TRUE(engine->sourceConfigs().isEmpty());
    EXPECT_EQ(run([&](auto done) {
                  admin.remove(QStringLiteral("lab"), done);
              }).status,
              SourceAdmin::Status::NotFound);
}

} // namespace
