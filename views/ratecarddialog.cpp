#include "views/ratecarddialog.h"

#include "views/statusdelegate.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace strata::views {

namespace {

constexpr int kPolicyColumn = 0;
constexpr int kPriceColumn = 1;

QString noPolicyText()
{
    return RateCardDialog::tr("(no policy)");
}

} // namespace

RateCardDialog::RateCardDialog(const core::RateCard &card, QStringList ontapPolicies, QWidget *parent)
    : QDialog(parent)
    , m_original(card)
{
    setObjectName(QStringLiteral("rateCardDialog"));
    setWindowTitle(tr("Rate card"));
    setMinimumWidth(460);

    m_currency = new QLineEdit(card.currency, this);
    m_currency->setObjectName(QStringLiteral("rateCurrencyLineEdit"));
    m_currency->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[A-Za-z]{0,3}")), m_currency));
    m_currency->setToolTip(tr("ISO 4217 code, e.g. USD or EUR"));
    m_currency->setMaximumWidth(fontMetrics().horizontalAdvance(QStringLiteral("MMMMMM")));

    auto *anfBox = new QGroupBox(tr("Azure NetApp Files, per GiB of quota and month"), this);
    auto *anfForm = new QFormLayout(anfBox);
    QStringList levels = core::anfServiceLevels();
    for (auto it = card.anfPerGibMonth.cbegin(); it != card.anfPerGibMonth.cend(); ++it) {
        if (!levels.contains(it.key())) {
            levels << it.key();
        }
    }
    for (const QString &level : std::as_const(levels)) {
        auto *spin = new QDoubleSpinBox(anfBox);
        spin->setObjectName(QStringLiteral("rateAnf%1SpinBox").arg(level));
        spin->setDecimals(4);
        spin->setRange(0, 1000);
        spin->setSingleStep(0.01);
        spin->setValue(card.anfPerGibMonth.value(level, 0));
        anfForm->addRow(tr("%1:").arg(level), spin);
        m_anf.append({level, spin});
    }

    auto *ontapBox = new QGroupBox(tr("ONTAP chargeback, per GiB and month, by QoS policy"), this);
    m_ontap = new QTableWidget(0, 2, ontapBox);
    m_ontap->setObjectName(QStringLiteral("rateOntapTableWidget"));
    m_ontap->setHorizontalHeaderLabels({tr("QoS policy"), tr("Price")});
    m_ontap->horizontalHeader()->setSectionResizeMode(kPolicyColumn, QHeaderView::Stretch);
    m_ontap->verticalHeader()->hide();
    m_ontap->setToolTip(tr("Leave the price empty for volumes that are not charged. \"%1\" prices volumes "
                           "without a QoS policy.")
                            .arg(noPolicyText()));
    QStringList policies = card.ontapPerGibMonth.keys();
    for (const QString &p : std::as_const(ontapPolicies)) {
        if (!policies.contains(p)) {
            policies << p;
        }
    }
    if (!policies.contains(QString())) {
        policies.prepend(QString());
    }
    for (const QString &p : std::as_const(policies)) {
        addOntapRow(p, card.ontapPerGibMonth.value(p, -1));
    }
    auto *addRow = new QPushButton(tr("&Add policy"), ontapBox);
    addRow->setObjectName(QStringLiteral("rateOntapAddButton"));
    auto *removeRow = new QPushButton(tr("Re&move"), ontapBox);
    removeRow->setObjectName(QStringLiteral("rateOntapRemoveButton"));
    auto *ontapButtons = new QHBoxLayout();
    ontapButtons->addWidget(addRow);
    ontapButtons->addWidget(removeRow);
    ontapButtons->addStretch(1);
    auto *ontapLayout = new QVBoxLayout(ontapBox);
    ontapLayout->addWidget(m_ontap);
    ontapLayout->addLayout(ontapButtons);

    m_coolDown = new QSpinBox(this);
    m_coolDown->setObjectName(QStringLiteral("rateCoolDownSpinBox"));
    m_coolDown->setRange(0, 7 * 24 * 60);
    m_coolDown->setSuffix(tr(" min"));
    m_coolDown->setSpecialValueText(tr("none"));
    m_coolDown->setValue(card.coolDownMinutes);
    m_coolDown->setToolTip(tr("Strata refuses a level change of a volume this soon after its last change "
                              "(Azure allows a pool change at most every few hours per volume)."));

    auto *form = new QFormLayout();
    form->addRow(tr("&Currency:"), m_currency);
    form->addRow(tr("C&ool-down between changes:"), m_coolDown);

    m_validation = new QLabel(this);
    m_validation->setObjectName(QStringLiteral("rateValidationLabel"));
    QPalette pal = m_validation->palette();
    pal.setColor(QPalette::WindowText, StatusDelegate::colorFor(QStringLiteral("critical"), palette(), true));
    m_validation->setPalette(pal);

    m_buttons =
        new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    m_buttons->setObjectName(QStringLiteral("rateButtonBox"));
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Save"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &RateCardDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this, [this] {
        const core::RateCard defaults = core::RateCard::defaults();
        m_currency->setText(defaults.currency);
        for (const auto &[level, spin] : std::as_const(m_anf)) {
            spin->setValue(defaults.anfPerGibMonth.value(level, 0));
        }
        m_coolDown->setValue(defaults.coolDownMinutes);
    });

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(anfBox);
    layout->addWidget(ontapBox, 1);
    layout->addWidget(m_validation);
    layout->addWidget(m_buttons);

    connect(addRow, &QPushButton::clicked, this, [this] {
        addOntapRow(tr("policy-name"), -1);
        m_ontap->setCurrentCell(m_ontap->rowCount() - 1, kPolicyColumn);
        m_ontap->editItem(m_ontap->item(m_ontap->rowCount() - 1, kPolicyColumn));
    });
    connect(removeRow, &QPushButton::clicked, this, [this] {
        if (m_ontap->currentRow() >= 0) {
            m_ontap->removeRow(m_ontap->currentRow());
            validate();
        }
    });
    connect(m_ontap, &QTableWidget::itemChanged, this, &RateCardDialog::validate);
    connect(m_currency, &QLineEdit::textChanged, this, &RateCardDialog::validate);
    validate();
}

