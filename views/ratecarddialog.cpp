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

#include <optional>

namespace strata::views {

namespace {

constexpr int kPolicyColumn = 0;
constexpr int kPriceColumn = 1;

QString noPolicyText()
{
    return RateCardDialog::tr("(no policy)");
}

QString otherGpusText()
{
    return RateCardDialog::tr("(any other GPU)");
}

/// A price typed in the user's locale or in C ("0.25"); nullopt when it is no number.
std::optional<double> typedPrice(const QString &text)
{
    bool ok = false;
    double price = QLocale().toDouble(text, &ok);
    if (!ok) {
        price = text.toDouble(&ok);
    }
    return ok ? std::optional<double>(price) : std::nullopt;
}

/// The name in `row` of a price table: the fixed first row (not editable) stands for "".
QString priceKey(const QTableWidget *table, int row)
{
    const QTableWidgetItem *name = table->item(row, kPolicyColumn);
    if (!name) {
        return {};
    }
    return (name->flags() & Qt::ItemIsEditable) ? name->text().trimmed() : name->data(Qt::UserRole).toString();
}

/// Every row of a price table with a price.
QMap<QString, double> pricesOf(const QTableWidget *table)
{
    QMap<QString, double> prices;
    for (int row = 0; row < table->rowCount(); ++row) {
        const QTableWidgetItem *value = table->item(row, kPriceColumn);
        const QString text = value ? value->text().trimmed() : QString();
        if (table->item(row, kPolicyColumn) && !text.isEmpty()) {
            if (const auto price = typedPrice(text)) {
                prices.insert(priceKey(table, row), *price);
            }
        }
    }
    return prices;
}

/// The first problem of a price table ("Row 2: ..."), empty when none. `fixedText` names the
/// fixed row; `what` is the kind of name ("QoS policy", "GPU product").
QString priceTableError(const QTableWidget *table, const QString &fixedText, const QString &what)
{
    QStringList seen;
    for (int row = 0; row < table->rowCount(); ++row) {
        const QTableWidgetItem *name = table->item(row, kPolicyColumn);
        const QTableWidgetItem *value = table->item(row, kPriceColumn);
        const bool editable = name && (name->flags() & Qt::ItemIsEditable);
        const QString key = priceKey(table, row);
        if (editable && key.isEmpty()) {
            return RateCardDialog::tr("Row %1: enter the %2 name.").arg(row + 1).arg(what);
        }
        if (seen.contains(key)) {
            return RateCardDialog::tr("The %1 %2 is listed twice.").arg(what, key.isEmpty() ? fixedText : key);
        }
        seen << key;
        const QString text = value ? value->text().trimmed() : QString();
        if (text.isEmpty()) {
            continue;
        }
        const auto price = typedPrice(text);
        if (!price || *price < 0) {
            return RateCardDialog::tr("Row %1: the price must be a number of 0 or more.").arg(row + 1);
        }
    }
    return {};
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

    QStringList policies = card.ontapPerGibMonth.keys();
    for (const QString &p : std::as_const(ontapPolicies)) {
        if (!policies.contains(p)) {
            policies << p;
        }
    }
    QGroupBox *ontapBox = addPriceTable(&m_ontap,
                                        QStringLiteral("rateOntap"),
                                        tr("ONTAP chargeback, per GiB and month, by QoS policy"),
                                        tr("QoS policy"),
                                        tr("&Add policy"),
                                        noPolicyText(),
                                        tr("policy-name"));
    m_ontap->setToolTip(tr("Leave the price empty for volumes that are not charged. \"%1\" prices volumes "
                           "without a QoS policy.")
                            .arg(noPolicyText()));
    if (!policies.contains(QString())) {
        policies.prepend(QString());
    }
    for (const QString &p : std::as_const(policies)) {
        addPriceRow(m_ontap, p, card.ontapPerGibMonth.value(p, -1), noPolicyText());
    }

    QGroupBox *gpuBox = addPriceTable(&m_gpu,
                                      QStringLiteral("rateGpu"),
                                      tr("GPUs, per GPU-hour, by GPU product (chargeback)"),
                                      tr("GPU product"),
                                      tr("Add &GPU product"),
                                      otherGpusText(),
                                      tr("GPU-product"));
    m_gpu->setToolTip(tr("The node label nvidia.com/gpu.product, e.g. Tesla-V100-SXM2-32GB. \"%1\" prices "
                         "every product not listed.")
                          .arg(otherGpusText()));
    addPriceRow(m_gpu, QString(), card.gpuDefaultPerHour, otherGpusText());
    for (auto it = card.gpuPerHour.cbegin(); it != card.gpuPerHour.cend(); ++it) {
        addPriceRow(m_gpu, it.key(), it.value(), otherGpusText());
    }

    m_coolDown = new QSpinBox(this);
    m_coolDown->setObjectName(QStringLiteral("rateCoolDownSpinBox"));
    m_coolDown->setRange(0, 7 * 24 * 60);
    m_coolDown->setSuffix(tr(" min"));
    m_coolDown->setSpecialValueText(tr("none"));
    m_coolDown->setValue(card.coolDownMinutes);
    m_coolDown->setToolTip(tr("Strata refuses a level change of a volume this soon after its last change "
                              "(Azure allows a pool change at most every few hours per volume)."));

    m_grid = new QDoubleSpinBox(this);
    m_grid->setObjectName(QStringLiteral("rateStorageGridSpinBox"));
    m_grid->setDecimals(4);
    m_grid->setRange(-1, 1000);
    m_grid->setSingleStep(0.01);
    m_grid->setSpecialValueText(tr("no price"));
    m_grid->setValue(card.storageGridPerGibMonth >= 0 ? card.storageGridPerGibMonth : -1);
    m_grid->setToolTip(tr("Chargeback per GiB of data stored in a bucket and month"));

    auto *form = new QFormLayout();
    form->addRow(tr("&Currency:"), m_currency);
    form->addRow(tr("StorageGRID, per GiB stored and &month:"), m_grid);
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
        m_gpu->item(0, kPriceColumn)->setText(QLocale().toString(defaults.gpuDefaultPerHour, 'f', 4));
    });

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(anfBox);
    layout->addWidget(ontapBox, 1);
    layout->addWidget(gpuBox, 1);
    layout->addWidget(m_validation);
    layout->addWidget(m_buttons);

