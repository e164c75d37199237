#pragma once

#include "models/core/domain/keyed.h"
#include "models/rows/output.h"

#include <QDateTime>
#include <QList>
#include <QStringList>

#include <optional>
#include <vector>

namespace strata::core {
class Estate;
struct ActionPreview;
struct AksCluster;
struct CapacityPool;
struct RateCard;
struct ServiceLevelRow;
struct ServiceLevelSchedule;
} // namespace strata::core

namespace strata::rows {

/// `get service-levels`: one row per volume (ANF and ONTAP). Keys: source, kind, volume_id,
/// volume, container, level, level_detail, size_bytes, cap_mibps (null = none), cap_iops (null),
/// observed_mibps (null), p95_mibps (null until a day of history), cap_used_percent
/// (core::ServiceLevelRow::capUsedPercent, the figure the flag comes from; null), cost_per_month (null = no price),
/// currency, flag
/// ("at_cap", "far_below" or ""), flag_reason, last_change (null).
ResultSet serviceLevelRows(const QList<core::ServiceLevelRow> &rows, const core::RateCard &card);
/// `get pools`: ANF capacity pools. Keys: source, account, name, service_level, qos_type,
/// size_bytes, allocated_bytes, free_bytes, volumes, total_throughput_mibps,
/// utilized_throughput_mibps, state, id.
ResultSet poolRows(const core::Estate &estate, const QStringList &sources);
/// `get aks`: AKS managed clusters. Keys: source, name, resource_group, location, version,
/// nodes, agent_pools (array), state, power_state, fqdn, id.
ResultSet aksRows(const core::Estate &estate, const QStringList &sources);
/// The same rows for exactly these records, one row per record in the given order (the live
/// feed builds only the rows an estate diff touched through these).
ResultSet poolRows(const std::vector<core::Ptr<core::CapacityPool>> &pools);
ResultSet aksRows(const std::vector<core::Ptr<core::AksCluster>> &clusters);
/// `get schedules`: keys id, source, volume, volume_id, level, revert_level, start, end,
/// recurrence, enabled, next (null when none), last_fired, last_outcome, created_by.
ResultSet scheduleRows(const QList<core::ServiceLevelSchedule> &schedules, const QDateTime &now);

/// A preview as text (title, target, from -> to, effects, warnings, blocked reason), for
/// `set service-level` before it runs and with --dry-run.
void writePreview(const core::ActionPreview &preview, QTextStream &out);
/// The same as a JSON object {title, target, from, to, effects, warnings, destructive, blocked}.
QJsonObject previewJson(const core::ActionPreview &preview);

/// Parses a `--at` time: ISO 8601 ("2026-11-23T08:00", local time unless it carries Z or an
/// offset) or a relative "+30m", "+2h", "+1d" from `now`. nullopt when unreadable.
std::optional<QDateTime> parseWhen(const QString &text, const QDateTime &now);
/// Parses a `--window START..END` (each as parseWhen); nullopt when unreadable or END <= START.
std::optional<std::pair<QDateTime, QDateTime>> parseWindow(const QString &text, const QDateTime &now);

} // namespace strata::rows
