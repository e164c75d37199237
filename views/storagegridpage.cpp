#include "views/storagegridpage.h"

#include "models/core/domain/estate.h"
#include "models/item/datasetmodel.h"
#include "models/item/gridmodels.h"
#include "models/item/roles.h"
#include "views/fieldfilterproxy.h"
#include "views/statusdelegate.h"
#include "views/tableviewstyle.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace strata::views {

using models::BucketModel;
using models::GridAlertModel;
using models::GridNodeModel;
using models::TenantModel;

namespace {

QTableView *makeTable(QWidget *parent, const QString &name, QAbstractItemModel *model)
{
    auto *view = new QTableView(parent);
    view->setObjectName(name);
    view->setModel(model);
    applyTableStyle(view);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setSortingEnabled(true);
    view->horizontalHeader()->setSectionsMovable(true);
    return view;
}

} // namespace

StorageGridPage::StorageGridPage(core::Estate *estate,
                                 models::GridNodeModel *nodes,
                                 models::GridAlertModel *alerts,
                                 models::TenantModel *tenants,
                                 models::BucketModel *buckets,
                                 QWidget *parent)
    : QWidget(parent)
    , m_estate(estate)
    , m_nodes(nodes)
    , m_alerts(alerts)
    , m_tenants(tenants)
    , m_buckets(buckets)
{
    setObjectName(QStringLiteral("storageGridPage"));
    m_nodeProxy = new FieldFilterProxy(this);
    m_nodeProxy->setSourceModel(m_nodes);
    m_alertProxy = new FieldFilterProxy(this);
    m_alertProxy->setSourceModel(m_alerts);
    m_tenantProxy = new FieldFilterProxy(this);
    m_tenantProxy->setSourceModel(m_tenants);
    m_bucketProxy = new FieldFilterProxy(this);
    m_bucketProxy->setSourceModel(m_buckets);

    m_healthLabel = new QLabel(this);
    m_healthLabel->setObjectName(QStringLiteral("gridHealthLabel"));
    m_healthLabel->setWordWrap(true);
    m_healthLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_nodeView = makeTable(this, QStringLiteral("gridNodeTableView"), m_nodeProxy);
    m_nodeView->setItemDelegateForColumn(GridNodeModel::State,
                                         new StatusDelegate(m_nodeView, StatusDelegate::Mode::Badge));
    m_nodeView->setItemDelegateForColumn(GridNodeModel::Severity,
                                         new StatusDelegate(m_nodeView, StatusDelegate::Mode::Badge));
    m_nodeView->sortByColumn(GridNodeModel::Name, Qt::AscendingOrder);

    m_alertCombo = new QComboBox(this);
    m_alertCombo->setObjectName(QStringLiteral("gridAlertFilterComboBox"));
    m_alertCombo->addItem(tr("Active alerts"), int(AlertFilter::Active));
    m_alertCombo->addItem(tr("Resolved (last 7 days)"), int(AlertFilter::Resolved));
    m_alertCombo->addItem(tr("All alerts"), int(AlertFilter::All));
    m_alertView = makeTable(this, QStringLiteral("gridAlertTableView"), m_alertProxy);
    m_alertView->setItemDelegateForColumn(GridAlertModel::Severity,
                                          new StatusDelegate(m_alertView, StatusDelegate::Mode::Badge));
    m_alertView->sortByColumn(GridAlertModel::Started, Qt::DescendingOrder);
    const int em = fontMetrics().horizontalAdvance(QLatin1Char('M'));
    m_alertView->horizontalHeader()->resizeSection(GridAlertModel::Name, 16 * em);
    m_alertView->horizontalHeader()->resizeSection(GridAlertModel::Summary, 24 * em);

    m_tenantView = makeTable(this, QStringLiteral("tenantTableView"), m_tenantProxy);
    m_tenantView->sortByColumn(TenantModel::Name, Qt::AscendingOrder);
    m_tenantView->horizontalHeader()->resizeSection(TenantModel::Id, 14 * em);
    m_bucketTitle = new QLabel(this);
    m_bucketTitle->setObjectName(QStringLiteral("bucketTitleLabel"));
    m_bucketView = makeTable(this, QStringLiteral("bucketTableView"), m_bucketProxy);
    m_bucketView->sortByColumn(BucketModel::Name, Qt::AscendingOrder);

    auto *alertPage = new QWidget(this);
    auto *alertLayout = new QVBoxLayout(alertPage);
    auto *alertBar = new QHBoxLayout();
    alertBar->addWidget(m_alertCombo);
    alertBar->addStretch(1);
    alertLayout->addLayout(alertBar);
    alertLayout->addWidget(m_alertView, 1);

    auto *tenantPage = new QSplitter(Qt::Vertical, this);
    tenantPage->setObjectName(QStringLiteral("gridTenantSplitter"));
    tenantPage->addWidget(m_tenantView);
    auto *bucketBox = new QWidget(tenantPage);
    auto *bucketLayout = new QVBoxLayout(bucketBox);
    bucketLayout->setContentsMargins(0, 0, 0, 0);
    bucketLayout->addWidget(m_bucketTitle);
    bucketLayout->addWidget(m_bucketView, 1);
    tenantPage->addWidget(bucketBox);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("gridTabWidget"));
    m_tabs->addTab(m_nodeView, tr("&Nodes"));
    m_tabs->addTab(alertPage, tr("&Alerts"));
    m_tabs->addTab(tenantPage, tr("&Tenants and buckets"));

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_healthLabel);
    layout->addWidget(m_tabs, 1);

    connect(m_alertCombo, &QComboBox::currentIndexChanged, this, [this] {
        setAlertFilter(AlertFilter(m_alertCombo->currentData().toInt()));
    });
    connect(m_tenantView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        onTenantChanged();
    });
    if (m_estate) {
        connect(m_estate, &core::Estate::gridChanged, this, &StorageGridPage::updateHealth);
    }
    setAlertFilter(AlertFilter::Active);
    onTenantChanged();
    updateHealth();
}

