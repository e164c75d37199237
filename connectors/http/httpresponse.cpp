#include "connectors/http/httpresponse.h"

#include <array>
#include <charconv>
#include <climits>

namespace strata::http {

std::string_view trimHttpSpace(std::string_view text)
{
    const auto isSpace = [](char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    };
    while (!text.empty() && isSpace(text.front())) {
        text.remove_prefix(1);
    }
    while (!text.empty() && isSpace(text.back())) {
        text.remove_suffix(1);
    }
    return text;
}

namespace {

bool parseFixedInt(std::string_view text, int &out)
{
    if (text.empty()) {
        return false;
    }
    for (const char c : text) {
        if (c < '0' || c > '9') {
            return false;
        }
    }
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc{} && ptr == text.data() + text.size();
}

// IMF-fixdate only ("Sun, 06 Nov 1994 08:49:37 GMT"): RFC 9110 requires senders to use it.
std::optional<std::chrono::system_clock::time_point> parseImfFixdate(std::string_view text)
{
    static constexpr std::array<std::string_view, 7> days{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    static constexpr std::array<std::string_view, 12> months{
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    // "Sun, 06 Nov 1994 08:49:37 GMT" is exactly 29 characters with fixed separators.
    if (text.size() != 29 || text.substr(3, 2) != ", " || text[7] != ' ' || text[11] != ' ' || text[16] != ' '
        || text[19] != ':' || text[22] != ':' || text.substr(25) != " GMT") {
        return std::nullopt;
    }
    bool knownDay = false;
    for (const auto day : days) {
        knownDay = knownDay || text.substr(0, 3) == day;
    }
    unsigned monthIndex = 0;
    while (monthIndex < months.size() && months[monthIndex] != text.substr(8, 3)) {
        ++monthIndex;
    }
    int day = 0;
    int year = 0;
    int hour = 0;
    int minute = 0;
    int second = 0;
    if (!knownDay || monthIndex == months.size() || !parseFixedInt(text.substr(5, 2), day)
        || !parseFixedInt(text.substr(12, 4), year) || !parseFixedInt(text.substr(17, 2), hour)
        || !parseFixedInt(text.substr(20, 2), minute) || !parseFixedInt(text.substr(23, 2), second) || hour > 23
        || minute > 59 || second > 60) {
        return std::nullopt;
    }
    const std::chrono::year_month_day date{
        std::chrono::year{year}, std::chrono::month{monthIndex + 1}, std::chrono::day{static_cast<unsigned>(day)}};
    if (!date.ok()) {
        return std::nullopt;
    }
    return std::chrono::sys_days{date} + std::chrono::hours{hour} + std::chrono::minutes{minute}
           + std::chrono::seconds{second};
}

} // namespace

HttpResponse HttpResponse::withStatus(int status, std::string body, Headers headers)
{
    HttpResponse response;
    response.status = status;
    response.body = std::move(body);
    response.headers = std::move(headers);
    return response;
}

int parseRetryAfter(const std::optional<std::string> &value)
{
    return parseRetryAfter(value, std::chrono::system_clock::now());
}

int parseRetryAfter(const std::optional<std::string> &value, std::chrono::system_clock::time_point now)
{
    if (!value) {
        return -1;
    }
    const std::string_view text = trimHttpSpace(*value);
    if (!text.empty() && text.front() >= '0' && text.front() <= '9') {
        long long seconds = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
        if (ptr != text.data() + text.size()) {
            return -1;
        }
        if (ec == std::errc::result_out_of_range || seconds > INT_MAX) {
            return INT_MAX;
        }
        return ec == std::errc{} ? static_cast<int>(seconds) : -1;
    }
    const auto when = parseImfFixdate(text);
    if (!when) {
        return -1;
    }
    if (*when <= now) {
        return 0;
    }
    // Round up: waiting a fraction of a second too little would defeat the point.
    const auto wait = std::chrono::ceil<std::chrono::seconds>(*when - now).count();
    return wait > INT_MAX ? INT_MAX : static_cast<int>(wait);
}

} // namespace strata::http
