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

} // namespace strata::sim
