#pragma once

#include "connectors/http/transport.h"

#include <chrono>
#include <functional>
#include <optional>
#include <random>

namespace strata::http {

/// Exponential backoff with full jitter, capped, honouring Retry-After.
struct RetryPolicy
{
    int maxAttempts = 4; ///< total tries including the first, >= 1
    std::chrono::milliseconds baseDelay{250};
    std::chrono::milliseconds maxDelay{30'000};
    /// Stop retrying once this much time has passed since the first attempt (0 = unlimited).
    std::chrono::milliseconds maxElapsed{120'000};
    /// Fraction of the computed delay that is randomised, 0..1.
    double jitter = 0.5;

    /// Delay before attempt `attempt` (1-based count of attempts already made), without
    /// Retry-After. `unit` is a uniform random number in [0,1).
    [[nodiscard]] std::chrono::milliseconds backoff(int attempt, double unit) const;
};

/// Sleeps for a duration unless cancelled; returns false when cancelled. Tests pass a recorder.
using Sleeper = std::function<bool(std::chrono::milliseconds, const CancelToken &)>;
Sleeper realSleeper();

/// sendWithRetry()'s rule for callers that send themselves (an event loop): the wait before
/// trying `request` again after `result`, `attempt` tries having been made (>= 1) over `elapsed`;
/// nullopt when it must not be retried (not idempotent, not a retryable outcome, attempts or
/// time budget used up, cancelled).
std::optional<std::chrono::milliseconds> retryDelay(const HttpRequest &request,
                                                    const connectors::Result<HttpResponse> &result,
                                                    const RetryPolicy &policy,
                                                    int attempt,
                                                    std::chrono::milliseconds elapsed);

/// Sends `request` through `transport`, retrying only idempotent requests on retryable
/// outcomes (transport errors, timeouts, 429, 502, 503, 504) with the policy's backoff or the
/// server's Retry-After, whichever is longer. Returns the last response or error.
/// Non-idempotent requests are sent exactly once.
connectors::Result<HttpResponse> sendWithRetry(IHttpTransport &transport,
                                               const HttpRequest &request,
                                               const RetryPolicy &policy,
                                               const CancelToken &cancel,
                                               const Sleeper &sleep);

} // namespace strata::http
