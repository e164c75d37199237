#pragma once

#include "models/core/domain/error.h"
#include "models/core/store/config.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

namespace strata::core {

class Engine;

/// A source as a front end wants it stored: the settings plus any secret typed anew.
struct SourceEdit
{
    /// The settings; secrets as references: the stored ones to keep, or none.
    SourceConfig config;
    /// Typed password (ONTAP, StorageGRID), bearer token or kubeconfig YAML (Kubernetes), client
    /// secret (Azure); empty = keep `config.password`. Stored under credentialKey(name).
    QString password;
    /// StorageGRID: typed S3 secret key; empty = keep `config.s3Secret`. Stored under
    /// credentialKey(name, "s3_secret").
    QString s3Secret;

    /// `config` with each typed secret as the keychain reference it will be stored under.
    [[nodiscard]] SourceConfig effective() const;
};

/// Adds, replaces and removes sources for every front end (desktop dialog, web console): checks
/// the input, writes typed secrets through the engine's ICredentialStore, applies the sources to
/// the Engine and saves the config file atomically (only its "sources" key changes; the other
/// keys, "web" included, are kept). The rules of one source alone are validateSource()'s
/// (store/sourcerules.h); this class adds those of an edit. Lives on the engine's thread.
class SourceAdmin final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SourceAdmin)

public:
    struct Options
    {
        /// Config file saved after each change; empty = changes stay in memory (demo).
        QString configPath;
        /// Changes come over the web: a secret is only accepted as itself (never a file,
        /// environment or other keychain reference) and a source may not use the server's own
        /// kubeconfig file or Azure CLI login.
        bool remote = false;
    };

    /// How apply() and remove() ended.
    enum class Status
    {
        Ok,
        Invalid,  ///< `fieldErrors` say why; nothing changed
        NotFound, ///< remove(): no such source
        Conflict, ///< the config file would not load afterwards (`error`, e.g. a cache target's cluster)
        ReadOnly, ///< the engine shows a support bundle (`error` = its reason)
        Failed,   ///< a secret could not be stored, or the config not saved (`error`)
    };

    struct Outcome
    {
        Status status = Status::Ok;
        QList<Error> fieldErrors;
        /// Conflict, ReadOnly, Failed: one translated sentence. With Ok after remove(): a secret
        /// that could not be deleted (the source is gone all the same).
        QString error;
        bool replaced = false; ///< apply(): an existing source was replaced
        bool applied = false;  ///< the engine runs the change (also when saving it then failed)
        bool saved = false;    ///< the config file was written (false without configPath)
        [[nodiscard]] bool ok() const { return status == Status::Ok; }
    };

    SourceAdmin(Engine &engine, Options options, QObject *parent = nullptr);
    ~SourceAdmin() override;

    /// validateSource(edit.effective()) plus what depends on the change: a new name must not be in
    /// `takenNames`; replacing `before` (nullptr = adding) needs a secret typed again when the
    /// kind or the kubeconfig-in-secret setting changed, or when core::secretMustBeReentered()
    /// says so; `remote` adds Options::remote's rules.
    static QList<Error> validateEdit(const SourceEdit &edit,
                                     const SourceConfig *before,
                                     const QStringList &takenNames,
                                     bool remote = false);

    /// validateEdit() against the engine's sources (same name = replace).
    [[nodiscard]] QList<Error> check(const SourceEdit &edit) const;
    /// Adds or replaces `edit.config.name`: checks, stores typed secrets, applies to the engine
    /// (a replaced source with unchanged settings but a new secret reloads it) and saves.
    /// `done` runs once, possibly before apply() returns (refusals).
    void apply(const SourceEdit &edit, std::function<void(Outcome)> done);
    /// Removes source `name`, saves, and deletes the secrets Strata stored for it (references
    /// to env, file or other keychain entries belong to the admin and stay). `done` as apply().
    void remove(const QString &name, std::function<void(Outcome)> done);

private:
    /// Answers `done` with ReadOnly when the engine shows a support bundle.
    bool refusedReadOnly(const std::function<void(Outcome)> &done) const;
    /// Whether `sources` would make a config file that loads; why not otherwise.
    [[nodiscard]] core::Status checkFile(const QList<SourceConfig> &sources) const;
    /// Applies `sources` and saves them; `outcome` gets `saved` or the save error.
    void commit(const QList<SourceConfig> &sources, Outcome *outcome);

    Engine &m_engine;
    Options m_options;
};

} // namespace strata::core
