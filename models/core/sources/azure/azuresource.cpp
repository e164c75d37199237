#include "models/core/sources/azure/azuresource.h"

#include "connectors/azure/azureclient.h"
#include "connectors/http/curltransport.h"
#include "models/core/domain/convert.h"
#include "models/core/domain/estate.h"
#include "models/core/domain/offthread.h"
#include "models/core/domain/ratecard.h"
#include "models/core/planning/volumecapacity.h"
#include "models/core/services/historyservice.h"
#include "models/core/services/servicelevels.h"
#include "models/core/sources/connectorerror.h"
#include "models/core/sources/systempoller.h"

#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QThread>
#include <QThreadPool>

#include <cmath>
#include <mutex>

Q_LOGGING_CATEGORY(lcAzure, "strata.azure", QtInfoMsg)

namespace strata::core {

namespace {

using namespace std::chrono_literals;

constexpr qint64 kAnfGiB = 1024LL * 1024 * 1024;
constexpr qint64 kAnfTiB = 1024 * kAnfGiB;
constexpr double kAnfMiB = 1024.0 * 1024.0;
constexpr int kMaxVolumesPerPool = 500;
const char *const kDefaultArm = "https://management.azure.com";
const char *const kDefaultAuthority = "https://login.microsoftonline.com";

QString lowerId(const std::string &id)
{
    return qs(id).toLower();
}

/// What every ARM-backed record carries: its source, key (the lower-case ARM id, which ARM
/// compares case-insensitively), ARM id as given, resource group and location.
template <class Record, class Resource> void setArmIdentity(Record &out, const Resource &in, const QString &source)
{
    out.source = source;
    out.id = lowerId(in.id);
    out.armId = qs(in.id);
    if (const auto id = azure::ArmId::parse(in.id)) {
        out.resourceGroup = qs(id->resourceGroup);
    }
    out.location = qs(in.location);
}

QDateTime parseTime(const std::string &iso)
{
    if (iso.empty()) {
        return {};
    }
    QDateTime t = QDateTime::fromString(qs(iso), Qt::ISODate);
    return t.isValid() ? t.toUTC() : QDateTime();
}

std::chrono::system_clock::time_point anfTimePoint(const QDateTime &t)
{
    return std::chrono::system_clock::time_point(std::chrono::milliseconds(t.toMSecsSinceEpoch()));
}

/// Last segment of an ARM "a/b/c" name or id.
QString lastSegment(const std::string &name)
{
    const QString text = qs(name);
    return text.mid(text.lastIndexOf(QLatin1Char('/')) + 1);
}

/// The pool name in an ARM id below a pool ("pool-premium"), empty when none.
QString poolNameOf(const std::string &armId)
{
    const auto id = azure::ArmId::parse(armId);
    return id ? qs(id->pool) : QString();
}

/// "/subscriptions/s/resourceGroups/rg/providers/Microsoft.NetApp/netAppAccounts/a" of any id below it.
QString accountIdOf(const QString &armId)
{
    static const QRegularExpression re(QStringLiteral("^(.*/netAppAccounts/[^/]+)"),
                                       QRegularExpression::CaseInsensitiveOption);
    const auto m = re.match(armId);
    return m.hasMatch() ? m.captured(1) : QString();
}

QString volumeState(const std::string &provisioningState)
{
    if (provisioningState == "Succeeded" || provisioningState.empty()) {
        return QStringLiteral("online");
    }
    if (provisioningState == "Failed") {
        return QStringLiteral("error");
    }
    return qs(provisioningState).toLower(); // "updating", "creating", "deleting"
}

double capOf(const azure::AnfVolume &v, const QString &poolQosType)
{
    return anfVolumeCapMibps(v.throughputMibps ? v.throughputMibps : v.actualThroughputMibps,
                             poolQosType,
                             qs(v.serviceLevel),
                             v.usageThresholdBytes);
}

struct PoolInfo
{
    QString name;
    QString account;
    QString qosType;
};

Volume
toAnfVolume(const azure::AnfVolume &v, const PoolInfo &pool, const QString &source, std::optional<qint64> usedBytes)
{
    Volume out;
    out.source = source;
    out.id = qs(v.fileSystemId);
    out.name = lastSegment(v.name);
    out.svm = pool.account;
    out.aggregate = pool.name;
    out.aggregateCount = 1;
    out.state = volumeState(v.provisioningState);
    out.style = QStringLiteral("anf");
    out.type = QStringLiteral("rw");
    out.sizeBytes = v.usageThresholdBytes;
    // Azure Monitor is the only source of "used": unknown until its first metrics, never 0.
    if (usedBytes) {
        const qint64 used = std::max<qint64>(0, *usedBytes);
        out.usedBytes = used;
        out.availableBytes = std::max<qint64>(0, out.sizeBytes - used);
    }
    out.percentUsed = volumeCapacity(out).percentUsed;
    if (!v.mountIps.empty() && !v.creationToken.empty()) {
        out.nasPath = qs(v.mountIps.front()) + QStringLiteral(":/") + qs(v.creationToken);
    }
    out.serviceLevel = qs(v.serviceLevel);
    out.armId = qs(v.id);
    if (const auto id = azure::ArmId::parse(v.id)) {
        out.resourceGroup = qs(id->resourceGroup);
    }
    out.location = qs(v.location);
    QStringList protocols;
    for (const std::string &p : v.protocolTypes) {
        protocols << qs(p);
    }
    out.protocols = protocols.join(QLatin1Char(','));
    out.qosType = pool.qosType;
    out.throughputMibps = capOf(v, pool.qosType);
    out.provisioningState = qs(v.provisioningState);
    return out;
}

Snapshot
toAnfSnapshot(const azure::AnfSnapshot &s, const QString &source, const Volume *volume, const QString &volumeId)
{
    Snapshot out;
    out.source = source;
    out.name = lastSegment(s.name);
    // The uuid survives the pool change that moves the snapshot's ARM id with its volume.
    out.id = s.snapshotId.empty() ? out.name : qs(s.snapshotId);
    out.volumeId = volumeId;
    out.volumeName = volume ? volume->name : QString();
    out.svm = volume ? volume->svm : QString();
    out.created = parseTime(s.created);
    out.state = s.provisioningState == "Succeeded" || s.provisioningState.empty() ? QStringLiteral("valid")
                                                                                  : qs(s.provisioningState).toLower();
    return out;
}

/// The latest grain that has a value, nullopt when none has.
std::optional<std::pair<std::string, double>> latest(const azure::MetricSeries &series)
{
    for (auto it = series.points.rbegin(); it != series.points.rend(); ++it) {
        if (it->average) {
            return std::make_pair(it->timeStamp, *it->average);
        }
    }
    return std::nullopt;
}

bool isNotFound(const connectors::Error &e)
{
    return e.apiCode == "ResourceNotFound" || e.apiCode == "NotFound" || e.httpStatus == 404;
}

QString sizeText(qint64 bytes)
{
    if (bytes >= kAnfTiB && bytes % kAnfTiB == 0) {
        return QStringLiteral("%1 TiB").arg(bytes / kAnfTiB);
    }
    return formatBytes(bytes);
}

QString anfMibps(double value)
{
    return value < 0 ? QObject::tr("unknown") : formatRateMibps(value);
}

} // namespace

/// Transport, token provider and ARM client of one source with one secret. Immutable: a new
/// secret makes a new Connection while running jobs finish with the old one.
struct AzureSource::Connection
{
    std::unique_ptr<http::CurlTransport> transport;
    std::unique_ptr<azure::ITokenProvider> tokens;
    std::unique_ptr<azure::AzureClient> client;

