#include "models/core/store/credentialstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <optional>

using namespace strata::core;

namespace {

constexpr int kTimeoutMs = 5000;

/// Records one ReadCallback and whether it already ran.
struct ReadResult
{
    bool called = false;
    std::optional<QString> secret;
    QString error;

    ICredentialStore::ReadCallback callback()
    {
        return [this](std::optional<QString> s, QString e) {
            called = true;
            secret = std::move(s);
            error = std::move(e);
        };
    }
    bool wait()
    {
        return QTest::qWaitFor(
            [this] {
                return called;
            },
            kTimeoutMs);
    }
};

/// Records one DoneCallback.
struct DoneResult
{
    bool called = false;
    QString error;

    ICredentialStore::DoneCallback callback()
    {
        return [this](QString e) {
            called = true;
            error = std::move(e);
        };
    }
    bool wait()
    {
        return QTest::qWaitFor(
            [this] {
                return called;
            },
            kTimeoutMs);
    }
};

/// Sets (or unsets) an environment variable for one scope.
class ScopedEnv
{
public:
    ScopedEnv(const char *name, std::optional<QByteArray> value)
        : m_name(name)
        , m_old(qEnvironmentVariableIsSet(name) ? std::optional<QByteArray>(qgetenv(name)) : std::nullopt)
    {
        value ? qputenv(name, *value) : qunsetenv(name);
    }
    ~ScopedEnv() { m_old ? qputenv(m_name, *m_old) : qunsetenv(m_name); }
    ScopedEnv(const ScopedEnv &) = delete;
    ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
    const char *m_name;
    std::optional<QByteArray> m_old;
};

void writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly)) << path.toStdString();
    file.write(content);
}

QByteArray readFileCredentialstore(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

constexpr auto kOwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
constexpr auto kAllPermissionBits = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                    | QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ExeGroup
                                    | QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther;

QFileDevice::Permissions unixMode(const QString &path)
{
    return QFileInfo(path).permissions() & kAllPermissionBits;
}

} // namespace

TEST(CredentialKey, DefaultsToPasswordKind)
{
    EXPECT_EQ(credentialKey(QStringLiteral("ontap-ai")), QStringLiteral("strata/ontap-ai/password"));
    EXPECT_EQ(credentialKey(QStringLiteral("grid"), QStringLiteral("token")), QStringLiteral("strata/grid/token"));
}

// ---------------------------------------------------------------------------------------------

TEST(InMemoryCredentialStore, WriteReadRemove_CallbacksRunFromEventLoop)
{
    InMemoryCredentialStore store;
    EXPECT_EQ(store.backendName(), QStringLiteral("memory"));

    DoneResult written;
    store.write(QStringLiteral("strata/a/password"), QStringLiteral("s3cret"), written.callback());
    EXPECT_FALSE(written.called) << "callback must not run inside write()";
    ASSERT_TRUE(written.wait());
    EXPECT_TRUE(written.error.isEmpty());
    EXPECT_TRUE(store.contains(QStringLiteral("strata/a/password")));

    ReadResult read;
    store.read(QStringLiteral("strata/a/password"), read.callback());
    EXPECT_FALSE(read.called) << "callback must not run inside read()";
    ASSERT_TRUE(read.wait());
    ASSERT_TRUE(read.secret.has_value());
    EXPECT_EQ(*read.secret, QStringLiteral("s3cret"));
    EXPECT_TRUE(read.error.isEmpty());

    DoneResult removed;
    store.remove(QStringLiteral("strata/a/password"), removed.callback());
    EXPECT_FALSE(removed.called) << "callback must not run inside remove()";
    ASSERT_TRUE(removed.wait());
    EXPECT_TRUE(removed.error.isEmpty());
    EXPECT_FALSE(store.contains(QStringLiteral("strata/a/password")));

    ReadResult missing;
    store.read(QStringLiteral("strata/a/password"), missing.callback());
    ASSERT_TRUE(missing.wait());
    EXPECT_FALSE(missing.secret.has_value());
    EXPECT_TRUE(missing.error.isEmpty()) << "a missing key is not an error";
}

