#include "models/rows/datarows.h"

#include "models/core/domain/estate.h"
#include "models/core/planning/datasethub.h"
#include "models/core/runtime/timeline.h"
#include "models/rows/rowsupport.h"

#include <QHash>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <tuple>

namespace strata::rows {

namespace {

QString shortId(const QString &id)
{
    return id.size() > 12 ? id.left(12) : id;
}

QVariant optionalBytes(qint64 bytes)
{
    return bytes < 0 ? QVariant() : QVariant(bytes);
}

QString bytesText(qint64 bytes)
{
    return bytes < 0 ? QStringLiteral("-") : core::formatBytes(bytes);
}

QString timeText(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")) : QStringLiteral("-");
}

QString growthText(const std::optional<qint64> &growth)
{
    if (!growth) {
        return QStringLiteral("-");
    }
    return core::formatBytesDelta(*growth);
}

QVariant growthValue(const std::optional<qint64> &growth)
{
    return growth ? QVariant(*growth) : QVariant();
}

/// "in 2 d 4 h", "in 35 min", "now": how far ahead `t` is.
QString inText(const QDateTime &t, const QDateTime &now)
{
    if (!t.isValid()) {
        return QStringLiteral("-");
    }
    const qint64 s = now.secsTo(t);
    if (s <= 60) {
        return QStringLiteral("now");
    }
    if (s < 3600) {
        return QStringLiteral("in %1 min").arg(s / 60);
    }
    if (s < 86400) {
        return QStringLiteral("in %1 h").arg(s / 3600);
    }
    return QStringLiteral("in %1 d %2 h").arg(s / 86400).arg((s % 86400) / 3600);
}

/// Ready cached commits per commit id (over every target).
QHash<QString, QStringList> readyTargets(const core::Estate &estate)
{
    QHash<QString, QStringList> out;
    for (const auto &c : estate.cachedCommits().all()) {
        if (c->state == core::CacheState::Ready) {
            out[c->commitId] << c->target;
        }
    }
    return out;
}

} // namespace

ResultSet datasetRows(const core::Estate &estate, const QStringList &sources)
{
    auto datasets = collectRows(estate.datasets(), sources);
    std::sort(datasets.begin(), datasets.end(), [](const auto &a, const auto &b) {
        return std::tie(a->source, a->name, a->id) < std::tie(b->source, b->name, b->id);
    });
    const core::HubSummary hub = core::summarize(estate);
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("id"), QString()},
                  {QStringLiteral("name"), QStringLiteral("DATASET")},
                  {QStringLiteral("kind"), QStringLiteral("KIND")},
                  {QStringLiteral("location"), QStringLiteral("LOCATION")},
                  {QStringLiteral("cached_commits"), QStringLiteral("CACHED")},
                  {QStringLiteral("commits"), QStringLiteral("COMMITS")},
                  {QStringLiteral("size_bytes"), QStringLiteral("SIZE")},
                  {QStringLiteral("objects"), QStringLiteral("OBJECTS")},
                  {QStringLiteral("head_commit"), QStringLiteral("HEAD")},
                  {QStringLiteral("last_activity"), QStringLiteral("LAST-ACTIVE")}};
    for (const auto &d : datasets) {
        QStringList display(rs.columns.size());
        display[7] = core::formatBytes(d->sizeBytes);
        display[9] = d->headCommit.isEmpty() ? QStringLiteral("-") : shortId(d->headCommit);
        const QDateTime active = hub.rows.value(core::estateKey(*d)).lastActivity;
        display[10] = timeText(active.isValid() ? active : d->lastActivity);
        // An ONTAP file dataset is a volume: ONTAP reports its used bytes, not a count of objects.
        const bool counted = d->kind != core::DatasetKind::OntapVolume;
        if (!counted) {
            display[8] = QStringLiteral("-");
        }
        rs.addRow({d->source,
                   d->id,
                   d->name,
                   core::datasetKindName(d->kind),
                   core::datasetLocation(estate, *d),
                   hub.rows.value(core::estateKey(*d)).cachedCommits,
                   d->commitCount,
                   d->sizeBytes,
                   counted ? QVariant(d->objectCount) : QVariant(),
                   d->headCommit,
                   active.isValid() ? active : d->lastActivity},
                  display);
    }
    return rs;
}

