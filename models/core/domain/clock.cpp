#include "models/core/domain/clock.h"

#include <QHash>
#include <QMutex>
#include <QPointer>
#include <QTimer>

namespace strata::core {

struct SystemClock::Private
{
    QMutex mutex;
    QHash<TimerId, QPointer<QTimer>> timers;
    TimerId nextId = 1;
};

SystemClock::SystemClock(QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{}

SystemClock::~SystemClock()
{
    QMutexLocker lock(&d->mutex);
    for (const QPointer<QTimer> &timer : std::as_const(d->timers)) {
        if (timer) {
            timer->deleteLater();
        }
    }
}

QDateTime SystemClock::now() const
{
    return QDateTime::currentDateTimeUtc();
}

IClock::TimerId SystemClock::callAfter(std::chrono::milliseconds delay, QObject *context, std::function<void()> fn)
{
    // The timer lives in the context's thread and dies with it, so a destroyed context simply
    // never gets its callback.
    auto *timer = new QTimer;
    timer->setSingleShot(true);
    timer->setInterval(delay);
    timer->moveToThread(context->thread());
    timer->setParent(context);
    TimerId id;
    {
        QMutexLocker lock(&d->mutex);
        id = d->nextId++;
        d->timers.insert(id, timer);
    }
    QObject::connect(timer, &QTimer::timeout, context, [this, id, timer, fn = std::move(fn)] {
        {
            QMutexLocker lock(&d->mutex);
            d->timers.remove(id);
        }
        timer->deleteLater();
        fn();
    });
    QMetaObject::invokeMethod(timer, qOverload<>(&QTimer::start), Qt::AutoConnection);
    return id;
}

void SystemClock::cancel(TimerId id)
{
    QPointer<QTimer> timer;
    {
        QMutexLocker lock(&d->mutex);
        timer = d->timers.take(id);
    }
    if (timer) {
        QMetaObject::invokeMethod(timer, [timer] {
            if (timer) {
                timer->stop();
                timer->deleteLater();
            }
        });
    }
}

} // namespace strata::core
