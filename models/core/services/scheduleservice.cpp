#include "models/core/services/scheduleservice.h"

#include "models/core/domain/clock.h"
#include "models/core/domain/estate.h"
#include "models/core/services/actions.h"
#include "models/core/services/historyservice.h"

#include <QLoggingCategory>
#include <QPointer>

#include <algorithm>
#include <chrono>

namespace strata::core {

namespace {

Q_LOGGING_CATEGORY(lcSchedules, "strata.schedules", QtInfoMsg)

// An edge whose volume the estate does not know (yet: sources still polling) is retried this
// often instead of being judged.
constexpr qint64 kRetryUnknownSeconds = 60;

// Edges further back than this are superseded by newer ones anyway; looking back a little more
// than a week covers every recurrence.
constexpr qint64 kLookBackDays = 8;

QDateTime edgesAfter(const ServiceLevelSchedule &s)
{
    return s.lastFired.isValid() ? s.lastFired : s.start.addMSecs(-1);
}

} // namespace

ScheduleService::ScheduleService(
    ActionManager &actions, Estate &estate, IClock &clock, HistoryService *history, QObject *parent)
    : QObject(parent)
    , m_actions(actions)
    , m_estate(estate)
    , m_clock(clock)
    , m_history(history)
{
    connect(&m_actions, &ActionManager::actionFinished, this, &ScheduleService::onActionFinished);
}

ScheduleService::~ScheduleService()
{
    if (m_timer) {
        m_clock.cancel(m_timer);
    }
}

void ScheduleService::start()
{
    if (m_started) {
        return;
    }
    m_started = true;
    const auto ready = [this](const Result<std::vector<ServiceLevelSchedule>> &read) {
        if (!read) {
            // Nothing stored is known yet: the reload timer reads the store again, and until
            // then no stored edge fires (never one twice).
            qCWarning(lcSchedules).noquote() << "cannot read the schedules:" << read.error().message;
        }
        const std::vector<ServiceLevelSchedule> stored = read ? *read : std::vector<ServiceLevelSchedule>{};
        QList<ServiceLevelSchedule> merged(stored.begin(), stored.end());
        // Schedules added while the store was being read are already part of the list.
        for (const ServiceLevelSchedule &local : std::as_const(m_schedules)) {
            const bool known = std::any_of(merged.cbegin(), merged.cend(), [&](const ServiceLevelSchedule &s) {
                return s.id == local.id;
            });
            if (!known) {
                merged.append(local);
            }
        }
        m_schedules = merged;
        m_loaded = true;
        if (m_history && !m_reloadTimer) {
            // Real time, not the IClock: this only notices other processes' writes.
            m_reloadTimer = new QTimer(this);
            connect(m_reloadTimer, &QTimer::timeout, this, &ScheduleService::reload);
            m_reloadTimer->start(std::chrono::seconds(kReloadSeconds));
        }
        Q_EMIT loaded();
        Q_EMIT changed();
        process();
    };
    if (!m_history) {
        QMetaObject::invokeMethod(
            this,
            [ready] {
                ready(std::vector<ServiceLevelSchedule>{});
            },
            Qt::QueuedConnection);
        return;
    }
    m_history->schedules(this, ready);
}

void ScheduleService::add(ServiceLevelSchedule schedule,
                          QObject *context,
                          std::function<void(qint64 id, QString error)> done)
{
    QPointer<QObject> ctx(context);
    const auto answer = [ctx, done](qint64 id, const QString &error) {
        if (ctx && done) {
            done(id, error);
        }
    };
    const QDateTime now = m_clock.now();
    QString error;
    const bool sourceKnown =
        !m_estate.volumes().scopes().isEmpty() && m_estate.volumes().scope(schedule.source) != nullptr;
    if (schedule.source.isEmpty() || schedule.volumeId.isEmpty()) {
        error = tr("A schedule needs a source and a volume.");
    } else if (sourceKnown && !m_estate.volume(schedule.source, schedule.volumeId)) {
        error = tr("Volume %1 is not known to %2.")
                    .arg(schedule.volumeName.isEmpty() ? schedule.volumeId : schedule.volumeName, schedule.source);
    } else if (!schedule.start.isValid()) {
        error = tr("The schedule has no start time.");
    } else if (schedule.isWindow() && schedule.end <= schedule.start) {
        error = tr("The window must end after it starts.");
    } else if (schedule.isWindow() && schedule.revertLevel.isNull()) {
        error = tr("A window needs the level to return to at its end.");
    } else if (schedule.recurrence == Recurrence::Once && !schedule.isWindow() && schedule.start <= now) {
        error = tr("The time %1 UTC has already passed.")
                    .arg(schedule.start.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")));
    }
    if (!error.isEmpty()) {
        QMetaObject::invokeMethod(
            this,
            [answer, error] {
                answer(0, error);
            },
            Qt::QueuedConnection);
        return;
    }
    if (schedule.volumeName.isEmpty()) {
        if (const Ptr<Volume> v = m_estate.volume(schedule.source, schedule.volumeId)) {
            schedule.volumeName = v->name;
        }
    }
    schedule.id = 0;
    schedule.start = schedule.start.toUTC();
    schedule.end = schedule.end.isValid() ? schedule.end.toUTC() : QDateTime();
    if (!schedule.created.isValid()) {
        schedule.created = now;
    }
    schedule.lastFired = {};
    schedule.lastOutcome.clear();
    if (schedule.recurrence != Recurrence::Once && !schedule.isWindow() && schedule.start <= now) {
        // A recurring time that already passed today is not owed: start with the next one.
        const QList<UpcomingChange> due = nextEdges(schedule, schedule.start.addMSecs(-1), 1);
        QDateTime latest;
        for (const UpcomingChange &e : nextEdges(schedule, now.addDays(-(kLookBackDays)), 64)) {
            if (e.time <= now) {
                latest = e.time;
            }
        }
        schedule.lastFired = latest.isValid() ? latest : (due.isEmpty() ? QDateTime() : due.first().time);
    }

    const auto stored = [this, schedule, answer](const Result<qint64> &saved) {
        if (!saved) {
            answer(0, tr("The schedule could not be saved in the history store: %1").arg(saved.error().message));
            return;
        }
        const qint64 id = *saved;
        ServiceLevelSchedule added = schedule;
        added.id = id;
        const bool present = std::any_of(m_schedules.cbegin(), m_schedules.cend(), [id](const auto &s) {
            return s.id == id;
        });
        if (!present) {
            m_schedules.append(added);
        }
        Q_EMIT changed();
        if (m_loaded) {
            process();
        }
        answer(id, QString());
    };
    if (!m_history) {
        const qint64 id = m_nextLocalId++;
        QMetaObject::invokeMethod(
            this,
            [stored, id] {
                stored(id);
            },
            Qt::QueuedConnection);
        return;
    }
    m_history->saveSchedule(schedule, this, stored);
}

void ScheduleService::remove(qint64 id)
{
    const qsizetype removed = m_schedules.removeIf([id](const ServiceLevelSchedule &s) {
        return s.id == id;
    });
    if (m_history) {
        m_history->removeSchedule(id);
    }
    if (removed > 0) {
        Q_EMIT changed();
        arm();
    }
}

void ScheduleService::setEnabled(qint64 id, bool enabled)
{
    for (ServiceLevelSchedule &s : m_schedules) {
        if (s.id != id || s.enabled == enabled) {
            continue;
        }
        s.enabled = enabled;
        if (enabled) {
            // Edges that passed while disabled are not owed: start counting from now.
            const QDateTime now = m_clock.now();
            if (!s.lastFired.isValid() || s.lastFired < now) {
                const QList<UpcomingChange> next = nextEdges(s, edgesAfter(s), 1);
                if (!next.isEmpty() && next.first().time <= now) {
                    s.lastFired = now;
                }
            }
        }
        if (m_history) {
            m_history->saveSchedule(s, this, [id](const Result<qint64> &saved) {
                if (!saved) {
                    qCWarning(lcSchedules).noquote() << "cannot save schedule" << id << saved.error().message;
                }
            });
        }
        Q_EMIT changed();
        process();
        return;
    }
}

QList<ServiceLevelSchedule> ScheduleService::schedules() const
{
    QList<ServiceLevelSchedule> out = m_schedules;
    std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) {
        return a.id < b.id;
    });
    return out;
}

