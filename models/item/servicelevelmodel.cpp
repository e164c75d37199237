#include "models/item/servicelevelmodel.h"

#include "models/core/planning/reportformat.h"
#include "models/item/roles.h"

#include <QLocale>

#include <algorithm>

namespace strata::models {

ServiceLevelTableModel::ServiceLevelTableModel(core::ServiceLevels *levels, QObject *parent)
    : ColumnTableModel(ColumnCount, parent)
    , m_levels(levels)
{
    setNumericColumns({Cap, CapIops, Observed, P95, CapUse, Cost});
    if (m_levels) {
        connect(m_levels, &core::ServiceLevels::changed, this, [this] {
            setCurrency(m_levels->rateCard().currency);
        });
        connect(m_levels, &core::ServiceLevels::rowsUpdated, this, &ServiceLevelTableModel::applyUpdate);
        reload();
    }
}

ServiceLevelTableModel::~ServiceLevelTableModel() = default;

void ServiceLevelTableModel::reload()
{
    setCurrency(m_levels->rateCard().currency);
    setRows(m_levels->rows());
}

int ServiceLevelTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QString ServiceLevelTableModel::key(const core::ServiceLevelRow &row)
{
    return row.source + QLatin1Char('/') + row.volumeId;
}

const core::ServiceLevelRow *ServiceLevelTableModel::rowAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows[row] : nullptr;
}

double ServiceLevelTableModel::capUse(const core::ServiceLevelRow &row)
{
    return row.capUsedPercent < 0 ? -1 : row.capUsedPercent;
}

QString ServiceLevelTableModel::formatIops(double iops)
{
    return iops < 0 ? QStringLiteral("–") : QLocale().toString(iops, 'f', 0);
}

QString ServiceLevelTableModel::flagText(core::LevelFlag flag)
{
    switch (flag) {
    case core::LevelFlag::AtCap:
        return tr("At cap – raise?");
    case core::LevelFlag::FarBelow:
        return tr("Far below – lower?");
    case core::LevelFlag::None:
        break;
    }
    return {};
}

QString ServiceLevelTableModel::formatMibps(double mibps)
{
    if (mibps < 0) {
        return QStringLiteral("–");
    }
    return core::formatRateMibps(mibps);
}

QString ServiceLevelTableModel::formatMoney(double amount, const QString &currency)
{
    return core::formatMoney(amount, currency);
}

void ServiceLevelTableModel::setCurrency(const QString &currency)
{
    if (currency == m_currency) {
        return;
    }
    m_currency = currency;
    if (!m_rows.isEmpty()) {
        Q_EMIT dataChanged(index(0, Cost), index(int(m_rows.size()) - 1, Cost));
    }
}

void ServiceLevelTableModel::setRows(const QList<core::ServiceLevelRow> &rows)
{
    // The usual poll: the same volumes in the same order, only figures moved. Matched by
    // position, without building a key and a hash entry per volume (50,000 at the largest).
    const bool sameVolumes = rows.size() == m_rows.size()
                             && std::equal(rows.cbegin(),
                                           rows.cend(),
                                           m_rows.cbegin(),
                                           [](const core::ServiceLevelRow &a, const core::ServiceLevelRow &b) {
                                               return a.volumeId == b.volumeId && a.source == b.source;
                                           });
    if (sameVolumes) {
        applyChanges([&rows](int r) -> const core::ServiceLevelRow & {
            return rows[r];
        });
        return;
    }
    QHash<QString, int> next;
    next.reserve(rows.size());
    for (int i = 0; i < rows.size(); ++i) {
        next.insert(key(rows[i]), i);
    }
    QSet<QString> gone;
    for (const core::ServiceLevelRow &row : std::as_const(m_rows)) {
        const QString k = key(row);
        if (!next.contains(k)) {
            gone.insert(k);
        }
    }
    if (gone.isEmpty()) {
        reindex();
    } else {
        removeKeys(gone);
    }
    applyChanges([this, &rows, &next](int r) -> const core::ServiceLevelRow & {
        return rows[next.value(key(m_rows[r]))];
    });
    QList<core::ServiceLevelRow> added;
    for (const core::ServiceLevelRow &row : rows) {
        if (!m_index.contains(key(row))) {
            added.append(row);
        }
    }
    appendRows(added);
}

void ServiceLevelTableModel::applyUpdate(const core::ServiceLevelUpdate &update)
{
    if (update.complete) {
        setRows(update.rows);
        return;
    }
    QSet<QString> gone;
    for (const QString &k : update.removed) {
        if (m_index.contains(k)) {
            gone.insert(k);
        }
    }
    if (!gone.isEmpty()) {
        removeKeys(gone);
    } else if (m_index.size() != m_rows.size()) {
        reindex();
    }
    std::vector<int> changed;
    QList<core::ServiceLevelRow> added;
    for (const core::ServiceLevelRow &row : update.rows) {
        const int r = m_index.value(key(row), -1);
        if (r < 0) {
            added.append(row);
        } else if (!(m_rows[r] == row)) {
            m_rows[r] = row;
            changed.push_back(r);
        }
    }
    std::sort(changed.begin(), changed.end());
    emitRowsChanged(changed);
    appendRows(added);
}

void ServiceLevelTableModel::appendRows(const QList<core::ServiceLevelRow> &added)
{
    if (added.isEmpty()) {
        return;
    }
    const int first = int(m_rows.size());
    beginInsertRows(QModelIndex(), first, first + int(added.size()) - 1);
    for (const core::ServiceLevelRow &row : added) {
        m_index.insert(key(row), int(m_rows.size()));
        m_rows.append(row);
    }
    endInsertRows();
}

