#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <vector>

namespace strata::sim::ontap {

/// A `{name, uuid}` reference as ONTAP embeds it (svm, aggregate, node, volume, snapshot).
struct Ref
{
    QString name;
    QString uuid;
};

/// Cluster identity (`GET /api/cluster`).
struct ClusterInfo
{
    QString name;
    QString uuid;
    QString versionFull; ///< "NetApp Release 9.14.1: ..."
    int generation = 9;
    int major = 14;
    int minor = 1;
    QString location;
    QString contact;
    QString managementAddress; ///< cluster management LIF address
};

/// A controller (`/api/cluster/nodes`).
struct Node
{
    QString uuid;
    QString name;
    QString model; ///< "AFF-A800"
    QString serialNumber;
    QString systemId;
    QString partnerName; ///< HA partner; empty for a single node
    QString partnerUuid;
    QString managementAddress;
    qint64 uptimeSeconds = 0; ///< at estate creation; grows with wall-clock time
};

/// A local tier (`/api/storage/aggregates`). Used space is derived from the volumes on it.
struct Aggregate
{
    QString uuid;
    QString name;
    Ref node;
    qint64 size = 0; ///< bytes, block_storage.size
    int diskCount = 0;
    QString createTime; ///< ONTAP date-time text
};

/// A storage VM (`/api/svm/svms`).
struct Svm
{
    QString uuid;
    QString name;
    QString comment;
    QList<Ref> aggregates; ///< aggregates assigned to the SVM
    bool nfs = true;
    bool cifs = false;
    bool iscsi = false;
    QString createTime;
};

/// A QoS policy group (`/api/storage/qos/policies`), fixed or adaptive.
struct QosPolicy
{
    QString uuid;
    QString name;
    Ref svm; ///< empty name: cluster-scoped (built-in adaptive policies)
    bool adaptive = false;
    // fixed
    qint64 maxIops = 0; ///< 0 = unlimited
    qint64 maxMbps = 0; ///< 0 = unlimited
    qint64 minIops = 0;
    bool capacityShared = false;
    // adaptive, per TB of volume size
    qint64 expectedIops = 0;
    qint64 peakIops = 0;
    qint64 absoluteMinIops = 0;
};

/// A Snapshot copy of a volume.
struct Snapshot
{
    QString uuid;
    QString name;
    QString createTime;  ///< ONTAP date-time text
    qint64 createMs = 0; ///< ms since epoch, for ordering and restore
    QString comment;
    QString snapmirrorLabel;       ///< "hourly", "daily", ... or empty
    QString expiryTime;            ///< empty = none
    qint64 size = 0;               ///< bytes held exclusively by this snapshot
    qint64 volumeUsedAtCreate = 0; ///< volume space.used when taken (restored by a revert)
};

/// Performance profile used to synthesise metric/statistics values.
struct PerfProfile
{
    double readIops = 0;
    double writeIops = 0;
    double otherIops = 0;
    double readBytesPerOp = 64 * 1024;
    double writeBytesPerOp = 32 * 1024;
    double latencyUs = 300;
};

/// A volume: FlexVol, FlexGroup (with constituents), FlexClone or FlexCache.
struct Volume
{
    QString uuid;
    QString name;
    Ref svm;
    QList<Ref> aggregates;
    QString state = QStringLiteral("online");  ///< online, offline, restricted, mixed
    QString style = QStringLiteral("flexvol"); ///< flexvol, flexgroup, flexgroup_constituent
    QString type = QStringLiteral("rw");
    qint64 size = 0; ///< provisioned bytes
    qint64 used = 0; ///< bytes used by the active file system
    int snapshotReservePercent = 5;
    QString comment;
    QString createTime;
    qint64 createMs = 0;
    QString nasPath; ///< empty = not mounted
    QString securityStyle = QStringLiteral("unix");
    QString exportPolicy = QStringLiteral("default");
    Ref qosPolicy; ///< empty uuid = none
    QString snapshotPolicy = QStringLiteral("default");
    QString autosizeMode = QStringLiteral("off"); ///< off, grow, grow_shrink
    qint64 autosizeMaximum = 0;
    QString guarantee = QStringLiteral("none");
    QString tieringPolicy = QStringLiteral("none");
    QString flexcacheEndpoint = QStringLiteral("none"); ///< none, cache, origin
    bool isConstituent = false;
    QString flexgroupUuid;    ///< owner FlexGroup of a constituent
    int constituentCount = 0; ///< FlexGroup only
    bool encrypted = false;
    qint64 filesUsed = 0;
    qint64 filesMaximum = 0;

    bool isFlexClone = false;
    bool splitInitiated = false;
    Ref cloneParentVolume;
    Ref cloneParentSnapshot;
    Ref cloneParentSvm;

    PerfProfile perf;
    quint32 seed = 0;           ///< per-volume noise seed
    bool tridentGrowth = false; ///< used space grows slowly over time (Trident PVCs)

    /// Snapshots exist either as objects (materialised) or as a count to be generated on first
    /// access, so a 50,000-volume estate does not allocate 500,000 snapshots up front.
    bool snapshotsMaterialised = true;
    int lazySnapshotCount = 0;
    qint64 lazySnapshotBasis = 0; ///< space.used when the lazy snapshots were counted
    std::vector<Snapshot> snapshots;
    qint64 snapshotBytes = 0; ///< sum of snapshot sizes (kept in step even while lazy)

    [[nodiscard]] int snapshotCount() const
    {
        return snapshotsMaterialised ? static_cast<int>(snapshots.size()) : lazySnapshotCount;
    }
    /// Bytes usable by the active file system (size minus snapshot reserve).
    [[nodiscard]] qint64 usableSize() const { return size - size * snapshotReservePercent / 100; }
};

/// A FlexCache relationship; the cache volume itself is also a Volume.
struct FlexCache
{
    QString uuid; ///< same as the cache volume's uuid
    Ref origin;   ///< origin volume
    Ref originSvm;
    QString createTime;
};

/// An EMS event (`/api/support/ems/events`).
struct EmsEvent
{
    qint64 index = 0;
    QString time;
    qint64 timeMs = 0;
    Ref node;
    QString messageName; ///< "wafl.vol.autoSize.done"
    QString severity;    ///< emergency, alert, error, notice, informational, debug
    QString logMessage;
    QString source;
    QList<QPair<QString, QString>> parameters;
};

/// An asynchronous job (`/api/cluster/jobs`).
struct Job
{
    QString uuid;
    QString description;                      ///< "POST /api/storage/volumes/<uuid>/snapshots"
    QString state = QStringLiteral("queued"); ///< queued, running, paused, success, failure
    QString message;
    qint64 code = 0;
    QString startTime;
    QString endTime;
    qint64 endMs = 0;
    Ref svm;
};

/// A structured ONTAP REST error (`{"error":{"message","code","target"}}`) with its HTTP status.
struct OntapError
{
    int httpStatus = 400;
    QString message;
    QString code; ///< decimal digits, as a string on the wire
    QString target;

    [[nodiscard]] QJsonObject toJson() const;
    [[nodiscard]] QByteArray body() const;
};

} // namespace strata::sim::ontap
