#include "app/desktop/desktopcontroller.h"

#include "models/core/domain/offthread.h"
#include "models/core/runtime/engine.h"
#include "models/core/runtime/sharedsettings.h"
#include "models/core/runtime/sourceadmin.h"
#include "models/core/services/historyservice.h"
#include "models/core/services/scheduleservice.h"
#include "models/core/services/servicelevels.h"
#include "models/core/sources/azure/azuresource.h"
#include "models/core/sources/kubernetes/kubernetessource.h"
#include "models/core/sources/ontap/ontapsource.h"
#include "models/core/sources/source.h"
#include "models/core/sources/storagegrid/storagegridsource.h"
#include "models/core/store/credentialstore.h"
#include "models/item/activitymodel.h"
#include "models/item/aksclustermodel.h"
#include "models/item/cachemodels.h"
#include "models/item/commitmodel.h"
#include "models/item/datasetmodel.h"
#include "models/item/forecastmodel.h"
#include "models/item/gridmodels.h"
#include "models/item/jobtablemodel.h"
#include "models/item/projecttablemodel.h"
#include "models/item/servicelevelmodel.h"
#include "models/item/snapshotlistmodel.h"
#include "models/item/sourcetablemodel.h"
#include "models/item/timelinemodel.h"
#include "models/item/volumetablemodel.h"
#include "views/actiondialog.h"
#include "views/activitypanel.h"
#include "views/bundlediffdialog.h"
#include "views/cachetargetspage.h"
#include "views/chargebackpage.h"
#include "views/datasetspage.h"
#include "views/gpupage.h"
#include "views/jobdetailpanel.h"
#include "views/jobspage.h"
#include "views/levelchangedialog.h"
#include "views/mainwindow.h"
#include "views/overviewpage.h"
#include "views/ratecarddialog.h"
#include "views/scheduledialog.h"
#include "views/servicelevelspage.h"
#include "views/sourcedialog.h"
#include "views/sourcespage.h"
#include "views/volumedetailpanel.h"
#include "views/volumespage.h"

#include <QAction>
#include <QCoreApplication>
#include <QFileInfo>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QSettings>

