#include "models/core/services/historyservice.h"

#include "models/core/domain/offthread.h"

#include <QLoggingCategory>
#include <QPointer>
#include <QTimer>

namespace strata::core {

namespace {
Q_LOGGING_CATEGORY(lcHistoryService, "strata.history", QtInfoMsg)
} // namespace

HistoryService::HistoryService(std::unique_ptr<IHistoryStore> store, QObject *parent)
    : QObject(parent)
    , m_store(std::move(store))
{
    m_thread.setObjectName(QStringLiteral("strata-history"));
    m_thread.start();
    m_worker = new QObject;
    m_worker->moveToThread(&m_thread);
    QString error;
    QMetaObject::invokeMethod(
        m_worker,
        [this, &error] {
            if (const Status opened = m_store->open(); !opened) {
                error = opened.error().message;
                if (error.isEmpty()) {
                    error = tr("could not open the history store");
                }
            }
        },
        Qt::BlockingQueuedConnection);
    m_openError = error;
}

HistoryService::~HistoryService()
{
    flush();
    // The store's SQL connection belongs to the worker thread: close it there.
    QMetaObject::invokeMethod(
        m_worker,
        [this] {
            m_store.reset();
        },
        Qt::BlockingQueuedConnection);
    m_worker->deleteLater();
    m_thread.quit();
    m_thread.wait();
}

template <class R>
void HistoryService::ask(QObject *context,
                         std::function<void(R)> done,
                         std::function<R(IHistoryStore &)> read,
                         R failed)
{
    if (!m_openError.isEmpty()) {
        QMetaObject::invokeMethod(
            context,
            [done, failed] {
                done(failed);
            },
            Qt::QueuedConnection);
        return;
    }
    QPointer<QObject> ctx(context);
    post([ctx, done = std::move(done), read = std::move(read)](IHistoryStore &store) {
        R result = read(store);
        postBack(ctx, [done, result = std::move(result)]() mutable {
            done(std::move(result));
        });
    });
}

template <class T>
void HistoryService::askResult(QObject *context,
                               std::function<void(Result<T>)> done,
                               std::function<Result<T>(IHistoryStore &)> read)
{
    ask<Result<T>>(context, std::move(done), std::move(read), fail(notOpen()));
}

Error HistoryService::notOpen() const
{
    return Error::make(Error::Kind::Unavailable,
                       m_openError.isEmpty() ? tr("the history store is not open") : m_openError);
}

void HistoryService::logFailure(const char *what, const Status &status)
{
    if (!status) {
        qCWarning(lcHistoryService).noquote() << what << status.error().message;
    }
}

void HistoryService::chargeback(ChargebackInput input,
                                const ChargebackPeriod &period,
                                const RateCard &card,
                                const QDateTime &now,
                                QObject *context,
                                std::function<void(Result<Chargeback>)> done)
{
    ask<Result<Chargeback>>(
        context,
        std::move(done),
        [input = std::move(input), period, card, now](IHistoryStore &store) {
            return computeChargeback(store, input, period, card, now);
        },
        fail(Error::make(Error::Kind::Unavailable, tr("the history store is not open"))));
}

void HistoryService::post(std::function<void(IHistoryStore &)> fn)
{
    if (!m_openError.isEmpty()) {
        return;
    }
    QMetaObject::invokeMethod(m_worker, [this, fn = std::move(fn)] {
        if (m_store) {
            fn(*m_store);
        }
    });
}

void HistoryService::recordVolumeUsage(const QString &source, std::vector<VolumeUsage> usage, const QDateTime &at)
{
    post([source, usage = std::move(usage), at](IHistoryStore &store) {
        logFailure("cannot record volume capacity:", store.recordVolumeUsage(source, usage, at));
    });
}

void HistoryService::recordCapacity(const QString &source,
                                    ContainerKind kind,
                                    std::vector<VolumeUsage> usage,
                                    const QDateTime &at)
{
    post([source, kind, usage = std::move(usage), at](IHistoryStore &store) {
        logFailure("cannot record capacity:", store.recordCapacity(source, kind, usage, at));
    });
}

void HistoryService::capacityHistory(const QDateTime &from,
                                     const QDateTime &to,
                                     QObject *context,
                                     std::function<void(Result<std::vector<CapacitySeries>>)> done)
{
    askResult<std::vector<CapacitySeries>>(context, std::move(done), [from, to](IHistoryStore &store) {
        return store.capacityHistory(from, to);
    });
}

void HistoryService::forecastCapacity(ContainerSnapshot snapshot,
                                      const QDateTime &from,
                                      const QDateTime &now,
                                      QObject *context,
                                      std::function<void(Result<std::vector<ContainerForecast>>)> done)
{
    askResult<std::vector<ContainerForecast>>(
        context,
        std::move(done),
        [snapshot = std::move(snapshot), from, now](IHistoryStore &store) -> Result<std::vector<ContainerForecast>> {
            Result<std::vector<CapacitySeries>> history = store.capacityHistory(from, now);
            if (!history) {
                return fail(history.error());
            }
            return forecastAll(forecastContainers(snapshot), *history, now);
        });
}

void HistoryService::recordProjectSamples(const QString &source,
                                          std::vector<ProjectSample> samples,
                                          const QDateTime &at)
{
    post([source, samples = std::move(samples), at](IHistoryStore &store) {
        logFailure("cannot record GPU allocation:", store.recordProjectSamples(source, samples, at));
    });
}

void HistoryService::projectHistory(const QString &source,
                                    const QString &project,
                                    const QDateTime &from,
                                    const QDateTime &to,
                                    QObject *context,
                                    std::function<void(Result<std::vector<ProjectSample>>)> done)
{
    askResult<std::vector<ProjectSample>>(context, std::move(done), [source, project, from, to](IHistoryStore &store) {
        return store.projectHistory(source, project, from, to);
    });
}

bool HistoryService::appendAudit(const AuditEntry &entry)
{
    if (!m_spool) {
        post([entry](IHistoryStore &store) {
            if (const Result<qint64> appended = store.appendAudit(entry); !appended) {
                qCWarning(lcHistoryService).noquote() << "audit entry lost:" << appended.error().message;
            }
        });
        return m_openError.isEmpty();
    }
    if (const Status kept = m_spool->append(entry); !kept) {
        qCWarning(lcHistoryService).noquote() << "audit entry lost:" << kept.error().message;
        return false;
    }
    // A store that never opened keeps the entry in the spool for the next process.
    post([this](IHistoryStore &) {
        drainAuditSpool();
    });
    return true;
}

Status HistoryService::enableAuditSpool(const QString &path, qint64 maxBytes, std::chrono::milliseconds retry)
{
    std::unique_ptr<AuditSpool> spool;
    for (int i = 0; i < 16 && !spool; ++i) {
        auto candidate = std::make_unique<AuditSpool>(i == 0 ? path : path + QStringLiteral(".%1").arg(i), maxBytes);
        if (candidate->tryLock()) {
            spool = std::move(candidate);
        }
    }
    if (!spool) {
        return fail(QStringLiteral("the audit spool %1 is in use by other processes").arg(path));
    }
    const Status loaded = spool->load();
    if (!loaded) {
        return loaded;
    }
    m_spoolRetry = retry;
    m_spool = std::move(spool);
    if (m_spool->size() > 0) {
        qCInfo(lcHistoryService).noquote()
            << m_spool->size() << "audit entries waiting in" << m_spool->path() << "are written to the history store";
        post([this](IHistoryStore &) {
            drainAuditSpool();
        });
    }
    return {};
}

int HistoryService::spooledAuditCount() const
{
    return m_spool ? m_spool->size() : 0;
}

void HistoryService::drainAuditSpool()
{
    constexpr int kBatch = 64;
    while (m_store && !m_spoolRetryArmed) {
        const std::vector<AuditSpool::Pending> batch = m_spool->front(kBatch);
        if (batch.empty()) {
            return;
        }
        int written = 0;
        bool failed = false;
        for (const AuditSpool::Pending &p : batch) {
            if (p.closesJournal) {
                // Idempotent by itself: an action already closed (by this write before a
                // crash, or by another replica) returns 0 and adds no second entry.
                if (!m_store->journalFinish(p.entry)) {
                    failed = true;
                    break;
                }
                ++written;
                continue;
            }
            if (p.uncertain) {
                const Result<bool> present = m_store->containsAudit(p.entry);
                if (!present) {
                    failed = true;
                    break;
                }
                if (*present) {
                    ++written;
                    continue;
                }
            }
            if (!m_store->appendAudit(p.entry)) {
                failed = true;
                break;
            }
            ++written;
        }
        if (const Status dropped = m_spool->dropFront(written); !dropped) {
            // The entries stay in the file: the next drain (or process) finds them in the store.
            qCWarning(lcHistoryService).noquote() << dropped.error().message;
        }
        if (!failed) {
            continue;
        }
        // The failed write may have committed before the connection broke.
        m_spool->markFrontUncertain();
        m_spoolRetryArmed = true;
        QTimer::singleShot(m_spoolRetry, m_worker, [this] {
            m_spoolRetryArmed = false;
            if (m_store) {
                // PostgreSQL connections do not come back by themselves: ping() reconnects.
                const Status answered = m_store->ping();
                Q_UNUSED(answered); // a store still down fails the drain, which tries again later
                drainAuditSpool();
            }
        });
        return;
    }
}

void HistoryService::applyRetention(const QDateTime &cutoff)
{
    post([cutoff](IHistoryStore &store) {
        if (const Result<qint64> applied = store.applyRetention(cutoff); !applied) {
            qCWarning(lcHistoryService).noquote() << "cannot apply retention:" << applied.error().message;
        }
    });
}

void HistoryService::volumeUsage(const QString &source,
                                 const QString &volumeId,
                                 const QDateTime &from,
                                 const QDateTime &to,
                                 QObject *context,
                                 std::function<void(Result<std::vector<UsageSample>>)> done)
{
    askResult<std::vector<UsageSample>>(context, std::move(done), [source, volumeId, from, to](IHistoryStore &store) {
        return store.volumeUsage(source, volumeId, from, to);
    });
}

void HistoryService::auditLog(int limit,
                              const QString &source,
                              QObject *context,
                              std::function<void(Result<std::vector<AuditEntry>>)> done)
{
    askResult<std::vector<AuditEntry>>(context, std::move(done), [limit, source](IHistoryStore &store) {
        return store.auditLog(limit, source);
    });
}

void HistoryService::recordVolumePerf(const QString &source, std::vector<VolumePerfSample> samples, const QDateTime &at)
{
    post([source, samples = std::move(samples), at](IHistoryStore &store) {
        logFailure("cannot record volume performance:", store.recordVolumePerf(source, samples, at));
    });
}

void HistoryService::volumePerfHistory(const QString &source,
                                       const QString &volumeId,
                                       const QDateTime &from,
                                       const QDateTime &to,
                                       QObject *context,
                                       std::function<void(Result<std::vector<VolumePerfSample>>)> done)
{
    askResult<std::vector<VolumePerfSample>>(
        context, std::move(done), [source, volumeId, from, to](IHistoryStore &store) {
            return store.volumePerfHistory(source, volumeId, from, to);
        });
}

void HistoryService::volumePerfStats(const QDateTime &from,
                                     const QDateTime &to,
                                     QObject *context,
                                     std::function<void(Result<std::vector<VolumePerfStats>>)> done)
{
    askResult<std::vector<VolumePerfStats>>(context, std::move(done), [from, to](IHistoryStore &store) {
        return store.volumePerfStats(from, to);
    });
}

void HistoryService::auditLogOfKind(const QString &kind,
                                    const QDateTime &since,
                                    QObject *context,
                                    std::function<void(Result<std::vector<AuditEntry>>)> done)
{
    askResult<std::vector<AuditEntry>>(context, std::move(done), [kind, since](IHistoryStore &store) {
        return store.auditLogOfKind(kind, since);
    });
}

void HistoryService::saveSchedule(const ServiceLevelSchedule &schedule,
                                  QObject *context,
                                  std::function<void(Result<qint64> id)> done)
{
    askResult<qint64>(context, std::move(done), [schedule](IHistoryStore &store) {
        return store.saveSchedule(schedule);
    });
}

void HistoryService::removeSchedule(qint64 id)
{
    post([id](IHistoryStore &store) {
        logFailure("cannot remove a schedule:", store.removeSchedule(id));
    });
}

void HistoryService::schedules(QObject *context, std::function<void(Result<std::vector<ServiceLevelSchedule>>)> done)
{
    askResult<std::vector<ServiceLevelSchedule>>(context, std::move(done), [](IHistoryStore &store) {
        return store.schedules();
    });
}

void HistoryService::markScheduleFired(
    qint64 id, const QDateTime &edge, const QString &outcome, QObject *context, std::function<void(Status)> done)
{
    if (!done) {
        post([id, edge, outcome](IHistoryStore &store) {
            logFailure("cannot record a fired schedule:", store.markScheduleFired(id, edge, outcome));
        });
        return;
    }
    ask<Status>(
        context,
        std::move(done),
        [id, edge, outcome](IHistoryStore &store) {
            return store.markScheduleFired(id, edge, outcome);
        },
        fail(notOpen()));
}

void HistoryService::ping(QObject *context, std::function<void(QString error)> done)
{
    if (!m_openError.isEmpty()) {
        QMetaObject::invokeMethod(
            context,
            [done = std::move(done), error = m_openError] {
                done(error);
            },
            Qt::QueuedConnection);
        return;
    }
    ask<QString>(
        context,
        std::move(done),
        [](IHistoryStore &store) {
            const Status answered = store.ping();
            return answered ? QString() : answered.error().message;
        },
        QStringLiteral("the history store is not running"));
}

void HistoryService::claimScheduleEdge(qint64 id,
                                       const QDateTime &edge,
                                       QObject *context,
                                       std::function<void(Result<bool>)> done)
{
    askResult<bool>(context, std::move(done), [id, edge](IHistoryStore &store) {
        return store.claimScheduleEdge(id, edge);
    });
}

void HistoryService::syncLeases(const QString &replica,
                                const QStringList &sources,
                                qint64 ttlMs,
                                QObject *context,
                                std::function<void(Result<LeaseSync>)> done)
{
    askResult<LeaseSync>(context, std::move(done), [replica, sources, ttlMs](IHistoryStore &store) {
        return store.syncLeases(replica, sources, ttlMs);
    });
}

Status HistoryService::releaseLeases(const QString &replica)
{
    return callBlocking<Status>(
        [replica](IHistoryStore &store) {
            return store.releaseLeases(replica);
        },
        fail(notOpen()));
}

void HistoryService::putSharedState(const QString &source,
                                    const QString &owner,
                                    QByteArray status,
                                    QByteArray body,
                                    QObject *context,
                                    std::function<void(Result<qint64> revision)> done)
{
    askResult<qint64>(context,
                      std::move(done),
                      [source, owner, status = std::move(status), body = std::move(body)](IHistoryStore &store) {
                          return store.putSharedState(source, owner, status, body);
                      });
}

void HistoryService::sharedStates(qint64 since,
                                  QHash<QString, qint64> knownBodies,
                                  QObject *context,
                                  std::function<void(Result<SharedStates>)> done)
{
    askResult<SharedStates>(
        context, std::move(done), [since, knownBodies = std::move(knownBodies)](IHistoryStore &store) {
            return store.sharedStates(since, knownBodies);
        });
}

void HistoryService::listenForSharedStates(QObject *context,
                                           std::function<void(const QString &source)> notified,
                                           std::function<void(bool ok)> listening)
{
    QPointer<QObject> target(context);
    auto forward = [target, notified = std::move(notified)](const QString &source) {
        if (target) {
            QMetaObject::invokeMethod(
                target,
                [target, notified, source] {
                    if (target) {
                        notified(source);
                    }
                },
                Qt::QueuedConnection);
        }
    };
    ask<bool>(
        context,
        std::move(listening),
        [forward = std::move(forward)](IHistoryStore &store) {
            return bool(store.listenForSharedStates(forward));
        },
        false);
}

namespace {

Error settingsUnavailable(const QString &openError)
{
    return Error::make(Error::Kind::Unavailable,
                       openError.isEmpty() ? QStringLiteral("the history store is not running") : openError);
}

} // namespace

void HistoryService::sharedSettings(QObject *context, std::function<void(Result<std::vector<SharedSetting>>)> done)
{
    ask<Result<std::vector<SharedSetting>>>(
        context,
        std::move(done),
        [](IHistoryStore &store) {
            return store.sharedSettings();
        },
        fail(settingsUnavailable(m_openError)));
}

void HistoryService::writeSharedSetting(SettingEdit edit,
                                        QObject *context,
                                        std::function<void(Result<SharedSetting>)> done)
{
    ask<Result<SharedSetting>>(
        context,
        std::move(done),
        [edit = std::move(edit)](IHistoryStore &store) {
            return core::writeSharedSetting(store, edit);
        },
        fail(settingsUnavailable(m_openError)));
}

Result<std::vector<AdoptedSetting>> HistoryService::adoptSettings(const std::vector<SettingSeed> &seeds,
                                                                  const SettingWriter &writer)
{
    return callBlocking<Result<std::vector<AdoptedSetting>>>(
        [&](IHistoryStore &store) -> Result<std::vector<AdoptedSetting>> {
            std::vector<AdoptedSetting> out;
            for (const SettingSeed &seed : seeds) {
                Result<AdoptedSetting> adopted = adoptConfigSetting(store, seed, writer);
                if (!adopted) {
                    return fail(adopted.error());
                }
                out.push_back(std::move(*adopted));
            }
            return out;
        },
        fail(settingsUnavailable(m_openError)));
}

template <class R> R HistoryService::callBlocking(std::function<R(IHistoryStore &)> fn, R failed)
{
    if (!m_openError.isEmpty() || !m_thread.isRunning()) {
        return failed;
    }
    R result = failed;
    if (QThread::currentThread() == &m_thread) {
        return m_store ? fn(*m_store) : failed;
    }
    QMetaObject::invokeMethod(
        m_worker,
        [this, &fn, &result] {
            if (m_store) {
                result = fn(*m_store);
            }
        },
        Qt::BlockingQueuedConnection);
    return result;
}

Status HistoryService::journalIntent(const JournalEntry &entry)
{
    return callBlocking<Status>(
        [&entry](IHistoryStore &store) {
            return store.journalIntent(entry);
        },
        fail(notOpen()));
}

Result<bool> HistoryService::journalProgress(const QString &actionId,
                                             const QString &phase,
                                             const QString &handle,
                                             const QDateTime &at)
{
    return callBlocking<Result<bool>>(
        [&](IHistoryStore &store) {
            return store.journalProgress(actionId, phase, handle, at);
        },
        fail(notOpen()));
}

Result<bool> HistoryService::journalClaim(const QString &actionId,
                                          const QString &expectedOwner,
                                          const QString &owner,
                                          const QDateTime &at)
{
    return callBlocking<Result<bool>>(
        [&](IHistoryStore &store) {
            return store.journalClaim(actionId, expectedOwner, owner, at);
        },
        fail(notOpen()));
}

void HistoryService::journalHeartbeat(const QStringList &actionIds, const QString &owner, const QDateTime &at)
{
    post([actionIds, owner, at](IHistoryStore &store) {
        logFailure("cannot refresh the action journal:", store.journalHeartbeat(actionIds, owner, at));
    });
}

void HistoryService::journalFinish(const AuditEntry &audit, QObject *context, std::function<void(bool written)> done)
{
    if (m_spool) {
        const Status kept = m_spool->append(audit, true);
        if (!kept) {
            qCWarning(lcHistoryService).noquote() << "audit entry lost:" << kept.error().message;
        }
        post([this](IHistoryStore &) {
            drainAuditSpool();
        });
        if (done) {
            QPointer<QObject> ctx(context);
            postBack(ctx, [done, kept = bool(kept)] {
                done(kept);
            });
        }
        return;
    }
    if (!m_openError.isEmpty()) {
        return;
    }
    QPointer<QObject> ctx(context);
    post([audit, ctx, done = std::move(done)](IHistoryStore &store) {
        const Result<qint64> finished = store.journalFinish(audit);
        if (!finished) {
            qCWarning(lcHistoryService).noquote() << "audit entry lost:" << finished.error().message;
        }
        const bool written = finished && *finished > 0;
        if (!done) {
            return;
        }
        postBack(ctx, [done, written] {
            done(written);
        });
    });
}

void HistoryService::openJournal(QObject *context, std::function<void(Result<std::vector<JournalEntry>>)> done)
{
    askResult<std::vector<JournalEntry>>(context, std::move(done), [](IHistoryStore &store) {
        return store.openJournal();
    });
}

void HistoryService::flush()
{
    if (m_thread.isRunning() && QThread::currentThread() != &m_thread) {
        QMetaObject::invokeMethod(
            m_worker, [] {}, Qt::BlockingQueuedConnection);
    }
}

// ---- Web console users and sessions -------------------------------------------------

namespace {

Error webAuthUnavailable()
{
    return Error::make(Error::Kind::Unavailable, HistoryService::tr("the history store is not open"));
}

void logWebAuthFailure(const Status &status)
{
    if (!status) {
        qWarning("strata: web console users/sessions: %s", qUtf8Printable(status.error().message));
    }
}

} // namespace

void HistoryService::saveWebUser(const WebUserRecord &user, const QDateTime &at)
{
    post([user, at](IHistoryStore &store) {
        logWebAuthFailure(store.saveWebUser(user, at));
    });
}

void HistoryService::removeWebUser(const QString &name, const QDateTime &at)
{
    post([name, at](IHistoryStore &store) {
        const Result<bool> removed = store.removeWebUser(name, at);
        logWebAuthFailure(removed ? Status() : Status(fail(removed.error())));
    });
}

void HistoryService::removeWebSession(const QString &idHash, const QDateTime &at)
{
    post([idHash, at](IHistoryStore &store) {
        logWebAuthFailure(store.removeWebSession(idHash, at));
    });
}

void HistoryService::touchWebSessions(std::vector<WebSessionRecord> sessions)
{
    post([sessions = std::move(sessions)](IHistoryStore &store) {
        logWebAuthFailure(store.touchWebSessions(sessions));
    });
}

void HistoryService::pruneWebAuth(const QDateTime &now)
{
    post([now](IHistoryStore &store) {
        const Result<qint64> pruned = store.pruneWebAuth(now);
        logWebAuthFailure(pruned ? Status() : Status(fail(pruned.error())));
    });
}

void HistoryService::insertWebSession(const WebSessionRecord &session,
                                      const QString &passwordHash,
                                      QObject *context,
                                      std::function<void(Result<bool>)> done)
{
    ask<Result<bool>>(
        context,
        std::move(done),
        [session, passwordHash](IHistoryStore &store) {
            return store.insertWebSession(session, passwordHash);
        },
        fail(webAuthUnavailable()));
}

void HistoryService::webSession(const QString &idHash,
                                const QDateTime &now,
                                QObject *context,
                                std::function<void(Result<std::optional<WebSessionRecord>>)> done)
{
    ask<Result<std::optional<WebSessionRecord>>>(
        context,
        std::move(done),
        [idHash, now](IHistoryStore &store) {
            return store.webSession(idHash, now);
        },
        fail(webAuthUnavailable()));
}

void HistoryService::webAuthChanges(qint64 cursor,
                                    const QDateTime &now,
                                    QObject *context,
                                    std::function<void(Result<WebAuthChanges>)> done)
{
    ask<Result<WebAuthChanges>>(
        context,
        std::move(done),
        [cursor, now](IHistoryStore &store) {
            return store.webAuthChanges(cursor, now);
        },
        fail(webAuthUnavailable()));
}

Result<WebAuthChanges> HistoryService::webAuthChangesNow(qint64 cursor, const QDateTime &now)
{
    return callBlocking<Result<WebAuthChanges>>(
        [cursor, now](IHistoryStore &store) {
            return store.webAuthChanges(cursor, now);
        },
        fail(webAuthUnavailable()));
}

// ---- end of web console users and sessions ------------------------------------------------------

} // namespace strata::core
