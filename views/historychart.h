#pragma once

#include "views/chartwindow.h"

#include <QColor>
#include <QDateTime>
#include <QList>
#include <QPointF>
#include <QWidget>

#include <utility>
#include <vector>

class QChart;
class QChartView;
class QLabel;
class QStackedWidget;

namespace strata::views {

/// What the history charts (capacity, throughput, GPU allocation) share: a one-line message in
/// place of the plot while there is nothing to draw, charts in Strata's look (no margins, square
/// corners, axis labels kept whole by chartfit.h), and colours that follow the widget palette
/// (light/dark): background, legend, titles, axis labels and grid from the palette, series pens
/// from the subclass through applySeriesPens() after every theme change.
class HistoryChart : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryChart)

public:
    ~HistoryChart() override;

    /// Replaces the plot with a one-line message ("Loading…", "No history store", ...).
    void setMessage(const QString &message);
    [[nodiscard]] QString message() const;
    /// True while the plot, not a message, is shown.
    [[nodiscard]] bool showsChart() const;

    /// A step line through (time, value) pairs, held to `end` (when later than the last pair):
    /// each value stays until the next. x = ms since epoch.
    static QList<QPointF> stepPoints(const std::vector<std::pair<QDateTime, double>> &values, const QDateTime &end);
    /// A distinct colour per series index (wraps after 8), readable on light or dark backgrounds.
    static QColor seriesColor(int index, bool dark);

protected:
    /// `messageObjectName` names the message label (tests find it by that name).
    HistoryChart(const QString &messageObjectName, QWidget *parent);

    /// newChartView() (chartfit.h) of `chart`, styled with the palette from now on; make the
    /// chart with newChart() and add its axes first.
    QChartView *addChartView(QChart *chart, const QString &objectName, int minimumHeight);
    /// The widget shown instead of the message: one chart view or a box of several.
    void setPlot(QWidget *plot);
    void showPlot();
    /// Sets the date-time axis of every chart to the window chartWindow(from, to, firstSample)
    /// ends at `to` (local time; "hh:mm" labels up to a day, "MMM d" beyond; 7 ticks wished)
    /// and returns that window for a "collecting since" caption.
    ChartWindow fitTimeAxes(const QDateTime &from, const QDateTime &to, const QDateTime &firstSample);
    /// Re-applies the palette to every chart, then calls applySeriesPens(). Subclasses call it
    /// at the end of their constructor (the base cannot: their series do not exist yet).
    void applyPalette();
    /// Series pens for `palette`: QChart::setTheme() resets them.
    virtual void applySeriesPens(const QPalette &palette, bool dark);

    void changeEvent(QEvent *event) override;

private:
    QStackedWidget *m_stack = nullptr;
    QLabel *m_message = nullptr;
    QWidget *m_plot = nullptr;
    QList<QChart *> m_charts;
};

} // namespace strata::views
