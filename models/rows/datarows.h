#pragma once

#include "models/core/domain/keyed.h"
#include "models/rows/output.h"

#include <QDateTime>
#include <QStringList>

#include <vector>

namespace strata::core {
class Estate;
struct Bucket;
struct CachedCommit;
struct GridAlert;
struct GridSummary;
struct Tenant;
} // namespace strata::core

namespace strata::rows {

/// `get datasets`: one row per dataset. Keys: source, id, name, kind, location
/// (core::datasetLocation()), cached_commits (ready on any target), commits, size_bytes (head
/// commit), objects, head_commit, last_activity (null).
ResultSet datasetRows(const core::Estate &estate, const QStringList &sources);
/// `get commits [--dataset NAME]`: newest first per dataset. Keys: source, dataset, id, parent,
/// author, message, time, objects, bytes, cached_on (array of targets where it is ready),
/// manifest_key. Tables show the first 12 hex digits of ids.
ResultSet commitRows(const core::Estate &estate, const QStringList &sources, const QStringList &datasets);
/// `get caches`: cached commits on every target. Keys: target, source (Kubernetes), dataset,
/// commit, state, progress_percent (null when the total is unknown), objects_done,
/// objects_total, bytes_done, bytes_total, path, last_used (null), used_by (array), evict_at
/// (null), evict_reason, reason, job.
ResultSet cachedCommitRows(const core::Estate &estate, const QStringList &targets, const QDateTime &now);
/// `get cache-targets`: keys name, source, namespace, pvc, pvc_phase, volume, capacity_bytes,
/// used_bytes, cached_bytes, cached_commits, evict_after_days, high_watermark_percent, problem.
ResultSet cacheTargetRows(const core::Estate &estate, const QStringList &targets);
/// `get grids`: StorageGRID summaries. Keys: source, grid, version, api, nodes_connected,
/// nodes_down, nodes_unknown, alerts_critical, alerts_major, alerts_minor, ilm_policy,
/// used_bytes (null), usable_bytes (null).
ResultSet gridRows(const core::Estate &estate, const QStringList &sources);
/// `get tenants`: keys source, id, name, buckets, objects, data_bytes, quota_bytes (null = none),
/// growth_7d_bytes (null = unknown), capabilities (array).
ResultSet tenantRows(const core::Estate &estate, const QStringList &sources);
/// `get buckets`: keys source, tenant, name, region, versioning, objects, data_bytes,
/// quota_bytes (null), growth_7d_bytes (null).
ResultSet bucketRows(const core::Estate &estate, const QStringList &sources);
/// `get alerts`: StorageGRID alerts, active first then resolved, newest first. Keys: source, id,
/// name, severity (the timeline's scale, core::severityFromSystem(): "critical", "error",
/// "warning", as `get events` says), grid_severity (the grid's own word: "critical", "major",
/// "minor"), status ("active"/"resolved"), node, site, starts_at, ends_at (null), summary.
ResultSet gridAlertRows(const core::Estate &estate, const QStringList &sources);

/// The same rows for exactly these records, one row per record in the given order (the live
/// feed builds only the rows an estate diff touched through these).
ResultSet cachedCommitRows(const std::vector<core::Ptr<core::CachedCommit>> &cached, const QDateTime &now);
ResultSet gridRows(const std::vector<core::Ptr<core::GridSummary>> &grids);
ResultSet tenantRows(const std::vector<core::Ptr<core::Tenant>> &tenants);
ResultSet bucketRows(const std::vector<core::Ptr<core::Bucket>> &buckets);
ResultSet gridAlertRows(const std::vector<core::Ptr<core::GridAlert>> &alerts);

} // namespace strata::rows
