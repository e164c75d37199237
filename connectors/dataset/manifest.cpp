#include "connectors/dataset/manifest.h"

#include "connectors/http/jsonparse.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <limits>
#include <memory>
#include <openssl/evp.h>

namespace strata::dataset {

using connectors::Result;
using Kind = connectors::Error::Kind;
using nlohmann::json;

namespace {

void appendEscaped(std::string &out, std::string_view text)
{
    static constexpr char hex[] = "0123456789abcdef";
    out.push_back('"');
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        switch (c) {
        case '"':
            out.append("\\\"");
            break;
        case '\\':
            out.append("\\\\");
            break;
        case '\n':
            out.append("\\n");
            break;
        case '\r':
            out.append("\\r");
            break;
        case '\t':
            out.append("\\t");
            break;
        case '\b':
            out.append("\\b");
            break;
        case '\f':
            out.append("\\f");
            break;
        default:
            if (byte < 0x20) {
                out.append("\\u00");
                out.push_back(hex[byte >> 4]);
                out.push_back(hex[byte & 0x0F]);
            } else {
                out.push_back(c);
            }
        }
    }
    out.push_back('"');
}

void appendField(std::string &out, std::string_view name, std::string_view value)
{
    out.push_back('"');
    out.append(name);
    out.append("\":");
    appendEscaped(out, value);
}

void appendField(std::string &out, std::string_view name, std::int64_t value)
{
    out.push_back('"');
    out.append(name);
    out.append("\":");
    out.append(std::to_string(value));
}

bool keyLess(const ManifestEntry &a, const ManifestEntry &b)
{
    // Byte order: char_traits<char>::compare works like memcmp (unsigned bytes).
    return std::string_view(a.key) < std::string_view(b.key);
}

bool isHexLower(std::string_view text)
{
    return std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    });
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// "YYYY-MM-DDTHH:MM:SS[.fff]Z"
bool isIsoUtc(std::string_view t)
{
    if (t.size() < 20 || t.back() != 'Z') {
        return false;
    }
    static constexpr std::string_view shape = "dddd-dd-ddTdd:dd:dd";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 'd' ? !isDigit(t[i]) : t[i] != shape[i]) {
            return false;
        }
    }
    const std::string_view rest = t.substr(shape.size(), t.size() - shape.size() - 1);
    if (rest.empty()) {
        return true;
    }
    return rest.size() >= 2 && rest.front() == '.' && std::all_of(rest.begin() + 1, rest.end(), isDigit);
}

// Fast path for entry lines exactly as serializeManifest() writes them without escapes:
// {"key":"…","size":N,"etag":"…","version":"…"}. Anything else (escapes, other key order,
// whitespace, bad values) returns false and goes through the full JSON parser, which also
// produces the error messages.
bool readPlainString(std::string_view &rest, std::string &out)
{
    if (rest.empty() || rest.front() != '"') {
        return false;
    }
    const auto end = rest.find('"', 1);
    if (end == std::string_view::npos) {
        return false;
    }
    const std::string_view value = rest.substr(1, end - 1);
    for (const char c : value) {
        if (c == '\\' || static_cast<unsigned char>(c) < 0x20) {
            return false;
        }
    }
    out.assign(value);
    rest.remove_prefix(end + 1);
    return true;
}

bool consume(std::string_view &rest, std::string_view literal)
{
    if (rest.substr(0, literal.size()) != literal) {
        return false;
    }
    rest.remove_prefix(literal.size());
    return true;
}

bool fastEntry(std::string_view line, ManifestEntry &entry)
{
    std::string_view rest = line;
    if (!consume(rest, "{\"key\":") || !readPlainString(rest, entry.key) || !consume(rest, ",\"size\":")) {
        return false;
    }
    std::size_t digits = 0;
    std::int64_t size = 0;
    while (digits < rest.size() && isDigit(rest[digits])) {
        if (digits == 18 || (digits > 0 && size == 0)) {
            return false; // long numbers and leading zeros: let the full parser judge
        }
        size = size * 10 + (rest[digits] - '0');
        ++digits;
    }
    if (digits == 0) {
        return false;
    }
    rest.remove_prefix(digits);
    if (!consume(rest, ",\"etag\":") || !readPlainString(rest, entry.etag) || !consume(rest, ",\"version\":")
        || !readPlainString(rest, entry.versionId) || rest != "}") {
        return false;
    }
    entry.size = size;
    return true;
}

std::string jsonType(const json &value)
{
    return value.type_name();
}

