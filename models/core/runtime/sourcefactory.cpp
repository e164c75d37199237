#include "models/core/runtime/sourcefactory.h"

#include "models/core/sources/azure/azuresource.h"
#include "models/core/sources/kubernetes/kubernetessource.h"
#include "models/core/sources/ontap/ontapsource.h"
#include "models/core/sources/storagegrid/storagegridsource.h"

namespace strata::core {

namespace {

// ONTAP and Azure sources take the same dependencies.
template <class S>
Source *volumeSource(const SourceConfig &config, const QString &secret, const SourceContext &context, QObject *parent)
{
    return new S(config,
                 secret,
                 typename S::Deps{context.estate, context.clock, context.pool, context.history, context.serviceLevels},
                 parent);
}

} // namespace

Source *createSource(const SourceConfig &config, const QString &secret, const SourceContext &context, QObject *parent)
{
    switch (config.kind) {
    case SourceKind::Ontap:
        return volumeSource<OntapSource>(config, secret, context, parent);
    case SourceKind::Azure:
        return volumeSource<AzureSource>(config, secret, context, parent);
    case SourceKind::Kubernetes: {
        auto *kube = new KubernetesSource(
            config,
            secret,
            KubernetesSource::Deps{context.estate, context.clock, context.pool, context.history, context.resolveCommit},
            parent);
        if (context.firstPollDeadline.count() > 0) {
            KubernetesSource::Timeouts timeouts = kube->timeouts();
            timeouts.firstSync = context.firstPollDeadline;
            kube->setTimeouts(timeouts);
        }
        return kube;
    }
    case SourceKind::StorageGrid:
        return new StorageGridSource(
            config,
            secret,
            StorageGridSource::Deps{context.estate, context.clock, context.pool, context.history, context.user},
            parent);
    }
    return nullptr;
}

} // namespace strata::core
