#pragma once

#include "models/core/planning/overviewsummary.h"
#include "models/rows/output.h"

#include <vector>

namespace strata::rows {

/// `get systems`: one row per storage system (core::storageSystems). Keys source, kind
/// ("ontap", "azure", "storagegrid"), name, volumes, used_bytes (null = unknown),
/// capacity_bytes (null), percent_used (null), throughput_bytes_per_second (null = no sample),
/// near_full_volumes, pools, pool_size_bytes, pool_allocated_bytes, not_provisioned,
/// nodes_connected, nodes_down, nodes_unknown, alerts_critical, alerts_major, alerts_minor,
/// health (core::storageSystemHealth text), status ("ok", "warning", "critical").
ResultSet systemRows(const std::vector<core::StorageSystemSummary> &systems);

/// `get attention`: what needs attention now (core::needsAttention), worst first. Keys
/// severity, system, source, kind (the object to open), id, reason, key (source/kind/id/reason),
/// subject, message.
ResultSet attentionRows(const std::vector<core::AttentionItem> &items);

} // namespace strata::rows
