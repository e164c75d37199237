#pragma once

#include "models/core/domain/estate.h"
#include "models/item/keyedtablemodel.h"

namespace strata::models {

/// Snapshots of the one volume selected in the Volumes page. setVolume() switches scope (the
/// one place this model resets); polls of that volume apply diffs.
class SnapshotListModel final : public KeyedTableModel<core::Snapshot>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SnapshotListModel)

public:
    enum Column
    {
        Name,
        Created,
        Size,
        Label,
        Comment,
        State,
        ColumnCount
    };

    explicit SnapshotListModel(core::Estate &estate, QObject *parent = nullptr);

    /// Shows the snapshots of `volumeId` on `source` (empty = none).
    void setVolume(const QString &source, const QString &volumeId);
    [[nodiscard]] QString source() const { return m_source; }
    [[nodiscard]] QString volumeId() const { return m_volumeId; }
    /// True once the selected volume's snapshot list has been fetched.
    [[nodiscard]] bool isLoaded() const;

Q_SIGNALS:
    /// The selected volume's list was (re)loaded.
    void loaded();

private:
    QVariant recordData(const core::Snapshot &record, const QModelIndex &index, int role) const override;
    std::optional<QVariant> sortData(const core::Snapshot &record, int column) const override;
    QVariant displayData(const core::Snapshot &record, int column) const override;
    QStringList columnTitles() const override;

    core::Estate &m_estate;
    QString m_source;
    QString m_volumeId;
};

} // namespace strata::models
