#include "simulators/storagegrid/s3store.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <openssl/evp.h>
#include <tuple>

namespace strata::sim::storagegrid {

namespace {

std::uint64_t splitmix(std::uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

constexpr char TextAlphabet[] = "0123456789,.,-,\n";

std::string hex(const unsigned char *data, unsigned int size)
{
    static const char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(size * 2);
    for (unsigned int i = 0; i < size; ++i) {
        out += digits[data[i] >> 4];
        out += digits[data[i] & 15];
    }
    return out;
}

std::string md5OfContent(const ObjectContent &content)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, EVP_md5(), nullptr);
    constexpr std::int64_t Chunk = 1 << 20;
    if (content.literal) {
        EVP_DigestUpdate(ctx, content.literal->data(), content.literal->size());
    } else {
        for (std::int64_t off = 0; off < content.size; off += Chunk) {
            const std::string part = content.read(off, Chunk);
            EVP_DigestUpdate(ctx, part.data(), part.size());
        }
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(ctx, digest, &length);
    EVP_MD_CTX_free(ctx);
    return hex(digest, length);
}

bool startsWith(const std::string &s, const std::string &prefix)
{
    return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

std::int64_t systemNowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

struct Version
{
    std::string id;
    bool deleteMarker = false;
    ObjectContent content;
    std::string contentType;
    std::int64_t modifiedMs = 0;
    mutable std::string etag; // computed on first use
};

struct Bucket
{
    BucketInfo info;
    std::map<std::string, std::vector<Version>> keys; // versions oldest first
};

} // namespace

ObjectContent ObjectContent::bytes(std::string data)
{
    ObjectContent c;
    c.size = std::int64_t(data.size());
    c.literal = std::make_shared<const std::string>(std::move(data));
    return c;
}

ObjectContent ObjectContent::generated(std::uint64_t seed, std::int64_t size, bool textual)
{
    ObjectContent c;
    c.seed = seed;
    c.size = std::max<std::int64_t>(0, size);
    c.textual = textual;
    return c;
}

std::string ObjectContent::read(std::int64_t offset, std::int64_t length) const
{
    if (offset < 0 || length <= 0 || offset >= size) {
        return {};
    }
    const std::int64_t end = std::min(size, offset + length);
    if (literal) {
        return literal->substr(std::size_t(offset), std::size_t(end - offset));
    }
    // Word by word without a per-byte call: the demo hashes every generated object (ETags) at
    // start-up, hundreds of MB, and this runs unoptimised in the everyday Debug build.
    std::string out(std::size_t(end - offset), '\0');
    char *dst = out.data();
    std::int64_t pos = offset;
    while (pos < end) {
        const std::uint64_t word = splitmix(seed ^ splitmix(std::uint64_t(pos / 8)));
        unsigned char bytes[8];
        for (int i = 0; i < 8; ++i) {
            bytes[i] = static_cast<unsigned char>(word >> (8 * i));
        }
        const std::int64_t from = pos % 8;
        const std::int64_t n = std::min<std::int64_t>(8 - from, end - pos);
        if (textual) {
            for (std::int64_t i = 0; i < n; ++i) {
                dst[i] = TextAlphabet[bytes[from + i] & 15];
            }
        } else {
            std::memcpy(dst, bytes + from, std::size_t(n));
        }
        dst += n;
        pos += n;
    }
    return out;
}

bool ObjectContent::sameAs(const ObjectContent &other) const
{
    if (literal || other.literal) {
        return literal && other.literal && *literal == *other.literal;
    }
    return seed == other.seed && size == other.size && textual == other.textual;
}

std::string StoredObject::lastModifiedIso() const
{
    const std::time_t seconds = std::time_t(modifiedMs / 1000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char buffer[96];
    std::snprintf(buffer,
                  sizeof buffer,
                  "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                  tm.tm_year + 1900,
                  tm.tm_mon + 1,
                  tm.tm_mday,
                  tm.tm_hour,
                  tm.tm_min,
                  tm.tm_sec,
                  int(modifiedMs % 1000));
    return buffer;
}

std::string md5Hex(const std::string &data)
{
    return md5OfContent(ObjectContent::bytes(data));
}

struct S3Store::Impl
{
    mutable std::mutex mutex;
    std::function<std::int64_t()> clock;
    std::map<std::string, Bucket> buckets;
    std::uint64_t versionCounter = 0;
    std::map<std::string, int> operations;
    // ETags of generated content by identity (seed, size, kind): a dataset revision that puts
    // the same generated bytes again as a new version is not hashed again.
    mutable std::map<std::tuple<std::uint64_t, std::int64_t, bool>, std::string> generatedEtags;
    mutable std::int64_t generatedBytesHashed = 0;

    std::int64_t now() const { return clock ? clock() : systemNowMs(); }

    // The bucket a listing reads, or nullptr; `error` (when non-null) says NoSuchBucket or None.
    const Bucket *listedBucket(const std::string &name, StoreError *error) const
    {
        const auto it = buckets.find(name);
        if (error) {
            *error = it == buckets.end() ? StoreError::NoSuchBucket : StoreError::None;
        }
        return it == buckets.end() ? nullptr : &it->second;
    }

    std::string newVersionId()
    {
        // Opaque like S3's ids; deterministic so test runs are reproducible.
        const std::uint64_t a = splitmix(++versionCounter * 0x5851F42D4C957F2DULL);
        const std::uint64_t b = splitmix(a ^ versionCounter);
        static const char alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz._";
        std::string id;
        for (int i = 0; i < 16; ++i) {
            id += alphabet[(a >> (i * 4)) & 63];
            id += alphabet[(b >> (i * 4)) & 63];
        }
        return id;
    }

    /// The version's ETag, hashed on first need (the MD5 of its bytes, as S3 defines it for a
    /// single-part upload).
    const std::string &etagOf(const Version &v) const
    {
        if (v.etag.empty()) {
            if (v.content.literal) {
                v.etag = md5OfContent(v.content);
            } else if (const PrecomputedEtag *precomputed = precomputedEtag(v.content)) {
                v.etag = precomputed->md5;
            } else {
                std::string &known = generatedEtags[{v.content.seed, v.content.size, v.content.textual}];
                if (known.empty()) {
                    known = md5OfContent(v.content);
                    generatedBytesHashed += v.content.size;
                }
                v.etag = known;
            }
        }
        return v.etag;
    }

    StoredObject toObject(const Bucket &bucket, const std::string &key, const Version &v, bool latest) const
    {
        StoredObject o;
        o.bucket = bucket.info.name;
        o.key = key;
        o.versionId = v.id;
        o.isLatest = latest;
        o.deleteMarker = v.deleteMarker;
        o.size = v.deleteMarker ? 0 : v.content.size;
        if (!v.deleteMarker) {
            o.etag = etagOf(v);
            o.content = v.content;
        }
        o.modifiedMs = v.modifiedMs;
        o.contentType = v.contentType;
        return o;
    }

    void fillUsage(const Bucket &bucket, BucketInfo &info) const
    {
        info.objectCount = info.dataBytes = info.currentObjects = info.currentBytes = 0;
        for (const auto &[key, versions] : bucket.keys) {
            for (const Version &v : versions) {
                if (!v.deleteMarker) {
                    info.objectCount++;
                    info.dataBytes += v.content.size;
                }
            }
            if (!versions.empty() && !versions.back().deleteMarker) {
                info.currentObjects++;
                info.currentBytes += versions.back().content.size;
            }
        }
    }
};

S3Store::S3Store(std::function<std::int64_t()> clockMs)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->clock = std::move(clockMs);
}

S3Store::~S3Store() = default;

bool S3Store::isValidBucketName(const std::string &name)
{
    if (name.size() < 3 || name.size() > 63) {
        return false;
    }
    for (const char c : name) {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-')) {
            return false;
        }
    }
    auto alnum = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    };
    return alnum(name.front()) && alnum(name.back());
}

