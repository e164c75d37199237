#pragma once

#include "connectors/http/httprequest.h"

#include <string>

namespace strata::http {

struct HttpResponse
{
    int status = 0;
    Headers headers; ///< names as received, lookup via header()
    std::string body;
    /// Wall time from sending to the last body byte.
    std::chrono::milliseconds elapsed{0};

    [[nodiscard]] std::optional<std::string> header(std::string_view name) const
    {
        return findHeader(headers, name);
    }
    [[nodiscard]] bool isSuccess() const { return status >= 200 && status < 300; }

    static HttpResponse withStatus(int status, std::string body = {}, Headers headers = {});
};

/// Parses Retry-After (delta-seconds or HTTP-date). Returns -1 when absent or unparseable.
int parseRetryAfter(const std::optional<std::string> &value);

} // namespace strata::http