namespace strata::desktop {

namespace {

std::unique_ptr<QSettings> openSettings(const QString &path)
{
    return path.isEmpty() ? std::make_unique<QSettings>(QStringLiteral("Strata"), QStringLiteral("strata"))
                          : std::make_unique<QSettings>(path, QSettings::IniFormat);
}

} // namespace

DesktopController::DesktopController(core::Engine &engine, core::AppConfig config, Options options, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_config(std::move(config))
    , m_options(std::move(options))
    , m_sourceAdmin(std::make_unique<core::SourceAdmin>(
          engine, core::SourceAdmin::Options{m_options.demo ? QString() : m_options.configPath, false}))
    , m_volumes(std::make_unique<models::VolumeTableModel>(engine.estate()))
    , m_snapshots(std::make_unique<models::SnapshotListModel>(engine.estate()))
    , m_sources(std::make_unique<models::SourceTableModel>(engine))
    , m_activity(std::make_unique<models::ActivityModel>(engine.actions()))
    , m_timeline(std::make_unique<models::TimelineModel>(engine.timeline()))
    , m_jobs(std::make_unique<models::JobTableModel>(engine.estate(),
                                                     [&engine] {
                                                         return engine.clock().now();
                                                     }))
    , m_projects(std::make_unique<models::ProjectTableModel>(engine.estate()))
    , m_levels(std::make_unique<models::ServiceLevelTableModel>(&engine.serviceLevels()))
    , m_aks(std::make_unique<models::AksClusterModel>(engine.estate()))
    , m_datasets(std::make_unique<models::DatasetModel>(engine.estate()))
    , m_commits(std::make_unique<models::CommitModel>(engine.estate()))
    , m_cachedCommits(std::make_unique<models::CachedCommitModel>(engine.estate(),
                                                                  [&engine] {
                                                                      return engine.clock().now();
                                                                  }))
    , m_cacheTargets(std::make_unique<models::CacheTargetModel>(engine.estate()))
    , m_gridNodes(std::make_unique<models::GridNodeModel>(engine.estate()))
    , m_gridAlerts(std::make_unique<models::GridAlertModel>(engine.estate()))
    , m_tenants(std::make_unique<models::TenantModel>(engine.estate()))
    , m_buckets(std::make_unique<models::BucketModel>(engine.estate()))
    , m_forecasts(std::make_unique<models::ForecastTableModel>(&engine.forecasts(), [&engine] {
        return engine.clock().now();
    }))
{
    views::MainWindow::Models windowModels{m_volumes.get(),
                                           m_snapshots.get(),
                                           m_sources.get(),
                                           m_activity.get(),
                                           m_timeline.get(),
                                           &engine.estate(),
                                           m_jobs.get(),
                                           m_projects.get(),
                                           m_levels.get(),
                                           m_aks.get(),
                                           m_datasets.get(),
                                           m_commits.get(),
                                           m_cachedCommits.get(),
                                           m_cacheTargets.get(),
                                           m_gridNodes.get(),
                                           m_gridAlerts.get(),
                                           m_tenants.get(),
                                           m_buckets.get(),
                                           m_forecasts.get()};
    windowModels.chargeback = true;
    m_window = std::make_unique<views::MainWindow>(windowModels, engine.clock());
    m_window->setWindowTitle(m_options.demo ? tr("Strata (demo)") : tr("Strata"));
    if (m_options.bundle) {
        const QString when = QLocale().toString(m_options.bundle->created.toLocalTime(), QLocale::ShortFormat);
        m_window->setWindowTitle(tr("Strata — support bundle from %1 (read-only)").arg(when));
        m_window->setReadOnlyBanner(
            tr("Support bundle from %1 (%2) — read-only snapshot").arg(when, m_options.bundle->host));
    }
    connectSources();
    connectViews();
    restoreLayout();
    setAksSource({}, {});
    if (!m_options.scenario.isEmpty()) {
        addDemoScenarioMenu();
    }
    if (m_config.sources.isEmpty()) {
        m_window->showPage(views::MainWindow::Page::Sources);
    }
}

DesktopController::~DesktopController()
{
    if (m_perfSubscribed) {
        m_engine.unsubscribePerformance();
    }
    if (!m_selectedVolume.isEmpty()) {
        m_engine.unsubscribeSnapshots(m_selectedSource, m_selectedVolume);
    }
    m_window.reset();
}

void DesktopController::connectSources()
{
    connect(&m_engine, &core::Engine::sourceStatusChanged, this, &DesktopController::onSourceStatusChanged);
    connect(&m_engine, &core::Engine::sourcesChanged, this, [this] {
        for (const core::SourceStatus &status : m_engine.statuses()) {
            onSourceStatusChanged(status.name);
        }
    });
    for (const core::SourceStatus &status : m_engine.statuses()) {
        onSourceStatusChanged(status.name);
    }
    connect(&m_engine.actions(), &core::ActionManager::actionFinished, this, &DesktopController::onActionFinished);
}

void DesktopController::connectViews()
{
    views::MainWindow *w = m_window.get();
    connect(w, &views::MainWindow::refreshRequested, this, [this] {
        m_engine.refresh();
    });
    connect(w, &views::MainWindow::closing, this, &DesktopController::saveLayout);
    connect(w, &views::MainWindow::openBundleRequested, this, &DesktopController::openSupportBundle);
    connect(w, &views::MainWindow::compareBundlesRequested, this, &DesktopController::compareSupportBundles);

    views::VolumesPage *volumes = w->volumesPage();
    // The Volumes page and the Overview (throughput now) each want ONTAP performance while shown.
    const auto wantPerformance = [this](QObject *who, bool wanted) {
        if (wanted) {
            m_perfWanted.insert(who);
        } else {
            m_perfWanted.remove(who);
        }
        const bool subscribe = !m_perfWanted.isEmpty();
        if (subscribe == m_perfSubscribed) {
            return;
        }
        m_perfSubscribed = subscribe;
        if (subscribe) {
            m_engine.subscribePerformance();
        } else {
            m_engine.unsubscribePerformance();
        }
    };
    connect(volumes, &views::VolumesPage::performanceWanted, this, [wantPerformance, volumes](bool wanted) {
        wantPerformance(volumes, wanted);
    });
    if (views::OverviewPage *overview = w->overviewPage()) {
        connect(overview, &views::OverviewPage::performanceWanted, this, [wantPerformance, overview](bool wanted) {
            wantPerformance(overview, wanted);
        });
        wantPerformance(overview, overview->isVisible());
    }
    views::VolumeDetailPanel *detail = volumes->detailPanel();
    connect(detail, &views::VolumeDetailPanel::snapshotsWanted, this, &DesktopController::onSnapshotsWanted);
    connect(detail, &views::VolumeDetailPanel::snapshotsUnwanted, this, &DesktopController::onSnapshotsUnwanted);
    connect(detail, &views::VolumeDetailPanel::capacityHistoryWanted, this, &DesktopController::fetchCapacityHistory);
    connect(detail, &views::VolumeDetailPanel::actionRequested, this, &DesktopController::openActionDialog);

    views::SourcesPage *sources = w->sourcesPage();
    connect(sources, &views::SourcesPage::addRequested, this, [this] {
        openSourceDialog({});
    });
    connect(sources, &views::SourcesPage::editRequested, this, &DesktopController::openSourceDialog);
    connect(sources, &views::SourcesPage::removeRequested, this, &DesktopController::removeSource);
    connect(sources, &views::SourcesPage::testRequested, this, &DesktopController::testConfiguredSource);
    connect(sources, &views::SourcesPage::refreshRequested, this, [this](const QString &name) {
        m_engine.refresh(name);
    });
    connect(
        sources, &views::SourcesPage::addAksClusterRequested, this, [this](const QString &source, const QString &id) {
            addAksCluster(source, id);
        });

    if (views::ServiceLevelsPage *levels = w->serviceLevelsPage()) {
        connect(
            levels, &views::ServiceLevelsPage::changeLevelRequested, this, &DesktopController::openLevelChangeDialog);
        connect(levels, &views::ServiceLevelsPage::scheduleRequested, this, &DesktopController::openScheduleDialog);
        connect(levels, &views::ServiceLevelsPage::upcomingRequested, this, &DesktopController::openUpcomingDialog);
        connect(levels, &views::ServiceLevelsPage::rateCardRequested, this, &DesktopController::openRateCardDialog);
        connect(levels,
                &views::ServiceLevelsPage::throughputHistoryWanted,
                this,
                &DesktopController::fetchThroughputHistory);
        connect(&m_engine.schedules(), &core::ScheduleService::changed, this, &DesktopController::updateUpcoming);
        connect(&m_engine.schedules(), &core::ScheduleService::loaded, this, &DesktopController::updateUpcoming);
        // A change that ran shows in the chart without re-selecting the volume.
        connect(&m_engine.actions(), &core::ActionManager::actionFinished, this, [this, levels](const QString &id) {
            const core::ActionRecord *record = m_engine.actions().find(id);
            const core::ServiceLevelRow *row = levels->currentRow();
            if (record && row && record->request.kind == core::ActionKind::ServiceLevelChange
                && record->request.source == row->source && record->request.volumeId == row->volumeId) {
                fetchThroughputHistory(row->source, row->volumeId, levels->rangeSeconds());
            }
        });
        updateUpcoming();
    }

    if (views::OverviewPage *overview = w->overviewPage()) {
        connect(overview,
                &views::OverviewPage::clusterHistoryWanted,
                this,
                [this, overview](const QString &source, qint64 seconds) {
                    core::HistoryService *history = m_engine.history();
                    if (!history || !history->openError().isEmpty()) {
                        overview->setClusterHistoryMessage(
                            history ? tr("GPU allocation history is unavailable: %1").arg(history->openError())
                                    : tr("GPU allocation history is not recorded in this session."));
                        return;
                    }
                    const QDateTime now = m_engine.clock().now();
                    const QDateTime from = now.addSecs(-seconds);
                    history->projectHistory(
                        source,
                        {},
                        from,
                        now,
                        overview,
                        [overview, source, from, now](core::Result<std::vector<core::ProjectSample>> samples) {
                            if (!samples) {
                                overview->setClusterHistoryMessage(
                                    tr("GPU allocation history is unavailable: %1").arg(samples.error().message));
                                return;
                            }
                            overview->setClusterHistory(source, *samples, from, now);
                        });
                });
    }
    if (views::GpuPage *gpus = w->gpuPage()) {
        connect(gpus, &views::GpuPage::projectHistoryWanted, this, &DesktopController::fetchProjectHistory);
        connect(gpus, &views::GpuPage::actionRequested, this, &DesktopController::openActionDialog);
    }
    if (views::ChargebackPage *chargeback = w->chargebackPage()) {
        connect(chargeback, &views::ChargebackPage::chargebackWanted, this, [this, chargeback](const QString &month) {
            core::HistoryService *history = m_engine.history();
            if (!history || !history->openError().isEmpty()) {
                chargeback->setMessage(tr("A chargeback needs the history store, which is not open in this session."));
                return;
            }
            const core::Result<core::ChargebackPeriod> period = core::chargebackMonth(month);
            if (!period) {
                chargeback->setMessage(period.error().message);
                return;
            }
            // The estate is copied here; the sums run on the history store's thread.
            history->chargeback(core::chargebackInput(m_engine.estate()),
                                *period,
                                m_engine.serviceLevels().rateCard(),
                                m_engine.clock().now(),
                                chargeback,
                                [chargeback, month](core::Result<core::Chargeback> result) {
                                    chargeback->setChargeback(month, result);
                                });
        });
    }
    if (views::JobsPage *jobs = w->jobsPage()) {
        connect(jobs, &views::JobsPage::actionRequested, this, &DesktopController::openActionDialog);
        connect(jobs, &views::JobsPage::changeServiceLevelRequested, this, &DesktopController::openLevelChangeDialog);
        connect(jobs,
                &views::JobsPage::volumeHistoryWanted,
                this,
                [this, jobs](const QString &source, const QString &volumeId) {
                    core::HistoryService *history = m_engine.history();
                    if (!history) {
                        return;
                    }
                    // The diagnosis chart's hour of volume I/O, read on the store's thread.
                    const QDateTime to = m_engine.clock().now();
                    history->volumePerfHistory(
                        source,
                        volumeId,
                        to.addSecs(-3600),
                        to,
                        jobs,
                        [jobs, source, volumeId](core::Result<std::vector<core::VolumePerfSample>> samples) {
                            // A failed read draws no I/O: the diagnosis
                            // above it still names the newest figures.
                            jobs->detailPanel()->setVolumeHistory(source,
                                                                  volumeId,
                                                                  samples ? std::move(samples).value()
                                                                          : std::vector<core::VolumePerfSample>{});
                        });
                });
    }
    if (views::DatasetsPage *datasets = w->datasetsPage()) {
        connect(datasets, &views::DatasetsPage::actionRequested, this, &DesktopController::openActionDialog);
        connect(
            datasets,
            &views::DatasetsPage::compareRequested,
            this,
            [this, datasets](const QString &source, const QString &datasetId, const QString &from, const QString &to) {
                // The page matches the answer to its question by the two ids.
                auto answer = [datasets, datasetId, from, to](core::CommitComparison comparison, QString error) {
                    comparison.datasetId = datasetId;
                    comparison.fromId = from;
                    comparison.toId = to;
                    datasets->showComparison(comparison, error);
                };
                auto *grid = qobject_cast<core::StorageGridSource *>(m_engine.source(source));
                if (!grid) {
                    answer({},
                           m_engine.source(source)
                               ? tr("commits of %1 are snapshots; compare them on the Volumes page.").arg(source)
                               : tr("source %1 is not connected.").arg(source));
                    return;
                }
                grid->diffCommits(datasetId, from, to, datasets, answer);
            });
        connect(w->cacheTargetsPage(),
                &views::CacheTargetsPage::actionRequested,
                this,
                &DesktopController::openActionDialog);
    }

    connect(w->activityPanel(), &views::ActivityPanel::retryRequested, this, [this](const QString &id) {
        if (!m_engine.actions().retry(id)) {
            m_window->showNotification(
                tr("This action cannot be retried: its source is not connected or it did not fail."));
        }
    });
}

void DesktopController::restoreLayout()
{
    const std::unique_ptr<QSettings> settings = openSettings(m_options.settingsPath);
    QVariantMap state;
    settings->beginGroup(QStringLiteral("layout"));
    const QStringList keys = settings->allKeys();
    for (const QString &key : keys) {
        state.insert(key, settings->value(key));
    }
    settings->endGroup();
    m_window->restoreLayoutState(state);
}

void DesktopController::saveLayout()
{
    const std::unique_ptr<QSettings> settings = openSettings(m_options.settingsPath);
    settings->beginGroup(QStringLiteral("layout"));
    const QVariantMap state = m_window->layoutState();
    for (auto it = state.cbegin(); it != state.cend(); ++it) {
        settings->setValue(it.key(), it.value());
    }
    settings->endGroup();
}

void DesktopController::watchSource(const QString &name)
{
    core::Source *source = m_engine.source(name);
    if (!source || m_watched.value(name) == source) {
        return;
    }
    m_watched.insert(name, source);
    // The capacity chart gains a point after each inventory poll (the poll recorded it).
    connect(source, &core::Source::inventoryPolled, this, [this, name] {
        if (name == m_selectedSource && !m_selectedVolume.isEmpty()) {
            fetchCapacityHistory(m_selectedSource, m_selectedVolume);
        }
    });
}

void DesktopController::onSourceStatusChanged(const QString &name)
{
    if (const auto status = m_engine.status(name)) {
        m_volumes->setSourceStatus(*status);
    }
    watchSource(name);
    if (name == m_selectedSource) {
        updateSnapshotError();
    }
}

void DesktopController::onSnapshotsWanted(const QString &source, const QString &volumeId)
{
    m_selectedSource = source;
    m_selectedVolume = volumeId;
    m_snapshots->setVolume(source, volumeId);
    m_engine.subscribeSnapshots(source, volumeId);
    updateSnapshotError();
}

void DesktopController::onSnapshotsUnwanted(const QString &source, const QString &volumeId)
{
    m_engine.unsubscribeSnapshots(source, volumeId);
    if (source == m_selectedSource && volumeId == m_selectedVolume) {
        m_selectedSource.clear();
        m_selectedVolume.clear();
    }
}

void DesktopController::updateSnapshotError()
{
    if (m_selectedSource.isEmpty()) {
        return;
    }
    const auto status = m_engine.status(m_selectedSource);
    QString error;
    if (!m_engine.source(m_selectedSource)) {
        error = status && !status->lastError.isEmpty() ? status->lastError
                                                       : tr("source %1 is not connected.").arg(m_selectedSource);
    } else if (status && status->health != core::Health::Ok && status->health != core::Health::Unknown) {
        error = status->lastError;
    }
    m_window->volumesPage()->detailPanel()->setSnapshotError(error);
}

void DesktopController::fetchCapacityHistory(const QString &source, const QString &volumeId)
{
    views::VolumeDetailPanel *panel = m_window->volumesPage()->detailPanel();
    core::HistoryService *history = m_engine.history();
    if (!history) {
        panel->setCapacityHistoryMessage(tr("Capacity history is not recorded in this session."));
        return;
    }
    if (!history->openError().isEmpty()) {
        panel->setCapacityHistoryMessage(tr("Capacity history is unavailable: %1").arg(history->openError()));
        return;
    }
    const int request = ++m_historyRequest;
    const QDateTime now = m_engine.clock().now();
    history->volumeUsage(source,
                         volumeId,
                         now.addDays(-7),
                         now,
                         this,
                         [this, request, source, volumeId](core::Result<std::vector<core::UsageSample>> samples) {
                             // Only the newest request for the still-selected volume may paint.
                             if (request != m_historyRequest || source != m_selectedSource
                                 || volumeId != m_selectedVolume) {
                                 return;
                             }
                             views::VolumeDetailPanel *panel = m_window->volumesPage()->detailPanel();
                             if (!samples) {
                                 panel->setCapacityHistoryMessage(
                                     tr("Capacity history is unavailable: %1").arg(samples.error().message));
                                 return;
                             }
                             panel->setCapacityHistory(std::move(samples).value());
                         });
}

void DesktopController::fetchProjectHistory(const QString &source, qint64 rangeSeconds)
{
    views::GpuPage *page = m_window->gpuPage();
    core::HistoryService *history = m_engine.history();
    if (!page) {
        return;
    }
    if (!history) {
        page->setProjectHistoryMessage(tr("GPU allocation history is not recorded in this session."));
        return;
    }
    if (!history->openError().isEmpty()) {
        page->setProjectHistoryMessage(tr("GPU allocation history is unavailable: %1").arg(history->openError()));
        return;
    }
    const int request = ++m_projectHistoryRequest;
    const QDateTime now = m_engine.clock().now();
    const QDateTime from = now.addSecs(-rangeSeconds);
    history->projectHistory(source,
                            {},
                            from,
                            now,
                            this,
                            [this, request, source, from, now](core::Result<std::vector<core::ProjectSample>> samples) {
                                views::GpuPage *gpus = m_window->gpuPage();
                                if (request != m_projectHistoryRequest || !gpus) {
                                    return;
                                }
                                if (!samples) {
                                    gpus->setProjectHistoryMessage(
                                        tr("GPU allocation history is unavailable: %1").arg(samples.error().message));
                                    return;
                                }
                                gpus->setProjectHistory(source, std::move(samples).value(), from, now);
                            });
}

void DesktopController::openActionDialog(core::ActionRequest request)
{
    core::ActionManager *actions = &m_engine.actions();
    auto previewer = [actions](const core::ActionRequest &r) {
        return actions->preview(r);
    };
    if (request.kind == core::ActionKind::JobSubmit || request.kind == core::ActionKind::JobDelete
        || request.kind == core::ActionKind::ProjectQuotaEdit || request.kind == core::ActionKind::ServiceLevelChange
        || request.kind == core::ActionKind::DatasetCommit || request.kind == core::ActionKind::CacheCommit
        || request.kind == core::ActionKind::CacheEvict) {
        // Compute actions arrive complete from the GPU and Jobs pages, level changes from
        // LevelChangeDialog, dataset and cache actions from their pages; the dialog previews them.
        auto *dialog = new views::ActionDialog(request, previewer, {}, m_window.get());
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &views::ActionDialog::confirmed, this, &DesktopController::submitAction);
        dialog->open();
        return;
    }
    const core::Estate &estate = m_engine.estate();
    const core::Ptr<core::Volume> volume = estate.volume(request.source, request.volumeId);
    if (!volume) {
        m_window->showNotification(tr("The volume is no longer known to %1.").arg(request.source));
        return;
    }
    const auto snapshots = estate.snapshots().scope(core::Estate::snapshotScope(request.source, request.volumeId));
    auto snapshotNamed = [&snapshots](const QString &name) {
        if (snapshots) {
            for (const core::Ptr<core::Snapshot> &s : snapshots->items()) {
                if (s->name == name) {
                    return true;
                }
            }
        }
        return false;
    };
    const QDateTime now = m_engine.clock().now().toLocalTime();
    QString confirmation;
    switch (request.kind) {
    case core::ActionKind::SnapshotCreate: {
        const QString base = QStringLiteral("strata_") + now.toString(QStringLiteral("yyyy-MM-dd_HHmm"));
        request.name = base;
        for (int n = 2; snapshotNamed(request.name); ++n) {
            request.name = base + QLatin1Char('_') + QString::number(n);
        }
        break;
    }
    case core::ActionKind::VolumeClone:
        request.name = volume->name + QStringLiteral("_clone_") + now.toString(QStringLiteral("yyyyMMdd_HHmm"));
        break;
    case core::ActionKind::SnapshotDelete:
    case core::ActionKind::SnapshotRestore: {
        const core::Ptr<core::Snapshot> snapshot =
            snapshots ? snapshots->find(request.source + QLatin1Char('/') + request.snapshotId) : nullptr;
        if (!snapshot) {
            m_window->showNotification(tr("The snapshot is no longer in the list of %1.").arg(volume->name));
            return;
        }
        confirmation = snapshot->name;
        break;
    }
    case core::ActionKind::JobSubmit:
    case core::ActionKind::JobDelete:
    case core::ActionKind::ProjectQuotaEdit:
    case core::ActionKind::ServiceLevelChange:
    case core::ActionKind::DatasetCommit:
    case core::ActionKind::CacheCommit:
    case core::ActionKind::CacheEvict:
        return; // handled above
    }
    auto *dialog = new views::ActionDialog(request, previewer, confirmation, m_window.get());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &views::ActionDialog::confirmed, this, &DesktopController::submitAction);
    dialog->open();
}

