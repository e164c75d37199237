#include "models/rows/resources.h"

#include "models/core/domain/estate.h"
#include "models/core/planning/jobfields.h"
#include "models/core/planning/volumefields.h"
#include "models/core/runtime/engine.h"
#include "models/core/runtime/timeline.h"
#include "models/core/services/capacityforecast.h"
#include "models/core/services/servicelevels.h"
#include "models/core/sources/source.h"
#include "models/rows/computerows.h"
#include "models/rows/datarows.h"
#include "models/rows/fieldrows.h"
#include "models/rows/forecastrows.h"
#include "models/rows/levelrows.h"
#include "models/rows/overviewrows.h"
#include "models/rows/triagerows.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace strata::rows {

const QStringList &resourceNames()
{
    static const QStringList r{
        QStringLiteral("sources"),       QStringLiteral("volumes"),   QStringLiteral("snapshots"),
        QStringLiteral("clusters"),      QStringLiteral("nodes"),     QStringLiteral("projects"),
        QStringLiteral("jobs"),          QStringLiteral("pvcs"),      QStringLiteral("service-levels"),
        QStringLiteral("pools"),         QStringLiteral("aks"),       QStringLiteral("schedules"),
        QStringLiteral("datasets"),      QStringLiteral("commits"),   QStringLiteral("caches"),
        QStringLiteral("cache-targets"), QStringLiteral("grids"),     QStringLiteral("tenants"),
        QStringLiteral("buckets"),       QStringLiteral("alerts"),    QStringLiteral("events"),
        QStringLiteral("systems"),       QStringLiteral("attention"), QStringLiteral("forecasts")};
    return r;
}

bool isComputeResource(const QString &r)
{
    return r == QLatin1String("clusters") || r == QLatin1String("nodes") || r == QLatin1String("projects")
           || r == QLatin1String("jobs") || r == QLatin1String("pvcs");
}

QList<core::SourceKind> resourceSourceKinds(const QString &r)
{
    using core::SourceKind;
    // What each builder reads: volumeRows, snapshotRows and serviceLevelRows the ONTAP and ANF
    // volumes; poolRows and aksRows Azure's; the StorageGRID rows the grid's; the compute rows
    // Kubernetes' records, and pvcRows also the volume each claim was joined to at publish time.
    if (r == QLatin1String("volumes") || r == QLatin1String("snapshots") || r == QLatin1String("service-levels")) {
        return {SourceKind::Ontap, SourceKind::Azure};
    }
    if (r == QLatin1String("pools") || r == QLatin1String("aks")) {
        return {SourceKind::Azure};
    }
    if (r == QLatin1String("grids") || r == QLatin1String("tenants") || r == QLatin1String("buckets")
        || r == QLatin1String("alerts")) {
        return {SourceKind::StorageGrid};
    }
    if (r == QLatin1String("pvcs")) {
        return {SourceKind::Kubernetes, SourceKind::Ontap, SourceKind::Azure};
    }
    if (isComputeResource(r)) {
        return {SourceKind::Kubernetes};
    }
    return {};
}

