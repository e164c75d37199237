#include "views/overviewpage.h"

#include "models/core/domain/estate.h"
#include "models/core/domain/format.h"
#include "models/core/planning/overviewsummary.h"
#include "models/core/runtime/timeline.h"
#include "models/item/roles.h"
#include "models/item/sourcetablemodel.h"
#include "models/item/timelinemodel.h"
#include "views/allocationhistorychart.h"
#include "views/mainwindow.h"
#include "views/statusdelegate.h"

#include <QEvent>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>

namespace strata::views {

namespace {

constexpr int kTilesPerRow = 4;
constexpr int kCardsPerRow = 3;
constexpr int kAttentionShown = 12;
// The charts re-read the store this often; the live cluster moves their right edge in between.
constexpr int kClusterHistoryRefreshMs = 120 * 1000;

QString overviewSystemKindLabel(core::SourceKind kind)
{
    switch (kind) {
    case core::SourceKind::Ontap:
        return OverviewPage::tr("ONTAP cluster");
    case core::SourceKind::Azure:
        return OverviewPage::tr("Azure NetApp Files account");
    case core::SourceKind::StorageGrid:
        return OverviewPage::tr("StorageGRID grid");
    default:
        return core::sourceKindName(kind);
    }
}

QString percent(double value)
{
    return value >= 0 ? QString::number(value, 'f', 0) + QStringLiteral(" %") : QStringLiteral("–");
}

} // namespace

OverviewPage::OverviewPage(core::Estate *estate, QAbstractItemModel *sources, QWidget *parent)
    : QWidget(parent)
    , m_estate(estate)
    , m_sources(sources)
{
    setObjectName(QStringLiteral("overviewPage"));
    m_healthLabel = new QLabel(this);
    m_healthLabel->setObjectName(QStringLiteral("overviewHealthLabel"));
    m_healthLabel->setCursor(Qt::PointingHandCursor);
    m_healthLabel->installEventFilter(this);
    m_targets.insert(m_healthLabel, Target{Target::Sources, {}, {}, {}});

    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("overviewScrollArea"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_content = new QWidget(scroll);
    m_contentLayout = new QVBoxLayout(m_content);
    scroll->setWidget(m_content);

    m_attentionLabel = new QLabel(this);
    m_attentionLabel->setObjectName(QStringLiteral("overviewAttentionLabel"));
    m_attentionLabel->setTextFormat(Qt::RichText);
    m_attentionLabel->setWordWrap(true);
    m_attentionLabel->hide();
    connect(m_attentionLabel, &QLabel::linkActivated, this, &OverviewPage::openAttention);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_healthLabel);
    layout->addWidget(m_attentionLabel);
    layout->addWidget(scroll, 1);

    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(200);
    connect(m_refreshTimer, &QTimer::timeout, this, [this] {
        if (isVisible()) {
            refresh();
        }
    });
    m_historyTimer = new QTimer(this);
    m_historyTimer->setInterval(kClusterHistoryRefreshMs);
    connect(m_historyTimer, &QTimer::timeout, this, &OverviewPage::requestClusterHistory);
    m_historyTimer->start();
    if (m_estate) {
        connect(m_estate, &core::Estate::computeChanged, this, &OverviewPage::scheduleRefresh);
        connect(m_estate, &core::Estate::jobsChanged, this, &OverviewPage::onJobsChanged);
        const auto attentionChanged = [this] {
            m_attentionStale = true;
        };
        const auto storageChanged = [this, attentionChanged] {
            attentionChanged();
            m_systems.reset();
            scheduleRefresh();
        };
        connect(m_estate, &core::Estate::gpuClustersChanged, this, &OverviewPage::onClustersChanged);
        connect(m_estate, &core::Estate::volumesChanged, this, storageChanged);
        connect(m_estate, &core::Estate::volumePerfChanged, this, [this] {
            m_systems.reset(); // throughput only: nothing core::needsAttention reads
            scheduleRefresh();
        });
        connect(m_estate, &core::Estate::capacityPoolsChanged, this, storageChanged);
        connect(m_estate, &core::Estate::gridChanged, this, storageChanged);
        connect(m_estate, &core::Estate::cacheTargetsChanged, this, [this, attentionChanged] {
            attentionChanged();
            scheduleRefresh();
        });
    }
    if (m_sources) {
        for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved}) {
            connect(m_sources, signal, this, &OverviewPage::updateHealth);
        }
        connect(m_sources, &QAbstractItemModel::dataChanged, this, &OverviewPage::updateHealth);
        connect(m_sources, &QAbstractItemModel::modelReset, this, &OverviewPage::updateHealth);
        // A source's health is on the attention list; its poll times, which change on every
        // poll, are not.
        for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved}) {
            connect(m_sources, signal, this, &OverviewPage::onSourcesChanged);
        }
        connect(m_sources, &QAbstractItemModel::dataChanged, this, &OverviewPage::onSourcesChanged);
        connect(m_sources, &QAbstractItemModel::modelReset, this, &OverviewPage::onSourcesChanged);
        // "Loading <source>…" ends with the source's first answer, data or not.
        connect(m_sources, &QAbstractItemModel::dataChanged, this, &OverviewPage::scheduleRefresh);
        connect(m_sources, &QAbstractItemModel::rowsInserted, this, &OverviewPage::scheduleRefresh);
    }
    refresh();
}

