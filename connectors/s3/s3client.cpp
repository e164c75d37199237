#include "connectors/s3/s3client.h"

#include "connectors/http/reasonphrase.h"
#include "connectors/s3/s3xml.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <openssl/evp.h>
#include <random>
#include <set>

namespace strata::s3 {

using connectors::Result;
using http::Method;

namespace detail {
struct S3Call
{
    Method method = Method::Get;
    std::string name; ///< "ListObjectsV2", "GetObject", ... for messages
    std::string bucket;
    std::string key;
    /// Query parameters; sorted by name before sending so the URL's query is already SigV4's
    /// canonical query (libcurl 7.88 signs the query as it finds it).
    std::vector<std::pair<std::string, std::string>> query;
    http::Headers headers;
    std::string body;

    [[nodiscard]] std::string target() const
    {
        std::string result = name;
        if (!bucket.empty()) {
            result += " " + bucket;
            if (!key.empty()) {
                result += "/" + key;
            }
        }
        return result;
    }
};
} // namespace detail

using Call = detail::S3Call;

namespace {

constexpr char HexDigits[] = "0123456789abcdef";

std::string toHex(const unsigned char *data, std::size_t size)
{
    std::string hex;
    hex.reserve(size * 2);
    for (std::size_t i = 0; i < size; ++i) {
        hex.push_back(HexDigits[data[i] >> 4]);
        hex.push_back(HexDigits[data[i] & 0x0f]);
    }
    return hex;
}

std::string digest(const EVP_MD *md, std::string_view data, bool base64)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
    unsigned int size = 0;
    if (EVP_Digest(data.data(), data.size(), out.data(), &size, md, nullptr) != 1) {
        return {};
    }
    if (!base64) {
        return toHex(out.data(), size);
    }
    std::array<unsigned char, 4 * ((EVP_MAX_MD_SIZE + 2) / 3) + 1> encoded{};
    const int length = EVP_EncodeBlock(encoded.data(), out.data(), static_cast<int>(size));
    return std::string(reinterpret_cast<const char *>(encoded.data()), static_cast<std::size_t>(std::max(length, 0)));
}

bool isDnsCompatible(std::string_view bucket)
{
    if (bucket.size() < 3 || bucket.size() > 63) {
        return false;
    }
    for (char c : bucket) {
        if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-')) {
            return false;
        }
    }
    return bucket.front() != '-' && bucket.back() != '-';
}

std::optional<std::int64_t> parseInt64(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
        text.remove_prefix(1);
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
        text.remove_suffix(1);
    }
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || value < 0) {
        return std::nullopt;
    }
    return value;
}

std::optional<bool> parseBool(std::string_view text)
{
    if (text == "true") {
        return true;
    }
    if (text == "false") {
        return false;
    }
    return std::nullopt;
}

std::string statusText(int status)
{
    const std::string_view phrase = http::reasonPhrase(status);
    return phrase.empty() ? "HTTP " + std::to_string(status) : std::string(phrase);
}

bool isRetryableCode(std::string_view code)
{
    return code == "SlowDown" || code == "InternalError" || code == "ServiceUnavailable" || code == "RequestTimeout"
           || code == "Throttling" || code == "ThrottlingException" || code == "RequestThrottled";
}

bool isRetryableStatus(int status)
{
    return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

// Maps a non-2xx answer to an error; S3 error documents give code and message.
connectors::Error errorFromResponse(const http::HttpResponse &response, const Call &call)
{
    connectors::Error error;
    error.httpStatus = response.status;
    error.retryAfterSeconds = http::parseRetryAfter(response.header("Retry-After"));
    std::string code;
    std::string message;
    if (!response.body.empty()) {
        XmlParseResult parsed = parseXml(response.body);
        if (parsed.root && parsed.root->name == "Error") {
            code = parsed.root->childText("Code");
            message = parsed.root->childText("Message");
        }
    }
    const bool auth = response.status == 401 || response.status == 403;
    if (code.empty()) {
        // HEAD answers carry no body; name the usual S3 meaning of the status.
        if (response.status == 404) {
            code = "NotFound";
        } else if (response.status == 403) {
            code = "AccessDenied";
        }
        error.kind = auth ? connectors::Error::Kind::Auth
                          : (code.empty() ? connectors::Error::Kind::Http : connectors::Error::Kind::Api);
        error.apiCode = code;
        error.message =
            "S3 " + std::to_string(response.status) + " " + statusText(response.status) + " (" + call.target() + ")";
        return error;
    }
    error.kind = auth ? connectors::Error::Kind::Auth : connectors::Error::Kind::Api;
    error.apiCode = code;
    error.message =
        "S3 " + code + ": " + (message.empty() ? statusText(response.status) : message) + " (" + call.target() + ")";
    return error;
}
} // namespace

