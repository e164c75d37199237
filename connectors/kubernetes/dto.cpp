#include "connectors/kubernetes/dto.h"

#include "connectors/http/httpclient.h"
#include "connectors/kubernetes/podparts.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace strata::kubernetes {

using nlohmann::json;

namespace {

// ---- tolerant accessors: a wrong type reads as absent ----

const json *field(const json &object, const char *key)
{
    if (!object.is_object()) {
        return nullptr;
    }
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

const json *path(const json &object, std::initializer_list<const char *> keys)
{
    const json *node = &object;
    for (const char *key : keys) {
        node = field(*node, key);
        if (!node) {
            return nullptr;
        }
    }
    return node;
}

std::string str(const json &object, const char *key)
{
    const json *value = field(object, key);
    return value && value->is_string() ? value->get<std::string>() : std::string{};
}

std::string str(const json *object, const char *key)
{
    return object ? str(*object, key) : std::string{};
}

bool boolean(const json *object, const char *key)
{
    const json *value = object ? field(*object, key) : nullptr;
    return value && value->is_boolean() && value->get<bool>();
}

int integer(const json *object, const char *key, int fallback = 0)
{
    const json *value = object ? field(*object, key) : nullptr;
    if (value && value->is_number_integer()) {
        const auto v = value->get<std::int64_t>();
        if (v >= std::numeric_limits<int>::min() && v <= std::numeric_limits<int>::max()) {
            return static_cast<int>(v);
        }
    }
    return fallback;
}

std::map<std::string, std::string> stringMap(const json *object)
{
    std::map<std::string, std::string> out;
    if (object && object->is_object()) {
        for (const auto &[key, value] : object->items()) {
            if (value.is_string()) {
                out.emplace(key, value.get<std::string>());
            } else if (value.is_number() || value.is_boolean()) {
                out.emplace(key, value.dump());
            }
        }
    }
    return out;
}

std::vector<std::string> stringList(const json *array)
{
    std::vector<std::string> out;
    if (array && array->is_array()) {
        for (const auto &value : *array) {
            if (value.is_string()) {
                out.push_back(value.get<std::string>());
            }
        }
    }
    return out;
}

const json &arrayOrEmpty(const json *value)
{
    static const json empty = json::array();
    return value && value->is_array() ? *value : empty;
}

std::string label(const ObjectMeta &meta, const std::string &key)
{
    const auto it = meta.labels.find(key);
    return it == meta.labels.end() ? std::string{} : it->second;
}

std::string annotation(const ObjectMeta &meta, const std::string &key)
{
    const auto it = meta.annotations.find(key);
    return it == meta.annotations.end() ? std::string{} : it->second;
}

std::int64_t milliOf(const json *resources, const char *key, std::int64_t fallback = 0)
{
    const json *value = resources ? field(*resources, key) : nullptr;
    if (!value) {
        return fallback;
    }
    return quantityMilliOf(*value).value_or(fallback);
}

std::int64_t bytesOf(const json *resources, const char *key)
{
    const json *value = resources ? field(*resources, key) : nullptr;
    if (value && value->is_string()) {
        return quantityValue(value->get<std::string>()).value_or(0);
    }
    if (value && value->is_number()) {
        return quantityValue(value->dump()).value_or(0);
    }
    return 0;
}

std::vector<Condition> conditions(const json *array)
{
    std::vector<Condition> out;
    for (const auto &c : arrayOrEmpty(array)) {
        if (!c.is_object()) {
            continue;
        }
        Condition condition;
        condition.type = str(c, "type");
        condition.status = str(c, "status");
        condition.reason = str(c, "reason");
        condition.message = str(c, "message");
        condition.lastTransitionTime = str(c, "lastTransitionTime");
        if (!condition.type.empty()) {
            out.push_back(std::move(condition));
        }
    }
    return out;
}

const Condition *findCondition(const std::vector<Condition> &list, std::string_view type)
{
    for (const auto &c : list) {
        if (c.type == type) {
            return &c;
        }
    }
    return nullptr;
}

bool conditionTrue(const std::vector<Condition> &list, std::string_view type)
{
    const Condition *c = findCondition(list, type);
    return c && c->status == "True";
}

connectors::Error parseError(std::string message)
{
    return connectors::Error::make(connectors::Error::Kind::Parse, std::move(message));
}

/// What a pod spec asks for: GPUs (whole from limits/requests, fraction from the annotation),
/// images, first container's command/args, PVC claims.
struct PodSpecSummary
{
    std::int64_t gpuMilli = 0;
    std::vector<std::string> images, command, args, pvcClaims, pvcSubPaths;
    std::string priorityClassName, schedulerName;
};

std::vector<PodMountParts> mountsOf(const json &container)
{
    std::vector<PodMountParts> out;
    for (const auto &mount : arrayOrEmpty(field(container, "volumeMounts"))) {
        out.emplace_back(str(mount, "name"), str(mount, "subPath"));
    }
    return out;
}

PodSpecParts podSpecParts(const json *spec)
{
    PodSpecParts out;
    out.nodeName = str(spec, "nodeName");
    out.priorityClassName = str(spec, "priorityClassName");
    out.schedulerName = str(spec, "schedulerName");
    for (const auto &container : arrayOrEmpty(spec ? field(*spec, "containers") : nullptr)) {
        if (!container.is_object()) {
            continue;
        }
        PodContainerParts parts;
        parts.image = str(container, "image");
        parts.command = stringList(field(container, "command"));
        parts.args = stringList(field(container, "args"));
        const json *resources = field(container, "resources");
        parts.gpuLimitMilli = milliOf(resources ? field(*resources, "limits") : nullptr, "nvidia.com/gpu", -1);
        parts.gpuRequestMilli = milliOf(resources ? field(*resources, "requests") : nullptr, "nvidia.com/gpu");
        parts.mounts = mountsOf(container);
        out.containers.push_back(std::move(parts));
    }
    for (const auto &container : arrayOrEmpty(spec ? field(*spec, "initContainers") : nullptr)) {
        out.initContainerMounts.push_back(mountsOf(container));
    }
    for (const auto &volume : arrayOrEmpty(spec ? field(*spec, "volumes") : nullptr)) {
        if (auto claim = str(path(volume, {"persistentVolumeClaim"}), "claimName"); !claim.empty()) {
            out.claimVolumes.emplace_back(str(volume, "name"), std::move(claim));
        }
    }
    return out;
}

// The subPath of the first container mount of volume `volume` (cached commits are mounted as
// `subPath: <dataset>/<commit16>`), empty when mounted whole or not at all.
std::string subPathOf(const PodSpecParts &spec, const std::string &volume)
{
    if (volume.empty()) {
        return {};
    }
    for (const auto &container : spec.containers) {
        for (const auto &[name, subPath] : container.mounts) {
            if (name == volume) {
                return subPath;
            }
        }
    }
    for (const auto &mounts : spec.initContainerMounts) {
        for (const auto &[name, subPath] : mounts) {
            if (name == volume) {
                return subPath;
            }
        }
    }
    return {};
}

PodSpecSummary summarizePodSpec(PodSpecParts &&spec, const ObjectMeta &podMeta)
{
    PodSpecSummary out;
    out.priorityClassName = std::move(spec.priorityClassName);
    out.schedulerName = std::move(spec.schedulerName);
    std::int64_t wholeGpus = 0;
    for (auto &container : spec.containers) {
        out.images.push_back(std::move(container.image));
        wholeGpus += container.gpuLimitMilli >= 0 ? container.gpuLimitMilli
                                                  : std::max<std::int64_t>(container.gpuRequestMilli, 0);
    }
    if (!spec.containers.empty()) {
        out.command = std::move(spec.containers.front().command);
        out.args = std::move(spec.containers.front().args);
    }
    out.gpuMilli = wholeGpus;
    if (wholeGpus == 0) {
        if (const std::string fraction = annotation(podMeta, "gpu-fraction"); !fraction.empty()) {
            out.gpuMilli = std::max<std::int64_t>(quantityMilli(fraction).value_or(0), 0);
        }
    }
    for (auto &[volume, claim] : spec.claimVolumes) {
        out.pvcSubPaths.push_back(subPathOf(spec, volume));
        out.pvcClaims.push_back(std::move(claim));
    }
    return out;
}

std::vector<int> parseIndices(const std::string &text)
{
    std::vector<int> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto comma = std::min(text.find(',', start), text.size());
        std::string_view part(text.data() + start, comma - start);
        while (!part.empty() && part.front() == ' ') {
            part.remove_prefix(1);
        }
        while (!part.empty() && part.back() == ' ') {
            part.remove_suffix(1);
        }
        int value = 0;
        bool ok = !part.empty() && part.size() < 6;
        for (char c : part) {
            ok = ok && c >= '0' && c <= '9';
            value = value * 10 + (c - '0');
        }
        if (ok) {
            out.push_back(value);
        }
        start = comma + 1;
    }
    return out;
}

} // namespace

