#pragma once

#include "models/core/domain/records.h"

#include <QHash>
#include <QList>
#include <QString>

#include <map>
#include <optional>
#include <vector>

namespace strata::core {

/// The Run:ai / KAI project-queue allocation rules of SCHEDULING.md §3.4 (R1–R9) as a pure state
/// machine: what Strata predicts a cluster's scheduler does next. It backs the quota what-if
/// (quotawhatif.h). Written independently of the Kubernetes simulator's scheduler
/// (simulators/kubernetes/scheduler.*): the randomized test compares the two, so neither may call
/// the other.
///
/// One settle() repeats, until nothing changes:
///  1. start a pending job whose project stays within its fair share (R4);
///  2. else reclaim (R1, R3, R5, R7): a pending Train or Interactive job of a project below its
///     quota, which stays within quota and fair share, preempts the smallest set of over-quota
///     Train jobs on one node that makes room; fewest victims first, then the most recently
///     started ones; no victim project drops below min(quota, demand);
///  3. else start a job on idle GPUs beyond its fair share (R2, work-conserving).
/// Projects go furthest below their fair share first (allocated / fair share), then by name; within
/// a project the queue is FIFO with preempted jobs first (R9). Interactive (non-preemptible) jobs
/// start only while the project's non-preemptible GPUs stay within quota (R8). Placement is
/// first-fit by node name and GPU index; a fraction goes onto a partly used GPU before an empty one
/// (R6). All amounts are milli-GPUs. Deterministic; not thread-safe.
class GpuAllocator final
{
public:
    struct Node
    {
        QString name;
        int gpus = 0;          ///< physical GPUs, indices 0..gpus-1
        bool accepting = true; ///< false: not Ready or cordoned; keeps its jobs, takes no new ones
    };

    struct JobSpec
    {
        QString id;      ///< unique, "<namespace>/<name>"
        QString project; ///< a project without setQuota() behaves as quota 0
        /// Milli-GPUs: a fraction < 1000 packed in one GPU, or whole GPUs (rounded up to 1000s).
        MilliGpu gpus = 1000;
        JobType type = JobType::Train;
        quint64 submitOrder = 0; ///< FIFO order within a project; ties go by id
    };

    struct JobState
    {
        JobSpec spec;
        bool running = false;
        QString node;           ///< running only
        QList<int> indices;     ///< running only, ascending GPU indices on `node`
        quint64 startOrder = 0; ///< running only; larger = started later
        bool preempted = false; ///< paused by a reclaim and not running again yet
        QString preemptedBy;    ///< the reclaiming project while `preempted`
    };

    struct Decision
    {
        enum class Kind
        {
            Start,
            Preempt
        } kind = Kind::Start;
        QString job;
        QString node;       ///< where it starts / where it ran
        QString byProject;  ///< Preempt: the reclaiming project
        QList<int> indices; ///< the GPUs it takes / releases
    };

    struct ProjectState
    {
        QString name;
        MilliGpu quota = 0;
        MilliGpu allocated = 0; ///< running jobs
        MilliGpu demand = 0;    ///< running + pending
        MilliGpu pending = 0;
        MilliGpu fairShare = 0;
        MilliGpu nonPreemptible = 0; ///< running Interactive jobs (KAI's AllocatedNotPreemptible)
        int running = 0;
        int queued = 0;
    };

    /// Nodes in any order; they are kept in name order. Replaces earlier nodes.
    void setNodes(QList<Node> nodes);
    /// Deserved GPUs of a project (< 0 counts as 0).
    void setQuota(const QString &project, MilliGpu quota);
    /// Splits spare GPUs by KAI over-quota weights instead of by quota (R4 as TR-4858 states it):
    /// every project's weight comes from `weights`, 1 when absent. Empty = split by quota.
    void setOverQuotaWeights(QHash<QString, double> weights);
    /// Enters a pending job; false if the id exists or gpus < 0. `preempted` restores a job that a
    /// reclaim paused (it queues first, R9).
    bool submit(JobSpec spec, bool preempted = false);
    /// Enters a job already bound to `node` and `indices` (empty indices: first-fit on that node).
    /// False if the id exists, the node is unknown or the GPUs do not fit there.
    bool bind(JobSpec spec, const QString &node, QList<int> indices, quint64 startOrder);
    /// Deletes a job, freeing its GPUs; false if unknown.
    bool remove(const QString &id);

    /// Runs the rules until nothing changes; the decisions in the order they were taken.
    QList<Decision> settle();

    [[nodiscard]] const JobState *job(const QString &id) const; ///< nullptr if unknown
    [[nodiscard]] QList<JobState> jobs() const;                 ///< submit order
    [[nodiscard]] QList<ProjectState> projects() const;         ///< name order
    [[nodiscard]] MilliGpu capacity() const;                    ///< accepting nodes' GPUs
    /// Why a pending job waits, one sentence; empty when it runs or is unknown.
    [[nodiscard]] QString pendingReason(const QString &id) const;
    /// pendingReason() of every pending job, by id (one pass: for listing them all).
    [[nodiscard]] QHash<QString, QString> pendingReasons() const;

private:
    struct Slot
    {
        std::vector<MilliGpu> used; ///< per GPU index, 0..1000
    };
    struct Placement
    {
        int node = -1;
        QList<int> indices;
    };
    std::map<QString, ProjectState> tally() const;
    /// Pending jobs per project, each in queue order (R9).
    std::map<QString, std::vector<const JobState *>> queues() const;
    static QString reasonFor(const JobState &state, const std::map<QString, ProjectState> &projects);
    std::optional<Placement> findPlacement(MilliGpu need) const;
    bool startNext(bool withinFairShare, QList<Decision> &out);
    bool reclaimNext(QList<Decision> &out);
    void occupy(JobState &job, int node, QList<int> indices, QList<Decision> *out);
    void release(JobState &job);

    QList<Node> m_nodes;       // name order
    std::vector<Slot> m_slots; // parallel to m_nodes
    std::map<QString, MilliGpu> m_quotas;
    QHash<QString, double> m_weights;
    std::map<QString, JobState> m_jobs;
    quint64 m_nextStart = 1;
};

/// Shares a GPU job takes on each of its GPUs: the fraction itself, or 1000 per whole GPU.
MilliGpu perGpuShare(MilliGpu gpus);

} // namespace strata::core
