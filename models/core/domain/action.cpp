#include "models/core/domain/action.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata::core {

std::optional<ActionKind> actionKindFromName(const QString &name)
{
    for (ActionKind k : {ActionKind::SnapshotCreate,
                         ActionKind::SnapshotDelete,
                         ActionKind::SnapshotRestore,
                         ActionKind::VolumeClone,
                         ActionKind::JobSubmit,
                         ActionKind::JobDelete,
                         ActionKind::ProjectQuotaEdit,
                         ActionKind::ServiceLevelChange,
                         ActionKind::DatasetCommit,
                         ActionKind::CacheCommit,
                         ActionKind::CacheEvict}) {
        if (actionKindName(k) == name) {
            return k;
        }
    }
    return std::nullopt;
}

QString actionRequestToJson(const ActionRequest &r)
{
    QJsonArray pvcs;
    for (const PvcMount &m : r.job.pvcs) {
        pvcs.append(QJsonObject{{QStringLiteral("claim"), m.claim},
                                {QStringLiteral("path"), m.path},
                                {QStringLiteral("read_only"), m.readOnly}});
    }
    const QJsonObject job{{QStringLiteral("name"), r.job.name},
                          {QStringLiteral("project"), r.job.project},
                          {QStringLiteral("image"), r.job.image},
                          {QStringLiteral("gpus"), qint64(r.job.gpus)},
                          {QStringLiteral("type"), jobTypeName(r.job.type)},
                          {QStringLiteral("command"), QJsonArray::fromStringList(r.job.command)},
                          {QStringLiteral("args"), QJsonArray::fromStringList(r.job.args)},
                          {QStringLiteral("pvcs"), pvcs},
                          {QStringLiteral("user"), r.job.user},
                          {QStringLiteral("duration_seconds"), r.job.durationSeconds}};
    const QJsonObject o{{QStringLiteral("kind"), actionKindName(r.kind)},
                        {QStringLiteral("source"), r.source},
                        {QStringLiteral("volume_id"), r.volumeId},
                        {QStringLiteral("snapshot_id"), r.snapshotId},
                        {QStringLiteral("name"), r.name},
                        {QStringLiteral("comment"), r.comment},
                        {QStringLiteral("job"), job},
                        {QStringLiteral("job_ids"), QJsonArray::fromStringList(r.jobIds)},
                        {QStringLiteral("project"), r.project},
                        {QStringLiteral("quota"), qint64(r.quota)},
                        {QStringLiteral("target_level"), r.targetLevel},
                        {QStringLiteral("target_pool"), r.targetPool},
                        {QStringLiteral("create_pool"), r.createPool},
                        {QStringLiteral("pool_size_bytes"), r.poolSizeBytes},
                        {QStringLiteral("schedule_id"), r.scheduleId},
                        {QStringLiteral("schedule_edge"),
                         r.scheduleEdge.isValid() ? r.scheduleEdge.toUTC().toString(Qt::ISODateWithMs) : QString()},
                        {QStringLiteral("dataset_id"), r.datasetId},
                        {QStringLiteral("dataset_source"), r.datasetSource},
                        {QStringLiteral("commit_id"), r.commitId},
                        {QStringLiteral("cache_target"), r.cacheTarget},
                        {QStringLiteral("evict_reason"), r.evictReason}};
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

std::optional<ActionRequest> actionRequestFromJson(const QString &json)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        return std::nullopt;
    }
    const QJsonObject o = doc.object();
    const auto kind = actionKindFromName(o.value(QStringLiteral("kind")).toString());
    if (!kind) {
        return std::nullopt;
    }
    const auto strings = [](const QJsonValue &v) {
        QStringList list;
        for (const QJsonValue &item : v.toArray()) {
            list << item.toString();
        }
        return list;
    };
    ActionRequest r;
    r.kind = *kind;
    r.source = o.value(QStringLiteral("source")).toString();
    r.volumeId = o.value(QStringLiteral("volume_id")).toString();
    r.snapshotId = o.value(QStringLiteral("snapshot_id")).toString();
    r.name = o.value(QStringLiteral("name")).toString();
    r.comment = o.value(QStringLiteral("comment")).toString();
    const QJsonObject job = o.value(QStringLiteral("job")).toObject();
    r.job.name = job.value(QStringLiteral("name")).toString();
    r.job.project = job.value(QStringLiteral("project")).toString();
    r.job.image = job.value(QStringLiteral("image")).toString();
    r.job.gpus = MilliGpu(job.value(QStringLiteral("gpus")).toInteger(1000));
    r.job.type = job.value(QStringLiteral("type")).toString() == jobTypeName(JobType::Interactive)
                     ? JobType::Interactive
                     : JobType::Train;
    r.job.command = strings(job.value(QStringLiteral("command")));
    r.job.args = strings(job.value(QStringLiteral("args")));
    for (const QJsonValue &v : job.value(QStringLiteral("pvcs")).toArray()) {
        const QJsonObject m = v.toObject();
        r.job.pvcs.append(PvcMount{m.value(QStringLiteral("claim")).toString(),
                                   m.value(QStringLiteral("path")).toString(),
                                   m.value(QStringLiteral("read_only")).toBool()});
    }
    r.job.user = job.value(QStringLiteral("user")).toString();
    r.job.durationSeconds = job.value(QStringLiteral("duration_seconds")).toInt();
    r.jobIds = strings(o.value(QStringLiteral("job_ids")));
    r.project = o.value(QStringLiteral("project")).toString();
    r.quota = MilliGpu(o.value(QStringLiteral("quota")).toInteger());
    r.targetLevel = o.value(QStringLiteral("target_level")).toString();
    r.targetPool = o.value(QStringLiteral("target_pool")).toString();
    r.createPool = o.value(QStringLiteral("create_pool")).toBool();
    r.poolSizeBytes = o.value(QStringLiteral("pool_size_bytes")).toInteger();
    r.scheduleId = o.value(QStringLiteral("schedule_id")).toInteger();
    r.scheduleEdge = QDateTime::fromString(o.value(QStringLiteral("schedule_edge")).toString(), Qt::ISODateWithMs);
    r.datasetId = o.value(QStringLiteral("dataset_id")).toString();
    r.datasetSource = o.value(QStringLiteral("dataset_source")).toString();
    r.commitId = o.value(QStringLiteral("commit_id")).toString();
    r.cacheTarget = o.value(QStringLiteral("cache_target")).toString();
    r.evictReason = o.value(QStringLiteral("evict_reason")).toString();
    return r;
}