std::optional<long double> parseQuantity(std::string_view text)
{
    while (!text.empty() && text.front() == ' ') {
        text.remove_prefix(1);
    }
    while (!text.empty() && text.back() == ' ') {
        text.remove_suffix(1);
    }
    if (text.empty()) {
        return std::nullopt;
    }
    std::size_t i = 0;
    bool negative = false;
    if (text[i] == '+' || text[i] == '-') {
        negative = text[i] == '-';
        ++i;
    }
    // Digits by hand: std::strtold follows the C locale, which Qt sets from the environment.
    long double value = 0;
    bool digits = false;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
        value = value * 10 + (text[i++] - '0');
        digits = true;
    }
    if (i < text.size() && text[i] == '.') {
        ++i;
        long double scale = 0.1L;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
            value += (text[i++] - '0') * scale;
            scale /= 10;
            digits = true;
        }
    }
    if (!digits) {
        return std::nullopt;
    }
    const std::string_view suffix = text.substr(i);
    long double multiplier = 1;
    if (suffix.empty()) {
    } else if (suffix.size() == 2 && suffix[1] == 'i') {
        static constexpr std::string_view binary = "KMGTPE";
        const auto power = binary.find(suffix[0]);
        if (power == std::string_view::npos) {
            return std::nullopt;
        }
        multiplier = std::ldexp(1.0L, 10 * static_cast<int>(power + 1));
    } else if (suffix[0] == 'e' || suffix[0] == 'E') {
        std::size_t j = 1;
        bool negativeExponent = false;
        if (j < suffix.size() && (suffix[j] == '+' || suffix[j] == '-')) {
            negativeExponent = suffix[j] == '-';
            ++j;
        }
        if (j >= suffix.size() || suffix.size() - j > 3) {
            return std::nullopt;
        }
        int exponent = 0;
        for (; j < suffix.size(); ++j) {
            if (suffix[j] < '0' || suffix[j] > '9') {
                return std::nullopt;
            }
            exponent = exponent * 10 + (suffix[j] - '0');
        }
        multiplier = std::pow(10.0L, negativeExponent ? -exponent : exponent);
    } else if (suffix.size() == 1) {
        switch (suffix[0]) {
        case 'n':
            multiplier = 1e-9L;
            break;
        case 'u':
            multiplier = 1e-6L;
            break;
        case 'm':
            multiplier = 1e-3L;
            break;
        case 'k':
            multiplier = 1e3L;
            break;
        case 'M':
            multiplier = 1e6L;
            break;
        case 'G':
            multiplier = 1e9L;
            break;
        case 'T':
            multiplier = 1e12L;
            break;
        case 'P':
            multiplier = 1e15L;
            break;
        case 'E':
            multiplier = 1e18L;
            break;
        default:
            return std::nullopt;
        }
    } else {
        return std::nullopt;
    }
    const long double result = value * multiplier;
    return negative ? -result : result;
}

