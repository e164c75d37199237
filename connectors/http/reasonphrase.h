#pragma once

#include <string_view>

namespace strata::http {

/// The reason phrase of HTTP status `status` ("Not Found" for 404), or an empty view for a status
/// the table does not list (callers choose their own fallback). The phrases are RFC 9110's, except
/// 413, which keeps its RFC 7231 name "Payload Too Large" that clients and logs still show.
/// Header-only and free of Qt, so the web front end can answer with the same words.
constexpr std::string_view reasonPhrase(int status)
{
    struct Entry
    {
        int status;
        std::string_view phrase;
    };
    constexpr Entry kPhrases[] = {
        {100, "Continue"},
        {200, "OK"},
        {201, "Created"},
        {202, "Accepted"},
        {204, "No Content"},
        {206, "Partial Content"},
        {304, "Not Modified"},
        {400, "Bad Request"},
        {401, "Unauthorized"},
        {403, "Forbidden"},
        {404, "Not Found"},
        {405, "Method Not Allowed"},
        {408, "Request Timeout"},
        {409, "Conflict"},
        {410, "Gone"},
        {412, "Precondition Failed"},
        {413, "Payload Too Large"},
        {414, "URI Too Long"},
        {416, "Range Not Satisfiable"},
        {421, "Misdirected Request"},
        {422, "Unprocessable Entity"},
        {429, "Too Many Requests"},
        {431, "Request Header Fields Too Large"},
        {500, "Internal Server Error"},
        {501, "Not Implemented"},
        {502, "Bad Gateway"},
        {503, "Service Unavailable"},
        {504, "Gateway Timeout"},
    };
    for (const Entry &entry : kPhrases) {
        if (entry.status == status) {
            return entry.phrase;
        }
    }
    return {};
}

} // namespace strata::http
