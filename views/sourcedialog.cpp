#include "views/sourcedialog.h"

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
#include <QRegularExpression>
#include <QSpinBox>
#include <QStyle>
#include <QUrl>
#include <QVBoxLayout>

namespace strata::views {

namespace {

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
    auto *caRow = new QHBoxLayout();
    caRow->addWidget(m_caFileEdit, 1);
    caRow->addWidget(m_caBrowseButton);

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
    form->addRow(tr("&Name:"), m_nameEdit);
    form->addRow(tr("&Kind:"), m_kindCombo);
    form->addRow(tr("&URL:"), m_urlEdit);
    form->addRow(tr("&Username:"), m_usernameEdit);
    form->addRow(tr("&Password:"), m_passwordEdit);
    form->addRow(tr("&CA file:"), caRow);
    form->addRow(QString(), m_insecureCheck);
    form->addRow(QString(), m_insecureWarning);
    form->addRow(tr("&Inventory poll every:"), m_configInterval);
    form->addRow(tr("P&erformance poll every:"), m_perfInterval);

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

    for (QLineEdit *edit : {m_nameEdit, m_urlEdit, m_usernameEdit, m_passwordEdit, m_caFileEdit}) {
        connect(edit, &QLineEdit::textChanged, this, &SourceDialog::validate);
    }
    connect(m_insecureCheck, &QCheckBox::toggled, this, &SourceDialog::validate);
    connect(m_caBrowseButton, &QPushButton::clicked, this, &SourceDialog::browseCaFile);
    connect(m_testButton, &QPushButton::clicked, this, [this] {
        m_testButton->setEnabled(false);
        m_testResult->setText(tr("Testing…"));
        setLabelStatus(m_testResult, QStringLiteral("running"));
        Q_EMIT testRequested(config(), password());
    });
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SourceDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SourceDialog::reject);
    setLabelStatus(m_insecureWarning, QStringLiteral("warning"));
    setLabelStatus(m_validationLabel, QStringLiteral("critical"));
    validate();
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
    m_kindCombo->setCurrentIndex(std::max(0, m_kindCombo->findData(core::sourceKindName(config.kind))));
    m_urlEdit->setText(config.url);
    m_usernameEdit->setText(config.username);
    m_passwordEdit->clear();
    m_passwordEdit->setPlaceholderText(config.password.kind == core::SecretRef::Kind::None
                                           ? tr("No password stored")
                                           : tr("Leave empty to keep the stored password"));
    m_caFileEdit->setText(config.caFile);
    m_insecureCheck->setChecked(config.insecureSkipTlsVerify);
    m_configInterval->setValue(config.configIntervalSeconds);
    m_perfInterval->setValue(config.perfIntervalSeconds);
    validate();
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
    return c;
}

QString SourceDialog::password() const
{
    return m_passwordEdit->text();
}

QString SourceDialog::validationError() const
{
    static const QRegularExpression namePattern(QStringLiteral("^[A-Za-z0-9._-]+$"));
    const core::SourceConfig c = config();
    if (c.name.isEmpty()) {
        return tr("Enter a name.");
    }
    if (!namePattern.match(c.name).hasMatch()) {
        return tr("The name may only contain letters, digits, '.', '_' and '-'.");
    }
    if (!m_edit && m_existingNames.contains(c.name)) {
        return tr("A source named %1 already exists.").arg(c.name);
    }
    const QUrl url(c.url, QUrl::StrictMode);
    if (c.url.isEmpty()) {
        return tr("Enter the URL of the cluster management interface.");
    }
    if (!url.isValid() || url.host().isEmpty()
        || (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http"))) {
        return tr("The URL must look like https://cluster-mgmt.example.com.");
    }
    if (c.username.isEmpty()) {
        return tr("Enter a username.");
    }
    if (m_passwordEdit->text().isEmpty() && (!m_edit || m_original.password.kind == core::SecretRef::Kind::None)) {
        return tr("Enter the password.");
    }
    return {};
}

void SourceDialog::validate()
{
    const QString error = validationError();
    m_validationLabel->setText(error);
    m_validationLabel->setVisible(!error.isEmpty() && (!m_nameEdit->text().isEmpty() || m_edit));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(error.isEmpty());
    m_insecureWarning->setVisible(m_insecureCheck->isChecked());
    const core::SourceConfig c = config();
    m_testButton->setEnabled(!c.url.isEmpty() && !c.username.isEmpty());
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

void SourceDialog::accept()
{
    if (validationError().isEmpty()) {
        QDialog::accept();
    }
}

} // namespace strata::views
