#pragma once

#include "models/core/domain/action.h"

#include <QDialog>
#include <QPointer>
#include <QWidget>

#include <optional>

class QLabel;
class QLineEdit;
class QPushButton;
class QSplitter;
class QTableView;
class QTreeWidget;

namespace strata::core {
class Estate;
struct CachedCommit;
struct CommitComparison;
} // namespace strata::core

namespace strata::models {
class CacheTargetModel;
class CachedCommitModel;
class CommitModel;
class DatasetModel;
} // namespace strata::models

namespace strata::views {

class FieldFilterProxy;

/// The dataset hub (TR-4841): the header "6 Datasets | 277 MiB | 3 NFS Connected | 212 MiB /
/// 6.0 TiB Used by cached commits", a row per dataset (name, source, kind, cached commits, size,
/// commits, last active), and for the selected dataset its page: the commits (id, message,
/// author, time, objects, size, parent, where cached), the cached copies of the selected commit
/// per target with a progress bar, and the lineage of a cached copy (dataset → commit → cache
/// volume → PVC → job → project). Buttons ask the controller for actions (Commit…, Cache on…,
/// Clear) through actionRequested() and for a comparison through compareRequested(); the page
/// does no I/O.
class DatasetsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DatasetsPage)

public:
    DatasetsPage(core::Estate *estate,
                 models::DatasetModel *datasets,
                 models::CommitModel *commits,
                 models::CachedCommitModel *cached,
                 models::CacheTargetModel *targets,
                 QWidget *parent = nullptr);
    ~DatasetsPage() override;

    [[nodiscard]] QString headerText() const;
    [[nodiscard]] QTableView *datasetView() const { return m_datasetView; }
    [[nodiscard]] QTableView *commitView() const { return m_commitView; }
    [[nodiscard]] QTableView *cachedView() const { return m_cachedView; }
    [[nodiscard]] QTreeWidget *lineageTree() const { return m_lineage; }
    [[nodiscard]] QPushButton *commitButton() const { return m_commitButton; }
    [[nodiscard]] QPushButton *cacheButton() const { return m_cacheButton; }
    [[nodiscard]] QPushButton *clearButton() const { return m_clearButton; }
    [[nodiscard]] QPushButton *compareButton() const { return m_compareButton; }

    /// Selects the dataset "<source>/<id>"; false when it is not shown.
    bool selectDataset(const QString &key);
    /// Selects a commit of the shown dataset by its full id; false when it is not listed.
    bool selectCommit(const QString &commitId);
    /// Selects the shown commit's cached copy on `target`; false when there is none.
    bool selectCachedCopy(const QString &target);
    /// The selected commits' ids (at most two are used by Compare).
    [[nodiscard]] QStringList selectedCommitIds() const;

    /// The request "Cache on `target`" for the selected commit (the target's Kubernetes source
    /// and name); nullopt when no commit is selected.
    [[nodiscard]] std::optional<core::ActionRequest> cacheRequest(const QString &targetSource,
                                                                  const QString &target) const;
    /// For a file dataset (ONTAP volume): the request "FlexClone of the selected commit's
    /// snapshot" (VolumeClone; the dialog names the clone); nullopt for S3 datasets or no commit.
    [[nodiscard]] std::optional<core::ActionRequest> cloneRequest() const;
    /// Lineage lines as shown, indented by depth with two spaces ("fraud_jun", "  commit …").
    [[nodiscard]] QStringList lineageTexts() const;
    /// Shows the answer to compareRequested() in a dialog: the added, removed and changed
    /// objects, or `error` when not empty. Ignored when another comparison was asked since.
    void showComparison(const core::CommitComparison &comparison, const QString &error = {});
    /// The open comparison dialog, nullptr when none.
    [[nodiscard]] QDialog *comparisonDialog() const { return m_comparisonDialog; }

    [[nodiscard]] QByteArray headerState() const;
    void restoreHeaderState(const QByteArray &state);

Q_SIGNALS:
    /// A DatasetCommit, CacheCommit or CacheEvict to preview and confirm.
    void actionRequested(const strata::core::ActionRequest &request);
    /// Compare commit `fromId` with `toId` of dataset `datasetId` of `source`; answer with
    /// showComparison().
    void compareRequested(const QString &source, const QString &datasetId, const QString &fromId, const QString &toId);

private:
    void onDatasetChanged();
    void onCommitChanged();
    void updateHeader();
    void updateButtons();
    void updateLineage();
    void requestCommit();
    void requestClear();
    void requestCompare();
    void showCacheMenu();
    [[nodiscard]] const core::CachedCommit *currentCachedCopy() const;

    core::Estate *m_estate;
    models::DatasetModel *m_datasets;
    models::CommitModel *m_commits;
    models::CachedCommitModel *m_cached;
    models::CacheTargetModel *m_targets;
    FieldFilterProxy *m_datasetProxy = nullptr;
    FieldFilterProxy *m_commitProxy = nullptr;
    FieldFilterProxy *m_cachedProxy = nullptr;
    QLabel *m_headerLabel = nullptr;
    QLineEdit *m_filterEdit = nullptr;
    QTableView *m_datasetView = nullptr;
    QLabel *m_detailTitle = nullptr;
    QTableView *m_commitView = nullptr;
    QTableView *m_cachedView = nullptr;
    QTreeWidget *m_lineage = nullptr;
    QPushButton *m_commitButton = nullptr;
    QPushButton *m_cacheButton = nullptr;
    QPushButton *m_clearButton = nullptr;
    QPushButton *m_compareButton = nullptr;
    QSplitter *m_splitter = nullptr;
    QString m_datasetKey;
    QString m_compareFrom;
    QString m_compareTo;
    QPointer<QDialog> m_comparisonDialog;
};

} // namespace strata::views
