#include "views/quotawhatifdialog.h"

#include "models/core/domain/estate.h"
#include "models/core/domain/format.h"
#include "models/core/domain/offthread.h"
#include "models/rows/whatifrows.h"
#include "views/resulttable.h"
#include "views/tableviewstyle.h"

#include <QCheckBox>
#include <QColor>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QThreadPool>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace strata::views {

QuotaWhatIfDialog::QuotaWhatIfDialog(const core::Estate &estate, QString cluster, QWidget *parent)
    : QDialog(parent)
    , m_cluster(std::move(cluster))
{
    core::QuotaWhatIfInput input = core::quotaWhatIfInput(estate, m_cluster);
    m_nodes = std::move(input.nodes);
    m_jobs = std::move(input.jobs);
    m_blocked = std::move(input.blocked);
    const QList<core::Project> projects = std::move(input.projects);
    setObjectName(QStringLiteral("quotaWhatIfDialog"));
    setWindowTitle(tr("What if quotas change — %1").arg(m_cluster));

    auto *intro = new QLabel(tr("Change quotas and press Predict: Strata runs the Run:ai/KAI queue rules on the "
                                "cluster's jobs as they are now. Nothing changes until you apply a quota."),
                             this);
    intro->setWordWrap(true);

    auto *form = new QGridLayout();
    form->addWidget(new QLabel(tr("Project"), this), 0, 0);
    form->addWidget(new QLabel(tr("Quota (GPUs)"), this), 0, 1);
    form->addWidget(new QLabel(tr("Over-quota weight"), this), 0, 2);
    m_byWeight = new QCheckBox(tr("Split spare GPUs by over-quota weight (KAI) instead of by quota"), this);
    m_byWeight->setObjectName(QStringLiteral("whatIfByWeight"));
    for (const core::Project &p : std::as_const(projects)) {
        ProjectInputs in;
        in.live = p;
        in.quota = new QDoubleSpinBox(this);
        in.quota->setObjectName(QStringLiteral("whatIfQuota_") + p.name);
        in.quota->setRange(0, 100000);
        in.quota->setDecimals(2);
        in.quota->setSingleStep(0.5);
        in.quota->setValue(double(std::max<core::MilliGpu>(p.quota, 0)) / 1000.0);
        in.quota->setAccessibleName(tr("Quota of %1 in GPUs").arg(p.name));
        in.weight = new QDoubleSpinBox(this);
        in.weight->setObjectName(QStringLiteral("whatIfWeight_") + p.name);
        in.weight->setRange(0, 1000);
        in.weight->setDecimals(2);
        in.weight->setValue(p.overQuotaWeight);
        in.weight->setEnabled(false);
        in.weight->setAccessibleName(tr("Over-quota weight of %1").arg(p.name));
        const int row = form->rowCount();
        form->addWidget(new QLabel(p.name, this), row, 0);
        form->addWidget(in.quota, row, 1);
        form->addWidget(in.weight, row, 2);
        connect(m_byWeight, &QCheckBox::toggled, in.weight, &QWidget::setEnabled);
        m_inputs.append(in);
    }
    form->setColumnStretch(3, 1);

    m_predictButton = new QPushButton(tr("&Predict"), this);
    m_predictButton->setObjectName(QStringLiteral("whatIfPredictButton"));
    m_predictButton->setDefault(true);
    connect(m_predictButton, &QPushButton::clicked, this, &QuotaWhatIfDialog::predict);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("whatIfSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    const auto makeTable = [this](const QString &name) {
        auto *table = new QTableWidget(this);
        table->setObjectName(name);
        applyTableStyle(table);
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        table->setSelectionBehavior(QAbstractItemView::SelectRows);
        table->setSelectionMode(QAbstractItemView::SingleSelection);
        table->verticalHeader()->hide();
        return table;
    };
    m_projectTable = makeTable(QStringLiteral("whatIfProjectTable"));
    m_jobTable = makeTable(QStringLiteral("whatIfJobTable"));
    m_applyButton = new QPushButton(tr("&Apply quota…"), this);
    m_applyButton->setObjectName(QStringLiteral("whatIfApplyButton"));
    m_applyButton->setEnabled(false);
    connect(m_applyButton, &QPushButton::clicked, this, &QuotaWhatIfDialog::applySelected);
    m_applyHint = new QLabel(this);
    m_applyHint->setObjectName(QStringLiteral("whatIfApplyHint"));
    m_applyHint->setWordWrap(true);
    m_applyHint->setEnabled(false); // muted: it explains, it is not a result
    connect(m_projectTable, &QTableWidget::itemSelectionChanged, this, &QuotaWhatIfDialog::updateApplyState);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_applyButton, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *buttonRow = new QHBoxLayout();
    buttonRow->addWidget(m_applyHint, 1);
    buttonRow->addWidget(buttons);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_byWeight);
    auto *predictRow = new QHBoxLayout();
    predictRow->addWidget(m_predictButton);
    predictRow->addWidget(m_summary, 1);
    layout->addLayout(predictRow);
    layout->addWidget(new QLabel(tr("Projects, now → predicted"), this));
    layout->addWidget(m_projectTable, 1);
    layout->addWidget(new QLabel(tr("Jobs that would change or stay queued"), this));
    layout->addWidget(m_jobTable, 2);
    layout->addLayout(buttonRow);
    if (m_inputs.isEmpty()) {
        m_predictButton->setEnabled(false);
        m_summary->setText(tr("%1 has no projects yet.").arg(m_cluster));
    }
    resize(760, 620);
    updateApplyState();
    if (!m_inputs.isEmpty()) {
        predict(); // what the rules would do with the quotas as they are: normally nothing
    }
}

