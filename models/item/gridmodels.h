#pragma once

#include "models/core/domain/estate.h"
#include "models/core/domain/records.h"
#include "models/item/keyedtablemodel.h"

namespace strata::models {

/// The nodes of every StorageGRID grid (Estate::gridNodes()): name, site, type, connection
/// state and alert severity. Updated by estate diffs.
class GridNodeModel final : public KeyedTableModel<core::GridNode>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GridNodeModel)

public:
    enum Column
    {
        Name,
        Site,
        Type,     ///< "Admin node (primary)", "Storage node", "Gateway node", or the raw type
        State,    ///< "connected", "administratively down", "unknown"
        Severity, ///< the node's worst alert: "normal", "minor", "major", "critical"
        Grid,     ///< the source
        ColumnCount
    };

    explicit GridNodeModel(core::Estate &estate, QObject *parent = nullptr);

    static QString typeText(const QString &type);
    /// StatusRole of an alert severity: critical "critical", major "critical", minor "warning",
    /// anything else "ok".
    static QString severityStatus(const QString &severity);

private:
    QVariant recordData(const core::GridNode &record, const QModelIndex &index, int role) const override;
    QVariant displayData(const core::GridNode &record, int column) const override;
    QStringList columnTitles() const override;
};

/// The alerts of every grid (Estate::gridAlerts()), active and resolved: severity, name,
/// summary, node, site, started, resolved. Updated by estate diffs.
class GridAlertModel final : public KeyedTableModel<core::GridAlert>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GridAlertModel)

public:
    enum Column
    {
        Severity,
        Name,
        Summary,
        Node,
        Site,
        Started,  ///< RawValueRole QDateTime UTC
        Resolved, ///< end time, empty while active (RawValueRole QDateTime, invalid while active)
        Grid,
        ColumnCount
    };

    explicit GridAlertModel(core::Estate &estate, QObject *parent = nullptr);

private:
    QVariant recordData(const core::GridAlert &record, const QModelIndex &index, int role) const override;
    std::optional<QVariant> sortData(const core::GridAlert &record, int column) const override;
    QVariant displayData(const core::GridAlert &record, int column) const override;
    QStringList columnTitles() const override;
};

/// The tenant accounts of every grid (Estate::tenants()) with usage, quota and 7-day growth.
class TenantModel final : public KeyedTableModel<core::Tenant>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TenantModel)

public:
    enum Column
    {
        Name,
        Id,
        Buckets,
        Objects,
        Data,     ///< bytes
        Quota,    ///< bytes, "–" for none (RawValueRole -1)
        QuotaUse, ///< percent of the quota (RawValueRole double, -1 none)
        Growth,   ///< bytes over the last 7 days, "+1.2 GiB" (RawValueRole qint64; invalid unknown)
        Grid,
        ColumnCount
    };

    explicit TenantModel(core::Estate &estate, QObject *parent = nullptr);

    /// core::formatBytesDelta: "+1.2 GiB", "−300 MiB", "0 B"; "" when unknown.
    static QString growthText(const std::optional<qint64> &growth);

private:
    QVariant recordData(const core::Tenant &record, const QModelIndex &index, int role) const override;
    std::optional<QVariant> sortData(const core::Tenant &record, int column) const override;
    QVariant displayData(const core::Tenant &record, int column) const override;
    QStringList columnTitles() const override;
};

/// The buckets of every grid's tenants (Estate::buckets()) with usage, quota and 7-day growth.
class BucketModel final : public KeyedTableModel<core::Bucket>
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BucketModel)

public:
    enum Column
    {
        Name,
        Tenant,
        Region,
        Versioning, ///< "Enabled" / "Off"
        Objects,
        Data,
        Quota,
        Growth,
        Grid,
        ColumnCount
    };

    explicit BucketModel(core::Estate &estate, QObject *parent = nullptr);

private:
    QVariant recordData(const core::Bucket &record, const QModelIndex &index, int role) const override;
    std::optional<QVariant> sortData(const core::Bucket &record, int column) const override;
    QVariant displayData(const core::Bucket &record, int column) const override;
    QStringList columnTitles() const override;
};

} // namespace strata::models
