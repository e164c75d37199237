#pragma once

#include "models/core/domain/clock.h"
#include "models/core/domain/ratecard.h"
#include "models/core/domain/records.h"
#include "models/core/store/config.h"
#include "models/core/store/historystore.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QMap>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class QObject;

namespace strata::core {

class Engine;
class Estate;
class HistoryService;

/// Records of one type as the estate held them: scope key (the source name; snapshots:
/// Estate::snapshotScope "<source>/<volumeId>") -> the published list, in the system's order.
template <class T> using ScopedRecords = QMap<QString, QList<T>>;

/// Every list of an Estate at one moment, by value (so two bundles compare with ==).
struct EstateRecords
{
    ScopedRecords<Volume> volumes;
    ScopedRecords<VolumePerf> volumePerf;
    ScopedRecords<Snapshot> snapshots;
    ScopedRecords<Svm> svms;
    ScopedRecords<Aggregate> aggregates;
    ScopedRecords<QosPolicy> qosPolicies;
    ScopedRecords<FlexCache> flexCaches;
    ScopedRecords<Event> events;
    ScopedRecords<GpuCluster> gpuClusters;
    ScopedRecords<GpuNode> gpuNodes;
    ScopedRecords<Project> projects;
    ScopedRecords<Job> jobs;
    ScopedRecords<Pvc> pvcs;
    ScopedRecords<CapacityPool> capacityPools;
    ScopedRecords<AksCluster> aksClusters;
    ScopedRecords<GridSummary> gridSummaries;
    ScopedRecords<GridNode> gridNodes;
    ScopedRecords<GridAlert> gridAlerts;
    ScopedRecords<Tenant> tenants;
    ScopedRecords<Bucket> buckets;
    ScopedRecords<Dataset> datasets;
    ScopedRecords<Commit> commits;
    ScopedRecords<CacheTarget> cacheTargets;
    ScopedRecords<CachedCommit> cachedCommits;

    /// Records of every type whose `source` is `source`.
    [[nodiscard]] int countOf(const QString &source) const;
    bool operator==(const EstateRecords &) const = default;
};

/// The history a bundle carries: the last BundleMeta::hours hours, per source.
struct BundleHistory
{
    /// source -> samples of every project, by project then time.
    QMap<QString, std::vector<ProjectSample>> projectSamples;
    /// source -> volume id -> capacity samples, oldest first.
    QMap<QString, QMap<QString, std::vector<UsageSample>>> volumeUsage;
    /// source -> kind (containerKindName(), not "volume") -> container id -> capacity samples,
    /// oldest first: aggregates, pools, buckets, tenants and cache targets.
    QMap<QString, QMap<QString, QMap<QString, std::vector<UsageSample>>>> containerUsage;
    /// source -> volume id -> performance samples, oldest first.
    QMap<QString, QMap<QString, std::vector<VolumePerfSample>>> volumePerf;
    /// Audit entries of the window, newest first (ids as the exporting store assigned them).
    std::vector<AuditEntry> audit;

    bool operator==(const BundleHistory &) const = default;
};

/// Who made a bundle, when and from what.
struct BundleMeta
{
    QDateTime created;     ///< UTC, the moment of the estate
    QString strataVersion; ///< QCoreApplication::applicationVersion() of the exporter
    QString host;          ///< QSysInfo::machineHostName() of the exporter
    QString user;          ///< Engine::Deps::user of the exporter
    int hours = 24;        ///< history window (hours before `created`)

