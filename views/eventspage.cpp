#include "views/eventspage.h"

#include "models/item/eventtablemodel.h"
#include "views/eventfilterproxy.h"
#include "views/statusdelegate.h"
#include "views/tableviewstyle.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace strata::views {

using models::EventTableModel;

EventsPage::EventsPage(models::EventTableModel *events, QWidget *parent)
    : QWidget(parent)
    , m_events(events)
{
    setObjectName(QStringLiteral("eventsPage"));
    m_proxy = new EventFilterProxy(this);
    m_proxy->setSourceModel(m_events);

    m_filterEdit = new QLineEdit(this);
    m_filterEdit->setObjectName(QStringLiteral("eventFilterLineEdit"));
    m_filterEdit->setPlaceholderText(tr("Filter by event name, message or source"));
    m_filterEdit->setClearButtonEnabled(true);
    m_severityCombo = new QComboBox(this);
    m_severityCombo->setObjectName(QStringLiteral("eventSeverityComboBox"));
    m_severityCombo->addItem(tr("All severities"), -1);
    m_severityCombo->addItem(tr("Errors and worse"), EventTableModel::severityRank(QStringLiteral("error")));
    m_severityCombo->addItem(tr("Notices and worse"), EventTableModel::severityRank(QStringLiteral("notice")));
    m_countLabel = new QLabel(this);
    m_countLabel->setObjectName(QStringLiteral("eventCountLabel"));

    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("eventTableView"));
    m_view->setModel(m_proxy);
    applyTableStyle(m_view, 8);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(EventTableModel::Time, Qt::DescendingOrder);
    m_view->setItemDelegateForColumn(EventTableModel::Severity,
                                     new StatusDelegate(m_view, StatusDelegate::Mode::Badge));
    m_view->setColumnWidth(EventTableModel::Time, 150);
    m_view->setColumnWidth(EventTableModel::Severity, 120);
    m_view->setColumnWidth(EventTableModel::Source, 110);
    m_view->setColumnWidth(EventTableModel::Name, 220);

    auto *bar = new QHBoxLayout();
    bar->addWidget(m_filterEdit, 1);
    bar->addWidget(m_severityCombo);
    bar->addWidget(m_countLabel);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    m_countTimer = new QTimer(this);
    m_countTimer->setSingleShot(true);
    m_countTimer->setInterval(0);
    connect(m_countTimer, &QTimer::timeout, this, &EventsPage::updateCount);
    connect(m_filterEdit, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_severityCombo, &QComboBox::currentIndexChanged, this, [this] {
        m_proxy->setMaximumRank(m_severityCombo->currentData().toInt());
    });
    for (QAbstractItemModel *model :
         {static_cast<QAbstractItemModel *>(m_proxy), static_cast<QAbstractItemModel *>(m_events)}) {
        connect(model, &QAbstractItemModel::rowsInserted, m_countTimer, qOverload<>(&QTimer::start));
        connect(model, &QAbstractItemModel::rowsRemoved, m_countTimer, qOverload<>(&QTimer::start));
        connect(model, &QAbstractItemModel::modelReset, m_countTimer, qOverload<>(&QTimer::start));
        connect(model, &QAbstractItemModel::layoutChanged, m_countTimer, qOverload<>(&QTimer::start));
    }
    updateCount();
}

EventsPage::~EventsPage() = default;

QByteArray EventsPage::headerState() const
{
    return m_view->horizontalHeader()->saveState();
}

void EventsPage::restoreHeaderState(const QByteArray &state)
{
    if (!state.isEmpty()) {
        m_view->horizontalHeader()->restoreState(state);
    }
}

void EventsPage::updateCount()
{
    const int shown = m_proxy->rowCount();
    const int total = m_events->rowCount();
    const QLocale locale;
    m_countLabel->setText(shown == total
                              ? (total == 1 ? tr("%Ln event", nullptr, total) : tr("%Ln events", nullptr, total))
                              : tr("%1 of %2 events").arg(locale.toString(shown), locale.toString(total)));
}

} // namespace strata::views
