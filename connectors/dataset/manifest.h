#pragma once

#include "connectors/error.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

/// Commit manifests of S3 datasets ("strata.commit/1"): an immutable JSON Lines document stored
/// beside the data, whose SHA-256 is the commit id.
///
/// Format (UTF-8, '\n' after every line, no blank lines):
/// - line 1, the header, keys in this order:
///   {"format":"strata.commit/1","dataset":"fraud_jun","bucket":"datasets","prefix":"fraud_jun/",
///    "parent":"<64 hex or empty>","author":"alice","message":"...","time":"2026-06-01T10:00:00Z",
///    "objects":N,"bytes":B}
/// - then one line per object, sorted by key (byte order), keys unique:
///   {"key":"fraud_jun/part-0001.csv","size":123,"etag":"9b2c...","version":"<id or empty>"}
///   Keys are full object keys under `prefix`, never under `<prefix>.strata/`; ETags are stored
///   without quotes; sizes are bytes >= 0.
/// The commit id is the lower-case hex SHA-256 of the manifest bytes exactly as stored. Readers
/// verify it, so the serializer's exact byte form only matters to writers.
namespace strata::dataset {

inline constexpr std::string_view kFormat = "strata.commit/1";
/// Longest commit message and author, in UTF-8 bytes.
inline constexpr std::size_t kMaxMessageBytes = 1000;
inline constexpr std::size_t kMaxAuthorBytes = 200;

struct ManifestEntry
{
    std::string key;       ///< full object key
    std::int64_t size = 0; ///< bytes
    std::string etag;      ///< without quotes
    std::string versionId; ///< empty when the bucket is not versioned

    bool operator==(const ManifestEntry &) const = default;
};

struct CommitHeader
{
    std::string format = std::string(kFormat);
    std::string dataset; ///< dataset name, "fraud_jun"
    std::string bucket;
    std::string prefix;       ///< "fraud_jun/" (ends with '/'), empty for a whole-bucket dataset
    std::string parent;       ///< parent commit id (64 lower-case hex) or empty for the first commit
    std::string author;       ///< at most kMaxAuthorBytes
    std::string message;      ///< at most kMaxMessageBytes
    std::string time;         ///< UTC, "2026-06-01T10:00:00Z" (fractional seconds allowed)
    std::int64_t objects = 0; ///< number of entries
    std::int64_t bytes = 0;   ///< sum of the entries' sizes

    bool operator==(const CommitHeader &) const = default;
};

struct Manifest
{
    CommitHeader header;
    std::vector<ManifestEntry> entries;
};

/// Checks the header fields a writer controls: format, dataset and bucket not empty, prefix
/// empty or ending in '/', parent empty or 64 lower-case hex, author/message length, time shape.
/// Kind::Parse error naming the field.
connectors::Result<void> validateHeader(const CommitHeader &header);

/// The manifest bytes. Writes the entries in key order (without copying them: an index of 16
/// bytes per entry when they are not sorted yet) and objects/bytes from them, so the header's own
/// counters are ignored. Duplicate keys are kept as given: validate first.
std::string serializeManifest(const Manifest &m);
/// Same, sorting `entries` in place first (by key, byte order).
std::string serializeManifest(CommitHeader header, std::vector<ManifestEntry> &entries);

/// Receives a manifest's bytes in order, in pieces of at most kManifestChunkBytes.
using ManifestSink = std::function<void(std::string_view bytes)>;
inline constexpr std::size_t kManifestChunkBytes = 256 * 1024;

/// Streams exactly the bytes serializeManifest() returns to `sink`, holding at most one chunk of
/// them (plus the key-order index when `entries` are not sorted). `entries` are not modified.
void writeManifest(const CommitHeader &header, const std::vector<ManifestEntry> &entries, const ManifestSink &sink);

/// commitId(serializeManifest(header, entries)) without holding the bytes: the SHA-256 is
/// computed as writeManifest() streams them.
std::string manifestCommitId(const CommitHeader &header, const std::vector<ManifestEntry> &entries);

/// Lower-case hex SHA-256 of `manifestBytes` (64 characters).
std::string commitId(std::string_view manifestBytes);

/// True when `id` is 64 lower-case hex digits.
bool isCommitId(std::string_view id);

/// Parses the header from the start of a manifest (at least its first line, e.g. the first
/// 4096 bytes of a ranged GET). Kind::Parse when there is no complete first line, the line is
/// not a JSON object, the format is not "strata.commit/1", or a field is missing or of the
/// wrong type or fails validateHeader().
connectors::Result<CommitHeader> parseHeaderLine(std::string_view firstBytes);

/// Parses and validates a whole manifest: the header as parseHeaderLine(); every entry line a
/// JSON object with key (string, under the header's prefix, not under `<prefix>.strata/`),
/// size (integer >= 0), etag and version (strings); keys strictly increasing; a final '\n';
/// `objects` and `bytes` equal to the entries' count and sum. Kind::Parse naming the line.
connectors::Result<Manifest> parseManifest(std::string_view bytes);

struct ManifestDiff
{
    std::vector<ManifestEntry> added;   ///< in `to` only
    std::vector<ManifestEntry> removed; ///< in `from` only
    /// Same key, different size or ETag: (from, to). A new version id with the same ETag and
    /// size is the same content and not a change.
    std::vector<std::pair<ManifestEntry, ManifestEntry>> changed;
    std::int64_t unchanged = 0;    ///< entries equal in both
    std::int64_t bytesAdded = 0;   ///< sum of added sizes
    std::int64_t bytesRemoved = 0; ///< sum of removed sizes
    std::int64_t bytesChanged = 0; ///< sum of the changed entries' sizes in `to`
};

/// What changed from `from` to `to`. Entries need not be sorted (sorted copies are made when
/// they are not); each result list is in key order.
ManifestDiff diffManifests(const Manifest &from, const Manifest &to);

/// Key of a commit's manifest object: `<datasetPrefix>.strata/commits/<id>.jsonl`
/// (datasetPrefix "" for a whole-bucket dataset, else ending in '/').
std::string manifestKey(const std::string &datasetPrefix, const std::string &id);
/// `<datasetPrefix>.strata/commits/`: where listCommits() looks.
std::string commitsPrefix(const std::string &datasetPrefix);
/// `<datasetPrefix>.strata/`: objects below it are never part of a manifest.
std::string metadataPrefix(const std::string &datasetPrefix);

/// "2026-06-01T10:00:00Z" for a Unix time in seconds.
std::string isoUtcSeconds(std::int64_t unixSeconds);

} // namespace strata::dataset