namespace {

std::optional<std::int64_t> roundUp(long double value)
{
    // Tolerate the binary representation error of decimal fractions ("0.6" * 1000).
    const long double nearest = std::round(value);
    const long double rounded = std::fabs(value - nearest) < 1e-9L ? nearest : std::ceil(value);
    if (!std::isfinite(rounded) || rounded > static_cast<long double>(std::numeric_limits<std::int64_t>::max())
        || rounded < static_cast<long double>(std::numeric_limits<std::int64_t>::min())) {
        return std::nullopt;
    }
    return static_cast<std::int64_t>(rounded);
}

} // namespace

std::optional<std::int64_t> quantityMilli(std::string_view text)
{
    const auto value = parseQuantity(text);
    return value ? roundUp(*value * 1000) : std::nullopt;
}

std::optional<std::int64_t> quantityValue(std::string_view text)
{
    const auto value = parseQuantity(text);
    return value ? roundUp(*value) : std::nullopt;
}

std::optional<std::int64_t> quantityMilliOf(const json &value)
{
    if (value.is_string()) {
        return quantityMilli(std::string_view(value.get_ref<const std::string &>()));
    }
    if (value.is_number_integer()) {
        return roundUp(static_cast<long double>(value.get<std::int64_t>()) * 1000);
    }
    if (value.is_number()) {
        return roundUp(static_cast<long double>(value.get<double>()) * 1000);
    }
    return std::nullopt;
}