Result<std::string> stringField(const json &object, const char *name, const std::string &where)
{
    const auto it = object.find(name);
    if (it == object.end()) {
        return connectors::failParse(where + ": missing \"" + name + "\"");
    }
    if (!it->is_string()) {
        return connectors::failParse(where + ": \"" + name + "\" is a " + jsonType(*it) + ", expected a string");
    }
    return it->get<std::string>();
}

Result<std::int64_t> countField(const json &object, const char *name, const std::string &where)
{
    const auto it = object.find(name);
    if (it == object.end()) {
        return connectors::failParse(where + ": missing \"" + name + "\"");
    }
    if (it->is_number_unsigned()) {
        if (it->get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            return connectors::failParse(where + ": \"" + name + "\" is out of range");
        }
        return static_cast<std::int64_t>(it->get<std::uint64_t>());
    }
    if (!it->is_number_integer()) {
        return connectors::failParse(where + ": \"" + name + "\" is a " + jsonType(*it) + ", expected a whole number");
    }
    const auto value = it->get<std::int64_t>();
    if (value < 0) {
        return connectors::failParse(where + ": \"" + name + "\" is negative (" + std::to_string(value) + ")");
    }
    return value;
}

Result<json> parseLine(std::string_view line, const std::string &where)
{
    json value = http::parseJsonBounded(line);
    if (value.is_discarded()) {
        return connectors::failParse(where + ": not valid JSON");
    }
    if (!value.is_object()) {
        return connectors::failParse(where + ": a " + jsonType(value) + ", expected a JSON object");
    }
    return value;
}

Result<ManifestEntry> parseEntry(std::string_view text, const std::string &where)
{
    auto object = parseLine(text, where);
    if (!object) {
        return connectors::fail(object.error());
    }
    auto key = stringField(*object, "key", where);
    if (!key) {
        return connectors::fail(key.error());
    }
    auto size = countField(*object, "size", where);
    if (!size) {
        return connectors::fail(size.error());
    }
    auto etag = stringField(*object, "etag", where);
    if (!etag) {
        return connectors::fail(etag.error());
    }
    auto version = stringField(*object, "version", where);
    if (!version) {
        return connectors::fail(version.error());
    }
    return ManifestEntry{std::move(*key), *size, std::move(*etag), std::move(*version)};
}

Result<CommitHeader> headerFromLine(std::string_view line)
{
    const std::string where = "commit manifest header";
    auto object = parseLine(line, where);
    if (!object) {
        return connectors::fail(object.error());
    }
    CommitHeader header;
    struct Text
    {
        const char *name;
        std::string *target;
    };
    const Text texts[] = {{"format", &header.format},
                          {"dataset", &header.dataset},
                          {"bucket", &header.bucket},
                          {"prefix", &header.prefix},
                          {"parent", &header.parent},
                          {"author", &header.author},
                          {"message", &header.message},
                          {"time", &header.time}};
    for (const Text &text : texts) {
        auto value = stringField(*object, text.name, where);
        if (!value) {
            return connectors::fail(value.error());
        }
        *text.target = std::move(*value);
        if (text.target == &header.format && header.format != kFormat) {
            return connectors::failParse(where + ": format \"" + header.format + "\" is not " + std::string(kFormat));
        }
    }
    auto objects = countField(*object, "objects", where);
    if (!objects) {
        return connectors::fail(objects.error());
    }
    auto bytes = countField(*object, "bytes", where);
    if (!bytes) {
        return connectors::fail(bytes.error());
    }
    header.objects = *objects;
    header.bytes = *bytes;
    if (auto valid = validateHeader(header); !valid) {
        return connectors::fail(valid.error());
    }
    return header;
}

} // namespace

