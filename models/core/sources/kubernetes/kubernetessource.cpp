#include "models/core/sources/kubernetes/kubernetessource.h"

#include "connectors/http/curlloop.h"
#include "connectors/http/curltransport.h"
#include "connectors/kubernetes/client.h"
#include "connectors/kubernetes/dto.h"
#include "connectors/kubernetes/kubeconfig.h"
#include "connectors/kubernetes/reflector.h"
#include "connectors/prometheus/client.h"
#include "connectors/prometheus/dcgm.h"
#include "models/core/domain/convert.h"
#include "models/core/domain/estate.h"
#include "models/core/domain/offthread.h"
#include "models/core/planning/cachepolicy.h"
#include "models/core/planning/diagnosis.h"
#include "models/core/services/historyservice.h"
#include "models/core/sources/connectorerror.h"
#include "models/core/sources/kubernetes/kubecompute.h"
#include "models/core/sources/systempoller.h"

#include <QCoreApplication>
#include <QFile>
#include <QLoggingCategory>
#include <QPointer>
#include <QRegularExpression>
#include <QThreadPool>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <climits>
#include <fstream>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <iterator>
#include <mutex>
#include <sstream>
#include <thread>
#include <type_traits>

Q_LOGGING_CATEGORY(lcKube, "strata.kubernetes", QtInfoMsg)

namespace strata::core {

using namespace std::chrono_literals;
using nlohmann::json;

namespace {

constexpr std::size_t kMaxEvents = 2000;
constexpr std::size_t kPublishedEvents = 500;
constexpr auto kHistoryInterval = 60s;

// The cluster threads. shutdown() does not join them (a slow server, a hung CA file or DNS
// lookup must not freeze the GUI): they finish in the background, owning what they use, and are
// joined here: the finished ones whenever another starts, the rest (stopped first) at exit.
class KubeWorkerReaper
{
public:
    KubeWorkerReaper() = default;
    ~KubeWorkerReaper() { joinAll(); }
    KubeWorkerReaper(const KubeWorkerReaper &) = delete;
    KubeWorkerReaper &operator=(const KubeWorkerReaper &) = delete;

    /// Runs `body` on a new thread; `stop` makes it return soon (called at exit if still running).
    void start(std::function<void()> stop, std::function<void()> body)
    {
        reapFinished();
        auto done = std::make_shared<std::atomic<bool>>(false);
        std::thread thread([body = std::move(body), done]() mutable {
            body();
            body = nullptr; // what it owns goes before the thread counts as finished
            done->store(true);
        });
        std::lock_guard lock(m_mutex);
        m_workers.push_back(Worker{std::move(thread), std::move(stop), std::move(done)});
    }

    int running()
    {
        reapFinished();
        std::lock_guard lock(m_mutex);
        return static_cast<int>(m_workers.size());
    }

private:
    struct Worker
    {
        std::thread thread;
        std::function<void()> stop;
        std::shared_ptr<std::atomic<bool>> done;
    };

    void reapFinished()
    {
        std::vector<Worker> finished;
        {
            std::lock_guard lock(m_mutex);
            const auto split = std::stable_partition(m_workers.begin(), m_workers.end(), [](const Worker &w) {
                return !w.done->load();
            });
            std::move(split, m_workers.end(), std::back_inserter(finished));
            m_workers.erase(split, m_workers.end());
        }
        for (Worker &w : finished) {
            w.thread.join();
        }
    }

    void joinAll()
    {
        std::vector<Worker> all;
        {
            std::lock_guard lock(m_mutex);
            all.swap(m_workers);
        }
        for (Worker &w : all) {
            w.stop();
        }
        for (Worker &w : all) {
            w.thread.join();
        }
    }

    std::mutex m_mutex;
    std::vector<Worker> m_workers;
};

KubeWorkerReaper &kubeWorkers()
{
    static KubeWorkerReaper reaper;
    return reaper;
}

connectors::Result<kubernetes::ClusterEndpoint> resolveEndpoint(const SourceConfig &config, const QString &token)
{
    if (config.kubeconfigInSecret) {
        // The secret is a whole kubeconfig (AKS's listClusterUserCredential): its tokens and
        // keys live in the keychain, never in a file. Messages name the source, not the text.
        const std::string where = "the kubeconfig stored for source " + ss(config.name);
        if (token.trimmed().isEmpty()) {
            connectors::Error error;
            error.kind = connectors::Error::Kind::Auth;
            error.message = where + " is empty; add the cluster again or paste its kubeconfig";
            return Unexpected{std::move(error)};
        }
        auto kubeconfig = kubernetes::parseKubeconfig(ss(token), std::string(), where);
        if (!kubeconfig) {
            return Unexpected{kubeconfig.error()};
        }
        return kubeconfig->endpoint(ss(config.kubeContext));
    }
    if (!config.url.isEmpty()) {
        kubernetes::ClusterEndpoint endpoint;
        endpoint.contextName = endpoint.clusterName = ss(config.name);
        endpoint.server = ss(config.url);
        while (!endpoint.server.empty() && endpoint.server.back() == '/') {
            endpoint.server.pop_back();
        }
        endpoint.token = ss(token);
        endpoint.insecureSkipTlsVerify = config.insecureSkipTlsVerify;
        if (!config.caFile.isEmpty()) {
            std::ifstream in(ss(config.caFile), std::ios::binary);
            if (!in) {
                connectors::Error error;
                error.kind = connectors::Error::Kind::Tls;
                error.message = "cannot read the CA file " + ss(config.caFile);
                return Unexpected{std::move(error)};
            }
            std::ostringstream text;
            text << in.rdbuf();
            endpoint.caPem = text.str();
        }
        return endpoint;
    }
    const std::vector<std::string> paths =
        config.kubeconfig.isEmpty() ? kubernetes::kubeconfigPaths() : std::vector<std::string>{ss(config.kubeconfig)};
    auto kubeconfig = kubernetes::loadKubeconfig(paths);
    if (!kubeconfig) {
        return Unexpected{kubeconfig.error()};
    }
    return kubeconfig->endpoint(ss(config.kubeContext));
}

// After a (re)list and its full rebuild, the pages, the old records and the builder's
// temporaries are freed, but glibc keeps freed pages of its arenas mapped: at 100,000 pods that
// is hundreds of MiB of RSS nobody uses. Handing them back takes a few ms per GiB of heap, on
// the pool so that the GUI thread does not wait.
void kubeReleaseFreedHeap(QThreadPool &pool)
{
#ifdef __GLIBC__
    pool.start([] {
        malloc_trim(0);
    });
#else
    Q_UNUSED(pool);
#endif
}

// Applies one reflector batch to a cache map of parsed objects. Returns whether anything Strata
// reads changed: an update that only moves the resourceVersion (status heartbeats, churn in
// fields no DTO keeps) must not cost a rebuild of every job.
// `touched` (optional) collects the keys of objects that changed; `replaced` is set by a re-list.
// Pods (`map` is podCache->pods) are stored through ClusterCache::putPod.
template <class Map, class Parse>
bool applyBatch(Map &map,
                kubernetes::Reflector::Batch &batch,
                Parse parse,
                std::vector<std::string> &skipped,
                std::unordered_set<std::string> *touched = nullptr,
                bool *replaced = nullptr,
                kube::ClusterCache *podCache = nullptr)
{
    bool changed = false;
    if (batch.replace) {
        map.clear();
        changed = true;
        if (replaced) {
            *replaced = true;
            touched = nullptr; // everything is rebuilt: no need to list what moved
        }
    }
    const auto take = [&](auto &&parsed) {
        std::string key = parsed->key();
        if constexpr (std::is_same_v<typename Map::mapped_type, kube::CachedPod>) {
            // The cache keeps of a pod what the job records read (kube::CachedPod): a kubelet
            // heartbeat (an annotation, a probe time) is then no change.
            if (!podCache->putPod(*parsed)) {
                return;
            }
            if (touched) {
                touched->insert(std::move(key));
            }
            changed = true;
        } else {
            const auto it = map.find(key);
            if (it != map.end()) {
                const std::string resourceVersion = std::move(parsed->resourceVersion);
                parsed->resourceVersion = it->second.resourceVersion;
                if (*parsed == it->second) {
                    return;
                }
                parsed->resourceVersion = resourceVersion;
                it->second = std::move(*parsed);
            } else {
                if (touched) {
                    touched->insert(key);
                }
                map.emplace(std::move(key), std::move(*parsed));
                changed = true;
                return;
            }
            if (touched) {
                touched->insert(key);
            }
            changed = true;
        }
    };
    for (const json &object : batch.upserts) {
        auto parsed = parse(object);
        if (!parsed) {
            skipped.push_back(parsed.error().message);
            continue;
        }
        take(parsed);
    }
    if constexpr (std::is_same_v<typename Map::mapped_type, kube::CachedPod>) {
        // Pods come decoded (Reflector::Options::list.decodePods), without a DOM per object.
        for (const kubernetes::PodDto &pod : batch.pods) {
            take(&pod);
        }
    }
    for (const std::string &key : batch.deletedKeys) {
        if (map.erase(key) > 0) {
            changed = true;
            if (touched) {
                touched->insert(key);
            }
        }
    }
    return changed;
}

QString eventSeverity(const std::string &type)
{
    return type == "Warning" ? QStringLiteral("warning") : QStringLiteral("informational");
}

// The Test button's KAI sentence: what the source will read, or why not.
QString kaiDiscoveryFinding(const kubernetes::Discovery &discovery)
{
    if (!discovery.serves(kubernetes::kQueues)) {
        return qs(discovery.explain(kubernetes::kQueues));
    }
    const auto podGroups = discovery.resolve(kubernetes::kPodGroups);
    if (!podGroups) {
        return QObject::tr("KAI queues found, but %1").arg(qs(discovery.explain(kubernetes::kPodGroups)));
    }
    return QObject::tr("KAI queues found (podgroups in %1)").arg(qs(podGroups->apiVersion()));
}

// The newest events as estate records.
std::shared_ptr<const KeyedList<Event>>
kubeEventRecords(const QString &source, const std::unordered_map<std::string, kubernetes::EventDto> &events)
{
    std::vector<Ptr<Event>> out;
    std::vector<const kubernetes::EventDto *> sorted;
    sorted.reserve(events.size());
    for (const auto &[key, e] : events) {
        sorted.push_back(&e);
    }
    std::sort(sorted.begin(), sorted.end(), [](const auto *a, const auto *b) {
        return a->timestamp > b->timestamp;
    });
    for (std::size_t i = 0; i < sorted.size() && i < kPublishedEvents; ++i) {
        const kubernetes::EventDto &e = *sorted[i];
        Event event;
        event.source = source;
        event.id = qs(e.uid.empty() ? e.key() : e.uid);
        event.time = kube::parseTime(e.timestamp);
        event.severity = eventSeverity(e.type);
        event.name = qs(e.reason);
        event.message = qs(e.message);
        event.object =
            qs(e.involvedKind) + QLatin1Char(' ')
            + (e.involvedNamespace.empty() ? qs(e.involvedName) : qs(e.involvedNamespace + "/" + e.involvedName));
        if (e.involvedKind == "Node") {
            event.node = qs(e.involvedName);
        }
        out.push_back(std::make_shared<const Event>(std::move(event)));
    }
    return std::make_shared<const KeyedList<Event>>(std::move(out));
}

const QRegularExpression &jobNamePattern()
{
    static const QRegularExpression re(QStringLiteral("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$"));
    return re;
}

} // namespace

struct KubernetesSource::Shared
{
    SourceConfig config;
    QString token;
    http::CancelToken cancel;

    std::mutex mutex;
    kube::ClusterCache cache;
    /// The pods of a pod list being read, page by page (ListOptions::podPages): they replace
    /// cache.pods when the list is complete, so that no publish sees half a list, and the list
    /// never holds every pod as a PodDto.
    std::unordered_map<std::string, kube::CachedPod> listedPods;
    std::unordered_map<std::string, kubernetes::EventDto> events;
    struct Stream
    {
        bool synced = false; ///< listed at least once
        /// Listed, or its first list failed or ran past the first-sync deadline: the first
        /// view does not wait for it any longer.
        bool settled = false;
        std::optional<FetchError> error;
    };
    /// Keyed by ResourceType::displayName() ("pods", "podgroups.scheduling.run.ai").
    std::map<std::string, Stream> streams;
    std::optional<FetchError> bootstrapError;
    /// Why KAI objects (or some of them) are not read although the group exists: another
    /// version, or a missing CRD. Empty when all are read or KAI is not installed.
    QString kaiNote;
    kubernetes::ResourceType queueType = kubernetes::kQueues; ///< as resolved by discovery
    /// Batches applied so far; the source stamps the time it sees a new count with its own clock.
    std::uint64_t changes = 0;

    std::atomic<bool> connected{false};
    std::atomic<bool> notifyPending{false};
    std::unique_ptr<http::CurlTransport> transport;
    std::unique_ptr<kubernetes::KubeClient> client; ///< set once before `connected`
    std::unique_ptr<http::CurlTransport> promTransport;
    std::unique_ptr<prometheus::PrometheusClient> prom;

    /// Wakes the source on the GUI thread, until shutdown() cleared it: after that the
    /// cluster's thread (finishing in the background) never touches the source again.
    std::mutex notifyMutex;
    std::function<void()> notifyOwner;
    /// Set by the cluster's thread once the streams run; stopped by shutdown().
    std::shared_ptr<http::CurlLoop> loop;

    /// The compute records kept between publishes (one build at a time, under `mutex`).
    std::unique_ptr<kube::ComputeBuilder> builder;
    bool eventsChanged = true;  ///< since the last build
    bool storageChanged = true; ///< the estate's volumes moved since the last build

