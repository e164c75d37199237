#include "views/activitypanel.h"

#include "models/item/activitymodel.h"
#include "models/item/roles.h"
#include "views/statusdelegate.h"
#include "views/tableviewstyle.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

namespace strata::views {

using models::ActivityModel;

ActivityPanel::ActivityPanel(models::ActivityModel *activity, QWidget *parent)
    : QWidget(parent)
    , m_activity(activity)
{
    setObjectName(QStringLiteral("activityPanel"));
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("activityTableView"));
    m_view->setModel(m_activity);
    applyTableStyle(m_view, 8);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setItemDelegateForColumn(ActivityModel::State, new StatusDelegate(m_view, StatusDelegate::Mode::Badge));
    m_view->setColumnWidth(ActivityModel::Action, 190);
    m_view->setColumnWidth(ActivityModel::Target, 300);
    m_view->setColumnWidth(ActivityModel::State, 130);
    m_view->setColumnWidth(ActivityModel::Progress, 160);
    m_view->setColumnWidth(ActivityModel::Message, 300);
    m_view->setColumnWidth(ActivityModel::Started, 70);
    m_view->setColumnWidth(ActivityModel::Finished, 70);
    setFillColumn(m_view, ActivityModel::Message);

    m_retryButton = new QPushButton(style()->standardIcon(QStyle::SP_BrowserReload), tr("&Retry"), this);
    m_retryButton->setObjectName(QStringLiteral("activityRetryButton"));
    m_retryButton->setToolTip(tr("Run the failed action again; Strata first checks whether it already took effect."));
    auto *buttons = new QVBoxLayout();
    buttons->addWidget(m_retryButton);
    buttons->addStretch(1);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);

    connect(m_retryButton, &QPushButton::clicked, this, [this] {
        const QString id = selectedActionId();
        if (!id.isEmpty()) {
            Q_EMIT retryRequested(id);
        }
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ActivityPanel::updateButtons);
    connect(m_activity, &QAbstractItemModel::dataChanged, this, &ActivityPanel::updateButtons);
    connect(m_activity, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &, int, int last) {
        m_view->scrollTo(m_activity->index(last, 0));
    });
    updateButtons();
}

ActivityPanel::~ActivityPanel() = default;

QString ActivityPanel::selectedActionId() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : m_activity->actionIdAt(rows.first().row());
}

QByteArray ActivityPanel::headerState() const
{
    return m_view->horizontalHeader()->saveState();
}

void ActivityPanel::restoreHeaderState(const QByteArray &state)
{
    if (!state.isEmpty()) {
        m_view->horizontalHeader()->restoreState(state);
    }
}

void ActivityPanel::updateButtons()
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    m_retryButton->setEnabled(!rows.isEmpty()
                              && rows.first().data(models::StatusRole).toString() == QLatin1String("failed"));
}

} // namespace strata::views
