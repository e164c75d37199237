#pragma once

#include <QLocale>
#include <QString>

namespace strata::core {

/// Figures of reports (chargeback, rate-card prices) as every front end writes them, beside
/// format.h's units; the web console pins its formatters to the same golden table
/// (tests/fixtures/units/format-cases.json, kinds "hours" and "money").

/// Hours (wall-clock hours, GPU-hours, GiB-hours) with one decimal always and the locale's group
/// separator: "0.0", "5.9", "1,897.6", so a figure never reads "0" on one page and "0.0" on the
/// next; kUnknownText when not finite.
QString formatHours(double hours, const QLocale &locale = QLocale());
/// Money, the same on every page and front end: two decimals with the locale's group separator,
/// "$1,234.50" for USD and "1,234.50 EUR" for any other ISO 4217 code; kUnknownText when
/// negative or not finite (the rate card has no price).
QString formatMoney(double amount, const QString &currency, const QLocale &locale = QLocale());

} // namespace strata::core
