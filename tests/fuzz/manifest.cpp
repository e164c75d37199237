// Dataset commit manifests (strata.commit/1 JSON Lines, read back from S3): the header line,
// the whole manifest, and the invariant that what parses also serializes to a manifest that
// parses to the same commit.
#include "connectors/dataset/manifest.h"

#include "tests/fuzz/fuzztransport.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace strata;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view input = fuzz::fuzzBytes(data, size);
    (void)dataset::parseHeaderLine(input.substr(0, 4096));
    auto manifest = dataset::parseManifest(input);
    if (!manifest) {
        return 0;
    }
    const std::string bytes = dataset::serializeManifest(*manifest);
    auto again = dataset::parseManifest(bytes);
    if (!again) {
        std::fprintf(
            stderr, "a parsed manifest serializes to one that does not parse: %s\n", again.error().message.c_str());
        std::abort();
    }
    if (again->entries.size() != manifest->entries.size() || dataset::serializeManifest(*again) != bytes) {
        std::fprintf(stderr, "a manifest changes on a serialize/parse round trip\n");
        std::abort();
    }
    (void)dataset::diffManifests(*manifest, *again);
    return 0;
}
