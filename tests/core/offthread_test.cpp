#include "models/core/domain/offthread.h"

#include <QPointer>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <memory>
#include <optional>
#include <thread>

using namespace strata::core;

TEST(RunOffThread, ResultArrivesOnTheMainThread)
{
    QThreadPool pool;
    QObject receiver;
    std::atomic<bool> workOnMain{true};
    std::optional<int> got;
    QThread *thenThread = nullptr;
    runOffThread(
        pool,
        &receiver,
        [&workOnMain] {
            workOnMain = QThread::currentThread() == QCoreApplication::instance()->thread();
            return std::make_unique<int>(42); // a move-only result is fine
        },
        [&got, &thenThread](std::unique_ptr<int> value) {
            got = *value;
            thenThread = QThread::currentThread();
        });
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return got.has_value();
        },
        5000));
    EXPECT_EQ(*got, 42);
    EXPECT_FALSE(workOnMain);
    EXPECT_EQ(thenThread, QCoreApplication::instance()->thread());
}

TEST(RunOffThread, ReceiverDestroyedBeforeTheResult_CallbackNotRun)
{
    QThreadPool pool;
    auto receiver = std::make_unique<QObject>();
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<bool> workDone{false};
    bool called = false;
    runOffThread(
        pool,
        receiver.get(),
        [released, &workDone] {
            released.wait();
            workDone = true;
            return 1;
        },
        [&called](int) {
            called = true;
        });
    receiver.reset(); // the dialog closes while the work runs
    release.set_value();
    ASSERT_TRUE(pool.waitForDone(5000));
    ASSERT_TRUE(workDone);
    // The hop is queued on the main thread: deliver everything that was posted.
    for (int i = 0; i < 10; ++i) {
        QCoreApplication::processEvents();
        QCoreApplication::sendPostedEvents();
    }
    EXPECT_FALSE(called);
}

TEST(RunOffThread, VoidWork_ThenRunsWithoutArguments)
{
    QThreadPool pool;
    QObject receiver;
    std::atomic<int> ran{0};
    bool called = false;
    runOffThread(
        pool,
        &receiver,
        [&ran] {
            ++ran;
        },
        [&called] {
            called = true;
        });
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return called;
        },
        5000));
    EXPECT_EQ(ran, 1);
}

TEST(PostBack, GuardGoneBeforeDelivery_NotRun)
{
    auto guarded = std::make_unique<QObject>();
    QPointer<QObject> guard(guarded.get());
    bool called = false;
    std::thread worker([guard, &called] {
        postBack(guard, [&called] {
            called = true;
        });
    });
    worker.join(); // posted, not yet delivered: the main thread has not run its loop
    guarded.reset();
    for (int i = 0; i < 10; ++i) {
        QCoreApplication::processEvents();
        QCoreApplication::sendPostedEvents();
    }
    EXPECT_FALSE(called);
}
