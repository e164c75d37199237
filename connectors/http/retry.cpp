#include "connectors/http/retry.h"

#include <algorithm>
#include <cmath>

namespace strata::http {

namespace {

bool isRetryableStatus(int status)
{
    return status == 429 || status == 502 || status == 503 || status == 504;
}

double uniformUnit()
{
    thread_local std::mt19937_64 engine{std::random_device{}()};
    return std::uniform_real_distribution<double>{0.0, 1.0}(engine);
}

connectors::Error cancelledError(const HttpRequest &request)
{
    return connectors::Error::make(connectors::Error::Kind::Cancelled,
                                   std::string("Request ") + methodName(request.method) + " " + request.url
                                       + " was cancelled");
}

} // namespace

std::chrono::milliseconds RetryPolicy::backoff(int attempt, double unit) const
{
    const double cap = static_cast<double>(std::max<std::chrono::milliseconds::rep>(maxDelay.count(), 0));
    const double base = static_cast<double>(std::max<std::chrono::milliseconds::rep>(baseDelay.count(), 0));
    // Clamp the exponent so a large attempt count cannot overflow before the cap applies.
    const int exponent = std::clamp(attempt, 1, 62) - 1;
    const double exponential = std::min(cap, base * std::ldexp(1.0, exponent));
    const double spread = std::clamp(jitter, 0.0, 1.0);
    const double u = std::clamp(unit, 0.0, 1.0);
    const double delay = exponential * (1.0 - spread + spread * u);
    return std::chrono::milliseconds{static_cast<std::chrono::milliseconds::rep>(std::min(cap, delay))};
}

Sleeper realSleeper()
{
    return [](std::chrono::milliseconds duration, const CancelToken &cancel) {
        return cancel.sleepFor(duration);
    };
}

std::optional<std::chrono::milliseconds> retryDelay(const HttpRequest &request,
                                                    const connectors::Result<HttpResponse> &result,
                                                    const RetryPolicy &policy,
                                                    int attempt,
                                                    std::chrono::milliseconds elapsed)
{
    if (!request.isIdempotent() || attempt >= std::max(policy.maxAttempts, 1)) {
        return std::nullopt;
    }
    int retryAfterSeconds = -1;
    if (result) {
        if (!isRetryableStatus(result->status)) {
            return std::nullopt;
        }
        retryAfterSeconds = parseRetryAfter(result->header("Retry-After"));
    } else {
        if (result.error().kind == connectors::Error::Kind::Cancelled || !result.error().retryable()) {
            return std::nullopt;
        }
        retryAfterSeconds = result.error().retryAfterSeconds;
    }
    std::chrono::milliseconds delay = policy.backoff(attempt, uniformUnit());
    if (retryAfterSeconds > 0) {
        delay = std::max(delay, std::chrono::milliseconds{std::chrono::seconds{retryAfterSeconds}});
    }
    // A wait that would end past the budget cannot lead to a useful answer: report now.
    if (policy.maxElapsed.count() > 0 && elapsed + delay > policy.maxElapsed) {
        return std::nullopt;
    }
    return delay;
}

connectors::Result<HttpResponse> sendWithRetry(IHttpTransport &transport,
                                               const HttpRequest &request,
                                               const RetryPolicy &policy,
                                               const CancelToken &cancel,
                                               const Sleeper &sleep)
{
    const auto started = std::chrono::steady_clock::now();
    for (int attempt = 1;; ++attempt) {
        if (cancel.isCancelled()) {
            return connectors::fail(cancelledError(request));
        }
        connectors::Result<HttpResponse> result = transport.send(request, cancel);
        const auto delay = retryDelay(
            request,
            result,
            policy,
            attempt,
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started));
        if (!delay) {
            return result;
        }
        const bool slept = sleep ? sleep(*delay, cancel) : cancel.sleepFor(*delay);
        if (!slept || cancel.isCancelled()) {
            return connectors::fail(cancelledError(request));
        }
    }
}

} // namespace strata::http
