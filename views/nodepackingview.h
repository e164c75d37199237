#pragma once

#include "models/core/domain/records.h"

#include <QList>
#include <QRectF>
#include <QWidget>

class QFontMetricsF;

namespace strata::views {

/// How jobs are packed onto GPUs (SCHEDULING.md 3.2.5): per node a header (name, GPU model,
/// allocated/allocatable GPUs, utilization) and one cell per physical GPU, filled in proportion
/// to GpuSlot::used, listing the jobs on it ("b-1-g06 0.6 + b-2-g04 0.4") and its utilization
/// when known. Cells wrap to the widget's width (heightForWidth), so it sits in a scroll area.
class NodePackingView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NodePackingView)

public:
    struct Cell
    {
        QString node;
        int index = 0;
        core::MilliGpu used = 0;
        double utilization = -1;
        QString jobsText; ///< slotText()
        QRectF rect;
        QRectF fillRect; ///< the used part of the cell's fill bar
    };
    struct NodeBlock
    {
        QString node;
        QString header; ///< "dgx1-1  Tesla-V100-SXM2-32GB  8/8 GPUs  util 45 %"
        QRectF headerRect;
    };
    struct Layout
    {
        QList<NodeBlock> nodes;
        QList<Cell> cells;
        qreal height = 0;
    };

    explicit NodePackingView(QWidget *parent = nullptr);
    ~NodePackingView() override;

    /// One cluster's nodes, in the given order.
    void setNodes(QList<core::GpuNode> nodes);
    [[nodiscard]] const QList<core::GpuNode> &nodes() const { return m_nodes; }

    /// "b-1-g06 0.6 + b-2-g04 0.4"; empty for an idle GPU.
    static QString slotText(const core::GpuSlot &slot);
    static QString headerText(const core::GpuNode &node);
    static Layout computeLayout(const QList<core::GpuNode> &nodes, qreal width, const QFontMetricsF &fm);
    [[nodiscard]] Layout currentLayout() const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    QList<core::GpuNode> m_nodes;
};

} // namespace strata::views