QString normaliseResource(const QString &r)
{
    // kubectl habits: singular and short forms.
    if (r == QLatin1String("source") || r == QLatin1String("src")) {
        return QStringLiteral("sources");
    }
    if (r == QLatin1String("volume") || r == QLatin1String("vol") || r == QLatin1String("vols")) {
        return QStringLiteral("volumes");
    }
    if (r == QLatin1String("snapshot") || r == QLatin1String("snap") || r == QLatin1String("snaps")) {
        return QStringLiteral("snapshots");
    }
    if (r == QLatin1String("cluster")) {
        return QStringLiteral("clusters");
    }
    if (r == QLatin1String("node") || r == QLatin1String("no")) {
        return QStringLiteral("nodes");
    }
    if (r == QLatin1String("project") || r == QLatin1String("proj")) {
        return QStringLiteral("projects");
    }
    if (r == QLatin1String("job") || r == QLatin1String("workloads") || r == QLatin1String("workload")) {
        return QStringLiteral("jobs");
    }
    if (r == QLatin1String("pvc") || r == QLatin1String("persistentvolumeclaims")) {
        return QStringLiteral("pvcs");
    }
    if (r == QLatin1String("service-level") || r == QLatin1String("servicelevels") || r == QLatin1String("sl")
        || r == QLatin1String("levels")) {
        return QStringLiteral("service-levels");
    }
    if (r == QLatin1String("pool") || r == QLatin1String("capacitypools") || r == QLatin1String("capacity-pools")) {
        return QStringLiteral("pools");
    }
    if (r == QLatin1String("managedclusters") || r == QLatin1String("aks-clusters")) {
        return QStringLiteral("aks");
    }
    if (r == QLatin1String("forecast") || r == QLatin1String("capacity-forecasts") || r == QLatin1String("fc")) {
        return QStringLiteral("forecasts");
    }
    if (r == QLatin1String("schedule")) {
        return QStringLiteral("schedules");
    }
    if (r == QLatin1String("dataset") || r == QLatin1String("ds")) {
        return QStringLiteral("datasets");
    }
    if (r == QLatin1String("commit")) {
        return QStringLiteral("commits");
    }
    if (r == QLatin1String("cache") || r == QLatin1String("cached-commits")) {
        return QStringLiteral("caches");
    }
    if (r == QLatin1String("cache-target") || r == QLatin1String("targets")) {
        return QStringLiteral("cache-targets");
    }
    if (r == QLatin1String("grid")) {
        return QStringLiteral("grids");
    }
    if (r == QLatin1String("tenant") || r == QLatin1String("accounts")) {
        return QStringLiteral("tenants");
    }
    if (r == QLatin1String("bucket")) {
        return QStringLiteral("buckets");
    }
    if (r == QLatin1String("alert")) {
        return QStringLiteral("alerts");
    }
    if (r == QLatin1String("event") || r == QLatin1String("timeline") || r == QLatin1String("ev")) {
        return QStringLiteral("events");
    }
    if (r == QLatin1String("system") || r == QLatin1String("storage-systems")) {
        return QStringLiteral("systems");
    }
    if (r == QLatin1String("needs-attention")) {
        return QStringLiteral("attention");
    }
    return r;
}

ResultSet sourceRows(const QList<core::SourceStatus> &statuses)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("name"), QStringLiteral("NAME")},
                  {QStringLiteral("kind"), QStringLiteral("KIND")},
                  {QStringLiteral("url"), QStringLiteral("URL")},
                  {QStringLiteral("health"), QStringLiteral("HEALTH")},
                  {QStringLiteral("stale"), QString()},
                  {QStringLiteral("system"), QStringLiteral("SYSTEM")},
                  {QStringLiteral("version"), QStringLiteral("VERSION")},
                  {QStringLiteral("last_success"), QString()},
                  {QStringLiteral("latency_ms"), QStringLiteral("POLL-MS")},
                  {QStringLiteral("last_error"), QStringLiteral("ERROR")},
                  {QStringLiteral("polled_by"), QString()}};
    for (const core::SourceStatus &s : statuses) {
        rs.addRow({s.name,
                   core::sourceKindName(s.kind),
                   s.url,
                   core::healthName(s.health),
                   s.stale,
                   s.systemName,
                   s.systemVersion,
                   s.lastSuccess,
                   s.latencyMs >= 0 ? QVariant(s.latencyMs) : QVariant(),
                   s.lastError,
                   s.polledBy.isEmpty() ? QVariant() : QVariant(s.polledBy)});
    }
    return rs;
}

