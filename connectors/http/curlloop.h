#pragma once

#include "connectors/http/curltransport.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

namespace strata::http {

/// An event loop running many HTTP transfers at once on ONE thread (libcurl's multi interface),
/// so a client with many long-lived streams (a Kubernetes reflector per resource type) needs one
/// thread instead of one per stream. Transfers are set up exactly as CurlTransport's (TLS,
/// connect/total timeouts, size cap, the idle limit of streams, send()'s low-speed check,
/// redirects refused, logging) and end with the same errors; kept-alive connections are reused.
///
/// Threading: run() runs the loop in the calling thread until stop(). start(), abort(), after(),
/// cancelTimer() and every callback run on that thread (or before run() is called). post() and
/// stop() may be called from any thread and wake the loop at once (curl_multi_wakeup), so a
/// stop never waits for a slow server.
class CurlLoop
{
public:
    using Id = std::uint64_t;
    /// Receives the outcome of a transfer, as CurlTransport::send()/stream() would return it.
    using Done = std::function<void(connectors::Result<HttpResponse> result)>;

    explicit CurlLoop(TransportOptions options = {});
    /// Drops what is still pending without calling its callbacks. Not while run() runs.
    ~CurlLoop();
    CurlLoop(const CurlLoop &) = delete;
    CurlLoop &operator=(const CurlLoop &) = delete;

    /// Starts `request`. Empty `sink`: the body is collected (send()); else a 2xx body goes to
    /// `sink` as it arrives (stream(); return false from it to end the transfer). `done` is
    /// called once when the transfer ends, unless it was aborted or the loop stopped first.
    /// Returns an id for abort() (never 0).
    Id start(HttpRequest request, BodySink sink, Done done);
    /// Ends a transfer at once without calling its `done`; unknown ids are ignored. Not from
    /// inside a sink (return false there).
    void abort(Id transfer);
    /// Runs `task` on the loop thread once `delay` has passed. Returns an id for cancelTimer().
    Id after(std::chrono::milliseconds delay, std::function<void()> task);
    void cancelTimer(Id timer);

    /// Any thread: runs `task` on the loop thread soon (dropped if the loop has stopped).
    void post(std::function<void()> task);
    /// Runs transfers, timers and posted tasks until stop(); returns at once if stopped already.
    void run();
    /// Any thread: run() returns as soon as the callback it may be running returns; transfers in
    /// flight are dropped (their connections closed) without calling `done`.
    void stop();
    [[nodiscard]] bool isStopped() const;

    /// Transfers started and not yet ended (loop thread).
    [[nodiscard]] std::size_t activeTransfers() const;
    [[nodiscard]] const TransportOptions &options() const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace strata::http
