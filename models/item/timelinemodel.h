#pragma once

#include "models/core/timeline.h"
#include "models/item/keyedtablemodel.h"

#include <QSortFilterProxyModel>

namespace strata::models {

/// The merged triage timeline (core::Timeline) as a table, updated by its entriesChanged
/// batches as keyed inserts and removals: never a reset, also not on restore(). Rows are in
/// arrival order; views sort by RawValueRole (Time: the QDateTime, Severity: its rank, 0 =
/// critical). StatusRole: "critical" (critical, error), "warning", "ok" (info). IdRole is the
/// entry's id; KeyRole its estate key "<source>/<id>".
class TimelineModel final : public KeyedTableModel<core::TimelineEntry>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TimelineModel)

public:
    enum Column
    {
        Time,
        Severity,
        System,
        Source,
        Category,
        Title,
        Object,
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
/// and sorts by RawValueRole. `limit` of the filter is ignored (views scroll).
class TimelineFilterModel final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TimelineFilterModel)

public:
    explicit TimelineFilterModel(QObject *parent = nullptr);

    void setFilter(const core::TimelineFilter &filter);
    [[nodiscard]] const core::TimelineFilter &filter() const { return m_filter; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    core::TimelineFilter m_filter;
};

} // namespace strata::models
