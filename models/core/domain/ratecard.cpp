#include "models/core/domain/ratecard.h"

#include <QJsonValue>

namespace strata::core {

namespace {

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

bool readPrices(const QJsonObject &json, const QString &key, QMap<QString, double> *prices, QString *error)
{
    const QJsonValue value = json.value(key);
    if (value.isUndefined()) {
        return true;
    }
    if (!value.isObject()) {
        *error = QStringLiteral("rate_card.%1 must be an object of prices").arg(key);
        return false;
    }
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!it.value().isDouble() || it.value().toDouble() < 0) {
            *error = QStringLiteral("rate_card.%1.%2 must be a price >= 0").arg(key, it.key());
            return false;
        }
        prices->insert(it.key(), it.value().toDouble());
    }
    return true;
}

QJsonObject pricesJson(const QMap<QString, double> &prices)
{
    QJsonObject object;
    for (auto it = prices.begin(); it != prices.end(); ++it) {
        object.insert(it.key(), it.value());
    }
    return object;
}

} // namespace

double anfMibpsPerTib(const QString &serviceLevel)
{
    if (serviceLevel == QLatin1String("Standard")) {
        return 16;
    }
    if (serviceLevel == QLatin1String("Premium")) {
        return 64;
    }
    if (serviceLevel == QLatin1String("Ultra")) {
        return 128;
    }
    return -1;
}

double anfAutoQosMibps(const QString &serviceLevel, qint64 quotaBytes)
{
    const double perTib = anfMibpsPerTib(serviceLevel);
    return perTib < 0 ? -1 : perTib * double(quotaBytes) / (1024.0 * GiB);
}

double anfVolumeCapMibps(std::optional<double> reportedMibps,
                         const QString &poolQosType,
                         const QString &serviceLevel,
                         qint64 quotaBytes)
{
    const bool manual = poolQosType.compare(QLatin1String("Manual"), Qt::CaseInsensitive) == 0;
    if (reportedMibps && (*reportedMibps > 0 || manual)) {
        return *reportedMibps;
    }
    if (!manual) {
        if (const double computed = anfAutoQosMibps(serviceLevel, quotaBytes); computed > 0) {
            return computed;
        }
    }
    return reportedMibps.value_or(-1);
}

QStringList anfServiceLevels()
{
    return {QStringLiteral("Standard"), QStringLiteral("Premium"), QStringLiteral("Ultra")};
}

RateCard RateCard::defaults()
{
    RateCard card;
    // Azure list prices, pay-as-you-go, East US (USD per GiB-month, 730 h).
    card.anfPerGibMonth.insert(QStringLiteral("Standard"), 0.1475);
    card.anfPerGibMonth.insert(QStringLiteral("Premium"), 0.2942);
    card.anfPerGibMonth.insert(QStringLiteral("Ultra"), 0.3928);
    return card;
}

QJsonObject RateCard::toJson() const
{
    QJsonObject json{
        {QStringLiteral("currency"), currency},
        {QStringLiteral("anf_per_gib_month"), pricesJson(anfPerGibMonth)},
        {QStringLiteral("ontap_per_gib_month"), pricesJson(ontapPerGibMonth)},
        {QStringLiteral("gpu_per_hour"), pricesJson(gpuPerHour)},
        {QStringLiteral("gpu_default_per_hour"), gpuDefaultPerHour},
        {QStringLiteral("cool_down_minutes"), coolDownMinutes},
    };
    if (storageGridPerGibMonth >= 0) {
        json.insert(QStringLiteral("storagegrid_per_gib_month"), storageGridPerGibMonth);
    }
    return json;
}

Result<RateCard> RateCard::fromJson(const QJsonObject &json)
{
    QString message;
    const auto invalid = [&message] {
        return core::fail(Error::invalid({}, message));
    };
    RateCard next = defaults();
    const QJsonValue currency = json.value(QStringLiteral("currency"));
    if (!currency.isUndefined()) {
        if (!currency.isString() || currency.toString().isEmpty()) {
            message = QStringLiteral("rate_card.currency must be a currency code such as \"USD\"");
            return invalid();
        }
        next.currency = currency.toString();
    }
    if (!readPrices(json, QStringLiteral("anf_per_gib_month"), &next.anfPerGibMonth, &message)
        || !readPrices(json, QStringLiteral("ontap_per_gib_month"), &next.ontapPerGibMonth, &message)
        || !readPrices(json, QStringLiteral("gpu_per_hour"), &next.gpuPerHour, &message)) {
        return invalid();
    }
    const QJsonValue gpuDefault = json.value(QStringLiteral("gpu_default_per_hour"));
    if (!gpuDefault.isUndefined()) {
        if (!gpuDefault.isDouble() || gpuDefault.toDouble() < 0) {
            message = QStringLiteral("rate_card.gpu_default_per_hour must be a price >= 0");
            return invalid();
        }
        next.gpuDefaultPerHour = gpuDefault.toDouble();
    }
    const QJsonValue grid = json.value(QStringLiteral("storagegrid_per_gib_month"));
    if (!grid.isUndefined() && !grid.isNull()) {
        if (!grid.isDouble() || grid.toDouble() < 0) {
            message = QStringLiteral("rate_card.storagegrid_per_gib_month must be a price >= 0");
            return invalid();
        }
        next.storageGridPerGibMonth = grid.toDouble();
    }
    const QJsonValue coolDown = json.value(QStringLiteral("cool_down_minutes"));
    if (!coolDown.isUndefined()) {
        if (!coolDown.isDouble() || coolDown.toInt(-1) < 0) {
            message = QStringLiteral("rate_card.cool_down_minutes must be a whole number >= 0");
            return invalid();
        }
        next.coolDownMinutes = coolDown.toInt();
    }
    return next;
}

double RateCard::anfMonthly(const QString &serviceLevel, qint64 bytes) const
{
    const auto it = anfPerGibMonth.constFind(serviceLevel);
    return it == anfPerGibMonth.constEnd() ? -1 : it.value() * (double(bytes) / GiB);
}

double RateCard::ontapMonthly(const QString &policy, qint64 bytes) const
{
    const auto it = ontapPerGibMonth.constFind(policy);
    return it == ontapPerGibMonth.constEnd() ? -1 : it.value() * (double(bytes) / GiB);
}

double RateCard::gpuPrice(const QString &gpuProduct) const
{
    return gpuPerHour.value(gpuProduct, gpuDefaultPerHour);
}

} // namespace strata::core
