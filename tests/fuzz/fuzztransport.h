#pragma once

// A transport that answers a connector's requests from the fuzz input, so each target drives
// the connector's own parsing (envelopes, pagination, error bodies) rather than a copy of it.
//
// The input is a script of responses separated by a line "%%" ("\n%%\n"). A response that
// starts with "HTTP <status>\n" has that status and then header lines ("Name: value") up to an
// empty line; any other response is status 200 with no headers and the whole part as its body.
// A seed corpus file that is one plain fixture body therefore answers every request with it.
// Requests take the responses in order and the last one repeats; after `maxRequests` requests
// the transport fails (Kind::Transport), so polling loops end.

#include "connectors/http/transport.h"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace strata::fuzz {

inline std::vector<http::HttpResponse> splitFuzzResponses(std::string_view data)
{
    std::vector<http::HttpResponse> out;
    constexpr std::string_view separator = "\n%%\n";
    for (;;) {
        const std::size_t at = data.find(separator);
        std::string_view part = data.substr(0, at);
        http::HttpResponse response;
        response.status = 200;
        if (part.starts_with("HTTP ")) {
            std::string_view head = part.substr(5);
            const std::size_t eol = head.find('\n');
            const std::string_view statusText = head.substr(0, eol);
            int status = 0;
            const auto [end, ec] = std::from_chars(statusText.data(), statusText.data() + statusText.size(), status);
            (void)end;
            if (ec == std::errc() && status >= 100 && status <= 599) {
                response.status = status;
            }
            part = eol == std::string_view::npos ? std::string_view() : head.substr(eol + 1);
            while (!part.empty()) {
                const std::size_t lineEnd = part.find('\n');
                const std::string_view line = part.substr(0, lineEnd);
                part = lineEnd == std::string_view::npos ? std::string_view() : part.substr(lineEnd + 1);
                if (line.empty()) {
                    break;
                }
                const std::size_t colon = line.find(':');
                if (colon != std::string_view::npos) {
                    response.headers.emplace_back(std::string(http::trimHttpSpace(line.substr(0, colon))),
                                                  std::string(http::trimHttpSpace(line.substr(colon + 1))));
                }
            }
        }
        response.body = std::string(part);
        out.push_back(std::move(response));
        if (at == std::string_view::npos) {
            return out;
        }
        data.remove_prefix(at + separator.size());
    }
}

class ScriptedTransport final : public http::IHttpTransport
{
public:
    /// `chunkBytes`: stream() hands 2xx bodies over in pieces of this size (0 = one piece).
    explicit ScriptedTransport(std::string_view data, int maxRequests = 16, std::size_t chunkBytes = 0)
        : m_responses(splitFuzzResponses(data))
        , m_maxRequests(maxRequests)
        , m_chunkBytes(chunkBytes)
    {}

    connectors::Result<http::HttpResponse> send(const http::HttpRequest &, const http::CancelToken &) override
    {
        if (m_served >= m_maxRequests) {
            return connectors::fail(
                connectors::Error::make(connectors::Error::Kind::Transport, "fuzz script exhausted"));
        }
        const std::size_t index = std::min<std::size_t>(static_cast<std::size_t>(m_served), m_responses.size() - 1);
        ++m_served;
        return m_responses[index];
    }

    connectors::Result<http::HttpResponse>
    stream(const http::HttpRequest &request, const http::BodySink &onBody, const http::CancelToken &cancel) override
    {
        auto result = send(request, cancel);
        if (!result || !result->isSuccess()) {
            return result;
        }
        const std::string body = std::move(result->body);
        result->body.clear();
        const std::size_t step = m_chunkBytes == 0 ? std::max<std::size_t>(body.size(), 1) : m_chunkBytes;
        for (std::size_t at = 0; at < body.size(); at += step) {
            if (!onBody(std::string_view(body).substr(at, step))) {
                break;
            }
        }
        return result;
    }

    [[nodiscard]] int served() const { return m_served; }

private:
    std::vector<http::HttpResponse> m_responses;
    int m_maxRequests;
    std::size_t m_chunkBytes;
    int m_served = 0;
};

/// A sleeper that returns at once (retries and job polls cost no time under the fuzzer).
inline bool fuzzNoSleep(std::chrono::milliseconds, const http::CancelToken &)
{
    return true;
}

inline std::string_view fuzzBytes(const std::uint8_t *data, std::size_t size)
{
    return {reinterpret_cast<const char *>(data), size};
}

} // namespace strata::fuzz
