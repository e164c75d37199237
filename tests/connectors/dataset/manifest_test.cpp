// Commit manifests: byte format, commit id, strict parsing of every line, diff.
#include "connectors/dataset/manifest.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <string>

using namespace strata;
using namespace strata::dataset;
using Kind = connectors::Error::Kind;

namespace {

CommitHeader header()
{
    CommitHeader h;
    h.dataset = "fraud_jun";
    h.bucket = "datasets";
    h.prefix = "fraud_jun/";
    h.author = "alice";
    h.message = "June fraud snapshot";
    h.time = "2026-06-01T10:00:00Z";
    return h;
}

Manifest sample()
{
    Manifest m;
    m.header = header();
    m.entries = {{"fraud_jun/part-0002.csv", 200, "bbbb", "v2"},
                 {"fraud_jun/part-0001.csv", 123, "9b2cf535f27731c974343645a3985328", ""},
                 {"fraud_jun/labels/a.json", 7, "cccc", "v7"}};
    return m;
}

const char *kHeaderLine =
    R"({"format":"strata.commit/1","dataset":"fraud_jun","bucket":"datasets","prefix":"fraud_jun/","parent":"","author":"alice","message":"June fraud snapshot","time":"2026-06-01T10:00:00Z","objects":3,"bytes":330})";

std::string withLines(const std::string &headerLine, const std::vector<std::string> &lines)
{
    std::string out = headerLine + "\n";
    for (const auto &line : lines) {
        out += line + "\n";
    }
    return out;
}

std::string entryLine(const std::string &key, long long size, const std::string &etag = "e")
{
    return R"({"key":")" + key + R"(","size":)" + std::to_string(size) + R"(,"etag":")" + etag + R"(","version":""})";
}

std::string headerWith(const std::string &field, const std::string &rawValue, int objects = 0, int bytes = 0)
{
    std::string line =
        R"({"format":"strata.commit/1","dataset":"d","bucket":"b","prefix":"d/","parent":"","author":"a","message":"m","time":"2026-06-01T10:00:00Z","objects":)"
        + std::to_string(objects) + R"(,"bytes":)" + std::to_string(bytes) + "}";
    const std::string needle = "\"" + field + "\":";
    const auto at = line.find(needle);
    if (at == std::string::npos) {
        return line;
    }
    const auto valueStart = at + needle.size();
    auto valueEnd = valueStart;
    if (line[valueStart] == '"') {
        valueEnd = line.find('"', valueStart + 1) + 1;
    } else {
        valueEnd = line.find_first_of(",}", valueStart);
    }
    return line.substr(0, valueStart) + rawValue + line.substr(valueEnd);
}

} // namespace

TEST(Manifest, Serialize_ExactBytesSortedWithCounters)
{
    const std::string bytes = serializeManifest(sample());
    const std::string expected = withLines(
        kHeaderLine,
        {R"({"key":"fraud_jun/labels/a.json","size":7,"etag":"cccc","version":"v7"})",
         R"({"key":"fraud_jun/part-0001.csv","size":123,"etag":"9b2cf535f27731c974343645a3985328","version":""})",
         R"({"key":"fraud_jun/part-0002.csv","size":200,"etag":"bbbb","version":"v2"})"});
    EXPECT_EQ(bytes, expected);
}

TEST(Manifest, Serialize_EscapesStringsAndRoundTrips)
{
    Manifest m = sample();
    m.header.message = "line1\nline2 \"quoted\" back\\slash tab\t ctrl\x01 üñí ✓";
    m.header.author = "Zoë";
    m.entries.push_back({"fraud_jun/we\"ird\\key\x7f.bin", 0, "00", ""});
    const std::string bytes = serializeManifest(m);
    EXPECT_NE(bytes.find(R"(line1\nline2 \"quoted\" back\\slash tab\t ctrl\u0001 üñí ✓)"), std::string::npos);
    // One physical line per record: the newline in the message is escaped.
    EXPECT_EQ(std::count(bytes.begin(), bytes.end(), '\n'), 5);

    const auto parsed = parseManifest(bytes);
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ(parsed->header.message, m.header.message);
    EXPECT_EQ(parsed->header.author, "Zoë");
    EXPECT_EQ(parsed->header.objects, 4);
    EXPECT_EQ(parsed->header.bytes, 330);
    ASSERT_EQ(parsed->entries.size(), 4u);
    EXPECT_EQ(parsed->entries[3].key, "fraud_jun/we\"ird\\key\x7f.bin");
    EXPECT_EQ(serializeManifest(*parsed), bytes);
}

