#include "web/metrics.h"

#include "models/core/planning/alertsignals.h"
#include "models/core/planning/volumecapacity.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/capacityforecast.h"
#include "models/core/services/scheduleservice.h"

#include <QFile>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#if defined(Q_OS_UNIX)
#include <sys/resource.h>
#include <unistd.h>
#endif
#if defined(Q_OS_LINUX)
#include <dirent.h>
#endif

namespace strata::web {
namespace {

using Labels = std::vector<std::pair<const char *, QString>>;

void appendEscapedLabel(QByteArray &out, const QString &value)
{
    const QByteArray utf8 = value.toUtf8();
    for (const char c : utf8) {
        switch (c) {
        case '\\':
            out += "\\\\";
            break;
        case '"':
            out += "\\\"";
            break;
        case '\n':
            out += "\\n";
            break;
        default:
            out += c;
        }
    }
}

// Shortest text that reads back as the same double (0.6 stays "0.6", not 0.59999999999999998).
void appendNumber(QByteArray &out, double value)
{
    if (std::isnan(value)) {
        out += "NaN";
        return;
    }
    if (std::isinf(value)) {
        out += value > 0 ? "+Inf" : "-Inf";
        return;
    }
    char buffer[64];
    // Whole numbers (bytes, counts) as integers: shortest form would print 3e+11 for 300 GB.
    constexpr double kExactIntegers = 9007199254740992.0; // 2^53
    const bool whole = std::floor(value) == value && std::fabs(value) < kExactIntegers;
    const auto result = whole ? std::to_chars(buffer, buffer + sizeof buffer, static_cast<long long>(value))
                              : std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, static_cast<qsizetype>(result.ptr - buffer));
}

/// A family's "# HELP" and "# TYPE" lines (`help` a constant text without backslash or newline).
void appendFamilyHeader(QByteArray &out, const char *name, const char *help, const char *type)
{
    out += "# HELP ";
    out += name;
    out += ' ';
    out += help;
    out += "\n# TYPE ";
    out += name;
    out += ' ';
    out += type;
    out += '\n';
}

/// One metric family: HELP and TYPE once, then its series; a label set already written is dropped
/// so a family never holds the same series twice.
class Family
{
public:
    Family(QByteArray &out, const char *name, const char *help)
        : m_out(out)
        , m_name(name)
    {
        appendFamilyHeader(m_out, name, help, "gauge");
    }

