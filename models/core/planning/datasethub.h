#pragma once

#include "models/core/domain/keyed.h"
#include "models/core/domain/records.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>

/// The dataset hub's derived views over the estate (TR-4841's hub header, per-dataset cache
/// counts, lineage). Pure functions of an Estate snapshot: no I/O, owner thread.
namespace strata::core {

class Estate;

/// What the hub shows per dataset beyond the Dataset record itself.
struct DatasetHubRow
{
    Ptr<Dataset> dataset;
    int cachedCommits = 0;  ///< distinct commits ready on at least one target (ONTAP: FlexClones of its snapshots)
    int loadingCommits = 0; ///< distinct commits requested or loading somewhere (and not ready anywhere)
    int failedCommits = 0;  ///< cache entries in state failed
    qint64 cachedBytes = 0; ///< bytes on cache targets (ready and loaded-so-far), summed over targets
    QStringList targets;    ///< targets holding one of its commits (any state but evicted), sorted
    /// Newest of: the dataset's own lastActivity (its newest commit), a cache entry's request,
    /// readiness or last use. Invalid when none.
    QDateTime lastActivity;
};

/// TR-4841's hub header and per-dataset rows: "6 Datasets | 290.2 MB | 3 NFS Connected |
/// 1.07/360.77 GB Used by cached commits".
struct HubSummary
{
    int datasets = 0;
    qint64 totalBytes = 0; ///< sum of the datasets' head-commit sizes
    qint64 totalObjects = 0;
    int commits = 0;          ///< all commits of all datasets
    int targets = 0;          ///< cache targets published
    int targetsConnected = 0; ///< of those, without a problem (PVC bound, volume known)
    qint64 cachedBytes = 0;   ///< sum of the targets' cachedBytes
    qint64 capacityBytes = 0; ///< sum of the targets' capacity
    int readyCommits = 0;     ///< cache entries (commit on a target) ready
    int loadingCommits = 0;   ///< requested or loading
    int failedCommits = 0;
    int evictingCommits = 0;
    /// Keyed by the dataset's estate key ("<source>/<id>"), one per published dataset.
    QHash<QString, DatasetHubRow> rows;

    /// The header line in TR-4841's layout, in Strata's units (format.h), each figure in its own:
    /// "6 Datasets | 277 MiB | 3 NFS Connected | 212 MiB / 6.0 TiB Used by cached commits", so a
    /// little cached data never reads as "0.00".
    [[nodiscard]] QString headerText() const;
};

/// Computes the hub summary. O(datasets + commits + cached commits + targets + volumes).
HubSummary summarize(const Estate &estate);

/// Where a dataset lives, as every front end shows it: an ONTAP volume dataset "<svm>/<volume>"
/// (the volume's name from the estate; its uuid only while the volume is not listed), an S3
/// prefix "<bucket>/<prefix>", a bucket "<bucket>/".
QString datasetLocation(const Estate &estate, const Dataset &dataset);

/// One job that used a cached commit: dataset -> commit -> cache volume -> PVC -> job -> project.
struct LineageEntry
{
    QString datasetSource;
    QString datasetId;
    QString datasetName;
    QString commitId;
    QString target;        ///< cache target name; ONTAP datasets: the FlexClone's name
    QString targetSource;  ///< Kubernetes source of the target
    QString storageSource; ///< storage source of the cache volume, may be empty
    QString volumeName;    ///< "svm_cache/cache_01", may be empty
    QString pvc;           ///< "<namespace>/<claim>"
    QString subPath;       ///< the mount's subPath ("fraud_jun/3f2a9c01d4e5b6a7"), empty for a FlexClone PVC
    QString job;           ///< "<namespace>/<name>"
    QString project;       ///< empty when the job is no longer in the estate
    JobStatus jobStatus = JobStatus::Unknown;
    QDateTime started;    ///< UTC, may be invalid
    QDateTime finished;   ///< UTC, may be invalid
    bool inEstate = true; ///< false: known only from CachedCommit::usedBy (the job is gone)

    bool operator==(const LineageEntry &) const = default;
};

/// The jobs that mounted `cached`'s directory through its target's PVC (jobs of the target's
/// Kubernetes source in the target's namespace whose mount of the PVC has a subPath equal to or
/// below CachedCommit::path), plus usedBy entries no longer in the estate. Newest first.
QList<LineageEntry> lineage(const Estate &estate, const CachedCommit &cached);

/// Every job that used any commit of a dataset: S3 datasets through their cached commits;
/// ONTAP datasets through FlexClones of its snapshots mounted by a PVC (Pvc::storageVolumeId).
/// Newest first.
QList<LineageEntry> datasetLineage(const Estate &estate, const QString &datasetSource, const QString &datasetId);

/// ONTAP file datasets' commits held as FlexClones: estate key of the commit
/// ("<source>/<snapshot uuid>") -> the clones ("svm/volume") made from its snapshot, sorted.
/// O(volumes + commits of OntapVolume datasets).
QHash<QString, QStringList> flexCloneCopies(const Estate &estate);

/// One object that differs between two commits.
struct CommitDiffEntry
{
    QString key;          ///< full object key
    qint64 fromSize = -1; ///< -1: not in the older commit (added)
    qint64 toSize = -1;   ///< -1: not in the newer commit (removed)
    QString fromEtag;
    QString toEtag;

    bool operator==(const CommitDiffEntry &) const = default;
};

/// What changed between two commits of a dataset (added, removed and changed objects, in key
/// order). A new version id with the same size and ETag is not a change.
struct CommitComparison
{
    QString datasetId;
    QString fromId;
    QString toId;
    QList<CommitDiffEntry> added;
    QList<CommitDiffEntry> removed;
    QList<CommitDiffEntry> changed;
    qint64 unchanged = 0;    ///< objects equal in both
    qint64 bytesAdded = 0;   ///< sum of the added objects' sizes
    qint64 bytesRemoved = 0; ///< sum of the removed objects' sizes
    qint64 bytesChanged = 0; ///< sum of the changed objects' sizes in the newer commit

    /// "3 added (1.2 MiB), 1 removed (40 KiB), 2 changed (8 MiB), 120 unchanged", translated: the
    /// one-line summary the CLI's `diff` and the desktop's commit comparison show.
    [[nodiscard]] QString summary() const;

    bool operator==(const CommitComparison &) const = default;
};

} // namespace strata::core