QString actionKindName(ActionKind kind)
{
    switch (kind) {
    case ActionKind::SnapshotCreate:
        return QStringLiteral("snapshot.create");
    case ActionKind::SnapshotDelete:
        return QStringLiteral("snapshot.delete");
    case ActionKind::SnapshotRestore:
        return QStringLiteral("snapshot.restore");
    case ActionKind::VolumeClone:
        return QStringLiteral("volume.clone");
    case ActionKind::JobSubmit:
        return QStringLiteral("job.submit");
    case ActionKind::JobDelete:
        return QStringLiteral("job.delete");
    case ActionKind::ProjectQuotaEdit:
        return QStringLiteral("project.quota");
    case ActionKind::ServiceLevelChange:
        return QStringLiteral("volume.service_level");
    case ActionKind::DatasetCommit:
        return QStringLiteral("dataset.commit");
    case ActionKind::CacheCommit:
        return QStringLiteral("cache.load");
    case ActionKind::CacheEvict:
        return QStringLiteral("cache.evict");
    }
    return {};
}

QString actionStateName(ActionState state)
{
    switch (state) {
    case ActionState::Running:
        return QStringLiteral("running");
    case ActionState::Succeeded:
        return QStringLiteral("succeeded");
    case ActionState::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

} // namespace strata::core