    /// `interactive`: the Test button, one attempt and short deadlines.
    static std::shared_ptr<Connection> make(const SourceConfig &config, const QString &secret, bool interactive)
    {
        auto c = std::make_shared<Connection>();
        c->transport = std::make_unique<http::CurlTransport>(
            sourceTransportOptions(config, 10s, interactive ? 20s : 120s, 4, &lcAzure()));
        http::RetryPolicy retry;
        retry.maxAttempts = interactive ? 1 : 3;
        retry.baseDelay = 500ms;
        retry.maxElapsed = 60s;
        if (config.credentialSource == QLatin1String("azure_cli")) {
            azure::AzureCliOptions o;
            o.tenantId = ss(config.tenantId);
            c->tokens = std::make_unique<azure::AzureCliCredential>(std::move(o));
        } else {
            azure::ClientSecretOptions o;
            o.authorityUrl = config.authorityUrl.isEmpty() ? std::string(kDefaultAuthority) : ss(config.authorityUrl);
            o.tenantId = ss(config.tenantId);
            o.clientId = ss(config.clientId);
            o.clientSecret = ss(secret);
            o.retry = retry;
            c->tokens = std::make_unique<azure::ClientSecretCredential>(*c->transport, std::move(o));
        }
        azure::AzureClientOptions o;
        o.http.baseUrl = config.url.isEmpty() ? std::string(kDefaultArm) : ss(config.url);
        o.http.retry = retry;
        o.subscriptionId = ss(config.subscriptionId);
        c->client = std::make_unique<azure::AzureClient>(*c->transport, *c->tokens, std::move(o));
        return c;
    }
};

/// Logical sizes from the last performance poll (Azure Monitor is the only source of "used"),
/// read by the inventory poll on a worker thread.
struct AzureSource::UsageCache
{
    std::mutex mutex;
    QHash<QString, qint64> usedBytes; ///< by fileSystemId

