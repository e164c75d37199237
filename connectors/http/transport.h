#pragma once

#include "connectors/http/canceltoken.h"
#include "connectors/http/httperror.h"
#include "connectors/http/httpresponse.h"

#include <functional>
#include <string_view>

namespace strata::http {

/// The single seam between connectors and the network. Implementations block the calling
/// thread until the response is complete, the request fails, or `cancel` fires. Any HTTP status
/// is a successful Result: mapping statuses to errors is the caller's business.
class IHttpTransport
{
public:
    virtual ~IHttpTransport() = default;
    virtual Result<HttpResponse> send(const HttpRequest &request, const CancelToken &cancel) = 0;
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
