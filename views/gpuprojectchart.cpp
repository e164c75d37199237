#include "views/gpuprojectchart.h"

#include "views/paintedwidget.h"
#include "views/statusdelegate.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>

#include <cmath>
#include <functional>

namespace strata::views {

namespace {

constexpr qreal kChartMargin = 8;

/// A readable grid step in GPUs for `scaleGpus` over `width` pixels.
int tickStep(qreal scaleGpus, qreal width, qreal labelWidth)
{
    for (int step : {1, 2, 4, 5, 8, 10, 16, 20, 25, 50, 100, 200, 500, 1000}) {
        if (width * step / std::max<qreal>(scaleGpus, 1) >= labelWidth * 2.2) {
            return step;
        }
    }
    return 1000;
}

QColor withAlpha(QColor c, int alpha)
{
    c.setAlpha(alpha);
    return c;
}

} // namespace

GpuProjectChart::GpuProjectChart(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("gpuProjectChart"));
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

GpuProjectChart::~GpuProjectChart() = default;

void GpuProjectChart::setProjects(QList<core::Project> projects)
{
    if (projects == m_projects) {
        return;
    }
    m_projects = std::move(projects);
    updateGeometry();
    update();
}

QString GpuProjectChart::label(const core::Project &project)
{
    return core::formatGpus(project.allocated) + QLatin1Char('/')
           + (project.quota < 0 ? QStringLiteral("-") : core::formatGpus(project.quota));
}

QString GpuProjectChart::toolTipText(const core::Project &p)
{
    QStringList lines;
    lines << tr("Project %1: %2 GPUs allocated").arg(p.name, core::formatGpus(p.allocated));
    lines << (p.quota < 0 ? tr("No quota") : tr("Quota: %1 GPUs").arg(core::formatGpus(p.quota)));
    lines << tr("In quota: %1, over quota: %2").arg(core::formatGpus(p.inQuota), core::formatGpus(p.overQuota));
    lines << tr("Pending demand: %1 GPUs in %Ln queued jobs", nullptr, p.queuedJobs).arg(core::formatGpus(p.pending));
    lines << tr("Fair share: %1 GPUs").arg(core::formatGpus(p.fairShare));
    lines << tr("Running jobs: %1").arg(p.runningJobs);
    lines << (p.utilization >= 0 ? tr("GPU utilization: %1 %").arg(QString::number(p.utilization, 'f', 1))
                                 : tr("GPU utilization: unknown"));
    return lines.join(QLatin1Char('\n'));
}

GpuProjectChart::Layout
GpuProjectChart::computeLayout(const QList<core::Project> &projects, const QRectF &area, const QFontMetricsF &fm)
{
    Layout layout;
    const qreal lineHeight = fm.height();
    qreal nameWidth = fm.horizontalAdvance(QStringLiteral("project"));
    qreal labelWidth = fm.horizontalAdvance(QStringLiteral("00/00"));
    qreal utilWidth = 0;
    core::MilliGpu scale = 1000;
    for (const core::Project &p : projects) {
        nameWidth = std::max(nameWidth, fm.horizontalAdvance(p.name));
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(label(p)));
        if (p.utilization >= 0) {
            utilWidth = std::max(utilWidth, fm.horizontalAdvance(QStringLiteral("100 %")));
        }
        scale = std::max({scale, p.allocated + p.pending, p.quota});
    }
    // Whole GPUs at the right edge, so grid lines fall on GPUs.
    layout.scaleMax = (scale + 999) / 1000 * 1000;
    nameWidth = std::min(nameWidth, area.width() * 0.3);

    const qreal legendHeight = lineHeight + kChartMargin;
    const qreal axisHeight = lineHeight + 4;
    const qreal rowHeight = std::round(lineHeight * 1.9);
    const qreal barHeight = std::round(lineHeight * 1.1);
    const qreal left = area.left() + kChartMargin + nameWidth + kChartMargin;
    const qreal right =
        area.right() - kChartMargin - labelWidth - (utilWidth > 0 ? utilWidth + kChartMargin : 0) - kChartMargin;
    layout.plot = QRectF(QPointF(left, area.top() + kChartMargin),
                         QPointF(std::max(left + 1, right), area.top() + kChartMargin + rowHeight * projects.size()));
    layout.legend = QRectF(area.left() + kChartMargin,
                           layout.plot.bottom() + axisHeight + kChartMargin / 2,
                           area.width() - 2 * kChartMargin,
                           legendHeight);