    /// false when this label set was already written.
    bool add(const Labels &labels, double value)
    {
        QByteArray line = m_name;
        line += '{';
        bool first = true;
        for (const auto &[name, labelValue] : labels) {
            if (!first) {
                line += ',';
            }
            first = false;
            line += name;
            line += "=\"";
            appendEscapedLabel(line, labelValue);
            line += '"';
        }
        line += '}';
        if (m_seen.contains(line)) {
            return false;
        }
        m_seen.insert(line);
        m_out += line;
        m_out += ' ';
        appendNumber(m_out, value);
        m_out += '\n';
        return true;
    }

private:
    QByteArray &m_out;
    QByteArray m_name;
    QSet<QByteArray> m_seen;
};

template <class T> std::vector<core::Ptr<T>> sortedByName(std::vector<core::Ptr<T>> items)
{
    std::sort(items.begin(), items.end(), [](const core::Ptr<T> &a, const core::Ptr<T> &b) {
        if (a->source != b->source) {
            return a->source < b->source;
        }
        if (a->name != b->name) {
            return a->name < b->name;
        }
        return a->id < b->id;
    });
    return items;
}

template <class T> std::vector<core::Ptr<T>> sortedById(std::vector<core::Ptr<T>> items)
{
    std::sort(items.begin(), items.end(), [](const core::Ptr<T> &a, const core::Ptr<T> &b) {
        return a->source != b->source ? a->source < b->source : a->id < b->id;
    });
    return items;
}

void writeSources(QByteArray &out, const core::Engine &engine)
{
    const QList<core::SourceStatus> statuses = engine.statuses();
    const auto base = [](const core::SourceStatus &s) {
        return Labels{{"source", s.name}, {"kind", core::sourceKindName(s.kind)}};
    };
    Family up(out, "strata_source_up", "Whether the source's last polls succeeded (1) or not (0).");
    for (const core::SourceStatus &s : statuses) {
        up.add(base(s), s.health == core::Health::Ok ? 1 : 0);
    }
    Family health(out, "strata_source_health", "The source's health: 1 for the current state, 0 for the others.");
    constexpr core::Health kHealths[] = {core::Health::Unknown,
                                         core::Health::Ok,
                                         core::Health::Degraded,
                                         core::Health::Unreachable,
                                         core::Health::AuthRequired};
    for (const core::SourceStatus &s : statuses) {
        for (const core::Health h : kHealths) {
            Labels labels = base(s);
            labels.emplace_back("health", core::healthName(h));
            health.add(labels, s.health == h ? 1 : 0);
        }
    }
    Family lastSuccess(
        out, "strata_source_last_success_timestamp_seconds", "Unix time of the source's last successful poll.");
    for (const core::SourceStatus &s : statuses) {
        if (s.lastSuccess.isValid()) {
            lastSuccess.add(base(s), static_cast<double>(s.lastSuccess.toMSecsSinceEpoch()) / 1000.0);
        }
    }
    Family failures(out, "strata_source_consecutive_failures", "Failed polls of the source in a row.");
    for (const core::SourceStatus &s : statuses) {
        failures.add(base(s), s.consecutiveFailures);
    }
}

/// One gauge of a per-item family: its value for an item, or nullopt to leave the item out.
template <class T> struct Gauge
{
    const char *name;
    const char *help; ///< a constant text without backslash or newline
    std::function<std::optional<double>(const T &)> value;
};

/// One family per gauge, in order, with a series per item (labels from `labelsOf`).
template <class T, class LabelsOf>
void writeGauges(QByteArray &out,
                 const std::vector<core::Ptr<T>> &items,
                 const LabelsOf &labelsOf,
                 std::initializer_list<Gauge<T>> gauges)
{
    for (const Gauge<T> &gauge : gauges) {
        Family family(out, gauge.name, gauge.help);
        for (const auto &item : items) {
            if (const std::optional<double> value = gauge.value(*item)) {
                family.add(labelsOf(*item), *value);
            }
        }
    }
}

/// A gauge of `field` divided by `divisor` (GPUs: 1000 milli-GPUs; ratios: 100 percent); with
/// `negativeUnknown`, a negative value (unknown, no quota) leaves the item out.
template <class T, class V>
Gauge<T> fieldGauge(const char *name, const char *help, V T::*field, double divisor = 1, bool negativeUnknown = false)
{
    return {name, help, [field, divisor, negativeUnknown](const T &item) -> std::optional<double> {
                const double value = static_cast<double>(item.*field);
                if (negativeUnknown && value < 0) {
                    return std::nullopt;
                }
                return value / divisor;
            }};
}

constexpr double kMilliGpus = 1000.0;
constexpr double kPercent = 100.0;

void writeCompute(QByteArray &out, const core::Estate &estate)
{
    using core::GpuCluster;
    using core::GpuNode;
    using core::Project;
    writeGauges<GpuCluster>(out,
                            sortedById(estate.gpuClusters().all()),
                            [](const GpuCluster &c) {
                                return Labels{{"source", c.source}, {"cluster", c.name}};
                            },
                            {fieldGauge("strata_cluster_gpus",
                                        "Allocatable GPUs on the cluster's Ready nodes.",
                                        &GpuCluster::gpuTotal,
                                        kMilliGpus),
                             fieldGauge("strata_cluster_gpus_allocated",
                                        "GPUs held by bound pods of the cluster.",
                                        &GpuCluster::gpuAllocated,
                                        kMilliGpus)});
    writeGauges<GpuNode>(
        out,
        sortedByName(estate.gpuNodes().all()),
        [](const GpuNode &n) {
            return Labels{{"source", n.source}, {"node", n.name}};
        },
        {fieldGauge("strata_node_gpus", "Allocatable GPUs of the node.", &GpuNode::allocatable, kMilliGpus),
         fieldGauge(
             "strata_node_gpus_allocated", "GPUs of the node held by bound pods.", &GpuNode::allocated, kMilliGpus),
         fieldGauge("strata_node_gpu_utilization_ratio",
                    "Mean DCGM GPU utilization of the node's GPUs (0..1).",
                    &GpuNode::utilization,
                    kPercent,
                    true)});

    const auto projects = sortedByName(estate.projects().all());
    const auto projectLabels = [](const Project &p) {
        return Labels{{"source", p.source}, {"project", p.name}};
    };
    writeGauges<Project>(out,
                         projects,
                         projectLabels,
                         {fieldGauge("strata_project_gpus_allocated",
                                     "GPUs held by the project's running and starting jobs.",
                                     &Project::allocated,
                                     kMilliGpus),
                          fieldGauge("strata_project_gpu_quota",
                                     "GPUs guaranteed to the project (deserved quota).",
                                     &Project::quota,
                                     kMilliGpus,
                                     true),
                          fieldGauge("strata_project_gpus_over_quota",
                                     "GPUs the project holds beyond its quota.",
                                     &Project::overQuota,
                                     kMilliGpus),
                          fieldGauge("strata_project_gpus_idle_allocated",
                                     "GPUs allocated to the project with DCGM utilization below 10 percent.",
                                     &Project::idleAllocated,
                                     kMilliGpus),
                          fieldGauge("strata_project_gpus_pending",
                                     "GPUs requested by the project's queued jobs.",
                                     &Project::pending,
                                     kMilliGpus),
                          fieldGauge("strata_project_gpu_utilization_ratio",
                                     "Mean DCGM utilization of the project's allocated GPUs (0..1).",
                                     &Project::utilization,
                                     kPercent,
                                     true)});
    Family jobs(out, "strata_project_jobs", "The project's jobs by state (running, pending).");
    for (const auto &p : projects) {
        Labels running = projectLabels(*p);
        running.emplace_back("state", QStringLiteral("running"));
        jobs.add(running, p->runningJobs);
        Labels queued = projectLabels(*p);
        queued.emplace_back("state", QStringLiteral("pending"));
        jobs.add(queued, p->queuedJobs);
    }
}

void writeVolumes(QByteArray &out, const core::Estate &estate)
{
    const auto volumes = sortedByName(estate.volumes().all());
    // Label sets per volume key, so perf series use the same labels as the size series.
    QHash<QString, Labels> labelsOf;
    QSet<QString> taken;
    for (const auto &v : volumes) {
        Labels labels{{"source", v->source}, {"svm", v->svm}, {"volume", v->name}};
        const QString identity = v->source + QLatin1Char('\n') + v->svm + QLatin1Char('\n') + v->name;
        if (taken.contains(identity)) {
            labels.emplace_back("volume_id", v->id);
        }
        taken.insert(identity);
        labelsOf.insert(core::estateKey(*v), std::move(labels));
    }

    writeGauges<core::Volume>(out,
                              volumes,
                              [&labelsOf](const core::Volume &v) {
                                  return labelsOf.value(core::estateKey(v));
                              },
                              {{"strata_volume_size_bytes",
                                "Provisioned size of the volume, snapshot reserve included.",
                                [](const core::Volume &v) {
                                    return static_cast<double>(v.sizeBytes);
                                }},
                               {"strata_volume_usable_bytes",
                                "Size of the volume's active file system: the provisioned size less the snapshot "
                                "reserve (what used_ratio is of).",
                                [](const core::Volume &v) {
                                    return static_cast<double>(core::volumeCapacity(v).usableBytes);
                                }},
                               {"strata_volume_snapshot_reserve_bytes",
                                "Snapshot reserve of the volume, counted in neither used nor usable.",
                                [](const core::Volume &v) {
                                    return static_cast<double>(core::volumeCapacity(v).reserveBytes);
                                }},
                               {"strata_volume_used_bytes",
                                "Bytes used in the volume's active file system.",
                                [](const core::Volume &v) {
                                    // None while the volume reports no space (offline): absent, not 0.
                                    return v.usedBytes ? std::optional<double>(static_cast<double>(*v.usedBytes))
                                                       : std::nullopt;
                                }},
                               {"strata_volume_used_ratio",
                                "Used over usable (0..1, above 1 when snapshots spill over their reserve): the "
                                "pages' % used.",
                                [](const core::Volume &v) {
                                    const std::optional<double> percent = core::volumeCapacity(v).percentUsed;
                                    return percent ? std::optional<double>(*percent / 100.0) : std::nullopt;
                                }},
                               {"strata_volume_throughput_cap_bytes_per_second",
                                "Throughput cap of the volume's service level (ANF QoS, ONTAP fixed QoS policy).",
                                [&estate](const core::Volume &v) {
                                    return core::throughputCapBytesPerSecond(estate, v);
                                }}});

    // Performance samples of volumes the estate knows (a sample can outlive its volume briefly).
    using core::VolumePerf;
    std::vector<core::Ptr<VolumePerf>> perf;
    QHash<const VolumePerf *, Labels> perfLabels;
    for (const auto &v : volumes) {
        if (auto sample = estate.volumePerf().find(v->source, core::estateKey(*v))) {
            perfLabels.insert(sample.get(), labelsOf.value(core::estateKey(*v)));
            perf.push_back(std::move(sample));
        }
    }
    writeGauges<VolumePerf>(
        out,
        perf,
        [&perfLabels](const VolumePerf &p) {
            return perfLabels.value(&p);
        },
        {fieldGauge("strata_volume_read_iops", "Read operations per second of the volume.", &VolumePerf::readIops),
         fieldGauge("strata_volume_write_iops", "Write operations per second of the volume.", &VolumePerf::writeIops),
         fieldGauge("strata_volume_iops", "Operations per second of the volume (all kinds).", &VolumePerf::totalIops),
         fieldGauge("strata_volume_throughput_bytes_per_second",
                    "Bytes per second read and written on the volume.",
                    &VolumePerf::throughputBps),
         fieldGauge("strata_volume_latency_seconds",
                    "Average operation latency of the volume.",
                    &VolumePerf::latencyUs,
                    1e6)});
}

void writeCaches(QByteArray &out, const core::Estate &estate)
{
    const auto targets = sortedById(estate.cacheTargets().all());
    using core::CacheTarget;
    writeGauges<CacheTarget>(out,
                             targets,
                             [](const CacheTarget &t) {
                                 return Labels{{"source", t.source}, {"target", t.id}};
                             },
                             {fieldGauge("strata_cache_target_capacity_bytes",
                                         "Size of the cache target's volume.",
                                         &CacheTarget::capacityBytes),
                              fieldGauge("strata_cache_target_used_bytes",
                                         "Bytes used on the cache target's volume (all content).",
                                         &CacheTarget::usedBytes),
                              fieldGauge("strata_cache_target_cached_bytes",
                                         "Bytes of cached commits on the cache target.",
                                         &CacheTarget::cachedBytes)});

    constexpr core::CacheState kStates[] = {core::CacheState::Requested,
                                            core::CacheState::Loading,
                                            core::CacheState::Ready,
                                            core::CacheState::Evicting,
                                            core::CacheState::Evicted,
                                            core::CacheState::Failed};
    // (source, target) -> count per state; targets only named by a cached commit count too.
    std::map<std::pair<QString, QString>, std::array<int, std::size(kStates)>> counts;
    for (const auto &t : targets) {
        counts[{t->source, t->id}] = {};
    }
    for (const auto &c : estate.cachedCommits().all()) {
        auto &row = counts[{c->source, c->target}];
        for (std::size_t i = 0; i < std::size(kStates); ++i) {
            if (kStates[i] == c->state) {
                ++row[i];
            }
        }
    }
    Family commits(out, "strata_cached_commits", "Cached commits on the target by state.");
    for (const auto &[key, row] : counts) {
        for (std::size_t i = 0; i < std::size(kStates); ++i) {
            commits.add({{"source", key.first}, {"target", key.second}, {"state", core::cacheStateName(kStates[i])}},
                        row[i]);
        }
    }
}

// Growing containers with a limit and a fill date, in source/kind/name order so the output is
// stable (the service keeps them full soonest first).
void writeForecasts(QByteArray &out, core::Engine &engine)
{
    const core::ForecastService &service = engine.forecasts();
    const QDateTime now = engine.clock().now();
    std::vector<const core::ContainerForecast *> growing;
    for (const core::ContainerForecast &f : service.forecasts()) {
        if (f.forecast.trend == core::CapacityForecast::Trend::Growing && f.forecast.fullAt.isValid()) {
            growing.push_back(&f);
        }
    }
    std::sort(growing.begin(), growing.end(), [](const core::ContainerForecast *a, const core::ContainerForecast *b) {
        return std::tie(a->container.source, a->container.kind, a->container.name, a->container.id)
               < std::tie(b->container.source, b->container.kind, b->container.name, b->container.id);
    });
    const auto labelsOf = [](const core::ContainerForecast &f) {
        return Labels{{"source", f.container.source},
                      {"kind", core::containerKindName(f.container.kind)},
                      {"name", f.container.name},
                      {"id", f.container.id}};
    };
    {
        // A family's samples follow its header: one family at a time.
        Family full(out,
                    "strata_capacity_forecast_full_seconds",
                    "Seconds from now until the container is full at its forecast's median growth (growing "
                    "containers with a limit only).");
        for (const core::ContainerForecast *f : growing) {
            full.add(labelsOf(*f), std::max<double>(0.0, double(now.msecsTo(f->forecast.fullAt)) / 1000.0));
        }
    }
    {
        Family growth(out,
                      "strata_capacity_forecast_growth_bytes_per_day",
                      "Median growth of the container's used bytes per day (the same containers).");
        for (const core::ContainerForecast *f : growing) {
            growth.add(labelsOf(*f), f->forecast.bytesPerDay);
        }
    }
    if (service.computedAt().isValid()) {
        Family computed(out,
                        "strata_capacity_forecast_computed_timestamp_seconds",
                        "When the capacity forecasts were last computed (Unix time); it stays while the "
                        "capacity history cannot be read.");
        computed.add({}, double(service.computedAt().toMSecsSinceEpoch()) / 1000.0);
    }
}

/// Per-object figures of the shipped alert rules (models/core/planning/alertsignals.h).
void writeAlertSignals(QByteArray &out, core::Engine &engine)
{
    const core::Estate &estate = engine.estate();
    Family pending(out, "strata_job_pending_seconds", "How long the waiting job has existed without running.");
    for (const core::PendingJobSignal &j : core::pendingJobSignals(estate, engine.clock().now())) {
        pending.add({{"source", j.source}, {"project", j.project}, {"job_name", j.job}}, double(j.pendingSeconds));
    }
    Family failed(out, "strata_cache_load_failed", "1 for each cached commit whose load failed.");
    for (const core::FailedCacheLoadSignal &f : core::failedCacheLoadSignals(estate)) {
        failed.add({{"source", f.source}, {"target", f.target}, {"dataset", f.dataset}, {"commit", f.commit}}, 1);
    }
    Family schedules(out,
                     "strata_schedule_last_run_failed",
                     "1 when the enabled schedule's last change failed or was missed, else 0.");
    for (const core::ServiceLevelSchedule &s : engine.schedules().schedules()) {
        schedules.add({{"source", s.source}, {"volume", s.volumeName}, {"schedule", QString::number(s.id)}},
                      core::scheduleLastRunFailed(s) ? 1 : 0);
    }
}

} // namespace

