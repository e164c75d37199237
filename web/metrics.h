#pragma once

#include "models/core/runtime/replicas.h"

#include <QByteArray>
#include <QHash>
#include <QMap>
#include <QString>

#include <map>
#include <utility>
#include <vector>

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
///   strata_volume_usable_bytes / strata_volume_snapshot_reserve_bytes{source,svm,volume}
///   strata_volume_used_ratio{source,svm,volume}           used / usable (core::volumeCapacity)
///   strata_volume_read_iops / strata_volume_write_iops / strata_volume_iops /
///   strata_volume_throughput_bytes_per_second / strata_volume_latency_seconds{source,svm,volume}
///                                                          (volumes with a performance sample)
///   strata_cache_target_capacity_bytes / _used_bytes / _cached_bytes{source,target}
///   strata_cached_commits{source,target,state}            every state, 0 included
///   strata_capacity_forecast_full_seconds{source,kind,name,id}  seconds until full at the
///                                                          median growth (core::ForecastService;
///                                                          growing containers with a limit only;
///                                                          kind: core::containerKindName())
///   strata_capacity_forecast_growth_bytes_per_day{source,kind,name,id}  their median growth
///   strata_capacity_forecast_computed_timestamp_seconds    when the forecasts were computed
/// and the per-object figures the shipped alert rules compare with their thresholds
/// (models/core/planning/alertsignals.h, packaging/prometheus/strata-alerts.yml, docs/alerts.md):
///   strata_volume_throughput_cap_bytes_per_second{source,svm,volume}  the volume's throughput
///                                                          cap (ANF QoS, ONTAP fixed QoS policy);
///                                                          only volumes with such a cap
///   strata_job_pending_seconds{source,project,job_name}   seconds since a waiting (pending or
///                                                          preempted) job was created; waiting
///                                                          jobs only; job_name "<namespace>/<name>"
///                                                          (not "job": Prometheus' scrape label)
///   strata_cache_load_failed{source,target,dataset,commit}  1 per cached commit whose load
///                                                          failed; failed loads only
///   strata_schedule_last_run_failed{source,volume,schedule}  1 when an enabled service-level
///                                                          schedule's last change failed or was
///                                                          missed, else 0; every schedule
///                                                          (schedule = its id)
/// Series are ordered by source then name, so the output is stable. When two volumes of a source
/// share svm and name (ANF volumes of different pools), the later one also gets volume_id, so no
/// series is duplicated. Label values are escaped per the format (backslash, quote, newline).
/// O(objects); runs on the Engine's thread.
QByteArray prometheusText(core::Engine &engine);

/// What strata-server refused, closed or dropped to protect itself, and its connection and
/// live-feed gauges (web/httpguard.h, web/webserver.h). Counters only grow.
struct WebServerCounters
{
    /// Connections closed by the server, by reason: per_client_limit, total_limit (refused at
    /// accept), evicted (the oldest waiting one, to admit a new one at the total limit),
    /// header_timeout, idle_timeout, accept_error (the descriptor limit was hit).
    QMap<QByteArray, qint64> refusedConnections;
    /// Requests answered with an error before reaching a route, by reason: header_too_large,
    /// url_too_long, body_too_large, login_required (an API body without a session),
    /// host_not_allowed, bad_request, websocket_refused, login_throttled, login_busy.
    QMap<QByteArray, qint64> refusedRequests;
    /// Login lockouts started, by scope: user_from_address, address, global.
    QMap<QByteArray, qint64> loginLockouts;
    /// Live viewers disconnected by the server, by reason: send_queue (its unsent bytes passed
    /// the per-viewer cap), memory_budget (all viewers' unsent bytes passed the budget).
    QMap<QByteArray, qint64> droppedViewers;
    // Gauges, filled in when the text is produced.
    qint64 connections = 0;
    qint64 liveViewers = 0;
    qint64 liveQueuedBytes = 0;
    qint64 liveKeptBytes = 0;
    /// The console's public URL (WebServerOptions::publicUrl), empty when not configured.
    QString publicUrl;
};

/// WebServerCounters as exposition text (appended to prometheusText() on /metrics):
///   strata_web_connections                               open connections (gauge)
///   strata_web_refused_connections_total{reason}         counter
///   strata_web_refused_requests_total{reason}            counter
///   strata_web_login_lockouts_total{scope}               counter
///   strata_web_live_viewers                              connected viewers (gauge)
///   strata_web_live_queued_bytes                         their unsent bytes (gauge)
///   strata_web_live_kept_bytes                           diffs kept for catch-up (gauge)
///   strata_web_live_viewers_dropped_total{reason}        counter
///   strata_console_info{url}                             1, only when publicUrl is set: alert
///                                                          rules build their console links from it
/// Every reason listed above is present (0 until it happens), in a stable order.
QByteArray webServerMetricsText(const WebServerCounters &counters);

