#pragma once

#include "models/core/domain/error.h"
#include "models/core/planning/cachepolicy.h"
#include "models/core/store/config.h"

#include <QList>
#include <QString>

#include <chrono>
#include <functional>

class QObject;
class QThreadPool;

namespace strata::core {

class Estate;
class HistoryService;
class IClock;
class ServiceLevels;
class Source;

/// What every source is built with: the engine's estate, clock, worker pool and services, and
/// what some kinds need besides (the others ignore it).
struct SourceContext
{
    Estate &estate;
    IClock &clock;
    QThreadPool &pool;
    HistoryService *history = nullptr;      ///< optional: capacity and performance history
    ServiceLevels *serviceLevels = nullptr; ///< optional: caps, cost and cool-down in level previews
    QString user;                           ///< StorageGRID: the author of a DatasetCommit
    /// Kubernetes: where a commit's objects are, for a CacheCommit (owner thread); unset =
    /// caching is refused with a reason.
    std::function<Result<CommitLocation>(
        const QString &datasetSource, const QString &datasetId, const QString &commitId)>
        resolveCommit;
    /// Kubernetes: how long the first list of every resource may take before the source says it
    /// is degraded; 0 = the source's own default.
    std::chrono::milliseconds firstPollDeadline{0};
};

/// A source of `config.kind` with its secret (ONTAP and StorageGRID password, Kubernetes bearer
/// token or kubeconfig YAML, Azure client secret; empty = none), not started. The one place that
/// knows every kind, so the engine includes none of them.
Source *createSource(const SourceConfig &config, const QString &secret, const SourceContext &context, QObject *parent);

} // namespace strata::core
