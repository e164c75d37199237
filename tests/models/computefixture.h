#pragma once

// Synthetic compute estates from TR-4858 (SCHEDULING.md 3.5): two DGX-1 nodes with 8 V100
// each, projects team-a..d with quotas 4/2/2/8, and the jobs of §4.8 (13 jobs, 16/16 GPUs,
// fractional b-1-g06 0.6 + b-2-g04 0.4 on one GPU) or the §4.10 end state (team-d deleted,
// a 8/4, b 4/2, c 4/2, d 0/8, b-5-gg and c-6-gg queued). Shared by models_tests and
// views_tests.

#include "models/core/domain/estate.h"
#include "models/core/domain/records.h"

#include <QDateTime>

#include <map>
#include <memory>
#include <vector>

namespace strata::testsupport {

inline const QString kCluster = QStringLiteral("k8s-ai");

/// The fixed "now" of the fixtures.
inline QDateTime computeNow()
{
    return QDateTime(QDate(2026, 3, 2), QTime(12, 0), Qt::UTC);
}

struct JobDef
{
    QString name;
    QString project;
    core::MilliGpu gpus;
    core::JobType type;
    QString node;          ///< empty = queued
    QList<int> gpuIndices; ///< physical GPUs on the node
    core::JobStatus status = core::JobStatus::Running;
    QString pendingReason;
    QString failureReason; ///< the kubelet's word when its container cannot run
};

/// A job bound to `node` on the physical GPUs `gpus`.
inline JobDef runningJob(const QString &name,
                         const QString &project,
                         core::MilliGpu milli,
                         core::JobType type,
                         const QString &node,
                         QList<int> gpus)
{
    return JobDef{name, project, milli, type, node, std::move(gpus), core::JobStatus::Running, {}, {}};
}

/// A job waiting for GPUs (Pending or Preempted) with its pending reason.
inline JobDef queuedJob(const QString &name,
                        const QString &project,
                        core::MilliGpu milli,
                        core::JobType type,
                        core::JobStatus status = core::JobStatus::Pending,
                        const QString &reason = {})
{
    return JobDef{name, project, milli, type, {}, {}, status, reason, {}};
}

class ComputeState
{
public:
    std::vector<JobDef> jobs;
    std::map<QString, core::MilliGpu> quotas{{QStringLiteral("team-a"), 4000},
                                             {QStringLiteral("team-b"), 2000},
                                             {QStringLiteral("team-c"), 2000},
                                             {QStringLiteral("team-d"), 8000}};
    QStringList pvcClaims{QStringLiteral("data")}; ///< one PVC per project namespace

    /// Publishes the state into `estate` as source kCluster.
    void publish(core::Estate &estate) const { estate.publishCompute(kCluster, build()); }