OverviewPage::~OverviewPage() = default;

void OverviewPage::onJobsChanged(const core::Diff<core::Job> &diff)
{
    if (m_attentionStale) {
        return;
    }
    // As core::needsAttention flags a job: failing (a failure reason) or failed.
    const auto flagged = [this](const core::Ptr<core::Job> &job) {
        return !job->failureReason.isEmpty() || job->status == core::JobStatus::Failed
               || m_flaggedJobs.contains(core::estateKey(*job));
    };
    m_attentionStale = std::any_of(diff.added.cbegin(), diff.added.cend(), flagged)
                       || std::any_of(diff.changed.cbegin(), diff.changed.cend(), flagged)
                       || std::any_of(diff.removed.cbegin(), diff.removed.cend(), [this](const QString &key) {
                              return m_flaggedJobs.contains(key);
                          });
}

QStringList OverviewPage::sourceHealth() const
{
    QStringList health;
    if (const auto *model = qobject_cast<const models::SourceTableModel *>(m_sources)) {
        for (const core::SourceStatus &s : model->statuses()) {
            const bool unhealthy = s.health != core::Health::Ok && s.health != core::Health::Unknown;
            health << QStringLiteral("%1\t%2\t%3\t%4")
                          .arg(s.name)
                          .arg(int(s.kind))
                          .arg(int(s.health))
                          .arg(unhealthy ? s.lastError : QString());
        }
    }
    return health;
}

void OverviewPage::onSourcesChanged()
{
    m_attentionStale = m_attentionStale || sourceHealth() != m_sourceHealth;
}

QList<qint64> OverviewPage::attentionFigures(const core::GpuCluster &cluster)
{
    return {cluster.pendingJobs, cluster.gpuIdleAllocated, cluster.quotaTotal, cluster.gpuTotal};
}

void OverviewPage::onClustersChanged(const core::Diff<core::GpuCluster> &diff)
{
    // A cluster's utilization and allocation move with every pod change; what
    // core::needsAttention reads of it (pending while idle, quota mismatch) rarely.
    const auto moved = [this](const core::Ptr<core::GpuCluster> &c) {
        const auto it = m_clusterFigures.constFind(core::estateKey(*c));
        return it == m_clusterFigures.cend() || *it != attentionFigures(*c);
    };
    m_attentionStale = m_attentionStale || !diff.removed.isEmpty()
                       || std::any_of(diff.added.cbegin(), diff.added.cend(), moved)
                       || std::any_of(diff.changed.cbegin(), diff.changed.cend(), moved);
}

void OverviewPage::scheduleRefresh()
{
    // Hidden, the page only notes the change: at 100,000 jobs a refresh per publish costs the
    // GUI thread while the user works on another page.
    m_stale = true;
    if (isVisible() && !m_refreshTimer->isActive()) {
        m_refreshTimer->start();
    }
}

QFrame *OverviewPage::addTile(QWidget *parent,
                              const QString &objectName,
                              const QString &title,
                              const QString &value,
                              const QString &detail,
                              Target target,
                              const QString &status)
{
    auto *tile = new QFrame(parent);
    tile->setObjectName(objectName);
    tile->setFrameShape(QFrame::StyledPanel);
    tile->setAutoFillBackground(true);
    tile->setBackgroundRole(QPalette::Base);
    tile->setCursor(Qt::PointingHandCursor);
    tile->setFocusPolicy(Qt::StrongFocus);
    tile->setMinimumWidth(150);
    tile->installEventFilter(this);
    auto *titleLabel = new QLabel(title, tile);
    titleLabel->setWordWrap(true); // a storage system's name and kind can be long
    auto *valueLabel = new QLabel(value, tile);
    valueLabel->setObjectName(objectName + QStringLiteral("_value"));
    QFont big = valueLabel->font();
    big.setPointSizeF(big.pointSizeF() * 1.8);
    big.setBold(true);
    valueLabel->setFont(big);
    if (!status.isEmpty()) {
        QPalette pal = valueLabel->palette();
        pal.setColor(QPalette::WindowText, StatusDelegate::colorFor(status, palette(), true));
        valueLabel->setPalette(pal);
    }
    auto *detailLabel = new QLabel(detail, tile);
    detailLabel->setWordWrap(true);
    detailLabel->setEnabled(false);
    auto *layout = new QVBoxLayout(tile);
    layout->addWidget(titleLabel);
    layout->addWidget(valueLabel);
    layout->addWidget(detailLabel);
    layout->addStretch(1);
    m_targets.insert(tile, target);
    m_values.insert(objectName, valueLabel);
    tile->setToolTip(target.kind == Target::Gpu       ? tr("Open the GPU page")
                     : target.kind == Target::Volumes ? tr("Open the Volumes page")
                                                      : tr("Open the Jobs page"));
    return tile;
}

