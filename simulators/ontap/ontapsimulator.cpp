#include "simulators/ontap/ontapsimulator.h"

#include "simulators/common/serverthread.h"
#include "simulators/ontap/estate.h"
#include "simulators/ontap/query.h"
#include "simulators/ontap/schemas.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QTimer>

#include <algorithm>
#include <tuple>
#include <utility>

Q_LOGGING_CATEGORY(lcOntapSim, "strata.sim.ontap", QtWarningMsg)

namespace strata::sim::ontap {

/// One request in flight: what arrived, how to answer, and the fault that hit it.
struct Exchange
{
    Request request;
    Responder responder;
    QueryParams params;
    std::optional<FaultRule> fault;
    bool hal = true;
    QString path;         ///< normalised, without a trailing slash
    QStringList segments; ///< path below /api
    qint64 nowMs = 0;
};

/// A job plus what it does when it completes and who waits for it.
struct JobRecord
{
    Job job;
    std::function<std::optional<OntapError>()> effect;
    std::optional<OntapError> forcedFailure;
    std::optional<OntapError> failure;
    qint64 runMs = 0;
    QList<std::function<void()>> waiters;
};

namespace {

constexpr int MaxEvents = 5000;

OntapError notFound(const QString &target = QStringLiteral("uuid"))
{
    return OntapError{404, QStringLiteral("entry doesn't exist"), QStringLiteral("4"), target};
}

OntapError missingField(const QString &name)
{
    return OntapError{
        400, QStringLiteral("Missing value for required field \"%1\".").arg(name), QStringLiteral("262186"), name};
}

OntapError duplicate(const QString &what, const QString &target)
{
    return OntapError{
        409, QStringLiteral("Duplicate entry: %1 already exists.").arg(what), QStringLiteral("1"), target};
}

OntapError badValue(const QString &field, const QString &message, const QString &code = QStringLiteral("262197"))
{
    return OntapError{400, message, code, field};
}

void mergeInto(QJsonObject &dst, const QJsonObject &src)
{
    for (auto it = src.begin(); it != src.end(); ++it) {
        if (it.value().isObject() && dst.value(it.key()).isObject()) {
            QJsonObject child = dst.value(it.key()).toObject();
            mergeInto(child, it.value().toObject());
            dst.insert(it.key(), child);
        } else {
            dst.insert(it.key(), it.value());
        }
    }
}

void setPath(QJsonObject &obj, const QStringList &parts, qsizetype i, const QJsonValue &value)
{
    if (i == parts.size() - 1) {
        if (value.isObject() && obj.value(parts[i]).isObject()) {
            QJsonObject merged = obj.value(parts[i]).toObject();
            mergeInto(merged, value.toObject());
            obj.insert(parts[i], merged);
        } else {
            obj.insert(parts[i], value);
        }
        return;
    }
    QJsonObject child = obj.value(parts[i]).toObject();
    setPath(child, parts, i + 1, value);
    obj.insert(parts[i], child);
}

// Ansible sends dotted keys ({"clone.parent_volume.name": ...}); ONTAP accepts them like nesting.
QJsonObject expandDotted(const QJsonObject &in)
{
    QJsonObject out;
    for (auto it = in.begin(); it != in.end(); ++it) {
        QJsonValue v = it.value();
        if (v.isObject()) {
            v = expandDotted(v.toObject());
        } else if (v.isArray()) {
            QJsonArray array;
            for (const QJsonValue &item : v.toArray()) {
                array.append(item.isObject() ? QJsonValue(expandDotted(item.toObject())) : item);
            }
            v = array;
        }
        setPath(out, it.key().split(QLatin1Char('.')), 0, v);
    }
    return out;
}

QJsonValue at(const QJsonObject &object, const QString &dotted)
{
    QJsonValue cur = object;
    for (const QString &part : dotted.split(QLatin1Char('.'))) {
        if (!cur.isObject()) {
            return QJsonValue(QJsonValue::Undefined);
        }
        cur = cur.toObject().value(part);
    }
    return cur;
}

std::optional<OntapError> checkKeys(const QJsonObject &body, const QStringList &allowed)
{
    for (auto it = body.begin(); it != body.end(); ++it) {
        if (!allowed.contains(it.key())) {
            return unexpectedArgument(it.key());
        }
    }
    return std::nullopt;
}

QJsonObject jobLink(const QString &uuid)
{
    return QJsonObject{
        {QStringLiteral("uuid"), uuid},
        {QStringLiteral("_links"),
         QJsonObject{{QStringLiteral("self"),
                      QJsonObject{{QStringLiteral("href"), QString(QStringLiteral("/api/cluster/jobs/") + uuid)}}}}}};
}

std::optional<qint64> integerOf(const QJsonValue &v)
{
    if (v.isDouble()) {
        return static_cast<qint64>(v.toDouble());
    }
    if (v.isString()) {
        bool ok = false;
        const qint64 n = v.toString().toLongLong(&ok);
        if (ok) {
            return n;
        }
    }
    return std::nullopt;
}

bool validVolumeName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]{0,202}$"));
    return re.match(name).hasMatch();
}

QString sizeText(qint64 bytes)
{
    return QString::number(double(bytes) / double(Estate::GiB), 'f', 0) + QStringLiteral("GB");
}

} // namespace

OntapSimulator::OntapSimulator(Options options, QObject *parent)
    : SimulatorBase(parent)
    , m_options(std::move(options))
    , m_faults(m_options.seed)
{
    m_ticker.setParent(this);
}

OntapSimulator::~OntapSimulator() = default;

OntapSimulator *OntapSimulator::startOnThread(ServerThread &thread, Options options, QString *error)
{
    return startSimulatorOnThread<OntapSimulator>(thread, std::move(options), error);
}

