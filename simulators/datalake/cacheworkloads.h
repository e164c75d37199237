#pragma once

// The cache loader and evictor of cached commits, as the Kubernetes simulator runs them: native
// SimWorkloads that speak the loader protocol of packaging/cache-loader/loader.py (one JSON object
// per pod log line) and move bytes between the StorageGRID simulator's object store and an ONTAP
// simulator volume. Plain C++ apart from the simulators' Qt types at the edges.

#include "simulators/kubernetes/kubesimulator.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace strata::sim::storagegrid {
class S3Store;
}

namespace strata::sim::datalake {

/// One object of a commit manifest (format strata.commit/1).
struct ManifestObject
{
    std::string key; ///< full object key
    std::int64_t size = 0;
    std::string etag;      ///< no quotes
    std::string versionId; ///< empty = latest
};

/// A parsed manifest: header fields the loader needs and the objects in manifest order.
struct LoaderManifest
{
    std::string dataset;
    std::string bucket;
    std::string prefix;
    std::int64_t objects = 0;
    std::int64_t bytes = 0;
    std::vector<ManifestObject> entries;
};

/// Parses manifest bytes (JSON Lines: the header object with "format":"strata.commit/1", then one
/// object per line with key, size, etag, version). nullopt with `error` set ("line 3: ...") when a
/// line is not a JSON object, a field has the wrong type, the format is not strata.commit/1, or
/// the header's objects/bytes do not match the entries.
std::optional<LoaderManifest> parseLoaderManifest(const std::string &bytes, std::string *error);

/// `object[key]` when `object` is an object holding `key`, else nullptr.
const nlohmann::json *jsonMember(const nlohmann::json &object, const char *key);

/// Lower-case hex SHA-256 of `data` (the commit id of a manifest).
std::string sha256Hex(const std::string &data);

/// An ONTAP volume ("svm", "volume") the cache PVC is backed by.
struct CacheVolume
{
    std::string svm;
    std::string volume;

    bool operator<(const CacheVolume &o) const { return svm != o.svm ? svm < o.svm : volume < o.volume; }
    bool operator==(const CacheVolume &) const = default;
};

/// What is on the cache volumes: per (volume, directory "<dataset>/<commit16>") the object keys
/// fully written, the bytes of a partly written one (its ".part" file) and whether the directory
/// is complete (".strata-ready"). Survives pods, so a retried loader resumes. Thread-safe.
class CacheBook
{
public:
    struct Entry
    {
        std::set<std::string> doneKeys;
        std::int64_t doneBytes = 0;
        std::string partialKey;
        std::int64_t partialBytes = 0;
        bool ready = false;

        [[nodiscard]] std::int64_t totalBytes() const { return doneBytes + partialBytes; }
    };

    /// A copy of the entry, nullopt when nothing was ever written there.
    [[nodiscard]] std::optional<Entry> entry(const CacheVolume &volume, const std::string &dir) const;
    /// Runs `fn` on the (created if needed) entry under the lock.
    void update(const CacheVolume &volume, const std::string &dir, const std::function<void(Entry &)> &fn);
    /// Removes the directory; returns the bytes it held (0 when absent).
    std::int64_t erase(const CacheVolume &volume, const std::string &dir);
    /// Directories on a volume.
    [[nodiscard]] std::vector<std::string> directories(const CacheVolume &volume) const;

private:
    mutable std::mutex m_mutex;
    std::map<std::pair<CacheVolume, std::string>, Entry> m_entries;
};

/// How workloads change the cache volume's used bytes (the ONTAP simulator, in the wiring).
/// Returns false when the change does not fit (no space); `available` = free bytes after/at it.
using SpaceChanger = std::function<bool(const CacheVolume &volume, std::int64_t deltaBytes, std::int64_t *available)>;

/// Settings shared by the loaders.
struct LoaderSettings
{
    double bytesPerSecond = 20e6; ///< copy rate per pod (simulated time)
    /// Test fault: the pod fails after copying this many objects (-1 = never). Applies to one pod.
    int failAfterObjects = -1;
};

/// The loader pod: reads the manifest named by the Job's env from the object store, checks its
/// SHA-256 against COMMIT_ID, then copies object after object at `bytesPerSecond`, verifying
/// each object's ETag (by versionId when the manifest has one) before it copies it, growing the
/// cache volume as it goes; objects already complete in the book are skipped (resume). Log:
/// progress lines each step, then ready or failed (reasons of the loader protocol).
class CacheLoaderWorkload final : public kube::SimWorkload
{
public:
    struct Config
    {
        std::string bucket;        ///< S3_BUCKET
        std::string manifestKey;   ///< MANIFEST_KEY
        std::string commitId;      ///< COMMIT_ID, 64 hex
        std::string dest;          ///< DEST, "/cache/<dataset>/<commit16>"
        std::string datasetPrefix; ///< DATASET_PREFIX
        CacheVolume volume;
    };

    CacheLoaderWorkload(Config config,
                        LoaderSettings settings,
                        const storagegrid::S3Store &store,
                        std::shared_ptr<CacheBook> book,
                        SpaceChanger space);

    kube::SimWorkloadStep step(std::chrono::milliseconds elapsed) override;

    /// The Job env of a loader Job as a Config (volume left empty); nullopt with `error` when a
    /// variable is missing.
    static std::optional<Config> configFromJob(const nlohmann::json &job, std::string *error);

private:
    kube::SimWorkloadStep fail(kube::SimWorkloadStep step, const std::string &reason);
    std::string progressLine(const char *event) const;
    bool start(kube::SimWorkloadStep &out);

    Config m_config;
    LoaderSettings m_settings;
    const storagegrid::S3Store &m_store;
    std::shared_ptr<CacheBook> m_book;
    SpaceChanger m_space;
    std::string m_dir; ///< "<dataset>/<commit16>" relative to /cache
    std::optional<LoaderManifest> m_manifest;
    std::size_t m_next = 0;          ///< next manifest entry
    std::int64_t m_currentBytes = 0; ///< bytes of entry m_next written by this pod
    bool m_currentVerified = false;
    std::int64_t m_objectsDone = 0, m_bytesDone = 0;
    int m_copiedThisPod = 0;
    double m_budget = 0; ///< bytes this pod may still copy in the current step
};

/// The evictor pod (`rm -rf /cache/<dataset>/<commit16>`): frees what the book holds for the
/// directory on the volume and exits 0 (also when there was nothing).
class CacheEvictorWorkload final : public kube::SimWorkload
{
public:
    CacheEvictorWorkload(CacheVolume volume, std::string dir, std::shared_ptr<CacheBook> book, SpaceChanger space);
    kube::SimWorkloadStep step(std::chrono::milliseconds elapsed) override;

private:
    CacheVolume m_volume;
    std::string m_dir;
    std::shared_ptr<CacheBook> m_book;
    SpaceChanger m_space;
};

} // namespace strata::sim::datalake