connectors::Result<ObjectMeta> parseMeta(const json &object, std::string_view kind)
{
    if (!object.is_object()) {
        return connectors::fail(parseError(std::string(kind) + ": not a JSON object"));
    }
    const json *metadata = field(object, "metadata");
    if (!metadata || !metadata->is_object()) {
        return connectors::fail(parseError(std::string(kind) + ": object without metadata"));
    }
    ObjectMeta meta;
    meta.name = str(*metadata, "name");
    meta.namespace_ = str(*metadata, "namespace");
    if (meta.name.empty()) {
        return connectors::fail(parseError(std::string(kind) + ": object without metadata.name"
                                           + (meta.namespace_.empty() ? "" : " in namespace " + meta.namespace_)));
    }
    meta.uid = str(*metadata, "uid");
    meta.resourceVersion = str(*metadata, "resourceVersion");
    meta.labels = stringMap(field(*metadata, "labels"));
    meta.annotations = stringMap(field(*metadata, "annotations"));
    meta.creationTimestamp = str(*metadata, "creationTimestamp");
    meta.deletionTimestamp = str(*metadata, "deletionTimestamp");
    return meta;
}

// Every parser is wrapped: nlohmann throws on the odd accessor a check above missed, and a
// parser must never throw.
#define STRATA_KUBE_GUARD(kindName, body)                                                                              \
    try {                                                                                                              \
        body                                                                                                           \
    } catch (const std::exception &e) {                                                                                \
        return connectors::fail(                                                                                       \
            parseError(std::string(kindName) + ": the API server sent " + http::describeJsonMismatch(e)));             \
    }

connectors::Result<NodeDto> parseNode(const json &object){
    STRATA_KUBE_GUARD("Node",
                      {
                          auto meta = parseMeta(object, "Node");
                          if (!meta) {
                              return connectors::fail(meta.error());
                          }
                          NodeDto node;
                          static_cast<ObjectMeta &>(node) = std::move(*meta);
                          const json *status = field(object, "status");
                          node.gpuCapacityMilli =
                              milliOf(status ? field(*status, "capacity") : nullptr, "nvidia.com/gpu");
                          node.gpuAllocatableMilli =
                              milliOf(status ? field(*status, "allocatable") : nullptr, "nvidia.com/gpu");
                          node.gpuProduct = label(node, "nvidia.com/gpu.product");
                          node.gpuMemoryMiB = quantityValue(label(node, "nvidia.com/gpu.memory")).value_or(0);
                          node.conditions = conditions(status ? field(*status, "conditions") : nullptr);
                          node.ready = conditionTrue(node.conditions, "Ready");
                          node.unschedulable = boolean(field(object, "spec"), "unschedulable");
                          return node;
                      })}

connectors::Result<NamespaceDto> parseNamespace(const json &object){
    STRATA_KUBE_GUARD("Namespace",
                      {
                          auto meta = parseMeta(object, "Namespace");
                          if (!meta) {
                              return connectors::fail(meta.error());
                          }
                          NamespaceDto ns;
                          static_cast<ObjectMeta &>(ns) = std::move(*meta);
                          ns.phase = str(field(object, "status"), "phase");
                          return ns;
                      })}

