#pragma once

#include "models/core/chargeback.h"
#include "models/rows/output.h"

#include <QJsonObject>

namespace strata::rows {

/// `get chargeback`, one row per line (projects by source and name, then the unattributed
/// storage), for finance's spreadsheets. Keys, stable: line ("project" or "unattributed"),
/// source, project, period, gpu_hours_allocated, gpu_hours_used, gpu_hours_utilization_unknown,
/// gpu_price_per_hour (null when none), storage_gib_hours (all tiers), one
/// storage_gib_hours_<system>_<tier> per tier of `cb.tiers` (chargebackTierColumn()), gpu_cost,
/// storage_cost, cost, currency, missing_hours, unpriced (tier keys and "gpu" without a price),
/// volumes (count), jobs (count), cached_commits. Hours to 3 decimals, money to 2. Tables show
/// the project, GPU-hours, storage GiB-hours, cost and missing hours. `withTotal` appends a
/// row of line "total" with the sums (tables; CSV for finance leaves it out).
ResultSet chargebackRows(const core::Chargeback &cb, bool withTotal = false);

/// The volumes of one line (drill-down): source, volume_id, name, via, share, storage_gib_hours,
/// one column per tier as chargebackRows, cost, missing_hours.
ResultSet chargebackVolumeRows(const core::Chargeback &cb, const core::ChargebackLine &line);

/// The whole chargeback as the web API and `-o json` give it: period {label, from, to},
/// accounted_to, hours, currency, tiers [{key, column, label}], lines (chargebackRows objects,
/// each with "volume_list" (chargebackVolumeRows) and "job_list" [{id, status, gpus, pvcs,
/// created, finished}]), total (the "total" row of chargebackRows), notes.
QJsonObject chargebackToJson(const core::Chargeback &cb);

/// "$12.34" for USD, else "12.34 EUR".
QString formatMoney(const QString &currency, double amount);

} // namespace strata::rows
