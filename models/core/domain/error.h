#pragma once

#include "connectors/result.h"

#include <QString>

#include <utility>

namespace strata::core {

/// The one error type of the model layer and the apps (web, CLI, desktop, demo): what a function
/// that can fail returns instead of `bool` plus a `QString *error` out-parameter.
///
/// - `message` is a complete sentence (or the one-line text the caller has always shown, e.g.
///   "lastAttempt: not a time"), translated where the caller translates, shown as it is; never a
///   secret.
/// - `field` is set for a refused input: the config key a form marks ("name", "url", "password",
///   "s3_secret", "dataset_roots", ...; the same keys in the dialog and the web form). Empty
///   when the error is not about one input.
/// - `kind` is what a caller branches on; web's apiErrorFor() maps it to one HTTP status.
///
/// Connector failures become an Error in one place (models/core/sources/connectorerror.h, toError()).
/// Source polling keeps its own FetchError (models/core/sources/systempoller.h): it is persisted and
/// shown per source with its retry hint. The simulators (simulators/) are test doubles and keep
/// their `QString *error` out-parameters.
struct Error
{
    enum class Kind
    {
        Failed,      ///< the operation did not succeed (I/O, a remote refusal, ...): the default
        Invalid,     ///< the caller's input is malformed or breaks a rule (`field` may say which)
        NotFound,    ///< the thing named does not exist
        Conflict,    ///< the request contradicts the current state (read-only, already exists, ...)
        Unavailable, ///< a service or system the request needs is not reachable or not configured
        Cancelled,   ///< the caller cancelled
    };

    Kind kind = Kind::Failed;
    /// The config key of the refused input, or empty.
    QString field;
    QString message;

    /// A Kind::Failed error with `message`.
    static Error failed(QString message) { return Error{Kind::Failed, {}, std::move(message)}; }
    /// A Kind::Invalid error about the input `field` (may be empty).
    static Error invalid(QString field, QString message)
    {
        return Error{Kind::Invalid, std::move(field), std::move(message)};
    }
    /// An error of `kind` with `message`.
    static Error make(Kind kind, QString message) { return Error{kind, {}, std::move(message)}; }

    bool operator==(const Error &) const = default;
};

/// A value or a core::Error.
template <class T> using Result = Expected<T, Error>;
/// Success or a core::Error, for a function that yields nothing.
using Status = Expected<void, Error>;

/// Shorthand for returning an error from a function that returns Result<T> or Status.
inline Unexpected<Error> fail(Error error)
{
    return Unexpected<Error>{std::move(error)};
}

/// Shorthand for a Kind::Failed error with `message` as a Result<T> or Status return.
inline Unexpected<Error> fail(QString message)
{
    return fail(Error::failed(std::move(message)));
}

} // namespace strata::core
