#pragma once

#include "models/core/planning/cachepolicy.h"
#include "models/core/sources/source.h"
#include "models/core/sources/systempoller.h"
#include "models/core/store/config.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <memory>
#include <vector>

class QThreadPool;

namespace strata::core {

class Estate;
class HistoryService;
class SystemPoller;

/// Kubernetes GPU cluster source. Keeps nodes, namespaces, pods, Jobs, events, ResourceQuotas,
/// PVCs, PVs and (when the cluster runs KAI) its Queues and PodGroups (at the versions discovery
/// finds serving them: KAI serves queues in v2, podgroups in v2alpha2) current
/// with one list-then-watch reflector per type (pages and watches, never repeated full lists),
/// all on ONE thread per cluster (an event loop, libcurl's multi interface). stop(), refresh()
/// and the destructor signal that thread and return at once; it finishes in the background. Changes are coalesced and
/// turned into the estate's compute records (clusters, GPU nodes, projects, jobs, PVCs) off the GUI thread at most
/// every `publishInterval`, then published as keyed diffs. DCGM utilization comes from the configured Prometheus every
/// performance interval. Project allocation and utilization go to the history store. Job submit/delete and project
/// quota changes run through the action framework, idempotently.
///
/// Where the cluster comes from: `url` + bearer token (the secret) + `caFile`, or else the
/// kubeconfig (`kubeconfig` path or $KUBECONFIG / ~/.kube/config) and its `kubeContext`, or,
/// with `kubeconfigInSecret`, the kubeconfig YAML that is the secret itself (an AKS cluster
/// added from its Azure source).
class KubernetesSource final : public Source, public IActionExecutor
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KubernetesSource)