QByteArray prometheusText(core::Engine &engine)
{
    QByteArray out;
    out.reserve(64 * 1024);
    const core::Estate &estate = engine.estate();
    writeSources(out, engine);
    writeCompute(out, estate);
    writeVolumes(out, estate);
    writeCaches(out, estate);
    writeForecasts(out, engine);
    writeAlertSignals(out, engine);
    return out;
}

namespace {

/// A family of WebServerCounters: HELP and TYPE, then one series per known label value (0 when it
/// never happened) and any other value the server counted, in that order.
void writeWebFamily(QByteArray &out,
                    const char *name,
                    const char *type,
                    const char *help,
                    const char *label,
                    std::initializer_list<const char *> known,
                    const QMap<QByteArray, qint64> &values)
{
    appendFamilyHeader(out, name, help, type);
    QList<QByteArray> keys;
    for (const char *k : known) {
        keys << QByteArray(k);
    }
    for (auto it = values.constBegin(); it != values.constEnd(); ++it) {
        if (!keys.contains(it.key())) {
            keys << it.key();
        }
    }
    for (const QByteArray &key : std::as_const(keys)) {
        out += name;
        out += '{';
        out += label;
        out += "=\"";
        appendEscapedLabel(out, QString::fromLatin1(key));
        out += "\"} ";
        appendNumber(out, double(values.value(key)));
        out += '\n';
    }
}

void writeWebGauge(QByteArray &out, const char *name, const char *help, qint64 value)
{
    appendFamilyHeader(out, name, help, "gauge");
    out += name;
    out += ' ';
    appendNumber(out, double(value));
    out += '\n';
}

} // namespace

