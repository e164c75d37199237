// Replays fuzz targets over their seed corpora in the sanitized test build, without libFuzzer:
//   fuzz_replay TARGET CORPUS_DIR
// Each file is fed whole and cut at a third, at two thirds and one byte short of its end, so a
// parser meets the truncated bodies a dropped connection leaves. A crash, a sanitizer report or
// an abort from the target's own checks fails the test; exploring new inputs is scripts/fuzz.sh.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

// One declaration per target, each target's LLVMFuzzerTestOneInput renamed by tests/CMakeLists.txt.
#define STRATA_FUZZ_TARGET(name) extern "C" int strata_fuzz_##name(const std::uint8_t *, std::size_t);
#include "fuzz_replay_targets.inc"
#undef STRATA_FUZZ_TARGET

namespace {

using FuzzEntry = int (*)(const std::uint8_t *, std::size_t);

struct ReplayTarget
{
    std::string_view name;
    FuzzEntry entry;
};

const ReplayTarget kReplayTargets[] = {
#define STRATA_FUZZ_TARGET(name) {#name, &strata_fuzz_##name},
#include "fuzz_replay_targets.inc"
#undef STRATA_FUZZ_TARGET
};

std::vector<std::uint8_t> readFile(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s TARGET CORPUS_DIR\n", argv[0]);
        return 2;
    }
    const std::string_view wanted = argv[1];
    const auto target = std::find_if(std::begin(kReplayTargets), std::end(kReplayTargets), [&](const ReplayTarget &t) {
        return t.name == wanted;
    });
    if (target == std::end(kReplayTargets)) {
        std::fprintf(stderr, "fuzz_replay: no target %s\n", argv[1]);
        return 2;
    }
    std::vector<std::filesystem::path> files;
    for (const auto &entry : std::filesystem::directory_iterator(argv[2])) {
        if (entry.is_regular_file())
            files.push_back(entry.path());
    }
    // A corpus that vanished would otherwise pass with nothing replayed.
    if (files.empty()) {
        std::fprintf(stderr, "fuzz_replay: no inputs in %s\n", argv[2]);
        return 2;
    }
    std::sort(files.begin(), files.end());
    std::size_t runs = 0;
    for (const auto &file : files) {
        const auto bytes = readFile(file);
        const std::size_t cuts[] = {
            bytes.size(), bytes.size() / 3, bytes.size() * 2 / 3, bytes.empty() ? 0 : bytes.size() - 1};
        for (const std::size_t cut : cuts) {
            // A copy of exactly cut bytes, so ASan sees a read past the cut as one.
            const std::vector<std::uint8_t> input(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
            static const std::uint8_t noBytes = 0; // libFuzzer never passes a null pointer
            target->entry(input.empty() ? &noBytes : input.data(), input.size());
            ++runs;
        }
    }
    std::printf("fuzz_replay %s: %zu inputs, %zu runs\n", argv[1], files.size(), runs);
    return 0;
}
