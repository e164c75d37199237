#include "views/allocationhistorychart.h"

#include "views/chartfit.h"
#include "views/chartwindow.h"
#include "views/statusdelegate.h"

#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QEvent>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>
#include <map>

namespace strata::views {

namespace {

QChart *makeChart()
{
    auto *chart = new QChart();
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->setMargins(QMargins(0, 0, 0, 0));
    chart->setBackgroundRoundness(0);
    return chart;
}

} // namespace

AllocationHistoryChart::AllocationHistoryChart(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("allocationHistoryChart"));
    m_stack = new QStackedWidget(this);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("allocationHistoryMessageLabel"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setEnabled(false);

    m_allocationChart = makeChart();
    m_allocationChart->setTitle(tr("GPUs allocated (dashed: quota)"));
    m_allocationTime = new QDateTimeAxis(m_allocationChart);
    m_allocationValue = new QValueAxis(m_allocationChart);
    m_allocationValue->setLabelFormat(QStringLiteral("%.1f"));
    m_allocationValue->setTitleText(tr("GPUs"));
    m_allocationChart->addAxis(m_allocationTime, Qt::AlignBottom);
    m_allocationChart->addAxis(m_allocationValue, Qt::AlignLeft);

    m_utilizationChart = makeChart();
    m_utilizationChart->setTitle(tr("GPU utilization"));
    m_utilizationTime = new QDateTimeAxis(m_utilizationChart);
    m_utilizationValue = new QValueAxis(m_utilizationChart);
    m_utilizationValue->setRange(0, 100);
    m_utilizationValue->setLabelFormat(QStringLiteral("%.0f %%"));
    m_utilizationValue->setTickCount(5);
    m_utilizationChart->addAxis(m_utilizationTime, Qt::AlignBottom);
    m_utilizationChart->addAxis(m_utilizationValue, Qt::AlignLeft);

    keepAxisLabelsWhole(m_allocationChart);
    keepAxisLabelsWhole(m_utilizationChart);
    m_allocationView = new QChartView(m_allocationChart, this);
    m_allocationView->setObjectName(QStringLiteral("allocationChartView"));
    m_allocationView->setRenderHint(QPainter::Antialiasing);
    m_allocationView->setMinimumHeight(180);
    m_utilizationView = new QChartView(m_utilizationChart, this);
    m_utilizationView->setObjectName(QStringLiteral("utilizationChartView"));
    m_utilizationView->setRenderHint(QPainter::Antialiasing);
    m_utilizationView->setMinimumHeight(120);

    m_charts = new QWidget(this);
    auto *chartsLayout = new QVBoxLayout(m_charts);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    chartsLayout->addWidget(m_allocationView, 3);
    chartsLayout->addWidget(m_utilizationView, 2);

    m_stack->addWidget(m_message);
    m_stack->addWidget(m_charts);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    applyPalette();
    setMessage(tr("No cluster selected."));
}

AllocationHistoryChart::~AllocationHistoryChart() = default;

void AllocationHistoryChart::setMessage(const QString &message)
{
    m_message->setText(message);
    m_stack->setCurrentWidget(m_message);
}

bool AllocationHistoryChart::showsChart() const
{
    return m_stack->currentWidget() == m_charts;
}

QStringList AllocationHistoryChart::projectNames() const
{
    return m_projects;
}

QList<QPointF> AllocationHistoryChart::allocationPoints(const QString &project) const
{
    const QLineSeries *s = m_allocation.value(project);
    return s ? s->points() : QList<QPointF>();
}

QList<QPointF> AllocationHistoryChart::quotaPoints(const QString &project) const
{
    const QLineSeries *s = m_quota.value(project);
    return s ? s->points() : QList<QPointF>();
}

QList<QPointF> AllocationHistoryChart::utilizationPoints(const QString &project) const
{
    const QLineSeries *s = m_utilization.value(project);
    return s ? s->points() : QList<QPointF>();
}

QList<QPointF> AllocationHistoryChart::stepPoints(const std::vector<std::pair<QDateTime, double>> &values,
                                                  const QDateTime &end)
{
    QList<QPointF> points;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double x = double(values[i].first.toMSecsSinceEpoch());
        if (i > 0 && values[i - 1].second != values[i].second) {
            points.append(QPointF(x, values[i - 1].second)); // hold the old value up to the change
        }
        points.append(QPointF(x, values[i].second));
    }
    if (!values.empty() && end.isValid() && end > values.back().first) {
        points.append(QPointF(double(end.toMSecsSinceEpoch()), values.back().second));
    }
    return points;
}

