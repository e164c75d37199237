#pragma once

#include "simulators/common/httpserver.h"
#include "simulators/common/tlsidentity.h"
#include "simulators/storagegrid/s3store.h"

#include <QHostAddress>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

namespace strata::sim {
class ServerThread;
}

namespace strata::sim::storagegrid {

struct GridState;

/// A tenant account of the simulated grid.
struct TenantSpec
{
    QString id;   ///< 20 digits
    QString name; ///< "data-science"
    QString description;
    QString rootPassword;               ///< password of the tenant's "root" user
    std::int64_t quotaObjectBytes = -1; ///< -1 = none
};

/// Start-up options of a StorageGridSimulator.
struct StorageGridSimulatorOptions
{
    enum class Preset
    {
        /// Grid "datalake" with its nodes, the root user and no tenants or buckets.
        Empty,
        /// ARCHITECTURE.md's demo grid: site "dc1" (dc1-adm1 admin node, dc1-s1..s3 storage nodes,
        /// dc1-g1 gateway), tenants "data-science" (bucket "datasets", versioning on, TR-4841's
        /// six datasets as prefixes, each at its last revision) and "support-center" (bucket
        /// "sentiment"), ILM policy "Data lake 2 copies" active.
        Datalake,
    };
    Preset preset = Preset::Datalake;

    QString gridName = QStringLiteral("datalake");
    QString productVersion = QStringLiteral("11.8.0.2-20240314.0134.a0b4e8c");
    /// API versions /api/versions lists ({3, 4}); paths under any of them are served.
    QList<int> apiVersions = {3, 4};
    QString rootPassword = QStringLiteral("strata-sim-grid");
    /// Lifetime of authorize tokens; an expired token gets 401 with the error envelope.
    std::chrono::seconds tokenTtl{std::chrono::hours(16)};

    /// S3 credentials: the access key of tenant data-science's root user ...
    QString s3AccessKey = QStringLiteral("SGSIMDATASCIENCE0001");
    QString s3SecretKey = QStringLiteral("strata-sim-s3-secret-datascience");
    /// ... and of tenant support-center.
    QString s3AccessKey2 = QStringLiteral("SGSIMSUPPORTCENTER01");
    QString s3SecretKey2 = QStringLiteral("strata-sim-s3-secret-support");
    QString s3Region = QStringLiteral("us-east-1");
    /// Virtual-hosted requests: Host "<bucket>.<suffix>[:port]" addresses that bucket.
    QStringList virtualHostSuffixes = {QStringLiteral("localhost"), QStringLiteral("s3.localhost")};
    /// Allowed difference between x-amz-date and the simulator clock (RequestTimeTooSkewed).
    std::chrono::minutes maxClockSkew{15};

    std::uint64_t seed = 20240601; ///< object contents and the metric model

    TlsIdentity tls;    ///< management API (always HTTPS); generated at start() when null
    bool s3Tls = false; ///< S3 endpoint over HTTPS with the same identity
    QHostAddress address = QHostAddress(QHostAddress::LocalHost);
    quint16 managementPort = 0; ///< 0 = any free port
    quint16 s3Port = 0;         ///< 0 = any free port
};

/// Summary of one TR-4841 dataset in the Datalake preset.
struct DatasetSpec
{
    QString name;            ///< "fraud_jun" (prefix "fraud_jun/" in bucket "datasets")
    std::int64_t totalBytes; ///< current (last revision) total, decimal bytes
    int revisions;           ///< commits in the demo history (revision 1..revisions)
};

/// The TR-4841 datasets: fraud_jun 32.4 MB/4, fraud_may 57.6/2, consumer_img1 27.3/4,
/// public_set12 102.7/7, fraud_sim_base 45.1/2, misc_base1 25.1/1 (MB = 10^6 bytes).
const std::vector<DatasetSpec> &datalakeDatasets();

/// A protocol-faithful NetApp StorageGRID: the Grid and Tenant Management API on one HTTPS port
/// and the S3 endpoint (SigV4 header authentication, path-style and virtual-hosted) on another.
/// See simulators/storagegrid/README.md for endpoints, faults and the metric model.
///
/// Lives on one thread (normally a ServerThread). store() and the in-process API may be used
/// from any thread.
class StorageGridSimulator final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StorageGridSimulator)

