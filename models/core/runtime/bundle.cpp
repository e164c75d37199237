#include "models/core/runtime/bundle.h"

#include "models/core/domain/estate.h"
#include "models/core/domain/offthread.h"
#include "models/core/planning/jobfields.h"
#include "models/core/planning/volumefields.h"
#include "models/core/runtime/engine.h"
#include "models/core/runtime/timeline.h"
#include "models/core/services/historyservice.h"
#include "models/core/services/servicelevels.h"
#include "models/core/store/credentialstore.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QPointer>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QSysInfo>
#include <QThreadPool>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <tuple>
#include <type_traits>
#include <variant>
#include <zlib.h>

namespace strata::core {

namespace {

const auto kFormat = QStringLiteral("strata-bundle");
constexpr int kVersion = 1;
// Bounds of an inflated bundle (documented at decodeBundle). A bundle of a 50,000-volume
// estate with a day of history is tens of MB of JSON, which best-compression gzip shrinks 8 to
// 30 times; a bomb (zeros, one long string) shrinks about 1,000 times. Parsing takes a few
// times the document's size, so the absolute cap bounds the memory of opening any file.
constexpr qint64 kMaxInflatedBytes = qint64(256) * 1024 * 1024;
constexpr qint64 kMaxInflateRatio = 100;
// Small bundles (an empty estate) compress better than big ones: they get this much anyway.
constexpr qint64 kMinInflateAllowance = qint64(16) * 1024 * 1024;
// The gzip header's comment of a bundle carries the SHA-256 of the whole document, so a
// modified file is refused before its JSON is parsed (files without it are checked after).
constexpr char kDocumentChecksumPrefix[] = "strata-sha256:";

// ---- Field lists: one per struct, read by both directions ----

template <class T, class M> struct MemberField
{
    const char *name;
    M T::*member;
};

template <class T, class M> constexpr MemberField<T, M> field(const char *name, M T::*member)
{
    return {name, member};
}

template <class T> struct Fields;

template <> struct Fields<SourceStatus>
{
    static auto list()
    {
        using S = SourceStatus;
        return std::make_tuple(field("name", &S::name),
                               field("kind", &S::kind),
                               field("url", &S::url),
                               field("health", &S::health),
                               field("stale", &S::stale),
                               field("last_error", &S::lastError),
                               field("last_success", &S::lastSuccess),
                               field("last_attempt", &S::lastAttempt),
                               field("latency_ms", &S::latencyMs),
                               field("system_name", &S::systemName),
                               field("system_version", &S::systemVersion),
                               field("consecutive_failures", &S::consecutiveFailures),
                               field("next_poll", &S::nextPoll),
                               field("polled_by", &S::polledBy));
    }
};

// Volumes and jobs are coded from their field lists (planning/volumefields.h, jobfields.h):
// every stored field under its key, the same list the tables are built from.
template <class T> struct Schema;
template <> struct Schema<Volume>
{
    static std::span<const core::Field<VolumeRow>> fields() { return volumeFields(); }
};
template <> struct Schema<Job>
{
    static std::span<const core::Field<JobRow>> fields() { return jobFields(); }
};
template <class T>
concept HasSchema = requires
{
    Schema<T>::fields();
};

template <> struct Fields<VolumePerf>
{
    static auto list()
    {
        using S = VolumePerf;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("time", &S::time),
                               field("read_iops", &S::readIops),
                               field("write_iops", &S::writeIops),
                               field("total_iops", &S::totalIops),
                               field("throughput_bps", &S::throughputBps),
                               field("latency_us", &S::latencyUs));
    }
};

template <> struct Fields<Snapshot>
{
    static auto list()
    {
        using S = Snapshot;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("volume_id", &S::volumeId),
                               field("volume_name", &S::volumeName),
                               field("svm", &S::svm),
                               field("name", &S::name),
                               field("created", &S::created),
                               field("comment", &S::comment),
                               field("snapmirror_label", &S::snapmirrorLabel),
                               field("state", &S::state),
                               field("size_bytes", &S::sizeBytes));
    }
};

template <> struct Fields<Svm>
{
    static auto list()
    {
        using S = Svm;
        return std::make_tuple(
            field("source", &S::source), field("id", &S::id), field("name", &S::name), field("state", &S::state));
    }
};

template <> struct Fields<Aggregate>
{
    static auto list()
    {
        using S = Aggregate;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("name", &S::name),
                               field("node", &S::node),
                               field("state", &S::state),
                               field("size_bytes", &S::sizeBytes),
                               field("used_bytes", &S::usedBytes),
                               field("available_bytes", &S::availableBytes));
    }
};

template <> struct Fields<QosPolicy>
{
    static auto list()
    {
        using S = QosPolicy;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("name", &S::name),
                               field("svm", &S::svm),
                               field("adaptive", &S::adaptive),
                               field("max_iops", &S::maxIops),
                               field("max_mbps", &S::maxMbps),
                               field("min_iops", &S::minIops),
                               field("expected_iops_per_tb", &S::expectedIopsPerTb),
                               field("peak_iops_per_tb", &S::peakIopsPerTb),
                               field("object_count", &S::objectCount));
    }
};

template <> struct Fields<FlexCache>
{
    static auto list()
    {
        using S = FlexCache;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("name", &S::name),
                               field("svm", &S::svm),
                               field("size_bytes", &S::sizeBytes),
                               field("path", &S::path),
                               field("origin", &S::origin));
    }
};

template <> struct Fields<Event>
{
    static auto list()
    {
        using S = Event;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("time", &S::time),
                               field("severity", &S::severity),
                               field("name", &S::name),
                               field("message", &S::message),
                               field("node", &S::node),
                               field("object", &S::object));
    }
};

template <> struct Fields<GpuCluster>
{
    static auto list()
    {
        using S = GpuCluster;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("name", &S::name),
                               field("version", &S::version),
                               field("has_kai", &S::hasKai),
                               field("node_count", &S::nodeCount),
                               field("gpu_node_count", &S::gpuNodeCount),
                               field("gpu_total", &S::gpuTotal),
                               field("gpu_allocated", &S::gpuAllocated),
                               field("gpu_idle_allocated", &S::gpuIdleAllocated),
                               field("quota_total", &S::quotaTotal),
                               field("running_jobs", &S::runningJobs),
                               field("pending_jobs", &S::pendingJobs),
                               field("utilization", &S::utilization),
                               field("metrics_available", &S::metricsAvailable));
    }
};

template <> struct Fields<GpuSlot>
{
    static auto list()
    {
        using S = GpuSlot;
        return std::make_tuple(field("index", &S::index),
                               field("used", &S::used),
                               field("jobs", &S::jobs),
                               field("utilization", &S::utilization));
    }
};

template <> struct Fields<GpuNode>
{
    static auto list()
    {
        using S = GpuNode;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("name", &S::name),
                               field("gpu_product", &S::gpuProduct),
                               field("gpu_memory_mib", &S::gpuMemoryMiB),
                               field("gpu_count", &S::gpuCount),
                               field("allocatable", &S::allocatable),
                               field("allocated", &S::allocated),
                               field("slots", &S::slots),
                               field("utilization", &S::utilization),
                               field("ready", &S::ready),
                               field("schedulable", &S::schedulable),
                               field("running_jobs", &S::runningJobs));
    }
};

template <> struct Fields<Project>
{
    static auto list()
    {
        using S = Project;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("name", &S::name),
                               field("namespace", &S::namespaceName),
                               field("origin", &S::origin),
                               field("quota", &S::quota),
                               field("limit", &S::limit),
                               field("over_quota_weight", &S::overQuotaWeight),
                               field("allocated", &S::allocated),
                               field("in_quota", &S::inQuota),
                               field("over_quota", &S::overQuota),
                               field("pending", &S::pending),
                               field("fair_share", &S::fairShare),
                               field("running_jobs", &S::runningJobs),
                               field("queued_jobs", &S::queuedJobs),
                               field("utilization", &S::utilization),
                               field("idle_allocated", &S::idleAllocated));
    }
};

template <> struct Fields<Pvc>
{
    static auto list()
    {
        using S = Pvc;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("namespace", &S::namespaceName),
                               field("name", &S::name),
                               field("phase", &S::phase),
                               field("storage_class", &S::storageClass),
                               field("capacity_bytes", &S::capacityBytes),
                               field("access_modes", &S::accessModes),
                               field("pv_name", &S::pvName),
                               field("csi_driver", &S::csiDriver),
                               field("volume_handle", &S::volumeHandle),
                               field("backend_volume", &S::backendVolume),
                               field("nfs_server", &S::nfsServer),
                               field("nfs_path", &S::nfsPath),
                               field("storage_source", &S::storageSource),
                               field("storage_volume_id", &S::storageVolumeId),
                               field("used_by", &S::usedBy));
    }
};

template <> struct Fields<CapacityPool>
{
    static auto list()
    {
        using S = CapacityPool;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("arm_id", &S::armId),
                               field("name", &S::name),
                               field("account", &S::account),
                               field("resource_group", &S::resourceGroup),
                               field("location", &S::location),
                               field("pool_id", &S::poolId),
                               field("service_level", &S::serviceLevel),
                               field("qos_type", &S::qosType),
                               field("size_bytes", &S::sizeBytes),
                               field("allocated_bytes", &S::allocatedBytes),
                               field("volume_count", &S::volumeCount),
                               field("total_throughput_mibps", &S::totalThroughputMibps),
                               field("utilized_throughput_mibps", &S::utilizedThroughputMibps),
                               field("provisioning_state", &S::provisioningState));
    }
};