ResultSet commitRows(const core::Estate &estate, const QStringList &sources, const QStringList &datasets)
{
    auto commits = collectRows(estate.commits(), sources);
    commits.erase(std::remove_if(commits.begin(),
                                 commits.end(),
                                 [&](const auto &c) {
                                     return !datasets.isEmpty() && !datasets.contains(c->datasetName)
                                            && !datasets.contains(c->datasetId);
                                 }),
                  commits.end());
    std::sort(commits.begin(), commits.end(), [](const auto &a, const auto &b) {
        if (a->source != b->source || a->datasetName != b->datasetName) {
            return std::tie(a->source, a->datasetName) < std::tie(b->source, b->datasetName);
        }
        return a->time > b->time;
    });
    const QHash<QString, QStringList> ready = readyTargets(estate);
    const QHash<QString, QStringList> clones = core::flexCloneCopies(estate);
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QString()},
                  {QStringLiteral("dataset"), QStringLiteral("DATASET")},
                  {QStringLiteral("id"), QStringLiteral("COMMIT")},
                  {QStringLiteral("parent"), QStringLiteral("PARENT")},
                  {QStringLiteral("author"), QStringLiteral("AUTHOR")},
                  {QStringLiteral("time"), QStringLiteral("TIME")},
                  {QStringLiteral("objects"), QStringLiteral("OBJECTS")},
                  {QStringLiteral("bytes"), QStringLiteral("SIZE")},
                  {QStringLiteral("cached_on"), QStringLiteral("CACHED-ON")},
                  {QStringLiteral("message"), QStringLiteral("MESSAGE")},
                  {QStringLiteral("manifest_key"), QString()}};
    for (const auto &c : commits) {
        QStringList display(rs.columns.size());
        display[2] = shortId(c->id);
        display[3] = c->parent.isEmpty() ? QStringLiteral("-") : shortId(c->parent);
        display[5] = timeText(c->time);
        display[7] = core::formatBytes(c->bytes);
        const QStringList on = ready.value(c->id) + clones.value(core::estateKey(*c));
        display[8] = on.isEmpty() ? QStringLiteral("-") : on.join(QLatin1Char(','));
        // A commit of an ONTAP file dataset is a snapshot: ONTAP lists neither its objects nor
        // their bytes, so both are unknown (null, "-"), never "0 objects, 0 B".
        const core::Ptr<core::Dataset> owner =
            estate.datasets().find(c->source, c->source + QLatin1Char('/') + c->datasetId);
        const bool counted = !owner || owner->kind != core::DatasetKind::OntapVolume;
        if (!counted) {
            display[6] = display[7] = QStringLiteral("-");
        }
        rs.addRow({c->source,
                   c->datasetName,
                   c->id,
                   c->parent,
                   c->author,
                   c->time,
                   counted ? QVariant(c->objectCount) : QVariant(),
                   counted ? QVariant(c->bytes) : QVariant(),
                   on,
                   c->message,
                   c->manifestKey},
                  display);
    }
    return rs;
}

ResultSet cachedCommitRows(const core::Estate &estate, const QStringList &targets, const QDateTime &now)
{
    auto cached = estate.cachedCommits().all();
    cached.erase(std::remove_if(cached.begin(),
                                cached.end(),
                                [&](const auto &c) {
                                    return !targets.isEmpty() && !targets.contains(c->target);
                                }),
                 cached.end());
    std::sort(cached.begin(), cached.end(), [](const auto &a, const auto &b) {
        return std::tie(a->target, a->datasetName, a->requested) < std::tie(b->target, b->datasetName, b->requested);
    });
    return cachedCommitRows(cached, now);
}

