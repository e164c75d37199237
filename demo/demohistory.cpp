#include "demo/demohistory.h"

#include "models/core/store/historystore.h"
#include "simulators/azure/azuresimulator.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "simulators/ontap/ontapsimulator.h"

#include <QHash>

#include <algorithm>
#include <chrono>
#include <cmath>

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

namespace {

// splitmix64: a deterministic pseudo-random value in [-1, 1) for (seed, step).
double demoNoise(quint64 seed, qint64 step)
{
    quint64 z = seed + quint64(step) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return double(z >> 11) / double(1ULL << 52) - 1.0;
}

// The used bytes of a volume `daysBefore` days before now (0 = now), by its profile.
struct CapacityProfile
{
    double bytesPerDay = 0; ///< growth; negative shrinks
    double noiseBytes = 0;  ///< amplitude of the wobble around the line
    double stepBytes = 0;   ///< added at `stepDaysBefore` days ago (a copy landed)
    double stepDaysBefore = 0;
    quint64 seed = 0;

    [[nodiscard]] qint64 usedAt(qint64 usedNow, qint64 sizeBytes, double daysBefore, qint64 step) const
    {
        double used = double(usedNow) - bytesPerDay * daysBefore;
        if (daysBefore > stepDaysBefore) {
            used -= stepBytes;
        }
        if (daysBefore > 0) {
            used += noiseBytes * demoNoise(seed, step);
        }
        return qint64(std::clamp(used, 0.0, double(sizeBytes)));
    }
};

CapacityProfile profileOf(const sim::ontap::OntapSimulator::VolumeSpace &v)
{
    const quint64 seed = qHash(v.uuid, 20261126U);
    const double u = double(seed % 1000) / 1000.0;
    const double size = double(v.sizeBytes);
    const double room = std::max(0.0, double(v.usableBytes - v.usedBytes));
    CapacityProfile p;
    p.seed = seed;
    p.noiseBytes = size * 0.002;
    if (v.tridentGrowth) {
        p.bytesPerDay = room / (8.0 + 50.0 * u);
        return p;
    }
    switch (seed % 4) {
    case 0: // busy scratch space: flat, noisy
        p.noiseBytes = size * 0.01;
        break;
    case 1: // a dataset that keeps growing slowly
        p.bytesPerDay = room / (90.0 + 200.0 * u);
        break;
    case 2: // a copy landed one to two days ago, flat around it
        p.stepBytes = std::min(double(v.usedBytes), size * 0.08);
        p.stepDaysBefore = 1.0 + u;
        break;
    default: // old checkpoints being cleaned up
        p.bytesPerDay = -size * 0.003;
        break;
    }
    return p;
}

} // namespace

core::Status backfillCapacity(core::IHistoryStore &store,
                              const QString &ontapSource,
                              const sim::ontap::OntapSimulator &ontap,
                              const QList<CacheVolume> &caches,
                              const QDateTime &from,
                              const QDateTime &to,
                              int stepSeconds)
{
    const QList<sim::ontap::OntapSimulator::VolumeSpace> volumes = ontap.volumeSpace();
    QList<CapacityProfile> profiles;
    QHash<QString, qsizetype> byName;
    for (qsizetype i = 0; i < volumes.size(); ++i) {
        profiles.append(profileOf(volumes[i]));
        byName.insert(volumes[i].svm + QLatin1Char('/') + volumes[i].name, i);
    }
    // An aggregate holds its volumes' blocks (OntapSimulator: used split evenly over the
    // aggregates a volume spans): its past follows from theirs.
    const QList<sim::ontap::OntapSimulator::AggregateSpace> aggregates = ontap.aggregateSpace();
    const qint64 stepMs = qint64(std::max(1, stepSeconds)) * 1000;
    const qint64 toMs = to.toMSecsSinceEpoch();
    const qint64 first = (from.toMSecsSinceEpoch() + stepMs - 1) / stepMs * stepMs;
    for (qint64 t = first; t <= toMs; t += stepMs) {
        const QDateTime at = QDateTime::fromMSecsSinceEpoch(t, Qt::UTC);
        const double daysBefore = double(toMs - t) / 86'400'000.0;
        std::vector<core::VolumeUsage> usage;
        usage.reserve(std::size_t(volumes.size()));
        for (qsizetype i = 0; i < volumes.size(); ++i) {
            const auto &v = volumes[i];
            usage.push_back(
                {v.uuid, profiles[i].usedAt(v.usedBytes, v.sizeBytes, daysBefore, t / stepMs), v.sizeBytes});
        }
        QHash<QString, double> aggregateDelta;
        for (qsizetype i = 0; i < volumes.size(); ++i) {
            const auto &v = volumes[i];
            for (const QString &a : v.aggregates) {
                aggregateDelta[a] +=
                    double(v.usedBytes - usage[std::size_t(i)].usedBytes) * v.ownShare / double(v.aggregates.size());
            }
        }
        std::vector<core::VolumeUsage> aggregateUsage;
        for (const auto &a : aggregates) {
            const qint64 used = std::clamp<qint64>(
                a.usedBytes - std::llround(aggregateDelta.value(a.uuid)), 0, std::max<qint64>(0, a.sizeBytes));
            aggregateUsage.push_back({a.uuid, used, a.sizeBytes});
        }
        if (!store.recordVolumeUsage(ontapSource, usage, at)
            || !store.recordCapacity(ontapSource, core::ContainerKind::Aggregate, aggregateUsage, at)) {
            return core::fail(QStringLiteral("history store: cannot record %1's capacity").arg(ontapSource));
        }
        for (const CacheVolume &cache : caches) {
            const qsizetype i = byName.value(cache.svm + QLatin1Char('/') + cache.volume, -1);
            if (i < 0) {
                continue;
            }
            const core::VolumeUsage &u = usage[std::size_t(i)];
            if (!store.recordCapacity(cache.kubernetesSource,
                                      core::ContainerKind::CacheTarget,
                                      {core::VolumeUsage{cache.target, u.usedBytes, u.sizeBytes}},
                                      at)) {
                return core::fail(
                    QStringLiteral("history store: cannot record cache target %1's capacity").arg(cache.target));
            }
        }
    }
    return {};
}

} // namespace strata::demo
