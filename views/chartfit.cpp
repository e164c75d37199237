#include "views/chartfit.h"

#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QFontMetrics>
#include <QPointer>
#include <QTimer>
#include <QValueAxis>

#include <algorithm>

namespace strata::views {

namespace {

// The tick count an axis was asked for, kept on the axis.
constexpr char kWantedTicks[] = "strataWantedTicks";
constexpr char kFitting[] = "strataFittingTicks";

/// Ticks that fit `length` pixels when one label takes `label` pixels plus a gap of one line.
int ticksThatFit(qreal length, int label, int lineHeight)
{
    return std::max(2, int(length / qreal(label + lineHeight)) + 1);
}

template <class Axis> void fitAxis(Axis *axis, const QRectF &plot, const QString &widestLabel)
{
    const QFontMetrics metrics(axis->labelsFont());
    if (!axis->property(kWantedTicks).isValid()) {
        axis->setProperty(kWantedTicks, axis->tickCount());
    }
    const int wanted = axis->property(kWantedTicks).toInt();
    const bool vertical = axis->orientation() == Qt::Vertical;
    const int fit = vertical ? ticksThatFit(plot.height(), metrics.height(), metrics.height() / 2)
                             : ticksThatFit(plot.width(), metrics.horizontalAdvance(widestLabel), metrics.height());
    const int ticks = std::min(wanted, fit);
    if (ticks != axis->tickCount()) {
        axis->setProperty(kFitting, true);
        axis->setTickCount(ticks);
        axis->setProperty(kFitting, false);
    }
}

void fitChartAxes(QChart *chart)
{
    const QRectF plot = chart->plotArea();
    if (plot.isEmpty()) {
        return;
    }
    for (QAbstractAxis *axis : chart->axes()) {
        if (auto *value = qobject_cast<QValueAxis *>(axis)) {
            // The longest of the end labels stands for all of them.
            const QString widest = QString::asprintf(value->labelFormat().toLatin1().constData(), value->max());
            fitAxis(value, plot, widest.size() > 3 ? widest : QStringLiteral("0000"));
        } else if (auto *time = qobject_cast<QDateTimeAxis *>(axis)) {
            fitAxis(time, plot, time->max().toString(time->format()) + QStringLiteral("0"));
        }
    }
}

void watchAxis(QChart *chart, QAbstractAxis *axis)
{
    const auto remember = [chart, axis](int count) {
        if (!axis->property(kFitting).toBool()) {
            axis->setProperty(kWantedTicks, count);
            QTimer::singleShot(0, chart, [chart] {
                fitChartAxes(chart);
            });
        }
    };
    if (auto *value = qobject_cast<QValueAxis *>(axis)) {
        QObject::connect(value, &QValueAxis::tickCountChanged, chart, remember);
    } else if (auto *time = qobject_cast<QDateTimeAxis *>(axis)) {
        QObject::connect(time, &QDateTimeAxis::tickCountChanged, chart, remember);
    }
}

} // namespace

void keepAxisLabelsWhole(QChart *chart)
{
    for (QAbstractAxis *axis : chart->axes()) {
        watchAxis(chart, axis);
    }
    QObject::connect(chart, &QChart::plotAreaChanged, chart, [chart] {
        fitChartAxes(chart);
    });
    fitChartAxes(chart);
}

QChart *newChart(Qt::Alignment legend)
{
    auto *chart = new QChart();
    chart->legend()->setAlignment(legend);
    chart->setMargins(QMargins(0, 0, 0, 0));
    chart->setBackgroundRoundness(0);
    return chart;
}

QChartView *newChartView(QChart *chart, QWidget *parent, const QString &objectName, int minimumHeight)
{
    keepAxisLabelsWhole(chart);
    auto *view = new QChartView(chart, parent);
    view->setObjectName(objectName);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(minimumHeight);
    return view;
}

} // namespace strata::views