void DesktopController::submitAction(const core::ActionRequest &request)
{
    const core::Result<QString> submitted = m_engine.actions().submit(request);
    if (!submitted) {
        m_window->showNotification(tr("The action was not started: %1").arg(submitted.error().message));
        return;
    }
    const QString &id = *submitted;
    if (const core::ActionRecord *record = m_engine.actions().find(id)) {
        m_window->showStatusMessage(tr("%1 started: %2").arg(record->preview.title, record->preview.target));
    }
}

void DesktopController::onActionFinished(const QString &id, bool ok)
{
    const core::ActionRecord *record = m_engine.actions().find(id);
    if (!record) {
        return;
    }
    if (ok) {
        m_window->showStatusMessage(tr("%1 succeeded: %2").arg(record->preview.title, record->preview.target));
    } else {
        const QString text =
            tr("%1 failed: %2. %3").arg(record->preview.title, record->preview.target, record->message);
        m_window->showStatusMessage(text);
        m_window->showNotification(text + QLatin1Char(' ') + tr("Select it in the Activity panel to retry."));
    }
}

void DesktopController::openSourceDialog(const QString &name)
{
    QStringList names;
    for (const core::SourceConfig &c : std::as_const(m_config.sources)) {
        names << c.name;
    }
    auto *dialog = new views::SourceDialog(names, m_window.get());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!name.isEmpty()) {
        const core::SourceConfig *existing = m_config.source(name);
        if (!existing) {
            dialog->deleteLater();
            return;
        }
        dialog->setSource(*existing);
    }
    connect(dialog,
            &views::SourceDialog::testRequested,
            this,
            [this, dialog](const core::SourceConfig &config, const QString &password) {
                QPointer<views::SourceDialog> guard(dialog);
                testSource(
                    config,
                    password,
                    dialog,
                    [guard](bool ok, const QString &message) {
                        if (guard) {
                            guard->setTestResult(ok, message);
                        }
                    },
                    dialog->s3Secret());
            });
    connect(dialog, &views::SourceDialog::contextsWanted, this, [this, dialog](const QString &path) {
        // Reading the kubeconfig is file I/O (maybe on a network home): off the GUI thread.
        struct Contexts
        {
            QStringList names;
            QString current;
            QString error;
        };
        core::runOffThread(
            m_engine.pool(),
            dialog,
            [path] {
                Contexts c;
                if (auto read = core::KubernetesSource::kubeconfigContexts(path); read) {
                    c.names = std::move(read->names);
                    c.current = std::move(read->current);
                } else {
                    c.error = read.error().message;
                }
                return c;
            },
            [dialog](const Contexts &c) {
                dialog->setContexts(c.names, c.current, c.error);
            });
    });
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        applySource(dialog->config(), dialog->password(), {}, dialog->s3Secret());
    });
    dialog->open();
}

