#pragma once

#include "models/core/config.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace strata::views {

/// Add or edit one source: name, kind, URL, username, password, CA file, "skip TLS
/// verification" (with a visible warning) and poll intervals, plus a Test button. The password
/// is only handed to the controller (for the keychain), never put into the returned config; on
/// edit an empty password keeps the stored one. Validation happens as the user types.
class SourceDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SourceDialog)

public:
    /// Add mode. `existingNames` are refused as names.
    explicit SourceDialog(QStringList existingNames, QWidget *parent = nullptr);
    ~SourceDialog() override;

    /// Switches to edit mode for `config` (its name cannot change: secrets are keyed by it).
    void setSource(const core::SourceConfig &config);
    [[nodiscard]] bool isEdit() const { return m_edit; }

    /// The entered settings; `password` keeps the edited source's reference (or none).
    [[nodiscard]] core::SourceConfig config() const;
    /// Empty on edit = keep the stored password.
    [[nodiscard]] QString password() const;
    /// Why OK is disabled, empty when the input is acceptable.
    [[nodiscard]] QString validationError() const;

    /// Shows the outcome of a testRequested() (re-enables the Test button).
    void setTestResult(bool ok, const QString &message);

    void accept() override;

Q_SIGNALS:
    void testRequested(const strata::core::SourceConfig &config, const QString &password);

private:
    void validate();
    void browseCaFile();

    QStringList m_existingNames;
    bool m_edit = false;
    core::SourceConfig m_original;

    QLineEdit *m_nameEdit = nullptr;
    QComboBox *m_kindCombo = nullptr;
    QLineEdit *m_urlEdit = nullptr;
    QLineEdit *m_usernameEdit = nullptr;
    QLineEdit *m_passwordEdit = nullptr;
    QLineEdit *m_caFileEdit = nullptr;
    QPushButton *m_caBrowseButton = nullptr;
    QCheckBox *m_insecureCheck = nullptr;
    QLabel *m_insecureWarning = nullptr;
    QSpinBox *m_configInterval = nullptr;
    QSpinBox *m_perfInterval = nullptr;
    QPushButton *m_testButton = nullptr;
    QLabel *m_testResult = nullptr;
    QLabel *m_validationLabel = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace strata::views
