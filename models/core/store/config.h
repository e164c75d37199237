#pragma once

#include "models/core/domain/error.h"
#include "models/core/domain/ratecard.h"
#include "models/core/domain/records.h"
#include "models/core/store/credentialstore.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

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
    /// Kubernetes: the whole kubeconfig (YAML) is the secret behind `password` (a cluster added
    /// from AKS's listClusterUserCredential), so its tokens and keys stay in the keychain.
    bool kubeconfigInSecret = false;

    // Azure (`url` = the ARM endpoint, default "https://management.azure.com").
    QString subscriptionId; ///< Azure: subscription to read (ANF accounts, AKS clusters)
    QString tenantId;       ///< Azure: Entra ID tenant (directory) id
    QString clientId;       ///< Azure: app registration (service principal) id; `password` = its secret
    /// Azure: the Entra ID authority, default "https://login.microsoftonline.com"; sovereign
    /// clouds ("https://login.microsoftonline.us") and tests set their own.
    QString authorityUrl;
    /// Azure: where tokens come from: "client_secret" (default; tenant, client id and secret) or
    /// "azure_cli" (`az account get-access-token`, the user's `az login`).
    QString credentialSource;

    // StorageGRID (`url` = the admin node, "https://admin.datalake.example"; `username` and
    // `password` = a grid administrator, who reads grid health, alerts, tenants and usage).
    /// StorageGRID: S3 endpoint of the dataset hub, "https://s3.datalake.example:10443"; empty =
    /// no dataset hub (grid pages only).
    QString s3Url;
    QString s3Region;        ///< StorageGRID: SigV4 region, empty = "us-east-1"
    QString s3AccessKey;     ///< StorageGRID: S3 access key id of the tenant holding the datasets
    SecretRef s3Secret;      ///< StorageGRID: that key's secret (keychain "strata/<name>/s3_secret")
    bool s3PathStyle = true; ///< StorageGRID: path-style ("host/bucket/key"), else virtual-hosted
    /// Where datasets live, key "dataset_roots": "bucket/*" = every top-level prefix of the bucket
    /// is a dataset; "bucket" = the whole bucket is one dataset; "bucket/some/prefix/" = that
    /// prefix is one dataset. ONTAP: volume names ("svm_ai/chest_xray") that are file datasets
    /// (commits are snapshots).
    QStringList datasetRoots;

    bool operator==(const SourceConfig &) const = default;
};

/// One entry of the config's "sources" read from JSON: the types of its keys, its kind and its
/// secret references (a literal secret string is refused without echoing it). The rules a source
/// must satisfy are validateSource()'s (sourcerules.h). A one-line Error::Kind::Invalid on failure
/// (`source` may then be partly filled).
Status sourceFromJson(const QJsonObject &object, SourceConfig *source);
/// The config-file form of `source` (secret references only, unset keys left out).
QJsonObject sourceToJson(const SourceConfig &source);

/// A stored secret that an edited source would go on sending although where or how it is sent
/// changed (see secretMustBeReentered()).
struct SecretReentry
{
    QString secret; ///< config key of the secret: "password" or "s3_secret"
    /// Config key whose change needs it given again: "url", "authority_url", "s3_url",
    /// "ca_file" or "insecure_skip_tls_verify".
    QString field;
    /// One sentence for the user: "the url of lab now points at https://b.example:8443, so its
    /// password must be given again (a stored secret never follows a changed endpoint or TLS
    /// setting)". Never contains a secret (URL user info is dropped).
    [[nodiscard]] QString message(const SourceConfig &after) const;

    bool operator==(const SecretReentry &) const = default;
};

/// The secrets `after` (an edit of `before`, the same source) would keep from `before` although
/// they would now go elsewhere or over weaker TLS, so the user must type them again (browsers and
/// Grafana ask for a data source's password again for the same reason). A secret is kept when its
/// SecretRef is set and equal in both. It goes elsewhere when the scheme, host or port of its
/// endpoint changed: `password` to `url` (ONTAP, StorageGRID admin node, Kubernetes API server
/// unless the kubeconfig is the secret; Azure: the ARM `url` receives its tokens and
/// `authority_url` the client secret, empty = the public cloud's), `s3_secret` to `s3_url`. TLS
/// got weaker when `ca_file` changed or `insecure_skip_tls_verify` was turned on (turning it off
/// is fine). Callers that received a new value for a secret ignore its entries. Empty = nothing
/// to re-enter. One entry per secret (the first changed field), password first.
QList<SecretReentry> secretMustBeReentered(const SourceConfig &before, const SourceConfig &after);

/// A cache target ("NFS connected"), key "cache_targets" of the config: a volume next to a
/// Kubernetes cluster, mounted there through `pvc`, onto which commits are cached.
struct CacheTargetConfig
{
    QString name;             ///< unique among targets, [a-z0-9-]+ (used in Job names)
    QString kubernetesSource; ///< the Kubernetes source of the cluster that mounts it
    QString namespaceName;    ///< namespace of the PVC and of the loader Jobs
    QString pvc;              ///< claim name
    /// Kubernetes Secret (same namespace) with keys AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY
    /// that loader pods use to read the object store; Strata never copies S3 secrets itself.
    QString s3CredentialsSecret = QStringLiteral("strata-s3");
    /// Image of the loader Job (runs the loader script from the ConfigMap "strata-cache-loader").
    QString loaderImage = QStringLiteral("python:3.12-alpine");
    int evictAfterDays = 3;        ///< 1..365
    int highWatermarkPercent = 90; ///< 50..100

