#pragma once

#include "models/core/domain/keyed.h"
#include "models/rows/output.h"

#include <QDateTime>
#include <QStringList>

#include <vector>

namespace strata::core {
class Estate;
struct GpuCluster;
struct GpuNode;
struct Job;
struct Project;
struct Pvc;
} // namespace strata::core

namespace strata::rows {

/// What `strata get clusters|nodes|projects|jobs|pvcs` lists: only these sources (empty = all
/// Kubernetes sources in the estate) and, for projects, jobs and PVCs, only these projects
/// (empty = all; a project's PVCs are those of its namespace).
struct ComputeFilter
{
    QStringList sources;
    QStringList projects;
};

/// The compute `get` kinds, built from the estate only. Rows are in a stable order (source,
/// then name; jobs by source, project, name; PVCs by source, namespace, name) whatever order the
/// cluster answered in. GPU amounts are numbers of GPUs with decimals in JSON/CSV (0.6) and
/// formatGpus text in tables; job statuses are jobStatusName() values; unknown utilization is
/// null. Keys are snake_case.
ResultSet clusterRows(const core::Estate &estate, const ComputeFilter &filter);
ResultSet nodeRows(const core::Estate &estate, const ComputeFilter &filter);
/// Keys: source, name, namespace, quota (null = none), limit (null = none), allocated, in_quota,
/// over_quota, pending, fair_share, running_jobs, queued_jobs, utilization, idle_allocated.
ResultSet projectRows(const core::Estate &estate, const ComputeFilter &filter);
/// One row per job over the Listed fields of core::kJobFields, in its order (keys, CLI headers
/// and texts are the field list's): status and type as API names ("container_creating",
/// "train"), GPU figures in GPUs, age_seconds, wait_seconds (null unless queued) and run_seconds
/// (null until it runs) counted to `now`, pvcs an array of claim names, reason what the REASON
/// column shows (failure_reason, the kubelet's "ImagePullBackOff" while the container cannot run,
/// else why a queued job waits, else empty).
ResultSet jobRows(const core::Estate &estate, const ComputeFilter &filter, const QDateTime &now);
ResultSet pvcRows(const core::Estate &estate, const ComputeFilter &filter);

/// The same rows for exactly these records, one row per record in the given order (the live
/// feed builds only the rows an estate diff touched through these).
ResultSet clusterRows(const std::vector<core::Ptr<core::GpuCluster>> &clusters);
ResultSet nodeRows(const std::vector<core::Ptr<core::GpuNode>> &nodes);
ResultSet projectRows(const std::vector<core::Ptr<core::Project>> &projects);
ResultSet jobRows(const std::vector<core::Ptr<core::Job>> &jobs, const QDateTime &now);
ResultSet pvcRows(const std::vector<core::Ptr<core::Pvc>> &pvcs);

/// Project names of `filter.projects` that no selected source knows.
QStringList unknownProjects(const core::Estate &estate, const ComputeFilter &filter);

} // namespace strata::rows
