#pragma once

#include "simulators/common/simulatorbase.h"
#include "simulators/common/tlsidentity.h"

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QHostAddress>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <nlohmann/json_fwd.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace strata::sim {
class ServerThread;
}

namespace strata::sim::kube {

class ObjectStore;
class Cluster;
class DcgmExporter;
struct KubeExchange;
struct KubeWatch;
struct KubeFaults;
struct StoreEvent;
struct StoredObject;
struct ResourceInfo;

/// A dataset volume of the `dgx` preset: a Trident-provisioned PV bound to a PVC. The PV is named
/// "pvc-<claimUid>" and carries csi.volumeHandle "pvc-<claimUid>" and
/// volumeAttributes.internalName "trident_pvc_<claimUid with '_' for '-'>" (Trident's naming), so
/// the app can match it to the ONTAP simulator's volume of that name.
struct KubeDataset
{
    QString namespace_; ///< "runai-team-a"
    QString claimName;  ///< PVC name, "imagenet-train-scratch"
    QString claimUid;   ///< PVC uid (RFC 4122), also the PV's name suffix
    qint64 capacityGiB = 100;
    QString accessMode = QStringLiteral("ReadWriteMany");
};

/// A batch/v1 Job as `runai submit` (or Strata) creates it, for KubeSimulator::jobManifest().
struct KubeJobSpec
{
    QString namespace_; ///< "runai-team-a"
    QString name;
    QString queue; ///< project, label kai.scheduler/queue
    QString user = QStringLiteral("root");
    QString createdBy = QStringLiteral("cli"); ///< label strata.io/created-by; empty = no label
    QString image = QStringLiteral("gcr.io/run-ai-demo/quickstart");
    qint64 gpuMilli = 1000;   ///< whole GPUs as limits nvidia.com/gpu, a fraction as gpu-fraction
    bool interactive = false; ///< priorityClassName build (non-preemptible) instead of train
    QStringList command;
    QStringList args;
    QStringList pvcClaims;    ///< mounted at /mnt/<claim>
    int durationSeconds = -1; ///< simulated run time (annotation strata.io/sim-duration-seconds); -1 = forever
    double gpuUtilPct = -1;   ///< annotation strata.io/sim-gpu-util (DCGM %, reported exactly); -1 = by kind
};

/// What a workload did in one step: log lines it printed (the pod log, without '\n') and whether
/// its container is still running, exited 0 or exited non-zero.
struct SimWorkloadStep
{
    enum class Outcome
    {
        Running,
        Succeeded,
        Failed,
    };
    std::vector<std::string> logLines;
    Outcome outcome = Outcome::Running;
    /// Failed: the container's termination message (status.containerStatuses[].state.terminated
    /// .message), e.g. the loader's failure reason; may be empty.
    std::string message;
};

/// The program a Job's pod runs in the simulator, instead of sleeping for
/// strata.io/sim-duration-seconds. One instance per pod: a pod the Job controller retries after a
/// failure (backoffLimit) gets a new instance, so any resume state lives with the runner. Stepped
/// on the simulator's thread once per tick while the pod is Running.
class SimWorkload
{
public:
    virtual ~SimWorkload() = default;
    /// `elapsed` = simulated time since the container started or the previous step (> 0).
    virtual SimWorkloadStep step(std::chrono::milliseconds elapsed) = 0;
};

/// Asked (on the simulator's thread) for every new pod of a Job, with the Job as stored (JSON with
/// metadata, spec.template ...); nullptr = an ordinary pod (runs for its sim duration, or forever).
/// Must not modify the simulator (it runs inside the Job controller); reading objects is fine.
using SimWorkloadRunner = std::function<std::unique_ptr<SimWorkload>(const nlohmann::json &job)>;

/// Start-up options of a KubeSimulator.
struct KubeSimulatorOptions
{
    enum class Preset
    {
        Empty, ///< namespaces default/kube-system/kube-public and the KAI default queues only
        Dgx,   ///< TR-4858: two DGX-1 nodes, four team projects, datasets, the §4.8 jobs Running
        Scale, ///< `scaleNodes` nodes and `scalePods` bound pods in `scaleNamespaces` namespaces
        /// The AKS cluster "aks-gpu" of the Azure simulator's AiLab estate: a system node
        /// (Standard_D4s_v5) and the gpupool's three Standard_NC6s_v3 nodes
        /// aks-gpupool-38146290-vmss00000{0,1,2} with one Tesla V100-PCIE-16GB each (AKS and GPU
        /// feature-discovery labels), namespace "ml-team" with KAI queue "ml-team" (quota 3 GPUs);
        /// no jobs.
        Aks,
    };

