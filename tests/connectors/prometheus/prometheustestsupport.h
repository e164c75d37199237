#pragma once

#include "connectors/http/curltransport.h"
#include "connectors/prometheus/client.h"
#include "simulators/common/httpserver.h"
#include "tests/support/qt/loopbackserver.h"

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace strata::prometheus::test {

using namespace std::chrono_literals;

/// What a scripted server saw of one request.
struct SeenRequest
{
    std::string method;
    std::string path;
    std::string target;
    std::string contentType;
    std::string authorization;
    std::string body;
    std::string query; ///< the `query` parameter, from the form body or the URL
    std::string time;  ///< `time`, empty when absent
    std::string start, end, step;
};

/// Records requests (thread-safe: the server thread writes, the test thread reads).
class RequestLog
{
public:
    void add(const sim::Request &request)
    {
        SeenRequest seen;
        seen.method = request.method.toStdString();
        seen.path = request.path.toStdString();
        seen.target = request.target.toStdString();
        seen.contentType = request.header("content-type").toStdString();
        seen.authorization = request.header("authorization").toStdString();
        seen.body = request.body.toStdString();
        QByteArray form = request.body;
        form.replace('+', ' ');
        const QUrlQuery body(QString::fromUtf8(form));
        const auto param = [&](const QString &key) {
            if (body.hasQueryItem(key)) {
                return body.queryItemValue(key, QUrl::FullyDecoded).toStdString();
            }
            return request.queryValue(key).toStdString();
        };
        seen.query = param(QStringLiteral("query"));
        seen.time = param(QStringLiteral("time"));
        seen.start = param(QStringLiteral("start"));
        seen.end = param(QStringLiteral("end"));
        seen.step = param(QStringLiteral("step"));
        std::lock_guard lock(m_mutex);
        m_requests.push_back(std::move(seen));
    }

    std::vector<SeenRequest> all() const
    {
        std::lock_guard lock(m_mutex);
        return m_requests;
    }

    SeenRequest last() const
    {
        std::lock_guard lock(m_mutex);
        return m_requests.empty() ? SeenRequest{} : m_requests.back();
    }

private:
    mutable std::mutex m_mutex;
    std::vector<SeenRequest> m_requests;
};

/// Client options with a recording no-op sleeper and a short retry policy.
inline http::ClientOptions clientOptions(const std::string &baseUrl, std::vector<std::chrono::milliseconds> *sleeps)
{
    http::ClientOptions options;
    options.baseUrl = baseUrl;
    options.retry = http::RetryPolicy{.maxAttempts = 3, .baseDelay = 1ms, .maxDelay = 10ms, .jitter = 0.0};
    options.sleeper = [sleeps](std::chrono::milliseconds d, const http::CancelToken &cancel) {
        if (sleeps) {
            sleeps->push_back(d);
        }
        return !cancel.isCancelled();
    };
    return options;
}

} // namespace strata::prometheus::test
