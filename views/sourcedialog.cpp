#include "views/sourcedialog.h"

#include "models/core/runtime/sourceadmin.h"
#include "views/statusdelegate.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace strata::views {

namespace {

// A form row of a line edit and its Browse… button, as one widget so the row can be hidden.
QWidget *browseRow(QLineEdit *edit, QPushButton *button, QWidget *parent)
{
    auto *row = new QWidget(parent);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    edit->setParent(row);
    button->setParent(row);
    layout->addWidget(edit, 1);
    layout->addWidget(button);
    return row;
}

void setLabelStatus(QLabel *label, const QString &status)
{
    QPalette pal = label->palette();
    const QColor color = StatusDelegate::colorFor(status, label->parentWidget()->palette(), true);
    pal.setColor(QPalette::WindowText, color);
    label->setPalette(pal);
}

} // namespace

SourceDialog::SourceDialog(QStringList existingNames, QWidget *parent)
    : QDialog(parent)
    , m_existingNames(std::move(existingNames))
{
    setObjectName(QStringLiteral("sourceDialog"));
    setWindowTitle(tr("Add source"));
    setMinimumWidth(520);

    m_nameEdit = new QLineEdit(this);
    m_nameEdit->setObjectName(QStringLiteral("sourceNameLineEdit"));
    m_nameEdit->setPlaceholderText(tr("e.g. ontap-prod"));
    m_kindCombo = new QComboBox(this);
    m_kindCombo->setObjectName(QStringLiteral("sourceKindComboBox"));
    m_kindCombo->addItem(tr("NetApp ONTAP"), core::sourceKindName(core::SourceKind::Ontap));
    m_kindCombo->addItem(tr("Kubernetes cluster"), core::sourceKindName(core::SourceKind::Kubernetes));
    m_kindCombo->addItem(tr("Azure subscription"), core::sourceKindName(core::SourceKind::Azure));
    m_kindCombo->addItem(tr("StorageGRID grid"), core::sourceKindName(core::SourceKind::StorageGrid));

    m_s3UrlEdit = new QLineEdit(this);
    m_s3UrlEdit->setObjectName(QStringLiteral("sourceS3UrlLineEdit"));
    m_s3UrlEdit->setPlaceholderText(tr("Optional, e.g. https://s3.datalake.example:10443"));
    m_s3UrlEdit->setToolTip(tr("The grid's S3 endpoint for the dataset hub; empty = grid pages only."));
    m_s3RegionEdit = new QLineEdit(this);
    m_s3RegionEdit->setObjectName(QStringLiteral("sourceS3RegionLineEdit"));
    m_s3RegionEdit->setPlaceholderText(QStringLiteral("us-east-1"));
    m_s3AccessKeyEdit = new QLineEdit(this);
    m_s3AccessKeyEdit->setObjectName(QStringLiteral("sourceS3AccessKeyLineEdit"));
    m_s3AccessKeyEdit->setToolTip(tr("S3 access key id of the tenant that holds the datasets."));
    m_s3SecretEdit = new QLineEdit(this);
    m_s3SecretEdit->setObjectName(QStringLiteral("sourceS3SecretLineEdit"));
    m_s3SecretEdit->setEchoMode(QLineEdit::Password);
    m_s3SecretEdit->setToolTip(tr("Stored in the system keychain, never in the configuration file."));
    m_s3PathStyleCheck = new QCheckBox(tr("Path-style addressing (host/bucket/key)"), this);
    m_s3PathStyleCheck->setObjectName(QStringLiteral("sourceS3PathStyleCheckBox"));
    m_s3PathStyleCheck->setChecked(true);
    m_s3PathStyleCheck->setToolTip(
        tr("Off: virtual-hosted addressing (bucket.host/key), which needs DNS for every bucket."));
    m_datasetRootsEdit = new QLineEdit(this);
    m_datasetRootsEdit->setObjectName(QStringLiteral("sourceDatasetRootsLineEdit"));

    m_subscriptionEdit = new QLineEdit(this);
    m_subscriptionEdit->setObjectName(QStringLiteral("sourceSubscriptionLineEdit"));
    m_subscriptionEdit->setPlaceholderText(tr("00000000-0000-0000-0000-000000000000"));
    m_subscriptionEdit->setToolTip(tr("The subscription with the Azure NetApp Files accounts and AKS clusters."));
    m_credentialCombo = new QComboBox(this);
    m_credentialCombo->setObjectName(QStringLiteral("sourceCredentialComboBox"));
    m_credentialCombo->addItem(tr("Service principal (client secret)"), QStringLiteral("client_secret"));
    m_credentialCombo->addItem(tr("Azure CLI login (az login)"), QStringLiteral("azure_cli"));
    m_tenantEdit = new QLineEdit(this);
    m_tenantEdit->setObjectName(QStringLiteral("sourceTenantLineEdit"));
    m_tenantEdit->setPlaceholderText(tr("Directory (tenant) id or domain"));
    m_clientIdEdit = new QLineEdit(this);
    m_clientIdEdit->setObjectName(QStringLiteral("sourceClientIdLineEdit"));
    m_clientIdEdit->setPlaceholderText(tr("Application (client) id"));
    m_advancedCheck = new QCheckBox(tr("Show advanced settings"), this);
    m_advancedCheck->setObjectName(QStringLiteral("sourceAdvancedCheckBox"));
    m_authorityEdit = new QLineEdit(this);
    m_authorityEdit->setObjectName(QStringLiteral("sourceAuthorityLineEdit"));
    m_authorityEdit->setPlaceholderText(QStringLiteral("https://login.microsoftonline.com"));
    m_authorityEdit->setToolTip(tr("Microsoft Entra ID authority; change it for sovereign clouds or Azure Stack."));

    m_connectCombo = new QComboBox(this);
    m_connectCombo->setObjectName(QStringLiteral("sourceConnectComboBox"));
    m_connectCombo->addItem(tr("Kubeconfig"), QStringLiteral("kubeconfig"));
    m_connectCombo->addItem(tr("API server URL and token"), QStringLiteral("url"));
    m_kubeconfigEdit = new QLineEdit(this);
    m_kubeconfigEdit->setObjectName(QStringLiteral("sourceKubeconfigLineEdit"));
    m_kubeconfigEdit->setPlaceholderText(tr("$KUBECONFIG or ~/.kube/config"));
    m_kubeconfigEdit->setToolTip(
        tr("The cluster, CA and credentials (token, client certificate or exec plugin) come from this file."));
    m_kubeconfigBrowseButton = new QPushButton(tr("Browse…"), this);
    m_kubeconfigBrowseButton->setObjectName(QStringLiteral("sourceKubeconfigBrowseButton"));
    m_kubeconfigRow = browseRow(m_kubeconfigEdit, m_kubeconfigBrowseButton, this);
    m_contextCombo = new QComboBox(this);
    m_contextCombo->setObjectName(QStringLiteral("sourceContextComboBox"));
    m_contextsTimer = new QTimer(this);
    m_contextsTimer->setSingleShot(true);
    m_contextsTimer->setInterval(400); // read the file once the user stops typing
    m_urlEdit = new QLineEdit(this);
    m_urlEdit->setObjectName(QStringLiteral("sourceUrlLineEdit"));
    m_urlEdit->setPlaceholderText(tr("https://cluster-mgmt.example.com"));
    m_usernameEdit = new QLineEdit(this);
    m_usernameEdit->setObjectName(QStringLiteral("sourceUsernameLineEdit"));
    m_usernameEdit->setPlaceholderText(tr("e.g. admin"));
    m_passwordEdit = new QLineEdit(this);
    m_passwordEdit->setObjectName(QStringLiteral("sourcePasswordLineEdit"));
    m_passwordEdit->setEchoMode(QLineEdit::Password);
    m_passwordEdit->setToolTip(tr("Stored in the system keychain, never in the configuration file."));

    m_caFileEdit = new QLineEdit(this);
    m_caFileEdit->setObjectName(QStringLiteral("sourceCaFileLineEdit"));
    m_caFileEdit->setPlaceholderText(tr("System certificate store"));
    m_caBrowseButton = new QPushButton(tr("Browse…"), this);
    m_caBrowseButton->setObjectName(QStringLiteral("sourceCaFileBrowseButton"));
    m_caRow = browseRow(m_caFileEdit, m_caBrowseButton, this);

    m_insecureCheck = new QCheckBox(tr("Skip TLS verification (insecure)"), this);
    m_insecureCheck->setObjectName(QStringLiteral("sourceInsecureCheckBox"));
    m_insecureWarning = new QLabel(tr("Anyone on the network path can impersonate this system and read its password. "
                                      "Prefer a CA file."),
                                   this);
    m_insecureWarning->setObjectName(QStringLiteral("sourceInsecureWarningLabel"));
    m_insecureWarning->setWordWrap(true);
    QFont bold = m_insecureWarning->font();
    bold.setBold(true);
    m_insecureWarning->setFont(bold);

    m_configInterval = new QSpinBox(this);
    m_configInterval->setObjectName(QStringLiteral("sourceConfigIntervalSpinBox"));
    m_configInterval->setRange(5, 86400);
    m_configInterval->setValue(180);
    m_configInterval->setSuffix(tr(" s"));
    m_perfInterval = new QSpinBox(this);
    m_perfInterval->setObjectName(QStringLiteral("sourcePerfIntervalSpinBox"));
    m_perfInterval->setRange(5, 86400);
    m_perfInterval->setValue(60);
    m_perfInterval->setSuffix(tr(" s"));
    m_prometheusEdit = new QLineEdit(this);
    m_prometheusEdit->setObjectName(QStringLiteral("sourcePrometheusLineEdit"));
    m_prometheusEdit->setPlaceholderText(tr("Optional, e.g. http://prometheus.monitoring:9090"));
    m_prometheusEdit->setToolTip(tr("Prometheus with the DCGM exporter's metrics, for GPU utilization."));

    m_testButton = new QPushButton(style()->standardIcon(QStyle::SP_DialogApplyButton), tr("&Test connection"), this);
    m_testButton->setObjectName(QStringLiteral("sourceTestButton"));
    m_testResult = new QLabel(this);
    m_testResult->setObjectName(QStringLiteral("sourceTestResultLabel"));
    m_testResult->setWordWrap(true);
    m_testResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *testRow = new QHBoxLayout();
    testRow->addWidget(m_testButton);
    testRow->addWidget(m_testResult, 1);

    auto *form = new QFormLayout();
    m_form = form;
    form->addRow(tr("&Name:"), m_nameEdit);
    form->addRow(tr("&Kind:"), m_kindCombo);
    form->addRow(tr("Connect &with:"), m_connectCombo);
    form->addRow(tr("Kube&config:"), m_kubeconfigRow);
    form->addRow(tr("Con&text:"), m_contextCombo);
    form->addRow(tr("&Subscription id:"), m_subscriptionEdit);
    form->addRow(tr("Cre&dentials:"), m_credentialCombo);
    form->addRow(tr("&Tenant id:"), m_tenantEdit);
    form->addRow(tr("C&lient id:"), m_clientIdEdit);
    form->addRow(QString(), m_advancedCheck);
    form->addRow(tr("&Authority URL:"), m_authorityEdit);
    form->addRow(tr("&URL:"), m_urlEdit);
    form->addRow(tr("&Username:"), m_usernameEdit);
    form->addRow(tr("&Password:"), m_passwordEdit);
    form->addRow(tr("&CA file:"), m_caRow);
    form->addRow(QString(), m_insecureCheck);
    form->addRow(QString(), m_insecureWarning);
    form->addRow(tr("&Inventory poll every:"), m_configInterval);
    form->addRow(tr("P&erformance poll every:"), m_perfInterval);
    form->addRow(tr("P&rometheus URL:"), m_prometheusEdit);
    form->addRow(tr("S&3 URL:"), m_s3UrlEdit);
    form->addRow(tr("S3 re&gion:"), m_s3RegionEdit);
    form->addRow(tr("S3 access &key:"), m_s3AccessKeyEdit);
    form->addRow(tr("S3 secret ke&y:"), m_s3SecretEdit);
    form->addRow(QString(), m_s3PathStyleCheck);
    form->addRow(tr("&Dataset roots:"), m_datasetRootsEdit);
    // Each field's error line sits right under it: SourceAdmin's sentences, the same the web
    // console's form shows.
    const std::pair<const char *, QWidget *> errorFields[] = {
        {"name", m_nameEdit},
        {"kubeconfig_in_secret", m_connectCombo},
        {"kubeconfig", m_kubeconfigRow},
        {"context", m_contextCombo},
        {"subscription_id", m_subscriptionEdit},
        {"credential_source", m_credentialCombo},
        {"tenant_id", m_tenantEdit},
        {"client_id", m_clientIdEdit},
        {"authority_url", m_authorityEdit},
        {"url", m_urlEdit},
        {"username", m_usernameEdit},
        {"password", m_passwordEdit},
        {"ca_file", m_caRow},
        {"prometheus_url", m_prometheusEdit},
        {"s3_url", m_s3UrlEdit},
        {"s3_access_key", m_s3AccessKeyEdit},
        {"s3_secret", m_s3SecretEdit},
        {"dataset_roots", m_datasetRootsEdit},
    };
    for (const auto &[key, field] : errorFields) {
        int row = -1;
        QFormLayout::ItemRole role = QFormLayout::FieldRole;
        form->getWidgetPosition(field, &row, &role);
        auto *error = new QLabel(this);
        error->setObjectName(QStringLiteral("sourceFieldError_") + QLatin1String(key));
        error->setWordWrap(true);
        form->insertRow(row + 1, QString(), error);
        form->setRowVisible(error, false);
        m_fieldErrorRows.insert(QLatin1String(key), FieldErrorRow{field, error});
    }

    m_validationLabel = new QLabel(this);
    m_validationLabel->setObjectName(QStringLiteral("sourceValidationLabel"));
    m_validationLabel->setWordWrap(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->setObjectName(QStringLiteral("sourceButtonBox"));
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Add"));

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(testRow);
    layout->addWidget(m_validationLabel);
    layout->addStretch(1);
    layout->addWidget(m_buttons);

    for (QLineEdit *edit : {m_nameEdit,
                            m_urlEdit,
                            m_usernameEdit,
                            m_passwordEdit,
                            m_caFileEdit,
                            m_prometheusEdit,
                            m_subscriptionEdit,
                            m_tenantEdit,
                            m_clientIdEdit,
                            m_authorityEdit,
                            m_s3UrlEdit,
                            m_s3RegionEdit,
                            m_s3AccessKeyEdit,
                            m_s3SecretEdit,
                            m_datasetRootsEdit}) {
        connect(edit, &QLineEdit::textChanged, this, &SourceDialog::validate);
    }
    connect(m_insecureCheck, &QCheckBox::toggled, this, &SourceDialog::validate);
    connect(m_caBrowseButton, &QPushButton::clicked, this, &SourceDialog::browseCaFile);
    connect(m_kindCombo, &QComboBox::currentIndexChanged, this, &SourceDialog::updateKind);
    connect(m_connectCombo, &QComboBox::currentIndexChanged, this, &SourceDialog::updateKind);
    connect(m_credentialCombo, &QComboBox::currentIndexChanged, this, &SourceDialog::updateKind);
    connect(m_advancedCheck, &QCheckBox::toggled, this, &SourceDialog::updateKind);
    connect(m_contextCombo, &QComboBox::currentIndexChanged, this, &SourceDialog::validate);
    connect(m_kubeconfigEdit, &QLineEdit::textChanged, this, [this] {
        m_contextsTimer->start();
        validate();
    });
    connect(m_kubeconfigEdit, &QLineEdit::editingFinished, this, &SourceDialog::requestContexts);
    connect(m_contextsTimer, &QTimer::timeout, this, &SourceDialog::requestContexts);
    connect(m_kubeconfigBrowseButton, &QPushButton::clicked, this, &SourceDialog::browseKubeconfig);
    connect(m_testButton, &QPushButton::clicked, this, [this] {
        // Testing would send the stored secret to the changed endpoint.
        if (const QString why = reentryError(); !why.isEmpty()) {
            setTestResult(false, why);
            return;
        }
        m_testButton->setEnabled(false);
        m_testResult->setText(tr("Testing…"));
        setLabelStatus(m_testResult, QStringLiteral("running"));
        Q_EMIT testRequested(config(), password());
    });
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SourceDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SourceDialog::reject);
    setLabelStatus(m_insecureWarning, QStringLiteral("warning"));
    setLabelStatus(m_validationLabel, QStringLiteral("critical"));
    for (const FieldErrorRow &row : std::as_const(m_fieldErrorRows)) {
        setLabelStatus(row.label, QStringLiteral("critical"));
    }
    updateKind();
}