QuotaWhatIfDialog::~QuotaWhatIfDialog() = default;

bool QuotaWhatIfDialog::setQuota(const QString &project, double gpus)
{
    for (const ProjectInputs &in : std::as_const(m_inputs)) {
        if (in.live.name == project) {
            in.quota->setValue(gpus);
            return true;
        }
    }
    return false;
}

QString QuotaWhatIfDialog::summaryText() const
{
    return m_summary->text();
}

void QuotaWhatIfDialog::predict()
{
    QList<core::Project> projects;
    QList<core::QuotaChange> changes;
    for (const ProjectInputs &in : std::as_const(m_inputs)) {
        projects.append(in.live);
        core::QuotaChange change{in.live.name, std::nullopt, std::nullopt};
        const auto quota = core::MilliGpu(std::llround(in.quota->value() * 1000.0));
        if (quota != std::max<core::MilliGpu>(in.live.quota, 0)) {
            change.quota = quota;
        }
        if (m_byWeight->isChecked()) {
            change.overQuotaWeight = in.weight->value();
        }
        if (change.quota || change.overQuotaWeight) {
            changes.append(change);
        }
    }
    m_predictButton->setEnabled(false);
    m_summary->setText(tr("Predicting…"));
    core::runOffThread(
        *QThreadPool::globalInstance(),
        this,
        [cluster = m_cluster, nodes = m_nodes, projects, jobs = m_jobs, blocked = m_blocked, changes] {
            return core::predictQuotaChange(cluster, nodes, projects, jobs, changes, blocked);
        },
        [this](core::Result<core::QuotaWhatIf> outcome) {
            m_predictButton->setEnabled(true);
            showOutcome(outcome);
            Q_EMIT predicted();
        });
}

QString QuotaWhatIfDialog::applyHint() const
{
    return m_applyHint->text();
}

