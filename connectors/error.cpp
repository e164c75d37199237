#include "connectors/error.h"

namespace strata::connectors {

namespace {

// CURLE_FILESIZE_EXCEEDED, without pulling curl.h into the error type.
constexpr int CurlFileSizeExceeded = 63;

} // namespace

bool Error::retryable() const
{
    switch (httpStatus) {
    case 429:
    case 502:
    case 503:
    case 504:
        return true;
    default:
        break;
    }
    if (kind == Kind::Transport) {
        // A body over the size limit will be just as large next time.
        return curlCode != CurlFileSizeExceeded;
    }
    return kind == Kind::Timeout;
}

const char *Error::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Transport:
        return "transport";
    case Kind::Timeout:
        return "timeout";
    case Kind::Tls:
        return "tls";
    case Kind::Http:
        return "http";
    case Kind::Api:
        return "api";
    case Kind::Parse:
        return "parse";
    case Kind::Auth:
        return "auth";
    case Kind::Cancelled:
        return "cancelled";
    case Kind::Process:
        return "process";
    }
    return "unknown";
}

Error Error::make(Kind kind, std::string message, int httpStatus)
{
    Error error;
    error.kind = kind;
    error.message = std::move(message);
    error.httpStatus = httpStatus;
    return error;
}

} // namespace strata::connectors
