#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

#include <chrono>
#include <cstddef>
#include <deque>
#include <vector>

namespace strata::sim {
struct Request;
class Responder;
} // namespace strata::sim

namespace strata::sim::kube {

/// One GPU's readings at one instant, as NVIDIA's dcgm-exporter reports them.
struct DcgmGpuSample
{
    QString node;         ///< Kubernetes node name -> label `Hostname`
    int gpu = 0;          ///< physical GPU index on the node, 0-based -> labels `gpu="0"`, `device="nvidia0"`
    QString uuid;         ///< "GPU-3f2a...", stable per physical GPU -> label `UUID`
    QString model;        ///< NVML name with spaces, "Tesla V100-SXM2-32GB" -> label `modelName` (the node
                          ///< label nvidia.com/gpu.product is the same with '-' for ' ')
    double utilPct = 0;   ///< DCGM_FI_DEV_GPU_UTIL, percent 0..100
    double fbUsedMiB = 0; ///< DCGM_FI_DEV_FB_USED, MiB
    double fbFreeMiB = 0; ///< DCGM_FI_DEV_FB_FREE, MiB
    double powerW = 0;    ///< DCGM_FI_DEV_POWER_USAGE, W
    double tempC = 0;     ///< DCGM_FI_DEV_GPU_TEMP, degrees C
    /// The pod holding the GPU (dcgm-exporter's Kubernetes mapping); all empty while the GPU is
    /// idle, and then the labels are omitted. A shared GPU names the pod with the largest fraction.
    QString pod;
    QString namespace_;
    QString container;
};

/// dcgm-exporter plus the slice of Prometheus that scrapes it, for the Kubernetes simulator.
///
/// Feeding: the simulator calls record() once per simulated tick with every GPU of every node
/// (idle GPUs too, utilPct 0 and no pod), at the simulated time, never going backwards. /metrics
/// always shows the newest record. The history keeps one "scrape" per `scrapeInterval` of
/// simulated time: a tick less than `scrapeInterval` after the first tick of the newest scrape
/// replaces that scrape's values and time instead of adding one. At most `retention` of history
/// and at most `maxScrapes` scrapes are kept (oldest dropped first), so a fast simulated clock
/// cannot exhaust memory: about 250 bytes per GPU per scrape when the caller reuses its QStrings
/// (implicitly shared), i.e. 16 GPUs x 24 h at 15 s = 5,760 scrapes = about 23 MB.
///
/// Serving: handle() answers, with the JSON shapes of Prometheus 2.x:
/// - GET /metrics: the exporter's text exposition (# HELP / # TYPE per the DCGM default counters,
///   labels gpu, UUID, device, modelName, Hostname and pod/namespace/container when set);
/// - GET|POST /api/v1/query (query, time = unix seconds or RFC 3339, default the newest
///   record's time) and /api/v1/query_range (query, start, end, step = seconds or a duration such
///   as "30s"/"1m"): only bare selectors of the five metrics, optionally with matchers
///   (`DCGM_FI_DEV_GPU_UTIL{namespace="runai-team-a",gpu!="3",Hostname=~"node-[12]"}`; =, !=,
///   =~, !~ with fully anchored RE2-like regexes). An instant selector at time t sees the newest
///   scrape in [t - lookback, t]; a GPU missing from that scrape has no sample (Prometheus'
///   staleness). Results are sorted by labels, __name__ included, values as strings;
/// - GET /api/v1/status/buildinfo.
/// A query that is not such a selector (aggregations, functions, operators; unknown metric names
/// are fine, they match nothing) gets {"status":"error","errorType":"bad_data","error":...} with
/// HTTP 400, as do unparseable time/start/end/step values. Other paths, including the rest of
/// /api/v1/ (the Kubernetes core API lives there), are left to the caller.
///
/// Not thread-safe: use it on the simulator's thread.
class DcgmExporter
{
public:
    struct Options
    {
        std::chrono::milliseconds scrapeInterval{15'000};
        std::chrono::milliseconds retention{24 * 3600 * 1000};
        std::size_t maxScrapes = 10'000;
        std::chrono::milliseconds lookback{5 * 60 * 1000}; ///< Prometheus' default lookback delta
        /// Serve under this path prefix (no trailing slash), e.g.
        /// "/api/v1/namespaces/gpu-operator/services/prometheus:9090/proxy" to appear where the
        /// Kubernetes API server proxies an in-cluster Prometheus; empty = at the root. Needed
        /// when sharing a port with the API server, which has its own /metrics.
        QString pathPrefix;
    };

    DcgmExporter();
    explicit DcgmExporter(Options options);

    /// Records all GPUs at simulated time `at`; a time before the newest record is ignored.
    void record(const QDateTime &at, QList<DcgmGpuSample> gpus);

    /// Answers /metrics, /api/v1/query, /api/v1/query_range and /api/v1/status/buildinfo (each
    /// under Options::pathPrefix) and returns true; returns false without answering for any other
    /// path. Call it first from the simulator's request handler and fall through on false.
    bool handle(const Request &request, const Responder &responder) const;

    /// The /metrics body for the newest record (empty exposition before the first record).
    [[nodiscard]] QByteArray metricsText() const;
    /// Number of stored scrapes (history length).
    [[nodiscard]] std::size_t scrapeCount() const { return m_scrapes.size(); }
    /// Time of the newest record, invalid before the first.
    [[nodiscard]] QDateTime latestTime() const;
    [[nodiscard]] const Options &options() const { return m_options; }

private:
    struct Scrape
    {
        qint64 openedMs = 0; ///< time of the first tick in this scrape interval
        qint64 timeMs = 0;   ///< time of the newest tick, whose values `gpus` holds
        QList<DcgmGpuSample> gpus;
    };

    Options m_options;
    std::deque<Scrape> m_scrapes;
};

} // namespace strata::sim::kube
