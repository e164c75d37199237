#pragma once

#include "connectors/prometheus/client.h"

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace strata::prometheus {

/// DCGM metric names (dcgm-exporter default counters) the GPU views read.
inline constexpr const char *kGpuUtil = "DCGM_FI_DEV_GPU_UTIL";       ///< gauge, %
inline constexpr const char *kFbUsed = "DCGM_FI_DEV_FB_USED";         ///< gauge, MiB
inline constexpr const char *kFbFree = "DCGM_FI_DEV_FB_FREE";         ///< gauge, MiB
inline constexpr const char *kPowerUsage = "DCGM_FI_DEV_POWER_USAGE"; ///< gauge, W
inline constexpr const char *kGpuTemp = "DCGM_FI_DEV_GPU_TEMP";       ///< gauge, degrees C

/// One physical GPU's latest DCGM readings, joined from the five metrics.
struct GpuMetrics
{
    std::string node;  ///< label Hostname (falls back to label `node` when Hostname is absent)
    int gpu = -1;      ///< label gpu (0-based index on the node); -1 when absent or not a number
    std::string uuid;  ///< label UUID ("GPU-..."), may be empty
    std::string model; ///< label modelName ("Tesla V100-SXM2-32GB"), may be empty
    /// Kubernetes holder (dcgm-exporter's pod mapping), empty while the GPU is idle. When
    /// Prometheus renamed the exporter's labels to exported_pod/exported_namespace/
    /// exported_container (honor_labels off), those are used, since `namespace` then names the
    /// exporter's own namespace.
    std::string pod;
    std::string namespace_;
    std::string container;
    /// Readings; NaN when that metric had no sample for this GPU.
    double utilPct = std::numeric_limits<double>::quiet_NaN();   ///< 0..100
    double fbUsedMiB = std::numeric_limits<double>::quiet_NaN(); ///< MiB
    double fbFreeMiB = std::numeric_limits<double>::quiet_NaN(); ///< MiB
    double powerW = std::numeric_limits<double>::quiet_NaN();    ///< W
    double tempC = std::numeric_limits<double>::quiet_NaN();     ///< degrees C
};

/// The latest readings of every GPU, sorted by (node, gpu).
///
/// One instant query for `{__name__=~"DCGM_FI_DEV_(GPU_UTIL|FB_USED|FB_FREE|POWER_USAGE|GPU_TEMP)"}`
/// (a bare selector, so real Prometheus and the simulator's DcgmExporter answer it alike), joined
/// client-side on (node, gpu) (on UUID when the gpu label is missing). When one GPU appears in
/// several series of a metric (dcgm-exporter emits one per pod on a shared GPU), a series that
/// names a pod wins over one that does not, and otherwise the first in label order; the holder
/// fields come from the series chosen for DCGM_FI_DEV_GPU_UTIL, or the first metric that has one.
/// `time` (unix seconds) defaults to the server's now; samples older than the lookback (5 min by
/// default) are not seen.
connectors::Result<std::vector<GpuMetrics>>
queryGpuMetrics(PrometheusClient &client, const http::CancelToken &cancel = {}, std::optional<double> time = {});

/// Turns the samples of the five metrics (from any query that returned them) into per-GPU rows;
/// samples of other metrics are ignored. This is queryGpuMetrics' join, exposed for tests and for
/// callers with their own query.
std::vector<GpuMetrics> joinGpuMetrics(const std::vector<Sample> &samples);

enum class Aggregation
{
    Avg,
    Sum,
    Max,
    Min,
    Count
};

/// Client-side equivalent of PromQL `<op> by (<by...>) (<series>)` over range-query series: one
/// output series per distinct combination of the `by` labels (missing labels count as ""; output
/// labels hold only the non-empty ones, as in PromQL), with a point at every timestamp at which
/// at least one input series has a point. NaN inputs are skipped for Avg/Sum/Max/Min. Output
/// sorted by labels, points ascending.
std::vector<Series> aggregateSeries(const std::vector<Series> &series,
                                    const std::vector<std::string> &by,
                                    Aggregation op = Aggregation::Avg);

/// GPU utilisation history (percent, 0..100), averaged per distinct value of the `by` labels
/// ("namespace", "pod", "Hostname" ...). Design: it range-queries the bare selector
/// DCGM_FI_DEV_GPU_UTIL and aggregates client-side with aggregateSeries() rather than sending
/// `avg by (...)` PromQL, so it works unchanged against real Prometheus and against the
/// simulator, which evaluates selectors only. The cost is transferring one series per GPU
/// (16 GPUs x 24 h at a 5 min step = about 4,600 points). The exported_* label renaming is
/// undone first (see GpuMetrics). The group of GPUs without the label (idle GPUs for "namespace")
/// has empty labels, as in PromQL.
connectors::Result<std::vector<Series>> utilizationHistory(PrometheusClient &client,
                                                           const std::vector<std::string> &by,
                                                           double start,
                                                           double end,
                                                           double step,
                                                           const http::CancelToken &cancel = {});

/// utilizationHistory(client, {"namespace"}, ...): one series per namespace holding GPUs.
connectors::Result<std::vector<Series>> utilizationHistoryByNamespace(
    PrometheusClient &client, double start, double end, double step, const http::CancelToken &cancel = {});

/// Maps a GPU holder to a Strata project: (namespace, pod) -> project name, or "" when the pod
/// belongs to none. Supplied by the caller (who knows queues and namespaces).
using ProjectResolver = std::function<std::string(const std::string &namespace_, const std::string &pod)>;

/// Run:ai's convention: namespace "runai-<project>" -> "<project>", anything else -> "".
std::string runaiProjectOfNamespace(const std::string &namespace_);

/// GPU usage of one project at one instant.
struct ProjectGpuUsage
{
    std::string project; ///< "" collects GPUs held by pods of no project
    int gpus = 0;        ///< GPUs held (a shared GPU counts once, for its attributed pod)
    double avgUtilPct = std::numeric_limits<double>::quiet_NaN(); ///< mean over held GPUs with a reading
    double fbUsedMiB = 0;                                         ///< sum over held GPUs (NaN readings skipped)
    double powerW = 0;                                            ///< sum over held GPUs (NaN readings skipped)
};

/// Groups the GPUs that a pod holds (non-empty pod or namespace) by project; idle GPUs are left
/// out. Sorted by project name.
std::vector<ProjectGpuUsage> usageByProject(const std::vector<GpuMetrics> &gpus, const ProjectResolver &resolve);

} // namespace strata::prometheus