TEST(InMemoryCredentialStore, SetSeedsSynchronously_AndCallbacksKeepCallOrder)
{
    InMemoryCredentialStore store;
    store.set(QStringLiteral("k"), QStringLiteral("one"));
    EXPECT_TRUE(store.contains(QStringLiteral("k")));

    QStringList order;
    store.read(QStringLiteral("k"), [&order](std::optional<QString> s, QString) {
        order << s.value_or(QStringLiteral("-"));
    });
    store.write(QStringLiteral("k"), QStringLiteral("two"), [&order](QString) {
        order << QStringLiteral("w");
    });
    store.read(QStringLiteral("k"), [&order](std::optional<QString> s, QString) {
        order << s.value_or(QStringLiteral("-"));
    });
    EXPECT_TRUE(order.isEmpty());
    ASSERT_TRUE(QTest::qWaitFor(
        [&order] {
            return order.size() == 3;
        },
        kTimeoutMs));
    EXPECT_EQ(order, (QStringList{QStringLiteral("one"), QStringLiteral("w"), QStringLiteral("two")}));
}

TEST(InMemoryCredentialStore, EmptyCallbacksAreAllowed)
{
    InMemoryCredentialStore store;
    store.write(QStringLiteral("k"), QStringLiteral("v"), {});
    store.read(QStringLiteral("k"), {});
    store.remove(QStringLiteral("k"), {});
    QCoreApplication::processEvents();
    EXPECT_FALSE(store.contains(QStringLiteral("k")));
}

// ---------------------------------------------------------------------------------------------

TEST(EnvFileCredentialStore, EnvironmentVariableNaming)
{
    EXPECT_EQ(EnvFileCredentialStore::environmentVariableFor(QStringLiteral("strata/ontap-ai/password")),
              QStringLiteral("STRATA_SECRET_ONTAP_AI_PASSWORD"));
    EXPECT_EQ(EnvFileCredentialStore::environmentVariableFor(
                  credentialKey(QStringLiteral("My.Src_1"), QStringLiteral("api-token"))),
              QStringLiteral("STRATA_SECRET_MY_SRC_1_API_TOKEN"));
    // Non-ASCII letters are not portable in variable names either.
    EXPECT_EQ(EnvFileCredentialStore::environmentVariableFor(QStringLiteral("strata/caf\u00e9/password")),
              QStringLiteral("STRATA_SECRET_CAF__PASSWORD"));
}

TEST(EnvFileCredentialStore, ReadsEnvironmentFirst_ThenFile)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    writeFile(dir.filePath(QStringLiteral("envtest/password")), "from-file\n");
    EnvFileCredentialStore store(dir.path());
    EXPECT_EQ(store.backendName(), QStringLiteral("env/file"));
    const QString key = credentialKey(QStringLiteral("envtest"));

    {
        ScopedEnv env("STRATA_SECRET_ENVTEST_PASSWORD", QByteArray("from-env"));
        ReadResult read;
        store.read(key, read.callback());
        EXPECT_FALSE(read.called);
        ASSERT_TRUE(read.wait());
        ASSERT_TRUE(read.secret.has_value());
        EXPECT_EQ(*read.secret, QStringLiteral("from-env"));
    }
    {
        ScopedEnv env("STRATA_SECRET_ENVTEST_PASSWORD", std::nullopt);
        ReadResult read;
        store.read(key, read.callback());
        EXPECT_FALSE(read.called);
        ASSERT_TRUE(read.wait());
        ASSERT_TRUE(read.secret.has_value());
        EXPECT_EQ(*read.secret, QStringLiteral("from-file")) << "one trailing newline is dropped";
        EXPECT_TRUE(read.error.isEmpty());
    }
}