    bool operator==(const BundleMeta &) const = default;
};

/// A support bundle: the whole estate at a moment, with no secret in it.
///
/// File format (version 1): one gzip (RFC 1952) stream holding one compact JSON document
/// `{"format": "strata-bundle", "version": 1, "created": ISO-8601 UTC, "strata_version", "host",
/// "user", "hours", "checksum": {"algorithm": "sha256", "value": <64 lower-case hex>},
/// "body": {...}}`. The checksum is SHA-256 over QJsonDocument(body).toJson(Compact) (keys
/// sorted, as QJsonObject keeps them), so any change to the body shows. `body` holds
/// "sources" (scrubbed SourceConfig, config-file keys), "statuses" (SourceStatus), "estate"
/// ({resource: {scope: [record...]}}, resource names as bundleResourceNames()), "history"
/// ({"project_samples", "volume_usage", "volume_perf", "audit"}), "events" (the triage timeline,
/// see `events`), "rate_card" (RateCard::toJson) and "cache_targets". Times are ISO-8601 UTC
/// with milliseconds, absent when invalid; enums are their lower-case names.
struct Bundle
{
    BundleMeta meta;
    /// Source configurations with every secret removed (scrubbedConfig()), in config order.
    QList<SourceConfig> sources;
    /// Health of each source at export time (offline pages show the same health).
    QList<SourceStatus> statuses;
    EstateRecords estate;
    BundleHistory history;
    /// The triage timeline's entries (TimelineEntry as JSON objects: id, time, category,
    /// severity, system, source, title, message, object_kind, object_id, object_name, project,
    /// volume, job, user), newest first. Carried opaquely here (the TimelineEntry <-> JSON step
    /// lives with the timeline): collectBundle() takes them from BundleOptions::events, and
    /// OfflineEngine is where they go back to Timeline::restore(); both places are marked
    /// "TIMELINE MERGE POINT".
    QJsonArray events;
    RateCard rateCard;
    QList<CacheTargetConfig> cacheTargets;

