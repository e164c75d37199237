#pragma once

#include "models/core/domain.h"
#include "models/core/historystore.h"

#include <QHash>
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

/// GPU allocation per project over time (SCHEDULING.md 3.2.2, the Analytics dashboard): one
/// step line per project with its quota as a dashed horizontal line in the same colour, and,
/// in a second chart below on its own 0-100 % axis, each project's GPU utilization (never mixed
/// with allocation, 3.2.3). Samples come from HistoryService::projectHistory (stored only on
/// change), so every line is held to the right edge with its last value or the live value.
/// Follows the widget palette (light/dark). Shows a message instead of empty plots.
class AllocationHistoryChart final : public QWidget
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
    void setMessage(const QString &message);

    [[nodiscard]] bool showsChart() const;
    [[nodiscard]] QStringList projectNames() const;
    /// Points of a project's allocation line (x = ms since epoch, y = GPUs).
    [[nodiscard]] QList<QPointF> allocationPoints(const QString &project) const;
    [[nodiscard]] QList<QPointF> quotaPoints(const QString &project) const;
    [[nodiscard]] QList<QPointF> utilizationPoints(const QString &project) const;

    /// A step line through (time, value) pairs, held to `end`: each value stays until the next.
    static QList<QPointF> stepPoints(const std::vector<std::pair<QDateTime, double>> &values, const QDateTime &end);
    /// A distinct colour per project index, readable on light or dark backgrounds.
    static QColor projectColor(int index, bool dark);

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyPalette();
    void clearSeries();

    QStackedWidget *m_stack = nullptr;
    QLabel *m_message = nullptr;
    QWidget *m_charts = nullptr;
    QChart *m_allocationChart = nullptr;
    QChart *m_utilizationChart = nullptr;
    QChartView *m_allocationView = nullptr;
    QChartView *m_utilizationView = nullptr;
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
