#pragma once

#include "models/core/domain/keyed.h"
#include "models/core/domain/records.h"
#include "models/rows/output.h"

#include <QDateTime>
#include <QJsonArray>
#include <QList>
#include <QStringList>

#include <optional>
#include <vector>

namespace strata::core {
class Engine;
class Estate;
struct Snapshot;
struct SourceStatus;
struct Volume;
} // namespace strata::core

namespace strata::rows {

/// The resources `strata get` lists and the web API serves: sources, volumes, snapshots,
/// clusters, nodes, projects, jobs, pvcs, service-levels, pools, aks, schedules, datasets,
/// commits, caches, cache-targets, grids, tenants, buckets, alerts, events, systems (storage
/// systems, core::storageSystems), attention (core::needsAttention), forecasts (capacity fill
/// forecasts, core::ForecastService; full soonest first).
const QStringList &resourceNames();

/// `r` as one of resourceNames() when it is a kubectl-style singular, short or alternative form
/// ("vol", "job", "sl", "timeline", ...); otherwise `r` unchanged (which may be no resource).
QString normaliseResource(const QString &r);

/// The kinds of source whose records the rows of `resource` read, directly or through a join
/// made when records are published: `pvcs` reads Kubernetes and the ONTAP and Azure volumes its
/// claims are joined to (storage_source, storage_volume_id), `service-levels` ONTAP and Azure.
/// Empty = every kind (sources, the dataset resources, events, systems, attention, forecasts,
/// and a name that is no resource). A one-shot `get` starts and waits for exactly these, so its
/// rows equal those of an engine that polls everything. Kept beside the row builders: a builder
/// that starts reading another kind's records adds it here.
QList<core::SourceKind> resourceSourceKinds(const QString &resource);

/// True for the Kubernetes compute resources: clusters, nodes, projects, jobs, pvcs.
bool isComputeResource(const QString &r);

/// What `get` narrows a listing to (the --source, --volume, --project, --dataset and --target
/// flags). Empty lists select everything; `sources` empty = every source of the engine.
struct ResourceFilter
{
    QStringList sources;
    QStringList volumes;
    QStringList projects;
    QStringList datasets;
    QStringList targets;
    // `events` only (--system, --severity, --job, --since, --until, --search; ?limit=&offset=).
    QStringList systems; ///< timelineSystemNames() values
    QString severity;    ///< "critical", "error", "warning" or "info": that and worse; empty = all
    QStringList jobs;    ///< "<namespace>/<name>" or names
    QDateTime since;     ///< UTC, invalid = open
    QDateTime until;     ///< UTC, invalid = open
    QString search;      ///< case-insensitive substring
    int limit = 0;       ///< first `limit` rows (grouped entries), 0 = all
    int offset = 0;      ///< rows skipped before `limit` counts (the next page), >= 0
};

/// The rows of `resource` from the engine's estate as `strata get <resource>` builds them (the
/// same ResultSet is printed by the CLI and served as JSON by strata-server). Reads only what
/// the estate holds: snapshots are those already listed, service levels use the statistics
/// already read. `schedules` is not served here (it reads the history store asynchronously).
/// nullopt for an unknown resource.
std::optional<ResultSet>
resourceRows(core::Engine &engine, const QString &resource, const ResourceFilter &filter, const QDateTime &now);

/// The fields the rows of `resource` carry, for a client that builds its table from them (the
/// web console): rows::fieldDescriptions of the resource's schema ("volumes", "jobs"). nullopt for a resource whose
/// rows are not built from a field schema yet.
std::optional<QJsonArray> resourceFields(const QString &resource);

/// `get sources`: keys name, kind, url, health, stale, system, version, last_success,
/// latency_ms (null until a poll), last_error.
ResultSet sourceRows(const QList<core::SourceStatus> &statuses);
/// `get volumes`: keys source, id, name, svm, state, style, type, size_bytes (snapshot reserve
/// included), usable_bytes (the active file system: size less the reserve), used_bytes (null =
/// not reported), available_bytes (null), percent_used (of usable_bytes, core::volumeCapacity();
/// null), snapshot_count, snapshot_reserve_percent, snapshot_reserve_bytes, qos_policy,
/// aggregate, is_flexcache, clone_parent, nas_path.
ResultSet volumeRows(const std::vector<core::Ptr<core::Volume>> &volumes);
/// `get snapshots`: keys source, volume_id, volume, svm, id, name, created, size_bytes,
/// snapmirror_label, state, comment.
ResultSet snapshotRows(const std::vector<core::Ptr<core::Snapshot>> &snapshots);
/// The snapshots the estate holds for `volumes`, ordered by source, SVM, volume and creation.
std::vector<core::Ptr<core::Snapshot>> snapshotsOf(const core::Estate &estate,
                                                   const std::vector<core::Ptr<core::Volume>> &volumes);

} // namespace strata::rows
