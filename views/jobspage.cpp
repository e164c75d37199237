#include "views/jobspage.h"

#include "models/core/domain/estate.h"
#include "models/item/jobtablemodel.h"
#include "models/item/roles.h"
#include "views/jobdetailpanel.h"
#include "views/jobfilterproxy.h"
#include "views/jobsubmitdialog.h"
#include "views/statusdelegate.h"
#include "views/tablepage.h"
#include "views/tableviewstyle.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <map>

namespace strata::views {

using models::JobTableModel;

namespace {

QString projectKey(const QString &source, const QString &project)
{
    return source + QLatin1Char('\n') + project;
}

} // namespace

JobsPage::JobsPage(core::Estate *estate, models::JobTableModel *jobs, QWidget *parent)
    : QWidget(parent)
    , m_estate(estate)
    , m_jobs(jobs)
{
    setObjectName(QStringLiteral("jobsPage"));

    m_projectCombo = new QComboBox(this);
    m_projectCombo->setObjectName(QStringLiteral("jobProjectComboBox"));
    m_projectCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_statusCombo = new QComboBox(this);
    m_statusCombo->setObjectName(QStringLiteral("jobStatusComboBox"));
    m_statusCombo->addItem(tr("All statuses"), -1);
    for (core::JobStatus s : {core::JobStatus::Running,
                              core::JobStatus::ContainerCreating,
                              core::JobStatus::Pending,
                              core::JobStatus::Preempted,
                              core::JobStatus::Succeeded,
                              core::JobStatus::Failed}) {
        m_statusCombo->addItem(JobTableModel::statusText(s), int(s));
    }
    m_filterEdit = new QLineEdit(this);
    m_filterEdit->setObjectName(QStringLiteral("jobFilterLineEdit"));
    m_filterEdit->setPlaceholderText(tr("Filter by name, user, node, image…"));
    m_filterEdit->setClearButtonEnabled(true);
    m_submitButton = new QPushButton(style()->standardIcon(QStyle::SP_FileDialogNewFolder), tr("&Submit…"), this);
    m_submitButton->setObjectName(QStringLiteral("jobSubmitButton"));
    m_submitButton->setToolTip(tr("Submit a training or interactive job to a project"));
    m_deleteButton = new QPushButton(style()->standardIcon(QStyle::SP_TrashIcon), tr("&Delete…"), this);
    m_deleteButton->setObjectName(QStringLiteral("jobDeleteButton"));
    m_deleteButton->setToolTip(tr("Delete the selected jobs (Del)"));
    m_deleteButton->setEnabled(false);
    auto *toolbar = new QHBoxLayout();
    toolbar->addWidget(new QLabel(tr("Project:"), this));
    toolbar->addWidget(m_projectCombo);
    toolbar->addWidget(m_statusCombo);
    toolbar->addWidget(m_filterEdit, 1);
    toolbar->addWidget(m_submitButton);
    toolbar->addWidget(m_deleteButton);

    m_countsLabel = new QLabel(this);
    m_countsLabel->setObjectName(QStringLiteral("jobQueueCountsLabel"));

    m_runningProxy = new JobFilterProxy(JobFilterProxy::Scope::Running, this);
    m_runningProxy->setObjectName(QStringLiteral("runningJobProxy"));
    m_runningProxy->setSourceModel(m_jobs);
    m_queuedProxy = new JobFilterProxy(JobFilterProxy::Scope::Queued, this);
    m_queuedProxy->setObjectName(QStringLiteral("queuedJobProxy"));
    m_queuedProxy->setSourceModel(m_jobs);
    m_runningView = new QTableView(this);
    m_queuedView = new QTableView(this);
    setupTable(m_runningView, m_runningProxy, QStringLiteral("runningJobTableView"));
    setupTable(m_queuedView, m_queuedProxy, QStringLiteral("queuedJobTableView"));
    for (int c : {JobTableModel::WaitTime, JobTableModel::PendingReason, JobTableModel::QueuePosition}) {
        m_runningView->setColumnHidden(c, true);
    }
    for (int c : {JobTableModel::Age,
                  JobTableModel::Node,
                  JobTableModel::Image,
                  JobTableModel::CreatedByCli,
                  JobTableModel::RunTime,
                  JobTableModel::GpuUtilization}) {
        m_queuedView->setColumnHidden(c, true);
    }
    // Key columns first (a 1280 px window shows them: which job, where, for whom, how many
    // GPUs); node, image and the like scroll in from the right. The queue reads in order:
    // position first, reason after the figures.
    setColumnOrder(m_runningView,
                   {JobTableModel::Name,
                    JobTableModel::Status,
                    JobTableModel::Source,
                    JobTableModel::Project,
                    JobTableModel::Gpus,
                    JobTableModel::GpuUtilization,
                    JobTableModel::RunTime,
                    JobTableModel::User,
                    JobTableModel::Age,
                    JobTableModel::Type});
    setColumnOrder(m_queuedView,
                   {JobTableModel::QueuePosition,
                    JobTableModel::Name,
                    JobTableModel::Status,
                    JobTableModel::Source,
                    JobTableModel::Project,
                    JobTableModel::Gpus,
                    JobTableModel::WaitTime,
                    JobTableModel::PendingReason,
                    JobTableModel::User,
                    JobTableModel::Type});
    m_runningView->sortByColumn(JobTableModel::Project, Qt::AscendingOrder);
    m_queuedView->sortByColumn(JobTableModel::QueuePosition, Qt::AscendingOrder);

    m_runningLabel = new QLabel(this);
    m_queuedLabel = new QLabel(this);
    QFont bold = m_runningLabel->font();
    bold.setBold(true);
    m_runningLabel->setFont(bold);
    m_queuedLabel->setFont(bold);
    auto *running = new QWidget(this);
    auto *runningLayout = new QVBoxLayout(running);
    runningLayout->setContentsMargins(0, 0, 0, 0);
    runningLayout->addWidget(m_runningLabel);
    runningLayout->addWidget(m_runningView, 1);
    auto *queued = new QWidget(this);
    auto *queuedLayout = new QVBoxLayout(queued);
    queuedLayout->setContentsMargins(0, 0, 0, 0);
    queuedLayout->addWidget(m_queuedLabel);
    queuedLayout->addWidget(m_queuedView, 1);

    m_detail = new JobDetailPanel(m_estate, this);
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(QStringLiteral("jobSplitter"));
    m_splitter->addWidget(running);
    m_splitter->addWidget(queued);
    // A long reason or diagnosis scrolls inside the panel instead of growing the window.
    auto *detailScroll = new QScrollArea(this);
    detailScroll->setObjectName(QStringLiteral("jobDetailScrollArea"));
    detailScroll->setWidgetResizable(true);
    detailScroll->setFrameShape(QFrame::NoFrame);
    detailScroll->setWidget(m_detail);
    m_splitter->addWidget(detailScroll);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setStretchFactor(2, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(toolbar);
    layout->addWidget(m_countsLabel);
    layout->addWidget(m_splitter, 1);

    m_tickTimer = new QTimer(this);
    m_tickTimer->setInterval(1000);
    connect(m_tickTimer, &QTimer::timeout, this, &JobsPage::tick);
    m_countTimer = new QTimer(this);
    m_countTimer->setSingleShot(true);
    m_countTimer->setInterval(100);
    connect(m_countTimer, &QTimer::timeout, this, &JobsPage::updateCounts);

    connect(m_projectCombo, &QComboBox::currentIndexChanged, this, &JobsPage::applyFilters);
    connect(m_statusCombo, &QComboBox::currentIndexChanged, this, &JobsPage::applyFilters);
    // Once typing pauses: each re-filter walks every job (100,000 at the largest estates).
    onFilterTextSettled(m_filterEdit, this, [this](const QString &) {
        applyFilters();
    });
    connect(m_submitButton, &QPushButton::clicked, this, &JobsPage::openSubmitDialog);
    connect(m_deleteButton, &QPushButton::clicked, this, &JobsPage::requestDelete);
    connect(m_detail, &JobDetailPanel::volumeRequested, this, &JobsPage::volumeRequested);
    connect(m_detail, &JobDetailPanel::volumeHistoryWanted, this, &JobsPage::volumeHistoryWanted);
    connect(m_detail, &JobDetailPanel::changeServiceLevelRequested, this, &JobsPage::changeServiceLevelRequested);
    connect(m_detail, &JobDetailPanel::endSessionRequested, this, [this](const QString &source, const QString &jobId) {
        // Ending a session is deleting its job: previewed and confirmed like Delete.
        core::ActionRequest request;
        request.kind = core::ActionKind::JobDelete;
        request.source = source;
        request.jobIds = {jobId};
        Q_EMIT actionRequested(request);
    });
    auto *deleteAction = new QAction(this);
    deleteAction->setShortcut(QKeySequence::Delete);
    deleteAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(deleteAction, &QAction::triggered, this, &JobsPage::requestDelete);
    addAction(deleteAction);
    for (QAbstractItemModel *model :
         {static_cast<QAbstractItemModel *>(m_runningProxy), static_cast<QAbstractItemModel *>(m_queuedProxy)}) {
        connect(model, &QAbstractItemModel::rowsInserted, m_countTimer, qOverload<>(&QTimer::start));
        connect(model, &QAbstractItemModel::rowsRemoved, m_countTimer, qOverload<>(&QTimer::start));
        connect(model, &QAbstractItemModel::modelReset, m_countTimer, qOverload<>(&QTimer::start));
        connect(model, &QAbstractItemModel::layoutChanged, m_countTimer, qOverload<>(&QTimer::start));
    }
    if (m_estate) {
        connect(m_estate, &core::Estate::projectsChanged, this, &JobsPage::updateProjects);
        connect(m_estate, &core::Estate::jobsChanged, this, [this] {
            refreshDetail();
            m_countTimer->start();
        });
        connect(m_estate, &core::Estate::eventsChanged, this, [this] {
            if (m_detail->job()) {
                m_detail->refreshRelated();
            }
        });
    }
    updateProjects();
    applyFilters();
    updateCounts();
}

JobsPage::~JobsPage() = default;

void JobsPage::setupTable(QTableView *view, JobFilterProxy *proxy, const QString &objectName)
{
    view->setObjectName(objectName);
    view->setModel(proxy);
    applyTableStyle(view);
    view->setItemDelegateForColumn(JobTableModel::Status, new StatusDelegate(view, StatusDelegate::Mode::Badge));
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setSortingEnabled(true);
    view->horizontalHeader()->setSectionsMovable(true);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    view->horizontalHeader()->resizeSection(JobTableModel::Name, 160);
    view->horizontalHeader()->resizeSection(JobTableModel::Image, 220);
    connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this, view] {
        onCurrentChanged(view);
    });
    connect(view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &JobsPage::updateButtons);
}

