#pragma once

#include "connectors/result.h"

#include <string>

namespace strata::connectors {

/// The one error type every connector returns (mtxclient's ClientError idea): HTTP failures and
/// the rest a connector meets, such as malformed documents (kubeconfig, dataset manifests,
/// plugin output) and helper programs (az, exec credential plugins) that cannot be started.
/// `message` is a complete, user-presentable sentence; it never contains secrets. The model
/// layer turns it into a core::Error in one place (models/core/sources/connectorerror.h, toError()).
struct Error
{
    enum class Kind
    {
        Transport, ///< DNS, connect, reset, truncated body, response too large
        Timeout,   ///< connect or total timeout elapsed
        Tls,       ///< certificate not trusted, hostname mismatch, handshake failure
        Http,      ///< a non-2xx status without a recognised vendor error body
        Api,       ///< a vendor error body (ONTAP error.code, ARM error.code, k8s Status...)
        Parse,     ///< a 2xx body or a document that is malformed or misses required fields
        Auth,      ///< 401/403 or a credential that could not be obtained
        Cancelled, ///< the caller's CancelToken fired
        Process,   ///< a helper program could not be started (missing, not executable)
    };

    Kind kind = Kind::Transport;
    int httpStatus = 0; ///< 0 when no response was received
    int curlCode = 0;   ///< CURLcode when kind is Transport/Timeout/Tls, else 0
    /// The vendor's error code as text ("4", "ResourceNotFound"); for Process "ENOENT" when the
    /// program does not exist; may be empty.
    std::string apiCode;
    std::string message;
    /// Seconds the server asked us to wait (Retry-After), or -1 when it did not say.
    int retryAfterSeconds = -1;
    /// True when the request may have reached the server and been acted on (the response was
    /// lost): a non-idempotent caller must reconcile before resubmitting.
    bool outcomeUnknown = false;

    /// Worth retrying for an idempotent request: transport errors, timeouts, 429, 502, 503, 504.
    /// A program that cannot be started (Process) is not: it would fail the same way.
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
