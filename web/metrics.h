#pragma once

#include <QByteArray>

namespace strata::core {
class Engine;
}

namespace strata::web {

/// Content-Type of prometheusText()'s body.
inline constexpr const char *kPrometheusContentType = "text/plain; version=0.0.4; charset=utf-8";

/// The estate as Prometheus text exposition format 0.0.4 (served at /metrics), so an existing
/// Prometheus and Grafana can use Strata's joined view. Families (all gauges, base units: GPUs
/// as whole GPUs with fractions, bytes, seconds, ratios 0..1):
///   strata_source_up{source,kind}                         1 ok, 0 otherwise (configured sources)
///   strata_source_health{source,kind,health}              1 for the current health, 0 for the others
///   strata_source_last_success_timestamp_seconds{source,kind}  (when it ever succeeded)
///   strata_source_consecutive_failures{source,kind}
///   strata_cluster_gpus{source,cluster}                   allocatable GPUs on Ready nodes
///   strata_cluster_gpus_allocated{source,cluster}
///   strata_node_gpus{source,node} / strata_node_gpus_allocated{source,node}
///   strata_node_gpu_utilization_ratio{source,node}        mean DCGM utilization (when known)
///   strata_project_gpus_allocated{source,project}         GPUs held by running/starting jobs
///   strata_project_gpu_quota{source,project}              deserved GPUs (omitted when no quota)
///   strata_project_gpus_over_quota{source,project}
///   strata_project_gpus_idle_allocated{source,project}    allocated GPUs below 10 % utilization
///   strata_project_gpus_pending{source,project}           GPUs requested by queued jobs
///   strata_project_gpu_utilization_ratio{source,project}  mean DCGM utilization (when known)
///   strata_project_jobs{source,project,state}             state "running" / "pending"
///   strata_volume_size_bytes / strata_volume_used_bytes{source,svm,volume}
///   strata_volume_read_iops / strata_volume_write_iops / strata_volume_iops /
///   strata_volume_throughput_bytes_per_second / strata_volume_latency_seconds{source,svm,volume}
///                                                          (volumes with a performance sample)
///   strata_cache_target_capacity_bytes / _used_bytes / _cached_bytes{source,target}
///   strata_cached_commits{source,target,state}            every state, 0 included
/// Series are ordered by source then name, so the output is stable. When two volumes of a source
/// share svm and name (ANF volumes of different pools), the later one also gets volume_id, so no
/// series is duplicated. Label values are escaped per the format (backslash, quote, newline).
/// O(objects); runs on the Engine's thread.
QByteArray prometheusText(core::Engine &engine);

} // namespace strata::web
