#pragma once

// Internal to connectors/http: the setup and outcome of one libcurl transfer, shared by
// CurlTransport (one transfer at a time on the calling thread) and CurlLoop (many transfers on
// one thread), so both send the same request and word the same errors.

#include "connectors/http/curltransport.h"

#include <curl/curl.h>

#include <chrono>
#include <memory>
#include <optional>

namespace strata::http::detail {

/// curl_global_init, once per process, before the first handle.
void curlGlobalInit();

/// One transfer of `request`. `options`, `request` and `sink` (nullptr = collect the body, as
/// send() does; else stream a 2xx body to it, as stream() does) must outlive the call. Use:
/// invalid(), attach() to an easy handle, drive it in a multi handle (calling stalled() once per
/// round), remove it from the multi handle, then finish().
class CurlCall
{
public:
    CurlCall(const TransportOptions &options, const HttpRequest &request, CancelToken cancel, const BodySink *sink);
    ~CurlCall();
    CurlCall(const CurlCall &) = delete;
    CurlCall &operator=(const CurlCall &) = delete;

    /// A header with a line break or a colon in its name: the request must not be sent.
    [[nodiscard]] std::optional<connectors::Error> invalid() const;
    /// Kind::Cancelled naming the request.
    [[nodiscard]] connectors::Error cancelledError() const;
    /// Sets every option of the transfer on `easy`; `share` may be null. An error means nothing
    /// may be sent. Starts the clock of the transfer.
    std::optional<connectors::Error> attach(CURL *easy, CURLSH *share);
    /// send()'s low-speed check (TransportOptions::lowSpeedWindow); true = give up as stalled.
    bool stalled(std::chrono::steady_clock::time_point now);
    /// A multi-handle failure, worded into the error finish() returns.
    void setFailure(const char *message);
    /// The outcome once the transfer left its multi handle: `code` from CURLMSG_DONE, or how the
    /// driver ended it (cancelled, stalled). Logs the request line.
    connectors::Result<HttpResponse> finish(CURLcode code, bool cancelled, bool stalled);

private:
    struct State;
    std::unique_ptr<State> d;
};

} // namespace strata::http::detail
