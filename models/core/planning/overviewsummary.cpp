#include "models/core/planning/overviewsummary.h"

#include "models/core/domain/estate.h"
#include "models/core/domain/format.h"
#include "models/core/domain/severity.h"
#include "models/core/domain/translate.h"
#include "models/core/planning/volumecapacity.h"

#include <QHash>
#include <QMap>
#include <QSet>

#include <algorithm>
#include <tuple>

namespace strata::core {

namespace {

bool anfStateOutstanding(const QString &state)
{
    return !state.isEmpty() && state.compare(QLatin1String("Succeeded"), Qt::CaseInsensitive) != 0;
}

int overviewSeverityRank(const QString &severity)
{
    return severity == QLatin1String("critical") ? 0 : severity == QLatin1String("error") ? 1 : 2;
}

} // namespace

std::vector<StorageSystemSummary> storageSystems(const Estate &estate)
{
    // Keyed by (kind, source, name) so each kind comes out ordered by source then name.
    QMap<std::tuple<int, QString, QString>, StorageSystemSummary> systems;
    QHash<QString, double> throughputOf; // volume id -> bytes/s
    for (const auto &p : estate.volumePerf().all()) {
        throughputOf.insert(p->source + QLatin1Char('/') + p->id, p->throughputBps);
    }
    const auto systemFor = [&systems](SourceKind kind, const QString &source, const QString &name) -> auto &
    {
        StorageSystemSummary &s = systems[{int(kind), source, name}];
        s.source = source;
        s.kind = kind;
        s.name = name;
        return s;
    };
    for (const auto &v : estate.volumes().all()) {
        StorageSystemSummary &s = v->isAnf() ? systemFor(SourceKind::Azure, v->source, v->svm)
                                             : systemFor(SourceKind::Ontap, v->source, v->source);
        ++s.volumes;
        if (v->usedBytes) {
            s.usedBytes = std::max<qint64>(s.usedBytes, 0) + *v->usedBytes;
            // The same denominator as each volume's % used: its active file system.
            s.capacityBytes = std::max<qint64>(s.capacityBytes, 0) + volumeCapacity(*v).usableBytes;
        } else {
            ++s.volumesWithoutSpace;
        }
        if (const auto it = throughputOf.constFind(v->source + QLatin1Char('/') + v->id); it != throughputOf.cend()) {
            s.throughputBps = std::max(s.throughputBps, 0.0) + *it;
        }
        if (v->state == QLatin1String("online")
            && volumeCapacity(*v).percentUsed.value_or(0.0) >= kVolumeNearFullPercent) {
            ++s.nearFullVolumes;
        }
        if (v->isAnf() && anfStateOutstanding(v->provisioningState)) {
            ++s.notProvisioned;
        }
    }
    for (const auto &pool : estate.capacityPools().all()) {
        StorageSystemSummary &s = systemFor(SourceKind::Azure, pool->source, pool->account);
        ++s.pools;
        s.poolSizeBytes += pool->sizeBytes;
        s.poolAllocatedBytes += pool->allocatedBytes;
        if (anfStateOutstanding(pool->provisioningState)) {
            ++s.notProvisioned;
        }
    }
    for (const auto &g : estate.gridSummaries().all()) {
        StorageSystemSummary &s =
            systemFor(SourceKind::StorageGrid, g->source, g->gridName.isEmpty() ? g->source : g->gridName);
        s.usedBytes = g->usedBytes;
        s.capacityBytes = g->usableBytes;
        s.nodesConnected = g->nodesConnected;
        s.nodesDown = g->nodesAdminDown;
        s.nodesUnknown = g->nodesUnknown;
        s.alertsCritical = g->alertsCritical;
        s.alertsMajor = g->alertsMajor;
        s.alertsMinor = g->alertsMinor;
    }
    return {systems.cbegin(), systems.cend()};
}

QString storageSystemHealth(const StorageSystemSummary &system)
{
    QStringList parts;
    const auto count = [](int n, const char *one, const char *many) {
        return (n == 1 ? tr(one) : tr(many)).arg(n);
    };
    if (system.kind == SourceKind::StorageGrid) {
        parts << count(system.nodesConnected, "%1 node up", "%1 nodes up");
        if (system.nodesDown > 0) {
            parts << count(system.nodesDown, "%1 administratively down", "%1 administratively down");
        }
        if (system.nodesUnknown > 0) {
            parts << count(system.nodesUnknown, "%1 unknown", "%1 unknown");
        }
        if (system.alertsCritical > 0) {
            parts << count(system.alertsCritical, "%1 critical alert", "%1 critical alerts");
        }
        if (system.alertsMajor > 0) {
            parts << count(system.alertsMajor, "%1 major alert", "%1 major alerts");
        }
        if (system.alertsMinor > 0) {
            parts << count(system.alertsMinor, "%1 minor alert", "%1 minor alerts");
        }
        if (system.alertsCritical + system.alertsMajor + system.alertsMinor == 0) {
            parts << tr("no active alerts");
        }
        return parts.join(QStringLiteral(" · "));
    }
    if (system.kind == SourceKind::Azure) {
        parts << count(system.pools, "%1 pool", "%1 pools");
        parts << (system.notProvisioned > 0 ? count(system.notProvisioned, "%1 not provisioned", "%1 not provisioned")
                                            : tr("all provisioned"));
    }
    if (system.nearFullVolumes > 0) {
        parts << count(system.nearFullVolumes, "%1 volume near full", "%1 volumes near full");
    }
    if (system.volumesWithoutSpace > 0) {
        parts << count(system.volumesWithoutSpace, "%1 without space figures", "%1 without space figures");
    }
    if (system.kind == SourceKind::Ontap && parts.isEmpty()) {
        parts << tr("all volumes below %1 %").arg(kVolumeNearFullPercent);
    }
    return parts.join(QStringLiteral(" · "));
}

QString storageSystemStatus(const StorageSystemSummary &system)
{
    if (system.alertsCritical > 0 || system.nodesUnknown > 0) {
        return QStringLiteral("critical");
    }
    if (system.alertsMajor + system.alertsMinor + system.nodesDown + system.nearFullVolumes + system.notProvisioned
        > 0) {
        return QStringLiteral("warning");
    }
    return QStringLiteral("ok");
}

std::vector<AttentionItem> needsAttention(const Estate &estate, const QList<SourceStatus> &statuses)
{
    std::vector<AttentionItem> out;
    // What is wrong with `object` (its system, source, kind, id and subject already set).
    const auto flag = [&out](const AttentionItem &object, const char *severity, const char *reason, QString message) {
        AttentionItem item = object;
        item.severity = QString::fromLatin1(severity);
        item.reason = QString::fromLatin1(reason);
        item.message = std::move(message);
        out.push_back(std::move(item));
    };
    const auto object = [](const QString &system, const QString &source, const char *kind, const QString &id) {
        AttentionItem item;
        item.system = system;
        item.source = source;
        item.kind = QString::fromLatin1(kind);
        item.id = id;
        item.subject = id;
        return item;
    };
    const QString kube = QStringLiteral("kubernetes");

    for (const SourceStatus &s : statuses) {
        if (s.health == Health::Ok || s.health == Health::Unknown) {
            continue;
        }
        const QString state = s.health == Health::Degraded      ? tr("degraded")
                              : s.health == Health::Unreachable ? tr("unreachable")
                                                                : tr("needs credentials");
        flag(object(sourceKindName(s.kind), s.name, "source", s.name),
             s.health == Health::Degraded ? "warning" : "error",
             "source_health",
             s.lastError.isEmpty() ? state : tr("%1: %2").arg(state, s.lastError));
    }

    for (const auto &j : estate.jobs().all()) {
        if (!j->failureReason.isEmpty()) {
            flag(object(kube, j->source, "job", j->id),
                 "error",
                 "job_failing",
                 j->gpusAllocated > 0 ? tr("%1 · GPUs held: %2").arg(j->failureReason, formatGpus(j->gpusAllocated))
                                      : j->failureReason);
        } else if (j->status == JobStatus::Failed) {
            flag(object(kube, j->source, "job", j->id), "warning", "job_failed", tr("failed"));
        }
    }

    for (const auto &c : estate.gpuClusters().all()) {
        if (c->pendingJobs > 0 && c->gpuIdleAllocated > 0) {
            flag(object(kube, c->source, "cluster", c->source),
                 "warning",
                 "pending_while_idle",
                 (c->pendingJobs == 1 ? tr("%1 job pending while allocated GPUs idle: %2")
                                      : tr("%1 jobs pending while allocated GPUs idle: %2"))
                     .arg(c->pendingJobs)
                     .arg(formatGpus(c->gpuIdleAllocated)));
        }
        if (c->quotaTotal != c->gpuTotal) {
            flag(object(kube, c->source, "cluster", c->source),
                 "warning",
                 "quota_mismatch",
                 tr("Σ project quotas %1 ≠ %2 GPUs in the cluster")
                     .arg(formatGpus(c->quotaTotal), formatGpus(c->gpuTotal)));
        }
    }

    for (const auto &a : estate.gridAlerts().all()) {
        if (a->resolved || a->silenced) {
            continue;
        }
        AttentionItem alert = object(QStringLiteral("storagegrid"), a->source, "alert", a->id);
        alert.subject = a->node.isEmpty() ? a->name : tr("%1 on %2").arg(a->name, a->node);
        const QByteArray severity =
            timelineSeverityName(severityFromSystem(QStringLiteral("storagegrid"), a->severity)).toLatin1();
        flag(alert,
             severity.constData(),
             "grid_alert",
             a->summary.isEmpty() || a->summary == a->name ? tr("%1 alert").arg(a->severity)
                                                           : tr("%1 alert: %2").arg(a->severity, a->summary));
    }

    const auto provisioningSeverity = [](const QString &state) {
        return state.compare(QLatin1String("Failed"), Qt::CaseInsensitive) == 0 ? "error" : "warning";
    };
    for (const auto &v : estate.volumes().all()) {
        AttentionItem volume =
            object(v->isAnf() ? QStringLiteral("azure") : QStringLiteral("ontap"), v->source, "volume", v->id);
        volume.subject = v->svm.isEmpty() ? v->name : v->svm + QLatin1Char('/') + v->name;
        if (v->state == QLatin1String("online")
            && volumeCapacity(*v).percentUsed.value_or(0.0) >= kVolumeNearFullPercent) {
            flag(volume,
                 *volumeCapacity(*v).percentUsed >= kVolumeFullPercent ? "critical" : "warning",
                 "volume_full",
                 volumeCapacityText(volumeCapacity(*v)));
        }
        if (v->isAnf() && anfStateOutstanding(v->provisioningState)) {
            flag(volume,
                 provisioningSeverity(v->provisioningState),
                 "provisioning",
                 tr("provisioning state %1").arg(v->provisioningState));
        }
    }
    for (const auto &p : estate.capacityPools().all()) {
        if (anfStateOutstanding(p->provisioningState)) {
            AttentionItem pool = object(QStringLiteral("azure"), p->source, "pool", p->id);
            pool.subject = p->account + QLatin1Char('/') + p->name;
            flag(pool,
                 provisioningSeverity(p->provisioningState),
                 "provisioning",
                 tr("provisioning state %1").arg(p->provisioningState));
        }
    }

    for (const auto &t : estate.cacheTargets().all()) {
        if (!t->problem.isEmpty()) {
            flag(object(kube, t->source, "cache_target", t->id), "error", "cache_problem", t->problem);
        } else if (t->capacityBytes > 0 && t->usedBytes * 100 >= qint64(t->highWatermarkPercent) * t->capacityBytes) {
            flag(object(kube, t->source, "cache_target", t->id),
                 "warning",
                 "cache_watermark",
                 tr("above its %1 % high watermark: %2 of %3")
                     .arg(t->highWatermarkPercent)
                     .arg(formatBytes(t->usedBytes), formatBytes(t->capacityBytes)));
        }
    }

    std::stable_sort(out.begin(), out.end(), [](const AttentionItem &a, const AttentionItem &b) {
        return std::make_tuple(overviewSeverityRank(a.severity), a.system, a.source, a.subject)
               < std::make_tuple(overviewSeverityRank(b.severity), b.system, b.source, b.subject);
    });
    return out;
}

std::vector<ProjectSample> clusterHistory(const std::vector<ProjectSample> &byProject, const QString &label)
{
    std::vector<const ProjectSample *> ordered;
    ordered.reserve(byProject.size());
    for (const ProjectSample &s : byProject) {
        ordered.push_back(&s);
    }
    std::stable_sort(ordered.begin(), ordered.end(), [](const ProjectSample *a, const ProjectSample *b) {
        return a->time < b->time;
    });
    // A project that did not change before the window only reports at its next heartbeat:
    // those that report within the first heartbeat existed already, and a total without them
    // would be too low. Totals start once they all reported.
    QSet<QString> settling;
    for (const ProjectSample *s : ordered) {
        if (s->time.secsTo(ordered.front()->time) > -kProjectHeartbeatSeconds) {
            settling.insert(s->project);
        }
    }
    QHash<QString, const ProjectSample *> latest;
    std::vector<ProjectSample> out;
    for (std::size_t i = 0; i < ordered.size(); ++i) {
        latest.insert(ordered[i]->project, ordered[i]);
        settling.remove(ordered[i]->project);
        // Samples of one poll share a time: one total per distinct time, after all of them.
        if ((i + 1 < ordered.size() && ordered[i + 1]->time == ordered[i]->time) || !settling.isEmpty()) {
            continue;
        }
        ProjectSample total;
        total.project = label;
        total.time = ordered[i]->time;
        total.quota = -1;
        double utilWeighted = 0;
        MilliGpu utilGpus = 0;
        for (const ProjectSample *p : std::as_const(latest)) {
            total.allocated += p->allocated;
            total.pending += p->pending;
            if (p->quota >= 0) {
                total.quota = std::max<MilliGpu>(total.quota, 0) + p->quota;
            }
            if (p->utilization >= 0 && p->allocated > 0) {
                utilWeighted += p->utilization * double(p->allocated);
                utilGpus += p->allocated;
            }
        }
        total.utilization = utilGpus > 0 ? utilWeighted / double(utilGpus) : -1;
        out.push_back(std::move(total));
    }
    return out;
}

} // namespace strata::core
