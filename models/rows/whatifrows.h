#pragma once

#include "models/core/planning/quotawhatif.h"
#include "models/rows/output.h"

#include <QJsonObject>

namespace strata::rows {

/// `what-if quota`, one row per project, before → after. Keys project, quota_before,
/// quota_after, allocated_before, allocated_after, fair_share_before, fair_share_after (GPUs as
/// numbers with decimals), queued_before, queued_after, starts, preempted (job counts).
ResultSet whatIfProjectRows(const core::QuotaWhatIf &whatIf);

/// `what-if quota`, one row per job that takes part, changes first. Keys job ("<namespace>/<name>"),
/// name, project, type ("train", "interactive"), gpus, outcome ("preempted", "starts",
/// "stays_queued", "keeps_running"), node (empty while queued), reason (empty unless it waits).
ResultSet whatIfJobRows(const core::QuotaWhatIf &whatIf);

/// "preempted", "starts", "stays_queued", "keeps_running".
QString whatIfOutcomeName(core::WhatIfJob::Outcome outcome);

/// The whole what-if as the web API and `-o json` give it: cluster, capacity_gpus,
/// quota_total_before, quota_total_after, spare_split ("quota" or "over_quota_weight"),
/// projects (whatIfProjectRows), jobs (whatIfJobRows), notes (strings).
QJsonObject whatIfToJson(const core::QuotaWhatIf &whatIf);

} // namespace strata::rows
