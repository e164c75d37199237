#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace strata::sim::kube {

/// GPU amounts in milli-GPUs (1000 = one physical GPU), so 0.6 + 0.4 == 1 exactly.
using MilliGpu = std::int64_t;
inline constexpr MilliGpu kMilliPerGpu = 1000;

/// "0.6", "2", "3.5", "0.33": up to two decimals, trailing zeros dropped (rounded half up).
std::string formatGpus(MilliGpu amount);

/// Train = preemptible (KAI priority class `train`), Interactive = non-preemptible (`build`).
/// Interactive jobs only start within their project's quota (SCHEDULING.md R8).
enum class JobKind
{
    Train,
    Interactive
};

struct SchedNode
{
    std::string name;
    int gpus = 8; ///< physical GPUs, indices 0..gpus-1
};

/// A job as submitted. A job is one pod: all its GPUs sit on one node (R6).
struct SchedJob
{
    std::string id;       ///< "<namespace>/<name>", unique
    std::string project;  ///< queue name; an unknown project behaves as quota 0
    MilliGpu gpus = 1000; ///< whole GPUs (multiples of 1000; larger values are rounded up to whole
                          ///< GPUs), a fraction < 1000 (packed inside one GPU), or 0 (no GPU)
    JobKind kind = JobKind::Train;
    std::uint64_t submitSeq = 0; ///< FIFO order within a project; 0 = assigned by submit()
};

enum class JobState
{
    Pending,
    Running ///< bound to a node and GPUs (the simulator adds ContainerCreating on top)
};

struct JobStatus
{
    SchedJob job;
    JobState state = JobState::Pending;
    std::string node;            ///< Running only
    std::vector<int> gpuIndices; ///< Running only: physical GPU indices on `node`, ascending
    /// True from a preemption until the job runs again; `preemptedBy` is the reclaiming project.
    bool preempted = false;
    std::string preemptedBy;
    /// Pending only, human readable, one of:
    ///   "preempted by <project> reclaiming its quota" (kept while `preempted`)
    ///   "project <p> is at or over its fair share (<alloc>/<fairshare> GPUs)"
    ///   "Non-preemptible workload is over quota. Workload requested <g> GPUs, but <p> quota is <q>
    ///   GPUs, while <n> GPUs are already allocated for non-preemptible pods. Use a preemptible
    ///   workload to go over quota." (KAI's own wording; <n> counts only the project's running
    ///   interactive jobs, SCHEDULING.md R8)
    ///   "no node has <N> free GPUs together" (whole GPUs) / "no GPU has <f> free" (fractions)
    std::string pendingReason;
    std::uint64_t startSeq = 0; ///< Running only: increases with every start (newer = larger)
    int preemptions = 0;        ///< how many times this job was preempted
};

/// One thing the cycle did, in order: victims' Preempt decisions come before the Start they made room for.
struct Decision
{
    enum class Kind
    {
        Start,
        Preempt
    } kind = Kind::Start;
    std::string jobId;
    std::string node;            ///< Start: where it was bound; Preempt: where it ran
    std::string byProject;       ///< Preempt: the reclaiming project
    std::vector<int> gpuIndices; ///< Start: the GPUs it got; Preempt: the GPUs it released
};

/// Per project (queue). All amounts in milli-GPUs.
struct ProjectStatus
{
    std::string name;
    MilliGpu quota = 0;     ///< guaranteed ("deserved") GPUs
    MilliGpu allocated = 0; ///< sum of running jobs
    MilliGpu demand = 0;    ///< running + pending
    MilliGpu fairShare = 0; ///< water-filling share (R4), see Scheduler
    MilliGpu pending = 0;   ///< sum of pending jobs
    int running = 0;        ///< running job count
    int queued = 0;         ///< pending job count ("Workloads Queued")
};

struct GpuSlot
{
    int index = 0;
    MilliGpu used = 0;                                  ///< 0..1000
    std::vector<std::pair<std::string, MilliGpu>> jobs; ///< (job id, share of this GPU), start order
};

