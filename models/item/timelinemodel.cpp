#include "models/item/timelinemodel.h"

#include "models/item/roles.h"

namespace strata::models {

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
        switch (e.severity) {
        case core::TimelineSeverity::Critical:
        case core::TimelineSeverity::Error:
            return QStringLiteral("critical");
        case core::TimelineSeverity::Warning:
            return QStringLiteral("warning");
        case core::TimelineSeverity::Info:
            break;
        }
        return QStringLiteral("ok");
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
    default:
        return std::nullopt;
    }
}

QVariant TimelineModel::displayData(const core::TimelineEntry &e, int column) const
{
    switch (column) {
    case Time:
        return e.time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"));
    case Severity:
        return severityLabel(e.severity);
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
    return {tr("Time"),
            tr("Severity"),
            tr("System"),
            tr("Source"),
            tr("Category"),
            tr("Title"),
            tr("Object"),
            tr("Message")};
}

TimelineFilterModel::TimelineFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(RawValueRole);
    setDynamicSortFilter(true);
}

void TimelineFilterModel::setFilter(const core::TimelineFilter &filter)
{
    m_filter = filter;
    m_filter.limit = 0;
    invalidateFilter();
}

bool TimelineFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (sourceParent.isValid()) {
        return false;
    }
    const auto *model = qobject_cast<const TimelineModel *>(sourceModel());
    const core::TimelineEntry *e = model ? model->recordAt(sourceRow) : nullptr;
    return e && m_filter.matches(*e);
}

} // namespace strata::models
