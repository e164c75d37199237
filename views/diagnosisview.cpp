#include "views/diagnosisview.h"

#include "views/chartfit.h"

#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace strata::views {

DiagnosisView::DiagnosisView(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("diagnosisView"));
    auto makeLabel = [this](const QString &name) {
        auto *label = new QLabel(this);
        label->setObjectName(name);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        return label;
    };
    m_headline = makeLabel(QStringLiteral("diagnosisHeadlineLabel"));
    QFont bold = m_headline->font();
    bold.setBold(true);
    m_headline->setFont(bold);
    m_findings = makeLabel(QStringLiteral("diagnosisFindingsLabel"));
    m_findings->setTextFormat(Qt::RichText);
    m_next = makeLabel(QStringLiteral("diagnosisNextLabel"));
    m_action = new QPushButton(this);
    m_action->setObjectName(QStringLiteral("diagnosisActionButton"));
    m_action->hide();
    connect(m_action, &QPushButton::clicked, this, [this] {
        if (m_diagnosis.findings.isEmpty()) {
            return;
        }
        const core::DiagnosisFinding &f = m_diagnosis.findings.front();
        if (f.actionKind == QLatin1String("change_service_level")) {
            Q_EMIT changeServiceLevelRequested(m_diagnosis.storageSource, m_diagnosis.volumeId);
        } else if (f.actionKind == QLatin1String("end_session")) {
            Q_EMIT endSessionRequested(m_diagnosis.source, m_diagnosis.jobId);
        }
    });

    m_chart = newChart(Qt::AlignBottom);
    m_time = new QDateTimeAxis(m_chart);
    m_time->setFormat(QStringLiteral("HH:mm"));
    m_rate = new QValueAxis(m_chart);
    m_rate->setTitleText(tr("MiB/s, ms"));
    m_rate->setLabelFormat(QStringLiteral("%.0f"));
    m_percent = new QValueAxis(m_chart);
    m_percent->setTitleText(tr("GPU %"));
    m_percent->setRange(0, 100);
    m_percent->setLabelFormat(QStringLiteral("%.0f"));
    m_chart->addAxis(m_time, Qt::AlignBottom);
    m_chart->addAxis(m_rate, Qt::AlignLeft);
    m_chart->addAxis(m_percent, Qt::AlignRight);
    m_throughput = new QLineSeries(m_chart);
    m_throughput->setName(tr("Volume MiB/s"));
    m_cap = new QLineSeries(m_chart);
    m_cap->setName(tr("Cap MiB/s"));
    QPen dashed = m_cap->pen();
    dashed.setStyle(Qt::DashLine);
    m_cap->setPen(dashed);
    m_latency = new QLineSeries(m_chart);
    m_latency->setName(tr("Latency ms"));
    for (QLineSeries *s : {m_throughput, m_cap, m_latency}) {
        m_chart->addSeries(s);
        s->attachAxis(m_time);
        s->attachAxis(m_rate);
    }
    m_gpu = new QScatterSeries(m_chart);
    m_gpu->setName(tr("GPU % now"));
    m_gpu->setMarkerSize(10);
    m_chart->addSeries(m_gpu);
    m_gpu->attachAxis(m_time);
    m_gpu->attachAxis(m_percent);
    // Fewer ticks rather than "…" labels when the detail panel leaves the chart little room.
    m_view = newChartView(m_chart, this, QStringLiteral("diagnosisChartView"), 200);
    m_view->hide();

    auto *actionRow = new QHBoxLayout();
    actionRow->addWidget(m_next, 1);
    actionRow->addWidget(m_action);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_headline);
    layout->addWidget(m_findings);
    layout->addLayout(actionRow);
    layout->addWidget(m_view);
}

DiagnosisView::~DiagnosisView() = default;

void DiagnosisView::setDiagnosis(const core::JobDiagnosis &diagnosis)
{
    m_diagnosis = diagnosis;
    m_headline->setText(diagnosis.headline);
    QStringList html;
    m_findingLines.clear();
    for (const core::DiagnosisFinding &f : diagnosis.findings) {
        m_findingLines << f.rule + QStringLiteral(": ") + f.summary;
        QString item = f.summary.toHtmlEscaped();
        if (!f.action.isEmpty() && &f != &diagnosis.findings.front()) {
            item += QStringLiteral("<br><i>%1</i>").arg(f.action.toHtmlEscaped());
        }
        html << QStringLiteral("<li>%1</li>").arg(item);
    }
    m_findings->setText(html.isEmpty() ? QString() : QStringLiteral("<ol>%1</ol>").arg(html.join(QString())));
    m_findings->setVisible(!html.isEmpty());
    m_next->setText(diagnosis.nextAction.isEmpty() ? QString() : tr("Next: %1").arg(diagnosis.nextAction));
    m_next->setVisible(!diagnosis.nextAction.isEmpty());

    const QString kind = diagnosis.findings.isEmpty() ? QString() : diagnosis.findings.front().actionKind;
    if (kind == QLatin1String("change_service_level") && !diagnosis.volumeId.isEmpty()) {
        m_action->setText(tr("Change service level…"));
        m_action->show();
    } else if (kind == QLatin1String("end_session")) {
        m_action->setText(tr("End session…"));
        m_action->show();
    } else {
        m_action->hide();
    }

    m_throughput->clear();
    m_cap->clear();
    m_latency->clear();
    m_gpu->clear();
    const bool chart = diagnosis.status == core::JobStatus::Running && !diagnosis.series.isEmpty()
                       && diagnosis.verdict != core::Verdict::UtilizationUnknown;
    m_view->setVisible(chart);
    if (!chart) {
        return;
    }
    double top = 1;
    for (const core::DiagnosisPoint &p : diagnosis.series) {
        const qreal x = qreal(p.time.toMSecsSinceEpoch());
        // The diagnosis holds MB/s (its JSON); the page shows MiB/s like Service levels.
        if (p.throughputMBps >= 0) {
            const double mibps = p.throughputMBps * 1e6 / core::units::kMiB;
            m_throughput->append(x, mibps);
            top = std::max(top, mibps);
        }
        if (p.capMBps > 0) {
            const double mibps = p.capMBps * 1e6 / core::units::kMiB;
            m_cap->append(x, mibps);
            top = std::max(top, mibps);
        }
        if (p.latencyMs >= 0) {
            m_latency->append(x, p.latencyMs);
            top = std::max(top, p.latencyMs);
        }
        if (p.gpuPercent >= 0) {
            m_gpu->append(x, p.gpuPercent);
        }
    }
    const QDateTime first = diagnosis.series.front().time;
    const QDateTime last = diagnosis.series.back().time;
    m_time->setRange(first.addSecs(first == last ? -300 : 0), last.addSecs(first == last ? 60 : 0));
    m_rate->setRange(0, top * 1.15);
}

QString DiagnosisView::headlineText() const
{
    return m_headline->text();
}

QStringList DiagnosisView::findingLines() const
{
    return m_findingLines;
}

bool DiagnosisView::showsChart() const
{
    return !m_view->isHidden();
}

QList<QPointF> DiagnosisView::throughputPoints() const
{
    return m_throughput->points();
}

QList<QPointF> DiagnosisView::gpuPoints() const
{
    return m_gpu->points();
}

} // namespace strata::views
