#include "views/chargebackpage.h"

#include "models/core/domain/clock.h"
#include "models/core/planning/reportformat.h"
#include "models/rows/chargebackrows.h"
#include "views/resulttable.h"
#include "views/tableviewstyle.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

namespace strata::views {

namespace {

QTableWidget *chargebackTable(const QString &name, QWidget *parent)
{
    auto *table = new QTableWidget(parent);
    table->setObjectName(name);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    applyTableStyle(table);
    return table;
}

/// Window headers: the words every front end uses for these columns (chargebackColumnLabel()).
void labelChargebackColumns(QTableWidget *table, const QStringList &keys)
{
    for (int c = 0; c < keys.size(); ++c) {
        // A volume's missing hours are storage hours (the drill-down's only coverage figure).
        const QString key =
            keys[c] == QLatin1String("missing_hours") ? QStringLiteral("storage_missing_hours") : keys[c];
        if (const QString label = rows::chargebackColumnLabel(key); !label.isEmpty()) {
            table->setHorizontalHeaderItem(c, new QTableWidgetItem(label));
        }
    }
    table->resizeColumnsToContents();
}

QString chargebackHours(double hours)
{
    return core::formatHours(hours);
}

} // namespace

ChargebackPage::ChargebackPage(const core::IClock &clock, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("chargebackPage"));
    auto *layout = new QVBoxLayout(this);
    auto *head = new QHBoxLayout;
    auto *title = new QLabel(tr("<b>Chargeback</b>"), this);
    title->setTextFormat(Qt::RichText);
    head->addWidget(title);
    head->addStretch();
    auto *monthLabel = new QLabel(tr("&Month (UTC):"), this);
    m_month = new QComboBox(this);
    m_month->setObjectName(QStringLiteral("chargebackMonthCombo"));
    monthLabel->setBuddy(m_month);
    const QDate now = clock.now().toUTC().date();
    const QDate first(now.year(), now.month(), 1);
    for (int i = 0; i < 24; ++i) {
        const QDate m = first.addMonths(-i);
        m_month->addItem(QLocale().toString(m, QStringLiteral("MMMM yyyy")), m.toString(QStringLiteral("yyyy-MM")));
    }
    head->addWidget(monthLabel);
    head->addWidget(m_month);
    layout->addLayout(head);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("chargebackSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    m_lines = chargebackTable(QStringLiteral("chargebackLineTable"), this);
    layout->addWidget(m_lines);
    m_notes = new QLabel(this);
    m_notes->setObjectName(QStringLiteral("chargebackNotes"));
    m_notes->setWordWrap(true);
    layout->addWidget(m_notes);

    m_detail = new QWidget(this);
    auto *detail = new QVBoxLayout(m_detail);
    detail->setContentsMargins(0, 8, 0, 0);
    m_detailTitle = new QLabel(m_detail);
    m_detailTitle->setTextFormat(Qt::RichText);
    m_detailTiers = new QLabel(m_detail);
    m_detailTiers->setWordWrap(true);
    detail->addWidget(m_detailTitle);
    detail->addWidget(m_detailTiers);
    detail->addWidget(new QLabel(tr("Volumes (Job → PVC → volume)"), m_detail));
    m_volumes = chargebackTable(QStringLiteral("chargebackVolumeTable"), m_detail);
    detail->addWidget(m_volumes);
    detail->addWidget(new QLabel(tr("Jobs in the month"), m_detail));
    m_jobs = chargebackTable(QStringLiteral("chargebackJobTable"), m_detail);
    detail->addWidget(m_jobs);
    m_cached = new QLabel(m_detail);
    m_cached->setWordWrap(true);
    detail->addWidget(m_cached);
    layout->addWidget(m_detail);
    layout->addStretch();
    m_detail->hide();

    connect(m_month, &QComboBox::currentIndexChanged, this, [this] {
        request();
    });
    connect(m_lines, &QTableWidget::currentCellChanged, this, [this](int row) {
        showDetail(row);
    });
}

ChargebackPage::~ChargebackPage() = default;

QString ChargebackPage::month() const
{
    return m_month->currentData().toString();
}

bool ChargebackPage::setMonth(const QString &month)
{
    const int index = m_month->findData(month);
    if (index < 0) {
        return false;
    }
    if (index == m_month->currentIndex()) {
        request();
    } else {
        m_month->setCurrentIndex(index);
    }
    return true;
}

void ChargebackPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    request();
}

void ChargebackPage::request()
{
    m_asked = month();
    if (!m_chargeback || m_chargeback->period.label != m_asked) {
        m_summary->setText(tr("Computing the chargeback of %1 from the history…").arg(m_month->currentText()));
    }
    Q_EMIT chargebackWanted(m_asked);
}

void ChargebackPage::setMessage(const QString &text)
{
    m_asked.clear();
    m_chargeback.reset();
    m_summary->setText(text);
    m_lines->clear();
    m_lines->setRowCount(0);
    m_notes->clear();
    m_detail->hide();
}

