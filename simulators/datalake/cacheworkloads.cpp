#include "simulators/datalake/cacheworkloads.h"

#include "simulators/storagegrid/s3store.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <openssl/evp.h>

namespace strata::sim::datalake {

using kube::SimWorkloadStep;
using nlohmann::json;

namespace {

std::string s3ErrorReason(storagegrid::StoreError error)
{
    switch (error) {
    case storagegrid::StoreError::NoSuchBucket:
        return "S3 NoSuchBucket: The specified bucket does not exist";
    case storagegrid::StoreError::NoSuchKey:
        return "S3 NoSuchKey: The specified key does not exist.";
    case storagegrid::StoreError::NoSuchVersion:
        return "S3 NoSuchVersion: The specified version does not exist.";
    case storagegrid::StoreError::MethodNotAllowed:
        return "S3 MethodNotAllowed: The specified method is not allowed against this resource.";
    default:
        return "S3 InternalError: We encountered an internal error. Please try again.";
    }
}

} // namespace

const json *jsonMember(const json &object, const char *key)
{
    if (!object.is_object()) {
        return nullptr;
    }
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

std::string sha256Hex(const std::string &data)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(), nullptr);
    static const char *hex = "0123456789abcdef";
    std::string out;
    out.reserve(length * 2);
    for (unsigned int i = 0; i < length; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 15];
    }
    return out;
}

std::optional<LoaderManifest> parseLoaderManifest(const std::string &bytes, std::string *error)
{
    const auto fail = [&](std::size_t line, const std::string &why) -> std::optional<LoaderManifest> {
        if (error) {
            *error = "manifest line " + std::to_string(line) + ": " + why;
        }
        return std::nullopt;
    };
    LoaderManifest manifest;
    std::size_t start = 0;
    std::size_t lineNo = 0;
    std::int64_t sum = 0;
    while (start < bytes.size()) {
        const std::size_t end = std::min(bytes.find('\n', start), bytes.size());
        const std::string line = bytes.substr(start, end - start);
        start = end + 1;
        ++lineNo;
        if (line.empty()) {
            return fail(lineNo, "empty line");
        }
        const json object = json::parse(line, nullptr, false);
        if (!object.is_object()) {
            return fail(lineNo, "not a JSON object");
        }
        const auto text = [&](const char *key, std::string *out) {
            const json *v = jsonMember(object, key);
            if (!v || !v->is_string()) {
                return false;
            }
            *out = v->get<std::string>();
            return true;
        };
        const auto number = [&](const char *key, std::int64_t *out) {
            const json *v = jsonMember(object, key);
            if (!v || !v->is_number_integer() || v->get<std::int64_t>() < 0) {
                return false;
            }
            *out = v->get<std::int64_t>();
            return true;
        };
        if (lineNo == 1) {
            std::string format;
            if (!text("format", &format) || format != "strata.commit/1") {
                return fail(lineNo, "not a strata.commit/1 header");
            }
            if (!text("dataset", &manifest.dataset) || !text("bucket", &manifest.bucket)
                || !text("prefix", &manifest.prefix) || !number("objects", &manifest.objects)
                || !number("bytes", &manifest.bytes)) {
                return fail(lineNo, "header without dataset, bucket, prefix, objects or bytes");
            }
            continue;
        }
        ManifestObject entry;
        if (!text("key", &entry.key) || entry.key.empty() || !number("size", &entry.size)
            || !text("etag", &entry.etag)) {
            return fail(lineNo, "object without key, size or etag");
        }
        if (jsonMember(object, "version") && !text("version", &entry.versionId)) {
            return fail(lineNo, "version is not a string");
        }
        sum += entry.size;
        manifest.entries.push_back(std::move(entry));
    }
    if (lineNo == 0) {
        return fail(1, "empty manifest");
    }
    if (static_cast<std::int64_t>(manifest.entries.size()) != manifest.objects || sum != manifest.bytes) {
        if (error) {
            *error = "manifest header says " + std::to_string(manifest.objects) + " objects, "
                     + std::to_string(manifest.bytes) + " bytes but lists " + std::to_string(manifest.entries.size())
                     + " objects, " + std::to_string(sum) + " bytes";
        }
        return std::nullopt;
    }
    return manifest;
}

// ---- CacheBook ------------------------------------------------------------------------------

std::optional<CacheBook::Entry> CacheBook::entry(const CacheVolume &volume, const std::string &dir) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_entries.find({volume, dir});
    if (it == m_entries.end()) {
        return std::nullopt;
    }
    return it->second;
}

void CacheBook::update(const CacheVolume &volume, const std::string &dir, const std::function<void(Entry &)> &fn)
{
    std::lock_guard lock(m_mutex);
    fn(m_entries[{volume, dir}]);
}