    Preset preset = Preset::Dgx;
    /// Bearer token every request must carry (`Authorization: Bearer <token>`); others get 401.
    QString token = QStringLiteral("strata-sim-token");
    TlsIdentity tls;    ///< generated at start() when null
    bool useTls = true; ///< kubectl sends no bearer token over plain HTTP: keep TLS on
    QHostAddress address = QHostAddress(QHostAddress::LocalHost);
    quint16 port = 0; ///< 0 = any free port
    /// Plain-HTTP port of the Prometheus/dcgm-exporter endpoint (0 = any free port).
    quint16 prometheusPort = 0;
    /// Serve GPU metrics (the second server). Off by default for the Scale preset, whose
    /// 16,000 GPUs would make each scrape megabytes.
    std::optional<bool> gpuMetrics;

    std::uint64_t seed = 42; ///< uids, pod name suffixes, GPU utilisation noise
    /// Simulated time at start; invalid = the wall clock at start().
    QDateTime startTime;
    /// Real time between automatic ticks (QTimer); zero = only explicit tick() / POST /_sim/tick.
    std::chrono::milliseconds tickInterval{1000};
    /// Simulated time one tick advances.
    std::chrono::milliseconds tickStep{1000};
    /// Simulated time a bound pod stays ContainerCreating before it runs.
    std::chrono::milliseconds containerCreating{3000};
    /// Changes kept for watches to resume from; older resourceVersions get 410 Expired.
    std::size_t watchHistory = 20000;
    /// Real time between BOOKMARK events on watches that allow them (also sent on every tick);
    /// zero = only on ticks.
    std::chrono::milliseconds bookmarkInterval{15000};
    /// Events kept at most (oldest deleted first), like the real server's event TTL.
    int maxEvents = 5000;
    /// Image references no registry serves: a pod using one is bound, then its container waits
    /// in ErrImagePull and ImagePullBackOff with the kubelet's Failed/BackOff events, holding its
    /// GPUs (e.g. "nvcr.io/nvidia/pytorch:24.13-py3", a tag that was never published).
    QStringList unpullableImages;

    // Dgx preset
    QString storageClass = QStringLiteral("ontap-nas");
    /// Datasets (PV + PVC); empty = the demo's six, matching the ONTAP simulator's trident volumes.
    QList<KubeDataset> datasets;
    bool submitDemoJobs = true; ///< submit the 13 §4.8 jobs and run them to Running

    // Scale preset
    int scaleNamespaces = 20;
    int scalePods = 50000;
    int scaleNodes = 2000;
};

/// One project (KAI queue) at one simulated instant, as the scheduler and dcgm-exporter see it:
/// what a console polling the cluster then would have recorded (demo history backfill).
struct KubeProjectSample
{
    QString project;                 ///< queue name
    std::int64_t quotaMilli = 0;     ///< deserved milli-GPUs
    std::int64_t allocatedMilli = 0; ///< held by running jobs
    std::int64_t pendingMilli = 0;   ///< requested by queued jobs
    /// Mean DCGM_FI_DEV_GPU_UTIL (percent) over the GPUs its running jobs hold, weighted by each
    /// job's share of a GPU; -1 when it runs nothing.
    double utilization = -1;
};

/// A protocol-faithful Kubernetes API server (HTTPS + bearer token, discovery, list with
/// limit/continue, watch with bookmarks and 410 expiry, create/get/delete/patch) over an in-memory
/// cluster with a Job controller, the KAI-like GPU scheduler (scheduler.h), pod lifecycle on a
/// simulated clock and GPU utilisation served as DCGM metrics on a second, plain-HTTP server
/// (prometheusUrl()). Lives on one thread (normally a ServerThread); the in-process API below may be
/// called from any thread and runs on the simulator's thread (blocking).
///
/// Resources: core v1 namespaces, nodes, pods (+ the pods/{name}/log subresource, tailLines),
/// events, resourcequotas, persistentvolumeclaims, persistentvolumes, configmaps, secrets
/// (stringData folded into base64 data); batch/v1 jobs (backoffLimit: a failed pod is replaced by
/// a new one until status.failed exceeds it, then the Job gets Failed/BackoffLimitExceeded); storage.k8s.io/v1
/// storageclasses; snapshot.storage.k8s.io/v1 volumesnapshots; scheduling.run.ai/v2 queues and
/// scheduling.run.ai/v2alpha2 podgroups (only those versions, as KAI's CRDs serve them).
///
/// Control endpoints (same bearer token), JSON bodies:
/// - GET /_sim/state; POST /_sim/tick {"seconds":S,"count":N} (N ticks of S simulated seconds,
///   default one tickStep);
/// - GET/POST/DELETE /_sim/faults, DELETE /_sim/faults/{id}: rules
///   {"method":"GET","path":"^/api/v1/pods","kind":"status|reset|stall|malformed|truncate|latency",
///    "status":429,"retryAfterSeconds":2,"message":"...","latency_ms":0,"count":1};
/// - POST /_sim/compact: forget history (older continue tokens and watch resourceVersions -> 410);
/// - POST /_sim/watches/expire: every open watch gets an ERROR 410 event and ends (and compact);
/// - POST /_sim/watches/drop: every open watch stream ends cleanly;
/// - POST /_sim/churn {"podsPerSecond":N}: that many pod MODIFIED events per second (0 stops).
class KubeSimulator final : public SimulatorBase
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KubeSimulator)