QByteArray webServerMetricsText(const WebServerCounters &c)
{
    QByteArray out;
    writeWebGauge(
        out, "strata_web_connections", "Open connections to strata-server, WebSockets included.", c.connections);
    writeWebFamily(out,
                   "strata_web_refused_connections_total",
                   "counter",
                   "Connections strata-server closed to protect itself, by reason.",
                   "reason",
                   {"per_client_limit", "total_limit", "evicted", "header_timeout", "idle_timeout", "accept_error"},
                   c.refusedConnections);
    writeWebFamily(out,
                   "strata_web_refused_requests_total",
                   "counter",
                   "Requests answered with an error before reaching a route, by reason.",
                   "reason",
                   {"header_too_large",
                    "url_too_long",
                    "body_too_large",
                    "login_required",
                    "host_not_allowed",
                    "bad_request",
                    "websocket_refused",
                    "login_throttled",
                    "login_busy"},
                   c.refusedRequests);
    writeWebFamily(out,
                   "strata_web_login_lockouts_total",
                   "counter",
                   "Login lockouts started after repeated wrong passwords, by scope.",
                   "scope",
                   {"user_from_address", "address", "global"},
                   c.loginLockouts);
    writeWebGauge(out, "strata_web_live_viewers", "Connected live-feed viewers.", c.liveViewers);
    writeWebGauge(
        out, "strata_web_live_queued_bytes", "Live-feed bytes queued for viewers and not yet sent.", c.liveQueuedBytes);
    writeWebGauge(out, "strata_web_live_kept_bytes", "Live-feed diffs kept for catch-up, in bytes.", c.liveKeptBytes);
    writeWebFamily(out,
                   "strata_web_live_viewers_dropped_total",
                   "counter",
                   "Live-feed viewers disconnected by the server, by reason.",
                   "reason",
                   {"send_queue", "memory_budget"},
                   c.droppedViewers);
    if (!c.publicUrl.isEmpty()) {
        appendFamilyHeader(out, "strata_console_info", "The web console's public URL (label url), always 1.", "gauge");
        out += "strata_console_info{url=\"";
        appendEscapedLabel(out, c.publicUrl);
        out += "\"} 1\n";
    }
    return out;
}