SourceDialog::~SourceDialog() = default;

void SourceDialog::setSource(const core::SourceConfig &config)
{
    m_edit = true;
    m_original = config;
    setWindowTitle(tr("Edit source %1").arg(config.name));
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Save"));
    m_nameEdit->setText(config.name);
    m_nameEdit->setReadOnly(true);
    m_nameEdit->setToolTip(tr("The name keys the stored password; remove and add the source to rename it."));
    const bool kube = config.kind == core::SourceKind::Kubernetes;
    if (kube) {
        // The stored context stays selectable until the kubeconfig's contexts arrive.
        m_contextCombo->clear();
        if (!config.kubeContext.isEmpty()) {
            m_contextCombo->addItem(config.kubeContext);
        }
        if (config.kubeconfigInSecret) {
            // Added from AKS: the kubeconfig itself is the keychain secret; only Prometheus and
            // the interval are editable here.
            m_connectCombo->addItem(tr("Kubeconfig in the keychain (from AKS)"), QStringLiteral("secret"));
            m_connectCombo->setCurrentIndex(m_connectCombo->count() - 1);
        } else {
            m_connectCombo->setCurrentIndex(config.url.isEmpty() ? 0 : 1);
        }
        m_kubeconfigEdit->setText(config.kubeconfig);
        m_prometheusEdit->setText(config.prometheusUrl);
        m_requestedPath.reset();
    }
    if (config.kind == core::SourceKind::Azure) {
        m_subscriptionEdit->setText(config.subscriptionId);
        m_tenantEdit->setText(config.tenantId);
        m_clientIdEdit->setText(config.clientId);
        m_authorityEdit->setText(config.authorityUrl);
        m_credentialCombo->setCurrentIndex(
            std::max(0,
                     m_credentialCombo->findData(config.credentialSource.isEmpty() ? QStringLiteral("client_secret")
                                                                                   : config.credentialSource)));
        m_advancedCheck->setChecked(!config.url.isEmpty() || !config.authorityUrl.isEmpty());
    }
    if (config.kind == core::SourceKind::Ontap) {
        m_datasetRootsEdit->setText(config.datasetRoots.join(QStringLiteral(", ")));
    }
    if (config.kind == core::SourceKind::StorageGrid) {
        m_s3UrlEdit->setText(config.s3Url);
        m_s3RegionEdit->setText(config.s3Region);
        m_s3AccessKeyEdit->setText(config.s3AccessKey);
        m_s3PathStyleCheck->setChecked(config.s3PathStyle);
        m_datasetRootsEdit->setText(config.datasetRoots.join(QStringLiteral(", ")));
        m_s3SecretEdit->setPlaceholderText(config.s3Secret.kind == core::SecretRef::Kind::None
                                               ? tr("No secret key stored")
                                               : tr("Leave empty to keep the stored secret key"));
    }
    m_kindCombo->setCurrentIndex(std::max(0, m_kindCombo->findData(core::sourceKindName(config.kind))));
    m_urlEdit->setText(config.url);
    m_usernameEdit->setText(config.username);
    m_passwordEdit->clear();
    if (config.kind == core::SourceKind::Azure) {
        m_passwordEdit->setPlaceholderText(config.password.kind == core::SecretRef::Kind::None
                                               ? tr("No client secret stored")
                                               : tr("Leave empty to keep the stored client secret"));
    } else if (kube) {
        m_passwordEdit->setPlaceholderText(config.password.kind == core::SecretRef::Kind::None
                                               ? tr("No token stored")
                                               : tr("Leave empty to keep the stored token"));
    } else {
        m_passwordEdit->setPlaceholderText(config.password.kind == core::SecretRef::Kind::None
                                               ? tr("No password stored")
                                               : tr("Leave empty to keep the stored password"));
    }
    m_caFileEdit->setText(config.caFile);
    m_insecureCheck->setChecked(config.insecureSkipTlsVerify);
    m_configInterval->setValue(config.configIntervalSeconds);
    m_perfInterval->setValue(config.perfIntervalSeconds);
    updateKind();
}

