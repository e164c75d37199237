#include "models/core/connectorerror.h"

namespace strata::core {

FetchError toFetchError(const http::HttpError &e)
{
    FetchError f;
    switch (e.kind) {
    case http::HttpError::Kind::Transport:
        f.kind = FetchError::Kind::Transport;
        break;
    case http::HttpError::Kind::Timeout:
        f.kind = FetchError::Kind::Timeout;
        break;
    case http::HttpError::Kind::Tls:
        f.kind = FetchError::Kind::Tls;
        break;
    case http::HttpError::Kind::Http:
        f.kind = FetchError::Kind::Http;
        break;
    case http::HttpError::Kind::Api:
        f.kind = FetchError::Kind::Api;
        break;
    case http::HttpError::Kind::Parse:
        f.kind = FetchError::Kind::Parse;
        break;
    case http::HttpError::Kind::Auth:
        f.kind = FetchError::Kind::Auth;
        break;
    case http::HttpError::Kind::Cancelled:
        f.kind = FetchError::Kind::Cancelled;
        break;
    }
    f.message = QString::fromStdString(e.message);
    f.retryAfterSeconds = e.retryAfterSeconds;
    return f;
}

} // namespace strata::core
