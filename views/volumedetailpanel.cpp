#include "views/volumedetailpanel.h"

#include "models/core/domain/clock.h"
#include "models/core/planning/volumecapacity.h"
#include "models/item/roles.h"
#include "models/item/snapshotlistmodel.h"
#include "models/item/volumetablemodel.h"
#include "views/capacitychart.h"
#include "views/statusdelegate.h"
#include "views/tableviewstyle.h"

#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace strata::views {

namespace {

QLabel *valueLabel(const QString &objectName, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setTextFormat(Qt::PlainText);
    return label;
}

QString orDash(const QString &text)
{
    return text.isEmpty() ? QStringLiteral("—") : text;
}

} // namespace

VolumeDetailPanel::VolumeDetailPanel(models::SnapshotListModel *snapshots, const core::IClock &clock, QWidget *parent)
    : QWidget(parent)
    , m_snapshots(snapshots)
    , m_clock(clock)
{
    setObjectName(QStringLiteral("volumeDetailPanel"));
    m_stack = new QStackedWidget(this);

    auto *empty = new QLabel(tr("Select a volume to see its capacity history and snapshots."), this);
    empty->setObjectName(QStringLiteral("volumeDetailEmptyLabel"));
    empty->setAlignment(Qt::AlignCenter);
    empty->setEnabled(false);
    m_stack->addWidget(empty);

    auto *content = new QWidget(this);
    m_titleLabel = new QLabel(content);
    m_titleLabel->setObjectName(QStringLiteral("volumeTitleLabel"));
    m_titleLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont titleFont = m_titleLabel->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    m_titleLabel->setFont(titleFont);

    m_tabs = new QTabWidget(content);
    m_tabs->setObjectName(QStringLiteral("volumeDetailTabWidget"));
    m_tabs->setDocumentMode(true);

    // Overview: identity on the left, capacity and its history on the right.
    auto *overview = new QWidget(m_tabs);
    auto *form = new QFormLayout();
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_svmLabel = valueLabel(QStringLiteral("volumeSvmLabel"), overview);
    m_sourceLabel = valueLabel(QStringLiteral("volumeSourceLabel"), overview);
    m_stateLabel = valueLabel(QStringLiteral("volumeStateLabel"), overview);
    m_styleLabel = valueLabel(QStringLiteral("volumeStyleLabel"), overview);
    m_aggregateLabel = valueLabel(QStringLiteral("volumeAggregateLabel"), overview);
    m_junctionLabel = valueLabel(QStringLiteral("volumeJunctionLabel"), overview);
    m_qosLabel = valueLabel(QStringLiteral("volumeQosLabel"), overview);
    m_cloneParentLabel = valueLabel(QStringLiteral("volumeCloneParentLabel"), overview);
    m_snapshotReserveLabel = valueLabel(QStringLiteral("volumeSnapshotReserveLabel"), overview);
    m_createdLabel = valueLabel(QStringLiteral("volumeCreatedLabel"), overview);
    form->addRow(tr("SVM:"), m_svmLabel);
    form->addRow(tr("Source:"), m_sourceLabel);
    form->addRow(tr("State:"), m_stateLabel);
    form->addRow(tr("Style:"), m_styleLabel);
    form->addRow(tr("Aggregate:"), m_aggregateLabel);
    form->addRow(tr("Junction path:"), m_junctionLabel);
    form->addRow(tr("QoS policy:"), m_qosLabel);
    form->addRow(tr("Clone parent:"), m_cloneParentLabel);
    form->addRow(tr("Snapshot reserve:"), m_snapshotReserveLabel);
    form->addRow(tr("Created:"), m_createdLabel);

    m_capacityBar = new QProgressBar(overview);
    m_capacityBar->setObjectName(QStringLiteral("volumeCapacityProgressBar"));
    m_capacityBar->setRange(0, 1000);
    m_capacityBar->setTextVisible(true);
    m_capacityLabel = valueLabel(QStringLiteral("volumeCapacityLabel"), overview);
    m_chart = new CapacityChart(overview);
    m_chart->setObjectName(QStringLiteral("capacityChart"));

    auto *capacity = new QVBoxLayout();
    auto *capacityTitle = new QLabel(tr("Capacity"), overview);
    QFont bold = capacityTitle->font();
    bold.setBold(true);
    capacityTitle->setFont(bold);
    capacity->addWidget(capacityTitle);
    capacity->addWidget(m_capacityBar);
    capacity->addWidget(m_capacityLabel);
    auto *historyTitle = new QLabel(tr("Capacity over time (up to 7 days)"), overview);
    historyTitle->setFont(bold);
    capacity->addWidget(historyTitle);
    capacity->addWidget(m_chart, 1);

    auto *overviewLayout = new QHBoxLayout(overview);
    overviewLayout->addLayout(form, 2);
    overviewLayout->addSpacing(12);
    overviewLayout->addLayout(capacity, 3);
    m_tabs->addTab(overview, tr("Overview"));

    // Snapshots: the System Manager "Snapshot copies" tab.
    auto *snapshotTab = new QWidget(m_tabs);
    m_createButton =
        new QPushButton(style()->standardIcon(QStyle::SP_FileDialogNewFolder), tr("Create snapshot…"), snapshotTab);
    m_createButton->setObjectName(QStringLiteral("snapshotCreateButton"));
    m_deleteButton = new QPushButton(style()->standardIcon(QStyle::SP_TrashIcon), tr("Delete…"), snapshotTab);
    m_deleteButton->setObjectName(QStringLiteral("snapshotDeleteButton"));
    m_restoreButton = new QPushButton(style()->standardIcon(QStyle::SP_BrowserReload), tr("Restore…"), snapshotTab);
    m_restoreButton->setObjectName(QStringLiteral("snapshotRestoreButton"));
    m_cloneButton = new QPushButton(style()->standardIcon(QStyle::SP_FileLinkIcon), tr("Clone…"), snapshotTab);
    m_cloneButton->setObjectName(QStringLiteral("snapshotCloneButton"));
    m_createButton->setToolTip(tr("Take a new snapshot of this volume"));
    m_deleteButton->setToolTip(tr("Delete the selected snapshot"));
    m_restoreButton->setToolTip(tr("Revert the whole volume to the selected snapshot (SnapRestore)"));
    m_cloneButton->setToolTip(tr("Create a FlexClone volume from the selected snapshot"));
    auto *buttons = new QHBoxLayout();
    buttons->addWidget(m_createButton);
    buttons->addWidget(m_deleteButton);
    buttons->addWidget(m_restoreButton);
    buttons->addWidget(m_cloneButton);
    buttons->addStretch(1);

    m_snapshotProxy = new QSortFilterProxyModel(this);
    m_snapshotProxy->setSourceModel(m_snapshots);
    m_snapshotProxy->setSortRole(models::RawValueRole);
    m_snapshotProxy->setSortCaseSensitivity(Qt::CaseInsensitive);
    m_snapshotView = new QTableView(snapshotTab);
    m_snapshotView->setObjectName(QStringLiteral("snapshotTableView"));
    m_snapshotView->setModel(m_snapshotProxy);
    applyTableStyle(m_snapshotView, 8);
    m_snapshotView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_snapshotView->setSortingEnabled(true);
    m_snapshotView->sortByColumn(models::SnapshotListModel::Created, Qt::DescendingOrder);
    m_snapshotView->setContextMenuPolicy(Qt::CustomContextMenu);
    m_snapshotView->setColumnWidth(models::SnapshotListModel::Name, 260);
    m_snapshotView->setColumnWidth(models::SnapshotListModel::Created, 130);
    m_snapshotView->setColumnWidth(models::SnapshotListModel::Size, 80);
    m_snapshotView->setColumnWidth(models::SnapshotListModel::Label, 110);
    m_snapshotView->setColumnWidth(models::SnapshotListModel::Comment, 220);

    m_snapshotStateLabel = new QLabel(snapshotTab);
    m_snapshotStateLabel->setObjectName(QStringLiteral("snapshotStateLabel"));
    m_snapshotStateLabel->setAlignment(Qt::AlignCenter);
    m_snapshotStateLabel->setWordWrap(true);
    m_snapshotStack = new QStackedWidget(snapshotTab);
    m_snapshotStack->addWidget(m_snapshotStateLabel);
    m_snapshotStack->addWidget(m_snapshotView);

    auto *snapshotLayout = new QVBoxLayout(snapshotTab);
    snapshotLayout->addLayout(buttons);
    snapshotLayout->addWidget(m_snapshotStack, 1);
    m_tabs->addTab(snapshotTab, tr("Snapshots"));

    auto *contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(0, 4, 0, 0);
    contentLayout->addWidget(m_titleLabel);
    contentLayout->addWidget(m_tabs, 1);
    m_stack->addWidget(content);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_createButton, &QPushButton::clicked, this, &VolumeDetailPanel::requestCreateSnapshot);
    connect(m_deleteButton, &QPushButton::clicked, this, [this] {
        requestSnapshotAction(core::ActionKind::SnapshotDelete);
    });
    connect(m_restoreButton, &QPushButton::clicked, this, [this] {
        requestSnapshotAction(core::ActionKind::SnapshotRestore);
    });
    connect(m_cloneButton, &QPushButton::clicked, this, [this] {
        requestSnapshotAction(core::ActionKind::VolumeClone);
    });
    connect(m_snapshotView, &QTableView::customContextMenuRequested, this, &VolumeDetailPanel::showSnapshotMenu);
    // Delete on a selected snapshot opens the same typed-name confirmation as the button.
    m_snapshotView->installEventFilter(this);
    connect(m_snapshotView->selectionModel(),
            &QItemSelectionModel::selectionChanged,
            this,
            &VolumeDetailPanel::updateButtons);
    connect(m_snapshots, &QAbstractItemModel::modelReset, this, &VolumeDetailPanel::updateSnapshotState);
    connect(m_snapshots, &QAbstractItemModel::rowsInserted, this, &VolumeDetailPanel::updateSnapshotState);
    connect(m_snapshots, &QAbstractItemModel::rowsRemoved, this, &VolumeDetailPanel::updateSnapshotState);
    connect(m_snapshots, &models::SnapshotListModel::loaded, this, &VolumeDetailPanel::updateSnapshotState);

    updateFields();
    updateSnapshotState();
}

