#include "views/bardelegate.h"

#include "models/item/roles.h"
#include "views/statusdelegate.h"

#include <QApplication>
#include <QPainter>

#include <algorithm>

namespace strata::views {

namespace {

// Bar size limits and the gap to its text, in pixels.
constexpr int kBarMinWidth = 40;
constexpr int kBarWidth = 80;
constexpr int kBarTextGap = 6;

} // namespace

BarDelegate::BarDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{}

BarDelegate::~BarDelegate() = default;

void BarDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QVariant raw = index.data(models::RawValueRole);
    bool ok = false;
    const double percent = raw.toDouble(&ok);
    if (!raw.isValid() || !ok || percent < 0) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QWidget *widget = opt.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    QStyleOptionViewItem background = opt;
    background.text.clear();
    style->drawControl(QStyle::CE_ItemViewItem, &background, painter, widget);

    // The bar first, its text beside it: text over the bar ran across the watermark line.
    const QRect cell = opt.rect.adjusted(3, 3, -3, -3);
    // One bar width down the column (the bars compare at a glance); narrower only in a narrow cell.
    const int barWidth = std::min(kBarWidth, std::max(cell.width() / 3, kBarMinWidth));
    const QRect bar(cell.left(), cell.top(), std::min(barWidth, cell.width()), cell.height());
    const QRect textRect(
        bar.right() + kBarTextGap, cell.top(), cell.right() - bar.right() - kBarTextGap, cell.height());
    const QString status = index.data(models::StatusRole).toString();
    QColor fill = StatusDelegate::colorFor(status.isEmpty() ? QStringLiteral("ok") : status, opt.palette, true);
    fill.setAlpha(110);
    painter->save();
    painter->setPen(opt.palette.color(QPalette::Mid));
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(bar.adjusted(0, 0, -1, -1));
    QRect filled = bar.adjusted(1, 1, -1, -1);
    filled.setWidth(int(double(filled.width()) * std::clamp(percent, 0.0, 100.0) / 100.0));
    painter->fillRect(filled, fill);
    const QVariant limit = index.data(models::LimitRole);
    if (limit.isValid()) {
        const int x = bar.left() + int(double(bar.width()) * std::clamp(limit.toDouble(), 0.0, 100.0) / 100.0);
        painter->setPen(QPen(StatusDelegate::colorFor(QStringLiteral("critical"), opt.palette, true), 2));
        painter->drawLine(x, bar.top(), x, bar.bottom());
    }
    painter->setPen(
        opt.palette.color(option.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
    painter->drawText(textRect,
                      Qt::AlignVCenter | Qt::AlignLeft,
                      opt.fontMetrics.elidedText(opt.text, Qt::ElideRight, std::max(0, textRect.width())));
    painter->restore();
}

QSize BarDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QSize base = QStyledItemDelegate::sizeHint(option, index);
    return {kBarWidth + kBarTextGap + opt.fontMetrics.horizontalAdvance(opt.text) + 10, base.height()};
}

} // namespace strata::views