void ServiceLevelTableModel::reindex()
{
    m_index.clear();
    m_index.reserve(m_rows.size());
    for (int r = 0; r < m_rows.size(); ++r) {
        m_index.insert(key(m_rows[r]), r);
    }
}

void ServiceLevelTableModel::removeKeys(const QSet<QString> &keys)
{
    std::vector<int> gone;
    for (int r = 0; r < m_rows.size(); ++r) {
        if (keys.contains(key(m_rows[r]))) {
            gone.push_back(r);
        }
    }
    // From the bottom, so the remaining row numbers stay valid while removing.
    for (auto it = gone.rbegin(); it != gone.rend();) {
        int last = *it;
        int first = last;
        ++it;
        while (it != gone.rend() && *it == first - 1) {
            first = *it;
            ++it;
        }
        beginRemoveRows(QModelIndex(), first, last);
        m_rows.remove(first, last - first + 1);
        endRemoveRows();
    }
    reindex();
}

void ServiceLevelTableModel::emitRowsChanged(const std::vector<int> &rows)
{
    if (rows.empty()) {
        return;
    }
    std::vector<std::pair<int, int>> runs;
    for (const int r : rows) {
        if (!runs.empty() && runs.back().second == r - 1) {
            runs.back().second = r;
        } else {
            runs.emplace_back(r, r);
        }
    }
    // Thousands of one-row signals (a poll moving every other volume's figures) cost the views
    // and proxies more than one signal over the span.
    constexpr std::size_t kMaxRuns = 64;
    if (runs.size() > kMaxRuns) {
        runs = {{runs.front().first, runs.back().second}};
    }
    for (const auto &[first, last] : runs) {
        Q_EMIT dataChanged(index(first, 0), index(last, ColumnCount - 1));
    }
}

void ServiceLevelTableModel::applyChanges(const std::function<const core::ServiceLevelRow &(int row)> &incomingFor)
{
    std::vector<int> changed;
    for (int r = 0; r < m_rows.size(); ++r) {
        const core::ServiceLevelRow &incoming = incomingFor(r);
        if (!(incoming == m_rows[r])) {
            m_rows[r] = incoming;
            changed.push_back(r);
        }
    }
    emitRowsChanged(changed);
}

QVariant ServiceLevelTableModel::data(const QModelIndex &index, int role) const
{
    const core::ServiceLevelRow *r = rowAt(index.row());
    if (!r || index.column() < 0 || index.column() >= ColumnCount) {
        return {};
    }
    const QLocale locale;
    switch (role) {
    case KeyRole:
        return key(*r);
    case SourceRole:
        return r->source;
    case IdRole:
        return r->volumeId;
    case FilterTextRole:
        return QString(r->volumeName + QLatin1Char(' ') + r->container + QLatin1Char(' ') + r->source + QLatin1Char(' ')
                       + r->level);
    case StatusRole:
        if (index.column() == Flag || index.column() == CapUse) {
            switch (r->flag) {
            case core::LevelFlag::AtCap:
                return QStringLiteral("warning");
            case core::LevelFlag::FarBelow:
                return QStringLiteral("unknown");
            case core::LevelFlag::None:
                break;
            }
        }
        return QStringLiteral("ok");
    case Qt::ToolTipRole:
        switch (index.column()) {
        case Flag:
        case CapUse:
            return r->flagReason.isEmpty() ? QVariant() : QVariant(r->flagReason);
        case LevelDetail:
            return r->levelDetail;
        case Cap:
            return r->capMibps < 0 && r->capIops > 0 ? tr("Capped in IOPS only (%1 IOPS)").arg(formatIops(r->capIops))
                                                     : QVariant();
        case LastChange:
            return r->lastChange.isValid() ? QVariant(locale.toString(r->lastChange.toLocalTime(), QLocale::LongFormat))
                                           : QVariant();
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        return alignment(index.column());
    case RawValueRole:
        switch (index.column()) {
        case Cap:
            return r->capMibps;
        case CapIops:
            return r->capIops;
        case Observed:
            return r->observedMibps;
        case P95:
            return r->p95Mibps;
        case CapUse:
            return capUse(*r);
        case Cost:
            return r->costPerMonth;
        case Flag:
            return int(r->flag);
        case LastChange:
            return r->lastChange;
        default:
            break;
        }
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (index.column()) {
        case Source:
            return r->source;
        case Volume:
            return r->volumeName;
        case Container:
            return r->container;
        case Level:
            if (r->level.isEmpty()) {
                return r->kind == core::SourceKind::Ontap ? tr("(no policy)") : QString();
            }
            return r->level;
        case LevelDetail:
            return r->levelDetail;
        case Cap:
            return formatMibps(r->capMibps);
        case CapIops:
            return formatIops(r->capIops);
        case Observed:
            return formatMibps(r->observedMibps);
        case P95:
            return formatMibps(r->p95Mibps);
        case CapUse: {
            const double use = capUse(*r);
            return use < 0 ? QStringLiteral("–") : QString(locale.toString(use, 'f', 0) + QStringLiteral(" %"));
        }
        case Cost:
            return formatMoney(r->costPerMonth, m_currency);
        case Flag:
            return flagText(r->flag);
        case LastChange:
            return r->lastChange.isValid() ? locale.toString(r->lastChange.toLocalTime(), QLocale::ShortFormat)
                                           : QString();
        default:
            return {};
        }
    default:
        return {};
    }
}

QStringList ServiceLevelTableModel::columnTitles() const
{
    return {tr("Source"),
            tr("Volume"),
            tr("SVM / pool"),
            tr("Level"),
            tr("Level detail"),
            tr("Throughput cap"),
            tr("Observed"),
            tr("p95 24 h"),
            tr("Cap use"),
            tr("Cost/month"),
            tr("Flag"),
            tr("Last change"),
            tr("IOPS cap")};
}

} // namespace strata::models