PodDto finishPod(PodParts &&parts)
{
    PodDto pod;
    static_cast<ObjectMeta &>(pod) = std::move(parts.meta);
    pod.phase = std::move(parts.phase);
    pod.nodeName = parts.spec.nodeName;
    pod.jobName = label(pod, "job-name");
    if (pod.jobName.empty()) {
        pod.jobName = label(pod, "batch.kubernetes.io/job-name");
    }
    if (pod.jobName.empty() && parts.ownerJobName) {
        pod.jobName = std::move(*parts.ownerJobName);
    }
    pod.queue = label(pod, "kai.scheduler/queue");
    pod.user = label(pod, "user");
    pod.createdBy = label(pod, "strata.io/created-by");
    PodSpecSummary summary = summarizePodSpec(std::move(parts.spec), pod);
    pod.priorityClassName = std::move(summary.priorityClassName);
    pod.schedulerName = std::move(summary.schedulerName);
    pod.gpuLimitMilli = summary.gpuMilli;
    pod.images = std::move(summary.images);
    pod.command = std::move(summary.command);
    pod.args = std::move(summary.args);
    pod.pvcClaims = std::move(summary.pvcClaims);
    pod.pvcSubPaths = std::move(summary.pvcSubPaths);
    pod.gpuIndices = parseIndices(annotation(pod, "runai-gpu"));
    pod.startTime = std::move(parts.startTime);
    for (auto &cs : parts.containerStatuses) {
        if (cs.waiting && pod.waitingReason.empty()) {
            pod.waitingReason = std::move(cs.waiting->first);
            pod.waitingMessage = std::move(cs.waiting->second);
        }
        if (cs.terminatedReason && pod.terminatedReason.empty()) {
            if (!cs.terminatedReason->empty() && *cs.terminatedReason != "Completed") {
                pod.terminatedReason = std::move(*cs.terminatedReason);
            }
        }
        if (cs.lastTerminatedReason && pod.lastTerminatedReason.empty()) {
            pod.lastTerminatedReason = std::move(*cs.lastTerminatedReason);
            if (cs.lastExitCode) {
                pod.lastExitCode = static_cast<int>(std::clamp<std::int64_t>(*cs.lastExitCode, -1, 255));
            }
        }
    }
    for (auto &condition : parts.conditions) {
        if (!condition.type.empty()) {
            pod.conditions.push_back(std::move(condition));
        }
    }
    if (const Condition *scheduled = findCondition(pod.conditions, "PodScheduled")) {
        pod.scheduledCondition = *scheduled;
    }
    if (const Condition *disruption = findCondition(pod.conditions, "DisruptionTarget");
        disruption && disruption->status == "True") {
        pod.disruptionTarget = true;
        pod.disruptionReason = disruption->reason;
    }
    return pod;
}

connectors::Result<PodDto> parsePod(const json &object){STRATA_KUBE_GUARD(
    "Pod",
    {
        auto meta = parseMeta(object, "Pod");
        if (!meta) {
            return connectors::fail(meta.error());
        }
        PodParts parts;
        parts.meta = std::move(*meta);
        for (const auto &owner : arrayOrEmpty(path(object, {"metadata", "ownerReferences"}))) {
            if (str(owner, "kind") == "Job") {
                parts.ownerJobName = str(owner, "name");
                break;
            }
        }
        const json *spec = field(object, "spec");
        const json *status = field(object, "status");
        parts.spec = podSpecParts(spec);
        parts.phase = str(status, "phase");
        parts.startTime = str(status, "startTime");
        for (const auto &cs : arrayOrEmpty(status ? field(*status, "containerStatuses") : nullptr)) {
            PodContainerStatusParts statusParts;
            if (const json *waiting = path(cs, {"state", "waiting"}); waiting && waiting->is_object()) {
                statusParts.waiting.emplace(str(*waiting, "reason"), str(*waiting, "message"));
            }
            if (const json *terminated = path(cs, {"state", "terminated"}); terminated && terminated->is_object()) {
                statusParts.terminatedReason = str(*terminated, "reason");
            }
            if (const json *last = path(cs, {"lastState", "terminated"}); last && last->is_object()) {
                statusParts.lastTerminatedReason = str(*last, "reason");
                if (const auto code = last->find("exitCode"); code != last->end() && code->is_number_integer()) {
                    statusParts.lastExitCode = code->get<std::int64_t>();
                }
            }
            parts.containerStatuses.push_back(std::move(statusParts));
        }
        parts.conditions = conditions(status ? field(*status, "conditions") : nullptr);
        return finishPod(std::move(parts));
    })}