VolumeDetailPanel::~VolumeDetailPanel() = default;

void VolumeDetailPanel::setVolume(core::Ptr<core::Volume> volume)
{
    const bool switched = !volume || !m_volume || volume->source != m_volume->source || volume->id != m_volume->id;
    m_volume = std::move(volume);
    if (switched) {
        m_snapshotError.clear();
        m_history.clear();
        m_historyLoaded = false;
        m_chart->setMessage(m_volume ? tr("Loading capacity history…") : tr("No volume selected."));
        updateSubscription();
    } else if (m_historyLoaded) {
        setCapacityHistory(m_history); // keeps the live end of the line current
    }
    updateFields();
    updateSnapshotState();
}

void VolumeDetailPanel::setCapacityHistory(std::vector<core::UsageSample> samples)
{
    m_history = std::move(samples);
    m_historyLoaded = true;
    if (!m_volume) {
        return;
    }
    // No "now" point while the volume reports no space (offline): the chart ends at the last
    // known sample instead of dropping to 0.
    core::UsageSample current;
    current.usedBytes = m_volume->usedBytes.value_or(0);
    current.sizeBytes = m_volume->sizeBytes;
    m_chart->setSamples(m_history, m_clock.now(), m_volume->usedBytes ? &current : nullptr);
}

