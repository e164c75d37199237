#include "simulators/kubernetes/cluster.h"

#include "simulators/kubernetes/dcgm.h"
#include "simulators/kubernetes/resources.h"
#include "simulators/kubernetes/scheduler.h"
#include "simulators/kubernetes/store.h"
#include "simulators/kubernetes/tr4858.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace strata::sim::kube {

using nlohmann::json;

struct Cluster::JobRun
{
    enum class Phase
    {
        Pending,
        Creating,
        Running,
        Done,
    };

    std::string id; ///< "<ns>/<name>"
    std::string ns;
    std::string name;
    std::string uid;
    std::string project;
    std::string image;
    MilliGpu gpus = 0;
    JobKind kind = JobKind::Train;
    json podTemplate;
    std::string pod; ///< current pod name, empty when none
    Phase phase = Phase::Pending;
    std::int64_t phaseSinceMs = 0;
    std::int64_t durationMs = -1; ///< simulated run time, -1 = until deleted
    double utilPct = -1;          ///< override, -1 = by kind
    std::string node;
    std::vector<int> gpuIndices;
    std::string pendingMessage;
    bool evicted = false;
    std::string evictedMessage;
    int podSerial = 0;
    json job;                              ///< as created, for the workload runner
    std::unique_ptr<SimWorkload> workload; ///< the current pod's program, null = sleeps
    std::int64_t lastStepMs = 0;           ///< workload: when it was last stepped
    int failedPods = 0;                    ///< status.failed
    int backoffLimit = 6;                  ///< spec.backoffLimit
    bool heldForVolumes = false;           ///< not given to the scheduler: a claim is not Bound
    int pullFailures = 0;                  ///< image pulls that failed (1 ErrImagePull, 2 ImagePullBackOff)
};

