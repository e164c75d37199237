#pragma once

class QChart;

namespace strata::views {

/// Keeps `chart`'s axis labels whole: the tick count each axis is given (setTickCount) is a
/// wish, lowered while the plot area is too short or narrow for that many labels (at least two
/// ticks stay), so QtCharts never elides a label to "…". Value and date-time axes only.
void keepAxisLabelsWhole(QChart *chart);

} // namespace strata::views
