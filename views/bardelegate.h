#pragma once

#include <QStyledItemDelegate>

namespace strata::views {

/// Paints a cell as a horizontal bar: the fill is RawValueRole in percent (0..100; values below
/// zero or invalid paint the text only), coloured by StatusRole through StatusDelegate::colorFor,
/// with a vertical marker at LimitRole (a watermark, same scale) when set, and the DisplayRole text
/// beside it (never over the bar or its marker; elided with the cell's tooltip when narrow). Used
/// for loading progress and cache-target usage.
class BarDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BarDelegate)

public:
    explicit BarDelegate(QObject *parent = nullptr);
    ~BarDelegate() override;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    /// Room for the widest bar and the whole text.
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace strata::views
