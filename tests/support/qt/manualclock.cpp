#include "tests/support/qt/manualclock.h"

#include <QCoreApplication>
#include <QTimeZone>

namespace strata::testsupport {

ManualClock::ManualClock(QDateTime start)
    : m_now(std::move(start))
{}

QDateTime ManualClock::now() const
{
    std::lock_guard lock(m_nowMutex);
    return m_now;
}

core::IClock::TimerId
ManualClock::callAfter(std::chrono::milliseconds delay, QObject *context, std::function<void()> fn)
{
    const TimerId id = m_nextId++;
    m_timers.emplace(id, Timer{m_now.addMSecs(delay.count()), context, std::move(fn)});
    return id;
}

void ManualClock::cancel(TimerId id)
{
    m_timers.erase(id);
}

void ManualClock::advance(std::chrono::milliseconds by)
{
    const QDateTime target = m_now.addMSecs(by.count());
    for (;;) {
        auto next = m_timers.end();
        for (auto it = m_timers.begin(); it != m_timers.end(); ++it) {
            if (it->second.due <= target && (next == m_timers.end() || it->second.due < next->second.due)) {
                next = it;
            }
        }
        if (next == m_timers.end()) {
            break;
        }
        Timer timer = std::move(next->second);
        m_timers.erase(next);
        if (timer.due > m_now) {
            std::lock_guard lock(m_nowMutex);
            m_now = timer.due;
        }
        if (timer.context) {
            timer.fn();
        }
        QCoreApplication::processEvents();
    }
    {
        std::lock_guard lock(m_nowMutex);
        m_now = target;
    }
    QCoreApplication::processEvents();
}

std::chrono::milliseconds ManualClock::nextDue() const
{
    qint64 best = -1;
    for (const auto &[id, t] : m_timers) {
        const qint64 ms = std::max<qint64>(0, m_now.msecsTo(t.due));
        if (best < 0 || ms < best) {
            best = ms;
        }
    }
    return std::chrono::milliseconds(best);
}

} // namespace strata::testsupport