TEST(EnvFileCredentialStore, MissingEverywhere_IsNotFoundWithoutError)
{
    QTemporaryDir dir;
    EnvFileCredentialStore store(dir.path());
    ScopedEnv env("STRATA_SECRET_NOWHERE_PASSWORD", std::nullopt);
    ReadResult read;
    store.read(credentialKey(QStringLiteral("nowhere")), read.callback());
    ASSERT_TRUE(read.wait());
    EXPECT_FALSE(read.secret.has_value());
    EXPECT_TRUE(read.error.isEmpty());
}

TEST(EnvFileCredentialStore, UsesStrataSecretsDirWhenNoDirGiven)
{
    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("mounted/password")), "k8s-secret");
    ScopedEnv secretsDir("STRATA_SECRETS_DIR", dir.path().toLocal8Bit());
    ScopedEnv variable("STRATA_SECRET_MOUNTED_PASSWORD", std::nullopt);
    EnvFileCredentialStore store;
    EXPECT_EQ(store.secretsDir(), QDir(dir.path()).absolutePath());
    ReadResult read;
    store.read(credentialKey(QStringLiteral("mounted")), read.callback());
    ASSERT_TRUE(read.wait());
    EXPECT_EQ(read.secret.value_or(QString()), QStringLiteral("k8s-secret"));
}

TEST(EnvFileCredentialStore, FlatSourceDotKindFile_ForSystemdCredentials)
{
    // LoadCredential=ontap-ai.password:... puts the file at $CREDENTIALS_DIRECTORY/ontap-ai.password.
    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("flat-src.password")), "from-systemd\n");
    writeFile(dir.filePath(QStringLiteral("both/password")), "nested-wins");
    writeFile(dir.filePath(QStringLiteral("both.password")), "flat-loses");
    ScopedEnv flatVariable("STRATA_SECRET_FLAT_SRC_PASSWORD", std::nullopt);
    ScopedEnv bothVariable("STRATA_SECRET_BOTH_PASSWORD", std::nullopt);
    EnvFileCredentialStore store(dir.path());
    ReadResult flat;
    store.read(credentialKey(QStringLiteral("flat-src")), flat.callback());
    ASSERT_TRUE(flat.wait());
    EXPECT_EQ(flat.secret.value_or(QString()), QStringLiteral("from-systemd"));
    EXPECT_TRUE(flat.error.isEmpty());
    ReadResult both;
    store.read(credentialKey(QStringLiteral("both")), both.callback());
    ASSERT_TRUE(both.wait());
    EXPECT_EQ(both.secret.value_or(QString()), QStringLiteral("nested-wins"));
    // Neither form: not found, no error.
    ReadResult none;
    store.read(credentialKey(QStringLiteral("flat-src"), QStringLiteral("token")), none.callback());
    ASSERT_TRUE(none.wait());
    EXPECT_FALSE(none.secret.has_value());
    EXPECT_TRUE(none.error.isEmpty());
}

TEST(EnvFileCredentialStore, WriteCreatesOwnerOnlyFile_OverwriteAndRemove)
{
    QTemporaryDir dir;
    EnvFileCredentialStore store(dir.path());
    const QString key = credentialKey(QStringLiteral("writer"));
    const QString path = dir.filePath(QStringLiteral("writer/password"));
    EXPECT_EQ(store.filePathFor(key), path);
    ScopedEnv env("STRATA_SECRET_WRITER_PASSWORD", std::nullopt);

    DoneResult written;
    store.write(key, QStringLiteral("first"), written.callback());
    EXPECT_FALSE(written.called) << "callback must not run inside write()";
    ASSERT_TRUE(written.wait());
    ASSERT_TRUE(written.error.isEmpty()) << written.error.toStdString();
    EXPECT_EQ(readFileCredentialstore(path), QByteArray("first"));
    EXPECT_EQ(unixMode(path), kOwnerOnly);

    // An existing, too-open file is tightened on overwrite.
    QFile::setPermissions(path, kOwnerOnly | QFileDevice::ReadGroup | QFileDevice::ReadOther);
    DoneResult overwritten;
    store.write(key, QStringLiteral("second"), overwritten.callback());
    ASSERT_TRUE(overwritten.wait());
    EXPECT_TRUE(overwritten.error.isEmpty());
    EXPECT_EQ(readFileCredentialstore(path), QByteArray("second"));
    EXPECT_EQ(unixMode(path), kOwnerOnly);

    ReadResult read;
    store.read(key, read.callback());
    ASSERT_TRUE(read.wait());
    EXPECT_EQ(read.secret.value_or(QString()), QStringLiteral("second"));

    DoneResult removed;
    store.remove(key, removed.callback());
    EXPECT_FALSE(removed.called);
    ASSERT_TRUE(removed.wait());
    EXPECT_TRUE(removed.error.isEmpty());
    EXPECT_FALSE(QFile::exists(path));

    ReadResult gone;
    store.read(key, gone.callback());
    ASSERT_TRUE(gone.wait());
    EXPECT_FALSE(gone.secret.has_value());
    EXPECT_TRUE(gone.error.isEmpty());

    DoneResult removedAgain;
    store.remove(key, removedAgain.callback());
    ASSERT_TRUE(removedAgain.wait());
    EXPECT_TRUE(removedAgain.error.isEmpty()) << "removing a missing secret succeeds";
}