QByteArray replicaMetricsText(const core::ReplicaCoordinator::Stats &stats, const QHash<QString, QString> &owners)
{
    QByteArray out;
    appendFamilyHeader(
        out, "strata_replica_info", "This replica's name among those sharing the store, always 1.", "gauge");
    out += "strata_replica_info{replica=\"";
    appendEscapedLabel(out, stats.replicaId);
    out += "\"} 1\n";
    writeWebGauge(out, "strata_replica_leases_held", "Sources this replica polls.", stats.held.size());
    writeWebGauge(out,
                  "strata_replica_live_replicas",
                  "Replicas that renewed their leases within the lease time, as this one last saw.",
                  stats.liveReplicas.size());
    // One unlabelled sample: a counter or a gauge.
    const auto single = [&out](const char *name, const char *help, double value, const char *type = "counter") {
        appendFamilyHeader(out, name, help, type);
        out += name;
        out += ' ';
        appendNumber(out, value);
        out += '\n';
    };
    const auto counter = [&single](const char *name, const char *help, qint64 value) {
        single(name, help, double(value));
    };
    counter("strata_replica_lease_takeovers_total",
            "Source leases this replica took from a replica that stopped renewing them.",
            stats.takeovers);
    counter("strata_replica_leases_released_total",
            "Source leases this replica gave up to balance them over the live replicas.",
            stats.released);
    counter(
        "strata_replica_lease_renewal_failures_total", "Lease renewals the store did not answer.", stats.leaseFailures);
    counter(
        "strata_replica_states_shared_total", "Source states this replica wrote for the others.", stats.statesShared);
    counter("strata_replica_shared_bytes_total",
            "Compressed bytes of source records this replica wrote for the others.",
            stats.bodyBytesShared);
    counter("strata_replica_states_applied_total",
            "Source states of other replicas published into this replica's estate.",
            stats.statesApplied);
    if (stats.lastNotifyLagSeconds >= 0) {
        single("strata_replica_notify_lag_seconds",
               "Store time from the owner writing the last applied state to this replica reading it.",
               stats.lastNotifyLagSeconds,
               "gauge");
        single("strata_replica_notify_lag_max_seconds",
               "The largest notify lag since this replica started.",
               stats.maxNotifyLagSeconds,
               "gauge");
    }
    appendFamilyHeader(
        out, "strata_source_poller", "1 for the replica that polls the source (label replica empty: nobody).", "gauge");
    QStringList sources = owners.keys();
    sources.sort();
    for (const QString &source : std::as_const(sources)) {
        out += "strata_source_poller{source=\"";
        appendEscapedLabel(out, source);
        out += "\",replica=\"";
        appendEscapedLabel(out, owners.value(source));
        out += "\"} 1\n";
    }
    return out;
}

