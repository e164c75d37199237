#pragma once

#include "connectors/error.h"
#include "connectors/http/retry.h"
#include "connectors/http/transport.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace strata::s3 {

namespace detail {
struct S3Call; ///< one request as S3Client builds it (s3client.cpp)
}

/// Where and how to reach one S3 endpoint (StorageGRID, Ceph RGW, AWS, the simulator).
/// TLS (CA file, insecure opt-in) is the transport's business: see http::TransportOptions.
struct S3Config
{
    /// "http(s)://host[:port]", no path, no trailing slash needed.
    std::string endpoint;
    /// SigV4 signing region; StorageGRID and RGW accept "us-east-1".
    std::string region = "us-east-1";
    std::string accessKey;
    std::string secretKey; ///< never logged, never part of an error message
    /// true: "endpoint/bucket/key"; false (virtual-hosted): "scheme://bucket.host[:port]/key".
    /// Bucket names that are not valid DNS labels (dots, upper case) always go path-style.
    bool pathStyle = true;
    /// Total time for one request attempt, milliseconds (> 0).
    long timeoutMs = 30000;
    /// true: x-amz-content-sha256 is the hex SHA-256 of the body (signed payload);
    /// false: "UNSIGNED-PAYLOAD" (cheaper for large PUTs over TLS).
    bool signPayload = true;
    /// Retries of idempotent calls (all but none: every call here is idempotent) on transport
    /// errors, timeouts, 429/500/502/503/504 and S3 SlowDown/InternalError/ServiceUnavailable.
    http::RetryPolicy retry;
    /// Waits between retries; empty = real sleeping. Tests pass a recorder.
    http::Sleeper sleeper;
};

/// One object (or object version / delete marker) from a listing.
struct ObjectInfo
{
    std::string key;
    std::int64_t size = 0;    ///< bytes; 0 for delete markers
    std::string etag;         ///< without quotes; empty for delete markers
    std::string lastModified; ///< ISO 8601 as returned ("2026-06-01T10:00:00.000Z")
    std::string versionId;    ///< empty from ListObjectsV2; "null" for pre-versioning objects
    bool isLatest = true;     ///< ListObjectVersions only; always true from ListObjectsV2
    bool deleteMarker = false;
};

/// One page of ListObjectsV2 or ListObjectVersions.
struct ListPage
{
    std::vector<ObjectInfo> objects; ///< in the server's order (key, then newest version first)
    std::vector<std::string> commonPrefixes;
    bool truncated = false;
    std::string nextContinuationToken;              ///< ListObjectsV2
    std::string nextKeyMarker, nextVersionIdMarker; ///< ListObjectVersions
};

/// HEAD of one object.
struct ObjectHead
{
    std::int64_t size = 0;
    std::string etag; ///< without quotes
    std::string versionId;
    std::string lastModified; ///< HTTP date as returned ("Mon, 01 Jun 2026 10:00:00 GMT")
    std::string contentType;
};

struct PutResult
{
    std::string etag;      ///< without quotes (MD5 hex for single-part PUTs)
    std::string versionId; ///< empty when the bucket is not versioned
};

/// GetBucketVersioning: Never = the bucket was never versioned (no <Status>).
enum class Versioning
{
    Never,
    Enabled,
    Suspended
};

/// Blocking S3 client: SigV4 through libcurl, S3 XML parsed with expat. Thread-safe when the
/// transport is.
///
/// Errors (never exceptions):
/// - an S3 XML error body (<Error><Code>..</Code><Message>..</Message>) -> apiCode = Code,
///   message "S3 <Code>: <Message> (<call> <bucket>[/<key>])"; kind Auth for 401/403
///   (SignatureDoesNotMatch, InvalidAccessKeyId, AccessDenied, RequestTimeTooSkewed), else Api
///   (NoSuchBucket, NoSuchKey, ...). A body-less error (HEAD) maps the status: 404 -> Api
///   "NotFound", 403 -> Auth "AccessDenied", other -> Http (message "S3 <status> <reason> (<call>)").
/// - a 2xx body that is not well-formed XML, is truncated, or misses required elements ->
///   Kind::Parse naming the call ("ListObjectsV2 datasets: ...").
/// - SlowDown (503), InternalError (500), ServiceUnavailable, 429/502/504, timeouts and transport
///   errors are retried per S3Config::retry; the last error is returned.
class S3Client
{
public:
    S3Client(S3Config config, std::shared_ptr<http::IHttpTransport> transport);

