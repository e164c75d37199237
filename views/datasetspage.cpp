#include "views/datasetspage.h"

#include "models/core/domain/estate.h"
#include "models/core/planning/datasethub.h"
#include "models/item/cachemodels.h"
#include "models/item/commitmodel.h"
#include "models/item/datasetmodel.h"
#include "models/item/roles.h"
#include "views/bardelegate.h"
#include "views/fieldfilterproxy.h"
#include "views/statusdelegate.h"
#include "views/tablepage.h"
#include "views/tableviewstyle.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <functional>

namespace strata::views {

using models::CachedCommitModel;
using models::CommitModel;
using models::DatasetModel;

DatasetsPage::DatasetsPage(core::Estate *estate,
                           models::DatasetModel *datasets,
                           models::CommitModel *commits,
                           models::CachedCommitModel *cached,
                           models::CacheTargetModel *targets,
                           QWidget *parent)
    : QWidget(parent)
    , m_estate(estate)
    , m_datasets(datasets)
    , m_commits(commits)
    , m_cached(cached)
    , m_targets(targets)
{
    setObjectName(QStringLiteral("datasetsPage"));
    m_datasetProxy = new FieldFilterProxy(this);
    m_datasetProxy->setSourceModel(m_datasets);
    m_commitProxy = new FieldFilterProxy(this);
    m_commitProxy->setSourceModel(m_commits);
    m_cachedProxy = new FieldFilterProxy(this);
    m_cachedProxy->setSourceModel(m_cached);
    m_cachedProxy->setRules({}, true);

    m_headerLabel = new QLabel(this);
    m_headerLabel->setObjectName(QStringLiteral("hubHeaderLabel"));
    QFont big = m_headerLabel->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    m_headerLabel->setFont(big);
    m_headerLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_filterEdit = new QLineEdit(this);
    m_filterEdit->setObjectName(QStringLiteral("datasetFilterLineEdit"));
    m_filterEdit->setPlaceholderText(tr("Filter by dataset, bucket or source"));
    m_filterEdit->setClearButtonEnabled(true);
    connect(m_filterEdit, &QLineEdit::textChanged, m_datasetProxy, &FieldFilterProxy::setTextFilter);

    m_datasetView =
        newTableView(this, QStringLiteral("datasetTableView"), m_datasetProxy, QAbstractItemView::SingleSelection);
    m_datasetView->setItemDelegateForColumn(DatasetModel::CachedCommits,
                                            new StatusDelegate(m_datasetView, StatusDelegate::Mode::Badge));
    m_datasetView->setSortingEnabled(true);
    m_datasetView->sortByColumn(DatasetModel::Name, Qt::AscendingOrder);
    setColumnWidthsEm(m_datasetView,
                      {{DatasetModel::Name, 12},
                       {DatasetModel::Source, 8},
                       {DatasetModel::Kind, 6},
                       {DatasetModel::Location, 14},
                       {DatasetModel::CachedCommits, 9},
                       {DatasetModel::Size, 7},
                       {DatasetModel::Objects, 6},
                       {DatasetModel::Commits, 6}});

    m_detailTitle = new QLabel(tr("Select a dataset to see its commits."), this);
    m_detailTitle->setObjectName(QStringLiteral("datasetDetailTitleLabel"));
    QFont bold = m_detailTitle->font();
    bold.setBold(true);
    m_detailTitle->setFont(bold);
    m_commitButton = new QPushButton(tr("Co&mmit…"), this);
    m_commitButton->setObjectName(QStringLiteral("datasetCommitButton"));
    m_commitButton->setToolTip(tr("Record the dataset's current objects as a new commit"));
    m_cacheButton = new QPushButton(tr("Cac&he on…"), this);
    m_cacheButton->setObjectName(QStringLiteral("commitCacheButton"));
    m_cacheButton->setToolTip(tr("Copy the selected commit onto a cache volume next to the GPUs"));
    m_compareButton = new QPushButton(tr("Com&pare…"), this);
    m_compareButton->setObjectName(QStringLiteral("commitCompareButton"));
    m_compareButton->setToolTip(
        tr("Objects added, removed and changed between the two selected commits (or the selected one and its parent)"));
    m_clearButton = new QPushButton(tr("C&lear"), this);
    m_clearButton->setObjectName(QStringLiteral("cachedClearButton"));
    m_clearButton->setToolTip(tr("Remove the selected cached copy from its cache volume"));

    m_commitView =
        newTableView(this, QStringLiteral("commitTableView"), m_commitProxy, QAbstractItemView::ExtendedSelection);
    m_commitView->setItemDelegateForColumn(CommitModel::Cached,
                                           new StatusDelegate(m_commitView, StatusDelegate::Mode::Badge));
    m_commitView->setSortingEnabled(true);
    m_commitView->sortByColumn(CommitModel::Time, Qt::DescendingOrder);
    setColumnWidthsEm(m_commitView,
                      {{CommitModel::Id, 9},
                       {CommitModel::Message, 18},
                       {CommitModel::Author, 7},
                       {CommitModel::Time, 10},
                       {CommitModel::Objects, 6},
                       {CommitModel::Size, 7},
                       {CommitModel::Parent, 9}});
    setFillColumn(m_commitView, CommitModel::Message);

    m_cachedView = newCachedCommitView(this, QStringLiteral("commitCachedTableView"), m_cachedProxy);
    for (int column : {int(CachedCommitModel::Dataset), int(CachedCommitModel::Commit)}) {
        m_cachedView->hideColumn(column);
    }

    m_lineage = new QTreeWidget(this);
    m_lineage->setObjectName(QStringLiteral("lineageTreeWidget"));
    m_lineage->setHeaderLabels({tr("Lineage"), tr("Detail")});
    m_lineage->setToolTip(tr("Dataset → commit → cache volume → claim → job → project"));
    m_lineage->header()->resizeSection(0, 22 * fontMetrics().horizontalAdvance(QLatin1Char('M')));

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    auto *headerRow = new QHBoxLayout();
    headerRow->addWidget(m_headerLabel, 1);
    headerRow->addWidget(m_filterEdit);
    topLayout->addLayout(headerRow);
    topLayout->addWidget(m_datasetView, 1);

    auto *detail = new QWidget(this);
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    auto *buttons = new QHBoxLayout();
    buttons->addWidget(m_detailTitle, 1);
    buttons->addWidget(m_commitButton);
    buttons->addWidget(m_cacheButton);
    buttons->addWidget(m_compareButton);
    detailLayout->addLayout(buttons);
    detailLayout->addWidget(m_commitView, 3);
    auto *cachedBar = new QHBoxLayout();
    auto *cachedTitle = new QLabel(tr("Cached copies of the selected commit"), this);
    cachedTitle->setFont(bold);
    cachedBar->addWidget(cachedTitle, 1);
    cachedBar->addWidget(m_clearButton);
    detailLayout->addLayout(cachedBar);
    auto *cachedRow = new QHBoxLayout();
    cachedRow->addWidget(m_cachedView, 3);
    cachedRow->addWidget(m_lineage, 2);
    detailLayout->addLayout(cachedRow, 2);

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(QStringLiteral("datasetSplitter"));
    m_splitter->addWidget(top);
    m_splitter->addWidget(detail);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_splitter);