std::optional<QJsonArray> resourceFields(const QString &resource)
{
    if (resource == QLatin1String("volumes")) {
        return fieldDescriptions(core::volumeFields());
    }
    if (resource == QLatin1String("jobs")) {
        return fieldDescriptions(core::jobFields());
    }
    return std::nullopt;
}

ResultSet volumeRows(const std::vector<core::Ptr<core::Volume>> &volumes)
{
    return fieldRows(core::volumeFields(), volumes, [](const core::Volume &v) {
        return core::VolumeRow{v};
    });
}

ResultSet snapshotRows(const std::vector<core::Ptr<core::Snapshot>> &snapshots)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("volume_id"), QString()},
                  {QStringLiteral("volume"), QStringLiteral("VOLUME")},
                  {QStringLiteral("svm"), QStringLiteral("SVM")},
                  {QStringLiteral("id"), QString()},
                  {QStringLiteral("name"), QStringLiteral("NAME")},
                  {QStringLiteral("created"), QStringLiteral("CREATED")},
                  {QStringLiteral("size_bytes"), QStringLiteral("SIZE")},
                  {QStringLiteral("snapmirror_label"), QStringLiteral("LABEL")},
                  {QStringLiteral("state"), QString()},
                  {QStringLiteral("comment"), QString()}};
    for (const core::Ptr<core::Snapshot> &s : snapshots) {
        QStringList display(rs.columns.size());
        display[7] = s->sizeBytes > 0 ? core::formatBytes(s->sizeBytes) : QStringLiteral("-");
        rs.addRow({s->source,
                   s->volumeId,
                   s->volumeName,
                   s->svm,
                   s->id,
                   s->name,
                   s->created,
                   s->sizeBytes,
                   s->snapmirrorLabel,
                   s->state,
                   s->comment},
                  display);
    }
    return rs;
}

std::vector<core::Ptr<core::Snapshot>> snapshotsOf(const core::Estate &estate,
                                                   const std::vector<core::Ptr<core::Volume>> &volumes)
{
    std::vector<core::Ptr<core::Snapshot>> snapshots;
    for (const core::Ptr<core::Volume> &v : volumes) {
        if (const auto list = estate.snapshots().scope(core::Estate::snapshotScope(v->source, v->id))) {
            snapshots.insert(snapshots.end(), list->items().begin(), list->items().end());
        }
    }
    std::stable_sort(
        snapshots.begin(), snapshots.end(), [](const core::Ptr<core::Snapshot> &a, const core::Ptr<core::Snapshot> &b) {
            return std::tie(a->source, a->svm, a->volumeName, a->created)
                   < std::tie(b->source, b->svm, b->volumeName, b->created);
        });
    return snapshots;
}

