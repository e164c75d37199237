#include "models/core/planning/volumecapacity.h"

#include "models/core/domain/translate.h"

#include <algorithm>

namespace strata::core {

VolumeCapacity volumeCapacity(qint64 sizeBytes, int snapshotReservePercent, std::optional<qint64> usedBytes)
{
    VolumeCapacity c;
    c.sizeBytes = std::max<qint64>(0, sizeBytes);
    // As ONTAP sizes it (space.snapshot.reserve_size): whole bytes of the percentage.
    c.reserveBytes = c.sizeBytes * std::clamp(snapshotReservePercent, 0, 100) / 100;
    c.usableBytes = c.sizeBytes - c.reserveBytes;
    c.usedBytes = usedBytes;
    if (usedBytes && c.usableBytes > 0) {
        c.percentUsed = 100.0 * double(*usedBytes) / double(c.usableBytes);
    }
    return c;
}

VolumeCapacity volumeCapacity(const Volume &volume)
{
    return volumeCapacity(volume.sizeBytes, volume.snapshotReservePercent, volume.usedBytes);
}

QString volumeCapacityText(const VolumeCapacity &capacity)
{
    const QString used = tr("%1 used: %2 of %3")
                             .arg(formatPercent(capacity.percentUsed),
                                  formatBytes(capacity.usedBytes),
                                  formatBytes(capacity.usableBytes));
    if (capacity.reserveBytes <= 0) {
        return used;
    }
    return tr("%1 (%2 less a %3 snapshot reserve)")
        .arg(used, formatBytes(capacity.sizeBytes), formatBytes(capacity.reserveBytes));
}

} // namespace strata::core