core::SourceConfig SourceDialog::config() const
{
    core::SourceConfig c = m_original;
    c.name = m_nameEdit->text().trimmed();
    c.kind = core::sourceKindFromName(m_kindCombo->currentData().toString()).value_or(core::SourceKind::Ontap);
    c.url = m_urlEdit->text().trimmed();
    while (c.url.endsWith(QLatin1Char('/'))) {
        c.url.chop(1);
    }
    c.username = m_usernameEdit->text().trimmed();
    c.caFile = m_caFileEdit->text().trimmed();
    c.insecureSkipTlsVerify = m_insecureCheck->isChecked();
    c.configIntervalSeconds = m_configInterval->value();
    c.perfIntervalSeconds = m_perfInterval->value();
    if (c.kind != core::SourceKind::Azure) {
        c.subscriptionId.clear();
        c.tenantId.clear();
        c.clientId.clear();
        c.authorityUrl.clear();
        c.credentialSource.clear();
    } else {
        c.username.clear();
        c.subscriptionId = m_subscriptionEdit->text().trimmed();
        c.tenantId = m_tenantEdit->text().trimmed();
        c.clientId = m_clientIdEdit->text().trimmed();
        c.credentialSource = m_credentialCombo->currentData().toString();
        c.authorityUrl = m_authorityEdit->text().trimmed();
        while (c.authorityUrl.endsWith(QLatin1Char('/'))) {
            c.authorityUrl.chop(1);
        }
        if (usesAzureCli()) {
            // The Azure CLI holds the credentials; no secret of Strata's is involved.
            c.clientId.clear();
            c.password = {};
        }
    }
    if (c.kind != core::SourceKind::StorageGrid) {
        c.s3Url.clear();
        c.s3Region.clear();
        c.s3AccessKey.clear();
        c.s3Secret = {};
        c.s3PathStyle = true;
        c.datasetRoots = c.kind == core::SourceKind::Ontap ? datasetRoots() : QStringList();
    } else {
        c.s3Url = m_s3UrlEdit->text().trimmed();
        while (c.s3Url.endsWith(QLatin1Char('/'))) {
            c.s3Url.chop(1);
        }
        c.s3Region = m_s3RegionEdit->text().trimmed();
        c.s3AccessKey = m_s3AccessKeyEdit->text().trimmed();
        c.s3PathStyle = m_s3PathStyleCheck->isChecked();
        c.datasetRoots = datasetRoots();
        if (c.s3Url.isEmpty()) {
            c.s3Secret = {};
        }
    }
    if (c.kind != core::SourceKind::Kubernetes) {
        c.kubeconfig.clear();
        c.kubeContext.clear();
        c.prometheusUrl.clear();
        c.kubeconfigInSecret = false;
        return c;
    }
    c.username.clear();
    c.prometheusUrl = m_prometheusEdit->text().trimmed();
    while (c.prometheusUrl.endsWith(QLatin1Char('/'))) {
        c.prometheusUrl.chop(1);
    }
    c.kubeconfigInSecret = usesSecretKubeconfig();
    if (c.kubeconfigInSecret) {
        c.url.clear();
        c.caFile.clear();
        c.insecureSkipTlsVerify = false;
        c.kubeconfig.clear();
        return c;
    }
    if (usesKubeconfig()) {
        // The kubeconfig carries server, CA, TLS settings and credentials.
        c.url.clear();
        c.caFile.clear();
        c.insecureSkipTlsVerify = false;
        c.password = {};
        c.kubeconfig = m_kubeconfigEdit->text().trimmed();
        c.kubeContext = m_contextCombo->currentText();
    } else {
        c.kubeconfig.clear();
        c.kubeContext.clear();
    }
    return c;
}