void DesktopController::testSource(const core::SourceConfig &config,
                                   const QString &password,
                                   QObject *context,
                                   std::function<void(bool, QString)> done,
                                   const QString &typedS3Secret)
{
    QPointer<QObject> guard(context);
    core::Engine *engine = &m_engine;
    auto run = [engine, config, guard, done, typedS3Secret](const QString &secret) {
        if (!guard) {
            return;
        }
        switch (config.kind) {
        case core::SourceKind::Kubernetes:
            core::KubernetesSource::testConnection(config, secret, engine->pool(), guard, done);
            break;
        case core::SourceKind::Azure:
            core::AzureSource::testConnection(config, secret, engine->pool(), guard, done);
            break;
        case core::SourceKind::Ontap:
            core::OntapSource::testConnection(config, secret, engine->pool(), guard, done);
            break;
        case core::SourceKind::StorageGrid: {
            // A secret typed in the dialog is tested as typed; otherwise the stored one.
            auto test = [engine, config, secret, guard, done](const QString &s3Secret) {
                if (guard) {
                    core::StorageGridSource::testConnection(config, secret, s3Secret, engine->pool(), guard, done);
                }
            };
            if (!typedS3Secret.isEmpty()) {
                test(typedS3Secret);
            } else if (config.s3Url.isEmpty() || config.s3Secret.kind == core::SecretRef::Kind::None) {
                test(QString());
            } else {
                core::resolveSecret(
                    config.s3Secret, engine->credentials(), [test](std::optional<QString> s3Secret, const QString &) {
                        test(s3Secret.value_or(QString()));
                    });
            }
            break;
        }
        }
    };
    if (!password.isEmpty() || config.password.kind == core::SecretRef::Kind::None) {
        run(password);
        return;
    }
    // Editing without retyping the password: test with the stored one.
    core::resolveSecret(config.password,
                        m_engine.credentials(),
                        [run, done, guard](std::optional<QString> secret, const QString &error) {
                            if (!guard) {
                                return;
                            }
                            if (!error.isEmpty() || !secret) {
                                done(false, error.isEmpty() ? tr("No password is stored for this source.") : error);
                                return;
                            }
                            run(*secret);
                        });
}

