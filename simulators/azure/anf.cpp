#include "simulators/azure/azurestate.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace strata::sim::azure {

QJsonObject AzureState::accountJson(const Account &a) const
{
    return QJsonObject{
        {QStringLiteral("id"), accountId(a.resourceGroup, a.name)},
        {QStringLiteral("name"), a.name},
        {QStringLiteral("type"), QStringLiteral("Microsoft.NetApp/netAppAccounts")},
        {QStringLiteral("location"), a.location},
        {QStringLiteral("etag"), etagFor(a.modifiedMs)},
        {QStringLiteral("tags"), QJsonObject{}},
        {QStringLiteral("properties"),
         QJsonObject{{QStringLiteral("provisioningState"), a.provisioningState},
                     {QStringLiteral("encryption"),
                      QJsonObject{{QStringLiteral("keySource"), QStringLiteral("Microsoft.NetApp")}}},
                     {QStringLiteral("disableShowmount"), true}}},
    };
}

QJsonObject AzureState::poolJson(Pool &p)
{
    double utilized = 0;
    for (Volume *v : volumesIn(p)) {
        utilized += v->throughputMibps;
    }
    const double total = autoThroughput(p.serviceLevel, p.size);
    return QJsonObject{
        {QStringLiteral("id"), poolId(p)},
        {QStringLiteral("name"), QString(p.account + QLatin1Char('/') + p.name)},
        {QStringLiteral("type"), QStringLiteral("Microsoft.NetApp/netAppAccounts/capacityPools")},
        {QStringLiteral("location"), p.location},
        {QStringLiteral("etag"), etagFor(p.modifiedMs)},
        {QStringLiteral("tags"), QJsonObject{}},
        {QStringLiteral("properties"),
         QJsonObject{
             {QStringLiteral("poolId"), p.poolId},
             {QStringLiteral("serviceLevel"), p.serviceLevel},
             {QStringLiteral("size"), double(p.size)},
             {QStringLiteral("qosType"), p.qosType},
             {QStringLiteral("totalThroughputMibps"), std::round(total * 1000) / 1000},
             {QStringLiteral("utilizedThroughputMibps"), std::round(utilized * 1000) / 1000},
             {QStringLiteral("coolAccess"), false},
             {QStringLiteral("encryptionType"), QStringLiteral("Single")},
             {QStringLiteral("provisioningState"), p.provisioningState},
         }},
    };
}

QJsonObject AzureState::volumeJson(const Volume &v) const
{
    QJsonArray protocols;
    for (const QString &p : v.protocolTypes) {
        protocols.append(p);
    }
    const QJsonObject mountTarget{{QStringLiteral("mountTargetId"), v.networkSiblingSetId},
                                  {QStringLiteral("fileSystemId"), v.fileSystemId},
                                  {QStringLiteral("ipAddress"), v.mountIp}};
    const QJsonObject exportRule{{QStringLiteral("ruleIndex"), 1},
                                 {QStringLiteral("unixReadOnly"), false},
                                 {QStringLiteral("unixReadWrite"), true},
                                 {QStringLiteral("nfsv3"), v.protocolTypes.contains(QStringLiteral("NFSv3"))},
                                 {QStringLiteral("nfsv41"), v.protocolTypes.contains(QStringLiteral("NFSv4.1"))},
                                 {QStringLiteral("cifs"), false},
                                 {QStringLiteral("allowedClients"), QStringLiteral("0.0.0.0/0")},
                                 {QStringLiteral("hasRootAccess"), true}};
    return QJsonObject{
        {QStringLiteral("id"), volumeId(v)},
        {QStringLiteral("name"), QString(v.account + QLatin1Char('/') + v.pool + QLatin1Char('/') + v.name)},
        {QStringLiteral("type"), QStringLiteral("Microsoft.NetApp/netAppAccounts/capacityPools/volumes")},
        {QStringLiteral("location"), v.location},
        {QStringLiteral("etag"), etagFor(v.modifiedMs)},
        {QStringLiteral("tags"), QJsonObject{}},
        {QStringLiteral("properties"),
         QJsonObject{
             {QStringLiteral("fileSystemId"), v.fileSystemId},
             {QStringLiteral("creationToken"), v.creationToken},
             {QStringLiteral("serviceLevel"), v.serviceLevel},
             {QStringLiteral("usageThreshold"), double(v.usageThreshold)},
             {QStringLiteral("throughputMibps"), std::round(v.throughputMibps * 1000) / 1000},
             {QStringLiteral("actualThroughputMibps"), std::round(v.throughputMibps * 1000) / 1000},
             {QStringLiteral("protocolTypes"), protocols},
             {QStringLiteral("subnetId"), v.subnetId},
             {QStringLiteral("networkFeatures"), QStringLiteral("Standard")},
             {QStringLiteral("networkSiblingSetId"), v.networkSiblingSetId},
             {QStringLiteral("storageToNetworkProximity"), QStringLiteral("T2")},
             {QStringLiteral("mountTargets"), QJsonArray{mountTarget}},
             {QStringLiteral("exportPolicy"), QJsonObject{{QStringLiteral("rules"), QJsonArray{exportRule}}}},
             {QStringLiteral("snapshotDirectoryVisible"), true},
             {QStringLiteral("securityStyle"), QStringLiteral("unix")},
             {QStringLiteral("encryptionKeySource"), QStringLiteral("Microsoft.NetApp")},
             {QStringLiteral("coolAccess"), false},
             {QStringLiteral("provisioningState"), v.provisioningState},
         }},
    };
}