QString SourceDialog::password() const
{
    if ((isKubernetes() && (usesKubeconfig() || usesSecretKubeconfig())) || (isAzure() && usesAzureCli())) {
        return {};
    }
    return m_passwordEdit->text();
}

QString SourceDialog::s3Secret() const
{
    return isStorageGrid() && !m_s3UrlEdit->text().trimmed().isEmpty() ? m_s3SecretEdit->text() : QString();
}

QStringList SourceDialog::datasetRoots() const
{
    QStringList out;
    for (const QString &root : m_datasetRootsEdit->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        if (!root.trimmed().isEmpty()) {
            out << root.trimmed();
        }
    }
    return out;
}

bool SourceDialog::isStorageGrid() const
{
    return m_kindCombo->currentData().toString() == core::sourceKindName(core::SourceKind::StorageGrid);
}

bool SourceDialog::usesSecretKubeconfig() const
{
    return isKubernetes() && m_connectCombo->currentData().toString() == QLatin1String("secret");
}

bool SourceDialog::isAzure() const
{
    return m_kindCombo->currentData().toString() == core::sourceKindName(core::SourceKind::Azure);
}

bool SourceDialog::usesAzureCli() const
{
    return m_credentialCombo->currentData().toString() == QLatin1String("azure_cli");
}

