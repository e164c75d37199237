#pragma once

#include "models/core/runtime/timeline.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTimer;

namespace strata::models {
class TimelineModel;
class TimelineFilterModel;
} // namespace strata::models

namespace strata::views {

/// The support engineer's Triage page: one timeline of every system (ONTAP and Kubernetes
/// events, StorageGRID alerts, Strata's operations, scheduler decisions, cache, service-level
/// and health changes), newest first, severity coloured. A filter bar narrows it by system,
/// severity (and worse), category, project, volume, job, time range (last hour, 6 h, 24 h,
/// 7 days, all) and free text. Repeats are one row (core::Timeline::groups(): an alert's firings,
/// a system event's repeats) with their count and first seen; active alerts come first. Double-click or "Go to" asks to
/// show the entry's object (objectRequested), which MainWindow::showObject() turns into a page switch and selection.
class TriagePage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TriagePage)

public:
    explicit TriagePage(models::TimelineModel *timeline, QWidget *parent = nullptr);
    ~TriagePage() override;

    [[nodiscard]] QTableView *tableView() const { return m_view; }
    [[nodiscard]] models::TimelineFilterModel *proxy() const { return m_proxy; }
    [[nodiscard]] QComboBox *systemCombo() const { return m_systemCombo; }
    [[nodiscard]] QComboBox *severityCombo() const { return m_severityCombo; }
    [[nodiscard]] QComboBox *categoryCombo() const { return m_categoryCombo; }
    [[nodiscard]] QComboBox *rangeCombo() const { return m_rangeCombo; }
    [[nodiscard]] QLineEdit *projectEdit() const { return m_projectEdit; }
    [[nodiscard]] QLineEdit *volumeEdit() const { return m_volumeEdit; }
    [[nodiscard]] QLineEdit *jobEdit() const { return m_jobEdit; }
    [[nodiscard]] QLineEdit *searchEdit() const { return m_searchEdit; }
    [[nodiscard]] QPushButton *goToButton() const { return m_goToButton; }
    [[nodiscard]] QString countText() const;

    /// Shows one system ("ontap", ...; empty = all) with the other filters cleared (the
    /// Overview's "Needs attention" links).
    void showSystem(const QString &system);
    /// Asks to show the object of the current row; false when it has none.
    bool goToCurrent();

    [[nodiscard]] QByteArray headerState() const;
    void restoreHeaderState(const QByteArray &state);

Q_SIGNALS:
    /// `kind` as TimelineEntry::objectKind ("volume", "job", "project", "node", "alert", ...).
    void objectRequested(const QString &kind, const QString &source, const QString &id);

private:
    void applyFilter();
    void updateCount();
    void updateButtons();

    models::TimelineModel *m_timeline;
    models::TimelineFilterModel *m_proxy = nullptr;
    QTableView *m_view = nullptr;
    QComboBox *m_systemCombo = nullptr;
    QComboBox *m_severityCombo = nullptr;
    QComboBox *m_categoryCombo = nullptr;
    QComboBox *m_rangeCombo = nullptr;
    QLineEdit *m_projectEdit = nullptr;
    QLineEdit *m_volumeEdit = nullptr;
    QLineEdit *m_jobEdit = nullptr;
    QLineEdit *m_searchEdit = nullptr;
    QPushButton *m_goToButton = nullptr;
    QLabel *m_countLabel = nullptr;
    QTimer *m_countTimer = nullptr;
    QTimer *m_rangeTimer = nullptr;
};

} // namespace strata::views
