#pragma once

#include "models/core/store/historystore.h"
#include "views/historychart.h"

class QDateTimeAxis;
class QLineSeries;
class QValueAxis;

namespace strata::views {

/// A volume's capacity over time: used bytes and provisioned size as two lines over a date axis
/// (the last 7 days by default), scaled to a binary unit that fits. Shows a hint instead of an
/// empty plot while there is no history. Follows the widget palette (light/dark).
class CapacityChart final : public HistoryChart
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

    [[nodiscard]] int pointCount() const;

protected:
    void applySeriesPens(const QPalette &palette, bool dark) override;

private:
    QLineSeries *m_used = nullptr;
    QLineSeries *m_size = nullptr;
    QDateTimeAxis *m_timeAxis = nullptr;
    QValueAxis *m_valueAxis = nullptr;
};

} // namespace strata::views
