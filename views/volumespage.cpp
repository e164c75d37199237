#include "views/volumespage.h"

#include "models/item/roles.h"
#include "models/item/snapshotlistmodel.h"
#include "models/item/volumetablemodel.h"
#include "views/statusdelegate.h"
#include "views/tablepage.h"
#include "views/volumedetailpanel.h"
#include "views/volumefilterproxy.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace strata::views {

using models::VolumeTableModel;

VolumesPage::VolumesPage(models::VolumeTableModel *volumes,
                         models::SnapshotListModel *snapshots,
                         const core::IClock &clock,
                         QAbstractItemModel *sources,
                         QWidget *parent)
    : QWidget(parent)
    , m_volumes(volumes)
    , m_sources(sources)
{
    setObjectName(QStringLiteral("volumesPage"));
    m_proxy = new VolumeFilterProxy(this);
    m_proxy->setSourceModel(m_volumes);

    m_filterEdit = new QLineEdit(this);
    m_filterEdit->setObjectName(QStringLiteral("volumeFilterLineEdit"));
    m_filterEdit->setPlaceholderText(tr("Filter by name, SVM, source, QoS policy or junction path"));
    m_filterEdit->setClearButtonEnabled(true);
    m_sourceCombo = new QComboBox(this);
    m_sourceCombo->setObjectName(QStringLiteral("volumeSourceComboBox"));
    m_sourceCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_stateCombo = new QComboBox(this);
    m_stateCombo->setObjectName(QStringLiteral("volumeStateComboBox"));
    m_stateCombo->addItem(tr("All states"), QString());
    m_stateCombo->addItem(tr("Online"), QStringLiteral("online"));
    m_stateCombo->addItem(tr("Offline"), QStringLiteral("offline"));
    m_stateCombo->addItem(tr("Restricted"), QStringLiteral("restricted"));
    m_stateCombo->addItem(tr("Mixed"), QStringLiteral("mixed"));
    m_stateCombo->addItem(tr("Error"), QStringLiteral("error"));
    m_countLabel = new QLabel(this);
    m_countLabel->setObjectName(QStringLiteral("volumeCountLabel"));

    // Fixed, uniform rows (the list look): the view never measures 50,000 rows' contents. The
    // guard goes before the model so a removed volume never hands its selection to a neighbour.
    m_view = newTableView(this, QStringLiteral("volumeTableView"), nullptr, QAbstractItemView::SingleSelection);
    clearCurrentWhenRemoved(m_view, m_proxy);
    m_view->setModel(m_proxy);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    QHeaderView *header = m_view->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionsMovable(true);
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setItemDelegateForColumn(VolumeTableModel::State, new StatusDelegate(m_view, StatusDelegate::Mode::Badge));
    setColumnWidthsEm(m_view,
                      {{VolumeTableModel::Name, 18},
                       {VolumeTableModel::Source, 8},
                       {VolumeTableModel::Svm, 8},
                       {VolumeTableModel::State, 7},
                       {VolumeTableModel::Style, 7},
                       {VolumeTableModel::Size, 7},
                       {VolumeTableModel::Used, 7},
                       {VolumeTableModel::PercentUsed, 6},
                       {VolumeTableModel::Available, 7},
                       {VolumeTableModel::Qos, 9},
                       {VolumeTableModel::Snapshots, 7},
                       {VolumeTableModel::Iops, 6},
                       {VolumeTableModel::Throughput, 8},
                       {VolumeTableModel::Latency, 6}});
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(VolumeTableModel::Name, Qt::AscendingOrder);

    m_detail = new VolumeDetailPanel(snapshots, clock, this);
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(QStringLiteral("volumeSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_view);
    m_splitter->addWidget(m_detail);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({420, 380});

    auto *bar = new QHBoxLayout();
    bar->addWidget(m_filterEdit, 1);
    bar->addWidget(m_sourceCombo);
    bar->addWidget(m_stateCombo);
    bar->addWidget(m_countLabel);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_splitter, 1);

    // Typing in a 50,000-row filter re-filters once the user pauses, not on every key.
    m_filterTimer = new QTimer(this);
    m_filterTimer->setSingleShot(true);
    m_filterTimer->setInterval(150);
    connect(m_filterEdit, &QLineEdit::textChanged, m_filterTimer, qOverload<>(&QTimer::start));
    connect(m_filterTimer, &QTimer::timeout, this, [this] {
        m_proxy->setTextFilter(m_filterEdit->text());
    });
    connect(m_sourceCombo, &QComboBox::currentIndexChanged, this, [this] {
        m_proxy->setSourceFilter(m_sourceCombo->currentData().toString());
    });
    connect(m_stateCombo, &QComboBox::currentIndexChanged, this, [this] {
        m_proxy->setStateFilter(m_stateCombo->currentData().toString());
    });

    m_countTimer = new QTimer(this);
    m_countTimer->setSingleShot(true);
    m_countTimer->setInterval(0);
    connect(m_countTimer, &QTimer::timeout, this, &VolumesPage::updateCount);
    for (QAbstractItemModel *model :
         {static_cast<QAbstractItemModel *>(m_proxy), static_cast<QAbstractItemModel *>(m_volumes)}) {
        connect(model, &QAbstractItemModel::rowsInserted, m_countTimer, qOverload<>(&QTimer::start));
        connect(model, &QAbstractItemModel::rowsRemoved, m_countTimer, qOverload<>(&QTimer::start));
        connect(model, &QAbstractItemModel::modelReset, m_countTimer, qOverload<>(&QTimer::start));
        connect(model, &QAbstractItemModel::layoutChanged, m_countTimer, qOverload<>(&QTimer::start));
    }

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &VolumesPage::onCurrentChanged);
    connect(m_volumes, &QAbstractItemModel::dataChanged, this, &VolumesPage::onVolumesChanged);
    connect(m_volumes, &QAbstractItemModel::rowsRemoved, this, &VolumesPage::refreshCurrent);
    connect(m_volumes, &QAbstractItemModel::modelReset, this, &VolumesPage::refreshCurrent);
    connect(m_view, &QTableView::customContextMenuRequested, this, &VolumesPage::showContextMenu);
    connect(header, &QHeaderView::customContextMenuRequested, this, &VolumesPage::showHeaderMenu);

    if (m_sources) {
        connect(m_sources, &QAbstractItemModel::rowsInserted, this, &VolumesPage::updateSourceCombo);
        connect(m_sources, &QAbstractItemModel::rowsRemoved, this, &VolumesPage::updateSourceCombo);
        connect(m_sources, &QAbstractItemModel::modelReset, this, &VolumesPage::updateSourceCombo);
    }
    updateSourceCombo();
    updateCount();
}

