#pragma once

#include "models/core/runtime/sourceadmin.h"
#include "models/core/store/config.h"

#include <QDialog>
#include <QHash>

#include <optional>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTimer;

namespace strata::views {

/// Add or edit one source: name, kind, URL, username, password, CA file, "skip TLS
/// verification" (with a visible warning) and poll intervals, plus a Test button. The password
/// is only handed to the controller (for the keychain), never put into the returned config; on
/// edit an empty password keeps the stored one. Validation happens as the user types.
///
/// A Kubernetes cluster connects either through a kubeconfig (path, empty = $KUBECONFIG or
/// ~/.kube/config, and one of its contexts) or through an API server URL with a bearer token
/// (the password field, labelled "Token"), CA file and "skip TLS verification"; Prometheus
/// (DCGM metrics) is optional. The username and inventory interval belong to ONTAP only. The
/// An Azure subscription needs its subscription id and, with the default "client secret"
/// credential, the tenant id, client (application) id and client secret (the password field,
/// keychain); with "Azure CLI" tokens come from the user's `az login`. Advanced settings: the
/// Entra ID authority URL (sovereign clouds, tests) and the ARM URL (`url`). The
/// A StorageGRID grid needs the admin node URL, a grid administrator and password, and for the
/// dataset hub optionally the S3 URL, region, access key, secret key (keychain), path-style
/// addressing and the dataset roots ("datasets/*, sentiment"). The
/// dialog reads no file itself: it asks for the kubeconfig's contexts with contextsWanted()
/// and shows them when setContexts() answers.
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
    /// StorageGRID: the S3 secret key entered (for the keychain, "strata/<name>/s3_secret");
    /// empty = keep the stored one (or none without an S3 URL).
    [[nodiscard]] QString s3Secret() const;
    /// Why OK is disabled (the first of fieldErrors()), empty when the input is acceptable.
    [[nodiscard]] QString validationError() const;
    /// core::SourceAdmin::validateEdit() of the input (the rules the web console applies too:
    /// editing, a changed endpoint or weaker TLS needs the stored password / S3 secret typed
    /// again), plus what only the form knows (the kubeconfig being read, its contexts). Each is
    /// shown under its field.
    [[nodiscard]] QList<core::Error> fieldErrors() const;

    /// Shows the outcome of a testRequested() (re-enables the Test button).
    void setTestResult(bool ok, const QString &message);

    void accept() override;

    /// Answers the latest contextsWanted(): the kubeconfig's contexts in file order, its
    /// current-context, or why it could not be read (then `contexts` is empty). Selects the
    /// edited source's context when listed, else `currentContext`.
    void setContexts(const QStringList &contexts, const QString &currentContext, const QString &error);

Q_SIGNALS:
    void testRequested(const strata::core::SourceConfig &config, const QString &password);
    /// The contexts of the kubeconfig at `path` (empty = the default) are needed; answer with
    /// setContexts(). Sent when Kubernetes + kubeconfig is chosen and when the path changes.
    void contextsWanted(const QString &path);

private:
    /// Editing: why a stored secret must be typed again (core::secretMustBeReentered), else empty.
    [[nodiscard]] QString reentryError() const;
    [[nodiscard]] bool isKubernetes() const;
    [[nodiscard]] bool isAzure() const;
    [[nodiscard]] bool isStorageGrid() const;
    /// The dataset roots field, split at commas and trimmed (StorageGRID and ONTAP sources).
    [[nodiscard]] QStringList datasetRoots() const;
    /// An AKS cluster added from Azure: the kubeconfig is the keychain secret.
    [[nodiscard]] bool usesSecretKubeconfig() const;
    [[nodiscard]] bool usesAzureCli() const;
    [[nodiscard]] bool usesKubeconfig() const;
    void validate();
    void updateKind();
    void requestContexts();
    void browseCaFile();
    void browseKubeconfig();

    QStringList m_existingNames;
    bool m_edit = false;
    core::SourceConfig m_original;

    QLineEdit *m_nameEdit = nullptr;
    QComboBox *m_kindCombo = nullptr;
    QComboBox *m_connectCombo = nullptr;
    QLineEdit *m_kubeconfigEdit = nullptr;
    QPushButton *m_kubeconfigBrowseButton = nullptr;
    QWidget *m_kubeconfigRow = nullptr;
    QComboBox *m_contextCombo = nullptr;
    QTimer *m_contextsTimer = nullptr;
    QLineEdit *m_urlEdit = nullptr;
    QLineEdit *m_usernameEdit = nullptr;
    QLineEdit *m_passwordEdit = nullptr;
    QLineEdit *m_caFileEdit = nullptr;
    QPushButton *m_caBrowseButton = nullptr;
    QWidget *m_caRow = nullptr;
    QCheckBox *m_insecureCheck = nullptr;
    QLabel *m_insecureWarning = nullptr;
    QSpinBox *m_configInterval = nullptr;
    QSpinBox *m_perfInterval = nullptr;
    QLineEdit *m_prometheusEdit = nullptr;
    QLineEdit *m_subscriptionEdit = nullptr;
    QComboBox *m_credentialCombo = nullptr;
    QLineEdit *m_tenantEdit = nullptr;
    QLineEdit *m_clientIdEdit = nullptr;
    QCheckBox *m_advancedCheck = nullptr;
    QLineEdit *m_authorityEdit = nullptr;
    QLineEdit *m_s3UrlEdit = nullptr;
    QLineEdit *m_s3RegionEdit = nullptr;
    QLineEdit *m_s3AccessKeyEdit = nullptr;
    QLineEdit *m_s3SecretEdit = nullptr;
    QCheckBox *m_s3PathStyleCheck = nullptr;
    QLineEdit *m_datasetRootsEdit = nullptr;
    QFormLayout *m_form = nullptr;
    struct FieldErrorRow
    {
        QWidget *field = nullptr;
        QLabel *label = nullptr;
    };
    /// By config key ("url", "password", ...): the field and the error line under it.
    QHash<QString, FieldErrorRow> m_fieldErrorRows;
    QPushButton *m_testButton = nullptr;
    QLabel *m_testResult = nullptr;
    QLabel *m_validationLabel = nullptr;
    QDialogButtonBox *m_buttons = nullptr;

    /// Kubeconfig path of the last contextsWanted(); the answer is pending until setContexts().
    std::optional<QString> m_requestedPath;
    bool m_contextsPending = false;
    QStringList m_contexts;
    QString m_contextsError;
};

} // namespace strata::views
