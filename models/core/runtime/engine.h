#pragma once

#include "models/core/domain/estate.h"
#include "models/core/planning/cachepolicy.h"
#include "models/core/services/actions.h"
#include "models/core/store/config.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QThreadPool>

#include <chrono>
#include <memory>
#include <optional>

namespace strata::core {

class CacheService;
class ForecastService;
class HistoryService;
class ICredentialStore;
class ScheduleService;
class ServiceLevels;
class Source;
class Timeline;

/// The model layer's composition root, shared by the desktop app, the CLI and strata-server:
/// turns the configured sources into running Sources (resolving their secrets), owns the estate,
/// the action manager and the worker pool, and reports source health.
class Engine final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Engine)

public:
    struct Deps
    {
        IClock &clock;
        ICredentialStore &credentials;
        HistoryService *history = nullptr; ///< optional
        QString user;                      ///< recorded in the audit log
        /// Run service-level schedules (desktop, strata-server): ScheduleService starts after
        /// the first poll of every source. One-shot CLI commands leave it off.
        bool runSchedules = false;
        /// One-shot commands: how long a source may take for its first poll before it reports
        /// what it has not received and publishes the rest (Kubernetes resources not listed by
        /// then are named in its status). 0 = the sources' own default (30 s).
        std::chrono::milliseconds firstPollDeadline{0};
    };

    explicit Engine(Deps deps, QObject *parent = nullptr);
    ~Engine() override;

    [[nodiscard]] Estate &estate() { return *m_estate; }
    [[nodiscard]] ActionManager &actions() { return *m_actions; }
    [[nodiscard]] QThreadPool &pool() { return m_pool; }
    [[nodiscard]] HistoryService *history() const { return m_deps.history; }
    [[nodiscard]] IClock &clock() const { return m_deps.clock; }
    [[nodiscard]] ICredentialStore &credentials() const { return m_deps.credentials; }
    /// Levels, caps, flags and prices of every ANF and ONTAP volume; sources annotate
    /// ServiceLevelChange previews through it.
    [[nodiscard]] ServiceLevels &serviceLevels() { return *m_serviceLevels; }
    /// Planned service-level changes (started per Deps::runSchedules, or by calling start()).
    [[nodiscard]] ScheduleService &schedules() { return *m_schedules; }
    /// Clears cached commits when the eviction policy says so (started with the schedules).
    [[nodiscard]] CacheService &cacheService() { return *m_cacheService; }
    /// Capacity forecasts of every container ("full soonest"), recomputed from the history
    /// store after every source's first poll and every few minutes.
    [[nodiscard]] ForecastService &forecasts() { return *m_forecasts; }
    /// The merged triage timeline (events, alerts, actions, scheduler decisions, cache,
    /// service-level and health changes) of this engine's estate.
    [[nodiscard]] Timeline &timeline() { return *m_timeline; }
    /// Cache targets (AppConfig::cacheTargets), handed to their Kubernetes sources (running
    /// and started later).
    void setCacheTargets(const QList<CacheTargetConfig> &targets);
    [[nodiscard]] QList<CacheTargetConfig> cacheTargets() const { return m_cacheTargets; }
    /// Where the objects of a commit are, for its loader Job: the S3 endpoint of the dataset's
    /// StorageGRID source and the estate's dataset and commit records. A Kind::NotFound error
    /// ("Commit 3f2a9c01 of fraud_jun is not known to datalake.") when something is missing.
    [[nodiscard]] Result<CommitLocation>
    resolveCommit(const QString &datasetSource, const QString &datasetId, const QString &commitId) const;
    /// The rate card from AppConfig (prices and the cool-down), applied to serviceLevels().
    void setRateCard(const RateCard &card);

    /// Replaces the configured sources: unchanged ones keep running, changed ones restart,
    /// removed ones stop and their data leaves the estate.
    void setSources(const QList<SourceConfig> &sources);
    [[nodiscard]] QList<SourceConfig> sourceConfigs() const { return m_configs; }
    /// In config order.
    [[nodiscard]] QList<SourceStatus> statuses() const;
    [[nodiscard]] std::optional<SourceStatus> status(const QString &name) const;
    [[nodiscard]] Source *source(const QString &name) const;

    /// Polls now; all sources when `name` is empty.
    void refresh(const QString &name = {});
    /// Re-reads a source's secret (after the user stored a new one) and resumes its pollers.
    void reloadCredentials(const QString &name);

    /// Reference-counted interest in performance data of every source (present and future).
    void subscribePerformance();
    void unsubscribePerformance();
    void subscribeSnapshots(const QString &source, const QString &volumeId);
    void unsubscribeSnapshots(const QString &source, const QString &volumeId);

    /// True when every configured source finished its first inventory poll, or cannot start
    /// (missing secret). Always true offline.
    [[nodiscard]] bool allPolledOnce() const;

    /// Replicas sharing a store (ReplicaCoordinator): every configured source is constructed
    /// (its actions run here) but polls only while this replica holds its lease
    /// (setHeldSources()); the others show the state their owner shares (setRemoteState()).
    /// Call before setSources(). Off by default: every source polls.
    void setLeased(bool leased);
    [[nodiscard]] bool isLeased() const { return m_leased; }
    /// The sources this replica polls from now on (lease mode): newly held ones start polling,
    /// released ones stop and keep their last data until the new owner's state arrives.
    void setHeldSources(const QSet<QString> &held);
    [[nodiscard]] QSet<QString> heldSources() const { return m_held; }
    /// True when this process polls `source` (always outside lease mode).
    [[nodiscard]] bool pollsHere(const QString &source) const;
    /// The health of a source another replica polls, as it shared it (status.polledBy names
    /// that replica); status() reports it while the source is not held here.
    void setRemoteStatus(const SourceStatus &status);
    /// This replica's name (lease mode): status() of a held source names it in polledBy.
    void setReplicaId(const QString &id) { m_replicaId = id; }

    /// Offline mode (an opened support bundle, see bundle.h loadBundle()): stops every source
    /// and from then on runs none (setSources() and reloadCredentials() are ignored);
    /// sourceConfigs() and statuses() report `configs` and `statuses`, and every action is
    /// refused with `readOnlyReason`. The caller publishes the estate.
    void
    setOffline(const QList<SourceConfig> &configs, const QList<SourceStatus> &statuses, const QString &readOnlyReason);
    /// Empty while live; offline, why actions are refused ("read-only: this is a support
    /// bundle from ...").
    [[nodiscard]] QString readOnlyReason() const { return m_readOnlyReason; }