std::optional<ResultSet>
resourceRows(core::Engine &engine, const QString &resource, const ResourceFilter &filter, const QDateTime &now)
{
    QStringList sources = filter.sources;
    if (sources.isEmpty()) {
        for (const core::SourceStatus &s : engine.statuses()) {
            sources << s.name;
        }
        if (sources.isEmpty()) {
            sources << QString(); // nothing configured: never "all of the estate"
        }
    }
    const core::Estate &estate = engine.estate();
    if (resource == QLatin1String("events")) {
        // Strata's own entries have no source: only an explicit --source narrows by source.
        core::TimelineFilter timeline;
        timeline.systems = filter.systems;
        timeline.sources = filter.sources;
        timeline.minSeverity = core::timelineSeverityFromName(filter.severity);
        timeline.projects = filter.projects;
        timeline.volumes = filter.volumes;
        timeline.jobs = filter.jobs;
        timeline.since = filter.since;
        timeline.until = filter.until;
        timeline.search = filter.search;
        timeline.limit = filter.limit;
        timeline.offset = filter.offset;
        return eventRows(engine.timeline(), timeline);
    }
    if (resource == QLatin1String("sources")) {
        QList<core::SourceStatus> statuses = engine.statuses();
        statuses.removeIf([&](const core::SourceStatus &s) {
            return !sources.contains(s.name);
        });
        return sourceRows(statuses);
    }
    if (resource == QLatin1String("datasets")) {
        return datasetRows(estate, sources);
    }
    if (resource == QLatin1String("commits")) {
        return commitRows(estate, sources, filter.datasets);
    }
    if (resource == QLatin1String("caches")) {
        return cachedCommitRows(estate, filter.targets, now);
    }
    if (resource == QLatin1String("cache-targets")) {
        return cacheTargetRows(estate, filter.targets);
    }
    if (resource == QLatin1String("grids")) {
        return gridRows(estate, sources);
    }
    if (resource == QLatin1String("tenants")) {
        return tenantRows(estate, sources);
    }
    if (resource == QLatin1String("buckets")) {
        return bucketRows(estate, sources);
    }
    if (resource == QLatin1String("alerts")) {
        return gridAlertRows(estate, sources);
    }
    if (resource == QLatin1String("systems")) {
        auto systems = core::storageSystems(estate);
        std::erase_if(systems, [&](const core::StorageSystemSummary &s) {
            return !sources.contains(s.source);
        });
        return systemRows(systems);
    }
    if (resource == QLatin1String("attention")) {
        auto items = core::needsAttention(estate, engine.statuses());
        std::erase_if(items, [&](const core::AttentionItem &a) {
            return !sources.contains(a.source);
        });
        return attentionRows(items);
    }
    if (resource == QLatin1String("forecasts")) {
        std::vector<core::ContainerForecast> forecasts = engine.forecasts().forecasts();
        std::erase_if(forecasts, [&](const core::ContainerForecast &f) {
            return !sources.contains(f.container.source);
        });
        return forecastRows(forecasts, now);
    }
    if (resource == QLatin1String("pools")) {
        return poolRows(estate, sources);
    }
    if (resource == QLatin1String("aks")) {
        return aksRows(estate, sources);
    }
    if (resource == QLatin1String("service-levels")) {
        QList<core::ServiceLevelRow> rows;
        for (const core::ServiceLevelRow &r : engine.serviceLevels().rows()) {
            if (sources.contains(r.source)) {
                rows << r;
            }
        }
        return serviceLevelRows(rows, engine.serviceLevels().rateCard());
    }
    if (isComputeResource(resource)) {
        const ComputeFilter compute{sources, filter.projects};
        if (resource == QLatin1String("clusters")) {
            return clusterRows(estate, compute);
        }
        if (resource == QLatin1String("nodes")) {
            return nodeRows(estate, compute);
        }
        if (resource == QLatin1String("projects")) {
            return projectRows(estate, compute);
        }
        if (resource == QLatin1String("jobs")) {
            return jobRows(estate, compute, now);
        }
        return pvcRows(estate, compute);
    }
    if (resource != QLatin1String("volumes") && resource != QLatin1String("snapshots")) {
        return std::nullopt;
    }
    std::vector<core::Ptr<core::Volume>> volumes;
    for (const QString &source : std::as_const(sources)) {
        const auto list = estate.volumes().scope(source);
        if (!list) {
            continue;
        }
        for (const core::Ptr<core::Volume> &v : list->items()) {
            if (filter.volumes.isEmpty() || filter.volumes.contains(v->name) || filter.volumes.contains(v->id)) {
                volumes.push_back(v);
            }
        }
    }
    // Stable, readable order whatever order the systems answered in (kubectl lists by name).
    std::sort(volumes.begin(), volumes.end(), [](const core::Ptr<core::Volume> &a, const core::Ptr<core::Volume> &b) {
        return std::tie(a->source, a->svm, a->name) < std::tie(b->source, b->svm, b->name);
    });
    if (resource == QLatin1String("volumes")) {
        return volumeRows(volumes);
    }
    return snapshotRows(snapshotsOf(estate, volumes));
}

} // namespace strata::rows
