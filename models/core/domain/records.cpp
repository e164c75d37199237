#include "models/core/domain/records.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace strata::core {

QString sourceKindName(SourceKind kind)
{
    switch (kind) {
    case SourceKind::Ontap:
        return QStringLiteral("ontap");
    case SourceKind::Kubernetes:
        return QStringLiteral("kubernetes");
    case SourceKind::Azure:
        return QStringLiteral("azure");
    case SourceKind::StorageGrid:
        return QStringLiteral("storagegrid");
    }
    return {};
}

std::optional<SourceKind> sourceKindFromName(const QString &name)
{
    if (name == QLatin1String("ontap")) {
        return SourceKind::Ontap;
    }
    if (name == QLatin1String("kubernetes")) {
        return SourceKind::Kubernetes;
    }
    if (name == QLatin1String("azure")) {
        return SourceKind::Azure;
    }
    if (name == QLatin1String("storagegrid")) {
        return SourceKind::StorageGrid;
    }
    return std::nullopt;
}

QString datasetKindName(DatasetKind kind)
{
    switch (kind) {
    case DatasetKind::S3Prefix:
        return QStringLiteral("s3_prefix");
    case DatasetKind::S3Bucket:
        return QStringLiteral("s3_bucket");
    case DatasetKind::OntapVolume:
        return QStringLiteral("ontap_volume");
    }
    return {};
}

namespace {
constexpr std::array<const char *, 6> cacheStateNames{"requested", "loading", "ready", "evicting", "evicted", "failed"};
}

QString cacheStateName(CacheState state)
{
    return QString::fromLatin1(cacheStateNames.at(static_cast<std::size_t>(state)));
}

std::optional<CacheState> cacheStateFromName(const QString &name)
{
    for (std::size_t i = 0; i < cacheStateNames.size(); ++i) {
        if (name == QLatin1String(cacheStateNames.at(i))) {
            return static_cast<CacheState>(i);
        }
    }
    return std::nullopt;
}

QString healthName(Health health)
{
    switch (health) {
    case Health::Unknown:
        return QStringLiteral("unknown");
    case Health::Ok:
        return QStringLiteral("ok");
    case Health::Degraded:
        return QStringLiteral("degraded");
    case Health::Unreachable:
        return QStringLiteral("unreachable");
    case Health::AuthRequired:
        return QStringLiteral("auth_required");
    }
    return {};
}

QString jobTypeName(JobType type)
{
    return type == JobType::Interactive ? QStringLiteral("interactive") : QStringLiteral("train");
}

QString jobStatusName(JobStatus status)
{
    switch (status) {
    case JobStatus::Pending:
        return QStringLiteral("pending");
    case JobStatus::Preempted:
        return QStringLiteral("preempted");
    case JobStatus::ContainerCreating:
        return QStringLiteral("container_creating");
    case JobStatus::Running:
        return QStringLiteral("running");
    case JobStatus::Succeeded:
        return QStringLiteral("succeeded");
    case JobStatus::Failed:
        return QStringLiteral("failed");
    case JobStatus::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QList<MilliGpu> fairShares(MilliGpu capacity, const QList<MilliGpu> &quota, const QList<MilliGpu> &demand)
{
    QList<qint64> weight;
    weight.reserve(quota.size());
    for (const MilliGpu q : quota) {
        weight.append(std::max<MilliGpu>(q, 0));
    }
    return fairShares(capacity, quota, demand, weight);
}

QList<MilliGpu>
fairShares(MilliGpu capacity, const QList<MilliGpu> &quota, const QList<MilliGpu> &demand, const QList<qint64> &weight)
{
    const qsizetype n = quota.size();
    QList<MilliGpu> share(n, 0);
    MilliGpu spare = capacity;
    for (qsizetype i = 0; i < n; ++i) {
        share[i] = std::min(std::max<MilliGpu>(quota[i], 0), demand.value(i));
        spare -= share[i];
    }
    const auto hungry = [&](qsizetype i) {
        return demand.value(i) > share[i] && weight.value(i) > 0;
    };
    // Each proportional round satisfies a project or spends the spare GPUs; the one-by-one rounds
    // after it hand out fewer milli-GPUs than there are hungry projects' weights.
    while (spare > 0) {
        qint64 hungryWeight = 0;
        for (qsizetype i = 0; i < n; ++i) {
            if (hungry(i)) {
                hungryWeight += weight.value(i);
            }
        }
        if (hungryWeight == 0) {
            break;
        }
        MilliGpu given = 0;
        for (qsizetype i = 0; i < n; ++i) {
            if (hungry(i)) {
                const MilliGpu portion = std::min(spare * weight.value(i) / hungryWeight, demand.value(i) - share[i]);
                share[i] += portion;
                given += portion;
            }
        }
        if (given == 0) {
            for (qsizetype i = 0; i < n && given < spare; ++i) {
                if (hungry(i)) {
                    ++share[i];
                    ++given;
                }
            }
        }
        spare -= given;
    }
    return share;
}

} // namespace strata::core
