#include "views/capacitychart.h"

#include "views/chartfit.h"

#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QLineSeries>
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
    : HistoryChart(QStringLiteral("capacityChartMessageLabel"), parent)
{
    QChart *chart = newChart(Qt::AlignRight);
    m_used = new QLineSeries(chart);
    m_used->setName(tr("Used"));
    m_used->setPointsVisible(true);
    m_size = new QLineSeries(chart);
    m_size->setName(tr("Size"));
    chart->addSeries(m_size);
    chart->addSeries(m_used);
    m_timeAxis = new QDateTimeAxis(chart);
    m_timeAxis->setFormat(QStringLiteral("MMM d"));
    m_timeAxis->setTickCount(8);
    m_timeAxis->setLabelsAngle(0);
    m_valueAxis = new QValueAxis(chart);
    m_valueAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_valueAxis->setTickCount(4);
    m_valueAxis->setMin(0);
    chart->addAxis(m_timeAxis, Qt::AlignBottom);
    chart->addAxis(m_valueAxis, Qt::AlignLeft);
    for (QLineSeries *s : {m_used, m_size}) {
        s->attachAxis(m_timeAxis);
        s->attachAxis(m_valueAxis);
    }
    setPlot(addChartView(chart, QStringLiteral("capacityChartView"), 190));
    applyPalette();
    setMessage(tr("No volume selected."));
}

CapacityChart::~CapacityChart() = default;

int CapacityChart::pointCount() const
{
    return int(m_used->count());
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
    showPlot();
}

void CapacityChart::applySeriesPens(const QPalette &pal, bool)
{
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
