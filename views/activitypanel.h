#pragma once

#include <QWidget>

class QPushButton;
class QTableView;

namespace strata::models {
class ActivityModel;
}

namespace strata::views {

/// Running and finished actions (the Activity dock): state coloured, progress and result, the
/// action's effects as a tooltip, and Retry for a failed action (the model layer reconciles
/// first, so a retry never applies an action twice).
class ActivityPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ActivityPanel)

public:
    explicit ActivityPanel(models::ActivityModel *activity, QWidget *parent = nullptr);
    ~ActivityPanel() override;

    [[nodiscard]] QTableView *tableView() const { return m_view; }
    [[nodiscard]] QString selectedActionId() const;
    [[nodiscard]] QByteArray headerState() const;
    void restoreHeaderState(const QByteArray &state);

Q_SIGNALS:
    void retryRequested(const QString &actionId);

private:
    void updateButtons();

    models::ActivityModel *m_activity;
    QTableView *m_view = nullptr;
    QPushButton *m_retryButton = nullptr;
};

} // namespace strata::views
