#include "views/cachetargetspage.h"

#include "models/item/cachemodels.h"
#include "models/item/datasetmodel.h"
#include "models/item/roles.h"
#include "views/bardelegate.h"
#include "views/fieldfilterproxy.h"
#include "views/statusdelegate.h"
#include "views/tablepage.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace strata::views {

using models::CachedCommitModel;
using models::CacheTargetModel;

CacheTargetsPage::CacheTargetsPage(models::CacheTargetModel *targets,
                                   models::CachedCommitModel *cached,
                                   QWidget *parent)
    : QWidget(parent)
    , m_targets(targets)
    , m_cached(cached)
{
    setObjectName(QStringLiteral("cacheTargetsPage"));
    m_targetProxy = new FieldFilterProxy(this);
    m_targetProxy->setSourceModel(m_targets);
    m_cachedProxy = new FieldFilterProxy(this);
    m_cachedProxy->setSourceModel(m_cached);
    m_cachedProxy->setRules({}, true);

    m_summaryLabel = new QLabel(this);
    m_summaryLabel->setObjectName(QStringLiteral("cacheSummaryLabel"));
    QFont bold = m_summaryLabel->font();
    bold.setBold(true);
    m_summaryLabel->setFont(bold);

    m_targetView =
        newTableView(this, QStringLiteral("cacheTargetTableView"), m_targetProxy, QAbstractItemView::SingleSelection);
    m_targetView->setItemDelegateForColumn(CacheTargetModel::Usage, new BarDelegate(m_targetView));
    m_targetView->setSortingEnabled(true);
    m_targetView->sortByColumn(CacheTargetModel::Name, Qt::AscendingOrder);
    setColumnWidthsEm(m_targetView,
                      {{CacheTargetModel::Name, 9},
                       {CacheTargetModel::Cluster, 5},
                       {CacheTargetModel::Claim, 12},
                       {CacheTargetModel::Volume, 12},
                       {CacheTargetModel::Usage, 11},
                       {CacheTargetModel::Capacity, 6},
                       {CacheTargetModel::Used, 6},
                       {CacheTargetModel::Cached, 6},
                       {CacheTargetModel::Commits, 5},
                       {CacheTargetModel::Policy, 14}});

    m_detailTitle = new QLabel(tr("Select a cache target to see what fills it."), this);
    m_detailTitle->setObjectName(QStringLiteral("cacheDetailTitleLabel"));
    m_detailTitle->setFont(bold);
    m_clearButton = new QPushButton(tr("C&lear"), this);
    m_clearButton->setObjectName(QStringLiteral("cacheClearButton"));
    m_clearButton->setToolTip(tr("Remove the selected cached commit from this volume"));

    m_cachedView = newCachedCommitView(this, QStringLiteral("targetCachedTableView"), m_cachedProxy);
    m_cachedView->hideColumn(CachedCommitModel::Target);
    m_cachedView->setSortingEnabled(true);
    m_cachedView->sortByColumn(CachedCommitModel::LastUsed, Qt::DescendingOrder);
    setColumnWidthsEm(m_cachedView, {{CachedCommitModel::Eviction, 18}});

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_summaryLabel);
    topLayout->addWidget(m_targetView, 1);
    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout();
    bar->addWidget(m_detailTitle, 1);
    bar->addWidget(m_clearButton);
    bottomLayout->addLayout(bar);
    bottomLayout->addWidget(m_cachedView, 1);
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(QStringLiteral("cacheTargetSplitter"));
    m_splitter->addWidget(top);
    m_splitter->addWidget(bottom);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_splitter);

    connect(m_targetView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        onTargetChanged();
    });
    connect(m_cachedView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        updateButtons();
    });
    connect(m_cached, &QAbstractItemModel::dataChanged, this, &CacheTargetsPage::updateButtons);
    connect(m_clearButton, &QPushButton::clicked, this, &CacheTargetsPage::requestClear);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved}) {
        connect(m_targets, signal, this, &CacheTargetsPage::updateSummary);
    }
    connect(m_targets, &QAbstractItemModel::dataChanged, this, &CacheTargetsPage::updateSummary);
    m_tick = new QTimer(this);
    m_tick->setInterval(60 * 1000);
    connect(m_tick, &QTimer::timeout, m_cached, &CachedCommitModel::tick);
    m_tick->start();
    updateSummary();
    updateButtons();
}

