#pragma once

#include "models/core/historystore.h"

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

/// A volume's capacity over time: used bytes and provisioned size as two lines over a date axis
/// (the last 7 days by default), scaled to a binary unit that fits. Shows a hint instead of an
/// empty plot while there is no history. Follows the widget palette (light/dark).
class CapacityChart final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CapacityChart)

public:
    explicit CapacityChart(QWidget *parent = nullptr);
    ~CapacityChart() override;

    /// Samples oldest first. `now` is the right edge; with `current` (the live value, time =
    /// `now`) the lines reach the present even when the store only writes on change.
    void setSamples(std::vector<core::UsageSample> samples,
                    const QDateTime &now,
                    const core::UsageSample *current = nullptr,
                    int days = 7);
    /// Replaces the plot with a one-line message ("Loading…", "No history store", ...).
    void setMessage(const QString &message);

    [[nodiscard]] int pointCount() const;
    [[nodiscard]] bool showsChart() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyPalette();

    QStackedWidget *m_stack = nullptr;
    QLabel *m_message = nullptr;
    QChartView *m_view = nullptr;
    QChart *m_chart = nullptr;
    QLineSeries *m_used = nullptr;
    QLineSeries *m_size = nullptr;
    QDateTimeAxis *m_timeAxis = nullptr;
    QValueAxis *m_valueAxis = nullptr;
};

} // namespace strata::views