std::int64_t CacheBook::erase(const CacheVolume &volume, const std::string &dir)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_entries.find({volume, dir});
    if (it == m_entries.end()) {
        return 0;
    }
    const std::int64_t bytes = it->second.totalBytes();
    m_entries.erase(it);
    return bytes;
}

std::vector<std::string> CacheBook::directories(const CacheVolume &volume) const
{
    std::lock_guard lock(m_mutex);
    std::vector<std::string> out;
    for (const auto &[key, entry] : m_entries) {
        if (key.first == volume) {
            out.push_back(key.second);
        }
    }
    return out;
}

// ---- loader ---------------------------------------------------------------------------------

CacheLoaderWorkload::CacheLoaderWorkload(Config config,
                                         LoaderSettings settings,
                                         const storagegrid::S3Store &store,
                                         std::shared_ptr<CacheBook> book,
                                         SpaceChanger space)
    : m_config(std::move(config))
    , m_settings(settings)
    , m_store(store)
    , m_book(std::move(book))
    , m_space(std::move(space))
{
    static const std::string root = "/cache/";
    m_dir = m_config.dest.rfind(root, 0) == 0 ? m_config.dest.substr(root.size()) : m_config.dest;
    while (!m_dir.empty() && m_dir.back() == '/') {
        m_dir.pop_back();
    }
}

std::optional<CacheLoaderWorkload::Config> CacheLoaderWorkload::configFromJob(const json &job, std::string *error)
{
    std::map<std::string, std::string> env;
    const json *containers = nullptr;
    if (const json *spec = jsonMember(job, "spec")) {
        if (const json *templ = jsonMember(*spec, "template")) {
            if (const json *podSpec = jsonMember(*templ, "spec")) {
                containers = jsonMember(*podSpec, "containers");
            }
        }
    }
    if (containers && containers->is_array() && !containers->empty()) {
        if (const json *list = jsonMember(containers->front(), "env"); list && list->is_array()) {
            for (const json &e : *list) {
                const json *name = jsonMember(e, "name");
                const json *value = jsonMember(e, "value");
                if (name && name->is_string() && value && value->is_string()) {
                    env[name->get<std::string>()] = value->get<std::string>();
                }
            }
        }
    }
    Config config;
    for (const auto &[name, target] : {std::pair<const char *, std::string *>{"S3_BUCKET", &config.bucket},
                                       {"MANIFEST_KEY", &config.manifestKey},
                                       {"COMMIT_ID", &config.commitId},
                                       {"DEST", &config.dest}}) {
        const auto it = env.find(name);
        if (it == env.end() || it->second.empty()) {
            if (error) {
                *error = std::string("the loader Job has no ") + name + " in its environment";
            }
            return std::nullopt;
        }
        *target = it->second;
    }
    if (const auto it = env.find("DATASET_PREFIX"); it != env.end()) {
        config.datasetPrefix = it->second;
    }
    return config;
}

std::string CacheLoaderWorkload::progressLine(const char *event) const
{
    std::int64_t bytesDone = m_bytesDone + m_currentBytes;
    return json{{"event", event},
                {"objects_done", m_objectsDone},
                {"objects_total", m_manifest ? m_manifest->objects : 0},
                {"bytes_done", bytesDone},
                {"bytes_total", m_manifest ? m_manifest->bytes : 0}}
        .dump();
}

SimWorkloadStep CacheLoaderWorkload::fail(SimWorkloadStep step, const std::string &reason)
{
    step.logLines.push_back(json{{"event", "failed"}, {"reason", reason}}.dump());
    step.outcome = SimWorkloadStep::Outcome::Failed;
    step.message = reason;
    return step;
}

bool CacheLoaderWorkload::start(SimWorkloadStep &out)
{
    storagegrid::StoreError error = storagegrid::StoreError::None;
    const auto object = m_store.get(m_config.bucket, m_config.manifestKey, {}, &error);
    if (!object) {
        out = fail(std::move(out), s3ErrorReason(error) + " (manifest " + m_config.manifestKey + ")");
        return false;
    }
    const std::string bytes = object->body();
    if (sha256Hex(bytes) != m_config.commitId) {
        out = fail(std::move(out),
                   "manifest " + m_config.manifestKey + " does not hash to COMMIT_ID " + m_config.commitId);
        return false;
    }
    std::string why;
    m_manifest = parseLoaderManifest(bytes, &why);
    if (!m_manifest) {
        out = fail(std::move(out), why);
        return false;
    }
    // Resume: what an earlier pod completed stays; only the rest must fit.
    const auto previous = m_book->entry(m_config.volume, m_dir);
    std::int64_t needed = m_manifest->bytes;
    if (previous) {
        needed -= previous->doneBytes + previous->partialBytes;
    }
    std::int64_t available = 0;
    m_space(m_config.volume, 0, &available);
    if (needed > available) {
        out = fail(std::move(out), "no space left on the cache volume (needs " + std::to_string(needed) + " bytes)");
        return false;
    }
    return true;
}

