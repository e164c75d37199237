#include "connectors/http/curltransport.h"

#include "connectors/http/curlcall.h"

#include <curl/curl.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <openssl/crypto.h>
#include <optional>
#include <vector>

namespace strata::http {

namespace {

using Clock = std::chrono::steady_clock;

// How often a blocked transfer or slot wait looks at its CancelToken.
constexpr auto CancelPollInterval = std::chrono::milliseconds{50};

void ensureCurlGlobalInit()
{
    static std::once_flag once;
    std::call_once(once, [] {
        // OpenSSL's own exit handler frees its global state while other threads may still be
        // ending (a resolver thread, a watch being torn down), and frees one block twice when they
        // meet (openssl/openssl#6214; seen here as an exit-time double free under ASan). The
        // process is ending: the operating system reclaims the memory, so no handler is
        // registered. It must come before curl initialises OpenSSL; in the apps, Qt's TLS backend
        // may have come first, and then its handler stays.
        OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, nullptr);
        curl_global_init(CURL_GLOBAL_DEFAULT);
    });
}

bool equalsNoCase(std::string_view a, std::string_view b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    });
}

// curl_easy_setopt is variadic and unchecked in C++: these pin the argument type per option kind.
void setLong(CURL *easy, CURLoption option, long value)
{
    curl_easy_setopt(easy, option, value);
}

void setString(CURL *easy, CURLoption option, const char *value)
{
    curl_easy_setopt(easy, option, value);
}

void setPointer(CURL *easy, CURLoption option, void *value)
{
    curl_easy_setopt(easy, option, value);
}

void setOffset(CURL *easy, CURLoption option, curl_off_t value)
{
    curl_easy_setopt(easy, option, value);
}

/// "https://user:pw@host:443/x" -> "https://host:443/x": credentials in URLs never reach logs or messages.
std::string withoutUserinfo(std::string_view url)
{
    const auto scheme = url.find("://");
    if (scheme == std::string_view::npos) {
        return std::string(url);
    }
    const auto authorityStart = scheme + 3;
    const auto authorityEnd = std::min(url.find_first_of("/?#", authorityStart), url.size());
    const auto at = url.substr(authorityStart, authorityEnd - authorityStart).rfind('@');
    if (at == std::string_view::npos) {
        return std::string(url);
    }
    return std::string(url.substr(0, authorityStart)) + std::string(url.substr(authorityStart + at + 1));
}

bool isSecretQueryKey(std::string_view key)
{
    static constexpr std::array<std::string_view, 10> secrets{"sig",
                                                              "signature",
                                                              "x-amz-signature",
                                                              "x-amz-credential",
                                                              "x-amz-security-token",
                                                              "access_token",
                                                              "token",
                                                              "password",
                                                              "client_secret",
                                                              "code"};
    return std::any_of(secrets.begin(), secrets.end(), [key](std::string_view s) {
        return equalsNoCase(key, s);
    });
}

/// Masks the value of every secret query parameter ("?sig=...", "&token=...") wherever it appears
/// in `text`: a URL, a request line or one of libcurl's trace lines.
std::string redactSecretQueryValues(std::string_view text)
{
    constexpr std::string_view keyEnd = "=&#? \t\"'";
    constexpr std::string_view valueEnd = "&# \t\"']";
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i++];
        out += c;
        if (c != '?' && c != '&') {
            continue;
        }
        const auto keyStop = std::min(text.find_first_of(keyEnd, i), text.size());
        if (keyStop < text.size() && text[keyStop] == '=' && isSecretQueryKey(text.substr(i, keyStop - i))) {
            out.append(text.substr(i, keyStop - i)).append("=<redacted>");
            i = std::min(text.find_first_of(valueEnd, keyStop + 1), text.size());
        }
    }
    return out;
}

/// URL as it may appear in logs and messages: no userinfo, secret query values masked.
std::string displayUrl(std::string_view url)
{
    return redactSecretQueryValues(withoutUserinfo(url));
}

/// "https://host:port" of `url`, for messages about the server rather than the resource.
std::string originOf(std::string_view url)
{
    const std::string clean = withoutUserinfo(url);
    const auto scheme = clean.find("://");
    if (scheme == std::string::npos) {
        return clean;
    }
    return clean.substr(0, std::min(clean.find_first_of("/?#", scheme + 3), clean.size()));
}

/// Per-request state reached from libcurl's callbacks.
struct Transfer
{
    std::string body;
    Headers headers;
    std::size_t maxBytes = 0;
    bool tooLarge = false;
    bool outOfMemory = false;
    const CancelToken *cancel = nullptr;
    const LogSink *log = nullptr;
    /// stream(): receives 2xx bodies; `stopped` records that it asked to end the transfer.
    const BodySink *sink = nullptr;
    CURL *easy = nullptr;
    bool stopped = false;
    bool sinkFailed = false;
    /// Response bytes seen so far (header lines and decoded body), for the low-speed check.
    std::size_t received = 0;
};