Result<void> validateHeader(const CommitHeader &header)
{
    const std::string where = "commit manifest header";
    if (header.format != kFormat) {
        return connectors::failParse(where + ": format \"" + header.format + "\" is not " + std::string(kFormat));
    }
    if (header.dataset.empty()) {
        return connectors::failParse(where + ": the dataset name is empty");
    }
    if (header.bucket.empty()) {
        return connectors::failParse(where + ": the bucket is empty");
    }
    if (!header.prefix.empty() && header.prefix.back() != '/') {
        return connectors::failParse(where + ": prefix \"" + header.prefix + "\" does not end with '/'");
    }
    if (!header.parent.empty() && !isCommitId(header.parent)) {
        return connectors::failParse(where + ": parent \"" + header.parent
                                     + "\" is not a commit id (64 lower-case hex digits)");
    }
    if (header.author.size() > kMaxAuthorBytes) {
        return connectors::failParse(where + ": the author is " + std::to_string(header.author.size())
                                     + " bytes, at most " + std::to_string(kMaxAuthorBytes) + " are allowed");
    }
    if (header.message.size() > kMaxMessageBytes) {
        return connectors::failParse(where + ": the message is " + std::to_string(header.message.size())
                                     + " bytes, at most " + std::to_string(kMaxMessageBytes) + " are allowed");
    }
    if (!isIsoUtc(header.time)) {
        return connectors::failParse(where + ": time \"" + header.time
                                     + "\" is not UTC ISO 8601 (2026-06-01T10:00:00Z)");
    }
    return {};
}

std::string serializeManifest(const Manifest &m)
{
    std::vector<ManifestEntry> entries = m.entries;
    return serializeManifest(m.header, entries);
}

std::string serializeManifest(CommitHeader header, std::vector<ManifestEntry> &entries)
{
    if (!std::is_sorted(entries.begin(), entries.end(), keyLess)) {
        std::sort(entries.begin(), entries.end(), keyLess);
    }
    header.objects = static_cast<std::int64_t>(entries.size());
    header.bytes = 0;
    std::size_t reserve = 512 + header.message.size() * 2;
    for (const ManifestEntry &entry : entries) {
        header.bytes += entry.size;
        reserve += 48 + entry.key.size() + entry.etag.size() + entry.versionId.size() + 20;
    }
    std::string out;
    out.reserve(reserve);
    out.push_back('{');
    appendField(out, "format", header.format);
    out.push_back(',');
    appendField(out, "dataset", header.dataset);
    out.push_back(',');
    appendField(out, "bucket", header.bucket);
    out.push_back(',');
    appendField(out, "prefix", header.prefix);
    out.push_back(',');
    appendField(out, "parent", header.parent);
    out.push_back(',');
    appendField(out, "author", header.author);
    out.push_back(',');
    appendField(out, "message", header.message);
    out.push_back(',');
    appendField(out, "time", header.time);
    out.push_back(',');
    appendField(out, "objects", header.objects);
    out.push_back(',');
    appendField(out, "bytes", header.bytes);
    out.append("}\n");
    for (const ManifestEntry &entry : entries) {
        out.push_back('{');
        appendField(out, "key", entry.key);
        out.push_back(',');
        appendField(out, "size", entry.size);
        out.push_back(',');
        appendField(out, "etag", entry.etag);
        out.push_back(',');
        appendField(out, "version", entry.versionId);
        out.append("}\n");
    }
    return out;
}

std::string commitId(std::string_view manifestBytes)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1
        || EVP_DigestUpdate(context.get(), manifestBytes.data(), manifestBytes.size()) != 1
        || EVP_DigestFinal_ex(context.get(), digest, &length) != 1) {
        // Only an out-of-memory OpenSSL fails here; an empty id never matches a stored commit.
        return {};
    }
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(length * 2);
    for (unsigned int i = 0; i < length; ++i) {
        out.push_back(hex[digest[i] >> 4]);
        out.push_back(hex[digest[i] & 0x0F]);
    }
    return out;
}

bool isCommitId(std::string_view id)
{
    return id.size() == 64 && isHexLower(id);
}

Result<CommitHeader> parseHeaderLine(std::string_view firstBytes)
{
    const auto newline = firstBytes.find('\n');
    if (newline == std::string_view::npos) {
        if (firstBytes.empty()) {
            return connectors::failParse("commit manifest header: the manifest is empty");
        }
        return connectors::failParse("commit manifest header: no complete first line in the first "
                                     + std::to_string(firstBytes.size()) + " bytes");
    }
    return headerFromLine(firstBytes.substr(0, newline));
}

