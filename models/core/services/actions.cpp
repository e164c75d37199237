#include "models/core/services/actions.h"

#include "models/core/domain/convert.h"
#include "models/core/services/historyservice.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QSysInfo>
#include <QThreadPool>
#include <QTimer>
#include <QUuid>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#ifdef Q_OS_UNIX
#include <sys/types.h>
#include <unistd.h>
#endif

namespace strata::core {

namespace {

Q_LOGGING_CATEGORY(lcActionJournal, "strata.actions.journal", QtInfoMsg)

/// Logs a failed journal write of action `id` (any thread).
template <class T> void logJournalFailure(const QString &id, const Result<T> &written)
{
    if (!written) {
        qCWarning(lcActionJournal).noquote() << "action" << id << "journal:" << written.error().message;
    }
}

/// The owner of a journal entry whose heartbeat is older than this is taken to be gone.
/// Replicas on another host can only tell a dead owner by its silence: 4.5 missed heartbeats.
constexpr qint64 kJournalStaleSeconds = 45;
constexpr int kJournalHeartbeatMs = 10'000;

const QLatin1String kPhaseIntended("intended");
const QLatin1String kPhaseSent("sent");
const QLatin1String kPhaseAccepted("accepted");

/// Whether the process `pid` of this host still runs (true when it cannot be told).
bool journalOwnerAlive(qint64 pid)
{
#ifdef Q_OS_UNIX
    if (pid <= 0) {
        return false;
    }
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
#else
    Q_UNUSED(pid)
    return true; // the heartbeat decides
#endif
}

/// The action managers of this process. Several engines in one process (replicas in a test, a
/// server and its CLI) share one journal owner, host/pid; one must not take over an action
/// another of them is running.
struct LiveManagers
{
    std::mutex mutex;
    QList<const ActionManager *> managers;
};

LiveManagers &liveManagers()
{
    static LiveManagers live;
    return live;
}

} // namespace

void actionCrashPoint(const char *step)
{
    static const QByteArray wanted = qgetenv("STRATA_TEST_CRASH_AT");
    if (wanted.isEmpty() || wanted != step) {
        return;
    }
    // With STRATA_TEST_CRASH_ONCE naming a marker file, only the first process to create it dies:
    // replicas sharing a store all carry the hook, and the one that takes the action over passes
    // the same step again.
    if (const QString marker = qEnvironmentVariable("STRATA_TEST_CRASH_ONCE"); !marker.isEmpty()) {
        QFile once(marker);
        if (!once.open(QIODevice::WriteOnly | QIODevice::NewOnly)) {
            return;
        }
    }
    std::fprintf(stderr, "STRATA_TEST_CRASH_AT=%s: killing this process\n", step);
    std::fflush(stderr);
#ifdef SIGKILL
    std::raise(SIGKILL);
#endif
    std::_Exit(137);
}

ActionManager::ActionManager(IClock &clock, QThreadPool &pool, HistoryService *history, QString user, QObject *parent)
    : QObject(parent)
    , m_clock(clock)
    , m_pool(pool)
    , m_history(history)
    , m_user(std::move(user))
    , m_alive(std::make_shared<bool>(true))
    , m_owner(QSysInfo::machineHostName() + QLatin1Char('/') + QString::number(QCoreApplication::applicationPid()))
{
    if (m_history) {
        auto *timer = new QTimer(this);
        connect(timer, &QTimer::timeout, this, &ActionManager::heartbeat);
        timer->start(kJournalHeartbeatMs);
    }
    LiveManagers &live = liveManagers();
    std::lock_guard lock(live.mutex);
    live.managers.append(this);
}

ActionManager::~ActionManager()
{
    *m_alive = false;
    LiveManagers &live = liveManagers();
    std::lock_guard lock(live.mutex);
    live.managers.removeOne(this);
}

bool ActionManager::runsInThisProcess(const QString &actionId) const
{
    LiveManagers &live = liveManagers();
    std::lock_guard lock(live.mutex);
    // Known there, even as finished: its outcome may still be on its way to the journal.
    return std::any_of(live.managers.cbegin(), live.managers.cend(), [&actionId](const ActionManager *m) {
        return m->m_index.contains(actionId);
    });
}

void ActionManager::setExecutor(const QString &source, IActionExecutor *executor)
{
    m_executors.insert(source, executor);
}

void ActionManager::removeExecutor(const QString &source)
{
    m_executors.remove(source);
}

ActionPreview ActionManager::preview(const ActionRequest &request) const
{
    IActionExecutor *executor = m_executors.value(request.source);
    if (!executor) {
        ActionPreview p;
        p.title = actionKindName(request.kind);
        p.blockedReason = tr("Source %1 is not connected.").arg(request.source);
        return p;
    }
    return executor->preview(request);
}

Result<QString> ActionManager::submit(const ActionRequest &request, const QString &user)
{
    for (const ActionRecord &r : std::as_const(m_records)) {
        if (r.state == ActionState::Running && r.request == request) {
            return r.id; // a double click must not create two snapshots
        }
    }
    const ActionPreview p = preview(request);
    if (!p.allowed()) {
        return core::fail(Error::make(Error::Kind::Conflict, p.blockedReason));
    }
    ActionRecord record;
    record.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    record.request = request;
    record.preview = p;
    record.user = user.isEmpty() ? m_user : user;
    record.submitted = m_clock.now();
    record.idempotencyKey = QUuid::createUuid().toString(QUuid::WithoutBraces);
    m_index.insert(record.id, m_records.size());
    m_records.append(record);
    Q_EMIT actionAdded(record.id);
    run(m_records.last());
    return record.id;
}

bool ActionManager::retry(const QString &id)
{
    const auto it = m_index.constFind(id);
    if (it == m_index.cend()) {
        return false;
    }
    ActionRecord &record = m_records[*it];
    if (record.state != ActionState::Failed || !m_executors.contains(record.request.source)) {
        return false;
    }
    record.state = ActionState::Running;
    record.message.clear();
    record.finished = {};
    record.progress = {};
    Q_EMIT actionChanged(id);
    run(record);
    return true;
}

void ActionManager::run(ActionRecord &record, const JournalEntry *recovering)
{
    record.attempts++;
    const QString id = record.id;
    const bool journal = m_history && m_history->openError().isEmpty();
    if (!recovering) {
        if (journal) {
            // The intent is on disk before anything can reach the vendor: a process killed from
            // here on leaves a row the next start reconciles.
            JournalEntry entry;
            entry.actionId = record.id;
            entry.idempotencyKey = record.idempotencyKey;
            entry.source = record.request.source;
            entry.kind = actionKindName(record.request.kind);
            entry.request = actionRequestToJson(record.request);
            entry.user = record.user;
            entry.target = record.preview.target;
            entry.fromState = record.preview.fromState;
            entry.toState = record.preview.toState;
            entry.submitted = record.submitted.isValid() ? record.submitted.toUTC() : m_clock.now().toUTC();
            entry.phase = kPhaseIntended;
            entry.owner = m_owner;
            entry.heartbeat = m_clock.now().toUTC();
            if (const Status journaled = m_history->journalIntent(entry); !journaled) {
                audit(record, QStringLiteral("started"));
                finish(id,
                       actionFailed(tr("The action could not be recorded in the history store before sending, so "
                                       "it was not sent (%1).")
                                        .arg(journaled.error().message)));
                return;
            }
            m_journaled.insert(id);
            actionCrashPoint("intended");
        }
        audit(record, QStringLiteral("started"));
    }
    IActionExecutor *executor = m_executors.value(record.request.source);
    auto work = executor->prepare(record.request);

    std::weak_ptr<bool> alive = m_alive;
    QPointer<ActionManager> self(this);
    // Progress and the result hop to the owner thread through the application object, and are
    // dropped if the manager is gone by then.
    auto post = [alive, self](std::function<void(ActionManager &)> fn) {
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [alive, self, fn = std::move(fn)] {
                if (!alive.expired() && self) {
                    fn(*self);
                }
            },
            Qt::QueuedConnection);
    };
    ActionContext ctx;
    ctx.attempt = record.attempts;
    ctx.submitted = record.submitted;
    ctx.progress = [post, id](const ActionProgress &progress) {
        post([id, progress](ActionManager &m) {
            const auto it = m.m_index.constFind(id);
            if (it != m.m_index.cend() && m.m_records[*it].state == ActionState::Running) {
                m.m_records[*it].progress = progress;
                Q_EMIT m.actionChanged(id);
            }
        });
    };
    ctx.isCancelled = [alive] {
        return alive.expired();
    };
    ctx.idempotencyKey = record.idempotencyKey;
    if (recovering) {
        ctx.recovery = true;
        ctx.attempt = std::max(2, record.attempts + 1); // reconcile paths, never a first submit
        ctx.handle = recovering->handle;
        ctx.phase = recovering->phase;
    } else if (journal && m_journaled.contains(id)) {
        // The history service outlives the engine's pool (and with it every worker running this).
        HistoryService *history = m_history;
        // Same clock as the intent's heartbeat, so recovery's staleness check compares like with
        // like; IClock::now() is read from the worker here (the engine's clock outlives the pool).
        IClock *clock = &m_clock;
        ctx.onSending = [history, clock, id] {
            // A lost phase only makes a recovery reconcile from an earlier one.
            logJournalFailure(id, history->journalProgress(id, kPhaseSent, {}, clock->now().toUTC()));
            return true;
        };
        // One worker thread runs the action, so `last` needs no lock. A new handle replaces the
        // old one (ANF: the pool creation's operation, then the pool change's); ONTAP reports
        // the same job uuid on every poll, which is journaled once.
        auto last = std::make_shared<QString>();
        ctx.onAccepted = [history, clock, id, last](const QString &handle) {
            if (handle.isEmpty() || handle == *last) {
                return;
            }
            *last = handle;
            actionCrashPoint("sent");
            logJournalFailure(id, history->journalProgress(id, kPhaseAccepted, handle, clock->now().toUTC()));
            actionCrashPoint("handle");
        };
    }
    const bool crashable = !recovering;
    m_pool.start([work = std::move(work), ctx, post, id, crashable] {
        const ActionResult result = work ? work(ctx) : ActionResult{false, false, QStringLiteral("nothing to run")};
        if (crashable) {
            actionCrashPoint("finished");
        }
        post([id, result](ActionManager &m) {
            m.finish(id, result);
        });
    });
}