size_t writeCallback(char *data, size_t size, size_t count, void *userdata)
{
    auto *transfer = static_cast<Transfer *>(userdata);
    const size_t bytes = size * count;
    transfer->received += bytes;
    if (transfer->sink) {
        long status = 0;
        curl_easy_getinfo(transfer->easy, CURLINFO_RESPONSE_CODE, &status);
        if (status >= 200 && status < 300) {
            try {
                if (!(*transfer->sink)(std::string_view(data, bytes))) {
                    transfer->stopped = true;
                    return 0;
                }
            } catch (...) {
                transfer->sinkFailed = true;
                return 0;
            }
            return bytes;
        }
    }
    if (transfer->maxBytes > 0 && transfer->body.size() + bytes > transfer->maxBytes) {
        transfer->tooLarge = true;
        return 0; // anything but `bytes` makes libcurl abort with CURLE_WRITE_ERROR
    }
    try {
        transfer->body.append(data, bytes);
    } catch (...) {
        transfer->outOfMemory = true;
        return 0;
    }
    return bytes;
}

size_t headerCallback(char *data, size_t size, size_t count, void *userdata)
{
    auto *transfer = static_cast<Transfer *>(userdata);
    const size_t bytes = size * count;
    transfer->received += bytes;
    const std::string_view line = trimHttpSpace(std::string_view(data, bytes));
    try {
        if (line.substr(0, 5) == "HTTP/") {
            // A new status line: keep only the final response's headers (after 1xx and redirects).
            transfer->headers.clear();
        } else if (!line.empty()) {
            const auto colon = line.find(':');
            if (colon != std::string_view::npos) {
                transfer->headers.emplace_back(std::string(trimHttpSpace(line.substr(0, colon))),
                                               std::string(trimHttpSpace(line.substr(colon + 1))));
            }
        }
    } catch (...) {
        transfer->outOfMemory = true;
        return 0;
    }
    return bytes;
}

int xferInfoCallback(void *clientp, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
{
    const auto *transfer = static_cast<const Transfer *>(clientp);
    return transfer->cancel->isCancelled() ? 1 : 0;
}

/// Masks credentials embedded in URLs inside free text (curl prints proxy URLs from the environment).
std::string redactUrlsInText(std::string_view text)
{
    std::string out;
    std::size_t position = 0;
    while (position < text.size()) {
        const auto scheme = text.find("://", position);
        if (scheme == std::string_view::npos) {
            break;
        }
        const auto authorityStart = scheme + 3;
        const auto authorityEnd = std::min(text.find_first_of("/?# '\"", authorityStart), text.size());
        const auto at = text.substr(authorityStart, authorityEnd - authorityStart).rfind('@');
        out.append(text.substr(position, authorityStart - position));
        if (at != std::string_view::npos) {
            out.append("<redacted>@");
            position = authorityStart + at + 1;
        } else {
            position = authorityStart;
        }
    }
    out.append(text.substr(std::min(position, text.size())));
    return out;
}

int debugCallback(CURL *, curl_infotype type, char *data, size_t size, void *userptr)
{
    const auto *transfer = static_cast<const Transfer *>(userptr);
    const char *prefix = nullptr;
    switch (type) {
    case CURLINFO_TEXT:
        prefix = "* ";
        break;
    case CURLINFO_HEADER_IN:
        prefix = "< ";
        break;
    case CURLINFO_HEADER_OUT:
        prefix = "> ";
        break;
    default:
        return 0; // bodies and TLS records are never logged: they may carry secrets
    }
    try {
        std::string_view rest(data, size);
        while (!rest.empty()) {
            const auto newline = rest.find('\n');
            const std::string_view line = trimHttpSpace(rest.substr(0, newline));
            rest = newline == std::string_view::npos ? std::string_view{} : rest.substr(newline + 1);
            if (!line.empty()) {
                (*transfer->log)(LogLevel::Debug,
                                 prefix + redactSecretQueryValues(redactUrlsInText(redactHeaderLine(line))));
            }
        }
    } catch (...) {
        // A failing log sink must not break the transfer.
    }
    return 0;
}

bool isTlsError(CURLcode code)
{
    switch (code) {
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_SSL_CLIENTCERT:
    case CURLE_USE_SSL_FAILED:
        return true;
    default:
        return false;
    }
}

connectors::Error transportError(connectors::Error::Kind kind, std::string message, CURLcode code)
{
    connectors::Error error = connectors::Error::make(kind, std::move(message));
    error.curlCode = static_cast<int>(code);
    return error;
}

struct CurlSlistDeleter
{
    void operator()(curl_slist *list) const { curl_slist_free_all(list); }
};
using HeaderList = std::unique_ptr<curl_slist, CurlSlistDeleter>;

bool appendHeader(HeaderList &list, const std::string &line)
{
    curl_slist *next = curl_slist_append(list.get(), line.c_str());
    if (!next) {
        return false;
    }
    (void)list.release();
    list.reset(next);
    return true;
}

} // namespace