bool SourceDialog::isKubernetes() const
{
    return m_kindCombo->currentData().toString() == core::sourceKindName(core::SourceKind::Kubernetes);
}

bool SourceDialog::usesKubeconfig() const
{
    return m_connectCombo->currentData().toString() == QLatin1String("kubeconfig");
}

QString SourceDialog::validationError() const
{
    const QList<core::Error> errors = fieldErrors();
    return errors.isEmpty() ? QString() : errors.first().message;
}

QString SourceDialog::reentryError() const
{
    if (!m_edit) {
        return {};
    }
    const core::SourceConfig c = config();
    for (const core::SecretReentry &r : core::secretMustBeReentered(m_original, c)) {
        const QLineEdit *edit = r.secret == QLatin1String("s3_secret") ? m_s3SecretEdit : m_passwordEdit;
        if (edit->text().isEmpty()) {
            return r.message(c);
        }
    }
    return {};
}

QList<core::Error> SourceDialog::fieldErrors() const
{
    const core::SourceConfig c = config();
    // What only the form knows: the kubeconfig the dialog had read, and the API URL chosen as the
    // way in but left empty (in the config that reads as "use a kubeconfig").
    QList<core::Error> form;
    if (c.kind == core::SourceKind::Kubernetes && !c.kubeconfigInSecret) {
        if (usesKubeconfig()) {
            if (m_contextsPending || m_requestedPath != c.kubeconfig) {
                form.append(core::Error::invalid(QStringLiteral("kubeconfig"), tr("Reading the kubeconfig…")));
            } else if (!m_contextsError.isEmpty()) {
                form.append(core::Error::invalid(QStringLiteral("kubeconfig"),
                                                 tr("Cannot use the kubeconfig: %1").arg(m_contextsError)));
            } else if (c.kubeContext.isEmpty()) {
                form.append(core::Error::invalid(QStringLiteral("context"), tr("Choose a context.")));
            } else if (!m_contexts.contains(c.kubeContext)) {
                form.append(core::Error::invalid(QStringLiteral("context"),
                                                 tr("The kubeconfig has no context named %1.").arg(c.kubeContext)));
            }
        } else if (c.url.isEmpty()) {
            form.append(core::Error::invalid(QStringLiteral("url"), tr("Enter the URL of the Kubernetes API server.")));
        }
    }
    QList<core::Error> errors = core::SourceAdmin::validateEdit(
        {c, password(), s3Secret()}, m_edit ? &m_original : nullptr, m_edit ? QStringList() : m_existingNames);
    qsizetype at = 0;
    while (at < errors.size() && errors.at(at).field == QLatin1String("name")) {
        ++at;
    }
    for (const core::Error &e : std::as_const(form)) {
        errors.insert(at++, e);
    }
    return errors;
}