void OverviewPage::refresh()
{
    m_stale = false;
    ++m_refreshCount;
    // Tiles are few: rebuild them instead of tracking each value.
    for (auto it = m_targets.begin(); it != m_targets.end();) {
        it = it.key() == m_healthLabel ? std::next(it) : m_targets.erase(it);
    }
    m_values.clear();
    m_warnings.clear();
    // The charts outlive the tiles around them: they keep their series between refreshes.
    for (const auto &chart : std::as_const(m_clusterCharts)) {
        if (chart) {
            chart->hide();
            chart->setParent(m_content);
        }
    }
    while (QLayoutItem *item = m_contentLayout->takeAt(0)) {
        if (item->widget()) {
            item->widget()->deleteLater();
        }
        delete item;
    }

    std::vector<core::Ptr<core::GpuCluster>> clusters;
    if (m_estate) {
        clusters = m_estate->gpuClusters().all();
    }
    std::sort(clusters.begin(), clusters.end(), [](const auto &a, const auto &b) {
        return a->source < b->source;
    });

    auto addGroup = [this](const QString &title, const core::GpuCluster &c, const QString &source, const QString &id) {
        auto *group = new QGroupBox(title, m_content);
        group->setObjectName(QStringLiteral("overview_") + id);
        auto *row = new QHBoxLayout(group);
        auto *grid = new QGridLayout;
        row->addLayout(grid);
        int n = 0;
        auto place = [&](QFrame *tile) {
            grid->addWidget(tile, n / kTilesPerRow, n % kTilesPerRow);
            ++n;
        };
        const QString prefix = QStringLiteral("tile_") + id + QLatin1Char('_');
        place(addTile(group,
                      prefix + QStringLiteral("nodes"),
                      tr("Nodes"),
                      QString::number(c.nodeCount),
                      tr("%n with GPUs", nullptr, c.gpuNodeCount),
                      Target{Target::Gpu, source, {}, {}}));
        place(addTile(group,
                      prefix + QStringLiteral("gpus"),
                      tr("GPUs allocated"),
                      core::formatGpus(c.gpuAllocated) + QLatin1Char('/') + core::formatGpus(c.gpuTotal),
                      tr("%1 free").arg(core::formatGpus(std::max<core::MilliGpu>(0, c.gpuTotal - c.gpuAllocated))),
                      Target{Target::Gpu, source, {}, {}}));
        place(addTile(group,
                      prefix + QStringLiteral("idle"),
                      tr("Idle allocated GPUs"),
                      c.utilization >= 0 ? core::formatGpus(c.gpuIdleAllocated) : QStringLiteral("–"),
                      c.utilization >= 0 ? tr("allocated, below 10 % utilization") : tr("no GPU metrics"),
                      Target{Target::Gpu, source, {}, {}},
                      c.gpuIdleAllocated > 0 && c.utilization >= 0 ? QStringLiteral("warning") : QString()));
        place(addTile(group,
                      prefix + QStringLiteral("utilization"),
                      tr("GPU utilization"),
                      percent(c.utilization),
                      c.metricsAvailable ? tr("mean over allocated GPUs") : tr("no Prometheus/DCGM answer"),
                      Target{Target::Gpu, source, {}, {}}));
        place(addTile(group,
                      prefix + QStringLiteral("running"),
                      tr("Running jobs"),
                      QString::number(c.runningJobs),
                      tr("training and interactive"),
                      Target{Target::Jobs, source, {}, {}}));
        place(addTile(group,
                      prefix + QStringLiteral("pending"),
                      tr("Pending jobs"),
                      QString::number(c.pendingJobs),
                      tr("queued or preempted"),
                      Target{Target::Queue, source, {}, {}},
                      c.pendingJobs > 0 ? QStringLiteral("pending") : QString()));
        const bool quotaOk = c.quotaTotal == c.gpuTotal;
        place(addTile(group,
                      prefix + QStringLiteral("quota"),
                      tr("Σ project quotas"),
                      core::formatGpus(c.quotaTotal),
                      quotaOk ? tr("= %1 GPUs in the cluster").arg(core::formatGpus(c.gpuTotal))
                              : tr("≠ %1 GPUs in the cluster").arg(core::formatGpus(c.gpuTotal)),
                      Target{Target::Gpu, source, {}, {}},
                      quotaOk ? QString() : QStringLiteral("warning")));
        if (!quotaOk) {
            m_warnings << tr("%1: project quotas add up to %2 GPUs, the cluster has %3")
                              .arg(title, core::formatGpus(c.quotaTotal), core::formatGpus(c.gpuTotal));
        }
        if (!source.isEmpty()) {
            addClusterChart(group, row, c);
        } else {
            row->addStretch(1);
        }
        m_contentLayout->addWidget(group);
    };

    addAttentionList();
    if (clusters.size() > 1) {
        core::GpuCluster total;
        double utilWeighted = 0;
        core::MilliGpu utilGpus = 0;
        for (const auto &c : clusters) {
            total.nodeCount += c->nodeCount;
            total.gpuNodeCount += c->gpuNodeCount;
            total.gpuTotal += c->gpuTotal;
            total.gpuAllocated += c->gpuAllocated;
            total.gpuIdleAllocated += c->gpuIdleAllocated;
            total.quotaTotal += c->quotaTotal;
            total.runningJobs += c->runningJobs;
            total.pendingJobs += c->pendingJobs;
            total.metricsAvailable = total.metricsAvailable || c->metricsAvailable;
            if (c->utilization >= 0) {
                utilWeighted += c->utilization * double(c->gpuAllocated);
                utilGpus += c->gpuAllocated;
            }
        }
        total.utilization = utilGpus > 0 ? utilWeighted / double(utilGpus) : -1;
        addGroup(tr("All clusters"), total, QString(), QStringLiteral("total"));
        m_warnings.clear(); // per cluster below; a total mismatch only repeats them
    }
    for (const auto &c : clusters) {
        const QString title =
            c->name.isEmpty() || c->name == c->source ? c->source : tr("%1 (%2)").arg(c->source, c->name);
        addGroup(
            title + (c->version.isEmpty() ? QString() : QStringLiteral(" · ") + c->version), *c, c->source, c->source);
    }
    const auto *sourceModel = qobject_cast<const models::SourceTableModel *>(m_sources);
    if (sourceModel) {
        // A configured cluster that has not answered yet (or whose first data is still on its
        // way) is loading, not missing; one that failed says so on the status line.
        QStringList waiting;
        for (int row = 0; row < sourceModel->rowCount(); ++row) {
            const QString name = sourceModel->nameAt(row);
            const auto health = core::Health(
                sourceModel->index(row, models::SourceTableModel::Health).data(models::RawValueRole).toInt());
            const bool shown = std::any_of(clusters.cbegin(), clusters.cend(), [&name](const auto &c) {
                return c->source == name;
            });
            if (!shown && sourceModel->sourcesOf(core::SourceKind::Kubernetes).contains(name)
                && (health == core::Health::Unknown || health == core::Health::Ok)) {
                waiting << name;
            }
        }
        if (!waiting.isEmpty()) {
            auto *loading = new QLabel(tr("Loading %1…").arg(waiting.join(QStringLiteral(", "))), m_content);
            loading->setObjectName(QStringLiteral("overviewLoadingLabel"));
            loading->setWordWrap(true);
            loading->setEnabled(false);
            m_contentLayout->addWidget(loading);
        }
    }
    const bool clustersConfigured = sourceModel && !sourceModel->sourcesOf(core::SourceKind::Kubernetes).isEmpty();
    if (clusters.empty() && !clustersConfigured) {
        auto *hint = new QLabel(tr("No Kubernetes GPU cluster is connected. Add a Kubernetes source to see GPUs, "
                                   "projects and jobs here."),
                                m_content);
        hint->setObjectName(QStringLiteral("overviewEmptyLabel"));
        hint->setWordWrap(true);
        hint->setEnabled(false);
        m_contentLayout->addWidget(hint);
    }

    if (m_estate) {
        auto *storage = new QGroupBox(tr("Storage"), m_content);
        storage->setObjectName(QStringLiteral("overview_storage"));
        auto *grid = new QGridLayout(storage);
        const auto volumes = m_estate->volumes().all();
        qint64 used = 0;
        qint64 size = 0;
        for (const auto &v : volumes) {
            // Volumes without space figures (offline) count in neither total.
            if (v->usedBytes) {
                used += *v->usedBytes;
                size += v->sizeBytes;
            }
        }
        QStringList storageLoading;
        if (sourceModel) {
            for (core::SourceKind kind : {core::SourceKind::Ontap, core::SourceKind::Azure}) {
                storageLoading << sourceModel->loadingSources(kind);
            }
        }
        // Before the first answer there is nothing to count: "0 B used of 0 B" would be false.
        const bool storageUnknown = volumes.empty() && !storageLoading.isEmpty();
        grid->addWidget(addTile(storage,
                                QStringLiteral("tile_storage_volumes"),
                                tr("Volumes"),
                                storageUnknown ? QStringLiteral("…") : QString::number(volumes.size()),
                                storageUnknown
                                    ? tr("Loading %1…").arg(storageLoading.join(QStringLiteral(", ")))
                                    : tr("%1 used of %2").arg(core::formatBytes(used), core::formatBytes(size)),
                                Target{Target::Volumes, {}, {}, {}}),
                        0,
                        0);
        // One row: all volumes, then a card per system (ONTAP cluster, ANF account, grid).
        if (addStorageCards(storage, grid) == 0) {
            grid->setColumnStretch(kTilesPerRow, 1);
        }
        m_contentLayout->addWidget(storage);
        addCacheCards();
    }
    m_contentLayout->addStretch(1);
    // Charts of clusters that went away go with them.
    for (auto it = m_clusterCharts.begin(); it != m_clusterCharts.end();) {
        const bool shown = std::any_of(clusters.cbegin(), clusters.cend(), [&it](const auto &c) {
            return c->source == it.key();
        });
        if (!shown || !it.value()) {
            if (it.value()) {
                it.value()->deleteLater();
            }
            m_clusterHistory.remove(it.key());
            it = m_clusterCharts.erase(it);
        } else {
            ++it;
        }
    }
    updateHealth();
}