StoreError
S3Store::createBucket(const std::string &bucket, const std::string &ownerAccountId, const std::string &region)
{
    if (!isValidBucketName(bucket)) {
        return StoreError::InvalidBucketName;
    }
    std::lock_guard lock(m_impl->mutex);
    if (m_impl->buckets.count(bucket)) {
        return StoreError::BucketAlreadyExists;
    }
    Bucket b;
    b.info.name = bucket;
    b.info.ownerAccountId = ownerAccountId;
    b.info.region = region.empty() ? std::string("us-east-1") : region;
    b.info.creationMs = m_impl->now();
    m_impl->buckets.emplace(bucket, std::move(b));
    return StoreError::None;
}

StoreError S3Store::deleteBucket(const std::string &bucket, bool force)
{
    std::lock_guard lock(m_impl->mutex);
    const auto it = m_impl->buckets.find(bucket);
    if (it == m_impl->buckets.end()) {
        return StoreError::NoSuchBucket;
    }
    if (!force && !it->second.keys.empty()) {
        return StoreError::BucketNotEmpty;
    }
    m_impl->buckets.erase(it);
    return StoreError::None;
}

std::optional<BucketInfo> S3Store::bucket(const std::string &bucket, bool withUsage) const
{
    std::lock_guard lock(m_impl->mutex);
    const auto it = m_impl->buckets.find(bucket);
    if (it == m_impl->buckets.end()) {
        return std::nullopt;
    }
    BucketInfo info = it->second.info;
    if (withUsage) {
        m_impl->fillUsage(it->second, info);
    }
    return info;
}

