#pragma once

#include "models/core/domain/estate.h"
#include "models/core/domain/records.h"
#include "models/core/planning/volumefields.h"
#include "models/item/keyedtablemodel.h"

namespace strata::models {

/// Every volume of every source (tens of thousands of rows), updated by estate diffs. The
/// performance columns come from the separate (subscribed) performance poll.
class VolumeTableModel final : public KeyedTableModel<core::Volume>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VolumeTableModel)

public:
    // The columns are the Desktop fields of core::kVolumeFields, in its order; these name the
    // ones the views address.
    static constexpr int Name = core::fieldColumn(core::volumeFields(), "name", core::Desktop);
    static constexpr int Source = core::fieldColumn(core::volumeFields(), "source", core::Desktop);
    static constexpr int Svm = core::fieldColumn(core::volumeFields(), "svm", core::Desktop);
    static constexpr int State = core::fieldColumn(core::volumeFields(), "state", core::Desktop);
    static constexpr int Style = core::fieldColumn(core::volumeFields(), "style", core::Desktop);
    static constexpr int Size = core::fieldColumn(core::volumeFields(), "size_bytes", core::Desktop);
    static constexpr int Used = core::fieldColumn(core::volumeFields(), "used_bytes", core::Desktop);
    static constexpr int PercentUsed = core::fieldColumn(core::volumeFields(), "percent_used", core::Desktop);
    static constexpr int Available = core::fieldColumn(core::volumeFields(), "available_bytes", core::Desktop);
    static constexpr int Qos = core::fieldColumn(core::volumeFields(), "qos_policy", core::Desktop);
    static constexpr int Snapshots = core::fieldColumn(core::volumeFields(), "snapshot_count", core::Desktop);
    static constexpr int Iops = core::fieldColumn(core::volumeFields(), "total_iops", core::Desktop);
    static constexpr int Throughput = core::fieldColumn(core::volumeFields(), "throughput_bps", core::Desktop);
    static constexpr int Latency = core::fieldColumn(core::volumeFields(), "latency_us", core::Desktop);
    static constexpr int ColumnCount = core::fieldCount(core::volumeFields(), core::Desktop);

    /// The field shown in `column`, or nullptr.
    static const core::Field<core::VolumeRow> *field(int column)
    {
        return core::fieldAt(core::volumeFields(), column, core::Desktop);
    }

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
    QString columnToolTip(int column) const override;

    void applyPerf(const core::VolumePerfDiff &diff);
    [[nodiscard]] core::VolumeRow joined(const core::Volume &v) const;

    QHash<QString, core::Ptr<core::VolumePerf>> m_perf;
    QHash<QString, core::SourceStatus> m_sources;
};

} // namespace strata::models
