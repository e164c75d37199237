#pragma once

#include "models/core/domain.h"
#include "models/core/historystore.h"
#include "views/historychart.h"

#include <QHash>

class QChart;
class QDateTimeAxis;
class QLineSeries;
class QValueAxis;

namespace strata::views {

/// GPU allocation per project over time (SCHEDULING.md 3.2.2, the Analytics dashboard): one
/// step line per project with its quota as a dashed horizontal line in the same colour, and,
/// in a second chart below on its own 0-100 % axis, each project's GPU utilization (never mixed
/// with allocation, 3.2.3). Samples come from HistoryService::projectHistory (stored only on
/// change), so every line is held to the right edge with its last value or the live value.
/// Follows the widget palette (light/dark). Shows a message instead of empty plots.
class AllocationHistoryChart final : public HistoryChart
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AllocationHistoryChart)

public:
    explicit AllocationHistoryChart(QWidget *parent = nullptr);
    ~AllocationHistoryChart() override;

    /// `samples` by project then time (HistoryService order). `current` (optional) are the live
    /// projects, appended at `to` so the lines reach the present.
    void setHistory(const std::vector<core::ProjectSample> &samples,
                    const QDateTime &from,
                    const QDateTime &to,
                    const QList<core::Project> &current = {});

    [[nodiscard]] QStringList projectNames() const;
    /// Points of a project's allocation line (x = ms since epoch, y = GPUs).
    [[nodiscard]] QList<QPointF> allocationPoints(const QString &project) const;
    [[nodiscard]] QList<QPointF> quotaPoints(const QString &project) const;
    [[nodiscard]] QList<QPointF> utilizationPoints(const QString &project) const;
    /// The utilization chart's title: "GPU utilization", "… · measured since 13:54" when the
    /// first measured sample (GPUs held) is well inside the range, "… · none measured in this
    /// range" when no sample has a utilization (an idle cluster).
    [[nodiscard]] QString utilizationTitle() const;

protected:
    /// Each project's colour (seriesColor() by project index) on its three lines.
    void applySeriesPens(const QPalette &palette, bool dark) override;

private:
    void clearSeries();

    QChart *m_allocationChart = nullptr;
    QChart *m_utilizationChart = nullptr;
    QDateTimeAxis *m_allocationTime = nullptr;
    QValueAxis *m_allocationValue = nullptr;
    QDateTimeAxis *m_utilizationTime = nullptr;
    QValueAxis *m_utilizationValue = nullptr;
    QStringList m_projects;
    QHash<QString, QLineSeries *> m_allocation;
    QHash<QString, QLineSeries *> m_quota;
    QHash<QString, QLineSeries *> m_utilization;
};

} // namespace strata::views
