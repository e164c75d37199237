#include "views/jobsubmitdialog.h"

#include "models/core/domain/estate.h"
#include "views/statusdelegate.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace strata::views {

namespace {

enum PvcColumn
{
    PvcClaim,
    PvcPath,
    PvcReadOnly,
    PvcSize,
    PvcColumnCount
};

} // namespace

JobSubmitDialog::JobSubmitDialog(const core::Estate &estate,
                                 const QString &source,
                                 const QString &project,
                                 QWidget *parent)
    : QDialog(parent)
    , m_estate(estate)
{
    setObjectName(QStringLiteral("jobSubmitDialog"));
    setWindowTitle(tr("Submit job"));
    setMinimumWidth(560);

    m_clusterCombo = new QComboBox(this);
    m_clusterCombo->setObjectName(QStringLiteral("submitClusterComboBox"));
    QStringList clusters = estate.projects().scopes();
    std::sort(clusters.begin(), clusters.end());
    for (const QString &c : std::as_const(clusters)) {
        m_clusterCombo->addItem(c, c);
    }
    if (const int i = m_clusterCombo->findData(source); i >= 0) {
        m_clusterCombo->setCurrentIndex(i);
    }
    m_projectCombo = new QComboBox(this);
    m_projectCombo->setObjectName(QStringLiteral("submitProjectComboBox"));
    m_nameEdit = new QLineEdit(this);
    m_nameEdit->setObjectName(QStringLiteral("submitNameLineEdit"));
    m_nameEdit->setPlaceholderText(QStringLiteral("a-1-g"));
    m_nameEdit->setMaxLength(63);
    m_imageEdit = new QLineEdit(QStringLiteral("gcr.io/run-ai-demo/quickstart"), this);
    m_imageEdit->setObjectName(QStringLiteral("submitImageLineEdit"));
    m_gpuSpin = new QDoubleSpinBox(this);
    m_gpuSpin->setObjectName(QStringLiteral("submitGpuDoubleSpinBox"));
    m_gpuSpin->setDecimals(2);
    m_gpuSpin->setRange(0, 64);
    m_gpuSpin->setSingleStep(0.1);
    m_gpuSpin->setValue(1);
    m_gpuSpin->setToolTip(tr("Whole GPUs, or a fraction of one GPU such as 0.5 (shared with other jobs)"));
    m_typeCombo = new QComboBox(this);
    m_typeCombo->setObjectName(QStringLiteral("submitTypeComboBox"));
    m_typeCombo->addItem(tr("Training (preemptible, may use idle GPUs over quota)"), int(core::JobType::Train));
    m_typeCombo->addItem(tr("Interactive (non-preemptible, within quota)"), int(core::JobType::Interactive));
    m_commandEdit = new QLineEdit(this);
    m_commandEdit->setObjectName(QStringLiteral("submitCommandLineEdit"));
    m_commandEdit->setPlaceholderText(tr("Optional: overrides the image's entrypoint"));
    m_argsEdit = new QLineEdit(this);
    m_argsEdit->setObjectName(QStringLiteral("submitArgsLineEdit"));
    m_argsEdit->setPlaceholderText(tr("Optional, e.g. --epochs 10"));
    m_pvcTable = new QTableWidget(0, PvcColumnCount, this);
    m_pvcTable->setObjectName(QStringLiteral("submitPvcTableWidget"));
    m_pvcTable->setHorizontalHeaderLabels({tr("Claim"), tr("Mount path"), tr("Read-only"), tr("Size")});
    m_pvcTable->verticalHeader()->hide();
    m_pvcTable->horizontalHeader()->setSectionResizeMode(PvcPath, QHeaderView::Stretch);
    m_pvcTable->setMinimumHeight(110);
    m_errorLabel = new QLabel(this);
    m_errorLabel->setObjectName(QStringLiteral("submitErrorLabel"));
    m_errorLabel->setWordWrap(true);

    auto *form = new QFormLayout();
    if (clusters.size() > 1) {
        form->addRow(tr("C&luster:"), m_clusterCombo);
    } else {
        m_clusterCombo->hide();
    }
    form->addRow(tr("&Project:"), m_projectCombo);
    form->addRow(tr("&Name:"), m_nameEdit);
    form->addRow(tr("&Image:"), m_imageEdit);
    form->addRow(tr("&GPUs:"), m_gpuSpin);
    form->addRow(tr("&Type:"), m_typeCombo);
    form->addRow(tr("&Command:"), m_commandEdit);
    form->addRow(tr("&Arguments:"), m_argsEdit);
    form->addRow(tr("&Volumes:"), m_pvcTable);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Review…"));
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("submitOkButton"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &JobSubmitDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &JobSubmitDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_errorLabel);
    layout->addWidget(m_buttons);

    fillProjects();
    if (const int i = m_projectCombo->findData(project); i >= 0) {
        m_projectCombo->setCurrentIndex(i);
    }
    fillPvcs();
    connect(m_clusterCombo, &QComboBox::currentIndexChanged, this, [this] {
        fillProjects();
        fillPvcs();
        updateValidation();
    });
    connect(m_projectCombo, &QComboBox::currentIndexChanged, this, [this] {
        fillPvcs();
        updateValidation();
    });
    for (QLineEdit *edit : {m_nameEdit, m_imageEdit, m_commandEdit, m_argsEdit}) {
        connect(edit, &QLineEdit::textChanged, this, &JobSubmitDialog::updateValidation);
    }
    connect(m_gpuSpin, &QDoubleSpinBox::valueChanged, this, &JobSubmitDialog::updateValidation);
    connect(m_pvcTable, &QTableWidget::itemChanged, this, &JobSubmitDialog::updateValidation);
    m_nameEdit->setFocus();
    updateValidation();
}

