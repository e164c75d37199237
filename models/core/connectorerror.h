#pragma once

#include "connectors/http/httperror.h"
#include "models/core/systempoller.h"

/// Internal to the model layer: connector errors in the model layer's terms.
namespace strata::core {

/// Same kind, the message as one user-presentable line, Retry-After kept.
FetchError toFetchError(const http::HttpError &error);

} // namespace strata::core