public:
    struct Deps
    {
        Estate &estate;
        IClock &clock;
        QThreadPool &pool;
        HistoryService *history = nullptr; ///< optional
        /// Where a commit's objects are (CacheCommit): `datasetSource`, `datasetId`, `commitId`
        /// of the request; why not (a sentence) when unknown. Owner thread. Unset = caching is
        /// refused with a reason.
        std::function<Result<CommitLocation>(
            const QString &datasetSource, const QString &datasetId, const QString &commitId)>
            resolveCommit;
    };

    /// `token` is the bearer token when the config has a `url`, the kubeconfig YAML with
    /// `kubeconfigInSecret`; ignored with a kubeconfig file.
    KubernetesSource(SourceConfig config, QString token, Deps deps, QObject *parent = nullptr);
    ~KubernetesSource() override;

    [[nodiscard]] SourceStatus status() const override;
    void start() override;
    void stop() override;
    void refresh() override;
    void setPassword(const QString &password) override;
    /// After the first full view of the cluster and, with cache targets, the first read of
    /// their state (or its failure), so a one-shot CLI run sees the cached commits.
    [[nodiscard]] bool hasPolledOnce() const override;

    // IActionExecutor
    [[nodiscard]] ActionPreview preview(const ActionRequest &request) const override;
    [[nodiscard]] std::function<ActionResult(const ActionContext &)> prepare(const ActionRequest &request) override;
    void afterSuccess(const ActionRequest &request) override;
    /// Cache load (the loader Job, named from the commit and target): see ActionContext::recovery.
    [[nodiscard]] bool recovers(ActionKind kind) const override;

    /// Checks what the Sources page's "Test" button promises: resolves the endpoint like the
    /// source does (url + `token` + caFile, or the kubeconfig and its context, running an exec
    /// plugin if the user entry has one), then GET /version and /apis once each (no retries,
    /// 20 s per request). On a pool thread; `done(ok, message)` runs on the GUI thread unless
    /// `context` is gone by then. Success: "Connected to v1.34.1 in 42 ms; KAI queues found."
    /// (kubeconfig: the server and context are named too); otherwise the connector's error with
    /// the server URL. With a `prometheusUrl`, /api/v1/status/buildinfo is asked as well: its
    /// version is appended, or the error is, and then `ok` is false.
    static void testConnection(const SourceConfig &config,
                               const QString &token,
                               QThreadPool &pool,
                               QObject *context,
                               std::function<void(bool ok, QString message)> done);
    /// The contexts of a kubeconfig: their names in file order and its current-context (maybe
    /// empty).
    struct KubeconfigContexts
    {
        QStringList names;
        QString current;
    };
    /// The contexts of the kubeconfig at `path` (empty = $KUBECONFIG or ~/.kube/config, merged
    /// as kubectl does). An error naming the file when it is missing, its YAML is invalid or it
    /// defines no contexts. Blocking file I/O: call it on a pool thread, never on the GUI thread.
    static Result<KubeconfigContexts> kubeconfigContexts(const QString &path);

    /// The cache targets ("NFS connected") this cluster mounts: their state ConfigMaps, loader
    /// and evictor Jobs are read every cache poll, reconciled (the ConfigMap is rewritten when a
    /// record moved) and published as CacheTarget/CachedCommit records with the eviction policy
    /// applied. Targets of other sources are ignored.
    void setCacheTargets(const QList<CacheTargetConfig> &targets) override;
    [[nodiscard]] QList<CacheTargetConfig> cacheTargets() const { return m_cacheTargets; }
    /// How often cache state is read (default 5 s; loads show progress at this pace).
    void setCachePollInterval(std::chrono::milliseconds interval);
    /// Reads cache state now.
    void refreshCaches();
    /// The loader script (packaging/cache-loader/loader.py) built into the binary; empty when
    /// the build had none.
    static QByteArray loaderScript();
    /// Replaces the loader script CacheCommit installs (tests, or a site pinning its own
    /// build); empty = loaderScript().
    void setLoaderScript(const QByteArray &script) { m_loaderScript = script; }

    /// Minimum time between two publishes of compute records (coalescing window), counted from
    /// the last build: a change after a quiet spell is published at once. Default 250 ms.
    void setPublishInterval(std::chrono::milliseconds interval);

    /// How long the source waits on the API server. A resource whose list fails (404, 403, ...)
    /// or has not answered by `firstSync` is reported in status() (Degraded, lastError
    /// "podgroups.scheduling.run.ai: ...") and the first view goes out without it, so
    /// hasPolledOnce() turns true and one-shot CLI commands return; its reflector keeps trying
    /// and its data joins the view once listed. An unreachable server counts as polled after
    /// the first failed attempt to connect, as other sources do.
    struct Timeouts
    {
        /// Whole-request limit of lists, gets and patches (> 0).
        std::chrono::milliseconds request{60'000};
        /// A watch stream that received no byte for this long is dropped and reported (> 0).
        std::chrono::milliseconds watchIdle{120'000};
        /// From start(): resources not listed by then (and a server that has not answered
        /// /version and discovery) are reported and the first view is published without them.
        std::chrono::milliseconds firstSync{30'000};
    };
    /// Takes effect at the next start() or refresh().
    void setTimeouts(const Timeouts &timeouts) { m_timeouts = timeouts; }
    [[nodiscard]] const Timeouts &timeouts() const { return m_timeouts; }
    /// Time at which the first complete view (every reflector listed once) was published;
    /// invalid before (benchmarks).
    [[nodiscard]] QDateTime firstFullView() const { return m_firstFullView; }
    /// Publishes done so far (benchmarks, tests).
    [[nodiscard]] int publishCount() const { return m_publishCount; }
    /// Cluster threads of all sources of this process that have not finished yet: one per
    /// started source, and those of stopped sources still winding down in the background
    /// (stop() and the destructor never wait for them; they are joined at exit). Tests.
    static int clusterThreads();

    struct Shared;

Q_SIGNALS:
    /// A cache poll finished and its state was published (tests, the CLI).
    void cachesPolled();

private:
    PollJob cachePollJob();
    /// What a cache action acts on, worked out by its preview.
    struct CacheActionPlan
    {
        CacheTargetConfig target;
        CommitLocation location;   ///< CacheCommit
        QList<CachedCommit> evict; ///< CacheEvict: the commit; CacheCommit: LRU commits cleared first
    };
    [[nodiscard]] const CacheTargetConfig *cacheTarget(const QString &name) const;
    ActionPreview previewCache(const ActionRequest &request, CacheActionPlan *plan) const;
    std::function<ActionResult(const ActionContext &)> prepareCache(const ActionRequest &request);
    void launch();
    void shutdown();
    void onCacheChanged();
    void buildAndPublish();
    /// How long a change waits before the next build: the rest of the window since the last one.
    [[nodiscard]] std::chrono::milliseconds publishDelay() const;
    void onMetricsStateChanged();
    void onFirstSyncDeadline();
    void markPolledOnce(bool ok);
    void recordHistory();
    void publishCacheState();
    struct CachePollResult;
    void applyCachePoll(const CachePollResult &result);

    Deps m_deps;
    QString m_token;
    std::shared_ptr<Shared> m_shared;
    SystemPoller *m_metrics = nullptr;
    SystemPoller *m_cachePoller = nullptr;
    QList<CacheTargetConfig> m_cacheTargets;
    /// Per target name: its records as last read and reconciled (no evictAt yet).
    QHash<QString, QList<CachedCommit>> m_cacheRecords;
    /// Per target name: why its state could not be read, empty when fine.
    QHash<QString, QString> m_cacheErrors;
    std::chrono::milliseconds m_cachePollInterval{5000};
    QByteArray m_loaderScript;
    QTimer m_publishTimer;
    QElapsedTimer m_sinceBuild; ///< since the last build started; invalid before the first
    QTimer m_firstSyncTimer;
    Timeouts m_timeouts;
    std::chrono::milliseconds m_publishInterval{250};
    bool m_building = false;
    bool m_dirtyWhileBuilding = false;
    bool m_polledOnce = false;
    bool m_cachesReadOnce = false;
    QDateTime m_firstFullView;
    QDateTime m_lastHistory;
    /// When this source (its clock, on its thread) first saw the cluster's latest applied batch.
    QDateTime m_lastChange;
    std::uint64_t m_seenChanges = 0;
    int m_publishCount = 0;
    bool m_storageDirty = true;
    size_t m_storageSignature = 0; ///< of the estate's volume names, sources and ids last seen
};

} // namespace strata::core