void DesktopController::testConfiguredSource(const QString &name)
{
    const core::SourceConfig *config = m_config.source(name);
    if (!config) {
        return;
    }
    QPointer<views::MainWindow> window(m_window.get());
    testSource(*config, {}, m_window->sourcesPage(), [window, name](bool ok, const QString &message) {
        if (window) {
            window->sourcesPage()->setTestResult(name, ok, message);
            window->showStatusMessage(ok ? tr("%1: connection OK").arg(name)
                                         : tr("%1: connection test failed").arg(name));
        }
    });
}

void DesktopController::openSupportBundle(const QString &path)
{
    m_window->showStatusMessage(tr("Opening %1…").arg(QFileInfo(path).fileName()));
    QPointer<DesktopController> self(this);
    core::openBundleAsync(path, this, [self, path](std::optional<core::Bundle> bundle, const QString &error) {
        if (!self) {
            return;
        }
        if (!bundle) {
            self->m_window->showNotification(tr("Cannot open the support bundle %1: %2").arg(path, error));
            return;
        }
        // Its own window and process: a snapshot never mixes with the live estate shown here.
        if (!QProcess::startDetached(QCoreApplication::applicationFilePath(), {QStringLiteral("--bundle"), path})) {
            self->m_window->showNotification(tr("Cannot start a window for the support bundle %1.").arg(path));
        }
    });
}

