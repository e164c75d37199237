#pragma once

#include "models/core/domain/error.h"
#include "models/core/domain/ratecard.h"
#include "models/core/domain/records.h"

#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace strata::core {

class Estate;
class IHistoryStore;

/// A chargeback period [from, to), UTC: a calendar month or any range.
struct ChargebackPeriod
{
    QDateTime from; ///< UTC, inclusive
    QDateTime to;   ///< UTC, exclusive
    QString label;  ///< "2026-11" for a month, else "<from>/<to>" in ISO 8601
};

/// The calendar month `text` ("2026-11", UTC). Kind::Invalid (field "month") with one translated
/// sentence for anything else ("2026-13", "11/2026", "").
Result<ChargebackPeriod> chargebackMonth(const QString &text);
/// [from, to); Kind::Invalid when either is invalid or `to` is not after `from`.
Result<ChargebackPeriod> chargebackRange(const QDateTime &from, const QDateTime &to);

/// How long a recorded sample is taken to hold when no newer one follows. The store writes an
/// unchanged value again after its heartbeat (projects 600 s, volume capacity 3,600 s), so a
/// value holds until the next sample, but at most two heartbeats plus a 5-minute poll: a longer
/// gap is a stretch without data (Strata was not running or the source did not answer) and is
/// reported as missing hours, never as the last value carried on.
inline constexpr qint64 kChargebackProjectHoldSeconds = 2 * 600 + 300;
inline constexpr qint64 kChargebackVolumeHoldSeconds = 2 * 3600 + 300;

/// What the chargeback reads from the estate, copied on the estate's thread so the computation
/// can run on the history thread. Only the members listed are used.
struct ChargebackInput
{
    QStringList clusters; ///< Kubernetes sources taking part (their projects get lines)
    QList<Project> projects;
    QList<Job> jobs;
    QList<Pvc> pvcs;
    QList<GpuNode> nodes;      ///< GPU products price the GPU-hours
    QList<Volume> volumes;     ///< every ONTAP and ANF volume: attributed or unattributed
    QList<QosPolicy> policies; ///< to read the ONTAP policy names of the audit log
    QList<CachedCommit> cachedCommits;
    QList<Bucket> buckets;   ///< every StorageGRID bucket
    QList<Dataset> datasets; ///< to join a bucket to the cached commits of its datasets
};

/// The estate's rows for a chargeback of the Kubernetes sources `clusters` (empty = every
/// cluster of the estate). Volumes come from every storage source whatever `clusters` is. A
/// claim the cluster has not joined to storage yet (storage answered after the cluster's last
/// publish) is joined here by its backend volume's name, as the cluster does.
ChargebackInput chargebackInput(const Estate &estate, const QStringList &clusters = {});

/// One volume's (or StorageGRID bucket's) part of a line.
struct ChargebackVolume
{
    QString source;   ///< storage source
    QString volumeId; ///< Volume::id, or Bucket::id ("<tenantId>/<bucket>")
    QString name;     ///< "svm/volume", "account/volume", or "tenant/bucket"
    /// How it joins the project: PVCs "<namespace>/<claim>", or datasets of a bucket whose cached
    /// commits the project's jobs mounted ("dataset fraud_jun"), comma-joined; empty when unattributed.
    QString via;
    double share = 1; ///< this line's share of the volume (split evenly between the projects using it), 0..1
    /// GiB-hours of provisioned size by tier key (chargebackTierKey()), already multiplied by `share`.
    QMap<QString, double> gibHours;
    double cost = 0;           ///< priced part, in the card's currency, after `share`
    double missingHours = 0;   ///< hours of the accounted window (from its creation on) without capacity samples
    QStringList unpricedTiers; ///< tier keys without a price on the card
};

/// A job of the project that ran in the period (drill-down).
struct ChargebackJob
{
    QString id; ///< "<namespace>/<name>"
    QString status;
    MilliGpu gpus = 0;  ///< requested
    QStringList pvcs;   ///< claim names it mounts
    QDateTime created;  ///< UTC
    QDateTime finished; ///< UTC, invalid while it runs
};

/// One line of the chargeback: a project of a cluster, or the unattributed storage.
struct ChargebackLine
{
    QString source;  ///< Kubernetes source; empty for the unattributed line
    QString project; ///< project name; empty for the unattributed line
    bool unattributed = false;
    double gpuHoursAllocated = 0;          ///< integral of allocated GPUs over the covered hours
    double gpuHoursUsed = 0;               ///< allocated GPU-hours x DCGM utilization, over the hours it is known
    double gpuHoursUtilizationUnknown = 0; ///< allocated GPU-hours whose utilization was unknown (not in "used")
    double gpuMissingHours = 0;            ///< hours of the accounted window without project samples (0 unattributed)
    double gpuPricePerHour = -1;           ///< price of one GPU-hour on its cluster, -1 none
    double gpuCost = 0;                    ///< gpuHoursAllocated x gpuPricePerHour (0 when unpriced)
    QMap<QString, double> storageGibHours; ///< by tier key, sum over `volumes`
    double storageCost = 0;
    double cost = 0; ///< gpuCost + storageCost
    /// Hours of the accounted window without capacity samples: the most any of `volumes` lacks
    /// (0 without volumes). GPU and storage coverage are reported apart; see gpuMissingHours.
    double storageMissingHours = 0;
    /// Hours of the accounted window for which some of this line's figures have no data: the
    /// larger of gpuMissingHours and storageMissingHours.
    double missingHours = 0;
    QStringList unpriced; ///< what has no price: tier keys, "gpu"
    QList<ChargebackVolume> volumes;
    QList<ChargebackJob> jobs;
    QStringList cachedCommits; ///< "<dataset>@<commit 12> on <target>" mounted by its jobs in the period
};

