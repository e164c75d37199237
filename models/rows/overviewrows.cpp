#include "models/rows/overviewrows.h"

#include "models/core/domain/format.h"

#include <cmath>

namespace strata::rows {

namespace {

QVariant overviewKnownBytes(qint64 bytes)
{
    return bytes < 0 ? QVariant() : QVariant(bytes);
}

} // namespace

ResultSet systemRows(const std::vector<core::StorageSystemSummary> &systems)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("kind"), QStringLiteral("KIND")},
                  {QStringLiteral("name"), QStringLiteral("SYSTEM")},
                  {QStringLiteral("volumes"), QStringLiteral("VOLUMES")},
                  {QStringLiteral("used_bytes"), QStringLiteral("USED")},
                  {QStringLiteral("capacity_bytes"), QStringLiteral("CAPACITY")},
                  {QStringLiteral("percent_used"), QStringLiteral("%USED")},
                  {QStringLiteral("throughput_bytes_per_second"), QStringLiteral("THROUGHPUT")},
                  {QStringLiteral("near_full_volumes"), QString()},
                  {QStringLiteral("pools"), QString()},
                  {QStringLiteral("pool_size_bytes"), QString()},
                  {QStringLiteral("pool_allocated_bytes"), QString()},
                  {QStringLiteral("not_provisioned"), QString()},
                  {QStringLiteral("nodes_connected"), QString()},
                  {QStringLiteral("nodes_down"), QString()},
                  {QStringLiteral("nodes_unknown"), QString()},
                  {QStringLiteral("alerts_critical"), QString()},
                  {QStringLiteral("alerts_major"), QString()},
                  {QStringLiteral("alerts_minor"), QString()},
                  {QStringLiteral("health"), QStringLiteral("HEALTH")},
                  {QStringLiteral("status"), QString()}};
    for (const core::StorageSystemSummary &s : systems) {
        const double percent = s.percentUsed();
        QStringList display(rs.columns.size());
        display[4] = s.usedBytes < 0 ? QString::fromUtf16(core::kUnknownText) : core::formatBytes(s.usedBytes);
        display[5] = s.capacityBytes < 0 ? QString::fromUtf16(core::kUnknownText) : core::formatBytes(s.capacityBytes);
        display[6] = core::formatPercent(percent < 0 ? std::nullopt : std::optional<double>(percent));
        display[7] = core::formatRate(s.throughputBps);
        rs.addRow({s.source,
                   core::sourceKindName(s.kind),
                   s.name,
                   s.volumes,
                   overviewKnownBytes(s.usedBytes),
                   overviewKnownBytes(s.capacityBytes),
                   percent < 0 ? QVariant() : QVariant(std::round(percent * 10) / 10),
                   s.throughputBps < 0 ? QVariant() : QVariant(s.throughputBps),
                   s.nearFullVolumes,
                   s.pools,
                   s.poolSizeBytes,
                   s.poolAllocatedBytes,
                   s.notProvisioned,
                   s.nodesConnected,
                   s.nodesDown,
                   s.nodesUnknown,
                   s.alertsCritical,
                   s.alertsMajor,
                   s.alertsMinor,
                   core::storageSystemHealth(s),
                   core::storageSystemStatus(s)},
                  display);
    }
    return rs;
}

ResultSet attentionRows(const std::vector<core::AttentionItem> &items)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("severity"), QStringLiteral("SEVERITY")},
                  {QStringLiteral("system"), QStringLiteral("SYSTEM")},
                  {QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("kind"), QString()},
                  {QStringLiteral("id"), QString()},
                  {QStringLiteral("reason"), QString()},
                  {QStringLiteral("key"), QString()},
                  {QStringLiteral("subject"), QStringLiteral("SUBJECT")},
                  {QStringLiteral("message"), QStringLiteral("MESSAGE")}};
    for (const core::AttentionItem &a : items) {
        // One object can need attention for two reasons: the key names both.
        rs.addRow({a.severity,
                   a.system,
                   a.source,
                   a.kind,
                   a.id,
                   a.reason,
                   QStringList{a.source, a.kind, a.id, a.reason}.join(QLatin1Char('/')),
                   a.subject,
                   a.message});
    }
    return rs;
}

} // namespace strata::rows
