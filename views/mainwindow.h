#pragma once

#include "models/core/domain.h"

#include <QMainWindow>
#include <QVariantMap>

class QAction;
class QDockWidget;
class QFrame;
class QLabel;
class QListWidget;
class QStackedWidget;

namespace strata::models {
class ActivityModel;
class EventTableModel;
class SnapshotListModel;
class SourceTableModel;
class VolumeTableModel;
} // namespace strata::models

namespace strata::views {

class ActivityPanel;
class EventsPage;
class SourcesPage;
class VolumesPage;

/// Strata's main window: navigation on the left (Volumes, Sources, Events), the pages in a
/// stack, the Activity dock at the bottom, a status bar summarising source health with the
/// worst state coloured, a non-modal notification bar for failures, and the menus (File, View
/// with Refresh F5 and Activity, Help). It binds the item models it is given and turns menu
/// actions into signals; app/desktop wires them and persists layoutState().
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    struct Models
    {
        models::VolumeTableModel *volumes = nullptr;
        models::SnapshotListModel *snapshots = nullptr;
        models::SourceTableModel *sources = nullptr;
        models::ActivityModel *activity = nullptr;
        models::EventTableModel *events = nullptr;
    };

    enum class Page
    {
        Volumes,
        Sources,
        Events
    };

    explicit MainWindow(const Models &models, QWidget *parent = nullptr);
    ~MainWindow() override;

    [[nodiscard]] VolumesPage *volumesPage() const { return m_volumesPage; }
    [[nodiscard]] SourcesPage *sourcesPage() const { return m_sourcesPage; }
    [[nodiscard]] EventsPage *eventsPage() const { return m_eventsPage; }
    [[nodiscard]] ActivityPanel *activityPanel() const { return m_activityPanel; }
    [[nodiscard]] QDockWidget *activityDock() const { return m_activityDock; }
    [[nodiscard]] QAction *refreshAction() const { return m_refreshAction; }

    void showPage(Page page);
    [[nodiscard]] Page currentPage() const;

    /// A failure or notice that stays until dismissed, without blocking the window.
    void showNotification(const QString &text, bool error = true);
    [[nodiscard]] QString notificationText() const;
    /// A transient status-bar message.
    void showStatusMessage(const QString &text, int timeoutMs = 8000);

    /// "2 sources: 1 OK, 1 unreachable" (plain text); `worst` receives the StatusRole value of
    /// the worst health present ("ok", "unknown", "warning", "critical").
    static QString healthSummary(const QList<core::Health> &healths, QString *worst = nullptr);
    /// The status bar's current summary, as plain text.
    [[nodiscard]] QString healthSummaryText() const;

    /// Window geometry and state, header and splitter states, current page.
    [[nodiscard]] QVariantMap layoutState() const;
    void restoreLayoutState(const QVariantMap &state);

Q_SIGNALS:
    void refreshRequested();
    /// The window is closing: persist layoutState() now.
    void closing();

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void createMenus();
    void updateHealthSummary();
    void showAbout();

    Models m_models;
    QListWidget *m_navigation = nullptr;
    QStackedWidget *m_stack = nullptr;
    VolumesPage *m_volumesPage = nullptr;
    SourcesPage *m_sourcesPage = nullptr;
    EventsPage *m_eventsPage = nullptr;
    ActivityPanel *m_activityPanel = nullptr;
    QDockWidget *m_activityDock = nullptr;
    QFrame *m_notification = nullptr;
    QLabel *m_notificationIcon = nullptr;
    QLabel *m_notificationLabel = nullptr;
    QLabel *m_healthLabel = nullptr;
    QString m_healthPlain;
    QAction *m_refreshAction = nullptr;
};

} // namespace strata::views