// ---- The process and the server's own timings (runtimeMetricsText) ----

DurationHistogram::DurationHistogram(std::vector<double> upperBoundsSeconds)
    : m_bounds(std::move(upperBoundsSeconds))
    , m_counts(m_bounds.size() + 1, 0)
{}

void DurationHistogram::observe(double seconds)
{
    seconds = std::max(0.0, seconds);
    const auto bucket = std::lower_bound(m_bounds.cbegin(), m_bounds.cend(), seconds) - m_bounds.cbegin();
    ++m_counts[std::size_t(bucket)];
    ++m_count;
    m_sum += seconds;
}

std::vector<double> ServerTimings::pollBuckets()
{
    return {0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120};
}

std::vector<double> ServerTimings::deliveryBuckets()
{
    return {0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2.5, 5, 10};
}

void ServerTimings::observePoll(const QString &source, const QString &kind, double seconds)
{
    auto it = polls.find({source, kind});
    if (it == polls.end()) {
        it = polls.emplace(std::make_pair(source, kind), DurationHistogram(pollBuckets())).first;
    }
    it->second.observe(seconds);
}

void ServerTimings::keepSources(const std::vector<QString> &sources)
{
    std::erase_if(polls, [&sources](const auto &entry) {
        return std::find(sources.cbegin(), sources.cend(), entry.first.first) == sources.cend();
    });
}