/// A chargeback of one period.
struct Chargeback
{
    ChargebackPeriod period;
    QDateTime accountedTo; ///< UTC: min(period.to, now); hours after it are not yet counted
    double hours = 0;      ///< accounted hours: from period.from to accountedTo
    QString currency;
    QList<ChargebackLine> lines; ///< projects by source then name, the unattributed line last
    /// Sums over `lines` (source/project empty); the missing hours (GPU, storage, either) are the
    /// largest of any line.
    ChargebackLine total;
    /// The rate card's tier keys, sorted (chargebackCardTiers()): the tier columns of the CSV.
    /// GiB-hours at a tier the card does not price are in the lines' storageGibHours under their
    /// own key and in `unpriced`, but have no column of their own.
    QStringList tiers;
    QStringList notes; ///< what was left out and why, one sentence each
    /// UTC of the oldest sample the computation read, period.from when it reaches that far;
    /// invalid when it read none. Later than period.from: the store's history begins inside the
    /// period, and a note says so (another store, such as an app that has run longer, may reach
    /// further back and count fewer missing hours).
    QDateTime historyFrom;
};

/// "anf/<service level>" or "ontap/<QoS policy>" ("ontap/" = no policy).
QString chargebackTierKey(bool anf, const QString &tier);
/// The tier of data stored in StorageGRID buckets: "storagegrid/".
QString chargebackBucketTierKey();
/// "ANF Premium", "ONTAP gold", "ONTAP (no QoS policy)", "StorageGRID" for a tier key.
QString chargebackTierLabel(const QString &key);
/// Stable CSV/JSON column of a tier key: "storage_gib_hours_anf_premium",
/// "storage_gib_hours_ontap_gold", "storage_gib_hours_ontap_none",
/// "storage_gib_hours_storagegrid" (lower case, [a-z0-9_]).
QString chargebackTierColumn(const QString &key);

/// The tiers the rate card prices, as tier keys, sorted: every ANF level and ONTAP policy with a
/// price, and StorageGRID when it has one. The CSV's tier columns are these and nothing else, so
/// they change only when the card does.
QStringList chargebackCardTiers(const RateCard &card);
/// The one CSV/JSON column for GiB-hours at tiers the card does not price:
/// "storage_gib_hours_unpriced".
QString chargebackUnpricedColumn();

/// Computes the chargeback of `period` from the history in `store` (project samples, volume
/// capacity, the audit log's service-level changes) and the estate rows of `in`, priced by
/// `card`. Runs on the store's thread.
///
/// - GPU-hours: project samples are step values (a sample holds until the next one, at most
///   kChargebackProjectHoldSeconds); allocated milli-GPUs / 1000 x hours. "Used" multiplies by
///   the sample's DCGM utilization / 100; a sample with unknown utilization adds to
///   gpuHoursUtilizationUnknown instead, never as 0 %.
/// - GPU price: the history does not record the GPU type per sample, so a cluster's GPU-hours are
///   priced at its current GPU mix: the mean of RateCard::gpuPrice() over its GPU nodes' products,
///   weighted by GPU count (one product: that product's price).
/// - Storage: each volume's provisioned size (sizeBytes, what the card prices per GiB-month of
///   730 h) held as a step value for at most kChargebackVolumeHoldSeconds. The tier at a time
///   is the volume's current ANF service level or ONTAP QoS policy, taken back through the
///   succeeded `volume.service_level` audit entries (before a change it was the level or policy
///   the entry's fromState names, "Standard" of "Standard (pool p1, cap 15.6 MiB/s)"; an ONTAP
///   fromState that names no policy of that source counts as "no policy").
/// - Joining: a volume belongs to the projects whose namespace holds a bound PVC of it or whose
///   jobs mount such a PVC (Job -> PVC -> PV -> volume); several projects split it evenly.
///   Volumes that join no project of `in.clusters` make the unattributed line. Only volumes in
///   the estate now are listed: a volume deleted before now is not in the chargeback.
/// - Missing hours: hours of [period.from, accountedTo) (for a volume, from its creation) not
///   covered by a sample, such as hours before the history's first sample or its retention.
/// - StorageGRID buckets: the data stored (capacity history of kind "bucket", used bytes) as a
///   step value like a volume's, in the tier chargebackBucketTierKey(), priced by
///   RateCard::storageGridPerGibMonth. A bucket belongs to the projects whose jobs mounted
///   cached commits of a dataset in it during the period (dataset -> cached commit -> job ->
///   project), split evenly; other buckets are unattributed. Only buckets in the estate now.
///
/// Errors: Kind::Invalid when the period starts after `now` ("2026-12 has not started yet").
Result<Chargeback> computeChargeback(IHistoryStore &store,
                                     const ChargebackInput &in,
                                     const ChargebackPeriod &period,
                                     const RateCard &card,
                                     const QDateTime &now);

} // namespace strata::core
