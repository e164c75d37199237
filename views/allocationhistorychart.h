#pragma once

#include "models/core/domain/records.h"
#include "models/core/planning/allocationstack.h"
#include "models/core/store/historystore.h"
#include "views/historychart.h"

#include <QHash>

class QAreaSeries;
class QChart;
class QChartView;
class QDateTimeAxis;
class QLineSeries;
class QValueAxis;

namespace strata::views {

/// GPU allocation per project over time (SCHEDULING.md 3.2.2, the Analytics dashboard): the
/// projects' allocations stacked as step areas (core::stackAllocation: one band per project,
/// so projects holding the same count never hide each other; the top is the cluster's total)
/// with the sum of their quotas as a dashed line, a hover readout of every project's GPUs at
/// the time under the pointer, and, in a second chart below on its own 0-100 % axis, each
/// project's GPU utilization as a line (never mixed with allocation, 3.2.3). Samples come from
/// HistoryService::projectHistory (stored only on change), so every band is held to the right
/// edge with its last value or the live value. Follows the widget palette (light/dark). Shows a
/// message instead of empty plots.
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
    /// The stacked allocation drawn (bottom project first).
    [[nodiscard]] const core::AllocationStack &stack() const { return m_stack; }
    /// Step points of a project's own allocation (x = ms since epoch, y = GPUs; not stacked).
    [[nodiscard]] QList<QPointF> allocationPoints(const QString &project) const;
    /// Upper and lower edges of a project's band as drawn (stacked GPUs).
    [[nodiscard]] QList<QPointF> bandUpperPoints(const QString &project) const;
    [[nodiscard]] QList<QPointF> bandLowerPoints(const QString &project) const;
    /// The dashed quota line: the sum of the projects' quotas (empty when none has one).
    [[nodiscard]] QList<QPointF> quotaPoints() const;
    [[nodiscard]] QList<QPointF> utilizationPoints(const QString &project) const;
    /// The utilization chart's title: "GPU utilization", "… · measured since 13:54" when the
    /// first measured sample (GPUs held) is well inside the range, "… · none measured in this
    /// range" when no sample has a utilization (an idle cluster).
    [[nodiscard]] QString utilizationTitle() const;
    /// The hover readout at `time`: the time, then each project's GPUs from the top of the
    /// stack down, then the total against the quota. Empty before the first sample.
    [[nodiscard]] QString readoutAt(const QDateTime &time) const;
    /// The same for step `index` of `stack`.
    static QString readoutText(const core::AllocationStack &stack, int index);

protected:
    /// Each project's colour (seriesColor() by project index) on its band and utilization line.
    void applySeriesPens(const QPalette &palette, bool dark) override;
    /// The hover readout over the allocation chart.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void clearSeries();

    QChart *m_allocationChart = nullptr;
    QChart *m_utilizationChart = nullptr;
    QDateTimeAxis *m_allocationTime = nullptr;
    QValueAxis *m_allocationValue = nullptr;
    QDateTimeAxis *m_utilizationTime = nullptr;
    QValueAxis *m_utilizationValue = nullptr;
    QChartView *m_allocationView = nullptr;
    QStringList m_projects;
    core::AllocationStack m_stack;
    QHash<QString, QAreaSeries *> m_bands;
    QLineSeries *m_quota = nullptr;
    QHash<QString, QLineSeries *> m_utilization;
};

} // namespace strata::views
