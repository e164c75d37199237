#include "connectors/http/httprequest.h"

#include <algorithm>
#include <cctype>

namespace strata::http {

const char *methodName(Method method)
{
    switch (method) {
    case Method::Get:
        return "GET";
    case Method::Head:
        return "HEAD";
    case Method::Post:
        return "POST";
    case Method::Put:
        return "PUT";
    case Method::Patch:
        return "PATCH";
    case Method::Delete:
        return "DELETE";
    }
    return "GET";
}

std::optional<std::string> findHeader(const Headers &headers, std::string_view name)
{
    const auto equalsName = [name](const std::pair<std::string, std::string> &header) {
        return std::equal(header.first.begin(), header.first.end(), name.begin(), name.end(), [](char a, char b) {
            return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        });
    };
    const auto it = std::find_if(headers.begin(), headers.end(), equalsName);
    if (it == headers.end()) {
        return std::nullopt;
    }
    return it->second;
}

bool HttpRequest::isIdempotent() const
{
    if (method == Method::Get || method == Method::Head) {
        return true;
    }
    return idempotent.value_or(false);
}

} // namespace strata::http
