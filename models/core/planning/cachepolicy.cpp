#include "models/core/planning/cachepolicy.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace strata::core {

namespace {

constexpr int kMaxUsedBy = 20;

QString iso(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QDateTime fromIso(const QJsonValue &value)
{
    const QString text = value.toString();
    if (text.isEmpty()) {
        return {};
    }
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid()) {
        time = QDateTime::fromString(text, Qt::ISODate);
    }
    return time.isValid() ? time.toUTC() : QDateTime();
}

QString dnsLabel(QString name)
{
    name.truncate(63);
    while (name.endsWith(QLatin1Char('-'))) {
        name.chop(1);
    }
    return name;
}

qint64 number(const QJsonObject &object, const char *key)
{
    const double value = object.value(QLatin1String(key)).toDouble(0);
    return value > 0 ? static_cast<qint64>(value) : 0;
}

// Bytes a commit still occupies or will occupy on its target.
qint64 footprint(const CachedCommit &c)
{
    switch (c.state) {
    case CacheState::Requested:
    case CacheState::Loading:
        return std::max(c.bytesTotal, c.bytesDone);
    case CacheState::Ready:
    case CacheState::Evicting:
        return c.bytesTotal > 0 ? c.bytesTotal : c.bytesDone;
    case CacheState::Failed:
        return c.bytesDone;
    case CacheState::Evicted:
        return 0;
    }
    return 0;
}

QList<const CachedCommit *> readyByLastUse(const QList<CachedCommit> &commits)
{
    QList<const CachedCommit *> ready;
    for (const CachedCommit &c : commits) {
        if (c.state == CacheState::Ready) {
            ready.append(&c);
        }
    }
    std::stable_sort(ready.begin(), ready.end(), [](const CachedCommit *a, const CachedCommit *b) {
        const QDateTime la = lastActivity(*a), lb = lastActivity(*b);
        return la != lb ? la < lb : a->commitId < b->commitId;
    });
    return ready;
}

} // namespace

QString commitShort(const QString &commitId)
{
    return commitId.left(16);
}

QString cachePath(const QString &datasetName, const QString &commitId)
{
    return datasetName + QLatin1Char('/') + commitShort(commitId);
}

QString cacheConfigMapName(const QString &target)
{
    return QStringLiteral("strata-cache-") + target;
}

QString loaderJobName(const QString &commitId, const QString &target)
{
    return dnsLabel(QStringLiteral("strata-load-") + commitShort(commitId) + QLatin1Char('-') + target);
}

QString evictorJobName(const QString &commitId, const QString &target)
{
    return dnsLabel(QStringLiteral("strata-evict-") + commitShort(commitId) + QLatin1Char('-') + target);
}

