#include "web/loginqueue.h"

#include "web/auth.h"

#include "models/core/domain/clock.h"

#include <algorithm>

namespace strata::web {

LoginQueue::LoginQueue(QObject *context, core::IClock &clock, const LoginLimiter &limiter, int workers, int queueLimit)
    : m_context(context)
    , m_clock(clock)
    , m_limiter(limiter)
    , m_queueLimit(std::max(0, queueLimit))
{
    m_pool.setMaxThreadCount(std::max(1, workers));
}

LoginQueue::~LoginQueue()
{
    m_pool.waitForDone();
}

LoginQueue::Lane LoginQueue::laneOf(const QString &client) const
{
    if (m_limiter.hasRecentFailures(client)) {
        return Lane::Suspect;
    }
    const auto it = m_trusted.constFind(client);
    if (it != m_trusted.constEnd() && it->daysTo(m_clock.now()) <= 30) {
        return Lane::Trusted;
    }
    return Lane::Clean;
}

void LoginQueue::trust(const QString &client)
{
    constexpr qsizetype kTrustedKept = 4096;
    m_trusted.insert(client, m_clock.now());
    if (m_trusted.size() > kTrustedKept) {
        // Forget the address that logged in longest ago.
        auto oldest = m_trusted.begin();
        for (auto it = m_trusted.begin(); it != m_trusted.end(); ++it) {
            if (it.value() < oldest.value()) {
                oldest = it;
            }
        }
        m_trusted.erase(oldest);
    }
}

bool LoginQueue::enqueue(Lane lane, std::function<void()> work, bool force)
{
    auto &queue = m_lanes[int(lane)];
    if (!force && m_hashing >= m_pool.maxThreadCount() && int(queue.size()) >= m_queueLimit) {
        return false;
    }
    queue.push_back(std::move(work));
    pump();
    return true;
}

void LoginQueue::pump()
{
    while (m_hashing < m_pool.maxThreadCount()) {
        auto next = std::find_if(std::begin(m_lanes), std::end(m_lanes), [](const auto &queue) {
            return !queue.empty();
        });
        if (next == std::end(m_lanes)) {
            return;
        }
        std::function<void()> work = std::move(next->front());
        next->pop_front();
        ++m_hashing;
        m_pool.start([this, work = std::move(work)] {
            work();
            QMetaObject::invokeMethod(
                m_context,
                [this] {
                    --m_hashing;
                    pump();
                },
                Qt::QueuedConnection);
        });
    }
}

} // namespace strata::web
