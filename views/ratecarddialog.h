#pragma once

#include "models/core/domain/ratecard.h"

#include <QDialog>

class QDialogButtonBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace strata::views {

/// Settings > Rate card: the currency, the Azure NetApp Files price per GiB and month of each
/// service level, ONTAP chargeback per GiB and month per QoS policy (empty price = none), and the
/// cool-down between two level changes of one volume, and the price of a GPU-hour by GPU
/// product with one for any other GPU, and StorageGRID per GiB-month stored (the chargeback's). The prices feed the
/// Service levels page and every change preview; the controller saves them into the config ("rate_card").
class RateCardDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RateCardDialog)

public:
    /// `ontapPolicies` are the known QoS policy names, listed even without a price.
    explicit RateCardDialog(const core::RateCard &card, QStringList ontapPolicies = {}, QWidget *parent = nullptr);
    ~RateCardDialog() override;

    [[nodiscard]] core::RateCard rateCard() const;
    [[nodiscard]] QString validationError() const;
    [[nodiscard]] QTableWidget *ontapTable() const { return m_ontap; }
    [[nodiscard]] QTableWidget *gpuTable() const { return m_gpu; }
    /// Lists these GPU products (the estate's nodes) even without a price.
    void setGpuProducts(const QStringList &products);

    void accept() override;

private:
    /// A group box with a two-column price table (name, price) in `*table` and Add/Remove
    /// buttons; object names start with `name`. `fixedText` shows the "" row.
    QGroupBox *addPriceTable(QTableWidget **table,
                             const QString &name,
                             const QString &title,
                             const QString &keyHeader,
                             const QString &addText,
                             const QString &fixedText,
                             const QString &newKey);
    void addPriceRow(QTableWidget *table, const QString &key, double price, const QString &fixedText);
    void validate();

    core::RateCard m_original;
    QLineEdit *m_currency = nullptr;
    QList<QPair<QString, QDoubleSpinBox *>> m_anf;
    QTableWidget *m_ontap = nullptr;
    QTableWidget *m_gpu = nullptr;
    QDoubleSpinBox *m_grid = nullptr;
    QSpinBox *m_coolDown = nullptr;
    QLabel *m_validation = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace strata::views
