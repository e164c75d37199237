#include "simulators/datalake/datalakewiring.h"

#include "simulators/datalake/cacheworkloads.h"
#include "simulators/kubernetes/kubesimulator.h"
#include "simulators/ontap/ontapsimulator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <nlohmann/json.hpp>

namespace strata::sim::datalake {

using nlohmann::json;

namespace {

std::string text(const json *object, const char *key)
{
    const json *v = object ? jsonMember(*object, key) : nullptr;
    return v && v->is_string() ? v->get<std::string>() : std::string();
}

std::string commit16(const std::string &id)
{
    return id.substr(0, 16);
}

/// A pod that cannot do its work (its cache claim is unknown): exits 1 with the reason at once,
/// in the loader protocol's form so the reason reaches the cache state.
class FailingWorkload final : public kube::SimWorkload
{
public:
    explicit FailingWorkload(std::string reason)
        : m_reason(std::move(reason))
    {}
    kube::SimWorkloadStep step(std::chrono::milliseconds) override
    {
        kube::SimWorkloadStep out;
        out.logLines.push_back(json{{"event", "failed"}, {"reason", m_reason}}.dump());
        out.outcome = kube::SimWorkloadStep::Outcome::Failed;
        out.message = m_reason;
        return out;
    }

private:
    std::string m_reason;
};

// The claim mounted at /cache by the Job's first container (else its first PVC).
std::string cacheClaim(const json &job)
{
    const json *podSpec = nullptr;
    if (const json *spec = jsonMember(job, "spec")) {
        if (const json *templ = jsonMember(*spec, "template")) {
            podSpec = jsonMember(*templ, "spec");
        }
    }
    if (!podSpec) {
        return {};
    }
    std::string volumeName;
    if (const json *containers = jsonMember(*podSpec, "containers"); containers && containers->is_array()) {
        for (const json &c : *containers) {
            if (const json *mounts = jsonMember(c, "volumeMounts"); mounts && mounts->is_array()) {
                for (const json &m : *mounts) {
                    if (text(&m, "mountPath") == "/cache") {
                        volumeName = text(&m, "name");
                    }
                }
            }
            break;
        }
    }
    std::string first;
    if (const json *volumes = jsonMember(*podSpec, "volumes"); volumes && volumes->is_array()) {
        for (const json &v : *volumes) {
            const std::string claim = text(jsonMember(v, "persistentVolumeClaim"), "claimName");
            if (claim.empty()) {
                continue;
            }
            if (first.empty()) {
                first = claim;
            }
            if (!volumeName.empty() && text(&v, "name") == volumeName) {
                return claim;
            }
        }
    }
    return first;
}

json toJson(const QJsonObject &object)
{
    return json::parse(QJsonDocument(object).toJson(QJsonDocument::Compact).toStdString(), nullptr, false);
}

} // namespace

DatalakeWiring::DatalakeWiring(kube::KubeSimulator &kube,
                               ontap::OntapSimulator &ontap,
                               const storagegrid::S3Store &store,
                               Options options)
    : m_kube(kube)
    , m_ontap(ontap)
    , m_store(store)
    , m_options(std::move(options))
{}

DatalakeWiring::~DatalakeWiring()
{
    uninstall();
}

void DatalakeWiring::install()
{
    {
        std::lock_guard lock(m_mutex);
        if (m_installed) {
            return;
        }
        m_installed = true;
    }
    m_kube.setWorkloadRunner([this](const json &job) {
        return runnerFor(job);
    });
}

void DatalakeWiring::uninstall()
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_installed) {
            return;
        }
        m_installed = false;
    }
    m_kube.setWorkloadRunner({});
}

void DatalakeWiring::mapClaim(const QString &ns, const QString &claim, const QString &svm, const QString &volume)
{
    std::lock_guard lock(m_mutex);
    m_claims[ns.toStdString() + '/' + claim.toStdString()] = CacheVolume{svm.toStdString(), volume.toStdString()};
}

