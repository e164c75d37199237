#pragma once

#include "models/core/domain/error.h"

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace strata::core {

/// Azure NetApp Files throughput per TiB (2^40 bytes) of volume quota for a service level with
/// auto QoS (Standard 16, Premium 64, Ultra 128 MiB/s); -1 for "Flexible" and unknown levels.
double anfMibpsPerTib(const QString &serviceLevel);
/// Auto-QoS throughput cap in MiB/s of `quotaBytes` at `serviceLevel`: anfMibpsPerTib x quota in
/// TiB, as ANF itself reports it (a 4 TiB Premium pool: 256 MiB/s; a 100 GiB Premium volume:
/// 6.25 MiB/s); -1 for "Flexible" and unknown levels. The one place Strata computes it.
double anfAutoQosMibps(const QString &serviceLevel, qint64 quotaBytes);
/// The cap of an ANF volume from what ARM reported: `reportedMibps` (properties.throughputMibps,
/// else actualThroughputMibps; nullopt when absent). When it is absent, or 0 on a pool that is not
/// Manual QoS (older api-versions), the cap follows from the level and quota (anfAutoQosMibps),
/// since no auto-QoS volume has a cap of 0. -1 when neither is known.
double anfVolumeCapMibps(std::optional<double> reportedMibps,
                         const QString &poolQosType,
                         const QString &serviceLevel,
                         qint64 quotaBytes);
/// "Standard", "Premium", "Ultra": the levels a volume can move between, slowest first.
QStringList anfServiceLevels();

/// What storage costs per month, as the admin enters it (Settings > Rate card, config key
/// "rate_card"). Prices are per provisioned GiB and month in `currency`. Defaults are Azure's
/// pay-as-you-go list prices for ANF in East US; ONTAP volumes have no default price (on-prem
/// chargeback rates are the admin's).
struct RateCard
{
    QString currency = QStringLiteral("USD");
    /// ANF price per GiB-month by service level ("Standard", "Premium", "Ultra").
    QMap<QString, double> anfPerGibMonth;
    /// ONTAP chargeback per GiB-month by QoS policy name; "" = volumes without a policy.
    QMap<QString, double> ontapPerGibMonth;
    /// Price of one GPU-hour by the node's GPU product (its `nvidia.com/gpu.product` label,
    /// "Tesla-V100-SXM2-32GB"); products not listed cost `gpuDefaultPerHour`.
    QMap<QString, double> gpuPerHour;
    /// Price of a GPU-hour of a product the card does not list (>= 0). Default: Azure's
    /// pay-as-you-go list price of one V100 (Standard_NC6s_v3, East US).
    double gpuDefaultPerHour = 3.06;
    /// StorageGRID chargeback per GiB-month of data stored in a bucket; -1 = none (on-prem rates
    /// are the admin's, like ONTAP's).
    double storageGridPerGibMonth = -1;
    /// Strata's rule: at least this many minutes between two level changes of one volume
    /// (0 = none). Shown in the preview and enforced there.
    int coolDownMinutes = 60;

    static RateCard defaults();
    /// {"currency":"USD","anf_per_gib_month":{"Standard":0.1475,...},"ontap_per_gib_month":{...},
    ///  "gpu_per_hour":{"Tesla-V100-SXM2-32GB":3.06,...},"gpu_default_per_hour":3.06,
    ///  "storagegrid_per_gib_month":0.02 (absent = no price),
    ///  "cool_down_minutes":60}. fromJson() fills missing keys from defaults(); a one-line
    /// Error::Kind::Invalid ("rate_card.currency must be ...") on a negative price or a wrong type.
    [[nodiscard]] QJsonObject toJson() const;
    static Result<RateCard> fromJson(const QJsonObject &json);

    /// Monthly price of `bytes` at an ANF level, -1 when the level has no price.
    [[nodiscard]] double anfMonthly(const QString &serviceLevel, qint64 bytes) const;
    /// Monthly chargeback of an ONTAP volume of `bytes` under QoS policy `policy`, -1 none.
    [[nodiscard]] double ontapMonthly(const QString &policy, qint64 bytes) const;
    /// Price of one GPU-hour of `gpuProduct` (gpuPerHour, else gpuDefaultPerHour).
    [[nodiscard]] double gpuPrice(const QString &gpuProduct) const;

    bool operator==(const RateCard &) const = default;
};

} // namespace strata::core
