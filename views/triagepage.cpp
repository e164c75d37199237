#include "views/triagepage.h"

#include "models/item/roles.h"
#include "models/item/timelinemodel.h"
#include "views/statusdelegate.h"
#include "views/tableviewstyle.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace strata::views {

using models::TimelineModel;

namespace {

QLineEdit *facetEdit(QWidget *parent, const QString &objectName, const QString &placeholder)
{
    auto *edit = new QLineEdit(parent);
    edit->setObjectName(objectName);
    edit->setPlaceholderText(placeholder);
    edit->setClearButtonEnabled(true);
    edit->setMaximumWidth(160);
    return edit;
}

QStringList words(const QString &text)
{
    return text.split(QLatin1Char(','), Qt::SkipEmptyParts).replaceInStrings(QStringLiteral(" "), QString());
}

} // namespace

TriagePage::TriagePage(models::TimelineModel *timeline, QWidget *parent)
    : QWidget(parent)
    , m_timeline(timeline)
{
    setObjectName(QStringLiteral("triagePage"));
    m_proxy = new models::TimelineFilterModel(this);
    m_proxy->setSourceModel(m_timeline);

    m_systemCombo = new QComboBox(this);
    m_systemCombo->setObjectName(QStringLiteral("triageSystemComboBox"));
    m_systemCombo->addItem(tr("All systems"), QString());
    for (const char *system : {"ontap", "storagegrid", "azure", "kubernetes", "strata"}) {
        const QString name = QString::fromLatin1(system);
        m_systemCombo->addItem(TimelineModel::systemLabel(name), name);
    }
    m_severityCombo = new QComboBox(this);
    m_severityCombo->setObjectName(QStringLiteral("triageSeverityComboBox"));
    m_severityCombo->addItem(tr("All severities"), -1);
    m_severityCombo->addItem(tr("Critical"), int(core::TimelineSeverity::Critical));
    m_severityCombo->addItem(tr("Errors and worse"), int(core::TimelineSeverity::Error));
    m_severityCombo->addItem(tr("Warnings and worse"), int(core::TimelineSeverity::Warning));
    m_categoryCombo = new QComboBox(this);
    m_categoryCombo->setObjectName(QStringLiteral("triageCategoryComboBox"));
    m_categoryCombo->addItem(tr("All categories"), QString());
    for (const core::TimelineCategory c : {core::TimelineCategory::SystemEvent,
                                           core::TimelineCategory::Alert,
                                           core::TimelineCategory::Operation,
                                           core::TimelineCategory::Scheduler,
                                           core::TimelineCategory::Cache,
                                           core::TimelineCategory::ServiceLevel,
                                           core::TimelineCategory::Health}) {
        m_categoryCombo->addItem(TimelineModel::categoryLabel(c), core::timelineCategoryName(c));
    }
    m_rangeCombo = new QComboBox(this);
    m_rangeCombo->setObjectName(QStringLiteral("triageRangeComboBox"));
    m_rangeCombo->addItem(tr("Last hour"), qint64(3600));
    m_rangeCombo->addItem(tr("Last 6 hours"), qint64(6 * 3600));
    m_rangeCombo->addItem(tr("Last 24 hours"), qint64(24 * 3600));
    m_rangeCombo->addItem(tr("Last 7 days"), qint64(7 * 24 * 3600));
    m_rangeCombo->addItem(tr("All time"), qint64(0));
    m_rangeCombo->setCurrentIndex(m_rangeCombo->count() - 1);
    m_projectEdit = facetEdit(this, QStringLiteral("triageProjectLineEdit"), tr("Project"));
    m_volumeEdit = facetEdit(this, QStringLiteral("triageVolumeLineEdit"), tr("Volume"));
    m_jobEdit = facetEdit(this, QStringLiteral("triageJobLineEdit"), tr("Job"));
    m_searchEdit = new QLineEdit(this);
    m_searchEdit->setObjectName(QStringLiteral("triageSearchLineEdit"));
    m_searchEdit->setPlaceholderText(tr("Search title, message, object or source"));
    m_searchEdit->setClearButtonEnabled(true);
    m_goToButton = new QPushButton(tr("&Go to"), this);
    m_goToButton->setObjectName(QStringLiteral("triageGoToButton"));
    m_goToButton->setToolTip(tr("Show the selected entry's volume, job, alert or source on its page"));
    m_countLabel = new QLabel(this);
    m_countLabel->setObjectName(QStringLiteral("triageCountLabel"));

    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("triageTableView"));
    m_view->setModel(m_proxy);
    applyTableStyle(m_view, 8);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(TimelineModel::Time, Qt::DescendingOrder);
    m_view->setItemDelegateForColumn(TimelineModel::Severity, new StatusDelegate(m_view, StatusDelegate::Mode::Badge));
    m_view->setColumnWidth(TimelineModel::Time, 150);
    m_view->setColumnWidth(TimelineModel::Severity, 100);
    m_view->setColumnWidth(TimelineModel::State, 80);
    m_view->setColumnWidth(TimelineModel::Count, 60);
    m_view->setColumnWidth(TimelineModel::FirstSeen, 150);
    m_view->setColumnWidth(TimelineModel::System, 100);
    m_view->setColumnWidth(TimelineModel::Source, 110);
    m_view->setColumnWidth(TimelineModel::Category, 100);
    m_view->setColumnWidth(TimelineModel::Title, 220);
    m_view->setColumnWidth(TimelineModel::Object, 180);
    setFillColumn(m_view, TimelineModel::Message);

    auto *facets = new QHBoxLayout();
    facets->addWidget(m_systemCombo);
    facets->addWidget(m_severityCombo);
    facets->addWidget(m_categoryCombo);
    facets->addWidget(m_rangeCombo);
    facets->addWidget(m_projectEdit);
    facets->addWidget(m_volumeEdit);
    facets->addWidget(m_jobEdit);
    facets->addStretch(1);
    auto *bar = new QHBoxLayout();
    bar->addWidget(m_searchEdit, 1);
    bar->addWidget(m_goToButton);
    bar->addWidget(m_countLabel);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(facets);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    m_countTimer = new QTimer(this);
    m_countTimer->setSingleShot(true);
    m_countTimer->setInterval(0);
    connect(m_countTimer, &QTimer::timeout, this, &TriagePage::updateCount);
    // "Last hour" slides with the clock, not only when the user touches the filter.
    m_rangeTimer = new QTimer(this);
    m_rangeTimer->setInterval(60 * 1000);
    connect(m_rangeTimer, &QTimer::timeout, this, [this] {
        if (m_rangeCombo->currentData().toLongLong() > 0) {
            applyFilter();
        }
    });
    m_rangeTimer->start();
    for (QComboBox *combo : {m_systemCombo, m_severityCombo, m_categoryCombo, m_rangeCombo}) {
        connect(combo, &QComboBox::currentIndexChanged, this, &TriagePage::applyFilter);
    }
    for (QLineEdit *edit : {m_projectEdit, m_volumeEdit, m_jobEdit, m_searchEdit}) {
        connect(edit, &QLineEdit::textChanged, this, &TriagePage::applyFilter);
    }
    for (QAbstractItemModel *model :
         {static_cast<QAbstractItemModel *>(m_proxy), static_cast<QAbstractItemModel *>(m_timeline)}) {
        connect(model, &QAbstractItemModel::rowsInserted, m_countTimer, qOverload<>(&QTimer::start));
        connect(model, &QAbstractItemModel::rowsRemoved, m_countTimer, qOverload<>(&QTimer::start));
        connect(model, &QAbstractItemModel::modelReset, m_countTimer, qOverload<>(&QTimer::start));
        connect(model, &QAbstractItemModel::layoutChanged, m_countTimer, qOverload<>(&QTimer::start));
    }
    connect(m_view, &QTableView::doubleClicked, this, [this] {
        goToCurrent();
    });
    connect(m_goToButton, &QPushButton::clicked, this, [this] {
        goToCurrent();
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, &TriagePage::updateButtons);
    applyFilter();
    updateButtons();
}

