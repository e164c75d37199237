// Commit manifest benchmark: build, serialize and hash a manifest of N synthetic objects (a
// dataset of a million files), parse it back with full validation, and diff two versions of it.
// Each side holds what its production path holds (the writer its entries and bytes, the reader
// the bytes until parsed, the diff both manifests). Prints wall times and the process's peak RSS;
// figures for the notes, never pass/fail timing.
//
//   strata_manifest_bench [--objects N] [--changes PERCENT]
#include "connectors/dataset/manifest.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <sys/resource.h>

using namespace strata::dataset;
using Clock = std::chrono::steady_clock;

namespace {

long peakRssKib()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss; // KiB on Linux
}

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string hex32(std::mt19937_64 &random)
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string out(32, '0');
    for (int half = 0; half < 2; ++half) {
        std::uint64_t bits = random();
        for (int i = 0; i < 16; ++i) {
            out[half * 16 + i] = digits[bits & 0xF];
            bits >>= 4;
        }
    }
    return out;
}

void report(const char *step, double ms)
{
    std::printf("%-34s %10.1f ms   peak RSS %8.1f MiB\n", step, ms, peakRssKib() / 1024.0);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    long objects = 1'000'000;
    int changesPercent = 2;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--objects") == 0 && i + 1 < argc) {
            objects = std::strtol(argv[++i], nullptr, 10);
        } else if (std::strcmp(argv[i], "--changes") == 0 && i + 1 < argc) {
            changesPercent = std::atoi(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: %s [--objects N] [--changes PERCENT]\n", argv[0]);
            return 2;
        }
    }
    if (objects < 1 || changesPercent < 0 || changesPercent > 100) {
        std::fprintf(stderr, "--objects must be >= 1 and --changes 0..100\n");
        return 2;
    }
    std::printf("manifest benchmark: %ld objects, %d %% changed in the second commit\n", objects, changesPercent);

    std::mt19937_64 random(20260601);
    char key[96];
    std::string bytes;
    std::string id;
    {
        // The writer's side, as createCommit() holds it: the listed entries and the bytes to PUT;
        // the entries go when the commit is written.
        // Build: the entries as a listing would produce them (shuffled shard order, like pages of
        // several prefixes), ~60-byte keys, versioned.
        auto start = Clock::now();
        Manifest first;
        first.header.dataset = "bench";
        first.header.bucket = "datasets";
        first.header.prefix = "bench/";
        first.header.author = "bench";
        first.header.message = "synthetic dataset";
        first.header.time = "2026-06-01T10:00:00Z";
        first.entries.reserve(static_cast<std::size_t>(objects));
        for (long i = 0; i < objects; ++i) {
            const long shard = (i * 7919) % 1000;
            std::snprintf(key, sizeof key, "bench/shard-%04ld/part-%09ld.parquet", shard, i);
            first.entries.push_back(ManifestEntry{key,
                                                  static_cast<std::int64_t>(random() % (64u << 20)),
                                                  hex32(random),
                                                  "v" + std::to_string(random() % 100000000)});
        }
        report("build entries", msSince(start));

        start = Clock::now();
        bytes = serializeManifest(first.header, first.entries);
        report("serialize (sorts, escapes)", msSince(start));
        std::printf("  manifest size %.1f MiB\n", bytes.size() / 1048576.0);

        start = Clock::now();
        id = commitId(bytes);
        report("sha256 commit id", msSince(start));
        std::printf("  id %s\n", id.c_str());

        start = Clock::now();
        const std::string streamedId = manifestCommitId(first.header, first.entries);
        report("streamed serialize + sha256", msSince(start));
        if (streamedId != id) {
            std::fprintf(stderr, "streamed id %s differs\n", streamedId.c_str());
            return 1;
        }
    }

    // The reader's side, as readManifest() holds it: the bytes until they are parsed.
    auto start = Clock::now();
    auto parsed = parseManifest(bytes);
    if (!parsed) {
        std::fprintf(stderr, "parse failed: %s\n", parsed.error().message.c_str());
        return 1;
    }
    report("parse + validate", msSince(start));
    std::string().swap(bytes);
    if (static_cast<long>(parsed->entries.size()) != objects
        || manifestCommitId(parsed->header, parsed->entries) != id) {
        std::fprintf(stderr, "round trip mismatch\n");
        return 1;
    }

    start = Clock::now();
    const long changes = objects * changesPercent / 100;
    // Room for the added entries up front: growing a copy of a million entries would hold the
    // old and the new array at once.
    Manifest second;
    second.header = parsed->header;
    second.entries.reserve(parsed->entries.size() + static_cast<std::size_t>(changes / 2));
    second.entries.assign(parsed->entries.begin(), parsed->entries.end());
    for (long i = 0; i < changes; ++i) {
        const auto at = static_cast<std::size_t>(random() % second.entries.size());
        second.entries[at].etag = hex32(random);
        second.entries[at].size += 1;
    }
    std::vector<ManifestEntry> added;
    added.reserve(static_cast<std::size_t>(changes / 2));
    for (long i = 0; i < changes / 2; ++i) {
        std::snprintf(key, sizeof key, "bench/zz-new/part-%09ld.parquet", i);
        added.push_back(ManifestEntry{key, 1000, hex32(random), ""});
    }
    second.entries.erase(second.entries.begin(), second.entries.begin() + changes / 2);
    second.entries.insert(
        second.entries.end(), std::make_move_iterator(added.begin()), std::make_move_iterator(added.end()));
    std::vector<ManifestEntry>().swap(added);
    report("prepare second commit", msSince(start));

    start = Clock::now();
    const ManifestDiff diff = diffManifests(*parsed, second);
    report("diff", msSince(start));
    std::printf("  added %zu, removed %zu, changed %zu, unchanged %lld; bytes +%lld -%lld ~%lld\n",
                diff.added.size(),
                diff.removed.size(),
                diff.changed.size(),
                static_cast<long long>(diff.unchanged),
                static_cast<long long>(diff.bytesAdded),
                static_cast<long long>(diff.bytesRemoved),
                static_cast<long long>(diff.bytesChanged));
    std::printf("peak RSS %.1f MiB\n", peakRssKib() / 1024.0);
    return 0;
}
