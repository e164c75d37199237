#pragma once

#include "models/core/services/servicelevels.h"
#include "models/item/columntablemodel.h"

#include <QHash>
#include <QList>
#include <QSet>

#include <functional>

namespace strata::models {

/// Every volume's service level (ServiceLevels::rows()): level, cap, observed throughput, p95,
/// cap use, price and flag. Updated by keyed diffs on ServiceLevels::rowsUpdated (rows matched by
/// "<source>/<volumeId>", only the recomputed ones, large polls computed off the GUI thread):
/// removals, in-place changes and appends, never a reset, so selection and sorting survive
/// every poll.
class ServiceLevelTableModel final : public ColumnTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ServiceLevelTableModel)

public:
    enum Column
    {
        Source,
        Volume,
        Container,   ///< ONTAP SVM, ANF "account/pool"
        Level,       ///< ANF service level or ONTAP QoS policy
        LevelDetail, ///< "16 MiB/s per TiB (auto QoS)", "fixed: 500 MB/s", ...
        Cap,         ///< throughput cap, MiB/s (raw double, -1 none); the IOPS cap is CapIops
        Observed,    ///< latest MiB/s
        P95,         ///< p95 of the last 24 h, MiB/s
        CapUse,      ///< ServiceLevelRow::capUsedPercent, 0..100+ (the figure "At cap" comes from)
        Cost,        ///< per month in the rate card's currency
        Flag,        ///< "At cap – raise?", "Far below – lower?"
        LastChange,  ///< UTC of the last level change
        CapIops,     ///< IOPS cap (raw double, -1 none); shown after Cap (last here: saved layouts stay valid)
        ColumnCount
    };

    /// `levels` may be null (rows only through setRows(), e.g. tests).
    explicit ServiceLevelTableModel(core::ServiceLevels *levels, QObject *parent = nullptr);
    ~ServiceLevelTableModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    /// Applies `rows` as a keyed diff against what is shown.
    void setRows(const QList<core::ServiceLevelRow> &rows);
    /// Applies one ServiceLevels::rowsUpdated(): a complete one as setRows(), else its removals,
    /// then its rows (replacing the shown row of the same volume when it differs, appending new
    /// volumes).
    void applyUpdate(const core::ServiceLevelUpdate &update);
    /// ISO code shown with prices ("USD"), from the rate card.
    void setCurrency(const QString &currency);

    [[nodiscard]] const core::ServiceLevelRow *rowAt(int row) const;
    /// Row of "<source>/<volumeId>", or -1.
    [[nodiscard]] int rowOf(const QString &key) const { return m_index.value(key, -1); }
    [[nodiscard]] core::ServiceLevels *serviceLevels() const { return m_levels; }

    static QString key(const core::ServiceLevelRow &row);
    /// Cap use in percent (core::ServiceLevelRow::capUsedPercent), -1 when unknown.
    static double capUse(const core::ServiceLevelRow &row);
    /// "5,000" IOPS with the locale's grouping; "–" for negative values.
    static QString formatIops(double iops);
    /// "At cap – raise?", "Far below – lower?", "".
    static QString flagText(core::LevelFlag flag);
    /// core::formatRateMibps: "12.5 MiB/s", "5.6 GiB/s"; "–" for negative values.
    static QString formatMibps(double mibps);
    /// core::formatMoney() in the UI locale: "$147.50", "1,234.50 EUR"; "—" for negative (no price).
    static QString formatMoney(double amount, const QString &currency);

private:
    QStringList columnTitles() const override;

    void reload();

    core::ServiceLevels *m_levels;
    /// Replaces each shown row that differs from `incomingFor(row)` (same volume), emitting
    /// dataChanged over contiguous runs.
    void applyChanges(const std::function<const core::ServiceLevelRow &(int row)> &incomingFor);
    /// dataChanged over the runs of `rows` (ascending), or one over their span when scattered.
    void emitRowsChanged(const std::vector<int> &rows);
    /// Removes the rows of `keys` (runs from the bottom) and re-indexes.
    void removeKeys(const QSet<QString> &keys);
    void reindex();
    /// Appends rows of volumes not shown yet (one insert).
    void appendRows(const QList<core::ServiceLevelRow> &added);

    QList<core::ServiceLevelRow> m_rows;
    QHash<QString, int> m_index;
    QString m_currency = QStringLiteral("USD");
};

} // namespace strata::models
