#pragma once

#include "models/core/planning/chargeback.h"
#include "models/rows/output.h"

#include <QJsonObject>

namespace strata::rows {

/// `get chargeback`, one row per line (projects by source and name, then the unattributed
/// storage), for finance's spreadsheets. Keys, stable: line ("project" or "unattributed"),
/// source, project, period, gpu_hours_allocated, gpu_hours_used, gpu_hours_utilization_unknown,
/// gpu_price_per_hour (null when none), storage_gib_hours (all tiers), one
/// storage_gib_hours_<system>_<tier> per tier of `cb.tiers` (the rate card's tiers,
/// chargebackTierColumn()), storage_gib_hours_unpriced (tiers the card does not price), gpu_cost,
/// storage_cost, cost, currency, missing_hours (the larger of the next two), gpu_missing_hours,
/// storage_missing_hours, unpriced (tier keys and "gpu" without a price),
/// volumes (count), jobs (count), cached_commits. Hours to 3 decimals, money to 2. Tables show
/// the project, GPU-hours, storage GiB-hours, cost, GPU and storage missing hours apart
/// (chargebackColumnLabel()). `withTotal` appends a
/// row of line "total" with the sums (tables; CSV for finance leaves it out).
ResultSet chargebackRows(const core::Chargeback &cb, bool withTotal = false);

/// The CSV finance downloads, byte for byte the same from `strata get chargeback -o csv` and the
/// web console (GET /api/v1/chargeback?format=csv): chargebackRows() without the total, RFC 4180.
QString chargebackCsv(const core::Chargeback &cb);

/// The volumes of one line (drill-down): source, volume_id, name, via, share, storage_gib_hours,
/// one column per tier as chargebackRows, cost, missing_hours.
ResultSet chargebackVolumeRows(const core::Chargeback &cb, const core::ChargebackLine &line);

/// The whole chargeback as the web API and `-o json` give it: period {label, from, to},
/// accounted_to, history_from (null: no sample read), hours, currency, coverage (chargebackCoverageText()), columns and
/// volume_columns [{key, label}] (what tables show, chargebackColumnLabel()), tiers [{key, column, label}] (the card's
/// tiers), tier_labels {key: label} (every tier with GiB-hours or a price), lines (chargebackRows objects, each with
/// "volume_list" (chargebackVolumeRows) and "job_list" [{id, status, gpus, pvcs, created, finished}]), total (the
/// "total" row of chargebackRows), notes.
QJsonObject chargebackToJson(const core::Chargeback &cb);

/// The words of a chargeback column that tables show, the same on every front end: the CLI's
/// header (in capitals), the desktop's and the web console's (the JSON's "columns"). Keys of
/// chargebackRows() and chargebackVolumeRows(): "gpu_missing_hours" is "GPU missing h",
/// "storage_missing_hours" "Storage missing h" (a volume's missing_hours reads the same). Empty
/// for a key no table shows.
QString chargebackColumnLabel(const QString &key);

/// The period and its coverage in one sentence, as every front end states it: "2026-11: 720.0 h
/// of the period so far, up to 2026-11-30 12:00 UTC. Hours without history (missing, not zero),
/// the most on one line: GPU 676.0 h, storage 0.0 h." Wall-clock hours, not GPU-hours.
QString chargebackCoverageText(const core::Chargeback &cb);

/// core::formatMoney() with English digits, as `strata get` prints money: "$1,234.50" for USD,
/// else "1,234.50 EUR".
QString formatMoney(const QString &currency, double amount);

} // namespace strata::rows
