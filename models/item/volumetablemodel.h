#pragma once

#include "models/core/domain/estate.h"
#include "models/core/domain/records.h"
#include "models/item/keyedtablemodel.h"

namespace strata::models {

/// Every volume of every source (tens of thousands of rows), updated by estate diffs. The
/// performance columns come from the separate (subscribed) performance poll.
class VolumeTableModel final : public KeyedTableModel<core::Volume>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VolumeTableModel)

public:
    enum Column
    {
        Name,
        Source,
        Svm,
        State,
        Style,
        Size,        ///< provisioned bytes
        Used,        ///< bytes
        PercentUsed, ///< 0..100
        Available,   ///< bytes
        Qos,         ///< QoS policy name
        Snapshots,   ///< count
        Iops,        ///< total IOPS (performance poll)
        Throughput,  ///< bytes/s (performance poll)
        Latency,     ///< µs average (performance poll)
        ColumnCount
    };

    explicit VolumeTableModel(core::Estate &estate, QObject *parent = nullptr);

    /// Marks the rows of a source stale or fresh (StaleRole, StatusRole "stale", tooltip).
    void setSourceStatus(const core::SourceStatus &status);
    /// Latest performance sample of a volume, or nullptr.
    [[nodiscard]] core::Ptr<core::VolumePerf> perf(const QString &key) const { return m_perf.value(key); }
    /// Every volume's latest performance sample by estate key (implicitly shared: a copy is a
    /// snapshot).
    [[nodiscard]] const QHash<QString, core::Ptr<core::VolumePerf>> &perfs() const { return m_perf; }

    /// Capacity state of a volume: "offline", "unknown" (online but no space reported), "critical"
    /// (>= 95 %), "warning" (>= 85 %), "ok".
    static QString capacityStatus(const core::Volume &volume);
    /// FilterTextRole: name, SVM, source, QoS policy and junction path, space-separated.
    static QString filterText(const core::Volume &volume);

private:
    QVariant recordData(const core::Volume &record, const QModelIndex &index, int role) const override;
    std::optional<QVariant> sortData(const core::Volume &record, int column) const override;
    QVariant displayData(const core::Volume &record, int column) const override;
    QStringList columnTitles() const override;

    void applyPerf(const core::VolumePerfDiff &diff);

    QHash<QString, core::Ptr<core::VolumePerf>> m_perf;
    QHash<QString, core::SourceStatus> m_sources;
};

} // namespace strata::models
