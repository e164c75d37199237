#include "views/plaintextguard.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QHelpEvent>
#include <QLabel>
#include <QTextDocument>
#include <QToolTip>

namespace strata::views {

namespace {

/// `text` as a tooltip that shows every character as typed.
QString literalToolTip(const QString &text)
{
    return QStringLiteral("<p style=\"white-space:pre-wrap\">") + text.toHtmlEscaped() + QStringLiteral("</p>");
}

} // namespace

PlainTextGuard::PlainTextGuard(QObject *parent)
    : QObject(parent)
{
    QCoreApplication::instance()->installEventFilter(this);
}

PlainTextGuard::~PlainTextGuard()
{
    if (QCoreApplication *app = QCoreApplication::instance()) {
        app->removeEventFilter(this);
    }
}

bool PlainTextGuard::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Polish) {
        if (auto *label = qobject_cast<QLabel *>(watched); label && label->textFormat() == Qt::AutoText) {
            label->setTextFormat(Qt::PlainText);
        }
        return false;
    }
    if (event->type() != QEvent::ToolTip || !watched->isWidgetType()) {
        return false;
    }
    auto *widget = static_cast<QWidget *>(watched);
    const auto *help = static_cast<QHelpEvent *>(event);
    QString text = widget->toolTip();
    QRect area;
    if (auto *view = qobject_cast<QAbstractItemView *>(widget->parentWidget());
        view && view->viewport() == widget && view->model()) {
        const QModelIndex index = view->indexAt(help->pos());
        text = index.data(Qt::ToolTipRole).toString();
        area = view->visualRect(index);
    }
    if (!Qt::mightBeRichText(text)) {
        return false; // Qt shows it as plain text anyway
    }
    QToolTip::showText(help->globalPos(), literalToolTip(text), widget, area);
    return true;
}

} // namespace strata::views