void OverviewPage::addClusterChart(QWidget *group, QLayout *layout, const core::GpuCluster &cluster)
{
    QPointer<AllocationHistoryChart> &chart = m_clusterCharts[cluster.source];
    const bool created = !chart;
    if (created) {
        chart = new AllocationHistoryChart(group);
        chart->setObjectName(QStringLiteral("overviewChart_") + cluster.source);
        chart->setMinimumSize(360, 300);
        chart->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
        chart->setMessage(m_clusterHistoryMessage.isEmpty() ? tr("Loading GPU allocation history…")
                                                            : m_clusterHistoryMessage);
    } else {
        chart->setParent(group);
    }
    chart->setToolTip(tr("GPU allocation and utilization of %1 over the last 24 h").arg(cluster.source));
    chart->installEventFilter(this);
    m_targets.insert(chart, Target{Target::Gpu, cluster.source, {}, {}});
    layout->addWidget(chart);
    static_cast<QBoxLayout *>(layout)->setStretch(1, 1);
    chart->show();
    if (created) {
        // After the current event: whoever answers may connect right after constructing the page.
        QTimer::singleShot(0, this, [this, source = cluster.source] {
            if (m_clusterHistoryMessage.isEmpty() && m_clusterCharts.contains(source)) {
                Q_EMIT clusterHistoryWanted(source, kClusterHistorySeconds);
            }
        });
    } else {
        showClusterHistory(cluster.source);
    }
}

