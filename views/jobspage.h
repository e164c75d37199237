#pragma once

#include "models/core/domain/action.h"
#include "models/core/domain/error.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSplitter;
class QTableView;
class QTimer;

namespace strata::core {
class Estate;
}
namespace strata::models {
class JobTableModel;
}

namespace strata::views {

class JobDetailPanel;
class JobFilterProxy;
class JobSubmitDialog;

/// The job queue view (SCHEDULING.md 3.3): a project selector (all or one), a status filter and
/// a filter box over two tables of the same JobTableModel: Running (NAME, STATUS, AGE, NODE,
/// IMAGE, TYPE, PROJECT, USER, GPUs, CREATED BY CLI, run time, GPU utilization) and
/// Pending/queued (name, project, GPUs requested, type, wait time, reason, queue position FIFO
/// within its project; preempted jobs coloured and labelled as such), the queue counters per
/// project, and the selected job's JobDetailPanel. Submit opens JobSubmitDialog; Delete (also
/// the Delete key) asks to delete all selected jobs of one cluster at once. Both end in
/// actionRequested(), previewed and confirmed by the controller. One 1 s timer, running only
/// while the page is visible, ticks the model's time columns.
class JobsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobsPage)

public:
    JobsPage(core::Estate *estate, models::JobTableModel *jobs, QWidget *parent = nullptr);
    ~JobsPage() override;

    /// Shows one cluster's project (empty project = all projects of all clusters); `queuedOnly`
    /// sets the status filter to the queue (pending and preempted).
    void showJobs(const QString &source, const QString &project, bool queuedOnly = false);
    /// Clears the filters and selects the job "<namespace>/<name>" of `source` in the table that
    /// shows it (running or queued); false when no table has it.
    bool selectJob(const QString &source, const QString &jobId);

    [[nodiscard]] QTableView *runningView() const { return m_runningView; }
    [[nodiscard]] QTableView *queuedView() const { return m_queuedView; }
    [[nodiscard]] JobFilterProxy *runningProxy() const { return m_runningProxy; }
    [[nodiscard]] JobFilterProxy *queuedProxy() const { return m_queuedProxy; }
    [[nodiscard]] JobDetailPanel *detailPanel() const { return m_detail; }
    [[nodiscard]] QComboBox *projectCombo() const { return m_projectCombo; }
    [[nodiscard]] QComboBox *statusCombo() const { return m_statusCombo; }
    [[nodiscard]] QLineEdit *filterEdit() const { return m_filterEdit; }
    /// "Queued: team-b 1 · team-c 1" for the projects shown.
    [[nodiscard]] QString queueCountsText() const;

    /// The JobDelete request for the selected jobs (both tables), or an Error::Kind::Invalid
    /// sentence when nothing is selected or the jobs belong to several clusters.
    [[nodiscard]] core::Result<core::ActionRequest> deleteRequest() const;
    /// Emits actionRequested(deleteRequest()) when it is valid.
    void requestDelete();
    /// Opens the submit form (non-modal) for the selected project; returns it (tests).
    JobSubmitDialog *openSubmitDialog();

    [[nodiscard]] QByteArray headerState() const;
    void restoreHeaderState(const QByteArray &state);

Q_SIGNALS:
    void actionRequested(const strata::core::ActionRequest &request);
    /// Show this storage volume (from the detail panel's volume links).
    void volumeRequested(const QString &source, const QString &volumeId);
    /// From the detail panel's diagnosis (see JobDetailPanel).
    void volumeHistoryWanted(const QString &source, const QString &volumeId);
    void changeServiceLevelRequested(const QString &source, const QString &volumeId);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void updateProjects();
    void applyFilters();
    void updateCounts();
    void updateButtons();
    void onCurrentChanged(QTableView *view);
    void refreshDetail();
    void tick();
    void setupTable(QTableView *view, JobFilterProxy *proxy, const QString &objectName);

    core::Estate *m_estate;
    models::JobTableModel *m_jobs;
    QComboBox *m_projectCombo = nullptr;
    QComboBox *m_statusCombo = nullptr;
    QLineEdit *m_filterEdit = nullptr;
    QPushButton *m_submitButton = nullptr;
    QPushButton *m_deleteButton = nullptr;
    QLabel *m_countsLabel = nullptr;
    QLabel *m_runningLabel = nullptr;
    QLabel *m_queuedLabel = nullptr;
    JobFilterProxy *m_runningProxy = nullptr;
    JobFilterProxy *m_queuedProxy = nullptr;
    QTableView *m_runningView = nullptr;
    QTableView *m_queuedView = nullptr;
    QSplitter *m_splitter = nullptr;
    JobDetailPanel *m_detail = nullptr;
    QTimer *m_tickTimer = nullptr;
    QTimer *m_countTimer = nullptr;
    QString m_currentKey;
};

} // namespace strata::views
