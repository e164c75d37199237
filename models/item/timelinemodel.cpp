#include "models/item/timelinemodel.h"

#include "models/item/roles.h"

#include <QLocale>

namespace strata::models {

namespace {

QString timelineStatusOf(core::TimelineSeverity severity)
{
    switch (severity) {
    case core::TimelineSeverity::Critical:
    case core::TimelineSeverity::Error:
        return QStringLiteral("critical");
    case core::TimelineSeverity::Warning:
        return QStringLiteral("warning");
    case core::TimelineSeverity::Info:
        break;
    }
    return QStringLiteral("ok");
}

QString timelineTimeText(const QDateTime &t)
{
    return t.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"));
}

} // namespace

TimelineModel::TimelineModel(core::Timeline &timeline, QObject *parent)
    : KeyedTableModel(ColumnCount, parent)
    , m_timeline(timeline)
{
    core::Diff<core::TimelineEntry> initial;
    for (core::TimelineEntry &e : timeline.entries()) {
        m_keyOfId.insert(e.id, core::estateKey(e));
        initial.added.push_back(std::make_shared<const core::TimelineEntry>(std::move(e)));
    }
    applyDiff(initial);
    connect(&timeline, &core::Timeline::entriesChanged, this, &TimelineModel::onEntriesChanged);
}

void TimelineModel::onEntriesChanged(const QStringList &added, const QStringList &removed)
{
    core::Diff<core::TimelineEntry> diff;
    for (const QString &id : removed) {
        const auto it = m_keyOfId.constFind(id);
        if (it != m_keyOfId.cend()) {
            diff.removed << *it;
            m_keyOfId.erase(it);
        }
    }
    for (const QString &id : added) {
        if (core::Ptr<core::TimelineEntry> e = m_timeline.sharedEntry(id)) {
            m_keyOfId.insert(id, core::estateKey(*e));
            diff.added.push_back(std::move(e));
        }
    }
    applyDiff(diff);
}

int TimelineModel::rowOfId(const QString &id) const
{
    const auto it = m_keyOfId.constFind(id);
    return it == m_keyOfId.cend() ? -1 : rowOf(*it);
}

QString TimelineModel::systemLabel(const QString &system)
{
    if (system == QLatin1String("ontap")) {
        return tr("ONTAP");
    }
    if (system == QLatin1String("storagegrid")) {
        return tr("StorageGRID");
    }
    if (system == QLatin1String("azure")) {
        return tr("Azure");
    }
    if (system == QLatin1String("kubernetes")) {
        return tr("Kubernetes");
    }
    if (system == QLatin1String("strata")) {
        return tr("Strata");
    }
    return system;
}

QString TimelineModel::categoryLabel(core::TimelineCategory category)
{
    switch (category) {
    case core::TimelineCategory::SystemEvent:
        return tr("Event");
    case core::TimelineCategory::Alert:
        return tr("Alert");
    case core::TimelineCategory::Operation:
        return tr("Operation");
    case core::TimelineCategory::Scheduler:
        return tr("Scheduler");
    case core::TimelineCategory::Cache:
        return tr("Cache");
    case core::TimelineCategory::ServiceLevel:
        return tr("Service level");
    case core::TimelineCategory::Health:
        return tr("Health");
    }
    return {};
}

QString TimelineModel::severityLabel(core::TimelineSeverity severity)
{
    switch (severity) {
    case core::TimelineSeverity::Critical:
        return tr("Critical");
    case core::TimelineSeverity::Error:
        return tr("Error");
    case core::TimelineSeverity::Warning:
        return tr("Warning");
    case core::TimelineSeverity::Info:
        return tr("Info");
    }
    return {};
}

QVariant TimelineModel::recordData(const core::TimelineEntry &e, const QModelIndex &index, int role) const
{
    switch (role) {
    case ProjectRole:
        return e.project;
    case StatusRole:
        return timelineStatusOf(e.severity);
    case FilterTextRole:
        return QString(e.title + QLatin1Char(' ') + e.message + QLatin1Char(' ') + e.objectName + QLatin1Char(' ')
                       + e.source);
    case Qt::ToolTipRole:
        return index.column() == Message || index.column() == Title ? QVariant(e.message) : QVariant();
    default:
        return {};
    }
}

std::optional<QVariant> TimelineModel::sortData(const core::TimelineEntry &e, int column) const
{
    switch (column) {
    case Time:
        return e.time;
    case Severity:
        return int(e.severity);
    case Count:
        return 1;
    case FirstSeen:
        return e.time;
    default:
        return std::nullopt;
    }
}

QVariant TimelineModel::displayData(const core::TimelineEntry &e, int column) const
{
    switch (column) {
    case Time:
    case FirstSeen:
        return timelineTimeText(e.time);
    case Severity:
        return severityLabel(e.severity);
    case State:
        return QString();
    case Count:
        return QLocale().toString(1);
    case System:
        return systemLabel(e.system);
    case Source:
        return e.source;
    case Category:
        return categoryLabel(e.category);
    case Title:
        return e.title;
    case Object:
        return e.objectName;
    case Message:
        return QString(e.message).replace(QLatin1Char('\n'), QLatin1Char(' '));
    default:
        return {};
    }
}

QStringList TimelineModel::columnTitles() const
{
    return {tr("Last seen"),
            tr("Severity"),
            tr("State"),
            tr("Count"),
            tr("System"),
            tr("Source"),
            tr("Category"),
            tr("Title"),
            tr("Object"),
            tr("First seen"),
            tr("Message")};
}

TimelineFilterModel::TimelineFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(RawValueRole);
    setDynamicSortFilter(true);
}