void OverviewPage::requestClusterHistory()
{
    if (!m_clusterHistoryMessage.isEmpty()) {
        return;
    }
    for (auto it = m_clusterCharts.cbegin(); it != m_clusterCharts.cend(); ++it) {
        Q_EMIT clusterHistoryWanted(it.key(), kClusterHistorySeconds);
    }
}

void OverviewPage::setClusterHistory(const QString &source,
                                     const std::vector<core::ProjectSample> &samples,
                                     const QDateTime &from,
                                     const QDateTime &to)
{
    m_clusterHistoryMessage.clear();
    m_clusterHistory.insert(source, ClusterHistory{core::clusterHistory(samples, tr("All projects")), from, to});
    showClusterHistory(source);
}

void OverviewPage::setClusterHistoryMessage(const QString &message)
{
    m_clusterHistoryMessage = message;
    for (const auto &chart : std::as_const(m_clusterCharts)) {
        if (chart) {
            chart->setMessage(message);
        }
    }
}

void OverviewPage::showClusterHistory(const QString &source)
{
    const auto it = m_clusterHistory.constFind(source);
    AllocationHistoryChart *chart = m_clusterCharts.value(source);
    if (it == m_clusterHistory.cend() || !chart || !m_estate) {
        return;
    }
    // The live cluster ends the lines: the store writes only on change.
    QList<core::Project> current;
    if (const auto clusters = m_estate->gpuClusters().scope(source); clusters && !clusters->items().empty()) {
        const core::GpuCluster &c = *clusters->items().front();
        core::Project live;
        live.name = tr("All projects");
        live.allocated = c.gpuAllocated;
        live.quota = c.quotaTotal;
        live.pending = 0;
        live.utilization = c.utilization;
        current << live;
    }
    chart->setHistory(it->total, it->from, it->to, current);
}

AllocationHistoryChart *OverviewPage::clusterChart(const QString &source) const
{
    return m_clusterCharts.value(source);
}

QFrame *OverviewPage::addCard(QWidget *parent,
                              const QString &objectName,
                              const QString &title,
                              const QString &value,
                              const QString &detail,
                              const QString &health,
                              const QString &status,
                              Target target)
{
    QFrame *card = addTile(parent, objectName, title, value, detail, target);
    if (!health.isEmpty()) {
        auto *healthLabel = new QLabel(health, card);
        healthLabel->setObjectName(objectName + QStringLiteral("_health"));
        healthLabel->setWordWrap(true);
        if (status != QLatin1String("ok")) {
            QPalette pal = healthLabel->palette();
            pal.setColor(QPalette::WindowText, StatusDelegate::colorFor(status, palette(), false));
            healthLabel->setPalette(pal);
        }
        static_cast<QVBoxLayout *>(card->layout())->insertWidget(3, healthLabel);
    }
    return card;
}

