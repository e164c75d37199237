#include "simulators/ontap/faults.h"

#include <QJsonValue>

namespace strata::sim::ontap {

namespace {

struct KindName
{
    FaultRule::Kind kind;
    const char *name;
};

constexpr KindName KindNames[] = {
    {FaultRule::Kind::Latency, "latency"},
    {FaultRule::Kind::Status, "status"},
    {FaultRule::Kind::Reset, "reset"},
    {FaultRule::Kind::Truncate, "truncate"},
    {FaultRule::Kind::Malformed, "malformed"},
    {FaultRule::Kind::Stall, "stall"},
    {FaultRule::Kind::StallBody, "stall_body"},
    {FaultRule::Kind::JobFailure, "job_failure"},
    {FaultRule::Kind::ApplyThenReset, "apply_then_reset"},
};

} // namespace

QString FaultRule::kindName(Kind kind)
{
    for (const KindName &k : KindNames) {
        if (k.kind == kind) {
            return QString::fromLatin1(k.name);
        }
    }
    return {};
}

std::optional<FaultRule::Kind> FaultRule::kindFromName(const QString &name)
{
    for (const KindName &k : KindNames) {
        if (name == QLatin1String(k.name)) {
            return k.kind;
        }
    }
    return std::nullopt;
}

std::optional<FaultRule> FaultRule::fromJson(const QJsonObject &json, QString *error)
{
    static const QStringList known{QStringLiteral("method"),
                                   QStringLiteral("path"),
                                   QStringLiteral("kind"),
                                   QStringLiteral("latency_ms"),
                                   QStringLiteral("status"),
                                   QStringLiteral("message"),
                                   QStringLiteral("code"),
                                   QStringLiteral("count"),
                                   QStringLiteral("probability")};
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (!known.contains(it.key())) {
            *error = QStringLiteral("unknown field \"%1\"").arg(it.key());
            return std::nullopt;
        }
    }
    FaultRule rule;
    const auto kind = kindFromName(json.value(QStringLiteral("kind")).toString());
    if (!kind) {
        *error = QStringLiteral("\"kind\" must be one of latency, status, reset, truncate, malformed, stall, "
                                "job_failure, apply_then_reset");
        return std::nullopt;
    }
    rule.kind = *kind;
    rule.method = json.value(QStringLiteral("method")).toString().toUpper();
    rule.path = json.value(QStringLiteral("path")).toString();
    if (!QRegularExpression(rule.path).isValid()) {
        *error = QStringLiteral("\"path\" is not a valid regular expression");
        return std::nullopt;
    }
    rule.latencyMs = json.value(QStringLiteral("latency_ms")).toInt(0);
    rule.status = json.value(QStringLiteral("status")).toInt(503);
    rule.message = json.value(QStringLiteral("message")).toString();
    const QJsonValue code = json.value(QStringLiteral("code"));
    rule.code = code.isDouble() ? QString::number(code.toInteger()) : code.toString();
    rule.count = json.value(QStringLiteral("count")).toInt(-1);
    rule.probability = json.value(QStringLiteral("probability")).toDouble(1.0);
    if (rule.latencyMs < 0 || rule.status < 100 || rule.status > 599 || rule.probability < 0 || rule.probability > 1
        || rule.count == 0 || rule.count < -1) {
        *error = QStringLiteral("latency_ms, status, count or probability out of range");
        return std::nullopt;
    }
    if (rule.kind == Kind::Latency && rule.latencyMs == 0) {
        *error = QStringLiteral("a latency rule needs latency_ms");
        return std::nullopt;
    }
    return rule;
}

QJsonObject FaultRule::toJson() const
{
    QJsonObject json{
        {QStringLiteral("id"), id},
        {QStringLiteral("kind"), kindName(kind)},
        {QStringLiteral("count"), count},
        {QStringLiteral("probability"), probability},
        {QStringLiteral("fired"), fired},
    };
    if (!method.isEmpty()) {
        json.insert(QStringLiteral("method"), method);
    }
    if (!path.isEmpty()) {
        json.insert(QStringLiteral("path"), path);
    }
    if (latencyMs > 0) {
        json.insert(QStringLiteral("latency_ms"), latencyMs);
    }
    if (kind == Kind::Status) {
        json.insert(QStringLiteral("status"), status);
    }
    if (!message.isEmpty()) {
        json.insert(QStringLiteral("message"), message);
    }
    if (!code.isEmpty()) {
        json.insert(QStringLiteral("code"), code);
    }
    return json;
}

bool FaultRule::appliesToMethod(const QByteArray &requestMethod) const
{
    if (!method.isEmpty() && method.toLatin1() != requestMethod) {
        return false;
    }
    if (kind == Kind::JobFailure || kind == Kind::ApplyThenReset) {
        return requestMethod == "POST" || requestMethod == "PATCH" || requestMethod == "DELETE";
    }
    return true;
}

FaultSet::FaultSet(quint64 seed)
    : m_rng(seed)
{}

int FaultSet::add(FaultRule rule)
{
    rule.id = m_nextId++;
    rule.fired = 0;
    m_entries.append(Entry{rule, QRegularExpression(rule.path)});
    return rule.id;
}

bool FaultSet::remove(int id)
{
    for (qsizetype i = 0; i < m_entries.size(); ++i) {
        if (m_entries[i].rule.id == id) {
            m_entries.removeAt(i);
            return true;
        }
    }
    return false;
}

void FaultSet::clear()
{
    m_entries.clear();
}

QList<FaultRule> FaultSet::rules() const
{
    QList<FaultRule> out;
    for (const Entry &e : m_entries) {
        out.append(e.rule);
    }
    return out;
}

std::optional<FaultRule> FaultSet::take(const QByteArray &method, const QString &path)
{
    for (qsizetype i = 0; i < m_entries.size(); ++i) {
        Entry &e = m_entries[i];
        if (!e.rule.appliesToMethod(method) || (!e.rule.path.isEmpty() && !e.regex.match(path).hasMatch())) {
            continue;
        }
        if (e.rule.probability < 1.0) {
            const double roll = static_cast<double>(m_rng() >> 11) / static_cast<double>(quint64(1) << 53);
            if (roll >= e.rule.probability) {
                continue;
            }
        }
        e.rule.fired++;
        FaultRule hit = e.rule;
        if (e.rule.count > 0 && --e.rule.count == 0) {
            m_entries.removeAt(i);
        }
        return hit;
    }
    return std::nullopt;
}

} // namespace strata::sim::ontap