TriagePage::~TriagePage() = default;

void TriagePage::applyFilter()
{
    core::TimelineFilter f;
    if (const QString system = m_systemCombo->currentData().toString(); !system.isEmpty()) {
        f.systems = {system};
    }
    if (const int severity = m_severityCombo->currentData().toInt(); severity >= 0) {
        f.minSeverity = core::TimelineSeverity(severity);
    }
    if (const QString category = m_categoryCombo->currentData().toString(); !category.isEmpty()) {
        f.categories = {category};
    }
    if (const qint64 range = m_rangeCombo->currentData().toLongLong(); range > 0) {
        f.since = m_timeline->timeline().now().addSecs(-range);
    }
    f.projects = words(m_projectEdit->text());
    f.volumes = words(m_volumeEdit->text());
    f.jobs = words(m_jobEdit->text());
    f.search = m_searchEdit->text().trimmed();
    m_proxy->setFilter(f);
    updateCount();
    updateButtons();
}

void TriagePage::showSystem(const QString &system)
{
    const QSignalBlocker blockers[] = {QSignalBlocker(m_systemCombo),
                                       QSignalBlocker(m_severityCombo),
                                       QSignalBlocker(m_categoryCombo),
                                       QSignalBlocker(m_rangeCombo),
                                       QSignalBlocker(m_projectEdit),
                                       QSignalBlocker(m_volumeEdit),
                                       QSignalBlocker(m_jobEdit),
                                       QSignalBlocker(m_searchEdit)};
    m_systemCombo->setCurrentIndex(std::max(0, m_systemCombo->findData(system)));
    // Attention counts warnings and worse of the last day or so: show those first.
    m_severityCombo->setCurrentIndex(std::max(0, m_severityCombo->findData(int(core::TimelineSeverity::Warning))));
    m_categoryCombo->setCurrentIndex(0);
    m_rangeCombo->setCurrentIndex(m_rangeCombo->count() - 1);
    for (QLineEdit *edit : {m_projectEdit, m_volumeEdit, m_jobEdit, m_searchEdit}) {
        edit->clear();
    }
    applyFilter();
}