QJsonObject AzureState::snapshotJson(const Volume &v, const Snapshot &s) const
{
    return QJsonObject{
        {QStringLiteral("id"), QString(volumeId(v) + QStringLiteral("/snapshots/") + s.name)},
        {QStringLiteral("name"),
         QString(v.account + QLatin1Char('/') + v.pool + QLatin1Char('/') + v.name + QLatin1Char('/') + s.name)},
        {QStringLiteral("type"), QStringLiteral("Microsoft.NetApp/netAppAccounts/capacityPools/volumes/snapshots")},
        {QStringLiteral("location"), v.location},
        {QStringLiteral("properties"),
         QJsonObject{{QStringLiteral("snapshotId"), s.snapshotId},
                     {QStringLiteral("created"), isoTime(s.createdMs)},
                     {QStringLiteral("provisioningState"), s.provisioningState}}},
    };
}

void AzureState::listAccounts(const std::shared_ptr<AzureExchange> &ex, const QString &rg)
{
    std::vector<const Account *> list;
    for (const Account &a : accounts) {
        if (rg.isEmpty() || same(a.resourceGroup, rg)) {
            list.push_back(&a);
        }
    }
    std::sort(list.begin(), list.end(), [](const Account *a, const Account *b) {
        return std::make_pair(a->resourceGroup.toLower(), a->name.toLower())
               < std::make_pair(b->resourceGroup.toLower(), b->name.toLower());
    });
    QJsonArray items;
    for (const Account *a : list) {
        items.append(accountJson(*a));
    }
    sendList(ex, items);
}