/// A replica's part in a replica set sharing a store (core::ReplicaCoordinator), for /metrics:
/// strata_replica_info{replica}, strata_replica_leases_held, strata_replica_live_replicas,
/// strata_replica_lease_takeovers_total, strata_replica_leases_released_total,
/// strata_replica_lease_renewal_failures_total, strata_replica_states_shared_total,
/// strata_replica_shared_bytes_total, strata_replica_states_applied_total,
/// strata_replica_notify_lag_seconds (the last state applied here; absent before the first),
/// strata_replica_notify_lag_max_seconds and strata_source_poller{source,replica} (1 for the
/// replica that polls each source as of this replica's last renewal).
QByteArray replicaMetricsText(const core::ReplicaCoordinator::Stats &stats, const QHash<QString, QString> &owners);

/// Durations as a Prometheus histogram: fixed upper bounds in seconds (ascending, +Inf implied),
/// how many observations fell at or under each, their count and their sum. Owner thread.
class DurationHistogram
{
public:
    /// `upperBoundsSeconds` ascending and finite; +Inf is always added.
    explicit DurationHistogram(std::vector<double> upperBoundsSeconds);
    /// One duration; a negative one counts as 0.
    void observe(double seconds);
    [[nodiscard]] const std::vector<double> &upperBounds() const { return m_bounds; }
    /// Observations per bucket, not cumulative; one more than upperBounds() (the last is +Inf).
    [[nodiscard]] const std::vector<quint64> &bucketCounts() const { return m_counts; }
    [[nodiscard]] quint64 count() const { return m_count; }
    [[nodiscard]] double sumSeconds() const { return m_sum; }

private:
    std::vector<double> m_bounds;
    std::vector<quint64> m_counts;
    quint64 m_count = 0;
    double m_sum = 0;
};

/// strata-server's own timings, observed as they happen (owner thread): every successful
/// inventory poll per source (its duration as core::SourceStatus::latencyMs reports it) and every
/// live-feed diff written to viewers (from the oldest change it carries entering the feed to its
/// frames being written to the viewers' connections).
struct ServerTimings
{
    /// Poll buckets: 10 ms .. 120 s (an ONTAP poll of 50,000 volumes takes seconds).
    static std::vector<double> pollBuckets();
    /// Delivery buckets: 5 ms .. 10 s around the live feed's coalescing (200 ms by default).
    static std::vector<double> deliveryBuckets();

    void observePoll(const QString &source, const QString &kind, double seconds);
    /// Drops the polls of sources not in `sources` (a source was removed from the config).
    void keepSources(const std::vector<QString> &sources);

    /// Keyed by (source, kind), so the output is ordered by source.
    std::map<std::pair<QString, QString>, DurationHistogram> polls;
    DurationHistogram liveDelivery{deliveryBuckets()};
};

/// The process itself, read from Linux /proc at scrape time; -1 where unknown (another OS).
struct ProcessFigures
{
    qint64 residentBytes = -1;    ///< /proc/self/statm resident pages x page size
    qint64 virtualBytes = -1;     ///< /proc/self/statm size x page size
    double cpuSeconds = -1;       ///< user + system CPU time (getrusage)
    double startTimeSeconds = -1; ///< Unix time the process started (/proc/self/stat, /proc/stat btime)
    qint64 openFds = -1;          ///< entries of /proc/self/fd
    qint64 maxFds = -1;           ///< RLIMIT_NOFILE's soft limit
};
/// This process's figures now. Cheap (a few small /proc reads).
ProcessFigures readProcessFigures();

/// The process and the server's timings as exposition text (appended on /metrics). The process
/// families follow the Prometheus client libraries' names, so standard dashboards and alerts
/// apply (each omitted when unknown):
///   process_resident_memory_bytes                         resident set size (gauge)
///   process_virtual_memory_bytes                          virtual memory size (gauge)
///   process_cpu_seconds_total                             user + system CPU time (counter)
///   process_start_time_seconds                            Unix time the process started (gauge)
///   process_open_fds / process_max_fds                    open descriptors and their limit (gauges)
/// and two histograms (_bucket{le} cumulative, _sum in seconds, _count):
///   strata_source_poll_duration_seconds{source,kind}      successful inventory polls per
///                                                          configured source, from the request to
///                                                          the estate's update (kind:
///                                                          core::sourceKindName()); a source
///                                                          appears after its first success;
///                                                          Kubernetes sources list once and then
///                                                          watch, so they report no polls
///   strata_web_live_delivery_delay_seconds                 live-feed diffs written to at least
///                                                          one viewer: from the oldest change the
///                                                          diff carries entering the feed
///                                                          (coalescing, building and serialising
///                                                          included) to its frames being written
///                                                          to the viewers' connections
/// Bucket bounds are fixed (ServerTimings), series ordered by source: the output is stable.
QByteArray runtimeMetricsText(const ProcessFigures &process, const ServerTimings &timings);

} // namespace strata::web