Q_SIGNALS:
    /// Sources were added, removed or replaced.
    void sourcesChanged();
    void sourceStatusChanged(const QString &name);
    /// Emitted whenever allPolledOnce() becomes true.
    void allSourcesPolled();

private:
    void startSource(const SourceConfig &config);
    void stopSource(const QString &name);
    /// StorageGRID: resolves SourceConfig::s3Secret and hands it to the running source.
    void resolveS3Secret(const SourceConfig &config);
    void checkAllPolled();

    Deps m_deps;
    QThreadPool m_pool;
    std::unique_ptr<Estate> m_estate;
    std::unique_ptr<ActionManager> m_actions;
    std::unique_ptr<ServiceLevels> m_serviceLevels;
    std::unique_ptr<ScheduleService> m_schedules;
    std::unique_ptr<CacheService> m_cacheService;
    std::unique_ptr<ForecastService> m_forecasts;
    QList<CacheTargetConfig> m_cacheTargets;
    QList<SourceConfig> m_configs;
    QHash<QString, Source *> m_sources;
    /// Status of sources that could not start (no secret), keyed by name.
    QHash<QString, SourceStatus> m_blocked;
    /// Bumped per (re)start so a late secret callback for a replaced source is ignored.
    QHash<QString, quint64> m_startGeneration;
    int m_perfSubscribers = 0;
    QString m_readOnlyReason;
    std::unique_ptr<IActionExecutor> m_readOnlyExecutor;
    bool m_leased = false;
    QString m_replicaId;
    QSet<QString> m_held;
    /// Lease mode: the shared status of each source polled by another replica.
    QHash<QString, SourceStatus> m_remote;
    /// Last member: it observes the others and goes first.
    std::unique_ptr<Timeline> m_timeline;
};

/// Configured sources of these kinds (empty = every kind) whose data is not in `engine`'s estate
/// yet: not through their first poll, or through it without ever succeeding. An answer that
/// reads their records names them rather than answer as if they held nothing. Empty offline.
QStringList notPolledYet(const Engine &engine, const QList<SourceKind> &kinds = {});

} // namespace strata::core
