#pragma once

#include "models/core/domain/records.h"

#include <QString>

#include <optional>

namespace strata::core {

/// A volume's capacity by the one definition every page, the CLI, /metrics and the forecasts use
/// (ONTAP System Manager's): used and size are those of the active file system, i.e. the
/// provisioned size less the snapshot reserve; the reserve is stated apart, never in either.
/// Volume::percentUsed is what the sources set from it.
struct VolumeCapacity
{
    qint64 sizeBytes = 0;              ///< provisioned size, snapshot reserve included (ONTAP space.size)
    qint64 reserveBytes = 0;           ///< the snapshot reserve, sizeBytes × reserve % / 100 (0 on ANF)
    qint64 usableBytes = 0;            ///< the active file system's size: sizeBytes − reserveBytes (the denominator)
    std::optional<qint64> usedBytes;   ///< used in the active file system; nullopt when not reported
    std::optional<double> percentUsed; ///< 100 × used / usable (above 100 when snapshots spill over
                                       ///< their reserve); nullopt when used is unknown or usable is 0
};

/// The capacity of a volume of `sizeBytes` with `snapshotReservePercent` (clamped to 0..100)
/// and `usedBytes` in its active file system.
VolumeCapacity volumeCapacity(qint64 sizeBytes, int snapshotReservePercent, std::optional<qint64> usedBytes);
/// The same for `volume` (its sizeBytes, snapshotReservePercent and usedBytes; never the
/// percentUsed a record may carry from elsewhere).
VolumeCapacity volumeCapacity(const Volume &volume);
/// The capacity in words, denominator stated: "87.7 % used: 250 GiB of 285 GiB (300 GiB less a
/// 15 GiB snapshot reserve)", "88.0 % used: 880 GiB of 1,000 GiB" without a reserve; "—" for
/// figures not reported.
QString volumeCapacityText(const VolumeCapacity &capacity);

} // namespace strata::core
