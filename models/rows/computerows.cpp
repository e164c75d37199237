#include "models/rows/computerows.h"

#include "models/core/domain/estate.h"
#include "models/core/planning/jobfields.h"
#include "models/rows/fieldrows.h"
#include "models/rows/rowsupport.h"

#include <algorithm>
#include <tuple>

namespace strata::rows {

namespace {

QVariant percentOrNull(double value)
{
    return value >= 0 ? QVariant(std::round(value * 10.0) / 10.0) : QVariant();
}

QString percentText(double value)
{
    return value >= 0 ? QString::number(value, 'f', 0) + QLatin1Char('%') : QStringLiteral("-");
}

template <class T> std::vector<core::Ptr<T>> collect(const core::Table<T> &table, const ComputeFilter &filter)
{
    std::vector<core::Ptr<T>> out;
    const QStringList scopes = table.scopes();
    for (const QString &scope : scopes) {
        if (!filter.sources.isEmpty() && !filter.sources.contains(scope)) {
            continue;
        }
        const auto list = table.scope(scope);
        out.insert(out.end(), list->items().begin(), list->items().end());
    }
    return out;
}

bool projectWanted(const ComputeFilter &filter, const QString &project)
{
    return filter.projects.isEmpty() || filter.projects.contains(project);
}

} // namespace

ResultSet clusterRows(const core::Estate &estate, const ComputeFilter &filter)
{
    auto clusters = collect(estate.gpuClusters(), filter);
    std::sort(clusters.begin(), clusters.end(), [](const auto &a, const auto &b) {
        return a->source < b->source;
    });
    return clusterRows(clusters);
}

ResultSet clusterRows(const std::vector<core::Ptr<core::GpuCluster>> &clusters)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("name"), QStringLiteral("NAME")},
                  {QStringLiteral("version"), QStringLiteral("VERSION")},
                  {QStringLiteral("kai"), QString()},
                  {QStringLiteral("nodes"), QStringLiteral("NODES")},
                  {QStringLiteral("gpu_nodes"), QString()},
                  {QStringLiteral("gpus_total"), QStringLiteral("GPUS")},
                  {QStringLiteral("gpus_allocated"), QStringLiteral("ALLOCATED")},
                  {QStringLiteral("gpus_idle_allocated"), QStringLiteral("IDLE")},
                  {QStringLiteral("quota_total"), QStringLiteral("QUOTA")},
                  {QStringLiteral("quota_matches_gpus"), QString()},
                  {QStringLiteral("running_jobs"), QStringLiteral("RUNNING")},
                  {QStringLiteral("pending_jobs"), QStringLiteral("PENDING")},
                  {QStringLiteral("utilization"), QStringLiteral("UTIL")},
                  {QStringLiteral("metrics_available"), QString()}};
    for (const auto &c : clusters) {
        QStringList display(rs.columns.size());
        display[6] = core::formatGpus(c->gpuTotal);
        display[7] = core::formatGpus(c->gpuAllocated);
        display[8] = core::formatGpus(c->gpuIdleAllocated);
        // The invariant of SCHEDULING.md 3.2.4, flagged where an admin reads the totals.
        display[9] = core::formatGpus(c->quotaTotal) + (c->quotaTotal == c->gpuTotal ? QString() : QStringLiteral("!"));
        display[13] = percentText(c->utilization);
        rs.addRow({c->source,
                   c->name,
                   c->version,
                   c->hasKai,
                   c->nodeCount,
                   c->gpuNodeCount,
                   gpuNumber(c->gpuTotal),
                   gpuNumber(c->gpuAllocated),
                   gpuNumber(c->gpuIdleAllocated),
                   gpuNumber(c->quotaTotal),
                   c->quotaTotal == c->gpuTotal,
                   c->runningJobs,
                   c->pendingJobs,
                   percentOrNull(c->utilization),
                   c->metricsAvailable},
                  display);
    }
    return rs;
}

ResultSet nodeRows(const core::Estate &estate, const ComputeFilter &filter)
{
    auto nodes = collect(estate.gpuNodes(), filter);
    std::sort(nodes.begin(), nodes.end(), [](const auto &a, const auto &b) {
        return std::tie(a->source, a->name) < std::tie(b->source, b->name);
    });
    return nodeRows(nodes);
}