JobSubmitDialog::~JobSubmitDialog() = default;

QString JobSubmitDialog::source() const
{
    return m_clusterCombo->currentData().toString();
}

void JobSubmitDialog::fillProjects()
{
    const QString current = m_projectCombo->currentData().toString();
    const QSignalBlocker block(m_projectCombo);
    m_projectCombo->clear();
    QStringList names;
    if (const auto list = m_estate.projects().scope(source())) {
        for (const auto &p : list->items()) {
            names << p->name;
        }
    }
    std::sort(names.begin(), names.end());
    for (const QString &n : std::as_const(names)) {
        m_projectCombo->addItem(n, n);
    }
    const int i = m_projectCombo->findData(current);
    m_projectCombo->setCurrentIndex(i >= 0 ? i : (names.isEmpty() ? -1 : 0));
}

void JobSubmitDialog::fillPvcs()
{
    const QSignalBlocker block(m_pvcTable);
    m_pvcTable->setRowCount(0);
    QString ns;
    if (const auto list = m_estate.projects().scope(source())) {
        for (const auto &p : list->items()) {
            if (p->name == m_projectCombo->currentData().toString()) {
                ns = p->namespaceName;
            }
        }
    }
    std::vector<core::Ptr<core::Pvc>> pvcs;
    if (const auto list = m_estate.pvcs().scope(source()); list && !ns.isEmpty()) {
        for (const auto &v : list->items()) {
            if (v->namespaceName == ns) {
                pvcs.push_back(v);
            }
        }
    }
    std::sort(pvcs.begin(), pvcs.end(), [](const auto &a, const auto &b) {
        return a->name < b->name;
    });
    for (const auto &v : pvcs) {
        const int row = m_pvcTable->rowCount();
        m_pvcTable->insertRow(row);
        auto *claim = new QTableWidgetItem(v->name);
        claim->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        claim->setCheckState(Qt::Unchecked);
        claim->setToolTip(v->storageSource.isEmpty() ? v->pvName
                                                     : tr("%1 on %2").arg(v->backendVolume, v->storageSource));
        m_pvcTable->setItem(row, PvcClaim, claim);
        m_pvcTable->setItem(row, PvcPath, new QTableWidgetItem(QStringLiteral("/mnt/") + v->name));
        auto *readOnly = new QTableWidgetItem();
        readOnly->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        readOnly->setCheckState(Qt::Unchecked);
        m_pvcTable->setItem(row, PvcReadOnly, readOnly);
        auto *size = new QTableWidgetItem(core::formatBytes(v->capacityBytes) + QStringLiteral(" ") + v->accessModes);
        size->setFlags(Qt::ItemIsEnabled);
        m_pvcTable->setItem(row, PvcSize, size);
    }
    m_pvcTable->setEnabled(m_pvcTable->rowCount() > 0);
}

