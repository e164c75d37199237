#include "models/core/historyservice.h"

#include <QCoreApplication>
#include <QPointer>

namespace strata::core {

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
            if (!m_store->open(&error) && error.isEmpty()) {
                error = tr("could not open the history store");
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
        store.recordVolumeUsage(source, usage, at);
    });
}

void HistoryService::recordProjectSamples(const QString &source,
                                          std::vector<ProjectSample> samples,
                                          const QDateTime &at)
{
    post([source, samples = std::move(samples), at](IHistoryStore &store) {
        store.recordProjectSamples(source, samples, at);
    });
}

void HistoryService::projectHistory(const QString &source,
                                    const QString &project,
                                    const QDateTime &from,
                                    const QDateTime &to,
                                    QObject *context,
                                    std::function<void(std::vector<ProjectSample>)> done)
{
    QPointer<QObject> ctx(context);
    if (!m_openError.isEmpty()) {
        QMetaObject::invokeMethod(
            context,
            [done] {
                done({});
            },
            Qt::QueuedConnection);
        return;
    }
    post([source, project, from, to, ctx, done = std::move(done)](IHistoryStore &store) {
        auto samples = store.projectHistory(source, project, from, to);
        QMetaObject::invokeMethod(QCoreApplication::instance(), [ctx, done, samples = std::move(samples)]() mutable {
            if (ctx) {
                done(std::move(samples));
            }
        });
    });
}

void HistoryService::appendAudit(const AuditEntry &entry)
{
    post([entry](IHistoryStore &store) {
        store.appendAudit(entry);
    });
}

void HistoryService::applyRetention(const QDateTime &cutoff)
{
    post([cutoff](IHistoryStore &store) {
        store.applyRetention(cutoff);
    });
}

void HistoryService::volumeUsage(const QString &source,
                                 const QString &volumeId,
                                 const QDateTime &from,
                                 const QDateTime &to,
                                 QObject *context,
                                 std::function<void(std::vector<UsageSample>)> done)
{
    QPointer<QObject> ctx(context);
    if (!m_openError.isEmpty()) {
        QMetaObject::invokeMethod(
            context,
            [done] {
                done({});
            },
            Qt::QueuedConnection);
        return;
    }
    post([source, volumeId, from, to, ctx, done = std::move(done)](IHistoryStore &store) {
        auto samples = store.volumeUsage(source, volumeId, from, to);
        // Deliver via the application object and check the context there: the context may die
        // on its own thread while this runs.
        QMetaObject::invokeMethod(QCoreApplication::instance(), [ctx, done, samples = std::move(samples)]() mutable {
            if (ctx) {
                done(std::move(samples));
            }
        });
    });
}

void HistoryService::auditLog(int limit,
                              const QString &source,
                              QObject *context,
                              std::function<void(std::vector<AuditEntry>)> done)
{
    QPointer<QObject> ctx(context);
    if (!m_openError.isEmpty()) {
        QMetaObject::invokeMethod(
            context,
            [done] {
                done({});
            },
            Qt::QueuedConnection);
        return;
    }
    post([limit, source, ctx, done = std::move(done)](IHistoryStore &store) {
        auto entries = store.auditLog(limit, source);
        QMetaObject::invokeMethod(QCoreApplication::instance(), [ctx, done, entries = std::move(entries)]() mutable {
            if (ctx) {
                done(std::move(entries));
            }
        });
    });
}

void HistoryService::flush()
{
    if (m_thread.isRunning() && QThread::currentThread() != &m_thread) {
        QMetaObject::invokeMethod(
            m_worker, [] {}, Qt::BlockingQueuedConnection);
    }
}

} // namespace strata::core
