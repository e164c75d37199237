#pragma once

#include "models/core/domain/fieldschema.h"
#include "models/core/domain/records.h"
#include "models/core/planning/volumecapacity.h"

#include <cmath>
#include <span>

namespace strata::core {

/// A volume with what is joined to it for display: its latest performance sample (nullptr when
/// none was polled; the desktop subscribes to the performance poll, a listing does not).
struct VolumeRow
{
    using Record = Volume;
    const Volume &volume;
    const VolumePerf *perf = nullptr;

    [[nodiscard]] const Volume &record() const { return volume; }
};

/// The volume's % used as every front end shows and serves it: of the active file system
/// (volumeCapacity), to one decimal; null when used is unknown.
inline QVariant volumePercentUsedValue(const Volume &v)
{
    const std::optional<double> percent = volumeCapacity(v).percentUsed;
    return percent ? QVariant(std::round(*percent * 10.0) / 10.0) : QVariant();
}

/// Every field of a volume, in the order every front end shows them: the desktop's Volumes table
/// (Desktop), `strata get volumes` and /api/v1/volumes (Listed; the CLI table the InTable ones),
/// the web console's Volumes page (its InTable fields, from GET /api/v1/fields/volumes) and the
/// support bundle (every stored field, under its key). The performance fields are the desktop's
/// alone: only it subscribes to the performance poll.
// One line per field: key, title, CLI header, kind, surfaces, stored member[, value[, help]].
// clang-format off
inline constexpr Field<VolumeRow> kVolumeFields[] = {
    {"name", "Name", "NAME", FieldKind::Text, Listed | Desktop | InTable, &Volume::name},
    {"source", "Source", "SOURCE", FieldKind::Text, Listed | Desktop | InTable | Wide, &Volume::source},
    {"id", "ID", "", FieldKind::Text, Listed, &Volume::id},
    {"svm", "SVM", "SVM", FieldKind::Text, Listed | Desktop | InTable | Wide, &Volume::svm, nullptr, "The ONTAP storage VM; on Azure NetApp Files, the NetApp account"},
    {"state", "State", "STATE", FieldKind::Text, Listed | Desktop | InTable, &Volume::state},
    {"style", "Style", "STYLE", FieldKind::Text, Listed | Desktop | InTable | Wide, &Volume::style, [](const VolumeRow &r) { return QVariant(r.volume.isFlexCache ? QStringLiteral("flexcache") : r.volume.style); }, "flexvol, flexgroup, or flexcache for a FlexCache volume"},
    {"type", "Type", "", FieldKind::Text, Listed, &Volume::type},
    {"size_bytes", "Size", "SIZE", FieldKind::Bytes, Listed | Desktop | InTable, &Volume::sizeBytes, nullptr, "Provisioned size, snapshot reserve included"},
    {"usable_bytes", "Usable", "USABLE", FieldKind::Bytes, Listed | InTable | Wide, {}, [](const VolumeRow &r) { return QVariant(volumeCapacity(r.volume).usableBytes); }, "The active file system: the size less the snapshot reserve"},
    {"used_bytes", "Used", "USED", FieldKind::Bytes, Listed | Desktop | InTable, &Volume::usedBytes},
    {"percent_used", "% Used", "%USED", FieldKind::Percent, Listed | Desktop | InTable, &Volume::percentUsed, [](const VolumeRow &r) { return volumePercentUsedValue(r.volume); }, "Used of the usable size (the size less the snapshot reserve)"},
    {"available_bytes", "Available", "AVAILABLE", FieldKind::Bytes, Listed | Desktop | InTable | Wide, &Volume::availableBytes},
    {"qos_policy", "QoS policy", "QOS", FieldKind::Text, Listed | Desktop | InTable | Wide, &Volume::qosPolicy},
    {"snapshot_count", "Snapshots", "SNAPSHOTS", FieldKind::Count, Listed | Desktop | InTable | Wide, &Volume::snapshotCount},
    {"snapshot_reserve_percent", "Snapshot reserve", "", FieldKind::Percent, Listed, &Volume::snapshotReservePercent},
    {"snapshot_reserve_bytes", "Reserve", "", FieldKind::Bytes, Listed, {}, [](const VolumeRow &r) { return QVariant(volumeCapacity(r.volume).reserveBytes); }},
    {"snapshot_used_bytes", "Snapshot used", "SNAPUSED", FieldKind::Bytes, Listed | Desktop | InTable | Wide, &Volume::snapshotUsedBytes, [](const VolumeRow &r) { return r.volume.isAnf() || !r.volume.usedBytes ? QVariant() : QVariant(r.volume.snapshotUsedBytes); }, "Space the snapshots hold, within the snapshot reserve and beyond it (ONTAP space.snapshot.used)"},
    {"aggregate", "Aggregate", "", FieldKind::Text, Listed, &Volume::aggregate, nullptr, "ONTAP: the first aggregate; Azure NetApp Files: the capacity pool"},
    {"aggregate_count", "Aggregates", "", FieldKind::Count, 0, &Volume::aggregateCount},
    {"is_flexcache", "FlexCache", "", FieldKind::Flag, Listed, &Volume::isFlexCache},
    {"clone_parent", "Clone of", "", FieldKind::Text, Listed, &Volume::cloneParent},
    {"nas_path", "Path", "PATH", FieldKind::Text, Listed | InTable | Wide, &Volume::nasPath},
    {"created", "Created", "", FieldKind::Time, 0, &Volume::created},
    {"service_level", "Service level", "", FieldKind::Text, 0, &Volume::serviceLevel},
    {"arm_id", "ARM resource id", "", FieldKind::Text, 0, &Volume::armId},
    {"resource_group", "Resource group", "", FieldKind::Text, 0, &Volume::resourceGroup},
    {"location", "Region", "", FieldKind::Text, 0, &Volume::location},
    {"protocols", "Protocols", "", FieldKind::Text, 0, &Volume::protocols},
    {"qos_type", "QoS type", "", FieldKind::Text, 0, &Volume::qosType},
    {"throughput_mibps", "Throughput limit", "", FieldKind::Count, 0, &Volume::throughputMibps},
    {"provisioning_state", "Provisioning state", "", FieldKind::Text, 0, &Volume::provisioningState},
    {"total_iops", "IOPS", "", FieldKind::Iops, Desktop, {}, [](const VolumeRow &r) { return r.perf ? QVariant(r.perf->totalIops) : QVariant(); }},
    {"throughput_bps", "Throughput", "", FieldKind::Rate, Desktop, {}, [](const VolumeRow &r) { return r.perf ? QVariant(r.perf->throughputBps) : QVariant(); }},
    {"latency_us", "Latency", "", FieldKind::Latency, Desktop, {}, [](const VolumeRow &r) { return r.perf ? QVariant(r.perf->latencyUs) : QVariant(); }},
};
// clang-format on

/// kVolumeFields as a span.
constexpr std::span<const Field<VolumeRow>> volumeFields()
{
    return kVolumeFields;
}

/// Whether a volume field reads the performance sample (it changes with every performance poll).
constexpr bool isVolumePerfField(const Field<VolumeRow> &field)
{
    return field.kind == FieldKind::Iops || field.kind == FieldKind::Rate || field.kind == FieldKind::Latency;
}

} // namespace strata::core