namespace {

connectors::Error parseError(const Call &call, const std::string &detail)
{
    return connectors::Error::make(connectors::Error::Kind::Parse, call.target() + ": " + detail);
}

Result<std::unique_ptr<XmlElement>>
parseDocument(const http::HttpResponse &response, const Call &call, std::string_view rootName)
{
    XmlParseResult parsed = parseXml(response.body);
    if (!parsed.root) {
        return connectors::fail(parseError(call, "malformed XML in the response: " + parsed.error));
    }
    if (parsed.root->name != rootName) {
        return connectors::fail(parseError(
            call, "expected <" + std::string(rootName) + "> but the response is <" + parsed.root->name + ">"));
    }
    return std::move(parsed.root);
}

// The root element of a call's XML answer, or the error of the call itself.
Result<std::unique_ptr<XmlElement>>
parseReply(const Result<http::HttpResponse> &response, const Call &call, std::string_view rootName)
{
    if (!response) {
        return connectors::fail(response.error());
    }
    return parseDocument(*response, call, rootName);
}

Result<ObjectInfo> parseObjectEntry(const XmlElement &element, const Call &call, bool marker)
{
    ObjectInfo info;
    const XmlElement *key = element.child("Key");
    if (!key || key->text.empty()) {
        return connectors::fail(parseError(call, "a <" + element.name + "> entry has no <Key>"));
    }
    info.key = key->text;
    info.lastModified = element.childText("LastModified");
    info.deleteMarker = marker;
    info.versionId = element.childText("VersionId");
    if (const XmlElement *latest = element.child("IsLatest")) {
        const auto value = parseBool(latest->text);
        if (!value) {
            return connectors::fail(parseError(call, "<IsLatest> of " + info.key + " is \"" + latest->text + "\""));
        }
        info.isLatest = *value;
    }
    if (marker) {
        return info;
    }
    const XmlElement *size = element.child("Size");
    const auto parsedSize = size ? parseInt64(size->text) : std::nullopt;
    if (!parsedSize) {
        return connectors::fail(parseError(call, "<Size> of " + info.key + " is missing or not a number"));
    }
    info.size = *parsedSize;
    info.etag = unquoteEtag(element.childText("ETag"));
    return info;
}

Result<bool> parseTruncated(const XmlElement &root, const Call &call)
{
    const XmlElement *truncated = root.child("IsTruncated");
    if (!truncated) {
        return connectors::fail(parseError(call, "<IsTruncated> is missing"));
    }
    const auto value = parseBool(truncated->text);
    if (!value) {
        return connectors::fail(parseError(call, "<IsTruncated> is \"" + truncated->text + "\""));
    }
    return *value;
}

// A List* answer: its document (for the call's own entries) and what every listing page has,
// IsTruncated and the CommonPrefixes.
struct ListReply
{
    std::unique_ptr<XmlElement> root;
    ListPage page;
};

Result<ListReply>
parseListReply(const Result<http::HttpResponse> &response, const Call &call, std::string_view rootName)
{
    auto root = parseReply(response, call, rootName);
    if (!root) {
        return connectors::fail(root.error());
    }
    auto truncated = parseTruncated(**root, call);
    if (!truncated) {
        return connectors::fail(truncated.error());
    }
    ListReply reply;
    reply.page.truncated = *truncated;
    for (const XmlElement *common : (*root)->childrenNamed("CommonPrefixes")) {
        reply.page.commonPrefixes.push_back(common->childText("Prefix"));
    }
    reply.root = std::move(*root);
    return reply;
}

// S3 reads an empty query parameter as a value, not as absent: add only those that are set.
void addQueryIfSet(Call &call, std::initializer_list<std::pair<const char *, const std::string &>> parameters)
{
    for (const auto &[name, value] : parameters) {
        if (!value.empty()) {
            call.query.emplace_back(name, value);
        }
    }
}

// A call on one object, or on one version of it when `versionId` is set.
Call objectCall(
    Method method, const char *name, const std::string &bucket, const std::string &key, const std::string &versionId)
{
    Call call;
    call.method = method;
    call.name = name;
    call.bucket = bucket;
    call.key = key;
    if (!versionId.empty()) {
        call.query.emplace_back("versionId", versionId);
    }
    return call;
}

std::string headerOr(const http::HttpResponse &response, std::string_view name)
{
    return response.header(name).value_or(std::string{});
}

} // namespace