connectors::Result<JobDto> parseJob(const json &object){
    STRATA_KUBE_GUARD("Job",
                      {
                          auto meta = parseMeta(object, "Job");
                          if (!meta) {
                              return connectors::fail(meta.error());
                          }
                          JobDto job;
                          static_cast<ObjectMeta &>(job) = std::move(*meta);
                          const json *spec = field(object, "spec");
                          const json *status = field(object, "status");
                          const json *templ = spec ? field(*spec, "template") : nullptr;
                          // Labels and the gpu-fraction annotation may sit on the Job or only on its pod template.
                          ObjectMeta templateMeta;
                          if (const json *tm = templ ? field(*templ, "metadata") : nullptr) {
                              templateMeta.labels = stringMap(field(*tm, "labels"));
                              templateMeta.annotations = stringMap(field(*tm, "annotations"));
                          }
                          const auto either = [&](const std::string &key) {
                              std::string value = label(job, key);
                              return value.empty() ? label(templateMeta, key) : value;
                          };
                          job.queue = either("kai.scheduler/queue");
                          job.user = either("user");
                          job.createdBy = either("strata.io/created-by");
                          if (templateMeta.annotations.find("gpu-fraction") == templateMeta.annotations.end()) {
                              if (auto fraction = annotation(job, "gpu-fraction"); !fraction.empty()) {
                                  templateMeta.annotations["gpu-fraction"] = fraction;
                              }
                          }
                          PodSpecSummary summary =
                              summarizePodSpec(podSpecParts(templ ? field(*templ, "spec") : nullptr), templateMeta);
                          job.priorityClassName = std::move(summary.priorityClassName);
                          job.gpuMilli = summary.gpuMilli;
                          job.image = summary.images.empty() ? std::string{} : summary.images.front();
                          job.command = std::move(summary.command);
                          job.args = std::move(summary.args);
                          job.pvcClaims = std::move(summary.pvcClaims);
                          job.pvcSubPaths = std::move(summary.pvcSubPaths);
                          job.backoffLimit = integer(spec, "backoffLimit", 6);
                          job.completions = integer(spec, "completions", 1);
                          job.suspended = boolean(spec, "suspend");
                          job.active = integer(status, "active");
                          job.succeeded = integer(status, "succeeded");
                          job.failed = integer(status, "failed");
                          job.startTime = str(status, "startTime");
                          job.completionTime = str(status, "completionTime");
                          job.conditions = conditions(status ? field(*status, "conditions") : nullptr);
                          job.complete = conditionTrue(job.conditions, "Complete");
                          job.failedCondition = conditionTrue(job.conditions, "Failed");
                          return job;
                      })}

connectors::Result<EventDto> parseEvent(const json &object){STRATA_KUBE_GUARD(
    "Event",
    {
        auto meta = parseMeta(object, "Event");
        if (!meta) {
            return connectors::fail(meta.error());
        }
        EventDto event;
        static_cast<ObjectMeta &>(event) = std::move(*meta);
        const json *involved = field(object, "involvedObject");
        event.involvedKind = str(involved, "kind");
        event.involvedNamespace = str(involved, "namespace");
        event.involvedName = str(involved, "name");
        event.reason = str(object, "reason");
        event.message = str(object, "message");
        event.type = str(object, "type");
        event.firstTimestamp = str(object, "firstTimestamp");
        event.lastTimestamp = str(object, "lastTimestamp");
        event.eventTime = str(object, "eventTime");
        for (const std::string *candidate :
             {&event.eventTime, &event.lastTimestamp, &event.firstTimestamp, &event.creationTimestamp}) {
            if (!candidate->empty()) {
                event.timestamp = *candidate;
                break;
            }
        }
        event.count = integer(&object, "count", 1);
        event.reportingComponent = str(object, "reportingComponent");
        if (event.reportingComponent.empty()) {
            event.reportingComponent = str(field(object, "source"), "component");
        }
        return event;
    })}

connectors::Result<ResourceQuotaDto> parseResourceQuota(const json &object){
    STRATA_KUBE_GUARD("ResourceQuota",
                      {
                          auto meta = parseMeta(object, "ResourceQuota");
                          if (!meta) {
                              return connectors::fail(meta.error());
                          }
                          ResourceQuotaDto quota;
                          static_cast<ObjectMeta &>(quota) = std::move(*meta);
                          quota.hardGpuMilli = milliOf(path(object, {"spec", "hard"}), "requests.nvidia.com/gpu", -1);
                          quota.usedGpuMilli = milliOf(path(object, {"status", "used"}), "requests.nvidia.com/gpu", 0);
                          return quota;
                      })}

