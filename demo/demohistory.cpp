#include "demo/demohistory.h"

#include "models/core/historystore.h"
#include "simulators/azure/azuresimulator.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "simulators/ontap/ontapsimulator.h"

#include <chrono>

namespace strata::demo {

core::Status backfillHistory(core::IHistoryStore &store,
                             const HistorySimulators &simulators,
                             const QDateTime &from,
                             const QDateTime &to,
                             int stepSeconds)
{
    const qint64 stepMs = qint64(std::max(1, stepSeconds)) * 1000;
    const auto fail = [](const QString &what) -> core::Status {
        return core::fail(what);
    };
    // On whole steps of the clock, as a poller's samples would fall, so two runs over the same
    // hours record the same instants (and the same model values).
    const qint64 first = (from.toMSecsSinceEpoch() + stepMs - 1) / stepMs * stepMs;
    for (qint64 t = first; t <= to.toMSecsSinceEpoch(); t += stepMs) {
        const QDateTime at = QDateTime::fromMSecsSinceEpoch(t, Qt::UTC);
        // Both simulators' perf points carry the same figures; only the volume's id field differs.
        const auto recordPerf = [&store, &at](const QString &source, const auto &points, auto idOf) {
            std::vector<core::VolumePerfSample> samples;
            for (const auto &p : points) {
                core::VolumePerfSample s;
                s.volumeId = idOf(p);
                s.throughputBps = p.throughputBps;
                s.iops = p.iops;
                s.latencyUs = p.latencyUs;
                s.capBps = p.capBps;
                samples.push_back(std::move(s));
            }
            return store.recordVolumePerf(source, samples, at);
        };
        if (simulators.ontap && !recordPerf(simulators.ontapSource, simulators.ontap->perfAt(t), [](const auto &p) {
                return p.uuid;
            })) {
            return fail(QStringLiteral("history store: cannot record %1's performance").arg(simulators.ontapSource));
        }
        if (simulators.azure && !recordPerf(simulators.azureSource, simulators.azure->perfAt(t), [](const auto &p) {
                return p.fileSystemId;
            })) {
            return fail(QStringLiteral("history store: cannot record %1's performance").arg(simulators.azureSource));
        }
        for (const auto &[source, kube] : simulators.clusters) {
            // The simulator's own auto-ticks also move its clock: advance only what is missing.
            const qint64 behind = t - kube->now().toMSecsSinceEpoch();
            if (behind > 0) {
                kube->tick(1, std::chrono::milliseconds(behind));
            }
            std::vector<core::ProjectSample> samples;
            for (const sim::kube::KubeProjectSample &p : kube->projectSamples()) {
                // KAI's default queues hold nothing here; Strata lists a queue only with a quota
                // or something in it (kubecompute), so neither gets a line in the charts.
                if (p.quotaMilli <= 0 && p.allocatedMilli == 0 && p.pendingMilli == 0) {
                    continue;
                }
                samples.push_back(
                    core::ProjectSample{p.project, at, p.allocatedMilli, p.quotaMilli, p.pendingMilli, p.utilization});
            }
            if (!store.recordProjectSamples(source, samples, at)) {
                return fail(QStringLiteral("history store: cannot record %1's projects").arg(source));
            }
        }
    }
    for (const auto &[source, kube] : simulators.clusters) {
        const qint64 behind = to.toMSecsSinceEpoch() - kube->now().toMSecsSinceEpoch();
        if (behind > 0) {
            kube->tick(1, std::chrono::milliseconds(behind));
        }
    }
    return {};
}

} // namespace strata::demo
