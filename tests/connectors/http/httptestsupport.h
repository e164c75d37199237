#pragma once

#include "connectors/http/retry.h"
#include "simulators/common/httpserver.h"

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

namespace strata::http::test {

/// Copies of the requests a loopback handler saw; written on the server thread, read on the test
/// thread once the client call has returned.
class SeenRequests
{
public:
    void add(const sim::Request &request)
    {
        std::lock_guard lock(m_mutex);
        m_requests.push_back(request);
    }
    [[nodiscard]] std::vector<sim::Request> all() const
    {
        std::lock_guard lock(m_mutex);
        return m_requests;
    }
    [[nodiscard]] sim::Request last() const
    {
        std::lock_guard lock(m_mutex);
        return m_requests.empty() ? sim::Request{} : m_requests.back();
    }

private:
    mutable std::mutex m_mutex;
    std::vector<sim::Request> m_requests;
};

/// A Sleeper that records the requested delays and returns at once.
class RecordingSleeper
{
public:
    [[nodiscard]] Sleeper sleeper()
    {
        return [this](std::chrono::milliseconds delay, const CancelToken &cancel) {
            std::lock_guard lock(m_mutex);
            m_delays.push_back(delay);
            return !cancel.isCancelled();
        };
    }
    [[nodiscard]] std::vector<std::chrono::milliseconds> delays() const
    {
        std::lock_guard lock(m_mutex);
        return m_delays;
    }

private:
    mutable std::mutex m_mutex;
    std::vector<std::chrono::milliseconds> m_delays;
};

/// Collects everything a transport logs.
class LogCapture
{
public:
    [[nodiscard]] LogSink sink()
    {
        return [this](LogLevel level, std::string_view line) {
            std::lock_guard lock(m_mutex);
            m_lines.emplace_back(level, std::string(line));
        };
    }
    [[nodiscard]] std::string text() const
    {
        std::lock_guard lock(m_mutex);
        std::string all;
        for (const auto &entry : m_lines) {
            all += entry.second;
            all += '\n';
        }
        return all;
    }
    [[nodiscard]] int count(LogLevel level) const
    {
        std::lock_guard lock(m_mutex);
        int n = 0;
        for (const auto &entry : m_lines) {
            n += entry.first == level ? 1 : 0;
        }
        return n;
    }

private:
    mutable std::mutex m_mutex;
    std::vector<std::pair<LogLevel, std::string>> m_lines;
};

inline std::string toStd(const QByteArray &bytes)
{
    return bytes.toStdString();
}

} // namespace strata::http::test