public:
    using Options = KubeSimulatorOptions;

    explicit KubeSimulator(Options options = {}, QObject *parent = nullptr);
    ~KubeSimulator() override;

    /// Builds the preset and listens. Call on the simulator's thread. Returns false and sets
    /// errorString() on failure.
    bool start();
    /// Creates and starts a simulator on `thread`; the thread owns it. nullptr on failure.
    static KubeSimulator *startOnThread(ServerThread &thread, Options options, QString *error = nullptr);

    // errorString(), port() and baseUrl() ("https://127.0.0.1:<port>", the kubeconfig `server`)
    // come from SimulatorBase.
    /// "http://127.0.0.1:<port>" of the Prometheus API / dcgm-exporter /metrics; empty without metrics.
    [[nodiscard]] QString prometheusUrl() const { return m_prometheusUrl; }
    [[nodiscard]] QString token() const { return m_options.token; }
    /// PEM of the serving certificate: clients pin it as their CA (certificate-authority-data).
    [[nodiscard]] QByteArray caPem() const { return m_options.tls.certificatePem; }
    [[nodiscard]] const Options &options() const { return m_options; }
    /// A kubeconfig (YAML) for this server: cluster/context/user "strata-sim", CA data, token.
    [[nodiscard]] QByteArray kubeconfig(const QString &contextName = QStringLiteral("strata-sim")) const;

    /// The Job manifest (JSON) of `spec`, in the shared conventions' shape.
    static QJsonObject jobManifest(const KubeJobSpec &spec);

    // In-process API (any thread).
    /// Advances simulated time by `count` steps of `step` (default options().tickStep): pod
    /// lifecycle, job completion, scheduling, GPU samples, bookmarks.
    void tick(int count = 1, std::optional<std::chrono::milliseconds> step = std::nullopt);
    /// Simulated now.
    QDateTime now() const;
    /// Current global resourceVersion.
    std::uint64_t resourceVersion() const;
    /// Number of stored objects of a resource ("pods", "jobs", ... the plural).
    int objectCount(const QString &plural) const;
    /// The object as JSON, or nullopt ("pods", "runai-team-a", "x"; namespace empty for cluster scope).
    std::optional<QJsonObject> object(const QString &plural, const QString &ns, const QString &name) const;
    /// Open watch streams.
    int watchCount() const;
    /// Requests handled so far (control endpoints included).
    int requestCount() const;
    /// metadata.name of every create (POST) request for `plural` so far, in order, refused ones
    /// (AlreadyExists, invalid) included: lets a test see whether a client sent a create twice.
    QStringList createRequests(const QString &plural) const;
    /// Same as POST /_sim/compact, /_sim/watches/expire, /_sim/watches/drop, /_sim/churn.
    void compact();
    void expireWatches();
    void dropWatches();
    void setChurn(int podsPerSecond);
    /// Adds a fault rule (JSON form of /_sim/faults); returns its id, or -1 with `error` set.
    int addFaultRule(const QJsonObject &rule, QString *error = nullptr);
    void clearFaultRules();
    /// Scheduler view: {"projects":[{name,quota,allocated,...}],"jobs":[...]} as /_sim/state shows it.
    QJsonObject schedulerState() const;
    /// Every project at simulated now(), with the utilization dcgm-exporter reports for its GPUs.
    QList<KubeProjectSample> projectSamples() const;
    /// Installs (or, with an empty function, removes) the workload hook for pods created from now on.
    void setWorkloadRunner(SimWorkloadRunner runner);
    /// The pod's log lines (what GET .../pods/{name}/log serves), nullopt for an unknown pod.
    std::optional<QStringList> podLog(const QString &ns, const QString &pod) const;
    /// Creates an object as POST would (admission defaults, controllers react), e.g. a static NFS
    /// PV and its PVC for a cache volume. Returns false with `error` set if it exists or is invalid.
    bool createObject(const QString &plural, const QJsonObject &object, QString *error = nullptr);

