// KeychainCredentialStore against a real Secret Service. Run through with-keyring.sh (CTest does),
// which provides a private D-Bus session and a throwaway unlocked gnome-keyring in a temporary
// HOME; run directly, the tests skip rather than touch the developer's own keyring.

#include "app/desktop/keychaincredentialstore.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>
#include <QUuid>

#include <gtest/gtest.h>

#include <optional>

using strata::core::credentialKey;
using strata::core::ICredentialStore;
using strata::desktop::KeychainCredentialStore;

namespace {

constexpr int kTimeoutMs = 20000;

/// Runs the event loop until `done()` holds or `timeoutMs` passes (keychain_tests has no QtTest).
template <typename Predicate> bool waitFor(Predicate done, int timeoutMs = kTimeoutMs)
{
    if (done()) {
        return true;
    }
    QEventLoop loop;
    QElapsedTimer elapsed;
    elapsed.start();
    QTimer check;
    check.setInterval(5);
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        if (done() || elapsed.hasExpired(timeoutMs)) {
            loop.quit();
        }
    });
    check.start();
    loop.exec();
    return done();
}

struct ReadResult
{
    bool called = false;
    std::optional<QString> secret;
    QString error;
};

struct DoneResult
{
    bool called = false;
    QString error;
};

ReadResult readSync(ICredentialStore &store, const QString &key)
{
    ReadResult result;
    store.read(key, [&result](std::optional<QString> secret, QString error) {
        result.called = true;
        result.secret = std::move(secret);
        result.error = std::move(error);
    });
    EXPECT_FALSE(result.called) << "read() must call back from the event loop";
    EXPECT_TRUE(waitFor([&result] {
        return result.called;
    })) << "read timed out";
    return result;
}

DoneResult writeSync(ICredentialStore &store, const QString &key, const QString &secret)
{
    DoneResult result;
    store.write(key, secret, [&result](QString error) {
        result.called = true;
        result.error = std::move(error);
    });
    EXPECT_FALSE(result.called) << "write() must call back from the event loop";
    EXPECT_TRUE(waitFor([&result] {
        return result.called;
    })) << "write timed out";
    return result;
}

DoneResult removeSync(ICredentialStore &store, const QString &key)
{
    DoneResult result;
    store.remove(key, [&result](QString error) {
        result.called = true;
        result.error = std::move(error);
    });
    EXPECT_FALSE(result.called) << "remove() must call back from the event loop";
    EXPECT_TRUE(waitFor([&result] {
        return result.called;
    })) << "remove timed out";
    return result;
}

/// Every file under `root` containing `needle` (UTF-8 or UTF-16), i.e. stored in plain text.
QStringList filesContaining(const QString &root, const QString &needle)
{
    const QByteArray utf8 = needle.toUtf8();
    const QByteArray utf16(reinterpret_cast<const char *>(needle.utf16()), needle.size() * 2);
    QStringList hits;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            continue; // sockets and the like
        }
        const QByteArray content = file.readAll();
        if (content.contains(utf8) || content.contains(utf16)) {
            hits << path;
        }
    }
    return hits;
}

/// `secret-tool lookup` for QtKeychain's libsecret schema (attributes "server" = service,
/// "user" = key); nullopt when secret-tool is missing or finds nothing.
std::optional<QString> secretToolLookup(const QString &service, const QString &key)
{
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("secret-tool"));
    if (tool.isEmpty()) {
        return std::nullopt;
    }
    QProcess process;
    process.start(tool, {QStringLiteral("lookup"), QStringLiteral("server"), service, QStringLiteral("user"), key});
    if (!process.waitForFinished(kTimeoutMs) || process.exitCode() != 0) {
        return std::nullopt;
    }
    return QString::fromUtf8(process.readAllStandardOutput());
}

class KeychainCredentialStoreTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        const bool required = qEnvironmentVariableIsSet("STRATA_REQUIRE_ALL");
        QString reason;
        if (qEnvironmentVariableIsSet("STRATA_KEYRING_UNAVAILABLE")) {
            reason = QStringLiteral("no keyring: ") + qEnvironmentVariable("STRATA_KEYRING_UNAVAILABLE");
        } else if (qEnvironmentVariable("STRATA_KEYRING_WRAPPED") != QLatin1String("1")) {
            reason = QStringLiteral("run through tests/keychain/with-keyring.sh (ctest -R keychain), which uses a "
                                    "throwaway keyring instead of yours");
        }
        if (!reason.isEmpty()) {
            if (required) {
                FAIL() << reason.toStdString() << " (STRATA_REQUIRE_ALL is set)";
            }
            GTEST_SKIP() << reason.toStdString();
        }
        m_home = qEnvironmentVariable("HOME");
        ASSERT_FALSE(m_home.isEmpty());
    }

    QString m_home;
};

} // namespace