void JobsPage::updateProjects()
{
    std::map<QString, std::pair<QString, QString>> entries; // sort key -> (source, project)
    QStringList sources;
    if (m_estate) {
        for (const auto &p : m_estate->projects().all()) {
            entries[projectKey(p->source, p->name)] = {p->source, p->name};
            if (!sources.contains(p->source)) {
                sources << p->source;
            }
        }
    }
    QStringList wanted{QString()};
    for (const auto &[key, entry] : entries) {
        wanted << key;
    }
    QStringList shown;
    for (int i = 0; i < m_projectCombo->count(); ++i) {
        shown << m_projectCombo->itemData(i).toString();
    }
    if (shown == wanted) {
        return;
    }
    const QString current = m_projectCombo->currentData().toString();
    const QSignalBlocker block(m_projectCombo);
    m_projectCombo->clear();
    m_projectCombo->addItem(tr("All projects"), QString());
    for (const auto &[key, entry] : entries) {
        m_projectCombo->addItem(sources.size() > 1 ? entry.first + QStringLiteral(" / ") + entry.second : entry.second,
                                key);
    }
    const int index = m_projectCombo->findData(current);
    m_projectCombo->setCurrentIndex(index >= 0 ? index : 0);
}

void JobsPage::showJobs(const QString &source, const QString &project, bool queuedOnly)
{
    updateProjects();
    int index = 0;
    if (!project.isEmpty()) {
        index = std::max(0, m_projectCombo->findData(projectKey(source, project)));
    }
    m_projectCombo->setCurrentIndex(index);
    m_statusCombo->setCurrentIndex(0);
    m_filterEdit->clear();
    applyFilters();
    if (queuedOnly) {
        m_queuedView->setFocus();
    }
}

