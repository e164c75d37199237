#pragma once

#include "models/core/domain/action.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace strata::core {
class Estate;
}

namespace strata::views {

/// The `runai submit` form (TR-4858 1.1.1): cluster (when several), project, job name, image,
/// GPUs (whole GPUs or one fraction below 1, e.g. 0.5), interactive or training, command and
/// arguments, and PVC mounts picked from the project's namespace PVCs in the estate. Validates
/// live (validate()) and only then enables OK; the result is a JobSubmit ActionRequest that the
/// controller previews and confirms in ActionDialog like every other action.
class JobSubmitDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobSubmitDialog)

public:
    /// `source`/`project` preselect a cluster and project (empty = the first).
    JobSubmitDialog(const core::Estate &estate,
                    const QString &source = {},
                    const QString &project = {},
                    QWidget *parent = nullptr);
    ~JobSubmitDialog() override;

    [[nodiscard]] QString source() const;
    [[nodiscard]] core::JobSpec spec() const;
    /// The JobSubmit request for the current inputs.
    [[nodiscard]] core::ActionRequest request() const;
    /// Why OK is disabled; empty when the inputs are valid.
    [[nodiscard]] QString validationError() const;

    /// First problem of `spec`, empty when it can be submitted: a project is required; the name
    /// must be a DNS-1123 label (lower-case letters, digits, '-', at most 63, starting and ending
    /// alphanumeric) not in `takenNames`; an image is required; GPUs must be > 0 and either
    /// whole or a single fraction below one (1.5 is refused); mount paths must be absolute and
    /// distinct.
    static QString validate(const core::JobSpec &spec, const QStringList &takenNames);

    void accept() override;

Q_SIGNALS:
    void submitRequested(const strata::core::ActionRequest &request);

private:
    void fillProjects();
    void fillPvcs();
    void updateValidation();
    [[nodiscard]] QStringList takenNames() const;

    const core::Estate &m_estate;
    QComboBox *m_clusterCombo = nullptr;
    QComboBox *m_projectCombo = nullptr;
    QLineEdit *m_nameEdit = nullptr;
    QLineEdit *m_imageEdit = nullptr;
    QDoubleSpinBox *m_gpuSpin = nullptr;
    QComboBox *m_typeCombo = nullptr;
    QLineEdit *m_commandEdit = nullptr;
    QLineEdit *m_argsEdit = nullptr;
    QTableWidget *m_pvcTable = nullptr;
    QLabel *m_errorLabel = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QString m_error;
};

} // namespace strata::views