template <> struct Fields<AksCluster>
{
    static auto list()
    {
        using S = AksCluster;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("arm_id", &S::armId),
                               field("name", &S::name),
                               field("resource_group", &S::resourceGroup),
                               field("location", &S::location),
                               field("kubernetes_version", &S::kubernetesVersion),
                               field("fqdn", &S::fqdn),
                               field("provisioning_state", &S::provisioningState),
                               field("power_state", &S::powerState),
                               field("node_count", &S::nodeCount),
                               field("agent_pools", &S::agentPools),
                               field("kubernetes_source", &S::kubernetesSource));
    }
};

template <> struct Fields<GridSummary>
{
    static auto list()
    {
        using S = GridSummary;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("grid_name", &S::gridName),
                               field("product_version", &S::productVersion),
                               field("api_version", &S::apiVersion),
                               field("alerts_critical", &S::alertsCritical),
                               field("alerts_major", &S::alertsMajor),
                               field("alerts_minor", &S::alertsMinor),
                               field("nodes_connected", &S::nodesConnected),
                               field("nodes_admin_down", &S::nodesAdminDown),
                               field("nodes_unknown", &S::nodesUnknown),
                               field("active_ilm_policy", &S::activeIlmPolicy),
                               field("usable_bytes", &S::usableBytes),
                               field("used_bytes", &S::usedBytes));
    }
};

template <> struct Fields<GridNode>
{
    static auto list()
    {
        using S = GridNode;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("name", &S::name),
                               field("site", &S::site),
                               field("type", &S::type),
                               field("severity", &S::severity),
                               field("state", &S::state));
    }
};

template <> struct Fields<GridAlert>
{
    static auto list()
    {
        using S = GridAlert;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("name", &S::name),
                               field("severity", &S::severity),
                               field("summary", &S::summary),
                               field("description", &S::description),
                               field("node", &S::node),
                               field("site", &S::site),
                               field("starts_at", &S::startsAt),
                               field("ends_at", &S::endsAt),
                               field("resolved", &S::resolved),
                               field("silenced", &S::silenced));
    }
};

template <> struct Fields<Tenant>
{
    static auto list()
    {
        using S = Tenant;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("name", &S::name),
                               field("description", &S::description),
                               field("capabilities", &S::capabilities),
                               field("quota_bytes", &S::quotaBytes),
                               field("data_bytes", &S::dataBytes),
                               field("object_count", &S::objectCount),
                               field("bucket_count", &S::bucketCount),
                               field("growth_7d_bytes", &S::growth7dBytes));
    }
};

template <> struct Fields<Bucket>
{
    static auto list()
    {
        using S = Bucket;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("tenant_id", &S::tenantId),
                               field("tenant_name", &S::tenantName),
                               field("name", &S::name),
                               field("region", &S::region),
                               field("versioning", &S::versioning),
                               field("object_count", &S::objectCount),
                               field("data_bytes", &S::dataBytes),
                               field("quota_bytes", &S::quotaBytes),
                               field("growth_7d_bytes", &S::growth7dBytes));
    }
};

template <> struct Fields<Dataset>
{
    static auto list()
    {
        using S = Dataset;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("name", &S::name),
                               field("kind", &S::kind),
                               field("bucket", &S::bucket),
                               field("prefix", &S::prefix),
                               field("volume_id", &S::volumeId),
                               field("commit_count", &S::commitCount),
                               field("head_commit", &S::headCommit),
                               field("size_bytes", &S::sizeBytes),
                               field("object_count", &S::objectCount),
                               field("last_activity", &S::lastActivity));
    }
};

template <> struct Fields<Commit>
{
    static auto list()
    {
        using S = Commit;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("dataset_id", &S::datasetId),
                               field("dataset_name", &S::datasetName),
                               field("parent", &S::parent),
                               field("author", &S::author),
                               field("message", &S::message),
                               field("time", &S::time),
                               field("object_count", &S::objectCount),
                               field("bytes", &S::bytes),
                               field("manifest_key", &S::manifestKey));
    }
};

template <> struct Fields<CacheTarget>
{
    static auto list()
    {
        using S = CacheTarget;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("namespace", &S::namespaceName),
                               field("pvc", &S::pvc),
                               field("pvc_phase", &S::pvcPhase),
                               field("storage_source", &S::storageSource),
                               field("storage_volume_id", &S::storageVolumeId),
                               field("volume_name", &S::volumeName),
                               field("capacity_bytes", &S::capacityBytes),
                               field("used_bytes", &S::usedBytes),
                               field("cached_bytes", &S::cachedBytes),
                               field("evict_after_days", &S::evictAfterDays),
                               field("high_watermark_percent", &S::highWatermarkPercent),
                               field("problem", &S::problem));
    }
};

template <> struct Fields<CachedCommit>
{
    static auto list()
    {
        using S = CachedCommit;
        return std::make_tuple(field("source", &S::source),
                               field("id", &S::id),
                               field("target", &S::target),
                               field("commit_id", &S::commitId),
                               field("dataset_source", &S::datasetSource),
                               field("dataset_id", &S::datasetId),
                               field("dataset_name", &S::datasetName),
                               field("state", &S::state),
                               field("objects_done", &S::objectsDone),
                               field("objects_total", &S::objectsTotal),
                               field("bytes_done", &S::bytesDone),
                               field("bytes_total", &S::bytesTotal),
                               field("path", &S::path),
                               field("job", &S::job),
                               field("reason", &S::reason),
                               field("requested", &S::requested),
                               field("ready_at", &S::readyAt),
                               field("last_used", &S::lastUsed),
                               field("used_by", &S::usedBy),
                               field("evict_at", &S::evictAt),
                               field("evict_reason", &S::evictReason));
    }
};

template <> struct Fields<ProjectSample>
{
    static auto list()
    {
        using S = ProjectSample;
        return std::make_tuple(field("project", &S::project),
                               field("time", &S::time),
                               field("allocated", &S::allocated),
                               field("quota", &S::quota),
                               field("pending", &S::pending),
                               field("utilization", &S::utilization));
    }
};

template <> struct Fields<UsageSample>
{
    static auto list()
    {
        using S = UsageSample;
        return std::make_tuple(
            field("time", &S::time), field("used_bytes", &S::usedBytes), field("size_bytes", &S::sizeBytes));
    }
};

template <> struct Fields<VolumePerfSample>
{
    static auto list()
    {
        using S = VolumePerfSample;
        return std::make_tuple(field("volume_id", &S::volumeId),
                               field("time", &S::time),
                               field("throughput_bps", &S::throughputBps),
                               field("iops", &S::iops),
                               field("latency_us", &S::latencyUs),
                               field("cap_bps", &S::capBps));
    }
};

template <> struct Fields<AuditEntry>
{
    static auto list()
    {
        using S = AuditEntry;
        return std::make_tuple(field("id", &S::id),
                               field("time", &S::time),
                               field("user", &S::user),
                               field("action_id", &S::actionId),
                               field("source", &S::source),
                               field("kind", &S::kind),
                               field("target", &S::target),
                               field("from_state", &S::fromState),
                               field("to_state", &S::toState),
                               field("outcome", &S::outcome),
                               field("message", &S::message),
                               field("replica", &S::replica));
    }
};

// Secrets (password, s3Secret) and the S3 access key are not in this list, so no bundle can
// carry them whatever the caller passes.
template <> struct Fields<SourceConfig>
{
    static auto list()
    {
        using S = SourceConfig;
        return std::make_tuple(field("name", &S::name),
                               field("kind", &S::kind),
                               field("url", &S::url),
                               field("username", &S::username),
                               field("ca_file", &S::caFile),
                               field("insecure_skip_tls_verify", &S::insecureSkipTlsVerify),
                               field("config_seconds", &S::configIntervalSeconds),
                               field("performance_seconds", &S::perfIntervalSeconds),
                               field("kubeconfig", &S::kubeconfig),
                               field("kube_context", &S::kubeContext),
                               field("prometheus_url", &S::prometheusUrl),
                               field("kubeconfig_in_secret", &S::kubeconfigInSecret),
                               field("subscription_id", &S::subscriptionId),
                               field("tenant_id", &S::tenantId),
                               field("client_id", &S::clientId),
                               field("authority_url", &S::authorityUrl),
                               field("credential_source", &S::credentialSource),
                               field("s3_url", &S::s3Url),
                               field("s3_region", &S::s3Region),
                               field("s3_path_style", &S::s3PathStyle),
                               field("dataset_roots", &S::datasetRoots));
    }
};

template <> struct Fields<CacheTargetConfig>
{
    static auto list()
    {
        using S = CacheTargetConfig;
        return std::make_tuple(field("name", &S::name),
                               field("kubernetes_source", &S::kubernetesSource),
                               field("namespace", &S::namespaceName),
                               field("pvc", &S::pvc),
                               field("s3_credentials_secret", &S::s3CredentialsSecret),
                               field("loader_image", &S::loaderImage),
                               field("evict_after_days", &S::evictAfterDays),
                               field("high_watermark_percent", &S::highWatermarkPercent));
    }
};

// ---- Enum names (the domain's own name functions; the reverse by trying every value) ----

QString projectOriginName(ProjectOrigin origin)
{
    return origin == ProjectOrigin::KaiQueue ? QStringLiteral("kai_queue") : QStringLiteral("namespace_quota");
}