bool DatalakeWiring::addCacheVolume(
    const QString &ns, const QString &claim, const QString &svm, const QString &volume, QString *error)
{
    const auto fail = [&](const QString &why) {
        if (error) {
            *error = why;
        }
        return false;
    };
    const auto ontapVolume = m_ontap.volumeByName(svm, volume);
    if (!ontapVolume) {
        return fail(QStringLiteral("ONTAP volume %1/%2 not found").arg(svm, volume));
    }
    if (!m_kube.object(QStringLiteral("namespaces"), {}, ns)) {
        const QJsonObject nsObject{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), ns}}}};
        if (!m_kube.createObject(QStringLiteral("namespaces"), nsObject, error)) {
            return false;
        }
    }
    QString pvName = QStringLiteral("strata-cache-") + volume;
    pvName.replace(QLatin1Char('_'), QLatin1Char('-'));
    const QString size = QString::number(ontapVolume->size);
    const QJsonArray modes{QStringLiteral("ReadWriteMany")};
    const QJsonObject pv{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), pvName}}},
                         {QStringLiteral("spec"),
                          QJsonObject{{QStringLiteral("capacity"), QJsonObject{{QStringLiteral("storage"), size}}},
                                      {QStringLiteral("accessModes"), modes},
                                      {QStringLiteral("persistentVolumeReclaimPolicy"), QStringLiteral("Retain")},
                                      {QStringLiteral("storageClassName"), QString()},
                                      {QStringLiteral("volumeMode"), QStringLiteral("Filesystem")},
                                      {QStringLiteral("nfs"),
                                       QJsonObject{{QStringLiteral("server"), QStringLiteral("10.61.218.20")},
                                                   {QStringLiteral("path"), QString(QLatin1Char('/') + volume)}}},
                                      {QStringLiteral("claimRef"),
                                       QJsonObject{{QStringLiteral("kind"), QStringLiteral("PersistentVolumeClaim")},
                                                   {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                                                   {QStringLiteral("namespace"), ns},
                                                   {QStringLiteral("name"), claim}}}}},
                         {QStringLiteral("status"), QJsonObject{{QStringLiteral("phase"), QStringLiteral("Bound")}}}};
    const QJsonObject pvc{
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), claim}, {QStringLiteral("namespace"), ns}}},
        {QStringLiteral("spec"),
         QJsonObject{{QStringLiteral("accessModes"), modes},
                     {QStringLiteral("resources"),
                      QJsonObject{{QStringLiteral("requests"), QJsonObject{{QStringLiteral("storage"), size}}}}},
                     {QStringLiteral("storageClassName"), QString()},
                     {QStringLiteral("volumeMode"), QStringLiteral("Filesystem")},
                     {QStringLiteral("volumeName"), pvName}}},
        {QStringLiteral("status"),
         QJsonObject{{QStringLiteral("phase"), QStringLiteral("Bound")},
                     {QStringLiteral("accessModes"), modes},
                     {QStringLiteral("capacity"), QJsonObject{{QStringLiteral("storage"), size}}}}}};
    if (!m_kube.createObject(QStringLiteral("persistentvolumes"), pv, error)
        || !m_kube.createObject(QStringLiteral("persistentvolumeclaims"), pvc, error)) {
        return false;
    }
    mapClaim(ns, claim, svm, volume);
    return true;
}

void DatalakeWiring::failNextLoaderAfter(const QString &commitId, int objects)
{
    std::lock_guard lock(m_mutex);
    m_failAfter[commit16(commitId.toStdString())] = objects;
}

void DatalakeWiring::setLoaderBytesPerSecond(double bytesPerSecond)
{
    std::lock_guard lock(m_mutex);
    m_options.loaderBytesPerSecond = bytesPerSecond;
}

std::optional<CacheBook::Entry>
DatalakeWiring::cached(const QString &svm, const QString &volume, const QString &dir) const
{
    return m_book->entry(CacheVolume{svm.toStdString(), volume.toStdString()}, dir.toStdString());
}

int DatalakeWiring::loaderPods() const
{
    std::lock_guard lock(m_mutex);
    return m_loaderPods;
}

int DatalakeWiring::evictorPods() const
{
    std::lock_guard lock(m_mutex);
    return m_evictorPods;
}

SpaceChanger DatalakeWiring::spaceChanger()
{
    return [this](const CacheVolume &volume, std::int64_t delta, std::int64_t *available) {
        qint64 free = 0;
        const auto result = m_ontap.changeVolumeUsed(
            QString::fromStdString(volume.svm), QString::fromStdString(volume.volume), delta, nullptr, &free);
        if (available) {
            *available = free;
        }
        return result == ontap::OntapSimulator::SpaceChange::Changed;
    };
}

