#pragma once

#include "models/core/domain/keyed.h"
#include "models/core/sources/pollingsource.h"

#include <chrono>
#include <memory>

class QThreadPool;

namespace strata::core {

class HistoryService;
class ServiceLevels;

/// ONTAP cluster source: polls the inventory (cluster, SVMs, aggregates, volumes, QoS policies,
/// FlexCaches) every config interval, EMS events, volume performance every performance interval
/// while someone watches (and every 5 minutes regardless, into history only), and watched
/// volumes' snapshots; records capacity and performance history; runs snapshot, clone and QoS
/// policy (service level) actions idempotently.
class OntapSource final : public VolumeSource, public IPerformanceProvider
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OntapSource)

public:
    /// Default whole-transfer limit of one request to the cluster.
    static constexpr std::chrono::seconds kDefaultRequestTimeout{120};

    struct Deps
    {
        Estate &estate;
        IClock &clock;
        QThreadPool &pool;
        HistoryService *history = nullptr; ///< optional
        /// Optional: annotates ServiceLevelChange previews (caps, cost, cool-down) and gives the
        /// cap recorded with each perf sample.
        ServiceLevels *serviceLevels = nullptr;
        /// Whole-transfer limit of each request to the cluster (connect included): a cluster that
        /// stalls mid-answer fails the request with a timeout after it (then the retry policy: GETs
        /// are retried while less than 60 s have passed). Tests shorten it.
        std::chrono::milliseconds requestTimeout{kDefaultRequestTimeout};
    };

    OntapSource(SourceConfig config, QString password, Deps deps, QObject *parent = nullptr);
    ~OntapSource() override;

    // IPerformanceProvider
    void subscribePerformance() override;
    void unsubscribePerformance() override;

    // IActionExecutor
    [[nodiscard]] ActionPreview preview(const ActionRequest &request) const override;
    [[nodiscard]] std::function<ActionResult(const ActionContext &)> prepare(const ActionRequest &request) override;
    void afterSuccess(const ActionRequest &request) override;
    /// Snapshot create and QoS policy (service level) change: see ActionContext::recovery.
    [[nodiscard]] bool recovers(ActionKind kind) const override;

    /// Checks URL, TLS and credentials by reading the cluster identity; `done(ok, message)` on
    /// the caller's thread. Used by the Sources page's "Test" button.
    static void testConnection(const SourceConfig &config,
                               const QString &password,
                               QThreadPool &pool,
                               QObject *context,
                               std::function<void(bool ok, QString message)> done);

    struct Connection;

    /// Perf is polled at least this often (seconds) even without subscribers, for history.
    static constexpr int kPerfHistorySeconds = 300;

protected:
    void describe(SourceStatus &status) const override;
    void reconnect(const QString &password) override;
    [[nodiscard]] SnapshotJob snapshotJob(const QString &volumeId, const Ptr<Volume> &volume) override;

private:
    void recordPerf(const KeyedList<VolumePerf> &perf);
    [[nodiscard]] ActionPreview previewServiceLevel(const ActionRequest &request) const;

    Deps m_deps;
    std::shared_ptr<Connection> m_connection;
    SystemPoller *m_inventory = nullptr;
    SystemPoller *m_perf = nullptr;
    SystemPoller *m_perfHistory = nullptr; ///< always on, every kPerfHistorySeconds
    QDateTime m_lastPerfRecord;
    SystemPoller *m_events = nullptr;
    QString m_systemName;
    QString m_systemVersion;
};

} // namespace strata::core
