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
    /// PEM bundle of CAs trusted for this source, empty for the system store.
    std::string caFile;
    /// Explicit opt-in to skip certificate and hostname verification.
    bool insecureSkipTlsVerify = false;
    std::chrono::milliseconds connectTimeout{10'000};
    /// Whole-transfer limit (0 = none); HttpRequest::totalTimeout overrides per request.
    std::chrono::milliseconds totalTimeout{60'000};
    /// Bodies larger than this fail with Kind::Transport instead of exhausting memory.
    std::size_t maxResponseBytes = 256u * 1024u * 1024u;
    /// Requests in flight at once on this source; further callers wait their turn.
    int maxInFlight = 4;
    std::string userAgent = "Strata/0.1";
    LogSink log; ///< optional; receives redacted request/response lines
};

/// libcurl implementation of IHttpTransport: one easy handle per call on the caller's thread,
/// CURLOPT_NOSIGNAL, TLS verification on by default.
class CurlTransport final : public IHttpTransport
{
public:
    explicit CurlTransport(TransportOptions options = {});
    ~CurlTransport() override;
    CurlTransport(const CurlTransport &) = delete;
    CurlTransport &operator=(const CurlTransport &) = delete;

    Result<HttpResponse> send(const HttpRequest &request, const CancelToken &cancel) override;

    [[nodiscard]] const TransportOptions &options() const;
    /// Requests currently holding an in-flight slot (for tests and diagnostics).
    [[nodiscard]] int inFlight() const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

/// "Authorization: Basic ...", "Cookie: ..." become "Authorization: <redacted>"; other lines
/// pass through. Used by every log path.
std::string redactHeaderLine(std::string_view line);

} // namespace strata::http