void VolumeDetailPanel::setCapacityHistoryMessage(const QString &message)
{
    m_historyLoaded = false;
    m_chart->setMessage(message);
}

void VolumeDetailPanel::setSnapshotError(const QString &error)
{
    if (error != m_snapshotError) {
        m_snapshotError = error;
        updateSnapshotState();
    }
}

QString VolumeDetailPanel::selectedSnapshotId() const
{
    const QModelIndexList rows = m_snapshotView->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(models::IdRole).toString();
}

QByteArray VolumeDetailPanel::snapshotHeaderState() const
{
    return m_snapshotView->horizontalHeader()->saveState();
}

void VolumeDetailPanel::restoreSnapshotHeaderState(const QByteArray &state)
{
    if (!state.isEmpty()) {
        m_snapshotView->horizontalHeader()->restoreState(state);
    }
}

void VolumeDetailPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    updateSubscription();
}

void VolumeDetailPanel::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    updateSubscription();
}

bool VolumeDetailPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_snapshotView && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Delete && key->modifiers() == Qt::NoModifier && m_deleteButton->isEnabled()) {
            requestSnapshotAction(core::ActionKind::SnapshotDelete);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void VolumeDetailPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        updateFields();
    }
    QWidget::changeEvent(event);
}

void VolumeDetailPanel::updateSubscription()
{
    // Only a visible panel keeps a snapshot poller alive (reference counted in the engine).
    const bool want = m_volume && isVisible();
    const QString source = want ? m_volume->source : QString();
    const QString volumeId = want ? m_volume->id : QString();
    if (source == m_subscribedSource && volumeId == m_subscribedVolume) {
        return;
    }
    const QString oldSource = std::exchange(m_subscribedSource, source);
    const QString oldVolume = std::exchange(m_subscribedVolume, volumeId);
    if (!oldVolume.isEmpty()) {
        Q_EMIT snapshotsUnwanted(oldSource, oldVolume);
    }
    if (!volumeId.isEmpty()) {
        Q_EMIT snapshotsWanted(source, volumeId);
        if (!m_historyLoaded) {
            Q_EMIT capacityHistoryWanted(source, volumeId);
        }
    }
}

