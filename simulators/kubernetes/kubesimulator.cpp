#include "simulators/kubernetes/kubesimulator.h"

#include "simulators/common/httpfaults.h"
#include "simulators/common/serverthread.h"
#include "simulators/kubernetes/cluster.h"
#include "simulators/kubernetes/dcgm.h"
#include "simulators/kubernetes/resources.h"
#include "simulators/kubernetes/selectors.h"
#include "simulators/kubernetes/store.h"
#include "simulators/kubernetes/table.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <utility>

Q_LOGGING_CATEGORY(lcKubeSim, "strata.sim.kube", QtWarningMsg)

namespace strata::sim::kube {

using nlohmann::json;

/// The /_sim/faults rules: kinds status, reset, stall, malformed, truncate, latency; paths match the
/// normalised request path, case-sensitively.
struct KubeFaults
{
    HttpFaultRules rules{HttpFaultSyntax{HttpFaultSyntax::commonFields(), HttpFaultSyntax::commonKinds()}};
};

/// One request in flight.
struct KubeExchange
{
    Request request;
    Responder responder;
    std::optional<HttpFaultRule> fault;
    QString path;                  ///< normalised, without a trailing slash
    std::vector<std::string> segs; ///< path segments
    std::string version;           ///< API version named in the path ("v1", "v2alpha2")
    bool table = false;            ///< Accept asks for a meta.k8s.io Table (kubectl's human output)
    std::string includeObject;     ///< Table rows: None, Metadata (default) or Object
};

/// One open watch stream.
struct KubeWatch
{
    std::uint64_t id = 0;
    int resource = 0;
    std::string version;
    std::string ns;
    LabelSelector labels;
    FieldSelector fields;
    bool bookmarks = false;
    Responder responder;
    std::unique_ptr<QTimer> timeout;
    bool table = false;
    bool sentColumns = false;
    std::string includeObject;
};

namespace {

constexpr const char *ContinueTooOld =
    "The provided continue parameter is too old to display a consistent list result. You can start a new list "
    "without the continue parameter, or use the continue token in this response to retrieve the remainder of the "
    "results. Continuing with the provided token results in an inconsistent list - objects that were created, "
    "modified, or deleted between the time the first chunk was returned and now may show up in the list.";

QByteArray bytes(const std::string &s)
{
    return QByteArray(s.data(), static_cast<qsizetype>(s.size()));
}

json statusJson(int code, const char *reason, const std::string &message)
{
    return json{{"kind", "Status"},
                {"apiVersion", "v1"},
                {"metadata", json::object()},
                {"status", "Failure"},
                {"message", message},
                {"reason", reason},
                {"code", code}};
}

json detailsFor(const ResourceInfo &info, const std::string &name)
{
    json d{{"name", name}, {"kind", info.plural}};
    if (!info.group.empty()) {
        d["group"] = info.group;
    }
    return d;
}

/// What the API server sets on a written object whatever the client sent: kind, apiVersion and,
/// for a namespaced resource, the namespace of the URL.
void stampKubeIdentity(json &object, const ResourceInfo &info, const std::string &ns)
{
    object["kind"] = info.kind;
    object["apiVersion"] = info.apiVersion();
    if (info.namespaced) {
        object["metadata"]["namespace"] = ns;
    }
}

std::string encodeContinue(std::int64_t rv, const std::string &start)
{
    const json token{{"v", "meta.k8s.io/v1"}, {"rv", rv}, {"start", start}};
    return QByteArray::fromStdString(token.dump()).toBase64(QByteArray::Base64UrlEncoding).toStdString();
}

bool decodeContinue(const std::string &token, std::int64_t *rv, std::string *start)
{
    const auto decoded =
        QByteArray::fromBase64Encoding(QByteArray::fromStdString(token), QByteArray::Base64UrlEncoding);
    if (!decoded) {
        return false;
    }
    const json j = json::parse(decoded.decoded.toStdString(), nullptr, false);
    if (!j.is_object() || j.value("v", std::string()) != "meta.k8s.io/v1" || !j.contains("rv")
        || !j["rv"].is_number_integer() || !j.contains("start") || !j["start"].is_string()) {
        return false;
    }
    *rv = j["rv"].get<std::int64_t>();
    *start = j["start"].get<std::string>();
    return true;
}

bool validName(const std::string &name, bool subdomain)
{
    static const QRegularExpression label(QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"));
    static const QRegularExpression sub(
        QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"));
    const QString n = QString::fromStdString(name);
    return !name.empty() && name.size() <= (subdomain ? 253u : 63u) && (subdomain ? sub : label).match(n).hasMatch();
}

std::string metaString(const json &object, const char *field)
{
    const auto meta = object.find("metadata");
    if (meta == object.end() || !meta->is_object()) {
        return {};
    }
    const auto it = meta->find(field);
    return it != meta->end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

KubeSimulator::KubeSimulator(Options options, QObject *parent)
    : SimulatorBase(parent)
    , m_options(std::move(options))
    , m_faults(std::make_unique<KubeFaults>())
{
    m_ticker.setParent(this);
    m_bookmarkTimer.setParent(this);
    m_churnTimer.setParent(this);
}

KubeSimulator::~KubeSimulator()
{
    for (auto &entry : m_watches) {
        entry.second->responder.endStream();
    }
    m_watches.clear();
}

KubeSimulator *KubeSimulator::startOnThread(ServerThread &thread, Options options, QString *error)
{
    return startSimulatorOnThread<KubeSimulator>(thread, std::move(options), error);
}

bool KubeSimulator::start()
{
    m_nowMs =
        m_options.startTime.isValid() ? m_options.startTime.toMSecsSinceEpoch() : QDateTime::currentMSecsSinceEpoch();
    m_store = std::make_unique<ObjectStore>(
        std::max<std::size_t>(m_options.watchHistory, 1),
        [this] {
            return m_nowMs;
        },
        m_options.seed);
    m_cluster = std::make_unique<Cluster>(*m_store, m_options, [this] {
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_cluster->reconcile();
            },
            Qt::QueuedConnection);
    });
    m_cluster->buildPreset();
    m_store->setListener([this](const StoreEvent &event) {
        onStoreEvent(event);
    });

    const bool metrics = m_options.gpuMetrics.value_or(m_options.preset != Options::Preset::Scale);
    if (metrics) {
        m_dcgm = std::make_unique<DcgmExporter>();
        m_dcgm->record(QDateTime::fromMSecsSinceEpoch(m_nowMs, Qt::UTC), m_cluster->gpuSamples());
    }

    if (m_options.useTls
        && !ensureTls(m_options.tls, QStringLiteral("strata-sim-kube"), certificateHosts(m_options.address))) {
        return false;
    }
    if (!listen(m_options.address, m_options.port, m_options.useTls ? &m_options.tls : nullptr)) {
        return false;
    }
    m_expectedAuth = "Bearer " + m_options.token.toUtf8();

    if (m_dcgm) {
        m_prometheus = new HttpServer(this);
        m_prometheus->setHandler([this](const Request &request, const Responder &responder) {
            if (!m_dcgm->handle(request, responder)) {
                responder.send(Response::text(404, "404 page not found\n"));
            }
        });
        if (!m_prometheus->listen(m_options.address, m_options.prometheusPort)) {
            m_error = QStringLiteral("Prometheus endpoint: ") + m_prometheus->errorString();
            return false;
        }
        m_prometheusUrl = QStringLiteral("http://") + clientHost(m_options.address) + QLatin1Char(':')
                          + QString::number(m_prometheus->port());
    }

    if (m_options.tickInterval.count() > 0) {
        m_ticker.setInterval(m_options.tickInterval);
        connect(&m_ticker, &QTimer::timeout, this, [this] {
            doTick(m_options.tickStep);
        });
        m_ticker.start();
    }
    if (m_options.bookmarkInterval.count() > 0) {
        m_bookmarkTimer.setInterval(m_options.bookmarkInterval);
        connect(&m_bookmarkTimer, &QTimer::timeout, this, [this] {
            sweepWatches();
            sendBookmarks();
        });
        m_bookmarkTimer.start();
    }
    m_churnTimer.setInterval(100);
    connect(&m_churnTimer, &QTimer::timeout, this, &KubeSimulator::churnStep);
    return true;
}

QByteArray KubeSimulator::kubeconfig(const QString &contextName) const
{
    const QByteArray name = contextName.toUtf8();
    QByteArray out;
    out += "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n";
    if (m_options.useTls) {
        out += "    certificate-authority-data: " + m_options.tls.certificatePem.toBase64() + "\n";
    }
    out += "    server: " + m_baseUrl.toUtf8() + "\n  name: " + name + "\n";
    out += "contexts:\n- context:\n    cluster: " + name + "\n    user: " + name + "\n  name: " + name + "\n";
    out += "current-context: " + name + "\npreferences: {}\n";
    out += "users:\n- name: " + name + "\n  user:\n    token: " + m_options.token.toUtf8() + "\n";
    return out;
}

QJsonObject KubeSimulator::jobManifest(const KubeJobSpec &spec)
{
    return QJsonDocument::fromJson(bytes(jobManifestJson(spec).dump())).object();
}

// ---------------------------------------------------------------------------------------------
// In-process API

void KubeSimulator::tick(int count, std::optional<std::chrono::milliseconds> step)
{
    onOwnThread([&] {
        for (int i = 0; i < count; ++i) {
            doTick(step.value_or(m_options.tickStep));
        }
    });
}

QDateTime KubeSimulator::now() const
{
    return onOwnThread([&] {
        return QDateTime::fromMSecsSinceEpoch(m_nowMs, Qt::UTC);
    });
}

std::uint64_t KubeSimulator::resourceVersion() const
{
    return onOwnThread([&] {
        return m_store->currentRv();
    });
}

int KubeSimulator::objectCount(const QString &plural) const
{
    return onOwnThread([&] {
        const auto &table = resourceTable();
        for (std::size_t i = 0; i < table.size(); ++i) {
            if (table[i].plural == toStd(plural)) {
                return static_cast<int>(m_store->count(static_cast<int>(i)));
            }
        }
        return -1;
    });
}

std::optional<QJsonObject> KubeSimulator::object(const QString &plural, const QString &ns, const QString &name) const
{
    return onOwnThread([&]() -> std::optional<QJsonObject> {
        const auto &table = resourceTable();
        for (std::size_t i = 0; i < table.size(); ++i) {
            if (table[i].plural == toStd(plural)) {
                const ObjectPtr o = m_store->get(static_cast<int>(i), toStd(ns), toStd(name));
                if (!o) {
                    return std::nullopt;
                }
                return QJsonDocument::fromJson(bytes(o->bytes)).object();
            }
        }
        return std::nullopt;
    });
}

int KubeSimulator::watchCount() const
{
    return onOwnThread([&] {
        const_cast<KubeSimulator *>(this)->sweepWatches();
        return static_cast<int>(m_watches.size());
    });
}

QStringList KubeSimulator::createRequests(const QString &plural) const
{
    return onOwnThread([&] {
        return m_createRequests.value(plural);
    });
}

int KubeSimulator::requestCount() const
{
    return onOwnThread([&] {
        return m_server ? m_server->requestCount() : 0;
    });
}

void KubeSimulator::compact()
{
    onOwnThread([&] {
        m_store->compact();
    });
}

void KubeSimulator::expireWatches()
{
    onOwnThread([&] {
        endAllWatches(true);
        m_store->compact();
    });
}

void KubeSimulator::endAllWatches(bool expired)
{
    std::vector<std::uint64_t> ids;
    for (const auto &entry : m_watches) {
        ids.push_back(entry.first);
    }
    for (std::uint64_t id : ids) {
        endWatch(id, expired);
    }
}

void KubeSimulator::dropWatches()
{
    onOwnThread([&] {
        endAllWatches(false);
    });
}

void KubeSimulator::setChurn(int podsPerSecond)
{
    onOwnThread([&] {
        m_churnPerSecond = std::max(0, podsPerSecond);
        if (m_churnPerSecond > 0) {
            m_churnTimer.start();
        } else {
            m_churnTimer.stop();
        }
    });
}

int KubeSimulator::addFaultRule(const QJsonObject &json, QString *error)
{
    return onOwnThread([&] {
        return m_faults->rules.add(json, error);
    });
}

void KubeSimulator::clearFaultRules()
{
    onOwnThread([&] {
        m_faults->rules.clear();
    });
}

QJsonObject KubeSimulator::schedulerState() const
{
    return onOwnThread([&] {
        return m_cluster->state();
    });
}

QList<KubeProjectSample> KubeSimulator::projectSamples() const
{
    return onOwnThread([&] {
        return m_cluster->projectSamples();
    });
}

void KubeSimulator::setWorkloadRunner(SimWorkloadRunner runner)
{
    onOwnThread([&] {
        m_cluster->setWorkloadRunner(std::move(runner));
    });
}

std::optional<QStringList> KubeSimulator::podLog(const QString &ns, const QString &pod) const
{
    return onOwnThread([&]() -> std::optional<QStringList> {
        if (!m_store->get(RPods, toStd(ns), toStd(pod))) {
            return std::nullopt;
        }
        QStringList lines;
        if (const auto *log = m_cluster->podLog(ObjectStore::key(toStd(ns), toStd(pod)))) {
            for (const std::string &line : *log) {
                lines.append(QString::fromStdString(line));
            }
        }
        return lines;
    });
}

bool KubeSimulator::createObject(const QString &plural, const QJsonObject &object, QString *error)
{
    return onOwnThread([&] {
        const auto fail = [&](const QString &why) {
            if (error) {
                *error = why;
            }
            return false;
        };
        const std::string p = toStd(plural);
        int resource = -1;
        for (int r = 0; r < RResourceCount; ++r) {
            if (resourceInfo(r).plural == p) {
                resource = r;
            }
        }
        if (resource < 0) {
            return fail(QStringLiteral("unknown resource %1").arg(plural));
        }
        const ResourceInfo &info = resourceInfo(resource);
        json o = json::parse(QJsonDocument(object).toJson(QJsonDocument::Compact).toStdString(), nullptr, false);
        if (!o.is_object() || !o.contains("metadata") || !o["metadata"].is_object()) {
            return fail(QStringLiteral("the object has no metadata"));
        }
        o["kind"] = info.kind;
        o["apiVersion"] = info.apiVersion();
        const std::string name = metaString(o, "name");
        const std::string ns = info.namespaced ? metaString(o, "namespace") : std::string();
        if (name.empty() || (info.namespaced && ns.empty())) {
            return fail(QStringLiteral("metadata.name (and metadata.namespace for %1) required").arg(plural));
        }
        if (info.namespaced && !m_store->get(RNamespaces, {}, ns)) {
            return fail(QStringLiteral("namespace %1 not found").arg(QString::fromStdString(ns)));
        }
        if (m_store->get(resource, ns, name)) {
            return fail(QStringLiteral("%1 %2 already exists").arg(plural, QString::fromStdString(name)));
        }
        m_cluster->admit(resource, o);
        m_store->create(resource, std::move(o));
        return true;
    });
}

void KubeSimulator::servePodLog(const std::shared_ptr<KubeExchange> &ex, const std::string &ns, const std::string &name)
{
    const ObjectPtr pod = m_store->get(RPods, ns, name);
    if (!pod) {
        sendStatus(ex,
                   404,
                   "NotFound",
                   "pods \"" + name + "\" not found",
                   bytes(detailsFor(resourceInfo(RPods), name).dump()));
        return;
    }
    const json &podJson = pod->obj();
    const json status = podJson.value("status", json::object());
    std::string container;
    for (const json &c : podJson.value("spec", json::object()).value("containers", json::array())) {
        container = c.value("name", std::string());
        break;
    }
    if (status.value("phase", std::string()) == "Pending") {
        std::string reason = "ContainerCreating";
        for (const json &cs : status.value("containerStatuses", json::array())) {
            reason = cs.value("state", json::object()).value("waiting", json::object()).value("reason", reason);
        }
        sendStatus(ex,
                   400,
                   "BadRequest",
                   "container \"" + container + "\" in pod \"" + name + "\" is waiting to start: " + reason);
        return;
    }
    int tail = -1;
    if (const QString t = ex->request.queryValue(QStringLiteral("tailLines")); !t.isEmpty()) {
        bool ok = false;
        tail = t.toInt(&ok);
        if (!ok || tail < 0) {
            sendStatus(ex, 400, "BadRequest", "invalid tailLines: " + t.toStdString());
            return;
        }
    }
    QByteArray body;
    if (const auto *log = m_cluster->podLog(ObjectStore::key(ns, name))) {
        const std::size_t from = tail >= 0 && static_cast<std::size_t>(tail) < log->size()
                                     ? log->size() - static_cast<std::size_t>(tail)
                                     : 0;
        for (std::size_t i = from; i < log->size(); ++i) {
            body += QByteArray::fromStdString((*log)[i]);
            body += '\n';
        }
    }
    ex->responder.send(Response::text(200, body));
}

// ---------------------------------------------------------------------------------------------
// Simulated time, churn, watches

void KubeSimulator::doTick(std::chrono::milliseconds step)
{
    m_nowMs += step.count();
    m_cluster->tick();
    if (m_dcgm) {
        m_dcgm->record(QDateTime::fromMSecsSinceEpoch(m_nowMs, Qt::UTC), m_cluster->gpuSamples());
    }
    sweepWatches();
    sendBookmarks();
    Q_EMIT ticked();
}

void KubeSimulator::churnStep()
{
    const auto &pods = m_store->all(RPods);
    if (pods.empty() || m_churnPerSecond <= 0) {
        return;
    }
    // 100 ms steps; the remainder of podsPerSecond/10 is spread over the steps of a second.
    const int perStep = m_churnPerSecond / 10 + ((m_churnCounter % 10) < std::uint64_t(m_churnPerSecond % 10) ? 1 : 0);
    m_churnCounter++;
    std::vector<ObjectPtr> picked;
    picked.reserve(static_cast<std::size_t>(perStep));
    auto it = pods.begin();
    std::advance(it, static_cast<std::ptrdiff_t>(m_churnCursor % pods.size()));
    for (int i = 0; i < perStep; ++i) {
        if (it == pods.end()) {
            it = pods.begin();
        }
        picked.push_back(it->second);
        ++it;
    }
    m_churnCursor = (m_churnCursor + static_cast<std::size_t>(perStep)) % pods.size();
    const std::string stamp = m_store->timestamp();
    for (const ObjectPtr &pod : picked) {
        json next = pod->obj();
        // What a kubelet's status heartbeat looks like from a watch: a condition probe time moves.
        next["metadata"]["annotations"]["strata.io/churn"] = std::to_string(m_churnCounter);
        json &status = next["status"];
        if (!status.contains("conditions") || !status["conditions"].is_array()) {
            status["conditions"] = json::array();
        }
        bool found = false;
        for (json &c : status["conditions"]) {
            if (c.value("type", std::string()) == "Ready") {
                c["lastProbeTime"] = stamp;
                found = true;
            }
        }
        if (!found) {
            status["conditions"].push_back(
                json{{"type", "Ready"}, {"status", "True"}, {"lastProbeTime", stamp}, {"lastTransitionTime", stamp}});
        }
        m_store->replace(RPods, std::move(next));
    }
}

namespace {

const char *eventTypeName(EventType type)
{
    switch (type) {
    case EventType::Added:
        return "ADDED";
    case EventType::Modified:
        return "MODIFIED";
    case EventType::Deleted:
        return "DELETED";
    }
    return "ERROR";
}

std::string objectBytesFor(const StoredObject &object, const ResourceInfo &info, const std::string &version)
{
    if (version.empty() || version == info.version) {
        return object.bytes;
    }
    json copy = object.obj();
    copy["apiVersion"] = info.group + '/' + version;
    return copy.dump();
}

/// What a watch event carries for `object`: the object, or a one-row Table for kubectl.
std::string watchObject(KubeWatch &w, const StoredObject &object, const ResourceInfo &info, std::int64_t nowMs)
{
    if (!w.table) {
        return objectBytesFor(object, info, w.version);
    }
    const std::string apiVersion = info.group.empty() ? w.version : info.group + '/' + w.version;
    json table{{"kind", "Table"},
               {"apiVersion", "meta.k8s.io/v1"},
               {"metadata", {{"resourceVersion", std::to_string(object.rv)}}},
               {"columnDefinitions", w.sentColumns ? json::array() : tableColumns(w.resource)},
               {"rows", json::array({tableRow(w.resource, object.obj(), nowMs, w.includeObject, apiVersion)})}};
    w.sentColumns = true;
    return table.dump();
}

bool watchMatches(const KubeWatch &w, const json &object)
{
    if (!w.ns.empty() && metaString(object, "namespace") != w.ns) {
        return false;
    }
    return w.labels.matches(object) && w.fields.matches(object);
}

QByteArray watchLine(const char *type, const std::string &objectBytes)
{
    QByteArray line;
    line.reserve(static_cast<qsizetype>(objectBytes.size()) + 32);
    line += "{\"type\":\"";
    line += type;
    line += "\",\"object\":";
    line += bytes(objectBytes);
    line += "}\n";
    return line;
}

} // namespace

void KubeSimulator::onStoreEvent(const StoreEvent &event)
{
    m_cluster->observe(event);
    std::vector<std::uint64_t> gone;
    const ResourceInfo &info = resourceInfo(event.resource);
    for (auto &entry : m_watches) {
        KubeWatch &w = *entry.second;
        if (w.resource != event.resource) {
            continue;
        }
        const bool now = watchMatches(w, event.object->obj());
        const bool before =
            event.previous && event.type == EventType::Modified ? watchMatches(w, event.previous->obj()) : now;
        const char *type = nullptr;
        if (event.type == EventType::Modified) {
            type = now && before ? "MODIFIED" : now ? "ADDED" : before ? "DELETED" : nullptr;
        } else if (now) {
            type = eventTypeName(event.type);
        }
        if (!type) {
            continue;
        }
        if (!w.responder.writeChunk(watchLine(type, watchObject(w, *event.object, info, m_nowMs)))) {
            gone.push_back(entry.first);
        }
    }
    for (std::uint64_t id : gone) {
        m_watches.erase(id);
    }
}

void KubeSimulator::sendBookmarks()
{
    std::vector<std::uint64_t> gone;
    for (auto &entry : m_watches) {
        KubeWatch &w = *entry.second;
        if (!w.bookmarks) {
            continue;
        }
        const ResourceInfo &info = resourceInfo(w.resource);
        const json bookmark{{"kind", info.kind},
                            {"apiVersion", w.version.empty() ? info.apiVersion() : info.group + '/' + w.version},
                            {"metadata", {{"resourceVersion", std::to_string(m_store->currentRv())}}}};
        if (!w.responder.writeChunk(watchLine("BOOKMARK", bookmark.dump()))) {
            gone.push_back(entry.first);
        }
    }
    for (std::uint64_t id : gone) {
        m_watches.erase(id);
    }
}

void KubeSimulator::sweepWatches()
{
    for (auto it = m_watches.begin(); it != m_watches.end();) {
        if (!it->second->responder.isConnected()) {
            it = m_watches.erase(it);
        } else {
            ++it;
        }
    }
}

void KubeSimulator::endWatch(std::uint64_t id, bool expired)
{
    const auto it = m_watches.find(id);
    if (it == m_watches.end()) {
        return;
    }
    const std::unique_ptr<KubeWatch> w = std::move(it->second);
    m_watches.erase(it);
    if (expired) {
        const json status = statusJson(410,
                                       "Expired",
                                       "too old resource version: " + std::to_string(m_store->watchFloor()) + " ("
                                           + std::to_string(m_store->currentRv()) + ")");
        w->responder.writeChunk(watchLine("ERROR", status.dump()));
    }
    w->responder.endStream();
}

// ---------------------------------------------------------------------------------------------
// Transport

void KubeSimulator::sendJson(const std::shared_ptr<KubeExchange> &ex, int status, const QByteArray &body) const
{
    Response r = Response::json(status, body);
    r.headers.append({QByteArrayLiteral("Cache-Control"), QByteArrayLiteral("no-cache, private")});
    r.headers.append({QByteArrayLiteral("X-Kubernetes-Pf-Flowschema-Uid"),
                      QByteArrayLiteral("7d0b7b5e-0c8b-4c8e-9f55-2c9d6f6b1a01")});
    r.headers.append({QByteArrayLiteral("X-Kubernetes-Pf-Prioritylevel-Uid"),
                      QByteArrayLiteral("4c3c8c2e-8f0e-4b8a-a1d3-6e0f5b7c9a02")});
    if (ex->fault) {
        ex->fault->applyTo(r);
    }
    qCInfo(lcKubeSim).noquote() << QString::fromLatin1(ex->request.method) << QString::fromUtf8(ex->request.target)
                                << "->" << status;
    ex->responder.send(std::move(r));
}

void KubeSimulator::sendStatus(const std::shared_ptr<KubeExchange> &ex,
                               int code,
                               const char *reason,
                               const std::string &message,
                               const QByteArray &detailsJson) const
{
    json s = statusJson(code, reason, message);
    if (!detailsJson.isEmpty()) {
        s["details"] = json::parse(detailsJson.toStdString(), nullptr, false);
    }
    sendJson(ex, code, bytes(s.dump()));
}

void KubeSimulator::handle(const Request &request, const Responder &responder)
{
    auto ex = std::make_shared<KubeExchange>();
    ex->request = request;
    ex->responder = responder;
    QString path = request.path;
    while (path.size() > 1 && path.endsWith(QLatin1Char('/'))) {
        path.chop(1);
    }
    ex->path = path;
    for (const QString &s : path.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        ex->segs.push_back(toStd(s));
    }

    if (path == QLatin1String("/healthz") || path == QLatin1String("/livez") || path == QLatin1String("/readyz")) {
        Response r = Response::text(200, "ok");
        responder.send(std::move(r));
        return;
    }
    const QByteArray auth = request.header("authorization").trimmed();
    const qsizetype space = auth.indexOf(' ');
    const bool authorised = space > 0 && auth.left(space).toLower() == "bearer"
                            && auth.mid(space + 1).trimmed() == m_options.token.toUtf8();
    if (!authorised) {
        sendStatus(ex, 401, "Unauthorized", "Unauthorized");
        return;
    }
    if (path == QLatin1String("/_sim") || path.startsWith(QLatin1String("/_sim/"))) {
        handleControl(ex);
        return;
    }

    ex->fault = m_faults->rules.fire(request.method, path);
    if (ex->fault) {
        const HttpFaultRule &f = *ex->fault;
        if (auto hang = f.connectionFault()) {
            responder.send(std::move(*hang));
            return;
        }
        if (f.kind == QLatin1String("status")) {
            const char *reason = "InternalError";
            std::string message = toStd(f.message);
            switch (f.status) {
            case 429:
                reason = "TooManyRequests";
                if (message.empty()) {
                    message = "Too many requests, please try again later.";
                }
                break;
            case 503:
                reason = "ServiceUnavailable";
                break;
            case 504:
                reason = "Timeout";
                break;
            case 409:
                reason = "Conflict";
                break;
            case 410:
                reason = "Expired";
                break;
            case 403:
                reason = "Forbidden";
                break;
            default:
                break;
            }
            if (message.empty()) {
                message = "an error on the server (\"simulated fault\") has prevented the request from succeeding";
            }
            json s = statusJson(f.status, reason, message);
            Response r = Response::json(f.status, {});
            if (f.status == 429 || f.status == 503) {
                s["details"] = json{{"retryAfterSeconds", f.retryAfterSeconds}};
                r.headers.append({QByteArrayLiteral("Retry-After"), QByteArray::number(f.retryAfterSeconds)});
            }
            r.body = bytes(s.dump());
            r.delay = std::chrono::milliseconds(f.latencyMs);
            responder.send(std::move(r));
            return;
        }
    }
    route(ex);
}

void KubeSimulator::handleControl(const std::shared_ptr<KubeExchange> &ex)
{
    const QByteArray &method = ex->request.method;
    const QString &path = ex->path;
    const QJsonObject body = QJsonDocument::fromJson(ex->request.body).object();
    auto rulesJson = [this] {
        return QJsonObject{{QStringLiteral("items"), m_faults->rules.toJson()}};
    };
    auto ok = [&](const QJsonObject &o) {
        sendJson(ex, 200, QJsonDocument(o).toJson(QJsonDocument::Compact));
    };
    if (path == QLatin1String("/_sim/faults")) {
        if (method == "GET") {
            ok(rulesJson());
            return;
        }
        if (method == "DELETE") {
            clearFaultRules();
            ok(rulesJson());
            return;
        }
        if (method == "POST") {
            QString error;
            const int id = addFaultRule(body, &error);
            if (id < 0) {
                sendStatus(ex, 400, "BadRequest", toStd(error));
                return;
            }
            ok(QJsonObject{{QStringLiteral("id"), id}});
            return;
        }
    } else if (path.startsWith(QLatin1String("/_sim/faults/")) && method == "DELETE") {
        if (!m_faults->rules.remove(path.mid(13).toInt())) {
            sendStatus(ex, 404, "NotFound", "fault rule not found");
            return;
        }
        ok({});
        return;
    } else if (path == QLatin1String("/_sim/tick") && method == "POST") {
        const int count = std::max(1, body.value(QStringLiteral("count")).toInt(1));
        const auto step =
            body.contains(QStringLiteral("seconds"))
                ? std::chrono::milliseconds(qint64(body.value(QStringLiteral("seconds")).toDouble() * 1000))
                : m_options.tickStep;
        for (int i = 0; i < count; ++i) {
            doTick(step);
        }
        ok(QJsonObject{{QStringLiteral("now"), QDateTime::fromMSecsSinceEpoch(m_nowMs, Qt::UTC).toString(Qt::ISODate)},
                       {QStringLiteral("resourceVersion"), QString::number(m_store->currentRv())}});
        return;
    } else if (path == QLatin1String("/_sim/compact") && method == "POST") {
        compact();
        ok(QJsonObject{{QStringLiteral("compactedResourceVersion"), QString::number(m_store->compactedRv())}});
        return;
    } else if (path == QLatin1String("/_sim/watches/expire") && method == "POST") {
        const int n = static_cast<int>(m_watches.size());
        expireWatches();
        ok(QJsonObject{{QStringLiteral("expired"), n}});
        return;
    } else if (path == QLatin1String("/_sim/watches/drop") && method == "POST") {
        const int n = static_cast<int>(m_watches.size());
        dropWatches();
        ok(QJsonObject{{QStringLiteral("dropped"), n}});
        return;
    } else if (path == QLatin1String("/_sim/churn") && method == "POST") {
        setChurn(body.value(QStringLiteral("podsPerSecond")).toInt(0));
        ok(QJsonObject{{QStringLiteral("podsPerSecond"), m_churnPerSecond}});
        return;
    } else if (path == QLatin1String("/_sim/state") && method == "GET") {
        QJsonObject counts;
        for (int r = 0; r < RResourceCount; ++r) {
            counts.insert(QString::fromStdString(resourceInfo(r).plural), qint64(m_store->count(r)));
        }
        sweepWatches();
        QJsonObject state = m_cluster->state();
        state.insert(QStringLiteral("objects"), counts);
        state.insert(QStringLiteral("now"), QDateTime::fromMSecsSinceEpoch(m_nowMs, Qt::UTC).toString(Qt::ISODate));
        state.insert(QStringLiteral("resourceVersion"), QString::number(m_store->currentRv()));
        state.insert(QStringLiteral("watchFloor"), QString::number(m_store->watchFloor()));
        state.insert(QStringLiteral("compactedResourceVersion"), QString::number(m_store->compactedRv()));
        state.insert(QStringLiteral("watches"), qint64(m_watches.size()));
        state.insert(QStringLiteral("requests"), m_server->requestCount());
        state.insert(QStringLiteral("faults"), rulesJson().value(QStringLiteral("items")));
        ok(state);
        return;
    }
    sendStatus(ex, 404, "NotFound", "the server could not find the requested resource");
}

// ---------------------------------------------------------------------------------------------
// Routing

void KubeSimulator::route(const std::shared_ptr<KubeExchange> &ex)
{
    bool handled = false;
    serveDiscovery(ex, &handled);
    if (handled) {
        return;
    }
    serveOpenApi(ex, &handled);
    if (handled) {
        return;
    }
    const QByteArray accept = ex->request.header("accept");
    ex->table = accept.contains("as=Table") && accept.contains("g=meta.k8s.io");
    ex->includeObject = toStd(ex->request.queryValue(QStringLiteral("includeObject")));
    const auto &s = ex->segs;
    std::string group;
    std::size_t i = 0;
    if (s.size() >= 3 && s[0] == "api" && s[1] == "v1") {
        ex->version = "v1";
        i = 2;
    } else if (s.size() >= 4 && s[0] == "apis") {
        group = s[1];
        ex->version = s[2];
        i = 3;
    } else {
        sendStatus(ex, 404, "NotFound", "the server could not find the requested resource");
        return;
    }
    const std::vector<std::string> rest(s.begin() + static_cast<std::ptrdiff_t>(i), s.end());
    std::string ns;
    std::string plural;
    std::string name;
    std::string sub;
    // In the core group "namespaces/<name>" may also be the namespace object itself (and its
    // subresources): only a known resource plural after it makes it a namespace scope.
    if (rest.size() >= 3 && rest[0] == "namespaces"
        && (!group.empty() || findResource(group, ex->version, rest[2]) >= 0)) {
        ns = rest[1];
        plural = rest[2];
        name = rest.size() > 3 ? rest[3] : std::string();
        sub = rest.size() > 4 ? rest[4] : std::string();
        if (rest.size() > 5) {
            plural.clear();
        }
    } else {
        plural = rest[0];
        name = rest.size() > 1 ? rest[1] : std::string();
        sub = rest.size() > 2 ? rest[2] : std::string();
        if (rest.size() > 3) {
            plural.clear();
        }
    }
    const int resource = plural.empty() ? -1 : findResource(group, ex->version, plural);
    if (resource == RPods && sub == "log" && !name.empty() && !ns.empty() && ex->request.method == "GET") {
        servePodLog(ex, ns, name);
        return;
    }
    if (resource < 0 || (!sub.empty() && sub != "status")) {
        sendStatus(ex, 404, "NotFound", "the server could not find the requested resource");
        return;
    }
    const ResourceInfo &info = resourceInfo(resource);
    if (!ns.empty() && !info.namespaced) {
        sendStatus(ex, 404, "NotFound", "the server could not find the requested resource");
        return;
    }
    const QByteArray &method = ex->request.method;
    if (name.empty()) {
        if (method == "GET") {
            const QString w = ex->request.queryValue(QStringLiteral("watch"));
            if (w == QLatin1String("1") || w == QLatin1String("true")) {
                watch(ex, resource, ns);
            } else {
                list(ex, resource, ns);
            }
            return;
        }
        if (method == "POST" && (!info.namespaced || !ns.empty())) {
            create(ex, resource, ns);
            return;
        }
        sendStatus(ex, 405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
        return;
    }
    if (info.namespaced && ns.empty()) {
        sendStatus(ex, 404, "NotFound", "the server could not find the requested resource");
        return;
    }
    ObjectHandler handler = nullptr;
    if (method == "GET") {
        handler = &KubeSimulator::getOne;
    } else if (method == "PUT") {
        handler = &KubeSimulator::update;
    } else if (method == "PATCH") {
        handler = &KubeSimulator::patch;
    } else if (method == "DELETE" && sub.empty()) {
        handler = &KubeSimulator::remove;
    } else {
        sendStatus(ex, 405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
        return;
    }
    if (const ObjectPtr current = findOrNotFound(ex, resource, ns, name)) {
        (this->*handler)(ex, resource, ns, name, current);
    }
}

void KubeSimulator::serveDiscovery(const std::shared_ptr<KubeExchange> &ex, bool *handled)
{
    const auto &s = ex->segs;
    if (ex->request.method != "GET") {
        return;
    }
    const auto &table = resourceTable();
    auto resourceList = [&](const std::string &group, const std::string &version) {
        json resources = json::array();
        for (const ResourceInfo &r : table) {
            if (r.group != group || !r.servesVersion(version)) {
                continue;
            }
            json entry{{"name", r.plural},
                       {"singularName", r.singular},
                       {"namespaced", r.namespaced},
                       {"kind", r.kind},
                       {"verbs", {"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}}};
            if (!r.shortNames.empty()) {
                entry["shortNames"] = r.shortNames;
            }
            if (!r.categories.empty()) {
                entry["categories"] = r.categories;
            }
            entry["storageVersionHash"] =
                QByteArray::fromStdString(r.apiVersion() + r.kind).toBase64().left(11).toStdString();
            resources.push_back(entry);
            json status{{"name", r.plural + "/status"},
                        {"singularName", ""},
                        {"namespaced", r.namespaced},
                        {"kind", r.kind},
                        {"verbs", {"get", "patch", "update"}}};
            resources.push_back(status);
        }
        return json{{"kind", "APIResourceList"},
                    {"apiVersion", "v1"},
                    {"groupVersion", group.empty() ? version : group + '/' + version},
                    {"resources", resources}};
    };
    auto groupJson = [&](const std::string &group) {
        std::vector<std::string> versions;
        std::string preferred;
        for (const ResourceInfo &r : table) {
            if (r.group != group) {
                continue;
            }
            if (preferred.empty()) {
                preferred = r.version;
            }
            for (const std::string &v : [&] {
                     std::vector<std::string> all{r.version};
                     all.insert(all.end(), r.extraVersions.begin(), r.extraVersions.end());
                     return all;
                 }()) {
                if (std::find(versions.begin(), versions.end(), v) == versions.end()) {
                    versions.push_back(v);
                }
            }
        }
        json vs = json::array();
        for (const std::string &v : versions) {
            vs.push_back(json{{"groupVersion", group + '/' + v}, {"version", v}});
        }
        return json{{"name", group},
                    {"versions", vs},
                    {"preferredVersion", {{"groupVersion", group + '/' + preferred}, {"version", preferred}}}};
    };
    json out;
    if (s.size() == 1 && s[0] == "version") {
        out = json{{"major", "1"},
                   {"minor", "32"},
                   {"gitVersion", "v1.32.4"},
                   {"gitCommit", "59526cd4867447956156ae3a602fcbac10a2c335"},
                   {"gitTreeState", "clean"},
                   {"buildDate", "2025-04-22T16:02:27Z"},
                   {"goVersion", "go1.23.6"},
                   {"compiler", "gc"},
                   {"platform", "linux/amd64"}};
    } else if (s.size() == 1 && s[0] == "api") {
        out = json{{"kind", "APIVersions"},
                   {"versions", {"v1"}},
                   {"serverAddressByClientCIDRs",
                    {{{"clientCIDR", "0.0.0.0/0"},
                      {"serverAddress", QStringLiteral("127.0.0.1:%1").arg(m_port).toStdString()}}}}};
    } else if (s.size() == 2 && s[0] == "api" && s[1] == "v1") {
        out = resourceList("", "v1");
    } else if (s.size() == 1 && s[0] == "apis") {
        json groups = json::array();
        std::vector<std::string> seen;
        for (const ResourceInfo &r : table) {
            if (!r.group.empty() && std::find(seen.begin(), seen.end(), r.group) == seen.end()) {
                seen.push_back(r.group);
                groups.push_back(groupJson(r.group));
            }
        }
        out = json{{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", groups}};
    } else if (s.size() == 2 && s[0] == "apis") {
        json g = groupJson(s[1]);
        if (g["versions"].empty()) {
            return;
        }
        g["kind"] = "APIGroup";
        g["apiVersion"] = "v1";
        out = g;
    } else if (s.size() == 3 && s[0] == "apis") {
        out = resourceList(s[1], s[2]);
        if (out["resources"].empty()) {
            return;
        }
    } else {
        return;
    }
    *handled = true;
    sendJson(ex, 200, bytes(out.dump()));
}

void KubeSimulator::serveOpenApi(const std::shared_ptr<KubeExchange> &ex, bool *handled)
{
    // kubectl create/apply ask /openapi/v3 whether the server validates fields itself
    // (fieldValidation on the PATCH operation of the kind); if so they skip client-side schema
    // validation and need no schemas. That is all served here.
    const auto &s = ex->segs;
    if (s.empty() || s[0] != "openapi" || ex->request.method != "GET") {
        return;
    }
    *handled = true;
    const auto &table = resourceTable();
    if (s.size() == 2 && s[1] == "v3") {
        json paths = json::object();
        for (const ResourceInfo &r : table) {
            std::vector<std::string> versions{r.version};
            versions.insert(versions.end(), r.extraVersions.begin(), r.extraVersions.end());
            for (const std::string &v : versions) {
                const std::string key = r.group.empty() ? "api/" + v : "apis/" + r.group + '/' + v;
                paths[key] = json{{"serverRelativeURL", "/openapi/v3/" + key + "?hash=5TRATA51M"}};
            }
        }
        sendJson(ex, 200, bytes(json{{"paths", paths}}.dump()));
        return;
    }
    if (s.size() >= 4 && s[1] == "v3") {
        const bool core = s[2] == "api";
        const std::string group = core ? std::string() : s[3];
        const std::string version = core ? s[3] : (s.size() > 4 ? s[4] : std::string());
        json paths = json::object();
        for (const ResourceInfo &r : table) {
            if (r.group != group || !r.servesVersion(version)) {
                continue;
            }
            const std::string prefix = core ? "/api/" + version : "/apis/" + group + '/' + version;
            const std::string item = prefix + (r.namespaced ? "/namespaces/{namespace}/" : "/") + r.plural + "/{name}";
            const json gvk{{"group", group}, {"version", version}, {"kind", r.kind}};
            const json params =
                json::array({json{{"name", "dryRun"}, {"in", "query"}, {"schema", {{"type", "string"}}}},
                             json{{"name", "fieldManager"}, {"in", "query"}, {"schema", {{"type", "string"}}}},
                             json{{"name", "fieldValidation"}, {"in", "query"}, {"schema", {{"type", "string"}}}}});
            const json op{{"x-kubernetes-group-version-kind", gvk},
                          {"x-kubernetes-action", "patch"},
                          {"parameters", params},
                          {"responses", {{"200", {{"description", "OK"}}}}}};
            paths[item] = json{{"patch", op}};
            json post = op;
            post["x-kubernetes-action"] = "post";
            paths[prefix + (r.namespaced ? "/namespaces/{namespace}/" : "/") + r.plural] = json{{"post", post}};
        }
        if (paths.empty()) {
            sendStatus(ex, 404, "NotFound", "the server could not find the requested resource");
            return;
        }
        const json doc{{"openapi", "3.0.0"},
                       {"info", {{"title", "Kubernetes"}, {"version", "v1.32.4"}}},
                       {"paths", paths},
                       {"components", json::object()}};
        sendJson(ex, 200, bytes(doc.dump()));
        return;
    }
    sendStatus(ex, 404, "NotFound", "the server could not find the requested resource");
}

// ---------------------------------------------------------------------------------------------
// Verbs

void KubeSimulator::list(const std::shared_ptr<KubeExchange> &ex, int resource, const std::string &ns)
{
    const ResourceInfo &info = resourceInfo(resource);
    std::string error;
    const auto labels = LabelSelector::parse(toStd(ex->request.queryValue(QStringLiteral("labelSelector"))), &error);
    if (!labels) {
        sendStatus(ex, 400, "BadRequest", "unable to parse requirement: " + error);
        return;
    }
    const auto fields =
        FieldSelector::parse(toStd(ex->request.queryValue(QStringLiteral("fieldSelector"))), resource, &error);
    if (!fields) {
        sendStatus(ex, 400, "BadRequest", error);
        return;
    }
    bool limitOk = true;
    const QString limitText = ex->request.queryValue(QStringLiteral("limit"));
    const qint64 limit = limitText.isEmpty() ? 0 : limitText.toLongLong(&limitOk);
    if (!limitOk || limit < 0) {
        sendStatus(ex, 400, "BadRequest", "invalid limit");
        return;
    }
    std::uint64_t listRv = m_store->currentRv();
    std::string start;
    const QString cont = ex->request.queryValue(QStringLiteral("continue"));
    if (!cont.isEmpty()) {
        std::int64_t rv = 0;
        if (!decodeContinue(toStd(cont), &rv, &start)) {
            sendStatus(ex,
                       400,
                       "BadRequest",
                       "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
            return;
        }
        if (rv >= 0 && static_cast<std::uint64_t>(rv) < m_store->compactedRv()) {
            json s = statusJson(410, "Expired", ContinueTooOld);
            s["metadata"]["continue"] = encodeContinue(-1, start);
            sendJson(ex, 410, bytes(s.dump()));
            return;
        }
        if (rv > 0) {
            listRv = static_cast<std::uint64_t>(rv);
        }
        if (!ns.empty() && start.rfind(ns + '/', 0) != 0) {
            start = ns + '/' + start;
        }
    }
    const auto &objects = m_store->all(resource);
    const std::string prefix = ns.empty() ? std::string() : ns + '/';
    auto it = objects.lower_bound(std::max(prefix, start));
    std::vector<const StoredObject *> page;
    std::string lastKey;
    bool more = false;
    const bool filtered = !labels->empty() || !fields->empty();
    for (; it != objects.end(); ++it) {
        if (!prefix.empty() && it->first.compare(0, prefix.size(), prefix) != 0) {
            break;
        }
        const json &o = it->second->obj();
        if (filtered && !(labels->matches(o) && fields->matches(o))) {
            continue;
        }
        if (limit > 0 && static_cast<qint64>(page.size()) == limit) {
            more = true;
            break;
        }
        page.push_back(it->second.get());
        lastKey = it->first;
    }
    json listMeta{{"resourceVersion", std::to_string(listRv)}};
    if (more) {
        // The token's start key is relative to the namespace, as the real server's is.
        const std::string relative = prefix.empty() ? lastKey : lastKey.substr(prefix.size());
        listMeta["continue"] = encodeContinue(static_cast<std::int64_t>(listRv), relative + '\0');
        if (!filtered) {
            std::size_t remaining = 0;
            for (auto r = it; r != objects.end(); ++r) {
                if (!prefix.empty() && r->first.compare(0, prefix.size(), prefix) != 0) {
                    break;
                }
                ++remaining;
            }
            listMeta["remainingItemCount"] = remaining;
        }
    }
    const std::string apiVersion = info.group.empty() ? ex->version : info.group + '/' + ex->version;
    if (ex->table) {
        json rows = json::array();
        for (const StoredObject *o : page) {
            rows.push_back(tableRow(resource, o->obj(), m_nowMs, ex->includeObject, apiVersion));
        }
        const json table{{"kind", "Table"},
                         {"apiVersion", "meta.k8s.io/v1"},
                         {"metadata", listMeta},
                         {"columnDefinitions", tableColumns(resource)},
                         {"rows", rows}};
        sendJson(ex, 200, bytes(table.dump()));
        return;
    }
    std::string body;
    body.reserve(4096 + page.size() * 2048);
    body += "{\"kind\":\"" + info.kind + "List\",\"apiVersion\":\"" + apiVersion + "\",\"metadata\":";
    body += listMeta.dump();
    body += ",\"items\":[";
    for (std::size_t n = 0; n < page.size(); ++n) {
        if (n > 0) {
            body += ',';
        }
        body += objectBytesFor(*page[n], info, ex->version);
    }
    body += "]}";
    sendJson(ex, 200, bytes(body));
}

void KubeSimulator::watch(const std::shared_ptr<KubeExchange> &ex, int resource, const std::string &ns)
{
    std::string error;
    auto labels = LabelSelector::parse(toStd(ex->request.queryValue(QStringLiteral("labelSelector"))), &error);
    if (!labels) {
        sendStatus(ex, 400, "BadRequest", "unable to parse requirement: " + error);
        return;
    }
    auto fields =
        FieldSelector::parse(toStd(ex->request.queryValue(QStringLiteral("fieldSelector"))), resource, &error);
    if (!fields) {
        sendStatus(ex, 400, "BadRequest", error);
        return;
    }
    const QString rvText = ex->request.queryValue(QStringLiteral("resourceVersion"));
    bool rvOk = true;
    const std::uint64_t rv = rvText.isEmpty() ? 0 : rvText.toULongLong(&rvOk);
    if (!rvOk) {
        sendStatus(ex, 400, "BadRequest", "invalid resource version: " + toStd(rvText));
        return;
    }
    auto w = std::make_unique<KubeWatch>();
    w->id = m_nextWatchId++;
    w->resource = resource;
    w->version = ex->version;
    w->ns = ns;
    w->labels = std::move(*labels);
    w->fields = std::move(*fields);
    const QString bm = ex->request.queryValue(QStringLiteral("allowWatchBookmarks"));
    w->bookmarks = bm == QLatin1String("true") || bm == QLatin1String("1");
    w->responder = ex->responder;
    w->table = ex->table;
    w->includeObject = ex->includeObject;
    ex->responder.beginStream(200,
                              {{QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json")},
                               {QByteArrayLiteral("Cache-Control"), QByteArrayLiteral("no-cache, private")}});
    qCInfo(lcKubeSim).noquote() << "WATCH" << QString::fromUtf8(ex->request.target);
    const ResourceInfo &info = resourceInfo(resource);
    if (rv == 0) {
        // No or "0" resourceVersion: the current state as synthetic ADDED events, then changes.
        const auto &objects = m_store->all(resource);
        const std::string prefix = ns.empty() ? std::string() : ns + '/';
        for (auto it = objects.lower_bound(prefix); it != objects.end(); ++it) {
            if (!prefix.empty() && it->first.compare(0, prefix.size(), prefix) != 0) {
                break;
            }
            if (watchMatches(*w, it->second->obj())) {
                w->responder.writeChunk(watchLine("ADDED", watchObject(*w, *it->second, info, m_nowMs)));
            }
        }
        const QString initial = ex->request.queryValue(QStringLiteral("sendInitialEvents"));
        if (w->bookmarks && initial == QLatin1String("true")) {
            const json bookmark{{"kind", info.kind},
                                {"apiVersion", info.group.empty() ? w->version : info.group + '/' + w->version},
                                {"metadata",
                                 {{"resourceVersion", std::to_string(m_store->currentRv())},
                                  {"annotations", {{"k8s.io/initial-events-end", "true"}}}}}};
            w->responder.writeChunk(watchLine("BOOKMARK", bookmark.dump()));
        }
    } else if (rv < m_store->watchFloor()) {
        const json status = statusJson(410,
                                       "Expired",
                                       "too old resource version: " + std::to_string(rv) + " ("
                                           + std::to_string(m_store->watchFloor()) + ")");
        w->responder.writeChunk(watchLine("ERROR", status.dump()));
        w->responder.endStream();
        return;
    } else {
        for (const StoreEvent &event : m_store->history()) {
            if (event.rv <= rv || event.resource != resource) {
                continue;
            }
            const bool now = watchMatches(*w, event.object->obj());
            const bool before =
                event.previous && event.type == EventType::Modified ? watchMatches(*w, event.previous->obj()) : now;
            const char *type = nullptr;
            if (event.type == EventType::Modified) {
                type = now && before ? "MODIFIED" : now ? "ADDED" : before ? "DELETED" : nullptr;
            } else if (now) {
                type = eventTypeName(event.type);
            }
            if (type) {
                w->responder.writeChunk(watchLine(type, watchObject(*w, *event.object, info, m_nowMs)));
            }
        }
    }
    // The real server closes a watch after timeoutSeconds, or after 30-60 min without one.
    bool timeoutOk = false;
    int timeoutSeconds = ex->request.queryValue(QStringLiteral("timeoutSeconds")).toInt(&timeoutOk);
    if (!timeoutOk || timeoutSeconds <= 0) {
        timeoutSeconds = 1800;
    }
    w->timeout = std::make_unique<QTimer>();
    w->timeout->setSingleShot(true);
    const std::uint64_t id = w->id;
    connect(w->timeout.get(), &QTimer::timeout, this, [this, id] {
        endWatch(id, false);
    });
    w->timeout->start(std::chrono::seconds(timeoutSeconds));
    m_watches.emplace(id, std::move(w));
}

void KubeSimulator::getOne(const std::shared_ptr<KubeExchange> &ex,
                           int resource,
                           const std::string & /*ns*/,
                           const std::string & /*name*/,
                           const ObjectPtr &o)
{
    const ResourceInfo &info = resourceInfo(resource);
    if (ex->table) {
        const std::string apiVersion = info.group.empty() ? ex->version : info.group + '/' + ex->version;
        const json table{{"kind", "Table"},
                         {"apiVersion", "meta.k8s.io/v1"},
                         {"metadata", {{"resourceVersion", std::to_string(o->rv)}}},
                         {"columnDefinitions", tableColumns(resource)},
                         {"rows", json::array({tableRow(resource, o->obj(), m_nowMs, ex->includeObject, apiVersion)})}};
        sendJson(ex, 200, bytes(table.dump()));
        return;
    }
    sendJson(ex, 200, bytes(objectBytesFor(*o, info, ex->version)));
}

void KubeSimulator::create(const std::shared_ptr<KubeExchange> &ex, int resource, const std::string &ns)
{
    const ResourceInfo &info = resourceInfo(resource);
    json object = json::parse(ex->request.body.toStdString(), nullptr, false);
    {
        const json *meta = object.is_object() && object.contains("metadata") ? &object["metadata"] : nullptr;
        const bool named = meta && meta->is_object() && meta->contains("name") && (*meta)["name"].is_string();
        m_createRequests[QString::fromStdString(info.plural)]
            << (named ? QString::fromStdString((*meta)["name"].get<std::string>()) : QString());
    }
    if (!object.is_object()) {
        sendStatus(ex,
                   400,
                   "BadRequest",
                   "the body of the request was in an unknown format - accepted media types include: "
                   "application/json, application/yaml, application/vnd.kubernetes.protobuf");
        return;
    }
    const std::string expectedApiVersion = info.group.empty() ? ex->version : info.group + '/' + ex->version;
    if (object.value("kind", info.kind) != info.kind
        || object.value("apiVersion", expectedApiVersion) != expectedApiVersion) {
        sendStatus(ex,
                   400,
                   "BadRequest",
                   "the API version in the data (" + object.value("apiVersion", std::string())
                       + ") does not match the expected API version (" + expectedApiVersion + ")");
        return;
    }
    object["kind"] = info.kind;
    object["apiVersion"] = info.apiVersion();
    if (!object.contains("metadata") || !object["metadata"].is_object()) {
        object["metadata"] = json::object();
    }
    json &meta = object["metadata"];
    if (info.namespaced) {
        const std::string given = meta.value("namespace", std::string());
        if (!given.empty() && given != ns) {
            sendStatus(ex,
                       400,
                       "BadRequest",
                       "the namespace of the provided object does not match the namespace sent on the request");
            return;
        }
        meta["namespace"] = ns;
        if (!m_store->get(RNamespaces, {}, ns)) {
            sendStatus(ex,
                       404,
                       "NotFound",
                       "namespaces \"" + ns + "\" not found",
                       bytes(json{{"name", ns}, {"kind", "namespaces"}}.dump()));
            return;
        }
    } else {
        meta.erase("namespace");
    }
    std::string name = meta.value("name", std::string());
    const std::string generateName = meta.value("generateName", std::string());
    if (name.empty() && !generateName.empty()) {
        for (int attempt = 0; attempt < 8; ++attempt) {
            name = generateName + m_store->randomSuffix();
            if (!m_store->get(resource, ns, name)) {
                break;
            }
        }
        meta["name"] = name;
    }
    const std::string kindName = info.group.empty() ? info.kind : info.kind + '.' + info.group;
    if (name.empty()) {
        json s =
            statusJson(422,
                       "Invalid",
                       kindName + " \"\" is invalid: metadata.name: Required value: name or generateName is required");
        s["details"] = json{{"kind", info.kind},
                            {"causes",
                             {{{"reason", "FieldValueRequired"},
                               {"message", "Required value: name or generateName is required"},
                               {"field", "metadata.name"}}}}};
        if (!info.group.empty()) {
            s["details"]["group"] = info.group;
        }
        sendJson(ex, 422, bytes(s.dump()));
        return;
    }
    const bool labelName = resource == RNamespaces || resource == RJobs;
    if (!validName(name, !labelName)) {
        const std::string why = labelName ? "a lowercase RFC 1123 label must consist of lower case alphanumeric "
                                            "characters or '-', and must start and end with an alphanumeric character"
                                          : "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                                            "characters, '-' or '.', and must start and end with an alphanumeric "
                                            "character";
        json s = statusJson(422,
                            "Invalid",
                            kindName + " \"" + name + "\" is invalid: metadata.name: Invalid value: \"" + name
                                + "\": " + why);
        s["details"] = json{{"name", name},
                            {"kind", info.kind},
                            {"causes",
                             {{{"reason", "FieldValueInvalid"},
                               {"message", "Invalid value: \"" + name + "\": " + why},
                               {"field", "metadata.name"}}}}};
        sendJson(ex, 422, bytes(s.dump()));
        return;
    }
    if (m_store->get(resource, ns, name)) {
        sendStatus(ex,
                   409,
                   "AlreadyExists",
                   info.qualifiedName() + " \"" + name + "\" already exists",
                   bytes(detailsFor(info, name).dump()));
        return;
    }
    for (const char *field : {"uid", "resourceVersion", "creationTimestamp", "deletionTimestamp", "generation"}) {
        meta.erase(field);
    }
    m_cluster->admit(resource, object);
    if (ex->request.queryValue(QStringLiteral("dryRun")) == QLatin1String("All")) {
        meta["uid"] = m_store->newUid();
        meta["creationTimestamp"] = m_store->timestamp();
        sendJson(ex, 201, bytes(object.dump()));
        return;
    }
    const ObjectPtr stored = m_store->create(resource, std::move(object));
    sendJson(ex, 201, bytes(objectBytesFor(*stored, info, ex->version)));
}

ObjectPtr KubeSimulator::findOrNotFound(const std::shared_ptr<KubeExchange> &ex,
                                        int resource,
                                        const std::string &ns,
                                        const std::string &name)
{
    ObjectPtr object = m_store->get(resource, ns, name);
    if (!object) {
        const ResourceInfo &info = resourceInfo(resource);
        sendStatus(ex,
                   404,
                   "NotFound",
                   info.qualifiedName() + " \"" + name + "\" not found",
                   bytes(detailsFor(info, name).dump()));
    }
    return object;
}

bool KubeSimulator::isCurrentVersion(const std::shared_ptr<KubeExchange> &ex,
                                     const ResourceInfo &info,
                                     const std::string &name,
                                     const json &written,
                                     const StoredObject &current)
{
    const std::string rv = metaString(written, "resourceVersion");
    if (!rv.empty() && rv != std::to_string(current.rv)) {
        sendStatus(
            ex,
            409,
            "Conflict",
            "Operation cannot be fulfilled on " + info.qualifiedName() + " \"" + name
                + "\": the object has been modified; please apply your changes to the latest version and try again",
            bytes(detailsFor(info, name).dump()));
        return false;
    }
    return true;
}

void KubeSimulator::update(const std::shared_ptr<KubeExchange> &ex,
                           int resource,
                           const std::string &ns,
                           const std::string &name,
                           const ObjectPtr &current)
{
    const ResourceInfo &info = resourceInfo(resource);
    json object = json::parse(ex->request.body.toStdString(), nullptr, false);
    if (!object.is_object() || metaString(object, "name") != name) {
        sendStatus(ex,
                   400,
                   "BadRequest",
                   "the name of the object (" + metaString(object, "name") + ") does not match the name on the URL ("
                       + name + ")");
        return;
    }
    if (!isCurrentVersion(ex, info, name, object, *current)) {
        return;
    }
    stampKubeIdentity(object, info, ns);
    const ObjectPtr stored = m_store->replace(resource, std::move(object));
    sendJson(ex, 200, bytes(objectBytesFor(*stored, info, ex->version)));
}

void KubeSimulator::patch(const std::shared_ptr<KubeExchange> &ex,
                          int resource,
                          const std::string &ns,
                          const std::string &name,
                          const ObjectPtr &current)
{
    const ResourceInfo &info = resourceInfo(resource);
    const QByteArray type = ex->request.header("content-type").split(';').value(0).trimmed().toLower();
    const json body = json::parse(ex->request.body.toStdString(), nullptr, false);
    if (body.is_discarded()) {
        sendStatus(ex, 400, "BadRequest", "error decoding patch: invalid JSON");
        return;
    }
    json next = current->obj();
    if (type == "application/merge-patch+json" || type == "application/strategic-merge-patch+json") {
        if (!body.is_object()) {
            sendStatus(ex, 400, "BadRequest", "error decoding patch: a merge patch must be a JSON object");
            return;
        }
        next.merge_patch(body);
    } else if (type == "application/json-patch+json") {
        try {
            next = next.patch(body);
        } catch (const std::exception &e) {
            sendStatus(ex,
                       422,
                       "Invalid",
                       std::string("the server rejected our request due to an error in our request: ") + e.what());
            return;
        }
    } else {
        sendStatus(ex,
                   415,
                   "UnsupportedMediaType",
                   "the body of the request was in an unknown format - accepted media types include: "
                   "application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json");
        return;
    }
    if (!isCurrentVersion(ex, info, name, next, *current)) {
        return;
    }
    next["metadata"]["name"] = name;
    stampKubeIdentity(next, info, ns);
    if (next == current->obj()) {
        sendJson(ex, 200, bytes(objectBytesFor(*current, info, ex->version)));
        return;
    }
    const ObjectPtr stored = m_store->replace(resource, std::move(next));
    sendJson(ex, 200, bytes(objectBytesFor(*stored, info, ex->version)));
}

void KubeSimulator::remove(const std::shared_ptr<KubeExchange> &ex,
                           int resource,
                           const std::string &ns,
                           const std::string &name,
                           const ObjectPtr &current)
{
    const ResourceInfo &info = resourceInfo(resource);
    std::string policy = toStd(ex->request.queryValue(QStringLiteral("propagationPolicy")));
    const json options = json::parse(ex->request.body.toStdString(), nullptr, false);
    if (policy.empty() && options.is_object()) {
        policy = options.value("propagationPolicy", std::string());
        if (options.contains("orphanDependents") && options["orphanDependents"].is_boolean()
            && options["orphanDependents"].get<bool>()) {
            policy = "Orphan";
        }
    }
    const std::string uid = metaString(current->obj(), "uid");
    // The garbage collector's part: dependents (ownerReferences) go too unless orphaned; a
    // namespace takes everything in it.
    std::vector<std::pair<int, std::string>> dependents; // (resource, key)
    if (resource == RNamespaces) {
        for (int r = 0; r < RResourceCount; ++r) {
            if (!resourceInfo(r).namespaced) {
                continue;
            }
            const auto &objects = m_store->all(r);
            for (auto it = objects.lower_bound(name + '/');
                 it != objects.end() && it->first.compare(0, name.size() + 1, name + '/') == 0;
                 ++it) {
                dependents.emplace_back(r, it->first);
            }
        }
    } else if (policy != "Orphan") {
        std::vector<std::string> owners{uid};
        for (std::size_t o = 0; o < owners.size(); ++o) {
            for (int r = 0; r < RResourceCount; ++r) {
                if (!resourceInfo(r).namespaced || r == REvents) {
                    continue;
                }
                const auto &objects = m_store->all(r);
                for (auto it = info.namespaced ? objects.lower_bound(ns + '/') : objects.begin(); it != objects.end();
                     ++it) {
                    if (info.namespaced && it->first.compare(0, ns.size() + 1, ns + '/') != 0) {
                        break;
                    }
                    const json &meta = it->second->obj()["metadata"];
                    const auto refs = meta.find("ownerReferences");
                    if (refs == meta.end() || !refs->is_array()) {
                        continue;
                    }
                    for (const json &ref : *refs) {
                        if (ref.value("uid", std::string()) == owners[o]) {
                            dependents.emplace_back(r, it->first);
                            owners.push_back(meta.value("uid", std::string()));
                            break;
                        }
                    }
                }
            }
        }
    }
    ObjectPtr last;
    if (resource == RNamespaces) {
        json terminating = current->obj();
        terminating["status"]["phase"] = "Terminating";
        terminating["metadata"]["deletionTimestamp"] = m_store->timestamp();
        last = m_store->replace(resource, terminating);
    }
    const ObjectPtr removed = m_store->remove(resource, ns, name);
    for (const auto &[r, key] : dependents) {
        const auto slash = key.find('/');
        m_store->remove(r, key.substr(0, slash), key.substr(slash + 1));
    }
    sendJson(ex, 200, bytes(objectBytesFor(last ? *last : *removed, info, ex->version)));
}

} // namespace strata::sim::kube
