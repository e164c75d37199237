#include "views/actiondialog.h"

#include "views/statusdelegate.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

#include <cmath>

namespace strata::views {

namespace {

QString bulletList(const QStringList &lines)
{
    QString html = QStringLiteral("<ul style=\"margin-left:-20px\">");
    for (const QString &line : lines) {
        html += QStringLiteral("<li>") + line.toHtmlEscaped() + QStringLiteral("</li>");
    }
    return html + QStringLiteral("</ul>");
}

} // namespace

ActionDialog::ActionDialog(core::ActionRequest request, Previewer previewer, QString confirmationText, QWidget *parent)
    : QDialog(parent)
    , m_request(std::move(request))
    , m_previewer(std::move(previewer))
    , m_confirmationText(std::move(confirmationText))
{
    setObjectName(QStringLiteral("actionDialog"));
    setMinimumWidth(520);

    m_titleLabel = new QLabel(this);
    m_titleLabel->setObjectName(QStringLiteral("actionTitleLabel"));
    QFont titleFont = m_titleLabel->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    m_titleLabel->setFont(titleFont);
    m_targetLabel = new QLabel(this);
    m_targetLabel->setObjectName(QStringLiteral("actionTargetLabel"));
    m_targetLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_changeLabel = new QLabel(this);
    m_changeLabel->setObjectName(QStringLiteral("actionChangeLabel"));
    m_effectsLabel = new QLabel(this);
    m_effectsLabel->setObjectName(QStringLiteral("actionEffectsLabel"));
    m_effectsLabel->setTextFormat(Qt::RichText);
    m_effectsLabel->setWordWrap(true);

    m_warningIcon = new QLabel(this);
    const int iconSize = style()->pixelMetric(QStyle::PM_MessageBoxIconSize, nullptr, this);
    m_warningIcon->setPixmap(
        style()->standardIcon(QStyle::SP_MessageBoxWarning, nullptr, this).pixmap(iconSize, iconSize));
    m_warningIcon->setAlignment(Qt::AlignTop);
    m_warningsLabel = new QLabel(this);
    m_warningsLabel->setObjectName(QStringLiteral("actionWarningsLabel"));
    m_warningsLabel->setTextFormat(Qt::RichText);
    m_warningsLabel->setWordWrap(true);
    QFont bold = m_warningsLabel->font();
    bold.setBold(true);
    m_warningsLabel->setFont(bold);
    auto *warnings = new QHBoxLayout();
    warnings->addWidget(m_warningIcon, 0, Qt::AlignTop);
    warnings->addWidget(m_warningsLabel, 1);

    m_blockedLabel = new QLabel(this);
    m_blockedLabel->setObjectName(QStringLiteral("actionBlockedLabel"));
    m_blockedLabel->setWordWrap(true);

    auto *inputs = new QFormLayout();
    QString okText;
    switch (m_request.kind) {
    case core::ActionKind::SnapshotCreate:
        m_nameEdit = new QLineEdit(m_request.name, this);
        m_nameEdit->setObjectName(QStringLiteral("snapshotNameLineEdit"));
        m_commentEdit = new QLineEdit(m_request.comment, this);
        m_commentEdit->setObjectName(QStringLiteral("snapshotCommentLineEdit"));
        m_commentEdit->setPlaceholderText(tr("Optional"));
        inputs->addRow(tr("Snapshot &name:"), m_nameEdit);
        inputs->addRow(tr("&Comment:"), m_commentEdit);
        okText = tr("Create");
        break;
    case core::ActionKind::VolumeClone:
        m_nameEdit = new QLineEdit(m_request.name, this);
        m_nameEdit->setObjectName(QStringLiteral("cloneNameLineEdit"));
        inputs->addRow(tr("Clone volume &name:"), m_nameEdit);
        okText = tr("Clone");
        break;
    case core::ActionKind::SnapshotDelete:
    case core::ActionKind::SnapshotRestore: {
        m_confirmEdit = new QLineEdit(this);
        m_confirmEdit->setObjectName(QStringLiteral("confirmNameLineEdit"));
        m_confirmEdit->setPlaceholderText(m_confirmationText);
        auto *confirm = new QLabel(tr("Type <b>%1</b> to confirm:").arg(m_confirmationText.toHtmlEscaped()), this);
        confirm->setTextFormat(Qt::RichText);
        inputs->addRow(confirm);
        inputs->addRow(m_confirmEdit);
        okText = m_request.kind == core::ActionKind::SnapshotDelete ? tr("Delete") : tr("Restore");
        break;
    }
    case core::ActionKind::JobSubmit:
        // The spec was entered in JobSubmitDialog; this step only shows what will happen.
        okText = tr("Submit");
        break;
    case core::ActionKind::JobDelete:
        m_confirmCheck = new QCheckBox(
            m_request.jobIds.size() == 1
                ? tr("Delete this job; its running work stops")
                : tr("Delete these %n jobs; their running work stops", nullptr, int(m_request.jobIds.size())),
            this);
        m_confirmCheck->setObjectName(QStringLiteral("confirmDeleteCheckBox"));
        inputs->addRow(m_confirmCheck);
        okText = tr("Delete");
        break;
    case core::ActionKind::ProjectQuotaEdit:
        m_quotaSpin = new QDoubleSpinBox(this);
        m_quotaSpin->setObjectName(QStringLiteral("quotaDoubleSpinBox"));
        m_quotaSpin->setDecimals(2);
        m_quotaSpin->setRange(0, 100000);
        m_quotaSpin->setSingleStep(1);
        m_quotaSpin->setSuffix(tr(" GPUs"));
        m_quotaSpin->setValue(double(std::max<core::MilliGpu>(m_request.quota, 0)) / 1000.0);
        inputs->addRow(tr("Guaranteed &GPUs:"), m_quotaSpin);
        okText = tr("Apply");
        break;
    case core::ActionKind::ServiceLevelChange:
        // The level was chosen in LevelChangeDialog; a pool it would need is created only on request.
        if (!m_request.targetPool.isEmpty() && m_request.poolSizeBytes > 0) {
            const qint64 tib = 1024LL * 1024 * 1024 * 1024;
            m_createPoolCheck = new QCheckBox(tr("Create pool %1 of %2 TiB (%3) first")
                                                  .arg(m_request.targetPool)
                                                  .arg(QLocale().toString(double(m_request.poolSizeBytes) / double(tib),
                                                                          'f',
                                                                          m_request.poolSizeBytes % tib ? 1 : 0))
                                                  .arg(m_request.targetLevel),
                                              this);
            m_createPoolCheck->setObjectName(QStringLiteral("createPoolCheckBox"));
            m_createPoolCheck->setChecked(m_request.createPool);
            m_createPoolCheck->setToolTip(tr("A capacity pool is billed for its whole size, used or not."));
            inputs->addRow(m_createPoolCheck);
        }
        okText = tr("Change level");
        break;
    case core::ActionKind::DatasetCommit:
        m_commentEdit = new QLineEdit(m_request.comment, this);
        m_commentEdit->setObjectName(QStringLiteral("commitMessageLineEdit"));
        m_commentEdit->setPlaceholderText(tr("What changed in the data"));
        m_commentEdit->setMaxLength(1000);
        inputs->addRow(tr("Commit &message:"), m_commentEdit);
        okText = tr("Commit");
        break;
    case core::ActionKind::CacheCommit:
        // The target was chosen on the Datasets page; the preview shows the space it takes.
        okText = tr("Cache");
        break;
    case core::ActionKind::CacheEvict:
        okText = tr("Clear");
        break;
    }

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->setObjectName(QStringLiteral("actionButtonBox"));
    m_buttons->button(QDialogButtonBox::Ok)->setText(okText);
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("actionOkButton"));
    // Destructive actions never confirm on Enter by accident: Cancel is their default.
    if (m_confirmEdit || m_confirmCheck) {
        m_buttons->button(QDialogButtonBox::Ok)->setAutoDefault(false);
        m_buttons->button(QDialogButtonBox::Cancel)->setDefault(true);
    }
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ActionDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ActionDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_titleLabel);
    layout->addWidget(m_targetLabel);
    layout->addWidget(m_changeLabel);
    layout->addWidget(m_effectsLabel);
    layout->addLayout(warnings);
    layout->addLayout(inputs);
    layout->addWidget(m_blockedLabel);
    layout->addStretch(1);
    layout->addWidget(m_buttons);

    if (m_nameEdit) {
        connect(m_nameEdit, &QLineEdit::textChanged, this, [this](const QString &text) {
            m_request.name = text.trimmed();
            refresh();
        });
        m_nameEdit->selectAll();
        m_nameEdit->setFocus();
    }
    if (m_commentEdit) {
        connect(m_commentEdit, &QLineEdit::textChanged, this, [this](const QString &text) {
            m_request.comment = text;
            // A commit's message is validated by the preview (required, at most 1000 bytes).
            if (m_request.kind == core::ActionKind::DatasetCommit) {
                refresh();
            }
        });
        if (!m_nameEdit) {
            m_commentEdit->setFocus();
        }
    }
    if (m_confirmEdit) {
        connect(m_confirmEdit, &QLineEdit::textChanged, this, &ActionDialog::updateOk);
        m_confirmEdit->setFocus();
    }
    if (m_confirmCheck) {
        connect(m_confirmCheck, &QCheckBox::toggled, this, &ActionDialog::updateOk);
    }
    if (m_createPoolCheck) {
        connect(m_createPoolCheck, &QCheckBox::toggled, this, [this](bool on) {
            m_request.createPool = on;
            refresh();
        });
    }
    if (m_quotaSpin) {
        connect(m_quotaSpin, &QDoubleSpinBox::valueChanged, this, [this](double gpus) {
            m_request.quota = core::MilliGpu(std::llround(gpus * 1000.0));
            refresh();
        });
        m_quotaSpin->selectAll();
        m_quotaSpin->setFocus();
    }
    refresh();
}

