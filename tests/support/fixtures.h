#pragma once

#include <string>

namespace strata::testsupport {

/// Contents of tests/fixtures/<relativePath>; fails the current test (ADD_FAILURE) and returns
/// an empty string when the file cannot be read.
std::string fixture(const std::string &relativePath);

} // namespace strata::testsupport
