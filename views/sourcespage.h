#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;

namespace strata::models {
class SourceTableModel;
}

namespace strata::views {

/// The configured sources with their live health (coloured by StatusRole) and last error, and
/// Add / Edit / Test / Remove / Refresh. Remove asks for confirmation here; everything else is
/// a signal for the controller. With no sources it shows how to get started.
class SourcesPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SourcesPage)

public:
    explicit SourcesPage(models::SourceTableModel *sources, QWidget *parent = nullptr);
    ~SourcesPage() override;

    [[nodiscard]] QString currentSourceName() const;
    /// Selects the row of `name` (no-op when unknown).
    void selectSource(const QString &name);
    /// Shows the outcome of a testRequested().
    void setTestResult(const QString &name, bool ok, const QString &message);
    [[nodiscard]] QTableView *tableView() const { return m_view; }

    [[nodiscard]] QByteArray headerState() const;
    void restoreHeaderState(const QByteArray &state);

Q_SIGNALS:
    void addRequested();
    void editRequested(const QString &name);
    void testRequested(const QString &name);
    /// Already confirmed by the user.
    void removeRequested(const QString &name);
    void refreshRequested(const QString &name);

private:
    void updateButtons();
    void updateEmptyState();
    void confirmRemove();

    models::SourceTableModel *m_sources;
    QSortFilterProxyModel *m_proxy = nullptr;
    QStackedWidget *m_stack = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_resultLabel = nullptr;
    QPushButton *m_addButton = nullptr;
    QPushButton *m_editButton = nullptr;
    QPushButton *m_testButton = nullptr;
    QPushButton *m_removeButton = nullptr;
    QPushButton *m_refreshButton = nullptr;
};

} // namespace strata::views