ActionDialog::~ActionDialog() = default;

void ActionDialog::refresh()
{
    m_preview = m_previewer ? m_previewer(m_request) : core::ActionPreview{};
    setWindowTitle(m_preview.title);
    m_titleLabel->setText(m_preview.title);
    m_targetLabel->setText(m_preview.target);
    m_targetLabel->setVisible(!m_preview.target.isEmpty());
    m_changeLabel->setText(m_preview.fromState + QStringLiteral("  →  ") + m_preview.toState);
    m_changeLabel->setVisible(!m_preview.fromState.isEmpty() || !m_preview.toState.isEmpty());
    m_effectsLabel->setText(bulletList(m_preview.effects));
    m_effectsLabel->setVisible(!m_preview.effects.isEmpty());
    m_warningsLabel->setText(bulletList(m_preview.warnings));
    m_warningsLabel->setVisible(!m_preview.warnings.isEmpty());
    m_warningIcon->setVisible(!m_preview.warnings.isEmpty());
    m_blockedLabel->setText(m_preview.blockedReason);
    m_blockedLabel->setVisible(!m_preview.allowed());
    QPalette blockedPalette = m_blockedLabel->palette();
    blockedPalette.setColor(QPalette::WindowText, StatusDelegate::colorFor(QStringLiteral("critical"), palette()));
    m_blockedLabel->setPalette(blockedPalette);
    updateOk();
}

bool ActionDialog::canConfirm() const
{
    if (!m_preview.allowed()) {
        return false;
    }
    if (m_nameEdit && m_request.name.isEmpty()) {
        return false;
    }
    if (m_confirmEdit && m_confirmEdit->text() != m_confirmationText) {
        return false;
    }
    if (m_confirmCheck && !m_confirmCheck->isChecked()) {
        return false;
    }
    if (m_preview.destructive && !m_confirmEdit && !m_confirmCheck) {
        return false; // a destructive action this dialog cannot ask to confirm explicitly
    }
    return true;
}

void ActionDialog::updateOk()
{
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(canConfirm());
}

void ActionDialog::accept()
{
    if (!canConfirm()) {
        return;
    }
    Q_EMIT confirmed(m_request);
    QDialog::accept();
}

} // namespace strata::views
