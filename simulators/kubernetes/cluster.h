#pragma once

#include "simulators/kubernetes/kubesimulator.h"

#include <QJsonObject>
#include <QList>

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace strata::sim::kube {

/// UTF-8 bytes of `s`, for the simulator's nlohmann::json documents.
inline std::string toStd(const QString &s)
{
    return s.toStdString();
}

class ObjectStore;
class Scheduler;
struct DcgmGpuSample;
struct StoreEvent;

/// The Job manifest of `spec` (see KubeSimulator::jobManifest).
nlohmann::json jobManifestJson(const KubeJobSpec &spec);

/// The controllers of the simulated cluster, reacting to the store like real controllers react to
/// their informers: the Job controller (one pod per Job, a new pod after a preemption or a deleted
/// pod, completion), KAI's podgrouper (a PodGroup per Job) and scheduler (scheduler.h; queues from
/// Queue objects, nodes from Node objects) with the kubelet's pod lifecycle on the simulated clock
/// (Pending -> ContainerCreating -> Running -> Succeeded), Events, and GPU utilisation samples.
///
/// Reactions to API changes are deferred: observe() notes them and calls `requestReconcile` once;
/// reconcile() (and tick(), which reconciles first) applies them. Not thread-safe.
class Cluster final
{
public:
    Cluster(ObjectStore &store, const KubeSimulatorOptions &options, std::function<void()> requestReconcile);
    ~Cluster();
    Cluster(const Cluster &) = delete;
    Cluster &operator=(const Cluster &) = delete;

    /// Fills the store with the options' preset (scale pods without the scheduler).
    void buildPreset();
    /// Defaults a new object gets before it is stored (status.phase of pods and namespaces, ...).
    void admit(int resource, nlohmann::json &object) const;
    /// Notes a change made through the API (or by the cluster itself; those are ignored).
    void observe(const StoreEvent &event);
    /// Applies noted changes and runs a scheduling cycle if anything changed.
    void reconcile();
    /// Simulated time moved forward to the store's now: lifecycle, completion, scheduling.
    void tick();
    /// One sample per GPU of every node, for the DCGM exporter.
    [[nodiscard]] QList<DcgmGpuSample> gpuSamples() const;
    /// Scheduler state for /_sim/state.
    [[nodiscard]] QJsonObject state() const;
    /// Per project at simulated now (see KubeProjectSample).
    [[nodiscard]] QList<KubeProjectSample> projectSamples() const;
    /// Asked for every pod created from now on (see SimWorkloadRunner).
    void setWorkloadRunner(SimWorkloadRunner runner) { m_runner = std::move(runner); }
    /// Log lines of a pod ("<ns>/<pod>"), nullptr when it printed nothing (or is unknown).
    [[nodiscard]] const std::vector<std::string> *podLog(const std::string &key) const;

private:
    struct JobRun;

    void syncNodes();
    void syncQueue(const nlohmann::json &queue, bool deleted);
    void onJobAdded(const nlohmann::json &job);
    void onJobDeleted(const std::string &id);
    void onPodDeleted(const nlohmann::json &pod);
    void createPod(JobRun &run);
    void createPodGroup(const JobRun &run, const nlohmann::json &job);
    void schedule();
    void bind(JobRun &run, const std::string &node, const std::vector<int> &gpus);
    void preempt(JobRun &run, const std::string &byProject);
    void updatePending();
    void startRunning(JobRun &run);
    void complete(JobRun &run);
    /// The run's current pod exited non-zero: retry with a new pod or fail the Job (backoffLimit).
    void failPod(JobRun &run, const std::string &message);
    void stepWorkload(JobRun &run, std::int64_t nowMs);
    void setPodGroupStatus(const JobRun &run,
                           const std::string &phase,
                           const std::string &pendingMessage,
                           std::optional<std::string> evictedMessage);
    void setJobStatus(const JobRun &run, bool running, bool succeeded);
    void emitEvent(const nlohmann::json &involved,
                   const std::string &reason,
                   const std::string &message,
                   const std::string &type = "Normal",
                   const std::string &component = "kai-scheduler");
    /// Modifies a stored object in place through `fn` (no-op if it is gone); returns false if gone.
    bool modify(int resource,
                const std::string &ns,
                const std::string &name,
                const std::function<void(nlohmann::json &)> &fn);
    double baseUtil(const JobRun &run) const;
    /// The first claim the run's pod mounts that exists but is not Bound, empty when none.
    [[nodiscard]] std::string unboundClaim(const JobRun &run) const;
    /// Gives the run to the scheduler, or holds it Unschedulable while a claim is unbound.
    void submitOrHold(JobRun &run);
    /// The kubelet failing to pull the run's image (ErrImagePull, then ImagePullBackOff).
    void failImagePull(JobRun &run);

    ObjectStore &m_store;
    const KubeSimulatorOptions &m_options;
    std::function<void()> m_requestReconcile;
    std::unique_ptr<Scheduler> m_scheduler;
    std::map<std::string, std::unique_ptr<JobRun>> m_runs; ///< by "<ns>/<job>"
    std::map<std::string, std::string> m_podToJob;         ///< "<ns>/<pod>" -> job id
    std::vector<std::unique_ptr<nlohmann::json>> m_pendingJobs;
    std::set<std::string> m_deletedJobs;
    std::vector<std::unique_ptr<nlohmann::json>> m_deletedPods;
    std::vector<std::pair<std::string, bool>> m_queueEvents; ///< (queue name, deleted)
    bool m_nodesDirty = false;
    bool m_dirty = false;
    bool m_reconcileRequested = false;
    int m_selfDepth = 0; ///< > 0 while the cluster itself writes (its own events are not observed)
    std::deque<std::pair<std::string, std::string>> m_events; ///< (namespace, name), oldest first
    SimWorkloadRunner m_runner;
    std::map<std::string, std::vector<std::string>> m_podLogs; ///< "<ns>/<pod>" -> lines
};

} // namespace strata::sim::kube