namespace {

// Whole-file reads of small /proc files (their size is 0 to stat, so QFile::readAll is the way).
QByteArray readProcFile(const char *path)
{
    QFile file(QString::fromLatin1(path));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

#if defined(Q_OS_LINUX)
double processStartTimeSeconds()
{
    // Field 22 of /proc/self/stat (clock ticks after boot); the command name (field 2) may hold
    // spaces and parentheses, so fields are counted after its last ')'.
    const QByteArray stat = readProcFile("/proc/self/stat");
    const qsizetype paren = stat.lastIndexOf(')');
    const QList<QByteArray> fields = stat.mid(paren + 1).simplified().split(' ');
    constexpr int kStartTimeAfterName = 22 - 3;
    const long ticks = sysconf(_SC_CLK_TCK);
    if (paren < 0 || fields.size() <= kStartTimeAfterName || ticks <= 0) {
        return -1;
    }
    bool ok = false;
    const double sinceBoot = double(fields.at(kStartTimeAfterName).toULongLong(&ok)) / double(ticks);
    for (const QByteArray &line : readProcFile("/proc/stat").split('\n')) {
        if (ok && line.startsWith("btime ")) {
            const qint64 boot = line.mid(6).trimmed().toLongLong(&ok);
            return ok ? double(boot) + sinceBoot : -1;
        }
    }
    return -1;
}
#endif

void appendProcessFamily(QByteArray &out, const char *name, const char *help, const char *type, double value)
{
    if (value < 0) {
        return;
    }
    appendFamilyHeader(out, name, help, type);
    out += name;
    out += ' ';
    appendNumber(out, value);
    out += '\n';
}

// The label part of a series ("{a=\"x\",le=\"0.5\"}"), `le` last when given.
QByteArray histogramLabels(const Labels &labels, const QByteArray &le)
{
    QByteArray out = "{";
    for (const auto &[name, value] : labels) {
        out += name;
        out += "=\"";
        appendEscapedLabel(out, value);
        out += "\",";
    }
    if (!le.isEmpty()) {
        out += "le=\"" + le + "\",";
    }
    out.chop(1);
    return out.isEmpty() ? out : out + '}';
}

void appendHistogramSeries(QByteArray &out, const char *name, const Labels &labels, const DurationHistogram &h)
{
    quint64 cumulative = 0;
    for (std::size_t i = 0; i < h.bucketCounts().size(); ++i) {
        cumulative += h.bucketCounts()[i];
        QByteArray le;
        if (i < h.upperBounds().size()) {
            appendNumber(le, h.upperBounds()[i]);
        } else {
            le = "+Inf";
        }
        out += name;
        out += "_bucket" + histogramLabels(labels, le) + ' ';
        appendNumber(out, double(cumulative));
        out += '\n';
    }
    out += name;
    out += "_sum" + histogramLabels(labels, {}) + ' ';
    appendNumber(out, h.sumSeconds());
    out += '\n';
    out += name;
    out += "_count" + histogramLabels(labels, {}) + ' ';
    appendNumber(out, double(h.count()));
    out += '\n';
}

} // namespace

ProcessFigures readProcessFigures()
{
    ProcessFigures f;
#if defined(Q_OS_LINUX)
    const QList<QByteArray> statm = readProcFile("/proc/self/statm").simplified().split(' ');
    const long page = sysconf(_SC_PAGESIZE);
    if (statm.size() >= 2 && page > 0) {
        f.virtualBytes = statm.at(0).toLongLong() * page;
        f.residentBytes = statm.at(1).toLongLong() * page;
    }
    f.startTimeSeconds = processStartTimeSeconds();
    if (DIR *dir = opendir("/proc/self/fd")) {
        qint64 entries = 0;
        while (const dirent *entry = readdir(dir)) {
            entries += entry->d_name[0] != '.';
        }
        closedir(dir);
        f.openFds = entries - 1; // the descriptor opendir itself holds
    }
#endif
#if defined(Q_OS_UNIX)
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) == 0) {
        const auto seconds = [](const timeval &t) {
            return double(t.tv_sec) + double(t.tv_usec) / 1e6;
        };
        f.cpuSeconds = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    }
    rlimit files{};
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY) {
        f.maxFds = qint64(files.rlim_cur);
    }
