#include "views/allocationhistorychart.h"

#include "views/chartfit.h"
#include "views/statusdelegate.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QHelpEvent>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QMouseEvent>
#include <QTimeZone>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>
#include <map>

namespace strata::views {

namespace {

// One series of a stack as step points: each value holds until the next time.
QList<QPointF> stackSteps(const core::AllocationStack &stack, const std::vector<core::MilliGpu> &values)
{
    std::vector<std::pair<QDateTime, double>> pairs;
    pairs.reserve(values.size());
    for (std::size_t t = 0; t < values.size(); ++t) {
        pairs.emplace_back(stack.times[t], double(values[t]) / 1000.0);
    }
    return HistoryChart::stepPoints(pairs, QDateTime());
}

QColor bandFill(QColor color)
{
    color.setAlpha(150);
    return color;
}

} // namespace

AllocationHistoryChart::AllocationHistoryChart(QWidget *parent)
    : HistoryChart(QStringLiteral("allocationHistoryMessageLabel"), parent)
{
    setObjectName(QStringLiteral("allocationHistoryChart"));
    m_allocationChart = newChart(Qt::AlignRight);
    m_allocationChart->setTitle(tr("GPUs allocated, stacked by project (dashed: total quota)"));
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
    m_allocationView = addChartView(m_allocationChart, QStringLiteral("allocationChartView"), 180);
    m_allocationView->setMouseTracking(true);
    m_allocationView->viewport()->setMouseTracking(true);
    m_allocationView->viewport()->installEventFilter(this);
    chartsLayout->addWidget(m_allocationView, 3);
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
    const int p = int(m_stack.projects.indexOf(project));
    return p < 0 ? QList<QPointF>() : stackSteps(m_stack, m_stack.allocated[std::size_t(p)]);
}

QList<QPointF> AllocationHistoryChart::bandUpperPoints(const QString &project) const
{
    const QAreaSeries *s = m_bands.value(project);
    return s && s->upperSeries() ? s->upperSeries()->points() : QList<QPointF>();
}

QList<QPointF> AllocationHistoryChart::bandLowerPoints(const QString &project) const
{
    const QAreaSeries *s = m_bands.value(project);
    return s && s->lowerSeries() ? s->lowerSeries()->points() : QList<QPointF>();
}

QList<QPointF> AllocationHistoryChart::quotaPoints() const
{
    return m_quota ? m_quota->points() : QList<QPointF>();
}

QString AllocationHistoryChart::readoutText(const core::AllocationStack &stack, int index)
{
    if (index < 0 || std::size_t(index) >= stack.times.size() || stack.projects.isEmpty()) {
        return {};
    }
    const auto t = std::size_t(index);
    QStringList lines;
    lines << QLocale().toString(stack.times[t].toLocalTime(), QLocale::ShortFormat);
    for (int p = int(stack.projects.size()) - 1; p >= 0; --p) {
        lines << tr("%1: %2 GPUs").arg(stack.projects[p], core::formatGpus(stack.allocated[std::size_t(p)][t]));
    }
    const QString total = core::formatGpus(stack.total(index));
    lines << (stack.quota.empty() ? tr("Total: %1 GPUs").arg(total)
                                  : tr("Total: %1 of %2 GPUs quota").arg(total, core::formatGpus(stack.quota[t])));
    return lines.join(QLatin1Char('\n'));
}

QString AllocationHistoryChart::readoutAt(const QDateTime &time) const
{
    return readoutText(m_stack, m_stack.indexAt(time));
}

bool AllocationHistoryChart::eventFilter(QObject *watched, QEvent *event)
{
    if (m_allocationView && watched == m_allocationView->viewport()
        && (event->type() == QEvent::MouseMove || event->type() == QEvent::ToolTip)) {
        const QPoint pos = event->type() == QEvent::MouseMove ? static_cast<QMouseEvent *>(event)->position().toPoint()
                                                              : static_cast<QHelpEvent *>(event)->pos();
        const QPointF inChart = m_allocationChart->mapFromScene(m_allocationView->mapToScene(pos));
        QString text;
        if (showsChart() && m_allocationChart->plotArea().contains(inChart)) {
            const QPointF value = m_allocationChart->mapToValue(inChart);
            text = readoutAt(QDateTime::fromMSecsSinceEpoch(qint64(value.x()), QTimeZone::utc()));
        }
        if (text.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(m_allocationView->viewport()->mapToGlobal(pos), text, m_allocationView->viewport());
        }
        return event->type() == QEvent::ToolTip;
    }
    return HistoryChart::eventFilter(watched, event);
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
    m_bands.clear();
    m_quota = nullptr;
    m_utilization.clear();
    m_projects.clear();
    m_stack = {};
}

void AllocationHistoryChart::setHistory(const std::vector<core::ProjectSample> &samples,
                                        const QDateTime &from,
                                        const QDateTime &to,
                                        const QList<core::Project> &current)
{
    // Utilization per project as lines (a mean over held GPUs does not stack).
    std::map<QString, std::vector<std::pair<QDateTime, double>>> utilizationOf;
    for (const core::ProjectSample &s : samples) {
        auto &line = utilizationOf[s.project];
        if (s.utilization >= 0) {
            line.emplace_back(s.time, s.utilization);
        }
    }
    for (const core::Project &p : current) {
        auto &line = utilizationOf[p.name];
        if (p.utilization >= 0 && (line.empty() || line.back().first < to)) {
            line.emplace_back(to, p.utilization);
        }
    }
    clearSeries();
    m_stack = core::stackAllocation(samples, to, current);
    if (m_stack.isEmpty()) {
        setMessage(tr("No GPU allocation recorded for this cluster yet."));
        return;
    }
    const bool dark = StatusDelegate::isDark(palette());
    for (int p = 0; p < m_stack.projects.size(); ++p) {
        const QString &project = m_stack.projects[p];
        const QColor color = seriesColor(p, dark);
        m_projects << project;
        auto *band = new QAreaSeries(m_allocationChart);
        // The band owns its edges: removeAllSeries() deletes them with it.
        auto *upper = new QLineSeries(band);
        upper->replace(stackSteps(m_stack, m_stack.top[std::size_t(p)]));
        band->setUpperSeries(upper);
        if (p > 0) {
            auto *lower = new QLineSeries(band);
            lower->replace(stackSteps(m_stack, m_stack.top[std::size_t(p - 1)]));
            band->setLowerSeries(lower);
        }
        band->setName(project);
        band->setPen(QPen(color, 1));
        band->setBrush(bandFill(color));
        m_allocationChart->addSeries(band);
        band->attachAxis(m_allocationTime);
        band->attachAxis(m_allocationValue);
        m_bands.insert(project, band);

        auto *utilization = new QLineSeries(m_utilizationChart);
        utilization->setName(project);
        utilization->replace(stepPoints(utilizationOf[project], to));
        utilization->setPen(QPen(color, 2));
        m_utilizationChart->addSeries(utilization);
        utilization->attachAxis(m_utilizationTime);
        utilization->attachAxis(m_utilizationValue);
        m_utilization.insert(project, utilization);
    }
    if (!m_stack.quota.empty()) {
        m_quota = new QLineSeries(m_allocationChart);
        m_quota->setName(tr("Quota"));
        m_quota->replace(stackSteps(m_stack, m_stack.quota));
        m_allocationChart->addSeries(m_quota);
        m_quota->attachAxis(m_allocationTime);
        m_quota->attachAxis(m_allocationValue);
    }
    const double top = std::max(1.0, double(m_stack.peak()) / 1000.0);
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
            ? tr("GPUs allocated, stacked by project (dashed: total quota)")
            : tr("GPUs allocated, stacked by project (dashed: total quota) · collecting since %1")
                  .arg(window.collectingSince));
    // Five ticks on whole GPUs: more do not fit the chart's height and get elided to "...".
    const double ceiling = std::max(4.0, std::ceil(top * 1.1 / 4.0) * 4.0);
    m_allocationValue->setRange(0, ceiling);
    m_allocationValue->setTickCount(5);
    m_allocationValue->setLabelFormat(QStringLiteral("%.0f"));
    applyPalette();
    showPlot();
}

void AllocationHistoryChart::applySeriesPens(const QPalette &palette, bool dark)
{
    // setTheme() resets series pens and brushes: give each project its colour back.
    for (int i = 0; i < m_projects.size(); ++i) {
        const QColor color = seriesColor(i, dark);
        if (QAreaSeries *s = m_bands.value(m_projects[i])) {
            s->setPen(QPen(color, 1));
            s->setBrush(bandFill(color));
        }
        if (QLineSeries *s = m_utilization.value(m_projects[i])) {
            s->setPen(QPen(color, 2));
        }
    }
    if (m_quota) {
        m_quota->setPen(QPen(palette.color(QPalette::Text), 2, Qt::DashLine));
    }
}

QString AllocationHistoryChart::utilizationTitle() const
{
    return m_utilizationChart->title();
}

} // namespace strata::views
