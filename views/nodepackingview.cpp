#include "views/nodepackingview.h"

#include "views/paintedwidget.h"
#include "views/statusdelegate.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QPainter>

#include <cmath>

namespace strata::views {

namespace {

constexpr qreal kMargin = 8;
constexpr qreal kGap = 6;

} // namespace

NodePackingView::NodePackingView(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("nodePackingView"));
    setMouseTracking(true);
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

NodePackingView::~NodePackingView() = default;

void NodePackingView::setNodes(QList<core::GpuNode> nodes)
{
    if (nodes == m_nodes) {
        return;
    }
    m_nodes = std::move(nodes);
    updateGeometry();
    update();
}

QString NodePackingView::slotText(const core::GpuSlot &slot)
{
    return slot.jobs.join(QStringLiteral(" + "));
}

QString NodePackingView::headerText(const core::GpuNode &node)
{
    QStringList parts{node.name};
    if (!node.gpuProduct.isEmpty()) {
        parts << node.gpuProduct;
    }
    parts << tr("%1/%2 GPUs allocated").arg(core::formatGpus(node.allocated), core::formatGpus(node.allocatable));
    if (node.utilization >= 0) {
        parts << tr("utilization %1 %").arg(QString::number(node.utilization, 'f', 0));
    }
    if (!node.ready) {
        parts << tr("not ready");
    } else if (!node.schedulable) {
        parts << tr("cordoned");
    }
    return parts.join(QStringLiteral("  ·  "));
}

NodePackingView::Layout
NodePackingView::computeLayout(const QList<core::GpuNode> &nodes, qreal width, const QFontMetricsF &fm)
{
    Layout layout;
    const qreal line = fm.height();
    const qreal cellWidth = std::max(fm.horizontalAdvance(QStringLiteral("b-1-g06 0.6 + b-2")), line * 8);
    const qreal cellHeight = line * 4 + kGap;
    const qreal usable = std::max(width - 2 * kMargin, cellWidth);
    qreal y = kMargin;
    for (const core::GpuNode &node : nodes) {
        NodeBlock block;
        block.node = node.name;
        block.header = headerText(node);
        block.headerRect = QRectF(kMargin, y, usable, line + 4);
        layout.nodes.append(block);
        y += line + 4 + kGap / 2;
        const int slots = int(node.slots.size());
        const int perRow = std::max(1, std::min(std::max(slots, 1), int((usable + kGap) / (cellWidth + kGap))));
        // Cells share the row's width so a node's GPUs line up edge to edge.
        const qreal w = (usable - kGap * (perRow - 1)) / perRow;
        for (int i = 0; i < slots; ++i) {
            const core::GpuSlot &slot = node.slots[i];
            Cell cell;
            cell.node = node.name;
            cell.index = slot.index;
            cell.used = slot.used;
            cell.utilization = slot.utilization;
            cell.jobsText = slotText(slot);
            const int row = i / perRow;
            const int column = i % perRow;
            cell.rect = QRectF(kMargin + column * (w + kGap), y + row * (cellHeight + kGap), w, cellHeight);
            const qreal barHeight = std::max<qreal>(4, line * 0.4);
            const QRectF bar(
                cell.rect.left() + 4, cell.rect.bottom() - barHeight - 4, cell.rect.width() - 8, barHeight);
            cell.fillRect = QRectF(bar.topLeft(),
                                   QSizeF(bar.width() * std::clamp(qreal(slot.used) / 1000.0, 0.0, 1.0), bar.height()));
            layout.cells.append(cell);
        }
        const int rows = slots == 0 ? 0 : (slots + perRow - 1) / perRow;
        y += rows * (cellHeight + kGap) + kGap;
    }
    layout.height = y + kMargin;
    return layout;
}

NodePackingView::Layout NodePackingView::currentLayout() const
{
    return computeLayout(m_nodes, width(), QFontMetricsF(font()));
}

int NodePackingView::heightForWidth(int width) const
{
    return int(std::ceil(computeLayout(m_nodes, width, QFontMetricsF(font())).height));
}

QSize NodePackingView::sizeHint() const
{
    return {600, heightForWidth(600)};
}

void NodePackingView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    const QColor muted = pal.color(QPalette::Disabled, QPalette::WindowText);
    const QFontMetricsF fm(font());
    if (m_nodes.isEmpty()) {
        painter.setPen(muted);
        painter.drawText(rect(), Qt::AlignCenter, tr("No GPU nodes in this cluster"));
        return;
    }
    const QColor used = StatusDelegate::colorFor(QStringLiteral("running"), pal, true);
    const Layout layout = currentLayout();
    QFont bold = font();
    bold.setBold(true);
    for (const NodeBlock &block : layout.nodes) {
        painter.setFont(bold);
        painter.setPen(text);
        painter.drawText(block.headerRect,
                         Qt::AlignLeft | Qt::AlignVCenter,
                         fm.elidedText(block.header, Qt::ElideRight, block.headerRect.width()));
    }
    painter.setFont(font());
    for (const Cell &cell : layout.cells) {
        QColor background = pal.color(QPalette::Base);
        painter.setPen(QPen(muted, 1));
        painter.setBrush(background);
        painter.drawRoundedRect(cell.rect.adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
        const QRectF inner = cell.rect.adjusted(6, 3, -6, -3);
        painter.setPen(text);
        painter.drawText(QRectF(inner.left(), inner.top(), inner.width(), fm.height()),
                         Qt::AlignLeft | Qt::AlignTop,
                         tr("GPU %1").arg(cell.index));
        if (cell.utilization >= 0) {
            painter.setPen(muted);
            painter.drawText(QRectF(inner.left(), inner.top(), inner.width(), fm.height()),
                             Qt::AlignRight | Qt::AlignTop,
                             QString::number(cell.utilization, 'f', 0) + QStringLiteral(" %"));
        }
        // Job lines: one per job, the last line says how many more do not fit.
        const QStringList jobs = cell.jobsText.isEmpty() ? QStringList() : cell.jobsText.split(QStringLiteral(" + "));
        painter.setPen(cell.used > 0 ? text : muted);
        const int room = 2;
        for (int i = 0; i < std::min<int>(int(jobs.size()), room); ++i) {
            QString lineText = jobs[i];
            if (i == room - 1 && jobs.size() > room) {
                lineText = tr("+%n more", nullptr, int(jobs.size()) - room + 1);
            }
            painter.drawText(QRectF(inner.left(), inner.top() + fm.height() * (i + 1), inner.width(), fm.height()),
                             Qt::AlignLeft | Qt::AlignTop,
                             fm.elidedText(lineText, Qt::ElideMiddle, inner.width()));
        }
        if (jobs.isEmpty()) {
            painter.drawText(QRectF(inner.left(), inner.top() + fm.height(), inner.width(), fm.height()),
                             Qt::AlignLeft | Qt::AlignTop,
                             tr("idle"));
        }
        const QRectF track(cell.fillRect.left(), cell.fillRect.top(), cell.rect.width() - 8, cell.fillRect.height());
        painter.setPen(Qt::NoPen);
        painter.setBrush(pal.color(QPalette::Midlight));
        painter.drawRoundedRect(track, 2, 2);
        painter.setBrush(used);
        painter.drawRoundedRect(cell.fillRect, 2, 2);
    }
}

bool NodePackingView::event(QEvent *event)
{
    const auto tipAt = [this](const QPoint &pos) {
        for (const Cell &cell : currentLayout().cells) {
            if (cell.rect.contains(pos)) {
                QString tip =
                    tr("%1, GPU %2: %3 of 1 GPU used").arg(cell.node).arg(cell.index).arg(core::formatGpus(cell.used));
                if (!cell.jobsText.isEmpty()) {
                    tip += QLatin1Char('\n') + cell.jobsText;
                }
                if (cell.utilization >= 0) {
                    tip += QLatin1Char('\n') + tr("Utilization %1 %").arg(QString::number(cell.utilization, 'f', 1));
                }
                return tip;
            }
        }
        return QString();
    };
    return handlePaintedWidgetEvent(this, event, tipAt) || QWidget::event(event);
}

} // namespace strata::views
