#pragma once

#include "connectors/error.h"
#include "connectors/http/canceltoken.h"
#include "connectors/http/httpresponse.h"

#include <functional>
#include <string_view>

namespace strata::http {

/// Receives a streamed body piece by piece (Kubernetes watch); return false to stop the transfer.
using BodySink = std::function<bool(std::string_view chunk)>;

/// The single seam between connectors and the network. Implementations block the calling
/// thread until the response is complete, the request fails, or `cancel` fires. Any HTTP status
/// is a successful Result (mapping statuses to errors is the caller's business), except a
/// redirect (3xx with a Location), which is not followed and fails with Kind::Http.
class IHttpTransport
{
public:
    virtual ~IHttpTransport() = default;
    virtual connectors::Result<HttpResponse> send(const HttpRequest &request, const CancelToken &cancel) = 0;

    /// Like send(), but a 2xx body is handed to `onBody` as it arrives (chunks of any size, in
    /// order) instead of being collected: the returned response carries status and headers and
    /// an empty body. A non-2xx body (an error document) is collected into the response as with
    /// send(). The size cap does not apply to streamed bodies. `onBody` returning false ends the
    /// transfer early; that is still a successful Result. `cancel` ends it with Kind::Cancelled.
    /// A failure after part of the body was delivered returns the error (the caller decides
    /// whether what it already got counts).
    /// The default implementation calls send() and delivers the whole body in one chunk.
    virtual connectors::Result<HttpResponse>
    stream(const HttpRequest &request, const BodySink &onBody, const CancelToken &cancel)
    {
        connectors::Result<HttpResponse> result = send(request, cancel);
        if (result && result->isSuccess()) {
            std::string body = std::move(result->body);
            result->body.clear();
            if (!body.empty() && !cancel.isCancelled()) {
                (void)onBody(body);
            }
        }
        return result;
    }
};

enum class LogLevel
{
    Debug,
    Info,
    Warning
};

/// Sink for transport diagnostics. Lines never carry Authorization or Cookie values.
using LogSink = std::function<void(LogLevel, std::string_view)>;

} // namespace strata::http