VolumesPage::~VolumesPage() = default;

QString VolumesPage::countText() const
{
    return m_countLabel->text();
}

bool VolumesPage::selectVolume(const QString &key)
{
    const int sourceRow = m_volumes->rowOf(key);
    if (sourceRow < 0) {
        return false;
    }
    m_proxy->settle(); // a sort or filter pending on the worker: the volume's row now
    return selectRow(m_view, m_proxy->mapFromSource(m_volumes->index(sourceRow, VolumeTableModel::Name)));
}

QByteArray VolumesPage::headerState() const
{
    return m_view->horizontalHeader()->saveState();
}

void VolumesPage::restoreHeaderState(const QByteArray &state)
{
    if (!state.isEmpty()) {
        m_view->horizontalHeader()->restoreState(state);
    }
}

QByteArray VolumesPage::splitterState() const
{
    return m_splitter->saveState();
}

void VolumesPage::restoreSplitterState(const QByteArray &state)
{
    if (!state.isEmpty()) {
        m_splitter->restoreState(state);
    }
}

void VolumesPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    setPerformanceWanted(true);
}

void VolumesPage::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    setPerformanceWanted(false);
}

void VolumesPage::setPerformanceWanted(bool wanted)
{
    if (wanted != m_perfWanted) {
        m_perfWanted = wanted;
        Q_EMIT performanceWanted(wanted);
    }
}

void VolumesPage::onCurrentChanged()
{
    const QModelIndex current = m_proxy->mapToSource(m_view->selectionModel()->currentIndex());
    const core::Ptr<core::Volume> volume = current.isValid() ? m_volumes->pointerAt(current.row()) : nullptr;
    m_currentKey = volume ? core::estateKey(*volume) : QString();
    m_detail->setVolume(volume);
}

void VolumesPage::onVolumesChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight)
{
    if (m_currentKey.isEmpty()) {
        return;
    }
    const int row = m_volumes->rowOf(m_currentKey);
    if (row >= topLeft.row() && row <= bottomRight.row() && m_volumes->pointerAt(row) != m_detail->volume()) {
        m_detail->setVolume(m_volumes->pointerAt(row));
    }
}

void VolumesPage::refreshCurrent()
{
    if (m_currentKey.isEmpty()) {
        return;
    }
    const int row = m_volumes->rowOf(m_currentKey);
    if (row < 0) {
        m_currentKey.clear();
        m_detail->setVolume(nullptr);
    } else if (m_volumes->pointerAt(row) != m_detail->volume()) {
        m_detail->setVolume(m_volumes->pointerAt(row));
    }
}

void VolumesPage::updateCount()
{
    m_countLabel->setText(volumeCountText(m_proxy->rowCount(), m_volumes->rowCount()));
}

void VolumesPage::updateSourceCombo()
{
    m_proxy->setSourceFilter(refillSourceCombo(m_sourceCombo, m_sources));
}

void VolumesPage::showContextMenu(const QPoint &pos)
{
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid()) {
        return;
    }
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    const core::Ptr<core::Volume> volume = m_detail->volume();
    if (!volume) {
        return;
    }
    QMenu menu(this);
    QAction *create = menu.addAction(style()->standardIcon(QStyle::SP_FileDialogNewFolder),
                                     tr("Create snapshot…"),
                                     m_detail,
                                     &VolumeDetailPanel::requestCreateSnapshot);
    create->setEnabled(volume->state == QLatin1String("online"));
    menu.addSeparator();
    const QString name = volume->name;
    menu.addAction(tr("Copy name"), this, [name] {
        QApplication::clipboard()->setText(name);
    });
    const QString path = volume->nasPath;
    menu.addAction(tr("Copy junction path"),
                   this,
                   [path] {
                       QApplication::clipboard()->setText(path);
                   })
        ->setEnabled(!path.isEmpty());
    menu.addSeparator();
    menu.addAction(
        style()->standardIcon(QStyle::SP_BrowserReload), tr("Refresh"), this, &VolumesPage::refreshRequested);
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void VolumesPage::showHeaderMenu(const QPoint &pos)
{
    QHeaderView *header = m_view->horizontalHeader();
    QMenu menu(this);
    for (int column = 0; column < m_proxy->columnCount(); ++column) {
        QAction *action = menu.addAction(m_proxy->headerData(column, Qt::Horizontal).toString());
        action->setCheckable(true);
        action->setChecked(!header->isSectionHidden(column));
        action->setEnabled(column != VolumeTableModel::Name);
        connect(action, &QAction::toggled, header, [header, column](bool on) {
            header->setSectionHidden(column, !on);
        });
    }
    menu.exec(header->mapToGlobal(pos));
}

} // namespace strata::views