    bool operator==(const Bundle &) const = default;
};

/// The JSON resource names of the estate's lists inside a bundle: "volumes", "volume_perf",
/// "snapshots", "svms", "aggregates", "qos_policies", "flexcaches", "events", "gpu_clusters",
/// "gpu_nodes", "projects", "jobs", "pvcs", "capacity_pools", "aks_clusters", "grid_summaries",
/// "grid_nodes", "grid_alerts", "tenants", "buckets", "datasets", "commits", "cache_targets",
/// "cached_commits".
QStringList bundleResourceNames();

// ---- Record <-> JSON (one field list per type drives both directions) ----

QJsonObject toJson(const SourceStatus &status);
/// A Kind::Invalid error ("lastAttempt: not a time") when a field has the wrong type. Missing
/// keys keep the record's defaults.
Result<SourceStatus> statusFromJson(const QJsonObject &json);
/// Every record type of EstateRecords has the same pair (Volume, VolumePerf, ... CachedCommit,
/// and GpuSlot inside GpuNode); recordFromJson() fails as statusFromJson().
template <class T> QJsonObject recordToJson(const T &record);
template <class T> Result<T> recordFromJson(const QJsonObject &json);

/// `config` with every secret removed: password and S3 secret references, the S3 access key,
/// user:password@ and query strings of every URL, and the kubeconfig path when its contents
/// are the secret. What is left tells support how the source was set up.
SourceConfig scrubbedConfig(const SourceConfig &config);
/// Removes "user:password@" from every URL in `text` (error messages quote URLs).
QString scrubUrls(const QString &text);

// ---- Export ----

struct BundleOptions
{
    int hours = 24;        ///< history window, >= 1
    QString user;          ///< who exports it (BundleMeta::user)
    QJsonArray events;     ///< the timeline's entries as JSON (see Bundle::events)
    QDateTime now;         ///< UTC; invalid = engine.clock().now()
    int timeoutMs = 60000; ///< give up waiting for the history store after this long
};

/// Collects a bundle from a running engine: the estate, statuses and scrubbed configs now,
/// then the history (project samples, every volume's usage and performance, the audit log of
/// the window) from the engine's HistoryService, asynchronously. `done` runs on `context`'s
/// thread once everything answered (or the timeout passed: then `error` says what is missing
/// and the bundle still holds everything else). Without a history service the history is
/// empty. Owner (GUI) thread.
void collectBundle(Engine &engine,
                   const BundleOptions &options,
                   QObject *context,
                   std::function<void(Bundle bundle, QString error)> done);

/// The file's bytes (gzip of the document described at Bundle). Any thread.
QByteArray encodeBundle(const Bundle &bundle);

/// What writeBundle() wrote.
struct BundleWritten
{
    qint64 bytes = 0;                    ///< size of the file
    QString sha256;                      ///< the body checksum, 64 lower-case hex
    QMap<QString, int> objectsPerSource; ///< records of the estate per source
};

/// Writes `bundle` to `path` atomically (QSaveFile) with mode 0600 and fills `written` (may be
/// nullptr). A Kind::Failed error ("cannot write <path>: ...") on failure. Any thread (file I/O:
/// never the GUI thread).
Status writeBundle(const Bundle &bundle, const QString &path, BundleWritten *written);

// ---- Open ----

/// The most a gzip stream of `compressedBytes` may inflate to when opened as a bundle (or as a
/// replica's shared source state): 100 times its size (real bundles shrink 8 to 30 times, a
/// decompression bomb about 1,000 times), at least 16 MiB, and never more than 256 MiB (a
/// bundle of a 50,000-volume estate with a day of history is tens of MB). Inflating stops at
/// this limit, so opening any file takes memory bounded by it.
qint64 maxInflatedBundleBytes(qint64 compressedBytes);

/// Parses a bundle's bytes. A Kind::Invalid error for: "not a Strata support bundle" (not gzip or
/// not the format), "the bundle is truncated or corrupt" (gzip stream ends early or fails its
/// CRC), "the bundle inflates beyond the limit (...): refused unread" (past
/// maxInflatedBundleBytes(), checked while inflating), "malformed JSON: ...", "unsupported bundle
/// version N (this Strata reads 1)", "checksum mismatch: the bundle was modified", or a field
/// error ("body.estate.volumes: ..."). Bundles written by encodeBundle() also carry the SHA-256
/// of the whole document in the gzip header's comment ("strata-sha256:<hex>"): it is verified
/// while inflating, before any JSON is parsed (files without it are checked after parsing).
Result<Bundle> decodeBundle(const QByteArray &bytes);
/// Reads and decodes `path` (file I/O: never the GUI thread); "cannot read <path>: ..."
/// (Kind::Failed) when the file does not open.
Result<Bundle> openBundle(const QString &path);

/// openBundle() on a worker thread (QThreadPool::globalInstance()); `done` runs on the main
/// thread, and only when `context` still exists then.
void openBundleAsync(const QString &path,
                     QObject *context,
                     std::function<void(std::optional<Bundle> bundle, QString error)> done);

/// "read-only: this is a support bundle from 2026-11-23 00:36 UTC": what actions answer offline.
QString readOnlyReason(const Bundle &bundle);

/// A history store answering from a bundle's samples (SQLite in memory, seeded in open() on
/// the store's thread); every write is refused. Hand it to a HistoryService for an offline
/// engine. `clock` (the bundle's FrozenClock) must outlive the store.
std::unique_ptr<IHistoryStore> makeBundleHistoryStore(const Bundle &bundle, const IClock &clock);

/// The clock of an opened bundle: now() stays at the bundle's moment, so ages, waits and history
/// windows read as they did when it was made; timers run in real time.
class FrozenClock final : public IClock
{
public:
    explicit FrozenClock(QDateTime at);
    ~FrozenClock() override;
    FrozenClock(const FrozenClock &) = delete;
    FrozenClock &operator=(const FrozenClock &) = delete;

    [[nodiscard]] QDateTime now() const override { return m_at; }
    TimerId callAfter(std::chrono::milliseconds delay, QObject *context, std::function<void()> fn) override;
    void cancel(TimerId id) override;

private:
    QDateTime m_at;
    std::unique_ptr<SystemClock> m_timers;
};

/// An opened bundle ready to show: a FrozenClock at its time, a HistoryService over its
/// samples and an Engine loaded with it (loadBundle()). Owner (GUI) thread; construct it from
/// a Bundle that was read off that thread.
class OfflineEngine final
{
public:
    explicit OfflineEngine(const Bundle &bundle, const QString &user = {});
    ~OfflineEngine();
    OfflineEngine(const OfflineEngine &) = delete;
    OfflineEngine &operator=(const OfflineEngine &) = delete;

