#include "views/gpupage.h"

#include "models/core/domain/estate.h"
#include "models/item/projecttablemodel.h"
#include "models/item/roles.h"
#include "views/allocationhistorychart.h"
#include "views/gpuprojectchart.h"
#include "views/nodepackingview.h"
#include "views/quotawhatifdialog.h"
#include "views/statusdelegate.h"
#include "views/tableviewstyle.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace strata::views {

namespace {

constexpr qint64 kRanges[] = {3600, 6 * 3600, 24 * 3600, 7 * 86400, 30 * 86400};
constexpr int kHistoryThrottleMs = 5000;

/// Shows only the projects of one cluster.
class ClusterProxy final : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setCluster(const QString &cluster)
    {
        if (cluster != m_cluster) {
            m_cluster = cluster;
            invalidateFilter();
        }
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &parent) const override
    {
        return sourceModel()->index(row, 0, parent).data(models::SourceRole).toString() == m_cluster;
    }

private:
    QString m_cluster;
};

} // namespace

GpuPage::GpuPage(core::Estate *estate, models::ProjectTableModel *projects, QWidget *parent)
    : QWidget(parent)
    , m_estate(estate)
    , m_projects(projects)
{
    setObjectName(QStringLiteral("gpuPage"));

    m_clusterLabel = new QLabel(this);
    m_clusterLabel->setObjectName(QStringLiteral("gpuClusterLabel"));
    QFont title = m_clusterLabel->font();
    title.setBold(true);
    title.setPointSizeF(title.pointSizeF() * 1.15);
    m_clusterLabel->setFont(title);
    m_clusterCombo = new QComboBox(this);
    m_clusterCombo->setObjectName(QStringLiteral("gpuClusterComboBox"));
    m_clusterCombo->setToolTip(tr("Kubernetes cluster"));
    m_kpiLabel = new QLabel(this);
    m_kpiLabel->setObjectName(QStringLiteral("gpuKpiLabel"));
    m_kpiLabel->setTextFormat(Qt::RichText);
    m_quotaLabel = new QLabel(this);
    m_quotaLabel->setObjectName(QStringLiteral("quotaInvariantLabel"));
    m_quotaLabel->setWordWrap(true);
    auto *top = new QHBoxLayout();
    top->addWidget(m_clusterLabel);
    top->addWidget(m_clusterCombo);
    top->addSpacing(12);
    top->addWidget(m_kpiLabel, 1);

    m_chart = new GpuProjectChart(this);

    m_projectProxy = new ClusterProxy(this);
    m_projectProxy->setObjectName(QStringLiteral("projectProxy"));
    m_projectProxy->setSourceModel(m_projects);
    m_projectProxy->setSortRole(models::RawValueRole);
    m_projectView = new QTableView(this);
    m_projectView->setObjectName(QStringLiteral("projectTableView"));
    m_projectView->setModel(m_projectProxy);
    applyTableStyle(m_projectView);
    m_projectView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_projectView->setSortingEnabled(true);
    m_projectView->sortByColumn(models::ProjectTableModel::Name, Qt::AscendingOrder);
    m_projectView->setColumnHidden(models::ProjectTableModel::Source, true);
    m_projectView->setColumnHidden(models::ProjectTableModel::InQuota, true);
    m_projectView->setColumnHidden(models::ProjectTableModel::IdleAllocated, true);
    m_projectView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_editQuotaButton = new QPushButton(tr("Edit &quota…"), this);
    m_editQuotaButton->setObjectName(QStringLiteral("editQuotaButton"));
    m_editQuotaButton->setToolTip(tr("Change the selected project's guaranteed GPUs"));
    m_editQuotaButton->setEnabled(false);
    m_whatIfButton = new QPushButton(tr("What &if…"), this);
    m_whatIfButton->setObjectName(QStringLiteral("whatIfButton"));
    m_whatIfButton->setToolTip(
        tr("Try other quotas: which jobs would start, be preempted or stay queued (changes nothing)"));
    auto *projectBox = new QWidget(this);
    auto *projectLayout = new QVBoxLayout(projectBox);
    projectLayout->setContentsMargins(0, 0, 0, 0);
    projectLayout->addWidget(m_projectView, 1);
    auto *projectButtons = new QHBoxLayout();
    projectButtons->addWidget(m_quotaLabel, 1);
    projectButtons->addWidget(m_whatIfButton);
    projectButtons->addWidget(m_editQuotaButton);
    projectLayout->addLayout(projectButtons);

    auto *upper = new QSplitter(Qt::Horizontal, this);
    upper->setObjectName(QStringLiteral("gpuUpperSplitter"));
    upper->addWidget(m_chart);
    upper->addWidget(projectBox);
    upper->setStretchFactor(0, 2);
    upper->setStretchFactor(1, 3);

    m_rangeCombo = new QComboBox(this);
    m_rangeCombo->setObjectName(QStringLiteral("historyRangeComboBox"));
    m_rangeCombo->addItems(
        {tr("Last hour"), tr("Last 6 hours"), tr("Last 24 hours"), tr("Last 7 days"), tr("Last 30 days")});
    m_rangeCombo->setCurrentIndex(0); // the last hour: where a demo or a fresh install has data
    m_history = new AllocationHistoryChart(this);
    auto *historyBox = new QWidget(this);
    auto *historyLayout = new QVBoxLayout(historyBox);
    auto *rangeRow = new QHBoxLayout();
    rangeRow->addWidget(new QLabel(tr("Range:"), historyBox));
    rangeRow->addWidget(m_rangeCombo);
    rangeRow->addStretch(1);
    historyLayout->addLayout(rangeRow);
    historyLayout->addWidget(m_history, 1);

    m_packing = new NodePackingView(this);
    auto *packingScroll = new QScrollArea(this);
    packingScroll->setObjectName(QStringLiteral("nodePackingScrollArea"));
    packingScroll->setWidgetResizable(true);
    packingScroll->setFrameShape(QFrame::NoFrame);
    packingScroll->setWidget(m_packing);

    auto *tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("gpuTabWidget"));
    tabs->addTab(historyBox, tr("Allocation over time"));
    tabs->addTab(packingScroll, tr("Nodes"));

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("gpuSplitter"));
    splitter->addWidget(upper);
    splitter->addWidget(tabs);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(150);
    connect(m_refreshTimer, &QTimer::timeout, this, &GpuPage::refresh);
    m_historyTimer = new QTimer(this);
    m_historyTimer->setSingleShot(true);
    m_historyTimer->setInterval(kHistoryThrottleMs);
    connect(m_historyTimer, &QTimer::timeout, this, [this] {
        if (m_historyDue && isVisible()) {
            requestHistory();
        }
    });

    connect(m_clusterCombo, &QComboBox::currentIndexChanged, this, [this] {
        m_clusterChosen = true;
        static_cast<ClusterProxy *>(m_projectProxy)->setCluster(cluster());
        refresh();
        if (isVisible()) {
            requestHistory();
        }
    });
    connect(m_rangeCombo, &QComboBox::currentIndexChanged, this, [this] {
        if (isVisible()) {
            requestHistory();
        }
    });
    connect(m_projectView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        m_editQuotaButton->setEnabled(currentProject().isValid());
    });
    connect(m_editQuotaButton, &QPushButton::clicked, this, &GpuPage::editQuota);
    connect(m_whatIfButton, &QPushButton::clicked, this, &GpuPage::openWhatIf);
    connect(m_projectView, &QTableView::activated, this, [this](const QModelIndex &index) {
        Q_EMIT jobsRequested(cluster(), index.data(models::ProjectRole).toString());
    });
    if (m_estate) {
        connect(m_estate, &core::Estate::computeChanged, this, [this](const QString &source) {
            if (m_clusterCombo->findData(source) < 0 || source == cluster()) {
                scheduleRefresh();
            }
            if (source == cluster()) {
                maybeRequestHistory();
            }
        });
        connect(m_estate, &core::Estate::gpuClustersChanged, this, &GpuPage::updateClusters);
    }
    updateClusters();
    refresh();
}

