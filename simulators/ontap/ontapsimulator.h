#pragma once

#include "simulators/common/simulatorbase.h"
#include "simulators/common/tlsidentity.h"
#include "simulators/ontap/faults.h"
#include "simulators/ontap/model.h"

#include <QHostAddress>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <variant>

namespace strata::sim {
class ServerThread;
}

namespace strata::sim::ontap {

class Estate;
struct Exchange;
struct JobRecord;
template <class T> struct SortCache;

/// Start-up options of an OntapSimulator.
struct OntapSimulatorOptions
{
    enum class Preset
    {
        Demo,      ///< ARCHITECTURE.md's `ontap-ai` cluster
        Generated, ///< `volumeCount` generated volumes (tens to 50,000)
    };

    QString clusterName = QStringLiteral("ontap-ai");
    QString username = QStringLiteral("admin");
    QString password = QStringLiteral("netapp1!");
    Preset preset = Preset::Demo;
    int volumeCount = 200;       ///< Generated preset only
    int snapshotsPerVolume = 10; ///< Generated preset only; generated lazily per volume
    quint64 seed = 42;           ///< estate, job durations and fault probabilities
    /// Records per collection page at most, whatever max_records asks: ONTAP returns early
    /// (return_timeout) so clients must follow `_links.next`. Below Ansible's 1024 and Harvest's 500.
    int pageCap = 400;
    std::chrono::milliseconds jobDurationMin{300}; ///< a job's queued + running time, drawn per job
    std::chrono::milliseconds jobDurationMax{1500};
    std::chrono::milliseconds jobRetention{300'000}; ///< finished jobs vanish after this (ONTAP: 300 s)
    /// Background behaviour period (Trident volumes grow, autosize, EMS events, snapshot
    /// schedule in the demo). Zero disables it; tick() still works.
    std::chrono::milliseconds tickInterval{5000};
    TlsIdentity tls;    ///< generated at start() when null
    bool useTls = true; ///< plain HTTP only for debugging; ONTAP is HTTPS-only
    QHostAddress address = QHostAddress(QHostAddress::LocalHost);
    quint16 port = 0; ///< 0 = any free port
};

/// A protocol-faithful ONTAP REST API server (HTTPS + basic auth) over a simulated cluster,
/// written from the vendor contract (docs/apis.md §1, the ONTAP Swagger) for the demo and for
/// tests. Lives on one thread (normally a ServerThread); the in-process test API below may be
/// called from any thread and runs on the simulator's thread (blocking).
///
/// Endpoints (under /api, repeated slashes tolerated): cluster, cluster/nodes, cluster/jobs,
/// svm/svms, storage/aggregates, storage/volumes (+ snapshots, metrics), storage/flexcache/
/// flexcaches and origins, storage/qos/policies, support/ems/events. Control endpoints under
/// /_sim (same basic auth): GET/POST/DELETE /_sim/faults, DELETE /_sim/faults/{id}, GET /_sim/state.
class OntapSimulator final : public SimulatorBase
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OntapSimulator)

public:
    using Options = OntapSimulatorOptions;

    explicit OntapSimulator(Options options = {}, QObject *parent = nullptr);
    ~OntapSimulator() override;

    /// Builds the estate and listens. Call on the simulator's thread. Returns false and sets
    /// errorString() on failure.
    bool start();
    /// Creates and starts a simulator on `thread`; the thread owns it. nullptr on failure.
    static OntapSimulator *startOnThread(ServerThread &thread, Options options, QString *error = nullptr);

    // errorString(), port() and baseUrl() ("https://127.0.0.1:<port>", no /api) come from
    // SimulatorBase.
    /// PEM of the serving certificate: clients pin it as their CA.
    [[nodiscard]] QByteArray certificatePem() const { return m_options.tls.certificatePem; }
    [[nodiscard]] const Options &options() const { return m_options; }

    // In-process API (any thread).
    /// Volumes as `GET /api/storage/volumes` counts them (FlexGroup constituents excluded unless asked).
    int volumeCount(bool includeConstituents = false) const;
    /// Snapshots of one volume, -1 for an unknown volume.
    int snapshotCount(const QString &volumeUuid) const;
    /// Snapshots across all volumes (lazily generated ones included).
    qint64 totalSnapshotCount() const;
    /// A copy of a volume with its snapshots materialised.
    std::optional<Volume> volume(const QString &uuid) const;
    std::optional<Volume> volumeByName(const QString &svmName, const QString &name) const;
    QStringList snapshotNames(const QString &volumeUuid) const;
    std::optional<Job> job(const QString &uuid) const;
    QList<Job> jobs() const;
    QList<EmsEvent> events() const;
    /// Requests handled so far (control endpoints included).
    int requestCount() const;

    /// One volume's performance at one instant from the simulator's perf model: what the
    /// volume's `metric` (duration PT15S) reports at that time, whether now or in the past.
    struct PerfPoint
    {
        QString uuid;
        double throughputBps = 0; ///< read + write, bytes/s
        double iops = 0;          ///< total
        double latencyUs = 0;     ///< total, weighted by operations
        double capBps = -1;       ///< its fixed QoS policy's max throughput (base-ten MB/s), -1 none
    };
    /// Every online volume (no FlexGroup constituents) that existed at `atMs` (UTC ms).
    QList<PerfPoint> perfAt(qint64 atMs) const;

    /// One volume's space now, as `/api/storage/volumes` reports it (space.size, space.used).
    struct VolumeSpace
    {
        QString uuid;
        QString svm;
        QString name;
        qint64 sizeBytes = 0;
        qint64 usedBytes = 0;
        qint64 usableBytes = 0;     ///< size less the snapshot reserve
        bool tridentGrowth = false; ///< a Trident volume the simulator grows
    };
    /// Every online volume (no FlexGroup constituents), by SVM and name.
    QList<VolumeSpace> volumeSpace() const;