int OverviewPage::addStorageCards(QWidget *group, QGridLayout *grid)
{
    m_storageCards.clear();
    if (!m_systems) {
        m_systems = core::storageSystems(*m_estate);
    }
    const std::vector<core::StorageSystemSummary> &systems = *m_systems;
    int n = 1; // after the Volumes tile
    for (const core::StorageSystemSummary &s : systems) {
        const double percent = s.percentUsed();
        const QString used =
            s.usedBytes < 0 || s.capacityBytes < 0
                ? QString::fromUtf16(core::kUnknownText)
                : tr("%1 / %2").arg(core::formatBytes(s.usedBytes), core::formatBytes(s.capacityBytes));
        QStringList detail;
        detail << (percent < 0 ? tr("used of capacity unknown")
                               : tr("%1 used").arg(core::formatPercent(std::optional<double>(percent))));
        if (s.kind != core::SourceKind::StorageGrid) {
            detail << (s.throughputBps < 0 ? tr("throughput %1").arg(QString::fromUtf16(core::kUnknownText))
                                           : tr("%1 now").arg(core::formatRate(s.throughputBps)));
            detail << (s.volumes == 1 ? tr("1 volume") : tr("%1 volumes").arg(s.volumes));
        }
        if (s.kind == core::SourceKind::Azure && s.pools > 0) {
            detail << tr("pools %1 of %2 allocated")
                          .arg(core::formatBytes(s.poolAllocatedBytes), core::formatBytes(s.poolSizeBytes));
        }
        const QString title = s.name == s.source
                                  ? tr("%1 · %2").arg(s.name, overviewSystemKindLabel(s.kind))
                                  : tr("%1 (%2) · %3").arg(s.name, s.source, overviewSystemKindLabel(s.kind));
        Target target{Target::Volumes, s.source, {}, {}};
        if (s.kind == core::SourceKind::StorageGrid) {
            target = Target{Target::Object, s.source, QStringLiteral("grid"), s.source};
        }
        const QString objectName = QStringLiteral("card_system_%1_%2").arg(s.source, s.name);
        QFrame *card = addCard(group,
                               objectName,
                               title,
                               used,
                               detail.join(QStringLiteral(" · ")),
                               core::storageSystemHealth(s),
                               core::storageSystemStatus(s),
                               target);
        card->setToolTip(s.kind == core::SourceKind::StorageGrid ? tr("Open the StorageGRID page")
                                                                 : tr("Open the Volumes page"));
        grid->addWidget(card, n / kTilesPerRow, n % kTilesPerRow);
        grid->setColumnStretch(n % kTilesPerRow, 1);
        ++n;
        m_storageCards
            << QStringLiteral("%1/%2=%3 · %4").arg(s.source, s.name, used, core::formatRate(s.throughputBps));
    }
    return int(systems.size());
}

void OverviewPage::addCacheCards()
{
    m_cacheCards.clear();
    auto targets = m_estate->cacheTargets().all();
    if (targets.empty()) {
        return;
    }
    std::sort(targets.begin(), targets.end(), [](const auto &a, const auto &b) {
        return std::tie(a->source, a->id) < std::tie(b->source, b->id);
    });
    QHash<QString, int> commits;
    for (const auto &c : m_estate->cachedCommits().all()) {
        ++commits[c->source + QLatin1Char('/') + c->target];
    }
    auto *group = new QGroupBox(tr("Cache usage"), m_content);
    group->setObjectName(QStringLiteral("overview_caches"));
    auto *grid = new QGridLayout(group);
    int n = 0;
    for (const auto &t : targets) {
        // Capacity 0: the target's claim and volume are not joined yet; unknown, not "0 B / 0 B".
        const QString used = t->capacityBytes > 0 ? tr("%1 / %2").arg(core::formatBytes(t->usedBytes),
                                                                      core::formatBytes(t->capacityBytes))
                                                  : QString::fromUtf16(core::kUnknownText);
        const std::optional<double> percent =
            t->capacityBytes > 0 ? std::optional<double>(100.0 * double(t->usedBytes) / double(t->capacityBytes))
                                 : std::nullopt;
        const int count = commits.value(t->source + QLatin1Char('/') + t->id);
        const QString detail =
            tr("%1 · %2 cached in %3 · watermark %4\u00a0%")
                .arg(percent ? tr("%1 used").arg(core::formatPercent(percent)) : tr("capacity not known yet"),
                     core::formatBytes(t->cachedBytes),
                     count == 1 ? tr("1 commit") : tr("%1 commits").arg(count))
                .arg(t->highWatermarkPercent);
        const bool over = percent && *percent >= t->highWatermarkPercent;
        QFrame *card = addCard(group,
                               QStringLiteral("card_cache_") + t->id,
                               tr("%1 · %2").arg(t->id, t->volumeName.isEmpty() ? t->pvc : t->volumeName),
                               used,
                               detail,
                               t->problem.isEmpty() ? (over ? tr("above the high watermark") : QString()) : t->problem,
                               t->problem.isEmpty() ? QStringLiteral("warning") : QStringLiteral("critical"),
                               Target{Target::Object, t->source, QStringLiteral("cache_target"), t->id});
        card->setToolTip(tr("Open the Cache targets page"));
        grid->addWidget(card, n / kCardsPerRow, n % kCardsPerRow);
        ++n;
        m_cacheCards << t->id + QLatin1Char('=') + used;
    }
    m_contentLayout->addWidget(group);
}

