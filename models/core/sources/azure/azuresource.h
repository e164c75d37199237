#pragma once

#include "models/core/sources/pollingsource.h"

#include <functional>
#include <memory>

class QThreadPool;

namespace strata::core {

class HistoryService;
class ServiceLevels;

/// Azure subscription source: Azure NetApp Files (accounts, capacity pools, volumes) and AKS
/// clusters through Azure Resource Manager.
///
/// - Inventory every config interval: accounts -> pools -> volumes, and the managed clusters,
///   published as Volume records (id = fileSystemId, so a volume moved to another pool keeps
///   its id, selection and history; `armId` follows it), CapacityPool and AksCluster records.
/// - Performance every 300 s (Azure Monitor's grain is 5 minutes; asking more often returns
///   the same point): the latest PT5M averages of throughput, IOPS, latency and logical size
///   per volume -> VolumePerf, `usedBytes`, and perf samples with the cap in force for the
///   history store. Runs whether or not a page watches: service-level flags need the history.
/// - Snapshots of watched volumes on demand, like OntapSource.
/// - Actions: SnapshotCreate/Delete/Restore (ANF revert) and ServiceLevelChange (poolChange,
///   optionally creating the target pool first), idempotent across attempts: a retried or
///   lost change re-reads the volume by its fileSystemId and reports "already there" as
///   reconciled.
///
/// Credentials (SourceConfig): `credentialSource` "client_secret" (default: `tenantId`,
/// `clientId`, the secret, token endpoint at `authorityUrl`, default
/// https://login.microsoftonline.com) or "azure_cli" (`az account get-access-token`). ARM at
/// `url`, default https://management.azure.com; `caFile`/`insecureSkipTlsVerify` apply to both.
class AzureSource final : public VolumeSource
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AzureSource)

public:
    struct Deps
    {
        Estate &estate;
        IClock &clock;
        QThreadPool &pool;
        HistoryService *history = nullptr;      ///< optional: capacity and perf history
        ServiceLevels *serviceLevels = nullptr; ///< optional: cap/cost/cool-down in previews
    };

    /// `secret` is the client secret ("client_secret"); ignored with "azure_cli".
    AzureSource(SourceConfig config, QString secret, Deps deps, QObject *parent = nullptr);
    ~AzureSource() override;

    /// Performance polling starts after the first good inventory (metrics are asked per volume).
    void stop() override;

    // IActionExecutor
    [[nodiscard]] ActionPreview preview(const ActionRequest &request) const override;
    [[nodiscard]] std::function<ActionResult(const ActionContext &)> prepare(const ActionRequest &request) override;
    void afterSuccess(const ActionRequest &request) override;
    /// Service-level change (pool change LRO): see ActionContext::recovery.
    [[nodiscard]] bool recovers(ActionKind kind) const override;

    /// The user kubeconfig (YAML) of an AKS cluster of this subscription (ARM
    /// listClusterUserCredential), for adding it as a Kubernetes source with
    /// `kubeconfigInSecret`. On a pool thread; `done(yaml, error)` (exactly one non-empty) runs
    /// on the GUI thread unless `context` is gone. The YAML holds credentials: store it as the
    /// new source's secret, never in a file or a log.
    void fetchAksKubeconfig(const QString &clusterArmId,
                            QObject *context,
                            std::function<void(QString yaml, QString error)> done);

    /// The Sources page's "Test": gets a token, reads the subscription and counts its NetApp
    /// accounts and AKS clusters (no retries). Success: "Connected to subscription ai-lab
    /// (Enabled) in 42 ms: 1 NetApp account, 1 AKS cluster." Otherwise the connector's error
    /// (Entra ID's AADSTS text for a rejected secret). `done(ok, message)` on the GUI thread
    /// unless `context` is gone.
    static void testConnection(const SourceConfig &config,
                               const QString &secret,
                               QThreadPool &pool,
                               QObject *context,
                               std::function<void(bool ok, QString message)> done);

    /// Seconds between performance polls (default 300; tests shorten nothing: use refresh()).
    static constexpr int kPerfIntervalSeconds = 300;

    struct Connection;
    struct UsageCache;

protected:
    void describe(SourceStatus &status) const override;
    void reconnect(const QString &password) override;
    void inventoryPollFinished(SystemPoller *poller, bool ok) override;
    [[nodiscard]] SnapshotJob snapshotJob(const QString &volumeId, const Ptr<Volume> &volume) override;

private:
    Deps m_deps;
    std::shared_ptr<Connection> m_connection;
    std::shared_ptr<UsageCache> m_usage;
    SystemPoller *m_inventory = nullptr;
    SystemPoller *m_perf = nullptr;
    QString m_systemName;
    bool m_perfStarted = false;        ///< after the first good inventory (metrics are per volume)
    bool m_perfAfterInventory = false; ///< a pool change: poll metrics after the next inventory
};

} // namespace strata::core
