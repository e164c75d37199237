#include "tests/support/faketransport.h"

#include <thread>

namespace strata::testsupport {

using namespace strata::http;

void FakeTransport::enqueue(Method method, const std::string &path, connectors::Result<HttpResponse> response)
{
    std::lock_guard lock(m_mutex);
    m_queues[{method, path}].push_back(Scripted{std::move(response)});
}

void FakeTransport::enqueueJson(Method method, const std::string &path, std::string body, int status)
{
    HttpResponse r = HttpResponse::withStatus(status, std::move(body), {{"Content-Type", "application/hal+json"}});
    enqueue(method, path, std::move(r));
}

void FakeTransport::enqueueError(Method method,
                                 const std::string &path,
                                 connectors::Error::Kind kind,
                                 std::string message)
{
    enqueue(method, path, connectors::fail(connectors::Error::make(kind, std::move(message))));
}

void FakeTransport::enqueueHang(Method method, const std::string &path)
{
    std::lock_guard lock(m_mutex);
    Scripted s{connectors::fail(connectors::Error::make(connectors::Error::Kind::Cancelled, "cancelled"))};
    s.hang = true;
    m_queues[{method, path}].push_back(std::move(s));
}

void FakeTransport::enqueueDelayed(Method method,
                                   const std::string &path,
                                   std::chrono::milliseconds delay,
                                   connectors::Result<HttpResponse> response)
{
    std::lock_guard lock(m_mutex);
    Scripted s{std::move(response)};
    s.delay = delay;
    m_queues[{method, path}].push_back(std::move(s));
}

void FakeTransport::setOverride(Override override)
{
    std::lock_guard lock(m_mutex);
    m_override = std::move(override);
}

connectors::Result<HttpResponse> FakeTransport::send(const HttpRequest &request, const CancelToken &cancel)
{
    std::optional<Scripted> next;
    Override override;
    {
        std::lock_guard lock(m_mutex);
        m_requests.push_back(request);
        override = m_override;
    }
    if (override) {
        if (auto r = override(request)) {
            return std::move(*r);
        }
    }
    {
        std::lock_guard lock(m_mutex);
        auto it = m_queues.find({request.method, pathOf(request.url)});
        if (it != m_queues.end() && !it->second.empty()) {
            next = std::move(it->second.front());
            it->second.pop_front();
        }
    }
    if (!next) {
        return connectors::fail(connectors::Error::make(connectors::Error::Kind::Transport,
                                                        std::string("FakeTransport: no scripted response for ")
                                                            + methodName(request.method) + " " + request.url));
    }
    if (next->hang) {
        while (!cancel.isCancelled()) {
            cancel.sleepFor(std::chrono::milliseconds(20));
        }
        return connectors::fail(connectors::Error::make(connectors::Error::Kind::Cancelled, "request cancelled"));
    }
    if (next->delay.count() > 0 && !cancel.sleepFor(next->delay)) {
        return connectors::fail(connectors::Error::make(connectors::Error::Kind::Cancelled, "request cancelled"));
    }
    return std::move(next->response);
}

int FakeTransport::requestCount() const
{
    std::lock_guard lock(m_mutex);
    return static_cast<int>(m_requests.size());
}

std::vector<HttpRequest> FakeTransport::requests() const
{
    std::lock_guard lock(m_mutex);
    return m_requests;
}

int FakeTransport::requestCount(Method method, const std::string &path) const
{
    std::lock_guard lock(m_mutex);
    int n = 0;
    for (const auto &r : m_requests) {
        if (r.method == method && pathOf(r.url) == path) {
            ++n;
        }
    }
    return n;
}

std::size_t FakeTransport::pending() const
{
    std::lock_guard lock(m_mutex);
    std::size_t n = 0;
    for (const auto &[key, q] : m_queues) {
        n += q.size();
    }
    return n;
}

std::string FakeTransport::pathOf(const std::string &url)
{
    std::string rest = url;
    if (auto scheme = rest.find("://"); scheme != std::string::npos) {
        auto slash = rest.find('/', scheme + 3);
        rest = slash == std::string::npos ? "/" : rest.substr(slash);
    }
    if (auto q = rest.find('?'); q != std::string::npos) {
        rest.resize(q);
    }
    return rest;
}

std::optional<std::string> FakeTransport::queryParam(const std::string &url, const std::string &key)
{
    const auto q = url.find('?');
    if (q == std::string::npos) {
        return std::nullopt;
    }
    std::string query = url.substr(q + 1);
    std::size_t pos = 0;
    while (pos <= query.size()) {
        auto amp = query.find('&', pos);
        if (amp == std::string::npos) {
            amp = query.size();
        }
        const std::string pair = query.substr(pos, amp - pos);
        const auto eq = pair.find('=');
        const std::string k = pair.substr(0, eq);
        if (k == key) {
            std::string v = eq == std::string::npos ? std::string() : pair.substr(eq + 1);
            std::string out;
            for (std::size_t i = 0; i < v.size(); ++i) {
                if (v[i] == '%' && i + 2 < v.size()) {
                    out += static_cast<char>(std::stoi(v.substr(i + 1, 2), nullptr, 16));
                    i += 2;
                } else if (v[i] == '+') {
                    out += ' ';
                } else {
                    out += v[i];
                }
            }
            return out;
        }
        pos = amp + 1;
    }
    return std::nullopt;
}

} // namespace strata::testsupport
