#pragma once

#include "connectors/dataset/manifest.h"
#include "connectors/s3/s3client.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

/// Datasets and their commits over S3 (connectors/s3): discovery under configured roots,
/// listing commits, reading headers (ranged GET) and whole manifests (verified against their
/// id), and creating a commit from a dataset's current objects. Blocking; errors as values.
namespace strata::dataset {

enum class DatasetKind
{
    Prefix, ///< a prefix in a bucket ("fraud_jun/")
    Bucket  ///< a whole bucket (prefix empty)
};

/// A dataset found under a root.
struct DatasetRef
{
    std::string name; ///< "fraud_jun" (prefix's last component) or the bucket name
    std::string bucket;
    std::string prefix; ///< "fraud_jun/" or "" for a whole bucket
    DatasetKind kind = DatasetKind::Prefix;

    bool operator==(const DatasetRef &) const = default;
};

/// A manifest object found by listCommits().
struct CommitRef
{
    std::string id;           ///< 64 hex, from the object name
    std::string key;          ///< manifest object key
    std::string lastModified; ///< ISO 8601 as the store returned it
    std::int64_t manifestBytes = 0;
};

/// Datasets named by a root (config `dataset_roots`):
/// - "bucket/*" or "bucket/sub/*": every common prefix directly below (one dataset each,
///   "<bucket>/<sub/>name/"), skipping ".strata/";
/// - "bucket": the whole bucket as one dataset;
/// - "bucket/p/" or "bucket/p": the one prefix dataset "p/".
/// Single-dataset roots are checked with a one-key listing, so a missing bucket is an error
/// (S3 NoSuchBucket) rather than an empty dataset. An empty root or bucket name: Kind::Parse.
connectors::Result<std::vector<DatasetRef>>
discoverDatasets(s3::S3Client &client, const std::string &root, const http::CancelToken &cancel = {});

/// Manifest objects under `<prefix>.strata/commits/` named `<64 hex>.jsonl`, in key order;
/// other objects there are ignored.
connectors::Result<std::vector<CommitRef>> listCommits(s3::S3Client &client,
                                                       const std::string &bucket,
                                                       const std::string &prefix,
                                                       const http::CancelToken &cancel = {});

/// The header of the manifest at `manifestKey` without its entries: a ranged GET of bytes
/// 0-1023 (a header line is ~300 bytes plus the commit message), extended 4x at a time up to
/// 1 MiB when the first line is longer (Kind::Parse "no end of the header line" beyond that).
/// Parse errors as parseHeaderLine(); a manifest cut inside its first line is "no complete first
/// line". Range GETs are standard S3 (GetObject, HTTP Range header, RFC 9110 section 14).
connectors::Result<CommitHeader> readCommitHeader(s3::S3Client &client,
                                                  const std::string &bucket,
                                                  const std::string &manifestKey,
                                                  const http::CancelToken &cancel = {});

/// Runs `task(i)` for every i in [0, count) on at most `parallel` threads, the caller's among them
/// (0 counts as 1), each index exactly once unless `cancel` is set: then no further index is
/// started. Returns when every started task has ended. `task` runs concurrently with itself.
void forEachBounded(std::size_t count,
                    std::size_t parallel,
                    const std::function<void(std::size_t)> &task,
                    const http::CancelToken &cancel = {});

/// The whole manifest, parsed; its SHA-256 must equal the id in `manifestKey`'s name
/// (Kind::Parse "... does not match its id" otherwise: the object was altered).
connectors::Result<Manifest> readManifest(s3::S3Client &client,
                                          const std::string &bucket,
                                          const std::string &manifestKey,
                                          const http::CancelToken &cancel = {});

/// The dataset's current objects as manifest entries (sorted by key): the latest non-deleted
/// version of each key with its version id when the bucket is (or was) versioned, else
/// ListObjectsV2 with empty version ids ("null" version ids become empty). Objects under
/// `<prefix>.strata/` and "directory" keys ending in '/' are left out.
connectors::Result<std::vector<ManifestEntry>> currentObjects(s3::S3Client &client,
                                                              const std::string &bucket,
                                                              const std::string &prefix,
                                                              const http::CancelToken &cancel = {});

/// Lists the dataset (currentObjects), builds the manifest with the given header fields
/// (validated first: Kind::Parse for a bad parent, time or an over-long message/author),
/// PUTs it at manifestKey(prefix, id) and returns (id, header with objects/bytes filled).
/// Creating the same commit twice writes identical bytes to the same key: harmless.
connectors::Result<std::pair<std::string, CommitHeader>> createCommit(s3::S3Client &client,
                                                                      const std::string &bucket,
                                                                      const std::string &prefix,
                                                                      const std::string &datasetName,
                                                                      const std::string &parent,
                                                                      const std::string &author,
                                                                      const std::string &message,
                                                                      const std::string &time,
                                                                      const http::CancelToken &cancel = {});

} // namespace strata::dataset