void OverviewPage::addAttentionList()
{
    m_attentionItems.clear();
    const auto *sourceModel = qobject_cast<const models::SourceTableModel *>(m_sources);
    if (m_attentionStale) {
        m_attentionStale = false;
        ++m_attentionComputations;
        m_attention =
            m_estate
                ? core::needsAttention(*m_estate, sourceModel ? sourceModel->statuses() : QList<core::SourceStatus>{})
                : std::vector<core::AttentionItem>{};
        m_flaggedJobs.clear();
        m_sourceHealth = sourceHealth();
        m_clusterFigures.clear();
        for (const core::Ptr<core::GpuCluster> &c :
             m_estate ? m_estate->gpuClusters().all() : std::vector<core::Ptr<core::GpuCluster>>{}) {
            m_clusterFigures.insert(core::estateKey(*c), attentionFigures(*c));
        }
        for (const core::AttentionItem &a : m_attention) {
            if (a.kind == QLatin1String("job")) {
                m_flaggedJobs.insert(a.source + QLatin1Char('/') + a.id);
            }
        }
    }
    if (m_attention.empty()) {
        return;
    }
    auto *group = new QGroupBox(tr("Needs attention (%1)").arg(m_attention.size()), m_content);
    group->setObjectName(QStringLiteral("overview_attention"));
    auto *list = new QVBoxLayout(group);
    list->setSpacing(2);
    const int shown = std::min<int>(int(m_attention.size()), kAttentionShown);
    for (int i = 0; i < shown; ++i) {
        const core::AttentionItem &a = m_attention[std::size_t(i)];
        const QColor color =
            StatusDelegate::colorFor(a.severity == QLatin1String("critical") ? QStringLiteral("critical")
                                     : a.severity == QLatin1String("error")  ? QStringLiteral("failed")
                                                                             : QStringLiteral("warning"),
                                     palette(),
                                     false);
        auto *row = new QLabel(group);
        row->setObjectName(QStringLiteral("attention_%1").arg(i));
        row->setTextFormat(Qt::RichText);
        row->setWordWrap(true);
        row->setText(QStringLiteral("<span style=\"color:%1\">●</span> <a href=\"%2\">%3</a> "
                                    "<span style=\"color:%1\">%4</span> — %5")
                         .arg(color.name(),
                              QString::number(i),
                              a.subject.toHtmlEscaped(),
                              models::TimelineModel::systemLabel(a.system).toHtmlEscaped(),
                              a.message.toHtmlEscaped()));
        row->setToolTip(tr("Open %1").arg(a.subject));
        connect(row, &QLabel::linkActivated, this, [this](const QString &link) {
            activateAttentionItem(link.toInt());
        });
        list->addWidget(row);
        m_attentionItems << tr("%1: %2").arg(a.subject, a.message);
    }
    if (int(m_attention.size()) > shown) {
        auto *more = new QLabel(
            tr("and %1 more: <code>strata get attention</code> lists them all").arg(int(m_attention.size()) - shown),
            group);
        more->setTextFormat(Qt::RichText);
        more->setEnabled(false);
        list->addWidget(more);
    }
    m_contentLayout->addWidget(group);
}

QStringList OverviewPage::storageCards() const
{
    return m_storageCards;
}

QStringList OverviewPage::cacheCards() const
{
    return m_cacheCards;
}

QStringList OverviewPage::attentionItems() const
{
    return m_attentionItems;
}

bool OverviewPage::activateAttentionItem(int index)
{
    if (index < 0 || index >= int(m_attention.size())) {
        return false;
    }
    const core::AttentionItem &a = m_attention[std::size_t(index)];
    Q_EMIT objectRequested(a.kind, a.source, a.id);
    return true;
}

void OverviewPage::updateHealth()
{
    QList<core::Health> healths;
    if (m_sources) {
        for (int row = 0; row < m_sources->rowCount(); ++row) {
            healths << core::Health(
                m_sources->index(row, models::SourceTableModel::Health).data(models::RawValueRole).toInt());
        }
    }
    QString worst;
    const QString summary = MainWindow::healthSummary(healths, &worst);
    QString text = summary;
    if (!m_warnings.isEmpty()) {
        text += QStringLiteral("  ·  ⚠ ") + m_warnings.join(QStringLiteral("; "));
    }
    m_healthLabel->setText(text);
    QPalette pal = m_healthLabel->palette();
    const QColor color = StatusDelegate::colorFor(
        worst == QLatin1String("ok") && m_warnings.isEmpty() ? QStringLiteral("ok") : QStringLiteral("warning"),
        palette(),
        false);
    pal.setColor(QPalette::WindowText, color.isValid() ? color : palette().color(QPalette::WindowText));
    m_healthLabel->setPalette(pal);
}