GpuPage::~GpuPage() = default;

QString GpuPage::cluster() const
{
    return m_clusterCombo->currentData().toString();
}

bool GpuPage::setCluster(const QString &source)
{
    const int index = m_clusterCombo->findData(source);
    if (index < 0) {
        return false;
    }
    m_clusterCombo->setCurrentIndex(index);
    return true;
}

qint64 GpuPage::historyRangeSeconds() const
{
    return kRanges[std::clamp(m_rangeCombo->currentIndex(), 0, int(std::size(kRanges)) - 1)];
}

void GpuPage::setHistoryRangeIndex(int index)
{
    m_rangeCombo->setCurrentIndex(std::clamp(index, 0, int(std::size(kRanges)) - 1));
}

void GpuPage::updateClusters()
{
    QStringList sources = m_estate ? m_estate->gpuClusters().scopes() : QStringList();
    std::sort(sources.begin(), sources.end());
    QStringList shown;
    for (int i = 0; i < m_clusterCombo->count(); ++i) {
        shown << m_clusterCombo->itemData(i).toString();
    }
    if (shown != sources) {
        const QString current = cluster();
        const QSignalBlocker block(m_clusterCombo);
        m_clusterCombo->clear();
        for (const QString &s : std::as_const(sources)) {
            m_clusterCombo->addItem(s, s);
        }
        // Until someone picks a cluster, the first by name is shown, whichever answered first: the
        // page then reads the same for a live estate and for a bundle of it.
        const int index = m_clusterChosen ? m_clusterCombo->findData(current) : 0;
        m_clusterCombo->setCurrentIndex(index >= 0 ? index : 0);
        static_cast<ClusterProxy *>(m_projectProxy)->setCluster(cluster());
    }
    // The selector only matters with several clusters; the label names the one shown.
    m_clusterCombo->setVisible(sources.size() > 1);
    m_clusterLabel->setVisible(sources.size() <= 1);
}