    int addFaultRule(const FaultRule &rule);
    bool removeFaultRule(int id);
    void clearFaultRules();
    QList<FaultRule> faultRules() const;

    /// Result of changeVolumeUsed().
    enum class SpaceChange
    {
        Changed,
        NoSuchVolume,
        NoSpace, ///< the volume's active file system (size minus snapshot reserve) would overflow
    };
    /// Adds `deltaBytes` to a volume's used bytes (negative frees; never below 0), as if a client
    /// wrote or removed files over NFS: what the cache loader runner does to a cache volume. A
    /// write that would exceed usableSize() changes nothing and answers NoSpace; `usedAfter` and
    /// `available` (usable minus used) are filled whenever the volume exists.
    SpaceChange changeVolumeUsed(const QString &svmName,
                                 const QString &volumeName,
                                 qint64 deltaBytes,
                                 qint64 *usedAfter = nullptr,
                                 qint64 *available = nullptr);

    /// Changes the page cap (records per collection page at most) from now on.
    void setPageCap(int cap);
    /// Advances background behaviour by one step (what the tick timer does).
    void tick();

Q_SIGNALS:
    /// A job reached success or failure.
    void jobFinished(const QString &uuid, const QString &state);

private:
    void handle(const Request &request, const Responder &responder) override;
    void route(const std::shared_ptr<Exchange> &ex);
    void handleControl(const std::shared_ptr<Exchange> &ex);

    // Reads
    void getCollectionOrRecord(const std::shared_ptr<Exchange> &ex, const QStringList &segments);
    void getVolumes(const std::shared_ptr<Exchange> &ex);
    void getSnapshots(const std::shared_ptr<Exchange> &ex, Volume &volume, const QString &snapshotUuid);
    void getVolumeMetrics(const std::shared_ptr<Exchange> &ex, const Volume &volume);

    // Mutations (answer 202 + job, or wait with return_timeout)
    /// The request's JSON body (dotted keys expanded) when it parses and has only `allowed`
    /// top-level fields; otherwise answers the ONTAP error and returns nullopt.
    std::optional<QJsonObject> mutationBody(const std::shared_ptr<Exchange> &ex, const QStringList &allowed) const;
    /// mutationBody() of a POST that creates a named object: a missing or empty `name` is an error too.
    std::optional<QJsonObject> creationBody(const std::shared_ptr<Exchange> &ex, const QStringList &allowed) const;
    void postVolume(const std::shared_ptr<Exchange> &ex);
    void patchVolume(const std::shared_ptr<Exchange> &ex, Volume &volume);
    void deleteVolume(const std::shared_ptr<Exchange> &ex, Volume &volume);
    void postSnapshot(const std::shared_ptr<Exchange> &ex, Volume &volume);
    void patchSnapshot(const std::shared_ptr<Exchange> &ex, Volume &volume, Snapshot &snapshot);
    void deleteSnapshot(const std::shared_ptr<Exchange> &ex, Volume &volume, Snapshot &snapshot);
    void postFlexCache(const std::shared_ptr<Exchange> &ex);
    /// The SVM a new volume (or FlexCache) goes into, from `body.svm`; answers the request with
    /// the ONTAP error and returns nullptr when it is missing, unknown, or already has `name`.
    const Svm *svmForNewVolume(const std::shared_ptr<Exchange> &ex, const QJsonObject &body, const QString &name);
    /// The aggregates `body.aggregates` names ({name|uuid} each; empty when none); answers the
    /// error and returns nullopt when one does not resolve.
    std::optional<QList<Ref>> namedAggregates(const std::shared_ptr<Exchange> &ex, const QJsonObject &body) const;

    using Effect = std::function<std::optional<OntapError>()>;
    /// Queues a job applying `effect` when it completes and answers the request (202, or the
    /// final result when return_timeout lets it wait). The job's description is the request's
    /// method and path ("POST /api/storage/volumes"); `created` is echoed with return_records.
    void submitJob(const std::shared_ptr<Exchange> &ex,
                   const Ref &svm,
                   Effect effect,
                   const std::optional<Ref> &created = std::nullopt,
                   const QString &location = {});
    void runJob(const QString &uuid);
    void completeJob(const QString &uuid);

    void finish(const std::shared_ptr<Exchange> &ex, Response response) const;
    void sendJson(const std::shared_ptr<Exchange> &ex, int status, const QByteArray &body) const;
    void sendError(const std::shared_ptr<Exchange> &ex, const OntapError &error) const;
    void sendResult(const std::shared_ptr<Exchange> &ex, const std::variant<QByteArray, OntapError> &result) const;
    [[nodiscard]] bool isAuthorised(const Request &request) const;

    void growTridentVolumes(qint64 nowMs);
    void rotateScheduledSnapshots(qint64 nowMs);
    void checkFullness(Volume &volume, qint64 nowMs);

    Options m_options;
    int m_pageCap = 0;
    std::unique_ptr<Estate> m_estate;
    std::unique_ptr<SortCache<Volume>> m_volumeSortCache;
    QHash<QString, std::shared_ptr<JobRecord>> m_jobs;
    FaultSet m_faults;
    QTimer m_ticker;
    quint64 m_ticks = 0;
    QSet<QString> m_fullAlerted; ///< volumes already reported nearly full
    QByteArray m_expectedAuth;   ///< "Basic base64(user:password)"
};

} // namespace strata::sim::ontap
