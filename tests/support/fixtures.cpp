#include "tests/support/fixtures.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace strata::testsupport {

std::string fixture(const std::string &relativePath)
{
    const std::string path = std::string(STRATA_FIXTURES_DIR) + "/" + relativePath;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        ADD_FAILURE() << "cannot read fixture " << path;
        return {};
    }
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

} // namespace strata::testsupport
