#pragma once

#include "models/core/domain/estate.h"
#include "models/core/domain/records.h"
#include "models/item/keyedtablemodel.h"

#include <QHash>

#include <functional>

namespace strata::models {

/// Every cache target ("NFS connected") of every Kubernetes source (Estate::cacheTargets()):
/// cluster, claim, the volume behind it, capacity, used and cached bytes, usage against the high
/// watermark (Usage: RawValueRole percent, LimitRole the watermark percent) and the eviction
/// policy. Updated by estate diffs; the per-target commit counts follow cachedCommitsChanged.
class CacheTargetModel final : public KeyedTableModel<core::CacheTarget>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CacheTargetModel)

public:
    enum Column
    {
        Name,
        Cluster,  ///< the Kubernetes source
        Claim,    ///< "namespace/pvc"
        Volume,   ///< the storage volume behind the claim
        Usage,    ///< used / capacity in percent (RawValueRole double, LimitRole watermark)
        Capacity, ///< bytes
        Used,     ///< bytes (all content of the volume)
        Cached,   ///< bytes of cached commits
        Commits,  ///< cached commits on it (not evicted)
        Policy,   ///< "evict after 3 days unused, LRU above 90 %"
        Problem,  ///< why it cannot take caches now
        ColumnCount
    };

    explicit CacheTargetModel(core::Estate &estate, QObject *parent = nullptr);

    /// Used over capacity in percent, -1 when the capacity is unknown.
    static double usagePercent(const core::CacheTarget &target);
    /// "evict after 3 days unused, LRU above 90 %".
    static QString policyText(const core::CacheTarget &target);

private:
    QVariant recordData(const core::CacheTarget &record, const QModelIndex &index, int role) const override;
    std::optional<QVariant> sortData(const core::CacheTarget &record, int column) const override;
    QVariant displayData(const core::CacheTarget &record, int column) const override;
    QStringList columnTitles() const override;

    void recount();

    core::Estate &m_estate;
    QHash<QString, int> m_commits; ///< by "<source>/<target>"
};

/// Every cached commit of every target (Estate::cachedCommits()): dataset, commit, target,
/// state, loading progress (Progress: RawValueRole percent 0..100, -1 unknown), size, last use,
/// the jobs that used it and when the policy evicts it ("evicts in 2 days", "evicting").
/// Updated by estate diffs; progress updates are dataChanged on the changed rows only, never a
/// reset. Views filter it by target (cache targets page) or by dataset (dataset page). The
/// relative "evicts in" text follows the clock: tick() re-reads it.
class CachedCommitModel final : public KeyedTableModel<core::CachedCommit>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CachedCommitModel)

public:
    enum Column
    {
        Dataset, ///< name (RawValueRole: the dataset's estate key "<source>/<id>")
        Commit,  ///< short id (RawValueRole: the full id)
        Target,
        State,    ///< "ready", "loading", ... (StatusRole colours it)
        Progress, ///< "45 % · 12/30 objects · 14.6 MiB/32.4 MiB"
        Size,     ///< bytes of the commit
        LastUsed, ///< RawValueRole QDateTime UTC
        UsedBy,   ///< newest jobs first
        Eviction, ///< "evicts in 2 days (unused for 3 days)", "evicting", ""
        Reason,   ///< failure reason
        ColumnCount
    };

    using Clock = std::function<QDateTime()>;

    /// `now` is the engine's clock (IClock::now, UTC) eviction times are counted to; required.
    CachedCommitModel(core::Estate &estate, Clock now, QObject *parent = nullptr);

    /// Re-reads the clock; emits dataChanged for the Eviction column.
    void tick();
    [[nodiscard]] QDateTime now() const { return m_now; }

    /// "evicts in 2 days", "evicts in 5 hours", "evicts now", "evicting", "" (not planned).
    static QString evictionText(const core::CachedCommit &cached, const QDateTime &now);

private:
    QVariant recordData(const core::CachedCommit &record, const QModelIndex &index, int role) const override;
    std::optional<QVariant> sortData(const core::CachedCommit &record, int column) const override;
    QVariant displayData(const core::CachedCommit &record, int column) const override;
    QStringList columnTitles() const override;

    Clock m_clock;
    QDateTime m_now;
};

} // namespace strata::models
