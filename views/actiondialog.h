#pragma once

#include "models/core/domain/action.h"

#include <QDialog>

#include <functional>

class QCheckBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;

namespace strata::views {

/// Confirmation step of every action (preview -> confirm -> progress -> result): shows what the
/// model layer's preview says the action will do (title, target, from -> to, effects, warnings
/// with a warning icon, and a blocked reason that disables OK), with the inputs the action needs:
/// a snapshot name and comment (create), a clone name (clone), for destructive snapshot actions
/// (delete, restore) the snapshot's name typed again, for a job deletion an explicit check box,
/// for a quota edit the new guaranteed GPUs (two decimals), and for a service-level change whose
/// request offers a new capacity pool (targetPool + poolSizeBytes) a "Create pool … of N TiB"
/// check box that sets request.createPool; a dataset commit asks for its message (request.comment).
/// Caching and clearing a commit arrive complete from the Datasets and Cache targets pages. A job submission arrives
/// complete from JobSubmitDialog and is only previewed here. Every edit re-runs the preview, so
/// validation is the model layer's. Emits confirmed() on OK; running it is the controller's job.
class ActionDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ActionDialog)

public:
    using Previewer = std::function<core::ActionPreview(const core::ActionRequest &)>;

    /// `request.name` is the default name (create/clone). `confirmationText` is what the user must
    /// type for a destructive action (the snapshot name).
    ActionDialog(core::ActionRequest request,
                 Previewer previewer,
                 QString confirmationText = {},
                 QWidget *parent = nullptr);
    ~ActionDialog() override;

    [[nodiscard]] core::ActionRequest request() const { return m_request; }
    [[nodiscard]] const core::ActionPreview &preview() const { return m_preview; }
    /// Whether OK is enabled right now.
    [[nodiscard]] bool canConfirm() const;

    void accept() override;

Q_SIGNALS:
    void confirmed(const strata::core::ActionRequest &request);

private:
    void refresh();
    void updateOk();

    core::ActionRequest m_request;
    Previewer m_previewer;
    QString m_confirmationText;
    core::ActionPreview m_preview;

    QLabel *m_titleLabel = nullptr;
    QLabel *m_targetLabel = nullptr;
    QLabel *m_changeLabel = nullptr;
    QLabel *m_effectsLabel = nullptr;
    QLabel *m_warningIcon = nullptr;
    QLabel *m_warningsLabel = nullptr;
    QLabel *m_blockedLabel = nullptr;
    QLineEdit *m_nameEdit = nullptr;
    QLineEdit *m_commentEdit = nullptr;
    QLineEdit *m_confirmEdit = nullptr;
    QCheckBox *m_confirmCheck = nullptr;    ///< JobDelete: explicit "delete these jobs"
    QDoubleSpinBox *m_quotaSpin = nullptr;  ///< ProjectQuotaEdit: new quota in GPUs
    QCheckBox *m_createPoolCheck = nullptr; ///< ServiceLevelChange: create the offered ANF pool first
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace strata::views