    /// Any thread: the cluster's thread returns soon (requests in flight are dropped).
    void stop()
    {
        cancel.cancel();
        std::lock_guard lock(mutex);
        if (loop) {
            loop->stop();
        }
    }

    void notify()
    {
        std::lock_guard lock(notifyMutex);
        if (notifyOwner) {
            notifyOwner();
        }
    }

    bool allSynced() const
    {
        if (streams.empty()) {
            return false;
        }
        for (const auto &[name, stream] : streams) {
            if (!stream.synced) {
                return false;
            }
        }
        return true;
    }
    /// Every stream listed or given up on for the first view.
    bool allSettled() const
    {
        if (streams.empty()) {
            return false;
        }
        for (const auto &[name, stream] : streams) {
            if (!stream.settled) {
                return false;
            }
        }
        return true;
    }
};

namespace {

/// The cluster connection an action runs on: the source's own while its streams run, else one
/// opened for this action alone. A replica that does not hold the source's lease (and a source
/// still connecting) thus runs the action itself against the same API server instead of
/// failing; the action journal keeps it to one run whichever replica takes it.
class ActionLink
{
public:
    static connectors::Result<ActionLink> open(const std::shared_ptr<KubernetesSource::Shared> &shared,
                                               const SourceConfig &config,
                                               const QString &token,
                                               std::chrono::milliseconds requestTimeout,
                                               const http::CancelToken &cancel)
    {
        ActionLink link;
        if (shared && shared->connected) {
            link.m_shared = shared;
            link.m_client = shared->client.get();
            std::lock_guard lock(shared->mutex);
            link.m_queueType = shared->queueType;
            return link;
        }
        auto endpoint = resolveEndpoint(config, token);
        if (!endpoint) {
            return Unexpected{endpoint.error()};
        }
        http::TransportOptions base;
        base.totalTimeout = requestTimeout;
        link.m_transport = std::make_unique<http::CurlTransport>(kubernetes::transportOptions(*endpoint, base));
        kubernetes::KubeClientOptions options;
        options.requestTimeout = requestTimeout;
        link.m_own = std::make_unique<kubernetes::KubeClient>(*link.m_transport, *endpoint, std::move(options));
        // The KAI Queue version this server serves, as the streams would have resolved it.
        auto discovery = link.m_own->discover(cancel, {kubernetes::kQueues});
        if (!discovery) {
            return Unexpected{discovery.error()};
        }
        if (const std::optional<kubernetes::ResourceType> queues = discovery->resolve(kubernetes::kQueues)) {
            link.m_queueType = *queues;
        }
        link.m_client = link.m_own.get();
        return link;
    }

    [[nodiscard]] kubernetes::KubeClient &client() const { return *m_client; }
    [[nodiscard]] const kubernetes::ResourceType &queueType() const { return m_queueType; }

private:
    std::shared_ptr<KubernetesSource::Shared> m_shared; ///< keeps the source's client alive
    std::unique_ptr<http::CurlTransport> m_transport;
    std::unique_ptr<kubernetes::KubeClient> m_own;
    kubernetes::KubeClient *m_client = nullptr;
    kubernetes::ResourceType m_queueType = kubernetes::kQueues;
};

ActionResult unreachable(const connectors::Error &error)
{
    return actionFailed(QObject::tr("Cannot reach the cluster: %1").arg(qs(error.message)));
}

} // namespace

KubernetesSource::KubernetesSource(SourceConfig config, QString token, Deps deps, QObject *parent)
    : Source(std::move(config), parent)
    , m_deps(deps)
    , m_token(std::move(token))
{
    m_publishTimer.setSingleShot(true);
    connect(&m_publishTimer, &QTimer::timeout, this, &KubernetesSource::buildAndPublish);
    m_firstSyncTimer.setSingleShot(true);
    connect(&m_firstSyncTimer, &QTimer::timeout, this, &KubernetesSource::onFirstSyncDeadline);
    connect(&m_deps.estate, &Estate::volumesChanged, this, [this] {
        m_storageDirty = true;
        // A storage source that answers after this cluster's first view brings the volumes its
        // claims resolve to: publish the joined PVCs now, not with the next cluster change (a
        // one-shot `get pvcs` or `why` answers within seconds).
        size_t signature = 0;
        for (const Ptr<Volume> &v : m_deps.estate.volumes().all()) {
            signature += qHash(v->name) ^ (qHash(v->source) * 31U) ^ (qHash(v->id) * 131U);
        }
        if (signature != m_storageSignature) {
            m_storageSignature = signature;
            if (m_shared && m_publishCount > 0 && !m_publishTimer.isActive()) {
                m_publishTimer.start(publishDelay());
            }
        }
    });

    SystemPoller::Options metricsOptions;
    metricsOptions.name = m_config.name + QStringLiteral("/metrics");
    metricsOptions.interval = std::chrono::seconds(m_config.perfIntervalSeconds);
    metricsOptions.minBackoff = 5s;
    metricsOptions.maxBackoff = 120s;
    m_metrics = new SystemPoller(
        metricsOptions,
        m_deps.clock,
        m_deps.pool,
        [this] {
            std::shared_ptr<Shared> shared = m_shared;
            const http::CancelToken token;
            PollJob job;
            job.cancel = cancelling(token);
            job.run = [shared, token]() -> PollOutcome {
                PollOutcome out;
                if (!shared || !shared->prom) {
                    return out;
                }
                auto metrics = prometheus::queryGpuMetrics(*shared->prom, token);
                if (!metrics) {
                    out.error = toFetchError(metrics.error());
                    out.error->message = QStringLiteral("Prometheus: ") + out.error->message;
                    return out;
                }
                out.apply = [shared, gpus = std::move(*metrics)]() mutable {
                    {
                        std::lock_guard lock(shared->mutex);
                        shared->cache.gpuMetrics = std::move(gpus);
                        shared->cache.metricsAvailable = true;
                        shared->cache.changes.all = true; // every job's utilization
                    }
                    shared->notify();
                };
                return out;
            };
            return job;
        },
        this);
    connect(m_metrics, &SystemPoller::stateChanged, this, &KubernetesSource::onMetricsStateChanged);
}

KubernetesSource::~KubernetesSource()
{
    shutdown();
}

int KubernetesSource::clusterThreads()
{
    return kubeWorkers().running();
}

void KubernetesSource::setPublishInterval(std::chrono::milliseconds interval)
{
    m_publishInterval = interval;
}

void KubernetesSource::start()
{
    if (m_shared) {
        return;
    }
    launch();
}

void KubernetesSource::stop()
{
    shutdown();
    Q_EMIT statusChanged();
}

void KubernetesSource::refresh()
{
    // Watches keep the cache current; a refresh re-reads metrics and restarts the streams so a
    // user who suspects drift gets a fresh list.
    shutdown();
    launch();
    m_metrics->pollNow();
}

void KubernetesSource::setPassword(const QString &password)
{
    m_token = password;
    refresh();
}

void KubernetesSource::launch()
{
    auto shared = std::make_shared<Shared>();
    shared->config = m_config;
    shared->token = m_token;
    const Timeouts timeouts = m_timeouts;
    QPointer<KubernetesSource> self(this);
    std::weak_ptr<Shared> weak = shared;
    shared->notifyOwner = [self, weak] {
        auto s = weak.lock();
        if (!s || s->notifyPending.exchange(true)) {
            return;
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self] {
                if (self) {
                    self->onCacheChanged();
                }
            },
            Qt::QueuedConnection);
    };
    if (!m_config.prometheusUrl.isEmpty()) {
        shared->promTransport = std::make_unique<http::CurlTransport>();
        http::ClientOptions options;
        options.baseUrl = ss(m_config.prometheusUrl);
        shared->prom = std::make_unique<prometheus::PrometheusClient>(*shared->promTransport, options);
    }
    m_shared = shared;

    // One thread per cluster: resolve the endpoint, reach the server, discover KAI, then run the
    // reflectors of every resource type on one event loop. shutdown() does not wait for it.
    kubeWorkers().start(
        [weak] {
            if (auto s = weak.lock()) {
                s->stop();
            }
        },
        [shared, timeouts] {
            const http::CancelToken &cancel = shared->cancel;
            auto fail = [&](const connectors::Error &error) {
                {
                    std::lock_guard lock(shared->mutex);
                    shared->bootstrapError = toFetchError(error);
                }
                shared->notify();
            };
            std::chrono::milliseconds backoff = 1s;
            kubernetes::Discovery discovery;
            std::string version;
            while (!cancel.isCancelled()) {
                auto endpoint = resolveEndpoint(shared->config, shared->token);
                if (!endpoint) {
                    fail(endpoint.error());
                } else {
                    http::TransportOptions base;
                    base.totalTimeout = timeouts.request;
                    base.streamIdleTimeout = timeouts.watchIdle;
                    shared->transport =
                        std::make_unique<http::CurlTransport>(kubernetes::transportOptions(*endpoint, std::move(base)));
                    kubernetes::KubeClientOptions clientOptions;
                    clientOptions.requestTimeout = timeouts.request;
                    shared->client = std::make_unique<kubernetes::KubeClient>(
                        *shared->transport, *endpoint, std::move(clientOptions));
                    auto v = shared->client->version(cancel);
                    // Resource lists of the optional groups: which version serves which resource.
                    auto d = v ? shared->client->discover(cancel, {kubernetes::kQueues, kubernetes::kPodGroups})
                               : connectors::Result<kubernetes::Discovery>(Unexpected{v.error()});
                    if (v && d) {
                        version = v->gitVersion;
                        discovery = std::move(*d);
                        break;
                    }
                    fail(v ? d.error() : v.error());
                    shared->client.reset();
                    shared->transport.reset();
                }
                if (!cancel.sleepFor(backoff)) {
                    return;
                }
                backoff = std::min<std::chrono::milliseconds>(backoff * 2, 30s);
            }
            if (cancel.isCancelled()) {
                return;
            }
            const std::optional<kubernetes::ResourceType> queues = discovery.resolve(kubernetes::kQueues);
            const std::optional<kubernetes::ResourceType> podGroups = discovery.resolve(kubernetes::kPodGroups);
            const bool hasKai = queues.has_value();
            {
                std::lock_guard lock(shared->mutex);
                shared->bootstrapError.reset();
                shared->cache.version = version;
                shared->cache.hasKai = hasKai;
                if (queues) {
                    shared->queueType = *queues;
                }
                if (!hasKai && discovery.group("scheduling.run.ai")) {
                    shared->kaiNote = qs(discovery.explain(kubernetes::kQueues));
                } else if (hasKai && !podGroups) {
                    shared->kaiNote = qs(discovery.explain(kubernetes::kPodGroups));
                }
            }
            shared->connected = true;

            struct Spec
            {
                kubernetes::ResourceType type;
                std::function<bool(kubernetes::Reflector::Batch &, std::vector<std::string> &)> apply;
            };
            auto &c = shared->cache;
            std::vector<Spec> specs{
                {kubernetes::kNodes,
                 [&c](auto &b, auto &s) {
                     return applyBatch(c.nodes,
                                       b,
                                       kubernetes::parseNode,
                                       s,
                                       c.changes.all ? nullptr : &c.changes.nodes,
                                       &c.changes.all);
                 }},
                {kubernetes::kNamespaces,
                 [&c](auto &b, auto &s) {
                     // Projects (and so every job's project) hang on these.
                     const bool changed = applyBatch(c.namespaces, b, kubernetes::parseNamespace, s);
                     c.changes.all = c.changes.all || changed;
                     return changed;
                 }},
                {kubernetes::kPods,
                 [shared, &c](auto &b, auto &s) {
                     const bool changed = applyBatch(c.pods,
                                                     b,
                                                     kubernetes::parsePod,
                                                     s,
                                                     c.changes.all ? nullptr : &c.changes.pods,
                                                     &c.changes.all,
                                                     &c);
                     if (b.replace) { // a complete list: its pods came page by page
                         c.pods = std::move(shared->listedPods);
                         shared->listedPods = {};
                     }
                     return changed;
                 }},
                {kubernetes::kJobs,
                 [&c](auto &b, auto &s) {
                     return applyBatch(
                         c.jobs, b, kubernetes::parseJob, s, c.changes.all ? nullptr : &c.changes.jobs, &c.changes.all);
                 }},
                {kubernetes::kResourceQuotas,
                 [&c](auto &b, auto &s) {
                     // Projects (and so every job's project) hang on these.
                     const bool changed = applyBatch(c.quotas, b, kubernetes::parseResourceQuota, s);
                     c.changes.all = c.changes.all || changed;
                     return changed;
                 }},
                {kubernetes::kPvcs,
                 [&c](auto &b, auto &s) {
                     return applyBatch(
                         c.pvcs, b, kubernetes::parsePvc, s, c.changes.all ? nullptr : &c.changes.pvcs, &c.changes.all);
                 }},
                {kubernetes::kPvs,
                 [&c](auto &b, auto &s) {
                     const bool changed = applyBatch(c.pvs, b, kubernetes::parsePv, s);
                     c.changes.pvs = c.changes.pvs || changed;
                     return changed;
                 }},
                {kubernetes::kEvents,
                 [shared](auto &b, auto &s) {
                     const bool changed = applyBatch(shared->events, b, kubernetes::parseEvent, s);
                     shared->eventsChanged = shared->eventsChanged || changed;
                     if (shared->events.size() > kMaxEvents) {
                         // Keep the newest: events are for the timeline, not an archive.
                         std::vector<std::pair<std::string, std::string>> byTime;
                         byTime.reserve(shared->events.size());
                         for (const auto &[key, e] : shared->events) {
                             byTime.emplace_back(e.timestamp, key);
                         }
                         std::sort(byTime.begin(), byTime.end());
                         for (std::size_t i = 0; i + kMaxEvents < byTime.size(); ++i) {
                             shared->events.erase(byTime[i].second);
                         }
                     }
                     return changed;
                 }},
            };
            if (hasKai) {
                specs.push_back({*queues, [&c](auto &b, auto &s) {
                                     // Projects (and so every job's project) hang on these.
                                     const bool changed = applyBatch(c.queues, b, kubernetes::parseQueue, s);
                                     c.changes.all = c.changes.all || changed;
                                     return changed;
                                 }});
                if (podGroups) {
                    specs.push_back({*podGroups, [&c](auto &b, auto &s) {
                                         return applyBatch(c.podGroups,
                                                           b,
                                                           kubernetes::parsePodGroup,
                                                           s,
                                                           c.changes.all ? nullptr : &c.changes.podGroups,
                                                           &c.changes.all);
                                     }});
                }
            }
            {
                std::lock_guard lock(shared->mutex);
                for (const Spec &spec : specs) {
                    shared->streams[spec.type.displayName()] = {};
                }
            }
            const auto loop = std::make_shared<http::CurlLoop>(shared->transport->options());
            {
                std::lock_guard lock(shared->mutex);
                if (cancel.isCancelled()) {
                    return;
                }
                shared->loop = loop;
            }
            std::vector<std::unique_ptr<kubernetes::Reflector>> reflectors;
            for (const Spec &spec : specs) {
                const std::string name = spec.type.displayName();
                kubernetes::Reflector::Options options;
                options.list.limit = 500;
                options.list.decodePods =
                    spec.type.group == kubernetes::kPods.group && spec.type.plural == kubernetes::kPods.plural;
                if (options.list.decodePods) {
                    options.list.podPages = [shared](std::vector<kubernetes::PodDto> &&pods, bool first) {
                        std::lock_guard lock(shared->mutex); // the cache's string pool
                        if (first) {
                            shared->listedPods.clear();
                        }
                        for (const kubernetes::PodDto &pod : pods) {
                            shared->listedPods.insert_or_assign(pod.key(), kube::cachePod(pod, shared->cache.strings));
                        }
                    };
                }
                reflectors.push_back(std::make_unique<kubernetes::Reflector>(
                    *shared->client,
                    spec.type,
                    options,
                    [shared, &spec, name](kubernetes::Reflector::Batch &&batch) {
                        std::vector<std::string> skipped;
                        {
                            std::lock_guard lock(shared->mutex);
                            const bool changed = spec.apply(batch, skipped);
                            auto &stream = shared->streams[name];
                            const bool firstSync = !stream.synced;
                            const bool hadError = stream.error.has_value();
                            stream.synced = true;
                            stream.settled = true;
                            stream.error.reset();
                            if (!skipped.empty()) {
                                FetchError e;
                                e.kind = FetchError::Kind::Parse;
                                e.message = QStringLiteral("%1: %2 malformed object(s) skipped: %3")
                                                .arg(qs(name))
                                                .arg(skipped.size())
                                                .arg(qs(skipped.front()));
                                stream.error = e;
                            }
                            ++shared->changes;
                            if (!changed && !firstSync && !hadError && !stream.error) {
                                return; // nothing Strata shows moved: no rebuild, no status change
                            }
                        }
                        shared->notify();
                    },
                    [shared, name](const connectors::Error &error) {
                        if (error.kind == connectors::Error::Kind::Cancelled) {
                            return;
                        }
                        {
                            std::lock_guard lock(shared->mutex);
                            FetchError e = toFetchError(error);
                            e.message = qs(name) + QStringLiteral(": ") + e.message;
                            auto &stream = shared->streams[name];
                            stream.error = e;
                            // A failed first list must not hold the first view back for ever.
                            stream.settled = true;
                        }
                        shared->notify();
                    }));
                reflectors.back()->start(*loop, shared->cancel);
            }
            loop->run();
            // The reflectors go before the loop, on the thread that ran them.
            reflectors.clear();
        });
    m_metrics->start();
    if (m_cachePoller) {
        m_cachePoller->start();
    }
    if (!m_polledOnce) {
        m_firstSyncTimer.start(m_timeouts.firstSync);
    }
    Q_EMIT statusChanged();
}