    /// nullopt before the first metrics of the volume: unknown, not empty.
    std::optional<qint64> get(const QString &id)
    {
        std::lock_guard lock(mutex);
        const auto it = usedBytes.constFind(id);
        return it == usedBytes.cend() ? std::nullopt : std::optional<qint64>(it.value());
    }
};

AzureSource::AzureSource(SourceConfig config, QString secret, Deps deps, QObject *parent)
    : VolumeSource(std::move(config), deps.estate, deps.clock, deps.pool, parent)
    , m_deps(deps)
    , m_connection(Connection::make(m_config, secret, false))
    , m_usage(std::make_shared<UsageCache>())
{
    const QString source = m_config.name;
    QPointer<AzureSource> self(this);

    m_inventory = addInventoryPoller(QStringLiteral("inventory"), [this, self, source] {
        auto conn = m_connection;
        auto usage = m_usage;
        const http::CancelToken token;
        const auto base = m_deps.estate.volumes().scope(source);
        const bool needName = m_systemName.isEmpty();
        PollJob job;
        job.cancel = cancelling(token);
        job.run = [conn, usage, token, base, source, self, needName]() -> PollOutcome {
            PollOutcome out;
            auto &client = *conn->client;
            QString subscriptionName;
            if (needName) {
                auto sub = client.subscription(token);
                if (!sub) {
                    out.error = toFetchError(sub.error());
                    return out;
                }
                subscriptionName = sub->displayName.empty() ? qs(sub->subscriptionId) : qs(sub->displayName);
            }
            auto accounts = client.listAccounts(token);
            if (!accounts) {
                out.error = toFetchError(accounts.error());
                return out;
            }
            std::vector<Ptr<Volume>> volumeList;
            std::vector<Ptr<CapacityPool>> poolList;
            auto history = std::make_shared<std::vector<VolumeUsage>>();
            for (const azure::NetAppAccount &account : *accounts) {
                auto pools = client.listPools(account.id, token);
                if (!pools) {
                    out.error = toFetchError(pools.error());
                    return out;
                }
                for (const azure::CapacityPool &p : *pools) {
                    auto volumes = client.listVolumes(p.id, token);
                    if (!volumes) {
                        out.error = toFetchError(volumes.error());
                        return out;
                    }
                    CapacityPool pool;
                    setArmIdentity(pool, p, source);
                    pool.name = lastSegment(p.name);
                    pool.account = qs(account.name);
                    pool.poolId = qs(p.poolId);
                    pool.serviceLevel = qs(p.serviceLevel);
                    pool.qosType = qs(p.qosType);
                    pool.sizeBytes = p.sizeBytes;
                    pool.totalThroughputMibps = p.totalThroughputMibps;
                    pool.utilizedThroughputMibps = p.utilizedThroughputMibps;
                    pool.provisioningState = qs(p.provisioningState);
                    const PoolInfo info{pool.name, pool.account, pool.qosType};
                    for (const azure::AnfVolume &v : *volumes) {
                        pool.allocatedBytes += v.usageThresholdBytes;
                        ++pool.volumeCount;
                        auto vol = std::make_shared<const Volume>(
                            toAnfVolume(v, info, source, usage->get(qs(v.fileSystemId))));
                        if (base) {
                            if (Ptr<Volume> old = base->find(estateKey(*vol)); old && *old == *vol) {
                                vol = old;
                            }
                        }
                        if (vol->usedBytes) {
                            history->push_back(VolumeUsage{vol->id, *vol->usedBytes, vol->sizeBytes});
                        }
                        volumeList.push_back(std::move(vol));
                    }
                    poolList.push_back(std::make_shared<const CapacityPool>(std::move(pool)));
                }
            }
            std::shared_ptr<const KeyedList<AksCluster>> aksKeyed;
            auto clusters = client.listManagedClusters(token);
            if (clusters) {
                std::vector<Ptr<AksCluster>> aksList;
                for (const azure::ManagedCluster &m : *clusters) {
                    AksCluster c;
                    setArmIdentity(c, m, source);
                    c.name = qs(m.name);
                    c.kubernetesVersion = qs(m.kubernetesVersion);
                    c.fqdn = qs(m.fqdn);
                    c.provisioningState = qs(m.provisioningState);
                    c.powerState = qs(m.powerState);
                    for (const azure::AgentPool &a : m.agentPools) {
                        c.nodeCount += a.count;
                        c.agentPools << QStringLiteral("%1: %2 x %3").arg(qs(a.name)).arg(a.count).arg(qs(a.vmSize));
                    }
                    aksList.push_back(std::make_shared<const AksCluster>(std::move(c)));
                }
                aksKeyed = keyed(std::move(aksList));
            } else if (clusters.error().kind != connectors::Error::Kind::Auth) {
                out.error = toFetchError(clusters.error());
                return out;
            } else {
                // A principal allowed to read ANF but not AKS still gets its storage.
                qCInfo(lcAzure).noquote() << source << "AKS clusters not readable:" << qs(clusters.error().message);
            }
            auto volumesKeyed = keyed(std::move(volumeList));
            auto diff = std::make_shared<VolumeDiff>(diffOf(base.get(), *volumesKeyed));
            auto poolsKeyed = keyed(std::move(poolList));
            out.systemName = subscriptionName;
            out.apply = [self, source, volumesKeyed, base, diff, poolsKeyed, aksKeyed, history, subscriptionName] {
                if (!self) {
                    return;
                }
                if (!subscriptionName.isEmpty()) {
                    self->m_systemName = subscriptionName;
                }
                Estate &estate = self->m_deps.estate;
                estate.publishVolumes(source, volumesKeyed, base, diff.get());
                estate.publishAzure(source, poolsKeyed, aksKeyed);
                if (self->m_deps.history) {
                    self->m_deps.history->recordVolumeUsage(source, std::move(*history), self->m_deps.clock.now());
                }
            };
            return out;
        };
        return job;
    });

    // Started by the first good inventory (inventoryPollFinished); refresh() polls it once it is.
    Role perfRole;
    perfRole.autoStart = false;
    m_perf = addPoller(
        pollerOptions(QStringLiteral("performance"), std::chrono::seconds(kPerfIntervalSeconds)),
        [this, self, source] {
            auto conn = m_connection;
            auto usage = m_usage;
            const http::CancelToken token;
            const QDateTime now = m_deps.clock.now();
            const auto volumes = m_deps.estate.volumes().scope(source);
            PollJob job;
            job.cancel = cancelling(token);
            job.run = [conn, usage, token, source, self, now, volumes]() -> PollOutcome {
                PollOutcome out;
                std::vector<Ptr<VolumePerf>> list;
                auto samples = std::make_shared<std::vector<VolumePerfSample>>();
                auto used = std::make_shared<QHash<QString, qint64>>();
                if (volumes) {
                    for (const Ptr<Volume> &v : volumes->items()) {
                        if (!v->isAnf()) {
                            continue;
                        }
                        auto series = conn->client->volumeMetrics(
                            ss(v->armId), anfTimePoint(now.addSecs(-1800)), anfTimePoint(now), token);
                        if (!series) {
                            if (isNotFound(series.error())) {
                                continue; // moved or deleted since the inventory: next inventory tells
                            }
                            out.error = toFetchError(series.error());
                            return out;
                        }
                        QHash<QString, double> value;
                        std::string stamp;
                        for (const azure::MetricSeries &s : *series) {
                            if (const auto last = latest(s)) {
                                value.insert(qs(s.name), last->second);
                                stamp = std::max(stamp, last->first);
                            }
                        }
                        if (value.contains(QStringLiteral("VolumeLogicalSize"))) {
                            used->insert(v->id, qint64(value.value(QStringLiteral("VolumeLogicalSize"))));
                        }
                        const bool hasIo = value.contains(QStringLiteral("ReadThroughput"))
                                           || value.contains(QStringLiteral("WriteThroughput"));
                        if (!hasIo) {
                            continue;
                        }
                        VolumePerf p;
                        p.source = source;
                        p.id = v->id;
                        p.time = parseTime(stamp);
                        if (!p.time.isValid()) {
                            p.time = now;
                        }
                        p.readIops = value.value(QStringLiteral("ReadIops"));
                        p.writeIops = value.value(QStringLiteral("WriteIops"));
                        p.totalIops = p.readIops + p.writeIops;
                        p.throughputBps = value.value(QStringLiteral("ReadThroughput"))
                                          + value.value(QStringLiteral("WriteThroughput"));
                        // Monitor reports milliseconds per direction; weigh them by their IOPS.
                        const double readMs = value.value(QStringLiteral("AverageReadLatency"));
                        const double writeMs = value.value(QStringLiteral("AverageWriteLatency"));
                        p.latencyUs = p.totalIops > 0
                                          ? 1000.0 * (readMs * p.readIops + writeMs * p.writeIops) / p.totalIops
                                          : 1000.0 * std::max(readMs, writeMs);
                        VolumePerfSample sample;
                        sample.volumeId = v->id;
                        sample.time = p.time;
                        sample.throughputBps = p.throughputBps;
                        sample.iops = p.totalIops;
                        sample.latencyUs = p.latencyUs;
                        sample.capBps = v->throughputMibps >= 0 ? v->throughputMibps * kAnfMiB : -1;
                        samples->push_back(sample);
                        list.push_back(std::make_shared<const VolumePerf>(std::move(p)));
                    }
                }
                {
                    std::lock_guard lock(usage->mutex);
                    for (auto it = used->cbegin(); it != used->cend(); ++it) {
                        usage->usedBytes.insert(it.key(), it.value());
                    }
                }
                auto keyedList = keyed(std::move(list));
                out.apply = [self, source, keyedList, samples, used] {
                    if (!self) {
                        return;
                    }
                    Estate &estate = self->m_deps.estate;
                    estate.publishVolumePerf(source, keyedList);
                    // Used bytes only come with metrics: patch the current volume records.
                    if (const auto current = estate.volumes().scope(source); current && !used->isEmpty()) {
                        std::vector<Ptr<Volume>> next;
                        std::vector<VolumeUsage> firstUsage;
                        bool changed = false;
                        for (const Ptr<Volume> &v : current->items()) {
                            const auto it = used->constFind(v->id);
                            if (it == used->cend() || it.value() == v->usedBytes) {
                                next.push_back(v);
                                continue;
                            }
                            Volume copy = *v;
                            copy.usedBytes = it.value();
                            copy.availableBytes = std::max<qint64>(0, copy.sizeBytes - it.value());
                            copy.percentUsed = volumeCapacity(copy).percentUsed;
                            if (!v->usedBytes) {
                                // The volume's first level: the forecasts start from it, not from
                                // the next inventory.
                                firstUsage.push_back(VolumeUsage{copy.id, it.value(), copy.sizeBytes});
                            }
                            next.push_back(std::make_shared<const Volume>(std::move(copy)));
                            changed = true;
                        }
                        if (changed) {
                            estate.publishVolumes(source, keyed(std::move(next)));
                        }
                        if (self->m_deps.history && !firstUsage.empty()) {
                            self->m_deps.history->recordVolumeUsage(
                                source, std::move(firstUsage), self->m_deps.clock.now());
                        }
                    }
                    if (self->m_deps.history && !samples->empty()) {
                        self->m_deps.history->recordVolumePerf(source, std::move(*samples), self->m_deps.clock.now());
                    }
                };
                return out;
            };
            return job;
        },
        perfRole);
}

AzureSource::~AzureSource() = default;

void AzureSource::inventoryPollFinished(SystemPoller *, bool ok)
{
    // Metrics are asked per volume: only once the volumes are known.
    if (ok && isStarted() && !m_perfStarted) {
        m_perfStarted = true;
        m_perf->start();
    } else if (ok && m_perfAfterInventory && m_perfStarted) {
        // The moved volume's metrics live under its new ARM id, known only now.
        m_perf->pollNow();
    }
    if (ok) {
        m_perfAfterInventory = false;
    }
}

AzureSource::SnapshotJob AzureSource::snapshotJob(const QString &volumeId, const Ptr<Volume> &volume)
{
    auto conn = m_connection;
    const http::CancelToken token;
    const QString source = m_config.name;
    auto run = [conn, token, source, volumeId, volume] {
        SnapshotListing out;
        if (!volume) {
            out.error = FetchError{FetchError::Kind::Api,
                                   QObject::tr("Volume %1 is not known to %2 (yet).").arg(volumeId, source)};
            return out;
        }
        auto snapshots = conn->client->listSnapshots(ss(volume->armId), token);
        if (!snapshots) {
            out.error = toFetchError(snapshots.error());
            return out;
        }
        for (const auto &s : *snapshots) {
            out.snapshots.push_back(std::make_shared<const Snapshot>(toAnfSnapshot(s, source, volume.get(), volumeId)));
        }
        return out;
    };
    return SnapshotJob{run, cancelling(token)};
}

void AzureSource::describe(SourceStatus &status) const
{
    status.kind = SourceKind::Azure;
    status.url = m_config.url.isEmpty() ? QString::fromLatin1(kDefaultArm) : m_config.url;
    status.systemName = m_systemName;
    status.systemVersion = QStringLiteral("ANF API %1").arg(qs(m_connection->client->options().apiVersion));
}

void AzureSource::stop()
{
    m_perfStarted = false;
    VolumeSource::stop();
}

void AzureSource::reconnect(const QString &password)
{
    m_connection = Connection::make(m_config, password, false);
}

void AzureSource::fetchAksKubeconfig(const QString &clusterArmId,
                                     QObject *context,
                                     std::function<void(QString yaml, QString error)> done)
{
    auto conn = m_connection;
    runOffThread(
        m_deps.pool,
        context,
        [conn, clusterArmId] {
            return conn->client->clusterUserKubeconfig(ss(clusterArmId));
        },
        [done](const connectors::Result<std::string> &yaml) {
            done(yaml ? qs(*yaml) : QString(), yaml ? QString() : qs(yaml.error().message));
        });
}

void AzureSource::testConnection(const SourceConfig &config,
                                 const QString &secret,
                                 QThreadPool &pool,
                                 QObject *context,
                                 std::function<void(bool ok, QString message)> done)
{
    runConnectionTest(pool, context, std::move(done), [config, secret] {
        auto conn = Connection::make(config, secret, true);
        QElapsedTimer timer;
        timer.start();
        bool ok = false;
        QString message;
        auto sub = conn->client->subscription();
        if (!sub) {
            message = qs(sub.error().message);
        } else if (auto accounts = conn->client->listAccounts(); !accounts) {
            message = qs(accounts.error().message);
        } else {
            auto clusters = conn->client->listManagedClusters();
            ok = true;
            const QString aks = clusters
                                    ? QObject::tr("%n AKS cluster(s)", nullptr, int(clusters->size()))
                                    : QObject::tr("AKS clusters not readable (%1)").arg(qs(clusters.error().message));
            message =
                QObject::tr("Connected to subscription %1 (%2) in %3 ms: %4, %5.")
                    .arg(sub->displayName.empty() ? qs(sub->subscriptionId) : qs(sub->displayName), qs(sub->state))
                    .arg(timer.elapsed())
                    .arg(QObject::tr("%n NetApp account(s)", nullptr, int(accounts->size())), aks);
        }
        return std::make_pair(ok, message);
    });
}

// ---- actions ---------------------------------------------------------------------------------

namespace {

const QRegularExpression &anfSnapshotNamePattern()
{
    // ANF: starts with a letter or digit; letters, digits, '_', '-' and '.'; at most 255.
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.\\-]{0,254}$"));
    return re;
}

const QRegularExpression &poolNamePattern()
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_\\-]{0,63}$"));
    return re;
}