std::string redactHeaderLine(std::string_view line)
{
    static constexpr std::array<std::string_view, 7> sensitive{"authorization",
                                                               "proxy-authorization",
                                                               "cookie",
                                                               "set-cookie",
                                                               "x-auth-token",
                                                               "x-api-key",
                                                               "x-amz-security-token"};
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) {
        return std::string(line);
    }
    const std::string_view name = trimHttpSpace(line.substr(0, colon));
    const bool secret = std::any_of(sensitive.begin(), sensitive.end(), [name](std::string_view s) {
        return equalsNoCase(name, s);
    });
    if (!secret) {
        return std::string(line);
    }
    std::string out(line.substr(0, colon));
    out += ": <redacted>";
    if (line.size() >= 2 && line.substr(line.size() - 2) == "\r\n") {
        out += "\r\n";
    } else if (!line.empty() && line.back() == '\n') {
        out += '\n';
    }
    return out;
}

struct CurlTransport::Private
{
    /// A multi handle owns the connection cache, so an easy handle is pooled together with its multi:
    /// the next request on the slot reuses the kept-alive connection (and its TLS session).
    struct Slot
    {
        CURLM *multi = nullptr;
        CURL *easy = nullptr;
    };

    explicit Private(TransportOptions opts)
        : options(std::move(opts))
        , maxInFlight(std::max(options.maxInFlight, 1))
    {
        share = curl_share_init();
        if (share) {
            curl_share_setopt(share, CURLSHOPT_LOCKFUNC, &Private::lockShare);
            curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, &Private::unlockShare);
            curl_share_setopt(share, CURLSHOPT_USERDATA, this);
            curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
            curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
        }
    }

    ~Private()
    {
        for (const Slot &slot : idle) {
            destroy(slot);
        }
        if (share) {
            curl_share_cleanup(share);
        }
    }

    static void lockShare(CURL *, curl_lock_data data, curl_lock_access, void *userptr)
    {
        static_cast<Private *>(userptr)->shareLocks[static_cast<std::size_t>(data) % CURL_LOCK_DATA_LAST].lock();
    }

    static void unlockShare(CURL *, curl_lock_data data, void *userptr)
    {
        static_cast<Private *>(userptr)->shareLocks[static_cast<std::size_t>(data) % CURL_LOCK_DATA_LAST].unlock();
    }

    static void destroy(const Slot &slot)
    {
        if (slot.easy) {
            curl_easy_cleanup(slot.easy);
        }
        if (slot.multi) {
            curl_multi_cleanup(slot.multi);
        }
    }

    /// Waits for an in-flight slot; false when cancelled first.
    bool acquire(const CancelToken &cancel, Slot &slot)
    {
        std::unique_lock lock(poolMutex);
        while (inFlight >= maxInFlight) {
            if (cancel.isCancelled()) {
                return false;
            }
            slotFreed.wait_for(lock, CancelPollInterval);
        }
        if (cancel.isCancelled()) {
            return false;
        }
        ++inFlight;
        if (!idle.empty()) {
            slot = idle.back();
            idle.pop_back();
        }
        return true;
    }

    void release(Slot slot)
    {
        if (slot.easy) {
            // Drops per-request options (pointers into the finished request) but keeps the multi's
            // connection cache.
            curl_easy_reset(slot.easy);
        }
        {
            std::lock_guard lock(poolMutex);
            --inFlight;
            if (slot.easy && slot.multi && idle.size() < static_cast<std::size_t>(maxInFlight)) {
                idle.push_back(slot);
                slot = Slot{};
            }
        }
        slotFreed.notify_one();
        destroy(slot);
    }

    /// Releases the slot on every path out of perform().
    class SlotGuard
    {
    public:
        SlotGuard(Private &owner, Slot &slot)
            : m_owner(owner)
            , m_slot(slot)
        {}
        ~SlotGuard() { m_owner.release(m_slot); }
        SlotGuard(const SlotGuard &) = delete;
        SlotGuard &operator=(const SlotGuard &) = delete;

    private:
        Private &m_owner;
        Slot &m_slot;
    };

    connectors::Result<HttpResponse>
    perform(const HttpRequest &request, const CancelToken &cancel, const BodySink *sink);

    TransportOptions options;
    int maxInFlight;
    CURLSH *share = nullptr;
    std::array<std::mutex, CURL_LOCK_DATA_LAST> shareLocks;
    mutable std::mutex poolMutex;
    std::condition_variable slotFreed;
    int inFlight = 0;
    std::vector<Slot> idle;
};

