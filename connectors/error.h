#pragma once

#include "connectors/result.h"

#include <string>

namespace strata::connectors {

/// The one error type every connector returns (mtxclient's ClientError idea).
/// `message` is a complete, user-presentable sentence; it never contains secrets.
struct Error
{
    enum class Kind
    {
        Transport, ///< DNS, connect, reset, truncated body, response too large
        Timeout,   ///< connect or total timeout elapsed
        Tls,       ///< certificate not trusted, hostname mismatch, handshake failure
        Http,      ///< a non-2xx status without a recognised vendor error body
        Api,       ///< a vendor error body (ONTAP error.code, ARM error.code, k8s Status...)
        Parse,     ///< a 2xx body that is malformed or misses required fields
        Auth,      ///< 401/403 or a credential that could not be obtained
        Cancelled, ///< the caller's CancelToken fired
    };

    Kind kind = Kind::Transport;
    int httpStatus = 0;  ///< 0 when no response was received
    int curlCode = 0;    ///< CURLcode when kind is Transport/Timeout/Tls, else 0
    std::string apiCode; ///< the vendor's error code as text ("4", "ResourceNotFound"), may be empty
    std::string message;
    /// Seconds the server asked us to wait (Retry-After), or -1 when it did not say.
    int retryAfterSeconds = -1;
    /// True when the request may have reached the server and been acted on (the response was
    /// lost): a non-idempotent caller must reconcile before resubmitting.
    bool outcomeUnknown = false;

    /// Worth retrying for an idempotent request: transport errors, timeouts, 429, 502, 503, 504.
    /// A response over the size limit (curlCode CURLE_FILESIZE_EXCEEDED) is not: it would recur.
    [[nodiscard]] bool retryable() const;

    /// "timeout", "tls", "http", ... for logs, JSON output and tests.
    [[nodiscard]] static const char *kindName(Kind kind);

    static Error make(Kind kind, std::string message, int httpStatus = 0);
};

template <class T> using Result = Expected<T, Error>;

/// Shorthand for returning an error from a function that returns Result<T>.
inline Unexpected<Error> fail(Error error)
{
    return Unexpected<Error>{std::move(error)};
}

/// Shorthand for a Parse error (a malformed body or document) as a Result<T> return.
inline Unexpected<Error> failParse(std::string message)
{
    return fail(Error::make(Error::Kind::Parse, std::move(message)));
}

} // namespace strata::connectors