std::optional<ServiceLevelSchedule> ScheduleService::schedule(qint64 id) const
{
    for (const ServiceLevelSchedule &s : m_schedules) {
        if (s.id == id) {
            return s;
        }
    }
    return std::nullopt;
}

QList<UpcomingChange> ScheduleService::upcoming(int limit) const
{
    QList<UpcomingChange> out;
    const QDateTime now = m_clock.now();
    for (const ServiceLevelSchedule &s : m_schedules) {
        if (s.enabled) {
            const QDateTime after = std::max(edgesAfter(s), now);
            out.append(nextEdges(s, after, limit));
        }
    }
    std::sort(out.begin(), out.end(), [](const UpcomingChange &a, const UpcomingChange &b) {
        return std::tie(a.time, a.scheduleId) < std::tie(b.time, b.scheduleId);
    });
    if (out.size() > limit) {
        out.resize(limit);
    }
    return out;
}

void ScheduleService::process()
{
    const QDateTime now = m_clock.now();
    for (const ServiceLevelSchedule &s : std::as_const(m_schedules)) {
        if (!s.enabled) {
            continue;
        }
        const qint64 windowDays = s.isWindow() ? s.start.daysTo(s.end) + 1 : 0;
        const QDateTime lookBack = now.addDays(-(kLookBackDays + windowDays));
        const QDateTime after = std::max(edgesAfter(s), lookBack);
        std::optional<UpcomingChange> latest;
        for (const UpcomingChange &e : nextEdges(s, after, 64)) {
            if (e.time > now) {
                break;
            }
            latest = e;
        }
        if (!latest) {
            continue;
        }
        if (!m_estate.volume(s.source, s.volumeId)) {
            continue; // arm() retries soon: the source may not have polled yet
        }
        const qint64 late = latest->time.secsTo(now);
        // Window edges are states to be in (the window's level while it lasts, the revert level
        // after it); a one-off or recurring "at" is a moment, pointless long after.
        const bool run = latest->revert || s.isWindow() || late <= kGraceSeconds;
        if (run) {
            fire(s.id, *latest);
        } else {
            setOutcome(s.id, latest->time, QStringLiteral("missed"));
            Q_EMIT edgeHandled(s.id, latest->time, QString(), QStringLiteral("missed"));
        }
    }
    arm();
}