std::string sha256Hex(std::string_view data)
{
    return digest(EVP_sha256(), data, false);
}

std::string unquoteEtag(std::string_view etag)
{
    if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"') {
        etag = etag.substr(1, etag.size() - 2);
    } else if (etag.size() >= 12 && etag.substr(0, 6) == "&quot;" && etag.substr(etag.size() - 6) == "&quot;") {
        etag = etag.substr(6, etag.size() - 12);
    }
    return std::string(etag);
}

std::string s3Encode(std::string_view value, bool keepSlash)
{
    std::string out;
    out.reserve(value.size() * 3 / 2);
    for (unsigned char c : value) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || (keepSlash && c == '/')) {
            out.push_back(static_cast<char>(c));
        } else {
            out.push_back('%');
            out.push_back("0123456789ABCDEF"[c >> 4]);
            out.push_back("0123456789ABCDEF"[c & 0x0f]);
        }
    }
    return out;
}

S3Client::S3Client(S3Config config, std::shared_ptr<http::IHttpTransport> transport)
    : m_config(std::move(config))
    , m_transport(std::move(transport))
{
    while (!m_config.endpoint.empty() && m_config.endpoint.back() == '/') {
        m_config.endpoint.pop_back();
    }
}

std::string S3Client::objectUrl(const std::string &bucket, const std::string &key) const
{
    const std::string encodedKey = s3Encode(key, true);
    if (bucket.empty()) {
        return m_config.endpoint + "/";
    }
    if (!m_config.pathStyle && isDnsCompatible(bucket)) {
        const auto schemeEnd = m_config.endpoint.find("://");
        if (schemeEnd != std::string::npos) {
            return m_config.endpoint.substr(0, schemeEnd + 3) + bucket + "." + m_config.endpoint.substr(schemeEnd + 3)
                   + "/" + encodedKey;
        }
    }
    // Bucket-level calls go to "/bucket" without a trailing slash: RGW signs that form.
    return m_config.endpoint + "/" + s3Encode(bucket, false) + (key.empty() ? "" : "/" + encodedKey);
}