void KubernetesSource::shutdown()
{
    m_metrics->stop();
    if (m_cachePoller) {
        m_cachePoller->stop();
    }
    m_publishTimer.stop();
    m_firstSyncTimer.stop();
    if (!m_shared) {
        return;
    }
    // Signal and go: the cluster's thread ends in the background (a slow server, a hung CA file
    // or DNS lookup must not freeze the GUI) and owns what it uses through `Shared`.
    {
        std::lock_guard lock(m_shared->notifyMutex);
        m_shared->notifyOwner = nullptr;
    }
    m_shared->stop();
    m_shared.reset();
    m_building = false;
}

void KubernetesSource::onCacheChanged()
{
    if (!m_shared) {
        return;
    }
    m_shared->notifyPending = false;
    bool bootstrapFailed = false;
    std::uint64_t changes = 0;
    {
        std::lock_guard lock(m_shared->mutex);
        bootstrapFailed = !m_shared->connected && m_shared->bootstrapError.has_value();
        changes = m_shared->changes;
    }
    if (changes != m_seenChanges) {
        m_seenChanges = changes;
        m_lastChange = m_deps.clock.now();
    }
    if (bootstrapFailed) {
        // Unreachable, rejected or misconfigured: the first poll is over, and failed.
        markPolledOnce(false);
    }
    Q_EMIT statusChanged();
    if (!m_publishTimer.isActive()) {
        // The first view goes out as soon as it is complete; later ones are coalesced.
        m_publishTimer.start(m_publishCount == 0 ? 0ms : publishDelay());
    }
}

void KubernetesSource::onMetricsStateChanged()
{
    if (!m_shared) {
        return;
    }
    if (!m_metrics->state().lastError.isEmpty()) {
        {
            std::lock_guard lock(m_shared->mutex);
            m_shared->cache.metricsAvailable = false;
            m_shared->cache.changes.all = true;
        }
        onCacheChanged();
    }
    Q_EMIT statusChanged();
}

std::chrono::milliseconds KubernetesSource::publishDelay() const
{
    if (!m_sinceBuild.isValid()) {
        return 0ms;
    }
    return std::max(0ms, m_publishInterval - std::chrono::milliseconds(m_sinceBuild.elapsed()));
}

void KubernetesSource::buildAndPublish()
{
    if (!m_shared) {
        return;
    }
    {
        std::lock_guard lock(m_shared->mutex);
        if (!m_shared->allSettled()) {
            return; // publish the first view only once every type was listed or given up on
        }
    }
    if (m_building) {
        m_dirtyWhileBuilding = true;
        return;
    }
    m_building = true;
    m_dirtyWhileBuilding = false;
    m_sinceBuild.start();

    static QHash<QString, kube::StorageVolumeRef> storage; // rebuilt below when volumes change
    const bool storageChanged = m_storageDirty;
    if (m_storageDirty) {
        storage.clear();
        for (const Ptr<Volume> &v : m_deps.estate.volumes().all()) {
            storage.insert(v->name, kube::StorageVolumeRef{v->source, v->id});
        }
        m_storageDirty = false;
    }
    std::shared_ptr<Shared> shared = m_shared;
    const QString source = m_config.name;
    QPointer<KubernetesSource> self(this);
    m_deps.pool.start([shared, source, storageCopy = storage, storageChanged, self] {
        ComputePublish next;
        std::shared_ptr<const KeyedList<Event>> eventList;
        bool full = false;
        {
            std::lock_guard lock(shared->mutex);
            if (!shared->builder) {
                shared->builder = std::make_unique<kube::ComputeBuilder>(source);
            }
            const kube::CacheChanges changes = std::move(shared->cache.changes);
            shared->cache.changes.clear();
            full = changes.all;
            next = shared->builder->update(shared->cache, changes, storageCopy, storageChanged);
            if (shared->eventsChanged) {
                shared->eventsChanged = false;
                eventList = kubeEventRecords(source, shared->events);
            }
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, shared, next = std::move(next), eventList = std::move(eventList), source, full]() mutable {
                if (!self || self->m_shared != shared) {
                    return;
                }
                self->m_deps.estate.publishCompute(source, std::move(next));
                if (full) {
                    kubeReleaseFreedHeap(self->m_deps.pool);
                }
                if (eventList) {
                    self->m_deps.estate.publishEvents(source, std::move(eventList));
                }
                ++self->m_publishCount;
                if (!self->m_firstFullView.isValid()) {
                    self->m_firstFullView = self->m_deps.clock.now();
                }
                self->m_building = false;
                self->recordHistory();
                bool complete = false;
                {
                    std::lock_guard lock(shared->mutex);
                    complete = shared->allSynced();
                }
                self->markPolledOnce(complete);
                Q_EMIT self->statusChanged();
                if (self->m_dirtyWhileBuilding) {
                    self->m_publishTimer.start(self->publishDelay());
                }
            },
            Qt::QueuedConnection);
    });
}

void KubernetesSource::markPolledOnce(bool ok)
{
    if (m_polledOnce) {
        return;
    }
    m_polledOnce = true;
    m_firstSyncTimer.stop();
    // The caches' first round ran before the connection was up and read nothing: read them now
    // rather than a poll interval later, so the first complete answer does not wait for it.
    if (m_cachePoller && !m_cachesReadOnce && !m_cachePoller->state().running) {
        m_cachePoller->pollNow();
    }
    Q_EMIT inventoryPolled(ok);
}

void KubernetesSource::onFirstSyncDeadline()
{
    if (!m_shared || m_polledOnce) {
        return;
    }
    const QString seconds = QString::number(
        std::max<qint64>(1, std::chrono::duration_cast<std::chrono::seconds>(m_timeouts.firstSync).count()));
    {
        std::lock_guard lock(m_shared->mutex);
        if (!m_shared->connected) {
            if (!m_shared->bootstrapError) {
                FetchError e;
                e.kind = FetchError::Kind::Timeout;
                e.message = tr("the API server did not answer /version and discovery within %1 s").arg(seconds);
                m_shared->bootstrapError = e;
            }
        } else {
            for (auto &[name, stream] : m_shared->streams) {
                if (stream.settled) {
                    continue;
                }
                stream.settled = true;
                if (!stream.error) {
                    FetchError e;
                    e.kind = FetchError::Kind::Timeout;
                    e.message = tr("%1: not listed within %2 s (the list has not answered; still trying)")
                                    .arg(qs(name), seconds);
                    stream.error = e;
                }
            }
        }
    }
    onCacheChanged();
}

void KubernetesSource::recordHistory()
{
    if (!m_deps.history) {
        return;
    }
    const QDateTime now = m_deps.clock.now();
    // Change-only writes happen in the store; this only caps the rate.
    if (m_lastHistory.isValid() && m_lastHistory.msecsTo(now) < 1000) {
        return;
    }
    const auto projects = m_deps.estate.projects().scope(m_config.name);
    if (!projects) {
        return;
    }
    std::vector<ProjectSample> samples;
    for (const Ptr<Project> &p : projects->items()) {
        samples.push_back(ProjectSample{p->name, now, p->allocated, p->quota, p->pending, p->utilization});
    }
    const bool heartbeat =
        !m_lastHistory.isValid() || m_lastHistory.secsTo(now) >= std::chrono::seconds(kHistoryInterval).count();
    Q_UNUSED(heartbeat)
    m_deps.history->recordProjectSamples(m_config.name, std::move(samples), now);
    m_lastHistory = now;
}

SourceStatus KubernetesSource::status() const
{
    SourceStatus s;
    s.name = m_config.name;
    s.kind = SourceKind::Kubernetes;
    s.url = m_config.kubeconfigInSecret ? QStringLiteral("kubeconfig (stored secret)")
            : m_config.url.isEmpty()
                ? (m_config.kubeconfig.isEmpty() ? QStringLiteral("kubeconfig") : m_config.kubeconfig)
                      + (m_config.kubeContext.isEmpty() ? QString() : QLatin1Char('#') + m_config.kubeContext)
                : m_config.url;
    if (!m_shared) {
        s.health = Health::Unknown;
        return s;
    }
    std::lock_guard lock(m_shared->mutex);
    s.systemName = m_config.name;
    s.systemVersion = qs(m_shared->cache.version);
    s.lastSuccess = m_lastChange;
    s.lastAttempt = m_lastChange;
    QStringList errors;
    int connectivity = 0;
    bool auth = false;
    auto consider = [&](const FetchError &e) {
        errors.append(e.message);
        connectivity += e.isConnectivity() ? 1 : 0;
        auth |= e.kind == FetchError::Kind::Auth;
    };
    if (!m_shared->connected) {
        if (m_shared->bootstrapError) {
            consider(*m_shared->bootstrapError);
            s.health = auth                                         ? Health::AuthRequired
                       : m_shared->bootstrapError->isConnectivity() ? Health::Unreachable
                                                                    : Health::Degraded;
            s.consecutiveFailures = 1;
        }
        s.lastError = errors.join(QStringLiteral("; "));
        s.stale = m_polledOnce;
        return s;
    }
    int streams = 0;
    for (const auto &[name, stream] : m_shared->streams) {
        ++streams;
        if (stream.error) {
            consider(*stream.error);
        }
    }
    const PollerState &metrics = m_metrics->state();
    if (!metrics.lastError.isEmpty()) {
        errors.append(metrics.lastError);
    }
    if (!m_shared->kaiNote.isEmpty()) {
        errors.append(m_shared->kaiNote);
    }
    if (m_cachePoller && !m_cachePoller->state().lastError.isEmpty()) {
        errors.append(tr("cached commits: %1").arg(m_cachePoller->state().lastError));
    }
    for (auto it = m_cacheErrors.cbegin(); it != m_cacheErrors.cend(); ++it) {
        errors.append(tr("cache target %1: %2").arg(it.key(), it.value()));
    }
    s.lastError = errors.join(QStringLiteral("; "));
    if (auth) {
        s.health = Health::AuthRequired;
    } else if (streams > 0 && connectivity == streams) {
        s.health = Health::Unreachable;
    } else if (!errors.isEmpty()) {
        s.health = Health::Degraded;
    } else if (m_shared->allSynced()) {
        s.health = Health::Ok;
    }
    s.stale = connectivity > 0 || auth;
    s.consecutiveFailures = errors.isEmpty() ? 0 : 1;
    return s;
}