void ActionManager::setRecoveryInterval(std::chrono::milliseconds interval)
{
    m_recoveryInterval = interval;
    if (m_recoveryTimer) {
        m_recoveryTimer->start(m_recoveryInterval);
    }
}

void ActionManager::recoverInterrupted()
{
    if (!m_history || !m_history->openError().isEmpty()) {
        return;
    }
    if (!m_recoveryTimer) {
        // Real time: other processes' silence is what is being watched for.
        m_recoveryTimer = new QTimer(this);
        connect(m_recoveryTimer, &QTimer::timeout, this, [this] {
            if (m_journalReads == 0) {
                recoverInterrupted();
            }
        });
        m_recoveryTimer->start(m_recoveryInterval);
    }
    ++m_journalReads;
    m_history->openJournal(this, [this](const Result<std::vector<JournalEntry>> &entries) {
        if (!entries) {
            // The recovery timer asks again; nothing is taken over meanwhile.
            qCWarning(lcActionJournal).noquote() << "cannot read the action journal:" << entries.error().message;
        }
        for (const JournalEntry &entry : entries ? *entries : std::vector<JournalEntry>{}) {
            recover(entry);
        }
        --m_journalReads;
        Q_EMIT recoveryChecked();
    });
}

bool ActionManager::recoveryIdle() const
{
    if (m_journalReads > 0) {
        return false;
    }
    for (const ActionRecord &r : m_records) {
        if (r.recovered && r.state == ActionState::Running) {
            return false;
        }
    }
    return true;
}