bool TriagePage::goToCurrent()
{
    const QModelIndex current = m_proxy->mapToSource(m_view->currentIndex());
    const core::TimelineEntry *e = m_timeline->recordAt(current.row());
    if (!current.isValid() || !e || e->objectKind.isEmpty()) {
        return false;
    }
    Q_EMIT objectRequested(e->objectKind, e->source, e->objectId);
    return true;
}

void TriagePage::updateButtons()
{
    const QModelIndex current = m_proxy->mapToSource(m_view->currentIndex());
    const core::TimelineEntry *e = current.isValid() ? m_timeline->recordAt(current.row()) : nullptr;
    m_goToButton->setEnabled(e && !e->objectKind.isEmpty());
}

QString TriagePage::countText() const
{
    return m_countLabel->text();
}

void TriagePage::updateCount()
{
    const int shown = m_proxy->rowCount();
    const int total = m_timeline->rowCount();
    const QLocale locale;
    // Grouped, a row can stand for many entries (an alert firing every few minutes).
    m_countLabel->setText(shown == total
                              ? (total == 1 ? tr("%Ln entry", nullptr, total) : tr("%Ln entries", nullptr, total))
                              : tr("%1 rows of %2 entries").arg(locale.toString(shown), locale.toString(total)));
}

QByteArray TriagePage::headerState() const
{
    return m_view->horizontalHeader()->saveState();
}

void TriagePage::restoreHeaderState(const QByteArray &state)
{
    if (!state.isEmpty()) {
        m_view->horizontalHeader()->restoreState(state);
    }
}

} // namespace strata::views