ResultSet nodeRows(const std::vector<core::Ptr<core::GpuNode>> &nodes)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("name"), QStringLiteral("NAME")},
                  {QStringLiteral("ready"), QStringLiteral("READY")},
                  {QStringLiteral("schedulable"), QString()},
                  {QStringLiteral("gpu_product"), QStringLiteral("GPU")},
                  {QStringLiteral("gpu_memory_mib"), QString()},
                  {QStringLiteral("gpus"), QStringLiteral("GPUS")},
                  {QStringLiteral("gpus_allocatable"), QString()},
                  {QStringLiteral("gpus_allocated"), QStringLiteral("ALLOCATED")},
                  {QStringLiteral("running_jobs"), QStringLiteral("JOBS")},
                  {QStringLiteral("utilization"), QStringLiteral("UTIL")},
                  {QStringLiteral("gpu_slots"), QString()}};
    for (const auto &n : nodes) {
        QStringList slots;
        for (const core::GpuSlot &slot : n->slots) {
            if (!slot.jobs.isEmpty()) {
                slots << QString::number(slot.index) + QLatin1Char(':') + slot.jobs.join(QStringLiteral(" + "));
            }
        }
        QStringList display(rs.columns.size());
        display[2] = n->ready ? (n->schedulable ? QStringLiteral("Ready") : QStringLiteral("Ready,SchedulingDisabled"))
                              : QStringLiteral("NotReady");
        display[8] = core::formatGpus(n->allocated);
        display[10] = percentText(n->utilization);
        rs.addRow({n->source,
                   n->name,
                   n->ready,
                   n->schedulable,
                   n->gpuProduct,
                   n->gpuMemoryMiB,
                   n->gpuCount,
                   gpuNumber(n->allocatable),
                   gpuNumber(n->allocated),
                   n->runningJobs,
                   percentOrNull(n->utilization),
                   slots},
                  display);
    }
    return rs;
}

ResultSet projectRows(const core::Estate &estate, const ComputeFilter &filter)
{
    auto projects = collect(estate.projects(), filter);
    projects.erase(std::remove_if(projects.begin(),
                                  projects.end(),
                                  [&](const auto &p) {
                                      return !projectWanted(filter, p->name);
                                  }),
                   projects.end());
    std::sort(projects.begin(), projects.end(), [](const auto &a, const auto &b) {
        return std::tie(a->source, a->name) < std::tie(b->source, b->name);
    });
    return projectRows(projects);
}

ResultSet projectRows(const std::vector<core::Ptr<core::Project>> &projects)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("name"), QStringLiteral("NAME")},
                  {QStringLiteral("namespace"), QString()},
                  {QStringLiteral("allocated_quota"), QString()},
                  {QStringLiteral("quota"), QStringLiteral("QUOTA")},
                  {QStringLiteral("limit"), QString()},
                  {QStringLiteral("allocated"), QStringLiteral("ALLOCATED")},
                  {QStringLiteral("in_quota"), QString()},
                  {QStringLiteral("over_quota"), QStringLiteral("OVER-QUOTA")},
                  {QStringLiteral("pending"), QStringLiteral("PENDING")},
                  {QStringLiteral("fair_share"), QStringLiteral("FAIR-SHARE")},
                  {QStringLiteral("running_jobs"), QStringLiteral("RUNNING")},
                  {QStringLiteral("queued_jobs"), QStringLiteral("QUEUED")},
                  {QStringLiteral("utilization"), QStringLiteral("UTIL")},
                  {QStringLiteral("idle_allocated"), QString()}};
    // The table shows the document's allocated/quota notation in the ALLOCATED column.
    for (const auto &p : projects) {
        const QString quota = p->quota < 0 ? QStringLiteral("-") : core::formatGpus(p->quota);
        QStringList display(rs.columns.size());
        display[4] = quota;
        display[6] = core::formatGpus(p->allocated) + QLatin1Char('/') + quota;
        display[8] = core::formatGpus(p->overQuota);
        display[9] = core::formatGpus(p->pending);
        display[10] = core::formatGpus(p->fairShare);
        display[13] = percentText(p->utilization);
        rs.addRow({p->source,
                   p->name,
                   p->namespaceName,
                   display[6],
                   p->quota < 0 ? QVariant() : gpuNumber(p->quota),
                   p->limit < 0 ? QVariant() : gpuNumber(p->limit),
                   gpuNumber(p->allocated),
                   gpuNumber(p->inQuota),
                   gpuNumber(p->overQuota),
                   gpuNumber(p->pending),
                   gpuNumber(p->fairShare),
                   p->runningJobs,
                   p->queuedJobs,
                   percentOrNull(p->utilization),
                   gpuNumber(p->idleAllocated)},
                  display);
    }
    return rs;
}

