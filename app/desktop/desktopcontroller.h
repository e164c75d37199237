#pragma once

#include "models/core/runtime/bundle.h"
#include "models/core/runtime/guidedscenario.h"
#include "models/core/services/actions.h"
#include "models/core/store/config.h"
#include "views/itemmodelsfwd.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <functional>
#include <memory>

namespace strata::core {
class Engine;
class SharedSettings;
class Source;
class SourceAdmin;
} // namespace strata::core

namespace strata::views {
class MainWindow;
class SourceDialog;
class UpcomingChangesDialog;
} // namespace strata::views

namespace strata::desktop {

/// The desktop app's wiring: owns the item models and the MainWindow, and connects what the
/// views ask for to the model layer. Pages and dialogs only emit intents; this turns them into
/// Engine calls (refresh, performance and snapshot subscriptions), ActionManager previews,
/// submits and retries, HistoryService queries for the capacity chart, keychain writes, and
/// config saves (never in demo mode). Service levels: the change dialog into the action preview,
/// schedules through ScheduleService, the rate card into the shared store (else the config) and ServiceLevels, and AKS
/// clusters added as Kubernetes sources with their kubeconfig in the keychain. Results come back as model updates,
/// status-bar messages and, for failures, the window's notification bar.
class DesktopController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DesktopController)

public:
    struct Options
    {
        /// Where the config is saved after Sources changes; empty = never (demo mode).
        QString configPath;
        bool demo = false;
        /// QSettings INI file for the window layout; empty = QSettings("Strata", "strata").
        QString settingsPath;
        /// Set when `engine` shows an opened support bundle (OfflineEngine): the window says so
        /// in its title and a banner, and nothing is saved or changed.
        std::optional<core::BundleMeta> bundle;
        /// Steps a Demo menu plays one by one (main() passes strata::demo's TR-4858 §4.9–4.10 in
        /// demo mode; this library does not link the demo). Empty: no Demo menu.
        core::GuidedScenario scenario;
        /// The rate card and cache targets shared through the history store (Runtime::settings()):
        /// the rate card dialog writes there instead of the config file. nullptr = the config file.
        core::SharedSettings *settings = nullptr;
    };

    /// `engine` must outlive the controller and already have `config.sources` set.
    DesktopController(core::Engine &engine, core::AppConfig config, Options options, QObject *parent = nullptr);
    ~DesktopController() override;

    [[nodiscard]] views::MainWindow &window() { return *m_window; }
    [[nodiscard]] models::VolumeTableModel &volumeModel() { return *m_volumes; }
    [[nodiscard]] models::SnapshotListModel &snapshotModel() { return *m_snapshots; }
    [[nodiscard]] models::SourceTableModel &sourceModel() { return *m_sources; }
    [[nodiscard]] models::ActivityModel &activityModel() { return *m_activity; }
    [[nodiscard]] models::ServiceLevelTableModel &serviceLevelModel() { return *m_levels; }
    [[nodiscard]] const core::AppConfig &config() const { return m_config; }

    /// Adds or replaces a source through core::SourceAdmin: stores `password` (when not empty)
    /// under credentialKey(name) and a StorageGRID `s3Secret` under credentialKey(name,
    /// "s3_secret"), saves the config, and restarts what changed. `done(error)` is called once it
    /// is applied (error empty) or refused (SourceAdmin's first field error, or why).
    void applySource(const core::SourceConfig &config,
                     const QString &password,
                     std::function<void(QString)> done = {},
                     const QString &s3Secret = {});
    /// Removes a source through core::SourceAdmin: saves the config and deletes its keychain
    /// entries (a failure is shown in the notification bar).
    void removeSource(const QString &name);
    /// Saves the rate card (into the shared store when Options::settings is set, else into the
    /// config file) and applies it to the service levels; a store refusal (changed elsewhere
    /// meanwhile) shows in the notification bar.
    void applyRateCard(const core::RateCard &card);
    /// Fetches the user kubeconfig of the AKS cluster `clusterId` of the Azure source `source`
    /// and adds the cluster as Kubernetes source `name` (empty = the cluster's name, made
    /// unique) with the kubeconfig as its keychain secret. `done(error)` as for applySource().
    void addAksCluster(const QString &source,
                       const QString &clusterId,
                       const QString &name = {},
                       std::function<void(QString)> done = {});
    /// Persists the window layout now (also done when the window closes).
    void saveLayout();
    /// File ▸ Open support bundle…: checks the file off the GUI thread, then shows it in a new
    /// read-only window (`strata --bundle FILE`); a file that cannot be opened is reported in
    /// the notification bar.
    void openSupportBundle(const QString &path);
    /// File ▸ Compare support bundles…: reads and diffs both off the GUI thread, then shows the
    /// BundleDiffDialog (or the reason in the notification bar).
    void compareSupportBundles(const QString &before, const QString &after);