std::vector<BucketInfo> S3Store::buckets(const std::string &ownerAccountId) const
{
    std::lock_guard lock(m_impl->mutex);
    std::vector<BucketInfo> out;
    for (const auto &[name, b] : m_impl->buckets) {
        if (!ownerAccountId.empty() && b.info.ownerAccountId != ownerAccountId) {
            continue;
        }
        BucketInfo info = b.info;
        m_impl->fillUsage(b, info);
        out.push_back(std::move(info));
    }
    return out;
}

StoreError S3Store::setVersioning(const std::string &bucket, bool enabled)
{
    std::lock_guard lock(m_impl->mutex);
    const auto it = m_impl->buckets.find(bucket);
    if (it == m_impl->buckets.end()) {
        return StoreError::NoSuchBucket;
    }
    if (enabled) {
        it->second.info.versioning = VersioningState::Enabled;
    } else if (it->second.info.versioning != VersioningState::Never) {
        it->second.info.versioning = VersioningState::Suspended;
    }
    return StoreError::None;
}

std::optional<PutResult> S3Store::putObject(const std::string &bucket,
                                            const std::string &key,
                                            std::string body,
                                            const std::string &contentType,
                                            StoreError *error)
{
    return putContent(bucket, key, ObjectContent::bytes(std::move(body)), contentType, error);
}

std::optional<PutResult> S3Store::putContent(const std::string &bucket,
                                             const std::string &key,
                                             ObjectContent content,
                                             const std::string &contentType,
                                             StoreError *error)
{
    std::lock_guard lock(m_impl->mutex);
    const auto it = m_impl->buckets.find(bucket);
    if (it == m_impl->buckets.end()) {
        if (error) {
            *error = StoreError::NoSuchBucket;
        }
        return std::nullopt;
    }
    Bucket &b = it->second;
    std::vector<Version> &versions = b.keys[key];
    Version v;
    v.content = std::move(content);
    v.contentType = contentType.empty() ? std::string("application/octet-stream") : contentType;
    v.modifiedMs = m_impl->now();
    if (b.info.versioning == VersioningState::Enabled) {
        v.id = m_impl->newVersionId();
    } else {
        v.id = "null";
        versions.erase(std::remove_if(versions.begin(),
                                      versions.end(),
                                      [](const Version &old) {
                                          return old.id == "null";
                                      }),
                       versions.end());
    }
    if (v.content.literal) {
        v.etag = md5OfContent(v.content); // cheap and needed by the PUT answer anyway
    }
    versions.push_back(std::move(v));
    const Version &stored = versions.back();
    if (error) {
        *error = StoreError::None;
    }
    return PutResult{stored.etag, stored.id};
}

std::optional<ObjectContent> S3Store::latestContent(const std::string &bucket, const std::string &key) const
{
    std::lock_guard lock(m_impl->mutex);
    const auto it = m_impl->buckets.find(bucket);
    if (it == m_impl->buckets.end()) {
        return std::nullopt;
    }
    const auto k = it->second.keys.find(key);
    if (k == it->second.keys.end() || k->second.empty() || k->second.back().deleteMarker) {
        return std::nullopt;
    }
    return k->second.back().content;
}

