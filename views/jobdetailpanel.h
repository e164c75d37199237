#pragma once

#include "models/core/domain/keyed.h"
#include "models/core/domain/records.h"
#include "models/core/store/historystore.h"

#include <QWidget>

class QGroupBox;
class QLabel;
class QTreeWidget;

namespace strata::core {
class Estate;
}

namespace strata::views {

class DiagnosisView;

/// Details of the job selected in the Jobs page: identity (project, namespace, user, type,
/// image, command), placement (node, GPUs and physical GPU indices, utilization), timings (age,
/// wait, run; updated by updateTimes() once a second), why it waits (preempted shown as such),
/// the events of the job, its pods and its PodGroup (estate events whose `object` names them),
/// and its volumes: each PVC -> PV -> the storage volume behind it, as a link that asks to show
/// that volume (volumeRequested). For a waiting job, and a running one whose GPUs are below
/// core::kLowUtilizationPercent (or unknown), a "Why pending?" / "Why idle?" section shows its
/// diagnosis (DiagnosisView); the volume's perf history for its chart is asked for with
/// volumeHistoryWanted() and handed in with setVolumeHistory(). Reads the estate only.
class JobDetailPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobDetailPanel)

public:
    explicit JobDetailPanel(core::Estate *estate, QWidget *parent = nullptr);
    ~JobDetailPanel() override;

    /// The job to show (nullptr = none); `now` is the reference for the timings.
    void setJob(core::Ptr<core::Job> job, const QDateTime &now);
    [[nodiscard]] core::Ptr<core::Job> job() const { return m_job; }
    /// Re-renders the timings only.
    void updateTimes(const QDateTime &now);
    /// Re-reads events and PVCs of the shown job (they changed in the estate).
    void refreshRelated();

    /// Whether an event's `object` ("Pod runai-team-a/a-1-g-x7k2p") concerns `job`: the Job,
    /// one of its pods, or its PodGroup ("pg-<job>"), in the job's namespace.
    static bool eventConcerns(const core::Event &event, const core::Job &job);

    /// The perf history of `source`/`volumeId` (oldest first) for the diagnosis chart; ignored
    /// when the shown job no longer reads that volume.
    void setVolumeHistory(const QString &source, const QString &volumeId, std::vector<core::VolumePerfSample> samples);
    /// The "Why pending?" / "Why idle?" section (hidden when it does not apply).
    [[nodiscard]] QGroupBox *diagnosisBox() const { return m_diagnosisBox; }
    [[nodiscard]] DiagnosisView *diagnosisView() const { return m_diagnosis; }

    /// Rendered lines, for tests: "<reason>: <message>" newest first, and
    /// "<claim> → <pv> → <source>: <volume>".
    [[nodiscard]] QStringList eventLines() const;
    [[nodiscard]] QStringList volumeLines() const;
    [[nodiscard]] QString timingsText() const;
    [[nodiscard]] QString statusText() const;

Q_SIGNALS:
    /// The user clicked a volume: show it (Volumes page, key "<source>/<volumeId>").
    void volumeRequested(const QString &source, const QString &volumeId);
    /// The diagnosis chart wants this volume's perf history (answer with setVolumeHistory()).
    void volumeHistoryWanted(const QString &source, const QString &volumeId);
    /// The diagnosis' action buttons.
    void changeServiceLevelRequested(const QString &source, const QString &volumeId);
    void endSessionRequested(const QString &source, const QString &jobId);

private:
    void refreshDiagnosis();

    core::Estate *m_estate;
    core::Ptr<core::Job> m_job;
    QDateTime m_now;
    QLabel *m_titleLabel = nullptr;
    QLabel *m_statusLabel = nullptr;
    QLabel *m_identityLabel = nullptr;
    QLabel *m_placementLabel = nullptr;
    QLabel *m_timingsLabel = nullptr;
    QLabel *m_reasonLabel = nullptr;
    QLabel *m_volumesLabel = nullptr;
    QTreeWidget *m_events = nullptr;
    QStringList m_volumeLines;
    QGroupBox *m_diagnosisBox = nullptr;
    DiagnosisView *m_diagnosis = nullptr;
    QString m_historyKey; ///< "<source>/<volumeId>" of m_history
    std::vector<core::VolumePerfSample> m_history;
};

} // namespace strata::views