namespace detail {

struct CurlCall::State
{
    State(const TransportOptions &opts, const HttpRequest &req, CancelToken token, const BodySink *bodySink)
        : options(opts)
        , request(req)
        , method(methodName(req.method))
        , shownUrl(displayUrl(req.url))
        , origin(originOf(req.url))
        , cancel(std::move(token))
        , sink(bodySink)
    {}

    [[nodiscard]] connectors::Error cancelled() const
    {
        return connectors::Error::make(connectors::Error::Kind::Cancelled,
                                       std::string("Request ") + method + " " + shownUrl + " was cancelled");
    }
    std::optional<connectors::Error> attach(CURL *handle, CURLSH *share);
    bool checkStalled(Clock::time_point now);
    connectors::Result<HttpResponse> finish(CURLcode code, bool cancelledHere, bool stalled);

    const TransportOptions &options;
    const HttpRequest &request;
    const char *method;
    std::string shownUrl;
    std::string origin;
    CancelToken cancel;
    const BodySink *sink;
    CURL *easy = nullptr;
    Transfer transfer;
    std::array<char, CURL_ERROR_SIZE> errorBuffer{};
    HeaderList headers;
    Clock::time_point started;
    // The low-speed check of send(): libcurl's own (CURLOPT_LOW_SPEED_*) would also count the
    // wait for the first byte, which is a slow server's right.
    bool watchSpeed = false;
    std::optional<Clock::time_point> answerStarted;
    Clock::time_point windowStart;
    std::size_t windowBytes = 0;
};

std::optional<connectors::Error> CurlCall::State::attach(CURL *handle, CURLSH *share)
{
    easy = handle;

    transfer.maxBytes = options.maxResponseBytes;
    transfer.cancel = &cancel;
    transfer.log = options.log ? &options.log : nullptr;
    transfer.sink = sink;
    transfer.easy = easy;

    setString(easy, CURLOPT_URL, request.url.c_str());
    setString(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    setString(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    setLong(easy, CURLOPT_NOSIGNAL, 1L);
    if (share) {
        setPointer(easy, CURLOPT_SHARE, share);
    }
    setString(easy, CURLOPT_USERAGENT, options.userAgent.c_str());
    setString(easy, CURLOPT_ACCEPT_ENCODING, ""); // every encoding this libcurl can decode
    setLong(easy, CURLOPT_TCP_KEEPALIVE, 1L);
    setLong(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(std::max<long long>(options.connectTimeout.count(), 0)));
    // A stream (watch) lives as long as the server keeps it open; a silent one is caught by the
    // low-speed check instead.
    const auto total = request.totalTimeout.value_or(sink ? std::chrono::milliseconds{0} : options.totalTimeout);
    setLong(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(std::max<long long>(total.count(), 0)));
    if (sink && options.streamIdleTimeout.count() > 0) {
        setLong(easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
        setLong(easy, CURLOPT_LOW_SPEED_TIME, static_cast<long>((options.streamIdleTimeout.count() + 999) / 1000));
    }
    // Blobs are copied by libcurl (CURL_BLOB_COPY), so the structs may be temporaries.
    const auto setBlob = [handle](CURLoption option, const std::string &pem) {
        curl_blob blob{const_cast<char *>(pem.data()), pem.size(), CURL_BLOB_COPY};
        curl_easy_setopt(handle, option, &blob);
    };
    if (options.insecureSkipTlsVerify) {
        setLong(easy, CURLOPT_SSL_VERIFYPEER, 0L);
        setLong(easy, CURLOPT_SSL_VERIFYHOST, 0L);
    } else {
        setLong(easy, CURLOPT_SSL_VERIFYPEER, 1L);
        setLong(easy, CURLOPT_SSL_VERIFYHOST, 2L);
        if (!options.caPem.empty()) {
            setBlob(CURLOPT_CAINFO_BLOB, options.caPem);
        } else if (!options.caFile.empty()) {
            setString(easy, CURLOPT_CAINFO, options.caFile.c_str());
        }
    }
    const bool requestIdentity = !request.clientCertPem.empty();
    const std::string &clientCert = requestIdentity ? request.clientCertPem : options.clientCertPem;
    const std::string &clientKey = requestIdentity ? request.clientKeyPem : options.clientKeyPem;
    if (!clientCert.empty()) {
        setString(easy, CURLOPT_SSLCERTTYPE, "PEM");
        setBlob(CURLOPT_SSLCERT_BLOB, clientCert);
        if (!clientKey.empty()) {
            setString(easy, CURLOPT_SSLKEYTYPE, "PEM");
            setBlob(CURLOPT_SSLKEY_BLOB, clientKey);
        }
    }
    setPointer(easy, CURLOPT_ERRORBUFFER, errorBuffer.data());
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &writeCallback);
    setPointer(easy, CURLOPT_WRITEDATA, &transfer);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &headerCallback);
    setPointer(easy, CURLOPT_HEADERDATA, &transfer);
    setLong(easy, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, &xferInfoCallback);
    setPointer(easy, CURLOPT_XFERINFODATA, &transfer);
    if (transfer.log) {
        setLong(easy, CURLOPT_VERBOSE, 1L);
        curl_easy_setopt(easy, CURLOPT_DEBUGFUNCTION, &debugCallback);
        setPointer(easy, CURLOPT_DEBUGDATA, &transfer);
    }

    bool headersOk = true;
    const bool hasBody = request.method == Method::Post || request.method == Method::Put
                         || request.method == Method::Patch
                         || (request.method == Method::Delete && !request.body.empty());
    switch (request.method) {
    case Method::Get:
    case Method::Head:
        // No CURLOPT_FOLLOWLOCATION: a redirect is reported, not followed (see below).
        setLong(easy, request.method == Method::Head ? CURLOPT_NOBODY : CURLOPT_HTTPGET, 1L);
        break;
    case Method::Post:
    case Method::Put:
    case Method::Patch:
    case Method::Delete:
        if (request.method != Method::Post) {
            setString(easy, CURLOPT_CUSTOMREQUEST, method);
        }
        if (hasBody) {
            setLong(easy, CURLOPT_POST, 1L);
            setOffset(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
            setPointer(easy, CURLOPT_POSTFIELDS, const_cast<char *>(request.body.data()));
        }
        break;
    }
    // libcurl re-sends a request by itself when a reused connection dies before the first
    // response byte. The server may already have acted on it, so for a mutation that would apply
    // it twice: non-idempotent requests always get a fresh connection, where libcurl never does.
    if (!request.isIdempotent()) {
        setLong(easy, CURLOPT_FRESH_CONNECT, 1L);
    }
    // A HEAD answer announces the size of a body it does not send: only cap real bodies up front.
    if (options.maxResponseBytes > 0 && request.method != Method::Head && !sink) {
        setOffset(easy, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(options.maxResponseBytes));
    }

    for (const auto &[name, value] : request.headers) {
        // "Name;" is libcurl's spelling of a header with an empty value ("Name:" would remove it).
        headersOk = headersOk && appendHeader(headers, value.empty() ? name + ";" : name + ": " + value);
    }
    // libcurl 7.88's SigV4 signs header-removal lines ("Expect:") as empty headers it then does not
    // send, which S3 servers reject as SignatureDoesNotMatch: S3 callers set Content-Type themselves.
    if (hasBody && !request.sigv4) {
        // Without these libcurl would add "Expect: 100-continue" (a one-second stall against servers
        // that ignore it) and a form-urlencoded Content-Type the caller never asked for.
        headersOk = headersOk && appendHeader(headers, "Expect:");
        if (!findHeader(request.headers, "Content-Type")) {
            headersOk = headersOk && appendHeader(headers, "Content-Type:");
        }
    }
    if (request.sigv4) {
        const std::string provider = "aws:amz:" + request.sigv4->region + ":" + request.sigv4->service;
        setString(easy, CURLOPT_AWS_SIGV4, provider.c_str());
        setString(easy, CURLOPT_USERNAME, request.sigv4->accessKey.c_str());
        setString(easy, CURLOPT_PASSWORD, request.sigv4->secretKey.c_str());
        if (!findHeader(request.headers, "x-amz-content-sha256")) {
            // libcurl 7.88 signs but does not add the payload hash that S3 requires.
            headersOk = headersOk && appendHeader(headers, "x-amz-content-sha256: UNSIGNED-PAYLOAD");
        }
    } else if (request.basic) {
        setString(easy, CURLOPT_USERNAME, request.basic->username.c_str());
        setString(easy, CURLOPT_PASSWORD, request.basic->password.c_str());
        setLong(easy, CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_BASIC));
    } else if (request.bearer && !findHeader(request.headers, "Authorization")) {
        headersOk = headersOk && appendHeader(headers, "Authorization: Bearer " + request.bearer->token);
    }
    if (!headersOk) {
        return connectors::Error::make(connectors::Error::Kind::Transport,
                                       "Out of memory building the request headers");
    }
    setPointer(easy, CURLOPT_HTTPHEADER, headers.get());

    started = Clock::now();
    watchSpeed = !sink && options.lowSpeedWindow.count() > 0;
    return std::nullopt;
}

bool CurlCall::State::checkStalled(Clock::time_point now)
{
    if (!watchSpeed) {
        return false;
    }
    if (!answerStarted) {
        curl_off_t firstByteMicros = 0;
        curl_easy_getinfo(easy, CURLINFO_STARTTRANSFER_TIME_T, &firstByteMicros);
        if (transfer.received > 0 || firstByteMicros > 0) {
            answerStarted = now;
            windowStart = now;
            windowBytes = transfer.received;
        }
    } else if (now - windowStart >= options.lowSpeedWindow) {
        const double seconds = std::chrono::duration<double>(now - windowStart).count();
        if (static_cast<double>(transfer.received - windowBytes)
            < static_cast<double>(options.lowSpeedBytesPerSecond) * seconds) {
            return true;
        }
        windowStart = now;
        windowBytes = transfer.received;
    }
    return false;
}

connectors::Result<HttpResponse> CurlCall::State::finish(CURLcode code, bool cancelledHere, bool stalled)
{
    const auto wallMs = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);

    long status = 0;
    long requestSize = 0;
    curl_off_t totalMicros = 0;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_getinfo(easy, CURLINFO_REQUEST_SIZE, &requestSize);
    curl_easy_getinfo(easy, CURLINFO_TOTAL_TIME_T, &totalMicros);
    const bool requestSent = requestSize > 0;

    const auto logLine = [&](LogLevel level, const std::string &outcome, const std::string &message = {}) {
        if (options.log) {
            try {
                options.log(level,
                            std::string(method) + " " + shownUrl + " -> " + outcome + " in "
                                + std::to_string(wallMs.count()) + " ms" + (message.empty() ? "" : ": " + message));
            } catch (...) {
                // Logging is best effort.
            }
        }
    };

    const bool stoppedByCaller = transfer.stopped && code == CURLE_WRITE_ERROR;
    if (!cancelledHere && !stalled && (code == CURLE_OK || stoppedByCaller) && !transfer.outOfMemory) {
        HttpResponse response;
        response.status = static_cast<int>(status);
        response.headers = std::move(transfer.headers);
        if (const auto location = response.header("Location"); status >= 300 && status < 400 && location) {
            // Following could carry the credentials to another host or from HTTPS to HTTP (and a
            // 401 from there would read as wrong credentials): say where it pointed instead.
            char *resolved = nullptr;
            curl_easy_getinfo(easy, CURLINFO_REDIRECT_URL, &resolved);
            connectors::Error redirect = connectors::Error::make(
                connectors::Error::Kind::Http,
                origin + " answered " + std::string(method) + " " + shownUrl + " with a redirect to "
                    + displayUrl(resolved ? std::string_view(resolved) : std::string_view(*location)) + " (HTTP "
                    + std::to_string(status)
                    + "); Strata does not follow redirects, which could carry the credentials to another host or "
                      "over plain HTTP: point the source at the final URL",
                static_cast<int>(status));
            logLine(LogLevel::Warning, "redirect", redirect.message);
            return connectors::fail(std::move(redirect));
        }
        response.body = std::move(transfer.body);
        response.elapsed =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::microseconds{totalMicros});
        logLine(LogLevel::Info, std::to_string(response.status));
        return response;
    }