private:
    void connectViews();
    void connectSources();
    void watchSource(const QString &name);
    void onSourceStatusChanged(const QString &name);
    void onSnapshotsWanted(const QString &source, const QString &volumeId);
    void onSnapshotsUnwanted(const QString &source, const QString &volumeId);
    void fetchCapacityHistory(const QString &source, const QString &volumeId);
    void fetchProjectHistory(const QString &source, qint64 rangeSeconds);
    void updateSnapshotError();
    void openActionDialog(core::ActionRequest request);
    void submitAction(const core::ActionRequest &request);
    void onActionFinished(const QString &id, bool ok);
    void openSourceDialog(const QString &name);
    void openLevelChangeDialog(const QString &source, const QString &volumeId);
    void openScheduleDialog(const QString &source, const QString &volumeId);
    void openUpcomingDialog();
    void openRateCardDialog();
    void fetchThroughputHistory(const QString &source, const QString &volumeId, qint64 rangeSeconds);
    void updateUpcoming();
    /// Records (or, with an empty name, forgets) the source added from an AKS cluster and
    /// drops records of sources no longer configured.
    void setAksSource(const QString &clusterKey, const QString &sourceName);
    /// Tests a source as configured in the dialog: `password` and `typedS3Secret` as typed, or
    /// (empty) the stored secrets.
    void testSource(const core::SourceConfig &config,
                    const QString &password,
                    QObject *context,
                    std::function<void(bool, QString)> done,
                    const QString &typedS3Secret = {});
    void testConfiguredSource(const QString &name);
    bool saveConfig();
    void restoreLayout();
    /// A Demo menu that plays Options::scenario step by step (TR-4858's sections 4.9 and 4.10).
    void addDemoScenarioMenu();

    core::Engine &m_engine;
    core::AppConfig m_config;
    Options m_options;
    /// Adds, replaces and removes sources (never saves in demo mode).
    std::unique_ptr<core::SourceAdmin> m_sourceAdmin;
    std::unique_ptr<models::VolumeTableModel> m_volumes;
    std::unique_ptr<models::SnapshotListModel> m_snapshots;
    std::unique_ptr<models::SourceTableModel> m_sources;
    std::unique_ptr<models::ActivityModel> m_activity;
    std::unique_ptr<models::TimelineModel> m_timeline;
    std::unique_ptr<models::JobTableModel> m_jobs;
    std::unique_ptr<models::ProjectTableModel> m_projects;
    std::unique_ptr<models::ServiceLevelTableModel> m_levels;
    std::unique_ptr<models::AksClusterModel> m_aks;
    std::unique_ptr<models::DatasetModel> m_datasets;
    std::unique_ptr<models::CommitModel> m_commits;
    std::unique_ptr<models::CachedCommitModel> m_cachedCommits;
    std::unique_ptr<models::CacheTargetModel> m_cacheTargets;
    std::unique_ptr<models::GridNodeModel> m_gridNodes;
    std::unique_ptr<models::GridAlertModel> m_gridAlerts;
    std::unique_ptr<models::TenantModel> m_tenants;
    std::unique_ptr<models::BucketModel> m_buckets;
    std::unique_ptr<models::ForecastTableModel> m_forecasts;
    int m_scenarioNext = 0; ///< index into m_options.scenario of the step to play next
    /// Declared last: the views go before the models they show.
    std::unique_ptr<views::MainWindow> m_window;
    QHash<QString, QPointer<core::Source>> m_watched;
    QString m_selectedSource;
    QString m_selectedVolume;
    int m_historyRequest = 0;
    int m_projectHistoryRequest = 0;
    int m_throughputRequest = 0;
    QPointer<views::UpcomingChangesDialog> m_upcomingDialog;
    bool m_perfSubscribed = false;
    QSet<QObject *> m_perfWanted; ///< pages that show performance now
};

} // namespace strata::desktop