void DesktopController::compareSupportBundles(const QString &before, const QString &after)
{
    m_window->showStatusMessage(tr("Comparing support bundles…"));
    QPointer<DesktopController> self(this);
    core::diffBundleFilesAsync(
        before, after, this, [self, before, after](std::optional<core::BundleDiff> diff, const QString &error) {
            if (!self) {
                return;
            }
            if (!diff) {
                self->m_window->showNotification(tr("Cannot compare the support bundles: %1").arg(error));
                return;
            }
            auto *dialog = new views::BundleDiffDialog(
                *diff, QFileInfo(before).fileName(), QFileInfo(after).fileName(), self->m_window.get());
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->show();
        });
}

void DesktopController::applySource(const core::SourceConfig &config,
                                    const QString &password,
                                    std::function<void(QString)> done,
                                    const QString &s3Secret)
{
    QPointer<DesktopController> self(this);
    const QString name = config.name;
    m_sourceAdmin->apply({config, password, s3Secret}, [self, name, done](const core::SourceAdmin::Outcome &outcome) {
        if (!self) {
            return;
        }
        self->m_config.sources = self->m_engine.sourceConfigs();
        const QString error =
            outcome.status == core::SourceAdmin::Status::Invalid ? outcome.fieldErrors.first().message : outcome.error;
        // In use but not saved is said, yet the source runs.
        if (!error.isEmpty() && outcome.status != core::SourceAdmin::Status::ReadOnly) {
            self->m_window->showNotification(error);
        }
        if (outcome.applied) {
            self->m_window->sourcesPage()->selectSource(name);
            self->m_window->showStatusMessage(outcome.replaced ? tr("Source %1 updated.").arg(name)
                                                               : tr("Source %1 added.").arg(name));
        }
        if (done) {
            done(outcome.applied ? QString() : error);
        }
    });
}

void DesktopController::removeSource(const QString &name)
{
    QPointer<DesktopController> self(this);
    m_sourceAdmin->remove(name, [self, name](const core::SourceAdmin::Outcome &outcome) {
        if (!self) {
            return;
        }
        if (outcome.status == core::SourceAdmin::Status::ReadOnly) {
            self->m_window->showNotification(outcome.error, false);
        } else if (!outcome.error.isEmpty() && outcome.status != core::SourceAdmin::Status::NotFound) {
            // Not removed (the file would not load), not saved, or a secret left in the keychain.
            self->m_window->showNotification(outcome.error);
        }
    });
    // The engine has the change at once; the secrets are deleted afterwards.
    if (m_config.sources != m_engine.sourceConfigs()) {
        m_config.sources = m_engine.sourceConfigs();
        m_watched.remove(name);
        setAksSource({}, {}); // forgets clusters added as the removed source
        m_window->showStatusMessage(tr("Source %1 removed.").arg(name));
    }
}

