#include "views/servicelevelspage.h"

#include "models/item/roles.h"
#include "models/item/servicelevelmodel.h"
#include "views/statusdelegate.h"
#include "views/tablepage.h"
#include "views/tableviewstyle.h"
#include "views/throughputchart.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace strata::views {

using models::ServiceLevelTableModel;

ServiceLevelFilterProxy::ServiceLevelFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(models::RawValueRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

ServiceLevelFilterProxy::~ServiceLevelFilterProxy() = default;

void ServiceLevelFilterProxy::setTextFilter(const QString &text)
{
    m_text = text.trimmed();
    invalidateRowsFilter();
}

void ServiceLevelFilterProxy::setSourceFilter(const QString &source)
{
    m_source = source;
    invalidateRowsFilter();
}

void ServiceLevelFilterProxy::setFlagFilter(FlagFilter filter)
{
    m_flag = filter;
    invalidateRowsFilter();
}

bool ServiceLevelFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex flagIndex = sourceModel()->index(sourceRow, ServiceLevelTableModel::Flag, sourceParent);
    if (!m_source.isEmpty() && flagIndex.data(models::SourceRole).toString() != m_source) {
        return false;
    }
    const auto flag = core::LevelFlag(flagIndex.data(models::RawValueRole).toInt());
    switch (m_flag) {
    case FlagFilter::All:
        break;
    case FlagFilter::Flagged:
        if (flag == core::LevelFlag::None) {
            return false;
        }
        break;
    case FlagFilter::AtCap:
        if (flag != core::LevelFlag::AtCap) {
            return false;
        }
        break;
    case FlagFilter::FarBelow:
        if (flag != core::LevelFlag::FarBelow) {
            return false;
        }
        break;
    }
    if (m_text.isEmpty()) {
        return true;
    }
    const QString text = flagIndex.data(models::FilterTextRole).toString();
    const QStringList words = m_text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString &word : words) {
        if (!text.contains(word, Qt::CaseInsensitive)) {
            return false;
        }
    }
    return true;
}

