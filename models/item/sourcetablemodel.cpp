#include "models/item/sourcetablemodel.h"

#include "models/item/roles.h"

namespace strata::models {

SourceTableModel::SourceTableModel(core::Engine &engine, QObject *parent)
    : ColumnTableModel(ColumnCount, parent)
    , m_engine(engine)
{
    setNumericColumns({Latency});
    syncRows();
    connect(&engine, &core::Engine::sourcesChanged, this, &SourceTableModel::syncRows);
    connect(&engine, &core::Engine::sourceStatusChanged, this, &SourceTableModel::updateStatus);
}

QString SourceTableModel::healthText(core::Health health)
{
    switch (health) {
    case core::Health::Unknown:
        return tr("Connecting…");
    case core::Health::Ok:
        return tr("OK");
    case core::Health::Degraded:
        return tr("Degraded");
    case core::Health::Unreachable:
        return tr("Unreachable");
    case core::Health::AuthRequired:
        return tr("Authentication required");
    }
    return {};
}

void SourceTableModel::syncRows()
{
    const QList<core::SourceStatus> next = m_engine.statuses();
    // Remove rows whose source is gone (from the bottom), then update/insert in config order.
    for (int row = int(m_rows.size()) - 1; row >= 0; --row) {
        bool present = false;
        for (const core::SourceStatus &s : next) {
            present = present || s.name == m_rows[row].name;
        }
        if (!present) {
            beginRemoveRows(QModelIndex(), row, row);
            m_rows.removeAt(row);
            endRemoveRows();
        }
    }
    for (int i = 0; i < int(next.size()); ++i) {
        int existing = -1;
        for (int r = 0; r < int(m_rows.size()); ++r) {
            if (m_rows[r].name == next[i].name) {
                existing = r;
            }
        }
        if (existing == i) {
            m_rows[i] = next[i];
            emitRowChanged(i);
        } else if (existing > i) {
            beginMoveRows(QModelIndex(), existing, existing, QModelIndex(), i);
            m_rows.move(existing, i);
            endMoveRows();
            m_rows[i] = next[i];
            emitRowChanged(i);
        } else {
            beginInsertRows(QModelIndex(), i, i);
            m_rows.insert(i, next[i]);
            endInsertRows();
        }
    }
}

void SourceTableModel::updateStatus(const QString &name)
{
    for (int row = 0; row < int(m_rows.size()); ++row) {
        if (m_rows[row].name == name) {
            if (auto s = m_engine.status(name)) {
                if (!(*s == m_rows[row])) {
                    m_rows[row] = *s;
                    emitRowChanged(row);
                }
            }
            return;
        }
    }
    syncRows();
}

int SourceTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QString SourceTableModel::nameAt(int row) const
{
    return row >= 0 && row < int(m_rows.size()) ? m_rows[row].name : QString();
}

QStringList SourceTableModel::loadingSources(std::optional<core::SourceKind> kind) const
{
    QStringList names;
    for (const core::SourceStatus &s : m_rows) {
        if ((!kind || s.kind == *kind) && s.health == core::Health::Unknown && !s.lastSuccess.isValid()
            && s.lastError.isEmpty()) {
            names << s.name;
        }
    }
    return names;
}

QStringList SourceTableModel::sourcesOf(core::SourceKind kind) const
{
    QStringList names;
    for (const core::SourceStatus &s : m_rows) {
        if (s.kind == kind) {
            names << s.name;
        }
    }
    return names;
}

QVariant SourceTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size())) {
        return {};
    }
    const core::SourceStatus &s = m_rows[index.row()];
    switch (role) {
    case KeyRole:
    case SourceRole:
        return s.name;
    case StaleRole:
        return s.stale;
    case StatusRole:
        switch (s.health) {
        case core::Health::Ok:
            return s.stale ? QStringLiteral("stale") : QStringLiteral("ok");
        case core::Health::Degraded:
            return QStringLiteral("warning");
        case core::Health::Unreachable:
        case core::Health::AuthRequired:
            return QStringLiteral("critical");
        case core::Health::Unknown:
            return QStringLiteral("unknown");
        }
        return {};
    case Qt::ToolTipRole:
        return s.lastError.isEmpty() ? QVariant() : QVariant(s.lastError);
    case Qt::TextAlignmentRole:
        return alignment(index.column());
    case RawValueRole:
        switch (index.column()) {
        case LastPoll:
            return s.lastSuccess;
        case Latency:
            return s.latencyMs;
        case Health:
            return int(s.health);
        default:
            break;
        }
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name:
            return s.name;
        case Kind:
            return core::sourceKindName(s.kind);
        case Url:
            return s.url;
        case Health:
            return QString(healthText(s.health)
                           + (s.stale && s.health == core::Health::Ok ? tr(" (stale)") : QString()));
        case System:
            return s.systemName;
        case Version:
            return s.systemVersion;
        case LastPoll:
            return s.lastSuccess.isValid() ? s.lastSuccess.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"))
                                           : QString();
        case Latency:
            return s.latencyMs >= 0 ? tr("%1 ms").arg(s.latencyMs) : QString();
        case Error:
            return s.lastError;
        default:
            return {};
        }
    default:
        return {};
    }
}

QStringList SourceTableModel::columnTitles() const
{
    return {tr("Name"),
            tr("Kind"),
            tr("URL"),
            tr("Health"),
            tr("System"),
            tr("Version"),
            tr("Last successful poll"),
            tr("Poll time"),
            tr("Last error")};
}

} // namespace strata::models