    const std::string detail = errorBuffer[0] != '\0' ? std::string(errorBuffer.data()) : curl_easy_strerror(code);
    const std::string what = std::string(method) + " " + shownUrl;
    connectors::Error error;
    if (cancelledHere || (code == CURLE_ABORTED_BY_CALLBACK && cancel.isCancelled())) {
        error = cancelled();
        error.curlCode = static_cast<int>(CURLE_ABORTED_BY_CALLBACK);
    } else if (stalled) {
        const double seconds = std::chrono::duration<double>(Clock::now() - *answerStarted).count();
        std::array<char, 32> secondsText{};
        std::snprintf(secondsText.data(), secondsText.size(), "%.1f", seconds);
        const double windowSeconds = std::chrono::duration<double>(options.lowSpeedWindow).count();
        std::array<char, 32> windowText{};
        std::snprintf(windowText.data(), windowText.size(), "%g", windowSeconds);
        error = transportError(connectors::Error::Kind::Timeout,
                               origin + " stopped sending its answer to " + what + ": "
                                   + std::to_string(transfer.received) + " bytes in " + secondsText.data()
                                   + " s, under " + std::to_string(options.lowSpeedBytesPerSecond) + " byte/s for "
                                   + windowText.data() + " s",
                               CURLE_OPERATION_TIMEDOUT);
    } else if (transfer.tooLarge || code == CURLE_FILESIZE_EXCEEDED) {
        // Both the announced and the streamed overflow report one code, so retryable() can skip them.
        error = transportError(connectors::Error::Kind::Transport,
                               "Response to " + what + " exceeds the limit of "
                                   + std::to_string(options.maxResponseBytes) + " bytes",
                               CURLE_FILESIZE_EXCEEDED);
    } else if (transfer.sinkFailed) {
        error = transportError(
            connectors::Error::Kind::Transport, "Processing the streamed response to " + what + " failed", code);
    } else if (transfer.outOfMemory) {
        error =
            transportError(connectors::Error::Kind::Transport, "Out of memory receiving the response to " + what, code);
    } else if (code == CURLE_OPERATION_TIMEDOUT) {
        curl_off_t connectMicros = 0;
        curl_easy_getinfo(easy, CURLINFO_CONNECT_TIME_T, &connectMicros);
        const std::string message = connectMicros == 0 && !requestSent
                                        ? "Connecting to " + origin + " timed out: " + detail
                                        : what + " timed out waiting for the response: " + detail;
        error = transportError(connectors::Error::Kind::Timeout, message, code);
    } else if (code == CURLE_PEER_FAILED_VERIFICATION) {
        error = transportError(
            connectors::Error::Kind::Tls, "TLS certificate of " + origin + " not trusted: " + detail, code);
    } else if (code == CURLE_SSL_CACERT_BADFILE) {
        const std::string source = options.caPem.empty() ? "CA file \"" + options.caFile + "\"" : "CA certificate data";
        error = transportError(
            connectors::Error::Kind::Tls, source + " for " + origin + " cannot be used: " + detail, code);
    } else if (code == CURLE_SSL_CERTPROBLEM) {
        error = transportError(connectors::Error::Kind::Tls,
                               "Client certificate or key for " + origin + " cannot be used: " + detail,
                               code);
    } else if (isTlsError(code)) {
        error =
            transportError(connectors::Error::Kind::Tls, "TLS handshake with " + origin + " failed: " + detail, code);
    } else {
        const std::string notHttp = origin + " did not answer " + what
                                    + " with HTTP (the first bytes were not an HTTP status line: is this the right "
                                      "port?)";
        std::string message;
        switch (code) {
        case CURLE_COULDNT_RESOLVE_HOST:
            message = "Cannot resolve the host name of " + origin + ": " + detail;
            break;
        case CURLE_COULDNT_RESOLVE_PROXY:
            message = "Cannot resolve the proxy for " + origin + ": " + detail;
            break;
        case CURLE_COULDNT_CONNECT:
            message = "Cannot connect to " + origin + ": " + detail;
            break;
        case CURLE_GOT_NOTHING:
            message = what + " got no response: the server closed the connection (" + detail + ")";
            break;
        case CURLE_SEND_ERROR:
        case CURLE_RECV_ERROR:
            message = "Connection to " + origin + " was lost during " + what + ": " + detail;
            break;
        case CURLE_PARTIAL_FILE:
            message = "Response to " + what + " truncated: " + detail;
            break;
        case CURLE_TOO_MANY_REDIRECTS:
            message = what + " was redirected too many times: " + detail;
            break;
        case CURLE_WEIRD_SERVER_REPLY:
            message = notHttp;
            break;
        case CURLE_UNSUPPORTED_PROTOCOL:
            // libcurl refuses a reply without a status line as "Received HTTP/0.9".
            message =
                detail.find("HTTP/0.9") != std::string::npos ? notHttp : "Invalid URL \"" + shownUrl + "\": " + detail;
            break;
        case CURLE_URL_MALFORMAT:
            message = "Invalid URL \"" + shownUrl + "\": " + detail;
            break;
        default:
            message = what + " failed: " + detail;
            break;
        }
        error = transportError(connectors::Error::Kind::Transport, std::move(message), code);
    }
    // The server may have acted on a request whose answer was lost; connect and TLS failures
    // happen before any request byte is written.
    error.outcomeUnknown = requestSent && error.kind != connectors::Error::Kind::Tls;
    logLine(LogLevel::Warning, std::string(connectors::Error::kindName(error.kind)) + " error", error.message);
    return connectors::fail(std::move(error));
}

