#pragma once

#include "simulators/common/httpserver.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <vector>

namespace strata::sim {

/// One rule of a simulator's fault-injection control endpoint (`POST /_sim/faults`), JSON form
/// `{"method":"POST","path":"<regular expression>","kind":"status","status":429,
/// "retryAfterSeconds":2,"code":"...","message":"...","latency_ms":0,"count":1}`: the requests it
/// matches misbehave as `kind` says, `count` times.
struct HttpFaultRule
{
    int id = 0;               ///< assigned when added, from 1
    QString method;           ///< upper case; empty matches every method
    QString path;             ///< regular expression searched in the request path; empty matches every path
    QRegularExpression regex; ///< `path`, compiled
    QString kind = QStringLiteral("status"); ///< one of the simulator's HttpFaultSyntax::kinds
    int status = 503;                        ///< kind "status": the HTTP status, 100..599
    int retryAfterSeconds = 1;               ///< Retry-After of a 429/503 answer, seconds, >= 0
    QString code;                            ///< vendor error code; empty = the vendor's usual one
    QString message;                         ///< error message; empty = the vendor's usual one
    int latencyMs = 0;                       ///< delay before (mis)behaving, ms, >= 0; > 0 for kind "latency"
    int count = -1;                          ///< requests it still hits; -1 = every one
    int fired = 0;                           ///< requests it hit so far

    /// Whether a request with this method and path is one the rule hits.
    [[nodiscard]] bool matches(const QByteArray &requestMethod, const QString &requestPath) const;
    /// Whether its answer carries Retry-After (status 429 or 503).
    [[nodiscard]] bool sendsRetryAfter() const { return status == 429 || status == 503; }
    /// Kinds stall and reset: the answer that, after latencyMs, hangs or resets the connection
    /// instead of answering; nullopt for every other kind.
    [[nodiscard]] std::optional<Response> connectionFault() const;
    /// What the rule does to the answer a hit request still gets: latencyMs more delay, and a
    /// malformed or truncated body for kinds malformed and truncate.
    void applyTo(Response &response) const;
};

/// What one simulator's rules may say, and how its GET /_sim/faults shows them.
struct HttpFaultSyntax
{
    QStringList fields; ///< accepted JSON members; any other is an error
    QStringList kinds;  ///< accepted `kind` values ("status" is the default of a rule)
    QRegularExpression::PatternOptions pathOptions = QRegularExpression::NoPatternOption;
    /// Shown rules of kind "status" list retryAfterSeconds always (true) or only when their
    /// answer carries Retry-After (false).
    bool showRetryAfterAlways = false;

    /// The fields every simulator accepts: method, path, kind, status, retryAfterSeconds,
    /// message, latency_ms, count.
    static QStringList commonFields();
    /// The kinds every simulator serves: status, reset, stall, malformed, truncate, latency.
    static QStringList commonKinds();
};

/// A simulator's fault rules in the order they were added: the first matching rule with hits
/// left fires. Not thread-safe (used on the simulator's thread).
class HttpFaultRules final
{
public:
    explicit HttpFaultRules(HttpFaultSyntax syntax);

    /// Parses the JSON form and appends the rule. Returns its id, or -1 with `error` (when
    /// non-null) saying what is wrong: an unknown field, an unknown kind, an invalid path
    /// expression, a value out of range, or a latency rule without latency_ms.
    int add(const QJsonObject &json, QString *error);
    /// Removes rule `id`; false when there is none.
    bool remove(int id);
    void clear();
    /// The rules as GET /_sim/faults lists them.
    [[nodiscard]] QJsonArray toJson() const;
    [[nodiscard]] bool isEmpty() const { return m_rules.empty(); }

    /// The first rule matching the request among those `eligible` accepts (all when empty),
    /// counted as fired and dropped once its count is used up; nullopt when none matches.
    std::optional<HttpFaultRule> fire(const QByteArray &method,
                                      const QString &path,
                                      const std::function<bool(const HttpFaultRule &)> &eligible = {});

private:
    HttpFaultSyntax m_syntax;
    std::vector<HttpFaultRule> m_rules;
    int m_nextId = 1;
};

} // namespace strata::sim