QColor AllocationHistoryChart::projectColor(int index, bool dark)
{
    // Okabe-Ito inspired hues: distinguishable, also with colour-vision deficiencies.
    static const QColor light[] = {QColor(0x00, 0x72, 0xb2),
                                   QColor(0xd5, 0x5e, 0x00),
                                   QColor(0x00, 0x9e, 0x73),
                                   QColor(0xcc, 0x79, 0xa7),
                                   QColor(0x56, 0xb4, 0xe9),
                                   QColor(0xe6, 0x9f, 0x00),
                                   QColor(0x7f, 0x7f, 0x7f),
                                   QColor(0x8c, 0x56, 0x4b)};
    const QColor c = light[index % int(std::size(light))];
    return dark ? c.lighter(135) : c;
}

void AllocationHistoryChart::clearSeries()
{
    m_allocationChart->removeAllSeries();
    m_utilizationChart->removeAllSeries();
    m_allocation.clear();
    m_quota.clear();
    m_utilization.clear();
    m_projects.clear();
}

void AllocationHistoryChart::setHistory(const std::vector<core::ProjectSample> &samples,
                                        const QDateTime &from,
                                        const QDateTime &to,
                                        const QList<core::Project> &current)
{
    struct Lines
    {
        std::vector<std::pair<QDateTime, double>> allocated, quota, utilization;
    };
    std::map<QString, Lines> byProject;
    for (const core::ProjectSample &s : samples) {
        Lines &l = byProject[s.project];
        l.allocated.emplace_back(s.time, double(s.allocated) / 1000.0);
        if (s.quota >= 0) {
            l.quota.emplace_back(s.time, double(s.quota) / 1000.0);
        }
        if (s.utilization >= 0) {
            l.utilization.emplace_back(s.time, s.utilization);
        }
    }
    for (const core::Project &p : current) {
        Lines &l = byProject[p.name];
        if (l.allocated.empty() || l.allocated.back().first < to) {
            l.allocated.emplace_back(to, double(p.allocated) / 1000.0);
            if (p.quota >= 0) {
                l.quota.emplace_back(to, double(p.quota) / 1000.0);
            }
            if (p.utilization >= 0) {
                l.utilization.emplace_back(to, p.utilization);
            }
        }
    }
    clearSeries();
    if (byProject.empty()) {
        setMessage(tr("No GPU allocation recorded for this cluster yet."));
        return;
    }
    const bool dark = StatusDelegate::isDark(palette());
    double top = 1;
    int index = 0;
    for (const auto &[project, lines] : byProject) {
        const QColor color = projectColor(index++, dark);
        m_projects << project;
        auto *allocation = new QLineSeries(m_allocationChart);
        allocation->setName(project);
        allocation->replace(stepPoints(lines.allocated, to));
        QPen pen(color, 2);
        allocation->setPen(pen);
        m_allocationChart->addSeries(allocation);
        allocation->attachAxis(m_allocationTime);
        allocation->attachAxis(m_allocationValue);
        m_allocation.insert(project, allocation);
        for (const auto &v : lines.allocated) {
            top = std::max(top, v.second);
        }
        if (!lines.quota.empty()) {
            auto *quota = new QLineSeries(m_allocationChart);
            quota->setName(tr("%1 quota").arg(project));
            quota->replace(stepPoints(lines.quota, to));
            QPen dashed(color, 1.5, Qt::DashLine);
            quota->setPen(dashed);
            m_allocationChart->addSeries(quota);
            quota->attachAxis(m_allocationTime);
            quota->attachAxis(m_allocationValue);
            m_quota.insert(project, quota);
            // One legend entry per project: the dashed line is explained by the title.
            for (QLegendMarker *marker : m_allocationChart->legend()->markers(quota)) {
                marker->setVisible(false);
            }
            for (const auto &v : lines.quota) {
                top = std::max(top, v.second);
            }
        }
        auto *utilization = new QLineSeries(m_utilizationChart);
        utilization->setName(project);
        utilization->replace(stepPoints(lines.utilization, to));
        utilization->setPen(QPen(color, 2));
        m_utilizationChart->addSeries(utilization);
        utilization->attachAxis(m_utilizationTime);
        utilization->attachAxis(m_utilizationValue);
        m_utilization.insert(project, utilization);
    }
    QDateTime first;
    for (const core::ProjectSample &s : samples) {
        if (!first.isValid() || s.time < first) {
            first = s.time;
        }
    }
    const ChartWindow window = chartWindow(from, to, first);
    const QDateTime left = window.left;
    m_allocationChart->setTitle(
        window.collectingSince.isEmpty()
            ? tr("GPUs allocated (dashed: quota)")
            : tr("GPUs allocated (dashed: quota) · collecting since %1").arg(window.collectingSince));
    const QString format = left.secsTo(to) <= 86400 ? QStringLiteral("hh:mm") : QStringLiteral("MMM d");
    for (QDateTimeAxis *axis : {m_allocationTime, m_utilizationTime}) {
        axis->setRange(left.toLocalTime(), to.toLocalTime());
        axis->setFormat(format);
        axis->setTickCount(7);
    }
    // Five ticks on whole GPUs: more do not fit the chart's height and get elided to "...".
    const double ceiling = std::max(4.0, std::ceil(top * 1.1 / 4.0) * 4.0);
    m_allocationValue->setRange(0, ceiling);
    m_allocationValue->setTickCount(5);
    m_allocationValue->setLabelFormat(QStringLiteral("%.0f"));
    applyPalette();
    m_stack->setCurrentWidget(m_charts);
}

void AllocationHistoryChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
    }
    QWidget::changeEvent(event);
}

void AllocationHistoryChart::applyPalette()
{
    const QPalette pal = palette();
    const bool dark = StatusDelegate::isDark(pal);
    const QColor text = pal.color(QPalette::Text);
    for (QChart *chart : {m_allocationChart, m_utilizationChart}) {
        chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
        chart->setBackgroundBrush(pal.brush(QPalette::Base));
        chart->setPlotAreaBackgroundVisible(false);
        chart->legend()->setLabelColor(text);
        chart->setTitleBrush(text);
    }
    for (QAbstractAxis *axis : {static_cast<QAbstractAxis *>(m_allocationTime),
                                static_cast<QAbstractAxis *>(m_allocationValue),
                                static_cast<QAbstractAxis *>(m_utilizationTime),
                                static_cast<QAbstractAxis *>(m_utilizationValue)}) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setGridLineColor(pal.color(QPalette::Mid));
    }
    // setTheme() resets series pens: give each project its colour back.
    for (int i = 0; i < m_projects.size(); ++i) {
        const QColor color = projectColor(i, dark);
        if (QLineSeries *s = m_allocation.value(m_projects[i])) {
            s->setPen(QPen(color, 2));
        }
        if (QLineSeries *s = m_quota.value(m_projects[i])) {
            s->setPen(QPen(color, 1.5, Qt::DashLine));
            for (QLegendMarker *marker : m_allocationChart->legend()->markers(s)) {
                marker->setVisible(false);
            }
        }
        if (QLineSeries *s = m_utilization.value(m_projects[i])) {
            s->setPen(QPen(color, 2));
        }
    }
}

} // namespace strata::views
