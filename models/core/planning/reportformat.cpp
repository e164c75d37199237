#include "models/core/planning/reportformat.h"

#include "models/core/domain/format.h"

#include <cmath>

namespace strata::core {

QString formatHours(double hours, const QLocale &locale)
{
    if (!std::isfinite(hours)) {
        return QString::fromUtf16(kUnknownText);
    }
    // -0.04 rounds to "-0.0": no figure anyone reported.
    return locale.toString(std::abs(hours) < 0.05 ? 0.0 : hours, 'f', 1);
}

QString formatMoney(double amount, const QString &currency, const QLocale &locale)
{
    if (!std::isfinite(amount) || amount < 0) {
        return QString::fromUtf16(kUnknownText);
    }
    const QString number = locale.toString(amount, 'f', 2);
    if (currency == QLatin1String("USD")) {
        return QStringLiteral("$") + number;
    }
    return number + QLatin1Char(' ') + currency;
}

} // namespace strata::core
