#include "models/item/snapshotlistmodel.h"

#include "models/item/roles.h"

namespace strata::models {

SnapshotListModel::SnapshotListModel(core::Estate &estate, QObject *parent)
    : KeyedTableModel(parent)
    , m_estate(estate)
{
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

int SnapshotListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SnapshotListModel::data(const QModelIndex &index, int role) const
{
    const core::Snapshot *s = recordAt(index.row());
    if (!s) {
        return {};
    }
    switch (role) {
    case KeyRole:
        return core::estateKey(*s);
    case IdRole:
        return s->id;
    case SourceRole:
        return s->source;
    case StatusRole:
        return s->state.isEmpty() || s->state == QLatin1String("valid") ? QStringLiteral("ok")
                                                                        : QStringLiteral("warning");
    case RawValueRole:
        switch (index.column()) {
        case Created:
            return s->created;
        case Size:
            return s->sizeBytes;
        default:
            break;
        }
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name:
            return s->name;
        case Created:
            return s->created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm"));
        case Size:
            return s->sizeBytes > 0 ? core::formatBytes(s->sizeBytes) : QString();
        case Label:
            return s->snapmirrorLabel;
        case Comment:
            return s->comment;
        case State:
            return s->state;
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        return index.column() == Size ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    default:
        return {};
    }
}

QVariant SnapshotListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Name:
        return tr("Name");
    case Created:
        return tr("Created");
    case Size:
        return tr("Size");
    case Label:
        return tr("SnapMirror label");
    case Comment:
        return tr("Comment");
    case State:
        return tr("State");
    default:
        return {};
    }
}

} // namespace strata::models
