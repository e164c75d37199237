#pragma once

#include "models/core/domain/schedule.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QTimer>

#include <functional>

namespace strata::core {

class ActionManager;
class Estate;
class HistoryService;
class IClock;

/// Runs planned service-level changes: keeps the schedules (persisted in the history store, so
/// they survive restarts), and at each edge submits ActionRequest{ServiceLevelChange, source,
/// volumeId, targetLevel, scheduleId} through the ActionManager (preview rules and the audit log
/// apply as for a user's change). Owner (GUI) thread.
///
/// Rules:
/// - an edge is written to the store as fired (lastFired) *before* its action is submitted, so a
///   crash or restart never submits it twice; the action's result then replaces lastOutcome
///   ("succeeded", "failed: <reason>");
/// - only the newest due edge of a schedule runs; older ones it supersedes are skipped;
/// - a window whose start passed while Strata was not running and whose end is still ahead is
///   applied at start-up (the volume should be at the window's level now); a window end missed
///   while down is applied too (its revert level is the volume's steady state);
/// - a one-off ("at") edge, or a recurring start edge, more than kGraceSeconds late is not run:
///   its outcome is "missed";
/// - disabled schedules never fire.
/// Without a history store schedules live in memory only (ids assigned here).
class ScheduleService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScheduleService)

public:
    /// An edge this late (seconds) or less still runs; later it is "missed".
    static constexpr qint64 kGraceSeconds = 15 * 60;
    /// Longest timer wait, so a wall-clock jump is noticed within this many seconds.
    static constexpr qint64 kMaxWaitSeconds = 3600;
    /// How often the store is read again for schedules another process added or removed
    /// (`strata set service-level --at/--window` from the CLI).
    static constexpr qint64 kReloadSeconds = 60;

    /// `history` may be null. Call start() once sources are configured.
    ScheduleService(
        ActionManager &actions, Estate &estate, IClock &clock, HistoryService *history, QObject *parent = nullptr);
    ~ScheduleService() override;

    /// Loads the schedules from the store, handles missed edges, arms the timer. Emits loaded().
    void start();
    [[nodiscard]] bool isLoaded() const { return m_loaded; }

    /// Validates and stores a new schedule (id assigned), then `done(id, "")` on `context`'s
    /// thread, or `done(0, error)`: unknown volume (when the estate knows the source), missing
    /// level, an invalid start, a window whose end is not after its start, or a one-off start
    /// in the past.
    void add(ServiceLevelSchedule schedule, QObject *context, std::function<void(qint64 id, QString error)> done);
    /// Deletes a schedule (pending edges are dropped).
    void remove(qint64 id);
    /// Enables or disables a schedule.
    void setEnabled(qint64 id, bool enabled);

    /// Re-reads the store and merges schedules another process added or removed (the CLI's
    /// `set service-level --at/--window`), then runs what is due. Also runs every
    /// kReloadSeconds of real time once loaded.
    void reload();

    /// By id.
    [[nodiscard]] QList<ServiceLevelSchedule> schedules() const;
    [[nodiscard]] std::optional<ServiceLevelSchedule> schedule(qint64 id) const;
    /// The next `limit` edges of every enabled schedule, soonest first.
    [[nodiscard]] QList<UpcomingChange> upcoming(int limit) const;

Q_SIGNALS:
    /// The schedules or their outcomes changed.
    void changed();
    /// start() finished loading.
    void loaded();
    /// An edge was handled: submitted (`actionId` non-empty), refused or missed.
    void edgeHandled(qint64 scheduleId, const QDateTime &edge, const QString &actionId, const QString &outcome);

private:
    void process();
    void arm();
    void fire(qint64 id, const UpcomingChange &edge);
    void submitEdge(qint64 id, const UpcomingChange &edge);
    void setOutcome(qint64 id, const QDateTime &edge, const QString &outcome);
    void onActionFinished(const QString &actionId, bool ok);

    ActionManager &m_actions;
    Estate &m_estate;
    IClock &m_clock;
    HistoryService *m_history;
    QList<ServiceLevelSchedule> m_schedules;
    /// Action id -> (schedule id, edge time) for outcomes.
    QHash<QString, std::pair<qint64, QDateTime>> m_pending;
    quint64 m_timer = 0;
    qint64 m_nextLocalId = 1;
    QTimer *m_reloadTimer = nullptr;
    bool m_loaded = false;
    bool m_started = false;
};

} // namespace strata::core
