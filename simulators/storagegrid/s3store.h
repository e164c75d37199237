#pragma once

// The StorageGRID simulator's object store: buckets, versioned objects, listings and usage. The S3
// endpoint serves it over HTTP; other simulators (the cache loader runner of the Kubernetes
// simulator) and tests use it in-process. Every member function is thread-safe (one internal
// mutex); nothing here is Qt.

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace strata::sim::storagegrid {

/// Bucket versioning state as GetBucketVersioning reports it (Never = no <Status> element).
enum class VersioningState
{
    Never,
    Enabled,
    Suspended,
};

/// Where an object's bytes come from: literal bytes, or `size` bytes generated on demand from
/// `seed` (deterministic, random access, so large datasets cost no memory). `textual` generated
/// content looks like CSV (digits, commas, newlines); otherwise it is binary.
struct ObjectContent
{
    std::shared_ptr<const std::string> literal; ///< set for literal content
    std::uint64_t seed = 0;                     ///< generated content only
    std::int64_t size = 0;                      ///< bytes, >= 0
    bool textual = false;

    static ObjectContent bytes(std::string data);
    static ObjectContent generated(std::uint64_t seed, std::int64_t size, bool textual);
    /// Bytes [offset, offset + length) clipped to the content (empty when offset >= size).
    [[nodiscard]] std::string read(std::int64_t offset, std::int64_t length) const;
    /// Same identity (literal bytes equal, or same seed/size/kind).
    [[nodiscard]] bool sameAs(const ObjectContent &other) const;
};

/// One version of an object (or a delete marker) as the S3 API reports it.
struct StoredObject
{
    std::string bucket;
    std::string key;
    /// "null" for objects written while versioning was never enabled or suspended; else an
    /// opaque 32-character id. Never empty.
    std::string versionId;
    bool isLatest = true;
    bool deleteMarker = false;
    std::int64_t size = 0;       ///< bytes (0 for delete markers)
    std::string etag;            ///< lower-case hex MD5 of the bytes, no quotes (empty for markers)
    std::int64_t modifiedMs = 0; ///< Unix epoch milliseconds
    std::string contentType;     ///< "application/octet-stream" unless given
    ObjectContent content;       ///< the bytes (read with content.read())

    /// "2026-06-01T10:00:00.000Z" (ListObjects' LastModified form).
    [[nodiscard]] std::string lastModifiedIso() const;
    /// Whole body (fine for small objects; use content.read for ranges).
    [[nodiscard]] std::string body() const { return content.read(0, content.size); }
};

/// Result of a write.
struct PutResult
{
    std::string etag;      ///< hex MD5, no quotes
    std::string versionId; ///< "null" when the bucket is not versioning-enabled
};

/// One bucket's description and usage (every version counts, delete markers do not).
struct BucketInfo
{
    std::string name;
    std::string ownerAccountId; ///< the 20-digit tenant account id
    std::string region = "us-east-1";
    std::int64_t creationMs = 0;
    VersioningState versioning = VersioningState::Never;
    std::int64_t objectCount = 0;       ///< object versions stored (not delete markers)
    std::int64_t dataBytes = 0;         ///< their bytes
    std::int64_t currentObjects = 0;    ///< latest, non-deleted objects
    std::int64_t currentBytes = 0;      ///< their bytes
    std::int64_t quotaObjectBytes = -1; ///< -1 = no quota
};

/// A listing: ListObjectsV2 / ListObjects / ListObjectVersions semantics.
struct ListQuery
{
    std::string prefix;
    std::string delimiter;
    std::string startAfter;      ///< exclusive; also the V1 marker and the continuation position
    std::string keyMarker;       ///< versions listing: resume after this key ...
    std::string versionIdMarker; ///< ... and this version of it
    int maxKeys = 1000;          ///< 0..1000 (values above are clamped to 1000)
};

struct ListResult
{
    std::vector<StoredObject> objects; ///< latest non-deleted versions, or every version
    std::vector<std::string> commonPrefixes;
    bool truncated = false;
    std::string nextMarker;          ///< last key or prefix returned (resume after it)
    std::string nextKeyMarker;       ///< versions listing
    std::string nextVersionIdMarker; ///< versions listing
};

/// S3 error codes the store reports (the S3 endpoint maps them to status + XML).
enum class StoreError
{
    None,
    NoSuchBucket,
    NoSuchKey,
    NoSuchVersion,
    BucketAlreadyExists,
    BucketNotEmpty,
    InvalidBucketName,
    MethodNotAllowed, ///< GET of a delete marker by version id
};

/// Thread-safe in-process S3 object store.
class S3Store
{
public:
    /// `clockMs` gives "now" in Unix epoch milliseconds (default: the system clock).
    explicit S3Store(std::function<std::int64_t()> clockMs = {});
    ~S3Store();
    S3Store(const S3Store &) = delete;
    S3Store &operator=(const S3Store &) = delete;

    // ---- buckets ---------------------------------------------------------------------------
    /// 3..63 characters of [a-z0-9.-], starting and ending with a letter or digit.
    static bool isValidBucketName(const std::string &name);
    StoreError
    createBucket(const std::string &bucket, const std::string &ownerAccountId, const std::string &region = "us-east-1");
    /// Removes the bucket; with `force` also its objects (tests: "bucket gone").
    StoreError deleteBucket(const std::string &bucket, bool force = false);
    /// `withUsage` false: the usage counters stay 0, in O(log buckets) instead of a walk over
    /// every object version (what an S3 request checks is the owner, region and versioning).
    [[nodiscard]] std::optional<BucketInfo> bucket(const std::string &bucket, bool withUsage = true) const;
    /// All buckets sorted by name; `ownerAccountId` empty = every tenant's.
    [[nodiscard]] std::vector<BucketInfo> buckets(const std::string &ownerAccountId = {}) const;
    /// Enabled or Suspended (Never cannot be set back). NoSuchBucket when absent.
    StoreError setVersioning(const std::string &bucket, bool enabled);

    // ---- objects ---------------------------------------------------------------------------
    /// Writes a new version (versioning enabled) or replaces the "null" version.
    std::optional<PutResult> putObject(const std::string &bucket,
                                       const std::string &key,
                                       std::string body,
                                       const std::string &contentType = "application/octet-stream",
                                       StoreError *error = nullptr);
    /// Same with generated or shared content. The ETag of generated content is computed lazily,
    /// on first use (head/get/list), once per distinct content (seed, size, kind); the returned
    /// PutResult::etag is then empty.
    std::optional<PutResult> putContent(const std::string &bucket,
                                        const std::string &key,
                                        ObjectContent content,
                                        const std::string &contentType = "application/octet-stream",
                                        StoreError *error = nullptr);
    /// The latest version (`versionId` empty) or that version; nullopt with `error` set when the
    /// bucket, key or version does not exist or the latest version is a delete marker
    /// (NoSuchKey), or the version asked for is a delete marker (MethodNotAllowed; the marker is
    /// still returned through `marker` when given).
    [[nodiscard]] std::optional<StoredObject> head(const std::string &bucket,
                                                   const std::string &key,
                                                   const std::string &versionId = {},
                                                   StoreError *error = nullptr,
                                                   StoredObject *marker = nullptr) const;
    /// The latest version's content without computing its ETag (nullopt when absent or deleted).
    [[nodiscard]] std::optional<ObjectContent> latestContent(const std::string &bucket, const std::string &key) const;
    /// Same as head(); the bytes are in the returned object's `content`.
    [[nodiscard]] std::optional<StoredObject> get(const std::string &bucket,
                                                  const std::string &key,
                                                  const std::string &versionId = {},
                                                  StoreError *error = nullptr) const
    {
        return head(bucket, key, versionId, error);
    }
    /// Without `versionId`: versioned buckets get a delete marker (returned with its id),
    /// unversioned ones lose the object. With `versionId`: that version is removed for good.
    /// Deleting a missing key succeeds (S3 semantics). `*deleteMarker` says whether a marker was made (or, by version
    /// id, removed).
    StoreError deleteObject(const std::string &bucket,
                            const std::string &key,
                            const std::string &versionId = {},
                            std::string *resultVersionId = nullptr,
                            bool *deleteMarker = nullptr);

    // ---- listings --------------------------------------------------------------------------
    /// Latest non-deleted objects in key order (ListObjectsV2/V1).
    ListResult list(const std::string &bucket, const ListQuery &query, StoreError *error = nullptr) const;
    /// Every version and delete marker, key order then newest first (ListObjectVersions).
    ListResult listVersions(const std::string &bucket, const ListQuery &query, StoreError *error = nullptr) const;

    /// Keys under `prefix` whose latest version is an object (not a delete marker), in key order,
    /// without computing any ETag (for the simulator's own bookkeeping, not an S3 operation).
    [[nodiscard]] std::vector<std::string> latestKeys(const std::string &bucket, const std::string &prefix) const;

    /// Requests served through the S3 endpoint per operation name ("GetObject", ...), for tests.
    void countOperation(const std::string &operation);
    [[nodiscard]] std::map<std::string, int> operationCounts() const;
    /// Bytes of generated content read so far to compute ETags (each distinct content at most
    /// once; contents with a precomputedEtag() cost none), for tests.
    [[nodiscard]] std::int64_t generatedBytesHashed() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// Hex MD5 of `data` (OpenSSL).
std::string md5Hex(const std::string &data);

/// One generated content whose ETag is known ahead of time.
struct PrecomputedEtag
{
    std::uint64_t seed = 0;
    std::int64_t size = 0;
    bool textual = false;
    const char *md5 = ""; ///< lower-case hex MD5 of the content's bytes
};

/// The ETags of the datalake preset's generated contents (every revision of its six datasets and
/// the sentiment results, for the default seed), sorted by (seed, size, textual): the demo lists
/// them all at start-up to commit each revision, and hashing their 470 MB each time would cost a
/// second. Generated into presetetags.inc by the test DatalakePresetEtags, which also checks every
/// entry against the MD5 of the bytes.
const std::vector<PrecomputedEtag> &precomputedEtags();
/// The entry of precomputedEtags() for `content` (same seed, size and kind), or nullptr (literal
/// content, another seed, or a content the table does not hold).
const PrecomputedEtag *precomputedEtag(const ObjectContent &content);

} // namespace strata::sim::storagegrid
