#pragma once

#include "connectors/kubernetes/dto.h"
#include "connectors/prometheus/dcgm.h"
#include "models/core/estate.h"

#include <QHash>

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

/// Internal to the model layer (KubernetesSource and its tests): turns the Kubernetes objects a
/// source keeps current into Strata's compute records.
namespace strata::core::kube {

/// Everything one Kubernetes source knows, keyed by objectKey() ("ns/name" or "name"). Owned by
/// the source's cache under its mutex; build() reads a consistent copy.
struct ClusterCache
{
    std::map<std::string, kubernetes::NodeDto> nodes;
    std::unordered_map<std::string, kubernetes::PodDto> pods;
    std::unordered_map<std::string, kubernetes::JobDto> jobs;
    std::map<std::string, kubernetes::QueueDto> queues;
    std::unordered_map<std::string, kubernetes::PodGroupDto> podGroups;
    std::map<std::string, kubernetes::ResourceQuotaDto> quotas;
    std::map<std::string, kubernetes::NamespaceDto> namespaces;
    std::map<std::string, kubernetes::PvcDto> pvcs;
    std::map<std::string, kubernetes::PvDto> pvs;
    std::vector<prometheus::GpuMetrics> gpuMetrics;
    bool metricsAvailable = false;
    bool hasKai = false; ///< scheduling.run.ai/v2 queues are served
    std::string version; ///< "v1.34.1"
};

/// A storage volume a PVC may resolve to (from the estate's ONTAP volumes), by volume name.
struct StorageVolumeRef
{
    QString source;
    QString id;
};

/// GPUs below this utilization (%) count as idle while allocated.
inline constexpr double kIdleUtilizationPct = 10.0;

/// Builds the compute publish of `source` from `cache` at `now` (UTC). `storageByName` maps a
/// backend volume name (Trident internalName, NFS export leaf) to a known storage volume.
/// `previous` (optional) lets unchanged records keep their shared pointer, so the estate's diff
/// short-circuits on pointer equality.
ComputePublish build(const QString &source,
                     const ClusterCache &cache,
                     const QHash<QString, StorageVolumeRef> &storageByName,
                     const QDateTime &now,
                     const ComputePublish *previous = nullptr);

/// Project name of a namespace by Run:ai's convention ("runai-team-a" -> "team-a"), else empty.
QString projectOfNamespace(const QString &namespaceName);
/// Namespace a project's jobs run in ("team-a" -> "runai-team-a").
QString namespaceOfProject(const QString &project);

/// RFC 3339 text to UTC QDateTime (invalid when empty or malformed).
QDateTime parseTime(const std::string &text);

} // namespace strata::core::kube