Result<http::HttpResponse> S3Client::send(const Call &call, const http::CancelToken &cancel)
{
    if (!m_transport) {
        return connectors::fail(
            connectors::Error::make(connectors::Error::Kind::Transport, call.target() + ": no transport configured"));
    }
    if (m_config.endpoint.empty()) {
        return connectors::fail(
            connectors::Error::make(connectors::Error::Kind::Transport, call.target() + ": no S3 endpoint configured"));
    }
    http::HttpRequest request;
    request.method = call.method;
    request.url = objectUrl(call.bucket, call.key);
    auto query = call.query;
    std::sort(query.begin(), query.end());
    for (std::size_t i = 0; i < query.size(); ++i) {
        request.url += (i == 0 ? "?" : "&") + s3Encode(query[i].first, false) + "=" + s3Encode(query[i].second, false);
    }
    request.headers = call.headers;
    request.body = call.body;
    if (call.method == Method::Put && !http::findHeader(request.headers, "Content-Type")) {
        // Otherwise libcurl sends its form-urlencoded default.
        request.headers.emplace_back("Content-Type", "application/octet-stream");
    }
    request.headers.emplace_back("x-amz-content-sha256",
                                 m_config.signPayload ? sha256Hex(call.body) : std::string("UNSIGNED-PAYLOAD"));
    request.sigv4 = http::AwsSigV4Auth{m_config.accessKey, m_config.secretKey, m_config.region, "s3"};
    request.totalTimeout = std::chrono::milliseconds{std::max(m_config.timeoutMs, 1L)};
    // Every S3 call Strata makes can be repeated safely: reads, PUTs of the same bytes to the
    // same key, deletes, bucket settings.
    request.idempotent = true;

    const http::RetryPolicy &policy = m_config.retry;
    const int maxAttempts = std::max(policy.maxAttempts, 1);
    const auto started = std::chrono::steady_clock::now();
    thread_local std::mt19937_64 engine{std::random_device{}()};
    for (int attempt = 1;; ++attempt) {
        if (cancel.isCancelled()) {
            return connectors::fail(
                connectors::Error::make(connectors::Error::Kind::Cancelled, call.target() + " was cancelled"));
        }
        Result<http::HttpResponse> result = m_transport->send(request, cancel);
        int retryAfterSeconds = -1;
        bool retry = false;
        if (result) {
            if (result->isSuccess()) {
                return result;
            }
            const connectors::Error error = errorFromResponse(*result, call);
            retry = isRetryableStatus(result->status) || isRetryableCode(error.apiCode);
            retryAfterSeconds = error.retryAfterSeconds;
            if (!retry || attempt >= maxAttempts) {
                return connectors::fail(error);
            }
        } else {
            connectors::Error error = result.error();
            if (error.kind == connectors::Error::Kind::Cancelled || !error.retryable() || attempt >= maxAttempts) {
                error.message = call.target() + ": " + error.message;
                return connectors::fail(std::move(error));
            }
            retryAfterSeconds = error.retryAfterSeconds;
        }
        std::chrono::milliseconds delay =
            policy.backoff(attempt, std::uniform_real_distribution<double>{0.0, 1.0}(engine));
        if (retryAfterSeconds > 0) {
            delay = std::max(delay, std::chrono::milliseconds{std::chrono::seconds{retryAfterSeconds}});
        }
        const auto elapsed =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
        if (policy.maxElapsed.count() > 0 && elapsed + delay > policy.maxElapsed) {
            if (result) {
                return connectors::fail(errorFromResponse(*result, call));
            }
            connectors::Error error = result.error();
            error.message = call.target() + ": " + error.message;
            return connectors::fail(std::move(error));
        }
        const bool slept = m_config.sleeper ? m_config.sleeper(delay, cancel) : cancel.sleepFor(delay);
        if (!slept || cancel.isCancelled()) {
            return connectors::fail(
                connectors::Error::make(connectors::Error::Kind::Cancelled, call.target() + " was cancelled"));
        }
    }
}

Result<ListPage> S3Client::listObjectsV2(const std::string &bucket,
                                         const std::string &prefix,
                                         const std::string &delimiter,
                                         const std::string &continuationToken,
                                         int maxKeys,
                                         const http::CancelToken &cancel)
{
    return listPageV2(bucket, prefix, delimiter, continuationToken, {}, maxKeys, cancel);
}

Result<void> S3Client::forEachPageV2(const std::string &bucket,
                                     const std::string &prefix,
                                     const std::string &delimiter,
                                     const std::string &startAfter,
                                     const std::function<bool(ListPage &page)> &take,
                                     const http::CancelToken &cancel)
{
    std::set<std::string> seenTokens;
    std::string token;
    for (int pages = 1;; ++pages) {
        // start-after is ignored by S3 once a continuation token is sent; send it on every page
        // anyway (harmless) so a server that honours only one of them still resumes correctly.
        auto page = listPageV2(bucket, prefix, delimiter, token, startAfter, 1000, cancel);
        if (!page) {
            return connectors::fail(page.error());
        }
        if (!take(*page) || !page->truncated) {
            return {};
        }
        token = page->nextContinuationToken;
        if (!seenTokens.insert(token).second) {
            return connectors::fail(connectors::Error::make(connectors::Error::Kind::Parse,
                                                            "ListObjectsV2 " + bucket
                                                                + ": the server repeated a continuation token after "
                                                                + std::to_string(pages) + " pages; stopped listing"));
        }
    }
}

