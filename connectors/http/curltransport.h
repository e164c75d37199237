#pragma once

#include "connectors/http/transport.h"

#include <chrono>
#include <memory>
#include <string>

namespace strata::http {

/// Per-source transport settings. One CurlTransport exists per configured source, so the
/// in-flight cap applies per source.
struct TransportOptions
{
    /// PEM bundle of CAs trusted for this source (replaces the system store, so a pinned
    /// self-signed certificate works), empty for the system store.
    std::string caFile;
    /// PEM text of the trusted CAs (kubeconfig certificate-authority-data), used instead of
    /// caFile when set; like caFile it replaces the system store.
    std::string caPem;
    /// TLS client identity (kubeconfig client-certificate-data / client-key-data), PEM text;
    /// both or neither. HttpRequest::clientCertPem/clientKeyPem override them per request.
    std::string clientCertPem;
    std::string clientKeyPem;
    /// Explicit opt-in to skip certificate and hostname verification.
    bool insecureSkipTlsVerify = false;
    std::chrono::milliseconds connectTimeout{10'000};
    /// Whole-transfer limit (0 = none); HttpRequest::totalTimeout overrides per request.
    std::chrono::milliseconds totalTimeout{60'000};
    /// Bodies larger than this (decoded bytes) fail with Kind::Transport instead of exhausting
    /// memory; 0 = no limit.
    std::size_t maxResponseBytes = 256u * 1024u * 1024u;
    /// stream() only: a streamed transfer that receives no byte for this long fails with
    /// Kind::Timeout, so a dead watch connection is noticed (libcurl's low-speed check, whole
    /// seconds, rounded up; 0 = never). stream() has no total timeout unless the request sets one.
    std::chrono::milliseconds streamIdleTimeout{120'000};
    /// send() only: once the answer has begun (its first header line), a server that sends fewer
    /// than `lowSpeedBytesPerSecond` on average over any `lowSpeedWindow` is given up on with
    /// Kind::Timeout ("<origin> stopped sending ...: N bytes in M s"), so a server that drips
    /// bytes is not waited for until totalTimeout. Waiting for the first byte is totalTimeout's
    /// business (a slow query is not a stalled answer). 0 = off. Streams use streamIdleTimeout.
    std::chrono::milliseconds lowSpeedWindow{30'000};
    std::size_t lowSpeedBytesPerSecond = 1;
    /// Requests in flight at once on this source (values below 1 mean 1); further callers wait
    /// their turn, and a cancelled waiter returns Kind::Cancelled without sending.
    int maxInFlight = 4;
    std::string userAgent = "Strata/0.1";
    /// Optional. Receives one line per request ("GET https://h/api/x -> 200 in 12 ms" at Info,
    /// "... -> timeout error in 300 ms: <message>" at Warning) and libcurl's header and
    /// connection trace at Debug, with credentials redacted (secret headers, URL userinfo, query
    /// values such as sig= and token=). Bodies are never logged. Called on the sending thread,
    /// possibly from several threads at once.
    LogSink log;
};

/// libcurl implementation of IHttpTransport: one easy handle per call on the caller's thread,
/// CURLOPT_NOSIGNAL, TLS verification on by default. Handles are pooled (up to maxInFlight) with
/// their connection caches, so consecutive requests to a source reuse one kept-alive TLS
/// connection. Redirects are never followed: a 3xx answer with a Location fails with Kind::Http
/// and says where it pointed (following could carry the credentials to another host or over plain
/// HTTP; the source should name the final URL). Thread-safe.
/// Errors: Timeout (CURLE_OPERATION_TIMEDOUT, a stalled answer), Tls (verification, CA file,
/// handshake), Cancelled, Http (a redirect), else Transport (a reply that is not HTTP says so); `outcomeUnknown` is set
/// when request bytes were sent but no complete response came back. With AwsSigV4Auth and no x-amz-content-sha256
/// header, "UNSIGNED-PAYLOAD" is sent.
class CurlTransport final : public IHttpTransport
{
public:
    explicit CurlTransport(TransportOptions options = {});
    ~CurlTransport() override;
    CurlTransport(const CurlTransport &) = delete;
    CurlTransport &operator=(const CurlTransport &) = delete;

    connectors::Result<HttpResponse> send(const HttpRequest &request, const CancelToken &cancel) override;
    /// Streams a 2xx body to `onBody` as libcurl receives it (see IHttpTransport::stream).
    connectors::Result<HttpResponse>
    stream(const HttpRequest &request, const BodySink &onBody, const CancelToken &cancel) override;

    [[nodiscard]] const TransportOptions &options() const;
    /// Requests currently holding an in-flight slot (for tests and diagnostics).
    [[nodiscard]] int inFlight() const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

/// "Authorization: Basic ...", "Cookie: ..." become "Authorization: <redacted>" (also
/// Proxy-Authorization, Set-Cookie, X-Auth-Token, X-Api-Key, X-Amz-Security-Token, any case);
/// other lines pass through. Used by every log path.
std::string redactHeaderLine(std::string_view line);

} // namespace strata::http