    /// One page. maxKeys 1..1000.
    connectors::Result<ListPage> listObjectsV2(const std::string &bucket,
                                               const std::string &prefix,
                                               const std::string &delimiter = {},
                                               const std::string &continuationToken = {},
                                               int maxKeys = 1000,
                                               const http::CancelToken &cancel = {});
    /// Every page of ListObjectsV2; common prefixes (with a delimiter) go to `commonPrefixes`
    /// when non-null. A repeated continuation token ends with a Parse error (a looping server).
    connectors::Result<std::vector<ObjectInfo>> listAll(const std::string &bucket,
                                                        const std::string &prefix,
                                                        const std::string &delimiter = {},
                                                        std::vector<std::string> *commonPrefixes = nullptr,
                                                        const http::CancelToken &cancel = {});
    /// Every object under `prefix` whose key sorts after `startAfter` (ListObjectsV2 start-after,
    /// exclusive; empty = from the start), all pages, at most `maxObjects` (the listing stops
    /// early, `*truncated` set when given). Incremental readers list only what is new.
    connectors::Result<std::vector<ObjectInfo>> listAfter(const std::string &bucket,
                                                          const std::string &prefix,
                                                          const std::string &startAfter,
                                                          std::size_t maxObjects = 100000,
                                                          bool *truncated = nullptr,
                                                          const http::CancelToken &cancel = {});
    /// One page of ListObjectVersions (versions and delete markers merged in key order, newest
    /// first per key).
    connectors::Result<ListPage> listObjectVersions(const std::string &bucket,
                                                    const std::string &prefix,
                                                    const std::string &keyMarker = {},
                                                    const std::string &versionIdMarker = {},
                                                    int maxKeys = 1000,
                                                    const http::CancelToken &cancel = {});
    /// Every version and delete marker under `prefix` (delete markers flagged, not filtered).
    connectors::Result<std::vector<ObjectInfo>>
    listAllVersions(const std::string &bucket, const std::string &prefix, const http::CancelToken &cancel = {});
    connectors::Result<ObjectHead> headObject(const std::string &bucket,
                                              const std::string &key,
                                              const std::string &versionId = {},
                                              const http::CancelToken &cancel = {});
    /// The object's bytes; `range` = inclusive [first, last] byte offsets ("bytes=first-last"),
    /// a last offset past the end returns what exists; a first offset at or past the end is a 416
    /// Api error "InvalidRange"; first > last is refused before sending. Bodies are held in memory
    /// (capped by the transport's maxResponseBytes).
    connectors::Result<std::string> getObject(const std::string &bucket,
                                              const std::string &key,
                                              const std::string &versionId = {},
                                              std::optional<std::pair<std::int64_t, std::int64_t>> range = {},
                                              const http::CancelToken &cancel = {});
    connectors::Result<PutResult> putObject(const std::string &bucket,
                                            const std::string &key,
                                            std::string body,
                                            const std::string &contentType = "application/octet-stream",
                                            const http::CancelToken &cancel = {});
    /// Without versionId on a versioned bucket this adds a delete marker.
    connectors::Result<void> deleteObject(const std::string &bucket,
                                          const std::string &key,
                                          const std::string &versionId = {},
                                          const http::CancelToken &cancel = {});
    connectors::Result<Versioning> bucketVersioning(const std::string &bucket, const http::CancelToken &cancel = {});
    /// Creates a bucket in S3Config::region (LocationConstraint unless us-east-1); an existing
    /// bucket owned by the caller (BucketAlreadyOwnedByYou) counts as success.
    connectors::Result<void> createBucket(const std::string &bucket, const http::CancelToken &cancel = {});
    /// Empty bucket only (BucketNotEmpty otherwise). For tests and demo cleanup.
    connectors::Result<void> deleteBucket(const std::string &bucket, const http::CancelToken &cancel = {});
    connectors::Result<void>
    setBucketVersioning(const std::string &bucket, bool enabled, const http::CancelToken &cancel = {});
    /// ListBuckets: the caller's bucket names (connection tests).
    connectors::Result<std::vector<std::string>> listBuckets(const http::CancelToken &cancel = {});

    [[nodiscard]] const S3Config &config() const { return m_config; }
    /// URL of `key` in `bucket` (key and bucket percent-encoded, '/' kept), without a query.
    [[nodiscard]] std::string objectUrl(const std::string &bucket, const std::string &key) const;

private:
    connectors::Result<http::HttpResponse> send(const detail::S3Call &call, const http::CancelToken &cancel);
    connectors::Result<ListPage> listPageV2(const std::string &bucket,
                                            const std::string &prefix,
                                            const std::string &delimiter,
                                            const std::string &continuationToken,
                                            const std::string &startAfter,
                                            int maxKeys,
                                            const http::CancelToken &cancel);
    /// Hands every ListObjectsV2 page to `take` until the last one or until `take` returns
    /// false. A repeated continuation token ends with a Parse error (a looping server).
    connectors::Result<void> forEachPageV2(const std::string &bucket,
                                           const std::string &prefix,
                                           const std::string &delimiter,
                                           const std::string &startAfter,
                                           const std::function<bool(ListPage &page)> &take,
                                           const http::CancelToken &cancel);

    S3Config m_config;
    std::shared_ptr<http::IHttpTransport> m_transport;
};

/// Hex (lower case) SHA-256 of `data` (OpenSSL EVP).
std::string sha256Hex(std::string_view data);

/// Strips one pair of surrounding double quotes (S3 ETags come quoted; "W/" never appears).
std::string unquoteEtag(std::string_view etag);

/// S3's encoding of a key or query value (RFC 3986 unreserved pass; '/' kept when keepSlash).
std::string s3Encode(std::string_view value, bool keepSlash);

} // namespace strata::s3
