#include "connectors/prometheus/dcgm.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <tuple>

namespace strata::prometheus {

using connectors::fail;
using connectors::Result;
using http::CancelToken;

namespace {

std::string label(const Labels &labels, const std::string &name)
{
    const auto it = labels.find(name);
    return it == labels.end() ? std::string() : it->second;
}

// honor_labels off makes Prometheus rename the exporter's pod/namespace/container to exported_*
// and put the exporter's own in their place; the exported_ ones are the GPU's holder.
std::string holderLabel(const Labels &labels, const std::string &name)
{
    const auto exported = labels.find("exported_" + name);
    return exported != labels.end() ? exported->second : label(labels, name);
}

Labels withHolderLabels(Labels labels)
{
    for (const char *name : {"pod", "namespace", "container"}) {
        const auto exported = labels.find(std::string("exported_") + name);
        if (exported != labels.end()) {
            labels[name] = exported->second;
            labels.erase(exported);
        }
    }
    return labels;
}

int gpuIndex(const Labels &labels)
{
    const std::string text = label(labels, "gpu");
    int value = -1;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    return result.ec == std::errc() && result.ptr == text.data() + text.size() ? value : -1;
}

} // namespace

std::vector<GpuMetrics> joinGpuMetrics(const std::vector<Sample> &samples)
{
    struct Entry
    {
        GpuMetrics metrics;
        bool hasHolder = false;
        std::map<std::string, bool> metricHasPod; // metric -> the chosen sample names a pod
    };
    using Key = std::tuple<std::string, int, std::string>; // node, gpu, uuid (only when gpu < 0)
    std::map<Key, Entry> gpus;

    // Sorting by labels makes "first in label order" deterministic whatever the server's order.
    std::vector<const Sample *> ordered;
    ordered.reserve(samples.size());
    for (const Sample &sample : samples) {
        ordered.push_back(&sample);
    }
    std::stable_sort(ordered.begin(), ordered.end(), [](const Sample *a, const Sample *b) {
        return a->labels < b->labels;
    });

    for (const Sample *sample : ordered) {
        const Labels &labels = sample->labels;
        const std::string metric = label(labels, "__name__");
        double GpuMetrics::*field = nullptr;
        if (metric == kGpuUtil) {
            field = &GpuMetrics::utilPct;
        } else if (metric == kFbUsed) {
            field = &GpuMetrics::fbUsedMiB;
        } else if (metric == kFbFree) {
            field = &GpuMetrics::fbFreeMiB;
        } else if (metric == kPowerUsage) {
            field = &GpuMetrics::powerW;
        } else if (metric == kGpuTemp) {
            field = &GpuMetrics::tempC;
        } else {
            continue;
        }
        std::string node = label(labels, "Hostname");
        if (node.empty()) {
            node = label(labels, "node");
        }
        const int gpu = gpuIndex(labels);
        const std::string uuid = label(labels, "UUID");
        Entry &entry = gpus[Key{node, gpu, gpu < 0 ? uuid : std::string()}];
        GpuMetrics &m = entry.metrics;
        m.node = node;
        m.gpu = gpu;
        if (m.uuid.empty()) {
            m.uuid = uuid;
        }
        if (m.model.empty()) {
            m.model = label(labels, "modelName");
        }

        const std::string pod = holderLabel(labels, "pod");
        const bool hasPod = !pod.empty();
        const auto seen = entry.metricHasPod.find(metric);
        if (seen != entry.metricHasPod.end() && (seen->second || !hasPod)) {
            continue; // keep the earlier sample: it names a pod, or neither does
        }
        entry.metricHasPod[metric] = hasPod;
        m.*field = sample->value;

        const bool isUtil = metric == kGpuUtil;
        if (hasPod && (isUtil || !entry.hasHolder)) {
            m.pod = pod;
            m.namespace_ = holderLabel(labels, "namespace");
            m.container = holderLabel(labels, "container");
            entry.hasHolder = true;
        }
    }

    std::vector<GpuMetrics> out;
    out.reserve(gpus.size());
    for (auto &[key, entry] : gpus) {
        out.push_back(std::move(entry.metrics));
    }
    return out;
}

Result<std::vector<GpuMetrics>>
queryGpuMetrics(PrometheusClient &client, const CancelToken &cancel, std::optional<double> time)
{
    auto result = client.instantQuery(
        R"q({__name__=~"DCGM_FI_DEV_(GPU_UTIL|FB_USED|FB_FREE|POWER_USAGE|GPU_TEMP)"})q", time, cancel);
    if (!result) {
        return fail(std::move(result).error());
    }
    if (result->type != ResultType::Vector) {
        return fail(connectors::Error::make(connectors::Error::Kind::Parse,
                                            "Prometheus answered the GPU metrics query with a non-vector result"));
    }
    return joinGpuMetrics(result->samples);
}

std::vector<Series>
aggregateSeries(const std::vector<Series> &series, const std::vector<std::string> &by, Aggregation op)
{
    struct Accumulator
    {
        double sum = 0;
        double max = -std::numeric_limits<double>::infinity();
        double min = std::numeric_limits<double>::infinity();
        int count = 0;   // non-NaN values
        int members = 0; // all values (Count)
    };
    std::map<Labels, std::map<double, Accumulator>> groups;
    for (const Series &s : series) {
        Labels key;
        for (const std::string &name : by) {
            const std::string value = label(s.labels, name);
            if (!value.empty()) {
                key.emplace(name, value);
            }
        }
        auto &points = groups[key];
        for (const auto &[t, v] : s.points) {
            Accumulator &acc = points[t];
            ++acc.members;
            if (std::isnan(v)) {
                continue;
            }
            acc.sum += v;
            acc.max = std::max(acc.max, v);
            acc.min = std::min(acc.min, v);
            ++acc.count;
        }
    }

    std::vector<Series> out;
    out.reserve(groups.size());
    for (const auto &[labels, points] : groups) {
        Series s;
        s.labels = labels;
        s.points.reserve(points.size());
        for (const auto &[t, acc] : points) {
            double value = std::numeric_limits<double>::quiet_NaN();
            switch (op) {
            case Aggregation::Avg:
                value = acc.count ? acc.sum / acc.count : value;
                break;
            case Aggregation::Sum:
                value = acc.count ? acc.sum : value;
                break;
            case Aggregation::Max:
                value = acc.count ? acc.max : value;
                break;
            case Aggregation::Min:
                value = acc.count ? acc.min : value;
                break;
            case Aggregation::Count:
                value = acc.members;
                break;
            }
            s.points.emplace_back(t, value);
        }
        out.push_back(std::move(s));
    }
    return out;
}

Result<std::vector<Series>> utilizationHistory(PrometheusClient &client,
                                               const std::vector<std::string> &by,
                                               double start,
                                               double end,
                                               double step,
                                               const CancelToken &cancel)
{
    auto result = client.rangeQuery(kGpuUtil, start, end, step, cancel);
    if (!result) {
        return fail(std::move(result).error());
    }
    if (result->type != ResultType::Matrix) {
        return fail(
            connectors::Error::make(connectors::Error::Kind::Parse,
                                    "Prometheus answered the GPU utilization range query with a non-matrix result"));
    }
    for (Series &s : result->series) {
        s.labels = withHolderLabels(std::move(s.labels));
    }
    return aggregateSeries(result->series, by, Aggregation::Avg);
}

Result<std::vector<Series>> utilizationHistoryByNamespace(
    PrometheusClient &client, double start, double end, double step, const CancelToken &cancel)
{
    return utilizationHistory(client, {"namespace"}, start, end, step, cancel);
}

std::string runaiProjectOfNamespace(const std::string &namespace_)
{
    constexpr std::string_view prefix = "runai-";
    if (namespace_.size() > prefix.size() && namespace_.starts_with(prefix)) {
        return namespace_.substr(prefix.size());
    }
    return {};
}

std::vector<ProjectGpuUsage> usageByProject(const std::vector<GpuMetrics> &gpus, const ProjectResolver &resolve)
{
    struct Totals
    {
        ProjectGpuUsage usage;
        double utilSum = 0;
        int utilCount = 0;
    };
    std::map<std::string, Totals> projects;
    for (const GpuMetrics &gpu : gpus) {
        if (gpu.pod.empty() && gpu.namespace_.empty()) {
            continue;
        }
        const std::string project = resolve ? resolve(gpu.namespace_, gpu.pod) : std::string();
        Totals &totals = projects[project];
        totals.usage.project = project;
        ++totals.usage.gpus;
        if (!std::isnan(gpu.utilPct)) {
            totals.utilSum += gpu.utilPct;
            ++totals.utilCount;
        }
        if (!std::isnan(gpu.fbUsedMiB)) {
            totals.usage.fbUsedMiB += gpu.fbUsedMiB;
        }
        if (!std::isnan(gpu.powerW)) {
            totals.usage.powerW += gpu.powerW;
        }
    }
    std::vector<ProjectGpuUsage> out;
    out.reserve(projects.size());
    for (auto &[name, totals] : projects) {
        if (totals.utilCount > 0) {
            totals.usage.avgUtilPct = totals.utilSum / totals.utilCount;
        }
        out.push_back(std::move(totals.usage));
    }
    return out;
}

} // namespace strata::prometheus