Q_SIGNALS:
    /// After each tick (simulated time moved).
    void ticked();

private:
    void handle(const Request &request, const Responder &responder) override;
    void handleControl(const std::shared_ptr<KubeExchange> &ex);
    void route(const std::shared_ptr<KubeExchange> &ex);
    void serveDiscovery(const std::shared_ptr<KubeExchange> &ex, bool *handled);
    void serveOpenApi(const std::shared_ptr<KubeExchange> &ex, bool *handled);
    void list(const std::shared_ptr<KubeExchange> &ex, int resource, const std::string &ns);
    void watch(const std::shared_ptr<KubeExchange> &ex, int resource, const std::string &ns);
    void create(const std::shared_ptr<KubeExchange> &ex, int resource, const std::string &ns);
    /// A handler of one existing object (GET, PUT, PATCH, DELETE); the router has looked it up.
    using ObjectHandler = void (KubeSimulator::*)(const std::shared_ptr<KubeExchange> &ex,
                                                  int resource,
                                                  const std::string &ns,
                                                  const std::string &name,
                                                  const std::shared_ptr<const StoredObject> &current);
    void getOne(const std::shared_ptr<KubeExchange> &ex,
                int resource,
                const std::string &ns,
                const std::string &name,
                const std::shared_ptr<const StoredObject> &current);
    void update(const std::shared_ptr<KubeExchange> &ex,
                int resource,
                const std::string &ns,
                const std::string &name,
                const std::shared_ptr<const StoredObject> &current);
    void patch(const std::shared_ptr<KubeExchange> &ex,
               int resource,
               const std::string &ns,
               const std::string &name,
               const std::shared_ptr<const StoredObject> &current);
    void remove(const std::shared_ptr<KubeExchange> &ex,
                int resource,
                const std::string &ns,
                const std::string &name,
                const std::shared_ptr<const StoredObject> &current);
    void servePodLog(const std::shared_ptr<KubeExchange> &ex, const std::string &ns, const std::string &name);
    /// The stored object, or nullptr after answering 404 NotFound as the API server does.
    std::shared_ptr<const StoredObject> findOrNotFound(const std::shared_ptr<KubeExchange> &ex,
                                                       int resource,
                                                       const std::string &ns,
                                                       const std::string &name);
    /// Whether `written` names no resourceVersion or `current`'s; else answers 409 Conflict.
    bool isCurrentVersion(const std::shared_ptr<KubeExchange> &ex,
                          const ResourceInfo &info,
                          const std::string &name,
                          const nlohmann::json &written,
                          const StoredObject &current);

    void sendJson(const std::shared_ptr<KubeExchange> &ex, int status, const QByteArray &body) const;
    void sendStatus(const std::shared_ptr<KubeExchange> &ex,
                    int code,
                    const char *reason,
                    const std::string &message,
                    const QByteArray &detailsJson = {}) const;

    void onStoreEvent(const StoreEvent &event);
    void sendBookmarks();
    void sweepWatches();
    void endWatch(std::uint64_t id, bool expired);
    /// Ends every open watch (an ERROR 410 first when `expired`).
    void endAllWatches(bool expired);
    void churnStep();
    void doTick(std::chrono::milliseconds step);

    Options m_options;
    QString m_prometheusUrl;
    std::int64_t m_nowMs = 0;
    HttpServer *m_prometheus = nullptr;
    std::unique_ptr<ObjectStore> m_store;
    QHash<QString, QStringList> m_createRequests; ///< plural -> names, see createRequests()
    std::unique_ptr<Cluster> m_cluster;
    std::unique_ptr<DcgmExporter> m_dcgm;
    std::map<std::uint64_t, std::unique_ptr<KubeWatch>> m_watches;
    std::uint64_t m_nextWatchId = 1;
    std::unique_ptr<KubeFaults> m_faults;
    QByteArray m_expectedAuth;
    QTimer m_ticker;
    QTimer m_bookmarkTimer;
    QTimer m_churnTimer;
    int m_churnPerSecond = 0;
    std::size_t m_churnCursor = 0;
    std::uint64_t m_churnCounter = 0;
};

} // namespace strata::sim::kube