TEST(EnvFileCredentialStore, WriteWithoutDirectory_FailsWithClearError)
{
    ScopedEnv secretsDir("STRATA_SECRETS_DIR", std::nullopt);
    EnvFileCredentialStore store;
    EXPECT_TRUE(store.secretsDir().isEmpty());
    DoneResult written;
    store.write(credentialKey(QStringLiteral("x")), QStringLiteral("never-stored"), written.callback());
    EXPECT_FALSE(written.called);
    ASSERT_TRUE(written.wait());
    EXPECT_TRUE(written.error.contains(QLatin1String("STRATA_SECRETS_DIR"))) << written.error.toStdString();
    EXPECT_FALSE(written.error.contains(QLatin1String("never-stored")));

    DoneResult removed;
    store.remove(credentialKey(QStringLiteral("x")), removed.callback());
    ASSERT_TRUE(removed.wait());
    EXPECT_FALSE(removed.error.isEmpty());
}

TEST(EnvFileCredentialStore, RefusesToWriteOutsideItsDirectory)
{
    QTemporaryDir root;
    const QString secrets = root.filePath(QStringLiteral("secrets"));
    ASSERT_TRUE(QDir().mkpath(secrets));
    EnvFileCredentialStore store(secrets);

    for (const QString &key : {QStringLiteral("strata/../escaped/password"),
                               QStringLiteral("strata/a/../../escaped"),
                               QStringLiteral("/tmp/escaped"),
                               QStringLiteral("strata//password"),
                               QStringLiteral("strata/")}) {
        EXPECT_TRUE(store.filePathFor(key).isEmpty()) << key.toStdString();
        DoneResult written;
        store.write(key, QStringLiteral("x"), written.callback());
        ASSERT_TRUE(written.wait());
        EXPECT_FALSE(written.error.isEmpty()) << key.toStdString();
    }
    EXPECT_FALSE(QFileInfo::exists(root.filePath(QStringLiteral("escaped"))));

    // A symlink planted inside the directory must not redirect the write.
    const QString outside = root.filePath(QStringLiteral("outside"));
    ASSERT_TRUE(QDir().mkpath(outside));
    ASSERT_TRUE(QFile::link(outside, secrets + QStringLiteral("/linked")));
    DoneResult viaLink;
    store.write(credentialKey(QStringLiteral("linked")), QStringLiteral("x"), viaLink.callback());
    ASSERT_TRUE(viaLink.wait());
    EXPECT_FALSE(viaLink.error.isEmpty());
    EXPECT_FALSE(QFileInfo::exists(outside + QStringLiteral("/password")));
}

// ---------------------------------------------------------------------------------------------

