#pragma once

#include "models/core/domain/keyed.h"
#include "models/core/planning/overviewsummary.h"
#include "models/core/store/historystore.h"

#include <QDateTime>
#include <QHash>
#include <QPointer>
#include <QSet>
#include <QWidget>

#include <optional>
#include <vector>

class QAbstractItemModel;
class QFrame;
class QGridLayout;
class QLayout;
class QLabel;
class QTimer;
class QVBoxLayout;

namespace strata::core {
class Estate;
class Timeline;
} // namespace strata::core

namespace strata::views {

class AllocationHistoryChart;

/// Strata's first page: per Kubernetes cluster (and in total when there are several) tiles for
/// nodes, GPUs allocated of total, idle allocated GPUs, running and pending jobs and GPU
/// utilization, the Σ quota = GPUs invariant (flagged when broken, SCHEDULING.md 3.2.4), a
/// storage tile, and the sources' health counts; beside each cluster's tiles its GPU allocation
/// and utilization over the last day (AllocationHistoryChart over core::clusterHistory, fed by
/// setClusterHistory() after clusterHistoryWanted()); a card per storage system
/// (core::storageSystems: used of capacity, throughput now, health: grid nodes and alerts, ANF
/// pools and provisioning); a card per cache target; and a "Needs attention" list
/// (core::needsAttention). Tiles, cards and rows are clickable (mouse, Enter/Space) and ask to
/// open the page of what they show. Reads the estate only; updates are coalesced after each
/// publish.
class OverviewPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OverviewPage)

public:
    /// `sources` (SourceTableModel, optional) feeds the health line.
    OverviewPage(core::Estate *estate, QAbstractItemModel *sources = nullptr, QWidget *parent = nullptr);
    ~OverviewPage() override;

    /// Re-reads the estate now. Estate changes call it coalesced (200 ms) while the page is
    /// shown; while it is hidden they only mark it stale, and showing a stale page refreshes it.
    void refresh();
    /// True when an estate change arrived since the last refresh() (the page was hidden).
    [[nodiscard]] bool isStale() const { return m_stale; }
    /// How many times refresh() ran (tests).
    [[nodiscard]] int refreshCount() const { return m_refreshCount; }
    /// How many times a refresh computed the attention list (tests): only after a change of
    /// what core::needsAttention reads (a job's failure, clusters, volumes, pools, grid alerts,
    /// cache targets, sources' health).
    [[nodiscard]] int attentionComputations() const { return m_attentionComputations; }

    /// "<tile object name>=<value>" for every tile, e.g. "tile_k8s-ai_gpus=16/16" (tests).
    [[nodiscard]] QStringList tileValues() const;
    /// Simulates a click on a tile; false when there is no such tile.
    bool activateTile(const QString &objectName);
    [[nodiscard]] QString healthText() const;
    /// Warnings shown (quota invariant), one per cluster that breaks it.
    [[nodiscard]] QStringList warnings() const { return m_warnings; }

    /// Shows "Recent events (Triage)" per system from the timeline (Timeline::attentionBySystem:
    /// unresolved StorageGRID alerts, recent ONTAP errors and Kubernetes warnings, unhealthy
    /// sources), e.g. "ONTAP: 1 critical · 2 errors"; each links to the Triage page.
    void setTimeline(core::Timeline *timeline);
    /// The attention lines as shown, one per system, plain text ("" when nothing needs it).
    [[nodiscard]] QStringList attentionLines() const;
    /// What clicking a system's attention line does.
    void openAttention(const QString &system);

    /// The clusters' project samples over [from, to] (HistoryService order), as asked for by
    /// clusterHistoryWanted(); the chart shows their total with the live cluster at `to`.
    void setClusterHistory(const QString &source,
                           const std::vector<core::ProjectSample> &samples,
                           const QDateTime &from,
                           const QDateTime &to);
    /// Shown instead of every cluster chart (no history store, store failed to open).
    void setClusterHistoryMessage(const QString &message);
    /// The chart of a cluster, nullptr when there is none (tests).
    [[nodiscard]] AllocationHistoryChart *clusterChart(const QString &source) const;
    /// How far back the cluster charts reach (seconds).
    static constexpr qint64 kClusterHistorySeconds = 24 * 3600;

    /// "<source>/<name>=<used> / <capacity> · <throughput>" per storage system card, in order (tests).
    [[nodiscard]] QStringList storageCards() const;
    /// "<target>=<used> / <capacity>" per cache target card (tests).
    [[nodiscard]] QStringList cacheCards() const;
    /// The "Needs attention" rows as shown: "<subject>: <message>" (tests).
    [[nodiscard]] QStringList attentionItems() const;
    /// Simulates a click on attention row `index`; false when there is none.
    bool activateAttentionItem(int index);

