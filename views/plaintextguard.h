#pragma once

#include <QObject>

namespace strata::views {

/// Shows vendor and user text as the text it is. Names, messages and keys come from vendors and
/// users, and Qt renders a string that looks like markup (Qt::mightBeRichText(): an S3 key
/// "<font color=red size=6>SECURITY ALERT…") as formatted text in a QLabel left at its default
/// Qt::AutoText and in every tooltip. This application event filter:
/// - makes every QLabel whose text format was not set Qt::PlainText when it is polished (before
///   it is first shown), so labels of pages, dialogs and message boxes created later are
///   covered; labels that show markup of ours set Qt::RichText and escape what they
///   interpolate (toHtmlEscaped());
/// - shows a tooltip (a widget's toolTip() or an item view's Qt::ToolTipRole) that would be
///   taken for markup escaped, so it reads literally. No tooltip of Strata's uses markup.
/// One instance per application (MainWindow makes it); it uninstalls itself when destroyed.
class PlainTextGuard final : public QObject
{
    Q_OBJECT

public:
    explicit PlainTextGuard(QObject *parent = nullptr);
    ~PlainTextGuard() override;

    bool eventFilter(QObject *watched, QEvent *event) override;
};

} // namespace strata::views
