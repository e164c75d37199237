#include "views/mainwindow.h"

#include "models/item/activitymodel.h"
#include "models/item/roles.h"
#include "models/item/sourcetablemodel.h"
#include "models/item/timelinemodel.h"
#include "views/activitypanel.h"
#include "views/cachetargetspage.h"
#include "views/chargebackpage.h"
#include "views/datasetspage.h"
#include "views/forecastspage.h"
#include "views/gpupage.h"
#include "views/jobspage.h"
#include "views/overviewpage.h"
#include "views/plaintextguard.h"
#include "views/servicelevelspage.h"
#include "views/sourcespage.h"
#include "views/statusdelegate.h"
#include "views/storagegridpage.h"
#include "views/triagepage.h"
#include "views/volumedetailpanel.h"
#include "views/volumespage.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace strata::views {

namespace {

QIcon themedIcon(const QString &name, QStyle::StandardPixmap fallback, const QStyle *style)
{
    return QIcon::fromTheme(name, style->standardIcon(fallback));
}

/// `icon` drawn in the palette's text colour: a black glyph (Qt's fallback "play" triangle)
/// disappears on a dark window.
QIcon textColouredIcon(const QIcon &icon, const QPalette &palette, int size)
{
    QPixmap pixmap = icon.pixmap(size, size);
    QPainter painter(&pixmap);
    painter.setCompositionMode(QPainter::CompositionMode_SourceIn);
    painter.fillRect(pixmap.rect(), palette.color(QPalette::WindowText));
    painter.end();
    return QIcon(pixmap);
}

QString healthStatus(core::Health health)
{
    switch (health) {
    case core::Health::Ok:
        return QStringLiteral("ok");
    case core::Health::Unknown:
        return QStringLiteral("unknown");
    case core::Health::Degraded:
        return QStringLiteral("warning");
    case core::Health::Unreachable:
    case core::Health::AuthRequired:
        return QStringLiteral("critical");
    }
    return QStringLiteral("unknown");
}

int severity(core::Health health)
{
    switch (health) {
    case core::Health::Ok:
        return 0;
    case core::Health::Unknown:
        return 1;
    case core::Health::Degraded:
        return 2;
    case core::Health::Unreachable:
        return 3;
    case core::Health::AuthRequired:
        return 4;
    }
    return 1;
}

QString healthWord(core::Health health)
{
    switch (health) {
    case core::Health::Ok:
        return MainWindow::tr("OK");
    case core::Health::Unknown:
        return MainWindow::tr("connecting…");
    case core::Health::Degraded:
        return MainWindow::tr("degraded");
    case core::Health::Unreachable:
        return MainWindow::tr("unreachable");
    case core::Health::AuthRequired:
        return MainWindow::tr("authentication required");
    }
    return {};
}

/// Ctrl+1 ... Ctrl+9, then Ctrl+0 for the tenth page; none after that.
QKeySequence pageShortcut(int index)
{
    if (index < 9) {
        return QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + index));
    }
    return index == 9 ? QKeySequence(Qt::CTRL | Qt::Key_0) : QKeySequence();
}

const core::Health kHealthOrder[] = {core::Health::Ok,
                                     core::Health::Unknown,
                                     core::Health::Degraded,
                                     core::Health::Unreachable,
                                     core::Health::AuthRequired};

} // namespace

