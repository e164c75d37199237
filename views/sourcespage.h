#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;

namespace strata::models {
class AksClusterModel;
class SourceTableModel;
} // namespace strata::models

namespace strata::views {

/// The configured sources with their live health (coloured by StatusRole) and last error, and
/// Add / Edit / Test / Remove / Refresh. Remove asks for confirmation here; everything else is
/// a signal for the controller. With no sources it shows how to get started. When an Azure
/// source lists AKS clusters, a "Clusters in Azure" table below offers "Add as Kubernetes
/// source…" for each.
class SourcesPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SourcesPage)

public:
    /// `aks` (optional) lists the AKS clusters of Azure sources.
    explicit SourcesPage(models::SourceTableModel *sources,
                         models::AksClusterModel *aks = nullptr,
                         QWidget *parent = nullptr);
    ~SourcesPage() override;

    [[nodiscard]] QString currentSourceName() const;
    /// Selects the row of `name` (no-op when unknown).
    void selectSource(const QString &name);
    /// Shows the outcome of a testRequested().
    void setTestResult(const QString &name, bool ok, const QString &message);
    [[nodiscard]] QTableView *tableView() const { return m_view; }
    /// nullptr without an AKS model.
    [[nodiscard]] QTableView *aksView() const { return m_aksView; }
    [[nodiscard]] QWidget *aksSection() const { return m_aksSection; }
    /// Selects the AKS cluster "<source>/<id>" (false when not listed).
    bool selectAksCluster(const QString &key);

    [[nodiscard]] QByteArray headerState() const;
    void restoreHeaderState(const QByteArray &state);

Q_SIGNALS:
    void addRequested();
    void editRequested(const QString &name);
    void testRequested(const QString &name);
    /// Already confirmed by the user.
    void removeRequested(const QString &name);
    void refreshRequested(const QString &name);
    /// "Add as Kubernetes source…" for the AKS cluster `clusterId` (lower-cased ARM id) of the
    /// Azure source `source`.
    void addAksClusterRequested(const QString &source, const QString &clusterId);

private:
    void updateButtons();
    void updateEmptyState();
    void confirmRemove();
    void updateAks();

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
    models::AksClusterModel *m_aks = nullptr;
    QWidget *m_aksSection = nullptr;
    QTableView *m_aksView = nullptr;
    QPushButton *m_addAksButton = nullptr;
};

} // namespace strata::views
