#include "simulators/kubernetes/resources.h"

#include <algorithm>

namespace strata::sim::kube {

bool ResourceInfo::servesVersion(const std::string &v) const
{
    return v == version || std::find(extraVersions.begin(), extraVersions.end(), v) != extraVersions.end();
}

const std::vector<ResourceInfo> &resourceTable()
{
    // Short names and categories as a 1.32 API server and the CRD manifests (KAI, external-snapshotter)
    // declare them.
    static const std::vector<ResourceInfo> table = {
        {"", "v1", "namespaces", "namespace", "Namespace", false, {"ns"}, {}, {}},
        {"", "v1", "nodes", "node", "Node", false, {"no"}, {}, {}},
        {"", "v1", "pods", "pod", "Pod", true, {"po"}, {"all"}, {}},
        {"", "v1", "events", "event", "Event", true, {"ev"}, {}, {}},
        {"", "v1", "resourcequotas", "resourcequota", "ResourceQuota", true, {"quota"}, {}, {}},
        {"", "v1", "persistentvolumeclaims", "persistentvolumeclaim", "PersistentVolumeClaim", true, {"pvc"}, {}, {}},
        {"", "v1", "persistentvolumes", "persistentvolume", "PersistentVolume", false, {"pv"}, {}, {}},
        {"batch", "v1", "jobs", "job", "Job", true, {}, {"all"}, {}},
        {"storage.k8s.io", "v1", "storageclasses", "storageclass", "StorageClass", false, {"sc"}, {}, {}},
        {"snapshot.storage.k8s.io", "v1", "volumesnapshots", "volumesnapshot", "VolumeSnapshot", true, {"vs"}, {}, {}},
        // KAI's CRDs (deployments/kai-scheduler/crds/scheduling.run.ai_{queues,podgroups}.yaml):
        // queues only in v2 and without a short name, podgroups only in v2alpha2. A client that
        // reads podgroups under v2 because queues live there gets 404, as from a real cluster.
        {"scheduling.run.ai", "v2", "queues", "queue", "Queue", false, {}, {}, {}},
        {"scheduling.run.ai", "v2alpha2", "podgroups", "podgroup", "PodGroup", true, {"pg"}, {}, {}},
        {"", "v1", "configmaps", "configmap", "ConfigMap", true, {"cm"}, {}, {}},
        {"", "v1", "secrets", "secret", "Secret", true, {}, {}, {}},
    };
    return table;
}

int findResource(const std::string &group, const std::string &version, const std::string &plural)
{
    const auto &table = resourceTable();
    for (std::size_t i = 0; i < table.size(); ++i) {
        if (table[i].group == group && table[i].plural == plural && table[i].servesVersion(version)) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

} // namespace strata::sim::kube
