#pragma once

#include "models/core/planning/diagnosis.h"

#include <QWidget>

class QChart;
class QChartView;
class QDateTimeAxis;
class QLabel;
class QLineSeries;
class QPushButton;
class QScatterSeries;
class QValueAxis;

namespace strata::views {

/// One job's diagnosis (core/diagnosis.h) in the Jobs page's detail panel: the verdict's
/// headline, the findings decisive first with what would help, a button for the next action when
/// Strata can do it ("Change service level…" for a data-bound volume, "End session…" for an idle
/// notebook), and for running jobs a chart of the volume's throughput (MB/s, solid), its cap
/// (dashed) and latency (ms) over time, with the job's GPU utilization now (%, right axis).
class DiagnosisView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DiagnosisView)

public:
    explicit DiagnosisView(QWidget *parent = nullptr);
    ~DiagnosisView() override;

    void setDiagnosis(const core::JobDiagnosis &diagnosis);
    [[nodiscard]] const core::JobDiagnosis &diagnosis() const { return m_diagnosis; }

    /// For tests: the headline, "rule: summary" per finding, the action button (hidden when none).
    [[nodiscard]] QString headlineText() const;
    [[nodiscard]] QStringList findingLines() const;
    [[nodiscard]] QPushButton *actionButton() const { return m_action; }
    [[nodiscard]] bool showsChart() const;
    /// Chart points (x = ms since epoch): volume MB/s and the GPU % points.
    [[nodiscard]] QList<QPointF> throughputPoints() const;
    [[nodiscard]] QList<QPointF> gpuPoints() const;

Q_SIGNALS:
    /// "Change service level…": open the level dialog for this volume.
    void changeServiceLevelRequested(const QString &source, const QString &volumeId);
    /// "End session…": delete this job (previewed and confirmed by the controller).
    void endSessionRequested(const QString &source, const QString &jobId);

private:
    core::JobDiagnosis m_diagnosis;
    QLabel *m_headline = nullptr;
    QLabel *m_findings = nullptr;
    QLabel *m_next = nullptr;
    QPushButton *m_action = nullptr;
    QChart *m_chart = nullptr;
    QChartView *m_view = nullptr;
    QDateTimeAxis *m_time = nullptr;
    QValueAxis *m_rate = nullptr;
    QValueAxis *m_percent = nullptr;
    QLineSeries *m_throughput = nullptr;
    QLineSeries *m_cap = nullptr;
    QLineSeries *m_latency = nullptr;
    QScatterSeries *m_gpu = nullptr;
    QStringList m_findingLines;
};

} // namespace strata::views