template <class E> struct EnumNames;
template <> struct EnumNames<SourceKind>
{
    static QString name(SourceKind v) { return sourceKindName(v); }
    static constexpr int count = int(SourceKind::StorageGrid) + 1;
};
template <> struct EnumNames<Health>
{
    static QString name(Health v) { return healthName(v); }
    static constexpr int count = int(Health::AuthRequired) + 1;
};
template <> struct EnumNames<DatasetKind>
{
    static QString name(DatasetKind v) { return datasetKindName(v); }
    static constexpr int count = int(DatasetKind::OntapVolume) + 1;
};
template <> struct EnumNames<CacheState>
{
    static QString name(CacheState v) { return cacheStateName(v); }
    static constexpr int count = int(CacheState::Failed) + 1;
};
template <> struct EnumNames<JobType>
{
    static QString name(JobType v) { return jobTypeName(v); }
    static constexpr int count = int(JobType::Interactive) + 1;
};
template <> struct EnumNames<JobStatus>
{
    static QString name(JobStatus v) { return jobStatusName(v); }
    static constexpr int count = int(JobStatus::Unknown) + 1;
};
template <> struct EnumNames<ProjectOrigin>
{
    static QString name(ProjectOrigin v) { return projectOriginName(v); }
    static constexpr int count = int(ProjectOrigin::NamespaceQuota) + 1;
};

// ---- Value codecs. An invalid time and an empty optional are left out of the object, so a
// missing key always means "the default". ----

QString bundleTimeText(const QDateTime &t)
{
    return t.toUTC().toString(Qt::ISODateWithMs);
}

template <class V> struct Codec;

template <> struct Codec<QString>
{
    static QJsonValue encode(const QString &v) { return v; }
    static bool decode(const QJsonValue &j, QString *v)
    {
        *v = j.toString();
        return j.isString();
    }
};
template <> struct Codec<bool>
{
    static QJsonValue encode(bool v) { return v; }
    static bool decode(const QJsonValue &j, bool *v)
    {
        *v = j.toBool();
        return j.isBool();
    }
};
template <> struct Codec<int>
{
    static QJsonValue encode(int v) { return v; }
    static bool decode(const QJsonValue &j, int *v)
    {
        *v = int(j.toInteger());
        return j.isDouble();
    }
};
template <> struct Codec<qint64>
{
    static QJsonValue encode(qint64 v) { return v; }
    static bool decode(const QJsonValue &j, qint64 *v)
    {
        *v = j.toInteger();
        return j.isDouble();
    }
};
template <> struct Codec<double>
{
    static QJsonValue encode(double v) { return v; }
    static bool decode(const QJsonValue &j, double *v)
    {
        *v = j.toDouble();
        return j.isDouble();
    }
};
template <> struct Codec<QDateTime>
{
    static QJsonValue encode(const QDateTime &v) { return v.isValid() ? QJsonValue(bundleTimeText(v)) : QJsonValue(); }
    static bool decode(const QJsonValue &j, QDateTime *v)
    {
        *v = QDateTime::fromString(j.toString(), Qt::ISODateWithMs);
        return j.isString() && v->isValid();
    }
};
template <> struct Codec<QStringList>
{
    static QJsonValue encode(const QStringList &v) { return QJsonArray::fromStringList(v); }
    static bool decode(const QJsonValue &j, QStringList *v)
    {
        v->clear();
        for (const QJsonValue &item : j.toArray()) {
            if (!item.isString()) {
                return false;
            }
            v->append(item.toString());
        }
        return j.isArray();
    }
};
template <> struct Codec<std::optional<qint64>>
{
    static QJsonValue encode(const std::optional<qint64> &v) { return v ? QJsonValue(*v) : QJsonValue(); }
    static bool decode(const QJsonValue &j, std::optional<qint64> *v)
    {
        *v = j.toInteger();
        return j.isDouble();
    }
};
template <> struct Codec<std::optional<double>>
{
    static QJsonValue encode(const std::optional<double> &v) { return v ? QJsonValue(*v) : QJsonValue(); }
    static bool decode(const QJsonValue &j, std::optional<double> *v)
    {
        *v = j.toDouble();
        return j.isDouble();
    }
};
template <> struct Codec<QList<GpuSlot>>
{
    static QJsonValue encode(const QList<GpuSlot> &v)
    {
        QJsonArray a;
        for (const GpuSlot &slot : v) {
            a.append(recordToJson(slot));
        }
        return a;
    }
    static bool decode(const QJsonValue &j, QList<GpuSlot> *v)
    {
        v->clear();
        for (const QJsonValue &item : j.toArray()) {
            if (!item.isObject()) {
                return false;
            }
            const Result<GpuSlot> slot = recordFromJson<GpuSlot>(item.toObject());
            if (!slot) {
                return false;
            }
            v->append(*slot);
        }
        return j.isArray();
    }
};

template <class E>
requires std::is_enum_v<E>
struct Codec<E>
{
    static QJsonValue encode(E v) { return EnumNames<E>::name(v); }
    static bool decode(const QJsonValue &j, E *v)
    {
        for (int i = 0; i < EnumNames<E>::count; ++i) {
            if (EnumNames<E>::name(E(i)) == j.toString()) {
                *v = E(i);
                return true;
            }
        }
        return false;
    }
};

template <class T> QJsonObject encodeFields(const T &record)
{
    QJsonObject o;
    auto put = [&](const char *name, const QJsonValue &value) {
        if (!value.isUndefined() && !value.isNull()) {
            o.insert(QLatin1StringView(name), value);
        }
    };
    if constexpr (HasSchema<T>) {
        for (const auto &f : Schema<T>::fields()) {
            std::visit(
                [&](auto member) {
                    if constexpr (!std::is_same_v<decltype(member), std::monostate>) {
                        put(f.key, Codec<std::remove_cvref_t<decltype(record.*member)>>::encode(record.*member));
                    }
                },
                f.stored);
        }
    } else {
        std::apply(
            [&](const auto &...f) {
                (put(f.name, Codec<std::remove_cvref_t<decltype(record.*(f.member))>>::encode(record.*(f.member))),
                 ...);
            },
            Fields<T>::list());
    }
    return o;
}

template <class T> bool decodeFields(const QJsonObject &json, T *record, QString *error)
{
    T out;
    bool ok = true;
    auto take = [&](const char *name, auto *member) {
        if (!ok) {
            return;
        }
        const QJsonValue value = json.value(QLatin1StringView(name));
        if (value.isUndefined() || value.isNull()) {
            return;
        }
        if (!Codec<std::remove_cvref_t<decltype(*member)>>::decode(value, member)) {
            ok = false;
            if (error) {
                *error = QStringLiteral("%1: unexpected value %2")
                             .arg(QLatin1StringView(name),
                                  QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact))
                                      .mid(1)
                                      .chopped(1));
            }
        }
    };
    if constexpr (HasSchema<T>) {
        for (const auto &f : Schema<T>::fields()) {
            std::visit(
                [&](auto member) {
                    if constexpr (!std::is_same_v<decltype(member), std::monostate>) {
                        take(f.key, &(out.*member));
                    }
                },
                f.stored);
        }
    } else {
        std::apply(
            [&](const auto &...f) {
                (take(f.name, &(out.*(f.member))), ...);
            },
            Fields<T>::list());
    }
    if (ok) {
        *record = std::move(out);
    }
    return ok;
}

// ---- The estate's tables ----

template <class T> struct TableDesc
{
    using Record = T;
    const char *name;
    ScopedRecords<T> EstateRecords::*records;
    const Table<T> &(Estate::*table)() const;
};

auto tables()
{
    return std::make_tuple(
        TableDesc<Volume>{"volumes", &EstateRecords::volumes, &Estate::volumes},
        TableDesc<VolumePerf>{"volume_perf", &EstateRecords::volumePerf, &Estate::volumePerf},
        TableDesc<Snapshot>{"snapshots", &EstateRecords::snapshots, &Estate::snapshots},
        TableDesc<Svm>{"svms", &EstateRecords::svms, &Estate::svms},
        TableDesc<Aggregate>{"aggregates", &EstateRecords::aggregates, &Estate::aggregates},
        TableDesc<QosPolicy>{"qos_policies", &EstateRecords::qosPolicies, &Estate::qosPolicies},
        TableDesc<FlexCache>{"flexcaches", &EstateRecords::flexCaches, &Estate::flexCaches},
        TableDesc<Event>{"events", &EstateRecords::events, &Estate::events},
        TableDesc<GpuCluster>{"gpu_clusters", &EstateRecords::gpuClusters, &Estate::gpuClusters},
        TableDesc<GpuNode>{"gpu_nodes", &EstateRecords::gpuNodes, &Estate::gpuNodes},
        TableDesc<Project>{"projects", &EstateRecords::projects, &Estate::projects},
        TableDesc<Job>{"jobs", &EstateRecords::jobs, &Estate::jobs},
        TableDesc<Pvc>{"pvcs", &EstateRecords::pvcs, &Estate::pvcs},
        TableDesc<CapacityPool>{"capacity_pools", &EstateRecords::capacityPools, &Estate::capacityPools},
        TableDesc<AksCluster>{"aks_clusters", &EstateRecords::aksClusters, &Estate::aksClusters},
        TableDesc<GridSummary>{"grid_summaries", &EstateRecords::gridSummaries, &Estate::gridSummaries},
        TableDesc<GridNode>{"grid_nodes", &EstateRecords::gridNodes, &Estate::gridNodes},
        TableDesc<GridAlert>{"grid_alerts", &EstateRecords::gridAlerts, &Estate::gridAlerts},
        TableDesc<Tenant>{"tenants", &EstateRecords::tenants, &Estate::tenants},
        TableDesc<Bucket>{"buckets", &EstateRecords::buckets, &Estate::buckets},
        TableDesc<Dataset>{"datasets", &EstateRecords::datasets, &Estate::datasets},
        TableDesc<Commit>{"commits", &EstateRecords::commits, &Estate::commits},
        TableDesc<CacheTarget>{"cache_targets", &EstateRecords::cacheTargets, &Estate::cacheTargets},
        TableDesc<CachedCommit>{"cached_commits", &EstateRecords::cachedCommits, &Estate::cachedCommits});
}

template <class F> void forEachTable(F &&f)
{
    std::apply(
        [&](const auto &...d) {
            (f(d), ...);
        },
        tables());
}

