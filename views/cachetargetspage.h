#pragma once

#include "models/core/domain/action.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QSplitter;
class QTableView;
class QTimer;

namespace strata::models {
class CacheTargetModel;
class CachedCommitModel;
} // namespace strata::models

namespace strata::views {

class FieldFilterProxy;

/// Cache targets ("NFS connected"): each target with its cluster, claim, volume, a capacity bar
/// (used / capacity with the high-watermark marker), cached bytes and eviction policy; below it
/// the cached commits on the selected target with state, loading progress, last use, the jobs
/// that used them and when the policy evicts them ("evicts in 2 days", "evicting"). Clear asks
/// for a CacheEvict through actionRequested(); the page does no I/O. A one-minute timer keeps
/// the "evicts in" texts current (CachedCommitModel::tick()).
class CacheTargetsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CacheTargetsPage)

public:
    CacheTargetsPage(models::CacheTargetModel *targets, models::CachedCommitModel *cached, QWidget *parent = nullptr);
    ~CacheTargetsPage() override;

    [[nodiscard]] QTableView *targetView() const { return m_targetView; }
    [[nodiscard]] QTableView *cachedView() const { return m_cachedView; }
    [[nodiscard]] QPushButton *clearButton() const { return m_clearButton; }
    [[nodiscard]] QString summaryText() const;

    /// Selects target `name` of Kubernetes source `source`; false when not shown.
    bool selectTarget(const QString &source, const QString &name);
    /// Selects the cached commit `commitId` on the selected target; false when not shown.
    bool selectCachedCommit(const QString &commitId);

    [[nodiscard]] QByteArray headerState() const;
    void restoreHeaderState(const QByteArray &state);

Q_SIGNALS:
    /// A CacheEvict to preview and confirm.
    void actionRequested(const strata::core::ActionRequest &request);

private:
    void onTargetChanged();
    void updateButtons();
    void updateSummary();
    void requestClear();

    models::CacheTargetModel *m_targets;
    models::CachedCommitModel *m_cached;
    FieldFilterProxy *m_targetProxy = nullptr;
    FieldFilterProxy *m_cachedProxy = nullptr;
    QLabel *m_summaryLabel = nullptr;
    QTableView *m_targetView = nullptr;
    QLabel *m_detailTitle = nullptr;
    QTableView *m_cachedView = nullptr;
    QPushButton *m_clearButton = nullptr;
    QSplitter *m_splitter = nullptr;
    QTimer *m_tick = nullptr;
};

} // namespace strata::views
