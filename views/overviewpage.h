#pragma once

#include <QHash>
#include <QWidget>

class QAbstractItemModel;
class QFrame;
class QLabel;
class QTimer;
class QVBoxLayout;

namespace strata::core {
class Estate;
class Timeline;
} // namespace strata::core

namespace strata::views {

/// Strata's first page: per Kubernetes cluster (and in total when there are several) tiles for
/// nodes, GPUs allocated of total, idle allocated GPUs, running and pending jobs and GPU
/// utilization, the Σ quota = GPUs invariant (flagged when broken, SCHEDULING.md 3.2.4), a
/// storage tile, and the sources' health counts. Tiles are clickable (mouse, Enter/Space) and
/// ask to open the GPU page or the Jobs page for that cluster. Reads the estate only; updates
/// are coalesced after each compute publish.
class OverviewPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OverviewPage)

public:
    /// `sources` (SourceTableModel, optional) feeds the health line.
    OverviewPage(core::Estate *estate, QAbstractItemModel *sources = nullptr, QWidget *parent = nullptr);
    ~OverviewPage() override;

    /// Re-reads the estate now (normally coalesced).
    void refresh();

    /// "<tile object name>=<value>" for every tile, e.g. "tile_k8s-ai_gpus=16/16" (tests).
    [[nodiscard]] QStringList tileValues() const;
    /// Simulates a click on a tile; false when there is no such tile.
    bool activateTile(const QString &objectName);
    [[nodiscard]] QString healthText() const;
    /// Warnings shown (quota invariant), one per cluster that breaks it.
    [[nodiscard]] QStringList warnings() const { return m_warnings; }

    /// Shows "Needs attention" per system from the timeline (Timeline::attentionBySystem:
    /// unresolved StorageGRID alerts, recent ONTAP errors and Kubernetes warnings, unhealthy
    /// sources), e.g. "ONTAP: 1 critical · 2 errors"; each links to the Triage page.
    void setTimeline(core::Timeline *timeline);
    /// The attention lines as shown, one per system, plain text ("" when nothing needs it).
    [[nodiscard]] QStringList attentionLines() const;
    /// What clicking a system's attention line does.
    void openAttention(const QString &system);

Q_SIGNALS:
    void gpuPageRequested(const QString &source);
    /// `queued`: show the queue (pending/preempted) rather than all jobs.
    void jobsPageRequested(const QString &source, bool queued);
    void volumesPageRequested();
    void sourcesPageRequested();
    /// The Triage page, filtered to `system` ("ontap", "storagegrid", ...).
    void triageRequested(const QString &system);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Target
    {
        enum Kind
        {
            Gpu,
            Jobs,
            Queue,
            Volumes,
            Sources
        } kind;
        QString source;
    };
    QFrame *addTile(QWidget *parent,
                    const QString &objectName,
                    const QString &title,
                    const QString &value,
                    const QString &detail,
                    Target target,
                    const QString &status = {});
    void scheduleRefresh();
    void updateHealth();
    void updateAttention();

    core::Estate *m_estate;
    QAbstractItemModel *m_sources;
    QLabel *m_healthLabel = nullptr;
    core::Timeline *m_timeline = nullptr;
    QLabel *m_attentionLabel = nullptr;
    QTimer *m_attentionTimer = nullptr;
    QStringList m_attentionLines;
    QWidget *m_content = nullptr;
    QVBoxLayout *m_contentLayout = nullptr;
    QTimer *m_refreshTimer = nullptr;
    QHash<QObject *, Target> m_targets;
    QHash<QString, QLabel *> m_values;
    QStringList m_warnings;
};

} // namespace strata::views
