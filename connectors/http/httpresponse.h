#pragma once

#include "connectors/http/httprequest.h"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace strata::http {

struct HttpResponse
{
    int status = 0;
    Headers headers; ///< names as received, lookup via header()
    std::string body;
    /// Wall time from sending to the last body byte.
    std::chrono::milliseconds elapsed{0};

    [[nodiscard]] std::optional<std::string> header(std::string_view name) const { return findHeader(headers, name); }
    [[nodiscard]] bool isSuccess() const { return status >= 200 && status < 300; }

    static HttpResponse withStatus(int status, std::string body = {}, Headers headers = {});
};

/// Parses Retry-After (delta-seconds or IMF-fixdate HTTP-date) into whole seconds to wait from
/// now (a date in the past gives 0). Returns -1 when absent or unparseable.
int parseRetryAfter(const std::optional<std::string> &value);
/// As above, with an explicit "now" for HTTP-dates (tests).
int parseRetryAfter(const std::optional<std::string> &value, std::chrono::system_clock::time_point now);

/// `text` without leading and trailing spaces, tabs, CR and LF (header lines and values).
std::string_view trimHttpSpace(std::string_view text);

} // namespace strata::http
