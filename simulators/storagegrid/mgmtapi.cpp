// The Grid and Tenant Management API of the StorageGRID simulator (apis.md section 2): version
// discovery, authorize tokens, grid health, nodes, alerts, tenants with usage from the S3 store,
// ILM policies, metric queries over a deterministic usage model, and the tenant's containers.

#include "simulators/storagegrid/gridstate.h"
#include "simulators/storagegrid/storagegridsimulator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <cmath>
#include <map>
#include <set>

namespace strata::sim::storagegrid {

namespace {

struct Series
{
    QJsonObject labels; // includes __name__
    std::function<double(std::int64_t)> value;
};

struct Selector
{
    QString name;
    struct Matcher
    {
        QString label;
        QString op;
        QString value;
    };
    std::vector<Matcher> matchers;
};

std::optional<Selector> parseSelector(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*(?:\\{(.*)\\})?\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch()) {
        return std::nullopt;
    }
    Selector s;
    s.name = m.captured(1);
    const QString body = m.captured(2).trimmed();
    if (!body.isEmpty()) {
        static const QRegularExpression item(
            QStringLiteral("^\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!=|=)\\s*\"([^\"]*)\"\\s*$"));
        for (const QString &part : body.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const auto im = item.match(part);
            if (!im.hasMatch()) {
                return std::nullopt;
            }
            s.matchers.push_back({im.captured(1), im.captured(2), im.captured(3)});
        }
    }
    return s;
}

bool matches(const Selector &s, const QJsonObject &labels)
{
    if (labels.value(QStringLiteral("__name__")).toString() != s.name) {
        return false;
    }
    for (const auto &m : s.matchers) {
        const QString v = labels.value(m.label).toString();
        if (m.op == QLatin1String("=") && v != m.value) {
            return false;
        }
        if (m.op == QLatin1String("!=") && v == m.value) {
            return false;
        }
        if (m.op == QLatin1String("=~")
            && !QRegularExpression(QStringLiteral("^(?:") + m.value + QStringLiteral(")$")).match(v).hasMatch()) {
            return false;
        }
    }
    return true;
}

QString promNumber(double v)
{
    if (std::isnan(v)) {
        return QStringLiteral("NaN");
    }
    if (v == std::floor(v) && std::fabs(v) < 1e15) {
        return QString::number(qint64(v));
    }
    return QString::number(v, 'g', 15);
}

std::optional<std::int64_t> parseStepMs(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^(\\d+(?:\\.\\d+)?)(ms|s|m|h|d)?$"));
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch()) {
        return std::nullopt;
    }
    const double n = m.captured(1).toDouble();
    const QString unit = m.captured(2);
    const double factor = unit == QLatin1String("ms")  ? 1
                          : unit == QLatin1String("m") ? 60000
                          : unit == QLatin1String("h") ? 3600000
                          : unit == QLatin1String("d") ? 86400000
                                                       : 1000;
    return std::int64_t(n * factor);
}

} // namespace