/// Where a ServiceLevelChange goes, decided from the estate (owner thread, no I/O).
struct PoolChoice
{
    QString name;        ///< target pool name; empty = none
    QString armId;       ///< its ARM id (computed when it is to be created)
    bool exists = false; ///< false: created first (request.createPool)
    qint64 sizeBytes = 0;
    qint64 freeBytes = 0;
    int volumeCount = 0;
    QString blockedReason;
};

PoolChoice choosePool(const Estate &estate, const ActionRequest &request, const Volume &volume)
{
    PoolChoice choice;
    const auto pools = estate.capacityPools().scope(request.source);
    std::vector<Ptr<CapacityPool>> sameAccount;
    if (pools) {
        for (const Ptr<CapacityPool> &p : pools->items()) {
            if (p->account == volume.svm && p->resourceGroup.compare(volume.resourceGroup, Qt::CaseInsensitive) == 0) {
                sameAccount.push_back(p);
            }
        }
    }
    auto fill = [&choice](const CapacityPool &p) {
        choice.name = p.name;
        choice.armId = p.armId;
        choice.exists = true;
        choice.sizeBytes = p.sizeBytes;
        choice.freeBytes = p.sizeBytes - p.allocatedBytes;
        choice.volumeCount = p.volumeCount;
    };
    if (!request.targetPool.isEmpty()) {
        for (const Ptr<CapacityPool> &p : sameAccount) {
            if (p->name == request.targetPool) {
                fill(*p);
                if (p->serviceLevel != request.targetLevel) {
                    choice.blockedReason =
                        QObject::tr("Pool %1 is %2, not %3.").arg(p->name, p->serviceLevel, request.targetLevel);
                }
                return choice;
            }
        }
        if (!request.createPool) {
            choice.blockedReason =
                QObject::tr("Account %1 has no capacity pool named %2.").arg(volume.svm, request.targetPool);
            return choice;
        }
        choice.name = request.targetPool;
    } else {
        // The pool of that level with the most room that can take the volume.
        const CapacityPool *best = nullptr;
        for (const Ptr<CapacityPool> &p : sameAccount) {
            if (p->serviceLevel != request.targetLevel) {
                continue;
            }
            const bool fits =
                p->sizeBytes - p->allocatedBytes >= volume.sizeBytes && p->volumeCount < kMaxVolumesPerPool;
            if (fits && (!best || p->sizeBytes - p->allocatedBytes > best->sizeBytes - best->allocatedBytes)) {
                best = p.get();
            }
        }
        if (best) {
            fill(*best);
            return choice;
        }
        if (!request.createPool) {
            const qint64 suggested = std::max<qint64>(kAnfTiB, (volume.sizeBytes + kAnfTiB - 1) / kAnfTiB * kAnfTiB);
            choice.blockedReason = QObject::tr("No %1 capacity pool in account %2 has %3 free; create one (e.g. "
                                               "pool-%4 of %5) or free space in one first.")
                                       .arg(request.targetLevel,
                                            volume.svm,
                                            formatBytes(volume.sizeBytes),
                                            request.targetLevel.toLower(),
                                            sizeText(suggested));
            return choice;
        }
        choice.name = QStringLiteral("pool-") + request.targetLevel.toLower();
        for (const Ptr<CapacityPool> &p : sameAccount) {
            if (p->name == choice.name) {
                choice.blockedReason =
                    QObject::tr("Pool %1 exists and cannot take %2; name the new pool.").arg(p->name, volume.name);
                return choice;
            }
        }
    }
    // A pool to create.
    choice.exists = false;
    choice.sizeBytes = request.poolSizeBytes > 0
                           ? request.poolSizeBytes
                           : std::max<qint64>(kAnfTiB, (volume.sizeBytes + kAnfTiB - 1) / kAnfTiB * kAnfTiB);
    choice.freeBytes = choice.sizeBytes;
    choice.armId = accountIdOf(volume.armId) + QStringLiteral("/capacityPools/") + choice.name;
    if (!poolNamePattern().match(choice.name).hasMatch()) {
        choice.blockedReason =
            QObject::tr("\"%1\" is not a valid pool name (letters, digits, _ and -; at most 64).").arg(choice.name);
    } else if (choice.sizeBytes % kAnfTiB != 0 || choice.sizeBytes < kAnfTiB) {
        choice.blockedReason = QObject::tr("A capacity pool is sized in whole TiB (at least 1 TiB); %1 is not.")
                                   .arg(formatBytes(choice.sizeBytes));
    }
    return choice;
}

} // namespace

