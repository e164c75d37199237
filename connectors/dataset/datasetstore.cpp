#include "connectors/dataset/datasetstore.h"

#include <algorithm>
#include <atomic>
#include <system_error>
#include <thread>

namespace strata::dataset {

using connectors::Result;
using Kind = connectors::Error::Kind;

namespace {

// The first ranged GET (S3 GetObject with a Range header, AWS S3 API reference "GetObject";
// StorageGRID implements it as S3 does): a header line is ~300 bytes plus the commit message.
constexpr std::int64_t kHeaderRange = 1024;
constexpr std::int64_t kMaxHeaderBytes = 1024 * 1024;

std::string lastComponent(std::string_view prefix)
{
    while (!prefix.empty() && prefix.back() == '/') {
        prefix.remove_suffix(1);
    }
    const auto slash = prefix.rfind('/');
    return std::string(slash == std::string_view::npos ? prefix : prefix.substr(slash + 1));
}

// The id part of "<prefix>.strata/commits/<id>.jsonl", or "" when the key is not a manifest.
std::string idFromKey(std::string_view key)
{
    const auto slash = key.rfind('/');
    std::string_view name = slash == std::string_view::npos ? key : key.substr(slash + 1);
    constexpr std::string_view suffix = ".jsonl";
    if (name.size() != 64 + suffix.size() || name.substr(64) != suffix) {
        return {};
    }
    name = name.substr(0, 64);
    return isCommitId(name) ? std::string(name) : std::string();
}

} // namespace

Result<std::vector<DatasetRef>>
discoverDatasets(s3::S3Client &client, const std::string &root, const http::CancelToken &cancel)
{
    const auto slash = root.find('/');
    const std::string bucket = root.substr(0, slash);
    if (bucket.empty()) {
        return connectors::failParse("dataset root \"" + root + "\" names no bucket");
    }
    std::string rest = slash == std::string::npos ? std::string() : root.substr(slash + 1);
    std::vector<DatasetRef> out;
    if (rest == "*" || (rest.size() > 2 && rest.compare(rest.size() - 2, 2, "/*") == 0)) {
        const std::string parent = rest.substr(0, rest.size() - 1); // "" or "sub/"
        std::vector<std::string> prefixes;
        auto listed = client.listAll(bucket, parent, "/", &prefixes, cancel);
        if (!listed) {
            return connectors::fail(listed.error());
        }
        std::sort(prefixes.begin(), prefixes.end());
        for (const std::string &prefix : prefixes) {
            if (prefix == metadataPrefix(parent)) {
                continue;
            }
            out.push_back(DatasetRef{lastComponent(prefix), bucket, prefix, DatasetKind::Prefix});
        }
        return out;
    }
    if (!rest.empty() && rest.back() != '/') {
        rest.push_back('/');
    }
    if (rest.find('*') != std::string::npos) {
        return connectors::failParse("dataset root \"" + root + "\": '*' is only allowed as the last component");
    }
    auto probe = client.listObjectsV2(bucket, rest, {}, {}, 1, cancel);
    if (!probe) {
        return connectors::fail(probe.error());
    }
    if (rest.empty()) {
        out.push_back(DatasetRef{bucket, bucket, {}, DatasetKind::Bucket});
    } else {
        out.push_back(DatasetRef{lastComponent(rest), bucket, rest, DatasetKind::Prefix});
    }
    return out;
}

Result<std::vector<CommitRef>>
listCommits(s3::S3Client &client, const std::string &bucket, const std::string &prefix, const http::CancelToken &cancel)
{
    const std::string commits = commitsPrefix(prefix);
    auto objects = client.listAll(bucket, commits, {}, nullptr, cancel);
    if (!objects) {
        return connectors::fail(objects.error());
    }
    std::vector<CommitRef> out;
    for (const s3::ObjectInfo &object : *objects) {
        // Only direct children: a nested "x/<id>.jsonl" is not one of this dataset's commits.
        if (object.key.find('/', commits.size()) != std::string::npos) {
            continue;
        }
        std::string id = idFromKey(object.key);
        if (id.empty()) {
            continue;
        }
        out.push_back(CommitRef{std::move(id), object.key, object.lastModified, object.size});
    }
    std::sort(out.begin(), out.end(), [](const CommitRef &a, const CommitRef &b) {
        return a.key < b.key;
    });
    return out;
}

Result<CommitHeader> readCommitHeader(s3::S3Client &client,
                                      const std::string &bucket,
                                      const std::string &manifestKey,
                                      const http::CancelToken &cancel)
{
    std::string head;
    std::int64_t want = kHeaderRange;
    for (;;) {
        const auto first = static_cast<std::int64_t>(head.size());
        auto bytes = client.getObject(bucket, manifestKey, {}, std::make_pair(first, want - 1), cancel);
        if (!bytes && !head.empty() && bytes.error().apiCode == "InvalidRange") {
            break; // the object ended exactly at the previous range
        }
        if (!bytes) {
            return connectors::fail(bytes.error());
        }
        const bool shortRead = static_cast<std::int64_t>(bytes->size()) < want - first;
        head += *bytes;
        if (head.find('\n') != std::string::npos || shortRead || bytes->empty()) {
            break;
        }
        if (want >= kMaxHeaderBytes) {
            return connectors::failParse("commit manifest " + manifestKey + ": no end of the header line in the first "
                                         + std::to_string(head.size()) + " bytes");
        }
        want = std::min(want * 4, kMaxHeaderBytes);
    }
    auto header = parseHeaderLine(head);
    if (!header) {
        connectors::Error error = header.error();
        error.message = manifestKey + ": " + error.message;
        return connectors::fail(std::move(error));
    }
    return header;
}

void forEachBounded(std::size_t count,
                    std::size_t parallel,
                    const std::function<void(std::size_t)> &task,
                    const http::CancelToken &cancel)
{
    std::atomic<std::size_t> next{0};
    const auto worker = [&] {
        for (std::size_t i = next++; i < count && !cancel.isCancelled(); i = next++) {
            task(i);
        }
    };
    const std::size_t threads = std::min(std::max<std::size_t>(parallel, 1), count);
    std::vector<std::thread> helpers;
    helpers.reserve(threads > 0 ? threads - 1 : 0);
    for (std::size_t t = 1; t < threads; ++t) {
        try {
            helpers.emplace_back(worker);
        } catch (const std::system_error &) {
            break; // no thread to be had: fewer workers (at least this one) do the same work
        }
    }
    worker();
    for (std::thread &helper : helpers) {
        helper.join();
    }
}

Result<Manifest> readManifest(s3::S3Client &client,
                              const std::string &bucket,
                              const std::string &manifestKey,
                              const http::CancelToken &cancel)
{
    const std::string id = idFromKey(manifestKey);
    if (id.empty()) {
        return connectors::failParse("\"" + manifestKey
                                     + "\" is not a commit manifest key (<prefix>.strata/commits/<id>.jsonl)");
    }
    auto bytes = client.getObject(bucket, manifestKey, {}, std::nullopt, cancel);
    if (!bytes) {
        return connectors::fail(bytes.error());
    }
    const std::string actual = commitId(*bytes);
    if (actual != id) {
        return connectors::failParse("commit manifest " + manifestKey + " does not match its id (its SHA-256 is "
                                     + actual + "): it was altered after the commit");
    }
    auto manifest = parseManifest(*bytes);
    if (!manifest) {
        connectors::Error error = manifest.error();
        error.message = manifestKey + ": " + error.message;
        return connectors::fail(std::move(error));
    }
    return manifest;
}

Result<std::vector<ManifestEntry>> currentObjects(s3::S3Client &client,
                                                  const std::string &bucket,
                                                  const std::string &prefix,
                                                  const http::CancelToken &cancel)
{
    auto versioning = client.bucketVersioning(bucket, cancel);
    if (!versioning) {
        return connectors::fail(versioning.error());
    }
    const std::string metadata = metadataPrefix(prefix);
    const auto keep = [&metadata](const s3::ObjectInfo &o) {
        return !o.deleteMarker && o.isLatest && !o.key.empty() && o.key.back() != '/'
               && o.key.compare(0, metadata.size(), metadata) != 0;
    };
    auto objects = *versioning == s3::Versioning::Never ? client.listAll(bucket, prefix, {}, nullptr, cancel)
                                                        : client.listAllVersions(bucket, prefix, cancel);
    if (!objects) {
        return connectors::fail(objects.error());
    }
    std::vector<ManifestEntry> entries;
    entries.reserve(objects->size());
    for (s3::ObjectInfo &o : *objects) {
        if (!keep(o)) {
            continue;
        }
        entries.push_back(ManifestEntry{std::move(o.key),
                                        o.size,
                                        std::move(o.etag),
                                        o.versionId == "null" ? std::string() : std::move(o.versionId)});
    }
    std::sort(entries.begin(), entries.end(), [](const ManifestEntry &a, const ManifestEntry &b) {
        return std::string_view(a.key) < std::string_view(b.key);
    });
    // A listing that repeats a key (a store answering inconsistently while paging) would make a
    // manifest that fails its own parser: keep the first.
    entries.erase(std::unique(entries.begin(),
                              entries.end(),
                              [](const ManifestEntry &a, const ManifestEntry &b) {
                                  return a.key == b.key;
                              }),
                  entries.end());
    return entries;
}

Result<std::pair<std::string, CommitHeader>> createCommit(s3::S3Client &client,
                                                          const std::string &bucket,
                                                          const std::string &prefix,
                                                          const std::string &datasetName,
                                                          const std::string &parent,
                                                          const std::string &author,
                                                          const std::string &message,
                                                          const std::string &time,
                                                          const http::CancelToken &cancel)
{
    CommitHeader header;
    header.dataset = datasetName;
    header.bucket = bucket;
    header.prefix = prefix;
    header.parent = parent;
    header.author = author;
    header.message = message;
    header.time = time;
    if (auto valid = validateHeader(header); !valid) {
        return connectors::fail(valid.error());
    }
    auto entries = currentObjects(client, bucket, prefix, cancel);
    if (!entries) {
        return connectors::fail(entries.error());
    }
    std::string bytes = serializeManifest(header, *entries);
    header.objects = static_cast<std::int64_t>(entries->size());
    header.bytes = 0;
    for (const ManifestEntry &entry : *entries) {
        header.bytes += entry.size;
    }
    std::string id = commitId(bytes);
    auto put = client.putObject(bucket, manifestKey(prefix, id), std::move(bytes), "application/x-ndjson", cancel);
    if (!put) {
        return connectors::fail(put.error());
    }
    return std::make_pair(std::move(id), std::move(header));
}

} // namespace strata::dataset
