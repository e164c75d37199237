#pragma once

#include <string>

namespace strata::sim {

/// `s` without its leading and trailing spaces and tabs: the optional white space around
/// Kubernetes selector terms and SigV4 header values (other characters are kept as they are).
inline std::string trimBlanks(const std::string &s)
{
    const auto begin = s.find_first_not_of(" \t");
    if (begin == std::string::npos) {
        return {};
    }
    const auto end = s.find_last_not_of(" \t");
    return s.substr(begin, end - begin + 1);
}

/// Appends to `out` (std::string or QByteArray) the JSON string escape of `c`, a byte that cannot
/// stand as it is inside a JSON string (below 0x20, '"' or '\\'): '"', '\\', \n, \r and \t as
/// two-character escapes, \b and \f too when `shortBackspaceFormFeed` (what nlohmann::json
/// writes), the other control bytes as \u00xx with lower-case hex digits.
template <typename Out> void appendJsonEscape(Out &out, unsigned char c, bool shortBackspaceFormFeed)
{
    static constexpr char Hex[] = "0123456789abcdef";
    switch (c) {
    case '"':
        out += "\\\"";
        return;
    case '\\':
        out += "\\\\";
        return;
    case '\n':
        out += "\\n";
        return;
    case '\r':
        out += "\\r";
        return;
    case '\t':
        out += "\\t";
        return;
    case '\b':
    case '\f':
        if (shortBackspaceFormFeed) {
            out += c == '\b' ? "\\b" : "\\f";
            return;
        }
        break;
    default:
        break;
    }
    out += "\\u00";
    out += Hex[c >> 4];
    out += Hex[c & 15];
}

} // namespace strata::sim