void TimelineFilterModel::setSourceModel(QAbstractItemModel *model)
{
    for (const QMetaObject::Connection &c : std::as_const(m_sourceConnections)) {
        disconnect(c);
    }
    m_sourceConnections.clear();
    QSortFilterProxyModel::setSourceModel(model);
    if (model) {
        // After the proxy's own handling: a new entry can take over its group's row.
        for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved}) {
            m_sourceConnections << connect(model, signal, this, [this] {
                regroup();
            });
        }
    }
    regroup();
}

void TimelineFilterModel::setFilter(const core::TimelineFilter &filter)
{
    m_filter = filter;
    m_filter.limit = 0;
    m_filter.offset = 0;
    regroup();
}

void TimelineFilterModel::setGrouped(bool grouped)
{
    if (m_grouped != grouped) {
        m_grouped = grouped;
        regroup();
    }
}

void TimelineFilterModel::regroup()
{
    m_groupOf.clear();
    const auto *model = qobject_cast<const TimelineModel *>(sourceModel());
    if (m_grouped && model) {
        for (const core::TimelineGroup &g : model->timeline().groups(m_filter)) {
            m_groupOf.insert(g.entry.id, GroupInfo{g.entry.severity, g.count, g.firstSeen, g.alert, g.active});
        }
    }
    // Re-filters and re-sorts (a group's count or state may have changed) as a layout change.
    invalidate();
    if (rowCount() > 0) {
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    }
}

const TimelineFilterModel::GroupInfo *TimelineFilterModel::groupOfSourceRow(int sourceRow) const
{
    const auto *model = qobject_cast<const TimelineModel *>(sourceModel());
    const core::TimelineEntry *e = model ? model->recordAt(sourceRow) : nullptr;
    if (!e) {
        return nullptr;
    }
    const auto it = m_groupOf.constFind(e->id);
    return it == m_groupOf.cend() ? nullptr : &*it;
}

bool TimelineFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (sourceParent.isValid()) {
        return false;
    }
    const auto *model = qobject_cast<const TimelineModel *>(sourceModel());
    const core::TimelineEntry *e = model ? model->recordAt(sourceRow) : nullptr;
    if (!e || !m_filter.matches(*e)) {
        return false;
    }
    return !m_grouped || m_groupOf.contains(e->id);
}

bool TimelineFilterModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const GroupInfo *a = m_grouped ? groupOfSourceRow(left.row()) : nullptr;
    const GroupInfo *b = m_grouped ? groupOfSourceRow(right.row()) : nullptr;
    if (a && b) {
        if (a->active != b->active) {
            // Active alerts on top whichever way the column sorts.
            return sortOrder() == Qt::AscendingOrder ? a->active : b->active;
        }
        switch (left.column()) {
        case TimelineModel::Severity:
            if (a->severity != b->severity) {
                return int(a->severity) < int(b->severity);
            }
            break;
        case TimelineModel::State:
            if (a->alert != b->alert) {
                return a->alert;
            }
            break;
        case TimelineModel::Count:
            if (a->count != b->count) {
                return a->count < b->count;
            }
            break;
        case TimelineModel::FirstSeen:
            if (a->firstSeen != b->firstSeen) {
                return a->firstSeen < b->firstSeen;
            }
            break;
        default:
            break;
        }
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

QVariant TimelineFilterModel::data(const QModelIndex &index, int role) const
{
    if (m_grouped && index.isValid()) {
        const GroupInfo *g = groupOfSourceRow(mapToSource(index).row());
        if (g) {
            switch (index.column()) {
            case TimelineModel::Severity:
                if (role == Qt::DisplayRole) {
                    return TimelineModel::severityLabel(g->severity);
                }
                if (role == StatusRole) {
                    return timelineStatusOf(g->severity);
                }
                if (role == RawValueRole) {
                    return int(g->severity);
                }
                break;
            case TimelineModel::State:
                if (role == Qt::DisplayRole || role == RawValueRole) {
                    return !g->alert ? QString() : (g->active ? tr("Active") : tr("Resolved"));
                }
                break;
            case TimelineModel::Count:
                if (role == Qt::DisplayRole) {
                    return QLocale().toString(g->count);
                }
                if (role == RawValueRole) {
                    return g->count;
                }
                break;
            case TimelineModel::FirstSeen:
                if (role == Qt::DisplayRole) {
                    return timelineTimeText(g->firstSeen);
                }
                if (role == RawValueRole) {
                    return g->firstSeen;
                }
                break;
            default:
                break;
            }
        }
    }
    return QSortFilterProxyModel::data(index, role);
}

} // namespace strata::models