ActionPreview AzureSource::preview(const ActionRequest &request) const
{
    ActionPreview p;
    const Estate &estate = m_deps.estate;
    const Ptr<Volume> volume = estate.volume(request.source, request.volumeId);
    const auto snapshots = estate.snapshots().scope(Estate::snapshotScope(request.source, request.volumeId));
    const Ptr<Snapshot> snapshot = snapshots && !request.snapshotId.isEmpty()
                                       ? snapshots->find(request.source + QLatin1Char('/') + request.snapshotId)
                                       : nullptr;
    const QString volumeLabel = volume ? volume->svm + QLatin1Char('/') + volume->name : request.volumeId;

    switch (request.kind) {
    case ActionKind::SnapshotCreate:
        p.title = tr("Create snapshot");
        p.target = volumeLabel + QLatin1Char('@') + request.name;
        break;
    case ActionKind::SnapshotDelete:
        p.title = tr("Delete snapshot");
        break;
    case ActionKind::SnapshotRestore:
        p.title = tr("Revert volume to snapshot");
        break;
    case ActionKind::ServiceLevelChange:
        p.title = tr("Change service level");
        p.target = volumeLabel;
        break;
    case ActionKind::VolumeClone:
    case ActionKind::JobSubmit:
    case ActionKind::JobDelete:
    case ActionKind::ProjectQuotaEdit:
    case ActionKind::DatasetCommit:
    case ActionKind::CacheCommit:
    case ActionKind::CacheEvict:
        p.title = actionKindName(request.kind);
        p.blockedReason = tr("%1 is an Azure source: Strata does not run %2 there.")
                              .arg(request.source, actionKindName(request.kind));
        return p;
    }
    if (!volume) {
        p.blockedReason = tr("Volume %1 is not known to %2 (yet).").arg(request.volumeId, request.source);
        return p;
    }
    if (request.kind == ActionKind::SnapshotDelete || request.kind == ActionKind::SnapshotRestore) {
        if (!snapshot) {
            p.blockedReason =
                tr("Snapshot %1 of %2 is not in the loaded snapshot list.").arg(request.snapshotId, volumeLabel);
            return p;
        }
        p.target = volumeLabel + QLatin1Char('@') + snapshot->name;
    }
    const int count = snapshots ? int(snapshots->size()) : volume->snapshotCount;
    const bool busy = !volume->provisioningState.isEmpty() && volume->provisioningState != QLatin1String("Succeeded");

    switch (request.kind) {
    case ActionKind::SnapshotCreate:
        p.fromState = tr("%n snapshot(s)", nullptr, count);
        p.toState = tr("%n snapshot(s)", nullptr, count + 1);
        p.effects << tr("Azure NetApp Files takes snapshot \"%1\" of %2 (%3 used).")
                         .arg(request.name, volumeLabel, formatBytes(volume->usedBytes));
        p.effects << tr("It takes no space at first; it then holds the blocks that change.");
        if (!anfSnapshotNamePattern().match(request.name).hasMatch()) {
            p.blockedReason =
                tr("\"%1\" is not a valid snapshot name (a letter or digit, then letters, digits, _ . -; at most "
                   "255 characters).")
                    .arg(request.name);
        } else if (snapshots) {
            for (const Ptr<Snapshot> &s : snapshots->items()) {
                if (s->name == request.name) {
                    p.blockedReason = tr("%1 already has a snapshot named \"%2\".").arg(volumeLabel, request.name);
                }
            }
        }
        break;
    case ActionKind::SnapshotDelete:
        p.destructive = true;
        p.fromState = tr("%n snapshot(s)", nullptr, count);
        p.toState = tr("%n snapshot(s)", nullptr, count - 1);
        p.effects << tr("Azure NetApp Files deletes snapshot \"%1\" (taken %2) of %3.")
                         .arg(snapshot->name, previewTimeText(snapshot->created), volumeLabel);
        p.warnings << tr("The snapshot cannot be recovered once deleted.");
        break;
    case ActionKind::SnapshotRestore: {
        p.destructive = true;
        p.fromState = tr("current contents (%1 used)").arg(formatBytes(volume->usedBytes));
        p.toState = tr("contents of %1 (%2)").arg(snapshot->name, previewTimeText(snapshot->created));
        p.effects << tr("Azure NetApp Files reverts %1 to snapshot \"%2\" in place.").arg(volumeLabel, snapshot->name);
        p.warnings
            << tr("Everything written to %1 after %2 is lost.").arg(volumeLabel, previewTimeText(snapshot->created));
        QStringList newer;
        if (snapshots && snapshot->created.isValid()) {
            for (const Ptr<Snapshot> &s : snapshots->items()) {
                if (s->created.isValid() && s->created > snapshot->created) {
                    newer << s->name;
                }
            }
        }
        if (!newer.isEmpty()) {
            p.warnings << tr("%n newer snapshot(s) will be deleted: %1", nullptr, int(newer.size()))
                              .arg(newer.mid(0, 8).join(QStringLiteral(", "))
                                   + (newer.size() > 8 ? QStringLiteral(", …") : QString()));
        }
        p.warnings << tr("Clients that have the volume mounted may need to remount.");
        break;
    }
    case ActionKind::ServiceLevelChange: {
        p.fromState =
            tr("%1 (pool %2, cap %3)").arg(volume->serviceLevel, volume->aggregate, anfMibps(volume->throughputMibps));
        if (!volume->isAnf()) {
            p.blockedReason = tr("%1 is not an Azure NetApp Files volume.").arg(volumeLabel);
            break;
        }
        if (!anfServiceLevels().contains(request.targetLevel)) {
            p.blockedReason = tr("\"%1\" is not a service level a volume can move to (%2).")
                                  .arg(request.targetLevel, anfServiceLevels().join(QStringLiteral(", ")));
            break;
        }
        if (request.targetLevel == volume->serviceLevel && request.targetPool.isEmpty()) {
            p.toState = p.fromState;
            p.blockedReason =
                tr("%1 is already at %2 (pool %3).").arg(volumeLabel, volume->serviceLevel, volume->aggregate);
            break;
        }
        const PoolChoice choice = choosePool(estate, request, *volume);
        const double newCap = volume->qosType == QLatin1String("Manual")
                                  ? volume->throughputMibps
                                  : anfAutoQosMibps(request.targetLevel, volume->sizeBytes);
        p.toState = tr("%1 (pool %2, cap %3)").arg(request.targetLevel, choice.name, anfMibps(newCap));
        if (!choice.name.isEmpty()) {
            if (!choice.exists) {
                p.effects << tr("Azure creates capacity pool %1 (%2, %3, auto QoS) in account %4 first; the pool is "
                                "billed from then on.")
                                 .arg(choice.name, request.targetLevel, sizeText(choice.sizeBytes), volume->svm);
            }
            p.effects << tr("Azure moves %1 (%2 quota) from pool %3 to pool %4 (%5 free of %6, %7 of %8 volumes).")
                             .arg(volumeLabel,
                                  formatBytes(volume->sizeBytes),
                                  volume->aggregate,
                                  choice.name,
                                  formatBytes(choice.freeBytes),
                                  sizeText(choice.sizeBytes))
                             .arg(choice.volumeCount)
                             .arg(kMaxVolumesPerPool);
            p.effects << tr("The volume stays mounted; no data is copied.");
            p.effects << tr("Its ARM id becomes %1; Strata follows it by its file system id, so its history continues.")
                             .arg(choice.armId + QStringLiteral("/volumes/") + volume->name);
        }
        if (!choice.blockedReason.isEmpty()) {
            p.blockedReason = choice.blockedReason;
        } else if (choice.exists && choice.freeBytes < volume->sizeBytes) {
            p.blockedReason =
                tr("Pool %1 has %2 free; %3 needs %4.")
                    .arg(choice.name, formatBytes(choice.freeBytes), volume->name, formatBytes(volume->sizeBytes));
        } else if (choice.exists && choice.volumeCount >= kMaxVolumesPerPool) {
            p.blockedReason =
                tr("Pool %1 already holds %2 volumes, the most ANF allows.").arg(choice.name).arg(kMaxVolumesPerPool);
        }
        if (m_deps.serviceLevels) {
            m_deps.serviceLevels->annotatePreview(request, &p);
        }
        break;
    }
    case ActionKind::VolumeClone:
    case ActionKind::JobSubmit:
    case ActionKind::JobDelete:
    case ActionKind::ProjectQuotaEdit:
    case ActionKind::DatasetCommit:
    case ActionKind::CacheCommit:
    case ActionKind::CacheEvict:
        break;
    }
    if (busy && p.blockedReason.isEmpty()) {
        p.blockedReason = tr("Volume %1 is %2; wait until Azure finishes.").arg(volumeLabel, volume->provisioningState);
    }
    return p;
}

