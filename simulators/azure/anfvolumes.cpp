#include "simulators/azure/azurestate.h"

#include <QJsonArray>

#include <algorithm>

namespace strata::sim::azure {

void AzureState::volumeRequest(const std::shared_ptr<AzureExchange> &ex,
                               Pool &pool,
                               const QString &name,
                               Volume *volume)
{
    const QByteArray &method = ex->request.method;
    const QString rg = pool.resourceGroup;
    const QString type = QStringLiteral("Microsoft.NetApp/netAppAccounts/%1/capacityPools/%2/volumes/%3")
                             .arg(pool.account, pool.name, name);
    if (method == "GET") {
        if (!volume) {
            notFound(ex, type, rg);
            return;
        }
        sendJson(ex, 200, volumeJson(*volume), {{QByteArrayLiteral("ETag"), etagFor(volume->modifiedMs).toUtf8()}});
        return;
    }
    if (method == "PUT" || method == "PATCH") {
        const std::optional<QJsonObject> body = bodyObject(ex);
        if (!body) {
            return;
        }
        if (!volume && method == "PATCH") {
            notFound(ex, type, rg);
            return;
        }
        const QJsonObject props = body->value(QStringLiteral("properties")).toObject();
        const QJsonValue quotaValue = props.value(QStringLiteral("usageThreshold"));
        if (!volume && quotaValue.isUndefined()) {
            armError(ex, 400, QStringLiteral("InvalidParameter"), QStringLiteral("usageThreshold is required."));
            return;
        }
        const qint64 quota = quotaValue.isUndefined() ? volume->usageThreshold : qint64(quotaValue.toDouble(-1));
        if (quota < MinVolumeQuota || quota > MaxVolumeQuota) {
            armError(ex,
                     400,
                     QStringLiteral("InvalidVolumeQuota"),
                     QStringLiteral("Volume quota (usageThreshold) must be between 100 GiB (107374182400 bytes) "
                                    "and 100 TiB (109951162777600 bytes); %1 bytes was requested.")
                         .arg(quota));
            return;
        }
        if (allocated(pool, volume) + quota > pool.size) {
            armError(ex,
                     400,
                     QStringLiteral("PoolSizeTooSmall"),
                     QStringLiteral("Capacity pool '%1' has %2 GiB unallocated; the volume needs %3 GiB. Resize "
                                    "the capacity pool or choose another one.")
                         .arg(pool.name)
                         .arg((pool.size - allocated(pool, volume)) / GiB)
                         .arg(quota / GiB));
            return;
        }
        if (volume) {
            if (busy(volume->fileSystemId)) {
                anotherOperation(ex, *volume);
                return;
            }
            volume->usageThreshold = quota;
            if (pool.qosType == QLatin1String("Auto")) {
                volume->throughputMibps = autoThroughput(pool.serviceLevel, quota);
            } else if (props.contains(QStringLiteral("throughputMibps"))) {
                volume->throughputMibps = props.value(QStringLiteral("throughputMibps")).toDouble();
            }
            volume->capHistory.push_back({nowMs(), volume->throughputMibps});
            volume->modifiedMs = nowMs();
            Operation &op = startOperation(ex, volumeId(*volume), QStringLiteral("UPDATE"), QStringLiteral("Updating"));
            sendJson(ex, 200, volumeJson(*volume), lroHeaders(op, ex->apiVersion, false));
            return;
        }
        const QString location = requireLocation(ex, *body);
        if (location.isEmpty()) {
            return;
        }
        const QString creationToken = props.value(QStringLiteral("creationToken")).toString();
        const QString subnetId = props.value(QStringLiteral("subnetId")).toString();
        if (creationToken.isEmpty() || subnetId.isEmpty()) {
            armError(ex,
                     400,
                     QStringLiteral("InvalidParameter"),
                     QStringLiteral("creationToken and subnetId are required to create a volume."));
            return;
        }
        for (const auto &v : volumes) {
            if (same(v->creationToken, creationToken) && same(v->location, location)) {
                armError(ex,
                         409,
                         QStringLiteral("DuplicateCreationToken"),
                         QStringLiteral("The file path '%1' is already in use in this location.").arg(creationToken));
                return;
            }
        }
        if (volumesIn(pool).size() >= MaxVolumesPerPool) {
            armError(ex,
                     400,
                     QStringLiteral("MaxVolumesPerPoolReached"),
                     QStringLiteral("Capacity pool '%1' already has the maximum of %2 volumes.")
                         .arg(pool.name)
                         .arg(MaxVolumesPerPool));
            return;
        }
        const QString level = props.contains(QStringLiteral("serviceLevel"))
                                  ? canonicalLevel(props.value(QStringLiteral("serviceLevel")).toString())
                                  : pool.serviceLevel;
        if (level != pool.serviceLevel) {
            armError(ex,
                     400,
                     QStringLiteral("InvalidParameter"),
                     QStringLiteral("The volume's service level must match its capacity pool's (%1).")
                         .arg(pool.serviceLevel));
            return;
        }
        const qint64 now = nowMs();
        const int ordinal = int(volumes.size());
        Volume &v = addVolume(pool, name, quota, QStringLiteral("10.0.2.%1").arg(4 + ordinal % 250), now);
        v.location = location;
        v.creationToken = creationToken;
        v.subnetId = subnetId;
        v.provisioningState = QStringLiteral("Creating");
        if (props.contains(QStringLiteral("protocolTypes"))) {
            v.protocolTypes.clear();
            for (const QJsonValue &p : props.value(QStringLiteral("protocolTypes")).toArray()) {
                v.protocolTypes.append(p.toString());
            }
        }
        if (pool.qosType == QLatin1String("Manual")) {
            v.throughputMibps = props.value(QStringLiteral("throughputMibps")).toDouble(0);
            v.capHistory = {{now, v.throughputMibps}};
        }
        const QString fsid = v.fileSystemId;
        Operation &op = startOperation(ex, volumeId(v), QStringLiteral("CREATE"), QStringLiteral("Creating"));
        op.busyKey = fsid;
        op.apply = [this, fsid]() -> std::optional<ArmError> {
            if (Volume *x = findVolumeByFsid(fsid)) {
                x->provisioningState = QStringLiteral("Succeeded");
            }
            return std::nullopt;
        };
        op.onFailed = [this, fsid] {
            if (Volume *x = findVolumeByFsid(fsid)) {
                x->provisioningState = QStringLiteral("Failed");
            }
        };
        op.result = [this, fsid]() -> std::optional<QJsonObject> {
            if (Volume *x = findVolumeByFsid(fsid)) {
                return volumeJson(*x);
            }
            return std::nullopt;
        };
        sendJson(ex, 201, volumeJson(v), lroHeaders(op, ex->apiVersion, false));
        return;
    }
    if (method == "DELETE") {
        if (!volume) {
            sendArm(ex, 204, {});
            return;
        }
        if (busy(volume->fileSystemId)) {
            anotherOperation(ex, *volume);
            return;
        }
        volume->provisioningState = QStringLiteral("Deleting");
        const QString fsid = volume->fileSystemId;
        Operation &op = startOperation(ex, volumeId(*volume), QStringLiteral("DELETE"), QStringLiteral("Deleting"));
        op.busyKey = fsid;
        op.apply = [this, fsid]() -> std::optional<ArmError> {
            removeVolume(fsid);
            return std::nullopt;
        };
        op.onFailed = [this, fsid] {
            if (Volume *x = findVolumeByFsid(fsid)) {
                x->provisioningState = QStringLiteral("Succeeded");
            }
        };
        sendArm(ex, 202, {}, lroHeaders(op, ex->apiVersion, true));
        return;
    }
    methodNotAllowed(ex);
}

void AzureState::anotherOperation(const std::shared_ptr<AzureExchange> &ex, const Volume &v)
{
    armError(
        ex,
        409,
        QStringLiteral("AnotherOperationInProgress"),
        QStringLiteral("Another operation is in progress on volume '%1'. Try again when it has finished.").arg(v.name));
}

void AzureState::poolChange(const std::shared_ptr<AzureExchange> &ex, Volume &volume)
{
    const std::optional<QJsonObject> body = actionBody(ex);
    if (!body) {
        return;
    }
    const QString target = body->value(QStringLiteral("newPoolResourceId")).toString();
    const std::map<QString, QString> id = parseId(target);
    auto part = [&](const char *key) {
        const auto it = id.find(QLatin1String(key));
        return it == id.end() ? QString() : it->second;
    };
    if (target.isEmpty() || part("capacitypools").isEmpty() || !same(part("subscriptions"), opt.subscriptionId)) {
        armError(ex,
                 400,
                 QStringLiteral("InvalidResourceId"),
                 QStringLiteral("newPoolResourceId '%1' is not a capacity pool resource id.").arg(target));
        return;
    }
    if (!same(part("resourcegroups"), volume.resourceGroup) || !same(part("netappaccounts"), volume.account)) {
        armError(ex,
                 400,
                 QStringLiteral("PoolChangeAcrossAccountsNotSupported"),
                 QStringLiteral("A volume can only move to a capacity pool of its own NetApp account ('%1').")
                     .arg(volume.account));
        return;
    }
    Pool *targetPool = findPool(volume.resourceGroup, volume.account, part("capacitypools"));
    if (!targetPool) {
        notFound(ex,
                 QStringLiteral("Microsoft.NetApp/netAppAccounts/%1/capacityPools/%2")
                     .arg(volume.account, part("capacitypools")),
                 volume.resourceGroup);
        return;
    }
    if (same(targetPool->name, volume.pool)) {
        armError(ex,
                 400,
                 QStringLiteral("InvalidParameter"),
                 QStringLiteral("Volume '%1' is already in capacity pool '%2'.").arg(volume.name, targetPool->name));
        return;
    }
    if (busy(volume.fileSystemId)) {
        anotherOperation(ex, volume);
        return;
    }
    if (auto error = checkRoom(*targetPool, volume)) {
        armError(ex, 400, error->code, error->message);
        return;
    }
    const QString fsid = volume.fileSystemId;
    const QString targetUuid = targetPool->poolId;
    Operation &op = startOperation(ex, volumeId(volume), QStringLiteral("POOLCHANGE"), QStringLiteral("InProgress"));
    op.busyKey = fsid;
    op.apply = [this, fsid, targetUuid]() -> std::optional<ArmError> {
        Volume *v = findVolumeByFsid(fsid);
        if (!v) {
            return ArmError{QStringLiteral("ResourceNotFound"),
                            QStringLiteral("The volume was deleted while it was moving to another capacity pool.")};
        }
        Pool *p = findPoolByUuid(targetUuid);
        if (!p) {
            return ArmError{QStringLiteral("ResourceNotFound"),
                            QStringLiteral("The target capacity pool was deleted during the pool change.")};
        }
        if (auto room = checkRoom(*p, *v)) {
            return room;
        }
        const qint64 now = nowMs();
        v->pool = p->name;
        v->serviceLevel = p->serviceLevel;
        if (p->qosType == QLatin1String("Auto")) {
            v->throughputMibps = autoThroughput(p->serviceLevel, v->usageThreshold);
        }
        v->capHistory.push_back({now, v->throughputMibps});
        v->modifiedMs = now;
        return std::nullopt;
    };
    sendArm(ex, 202, {}, lroHeaders(op, ex->apiVersion, true));
}

std::optional<ArmError> AzureState::checkRoom(Pool &target, const Volume &volume)
{
    const qint64 free = target.size - allocated(target);
    if (volume.usageThreshold > free) {
        return ArmError{QStringLiteral("PoolSizeTooSmall"),
                        QStringLiteral("Capacity pool '%1' has %2 GiB unallocated; volume '%3' needs %4 GiB. "
                                       "Resize the capacity pool or choose another one.")
                            .arg(target.name)
                            .arg(free / GiB)
                            .arg(volume.name)
                            .arg(volume.usageThreshold / GiB)};
    }
    if (volumesIn(target).size() >= MaxVolumesPerPool) {
        return ArmError{QStringLiteral("MaxVolumesPerPoolReached"),
                        QStringLiteral("Capacity pool '%1' already has the maximum of %2 volumes.")
                            .arg(target.name)
                            .arg(MaxVolumesPerPool)};
    }
    return std::nullopt;
}

void AzureState::revert(const std::shared_ptr<AzureExchange> &ex, Volume &volume)
{
    const std::optional<QJsonObject> body = actionBody(ex);
    if (!body) {
        return;
    }
    const QString snapshotRef = body->value(QStringLiteral("snapshotId")).toString();
    const QString snapshotName = parseId(snapshotRef)[QStringLiteral("snapshots")];
    const auto it = std::find_if(volume.snapshots.begin(), volume.snapshots.end(), [&](const Snapshot &s) {
        return s.snapshotId == snapshotRef || (!snapshotName.isEmpty() && same(s.name, snapshotName));
    });
    if (snapshotRef.isEmpty() || it == volume.snapshots.end()) {
        armError(ex,
                 404,
                 QStringLiteral("SnapshotNotFound"),
                 QStringLiteral("Snapshot '%1' of volume '%2' was not found.").arg(snapshotRef, volume.name));
        return;
    }
    if (busy(volume.fileSystemId)) {
        anotherOperation(ex, volume);
        return;
    }
    const QString fsid = volume.fileSystemId;
    const QString snapId = it->snapshotId;
    Operation &op = startOperation(ex, volumeId(volume), QStringLiteral("REVERT"), QStringLiteral("InProgress"));
    op.busyKey = fsid;
    op.apply = [this, fsid, snapId]() -> std::optional<ArmError> {
        Volume *v = findVolumeByFsid(fsid);
        if (!v) {
            return ArmError{QStringLiteral("ResourceNotFound"),
                            QStringLiteral("The volume was deleted during the revert.")};
        }
        // Snapshots newer than the one reverted to are gone afterwards, as in ANF.
        const auto s = std::find_if(v->snapshots.begin(), v->snapshots.end(), [&](const Snapshot &x) {
            return x.snapshotId == snapId;
        });
        if (s == v->snapshots.end()) {
            return ArmError{QStringLiteral("SnapshotNotFound"),
                            QStringLiteral("The snapshot was deleted during the revert.")};
        }
        const qint64 at = s->createdMs;
        v->snapshots.erase(std::remove_if(v->snapshots.begin(),
                                          v->snapshots.end(),
                                          [&](const Snapshot &x) {
                                              return x.createdMs > at;
                                          }),
                           v->snapshots.end());
        v->modifiedMs = nowMs();
        return std::nullopt;
    };
    sendArm(ex, 202, {}, lroHeaders(op, ex->apiVersion, true));
}

void AzureState::snapshotRequest(const std::shared_ptr<AzureExchange> &ex, Volume &volume, const QString &name)
{
    const QByteArray &method = ex->request.method;
    const QString fsid = volume.fileSystemId;
    if (name.isEmpty()) {
        if (method != "GET") {
            methodNotAllowed(ex);
            return;
        }
        std::vector<const Snapshot *> list;
        for (const Snapshot &s : volume.snapshots) {
            list.push_back(&s);
        }
        std::sort(list.begin(), list.end(), [](const Snapshot *a, const Snapshot *b) {
            return a->createdMs < b->createdMs;
        });
        QJsonArray items;
        for (const Snapshot *s : list) {
            items.append(snapshotJson(volume, *s));
        }
        sendList(ex, items);
        return;
    }
    auto find = [this](const QString &fs, const QString &n) -> Snapshot * {
        Volume *v = findVolumeByFsid(fs);
        if (!v) {
            return nullptr;
        }
        for (Snapshot &s : v->snapshots) {
            if (same(s.name, n)) {
                return &s;
            }
        }
        return nullptr;
    };
    Snapshot *snapshot = find(fsid, name);
    const QString type = QStringLiteral("Microsoft.NetApp/netAppAccounts/%1/capacityPools/%2/volumes/%3/snapshots/%4")
                             .arg(volume.account, volume.pool, volume.name, name);
    if (method == "GET") {
        if (!snapshot) {
            notFound(ex, type, volume.resourceGroup);
            return;
        }
        sendJson(ex, 200, snapshotJson(volume, *snapshot));
        return;
    }
    if (method == "PUT") {
        const std::optional<QJsonObject> body = bodyObject(ex);
        if (!body) {
            return;
        }
        if (snapshot) {
            sendJson(ex, 200, snapshotJson(volume, *snapshot));
            return;
        }
        if (requireLocation(ex, *body).isEmpty()) {
            return;
        }
        addSnapshot(volume, name, nowMs());
        volume.snapshots.back().provisioningState = QStringLiteral("Creating");
        const QString snapId = volume.snapshots.back().snapshotId;
        Operation &op = startOperation(ex,
                                       volumeId(volume) + QStringLiteral("/snapshots/") + name,
                                       QStringLiteral("CREATE"),
                                       QStringLiteral("Creating"));
        auto findById = [this, fsid, snapId]() -> std::pair<Volume *, Snapshot *> {
            Volume *v = findVolumeByFsid(fsid);
            if (v) {
                for (Snapshot &s : v->snapshots) {
                    if (s.snapshotId == snapId) {
                        return {v, &s};
                    }
                }
            }
            return {v, nullptr};
        };
        op.apply = [findById]() -> std::optional<ArmError> {
            auto [v, s] = findById();
            if (!s) {
                return ArmError{QStringLiteral("ResourceNotFound"), QStringLiteral("The volume was deleted.")};
            }
            s->provisioningState = QStringLiteral("Succeeded");
            return std::nullopt;
        };
        op.onFailed = [findById] {
            auto [v, s] = findById();
            if (s) {
                s->provisioningState = QStringLiteral("Failed");
            }
        };
        op.result = [this, findById]() -> std::optional<QJsonObject> {
            auto [v, s] = findById();
            if (!s) {
                return std::nullopt;
            }
            return snapshotJson(*v, *s);
        };
        sendJson(ex, 201, snapshotJson(volume, volume.snapshots.back()), lroHeaders(op, ex->apiVersion, false));
        return;
    }
    if (method == "DELETE") {
        if (!snapshot) {
            sendArm(ex, 204, {});
            return;
        }
        snapshot->provisioningState = QStringLiteral("Deleting");
        const QString snapId = snapshot->snapshotId;
        Operation &op = startOperation(ex,
                                       volumeId(volume) + QStringLiteral("/snapshots/") + name,
                                       QStringLiteral("DELETE"),
                                       QStringLiteral("Deleting"));
        op.apply = [this, fsid, snapId]() -> std::optional<ArmError> {
            if (Volume *v = findVolumeByFsid(fsid)) {
                v->snapshots.erase(std::remove_if(v->snapshots.begin(),
                                                  v->snapshots.end(),
                                                  [&](const Snapshot &s) {
                                                      return s.snapshotId == snapId;
                                                  }),
                                   v->snapshots.end());
            }
            return std::nullopt;
        };
        op.onFailed = [this, fsid, snapId] {
            if (Volume *v = findVolumeByFsid(fsid)) {
                for (Snapshot &s : v->snapshots) {
                    if (s.snapshotId == snapId) {
                        s.provisioningState = QStringLiteral("Succeeded");
                    }
                }
            }
        };
        sendArm(ex, 202, {}, lroHeaders(op, ex->apiVersion, true));
        return;
    }
    methodNotAllowed(ex);
}

} // namespace strata::sim::azure
