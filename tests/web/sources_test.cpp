#include "webfixture.h"

#include "models/core/runtime/engine.h"
#include "models/core/store/config.h"
#include "models/core/store/credentialstore.h"
#include "tests/support/qt/corestatus.h"

#include <QFile>
#include <QFileInfo>
#include <QTcpServer>

#include <gtest/gtest.h>

using strata::testsupport::succeeded;
using namespace strata;

namespace {

/// Sources managed from the web: the engine keeps its secrets in an EnvFileCredentialStore
/// under a temporary STRATA_SECRETS_DIR, as strata-server does, and starts with no source.
class SourcesApiTest : public testsupport::WebFixture
{
protected:
    std::unique_ptr<core::EnvFileCredentialStore> secrets;
    QString configPath;

    void SetUp() override
    {
        WebFixture::SetUp();
        engine.reset();
        secrets = std::make_unique<core::EnvFileCredentialStore>(dir.filePath(QStringLiteral("secrets")));
        engine = std::make_unique<core::Engine>(
            core::Engine::Deps{clock, *secrets, history.get(), QStringLiteral("strata-server")});
        configPath = dir.filePath(QStringLiteral("config.json"));
        QFile f(configPath);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(R"({"sources": [], "web": {"listen": "127.0.0.1:0"}})");
    }

    void TearDown() override
    {
        WebFixture::TearDown();
        secrets.reset();
    }

    [[nodiscard]] QJsonObject ontapBody(const QString &name) const
    {
        return QJsonObject{{QStringLiteral("name"), name},
                           {QStringLiteral("kind"), QStringLiteral("ontap")},
                           {QStringLiteral("url"), simulator->baseUrl()},
                           {QStringLiteral("username"), simulator->options().username},
                           {QStringLiteral("ca_file"), caFile},
                           {QStringLiteral("password"), simulator->options().password}};
    }

    /// The audit entries about source `name` that the server refused.
    QList<QJsonObject> refusedSourceChanges(const QString &name, const Login &admin)
    {
        QList<QJsonObject> out;
        const QJsonArray audit = get(QStringLiteral("/api/v1/audit?limit=50"), admin).json().array();
        for (const QJsonValue &v : audit) {
            const QJsonObject e = v.toObject();
            if (e.value(QLatin1String("target")).toString() == name
                && e.value(QLatin1String("outcome")).toString() == QLatin1String("refused")) {
                out << e;
            }
        }
        return out;
    }

