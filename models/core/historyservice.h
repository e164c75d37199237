#pragma once

#include "models/core/historystore.h"

#include <QObject>
#include <QThread>

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
    void appendAudit(const AuditEntry &entry);
    void recordProjectSamples(const QString &source, std::vector<ProjectSample> samples, const QDateTime &at);
    /// Empty `project` = all projects of `source`; `done` gets them by project, then time.
    void projectHistory(const QString &source,
                        const QString &project,
                        const QDateTime &from,
                        const QDateTime &to,
                        QObject *context,
                        std::function<void(std::vector<ProjectSample>)> done);
    void applyRetention(const QDateTime &cutoff);

    void volumeUsage(const QString &source,
                     const QString &volumeId,
                     const QDateTime &from,
                     const QDateTime &to,
                     QObject *context,
                     std::function<void(std::vector<UsageSample>)> done);
    void
    auditLog(int limit, const QString &source, QObject *context, std::function<void(std::vector<AuditEntry>)> done);

    /// Perf samples of one poll (see IHistoryStore::recordVolumePerf; 1 h heartbeat).
    void recordVolumePerf(const QString &source, std::vector<VolumePerfSample> samples, const QDateTime &at);
    void volumePerfHistory(const QString &source,
                           const QString &volumeId,
                           const QDateTime &from,
                           const QDateTime &to,
                           QObject *context,
                           std::function<void(std::vector<VolumePerfSample>)> done);
    void volumePerfStats(const QDateTime &from,
                         const QDateTime &to,
                         QObject *context,
                         std::function<void(std::vector<VolumePerfStats>)> done);
    void auditLogOfKind(const QString &kind,
                        const QDateTime &since,
                        QObject *context,
                        std::function<void(std::vector<AuditEntry>)> done);

    /// Inserts or updates a schedule; `done(id)` gets its id, -1 on failure (also when the store
    /// never opened).
    void saveSchedule(const ServiceLevelSchedule &schedule, QObject *context, std::function<void(qint64 id)> done);
    void removeSchedule(qint64 id);
    void schedules(QObject *context, std::function<void(std::vector<ServiceLevelSchedule>)> done);
    /// Persists lastFired/lastOutcome; `done(ok)` (may be empty) runs after the write committed,
    /// so a caller can act only once the edge is on disk.
    void markScheduleFired(
        qint64 id, const QDateTime &edge, const QString &outcome, QObject *context, std::function<void(bool ok)> done);

    /// Blocks until every queued write has been applied (CLI exit, tests).
    void flush();

private:
    void post(std::function<void(IHistoryStore &)> fn);

    QThread m_thread;
    QObject *m_worker = nullptr;
    std::unique_ptr<IHistoryStore> m_store;
    QString m_openError;
};

} // namespace strata::core
