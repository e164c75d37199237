#pragma once

#include "models/core/domain/error.h"

#include <QDateTime>
#include <QList>
#include <QString>

namespace strata::core {
class IHistoryStore;
}
namespace strata::sim::ontap {
class OntapSimulator;
}
namespace strata::sim::kube {
class KubeSimulator;
}
namespace strata::sim::azure {
class AzureSimulator;
}

namespace strata::demo {

/// The simulators whose past the demo estate ships as history, with the source names the demo
/// configures for them.
struct HistorySimulators
{
    QString ontapSource;
    sim::ontap::OntapSimulator *ontap = nullptr;
    QString azureSource;
    sim::azure::AzureSimulator *azure = nullptr;
    /// Kubernetes sources; each simulator's clock must start at `from` (options().startTime).
    QList<QPair<QString, sim::kube::KubeSimulator *>> clusters;
};

/// Writes what Strata would have recorded had it watched the demo estate from `from` until `to`:
/// every `stepSeconds`, each volume's throughput, IOPS, latency and cap from the ONTAP
/// simulator's perf model and the Azure simulator's load model (what Azure Monitor serves) at
/// that time, and each project's quota, allocation, queue and DCGM
/// utilization after advancing each Kubernetes simulator's clock to that time (its scheduler and
/// jobs run as they would have). Everything goes through IHistoryStore's record calls, as the
/// sources' own polls write it. Leaves each Kubernetes simulator's clock at about `to`.
/// A Kind::Failed error ("history store: cannot record ...") when the store refuses a write.
core::Status backfillHistory(core::IHistoryStore &store,
                             const HistorySimulators &simulators,
                             const QDateTime &from,
                             const QDateTime &to,
                             int stepSeconds);

/// A cache target and the ONTAP volume behind it.
struct CacheVolume
{
    QString kubernetesSource; ///< the target's cluster
    QString target;           ///< CacheTargetConfig::name
    QString svm;
    QString volume;
};

/// Writes capacity history from `from` until `to`, every `stepSeconds`: for each ONTAP volume
/// of `ontap` (recordVolumeUsage, as its source's polls write it), each of its aggregates (the
/// sum of its volumes' pasts) and for each cache target in
/// `caches` (recordCapacity, the figures of its volume). The simulator keeps no past of its
/// volumes' space, so this past is the demo's own story, ending at each volume's level now: a
/// volume's profile is chosen from its uuid so the "full soonest" list shows what a real
/// estate's does. Trident volumes the simulator grows fill within 8 to 58 days; the others are
/// flat with noise, grow slowly, stepped up once, or shrink. Deterministic for the same
/// volumes and times. A Kind::Failed error when the store refuses a write.
core::Status backfillCapacity(core::IHistoryStore &store,
                              const QString &ontapSource,
                              const sim::ontap::OntapSimulator &ontap,
                              const QList<CacheVolume> &caches,
                              const QDateTime &from,
                              const QDateTime &to,
                              int stepSeconds);

} // namespace strata::demo
