#pragma once

#include "models/core/servicelevels.h"

#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QDateTimeAxis;
class QLabel;
class QLineSeries;
class QStackedWidget;
class QValueAxis;

namespace strata::views {

/// Observed throughput of one volume against its cap over time (Service levels page): the
/// observed MiB/s as a solid line and the cap in force as a dashed step line, so a level change
/// shows as a step and a volume pinned to its cap as two lines on top of each other. Follows
/// the widget palette; shows a message instead of an empty plot.
class ThroughputChart final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ThroughputChart)

public:
    explicit ThroughputChart(QWidget *parent = nullptr);
    ~ThroughputChart() override;

    /// `points` oldest first (ServiceLevels::throughputHistory); the axis spans [from, to].
    void setPoints(const std::vector<core::ThroughputPoint> &points, const QDateTime &from, const QDateTime &to);
    void setMessage(const QString &message);

    [[nodiscard]] bool showsChart() const;
    [[nodiscard]] QString message() const;
    /// x = ms since epoch, y = MiB/s.
    [[nodiscard]] QList<QPointF> observedPoints() const;
    [[nodiscard]] QList<QPointF> capPoints() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyPalette();

    QStackedWidget *m_stack = nullptr;
    QLabel *m_message = nullptr;
    QChart *m_chart = nullptr;
    QChartView *m_view = nullptr;
    QDateTimeAxis *m_time = nullptr;
    QValueAxis *m_value = nullptr;
    QLineSeries *m_observed = nullptr;
    QLineSeries *m_cap = nullptr;
};

} // namespace strata::views
