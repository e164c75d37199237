#include "models/core/connectorerror.h"

#include "models/core/convert.h"

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

http::TransportOptions sourceTransportOptions(const SourceConfig &config,
                                              std::chrono::milliseconds connectTimeout,
                                              std::chrono::milliseconds totalTimeout,
                                              int maxInFlight,
                                              const QLoggingCategory *trace)
{
    http::TransportOptions t;
    t.caFile = ss(config.caFile);
    t.insecureSkipTlsVerify = config.insecureSkipTlsVerify;
    t.connectTimeout = connectTimeout;
    t.totalTimeout = totalTimeout;
    t.maxInFlight = maxInFlight;
    if (trace && trace->isDebugEnabled()) {
        const QString name = config.name;
        t.log = [name, trace](http::LogLevel, std::string_view line) {
            qCDebug(*trace).noquote() << name << QString::fromUtf8(line.data(), qsizetype(line.size()));
        };
    }
    return t;
}

} // namespace strata::core