QByteArray cacheRecordToJson(const CachedCommit &r)
{
    QJsonArray usedBy;
    for (const QString &job : r.usedBy) {
        usedBy.append(job);
    }
    const QJsonObject object{
        {QStringLiteral("state"), cacheStateName(r.state)},
        {QStringLiteral("dataset"), r.datasetName},
        {QStringLiteral("datasetSource"), r.datasetSource},
        {QStringLiteral("datasetId"), r.datasetId},
        {QStringLiteral("objectsDone"), double(r.objectsDone)},
        {QStringLiteral("objectsTotal"), double(r.objectsTotal)},
        {QStringLiteral("bytesDone"), double(r.bytesDone)},
        {QStringLiteral("bytesTotal"), double(r.bytesTotal)},
        {QStringLiteral("path"), r.path},
        {QStringLiteral("job"), r.job},
        {QStringLiteral("reason"), r.reason},
        {QStringLiteral("requested"), iso(r.requested)},
        {QStringLiteral("readyAt"), iso(r.readyAt)},
        {QStringLiteral("lastUsed"), iso(r.lastUsed)},
        {QStringLiteral("usedBy"), usedBy},
    };
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

Result<CachedCommit> cacheRecordFromJson(const QByteArray &json)
{
    const auto fail = [](const QString &message) {
        return core::fail(Error::invalid({}, message));
    };
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        return fail(
            QStringLiteral("invalid JSON at offset %1: %2").arg(parseError.offset).arg(parseError.errorString()));
    }
    if (!document.isObject()) {
        return fail(QStringLiteral("not a JSON object"));
    }
    const QJsonObject o = document.object();
    const QString stateName = o.value(QLatin1String("state")).toString();
    const std::optional<CacheState> state = cacheStateFromName(stateName);
    if (!state) {
        return fail(stateName.isEmpty() ? QStringLiteral("missing \"state\"")
                                        : QStringLiteral("unknown state \"%1\"").arg(stateName));
    }
    CachedCommit r;
    r.state = *state;
    r.datasetName = o.value(QLatin1String("dataset")).toString();
    r.datasetSource = o.value(QLatin1String("datasetSource")).toString();
    r.datasetId = o.value(QLatin1String("datasetId")).toString();
    r.objectsDone = number(o, "objectsDone");
    r.objectsTotal = number(o, "objectsTotal");
    r.bytesDone = number(o, "bytesDone");
    r.bytesTotal = number(o, "bytesTotal");
    r.path = o.value(QLatin1String("path")).toString();
    r.job = o.value(QLatin1String("job")).toString();
    r.reason = o.value(QLatin1String("reason")).toString();
    r.requested = fromIso(o.value(QLatin1String("requested")));
    r.readyAt = fromIso(o.value(QLatin1String("readyAt")));
    r.lastUsed = fromIso(o.value(QLatin1String("lastUsed")));
    for (const QJsonValue &job : o.value(QLatin1String("usedBy")).toArray()) {
        if (job.isString() && !job.toString().isEmpty()) {
            r.usedBy.append(job.toString());
        }
    }
    return r;
}

std::optional<LoaderEvent> lastLoaderEvent(const QByteArray &log)
{
    const QList<QByteArray> lines = log.split('\n');
    for (qsizetype i = lines.size() - 1; i >= 0; --i) {
        const QByteArray line = lines[i].trimmed();
        if (line.isEmpty()) {
            continue;
        }
        const QJsonDocument document = QJsonDocument::fromJson(line);
        if (!document.isObject()) {
            continue;
        }
        const QJsonObject o = document.object();
        const QString name = o.value(QLatin1String("event")).toString();
        LoaderEvent event;
        if (name == QLatin1String("progress")) {
            event.kind = LoaderEvent::Kind::Progress;
        } else if (name == QLatin1String("ready")) {
            event.kind = LoaderEvent::Kind::Ready;
        } else if (name == QLatin1String("failed")) {
            event.kind = LoaderEvent::Kind::Failed;
            event.reason = o.value(QLatin1String("reason")).toString();
        } else {
            continue;
        }
        event.objectsDone = number(o, "objects_done");
        event.objectsTotal = number(o, "objects_total");
        event.bytesDone = number(o, "bytes_done");
        event.bytesTotal = number(o, "bytes_total");
        return event;
    }
    return std::nullopt;
}