std::optional<StoredObject> S3Store::head(const std::string &bucket,
                                          const std::string &key,
                                          const std::string &versionId,
                                          StoreError *error,
                                          StoredObject *marker) const
{
    auto fail = [error](StoreError e) -> std::optional<StoredObject> {
        if (error) {
            *error = e;
        }
        return std::nullopt;
    };
    std::lock_guard lock(m_impl->mutex);
    const auto it = m_impl->buckets.find(bucket);
    if (it == m_impl->buckets.end()) {
        return fail(StoreError::NoSuchBucket);
    }
    const auto k = it->second.keys.find(key);
    if (k == it->second.keys.end() || k->second.empty()) {
        return fail(versionId.empty() ? StoreError::NoSuchKey : StoreError::NoSuchVersion);
    }
    const std::vector<Version> &versions = k->second;
    if (versionId.empty()) {
        const Version &latest = versions.back();
        if (latest.deleteMarker) {
            if (marker) {
                *marker = m_impl->toObject(it->second, key, latest, true);
            }
            return fail(StoreError::NoSuchKey);
        }
        if (error) {
            *error = StoreError::None;
        }
        return m_impl->toObject(it->second, key, latest, true);
    }
    for (std::size_t i = 0; i < versions.size(); ++i) {
        if (versions[i].id == versionId) {
            const StoredObject o = m_impl->toObject(it->second, key, versions[i], i + 1 == versions.size());
            if (o.deleteMarker) {
                if (marker) {
                    *marker = o;
                }
                return fail(StoreError::MethodNotAllowed);
            }
            if (error) {
                *error = StoreError::None;
            }
            return o;
        }
    }
    return fail(StoreError::NoSuchVersion);
}

StoreError S3Store::deleteObject(const std::string &bucket,
                                 const std::string &key,
                                 const std::string &versionId,
                                 std::string *resultVersionId,
                                 bool *deleteMarker)
{
    std::lock_guard lock(m_impl->mutex);
    if (deleteMarker) {
        *deleteMarker = false;
    }
    const auto it = m_impl->buckets.find(bucket);
    if (it == m_impl->buckets.end()) {
        return StoreError::NoSuchBucket;
    }
    Bucket &b = it->second;
    const auto k = b.keys.find(key);
    if (!versionId.empty()) {
        if (k != b.keys.end()) {
            auto &versions = k->second;
            for (auto v = versions.begin(); v != versions.end(); ++v) {
                if (v->id == versionId) {
                    if (deleteMarker) {
                        *deleteMarker = v->deleteMarker;
                    }
                    versions.erase(v);
                    break;
                }
            }
            if (versions.empty()) {
                b.keys.erase(k);
            }
        }
        if (resultVersionId) {
            *resultVersionId = versionId;
        }
        return StoreError::None;
    }
    if (b.info.versioning == VersioningState::Never) {
        if (k != b.keys.end()) {
            b.keys.erase(k);
        }
        return StoreError::None;
    }
    Version marker;
    marker.deleteMarker = true;
    marker.modifiedMs = m_impl->now();
    std::vector<Version> &versions = b.keys[key];
    if (b.info.versioning == VersioningState::Enabled) {
        marker.id = m_impl->newVersionId();
    } else {
        marker.id = "null";
        versions.erase(std::remove_if(versions.begin(),
                                      versions.end(),
                                      [](const Version &old) {
                                          return old.id == "null";
                                      }),
                       versions.end());
    }
    if (resultVersionId) {
        *resultVersionId = marker.id;
    }
    if (deleteMarker) {
        *deleteMarker = true;
    }
    versions.push_back(std::move(marker));
    return StoreError::None;
}

ListResult S3Store::list(const std::string &bucket, const ListQuery &query, StoreError *error) const
{
    ListResult result;
    std::lock_guard lock(m_impl->mutex);
    const Bucket *listed = m_impl->listedBucket(bucket, error);
    if (!listed) {
        return result;
    }
    const int maxKeys = std::clamp(query.maxKeys, 0, 1000);
    const auto &keys = listed->keys;
    auto k = keys.lower_bound(std::max(query.prefix, query.startAfter));
    // A marker that is a common prefix stands for every key under it.
    const bool markerIsPrefix =
        !query.delimiter.empty() && !query.startAfter.empty() && startsWith(query.startAfter, query.prefix)
        && query.startAfter.size() >= query.delimiter.size()
        && query.startAfter.compare(
               query.startAfter.size() - query.delimiter.size(), query.delimiter.size(), query.delimiter)
               == 0;
    int returned = 0;
    for (; k != keys.end() && startsWith(k->first, query.prefix); ++k) {
        const std::string &key = k->first;
        if (!query.startAfter.empty() && key <= query.startAfter) {
            continue;
        }
        if (markerIsPrefix && startsWith(key, query.startAfter)) {
            continue;
        }
        if (k->second.empty() || k->second.back().deleteMarker) {
            continue;
        }
        std::string commonPrefix;
        if (!query.delimiter.empty()) {
            const std::size_t d = key.find(query.delimiter, query.prefix.size());
            if (d != std::string::npos) {
                commonPrefix = key.substr(0, d + query.delimiter.size());
            }
        }
        if (!commonPrefix.empty() && !result.commonPrefixes.empty() && result.commonPrefixes.back() == commonPrefix) {
            continue;
        }
        if (returned == maxKeys) {
            result.truncated = maxKeys > 0;
            break;
        }
        returned++;
        if (!commonPrefix.empty()) {
            result.commonPrefixes.push_back(commonPrefix);
            result.nextMarker = commonPrefix;
        } else {
            result.objects.push_back(m_impl->toObject(*listed, key, k->second.back(), true));
            result.nextMarker = key;
        }
    }
    if (!result.truncated) {
        result.nextMarker.clear();
    }
    return result;
}

