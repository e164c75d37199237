#include "models/core/actions.h"

#include "models/core/historyservice.h"

#include <QCoreApplication>
#include <QThreadPool>
#include <QUuid>

namespace strata::core {

QString actionKindName(ActionKind kind)
{
    switch (kind) {
    case ActionKind::SnapshotCreate:
        return QStringLiteral("snapshot.create");
    case ActionKind::SnapshotDelete:
        return QStringLiteral("snapshot.delete");
    case ActionKind::SnapshotRestore:
        return QStringLiteral("snapshot.restore");
    case ActionKind::VolumeClone:
        return QStringLiteral("volume.clone");
    case ActionKind::JobSubmit:
        return QStringLiteral("job.submit");
    case ActionKind::JobDelete:
        return QStringLiteral("job.delete");
    case ActionKind::ProjectQuotaEdit:
        return QStringLiteral("project.quota");
    case ActionKind::ServiceLevelChange:
        return QStringLiteral("volume.service_level");
    case ActionKind::DatasetCommit:
        return QStringLiteral("dataset.commit");
    case ActionKind::CacheCommit:
        return QStringLiteral("cache.load");
    case ActionKind::CacheEvict:
        return QStringLiteral("cache.evict");
    }
    return {};
}

QString actionStateName(ActionState state)
{
    switch (state) {
    case ActionState::Running:
        return QStringLiteral("running");
    case ActionState::Succeeded:
        return QStringLiteral("succeeded");
    case ActionState::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

ActionManager::ActionManager(IClock &clock, QThreadPool &pool, HistoryService *history, QString user, QObject *parent)
    : QObject(parent)
    , m_clock(clock)
    , m_pool(pool)
    , m_history(history)
    , m_user(std::move(user))
    , m_alive(std::make_shared<bool>(true))
{}

ActionManager::~ActionManager()
{
    *m_alive = false;
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

QString ActionManager::submit(const ActionRequest &request, QString *error, const QString &user)
{
    for (const ActionRecord &r : std::as_const(m_records)) {
        if (r.state == ActionState::Running && r.request == request) {
            return r.id; // a double click must not create two snapshots
        }
    }
    const ActionPreview p = preview(request);
    if (!p.allowed()) {
        if (error) {
            *error = p.blockedReason;
        }
        return {};
    }
    ActionRecord record;
    record.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    record.request = request;
    record.preview = p;
    record.user = user.isEmpty() ? m_user : user;
    record.submitted = m_clock.now();
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

void ActionManager::run(ActionRecord &record)
{
    record.attempts++;
    audit(record, QStringLiteral("started"));
    IActionExecutor *executor = m_executors.value(record.request.source);
    auto work = executor->prepare(record.request);

    const QString id = record.id;
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
    m_pool.start([work = std::move(work), ctx, post, id] {
        const ActionResult result = work ? work(ctx) : ActionResult{false, false, QStringLiteral("nothing to run")};
        post([id, result](ActionManager &m) {
            m.finish(id, result);
        });
    });
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
    audit(record,
          result.ok ? (result.reconciled ? QStringLiteral("reconciled") : QStringLiteral("succeeded"))
                    : QStringLiteral("failed"));
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
    entry.message = outcome == QLatin1String("started")
                        ? (record.attempts > 1 ? tr("attempt %1").arg(record.attempts) : QString())
                        : record.message;
    if (m_history) {
        m_history->appendAudit(entry);
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
