#include "views/paintedwidget.h"

#include <QHelpEvent>
#include <QToolTip>
#include <QWidget>

namespace strata::views {

bool handlePaintedWidgetEvent(QWidget *widget, QEvent *event, const std::function<QString(const QPoint &)> &tipAt)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const QString tip = tipAt(help->pos());
        if (tip.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), tip, widget);
        }
        return true;
    }
    if (event->type() == QEvent::PaletteChange) {
        widget->update();
    }
    return false;
}

} // namespace strata::views