void VolumeDetailPanel::updateFields()
{
    m_stack->setCurrentIndex(m_volume ? 1 : 0);
    if (!m_volume) {
        updateButtons();
        return;
    }
    const core::Volume &v = *m_volume;
    m_titleLabel->setText(v.svm.isEmpty() ? v.name : v.svm + QLatin1Char('/') + v.name);
    m_svmLabel->setText(orDash(v.svm));
    m_sourceLabel->setText(orDash(v.source));
    m_stateLabel->setText(orDash(v.state));
    const QColor stateColor = StatusDelegate::colorFor(
        v.state == QLatin1String("online") ? QStringLiteral("ok") : QStringLiteral("critical"), palette());
    QPalette statePalette = m_stateLabel->palette();
    statePalette.setColor(QPalette::WindowText,
                          stateColor.isValid() ? stateColor : palette().color(QPalette::WindowText));
    m_stateLabel->setPalette(statePalette);
    QString style = v.isFlexCache ? QStringLiteral("flexcache") : v.style;
    if (!v.type.isEmpty() && v.type != QLatin1String("rw")) {
        style += QStringLiteral(" (") + v.type + QLatin1Char(')');
    }
    m_styleLabel->setText(orDash(style));
    m_aggregateLabel->setText(v.aggregateCount > 1
                                  ? tr("%1 and %n more", nullptr, v.aggregateCount - 1).arg(v.aggregate)
                                  : orDash(v.aggregate));
    m_junctionLabel->setText(v.nasPath.isEmpty() ? tr("not mounted") : v.nasPath);
    m_qosLabel->setText(v.qosPolicy.isEmpty() ? tr("none") : v.qosPolicy);
    m_cloneParentLabel->setText(v.cloneParent.isEmpty() ? tr("not a clone") : v.cloneParent);
    m_snapshotReserveLabel->setText((v.snapshotCount == 1
                                         ? tr("%1 %, %2 used by %Ln snapshot", nullptr, v.snapshotCount)
                                         : tr("%1 %, %2 used by %Ln snapshots", nullptr, v.snapshotCount))
                                        .arg(v.snapshotReservePercent)
                                        .arg(core::formatBytes(v.snapshotUsedBytes)));
    m_createdLabel->setText(v.created.isValid() ? QLocale().toString(v.created.toLocalTime(), QLocale::ShortFormat)
                                                : QStringLiteral("—"));

    const core::VolumeCapacity capacity = core::volumeCapacity(v);
    m_capacityBar->setValue(int(std::clamp(capacity.percentUsed.value_or(0.0), 0.0, 100.0) * 10));
    m_capacityBar->setFormat(core::volumeCapacityText(capacity));
    QPalette barPalette = palette();
    barPalette.setColor(QPalette::Highlight,
                        StatusDelegate::colorFor(models::VolumeTableModel::capacityStatus(v), palette(), true));
    m_capacityBar->setPalette(barPalette);
    m_capacityLabel->setText(tr("%1 available").arg(core::formatBytes(v.availableBytes)));
    updateButtons();
}