StorageGridPage::~StorageGridPage() = default;

void StorageGridPage::setAlertFilter(AlertFilter filter)
{
    const int index = m_alertCombo->findData(int(filter));
    if (index != m_alertCombo->currentIndex()) {
        m_alertCombo->setCurrentIndex(index); // comes back here through currentIndexChanged
        return;
    }
    // Resolved alerts carry the "succeeded" status; active ones anything else.
    switch (filter) {
    case AlertFilter::Active:
        m_alertProxy->setRules({{GridAlertModel::Resolved, models::RawValueRole, QVariant(QDateTime())}});
        break;
    case AlertFilter::Resolved:
        m_alertProxy->setRules({{GridAlertModel::Severity, models::StatusRole, QStringLiteral("succeeded")}});
        break;
    case AlertFilter::All:
        m_alertProxy->setRules({});
        break;
    }
}

QString StorageGridPage::healthLine(const core::GridSummary &g)
{
    QStringList parts;
    QString name = g.gridName.isEmpty() ? g.source : g.gridName;
    if (!g.productVersion.isEmpty()) {
        name += QStringLiteral(": ") + tr("StorageGRID %1").arg(g.productVersion.section(QLatin1Char('-'), 0, 0));
        if (!g.apiVersion.isEmpty()) {
            name += QStringLiteral(" (") + tr("API %1").arg(g.apiVersion) + QLatin1Char(')');
        }
    }
    parts << name;
    const int down = g.nodesAdminDown + g.nodesUnknown;
    parts << tr("%1 nodes connected, %2 down").arg(g.nodesConnected).arg(down);
    parts << tr("alerts: %1 critical, %2 major, %3 minor").arg(g.alertsCritical).arg(g.alertsMajor).arg(g.alertsMinor);
    if (!g.activeIlmPolicy.isEmpty()) {
        parts << tr("ILM: %1").arg(g.activeIlmPolicy);
    }
    if (g.usedBytes >= 0 && g.usableBytes > 0) {
        parts << tr("%1 of %2 used").arg(core::formatBytes(g.usedBytes), core::formatBytes(g.usableBytes));
    }
    return parts.join(QStringLiteral(" · "));
}

void StorageGridPage::updateHealth()
{
    QStringList lines;
    if (m_estate) {
        for (const core::Ptr<core::GridSummary> &g : m_estate->gridSummaries().all()) {
            lines << healthLine(*g);
        }
    }
    lines.sort();
    m_healthLabel->setText(lines.isEmpty() ? tr("No StorageGRID source has reported yet.")
                                           : lines.join(QLatin1Char('\n')));
}

QString StorageGridPage::healthText() const
{
    return m_healthLabel->text();
}

bool StorageGridPage::selectTenant(const QString &key)
{
    const int row = m_tenants->rowOf(key);
    const QModelIndex index = row < 0 ? QModelIndex() : m_tenantProxy->mapFromSource(m_tenants->index(row, 0));
    if (!index.isValid()) {
        return false;
    }
    m_tenantView->selectionModel()->setCurrentIndex(index,
                                                    QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    return true;
}

void StorageGridPage::onTenantChanged()
{
    const QModelIndex current = m_tenantProxy->mapToSource(m_tenantView->selectionModel()->currentIndex());
    const core::Tenant *t = current.isValid() ? m_tenants->recordAt(current.row()) : nullptr;
    if (!t) {
        m_bucketProxy->setRules({});
        m_bucketTitle->setText(tr("Buckets of every tenant"));
        return;
    }
    m_bucketProxy->setRules({{BucketModel::Tenant, models::SourceRole, t->source},
                             {BucketModel::Tenant, Qt::DisplayRole, t->name.isEmpty() ? t->id : t->name}});
    m_bucketTitle->setText(tr("Buckets of %1").arg(t->name));
}

QByteArray StorageGridPage::headerState() const
{
    return m_tenantView->horizontalHeader()->saveState();
}

void StorageGridPage::restoreHeaderState(const QByteArray &state)
{
    if (!state.isEmpty()) {
        m_tenantView->horizontalHeader()->restoreState(state);
    }
}

} // namespace strata::views