CacheTargetsPage::~CacheTargetsPage() = default;

QString CacheTargetsPage::summaryText() const
{
    return m_summaryLabel->text();
}

void CacheTargetsPage::updateSummary()
{
    qint64 capacity = 0, cached = 0;
    int connected = 0;
    for (int row = 0; row < m_targets->rowCount(); ++row) {
        const core::CacheTarget *t = m_targets->recordAt(row);
        capacity += t->capacityBytes;
        cached += t->cachedBytes;
        connected += t->problem.isEmpty() ? 1 : 0;
    }
    if (m_targets->rowCount() == 0) {
        m_summaryLabel->setText(tr("No cache targets. Add them under \"cache_targets\" in the configuration."));
        return;
    }
    m_summaryLabel->setText(tr("%1 of %2 targets connected · %3 of %4 used by cached commits")
                                .arg(connected)
                                .arg(m_targets->rowCount())
                                .arg(core::formatBytes(cached), core::formatBytes(capacity)));
}

bool CacheTargetsPage::selectTarget(const QString &source, const QString &name)
{
    const int row = m_targets->rowOf(source + QLatin1Char('/') + name);
    return selectRow(m_targetView, row < 0 ? QModelIndex() : m_targetProxy->mapFromSource(m_targets->index(row, 0)));
}

bool CacheTargetsPage::selectCachedCommit(const QString &commitId)
{
    for (int row = 0; row < m_cachedProxy->rowCount(); ++row) {
        const QModelIndex index = m_cachedProxy->index(row, CachedCommitModel::Commit);
        if (index.data(models::RawValueRole).toString() == commitId) {
            m_cachedView->selectionModel()->setCurrentIndex(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            return true;
        }
    }
    return false;
}

void CacheTargetsPage::onTargetChanged()
{
    const QModelIndex current = m_targetProxy->mapToSource(m_targetView->selectionModel()->currentIndex());
    const core::CacheTarget *t = current.isValid() ? m_targets->recordAt(current.row()) : nullptr;
    if (!t) {
        m_cachedProxy->setRules({}, true);
        m_detailTitle->setText(tr("Select a cache target to see what fills it."));
    } else {
        m_cachedProxy->setRules({{CachedCommitModel::Target, Qt::DisplayRole, t->id},
                                 {CachedCommitModel::Target, models::SourceRole, t->source}});
        m_detailTitle->setText(t->problem.isEmpty()
                                   ? tr("Cached commits on %1 (%2)").arg(t->id, CacheTargetModel::policyText(*t))
                                   : tr("Cached commits on %1 — %2").arg(t->id, t->problem));
    }
    // Never leave a row of the previous target current (Clear would act on it).
    m_cachedView->selectionModel()->clear();
    if (m_cachedProxy->rowCount() > 0) {
        m_cachedView->selectionModel()->setCurrentIndex(
            m_cachedProxy->index(0, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
    updateButtons();
}

void CacheTargetsPage::updateButtons()
{
    const QModelIndex current = m_cachedProxy->mapToSource(m_cachedView->selectionModel()->currentIndex());
    const core::CachedCommit *c = current.isValid() ? m_cached->recordAt(current.row()) : nullptr;
    m_clearButton->setEnabled(c && c->state != core::CacheState::Evicting && c->state != core::CacheState::Evicted);
}

void CacheTargetsPage::requestClear()
{
    const QModelIndex current = m_cachedProxy->mapToSource(m_cachedView->selectionModel()->currentIndex());
    const core::CachedCommit *c = current.isValid() ? m_cached->recordAt(current.row()) : nullptr;
    if (!c) {
        return;
    }
    core::ActionRequest r;
    r.kind = core::ActionKind::CacheEvict;
    r.source = c->source;
    r.cacheTarget = c->target;
    r.commitId = c->commitId;
    r.datasetSource = c->datasetSource;
    r.datasetId = c->datasetId;
    Q_EMIT actionRequested(r);
}

QByteArray CacheTargetsPage::headerState() const
{
    return m_targetView->horizontalHeader()->saveState();
}

void CacheTargetsPage::restoreHeaderState(const QByteArray &state)
{
    if (!state.isEmpty()) {
        m_targetView->horizontalHeader()->restoreState(state);
    }
}

} // namespace strata::views