void DesktopController::openLevelChangeDialog(const QString &source, const QString &volumeId)
{
    core::ServiceLevels &levels = m_engine.serviceLevels();
    const std::optional<core::ServiceLevelRow> row = levels.row(source, volumeId);
    if (!row) {
        m_window->showNotification(tr("The volume is no longer known to %1.").arg(source));
        return;
    }
    const QList<core::LevelOption> options = levels.options(source, volumeId);
    QStringList pools;
    if (const auto list = m_engine.estate().capacityPools().scope(source)) {
        const QString account = row->container.section(QLatin1Char('/'), 0, 0);
        for (const core::Ptr<core::CapacityPool> &pool : list->items()) {
            if (pool->account == account) {
                pools << pool->name;
            }
        }
    }
    auto *dialog = new views::LevelChangeDialog(*row, options, levels.rateCard().currency, pools, m_window.get());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        openActionDialog(dialog->request());
    });
    dialog->open();
}

void DesktopController::openScheduleDialog(const QString &source, const QString &volumeId)
{
    core::ServiceLevels &levels = m_engine.serviceLevels();
    const std::optional<core::ServiceLevelRow> row = levels.row(source, volumeId);
    if (!row) {
        m_window->showNotification(tr("The volume is no longer known to %1.").arg(source));
        return;
    }
    QStringList names;
    for (const core::LevelOption &o : levels.options(source, volumeId)) {
        names << o.level;
    }
    auto *dialog = new views::ScheduleDialog(*row, names, m_engine.clock().now(), m_window.get());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &views::ScheduleDialog::saveRequested, this, [this, dialog](core::ServiceLevelSchedule schedule) {
        QPointer<views::ScheduleDialog> guard(dialog);
        m_engine.schedules().add(schedule, this, [this, guard, schedule](qint64 id, const QString &error) {
            if (!error.isEmpty()) {
                if (guard) {
                    guard->setSaveError(error);
                } else {
                    m_window->showNotification(tr("The schedule was not saved: %1").arg(error));
                }
                return;
            }
            m_window->showStatusMessage(
                tr("Scheduled #%1: %2 to %3.").arg(id).arg(schedule.volumeName, schedule.level));
            if (guard) {
                guard->done(QDialog::Accepted);
            }
        });
    });
    dialog->open();
}

void DesktopController::openUpcomingDialog()
{
    if (!m_upcomingDialog) {
        m_upcomingDialog = new views::UpcomingChangesDialog(m_window.get());
        m_upcomingDialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_upcomingDialog, &views::UpcomingChangesDialog::removeRequested, this, [this](qint64 id) {
            m_engine.schedules().remove(id);
            m_window->showStatusMessage(tr("Schedule #%1 removed.").arg(id));
        });
    }
    updateUpcoming();
    m_upcomingDialog->show();
    m_upcomingDialog->raise();
}

void DesktopController::updateUpcoming()
{
    const QList<core::UpcomingChange> upcoming = m_engine.schedules().upcoming(200);
    if (views::ServiceLevelsPage *page = m_window->serviceLevelsPage()) {
        page->setUpcoming(upcoming);
    }
    if (m_upcomingDialog) {
        m_upcomingDialog->setUpcoming(upcoming);
    }
}

void DesktopController::openRateCardDialog()
{
    QStringList policies;
    for (const core::Ptr<core::QosPolicy> &p : m_engine.estate().qosPolicies().all()) {
        if (!policies.contains(p->name)) {
            policies << p->name;
        }
    }
    policies.sort(Qt::CaseInsensitive);
    // With a shared store the engine has the store's card, which another process may have changed.
    auto *dialog = new views::RateCardDialog(
        m_options.settings ? m_engine.serviceLevels().rateCard() : m_config.rateCard, policies, m_window.get());
    QStringList gpuProducts;
    for (const core::Ptr<core::GpuNode> &node : m_engine.estate().gpuNodes().all()) {
        if (!node->gpuProduct.isEmpty() && !gpuProducts.contains(node->gpuProduct)) {
            gpuProducts << node->gpuProduct;
        }
    }
    dialog->setGpuProducts(gpuProducts);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        applyRateCard(dialog->rateCard());
    });
    dialog->open();
}

void DesktopController::applyRateCard(const core::RateCard &card)
{
    if (m_options.settings) {
        if (card == m_engine.serviceLevels().rateCard()) {
            return;
        }
        // Every process on the store takes it from there, this one included once it is written.
        m_options.settings->setRateCard(
            card, QStringLiteral("desktop rate card dialog"), this, [this](const core::Status &written) {
                if (written) {
                    m_window->showStatusMessage(tr("Rate card saved."));
                } else {
                    m_window->showNotification(tr("The rate card was not saved: %1").arg(written.error().message));
                }
            });
        return;
    }
    if (card == m_config.rateCard) {
        return;
    }
    m_config.rateCard = card;
    saveConfig();
    m_engine.setRateCard(card);
    m_window->showStatusMessage(tr("Rate card saved."));
}

void DesktopController::fetchThroughputHistory(const QString &source, const QString &volumeId, qint64 rangeSeconds)
{
    views::ServiceLevelsPage *page = m_window->serviceLevelsPage();
    if (!page) {
        return;
    }
    if (!m_engine.history()) {
        page->setThroughputMessage(tr("Throughput history is not recorded in this session."));
        return;
    }
    const int request = ++m_throughputRequest;
    const QDateTime to = m_engine.clock().now();
    const QDateTime from = to.addSecs(-rangeSeconds);
    m_engine.serviceLevels().throughputHistory(
        source,
        volumeId,
        from,
        to,
        this,
        [this, request, source, volumeId, from, to](core::Result<std::vector<core::ThroughputPoint>> points) {
            views::ServiceLevelsPage *levels = m_window->serviceLevelsPage();
            if (request != m_throughputRequest || !levels) {
                return;
            }
            if (!points) {
                levels->setThroughputMessage(tr("Throughput history is unavailable: %1").arg(points.error().message));
                return;
            }
            levels->setThroughputHistory(source, volumeId, *points, from, to);
        });
}