void GpuPage::scheduleRefresh()
{
    if (!m_refreshTimer->isActive()) {
        m_refreshTimer->start();
    }
}

void GpuPage::refresh()
{
    updateClusters();
    const QString source = cluster();
    QList<core::Project> projects;
    QList<core::GpuNode> nodes;
    core::Ptr<core::GpuCluster> clusterInfo;
    if (m_estate && !source.isEmpty()) {
        if (const auto list = m_estate->projects().scope(source)) {
            for (const auto &p : list->items()) {
                projects << *p;
            }
        }
        if (const auto list = m_estate->gpuNodes().scope(source)) {
            for (const auto &n : list->items()) {
                nodes << *n;
            }
        }
        if (const auto list = m_estate->gpuClusters().scope(source)) {
            clusterInfo = list->items().empty() ? nullptr : list->items().front();
        }
    }
    std::sort(projects.begin(), projects.end(), [](const core::Project &a, const core::Project &b) {
        return a.name < b.name;
    });
    std::sort(nodes.begin(), nodes.end(), [](const core::GpuNode &a, const core::GpuNode &b) {
        return a.name < b.name;
    });
    m_chart->setProjects(projects);
    m_packing->setNodes(nodes);

    m_clusterLabel->setText(clusterInfo ? (clusterInfo->name.isEmpty() || clusterInfo->name == source
                                               ? source
                                               : tr("%1 (%2)").arg(source, clusterInfo->name))
                                        : tr("No Kubernetes cluster"));
    if (!clusterInfo) {
        m_kpiPlain.clear();
        m_kpiLabel->setText(tr("Add a Kubernetes source to see its GPUs, projects and jobs."));
        m_quotaWarning.clear();
        m_quotaLabel->clear();
        return;
    }
    const core::GpuCluster &c = *clusterInfo;
    QStringList parts;
    parts << tr("%1/%2 GPUs allocated").arg(core::formatGpus(c.gpuAllocated), core::formatGpus(c.gpuTotal));
    parts << (c.utilization >= 0 ? tr("%1 idle allocated").arg(core::formatGpus(c.gpuIdleAllocated))
                                 : tr("idle allocated unknown (no GPU metrics)"));
    parts << (c.utilization >= 0 ? tr("utilization %1 %").arg(QString::number(c.utilization, 'f', 0))
                                 : tr("utilization unknown"));
    parts << tr("%1 running, %2 pending jobs").arg(c.runningJobs).arg(c.pendingJobs);
    m_kpiPlain = parts.join(QStringLiteral("  ·  "));
    QString html = m_kpiPlain.toHtmlEscaped();
    if (c.gpuIdleAllocated > 0 && c.utilization >= 0) {
        // Idle allocated GPUs are the waste an admin acts on: make the number stand out.
        const QString idle = tr("%1 idle allocated").arg(core::formatGpus(c.gpuIdleAllocated));
        html.replace(
            idle.toHtmlEscaped(),
            QStringLiteral("<span style=\"color:%1; font-weight:bold\">%2</span>")
                .arg(StatusDelegate::colorFor(QStringLiteral("warning"), palette()).name(), idle.toHtmlEscaped()));
    }
    m_kpiLabel->setText(html);

    if (c.quotaTotal != c.gpuTotal) {
        m_quotaWarning = tr("Project quotas add up to %1 GPUs, but the cluster has %2: guarantees cannot all be met "
                            "at once, or GPUs are left unassigned.")
                             .arg(core::formatGpus(c.quotaTotal), core::formatGpus(c.gpuTotal));
        QPalette pal = m_quotaLabel->palette();
        pal.setColor(QPalette::WindowText, StatusDelegate::colorFor(QStringLiteral("warning"), palette(), true));
        m_quotaLabel->setPalette(pal);
        m_quotaLabel->setText(QStringLiteral("⚠ ") + m_quotaWarning);
    } else {
        m_quotaWarning.clear();
        m_quotaLabel->setPalette(palette());
        m_quotaLabel->setText(tr("Σ quota = %1 GPUs = cluster GPUs").arg(core::formatGpus(c.quotaTotal)));
    }
}