void AzureState::routeNetApp(const std::shared_ptr<AzureExchange> &ex, const QString &rg, const QStringList &n)
{
    const QByteArray &method = ex->request.method;
    if (n.isEmpty()) {
        if (method != "GET") {
            methodNotAllowed(ex);
            return;
        }
        listAccounts(ex, rg);
        return;
    }
    Account *account = findAccount(rg, n[0]);
    if (n.size() == 1) {
        accountRequest(ex, rg, n[0], account);
        return;
    }
    if (!account) {
        notFound(ex, QStringLiteral("Microsoft.NetApp/netAppAccounts/%1").arg(n[0]), rg);
        return;
    }
    if (!same(n[1], QStringLiteral("capacityPools"))) {
        if (method == "GET" && n.size() == 2) {
            sendList(ex, {}); // snapshotPolicies, backupPolicies, volumeGroups: none here
            return;
        }
        invalidResourceType(ex, QStringLiteral("Microsoft.NetApp"), QStringLiteral("netAppAccounts/") + n[1]);
        return;
    }
    if (n.size() == 2) {
        if (method != "GET") {
            methodNotAllowed(ex);
            return;
        }
        std::vector<Pool *> list;
        for (Pool &p : pools) {
            if (same(p.resourceGroup, rg) && same(p.account, account->name)) {
                list.push_back(&p);
            }
        }
        std::sort(list.begin(), list.end(), [](const Pool *a, const Pool *b) {
            return a->name.compare(b->name, Qt::CaseInsensitive) < 0;
        });
        QJsonArray items;
        for (Pool *p : list) {
            items.append(poolJson(*p));
        }
        sendList(ex, items);
        return;
    }
    Pool *pool = findPool(rg, account->name, n[2]);
    if (n.size() == 3) {
        poolRequest(ex, *account, n[2], pool);
        return;
    }
    const QString poolType =
        QStringLiteral("Microsoft.NetApp/netAppAccounts/%1/capacityPools/%2").arg(account->name, n[2]);
    if (!pool) {
        notFound(ex, poolType, rg);
        return;
    }
    if (!same(n[3], QStringLiteral("volumes"))) {
        invalidResourceType(ex, QStringLiteral("Microsoft.NetApp"), QStringLiteral("capacityPools/") + n[3]);
        return;
    }
    if (n.size() == 4) {
        if (method != "GET") {
            methodNotAllowed(ex);
            return;
        }
        QJsonArray items;
        for (Volume *v : volumesIn(*pool)) {
            items.append(volumeJson(*v));
        }
        sendList(ex, items);
        return;
    }
    Volume *volume = findVolume(rg, account->name, pool->name, n[4]);
    if (n.size() == 5) {
        volumeRequest(ex, *pool, n[4], volume);
        return;
    }
    if (!volume) {
        notFound(ex, poolType + QStringLiteral("/volumes/") + n[4], rg);
        return;
    }
    if (n.size() == 6 && same(n[5], QStringLiteral("poolChange"))) {
        poolChange(ex, *volume);
        return;
    }
    if (n.size() == 6 && same(n[5], QStringLiteral("revert"))) {
        revert(ex, *volume);
        return;
    }
    if (same(n[5], QStringLiteral("snapshots")) && n.size() <= 7) {
        snapshotRequest(ex, *volume, n.size() == 7 ? n[6] : QString());
        return;
    }
    if (n.size() == 8 && same(n[5], QStringLiteral("providers")) && same(n[6], QStringLiteral("Microsoft.Insights"))
        && same(n[7], QStringLiteral("metrics"))) {
        metrics(ex, *volume);
        return;
    }
    invalidResourceType(
        ex, QStringLiteral("Microsoft.NetApp"), QStringLiteral("volumes/") + n.mid(5).join(QLatin1Char('/')));
}