void ActionManager::recover(const JournalEntry &entry)
{
    if (m_index.contains(entry.actionId) || runsInThisProcess(entry.actionId)) {
        return; // ours, already taken over, or running in another engine of this process
    }
    const QDateTime now = m_clock.now().toUTC();
    const qsizetype slash = entry.owner.lastIndexOf(QLatin1Char('/'));
    const QString host = entry.owner.left(slash);
    bool pidOk = false;
    const qint64 pid = slash >= 0 ? entry.owner.mid(slash + 1).toLongLong(&pidOk) : 0;
    const bool stale = !entry.heartbeat.isValid() || entry.heartbeat.secsTo(now) > kJournalStaleSeconds;
    const bool sameHost = slash >= 0 && host == QSysInfo::machineHostName();
    // A pid equal to ours on this host is a reused pid: that owner is gone.
    const bool ownerGone =
        stale || (sameHost && pidOk && (pid == QCoreApplication::applicationPid() || !journalOwnerAlive(pid)));
    if (!ownerGone) {
        return; // another Strata process is running it now
    }
    IActionExecutor *executor = m_executors.value(entry.source);
    if (!executor) {
        return; // its source is not connected here (yet): a later start takes it over
    }
    const Result<bool> claimed = m_history->journalClaim(entry.actionId, entry.owner, m_owner, now);
    logJournalFailure(entry.actionId, claimed);
    if (!claimed || !*claimed) {
        return; // another process took it over first (or the store failed: a later check retries)
    }
    qCInfo(lcActionJournal).noquote() << "taking over action" << entry.actionId << entry.kind << entry.target
                                      << "left at" << entry.phase << "by" << entry.owner;
    ActionRecord record;
    record.id = entry.actionId;
    const auto request = actionRequestFromJson(entry.request);
    if (request) {
        record.request = *request;
    } else {
        record.request.source = entry.source;
    }
    record.preview.title = entry.kind;
    record.preview.target = entry.target;
    record.preview.fromState = entry.fromState;
    record.preview.toState = entry.toState;
    record.user = entry.user;
    record.submitted = entry.submitted;
    record.idempotencyKey = entry.idempotencyKey;
    record.recovered = true;
    record.progress = {-1, tr("Strata stopped while this ran; checking what %1 did").arg(entry.source)};
    m_index.insert(record.id, m_records.size());
    m_records.append(record);
    m_journaled.insert(record.id);
    Q_EMIT actionAdded(record.id);
    ActionRecord &added = m_records.last();
    if (!request) {
        finish(added.id,
               actionFailed(tr("Strata stopped while this action ran and its journal entry cannot be read; "
                               "it was not repeated. Check %1 on %2.")
                                .arg(entry.target, entry.source)));
        return;
    }
    if (!executor->recovers(added.request.kind)) {
        finish(added.id,
               actionFailed(tr("Strata stopped while this action ran (%1); this kind of action cannot be checked "
                               "automatically, so it was not repeated. Check %2 on %3.")
                                .arg(entry.phase, entry.target, entry.source)));
        return;
    }
    run(added, &entry);
}