ResultSet jobRows(const core::Estate &estate, const ComputeFilter &filter, const QDateTime &now)
{
    auto jobs = collect(estate.jobs(), filter);
    jobs.erase(std::remove_if(jobs.begin(),
                              jobs.end(),
                              [&](const auto &j) {
                                  return !projectWanted(filter, j->project);
                              }),
               jobs.end());
    std::sort(jobs.begin(), jobs.end(), [](const auto &a, const auto &b) {
        return std::tie(a->source, a->project, a->name) < std::tie(b->source, b->project, b->name);
    });
    return jobRows(jobs, now);
}

ResultSet jobRows(const std::vector<core::Ptr<core::Job>> &jobs, const QDateTime &now)
{
    return fieldRows(core::jobFields(), jobs, [&now](const core::Job &j) {
        return core::JobRow{j, now};
    });
}

ResultSet pvcRows(const core::Estate &estate, const ComputeFilter &filter)
{
    QStringList namespaces;
    if (!filter.projects.isEmpty()) {
        for (const auto &p : collect(estate.projects(), filter)) {
            if (filter.projects.contains(p->name) && !p->namespaceName.isEmpty()) {
                namespaces << p->namespaceName;
            }
        }
    }
    auto pvcs = collect(estate.pvcs(), filter);
    pvcs.erase(std::remove_if(pvcs.begin(),
                              pvcs.end(),
                              [&](const auto &v) {
                                  return !filter.projects.isEmpty() && !namespaces.contains(v->namespaceName);
                              }),
               pvcs.end());
    std::sort(pvcs.begin(), pvcs.end(), [](const auto &a, const auto &b) {
        return std::tie(a->source, a->namespaceName, a->name) < std::tie(b->source, b->namespaceName, b->name);
    });
    return pvcRows(pvcs);
}

ResultSet pvcRows(const std::vector<core::Ptr<core::Pvc>> &pvcs)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("namespace"), QStringLiteral("NAMESPACE")},
                  {QStringLiteral("name"), QStringLiteral("NAME")},
                  {QStringLiteral("phase"), QStringLiteral("STATUS")},
                  {QStringLiteral("capacity_bytes"), QStringLiteral("CAPACITY")},
                  {QStringLiteral("access_modes"), QStringLiteral("ACCESS")},
                  {QStringLiteral("storage_class"), QStringLiteral("STORAGECLASS")},
                  {QStringLiteral("pv"), QString()},
                  {QStringLiteral("csi_driver"), QString()},
                  {QStringLiteral("volume_handle"), QString()},
                  {QStringLiteral("backend_volume"), QStringLiteral("VOLUME")},
                  {QStringLiteral("storage_source"), QStringLiteral("STORAGE")},
                  {QStringLiteral("storage_volume_id"), QString()},
                  {QStringLiteral("used_by"), QStringLiteral("USED-BY")}};
    for (const auto &v : pvcs) {
        QStringList display(rs.columns.size());
        display[4] = core::formatBytes(v->capacityBytes);
        display[10] = v->backendVolume.isEmpty() ? QStringLiteral("-") : v->backendVolume;
        display[11] = v->storageSource.isEmpty() ? QStringLiteral("-") : v->storageSource;
        display[13] = v->usedBy.isEmpty() ? QStringLiteral("-") : v->usedBy.join(QLatin1Char(','));
        rs.addRow({v->source,
                   v->namespaceName,
                   v->name,
                   v->phase,
                   v->capacityBytes,
                   v->accessModes,
                   v->storageClass,
                   v->pvName,
                   v->csiDriver,
                   v->volumeHandle,
                   v->backendVolume,
                   v->storageSource,
                   v->storageVolumeId,
                   v->usedBy},
                  display);
    }
    return rs;
}

QStringList unknownProjects(const core::Estate &estate, const ComputeFilter &filter)
{
    QStringList known;
    for (const auto &p : collect(estate.projects(), filter)) {
        known << p->name;
    }
    QStringList unknown;
    for (const QString &name : filter.projects) {
        if (!known.contains(name)) {
            unknown << name;
        }
    }
    return unknown;
}

} // namespace strata::rows