bool ServiceLevelFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const QVariant l = left.data(models::RawValueRole);
    const QVariant r = right.data(models::RawValueRole);
    if (l.typeId() == QMetaType::Double && r.typeId() == QMetaType::Double) {
        return l.toDouble() < r.toDouble();
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

ServiceLevelsPage::ServiceLevelsPage(models::ServiceLevelTableModel *levels,
                                     QAbstractItemModel *sources,
                                     QWidget *parent)
    : QWidget(parent)
    , m_levels(levels)
    , m_sources(sources)
{
    setObjectName(QStringLiteral("serviceLevelsPage"));
    m_proxy = new ServiceLevelFilterProxy(this);
    m_proxy->setSourceModel(m_levels);

    m_filterEdit = new QLineEdit(this);
    m_filterEdit->setObjectName(QStringLiteral("levelFilterLineEdit"));
    m_filterEdit->setPlaceholderText(tr("Filter by volume, SVM, pool, source or level"));
    m_filterEdit->setClearButtonEnabled(true);
    m_sourceCombo = new QComboBox(this);
    m_sourceCombo->setObjectName(QStringLiteral("levelSourceComboBox"));
    m_sourceCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_flagCombo = new QComboBox(this);
    m_flagCombo->setObjectName(QStringLiteral("levelFlagComboBox"));
    m_flagCombo->addItem(tr("All volumes"), int(ServiceLevelFilterProxy::FlagFilter::All));
    m_flagCombo->addItem(tr("Flagged"), int(ServiceLevelFilterProxy::FlagFilter::Flagged));
    m_flagCombo->addItem(tr("At cap"), int(ServiceLevelFilterProxy::FlagFilter::AtCap));
    m_flagCombo->addItem(tr("Far below cap"), int(ServiceLevelFilterProxy::FlagFilter::FarBelow));
    m_countLabel = new QLabel(this);
    m_countLabel->setObjectName(QStringLiteral("levelCountLabel"));

    QStyle *st = style();
    m_changeButton = new QPushButton(st->standardIcon(QStyle::SP_ArrowUp), tr("&Change level…"), this);
    m_changeButton->setObjectName(QStringLiteral("levelChangeButton"));
    m_changeButton->setToolTip(tr("Move the volume to another service level, with a preview first"));
    m_scheduleButton = new QPushButton(st->standardIcon(QStyle::SP_FileDialogDetailedView), tr("&Schedule…"), this);
    m_scheduleButton->setObjectName(QStringLiteral("levelScheduleButton"));
    m_scheduleButton->setToolTip(tr("Change the level at a time, or raise it for a window and lower it after"));
    m_upcomingButton = new QPushButton(tr("&Upcoming changes…"), this);
    m_upcomingButton->setObjectName(QStringLiteral("levelUpcomingButton"));
    m_rateCardButton = new QPushButton(tr("&Rate card…"), this);
    m_rateCardButton->setObjectName(QStringLiteral("levelRateCardButton"));
    m_rateCardButton->setToolTip(tr("Prices per GiB and month, and the cool-down between changes"));

    // The guard goes before the model: never leave the current row on a neighbour of a removed volume.
    m_view = newTableView(this, QStringLiteral("levelTableView"), nullptr, QAbstractItemView::SingleSelection);
    clearCurrentWhenRemoved(m_view, m_proxy);
    m_view->setModel(m_proxy);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setItemDelegate(new StatusDelegate(m_view));
    m_view->setItemDelegateForColumn(ServiceLevelTableModel::Flag,
                                     new StatusDelegate(m_view, StatusDelegate::Mode::Badge));
    setColumnWidthsEm(m_view,
                      {{ServiceLevelTableModel::Source, 8},
                       {ServiceLevelTableModel::Volume, 12},
                       {ServiceLevelTableModel::Container, 12},
                       {ServiceLevelTableModel::Level, 8},
                       {ServiceLevelTableModel::LevelDetail, 14},
                       {ServiceLevelTableModel::Cap, 7},
                       {ServiceLevelTableModel::CapIops, 6},
                       {ServiceLevelTableModel::Observed, 7},
                       {ServiceLevelTableModel::P95, 7},
                       {ServiceLevelTableModel::CapUse, 5},
                       {ServiceLevelTableModel::Cost, 7},
                       {ServiceLevelTableModel::Flag, 11},
                       {ServiceLevelTableModel::LastChange, 10}});
    // The figures a reader compares come first, so a 1280 px window shows them; where the
    // volume lives, the level's detail and its last change scroll in from the right.
    setColumnOrder(m_view,
                   {ServiceLevelTableModel::Volume,
                    ServiceLevelTableModel::Level,
                    ServiceLevelTableModel::Cap,
                    ServiceLevelTableModel::CapIops,
                    ServiceLevelTableModel::Observed,
                    ServiceLevelTableModel::P95,
                    ServiceLevelTableModel::CapUse,
                    ServiceLevelTableModel::Flag,
                    ServiceLevelTableModel::Cost,
                    ServiceLevelTableModel::Source,
                    ServiceLevelTableModel::Container,
                    ServiceLevelTableModel::LevelDetail,
                    ServiceLevelTableModel::LastChange});
    const int em = fontMetrics().horizontalAdvance(QLatin1Char('M'));
    m_view->horizontalHeader()->setSectionsMovable(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ServiceLevelTableModel::Source, Qt::AscendingOrder);

    m_detailTitle = new QLabel(this);
    m_detailTitle->setObjectName(QStringLiteral("levelDetailTitleLabel"));
    QFont bold = m_detailTitle->font();
    bold.setBold(true);
    m_detailTitle->setFont(bold);
    m_rangeCombo = new QComboBox(this);
    m_rangeCombo->setObjectName(QStringLiteral("levelRangeComboBox"));
    m_rangeCombo->addItem(tr("Last 24 hours"), qint64(86400));
    m_rangeCombo->addItem(tr("Last 7 days"), qint64(7 * 86400));
    m_rangeCombo->addItem(tr("Last 30 days"), qint64(30 * 86400));
    m_chart = new ThroughputChart(this);
    m_upcomingList = new QListWidget(this);
    m_upcomingList->setObjectName(QStringLiteral("levelUpcomingListWidget"));
    m_upcomingList->setMaximumWidth(22 * em);
    m_upcomingList->setToolTip(tr("This volume's scheduled level changes"));

    auto *detail = new QWidget(this);
    auto *detailBar = new QHBoxLayout();
    detailBar->addWidget(m_detailTitle, 1);
    detailBar->addWidget(m_rangeCombo);
    auto *upcomingBox = new QVBoxLayout();
    upcomingBox->addWidget(new QLabel(tr("Scheduled changes:"), detail));
    upcomingBox->addWidget(m_upcomingList, 1);
    auto *detailBody = new QHBoxLayout();
    detailBody->addWidget(m_chart, 1);
    detailBody->addLayout(upcomingBox);
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->addLayout(detailBar);
    detailLayout->addLayout(detailBody, 1);

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(QStringLiteral("levelSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_view);
    m_splitter->addWidget(detail);
    m_splitter->setSizes({420, 300});

    auto *bar = new QHBoxLayout();
    bar->addWidget(m_filterEdit, 1);
    bar->addWidget(m_sourceCombo);
    bar->addWidget(m_flagCombo);
    bar->addWidget(m_countLabel);
    auto *buttons = new QHBoxLayout();
    for (QPushButton *b : {m_changeButton, m_scheduleButton, m_upcomingButton}) {
        buttons->addWidget(b);
    }
    buttons->addStretch(1);
    buttons->addWidget(m_rateCardButton);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addLayout(bar);
    layout->addWidget(m_splitter, 1);

    onFilterTextSettled(m_filterEdit, this, [this](const QString &text) {
        m_proxy->setTextFilter(text);
    });
    connect(m_sourceCombo, &QComboBox::currentIndexChanged, this, [this] {
        m_proxy->setSourceFilter(m_sourceCombo->currentData().toString());
    });
    connect(m_flagCombo, &QComboBox::currentIndexChanged, this, [this] {
        m_proxy->setFlagFilter(ServiceLevelFilterProxy::FlagFilter(m_flagCombo->currentData().toInt()));
    });
    connect(m_rangeCombo, &QComboBox::currentIndexChanged, this, &ServiceLevelsPage::requestHistory);
    for (QAbstractItemModel *model :
         {static_cast<QAbstractItemModel *>(m_proxy), static_cast<QAbstractItemModel *>(m_levels)}) {
        connect(model, &QAbstractItemModel::rowsInserted, this, &ServiceLevelsPage::updateCount);
        connect(model, &QAbstractItemModel::rowsRemoved, this, &ServiceLevelsPage::updateCount);
        connect(model, &QAbstractItemModel::modelReset, this, &ServiceLevelsPage::updateCount);
        connect(model, &QAbstractItemModel::layoutChanged, this, &ServiceLevelsPage::updateCount);
    }
    connect(m_levels, &QAbstractItemModel::rowsRemoved, this, [this] {
        if (!m_currentKey.isEmpty() && m_levels->rowOf(m_currentKey) < 0) {
            onCurrentChanged();
        }
    });
    connect(m_levels, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &tl, const QModelIndex &br) {
        const int row = m_levels->rowOf(m_currentKey);
        if (row >= tl.row() && row <= br.row()) {
            const core::ServiceLevelRow *r = m_levels->rowAt(row);
            m_detailTitle->setText(tr("%1 — %2, cap %3")
                                       .arg(r->volumeName,
                                            r->level.isEmpty() ? tr("no level") : r->level,
                                            ServiceLevelTableModel::formatMibps(r->capMibps)));
            updateButtons();
        }
    });
    connect(
        m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ServiceLevelsPage::onCurrentChanged);
    connect(m_view, &QTableView::customContextMenuRequested, this, &ServiceLevelsPage::showContextMenu);
    connect(m_view, &QTableView::activated, m_changeButton, &QPushButton::click);
    connect(m_changeButton, &QPushButton::clicked, this, [this] {
        if (const core::ServiceLevelRow *r = currentRow()) {
            Q_EMIT changeLevelRequested(r->source, r->volumeId);
        }
    });
    connect(m_scheduleButton, &QPushButton::clicked, this, [this] {
        if (const core::ServiceLevelRow *r = currentRow()) {
            Q_EMIT scheduleRequested(r->source, r->volumeId);
        }
    });
    connect(m_upcomingButton, &QPushButton::clicked, this, &ServiceLevelsPage::upcomingRequested);
    connect(m_rateCardButton, &QPushButton::clicked, this, &ServiceLevelsPage::rateCardRequested);

    if (m_sources) {
        connect(m_sources, &QAbstractItemModel::rowsInserted, this, &ServiceLevelsPage::updateSourceCombo);
        connect(m_sources, &QAbstractItemModel::rowsRemoved, this, &ServiceLevelsPage::updateSourceCombo);
        connect(m_sources, &QAbstractItemModel::modelReset, this, &ServiceLevelsPage::updateSourceCombo);
    }
    updateSourceCombo();
    updateCount();
    onCurrentChanged();
}

ServiceLevelsPage::~ServiceLevelsPage() = default;

QString ServiceLevelsPage::countText() const
{
    return m_countLabel->text();
}

const core::ServiceLevelRow *ServiceLevelsPage::currentRow() const
{
    return m_currentKey.isEmpty() ? nullptr : m_levels->rowAt(m_levels->rowOf(m_currentKey));
}

bool ServiceLevelsPage::selectVolume(const QString &key)
{
    const int row = m_levels->rowOf(key);
    if (row < 0) {
        return false;
    }
    return selectRow(m_view, m_proxy->mapFromSource(m_levels->index(row, ServiceLevelTableModel::Volume)));
}

qint64 ServiceLevelsPage::rangeSeconds() const
{
    return m_rangeCombo->currentData().toLongLong();
}

void ServiceLevelsPage::onCurrentChanged()
{
    const QModelIndex current = m_proxy->mapToSource(m_view->selectionModel()->currentIndex());
    const core::ServiceLevelRow *r = current.isValid() ? m_levels->rowAt(current.row()) : nullptr;
    const QString key = r ? ServiceLevelTableModel::key(*r) : QString();
    const bool changed = key != m_currentKey;
    m_currentKey = key;
    if (!r) {
        m_detailTitle->setText(tr("No volume selected"));
        m_chart->setMessage(tr("Select a volume to see its throughput against its cap."));
    } else {
        m_detailTitle->setText(tr("%1 — %2, cap %3")
                                   .arg(r->volumeName,
                                        r->level.isEmpty() ? tr("no level") : r->level,
                                        ServiceLevelTableModel::formatMibps(r->capMibps)));
        if (changed) {
            m_chart->setMessage(tr("Loading throughput history…"));
            requestHistory();
        }
    }
    updateUpcomingList();
    updateButtons();
}

void ServiceLevelsPage::requestHistory()
{
    if (const core::ServiceLevelRow *r = currentRow()) {
        Q_EMIT throughputHistoryWanted(r->source, r->volumeId, rangeSeconds());
    }
}

void ServiceLevelsPage::setThroughputHistory(const QString &source,
                                             const QString &volumeId,
                                             const std::vector<core::ThroughputPoint> &points,
                                             const QDateTime &from,
                                             const QDateTime &to)
{
    if (source + QLatin1Char('/') + volumeId != m_currentKey) {
        return;
    }
    m_chart->setPoints(points, from, to);
}

void ServiceLevelsPage::setThroughputMessage(const QString &message)
{
    m_chart->setMessage(message);
}

void ServiceLevelsPage::setUpcoming(const QList<core::UpcomingChange> &upcoming)
{
    m_upcoming = upcoming;
    updateUpcomingList();
}

QStringList ServiceLevelsPage::upcomingTexts() const
{
    QStringList texts;
    for (int i = 0; i < m_upcomingList->count(); ++i) {
        texts << m_upcomingList->item(i)->text();
    }
    return texts;
}

QString ServiceLevelsPage::upcomingText(const core::UpcomingChange &change, bool withVolume)
{
    const QString when = QLocale().toString(change.time.toLocalTime(), QStringLiteral("ddd d MMM HH:mm"));
    QString text = withVolume ? tr("%1  %2 → %3").arg(when, change.volumeName, change.toLevel)
                              : tr("%1 → %2").arg(when, change.toLevel);
    if (change.toLevel.isEmpty()) {
        text += tr("(no policy)");
    }
    if (change.revert) {
        text += QLatin1Char(' ') + tr("(end of window)");
    }
    return text;
}

void ServiceLevelsPage::updateUpcomingList()
{
    m_upcomingList->clear();
    for (const core::UpcomingChange &change : std::as_const(m_upcoming)) {
        if (change.source + QLatin1Char('/') + change.volumeId == m_currentKey) {
            m_upcomingList->addItem(upcomingText(change, false));
        }
    }
    if (m_upcomingList->count() == 0 && !m_currentKey.isEmpty()) {
        auto *none = new QListWidgetItem(tr("None"), m_upcomingList);
        none->setFlags(Qt::NoItemFlags);
    }
}

void ServiceLevelsPage::updateButtons()
{
    const bool selected = currentRow() != nullptr;
    m_changeButton->setEnabled(selected);
    m_scheduleButton->setEnabled(selected);
}

void ServiceLevelsPage::updateCount()
{
    m_countLabel->setText(volumeCountText(m_proxy->rowCount(), m_levels->rowCount()));
}

void ServiceLevelsPage::updateSourceCombo()
{
    m_proxy->setSourceFilter(refillSourceCombo(m_sourceCombo, m_sources));
}

void ServiceLevelsPage::showContextMenu(const QPoint &pos)
{
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid()) {
        return;
    }
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QMenu menu(this);
    menu.addAction(m_changeButton->icon(), m_changeButton->text(), m_changeButton, &QPushButton::click);
    menu.addAction(m_scheduleButton->icon(), m_scheduleButton->text(), m_scheduleButton, &QPushButton::click);
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

QByteArray ServiceLevelsPage::headerState() const
{
    return m_view->horizontalHeader()->saveState();
}

void ServiceLevelsPage::restoreHeaderState(const QByteArray &state)
{
    if (!state.isEmpty()) {
        m_view->horizontalHeader()->restoreState(state);
    }
}

} // namespace strata::views
