#pragma once

#include <QColor>
#include <QPalette>
#include <QPointer>
#include <QStyledItemDelegate>

class QAbstractItemView;

namespace strata::views {

/// Maps the models' semantic StatusRole ("ok", "warning", "critical", "offline", "stale",
/// "running", "failed", "succeeded", "unknown", and for jobs "starting", "pending",
/// "preempted") to colours chosen for the current palette, and shows stale rows (StaleRole) dimmed and in italics. The
/// one place Strata picks colours: other widgets ask colorFor(). Light or dark is decided from the window colour's
/// lightness, and the colours are re-evaluated when the view's palette changes (system theme switch).
///
/// In Badge mode the cell also gets a coloured dot before its text (health/state columns); in
/// Text mode only non-"ok" states colour the text.
class StatusDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StatusDelegate)

public:
    enum class Mode
    {
        Text,
        Badge
    };

    /// Installs itself as an event filter on `view` to follow palette changes.
    explicit StatusDelegate(QAbstractItemView *view, Mode mode = Mode::Text);

    /// Colour for a semantic status in `palette`; invalid QColor for "ok" text that should keep
    /// the palette's text colour (unless `forBadge`, which always gives a colour).
    static QColor colorFor(const QString &status, const QPalette &palette, bool forBadge = false);
    /// True when `palette` is dark (window colour lightness below the midpoint).
    static bool isDark(const QPalette &palette);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    /// Number of palette re-evaluations so far (for tests).
    [[nodiscard]] int paletteGeneration() const { return m_generation; }
    [[nodiscard]] bool darkPalette() const { return m_dark; }

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updatePalette();

    QPointer<QAbstractItemView> m_view;
    QObject *m_viewObject = nullptr; ///< the same view, compared by identity only (never dereferenced)
    Mode m_mode;
    QPalette m_palette;
    bool m_dark = false;
    int m_generation = 0;
};

} // namespace strata::views