CurlCall::CurlCall(const TransportOptions &options,
                   const HttpRequest &request,
                   CancelToken cancel,
                   const BodySink *sink)
    : d(std::make_unique<State>(options, request, std::move(cancel), sink))
{}

CurlCall::~CurlCall() = default;

std::optional<connectors::Error> CurlCall::invalid() const
{
    for (const auto &[name, value] : d->request.headers) {
        if (name.find_first_of("\r\n:") != std::string::npos || value.find_first_of("\r\n") != std::string::npos) {
            return connectors::Error::make(connectors::Error::Kind::Transport,
                                           "Request header \"" + name + "\" contains a line break or colon");
        }
    }
    return std::nullopt;
}

connectors::Error CurlCall::cancelledError() const
{
    return d->cancelled();
}

std::optional<connectors::Error> CurlCall::attach(CURL *easy, CURLSH *share)
{
    return d->attach(easy, share);
}

bool CurlCall::stalled(std::chrono::steady_clock::time_point now)
{
    return d->checkStalled(now);
}

void CurlCall::setFailure(const char *message)
{
    std::snprintf(d->errorBuffer.data(), d->errorBuffer.size(), "%s", message);
}

connectors::Result<HttpResponse> CurlCall::finish(CURLcode code, bool cancelledHere, bool stalled)
{
    return d->finish(code, cancelledHere, stalled);
}

