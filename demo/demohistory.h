#pragma once

#include "models/core/error.h"

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

} // namespace strata::demo
