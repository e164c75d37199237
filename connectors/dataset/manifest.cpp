#include "connectors/dataset/manifest.h"

#include "connectors/http/jsonparse.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <limits>
#include <memory>
#include <openssl/evp.h>

namespace strata::dataset {

using connectors::Result;
using Kind = connectors::Error::Kind;
using nlohmann::json;

namespace {

bool needsEscape(char c)
{
    return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20;
}

// The first position at or after `from` that needsEscape(), or text.size(). Eight bytes at a
// time with the SWAR tests "some byte is zero" and "some byte is below 0x20": they never miss a
// flagged byte (bytes from 0x80 on need no escape and are never flagged); a word that may hold one
// is scanned byte by byte.
std::size_t plainRunEnd(std::string_view text, std::size_t from)
{
    constexpr std::uint64_t ones = 0x0101010101010101ULL;
    constexpr std::uint64_t highs = 0x8080808080808080ULL;
    std::size_t i = from;
    for (; i + 8 <= text.size(); i += 8) {
        std::uint64_t x = 0;
        std::memcpy(&x, text.data() + i, 8);
        const std::uint64_t quote = x ^ (ones * '"');
        const std::uint64_t slash = x ^ (ones * '\\');
        const std::uint64_t flagged = ((quote - ones) & ~quote) | ((slash - ones) & ~slash) | ((x - ones * 0x20) & ~x);
        if ((flagged & highs) != 0) {
            break; // the exact byte is found below
        }
    }
    while (i < text.size() && !needsEscape(text[i])) {
        ++i;
    }
    return i;
}

// `Out` is a std::string or a ChunkedManifestOut: append(data, size) and push_back(c).
template <typename Out> void appendEscaped(Out &out, std::string_view text)
{
    static constexpr char hex[] = "0123456789abcdef";
    out.push_back('"');
    // Runs without escapes (nearly every key, ETag and version) are copied in one piece.
    std::size_t run = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        i = plainRunEnd(text, i);
        if (i == text.size()) {
            break;
        }
        const char c = text[i];
        out.append(text.data() + run, i - run);
        run = i + 1;
        switch (c) {
        case '"':
            out.append("\\\"", 2);
            break;
        case '\\':
            out.append("\\\\", 2);
            break;
        case '\n':
            out.append("\\n", 2);
            break;
        case '\r':
            out.append("\\r", 2);
            break;
        case '\t':
            out.append("\\t", 2);
            break;
        case '\b':
            out.append("\\b", 2);
            break;
        case '\f':
            out.append("\\f", 2);
            break;
        default: {
            const auto byte = static_cast<unsigned char>(c);
            const char escaped[6] = {'\\', 'u', '0', '0', hex[byte >> 4], hex[byte & 0x0F]};
            out.append(escaped, sizeof escaped);
        }
        }
    }
    out.append(text.data() + run, text.size() - run);
    out.push_back('"');
}

template <typename Out, std::size_t N> void appendLiteral(Out &out, const char (&literal)[N])
{
    out.append(literal, N - 1);
}

template <typename Out> void appendNumber(Out &out, std::int64_t value)
{
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    out.append(digits, static_cast<std::size_t>(end - digits));
}

/// Collects bytes into chunks of kManifestChunkBytes for a ManifestSink.
class ChunkedManifestOut
{
public:
    explicit ChunkedManifestOut(const ManifestSink &sink)
        : m_sink(sink)
    {
        m_buffer.reserve(kManifestChunkBytes);
    }

    void append(const char *data, std::size_t size)
    {
        while (size > 0) {
            const std::size_t room = kManifestChunkBytes - m_buffer.size();
            const std::size_t part = std::min(room, size);
            m_buffer.append(data, part);
            data += part;
            size -= part;
            if (m_buffer.size() == kManifestChunkBytes) {
                flush();
            }
        }
    }

    void push_back(char c)
    {
        m_buffer.push_back(c);
        if (m_buffer.size() == kManifestChunkBytes) {
            flush();
        }
    }