void curlGlobalInit()
{
    ensureCurlGlobalInit();
}

} // namespace detail

connectors::Result<HttpResponse>
CurlTransport::Private::perform(const HttpRequest &request, const CancelToken &cancel, const BodySink *sink)
{
    detail::CurlCall call(options, request, cancel, sink);
    if (auto invalid = call.invalid()) {
        return connectors::fail(std::move(*invalid));
    }

    Slot slot;
    if (!acquire(cancel, slot)) {
        return connectors::fail(call.cancelledError());
    }
    const SlotGuard guard(*this, slot);
    if (!slot.multi) {
        slot.multi = curl_multi_init();
    }
    if (!slot.easy) {
        slot.easy = curl_easy_init();
    }
    if (!slot.multi || !slot.easy) {
        return connectors::fail(
            connectors::Error::make(connectors::Error::Kind::Transport, "libcurl could not create a transfer handle"));
    }
    CURL *easy = slot.easy;
    if (auto error = call.attach(easy, share)) {
        return connectors::fail(std::move(*error));
    }

    CURLcode code = CURLE_OK;
    bool cancelledHere = false;
    bool stalled = false;
    if (curl_multi_add_handle(slot.multi, easy) != CURLM_OK) {
        return connectors::fail(
            connectors::Error::make(connectors::Error::Kind::Transport, "libcurl could not start the transfer"));
    }
    for (;;) {
        int running = 0;
        const CURLMcode performed = curl_multi_perform(slot.multi, &running);
        if (performed != CURLM_OK) {
            code = CURLE_FAILED_INIT;
            call.setFailure(curl_multi_strerror(performed));
            break;
        }
        if (running == 0) {
            int queued = 0;
            while (CURLMsg *message = curl_multi_info_read(slot.multi, &queued)) {
                if (message->msg == CURLMSG_DONE && message->easy_handle == easy) {
                    code = message->data.result;
                }
            }
            break;
        }
        // Checked here as well as in the progress callback, which libcurl calls only about once a
        // second while a server stalls.
        if (cancel.isCancelled()) {
            cancelledHere = true;
            break;
        }
        if (call.stalled(Clock::now())) {
            stalled = true;
            break;
        }
        const CURLMcode polled = curl_multi_poll(slot.multi, nullptr, 0, CancelPollInterval.count(), nullptr);
        if (polled != CURLM_OK) {
            code = CURLE_FAILED_INIT;
            call.setFailure(curl_multi_strerror(polled));
            break;
        }
    }
    // Removing an unfinished transfer closes its connection, so nothing stale goes back to the pool.
    curl_multi_remove_handle(slot.multi, easy);
    return call.finish(code, cancelledHere, stalled);
}