    [[nodiscard]] Engine &engine();
    [[nodiscard]] HistoryService &history();
    [[nodiscard]] IClock &clock();
    [[nodiscard]] const BundleMeta &meta() const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

/// Turns `engine` (constructed with no sources, its history service over
/// makeBundleHistoryStore(bundle)) into a read-only view of the bundle: every list is
/// published per source into its estate, the statuses and configs come from the bundle,
/// the rate card and cache targets apply, and every action is refused with readOnlyReason().
void loadBundle(Engine &engine, const Bundle &bundle);

// ---- One source's records, shared between strata-server replicas (see replicas.h) ----

/// Every list of `source` in `estate` (scopes `source` and, for snapshots, "<source>/<volume>"),
/// by value. Owner (GUI) thread; cheap (records share their strings).
EstateRecords sourceRecords(const Estate &estate, const QString &source);
/// `records` as gzip'd compact JSON ({resource: {scope: [record...]}}, the bundle's "estate"
/// shape), at gzip's fastest level. Any thread.
QByteArray encodeSourceRecords(const EstateRecords &records);
/// The inverse; a Kind::Invalid error naming the first bad field, or a truncated or corrupt
/// stream. Any thread.
Result<EstateRecords> decodeSourceRecords(const QByteArray &bytes);
/// Publishes every list of `records` whose scope is `source` into `estate`, as that source's
/// poller would (a list absent from `records` is left as it is). Owner (GUI) thread.
void publishSourceRecords(Estate &estate, const EstateRecords &records, const QString &source);

// ---- Diff ----

/// One field of a record that differs, values as they are in the bundles' JSON.
struct FieldChange
{
    QString field; ///< JSON name, "size_bytes"
    QJsonValue before;
    QJsonValue after;
    bool operator==(const FieldChange &) const = default;
};

struct RecordChange
{
    QString id;   ///< the record's key within its source
    QString name; ///< its name (or id when it has none)
    QList<FieldChange> fields;
    bool operator==(const RecordChange &) const = default;
};

/// What changed in one resource type of one source between two bundles.
struct ResourceDiff
{
    QString system;          ///< sourceKindName() of the source, "ontap"
    QString source;          ///< source name
    QString resource;        ///< bundleResourceNames() entry, or "sources" for the source's status
    QStringList appeared;    ///< ids in the second bundle only, in its order
    QStringList disappeared; ///< ids in the first bundle only, in its order
    QList<RecordChange> changed;
    bool operator==(const ResourceDiff &) const = default;
};

/// Differences between two bundles, by system, source and resource (only non-empty entries,
/// sorted by system, source, resource).
struct BundleDiff
{
    BundleMeta before;
    BundleMeta after;
    QList<ResourceDiff> resources;

    [[nodiscard]] bool isEmpty() const { return resources.isEmpty(); }
    /// {"before": {created, host}, "after": {...}, "changes": [{system, source, resource,
    /// appeared: [...], disappeared: [...], changed: [{id, name, fields: [{field, before,
    /// after}]}]}]}
    [[nodiscard]] QJsonObject toJson() const;
    /// One line per resource with changes, then one indented line per record:
    /// "ontap / ontap-ai / volumes: 1 appeared, 0 disappeared, 2 changed"
    /// "  + vol_new", "  - vol_gone", "  ~ chest_xray: size_bytes 100 -> 200".
    [[nodiscard]] QString summary() const;
};

/// A field value as diffs print it: strings as they are, whole numbers without a fraction,
/// arrays and objects as compact JSON, "(none)" when absent.
QString diffValueText(const QJsonValue &value);

/// Keyed diff of every resource of every source in `a` and `b` (a source present in one only
/// shows all its records appeared or disappeared). Volume performance is left out unless
/// `includePerf`: it changes at every poll.
BundleDiff diffBundles(const Bundle &a, const Bundle &b, bool includePerf = false);

/// Opens both files and diffs them on a worker thread; `done` as for openBundleAsync(), with
/// `error` "<path>: <why>" when a file cannot be opened.
void diffBundleFilesAsync(const QString &before,
                          const QString &after,
                          QObject *context,
                          std::function<void(std::optional<BundleDiff> diff, QString error)> done);

} // namespace strata::core
