#include "web/metrics.h"

#include "models/core/engine.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

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

double gpuCount(core::MilliGpu milli)
{
    return static_cast<double>(milli) / 1000.0;
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
        m_out += "# HELP ";
        m_out += name;
        m_out += ' ';
        m_out += help; // constant texts without backslash or newline
        m_out += "\n# TYPE ";
        m_out += name;
        m_out += " gauge\n";
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

void writeCompute(QByteArray &out, const core::Estate &estate)
{
    const auto clusters = sortedById(estate.gpuClusters().all());
    Family clusterGpus(out, "strata_cluster_gpus", "Allocatable GPUs on the cluster's Ready nodes.");
    for (const auto &c : clusters) {
        clusterGpus.add({{"source", c->source}, {"cluster", c->name}}, gpuCount(c->gpuTotal));
    }
    Family clusterAllocated(out, "strata_cluster_gpus_allocated", "GPUs held by bound pods of the cluster.");
    for (const auto &c : clusters) {
        clusterAllocated.add({{"source", c->source}, {"cluster", c->name}}, gpuCount(c->gpuAllocated));
    }

    const auto nodes = sortedByName(estate.gpuNodes().all());
    const auto nodeLabels = [](const core::GpuNode &n) {
        return Labels{{"source", n.source}, {"node", n.name}};
    };
    Family nodeGpus(out, "strata_node_gpus", "Allocatable GPUs of the node.");
    for (const auto &n : nodes) {
        nodeGpus.add(nodeLabels(*n), gpuCount(n->allocatable));
    }
    Family nodeAllocated(out, "strata_node_gpus_allocated", "GPUs of the node held by bound pods.");
    for (const auto &n : nodes) {
        nodeAllocated.add(nodeLabels(*n), gpuCount(n->allocated));
    }
    Family nodeUtil(out, "strata_node_gpu_utilization_ratio", "Mean DCGM GPU utilization of the node's GPUs (0..1).");
    for (const auto &n : nodes) {
        if (n->utilization >= 0) {
            nodeUtil.add(nodeLabels(*n), n->utilization / 100.0);
        }
    }

    const auto projects = sortedByName(estate.projects().all());
    const auto projectLabels = [](const core::Project &p) {
        return Labels{{"source", p.source}, {"project", p.name}};
    };
    Family allocated(out, "strata_project_gpus_allocated", "GPUs held by the project's running and starting jobs.");
    for (const auto &p : projects) {
        allocated.add(projectLabels(*p), gpuCount(p->allocated));
    }
    Family quota(out, "strata_project_gpu_quota", "GPUs guaranteed to the project (deserved quota).");
    for (const auto &p : projects) {
        if (p->quota >= 0) {
            quota.add(projectLabels(*p), gpuCount(p->quota));
        }
    }
    Family overQuota(out, "strata_project_gpus_over_quota", "GPUs the project holds beyond its quota.");
    for (const auto &p : projects) {
        overQuota.add(projectLabels(*p), gpuCount(p->overQuota));
    }
    Family idle(out,
                "strata_project_gpus_idle_allocated",
                "GPUs allocated to the project with DCGM utilization below 10 percent.");
    for (const auto &p : projects) {
        idle.add(projectLabels(*p), gpuCount(p->idleAllocated));
    }
    Family pending(out, "strata_project_gpus_pending", "GPUs requested by the project's queued jobs.");
    for (const auto &p : projects) {
        pending.add(projectLabels(*p), gpuCount(p->pending));
    }
    Family util(
        out, "strata_project_gpu_utilization_ratio", "Mean DCGM utilization of the project's allocated GPUs (0..1).");
    for (const auto &p : projects) {
        if (p->utilization >= 0) {
            util.add(projectLabels(*p), p->utilization / 100.0);
        }
    }
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

    Family size(out, "strata_volume_size_bytes", "Provisioned size of the volume.");
    for (const auto &v : volumes) {
        size.add(labelsOf.value(core::estateKey(*v)), static_cast<double>(v->sizeBytes));
    }
    Family used(out, "strata_volume_used_bytes", "Bytes used in the volume.");
    for (const auto &v : volumes) {
        if (v->usedBytes) { // none while the volume reports no space (offline): absent, not 0
            used.add(labelsOf.value(core::estateKey(*v)), static_cast<double>(*v->usedBytes));
        }
    }

    // Performance samples of volumes the estate knows (a sample can outlive its volume briefly).
    std::vector<std::pair<Labels, core::Ptr<core::VolumePerf>>> perf;
    for (const auto &v : volumes) {
        const auto sample = estate.volumePerf().find(v->source, core::estateKey(*v));
        if (sample) {
            perf.emplace_back(labelsOf.value(core::estateKey(*v)), sample);
        }
    }
    struct PerfColumn
    {
        const char *name;
        const char *help;
        double (*value)(const core::VolumePerf &);
    };
    static const PerfColumn kColumns[] = {
        {"strata_volume_read_iops",
         "Read operations per second of the volume.",
         [](const core::VolumePerf &p) {
             return p.readIops;
         }},
        {"strata_volume_write_iops",
         "Write operations per second of the volume.",
         [](const core::VolumePerf &p) {
             return p.writeIops;
         }},
        {"strata_volume_iops",
         "Operations per second of the volume (all kinds).",
         [](const core::VolumePerf &p) {
             return p.totalIops;
         }},
        {"strata_volume_throughput_bytes_per_second",
         "Bytes per second read and written on the volume.",
         [](const core::VolumePerf &p) {
             return p.throughputBps;
         }},
        {"strata_volume_latency_seconds",
         "Average operation latency of the volume.",
         [](const core::VolumePerf &p) {
             return p.latencyUs / 1e6;
         }},
    };
    for (const PerfColumn &column : kColumns) {
        Family family(out, column.name, column.help);
        for (const auto &[labels, sample] : perf) {
            family.add(labels, column.value(*sample));
        }
    }
}

void writeCaches(QByteArray &out, const core::Estate &estate)
{
    const auto targets = sortedById(estate.cacheTargets().all());
    const auto targetLabels = [](const core::CacheTarget &t) {
        return Labels{{"source", t.source}, {"target", t.id}};
    };
    Family capacity(out, "strata_cache_target_capacity_bytes", "Size of the cache target's volume.");
    for (const auto &t : targets) {
        capacity.add(targetLabels(*t), static_cast<double>(t->capacityBytes));
    }
    Family used(out, "strata_cache_target_used_bytes", "Bytes used on the cache target's volume (all content).");
    for (const auto &t : targets) {
        used.add(targetLabels(*t), static_cast<double>(t->usedBytes));
    }
    Family cached(out, "strata_cache_target_cached_bytes", "Bytes of cached commits on the cache target.");
    for (const auto &t : targets) {
        cached.add(targetLabels(*t), static_cast<double>(t->cachedBytes));
    }

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
    out += "# HELP ";
    out += name;
    out += ' ';
    out += help;
    out += "\n# TYPE ";
    out += name;
    out += ' ';
    out += type;
    out += '\n';
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
    out += "# HELP ";
    out += name;
    out += ' ';
    out += help;
    out += "\n# TYPE ";
    out += name;
    out += " gauge\n";
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
    return out;
}

} // namespace strata::web