namespace {

std::string gpuAmount(MilliGpu milli)
{
    // Whole GPUs as an integer quantity ("2"), fractions as a decimal ("0.6").
    if (milli % kMilliPerGpu == 0) {
        return std::to_string(milli / kMilliPerGpu);
    }
    return formatGpus(milli);
}

std::uint64_t mix(std::uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

std::uint64_t hashString(const std::string &s)
{
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : s) {
        h = (h ^ c) * 1099511628211ULL;
    }
    return h;
}

/// Deterministic value in [0, 1).
double unit(std::uint64_t seed)
{
    return static_cast<double>(mix(seed) >> 11) / static_cast<double>(1ULL << 53);
}

json condition(const std::string &type,
               const std::string &status,
               const std::string &when,
               const std::string &reason = {},
               const std::string &message = {})
{
    json c{{"type", type}, {"status", status}, {"lastProbeTime", nullptr}, {"lastTransitionTime", when}};
    if (!reason.empty()) {
        c["reason"] = reason;
    }
    if (!message.empty()) {
        c["message"] = message;
    }
    return c;
}

void setCondition(json &conditions, const json &c)
{
    if (!conditions.is_array()) {
        conditions = json::array();
    }
    for (json &existing : conditions) {
        if (existing.value("type", std::string()) == c.value("type", std::string())) {
            existing = c;
            return;
        }
    }
    conditions.push_back(c);
}

void eraseCondition(json &conditions, const std::string &type)
{
    if (!conditions.is_array()) {
        return;
    }
    for (auto it = conditions.begin(); it != conditions.end();) {
        if (it->value("type", std::string()) == type) {
            it = conditions.erase(it);
        } else {
            ++it;
        }
    }
}

json ownerRef(const std::string &apiVersion, const std::string &kind, const std::string &name, const std::string &uid)
{
    return json{{"apiVersion", apiVersion},
                {"kind", kind},
                {"name", name},
                {"uid", uid},
                {"controller", true},
                {"blockOwnerDeletion", true}};
}

json namespaceJson(const std::string &name, const std::string &queue = {})
{
    json labels{{"kubernetes.io/metadata.name", name}};
    if (!queue.empty()) {
        labels["runai/queue"] = queue;
    }
    return json{{"apiVersion", "v1"},
                {"kind", "Namespace"},
                {"metadata", {{"name", name}, {"labels", labels}}},
                {"spec", {{"finalizers", {"kubernetes"}}}},
                {"status", {{"phase", "Active"}}}};
}

json nodeJson(const std::string &name, int gpus, int index, const std::string &product, int memoryMiB)
{
    const std::string gpuText = std::to_string(gpus);
    // NodeSystemInfo requires machineID, systemUUID and bootID (Kubernetes OpenAPI
    // io.k8s.api.core.v1.NodeSystemInfo): stable per node name, shaped like a kubelet's.
    std::uint64_t hash = 1469598103934665603ULL;
    for (const char c : name) {
        hash = (hash ^ std::uint8_t(c)) * 1099511628211ULL;
    }
    char machineId[33];
    std::snprintf(machineId,
                  sizeof machineId,
                  "%016llx%016llx",
                  static_cast<unsigned long long>(hash),
                  static_cast<unsigned long long>(hash * 31 + std::uint64_t(index)));
    const std::string hex(machineId);
    const auto uuidOf = [](const std::string &h) {
        return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-"
               + h.substr(20, 12);
    };
    return json{{"apiVersion", "v1"},
                {"kind", "Node"},
                {"metadata",
                 {{"name", name},
                  {"labels",
                   {{"kubernetes.io/hostname", name},
                    {"kubernetes.io/os", "linux"},
                    {"kubernetes.io/arch", "amd64"},
                    {"beta.kubernetes.io/os", "linux"},
                    {"beta.kubernetes.io/arch", "amd64"},
                    {"node-role.kubernetes.io/runai-gpu-worker", "true"},
                    {"nvidia.com/gpu.present", "true"},
                    {"nvidia.com/gpu.product", product},
                    {"nvidia.com/gpu.memory", std::to_string(memoryMiB)},
                    {"nvidia.com/gpu.count", gpuText},
                    {"nvidia.com/gpu.family", "volta"},
                    {"nvidia.com/mig.capable", "false"}}},
                  {"annotations", {{"node.alpha.kubernetes.io/ttl", "0"}}}}},
                {"spec", {{"podCIDR", "10.244." + std::to_string(index % 250) + ".0/24"}}},
                {"status",
                 {{"capacity",
                   {{"cpu", "80"},
                    {"memory", "527938796Ki"},
                    {"ephemeral-storage", "1845450660Ki"},
                    {"nvidia.com/gpu", gpuText},
                    {"pods", "110"}}},
                  {"allocatable",
                   {{"cpu", "80"},
                    {"memory", "527836396Ki"},
                    {"ephemeral-storage", "1700759544157"},
                    {"nvidia.com/gpu", gpuText},
                    {"pods", "110"}}},
                  {"conditions",
                   {{{"type", "MemoryPressure"},
                     {"status", "False"},
                     {"reason", "KubeletHasSufficientMemory"},
                     {"message", "kubelet has sufficient memory available"}},
                    {{"type", "DiskPressure"},
                     {"status", "False"},
                     {"reason", "KubeletHasNoDiskPressure"},
                     {"message", "kubelet has no disk pressure"}},
                    {{"type", "PIDPressure"},
                     {"status", "False"},
                     {"reason", "KubeletHasSufficientPID"},
                     {"message", "kubelet has sufficient PID available"}},
                    {{"type", "Ready"},
                     {"status", "True"},
                     {"reason", "KubeletReady"},
                     {"message", "kubelet is posting ready status"}}}},
                  {"addresses",
                   {{{"type", "InternalIP"}, {"address", "10.61.218." + std::to_string(151 + index % 100)}},
                    {{"type", "Hostname"}, {"address", name}}}},
                  {"nodeInfo",
                   {{"machineID", hex},
                    {"systemUUID", uuidOf(hex)},
                    {"bootID", uuidOf(hex.substr(16) + hex.substr(0, 16))},
                    {"kubeletVersion", "v1.32.4"},
                    {"kubeProxyVersion", "v1.32.4"},
                    {"containerRuntimeVersion", "containerd://1.7.24"},
                    {"osImage", "Ubuntu 22.04.5 LTS"},
                    {"kernelVersion", "5.15.0-127-generic"},
                    {"operatingSystem", "linux"},
                    {"architecture", "amd64"}}}}}};
}

json queueJson(const std::string &name, double quota, const std::string &parent)
{
    const json unlimited{{"quota", -1}, {"limit", -1}, {"overQuotaWeight", 1}};
    json spec{{"resources",
               {{"gpu", {{"quota", quota}, {"limit", -1}, {"overQuotaWeight", 1}}},
                {"cpu", unlimited},
                {"memory", unlimited}}}};
    if (!parent.empty()) {
        spec["parentQueue"] = parent;
    }
    return json{
        {"apiVersion", "scheduling.run.ai/v2"}, {"kind", "Queue"}, {"metadata", {{"name", name}}}, {"spec", spec}};
}

MilliGpu quotaOf(const json &queue)
{
    const json *q = &queue;
    for (const char *key : {"spec", "resources", "gpu", "quota"}) {
        if (!q->is_object() || !q->contains(key)) {
            return 0;
        }
        q = &(*q)[key];
    }
    if (q->is_number()) {
        const double v = q->get<double>();
        return v < 0 ? 0 : static_cast<MilliGpu>(std::llround(v * 1000));
    }
    if (q->is_string()) {
        const double v = std::atof(q->get<std::string>().c_str());
        return v < 0 ? 0 : static_cast<MilliGpu>(std::llround(v * 1000));
    }
    return 0;
}

std::string labelOf(const json &object, const char *key)
{
    const auto meta = object.find("metadata");
    if (meta == object.end()) {
        return {};
    }
    const auto labels = meta->find("labels");
    if (labels == meta->end() || !labels->is_object()) {
        return {};
    }
    const auto it = labels->find(key);
    return it != labels->end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string annotationOf(const json &object, const char *key)
{
    const auto meta = object.find("metadata");
    if (meta == object.end()) {
        return {};
    }
    const auto annotations = meta->find("annotations");
    if (annotations == meta->end() || !annotations->is_object()) {
        return {};
    }
    const auto it = annotations->find(key);
    return it != annotations->end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

json jobManifestJson(const KubeJobSpec &spec)
{
    json labels{{"kai.scheduler/queue", toStd(spec.queue)}, {"user", toStd(spec.user)}};
    if (!spec.createdBy.isEmpty()) {
        labels["strata.io/created-by"] = toStd(spec.createdBy);
    }
    json container{{"name", toStd(spec.name)}, {"image", toStd(spec.image)}, {"imagePullPolicy", "Always"}};
    json podAnnotations = json::object();
    if (spec.gpuMilli >= kMilliPerGpu) {
        container["resources"] = json{{"limits", {{"nvidia.com/gpu", gpuAmount(spec.gpuMilli)}}}};
    } else if (spec.gpuMilli > 0) {
        podAnnotations["gpu-fraction"] = formatGpus(spec.gpuMilli);
    }
    if (!spec.command.isEmpty()) {
        json c = json::array();
        for (const QString &s : spec.command) {
            c.push_back(toStd(s));
        }
        container["command"] = c;
    }
    if (!spec.args.isEmpty()) {
        json a = json::array();
        for (const QString &s : spec.args) {
            a.push_back(toStd(s));
        }
        container["args"] = a;
    }
    json volumes = json::array();
    json mounts = json::array();
    for (const QString &claim : spec.pvcClaims) {
        volumes.push_back(json{{"name", toStd(claim)}, {"persistentVolumeClaim", {{"claimName", toStd(claim)}}}});
        mounts.push_back(json{{"name", toStd(claim)}, {"mountPath", "/mnt/" + toStd(claim)}});
    }
    if (!mounts.empty()) {
        container["volumeMounts"] = mounts;
    }
    json podSpec{{"schedulerName", "kai-scheduler"},
                 {"priorityClassName", spec.interactive ? "build" : "train"},
                 {"restartPolicy", "Never"},
                 {"containers", {container}}};
    if (!volumes.empty()) {
        podSpec["volumes"] = volumes;
    }
    json templateMeta{{"labels", labels}};
    if (!podAnnotations.empty()) {
        templateMeta["annotations"] = podAnnotations;
    }
    json jobMeta{{"name", toStd(spec.name)}, {"namespace", toStd(spec.namespace_)}, {"labels", labels}};
    json jobAnnotations = json::object();
    if (spec.durationSeconds >= 0) {
        jobAnnotations["strata.io/sim-duration-seconds"] = std::to_string(spec.durationSeconds);
    }
    if (spec.gpuUtilPct >= 0) {
        jobAnnotations["strata.io/sim-gpu-util"] = QString::number(spec.gpuUtilPct).toStdString();
    }
    if (!jobAnnotations.empty()) {
        jobMeta["annotations"] = jobAnnotations;
    }
    return json{{"apiVersion", "batch/v1"},
                {"kind", "Job"},
                {"metadata", jobMeta},
                {"spec",
                 {{"backoffLimit", 0},
                  {"completions", 1},
                  {"parallelism", 1},
                  {"template", {{"metadata", templateMeta}, {"spec", podSpec}}}}}};
}

Cluster::Cluster(ObjectStore &store, const KubeSimulatorOptions &options, std::function<void()> requestReconcile)
    : m_store(store)
    , m_options(options)
    , m_requestReconcile(std::move(requestReconcile))
    , m_scheduler(std::make_unique<Scheduler>())
{}

Cluster::~Cluster() = default;

// ---------------------------------------------------------------------------------------------
// Presets

void Cluster::buildPreset()
{
    ++m_selfDepth;
    for (const char *ns : {"default", "kube-system", "kube-public", "kube-node-lease"}) {
        m_store.create(RNamespaces, namespaceJson(ns));
    }
    m_store.create(RQueues, queueJson("default-parent-queue", 0, {}));
    m_store.create(RQueues, queueJson("default-queue", 0, "default-parent-queue"));

    using Preset = KubeSimulatorOptions::Preset;
    if (m_options.preset == Preset::Dgx) {
        int index = 0;
        for (const SchedNode &n : tr4858::nodes()) {
            m_store.create(RNodes, nodeJson(n.name, n.gpus, index++, "Tesla-V100-SXM2-32GB", 32768));
        }
        for (const tr4858::ScenarioQueue &q : tr4858::queues()) {
            m_store.create(RNamespaces, namespaceJson(tr4858::namespaceOf(q.project), q.project));
            m_store.create(RQueues, queueJson(q.project, double(q.quota) / 1000.0, "default-parent-queue"));
        }
        m_store.create(RStorageClasses,
                       json{{"apiVersion", "storage.k8s.io/v1"},
                            {"kind", "StorageClass"},
                            {"metadata", {{"name", toStd(m_options.storageClass)}}},
                            {"provisioner", "csi.trident.netapp.io"},
                            {"parameters", {{"backendType", "ontap-nas"}, {"fsType", "nfs"}}},
                            {"reclaimPolicy", "Delete"},
                            {"volumeBindingMode", "Immediate"},
                            {"allowVolumeExpansion", true}});
        QList<KubeDataset> datasets = m_options.datasets;
        if (datasets.isEmpty()) {
            // The ONTAP simulator's demo trident_pvc_* volumes (simulators/ontap/estate.cpp).
            const struct
            {
                const char *uid;
                const char *ns;
                const char *claim;
                qint64 gib;
            } demo[] = {
                {"3f2c9a1e-5b7d-4c1a-9e8f-0a1b2c3d4e5f", "runai-team-a", "imagenet-train-scratch", 500},
                {"8d4e6f10-2a3b-4c5d-8e9f-1a2b3c4d5e6f", "runai-team-a", "checkpoints", 200},
                {"b7c8d9e0-f1a2-4b3c-9d4e-5f6a7b8c9d0e", "runai-team-b", "chest-xray-results", 100},
                {"c1d2e3f4-a5b6-4c7d-8e9f-a0b1c2d3e4f5", "runai-team-c", "tusimple-features", 50},
                {"e9f8a7b6-c5d4-4e3f-a2b1-c0d9e8f7a6b5", "runai-team-d", "criteo-embeddings", 300},
                {"f0e1d2c3-b4a5-4968-8776-5a4b3c2d1e0f", "runai-team-d", "jupyter-home", 20},
            };
            for (const auto &d : demo) {
                KubeDataset ds;
                ds.namespace_ = QString::fromLatin1(d.ns);
                ds.claimName = QString::fromLatin1(d.claim);
                ds.claimUid = QString::fromLatin1(d.uid);
                ds.capacityGiB = d.gib;
                datasets.append(ds);
            }
        }
        for (const KubeDataset &ds : datasets) {
            const std::string uid = toStd(ds.claimUid);
            const std::string pvName = "pvc-" + uid;
            std::string internal = "trident_pvc_" + uid;
            std::replace(internal.begin(), internal.end(), '-', '_');
            const std::string size = std::to_string(ds.capacityGiB) + "Gi";
            const std::string mode = toStd(ds.accessMode);
            const std::string ns = toStd(ds.namespace_);
            if (!m_store.get(RNamespaces, {}, ns)) {
                m_store.create(RNamespaces, namespaceJson(ns));
            }
            m_store.create(RPvs,
                           json{{"apiVersion", "v1"},
                                {"kind", "PersistentVolume"},
                                {"metadata",
                                 {{"name", pvName},
                                  {"annotations", {{"pv.kubernetes.io/provisioned-by", "csi.trident.netapp.io"}}},
                                  {"finalizers", {"kubernetes.io/pv-protection"}}}},
                                {"spec",
                                 {{"capacity", {{"storage", size}}},
                                  {"accessModes", {mode}},
                                  {"persistentVolumeReclaimPolicy", "Delete"},
                                  {"storageClassName", toStd(m_options.storageClass)},
                                  {"volumeMode", "Filesystem"},
                                  {"claimRef",
                                   {{"kind", "PersistentVolumeClaim"},
                                    {"apiVersion", "v1"},
                                    {"namespace", ns},
                                    {"name", toStd(ds.claimName)},
                                    {"uid", uid}}},
                                  {"csi",
                                   {{"driver", "csi.trident.netapp.io"},
                                    {"volumeHandle", pvName},
                                    {"volumeAttributes",
                                     {{"backendUUID", "0b8f3a52-6c1d-4e7a-9b2f-3d4c5e6f7a80"},
                                      {"internalName", internal},
                                      {"name", pvName},
                                      {"protocol", "file"},
                                      {"storage.kubernetes.io/csiProvisionerIdentity",
                                       "1718000000000-8081-csi.trident.netapp.io"}}}}}}},
                                {"status", {{"phase", "Bound"}}}});
            m_store.create(
                RPvcs,
                json{{"apiVersion", "v1"},
                     {"kind", "PersistentVolumeClaim"},
                     {"metadata",
                      {{"name", toStd(ds.claimName)},
                       {"namespace", ns},
                       {"uid", uid},
                       {"annotations",
                        {{"pv.kubernetes.io/bind-completed", "yes"},
                         {"pv.kubernetes.io/bound-by-controller", "yes"},
                         {"volume.beta.kubernetes.io/storage-provisioner", "csi.trident.netapp.io"},
                         {"volume.kubernetes.io/storage-provisioner", "csi.trident.netapp.io"}}},
                       {"finalizers", {"kubernetes.io/pvc-protection"}}}},
                     {"spec",
                      {{"accessModes", {mode}},
                       {"resources", {{"requests", {{"storage", size}}}}},
                       {"storageClassName", toStd(m_options.storageClass)},
                       {"volumeMode", "Filesystem"},
                       {"volumeName", pvName}}},
                     {"status", {{"phase", "Bound"}, {"accessModes", {mode}}, {"capacity", {{"storage", size}}}}}});
        }
        if (!datasets.isEmpty()) {
            const KubeDataset &first = datasets.front();
            const std::string contentUid = m_store.newUid();
            m_store.create(
                RVolumeSnapshots,
                json{{"apiVersion", "snapshot.storage.k8s.io/v1"},
                     {"kind", "VolumeSnapshot"},
                     {"metadata",
                      {{"name", toStd(first.claimName) + "-snap-1"}, {"namespace", toStd(first.namespace_)}}},
                     {"spec",
                      {{"source", {{"persistentVolumeClaimName", toStd(first.claimName)}}},
                       {"volumeSnapshotClassName", "trident-snapshotclass"}}},
                     {"status",
                      {{"boundVolumeSnapshotContentName", "snapcontent-" + contentUid},
                       {"creationTime", m_store.timestamp()},
                       {"readyToUse", true},
                       {"restoreSize", std::to_string(first.capacityGiB) + "Gi"}}}});
        }
        syncNodes();
        for (const auto &entry : m_store.all(RQueues)) {
            syncQueue(entry.second->obj(), false);
        }
        if (m_options.submitDemoJobs) {
            for (const tr4858::ScenarioStep &step : tr4858::section48()) {
                KubeJobSpec spec;
                spec.namespace_ = QString::fromStdString(tr4858::namespaceOf(step.job.project));
                spec.name = QString::fromStdString(step.job.name);
                spec.queue = QString::fromStdString(step.job.project);
                spec.user = QString::fromStdString(step.job.user);
                spec.image = QString::fromStdString(step.job.image);
                spec.gpuMilli = step.job.gpus;
                spec.interactive = step.job.kind == JobKind::Interactive;
                for (const std::string &c : step.job.command) {
                    spec.command.append(QString::fromStdString(c));
                }
                for (const std::string &a : step.job.args) {
                    spec.args.append(QString::fromStdString(a));
                }
                const ObjectPtr job = m_store.create(RJobs, jobManifestJson(spec));
                onJobAdded(job->obj());
                schedule();
            }
            for (auto &entry : m_runs) {
                if (entry.second->phase == JobRun::Phase::Creating) {
                    startRunning(*entry.second);
                }
            }
        }
        m_dirty = false;
    } else if (m_options.preset == Preset::Aks) {
        const auto aksNode = [](const std::string &name,
                                const std::string &pool,
                                int gpus,
                                int index,
                                const std::string &vmSize,
                                const std::string &cpu,
                                const std::string &memory) {
            json node = nodeJson(name, gpus, index, "Tesla-V100-PCIE-16GB", 16384);
            json &labels = node["metadata"]["labels"];
            labels["agentpool"] = pool;
            labels["kubernetes.azure.com/agentpool"] = pool;
            labels["kubernetes.azure.com/mode"] = gpus > 0 ? "user" : "system";
            labels["kubernetes.azure.com/cluster"] = "MC_ai-lab-rg_aks-gpu_eastus";
            labels["kubernetes.azure.com/os-sku"] = "Ubuntu";
            labels["node.kubernetes.io/instance-type"] = vmSize;
            labels["beta.kubernetes.io/instance-type"] = vmSize;
            labels["topology.kubernetes.io/region"] = "eastus";
            labels["topology.kubernetes.io/zone"] = "0";
            labels.erase("node-role.kubernetes.io/runai-gpu-worker");
            if (gpus > 0) {
                labels["kubernetes.azure.com/accelerator"] = "nvidia";
            } else {
                for (const char *key : {"nvidia.com/gpu.present",
                                        "nvidia.com/gpu.product",
                                        "nvidia.com/gpu.memory",
                                        "nvidia.com/gpu.count",
                                        "nvidia.com/gpu.family",
                                        "nvidia.com/mig.capable"}) {
                    labels.erase(key);
                }
            }
            node["spec"]["providerID"] = "azure:///subscriptions/8a1b2c3d-4e5f-4a6b-9c7d-0e1f2a3b4c5d/resourceGroups/"
                                         "mc_ai-lab-rg_aks-gpu_eastus/providers/Microsoft.Compute/"
                                         "virtualMachineScaleSets/aks-"
                                         + pool + "-38146290-vmss/virtualMachines/" + std::to_string(index);
            for (const char *section : {"capacity", "allocatable"}) {
                json &r = node["status"][section];
                r["cpu"] = cpu;
                r["memory"] = memory;
                if (gpus == 0) {
                    r.erase("nvidia.com/gpu");
                }
            }
            node["status"]["addresses"][0]["address"] = "10.224.0." + std::to_string(4 + index);
            // The control plane's version (GET /version) and ARM's currentKubernetesVersion agree.
            node["status"]["nodeInfo"]["kubeletVersion"] = "v1.32.4";
            node["status"]["nodeInfo"]["kubeProxyVersion"] = "v1.32.4";
            return node;
        };
        m_store.create(RNodes,
                       aksNode("aks-system-38146290-vmss000000", "system", 0, 0, "Standard_D4s_v5", "4", "16365312Ki"));
        for (int i = 0; i < 3; ++i) {
            m_store.create(RNodes,
                           aksNode("aks-gpupool-38146290-vmss00000" + std::to_string(i),
                                   "gpupool",
                                   1,
                                   i + 1,
                                   "Standard_NC6s_v3",
                                   "6",
                                   "115496400Ki"));
        }
        m_store.create(RNamespaces, namespaceJson("ml-team", "ml-team"));
        m_store.create(RQueues, queueJson("ml-team", 3.0, "default-parent-queue"));
        syncNodes();
        for (const auto &entry : m_store.all(RQueues)) {
            syncQueue(entry.second->obj(), false);
        }
        m_dirty = false;
    } else if (m_options.preset == Preset::Scale) {
        // Built straight into the store: no history, no scheduler (pods bound round-robin).
        m_store.setRecording(false);
        const int nodes = std::max(1, m_options.scaleNodes);
        for (int i = 0; i < nodes; ++i) {
            char name[32];
            std::snprintf(name, sizeof name, "gpu-node-%04d", i + 1);
            m_store.create(RNodes, nodeJson(name, 8, i, "NVIDIA-A100-SXM4-80GB", 81920));
        }
        const int namespaces = std::max(1, m_options.scaleNamespaces);
        for (int n = 0; n < namespaces; ++n) {
            char project[32];
            std::snprintf(project, sizeof project, "project-%02d", n + 1);
            m_store.create(RNamespaces, namespaceJson(std::string("runai-") + project, project));
            m_store.create(RQueues, queueJson(project, 8.0 * nodes / namespaces, "default-parent-queue"));
        }
        // One template copied per pod: building each from initializer lists costs 5x more.
        const std::string now = m_store.timestamp();
        const json podTemplate{
            {"apiVersion", "v1"},
            {"kind", "Pod"},
            {"metadata",
             {{"name", ""}, {"namespace", ""}, {"labels", json::object()}, {"annotations", json::object()}}},
            {"spec",
             {{"schedulerName", "kai-scheduler"},
              {"priorityClassName", "train"},
              {"nodeName", ""},
              {"restartPolicy", "Never"},
              {"containers",
               {{{"name", "main"},
                 {"image", "nvcr.io/nvidia/pytorch:24.05-py3"},
                 {"resources", {{"limits", {{"nvidia.com/gpu", "1"}}}}}}}}}},
            {"status",
             {{"phase", "Running"},
              {"startTime", now},
              {"conditions", {condition("PodScheduled", "True", now), condition("Ready", "True", now)}}}}};
        std::vector<std::string> projects;
        for (int n = 0; n < namespaces; ++n) {
            char project[32];
            std::snprintf(project, sizeof project, "project-%02d", n + 1);
            projects.emplace_back(project);
        }
        // The template's own serialisation, cut at the per-pod values, is reassembled per pod.
        json marked = podTemplate;
        marked["metadata"]["name"] = "\x01";
        marked["metadata"]["namespace"] = "\x02";
        marked["metadata"]["labels"]["kai.scheduler/queue"] = "\x03";
        marked["metadata"]["labels"]["user"] = "\x04";
        marked["metadata"]["annotations"]["runai-gpu"] = "\x05";
        marked["spec"]["nodeName"] = "\x06";
        marked["metadata"]["uid"] = "\x07";
        marked["metadata"]["resourceVersion"] = "\x0b";
        marked["metadata"]["creationTimestamp"] = "\x0e";
        const std::string text = marked.dump(-1, ' ', false, json::error_handler_t::strict);
        // dump() escapes these control characters as \u00XX (not \b, \t, \n, \f, \r); split there.
        std::vector<std::string> pieces;
        std::vector<int> slots;
        std::size_t from = 0;
        for (std::size_t i = text.find("\\u00", 0); i != std::string::npos; i = text.find("\\u00", from)) {
            pieces.push_back(text.substr(from, i - from));
            slots.push_back(std::stoi(text.substr(i + 4, 2), nullptr, 16));
            from = i + 6;
        }
        pieces.push_back(text.substr(from));
        for (int p = 0; p < m_options.scalePods; ++p) {
            const std::string &project = projects[static_cast<std::size_t>(p % namespaces)];
            char podName[48];
            std::snprintf(podName, sizeof podName, "job-%06d-%s", p, m_store.randomSuffix().c_str());
            char node[32];
            std::snprintf(node, sizeof node, "gpu-node-%04d", p % nodes + 1);
            const std::string ns = "runai-" + project;
            const std::string user = "user" + std::to_string(p % 97);
            const std::string gpu = std::to_string((p / nodes) % 8);
            json pod = podTemplate;
            json &meta = pod["metadata"];
            meta["name"] = podName;
            meta["namespace"] = ns;
            meta["labels"]["kai.scheduler/queue"] = project;
            meta["labels"]["user"] = user;
            meta["annotations"]["runai-gpu"] = gpu;
            pod["spec"]["nodeName"] = node;
            m_store.createRendered(
                RPods, std::move(pod), [&](const std::string &uid, const std::string &rv, const std::string &created) {
                    std::string out = pieces[0];
                    for (std::size_t i = 0; i < slots.size(); ++i) {
                        switch (slots[i]) {
                        case 1:
                            out += podName;
                            break;
                        case 2:
                            out += ns;
                            break;
                        case 3:
                            out += project;
                            break;
                        case 4:
                            out += user;
                            break;
                        case 5:
                            out += gpu;
                            break;
                        case 6:
                            out += node;
                            break;
                        case 7:
                            out += uid;
                            break;
                        case 0x0b:
                            out += rv;
                            break;
                        default:
                            out += created;
                            break;
                        }
                        out += pieces[i + 1];
                    }
                    return out;
                });
        }
        m_store.setRecording(true);
        syncNodes();
        for (const auto &entry : m_store.all(RQueues)) {
            syncQueue(entry.second->obj(), false);
        }
        m_dirty = false;
    }
    --m_selfDepth;
}

void Cluster::admit(int resource, json &object) const
{
    json &meta = object["metadata"];
    if (resource == RNamespaces) {
        meta["labels"]["kubernetes.io/metadata.name"] = meta.value("name", std::string());
        object["spec"] = json{{"finalizers", {"kubernetes"}}};
        object["status"] = json{{"phase", "Active"}};
    } else if (resource == RPods) {
        if (!object.contains("status") || !object["status"].is_object()) {
            object["status"] = json::object();
        }
        if (!object["status"].contains("phase")) {
            object["status"]["phase"] = "Pending";
        }
    } else if (resource == RJobs) {
        json &spec = object["spec"];
        if (!spec.is_object()) {
            spec = json::object();
        }
        for (const auto &[key, value] :
             {std::pair<const char *, int>{"backoffLimit", 6}, {"completions", 1}, {"parallelism", 1}}) {
            if (!spec.contains(key)) {
                spec[key] = value;
            }
        }
        if (!spec.contains("completionMode")) {
            spec["completionMode"] = "NonIndexed";
        }
        if (!spec.contains("suspend")) {
            spec["suspend"] = false;
        }
        object["status"] = json::object();
    } else if (resource == RPvcs) {
        if (!object.contains("status")) {
            object["status"] = json{{"phase", "Pending"}};
        }
    } else if (resource == RVolumeSnapshots) {
        if (!object.contains("status")) {
            object["status"] = json{{"readyToUse", false}};
        }
    } else if (resource == RSecrets) {
        // The API server folds the write-only stringData into base64 data.
        if (const auto it = object.find("stringData"); it != object.end()) {
            if (it->is_object()) {
                for (const auto &[key, value] : it->items()) {
                    if (value.is_string()) {
                        object["data"][key] =
                            QByteArray::fromStdString(value.get<std::string>()).toBase64().toStdString();
                    }
                }
            }
            object.erase("stringData");
        }
        if (!object.contains("type")) {
            object["type"] = "Opaque";
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Observing the store

void Cluster::observe(const StoreEvent &event)
{
    if (m_selfDepth > 0) {
        return;
    }
    bool interesting = false;
    switch (event.resource) {
    case RJobs:
        if (event.type == EventType::Added) {
            m_pendingJobs.push_back(std::make_unique<json>(event.object->obj()));
            interesting = true;
        } else if (event.type == EventType::Deleted) {
            const json &meta = event.object->obj()["metadata"];
            m_deletedJobs.insert(
                ObjectStore::key(meta.value("namespace", std::string()), meta.value("name", std::string())));
            interesting = true;
        }
        break;
    case RPods:
        if (event.type == EventType::Deleted) {
            m_deletedPods.push_back(std::make_unique<json>(event.object->obj()));
            interesting = true;
        }
        break;
    case RNodes:
        m_nodesDirty = true;
        interesting = true;
        break;
    case RQueues:
        m_queueEvents.push_back({event.object->obj().value("metadata", json::object()).value("name", std::string()),
                                 event.type == EventType::Deleted});
        interesting = true;
        break;
    default:
        break;
    }
    if (interesting && !m_reconcileRequested) {
        m_reconcileRequested = true;
        m_requestReconcile();
    }
}

void Cluster::reconcile()
{
    m_reconcileRequested = false;
    ++m_selfDepth;
    // Deletions first: a job deleted and re-created under the same name in one batch must restart.
    for (const std::string &id : m_deletedJobs) {
        onJobDeleted(id);
    }
    m_deletedJobs.clear();
    auto pods = std::move(m_deletedPods);
    m_deletedPods.clear();
    for (const auto &pod : pods) {
        onPodDeleted(*pod);
    }
    auto jobs = std::move(m_pendingJobs);
    m_pendingJobs.clear();
    for (const auto &job : jobs) {
        const json &meta = (*job)["metadata"];
        // Only if it still exists (it may have been deleted in the same batch).
        if (m_store.get(RJobs, meta.value("namespace", std::string()), meta.value("name", std::string()))) {
            onJobAdded(*job);
        }
    }
    if (m_nodesDirty) {
        m_nodesDirty = false;
        syncNodes();
    }
    auto queues = std::move(m_queueEvents);
    m_queueEvents.clear();
    for (const auto &[name, deleted] : queues) {
        const ObjectPtr q = m_store.get(RQueues, {}, name);
        if (deleted || !q) {
            m_scheduler->removeProject(name);
        } else {
            syncQueue(q->obj(), false);
        }
        m_dirty = true;
    }
    if (m_dirty) {
        schedule();
    }
    --m_selfDepth;
}

void Cluster::syncNodes()
{
    std::vector<SchedNode> nodes;
    for (const auto &entry : m_store.all(RNodes)) {
        const json &status = entry.second->obj().value("status", json::object());
        const json alloc = status.value("allocatable", json::object());
        int gpus = 0;
        if (alloc.contains("nvidia.com/gpu") && alloc["nvidia.com/gpu"].is_string()) {
            gpus = std::atoi(alloc["nvidia.com/gpu"].get<std::string>().c_str());
        }
        const bool unschedulable = entry.second->obj().value("spec", json::object()).value("unschedulable", false);
        if (gpus > 0 && !unschedulable) {
            nodes.push_back(SchedNode{entry.first, gpus});
        }
    }
    m_scheduler->setNodes(std::move(nodes));
    m_dirty = true;
}

void Cluster::syncQueue(const json &queue, bool deleted)
{
    const std::string name = queue.value("metadata", json::object()).value("name", std::string());
    if (deleted) {
        m_scheduler->removeProject(name);
    } else {
        m_scheduler->setProject(name, quotaOf(queue));
    }
    m_dirty = true;
}

// ---------------------------------------------------------------------------------------------
// Job controller

void Cluster::onJobAdded(const json &job)
{
    const json &meta = job["metadata"];
    const std::string ns = meta.value("namespace", std::string());
    const std::string name = meta.value("name", std::string());
    const std::string id = ObjectStore::key(ns, name);
    if (m_runs.count(id)) {
        return;
    }
    auto run = std::make_unique<JobRun>();
    run->id = id;
    run->ns = ns;
    run->name = name;
    run->uid = meta.value("uid", std::string());
    const json spec = job.value("spec", json::object());
    run->podTemplate = spec.value("template", json::object());
    run->job = job;
    if (const auto limit = spec.find("backoffLimit"); limit != spec.end() && limit->is_number_integer()) {
        run->backoffLimit = std::max(0, limit->get<int>());
    }
    std::string queue = labelOf(job, "kai.scheduler/queue");
    if (queue.empty()) {
        queue = labelOf(run->podTemplate, "kai.scheduler/queue");
    }
    run->project = queue.empty() ? "default-queue" : queue;
    const json podSpec = run->podTemplate.value("spec", json::object());
    run->kind = podSpec.value("priorityClassName", std::string()) == "build" ? JobKind::Interactive : JobKind::Train;
    MilliGpu gpus = 0;
    for (const json &c : podSpec.value("containers", json::array())) {
        if (run->image.empty()) {
            run->image = c.value("image", std::string());
        }
        const json limits = c.value("resources", json::object()).value("limits", json::object());
        if (limits.contains("nvidia.com/gpu")) {
            const json &v = limits["nvidia.com/gpu"];
            gpus += static_cast<MilliGpu>(std::llround((v.is_string()   ? std::atof(v.get<std::string>().c_str())
                                                        : v.is_number() ? v.get<double>()
                                                                        : 0.0)
                                                       * 1000));
        }
    }
    if (gpus == 0) {
        const std::string fraction = annotationOf(run->podTemplate, "gpu-fraction");
        if (!fraction.empty()) {
            gpus = static_cast<MilliGpu>(std::llround(std::atof(fraction.c_str()) * 1000));
        }
    }
    run->gpus = gpus;
    const std::string duration = annotationOf(job, "strata.io/sim-duration-seconds");
    if (!duration.empty()) {
        run->durationMs = static_cast<std::int64_t>(std::atof(duration.c_str()) * 1000);
    }
    const std::string util = annotationOf(job, "strata.io/sim-gpu-util");
    if (!util.empty()) {
        run->utilPct = std::clamp(std::atof(util.c_str()), 0.0, 100.0);
    }
    JobRun &r = *run;
    m_runs.emplace(id, std::move(run));
    createPodGroup(r, job);
    createPod(r);
    setJobStatus(r, false, false);
    submitOrHold(r);
    m_dirty = true;
}

void Cluster::onJobDeleted(const std::string &id)
{
    const auto it = m_runs.find(id);
    if (it == m_runs.end()) {
        return;
    }
    m_scheduler->remove(id);
    if (!it->second->pod.empty()) {
        m_podToJob.erase(ObjectStore::key(it->second->ns, it->second->pod));
    }
    m_runs.erase(it);
    m_dirty = true;
}

void Cluster::onPodDeleted(const json &pod)
{
    const json &meta = pod["metadata"];
    const std::string key = ObjectStore::key(meta.value("namespace", std::string()), meta.value("name", std::string()));
    m_podLogs.erase(key);
    const auto owner = m_podToJob.find(key);
    if (owner == m_podToJob.end()) {
        return;
    }
    const std::string jobId = owner->second;
    m_podToJob.erase(owner);
    const auto it = m_runs.find(jobId);
    if (it == m_runs.end() || it->second->phase == JobRun::Phase::Done) {
        return;
    }
    JobRun &run = *it->second;
    if (!m_store.get(RJobs, run.ns, run.name)) {
        return;
    }
    // The Job controller replaces a pod deleted from under it; the new pod queues again.
    m_scheduler->remove(run.id);
    run.pod.clear();
    run.phase = JobRun::Phase::Pending;
    run.node.clear();
    run.gpuIndices.clear();
    run.pendingMessage.clear();
    createPod(run);
    submitOrHold(run);
    m_dirty = true;
}

void Cluster::createPodGroup(const JobRun &run, const json &job)
{
    (void)job;
    m_store.create(RPodGroups,
                   json{{"apiVersion", "scheduling.run.ai/v2alpha2"},
                        {"kind", "PodGroup"},
                        {"metadata",
                         {{"name", "pg-" + run.name},
                          {"namespace", run.ns},
                          {"labels", {{"kai.scheduler/queue", run.project}}},
                          {"ownerReferences", {ownerRef("batch/v1", "Job", run.name, run.uid)}}}},
                        {"spec",
                         {{"minMember", 1},
                          {"queue", run.project},
                          {"priorityClassName", run.kind == JobKind::Interactive ? "build" : "train"},
                          {"preemptibility", run.kind == JobKind::Interactive ? "non-preemptible" : "preemptible"}}},
                        {"status", {{"phase", "Pending"}, {"schedulingConditions", json::array()}}}});
}

void Cluster::createPod(JobRun &run)
{
    json meta = run.podTemplate.value("metadata", json::object());
    std::string name;
    do {
        name = run.name + '-' + m_store.randomSuffix();
    } while (m_store.get(RPods, run.ns, name));
    meta["name"] = name;
    meta["generateName"] = run.name + '-';
    meta["namespace"] = run.ns;
    meta["labels"]["job-name"] = run.name;
    meta["labels"]["batch.kubernetes.io/job-name"] = run.name;
    meta["labels"]["controller-uid"] = run.uid;
    meta["labels"]["batch.kubernetes.io/controller-uid"] = run.uid;
    meta["annotations"]["pod-group-name"] = "pg-" + run.name;
    meta["ownerReferences"] = json::array({ownerRef("batch/v1", "Job", run.name, run.uid)});
    json spec = run.podTemplate.value("spec", json::object());
    if (!spec.contains("restartPolicy")) {
        spec["restartPolicy"] = "Never";
    }
    json pod{{"apiVersion", "v1"},
             {"kind", "Pod"},
             {"metadata", meta},
             {"spec", spec},
             {"status", {{"phase", "Pending"}, {"qosClass", "BestEffort"}}}};
    m_store.create(RPods, std::move(pod));
    run.pod = name;
    run.podSerial++;
    m_podToJob[ObjectStore::key(run.ns, name)] = run.id;
    run.workload = m_runner ? m_runner(run.job) : nullptr;
}

bool Cluster::modify(int resource,
                     const std::string &ns,
                     const std::string &name,
                     const std::function<void(json &)> &fn)
{
    const ObjectPtr current = m_store.get(resource, ns, name);
    if (!current) {
        return false;
    }
    json next = current->obj();
    fn(next);
    if (next != current->obj()) {
        m_store.replace(resource, std::move(next));
    }
    return true;
}

void Cluster::setJobStatus(const JobRun &run, bool running, bool succeeded)
{
    const std::string now = m_store.timestamp();
    modify(RJobs, run.ns, run.name, [&](json &job) {
        json &status = job["status"];
        if (!status.is_object()) {
            status = json::object();
        }
        if (!status.contains("startTime")) {
            status["startTime"] = now;
        }
        if (succeeded) {
            status.erase("active");
            status["succeeded"] = 1;
            status["ready"] = 0;
            status["completionTime"] = now;
            status["conditions"] = json::array(
                {condition("SuccessCriteriaMet",
                           "True",
                           now,
                           "CompletionsReached",
                           "Reached expected number of succeeded pods"),
                 condition(
                     "Complete", "True", now, "CompletionsReached", "Reached expected number of succeeded pods")});
            for (json &c : status["conditions"]) {
                c["lastProbeTime"] = now;
            }
        } else {
            status["active"] = 1;
            status["ready"] = running ? 1 : 0;
        }
        if (run.failedPods > 0) {
            status["failed"] = run.failedPods;
        }
        status["terminating"] = 0;
        status["uncountedTerminatedPods"] = json::object();
    });
}

void Cluster::setPodGroupStatus(const JobRun &run,
                                const std::string &phase,
                                const std::string &pendingMessage,
                                std::optional<std::string> evictedMessage)
{
    const std::string now = m_store.timestamp();
    modify(RPodGroups, run.ns, "pg-" + run.name, [&](json &pg) {
        json &status = pg["status"];
        if (!status.is_object()) {
            status = json::object();
        }
        status["phase"] = phase;
        if (pendingMessage.empty()) {
            status["schedulingConditions"] = json::array();
        } else {
            json existing = status.value("schedulingConditions", json::array());
            if (existing.empty() || existing[0].value("message", std::string()) != pendingMessage) {
                const int transition =
                    existing.empty() ? 0 : std::atoi(existing[0].value("transitionID", std::string("0")).c_str()) + 1;
                status["schedulingConditions"] = json::array({json{{"type", "Unschedulable"},
                                                                   {"nodePool", "default"},
                                                                   {"reason", "Unschedulable"},
                                                                   {"message", pendingMessage},
                                                                   {"transitionID", std::to_string(transition)},
                                                                   {"lastTransitionTime", now},
                                                                   {"status", "True"}}});
            }
        }
        json &conditions = status["conditions"];
        if (evictedMessage) {
            setCondition(conditions,
                         json{{"type", "Evicted"},
                              {"status", "True"},
                              {"reason", "Preempted"},
                              {"message", *evictedMessage},
                              {"lastTransitionTime", now}});
        } else {
            eraseCondition(conditions, "Evicted");
            if (conditions.empty()) {
                status.erase("conditions");
            }
        }
        status["running"] = phase == "Running" ? 1 : 0;
        status["pending"] = phase == "Pending" ? 1 : 0;
        status["succeeded"] = phase == "Succeeded" ? 1 : 0;
    });
}

void Cluster::emitEvent(const json &involved,
                        const std::string &reason,
                        const std::string &message,
                        const std::string &type,
                        const std::string &component)
{
    const json &meta = involved["metadata"];
    const std::string ns = meta.value("namespace", std::string("default"));
    const std::string involvedName = meta.value("name", std::string());
    static std::uint64_t serial = 0x17f3a2b4c5d60000ULL;
    char suffix[24];
    std::snprintf(suffix, sizeof suffix, "%016llx", static_cast<unsigned long long>(++serial));
    const std::string name = involvedName + '.' + suffix;
    const std::string now = m_store.timestamp();
    json involvedObject{{"kind", involved.value("kind", std::string())},
                        {"namespace", ns},
                        {"name", involvedName},
                        {"uid", meta.value("uid", std::string())},
                        {"apiVersion", involved.value("apiVersion", std::string())},
                        {"resourceVersion", meta.value("resourceVersion", std::string())}};
    m_store.create(
        REvents,
        json{{"apiVersion", "v1"},
             {"kind", "Event"},
             {"metadata", {{"name", name}, {"namespace", ns}}},
             {"involvedObject", involvedObject},
             {"reason", reason},
             {"message", message},
             {"type", type},
             {"source", {{"component", component}}},
             {"reportingComponent", component},
             {"reportingInstance", component == "kubelet" ? meta.value("nodeName", std::string()) : component},
             {"firstTimestamp", now},
             {"lastTimestamp", now},
             {"eventTime", nullptr},
             {"count", 1}});
    m_events.emplace_back(ns, name);
    while (static_cast<int>(m_events.size()) > std::max(1, m_options.maxEvents)) {
        m_store.remove(REvents, m_events.front().first, m_events.front().second);
        m_events.pop_front();
    }
}

// ---------------------------------------------------------------------------------------------
// Scheduling and lifecycle

void Cluster::schedule()
{
    m_dirty = false;
    const std::vector<Decision> decisions = m_scheduler->schedule();
    for (const Decision &d : decisions) {
        const auto it = m_runs.find(d.jobId);
        if (it == m_runs.end()) {
            continue;
        }
        if (d.kind == Decision::Kind::Preempt) {
            preempt(*it->second, d.byProject);
        } else {
            bind(*it->second, d.node, d.gpuIndices);
        }
    }
    updatePending();
}

void Cluster::bind(JobRun &run, const std::string &node, const std::vector<int> &gpus)
{
    run.phase = JobRun::Phase::Creating;
    run.phaseSinceMs = m_store.nowMs();
    run.node = node;
    run.gpuIndices = gpus;
    run.pendingMessage.clear();
    std::string indices;
    for (int g : gpus) {
        indices += (indices.empty() ? "" : ",") + std::to_string(g);
    }
    const std::string now = m_store.timestamp();
    const std::string nodeIp = [&] {
        const ObjectPtr n = m_store.get(RNodes, {}, node);
        if (n) {
            for (const json &a : n->obj()["status"].value("addresses", json::array())) {
                if (a.value("type", std::string()) == "InternalIP") {
                    return a.value("address", std::string());
                }
            }
        }
        return std::string("10.61.218.151");
    }();
    modify(RPods, run.ns, run.pod, [&](json &pod) {
        pod["spec"]["nodeName"] = node;
        pod["metadata"]["annotations"]["runai-gpu"] = indices;
        json &status = pod["status"];
        status["phase"] = "Pending";
        status["hostIP"] = nodeIp;
        status["hostIPs"] = json::array({json{{"ip", nodeIp}}});
        status["startTime"] = now;
        json conditions = json::array(
            {condition("PodReadyToStartContainers", "False", now),
             condition("Initialized", "True", now),
             condition(
                 "Ready", "False", now, "ContainersNotReady", "containers with unready status: [" + run.name + "]"),
             condition("ContainersReady",
                       "False",
                       now,
                       "ContainersNotReady",
                       "containers with unready status: [" + run.name + "]"),
             condition("PodScheduled", "True", now)});
        status["conditions"] = conditions;
        json containerStatuses = json::array();
        for (const json &c : pod["spec"].value("containers", json::array())) {
            containerStatuses.push_back(json{{"name", c.value("name", std::string())},
                                             {"image", c.value("image", std::string())},
                                             {"imageID", ""},
                                             {"ready", false},
                                             {"restartCount", 0},
                                             {"started", false},
                                             {"state", {{"waiting", {{"reason", "ContainerCreating"}}}}},
                                             {"lastState", json::object()}});
        }
        status["containerStatuses"] = containerStatuses;
    });
    if (const ObjectPtr pod = m_store.get(RPods, run.ns, run.pod)) {
        emitEvent(pod->obj(),
                  "Scheduled",
                  "Successfully assigned " + run.ns + "/" + run.pod + " to " + node,
                  "Normal",
                  "kai-scheduler");
        json withNode = pod->obj();
        withNode["metadata"]["nodeName"] = node;
        emitEvent(withNode, "Pulling", "Pulling image \"" + run.image + "\"", "Normal", "kubelet");
    }
    setPodGroupStatus(run, "Pending", {}, run.evicted ? std::optional<std::string>(run.evictedMessage) : std::nullopt);
}

void Cluster::startRunning(JobRun &run)
{
    run.phase = JobRun::Phase::Running;
    run.phaseSinceMs = m_store.nowMs();
    run.lastStepMs = run.phaseSinceMs;
    const std::string now = m_store.timestamp();
    const std::uint64_t podSeed = hashString(run.pod);
    char ip[32];
    std::snprintf(ip, sizeof ip, "10.244.%d.%d", int(podSeed % 200), int(2 + (podSeed >> 8) % 250));
    modify(RPods, run.ns, run.pod, [&](json &pod) {
        json &status = pod["status"];
        status["phase"] = "Running";
        status["podIP"] = ip;
        status["podIPs"] = json::array({json{{"ip", ip}}});
        status["conditions"] = json::array({condition("PodReadyToStartContainers", "True", now),
                                            condition("Initialized", "True", now),
                                            condition("Ready", "True", now),
                                            condition("ContainersReady", "True", now),
                                            condition("PodScheduled", "True", now)});
        for (json &cs : status["containerStatuses"]) {
            char containerId[80];
            std::snprintf(containerId,
                          sizeof containerId,
                          "containerd://%016llx%016llx",
                          static_cast<unsigned long long>(mix(podSeed)),
                          static_cast<unsigned long long>(mix(podSeed + 1)));
            cs["containerID"] = containerId;
            cs["imageID"] = cs.value("image", std::string()) + "@sha256:" + std::string(64, 'a');
            cs["ready"] = true;
            cs["started"] = true;
            cs["state"] = json{{"running", {{"startedAt", now}}}};
        }
    });
    if (const ObjectPtr pod = m_store.get(RPods, run.ns, run.pod)) {
        json withNode = pod->obj();
        withNode["metadata"]["nodeName"] = run.node;
        emitEvent(withNode, "Pulled", "Successfully pulled image \"" + run.image + "\"", "Normal", "kubelet");
        emitEvent(withNode, "Created", "Created container: " + run.name, "Normal", "kubelet");
        emitEvent(withNode, "Started", "Started container " + run.name, "Normal", "kubelet");
    }
    run.evicted = false;
    run.evictedMessage.clear();
    setPodGroupStatus(run, "Running", {}, std::nullopt);
    setJobStatus(run, true, false);
}

void Cluster::complete(JobRun &run)
{
    run.phase = JobRun::Phase::Done;
    const std::string now = m_store.timestamp();
    m_scheduler->remove(run.id);
    modify(RPods, run.ns, run.pod, [&](json &pod) {
        json &status = pod["status"];
        status["phase"] = "Succeeded";
        status["conditions"] = json::array({condition("PodReadyToStartContainers", "False", now),
                                            condition("Initialized", "True", now, "PodCompleted"),
                                            condition("Ready", "False", now, "PodCompleted"),
                                            condition("ContainersReady", "False", now, "PodCompleted"),
                                            condition("PodScheduled", "True", now)});
        for (json &cs : status["containerStatuses"]) {
            const std::string started = cs["state"].value("running", json::object()).value("startedAt", now);
            cs["ready"] = false;
            cs["started"] = false;
            cs["state"] = json{{"terminated",
                                {{"exitCode", 0},
                                 {"reason", "Completed"},
                                 {"startedAt", started},
                                 {"finishedAt", now},
                                 {"containerID", cs.value("containerID", std::string())}}}};
        }
    });
    setPodGroupStatus(run, "Succeeded", {}, std::nullopt);
    setJobStatus(run, false, true);
    if (const ObjectPtr job = m_store.get(RJobs, run.ns, run.name)) {
        emitEvent(job->obj(), "Completed", "Job completed", "Normal", "job-controller");
    }
    m_dirty = true;
}

void Cluster::preempt(JobRun &run, const std::string &byProject)
{
    const std::string now = m_store.timestamp();
    const std::string message = "Preempted by " + byProject + " reclaiming its quota";
    const std::string oldPod = run.pod;
    modify(RPods, run.ns, oldPod, [&](json &pod) {
        setCondition(pod["status"]["conditions"],
                     condition("DisruptionTarget",
                               "True",
                               now,
                               "PreemptionByScheduler",
                               "kai-scheduler: preempting to reclaim quota for queue " + byProject));
    });
    if (const ObjectPtr pod = m_store.get(RPods, run.ns, oldPod)) {
        emitEvent(pod->obj(), "Preempted", message, "Normal", "kai-scheduler");
    }
    m_podToJob.erase(ObjectStore::key(run.ns, oldPod));
    m_store.remove(RPods, run.ns, oldPod);
    run.phase = JobRun::Phase::Pending;
    run.node.clear();
    run.gpuIndices.clear();
    run.pendingMessage.clear();
    run.evicted = true;
    run.evictedMessage = message;
    createPod(run);
    setPodGroupStatus(run, "Pending", {}, message);
    setJobStatus(run, false, false);
}

void Cluster::updatePending()
{
    const std::string now = m_store.timestamp();
    for (auto &entry : m_runs) {
        JobRun &run = *entry.second;
        if (run.phase != JobRun::Phase::Pending) {
            continue;
        }
        const JobStatus *status = m_scheduler->job(run.id);
        if (!status || status->state != JobState::Pending) {
            continue;
        }
        const std::string message =
            status->pendingReason.empty() ? std::string("waiting to be scheduled") : status->pendingReason;
        if (message == run.pendingMessage) {
            continue;
        }
        run.pendingMessage = message;
        modify(RPods, run.ns, run.pod, [&](json &pod) {
            setCondition(pod["status"]["conditions"],
                         condition("PodScheduled", "False", now, "Unschedulable", message));
        });
        setPodGroupStatus(
            run, "Pending", message, run.evicted ? std::optional<std::string>(run.evictedMessage) : std::nullopt);
        if (const ObjectPtr pod = m_store.get(RPods, run.ns, run.pod)) {
            emitEvent(pod->obj(), "FailedScheduling", message, "Warning", "kai-scheduler");
        }
    }
}

void Cluster::tick()
{
    reconcile();
    ++m_selfDepth;
    const std::int64_t now = m_store.nowMs();
    for (auto &entry : m_runs) {
        JobRun &run = *entry.second;
        if (run.phase == JobRun::Phase::Pending && run.heldForVolumes && unboundClaim(run).empty()) {
            run.heldForVolumes = false;
            m_scheduler->submit(SchedJob{run.id, run.project, run.gpus, run.kind, 0});
            m_dirty = true;
        } else if (run.phase == JobRun::Phase::Creating
                   && now - run.phaseSinceMs >= m_options.containerCreating.count()) {
            if (m_options.unpullableImages.contains(QString::fromStdString(run.image))) {
                failImagePull(run);
            } else {
                startRunning(run);
            }
        } else if (run.phase == JobRun::Phase::Running && run.workload) {
            stepWorkload(run, now);
        } else if (run.phase == JobRun::Phase::Running && run.durationMs >= 0
                   && now - run.phaseSinceMs >= run.durationMs) {
            complete(run);
        }
    }
    if (m_dirty) {
        schedule();
    }
    --m_selfDepth;
}

const std::vector<std::string> *Cluster::podLog(const std::string &key) const
{
    const auto it = m_podLogs.find(key);
    return it == m_podLogs.end() ? nullptr : &it->second;
}

void Cluster::stepWorkload(JobRun &run, std::int64_t nowMs)
{
    if (nowMs <= run.lastStepMs) {
        return;
    }
    const auto elapsed = std::chrono::milliseconds(nowMs - run.lastStepMs);
    run.lastStepMs = nowMs;
    SimWorkloadStep result = run.workload->step(elapsed);
    if (!result.logLines.empty()) {
        auto &log = m_podLogs[ObjectStore::key(run.ns, run.pod)];
        std::move(result.logLines.begin(), result.logLines.end(), std::back_inserter(log));
        // Like the kubelet's log rotation: a chatty pod keeps its recent lines.
        constexpr std::size_t keep = 20000;
        if (log.size() > keep) {
            log.erase(log.begin(), log.begin() + static_cast<std::ptrdiff_t>(log.size() - keep));
        }
    }
    if (result.outcome == SimWorkloadStep::Outcome::Succeeded) {
        run.workload.reset();
        complete(run);
    } else if (result.outcome == SimWorkloadStep::Outcome::Failed) {
        run.workload.reset();
        failPod(run, result.message);
    }
}

void Cluster::failPod(JobRun &run, const std::string &message)
{
    const std::string now = m_store.timestamp();
    m_scheduler->remove(run.id);
    const std::string oldPod = run.pod;
    modify(RPods, run.ns, oldPod, [&](json &pod) {
        json &status = pod["status"];
        status["phase"] = "Failed";
        status["conditions"] = json::array({condition("PodReadyToStartContainers", "False", now),
                                            condition("Initialized", "True", now),
                                            condition("Ready", "False", now, "PodFailed"),
                                            condition("ContainersReady", "False", now, "PodFailed"),
                                            condition("PodScheduled", "True", now)});
        for (json &cs : status["containerStatuses"]) {
            const std::string started = cs["state"].value("running", json::object()).value("startedAt", now);
            cs["ready"] = false;
            cs["started"] = false;
            json terminated{{"exitCode", 1},
                            {"reason", "Error"},
                            {"startedAt", started},
                            {"finishedAt", now},
                            {"containerID", cs.value("containerID", std::string())}};
            if (!message.empty()) {
                terminated["message"] = message;
            }
            cs["state"] = json{{"terminated", terminated}};
        }
    });
    // The failed pod stays (as with restartPolicy Never); deleting it later must not start another.
    m_podToJob.erase(ObjectStore::key(run.ns, oldPod));
    run.failedPods++;
    run.node.clear();
    run.gpuIndices.clear();
    run.pendingMessage.clear();
    if (run.failedPods > run.backoffLimit) {
        run.phase = JobRun::Phase::Done;
        setPodGroupStatus(run, "Failed", {}, std::nullopt);
        modify(RJobs, run.ns, run.name, [&](json &job) {
            json &status = job["status"];
            if (!status.is_object()) {
                status = json::object();
            }
            status.erase("active");
            status["ready"] = 0;
            status["failed"] = run.failedPods;
            status["conditions"] = json::array(
                {condition("FailureTarget",
                           "True",
                           now,
                           "BackoffLimitExceeded",
                           "Job has reached the specified backoff limit"),
                 condition(
                     "Failed", "True", now, "BackoffLimitExceeded", "Job has reached the specified backoff limit")});
            for (json &c : status["conditions"]) {
                c["lastProbeTime"] = now;
            }
        });
        if (const ObjectPtr job = m_store.get(RJobs, run.ns, run.name)) {
            emitEvent(job->obj(),
                      "BackoffLimitExceeded",
                      "Job has reached the specified backoff limit",
                      "Warning",
                      "job-controller");
        }
        m_dirty = true;
        return;
    }
    // The Job controller's retry: a new pod queues again.
    run.phase = JobRun::Phase::Pending;
    createPod(run);
    if (const ObjectPtr job = m_store.get(RJobs, run.ns, run.name)) {
        emitEvent(job->obj(), "SuccessfulCreate", "Created pod: " + run.pod, "Normal", "job-controller");
    }
    setPodGroupStatus(run, "Pending", {}, std::nullopt);
    setJobStatus(run, false, false);
    submitOrHold(run);
    m_dirty = true;
}

std::string Cluster::unboundClaim(const JobRun &run) const
{
    const json spec = run.podTemplate.value("spec", json::object());
    for (const json &volume : spec.value("volumes", json::array())) {
        const auto claim = volume.find("persistentVolumeClaim");
        if (claim == volume.end() || !claim->is_object()) {
            continue;
        }
        const std::string name = claim->value("claimName", std::string());
        // A claim that does not exist at all is left to the workload (the datalake loader reports
        // it itself); one that exists but is not Bound holds the pod.
        const ObjectPtr pvc = m_store.get(RPvcs, run.ns, name);
        if (pvc && pvc->obj()["status"].value("phase", std::string()) != "Bound") {
            return name;
        }
    }
    return {};
}

void Cluster::submitOrHold(JobRun &run)
{
    // The default scheduler's volume binding filter: a pod with an unbound immediate claim is
    // never placed, whatever GPUs are free.
    const std::string claim = unboundClaim(run);
    if (claim.empty()) {
        m_scheduler->submit(SchedJob{run.id, run.project, run.gpus, run.kind, 0});
        return;
    }
    run.heldForVolumes = true;
    const std::size_t nodes = m_scheduler->nodes().size();
    const std::string message = "0/" + std::to_string(nodes)
                                + " nodes are available: pod has unbound immediate PersistentVolumeClaims. "
                                  "preemption: 0/"
                                + std::to_string(nodes) + " nodes are available: " + std::to_string(nodes)
                                + " Preemption is not helpful for scheduling.";
    run.pendingMessage = message;
    const std::string now = m_store.timestamp();
    modify(RPods, run.ns, run.pod, [&](json &pod) {
        setCondition(pod["status"]["conditions"], condition("PodScheduled", "False", now, "Unschedulable", message));
    });
    setPodGroupStatus(run, "Pending", message, std::nullopt);
    if (const ObjectPtr pod = m_store.get(RPods, run.ns, run.pod)) {
        emitEvent(pod->obj(), "FailedScheduling", message, "Warning", "kai-scheduler");
    }
}

void Cluster::failImagePull(JobRun &run)
{
    // The kubelet's pull failure, then its back-off: the pod stays bound (holding its GPUs) with
    // the container waiting, as on a real node.
    if (run.pullFailures >= 2) {
        return;
    }
    ++run.pullFailures;
    const bool first = run.pullFailures == 1;
    const std::string reason = first ? "ErrImagePull" : "ImagePullBackOff";
    const std::string pullError = "rpc error: code = NotFound desc = failed to pull and unpack image \"" + run.image
                                  + "\": failed to resolve reference \"" + run.image + "\": " + run.image
                                  + ": not found";
    const std::string waitingMessage = first ? pullError : "Back-off pulling image \"" + run.image + "\"";
    modify(RPods, run.ns, run.pod, [&](json &pod) {
        for (json &c : pod["status"]["containerStatuses"]) {
            c["state"] = json{{"waiting", {{"reason", reason}, {"message", waitingMessage}}}};
        }
    });
    if (const ObjectPtr pod = m_store.get(RPods, run.ns, run.pod)) {
        json withNode = pod->obj();
        withNode["metadata"]["nodeName"] = run.node;
        if (first) {
            emitEvent(
                withNode, "Failed", "Failed to pull image \"" + run.image + "\": " + pullError, "Warning", "kubelet");
            emitEvent(withNode, "Failed", "Error: ErrImagePull", "Warning", "kubelet");
        } else {
            emitEvent(withNode, "BackOff", "Back-off pulling image \"" + run.image + "\"", "Normal", "kubelet");
            emitEvent(withNode, "Failed", "Error: ImagePullBackOff", "Warning", "kubelet");
        }
    }
}

double Cluster::baseUtil(const JobRun &run) const
{
    if (run.utilPct >= 0) {
        return run.utilPct;
    }
    const double u = unit(hashString(run.id) ^ m_options.seed);
    return run.kind == JobKind::Train ? 90.0 + 8.0 * u : 5.0 + 25.0 * u;
}

QList<DcgmGpuSample> Cluster::gpuSamples() const
{
    QList<DcgmGpuSample> out;
    const std::int64_t second = m_store.nowMs() / 1000;
    for (const NodeStatus &node : m_scheduler->nodes()) {
        const ObjectPtr nodeObject = m_store.get(RNodes, {}, node.name);
        std::string product = nodeObject ? labelOf(nodeObject->obj(), "nvidia.com/gpu.product") : std::string();
        std::replace(product.begin(), product.end(), '-', ' ');
        // NVML's name keeps the dash inside the model ("Tesla V100-SXM2-32GB").
        if (const auto space = product.find(' '); space != std::string::npos) {
            for (std::size_t i = space + 1; i < product.size(); ++i) {
                if (product[i] == ' ') {
                    product[i] = '-';
                }
            }
        }
        const std::string memText = nodeObject ? labelOf(nodeObject->obj(), "nvidia.com/gpu.memory") : std::string();
        const double totalMiB = memText.empty() ? 32768.0 : std::atof(memText.c_str());
        for (const GpuSlot &slot : node.slots) {
            DcgmGpuSample s;
            s.node = QString::fromStdString(node.name);
            s.gpu = slot.index;
            const std::uint64_t h = hashString(node.name + '#' + std::to_string(slot.index));
            char uuid[64];
            std::snprintf(uuid,
                          sizeof uuid,
                          "GPU-%08x-%04x-%04x-%04x-%012llx",
                          unsigned(h >> 32),
                          unsigned((h >> 16) & 0xffff),
                          unsigned(h & 0xffff),
                          unsigned(mix(h) & 0xffff),
                          static_cast<unsigned long long>(mix(h + 1) & 0xffffffffffffULL));
            s.uuid = QString::fromLatin1(uuid);
            s.model = QString::fromStdString(product);
            double util = 0;
            double fb = 0;
            MilliGpu largest = 0;
            bool exact = !slot.jobs.empty();
            for (const auto &[jobId, share] : slot.jobs) {
                const auto it = m_runs.find(jobId);
                if (it == m_runs.end()) {
                    continue;
                }
                const JobRun &run = *it->second;
                const double fraction = double(share) / double(kMilliPerGpu);
                exact = exact && run.utilPct >= 0;
                if (run.phase == JobRun::Phase::Running) {
                    // A job with a set utilization (sim-gpu-util) reports exactly that.
                    const double noise =
                        run.utilPct >= 0
                            ? 0.0
                            : 2.0 * unit(hashString(jobId) + std::uint64_t(second) * 7919 + std::uint64_t(slot.index))
                                  - 1.0;
                    util += std::clamp(baseUtil(run) + noise, 0.0, 100.0) * fraction;
                    const double fbShare = run.kind == JobKind::Train ? 0.78 : 0.22;
                    fb += totalMiB * fbShare * fraction;
                } else {
                    fb += 300.0 * fraction; // the CUDA context of a starting container
                }
                if (share > largest) {
                    largest = share;
                    s.pod = QString::fromStdString(run.pod);
                    s.namespace_ = QString::fromStdString(run.ns);
                    s.container = QString::fromStdString(run.name);
                }
            }
            util = std::clamp(util, 0.0, 100.0);
            s.utilPct = exact ? std::round(util * 10) / 10 : std::round(util);
            s.fbUsedMiB = std::round(std::min(fb, totalMiB));
            s.fbFreeMiB = totalMiB - s.fbUsedMiB;
            s.powerW = std::round((42.0 + 2.55 * util) * 10) / 10;
            s.tempC = std::round(34.0 + 0.42 * util);
            out.append(s);
        }
    }
    return out;
}

QJsonObject Cluster::state() const
{
    QJsonArray projects;
    for (const ProjectStatus &p : m_scheduler->projects()) {
        projects.append(QJsonObject{{QStringLiteral("name"), QString::fromStdString(p.name)},
                                    {QStringLiteral("quota"), double(p.quota) / 1000.0},
                                    {QStringLiteral("allocated"), double(p.allocated) / 1000.0},
                                    {QStringLiteral("fairShare"), double(p.fairShare) / 1000.0},
                                    {QStringLiteral("demand"), double(p.demand) / 1000.0},
                                    {QStringLiteral("running"), p.running},
                                    {QStringLiteral("queued"), p.queued}});
    }
    QJsonArray jobs;
    for (const JobStatus &j : m_scheduler->jobs()) {
        const auto it = m_runs.find(j.job.id);
        QString phase = QStringLiteral("Pending");
        if (it != m_runs.end()) {
            switch (it->second->phase) {
            case JobRun::Phase::Creating:
                phase = QStringLiteral("ContainerCreating");
                break;
            case JobRun::Phase::Running:
                phase = QStringLiteral("Running");
                break;
            case JobRun::Phase::Done:
                phase = QStringLiteral("Succeeded");
                break;
            case JobRun::Phase::Pending:
                break;
            }
        }
        QJsonArray gpus;
        for (int g : j.gpuIndices) {
            gpus.append(g);
        }
        jobs.append(QJsonObject{{QStringLiteral("id"), QString::fromStdString(j.job.id)},
                                {QStringLiteral("project"), QString::fromStdString(j.job.project)},
                                {QStringLiteral("gpus"), double(j.job.gpus) / 1000.0},
                                {QStringLiteral("phase"), phase},
                                {QStringLiteral("node"), QString::fromStdString(j.node)},
                                {QStringLiteral("gpuIndices"), gpus},
                                {QStringLiteral("preempted"), j.preempted},
                                {QStringLiteral("pendingReason"), QString::fromStdString(j.pendingReason)}});
    }
    return QJsonObject{{QStringLiteral("projects"), projects}, {QStringLiteral("jobs"), jobs}};
}

QList<KubeProjectSample> Cluster::projectSamples() const
{
    // Utilization per GPU as the exporter reports it now, keyed "node#index".
    std::map<std::string, double> utilByGpu;
    for (const DcgmGpuSample &g : gpuSamples()) {
        utilByGpu[g.node.toStdString() + '#' + std::to_string(g.gpu)] = g.utilPct;
    }
    std::map<std::string, std::pair<double, double>> weighted; // project -> (sum util x share, sum share)
    for (const JobStatus &j : m_scheduler->jobs()) {
        if (j.state != JobState::Running || j.gpuIndices.empty()) {
            continue;
        }
        const double share = double(j.job.gpus) / 1000.0 / double(j.gpuIndices.size());
        for (int index : j.gpuIndices) {
            const auto util = utilByGpu.find(j.node + '#' + std::to_string(index));
            if (util != utilByGpu.end()) {
                auto &[sum, weight] = weighted[j.job.project];
                sum += util->second * share;
                weight += share;
            }
        }
    }
    QList<KubeProjectSample> out;
    for (const ProjectStatus &p : m_scheduler->projects()) {
        KubeProjectSample s;
        s.project = QString::fromStdString(p.name);
        s.quotaMilli = p.quota;
        s.allocatedMilli = p.allocated;
        s.pendingMilli = p.pending;
        const auto it = weighted.find(p.name);
        if (it != weighted.end() && it->second.second > 0) {
            s.utilization = it->second.first / it->second.second;
        }
        out.append(s);
    }
    return out;
}

} // namespace strata::sim::kube