// ---- Cached commits ----

namespace {

const std::string kManagedBy = "app.kubernetes.io/managed-by";
const std::string kRoleLabel = "strata.io/role";
const std::string kRequestedAnnotation = "strata.io/requested";

bool isCode(const connectors::Error &e, const char *code)
{
    return e.apiCode == code;
}

std::optional<CacheJobView> jobView(const json &object)
{
    auto dto = kubernetes::parseJob(object);
    if (!dto) {
        return std::nullopt;
    }
    CacheJobView view;
    view.name = qs(dto->name);
    view.active = dto->active;
    view.failedPods = dto->failed;
    view.complete = dto->succeeded >= std::max(1, dto->completions);
    for (const kubernetes::Condition &c : dto->conditions) {
        if (c.status != "True") {
            continue;
        }
        if (c.type == "Complete") {
            view.complete = true;
        } else if (c.type == "Failed") {
            view.failed = true;
            view.failureMessage = qs(c.reason.empty() ? c.message : c.reason + ": " + c.message);
        }
    }
    view.completionTime = kube::parseTime(dto->completionTime);
    return view;
}

std::string requestedAnnotation(const json &job)
{
    const json &meta = job.value("metadata", json::object());
    if (meta.contains("annotations") && meta["annotations"].is_object()) {
        return meta["annotations"].value(kRequestedAnnotation, std::string());
    }
    return {};
}

json cacheLabels(const QString &role, const QString &commitId, const QString &target)
{
    return {{kManagedBy, "strata"},
            {kRoleLabel, ss(role)},
            {"strata.io/commit", ss(commitShort(commitId))},
            {"strata.io/target", ss(target)}};
}

json loaderJobObject(const CacheTargetConfig &target,
                     const CommitLocation &where,
                     const ActionRequest &request,
                     const QDateTime &requested)
{
    const QString name = loaderJobName(request.commitId, target.name);
    const json labels = cacheLabels(QStringLiteral("cache-loader"), request.commitId, target.name);
    auto env = [](const char *name, const QString &value) {
        return json{{"name", name}, {"value", ss(value)}};
    };
    auto secretEnv = [&target](const char *name) {
        return json{{"name", name},
                    {"valueFrom", {{"secretKeyRef", {{"name", ss(target.s3CredentialsSecret)}, {"key", name}}}}}};
    };
    const json container = {
        {"name", "loader"},
        {"image", ss(target.loaderImage)},
        {"command", json::array({"python3", "/loader/loader.py"})},
        {"env",
         json::array({env("S3_ENDPOINT", where.s3Endpoint),
                      env("S3_REGION", where.s3Region.isEmpty() ? QStringLiteral("us-east-1") : where.s3Region),
                      env("S3_BUCKET", where.bucket),
                      env("S3_PATH_STYLE", where.s3PathStyle ? QStringLiteral("true") : QStringLiteral("false")),
                      env("MANIFEST_KEY", where.manifestKey),
                      env("COMMIT_ID", request.commitId),
                      env("DEST", QStringLiteral("/cache/") + cachePath(where.datasetName, request.commitId)),
                      env("DATASET_PREFIX", where.prefix),
                      secretEnv("AWS_ACCESS_KEY_ID"),
                      secretEnv("AWS_SECRET_ACCESS_KEY")})},
        {"volumeMounts",
         json::array({{{"name", "loader"}, {"mountPath", "/loader"}, {"readOnly", true}},
                      {{"name", "cache"}, {"mountPath", "/cache"}}})}};
    const json podSpec = {
        {"restartPolicy", "Never"},
        {"containers", json::array({container})},
        {"volumes",
         json::array({{{"name", "loader"}, {"configMap", {{"name", "strata-cache-loader"}}}},
                      {{"name", "cache"}, {"persistentVolumeClaim", {{"claimName", ss(target.pvc)}}}}})}};
    return {{"apiVersion", "batch/v1"},
            {"kind", "Job"},
            {"metadata",
             {{"name", ss(name)},
              {"namespace", ss(target.namespaceName)},
              {"labels", labels},
              {"annotations",
               {{"strata.io/commit-id", ss(request.commitId)},
                {"strata.io/dataset", ss(where.datasetName)},
                {"strata.io/dataset-source", ss(request.datasetSource)},
                {"strata.io/dataset-id", ss(request.datasetId)},
                {kRequestedAnnotation, ss(requested.toString(Qt::ISODateWithMs))}}}}},
            {"spec", {{"backoffLimit", 3}, {"template", {{"metadata", {{"labels", labels}}}, {"spec", podSpec}}}}}};
}

json evictorJobObject(const CacheTargetConfig &target, const CachedCommit &record, const QDateTime &requested)
{
    const json labels = cacheLabels(QStringLiteral("cache-evictor"), record.commitId, target.name);
    const json container = {{"name", "evictor"},
                            {"image", "busybox:1.36"},
                            {"command", json::array({"rm", "-rf", ss(QStringLiteral("/cache/") + record.path)})},
                            {"volumeMounts", json::array({{{"name", "cache"}, {"mountPath", "/cache"}}})}};
    const json podSpec = {
        {"restartPolicy", "Never"},
        {"containers", json::array({container})},
        {"volumes", json::array({{{"name", "cache"}, {"persistentVolumeClaim", {{"claimName", ss(target.pvc)}}}}})}};
    return {{"apiVersion", "batch/v1"},
            {"kind", "Job"},
            {"metadata",
             {{"name", ss(evictorJobName(record.commitId, target.name))},
              {"namespace", ss(target.namespaceName)},
              {"labels", labels},
              {"annotations",
               {{"strata.io/commit-id", ss(record.commitId)},
                {"strata.io/dataset", ss(record.datasetName)},
                {"strata.io/dataset-source", ss(record.datasetSource)},
                {"strata.io/dataset-id", ss(record.datasetId)},
                {kRequestedAnnotation, ss(requested.toString(Qt::ISODateWithMs))}}}}},
            {"spec", {{"backoffLimit", 3}, {"template", {{"metadata", {{"labels", labels}}}, {"spec", podSpec}}}}}};
}

// The records of a state ConfigMap (data key = commit id). Malformed values are reported, not
// dropped silently, and left alone in the map.
QList<CachedCommit>
recordsOf(const json &configMap, const QString &source, const QString &target, QStringList *problems)
{
    QList<CachedCommit> out;
    const json data = configMap.value("data", json::object());
    if (!data.is_object()) {
        return out;
    }
    for (auto it = data.begin(); it != data.end(); ++it) {
        if (!it.value().is_string()) {
            continue;
        }
        auto record = cacheRecordFromJson(QByteArray::fromStdString(it.value().get<std::string>()));
        if (!record) {
            problems->append(QStringLiteral("%1 record %2: %3")
                                 .arg(cacheConfigMapName(target), qs(it.key()), record.error().message));
            continue;
        }
        record->source = source;
        record->target = target;
        record->commitId = qs(it.key());
        record->id = target + QLatin1Char('/') + record->commitId;
        out.append(std::move(*record));
    }
    return out;
}

json stateConfigMap(const QString &target, const QString &ns)
{
    return {{"apiVersion", "v1"},
            {"kind", "ConfigMap"},
            {"metadata",
             {{"name", ss(cacheConfigMapName(target))},
              {"namespace", ss(ns)},
              {"labels", {{"strata.io/cache-target", ss(target)}, {kManagedBy, "strata"}}}}},
            {"data", json::object()}};
}

// Read-modify-write of one target's state ConfigMap: `mutate` edits the data object (and may
// refuse with an error); a 409 from a concurrent writer re-reads and re-applies (3 tries).
connectors::Result<json> updateStateConfigMap(kubernetes::KubeClient &client,
                                              const QString &target,
                                              const QString &ns,
                                              const std::function<bool(json &data)> &mutate,
                                              const http::CancelToken &cancel)
{
    const std::string name = ss(cacheConfigMapName(target));
    connectors::Error last;
    for (int attempt = 0; attempt < 3; ++attempt) {
        auto current = client.getConfigMap(ss(ns), name, cancel);
        const bool missing = !current && isCode(current.error(), "NotFound");
        if (!current && !missing) {
            return Unexpected{current.error()};
        }
        json object = missing ? stateConfigMap(target, ns) : *current;
        if (!object.contains("data") || !object["data"].is_object()) {
            object["data"] = json::object();
        }
        if (!mutate(object["data"])) {
            return object; // nothing to write
        }
        auto written = missing ? client.createConfigMap(ss(ns), object, cancel)
                               : client.replaceConfigMap(ss(ns), name, object, cancel);
        if (written) {
            return written;
        }
        last = written.error();
        const bool raced = isCode(last, "Conflict") || isCode(last, "AlreadyExists") || last.httpStatus == 409;
        if (!raced) {
            return Unexpected{last};
        }
    }
    return Unexpected{last};
}

// Creates a cache Job; an existing one of the same name counts as ours when it carries our
// request time or is still running; a leftover of an earlier round (finished) is replaced.
connectors::Result<bool /*existed*/> createCacheJob(kubernetes::KubeClient &client,
                                                    const std::string &ns,
                                                    const json &object,
                                                    const http::CancelToken &cancel)
{
    const std::string name = object["metadata"]["name"].get<std::string>();
    const std::string ours = requestedAnnotation(object);
    for (int attempt = 0; attempt < 2; ++attempt) {
        auto created = client.createJob(ns, object, cancel);
        if (created) {
            return false;
        }
        const connectors::Error &e = created.error();
        if (!isCode(e, "AlreadyExists") && !e.outcomeUnknown) {
            return Unexpected{e};
        }
        auto existing = client.get(kubernetes::kJobs, ns, name, cancel);
        if (!existing) {
            if (isCode(existing.error(), "NotFound") && e.outcomeUnknown) {
                continue;
            }
            return Unexpected{existing.error()};
        }
        const auto view = jobView(*existing);
        if (requestedAnnotation(*existing) == ours || (view && !view->complete && !view->failed)) {
            return true;
        }
        auto removed = client.deleteJob(ns, name, cancel);
        if (!removed) {
            return Unexpected{removed.error()};
        }
        // Background deletion removes the Job object at once; wait for the name to be free.
        for (int i = 0; i < 50; ++i) {
            auto gone = client.get(kubernetes::kJobs, ns, name, cancel);
            if (!gone && isCode(gone.error(), "NotFound")) {
                break;
            }
            if (!cancel.sleepFor(100ms)) {
                break;
            }
        }
    }
    connectors::Error error;
    error.kind = connectors::Error::Kind::Api;
    error.message = "Job " + ns + "/" + name + " could not be replaced";
    return Unexpected{std::move(error)};
}

} // namespace

struct KubernetesSource::CachePollResult
{
    QHash<QString, QList<CachedCommit>> records; ///< per target read successfully
    QHash<QString, QString> errors;              ///< per target that could not be read
};

