#include "views/forecastspage.h"

#include "models/item/forecastmodel.h"
#include "models/item/roles.h"
#include "views/bardelegate.h"
#include "views/fieldfilterproxy.h"
#include "views/statusdelegate.h"
#include "views/tablepage.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace strata::views {

using models::ForecastTableModel;

ForecastsPage::ForecastsPage(models::ForecastTableModel *forecasts, QAbstractItemModel *sources, QWidget *parent)
    : QWidget(parent)
    , m_forecasts(forecasts)
    , m_sources(sources)
{
    setObjectName(QStringLiteral("forecastsPage"));
    m_proxy = new FieldFilterProxy(this);
    m_proxy->setSourceModel(m_forecasts);

    m_summaryLabel = new QLabel(this);
    m_summaryLabel->setObjectName(QStringLiteral("forecastSummaryLabel"));
    QFont bold = m_summaryLabel->font();
    bold.setBold(true);
    m_summaryLabel->setFont(bold);
    // A history error names the database's reason, longer than a narrow window.
    m_summaryLabel->setWordWrap(true);
    m_filterEdit = new QLineEdit(this);
    m_filterEdit->setObjectName(QStringLiteral("forecastFilterLineEdit"));
    m_filterEdit->setPlaceholderText(tr("Filter by name, kind or source"));
    m_filterEdit->setClearButtonEnabled(true);
    m_kindCombo = new QComboBox(this);
    m_kindCombo->setObjectName(QStringLiteral("forecastKindComboBox"));
    m_kindCombo->addItem(tr("All kinds"), QString());
    for (const core::ContainerKind kind : {core::ContainerKind::Volume,
                                           core::ContainerKind::Aggregate,
                                           core::ContainerKind::Pool,
                                           core::ContainerKind::Bucket,
                                           core::ContainerKind::Tenant,
                                           core::ContainerKind::CacheTarget}) {
        m_kindCombo->addItem(ForecastTableModel::kindText(kind), ForecastTableModel::kindText(kind));
    }
    m_sourceCombo = new QComboBox(this);
    m_sourceCombo->setObjectName(QStringLiteral("forecastSourceComboBox"));
    m_sourceCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_countLabel = new QLabel(this);
    m_countLabel->setObjectName(QStringLiteral("forecastCountLabel"));

    m_view = newTableView(this, QStringLiteral("forecastTableView"), m_proxy, QAbstractItemView::SingleSelection);
    // Full rows read red and rows filling within 30 days amber (StatusRole, the list look's
    // delegate), the trend as a badge.
    m_view->setItemDelegateForColumn(ForecastTableModel::Trend,
                                     new StatusDelegate(m_view, StatusDelegate::Mode::Badge));
    m_view->setItemDelegateForColumn(ForecastTableModel::Used, new BarDelegate(m_view));
    setColumnWidthsEm(m_view,
                      {{ForecastTableModel::Name, 14},
                       {ForecastTableModel::Kind, 8},
                       {ForecastTableModel::Source, 8},
                       {ForecastTableModel::Used, 22},
                       {ForecastTableModel::Growth, 9},
                       {ForecastTableModel::FullIn, 13},
                       {ForecastTableModel::Trend, 9},
                       {ForecastTableModel::History, 12}});
    m_view->horizontalHeader()->setSectionsMovable(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ForecastTableModel::FullIn, Qt::AscendingOrder);

    auto *bar = new QHBoxLayout();
    bar->addWidget(m_filterEdit, 1);
    bar->addWidget(m_kindCombo);
    bar->addWidget(m_sourceCombo);
    bar->addWidget(m_countLabel);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summaryLabel);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    onFilterTextSettled(m_filterEdit, this, [this](const QString &text) {
        m_proxy->setTextFilter(text);
        updateSummary();
    });
    connect(m_kindCombo, &QComboBox::currentIndexChanged, this, &ForecastsPage::applyFilters);
    connect(m_sourceCombo, &QComboBox::currentIndexChanged, this, &ForecastsPage::applyFilters);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved}) {
        connect(m_forecasts, signal, this, &ForecastsPage::updateSummary);
    }
    connect(m_forecasts, &QAbstractItemModel::dataChanged, this, &ForecastsPage::updateSummary);
    connect(m_forecasts, &QAbstractItemModel::modelReset, this, &ForecastsPage::updateSummary);
    connect(m_forecasts, &ForecastTableModel::statusChanged, this, &ForecastsPage::updateSummary);
    if (m_sources) {
        for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved}) {
            connect(m_sources, signal, this, &ForecastsPage::updateSourceCombo);
        }
        connect(m_sources, &QAbstractItemModel::modelReset, this, &ForecastsPage::updateSourceCombo);
    }
    m_tick = new QTimer(this);
    m_tick->setInterval(60 * 1000);
    connect(m_tick, &QTimer::timeout, m_forecasts, &ForecastTableModel::tick);
    m_tick->start();
    updateSourceCombo();
    updateSummary();
}