RateCardDialog::~RateCardDialog() = default;

void RateCardDialog::addOntapRow(const QString &policy, double price)
{
    const QSignalBlocker blocker(m_ontap);
    const int row = m_ontap->rowCount();
    m_ontap->insertRow(row);
    auto *name = new QTableWidgetItem(policy.isEmpty() ? noPolicyText() : policy);
    name->setData(Qt::UserRole, policy);
    if (policy.isEmpty()) {
        name->setFlags(name->flags() & ~Qt::ItemIsEditable);
    }
    m_ontap->setItem(row, kPolicyColumn, name);
    auto *value = new QTableWidgetItem(price >= 0 ? QLocale().toString(price, 'f', 4) : QString());
    value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_ontap->setItem(row, kPriceColumn, value);
}

core::RateCard RateCardDialog::rateCard() const
{
    core::RateCard card = m_original;
    card.currency = m_currency->text().trimmed().toUpper();
    card.anfPerGibMonth.clear();
    for (const auto &[level, spin] : m_anf) {
        card.anfPerGibMonth.insert(level, spin->value());
    }
    card.ontapPerGibMonth.clear();
    const QLocale locale;
    for (int row = 0; row < m_ontap->rowCount(); ++row) {
        const QTableWidgetItem *name = m_ontap->item(row, kPolicyColumn);
        const QTableWidgetItem *value = m_ontap->item(row, kPriceColumn);
        const QString text = value ? value->text().trimmed() : QString();
        if (!name || text.isEmpty()) {
            continue;
        }
        const QString policy =
            (name->flags() & Qt::ItemIsEditable) ? name->text().trimmed() : name->data(Qt::UserRole).toString();
        bool ok = false;
        double price = locale.toDouble(text, &ok);
        if (!ok) {
            price = text.toDouble(&ok);
        }
        if (ok) {
            card.ontapPerGibMonth.insert(policy, price);
        }
    }
    card.coolDownMinutes = m_coolDown->value();
    return card;
}

QString RateCardDialog::validationError() const
{
    if (m_currency->text().trimmed().size() != 3) {
        return tr("Enter a three-letter currency code.");
    }
    const QLocale locale;
    QStringList seen;
    for (int row = 0; row < m_ontap->rowCount(); ++row) {
        const QTableWidgetItem *name = m_ontap->item(row, kPolicyColumn);
        const QTableWidgetItem *value = m_ontap->item(row, kPriceColumn);
        const bool editable = name && (name->flags() & Qt::ItemIsEditable);
        const QString policy = editable ? name->text().trimmed() : QString();
        if (editable && policy.isEmpty()) {
            return tr("Row %1: enter the QoS policy name.").arg(row + 1);
        }
        if (seen.contains(policy)) {
            return tr("The policy %1 is listed twice.").arg(policy.isEmpty() ? noPolicyText() : policy);
        }
        seen << policy;
        const QString text = value ? value->text().trimmed() : QString();
        if (text.isEmpty()) {
            continue;
        }
        bool ok = false;
        double price = locale.toDouble(text, &ok);
        if (!ok) {
            price = text.toDouble(&ok);
        }
        if (!ok || price < 0) {
            return tr("Row %1: the price must be a number of 0 or more.").arg(row + 1);
        }
    }
    return {};
}

void RateCardDialog::validate()
{
    const QString error = validationError();
    m_validation->setText(error);
    m_validation->setVisible(!error.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(error.isEmpty());
}

void RateCardDialog::accept()
{
    if (validationError().isEmpty()) {
        QDialog::accept();
    }
}

} // namespace strata::views
