#include "views/historychart.h"

#include "views/chartfit.h"
#include "views/statusdelegate.h"

#include <QChart>
#include <QDateTimeAxis>
#include <QEvent>
#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace strata::views {

HistoryChart::HistoryChart(const QString &messageObjectName, QWidget *parent)
    : QWidget(parent)
{
    m_stack = new QStackedWidget(this);
    m_message = new QLabel(this);
    m_message->setObjectName(messageObjectName);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setEnabled(false);
    m_stack->addWidget(m_message);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
}

HistoryChart::~HistoryChart() = default;

void HistoryChart::setMessage(const QString &message)
{
    m_message->setText(message);
    m_stack->setCurrentWidget(m_message);
}

QString HistoryChart::message() const
{
    return m_message->text();
}

bool HistoryChart::showsChart() const
{
    return m_plot && m_stack->currentWidget() == m_plot;
}

QList<QPointF> HistoryChart::stepPoints(const std::vector<std::pair<QDateTime, double>> &values, const QDateTime &end)
{
    QList<QPointF> points;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double x = double(values[i].first.toMSecsSinceEpoch());
        if (i > 0 && values[i - 1].second != values[i].second) {
            points.append(QPointF(x, values[i - 1].second)); // hold the old value up to the change
        }
        points.append(QPointF(x, values[i].second));
    }
    if (!values.empty() && end.isValid() && end > values.back().first) {
        points.append(QPointF(double(end.toMSecsSinceEpoch()), values.back().second));
    }
    return points;
}

QColor HistoryChart::seriesColor(int index, bool dark)
{
    // Okabe-Ito inspired hues: distinguishable, also with colour-vision deficiencies.
    static const QColor light[] = {QColor(0x00, 0x72, 0xb2),
                                   QColor(0xd5, 0x5e, 0x00),
                                   QColor(0x00, 0x9e, 0x73),
                                   QColor(0xcc, 0x79, 0xa7),
                                   QColor(0x56, 0xb4, 0xe9),
                                   QColor(0xe6, 0x9f, 0x00),
                                   QColor(0x7f, 0x7f, 0x7f),
                                   QColor(0x8c, 0x56, 0x4b)};
    const QColor c = light[index % int(std::size(light))];
    return dark ? c.lighter(135) : c;
}

QChartView *HistoryChart::addChartView(QChart *chart, const QString &objectName, int minimumHeight)
{
    m_charts.append(chart);
    return newChartView(chart, this, objectName, minimumHeight);
}

void HistoryChart::setPlot(QWidget *plot)
{
    m_plot = plot;
    m_stack->addWidget(plot);
}

void HistoryChart::showPlot()
{
    m_stack->setCurrentWidget(m_plot);
}

ChartWindow HistoryChart::fitTimeAxes(const QDateTime &from, const QDateTime &to, const QDateTime &firstSample)
{
    const ChartWindow window = chartWindow(from, to, firstSample);
    const QString format = window.left.secsTo(to) <= 86400 ? QStringLiteral("hh:mm") : QStringLiteral("MMM d");
    for (QChart *chart : std::as_const(m_charts)) {
        for (QAbstractAxis *axis : chart->axes(Qt::Horizontal)) {
            if (auto *time = qobject_cast<QDateTimeAxis *>(axis)) {
                time->setRange(window.left.toLocalTime(), to.toLocalTime());
                time->setFormat(format);
                time->setTickCount(7);
            }
        }
    }
    return window;
}

void HistoryChart::applyPalette()
{
    const QPalette pal = palette();
    const bool dark = StatusDelegate::isDark(pal);
    const QColor text = pal.color(QPalette::Text);
    for (QChart *chart : std::as_const(m_charts)) {
        chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
        chart->setBackgroundBrush(pal.brush(QPalette::Base));
        chart->setPlotAreaBackgroundVisible(false);
        chart->legend()->setLabelColor(text);
        chart->setTitleBrush(text);
        for (QAbstractAxis *axis : chart->axes()) {
            axis->setLabelsColor(text);
            axis->setTitleBrush(text);
            axis->setGridLineColor(pal.color(QPalette::Mid));
        }
    }
    applySeriesPens(pal, dark);
}

void HistoryChart::applySeriesPens(const QPalette &, bool)
{}

void HistoryChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
    }
    QWidget::changeEvent(event);
}

} // namespace strata::views
