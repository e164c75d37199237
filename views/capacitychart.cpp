#include "views/capacitychart.h"

#include "views/chartfit.h"
#include "views/statusdelegate.h"

#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QEvent>
#include <QLabel>
#include <QLineSeries>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace strata::views {

namespace {

struct Unit
{
    double divisor;
    QString name;
};

Unit unitFor(qint64 maxBytes)
{
    static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double divisor = 1;
    int i = 0;
    while (i < 5 && double(maxBytes) / divisor >= 1024.0) {
        divisor *= 1024.0;
        ++i;
    }
    return {divisor, QString::fromLatin1(names[i])};
}

} // namespace

CapacityChart::CapacityChart(QWidget *parent)
    : QWidget(parent)
{
    m_stack = new QStackedWidget(this);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("capacityChartMessageLabel"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setEnabled(false);

    m_chart = new QChart();
    m_chart->legend()->setAlignment(Qt::AlignRight);
    m_chart->setMargins(QMargins(0, 0, 0, 0));
    m_chart->setBackgroundRoundness(0);
    m_used = new QLineSeries(m_chart);
    m_used->setName(tr("Used"));
    m_used->setPointsVisible(true);
    m_size = new QLineSeries(m_chart);
    m_size->setName(tr("Size"));
    m_chart->addSeries(m_size);
    m_chart->addSeries(m_used);
    m_timeAxis = new QDateTimeAxis(m_chart);
    m_timeAxis->setFormat(QStringLiteral("MMM d"));
    m_timeAxis->setTickCount(8);
    m_timeAxis->setLabelsAngle(0);
    m_valueAxis = new QValueAxis(m_chart);
    m_valueAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_valueAxis->setTickCount(4);
    m_valueAxis->setMin(0);
    m_chart->addAxis(m_timeAxis, Qt::AlignBottom);
    m_chart->addAxis(m_valueAxis, Qt::AlignLeft);
    for (QLineSeries *s : {m_used, m_size}) {
        s->attachAxis(m_timeAxis);
        s->attachAxis(m_valueAxis);
    }
    keepAxisLabelsWhole(m_chart);
    m_view = new QChartView(m_chart, this);
    m_view->setObjectName(QStringLiteral("capacityChartView"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(190);

    m_stack->addWidget(m_message);
    m_stack->addWidget(m_view);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    applyPalette();
    setMessage(tr("No volume selected."));
}

CapacityChart::~CapacityChart() = default;

void CapacityChart::setMessage(const QString &message)
{
    m_message->setText(message);
    m_stack->setCurrentWidget(m_message);
}

int CapacityChart::pointCount() const
{
    return int(m_used->count());
}

bool CapacityChart::showsChart() const
{
    return m_stack->currentWidget() == m_view;
}

void CapacityChart::setSamples(std::vector<core::UsageSample> samples,
                               const QDateTime &now,
                               const core::UsageSample *current,
                               int days)
{
    if (current) {
        core::UsageSample live = *current;
        live.time = now;
        if (samples.empty() || samples.back().time < now) {
            samples.push_back(live);
        }
    }
    if (samples.empty()) {
        setMessage(tr("No capacity history recorded yet."));
        return;
    }
    qint64 maxBytes = 1;
    for (const core::UsageSample &s : samples) {
        maxBytes = std::max({maxBytes, s.sizeBytes, s.usedBytes});
    }
    const Unit unit = unitFor(maxBytes);
    QList<QPointF> used;
    QList<QPointF> size;
    used.reserve(qsizetype(samples.size()));
    size.reserve(qsizetype(samples.size()));
    for (const core::UsageSample &s : samples) {
        const double x = double(s.time.toMSecsSinceEpoch());
        used.append(QPointF(x, double(s.usedBytes) / unit.divisor));
        size.append(QPointF(x, double(s.sizeBytes) / unit.divisor));
    }
    m_used->replace(used);
    m_size->replace(size);
    const QDateTime right = now.isValid() ? now : samples.back().time;
    // Fit the axis to the recorded history (a new source has minutes, not days), showing at
    // least ten minutes and at most `days`.
    QDateTime left = std::max(right.addDays(-days), samples.front().time);
    if (left.secsTo(right) < 600) {
        left = right.addSecs(-600);
    }
    m_timeAxis->setRange(left.toLocalTime(), right.toLocalTime());
    m_timeAxis->setFormat(left.daysTo(right) <= 1 ? QStringLiteral("hh:mm") : QStringLiteral("MMM d"));
    const double top = double(maxBytes) / unit.divisor;
    m_valueAxis->setRange(0, top <= 0 ? 1 : std::ceil(top * 1.1));
    m_valueAxis->setTitleText(unit.name);
    m_stack->setCurrentWidget(m_view);
}

void CapacityChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
    }
    QWidget::changeEvent(event);
}

void CapacityChart::applyPalette()
{
    const QPalette pal = palette();
    m_chart->setTheme(StatusDelegate::isDark(pal) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setBackgroundBrush(pal.brush(QPalette::Base));
    m_chart->setPlotAreaBackgroundVisible(false);
    const QColor text = pal.color(QPalette::Text);
    m_chart->legend()->setLabelColor(text);
    for (QAbstractAxis *axis : {static_cast<QAbstractAxis *>(m_timeAxis), static_cast<QAbstractAxis *>(m_valueAxis)}) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setGridLineColor(pal.color(QPalette::Mid));
    }
    QPen usedPen(pal.color(QPalette::Highlight));
    usedPen.setWidth(2);
    m_used->setPen(usedPen);
    m_used->setColor(pal.color(QPalette::Highlight));
    QPen sizePen(pal.color(QPalette::Disabled, QPalette::Text));
    sizePen.setStyle(Qt::DashLine);
    sizePen.setWidth(2);
    m_size->setPen(sizePen);
}

} // namespace strata::views
