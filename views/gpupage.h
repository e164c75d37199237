#pragma once

#include "models/core/domain/action.h"
#include "models/core/store/historystore.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTimer;

namespace strata::core {
class Estate;
}
namespace strata::models {
class ProjectTableModel;
}

namespace strata::views {

class AllocationHistoryChart;
class GpuProjectChart;
class NodePackingView;

/// GPUs of one Kubernetes cluster (a selector appears when there are several): KPIs (allocated
/// of total, idle allocated, utilization, and the Σ quota = total GPUs invariant, flagged when
/// broken), the GPUs-per-project chart next to the projects table (quota, allocated in/over,
/// pending, fair share, running/queued, utilization; Edit quota; What if… opens a
/// QuotaWhatIfDialog for the cluster), allocation and utilization
/// over a chosen range (1 h ... 30 d) and the node packing. Reads the estate only: redraws are
/// coalesced after computeChanged, and history is asked for with projectHistoryWanted() (at most
/// every few seconds while visible); the controller answers with setProjectHistory().
class GpuPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GpuPage)

public:
    GpuPage(core::Estate *estate, models::ProjectTableModel *projects, QWidget *parent = nullptr);
    ~GpuPage() override;

    /// The selected cluster (source name), empty when there is none.
    [[nodiscard]] QString cluster() const;
    /// Selects a cluster; false when it is not known.
    bool setCluster(const QString &source);
    /// The history range in seconds (1 h, 6 h, 24 h, 7 d or 30 d).
    [[nodiscard]] qint64 historyRangeSeconds() const;
    /// 0 = 1 h ... 4 = 30 d.
    void setHistoryRangeIndex(int index);

    /// Answer to projectHistoryWanted(): samples by project then time over [from, to].
    void setProjectHistory(const QString &source,
                           std::vector<core::ProjectSample> samples,
                           const QDateTime &from,
                           const QDateTime &to);
    /// Shown instead of the history charts ("History is not recorded...").
    void setProjectHistoryMessage(const QString &message);

    /// Re-reads the estate now (normally coalesced after computeChanged).
    void refresh();

    [[nodiscard]] GpuProjectChart *projectChart() const { return m_chart; }
    [[nodiscard]] AllocationHistoryChart *historyChart() const { return m_history; }
    [[nodiscard]] NodePackingView *packingView() const { return m_packing; }
    [[nodiscard]] QTableView *projectView() const { return m_projectView; }
    [[nodiscard]] QPushButton *whatIfButton() const { return m_whatIfButton; }
    /// Plain text of the KPI line ("16/16 GPUs allocated · 3 idle · ...").
    [[nodiscard]] QString kpiText() const;
    /// Empty when Σ quota equals the cluster's GPUs, else the warning shown.
    [[nodiscard]] QString quotaWarning() const;
    [[nodiscard]] QByteArray headerState() const;
    void restoreHeaderState(const QByteArray &state);

Q_SIGNALS:
    /// Asks for the selected cluster's project history over the last `rangeSeconds`.
    void projectHistoryWanted(const QString &source, qint64 rangeSeconds);
    /// Edit quota (ProjectQuotaEdit), to preview and confirm.
    void actionRequested(const strata::core::ActionRequest &request);
    /// A project was activated: show its jobs.
    void jobsRequested(const QString &source, const QString &project);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void updateClusters();
    void scheduleRefresh();
    void requestHistory();
    void maybeRequestHistory();
    void editQuota();
    void openWhatIf();
    [[nodiscard]] QModelIndex currentProject() const;

    core::Estate *m_estate;
    models::ProjectTableModel *m_projects;
    QComboBox *m_clusterCombo = nullptr;
    bool m_clusterChosen = false; ///< a cluster was picked (by the user or setCluster())
    QLabel *m_clusterLabel = nullptr;
    QLabel *m_kpiLabel = nullptr;
    QLabel *m_quotaLabel = nullptr;
    GpuProjectChart *m_chart = nullptr;
    QSortFilterProxyModel *m_projectProxy = nullptr;
    QTableView *m_projectView = nullptr;
    QPushButton *m_editQuotaButton = nullptr;
    QPushButton *m_whatIfButton = nullptr;
    QComboBox *m_rangeCombo = nullptr;
    AllocationHistoryChart *m_history = nullptr;
    NodePackingView *m_packing = nullptr;
    QTimer *m_refreshTimer = nullptr;
    QTimer *m_historyTimer = nullptr;
    QString m_kpiPlain;
    QString m_quotaWarning;
    bool m_historyDue = false;
};

} // namespace strata::views