connectors::Result<PvcDto> parsePvc(const json &object){
    STRATA_KUBE_GUARD("PersistentVolumeClaim",
                      {
                          auto meta = parseMeta(object, "PersistentVolumeClaim");
                          if (!meta) {
                              return connectors::fail(meta.error());
                          }
                          PvcDto pvc;
                          static_cast<ObjectMeta &>(pvc) = std::move(*meta);
                          const json *spec = field(object, "spec");
                          const json *status = field(object, "status");
                          pvc.phase = str(status, "phase");
                          pvc.storageClass = str(spec, "storageClassName");
                          pvc.volumeName = str(spec, "volumeName");
                          pvc.capacityBytes = bytesOf(status ? field(*status, "capacity") : nullptr, "storage");
                          pvc.requestBytes = bytesOf(path(object, {"spec", "resources", "requests"}), "storage");
                          pvc.accessModes = stringList(spec ? field(*spec, "accessModes") : nullptr);
                          const json *dataSource = spec ? field(*spec, "dataSource") : nullptr;
                          pvc.dataSourceKind = str(dataSource, "kind");
                          pvc.dataSourceName = str(dataSource, "name");
                          return pvc;
                      })}

connectors::Result<PvDto> parsePv(const json &object){
    STRATA_KUBE_GUARD("PersistentVolume",
                      {
                          auto meta = parseMeta(object, "PersistentVolume");
                          if (!meta) {
                              return connectors::fail(meta.error());
                          }
                          PvDto pv;
                          static_cast<ObjectMeta &>(pv) = std::move(*meta);
                          const json *spec = field(object, "spec");
                          pv.phase = str(field(object, "status"), "phase");
                          const json *csi = spec ? field(*spec, "csi") : nullptr;
                          pv.csiDriver = str(csi, "driver");
                          pv.volumeHandle = str(csi, "volumeHandle");
                          pv.volumeAttributes = stringMap(csi ? field(*csi, "volumeAttributes") : nullptr);
                          const json *nfs = spec ? field(*spec, "nfs") : nullptr;
                          pv.nfsServer = str(nfs, "server");
                          pv.nfsPath = str(nfs, "path");
                          const json *claim = spec ? field(*spec, "claimRef") : nullptr;
                          pv.claimNamespace = str(claim, "namespace");
                          pv.claimName = str(claim, "name");
                          pv.capacityBytes = bytesOf(spec ? field(*spec, "capacity") : nullptr, "storage");
                          pv.storageClass = str(spec, "storageClassName");
                          pv.reclaimPolicy = str(spec, "persistentVolumeReclaimPolicy");
                          return pv;
                      })}

connectors::Result<StorageClassDto> parseStorageClass(const json &object){
    STRATA_KUBE_GUARD("StorageClass",
                      {
                          auto meta = parseMeta(object, "StorageClass");
                          if (!meta) {
                              return connectors::fail(meta.error());
                          }
                          StorageClassDto sc;
                          static_cast<ObjectMeta &>(sc) = std::move(*meta);
                          sc.provisioner = str(object, "provisioner");
                          sc.parameters = stringMap(field(object, "parameters"));
                          sc.reclaimPolicy = str(object, "reclaimPolicy");
                          sc.allowVolumeExpansion = boolean(&object, "allowVolumeExpansion");
                          sc.isDefault = annotation(sc, "storageclass.kubernetes.io/is-default-class") == "true";
                          return sc;
                      })}

connectors::Result<VolumeSnapshotDto> parseVolumeSnapshot(const json &object){
    STRATA_KUBE_GUARD("VolumeSnapshot",
                      {
                          auto meta = parseMeta(object, "VolumeSnapshot");
                          if (!meta) {
                              return connectors::fail(meta.error());
                          }
                          VolumeSnapshotDto snapshot;
                          static_cast<ObjectMeta &>(snapshot) = std::move(*meta);
                          snapshot.pvcName = str(path(object, {"spec", "source"}), "persistentVolumeClaimName");
                          snapshot.snapshotClassName = str(field(object, "spec"), "volumeSnapshotClassName");
                          const json *status = field(object, "status");
                          snapshot.readyToUse = boolean(status, "readyToUse");
                          snapshot.restoreSizeBytes = bytesOf(status, "restoreSize");
                          snapshot.snapshotContentName = str(status, "boundVolumeSnapshotContentName");
                          snapshot.creationTime = str(status, "creationTime");
                          snapshot.errorMessage = str(status ? field(*status, "error") : nullptr, "message");
                          return snapshot;
                      })}