bool JobsPage::selectJob(const QString &source, const QString &jobId)
{
    showJobs({}, {});
    // At scale the cleared filters apply on a worker: the job must be in the table now.
    m_runningProxy->settle();
    m_queuedProxy->settle();
    const int sourceRow = m_jobs->rowOf(source + QLatin1Char('/') + jobId);
    if (sourceRow < 0) {
        return false;
    }
    const QModelIndex modelIndex = m_jobs->index(sourceRow, 0);
    for (const auto &[view, proxy] :
         {std::pair{m_runningView, m_runningProxy}, std::pair{m_queuedView, m_queuedProxy}}) {
        const QModelIndex index = proxy->mapFromSource(modelIndex);
        if (index.isValid()) {
            view->setFocus();
            view->selectionModel()->setCurrentIndex(index,
                                                    QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            view->scrollTo(index);
            return true;
        }
    }
    return false;
}

void JobsPage::applyFilters()
{
    const QString key = m_projectCombo->currentData().toString();
    const QString source = key.section(QLatin1Char('\n'), 0, 0);
    const QString project = key.section(QLatin1Char('\n'), 1);
    for (JobFilterProxy *proxy : {m_runningProxy, m_queuedProxy}) {
        proxy->setCluster(source);
        proxy->setProject(project);
        proxy->setStatus(m_statusCombo->currentData().toInt());
        proxy->setText(m_filterEdit->text());
    }
    updateCounts();
}

QString JobsPage::queueCountsText() const
{
    const QHash<QString, int> counts = m_jobs->queuedCounts();
    QStringList parts;
    if (m_estate) {
        auto projects = m_estate->projects().all();
        std::sort(projects.begin(), projects.end(), [](const auto &a, const auto &b) {
            return std::tie(a->source, a->name) < std::tie(b->source, b->name);
        });
        const QString cluster = m_runningProxy->cluster();
        const QString only = m_runningProxy->project();
        for (const auto &p : projects) {
            if ((!cluster.isEmpty() && p->source != cluster) || (!only.isEmpty() && p->name != only)) {
                continue;
            }
            parts << QStringLiteral("%1 %2").arg(p->name).arg(counts.value(p->source + QLatin1Char('/') + p->name));
        }
    }
    return parts.isEmpty() ? QString() : tr("Queued per project: %1").arg(parts.join(QStringLiteral("  ·  ")));
}

void JobsPage::updateCounts()
{
    m_runningLabel->setText(tr("Running and finished (%1)").arg(m_runningProxy->rowCount()));
    m_queuedLabel->setText(tr("Pending and queued (%1)").arg(m_queuedProxy->rowCount()));
    m_countsLabel->setText(queueCountsText());
    updateButtons();
}

void JobsPage::updateButtons()
{
    const bool any = m_runningView->selectionModel()->hasSelection() || m_queuedView->selectionModel()->hasSelection();
    m_deleteButton->setEnabled(any);
    m_submitButton->setEnabled(m_estate && !m_estate->projects().scopes().isEmpty());
}

core::Result<core::ActionRequest> JobsPage::deleteRequest() const
{
    core::ActionRequest request;
    request.kind = core::ActionKind::JobDelete;
    QStringList sources;
    for (QTableView *view : {m_runningView, m_queuedView}) {
        const auto *proxy = static_cast<const JobFilterProxy *>(view->model());
        const QModelIndexList rows = view->selectionModel()->selectedRows();
        for (const QModelIndex &index : rows) {
            const core::Job *job = m_jobs->recordAt(proxy->mapToSource(index).row());
            if (!job) {
                continue;
            }
            if (!sources.contains(job->source)) {
                sources << job->source;
            }
            if (!request.jobIds.contains(job->id)) {
                request.jobIds << job->id;
            }
        }
    }
    if (request.jobIds.isEmpty()) {
        return core::fail(core::Error::invalid({}, tr("Select the jobs to delete.")));
    }
    if (sources.size() > 1) {
        return core::fail(core::Error::invalid({}, tr("Select jobs of one cluster at a time.")));
    }
    request.source = sources.front();
    request.jobIds.sort();
    return request;
}

void JobsPage::requestDelete()
{
    const core::Result<core::ActionRequest> request = deleteRequest();
    if (!request) {
        m_countsLabel->setText(request.error().message);
        return;
    }
    Q_EMIT actionRequested(*request);
}

JobSubmitDialog *JobsPage::openSubmitDialog()
{
    if (!m_estate) {
        return nullptr;
    }
    const QString key = m_projectCombo->currentData().toString();
    auto *dialog =
        new JobSubmitDialog(*m_estate, key.section(QLatin1Char('\n'), 0, 0), key.section(QLatin1Char('\n'), 1), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &JobSubmitDialog::submitRequested, this, &JobsPage::actionRequested);
    dialog->open();
    return dialog;
}

void JobsPage::onCurrentChanged(QTableView *view)
{
    const QModelIndex index = view->selectionModel()->currentIndex();
    if (!index.isValid()) {
        return;
    }
    // Selecting in one table clears the other, so Delete acts on what the user sees selected.
    QTableView *other = view == m_runningView ? m_queuedView : m_runningView;
    if (other->selectionModel()->hasSelection() && !(QApplication::keyboardModifiers() & Qt::ControlModifier)) {
        other->clearSelection();
    }
    m_currentKey = index.data(models::KeyRole).toString();
    refreshDetail();
}

void JobsPage::refreshDetail()
{
    const int row = m_currentKey.isEmpty() ? -1 : m_jobs->rowOf(m_currentKey);
    const core::Ptr<core::Job> job = m_jobs->pointerAt(row);
    if (job != m_detail->job()) {
        m_detail->setJob(job, m_jobs->now());
    }
}

void JobsPage::tick()
{
    m_jobs->tick();
    m_detail->updateTimes(m_jobs->now());
}

QByteArray JobsPage::headerState() const
{
    return m_runningView->horizontalHeader()->saveState();
}

void JobsPage::restoreHeaderState(const QByteArray &state)
{
    if (!state.isEmpty()) {
        m_runningView->horizontalHeader()->restoreState(state);
    }
}

void JobsPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    tick();
    m_tickTimer->start();
}

void JobsPage::hideEvent(QHideEvent *event)
{
    m_tickTimer->stop();
    QWidget::hideEvent(event);
}

} // namespace strata::views