Result<std::vector<ObjectInfo>> S3Client::listAfter(const std::string &bucket,
                                                    const std::string &prefix,
                                                    const std::string &startAfter,
                                                    std::size_t maxObjects,
                                                    bool *truncated,
                                                    const http::CancelToken &cancel)
{
    std::vector<ObjectInfo> objects;
    bool full = false;
    auto listed = forEachPageV2(
        bucket,
        prefix,
        {},
        startAfter,
        [&](ListPage &page) {
            for (auto &object : page.objects) {
                if (objects.size() >= maxObjects) {
                    full = true;
                    return false;
                }
                objects.push_back(std::move(object));
            }
            return true;
        },
        cancel);
    if (truncated) {
        *truncated = full;
    }
    if (!listed) {
        return connectors::fail(listed.error());
    }
    return objects;
}

Result<ListPage> S3Client::listPageV2(const std::string &bucket,
                                      const std::string &prefix,
                                      const std::string &delimiter,
                                      const std::string &continuationToken,
                                      const std::string &startAfter,
                                      int maxKeys,
                                      const http::CancelToken &cancel)
{
    Call call;
    call.name = "ListObjectsV2";
    call.bucket = bucket;
    call.query = {{"list-type", "2"}, {"max-keys", std::to_string(std::clamp(maxKeys, 1, 1000))}};
    addQueryIfSet(call,
                  {{"prefix", prefix},
                   {"delimiter", delimiter},
                   {"continuation-token", continuationToken},
                   {"start-after", startAfter}});
    auto reply = parseListReply(send(call, cancel), call, "ListBucketResult");
    if (!reply) {
        return connectors::fail(reply.error());
    }
    ListPage &page = reply->page;
    for (const XmlElement *contents : reply->root->childrenNamed("Contents")) {
        auto info = parseObjectEntry(*contents, call, false);
        if (!info) {
            return connectors::fail(info.error());
        }
        page.objects.push_back(std::move(*info));
    }
    page.nextContinuationToken = reply->root->childText("NextContinuationToken");
    if (page.truncated && page.nextContinuationToken.empty()) {
        return connectors::fail(parseError(call, "the page is truncated but has no <NextContinuationToken>"));
    }
    return std::move(page);
}

Result<std::vector<ObjectInfo>> S3Client::listAll(const std::string &bucket,
                                                  const std::string &prefix,
                                                  const std::string &delimiter,
                                                  std::vector<std::string> *commonPrefixes,
                                                  const http::CancelToken &cancel)
{
    std::vector<ObjectInfo> objects;
    auto listed = forEachPageV2(
        bucket,
        prefix,
        delimiter,
        {},
        [&](ListPage &page) {
            std::move(page.objects.begin(), page.objects.end(), std::back_inserter(objects));
            if (commonPrefixes) {
                std::move(page.commonPrefixes.begin(), page.commonPrefixes.end(), std::back_inserter(*commonPrefixes));
            }
            return true;
        },
        cancel);
    if (!listed) {
        return connectors::fail(listed.error());
    }
    return objects;
}

Result<ListPage> S3Client::listObjectVersions(const std::string &bucket,
                                              const std::string &prefix,
                                              const std::string &keyMarker,
                                              const std::string &versionIdMarker,
                                              int maxKeys,
                                              const http::CancelToken &cancel)
{
    Call call;
    call.name = "ListObjectVersions";
    call.bucket = bucket;
    call.query = {{"versions", ""}, {"max-keys", std::to_string(std::clamp(maxKeys, 1, 1000))}};
    addQueryIfSet(call, {{"prefix", prefix}, {"key-marker", keyMarker}, {"version-id-marker", versionIdMarker}});
    auto reply = parseListReply(send(call, cancel), call, "ListVersionsResult");
    if (!reply) {
        return connectors::fail(reply.error());
    }
    ListPage &page = reply->page;
    // Versions and DeleteMarkers interleave in document order, which is S3's key order.
    for (const XmlElement &element : reply->root->children) {
        const bool marker = element.name == "DeleteMarker";
        if (element.name != "Version" && !marker) {
            continue;
        }
        auto info = parseObjectEntry(element, call, marker);
        if (!info) {
            return connectors::fail(info.error());
        }
        if (info->versionId.empty()) {
            return connectors::fail(
                parseError(call, "a <" + element.name + "> of " + info->key + " has no <VersionId>"));
        }
        page.objects.push_back(std::move(*info));
    }
    page.nextKeyMarker = reply->root->childText("NextKeyMarker");
    page.nextVersionIdMarker = reply->root->childText("NextVersionIdMarker");
    if (page.truncated && page.nextKeyMarker.empty()) {
        return connectors::fail(parseError(call, "the page is truncated but has no <NextKeyMarker>"));
    }
    return std::move(page);
}

