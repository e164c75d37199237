#pragma once

#include "models/core/domain/keyed.h"
#include "models/core/domain/records.h"

#include <QString>

namespace strata::core {

class Estate;

/// The cap a volume has at its current level.
struct LevelCap
{
    double mibps = -1; ///< throughput cap in MiB/s, -1 none or not throughput-based
    double iops = -1;  ///< IOPS cap, -1 none
    bool adaptive = false;
    QString detail; ///< ServiceLevelRow::levelDetail
};

/// The cap of an ONTAP QoS policy on a volume of `sizeBytes` (fixed: max MB/s converted to MiB/s
/// and max IOPS; adaptive: peak IOPS per TB (ONTAP's TB = 2^40 bytes) x size, no MiB/s cap);
/// nullptr = no policy.
LevelCap levelCapOfPolicy(const QosPolicy *policy, qint64 sizeBytes);
/// The cap of `volume` given its source's QoS policies (nullptr for ANF or none known): ANF =
/// Volume::throughputMibps, else quota (TiB) x anfMibpsPerTib(level); ONTAP = levelCapOfPolicy()
/// of its policy, found by SVM and name (by name alone when no SVM has it).
LevelCap levelCapOfVolume(const Volume &volume, const KeyedList<QosPolicy> *policies);
/// levelCapOfVolume() with the QoS policies the estate holds for the volume's source.
LevelCap levelCapOf(const Estate &estate, const Volume &volume);

/// Audit target of a ServiceLevelChange: "<label> [volume <volumeId>]". Sources' previews get it
/// through ServiceLevels::annotatePreview(), so the audit log (which stores the preview's target)
/// names the volume by its stable id: the cool-down and "last change" read it back with
/// volumeIdFromAuditTarget(), whatever the volume was called or where it lived then.
QString serviceLevelAuditTarget(const QString &label, const QString &volumeId);
/// The volume id of a serviceLevelAuditTarget() string, empty when `target` has none.
QString volumeIdFromAuditTarget(const QString &target);

} // namespace strata::core
