#include "simulators/common/httpfaults.h"

#include <algorithm>
#include <utility>

namespace strata::sim {

bool HttpFaultRule::matches(const QByteArray &requestMethod, const QString &requestPath) const
{
    return (method.isEmpty() || method.toLatin1() == requestMethod)
           && (path.isEmpty() || regex.match(requestPath).hasMatch());
}

QStringList HttpFaultSyntax::commonFields()
{
    return {QStringLiteral("method"),
            QStringLiteral("path"),
            QStringLiteral("kind"),
            QStringLiteral("status"),
            QStringLiteral("retryAfterSeconds"),
            QStringLiteral("message"),
            QStringLiteral("latency_ms"),
            QStringLiteral("count")};
}

QStringList HttpFaultSyntax::commonKinds()
{
    return {QStringLiteral("status"),
            QStringLiteral("reset"),
            QStringLiteral("stall"),
            QStringLiteral("malformed"),
            QStringLiteral("truncate"),
            QStringLiteral("latency")};
}

std::optional<Response> HttpFaultRule::connectionFault() const
{
    if (kind != QLatin1String("stall") && kind != QLatin1String("reset")) {
        return std::nullopt;
    }
    Response r;
    r.delay = std::chrono::milliseconds(latencyMs);
    r.fault = kind == QLatin1String("stall") ? Fault::Stall : Fault::Reset;
    return r;
}

void HttpFaultRule::applyTo(Response &response) const
{
    if (latencyMs > 0) {
        response.delay = std::chrono::milliseconds(latencyMs);
    }
    if (kind == QLatin1String("malformed")) {
        response.fault = Fault::Malformed;
    } else if (kind == QLatin1String("truncate")) {
        response.fault = Fault::Truncate;
    }
}

HttpFaultRules::HttpFaultRules(HttpFaultSyntax syntax)
    : m_syntax(std::move(syntax))
{}

int HttpFaultRules::add(const QJsonObject &json, QString *error)
{
    auto fail = [&](const QString &message) {
        if (error) {
            *error = message;
        }
        return -1;
    };
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (!m_syntax.fields.contains(it.key())) {
            return fail(QStringLiteral("unknown field \"%1\"").arg(it.key()));
        }
    }
    HttpFaultRule rule;
    rule.kind = json.value(QStringLiteral("kind")).toString(QStringLiteral("status"));
    if (!m_syntax.kinds.contains(rule.kind)) {
        return fail(QStringLiteral("\"kind\" must be one of %1").arg(m_syntax.kinds.join(QStringLiteral(", "))));
    }
    rule.method = json.value(QStringLiteral("method")).toString().toUpper();
    rule.path = json.value(QStringLiteral("path")).toString();
    rule.regex = QRegularExpression(rule.path, m_syntax.pathOptions);
    if (!rule.regex.isValid()) {
        return fail(QStringLiteral("\"path\" is not a valid regular expression"));
    }
    rule.status = json.value(QStringLiteral("status")).toInt(503);
    rule.retryAfterSeconds = json.value(QStringLiteral("retryAfterSeconds")).toInt(1);
    rule.code = json.value(QStringLiteral("code")).toString();
    rule.message = json.value(QStringLiteral("message")).toString();
    rule.latencyMs = json.value(QStringLiteral("latency_ms")).toInt(0);
    rule.count = json.value(QStringLiteral("count")).toInt(-1);
    if (rule.status < 100 || rule.status > 599 || rule.count == 0 || rule.count < -1 || rule.latencyMs < 0
        || rule.retryAfterSeconds < 0) {
        return fail(QStringLiteral("status, count, latency_ms or retryAfterSeconds out of range"));
    }
    if (rule.kind == QLatin1String("latency") && rule.latencyMs == 0) {
        return fail(QStringLiteral("a latency rule needs latency_ms"));
    }
    rule.id = m_nextId++;
    m_rules.push_back(rule);
    return rule.id;
}

bool HttpFaultRules::remove(int id)
{
    const auto it = std::find_if(m_rules.begin(), m_rules.end(), [id](const HttpFaultRule &r) {
        return r.id == id;
    });
    if (it == m_rules.end()) {
        return false;
    }
    m_rules.erase(it);
    return true;
}

void HttpFaultRules::clear()
{
    m_rules.clear();
}

QJsonArray HttpFaultRules::toJson() const
{
    QJsonArray items;
    for (const HttpFaultRule &r : m_rules) {
        QJsonObject o{{QStringLiteral("id"), r.id},
                      {QStringLiteral("kind"), r.kind},
                      {QStringLiteral("count"), r.count},
                      {QStringLiteral("fired"), r.fired}};
        if (!r.method.isEmpty()) {
            o.insert(QStringLiteral("method"), r.method);
        }
        if (!r.path.isEmpty()) {
            o.insert(QStringLiteral("path"), r.path);
        }
        if (r.kind == QLatin1String("status")) {
            o.insert(QStringLiteral("status"), r.status);
            if (m_syntax.showRetryAfterAlways || r.sendsRetryAfter()) {
                o.insert(QStringLiteral("retryAfterSeconds"), r.retryAfterSeconds);
            }
        }
        if (!r.code.isEmpty()) {
            o.insert(QStringLiteral("code"), r.code);
        }
        if (!r.message.isEmpty()) {
            o.insert(QStringLiteral("message"), r.message);
        }
        if (r.latencyMs > 0) {
            o.insert(QStringLiteral("latency_ms"), r.latencyMs);
        }
        items.append(o);
    }
    return items;
}

std::optional<HttpFaultRule> HttpFaultRules::fire(const QByteArray &method,
                                                  const QString &path,
                                                  const std::function<bool(const HttpFaultRule &)> &eligible)
{
    for (auto it = m_rules.begin(); it != m_rules.end(); ++it) {
        if ((eligible && !eligible(*it)) || !it->matches(method, path)) {
            continue;
        }
        it->fired++;
        HttpFaultRule fired = *it;
        if (it->count > 0 && --it->count == 0) {
            m_rules.erase(it);
        }
        return fired;
    }
    return std::nullopt;
}

} // namespace strata::sim