void ChargebackPage::setChargeback(const QString &month, const core::Result<core::Chargeback> &result)
{
    if (month != this->month()) {
        return;
    }
    m_asked.clear();
    if (!result) {
        setMessage(result.error().message);
        return;
    }
    const int selected = m_lines->currentRow();
    m_chargeback = *result;
    const core::Chargeback &cb = *m_chargeback;
    const core::ChargebackLine &t = cb.total;
    double storage = 0;
    for (const double gibHours : t.storageGibHours) {
        storage += gibHours;
    }
    const QString used =
        t.gpuHoursAllocated > 0
            ? tr("%1 % of it used (DCGM)").arg(QLocale().toString(100.0 * t.gpuHoursUsed / t.gpuHoursAllocated, 'f', 0))
            : tr("no GPU allocation");
    m_summary->setText(tr("%1 Cost %2 (GPUs %3, storage %4). %5 GPU-hours allocated, %6; %7 GiB-hours of storage.")
                           .arg(rows::chargebackCoverageText(cb),
                                rows::formatMoney(cb.currency, t.cost),
                                rows::formatMoney(cb.currency, t.gpuCost),
                                rows::formatMoney(cb.currency, t.storageCost),
                                chargebackHours(t.gpuHoursAllocated),
                                used,
                                chargebackHours(storage)));
    labelChargebackColumns(m_lines, fillTableFromRows(m_lines, rows::chargebackRows(cb, true)));
    if (const int last = m_lines->rowCount() - 1; last >= 0) {
        for (int c = 0; c < m_lines->columnCount(); ++c) {
            if (QTableWidgetItem *item = m_lines->item(last, c)) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
        }
    }
    QStringList notes;
    if (t.missingHours > 0) {
        notes << tr("Hours with no history (before it began, or while Strata did not poll) are missing, not zero.");
    }
    QStringList unpriced;
    for (const QString &u : t.unpriced) {
        unpriced << (u == QLatin1String("gpu") ? tr("GPUs") : core::chargebackTierLabel(u));
    }
    if (!unpriced.isEmpty()) {
        notes << tr("No price on the rate card for %1: counted in hours, not in cost (Settings ▸ Rate card).")
                     .arg(unpriced.join(QStringLiteral(", ")));
    }
    notes << cb.notes;
    m_notes->setText(notes.join(QLatin1Char('\n')));
    if (selected >= 0 && selected < cb.lines.size()) {
        m_lines->setCurrentCell(selected, 0);
    }
    showDetail(m_lines->currentRow());
}

void ChargebackPage::selectLine(int row)
{
    m_lines->setCurrentCell(row, 0);
    showDetail(row);
}

QString ChargebackPage::summaryText() const
{
    return m_summary->text();
}

QString ChargebackPage::detailTitle() const
{
    return m_detail->isHidden() ? QString() : m_detailTitle->text();
}

void ChargebackPage::showDetail(int row)
{
    if (!m_chargeback || row < 0 || row >= m_chargeback->lines.size()) {
        m_detail->hide();
        return;
    }
    const core::Chargeback &cb = *m_chargeback;
    const core::ChargebackLine &line = cb.lines[row];
    m_detailTitle->setText(line.unattributed
                               ? tr("<b>Unattributed storage</b>: volumes no project's jobs use")
                               : tr("<b>%1</b> on %2").arg(line.project.toHtmlEscaped(), line.source.toHtmlEscaped()));
    QStringList tiers;
    for (auto it = line.storageGibHours.begin(); it != line.storageGibHours.end(); ++it) {
        if (it.value() > 0) {
            tiers << tr("%1 %2 GiB-h").arg(core::chargebackTierLabel(it.key()), chargebackHours(it.value()));
        }
    }
    m_detailTiers->setText(tiers.isEmpty() ? tr("No storage in this month.")
                                           : tr("Storage by tier: %1").arg(tiers.join(QStringLiteral(", "))));
    labelChargebackColumns(m_volumes, fillTableFromRows(m_volumes, rows::chargebackVolumeRows(cb, line)));
    m_jobs->clear();
    m_jobs->setColumnCount(4);
    m_jobs->setHorizontalHeaderLabels({tr("Job"), tr("Status"), tr("GPUs"), tr("PVCs")});
    m_jobs->setRowCount(int(line.jobs.size()));
    for (int r = 0; r < line.jobs.size(); ++r) {
        const core::ChargebackJob &j = line.jobs[r];
        const QStringList cells{j.id, j.status, core::formatGpus(j.gpus), j.pvcs.join(QStringLiteral(", "))};
        for (int c = 0; c < cells.size(); ++c) {
            m_jobs->setItem(r, c, new QTableWidgetItem(cells[c]));
        }
    }
    m_jobs->resizeColumnsToContents();
    m_jobs->setVisible(!line.unattributed);
    m_cached->setText(line.unattributed ? QString()
                      : line.cachedCommits.isEmpty()
                          ? tr("No cached commits mounted this month.")
                          : tr("Cached commits mounted: %1").arg(line.cachedCommits.join(QStringLiteral("; "))));
    m_detail->show();
}

} // namespace strata::views
