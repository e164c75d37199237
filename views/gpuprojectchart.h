#pragma once

#include "models/core/domain/records.h"

#include <QList>
#include <QRectF>
#include <QWidget>

class QFontMetricsF;

namespace strata::views {

/// The "GPUs per project" chart of TR-4858 (SCHEDULING.md 3.2.1), painted directly: one
/// horizontal bar per project on a common GPU scale, split into the in-quota segment
/// (min(allocated, quota)) and the over-quota segment, a quota marker, a pending-demand ghost
/// segment after the allocation, the document's allocated/quota label with decimals ("4/2",
/// "0.6/2") and the project's utilization when known; a legend below. Tooltips give exact
/// values. Geometry is computed by computeLayout() (pure, testable) from logical pixels and the
/// font, so it follows the screen's DPI; colours come from StatusDelegate for the palette
/// (light/dark) and are re-read on palette changes.
class GpuProjectChart final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GpuProjectChart)

public:
    struct Bar
    {
        QString project;
        core::MilliGpu quota = 0; ///< -1 = none
        core::MilliGpu allocated = 0;
        core::MilliGpu inQuota = 0;
        core::MilliGpu overQuota = 0;
        core::MilliGpu pending = 0;
        double utilization = -1;
        QString label;           ///< "8/4"
        QString utilizationText; ///< "97 %", empty when unknown
        QRectF row;              ///< the whole row (hit area for tooltips)
        QRectF nameRect;
        QRectF inQuotaRect;
        QRectF overQuotaRect;
        QRectF pendingRect; ///< ghost after the allocation, empty when nothing is pending
        qreal quotaX = -1;  ///< x of the quota marker, -1 when the project has no quota
        QRectF labelRect;
    };

    struct Layout
    {
        QList<Bar> bars;
        QRectF plot;                        ///< the bar area (GPU 0 at plot.left())
        core::MilliGpu scaleMax = 0;        ///< GPUs at plot.right()
        QList<QPair<qreal, QString>> ticks; ///< x and label of the GPU grid lines
        QRectF legend;
        [[nodiscard]] qreal xFor(core::MilliGpu milli) const
        {
            return scaleMax > 0 ? plot.left() + plot.width() * qreal(milli) / qreal(scaleMax) : plot.left();
        }
    };

    explicit GpuProjectChart(QWidget *parent = nullptr);
    ~GpuProjectChart() override;

    /// The projects to show, in the given order (one cluster's projects).
    void setProjects(QList<core::Project> projects);
    [[nodiscard]] const QList<core::Project> &projects() const { return m_projects; }

    /// Geometry for the current size and font.
    [[nodiscard]] Layout currentLayout() const;
    /// Geometry of `projects` inside `area` for a font with metrics `fm`.
    static Layout computeLayout(const QList<core::Project> &projects, const QRectF &area, const QFontMetricsF &fm);
    /// "8/4", "0.6/2", "3/-" for a project without quota.
    static QString label(const core::Project &project);
    /// Exact values of one project, one per line.
    static QString toolTipText(const core::Project &project);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    QList<core::Project> m_projects;
};

} // namespace strata::views
