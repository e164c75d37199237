#include "simulators/ontap/schemas.h"

#include "simulators/ontap/estate.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cmath>
#include <numbers>

namespace strata::sim::ontap {

namespace {

constexpr bool Cheap = false;
constexpr bool Costly = true;
constexpr qint64 SchemaDayMs = 24LL * 3600 * 1000;

quint64 mix(quint64 x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

double unit(quint64 x)
{
    return static_cast<double>(mix(x) >> 11) / static_cast<double>(quint64(1) << 53);
}

template <class T> Field<T> field(const char *path, FieldType type, bool expensive, Getter<T> get)
{
    return Field<T>{QString::fromLatin1(path), type, expensive, get, {}};
}

// Table DSL: each line is one leaf with its getter expression over `r` (the record) and `ctx`.
#define STRATA_FIELD(TYPE, PATH, COST, EXPR)                                                                           \
    field<Row>(                                                                                                        \
        PATH, FieldType::TYPE, COST, +[]([[maybe_unused]] const Row &r, [[maybe_unused]] const Ctx &ctx) {             \
            return QJsonValue(EXPR);                                                                                   \
        })
#define F_STR(PATH, COST, EXPR) STRATA_FIELD(String, PATH, COST, EXPR)
#define F_INT(PATH, COST, EXPR) STRATA_FIELD(Integer, PATH, COST, EXPR)
#define F_BOOL(PATH, COST, EXPR) STRATA_FIELD(Boolean, PATH, COST, EXPR)
#define F_JSON(PATH, COST, EXPR) STRATA_FIELD(Json, PATH, COST, EXPR)

QJsonValue opt(const QString &text)
{
    return text.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(text);
}

QJsonValue optIf(bool present, const QJsonValue &value)
{
    return present ? value : QJsonValue(QJsonValue::Undefined);
}

// ONTAP leaves `space` out of an offline volume's record (its Swagger marks none of it
// required; NetApp/trident#151: an offline volume does not send back its size attributes).
bool reportsSpace(const Volume &v)
{
    return v.state != QLatin1String("offline");
}

QJsonValue integer(double value)
{
    return QJsonValue(qint64(std::llround(value)));
}

QJsonArray refs(const QList<Ref> &list)
{
    QJsonArray out;
    for (const Ref &r : list) {
        out.append(QJsonObject{{QStringLiteral("name"), r.name}, {QStringLiteral("uuid"), r.uuid}});
    }
    return out;
}

QString durationText(int seconds)
{
    if (seconds % 86400 == 0) {
        return QStringLiteral("P%1D").arg(seconds / 86400);
    }
    if (seconds % 3600 == 0) {
        return QStringLiteral("PT%1H").arg(seconds / 3600);
    }
    if (seconds % 60 == 0) {
        return QStringLiteral("PT%1M").arg(seconds / 60);
    }
    return QStringLiteral("PT%1S").arg(seconds);
}

qint64 percentOf(qint64 part, qint64 whole)
{
    return whole > 0 ? qint64(std::llround(100.0 * double(part) / double(whole))) : 0;
}

const QosPolicy *policyOf(const Volume &v, const Ctx &ctx)
{
    return v.qosPolicy.uuid.isEmpty() ? nullptr : ctx.estate->qosPolicy(v.qosPolicy.uuid);
}

QJsonValue fixedQos(const Volume &v, const Ctx &ctx, qint64 QosPolicy::*member)
{
    const QosPolicy *p = policyOf(v, ctx);
    return p && !p->adaptive ? QJsonValue(p->*member) : QJsonValue(QJsonValue::Undefined);
}

// Statistics counters grow with the volume's average rates since it was created.
double rawCounter(const Volume &v, const Ctx &ctx, double perSecond)
{
    const double seconds = double(std::max<qint64>(0, ctx.nowMs - v.createMs)) / 1000.0;
    return perSecond * seconds;
}

PerfSample clusterPerf(const Ctx &ctx)
{
    PerfSample sum;
    for (const auto &v : ctx.estate->volumes()) {
        if (v->isConstituent) {
            continue;
        }
        const PerfSample s = volumePerf(*v, ctx.nowMs, 15);
        for (int i = 0; i < 4; ++i) {
            sum.iops[i] += s.iops[i];
            sum.throughput[i] += s.throughput[i];
            sum.latencyUs[i] += s.latencyUs[i] * s.iops[i];
        }
    }
    for (int i = 0; i < 4; ++i) {
        sum.latencyUs[i] = sum.iops[i] > 0 ? sum.latencyUs[i] / sum.iops[i] : 0;
    }
    return sum;
}

} // namespace

PerfSample volumePerf(const Volume &v, qint64 atMs, int durationSeconds)
{
    PerfSample s;
    if (v.state != QLatin1String("online")) {
        return s;
    }
    const qint64 bucket = atMs / 15000;
    const double hour = double(atMs % SchemaDayMs) / 3600000.0;
    const double diurnal = 0.8 + 0.2 * std::sin((hour - 8.0) / 24.0 * 2.0 * std::numbers::pi);
    // Short windows are noisy; long windows average the noise out.
    const double spread = durationSeconds <= 15 ? 0.35 : (durationSeconds <= 1800 ? 0.15 : 0.06);
    const quint64 seed = quint64(v.seed) * 7919ULL + quint64(bucket) * 31ULL + quint64(durationSeconds);
    const double level = diurnal * (1.0 - spread / 2 + spread * unit(seed));
    // Components are whole numbers so that totals add up exactly on the wire.
    s.iops[0] = std::round(v.perf.readIops * level);
    s.iops[1] = std::round(v.perf.writeIops * level * (0.9 + 0.2 * unit(seed + 1)));
    s.iops[2] = std::round(v.perf.otherIops * level);
    s.iops[3] = s.iops[0] + s.iops[1] + s.iops[2];
    s.throughput[0] = std::round(s.iops[0] * v.perf.readBytesPerOp);
    s.throughput[1] = std::round(s.iops[1] * v.perf.writeBytesPerOp);
    s.throughput[2] = 0;
    s.throughput[3] = s.throughput[0] + s.throughput[1];
    const double jitter = 0.85 + 0.3 * unit(seed + 2);
    s.latencyUs[0] = v.perf.latencyUs * jitter;
    s.latencyUs[1] = v.perf.latencyUs * 1.5 * jitter;
    s.latencyUs[2] = v.perf.latencyUs * 0.4 * jitter;
    s.latencyUs[3] =
        s.iops[3] > 0
            ? (s.latencyUs[0] * s.iops[0] + s.latencyUs[1] * s.iops[1] + s.latencyUs[2] * s.iops[2]) / s.iops[3]
            : 0;
    return s;
}

const Schema<ClusterInfo> &clusterSchema()
{
    using Row = ClusterInfo;
    static const Schema<Row> schema(
        {
            F_STR("name", Cheap, r.name),
            F_STR("uuid", Cheap, r.uuid),
            F_STR("version.full", Cheap, r.versionFull),
            F_INT("version.generation", Cheap, r.generation),
            F_INT("version.major", Cheap, r.major),
            F_INT("version.minor", Cheap, r.minor),
            F_STR("location", Cheap, r.location),
            F_STR("contact", Cheap, r.contact),
            F_STR("timezone.name", Cheap, QStringLiteral("Etc/UTC")),
            F_JSON("dns_domains", Cheap, QJsonArray{QStringLiteral("example.com")}),
            F_JSON("name_servers", Cheap, (QJsonArray{QStringLiteral("10.20.0.2"), QStringLiteral("10.20.0.3")})),
            F_JSON("ntp_servers", Cheap, QJsonArray{QStringLiteral("time.example.com")}),
            F_JSON("management_interfaces",
                   Cheap,
                   (QJsonArray{QJsonObject{
                       {QStringLiteral("name"), QStringLiteral("cluster_mgmt")},
                       {QStringLiteral("ip"), QJsonObject{{QStringLiteral("address"), r.managementAddress}}}}})),
            F_STR("metric.timestamp", Costly, Estate::timestamp(ctx.nowMs / 15000 * 15000)),
            F_STR("metric.duration", Costly, QStringLiteral("PT15S")),
            F_STR("metric.status", Costly, QStringLiteral("ok")),
            F_INT("metric.iops.read", Costly, integer(clusterPerf(ctx).iops[0])),
            F_INT("metric.iops.write", Costly, integer(clusterPerf(ctx).iops[1])),
            F_INT("metric.iops.other", Costly, integer(clusterPerf(ctx).iops[2])),
            F_INT("metric.iops.total", Costly, integer(clusterPerf(ctx).iops[3])),
            F_INT("metric.latency.read", Costly, integer(clusterPerf(ctx).latencyUs[0])),
            F_INT("metric.latency.write", Costly, integer(clusterPerf(ctx).latencyUs[1])),
            F_INT("metric.latency.other", Costly, integer(clusterPerf(ctx).latencyUs[2])),
            F_INT("metric.latency.total", Costly, integer(clusterPerf(ctx).latencyUs[3])),
            F_INT("metric.throughput.read", Costly, integer(clusterPerf(ctx).throughput[0])),
            F_INT("metric.throughput.write", Costly, integer(clusterPerf(ctx).throughput[1])),
            F_INT("metric.throughput.other", Costly, integer(clusterPerf(ctx).throughput[2])),
            F_INT("metric.throughput.total", Costly, integer(clusterPerf(ctx).throughput[3])),
        },
        QStringLiteral("uuid"),
        {QStringLiteral("name"), QStringLiteral("uuid")},
        +[](const Row &) -> QString {
            return QStringLiteral("/api/cluster");
        });
    return schema;
}

const Schema<Node> &nodeSchema()
{
    using Row = Node;
    static const Schema<Row> schema(
        {
            F_STR("uuid", Cheap, r.uuid),
            F_STR("name", Cheap, r.name),
            F_STR("model", Cheap, r.model),
            F_STR("serial_number", Cheap, r.serialNumber),
            F_STR("system_id", Cheap, r.systemId),
            F_STR("location", Cheap, ctx.estate->cluster.location),
            F_INT("uptime", Cheap, r.uptimeSeconds + (ctx.nowMs - ctx.estate->createdMs) / 1000),
            F_STR("state", Cheap, QStringLiteral("up")),
            F_STR("membership", Cheap, QStringLiteral("available")),
            F_STR("version.full", Cheap, ctx.estate->cluster.versionFull),
            F_INT("version.generation", Cheap, ctx.estate->cluster.generation),
            F_INT("version.major", Cheap, ctx.estate->cluster.major),
            F_INT("version.minor", Cheap, ctx.estate->cluster.minor),
            F_BOOL("ha.enabled", Cheap, !r.partnerUuid.isEmpty()),
            F_JSON("ha.partners",
                   Cheap,
                   refs(r.partnerUuid.isEmpty() ? QList<Ref>{} : QList<Ref>{Ref{r.partnerName, r.partnerUuid}})),
            F_BOOL("ha.auto_giveback", Cheap, true),
            F_STR("ha.giveback.state", Cheap, QStringLiteral("nothing_to_giveback")),
            F_STR("ha.takeover.state", Cheap, QStringLiteral("not_attempted")),
            F_STR("controller.over_temperature", Cheap, QStringLiteral("normal")),
            F_JSON("management_interfaces",
                   Cheap,
                   (QJsonArray{QJsonObject{
                       {QStringLiteral("name"), QString(r.name + QStringLiteral("_mgmt1"))},
                       {QStringLiteral("ip"), QJsonObject{{QStringLiteral("address"), r.managementAddress}}}}})),
        },
        QStringLiteral("uuid"),
        {QStringLiteral("name"), QStringLiteral("uuid")},
        +[](const Row &r) -> QString {
            return QStringLiteral("/api/cluster/nodes/") + r.uuid;
        });
    return schema;
}

const Schema<Svm> &svmSchema()
{
    using Row = Svm;
    static const Schema<Row> schema(
        {
            F_STR("uuid", Cheap, r.uuid),
            F_STR("name", Cheap, r.name),
            F_STR("state", Cheap, QStringLiteral("running")),
            F_STR("subtype", Cheap, QStringLiteral("default")),
            F_STR("language", Cheap, QStringLiteral("c.utf_8")),
            F_STR("comment", Cheap, opt(r.comment)),
            F_JSON("aggregates", Cheap, refs(r.aggregates)),
            F_STR("ipspace.name", Cheap, QStringLiteral("Default")),
            F_STR("snapshot_policy.name", Cheap, QStringLiteral("default")),
            F_BOOL("nfs.enabled", Cheap, r.nfs),
            F_BOOL("cifs.enabled", Cheap, r.cifs),
            F_BOOL("iscsi.enabled", Cheap, r.iscsi),
            F_BOOL("fcp.enabled", Cheap, false),
            F_BOOL("nvme.enabled", Cheap, false),
        },
        QStringLiteral("uuid"),
        {QStringLiteral("name"), QStringLiteral("uuid")},
        +[](const Row &r) -> QString {
            return QStringLiteral("/api/svm/svms/") + r.uuid;
        });
    return schema;
}

const Schema<Aggregate> &aggregateSchema()
{
    using Row = Aggregate;
    static const Schema<Row> schema(
        {
            F_STR("uuid", Cheap, r.uuid),
            F_STR("name", Cheap, r.name),
            F_STR("node.name", Cheap, r.node.name),
            F_STR("node.uuid", Cheap, r.node.uuid),
            F_STR("home_node.name", Cheap, r.node.name),
            F_STR("home_node.uuid", Cheap, r.node.uuid),
            F_STR("state", Cheap, QStringLiteral("online")),
            F_STR("create_time", Cheap, r.createTime),
            F_STR("snaplock_type", Cheap, QStringLiteral("non_snaplock")),
            F_INT("space.block_storage.size", Cheap, r.size),
            F_INT("space.block_storage.used", Cheap, ctx.aggregateUsed(r.uuid)),
            F_INT("space.block_storage.available", Cheap, std::max<qint64>(0, r.size - ctx.aggregateUsed(r.uuid))),
            F_INT("space.block_storage.full_threshold_percent", Cheap, 98),
            F_INT("space.block_storage.physical_used", Cheap, ctx.aggregateUsed(r.uuid) * 7 / 10),
            F_INT("space.block_storage.physical_used_percent",
                  Cheap,
                  percentOf(ctx.aggregateUsed(r.uuid) * 7 / 10, r.size)),
            F_INT("space.efficiency.savings", Cheap, ctx.aggregateUsed(r.uuid) * 3 / 10),
            F_INT("space.efficiency.logical_used", Cheap, ctx.aggregateUsed(r.uuid) * 143 / 100),
            F_JSON("space.efficiency.ratio", Cheap, 1.43),
            F_INT("block_storage.primary.disk_count", Cheap, r.diskCount),
            F_STR("block_storage.primary.disk_class", Cheap, QStringLiteral("solid_state")),
            F_STR("block_storage.primary.disk_type", Cheap, QStringLiteral("ssd")),
            F_STR("block_storage.primary.raid_type", Cheap, QStringLiteral("raid_dp")),
            F_INT("block_storage.primary.raid_size", Cheap, 24),
            F_STR("block_storage.primary.checksum_style", Cheap, QStringLiteral("block")),
            F_BOOL("block_storage.mirror.enabled", Cheap, false),
            F_STR("block_storage.mirror.state", Cheap, QStringLiteral("unmirrored")),
            F_BOOL("block_storage.hybrid_cache.enabled", Cheap, false),
            F_BOOL("data_encryption.software_encryption_enabled", Cheap, false),
            F_BOOL("data_encryption.drive_protection_enabled", Cheap, false),
        },
        QStringLiteral("uuid"),
        {QStringLiteral("name"), QStringLiteral("uuid")},
        +[](const Row &r) -> QString {
            return QStringLiteral("/api/storage/aggregates/") + r.uuid;
        });
    return schema;
}

const Schema<Volume> &volumeSchema()
{
    using Row = Volume;
    static const Schema<Row> schema(
        {
            F_STR("uuid", Cheap, r.uuid),
            F_STR("name", Cheap, r.name),
            F_STR("svm.name", Cheap, r.svm.name),
            F_STR("svm.uuid", Cheap, r.svm.uuid),
            F_JSON("aggregates", Cheap, refs(r.aggregates)),
            F_STR("state", Cheap, r.state),
            F_STR("style", Cheap, r.style),
            F_STR("type", Cheap, r.type),
            F_INT("size", Cheap, r.size),
            F_STR("create_time", Cheap, r.createTime),
            F_STR("comment", Cheap, opt(r.comment)),
            F_STR("language", Cheap, QStringLiteral("c.utf_8")),
            F_INT("snapshot_count", Cheap, r.snapshotCount()),
            F_BOOL("is_constituent", Cheap, r.isConstituent),
            F_BOOL("is_svm_root", Cheap, false),
            F_STR("flexcache_endpoint_type", Costly, r.flexcacheEndpoint),
            F_INT("constituent_count",
                  Costly,
                  optIf(r.style == QLatin1String("flexgroup") && r.constituentCount > 0, r.constituentCount)),
            F_INT("space.size", Cheap, optIf(reportsSpace(r), r.size)),
            F_INT("space.available", Cheap, optIf(reportsSpace(r), std::max<qint64>(0, r.usableSize() - r.used))),
            F_INT("space.used", Cheap, optIf(reportsSpace(r), r.used)),
            F_INT("space.percent_used", Cheap, optIf(reportsSpace(r), percentOf(r.used, r.usableSize()))),
            F_INT("space.afs_total", Cheap, optIf(reportsSpace(r), r.usableSize())),
            F_INT("space.physical_used", Cheap, optIf(reportsSpace(r), Estate::footprint(r) - r.size / 200)),
            F_INT("space.physical_used_percent",
                  Cheap,
                  optIf(reportsSpace(r), percentOf(Estate::footprint(r) - r.size / 200, r.size))),
            F_INT("space.footprint", Costly, optIf(reportsSpace(r), Estate::footprint(r))),
            F_INT("space.metadata", Costly, optIf(reportsSpace(r), r.size / 200)),
            F_INT("space.over_provisioned", Costly, optIf(reportsSpace(r), 0)),
            F_INT("space.block_storage_inactive_user_data", Costly, optIf(reportsSpace(r), 0)),
            F_INT("space.capacity_tier_footprint", Costly, optIf(reportsSpace(r), 0)),
            F_INT("space.logical_space.used", Costly, optIf(reportsSpace(r), r.used * 135 / 100)),
            F_INT("space.logical_space.used_by_afs", Costly, optIf(reportsSpace(r), r.used)),
            F_INT("space.logical_space.available",
                  Costly,
                  optIf(reportsSpace(r), std::max<qint64>(0, r.usableSize() - r.used))),
            F_INT("space.logical_space.used_percent",
                  Costly,
                  optIf(reportsSpace(r), percentOf(r.used * 135 / 100, r.usableSize()))),
            F_BOOL("space.logical_space.enforcement", Costly, optIf(reportsSpace(r), false)),
            F_BOOL("space.logical_space.reporting", Costly, optIf(reportsSpace(r), false)),
            F_INT("space.snapshot.used", Costly, optIf(reportsSpace(r), r.snapshotBytes)),
            F_INT("space.snapshot.reserve_percent", Costly, optIf(reportsSpace(r), r.snapshotReservePercent)),
            F_INT(
                "space.snapshot.reserve_size", Costly, optIf(reportsSpace(r), r.size * r.snapshotReservePercent / 100)),
            F_INT("space.snapshot.space_used_percent",
                  Costly,
                  optIf(reportsSpace(r), percentOf(r.snapshotBytes, r.size * r.snapshotReservePercent / 100))),
            F_BOOL("space.snapshot.autodelete_enabled", Costly, optIf(reportsSpace(r), false)),
            F_STR("qos.policy.name", Costly, opt(r.qosPolicy.name)),
            F_STR("qos.policy.uuid", Costly, opt(r.qosPolicy.uuid)),
            F_INT("qos.policy.max_throughput_iops", Costly, fixedQos(r, ctx, &QosPolicy::maxIops)),
            F_INT("qos.policy.max_throughput_mbps", Costly, fixedQos(r, ctx, &QosPolicy::maxMbps)),
            F_INT("qos.policy.min_throughput_iops", Costly, fixedQos(r, ctx, &QosPolicy::minIops)),
            F_STR("nas.path", Costly, opt(r.nasPath)),
            F_STR("nas.security_style", Costly, r.securityStyle),
            F_INT("nas.unix_permissions", Costly, 755),
            F_INT("nas.uid", Costly, 0),
            F_INT("nas.gid", Costly, 0),
            F_STR("nas.export_policy.name", Costly, r.exportPolicy),
            F_INT("nas.export_policy.id",
                  Costly,
                  r.exportPolicy == QLatin1String("default") ? 12884901889LL : 12884901890LL),
            F_BOOL("clone.is_flexclone", Cheap, r.isFlexClone),
            F_STR("clone.parent_volume.name", Costly, opt(r.cloneParentVolume.name)),
            F_STR("clone.parent_volume.uuid", Costly, opt(r.cloneParentVolume.uuid)),
            F_STR("clone.parent_snapshot.name", Costly, opt(r.cloneParentSnapshot.name)),
            F_STR("clone.parent_snapshot.uuid", Costly, opt(r.cloneParentSnapshot.uuid)),
            F_STR("clone.parent_svm.name", Costly, opt(r.cloneParentSvm.name)),
            F_STR("clone.parent_svm.uuid", Costly, opt(r.cloneParentSvm.uuid)),
            F_BOOL("clone.split_initiated", Costly, optIf(r.isFlexClone, r.splitInitiated)),
            F_INT("clone.split_complete_percent", Costly, optIf(r.isFlexClone, r.splitInitiated ? 100 : 0)),
            F_INT("clone.split_estimate", Costly, optIf(r.isFlexClone, r.splitInitiated ? 0 : r.used)),
            F_BOOL("clone.has_flexclone", Costly, !ctx.estate->clonesOfVolume(r.uuid).isEmpty()),
            F_STR("efficiency.compression", Costly, QStringLiteral("inline")),
            F_STR("efficiency.dedupe", Costly, QStringLiteral("both")),
            F_STR("efficiency.compaction", Costly, QStringLiteral("inline")),
            F_STR("efficiency.cross_volume_dedupe", Costly, QStringLiteral("inline")),
            F_BOOL("encryption.enabled", Costly, r.encrypted),
            F_STR(
                "encryption.state", Costly, r.encrypted ? QStringLiteral("encrypted") : QStringLiteral("unencrypted")),
            F_STR("guarantee.type", Costly, r.guarantee),
            F_BOOL("guarantee.honored", Costly, true),
            F_STR("autosize.mode", Costly, r.autosizeMode),
            F_INT("autosize.maximum", Costly, std::max(r.autosizeMaximum, r.size)),
            F_INT("autosize.minimum", Costly, r.size),
            F_INT("autosize.grow_threshold", Costly, 92),
            F_INT("autosize.shrink_threshold", Costly, 50),
            F_STR("snapshot_policy.name", Cheap, r.snapshotPolicy),
            F_STR("tiering.policy", Cheap, r.tieringPolicy),
            F_INT("files.maximum", Costly, r.filesMaximum),
            F_INT("files.used", Costly, r.filesUsed),
            F_BOOL("error_state.has_bad_blocks", Costly, false),
            F_BOOL("error_state.is_inconsistent", Costly, false),
            F_STR("quota.state", Costly, QStringLiteral("off")),
            F_STR("snaplock.type", Costly, QStringLiteral("non_snaplock")),
            F_STR("metric.timestamp", Costly, Estate::timestamp(ctx.nowMs / 15000 * 15000)),
            F_STR("metric.duration", Costly, QStringLiteral("PT15S")),
            F_STR("metric.status", Costly, QStringLiteral("ok")),
            F_INT("metric.iops.read", Costly, integer(volumePerf(r, ctx.nowMs, 15).iops[0])),
            F_INT("metric.iops.write", Costly, integer(volumePerf(r, ctx.nowMs, 15).iops[1])),
            F_INT("metric.iops.other", Costly, integer(volumePerf(r, ctx.nowMs, 15).iops[2])),
            F_INT("metric.iops.total", Costly, integer(volumePerf(r, ctx.nowMs, 15).iops[3])),
            F_INT("metric.latency.read", Costly, integer(volumePerf(r, ctx.nowMs, 15).latencyUs[0])),
            F_INT("metric.latency.write", Costly, integer(volumePerf(r, ctx.nowMs, 15).latencyUs[1])),
            F_INT("metric.latency.other", Costly, integer(volumePerf(r, ctx.nowMs, 15).latencyUs[2])),
            F_INT("metric.latency.total", Costly, integer(volumePerf(r, ctx.nowMs, 15).latencyUs[3])),
            F_INT("metric.throughput.read", Costly, integer(volumePerf(r, ctx.nowMs, 15).throughput[0])),
            F_INT("metric.throughput.write", Costly, integer(volumePerf(r, ctx.nowMs, 15).throughput[1])),
            F_INT("metric.throughput.other", Costly, integer(volumePerf(r, ctx.nowMs, 15).throughput[2])),
            F_INT("metric.throughput.total", Costly, integer(volumePerf(r, ctx.nowMs, 15).throughput[3])),
            F_STR("statistics.timestamp", Costly, Estate::timestamp(ctx.nowMs / 1000 * 1000)),
            F_STR("statistics.status", Costly, QStringLiteral("ok")),
            F_INT("statistics.iops_raw.read", Costly, integer(rawCounter(r, ctx, r.perf.readIops))),
            F_INT("statistics.iops_raw.write", Costly, integer(rawCounter(r, ctx, r.perf.writeIops))),
            F_INT("statistics.iops_raw.other", Costly, integer(rawCounter(r, ctx, r.perf.otherIops))),
            F_INT("statistics.iops_raw.total",
                  Costly,
                  integer(rawCounter(r, ctx, r.perf.readIops + r.perf.writeIops + r.perf.otherIops))),
            F_INT(
                "statistics.latency_raw.read", Costly, integer(rawCounter(r, ctx, r.perf.readIops * r.perf.latencyUs))),
            F_INT("statistics.latency_raw.write",
                  Costly,
                  integer(rawCounter(r, ctx, r.perf.writeIops * r.perf.latencyUs * 1.5))),
            F_INT("statistics.latency_raw.other",
                  Costly,
                  integer(rawCounter(r, ctx, r.perf.otherIops * r.perf.latencyUs * 0.4))),
            F_INT("statistics.latency_raw.total",
                  Costly,
                  integer(rawCounter(
                      r, ctx, r.perf.latencyUs * (r.perf.readIops + 1.5 * r.perf.writeIops + 0.4 * r.perf.otherIops)))),
            F_INT("statistics.throughput_raw.read",
                  Costly,
                  integer(rawCounter(r, ctx, r.perf.readIops * r.perf.readBytesPerOp))),
            F_INT("statistics.throughput_raw.write",
                  Costly,
                  integer(rawCounter(r, ctx, r.perf.writeIops * r.perf.writeBytesPerOp))),
            F_INT("statistics.throughput_raw.other", Costly, 0),
            F_INT("statistics.throughput_raw.total",
                  Costly,
                  integer(rawCounter(
                      r, ctx, r.perf.readIops * r.perf.readBytesPerOp + r.perf.writeIops * r.perf.writeBytesPerOp))),
        },
        QStringLiteral("uuid"),
        {QStringLiteral("name"), QStringLiteral("uuid")},
        +[](const Row &r) -> QString {
            return QStringLiteral("/api/storage/volumes/") + r.uuid;
        });
    return schema;
}

const Schema<SnapshotRow> &snapshotSchema()
{
    using Row = SnapshotRow;
    static const Schema<Row> schema(
        {
            F_STR("uuid", Cheap, r.snapshot->uuid),
            F_STR("name", Cheap, r.snapshot->name),
            F_STR("create_time", Cheap, r.snapshot->createTime),
            F_STR("comment", Cheap, opt(r.snapshot->comment)),
            F_STR("expiry_time", Cheap, opt(r.snapshot->expiryTime)),
            F_STR("snapmirror_label", Cheap, opt(r.snapshot->snapmirrorLabel)),
            F_STR("state", Cheap, QStringLiteral("valid")),
            F_STR("svm.name", Cheap, r.volume->svm.name),
            F_STR("svm.uuid", Cheap, r.volume->svm.uuid),
            F_STR("volume.name", Cheap, r.volume->name),
            F_STR("volume.uuid", Cheap, r.volume->uuid),
            F_INT("size", Costly, r.snapshot->size),
            F_JSON("owners",
                   Costly,
                   r.busy ? QJsonValue(QJsonArray{QStringLiteral("volume_clone")}) : QJsonValue(QJsonValue::Undefined)),
        },
        QStringLiteral("uuid"),
        {QStringLiteral("name"), QStringLiteral("uuid")},
        +[](const Row &r) -> QString {
            return QStringLiteral("/api/storage/volumes/%1/snapshots/%2").arg(r.volume->uuid, r.snapshot->uuid);
        },
        {QStringLiteral("create_time")});
    return schema;
}

const Schema<Job> &jobSchema()
{
    using Row = Job;
    static const Schema<Row> schema(
        {
            F_STR("uuid", Cheap, r.uuid),
            F_STR("description", Cheap, r.description),
            F_STR("state", Cheap, r.state),
            F_STR("message", Cheap, opt(r.message)),
            F_INT("code", Cheap, r.code),
            F_STR("start_time", Cheap, opt(r.startTime)),
            F_STR("end_time", Cheap, opt(r.endTime)),
            F_STR("svm.name", Cheap, opt(r.svm.name)),
            F_STR("svm.uuid", Cheap, opt(r.svm.uuid)),
        },
        QStringLiteral("uuid"),
        {QStringLiteral("uuid")},
        +[](const Row &r) -> QString {
            return QStringLiteral("/api/cluster/jobs/") + r.uuid;
        });
    return schema;
}

const Schema<EmsEvent> &emsEventSchema()
{
    using Row = EmsEvent;
    static const Schema<Row> schema(
        {
            F_INT("index", Cheap, r.index),
            F_STR("time", Cheap, r.time),
            F_STR("node.name", Cheap, r.node.name),
            F_STR("node.uuid", Cheap, r.node.uuid),
            F_STR("message.name", Cheap, r.messageName),
            F_STR("message.severity", Cheap, r.severity),
            F_STR("log_message", Cheap, r.logMessage),
            F_STR("source", Cheap, r.source),
            F_JSON(
                "parameters", Cheap, ([&] {
                    QJsonArray out;
                    for (const auto &p : r.parameters) {
                        out.append(QJsonObject{{QStringLiteral("name"), p.first}, {QStringLiteral("value"), p.second}});
                    }
                    return out;
                }())),
        },
        QStringLiteral("index"),
        {QStringLiteral("index")},
        +[](const Row &r) -> QString {
            return QStringLiteral("/api/support/ems/events/%1/%2").arg(r.node.name).arg(r.index);
        });
    return schema;
}

const Schema<QosPolicy> &qosPolicySchema()
{
    using Row = QosPolicy;
    static const Schema<Row> schema(
        {
            F_STR("uuid", Cheap, r.uuid),
            F_STR("name", Cheap, r.name),
            F_STR("svm.name", Cheap, opt(r.svm.name)),
            F_STR("svm.uuid", Cheap, opt(r.svm.uuid)),
            F_INT("object_count", Cheap, ctx.estate->qosObjectCount(r.uuid)),
            F_STR("policy_class", Cheap, QStringLiteral("user_defined")),
            F_INT("fixed.max_throughput_iops", Cheap, optIf(!r.adaptive, r.maxIops)),
            F_INT("fixed.max_throughput_mbps", Cheap, optIf(!r.adaptive, r.maxMbps)),
            F_INT("fixed.min_throughput_iops", Cheap, optIf(!r.adaptive, r.minIops)),
            F_INT("fixed.min_throughput_mbps", Cheap, optIf(!r.adaptive, 0)),
            F_BOOL("fixed.capacity_shared", Cheap, optIf(!r.adaptive, r.capacityShared)),
            F_INT("adaptive.expected_iops", Cheap, optIf(r.adaptive, r.expectedIops)),
            F_INT("adaptive.peak_iops", Cheap, optIf(r.adaptive, r.peakIops)),
            F_INT("adaptive.absolute_min_iops", Cheap, optIf(r.adaptive, r.absoluteMinIops)),
            F_STR("adaptive.expected_iops_allocation", Cheap, optIf(r.adaptive, QStringLiteral("allocated_space"))),
            F_STR("adaptive.peak_iops_allocation", Cheap, optIf(r.adaptive, QStringLiteral("used_space"))),
            F_STR("adaptive.block_size", Cheap, optIf(r.adaptive, QStringLiteral("any"))),
        },
        QStringLiteral("uuid"),
        {QStringLiteral("name"), QStringLiteral("uuid")},
        +[](const Row &r) -> QString {
            return QStringLiteral("/api/storage/qos/policies/") + r.uuid;
        });
    return schema;
}

const Schema<FlexCacheRow> &flexcacheSchema()
{
    using Row = FlexCacheRow;
    static const Schema<Row> schema(
        {
            F_STR("uuid", Cheap, r.cache->uuid),
            F_STR("name", Cheap, r.volume->name),
            F_STR("svm.name", Cheap, r.volume->svm.name),
            F_STR("svm.uuid", Cheap, r.volume->svm.uuid),
            F_JSON("aggregates", Costly, refs(r.volume->aggregates)),
            F_STR("path", Costly, opt(r.volume->nasPath)),
            F_INT("size", Costly, r.volume->size),
            F_STR("guarantee.type", Cheap, r.volume->guarantee),
            F_INT("constituents_per_aggregate", Cheap, 4),
            F_JSON("origins", Cheap, ([&] {
                       const Volume *origin = ctx.estate->volume(r.cache->origin.uuid);
                       QJsonObject o{
                           {QStringLiteral("volume"),
                            QJsonObject{{QStringLiteral("name"), r.cache->origin.name},
                                        {QStringLiteral("uuid"), r.cache->origin.uuid}}},
                           {QStringLiteral("svm"),
                            QJsonObject{{QStringLiteral("name"), r.cache->originSvm.name},
                                        {QStringLiteral("uuid"), r.cache->originSvm.uuid}}},
                           {QStringLiteral("cluster"),
                            QJsonObject{{QStringLiteral("name"), ctx.estate->cluster.name},
                                        {QStringLiteral("uuid"), ctx.estate->cluster.uuid}}},
                           {QStringLiteral("state"), origin ? origin->state : QStringLiteral("error")},
                           {QStringLiteral("create_time"), r.cache->createTime},
                       };
                       if (origin) {
                           o.insert(QStringLiteral("size"), origin->size);
                       }
                       return QJsonArray{o};
                   }())),
        },
        QStringLiteral("uuid"),
        {QStringLiteral("name"), QStringLiteral("uuid")},
        +[](const Row &r) -> QString {
            return QStringLiteral("/api/storage/flexcache/flexcaches/") + r.cache->uuid;
        });
    return schema;
}

const Schema<FlexCacheOriginRow> &flexcacheOriginSchema()
{
    using Row = FlexCacheOriginRow;
    static const Schema<Row> schema(
        {
            F_STR("uuid", Cheap, r.volume->uuid),
            F_STR("name", Cheap, r.volume->name),
            F_STR("svm.name", Cheap, r.volume->svm.name),
            F_STR("svm.uuid", Cheap, r.volume->svm.uuid),
            F_JSON(
                "flexcaches", Cheap, ([&] {
                    QJsonArray out;
                    for (const Volume *c : r.caches) {
                        out.append(QJsonObject{
                            {QStringLiteral("volume"),
                             QJsonObject{{QStringLiteral("name"), c->name}, {QStringLiteral("uuid"), c->uuid}}},
                            {QStringLiteral("svm"),
                             QJsonObject{{QStringLiteral("name"), c->svm.name}, {QStringLiteral("uuid"), c->svm.uuid}}},
                            {QStringLiteral("cluster"),
                             QJsonObject{{QStringLiteral("name"), ctx.estate->cluster.name},
                                         {QStringLiteral("uuid"), ctx.estate->cluster.uuid}}},
                            {QStringLiteral("state"), c->state},
                            {QStringLiteral("size"), c->size},
                            {QStringLiteral("create_time"), c->createTime},
                        });
                    }
                    return out;
                }())),
        },
        QStringLiteral("uuid"),
        {QStringLiteral("name"), QStringLiteral("uuid")},
        +[](const Row &r) -> QString {
            return QStringLiteral("/api/storage/flexcache/origins/") + r.volume->uuid;
        });
    return schema;
}

const Schema<MetricRow> &volumeMetricSchema()
{
    using Row = MetricRow;
    static const Schema<Row> schema(
        {
            F_STR("timestamp", Cheap, Estate::timestamp(r.timeMs)),
            F_STR("duration", Cheap, durationText(r.durationSeconds)),
            F_STR("status", Cheap, QStringLiteral("ok")),
            F_INT("iops.read", Cheap, integer(volumePerf(*r.volume, r.timeMs, r.durationSeconds).iops[0])),
            F_INT("iops.write", Cheap, integer(volumePerf(*r.volume, r.timeMs, r.durationSeconds).iops[1])),
            F_INT("iops.other", Cheap, integer(volumePerf(*r.volume, r.timeMs, r.durationSeconds).iops[2])),
            F_INT("iops.total", Cheap, integer(volumePerf(*r.volume, r.timeMs, r.durationSeconds).iops[3])),
            F_INT("latency.read", Cheap, integer(volumePerf(*r.volume, r.timeMs, r.durationSeconds).latencyUs[0])),
            F_INT("latency.write", Cheap, integer(volumePerf(*r.volume, r.timeMs, r.durationSeconds).latencyUs[1])),
            F_INT("latency.other", Cheap, integer(volumePerf(*r.volume, r.timeMs, r.durationSeconds).latencyUs[2])),
            F_INT("latency.total", Cheap, integer(volumePerf(*r.volume, r.timeMs, r.durationSeconds).latencyUs[3])),
            F_INT("throughput.read", Cheap, integer(volumePerf(*r.volume, r.timeMs, r.durationSeconds).throughput[0])),
            F_INT("throughput.write", Cheap, integer(volumePerf(*r.volume, r.timeMs, r.durationSeconds).throughput[1])),
            F_INT("throughput.other", Cheap, integer(volumePerf(*r.volume, r.timeMs, r.durationSeconds).throughput[2])),
            F_INT("throughput.total", Cheap, integer(volumePerf(*r.volume, r.timeMs, r.durationSeconds).throughput[3])),
        },
        QStringLiteral("timestamp"),
        {QStringLiteral("timestamp")},
        +[](const Row &r) -> QString {
            return QStringLiteral("/api/storage/volumes/%1/metrics").arg(r.volume->uuid);
        });
    return schema;
}

} // namespace strata::sim::ontap
