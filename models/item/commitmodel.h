#pragma once

#include "models/core/domain/estate.h"
#include "models/core/domain/records.h"
#include "models/item/keyedtablemodel.h"

#include <QHash>

namespace strata::models {

/// The commits of one dataset (setDataset()), with where each is cached. Commits arrive by
/// Estate::commitsChanged diffs filtered to the dataset (never a reset on a poll; only a
/// dataset switch resets); the Cached column follows Estate::cachedCommitsChanged with
/// dataChanged on that column only.
class CommitModel final : public KeyedTableModel<core::Commit>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CommitModel)

public:
    enum Column
    {
        Id, ///< first 12 hex (full id in IdRole and the tooltip)
        Message,
        Author,
        Time, ///< RawValueRole QDateTime UTC
        Objects,
        Size,   ///< RawValueRole bytes
        Parent, ///< short parent id
        Cached, ///< "ready on dgx-cache-1; loading 45 % on cache-2"
        ColumnCount
    };

    explicit CommitModel(core::Estate &estate, QObject *parent = nullptr);

    /// Shows the commits of dataset `datasetId` of `source` (empty = none).
    void setDataset(const QString &source, const QString &datasetId);
    [[nodiscard]] QString datasetSource() const { return m_source; }
    [[nodiscard]] QString datasetId() const { return m_datasetId; }

    /// The cached copies of commit `commitId` (of this dataset), by target name.
    [[nodiscard]] QList<core::Ptr<core::CachedCommit>> cachesOf(const QString &commitId) const
    {
        return m_caches.value(commitId);
    }
    /// "ready", "loading 45 %", "requested", "evicting", "evicted", "failed" for one cached copy.
    static QString cacheStateText(const core::CachedCommit &cached);
    /// StatusRole value of a cache state: requested "pending", loading "running", ready "ok",
    /// evicting "warning", evicted "offline", failed "failed".
    static QString cacheStatus(core::CacheState state);
    /// Loading progress 0..100 (bytes, else objects); 100 when ready; -1 when unknown.
    static double progressPercent(const core::CachedCommit &cached);

private:
    QVariant recordData(const core::Commit &record, const QModelIndex &index, int role) const override;
    std::optional<QVariant> sortData(const core::Commit &record, int column) const override;
    QVariant displayData(const core::Commit &record, int column) const override;
    QStringList columnTitles() const override;

    [[nodiscard]] bool inScope(const core::Commit &commit) const;
    /// False for an ONTAP file dataset: its commits are snapshots without object counts or sizes.
    [[nodiscard]] bool countsObjects() const;
    void rebuildCaches();

    core::Estate &m_estate;
    QString m_source;
    QString m_datasetId;
    QHash<QString, QList<core::Ptr<core::CachedCommit>>> m_caches; ///< by commit id
};

} // namespace strata::models
