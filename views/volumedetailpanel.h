#pragma once

#include "models/core/domain/action.h"
#include "models/core/domain/keyed.h"
#include "models/core/domain/records.h"
#include "models/core/store/historystore.h"

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace strata::core {
class IClock;
}

namespace strata::models {
class SnapshotListModel;
}

namespace strata::views {

class CapacityChart;

/// Details of the volume selected in the Volumes page: identity (SVM, source, state, style,
/// aggregate, junction path, QoS policy, clone parent), a capacity bar, capacity over the last
/// 7 days, and its snapshots with Create/Delete/Restore/Clone buttons that are enabled only when
/// they apply. It asks for the selected volume's snapshots while it is visible
/// (snapshotsWanted/snapshotsUnwanted, reference-counted by the controller) and turns button
/// clicks into actionRequested(); it never runs anything itself.
class VolumeDetailPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VolumeDetailPanel)

public:
    /// `clock` (the engine's) dates the chart's live point; it must outlive the panel.
    VolumeDetailPanel(models::SnapshotListModel *snapshots, const core::IClock &clock, QWidget *parent = nullptr);
    ~VolumeDetailPanel() override;

    /// The selected volume (nullptr = none). A new value for the same volume only refreshes the
    /// fields; another volume switches the snapshot subscription and clears the chart.
    void setVolume(core::Ptr<core::Volume> volume);
    [[nodiscard]] core::Ptr<core::Volume> volume() const { return m_volume; }
    /// Capacity samples of the selected volume, oldest first (from the history store).
    void setCapacityHistory(std::vector<core::UsageSample> samples);
    /// Shown instead of the chart ("No history store", an error...).
    void setCapacityHistoryMessage(const QString &message);
    /// Why the snapshot list cannot be loaded; empty clears it.
    void setSnapshotError(const QString &error);

    /// Snapshot id of the selected snapshot row, empty when none.
    [[nodiscard]] QString selectedSnapshotId() const;
    [[nodiscard]] QTableView *snapshotView() const { return m_snapshotView; }
    [[nodiscard]] CapacityChart *capacityChart() const { return m_chart; }
    [[nodiscard]] QByteArray snapshotHeaderState() const;
    void restoreSnapshotHeaderState(const QByteArray &state);

    /// Emits actionRequested() for a new snapshot of the selected volume (context menus, buttons).
    void requestCreateSnapshot();

Q_SIGNALS:
    void snapshotsWanted(const QString &source, const QString &volumeId);
    void snapshotsUnwanted(const QString &source, const QString &volumeId);
    /// The controller should answer with setCapacityHistory().
    void capacityHistoryWanted(const QString &source, const QString &volumeId);
    /// A snapshot action on the selected volume; names (new snapshot or clone) are left empty
    /// for the confirmation dialog to fill.
    void actionRequested(const strata::core::ActionRequest &request);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updateFields();
    void updateSnapshotState();
    void updateButtons();
    void updateSubscription();
    void requestSnapshotAction(core::ActionKind kind);
    void showSnapshotMenu(const QPoint &pos);

    models::SnapshotListModel *m_snapshots;
    core::Ptr<core::Volume> m_volume;
    QString m_subscribedSource;
    QString m_subscribedVolume;
    QString m_snapshotError;
    std::vector<core::UsageSample> m_history;
    bool m_historyLoaded = false;

    QStackedWidget *m_stack = nullptr;
    QLabel *m_titleLabel = nullptr;
    QTabWidget *m_tabs = nullptr;
    QLabel *m_svmLabel = nullptr;
    QLabel *m_sourceLabel = nullptr;
    QLabel *m_stateLabel = nullptr;
    QLabel *m_styleLabel = nullptr;
    QLabel *m_aggregateLabel = nullptr;
    QLabel *m_junctionLabel = nullptr;
    QLabel *m_qosLabel = nullptr;
    QLabel *m_cloneParentLabel = nullptr;
    QLabel *m_snapshotReserveLabel = nullptr;
    QLabel *m_createdLabel = nullptr;
    QProgressBar *m_capacityBar = nullptr;
    QLabel *m_capacityLabel = nullptr;
    const core::IClock &m_clock;
    CapacityChart *m_chart = nullptr;
    QStackedWidget *m_snapshotStack = nullptr;
    QLabel *m_snapshotStateLabel = nullptr;
    QTableView *m_snapshotView = nullptr;
    QSortFilterProxyModel *m_snapshotProxy = nullptr;
    QPushButton *m_createButton = nullptr;
    QPushButton *m_deleteButton = nullptr;
    QPushButton *m_restoreButton = nullptr;
    QPushButton *m_cloneButton = nullptr;
};

} // namespace strata::views
