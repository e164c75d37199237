#pragma once

#include "connectors/http/transport.h"

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace strata::testsupport {

/// Scripted IHttpTransport (the FakeQNAM pattern): responses are queued per method + URL path
/// (query ignored) and consumed in order. An unscripted request yields a Transport error that
/// names it, so a test fails loudly instead of hanging. Thread-safe.
class FakeTransport final : public http::IHttpTransport
{
public:
    using Override = std::function<std::optional<connectors::Result<http::HttpResponse>>(const http::HttpRequest &)>;

    /// Queue a response for `method` `path` (path only, e.g. "/api/storage/volumes").
    void enqueue(http::Method method, const std::string &path, connectors::Result<http::HttpResponse> response);
    /// Queue a JSON 200 (or `status`) response.
    void enqueueJson(http::Method method, const std::string &path, std::string body, int status = 200);
    /// Queue a transport error of `kind`.
    void enqueueError(http::Method method,
                      const std::string &path,
                      connectors::Error::Kind kind,
                      std::string message = "scripted failure");
    /// The next matching request blocks until its CancelToken fires, then returns Cancelled.
    void enqueueHang(http::Method method, const std::string &path);
    /// The next matching response is delivered after `delay`.
    void enqueueDelayed(http::Method method,
                        const std::string &path,
                        std::chrono::milliseconds delay,
                        connectors::Result<http::HttpResponse> response);
    /// Consulted before the queues; return nullopt to fall through.
    void setOverride(Override override);

    connectors::Result<http::HttpResponse> send(const http::HttpRequest &request,
                                                const http::CancelToken &cancel) override;

    [[nodiscard]] int requestCount() const;
    [[nodiscard]] std::vector<http::HttpRequest> requests() const;
    /// Requests whose path equals `path`.
    [[nodiscard]] int requestCount(http::Method method, const std::string &path) const;
    /// Number of scripted responses not consumed yet.
    [[nodiscard]] std::size_t pending() const;

    /// "/api/x" from "https://host:1/api/x?y=z".
    static std::string pathOf(const std::string &url);
    /// Decoded value of query parameter `key` in `url`, or nullopt.
    static std::optional<std::string> queryParam(const std::string &url, const std::string &key);

private:
    struct Scripted
    {
        connectors::Result<http::HttpResponse> response;
        std::chrono::milliseconds delay{0};
        bool hang = false;
    };
    mutable std::mutex m_mutex;
    std::map<std::pair<http::Method, std::string>, std::deque<Scripted>> m_queues;
    std::vector<http::HttpRequest> m_requests;
    Override m_override;
};

} // namespace strata::testsupport
