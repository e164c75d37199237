#include "views/statusdelegate.h"

#include "models/item/roles.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QEvent>
#include <QPainter>

namespace strata::views {

namespace {

constexpr int kDotSize = 8;
constexpr int kDotMargin = 6;

} // namespace

StatusDelegate::StatusDelegate(QAbstractItemView *view, Mode mode)
    : QStyledItemDelegate(view)
    , m_view(view)
    , m_viewObject(view)
    , m_mode(mode)
{
    if (view) {
        view->installEventFilter(this);
    }
    updatePalette();
}

bool StatusDelegate::isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

QColor StatusDelegate::colorFor(const QString &status, const QPalette &palette, bool forBadge)
{
    if (status == QLatin1String("none")) {
        return {};
    }
    const bool dark = isDark(palette);
    // Material-like tones: saturated enough to read on a light base, lighter on a dark one.
    if (status == QLatin1String("critical") || status == QLatin1String("failed")) {
        return dark ? QColor(0xef, 0x6c, 0x6c) : QColor(0xc6, 0x28, 0x28);
    }
    if (status == QLatin1String("warning")) {
        return dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0xb2, 0x5c, 0x00);
    }
    if (status == QLatin1String("running") || status == QLatin1String("starting")) {
        return dark ? QColor(0x64, 0xb5, 0xf6) : QColor(0x15, 0x65, 0xc0);
    }
    if (status == QLatin1String("preempted")) {
        // Distinct from a new pending job and from warnings: paused work that will run again.
        return dark ? QColor(0xce, 0x93, 0xd8) : QColor(0x8e, 0x24, 0xaa);
    }
    if (status == QLatin1String("pending")) {
        return dark ? QColor(0xb0, 0xbe, 0xc5) : QColor(0x54, 0x6e, 0x7a);
    }
    if (status == QLatin1String("offline") || status == QLatin1String("unknown") || status == QLatin1String("stale")) {
        return palette.color(QPalette::Disabled, QPalette::Text);
    }
    if (status == QLatin1String("succeeded") || forBadge) {
        return dark ? QColor(0x81, 0xc7, 0x84) : QColor(0x2e, 0x7d, 0x32);
    }
    return {};
}

void StatusDelegate::updatePalette()
{
    m_palette = m_view ? m_view->palette() : QApplication::palette();
    m_dark = isDark(m_palette);
    ++m_generation;
}

bool StatusDelegate::eventFilter(QObject *watched, QEvent *event)
{
    // Identity by QObject: while the view is being destroyed it still sends events (as a plain
    // QWidget by then), and turning m_view back into a QAbstractItemView is undefined (UBSan).
    if (watched != m_viewObject) {
        return QStyledItemDelegate::eventFilter(watched, event); // an editor
    }
    // The view itself is only watched for palette changes; QStyledItemDelegate's editor handling
    // (commit on focus-out) must not see its events.
    auto *view = qobject_cast<QAbstractItemView *>(watched); // null once only QWidget is left
    if (view && (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)) {
        updatePalette();
        view->viewport()->update();
    }
    return false;
}

void StatusDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    const QString status = index.data(models::StatusRole).toString();
    const bool stale = index.data(models::StaleRole).toBool();
    QColor color;
    if (m_mode == Mode::Text) {
        // Whole rows only call for attention; good news stays in the badge column.
        if (status != QLatin1String("succeeded") && status != QLatin1String("running")) {
            color = colorFor(status, m_palette);
        }
    } else if (status != QLatin1String("ok")) {
        color = colorFor(status, m_palette, true); // the dot says "OK"; its text keeps the text colour
    }
    if (stale) {
        option->font.setItalic(true);
        if (!color.isValid()) {
            color = m_palette.color(QPalette::Disabled, QPalette::Text);
        }
    }
    if (color.isValid()) {
        option->palette.setColor(QPalette::Text, color);
    }
}

void StatusDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    if (m_mode != Mode::Badge) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    const QString status = index.data(models::StatusRole).toString();
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QRect dot(opt.rect.left() + kDotMargin, opt.rect.center().y() - kDotSize / 2 + 1, kDotSize, kDotSize);
    opt.rect.setLeft(opt.rect.left() + kDotSize + 2 * kDotMargin - 2);
    const QWidget *widget = opt.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    // Background and selection across the full cell, then the dot, then the shifted text.
    QStyleOptionViewItem background = option;
    initStyleOption(&background, index);
    background.text.clear();
    style->drawControl(QStyle::CE_ItemViewItem, &background, painter, widget);
    if (status != QLatin1String("none")) {
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(Qt::NoPen);
        painter->setBrush(colorFor(status.isEmpty() ? QStringLiteral("unknown") : status, m_palette, true));
        painter->drawEllipse(dot);
        painter->restore();
    }
    opt.backgroundBrush = Qt::NoBrush;
    opt.state &= ~QStyle::State_Selected;
    if (option.state & QStyle::State_Selected) {
        opt.palette.setColor(QPalette::Text, option.palette.color(QPalette::HighlightedText));
    }
    opt.state &= ~QStyle::State_HasFocus;
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
}

QSize StatusDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (m_mode == Mode::Badge) {
        size.rwidth() += kDotSize + 2 * kDotMargin;
    }
    return size;
}

} // namespace strata::views