Result<std::vector<ObjectInfo>>
S3Client::listAllVersions(const std::string &bucket, const std::string &prefix, const http::CancelToken &cancel)
{
    std::vector<ObjectInfo> objects;
    std::set<std::pair<std::string, std::string>> seenMarkers;
    std::string keyMarker;
    std::string versionMarker;
    for (int pages = 1;; ++pages) {
        auto page = listObjectVersions(bucket, prefix, keyMarker, versionMarker, 1000, cancel);
        if (!page) {
            return connectors::fail(page.error());
        }
        std::move(page->objects.begin(), page->objects.end(), std::back_inserter(objects));
        if (!page->truncated) {
            return objects;
        }
        keyMarker = page->nextKeyMarker;
        versionMarker = page->nextVersionIdMarker;
        if (!seenMarkers.emplace(keyMarker, versionMarker).second) {
            return connectors::fail(connectors::Error::make(connectors::Error::Kind::Parse,
                                                            "ListObjectVersions " + bucket
                                                                + ": the server repeated a marker after "
                                                                + std::to_string(pages) + " pages; stopped listing"));
        }
    }
}

Result<ObjectHead> S3Client::headObject(const std::string &bucket,
                                        const std::string &key,
                                        const std::string &versionId,
                                        const http::CancelToken &cancel)
{
    Call call = objectCall(Method::Head, "HeadObject", bucket, key, versionId);
    auto response = send(call, cancel);
    if (!response) {
        return connectors::fail(response.error());
    }
    ObjectHead head;
    const auto length = parseInt64(headerOr(*response, "Content-Length"));
    if (!length) {
        return connectors::fail(parseError(call, "the answer has no valid Content-Length"));
    }
    head.size = *length;
    head.etag = unquoteEtag(headerOr(*response, "ETag"));
    head.versionId = headerOr(*response, "x-amz-version-id");
    head.lastModified = headerOr(*response, "Last-Modified");
    head.contentType = headerOr(*response, "Content-Type");
    return head;
}

Result<std::string> S3Client::getObject(const std::string &bucket,
                                        const std::string &key,
                                        const std::string &versionId,
                                        std::optional<std::pair<std::int64_t, std::int64_t>> range,
                                        const http::CancelToken &cancel)
{
    Call call = objectCall(Method::Get, "GetObject", bucket, key, versionId);
    if (range) {
        if (range->first < 0 || range->second < range->first) {
            return connectors::fail(connectors::Error::make(connectors::Error::Kind::Api,
                                                            call.target() + ": invalid byte range "
                                                                + std::to_string(range->first) + "-"
                                                                + std::to_string(range->second)));
        }
        call.headers.emplace_back("Range",
                                  "bytes=" + std::to_string(range->first) + "-" + std::to_string(range->second));
    }
    auto response = send(call, cancel);
    if (!response) {
        return connectors::fail(response.error());
    }
    if (range && response->status == 200) {
        // A server that ignores Range sends everything: cut the asked-for part out.
        const auto first = static_cast<std::size_t>(range->first);
        if (first >= response->body.size()) {
            return std::string{};
        }
        const auto count = static_cast<std::size_t>(range->second - range->first + 1);
        return response->body.substr(first, count);
    }
    return std::move(response->body);
}

