#include "connectors/http/canceltoken.h"

namespace strata::http {

CancelToken::CancelToken()
    : m_state(std::make_shared<State>())
{}

void CancelToken::cancel() const
{
    {
        // Taking the lock orders the store against a sleeper between its check and its wait.
        std::lock_guard lock(m_state->mutex);
        m_state->cancelled.store(true);
    }
    m_state->cv.notify_all();
}

bool CancelToken::isCancelled() const
{
    return m_state->cancelled.load();
}

bool CancelToken::sleepFor(std::chrono::milliseconds duration) const
{
    std::unique_lock lock(m_state->mutex);
    const bool cancelled = m_state->cv.wait_for(lock, duration, [this] {
        return m_state->cancelled.load();
    });
    return !cancelled;
}

} // namespace strata::http
