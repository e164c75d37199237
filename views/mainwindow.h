#pragma once

#include "models/core/domain/records.h"
#include "views/itemmodelsfwd.h"

#include <QMainWindow>
#include <QVariantMap>

class QAction;
class QDockWidget;
class QFrame;
class QLabel;
class QListWidget;
class QStackedWidget;

namespace strata::core {
class Estate;
class IClock;
} // namespace strata::core

namespace strata::views {

class ActivityPanel;
class CacheTargetsPage;
class ChargebackPage;
class DatasetsPage;
class GpuPage;
class JobsPage;
class OverviewPage;
class ServiceLevelsPage;
class ForecastsPage;
class SourcesPage;
class StorageGridPage;
class TriagePage;
class VolumesPage;

/// Strata's main window: navigation on the left (Overview, GPUs, Jobs, Datasets, Cache targets,
/// Volumes, Service levels, StorageGRID, Sources, Triage; the first three only when compute
/// models are given, the others only with their models), the pages in a stack, the Activity dock at the bottom,
/// a status bar summarising source health with the worst state coloured, a non-modal notification bar for failures, and
/// the menus (File, View with Refresh F5 and Activity, Settings with the rate card, Help). It binds the item models it
/// is given and turns menu actions into signals; app/desktop wires them and persists layoutState().
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    struct Models
    {
        models::VolumeTableModel *volumes = nullptr;
        models::SnapshotListModel *snapshots = nullptr;
        models::SourceTableModel *sources = nullptr;
        models::ActivityModel *activity = nullptr;
        /// The Triage page (the merged timeline) is created only when set.
        models::TimelineModel *timeline = nullptr;
        /// Compute pages (Overview, GPUs, Jobs) are created only when all three are set.
        core::Estate *estate = nullptr;
        models::JobTableModel *jobs = nullptr;
        models::ProjectTableModel *projects = nullptr;
        /// The Service levels page is created only when set.
        models::ServiceLevelTableModel *serviceLevels = nullptr;
        /// AKS clusters on the Sources page (optional).
        models::AksClusterModel *aksClusters = nullptr;
        /// The Datasets and Cache targets pages are created when `estate` and all four are set.
        models::DatasetModel *datasets = nullptr;
        models::CommitModel *commits = nullptr;
        models::CachedCommitModel *cachedCommits = nullptr;
        models::CacheTargetModel *cacheTargets = nullptr;
        /// The StorageGRID page is created when `estate` and all four are set.
        models::GridNodeModel *gridNodes = nullptr;
        models::GridAlertModel *gridAlerts = nullptr;
        models::TenantModel *tenants = nullptr;
        models::BucketModel *buckets = nullptr;
        /// The Forecasts page (capacity forecast, full soonest first) is created only when set.
        models::ForecastTableModel *forecasts = nullptr;
        /// The Chargeback page is created when set and the compute pages are.
        bool chargeback = false;
    };

    /// Stable values (saved in the layout); the navigation order is pageOrder().
    enum class Page
    {
        Volumes,
        Sources,
        Events, ///< the Triage page (the merged timeline; it grew out of the Events page)
        Overview,
        Gpus,
        Jobs,
        ServiceLevels,
        Datasets,
        CacheTargets,
        StorageGrid,
        Forecasts,
        Chargeback
    };

    /// `clock` is the engine's (the Volumes page's chart ends at its now); it must outlive the window.
    MainWindow(const Models &models, const core::IClock &clock, QWidget *parent = nullptr);
    ~MainWindow() override;

    [[nodiscard]] VolumesPage *volumesPage() const { return m_volumesPage; }
    [[nodiscard]] SourcesPage *sourcesPage() const { return m_sourcesPage; }
    /// nullptr without a timeline model.
    [[nodiscard]] TriagePage *triagePage() const { return m_triagePage; }
    /// nullptr without compute models.
    [[nodiscard]] OverviewPage *overviewPage() const { return m_overviewPage; }
    [[nodiscard]] GpuPage *gpuPage() const { return m_gpuPage; }
    [[nodiscard]] JobsPage *jobsPage() const { return m_jobsPage; }
    /// nullptr without a service-level model.
    [[nodiscard]] ServiceLevelsPage *serviceLevelsPage() const { return m_serviceLevelsPage; }
    /// nullptr without the dataset models.
    [[nodiscard]] DatasetsPage *datasetsPage() const { return m_datasetsPage; }
    [[nodiscard]] CacheTargetsPage *cacheTargetsPage() const { return m_cacheTargetsPage; }
    /// nullptr without the grid models.
    [[nodiscard]] StorageGridPage *storageGridPage() const { return m_storageGridPage; }
    /// nullptr without a forecast model.
    [[nodiscard]] ForecastsPage *forecastsPage() const { return m_forecastsPage; }
    /// nullptr unless Models::chargeback.
    [[nodiscard]] ChargebackPage *chargebackPage() const { return m_chargebackPage; }
    /// Settings > Rate card… (disabled without the Service levels page).
    [[nodiscard]] QAction *rateCardAction() const { return m_rateCardAction; }
    /// Pages in navigation order (Ctrl+1 is the first).
    [[nodiscard]] QList<Page> pageOrder() const { return m_pageOrder; }
    [[nodiscard]] ActivityPanel *activityPanel() const { return m_activityPanel; }
    [[nodiscard]] QDockWidget *activityDock() const { return m_activityDock; }
    [[nodiscard]] QAction *refreshAction() const { return m_refreshAction; }

