#include "models/core/sources/connectorerror.h"

#include "models/core/domain/convert.h"

namespace strata::core {

FetchError toFetchError(const connectors::Error &e)
{
    FetchError f;
    switch (e.kind) {
    case connectors::Error::Kind::Transport:
    case connectors::Error::Kind::Process:
        f.kind = FetchError::Kind::Transport;
        break;
    case connectors::Error::Kind::Timeout:
        f.kind = FetchError::Kind::Timeout;
        break;
    case connectors::Error::Kind::Tls:
        f.kind = FetchError::Kind::Tls;
        break;
    case connectors::Error::Kind::Http:
        f.kind = FetchError::Kind::Http;
        break;
    case connectors::Error::Kind::Api:
        f.kind = FetchError::Kind::Api;
        break;
    case connectors::Error::Kind::Parse:
        f.kind = FetchError::Kind::Parse;
        break;
    case connectors::Error::Kind::Auth:
        f.kind = FetchError::Kind::Auth;
        break;
    case connectors::Error::Kind::Cancelled:
        f.kind = FetchError::Kind::Cancelled;
        break;
    }
    f.message = QString::fromStdString(e.message);
    f.retryAfterSeconds = e.retryAfterSeconds;
    return f;
}

Error toError(const connectors::Error &e)
{
    Error::Kind kind = Error::Kind::Failed;
    switch (e.kind) {
    case connectors::Error::Kind::Cancelled:
        kind = Error::Kind::Cancelled;
        break;
    case connectors::Error::Kind::Transport:
    case connectors::Error::Kind::Timeout:
    case connectors::Error::Kind::Tls:
    case connectors::Error::Kind::Process:
        kind = Error::Kind::Unavailable;
        break;
    case connectors::Error::Kind::Http:
    case connectors::Error::Kind::Api:
        if (e.httpStatus == 404) {
            kind = Error::Kind::NotFound;
        } else if (e.httpStatus == 409) {
            kind = Error::Kind::Conflict;
        }
        break;
    case connectors::Error::Kind::Parse:
    case connectors::Error::Kind::Auth:
        break;
    }
    return Error::make(kind, QString::fromStdString(e.message));
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
