#pragma once

#include <QDateTime>
#include <QObject>

#include <chrono>
#include <functional>

namespace strata::core {

/// Time source and timer service injected into pollers, actions and stores, so schedules and
/// backoff are testable without sleeping (KeePassXC Clock/MockClock). The real clock uses
/// QTimer; tests use ManualClock (tests/support/qt).
class IClock
{
public:
    using TimerId = quint64;

    virtual ~IClock() = default;

    /// Current time, UTC. Safe to call from any thread (the action journal stamps times on its
    /// worker thread).
    [[nodiscard]] virtual QDateTime now() const = 0;
    /// Calls `fn` on `context`'s thread after `delay`, unless cancel() was called or `context`
    /// was destroyed first. Returns an id for cancel(); ids are never 0.
    virtual TimerId callAfter(std::chrono::milliseconds delay, QObject *context, std::function<void()> fn) = 0;
    /// Cancels a pending callback; unknown or fired ids are ignored.
    virtual void cancel(TimerId id) = 0;
};

/// Wall clock backed by single-shot QTimers.
class SystemClock final : public QObject, public IClock
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SystemClock)

public:
    explicit SystemClock(QObject *parent = nullptr);
    ~SystemClock() override;

    [[nodiscard]] QDateTime now() const override;
    TimerId callAfter(std::chrono::milliseconds delay, QObject *context, std::function<void()> fn) override;
    void cancel(TimerId id) override;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace strata::core
