#include "views/sourcespage.h"

#include "models/item/aksclustermodel.h"
#include "models/item/roles.h"
#include "models/item/sourcetablemodel.h"
#include "views/statusdelegate.h"
#include "views/tableviewstyle.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

namespace strata::views {

using models::SourceTableModel;

SourcesPage::SourcesPage(models::SourceTableModel *sources, models::AksClusterModel *aks, QWidget *parent)
    : QWidget(parent)
    , m_sources(sources)
    , m_aks(aks)
{
    setObjectName(QStringLiteral("sourcesPage"));
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_sources);
    m_proxy->setSortRole(models::RawValueRole);

    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("sourceTableView"));
    m_view->setModel(m_proxy);
    applyTableStyle(m_view, 10);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setItemDelegateForColumn(SourceTableModel::Health, new StatusDelegate(m_view, StatusDelegate::Mode::Badge));
    m_view->setColumnWidth(SourceTableModel::Name, 100);
    m_view->setColumnWidth(SourceTableModel::Kind, 60);
    m_view->setColumnWidth(SourceTableModel::Url, 200);
    m_view->setColumnWidth(SourceTableModel::Health, 80);
    m_view->setColumnWidth(SourceTableModel::System, 90);
    m_view->setColumnWidth(SourceTableModel::Version, 70);
    m_view->setColumnWidth(SourceTableModel::LastPoll, 150);
    m_view->setColumnWidth(SourceTableModel::Latency, 80);

    auto *empty = new QLabel(tr("<h3>Add a source to get started</h3>"
                                "<p>Strata connects to your ONTAP clusters through their management interface.<br>"
                                "Click <b>Add…</b> and enter the cluster's URL and credentials; the password goes to "
                                "the system keychain.</p>"
                                "<p>To look around first, start <tt>strata demo</tt>.</p>"),
                             this);
    empty->setObjectName(QStringLiteral("sourceEmptyLabel"));
    empty->setTextFormat(Qt::RichText);
    empty->setAlignment(Qt::AlignCenter);
    empty->setWordWrap(true);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_view);
    m_stack->addWidget(empty);

    QStyle *st = style();
    m_addButton = new QPushButton(st->standardIcon(QStyle::SP_FileDialogNewFolder), tr("&Add…"), this);
    m_addButton->setObjectName(QStringLiteral("sourceAddButton"));
    m_editButton = new QPushButton(st->standardIcon(QStyle::SP_FileDialogDetailedView), tr("&Edit…"), this);
    m_editButton->setObjectName(QStringLiteral("sourceEditButton"));
    m_testButton = new QPushButton(st->standardIcon(QStyle::SP_DialogApplyButton), tr("&Test"), this);
    m_testButton->setObjectName(QStringLiteral("sourceTestButton"));
    m_removeButton = new QPushButton(st->standardIcon(QStyle::SP_TrashIcon), tr("&Remove…"), this);
    m_removeButton->setObjectName(QStringLiteral("sourceRemoveButton"));
    m_refreshButton = new QPushButton(st->standardIcon(QStyle::SP_BrowserReload), tr("Re&fresh"), this);
    m_refreshButton->setObjectName(QStringLiteral("sourceRefreshButton"));
    auto *buttons = new QHBoxLayout();
    for (QPushButton *b : {m_addButton, m_editButton, m_testButton, m_removeButton, m_refreshButton}) {
        buttons->addWidget(b);
    }
    buttons->addStretch(1);

    m_resultLabel = new QLabel(this);
    m_resultLabel->setObjectName(QStringLiteral("sourceTestResultLabel"));
    m_resultLabel->setWordWrap(true);
    m_resultLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_resultLabel);

    if (m_aks) {
        m_aksSection = new QWidget(this);
        m_aksSection->setObjectName(QStringLiteral("aksSection"));
        auto *title = new QLabel(tr("<b>Clusters in Azure</b>"), m_aksSection);
        title->setTextFormat(Qt::RichText);
        auto *hint = new QLabel(tr("AKS clusters of your Azure subscriptions. Add one as a Kubernetes source to see "
                                   "its GPUs and jobs; its kubeconfig is stored in the system keychain."),
                                m_aksSection);
        hint->setWordWrap(true);
        m_aksView = new QTableView(m_aksSection);
        m_aksView->setObjectName(QStringLiteral("aksTableView"));
        auto *aksProxy = new QSortFilterProxyModel(this);
        aksProxy->setSourceModel(m_aks);
        aksProxy->setSortRole(models::RawValueRole);
        m_aksView->setModel(aksProxy);
        applyTableStyle(m_aksView, 8);
        m_aksView->setSelectionMode(QAbstractItemView::SingleSelection);
        m_aksView->setItemDelegateForColumn(models::AksClusterModel::State,
                                            new StatusDelegate(m_aksView, StatusDelegate::Mode::Badge));
        m_aksView->setColumnWidth(models::AksClusterModel::Name, 140);
        m_aksView->setColumnWidth(models::AksClusterModel::AgentPools, 260);
        m_aksView->setMinimumHeight(110);
        m_addAksButton = new QPushButton(
            st->standardIcon(QStyle::SP_FileDialogNewFolder), tr("Add as &Kubernetes source…"), m_aksSection);
        m_addAksButton->setObjectName(QStringLiteral("aksAddButton"));
        auto *aksBar = new QHBoxLayout();
        aksBar->addWidget(title);
        aksBar->addStretch(1);
        aksBar->addWidget(m_addAksButton);
        auto *aksLayout = new QVBoxLayout(m_aksSection);
        aksLayout->setContentsMargins(0, 8, 0, 0);
        aksLayout->addLayout(aksBar);
        aksLayout->addWidget(hint);
        aksLayout->addWidget(m_aksView);
        layout->addWidget(m_aksSection);
        auto addSelected = [this] {
            const QModelIndexList rows = m_aksView->selectionModel()->selectedRows();
            if (!rows.isEmpty()) {
                Q_EMIT addAksClusterRequested(rows.first().data(models::SourceRole).toString(),
                                              rows.first().data(models::IdRole).toString());
            }
        };
        connect(m_addAksButton, &QPushButton::clicked, this, addSelected);
        connect(m_aksView, &QTableView::activated, this, addSelected);
        connect(m_aksView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &SourcesPage::updateAks);
        for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved}) {
            connect(aksProxy, signal, this, &SourcesPage::updateAks);
        }
        connect(aksProxy, &QAbstractItemModel::dataChanged, this, &SourcesPage::updateAks);
        connect(aksProxy, &QAbstractItemModel::modelReset, this, &SourcesPage::updateAks);
        updateAks();
    }

    connect(m_addButton, &QPushButton::clicked, this, &SourcesPage::addRequested);
    connect(m_editButton, &QPushButton::clicked, this, [this] {
        Q_EMIT editRequested(currentSourceName());
    });
    connect(m_testButton, &QPushButton::clicked, this, [this] {
        m_resultLabel->setText(tr("Testing %1…").arg(currentSourceName()));
        Q_EMIT testRequested(currentSourceName());
    });
    connect(m_removeButton, &QPushButton::clicked, this, &SourcesPage::confirmRemove);
    connect(m_refreshButton, &QPushButton::clicked, this, [this] {
        Q_EMIT refreshRequested(currentSourceName());
    });
    connect(m_view, &QTableView::activated, this, [this] {
        Q_EMIT editRequested(currentSourceName());
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &SourcesPage::updateButtons);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &SourcesPage::updateEmptyState);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &SourcesPage::updateEmptyState);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &SourcesPage::updateEmptyState);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, [this] {
        if (!m_view->selectionModel()->hasSelection() && m_proxy->rowCount() > 0) {
            m_view->selectRow(0);
        }
    });
    if (m_proxy->rowCount() > 0) {
        m_view->selectRow(0);
    }
    updateEmptyState();
    updateButtons();
}

