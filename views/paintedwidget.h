#pragma once

#include <QString>

#include <functional>

class QEvent;
class QPoint;
class QWidget;

namespace strata::views {

/// The event handling Strata's custom-painted widgets (GPU project bars, node packing) share,
/// for their QWidget::event() override: a ToolTip event shows `tipAt(position)` (widget
/// coordinates) and hides the tooltip where that is empty; a PaletteChange repaints (the paint
/// code reads the palette, so light/dark follows). Returns true when `event` was consumed
/// (tooltips); otherwise the caller passes it on to QWidget::event().
bool handlePaintedWidgetEvent(QWidget *widget, QEvent *event, const std::function<QString(const QPoint &)> &tipAt);

} // namespace strata::views
