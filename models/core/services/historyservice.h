#pragma once

#include "models/core/planning/chargeback.h"
#include "models/core/services/capacityforecast.h"
#include "models/core/store/auditspool.h"
#include "models/core/store/historystore.h"
#include "models/core/store/settingstore.h"

#include <QObject>
#include <QThread>

#include <chrono>
#include <functional>
#include <memory>

namespace strata::core {

/// Runs an IHistoryStore on its own thread so SQLite I/O never touches the GUI thread.
/// Writes are fire-and-forget and applied in order; queries answer through a callback invoked
/// on `context`'s thread (dropped if `context` is gone).
class HistoryService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryService)

public:
    /// Takes ownership of `store`; it is opened on the worker thread. Check openError().
    explicit HistoryService(std::unique_ptr<IHistoryStore> store, QObject *parent = nullptr);
    ~HistoryService() override;

    /// Empty when the store opened; else the reason (the app keeps running without history).
    [[nodiscard]] QString openError() const { return m_openError; }

    void recordVolumeUsage(const QString &source, std::vector<VolumeUsage> usage, const QDateTime &at);
    /// Capacity of containers other than volumes (IHistoryStore::recordCapacity; 1 h heartbeat).
    void recordCapacity(const QString &source, ContainerKind kind, std::vector<VolumeUsage> usage, const QDateTime &at);
    // Series reads: each `done` gets the store's samples or its error (Kind::Unavailable when
    // the store never opened, Kind::Failed with the database's text), so a chart says "history
    // unavailable" instead of drawing an empty history.
    /// IHistoryStore::capacityHistory().
    void capacityHistory(const QDateTime &from,
                         const QDateTime &to,
                         QObject *context,
                         std::function<void(Result<std::vector<CapacitySeries>>)> done);
    /// Reads the capacity history in [from, now] and forecasts the containers of `snapshot`
    /// (forecastContainers()) from it with forecastAll() on the history thread, so a whole
    /// estate's forecasts never load the caller's thread; `done` gets them on `context`'s
    /// thread, or the error of the history read (nothing is forecast from a history that could
    /// not be read).
    void forecastCapacity(ContainerSnapshot snapshot,
                          const QDateTime &from,
                          const QDateTime &now,
                          QObject *context,
                          std::function<void(Result<std::vector<ContainerForecast>>)> done);
    /// Writes an audit entry, in order with the other audit entries. With an audit spool
    /// (enableAuditSpool()) the entry is on disk before this returns and reaches the store
    /// exactly once, in order, even across a store outage or a restart; false when it can be
    /// neither written nor kept (the spool is full or unwritable: the caller tells the user the
    /// action was not audited). Without a spool it is posted once (false: the store never
    /// opened).
    bool appendAudit(const AuditEntry &entry);
    /// Keeps audit entries in an AuditSpool at `path` until the store took them: entries a
    /// previous process left there are written first (each once: see
    /// IHistoryStore::containsAudit()). When another running process (a replica on the same
    /// host) holds `path`, "<path>.1" ... "<path>.15" are tried.
    /// While the store fails, the spool is retried every `retry` (the store reconnects first).
    /// Call once, right after construction; a Kind::Failed error when the spool cannot be read.
    Status enableAuditSpool(const QString &path,
                            qint64 maxBytes = AuditSpool::kDefaultMaxBytes,
                            std::chrono::milliseconds retry = std::chrono::seconds(5));
    /// Audit entries waiting in the spool (0 without one).
    [[nodiscard]] int spooledAuditCount() const;
    void recordProjectSamples(const QString &source, std::vector<ProjectSample> samples, const QDateTime &at);
    /// Empty `project` = all projects of `source`; `done` gets them by project, then time.
    void projectHistory(const QString &source,
                        const QString &project,
                        const QDateTime &from,
                        const QDateTime &to,
                        QObject *context,
                        std::function<void(Result<std::vector<ProjectSample>>)> done);
    void applyRetention(const QDateTime &cutoff);

    void volumeUsage(const QString &source,
                     const QString &volumeId,
                     const QDateTime &from,
                     const QDateTime &to,
                     QObject *context,
                     std::function<void(Result<std::vector<UsageSample>>)> done);
    /// IHistoryStore::auditLog(); a Kind::Unavailable error when the store never opened.
    void auditLog(int limit,
                  const QString &source,
                  QObject *context,
                  std::function<void(Result<std::vector<AuditEntry>>)> done);

    /// Perf samples of one poll (see IHistoryStore::recordVolumePerf; 1 h heartbeat).
    void recordVolumePerf(const QString &source, std::vector<VolumePerfSample> samples, const QDateTime &at);
    void volumePerfHistory(const QString &source,
                           const QString &volumeId,
                           const QDateTime &from,
                           const QDateTime &to,
                           QObject *context,
                           std::function<void(Result<std::vector<VolumePerfSample>>)> done);
    void volumePerfStats(const QDateTime &from,
                         const QDateTime &to,
                         QObject *context,
                         std::function<void(Result<std::vector<VolumePerfStats>>)> done);
    /// IHistoryStore::auditLogOfKind(); a Kind::Unavailable error when the store never opened.
    void auditLogOfKind(const QString &kind,
                        const QDateTime &since,
                        QObject *context,
                        std::function<void(Result<std::vector<AuditEntry>>)> done);

    // Schedules: each `done` gets the store's answer or its error (Kind::Unavailable when the
    // store never opened).
    /// Inserts or updates a schedule; `done` gets its id.
    void
    saveSchedule(const ServiceLevelSchedule &schedule, QObject *context, std::function<void(Result<qint64> id)> done);
    /// Fire-and-forget; a failure is logged (category strata.history).
    void removeSchedule(qint64 id);
    void schedules(QObject *context, std::function<void(Result<std::vector<ServiceLevelSchedule>>)> done);
    /// IHistoryStore::ping() on the history thread; `done(error)`, empty when the store answers
    /// (also reports the open error of a store that never opened).
    void ping(QObject *context, std::function<void(QString error)> done);
    /// Persists lastFired/lastOutcome; `done` (may be empty) runs after the write committed,
    /// so a caller can act only once the edge is on disk. Without `done` a failure is logged.
    void markScheduleFired(
        qint64 id, const QDateTime &edge, const QString &outcome, QObject *context, std::function<void(Status)> done);
    /// IHistoryStore::claimScheduleEdge(); `done(claimed)` runs after the write committed.
    void claimScheduleEdge(qint64 id, const QDateTime &edge, QObject *context, std::function<void(Result<bool>)> done);

    // Crash-safe action journal (see IHistoryStore). The writes block the calling thread until
    // they are on disk: an action's mutation must not leave before its journal row exists. Any
    // thread but the history thread; Kind::Unavailable when the store never opened.
    Status journalIntent(const JournalEntry &entry);
    Result<bool>
    journalProgress(const QString &actionId, const QString &phase, const QString &handle, const QDateTime &at);
    Result<bool>
    journalClaim(const QString &actionId, const QString &expectedOwner, const QString &owner, const QDateTime &at);
    /// Fire-and-forget, in order with the other writes; a failure is logged.
    void journalHeartbeat(const QStringList &actionIds, const QString &owner, const QDateTime &at);
    /// Closes the entry and appends its outcome audit entry atomically (fire-and-forget);
    /// `done(written)` (may be empty) runs on `context`'s thread: false when the outcome was
    /// already recorded (by another process) or the write failed. With an audit spool the
    /// outcome goes through it like every other audit entry (in order, exactly once, also
    /// while the store is down) and `written` says whether the spool kept it.
    void journalFinish(const AuditEntry &audit, QObject *context, std::function<void(bool written)> done);
    void openJournal(QObject *context, std::function<void(Result<std::vector<JournalEntry>>)> done);

    /// computeChargeback() on the history thread; `done` gets it on `context`'s thread (a
    /// Kind::Unavailable error when the store never opened).
    void chargeback(ChargebackInput input,
                    const ChargebackPeriod &period,
                    const RateCard &card,
                    const QDateTime &now,
                    QObject *context,
                    std::function<void(Result<Chargeback>)> done);

    // Replicas sharing the store (see IHistoryStore and ReplicaCoordinator). Each `done` runs
    // on `context`'s thread with the store's answer (Kind::Unavailable when it never opened).
    void syncLeases(const QString &replica,
                    const QStringList &sources,
                    qint64 ttlMs,
                    QObject *context,
                    std::function<void(Result<LeaseSync>)> done);
    /// Blocks until the leases are released (clean shutdown).
    Status releaseLeases(const QString &replica);
    void putSharedState(const QString &source,
                        const QString &owner,
                        QByteArray status,
                        QByteArray body,
                        QObject *context,
                        std::function<void(Result<qint64> revision)> done);
    void sharedStates(qint64 since,
                      QHash<QString, qint64> knownBodies,
                      QObject *context,
                      std::function<void(Result<SharedStates>)> done);
    /// IHistoryStore::listenForSharedStates(): `notified(source)` runs on `context`'s thread
    /// (never after `context` is gone); `listening(ok)` tells whether the store notifies at all.
    void listenForSharedStates(QObject *context,
                               std::function<void(const QString &source)> notified,
                               std::function<void(bool ok)> listening);

    // Shared settings (models/core/store/settingstore.h). `done` runs on `context`'s thread; a
    // store that never opened answers Kind::Unavailable.
    void sharedSettings(QObject *context, std::function<void(Result<std::vector<SharedSetting>>)> done);
    /// core::writeSharedSetting() on the history thread.
    void writeSharedSetting(SettingEdit edit, QObject *context, std::function<void(Result<SharedSetting>)> done);
    /// core::adoptConfigSetting() for each of `seeds`, waiting for the answer (start-up).
    Result<std::vector<AdoptedSetting>> adoptSettings(const std::vector<SettingSeed> &seeds,
                                                      const SettingWriter &writer);

    /// Blocks until every queued write has been applied (CLI exit, tests).
    void flush();

    // ---- Web console users and sessions (IHistoryStore's web methods) ---------------
    // Writes are queued in order with the other writes; a failure is logged (category
    // strata.history) and otherwise dropped. `done` callbacks run on `context`'s thread and get
    // a Kind::Unavailable error when the store never opened.
    void saveWebUser(const WebUserRecord &user, const QDateTime &at);
    void removeWebUser(const QString &name, const QDateTime &at);
    void removeWebSession(const QString &idHash, const QDateTime &at);
    void touchWebSessions(std::vector<WebSessionRecord> sessions);
    void pruneWebAuth(const QDateTime &now);
    /// `done(inserted)` after the row committed (false: the user changed meanwhile).
    void insertWebSession(const WebSessionRecord &session,
                          const QString &passwordHash,
                          QObject *context,
                          std::function<void(Result<bool>)> done);
    void webSession(const QString &idHash,
                    const QDateTime &now,
                    QObject *context,
                    std::function<void(Result<std::optional<WebSessionRecord>>)> done);
    void webAuthChanges(qint64 cursor,
                        const QDateTime &now,
                        QObject *context,
                        std::function<void(Result<WebAuthChanges>)> done);
    /// The same, waiting for the answer (a server's first load, before it listens).
    Result<WebAuthChanges> webAuthChangesNow(qint64 cursor, const QDateTime &now);
    // ---- end of web console users and sessions ------------------------------------------------