    bool operator==(const CacheTargetConfig &) const = default;
};

/// The config's "cache_targets" array form of `targets` (what AppConfig::toJson() writes).
QJsonArray cacheTargetsToJson(const QList<CacheTargetConfig> &targets);
/// Parses a "cache_targets" array as AppConfig::load() does (names, ranges, duplicates). With
/// `sources`, each target's kubernetes_source must name one of its Kubernetes sources; nullptr
/// skips that check. A one-line Kind::Invalid error naming the target.
Result<QList<CacheTargetConfig>> cacheTargetsFromJson(const QJsonValue &value, const QList<SourceConfig> *sources);

/// Where the support-center sentiment results are read from (TR-4910), key "sentiment":
/// `{"source": "datalake", "bucket": "sentiment", "prefix": "calls/", "s3_access_key": ...,
/// "s3_secret": {...}}`. The source must be a StorageGRID source with an S3 endpoint; the access
/// key and secret default to that source's (a tenant with its own key sets both). Objects follow
/// docs/sentiment-schema.md.
struct SentimentConfig
{
    QString source; ///< name of a StorageGRID source (its S3 endpoint, TLS)
    QString bucket = QStringLiteral("sentiment");
    QString prefix = QStringLiteral("calls/"); ///< object key prefix, "" = the whole bucket
    QString s3AccessKey;                       ///< empty = the source's s3_access_key
    SecretRef s3Secret;                        ///< Kind::None = the source's s3_secret
    int pollMilliseconds = 500;                ///< key "poll_ms", 100..60000

    bool operator==(const SentimentConfig &) const = default;
};

/// The config file: `{"sources": [ {...}, ... ], "history": {"path": ..., "retention_days": 30},
/// "store": "postgresql://strata@db/strata"}`. Unknown keys are ignored on load and dropped on save.
struct AppConfig
{
    QList<SourceConfig> sources;
    QString historyPath; ///< SQLite file; empty = <AppDataLocation>/history.sqlite
    /// Key "store": a PostgreSQL URL (postgresql://user@host:port/database) shared by
    /// strata-server replicas, or a SQLite path; empty = historyPath. Never holds a password
    /// (refused on load): that comes from credentialKey("store") or libpq's PGPASSFILE.
    QString store;
    int historyRetentionDays = 90;
    /// Prices and the service-level cool-down, key "rate_card" (RateCard::toJson form).
    RateCard rateCard = RateCard::defaults();
    /// Cache targets for cached commits, key "cache_targets".
    QList<CacheTargetConfig> cacheTargets;
    /// The sentiment results bucket, key "sentiment"; unset = no sentiment dashboards.
    std::optional<SentimentConfig> sentiment;

    /// Parses a config file. On failure a one-line error naming the file and the offending
    /// source/key (missing name, unknown kind, duplicate names, a literal "password" string,
    /// ...: Kind::Invalid) or why the file cannot be read (Kind::Failed); `config` is then left
    /// untouched.
    static Status load(const QString &path, AppConfig *config);
    /// As load(), from memory (`config` may be nullptr: only check); errors name the
    /// source/key but no file.
    static Status parse(const QByteArray &json, AppConfig *config);
    /// Writes atomically (QSaveFile) with mode 0600, creating the directory. Never writes a
    /// secret: only SecretRefs. Refuses (Kind::Invalid, "<path>: not saved: ...") a config
    /// that load() would reject; a write failure is Kind::Failed. Errors name the file.
    [[nodiscard]] Status save(const QString &path) const;
    [[nodiscard]] QByteArray toJson() const;
    /// The config file at `path` (none = an empty one) with its "sources" replaced by
    /// `sources` and every other key, unknown ones ("web") included, kept: written as save()
    /// does, refused (false + `error` naming the file) when load() would reject the result.
    static Status saveSources(const QString &path, const QList<SourceConfig> &sources);
    /// As saveSources() without writing; the error without the path.
    static Status checkSources(const QString &path, const QList<SourceConfig> &sources);

    /// $STRATA_CONFIG, else <GenericConfigLocation>/strata/config.json (~/.config/strata/config.json),
    /// whatever QCoreApplication::applicationName() is.
    static QString defaultPath();

    [[nodiscard]] const SourceConfig *source(const QString &name) const;
};

/// The history store of `config`: its "store" (PostgreSQL URL or SQLite path), else its history
/// path, else <AppDataLocation>/history.sqlite (the directory is created). The desktop app, the
/// CLI and strata-server share it, so a schedule set from the CLI is run by the desktop app.
QString historyPathFor(const AppConfig &config);

} // namespace strata::core
