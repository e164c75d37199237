#pragma once

#include <QByteArray>

namespace strata::core {
class Engine;
}

namespace strata::web {

/// The estate as Prometheus text exposition format 0.0.4 (served at /metrics), so an existing
/// Prometheus and Grafana can use Strata's joined view. Families (all gauges, base units):
///   strata_source_up{source,kind}                         1 ok, 0 down/degraded
///   strata_source_last_success_timestamp_seconds{source,kind}
///   strata_project_gpus_allocated{source,project}         GPUs held by running jobs
///   strata_project_gpu_quota{source,project}              deserved GPUs (KAI queue quota)
///   strata_project_gpu_utilization_ratio{source,project}  mean DCGM utilization 0..1 (when known)
///   strata_project_jobs{source,project,state}             running / pending counts
///   strata_volume_size_bytes / strata_volume_used_bytes{source,svm,volume}
///   strata_volume_read_bytes_per_second / strata_volume_write_bytes_per_second /
///   strata_volume_iops / strata_volume_latency_seconds{source,svm,volume}  (when sampled)
///   strata_cache_target_capacity_bytes / _used_bytes / _cached_bytes{source,target}
///   strata_cached_commits{source,target,state}
/// Label values are escaped per the format (backslash, quote, newline). O(objects).
QByteArray prometheusText(core::Engine &engine);

} // namespace strata::web