void VolumeDetailPanel::updateSnapshotState()
{
    const bool loaded = m_volume && m_snapshots->isLoaded() && m_snapshots->volumeId() == m_volume->id
                        && m_snapshots->source() == m_volume->source;
    QString message;
    if (!m_volume) {
        message = tr("No volume selected.");
    } else if (!loaded) {
        message =
            m_snapshotError.isEmpty() ? tr("Loading snapshots…") : tr("Cannot load snapshots: %1").arg(m_snapshotError);
    } else if (m_snapshots->rowCount() == 0) {
        message = tr("This volume has no snapshots.");
    }
    if (message.isEmpty()) {
        m_snapshotStack->setCurrentWidget(m_snapshotView);
    } else {
        m_snapshotStateLabel->setText(message);
        m_snapshotStack->setCurrentWidget(m_snapshotStateLabel);
    }
    m_tabs->setTabText(1, loaded ? tr("Snapshots (%1)").arg(m_snapshots->rowCount()) : tr("Snapshots"));
    updateButtons();
}

void VolumeDetailPanel::updateButtons()
{
    const bool online = m_volume && m_volume->state == QLatin1String("online");
    const bool loaded = m_volume && m_snapshots->isLoaded() && m_snapshots->volumeId() == m_volume->id;
    const bool selected = loaded && !selectedSnapshotId().isEmpty();
    m_createButton->setEnabled(online);
    m_deleteButton->setEnabled(selected);
    m_restoreButton->setEnabled(selected && online);
    m_cloneButton->setEnabled(selected && online);
}

void VolumeDetailPanel::requestCreateSnapshot()
{
    if (!m_volume) {
        return;
    }
    core::ActionRequest request;
    request.kind = core::ActionKind::SnapshotCreate;
    request.source = m_volume->source;
    request.volumeId = m_volume->id;
    Q_EMIT actionRequested(request);
}

void VolumeDetailPanel::requestSnapshotAction(core::ActionKind kind)
{
    const QString snapshotId = selectedSnapshotId();
    if (!m_volume || snapshotId.isEmpty()) {
        return;
    }
    core::ActionRequest request;
    request.kind = kind;
    request.source = m_volume->source;
    request.volumeId = m_volume->id;
    request.snapshotId = snapshotId;
    Q_EMIT actionRequested(request);
}

void VolumeDetailPanel::showSnapshotMenu(const QPoint &pos)
{
    QMenu menu(this);
    menu.addAction(m_createButton->icon(), m_createButton->text(), this, &VolumeDetailPanel::requestCreateSnapshot)
        ->setEnabled(m_createButton->isEnabled());
    menu.addSeparator();
    menu.addAction(m_cloneButton->icon(),
                   m_cloneButton->text(),
                   this,
                   [this] {
                       requestSnapshotAction(core::ActionKind::VolumeClone);
                   })
        ->setEnabled(m_cloneButton->isEnabled());
    menu.addAction(m_restoreButton->icon(),
                   m_restoreButton->text(),
                   this,
                   [this] {
                       requestSnapshotAction(core::ActionKind::SnapshotRestore);
                   })
        ->setEnabled(m_restoreButton->isEnabled());
    menu.addAction(m_deleteButton->icon(),
                   m_deleteButton->text(),
                   this,
                   [this] {
                       requestSnapshotAction(core::ActionKind::SnapshotDelete);
                   })
        ->setEnabled(m_deleteButton->isEnabled());
    menu.exec(m_snapshotView->viewport()->mapToGlobal(pos));
}

} // namespace strata::views