ListResult S3Store::listVersions(const std::string &bucket, const ListQuery &query, StoreError *error) const
{
    ListResult result;
    std::lock_guard lock(m_impl->mutex);
    const Bucket *listed = m_impl->listedBucket(bucket, error);
    if (!listed) {
        return result;
    }
    const int maxKeys = std::clamp(query.maxKeys, 0, 1000);
    const auto &keys = listed->keys;
    auto k = keys.lower_bound(std::max(query.prefix, query.keyMarker));
    int returned = 0;
    bool full = false;
    for (; k != keys.end() && startsWith(k->first, query.prefix) && !full; ++k) {
        const std::string &key = k->first;
        const auto &versions = k->second;
        // Newest first; resume after the marker version when this is the marker key.
        std::size_t start = versions.size();
        if (!query.keyMarker.empty() && key <= query.keyMarker) {
            if (key < query.keyMarker || query.versionIdMarker.empty()) {
                continue;
            }
            start = 0;
            for (std::size_t i = versions.size(); i-- > 0;) {
                if (versions[i].id == query.versionIdMarker) {
                    start = i;
                    break;
                }
            }
        }
        if (!query.delimiter.empty()) {
            const std::size_t d = key.find(query.delimiter, query.prefix.size());
            if (d != std::string::npos) {
                const std::string cp = key.substr(0, d + query.delimiter.size());
                if (result.commonPrefixes.empty() || result.commonPrefixes.back() != cp) {
                    if (returned == maxKeys) {
                        result.truncated = maxKeys > 0;
                        break;
                    }
                    returned++;
                    result.commonPrefixes.push_back(cp);
                    result.nextKeyMarker = cp;
                    result.nextVersionIdMarker.clear();
                }
                continue;
            }
        }
        for (std::size_t i = start; i-- > 0;) {
            if (returned == maxKeys) {
                result.truncated = maxKeys > 0;
                full = true;
                break;
            }
            returned++;
            result.objects.push_back(m_impl->toObject(*listed, key, versions[i], i + 1 == versions.size()));
            result.nextKeyMarker = key;
            result.nextVersionIdMarker = versions[i].id;
        }
    }
    if (!result.truncated) {
        result.nextKeyMarker.clear();
        result.nextVersionIdMarker.clear();
    }
    return result;
}

std::vector<std::string> S3Store::latestKeys(const std::string &bucket, const std::string &prefix) const
{
    std::vector<std::string> out;
    std::lock_guard lock(m_impl->mutex);
    const auto b = m_impl->buckets.find(bucket);
    if (b == m_impl->buckets.end()) {
        return out;
    }
    for (auto it = b->second.keys.lower_bound(prefix); it != b->second.keys.end() && startsWith(it->first, prefix);
         ++it) {
        if (!it->second.empty() && !it->second.back().deleteMarker) {
            out.push_back(it->first);
        }
    }
    return out;
}

void S3Store::countOperation(const std::string &operation)
{
    std::lock_guard lock(m_impl->mutex);
    m_impl->operations[operation]++;
}

std::map<std::string, int> S3Store::operationCounts() const
{
    std::lock_guard lock(m_impl->mutex);
    return m_impl->operations;
}

std::int64_t S3Store::generatedBytesHashed() const
{
    std::lock_guard lock(m_impl->mutex);
    return m_impl->generatedBytesHashed;
}

} // namespace strata::sim::storagegrid