std::optional<CacheVolume>
DatalakeWiring::resolveClaim(const std::string &ns, const std::string &claim, std::string *why)
{
    {
        std::lock_guard lock(m_mutex);
        if (const auto it = m_claims.find(ns + '/' + claim); it != m_claims.end()) {
            return it->second;
        }
    }
    const auto pvc = m_kube.object(
        QStringLiteral("persistentvolumeclaims"), QString::fromStdString(ns), QString::fromStdString(claim));
    if (!pvc) {
        *why = "persistentvolumeclaim \"" + claim + "\" not found in namespace " + ns;
        return std::nullopt;
    }
    const json pvcJson = toJson(*pvc);
    const std::string pvName = text(jsonMember(pvcJson, "spec"), "volumeName");
    const auto pv = pvName.empty()
                        ? std::nullopt
                        : m_kube.object(QStringLiteral("persistentvolumes"), {}, QString::fromStdString(pvName));
    if (!pv) {
        *why = "persistentvolumeclaim " + ns + "/" + claim + " is not bound to a volume";
        return std::nullopt;
    }
    const json pvJson = toJson(*pv);
    const json *spec = jsonMember(pvJson, "spec");
    std::vector<std::string> candidates;
    std::string nfsPath = text(spec ? jsonMember(*spec, "nfs") : nullptr, "path");
    while (!nfsPath.empty() && nfsPath.front() == '/') {
        nfsPath.erase(0, 1);
    }
    if (!nfsPath.empty() && nfsPath.find('/') == std::string::npos) {
        candidates.push_back(nfsPath);
    }
    const json *csi = spec ? jsonMember(*spec, "csi") : nullptr;
    if (const std::string internal = text(csi ? jsonMember(*csi, "volumeAttributes") : nullptr, "internalName");
        !internal.empty()) {
        candidates.push_back(internal);
    }
    QStringList svms;
    {
        std::lock_guard lock(m_mutex);
        svms = m_options.svms;
    }
    for (const std::string &name : candidates) {
        for (const QString &svm : svms) {
            if (m_ontap.volumeByName(svm, QString::fromStdString(name))) {
                CacheVolume volume{svm.toStdString(), name};
                std::lock_guard lock(m_mutex);
                m_claims[ns + '/' + claim] = volume;
                return volume;
            }
        }
    }
    *why =
        "persistentvolume " + pvName + " of claim " + ns + "/" + claim + " is not an ONTAP volume the simulator knows";
    return std::nullopt;
}

std::unique_ptr<kube::SimWorkload> DatalakeWiring::runnerFor(const json &job)
{
    const json *meta = jsonMember(job, "metadata");
    const std::string role = text(meta ? jsonMember(*meta, "labels") : nullptr, "strata.io/role");
    if (role != "cache-loader" && role != "cache-evictor") {
        return nullptr;
    }
    const std::string ns = text(meta, "namespace");
    const std::string claim = cacheClaim(job);
    std::string why;
    std::optional<CacheVolume> volume = claim.empty() ? std::nullopt : resolveClaim(ns, claim, &why);
    if (claim.empty()) {
        why = "the Job mounts no PersistentVolumeClaim at /cache";
    }
    if (role == "cache-evictor") {
        {
            std::lock_guard lock(m_mutex);
            ++m_evictorPods;
        }
        if (!volume) {
            return std::make_unique<FailingWorkload>(why);
        }
        // command: ["rm", "-rf", "/cache/<dataset>/<commit16>"]
        std::string dir;
        const json *spec = jsonMember(job, "spec");
        const json *templ = spec ? jsonMember(*spec, "template") : nullptr;
        const json *podSpec = templ ? jsonMember(*templ, "spec") : nullptr;
        const json *containers = podSpec ? jsonMember(*podSpec, "containers") : nullptr;
        if (containers && containers->is_array() && !containers->empty()) {
            if (const json *command = jsonMember(containers->front(), "command"); command && command->is_array()) {
                for (const json &arg : *command) {
                    if (arg.is_string() && arg.get<std::string>().rfind("/cache/", 0) == 0) {
                        dir = arg.get<std::string>().substr(7);
                    }
                }
            }
        }
        while (!dir.empty() && dir.back() == '/') {
            dir.pop_back();
        }
        if (dir.empty()) {
            return std::make_unique<FailingWorkload>("the evictor Job names no directory under /cache");
        }
        return std::make_unique<CacheEvictorWorkload>(*volume, dir, m_book, spaceChanger());
    }
    LoaderSettings settings;
    {
        std::lock_guard lock(m_mutex);
        ++m_loaderPods;
        settings.bytesPerSecond = m_options.loaderBytesPerSecond;
    }
    if (!volume) {
        return std::make_unique<FailingWorkload>(why);
    }
    auto config = CacheLoaderWorkload::configFromJob(job, &why);
    if (!config) {
        return std::make_unique<FailingWorkload>(why);
    }
    {
        std::lock_guard lock(m_mutex);
        if (const auto it = m_failAfter.find(commit16(config->commitId)); it != m_failAfter.end()) {
            settings.failAfterObjects = it->second;
            m_failAfter.erase(it);
        }
    }
    config->volume = *volume;
    return std::make_unique<CacheLoaderWorkload>(std::move(*config), settings, m_store, m_book, spaceChanger());
}

} // namespace strata::sim::datalake
