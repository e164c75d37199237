#include "models/item/snapshotlistmodel.h"

#include "models/item/roles.h"

namespace strata::models {

SnapshotListModel::SnapshotListModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(ColumnCount, parent)
    , m_estate(estate)
{
    setNumericColumns({Size});
    connect(&estate,
            &core::Estate::snapshotsChanged,
            this,
            [this](const QString &source, const QString &volumeId, const core::SnapshotDiff &diff) {
                if (source == m_source && volumeId == m_volumeId) {
                    applyDiff(diff);
                    Q_EMIT loaded();
                }
            });
}

void SnapshotListModel::setVolume(const QString &source, const QString &volumeId)
{
    if (source == m_source && volumeId == m_volumeId) {
        return;
    }
    m_source = source;
    m_volumeId = volumeId;
    const auto list = m_estate.snapshots().scope(core::Estate::snapshotScope(source, volumeId));
    resetRows(list ? list->items() : std::vector<core::Ptr<core::Snapshot>>{});
}

bool SnapshotListModel::isLoaded() const
{
    return !m_volumeId.isEmpty() && m_estate.hasSnapshots(m_source, m_volumeId);
}

QVariant SnapshotListModel::recordData(const core::Snapshot &s, const QModelIndex &, int role) const
{
    switch (role) {
    case StatusRole:
        return s.state.isEmpty() || s.state == QLatin1String("valid") ? QStringLiteral("ok")
                                                                      : QStringLiteral("warning");
    default:
        return {};
    }
}

std::optional<QVariant> SnapshotListModel::sortData(const core::Snapshot &s, int column) const
{
    switch (column) {
    case Created:
        return s.created;
    case Size:
        return s.sizeBytes;
    default:
        return std::nullopt;
    }
}

QVariant SnapshotListModel::displayData(const core::Snapshot &s, int column) const
{
    switch (column) {
    case Name:
        return s.name;
    case Created:
        return s.created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm"));
    case Size:
        return s.sizeBytes > 0 ? core::formatBytes(s.sizeBytes) : QString();
    case Label:
        return s.snapmirrorLabel;
    case Comment:
        return s.comment;
    case State:
        return s.state;
    default:
        return {};
    }
}

QStringList SnapshotListModel::columnTitles() const
{
    return {tr("Name"), tr("Created"), tr("Size"), tr("SnapMirror label"), tr("Comment"), tr("State")};
}

} // namespace strata::models