MainWindow::MainWindow(const Models &models, const core::IClock &clock, QWidget *parent)
    : QMainWindow(parent)
    , m_models(models)
{
    setObjectName(QStringLiteral("mainWindow"));
    // Before any page: vendor and user text in labels never renders as markup.
    new PlainTextGuard(this);
    setWindowTitle(tr("Strata"));
    setWindowIcon(themedIcon(QStringLiteral("drive-harddisk"), QStyle::SP_DriveHDIcon, style()));

    m_volumesPage = new VolumesPage(m_models.volumes, m_models.snapshots, clock, m_models.sources, this);
    m_sourcesPage = new SourcesPage(m_models.sources, m_models.aksClusters, this);
    if (m_models.serviceLevels) {
        m_serviceLevelsPage = new ServiceLevelsPage(m_models.serviceLevels, m_models.sources, this);
    }
    if (m_models.forecasts) {
        m_forecastsPage = new ForecastsPage(m_models.forecasts, m_models.sources, this);
    }
    if (m_models.timeline) {
        m_triagePage = new TriagePage(m_models.timeline, this);
    }
    const bool compute = m_models.estate && m_models.jobs && m_models.projects;
    if (compute) {
        m_overviewPage = new OverviewPage(m_models.estate, m_models.sources, this);
        m_gpuPage = new GpuPage(m_models.estate, m_models.projects, this);
        m_jobsPage = new JobsPage(m_models.estate, m_models.jobs, this);
        if (m_models.chargeback) {
            m_chargebackPage = new ChargebackPage(clock, this);
        }
    }

    if (m_models.estate && m_models.datasets && m_models.commits && m_models.cachedCommits && m_models.cacheTargets) {
        m_datasetsPage = new DatasetsPage(
            m_models.estate, m_models.datasets, m_models.commits, m_models.cachedCommits, m_models.cacheTargets, this);
        m_cacheTargetsPage = new CacheTargetsPage(m_models.cacheTargets, m_models.cachedCommits, this);
    }
    if (m_models.estate && m_models.gridNodes && m_models.gridAlerts && m_models.tenants && m_models.buckets) {
        m_storageGridPage = new StorageGridPage(
            m_models.estate, m_models.gridNodes, m_models.gridAlerts, m_models.tenants, m_models.buckets, this);
    }

    m_navigation = new QListWidget(this);
    m_navigation->setObjectName(QStringLiteral("navigationListWidget"));
    m_navigation->setIconSize(QSize(24, 24));
    m_navigation->setFrameShape(QFrame::NoFrame);
    m_navigation->setSpacing(2);
    m_stack = new QStackedWidget(this);
    m_stack->setObjectName(QStringLiteral("pageStackedWidget"));
    if (compute) {
        addPage(Page::Overview,
                m_overviewPage,
                tr("Overview"),
                themedIcon(QStringLiteral("go-home"), QStyle::SP_DirHomeIcon, style()),
                tr("GPU clusters, jobs and storage at a glance"));
        addPage(Page::Gpus,
                m_gpuPage,
                tr("GPUs"),
                themedIcon(QStringLiteral("video-display"), QStyle::SP_ComputerIcon, style()),
                tr("GPUs per project, allocation over time and node packing"));
        addPage(Page::Jobs,
                m_jobsPage,
                tr("Jobs"),
                themedIcon(QStringLiteral("system-run"), QStyle::SP_MediaPlay, style()),
                tr("Running and queued jobs of every project"));
        updateJobsIcon();
    }
    if (m_datasetsPage) {
        addPage(Page::Datasets,
                m_datasetsPage,
                tr("Datasets"),
                themedIcon(QStringLiteral("folder-database"), QStyle::SP_DirIcon, style()),
                tr("The dataset hub: datasets, their commits and where they are cached"));
        addPage(Page::CacheTargets,
                m_cacheTargetsPage,
                tr("Cache targets"),
                themedIcon(QStringLiteral("drive-multidisk"), QStyle::SP_DriveNetIcon, style()),
                tr("Cache volumes next to the GPUs, what fills them and when it is evicted"));
    }
    if (m_chargebackPage) {
        addPage(Page::Chargeback,
                m_chargebackPage,
                tr("Chargeback"),
                themedIcon(QStringLiteral("accessories-calculator"), QStyle::SP_FileDialogListView, style()),
                tr("GPU-hours, storage GiB-hours and their cost per project and month"));
    }
    addPage(Page::Volumes,
            m_volumesPage,
            tr("Volumes"),
            themedIcon(QStringLiteral("drive-harddisk"), QStyle::SP_DriveHDIcon, style()),
            tr("Volumes of every source"));
    if (m_serviceLevelsPage) {
        addPage(Page::ServiceLevels,
                m_serviceLevelsPage,
                tr("Service levels"),
                themedIcon(QStringLiteral("speedometer"), QStyle::SP_ArrowUp, style()),
                tr("Throughput caps, observed throughput and scheduled level changes of every volume"));
    }
    if (m_forecastsPage) {
        addPage(Page::Forecasts,
                m_forecastsPage,
                tr("Forecasts"),
                themedIcon(QStringLiteral("office-chart-line"), QStyle::SP_FileDialogInfoView, style()),
                tr("When each volume, aggregate, pool, bucket, tenant and cache target fills, full soonest first"));
    }
    if (m_storageGridPage) {
        addPage(Page::StorageGrid,
                m_storageGridPage,
                tr("StorageGRID"),
                themedIcon(QStringLiteral("network-server-database"), QStyle::SP_DriveNetIcon, style()),
                tr("Grid health, nodes, alerts, tenants and buckets"));
    }
    addPage(Page::Sources,
            m_sourcesPage,
            tr("Sources"),
            themedIcon(QStringLiteral("network-server"), QStyle::SP_DriveNetIcon, style()),
            tr("Connected systems and their health"));
    if (m_triagePage) {
        addPage(Page::Events,
                m_triagePage,
                tr("Triage"),
                themedIcon(QStringLiteral("dialog-warning"), QStyle::SP_MessageBoxWarning, style()),
                tr("Events, alerts, operations, scheduler decisions and changes of every system on one timeline"));
        connect(m_triagePage,
                &TriagePage::objectRequested,
                this,
                [this](const QString &kind, const QString &source, const QString &id) {
                    if (!showObject(kind, source, id)) {
                        showNotification(tr("%1 is not shown on any page now.").arg(id.isEmpty() ? kind : id), false);
                    }
                });
    }
    for (int i = 0; i < m_navigation->count(); ++i) {
        QListWidgetItem *item = m_navigation->item(i);
        const QKeySequence shortcut = pageShortcut(i);
        if (!shortcut.isEmpty()) {
            item->setToolTip(tr("%1 (%2)").arg(item->toolTip(), shortcut.toString(QKeySequence::NativeText)));
        }
    }
    int navWidth = 0;
    for (int i = 0; i < m_navigation->count(); ++i) {
        navWidth = std::max(navWidth, fontMetrics().horizontalAdvance(m_navigation->item(i)->text()));
    }
    m_navigation->setFixedWidth(navWidth + 24 + 48);
    if (compute) {
        connect(m_overviewPage, &OverviewPage::gpuPageRequested, this, [this](const QString &source) {
            if (!source.isEmpty()) {
                m_gpuPage->setCluster(source);
            }
            showPage(Page::Gpus);
        });
        connect(m_overviewPage, &OverviewPage::jobsPageRequested, this, [this](const QString &source, bool queued) {
            m_jobsPage->showJobs(source, {}, queued);
            showPage(Page::Jobs);
        });
        connect(m_overviewPage, &OverviewPage::volumesPageRequested, this, [this] {
            showPage(Page::Volumes);
        });
        connect(m_overviewPage, &OverviewPage::sourcesPageRequested, this, [this] {
            showPage(Page::Sources);
        });
        connect(m_overviewPage, &OverviewPage::objectRequested, this, &MainWindow::showObject);
        if (m_triagePage) {
            m_overviewPage->setTimeline(&m_models.timeline->timeline());
            connect(m_overviewPage, &OverviewPage::triageRequested, this, [this](const QString &system) {
                m_triagePage->showSystem(system);
                showPage(Page::Events);
            });
        }
        connect(m_gpuPage, &GpuPage::jobsRequested, this, [this](const QString &source, const QString &project) {
            m_jobsPage->showJobs(source, project);
            showPage(Page::Jobs);
        });
        connect(m_jobsPage, &JobsPage::volumeRequested, this, [this](const QString &source, const QString &id) {
            if (!showVolume(source, id)) {
                showNotification(tr("The volume behind this claim is not in the Volumes list (source %1).").arg(source),
                                 false);
            }
        });
    }
    connect(m_navigation, &QListWidget::currentRowChanged, m_stack, &QStackedWidget::setCurrentIndex);

    // Failures stay visible here until dismissed, without a modal box in the way.
    m_notification = new QFrame(this);
    m_notification->setObjectName(QStringLiteral("notificationFrame"));
    m_notification->setFrameShape(QFrame::StyledPanel);
    m_notification->setAutoFillBackground(true);
    m_notification->setBackgroundRole(QPalette::AlternateBase);
    m_notificationIcon = new QLabel(m_notification);
    m_notificationLabel = new QLabel(m_notification);
    m_notificationLabel->setObjectName(QStringLiteral("notificationLabel"));
    m_notificationLabel->setWordWrap(true);
    m_notificationLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *close = new QToolButton(m_notification);
    close->setObjectName(QStringLiteral("notificationCloseButton"));
    close->setAutoRaise(true);
    close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close->setToolTip(tr("Dismiss"));
    auto *notificationLayout = new QHBoxLayout(m_notification);
    notificationLayout->setContentsMargins(8, 4, 4, 4);
    notificationLayout->addWidget(m_notificationIcon);
    notificationLayout->addWidget(m_notificationLabel, 1);
    notificationLayout->addWidget(close, 0, Qt::AlignTop);
    m_notification->hide();
    connect(close, &QToolButton::clicked, m_notification, &QWidget::hide);

    m_readOnlyBanner = new QLabel(this);
    m_readOnlyBanner->setObjectName(QStringLiteral("readOnlyBanner"));
    m_readOnlyBanner->setAlignment(Qt::AlignCenter);
    m_readOnlyBanner->setMargin(6);
    m_readOnlyBanner->setAutoFillBackground(true);
    m_readOnlyBanner->setBackgroundRole(QPalette::ToolTipBase);
    m_readOnlyBanner->setForegroundRole(QPalette::ToolTipText);
    QFont bannerFont = m_readOnlyBanner->font();
    bannerFont.setBold(true);
    m_readOnlyBanner->setFont(bannerFont);
    m_readOnlyBanner->hide();

    auto *pages = new QWidget(this);
    auto *pagesLayout = new QVBoxLayout(pages);
    pagesLayout->setContentsMargins(0, 0, 0, 0);
    pagesLayout->addWidget(m_readOnlyBanner);
    pagesLayout->addWidget(m_notification);
    pagesLayout->addWidget(m_stack, 1);
    auto *central = new QWidget(this);
    auto *centralLayout = new QHBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_navigation);
    auto *separator = new QFrame(central);
    separator->setFrameShape(QFrame::VLine);
    separator->setFrameShadow(QFrame::Sunken);
    centralLayout->addWidget(separator);
    centralLayout->addWidget(pages, 1);
    setCentralWidget(central);

    m_activityPanel = new ActivityPanel(m_models.activity, this);
    m_activityDock = new QDockWidget(tr("Activity"), this);
    m_activityDock->setObjectName(QStringLiteral("activityDockWidget"));
    m_activityDock->setWidget(m_activityPanel);
    m_activityDock->setAllowedAreas(Qt::BottomDockWidgetArea | Qt::RightDockWidgetArea);
    addDockWidget(Qt::BottomDockWidgetArea, m_activityDock);
    resizeDocks({m_activityDock}, {160}, Qt::Vertical);
    // Nothing to show yet: the pages get the height until the first action; a new action shows
    // the panel, even if the user had closed it.
    m_activityDock->setVisible(m_models.activity->rowCount() > 0);
    connect(m_models.activity, &QAbstractItemModel::rowsInserted, m_activityDock, &QWidget::show);

    m_healthLabel = new QLabel(this);
    m_healthLabel->setObjectName(QStringLiteral("sourceHealthLabel"));
    m_healthLabel->setTextFormat(Qt::RichText);
    statusBar()->addPermanentWidget(m_healthLabel);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved}) {
        connect(m_models.sources, signal, this, &MainWindow::updateHealthSummary);
    }
    connect(m_models.sources, &QAbstractItemModel::dataChanged, this, &MainWindow::updateHealthSummary);
    connect(m_models.sources, &QAbstractItemModel::modelReset, this, &MainWindow::updateHealthSummary);
    connect(m_models.sources, &QAbstractItemModel::rowsMoved, this, &MainWindow::updateHealthSummary);

    createMenus();
    m_navigation->setCurrentRow(0);
    updateHealthSummary();
    resize(1280, 820);
    fitToScreen();
}

