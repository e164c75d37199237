#pragma once

#include "models/core/domain/error.h"
#include "models/core/domain/records.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

/// Pure rules of cached commits (ARCHITECTURE.md "Datasets, commits and cached commits"): the
/// names shared with the loader and the simulator, the state record kept in the target's
/// ConfigMap, how a record follows its loader/evictor Job and the loader's log, last use from
/// the jobs that mount a cached commit, and the eviction policy. No I/O; all times UTC.
namespace strata::core {

/// First 16 hex digits of a commit id (the cache directory and Job names use it).
QString commitShort(const QString &commitId);
/// Directory of a cached commit on the target volume = the subPath jobs mount:
/// "<datasetName>/<commit16>", e.g. "fraud_jun/3f2a9c01d4e5b6a7".
QString cachePath(const QString &datasetName, const QString &commitId);
/// "strata-cache-<target>": the ConfigMap holding a target's state records.
QString cacheConfigMapName(const QString &target);
/// "strata-load-<commit16>-<target>", cut to 63 characters (a DNS label).
QString loaderJobName(const QString &commitId, const QString &target);
/// "strata-evict-<commit16>-<target>", cut to 63 characters.
QString evictorJobName(const QString &commitId, const QString &target);

/// The JSON value of one data key (the 64-hex commit id) of the state ConfigMap: state,
/// dataset, datasetSource, datasetId, objectsDone/Total, bytesDone/Total, path, job, reason,
/// requested, readyAt, lastUsed (ISO 8601 or ""), usedBy. evictAt/evictReason are computed and
/// never stored; source/id/target/commitId come from where the record is kept.
QByteArray cacheRecordToJson(const CachedCommit &record);
/// Parses a record written by cacheRecordToJson(). nullopt and a one-line `error` for
/// malformed JSON, a non-object, or an unknown/missing state. Missing numbers count as 0.
Result<CachedCommit> cacheRecordFromJson(const QByteArray &json);

/// One line of the loader's progress protocol (its stdout, one JSON object per line).
struct LoaderEvent
{
    enum class Kind
    {
        Progress,
        Ready,
        Failed
    };
    Kind kind = Kind::Progress;
    qint64 objectsDone = 0, objectsTotal = 0;
    qint64 bytesDone = 0, bytesTotal = 0;
    QString reason; ///< Failed: "ETag of <key> changed since the commit (expected <e>, got <g>)", ...

    bool operator==(const LoaderEvent &) const = default;
};

/// The newest protocol line of a loader log: lines are read from the end, skipping blank ones,
/// ones that are not JSON objects with a known "event", and a truncated last line. nullopt when
/// there is none.
std::optional<LoaderEvent> lastLoaderEvent(const QByteArray &log);

/// What the cluster shows about a loader or evictor Job.
struct CacheJobView
{
    QString name;
    bool complete = false;    ///< condition Complete=True (or succeeded >= 1)
    bool failed = false;      ///< condition Failed=True (backoffLimit reached)
    QString failureMessage;   ///< the Failed condition's reason and message, may be empty
    QDateTime completionTime; ///< invalid when not complete
    int active = 0;           ///< running pods
    int failedPods = 0;       ///< pods that failed so far (retries)
};

/// How long a record may stay `requested` without its Job (Strata wrote the record and is
/// about to create the Job) before it is failed.
constexpr qint64 kJobGraceSeconds = 120;

/// Result of reconcileCacheRecord().
struct Reconciled
{
    CachedCommit record;
    bool remove = false; ///< an eviction finished: drop the key from the ConfigMap
};

/// Moves a record along with its Jobs:
/// - requested/loading: loader progress (from `event`) → loading with counters; Job complete →
///   ready (readyAt = completion time, counters of the last event, else the totals); Job failed
///   → failed with the last event's reason, else the Job's failure message; a failed attempt
///   that Kubernetes retries stays loading; no Job for longer than kJobGraceSeconds after
///   `requested` → failed ("the loader Job ... is gone");
/// - failed with an active loader Job again (a retry) → loading;
/// - evicting: evictor complete → removed; evictor failed → failed with its message; no
///   evictor yet → still evicting (the CacheEvict action creates it, idempotently);
/// - ready and evicted records do not change here.
/// `loader`/`evictor` are null when the Job does not exist.
Reconciled reconcileCacheRecord(CachedCommit record,
                                const CacheJobView *loader,
                                const std::optional<LoaderEvent> &event,
                                const CacheJobView *evictor,
                                const QDateTime &now);

/// Last use of a cached commit from the jobs of the target's cluster: a job uses it when it
/// mounts claim `pvc` in `namespaceName` with subPath `record.path` (or below it). Running jobs
/// count as used `now`, finished ones at their finish time, others at their start. Sets
/// lastUsed (never moves it back: the record keeps uses of jobs since deleted) and usedBy
/// (newest first, merged with the stored list, at most 20). Returns whether anything changed.
bool applyUsage(CachedCommit &record,
                const QList<Job> &jobs,
                const QString &namespaceName,
                const QString &pvc,
                const QDateTime &now);

/// When a commit was last active for the policy: lastUsed, else readyAt, else requested.
QDateTime lastActivity(const CachedCommit &commit);

/// Bytes a target counts as used for the watermark: the volume's used bytes when the volume is
/// known (capacity from it and usedBytes > 0), else the bytes of its cached commits.
qint64 effectiveUsedBytes(const CacheTarget &target);

/// The eviction policy of one target, applied to its cached commits (all of that target):
/// ready commits get evictAt = lastActivity + evictAfterDays ("unused for N days"); when the
/// target is above its high watermark the least recently used ready commits get evictAt = `now`
/// ("over the 90 % high watermark (LRU)") until the rest is under it (bytes of commits already
/// evicting count as freed). Requested, loading, evicting, evicted and failed commits get no
/// evictAt.
void applyEvictionPolicy(const CacheTarget &target, QList<CachedCommit> &commits, const QDateTime &now);

/// Where a commit's objects are, for its loader Job (resolved by the Engine from the dataset's
/// source config and the estate's dataset and commit records; no secrets).
struct CommitLocation
{
    QString s3Endpoint; ///< "https://s3.datalake.example:10443"
    QString s3Region;   ///< SigV4 region, "us-east-1" when the source sets none
    bool s3PathStyle = true;
    QString bucket;      ///< "datasets"
    QString prefix;      ///< the dataset's prefix, "fraud_jun/" ("" for a whole bucket)
    QString manifestKey; ///< "fraud_jun/.strata/commits/<id>.jsonl"
    QString datasetName; ///< "fraud_jun"
    qint64 objects = 0;  ///< objects of the commit
    qint64 bytes = 0;    ///< bytes of the commit

    bool operator==(const CommitLocation &) const = default;
};

/// Whether `bytesNeeded` fit on a target, and what would have to go.
struct RoomPlan
{
    qint64 freeBytes = 0;      ///< capacity - used - bytes still to come of loading commits (>= 0)
    qint64 evictableBytes = 0; ///< bytes of ready commits the policy may evict
    bool fits = false;         ///< fits now, or after evicting `evict`
    QStringList evict;         ///< commit ids (LRU first) to clear first; empty when it fits now
    qint64 freedBytes = 0;     ///< bytes those free
};

/// Plans room for a new cached commit of `bytesNeeded` on `target` (`commits` = its cached
/// commits): fits in the free space, or after clearing least recently used ready commits; never
/// by touching loading/requested ones. A target with unknown capacity (0) never fits.
RoomPlan planRoom(const CacheTarget &target, const QList<CachedCommit> &commits, qint64 bytesNeeded);

} // namespace strata::core