core::JobSpec JobSubmitDialog::spec() const
{
    core::JobSpec s;
    s.name = m_nameEdit->text().trimmed();
    s.project = m_projectCombo->currentData().toString();
    s.image = m_imageEdit->text().trimmed();
    s.gpus = core::MilliGpu(std::llround(m_gpuSpin->value() * 1000.0));
    s.type = core::JobType(m_typeCombo->currentData().toInt());
    s.command = QProcess::splitCommand(m_commandEdit->text());
    s.args = QProcess::splitCommand(m_argsEdit->text());
    for (int row = 0; row < m_pvcTable->rowCount(); ++row) {
        if (m_pvcTable->item(row, PvcClaim)->checkState() == Qt::Checked) {
            s.pvcs.append(core::PvcMount{m_pvcTable->item(row, PvcClaim)->text(),
                                         m_pvcTable->item(row, PvcPath)->text().trimmed(),
                                         m_pvcTable->item(row, PvcReadOnly)->checkState() == Qt::Checked});
        }
    }
    return s;
}

core::ActionRequest JobSubmitDialog::request() const
{
    core::ActionRequest r;
    r.kind = core::ActionKind::JobSubmit;
    r.source = source();
    r.job = spec();
    r.project = r.job.project;
    return r;
}

QString JobSubmitDialog::validate(const core::JobSpec &spec, const QStringList &takenNames)
{
    static const QRegularExpression dns1123(QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"));
    if (spec.project.isEmpty()) {
        return tr("Choose a project.");
    }
    if (spec.name.isEmpty()) {
        return tr("Enter a job name.");
    }
    if (spec.name.size() > 63 || !dns1123.match(spec.name).hasMatch()) {
        return tr("The name must be lower-case letters, digits and '-', start and end with a letter or digit, "
                  "at most 63 characters.");
    }
    if (takenNames.contains(spec.name)) {
        return tr("Project %1 already has a job named %2.").arg(spec.project, spec.name);
    }
    if (spec.image.isEmpty()) {
        return tr("Enter a container image.");
    }
    if (spec.gpus <= 0) {
        return tr("Request more than 0 GPUs.");
    }
    if (spec.gpus > 1000 && spec.gpus % 1000 != 0) {
        return tr("More than one GPU must be whole GPUs; a fraction is only possible below one GPU (e.g. 0.5).");
    }
    QStringList paths;
    for (const core::PvcMount &m : spec.pvcs) {
        if (!m.path.startsWith(QLatin1Char('/'))) {
            return tr("The mount path of %1 must be absolute.").arg(m.claim);
        }
        if (paths.contains(m.path)) {
            return tr("Two volumes are mounted at %1.").arg(m.path);
        }
        paths << m.path;
    }
    return {};
}

QStringList JobSubmitDialog::takenNames() const
{
    QStringList names;
    const QString project = m_projectCombo->currentData().toString();
    if (const auto list = m_estate.jobs().scope(source())) {
        for (const auto &j : list->items()) {
            if (j->project == project) {
                names << j->name;
            }
        }
    }
    return names;
}

QString JobSubmitDialog::validationError() const
{
    return m_error;
}

void JobSubmitDialog::updateValidation()
{
    m_error = validate(spec(), takenNames());
    m_errorLabel->setText(m_error);
    QPalette pal = m_errorLabel->palette();
    pal.setColor(QPalette::WindowText, StatusDelegate::colorFor(QStringLiteral("critical"), palette()));
    m_errorLabel->setPalette(pal);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_error.isEmpty());
}

void JobSubmitDialog::accept()
{
    updateValidation();
    if (!m_error.isEmpty()) {
        return;
    }
    Q_EMIT submitRequested(request());
    QDialog::accept();
}

} // namespace strata::views