void DesktopController::addAksCluster(const QString &source,
                                      const QString &clusterId,
                                      const QString &name,
                                      std::function<void(QString)> done)
{
    auto fail = [this, done](const QString &text) {
        m_window->showNotification(text);
        if (done) {
            done(text);
        }
    };
    const auto clusters = m_engine.estate().aksClusters().scope(source);
    const core::Ptr<core::AksCluster> cluster =
        clusters ? clusters->find(source + QLatin1Char('/') + clusterId) : nullptr;
    auto *azure = qobject_cast<core::AzureSource *>(m_engine.source(source));
    if (!cluster || !azure) {
        fail(tr("The AKS cluster is no longer listed by %1.").arg(source));
        return;
    }
    QString sourceName = name.isEmpty() ? cluster->name : name;
    if (name.isEmpty()) {
        for (int n = 2; m_config.source(sourceName); ++n) {
            sourceName = cluster->name + QLatin1Char('-') + QString::number(n);
        }
    } else if (m_config.source(sourceName)) {
        fail(tr("A source named %1 already exists.").arg(sourceName));
        return;
    }
    m_window->showStatusMessage(tr("Fetching the kubeconfig of %1…").arg(cluster->name));
    QPointer<DesktopController> self(this);
    const QString clusterName = cluster->name;
    const QString key = core::estateKey(*cluster);
    azure->fetchAksKubeconfig(
        cluster->armId, this, [self, sourceName, clusterName, key, done](const QString &yaml, const QString &error) {
            if (!self) {
                return;
            }
            if (!error.isEmpty() || yaml.isEmpty()) {
                const QString text = tr("The kubeconfig of %1 could not be fetched: %2")
                                         .arg(clusterName, error.isEmpty() ? tr("the answer was empty") : error);
                self->m_window->showNotification(text);
                if (done) {
                    done(text);
                }
                return;
            }
            core::SourceConfig config;
            config.name = sourceName;
            config.kind = core::SourceKind::Kubernetes;
            config.kubeconfigInSecret = true;
            // The kubeconfig (with its token) goes to the keychain as the source's secret.
            self->applySource(config, yaml, [self, key, sourceName, done](const QString &applyError) {
                if (self && applyError.isEmpty()) {
                    self->setAksSource(key, sourceName);
                }
                if (done) {
                    done(applyError);
                }
            });
        });
}

void DesktopController::setAksSource(const QString &clusterKey, const QString &sourceName)
{
    // Which Kubernetes source came from which AKS cluster is shown on the Sources page only, so
    // it lives with the window settings rather than in the config.
    QHash<QString, QString> added;
    const std::unique_ptr<QSettings> settings = openSettings(m_options.settingsPath);
    const QVariantMap stored = settings->value(QStringLiteral("aks/addedSources")).toMap();
    for (auto it = stored.cbegin(); it != stored.cend(); ++it) {
        if (m_config.source(it.value().toString())) {
            added.insert(it.key(), it.value().toString());
        }
    }
    if (!clusterKey.isEmpty()) {
        if (sourceName.isEmpty()) {
            added.remove(clusterKey);
        } else {
            added.insert(clusterKey, sourceName);
        }
    }
    QVariantMap next;
    for (auto it = added.cbegin(); it != added.cend(); ++it) {
        next.insert(it.key(), it.value());
    }
    settings->setValue(QStringLiteral("aks/addedSources"), next);
    m_aks->setAddedSources(added);
}

bool DesktopController::saveConfig()
{
    if (m_options.demo || m_options.configPath.isEmpty()) {
        return true;
    }
    if (const core::Status saved = m_config.save(m_options.configPath); !saved) {
        m_window->showNotification(tr("The configuration could not be saved: %1").arg(saved.error().message));
        return false;
    }
    return true;
}

void DesktopController::addDemoScenarioMenu()
{
    const core::GuidedScenario &steps = m_options.scenario;
    QMenu *menu = m_window->menuBar()->addMenu(tr("&Demo"));
    QAction *next = menu->addAction(QString());
    next->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_N));
    auto update = [this, next, &steps] {
        if (m_scenarioNext >= steps.size()) {
            next->setText(tr("TR-4858 scenario played to the end"));
            next->setEnabled(false);
            return;
        }
        const core::GuidedStep &step = steps.at(m_scenarioNext);
        next->setText(tr("Play step %1 of %2: %3").arg(m_scenarioNext + 1).arg(steps.size()).arg(step.title));
        next->setToolTip(step.command);
        next->setStatusTip(step.command);
    };
    update();
    // The step counts as played once its action was submitted (the dialog may be cancelled).
    connect(&m_engine.actions(), &core::ActionManager::actionAdded, this, [this, update, &steps](const QString &id) {
        const core::ActionRecord *record = m_engine.actions().find(id);
        if (record && m_scenarioNext < steps.size() && record->request == steps.at(m_scenarioNext).request) {
            ++m_scenarioNext;
            update();
        }
    });
    connect(next, &QAction::triggered, this, [this, &steps] {
        if (m_scenarioNext < steps.size()) {
            m_window->showPage(views::MainWindow::Page::Gpus);
            openActionDialog(steps.at(m_scenarioNext).request);
        }
    });
}

} // namespace strata::desktop