void AzureState::accountRequest(const std::shared_ptr<AzureExchange> &ex,
                                const QString &rg,
                                const QString &name,
                                Account *account)
{
    const QByteArray &method = ex->request.method;
    const QString type = QStringLiteral("Microsoft.NetApp/netAppAccounts/%1").arg(name);
    if (method == "GET") {
        if (!account) {
            notFound(ex, type, rg);
            return;
        }
        sendJson(ex, 200, accountJson(*account), {{QByteArrayLiteral("ETag"), etagFor(account->modifiedMs).toUtf8()}});
        return;
    }
    if (method == "PUT" || method == "PATCH") {
        const std::optional<QJsonObject> body = bodyObject(ex);
        if (!body) {
            return;
        }
        if (account) {
            account->modifiedMs = nowMs();
            Operation &op =
                startOperation(ex, accountId(rg, account->name), QStringLiteral("UPDATE"), QStringLiteral("Updating"));
            sendJson(ex, 200, accountJson(*account), lroHeaders(op, ex->apiVersion, false));
            return;
        }
        if (method == "PATCH") {
            notFound(ex, type, rg);
            return;
        }
        const QString location = requireLocation(ex, *body);
        if (location.isEmpty()) {
            return;
        }
        accounts.push_back(Account{rg, name, location, QStringLiteral("Creating"), nowMs()});
        Operation &op = startOperation(ex, accountId(rg, name), QStringLiteral("CREATE"), QStringLiteral("Creating"));
        op.apply = [this, rg, name]() -> std::optional<ArmError> {
            if (Account *a = findAccount(rg, name)) {
                a->provisioningState = QStringLiteral("Succeeded");
            }
            return std::nullopt;
        };
        op.onFailed = [this, rg, name] {
            if (Account *a = findAccount(rg, name)) {
                a->provisioningState = QStringLiteral("Failed");
            }
        };
        op.result = [this, rg, name]() -> std::optional<QJsonObject> {
            if (Account *a = findAccount(rg, name)) {
                return accountJson(*a);
            }
            return std::nullopt;
        };
        sendJson(ex, 201, accountJson(accounts.back()), lroHeaders(op, ex->apiVersion, false));
        return;
    }
    if (method == "DELETE") {
        if (!account) {
            sendArm(ex, 204, {});
            return;
        }
        for (const Pool &p : pools) {
            if (same(p.resourceGroup, rg) && same(p.account, account->name)) {
                nestedResourcesExist(ex);
                return;
            }
        }
        account->provisioningState = QStringLiteral("Deleting");
        Operation &op =
            startOperation(ex, accountId(rg, account->name), QStringLiteral("DELETE"), QStringLiteral("Deleting"));
        op.apply = [this, rg, name]() -> std::optional<ArmError> {
            accounts.erase(std::remove_if(accounts.begin(),
                                          accounts.end(),
                                          [&](const Account &a) {
                                              return same(a.resourceGroup, rg) && same(a.name, name);
                                          }),
                           accounts.end());
            return std::nullopt;
        };
        sendArm(ex, 202, {}, lroHeaders(op, ex->apiVersion, true));
        return;
    }
    methodNotAllowed(ex);
}