template <class T> QJsonArray arrayOf(const std::vector<T> &items)
{
    QJsonArray a;
    for (const T &item : items) {
        a.append(encodeFields(item));
    }
    return a;
}

template <class T> QJsonArray arrayOf(const QList<T> &items)
{
    QJsonArray a;
    for (const T &item : items) {
        a.append(encodeFields(item));
    }
    return a;
}

template <class Container> bool readArray(const QJsonValue &json, Container *out, const QString &where, QString *error)
{
    if (!json.isArray() && !json.isUndefined()) {
        *error = where + QStringLiteral(": not an array");
        return false;
    }
    const QJsonArray array = json.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        typename Container::value_type item;
        QString why;
        if (!array[i].isObject() || !decodeFields(array[i].toObject(), &item, &why)) {
            *error = QStringLiteral("%1[%2]: %3")
                         .arg(where)
                         .arg(i)
                         .arg(why.isEmpty() ? QStringLiteral("not an object") : why);
            return false;
        }
        out->push_back(std::move(item));
    }
    return true;
}

QJsonObject estateJson(const EstateRecords &r)
{
    QJsonObject estate;
    forEachTable([&](const auto &d) {
        QJsonObject scopes;
        const auto &records = r.*(d.records);
        for (auto it = records.cbegin(); it != records.cend(); ++it) {
            scopes.insert(it.key(), arrayOf(it.value()));
        }
        estate.insert(QLatin1StringView(d.name), scopes);
    });
    return estate;
}

// `where` prefixes the JSON path in errors ("body.estate").
bool readEstate(const QJsonObject &estate, EstateRecords *out, const QString &where, QString *error)
{
    bool ok = true;
    forEachTable([&](const auto &d) {
        const QJsonObject scopes = estate.value(QLatin1StringView(d.name)).toObject();
        auto &records = out->*(d.records);
        for (auto it = scopes.constBegin(); ok && it != scopes.constEnd(); ++it) {
            typename std::remove_cvref_t<decltype(records)>::mapped_type list;
            ok = readArray(
                it.value(), &list, QStringLiteral("%1.%2.%3").arg(where, QLatin1StringView(d.name), it.key()), error);
            records.insert(it.key(), list);
        }
    });
    return ok;
}

QJsonObject bodyOf(const Bundle &b)
{
    const QJsonObject estate = estateJson(b.estate);
    QJsonObject projectSamples;
    for (auto it = b.history.projectSamples.cbegin(); it != b.history.projectSamples.cend(); ++it) {
        projectSamples.insert(it.key(), arrayOf(it.value()));
    }
    auto perVolume = [](const auto &map) {
        QJsonObject bySource;
        for (auto s = map.cbegin(); s != map.cend(); ++s) {
            QJsonObject byVolume;
            for (auto v = s.value().cbegin(); v != s.value().cend(); ++v) {
                byVolume.insert(v.key(), arrayOf(v.value()));
            }
            bySource.insert(s.key(), byVolume);
        }
        return bySource;
    };
    return QJsonObject{
        {QStringLiteral("sources"), arrayOf(b.sources)},
        {QStringLiteral("statuses"), arrayOf(b.statuses)},
        {QStringLiteral("estate"), estate},
        {QStringLiteral("history"),
         QJsonObject{{QStringLiteral("project_samples"), projectSamples},
                     {QStringLiteral("volume_usage"), perVolume(b.history.volumeUsage)},
                     {QStringLiteral("volume_perf"), perVolume(b.history.volumePerf)},
                     {QStringLiteral("container_usage"),
                      [&] {
                          QJsonObject bySource;
                          for (auto s = b.history.containerUsage.cbegin(); s != b.history.containerUsage.cend(); ++s) {
                              bySource.insert(s.key(), perVolume(s.value()));
                          }
                          return bySource;
                      }()},
                     {QStringLiteral("audit"), arrayOf(b.history.audit)}}},
        {QStringLiteral("events"), b.events},
        {QStringLiteral("rate_card"), b.rateCard.toJson()},
        {QStringLiteral("cache_targets"), arrayOf(b.cacheTargets)},
    };
}

bool readBody(const QJsonObject &body, Bundle *b, QString *error)
{
    if (!readArray(body.value(QStringLiteral("sources")), &b->sources, QStringLiteral("body.sources"), error)
        || !readArray(body.value(QStringLiteral("statuses")), &b->statuses, QStringLiteral("body.statuses"), error)
        || !readArray(body.value(QStringLiteral("cache_targets")),
                      &b->cacheTargets,
                      QStringLiteral("body.cache_targets"),
                      error)) {
        return false;
    }
    if (!readEstate(
            body.value(QStringLiteral("estate")).toObject(), &b->estate, QStringLiteral("body.estate"), error)) {
        return false;
    }
    const QJsonObject history = body.value(QStringLiteral("history")).toObject();
    const QJsonObject projects = history.value(QStringLiteral("project_samples")).toObject();
    for (auto it = projects.constBegin(); it != projects.constEnd(); ++it) {
        if (!readArray(it.value(),
                       &b->history.projectSamples[it.key()],
                       QStringLiteral("body.history.project_samples.") + it.key(),
                       error)) {
            return false;
        }
    }
    auto perVolume = [&](const QString &key, auto *map) {
        const QJsonObject bySource = history.value(key).toObject();
        for (auto s = bySource.constBegin(); s != bySource.constEnd(); ++s) {
            const QJsonObject byVolume = s.value().toObject();
            for (auto v = byVolume.constBegin(); v != byVolume.constEnd(); ++v) {
                if (!readArray(v.value(),
                               &(*map)[s.key()][v.key()],
                               QStringLiteral("body.history.%1.%2.%3").arg(key, s.key(), v.key()),
                               error)) {
                    return false;
                }
            }
        }
        return true;
    };
    // Bundles from before capacity history have no "container_usage": nothing to read.
    const QJsonObject containers = history.value(QStringLiteral("container_usage")).toObject();
    for (auto s = containers.constBegin(); s != containers.constEnd(); ++s) {
        const QJsonObject byKind = s.value().toObject();
        for (auto k = byKind.constBegin(); k != byKind.constEnd(); ++k) {
            const std::optional<ContainerKind> kind = containerKindFromName(k.key());
            if (!kind || *kind == ContainerKind::Volume) {
                *error = QStringLiteral("body.history.container_usage.%1: unknown kind \"%2\"").arg(s.key(), k.key());
                return false;
            }
            const QJsonObject byId = k.value().toObject();
            for (auto c = byId.constBegin(); c != byId.constEnd(); ++c) {
                if (!readArray(c.value(),
                               &b->history.containerUsage[s.key()][k.key()][c.key()],
                               QStringLiteral("body.history.container_usage.%1.%2.%3").arg(s.key(), k.key(), c.key()),
                               error)) {
                    return false;
                }
            }
        }
    }
    if (!perVolume(QStringLiteral("volume_usage"), &b->history.volumeUsage)
        || !perVolume(QStringLiteral("volume_perf"), &b->history.volumePerf)
        || !readArray(
            history.value(QStringLiteral("audit")), &b->history.audit, QStringLiteral("body.history.audit"), error)) {
        return false;
    }
    b->events = body.value(QStringLiteral("events")).toArray();
    Result<RateCard> card = RateCard::fromJson(body.value(QStringLiteral("rate_card")).toObject());
    if (!card) {
        *error = QStringLiteral("body.rate_card: ") + card.error().message;
        return false;
    }
    b->rateCard = std::move(*card);
    return true;
}

QByteArray gzip(const QByteArray &data, int level = Z_BEST_COMPRESSION, bool withChecksum = false)
{
    z_stream zs{};
    // windowBits 15 + 16: a gzip header and trailer (RFC 1952), so `zcat` and `gunzip` read it.
    if (deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        return {};
    }
    QByteArray comment;
    gz_header header{};
    if (withChecksum) {
        comment = kDocumentChecksumPrefix + QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex();
        header.comment = reinterpret_cast<Bytef *>(comment.data()); // zero-terminated by QByteArray
        header.os = 255;                                            // unknown, as gzip(1) -n would
        deflateSetHeader(&zs, &header);
    }
    QByteArray out;
    out.resize(qsizetype(deflateBound(&zs, uLong(data.size()))) + comment.size() + 1);
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    zs.avail_in = uInt(data.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = uInt(out.size());
    const int rc = deflate(&zs, Z_FINISH);
    out.resize(qsizetype(zs.total_out));
    deflateEnd(&zs);
    return rc == Z_STREAM_END ? out : QByteArray();
}

enum class GunzipFailure
{
    None,
    Corrupt,          ///< not gzip, ends early or fails its CRC
    TooLarge,         ///< would inflate beyond maxInflatedBundleBytes()
    ChecksumMismatch, ///< the header's document checksum does not match
};

struct Gunzipped
{
    QByteArray data;
    GunzipFailure failure = GunzipFailure::None;
};

QString inflateLimitText()
{
    return QCoreApplication::translate("strata::core::Bundle",
                                       "a support bundle inflates to at most %1 times its size and %2 MiB")
        .arg(kMaxInflateRatio)
        .arg(kMaxInflatedBytes / (1024 * 1024));
}

/// Inflates one gzip member, refusing it as soon as the output passes maxInflatedBundleBytes() (so
/// memory stays bounded by the limit whatever the file claims), and, when the header carries
/// a document checksum, verifying it over the inflated bytes.
Gunzipped gunzip(const QByteArray &data)
{
    const qint64 limit = maxInflatedBundleBytes(data.size());
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 16) != Z_OK) {
        return {{}, GunzipFailure::Corrupt};
    }
    char comment[96] = {};
    gz_header header{};
    header.comment = reinterpret_cast<Bytef *>(comment);
    header.comm_max = sizeof comment - 1;
    inflateGetHeader(&zs, &header);
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    zs.avail_in = uInt(data.size());
    QCryptographicHash hash(QCryptographicHash::Sha256);
    Gunzipped result;
    int rc = Z_OK;
    char chunk[64 * 1024];
    while (rc == Z_OK) {
        zs.next_out = reinterpret_cast<Bytef *>(chunk);
        zs.avail_out = sizeof chunk;
        rc = inflate(&zs, Z_NO_FLUSH);
        const qsizetype produced = qsizetype(sizeof chunk - zs.avail_out);
        if (result.data.size() + produced > limit) {
            result.failure = GunzipFailure::TooLarge;
            break;
        }
        result.data.append(chunk, produced);
        hash.addData(QByteArrayView(chunk, produced));
        if (rc == Z_OK && zs.avail_in == 0 && zs.avail_out != 0) {
            rc = Z_BUF_ERROR; // input exhausted before the end of the stream: truncated
        }
    }
    inflateEnd(&zs);
    if (result.failure == GunzipFailure::None && rc != Z_STREAM_END) {
        result.failure = GunzipFailure::Corrupt;
    }
    const QByteArray announced = QByteArray(comment);
    if (result.failure == GunzipFailure::None && header.done == 1 && announced.startsWith(kDocumentChecksumPrefix)
        && announced.mid(qsizetype(sizeof kDocumentChecksumPrefix - 1)) != hash.result().toHex()) {
        result.failure = GunzipFailure::ChecksumMismatch;
    }
    if (result.failure != GunzipFailure::None) {
        result.data = QByteArray();
    }
    return result;
}

