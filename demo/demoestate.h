#pragma once

#include "models/core/runtime/runtime.h"
#include "models/core/store/config.h"

#include <QString>

#include <memory>

namespace strata::core {
class ICredentialStore;
class InMemoryCredentialStore;
} // namespace strata::core
namespace strata::sim::kube {
class KubeSimulator;
struct KubeSimulatorOptions;
} // namespace strata::sim::kube
namespace strata::sim::azure {
class AzureSimulator;
}
namespace strata::sim::storagegrid {
class StorageGridSimulator;
}
namespace strata::sim::datalake {
class DatalakeWiring;
}

namespace strata::demo {

/// The built-in simulated estate (ARCHITECTURE.md "The demo estate"): starts the simulators
/// in-process on loopback HTTPS with fresh certificates and random passwords, and describes
/// them as an AppConfig whose secrets live only in an in-memory store. Nothing is written to
/// the user's config or keychain. Stops the simulators when destroyed.
class DemoEstate
{
public:
    struct Options
    {
        /// 0 = the story-telling demo cluster `ontap-ai`; N > 0 = a generated cluster with N
        /// volumes (scale checks, e.g. 50,000).
        int generatedVolumes = 0;
        /// Simulated-time factor for the demo's behaviour over time (growth, jobs).
        double speed = 1.0;
        /// Hours of history the estate ships with (demohistory.h): the Kubernetes simulators'
        /// clocks start that long ago and run to now at start(), and volume performance (ONTAP and
        /// ANF, from the simulators' models) and GPU projects are recorded every 5 minutes on the
        /// way. 0 = none (history starts now).
        int historyHours = core::DemoScope::kFullHistoryHours;
        /// Where that history is written: a history store location (SQLite path or PostgreSQL
        /// URL, its password included) the app opens too (`strata-server serve --demo --store`);
        /// empty = a SQLite file in the demo's temporary directory (config().historyPath).
        QString store;
        /// What to start (a one-shot command's needs); default: everything. A source out of scope
        /// is still in config() but has no simulator behind it, and its accessor is nullptr.
        /// Kubernetes needs ONTAP and the grid's store for the cache volumes wired to `dgx`; the
        /// grid's dataset history and sentiment calls are written only with StorageGRID in scope.
        core::DemoScope scope;
    };

    /// Starts the estate; a Kind::Failed error naming the simulator or file that failed.
    static core::Result<std::unique_ptr<DemoEstate>> start(const Options &options);
    ~DemoEstate();
    DemoEstate(const DemoEstate &) = delete;
    DemoEstate &operator=(const DemoEstate &) = delete;

    /// Sources pointing at the simulators (passwords as keychain refs into credentials()).
    [[nodiscard]] core::AppConfig config() const;
    [[nodiscard]] core::InMemoryCredentialStore &credentials();
    /// The `dgx` cluster's simulator (for tests and the scenario player's status line).
    [[nodiscard]] sim::kube::KubeSimulator *kubernetes() const;
    /// The `ai-lab` subscription's Azure simulator (Entra ID + ARM).
    [[nodiscard]] sim::azure::AzureSimulator *azure() const;
    /// The Kubernetes simulator behind AKS `aks-gpu` (reached through its fetched kubeconfig).
    [[nodiscard]] sim::kube::KubeSimulator *aks() const;
    /// The triage workloads on `aks-gpu` (namespace ml-team): names of the allegro.ai pair
    /// (97.3 % reading a cached copy, 58.1 % decoding criteo-data from ANF on the fly), the idle
    /// notebook, and the pending jobs (fair share, unbound PVC, unpullable image).
    static constexpr const char *kCachedTrainJob = "ctr-train-cached";
    static constexpr const char *kUncachedTrainJob = "ctr-train-uncached";
    static constexpr const char *kIdleNotebook = "notebook-maya";
    static constexpr const char *kFairShareJob = "llm-finetune";
    static constexpr const char *kUnboundPvcJob = "tokenizer-prep";
    static constexpr const char *kImagePullJob = "bert-serve";
    /// The `datalake` grid: StorageGRID management API and S3 (TR-4841's six datasets).
    [[nodiscard]] sim::storagegrid::StorageGridSimulator *grid() const;
    /// What runs loader/evictor Jobs on `dgx` and fills svm_cache/cache_01..03.
    [[nodiscard]] sim::datalake::DatalakeWiring *datalake() const;
    /// Base URL of the ONTAP simulator, "https://127.0.0.1:<port>".
    [[nodiscard]] QString ontapUrl() const;

private:
    DemoEstate();
    /// Starts `datalake` (for either scope), replays its datasets' history as commits (StorageGRID),
    /// registers the three cache targets on `dgx` (Kubernetes) and seeds the cached commits (both).
    bool startDatalake(bool gridWanted, bool kubeWanted, QString *error);
    /// Adds `aks-gpu` as a Kubernetes source and starts the triage workloads on it (the
    /// allegro.ai pair, an idle notebook, and jobs held by quota, an unbound PVC and an image
    /// that cannot be pulled), so `strata why` has every verdict to explain. Without Kubernetes in
    /// scope only names the source.
    bool startTriage(bool kubeWanted, QString *error);
    /// The ONTAP cluster `ontap-ai`, filling `source` with its address and secret.
    bool startOntap(const Options &options, core::SourceConfig *source, QString *error);
    /// The Kubernetes simulators of `dgx` (filling `dgx`) and of AKS `aks-gpu`, from `kube`'s clock.
    bool startDgx(sim::kube::KubeSimulatorOptions kube, core::SourceConfig *dgx, QString *error);
    /// The Azure subscription `ai-lab`, filling `aiLab`.
    bool startAzure(core::SourceConfig *aiLab, QString *error);
    struct Private;
    std::unique_ptr<Private> d;
};

/// What `--demo` runs against, for cli::RunHooks::startDemo (the binaries pass this function; the
/// CLI links no simulator): starts the story-telling estate, sets `config` to its sources and
/// `credentials` to the in-memory store of their secrets. The returned handle owns both and keeps
/// the simulators running until it is released; DemoEstate::start()'s error on failure.
core::Result<std::shared_ptr<void>> startForCommand(core::AppConfig *config, core::ICredentialStore **credentials);

/// startForCommand for only what `scope` needs (cli::RunHooks::startDemo): a listing of volumes
/// starts ONTAP and Azure, not the Kubernetes clusters or StorageGRID.
core::Result<std::shared_ptr<void>>
startScopedForCommand(const core::DemoScope &scope, core::AppConfig *config, core::ICredentialStore **credentials);

/// core::RuntimeOptions::demo for the estate `options` describes (startForCommand is the default
/// estate's).
core::DemoStarter starter(const DemoEstate::Options &options = {});

} // namespace strata::demo