ResultSet cachedCommitRows(const std::vector<core::Ptr<core::CachedCommit>> &cached, const QDateTime &now)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("target"), QStringLiteral("TARGET")},
                  {QStringLiteral("source"), QString()},
                  {QStringLiteral("dataset"), QStringLiteral("DATASET")},
                  {QStringLiteral("commit"), QStringLiteral("COMMIT")},
                  {QStringLiteral("state"), QStringLiteral("STATE")},
                  {QStringLiteral("progress_percent"), QStringLiteral("PROGRESS")},
                  {QStringLiteral("objects_done"), QString()},
                  {QStringLiteral("objects_total"), QString()},
                  {QStringLiteral("bytes_done"), QStringLiteral("DONE")},
                  {QStringLiteral("bytes_total"), QStringLiteral("SIZE")},
                  {QStringLiteral("path"), QString()},
                  {QStringLiteral("last_used"), QStringLiteral("LAST-USED")},
                  {QStringLiteral("used_by"), QString()},
                  {QStringLiteral("evict_at"), QStringLiteral("EVICTS")},
                  {QStringLiteral("evict_reason"), QString()},
                  {QStringLiteral("reason"), QStringLiteral("REASON")},
                  {QStringLiteral("job"), QString()}};
    for (const auto &c : cached) {
        QVariant progress;
        if (c->bytesTotal > 0) {
            progress = std::round(1000.0 * double(c->bytesDone) / double(c->bytesTotal)) / 10.0;
        } else if (c->state == core::CacheState::Ready) {
            progress = 100.0;
        }
        QStringList display(rs.columns.size());
        display[3] = shortId(c->commitId);
        display[5] =
            progress.isNull() ? QStringLiteral("-") : QString::number(progress.toDouble(), 'f', 1) + QLatin1Char('%');
        display[8] = core::formatBytes(c->bytesDone);
        display[9] = core::formatBytes(c->bytesTotal);
        display[11] = timeText(c->lastUsed);
        display[13] = c->state == core::CacheState::Ready ? inText(c->evictAt, now) : QStringLiteral("-");
        display[15] = c->reason.isEmpty() ? QStringLiteral("-") : c->reason;
        rs.addRow({c->target,
                   c->source,
                   c->datasetName,
                   c->commitId,
                   core::cacheStateName(c->state),
                   progress,
                   c->objectsDone,
                   c->objectsTotal,
                   c->bytesDone,
                   c->bytesTotal,
                   c->path,
                   c->lastUsed,
                   c->usedBy,
                   c->evictAt,
                   c->evictReason,
                   c->reason,
                   c->job},
                  display);
    }
    return rs;
}

ResultSet cacheTargetRows(const core::Estate &estate, const QStringList &targets)
{
    auto list = estate.cacheTargets().all();
    list.erase(std::remove_if(list.begin(),
                              list.end(),
                              [&](const auto &t) {
                                  return !targets.isEmpty() && !targets.contains(t->id);
                              }),
               list.end());
    std::sort(list.begin(), list.end(), [](const auto &a, const auto &b) {
        return a->id < b->id;
    });
    QHash<QString, int> counts;
    for (const auto &c : estate.cachedCommits().all()) {
        if (c->state != core::CacheState::Evicted) {
            ++counts[c->target];
        }
    }
    ResultSet rs;
    rs.columns = {{QStringLiteral("name"), QStringLiteral("TARGET")},
                  {QStringLiteral("source"), QStringLiteral("CLUSTER")},
                  {QStringLiteral("namespace"), QString()},
                  {QStringLiteral("pvc"), QStringLiteral("PVC")},
                  {QStringLiteral("pvc_phase"), QString()},
                  {QStringLiteral("volume"), QStringLiteral("VOLUME")},
                  {QStringLiteral("capacity_bytes"), QStringLiteral("CAPACITY")},
                  {QStringLiteral("used_bytes"), QStringLiteral("USED")},
                  {QStringLiteral("cached_bytes"), QStringLiteral("CACHED")},
                  {QStringLiteral("cached_commits"), QStringLiteral("COMMITS")},
                  {QStringLiteral("evict_after_days"), QStringLiteral("EVICT-AFTER")},
                  {QStringLiteral("high_watermark_percent"), QStringLiteral("WATERMARK")},
                  {QStringLiteral("problem"), QStringLiteral("PROBLEM")}};
    for (const auto &t : list) {
        QStringList display(rs.columns.size());
        display[3] = t->namespaceName + QLatin1Char('/') + t->pvc;
        display[5] = t->volumeName.isEmpty() ? QStringLiteral("-") : t->volumeName;
        display[6] = core::formatBytes(t->capacityBytes);
        display[7] = core::formatBytes(t->usedBytes);
        display[8] = core::formatBytes(t->cachedBytes);
        display[10] = QStringLiteral("%1 d").arg(t->evictAfterDays);
        display[11] = QStringLiteral("%1 %").arg(t->highWatermarkPercent);
        display[12] = t->problem.isEmpty() ? QStringLiteral("-") : t->problem;
        rs.addRow({t->id,
                   t->source,
                   t->namespaceName,
                   t->pvc,
                   t->pvcPhase,
                   t->volumeName,
                   t->capacityBytes,
                   t->usedBytes,
                   t->cachedBytes,
                   counts.value(t->id),
                   t->evictAfterDays,
                   t->highWatermarkPercent,
                   t->problem},
                  display);
    }
    return rs;
}