Reconciled reconcileCacheRecord(CachedCommit record,
                                const CacheJobView *loader,
                                const std::optional<LoaderEvent> &event,
                                const CacheJobView *evictor,
                                const QDateTime &now)
{
    Reconciled out;
    auto takeCounters = [&record](const LoaderEvent &e) {
        if (e.objectsTotal > 0 || e.bytesTotal > 0) {
            record.objectsTotal = e.objectsTotal;
            record.bytesTotal = e.bytesTotal;
        }
        record.objectsDone = e.objectsDone;
        record.bytesDone = e.bytesDone;
    };
    const bool waitedTooLong = !record.requested.isValid() || record.requested.secsTo(now) > kJobGraceSeconds;
    switch (record.state) {
    case CacheState::Requested:
    case CacheState::Loading:
        if (!loader) {
            if (waitedTooLong) {
                record.state = CacheState::Failed;
                record.reason = QStringLiteral("the loader Job %1 is gone").arg(record.job);
            }
            break;
        }
        if (event) {
            takeCounters(*event);
        }
        if (loader->complete) {
            record.state = CacheState::Ready;
            record.readyAt = loader->completionTime.isValid() ? loader->completionTime : now;
            if (!event || event->kind != LoaderEvent::Kind::Ready) {
                record.objectsDone = std::max(record.objectsDone, record.objectsTotal);
                record.bytesDone = std::max(record.bytesDone, record.bytesTotal);
            }
            record.reason.clear();
        } else if (loader->failed) {
            record.state = CacheState::Failed;
            record.reason =
                event && event->kind == LoaderEvent::Kind::Failed && !event->reason.isEmpty()
                    ? event->reason
                    : (loader->failureMessage.isEmpty() ? QStringLiteral("the loader Job %1 failed").arg(loader->name)
                                                        : loader->failureMessage);
        } else if (event || loader->active > 0) {
            // A failed attempt that Kubernetes retries is still loading: the next pod resumes.
            record.state = CacheState::Loading;
            record.reason.clear();
        }
        break;
    case CacheState::Failed:
        if (loader && loader->active > 0 && !loader->failed && !loader->complete) {
            record.state = CacheState::Loading;
            record.reason.clear();
            if (event) {
                takeCounters(*event);
            }
        }
        break;
    case CacheState::Evicting:
        if (evictor && evictor->complete) {
            record.state = CacheState::Evicted;
            out.remove = true;
        } else if (evictor && evictor->failed) {
            record.state = CacheState::Failed;
            record.reason = QStringLiteral("clearing failed: %1")
                                .arg(evictor->failureMessage.isEmpty()
                                         ? QStringLiteral("the evictor Job %1 failed").arg(evictor->name)
                                         : evictor->failureMessage);
        }
        break;
    case CacheState::Ready:
    case CacheState::Evicted:
        break;
    }
    out.record = std::move(record);
    return out;
}

