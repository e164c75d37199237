#include "simulators/kubernetes/table.h"

#include "simulators/kubernetes/resources.h"

#include <nlohmann/json.hpp>

#include <ctime>

namespace strata::sim::kube {

using nlohmann::json;

namespace {

json column(const char *name, const char *type = "string", int priority = 0, const char *format = "")
{
    return json{{"name", name}, {"type", type}, {"format", format}, {"description", ""}, {"priority", priority}};
}

std::int64_t parseTime(const std::string &rfc3339)
{
    std::tm tm{};
    if (rfc3339.size() < 19 || !strptime(rfc3339.c_str(), "%Y-%m-%dT%H:%M:%S", &tm)) {
        return -1;
    }
    return static_cast<std::int64_t>(timegm(&tm)) * 1000;
}

std::string str(const json &object, std::initializer_list<const char *> path, const std::string &fallback = {})
{
    const json *cur = &object;
    for (const char *p : path) {
        if (!cur->is_object()) {
            return fallback;
        }
        const auto it = cur->find(p);
        if (it == cur->end()) {
            return fallback;
        }
        cur = &*it;
    }
    if (cur->is_string()) {
        return cur->get<std::string>();
    }
    if (cur->is_number_integer()) {
        return std::to_string(cur->get<std::int64_t>());
    }
    if (cur->is_number()) {
        return cur->dump();
    }
    if (cur->is_boolean()) {
        return cur->get<bool>() ? "true" : "false";
    }
    return fallback;
}

std::string age(const json &object, std::int64_t nowMs)
{
    const std::int64_t created = parseTime(str(object, {"metadata", "creationTimestamp"}));
    return created < 0 ? "<unknown>" : humanDuration(nowMs - created);
}

std::string accessModes(const json &modes)
{
    std::string out;
    if (!modes.is_array()) {
        return out;
    }
    for (const json &m : modes) {
        const std::string mode = m.is_string() ? m.get<std::string>() : std::string();
        const char *abbrev = mode == "ReadWriteOnce"      ? "RWO"
                             : mode == "ReadOnlyMany"     ? "ROX"
                             : mode == "ReadWriteMany"    ? "RWX"
                             : mode == "ReadWriteOncePod" ? "RWOP"
                                                          : "";
        if (*abbrev) {
            out += (out.empty() ? "" : ",") + std::string(abbrev);
        }
    }
    return out;
}

json podCells(const json &pod, std::int64_t nowMs)
{
    const json status = pod.value("status", json::object());
    const json statuses = status.value("containerStatuses", json::array());
    const std::size_t total = pod.value("spec", json::object()).value("containers", json::array()).size();
    int ready = 0;
    int restarts = 0;
    std::string reason = status.value("phase", std::string("Pending"));
    if (!str(status, {"reason"}).empty()) {
        reason = str(status, {"reason"});
    }
    for (const json &cs : statuses) {
        ready += cs.value("ready", false) ? 1 : 0;
        restarts += cs.value("restartCount", 0);
        const std::string waiting = str(cs, {"state", "waiting", "reason"});
        const std::string terminated = str(cs, {"state", "terminated", "reason"});
        if (!waiting.empty()) {
            reason = waiting;
        } else if (!terminated.empty()) {
            reason = terminated;
        }
    }
    if (pod["metadata"].contains("deletionTimestamp")) {
        reason = "Terminating";
    }
    return json::array({str(pod, {"metadata", "name"}),
                        std::to_string(ready) + "/" + std::to_string(total),
                        reason,
                        restarts,
                        age(pod, nowMs),
                        str(pod, {"status", "podIP"}, "<none>"),
                        str(pod, {"spec", "nodeName"}, "<none>"),
                        "<none>",
                        "<none>"});
}

json jobCells(const json &job, std::int64_t nowMs)
{
    const json status = job.value("status", json::object());
    std::string state = "Running";
    for (const json &c : status.value("conditions", json::array())) {
        if (c.value("status", std::string()) == "True"
            && (c.value("type", std::string()) == "Complete" || c.value("type", std::string()) == "Failed")) {
            state = c.value("type", std::string());
        }
    }
    if (state == "Running" && status.value("active", 0) == 0) {
        state = "Pending";
    }
    const std::int64_t start = parseTime(str(status, {"startTime"}));
    const std::int64_t end = parseTime(str(status, {"completionTime"}));
    const std::string duration = start < 0 ? "" : humanDuration((end >= 0 ? end : nowMs) - start);
    std::string containers;
    std::string images;
    for (const json &c : job.value("spec", json::object())
                             .value("template", json::object())
                             .value("spec", json::object())
                             .value("containers", json::array())) {
        containers += (containers.empty() ? "" : ",") + c.value("name", std::string());
        images += (images.empty() ? "" : ",") + c.value("image", std::string());
    }
    return json::array({str(job, {"metadata", "name"}),
                        state,
                        std::to_string(status.value("succeeded", 0)) + "/" + str(job, {"spec", "completions"}, "1"),
                        duration,
                        age(job, nowMs),
                        containers,
                        images,
                        "batch.kubernetes.io/controller-uid=" + str(job, {"metadata", "uid"})});
}

} // namespace

std::string humanDuration(std::int64_t ms)
{
    const std::int64_t seconds = ms / 1000;
    if (seconds < -1) {
        return "<invalid>";
    }
    if (seconds < 0) {
        return "0s";
    }
    if (seconds < 60 * 2) {
        return std::to_string(seconds) + "s";
    }
    const std::int64_t minutes = seconds / 60;
    if (minutes < 10) {
        const std::int64_t s = seconds % 60;
        return std::to_string(minutes) + "m" + (s == 0 ? std::string() : std::to_string(s) + "s");
    }
    if (minutes < 60 * 3) {
        return std::to_string(minutes) + "m";
    }
    const std::int64_t hours = minutes / 60;
    if (hours < 8) {
        const std::int64_t m = minutes % 60;
        return std::to_string(hours) + "h" + (m == 0 ? std::string() : std::to_string(m) + "m");
    }
    if (hours < 48) {
        return std::to_string(hours) + "h";
    }
    if (hours < 24 * 8) {
        const std::int64_t h = hours % 24;
        return std::to_string(hours / 24) + "d" + (h == 0 ? std::string() : std::to_string(h) + "h");
    }
    if (hours < 24 * 365 * 2) {
        return std::to_string(hours / 24) + "d";
    }
    if (hours < 24 * 365 * 8) {
        const std::int64_t d = (hours / 24) % 365;
        return std::to_string(hours / 24 / 365) + "y" + (d == 0 ? std::string() : std::to_string(d) + "d");
    }
    return std::to_string(hours / 24 / 365) + "y";
}

json tableColumns(int resource)
{
    const json name = column("Name", "string", 0, "name");
    switch (resource) {
    case RPods:
        return json::array({name,
                            column("Ready"),
                            column("Status"),
                            column("Restarts", "string"),
                            column("Age"),
                            column("IP", "string", 1),
                            column("Node", "string", 1),
                            column("Nominated Node", "string", 1),
                            column("Readiness Gates", "string", 1)});
    case RNodes:
        return json::array({name,
                            column("Status"),
                            column("Roles"),
                            column("Age"),
                            column("Version"),
                            column("Internal-IP", "string", 1),
                            column("External-IP", "string", 1),
                            column("OS-Image", "string", 1),
                            column("Kernel-Version", "string", 1),
                            column("Container-Runtime", "string", 1)});
    case RNamespaces:
        return json::array({name, column("Status"), column("Age")});
    case RJobs:
        return json::array({name,
                            column("Status"),
                            column("Completions"),
                            column("Duration"),
                            column("Age"),
                            column("Containers", "string", 1),
                            column("Images", "string", 1),
                            column("Selector", "string", 1)});
    case RPvcs:
        return json::array({name,
                            column("Status"),
                            column("Volume"),
                            column("Capacity"),
                            column("Access Modes"),
                            column("StorageClass"),
                            column("VolumeAttributesClass"),
                            column("Age"),
                            column("VolumeMode", "string", 1)});
    case RPvs:
        return json::array({name,
                            column("Capacity"),
                            column("Access Modes"),
                            column("Reclaim Policy"),
                            column("Status"),
                            column("Claim"),
                            column("StorageClass"),
                            column("VolumeAttributesClass"),
                            column("Reason"),
                            column("Age"),
                            column("VolumeMode", "string", 1)});
    case RStorageClasses:
        return json::array({name,
                            column("Provisioner"),
                            column("ReclaimPolicy"),
                            column("VolumeBindingMode"),
                            column("AllowVolumeExpansion"),
                            column("Age")});
    case REvents:
        return json::array({column("Last Seen"),
                            column("Type"),
                            column("Reason"),
                            column("Object"),
                            column("Message"),
                            column("Source", "string", 1),
                            column("First Seen", "string", 1),
                            column("Count", "string", 1),
                            column("Name", "string", 1)});
    case RResourceQuotas:
        return json::array({name, column("Age"), column("Request"), column("Limit")});
    case RQueues:
        return json::array({name,
                            column("Priority"),
                            column("Parent"),
                            column("Children"),
                            column("DisplayName"),
                            column("Age", "date")});
    case RVolumeSnapshots:
        return json::array({name,
                            column("ReadyToUse", "boolean"),
                            column("SourcePVC"),
                            column("SourceSnapshotContent"),
                            column("RestoreSize"),
                            column("SnapshotClass"),
                            column("SnapshotContent"),
                            column("CreationTime", "date"),
                            column("Age", "date")});
    default:
        return json::array({name, column("Created At", "date")});
    }
}

json tableRow(
    int resource, const json &o, std::int64_t nowMs, const std::string &includeObject, const std::string &apiVersion)
{
    json cells;
    const std::string name = str(o, {"metadata", "name"});
    switch (resource) {
    case RPods:
        cells = podCells(o, nowMs);
        break;
    case RNodes: {
        std::string ready = "Unknown";
        for (const json &c : o.value("status", json::object()).value("conditions", json::array())) {
            if (c.value("type", std::string()) == "Ready") {
                ready = c.value("status", std::string()) == "True" ? "Ready" : "NotReady";
            }
        }
        if (o.value("spec", json::object()).value("unschedulable", false)) {
            ready += ",SchedulingDisabled";
        }
        std::string roles;
        std::string ip = "<none>";
        const json labels = o["metadata"].value("labels", json::object());
        for (const auto &[key, value] : labels.items()) {
            if (key.rfind("node-role.kubernetes.io/", 0) == 0) {
                roles += (roles.empty() ? "" : ",") + key.substr(24);
            }
        }
        for (const json &a : o.value("status", json::object()).value("addresses", json::array())) {
            if (a.value("type", std::string()) == "InternalIP") {
                ip = a.value("address", std::string());
            }
        }
        cells = json::array({name,
                             ready,
                             roles.empty() ? "<none>" : roles,
                             age(o, nowMs),
                             str(o, {"status", "nodeInfo", "kubeletVersion"}),
                             ip,
                             "<none>",
                             str(o, {"status", "nodeInfo", "osImage"}),
                             str(o, {"status", "nodeInfo", "kernelVersion"}),
                             str(o, {"status", "nodeInfo", "containerRuntimeVersion"})});
        break;
    }
    case RNamespaces:
        cells = json::array({name, str(o, {"status", "phase"}, "Active"), age(o, nowMs)});
        break;
    case RJobs:
        cells = jobCells(o, nowMs);
        break;
    case RPvcs:
        cells = json::array({name,
                             str(o, {"status", "phase"}),
                             str(o, {"spec", "volumeName"}),
                             str(o, {"status", "capacity", "storage"}),
                             accessModes(o.value("status", json::object()).value("accessModes", json::array())),
                             str(o, {"spec", "storageClassName"}),
                             "<unset>",
                             age(o, nowMs),
                             str(o, {"spec", "volumeMode"}, "Filesystem")});
        break;
    case RPvs: {
        const std::string claimNs = str(o, {"spec", "claimRef", "namespace"});
        const std::string claim = claimNs.empty() ? "" : claimNs + "/" + str(o, {"spec", "claimRef", "name"});
        cells = json::array({name,
                             str(o, {"spec", "capacity", "storage"}),
                             accessModes(o.value("spec", json::object()).value("accessModes", json::array())),
                             str(o, {"spec", "persistentVolumeReclaimPolicy"}),
                             str(o, {"status", "phase"}),
                             claim,
                             str(o, {"spec", "storageClassName"}),
                             "<unset>",
                             str(o, {"status", "reason"}),
                             age(o, nowMs),
                             str(o, {"spec", "volumeMode"}, "Filesystem")});
        break;
    }
    case RStorageClasses:
        cells = json::array({name,
                             str(o, {"provisioner"}),
                             str(o, {"reclaimPolicy"}, "Delete"),
                             str(o, {"volumeBindingMode"}, "Immediate"),
                             o.value("allowVolumeExpansion", false),
                             age(o, nowMs)});
        break;
    case REvents: {
        const std::int64_t last = parseTime(str(o, {"lastTimestamp"}));
        const std::int64_t first = parseTime(str(o, {"firstTimestamp"}));
        std::string kind = str(o, {"involvedObject", "kind"});
        for (char &c : kind) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        cells = json::array({last < 0 ? "<unknown>" : humanDuration(nowMs - last),
                             str(o, {"type"}),
                             str(o, {"reason"}),
                             kind + "/" + str(o, {"involvedObject", "name"}),
                             str(o, {"message"}),
                             str(o, {"source", "component"}),
                             first < 0 ? "<unknown>" : humanDuration(nowMs - first),
                             str(o, {"count"}, "1"),
                             name});
        break;
    }
    case RResourceQuotas:
        cells = json::array({name, age(o, nowMs), "", ""});
        break;
    case RQueues: {
        std::string children;
        for (const json &c : o.value("status", json::object()).value("childQueues", json::array())) {
            children += (children.empty() ? "" : ",") + (c.is_string() ? c.get<std::string>() : std::string());
        }
        cells = json::array({name,
                             str(o, {"spec", "priority"}),
                             str(o, {"spec", "parentQueue"}),
                             children,
                             str(o, {"spec", "displayName"}),
                             age(o, nowMs)});
        break;
    }
    case RVolumeSnapshots:
        cells = json::array({name,
                             o.value("status", json::object()).value("readyToUse", false),
                             str(o, {"spec", "source", "persistentVolumeClaimName"}),
                             str(o, {"spec", "source", "volumeSnapshotContentName"}),
                             str(o, {"status", "restoreSize"}),
                             str(o, {"spec", "volumeSnapshotClassName"}),
                             str(o, {"status", "boundVolumeSnapshotContentName"}),
                             str(o, {"status", "creationTime"}).empty()
                                 ? std::string()
                                 : humanDuration(nowMs - parseTime(str(o, {"status", "creationTime"}))),
                             age(o, nowMs)});
        break;
    default:
        cells = json::array({name, str(o, {"metadata", "creationTimestamp"})});
        break;
    }
    json row{{"cells", cells}};
    if (includeObject == "Object") {
        json full = o;
        full["apiVersion"] = apiVersion;
        row["object"] = full;
    } else if (includeObject != "None") {
        json meta = o.value("metadata", json::object());
        meta.erase("managedFields");
        row["object"] = json{{"kind", "PartialObjectMetadata"}, {"apiVersion", "meta.k8s.io/v1"}, {"metadata", meta}};
    }
    return row;
}

} // namespace strata::sim::kube