private:
    /// Runs `fn` on the history thread and waits for it; `failed` when the store never opened.
    template <class R> R callBlocking(std::function<R(IHistoryStore &)> fn, R failed);
    /// Runs `read` on the history thread and hands its result to `done` on `context`'s thread
    /// (not at all when `context` is gone by then); `failed`, queued, when the store never opened.
    template <class R>
    void ask(QObject *context, std::function<void(R)> done, std::function<R(IHistoryStore &)> read, R failed = {});
    /// ask() for a store call that answers a Result: notOpen() when the store never opened.
    template <class T>
    void
    askResult(QObject *context, std::function<void(Result<T>)> done, std::function<Result<T>(IHistoryStore &)> read);
    /// The Kind::Unavailable error of a store that never opened (naming why).
    [[nodiscard]] Error notOpen() const;
    /// Logs a failed fire-and-forget write (category strata.history).
    static void logFailure(const char *what, const Status &status);

    void post(std::function<void(IHistoryStore &)> fn);
    /// History thread: writes the spool's entries to the store in order; on a failure keeps
    /// the rest and tries again after m_spoolRetry.
    void drainAuditSpool();

    std::unique_ptr<AuditSpool> m_spool;
    std::chrono::milliseconds m_spoolRetry{5000};
    bool m_spoolRetryArmed = false; ///< history thread only

    QThread m_thread;
    QObject *m_worker = nullptr;
    std::unique_ptr<IHistoryStore> m_store;
    QString m_openError;
};

} // namespace strata::core