ForecastsPage::~ForecastsPage() = default;

QString ForecastsPage::summaryText() const
{
    return m_summaryLabel->text();
}

QString ForecastsPage::countText() const
{
    return m_countLabel->text();
}

QByteArray ForecastsPage::headerState() const
{
    return m_view->horizontalHeader()->saveState();
}

void ForecastsPage::restoreHeaderState(const QByteArray &state)
{
    if (!state.isEmpty()) {
        m_view->horizontalHeader()->restoreState(state);
    }
}

void ForecastsPage::applyFilters()
{
    std::vector<FieldFilterProxy::Rule> rules;
    if (const QString kind = m_kindCombo->currentData().toString(); !kind.isEmpty()) {
        rules.push_back({ForecastTableModel::Kind, Qt::DisplayRole, kind});
    }
    if (const QString source = m_sourceCombo->currentData().toString(); !source.isEmpty()) {
        rules.push_back({ForecastTableModel::Source, Qt::DisplayRole, source});
    }
    m_proxy->setRules(std::move(rules));
    updateSummary();
}

void ForecastsPage::updateSourceCombo()
{
    refillSourceCombo(m_sourceCombo, m_sources);
    applyFilters();
}

void ForecastsPage::updateSummary()
{
    int full = 0;
    int soon = 0;
    const int total = m_forecasts->rowCount();
    for (int row = 0; row < total; ++row) {
        const QString status = m_forecasts->index(row, ForecastTableModel::Name).data(models::StatusRole).toString();
        full += status == QLatin1String("critical") ? 1 : 0;
        soon += status == QLatin1String("warning") ? 1 : 0;
    }
    const QLocale locale;
    if (total == 0) {
        m_summaryLabel->setText(tr("No forecast yet: the history is read when the sources have been polled."));
    } else {
        m_summaryLabel->setText(tr("%1 full · %2 full within %3 days · %4 containers")
                                    .arg(locale.toString(full),
                                         locale.toString(soon),
                                         locale.toString(ForecastTableModel::kSoonDays),
                                         locale.toString(total)));
    }
    if (const QString error = m_forecasts->historyError(); !error.isEmpty()) {
        const QDateTime at = m_forecasts->computedAt();
        m_summaryLabel->setText(at.isValid()
                                    ? tr("The capacity history is unavailable (%1): these forecasts are from %2.")
                                          .arg(error, locale.toString(at.toLocalTime(), QLocale::ShortFormat))
                                    : tr("No forecast: the capacity history is unavailable (%1).").arg(error));
    }
    const int shown = m_proxy->rowCount();
    if (shown != total) {
        m_countLabel->setText(tr("%1 of %2 containers").arg(locale.toString(shown), locale.toString(total)));
    } else {
        m_countLabel->setText(total == 1 ? tr("1 container") : tr("%1 containers").arg(locale.toString(total)));
    }
}

} // namespace strata::views