    void flush()
    {
        if (!m_buffer.empty()) {
            m_sink(m_buffer);
            m_buffer.clear();
        }
    }

private:
    const ManifestSink &m_sink;
    std::string m_buffer;
};

/// The header's text fields in the order format 1 writes them (objects and bytes follow);
/// `Header` is CommitHeader or const CommitHeader.
template <typename Header> auto headerTextFields(Header &header)
{
    using Field = std::pair<const char *, decltype(&header.format)>;
    return std::array<Field, 8>{Field{"format", &header.format},
                                Field{"dataset", &header.dataset},
                                Field{"bucket", &header.bucket},
                                Field{"prefix", &header.prefix},
                                Field{"parent", &header.parent},
                                Field{"author", &header.author},
                                Field{"message", &header.message},
                                Field{"time", &header.time}};
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
    for (const auto &[name, target] : headerTextFields(header)) {
        auto value = stringField(*object, name, where);
        if (!value) {
            return connectors::fail(value.error());
        }
        *target = std::move(*value);
        if (target == &header.format && header.format != kFormat) {
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

/// Incremental SHA-256 (OpenSSL EVP); an empty hexDigest() only when OpenSSL is out of memory,
/// and an empty id never matches a stored commit.
class ManifestSha256
{
public:
    ManifestSha256()
        : m_context(EVP_MD_CTX_new(), &EVP_MD_CTX_free)
    {
        m_ok = m_context && EVP_DigestInit_ex(m_context.get(), EVP_sha256(), nullptr) == 1;
    }

    void update(std::string_view bytes)
    {
        m_ok = m_ok && EVP_DigestUpdate(m_context.get(), bytes.data(), bytes.size()) == 1;
    }

    std::string hexDigest()
    {
        unsigned char digest[EVP_MAX_MD_SIZE];
        unsigned int length = 0;
        if (!m_ok || EVP_DigestFinal_ex(m_context.get(), digest, &length) != 1) {
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

private:
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> m_context;
    bool m_ok = false;
};

/// The entries' indexes in key order, or empty when they are already in key order.
std::vector<std::size_t> manifestKeyOrder(const std::vector<ManifestEntry> &entries)
{
    if (std::is_sorted(entries.begin(), entries.end(), keyLess)) {
        return {};
    }
    // Keys of one dataset share a long prefix: each sort item carries the 16 bytes after the
    // common prefix as two big-endian numbers (zero-padded: a shorter key sorts first), so most
    // comparisons are integer compares without touching the entry or its key's heap buffer.
    std::size_t common = entries.front().key.size();
    for (const ManifestEntry &entry : entries) {
        const std::string &first = entries.front().key;
        std::size_t same = 0;
        const std::size_t limit = std::min(common, entry.key.size());
        while (same < limit && first[same] == entry.key[same]) {
            ++same;
        }
        common = same;
    }
    struct Item
    {
        std::uint64_t high;
        std::uint64_t low;
        std::size_t index;
    };
    const auto word = [common](const std::string &key, std::size_t from) {
        std::uint64_t value = 0;
        for (std::size_t b = 0; b < 8; ++b) {
            const std::size_t at = common + from + b;
            value = (value << 8) | (at < key.size() ? static_cast<unsigned char>(key[at]) : 0u);
        }
        return value;
    };
    std::vector<Item> items(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
        items[i] = Item{word(entries[i].key, 0), word(entries[i].key, 8), i};
    }
    const std::size_t cached = common + 16;
    std::sort(items.begin(), items.end(), [&entries, cached](const Item &a, const Item &b) {
        if (a.high != b.high) {
            return a.high < b.high;
        }
        if (a.low != b.low) {
            return a.low < b.low;
        }
        // Equal in the first `cached` bytes (or both shorter and equal): compare the rest.
        const std::string_view ka(entries[a.index].key);
        const std::string_view kb(entries[b.index].key);
        const int rest = ka.substr(std::min(cached, ka.size())).compare(kb.substr(std::min(cached, kb.size())));
        return rest != 0 ? rest < 0 : a.index < b.index; // duplicates keep their given order
    });
    std::vector<std::size_t> order(entries.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        order[i] = items[i].index;
    }
    return order;
}

/// Moves the entries into `order` (position p gets entries[order[p]]) by following its cycles:
/// one move per entry and no second vector of entries.
void applyManifestOrder(std::vector<ManifestEntry> &entries, std::vector<std::size_t> order)
{
    constexpr std::size_t placed = std::numeric_limits<std::size_t>::max();
    for (std::size_t start = 0; start < order.size(); ++start) {
        if (order[start] == placed || order[start] == start) {
            continue;
        }
        ManifestEntry held = std::move(entries[start]);
        std::size_t at = start;
        for (;;) {
            const std::size_t from = order[at];
            order[at] = placed;
            if (from == start) {
                entries[at] = std::move(held);
                break;
            }
            entries[at] = std::move(entries[from]);
            at = from;
        }
    }
}

std::size_t manifestSizeEstimate(const CommitHeader &header, const std::vector<ManifestEntry> &entries)
{
    std::size_t reserve = 512 + header.message.size() * 2;
    for (const ManifestEntry &entry : entries) {
        reserve += 48 + entry.key.size() + entry.etag.size() + entry.versionId.size() + 20;
    }
    return reserve;
}

template <typename Out>
void writeManifestTo(Out &out,
                     const CommitHeader &header,
                     const std::vector<ManifestEntry> &entries,
                     const std::vector<std::size_t> &order)
{
    std::int64_t bytes = 0;
    for (const ManifestEntry &entry : entries) {
        bytes += entry.size;
    }
    for (const auto &[name, value] : headerTextFields(header)) {
        out.push_back(value == &header.format ? '{' : ',');
        out.push_back('"');
        out.append(name, std::strlen(name));
        out.append("\":", 2);
        appendEscaped(out, *value);
    }
    appendLiteral(out, ",\"objects\":");
    appendNumber(out, static_cast<std::int64_t>(entries.size()));
    appendLiteral(out, ",\"bytes\":");
    appendNumber(out, bytes);
    appendLiteral(out, "}\n");
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const ManifestEntry &entry = entries[order.empty() ? i : order[i]];
        appendLiteral(out, "{\"key\":");
        appendEscaped(out, entry.key);
        appendLiteral(out, ",\"size\":");
        appendNumber(out, entry.size);
        appendLiteral(out, ",\"etag\":");
        appendEscaped(out, entry.etag);
        appendLiteral(out, ",\"version\":");
        appendEscaped(out, entry.versionId);
        appendLiteral(out, "}\n");
    }
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
    std::string out;
    out.reserve(manifestSizeEstimate(m.header, m.entries));
    writeManifestTo(out, m.header, m.entries, manifestKeyOrder(m.entries));
    return out;
}

std::string serializeManifest(CommitHeader header, std::vector<ManifestEntry> &entries)
{
    applyManifestOrder(entries, manifestKeyOrder(entries));
    std::string out;
    out.reserve(manifestSizeEstimate(header, entries));
    writeManifestTo(out, header, entries, {});
    return out;
}

void writeManifest(const CommitHeader &header, const std::vector<ManifestEntry> &entries, const ManifestSink &sink)
{
    ChunkedManifestOut out(sink);
    writeManifestTo(out, header, entries, manifestKeyOrder(entries));
    out.flush();
}

std::string manifestCommitId(const CommitHeader &header, const std::vector<ManifestEntry> &entries)
{
    ManifestSha256 hash;
    writeManifest(header, entries, [&hash](std::string_view bytes) {
        hash.update(bytes);
    });
    return hash.hexDigest();
}

std::string commitId(std::string_view manifestBytes)
{
    ManifestSha256 hash;
    hash.update(manifestBytes);
    return hash.hexDigest();
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

    // Two merge walks: the first only counts, so each list is allocated once at its final size
    // (growing them would hold a list's old and new arrays at once, megabytes at a million keys).
    ManifestDiff diff;
    const auto walk = [&a, &b, &diff](bool fill) {
        std::size_t i = 0;
        std::size_t j = 0;
        std::size_t removed = 0;
        std::size_t added = 0;
        std::size_t changed = 0;
        while (i < a.size() || j < b.size()) {
            if (j == b.size() || (i < a.size() && keyLess(a[i], b[j]))) {
                ++removed;
                if (fill) {
                    diff.bytesRemoved += a[i].size;
                    diff.removed.push_back(a[i]);
                }
                ++i;
            } else if (i == a.size() || keyLess(b[j], a[i])) {
                ++added;
                if (fill) {
                    diff.bytesAdded += b[j].size;
                    diff.added.push_back(b[j]);
                }
                ++j;
            } else {
                if (a[i].size != b[j].size || a[i].etag != b[j].etag) {
                    ++changed;
                    if (fill) {
                        diff.bytesChanged += b[j].size;
                        diff.changed.emplace_back(a[i], b[j]);
                    }
                } else if (fill) {
                    ++diff.unchanged;
                }
                ++i;
                ++j;
            }
        }
        if (!fill) {
            diff.removed.reserve(removed);
            diff.added.reserve(added);
            diff.changed.reserve(changed);
        }
    };
    walk(false);
    walk(true);
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
