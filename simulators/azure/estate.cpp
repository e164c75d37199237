#include "simulators/azure/azurestate.h"

#include <QDateTime>

#include <algorithm>

namespace strata::sim::azure {

QString AzureState::accountId(const QString &rg, const QString &a) const
{
    return rgPrefix(rg) + QStringLiteral("/providers/Microsoft.NetApp/netAppAccounts/") + a;
}

QString AzureState::poolId(const Pool &p) const
{
    return accountId(p.resourceGroup, p.account) + QStringLiteral("/capacityPools/") + p.name;
}

QString AzureState::volumeId(const Volume &v) const
{
    return accountId(v.resourceGroup, v.account) + QStringLiteral("/capacityPools/") + v.pool
           + QStringLiteral("/volumes/") + v.name;
}

QString AzureState::clusterId(const ManagedCluster &c) const
{
    return rgPrefix(c.resourceGroup) + QStringLiteral("/providers/Microsoft.ContainerService/managedClusters/")
           + c.name;
}

QString AzureState::operationPath(const QString &opId) const
{
    return subPrefix() + QStringLiteral("/providers/Microsoft.NetApp/locations/") + opt.location
           + QStringLiteral("/operationResults/") + opId;
}

QString AzureState::findRg(const QString &rg) const
{
    for (const QString &r : resourceGroups) {
        if (same(r, rg)) {
            return r;
        }
    }
    return {};
}

Account *AzureState::findAccount(const QString &rg, const QString &a)
{
    for (Account &x : accounts) {
        if (same(x.resourceGroup, rg) && same(x.name, a)) {
            return &x;
        }
    }
    return nullptr;
}

Pool *AzureState::findPool(const QString &rg, const QString &a, const QString &p)
{
    for (Pool &x : pools) {
        if (same(x.resourceGroup, rg) && same(x.account, a) && same(x.name, p)) {
            return &x;
        }
    }
    return nullptr;
}

Pool *AzureState::findPoolByUuid(const QString &uuid)
{
    for (Pool &x : pools) {
        if (x.poolId == uuid) {
            return &x;
        }
    }
    return nullptr;
}

Volume *AzureState::findVolume(const QString &rg, const QString &a, const QString &p, const QString &name)
{
    for (auto &x : volumes) {
        if (same(x->resourceGroup, rg) && same(x->account, a) && same(x->pool, p) && same(x->name, name)) {
            return x.get();
        }
    }
    return nullptr;
}

Volume *AzureState::findVolumeByFsid(const QString &fsid)
{
    for (auto &x : volumes) {
        if (x->fileSystemId == fsid) {
            return x.get();
        }
    }
    return nullptr;
}

Volume *AzureState::findVolumeAny(const QString &idOrFsid)
{
    if (Volume *v = findVolumeByFsid(idOrFsid)) {
        return v;
    }
    for (auto &x : volumes) {
        if (same(volumeId(*x), idOrFsid)) {
            return x.get();
        }
    }
    return nullptr;
}

ManagedCluster *AzureState::findCluster(const QString &rg, const QString &name)
{
    for (ManagedCluster &c : clusters) {
        if (same(c.resourceGroup, rg) && same(c.name, name)) {
            return &c;
        }
    }
    return nullptr;
}

std::vector<Volume *> AzureState::volumesIn(const Pool &p)
{
    std::vector<Volume *> out;
    for (auto &x : volumes) {
        if (same(x->resourceGroup, p.resourceGroup) && same(x->account, p.account) && same(x->pool, p.name)) {
            out.push_back(x.get());
        }
    }
    std::sort(out.begin(), out.end(), [](const Volume *a, const Volume *b) {
        return a->name.compare(b->name, Qt::CaseInsensitive) < 0;
    });
    return out;
}

qint64 AzureState::allocated(const Pool &p, const Volume *except)
{
    qint64 sum = 0;
    for (Volume *v : volumesIn(p)) {
        if (v != except) {
            sum += v->usageThreshold;
        }
    }
    return sum;
}

bool AzureState::busy(const QString &fsid) const
{
    for (const auto &[id, op] : operations) {
        if (!op.done && op.busyKey == fsid) {
            return true;
        }
    }
    return false;
}

std::map<QString, QString> AzureState::parseId(const QString &id)
{
    std::map<QString, QString> out;
    const QStringList segs = id.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (qsizetype i = 0; i + 1 < segs.size(); i += 2) {
        if (same(segs[i], QStringLiteral("providers"))) {
            out[QStringLiteral("provider")] = segs[i + 1];
            continue;
        }
        out[segs[i].toLower()] = segs[i + 1];
    }
    return out;
}

Pool &
AzureState::addPool(const QString &rg, const QString &account, const QString &name, const QString &level, qint64 size)
{
    Pool p;
    p.resourceGroup = rg;
    p.account = account;
    p.name = name;
    p.location = opt.location;
    p.poolId = rng.uuid();
    p.serviceLevel = level;
    p.size = size;
    p.modifiedMs = nowMs() - 30LL * 86400000;
    pools.push_back(p);
    return pools.back();
}

Volume &
AzureState::addVolume(const Pool &pool, const QString &name, qint64 quota, const QString &mountIp, qint64 createdMs)
{
    auto v = std::make_unique<Volume>();
    v->resourceGroup = pool.resourceGroup;
    v->account = pool.account;
    v->pool = pool.name;
    v->name = name;
    v->location = pool.location;
    v->fileSystemId = rng.uuid();
    v->networkSiblingSetId = rng.uuid();
    v->creationToken = name;
    v->usageThreshold = quota;
    v->serviceLevel = pool.serviceLevel;
    v->throughputMibps = autoThroughput(pool.serviceLevel, quota);
    v->mountIp = mountIp;
    v->subnetId = rgPrefix(pool.resourceGroup)
                  + QStringLiteral("/providers/Microsoft.Network/virtualNetworks/%1-vnet/subnets/anf-delegated")
                        .arg(pool.resourceGroup);
    v->createdMs = createdMs;
    v->modifiedMs = createdMs;
    v->demandMibps = 0.5 + 8 * noise(opt.seed, v->fileSystemId, 0, 10);
    v->readFraction = 0.6 + 0.35 * noise(opt.seed, v->fileSystemId, 0, 11);
    v->usedFraction = 0.2 + 0.6 * noise(opt.seed, v->fileSystemId, 0, 12);
    v->phase = 6.28 * noise(opt.seed, v->fileSystemId, 0, 13);
    v->capHistory.push_back({createdMs, v->throughputMibps});
    volumes.push_back(std::move(v));
    return *volumes.back();
}

void AzureState::addSnapshot(Volume &v, const QString &name, qint64 createdMs)
{
    Snapshot s;
    s.name = name;
    s.snapshotId = rng.uuid();
    s.createdMs = createdMs;
    v.snapshots.push_back(s);
}

void AzureState::buildPreset()
{
    const qint64 now = nowMs();
    const qint64 created = now - 30LL * 86400000;
    resourceGroups.append(opt.resourceGroup);
    if (opt.preset == AzureSimulatorOptions::Preset::Empty) {
        return;
    }
    const QString rg = opt.resourceGroup;
    accounts.push_back(Account{rg, QStringLiteral("anf-ai-lab"), opt.location, QStringLiteral("Succeeded"), created});
    Pool &standard =
        addPool(rg, QStringLiteral("anf-ai-lab"), QStringLiteral("pool-standard"), QStringLiteral("Standard"), 4 * TiB);
    const Pool standardCopy = standard;
    addPool(rg, QStringLiteral("anf-ai-lab"), QStringLiteral("pool-premium"), QStringLiteral("Premium"), 4 * TiB);
    auto snapName = [now](int daysAgo) -> QString {
        return QStringLiteral("daily-")
               + QDateTime::fromMSecsSinceEpoch(now - qint64(daysAgo) * 86400000, Qt::UTC)
                     .toString(QStringLiteral("yyyy-MM-dd"));
    };
    Volume &criteo =
        addVolume(standardCopy, QStringLiteral("criteo-data"), 1000 * GiB, QStringLiteral("10.0.1.4"), created);
    criteo.demandMibps = 40;
    criteo.readFraction = 0.92;
    criteo.ioKiB = 256;
    criteo.usedFraction = 0.82;
    criteo.phase = 0.5;
    addSnapshot(criteo, snapName(2), now - 2 * 86400000);
    addSnapshot(criteo, snapName(1), now - 86400000);
    Volume &tusimple =
        addVolume(standardCopy, QStringLiteral("tusimple"), 500 * GiB, QStringLiteral("10.0.1.5"), created);
    tusimple.demandMibps = 1.2;
    tusimple.readFraction = 0.7;
    tusimple.ioKiB = 64;
    tusimple.usedFraction = 0.64;
    tusimple.phase = 2.0;
    addSnapshot(tusimple, snapName(2), now - 2 * 86400000 + 600000);
    addSnapshot(tusimple, snapName(1), now - 86400000 + 600000);

    ManagedCluster aks;
    aks.resourceGroup = rg;
    aks.name = QStringLiteral("aks-gpu");
    aks.location = opt.location;
    aks.dnsPrefix = QStringLiteral("aks-gpu-%1-%2").arg(rg, opt.subscriptionId.left(6));
    const QString hash = QString::number(quint64(noise(opt.seed, aks.name, 0, 5) * 4294967295.0), 16);
    aks.fqdn = QStringLiteral("%1-%2.hcp.%3.azmk8s.io").arg(aks.dnsPrefix, hash, opt.location);
    aks.agentPools.push_back(
        AgentPool{QStringLiteral("system"), 1, QStringLiteral("Standard_D4s_v5"), QStringLiteral("System"), 30, {}});
    aks.agentPools.push_back(AgentPool{
        QStringLiteral("gpupool"), 3, QStringLiteral("Standard_NC6s_v3"), QStringLiteral("User"), 110, QStringList{}});
    aks.modifiedMs = created;
    clusters.push_back(aks);

    if (opt.preset != AzureSimulatorOptions::Preset::Scale || opt.scaleVolumes <= 0) {
        return;
    }
    const QString scaleRg = QStringLiteral("scale-rg");
    resourceGroups.append(scaleRg);
    accounts.push_back(
        Account{scaleRg, QStringLiteral("anf-scale"), opt.location, QStringLiteral("Succeeded"), created});
    static const char *levels[] = {"Standard", "Premium", "Ultra"};
    const int perPool = 100;
    const int poolCount = (opt.scaleVolumes + perPool - 1) / perPool;
    int made = 0;
    for (int p = 0; p < poolCount; ++p) {
        const Pool pool = addPool(scaleRg,
                                  QStringLiteral("anf-scale"),
                                  QStringLiteral("pool-%1").arg(p + 1, 3, 10, QLatin1Char('0')),
                                  QLatin1String(levels[p % 3]),
                                  10 * TiB);
        for (int i = 0; i < perPool && made < opt.scaleVolumes; ++i, ++made) {
            addVolume(pool,
                      QStringLiteral("vol-%1").arg(made + 1, 5, 10, QLatin1Char('0')),
                      100 * GiB,
                      QStringLiteral("10.1.%1.%2").arg(4 + made / 250).arg(4 + made % 250),
                      created);
        }
    }
}

bool AzureState::removeVolume(const QString &fsid)
{
    const auto it = std::find_if(volumes.begin(), volumes.end(), [&](const std::unique_ptr<Volume> &v) {
        return v->fileSystemId == fsid;
    });
    if (it == volumes.end()) {
        return false;
    }
    volumes.erase(it);
    return true;
}

} // namespace strata::sim::azure
