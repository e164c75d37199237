#pragma once

#include <Qt>

class QChart;
class QChartView;
class QString;
class QWidget;

namespace strata::views {

/// Keeps `chart`'s axis labels whole: the tick count each axis is given (setTickCount) is a
/// wish, lowered while the plot area is too short or narrow for that many labels (at least two
/// ticks stay), so QtCharts never elides a label to "…". Value and date-time axes only.
void keepAxisLabelsWhole(QChart *chart);

/// A new chart in Strata's look: no margins, square corners, the legend at `legend`.
QChart *newChart(Qt::Alignment legend);
/// An antialiased view of `chart` (taking ownership) named `objectName`, at least
/// `minimumHeight` pixels high, with the chart's axis labels kept whole; add the axes first.
QChartView *newChartView(QChart *chart, QWidget *parent, const QString &objectName, int minimumHeight);

} // namespace strata::views