namespace {

struct AzureReconciler
{
    azure::AzureClient &client;
    const ActionContext &ctx;

    void progress(int percent, const QString &text) const
    {
        if (ctx.progress) {
            ctx.progress(ActionProgress{percent, text});
        }
    }

    azure::LroProgress lroProgress(const QString &what) const
    {
        return [this, what](const azure::LroStatus &s) {
            // ARM accepted the request: journal where to follow it after a restart.
            ctx.accepted(qs(s.operationUrl));
            const int percent = s.percentComplete >= 0 ? int(std::lround(s.percentComplete)) : -1;
            progress(percent, QObject::tr("%1: Azure reports %2").arg(what, qs(s.status)));
        };
    }

    /// Recovery: polls the journaled operation's status document (ctx.handle) until it is
    /// terminal. Returns its status ("Succeeded", "Failed", "Canceled"), or empty when it cannot
    /// be followed (no handle, gone, not a status document), with `error` set on failure.
    QString followOperation(QString *error) const
    {
        if (ctx.handle.isEmpty()) {
            return {};
        }
        progress(-1, QObject::tr("Following the Azure operation after the restart"));
        const auto interval = std::max(client.options().lroPollInterval, std::chrono::milliseconds(100));
        QElapsedTimer waited;
        waited.start();
        for (;;) {
            auto doc = client.getJson(ss(ctx.handle), "operation status");
            if (!doc || !doc->is_object() || !doc->contains("status") || !(*doc)["status"].is_string()) {
                if (!doc) {
                    *error = qs(doc.error().message);
                }
                return {};
            }
            const QString status = qs((*doc)["status"].get<std::string>());
            if (status == QLatin1String("Succeeded") || status == QLatin1String("Failed")
                || status.startsWith(QLatin1String("Cancel"))) {
                if (status == QLatin1String("Failed") && doc->contains("error") && (*doc)["error"].is_object()) {
                    *error = qs((*doc)["error"].value("message", std::string()));
                }
                return status;
            }
            progress(-1, QObject::tr("Pool change: Azure reports %1").arg(status));
            if (waited.elapsed() > client.options().lroTimeout.count() || (ctx.isCancelled && ctx.isCancelled())) {
                *error = QObject::tr("still %1 after %2 s").arg(status).arg(waited.elapsed() / 1000);
                return {};
            }
            QThread::msleep(static_cast<unsigned long>(interval.count()));
        }
    }

