#pragma once

#include "models/core/runtime/timeline.h"
#include "models/item/keyedtablemodel.h"

#include <QSortFilterProxyModel>

namespace strata::models {

/// The merged triage timeline (core::Timeline) as a table, updated by its entriesChanged
/// batches as keyed inserts and removals: never a reset, also not on restore(). Rows are in
/// arrival order; views sort by RawValueRole (Time: the QDateTime, Severity: its rank, 0 =
/// critical). StatusRole: "critical" (critical, error), "warning", "ok" (info). IdRole is the
/// entry's id; KeyRole its estate key "<source>/<id>". State, Count and First seen describe one
/// entry here ("", 1, its time); TimelineFilterModel shows its group's.
class TimelineModel final : public KeyedTableModel<core::TimelineEntry>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TimelineModel)

public:
    enum Column
    {
        Time, ///< grouped: last seen
        Severity,
        State, ///< an alert's group: "Active" or "Resolved"; empty for anything else
        Count, ///< occurrences of the group
        System,
        Source,
        Category,
        Title,
        Object,
        FirstSeen,
        Message,
        ColumnCount
    };

    explicit TimelineModel(core::Timeline &timeline, QObject *parent = nullptr);

    [[nodiscard]] core::Timeline &timeline() const { return m_timeline; }
    /// Row of the entry with this id, or -1.
    [[nodiscard]] int rowOfId(const QString &id) const;

    /// "ONTAP", "StorageGRID", "Azure", "Kubernetes", "Strata" for a system name.
    static QString systemLabel(const QString &system);
    /// "Event", "Alert", "Operation", "Scheduler", "Cache", "Service level", "Health".
    static QString categoryLabel(core::TimelineCategory category);
    /// "Critical", "Error", "Warning", "Info".
    static QString severityLabel(core::TimelineSeverity severity);

private:
    QVariant recordData(const core::TimelineEntry &record, const QModelIndex &index, int role) const override;
    std::optional<QVariant> sortData(const core::TimelineEntry &record, int column) const override;
    QVariant displayData(const core::TimelineEntry &record, int column) const override;
    QStringList columnTitles() const override;

    void onEntriesChanged(const QStringList &added, const QStringList &removed);

    core::Timeline &m_timeline;
    QHash<QString, QString> m_keyOfId; ///< entry id -> estate key
};

/// Narrows a TimelineModel with a core::TimelineFilter (the same matching as `strata get events`)
/// and sorts by RawValueRole. `limit` and `offset` of the filter are ignored (views scroll).
/// Grouped (the default), it shows one row per core::Timeline::groups() group, the rows
/// `strata get events` prints: the group's shown entry, with the group's severity, state, count
/// and first seen; active alerts come first in either sort order.
class TimelineFilterModel final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TimelineFilterModel)

public:
    explicit TimelineFilterModel(QObject *parent = nullptr);

    /// A TimelineModel (anything else shows no rows).
    void setSourceModel(QAbstractItemModel *model) override;
    void setFilter(const core::TimelineFilter &filter);
    [[nodiscard]] const core::TimelineFilter &filter() const { return m_filter; }
    /// False: every entry is a row of its own.
    void setGrouped(bool grouped);
    [[nodiscard]] bool isGrouped() const { return m_grouped; }

    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    struct GroupInfo
    {
        core::TimelineSeverity severity = core::TimelineSeverity::Info;
        int count = 1;
        QDateTime firstSeen;
        bool alert = false;
        bool active = false;
    };
    /// Recomputes the groups, then the rows they show.
    void regroup();
    [[nodiscard]] const GroupInfo *groupOfSourceRow(int sourceRow) const;

    core::TimelineFilter m_filter;
    bool m_grouped = true;
    QHash<QString, GroupInfo> m_groupOf; ///< id of each group's shown entry -> group
    QList<QMetaObject::Connection> m_sourceConnections;
};

} // namespace strata::models
