#pragma once

#include "models/core/services/servicelevels.h"
#include "views/historychart.h"

class QChart;
class QLineSeries;
class QValueAxis;

namespace strata::views {

/// Observed throughput of one volume against its cap over time (Service levels page): the
/// observed MiB/s as a solid line and the cap in force as a dashed step line, so a level change
/// shows as a step and a volume pinned to its cap as two lines on top of each other. Follows
/// the widget palette; shows a message instead of an empty plot.
class ThroughputChart final : public HistoryChart
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ThroughputChart)

public:
    explicit ThroughputChart(QWidget *parent = nullptr);
    ~ThroughputChart() override;

    /// `points` oldest first (ServiceLevels::throughputHistory); the axis spans [from, to].
    void setPoints(const std::vector<core::ThroughputPoint> &points, const QDateTime &from, const QDateTime &to);

    /// x = ms since epoch, y = MiB/s.
    [[nodiscard]] QList<QPointF> observedPoints() const;
    [[nodiscard]] QList<QPointF> capPoints() const;

protected:
    void applySeriesPens(const QPalette &palette, bool dark) override;

private:
    QChart *m_chart = nullptr;
    QValueAxis *m_value = nullptr;
    QLineSeries *m_observed = nullptr;
    QLineSeries *m_cap = nullptr;
};

} // namespace strata::views
