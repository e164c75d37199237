#pragma once

#include <QCoreApplication>
#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace strata::core {

/// Hands `fn` to the application's main thread, where it runs unless `guard`'s object has been
/// destroyed by then (checked on the main thread, so the object cannot go away while `fn`
/// runs). Called from another thread, `fn` is queued; called on the main thread, it runs at
/// once. Take `guard` on the thread that owns its object, before leaving it: a QPointer must not
/// be made on a worker thread from a raw pointer the owner may delete meanwhile.
template <class T, class Fn> void postBack(QPointer<T> guard, Fn fn)
{
    QMetaObject::invokeMethod(QCoreApplication::instance(), [guard = std::move(guard), fn = std::move(fn)]() mutable {
        if (guard) {
            fn();
        }
    });
}

/// Runs `work()` on `pool`, then `then(result)` (`then()` when `work` returns nothing) on the
/// main thread unless `receiver` has been destroyed by then: the blocking-call-then-show-it hop
/// of "Test" buttons, snapshot listings and file reads. Call it on the thread that owns
/// `receiver`; a null `receiver` means `then` never runs. `work` and `then` are copied into the
/// pool's job, so they must be copyable; the result only needs to be movable.
template <class Work, class Then> void runOffThread(QThreadPool &pool, QObject *receiver, Work work, Then then)
{
    QPointer<QObject> guard(receiver);
    pool.start([guard, work = std::move(work), then = std::move(then)]() mutable {
        using Result = std::invoke_result_t<Work &>;
        if constexpr (std::is_void_v<Result>) {
            work();
            postBack(guard, std::move(then));
        } else {
            auto result = std::make_shared<Result>(work());
            postBack(guard, [then = std::move(then), result]() mutable {
                then(std::move(*result));
            });
        }
    });
}

/// runOffThread for a Sources page "Test" button: `check()` gives whether the system answered
/// and the sentence to show; `done(ok, message)` runs on the main thread unless `context` is gone.
inline void runConnectionTest(QThreadPool &pool,
                              QObject *context,
                              std::function<void(bool ok, QString message)> done,
                              std::function<std::pair<bool, QString>()> check)
{
    runOffThread(pool, context, std::move(check), [done = std::move(done)](std::pair<bool, QString> answer) {
        done(answer.first, std::move(answer.second));
    });
}

} // namespace strata::core