void SourceDialog::validate()
{
    const QList<core::Error> errors = fieldErrors();
    const QString error = errors.isEmpty() ? QString() : errors.first().message;
    // A new, still empty form is not an error yet.
    const bool show = !m_nameEdit->text().isEmpty() || m_edit;
    bool firstShown = false;
    for (auto it = m_fieldErrorRows.cbegin(); it != m_fieldErrorRows.cend(); ++it) {
        const auto found = std::find_if(errors.cbegin(), errors.cend(), [&it](const core::Error &e) {
            return e.field == it.key();
        });
        const bool visible = show && found != errors.cend() && m_form->isRowVisible(it->field);
        it->label->setText(found != errors.cend() ? found->message : QString());
        m_form->setRowVisible(it->label, visible);
        firstShown = firstShown || (visible && it.key() == errors.first().field);
    }
    // Under the form too when no field shows it (a field of the advanced settings, ...).
    m_validationLabel->setText(error);
    m_validationLabel->setVisible(show && !error.isEmpty() && !firstShown);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(error.isEmpty());
    const bool kube = isKubernetes();
    const bool kubeconfig = kube && usesKubeconfig();
    m_form->setRowVisible(m_insecureWarning, !kubeconfig && m_insecureCheck->isChecked());
    const core::SourceConfig c = config();
    if (isAzure()) {
        m_testButton->setEnabled(!c.subscriptionId.isEmpty()
                                 && (usesAzureCli() || (!c.tenantId.isEmpty() && !c.clientId.isEmpty())));
    } else if (!kube) {
        m_testButton->setEnabled(!c.url.isEmpty() && !c.username.isEmpty());
    } else if (usesSecretKubeconfig()) {
        m_testButton->setEnabled(true);
    } else if (kubeconfig) {
        m_testButton->setEnabled(!m_contextsPending && m_contextsError.isEmpty() && m_contexts.contains(c.kubeContext));
    } else {
        m_testButton->setEnabled(!c.url.isEmpty());
    }
}