void QuotaWhatIfDialog::updateApplyState()
{
    const int row = m_projectTable->currentRow();
    const bool selected = m_result && row >= 0 && row < m_result->projects.size()
                          && m_projectTable->selectionModel()->isRowSelected(row, QModelIndex());
    QString hint;
    bool enabled = false;
    if (!m_result) {
        hint = m_inputs.isEmpty() ? tr("No project to apply a quota to.")
                                  : tr("Predict first, then select a project whose quota you changed to apply it.");
    } else if (!selected) {
        hint = tr("Select a project in the table above to apply its tried quota.");
    } else if (const core::WhatIfProject &p = m_result->projects[row]; p.quotaAfter == p.quotaBefore) {
        hint = tr("%1 keeps its quota of %2 GPUs: change it above and Predict to apply another.")
                   .arg(p.project, core::formatGpus(p.quotaBefore));
    } else {
        enabled = true;
        hint = tr("Changes %1's quota from %2 to %3 GPUs (preview first).")
                   .arg(p.project, core::formatGpus(p.quotaBefore), core::formatGpus(p.quotaAfter));
    }
    m_applyButton->setEnabled(enabled);
    m_applyButton->setToolTip(hint);
    m_applyHint->setText(hint);
}

void QuotaWhatIfDialog::showOutcome(const core::Result<core::QuotaWhatIf> &outcome)
{
    if (!outcome) {
        m_result.reset();
        m_summary->setText(outcome.error().message);
        m_projectTable->setRowCount(0);
        m_jobTable->setRowCount(0);
        updateApplyState();
        return;
    }
    m_result = *outcome;
    const core::QuotaWhatIf &w = *outcome;
    int starts = 0;
    int preempted = 0;
    core::QuotaWhatIf shown = w;
    shown.jobs.clear();
    for (const core::WhatIfJob &job : w.jobs) {
        starts += job.outcome == core::WhatIfJob::Outcome::Starts ? 1 : 0;
        preempted += job.outcome == core::WhatIfJob::Outcome::Preempted ? 1 : 0;
        if (job.outcome != core::WhatIfJob::Outcome::KeepsRunning) {
            shown.jobs.append(job);
        }
    }
    QString text = tr("Quotas %1 → %2 of %3 GPUs; spare GPUs split by %4. %5 would start, %6 would be preempted.")
                       .arg(core::formatGpus(w.quotaTotalBefore),
                            core::formatGpus(w.quotaTotalAfter),
                            core::formatGpus(w.capacity),
                            w.byWeight ? tr("over-quota weight") : tr("quota"))
                       .arg(starts)
                       .arg(preempted);
    if (w.quotaTotalAfter != w.capacity) {
        text += QLatin1Char(' ') + tr("Run:ai expects the quotas to add up to the cluster's GPUs.");
    }
    m_summary->setText(text);
    fillTableFromRows(m_projectTable, rows::whatIfProjectRows(w));
    fillTableFromRows(m_jobTable, rows::whatIfJobRows(shown));
    const int outcomeColumn = 4; // Job, Project, Type, GPUs, Outcome, Node, Reason
    for (int r = 0; r < shown.jobs.size() && r < m_jobTable->rowCount(); ++r) {
        QTableWidgetItem *item = m_jobTable->item(r, outcomeColumn);
        switch (shown.jobs[r].outcome) {
        case core::WhatIfJob::Outcome::Preempted:
            item->setText(tr("Preempted"));
            item->setForeground(QColor(0xc6, 0x28, 0x28));
            break;
        case core::WhatIfJob::Outcome::Starts:
            item->setText(tr("Starts"));
            break;
        case core::WhatIfJob::Outcome::StaysQueued:
            item->setText(tr("Stays queued"));
            break;
        case core::WhatIfJob::Outcome::KeepsRunning:
            item->setText(tr("Keeps running"));
            break;
        }
    }
    updateApplyState();
}

void QuotaWhatIfDialog::applySelected()
{
    const int row = m_projectTable->currentRow();
    if (!m_result || row < 0 || row >= m_result->projects.size()) {
        return;
    }
    const core::WhatIfProject &p = m_result->projects[row];
    core::ActionRequest request;
    request.kind = core::ActionKind::ProjectQuotaEdit;
    request.source = m_cluster;
    request.project = p.project;
    request.quota = p.quotaAfter;
    Q_EMIT actionRequested(request);
}

} // namespace strata::views