void AzureState::poolRequest(const std::shared_ptr<AzureExchange> &ex,
                             const Account &account,
                             const QString &name,
                             Pool *pool)
{
    const QByteArray &method = ex->request.method;
    const QString rg = account.resourceGroup;
    const QString type = QStringLiteral("Microsoft.NetApp/netAppAccounts/%1/capacityPools/%2").arg(account.name, name);
    if (method == "GET") {
        if (!pool) {
            notFound(ex, type, rg);
            return;
        }
        sendJson(ex, 200, poolJson(*pool), {{QByteArrayLiteral("ETag"), etagFor(pool->modifiedMs).toUtf8()}});
        return;
    }
    if (method == "PUT" || method == "PATCH") {
        const std::optional<QJsonObject> body = bodyObject(ex);
        if (!body) {
            return;
        }
        const QJsonObject props = body->value(QStringLiteral("properties")).toObject();
        if (!pool && method == "PATCH") {
            notFound(ex, type, rg);
            return;
        }
        const QJsonValue sizeValue = props.value(QStringLiteral("size"));
        if (!pool && sizeValue.isUndefined()) {
            armError(
                ex, 400, QStringLiteral("InvalidParameter"), QStringLiteral("The capacity pool size is required."));
            return;
        }
        if (!sizeValue.isUndefined()) {
            const double size = sizeValue.toDouble(-1);
            if (size < double(TiB) || size > double(MaxPoolSize) || std::fmod(size, double(TiB)) != 0) {
                armError(ex,
                         400,
                         QStringLiteral("InvalidPoolSize"),
                         QStringLiteral("Capacity pool size must be a multiple of 1 TiB (1099511627776 bytes) "
                                        "between 1 TiB and 2048 TiB; %1 bytes was requested.")
                             .arg(qint64(size)));
                return;
            }
        }
        const QString levelIn = props.value(QStringLiteral("serviceLevel")).toString();
        const QString level = canonicalLevel(levelIn);
        if ((!pool || !levelIn.isEmpty()) && level.isEmpty()) {
            armError(ex,
                     400,
                     QStringLiteral("InvalidServiceLevel"),
                     QStringLiteral("The service level '%1' is not valid here; use Standard, Premium or Ultra.")
                         .arg(levelIn));
            return;
        }
        const QString qos = props.value(QStringLiteral("qosType")).toString(QStringLiteral("Auto"));
        if (!same(qos, QStringLiteral("Auto")) && !same(qos, QStringLiteral("Manual"))) {
            armError(ex, 400, QStringLiteral("InvalidParameter"), QStringLiteral("qosType must be Auto or Manual."));
            return;
        }
        if (pool) {
            if (!levelIn.isEmpty() && level != pool->serviceLevel) {
                armError(ex,
                         400,
                         QStringLiteral("InvalidParameter"),
                         QStringLiteral("The service level of an existing capacity pool cannot be changed; move "
                                        "its volumes to a pool of the other level with poolChange."));
                return;
            }
            if (!sizeValue.isUndefined()) {
                const qint64 size = qint64(sizeValue.toDouble());
                if (size < allocated(*pool)) {
                    armError(ex,
                             400,
                             QStringLiteral("PoolSizeTooSmall"),
                             QStringLiteral("The capacity pool size cannot be smaller than the sum of its volume "
                                            "quotas (%1 bytes).")
                                 .arg(allocated(*pool)));
                    return;
                }
                pool->size = size;
            }
            pool->modifiedMs = nowMs();
            Operation &op = startOperation(ex, poolId(*pool), QStringLiteral("UPDATE"), QStringLiteral("Updating"));
            sendJson(ex, 200, poolJson(*pool), lroHeaders(op, ex->apiVersion, false));
            return;
        }
        const QString location = requireLocation(ex, *body);
        if (location.isEmpty()) {
            return;
        }
        Pool &created = addPool(rg, account.name, name, level, qint64(sizeValue.toDouble()));
        created.location = location;
        created.qosType = same(qos, QStringLiteral("Manual")) ? QStringLiteral("Manual") : QStringLiteral("Auto");
        created.provisioningState = QStringLiteral("Creating");
        created.modifiedMs = nowMs();
        const QString uuid = created.poolId;
        Operation &op = startOperation(ex, poolId(created), QStringLiteral("CREATE"), QStringLiteral("Creating"));
        op.apply = [this, uuid]() -> std::optional<ArmError> {
            if (Pool *p = findPoolByUuid(uuid)) {
                p->provisioningState = QStringLiteral("Succeeded");
            }
            return std::nullopt;
        };
        op.onFailed = [this, uuid] {
            if (Pool *p = findPoolByUuid(uuid)) {
                p->provisioningState = QStringLiteral("Failed");
            }
        };
        op.result = [this, uuid]() -> std::optional<QJsonObject> {
            if (Pool *p = findPoolByUuid(uuid)) {
                return poolJson(*p);
            }
            return std::nullopt;
        };
        sendJson(ex, 201, poolJson(*findPoolByUuid(uuid)), lroHeaders(op, ex->apiVersion, false));
        return;
    }
    if (method == "DELETE") {
        if (!pool) {
            sendArm(ex, 204, {});
            return;
        }
        if (!volumesIn(*pool).empty()) {
            nestedResourcesExist(ex);
            return;
        }
        pool->provisioningState = QStringLiteral("Deleting");
        const QString uuid = pool->poolId;
        Operation &op = startOperation(ex, poolId(*pool), QStringLiteral("DELETE"), QStringLiteral("Deleting"));
        op.apply = [this, uuid]() -> std::optional<ArmError> {
            pools.erase(std::remove_if(pools.begin(),
                                       pools.end(),
                                       [&](const Pool &p) {
                                           return p.poolId == uuid;
                                       }),
                        pools.end());
            return std::nullopt;
        };
        op.onFailed = [this, uuid] {
            if (Pool *p = findPoolByUuid(uuid)) {
                p->provisioningState = QStringLiteral("Succeeded");
            }
        };
        sendArm(ex, 202, {}, lroHeaders(op, ex->apiVersion, true));
        return;
    }
    methodNotAllowed(ex);
}

} // namespace strata::sim::azure
