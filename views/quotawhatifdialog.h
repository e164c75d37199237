#pragma once

#include "models/core/domain/action.h"
#include "models/core/planning/quotawhatif.h"

#include <QDialog>
#include <QHash>

#include <optional>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace strata::core {
class Estate;
}

namespace strata::views {

/// "What if quotas change" for one GPU cluster: a quota (and optional KAI over-quota weight) per
/// project, Predict, then each project's quota, allocation, fair share and queue now → predicted
/// and every job that would start, be preempted or stay queued (core::predictQuotaChange, the
/// rules of `strata what-if quota` and the web console's card). The estate is copied on the GUI
/// thread and the prediction runs on the global thread pool. Changes nothing: "Apply quota…"
/// asks for the selected project's ProjectQuotaEdit, which the action dialog previews and runs.
class QuotaWhatIfDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(QuotaWhatIfDialog)

public:
    QuotaWhatIfDialog(const core::Estate &estate, QString cluster, QWidget *parent = nullptr);
    ~QuotaWhatIfDialog() override;

    [[nodiscard]] const QString &cluster() const { return m_cluster; }
    /// Sets a project's quota in the form (GPUs); false for an unknown project.
    bool setQuota(const QString &project, double gpus);
    /// Starts a prediction with the form's values; predicted() follows.
    void predict();
    /// The last prediction, nullopt before the first one.
    [[nodiscard]] const std::optional<core::QuotaWhatIf> &result() const { return m_result; }
    [[nodiscard]] QString summaryText() const;
    [[nodiscard]] QTableWidget *projectTable() const { return m_projectTable; }
    [[nodiscard]] QTableWidget *jobTable() const { return m_jobTable; }
    /// What "Apply quota…" does now, or why it is disabled ("Select a project…"), shown beside
    /// the button and as its tooltip.
    [[nodiscard]] QString applyHint() const;

Q_SIGNALS:
    /// A prediction is shown (or its error, in summaryText()).
    void predicted();
    /// "Apply quota…" for the selected project's predicted quota.
    void actionRequested(const strata::core::ActionRequest &request);

private:
    struct ProjectInputs
    {
        core::Project live;
        QDoubleSpinBox *quota = nullptr;
        QDoubleSpinBox *weight = nullptr;
    };
    void showOutcome(const core::Result<core::QuotaWhatIf> &outcome);
    void applySelected();
    /// Enables "Apply quota…" for a selected project whose predicted quota differs, and says
    /// why not otherwise.
    void updateApplyState();

    QString m_cluster;
    QList<core::GpuNode> m_nodes;
    QList<core::Job> m_jobs;
    QHash<QString, QString> m_blocked; ///< core::QuotaWhatIfInput::blocked
    QList<ProjectInputs> m_inputs;
    QCheckBox *m_byWeight = nullptr;
    QLabel *m_summary = nullptr;
    QTableWidget *m_projectTable = nullptr;
    QTableWidget *m_jobTable = nullptr;
    QPushButton *m_predictButton = nullptr;
    QPushButton *m_applyButton = nullptr;
    QLabel *m_applyHint = nullptr;
    std::optional<core::QuotaWhatIf> m_result;
};

} // namespace strata::views