TEST(Manifest, Serialize_ByteOrderPutsHighBytesLast)
{
    Manifest m = sample();
    m.entries = {
        {"fraud_jun/\xc3\xa9.csv", 1, "a", ""}, {"fraud_jun/z.csv", 1, "b", ""}, {"fraud_jun/Z.csv", 1, "c", ""}};
    const auto parsed = parseManifest(serializeManifest(m));
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ(parsed->entries[0].key, "fraud_jun/Z.csv");
    EXPECT_EQ(parsed->entries[1].key, "fraud_jun/z.csv");
    EXPECT_EQ(parsed->entries[2].key, "fraud_jun/\xc3\xa9.csv");
}

TEST(Manifest, CommitId_IsSha256OfTheBytes)
{
    EXPECT_EQ(commitId(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(commitId("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const std::string bytes = serializeManifest(sample());
    const std::string id = commitId(bytes);
    EXPECT_TRUE(isCommitId(id));
    EXPECT_EQ(id, commitId(serializeManifest(sample())));
    Manifest other = sample();
    other.entries[0].etag = "bbbc";
    EXPECT_NE(commitId(serializeManifest(other)), id);
    EXPECT_FALSE(isCommitId("ABC"));
    EXPECT_FALSE(isCommitId(std::string(64, 'A')));
    EXPECT_FALSE(isCommitId(std::string(63, 'a')));
}

TEST(Manifest, Keys_ForPrefixAndBucketDatasets)
{
    const std::string id(64, 'a');
    EXPECT_EQ(manifestKey("fraud_jun/", id), "fraud_jun/.strata/commits/" + id + ".jsonl");
    EXPECT_EQ(manifestKey("", id), ".strata/commits/" + id + ".jsonl");
    EXPECT_EQ(commitsPrefix("a/b/"), "a/b/.strata/commits/");
    EXPECT_EQ(metadataPrefix(""), ".strata/");
    EXPECT_EQ(isoUtcSeconds(1780308000), "2026-06-01T10:00:00Z");
}

TEST(Manifest, ParseHeaderLine_FromAPrefixOfTheManifest)
{
    const std::string bytes = serializeManifest(sample());
    const auto h = parseHeaderLine(std::string_view(bytes).substr(0, std::string(kHeaderLine).size() + 10));
    ASSERT_TRUE(h) << h.error().message;
    EXPECT_EQ(h->dataset, "fraud_jun");
    EXPECT_EQ(h->objects, 3);
    EXPECT_EQ(h->bytes, 330);
    EXPECT_EQ(h->time, "2026-06-01T10:00:00Z");

    const auto cut = parseHeaderLine(std::string_view(bytes).substr(0, 40));
    ASSERT_FALSE(cut);
    EXPECT_EQ(cut.error().kind, Kind::Parse);
    EXPECT_NE(cut.error().message.find("no complete first line in the first 40 bytes"), std::string::npos);
    EXPECT_FALSE(parseHeaderLine(""));
}

TEST(Manifest, ParseHeaderLine_RejectsBadHeaders)
{
    struct Case
    {
        std::string line;
        std::string expect;
    };
    const std::string parent = std::string(64, 'f');
    const std::vector<Case> cases = {
        {"not json", "not valid JSON"},
        {"[1,2]", "expected a JSON object"},
        {headerWith("format", "\"strata.commit/2\""), "is not strata.commit/1"},
        {headerWith("dataset", "\"\""), "dataset name is empty"},
        {headerWith("bucket", "7"), "\"bucket\" is a number"},
        {headerWith("prefix", "\"d\""), "does not end with '/'"},
        {headerWith("parent", "\"" + std::string(64, 'F') + "\""), "is not a commit id"},
        {headerWith("parent", "\"abc\""), "is not a commit id"},
        {headerWith("author", "\"" + std::string(201, 'a') + "\""), "author is 201 bytes"},
        {headerWith("message", "\"" + std::string(1001, 'm') + "\""), "message is 1001 bytes"},
        {headerWith("time", "\"2026-06-01 10:00:00\""), "is not UTC ISO 8601"},
        {headerWith("time", "\"2026-06-01T10:00:00+02:00\""), "is not UTC ISO 8601"},
        {headerWith("objects", "-1"), "\"objects\" is negative"},
        {headerWith("bytes", "1.5"), "expected a whole number"},
        {headerWith("bytes", "18446744073709551615"), "out of range"},
        {R"({"format":"strata.commit/1","dataset":"d"})", "missing \"bucket\""},
    };
    for (const Case &c : cases) {
        const auto h = parseHeaderLine(c.line + "\n");
        ASSERT_FALSE(h) << c.line;
        EXPECT_EQ(h.error().kind, Kind::Parse);
        EXPECT_NE(h.error().message.find(c.expect), std::string::npos) << c.line << " -> " << h.error().message;
    }
    EXPECT_TRUE(parseHeaderLine(headerWith("parent", "\"" + parent + "\"") + "\n"));
    EXPECT_TRUE(parseHeaderLine(headerWith("time", "\"2026-06-01T10:00:00.123Z\"") + "\n"));
}

TEST(Manifest, ParseManifest_ValidatesEveryLine)
{
    const std::string h1 = headerWith("", "", 1, 5);
    const std::string h2 = headerWith("", "", 2, 10);
    struct Case
    {
        std::string bytes;
        std::string expect;
    };
    const std::vector<Case> cases = {
        {withLines(h1, {entryLine("d/a", 5)}).substr(0, withLines(h1, {entryLine("d/a", 5)}).size() - 1), "truncated"},
        {withLines(h1, {entryLine("d/a", 5)}).substr(0, withLines(h1, {entryLine("d/a", 5)}).size() - 10), "truncated"},
        {withLines(h1, {"{\"key\":\"d/a\",\"size\":5"}), "line 2: not valid JSON"},
        {withLines(h1, {"\"d/a\""}), "line 2: a string, expected a JSON object"},
        {withLines(h1, {""}), "line 2: empty line"},
        {withLines(h1, {R"({"key":"d/a","size":"5","etag":"e","version":""})"}), "\"size\" is a string"},
        {withLines(h1, {R"({"key":"d/a","size":-5,"etag":"e","version":""})"}), "\"size\" is negative"},
        {withLines(h1, {R"({"key":"d/a","size":5,"version":""})"}), "line 2: missing \"etag\""},
        {withLines(h1, {R"({"key":"d/a","size":5,"etag":"e"})"}), "missing \"version\""},
        {withLines(h1, {R"({"key":"d/a","size":5,"etag":null,"version":""})"}), "\"etag\" is a null"},
        {withLines(h1, {entryLine("other/a", 5)}), "is not under the dataset prefix \"d/\""},
        {withLines(h1, {entryLine("d/.strata/commits/x.jsonl", 5)}), "is Strata metadata"},
        {withLines(h2, {entryLine("d/b", 5), entryLine("d/a", 5)}), "line 3: key \"d/a\" is out of order"},
        {withLines(h2, {entryLine("d/a", 5), entryLine("d/a", 5)}), "line 3: key \"d/a\" appears twice"},
        {withLines(h2, {entryLine("d/a", 5)}), "header says 2 objects, the manifest lists 1"},
        {withLines(h1, {entryLine("d/a", 6)}), "header says 5 bytes, the objects add up to 6"},
        {withLines(h1, {entryLine("d/a", 5), ""}), "line 3: empty line"},
    };
    for (const Case &c : cases) {
        const auto m = parseManifest(c.bytes);
        ASSERT_FALSE(m) << c.bytes;
        EXPECT_EQ(m.error().kind, Kind::Parse);
        EXPECT_NE(m.error().message.find(c.expect), std::string::npos) << c.bytes << " -> " << m.error().message;
    }
    const auto ok = parseManifest(withLines(h2, {entryLine("d/a", 5), entryLine("d/b", 5)}));
    ASSERT_TRUE(ok) << ok.error().message;
    EXPECT_EQ(ok->entries.size(), 2u);
    const auto empty = parseManifest(withLines(headerWith("", ""), {}));
    ASSERT_TRUE(empty) << empty.error().message;
    EXPECT_TRUE(empty->entries.empty());
}

TEST(Manifest, ParseManifest_HugeObjectCountInHeaderDoesNotReserveIt)
{
    const auto m = parseManifest(withLines(headerWith("", "", 2000000000, 0), {}));
    ASSERT_FALSE(m);
    EXPECT_NE(m.error().message.find("header says 2000000000 objects"), std::string::npos);
}

TEST(Manifest, ParseManifest_WholeBucketDataset)
{
    Manifest m = sample();
    m.header.prefix = "";
    m.entries = {{"a.csv", 1, "x", ""}, {"dir/b.csv", 2, "y", ""}};
    const auto parsed = parseManifest(serializeManifest(m));
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ(parsed->entries.size(), 2u);

    m.entries.push_back({".strata/commits/x.jsonl", 1, "z", ""});
    const auto bad = parseManifest(serializeManifest(m));
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("is Strata metadata"), std::string::npos);
}

TEST(Manifest, Diff_AddedRemovedChangedAndBytes)
{
    Manifest from = sample();
    Manifest to = sample();
    // part-0002 changed content, labels/a.json removed, part-0003 added, part-0001 gets a new
    // version id with the same content (not a change).
    to.entries = {{"fraud_jun/part-0001.csv", 123, "9b2cf535f27731c974343645a3985328", "v9"},
                  {"fraud_jun/part-0003.csv", 50, "dddd", ""},
                  {"fraud_jun/part-0002.csv", 210, "bbbx", "v3"}};
    const ManifestDiff diff = diffManifests(from, to);
    ASSERT_EQ(diff.added.size(), 1u);
    EXPECT_EQ(diff.added[0].key, "fraud_jun/part-0003.csv");
    ASSERT_EQ(diff.removed.size(), 1u);
    EXPECT_EQ(diff.removed[0].key, "fraud_jun/labels/a.json");
    ASSERT_EQ(diff.changed.size(), 1u);
    EXPECT_EQ(diff.changed[0].first.size, 200);
    EXPECT_EQ(diff.changed[0].second.size, 210);
    EXPECT_EQ(diff.unchanged, 1);
    EXPECT_EQ(diff.bytesAdded, 50);
    EXPECT_EQ(diff.bytesRemoved, 7);
    EXPECT_EQ(diff.bytesChanged, 210);

    const ManifestDiff same = diffManifests(from, from);
    EXPECT_TRUE(same.added.empty() && same.removed.empty() && same.changed.empty());
    EXPECT_EQ(same.unchanged, 3);

    const ManifestDiff fromEmpty = diffManifests(Manifest{}, to);
    EXPECT_EQ(fromEmpty.added.size(), 3u);
    EXPECT_EQ(fromEmpty.bytesAdded, 383);
    const ManifestDiff toEmpty = diffManifests(to, Manifest{});
    EXPECT_EQ(toEmpty.removed.size(), 3u);
    EXPECT_EQ(toEmpty.removed[0].key, "fraud_jun/part-0001.csv");
}

TEST(Manifest, ValidateHeader_ForWriters)
{
    EXPECT_TRUE(validateHeader(header()));
    CommitHeader h = header();
    h.message = std::string(1000, 'x');
    EXPECT_TRUE(validateHeader(h));
    h.message.push_back('x');
    EXPECT_FALSE(validateHeader(h));
    h = header();
    h.time = "yesterday";
    EXPECT_FALSE(validateHeader(h));
}

TEST(Manifest, ParseManifest_AcceptsAnyValidJsonForm)
{
    // Other writers may order keys differently, add spaces or escape characters: same result as
    // the canonical form.
    const std::string h2 = headerWith("", "", 3, 12);
    const auto parsed = parseManifest(withLines(h2,
                                                {R"({ "size": 5, "key": "d/a", "version": "", "etag": "e" })",
                                                 R"({"key":"d\/b\u00e9","size":0,"etag":"x","version":"v"})",
                                                 R"({"key":"d/c","size":7,"etag":"y","version":"w","extra":true})"}));
    ASSERT_TRUE(parsed) << parsed.error().message;
    ASSERT_EQ(parsed->entries.size(), 3u);
    EXPECT_EQ(parsed->entries[0], (ManifestEntry{"d/a", 5, "e", ""}));
    EXPECT_EQ(parsed->entries[1], (ManifestEntry{"d/b\xc3\xa9", 0, "x", "v"}));
    EXPECT_EQ(parsed->entries[2].versionId, "w");

    const auto leadingZero = parseManifest(
        withLines(headerWith("", "", 1, 5), {entryLine("d/a", 5).replace(entryLine("d/a", 5).find(":5"), 2, ":05")}));
    ASSERT_FALSE(leadingZero);
    EXPECT_NE(leadingZero.error().message.find("line 2: not valid JSON"), std::string::npos)
        << leadingZero.error().message;
}

namespace {

// 5,000 entries in a scrambled order whose keys share long prefixes and differ in high bytes,
// with every character the serializer escapes: the bytes of format 1 are pinned by their SHA-256
// below, computed with the serializer as it was before it streamed (commit eca2478).
Manifest scrambledManifest()
{
    Manifest m;
    m.header = header();
    m.header.message = "pinned \"bytes\" \\ \n\r\t\b\f\x01\x1f\x7f üñí";
    std::uint64_t state = 20260601;
    const auto next = [&state] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return state >> 33;
    };
    static const char *const oddities[] = {
        "\"", "\\", "\n", "\r", "\t", "\b", "\f", "\x01", "\x1f", "\x7f", "\xc3\xa9", "/"};
    for (int i = 0; i < 5000; ++i) {
        std::string key = "fraud_jun/shard-" + std::to_string(next() % 40) + "/part-" + std::to_string(next() % 100000);
        if (i % 7 == 0) {
            key += oddities[next() % std::size(oddities)];
        }
        key += "-" + std::to_string(i) + ".csv";
        std::string etag = std::to_string(next()) + std::to_string(next());
        std::string version = i % 3 == 0 ? std::string() : "v" + std::to_string(next());
        if (i % 11 == 0) {
            version += oddities[next() % std::size(oddities)];
        }
        m.entries.push_back({std::move(key),
                             static_cast<std::int64_t>(next() * (i % 5 == 0 ? 1000003 : 1)),
                             std::move(etag),
                             std::move(version)});
    }
    return m;
}

} // namespace

TEST(Manifest, Serialize_BytesOfFormat1ArePinned)
{
    Manifest m = scrambledManifest();
    const std::string bytes = serializeManifest(m);
    EXPECT_EQ(bytes.size(), 583473u);
    EXPECT_EQ(commitId(bytes), "67d66c25003c48e79a6a33ba4c379e9e7ef612462ce7db27d2345266f8d968a8");
    // The in-place overload writes the same bytes and leaves the entries sorted.
    EXPECT_EQ(serializeManifest(m.header, m.entries), bytes);
    EXPECT_TRUE(std::is_sorted(m.entries.begin(), m.entries.end(), [](const ManifestEntry &a, const ManifestEntry &b) {
        return std::string_view(a.key) < std::string_view(b.key);
    }));
    const auto parsed = parseManifest(bytes);
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ(parsed->entries, m.entries);
}

TEST(Manifest, WriteManifest_StreamsTheSameBytesInBoundedChunks)
{
    const Manifest m = scrambledManifest();
    const std::vector<ManifestEntry> before = m.entries;
    std::string streamed;
    std::size_t chunks = 0;
    std::size_t largest = 0;
    writeManifest(m.header, m.entries, [&](std::string_view bytes) {
        streamed.append(bytes);
        ++chunks;
        largest = std::max(largest, bytes.size());
    });
    EXPECT_EQ(streamed, serializeManifest(m));
    EXPECT_EQ(chunks, (streamed.size() + kManifestChunkBytes - 1) / kManifestChunkBytes);
    EXPECT_LE(largest, kManifestChunkBytes);
    EXPECT_EQ(m.entries, before); // the const overloads leave the order as given
    EXPECT_EQ(manifestCommitId(m.header, m.entries),
              "67d66c25003c48e79a6a33ba4c379e9e7ef612462ce7db27d2345266f8d968a8");

    // Larger than one chunk: 3,000 entries of ~300 bytes, the chunk boundary inside a key.
    Manifest big;
    big.header = header();
    for (int i = 2999; i >= 0; --i) {
        big.entries.push_back({"fraud_jun/" + std::string(250, 'k') + std::to_string(i), i, "e", ""});
    }
    std::string bigStreamed;
    chunks = 0;
    writeManifest(big.header, big.entries, [&](std::string_view bytes) {
        bigStreamed.append(bytes);
        ++chunks;
        EXPECT_LE(bytes.size(), kManifestChunkBytes);
    });
    ASSERT_GT(bigStreamed.size(), 3 * kManifestChunkBytes);
    EXPECT_EQ(chunks, (bigStreamed.size() + kManifestChunkBytes - 1) / kManifestChunkBytes);
    EXPECT_EQ(bigStreamed, serializeManifest(big));
    EXPECT_EQ(manifestCommitId(big.header, big.entries), commitId(bigStreamed));

    // Nothing to sort: an empty manifest and keys that differ only after the first 8 bytes past
    // their common prefix or only in length.
    Manifest empty;
    empty.header = header();
    std::string emptyBytes;
    writeManifest(empty.header, empty.entries, [&](std::string_view bytes) {
        emptyBytes.append(bytes);
    });
    EXPECT_EQ(emptyBytes, serializeManifest(empty));
    EXPECT_NE(emptyBytes.find("\"objects\":0,\"bytes\":0}\n"), std::string::npos);
    Manifest close;
    close.header = header();
    close.entries = {{"fraud_jun/abcdefgh2", 1, "e", ""},
                     {"fraud_jun/abcdefgh", 1, "e", ""},
                     {"fraud_jun/abcdefgh1", 1, "e", ""},
                     {std::string("fraud_jun/abcdefgh\0", 19), 1, "e", ""},
                     {"fraud_jun/abc", 1, "e", ""}};
    const auto sorted = parseManifest(serializeManifest(close));
    ASSERT_TRUE(sorted) << sorted.error().message;
    ASSERT_EQ(sorted->entries.size(), 5u);
    EXPECT_EQ(sorted->entries[0].key, "fraud_jun/abc");
    EXPECT_EQ(sorted->entries[1].key, "fraud_jun/abcdefgh");
    EXPECT_EQ(sorted->entries[2].key, std::string("fraud_jun/abcdefgh\0", 19));
    EXPECT_EQ(sorted->entries[3].key, "fraud_jun/abcdefgh1");
    EXPECT_EQ(sorted->entries[4].key, "fraud_jun/abcdefgh2");
}