    [[nodiscard]] core::ComputePublish build() const
    {
        const QDateTime now = computeNow();
        std::vector<core::Ptr<core::Job>> jobList;
        std::map<QString, std::map<int, core::GpuSlot>> slots; // node -> index -> slot
        for (const QString &node : {QStringLiteral("dgx1-1"), QStringLiteral("dgx1-2")}) {
            for (int i = 0; i < 8; ++i) {
                slots[node][i].index = i;
            }
        }
        int seq = 0;
        for (const JobDef &d : jobs) {
            core::Job j;
            j.source = kCluster;
            j.namespaceName = QStringLiteral("runai-") + d.project;
            j.name = d.name;
            j.id = j.namespaceName + QLatin1Char('/') + d.name;
            j.project = d.project;
            j.user = QStringLiteral("john");
            j.type = d.type;
            j.status = d.node.isEmpty() ? (d.status == core::JobStatus::Running ? core::JobStatus::Pending : d.status)
                                        : d.status;
            j.gpusRequested = d.gpus;
            j.image = QStringLiteral("gcr.io/run-ai-demo/quickstart");
            j.created = now.addSecs(-3600 + 60 * seq++);
            j.createdByCli = true;
            j.createdBy = QStringLiteral("cli");
            j.pvcs = pvcClaims;
            j.podName = d.name + QStringLiteral("-pod");
            j.pendingReason = d.pendingReason;
            j.failureReason = d.failureReason;
            if (!d.node.isEmpty()) {
                j.node = d.node;
                j.gpusAllocated = d.gpus;
                j.started = j.created.addSecs(5);
                QStringList indices;
                for (int i : d.gpuIndices) {
                    indices << QString::number(i);
                    core::GpuSlot &slot = slots[d.node][i];
                    const core::MilliGpu share = d.gpus < 1000 ? d.gpus : 1000;
                    slot.used += share;
                    slot.jobs << d.name + QLatin1Char(' ') + core::formatGpus(share);
                    slot.utilization = 50;
                }
                j.gpuIndices = indices.join(QLatin1Char(','));
                j.gpuUtilization = 50;
            }
            jobList.push_back(std::make_shared<const core::Job>(j));
        }

        std::vector<core::Ptr<core::GpuNode>> nodeList;
        core::MilliGpu clusterAllocated = 0;
        for (const auto &[name, bySlot] : slots) {
            core::GpuNode n;
            n.source = kCluster;
            n.id = n.name = name;
            n.gpuProduct = QStringLiteral("Tesla-V100-SXM2-32GB");
            n.gpuMemoryMiB = 32768;
            n.gpuCount = 8;
            n.allocatable = 8000;
            n.ready = true;
            for (const auto &[index, slot] : bySlot) {
                n.slots << slot;
                n.allocated += slot.used;
            }
            n.utilization = n.allocated > 0 ? 50 : 0;
            clusterAllocated += n.allocated;
            nodeList.push_back(std::make_shared<const core::GpuNode>(n));
        }

        std::vector<core::Ptr<core::Project>> projectList;
        QList<core::MilliGpu> quota, demand;
        for (const auto &[name, q] : quotas) {
            quota << q;
            core::MilliGpu d = 0;
            for (const JobDef &j : jobs) {
                d += j.project == name ? j.gpus : 0;
            }
            demand << d;
        }
        const QList<core::MilliGpu> shares = core::fairShares(16000, quota, demand);
        int running = 0, pending = 0;
        qsizetype pi = 0;
        for (const auto &[name, q] : quotas) {
            core::Project p;
            p.source = kCluster;
            p.id = p.name = name;
            p.namespaceName = QStringLiteral("runai-") + name;
            p.quota = q;
            for (const JobDef &j : jobs) {
                if (j.project != name) {
                    continue;
                }
                if (j.node.isEmpty()) {
                    p.pending += j.gpus;
                    ++p.queuedJobs;
                    ++pending;
                } else {
                    p.allocated += j.gpus;
                    ++p.runningJobs;
                    ++running;
                }
            }
            p.inQuota = std::min(p.allocated, p.quota);
            p.overQuota = std::max<core::MilliGpu>(0, p.allocated - p.quota);
            p.fairShare = shares.value(pi++);
            p.utilization = p.allocated > 0 ? 50 : -1;
            projectList.push_back(std::make_shared<const core::Project>(p));
        }

        std::vector<core::Ptr<core::Pvc>> pvcList;
        for (const auto &[name, q] : quotas) {
            for (const QString &claim : pvcClaims) {
                core::Pvc v;
                v.source = kCluster;
                v.namespaceName = QStringLiteral("runai-") + name;
                v.name = claim;
                v.id = v.namespaceName + QLatin1Char('/') + claim;
                v.phase = QStringLiteral("Bound");
                v.storageClass = QStringLiteral("ontap-ai");
                v.capacityBytes = 100LL << 30;
                v.accessModes = QStringLiteral("RWX");
                v.pvName = QStringLiteral("pvc-") + name;
                v.csiDriver = QStringLiteral("csi.trident.netapp.io");
                v.backendVolume = QStringLiteral("trident_pvc_") + name;
                v.storageSource = QStringLiteral("ontap-ai");
                v.storageVolumeId = QStringLiteral("uuid-") + name;
                pvcList.push_back(std::make_shared<const core::Pvc>(v));
            }
        }

        core::GpuCluster c;
        c.source = c.id = kCluster;
        c.name = QStringLiteral("dgx-cluster");
        c.version = QStringLiteral("v1.34.1");
        c.hasKai = true;
        c.nodeCount = 2;
        c.gpuNodeCount = 2;
        c.gpuTotal = 16000;
        c.gpuAllocated = clusterAllocated;
        for (const auto &[name, q] : quotas) {
            c.quotaTotal += q;
        }
        c.runningJobs = running;
        c.pendingJobs = pending;
        c.utilization = 50;
        c.metricsAvailable = true;

        core::ComputePublish out;
        out.clusters = std::make_shared<const core::KeyedList<core::GpuCluster>>(
            std::vector<core::Ptr<core::GpuCluster>>{std::make_shared<const core::GpuCluster>(c)});
        out.nodes = std::make_shared<const core::KeyedList<core::GpuNode>>(std::move(nodeList));
        out.projects = std::make_shared<const core::KeyedList<core::Project>>(std::move(projectList));
        out.jobs = std::make_shared<const core::KeyedList<core::Job>>(std::move(jobList));
        out.pvcs = std::make_shared<const core::KeyedList<core::Pvc>>(std::move(pvcList));
        return out;
    }
};

/// §4.8 after 13 submits: a 4/4, b 4/2, c 4/2, d 4/8 (16/16).
inline ComputeState state48()
{
    using core::JobType;
    const QString n1 = QStringLiteral("dgx1-1"), n2 = QStringLiteral("dgx1-2");
    ComputeState s;
    s.jobs = {
        runningJob(QStringLiteral("a-1-1-jupyter"), QStringLiteral("team-a"), 1000, JobType::Interactive, n1, {0}),
        runningJob(QStringLiteral("a-1-g"), QStringLiteral("team-a"), 1000, JobType::Train, n1, {1}),
        runningJob(QStringLiteral("a-2-gg"), QStringLiteral("team-a"), 2000, JobType::Train, n1, {2, 3}),
        runningJob(QStringLiteral("b-1-g06"), QStringLiteral("team-b"), 600, JobType::Interactive, n1, {4}),
        runningJob(QStringLiteral("b-2-g04"), QStringLiteral("team-b"), 400, JobType::Interactive, n1, {4}),
        runningJob(QStringLiteral("b-3-g"), QStringLiteral("team-b"), 1000, JobType::Train, n1, {5}),
        runningJob(QStringLiteral("b-4-gg"), QStringLiteral("team-b"), 2000, JobType::Train, n1, {6, 7}),
        runningJob(QStringLiteral("c-1-g05"), QStringLiteral("team-c"), 500, JobType::Interactive, n2, {0}),
        runningJob(QStringLiteral("c-2-g03"), QStringLiteral("team-c"), 300, JobType::Interactive, n2, {0}),
        runningJob(QStringLiteral("c-3-g02"), QStringLiteral("team-c"), 200, JobType::Interactive, n2, {0}),
        runningJob(QStringLiteral("c-4-gg"), QStringLiteral("team-c"), 2000, JobType::Train, n2, {1, 2}),
        runningJob(QStringLiteral("c-5-g"), QStringLiteral("team-c"), 1000, JobType::Train, n2, {3}),
        runningJob(QStringLiteral("d-1-gggg"), QStringLiteral("team-d"), 4000, JobType::Train, n2, {4, 5, 6, 7}),
    };
    return s;
}

/// §4.9 after d-2-gg: c-4-gg was preempted (waits again), d-2-gg runs on its GPUs: d 6/8, c 2/2.
inline ComputeState state49()
{
    ComputeState s = state48();
    for (JobDef &j : s.jobs) {
        if (j.name == QLatin1String("c-4-gg")) {
            j.node.clear();
            j.gpuIndices.clear();
            j.status = core::JobStatus::Preempted;
            j.pendingReason = QStringLiteral("preempted by team-d reclaiming its quota");
        }
    }
    s.jobs.push_back(runningJob(QStringLiteral("d-2-gg"),
                                QStringLiteral("team-d"),
                                2000,
                                core::JobType::Train,
                                QStringLiteral("dgx1-2"),
                                {1, 2}));
    return s;
}

/// §4.10 after `runai delete -p team-d`: a 8/4, b 4/2, c 4/2, d 0/8; b-5-gg and c-6-gg queued.
inline ComputeState state410()
{
    using core::JobType;
    const QString n1 = QStringLiteral("dgx1-1"), n2 = QStringLiteral("dgx1-2");
    const QString fairShare = QStringLiteral("project %1 is at or over its fair share (4/4 GPUs)");
    ComputeState s;
    s.jobs = {
        runningJob(QStringLiteral("a-1-1-jupyter"), QStringLiteral("team-a"), 1000, JobType::Interactive, n1, {0}),
        runningJob(QStringLiteral("a-1-g"), QStringLiteral("team-a"), 1000, JobType::Train, n1, {1}),
        runningJob(QStringLiteral("a-2-gg"), QStringLiteral("team-a"), 2000, JobType::Train, n1, {2, 3}),
        runningJob(QStringLiteral("b-1-g06"), QStringLiteral("team-b"), 600, JobType::Interactive, n1, {4}),
        runningJob(QStringLiteral("b-2-g04"), QStringLiteral("team-b"), 400, JobType::Interactive, n1, {4}),
        runningJob(QStringLiteral("b-3-g"), QStringLiteral("team-b"), 1000, JobType::Train, n1, {5}),
        runningJob(QStringLiteral("b-4-gg"), QStringLiteral("team-b"), 2000, JobType::Train, n1, {6, 7}),
        runningJob(QStringLiteral("c-1-g05"), QStringLiteral("team-c"), 500, JobType::Interactive, n2, {0}),
        runningJob(QStringLiteral("c-2-g03"), QStringLiteral("team-c"), 300, JobType::Interactive, n2, {0}),
        runningJob(QStringLiteral("c-3-g02"), QStringLiteral("team-c"), 200, JobType::Interactive, n2, {0}),
        runningJob(QStringLiteral("c-4-gg"), QStringLiteral("team-c"), 2000, JobType::Train, n2, {1, 2}),
        runningJob(QStringLiteral("c-5-g"), QStringLiteral("team-c"), 1000, JobType::Train, n2, {3}),
        runningJob(QStringLiteral("a-3-gg"), QStringLiteral("team-a"), 2000, JobType::Train, n2, {4, 5}),
        runningJob(QStringLiteral("a-4-gg"), QStringLiteral("team-a"), 2000, JobType::Train, n2, {6, 7}),
        queuedJob(QStringLiteral("b-5-gg"),
                  QStringLiteral("team-b"),
                  2000,
                  JobType::Train,
                  core::JobStatus::Pending,
                  fairShare.arg(QStringLiteral("team-b"))),
        queuedJob(QStringLiteral("c-6-gg"),
                  QStringLiteral("team-c"),
                  2000,
                  JobType::Train,
                  core::JobStatus::Pending,
                  fairShare.arg(QStringLiteral("team-c"))),
    };
    return s;
}

} // namespace strata::testsupport