bool OntapSimulator::start()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (m_options.preset == Options::Preset::Demo) {
        m_estate = Estate::demo(m_options.clusterName, m_options.seed, now);
    } else {
        m_estate = Estate::generated(m_options.clusterName,
                                     std::max(0, m_options.volumeCount),
                                     std::max(0, m_options.snapshotsPerVolume),
                                     m_options.seed,
                                     now);
    }
    m_volumeSortCache = std::make_unique<SortCache<Volume>>();
    m_pageCap = m_options.pageCap;

    if (m_options.useTls && !ensureTls(m_options.tls, m_options.clusterName, certificateHosts(m_options.address))) {
        return false;
    }
    if (!listen(m_options.address, m_options.port, m_options.useTls ? &m_options.tls : nullptr)) {
        return false;
    }
    m_expectedAuth = "Basic " + (m_options.username + QLatin1Char(':') + m_options.password).toUtf8().toBase64();
    if (m_options.tickInterval.count() > 0) {
        m_ticker.setInterval(m_options.tickInterval);
        connect(&m_ticker, &QTimer::timeout, this, &OntapSimulator::tick);
        m_ticker.start();
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// In-process API

int OntapSimulator::volumeCount(bool includeConstituents) const
{
    return onOwnThread([&] {
        int n = 0;
        for (const auto &v : m_estate->volumes()) {
            n += (includeConstituents || !v->isConstituent) ? 1 : 0;
        }
        return n;
    });
}

int OntapSimulator::snapshotCount(const QString &volumeUuid) const
{
    return onOwnThread([&] {
        const Volume *v = m_estate->volume(volumeUuid);
        return v ? v->snapshotCount() : -1;
    });
}

qint64 OntapSimulator::totalSnapshotCount() const
{
    return onOwnThread([&] {
        qint64 n = 0;
        for (const auto &v : m_estate->volumes()) {
            n += v->snapshotCount();
        }
        return n;
    });
}

QList<OntapSimulator::PerfPoint> OntapSimulator::perfAt(qint64 atMs) const
{
    return onOwnThread([&] {
        QList<PerfPoint> out;
        for (const auto &v : m_estate->volumes()) {
            if (v->isConstituent || v->state != QLatin1String("online") || v->createMs > atMs) {
                continue;
            }
            const PerfSample s = volumePerf(*v, atMs, 15);
            PerfPoint p;
            p.uuid = v->uuid;
            p.throughputBps = s.throughput[3];
            p.iops = s.iops[3];
            p.latencyUs = s.latencyUs[3];
            const QosPolicy *policy = v->qosPolicy.uuid.isEmpty() ? nullptr : m_estate->qosPolicy(v->qosPolicy.uuid);
            if (policy && !policy->adaptive && policy->maxMbps > 0) {
                p.capBps = double(policy->maxMbps) * 1e6; // "the units are base ten" (qos policy-group create)
            }
            out.append(p);
        }
        return out;
    });
}

QList<OntapSimulator::VolumeSpace> OntapSimulator::volumeSpace() const
{
    return onOwnThread([&] {
        QList<VolumeSpace> out;
        for (const auto &v : m_estate->volumes()) {
            if (v->isConstituent || v->state != QLatin1String("online")) {
                continue;
            }
            out.append(VolumeSpace{v->uuid, v->svm.name, v->name, v->size, v->used, v->usableSize(), v->tridentGrowth});
        }
        std::sort(out.begin(), out.end(), [](const VolumeSpace &a, const VolumeSpace &b) {
            return std::tie(a.svm, a.name) < std::tie(b.svm, b.name);
        });
        return out;
    });
}

std::optional<Volume> OntapSimulator::volume(const QString &uuid) const
{
    return onOwnThread([&]() -> std::optional<Volume> {
        Volume *v = m_estate->volume(uuid);
        if (!v) {
            return std::nullopt;
        }
        m_estate->materialiseSnapshots(*v);
        return *v;
    });
}

std::optional<Volume> OntapSimulator::volumeByName(const QString &svmName, const QString &name) const
{
    return onOwnThread([&]() -> std::optional<Volume> {
        Volume *v = m_estate->volumeByName(svmName, name);
        if (!v) {
            return std::nullopt;
        }
        m_estate->materialiseSnapshots(*v);
        return *v;
    });
}

OntapSimulator::SpaceChange OntapSimulator::changeVolumeUsed(
    const QString &svmName, const QString &volumeName, qint64 deltaBytes, qint64 *usedAfter, qint64 *available)
{
    return onOwnThread([&] {
        Volume *v = m_estate->volumeByName(svmName, volumeName);
        if (!v) {
            return SpaceChange::NoSuchVolume;
        }
        const qint64 usable = v->usableSize();
        const qint64 next = std::max<qint64>(0, v->used + deltaBytes);
        const bool fits = deltaBytes <= 0 || next <= usable;
        if (fits && next != v->used) {
            v->used = next;
            m_estate->touch();
            checkFullness(*v, QDateTime::currentMSecsSinceEpoch());
        }
        if (usedAfter) {
            *usedAfter = v->used;
        }
        if (available) {
            *available = std::max<qint64>(0, usable - v->used);
        }
        return fits ? SpaceChange::Changed : SpaceChange::NoSpace;
    });
}

QStringList OntapSimulator::snapshotNames(const QString &volumeUuid) const
{
    return onOwnThread([&] {
        QStringList names;
        if (Volume *v = m_estate->volume(volumeUuid)) {
            m_estate->materialiseSnapshots(*v);
            for (const Snapshot &s : v->snapshots) {
                names.append(s.name);
            }
        }
        return names;
    });
}

std::optional<Job> OntapSimulator::job(const QString &uuid) const
{
    return onOwnThread([&]() -> std::optional<Job> {
        const auto rec = m_jobs.value(uuid);
        return rec ? std::optional<Job>(rec->job) : std::nullopt;
    });
}

QList<Job> OntapSimulator::jobs() const
{
    return onOwnThread([&] {
        QList<Job> out;
        for (const auto &rec : m_jobs) {
            out.append(rec->job);
        }
        return out;
    });
}

QList<EmsEvent> OntapSimulator::events() const
{
    return onOwnThread([&] {
        return QList<EmsEvent>(m_estate->events.begin(), m_estate->events.end());
    });
}

int OntapSimulator::requestCount() const
{
    return onOwnThread([&] {
        return m_server ? m_server->requestCount() : 0;
    });
}

int OntapSimulator::addFaultRule(const FaultRule &rule)
{
    return onOwnThread([&] {
        return m_faults.add(rule);
    });
}

bool OntapSimulator::removeFaultRule(int id)
{
    return onOwnThread([&] {
        return m_faults.remove(id);
    });
}

void OntapSimulator::clearFaultRules()
{
    onOwnThread([&] {
        m_faults.clear();
    });
}

QList<FaultRule> OntapSimulator::faultRules() const
{
    return onOwnThread([&] {
        return m_faults.rules();
    });
}

void OntapSimulator::setPageCap(int cap)
{
    onOwnThread([&] {
        m_pageCap = cap;
    });
}

// ---------------------------------------------------------------------------------------------
// Transport

bool OntapSimulator::isAuthorised(const Request &request) const
{
    const QByteArray header = request.header("authorization").trimmed();
    if (header == m_expectedAuth) {
        return true;
    }
    const qsizetype space = header.indexOf(' ');
    if (space < 0 || header.left(space).toLower() != "basic") {
        return false;
    }
    const QByteArray normalised = QByteArrayLiteral("Basic ") + header.mid(space + 1).trimmed();
    return normalised == m_expectedAuth;
}

void OntapSimulator::finish(const std::shared_ptr<Exchange> &ex, Response response) const
{
    qCInfo(lcOntapSim).noquote() << QString::fromLatin1(ex->request.method) << QString::fromUtf8(ex->request.target)
                                 << "->" << response.status
                                 << (ex->fault ? QStringLiteral("[fault %1]").arg(FaultRule::kindName(ex->fault->kind))
                                               : QString());
    if (ex->fault) {
        const FaultRule &f = *ex->fault;
        if (f.latencyMs > 0) {
            response.delay = std::chrono::milliseconds(f.latencyMs);
        }
        switch (f.kind) {
        case FaultRule::Kind::Truncate:
            response.fault = Fault::Truncate;
            break;
        case FaultRule::Kind::Malformed:
            response.fault = Fault::Malformed;
            break;
        case FaultRule::Kind::ApplyThenReset:
            response.fault = Fault::Reset;
            break;
        case FaultRule::Kind::StallBody: {
            // Headers and part of the JSON, then silence; the stream is never ended.
            const Responder responder = ex->responder;
            const QByteArray part = response.body.left(std::max<qsizetype>(1, response.body.size() / 2));
            QTimer::singleShot(
                response.delay, this, [responder, status = response.status, headers = response.headers, part] {
                    responder.beginStream(status, headers);
                    responder.writeChunk(part);
                });
            return;
        }
        default:
            break;
        }
    }
    ex->responder.send(std::move(response));
}

void OntapSimulator::sendJson(const std::shared_ptr<Exchange> &ex, int status, const QByteArray &body) const
{
    Response r;
    r.status = status;
    r.body = body;
    r.headers.append({QByteArrayLiteral("Content-Type"),
                      ex->hal ? QByteArrayLiteral("application/hal+json") : QByteArrayLiteral("application/json")});
    finish(ex, std::move(r));
}

void OntapSimulator::sendError(const std::shared_ptr<Exchange> &ex, const OntapError &error) const
{
    sendJson(ex, error.httpStatus, error.body());
}

void OntapSimulator::sendResult(const std::shared_ptr<Exchange> &ex,
                                const std::variant<QByteArray, OntapError> &result) const
{
    if (const auto *error = std::get_if<OntapError>(&result)) {
        sendError(ex, *error);
    } else {
        sendJson(ex, 200, std::get<QByteArray>(result));
    }
}

void OntapSimulator::handle(const Request &request, const Responder &responder)
{
    auto ex = std::make_shared<Exchange>();
    ex->request = request;
    ex->responder = responder;
    ex->params = QueryParams::parse(request.target);
    ex->nowMs = QDateTime::currentMSecsSinceEpoch();
    QString path = request.path;
    while (path.size() > 1 && path.endsWith(QLatin1Char('/'))) {
        path.chop(1);
    }
    ex->path = path;
    const QByteArray accept = request.header("accept");
    // HAL links are the default; a plain application/json Accept keeps only the next link.
    ex->hal = !(accept.contains("application/json") && !accept.contains("hal+json"));

    if (path == QLatin1String("/_sim") || path.startsWith(QLatin1String("/_sim/"))) {
        if (!isAuthorised(request)) {
            sendError(ex, OntapError{401, QStringLiteral("not authorized for that command"), QStringLiteral("6"), {}});
            return;
        }
        handleControl(ex);
        return;
    }

    ex->fault = m_faults.take(request.method, path);
    if (ex->fault) {
        const FaultRule &f = *ex->fault;
        Response r;
        r.delay = std::chrono::milliseconds(f.latencyMs);
        if (f.kind == FaultRule::Kind::Stall || f.kind == FaultRule::Kind::Reset) {
            qCInfo(lcOntapSim).noquote() << QString::fromLatin1(request.method) << QString::fromUtf8(request.target)
                                         << "->" << FaultRule::kindName(f.kind);
        }
        switch (f.kind) {
        case FaultRule::Kind::Stall:
            r.fault = Fault::Stall;
            responder.send(std::move(r));
            return;
        case FaultRule::Kind::Reset:
            r.fault = Fault::Reset;
            responder.send(std::move(r));
            return;
        case FaultRule::Kind::Status: {
            OntapError e;
            e.httpStatus = f.status;
            e.message = f.message.isEmpty() ? (f.status == 503 ? QStringLiteral("Service is temporarily unavailable.")
                                                               : QStringLiteral("Internal error. Operation failed."))
                                            : f.message;
            e.code = f.code.isEmpty() ? QStringLiteral("8") : f.code;
            sendError(ex, e);
            return;
        }
        default:
            break; // the others shape the answer after the request has been handled
        }
    }

    if (!isAuthorised(request)) {
        Response r;
        r.status = 401;
        r.body = OntapError{401, QStringLiteral("not authorized for that command"), QStringLiteral("6"), {}}.body();
        r.headers.append({QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/hal+json")});
        r.headers.append({QByteArrayLiteral("WWW-Authenticate"), QByteArrayLiteral("Basic realm=\"ONTAP\"")});
        finish(ex, std::move(r));
        return;
    }
    route(ex);
}

void OntapSimulator::handleControl(const std::shared_ptr<Exchange> &ex)
{
    const QByteArray &method = ex->request.method;
    const QString &path = ex->path;
    auto rulesJson = [this] {
        QJsonArray records;
        for (const FaultRule &r : m_faults.rules()) {
            records.append(r.toJson());
        }
        return QJsonObject{{QStringLiteral("records"), records}, {QStringLiteral("num_records"), records.size()}};
    };
    if (path == QLatin1String("/_sim/faults")) {
        if (method == "GET") {
            sendJson(ex, 200, QJsonDocument(rulesJson()).toJson(QJsonDocument::Compact));
            return;
        }
        if (method == "DELETE") {
            const qsizetype n = m_faults.rules().size();
            m_faults.clear();
            sendJson(
                ex, 200, QJsonDocument(QJsonObject{{QStringLiteral("num_records"), n}}).toJson(QJsonDocument::Compact));
            return;
        }
        if (method == "POST") {
            QJsonParseError parseError{};
            const QJsonDocument doc = QJsonDocument::fromJson(ex->request.body, &parseError);
            QString error;
            std::optional<FaultRule> rule;
            if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
                error = QStringLiteral("the body must be a JSON object");
            } else {
                rule = FaultRule::fromJson(doc.object(), &error);
            }
            if (!rule) {
                sendError(ex, badValue(QStringLiteral("body"), error, QStringLiteral("262179")));
                return;
            }
            rule->id = m_faults.add(*rule);
            sendJson(ex, 201, QJsonDocument(rule->toJson()).toJson(QJsonDocument::Compact));
            return;
        }
    } else if (path.startsWith(QLatin1String("/_sim/faults/")) && method == "DELETE") {
        bool ok = false;
        const int id = path.mid(13).toInt(&ok);
        if (!ok || !m_faults.remove(id)) {
            sendError(ex, notFound(QStringLiteral("id")));
            return;
        }
        sendJson(ex, 200, "{}");
        return;
    } else if (path == QLatin1String("/_sim/state") && method == "GET") {
        qint64 snapshots = 0;
        int volumes = 0;
        for (const auto &v : m_estate->volumes()) {
            snapshots += v->snapshotCount();
            volumes += v->isConstituent ? 0 : 1;
        }
        const QJsonObject state{{QStringLiteral("cluster"), m_estate->cluster.name},
                                {QStringLiteral("volumes"), volumes},
                                {QStringLiteral("snapshots"), snapshots},
                                {QStringLiteral("jobs"), m_jobs.size()},
                                {QStringLiteral("events"), qint64(m_estate->events.size())},
                                {QStringLiteral("requests"), m_server->requestCount()},
                                {QStringLiteral("faults"), rulesJson().value(QStringLiteral("records"))}};
        sendJson(ex, 200, QJsonDocument(state).toJson(QJsonDocument::Compact));
        return;
    }
    sendError(ex, OntapError{404, QStringLiteral("API not found"), QStringLiteral("3"), {}});
}

// ---------------------------------------------------------------------------------------------
// Routing

namespace {

template <class T>
std::variant<QByteArray, OntapError> listing(const Exchange &ex,
                                             const Schema<T> &schema,
                                             const std::function<void(std::vector<const T *> &)> &source,
                                             const Ctx &ctx,
                                             int pageCap,
                                             quint64 generation,
                                             SortCache<T> *cache = nullptr,
                                             const QList<QPair<QString, QString>> &implicitFilters = {},
                                             const QStringList &reserved = {})
{
    auto parsed = ListRequest::parse(ex.params, reserved);
    if (auto *error = std::get_if<OntapError>(&parsed)) {
        return *error;
    }
    CollectionOptions options;
    options.pageCap = pageCap;
    options.hal = ex.hal;
    options.path = ex.path;
    options.selfHref = QString::fromUtf8(ex.request.target);
    options.generation = generation;
    options.implicitFilters = implicitFilters;
    return renderCollection(schema, std::get<ListRequest>(parsed), source, ctx, options, cache);
}

template <class T, class Container> std::function<void(std::vector<const T *> &)> fromContainer(const Container &items)
{
    return [&items](std::vector<const T *> &out) {
        out.reserve(items.size());
        for (const auto &item : items) {
            out.push_back(&item);
        }
    };
}

} // namespace

void OntapSimulator::route(const std::shared_ptr<Exchange> &ex)
{
    const QString &path = ex->path;
    if (path != QLatin1String("/api") && !path.startsWith(QLatin1String("/api/"))) {
        sendError(ex, OntapError{404, QStringLiteral("API not found"), QStringLiteral("3"), {}});
        return;
    }
    ex->segments = path.mid(5).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    const QStringList &s = ex->segments;
    const QByteArray &method = ex->request.method;
    const bool mutation = method == "POST" || method == "PATCH" || method == "DELETE";
    if (mutation) {
        const QString timeout = ex->params.value(QStringLiteral("return_timeout"));
        bool ok = true;
        const int seconds = timeout.isEmpty() ? 0 : timeout.toInt(&ok);
        if (!ok || seconds < 0 || seconds > 120) {
            sendError(ex, invalidFieldValue(QStringLiteral("return_timeout"), timeout));
            return;
        }
    }
    auto methodNotAllowed = [&] {
        sendError(
            ex,
            OntapError{
                405,
                QStringLiteral("The \"%1\" method is not supported for \"%2\".").arg(QString::fromLatin1(method), path),
                QStringLiteral("3"),
                {}});
    };

    if (s.size() >= 2 && s[0] == QLatin1String("storage") && s[1] == QLatin1String("volumes")) {
        if (s.size() == 2) {
            if (method == "GET") {
                getVolumes(ex);
            } else if (method == "POST") {
                postVolume(ex);
            } else {
                methodNotAllowed();
            }
            return;
        }
        Volume *volume = m_estate->volume(s[2]);
        if (!volume) {
            sendError(ex, notFound());
            return;
        }
        if (s.size() == 3) {
            if (method == "GET") {
                Ctx ctx;
                ctx.nowMs = ex->nowMs;
                ctx.estate = m_estate.get();
                sendResult(ex, renderRecord(volumeSchema(), *volume, ex->params, ctx, ex->hal));
            } else if (method == "PATCH") {
                patchVolume(ex, *volume);
            } else if (method == "DELETE") {
                deleteVolume(ex, *volume);
            } else {
                methodNotAllowed();
            }
            return;
        }
        if (s[3] == QLatin1String("snapshots") && s.size() <= 5) {
            if (s.size() == 4) {
                if (method == "GET") {
                    getSnapshots(ex, *volume, {});
                } else if (method == "POST") {
                    postSnapshot(ex, *volume);
                } else {
                    methodNotAllowed();
                }
                return;
            }
            Snapshot *snapshot = m_estate->snapshot(*volume, s[4]);
            if (!snapshot) {
                sendError(ex, notFound());
                return;
            }
            if (method == "GET") {
                getSnapshots(ex, *volume, snapshot->uuid);
            } else if (method == "PATCH") {
                patchSnapshot(ex, *volume, *snapshot);
            } else if (method == "DELETE") {
                deleteSnapshot(ex, *volume, *snapshot);
            } else {
                methodNotAllowed();
            }
            return;
        }
        if (s[3] == QLatin1String("metrics") && s.size() == 4) {
            if (method == "GET") {
                getVolumeMetrics(ex, *volume);
            } else {
                methodNotAllowed();
            }
            return;
        }
        sendError(ex, OntapError{404, QStringLiteral("API not found"), QStringLiteral("3"), {}});
        return;
    }

    if (s.size() >= 3 && s[0] == QLatin1String("storage") && s[1] == QLatin1String("flexcache")
        && s[2] == QLatin1String("flexcaches")) {
        if (s.size() == 3 && method == "POST") {
            postFlexCache(ex);
            return;
        }
        if (s.size() == 4 && method == "DELETE") {
            const FlexCache *cache = m_estate->flexcache(s[3]);
            Volume *volume = cache ? m_estate->volume(cache->uuid) : nullptr;
            if (!volume) {
                sendError(ex, notFound());
                return;
            }
            deleteVolume(ex, *volume);
            return;
        }
    }

    if (method != "GET") {
        if (s.isEmpty()) {
            sendError(ex, OntapError{404, QStringLiteral("API not found"), QStringLiteral("3"), {}});
        } else {
            methodNotAllowed();
        }
        return;
    }
    getCollectionOrRecord(ex, s);
}

void OntapSimulator::getCollectionOrRecord(const std::shared_ptr<Exchange> &ex, const QStringList &s)
{
    Ctx ctx;
    ctx.nowMs = ex->nowMs;
    ctx.estate = m_estate.get();
    const int cap = m_pageCap;
    const quint64 gen = m_estate->generation();
    const QString joined = s.join(QLatin1Char('/'));
    auto notFoundApi = [&] {
        sendError(ex, OntapError{404, QStringLiteral("API not found"), QStringLiteral("3"), {}});
    };

    // Collections and their instances, addressed by uuid (EMS events by node/index).
    auto serve = [&](const auto &schema, const auto &items, auto keyOf, int depth) {
        using T = std::remove_cv_t<std::remove_reference_t<decltype(*items.begin())>>;
        if (s.size() == depth) {
            sendResult(ex, listing<T>(*ex, schema, fromContainer<T>(items), ctx, cap, gen));
            return;
        }
        if (s.size() == depth + 1) {
            for (const auto &item : items) {
                if (keyOf(item) == s[depth]) {
                    sendResult(ex, renderRecord(schema, item, ex->params, ctx, ex->hal));
                    return;
                }
            }
            sendError(ex, notFound());
            return;
        }
        notFoundApi();
    };
    auto byUuid = [](const auto &item) {
        return item.uuid;
    };

    if (joined == QLatin1String("cluster")) {
        sendResult(ex, renderRecord(clusterSchema(), m_estate->cluster, ex->params, ctx, ex->hal));
    } else if (s.value(0) == QLatin1String("cluster") && s.value(1) == QLatin1String("nodes")) {
        serve(nodeSchema(), m_estate->nodes, byUuid, 2);
    } else if (s.value(0) == QLatin1String("cluster") && s.value(1) == QLatin1String("jobs")) {
        std::vector<Job> jobs;
        for (const auto &rec : std::as_const(m_jobs)) {
            jobs.push_back(rec->job);
        }
        serve(jobSchema(), jobs, byUuid, 2);
    } else if (s.value(0) == QLatin1String("svm") && s.value(1) == QLatin1String("svms")) {
        serve(svmSchema(), m_estate->svms, byUuid, 2);
    } else if (s.value(0) == QLatin1String("storage") && s.value(1) == QLatin1String("aggregates")) {
        serve(aggregateSchema(), m_estate->aggregates, byUuid, 2);
    } else if (s.value(0) == QLatin1String("storage") && s.value(1) == QLatin1String("qos")
               && s.value(2) == QLatin1String("policies")) {
        serve(qosPolicySchema(), m_estate->qosPolicies, byUuid, 3);
    } else if (s.value(0) == QLatin1String("storage") && s.value(1) == QLatin1String("flexcache")
               && s.value(2) == QLatin1String("flexcaches")) {
        std::vector<FlexCacheRow> rows;
        for (const FlexCache &c : m_estate->flexcaches) {
            if (const Volume *v = m_estate->volume(c.uuid)) {
                rows.push_back(FlexCacheRow{v, &c});
            }
        }
        serve(
            flexcacheSchema(),
            rows,
            [](const FlexCacheRow &r) {
                return r.cache->uuid;
            },
            3);
    } else if (s.value(0) == QLatin1String("storage") && s.value(1) == QLatin1String("flexcache")
               && s.value(2) == QLatin1String("origins")) {
        std::vector<FlexCacheOriginRow> rows;
        for (const auto &v : m_estate->volumes()) {
            if (v->flexcacheEndpoint != QLatin1String("origin")) {
                continue;
            }
            FlexCacheOriginRow row{v.get(), {}};
            for (const FlexCache &c : m_estate->flexcaches) {
                if (c.origin.uuid == v->uuid) {
                    if (const Volume *cacheVolume = m_estate->volume(c.uuid)) {
                        row.caches.append(cacheVolume);
                    }
                }
            }
            rows.push_back(row);
        }
        serve(
            flexcacheOriginSchema(),
            rows,
            [](const FlexCacheOriginRow &r) {
                return r.volume->uuid;
            },
            3);
    } else if (s.value(0) == QLatin1String("support") && s.value(1) == QLatin1String("ems")
               && s.value(2) == QLatin1String("events")) {
        if (s.size() == 3) {
            sendResult(
                ex, listing<EmsEvent>(*ex, emsEventSchema(), fromContainer<EmsEvent>(m_estate->events), ctx, cap, gen));
        } else if (s.size() == 5) {
            for (const EmsEvent &e : m_estate->events) {
                if (e.node.name == s[3] && QString::number(e.index) == s[4]) {
                    sendResult(ex, renderRecord(emsEventSchema(), e, ex->params, ctx, ex->hal));
                    return;
                }
            }
            sendError(ex, notFound(QStringLiteral("index")));
        } else {
            notFoundApi();
        }
    } else {
        notFoundApi();
    }
}

void OntapSimulator::getVolumes(const std::shared_ptr<Exchange> &ex)
{
    Ctx ctx;
    ctx.nowMs = ex->nowMs;
    ctx.estate = m_estate.get();
    QList<QPair<QString, QString>> implicit;
    // FlexGroup constituents only show up when the query asks about is_constituent.
    if (!ex->params.has(QStringLiteral("is_constituent"))) {
        implicit.append({QStringLiteral("is_constituent"), QStringLiteral("false")});
    }
    const QByteArray tunnel = ex->request.header("x-dot-svm-name");
    if (!tunnel.isEmpty()) {
        implicit.append({QStringLiteral("svm.name"), QString::fromUtf8(tunnel)});
    }
    const Estate *estate = m_estate.get();
    auto source = [estate](std::vector<const Volume *> &out) {
        out.reserve(estate->volumes().size());
        for (const auto &v : estate->volumes()) {
            out.push_back(v.get());
        }
    };
    sendResult(
        ex,
        listing<Volume>(
            *ex, volumeSchema(), source, ctx, m_pageCap, m_estate->generation(), m_volumeSortCache.get(), implicit));
}

void OntapSimulator::getSnapshots(const std::shared_ptr<Exchange> &ex, Volume &volume, const QString &snapshotUuid)
{
    Ctx ctx;
    ctx.nowMs = ex->nowMs;
    ctx.estate = m_estate.get();
    m_estate->materialiseSnapshots(volume);
    QSet<QString> busy;
    for (const Volume *clone : m_estate->clonesOfVolume(volume.uuid)) {
        busy.insert(clone->cloneParentSnapshot.uuid);
    }
    std::vector<SnapshotRow> rows;
    rows.reserve(volume.snapshots.size());
    for (const Snapshot &snap : volume.snapshots) {
        rows.push_back(SnapshotRow{&volume, &snap, busy.contains(snap.uuid)});
    }
    if (!snapshotUuid.isEmpty()) {
        for (const SnapshotRow &row : rows) {
            if (row.snapshot->uuid == snapshotUuid) {
                sendResult(ex, renderRecord(snapshotSchema(), row, ex->params, ctx, ex->hal));
                return;
            }
        }
        sendError(ex, notFound());
        return;
    }
    sendResult(ex,
               listing<SnapshotRow>(
                   *ex, snapshotSchema(), fromContainer<SnapshotRow>(rows), ctx, m_pageCap, m_estate->generation()));
}

void OntapSimulator::getVolumeMetrics(const std::shared_ptr<Exchange> &ex, const Volume &volume)
{
    Ctx ctx;
    ctx.nowMs = ex->nowMs;
    ctx.estate = m_estate.get();
    const QString interval = ex->params.value(QStringLiteral("interval"), QStringLiteral("1h"));
    struct Shape
    {
        const char *name;
        int seconds;
        int samples;
    };
    static const Shape shapes[] = {
        {"1h", 15, 240}, {"1d", 240, 360}, {"1w", 1800, 336}, {"1m", 7200, 360}, {"1y", 86400, 365}};
    const Shape *shape = nullptr;
    for (const Shape &candidate : shapes) {
        if (interval == QLatin1String(candidate.name)) {
            shape = &candidate;
        }
    }
    if (!shape) {
        sendError(ex, invalidFieldValue(QStringLiteral("interval"), interval));
        return;
    }
    const qint64 stepMs = qint64(shape->seconds) * 1000;
    const qint64 last = ex->nowMs / stepMs * stepMs;
    std::vector<MetricRow> rows;
    rows.reserve(size_t(shape->samples));
    for (int i = 0; i < shape->samples; ++i) {
        rows.push_back(MetricRow{&volume, last - qint64(i) * stepMs, shape->seconds});
    }
    sendResult(ex,
               listing<MetricRow>(*ex,
                                  volumeMetricSchema(),
                                  fromContainer<MetricRow>(rows),
                                  ctx,
                                  0,
                                  m_estate->generation(),
                                  nullptr,
                                  {},
                                  {QStringLiteral("interval")}));
}

// ---------------------------------------------------------------------------------------------
// Mutations

namespace {

std::variant<QJsonObject, OntapError> parseBody(const Exchange &ex)
{
    if (ex.request.body.trimmed().isEmpty()) {
        return QJsonObject{};
    }
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(ex.request.body, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        return OntapError{
            400, QStringLiteral("Invalid JSON input: %1.").arg(error.errorString()), QStringLiteral("262149"), {}};
    }
    return expandDotted(doc.object());
}

// Resolves an `{name|uuid}` reference against a lookup; nullopt + error when it does not resolve.
template <class T, class ByUuid, class ByName>
std::variant<const T *, OntapError>
resolveRef(const QJsonValue &ref, const QString &target, ByUuid byUuid, ByName byName)
{
    const QJsonObject o = ref.toObject();
    const QString uuid = o.value(QStringLiteral("uuid")).toString();
    const QString name = o.value(QStringLiteral("name")).toString();
    const T *found = nullptr;
    if (!uuid.isEmpty()) {
        found = byUuid(uuid);
        if (found && !name.isEmpty() && found->name != name) {
            return OntapError{
                400,
                QStringLiteral("The specified \"%1.name\" and \"%1.uuid\" refer to different objects.").arg(target),
                QStringLiteral("2"),
                target + QStringLiteral(".name")};
        }
    } else if (!name.isEmpty()) {
        found = byName(name);
    } else {
        return static_cast<const T *>(nullptr);
    }
    if (!found) {
        return notFound(target + (uuid.isEmpty() ? QStringLiteral(".name") : QStringLiteral(".uuid")));
    }
    return found;
}

// resolveRef against the estate's SVMs, aggregates, QoS policies, or the volumes of one SVM.
std::variant<const Svm *, OntapError> resolveSvm(const Estate &estate, const QJsonValue &ref, const QString &target)
{
    return resolveRef<Svm>(
        ref,
        target,
        [&](const QString &uuid) {
            return estate.svm(uuid);
        },
        [&](const QString &name) {
            return estate.svmByName(name);
        });
}

std::variant<const Aggregate *, OntapError> resolveAggregate(const Estate &estate, const QJsonValue &ref)
{
    return resolveRef<Aggregate>(
        ref,
        QStringLiteral("aggregates"),
        [&](const QString &uuid) {
            return estate.aggregate(uuid);
        },
        [&](const QString &name) {
            return estate.aggregateByName(name);
        });
}

std::variant<const QosPolicy *, OntapError> resolveQosPolicy(const Estate &estate, const QJsonValue &ref)
{
    return resolveRef<QosPolicy>(
        ref,
        QStringLiteral("qos.policy"),
        [&](const QString &uuid) {
            return estate.qosPolicy(uuid);
        },
        [&](const QString &name) {
            return estate.qosPolicyByName(name);
        });
}

std::variant<const Volume *, OntapError>
resolveVolume(const Estate &estate, const QJsonValue &ref, const QString &target, const QString &svmName)
{
    return resolveRef<Volume>(
        ref,
        target,
        [&](const QString &uuid) {
            return estate.volume(uuid);
        },
        [&](const QString &name) {
            return estate.volumeByName(svmName, name);
        });
}

// The check a create job makes again when it runs: another request may have taken the name.
std::optional<OntapError> volumeNameTaken(const Estate &estate, const QString &svmName, const QString &name)
{
    if (estate.volumeByName(svmName, name)) {
        return OntapError{409,
                          QStringLiteral("Duplicate volume name \"%1\".").arg(name),
                          QStringLiteral("1"),
                          QStringLiteral("name")};
    }
    return std::nullopt;
}

// A new volume's identity, placement and size, created now.
std::unique_ptr<Volume> newVolumeRecord(
    const QString &uuid, const QString &name, const Ref &svm, const QList<Ref> &aggregates, qint64 size, qint64 nowMs)
{
    auto v = std::make_unique<Volume>();
    v->uuid = uuid;
    v->name = name;
    v->svm = svm;
    v->aggregates = aggregates;
    v->size = size;
    v->createMs = nowMs;
    v->createTime = Estate::timestamp(nowMs);
    return v;
}

} // namespace

std::optional<QJsonObject> OntapSimulator::mutationBody(const std::shared_ptr<Exchange> &ex,
                                                        const QStringList &allowed) const
{
    auto parsed = parseBody(*ex);
    if (auto *error = std::get_if<OntapError>(&parsed)) {
        sendError(ex, *error);
        return std::nullopt;
    }
    const QJsonObject body = std::get<QJsonObject>(parsed);
    if (auto error = checkKeys(body, allowed)) {
        sendError(ex, *error);
        return std::nullopt;
    }
    return body;
}

std::optional<QJsonObject> OntapSimulator::creationBody(const std::shared_ptr<Exchange> &ex,
                                                        const QStringList &allowed) const
{
    std::optional<QJsonObject> body = mutationBody(ex, allowed);
    if (body && body->value(QStringLiteral("name")).toString().isEmpty()) {
        sendError(ex, missingField(QStringLiteral("name")));
        return std::nullopt;
    }
    return body;
}

void OntapSimulator::submitJob(const std::shared_ptr<Exchange> &ex,
                               const Ref &svm,
                               Effect effect,
                               const std::optional<Ref> &created,
                               const QString &location)
{
    auto rec = std::make_shared<JobRecord>();
    rec->job.uuid = m_estate->newUuid();
    rec->job.description = QString::fromLatin1(ex->request.method) + QLatin1Char(' ') + ex->path;
    rec->job.svm = svm;
    rec->job.state = QStringLiteral("queued");
    rec->effect = std::move(effect);
    if (ex->fault && ex->fault->kind == FaultRule::Kind::JobFailure) {
        rec->forcedFailure =
            OntapError{400,
                       ex->fault->message.isEmpty() ? QStringLiteral("Simulated job failure.") : ex->fault->message,
                       ex->fault->code.isEmpty() ? QStringLiteral("460770") : ex->fault->code,
                       {}};
    }
    const qint64 total = m_estate->randomBetween(
        m_options.jobDurationMin.count(), std::max(m_options.jobDurationMin.count(), m_options.jobDurationMax.count()));
    const qint64 queued = total / 5;
    rec->runMs = total - queued;
    const QString uuid = rec->job.uuid;
    m_jobs.insert(uuid, rec);
    QTimer::singleShot(std::chrono::milliseconds(queued), this, [this, uuid] {
        runJob(uuid);
    });

    QJsonObject body{{QStringLiteral("job"), jobLink(uuid)}};
    if (created && ex->params.value(QStringLiteral("return_records")) == QLatin1String("true")) {
        body.insert(QStringLiteral("num_records"), 1);
        body.insert(QStringLiteral("records"),
                    QJsonArray{QJsonObject{
                        {QStringLiteral("uuid"), created->uuid},
                        {QStringLiteral("name"), created->name},
                        {QStringLiteral("_links"),
                         QJsonObject{{QStringLiteral("self"), QJsonObject{{QStringLiteral("href"), location}}}}}}});
    }
    const QByteArray accepted = QJsonDocument(body).toJson(QJsonDocument::Compact);
    const int timeout = ex->params.value(QStringLiteral("return_timeout")).toInt();
    const bool resetAfter = ex->fault && ex->fault->kind == FaultRule::Kind::ApplyThenReset;
    if (timeout <= 0 && !resetAfter) {
        sendJson(ex, 202, accepted);
        return;
    }
    // return_timeout: answer with the outcome if the job ends in time, else with 202 as usual.
    auto answered = std::make_shared<bool>(false);
    const bool isPost = ex->request.method == "POST";
    const std::weak_ptr<JobRecord> weak = rec;
    rec->waiters.append([this, ex, weak, body, answered, isPost, location, resetAfter] {
        const auto rec = weak.lock();
        if (*answered || !rec) {
            return;
        }
        *answered = true;
        if (rec->failure && !resetAfter) {
            QJsonObject errorBody = rec->failure->toJson();
            errorBody.insert(QStringLiteral("job"), body.value(QStringLiteral("job")));
            sendJson(ex, rec->failure->httpStatus, QJsonDocument(errorBody).toJson(QJsonDocument::Compact));
            return;
        }
        Response r;
        r.status = isPost ? 201 : 200;
        r.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
        r.headers.append({QByteArrayLiteral("Content-Type"),
                          ex->hal ? QByteArrayLiteral("application/hal+json") : QByteArrayLiteral("application/json")});
        if (isPost && !location.isEmpty()) {
            r.headers.append({QByteArrayLiteral("Location"), location.toUtf8()});
        }
        finish(ex, std::move(r));
    });
    if (!resetAfter) {
        QTimer::singleShot(std::chrono::seconds(timeout), this, [this, ex, accepted, answered] {
            if (*answered) {
                return;
            }
            *answered = true;
            sendJson(ex, 202, accepted);
        });
    }
}

void OntapSimulator::runJob(const QString &uuid)
{
    const auto rec = m_jobs.value(uuid);
    if (!rec) {
        return;
    }
    rec->job.state = QStringLiteral("running");
    rec->job.startTime = Estate::timestamp(QDateTime::currentMSecsSinceEpoch());
    QTimer::singleShot(std::chrono::milliseconds(rec->runMs), this, [this, uuid] {
        completeJob(uuid);
    });
}

void OntapSimulator::completeJob(const QString &uuid)
{
    const auto rec = m_jobs.value(uuid);
    if (!rec) {
        return;
    }
    if (rec->forcedFailure) {
        rec->failure = rec->forcedFailure;
    } else if (rec->effect) {
        rec->failure = rec->effect();
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    rec->job.endMs = now;
    rec->job.endTime = Estate::timestamp(now);
    if (rec->failure) {
        rec->job.state = QStringLiteral("failure");
        rec->job.message = rec->failure->message;
        rec->job.code = rec->failure->code.toLongLong();
    } else {
        rec->job.state = QStringLiteral("success");
        rec->job.message = QStringLiteral("success");
        rec->job.code = 0;
    }
    rec->effect = nullptr;
    const auto waiters = std::exchange(rec->waiters, {});
    for (const auto &waiter : waiters) {
        waiter();
    }
    Q_EMIT jobFinished(uuid, rec->job.state);
    QTimer::singleShot(m_options.jobRetention, this, [this, uuid] {
        m_jobs.remove(uuid);
    });
}

std::optional<QList<Ref>> OntapSimulator::namedAggregates(const std::shared_ptr<Exchange> &ex,
                                                          const QJsonObject &body) const
{
    QList<Ref> aggregates;
    for (const QJsonValue &a : body.value(QStringLiteral("aggregates")).toArray()) {
        auto aggrResult = resolveAggregate(*m_estate, a);
        if (auto *error = std::get_if<OntapError>(&aggrResult)) {
            sendError(ex, *error);
            return std::nullopt;
        }
        if (const Aggregate *aggr = std::get<const Aggregate *>(aggrResult)) {
            aggregates.append(Ref{aggr->name, aggr->uuid});
        }
    }
    return aggregates;
}

const Svm *
OntapSimulator::svmForNewVolume(const std::shared_ptr<Exchange> &ex, const QJsonObject &body, const QString &name)
{
    auto svmResult = resolveSvm(*m_estate, body.value(QStringLiteral("svm")), QStringLiteral("svm"));
    if (auto *error = std::get_if<OntapError>(&svmResult)) {
        sendError(ex, *error);
        return nullptr;
    }
    const Svm *svm = std::get<const Svm *>(svmResult);
    if (!svm) {
        sendError(ex, missingField(QStringLiteral("svm.name")));
        return nullptr;
    }
    if (m_estate->volumeByName(svm->name, name)) {
        sendError(
            ex, duplicate(QStringLiteral("volume \"%1\" in SVM \"%2\"").arg(name, svm->name), QStringLiteral("name")));
        return nullptr;
    }
    return svm;
}

void OntapSimulator::postVolume(const std::shared_ptr<Exchange> &ex)
{
    static const QStringList allowed{
        QStringLiteral("name"),       QStringLiteral("svm"),
        QStringLiteral("aggregates"), QStringLiteral("size"),
        QStringLiteral("style"),      QStringLiteral("type"),
        QStringLiteral("comment"),    QStringLiteral("nas"),
        QStringLiteral("qos"),        QStringLiteral("clone"),
        QStringLiteral("space"),      QStringLiteral("snapshot_policy"),
        QStringLiteral("state"),      QStringLiteral("language"),
        QStringLiteral("encryption"), QStringLiteral("efficiency"),
        QStringLiteral("guarantee"),  QStringLiteral("autosize"),
        QStringLiteral("tiering"),    QStringLiteral("constituents_per_aggregate"),
        QStringLiteral("snaplock"),
    };
    const std::optional<QJsonObject> parsedBody = creationBody(ex, allowed);
    if (!parsedBody) {
        return;
    }
    const QJsonObject body = *parsedBody;
    const QString name = body.value(QStringLiteral("name")).toString();
    if (!validVolumeName(name)) {
        sendError(
            ex,
            badValue(QStringLiteral("name"),
                     QStringLiteral("Invalid volume name \"%1\". A name must start with a letter or underscore and "
                                    "contain only letters, digits and underscores.")
                         .arg(name),
                     QStringLiteral("917888")));
        return;
    }
    const Svm *svm = svmForNewVolume(ex, body, name);
    if (!svm) {
        return;
    }

    // FlexClone?
    const QJsonObject clone = body.value(QStringLiteral("clone")).toObject();
    const bool isClone =
        clone.value(QStringLiteral("is_flexclone")).toBool() || clone.contains(QStringLiteral("parent_volume"));
    const Volume *parent = nullptr;
    QString parentSnapshotUuid;
    if (isClone) {
        auto parentSvmResult =
            resolveSvm(*m_estate, clone.value(QStringLiteral("parent_svm")), QStringLiteral("clone.parent_svm"));
        if (auto *error = std::get_if<OntapError>(&parentSvmResult)) {
            sendError(ex, *error);
            return;
        }
        const Svm *parentSvm = std::get<const Svm *>(parentSvmResult);
        if (!parentSvm) {
            parentSvm = svm;
        }
        auto parentResult = resolveVolume(*m_estate,
                                          clone.value(QStringLiteral("parent_volume")),
                                          QStringLiteral("clone.parent_volume"),
                                          parentSvm->name);
        if (auto *error = std::get_if<OntapError>(&parentResult)) {
            sendError(ex, *error);
            return;
        }
        parent = std::get<const Volume *>(parentResult);
        if (!parent) {
            sendError(ex, missingField(QStringLiteral("clone.parent_volume.name")));
            return;
        }
        Volume *mutableParent = m_estate->volume(parent->uuid);
        auto snapResult = resolveRef<Snapshot>(
            clone.value(QStringLiteral("parent_snapshot")),
            QStringLiteral("clone.parent_snapshot"),
            [this, mutableParent](const QString &uuid) {
                return m_estate->snapshot(*mutableParent, uuid);
            },
            [this, mutableParent](const QString &n) {
                return m_estate->snapshotByName(*mutableParent, n);
            });
        if (auto *error = std::get_if<OntapError>(&snapResult)) {
            sendError(ex, *error);
            return;
        }
        if (const Snapshot *snap = std::get<const Snapshot *>(snapResult)) {
            parentSnapshotUuid = snap->uuid;
        }
    }

    // Placement.
    const std::optional<QList<Ref>> named = namedAggregates(ex, body);
    if (!named) {
        return;
    }
    QList<Ref> aggregates = *named;
    if (aggregates.isEmpty()) {
        if (parent) {
            aggregates = parent->aggregates;
        } else if (!svm->aggregates.isEmpty()) {
            aggregates.append(svm->aggregates[qHash(name) % svm->aggregates.size()]);
        }
    }
    qint64 size = parent ? parent->size : 20 * 1024 * 1024;
    if (body.contains(QStringLiteral("size"))) {
        const auto requested = integerOf(body.value(QStringLiteral("size")));
        if (!requested || *requested < 20 * 1024 * 1024) {
            sendError(ex,
                      badValue(QStringLiteral("size"),
                               QStringLiteral("Invalid volume size. The minimum size of a volume is 20MB."),
                               QStringLiteral("917536")));
            return;
        }
        size = *requested;
    }
    Ref qos;
    if (body.contains(QStringLiteral("qos"))) {
        const QJsonValue policy = at(body, QStringLiteral("qos.policy"));
        auto qosResult = resolveQosPolicy(*m_estate, policy);
        if (auto *error = std::get_if<OntapError>(&qosResult)) {
            sendError(ex, *error);
            return;
        }
        if (const QosPolicy *p = std::get<const QosPolicy *>(qosResult)) {
            qos = Ref{p->name, p->uuid};
        }
    }
    const QString style =
        body.value(QStringLiteral("style"))
            .toString(aggregates.size() > 1 ? QStringLiteral("flexgroup") : QStringLiteral("flexvol"));
    if (style != QLatin1String("flexvol") && style != QLatin1String("flexgroup")) {
        sendError(ex, invalidFieldValue(QStringLiteral("style"), style));
        return;
    }
    const QString state = body.value(QStringLiteral("state")).toString(QStringLiteral("online"));
    const QString nasPath = at(body, QStringLiteral("nas.path")).toString();
    const QString comment = body.value(QStringLiteral("comment")).toString();
    const QString snapshotPolicy = at(body, QStringLiteral("snapshot_policy.name")).toString(QStringLiteral("default"));
    const int reserve = at(body, QStringLiteral("space.snapshot.reserve_percent")).toInt(5);
    const QString uuid = m_estate->newUuid();
    const Ref svmRef{svm->name, svm->uuid};
    const QString parentUuid = parent ? parent->uuid : QString();
    const quint32 seed = quint32(qHash(uuid));

    Effect effect = [this,
                     uuid,
                     name,
                     svmRef,
                     aggregates,
                     size,
                     qos,
                     style,
                     state,
                     nasPath,
                     comment,
                     snapshotPolicy,
                     reserve,
                     isClone,
                     parentUuid,
                     parentSnapshotUuid,
                     seed]() -> std::optional<OntapError> {
        if (auto taken = volumeNameTaken(*m_estate, svmRef.name, name)) {
            return taken;
        }
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        auto v = newVolumeRecord(uuid, name, svmRef, aggregates, size, now);
        v->used = std::min<qint64>(size / 100, 2 * 1024 * 1024 * 1024LL);
        v->state = state;
        v->style = style;
        v->nasPath = nasPath;
        v->comment = comment;
        v->qosPolicy = qos;
        v->snapshotPolicy = snapshotPolicy;
        v->snapshotReservePercent = reserve;
        v->seed = seed;
        v->filesMaximum = std::max<qint64>(size / 32768, 10000);
        v->filesUsed = 96;
        v->perf = PerfProfile{50, 30, 10, 64 * 1024, 32 * 1024, 300};
        if (isClone) {
            Volume *p = m_estate->volume(parentUuid);
            if (!p) {
                return OntapError{404,
                                  QStringLiteral("Failed to create the FlexClone: parent volume no longer exists."),
                                  QStringLiteral("4"),
                                  QStringLiteral("clone.parent_volume.uuid")};
            }
            m_estate->materialiseSnapshots(*p);
            const Snapshot *snap = nullptr;
            if (parentSnapshotUuid.isEmpty()) {
                // ONTAP takes a Snapshot copy of the parent for the clone when none is named.
                Snapshot s;
                s.uuid = m_estate->newUuid();
                s.name =
                    QStringLiteral("clone_%1.%2")
                        .arg(
                            name,
                            QDateTime::fromMSecsSinceEpoch(now, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd_HHmmss")));
                s.createMs = now;
                s.createTime = Estate::timestamp(now);
                s.size = 4 * 1024 * 1024;
                s.volumeUsedAtCreate = p->used;
                p->snapshotBytes += s.size;
                p->snapshots.push_back(s);
                snap = &p->snapshots.back();
            } else {
                snap = m_estate->snapshot(*p, parentSnapshotUuid);
                if (!snap) {
                    return OntapError{
                        404,
                        QStringLiteral("Failed to create the FlexClone: parent Snapshot copy no longer exists."),
                        QStringLiteral("4"),
                        QStringLiteral("clone.parent_snapshot.uuid")};
                }
            }
            v->isFlexClone = true;
            v->cloneParentVolume = Ref{p->name, p->uuid};
            v->cloneParentSnapshot = Ref{snap->name, snap->uuid};
            v->cloneParentSvm = p->svm;
            v->used = snap->volumeUsedAtCreate;
            v->size = std::max(v->size, p->size);
            v->filesUsed = p->filesUsed;
            v->perf = p->perf;
            v->perf.readIops /= 4;
        }
        m_estate->addVolume(std::move(v));
        return std::nullopt;
    };
    submitJob(ex, svmRef, std::move(effect), Ref{name, uuid}, QStringLiteral("/api/storage/volumes/") + uuid);
}

void OntapSimulator::patchVolume(const std::shared_ptr<Exchange> &ex, Volume &volume)
{
    static const QStringList allowed{
        QStringLiteral("name"),
        QStringLiteral("size"),
        QStringLiteral("state"),
        QStringLiteral("comment"),
        QStringLiteral("qos"),
        QStringLiteral("nas"),
        QStringLiteral("clone"),
        QStringLiteral("space"),
        QStringLiteral("snapshot_policy"),
        QStringLiteral("autosize"),
        QStringLiteral("tiering"),
        QStringLiteral("restore_to"),
        QStringLiteral("efficiency"),
        QStringLiteral("guarantee"),
    };
    const std::optional<QJsonObject> parsedBody = mutationBody(ex, allowed);
    if (!parsedBody) {
        return;
    }
    QJsonObject body = *parsedBody;
    const QString uuid = volume.uuid;

    // Snapshot restore: query parameters (the Swagger) or body (Ansible), by name or uuid.
    QString restoreName = ex->params.value(QStringLiteral("restore_to.snapshot.name"));
    QString restoreUuid = ex->params.value(QStringLiteral("restore_to.snapshot.uuid"));
    if (restoreName.isEmpty()) {
        restoreName = at(body, QStringLiteral("restore_to.snapshot.name")).toString();
    }
    if (restoreUuid.isEmpty()) {
        restoreUuid = at(body, QStringLiteral("restore_to.snapshot.uuid")).toString();
    }
    if (!restoreName.isEmpty() || !restoreUuid.isEmpty()) {
        body.remove(QStringLiteral("restore_to"));
        if (!body.isEmpty()) {
            sendError(
                ex,
                OntapError{400,
                           QStringLiteral("Specifying a value is not valid for a Snapshot copy restore operation."),
                           QStringLiteral("918251"),
                           body.begin().key()});
            return;
        }
        Snapshot *snap = !restoreUuid.isEmpty() ? m_estate->snapshot(volume, restoreUuid)
                                                : m_estate->snapshotByName(volume, restoreName);
        if (!snap || (!restoreName.isEmpty() && snap->name != restoreName)) {
            sendError(ex,
                      notFound(restoreUuid.isEmpty() ? QStringLiteral("restore_to.snapshot.name")
                                                     : QStringLiteral("restore_to.snapshot.uuid")));
            return;
        }
        const QString snapUuid = snap->uuid;
        Effect effect = [this, uuid, snapUuid]() -> std::optional<OntapError> {
            Volume *v = m_estate->volume(uuid);
            if (!v) {
                return notFound();
            }
            const Snapshot *target = m_estate->snapshot(*v, snapUuid);
            if (!target) {
                return notFound(QStringLiteral("restore_to.snapshot.uuid"));
            }
            const qint64 cutoff = target->createMs;
            QSet<QString> busy;
            for (const Volume *clone : m_estate->clonesOfVolume(uuid)) {
                busy.insert(clone->cloneParentSnapshot.uuid);
            }
            for (const Snapshot &s : v->snapshots) {
                if (s.createMs > cutoff && busy.contains(s.uuid)) {
                    return OntapError{
                        409,
                        QStringLiteral("Failed to restore volume \"%1\" to Snapshot copy \"%2\": newer Snapshot copy "
                                       "\"%3\" is in use by a FlexClone volume.")
                            .arg(v->name, target->name, s.name),
                        QStringLiteral("1638600"),
                        {}};
                }
            }
            const QString name = target->name;
            v->used = target->volumeUsedAtCreate;
            // A volume revert discards every Snapshot copy newer than the one restored.
            auto newer = std::remove_if(v->snapshots.begin(), v->snapshots.end(), [&](const Snapshot &s) {
                if (s.createMs > cutoff) {
                    v->snapshotBytes -= s.size;
                    return true;
                }
                return false;
            });
            v->snapshots.erase(newer, v->snapshots.end());
            const Node &node = m_estate->nodes.front();
            m_estate->addEvent(QDateTime::currentMSecsSinceEpoch(),
                               Ref{node.name, node.uuid},
                               QStringLiteral("wafl.snaprestore.revert"),
                               QStringLiteral("notice"),
                               QStringLiteral("Reverting volume %1@vserver:%2 to a previous Snapshot copy (%3).")
                                   .arg(v->name, v->svm.uuid, name));
            return std::nullopt;
        };
        submitJob(ex, volume.svm, std::move(effect));
        return;
    }

    // Ordinary modification: validate now, apply when the job completes.
    std::optional<QString> newName;
    if (body.contains(QStringLiteral("name"))) {
        const QString name = body.value(QStringLiteral("name")).toString();
        if (!validVolumeName(name)) {
            sendError(ex, invalidFieldValue(QStringLiteral("name"), name));
            return;
        }
        if (name != volume.name && m_estate->volumeByName(volume.svm.name, name)) {
            sendError(ex,
                      duplicate(QStringLiteral("volume \"%1\" in SVM \"%2\"").arg(name, volume.svm.name),
                                QStringLiteral("name")));
            return;
        }
        newName = name;
    }
    std::optional<qint64> newSize;
    if (body.contains(QStringLiteral("size"))) {
        newSize = integerOf(body.value(QStringLiteral("size")));
        if (!newSize || *newSize < 20 * 1024 * 1024) {
            sendError(
                ex,
                invalidFieldValue(QStringLiteral("size"), body.value(QStringLiteral("size")).toVariant().toString()));
            return;
        }
        if (*newSize - *newSize * volume.snapshotReservePercent / 100 < volume.used) {
            sendError(
                ex,
                badValue(QStringLiteral("size"),
                         QStringLiteral("Unable to set volume attribute \"size\" for volume \"%1\" on Vserver \"%2\". "
                                        "Reason: the new size is smaller than the space used.")
                             .arg(volume.name, volume.svm.name),
                         QStringLiteral("917927")));
            return;
        }
    }
    std::optional<QString> newState;
    if (body.contains(QStringLiteral("state"))) {
        newState = body.value(QStringLiteral("state")).toString();
        static const QStringList states{
            QStringLiteral("online"), QStringLiteral("offline"), QStringLiteral("restricted")};
        if (!states.contains(*newState)) {
            sendError(ex, invalidFieldValue(QStringLiteral("state"), *newState));
            return;
        }
    }
    std::optional<Ref> newQos;
    if (body.contains(QStringLiteral("qos"))) {
        const QJsonValue policy = at(body, QStringLiteral("qos.policy"));
        if (policy.toObject().value(QStringLiteral("name")).toString() == QLatin1String("none")) {
            newQos = Ref{};
        } else {
            auto qosResult = resolveQosPolicy(*m_estate, policy);
            if (auto *error = std::get_if<OntapError>(&qosResult)) {
                sendError(ex, *error);
                return;
            }
            const QosPolicy *p = std::get<const QosPolicy *>(qosResult);
            if (!p) {
                sendError(ex, missingField(QStringLiteral("qos.policy.name")));
                return;
            }
            newQos = Ref{p->name, p->uuid};
        }
    }
    const bool split = at(body, QStringLiteral("clone.split_initiated")).toBool();
    if (split && !volume.isFlexClone) {
        sendError(ex,
                  OntapError{400,
                             QStringLiteral("Volume \"%1\" is not a FlexClone volume.").arg(volume.name),
                             QStringLiteral("918248"),
                             QStringLiteral("clone.split_initiated")});
        return;
    }
    std::optional<int> newReserve;
    if (at(body, QStringLiteral("space.snapshot.reserve_percent")).isDouble()) {
        newReserve = at(body, QStringLiteral("space.snapshot.reserve_percent")).toInt();
        if (*newReserve < 0 || *newReserve > 90) {
            sendError(
                ex, invalidFieldValue(QStringLiteral("space.snapshot.reserve_percent"), QString::number(*newReserve)));
            return;
        }
    }
    const QJsonValue comment = body.value(QStringLiteral("comment"));
    const QJsonValue nasPath = at(body, QStringLiteral("nas.path"));
    const QJsonValue snapshotPolicy = at(body, QStringLiteral("snapshot_policy.name"));
    const QJsonValue autosizeMode = at(body, QStringLiteral("autosize.mode"));
    const auto autosizeMax = integerOf(at(body, QStringLiteral("autosize.maximum")));
    const QJsonValue tiering = at(body, QStringLiteral("tiering.policy"));

    Effect effect = [=, this]() -> std::optional<OntapError> {
        Volume *v = m_estate->volume(uuid);
        if (!v) {
            return notFound();
        }
        if (newName && *newName != v->name) {
            if (m_estate->volumeByName(v->svm.name, *newName)) {
                return OntapError{409,
                                  QStringLiteral("Duplicate volume name \"%1\".").arg(*newName),
                                  QStringLiteral("1"),
                                  QStringLiteral("name")};
            }
            m_estate->renameVolume(*v, *newName);
        }
        if (newSize) {
            v->size = *newSize;
        }
        if (newState) {
            v->state = *newState;
        }
        if (newQos) {
            v->qosPolicy = *newQos;
        }
        if (split) {
            // The split runs to completion within the job: the volume stands alone afterwards.
            v->isFlexClone = false;
            v->splitInitiated = false;
            v->cloneParentVolume = Ref{};
            v->cloneParentSnapshot = Ref{};
            v->cloneParentSvm = Ref{};
        }
        if (newReserve) {
            v->snapshotReservePercent = *newReserve;
        }
        if (comment.isString()) {
            v->comment = comment.toString();
        }
        if (nasPath.isString()) {
            v->nasPath = nasPath.toString();
        }
        if (snapshotPolicy.isString()) {
            v->snapshotPolicy = snapshotPolicy.toString();
        }
        if (autosizeMode.isString()) {
            v->autosizeMode = autosizeMode.toString();
        }
        if (autosizeMax) {
            v->autosizeMaximum = *autosizeMax;
        }
        if (tiering.isString()) {
            v->tieringPolicy = tiering.toString();
        }
        return std::nullopt;
    };
    submitJob(ex, volume.svm, std::move(effect));
}

void OntapSimulator::deleteVolume(const std::shared_ptr<Exchange> &ex, Volume &volume)
{
    if (volume.isConstituent) {
        sendError(
            ex,
            OntapError{
                400,
                QStringLiteral("Cannot delete volume \"%1\": it is a constituent of a FlexGroup.").arg(volume.name),
                QStringLiteral("917839"),
                QStringLiteral("uuid")});
        return;
    }
    const QString uuid = volume.uuid;
    Effect effect = [this, uuid]() -> std::optional<OntapError> {
        const Volume *v = m_estate->volume(uuid);
        if (!v) {
            return notFound();
        }
        const auto clones = m_estate->clonesOfVolume(uuid);
        if (!clones.isEmpty()) {
            return OntapError{
                409,
                QStringLiteral("Failed to delete volume \"%1\" in SVM \"%2\" because it has one or more clones "
                               "(\"%3\"). Split or delete the clones first.")
                    .arg(v->name, v->svm.name, clones.front()->name),
                QStringLiteral("917560"),
                {}};
        }
        for (const FlexCache &c : m_estate->flexcaches) {
            if (c.origin.uuid == uuid) {
                return OntapError{
                    409,
                    QStringLiteral("Failed to delete volume \"%1\" in SVM \"%2\" because it is the origin of one "
                                   "or more FlexCache volumes.")
                        .arg(v->name, v->svm.name),
                    QStringLiteral("66846779"),
                    {}};
            }
        }
        QString originUuid;
        if (const FlexCache *cache = m_estate->flexcache(uuid)) {
            originUuid = cache->origin.uuid;
        }
        m_estate->removeVolume(uuid);
        if (!originUuid.isEmpty()) {
            const bool stillCached =
                std::any_of(m_estate->flexcaches.begin(), m_estate->flexcaches.end(), [&](const FlexCache &c) {
                    return c.origin.uuid == originUuid;
                });
            if (Volume *origin = m_estate->volume(originUuid); origin && !stillCached) {
                origin->flexcacheEndpoint = QStringLiteral("none");
            }
        }
        return std::nullopt;
    };
    submitJob(ex, volume.svm, std::move(effect));
}

void OntapSimulator::postSnapshot(const std::shared_ptr<Exchange> &ex, Volume &volume)
{
    static const QStringList allowed{QStringLiteral("name"),
                                     QStringLiteral("comment"),
                                     QStringLiteral("snapmirror_label"),
                                     QStringLiteral("expiry_time"),
                                     QStringLiteral("svm"),
                                     QStringLiteral("volume")};
    const std::optional<QJsonObject> parsedBody = creationBody(ex, allowed);
    if (!parsedBody) {
        return;
    }
    const QJsonObject body = *parsedBody;
    const QString name = body.value(QStringLiteral("name")).toString();
    const QString svmName = at(body, QStringLiteral("svm.name")).toString();
    if (!svmName.isEmpty() && svmName != volume.svm.name) {
        sendError(ex, notFound(QStringLiteral("svm.name")));
        return;
    }
    if (volume.state != QLatin1String("online")) {
        sendError(ex,
                  OntapError{400,
                             QStringLiteral("Failed to create Snapshot copy \"%1\" on volume \"%2\": the volume is %3.")
                                 .arg(name, volume.name, volume.state),
                             QStringLiteral("1638419"),
                             {}});
        return;
    }
    if (m_estate->snapshotByName(volume, name)) {
        sendError(ex,
                  duplicate(QStringLiteral("Snapshot copy \"%1\" of volume \"%2\"").arg(name, volume.name),
                            QStringLiteral("name")));
        return;
    }
    const QString volumeUuid = volume.uuid;
    const QString snapshotUuid = m_estate->newUuid();
    const QString comment = body.value(QStringLiteral("comment")).toString();
    const QString label = body.value(QStringLiteral("snapmirror_label")).toString();
    const QString expiry = body.value(QStringLiteral("expiry_time")).toString();
    Effect effect = [=, this]() -> std::optional<OntapError> {
        Volume *v = m_estate->volume(volumeUuid);
        if (!v) {
            return notFound();
        }
        if (m_estate->snapshotByName(*v, name)) {
            return OntapError{409,
                              QStringLiteral("Snapshot copy \"%1\" of volume \"%2\" on Vserver \"%3\" already exists.")
                                  .arg(name, v->name, v->svm.name),
                              QStringLiteral("1"),
                              QStringLiteral("name")};
        }
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        Snapshot s;
        s.uuid = snapshotUuid;
        s.name = name;
        s.comment = comment;
        s.snapmirrorLabel = label;
        s.expiryTime = expiry;
        s.createMs = now;
        s.createTime = Estate::timestamp(now);
        s.size = 160 * 1024;
        s.volumeUsedAtCreate = v->used;
        v->snapshotBytes += s.size;
        v->snapshots.push_back(s);
        m_estate->touch();
        return std::nullopt;
    };
    submitJob(ex,
              volume.svm,
              std::move(effect),
              Ref{name, snapshotUuid},
              QStringLiteral("/api/storage/volumes/%1/snapshots/%2").arg(volumeUuid, snapshotUuid));
}

void OntapSimulator::patchSnapshot(const std::shared_ptr<Exchange> &ex, Volume &volume, Snapshot &snapshot)
{
    static const QStringList allowed{QStringLiteral("name"),
                                     QStringLiteral("comment"),
                                     QStringLiteral("snapmirror_label"),
                                     QStringLiteral("expiry_time")};
    const std::optional<QJsonObject> parsedBody = mutationBody(ex, allowed);
    if (!parsedBody) {
        return;
    }
    const QJsonObject body = *parsedBody;
    const QJsonValue name = body.value(QStringLiteral("name"));
    if (name.isString()) {
        if (name.toString().isEmpty()) {
            sendError(ex, invalidFieldValue(QStringLiteral("name"), name.toString()));
            return;
        }
        if (name.toString() != snapshot.name && m_estate->snapshotByName(volume, name.toString())) {
            sendError(
                ex,
                duplicate(QStringLiteral("Snapshot copy \"%1\" of volume \"%2\"").arg(name.toString(), volume.name),
                          QStringLiteral("name")));
            return;
        }
    }
    const QString volumeUuid = volume.uuid;
    const QString snapshotUuid = snapshot.uuid;
    const QJsonValue comment = body.value(QStringLiteral("comment"));
    const QJsonValue label = body.value(QStringLiteral("snapmirror_label"));
    const QJsonValue expiry = body.value(QStringLiteral("expiry_time"));
    Effect effect = [=, this]() -> std::optional<OntapError> {
        Volume *v = m_estate->volume(volumeUuid);
        Snapshot *s = v ? m_estate->snapshot(*v, snapshotUuid) : nullptr;
        if (!s) {
            return notFound();
        }
        if (name.isString() && name.toString() != s->name) {
            if (m_estate->snapshotByName(*v, name.toString())) {
                return OntapError{409,
                                  QStringLiteral("Snapshot copy \"%1\" already exists.").arg(name.toString()),
                                  QStringLiteral("1"),
                                  QStringLiteral("name")};
            }
            s->name = name.toString();
            // Clones show their parent snapshot by name too.
            for (const auto &other : m_estate->volumes()) {
                if (other->cloneParentSnapshot.uuid == s->uuid) {
                    other->cloneParentSnapshot.name = s->name;
                }
            }
            m_estate->touch();
        }
        if (comment.isString()) {
            s->comment = comment.toString();
        }
        if (label.isString()) {
            s->snapmirrorLabel = label.toString();
        }
        if (expiry.isString()) {
            s->expiryTime = expiry.toString();
        }
        return std::nullopt;
    };
    submitJob(ex, volume.svm, std::move(effect));
}

void OntapSimulator::deleteSnapshot(const std::shared_ptr<Exchange> &ex, Volume &volume, Snapshot &snapshot)
{
    const QString volumeUuid = volume.uuid;
    const QString snapshotUuid = snapshot.uuid;
    Effect effect = [this, volumeUuid, snapshotUuid]() -> std::optional<OntapError> {
        Volume *v = m_estate->volume(volumeUuid);
        const Snapshot *s = v ? m_estate->snapshot(*v, snapshotUuid) : nullptr;
        if (!s) {
            return notFound();
        }
        const auto clones = m_estate->clonesOfSnapshot(snapshotUuid);
        if (!clones.isEmpty()) {
            // What Trident keys on: the job fails with the "Snapshot busy" code.
            return OntapError{
                409,
                QStringLiteral("Snapshot copy \"%1\" of volume \"%2\" on Vserver \"%3\" is busy: it is in use by "
                               "FlexClone volume \"%4\". Split or delete the clone first.")
                    .arg(s->name, v->name, v->svm.name, clones.front()->name),
                QStringLiteral("1638600"),
                {}};
        }
        v->snapshotBytes -= s->size;
        v->snapshots.erase(std::remove_if(v->snapshots.begin(),
                                          v->snapshots.end(),
                                          [&](const Snapshot &x) {
                                              return x.uuid == snapshotUuid;
                                          }),
                           v->snapshots.end());
        m_estate->touch();
        return std::nullopt;
    };
    submitJob(ex, volume.svm, std::move(effect));
}

void OntapSimulator::postFlexCache(const std::shared_ptr<Exchange> &ex)
{
    static const QStringList allowed{QStringLiteral("name"),
                                     QStringLiteral("svm"),
                                     QStringLiteral("origins"),
                                     QStringLiteral("aggregates"),
                                     QStringLiteral("size"),
                                     QStringLiteral("path"),
                                     QStringLiteral("constituents_per_aggregate"),
                                     QStringLiteral("guarantee")};
    const std::optional<QJsonObject> parsedBody = creationBody(ex, allowed);
    if (!parsedBody) {
        return;
    }
    const QJsonObject body = *parsedBody;
    const QString name = body.value(QStringLiteral("name")).toString();
    const Svm *svm = svmForNewVolume(ex, body, name);
    if (!svm) {
        return;
    }
    const QJsonObject origin = body.value(QStringLiteral("origins")).toArray().first().toObject();
    auto originSvmResult = resolveSvm(*m_estate, origin.value(QStringLiteral("svm")), QStringLiteral("origins.svm"));
    if (auto *error = std::get_if<OntapError>(&originSvmResult)) {
        sendError(ex, *error);
        return;
    }
    const Svm *originSvm = std::get<const Svm *>(originSvmResult);
    if (!originSvm) {
        sendError(ex, missingField(QStringLiteral("origins.svm.name")));
        return;
    }
    auto originResult = resolveVolume(
        *m_estate, origin.value(QStringLiteral("volume")), QStringLiteral("origins.volume"), originSvm->name);
    if (auto *error = std::get_if<OntapError>(&originResult)) {
        sendError(ex, *error);
        return;
    }
    const Volume *originVolume = std::get<const Volume *>(originResult);
    if (!originVolume) {
        sendError(ex, missingField(QStringLiteral("origins.volume.name")));
        return;
    }
    const std::optional<QList<Ref>> named = namedAggregates(ex, body);
    if (!named) {
        return;
    }
    QList<Ref> aggregates = *named;
    if (aggregates.isEmpty()) {
        aggregates = svm->aggregates.mid(0, 2);
    }
    const qint64 size = integerOf(body.value(QStringLiteral("size"))).value_or(originVolume->size / 10);
    const QString path = body.value(QStringLiteral("path")).toString();
    const QString uuid = m_estate->newUuid();
    const Ref svmRef{svm->name, svm->uuid};
    const QString originUuid = originVolume->uuid;
    Effect effect = [=, this]() -> std::optional<OntapError> {
        Volume *o = m_estate->volume(originUuid);
        if (!o) {
            return notFound(QStringLiteral("origins.volume.uuid"));
        }
        if (auto taken = volumeNameTaken(*m_estate, svmRef.name, name)) {
            return taken;
        }
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        auto v = newVolumeRecord(uuid, name, svmRef, aggregates, size, now);
        v->used = 0;
        v->style = QStringLiteral("flexgroup");
        v->flexcacheEndpoint = QStringLiteral("cache");
        v->snapshotPolicy = QStringLiteral("none");
        v->snapshotReservePercent = 0;
        v->nasPath = path;
        v->seed = quint32(qHash(uuid));
        v->perf = PerfProfile{o->perf.readIops / 3, 5, 50, o->perf.readBytesPerOp, 64 * 1024, 150};
        v->comment = QStringLiteral("FlexCache of %1:%2").arg(o->svm.name, o->name);
        FlexCache record;
        record.uuid = uuid;
        record.origin = Ref{o->name, o->uuid};
        record.originSvm = o->svm;
        record.createTime = v->createTime;
        o->flexcacheEndpoint = QStringLiteral("origin");
        m_estate->flexcaches.push_back(record);
        m_estate->addVolume(std::move(v));
        return std::nullopt;
    };
    submitJob(
        ex, svmRef, std::move(effect), Ref{name, uuid}, QStringLiteral("/api/storage/flexcache/flexcaches/") + uuid);
}

// ---------------------------------------------------------------------------------------------
// Behaviour over time

void OntapSimulator::tick()
{
    onOwnThread([&] {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        ++m_ticks;
        growTridentVolumes(now);
        if (m_options.preset == Options::Preset::Demo && m_ticks % 12 == 0) {
            rotateScheduledSnapshots(now);
        }
        if (m_ticks % 20 == 0 && !m_estate->nodes.empty()) {
            const Node &node = m_estate->nodes[size_t(m_ticks / 20) % m_estate->nodes.size()];
            const qint64 upSeconds = node.uptimeSeconds + (now - m_estate->createdMs) / 1000;
            m_estate->addEvent(now,
                               Ref{node.name, node.uuid},
                               QStringLiteral("kern.uptime.filer"),
                               QStringLiteral("informational"),
                               QStringLiteral("up %1 days, %2:%3")
                                   .arg(upSeconds / 86400)
                                   .arg((upSeconds % 86400) / 3600)
                                   .arg((upSeconds % 3600) / 60, 2, 10, QLatin1Char('0')));
        }
        if (m_estate->events.size() > size_t(MaxEvents)) {
            m_estate->events.erase(m_estate->events.begin(), m_estate->events.end() - MaxEvents);
            m_estate->touch();
        }
    });
}

void OntapSimulator::growTridentVolumes(qint64 nowMs)
{
    for (const auto &ptr : m_estate->volumes()) {
        Volume &v = *ptr;
        if (!v.tridentGrowth || v.state != QLatin1String("online") || v.isConstituent) {
            continue;
        }
        const double rate = 0.0004 + 0.0012 * m_estate->randomUnit();
        v.used = std::min<qint64>(v.used + static_cast<qint64>(double(v.size) * rate), v.usableSize() * 995 / 1000);
        v.filesUsed += static_cast<qint64>(double(v.filesMaximum) * rate / 4);
        if (v.autosizeMode != QLatin1String("off") && v.used > v.usableSize() * 92 / 100
            && v.size < v.autosizeMaximum) {
            const qint64 before = v.size;
            v.size = std::min(v.autosizeMaximum, (v.size + v.size / 10 + Estate::GiB - 1) / Estate::GiB * Estate::GiB);
            const Node &node = m_estate->nodes.front();
            m_estate->addEvent(
                nowMs,
                Ref{node.name, node.uuid},
                QStringLiteral("wafl.vol.autoSize.done"),
                QStringLiteral("notice"),
                QStringLiteral("Volume autosize: Automatic grow of volume '%1@vserver:%2' by %3 complete.")
                    .arg(v.name, v.svm.uuid, sizeText(v.size - before)),
                {{QStringLiteral("vol"), v.name}, {QStringLiteral("size"), QString::number(v.size - before)}});
        }
        checkFullness(v, nowMs);
    }
}

void OntapSimulator::checkFullness(Volume &v, qint64 nowMs)
{
    const qint64 usable = v.usableSize();
    if (usable <= 0) {
        return;
    }
    const qint64 percent = v.used * 100 / usable;
    const QString fullKey = QStringLiteral("full:") + v.uuid;
    if (percent < 90) {
        m_fullAlerted.remove(v.uuid);
        m_fullAlerted.remove(fullKey);
        return;
    }
    const Node &node = m_estate->nodes.back();
    if (percent >= 95 && !m_fullAlerted.contains(v.uuid)) {
        m_fullAlerted.insert(v.uuid);
        m_estate->addEvent(
            nowMs,
            Ref{node.name, node.uuid},
            QStringLiteral("monitor.volume.nearlyFull"),
            QStringLiteral("alert"),
            QStringLiteral("Volume %1@vserver:%2 is nearly full (using or reserving %3% of space and %4% of inodes).")
                .arg(v.name, v.svm.uuid)
                .arg(percent)
                .arg(v.filesMaximum > 0 ? v.filesUsed * 100 / v.filesMaximum : 0),
            {{QStringLiteral("object_uuid"), v.uuid}, {QStringLiteral("percent"), QString::number(percent)}});
    }
    if (percent >= 98 && !m_fullAlerted.contains(fullKey)) {
        m_fullAlerted.insert(fullKey);
        m_estate->addEvent(
            nowMs,
            Ref{node.name, node.uuid},
            QStringLiteral("wafl.vol.full"),
            QStringLiteral("alert"),
            QStringLiteral("Insufficient space on volume %1@vserver:%2 to perform operation.").arg(v.name, v.svm.uuid),
            {{QStringLiteral("vol"), v.name}});
    }
}

void OntapSimulator::rotateScheduledSnapshots(qint64 nowMs)
{
    const QString stamp = QDateTime::fromMSecsSinceEpoch(nowMs, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd_HHmmss"));
    for (const auto &ptr : m_estate->volumes()) {
        Volume &v = *ptr;
        if (v.snapshotPolicy != QLatin1String("default") || v.isConstituent || v.state != QLatin1String("online")
            || !v.snapshotsMaterialised || v.flexcacheEndpoint == QLatin1String("cache")) {
            continue;
        }
        const QString name = QStringLiteral("hourly.") + stamp;
        if (m_estate->snapshotByName(v, name)) {
            continue;
        }
        Snapshot s;
        s.uuid = m_estate->newUuid();
        s.name = name;
        s.createMs = nowMs;
        s.createTime = Estate::timestamp(nowMs);
        s.snapmirrorLabel = QStringLiteral("hourly");
        s.size = std::max<qint64>(16 * 1024 * 1024, v.used / 500);
        s.volumeUsedAtCreate = v.used;
        v.snapshotBytes += s.size;
        v.snapshots.push_back(s);
        // Keep the newest six hourly copies that nothing depends on.
        QSet<QString> busy;
        for (const Volume *clone : m_estate->clonesOfVolume(v.uuid)) {
            busy.insert(clone->cloneParentSnapshot.uuid);
        }
        int hourly = 0;
        for (const Snapshot &x : v.snapshots) {
            hourly += x.snapmirrorLabel == QLatin1String("hourly") ? 1 : 0;
        }
        for (auto it = v.snapshots.begin(); it != v.snapshots.end() && hourly > 6;) {
            if (it->snapmirrorLabel == QLatin1String("hourly") && !busy.contains(it->uuid)) {
                v.snapshotBytes -= it->size;
                it = v.snapshots.erase(it);
                --hourly;
            } else {
                ++it;
            }
        }
    }
    m_estate->touch();
}

} // namespace strata::sim::ontap
