#pragma once

#include "models/core/ratecard.h"

#include <QDialog>

class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace strata::views {

/// Settings > Rate card: the currency, the Azure NetApp Files price per GiB and month of each
/// service level, ONTAP chargeback per GiB and month per QoS policy (empty price = none), and the
/// cool-down between two level changes of one volume. The prices feed the Service levels page and
/// every change preview; the controller saves them into the config ("rate_card").
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

    void accept() override;

private:
    void addOntapRow(const QString &policy, double price);
    void validate();

    core::RateCard m_original;
    QLineEdit *m_currency = nullptr;
    QList<QPair<QString, QDoubleSpinBox *>> m_anf;
    QTableWidget *m_ontap = nullptr;
    QSpinBox *m_coolDown = nullptr;
    QLabel *m_validation = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace strata::views
