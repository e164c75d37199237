#pragma once

#include <QHash>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>

namespace strata::core {

/// Where a source's secret lives, as written in the config file. The config never holds the
/// secret itself: `{"keychain": "strata/ontap-ai/password"}`, `{"env": "ONTAP_PASSWORD"}` or
/// `{"file": "/run/secrets/ontap"}`.
struct SecretRef
{
    enum class Kind
    {
        None,
        Keychain,
        Env,
        File
    };
    Kind kind = Kind::None;
    QString value; ///< keychain key, environment variable name, or file path

    /// Whether the config names a secret at all.
    [[nodiscard]] bool isSet() const { return kind != Kind::None; }

    bool operator==(const SecretRef &) const = default;
};

/// Keychain key naming: "strata/<sourceName>/<credentialKind>", e.g. "strata/ontap-ai/password".
QString credentialKey(const QString &sourceName, const QString &credentialKind = QStringLiteral("password"));

/// Secret storage (the OS keychain on desktops, environment/files on servers, memory in tests).
/// Operations are asynchronous because keychains are; callbacks run later on the thread that
/// owns the store, from its event loop (never synchronously inside the call).
class ICredentialStore
{
public:
    virtual ~ICredentialStore() = default;

    /// `secret` is nullopt with an empty `error` when the key does not exist; `error` is a
    /// user-presentable reason when the store itself failed (locked, no backend...).
    using ReadCallback = std::function<void(std::optional<QString> secret, QString error)>;
    /// `error` is empty on success.
    using DoneCallback = std::function<void(QString error)>;

    virtual void read(const QString &key, ReadCallback done) = 0;
    virtual void write(const QString &key, const QString &secret, DoneCallback done) = 0;
    virtual void remove(const QString &key, DoneCallback done) = 0;
    /// Short name for diagnostics: "keychain", "env/file", "memory".
    [[nodiscard]] virtual QString backendName() const = 0;
};

/// In-memory store for tests and the demo.
class InMemoryCredentialStore final : public QObject, public ICredentialStore
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InMemoryCredentialStore)

public:
    explicit InMemoryCredentialStore(QObject *parent = nullptr);

    void read(const QString &key, ReadCallback done) override;
    void write(const QString &key, const QString &secret, DoneCallback done) override;
    void remove(const QString &key, DoneCallback done) override;
    [[nodiscard]] QString backendName() const override { return QStringLiteral("memory"); }

    /// Synchronous seeding for tests and the demo.
    void set(const QString &key, const QString &secret);
    [[nodiscard]] bool contains(const QString &key) const;

private:
    QHash<QString, QString> m_secrets;
};

/// Headless store (strata-server, CLI on hosts without a Secret Service): key
/// "strata/<source>/<kind>" is read from the environment variable STRATA_SECRET_<SOURCE>_<KIND>
/// (upper-cased, non-alphanumerics as '_'), else from the file `<dir>/<source>/<kind>` where
/// `dir` is $STRATA_SECRETS_DIR (a mounted Kubernetes Secret), else from `<dir>/<source>.<kind>`
/// (systemd's LoadCredential= directory and Secret keys, whose names cannot contain '/').
/// write() stores into that directory (nested form) with mode 0600; remove() deletes the file.
class EnvFileCredentialStore final : public QObject, public ICredentialStore
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EnvFileCredentialStore)

public:
    /// `secretsDir` empty = $STRATA_SECRETS_DIR (writes then fail with a clear error if unset).
    explicit EnvFileCredentialStore(QString secretsDir = {}, QObject *parent = nullptr);

    void read(const QString &key, ReadCallback done) override;
    void write(const QString &key, const QString &secret, DoneCallback done) override;
    void remove(const QString &key, DoneCallback done) override;
    [[nodiscard]] QString backendName() const override { return QStringLiteral("env/file"); }

    /// "STRATA_SECRET_ONTAP_AI_PASSWORD" for "strata/ontap-ai/password".
    static QString environmentVariableFor(const QString &key);
    /// `<dir>/ontap-ai/password` for "strata/ontap-ai/password"; empty when the directory is
    /// unset or the key would leave it (empty, "." or ".." segments).
    [[nodiscard]] QString filePathFor(const QString &key) const;
    /// The secrets directory in use, empty when neither given nor $STRATA_SECRETS_DIR is set.
    [[nodiscard]] QString secretsDir() const { return m_dir; }

private:
    QString m_dir;
};

/// Resolves a SecretRef: env and file refs directly (a file's trailing newline is dropped),
/// keychain refs through `store`. `done(secret, error)` follows ReadCallback's contract and is
/// always called later from the caller's event loop. A missing environment variable or file is
/// an error naming it; Kind::None gives nullopt with an empty error (no secret configured).
void resolveSecret(const SecretRef &ref, ICredentialStore &store, const ICredentialStore::ReadCallback &done);

} // namespace strata::core