void SourceDialog::updateKind()
{
    const bool kube = isKubernetes();
    const bool kubeconfig = kube && (usesKubeconfig() || usesSecretKubeconfig());
    const bool azure = isAzure();
    const bool cli = azure && usesAzureCli();
    const bool advanced = m_advancedCheck->isChecked();
    const bool grid = isStorageGrid();
    for (QWidget *field : std::initializer_list<QWidget *>{
             m_s3UrlEdit, m_s3RegionEdit, m_s3AccessKeyEdit, m_s3SecretEdit, m_s3PathStyleCheck}) {
        m_form->setRowVisible(field, grid);
    }
    // ONTAP: volumes that are file datasets (their snapshots are the commits).
    const bool ontap = !kube && !azure && !grid;
    m_form->setRowVisible(m_datasetRootsEdit, grid || ontap);
    m_datasetRootsEdit->setPlaceholderText(ontap ? tr("e.g. svm_ai/chest_xray, imagenet")
                                                 : tr("e.g. datasets/*, sentiment"));
    m_datasetRootsEdit->setToolTip(
        ontap ? tr("Volumes that are file datasets, separated by commas: \"svm/volume\" or \"volume\". Their "
                   "snapshots are the dataset's commits; caching one is a FlexClone.")
              : tr("Where datasets live, separated by commas: \"bucket/*\" = every top-level prefix "
                   "is a dataset, \"bucket\" = the whole bucket, \"bucket/prefix/\" = that prefix."));
    m_form->setRowVisible(m_subscriptionEdit, azure);
    m_form->setRowVisible(m_credentialCombo, azure);
    m_form->setRowVisible(m_tenantEdit, azure);
    m_form->setRowVisible(m_clientIdEdit, azure && !cli);
    m_form->setRowVisible(m_advancedCheck, azure);
    m_form->setRowVisible(m_authorityEdit, azure && advanced && !cli);
    m_tenantEdit->setPlaceholderText(cli ? tr("Optional: the az login's default tenant")
                                         : tr("Directory (tenant) id or domain"));
    m_form->setRowVisible(m_connectCombo, kube);
    m_form->setRowVisible(m_kubeconfigRow, kubeconfig && !usesSecretKubeconfig());
    m_form->setRowVisible(m_contextCombo, kubeconfig && !usesSecretKubeconfig());
    m_form->setRowVisible(m_urlEdit, !kubeconfig && (!azure || advanced));
    m_form->setRowVisible(m_usernameEdit, !kube && !azure);
    m_form->setRowVisible(m_passwordEdit, !kubeconfig && !cli);
    m_form->setRowVisible(m_caRow, !kubeconfig);
    m_form->setRowVisible(m_insecureCheck, !kubeconfig);
    m_form->setRowVisible(m_configInterval, !kube);
    m_form->setRowVisible(m_perfInterval, !grid);
    if (auto *label = qobject_cast<QLabel *>(m_form->labelForField(m_urlEdit))) {
        label->setText(azure ? tr("A&RM URL:") : grid ? tr("Admin node &URL:") : tr("&URL:"));
    }
    if (auto *label = qobject_cast<QLabel *>(m_form->labelForField(m_configInterval))) {
        label->setText(grid ? tr("&Poll grid and datasets every:") : tr("&Inventory poll every:"));
    }
    m_form->setRowVisible(m_prometheusEdit, kube);
    if (auto *label = qobject_cast<QLabel *>(m_form->labelForField(m_passwordEdit))) {
        label->setText(azure ? tr("Client &secret:") : kube ? tr("&Token:") : tr("&Password:"));
    }
    if (auto *label = qobject_cast<QLabel *>(m_form->labelForField(m_perfInterval))) {
        label->setText(kube ? tr("GPU m&etrics every:") : tr("P&erformance poll every:"));
    }
    m_urlEdit->setPlaceholderText(azure  ? QStringLiteral("https://management.azure.com")
                                  : kube ? tr("https://api.cluster.example.com:6443")
                                  : grid ? tr("https://admin.datalake.example")
                                         : tr("https://cluster-mgmt.example.com"));
    m_usernameEdit->setToolTip(grid ? tr("A grid administrator: reads grid health, alerts, tenants and usage.")
                                    : QString());
    m_passwordEdit->setToolTip(azure ? tr("The service principal's client secret. Stored in the system keychain, never "
                                          "in the configuration file.")
                               : kube ? tr("A ServiceAccount bearer token. Stored in the system keychain, never in the "
                                           "configuration file.")
                                      : tr("Stored in the system keychain, never in the configuration file."));
    if (kubeconfig && !usesSecretKubeconfig() && m_requestedPath != m_kubeconfigEdit->text().trimmed()) {
        requestContexts();
        return;
    }
    validate();
}

