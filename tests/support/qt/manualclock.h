#pragma once

#include "models/core/domain/clock.h"

#include <QPointer>

#include <map>
#include <mutex>

namespace strata::testsupport {

/// IClock whose time moves only when the test says so. advance() fires every due callback in
/// time order on the calling thread (the test's), then lets queued events run.
class ManualClock final : public QObject, public core::IClock
{
    Q_OBJECT

public:
    explicit ManualClock(QDateTime start = QDateTime(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC));

    /// Safe from any thread (action workers stamp the journal with it).
    [[nodiscard]] QDateTime now() const override;
    TimerId callAfter(std::chrono::milliseconds delay, QObject *context, std::function<void()> fn) override;
    void cancel(TimerId id) override;

    /// Moves time forward by `by`, firing due callbacks (including ones they schedule).
    void advance(std::chrono::milliseconds by);
    /// Delay until the earliest pending callback, or -1 ms when none.
    [[nodiscard]] std::chrono::milliseconds nextDue() const;
    [[nodiscard]] std::size_t pendingCount() const { return m_timers.size(); }

private:
    struct Timer
    {
        QDateTime due;
        QPointer<QObject> context;
        std::function<void()> fn;
    };
    mutable std::mutex m_nowMutex; // guards m_now against readers on worker threads
    QDateTime m_now;
    std::map<TimerId, Timer> m_timers;
    TimerId m_nextId = 1;
};

} // namespace strata::testsupport
