#pragma once

#include "models/core/domain/action.h"
#include "models/core/domain/clock.h"
#include "models/core/domain/error.h"
#include "models/core/store/historystore.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QStringList>

#include <chrono>
#include <functional>
#include <optional>

class QThreadPool;
class QTimer;

namespace strata::core {

class HistoryService;

/// A deterministic crash for the crash-recovery tests. When the environment variable
/// STRATA_TEST_CRASH_AT names `step`, the process kills itself with SIGKILL (no cleanup, no
/// flush: exactly what `kill -9` does). Inert without the variable. Steps of an action:
/// "intended" (journaled, nothing sent), "sent" (the vendor accepted; its handle is not yet
/// journaled), "handle" (the handle is journaled, the vendor's work runs), "finished" (the
/// executor returned; the outcome is not yet written).
void actionCrashPoint(const char *step);

/// Implemented per source kind (OntapSource). preview() runs on the owner thread without I/O;
/// execute() runs on a worker thread and must be idempotent across attempts: with
/// attempt > 1, or after a lost response, it checks whether the effect already exists before
/// submitting, so a retried action is never applied twice.
class IActionExecutor
{
public:
    virtual ~IActionExecutor() = default;
    [[nodiscard]] virtual ActionPreview preview(const ActionRequest &request) const = 0;
    /// Returns the work to run on a worker thread (it must not touch the executor's QObject
    /// state; capture what it needs).
    [[nodiscard]] virtual std::function<ActionResult(const ActionContext &)> prepare(const ActionRequest &request) = 0;
    /// Owner thread, after success: refresh what changed.
    virtual void afterSuccess(const ActionRequest &request) { Q_UNUSED(request) }
    /// Whether prepare() honours ActionContext::recovery for `kind` (follows the journaled
    /// handle or inspects the vendor, and never sends). Actions of other kinds interrupted by a
    /// stop are closed as failed ("not checked; not repeated") on the next start.
    [[nodiscard]] virtual bool recovers(ActionKind kind) const
    {
        Q_UNUSED(kind)
        return false;
    }
};

/// Runs actions (preview -> confirm -> run with progress -> result), keeps them for the
/// Activity panel, writes the audit log, and refuses to run the same request twice at once.
class ActionManager final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ActionManager)

public:
    /// `history` may be null (no audit persistence, e.g. some tests). `user` is recorded in the
    /// audit log.
    ActionManager(IClock &clock, QThreadPool &pool, HistoryService *history, QString user, QObject *parent = nullptr);
    ~ActionManager() override;

    void setExecutor(const QString &source, IActionExecutor *executor);
    void removeExecutor(const QString &source);

    [[nodiscard]] ActionPreview preview(const ActionRequest &request) const;
    /// Runs a confirmed action. Returns its id, or the id of an identical action still running
    /// (double submit). A Kind::Conflict error with the preview's blockedReason when it is
    /// blocked. `user` (e.g. the web console's logged-in user) is recorded in the ActionRecord
    /// and the audit log instead of the manager's user when non-empty.
    Result<QString> submit(const ActionRequest &request, const QString &user = {});
    /// Runs a failed action again (attempt + 1; the executor reconciles first). false when the
    /// action is unknown or not failed.
    bool retry(const QString &id);

    /// Takes over the actions a stopped Strata process left open in the history store's
    /// journal (its owner is gone: same host and its pid is dead, or no heartbeat for 45 s,
    /// owners refreshing theirs every 10 s) whose source has an executor now: follows the
    /// journaled job or operation to its end, or records what the vendor shows. Never sends a
    /// mutation again; each gets exactly one outcome audit entry, and appears in records() with
    /// `recovered` set. Safe to call repeatedly and from several processes (an entry is claimed
    /// by one). After the first call the journal is checked again every recovery interval, so a
    /// replica sharing a PostgreSQL store takes over what a killed one left within about a
    /// minute. No-op without a history store.
    void recoverInterrupted();
    /// How often the journal is checked again after the first recoverInterrupted() (default
    /// 15 s; tests shorten it).
    void setRecoveryInterval(std::chrono::milliseconds interval);
    /// False while recoverInterrupted() is still reading the journal or a recovered action runs.
    [[nodiscard]] bool recoveryIdle() const;

    [[nodiscard]] const ActionRecord *find(const QString &id) const;
    /// Oldest first.
    [[nodiscard]] QList<ActionRecord> records() const;
    [[nodiscard]] int runningCount() const;

    /// This process's name in the action journal and among replicas: "<host>/<pid>".
    [[nodiscard]] QString ownerId() const { return m_owner; }

Q_SIGNALS:
    void actionAdded(const QString &id);
    void actionChanged(const QString &id);
    void actionFinished(const QString &id, bool ok);
    /// An audit record was written (or would be, without a history store): an action started,
    /// succeeded, was reconciled or failed. The Triage timeline follows this.
    void audited(const strata::core::AuditEntry &entry);
    /// recoverInterrupted() read the journal and took over what it could.
    void recoveryChecked();

private:
    /// `recovering`: the journal entry being taken over (never sends), else a normal attempt.
    void run(ActionRecord &record, const JournalEntry *recovering = nullptr);
    void finish(const QString &id, const ActionResult &result);
    void audit(const ActionRecord &record, const QString &outcome);
    void recover(const JournalEntry &entry);
    /// Whether an action manager of this process (this one or another engine's) has run or runs
    /// `actionId`.
    [[nodiscard]] bool runsInThisProcess(const QString &actionId) const;
    void heartbeat();

    IClock &m_clock;
    QThreadPool &m_pool;
    HistoryService *m_history;
    QString m_user;
    QHash<QString, IActionExecutor *> m_executors;
    QList<ActionRecord> m_records;
    QHash<QString, qsizetype> m_index;
    std::shared_ptr<bool> m_alive;
    QString m_owner; ///< "<host>/<pid>", the journal's owner of this process's actions
    QSet<QString> m_journaled;
    int m_journalReads = 0;
    QTimer *m_recoveryTimer = nullptr; ///< started by the first recoverInterrupted()
    std::chrono::milliseconds m_recoveryInterval{15'000};
};

} // namespace strata::core
