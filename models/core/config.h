#pragma once

#include "models/core/credentialstore.h"
#include "models/core/domain.h"

#include <QList>
#include <QString>

namespace strata::core {

/// One configured connection, as stored in the config file. Secrets are references only.
struct SourceConfig
{
    QString name; ///< unique, [A-Za-z0-9._-]+, shown everywhere
    SourceKind kind = SourceKind::Ontap;
    QString url; ///< "https://cluster-mgmt.example.com" (ONTAP: the cluster management LIF)
    QString username;
    SecretRef password;
    QString caFile;                     ///< PEM CA bundle to trust for this source, empty = system store
    bool insecureSkipTlsVerify = false; ///< explicit opt-in, shown as a warning in the UI
    int configIntervalSeconds = 180;    ///< inventory poll (volumes, SVMs, ...), >= 5
    int perfIntervalSeconds = 60;       ///< performance poll, >= 5
    /// Kubernetes: kubeconfig file to read the cluster, CA and credentials from; empty = $KUBECONFIG
    /// or ~/.kube/config. Ignored when `url` is set (then `password` holds a bearer token).
    QString kubeconfig;
    QString kubeContext;   ///< Kubernetes: context in that kubeconfig, empty = its current-context
    QString prometheusUrl; ///< Kubernetes: Prometheus with DCGM exporter metrics, empty = none

    bool operator==(const SourceConfig &) const = default;
};

/// The config file: `{"sources": [ {...}, ... ], "history": {"path": ..., "retention_days": 30}}`.
/// Unknown keys are ignored on load and dropped on save.
struct AppConfig
{
    QList<SourceConfig> sources;
    QString historyPath; ///< SQLite file; empty = <AppDataLocation>/history.sqlite
    int historyRetentionDays = 90;

    /// Parses a config file. Returns false and a one-line `error` naming the file and the
    /// offending source/key on failure (missing name, unknown kind, duplicate names, a
    /// literal "password" string, ...). `config` is left untouched on failure.
    static bool load(const QString &path, AppConfig *config, QString *error);
    /// As load(), from memory; errors name the source/key but no file.
    static bool parse(const QByteArray &json, AppConfig *config, QString *error);
    /// Writes atomically (QSaveFile) with mode 0600, creating the directory. Never writes a
    /// secret: only SecretRefs. Refuses (false + `error`) a config that load() would reject.
    bool save(const QString &path, QString *error) const;
    [[nodiscard]] QByteArray toJson() const;

    /// $STRATA_CONFIG, else <GenericConfigLocation>/strata/config.json (~/.config/strata/config.json),
    /// whatever QCoreApplication::applicationName() is.
    static QString defaultPath();

    [[nodiscard]] const SourceConfig *source(const QString &name) const;
};

} // namespace strata::core
