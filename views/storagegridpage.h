#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QTabWidget;
class QTableView;

namespace strata::core {
class Estate;
struct GridSummary;
} // namespace strata::core

namespace strata::models {
class BucketModel;
class GridAlertModel;
class GridNodeModel;
class TenantModel;
} // namespace strata::models

namespace strata::views {

class FieldFilterProxy;

/// StorageGRID: per grid a health line (nodes connected / down, active alerts by severity,
/// product and API version, active ILM policy, used of usable space), then tabs with the nodes,
/// the alerts (active, resolved or both), and the tenants with usage, quota and 7-day growth
/// above the buckets of the selected tenant (all buckets when none is selected).
class StorageGridPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StorageGridPage)

public:
    StorageGridPage(core::Estate *estate,
                    models::GridNodeModel *nodes,
                    models::GridAlertModel *alerts,
                    models::TenantModel *tenants,
                    models::BucketModel *buckets,
                    QWidget *parent = nullptr);
    ~StorageGridPage() override;

    /// Which alerts the Alerts tab lists.
    enum class AlertFilter
    {
        Active,
        Resolved,
        All
    };
    void setAlertFilter(AlertFilter filter);

    [[nodiscard]] QString healthText() const;
    [[nodiscard]] QTabWidget *tabs() const { return m_tabs; }
    [[nodiscard]] QTableView *nodeView() const { return m_nodeView; }
    [[nodiscard]] QTableView *alertView() const { return m_alertView; }
    [[nodiscard]] QTableView *tenantView() const { return m_tenantView; }
    [[nodiscard]] QTableView *bucketView() const { return m_bucketView; }
    /// Selects tenant "<source>/<accountId>" (the bucket table follows); false when not shown.
    bool selectTenant(const QString &key);

    /// "datalake: StorageGRID 11.8.0.2 (API v4) · 5 nodes connected, 0 down · alerts: 0
    /// critical, 0 major, 1 minor · ILM: … · 420.0 MB of 3.0 TB used".
    static QString healthLine(const core::GridSummary &grid);

    [[nodiscard]] QByteArray headerState() const;
    void restoreHeaderState(const QByteArray &state);

private:
    void updateHealth();
    void onTenantChanged();

    core::Estate *m_estate;
    models::GridNodeModel *m_nodes;
    models::GridAlertModel *m_alerts;
    models::TenantModel *m_tenants;
    models::BucketModel *m_buckets;
    FieldFilterProxy *m_nodeProxy = nullptr;
    FieldFilterProxy *m_alertProxy = nullptr;
    FieldFilterProxy *m_tenantProxy = nullptr;
    FieldFilterProxy *m_bucketProxy = nullptr;
    QLabel *m_healthLabel = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTableView *m_nodeView = nullptr;
    QComboBox *m_alertCombo = nullptr;
    QTableView *m_alertView = nullptr;
    QTableView *m_tenantView = nullptr;
    QLabel *m_bucketTitle = nullptr;
    QTableView *m_bucketView = nullptr;
};

} // namespace strata::views
