#pragma once

#include <string>
#include <vector>

namespace strata::sim::kube {

/// One REST resource the simulated API server serves, with the discovery data kubectl needs
/// (singularName and shortNames resolve `kubectl get ns|po|pvc|q...`).
struct ResourceInfo
{
    std::string group;   ///< "" = core ("/api/v1"), else "/apis/<group>/<version>"
    std::string version; ///< preferred (storage) version, "v1", "v2"
    std::string plural;  ///< path segment, "pods"
    std::string singular;
    std::string kind; ///< "Pod"; lists are "<kind>List"
    bool namespaced = true;
    std::vector<std::string> shortNames;
    std::vector<std::string> categories; ///< "all" for `kubectl get all`
    /// Further served versions (objects are the same; apiVersion is rewritten per request).
    std::vector<std::string> extraVersions;

    /// "v1" for core, else "<group>/<version>".
    [[nodiscard]] std::string apiVersion() const { return group.empty() ? version : group + '/' + version; }
    /// "pods" for core, "jobs.batch" otherwise (how Status messages name a resource).
    [[nodiscard]] std::string qualifiedName() const { return group.empty() ? plural : plural + '.' + group; }
    [[nodiscard]] bool servesVersion(const std::string &v) const;
};

/// Indices into resourceTable(), stable for the life of the process.
enum ResourceId : int
{
    RNamespaces,
    RNodes,
    RPods,
    REvents,
    RResourceQuotas,
    RPvcs,
    RPvs,
    RJobs,
    RStorageClasses,
    RVolumeSnapshots,
    RQueues,
    RPodGroups,
    RConfigMaps,
    RSecrets,
    RResourceCount
};

/// Every served resource, indexed by ResourceId.
const std::vector<ResourceInfo> &resourceTable();
inline const ResourceInfo &resourceInfo(int id)
{
    return resourceTable()[static_cast<std::size_t>(id)];
}
/// The resource with this group and plural served at `version`, or -1.
int findResource(const std::string &group, const std::string &version, const std::string &plural);

} // namespace strata::sim::kube