TEST(ResolveSecret, Env)
{
    InMemoryCredentialStore store;
    ScopedEnv env("STRATA_TEST_RESOLVE_ENV", QByteArray("env-secret"));
    ReadResult read;
    resolveSecret(SecretRef{SecretRef::Kind::Env, QStringLiteral("STRATA_TEST_RESOLVE_ENV")}, store, read.callback());
    EXPECT_FALSE(read.called) << "resolveSecret must call back from the event loop";
    ASSERT_TRUE(read.wait());
    EXPECT_EQ(read.secret.value_or(QString()), QStringLiteral("env-secret"));
    EXPECT_TRUE(read.error.isEmpty());
}

TEST(ResolveSecret, MissingEnv_IsAnErrorNamingTheVariable)
{
    InMemoryCredentialStore store;
    ScopedEnv env("STRATA_TEST_RESOLVE_MISSING", std::nullopt);
    ReadResult read;
    resolveSecret(
        SecretRef{SecretRef::Kind::Env, QStringLiteral("STRATA_TEST_RESOLVE_MISSING")}, store, read.callback());
    EXPECT_FALSE(read.called);
    ASSERT_TRUE(read.wait());
    EXPECT_FALSE(read.secret.has_value());
    EXPECT_EQ(read.error, QStringLiteral("environment variable STRATA_TEST_RESOLVE_MISSING is not set"));
}

TEST(ResolveSecret, File_DropsExactlyOneTrailingNewline)
{
    QTemporaryDir dir;
    InMemoryCredentialStore store;
    const struct
    {
        QByteArray content;
        QString expected;
    } cases[] = {
        {"plain", QStringLiteral("plain")},
        {"echoed\n", QStringLiteral("echoed")},
        {"crlf\r\n", QStringLiteral("crlf")},
        {"two\n\n", QStringLiteral("two\n")},
        {" spaced \n", QStringLiteral(" spaced ")},
    };
    int i = 0;
    for (const auto &c : cases) {
        const QString path = dir.filePath(QStringLiteral("secret%1").arg(i++));
        writeFile(path, c.content);
        ReadResult read;
        resolveSecret(SecretRef{SecretRef::Kind::File, path}, store, read.callback());
        EXPECT_FALSE(read.called);
        ASSERT_TRUE(read.wait());
        EXPECT_EQ(read.secret.value_or(QStringLiteral("<none>")), c.expected) << c.content.toStdString();
        EXPECT_TRUE(read.error.isEmpty());
    }
}

TEST(ResolveSecret, MissingFile_IsAnErrorNamingTheFile)
{
    QTemporaryDir dir;
    InMemoryCredentialStore store;
    const QString path = dir.filePath(QStringLiteral("absent"));
    ReadResult read;
    resolveSecret(SecretRef{SecretRef::Kind::File, path}, store, read.callback());
    ASSERT_TRUE(read.wait());
    EXPECT_FALSE(read.secret.has_value());
    EXPECT_TRUE(read.error.contains(path)) << read.error.toStdString();
}

TEST(ResolveSecret, Keychain_GoesThroughTheStore)
{
    InMemoryCredentialStore store;
    store.set(QStringLiteral("strata/ontap-ai/password"), QStringLiteral("kc-secret"));

    ReadResult found;
    resolveSecret(
        SecretRef{SecretRef::Kind::Keychain, QStringLiteral("strata/ontap-ai/password")}, store, found.callback());
    EXPECT_FALSE(found.called);
    ASSERT_TRUE(found.wait());
    EXPECT_EQ(found.secret.value_or(QString()), QStringLiteral("kc-secret"));

    ReadResult missing;
    resolveSecret(
        SecretRef{SecretRef::Kind::Keychain, QStringLiteral("strata/other/password")}, store, missing.callback());
    ASSERT_TRUE(missing.wait());
    EXPECT_FALSE(missing.secret.has_value());
    EXPECT_TRUE(missing.error.isEmpty());
}

TEST(ResolveSecret, None_IsNoSecretWithoutError)
{
    InMemoryCredentialStore store;
    ReadResult read;
    resolveSecret(SecretRef{}, store, read.callback());
    EXPECT_FALSE(read.called);
    ASSERT_TRUE(read.wait());
    EXPECT_FALSE(read.secret.has_value());
    EXPECT_TRUE(read.error.isEmpty());
}