struct NodeStatus
{
    std::string name;
    int gpus = 0;
    MilliGpu allocated = 0;
    std::vector<GpuSlot> slots; ///< one per physical GPU, index order
};

/// The Run:ai-style GPU scheduler of the Kubernetes simulator (SCHEDULING.md 3.4, rules R1-R9).
///
/// Each schedule() cycle repeats, until nothing changes:
///  1. start a pending job whose project stays within its fair share (alloc + g <= fairShare);
///  2. otherwise reclaim: a pending job of a project that stays within its quota (R1) and fair share
///     (R5) preempts the smallest set of over-quota Train jobs on one node (R3, R7);
///  3. otherwise start a job on idle GPUs beyond its fair share (work-conserving, R2).
/// Among projects the one furthest below its fair share (allocated/fairShare) goes first, then name;
/// within a project the queue is FIFO with preempted jobs first (R9), and a job that does not fit
/// does not block smaller ones behind it. Placement is first-fit by node name and GPU index;
/// fractions go onto a partially used GPU before an empty one.
///
/// Fair share (R4): fs = min(demand, quota), then the spare capacity (total GPUs - sum fs) is split
/// among projects with unmet demand in proportion to quota, capped at their demand, until none is
/// left. Deterministic; not thread-safe.
class Scheduler final
{
public:
    /// Replaces the node list. Jobs on a node that disappears (or on a GPU index it no longer has)
    /// go back to Pending (not marked preempted).
    void setNodes(std::vector<SchedNode> nodes);
    /// Adds a project or changes its quota (milli-GPUs, >= 0). Takes effect on the next schedule().
    void setProject(const std::string &name, MilliGpu quota);
    /// Forgets the project's quota; its jobs stay and behave as quota 0.
    void removeProject(const std::string &name);
    /// Enters the job as Pending. False (and ignored) if the id exists or gpus < 0.
    bool submit(SchedJob job);
    /// Deletes or finishes a job, freeing its GPUs. False if unknown.
    bool remove(const std::string &jobId);

    /// One full cycle (reclaim and place until stable); the decisions in the order they were taken.
    std::vector<Decision> schedule();

    /// nullptr if unknown. Valid until the next non-const call.
    const JobStatus *job(const std::string &id) const;
    std::vector<JobStatus> jobs() const;                              ///< submit order
    std::vector<std::string> queue(const std::string &project) const; ///< pending job ids, queue order
    std::vector<ProjectStatus> projects() const;                      ///< name order, incl. projects only jobs name
    std::vector<NodeStatus> nodes() const;                            ///< name order
    MilliGpu totalGpus() const;                                       ///< sum over nodes, milli-GPUs

    struct Occupancy; // per-node GPU usage snapshot, defined in scheduler.cpp

private:
    struct ProjectCalc
    {
        MilliGpu quota = 0, allocated = 0, demand = 0, fairShare = 0, pending = 0;
        /// Running interactive (non-preemptible) jobs only: KAI's AllocatedNotPreemptible.
        MilliGpu nonPreemptible = 0;
        int running = 0, queued = 0;
    };
    std::map<std::string, ProjectCalc> calcProjects() const;
    Occupancy occupancy() const;
    std::vector<JobStatus *> pendingInQueueOrder(const std::string &project);
    bool startOne(bool withinFairShare, std::vector<Decision> &out);
    bool reclaimOne(std::vector<Decision> &out);
    void start(JobStatus &job, const std::string &node, std::vector<int> indices, std::vector<Decision> &out);
    void refreshReasons();

    std::vector<SchedNode> m_nodes; // sorted by name
    std::map<std::string, MilliGpu> m_quotas;
    std::map<std::string, JobStatus> m_jobs;
    std::uint64_t m_nextSubmitSeq = 1;
    std::uint64_t m_nextStartSeq = 1;
};

} // namespace strata::sim::kube