Result<Manifest> parseManifest(std::string_view bytes)
{
    Manifest manifest;
    auto header = parseHeaderLine(bytes);
    if (!header) {
        return connectors::fail(header.error());
    }
    manifest.header = std::move(*header);
    if (bytes.back() != '\n') {
        return connectors::failParse("commit manifest: truncated (the last line does not end with a newline)");
    }
    const std::string metadata = metadataPrefix(manifest.header.prefix);
    if (manifest.header.objects > 0) {
        // The header count is untrusted: cap the reservation by what the bytes could hold.
        manifest.entries.reserve(static_cast<std::size_t>(
            std::min<std::int64_t>(manifest.header.objects, static_cast<std::int64_t>(bytes.size() / 40))));
    }
    std::size_t position = bytes.find('\n') + 1;
    std::int64_t line = 1;
    std::int64_t total = 0;
    while (position < bytes.size()) {
        ++line;
        const std::size_t end = bytes.find('\n', position);
        const std::string_view text = bytes.substr(position, end - position);
        position = end + 1;
        const auto where = [&line]() {
            return "commit manifest line " + std::to_string(line);
        };
        if (text.empty()) {
            return connectors::failParse(where() + ": empty line");
        }
        ManifestEntry entry;
        if (!fastEntry(text, entry)) {
            auto parsed = parseEntry(text, where());
            if (!parsed) {
                return connectors::fail(parsed.error());
            }
            entry = std::move(*parsed);
        }
        if (entry.key.empty() || entry.key.compare(0, manifest.header.prefix.size(), manifest.header.prefix) != 0) {
            return connectors::failParse(where() + ": key \"" + entry.key + "\" is not under the dataset prefix \""
                                         + manifest.header.prefix + "\"");
        }
        if (entry.key.compare(0, metadata.size(), metadata) == 0) {
            return connectors::failParse(where() + ": key \"" + entry.key
                                         + "\" is Strata metadata, not dataset content");
        }
        if (!manifest.entries.empty() && !keyLess(manifest.entries.back(), entry)) {
            return connectors::failParse(
                where() + ": key \"" + entry.key + "\" "
                + (manifest.entries.back().key == entry.key ? "appears twice" : "is out of order"));
        }
        if (total > std::numeric_limits<std::int64_t>::max() - entry.size) {
            return connectors::failParse(where() + ": the total size overflows");
        }
        total += entry.size;
        manifest.entries.push_back(std::move(entry));
    }
    const auto count = static_cast<std::int64_t>(manifest.entries.size());
    if (count != manifest.header.objects) {
        return connectors::failParse("commit manifest: the header says " + std::to_string(manifest.header.objects)
                                     + " objects, the manifest lists " + std::to_string(count));
    }
    if (total != manifest.header.bytes) {
        return connectors::failParse("commit manifest: the header says " + std::to_string(manifest.header.bytes)
                                     + " bytes, the objects add up to " + std::to_string(total));
    }
    return manifest;
}

ManifestDiff diffManifests(const Manifest &from, const Manifest &to)
{
    const auto sorted = [](const std::vector<ManifestEntry> &entries,
                           std::vector<ManifestEntry> &copy) -> const std::vector<ManifestEntry> & {
        if (std::is_sorted(entries.begin(), entries.end(), keyLess)) {
            return entries;
        }
        copy = entries;
        std::sort(copy.begin(), copy.end(), keyLess);
        return copy;
    };
    std::vector<ManifestEntry> fromCopy;
    std::vector<ManifestEntry> toCopy;
    const std::vector<ManifestEntry> &a = sorted(from.entries, fromCopy);
    const std::vector<ManifestEntry> &b = sorted(to.entries, toCopy);

    ManifestDiff diff;
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() || j < b.size()) {
        if (j == b.size() || (i < a.size() && keyLess(a[i], b[j]))) {
            diff.bytesRemoved += a[i].size;
            diff.removed.push_back(a[i++]);
        } else if (i == a.size() || keyLess(b[j], a[i])) {
            diff.bytesAdded += b[j].size;
            diff.added.push_back(b[j++]);
        } else {
            if (a[i].size != b[j].size || a[i].etag != b[j].etag) {
                diff.bytesChanged += b[j].size;
                diff.changed.emplace_back(a[i], b[j]);
            } else {
                ++diff.unchanged;
            }
            ++i;
            ++j;
        }
    }
    return diff;
}

std::string metadataPrefix(const std::string &datasetPrefix)
{
    return datasetPrefix + ".strata/";
}

std::string commitsPrefix(const std::string &datasetPrefix)
{
    return datasetPrefix + ".strata/commits/";
}

std::string manifestKey(const std::string &datasetPrefix, const std::string &id)
{
    return commitsPrefix(datasetPrefix) + id + ".jsonl";
}

std::string isoUtcSeconds(std::int64_t unixSeconds)
{
    const std::time_t time = static_cast<std::time_t>(unixSeconds);
    std::tm utc{};
    gmtime_r(&time, &utc);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return buffer;
}

} // namespace strata::dataset
