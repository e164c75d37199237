#include "web/apierror.h"

#include <array>
#include <utility>

namespace strata::web {

namespace {

struct ApiErrorEntry
{
    ApiError error;
    int status;
    const char *code;
};

constexpr std::array<ApiErrorEntry, 8> kApiErrorTable{{
    {ApiError::BadRequest, 400, "bad_request"},
    {ApiError::LoginRequired, 401, "login_required"},
    {ApiError::Forbidden, 403, "forbidden"},
    {ApiError::NotFound, 404, "not_found"},
    {ApiError::Conflict, 409, "conflict"},
    {ApiError::TooManyRequests, 429, "too_many_requests"},
    {ApiError::Internal, 500, "internal"},
    {ApiError::Unavailable, 503, "unavailable"},
}};

const ApiErrorEntry &apiErrorEntry(ApiError error)
{
    for (const ApiErrorEntry &e : kApiErrorTable) {
        if (e.error == error) {
            return e;
        }
    }
    return kApiErrorTable.front();
}

} // namespace

ApiError apiErrorFor(const core::Error &error)
{
    switch (error.kind) {
    case core::Error::Kind::Invalid:
        return ApiError::BadRequest;
    case core::Error::Kind::NotFound:
        return ApiError::NotFound;
    case core::Error::Kind::Conflict:
    case core::Error::Kind::Cancelled:
        return ApiError::Conflict;
    case core::Error::Kind::Unavailable:
        return ApiError::Unavailable;
    case core::Error::Kind::Failed:
        break;
    }
    return ApiError::Internal;
}

int apiErrorStatus(ApiError error)
{
    return apiErrorEntry(error).status;
}

QString apiErrorCode(ApiError error)
{
    return QString::fromLatin1(apiErrorEntry(error).code);
}

std::optional<ApiError> apiErrorForStatus(int status)
{
    for (const ApiErrorEntry &e : kApiErrorTable) {
        if (e.status == status) {
            return e.error;
        }
    }
    return std::nullopt;
}

QJsonObject apiErrorBody(ApiError error, const QString &message)
{
    return {{QStringLiteral("error"), message}, {QStringLiteral("code"), apiErrorCode(error)}};
}

QJsonObject apiErrorValue(ApiError error, const QString &message)
{
    QJsonObject value = apiErrorBody(error, message);
    value.insert(QStringLiteral("status"), apiErrorStatus(error));
    return value;
}

} // namespace strata::web