ResultSet gridRows(const core::Estate &estate, const QStringList &sources)
{
    return gridRows(collectRows(estate.gridSummaries(), sources));
}

ResultSet gridRows(const std::vector<core::Ptr<core::GridSummary>> &grids)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("grid"), QStringLiteral("GRID")},
                  {QStringLiteral("version"), QStringLiteral("VERSION")},
                  {QStringLiteral("api"), QString()},
                  {QStringLiteral("nodes_connected"), QStringLiteral("NODES-UP")},
                  {QStringLiteral("nodes_down"), QStringLiteral("ADMIN-DOWN")},
                  {QStringLiteral("nodes_unknown"), QStringLiteral("UNKNOWN")},
                  {QStringLiteral("alerts_critical"), QStringLiteral("CRITICAL")},
                  {QStringLiteral("alerts_major"), QStringLiteral("MAJOR")},
                  {QStringLiteral("alerts_minor"), QStringLiteral("MINOR")},
                  {QStringLiteral("ilm_policy"), QStringLiteral("ILM-POLICY")},
                  {QStringLiteral("used_bytes"), QStringLiteral("USED")},
                  {QStringLiteral("usable_bytes"), QStringLiteral("USABLE")}};
    for (const auto &g : grids) {
        QStringList display(rs.columns.size());
        display[11] = bytesText(g->usedBytes);
        display[12] = bytesText(g->usableBytes);
        rs.addRow({g->source,
                   g->gridName,
                   g->productVersion,
                   g->apiVersion,
                   g->nodesConnected,
                   g->nodesAdminDown,
                   g->nodesUnknown,
                   g->alertsCritical,
                   g->alertsMajor,
                   g->alertsMinor,
                   g->activeIlmPolicy,
                   optionalBytes(g->usedBytes),
                   optionalBytes(g->usableBytes)},
                  display);
    }
    return rs;
}

ResultSet tenantRows(const core::Estate &estate, const QStringList &sources)
{
    auto tenants = collectRows(estate.tenants(), sources);
    std::sort(tenants.begin(), tenants.end(), [](const auto &a, const auto &b) {
        return std::tie(a->source, a->name) < std::tie(b->source, b->name);
    });
    return tenantRows(tenants);
}

ResultSet tenantRows(const std::vector<core::Ptr<core::Tenant>> &tenants)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("id"), QStringLiteral("ACCOUNT-ID")},
                  {QStringLiteral("name"), QStringLiteral("TENANT")},
                  {QStringLiteral("buckets"), QStringLiteral("BUCKETS")},
                  {QStringLiteral("objects"), QStringLiteral("OBJECTS")},
                  {QStringLiteral("data_bytes"), QStringLiteral("DATA")},
                  {QStringLiteral("quota_bytes"), QStringLiteral("QUOTA")},
                  {QStringLiteral("growth_7d_bytes"), QStringLiteral("7D-GROWTH")},
                  {QStringLiteral("capabilities"), QString()}};
    for (const auto &t : tenants) {
        QStringList display(rs.columns.size());
        display[5] = core::formatBytes(t->dataBytes);
        display[6] = t->quotaBytes < 0 ? QStringLiteral("none") : core::formatBytes(t->quotaBytes);
        display[7] = growthText(t->growth7dBytes);
        rs.addRow({t->source,
                   t->id,
                   t->name,
                   t->bucketCount,
                   t->objectCount,
                   t->dataBytes,
                   optionalBytes(t->quotaBytes),
                   growthValue(t->growth7dBytes),
                   t->capabilities},
                  display);
    }
    return rs;
}