public:
    using Options = StorageGridSimulatorOptions;

    explicit StorageGridSimulator(Options options = {}, QObject *parent = nullptr);
    ~StorageGridSimulator() override;

    /// Builds the preset and listens on both ports. Call on the simulator's thread.
    bool start();
    static StorageGridSimulator *startOnThread(ServerThread &thread, Options options, QString *error = nullptr);

    [[nodiscard]] QString errorString() const { return m_error; }
    /// "https://127.0.0.1:<port>": the management API (…/api/v4/…).
    [[nodiscard]] QString managementUrl() const { return m_managementUrl; }
    /// "http://127.0.0.1:<port>" (or https): the S3 endpoint.
    [[nodiscard]] QString s3Url() const { return m_s3Url; }
    [[nodiscard]] quint16 managementPort() const;
    [[nodiscard]] quint16 s3Port() const;
    [[nodiscard]] QByteArray caPem() const { return m_options.tls.certificatePem; }
    [[nodiscard]] const Options &options() const { return m_options; }

    /// The object store behind the S3 endpoint (thread-safe).
    [[nodiscard]] S3Store &store() { return *m_store; }
    [[nodiscard]] const S3Store &store() const { return *m_store; }

    // ---- in-process API (any thread) -----------------------------------------------------
    /// Tenants (Datalake: data-science, support-center).
    [[nodiscard]] std::vector<TenantSpec> tenants() const;
    /// Adds a tenant (id generated when empty); returns its id.
    QString addTenant(TenantSpec tenant);

    /// Simulator clock: real time plus an offset the tests advance (alerts, token expiry,
    /// Last-Modified, the metric model all follow it). Milliseconds since the epoch.
    [[nodiscard]] std::int64_t nowMs() const;
    void advanceClock(std::chrono::milliseconds by);

    /// Sets prefix "<name>/" of bucket "datasets" to exactly revision `revision` (1..revisions
    /// of datalakeDatasets()) of that dataset: objects that differ are written as new versions,
    /// objects not in the revision get delete markers; objects under "<name>/.strata/" (commit
    /// manifests) are left alone. The last revision is the preset's content. Returns false for
    /// an unknown name or revision.
    bool applyDatasetRevision(const QString &name, int revision);

    /// The next `count` S3 requests get 503 SlowDown.
    void injectSlowDown(int count);
    /// Every S3 answer is delayed by `latency` (0 = none).
    void setS3Latency(std::chrono::milliseconds latency);
    /// The next `count` management requests whose path matches `pathRegex` get this fault
    /// ("status" with `status`, or "malformed", "truncate", "reset", "stall").
    void addManagementFault(const QString &pathRegex, const QString &kind, int status = 500, int count = 1);
    /// Every issued management token is expired from now on.
    void revokeTokens();
    /// Requests answered so far on each port.
    [[nodiscard]] int managementRequests() const;
    [[nodiscard]] int s3Requests() const;
    /// Authorize calls that issued a token.
    [[nodiscard]] int authorizations() const;
    /// `DELETE /authorize` calls (logouts), with or without a valid token.
    [[nodiscard]] int logouts() const;

private:
    void handleManagement(const Request &request, const Responder &responder);
    void handleS3(const Request &request, const Responder &responder);

    Options m_options;
    QString m_error;
    QString m_managementUrl;
    QString m_s3Url;
    HttpServer *m_management = nullptr;
    HttpServer *m_s3 = nullptr;
    std::unique_ptr<S3Store> m_store;
    std::unique_ptr<GridState> m_state;
    std::atomic<std::int64_t> m_clockOffsetMs{0};
};

} // namespace strata::sim::storagegrid