void SourceDialog::requestContexts()
{
    m_contextsTimer->stop();
    const QString path = m_kubeconfigEdit->text().trimmed();
    if (!isKubernetes() || !usesKubeconfig() || (m_requestedPath == path && m_contextsError.isEmpty())) {
        validate();
        return;
    }
    m_requestedPath = path;
    m_contextsPending = true;
    m_contextsError.clear();
    validate();
    Q_EMIT contextsWanted(path);
}

void SourceDialog::setContexts(const QStringList &contexts, const QString &currentContext, const QString &error)
{
    m_contextsPending = false;
    m_contexts = contexts;
    m_contextsError = error;
    const QString previous = m_contextCombo->currentText();
    const QSignalBlocker blocker(m_contextCombo);
    m_contextCombo->clear();
    m_contextCombo->addItems(contexts);
    const int current = contexts.indexOf(currentContext);
    if (current >= 0) {
        m_contextCombo->setItemData(current, tr("The kubeconfig's current-context"), Qt::ToolTipRole);
    }
    // Keep what the user chose when the file still has it. An edited source's context that the
    // file lost stays selected (and refused) rather than silently pointing at another cluster.
    int index = contexts.indexOf(previous);
    if (index < 0 && m_edit && !previous.isEmpty() && previous == m_original.kubeContext && error.isEmpty()) {
        m_contextCombo->insertItem(0, previous);
        index = 0;
    }
    if (index < 0) {
        index = current >= 0 ? current : (contexts.isEmpty() ? -1 : 0);
    }
    m_contextCombo->setCurrentIndex(index);
    validate();
}

void SourceDialog::setTestResult(bool ok, const QString &message)
{
    m_testButton->setEnabled(true);
    m_testResult->setText(message);
    setLabelStatus(m_testResult, ok ? QStringLiteral("succeeded") : QStringLiteral("critical"));
}

void SourceDialog::browseCaFile()
{
    const QString path = QFileDialog::getOpenFileName(this,
                                                      tr("CA certificate bundle"),
                                                      m_caFileEdit->text(),
                                                      tr("PEM certificates (*.pem *.crt *.cer);;All files (*)"));
    if (!path.isEmpty()) {
        m_caFileEdit->setText(path);
    }
}

void SourceDialog::browseKubeconfig()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Kubeconfig"), m_kubeconfigEdit->text(), tr("All files (*)"));
    if (!path.isEmpty()) {
        m_kubeconfigEdit->setText(path);
        requestContexts();
    }
}

void SourceDialog::accept()
{
    if (validationError().isEmpty()) {
        QDialog::accept();
    }
}

} // namespace strata::views
