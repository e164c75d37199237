#pragma once

#include "simulators/ontap/model.h"
#include "simulators/ontap/query.h"

namespace strata::sim::ontap {

/// A snapshot together with the volume that owns it (its self link and `volume` field need both).
struct SnapshotRow
{
    const Volume *volume = nullptr;
    const Snapshot *snapshot = nullptr;
    bool busy = false; ///< a FlexClone depends on it (`owners`)
};

/// A FlexCache record with its cache volume.
struct FlexCacheRow
{
    const Volume *volume = nullptr;
    const FlexCache *cache = nullptr;
};

/// A FlexCache origin volume with the caches that point at it.
struct FlexCacheOriginRow
{
    const Volume *volume = nullptr;
    QList<const Volume *> caches;
};

/// One sample of a volume's performance history (`/api/storage/volumes/{uuid}/metrics`).
struct MetricRow
{
    const Volume *volume = nullptr;
    qint64 timeMs = 0;
    int durationSeconds = 15;
};

/// IOPS, latency (µs) and throughput (B/s) for read, write, other, total.
struct PerfSample
{
    double iops[4] = {};
    double latencyUs[4] = {};
    double throughput[4] = {};
};

/// The synthetic performance of a volume averaged over the window ending at `atMs`: its profile
/// shaped by a daily cycle and deterministic noise per 15-second bucket.
PerfSample volumePerf(const Volume &volume, qint64 atMs, int durationSeconds);

const Schema<ClusterInfo> &clusterSchema();
const Schema<Node> &nodeSchema();
const Schema<Svm> &svmSchema();
const Schema<Aggregate> &aggregateSchema();
const Schema<Volume> &volumeSchema();
const Schema<SnapshotRow> &snapshotSchema();
const Schema<Job> &jobSchema();
const Schema<EmsEvent> &emsEventSchema();
const Schema<QosPolicy> &qosPolicySchema();
const Schema<FlexCacheRow> &flexcacheSchema();
const Schema<FlexCacheOriginRow> &flexcacheOriginSchema();
const Schema<MetricRow> &volumeMetricSchema();

} // namespace strata::sim::ontap
