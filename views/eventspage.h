#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;

namespace strata::models {
class EventTableModel;
}

namespace strata::views {

class EventFilterProxy;

/// Events of every source on one timeline, newest first, severity coloured, with a free-text
/// filter and a minimum-severity choice (the support engineer's triage view).
class EventsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EventsPage)

public:
    explicit EventsPage(models::EventTableModel *events, QWidget *parent = nullptr);
    ~EventsPage() override;

    [[nodiscard]] QTableView *tableView() const { return m_view; }
    [[nodiscard]] EventFilterProxy *proxy() const { return m_proxy; }
    [[nodiscard]] QByteArray headerState() const;
    void restoreHeaderState(const QByteArray &state);

private:
    void updateCount();

    models::EventTableModel *m_events;
    EventFilterProxy *m_proxy = nullptr;
    QTableView *m_view = nullptr;
    QLineEdit *m_filterEdit = nullptr;
    QComboBox *m_severityCombo = nullptr;
    QLabel *m_countLabel = nullptr;
    QTimer *m_countTimer = nullptr;
};

} // namespace strata::views