QString sha256Of(const QJsonObject &body)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(QJsonDocument(body).toJson(QJsonDocument::Compact), QCryptographicHash::Sha256)
            .toHex());
}

QString scrubUrl(const QString &url)
{
    if (url.isEmpty()) {
        return url;
    }
    QUrl u(url);
    if (!u.isValid()) {
        return scrubUrls(url);
    }
    u.setUserInfo(QString());
    u.setQuery(QString());
    u.setFragment(QString());
    return u.toString();
}

template <class T> std::shared_ptr<const KeyedList<T>> listOf(const ScopedRecords<T> &records, const QString &scope)
{
    const auto it = records.constFind(scope);
    if (it == records.cend()) {
        return nullptr;
    }
    std::vector<Ptr<T>> items;
    items.reserve(std::size_t(it->size()));
    for (const T &item : *it) {
        items.push_back(std::make_shared<const T>(item));
    }
    return std::make_shared<const KeyedList<T>>(std::move(items));
}

template <class T> std::shared_ptr<const KeyedList<T>> orEmpty(std::shared_ptr<const KeyedList<T>> list)
{
    return list ? list : std::make_shared<const KeyedList<T>>();
}

/// Answers from a bundle's samples; refuses every write (a bundle is a read-only snapshot).
class BundleHistoryStore final : public IHistoryStore
{
public:
    BundleHistoryStore(BundleHistory history, const IClock &clock)
        : m_history(std::move(history))
        , m_store(QStringLiteral(":memory:"), clock)
    {}

    Status open() override
    {
        if (Status opened = m_store.open(); !opened) {
            return opened;
        }
        // Heartbeat 0: every sample of the bundle is kept as it was exported. The samples were
        // checked when the bundle was read: a failed write here is the in-memory store's.
        Status loaded;
        const auto keep = [&loaded](Status written) {
            if (loaded && !written) {
                loaded = std::move(written);
            }
        };
        for (auto it = m_history.projectSamples.cbegin(); it != m_history.projectSamples.cend(); ++it) {
            for (const ProjectSample &s : it.value()) {
                keep(m_store.recordProjectSamples(it.key(), {s}, s.time, 0));
            }
        }
        for (auto s = m_history.volumeUsage.cbegin(); s != m_history.volumeUsage.cend(); ++s) {
            for (auto v = s.value().cbegin(); v != s.value().cend(); ++v) {
                for (const UsageSample &u : v.value()) {
                    keep(m_store.recordVolumeUsage(
                        s.key(), {VolumeUsage{v.key(), u.usedBytes, u.sizeBytes}}, u.time, 0));
                }
            }
        }
        for (auto s = m_history.containerUsage.cbegin(); s != m_history.containerUsage.cend(); ++s) {
            for (auto k = s.value().cbegin(); k != s.value().cend(); ++k) {
                const std::optional<ContainerKind> kind = containerKindFromName(k.key());
                for (auto c = k.value().cbegin(); kind && c != k.value().cend(); ++c) {
                    for (const UsageSample &u : c.value()) {
                        keep(m_store.recordCapacity(
                            s.key(), *kind, {VolumeUsage{c.key(), u.usedBytes, u.sizeBytes}}, u.time, 0));
                    }
                }
            }
        }
        for (auto s = m_history.volumePerf.cbegin(); s != m_history.volumePerf.cend(); ++s) {
            for (auto v = s.value().cbegin(); v != s.value().cend(); ++v) {
                for (const VolumePerfSample &p : v.value()) {
                    keep(m_store.recordVolumePerf(s.key(), {p}, p.time, 0));
                }
            }
        }
        if (!loaded) {
            return loaded;
        }
        // Stored newest first; appended oldest first so the store's order matches.
        for (auto it = m_history.audit.crbegin(); it != m_history.audit.crend(); ++it) {
            if (const Result<qint64> appended = m_store.appendAudit(*it); !appended) {
                return fail(appended.error());
            }
        }
        m_history = {};
        return {};
    }
    Status recordVolumeUsage(const QString &, const std::vector<VolumeUsage> &, const QDateTime &, qint64) override
    {
        return fail(readOnly());
    }
    Result<std::vector<UsageSample>>
    volumeUsage(const QString &source, const QString &volumeId, const QDateTime &from, const QDateTime &to) override
    {
        return m_store.volumeUsage(source, volumeId, from, to);
    }
    // A snapshot keeps every sample it holds, whatever its age.
    Result<qint64> applyRetention(const QDateTime &) override { return qint64(0); }
    // The bundle's volume usage, so an opened bundle forecasts its volumes as of its own time.
    Result<std::vector<CapacitySeries>> capacityHistory(const QDateTime &from, const QDateTime &to) override
    {
        return m_store.capacityHistory(from, to);
    }
    Status recordProjectSamples(const QString &, const std::vector<ProjectSample> &, const QDateTime &, qint64) override
    {
        return fail(readOnly());
    }
    Result<std::vector<ProjectSample>>
    projectHistory(const QString &source, const QString &project, const QDateTime &from, const QDateTime &to) override
    {
        return m_store.projectHistory(source, project, from, to);
    }
    Result<qint64> appendAudit(const AuditEntry &) override { return fail(readOnly()); }
    Result<std::vector<AuditEntry>> auditLog(int limit, const QString &source) override
    {
        return m_store.auditLog(limit, source);
    }
    Result<std::vector<AuditEntry>> auditLogOfKind(const QString &kind, const QDateTime &since) override
    {
        return m_store.auditLogOfKind(kind, since);
    }
    Status recordVolumePerf(const QString &, const std::vector<VolumePerfSample> &, const QDateTime &, qint64) override
    {
        return fail(readOnly());
    }
    Result<std::vector<VolumePerfSample>> volumePerfHistory(const QString &source,
                                                            const QString &volumeId,
                                                            const QDateTime &from,
                                                            const QDateTime &to) override
    {
        return m_store.volumePerfHistory(source, volumeId, from, to);
    }
    Result<std::vector<VolumePerfStats>> volumePerfStats(const QDateTime &from, const QDateTime &to) override
    {
        return m_store.volumePerfStats(from, to);
    }
    Result<qint64> saveSchedule(const ServiceLevelSchedule &) override { return fail(readOnly()); }
    Status removeSchedule(qint64) override { return fail(readOnly()); }
    // A bundle carries no schedules: an opened bundle has none to show or fire.
    Result<std::vector<ServiceLevelSchedule>> schedules() override { return std::vector<ServiceLevelSchedule>{}; }
    Status markScheduleFired(qint64, const QDateTime &, const QString &) override { return fail(readOnly()); }

private:
    static Error readOnly()
    {
        return Error::make(Error::Kind::Conflict, QStringLiteral("a support bundle is read-only"));
    }

    BundleHistory m_history;
    SqlHistoryStore m_store;
};

// ---- Diff ----

/// Status fields that change at every poll without anything happening.
bool isPollNoise(const QString &field)
{
    return field == QLatin1String("last_attempt") || field == QLatin1String("next_poll")
           || field == QLatin1String("last_success") || field == QLatin1String("latency_ms");
}

struct Keyed
{
    QStringList order;
    QHash<QString, QJsonObject> byId;
};

} // namespace

QString diffValueText(const QJsonValue &v)
{
    if (v.isUndefined() || v.isNull()) {
        return QStringLiteral("(none)");
    }
    if (v.isString()) {
        return v.toString();
    }
    if (v.isBool()) {
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    }
    if (v.isDouble()) {
        const double d = v.toDouble();
        return d == double(v.toInteger()) ? QString::number(v.toInteger()) : QString::number(d);
    }
    const QJsonDocument doc = v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject());
    return QString::fromUtf8(doc.toJson(QJsonDocument::Compact));
}