    Reply del(const QString &path, const Login &login)
    {
        return request("DELETE", path, {}, {{"Cookie", login.cookie}, {"X-CSRF-Token", login.csrf}});
    }
};

TEST_F(SourcesApiTest, AdminAddsAndRemovesASourceWhoseSecretStaysOutOfRepliesAndTheAudit)
{
    web::WebServerOptions options;
    options.configPath = configPath;
    startServer(options);
    const Login admin = login(QStringLiteral("admin"));
    const QByteArray password = simulator->options().password.toUtf8();

    const Reply added = post(QStringLiteral("/api/v1/sources"), ontapBody(QStringLiteral("lab")), admin);
    ASSERT_EQ(added.status, 201) << added.body.toStdString();
    EXPECT_EQ(added.json().object().value(QLatin1String("name")).toString(), QStringLiteral("lab"));
    EXPECT_TRUE(added.json().object().value(QLatin1String("saved")).toBool());
    EXPECT_FALSE(added.body.contains(password));

    // The secret went to the store's file (0600), the config holds only a keychain ref.
    const QString secretFile = secrets->filePathFor(core::credentialKey(QStringLiteral("lab")));
    ASSERT_TRUE(QFile::exists(secretFile)) << secretFile.toStdString();
    EXPECT_EQ(QFileInfo(secretFile).permissions().toInt() & 0x0077, 0) << "group and others may not read it";
    QFile config(configPath);
    ASSERT_TRUE(config.open(QIODevice::ReadOnly));
    const QByteArray saved = config.readAll();
    EXPECT_FALSE(saved.contains(password));
    EXPECT_TRUE(saved.contains("strata/lab/password"));
    EXPECT_TRUE(saved.contains("\"web\"")) << "the other keys are kept";
    core::AppConfig reloaded;
    ASSERT_TRUE(succeeded(core::AppConfig::load(configPath, &reloaded)));
    ASSERT_EQ(reloaded.sources.size(), 1);

    // It polls with that password: healthy, with volumes.
    ASSERT_TRUE(waitFor([&] {
        const QJsonArray rows = get(QStringLiteral("/api/v1/sources"), admin).json().array();
        return rows.size() == 1
               && rows.at(0).toObject().value(QLatin1String("health")).toString() == QLatin1String("ok");
    })) << get(QStringLiteral("/api/v1/sources"), admin).body.toStdString();
    ASSERT_TRUE(waitFor([&] {
        return !get(QStringLiteral("/api/v1/volumes?source=lab"), admin).json().array().isEmpty();
    }));
    EXPECT_FALSE(get(QStringLiteral("/api/v1/sources"), admin).body.contains(password));

    // Replacing without a password keeps the stored one.
    QJsonObject again = ontapBody(QStringLiteral("lab"));
    again.remove(QStringLiteral("password"));
    const Reply replaced = post(QStringLiteral("/api/v1/sources"), again, admin);
    ASSERT_EQ(replaced.status, 200) << replaced.body.toStdString();
    ASSERT_EQ(engine->sourceConfigs().size(), 1);
    EXPECT_EQ(engine->sourceConfigs().first().password.value, QStringLiteral("strata/lab/password"));

    const Reply removed = del(QStringLiteral("/api/v1/sources/lab"), admin);
    ASSERT_EQ(removed.status, 200) << removed.body.toStdString();
    EXPECT_TRUE(engine->sourceConfigs().isEmpty());
    EXPECT_TRUE(get(QStringLiteral("/api/v1/volumes?source=lab"), admin).json().array().isEmpty());
    EXPECT_EQ(del(QStringLiteral("/api/v1/sources/lab"), admin).status, 404);
    EXPECT_TRUE(waitFor([&] {
        return !QFile::exists(secretFile);
    }));
    ASSERT_TRUE(succeeded(core::AppConfig::load(configPath, &reloaded)));
    EXPECT_TRUE(reloaded.sources.isEmpty());

    QJsonArray audit;
    ASSERT_TRUE(waitFor([&] {
        audit = get(QStringLiteral("/api/v1/audit?limit=20"), admin).json().array();
        return audit.size() >= 3;
    }));
    QStringList kinds;
    for (const QJsonValue &v : std::as_const(audit)) {
        const QJsonObject e = v.toObject();
        if (e.value(QLatin1String("target")).toString() == QLatin1String("lab")) {
            EXPECT_EQ(e.value(QLatin1String("user")).toString(), QStringLiteral("admin"));
            kinds << e.value(QLatin1String("action")).toString();
        }
    }
    kinds.sort();
    EXPECT_EQ(
        kinds,
        (QStringList{QStringLiteral("source.add"), QStringLiteral("source.remove"), QStringLiteral("source.replace")}));
    EXPECT_FALSE(get(QStringLiteral("/api/v1/audit?limit=20"), admin).body.contains(password));
}

TEST_F(SourcesApiTest, OnlyAdminsWithTheCsrfTokenChangeSourcesAndInvalidConfigsAreRefused)
{
    startServer();
    const Login admin = login(QStringLiteral("admin"));
    const Login op = login(QStringLiteral("operator"));
    EXPECT_EQ(post(QStringLiteral("/api/v1/sources"), ontapBody(QStringLiteral("lab")), op).status, 403);
    EXPECT_EQ(post(QStringLiteral("/api/v1/sources"), ontapBody(QStringLiteral("lab")), admin, false).status, 403);
    EXPECT_EQ(del(QStringLiteral("/api/v1/sources/lab"), op).status, 403);

    QJsonObject bad = ontapBody(QStringLiteral("lab"));
    bad.insert(QStringLiteral("kind"), QStringLiteral("netapp"));
    const Reply refused = post(QStringLiteral("/api/v1/sources"), bad, admin);
    EXPECT_EQ(refused.status, 400);
    EXPECT_TRUE(refused.json()
                    .object()
                    .value(QLatin1String("error"))
                    .toString()
                    .contains(QLatin1String("unknown kind \"netapp\"")))
        << refused.body.toStdString();
    EXPECT_FALSE(refused.body.contains(simulator->options().password.toUtf8()));
    EXPECT_TRUE(engine->sourceConfigs().isEmpty());
    EXPECT_FALSE(QFile::exists(secrets->filePathFor(core::credentialKey(QStringLiteral("lab")))));

    // Without a config file the change stays in memory and the reply says so.
    const Reply added = post(QStringLiteral("/api/v1/sources"), ontapBody(QStringLiteral("lab")), admin);
    ASSERT_EQ(added.status, 201) << added.body.toStdString();
    EXPECT_FALSE(added.json().object().value(QLatin1String("saved")).toBool(true));
    EXPECT_EQ(engine->sourceConfigs().size(), 1);
}

// Changing only the URL (and skipping TLS verification) sent the stored
// password to the new host.
TEST_F(SourcesApiTest, AChangedUrlNeedsThePasswordAgainAndNothingReachesTheNewHost)
{
    web::WebServerOptions options;
    options.configPath = configPath;
    startServer(options);
    const Login admin = login(QStringLiteral("admin"));
    ASSERT_EQ(post(QStringLiteral("/api/v1/sources"), ontapBody(QStringLiteral("lab")), admin).status, 201);

    // Where an attacker would point the source: a listener that counts connections.
    QTcpServer elsewhere;
    ASSERT_TRUE(elsewhere.listen(QHostAddress::LocalHost));
    int connections = 0;
    QObject::connect(&elsewhere, &QTcpServer::newConnection, &elsewhere, [&] {
        while (QTcpSocket *socket = elsewhere.nextPendingConnection()) {
            ++connections;
            socket->deleteLater();
        }
    });
    const QString evilUrl = QStringLiteral("http://127.0.0.1:%1").arg(elsewhere.serverPort());
    QJsonObject moved = ontapBody(QStringLiteral("lab"));
    moved.remove(QStringLiteral("password"));
    moved.remove(QStringLiteral("ca_file"));
    moved.insert(QStringLiteral("url"), evilUrl);
    moved.insert(QStringLiteral("insecure_skip_tls_verify"), true);

    const Reply refused = post(QStringLiteral("/api/v1/sources"), moved, admin);
    ASSERT_EQ(refused.status, 422) << refused.body.toStdString();
    const QJsonObject error = refused.json().object();
    EXPECT_EQ(error.value(QLatin1String("field")).toString(), QStringLiteral("password"));
    EXPECT_EQ(error.value(QLatin1String("error")).toString(),
              QStringLiteral("the url of lab now points at %1, so its password must be given again (a stored secret "
                             "never follows a changed endpoint or TLS setting)")
                  .arg(evilUrl));
    ASSERT_EQ(engine->sourceConfigs().size(), 1);
    EXPECT_EQ(engine->sourceConfigs().first().url, simulator->baseUrl());
    QFile config(configPath);
    ASSERT_TRUE(config.open(QIODevice::ReadOnly));
    EXPECT_FALSE(config.readAll().contains(evilUrl.toUtf8()));

    // Only the TLS setting changed: refused as well.
    QJsonObject insecure = ontapBody(QStringLiteral("lab"));
    insecure.remove(QStringLiteral("password"));
    insecure.insert(QStringLiteral("insecure_skip_tls_verify"), true);
    const Reply tls = post(QStringLiteral("/api/v1/sources"), insecure, admin);
    EXPECT_EQ(tls.status, 422) << tls.body.toStdString();
    EXPECT_EQ(tls.json().object().value(QLatin1String("field")).toString(), QStringLiteral("password"));

    QList<QJsonObject> audited;
    ASSERT_TRUE(waitFor([&] {
        audited = refusedSourceChanges(QStringLiteral("lab"), admin);
        return audited.size() >= 2;
    }));
    EXPECT_EQ(audited.first().value(QLatin1String("action")).toString(), QStringLiteral("source.replace"));
    EXPECT_EQ(audited.first().value(QLatin1String("user")).toString(), QStringLiteral("admin"));

    // Nothing went to the new host meanwhile.
    QEventLoop settle;
    QTimer::singleShot(1500, &settle, &QEventLoop::quit);
    settle.exec();
    EXPECT_EQ(connections, 0);

    // With the password given again the change is taken, and the source does poll the new host
    // (so the listener above would have seen a leak).
    moved.insert(QStringLiteral("password"), QStringLiteral("typed-again"));
    const Reply accepted = post(QStringLiteral("/api/v1/sources"), moved, admin);
    ASSERT_EQ(accepted.status, 200) << accepted.body.toStdString();
    EXPECT_EQ(engine->sourceConfigs().first().url, evilUrl);
    EXPECT_TRUE(waitFor([&] {
        return connections > 0;
    }));
}

TEST_F(SourcesApiTest, SecretReferencesAndServerCredentialsAreRefusedOverTheWeb)
{
    startServer();
    const Login admin = login(QStringLiteral("admin"));
    const auto expectRefused = [&](const QJsonObject &body, const QString &field) {
        const Reply r = post(QStringLiteral("/api/v1/sources"), body, admin);
        EXPECT_EQ(r.status, 422) << r.body.toStdString();
        EXPECT_EQ(r.json().object().value(QLatin1String("field")).toString(), field) << r.body.toStdString();
        return r.json().object().value(QLatin1String("error")).toString();
    };

    QJsonObject fromFile = ontapBody(QStringLiteral("probe"));
    fromFile.insert(QStringLiteral("password"), QJsonObject{{QStringLiteral("file"), QStringLiteral("/etc/hostname")}});
    EXPECT_EQ(expectRefused(fromFile, QStringLiteral("password")),
              QStringLiteral("password of source probe: give the secret itself; a source changed over the web keeps "
                             "its secrets in the server's secret store and cannot name a file, environment variable "
                             "or keychain entry"));
    QJsonObject fromEnv = ontapBody(QStringLiteral("probe"));
    fromEnv.insert(QStringLiteral("password"),
                   QJsonObject{{QStringLiteral("env"), QStringLiteral("STRATA_SECRET_LAB_PASSWORD")}});
    expectRefused(fromEnv, QStringLiteral("password"));
    QJsonObject otherKey = ontapBody(QStringLiteral("probe"));
    otherKey.insert(QStringLiteral("password"),
                    QJsonObject{{QStringLiteral("keychain"), core::credentialKey(QStringLiteral("ontap"))}});
    expectRefused(otherKey, QStringLiteral("password"));
    QJsonObject grid{
        {QStringLiteral("name"), QStringLiteral("probe")},
        {QStringLiteral("kind"), QStringLiteral("storagegrid")},
        {QStringLiteral("url"), QStringLiteral("https://admin.example")},
        {QStringLiteral("username"), QStringLiteral("root")},
        {QStringLiteral("password"), QStringLiteral("typed")},
        {QStringLiteral("s3_url"), QStringLiteral("https://s3.example")},
        {QStringLiteral("s3_access_key"), QStringLiteral("AKIA")},
        {QStringLiteral("dataset_roots"), QJsonArray{QStringLiteral("datasets/*")}},
        {QStringLiteral("s3_secret"), QJsonObject{{QStringLiteral("file"), QStringLiteral("/etc/shadow")}}}};
    expectRefused(grid, QStringLiteral("s3_secret"));

    // The server's own kubeconfig and Azure CLI login are credentials outside its secret store too.
    const QJsonObject kube{{QStringLiteral("name"), QStringLiteral("probe")},
                           {QStringLiteral("kind"), QStringLiteral("kubernetes")},
                           {QStringLiteral("kubeconfig"), QStringLiteral("/root/.kube/config")}};
    EXPECT_TRUE(expectRefused(kube, QStringLiteral("url")).contains(QLatin1String("kubeconfig file of the server")));
    const QJsonObject cli{{QStringLiteral("name"), QStringLiteral("probe")},
                          {QStringLiteral("kind"), QStringLiteral("azure")},
                          {QStringLiteral("subscription_id"), QStringLiteral("00000000-0000-0000-0000-000000000001")},
                          {QStringLiteral("credential_source"), QStringLiteral("azure_cli")},
                          {QStringLiteral("url"), QStringLiteral("https://arm.example")}};
    EXPECT_TRUE(expectRefused(cli, QStringLiteral("credential_source")).contains(QLatin1String("Azure CLI login")));

    EXPECT_TRUE(engine->sourceConfigs().isEmpty());
    QList<QJsonObject> audited;
    EXPECT_TRUE(waitFor([&] {
        audited = refusedSourceChanges(QStringLiteral("probe"), admin);
        return audited.size() == 6;
    })) << audited.size();
    for (const QJsonObject &e : std::as_const(audited)) {
        EXPECT_EQ(e.value(QLatin1String("action")).toString(), QStringLiteral("source.add"));
    }
}

// The web form shows the same sentences as the desktop dialog (SourceAdmin's), every
// refused field at once; tests/views/dialogs_test.cpp checks the dialog against the same text.
TEST_F(SourcesApiTest, BadInputGetsTheDialogsFieldMessagesForEveryField)
{
    startServer();
    const Login admin = login(QStringLiteral("admin"));
    const QJsonObject body{{QStringLiteral("name"), QStringLiteral("lab")},
                           {QStringLiteral("kind"), QStringLiteral("ontap")},
                           {QStringLiteral("url"), QStringLiteral("cluster1")}};
    const Reply refused = post(QStringLiteral("/api/v1/sources"), body, admin);
    ASSERT_EQ(refused.status, 422) << refused.body.toStdString();
    const QJsonObject reply = refused.json().object();
    EXPECT_EQ(reply.value(QLatin1String("field")).toString(), QStringLiteral("url"));
    EXPECT_EQ(reply.value(QLatin1String("error")).toString(),
              QStringLiteral("The URL must look like https://cluster-mgmt.example.com."));
    QStringList fields;
    QStringList messages;
    for (const QJsonValue &e : reply.value(QLatin1String("errors")).toArray()) {
        fields << e.toObject().value(QLatin1String("field")).toString();
        messages << e.toObject().value(QLatin1String("message")).toString();
    }
    EXPECT_EQ(fields, (QStringList{QStringLiteral("url"), QStringLiteral("username"), QStringLiteral("password")}));
    EXPECT_EQ(messages,
              (QStringList{QStringLiteral("The URL must look like https://cluster-mgmt.example.com."),
                           QStringLiteral("Enter a username."),
                           QStringLiteral("Enter the password.")}));
    EXPECT_TRUE(engine->sourceConfigs().isEmpty());
}

} // namespace