bool applyUsage(CachedCommit &record,
                const QList<Job> &jobs,
                const QString &namespaceName,
                const QString &pvc,
                const QDateTime &now)
{
    if (record.path.isEmpty()) {
        return false;
    }
    const QString below = record.path + QLatin1Char('/');
    QList<std::pair<QDateTime, QString>> uses;
    for (const Job &job : jobs) {
        if (job.namespaceName != namespaceName) {
            continue;
        }
        bool mounts = false;
        for (qsizetype i = 0; i < job.pvcs.size() && !mounts; ++i) {
            const QString subPath = i < job.pvcSubPaths.size() ? job.pvcSubPaths[i] : QString();
            QString normalized = subPath;
            while (normalized.endsWith(QLatin1Char('/'))) {
                normalized.chop(1);
            }
            mounts = job.pvcs[i] == pvc && (normalized == record.path || normalized.startsWith(below));
        }
        if (!mounts) {
            continue;
        }
        QDateTime when;
        if (job.status == JobStatus::Running || job.status == JobStatus::ContainerCreating) {
            when = now;
        } else if (job.finished.isValid()) {
            when = job.finished;
        } else if (job.started.isValid()) {
            when = job.started;
        }
        if (!when.isValid()) {
            continue; // queued, never ran: not a use yet
        }
        uses.append({when.toUTC(), job.namespaceName + QLatin1Char('/') + job.name});
    }
    if (uses.isEmpty()) {
        return false;
    }
    std::sort(uses.begin(), uses.end(), [](const auto &a, const auto &b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    const CachedCommit before = record;
    if (!record.lastUsed.isValid() || uses.front().first > record.lastUsed) {
        record.lastUsed = uses.front().first;
    }
    QStringList usedBy;
    for (const auto &use : uses) {
        if (!usedBy.contains(use.second)) {
            usedBy.append(use.second);
        }
    }
    for (const QString &job : std::as_const(before.usedBy)) {
        if (!usedBy.contains(job)) {
            usedBy.append(job);
        }
    }
    while (usedBy.size() > kMaxUsedBy) {
        usedBy.removeLast();
    }
    record.usedBy = usedBy;
    return record.lastUsed != before.lastUsed || record.usedBy != before.usedBy;
}

QDateTime lastActivity(const CachedCommit &commit)
{
    if (commit.lastUsed.isValid()) {
        return commit.lastUsed;
    }
    return commit.readyAt.isValid() ? commit.readyAt : commit.requested;
}

qint64 effectiveUsedBytes(const CacheTarget &target)
{
    if (!target.storageVolumeId.isEmpty() && target.usedBytes > 0) {
        return target.usedBytes;
    }
    return target.cachedBytes;
}

void applyEvictionPolicy(const CacheTarget &target, QList<CachedCommit> &commits, const QDateTime &now)
{
    for (CachedCommit &c : commits) {
        c.evictAt = {};
        c.evictReason.clear();
        if (c.state != CacheState::Ready) {
            continue;
        }
        const QDateTime since = lastActivity(c);
        if (since.isValid()) {
            c.evictAt = since.addDays(target.evictAfterDays);
            c.evictReason = target.evictAfterDays == 1
                                ? QStringLiteral("unused for 1 day")
                                : QStringLiteral("unused for %1 days").arg(target.evictAfterDays);
        }
    }
    if (target.capacityBytes <= 0) {
        return;
    }
    qint64 used = effectiveUsedBytes(target);
    for (const CachedCommit &c : std::as_const(commits)) {
        if (c.state == CacheState::Evicting) {
            used -= footprint(c);
        }
    }
    const qint64 threshold = target.capacityBytes / 100 * target.highWatermarkPercent
                             + target.capacityBytes % 100 * target.highWatermarkPercent / 100;
    if (used <= threshold) {
        return;
    }
    const QString reason = QStringLiteral("over the %1 % high watermark (LRU)").arg(target.highWatermarkPercent);
    for (const CachedCommit *c : readyByLastUse(commits)) {
        if (used <= threshold) {
            break;
        }
        for (CachedCommit &m : commits) {
            if (&m == c) {
                m.evictAt = now;
                m.evictReason = reason;
            }
        }
        used -= footprint(*c);
    }
}

RoomPlan planRoom(const CacheTarget &target, const QList<CachedCommit> &commits, qint64 bytesNeeded)
{
    RoomPlan plan;
    if (target.capacityBytes <= 0) {
        return plan;
    }
    qint64 used = effectiveUsedBytes(target);
    qint64 pending = 0;
    for (const CachedCommit &c : commits) {
        if (c.state == CacheState::Requested || c.state == CacheState::Loading) {
            pending += std::max<qint64>(0, c.bytesTotal - c.bytesDone);
        } else if (c.state == CacheState::Evicting) {
            used -= footprint(c);
        }
    }
    plan.freeBytes = std::max<qint64>(0, target.capacityBytes - std::max<qint64>(0, used) - pending);
    const QList<const CachedCommit *> ready = readyByLastUse(commits);
    for (const CachedCommit *c : ready) {
        plan.evictableBytes += footprint(*c);
    }
    if (bytesNeeded <= plan.freeBytes) {
        plan.fits = true;
        return plan;
    }
    for (const CachedCommit *c : ready) {
        if (plan.freeBytes + plan.freedBytes >= bytesNeeded) {
            break;
        }
        plan.evict.append(c->commitId);
        plan.freedBytes += footprint(*c);
    }
    plan.fits = plan.freeBytes + plan.freedBytes >= bytesNeeded;
    if (!plan.fits) {
        plan.evict.clear();
        plan.freedBytes = 0;
    }
    return plan;
}

} // namespace strata::core