namespace {

void diffKeyed(const Keyed &a,
               const Keyed &b,
               ResourceDiff *out,
               const std::function<bool(const QString &)> &ignoreField = {})
{
    for (const QString &id : b.order) {
        if (!a.byId.contains(id)) {
            out->appeared << id;
        }
    }
    for (const QString &id : a.order) {
        const auto other = b.byId.constFind(id);
        if (other == b.byId.cend()) {
            out->disappeared << id;
            continue;
        }
        const QJsonObject &before = a.byId[id];
        const QJsonObject &after = *other;
        if (before == after) {
            continue;
        }
        RecordChange change;
        change.id = id;
        change.name = after.value(QStringLiteral("name")).toString(id);
        QStringList keys = before.keys() + after.keys();
        keys.sort();
        keys.removeDuplicates();
        for (const QString &key : std::as_const(keys)) {
            if (ignoreField && ignoreField(key)) {
                continue;
            }
            if (before.value(key) != after.value(key)) {
                change.fields.append({key, before.value(key), after.value(key)});
            }
        }
        if (!change.fields.isEmpty()) {
            out->changed.append(change);
        }
    }
}

} // namespace

// ---- Public API ----

template <class T> QJsonObject recordToJson(const T &record)
{
    return encodeFields(record);
}

// decodeFields() as a Result: the one place the field readers' out-parameter becomes an Error.
template <class T> Result<T> decodedRecord(const QJsonObject &json)
{
    T record;
    QString why;
    if (!decodeFields(json, &record, &why)) {
        return core::fail(Error::invalid({}, why));
    }
    return record;
}

template <class T> Result<T> recordFromJson(const QJsonObject &json)
{
    return decodedRecord<T>(json);
}

#define STRATA_BUNDLE_RECORD(T)                                                                                        \
    template QJsonObject recordToJson<T>(const T &);                                                                   \
    template Result<T> recordFromJson<T>(const QJsonObject &);
STRATA_BUNDLE_RECORD(Volume)
STRATA_BUNDLE_RECORD(VolumePerf)
STRATA_BUNDLE_RECORD(Snapshot)
STRATA_BUNDLE_RECORD(Svm)
STRATA_BUNDLE_RECORD(Aggregate)
STRATA_BUNDLE_RECORD(QosPolicy)
STRATA_BUNDLE_RECORD(FlexCache)
STRATA_BUNDLE_RECORD(Event)
STRATA_BUNDLE_RECORD(GpuCluster)
STRATA_BUNDLE_RECORD(GpuSlot)
STRATA_BUNDLE_RECORD(GpuNode)
STRATA_BUNDLE_RECORD(Project)
STRATA_BUNDLE_RECORD(Job)
STRATA_BUNDLE_RECORD(Pvc)
STRATA_BUNDLE_RECORD(CapacityPool)
STRATA_BUNDLE_RECORD(AksCluster)
STRATA_BUNDLE_RECORD(GridSummary)
STRATA_BUNDLE_RECORD(GridNode)
STRATA_BUNDLE_RECORD(GridAlert)
STRATA_BUNDLE_RECORD(Tenant)
STRATA_BUNDLE_RECORD(Bucket)
STRATA_BUNDLE_RECORD(Dataset)
STRATA_BUNDLE_RECORD(Commit)
STRATA_BUNDLE_RECORD(CacheTarget)
STRATA_BUNDLE_RECORD(CachedCommit)
#undef STRATA_BUNDLE_RECORD

QJsonObject toJson(const SourceStatus &status)
{
    return encodeFields(status);
}

Result<SourceStatus> statusFromJson(const QJsonObject &json)
{
    return decodedRecord<SourceStatus>(json);
}

QStringList bundleResourceNames()
{
    QStringList names;
    forEachTable([&](const auto &d) {
        names << QString::fromLatin1(d.name);
    });
    return names;
}

int EstateRecords::countOf(const QString &source) const
{
    int n = 0;
    forEachTable([&](const auto &d) {
        for (const auto &list : this->*(d.records)) {
            for (const auto &record : list) {
                n += record.source == source ? 1 : 0;
            }
        }
    });
    return n;
}

QString scrubUrls(const QString &text)
{
    static const QRegularExpression userInfo(QStringLiteral(R"(([A-Za-z][A-Za-z0-9+.-]*://)[^/\s@]*@)"));
    QString out = text;
    return out.replace(userInfo, QStringLiteral("\\1"));
}

SourceConfig scrubbedConfig(const SourceConfig &config)
{
    SourceConfig c = config;
    c.password = {};
    c.s3Secret = {};
    c.s3AccessKey.clear();
    c.url = scrubUrl(c.url);
    c.prometheusUrl = scrubUrl(c.prometheusUrl);
    c.authorityUrl = scrubUrl(c.authorityUrl);
    c.s3Url = scrubUrl(c.s3Url);
    if (c.kubeconfigInSecret) {
        c.kubeconfig.clear();
    }
    return c;
}

void collectBundle(Engine &engine,
                   const BundleOptions &options,
                   QObject *context,
                   std::function<void(Bundle bundle, QString error)> done)
{
    struct State
    {
        Bundle bundle;
        int pending = 0;
        bool finished = false;
        std::function<void(Bundle, QString)> done;
    };
    auto state = std::make_shared<State>();
    state->done = std::move(done);
    Bundle &b = state->bundle;
    const QDateTime now = options.now.isValid() ? options.now.toUTC() : engine.clock().now().toUTC();
    b.meta.created = now;
    b.meta.strataVersion = QCoreApplication::applicationVersion();
    b.meta.host = QSysInfo::machineHostName();
    b.meta.user = options.user;
    b.meta.hours = std::max(1, options.hours);
    for (const SourceConfig &c : engine.sourceConfigs()) {
        b.sources.append(scrubbedConfig(c));
    }
    for (SourceStatus s : engine.statuses()) {
        s.url = scrubUrl(s.url);
        s.lastError = scrubUrls(s.lastError);
        b.statuses.append(s);
    }
    const Estate &estate = engine.estate();
    forEachTable([&](const auto &d) {
        using T = typename std::remove_cvref_t<decltype(d)>::Record;
        const Table<T> &table = (estate.*(d.table))();
        auto &out = b.estate.*(d.records);
        for (const QString &scope : table.scopes()) {
            QList<T> list;
            if (const auto items = table.scope(scope)) {
                for (const Ptr<T> &item : items->items()) {
                    list.append(*item);
                }
            }
            out.insert(scope, list);
        }
    });
    b.events = options.events;
    if (b.events.isEmpty()) {
        // Health entries quote source errors, which can name a URL with its credentials.
        for (TimelineEntry entry : engine.timeline().entries()) {
            entry.message = scrubUrls(entry.message);
            b.events.append(timelineEntryToJson(entry));
        }
    }
    b.rateCard = engine.serviceLevels().rateCard();
    b.cacheTargets = engine.cacheTargets();

    QPointer<QObject> guard(context);
    auto finish = [state, guard](const QString &error) {
        if (state->finished || !guard) {
            return;
        }
        state->finished = true;
        state->done(std::move(state->bundle), error);
    };
    HistoryService *history = engine.history();
    if (!history) {
        QTimer::singleShot(0, context, [finish] {
            finish(QString());
        });
        return;
    }
    const QDateTime from = now.addSecs(-qint64(b.meta.hours) * 3600);
    auto settle = [state, finish] {
        if (--state->pending == 0) {
            finish(QString());
        }
    };
    // A bundle whose history could not be read would show a quiet estate: it fails instead.
    auto failed = [finish](const Error &error) {
        finish(QCoreApplication::translate("strata::core::Bundle", "cannot read the history: %1").arg(error.message));
    };
    // One series read's answer: its samples go to `keep` (none: nothing kept), its error fails
    // the bundle; either way the read is settled.
    auto answer = [settle, failed](auto keep) {
        return [settle, failed, keep](auto read) {
            if (!read) {
                failed(read.error());
            } else if (!read->empty()) {
                keep(std::move(read).value());
            }
            settle();
        };
    };
    state->pending = 1; // released after every query is queued
    for (const SourceConfig &c : engine.sourceConfigs()) {
        if (c.kind == SourceKind::Kubernetes) {
            state->pending++;
            const QString source = c.name;
            history->projectHistory(
                source, {}, from, now, context, answer([state, source](std::vector<ProjectSample> samples) {
                    state->bundle.history.projectSamples.insert(source, std::move(samples));
                }));
        }
    }
    for (const Ptr<Volume> &v : estate.volumes().all()) {
        const QString source = v->source;
        const QString id = v->id;
        state->pending += 2;
        history->volumeUsage(
            source, id, from, now, context, answer([state, source, id](std::vector<UsageSample> samples) {
                state->bundle.history.volumeUsage[source].insert(id, std::move(samples));
            }));
        history->volumePerfHistory(
            source, id, from, now, context, answer([state, source, id](std::vector<VolumePerfSample> samples) {
                state->bundle.history.volumePerf[source].insert(id, std::move(samples));
            }));
    }
    state->pending++;
    history->capacityHistory(from, now, context, answer([state](std::vector<CapacitySeries> all) {
                                 for (CapacitySeries &series : all) {
                                     if (series.kind != containerKindName(ContainerKind::Volume)) {
                                         state->bundle.history.containerUsage[series.source][series.kind].insert(
                                             series.id, std::move(series.samples));
                                     }
                                 }
                             }));
    state->pending++;
    history->auditLog(0, {}, context, [settle, finish, state, from](Result<std::vector<AuditEntry>> entries) {
        if (!entries) {
            // A bundle without its audit log would read as "nothing was changed".
            finish(QCoreApplication::translate("strata::core::Bundle", "cannot read the audit log: %1")
                       .arg(entries.error().message));
            return;
        }
        std::erase_if(*entries, [&](const AuditEntry &e) {
            return e.time < from;
        });
        state->bundle.history.audit = std::move(*entries);
        settle();
    });
    settle();
    QTimer::singleShot(std::max(1, options.timeoutMs), context, [state, finish] {
        if (!state->finished) {
            finish(QCoreApplication::translate("strata::core::Bundle",
                                               "the history store did not answer %n queries in time",
                                               nullptr,
                                               state->pending));
        }
    });
}