SourcesPage::~SourcesPage() = default;

QString SourcesPage::currentSourceName() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(models::SourceRole).toString();
}

void SourcesPage::selectSource(const QString &name)
{
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        if (m_proxy->index(row, 0).data(models::SourceRole).toString() == name) {
            m_view->selectRow(row);
            return;
        }
    }
}

void SourcesPage::setTestResult(const QString &name, bool ok, const QString &message)
{
    m_resultLabel->setText(ok ? tr("%1: %2").arg(name, message) : tr("%1: test failed: %2").arg(name, message));
    QPalette pal = m_resultLabel->palette();
    pal.setColor(QPalette::WindowText,
                 StatusDelegate::colorFor(ok ? QStringLiteral("succeeded") : QStringLiteral("critical"), palette()));
    m_resultLabel->setPalette(pal);
}

QByteArray SourcesPage::headerState() const
{
    return m_view->horizontalHeader()->saveState();
}

void SourcesPage::restoreHeaderState(const QByteArray &state)
{
    if (!state.isEmpty()) {
        m_view->horizontalHeader()->restoreState(state);
    }
}

void SourcesPage::updateButtons()
{
    const bool selected = !currentSourceName().isEmpty();
    m_editButton->setEnabled(selected);
    m_testButton->setEnabled(selected);
    m_removeButton->setEnabled(selected);
}

bool SourcesPage::selectAksCluster(const QString &key)
{
    if (!m_aksView) {
        return false;
    }
    QAbstractItemModel *model = m_aksView->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, 0).data(models::KeyRole).toString() == key) {
            m_aksView->selectRow(row);
            return true;
        }
    }
    return false;
}

void SourcesPage::updateAks()
{
    if (!m_aksSection) {
        return;
    }
    m_aksSection->setVisible(m_aks->rowCount() > 0);
    const QModelIndexList rows = m_aksView->selectionModel()->selectedRows();
    const QString added =
        rows.isEmpty() ? QString()
                       : rows.first().siblingAtColumn(models::AksClusterModel::KubernetesSource).data().toString();
    m_addAksButton->setEnabled(!rows.isEmpty() && added.isEmpty());
    m_addAksButton->setToolTip(added.isEmpty() ? tr("Fetch the cluster's user kubeconfig and add the cluster as a "
                                                    "Kubernetes source")
                                               : tr("Already added as %1").arg(added));
}

void SourcesPage::updateEmptyState()
{
    m_stack->setCurrentIndex(m_proxy->rowCount() == 0 ? 1 : 0);
    updateButtons();
}

void SourcesPage::confirmRemove()
{
    const QString name = currentSourceName();
    if (name.isEmpty()) {
        return;
    }
    auto *box = new QMessageBox(
        QMessageBox::Question, tr("Remove source"), tr("Remove source %1?").arg(name), QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("sourceRemoveMessageBox"));
    box->setInformativeText(tr("Strata stops polling it, forgets its data and deletes its stored password. "
                               "Nothing changes on the system itself."));
    QPushButton *remove = box->addButton(tr("Remove"), QMessageBox::DestructiveRole);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, remove, name] {
        if (box->clickedButton() == remove) {
            Q_EMIT removeRequested(name);
        }
    });
    box->open();
}

} // namespace strata::views
