#pragma once

#include "simulators/common/lookup.h"
#include "simulators/ontap/model.h"

#include <QHash>
#include <QString>

#include <functional>
#include <memory>
#include <random>
#include <vector>

namespace strata::sim::ontap {

/// Everything one simulated ONTAP cluster holds, with lookups and the structural mutations the
/// REST handlers apply when a job completes. Not thread-safe: it lives on the simulator thread.
class Estate final
{
public:
    static constexpr qint64 GiB = qint64(1) << 30;
    static constexpr qint64 TiB = qint64(1) << 40;

    /// ARCHITECTURE.md's demo cluster (`ontap-ai`, an AFF A800 HA pair) with the dataset, Trident,
    /// cache, FlexCache and FlexClone volumes, QoS policies, snapshots and a few alerts.
    static std::unique_ptr<Estate> demo(const QString &clusterName, quint64 seed, qint64 nowMs);
    /// `volumeCount` FlexVols over several SVMs and aggregates with plausible names and sizes, each
    /// with `snapshotsPerVolume` snapshots generated lazily. Deterministic for a given seed.
    static std::unique_ptr<Estate>
    generated(const QString &clusterName, int volumeCount, int snapshotsPerVolume, quint64 seed, qint64 nowMs);

    explicit Estate(quint64 seed);

    ClusterInfo cluster;
    std::vector<Node> nodes;
    std::vector<Aggregate> aggregates;
    std::vector<Svm> svms;
    std::vector<QosPolicy> qosPolicies;
    std::vector<FlexCache> flexcaches;
    std::vector<EmsEvent> events;
    qint64 createdMs = 0;

    /// Bumped on every structural change (volume/snapshot/event added, removed or renamed), so
    /// cached sort orders know when to rebuild.
    [[nodiscard]] quint64 generation() const { return m_generation; }
    void touch() { ++m_generation; }

    // Volumes (insertion order). Pointers stay valid until the volume is removed.
    [[nodiscard]] const std::vector<std::unique_ptr<Volume>> &volumes() const { return m_volumes; }
    Volume *volume(const QString &uuid) const { return m_volumeByUuid.value(uuid); }
    Volume *volumeByName(const QString &svmName, const QString &name) const;
    Volume *addVolume(std::unique_ptr<Volume> volume);
    /// Removes a volume (and a FlexGroup's constituents, and its FlexCache record).
    void removeVolume(const QString &uuid);
    void renameVolume(Volume &volume, const QString &name);
    /// FlexClones whose parent snapshot is `snapshotUuid` and that are not split.
    /// Volumes for which `keep` holds, in creation order.
    [[nodiscard]] QList<const Volume *> volumesWhere(const std::function<bool(const Volume &)> &keep) const;
    [[nodiscard]] QList<const Volume *> clonesOfSnapshot(const QString &snapshotUuid) const;
    [[nodiscard]] QList<const Volume *> clonesOfVolume(const QString &volumeUuid) const;
    [[nodiscard]] QList<const Volume *> constituentsOf(const QString &flexgroupUuid) const;

    /// Turns a lazily counted snapshot list into objects (deterministic per volume).
    void materialiseSnapshots(Volume &volume) const;
    Snapshot *snapshot(Volume &volume, const QString &uuid) const;
    Snapshot *snapshotByName(Volume &volume, const QString &name) const;

    [[nodiscard]] const Svm *svm(const QString &uuid) const { return findBy(svms, &Svm::uuid, uuid); }
    [[nodiscard]] const Svm *svmByName(const QString &name) const { return findBy(svms, &Svm::name, name); }
    [[nodiscard]] const Aggregate *aggregate(const QString &uuid) const
    {
        return findBy(aggregates, &Aggregate::uuid, uuid);
    }
    [[nodiscard]] const Aggregate *aggregateByName(const QString &name) const
    {
        return findBy(aggregates, &Aggregate::name, name);
    }
    [[nodiscard]] const Node *node(const QString &uuid) const { return findBy(nodes, &Node::uuid, uuid); }
    [[nodiscard]] const QosPolicy *qosPolicy(const QString &uuid) const
    {
        return findBy(qosPolicies, &QosPolicy::uuid, uuid);
    }
    [[nodiscard]] const QosPolicy *qosPolicyByName(const QString &name) const
    {
        return findBy(qosPolicies, &QosPolicy::name, name);
    }
    [[nodiscard]] const FlexCache *flexcache(const QString &uuid) const
    {
        return findBy(flexcaches, &FlexCache::uuid, uuid);
    }
    [[nodiscard]] int qosObjectCount(const QString &policyUuid) const;
    /// Bytes used on each aggregate (sum of volume footprints), by aggregate uuid.
    [[nodiscard]] QHash<QString, qint64> aggregateUsage() const;

    EmsEvent &addEvent(qint64 nowMs,
                       const Ref &node,
                       const QString &messageName,
                       const QString &severity,
                       const QString &logMessage,
                       const QList<QPair<QString, QString>> &parameters = {});

    /// A fresh ONTAP-style (time-based looking) UUID from the estate's seeded generator.
    QString newUuid();
    /// A uniformly distributed integer in [lo, hi].
    qint64 randomBetween(qint64 lo, qint64 hi);
    double randomUnit();

    /// "2024-05-01T10:05:00+00:00"
    static QString timestamp(qint64 ms);
    /// Bytes a volume occupies in its aggregates.
    static qint64 footprint(const Volume &volume);

private:
    static QString uuidFrom(std::mt19937_64 &rng);
    void addScheduledSnapshots(Volume &volume, qint64 nowMs, int hourly, int daily, int weekly);

    std::mt19937_64 m_rng;
    quint64 m_generation = 1;
    qint64 m_nextEventIndex = 1;
    std::vector<std::unique_ptr<Volume>> m_volumes;
    QHash<QString, Volume *> m_volumeByUuid;
    QHash<QString, Volume *> m_volumeByName; ///< "svm\nname"
};

} // namespace strata::sim::ontap