    /// Ignored for a page this window does not have.
    void showPage(Page page);
    [[nodiscard]] Page currentPage() const;
    /// Volumes page with the volume "<source>/<id>" selected (from a job's PVC); false when the
    /// volume is not in the table.
    bool showVolume(const QString &source, const QString &volumeId);
    /// Switches to the page of an object named by a timeline entry (TimelineEntry::objectKind:
    /// "volume", "job", "project", "node", "alert", "cached_commit", "source", "pool"; the
    /// Overview's "cluster", "cache_target", "grid") and selects it where the page can
    /// (volumes, jobs, sources, cached commits, cache targets). false when
    /// there is no page for it or it is not in that page's table.
    bool showObject(const QString &kind, const QString &source, const QString &id);

    /// A failure or notice that stays until dismissed, without blocking the window.
    void showNotification(const QString &text, bool error = true);
    [[nodiscard]] QString notificationText() const;
    /// An opened support bundle: a banner above the pages that stays ("Support bundle from
    /// <time> (<host>) — read-only snapshot"), and Add source and Refresh disabled.
    void setReadOnlyBanner(const QString &text);
    /// Empty when the window shows live systems.
    [[nodiscard]] QString readOnlyBannerText() const;
    /// A transient status-bar message.
    void showStatusMessage(const QString &text, int timeoutMs = 8000);

    /// "2 sources: 1 OK, 1 unreachable" (plain text); `worst` receives the StatusRole value of
    /// the worst health present ("ok", "unknown", "warning", "critical").
    static QString healthSummary(const QList<core::Health> &healths, QString *worst = nullptr);
    /// The status bar's current summary, as plain text.
    [[nodiscard]] QString healthSummaryText() const;

    /// Window geometry and state, header and splitter states, current page.
    [[nodiscard]] QVariantMap layoutState() const;
    void restoreLayoutState(const QVariantMap &state);

Q_SIGNALS:
    void refreshRequested();
    /// File ▸ Open support bundle…: the file the user picked.
    void openBundleRequested(const QString &path);
    /// File ▸ Compare support bundles…: the older and the newer bundle the user picked.
    void compareBundlesRequested(const QString &before, const QString &after);
    /// The window is closing: persist layoutState() now.
    void closing();

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void createMenus();
    void addPage(Page page, QWidget *widget, const QString &text, const QIcon &icon, const QString &tip);
    void updateHealthSummary();
    void showAbout();
    /// Shrinks and moves the window into its screen's available geometry (never past it).
    void fitToScreen();
    /// The Jobs icon in the text colour when the icon theme has none (visible in dark mode).
    void updateJobsIcon();

    Models m_models;
    QListWidget *m_navigation = nullptr;
    QStackedWidget *m_stack = nullptr;
    VolumesPage *m_volumesPage = nullptr;
    SourcesPage *m_sourcesPage = nullptr;
    TriagePage *m_triagePage = nullptr;
    OverviewPage *m_overviewPage = nullptr;
    GpuPage *m_gpuPage = nullptr;
    JobsPage *m_jobsPage = nullptr;
    ServiceLevelsPage *m_serviceLevelsPage = nullptr;
    DatasetsPage *m_datasetsPage = nullptr;
    CacheTargetsPage *m_cacheTargetsPage = nullptr;
    StorageGridPage *m_storageGridPage = nullptr;
    ForecastsPage *m_forecastsPage = nullptr;
    ChargebackPage *m_chargebackPage = nullptr;
    QAction *m_rateCardAction = nullptr;
    QList<Page> m_pageOrder;
    ActivityPanel *m_activityPanel = nullptr;
    QDockWidget *m_activityDock = nullptr;
    QFrame *m_notification = nullptr;
    QLabel *m_notificationIcon = nullptr;
    QLabel *m_notificationLabel = nullptr;
    QLabel *m_healthLabel = nullptr;
    QString m_healthPlain;
    QAction *m_refreshAction = nullptr;
    QAction *m_addSourceAction = nullptr;
    QLabel *m_readOnlyBanner = nullptr;
};

} // namespace strata::views