    connect(m_currency, &QLineEdit::textChanged, this, &RateCardDialog::validate);
    validate();
}

RateCardDialog::~RateCardDialog() = default;

QGroupBox *RateCardDialog::addPriceTable(QTableWidget **table,
                                         const QString &name,
                                         const QString &title,
                                         const QString &keyHeader,
                                         const QString &addText,
                                         const QString &fixedText,
                                         const QString &newKey)
{
    auto *box = new QGroupBox(title, this);
    auto *t = new QTableWidget(0, 2, box);
    *table = t;
    t->setObjectName(name + QStringLiteral("TableWidget"));
    t->setHorizontalHeaderLabels({keyHeader, tr("Price")});
    t->horizontalHeader()->setSectionResizeMode(kPolicyColumn, QHeaderView::Stretch);
    t->verticalHeader()->hide();
    auto *addRow = new QPushButton(addText, box);
    addRow->setObjectName(name + QStringLiteral("AddButton"));
    auto *removeRow = new QPushButton(tr("Re&move"), box);
    removeRow->setObjectName(name + QStringLiteral("RemoveButton"));
    auto *buttons = new QHBoxLayout();
    buttons->addWidget(addRow);
    buttons->addWidget(removeRow);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(t);
    layout->addLayout(buttons);
    connect(addRow, &QPushButton::clicked, this, [this, t, fixedText, newKey] {
        addPriceRow(t, newKey, -1, fixedText);
        t->setCurrentCell(t->rowCount() - 1, kPolicyColumn);
        t->editItem(t->item(t->rowCount() - 1, kPolicyColumn));
    });
    connect(removeRow, &QPushButton::clicked, this, [this, t] {
        // The fixed row (no policy, any other GPU) stays.
        if (t->currentRow() >= 0 && t->item(t->currentRow(), kPolicyColumn)
            && (t->item(t->currentRow(), kPolicyColumn)->flags() & Qt::ItemIsEditable)) {
            t->removeRow(t->currentRow());
            validate();
        }
    });
    connect(t, &QTableWidget::itemChanged, this, &RateCardDialog::validate);
    return box;
}

void RateCardDialog::addPriceRow(QTableWidget *table, const QString &key, double price, const QString &fixedText)
{
    const QSignalBlocker blocker(table);
    const int row = table->rowCount();
    table->insertRow(row);
    auto *name = new QTableWidgetItem(key.isEmpty() ? fixedText : key);
    name->setData(Qt::UserRole, key);
    if (key.isEmpty()) {
        name->setFlags(name->flags() & ~Qt::ItemIsEditable);
    }
    table->setItem(row, kPolicyColumn, name);
    auto *value = new QTableWidgetItem(price >= 0 ? QLocale().toString(price, 'f', 4) : QString());
    value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table->setItem(row, kPriceColumn, value);
}

void RateCardDialog::setGpuProducts(const QStringList &products)
{
    const QMap<QString, double> listed = pricesOf(m_gpu);
    QStringList present;
    for (int row = 0; row < m_gpu->rowCount(); ++row) {
        present << priceKey(m_gpu, row);
    }
    for (const QString &product : products) {
        if (!product.isEmpty() && !present.contains(product) && !listed.contains(product)) {
            addPriceRow(m_gpu, product, -1, otherGpusText());
            present << product;
        }
    }
}

core::RateCard RateCardDialog::rateCard() const
{
    core::RateCard card = m_original;
    card.currency = m_currency->text().trimmed().toUpper();
    card.anfPerGibMonth.clear();
    for (const auto &[level, spin] : m_anf) {
        card.anfPerGibMonth.insert(level, spin->value());
    }
    card.ontapPerGibMonth = pricesOf(m_ontap);
    card.gpuPerHour = pricesOf(m_gpu);
    // A cleared price for other GPUs charges them nothing (the card needs a number).
    card.gpuDefaultPerHour = card.gpuPerHour.take(QString());
    card.coolDownMinutes = m_coolDown->value();
    card.storageGridPerGibMonth = m_grid->value() < 0 ? -1 : m_grid->value();
    return card;
}

QString RateCardDialog::validationError() const
{
    if (m_currency->text().trimmed().size() != 3) {
        return tr("Enter a three-letter currency code.");
    }
    if (const QString ontap = priceTableError(m_ontap, noPolicyText(), tr("QoS policy")); !ontap.isEmpty()) {
        return ontap;
    }
    return priceTableError(m_gpu, otherGpusText(), tr("GPU product"));
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
