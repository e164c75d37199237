#pragma once

#include "models/core/domain/schedule.h"
#include "models/core/services/servicelevels.h"

#include <QSortFilterProxyModel>
#include <QWidget>

#include <vector>

class QAbstractItemModel;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSplitter;
class QTableView;

namespace strata::models {
class ServiceLevelTableModel;
}

namespace strata::views {

class ThroughputChart;

/// Filters the Service levels table by free text (volume, SVM/pool, source, level), source and
/// flag; sorts by RawValueRole so MiB/s and money sort as numbers.
class ServiceLevelFilterProxy final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ServiceLevelFilterProxy)

public:
    /// What the flag filter keeps.
    enum class FlagFilter
    {
        All,
        Flagged, ///< at cap or far below
        AtCap,
        FarBelow
    };

    explicit ServiceLevelFilterProxy(QObject *parent = nullptr);
    ~ServiceLevelFilterProxy() override;

    void setTextFilter(const QString &text);
    void setSourceFilter(const QString &source); ///< empty = every source
    void setFlagFilter(FlagFilter filter);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    QString m_text;
    QString m_source;
    FlagFilter m_flag = FlagFilter::All;
};

/// The Service levels page: every ANF and ONTAP volume with its level, throughput cap, observed
/// and p95 throughput, cap use, price and a flag ("At cap – raise?", "Far below – lower?"),
/// filterable by text, source and flag. Below it the selected volume's observed throughput
/// against its cap (24 h, 7 d or 30 d) and its upcoming scheduled changes. Buttons ask the
/// controller to change the level, schedule a change, list all upcoming changes or edit the
/// rate card; the page does no I/O.
class ServiceLevelsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ServiceLevelsPage)

public:
    /// `sources` (SourceTableModel, optional) fills the source filter.
    ServiceLevelsPage(models::ServiceLevelTableModel *levels,
                      QAbstractItemModel *sources = nullptr,
                      QWidget *parent = nullptr);
    ~ServiceLevelsPage() override;

    [[nodiscard]] QTableView *tableView() const { return m_view; }
    [[nodiscard]] ServiceLevelFilterProxy *proxy() const { return m_proxy; }
    [[nodiscard]] ThroughputChart *chart() const { return m_chart; }
    [[nodiscard]] QString countText() const;
    /// The selected volume's row, or nullptr.
    [[nodiscard]] const core::ServiceLevelRow *currentRow() const;
    /// Selects "<source>/<volumeId>"; false when it is not shown.
    bool selectVolume(const QString &key);
    /// The chart's range in seconds (86400, 7 days or 30 days).
    [[nodiscard]] qint64 rangeSeconds() const;

    /// Answers throughputHistoryWanted(); ignored when the volume is no longer selected.
    void setThroughputHistory(const QString &source,
                              const QString &volumeId,
                              const std::vector<core::ThroughputPoint> &points,
                              const QDateTime &from,
                              const QDateTime &to);
    void setThroughputMessage(const QString &message);
    /// Upcoming changes of every volume (ScheduleService::upcoming); the page shows the selected
    /// volume's.
    void setUpcoming(const QList<core::UpcomingChange> &upcoming);
    /// The selected volume's upcoming changes as shown ("Tue 14:00 → Premium").
    [[nodiscard]] QStringList upcomingTexts() const;

    [[nodiscard]] QByteArray headerState() const;
    void restoreHeaderState(const QByteArray &state);

    /// "Tue 22 Nov 14:00 → Premium (revert)" for lists of upcoming changes.
    static QString upcomingText(const core::UpcomingChange &change, bool withVolume);

Q_SIGNALS:
    void changeLevelRequested(const QString &source, const QString &volumeId);
    void scheduleRequested(const QString &source, const QString &volumeId);
    void upcomingRequested();
    void rateCardRequested();
    /// The chart needs the volume's throughput over the last `rangeSeconds`.
    void throughputHistoryWanted(const QString &source, const QString &volumeId, qint64 rangeSeconds);

private:
    void onCurrentChanged();
    void updateButtons();
    void updateCount();
    void updateSourceCombo();
    void updateUpcomingList();
    void requestHistory();
    void showContextMenu(const QPoint &pos);

    models::ServiceLevelTableModel *m_levels;
    QAbstractItemModel *m_sources;
    ServiceLevelFilterProxy *m_proxy = nullptr;
    QTableView *m_view = nullptr;
    QLineEdit *m_filterEdit = nullptr;
    QComboBox *m_sourceCombo = nullptr;
    QComboBox *m_flagCombo = nullptr;
    QLabel *m_countLabel = nullptr;
    QPushButton *m_changeButton = nullptr;
    QPushButton *m_scheduleButton = nullptr;
    QPushButton *m_upcomingButton = nullptr;
    QPushButton *m_rateCardButton = nullptr;
    QSplitter *m_splitter = nullptr;
    QLabel *m_detailTitle = nullptr;
    QComboBox *m_rangeCombo = nullptr;
    ThroughputChart *m_chart = nullptr;
    QListWidget *m_upcomingList = nullptr;
    QString m_currentKey;
    QList<core::UpcomingChange> m_upcoming;
};

} // namespace strata::views