connectors::Result<QueueDto> parseQueue(const json &object){
    STRATA_KUBE_GUARD("Queue",
                      {
                          auto meta = parseMeta(object, "Queue");
                          if (!meta) {
                              return connectors::fail(meta.error());
                          }
                          QueueDto queue;
                          static_cast<ObjectMeta &>(queue) = std::move(*meta);
                          const json *spec = field(object, "spec");
                          queue.displayName = str(spec, "displayName");
                          queue.parentQueue = str(spec, "parentQueue");
                          queue.priority = integer(spec, "priority");
                          const json *gpu = path(object, {"spec", "resources", "gpu"});
                          // -1 (and any negative value) means unlimited / no limit in KAI.
                          const auto amount = [gpu](const char *key) -> std::int64_t {
                              const json *value = gpu ? field(*gpu, key) : nullptr;
                              const auto milli = value ? quantityMilliOf(*value) : std::nullopt;
                              return milli && *milli >= 0 ? *milli : -1;
                          };
                          queue.gpuQuotaMilli = amount("quota");
                          queue.gpuLimitMilli = amount("limit");
                          if (const json *weight = gpu ? field(*gpu, "overQuotaWeight") : nullptr;
                              weight && weight->is_number()) {
                              queue.overQuotaWeight = weight->get<double>();
                          }
                          const json *status = field(object, "status");
                          const auto gpuOf = [](const json *list) {
                              const std::int64_t gpus = milliOf(list, "nvidia.com/gpu", -1);
                              return gpus >= 0 ? gpus : std::max<std::int64_t>(milliOf(list, "gpu", 0), 0);
                          };
                          queue.allocatedGpuMilli = gpuOf(status ? field(*status, "allocated") : nullptr);
                          queue.requestedGpuMilli = gpuOf(status ? field(*status, "requested") : nullptr);
                          return queue;
                      })}

connectors::Result<PodGroupDto> parsePodGroup(const json &object){
    STRATA_KUBE_GUARD("PodGroup",
                      {
                          auto meta = parseMeta(object, "PodGroup");
                          if (!meta) {
                              return connectors::fail(meta.error());
                          }
                          PodGroupDto group;
                          static_cast<ObjectMeta &>(group) = std::move(*meta);
                          const json *spec = field(object, "spec");
                          const json *status = field(object, "status");
                          group.queue = str(spec, "queue");
                          group.preemptibility = str(spec, "preemptibility");
                          group.priorityClassName = str(spec, "priorityClassName");
                          group.minMember = integer(spec, "minMember", 1);
                          group.phase = str(status, "phase");
                          for (const auto &c :
                               arrayOrEmpty(status ? field(*status, "schedulingConditions") : nullptr)) {
                              if (auto message = str(c, "message"); !message.empty()) {
                                  group.pendingMessage = std::move(message);
                                  group.pendingReason = str(c, "reason");
                                  break;
                              }
                          }
                          group.conditions = conditions(status ? field(*status, "conditions") : nullptr);
                          if (const Condition *evicted = findCondition(group.conditions, "Evicted");
                              evicted && evicted->status == "True") {
                              group.evicted = true;
                              group.evictedMessage = evicted->message;
                          }
                          return group;
                      })}

connectors::Result<ConfigMapDto> parseConfigMap(const json &object)
{
    STRATA_KUBE_GUARD("ConfigMap", {
        auto meta = parseMeta(object, "ConfigMap");
        if (!meta) {
            return connectors::fail(meta.error());
        }
        ConfigMapDto configMap;
        static_cast<ObjectMeta &>(configMap) = std::move(*meta);
        if (const json *data = field(object, "data"); data && data->is_object()) {
            for (const auto &[key, value] : data->items()) {
                if (value.is_string()) {
                    configMap.data.emplace(key, value.get<std::string>());
                }
            }
        }
        return configMap;
    })
}

#undef STRATA_KUBE_GUARD

} // namespace strata::kubernetes
