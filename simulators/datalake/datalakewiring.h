#pragma once

#include "simulators/datalake/cacheworkloads.h"

#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace strata::sim::kube {
class KubeSimulator;
}
namespace strata::sim::ontap {
class OntapSimulator;
}

namespace strata::sim::datalake {

/// Options of a DatalakeWiring.
struct DatalakeWiringOptions
{
    /// Copy rate of each loader pod in simulated time (the demo: ~20 MB/s, loads take seconds).
    double loaderBytesPerSecond = 20e6;
    /// SVMs searched (in order) for a volume named by a PV's NFS path or Trident internalName
    /// when the claim was not mapped explicitly.
    QStringList svms{QStringLiteral("svm_cache"), QStringLiteral("svm_ai")};
};

/// Connects the three simulators for cached commits: installs the Kubernetes simulator's workload
/// runner so that Jobs labelled `strata.io/role=cache-loader` run a CacheLoaderWorkload (reading the
/// StorageGRID simulator's store) and `strata.io/role=cache-evictor` a CacheEvictorWorkload, both
/// growing or shrinking the ONTAP simulator volume behind the Job's /cache PVC. Other Jobs run as
/// before.
///
/// The PVC mounted at /cache maps to an ONTAP volume by mapClaim() (or addCacheVolume()), else
/// through its PV: spec.nfs.path "/<volume>" or the Trident csi volumeAttributes.internalName,
/// looked up in options().svms. A loader whose claim maps to nothing fails at once with a reason.
///
/// The simulators may live on different threads; the runner runs on the Kubernetes simulator's
/// thread and calls the ONTAP simulator's thread-safe API (blocking). Every public function here
/// is thread-safe. The simulators must outlive the wiring (the destructor removes the runner).
class DatalakeWiring final
{
public:
    using Options = DatalakeWiringOptions;

    DatalakeWiring(kube::KubeSimulator &kube,
                   ontap::OntapSimulator &ontap,
                   const storagegrid::S3Store &store,
                   Options options = {});
    ~DatalakeWiring();
    DatalakeWiring(const DatalakeWiring &) = delete;
    DatalakeWiring &operator=(const DatalakeWiring &) = delete;

    /// Installs the runner (idempotent).
    void install();
    /// Removes it: Jobs created afterwards run as ordinary pods.
    void uninstall();

    /// Claim `ns/claim` is backed by ONTAP volume `svm/volume`.
    void mapClaim(const QString &ns, const QString &claim, const QString &svm, const QString &volume);
    /// Creates a static NFS PV "strata-cache-<volume>" (server 10.61.218.20, path "/<volume>",
    /// capacity = the volume's size) and a PVC `ns/claim` bound to it in the Kubernetes simulator
    /// (the namespace is created when missing), and maps the claim. False with `error` when the
    /// ONTAP volume does not exist or an object already exists.
    bool addCacheVolume(
        const QString &ns, const QString &claim, const QString &svm, const QString &volume, QString *error = nullptr);

    /// Fault for tests: the next loader pod of `commitId` (64 hex or its first 16) fails after
    /// copying `objects` objects; its retry (backoffLimit) resumes normally.
    void failNextLoaderAfter(const QString &commitId, int objects);
    /// Changes the copy rate of loader pods started from now on.
    void setLoaderBytesPerSecond(double bytesPerSecond);

    /// What the cache holds for `dir` ("<dataset>/<commit16>") on `svm/volume`.
    [[nodiscard]] std::optional<CacheBook::Entry>
    cached(const QString &svm, const QString &volume, const QString &dir) const;
    /// Loader and evictor pods started so far.
    [[nodiscard]] int loaderPods() const;
    [[nodiscard]] int evictorPods() const;
    [[nodiscard]] const std::shared_ptr<CacheBook> &book() const { return m_book; }

private:
    std::unique_ptr<kube::SimWorkload> runnerFor(const nlohmann::json &job);
    std::optional<CacheVolume> resolveClaim(const std::string &ns, const std::string &claim, std::string *why);
    SpaceChanger spaceChanger();

    kube::KubeSimulator &m_kube;
    ontap::OntapSimulator &m_ontap;
    const storagegrid::S3Store &m_store;
    Options m_options;
    std::shared_ptr<CacheBook> m_book = std::make_shared<CacheBook>();
    mutable std::mutex m_mutex;
    std::map<std::string, CacheVolume> m_claims; ///< "ns/claim"
    std::map<std::string, int> m_failAfter;      ///< commit16 -> objects
    int m_loaderPods = 0;
    int m_evictorPods = 0;
    bool m_installed = false;
};

} // namespace strata::sim::datalake
