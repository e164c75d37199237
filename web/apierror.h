#pragma once

#include "models/core/domain/error.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace strata::web {

/// Version of the HTTP API and the live-feed protocol, "<major>.<minor>". The major is the
/// /api/v<major> path prefix; the minor grows by one with each change a client can notice but
/// that keeps older clients working (a new field, header or route). Served as the
/// X-Strata-Api-Version header of every response and by GET /api/v1/version. History and what
/// each version changed: docs/api-changelog.md.
inline constexpr char kApiVersion[] = "1.5";

/// Why the API refuses or fails a request. Each reason has exactly one HTTP status and one
/// machine-readable code; every error reply of strata-server's API is built from this map.
enum class ApiError
{
    BadRequest,      ///< 400 "bad_request": a malformed parameter, query or body
    LoginRequired,   ///< 401 "login_required": no valid session, or wrong user name or password
    Forbidden,       ///< 403 "forbidden": the role is too low, a foreign Origin, a missing CSRF token
    NotFound,        ///< 404 "not_found": no such resource, user, source, action, job or call
    Conflict,        ///< 409 "conflict": the request contradicts the current state (own account,
                     ///< an action the preview blocks, a configuration that does not validate)
    TooManyRequests, ///< 429 "too_many_requests": throttled; the reply says when to try again
    Internal,        ///< 500 "internal": the server could not write what it had to
    Unavailable,     ///< 503 "unavailable": a service the request needs is not configured
};

/// The reason of a core::Error by its kind: Invalid 400, NotFound 404, Conflict and Cancelled
/// 409, Unavailable 503, Failed 500.
ApiError apiErrorFor(const core::Error &error);
/// The HTTP status of `error` (400..503).
int apiErrorStatus(ApiError error);
/// The snake_case code of `error`, e.g. "not_found".
QString apiErrorCode(ApiError error);
/// The reason whose status is `status`; nullopt for any other status.
std::optional<ApiError> apiErrorForStatus(int status);

/// The JSON body of an error reply: {"error": message (one sentence for people), "code":
/// apiErrorCode(error)}.
QJsonObject apiErrorBody(ApiError error, const QString &message);
/// What a feature route handler (WebServer::addGetRoute) returns to fail: apiErrorBody plus
/// "status": apiErrorStatus(error); the server replies with that status and apiErrorBody.
QJsonObject apiErrorValue(ApiError error, const QString &message);

} // namespace strata::web