void ScheduleService::reload()
{
    if (!m_history || !m_loaded) {
        return;
    }
    m_history->schedules(this, [this](Result<std::vector<ServiceLevelSchedule>> read) {
        if (!read) {
            // Keep what is shown and armed: a failed read is not "every schedule was removed".
            qCWarning(lcSchedules).noquote() << "cannot read the schedules:" << read.error().message;
            return;
        }
        std::vector<ServiceLevelSchedule> &stored = *read;
        // True while this process's own action for that edge runs: its outcome is ours to write.
        const auto runsEdge = [this](qint64 id, const QDateTime &edge) {
            return std::any_of(m_pending.cbegin(), m_pending.cend(), [&](const std::pair<qint64, QDateTime> &p) {
                return p.first == id && p.second == edge;
            });
        };
        bool changedAny = false;
        QList<ServiceLevelSchedule> merged;
        merged.reserve(qsizetype(stored.size()));
        for (ServiceLevelSchedule &s : stored) {
            const auto local =
                std::find_if(m_schedules.cbegin(), m_schedules.cend(), [&](const ServiceLevelSchedule &l) {
                    return l.id == s.id;
                });
            if (local == m_schedules.cend()) {
                changedAny = true; // added by another process (the CLI)
                merged.append(std::move(s));
            } else if (s.lastFired.isValid()
                       && (!local->lastFired.isValid() || s.lastFired > local->lastFired
                           || (s.lastFired == local->lastFired && s.lastOutcome != local->lastOutcome
                               && !runsEdge(s.id, s.lastFired)))) {
                // Another process sharing the store fired a newer edge, or recorded the outcome
                // of one it claimed.
                changedAny = true;
                ServiceLevelSchedule updated = *local;
                updated.lastFired = s.lastFired;
                updated.lastOutcome = s.lastOutcome;
                merged.append(std::move(updated));
            } else {
                // This process writes before it submits: otherwise its copy is the newer one.
                merged.append(*local);
            }
        }
        changedAny = changedAny || merged.size() != m_schedules.size();
        m_schedules = std::move(merged);
        if (changedAny) {
            Q_EMIT changed();
        }
        process();
    });
}

void ScheduleService::arm()
{
    if (m_timer) {
        m_clock.cancel(m_timer);
        m_timer = 0;
    }
    if (!m_loaded) {
        return;
    }
    const QDateTime now = m_clock.now();
    qint64 waitMs = kMaxWaitSeconds * 1000;
    for (const ServiceLevelSchedule &s : std::as_const(m_schedules)) {
        if (!s.enabled) {
            continue;
        }
        const QList<UpcomingChange> next = nextEdges(s, edgesAfter(s), 1);
        if (next.isEmpty()) {
            continue;
        }
        const qint64 ms = now.msecsTo(next.first().time);
        // Due but not fired: its volume is not known yet.
        waitMs = std::min(waitMs, ms <= 0 ? kRetryUnknownSeconds * 1000 : ms);
    }
    m_timer = m_clock.callAfter(std::chrono::milliseconds(waitMs), this, [this] {
        m_timer = 0;
        process();
    });
}

