#include "views/throughputchart.h"

#include "views/chartfit.h"
#include "views/statusdelegate.h"

#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QLineSeries>
#include <QValueAxis>

#include <cmath>

namespace strata::views {

ThroughputChart::ThroughputChart(QWidget *parent)
    : HistoryChart(QStringLiteral("throughputMessageLabel"), parent)
{
    setObjectName(QStringLiteral("throughputChart"));
    m_chart = newChart(Qt::AlignBottom);
    auto *time = new QDateTimeAxis(m_chart);
    m_value = new QValueAxis(m_chart);
    m_value->setTitleText(tr("MiB/s"));
    m_value->setLabelFormat(QStringLiteral("%.0f"));
    m_chart->addAxis(time, Qt::AlignBottom);
    m_chart->addAxis(m_value, Qt::AlignLeft);
    m_observed = new QLineSeries(m_chart);
    m_observed->setName(tr("Observed"));
    m_cap = new QLineSeries(m_chart);
    m_cap->setName(tr("Cap"));
    for (QLineSeries *s : {m_observed, m_cap}) {
        m_chart->addSeries(s);
        s->attachAxis(time);
        s->attachAxis(m_value);
    }
    setPlot(addChartView(m_chart, QStringLiteral("throughputChartView"), 160));
    applyPalette();
    setMessage(tr("Select a volume to see its throughput against its cap."));
}

ThroughputChart::~ThroughputChart() = default;

QList<QPointF> ThroughputChart::observedPoints() const
{
    return m_observed->points();
}

QList<QPointF> ThroughputChart::capPoints() const
{
    return m_cap->points();
}

void ThroughputChart::setPoints(const std::vector<core::ThroughputPoint> &points,
                                const QDateTime &from,
                                const QDateTime &to)
{
    if (points.empty()) {
        m_observed->clear();
        m_cap->clear();
        setMessage(tr("No throughput recorded for this volume in this period yet."));
        return;
    }
    // One unit for the axis, chosen like every figure's (core/format.h): GiB/s from 1,024 MiB/s.
    double topMibps = 1;
    for (const core::ThroughputPoint &p : points) {
        topMibps = std::max({topMibps, p.mibps, p.capMibps});
    }
    const double divisor = topMibps >= 1024 ? 1024 : 1;
    m_value->setTitleText(divisor > 1 ? tr("GiB/s") : tr("MiB/s"));
    QList<QPointF> observed;
    std::vector<std::pair<QDateTime, double>> caps;
    double top = 1.0 / divisor;
    for (const core::ThroughputPoint &p : points) {
        observed.append(QPointF(double(p.time.toMSecsSinceEpoch()), p.mibps / divisor));
        top = std::max(top, p.mibps / divisor);
        if (p.capMibps >= 0) {
            caps.emplace_back(p.time, p.capMibps / divisor);
            top = std::max(top, p.capMibps / divisor);
        }
    }
    m_observed->replace(observed);
    m_cap->replace(stepPoints(caps, to));
    const ChartWindow window = fitTimeAxes(from.isValid() ? from : points.front().time, to, points.front().time);
    m_chart->setTitle(window.collectingSince.isEmpty() ? QString()
                                                       : tr("collecting since %1").arg(window.collectingSince));
    // Headroom above the cap so a line pinned to it stays visible.
    const double step = std::pow(10.0, std::floor(std::log10(top * 1.15)));
    m_value->setRange(0, std::ceil(top * 1.15 / step) * step);
    m_value->setTickCount(5);
    m_value->setLabelFormat(top * 1.15 < 10 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    showPlot();
}

void ThroughputChart::applySeriesPens(const QPalette &pal, bool dark)
{
    // setTheme() resets the pens.
    m_observed->setPen(QPen(seriesColor(0, dark), 2));
    m_cap->setPen(QPen(StatusDelegate::colorFor(QStringLiteral("critical"), pal, true), 1.5, Qt::DashLine));
}

} // namespace strata::views
