#pragma once

#include "models/core/domain/estate.h"
#include "models/core/domain/records.h"
#include "models/core/planning/datasethub.h"
#include "models/item/keyedtablemodel.h"

#include <QHash>

#include <functional>

namespace strata::models {

/// Every dataset of every source (Estate::datasets()), one row each as on TR-4841's hub: name,
/// source, kind, cached commits, size, commits, last active. Updated by estate diffs (never a
/// reset on a poll); the cached-commit counts and last activity (core::summarize's per-dataset
/// rows) follow Estate::cachedCommitsChanged through dataChanged of those columns only.
class DatasetModel final : public KeyedTableModel<core::Dataset>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DatasetModel)

public:
    enum Column
    {
        Name,
        Source,
        Kind,          ///< "Prefix", "Bucket", "ONTAP volume"
        Location,      ///< core::datasetLocation(): "datasets/fraud_jun/", "svm_ai/vol_train"
        CachedCommits, ///< ready cached commits on any target (RawValueRole int)
        Size,          ///< bytes of the head commit (RawValueRole qint64)
        Objects,       ///< objects of the head commit
        Commits,       ///< number of commits
        LastActive,    ///< newest commit or cache use (RawValueRole QDateTime UTC)
        ColumnCount
    };

    explicit DatasetModel(core::Estate &estate, QObject *parent = nullptr);

    /// The hub summary over the current estate (core::summarize); its headerText() is the
    /// TR-4841 header line.
    [[nodiscard]] core::HubSummary summary() const;
    /// Distinct commits of the dataset "<source>/<id>" ready on at least one target.
    [[nodiscard]] int cachedCount(const QString &datasetKey) const { return m_cached.value(datasetKey); }
    /// Commits of that dataset requested or loading somewhere (and ready nowhere).
    [[nodiscard]] int loadingCount(const QString &datasetKey) const { return m_loading.value(datasetKey); }
    /// Newest of the dataset's lastActivity and its cache entries' request, readiness and use.
    [[nodiscard]] QDateTime lastActive(const core::Dataset &dataset) const;
    [[nodiscard]] core::Estate &estate() const { return m_estate; }

    /// "3f2a9c01d4e5" (the first 12 characters of a commit id).
    static QString shortId(const QString &commitId);
    /// "Prefix", "Bucket", "ONTAP volume".
    static QString kindText(core::DatasetKind kind);

Q_SIGNALS:
    /// The header numbers changed (datasets, commits or caches were published).
    void headerChanged();

private:
    QVariant recordData(const core::Dataset &record, const QModelIndex &index, int role) const override;
    std::optional<QVariant> sortData(const core::Dataset &record, int column) const override;
    QVariant displayData(const core::Dataset &record, int column) const override;
    QStringList columnTitles() const override;

    void recountCaches();

    core::Estate &m_estate;
    QHash<QString, int> m_cached;
    QHash<QString, int> m_loading;
    QHash<QString, QDateTime> m_lastUsed;
};

} // namespace strata::models