Q_SIGNALS:
    void gpuPageRequested(const QString &source);
    /// `queued`: show the queue (pending/preempted) rather than all jobs.
    void jobsPageRequested(const QString &source, bool queued);
    void volumesPageRequested();
    void sourcesPageRequested();
    /// The Triage page, filtered to `system` ("ontap", "storagegrid", ...).
    void triageRequested(const QString &system);
    /// An object to show on its page (MainWindow::showObject kinds: "volume", "pool", "job",
    /// "alert", "source", "cluster", "cache_target", "grid").
    void objectRequested(const QString &kind, const QString &source, const QString &id);
    /// The project history of `source` over the last `seconds` is wanted (answer with
    /// setClusterHistory()).
    void clusterHistoryWanted(const QString &source, qint64 seconds);
    /// The page shows volume throughput now: performance polling is wanted while it is shown.
    void performanceWanted(bool wanted);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    struct Target
    {
        enum Kind
        {
            Gpu,
            Jobs,
            Queue,
            Volumes,
            Sources,
            Object
        } kind;
        QString source;
        QString objectKind; ///< Object: MainWindow::showObject kind
        QString id;         ///< Object: the object's id
    };
    struct ClusterHistory
    {
        std::vector<core::ProjectSample> total; ///< core::clusterHistory
        QDateTime from, to;
    };
    QFrame *addTile(QWidget *parent,
                    const QString &objectName,
                    const QString &title,
                    const QString &value,
                    const QString &detail,
                    Target target,
                    const QString &status = {});
    void scheduleRefresh();
    /// Marks the attention list stale when `diff` adds, changes or removes a job it flags or
    /// would flag.
    void onJobsChanged(const core::Diff<core::Job> &diff);
    /// Marks the attention list stale when a cluster comes, goes or changes a figure it reads.
    void onClustersChanged(const core::Diff<core::GpuCluster> &diff);
    /// Marks the attention list stale when a source's health or error moved.
    void onSourcesChanged();
    /// "<name>\t<kind>\t<health>\t<error when unhealthy>" per source: what
    /// core::needsAttention reads of the sources.
    [[nodiscard]] QStringList sourceHealth() const;
    /// Pending jobs, idle allocated GPUs, Σ quotas and GPUs: what core::needsAttention reads.
    static QList<qint64> attentionFigures(const core::GpuCluster &cluster);
    void updateHealth();
    void updateAttention();
    void addClusterChart(QWidget *group, QLayout *layout, const core::GpuCluster &cluster);
    void showClusterHistory(const QString &source);
    void requestClusterHistory();
    /// Adds a card per storage system to `grid` after its first cell; returns how many.
    int addStorageCards(QWidget *group, QGridLayout *grid);
    void addCacheCards();
    void addAttentionList();
    QFrame *addCard(QWidget *parent,
                    const QString &objectName,
                    const QString &title,
                    const QString &value,
                    const QString &detail,
                    const QString &health,
                    const QString &status,
                    Target target);

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
    bool m_stale = false;
    int m_refreshCount = 0;
    QHash<QObject *, Target> m_targets;
    QHash<QString, QLabel *> m_values;
    QStringList m_warnings;
    QHash<QString, QPointer<AllocationHistoryChart>> m_clusterCharts;
    QHash<QString, ClusterHistory> m_clusterHistory;
    QString m_clusterHistoryMessage;
    QTimer *m_historyTimer = nullptr;
    QStringList m_storageCards;
    /// core::storageSystems() as of the last storage change: a GPU cluster's publish (many
    /// per second under pod churn) does not walk every volume again.
    std::optional<std::vector<core::StorageSystemSummary>> m_systems;
    QStringList m_cacheCards;
    /// core::needsAttention() as of the last change of what it reads; recomputed by a refresh
    /// only when m_attentionStale. Pod churn changes jobs many times a second, but rarely
    /// whether a job fails: walking every job and volume again on each would stall the GUI.
    std::vector<core::AttentionItem> m_attention;
    bool m_attentionStale = true;
    int m_attentionComputations = 0;
    /// Estate keys of the jobs m_attention flags (failing or failed).
    QSet<QString> m_flaggedJobs;
    /// attentionFigures() per cluster (estate key) as of the last attention computation.
    QHash<QString, QList<qint64>> m_clusterFigures;
    QStringList m_sourceHealth; ///< sourceHealth() as of the last attention computation
    QStringList m_attentionItems;
};

} // namespace strata::views
