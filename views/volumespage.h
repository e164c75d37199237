#pragma once

#include <QWidget>

class QAbstractItemModel;
class QComboBox;
class QLabel;
class QLineEdit;
class QSplitter;
class QTableView;
class QTimer;

namespace strata::core {
class IClock;
}

namespace strata::models {
class SnapshotListModel;
class VolumeTableModel;
} // namespace strata::models

namespace strata::views {

class VolumeDetailPanel;
class VolumeFilterProxy;

/// Every volume of every source in one sortable, filterable table (tens of thousands of rows:
/// fixed row heights, no content-based column sizing), with source and state filters, a count
/// ("1,234 of 50,000 volumes") and the selected volume's VolumeDetailPanel below it. Stale rows
/// are dimmed with the model's tooltip. Asks for live performance data while it is visible.
class VolumesPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VolumesPage)

public:
    /// `sources` (SourceTableModel, optional) fills the source filter.
    /// `clock` (the engine's) dates the detail panel's capacity chart.
    VolumesPage(models::VolumeTableModel *volumes,
                models::SnapshotListModel *snapshots,
                const core::IClock &clock,
                QAbstractItemModel *sources = nullptr,
                QWidget *parent = nullptr);
    ~VolumesPage() override;

    [[nodiscard]] QTableView *tableView() const { return m_view; }
    [[nodiscard]] VolumeFilterProxy *proxy() const { return m_proxy; }
    [[nodiscard]] VolumeDetailPanel *detailPanel() const { return m_detail; }
    [[nodiscard]] QString countText() const;
    /// Selects the volume with estate key "<source>/<id>"; false when it is not shown.
    bool selectVolume(const QString &key);

    [[nodiscard]] QByteArray headerState() const;
    void restoreHeaderState(const QByteArray &state);
    [[nodiscard]] QByteArray splitterState() const;
    void restoreSplitterState(const QByteArray &state);

Q_SIGNALS:
    /// True while the page is visible: the controller subscribes to performance polls.
    void performanceWanted(bool wanted);
    void refreshRequested();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void onCurrentChanged();
    void onVolumesChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight);
    void refreshCurrent();
    void updateCount();
    void updateSourceCombo();
    void showContextMenu(const QPoint &pos);
    void showHeaderMenu(const QPoint &pos);
    void setPerformanceWanted(bool wanted);

    models::VolumeTableModel *m_volumes;
    QAbstractItemModel *m_sources;
    VolumeFilterProxy *m_proxy = nullptr;
    QTableView *m_view = nullptr;
    QLineEdit *m_filterEdit = nullptr;
    QComboBox *m_sourceCombo = nullptr;
    QComboBox *m_stateCombo = nullptr;
    QLabel *m_countLabel = nullptr;
    QSplitter *m_splitter = nullptr;
    VolumeDetailPanel *m_detail = nullptr;
    QTimer *m_filterTimer = nullptr;
    QTimer *m_countTimer = nullptr;
    QString m_currentKey;
    bool m_perfWanted = false;
};

} // namespace strata::views