QByteArray encodeBundle(const Bundle &bundle)
{
    const QJsonObject body = bodyOf(bundle);
    const QJsonObject doc{
        {QStringLiteral("format"), kFormat},
        {QStringLiteral("version"), kVersion},
        {QStringLiteral("created"), bundleTimeText(bundle.meta.created)},
        {QStringLiteral("strata_version"), bundle.meta.strataVersion},
        {QStringLiteral("host"), bundle.meta.host},
        {QStringLiteral("user"), bundle.meta.user},
        {QStringLiteral("hours"), bundle.meta.hours},
        {QStringLiteral("checksum"),
         QJsonObject{{QStringLiteral("algorithm"), QStringLiteral("sha256")},
                     {QStringLiteral("value"), sha256Of(body)}}},
        {QStringLiteral("body"), body},
    };
    return gzip(QJsonDocument(doc).toJson(QJsonDocument::Compact), Z_BEST_COMPRESSION, true);
}

Status writeBundle(const Bundle &bundle, const QString &path, BundleWritten *written)
{
    const QByteArray bytes = encodeBundle(bundle);
    if (bytes.isEmpty()) {
        return core::fail(QCoreApplication::translate("strata::core::Bundle", "compressing the bundle failed"));
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return core::fail(
            QCoreApplication::translate("strata::core::Bundle", "cannot write %1: %2").arg(path, file.errorString()));
    }
    // Before the first byte, so the content is never readable by others, not even briefly.
    if (!file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner) || file.write(bytes) != bytes.size()
        || !file.commit()) {
        return core::fail(
            QCoreApplication::translate("strata::core::Bundle", "cannot write %1: %2").arg(path, file.errorString()));
    }
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (written) {
        written->bytes = bytes.size();
        written->sha256 = sha256Of(bodyOf(bundle));
        written->objectsPerSource.clear();
        for (const SourceStatus &s : bundle.statuses) {
            written->objectsPerSource.insert(s.name, bundle.estate.countOf(s.name));
        }
    }
    return {};
}

qint64 maxInflatedBundleBytes(qint64 compressedBytes)
{
    return std::min(kMaxInflatedBytes, std::max(kMinInflateAllowance, compressedBytes * kMaxInflateRatio));
}

Result<Bundle> decodeBundle(const QByteArray &bytes)
{
    const auto fail = [](const QString &message) {
        return core::fail(Error::invalid({}, message));
    };
    const char *ctx = "strata::core::Bundle";
    if (bytes.size() < 2 || uchar(bytes[0]) != 0x1f || uchar(bytes[1]) != 0x8b) {
        return fail(QCoreApplication::translate(ctx, "not a Strata support bundle"));
    }
    const Gunzipped json = gunzip(bytes);
    switch (json.failure) {
    case GunzipFailure::None:
        break;
    case GunzipFailure::Corrupt:
        return fail(QCoreApplication::translate(ctx, "the bundle is truncated or corrupt"));
    case GunzipFailure::TooLarge:
        return fail(QCoreApplication::translate(ctx, "the bundle inflates beyond the limit (%1): refused unread")
                        .arg(inflateLimitText()));
    case GunzipFailure::ChecksumMismatch:
        return fail(QCoreApplication::translate(ctx, "checksum mismatch: the bundle was modified"));
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json.data, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        return fail(QCoreApplication::translate(ctx, "malformed JSON: %1 at offset %2")
                        .arg(parseError.errorString())
                        .arg(parseError.offset));
    }
    const QJsonObject root = doc.object();
    if (!doc.isObject() || root.value(QStringLiteral("format")).toString() != kFormat) {
        return fail(QCoreApplication::translate(ctx, "not a Strata support bundle"));
    }
    const int version = root.value(QStringLiteral("version")).toInt(-1);
    if (version != kVersion) {
        return fail(QCoreApplication::translate(ctx, "unsupported bundle version %1 (this Strata reads %2)")
                        .arg(version)
                        .arg(kVersion));
    }
    const QJsonObject body = root.value(QStringLiteral("body")).toObject();
    const QJsonObject checksum = root.value(QStringLiteral("checksum")).toObject();
    if (checksum.value(QStringLiteral("algorithm")).toString() != QLatin1String("sha256")
        || checksum.value(QStringLiteral("value")).toString() != sha256Of(body)) {
        return fail(QCoreApplication::translate(ctx, "checksum mismatch: the bundle was modified"));
    }
    Bundle b;
    b.meta.created = QDateTime::fromString(root.value(QStringLiteral("created")).toString(), Qt::ISODateWithMs);
    b.meta.strataVersion = root.value(QStringLiteral("strata_version")).toString();
    b.meta.host = root.value(QStringLiteral("host")).toString();
    b.meta.user = root.value(QStringLiteral("user")).toString();
    b.meta.hours = root.value(QStringLiteral("hours")).toInt(24);
    QString why;
    if (!readBody(body, &b, &why)) {
        return fail(why);
    }
    return b;
}

Result<Bundle> openBundle(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return core::fail(
            QCoreApplication::translate("strata::core::Bundle", "cannot read %1: %2").arg(path, file.errorString()));
    }
    return decodeBundle(file.readAll());
}

void openBundleAsync(const QString &path,
                     QObject *context,
                     std::function<void(std::optional<Bundle> bundle, QString error)> done)
{
    using Result = std::pair<std::optional<Bundle>, QString>;
    runOffThread(
        *QThreadPool::globalInstance(),
        context,
        [path] {
            Result r;
            core::Result<Bundle> opened = openBundle(path);
            if (opened) {
                r.first = std::move(*opened);
            } else {
                r.second = opened.error().message;
            }
            return r;
        },
        [done = std::move(done)](Result r) {
            done(std::move(r.first), r.second);
        });
}

void diffBundleFilesAsync(const QString &before,
                          const QString &after,
                          QObject *context,
                          std::function<void(std::optional<BundleDiff> diff, QString error)> done)
{
    using Result = std::pair<std::optional<BundleDiff>, QString>;
    runOffThread(
        *QThreadPool::globalInstance(),
        context,
        [before, after] {
            Result r;
            const core::Result<Bundle> a = openBundle(before);
            if (!a) {
                r.second = before + QStringLiteral(": ") + a.error().message;
                return r;
            }
            const core::Result<Bundle> b = openBundle(after);
            if (!b) {
                r.second = after + QStringLiteral(": ") + b.error().message;
                return r;
            }
            r.first = diffBundles(*a, *b);
            return r;
        },
        [done = std::move(done)](Result r) {
            done(std::move(r.first), r.second);
        });
}