    /// The volume now, found by its fileSystemId: first at `armId`, else (moved by a pool
    /// change) among the account's pools. nullopt value = gone.
    connectors::Result<std::optional<azure::AnfVolume>> findVolume(const QString &fileSystemId,
                                                                   const QString &armId) const
    {
        auto direct = client.volume(ss(armId));
        if (direct && qs(direct->fileSystemId) == fileSystemId) {
            return std::optional<azure::AnfVolume>(*direct);
        }
        if (!direct && !isNotFound(direct.error())) {
            return connectors::fail(direct.error());
        }
        auto pools = client.listPools(ss(accountIdOf(armId)));
        if (!pools) {
            return connectors::fail(pools.error());
        }
        for (const azure::CapacityPool &p : *pools) {
            auto volumes = client.listVolumes(p.id);
            if (!volumes) {
                return connectors::fail(volumes.error());
            }
            for (const azure::AnfVolume &v : *volumes) {
                if (qs(v.fileSystemId) == fileSystemId) {
                    return std::optional<azure::AnfVolume>(v);
                }
            }
        }
        return std::optional<azure::AnfVolume>();
    }
};

} // namespace

std::function<ActionResult(const ActionContext &)> AzureSource::prepare(const ActionRequest &request)
{
    auto conn = m_connection;
    const Ptr<Volume> volume = m_deps.estate.volume(request.source, request.volumeId);
    const auto snapshots = m_deps.estate.snapshots().scope(Estate::snapshotScope(request.source, request.volumeId));
    const Ptr<Snapshot> snapshot = snapshots && !request.snapshotId.isEmpty()
                                       ? snapshots->find(request.source + QLatin1Char('/') + request.snapshotId)
                                       : nullptr;
    const QString snapshotName = snapshot ? snapshot->name : QString();
    PoolChoice choice;
    if (volume && request.kind == ActionKind::ServiceLevelChange) {
        choice = choosePool(m_deps.estate, request, *volume);
    }

    return [conn, request, volume, snapshotName, choice](const ActionContext &ctx) -> ActionResult {
        if (!volume) {
            return actionFailed(QObject::tr("Volume %1 is not known to %2.").arg(request.volumeId, request.source));
        }
        azure::AzureClient &client = *conn->client;
        const AzureReconciler rec{client, ctx};
        const QString label = volume->svm + QLatin1Char('/') + volume->name;
        // The volume's ARM id may have moved since the estate saw it (a pool change).
        auto currentArmId = [&]() -> QString {
            auto found = rec.findVolume(volume->id, volume->armId);
            return found && *found ? qs((*found)->id) : volume->armId;
        };

        switch (request.kind) {
        case ActionKind::SnapshotCreate: {
            const QString armId = ctx.attempt > 1 ? currentArmId() : volume->armId;
            auto exists = [&]() -> std::optional<bool> {
                auto list = client.listSnapshots(ss(armId));
                if (!list) {
                    return std::nullopt;
                }
                for (const auto &s : *list) {
                    if (lastSegment(s.name) == request.name) {
                        return true;
                    }
                }
                return false;
            };
            if (ctx.attempt > 1 && exists().value_or(false)) {
                return actionReconciled(
                    QObject::tr("Snapshot \"%1\" already exists (an earlier attempt succeeded); not created again.")
                        .arg(request.name));
            }
            rec.progress(0, QObject::tr("Submitting to Azure"));
            auto r = client.createSnapshot(
                ss(armId), ss(request.name), ss(volume->location), rec.lroProgress(QObject::tr("Snapshot")));
            if (r) {
                return ActionResult{
                    true, false, QObject::tr("Snapshot \"%1\" of %2 created.").arg(request.name, label)};
            }
            if (r.error().outcomeUnknown) {
                if (exists().value_or(false)) {
                    return actionReconciled(
                        QObject::tr("Snapshot \"%1\" created (confirmed after the response was lost).")
                            .arg(request.name));
                }
                return actionFailed(QObject::tr("%1. Azure has no snapshot \"%2\", so retrying is safe.")
                                        .arg(qs(r.error().message), request.name));
            }
            return actionFailed(qs(r.error().message));
        }
        case ActionKind::SnapshotDelete: {
            const QString armId = currentArmId();
            const std::string snapshotArmId = ss(armId + QStringLiteral("/snapshots/") + snapshotName);
            rec.progress(0, QObject::tr("Submitting to Azure"));
            auto r = client.deleteSnapshot(snapshotArmId, rec.lroProgress(QObject::tr("Snapshot deletion")));
            if (r) {
                return ActionResult{
                    true, false, QObject::tr("Snapshot \"%1\" of %2 deleted.").arg(snapshotName, label)};
            }
            if (isNotFound(r.error())) {
                return actionReconciled(
                    QObject::tr("Snapshot \"%1\" is already gone; nothing to delete.").arg(snapshotName));
            }
            return actionFailed(qs(r.error().message));
        }
        case ActionKind::SnapshotRestore: {
            const QString armId = currentArmId();
            const std::string snapshotArmId = ss(armId + QStringLiteral("/snapshots/") + snapshotName);
            rec.progress(0, QObject::tr("Submitting to Azure"));
            auto r = client.revertVolume(ss(armId), snapshotArmId, rec.lroProgress(QObject::tr("Revert")));
            if (r) {
                return ActionResult{
                    true, false, QObject::tr("%1 reverted to snapshot \"%2\".").arg(label, snapshotName)};
            }
            if (r.error().outcomeUnknown) {
                // A revert leaves no trace to check; say so rather than guess.
                return actionFailed(QObject::tr("%1. Azure accepted the revert; check the volume's contents before "
                                                "reverting again.")
                                        .arg(qs(r.error().message)));
            }
            return actionFailed(qs(r.error().message));
        }
        case ActionKind::ServiceLevelChange: {
            if (ctx.recovery) {
                // The pool the preview chose then is not recomputed: the estate moved on. Arrived
                // means the level asked for, in the pool asked for (if one was named).
                auto there = [&](const azure::AnfVolume &v) {
                    return qs(v.serviceLevel) == request.targetLevel
                           && (request.targetPool.isEmpty() || poolNameOf(v.id) == request.targetPool);
                };
                QString error;
                const QString status = rec.followOperation(&error);
                auto found = rec.findVolume(volume->id, volume->armId);
                // Without a handle an operation ARM accepted may still run: give it a bounded
                // while to show (the volume reaching the pool) before calling it not sent.
                for (int wait = 0; status.isEmpty() && ctx.phase != QLatin1String("intended") && wait < 20 && found
                                   && *found && !there(**found);
                     ++wait) {
                    QThread::msleep(500);
                    found = rec.findVolume(volume->id, volume->armId);
                }
                if (found && *found && there(**found)) {
                    return ActionResult{true,
                                        status.isEmpty(),
                                        QObject::tr("%1 moved to pool %2 (%3).")
                                            .arg(label, poolNameOf((*found)->id), request.targetLevel)};
                }
                if (status == QLatin1String("Failed") || status.startsWith(QLatin1String("Cancel"))) {
                    return actionFailed(
                        QObject::tr("The pool change of %1 %2 in Azure: %3").arg(label, status.toLower(), error));
                }
                if (!found) {
                    return actionFailed(QObject::tr("Strata stopped while the pool change of %1 ran and Azure cannot "
                                                    "be asked now (%2); it was not sent again. Check the volume "
                                                    "before retrying.")
                                            .arg(label, qs(found.error().message)));
                }
                if (!*found) {
                    return actionFailed(QObject::tr("%1 no longer exists in Azure (deleted elsewhere).").arg(label));
                }
                return actionFailed(QObject::tr("Strata stopped before the pool change of %1 reached Azure (it is "
                                                "still in pool %2); it was not sent again. Retry it if it is still "
                                                "wanted.")
                                        .arg(label, poolNameOf((*found)->id)));
            }
            if (choice.name.isEmpty() || !choice.blockedReason.isEmpty()) {
                return actionFailed(choice.blockedReason.isEmpty() ? QObject::tr("No target pool.")
                                                                   : choice.blockedReason);
            }
            auto arrived = [&](const azure::AnfVolume &v) {
                return qs(v.serviceLevel) == request.targetLevel
                       && (request.targetPool.isEmpty() || poolNameOf(v.id) == choice.name);
            };
            auto found = rec.findVolume(volume->id, volume->armId);
            if (!found) {
                return actionFailed(qs(found.error().message));
            }
            if (!*found) {
                return actionFailed(QObject::tr("%1 no longer exists in Azure (deleted elsewhere).").arg(label));
            }
            const azure::AnfVolume current = **found;
            const QString fromPool = poolNameOf(current.id);
            if (arrived(current)) {
                return actionReconciled(QObject::tr("%1 is already in pool %2 (%3); nothing to move.")
                                            .arg(label, fromPool, request.targetLevel));
            }
            if (!choice.exists) {
                auto existing = client.pool(ss(choice.armId));
                if (!existing && !isNotFound(existing.error())) {
                    return actionFailed(qs(existing.error().message));
                }
                if (!existing) {
                    rec.progress(0, QObject::tr("Creating pool %1").arg(choice.name));
                    if (!ctx.sending()) {
                        return actionFailed(QObject::tr("not sent"));
                    }
                    auto created = client.createPool(ss(accountIdOf(qs(current.id))),
                                                     ss(choice.name),
                                                     current.location,
                                                     ss(request.targetLevel),
                                                     choice.sizeBytes,
                                                     "Auto",
                                                     rec.lroProgress(QObject::tr("Pool creation")));
                    if (!created) {
                        return actionFailed(
                            QObject::tr("Creating pool %1 failed: %2").arg(choice.name, qs(created.error().message)));
                    }
                } else if (qs(existing->serviceLevel) != request.targetLevel) {
                    return actionFailed(QObject::tr("Pool %1 exists as %2, not %3.")
                                            .arg(choice.name, qs(existing->serviceLevel), request.targetLevel));
                }
            }
            rec.progress(0, QObject::tr("Moving %1 to pool %2").arg(label, choice.name));
            if (!ctx.sending()) {
                return actionFailed(QObject::tr("not sent"));
            }
            auto moved = client.poolChange(current.id, ss(choice.armId), rec.lroProgress(QObject::tr("Pool change")));
            auto after = rec.findVolume(volume->id, moved ? qs(*moved) : qs(current.id));
            if (!moved) {
                const connectors::Error &e = moved.error();
                if (after && *after && arrived(**after)) {
                    return actionReconciled(QObject::tr("%1 moved to pool %2 (%3) (confirmed after: %4).")
                                                .arg(label, choice.name, request.targetLevel, qs(e.message)));
                }
                if (after && !*after) {
                    return actionFailed(
                        QObject::tr("%1: the volume was deleted during the change.").arg(qs(e.message)));
                }
                if (e.outcomeUnknown) {
                    return actionFailed(QObject::tr("%1. %2 is still in pool %3, so retrying is safe.")
                                            .arg(qs(e.message), label, fromPool));
                }
                return actionFailed(qs(e.message));
            }
            QString capText;
            if (after && *after) {
                capText = QObject::tr("; throughput cap %1 → %2")
                              .arg(anfMibps(volume->throughputMibps), anfMibps(capOf(**after, volume->qosType)));
            }
            return ActionResult{
                true,
                false,
                QObject::tr("%1 moved from pool %2 (%3) to pool %4 (%5)%6.")
                    .arg(label, fromPool, qs(current.serviceLevel), choice.name, request.targetLevel, capText)};
        }
        case ActionKind::VolumeClone:
        case ActionKind::JobSubmit:
        case ActionKind::JobDelete:
        case ActionKind::ProjectQuotaEdit:
        case ActionKind::DatasetCommit:
        case ActionKind::CacheCommit:
        case ActionKind::CacheEvict:
            break;
        }
        return actionFailed(QStringLiteral("unknown action"));
    };
}

bool AzureSource::recovers(ActionKind kind) const
{
    return kind == ActionKind::ServiceLevelChange;
}

void AzureSource::afterSuccess(const ActionRequest &request)
{
    if (request.kind != ActionKind::ServiceLevelChange) {
        refreshSnapshots(request.volumeId);
    }
    // A pool change moves the ARM id: the inventory finds the volume under the new one, then
    // its metrics (and the new cap in the perf history) follow at once.
    if (request.kind == ActionKind::ServiceLevelChange) {
        m_perfAfterInventory = true;
    }
    m_inventory->pollNow();
}

} // namespace strata::core
