#include "models/core/store/credentialstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QTimer>

namespace strata::core {

namespace {

const QLatin1String kKeyPrefix("strata/");

// Keys are "strata/<source>/<kind>"; the prefix is implied by the env var and directory names.
QString keyWithoutPrefix(const QString &key)
{
    return key.startsWith(kKeyPrefix) ? key.mid(kKeyPrefix.size()) : key;
}

// Files written by `echo secret > file` or kubectl end in a newline that is not part of the secret.
QString stripOneTrailingNewline(QString text)
{
    if (text.endsWith(QLatin1String("\r\n"))) {
        text.chop(2);
    } else if (text.endsWith(QLatin1Char('\n'))) {
        text.chop(1);
    }
    return text;
}

// Result of reading a secret file: nullopt secret + empty error = the file does not exist.
struct FileRead
{
    std::optional<QString> secret;
    QString error;
};

FileRead readSecretFile(const QString &path)
{
    QFile file(path);
    if (!file.exists()) {
        return {};
    }
    if (!file.open(QIODevice::ReadOnly)) {
        return {std::nullopt, QStringLiteral("cannot read secret file %1: %2").arg(path, file.errorString())};
    }
    return {stripOneTrailingNewline(QString::fromUtf8(file.readAll())), {}};
}

bool isInside(const QString &path, const QString &dir)
{
    return path.startsWith(dir + QLatin1Char('/')) && path.size() > dir.size() + 1;
}

// Every callback is queued, even when the answer is known at once, so callers written against
// one store behave the same with the real (asynchronous) keychain.
void queueSecretRead(QObject *context,
                     ICredentialStore::ReadCallback done,
                     std::optional<QString> secret,
                     QString error = {})
{
    QMetaObject::invokeMethod(
        context,
        [done = std::move(done), secret = std::move(secret), error = std::move(error)] {
            if (done) {
                done(secret, error);
            }
        },
        Qt::QueuedConnection);
}

void queueSecretDone(QObject *context, ICredentialStore::DoneCallback done, QString error = {})
{
    QMetaObject::invokeMethod(
        context,
        [done = std::move(done), error = std::move(error)] {
            if (done) {
                done(error);
            }
        },
        Qt::QueuedConnection);
}

} // namespace

QString credentialKey(const QString &sourceName, const QString &credentialKind)
{
    return kKeyPrefix + sourceName + QLatin1Char('/') + credentialKind;
}

// ---------------------------------------------------------------------------------------------

InMemoryCredentialStore::InMemoryCredentialStore(QObject *parent)
    : QObject(parent)
{}

void InMemoryCredentialStore::read(const QString &key, ReadCallback done)
{
    const auto it = m_secrets.constFind(key);
    std::optional<QString> secret = it == m_secrets.cend() ? std::nullopt : std::optional<QString>(*it);
    queueSecretRead(this, std::move(done), std::move(secret));
}

void InMemoryCredentialStore::write(const QString &key, const QString &secret, DoneCallback done)
{
    m_secrets.insert(key, secret);
    queueSecretDone(this, std::move(done));
}

void InMemoryCredentialStore::remove(const QString &key, DoneCallback done)
{
    m_secrets.remove(key);
    queueSecretDone(this, std::move(done));
}

void InMemoryCredentialStore::set(const QString &key, const QString &secret)
{
    m_secrets.insert(key, secret);
}

bool InMemoryCredentialStore::contains(const QString &key) const
{
    return m_secrets.contains(key);
}

// ---------------------------------------------------------------------------------------------

EnvFileCredentialStore::EnvFileCredentialStore(QString secretsDir, QObject *parent)
    : QObject(parent)
    , m_dir(std::move(secretsDir))
{
    if (m_dir.isEmpty()) {
        m_dir = qEnvironmentVariable("STRATA_SECRETS_DIR");
    }
    if (!m_dir.isEmpty()) {
        m_dir = QDir::cleanPath(QDir(m_dir).absolutePath());
    }
}

QString EnvFileCredentialStore::environmentVariableFor(const QString &key)
{
    QString name = QStringLiteral("STRATA_SECRET_");
    const QString rest = keyWithoutPrefix(key);
    name.reserve(name.size() + rest.size());
    for (const QChar c : rest) {
        const char16_t u = c.unicode();
        if ((u >= u'a' && u <= u'z')) {
            name.append(QChar(u - u'a' + u'A'));
        } else if ((u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9')) {
            name.append(c);
        } else {
            name.append(QLatin1Char('_'));
        }
    }
    return name;
}

QString EnvFileCredentialStore::filePathFor(const QString &key) const
{
    if (m_dir.isEmpty()) {
        return {};
    }
    const QString relative = keyWithoutPrefix(key);
    if (relative.isEmpty() || relative.contains(QLatin1Char('\\')) || relative.contains(QChar(0))) {
        return {};
    }
    // Segment checks keep "strata/../../etc/passwd" and absolute keys from escaping the directory.
    const QStringList segments = relative.split(QLatin1Char('/'));
    for (const QString &segment : segments) {
        if (segment.isEmpty() || segment == QLatin1String(".") || segment == QLatin1String("..")) {
            return {};
        }
    }
    const QString path = QDir::cleanPath(m_dir + QLatin1Char('/') + relative);
    return isInside(path, m_dir) ? path : QString();
}

void EnvFileCredentialStore::read(const QString &key, ReadCallback done)
{
    std::optional<QString> secret;
    QString error;
    const QString variable = environmentVariableFor(key);
    if (qEnvironmentVariableIsSet(variable.toLocal8Bit().constData())) {
        secret = qEnvironmentVariable(variable.toLocal8Bit().constData());
    } else if (!m_dir.isEmpty()) {
        const QString path = filePathFor(key);
        if (path.isEmpty()) {
            error = QStringLiteral("invalid credential key \"%1\"").arg(key);
        } else {
            FileRead result = readSecretFile(path);
            if (!result.secret && result.error.isEmpty()) {
                // systemd credentials (LoadCredential=, $STRATA_SECRETS_DIR=%d) and Secret keys
                // cannot contain '/': "ontap-ai.password" stands for "ontap-ai/password".
                const QString flat =
                    filePathFor(kKeyPrefix + keyWithoutPrefix(key).replace(QLatin1Char('/'), QLatin1Char('.')));
                if (!flat.isEmpty() && flat != path) {
                    result = readSecretFile(flat);
                }
            }
            secret = std::move(result.secret);
            error = std::move(result.error);
        }
    }
    queueSecretRead(this, std::move(done), std::move(secret), std::move(error));
}

void EnvFileCredentialStore::write(const QString &key, const QString &secret, DoneCallback done)
{
    const auto finish = [this, &done](QString error) {
        queueSecretDone(this, std::move(done), std::move(error));
    };

    if (m_dir.isEmpty()) {
        finish(
            QStringLiteral("cannot store the secret for %1: no secrets directory (set STRATA_SECRETS_DIR)").arg(key));
        return;
    }
    const QString path = filePathFor(key);
    if (path.isEmpty()) {
        finish(QStringLiteral("cannot store the secret for \"%1\": the key would leave the secrets directory %2")
                   .arg(key, m_dir));
        return;
    }

    const QString parent = QFileInfo(path).absolutePath();
    if (!QFileInfo::exists(parent)) {
        if (!QDir().mkpath(parent)) {
            finish(QStringLiteral("cannot create secrets directory %1").arg(parent));
            return;
        }
        QFile::setPermissions(parent, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }
    // A symlink inside the directory must not redirect the write elsewhere.
    const QString canonicalDir = QFileInfo(m_dir).canonicalFilePath();
    const QString canonicalParent = QFileInfo(parent).canonicalFilePath();
    if (canonicalDir.isEmpty() || (canonicalParent != canonicalDir && !isInside(canonicalParent, canonicalDir))) {
        finish(QStringLiteral("cannot store the secret for \"%1\": %2 is outside the secrets directory %3")
                   .arg(key, parent, m_dir));
        return;
    }

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        finish(QStringLiteral("cannot write secret file %1: %2").arg(path, file.errorString()));
        return;
    }
    // Restrict the temporary file before the secret reaches the disk; rename keeps the mode.
    if (!file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
        file.cancelWriting();
        finish(QStringLiteral("cannot restrict permissions of %1: %2").arg(path, file.errorString()));
        return;
    }
    file.write(secret.toUtf8());
    if (!file.commit()) {
        finish(QStringLiteral("cannot write secret file %1: %2").arg(path, file.errorString()));
        return;
    }
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    finish({});
}

void EnvFileCredentialStore::remove(const QString &key, DoneCallback done)
{
    QString error;
    if (m_dir.isEmpty()) {
        error =
            QStringLiteral("cannot remove the secret for %1: no secrets directory (set STRATA_SECRETS_DIR)").arg(key);
    } else if (const QString path = filePathFor(key); path.isEmpty()) {
        error = QStringLiteral("invalid credential key \"%1\"").arg(key);
    } else if (QFile file(path); file.exists() && !file.remove()) {
        error = QStringLiteral("cannot remove secret file %1: %2").arg(path, file.errorString());
    }
    queueSecretDone(this, std::move(done), std::move(error));
}

// ---------------------------------------------------------------------------------------------

void resolveSecret(const SecretRef &ref, ICredentialStore &store, const ICredentialStore::ReadCallback &done)
{
    if (ref.kind == SecretRef::Kind::Keychain) {
        store.read(ref.value, done);
        return;
    }

    std::optional<QString> secret;
    QString error;
    switch (ref.kind) {
    case SecretRef::Kind::None:
    case SecretRef::Kind::Keychain:
        break;
    case SecretRef::Kind::Env: {
        const QByteArray name = ref.value.toLocal8Bit();
        if (ref.value.isEmpty() || !qEnvironmentVariableIsSet(name.constData())) {
            error = QStringLiteral("environment variable %1 is not set").arg(ref.value);
        } else {
            secret = qEnvironmentVariable(name.constData());
        }
        break;
    }
    case SecretRef::Kind::File: {
        FileRead result = readSecretFile(ref.value);
        if (!result.secret && result.error.isEmpty()) {
            result.error = QStringLiteral("secret file %1 does not exist").arg(ref.value);
        }
        secret = std::move(result.secret);
        error = std::move(result.error);
        break;
    }
    }
    // No QObject to queue on here: a zero timer posts to the calling thread's event loop.
    QTimer::singleShot(0, [done, secret = std::move(secret), error = std::move(error)] {
        if (done) {
            done(secret, error);
        }
    });
}

} // namespace strata::core