    const qreal scaleGpus = qreal(layout.scaleMax) / 1000.0;
    const int step = tickStep(scaleGpus, layout.plot.width(), fm.horizontalAdvance(QStringLiteral("000")));
    for (int g = 0; g <= int(scaleGpus); g += step) {
        layout.ticks.append({layout.xFor(core::MilliGpu(g) * 1000), QString::number(g)});
    }

    for (int i = 0; i < projects.size(); ++i) {
        const core::Project &p = projects[i];
        Bar bar;
        bar.project = p.name;
        bar.quota = p.quota;
        bar.allocated = p.allocated;
        bar.inQuota = p.quota < 0 ? p.allocated : std::min(p.allocated, p.quota);
        bar.overQuota = p.quota < 0 ? 0 : std::max<core::MilliGpu>(0, p.allocated - p.quota);
        bar.pending = p.pending;
        bar.utilization = p.utilization;
        bar.label = label(p);
        bar.utilizationText =
            p.utilization >= 0 ? QString::number(p.utilization, 'f', 0) + QStringLiteral(" %") : QString();
        const qreal top = layout.plot.top() + i * rowHeight;
        bar.row = QRectF(area.left(), top, area.width(), rowHeight);
        const qreal barTop = top + (rowHeight - barHeight) / 2;
        bar.nameRect = QRectF(area.left() + kChartMargin, top, nameWidth, rowHeight);
        const qreal x0 = layout.plot.left();
        const qreal xIn = layout.xFor(bar.inQuota);
        const qreal xAlloc = layout.xFor(bar.inQuota + bar.overQuota);
        bar.inQuotaRect = QRectF(QPointF(x0, barTop), QPointF(xIn, barTop + barHeight));
        bar.overQuotaRect =
            bar.overQuota > 0 ? QRectF(QPointF(xIn, barTop), QPointF(xAlloc, barTop + barHeight)) : QRectF();
        bar.pendingRect = bar.pending > 0 ? QRectF(QPointF(xAlloc, barTop),
                                                   QPointF(layout.xFor(p.allocated + p.pending), barTop + barHeight))
                                          : QRectF();
        bar.quotaX = p.quota >= 0 ? layout.xFor(p.quota) : -1;
        bar.labelRect =
            QRectF(layout.plot.right() + kChartMargin, top, labelWidth + kChartMargin + utilWidth, rowHeight);
        layout.bars.append(bar);
    }
    return layout;
}

GpuProjectChart::Layout GpuProjectChart::currentLayout() const
{
    return computeLayout(m_projects, QRectF(rect()), QFontMetricsF(font()));
}

QSize GpuProjectChart::sizeHint() const
{
    const QFontMetricsF fm(font());
    const int rows = std::max<int>(1, int(m_projects.size()));
    return {480, int(fm.height() * 1.9 * rows + fm.height() * 3 + 4 * kChartMargin)};
}

QSize GpuProjectChart::minimumSizeHint() const
{
    const QFontMetricsF fm(font());
    return {240,
            int(fm.height() * 1.9 * std::max<int>(1, int(m_projects.size())) + fm.height() * 3 + 3 * kChartMargin)};
}