QString GpuPage::kpiText() const
{
    return m_kpiPlain;
}

QString GpuPage::quotaWarning() const
{
    return m_quotaWarning;
}

void GpuPage::maybeRequestHistory()
{
    if (!isVisible()) {
        return;
    }
    if (m_historyTimer->isActive()) {
        m_historyDue = true;
        return;
    }
    requestHistory();
}

void GpuPage::requestHistory()
{
    m_historyDue = false;
    m_historyTimer->start();
    const QString source = cluster();
    if (source.isEmpty()) {
        m_history->setMessage(tr("No Kubernetes cluster."));
        return;
    }
    Q_EMIT projectHistoryWanted(source, historyRangeSeconds());
}

void GpuPage::setProjectHistory(const QString &source,
                                std::vector<core::ProjectSample> samples,
                                const QDateTime &from,
                                const QDateTime &to)
{
    if (source != cluster()) {
        return; // an answer for a cluster no longer shown
    }
    QList<core::Project> current;
    if (m_estate) {
        if (const auto list = m_estate->projects().scope(source)) {
            for (const auto &p : list->items()) {
                current << *p;
            }
        }
    }
    m_history->setHistory(samples, from, to, current);
}

void GpuPage::setProjectHistoryMessage(const QString &message)
{
    m_history->setMessage(message);
}

QModelIndex GpuPage::currentProject() const
{
    const QModelIndex index = m_projectView->selectionModel()->currentIndex();
    return index.isValid() ? m_projectProxy->mapToSource(index) : QModelIndex();
}

void GpuPage::editQuota()
{
    const QModelIndex index = currentProject();
    const core::Project *p = index.isValid() ? m_projects->recordAt(index.row()) : nullptr;
    if (!p) {
        return;
    }
    core::ActionRequest request;
    request.kind = core::ActionKind::ProjectQuotaEdit;
    request.source = p->source;
    request.project = p->name;
    request.quota = std::max<core::MilliGpu>(p->quota, 0);
    Q_EMIT actionRequested(request);
}

void GpuPage::openWhatIf()
{
    if (cluster().isEmpty()) {
        return;
    }
    auto *dialog = new QuotaWhatIfDialog(*m_estate, cluster(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QuotaWhatIfDialog::actionRequested, this, &GpuPage::actionRequested);
    dialog->show();
}

QByteArray GpuPage::headerState() const
{
    return m_projectView->horizontalHeader()->saveState();
}

void GpuPage::restoreHeaderState(const QByteArray &state)
{
    if (!state.isEmpty()) {
        m_projectView->horizontalHeader()->restoreState(state);
    }
}

void GpuPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
    requestHistory();
}

} // namespace strata::views