QByteArray KubernetesSource::loaderScript()
{
    QFile file(QStringLiteral(":/strata/cache-loader/loader.py"));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void KubernetesSource::setCacheTargets(const QList<CacheTargetConfig> &targets)
{
    QList<CacheTargetConfig> mine;
    for (const CacheTargetConfig &t : targets) {
        if (t.kubernetesSource == m_config.name) {
            mine.append(t);
        }
    }
    if (mine == m_cacheTargets && (m_cachePoller || mine.isEmpty())) {
        return;
    }
    m_cacheTargets = mine;
    for (auto it = m_cacheRecords.begin(); it != m_cacheRecords.end();) {
        const bool kept = std::any_of(mine.cbegin(), mine.cend(), [&](const CacheTargetConfig &t) {
            return t.name == it.key();
        });
        it = kept ? std::next(it) : m_cacheRecords.erase(it);
    }
    delete m_cachePoller;
    m_cachePoller = nullptr;
    if (!mine.isEmpty()) {
        SystemPoller::Options options;
        options.name = m_config.name + QStringLiteral("/caches");
        options.interval = m_cachePollInterval;
        options.minBackoff = 2s;
        options.maxBackoff = 60s;
        m_cachePoller = new SystemPoller(
            options,
            m_deps.clock,
            m_deps.pool,
            [this] {
                return cachePollJob();
            },
            this);
        connect(m_cachePoller, &SystemPoller::stateChanged, this, &KubernetesSource::statusChanged);
        if (m_shared) {
            m_cachePoller->start();
        }
    }
    publishCacheState();
}

void KubernetesSource::setCachePollInterval(std::chrono::milliseconds interval)
{
    m_cachePollInterval = interval;
    const QList<CacheTargetConfig> targets = m_cacheTargets;
    m_cacheTargets.clear();
    delete m_cachePoller;
    m_cachePoller = nullptr;
    setCacheTargets(targets);
}

void KubernetesSource::refreshCaches()
{
    if (m_cachePoller && m_shared) {
        m_cachePoller->pollNow();
    }
}

bool KubernetesSource::hasPolledOnce() const
{
    return m_polledOnce && (!m_cachePoller || m_cachesReadOnce || !m_cachePoller->state().lastError.isEmpty());
}

PollJob KubernetesSource::cachePollJob()
{
    std::shared_ptr<Shared> shared = m_shared;
    const QList<CacheTargetConfig> targets = m_cacheTargets;
    const QString source = m_config.name;
    const QDateTime now = m_deps.clock.now();
    QList<Job> jobs;
    if (const auto list = m_deps.estate.jobs().scope(source)) {
        for (const Ptr<Job> &j : list->items()) {
            jobs.append(*j);
        }
    }
    const http::CancelToken token;
    PollJob job;
    job.cancel = cancelling(token);
    QPointer<KubernetesSource> self(this);
    job.run = [shared, targets, source, now, jobs, token, self]() -> PollOutcome {
        PollOutcome out;
        if (!shared || !shared->connected) {
            // The cluster connection (and its errors) belong to the reflectors; the caches are
            // read on the next round once it is up.
            return out;
        }
        kubernetes::KubeClient &client = *shared->client;
        auto result = std::make_shared<CachePollResult>();
        QStringList namespaces;
        for (const CacheTargetConfig &t : targets) {
            if (!namespaces.contains(t.namespaceName)) {
                namespaces.append(t.namespaceName);
            }
        }
        std::optional<FetchError> firstError;
        for (const QString &ns : namespaces) {
            auto configMaps = client.listConfigMaps(ss(ns), "strata.io/cache-target", token);
            auto jobList = configMaps ? client.listJobs(ss(ns), kManagedBy + "=strata", token)
                                      : connectors::Result<kubernetes::ListPage>(Unexpected{configMaps.error()});
            auto podList = jobList ? client.listPods(ss(ns), kRoleLabel + "=cache-loader", token)
                                   : connectors::Result<kubernetes::ListPage>(Unexpected{jobList.error()});
            if (!podList) {
                FetchError e = toFetchError(podList.error());
                e.message = QObject::tr("cache state in %1: %2").arg(ns, e.message);
                for (const CacheTargetConfig &t : targets) {
                    if (t.namespaceName == ns) {
                        result->errors.insert(t.name, e.message);
                    }
                }
                if (!firstError) {
                    firstError = e;
                }
                continue;
            }
            std::map<std::string, CacheJobView> views;
            for (const json &j : jobList->items) {
                if (auto view = jobView(j)) {
                    views.emplace(ss(view->name), *view);
                }
            }
            for (const CacheTargetConfig &t : targets) {
                if (t.namespaceName != ns) {
                    continue;
                }
                // The newest loader pod of each commit of this target, for its log.
                std::map<std::string, std::pair<std::string, std::string>> newestPod; // commit16 -> (created, pod)
                for (const json &p : podList->items) {
                    const json &meta = p.value("metadata", json::object());
                    const json labels = meta.value("labels", json::object());
                    if (!labels.is_object() || labels.value("strata.io/target", std::string()) != ss(t.name)) {
                        continue;
                    }
                    const std::string commit = labels.value("strata.io/commit", std::string());
                    const std::string created = meta.value("creationTimestamp", std::string());
                    const std::string name = meta.value("name", std::string());
                    auto &slot = newestPod[commit];
                    if (slot.second.empty() || created > slot.first || (created == slot.first && name > slot.second)) {
                        slot = {created, name};
                    }
                }
                QStringList problems;
                std::map<QString, std::optional<LoaderEvent>> events;     // read once, reused on a 409
                std::vector<std::pair<std::string, std::string>> cleanup; // jobs of finished evictions
                QList<CachedCommit> records;
                auto reconcileAll = [&](json &data) {
                    bool changed = false;
                    records.clear();
                    cleanup.clear();
                    problems.clear();
                    json configMap = {{"data", data}};
                    const QList<CachedCommit> stored = recordsOf(configMap, source, t.name, &problems);
                    for (const CachedCommit &before : stored) {
                        const std::string loaderName = ss(loaderJobName(before.commitId, t.name));
                        const std::string evictorName = ss(evictorJobName(before.commitId, t.name));
                        const auto loader = views.find(loaderName);
                        const auto evictor = views.find(evictorName);
                        const bool wantsLog =
                            loader != views.end()
                            && (before.state == CacheState::Requested || before.state == CacheState::Loading
                                || before.state == CacheState::Failed);
                        if (wantsLog && !events.count(before.commitId)) {
                            std::optional<LoaderEvent> event;
                            const auto pod = newestPod.find(ss(commitShort(before.commitId)));
                            if (pod != newestPod.end()) {
                                // A pod still starting has no log yet (400): no progress to show.
                                auto log = client.podLog(ss(ns), pod->second.second, 20, token);
                                if (log) {
                                    event = lastLoaderEvent(QByteArray::fromStdString(*log));
                                }
                            }
                            events[before.commitId] = event;
                        }
                        Reconciled next = reconcileCacheRecord(before,
                                                               loader != views.end() ? &loader->second : nullptr,
                                                               wantsLog ? events[before.commitId] : std::nullopt,
                                                               evictor != views.end() ? &evictor->second : nullptr,
                                                               now);
                        if (next.record.state != CacheState::Evicted) {
                            applyUsage(next.record, jobs, t.namespaceName, t.pvc, now);
                        }
                        if (next.remove) {
                            data.erase(ss(before.commitId));
                            cleanup.emplace_back(ss(ns), loaderName);
                            cleanup.emplace_back(ss(ns), evictorName);
                            changed = true;
                            continue;
                        }
                        const QByteArray value = cacheRecordToJson(next.record);
                        if (value != cacheRecordToJson(before)) {
                            data[ss(before.commitId)] = value.toStdString();
                            changed = true;
                        }
                        records.append(next.record);
                    }
                    return changed;
                };
                const std::string cmName = ss(cacheConfigMapName(t.name));
                json listed;
                for (const json &cm : configMaps->items) {
                    if (cm.value("metadata", json::object()).value("name", std::string()) == cmName) {
                        listed = cm;
                    }
                }
                if (listed.is_null()) {
                    result->records.insert(t.name, {});
                    continue; // nothing cached on this target yet
                }
                json data = listed.value("data", json::object());
                if (!data.is_object()) {
                    data = json::object();
                }
                QString error;
                if (reconcileAll(data)) {
                    listed["data"] = data;
                    auto written = client.replaceConfigMap(ss(ns), cmName, listed, token);
                    if (!written && (isCode(written.error(), "Conflict") || written.error().httpStatus == 409)) {
                        written = updateStateConfigMap(client, t.name, ns, reconcileAll, token);
                    }
                    if (!written) {
                        error = QObject::tr("cannot update %1: %2").arg(qs(cmName), qs(written.error().message));
                    }
                }
                if (error.isEmpty()) {
                    for (const auto &[jobNs, name] : cleanup) {
                        client.deleteJob(jobNs, name, token);
                    }
                }
                if (!problems.isEmpty()) {
                    error = error.isEmpty() ? problems.join(QStringLiteral("; "))
                                            : error + QStringLiteral("; ") + problems.join(QStringLiteral("; "));
                }
                result->records.insert(t.name, records);
                if (!error.isEmpty()) {
                    result->errors.insert(t.name, error);
                }
            }
        }
        if (firstError && result->records.isEmpty()) {
            out.error = firstError;
            return out;
        }
        out.apply = [self, result] {
            if (self) {
                self->applyCachePoll(*result);
            }
        };
        return out;
    };
    return job;
}

void KubernetesSource::applyCachePoll(const CachePollResult &result)
{
    if (!m_cachesReadOnce) {
        m_cachesReadOnce = true;
        if (m_polledOnce) {
            Q_EMIT inventoryPolled(true);
        }
    }
    for (auto it = result.records.cbegin(); it != result.records.cend(); ++it) {
        m_cacheRecords.insert(it.key(), it.value());
    }
    m_cacheErrors = result.errors;
    publishCacheState();
    Q_EMIT cachesPolled();
}

void KubernetesSource::publishCacheState()
{
    const QString source = m_config.name;
    const Estate &estate = m_deps.estate;
    const QDateTime now = m_deps.clock.now();
    std::vector<Ptr<CacheTarget>> targets;
    std::vector<Ptr<CachedCommit>> commits;
    for (const CacheTargetConfig &cfg : std::as_const(m_cacheTargets)) {
        CacheTarget t;
        t.source = source;
        t.id = cfg.name;
        t.namespaceName = cfg.namespaceName;
        t.pvc = cfg.pvc;
        t.evictAfterDays = cfg.evictAfterDays;
        t.highWatermarkPercent = cfg.highWatermarkPercent;
        const Ptr<Pvc> pvc =
            estate.pvcs().find(source, source + QLatin1Char('/') + cfg.namespaceName + QLatin1Char('/') + cfg.pvc);
        if (pvc) {
            t.pvcPhase = pvc->phase;
            t.capacityBytes = pvc->capacityBytes;
            const Ptr<Volume> volume =
                pvc->storageSource.isEmpty() ? nullptr : estate.volume(pvc->storageSource, pvc->storageVolumeId);
            if (volume) {
                t.storageSource = volume->source;
                t.storageVolumeId = volume->id;
                t.volumeName = volume->svm.isEmpty() ? volume->name : volume->svm + QLatin1Char('/') + volume->name;
                t.capacityBytes = volume->sizeBytes;
                t.usedBytes = volume->usedBytes.value_or(0); // CacheTarget: 0 = unknown
            }
            if (pvc->phase != QLatin1String("Bound")) {
                t.problem = tr("PVC %1/%2 is %3").arg(cfg.namespaceName, cfg.pvc, pvc->phase);
            }
        } else if (m_polledOnce) {
            t.problem = tr("PVC %1/%2 not found on %3").arg(cfg.namespaceName, cfg.pvc, source);
        }
        const QString error = m_cacheErrors.value(cfg.name);
        if (!error.isEmpty()) {
            t.problem = t.problem.isEmpty() ? error : t.problem + QStringLiteral("; ") + error;
        }
        QList<CachedCommit> records = m_cacheRecords.value(cfg.name);
        for (const CachedCommit &c : std::as_const(records)) {
            switch (c.state) {
            case CacheState::Ready:
            case CacheState::Evicting:
                t.cachedBytes += c.bytesTotal > 0 ? c.bytesTotal : c.bytesDone;
                break;
            case CacheState::Requested:
            case CacheState::Loading:
            case CacheState::Failed:
                t.cachedBytes += c.bytesDone;
                break;
            case CacheState::Evicted:
                break;
            }
        }
        applyEvictionPolicy(t, records, now);
        for (CachedCommit &c : records) {
            commits.push_back(std::make_shared<const CachedCommit>(std::move(c)));
        }
        targets.push_back(std::make_shared<const CacheTarget>(std::move(t)));
    }
    CachePublish next;
    next.targets = std::make_shared<const KeyedList<CacheTarget>>(std::move(targets));
    next.cachedCommits = std::make_shared<const KeyedList<CachedCommit>>(std::move(commits));
    m_deps.estate.publishCaches(source, std::move(next));
}

// ---- Actions ----

ActionPreview KubernetesSource::preview(const ActionRequest &request) const
{
    if (request.kind == ActionKind::CacheCommit || request.kind == ActionKind::CacheEvict) {
        return previewCache(request, nullptr);
    }
    ActionPreview p;
    const Estate &estate = m_deps.estate;
    const QString source = m_config.name;
    const auto clusterList = estate.gpuClusters().scope(source);
    const Ptr<GpuCluster> cluster = clusterList && clusterList->size() ? clusterList->items().front() : nullptr;
    auto findProject = [&](const QString &name) {
        return estate.projects().find(source, source + QLatin1Char('/') + name);
    };
    auto gpuText = [](MilliGpu m) {
        return formatGpus(m);
    };

    switch (request.kind) {
    case ActionKind::JobSubmit: {
        const JobSpec &spec = request.job;
        p.title = tr("Submit job");
        const Ptr<Project> project = findProject(spec.project);
        const QString ns = project && !project->namespaceName.isEmpty() ? project->namespaceName
                                                                        : kube::namespaceOfProject(spec.project);
        p.target = source + QLatin1Char('/') + ns + QLatin1Char('/') + spec.name;
        if (!project) {
            p.blockedReason = tr("Project %1 is not known on %2.").arg(spec.project, source);
            return p;
        }
        if (!jobNamePattern().match(spec.name).hasMatch()) {
            p.blockedReason = tr("\"%1\" is not a valid job name: use lower-case letters, digits and '-', at most 63 "
                                 "characters, starting and ending with a letter or digit.")
                                  .arg(spec.name);
            return p;
        }
        if (estate.jobs().find(source, source + QLatin1Char('/') + ns + QLatin1Char('/') + spec.name)) {
            p.blockedReason = tr("A job named %1 already exists in project %2.").arg(spec.name, spec.project);
            return p;
        }
        if (spec.image.trimmed().isEmpty()) {
            p.blockedReason = tr("An image is required.");
            return p;
        }
        if (spec.gpus <= 0 || (spec.gpus > 1000 && spec.gpus % 1000 != 0)) {
            p.blockedReason = tr("Ask for whole GPUs (1, 2, ...) or a fraction of one GPU (0.1 to 0.9).");
            return p;
        }
        int largestNode = 0;
        if (const auto nodes = estate.gpuNodes().scope(source)) {
            for (const Ptr<GpuNode> &n : nodes->items()) {
                largestNode = std::max(largestNode, n->gpuCount);
            }
        }
        if (largestNode > 0 && spec.gpus > MilliGpu(largestNode) * 1000) {
            p.blockedReason = tr("No node of %1 has %2 GPUs: the largest has %3, and a job's GPUs sit on one node.")
                                  .arg(source, gpuText(spec.gpus))
                                  .arg(largestNode);
            return p;
        }
        for (const PvcMount &mount : spec.pvcs) {
            const Ptr<Pvc> pvc =
                estate.pvcs().find(source, source + QLatin1Char('/') + ns + QLatin1Char('/') + mount.claim);
            if (!pvc) {
                p.blockedReason = tr("PVC %1 does not exist in namespace %2.").arg(mount.claim, ns);
                return p;
            }
            if (pvc->phase != QLatin1String("Bound")) {
                p.warnings << tr("PVC %1 is %2: the job waits until it is bound.").arg(mount.claim, pvc->phase);
            }
        }
        const bool train = spec.type == JobType::Train;
        p.effects << tr("Creates Job %1 in namespace %2: image %3, %4 GPU(s), %5.")
                         .arg(spec.name,
                              ns,
                              spec.image,
                              gpuText(spec.gpus),
                              train ? tr("training (preemptible)") : tr("interactive (not preemptible)"));
        for (const PvcMount &mount : spec.pvcs) {
            p.effects << tr("Mounts PVC %1 at %2%3.")
                             .arg(mount.claim, mount.path, mount.readOnly ? tr(" (read-only)") : QString());
        }
        const MilliGpu after = project->allocated + spec.gpus;
        const MilliGpu free = cluster ? cluster->gpuTotal - cluster->gpuAllocated : 0;
        p.fromState =
            tr("%1: %2/%3 GPUs, %n queued", nullptr, project->queuedJobs)
                .arg(spec.project, gpuText(project->allocated), gpuText(std::max<MilliGpu>(project->quota, 0)));
        // R8: an interactive job is held only by the project's other interactive GPUs.
        const MilliGpu nonPreemptibleAfter = nonPreemptibleAllocated(estate, source, spec.project) + spec.gpus;
        if (!train && project->quota >= 0 && nonPreemptibleAfter <= project->quota && after > project->quota
            && spec.gpus <= free) {
            p.toState = tr("%1: %2/%3 GPUs (over quota)").arg(spec.project, gpuText(after), gpuText(project->quota));
            p.effects
                << tr("Its interactive jobs stay within the quota (%1 of %2 GPUs): it starts on idle GPUs although "
                      "the project's training jobs run over quota, and it is never preempted.")
                       .arg(gpuText(nonPreemptibleAfter), gpuText(project->quota));
        } else if (project->quota >= 0 && after <= project->quota) {
            p.toState = tr("%1: %2/%3 GPUs").arg(spec.project, gpuText(after), gpuText(project->quota));
            p.effects << tr("Within the project's guaranteed quota: it starts as soon as a node has room, reclaiming "
                            "GPUs from over-quota training jobs of other projects if needed.");
        } else if (spec.gpus <= free) {
            p.toState = tr("%1: %2/%3 GPUs (over quota)").arg(spec.project, gpuText(after), gpuText(project->quota));
            if (train) {
                p.warnings << tr(
                    "It runs over quota on idle GPUs and may be preempted when another project reclaims its "
                    "guaranteed GPUs.");
            } else {
                p.warnings << tr("The project's interactive jobs would hold %1 of its %2 guaranteed GPUs; interactive "
                                 "jobs only run within quota: it will queue.")
                                  .arg(gpuText(nonPreemptibleAfter), gpuText(project->quota));
            }
        } else {
            p.toState =
                tr("%1: queued (%2 GPUs free in the cluster)").arg(spec.project, gpuText(std::max<MilliGpu>(free, 0)));
            p.warnings << tr("The cluster has no room for it now: it queues until GPUs free up.");
        }
        return p;
    }
    case ActionKind::JobDelete: {
        p.title =
            request.jobIds.size() == 1 ? tr("Delete job") : tr("Delete %n job(s)", nullptr, int(request.jobIds.size()));
        p.destructive = true;
        if (request.jobIds.isEmpty()) {
            p.blockedReason = tr("No job selected.");
            return p;
        }
        MilliGpu freed = 0;
        QStringList names;
        for (const QString &id : request.jobIds) {
            const Ptr<Job> job = estate.jobs().find(source, source + QLatin1Char('/') + id);
            if (!job) {
                p.blockedReason = tr("Job %1 is not known on %2.").arg(id, source);
                return p;
            }
            names << job->name;
            freed += job->gpusAllocated;
            p.effects << (job->gpusAllocated > 0
                              ? tr("Deletes %1 (%2, running on %3): frees %4 GPU(s).")
                                    .arg(job->name, job->project, job->node, gpuText(job->gpusAllocated))
                              : tr("Deletes %1 (%2, %3).").arg(job->name, job->project, jobStatusName(job->status)));
        }
        p.target = source + QStringLiteral(": ") + names.join(QStringLiteral(", "));
        p.fromState = tr("%n job(s)", nullptr, int(request.jobIds.size()));
        p.toState = freed > 0 ? tr("deleted, %1 GPU(s) free for queued jobs").arg(gpuText(freed)) : tr("deleted");
        p.warnings << tr("Running work is stopped and its pods are deleted; this cannot be undone.");
        return p;
    }
    case ActionKind::ProjectQuotaEdit: {
        p.title = tr("Change project quota");
        p.target = source + QLatin1Char('/') + request.project;
        const Ptr<Project> project = findProject(request.project);
        if (!project) {
            p.blockedReason = tr("Project %1 is not known on %2.").arg(request.project, source);
            return p;
        }
        if (request.quota < 0) {
            p.blockedReason = tr("A quota cannot be negative.");
            return p;
        }
        p.fromState = tr("guaranteed %1 GPU(s)").arg(gpuText(std::max<MilliGpu>(project->quota, 0)));
        p.toState = tr("guaranteed %1 GPU(s)").arg(gpuText(request.quota));
        p.effects << (project->origin == ProjectOrigin::KaiQueue
                          ? tr("Sets spec.resources.gpu.quota of KAI queue %1.").arg(request.project)
                          : tr("Sets requests.nvidia.com/gpu of the ResourceQuota in namespace %1.")
                                .arg(project->namespaceName));
        if (request.quota < project->allocated && project->quota >= 0) {
            p.warnings << tr("The project holds %1 GPU(s): its training jobs above the new quota become preemptible.")
                              .arg(gpuText(project->allocated));
        }
        if (cluster) {
            const MilliGpu total = cluster->quotaTotal - std::max<MilliGpu>(project->quota, 0) + request.quota;
            if (total != cluster->gpuTotal) {
                p.warnings << tr("Quotas would add up to %1 GPUs while the cluster has %2.")
                                  .arg(gpuText(total), gpuText(cluster->gpuTotal));
            }
        }
        return p;
    }
    case ActionKind::SnapshotCreate:
    case ActionKind::SnapshotDelete:
    case ActionKind::SnapshotRestore:
    case ActionKind::ServiceLevelChange:
    case ActionKind::VolumeClone:
    case ActionKind::DatasetCommit:
    case ActionKind::CacheCommit:
    case ActionKind::CacheEvict:
        break;
    }
    p.title = actionKindName(request.kind);
    p.blockedReason = tr("%1 is a Kubernetes cluster: it has no volumes to snapshot.").arg(source);
    return p;
}

namespace {

json jobObject(const JobSpec &spec, const QString &ns, bool kai, const QString &user, const QDateTime &submitted)
{
    json labels = {{"strata.io/created-by", "strata"}};
    if (kai) {
        labels["kai.scheduler/queue"] = ss(spec.project);
    }
    if (!user.isEmpty()) {
        labels["user"] = ss(user);
    }
    json annotations = {{"strata.io/submitted-at", ss(submitted.toString(Qt::ISODateWithMs))}};
    if (spec.durationSeconds > 0) {
        annotations["strata.io/sim-duration-seconds"] = std::to_string(spec.durationSeconds);
    }
    json podAnnotations = json::object();
    json container = {{"name", ss(spec.name)}, {"image", ss(spec.image)}};
    if (spec.gpus >= 1000) {
        container["resources"] = {{"limits", {{"nvidia.com/gpu", std::to_string(spec.gpus / 1000)}}}};
    } else {
        podAnnotations["gpu-fraction"] = ss(formatGpus(spec.gpus));
    }
    auto toArray = [](const QStringList &list) {
        json array = json::array();
        for (const QString &item : list) {
            array.push_back(ss(item));
        }
        return array;
    };
    if (!spec.command.isEmpty()) {
        container["command"] = toArray(spec.command);
    }
    if (!spec.args.isEmpty()) {
        container["args"] = toArray(spec.args);
    }
    json volumes = json::array();
    json mounts = json::array();
    for (qsizetype i = 0; i < spec.pvcs.size(); ++i) {
        const PvcMount &m = spec.pvcs[i];
        const std::string volume = "pvc-" + std::to_string(i);
        volumes.push_back(
            {{"name", volume}, {"persistentVolumeClaim", {{"claimName", ss(m.claim)}, {"readOnly", m.readOnly}}}});
        mounts.push_back({{"name", volume}, {"mountPath", ss(m.path)}, {"readOnly", m.readOnly}});
    }
    if (!mounts.empty()) {
        container["volumeMounts"] = mounts;
    }
    json podSpec = {{"restartPolicy", "Never"}, {"containers", json::array({container})}};
    if (kai) {
        podSpec["schedulerName"] = "kai-scheduler";
        podSpec["priorityClassName"] = spec.type == JobType::Interactive ? "build" : "train";
    }
    if (!volumes.empty()) {
        podSpec["volumes"] = volumes;
    }
    json podMeta = {{"labels", labels}};
    if (!podAnnotations.empty()) {
        podMeta["annotations"] = podAnnotations;
    }
    return {{"apiVersion", "batch/v1"},
            {"kind", "Job"},
            {"metadata",
             {{"name", ss(spec.name)}, {"namespace", ss(ns)}, {"labels", labels}, {"annotations", annotations}}},
            {"spec", {{"backoffLimit", 0}, {"template", {{"metadata", podMeta}, {"spec", podSpec}}}}}};
}

} // namespace

std::function<ActionResult(const ActionContext &)> KubernetesSource::prepare(const ActionRequest &request)
{
    if (request.kind == ActionKind::CacheCommit || request.kind == ActionKind::CacheEvict) {
        return prepareCache(request);
    }
    std::shared_ptr<Shared> shared = m_shared;
    const QString source = m_config.name;
    const Ptr<Project> project = m_deps.estate.projects().find(
        source,
        source + QLatin1Char('/') + (request.kind == ActionKind::JobSubmit ? request.job.project : request.project));
    const bool kai = project && project->origin == ProjectOrigin::KaiQueue;
    const QString ns =
        project && !project->namespaceName.isEmpty()
            ? project->namespaceName
            : kube::namespaceOfProject(request.kind == ActionKind::JobSubmit ? request.job.project : request.project);
    return [shared, request, kai, ns, config = m_config, token = m_token, timeout = m_timeouts.request](
               const ActionContext &ctx) -> ActionResult {
        const http::CancelToken cancel;
        auto link = ActionLink::open(shared, config, token, timeout, cancel);
        if (!link) {
            return unreachable(link.error());
        }
        kubernetes::KubeClient &client = link->client();
        switch (request.kind) {
        case ActionKind::JobSubmit: {
            const JobSpec &spec = request.job;
            const std::string submittedAt = ss(ctx.submitted.toString(Qt::ISODateWithMs));
            // Ours when it carries this action's submission time: a lost answer or a retry must
            // not create a second job, and must not claim someone else's job either.
            auto existing = [&]() -> std::optional<bool> {
                auto got = client.get(kubernetes::kJobs, ss(ns), ss(spec.name), cancel);
                if (!got) {
                    return got.error().apiCode == "NotFound" ? std::optional<bool>(false) : std::nullopt;
                }
                const json *annotation = nullptr;
                const json &meta = (*got)["metadata"];
                if (meta.contains("annotations") && meta["annotations"].contains("strata.io/submitted-at")) {
                    annotation = &meta["annotations"]["strata.io/submitted-at"];
                }
                return annotation && annotation->is_string() && annotation->get<std::string>() == submittedAt;
            };
            if (ctx.attempt > 1 && existing() == std::optional<bool>(true)) {
                return ActionResult{
                    true,
                    true,
                    QObject::tr("Job %1 already exists (an earlier attempt created it); not submitted again.")
                        .arg(spec.name)};
            }
            ctx.progress(ActionProgress{-1, QObject::tr("Creating Job %1 in %2").arg(spec.name, ns)});
            const QString user = spec.user;
            auto created =
                client.create(kubernetes::kJobs, ss(ns), jobObject(spec, ns, kai, user, ctx.submitted), cancel);
            if (!created) {
                const connectors::Error &e = created.error();
                if (e.apiCode == "AlreadyExists" || e.outcomeUnknown) {
                    const auto ours = existing();
                    if (ours == std::optional<bool>(true)) {
                        return ActionResult{
                            true,
                            true,
                            QObject::tr("Job %1 submitted (confirmed after the response was lost).").arg(spec.name)};
                    }
                    if (e.apiCode == "AlreadyExists") {
                        return actionFailed(QObject::tr("A job named %1 already exists in %2.").arg(spec.name, ns));
                    }
                }
                return actionFailed(qs(e.message));
            }
            return ActionResult{
                true, false, QObject::tr("Job %1 submitted to project %2.").arg(spec.name, spec.project)};
        }
        case ActionKind::JobDelete: {
            int done = 0;
            QStringList errors;
            for (const QString &id : request.jobIds) {
                const QString jobNs = id.section(QLatin1Char('/'), 0, 0);
                const QString name = id.section(QLatin1Char('/'), 1);
                ctx.progress(
                    ActionProgress{int(100 * done / request.jobIds.size()), QObject::tr("Deleting %1").arg(name)});
                // DELETE is idempotent here: 404 (already gone) counts as done.
                auto removed = client.remove(kubernetes::kJobs, ss(jobNs), ss(name), cancel);
                if (!removed) {
                    errors << name + QStringLiteral(": ") + qs(removed.error().message);
                } else {
                    ++done;
                }
            }
            if (!errors.isEmpty()) {
                return actionFailed(QObject::tr("%1 of %2 job(s) deleted; %3")
                                        .arg(done)
                                        .arg(request.jobIds.size())
                                        .arg(errors.join(QStringLiteral("; "))));
            }
            return ActionResult{true, false, QObject::tr("%n job(s) deleted.", nullptr, done)};
        }
        case ActionKind::ProjectQuotaEdit: {
            const std::string quota = ss(formatGpus(request.quota));
            connectors::Result<json> patched = json::object();
            if (kai) {
                json patch = {{"spec", {{"resources", {{"gpu", {{"quota", std::stod(quota)}}}}}}}};
                patched = client.mergePatch(link->queueType(), {}, ss(request.project), patch, cancel);
            } else {
                auto quotas = client.listAll(
                    kubernetes::kResourceQuotas, kubernetes::ListOptions{.namespace_ = ss(ns), .limit = 0}, cancel);
                if (!quotas) {
                    return actionFailed(qs(quotas.error().message));
                }
                std::string name;
                for (const json &q : quotas->items) {
                    if (q["spec"].contains("hard") && q["spec"]["hard"].contains("requests.nvidia.com/gpu")) {
                        name = q["metadata"]["name"].get<std::string>();
                        break;
                    }
                }
                if (name.empty()) {
                    return actionFailed(QObject::tr("Namespace %1 has no GPU ResourceQuota.").arg(ns));
                }
                json patch = {{"spec", {{"hard", {{"requests.nvidia.com/gpu", quota}}}}}};
                patched = client.mergePatch(kubernetes::kResourceQuotas, ss(ns), name, patch, cancel);
            }
            if (!patched) {
                return actionFailed(qs(patched.error().message));
            }
            return ActionResult{
                true, false, QObject::tr("Project %1 now guarantees %2 GPU(s).").arg(request.project, qs(quota))};
        }
        case ActionKind::SnapshotCreate:
        case ActionKind::SnapshotDelete:
        case ActionKind::SnapshotRestore:
        case ActionKind::ServiceLevelChange:
        case ActionKind::DatasetCommit:
        case ActionKind::CacheCommit:
        case ActionKind::CacheEvict:
        case ActionKind::VolumeClone:
            break;
        }
        return actionFailed(QObject::tr("A Kubernetes cluster cannot run this action."));
    };
}

// ---- Cache actions ----

const CacheTargetConfig *KubernetesSource::cacheTarget(const QString &name) const
{
    for (const CacheTargetConfig &t : m_cacheTargets) {
        if (t.name == name) {
            return &t;
        }
    }
    return nullptr;
}

ActionPreview KubernetesSource::previewCache(const ActionRequest &request, CacheActionPlan *plan) const
{
    ActionPreview p;
    const Estate &estate = m_deps.estate;
    const QString source = m_config.name;
    const bool load = request.kind == ActionKind::CacheCommit;
    p.title = load ? tr("Cache commit") : tr("Clear cached commit");
    const CacheTargetConfig *target = cacheTarget(request.cacheTarget);
    const Ptr<CachedCommit> cached = estate.cachedCommits().find(
        source, source + QLatin1Char('/') + request.cacheTarget + QLatin1Char('/') + request.commitId);
    QString datasetName = cached ? cached->datasetName : QString();
    p.target = QStringLiteral("%1@%2 on %3").arg(datasetName, commitShort(request.commitId), request.cacheTarget);
    if (!target) {
        p.blockedReason = tr("Cache target %1 is not configured on %2.").arg(request.cacheTarget, source);
        return p;
    }
    if (!QRegularExpression(QStringLiteral("^[0-9a-f]{64}$")).match(request.commitId).hasMatch()) {
        p.blockedReason = tr("%1 is not a commit id (64 lower-case hex digits).").arg(request.commitId);
        return p;
    }
    const Ptr<CacheTarget> published =
        estate.cacheTargets().find(source, source + QLatin1Char('/') + request.cacheTarget);
    QList<CachedCommit> onTarget;
    for (const Ptr<CachedCommit> &c : estate.cachedCommits().all(source)) {
        if (c->source == source && c->target == request.cacheTarget) {
            onTarget.append(*c);
        }
    }
    const QString where = published && !published->volumeName.isEmpty()
                              ? tr("%1 (volume %2)").arg(request.cacheTarget, published->volumeName)
                              : request.cacheTarget;

    if (load) {
        if (!m_deps.resolveCommit) {
            p.blockedReason = tr("Caching needs the dataset hub, which this program does not run.");
            return p;
        }
        const Result<CommitLocation> location =
            m_deps.resolveCommit(request.datasetSource, request.datasetId, request.commitId);
        if (!location) {
            p.blockedReason = location.error().message;
            return p;
        }
        datasetName = location->datasetName;
        p.target = QStringLiteral("%1@%2 on %3").arg(datasetName, commitShort(request.commitId), request.cacheTarget);
        if (cached) {
            switch (cached->state) {
            case CacheState::Ready:
                p.blockedReason = tr("%1@%2 is already cached on %3 (ready).")
                                      .arg(datasetName, commitShort(request.commitId), request.cacheTarget);
                return p;
            case CacheState::Requested:
            case CacheState::Loading:
                p.blockedReason = tr("%1@%2 is already being loaded onto %3.")
                                      .arg(datasetName, commitShort(request.commitId), request.cacheTarget);
                return p;
            case CacheState::Evicting:
                p.blockedReason = tr("%1@%2 is being cleared from %3; cache it again once that finished.")
                                      .arg(datasetName, commitShort(request.commitId), request.cacheTarget);
                return p;
            case CacheState::Failed:
                p.fromState = tr("failed: %1").arg(cached->reason);
                p.effects << tr("Loads it again; what the failed attempt copied is kept and skipped.");
                break;
            case CacheState::Evicted:
                break;
            }
        }
        // Published from the configuration before its claim was listed: its room is unknown, not 0 B.
        if (!published || (published->pvcPhase.isEmpty() && published->problem.isEmpty())) {
            p.blockedReason = tr("The state of cache target %1 has not been read yet.").arg(request.cacheTarget);
            return p;
        }
        if (!published->problem.isEmpty() && published->capacityBytes <= 0) {
            p.blockedReason = tr("Cache target %1 cannot take caches: %2").arg(request.cacheTarget, published->problem);
            return p;
        }
        const qint64 needed = std::max<qint64>(0, location->bytes - (cached ? cached->bytesDone : 0));
        const RoomPlan room = planRoom(*published, onTarget, needed);
        if (!room.fits) {
            p.blockedReason =
                tr("%1@%2 needs %3 but %4 has %5 free, and clearing every cached commit the policy may evict frees "
                   "only %6 more.")
                    .arg(datasetName,
                         commitShort(request.commitId),
                         formatBytes(needed),
                         request.cacheTarget,
                         formatBytes(room.freeBytes),
                         formatBytes(room.evictableBytes));
            return p;
        }
        if (p.fromState.isEmpty()) {
            p.fromState = tr("not cached on %1").arg(request.cacheTarget);
        }
        p.toState = tr("ready on %1 (%2)").arg(where, formatBytes(location->bytes));
        const QString ns = target->namespaceName;
        p.effects
            << tr("Starts Job %1/%2 on %3 (image %4) mounting PVC %5.")
                   .arg(ns, loaderJobName(request.commitId, target->name), source, target->loaderImage, target->pvc)
            << tr("Copies %n object(s) (%1) from %2/%3/%4 into %5 on the cache volume.",
                  nullptr,
                  int(std::min<qint64>(location->objects, INT_MAX)))
                   .arg(formatBytes(location->bytes),
                        request.datasetSource,
                        location->bucket,
                        location->prefix,
                        cachePath(datasetName, request.commitId))
            << tr("Jobs then train from it by mounting %1 with subPath %2.")
                   .arg(target->pvc, cachePath(datasetName, request.commitId));
        if (!room.evict.isEmpty()) {
            QStringList names;
            for (const QString &id : room.evict) {
                for (const CachedCommit &c : std::as_const(onTarget)) {
                    if (c.commitId == id) {
                        names << QStringLiteral("%1@%2").arg(c.datasetName, commitShort(id));
                    }
                }
            }
            p.warnings << tr("%1 has %2 free: the least recently used cached commit(s) %3 are cleared first (%4).")
                              .arg(request.cacheTarget,
                                   formatBytes(room.freeBytes),
                                   names.join(QStringLiteral(", ")),
                                   formatBytes(room.freedBytes));
        }
        if (plan) {
            plan->target = *target;
            plan->location = *location;
            for (const QString &id : room.evict) {
                for (const CachedCommit &c : std::as_const(onTarget)) {
                    if (c.commitId == id) {
                        plan->evict.append(c);
                    }
                }
            }
        }
        return p;
    }

    // CacheEvict
    if (!cached) {
        p.blockedReason = tr("Commit %1 is not cached on %2.").arg(commitShort(request.commitId), request.cacheTarget);
        return p;
    }
    switch (cached->state) {
    case CacheState::Requested:
    case CacheState::Loading:
        p.blockedReason = tr("%1@%2 is still loading onto %3.")
                              .arg(cached->datasetName, commitShort(request.commitId), request.cacheTarget);
        return p;
    case CacheState::Evicting:
    case CacheState::Evicted:
        p.blockedReason = tr("%1@%2 is already being cleared.").arg(cached->datasetName, commitShort(request.commitId));
        return p;
    case CacheState::Ready:
    case CacheState::Failed:
        break;
    }
    const qint64 bytes = cached->state == CacheState::Ready ? cached->bytesTotal : cached->bytesDone;
    p.fromState = tr("%1 on %2 (%3)").arg(cacheStateName(cached->state), where, formatBytes(bytes));
    p.toState = tr("cleared, %1 freed").arg(formatBytes(bytes));
    p.effects << tr("Starts Job %1/%2 on %3 that deletes %4 from the cache volume.")
                     .arg(target->namespaceName, evictorJobName(request.commitId, target->name), source, cached->path);
    if (!request.evictReason.isEmpty()) {
        p.effects << tr("Policy: %1.").arg(request.evictReason);
    }
    p.effects << tr("The commit stays in %1; it can be cached again at any time.").arg(cached->datasetSource);
    const QDateTime now = m_deps.clock.now();
    QStringList running;
    QStringList recent;
    for (const QString &jobId : cached->usedBy) {
        const Ptr<Job> job = estate.jobs().find(source, source + QLatin1Char('/') + jobId);
        if (job && (job->status == JobStatus::Running || job->status == JobStatus::ContainerCreating)) {
            running << jobId;
        } else if (job && job->finished.isValid() && job->finished.daysTo(now) <= 7) {
            recent << jobId;
        }
    }
    if (!recent.isEmpty()) {
        p.effects << tr("Used in the last 7 days by %1.").arg(recent.join(QStringLiteral(", ")));
    }
    if (!running.isEmpty()) {
        p.warnings << tr("Running job(s) %1 read from it and will fail to find their files.")
                          .arg(running.join(QStringLiteral(", ")));
    }
    if (plan) {
        plan->target = *target;
        plan->evict.append(*cached);
    }
    return p;
}

namespace {

// Sets a record to evicting (unless it is already) and starts its evictor.
QString startEviction(kubernetes::KubeClient &client,
                      const CacheTargetConfig &target,
                      const CachedCommit &cached,
                      const QDateTime &now,
                      bool *alreadyRunning,
                      const http::CancelToken &cancel)
{
    const QString ns = target.namespaceName;
    const QString evictor = evictorJobName(cached.commitId, target.name);
    bool gone = false;
    bool wasEvicting = false;
    auto written = updateStateConfigMap(
        client,
        target.name,
        ns,
        [&](json &data) {
            const std::string key = ss(cached.commitId);
            if (!data.contains(key) || !data[key].is_string()) {
                gone = true;
                return false;
            }
            auto record = cacheRecordFromJson(QByteArray::fromStdString(data[key].get<std::string>()));
            if (!record) {
                record = cached;
            }
            if (record->state == CacheState::Evicting) {
                wasEvicting = true;
                return false;
            }
            if (record->state == CacheState::Requested || record->state == CacheState::Loading) {
                gone = true; // loading: never cleared underneath its loader
                return false;
            }
            record->state = CacheState::Evicting;
            record->job = ns + QLatin1Char('/') + evictor;
            record->reason.clear();
            data[key] = cacheRecordToJson(*record).toStdString();
            return true;
        },
        cancel);
    if (!written) {
        return QObject::tr("cannot update %1: %2").arg(cacheConfigMapName(target.name), qs(written.error().message));
    }
    if (gone) {
        *alreadyRunning = true;
        return {};
    }
    auto created = createCacheJob(client, ss(ns), evictorJobObject(target, cached, now), cancel);
    if (!created) {
        return QObject::tr("cannot start %1: %2").arg(evictor, qs(created.error().message));
    }
    *alreadyRunning = wasEvicting && *created;
    return {};
}

} // namespace

std::function<ActionResult(const ActionContext &)> KubernetesSource::prepareCache(const ActionRequest &request)
{
    CacheActionPlan plan;
    const ActionPreview preview = previewCache(request, &plan);
    std::shared_ptr<Shared> shared = m_shared;
    const QByteArray script = m_loaderScript.isEmpty() ? loaderScript() : m_loaderScript;
    IClock *clock = &m_deps.clock;
    std::optional<CacheTargetConfig> configured;
    for (const CacheTargetConfig &t : std::as_const(m_cacheTargets)) {
        if (t.name == request.cacheTarget) {
            configured = t;
        }
    }
    return [shared,
            request,
            preview,
            plan,
            script,
            clock,
            configured,
            config = m_config,
            token = m_token,
            timeout = m_timeouts.request](const ActionContext &ctx) -> ActionResult {
        const http::CancelToken cancel;
        if (ctx.recovery) {
            // The loader Job's name is derived from the commit and target, so the Job itself says
            // whether the load was sent; the preview (computed after the restart) does not.
            if (!configured || request.kind != ActionKind::CacheCommit) {
                return actionFailed(QObject::tr("Strata stopped while this ran and cache target %1 is not configured "
                                                "now; it was not repeated.")
                                        .arg(request.cacheTarget));
            }
            auto link = ActionLink::open(shared, config, token, timeout, cancel);
            if (!link) {
                return unreachable(link.error());
            }
            const QString ns = configured->namespaceName;
            const QString jobName = loaderJobName(request.commitId, configured->name);
            auto existing = link->client().get(kubernetes::kJobs, ss(ns), ss(jobName), cancel);
            if (existing) {
                return ActionResult{true,
                                    ctx.handle.isEmpty(),
                                    QObject::tr("Loading %1 onto %2: Job %3/%4 was created before the restart.")
                                        .arg(commitShort(request.commitId), configured->name, ns, jobName)};
            }
            if (!isCode(existing.error(), "NotFound")) {
                return actionFailed(QObject::tr("Strata stopped while this ran and the cluster cannot be asked now "
                                                "(%1); it was not repeated.")
                                        .arg(qs(existing.error().message)));
            }
            return actionFailed(QObject::tr("Strata stopped before the loader Job %1/%2 was created; it was not sent "
                                            "again. Retry the load if it is still wanted.")
                                    .arg(ns, jobName));
        }
        if (!preview.allowed()) {
            // A retry after the state moved on (ready, cleared) is judged by the executor below;
            // anything else blocked stays blocked.
            const bool settled = preview.blockedReason.contains(QLatin1String("already"));
            if (settled && ctx.attempt > 1) {
                return ActionResult{true, true, preview.blockedReason};
            }
            return actionFailed(preview.blockedReason);
        }
        auto link = ActionLink::open(shared, config, token, timeout, cancel);
        if (!link) {
            return unreachable(link.error());
        }
        kubernetes::KubeClient &client = link->client();
        const CacheTargetConfig &target = plan.target;
        const QString ns = target.namespaceName;
        const QDateTime now = clock->now();

        if (request.kind == ActionKind::CacheEvict) {
            ctx.progress(ActionProgress{-1, QObject::tr("Starting the evictor on %1").arg(target.name)});
            bool already = false;
            const QString error = startEviction(client, target, plan.evict.front(), now, &already, cancel);
            if (!error.isEmpty()) {
                return actionFailed(error);
            }
            const CachedCommit &c = plan.evict.front();
            if (already) {
                return ActionResult{true,
                                    true,
                                    QObject::tr("%1@%2 was already being cleared from %3.")
                                        .arg(c.datasetName, commitShort(c.commitId), target.name)};
            }
            return ActionResult{
                true,
                false,
                QObject::tr("Clearing %1@%2 from %3 (Job %4).")
                    .arg(c.datasetName, commitShort(c.commitId), target.name, evictorJobName(c.commitId, target.name))};
        }

        // CacheCommit
        if (script.isEmpty()) {
            return actionFailed(
                QObject::tr("This build has no cache loader script (packaging/cache-loader/loader.py)."));
        }
        for (const CachedCommit &victim : plan.evict) {
            ctx.progress(ActionProgress{
                -1, QObject::tr("Making room: clearing %1@%2").arg(victim.datasetName, commitShort(victim.commitId))});
            bool already = false;
            const QString error = startEviction(client, target, victim, now, &already, cancel);
            if (!error.isEmpty()) {
                return actionFailed(error);
            }
        }
        ctx.progress(ActionProgress{-1, QObject::tr("Installing the loader script in %1").arg(ns)});
        const json loaderMap = {
            {"apiVersion", "v1"},
            {"kind", "ConfigMap"},
            {"metadata",
             {{"name", "strata-cache-loader"}, {"namespace", ss(ns)}, {"labels", {{kManagedBy, "strata"}}}}},
            {"data", {{"loader.py", script.toStdString()}}}};
        auto current = client.getConfigMap(ss(ns), "strata-cache-loader", cancel);
        if (!current && !isCode(current.error(), "NotFound")) {
            return actionFailed(qs(current.error().message));
        }
        if (!current) {
            auto created = client.createConfigMap(ss(ns), loaderMap, cancel);
            if (!created && !isCode(created.error(), "AlreadyExists")) {
                return actionFailed(
                    QObject::tr("cannot create ConfigMap strata-cache-loader: %1").arg(qs(created.error().message)));
            }
        } else if (current->value("data", json::object()).value("loader.py", std::string()) != script.toStdString()) {
            json replaced = *current;
            replaced["data"] = loaderMap["data"];
            auto written = client.replaceConfigMap(ss(ns), "strata-cache-loader", replaced, cancel);
            if (!written) {
                return actionFailed(
                    QObject::tr("cannot update ConfigMap strata-cache-loader: %1").arg(qs(written.error().message)));
            }
        }

        ctx.progress(
            ActionProgress{-1, QObject::tr("Recording the request in %1").arg(cacheConfigMapName(target.name))});
        const CommitLocation &where = plan.location;
        const QString jobName = loaderJobName(request.commitId, target.name);
        QDateTime requested = now;
        bool settled = false;
        bool retryFailed = false;
        auto written = updateStateConfigMap(
            client,
            target.name,
            ns,
            [&](json &data) {
                const std::string key = ss(request.commitId);
                std::optional<CachedCommit> existing;
                if (data.contains(key) && data[key].is_string()) {
                    if (auto parsed = cacheRecordFromJson(QByteArray::fromStdString(data[key].get<std::string>()))) {
                        existing = std::move(*parsed);
                    }
                }
                settled = false;
                retryFailed = false;
                if (existing && existing->state == CacheState::Requested && existing->requested.isValid()) {
                    requested = existing->requested; // an earlier attempt wrote it: same Job
                    return false;
                }
                if (existing
                    && (existing->state == CacheState::Loading || existing->state == CacheState::Ready
                        || existing->state == CacheState::Evicting)) {
                    settled = true;
                    return false;
                }
                retryFailed = existing && existing->state == CacheState::Failed;
                CachedCommit record;
                record.state = CacheState::Requested;
                record.datasetName = where.datasetName;
                record.datasetSource = request.datasetSource;
                record.datasetId = request.datasetId;
                record.objectsTotal = where.objects;
                record.bytesTotal = where.bytes;
                record.path = cachePath(where.datasetName, request.commitId);
                record.job = ns + QLatin1Char('/') + jobName;
                record.requested = now;
                if (existing) {
                    record.lastUsed = existing->lastUsed;
                    record.usedBy = existing->usedBy;
                }
                data[key] = cacheRecordToJson(record).toStdString();
                return true;
            },
            cancel);
        if (!written) {
            return actionFailed(
                QObject::tr("cannot update %1: %2").arg(cacheConfigMapName(target.name), qs(written.error().message)));
        }
        if (settled) {
            return ActionResult{true,
                                true,
                                QObject::tr("%1@%2 is already on %3; not loaded again.")
                                    .arg(where.datasetName, commitShort(request.commitId), target.name)};
        }
        if (retryFailed) {
            // The failed loader's Job holds the name; the new one resumes from its files.
            auto removed = client.deleteJob(ss(ns), ss(jobName), cancel);
            if (!removed) {
                return actionFailed(qs(removed.error().message));
            }
        }
        ctx.progress(ActionProgress{-1, QObject::tr("Creating Job %1 in %2").arg(jobName, ns)});
        if (!ctx.sending()) {
            return actionFailed(QObject::tr("not sent"));
        }
        auto created = createCacheJob(client, ss(ns), loaderJobObject(target, where, request, requested), cancel);
        if (!created) {
            return actionFailed(QObject::tr("cannot start %1: %2").arg(jobName, qs(created.error().message)));
        }
        ctx.accepted(ns + QLatin1Char('/') + jobName);
        const QString message = QObject::tr("Loading %1@%2 onto %3: Job %4/%5 copies %6.")
                                    .arg(where.datasetName,
                                         commitShort(request.commitId),
                                         target.name,
                                         ns,
                                         jobName,
                                         formatBytes(where.bytes));
        return ActionResult{true, *created, message};
    };
}

bool KubernetesSource::recovers(ActionKind kind) const
{
    return kind == ActionKind::CacheCommit;
}

void KubernetesSource::afterSuccess(const ActionRequest &request)
{
    // Watches deliver compute changes; cache state is polled, so read it now.
    if (request.kind == ActionKind::CacheCommit || request.kind == ActionKind::CacheEvict) {
        refreshCaches();
    }
}

void KubernetesSource::testConnection(const SourceConfig &config,
                                      const QString &token,
                                      QThreadPool &pool,
                                      QObject *context,
                                      std::function<void(bool ok, QString message)> done)
{
    runConnectionTest(pool, context, std::move(done), [config, token] {
        const auto started = std::chrono::steady_clock::now();
        bool ok = false;
        QString message;
        auto endpoint = resolveEndpoint(config, token);
        if (!endpoint) {
            message = qs(endpoint.error().message);
        } else {
            // The user is waiting on a button: one attempt, a short deadline.
            http::TransportOptions base;
            base.connectTimeout = 10s;
            base.totalTimeout = 20s;
            http::CurlTransport transport(kubernetes::transportOptions(*endpoint, std::move(base)));
            kubernetes::KubeClientOptions options;
            options.retry.maxAttempts = 1;
            options.requestTimeout = 20s;
            kubernetes::KubeClient client(transport, *endpoint, options);
            const http::CancelToken cancel;
            auto version = client.version(cancel);
            auto discovery = version ? client.discover(cancel, {kubernetes::kQueues, kubernetes::kPodGroups})
                                     : connectors::Result<kubernetes::Discovery>(Unexpected{version.error()});
            const auto ms =
                std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
            if (!version || !discovery) {
                message = QObject::tr("%1: %2").arg(qs(endpoint->server),
                                                    qs(version ? discovery.error().message : version.error().message));
            } else {
                ok = true;
                const QString where =
                    config.url.isEmpty()
                        ? QObject::tr(" at %1 (context %2)").arg(qs(endpoint->server), qs(endpoint->contextName))
                        : QString();
                message = QObject::tr("Connected to %1%2 in %3 ms; %4.")
                              .arg(qs(version->gitVersion), where)
                              .arg(ms.count())
                              .arg(kaiDiscoveryFinding(*discovery));
            }
        }
        if (!config.prometheusUrl.isEmpty()) {
            http::TransportOptions promTransportOptions;
            promTransportOptions.connectTimeout = 10s;
            promTransportOptions.totalTimeout = 15s;
            http::CurlTransport promTransport(promTransportOptions);
            http::ClientOptions promOptions;
            promOptions.baseUrl = ss(config.prometheusUrl);
            promOptions.retry.maxAttempts = 1;
            prometheus::PrometheusClient prom(promTransport, promOptions);
            auto build = prom.buildInfo();
            if (build) {
                message +=
                    QLatin1Char(' ')
                    + QObject::tr("Prometheus %1 reachable at %2.").arg(qs(build->version), config.prometheusUrl);
            } else {
                // A wrong Prometheus URL leaves the GPU utilization empty: fail the test.
                ok = false;
                message += QLatin1Char(' ')
                           + QObject::tr("Prometheus at %1 is unreachable: %2")
                                 .arg(config.prometheusUrl, qs(build.error().message));
            }
        }
        return std::make_pair(ok, message);
    });
}

Result<KubernetesSource::KubeconfigContexts> KubernetesSource::kubeconfigContexts(const QString &path)
{
    const std::vector<std::string> paths =
        path.isEmpty() ? kubernetes::kubeconfigPaths() : std::vector<std::string>{ss(path)};
    auto kubeconfig = kubernetes::loadKubeconfig(paths);
    if (!kubeconfig) {
        return core::fail(toError(kubeconfig.error()));
    }
    KubeconfigContexts contexts;
    contexts.names.reserve(int(kubeconfig->contexts.size()));
    for (const std::string &name : kubeconfig->contexts) {
        contexts.names << qs(name);
    }
    contexts.current = qs(kubeconfig->currentContext);
    if (contexts.names.isEmpty()) {
        return core::fail(QObject::tr("%1 defines no contexts.").arg(qs(kubeconfig->source)));
    }
    return contexts;
}

} // namespace strata::core