void GpuProjectChart::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    const QColor muted = pal.color(QPalette::Disabled, QPalette::WindowText);
    if (m_projects.isEmpty()) {
        painter.setPen(muted);
        painter.drawText(rect(), Qt::AlignCenter, tr("No projects in this cluster"));
        return;
    }
    const QColor inColor = StatusDelegate::colorFor(QStringLiteral("running"), pal, true);
    const QColor overColor = StatusDelegate::colorFor(QStringLiteral("warning"), pal, true);
    const QColor pendingColor = muted;
    const Layout layout = currentLayout();
    const QFontMetricsF fm(font());

    // Grid and axis.
    QPen grid(withAlpha(muted, 70));
    grid.setCosmetic(true);
    for (const auto &[x, tickLabel] : layout.ticks) {
        painter.setPen(grid);
        painter.drawLine(QPointF(x, layout.plot.top()), QPointF(x, layout.plot.bottom()));
        painter.setPen(muted);
        const qreal w = fm.horizontalAdvance(tickLabel);
        painter.drawText(QPointF(x - w / 2, layout.plot.bottom() + fm.ascent() + 2), tickLabel);
    }

    for (const Bar &bar : layout.bars) {
        painter.setPen(text);
        painter.drawText(bar.nameRect,
                         Qt::AlignVCenter | Qt::AlignRight,
                         fm.elidedText(bar.project, Qt::ElideMiddle, bar.nameRect.width()));
        painter.setPen(Qt::NoPen);
        painter.setBrush(inColor);
        painter.drawRect(bar.inQuotaRect);
        if (!bar.overQuotaRect.isEmpty()) {
            painter.setBrush(overColor);
            painter.drawRect(bar.overQuotaRect);
        }
        if (!bar.pendingRect.isEmpty()) {
            // Ghost: what the queued jobs ask for, outlined and hatched so it never reads as held.
            painter.setBrush(QBrush(withAlpha(pendingColor, 120), Qt::BDiagPattern));
            QPen outline(pendingColor, 1, Qt::DashLine);
            outline.setCosmetic(true);
            painter.setPen(outline);
            painter.drawRect(bar.pendingRect.adjusted(0.5, 0.5, -0.5, -0.5));
        }
        if (bar.quotaX >= 0) {
            QPen marker(text, 2);
            painter.setPen(marker);
            const qreal top = bar.inQuotaRect.top() - 3;
            const qreal bottom = bar.inQuotaRect.bottom() + 3;
            painter.drawLine(QPointF(bar.quotaX, top), QPointF(bar.quotaX, bottom));
        }
        painter.setPen(text);
        QFont bold = font();
        bold.setBold(true);
        painter.setFont(bold);
        painter.drawText(bar.labelRect, Qt::AlignVCenter | Qt::AlignLeft, bar.label);
        painter.setFont(font());
        if (!bar.utilizationText.isEmpty()) {
            painter.setPen(muted);
            painter.drawText(bar.labelRect, Qt::AlignVCenter | Qt::AlignRight, bar.utilizationText);
        }
    }

    // Legend.
    qreal x = layout.legend.left();
    const qreal swatch = fm.height() * 0.8;
    const qreal y = layout.legend.top() + (layout.legend.height() - swatch) / 2;
    auto legendItem = [&](const QString &name, const std::function<void(const QRectF &)> &draw) {
        const QRectF box(x, y, swatch * 1.6, swatch);
        draw(box);
        painter.setPen(text);
        painter.drawText(QPointF(box.right() + 4, y + swatch / 2 + fm.ascent() / 2 - 1), name);
        x = box.right() + 4 + fm.horizontalAdvance(name) + 2 * kChartMargin;
    };
    legendItem(tr("In quota"), [&](const QRectF &box) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(inColor);
        painter.drawRect(box);
    });
    legendItem(tr("Over quota"), [&](const QRectF &box) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(overColor);
        painter.drawRect(box);
    });
    legendItem(tr("Pending demand"), [&](const QRectF &box) {
        painter.setBrush(QBrush(withAlpha(pendingColor, 120), Qt::BDiagPattern));
        QPen outline(pendingColor, 1, Qt::DashLine);
        outline.setCosmetic(true);
        painter.setPen(outline);
        painter.drawRect(box);
    });
    legendItem(tr("Quota"), [&](const QRectF &box) {
        painter.setPen(QPen(text, 2));
        painter.drawLine(QPointF(box.center().x(), box.top() - 2), QPointF(box.center().x(), box.bottom() + 2));
    });
}

bool GpuProjectChart::event(QEvent *event)
{
    return handlePaintedWidgetEvent(this,
                                    event,
                                    [this](const QPoint &pos) {
                                        const Layout layout = currentLayout();
                                        for (int i = 0; i < layout.bars.size(); ++i) {
                                            if (layout.bars[i].row.contains(pos)) {
                                                return toolTipText(m_projects[i]);
                                            }
                                        }
                                        return QString();
                                    })
           || QWidget::event(event);
}

} // namespace strata::views