    connect(m_datasetView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        onDatasetChanged();
    });
    connect(m_commitView->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        onCommitChanged();
    });
    connect(m_commitView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        onCommitChanged();
    });
    connect(m_cachedView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        updateButtons();
        updateLineage();
    });
    connect(m_commitButton, &QPushButton::clicked, this, &DatasetsPage::requestCommit);
    connect(m_cacheButton, &QPushButton::clicked, this, &DatasetsPage::showCacheMenu);
    connect(m_clearButton, &QPushButton::clicked, this, &DatasetsPage::requestClear);
    connect(m_compareButton, &QPushButton::clicked, this, &DatasetsPage::requestCompare);
    connect(m_datasets, &DatasetModel::headerChanged, this, &DatasetsPage::updateHeader);
    // Progress and state changes re-evaluate Clear and the lineage of the shown copy.
    connect(m_cached, &QAbstractItemModel::dataChanged, this, [this] {
        updateButtons();
        updateLineage();
    });
    connect(m_cached, &QAbstractItemModel::rowsInserted, this, &DatasetsPage::updateButtons);
    connect(m_cached, &QAbstractItemModel::rowsRemoved, this, &DatasetsPage::updateButtons);
    updateHeader();
    updateButtons();
}

DatasetsPage::~DatasetsPage() = default;