void ScheduleService::fire(qint64 id, const UpcomingChange &edge)
{
    for (ServiceLevelSchedule &s : m_schedules) {
        if (s.id == id) {
            s.lastFired = edge.time;
            s.lastOutcome = QStringLiteral("submitted");
        }
    }
    Q_EMIT changed();
    if (!m_history) {
        submitEdge(id, edge);
        return;
    }
    // On disk first: if Strata dies between the write and the submit, the edge is lost rather
    // than applied twice. The claim is conditional, so of several processes sharing the store
    // (strata-server replicas, the desktop app and the CLI) exactly one submits the edge.
    m_history->claimScheduleEdge(id, edge.time, this, [this, id, edge](const Result<bool> &claimed) {
        if (claimed && *claimed) {
            submitEdge(id, edge);
            return;
        }
        if (claimed) {
            reload(); // another process runs it: show its outcome as it records it
            return;
        }
        const QString outcome =
            tr("failed: the schedule could not be updated in the history store (%1)").arg(claimed.error().message);
        for (ServiceLevelSchedule &s : m_schedules) {
            if (s.id == id && s.lastFired == edge.time) {
                s.lastOutcome = outcome;
            }
        }
        Q_EMIT changed();
        Q_EMIT edgeHandled(id, edge.time, QString(), outcome);
    });
}

void ScheduleService::submitEdge(qint64 id, const UpcomingChange &edge)
{
    if (!schedule(id)) {
        return; // removed meanwhile
    }
    ActionRequest request(ActionKind::ServiceLevelChange, edge.source, edge.volumeId);
    request.targetLevel = edge.toLevel;
    request.scheduleId = id;
    request.scheduleEdge = edge.time;
    const Result<QString> submitted = m_actions.submit(request);
    if (!submitted) {
        const QString outcome = QStringLiteral("failed: ") + submitted.error().message;
        setOutcome(id, edge.time, outcome);
        Q_EMIT edgeHandled(id, edge.time, QString(), outcome);
        return;
    }
    const QString &actionId = *submitted;
    m_pending.insert(actionId, {id, edge.time});
    Q_EMIT edgeHandled(id, edge.time, actionId, QStringLiteral("submitted"));
    if (const ActionRecord *record = m_actions.find(actionId); record && record->state != ActionState::Running) {
        onActionFinished(actionId, record->state == ActionState::Succeeded);
    }
}

void ScheduleService::setOutcome(qint64 id, const QDateTime &edge, const QString &outcome)
{
    bool current = false;
    for (ServiceLevelSchedule &s : m_schedules) {
        if (s.id != id) {
            continue;
        }
        // A newer edge may have fired meanwhile: never move lastFired backwards.
        if (s.lastFired.isValid() && s.lastFired > edge) {
            return;
        }
        s.lastFired = edge;
        s.lastOutcome = outcome;
        current = true;
    }
    if (!current) {
        return;
    }
    if (m_history) {
        m_history->markScheduleFired(id, edge, outcome, this, {});
    }
    Q_EMIT changed();
}

void ScheduleService::onActionFinished(const QString &actionId, bool ok)
{
    const ActionRecord *record = m_actions.find(actionId);
    const auto it = m_pending.constFind(actionId);
    if (it == m_pending.cend()) {
        // Taken over from a process that died while it ran this edge's action (a replica sharing
        // the store): the edge's outcome is now this process's to record.
        if (record && record->recovered && record->request.scheduleId > 0 && record->request.scheduleEdge.isValid()) {
            const qint64 id = record->request.scheduleId;
            const QString outcome = ok ? QStringLiteral("succeeded") : QStringLiteral("failed: ") + record->message;
            if (schedule(id)) {
                setOutcome(id, record->request.scheduleEdge, outcome);
            } else if (m_history) {
                m_history->markScheduleFired(id, record->request.scheduleEdge, outcome, this, {});
            }
        }
        return;
    }
    const auto [id, edge] = *it;
    m_pending.erase(it);
    QString outcome = QStringLiteral("succeeded");
    if (!ok) {
        outcome = QStringLiteral("failed: ") + (record ? record->message : QString());
    }
    setOutcome(id, edge, outcome);
}

} // namespace strata::core
