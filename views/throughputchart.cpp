#include "views/throughputchart.h"

#include "views/allocationhistorychart.h"
#include "views/chartfit.h"
#include "views/chartwindow.h"
#include "views/statusdelegate.h"

#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QEvent>
#include <QLabel>
#include <QLineSeries>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>

namespace strata::views {

ThroughputChart::ThroughputChart(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("throughputChart"));
    m_stack = new QStackedWidget(this);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("throughputMessageLabel"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setEnabled(false);

    m_chart = new QChart();
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->setMargins(QMargins(0, 0, 0, 0));
    m_chart->setBackgroundRoundness(0);
    m_time = new QDateTimeAxis(m_chart);
    m_value = new QValueAxis(m_chart);
    m_value->setTitleText(tr("MiB/s"));
    m_value->setLabelFormat(QStringLiteral("%.0f"));
    m_chart->addAxis(m_time, Qt::AlignBottom);
    m_chart->addAxis(m_value, Qt::AlignLeft);
    m_observed = new QLineSeries(m_chart);
    m_observed->setName(tr("Observed"));
    m_cap = new QLineSeries(m_chart);
    m_cap->setName(tr("Cap"));
    for (QLineSeries *s : {m_observed, m_cap}) {
        m_chart->addSeries(s);
        s->attachAxis(m_time);
        s->attachAxis(m_value);
    }
    keepAxisLabelsWhole(m_chart);
    m_view = new QChartView(m_chart, this);
    m_view->setObjectName(QStringLiteral("throughputChartView"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(160);

    m_stack->addWidget(m_message);
    m_stack->addWidget(m_view);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    applyPalette();
    setMessage(tr("Select a volume to see its throughput against its cap."));
}

ThroughputChart::~ThroughputChart() = default;

void ThroughputChart::setMessage(const QString &message)
{
    m_message->setText(message);
    m_stack->setCurrentWidget(m_message);
}

bool ThroughputChart::showsChart() const
{
    return m_stack->currentWidget() == m_view;
}

QString ThroughputChart::message() const
{
    return m_message->text();
}

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
    m_cap->replace(AllocationHistoryChart::stepPoints(caps, to));
    const ChartWindow window = chartWindow(from.isValid() ? from : points.front().time, to, points.front().time);
    const QDateTime left = window.left;
    m_chart->setTitle(window.collectingSince.isEmpty() ? QString()
                                                       : tr("collecting since %1").arg(window.collectingSince));
    m_time->setRange(left.toLocalTime(), to.toLocalTime());
    m_time->setFormat(left.secsTo(to) <= 86400 ? QStringLiteral("hh:mm") : QStringLiteral("MMM d"));
    m_time->setTickCount(7);
    // Headroom above the cap so a line pinned to it stays visible.
    const double step = std::pow(10.0, std::floor(std::log10(top * 1.15)));
    m_value->setRange(0, std::ceil(top * 1.15 / step) * step);
    m_value->setTickCount(5);
    m_value->setLabelFormat(top * 1.15 < 10 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    m_stack->setCurrentWidget(m_view);
}

void ThroughputChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
    }
    QWidget::changeEvent(event);
}

void ThroughputChart::applyPalette()
{
    const QPalette pal = palette();
    const bool dark = StatusDelegate::isDark(pal);
    const QColor text = pal.color(QPalette::Text);
    m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setBackgroundBrush(pal.brush(QPalette::Base));
    m_chart->setPlotAreaBackgroundVisible(false);
    m_chart->legend()->setLabelColor(text);
    for (QAbstractAxis *axis : {static_cast<QAbstractAxis *>(m_time), static_cast<QAbstractAxis *>(m_value)}) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setGridLineColor(pal.color(QPalette::Mid));
    }
    // setTheme() resets the pens.
    m_observed->setPen(QPen(AllocationHistoryChart::projectColor(0, dark), 2));
    m_cap->setPen(QPen(StatusDelegate::colorFor(QStringLiteral("critical"), pal, true), 1.5, Qt::DashLine));
}

} // namespace strata::views