QString DatasetsPage::headerText() const
{
    return m_headerLabel->text();
}

void DatasetsPage::updateHeader()
{
    m_headerLabel->setText(m_datasets->summary().headerText());
}

bool DatasetsPage::selectDataset(const QString &key)
{
    const int row = m_datasets->rowOf(key);
    if (row < 0) {
        return false;
    }
    return selectRow(m_datasetView, m_datasetProxy->mapFromSource(m_datasets->index(row, 0)));
}

void DatasetsPage::onDatasetChanged()
{
    const QModelIndex current = m_datasetProxy->mapToSource(m_datasetView->selectionModel()->currentIndex());
    const core::Dataset *d = current.isValid() ? m_datasets->recordAt(current.row()) : nullptr;
    m_datasetKey = d ? core::estateKey(*d) : QString();
    m_commits->setDataset(d ? d->source : QString(), d ? d->id : QString());
    if (d) {
        m_detailTitle->setText(tr("%1 — %2 in %3").arg(d->name, DatasetModel::kindText(d->kind), d->source));
        m_commitView->sortByColumn(CommitModel::Time, Qt::DescendingOrder);
        if (m_commitProxy->rowCount() > 0) {
            m_commitView->selectionModel()->setCurrentIndex(
                m_commitProxy->index(0, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        }
    } else {
        m_detailTitle->setText(tr("Select a dataset to see its commits."));
    }
    onCommitChanged();
}

bool DatasetsPage::selectCommit(const QString &commitId)
{
    for (int row = 0; row < m_commitProxy->rowCount(); ++row) {
        const QModelIndex index = m_commitProxy->index(row, 0);
        if (index.data(models::IdRole).toString() == commitId) {
            m_commitView->selectionModel()->setCurrentIndex(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            return true;
        }
    }
    return false;
}

QStringList DatasetsPage::selectedCommitIds() const
{
    QStringList ids;
    const QModelIndexList rows = m_commitView->selectionModel()->selectedRows();
    for (const QModelIndex &index : rows) {
        ids << index.data(models::IdRole).toString();
    }
    return ids;
}

void DatasetsPage::onCommitChanged()
{
    const QModelIndex current = m_commitView->selectionModel()->currentIndex();
    const QString commitId = current.isValid() ? current.data(models::IdRole).toString() : QString();
    const core::Dataset *d = m_datasetKey.isEmpty() ? nullptr : m_datasets->recordAt(m_datasets->rowOf(m_datasetKey));
    if (!d || commitId.isEmpty()) {
        m_cachedProxy->setRules({}, true);
    } else {
        // Cached copies of this commit of this dataset, on every target.
        m_cachedProxy->setRules({{CachedCommitModel::Dataset, models::RawValueRole, core::estateKey(*d)},
                                 {CachedCommitModel::Commit, models::RawValueRole, commitId}});
        if (m_cachedProxy->rowCount() > 0) {
            m_cachedView->selectionModel()->setCurrentIndex(
                m_cachedProxy->index(0, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        }
    }
    updateButtons();
    updateLineage();
}

bool DatasetsPage::selectCachedCopy(const QString &target)
{
    for (int row = 0; row < m_cachedProxy->rowCount(); ++row) {
        const QModelIndex index = m_cachedProxy->index(row, CachedCommitModel::Target);
        if (index.data().toString() == target) {
            m_cachedView->selectionModel()->setCurrentIndex(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            return true;
        }
    }
    return false;
}

const core::CachedCommit *DatasetsPage::currentCachedCopy() const
{
    const QModelIndex current = m_cachedProxy->mapToSource(m_cachedView->selectionModel()->currentIndex());
    return current.isValid() ? m_cached->recordAt(current.row()) : nullptr;
}

void DatasetsPage::updateButtons()
{
    const bool dataset = !m_datasetKey.isEmpty();
    const QStringList commits = selectedCommitIds();
    const core::Dataset *d = dataset ? m_datasets->recordAt(m_datasets->rowOf(m_datasetKey)) : nullptr;
    // ONTAP file datasets commit through snapshots on the Volumes page.
    m_commitButton->setEnabled(d && d->kind != core::DatasetKind::OntapVolume);
    const bool fileDataset = d && d->kind == core::DatasetKind::OntapVolume;
    // A file dataset's commit is cached as a FlexClone of its snapshot, on its own cluster.
    m_cacheButton->setEnabled(commits.size() == 1 && (fileDataset || m_targets->rowCount() > 0));
    const QModelIndex current = m_commitView->selectionModel()->currentIndex();
    const bool hasParent =
        current.isValid() && !m_commits->recordAt(m_commitProxy->mapToSource(current).row())->parent.isEmpty();
    // Snapshots carry no per-file manifest to compare.
    m_compareButton->setEnabled(!fileDataset && (commits.size() == 2 || (commits.size() == 1 && hasParent)));
    const core::CachedCommit *copy = currentCachedCopy();
    m_clearButton->setEnabled(copy && copy->state != core::CacheState::Evicting
                              && copy->state != core::CacheState::Evicted);
}

std::optional<core::ActionRequest> DatasetsPage::cacheRequest(const QString &targetSource, const QString &target) const
{
    const QModelIndex current = m_commitView->selectionModel()->currentIndex();
    if (!current.isValid()) {
        return std::nullopt;
    }
    const core::Commit *c = m_commits->recordAt(m_commitProxy->mapToSource(current).row());
    if (!c) {
        return std::nullopt;
    }
    core::ActionRequest r;
    r.kind = core::ActionKind::CacheCommit;
    r.source = targetSource;
    r.cacheTarget = target;
    r.commitId = c->id;
    r.datasetSource = c->source;
    r.datasetId = c->datasetId;
    return r;
}

std::optional<core::ActionRequest> DatasetsPage::cloneRequest() const
{
    const core::Dataset *d = m_datasetKey.isEmpty() ? nullptr : m_datasets->recordAt(m_datasets->rowOf(m_datasetKey));
    const QModelIndex current = m_commitView->selectionModel()->currentIndex();
    const core::Commit *c =
        current.isValid() ? m_commits->recordAt(m_commitProxy->mapToSource(current).row()) : nullptr;
    if (!d || !c || d->kind != core::DatasetKind::OntapVolume) {
        return std::nullopt;
    }
    core::ActionRequest r;
    r.kind = core::ActionKind::VolumeClone;
    r.source = d->source;
    r.volumeId = d->volumeId;
    r.snapshotId = c->id;
    return r;
}

void DatasetsPage::showCacheMenu()
{
    QMenu menu(this);
    menu.setObjectName(QStringLiteral("cacheTargetMenu"));
    if (const auto clone = cloneRequest()) {
        const core::Dataset *d = m_datasets->recordAt(m_datasets->rowOf(m_datasetKey));
        const QModelIndex current = m_commitView->selectionModel()->currentIndex();
        const core::Commit *c = m_commits->recordAt(m_commitProxy->mapToSource(current).row());
        QAction *action = menu.addAction(tr("FlexClone of snapshot \"%1\" on %2…").arg(c->manifestKey, d->source));
        action->setObjectName(QStringLiteral("flexCloneAction"));
        action->setToolTip(
            tr("A writable clone that shares blocks with %1 and uses no space until data diverges.").arg(d->name));
        connect(action, &QAction::triggered, this, [this, r = *clone] {
            Q_EMIT actionRequested(r);
        });
        menu.exec(m_cacheButton->mapToGlobal(QPoint(0, m_cacheButton->height())));
        return;
    }
    for (int row = 0; row < m_targets->rowCount(); ++row) {
        const core::CacheTarget *t = m_targets->recordAt(row);
        QAction *action =
            menu.addAction(tr("%1 (%2, %3 free)")
                               .arg(t->id, t->source)
                               .arg(core::formatBytes(std::max<qint64>(0, t->capacityBytes - t->usedBytes))));
        action->setEnabled(t->problem.isEmpty());
        if (!t->problem.isEmpty()) {
            action->setToolTip(t->problem);
        }
        const QString source = t->source;
        const QString target = t->id;
        connect(action, &QAction::triggered, this, [this, source, target] {
            if (const auto r = cacheRequest(source, target)) {
                Q_EMIT actionRequested(*r);
            }
        });
    }
    menu.exec(m_cacheButton->mapToGlobal(QPoint(0, m_cacheButton->height())));
}

void DatasetsPage::requestCommit()
{
    const core::Dataset *d = m_datasetKey.isEmpty() ? nullptr : m_datasets->recordAt(m_datasets->rowOf(m_datasetKey));
    if (!d) {
        return;
    }
    core::ActionRequest r;
    r.kind = core::ActionKind::DatasetCommit;
    r.source = d->source;
    r.datasetId = d->id;
    r.datasetSource = d->source;
    Q_EMIT actionRequested(r);
}

void DatasetsPage::requestClear()
{
    const core::CachedCommit *copy = currentCachedCopy();
    if (!copy) {
        return;
    }
    core::ActionRequest r;
    r.kind = core::ActionKind::CacheEvict;
    r.source = copy->source;
    r.cacheTarget = copy->target;
    r.commitId = copy->commitId;
    r.datasetSource = copy->datasetSource;
    r.datasetId = copy->datasetId;
    Q_EMIT actionRequested(r);
}

void DatasetsPage::requestCompare()
{
    const core::Dataset *d = m_datasetKey.isEmpty() ? nullptr : m_datasets->recordAt(m_datasets->rowOf(m_datasetKey));
    if (!d) {
        return;
    }
    const QModelIndexList rows = m_commitView->selectionModel()->selectedRows();
    QList<const core::Commit *> picked;
    for (const QModelIndex &index : rows) {
        if (const core::Commit *c = m_commits->recordAt(m_commitProxy->mapToSource(index).row())) {
            picked << c;
        }
    }
    if (picked.size() == 1 && !picked.first()->parent.isEmpty()) {
        m_compareFrom = picked.first()->parent;
        m_compareTo = picked.first()->id;
    } else if (picked.size() == 2) {
        // Older to newer, so "added" reads forward in time.
        const bool firstOlder = picked[0]->time <= picked[1]->time;
        m_compareFrom = (firstOlder ? picked[0] : picked[1])->id;
        m_compareTo = (firstOlder ? picked[1] : picked[0])->id;
    } else {
        return;
    }
    Q_EMIT compareRequested(d->source, d->id, m_compareFrom, m_compareTo);
}

void DatasetsPage::showComparison(const core::CommitComparison &comparison, const QString &error)
{
    if (comparison.fromId != m_compareFrom || comparison.toId != m_compareTo) {
        return;
    }
    if (m_comparisonDialog) {
        m_comparisonDialog->close();
    }
    auto *dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("commitComparisonDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(
        tr("Compare %1 → %2").arg(DatasetModel::shortId(comparison.fromId), DatasetModel::shortId(comparison.toId)));
    auto *summary = new QLabel(dialog);
    summary->setObjectName(QStringLiteral("comparisonSummaryLabel"));
    summary->setWordWrap(true);
    auto *list = new QTreeWidget(dialog);
    list->setObjectName(QStringLiteral("comparisonTreeWidget"));
    list->setHeaderLabels({tr("Change"), tr("Object"), tr("Size before"), tr("Size after")});
    list->setRootIsDecorated(false);
    if (!error.isEmpty()) {
        summary->setText(tr("The commits could not be compared: %1").arg(error));
        list->hide();
    } else {
        auto add = [list](const QString &kind, const core::CommitDiffEntry &e) {
            auto *item = new QTreeWidgetItem(list,
                                             {kind,
                                              e.key,
                                              e.fromSize < 0 ? QString() : core::formatBytes(e.fromSize),
                                              e.toSize < 0 ? QString() : core::formatBytes(e.toSize)});
            item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
            item->setTextAlignment(3, Qt::AlignRight | Qt::AlignVCenter);
        };
        for (const core::CommitDiffEntry &e : comparison.added) {
            add(tr("added"), e);
        }
        for (const core::CommitDiffEntry &e : comparison.removed) {
            add(tr("removed"), e);
        }
        for (const core::CommitDiffEntry &e : comparison.changed) {
            add(tr("changed"), e);
        }
        const bool same = comparison.added.isEmpty() && comparison.removed.isEmpty() && comparison.changed.isEmpty();
        summary->setText(same ? tr("The two commits hold the same objects (%1).").arg(comparison.unchanged)
                              : comparison.summary());
        list->header()->resizeSection(1, fontMetrics().horizontalAdvance(QLatin1Char('M')) * 24);
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(summary);
    layout->addWidget(list, 1);
    layout->addWidget(buttons);
    dialog->resize(720, 420);
    m_comparisonDialog = dialog;
    dialog->show();
}

void DatasetsPage::updateLineage()
{
    m_lineage->clear();
    const core::CachedCommit *copy = currentCachedCopy();
    if (!copy) {
        return;
    }
    auto *dataset = new QTreeWidgetItem(m_lineage, {copy->datasetName, tr("dataset in %1").arg(copy->datasetSource)});
    auto *commit = new QTreeWidgetItem(dataset, {DatasetModel::shortId(copy->commitId), tr("commit")});
    commit->setToolTip(0, copy->commitId);
    const core::Ptr<core::CacheTarget> target =
        m_estate ? m_estate->cacheTargets().find(copy->source, copy->source + QLatin1Char('/') + copy->target)
                 : nullptr;
    const QString volumeText = target && !target->volumeName.isEmpty() ? target->volumeName : copy->target;
    auto *volume = new QTreeWidgetItem(
        commit,
        {volumeText, tr("cache volume %1, %2 (%3)").arg(copy->target, copy->path, CommitModel::cacheStateText(*copy))});
    const QString claim = target ? target->namespaceName + QLatin1Char('/') + target->pvc : QString();
    auto *pvc = new QTreeWidgetItem(volume, {claim, tr("claim on %1").arg(copy->source)});
    if (m_estate) {
        for (const core::LineageEntry &e : core::lineage(*m_estate, *copy)) {
            const QString when =
                e.started.isValid() ? QLocale().toString(e.started.toLocalTime(), QLocale::ShortFormat) : QString();
            auto *job = new QTreeWidgetItem(
                pvc, {e.job, e.inEstate ? tr("job, started %1").arg(when) : tr("job (no longer in the cluster)")});
            if (!e.project.isEmpty()) {
                new QTreeWidgetItem(job, {e.project, tr("project")});
            }
        }
    }
    m_lineage->expandAll();
}

QStringList DatasetsPage::lineageTexts() const
{
    QStringList lines;
    std::function<void(QTreeWidgetItem *, int)> walk = [&](QTreeWidgetItem *item, int depth) {
        lines << QString(depth * 2, QLatin1Char(' ')) + item->text(0);
        for (int i = 0; i < item->childCount(); ++i) {
            walk(item->child(i), depth + 1);
        }
    };
    for (int i = 0; i < m_lineage->topLevelItemCount(); ++i) {
        walk(m_lineage->topLevelItem(i), 0);
    }
    return lines;
}

QByteArray DatasetsPage::headerState() const
{
    return m_datasetView->horizontalHeader()->saveState();
}

void DatasetsPage::restoreHeaderState(const QByteArray &state)
{
    if (!state.isEmpty()) {
        m_datasetView->horizontalHeader()->restoreState(state);
    }
}

} // namespace strata::views
