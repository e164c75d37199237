#include "app/desktop/keychaincredentialstore.h"

#include <qt6keychain/keychain.h>

namespace strata::desktop {

namespace {

// Text for the UI: says what failed and what to do, never the secret.
QString describeError(const QKeychain::Job &job, const QString &what)
{
    const QString detail = job.errorString();
    switch (job.error()) {
    case QKeychain::NoError:
        return {};
    case QKeychain::AccessDeniedByUser:
        return QStringLiteral("%1: access to the keychain was denied").arg(what);
    case QKeychain::AccessDenied:
        return QStringLiteral("%1: the keychain refused access, it may be locked (%2)").arg(what, detail);
    case QKeychain::NoBackendAvailable:
        return QStringLiteral("%1: no keychain is available; install and unlock gnome-keyring or KWallet (%2)")
            .arg(what, detail);
    case QKeychain::EntryNotFound:
    case QKeychain::CouldNotDeleteEntry:
    case QKeychain::NotImplemented:
    case QKeychain::OtherError:
        break;
    }
    return QStringLiteral("%1: keychain error (%2)").arg(what, detail);
}

} // namespace

KeychainCredentialStore::KeychainCredentialStore(QString service, QObject *parent)
    : QObject(parent)
    , m_service(std::move(service))
{}

// Running jobs delete themselves; their finished connection dies with this object.
KeychainCredentialStore::~KeychainCredentialStore() = default;

void KeychainCredentialStore::read(const QString &key, ReadCallback done)
{
    Operation operation;
    operation.type = Operation::Type::Read;
    operation.key = key;
    operation.readDone = std::move(done);
    enqueue(std::move(operation));
}

void KeychainCredentialStore::write(const QString &key, const QString &secret, DoneCallback done)
{
    Operation operation;
    operation.type = Operation::Type::Write;
    operation.key = key;
    operation.secret = secret;
    operation.done = std::move(done);
    enqueue(std::move(operation));
}

void KeychainCredentialStore::remove(const QString &key, DoneCallback done)
{
    Operation operation;
    operation.type = Operation::Type::Remove;
    operation.key = key;
    operation.done = std::move(done);
    enqueue(std::move(operation));
}

int KeychainCredentialStore::pendingCount() const
{
    return static_cast<int>(m_queue.size());
}

void KeychainCredentialStore::enqueue(Operation operation)
{
    m_queue.push_back(std::move(operation));
    scheduleNext();
}

// Backends (libsecret, KWallet over D-Bus) misbehave when a job is started from inside another
// job's finished signal, so every start goes through the event loop (Nheko's rule).
void KeychainCredentialStore::scheduleNext()
{
    if (m_running || m_scheduled || m_queue.empty()) {
        return;
    }
    m_scheduled = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_scheduled = false;
            startNext();
        },
        Qt::QueuedConnection);
}

void KeychainCredentialStore::startNext()
{
    if (m_running || m_queue.empty()) {
        return;
    }
    m_running = true;
    Operation &operation = m_queue.front();

    QKeychain::Job *job = nullptr;
    switch (operation.type) {
    case Operation::Type::Read:
        job = new QKeychain::ReadPasswordJob(m_service);
        break;
    case Operation::Type::Write: {
        auto *writeJob = new QKeychain::WritePasswordJob(m_service);
        writeJob->setTextData(operation.secret);
        // The job holds its own copy now; keep as few copies of the secret around as possible.
        operation.secret.clear();
        job = writeJob;
        break;
    }
    case Operation::Type::Remove:
        job = new QKeychain::DeletePasswordJob(m_service);
        break;
    }
    job->setAutoDelete(true);
    // Never store secrets in a plain-text QSettings file when the keychain is unavailable.
    job->setInsecureFallback(false);
    job->setKey(operation.key);
    connect(job, &QKeychain::Job::finished, this, &KeychainCredentialStore::onJobFinished);
    job->start();
}

void KeychainCredentialStore::onJobFinished(QKeychain::Job *job)
{
    if (!m_running || m_queue.empty()) {
        return;
    }
    Operation operation = std::move(m_queue.front());
    m_queue.pop_front();
    m_running = false;
    scheduleNext();

    // The callback runs last: it may destroy this store.
    const QKeychain::Error error = job->error();
    switch (operation.type) {
    case Operation::Type::Read: {
        if (!operation.readDone) {
            return;
        }
        if (error == QKeychain::NoError) {
            const auto *readJob = static_cast<QKeychain::ReadPasswordJob *>(job);
            operation.readDone(readJob->textData(), QString());
        } else if (error == QKeychain::EntryNotFound) {
            operation.readDone(std::nullopt, QString());
        } else {
            operation.readDone(std::nullopt, describeError(*job, QStringLiteral("cannot read %1").arg(operation.key)));
        }
        return;
    }
    case Operation::Type::Write:
        if (operation.done) {
            operation.done(error == QKeychain::NoError
                               ? QString()
                               : describeError(*job, QStringLiteral("cannot store %1").arg(operation.key)));
        }
        return;
    case Operation::Type::Remove:
        // Removing what is not there leaves the keychain as the caller wanted it.
        if (operation.done) {
            operation.done(error == QKeychain::NoError || error == QKeychain::EntryNotFound
                               ? QString()
                               : describeError(*job, QStringLiteral("cannot remove %1").arg(operation.key)));
        }
        return;
    }
}

} // namespace strata::desktop