MainWindow::~MainWindow() = default;

void MainWindow::setReadOnlyBanner(const QString &text)
{
    m_readOnlyBanner->setText(text);
    m_readOnlyBanner->setVisible(!text.isEmpty());
    m_addSourceAction->setEnabled(text.isEmpty());
    m_refreshAction->setEnabled(text.isEmpty());
}

QString MainWindow::readOnlyBannerText() const
{
    return m_readOnlyBanner->isVisibleTo(this) ? m_readOnlyBanner->text() : QString();
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *addSource = file->addAction(
        themedIcon(QStringLiteral("list-add"), QStyle::SP_FileDialogNewFolder, style()), tr("&Add source…"));
    addSource->setObjectName(QStringLiteral("addSourceAction"));
    m_addSourceAction = addSource;
    connect(addSource, &QAction::triggered, this, [this] {
        showPage(Page::Sources);
        Q_EMIT m_sourcesPage->addRequested();
    });
    file->addSeparator();
    const QString bundleFilter = tr("Strata support bundles (*.strata-bundle);;All files (*)");
    QAction *openBundle = file->addAction(
        themedIcon(QStringLiteral("document-open"), QStyle::SP_DialogOpenButton, style()), tr("&Open support bundle…"));
    openBundle->setObjectName(QStringLiteral("openBundleAction"));
    openBundle->setToolTip(tr("Show a support bundle read-only, in a new window, without connecting to anything"));
    connect(openBundle, &QAction::triggered, this, [this, bundleFilter] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open support bundle"), QString(), bundleFilter);
        if (!path.isEmpty()) {
            Q_EMIT openBundleRequested(path);
        }
    });
    QAction *compareBundles = file->addAction(tr("&Compare support bundles…"));
    compareBundles->setObjectName(QStringLiteral("compareBundlesAction"));
    connect(compareBundles, &QAction::triggered, this, [this, bundleFilter] {
        const QString before =
            QFileDialog::getOpenFileName(this, tr("Compare support bundles: the older one"), QString(), bundleFilter);
        if (before.isEmpty()) {
            return;
        }
        const QString after = QFileDialog::getOpenFileName(
            this, tr("Compare support bundles: the newer one"), QFileInfo(before).absolutePath(), bundleFilter);
        if (!after.isEmpty()) {
            Q_EMIT compareBundlesRequested(before, after);
        }
    });
    file->addSeparator();
    QAction *quit = file->addAction(
        themedIcon(QStringLiteral("application-exit"), QStyle::SP_DialogCloseButton, style()), tr("&Quit"));
    quit->setObjectName(QStringLiteral("quitAction"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    m_refreshAction =
        view->addAction(themedIcon(QStringLiteral("view-refresh"), QStyle::SP_BrowserReload, style()), tr("&Refresh"));
    m_refreshAction->setObjectName(QStringLiteral("refreshAction"));
    m_refreshAction->setShortcut(QKeySequence::Refresh);
    m_refreshAction->setToolTip(tr("Poll every source now (F5)"));
    connect(m_refreshAction, &QAction::triggered, this, [this] {
        showStatusMessage(tr("Refreshing all sources…"), 3000);
        Q_EMIT refreshRequested();
    });
    connect(m_volumesPage, &VolumesPage::refreshRequested, m_refreshAction, &QAction::trigger);
    view->addSeparator();
    for (int i = 0; i < m_navigation->count(); ++i) {
        QAction *go = view->addAction(QLatin1Char('&') + m_navigation->item(i)->text());
        go->setShortcut(pageShortcut(i));
        const Page page = m_pageOrder[i];
        connect(go, &QAction::triggered, this, [this, page] {
            showPage(page);
        });
    }
    view->addSeparator();
    QAction *activity = m_activityDock->toggleViewAction();
    activity->setObjectName(QStringLiteral("activityAction"));
    activity->setText(tr("&Activity"));
    activity->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    view->addAction(activity);

    QMenu *settings = menuBar()->addMenu(tr("&Settings"));
    m_rateCardAction = settings->addAction(tr("&Rate card…"));
    m_rateCardAction->setObjectName(QStringLiteral("rateCardAction"));
    m_rateCardAction->setToolTip(tr("Prices per GiB and month, and the cool-down between level changes"));
    m_rateCardAction->setEnabled(m_serviceLevelsPage != nullptr);
    if (m_serviceLevelsPage) {
        connect(m_rateCardAction, &QAction::triggered, m_serviceLevelsPage, &ServiceLevelsPage::rateCardRequested);
    }

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *about = help->addAction(tr("&About Strata"));
    about->setObjectName(QStringLiteral("aboutAction"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);

    QToolBar *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setMovable(false);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->addAction(m_refreshAction);
    toolbar->addAction(activity);
}

void MainWindow::showAbout()
{
    QMessageBox about(
        QMessageBox::Information,
        tr("About Strata"),
        tr("<h3>Strata %1</h3>"
           "<p>One console for the storage and the GPUs behind AI work.</p>"
           "<p>Built with Qt %2.</p>")
            .arg(QApplication::applicationVersion().toHtmlEscaped(), QString::fromLatin1(qVersion()).toHtmlEscaped()),
        QMessageBox::Ok,
        this);
    about.setIconPixmap(windowIcon().pixmap(64, 64));
    about.setTextFormat(Qt::RichText);
    about.exec();
}

void MainWindow::addPage(Page page, QWidget *widget, const QString &text, const QIcon &icon, const QString &tip)
{
    auto *item = new QListWidgetItem(icon, text, m_navigation);
    item->setToolTip(tip);
    item->setSizeHint(QSize(0, fontMetrics().height() + 18));
    // A page taller than the screen (a long detail, a short laptop display) scrolls; without
    // this its minimum size would grow the window past the screen.
    auto *scroll = new QScrollArea(m_stack);
    scroll->setObjectName(widget->objectName() + QStringLiteral("ScrollArea"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(widget);
    m_stack->addWidget(scroll);
    m_pageOrder.append(page);
}

void MainWindow::fitToScreen()
{
    const QScreen *screen = this->screen();
    if (!screen || isMaximized() || isFullScreen()) {
        return;
    }
    const QRect available = screen->availableGeometry();
    // The frame (title bar, borders) is known once the window is shown; before that, leave
    // room for a typical one.
    const QMargins frame = isVisible() ? QMargins(geometry().left() - frameGeometry().left(),
                                                  geometry().top() - frameGeometry().top(),
                                                  frameGeometry().right() - geometry().right(),
                                                  frameGeometry().bottom() - geometry().bottom())
                                       : QMargins(0, 32, 0, 0);
    const QSize room = available.size().shrunkBy(frame);
    const QSize fitted = size().boundedTo(room).expandedTo(minimumSizeHint().boundedTo(room));
    if (fitted != size()) {
        resize(fitted);
    }
    QRect outer = frameGeometry();
    if (!available.contains(outer)) {
        outer.moveLeft(std::clamp(
            outer.left(), available.left(), std::max(available.left(), available.right() - outer.width() + 1)));
        outer.moveTop(std::clamp(
            outer.top(), available.top(), std::max(available.top(), available.bottom() - outer.height() + 1)));
        move(outer.topLeft());
    }
}

void MainWindow::showPage(Page page)
{
    const int row = int(m_pageOrder.indexOf(page));
    if (row >= 0) {
        m_navigation->setCurrentRow(row);
    }
}

MainWindow::Page MainWindow::currentPage() const
{
    return m_pageOrder.value(m_stack->currentIndex(), Page::Volumes);
}

bool MainWindow::showVolume(const QString &source, const QString &volumeId)
{
    showPage(Page::Volumes);
    return m_volumesPage->selectVolume(source + QLatin1Char('/') + volumeId);
}

bool MainWindow::showObject(const QString &kind, const QString &source, const QString &id)
{
    if (kind == QLatin1String("volume")) {
        return showVolume(source, id);
    }
    if (kind == QLatin1String("pool")) {
        showPage(Page::Volumes);
        return true;
    }
    if ((kind == QLatin1String("job") || kind == QLatin1String("project")) && m_jobsPage) {
        showPage(Page::Jobs);
        if (kind == QLatin1String("project")) {
            m_jobsPage->showJobs(source, id);
            return true;
        }
        return m_jobsPage->selectJob(source, id);
    }
    if (kind == QLatin1String("node") && m_gpuPage && m_models.estate->gpuClusters().scope(source)) {
        m_gpuPage->setCluster(source);
        showPage(Page::Gpus);
        return true;
    }
    if (kind == QLatin1String("cluster") && m_gpuPage) {
        m_gpuPage->setCluster(source);
        showPage(Page::Gpus);
        return true;
    }
    if (kind == QLatin1String("cache_target") && m_cacheTargetsPage) {
        showPage(Page::CacheTargets);
        return m_cacheTargetsPage->selectTarget(source, id);
    }
    if ((kind == QLatin1String("alert") || kind == QLatin1String("grid")) && m_storageGridPage) {
        showPage(Page::StorageGrid);
        return true;
    }
    if (kind == QLatin1String("cached_commit") && m_cacheTargetsPage) {
        showPage(Page::CacheTargets);
        m_cacheTargetsPage->selectTarget(source, id.section(QLatin1Char('/'), 0, 0));
        return m_cacheTargetsPage->selectCachedCommit(id.section(QLatin1Char('/'), 1));
    }
    if (kind == QLatin1String("source")) {
        showPage(Page::Sources);
        m_sourcesPage->selectSource(id);
        return true;
    }
    return false;
}

void MainWindow::showNotification(const QString &text, bool error)
{
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_notificationIcon->setPixmap(
        style()
            ->standardIcon(error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxInformation, nullptr, this)
            .pixmap(size, size));
    m_notificationLabel->setText(text);
    m_notification->setProperty("error", error);
    m_notification->show();
}

QString MainWindow::notificationText() const
{
    return m_notification->isVisibleTo(this) ? m_notificationLabel->text() : QString();
}

void MainWindow::showStatusMessage(const QString &text, int timeoutMs)
{
    statusBar()->showMessage(text, timeoutMs);
}

QString MainWindow::healthSummary(const QList<core::Health> &healths, QString *worst)
{
    if (worst) {
        *worst = QStringLiteral("unknown");
    }
    if (healths.isEmpty()) {
        return tr("No sources configured");
    }
    QStringList parts;
    core::Health worstHealth = core::Health::Ok;
    for (core::Health h : kHealthOrder) {
        const auto n = healths.count(h);
        if (n > 0) {
            parts << QStringLiteral("%1 %2").arg(QLocale().toString(qlonglong(n)), healthWord(h));
            if (severity(h) >= severity(worstHealth)) {
                worstHealth = h;
            }
        }
    }
    if (worst) {
        *worst = healthStatus(worstHealth);
    }
    // Explicit singular/plural: the English text must read right without a loaded catalogue.
    const int n = int(healths.size());
    return (n == 1 ? tr("%Ln source: %1", nullptr, n) : tr("%Ln sources: %1", nullptr, n))
        .arg(parts.join(QStringLiteral(", ")));
}

QString MainWindow::healthSummaryText() const
{
    return m_healthPlain;
}

void MainWindow::updateHealthSummary()
{
    QList<core::Health> healths;
    QStringList tooltip;
    for (int row = 0; row < m_models.sources->rowCount(); ++row) {
        const QModelIndex health = m_models.sources->index(row, models::SourceTableModel::Health);
        healths << core::Health(health.data(models::RawValueRole).toInt());
        QString line = m_models.sources->nameAt(row) + QStringLiteral(": ") + health.data().toString();
        const QString error = m_models.sources->index(row, models::SourceTableModel::Error).data().toString();
        if (!error.isEmpty()) {
            line += QStringLiteral(" — ") + error;
        }
        tooltip << line;
    }
    QString worst;
    m_healthPlain = healthSummary(healths, &worst);
    QString html = m_healthPlain.toHtmlEscaped();
    // Colour the worst state's part so a glance at the corner says what needs attention.
    core::Health worstHealth = core::Health::Ok;
    for (core::Health h : healths) {
        if (severity(h) >= severity(worstHealth)) {
            worstHealth = h;
        }
    }
    if (!healths.isEmpty()) {
        const QString part = QStringLiteral("%1 %2").arg(QLocale().toString(qlonglong(healths.count(worstHealth))),
                                                         healthWord(worstHealth));
        const QColor color = StatusDelegate::colorFor(worst, palette(), true);
        html.replace(part.toHtmlEscaped(),
                     QStringLiteral("<span style=\"color:%1; font-weight:bold\">%2</span>")
                         .arg(color.name(), part.toHtmlEscaped()));
    }
    m_healthLabel->setText(html);
    m_healthLabel->setToolTip(tooltip.join(QLatin1Char('\n')));
}

QVariantMap MainWindow::layoutState() const
{
    QVariantMap state;
    state.insert(QStringLiteral("window/geometry"), saveGeometry());
    state.insert(QStringLiteral("window/state"), saveState());
    state.insert(QStringLiteral("window/page"), int(currentPage()));
    state.insert(QStringLiteral("volumes/header"), m_volumesPage->headerState());
    state.insert(QStringLiteral("volumes/splitter"), m_volumesPage->splitterState());
    for (const QSplitter *splitter : findChildren<QSplitter *>()) {
        if (!splitter->objectName().isEmpty()) {
            state.insert(QStringLiteral("splitters/") + splitter->objectName(), splitter->saveState());
        }
    }
    state.insert(QStringLiteral("snapshots/header"), m_volumesPage->detailPanel()->snapshotHeaderState());
    state.insert(QStringLiteral("sources/header"), m_sourcesPage->headerState());
    if (m_triagePage) {
        state.insert(QStringLiteral("triage/header"), m_triagePage->headerState());
    }
    state.insert(QStringLiteral("activity/header"), m_activityPanel->headerState());
    if (m_serviceLevelsPage) {
        state.insert(QStringLiteral("levels/header"), m_serviceLevelsPage->headerState());
    }
    if (m_datasetsPage) {
        state.insert(QStringLiteral("datasets/header"), m_datasetsPage->headerState());
        state.insert(QStringLiteral("caches/header"), m_cacheTargetsPage->headerState());
    }
    if (m_storageGridPage) {
        state.insert(QStringLiteral("grid/header"), m_storageGridPage->headerState());
    }
    if (m_forecastsPage) {
        state.insert(QStringLiteral("forecasts/header"), m_forecastsPage->headerState());
    }
    if (m_jobsPage) {
        state.insert(QStringLiteral("jobs/header"), m_jobsPage->headerState());
        state.insert(QStringLiteral("projects/header"), m_gpuPage->headerState());
    }
    return state;
}

void MainWindow::restoreLayoutState(const QVariantMap &state)
{
    const QByteArray geometry = state.value(QStringLiteral("window/geometry")).toByteArray();
    if (!geometry.isEmpty()) {
        restoreGeometry(geometry);
    }
    const QByteArray windowState = state.value(QStringLiteral("window/state")).toByteArray();
    if (!windowState.isEmpty()) {
        restoreState(windowState);
    }
    // Saved on a bigger screen, or before this fix: never larger than the screen it opens on.
    fitToScreen();
    for (QSplitter *splitter : findChildren<QSplitter *>()) {
        const QByteArray saved = state.value(QStringLiteral("splitters/") + splitter->objectName()).toByteArray();
        if (!splitter->objectName().isEmpty() && !saved.isEmpty()) {
            splitter->restoreState(saved);
        }
    }
    if (state.contains(QStringLiteral("window/page"))) {
        showPage(Page(state.value(QStringLiteral("window/page")).toInt()));
    }
    m_volumesPage->restoreHeaderState(state.value(QStringLiteral("volumes/header")).toByteArray());
    m_volumesPage->restoreSplitterState(state.value(QStringLiteral("volumes/splitter")).toByteArray());
    m_volumesPage->detailPanel()->restoreSnapshotHeaderState(
        state.value(QStringLiteral("snapshots/header")).toByteArray());
    m_sourcesPage->restoreHeaderState(state.value(QStringLiteral("sources/header")).toByteArray());
    if (m_triagePage) {
        m_triagePage->restoreHeaderState(state.value(QStringLiteral("triage/header")).toByteArray());
    }
    m_activityPanel->restoreHeaderState(state.value(QStringLiteral("activity/header")).toByteArray());
    if (m_serviceLevelsPage) {
        m_serviceLevelsPage->restoreHeaderState(state.value(QStringLiteral("levels/header")).toByteArray());
    }
    if (m_datasetsPage) {
        m_datasetsPage->restoreHeaderState(state.value(QStringLiteral("datasets/header")).toByteArray());
        m_cacheTargetsPage->restoreHeaderState(state.value(QStringLiteral("caches/header")).toByteArray());
    }
    if (m_storageGridPage) {
        m_storageGridPage->restoreHeaderState(state.value(QStringLiteral("grid/header")).toByteArray());
    }
    if (m_forecastsPage) {
        m_forecastsPage->restoreHeaderState(state.value(QStringLiteral("forecasts/header")).toByteArray());
    }
    if (m_jobsPage) {
        m_jobsPage->restoreHeaderState(state.value(QStringLiteral("jobs/header")).toByteArray());
        m_gpuPage->restoreHeaderState(state.value(QStringLiteral("projects/header")).toByteArray());
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    Q_EMIT closing();
    QMainWindow::closeEvent(event);
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    fitToScreen();
}

void MainWindow::updateJobsIcon()
{
    const int row = int(m_pageOrder.indexOf(Page::Jobs));
    if (row < 0 || QIcon::hasThemeIcon(QStringLiteral("system-run"))) {
        return; // the icon theme's own icon suits its light or dark variant
    }
    m_navigation->item(row)->setIcon(
        textColouredIcon(style()->standardIcon(QStyle::SP_MediaPlay), palette(), m_navigation->iconSize().width()));
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        updateHealthSummary();
        updateJobsIcon();
    }
    QMainWindow::changeEvent(event);
}

} // namespace strata::views