QString readOnlyReason(const Bundle &bundle)
{
    return QCoreApplication::translate("strata::core::Bundle", "read-only: this is a support bundle from %1")
        .arg(bundle.meta.created.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")));
}

std::unique_ptr<IHistoryStore> makeBundleHistoryStore(const Bundle &bundle, const IClock &clock)
{
    return std::make_unique<BundleHistoryStore>(bundle.history, clock);
}

FrozenClock::FrozenClock(QDateTime at)
    : m_at(std::move(at))
    , m_timers(std::make_unique<SystemClock>())
{}

FrozenClock::~FrozenClock() = default;

IClock::TimerId FrozenClock::callAfter(std::chrono::milliseconds delay, QObject *context, std::function<void()> fn)
{
    return m_timers->callAfter(delay, context, std::move(fn));
}

void FrozenClock::cancel(TimerId id)
{
    m_timers->cancel(id);
}

struct OfflineEngine::Private
{
    Private(const Bundle &bundle, const QString &user)
        : meta(bundle.meta)
        , clock(bundle.meta.created)
        , history(makeBundleHistoryStore(bundle, clock))
        , engine({clock, credentials, &history, user})
    {}

    BundleMeta meta;
    FrozenClock clock;
    InMemoryCredentialStore credentials; // never read: nothing connects
    HistoryService history;
    Engine engine;
};

OfflineEngine::OfflineEngine(const Bundle &bundle, const QString &user)
    : d(std::make_unique<Private>(bundle, user))
{
    loadBundle(d->engine, bundle);
    std::vector<TimelineEntry> entries;
    entries.reserve(std::size_t(bundle.events.size()));
    for (const QJsonValue &v : bundle.events) {
        if (auto entry = timelineEntryFromJson(v.toObject())) {
            entries.push_back(std::move(*entry));
        }
    }
    d->engine.timeline().restore(std::move(entries));
}

OfflineEngine::~OfflineEngine() = default;

Engine &OfflineEngine::engine()
{
    return d->engine;
}

HistoryService &OfflineEngine::history()
{
    return d->history;
}

IClock &OfflineEngine::clock()
{
    return d->clock;
}

const BundleMeta &OfflineEngine::meta() const
{
    return d->meta;
}

void loadBundle(Engine &engine, const Bundle &bundle)
{
    engine.setRateCard(bundle.rateCard);
    engine.setCacheTargets(bundle.cacheTargets);
    engine.setOffline(bundle.sources, bundle.statuses, readOnlyReason(bundle));
    const EstateRecords &r = bundle.estate;
    QStringList sources;
    for (const SourceConfig &c : bundle.sources) {
        sources << c.name;
    }
    forEachTable([&](const auto &d) {
        if (QLatin1StringView(d.name) == QLatin1String("snapshots")) {
            return;
        }
        for (const QString &scope : (r.*(d.records)).keys()) {
            if (!sources.contains(scope)) {
                sources << scope;
            }
        }
    });
    for (const QString &s : std::as_const(sources)) {
        publishSourceRecords(engine.estate(), r, s);
    }
}

void publishSourceRecords(Estate &estate, const EstateRecords &r, const QString &s)
{
    if (auto list = listOf(r.volumes, s)) {
        estate.publishVolumes(s, std::move(list));
    }
    if (auto list = listOf(r.volumePerf, s)) {
        estate.publishVolumePerf(s, std::move(list));
    }
    auto svms = listOf(r.svms, s);
    auto aggregates = listOf(r.aggregates, s);
    auto qos = listOf(r.qosPolicies, s);
    auto flexCaches = listOf(r.flexCaches, s);
    if (svms || aggregates || qos || flexCaches) {
        estate.publishInventory(s, orEmpty(svms), orEmpty(aggregates), orEmpty(qos), orEmpty(flexCaches));
    }
    if (auto list = listOf(r.events, s)) {
        estate.publishEvents(s, std::move(list));
    }
    ComputePublish compute{listOf(r.gpuClusters, s),
                           listOf(r.gpuNodes, s),
                           listOf(r.projects, s),
                           listOf(r.jobs, s),
                           listOf(r.pvcs, s),
                           nullptr,
                           nullptr}; // a whole list: the estate diffs it
    if (compute.clusters || compute.nodes || compute.projects || compute.jobs || compute.pvcs) {
        estate.publishCompute(s, std::move(compute));
    }
    auto pools = listOf(r.capacityPools, s);
    auto aks = listOf(r.aksClusters, s);
    if (pools || aks) {
        estate.publishAzure(s, std::move(pools), std::move(aks));
    }
    GridPublish grid{listOf(r.gridSummaries, s),
                     listOf(r.gridNodes, s),
                     listOf(r.gridAlerts, s),
                     listOf(r.tenants, s),
                     listOf(r.buckets, s)};
    if (grid.summary || grid.nodes || grid.alerts || grid.tenants || grid.buckets) {
        estate.publishGrid(s, std::move(grid));
    }
    DatasetPublish data{listOf(r.datasets, s), listOf(r.commits, s)};
    if (data.datasets || data.commits) {
        estate.publishDatasets(s, std::move(data));
    }
    CachePublish caches{listOf(r.cacheTargets, s), listOf(r.cachedCommits, s)};
    if (caches.targets || caches.cachedCommits) {
        estate.publishCaches(s, std::move(caches));
    }
    // Scope "<source>/<volumeId>": source names never contain '/'.
    const QString prefix = s + QLatin1Char('/');
    for (auto it = r.snapshots.cbegin(); it != r.snapshots.cend(); ++it) {
        if (it.key().startsWith(prefix)) {
            estate.publishSnapshots(s, it.key().mid(prefix.size()), listOf(r.snapshots, it.key()));
        }
    }
}

EstateRecords sourceRecords(const Estate &estate, const QString &source)
{
    EstateRecords out;
    const QString prefix = source + QLatin1Char('/');
    forEachTable([&](const auto &d) {
        using T = typename std::remove_cvref_t<decltype(d)>::Record;
        const Table<T> &table = (estate.*(d.table))();
        auto &records = out.*(d.records);
        for (const QString &scope : table.scopes()) {
            if (scope != source && !scope.startsWith(prefix)) {
                continue;
            }
            QList<T> list;
            if (const auto items = table.scope(scope)) {
                list.reserve(qsizetype(items->items().size()));
                for (const Ptr<T> &item : items->items()) {
                    list.append(*item);
                }
            }
            records.insert(scope, list);
        }
    });
    return out;
}

QByteArray encodeSourceRecords(const EstateRecords &records)
{
    return gzip(QJsonDocument(estateJson(records)).toJson(QJsonDocument::Compact), Z_BEST_SPEED);
}

Result<EstateRecords> decodeSourceRecords(const QByteArray &bytes)
{
    const Gunzipped json = gunzip(bytes);
    if (json.failure == GunzipFailure::TooLarge) {
        return core::fail(Error::invalid(
            {}, QStringLiteral("shared source state: inflates beyond the limit (%1)").arg(inflateLimitText())));
    }
    if (json.failure != GunzipFailure::None) {
        return core::fail(Error::invalid({}, QStringLiteral("shared source state: not a complete gzip stream")));
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json.data, &parseError);
    if (!doc.isObject()) {
        return core::fail(Error::invalid({}, QStringLiteral("shared source state: %1").arg(parseError.errorString())));
    }
    EstateRecords out;
    QString error;
    if (!readEstate(doc.object(), &out, QStringLiteral("estate"), &error)) {
        return core::fail(Error::invalid({}, QStringLiteral("shared source state: %1").arg(error)));
    }
    return out;
}

QJsonObject BundleDiff::toJson() const
{
    auto meta = [](const BundleMeta &m) {
        return QJsonObject{{QStringLiteral("created"), bundleTimeText(m.created)}, {QStringLiteral("host"), m.host}};
    };
    QJsonArray changes;
    for (const ResourceDiff &r : resources) {
        QJsonArray changed;
        for (const RecordChange &c : r.changed) {
            QJsonArray fields;
            for (const FieldChange &f : c.fields) {
                fields.append(QJsonObject{{QStringLiteral("field"), f.field},
                                          {QStringLiteral("before"), f.before.isUndefined() ? QJsonValue() : f.before},
                                          {QStringLiteral("after"), f.after.isUndefined() ? QJsonValue() : f.after}});
            }
            changed.append(QJsonObject{
                {QStringLiteral("id"), c.id}, {QStringLiteral("name"), c.name}, {QStringLiteral("fields"), fields}});
        }
        changes.append(QJsonObject{{QStringLiteral("system"), r.system},
                                   {QStringLiteral("source"), r.source},
                                   {QStringLiteral("resource"), r.resource},
                                   {QStringLiteral("appeared"), QJsonArray::fromStringList(r.appeared)},
                                   {QStringLiteral("disappeared"), QJsonArray::fromStringList(r.disappeared)},
                                   {QStringLiteral("changed"), changed}});
    }
    return QJsonObject{{QStringLiteral("before"), meta(before)},
                       {QStringLiteral("after"), meta(after)},
                       {QStringLiteral("changes"), changes}};
}

QString BundleDiff::summary() const
{
    const char *ctx = "strata::core::Bundle";
    if (resources.isEmpty()) {
        return QCoreApplication::translate(ctx, "No differences.") + QLatin1Char('\n');
    }
    QString out;
    for (const ResourceDiff &r : resources) {
        out += QCoreApplication::translate(ctx, "%1 / %2 / %3: %4 appeared, %5 disappeared, %6 changed")
                   .arg(r.system, r.source, r.resource)
                   .arg(r.appeared.size())
                   .arg(r.disappeared.size())
                   .arg(r.changed.size())
               + QLatin1Char('\n');
        for (const QString &id : r.appeared) {
            out += QStringLiteral("  + ") + id + QLatin1Char('\n');
        }
        for (const QString &id : r.disappeared) {
            out += QStringLiteral("  - ") + id + QLatin1Char('\n');
        }
        for (const RecordChange &c : r.changed) {
            QStringList parts;
            for (const FieldChange &f : c.fields) {
                parts << f.field + QLatin1Char(' ') + diffValueText(f.before) + QStringLiteral(" -> ")
                             + diffValueText(f.after);
            }
            out += QStringLiteral("  ~ ") + c.name + QStringLiteral(": ") + parts.join(QStringLiteral(", "))
                   + QLatin1Char('\n');
        }
    }
    return out;
}

BundleDiff diffBundles(const Bundle &a, const Bundle &b, bool includePerf)
{
    BundleDiff diff;
    diff.before = a.meta;
    diff.after = b.meta;
    QHash<QString, QString> systemOf;
    for (const Bundle *x : {&a, &b}) {
        for (const SourceConfig &c : x->sources) {
            systemOf.insert(c.name, sourceKindName(c.kind));
        }
        for (const SourceStatus &s : x->statuses) {
            systemOf.insert(s.name, sourceKindName(s.kind));
        }
    }
    // (source, resource) -> keyed records of each side.
    QMap<std::pair<QString, QString>, std::pair<Keyed, Keyed>> groups;
    auto add = [](Keyed &k, const QString &id, const QJsonObject &json) {
        if (!k.byId.contains(id)) {
            k.order << id;
        }
        k.byId.insert(id, json);
    };
    for (int side = 0; side < 2; ++side) {
        const Bundle &x = side == 0 ? a : b;
        for (const SourceStatus &s : x.statuses) {
            auto &g = groups[{s.name, QStringLiteral("sources")}];
            add(side == 0 ? g.first : g.second, s.name, toJson(s));
        }
        forEachTable([&](const auto &d) {
            const QString resource = QString::fromLatin1(d.name);
            if (!includePerf && resource == QLatin1String("volume_perf")) {
                return;
            }
            for (const auto &list : x.estate.*(d.records)) {
                for (const auto &record : list) {
                    auto &g = groups[{record.source, resource}];
                    add(side == 0 ? g.first : g.second, record.id, encodeFields(record));
                }
            }
        });
    }
    for (auto it = groups.cbegin(); it != groups.cend(); ++it) {
        ResourceDiff r;
        r.source = it.key().first;
        r.resource = it.key().second;
        r.system = systemOf.value(r.source, QStringLiteral("unknown"));
        if (r.resource == QLatin1String("sources")) {
            diffKeyed(it.value().first, it.value().second, &r, isPollNoise);
        } else {
            diffKeyed(it.value().first, it.value().second, &r);
        }
        if (!r.appeared.isEmpty() || !r.disappeared.isEmpty() || !r.changed.isEmpty()) {
            diff.resources.append(r);
        }
    }
    std::stable_sort(diff.resources.begin(), diff.resources.end(), [](const ResourceDiff &x, const ResourceDiff &y) {
        return std::tie(x.system, x.source, x.resource) < std::tie(y.system, y.source, y.resource);
    });
    return diff;
}

} // namespace strata::core
