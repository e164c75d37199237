#pragma once

#include "models/core/store/credentialstore.h"

#include <QObject>
#include <QString>

#include <deque>

namespace QKeychain {
class Job;
}

namespace strata::desktop {

/// ICredentialStore over the OS keychain through QtKeychain (Secret Service/gnome-keyring or
/// KWallet on Linux, Keychain on macOS, Credential Manager on Windows), service name "strata".
///
/// Operations run one at a time in call order: each is queued and the next job is started from
/// the event loop, never from the previous job's finished signal (Nheko). Callbacks follow
/// ICredentialStore: a missing entry is nullopt with an empty error; a locked, refused or absent
/// keychain gives a user-presentable error. There is no plain-text fallback. Operations still
/// queued when the store is destroyed are dropped without calling back.
class KeychainCredentialStore final : public QObject, public core::ICredentialStore
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KeychainCredentialStore)

public:
    /// `service` groups Strata's entries in the keychain; tests may isolate themselves with another.
    explicit KeychainCredentialStore(QString service = QStringLiteral("strata"), QObject *parent = nullptr);
    ~KeychainCredentialStore() override;

    void read(const QString &key, ReadCallback done) override;
    void write(const QString &key, const QString &secret, DoneCallback done) override;
    void remove(const QString &key, DoneCallback done) override;
    [[nodiscard]] QString backendName() const override { return QStringLiteral("keychain"); }

    [[nodiscard]] QString service() const { return m_service; }
    /// Operations queued or running (0 when idle).
    [[nodiscard]] int pendingCount() const;

private:
    struct Operation
    {
        enum class Type
        {
            Read,
            Write,
            Remove
        };
        Type type = Type::Read;
        QString key;
        QString secret; ///< Write only
        ReadCallback readDone;
        DoneCallback done;
    };

    void enqueue(Operation operation);
    void scheduleNext();
    void startNext();
    void onJobFinished(QKeychain::Job *job);

    QString m_service;
    std::deque<Operation> m_queue; ///< front() is the running operation while m_running
    bool m_running = false;
    bool m_scheduled = false;
};

} // namespace strata::desktop