void StorageGridSimulator::handleManagement(const Request &request, const Responder &responder)
{
    const std::int64_t now = nowMs();
    std::optional<ManagementFault> fault;
    {
        std::lock_guard lock(m_state->mutex);
        m_state->managementRequests++;
        for (auto it = m_state->faults.begin(); it != m_state->faults.end(); ++it) {
            if (it->path.match(request.path).hasMatch()) {
                fault = *it;
                if (--it->remaining <= 0) {
                    m_state->faults.erase(it);
                }
                break;
            }
        }
    }
    QString apiVersion = QStringLiteral("4.0");
    auto envelope = [&](const QJsonValue &data) {
        return QJsonObject{{QStringLiteral("responseTime"), isoMs(now)},
                           {QStringLiteral("status"), QStringLiteral("success")},
                           {QStringLiteral("apiVersion"), apiVersion},
                           {QStringLiteral("deprecated"), false},
                           {QStringLiteral("data"), data}};
    };
    auto send = [&](int status, const QJsonObject &body) {
        Response r = Response::json(status, QJsonDocument(body).toJson(QJsonDocument::Compact));
        if (fault) {
            if (fault->kind == QLatin1String("malformed")) {
                r.fault = Fault::Malformed;
            } else if (fault->kind == QLatin1String("truncate")) {
                r.fault = Fault::Truncate;
            } else if (fault->kind == QLatin1String("reset")) {
                r.fault = Fault::Reset;
            } else if (fault->kind == QLatin1String("stall")) {
                r.fault = Fault::Stall;
            }
        }
        responder.send(std::move(r));
    };
    auto ok = [&](const QJsonValue &data) {
        send(200, envelope(data));
    };
    auto error = [&](int code, const QString &text, const QString &key) {
        QJsonObject message{{QStringLiteral("text"), text},
                            {QStringLiteral("key"), key},
                            {QStringLiteral("context"), QJsonValue::Null},
                            {QStringLiteral("developerMessage"), text}};
        QJsonObject body{{QStringLiteral("responseTime"), isoMs(now)},
                         {QStringLiteral("status"), QStringLiteral("error")},
                         {QStringLiteral("apiVersion"), apiVersion},
                         {QStringLiteral("code"), code},
                         {QStringLiteral("message"), message},
                         {QStringLiteral("errors"),
                          QJsonArray{QJsonObject{{QStringLiteral("text"), text}, {QStringLiteral("key"), key}}}}};
        if (code == 404) {
            body.insert(QStringLiteral("data"), QJsonObject{});
        }
        send(code, body);
    };
    if (fault && fault->kind == QLatin1String("status")) {
        error(fault->status, QStringLiteral("Injected failure"), QStringLiteral("error.simulated"));
        return;
    }

    const QString path = request.path;
    if (path == QLatin1String("/api/versions")) {
        QJsonArray versions;
        for (const int v : m_options.apiVersions) {
            versions.append(v);
        }
        ok(versions);
        return;
    }
    static const QRegularExpression base(QStringLiteral("^/api/v(\\d+)(/.*)?$"));
    const auto bm = base.match(path);
    if (!bm.hasMatch()) {
        error(404, QStringLiteral("The requested resource was not found."), QStringLiteral("error.404"));
        return;
    }
    const int version = bm.captured(1).toInt();
    if (!m_options.apiVersions.contains(version)) {
        error(400,
              QStringLiteral("API version %1 is not supported; use one of /api/versions.").arg(version),
              QStringLiteral("error.apiVersion.unsupported"));
        return;
    }
    apiVersion = QStringLiteral("%1.0").arg(version);
    const QString rest = bm.captured(2);

    if (rest == QLatin1String("/versions")) {
        // The Ansible collection asks under a versioned base path.
        QJsonArray versions;
        for (const int v : m_options.apiVersions) {
            versions.append(v);
        }
        ok(versions);
        return;
    }
    if (rest == QLatin1String("/authorize")) {
        if (request.method == "DELETE") {
            const QByteArray auth = request.header("authorization");
            std::lock_guard lock(m_state->mutex);
            m_state->logouts++;
            m_state->tokens.remove(
                QString::fromLatin1(auth.startsWith("Bearer ") ? auth.mid(7).trimmed() : auth.trimmed()));
            Response r;
            r.status = 204;
            responder.send(r);
            return;
        }
        if (request.method != "POST") {
            error(405, QStringLiteral("Method not allowed"), QStringLiteral("error.405"));
            return;
        }
        QJsonParseError parseError{};
        const QJsonDocument doc = QJsonDocument::fromJson(request.body, &parseError);
        if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
            error(400, QStringLiteral("The request body is not valid JSON."), QStringLiteral("error.json.invalid"));
            return;
        }
        const QJsonObject o = doc.object();
        const QString username = o.value(QStringLiteral("username")).toString();
        const QString password = o.value(QStringLiteral("password")).toString();
        const QString accountId = o.value(QStringLiteral("accountId")).toString();
        if (username.isEmpty() || !o.value(QStringLiteral("password")).isString()) {
            error(422, QStringLiteral("username and password are required"), QStringLiteral("error.validation"));
            return;
        }
        bool valid = false;
        if (accountId.isEmpty() || accountId == QLatin1String("0")) {
            valid = username == QLatin1String("root") && password == m_options.rootPassword;
        } else {
            for (const TenantSpec &t : tenants()) {
                valid = valid || (t.id == accountId && username == QLatin1String("root") && password == t.rootPassword);
            }
        }
        if (!valid) {
            error(401,
                  QStringLiteral("Your credentials for this account were invalid. Please try again."),
                  QStringLiteral("error.authentication.invalid"));
            return;
        }
        QString token;
        {
            std::lock_guard lock(m_state->mutex);
            const std::uint64_t n = ++m_state->tokenCounter;
            token =
                QStringLiteral("%1-%2-4%3-a%4-%5")
                    .arg(QString::number(stableHash("t1", n ^ m_options.seed) & 0xffffffffULL, 16), 8, QLatin1Char('0'))
                    .arg(QString::number(stableHash("t2", n) & 0xffffULL, 16), 4, QLatin1Char('0'))
                    .arg(QString::number(stableHash("t3", n) & 0xfffULL, 16), 3, QLatin1Char('0'))
                    .arg(QString::number(stableHash("t4", n) & 0xfffULL, 16), 3, QLatin1Char('0'))
                    .arg(QString::number(stableHash("t5", n) & 0xffffffffffffULL, 16), 12, QLatin1Char('0'));
            m_state->tokens.insert(
                token,
                {now + std::chrono::duration_cast<std::chrono::milliseconds>(m_options.tokenTtl).count(),
                 accountId == QLatin1String("0") ? QString() : accountId,
                 username});
            m_state->authorizations++;
        }
        ok(token);
        return;
    }

    // Everything else needs a bearer token; grid paths a grid token, org paths a tenant token.
    const QByteArray authorization = request.header("authorization");
    std::optional<Token> token;
    {
        std::lock_guard lock(m_state->mutex);
        // "Bearer <token>" (Harvest, the UI) or the bare token (the Ansible collection sends
        // its auth_token verbatim); StorageGRID takes both.
        const QByteArray value =
            authorization.startsWith("Bearer ") ? authorization.mid(7).trimmed() : authorization.trimmed();
        const auto it = m_state->tokens.constFind(QString::fromLatin1(value));
        if (!value.isEmpty() && it != m_state->tokens.constEnd()) {
            token = *it;
        }
    }
    if (!token) {
        error(401,
              QStringLiteral("You are not logged in or your session is not valid."),
              QStringLiteral("error.authentication.required"));
        return;
    }
    if (token->expiresMs <= now) {
        error(401, QStringLiteral("Your session has expired. Sign in again."), QStringLiteral("error.token.expired"));
        return;
    }
    const bool gridPath = rest.startsWith(QLatin1String("/grid/"));
    const bool orgPath = rest.startsWith(QLatin1String("/org/"));
    if ((gridPath && !token->accountId.isEmpty()) || (orgPath && token->accountId.isEmpty())) {
        error(403,
              QStringLiteral("You do not have permission to access this resource."),
              QStringLiteral("error.forbidden"));
        return;
    }
    if (request.method != "GET") {
        error(405, QStringLiteral("Method not allowed"), QStringLiteral("error.405"));
        return;
    }

    std::vector<GridNode> nodes;
    QString siteId;
    {
        std::lock_guard lock(m_state->mutex);
        nodes = m_state->nodes;
        siteId = m_state->siteId;
    }
    const std::vector<TenantSpec> allTenants = tenants();
    const std::vector<AlertInstance> active = [&] {
        std::vector<AlertInstance> out;
        for (const AlertInstance &a : modelAlerts(m_options, nodes, now, now, now)) {
            if (a.endsMs == 0) {
                out.push_back(a);
            }
        }
        return out;
    }();
    auto nodeSeverity = [&](const QString &name) {
        for (const AlertInstance &a : active) {
            if (a.node == name) {
                return a.severity;
            }
        }
        return QStringLiteral("normal");
    };
    auto nodeId = [&](const QString &name) {
        for (const GridNode &n : nodes) {
            if (n.name == name) {
                return n.id;
            }
        }
        return QString();
    };
    auto alertLabels = [&](const AlertInstance &a) {
        return QJsonObject{{QStringLiteral("alertname"), a.alertName},
                           {QStringLiteral("severity"), a.severity},
                           {QStringLiteral("instance"), a.node},
                           {QStringLiteral("node_id"), nodeId(a.node)},
                           {QStringLiteral("site_id"), siteId},
                           {QStringLiteral("site_name"), QStringLiteral("dc1")},
                           {QStringLiteral("job"), QStringLiteral("storagegrid")}};
    };
    auto alertAnnotations = [&](const AlertInstance &a) {
        return QJsonObject{{QStringLiteral("summary"), a.summary},
                           {QStringLiteral("description"), a.description},
                           {QStringLiteral("recommendedActions"),
                            QStringLiteral("See the StorageGRID alert reference for %1.").arg(a.name)}};
    };
    // swagger model Alert (GET /grid/alerts).
    auto alertJson = [&](const AlertInstance &a) {
        return QJsonObject{{QStringLiteral("id"), a.id},
                           {QStringLiteral("name"), a.name},
                           {QStringLiteral("labels"), alertLabels(a)},
                           {QStringLiteral("annotations"), alertAnnotations(a)},
                           {QStringLiteral("startsAt"), isoMs(a.startsMs)},
                           {QStringLiteral("status"), QStringLiteral("active")},
                           {QStringLiteral("silenced"), false},
                           {QStringLiteral("silencedBy"), QJsonArray{}},
                           {QStringLiteral("inhibited"), false},
                           {QStringLiteral("inhibitedBy"), QJsonArray{}}};
    };
    // swagger model ResolvedAlertRecord (GET /grid/alert-history).
    auto resolvedAlertJson = [&](const AlertInstance &a) {
        return QJsonObject{{QStringLiteral("eventId"), qint64(a.eventId)},
                           {QStringLiteral("name"), a.name},
                           {QStringLiteral("instance"), a.node},
                           {QStringLiteral("severity"), a.severity},
                           {QStringLiteral("event"), QStringLiteral("triggered")},
                           {QStringLiteral("labels"), alertLabels(a)},
                           {QStringLiteral("annotations"), alertAnnotations(a)},
                           {QStringLiteral("inhibited"), false},
                           {QStringLiteral("status"), QStringLiteral("resolved")},
                           {QStringLiteral("id"), a.id},
                           {QStringLiteral("startTime"), isoMs(a.startsMs)},
                           {QStringLiteral("endTime"), isoMs(a.endsMs)}};
    };
    auto tenantUsage = [&](const TenantSpec &t, bool buckets) {
        std::int64_t objects = 0;
        std::int64_t bytes = 0;
        QJsonArray list;
        for (const BucketInfo &b : m_store->buckets(t.id.toStdString())) {
            objects += b.objectCount;
            bytes += b.dataBytes;
            list.append(QJsonObject{{QStringLiteral("name"), QString::fromStdString(b.name)},
                                    {QStringLiteral("region"), QString::fromStdString(b.region)},
                                    {QStringLiteral("versioningEnabled"), b.versioning == VersioningState::Enabled},
                                    {QStringLiteral("versioningSuspended"), b.versioning == VersioningState::Suspended},
                                    {QStringLiteral("objectCount"), qint64(b.objectCount)},
                                    {QStringLiteral("dataBytes"), qint64(b.dataBytes)},
                                    {QStringLiteral("quotaObjectBytes"),
                                     b.quotaObjectBytes < 0 ? QJsonValue() : QJsonValue(qint64(b.quotaObjectBytes))}});
        }
        QJsonObject o{{QStringLiteral("calculationTime"), isoMs(now)},
                      {QStringLiteral("objectCount"), qint64(objects)},
                      {QStringLiteral("dataBytes"), qint64(bytes)}};
        if (buckets) {
            o.insert(QStringLiteral("buckets"), list);
        }
        return o;
    };
    auto accountJson = [&](const TenantSpec &t) {
        return QJsonObject{
            {QStringLiteral("id"), t.id},
            {QStringLiteral("name"), t.name},
            {QStringLiteral("description"), t.description.isEmpty() ? QJsonValue() : QJsonValue(t.description)},
            {QStringLiteral("capabilities"), QJsonArray{QStringLiteral("management"), QStringLiteral("s3")}},
            {QStringLiteral("policy"),
             QJsonObject{{QStringLiteral("useAccountIdentitySource"), false},
                         {QStringLiteral("allowPlatformServices"), false},
                         {QStringLiteral("allowSelectObjectContent"), false},
                         {QStringLiteral("quotaObjectBytes"),
                          t.quotaObjectBytes < 0 ? QJsonValue() : QJsonValue(qint64(t.quotaObjectBytes))}}}};
    };

    // ---- metric model -------------------------------------------------------------------
    // Usage before "now" shrinks back in time at a per-tenant daily rate (2..5 %), so 7-day
    // growth exists; "now" equals the S3 store's usage.
    auto series = [&]() {
        std::vector<Series> out;
        // One "now" per request: an instant query at the request's time must read the store's
        // usage exactly, however long the request took to evaluate.
        auto growth = [this, now](const std::string &key, double current) {
            const double rate = 0.02 + 0.03 * double(stableHash(key, m_options.seed) % 1000) / 1000.0;
            return [now, current, rate](std::int64_t t) {
                const double days = std::max(0.0, double(now - t) / 86400000.0);
                return std::round(current * std::max(0.05, 1.0 - rate * days));
            };
        };
        // A tenant's usage is the sum of its buckets' (StorageGRID accounts usage per bucket), so
        // its series is that sum at every instant: a tenant never grows more than its buckets.
        using Curve = std::function<double(std::int64_t)>;
        auto sumOf = [](std::vector<Curve> parts) -> Curve {
            return [parts = std::move(parts)](std::int64_t t) {
                double total = 0;
                for (const Curve &part : parts) {
                    total += part(t);
                }
                return total;
            };
        };
        for (const TenantSpec &t : allTenants) {
            const QJsonObject usage = tenantUsage(t, true);
            const QJsonObject base{{QStringLiteral("tenant_id"), t.id},
                                   {QStringLiteral("tenant_name"), t.name},
                                   {QStringLiteral("job"), QStringLiteral("storagegrid")}};
            std::vector<Curve> bucketBytes;
            std::vector<Curve> bucketObjects;
            for (const QJsonValue &bv : usage.value(QStringLiteral("buckets")).toArray()) {
                const QJsonObject b = bv.toObject();
                QJsonObject bl = base;
                bl.insert(QStringLiteral("bucket"), b.value(QStringLiteral("name")));
                bl.insert(QStringLiteral("__name__"), QStringLiteral("storagegrid_tenant_bucket_usage_data_bytes"));
                const std::string key =
                    t.id.toStdString() + "/" + b.value(QStringLiteral("name")).toString().toStdString();
                bucketBytes.push_back(growth(key, b.value(QStringLiteral("dataBytes")).toDouble()));
                out.push_back({bl, bucketBytes.back()});
                bl.insert(QStringLiteral("__name__"), QStringLiteral("storagegrid_tenant_bucket_usage_object_count"));
                bucketObjects.push_back(growth(key, b.value(QStringLiteral("objectCount")).toDouble()));
                out.push_back({bl, bucketObjects.back()});
            }
            QJsonObject l = base;
            l.insert(QStringLiteral("__name__"), QStringLiteral("storagegrid_tenant_usage_data_bytes"));
            out.push_back({l, sumOf(std::move(bucketBytes))});
            l.insert(QStringLiteral("__name__"), QStringLiteral("storagegrid_tenant_usage_object_count"));
            out.push_back({l, sumOf(std::move(bucketObjects))});
        }
        std::int64_t gridBytes = 0;
        for (const BucketInfo &b : m_store->buckets()) {
            gridBytes += b.dataBytes;
        }
        for (const GridNode &n : nodes) {
            const QJsonObject base{{QStringLiteral("instance"), n.name},
                                   {QStringLiteral("node_id"), n.id},
                                   {QStringLiteral("site_id"), siteId},
                                   {QStringLiteral("site_name"), QStringLiteral("dc1")},
                                   {QStringLiteral("job"), QStringLiteral("storagegrid")}};
            QJsonObject l = base;
            l.insert(QStringLiteral("__name__"), QStringLiteral("storagegrid_node_cpu_utilization_percentage"));
            const std::uint64_t salt = stableHash(n.name.toStdString(), m_options.seed);
            out.push_back({l, [salt](std::int64_t t) {
                               const double phase = double(t / 60000) / 30.0 + double(salt % 100);
                               return std::round((12.0 + 6.0 * std::sin(phase)) * 100.0) / 100.0;
                           }});
            if (n.type != QLatin1String("storageNode")) {
                continue;
            }
            // Two replicas over three storage nodes (the ILM rule), on 48 TB usable per node.
            const double perNode = double(gridBytes) * 2.0 / 3.0;
            constexpr double Total = 48e12;
            l.insert(QStringLiteral("__name__"), QStringLiteral("storagegrid_storage_utilization_data_bytes"));
            out.push_back({l, growth("node" + n.name.toStdString(), perNode)});
            l.insert(QStringLiteral("__name__"), QStringLiteral("storagegrid_storage_utilization_total_space_bytes"));
            out.push_back({l, [](std::int64_t) {
                               return Total;
                           }});
            l.insert(QStringLiteral("__name__"), QStringLiteral("storagegrid_storage_utilization_usable_space_bytes"));
            const auto used = growth("node" + n.name.toStdString(), perNode);
            out.push_back({l, [used](std::int64_t t) {
                               return Total - used(t);
                           }});
        }
        return out;
    };
    // Evaluates "[sum|min|max|avg|count] [by (labels)] (selector) [by (labels)]" or a selector.
    auto evaluate =
        [&](const QString &query, std::vector<std::int64_t> times, bool matrix) -> std::optional<QJsonObject> {
        static const QRegularExpression agg(QStringLiteral("^\\s*(sum|min|max|avg|count)\\s*(?:by\\s*\\(([^)]*)\\))?"
                                                           "\\s*\\((.*?)\\)\\s*(?:by\\s*\\(([^)]*)\\))?\\s*$"));
        const auto am = agg.match(query);
        const QString selectorText = am.hasMatch() ? am.captured(3) : query;
        const auto selector = parseSelector(selectorText);
        if (!selector) {
            return std::nullopt;
        }
        QStringList by;
        if (am.hasMatch()) {
            for (const QString &l :
                 QString(am.captured(2) + QLatin1Char(',') + am.captured(4)).split(QLatin1Char(','))) {
                if (!l.trimmed().isEmpty()) {
                    by << l.trimmed();
                }
            }
        }
        std::vector<const Series *> picked;
        const std::vector<Series> all = series();
        for (const Series &s : all) {
            if (matches(*selector, s.labels)) {
                picked.push_back(&s);
            }
        }
        // Groups: one per series without aggregation, else per distinct `by` labels.
        std::map<QString, std::pair<QJsonObject, std::vector<const Series *>>> groups;
        for (const Series *s : picked) {
            QJsonObject labels;
            if (!am.hasMatch()) {
                labels = s->labels;
            } else {
                for (const QString &l : by) {
                    if (s->labels.contains(l)) {
                        labels.insert(l, s->labels.value(l));
                    }
                }
            }
            const QString key = QString::fromUtf8(QJsonDocument(labels).toJson(QJsonDocument::Compact))
                                + (am.hasMatch() ? QString() : QString::number(quintptr(s)));
            groups[key].first = labels;
            groups[key].second.push_back(s);
        }
        const QString op = am.hasMatch() ? am.captured(1) : QString();
        QJsonArray result;
        for (const auto &[key, group] : groups) {
            QJsonArray values;
            for (const std::int64_t t : times) {
                double v = 0;
                if (op.isEmpty() || op == QLatin1String("sum") || op == QLatin1String("avg")) {
                    for (const Series *s : group.second) {
                        v += s->value(t);
                    }
                    if (op == QLatin1String("avg")) {
                        v /= double(group.second.size());
                    }
                } else if (op == QLatin1String("count")) {
                    v = double(group.second.size());
                } else {
                    v = group.second.front()->value(t);
                    for (const Series *s : group.second) {
                        v = op == QLatin1String("min") ? std::min(v, s->value(t)) : std::max(v, s->value(t));
                    }
                }
                values.append(QJsonArray{double(t) / 1000.0, promNumber(v)});
            }
            QJsonObject item{{QStringLiteral("metric"), group.first}};
            if (matrix) {
                item.insert(QStringLiteral("values"), values);
            } else {
                item.insert(QStringLiteral("value"), values.first());
            }
            result.append(item);
        }
        return QJsonObject{{QStringLiteral("resultType"), matrix ? QStringLiteral("matrix") : QStringLiteral("vector")},
                           {QStringLiteral("result"), result}};
    };

    // ---- grid ---------------------------------------------------------------------------
    if (rest == QLatin1String("/grid/config/product-version") || rest == QLatin1String("/org/config/product-version")) {
        ok(QJsonObject{{QStringLiteral("productVersion"), m_options.productVersion}});
        return;
    }
    if (rest == QLatin1String("/grid/config")) {
        ok(QJsonObject{{QStringLiteral("hostname"), QStringLiteral("dc1-adm1")},
                       {QStringLiteral("gridName"), m_options.gridName}});
        return;
    }
    if (rest == QLatin1String("/grid/license")) {
        ok(QJsonObject{
            {QStringLiteral("systemId"), QString::number(stableHash("system", m_options.seed) % 9000000 + 1000000)},
            {QStringLiteral("storageCapacityTB"), 144}});
        return;
    }
    if (rest == QLatin1String("/grid/health")) {
        QJsonObject alerts{{QStringLiteral("critical"), 0}, {QStringLiteral("major"), 0}, {QStringLiteral("minor"), 0}};
        for (const AlertInstance &a : active) {
            alerts.insert(a.severity, alerts.value(a.severity).toInt() + 1);
        }
        ok(QJsonObject{{QStringLiteral("alarms"),
                        QJsonObject{{QStringLiteral("critical"), 0},
                                    {QStringLiteral("major"), 0},
                                    {QStringLiteral("minor"), 0},
                                    {QStringLiteral("notice"), 0}}},
                       {QStringLiteral("alerts"), alerts},
                       {QStringLiteral("nodes"),
                        QJsonObject{{QStringLiteral("connected"), int(nodes.size())},
                                    {QStringLiteral("administratively-down"), 0},
                                    {QStringLiteral("unknown"), 0}}}});
        return;
    }
    if (rest == QLatin1String("/grid/health/topology")) {
        const QString depth = request.queryValue(QStringLiteral("depth"), QStringLiteral("node"));
        if (!QStringList{
                QStringLiteral("grid"), QStringLiteral("site"), QStringLiteral("node"), QStringLiteral("component")}
                 .contains(depth)) {
            error(
                400, QStringLiteral("depth must be grid, site, node or component"), QStringLiteral("error.validation"));
            return;
        }
        QString worst = QStringLiteral("normal");
        for (const AlertInstance &a : active) {
            worst = a.severity;
        }
        QJsonObject grid{{QStringLiteral("id"), QString::number(stableHash("grid", m_options.seed) % 1000000)},
                         {QStringLiteral("name"), m_options.gridName},
                         {QStringLiteral("type"), QStringLiteral("grid")},
                         {QStringLiteral("severity"), worst},
                         {QStringLiteral("state"), QStringLiteral("connected")}};
        if (depth != QLatin1String("grid")) {
            QJsonObject site{{QStringLiteral("id"), siteId},
                             {QStringLiteral("name"), QStringLiteral("dc1")},
                             {QStringLiteral("type"), QStringLiteral("site")},
                             {QStringLiteral("severity"), worst},
                             {QStringLiteral("state"), QStringLiteral("connected")}};
            if (depth != QLatin1String("site")) {
                QJsonArray children;
                for (const GridNode &n : nodes) {
                    children.append(QJsonObject{{QStringLiteral("id"), n.id},
                                                {QStringLiteral("name"), n.name},
                                                {QStringLiteral("type"), n.type},
                                                {QStringLiteral("severity"), nodeSeverity(n.name)},
                                                {QStringLiteral("state"), QStringLiteral("connected")}});
                }
                site.insert(QStringLiteral("children"), children);
            }
            grid.insert(QStringLiteral("children"), QJsonArray{site});
        }
        ok(grid);
        return;
    }
    if (rest == QLatin1String("/grid/node-health")) {
        QJsonArray out;
        for (const GridNode &n : nodes) {
            out.append(QJsonObject{{QStringLiteral("id"), n.id},
                                   {QStringLiteral("isPrimaryAdmin"), n.primaryAdmin},
                                   {QStringLiteral("name"), n.name},
                                   {QStringLiteral("siteId"), siteId},
                                   {QStringLiteral("siteName"), QStringLiteral("dc1")},
                                   {QStringLiteral("severity"), nodeSeverity(n.name)},
                                   {QStringLiteral("state"), QStringLiteral("connected")},
                                   {QStringLiteral("type"), n.type}});
        }
        ok(out);
        return;
    }
    if (rest == QLatin1String("/grid/alerts")) {
        QJsonArray out;
        for (const AlertInstance &a : active) {
            out.append(alertJson(a));
        }
        ok(out);
        return;
    }
    if (rest == QLatin1String("/grid/alert-history")) {
        // Filters on the time an alert was triggered; no limit is documented.
        std::optional<std::int64_t> earliest;
        std::optional<std::int64_t> latest;
        for (const auto &[key, bound] : {std::pair{QStringLiteral("timeTriggeredEarliest"), &earliest},
                                         std::pair{QStringLiteral("timeTriggeredLatest"), &latest}}) {
            if (!request.query.hasQueryItem(key)) {
                continue;
            }
            *bound = parseTimeMs(request.queryValue(key));
            if (!*bound) {
                error(400, key + QStringLiteral(" must be a date-time"), QStringLiteral("error.validation"));
                return;
            }
        }
        const std::int64_t retained = now - std::int64_t(kAlertHistoryRetentionDays) * 86400000;
        const std::int64_t from = std::max(retained, earliest.value_or(retained));
        const std::int64_t to = std::min(now, latest.value_or(now));
        QJsonArray out;
        for (const AlertInstance &a : modelAlerts(m_options, nodes, from, to, now)) {
            if (a.endsMs != 0 && a.startsMs >= from && a.startsMs <= to) {
                out.append(resolvedAlertJson(a));
            }
        }
        ok(out);
        return;
    }
    if (rest == QLatin1String("/grid/accounts") || rest == QLatin1String("/grid/accounts-cache")) {
        const bool cache = rest.endsWith(QLatin1String("-cache"));
        bool limitOk = true;
        const int limit = request.queryValue(QStringLiteral("limit"), QStringLiteral("25")).toInt(&limitOk);
        if (!limitOk || limit < 1) {
            error(400, QStringLiteral("limit must be a positive integer"), QStringLiteral("error.validation"));
            return;
        }
        // accounts-cache documents `limit` only: marker, includeMarker and order are not its own.
        const QString marker = cache ? QString() : request.queryValue(QStringLiteral("marker"));
        const bool includeMarker =
            !cache && request.queryValue(QStringLiteral("includeMarker")) == QLatin1String("true");
        const bool desc = !cache && request.queryValue(QStringLiteral("order")) == QLatin1String("desc");
        if (desc && marker.isEmpty()) {
            error(400, QStringLiteral("order=desc requires a marker"), QStringLiteral("error.validation"));
            return;
        }
        std::vector<TenantSpec> sorted = allTenants;
        std::sort(sorted.begin(), sorted.end(), [desc](const TenantSpec &a, const TenantSpec &b) {
            return desc ? a.id > b.id : a.id < b.id;
        });
        QJsonArray out;
        for (const TenantSpec &t : sorted) {
            if (!marker.isEmpty()) {
                const bool after = desc ? t.id < marker : t.id > marker;
                if (!(after || (includeMarker && t.id == marker))) {
                    continue;
                }
            }
            if (out.size() >= limit) {
                break;
            }
            QJsonObject o = accountJson(t);
            if (cache) {
                const QJsonObject usage = tenantUsage(t, false);
                o.insert(QStringLiteral("objectCount"), usage.value(QStringLiteral("objectCount")));
                o.insert(QStringLiteral("dataBytes"), usage.value(QStringLiteral("dataBytes")));
            }
            out.append(o);
        }
        ok(out);
        return;
    }
    static const QRegularExpression accountPath(QStringLiteral("^/grid/accounts/([^/]+)(/usage)?$"));
    if (const auto m = accountPath.match(rest); m.hasMatch()) {
        for (const TenantSpec &t : allTenants) {
            if (t.id == m.captured(1)) {
                if (m.captured(2).isEmpty()) {
                    ok(accountJson(t));
                } else {
                    ok(tenantUsage(t,
                                   request.queryValue(QStringLiteral("includeBucketDetail")) == QLatin1String("true")));
                }
                return;
            }
        }
        error(404, QStringLiteral("The account %1 was not found.").arg(m.captured(1)), QStringLiteral("error.404"));
        return;
    }
    if (rest == QLatin1String("/grid/ilm-policies")) {
        const QString type = request.queryValue(QStringLiteral("type"));
        const QJsonObject activePolicy{
            {QStringLiteral("id"), QStringLiteral("ilm-policy-datalake-2copies")},
            {QStringLiteral("name"), QStringLiteral("Data lake 2 copies")},
            {QStringLiteral("reason"), QStringLiteral("Two replicated copies across the dc1 storage nodes")},
            {QStringLiteral("rules"),
             QJsonArray{QJsonObject{{QStringLiteral("ruleId"), QStringLiteral("rule-2copies-dc1")},
                                    {QStringLiteral("name"), QStringLiteral("2 copies dc1")}}}},
            {QStringLiteral("defaultRule"), QStringLiteral("rule-2copies-dc1")},
            {QStringLiteral("active"), true},
            {QStringLiteral("proposed"), false},
            {QStringLiteral("historical"), false},
            {QStringLiteral("activatedBy"), QJsonArray{QStringLiteral("root")}},
            {QStringLiteral("activationTime"), isoMs(now - 30LL * 86400000)}};
        const QJsonObject baseline{{QStringLiteral("id"), QStringLiteral("ilm-policy-baseline")},
                                   {QStringLiteral("name"), QStringLiteral("Baseline 2 Copies Policy")},
                                   {QStringLiteral("reason"), QStringLiteral("Installed with the grid")},
                                   {QStringLiteral("rules"), QJsonArray{}},
                                   {QStringLiteral("defaultRule"), QStringLiteral("rule-make-2-copies")},
                                   {QStringLiteral("active"), false},
                                   {QStringLiteral("proposed"), false},
                                   {QStringLiteral("historical"), true},
                                   {QStringLiteral("activatedBy"), QJsonArray{}}};
        QJsonArray out;
        if (type.isEmpty() || type == QLatin1String("active")) {
            out.append(activePolicy);
        }
        if (type.isEmpty() || type == QLatin1String("historical")) {
            out.append(baseline);
        }
        ok(out);
        return;
    }
    if (rest == QLatin1String("/grid/metric-names")) {
        std::set<QString> names;
        for (const Series &s : series()) {
            names.insert(s.labels.value(QStringLiteral("__name__")).toString());
        }
        QJsonArray out;
        for (const QString &n : names) {
            out.append(n);
        }
        ok(out);
        return;
    }
    if (rest == QLatin1String("/grid/metric-query") || rest == QLatin1String("/grid/metric-query-range")) {
        const QString query = request.queryValue(QStringLiteral("query"));
        if (query.trimmed().isEmpty()) {
            error(400, QStringLiteral("query is required"), QStringLiteral("error.validation"));
            return;
        }
        std::vector<std::int64_t> times;
        const bool range = rest.endsWith(QLatin1String("-range"));
        if (range) {
            const auto start = parseTimeMs(request.queryValue(QStringLiteral("start")));
            const auto end = parseTimeMs(request.queryValue(QStringLiteral("end")));
            const auto step = parseStepMs(request.queryValue(QStringLiteral("step")));
            if (!start || !end || !step || *step <= 0 || *end < *start) {
                error(400,
                      QStringLiteral("bad_data: start, end and step are required; end must not be before start"),
                      QStringLiteral("error.metric.query"));
                return;
            }
            if ((*end - *start) / *step > 11000) {
                error(400,
                      QStringLiteral("bad_data: exceeded maximum resolution of 11,000 points per timeseries. Try "
                                     "decreasing the query resolution (?step=XX)"),
                      QStringLiteral("error.metric.query"));
                return;
            }
            for (std::int64_t t = *start; t <= *end; t += *step) {
                times.push_back(t);
            }
        } else {
            std::int64_t at = now;
            if (request.query.hasQueryItem(QStringLiteral("time"))) {
                const auto t = parseTimeMs(request.queryValue(QStringLiteral("time")));
                if (!t) {
                    error(400, QStringLiteral("bad_data: invalid time"), QStringLiteral("error.metric.query"));
                    return;
                }
                at = *t;
            }
            times.push_back(at);
        }
        const auto result = evaluate(query, times, range);
        if (!result) {
            error(400,
                  QStringLiteral("bad_data: 1:1: parse error: unsupported expression \"%1\"").arg(query),
                  QStringLiteral("error.metric.query"));
            return;
        }
        ok(*result);
        return;
    }

    // ---- tenant ---------------------------------------------------------------------------
    const TenantSpec *tenant = nullptr;
    for (const TenantSpec &t : allTenants) {
        if (t.id == token->accountId) {
            tenant = &t;
        }
    }
    if (orgPath && !tenant) {
        error(401,
              QStringLiteral("The account of this session no longer exists."),
              QStringLiteral("error.authentication.required"));
        return;
    }
    if (rest == QLatin1String("/org/containers")) {
        QJsonArray out;
        for (const BucketInfo &b : m_store->buckets(tenant->id.toStdString())) {
            out.append(
                QJsonObject{{QStringLiteral("name"), QString::fromStdString(b.name)},
                            {QStringLiteral("creationTime"), isoMs(b.creationMs)},
                            {QStringLiteral("region"), QString::fromStdString(b.region)},
                            {QStringLiteral("compliance"), QJsonValue::Null},
                            {QStringLiteral("s3ObjectLock"), QJsonObject{{QStringLiteral("enabled"), false}}},
                            {QStringLiteral("versioningEnabled"), b.versioning == VersioningState::Enabled},
                            {QStringLiteral("versioningSuspended"), b.versioning == VersioningState::Suspended}});
        }
        ok(out);
        return;
    }
    if (rest == QLatin1String("/org/usage")) {
        ok(tenantUsage(*tenant, true));
        return;
    }
    error(404, QStringLiteral("The requested resource was not found."), QStringLiteral("error.404"));
}

} // namespace strata::sim::storagegrid