void ActionManager::heartbeat()
{
    QStringList running;
    for (const ActionRecord &r : std::as_const(m_records)) {
        if (r.state == ActionState::Running && m_journaled.contains(r.id)) {
            running << r.id;
        }
    }
    if (!running.isEmpty() && m_history) {
        m_history->journalHeartbeat(running, m_owner, m_clock.now().toUTC());
    }
}

void ActionManager::finish(const QString &id, const ActionResult &result)
{
    const auto it = m_index.constFind(id);
    if (it == m_index.cend()) {
        return;
    }
    ActionRecord &record = m_records[*it];
    record.state = result.ok ? ActionState::Succeeded : ActionState::Failed;
    record.message = result.message;
    record.reconciled = result.reconciled;
    record.finished = m_clock.now();
    record.progress = {result.ok ? 100 : record.progress.percent, record.progress.text};
    if (record.recovered && !record.message.startsWith(tr("Recovered after a restart: "))) {
        record.message = tr("Recovered after a restart: %1").arg(record.message);
    }
    audit(record,
          result.ok ? (result.reconciled ? QStringLiteral("reconciled") : QStringLiteral("succeeded"))
                    : QStringLiteral("failed"));
    m_journaled.remove(id);
    if (result.ok) {
        if (IActionExecutor *executor = m_executors.value(record.request.source)) {
            executor->afterSuccess(record.request);
        }
    }
    Q_EMIT actionChanged(id);
    Q_EMIT actionFinished(id, result.ok);
}

void ActionManager::audit(const ActionRecord &record, const QString &outcome)
{
    AuditEntry entry;
    entry.time = m_clock.now();
    entry.user = record.user.isEmpty() ? m_user : record.user;
    entry.actionId = record.id;
    entry.source = record.request.source;
    entry.kind = actionKindName(record.request.kind);
    entry.target = record.preview.target;
    entry.fromState = record.preview.fromState;
    entry.toState = record.preview.toState;
    entry.outcome = outcome;
    entry.replica = m_owner;
    entry.message = outcome == QLatin1String("started")
                        ? (record.attempts > 1 ? tr("attempt %1").arg(record.attempts) : QString())
                        : record.message;
    if (m_history) {
        if (outcome != QLatin1String("started") && m_journaled.contains(record.id)) {
            // The outcome and the journal's close are one transaction: exactly one outcome entry.
            m_history->journalFinish(entry, this, {});
        } else {
            m_history->appendAudit(entry);
        }
    }
    Q_EMIT audited(entry);
}

const ActionRecord *ActionManager::find(const QString &id) const
{
    const auto it = m_index.constFind(id);
    return it == m_index.cend() ? nullptr : &m_records[*it];
}

QList<ActionRecord> ActionManager::records() const
{
    return m_records;
}

int ActionManager::runningCount() const
{
    int n = 0;
    for (const ActionRecord &r : m_records) {
        n += r.state == ActionState::Running ? 1 : 0;
    }
    return n;
}

} // namespace strata::core
