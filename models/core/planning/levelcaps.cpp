#include "models/core/planning/levelcaps.h"

#include "models/core/domain/estate.h"
#include "models/core/domain/format.h"
#include "models/core/domain/ratecard.h"

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>

namespace strata::core {

namespace {

// The cap texts keep the Service levels page's translation context: they are its column.
class CapText
{
    Q_DECLARE_TR_FUNCTIONS(strata::core::ServiceLevels)
};

constexpr double kCapMiB = 1024.0 * 1024.0;
constexpr double kCapTiB = 1024.0 * 1024.0 * 1024.0 * 1024.0;

Ptr<QosPolicy> findPolicy(const KeyedList<QosPolicy> *policies, const QString &svm, const QString &name)
{
    if (!policies || name.isEmpty()) {
        return nullptr;
    }
    Ptr<QosPolicy> byName;
    for (const Ptr<QosPolicy> &p : policies->items()) {
        if (p->name != name) {
            continue;
        }
        if (p->svm == svm) {
            return p;
        }
        byName = byName ? byName : p;
    }
    return byName;
}

} // namespace

LevelCap levelCapOfPolicy(const QosPolicy *policy, qint64 sizeBytes)
{
    LevelCap cap;
    if (!policy) {
        cap.detail = CapText::tr("no QoS policy");
        return cap;
    }
    const QLocale n(QLocale::English, QLocale::UnitedStates);
    if (policy->adaptive) {
        cap.adaptive = true;
        if (policy->peakIopsPerTb > 0) {
            cap.iops = double(policy->peakIopsPerTb) * double(sizeBytes) / kCapTiB;
        }
        cap.detail = CapText::tr("adaptive: %1 peak IOPS/TB").arg(n.toString(policy->peakIopsPerTb));
        return cap;
    }
    QStringList parts;
    if (policy->maxMbps > 0) {
        // ONTAP's max throughput is set in base-ten MB/s ("the units are base ten", qos
        // policy-group create): the policy's own figure is quoted, then Strata's binary units.
        cap.mibps = double(policy->maxMbps) * 1e6 / kCapMiB;
        parts << CapText::tr("%1 (%2)").arg(formatVendorMegabytesPerSecond(policy->maxMbps, n),
                                            formatRateMibps(cap.mibps, n));
    }
    if (policy->maxIops > 0) {
        cap.iops = double(policy->maxIops);
        parts << CapText::tr("%1 IOPS").arg(n.toString(policy->maxIops));
    }
    cap.detail = parts.isEmpty() ? CapText::tr("fixed: no limit")
                                 : CapText::tr("fixed: %1").arg(parts.join(QStringLiteral(", ")));
    return cap;
}

LevelCap levelCapOfVolume(const Volume &volume, const KeyedList<QosPolicy> *policies)
{
    if (volume.isAnf()) {
        LevelCap cap;
        const bool manual = volume.qosType.compare(QLatin1String("Manual"), Qt::CaseInsensitive) == 0;
        cap.mibps = volume.throughputMibps >= 0 ? volume.throughputMibps
                                                : anfAutoQosMibps(volume.serviceLevel, volume.sizeBytes);
        if (manual) {
            cap.detail = CapText::tr("manual QoS");
        } else if (anfMibpsPerTib(volume.serviceLevel) > 0) {
            cap.detail = CapText::tr("%1 MiB/s per TiB (auto QoS)").arg(anfMibpsPerTib(volume.serviceLevel));
        }
        return cap;
    }
    const Ptr<QosPolicy> policy = findPolicy(policies, volume.svm, volume.qosPolicy);
    return levelCapOfPolicy(policy.get(), volume.sizeBytes);
}

LevelCap levelCapOf(const Estate &estate, const Volume &volume)
{
    return levelCapOfVolume(volume, volume.isAnf() ? nullptr : estate.qosPolicies().scope(volume.source).get());
}

QString serviceLevelAuditTarget(const QString &label, const QString &volumeId)
{
    return QStringLiteral("%1 [volume %2]").arg(label, volumeId);
}

QString volumeIdFromAuditTarget(const QString &target)
{
    static const QRegularExpression re(QStringLiteral("\\[volume ([^\\]]+)\\]$"));
    const QRegularExpressionMatch m = re.match(target);
    return m.hasMatch() ? m.captured(1) : QString();
}

} // namespace strata::core
