#pragma once

#include "connectors/kubernetes/dto.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

/// What parsePod() reads from a Pod, before the rules that turn it into a PodDto (job name,
/// GPUs, sub-paths, first waiting container ...). Both decoders fill it, the DOM one from an
/// nlohmann::json object (dto.cpp) and the streaming one straight from the text (podstream.cpp),
/// and both finish with finishPod(), so the rules exist once.
namespace strata::kubernetes {

/// A volume mount: name and subPath ("" when absent).
using PodMountParts = std::pair<std::string, std::string>;

/// One spec.containers[] entry that is a JSON object.
struct PodContainerParts
{
    std::string image;
    std::vector<std::string> command, args;
    /// resources.limits["nvidia.com/gpu"] in milli-GPUs, -1 when absent or not a quantity.
    std::int64_t gpuLimitMilli = -1;
    /// resources.requests["nvidia.com/gpu"] in milli-GPUs, 0 when absent or not a quantity.
    std::int64_t gpuRequestMilli = 0;
    std::vector<PodMountParts> mounts; ///< volumeMounts[], in order
};

/// One status.containerStatuses[] entry; a state that is absent (or not an object) is nullopt.
struct PodContainerStatusParts
{
    std::optional<std::pair<std::string, std::string>> waiting; ///< state.waiting reason, message
    std::optional<std::string> terminatedReason;                ///< state.terminated.reason
    std::optional<std::string> lastTerminatedReason;            ///< lastState.terminated.reason
    std::optional<std::int64_t> lastExitCode;                   ///< lastState.terminated.exitCode (an integer)
};

/// A pod spec (a Pod's, or a Job's pod template's).
struct PodSpecParts
{
    std::string nodeName, priorityClassName, schedulerName;
    std::vector<PodContainerParts> containers;
    /// volumeMounts of each spec.initContainers[] entry (only mounts are read from them).
    std::vector<std::vector<PodMountParts>> initContainerMounts;
    /// spec.volumes[] that name a persistentVolumeClaim.claimName: volume name, claim name.
    std::vector<std::pair<std::string, std::string>> claimVolumes;
};

struct PodParts
{
    ObjectMeta meta;
    /// name of the first metadata.ownerReferences[] of kind Job (may be ""), nullopt when none.
    std::optional<std::string> ownerJobName;
    PodSpecParts spec;
    std::string phase, startTime;
    std::vector<PodContainerStatusParts> containerStatuses;
    /// status.conditions[] entries that are objects (finishPod drops those without a type).
    std::vector<Condition> conditions;
};

/// The PodDto parsePod() returns for a Pod read into `parts`.
PodDto finishPod(PodParts &&parts);

} // namespace strata::kubernetes
