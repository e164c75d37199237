#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace strata::http {

/// Shared cancellation flag handed to every blocking connector call. Copies share one state;
/// cancel() from any thread makes in-flight transfers abort (within ~100 ms) and backoff
/// sleeps return at once.
class CancelToken
{
public:
    CancelToken();

    void cancel() const;
    [[nodiscard]] bool isCancelled() const;

    /// Sleeps for `duration` unless cancelled first. Returns false when cancelled.
    bool sleepFor(std::chrono::milliseconds duration) const;

private:
    struct State
    {
        std::atomic<bool> cancelled{false};
        std::mutex mutex;
        std::condition_variable cv;
    };
    std::shared_ptr<State> m_state;
};

} // namespace strata::http