#endif
    return f;
}

QByteArray runtimeMetricsText(const ProcessFigures &process, const ServerTimings &timings)
{
    QByteArray out;
    appendProcessFamily(
        out, "process_resident_memory_bytes", "Resident memory size in bytes.", "gauge", double(process.residentBytes));
    appendProcessFamily(
        out, "process_virtual_memory_bytes", "Virtual memory size in bytes.", "gauge", double(process.virtualBytes));
    appendProcessFamily(out,
                        "process_cpu_seconds_total",
                        "Total user and system CPU time spent in seconds.",
                        "counter",
                        process.cpuSeconds);
    appendProcessFamily(out,
                        "process_start_time_seconds",
                        "Start time of the process since unix epoch in seconds.",
                        "gauge",
                        process.startTimeSeconds);
    appendProcessFamily(out, "process_open_fds", "Number of open file descriptors.", "gauge", double(process.openFds));
    appendProcessFamily(
        out, "process_max_fds", "Maximum number of open file descriptors.", "gauge", double(process.maxFds));

    appendFamilyHeader(out,
                       "strata_source_poll_duration_seconds",
                       "Duration of the source's successful inventory polls, request to estate update.",
                       "histogram");
    for (const auto &[key, histogram] : timings.polls) {
        appendHistogramSeries(
            out, "strata_source_poll_duration_seconds", {{"source", key.first}, {"kind", key.second}}, histogram);
    }
    appendFamilyHeader(out,
                       "strata_web_live_delivery_delay_seconds",
                       "Delay from a change entering the live feed to its diff being written to the viewers.",
                       "histogram");
    appendHistogramSeries(out, "strata_web_live_delivery_delay_seconds", {}, timings.liveDelivery);
    return out;
}

} // namespace strata::web
