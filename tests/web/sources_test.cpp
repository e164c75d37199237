#include "webfixture.h"

#include "models/core/config.h"
#include "models/core/credentialstore.h"
#include "models/core/engine.h"

#include <QFile>
#include <QFileInfo>

#include <gtest/gtest.h>

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
    QString error;
    ASSERT_TRUE(core::AppConfig::load(configPath, &reloaded, &error)) << error.toStdString();
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
    ASSERT_TRUE(core::AppConfig::load(configPath, &reloaded, &error)) << error.toStdString();
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

} // namespace