CurlTransport::CurlTransport(TransportOptions options)
{
    ensureCurlGlobalInit();
    d = std::make_unique<Private>(std::move(options));
}

CurlTransport::~CurlTransport() = default;

connectors::Result<HttpResponse> CurlTransport::send(const HttpRequest &request, const CancelToken &cancel)
{
    try {
        return d->perform(request, cancel, nullptr);
    } catch (const std::exception &e) {
        return connectors::fail(connectors::Error::make(connectors::Error::Kind::Transport,
                                                        std::string(methodName(request.method)) + " "
                                                            + displayUrl(request.url)
                                                            + " failed inside the HTTP client: " + e.what()));
    }
}

connectors::Result<HttpResponse>
CurlTransport::stream(const HttpRequest &request, const BodySink &onBody, const CancelToken &cancel)
{
    try {
        return d->perform(request, cancel, &onBody);
    } catch (const std::exception &e) {
        return connectors::fail(connectors::Error::make(connectors::Error::Kind::Transport,
                                                        std::string(methodName(request.method)) + " "
                                                            + displayUrl(request.url)
                                                            + " failed inside the HTTP client: " + e.what()));
    }
}

const TransportOptions &CurlTransport::options() const
{
    return d->options;
}

int CurlTransport::inFlight() const
{
    std::lock_guard lock(d->poolMutex);
    return d->inFlight;
}

} // namespace strata::http
