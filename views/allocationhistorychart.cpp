#include "views/allocationhistorychart.h"

#include "views/chartfit.h"
#include "views/statusdelegate.h"

#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QLegendMarker>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>
#include <map>

namespace strata::views {

AllocationHistoryChart::AllocationHistoryChart(QWidget *parent)
    : HistoryChart(QStringLiteral("allocationHistoryMessageLabel"), parent)
{
    setObjectName(QStringLiteral("allocationHistoryChart"));
    m_allocationChart = newChart(Qt::AlignRight);
    m_allocationChart->setTitle(tr("GPUs allocated (dashed: quota)"));
    m_allocationTime = new QDateTimeAxis(m_allocationChart);
    m_allocationValue = new QValueAxis(m_allocationChart);
    m_allocationValue->setLabelFormat(QStringLiteral("%.1f"));
    m_allocationValue->setTitleText(tr("GPUs"));
    m_allocationChart->addAxis(m_allocationTime, Qt::AlignBottom);
    m_allocationChart->addAxis(m_allocationValue, Qt::AlignLeft);

    m_utilizationChart = newChart(Qt::AlignRight);
    m_utilizationChart->setTitle(tr("GPU utilization"));
    m_utilizationTime = new QDateTimeAxis(m_utilizationChart);
    m_utilizationValue = new QValueAxis(m_utilizationChart);
    m_utilizationValue->setRange(0, 100);
    m_utilizationValue->setLabelFormat(QStringLiteral("%.0f %%"));
    m_utilizationValue->setTickCount(5);
    m_utilizationChart->addAxis(m_utilizationTime, Qt::AlignBottom);
    m_utilizationChart->addAxis(m_utilizationValue, Qt::AlignLeft);

    auto *charts = new QWidget(this);
    auto *chartsLayout = new QVBoxLayout(charts);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    chartsLayout->addWidget(addChartView(m_allocationChart, QStringLiteral("allocationChartView"), 180), 3);
    chartsLayout->addWidget(addChartView(m_utilizationChart, QStringLiteral("utilizationChartView"), 120), 2);
    setPlot(charts);
    applyPalette();
    setMessage(tr("No cluster selected."));
}

AllocationHistoryChart::~AllocationHistoryChart() = default;

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
        const QColor color = seriesColor(index++, dark);
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
    const ChartWindow window = fitTimeAxes(from, to, first);
    // Utilization exists only while GPUs are allocated (DCGM measures held GPUs): a cluster that
    // was idle for most of the range says so instead of showing a lone dot at the right edge.
    QDateTime firstMeasured;
    for (const core::ProjectSample &s : samples) {
        if (s.utilization >= 0 && (!firstMeasured.isValid() || s.time < firstMeasured)) {
            firstMeasured = s.time;
        }
    }
    const ChartWindow measured = chartWindow(window.left, to, firstMeasured);
    m_utilizationChart->setTitle(!firstMeasured.isValid() ? tr("GPU utilization · none measured in this range")
                                 : measured.collectingSince.isEmpty()
                                     ? tr("GPU utilization")
                                     : tr("GPU utilization · measured since %1").arg(measured.collectingSince));
    m_allocationChart->setTitle(
        window.collectingSince.isEmpty()
            ? tr("GPUs allocated (dashed: quota)")
            : tr("GPUs allocated (dashed: quota) · collecting since %1").arg(window.collectingSince));
    // Five ticks on whole GPUs: more do not fit the chart's height and get elided to "...".
    const double ceiling = std::max(4.0, std::ceil(top * 1.1 / 4.0) * 4.0);
    m_allocationValue->setRange(0, ceiling);
    m_allocationValue->setTickCount(5);
    m_allocationValue->setLabelFormat(QStringLiteral("%.0f"));
    applyPalette();
    showPlot();
}

void AllocationHistoryChart::applySeriesPens(const QPalette &, bool dark)
{
    // setTheme() resets series pens: give each project its colour back.
    for (int i = 0; i < m_projects.size(); ++i) {
        const QColor color = seriesColor(i, dark);
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

QString AllocationHistoryChart::utilizationTitle() const
{
    return m_utilizationChart->title();
}

} // namespace strata::views