SimWorkloadStep CacheLoaderWorkload::step(std::chrono::milliseconds elapsed)
{
    SimWorkloadStep out;
    if (!m_manifest && !start(out)) {
        return out;
    }
    m_budget += m_settings.bytesPerSecond * static_cast<double>(elapsed.count()) / 1000.0;
    const auto &entries = m_manifest->entries;
    while (m_next < entries.size()) {
        const ManifestObject &e = entries[m_next];
        if (!m_currentVerified) {
            const auto done = m_book->entry(m_config.volume, m_dir);
            if (done && done->doneKeys.count(e.key)) {
                ++m_objectsDone;
                m_bytesDone += e.size;
                ++m_next;
                continue;
            }
            storagegrid::StoreError error = storagegrid::StoreError::None;
            const auto head = m_store.head(m_config.bucket, e.key, e.versionId, &error);
            if (!head) {
                if (error == storagegrid::StoreError::NoSuchBucket) {
                    return fail(std::move(out), s3ErrorReason(error));
                }
                return fail(std::move(out), e.key + " is gone from the bucket");
            }
            if (head->etag != e.etag) {
                return fail(std::move(out),
                            "ETag of " + e.key + " changed since the commit (expected " + e.etag + ", got " + head->etag
                                + ")");
            }
            // A ".part" an earlier pod left is rewritten from the start.
            std::int64_t stale = 0;
            m_book->update(m_config.volume, m_dir, [&](CacheBook::Entry &entry) {
                stale = entry.partialBytes;
                entry.partialKey = e.key;
                entry.partialBytes = 0;
            });
            if (stale > 0) {
                m_space(m_config.volume, -stale, nullptr);
            }
            m_currentVerified = true;
            m_currentBytes = 0;
        }
        const std::int64_t remaining = e.size - m_currentBytes;
        const std::int64_t chunk = std::min<std::int64_t>(remaining, static_cast<std::int64_t>(std::floor(m_budget)));
        if (chunk > 0) {
            std::int64_t available = 0;
            if (!m_space(m_config.volume, chunk, &available)) {
                const std::int64_t needed = m_manifest->bytes - m_bytesDone - m_currentBytes;
                return fail(std::move(out),
                            "no space left on the cache volume (needs " + std::to_string(needed) + " bytes)");
            }
            m_currentBytes += chunk;
            m_budget -= static_cast<double>(chunk);
            m_book->update(m_config.volume, m_dir, [&](CacheBook::Entry &entry) {
                entry.partialBytes += chunk;
            });
        }
        if (m_currentBytes < e.size) {
            break; // this step's budget is spent
        }
        m_book->update(m_config.volume, m_dir, [&](CacheBook::Entry &entry) {
            entry.partialKey.clear();
            entry.partialBytes = 0;
            if (entry.doneKeys.insert(e.key).second) {
                entry.doneBytes += e.size;
            }
        });
        ++m_objectsDone;
        m_bytesDone += e.size;
        m_currentBytes = 0;
        m_currentVerified = false;
        ++m_next;
        ++m_copiedThisPod;
        if (m_settings.failAfterObjects >= 0 && m_copiedThisPod >= m_settings.failAfterObjects
            && m_next < entries.size()) {
            out.logLines.push_back(progressLine("progress"));
            return fail(std::move(out),
                        "loader stopped after " + std::to_string(m_copiedThisPod) + " objects (injected fault)");
        }
    }
    if (m_next >= entries.size()) {
        m_book->update(m_config.volume, m_dir, [](CacheBook::Entry &entry) {
            entry.ready = true;
        });
        m_budget = 0;
        out.logLines.push_back(progressLine("ready"));
        out.outcome = SimWorkloadStep::Outcome::Succeeded;
        return out;
    }
    out.logLines.push_back(progressLine("progress"));
    return out;
}

// ---- evictor --------------------------------------------------------------------------------

CacheEvictorWorkload::CacheEvictorWorkload(CacheVolume volume,
                                           std::string dir,
                                           std::shared_ptr<CacheBook> book,
                                           SpaceChanger space)
    : m_volume(std::move(volume))
    , m_dir(std::move(dir))
    , m_book(std::move(book))
    , m_space(std::move(space))
{}

SimWorkloadStep CacheEvictorWorkload::step(std::chrono::milliseconds)
{
    const std::int64_t bytes = m_book->erase(m_volume, m_dir);
    if (bytes > 0) {
        m_space(m_volume, -bytes, nullptr);
    }
    SimWorkloadStep out;
    out.outcome = SimWorkloadStep::Outcome::Succeeded;
    return out;
}

} // namespace strata::sim::datalake