Result<PutResult> S3Client::putObject(const std::string &bucket,
                                      const std::string &key,
                                      std::string body,
                                      const std::string &contentType,
                                      const http::CancelToken &cancel)
{
    Call call;
    call.method = Method::Put;
    call.name = "PutObject";
    call.bucket = bucket;
    call.key = key;
    call.headers.emplace_back("Content-Type", contentType.empty() ? "application/octet-stream" : contentType);
    // The server checks the bytes it stored against this, so corruption in flight is an error.
    call.headers.emplace_back("Content-MD5", digest(EVP_md5(), body, true));
    call.body = std::move(body);
    auto response = send(call, cancel);
    if (!response) {
        return connectors::fail(response.error());
    }
    PutResult result;
    result.etag = unquoteEtag(headerOr(*response, "ETag"));
    result.versionId = headerOr(*response, "x-amz-version-id");
    return result;
}

Result<void> S3Client::deleteObject(const std::string &bucket,
                                    const std::string &key,
                                    const std::string &versionId,
                                    const http::CancelToken &cancel)
{
    Call call = objectCall(Method::Delete, "DeleteObject", bucket, key, versionId);
    auto response = send(call, cancel);
    if (!response) {
        return connectors::fail(response.error());
    }
    return {};
}

Result<Versioning> S3Client::bucketVersioning(const std::string &bucket, const http::CancelToken &cancel)
{
    Call call;
    call.name = "GetBucketVersioning";
    call.bucket = bucket;
    call.query.emplace_back("versioning", "");
    auto root = parseReply(send(call, cancel), call, "VersioningConfiguration");
    if (!root) {
        return connectors::fail(root.error());
    }
    const XmlElement *status = (*root)->child("Status");
    if (!status) {
        return Versioning::Never;
    }
    if (status->text == "Enabled") {
        return Versioning::Enabled;
    }
    if (status->text == "Suspended") {
        return Versioning::Suspended;
    }
    return connectors::fail(parseError(call, "unknown versioning <Status> \"" + status->text + "\""));
}

Result<void> S3Client::createBucket(const std::string &bucket, const http::CancelToken &cancel)
{
    Call call;
    call.method = Method::Put;
    call.name = "CreateBucket";
    call.bucket = bucket;
    if (!m_config.region.empty() && m_config.region != "us-east-1") {
        call.body = "<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><LocationConstraint>"
                    + m_config.region + "</LocationConstraint></CreateBucketConfiguration>";
        call.headers.emplace_back("Content-Type", "application/xml");
    }
    auto response = send(call, cancel);
    if (!response) {
        if (response.error().apiCode == "BucketAlreadyOwnedByYou") {
            return {};
        }
        return connectors::fail(response.error());
    }
    return {};
}

Result<void> S3Client::deleteBucket(const std::string &bucket, const http::CancelToken &cancel)
{
    Call call;
    call.method = Method::Delete;
    call.name = "DeleteBucket";
    call.bucket = bucket;
    auto response = send(call, cancel);
    if (!response) {
        return connectors::fail(response.error());
    }
    return {};
}

Result<void> S3Client::setBucketVersioning(const std::string &bucket, bool enabled, const http::CancelToken &cancel)
{
    Call call;
    call.method = Method::Put;
    call.name = "PutBucketVersioning";
    call.bucket = bucket;
    call.query.emplace_back("versioning", "");
    call.body = std::string("<VersioningConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Status>")
                + (enabled ? "Enabled" : "Suspended") + "</Status></VersioningConfiguration>";
    call.headers.emplace_back("Content-Type", "application/xml");
    call.headers.emplace_back("Content-MD5", digest(EVP_md5(), call.body, true));
    auto response = send(call, cancel);
    if (!response) {
        return connectors::fail(response.error());
    }
    return {};
}

Result<std::vector<std::string>> S3Client::listBuckets(const http::CancelToken &cancel)
{
    Call call;
    call.name = "ListBuckets";
    auto root = parseReply(send(call, cancel), call, "ListAllMyBucketsResult");
    if (!root) {
        return connectors::fail(root.error());
    }
    std::vector<std::string> names;
    if (const XmlElement *buckets = (*root)->child("Buckets")) {
        for (const XmlElement *bucket : buckets->childrenNamed("Bucket")) {
            const std::string name = bucket->childText("Name");
            if (name.empty()) {
                return connectors::fail(parseError(call, "a <Bucket> has no <Name>"));
            }
            names.push_back(name);
        }
    }
    return names;
}

} // namespace strata::s3