TEST_F(KeychainCredentialStoreTest, WriteReadOverwriteDeleteReread)
{
    KeychainCredentialStore store;
    EXPECT_EQ(store.backendName(), QStringLiteral("keychain"));
    EXPECT_EQ(store.service(), QStringLiteral("strata"));

    const QString key = credentialKey(QStringLiteral("keychain-test"));
    // Unique, so a hit in a file can only come from this run.
    const QString first = QStringLiteral("first-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
    const QString second = QStringLiteral("second-") + QUuid::createUuid().toString(QUuid::WithoutBraces);

    const ReadResult before = readSync(store, key);
    EXPECT_FALSE(before.secret.has_value());
    EXPECT_TRUE(before.error.isEmpty()) << "EntryNotFound is not an error: " << before.error.toStdString();

    const DoneResult written = writeSync(store, key, first);
    ASSERT_TRUE(written.error.isEmpty()) << written.error.toStdString();
    const ReadResult readFirst = readSync(store, key);
    ASSERT_TRUE(readFirst.error.isEmpty()) << readFirst.error.toStdString();
    EXPECT_EQ(readFirst.secret.value_or(QString()), first);

    const DoneResult overwritten = writeSync(store, key, second);
    ASSERT_TRUE(overwritten.error.isEmpty()) << overwritten.error.toStdString();
    const ReadResult readSecond = readSync(store, key);
    EXPECT_EQ(readSecond.secret.value_or(QString()), second);

    // The secret went to the Secret Service (gnome-keyring), not somewhere else...
    if (const auto looked = secretToolLookup(store.service(), key)) {
        EXPECT_EQ(*looked, second);
    } else {
        ADD_FAILURE() << "secret-tool found nothing for " << key.toStdString();
    }
    // ...whose only files are encrypted: no plain-text copy anywhere under HOME.
    EXPECT_TRUE(QFile::exists(m_home + QStringLiteral("/.local/share/keyrings/login.keyring")))
        << "the keyring lives in the temporary HOME, so the scan below covers it";
    EXPECT_EQ(filesContaining(m_home, second), QStringList());
    EXPECT_EQ(filesContaining(m_home, first), QStringList());
    // The scan itself works: a plain-text copy (what QtKeychain's insecure fallback would write
    // to ~/.config/strata.conf) is found.
    const QString canary = m_home + QStringLiteral("/.config/canary.conf");
    QDir().mkpath(m_home + QStringLiteral("/.config"));
    {
        QFile file(canary);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(QByteArray("data=") + second.toUtf8());
    }
    EXPECT_EQ(filesContaining(m_home, second), QStringList{canary});
    QFile::remove(canary);

    const DoneResult removed = removeSync(store, key);
    EXPECT_TRUE(removed.error.isEmpty()) << removed.error.toStdString();
    const ReadResult after = readSync(store, key);
    EXPECT_FALSE(after.secret.has_value());
    EXPECT_TRUE(after.error.isEmpty()) << after.error.toStdString();
    EXPECT_FALSE(secretToolLookup(store.service(), key).has_value());

    const DoneResult removedAgain = removeSync(store, key);
    EXPECT_TRUE(removedAgain.error.isEmpty())
        << "removing a missing entry succeeds: " << removedAgain.error.toStdString();
    EXPECT_EQ(store.pendingCount(), 0);
}

TEST_F(KeychainCredentialStoreTest, QueuedOperationsRunInCallOrder)
{
    KeychainCredentialStore store;
    const QString key = credentialKey(QStringLiteral("queue-test"));
    const QString a = QStringLiteral("a-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
    const QString b = QStringLiteral("b-") + QUuid::createUuid().toString(QUuid::WithoutBraces);

    // Issued back to back without waiting: the store runs them one at a time, in order.
    QStringList log;
    const auto onRead = [&log](std::optional<QString> secret, QString error) {
        log << (error.isEmpty() ? secret.value_or(QStringLiteral("<none>")) : QStringLiteral("error: ") + error);
    };
    const auto onDone = [&log](const QString &what) {
        return [&log, what](QString error) {
            log << (error.isEmpty() ? what : QStringLiteral("error: ") + error);
        };
    };
    store.write(key, a, onDone(QStringLiteral("wrote a")));
    store.read(key, onRead);
    store.write(key, b, onDone(QStringLiteral("wrote b")));
    store.read(key, onRead);
    store.remove(key, onDone(QStringLiteral("removed")));
    store.read(key, onRead);
    EXPECT_EQ(store.pendingCount(), 6);
    EXPECT_TRUE(log.isEmpty());

    ASSERT_TRUE(waitFor([&log] {
        return log.size() == 6;
    })) << log.join(QStringLiteral(", ")).toStdString();
    EXPECT_EQ(log,
              (QStringList{QStringLiteral("wrote a"),
                           a,
                           QStringLiteral("wrote b"),
                           b,
                           QStringLiteral("removed"),
                           QStringLiteral("<none>")}));
    EXPECT_EQ(store.pendingCount(), 0);
}

TEST_F(KeychainCredentialStoreTest, StoreDestroyedWithQueuedWorkDoesNotCallBack)
{
    bool called = false;
    {
        KeychainCredentialStore store;
        store.read(credentialKey(QStringLiteral("gone")), [&called](std::optional<QString>, QString) {
            called = true;
        });
    }
    // Give a stray job every chance to finish and (wrongly) call back.
    KeychainCredentialStore other;
    const ReadResult probe = readSync(other, credentialKey(QStringLiteral("probe")));
    EXPECT_TRUE(probe.error.isEmpty()) << probe.error.toStdString();
    EXPECT_FALSE(called);
}