void OverviewPage::setTimeline(core::Timeline *timeline)
{
    m_timeline = timeline;
    if (!m_attentionTimer) {
        m_attentionTimer = new QTimer(this);
        m_attentionTimer->setSingleShot(true);
        m_attentionTimer->setInterval(200);
        connect(m_attentionTimer, &QTimer::timeout, this, &OverviewPage::updateAttention);
        // The windows ("last hour", "last day") slide even when nothing new arrives.
        auto *slide = new QTimer(this);
        slide->setInterval(60 * 1000);
        connect(slide, &QTimer::timeout, this, &OverviewPage::updateAttention);
        slide->start();
    }
    if (m_timeline) {
        connect(m_timeline, &core::Timeline::entriesChanged, m_attentionTimer, qOverload<>(&QTimer::start));
    }
    updateAttention();
}

QStringList OverviewPage::attentionLines() const
{
    return m_attentionLines;
}

void OverviewPage::openAttention(const QString &system)
{
    Q_EMIT triageRequested(system);
}

void OverviewPage::updateAttention()
{
    m_attentionLines.clear();
    if (!m_timeline) {
        m_attentionLabel->hide();
        return;
    }
    const auto attention = m_timeline->attentionBySystem(m_timeline->now());
    QStringList links;
    for (const char *name : {"ontap", "storagegrid", "azure", "kubernetes", "strata"}) {
        const QString system = QString::fromLatin1(name);
        const auto it = attention.constFind(system);
        if (it == attention.cend()) {
            continue;
        }
        const bool grid = system == QLatin1String("storagegrid");
        QStringList parts;
        // Without a loaded catalogue %n does not pluralise: spell out singular and plural.
        const auto count = [](int n, const QString &one, const QString &many) {
            return (n == 1 ? one : many).arg(n);
        };
        if (it->critical > 0) {
            parts << (grid ? count(it->critical, tr("%1 critical alert"), tr("%1 critical alerts"))
                           : count(it->critical, tr("%1 critical"), tr("%1 critical")));
        }
        if (it->error > 0) {
            parts << (grid ? count(it->error, tr("%1 major alert"), tr("%1 major alerts"))
                           : count(it->error, tr("%1 error"), tr("%1 errors")));
        }
        if (it->warning > 0) {
            parts << (grid ? count(it->warning, tr("%1 minor alert"), tr("%1 minor alerts"))
                           : count(it->warning, tr("%1 warning"), tr("%1 warnings")));
        }
        const QString line =
            tr("%1: %2").arg(models::TimelineModel::systemLabel(system), parts.join(QStringLiteral(" · ")));
        m_attentionLines << line;
        links << QStringLiteral("<a href=\"%1\">%2</a>").arg(system, line.toHtmlEscaped());
    }
    m_attentionLabel->setVisible(!links.isEmpty());
    m_attentionLabel->setText(
        QStringLiteral("<b>%1</b> %2")
            .arg(tr("Recent events (Triage):").toHtmlEscaped(), links.join(QStringLiteral(" &nbsp; "))));
}

QString OverviewPage::healthText() const
{
    return m_healthLabel->text();
}

QStringList OverviewPage::tileValues() const
{
    QStringList out;
    for (auto it = m_values.cbegin(); it != m_values.cend(); ++it) {
        out << it.key() + QLatin1Char('=') + it.value()->text();
    }
    out.sort();
    return out;
}

bool OverviewPage::activateTile(const QString &objectName)
{
    for (auto it = m_targets.cbegin(); it != m_targets.cend(); ++it) {
        if (it.key()->objectName() == objectName) {
            const Target t = it.value();
            switch (t.kind) {
            case Target::Gpu:
                Q_EMIT gpuPageRequested(t.source);
                break;
            case Target::Jobs:
                Q_EMIT jobsPageRequested(t.source, false);
                break;
            case Target::Queue:
                Q_EMIT jobsPageRequested(t.source, true);
                break;
            case Target::Volumes:
                Q_EMIT volumesPageRequested();
                break;
            case Target::Sources:
                Q_EMIT sourcesPageRequested();
                break;
            case Target::Object:
                Q_EMIT objectRequested(t.objectKind, t.source, t.id);
                break;
            }
            return true;
        }
    }
    return false;
}

void OverviewPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale) {
        refresh();
    }
    Q_EMIT performanceWanted(true);
}

void OverviewPage::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    // Status colours and rich-text links are laid out with the palette of their time.
    if (event->type() == QEvent::PaletteChange && m_refreshTimer) {
        scheduleRefresh();
        if (m_timeline) {
            m_attentionLabel->clear(); // setText() skips an unchanged text
            updateAttention();
        }
    }
}

void OverviewPage::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    Q_EMIT performanceWanted(false);
}

bool OverviewPage::eventFilter(QObject *watched, QEvent *event)
{
    const bool click = event->type() == QEvent::MouseButtonRelease;
    const bool key = event->type() == QEvent::KeyPress
                     && (static_cast<QKeyEvent *>(event)->key() == Qt::Key_Return
                         || static_cast<QKeyEvent *>(event)->key() == Qt::Key_Enter
                         || static_cast<QKeyEvent *>(event)->key() == Qt::Key_Space);
    if ((click || key) && m_targets.contains(watched)) {
        activateTile(watched->objectName());
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace strata::views