ResultSet bucketRows(const core::Estate &estate, const QStringList &sources)
{
    auto buckets = collectRows(estate.buckets(), sources);
    std::sort(buckets.begin(), buckets.end(), [](const auto &a, const auto &b) {
        return std::tie(a->source, a->tenantName, a->name) < std::tie(b->source, b->tenantName, b->name);
    });
    return bucketRows(buckets);
}

ResultSet bucketRows(const std::vector<core::Ptr<core::Bucket>> &buckets)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("tenant"), QStringLiteral("TENANT")},
                  {QStringLiteral("name"), QStringLiteral("BUCKET")},
                  {QStringLiteral("region"), QStringLiteral("REGION")},
                  {QStringLiteral("versioning"), QStringLiteral("VERSIONING")},
                  {QStringLiteral("objects"), QStringLiteral("OBJECTS")},
                  {QStringLiteral("data_bytes"), QStringLiteral("DATA")},
                  {QStringLiteral("quota_bytes"), QStringLiteral("QUOTA")},
                  {QStringLiteral("growth_7d_bytes"), QStringLiteral("7D-GROWTH")}};
    for (const auto &b : buckets) {
        QStringList display(rs.columns.size());
        display[4] = b->versioning ? QStringLiteral("enabled") : QStringLiteral("off");
        display[6] = core::formatBytes(b->dataBytes);
        display[7] = b->quotaBytes < 0 ? QStringLiteral("none") : core::formatBytes(b->quotaBytes);
        display[8] = growthText(b->growth7dBytes);
        rs.addRow({b->source,
                   b->tenantName,
                   b->name,
                   b->region,
                   b->versioning,
                   b->objectCount,
                   b->dataBytes,
                   optionalBytes(b->quotaBytes),
                   growthValue(b->growth7dBytes)},
                  display);
    }
    return rs;
}

ResultSet gridAlertRows(const core::Estate &estate, const QStringList &sources)
{
    auto alerts = collectRows(estate.gridAlerts(), sources);
    std::sort(alerts.begin(), alerts.end(), [](const auto &a, const auto &b) {
        if (a->resolved != b->resolved) {
            return !a->resolved;
        }
        return a->startsAt > b->startsAt;
    });
    return gridAlertRows(alerts);
}

ResultSet gridAlertRows(const std::vector<core::Ptr<core::GridAlert>> &alerts)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("id"), QString()},
                  {QStringLiteral("name"), QStringLiteral("ALERT")},
                  {QStringLiteral("severity"), QStringLiteral("SEVERITY")},
                  {QStringLiteral("grid_severity"), QString()},
                  {QStringLiteral("status"), QStringLiteral("STATUS")},
                  {QStringLiteral("node"), QStringLiteral("NODE")},
                  {QStringLiteral("site"), QString()},
                  {QStringLiteral("starts_at"), QStringLiteral("SINCE")},
                  {QStringLiteral("ends_at"), QStringLiteral("RESOLVED")},
                  {QStringLiteral("summary"), QStringLiteral("SUMMARY")}};
    for (const auto &a : alerts) {
        QStringList display(rs.columns.size());
        display[6] = a->node.isEmpty() ? QStringLiteral("-") : a->node;
        display[8] = timeText(a->startsAt);
        display[9] = timeText(a->endsAt);
        rs.addRow({a->source,
                   a->id,
                   a->name,
                   core::timelineSeverityName(core::severityFromSystem(QStringLiteral("storagegrid"), a->severity)),
                   a->severity,
                   a->resolved ? QStringLiteral("resolved") : QStringLiteral("active"),
                   a->node,
                   a->site,
                   a->startsAt,
                   a->endsAt,
                   a->summary},
                  display);
    }
    return rs;
}

} // namespace strata::rows
