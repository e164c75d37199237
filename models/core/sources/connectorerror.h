#pragma once

#include "connectors/error.h"
#include "connectors/http/canceltoken.h"
#include "connectors/http/curltransport.h"
#include "models/core/domain/error.h"
#include "models/core/sources/systempoller.h"
#include "models/core/store/config.h"

#include <QLoggingCategory>

#include <chrono>
#include <functional>

/// Internal to the model layer: connector errors in the model layer's terms, and what the
/// sources' connections share.
namespace strata::core {

/// Same kind, the message as one user-presentable line, Retry-After kept.
FetchError toFetchError(const connectors::Error &error);
/// The one conversion of a connector error to the model layer's Error: the message as it is;
/// the kind by what the caller can do about it: Cancelled stays Cancelled; transport, timeout
/// and TLS failures are Unavailable; a 404 or 409 answer (Http or Api) is NotFound or
/// Conflict; anything else (Parse, Auth, other statuses) is Failed.
Error toError(const connectors::Error &error);

/// A job's cancel function (PollJob::cancel) for the token its connector calls take.
inline std::function<void()> cancelling(const http::CancelToken &token)
{
    return [token] {
        token.cancel();
    };
}

/// A source's transport: its CA file and TLS verification, the given timeouts and in-flight cap.
/// With `trace`, libcurl's verbose trace goes to that category's debug level when it is on
/// (QT_LOGGING_RULES="strata.ontap.debug=true"), prefixed with the source's name; lines arrive
/// already redacted. Off, nothing is paid for it.
http::TransportOptions sourceTransportOptions(const SourceConfig &config,
                                              std::chrono::milliseconds connectTimeout,
                                              std::chrono::milliseconds totalTimeout,
                                              int maxInFlight,
                                              const QLoggingCategory *trace = nullptr);

} // namespace strata::core
