#pragma once

#include "models/core/domain.h"
#include "models/core/keyed.h"

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace strata::core {
class Estate;
}

namespace strata::views {

/// Details of the job selected in the Jobs page: identity (project, namespace, user, type,
/// image, command), placement (node, GPUs and physical GPU indices, utilization), timings (age,
/// wait, run; updated by updateTimes() once a second), why it waits (preempted shown as such),
/// the events of the job, its pods and its PodGroup (estate events whose `object` names them),
/// and its volumes: each PVC -> PV -> the storage volume behind it, as a link that asks to show
/// that volume (volumeRequested). Reads the estate only.
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

    /// Rendered lines, for tests: "<reason>: <message>" newest first, and
    /// "<claim> → <pv> → <source>: <volume>".
    [[nodiscard]] QStringList eventLines() const;
    [[nodiscard]] QStringList volumeLines() const;
    [[nodiscard]] QString timingsText() const;
    [[nodiscard]] QString statusText() const;

Q_SIGNALS:
    /// The user clicked a volume: show it (Volumes page, key "<source>/<volumeId>").
    void volumeRequested(const QString &source, const QString &volumeId);

private:
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
};

} // namespace strata::views
