#include "web/api.h"

#include "models/core/store/historystore.h"
#include "models/rows/levelrows.h"

#include <QHash>
#include <QJsonValue>
#include <QUrl>

#include <cmath>

namespace strata::web {

namespace {

/// Natural key columns per resource; rows of other resources (features' own) use "key" as given
/// or source + id/name.
const QHash<QString, QStringList> &keyColumns()
{
    static const QHash<QString, QStringList> k{
        {QStringLiteral("sources"), {QStringLiteral("name")}},
        {QStringLiteral("volumes"), {QStringLiteral("source"), QStringLiteral("id")}},
        {QStringLiteral("snapshots"), {QStringLiteral("source"), QStringLiteral("volume_id"), QStringLiteral("id")}},
        {QStringLiteral("clusters"), {QStringLiteral("source"), QStringLiteral("name")}},
        {QStringLiteral("nodes"), {QStringLiteral("source"), QStringLiteral("name")}},
        {QStringLiteral("projects"), {QStringLiteral("source"), QStringLiteral("name")}},
        {QStringLiteral("jobs"), {QStringLiteral("source"), QStringLiteral("namespace"), QStringLiteral("name")}},
        {QStringLiteral("pvcs"), {QStringLiteral("source"), QStringLiteral("namespace"), QStringLiteral("name")}},
        {QStringLiteral("service-levels"), {QStringLiteral("source"), QStringLiteral("volume_id")}},
        {QStringLiteral("pools"), {QStringLiteral("source"), QStringLiteral("id")}},
        {QStringLiteral("aks"), {QStringLiteral("source"), QStringLiteral("id")}},
        {QStringLiteral("schedules"), {QStringLiteral("id")}},
        {QStringLiteral("events"), {QStringLiteral("group")}},
        {QStringLiteral("datasets"), {QStringLiteral("source"), QStringLiteral("id")}},
        {QStringLiteral("commits"), {QStringLiteral("source"), QStringLiteral("dataset"), QStringLiteral("id")}},
        {QStringLiteral("caches"),
         {QStringLiteral("source"), QStringLiteral("target"), QStringLiteral("dataset"), QStringLiteral("commit")}},
        {QStringLiteral("cache-targets"), {QStringLiteral("source"), QStringLiteral("name")}},
        {QStringLiteral("grids"), {QStringLiteral("source")}},
        {QStringLiteral("tenants"), {QStringLiteral("source"), QStringLiteral("id")}},
        {QStringLiteral("buckets"), {QStringLiteral("source"), QStringLiteral("tenant"), QStringLiteral("name")}},
        {QStringLiteral("alerts"), {QStringLiteral("source"), QStringLiteral("id")}},
        // An aggregate, a volume and a cache target of one source may share an id.
        {QStringLiteral("forecasts"), {QStringLiteral("source"), QStringLiteral("kind"), QStringLiteral("id")}},
    };
    return k;
}

QString text(const QJsonValue &v)
{
    if (v.isString()) {
        return v.toString();
    }
    if (v.isDouble()) {
        return QString::number(v.toDouble(), 'g', 17);
    }
    if (v.isBool()) {
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    }
    return {};
}

QJsonValue gpus(core::MilliGpu milli)
{
    return double(milli) / 1000.0;
}

QJsonValue timeOrNull(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(t.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue();
}

} // namespace

QString rowKey(const QString &resource, const QJsonObject &row)
{
    if (row.contains(QLatin1String("key"))) {
        return row.value(QLatin1String("key")).toString();
    }
    QStringList columns = keyColumns().value(resource);
    if (columns.isEmpty()) {
        columns = {QStringLiteral("source"),
                   row.contains(QLatin1String("id")) ? QStringLiteral("id") : QStringLiteral("name")};
    }
    QStringList parts;
    for (const QString &c : std::as_const(columns)) {
        if (row.contains(c)) {
            parts << text(row.value(c));
        }
    }
    return parts.join(QLatin1Char('/'));
}

QJsonArray keyedRows(const QString &resource, const rows::ResultSet &rows)
{
    QJsonArray out = rows::toJson(rows);
    for (qsizetype i = 0; i < out.size(); ++i) {
        QJsonObject row = out.at(i).toObject();
        row.insert(QStringLiteral("key"), rowKey(resource, row));
        if (resource == QLatin1String("sources") && row.contains(QLatin1String("url"))) {
            // A URL written as https://user:password@host must not carry the password out.
            row.insert(QStringLiteral("url"),
                       QUrl(row.value(QLatin1String("url")).toString()).adjusted(QUrl::RemoveUserInfo).toString());
        }
        out.replace(i, row);
    }
    return out;
}

bool webActionAllowed(core::ActionKind kind)
{
    using K = core::ActionKind;
    return kind == K::CacheCommit || kind == K::CacheEvict || kind == K::JobDelete || kind == K::ServiceLevelChange
           || kind == K::SnapshotCreate || kind == K::VolumeClone || kind == K::DatasetCommit
           || kind == K::ProjectQuotaEdit;
}

core::Result<core::ActionRequest> actionRequestFromJson(const QJsonObject &json)
{
    static const QList<core::ActionKind> kinds{core::ActionKind::SnapshotCreate,
                                               core::ActionKind::SnapshotDelete,
                                               core::ActionKind::SnapshotRestore,
                                               core::ActionKind::VolumeClone,
                                               core::ActionKind::JobSubmit,
                                               core::ActionKind::JobDelete,
                                               core::ActionKind::ProjectQuotaEdit,
                                               core::ActionKind::ServiceLevelChange,
                                               core::ActionKind::DatasetCommit,
                                               core::ActionKind::CacheCommit,
                                               core::ActionKind::CacheEvict};
    const QString kindName = json.value(QLatin1String("kind")).toString();
    std::optional<core::ActionKind> kind;
    for (const core::ActionKind k : kinds) {
        if (core::actionKindName(k) == kindName) {
            kind = k;
        }
    }
    if (!kind) {
        return core::fail(core::Error::invalid({}, QStringLiteral("unknown action kind \"%1\"").arg(kindName)));
    }
    if (!webActionAllowed(*kind)) {
        return core::fail(core::Error::invalid(
            {}, QStringLiteral("action \"%1\" is not available from the web console").arg(kindName)));
    }
    const auto str = [&](const char *key) {
        return json.value(QLatin1String(key)).toString();
    };
    core::ActionRequest r;
    r.kind = *kind;
    r.source = str("source");
    r.volumeId = str("volume_id");
    r.snapshotId = str("snapshot_id");
    r.name = str("name");
    r.comment = str("comment");
    r.project = str("project");
    if (r.kind == core::ActionKind::ProjectQuotaEdit) {
        // GPUs with decimals, as the what-if and the projects table show them.
        const QJsonValue quota = json.value(QLatin1String("quota"));
        bool ok = quota.isDouble();
        const double gpus = quota.isString() ? quota.toString().trimmed().toDouble(&ok) : quota.toDouble(-1);
        ok = ok && gpus >= 0;
        if (!ok || !std::isfinite(gpus) || gpus > 1e6) {
            return core::fail(core::Error::invalid(QStringLiteral("quota"),
                                                   QStringLiteral("\"quota\" must be a number of GPUs >= 0")));
        }
        r.quota = core::MilliGpu(std::llround(gpus * 1000.0));
    }
    for (const QJsonValue &v : json.value(QLatin1String("job_ids")).toArray()) {
        r.jobIds << v.toString();
    }
    if (json.value(QLatin1String("job")).isString()) {
        r.jobIds << str("job");
    }
    r.targetLevel = str("level");
    r.targetPool = str("pool");
    r.datasetSource = str("dataset_source");
    r.datasetId = str("dataset_id");
    r.commitId = str("commit_id");
    r.cacheTarget = str("cache_target");
    if (r.source.isEmpty()) {
        return core::fail(core::Error::invalid({}, QStringLiteral("\"source\" is required")));
    }
    return r;
}

QJsonObject previewToJson(const core::ActionPreview &preview)
{
    // The CLI's record (`strata ... --dry-run -o json`), with the API's name for the reason.
    QJsonObject out = rows::previewJson(preview);
    out.insert(QStringLiteral("blocked_reason"), out.take(QStringLiteral("blocked")));
    return out;
}

QJsonObject actionRecordToJson(const core::ActionRecord &record)
{
    return QJsonObject{
        {QStringLiteral("id"), record.id},
        {QStringLiteral("kind"), core::actionKindName(record.request.kind)},
        {QStringLiteral("source"), record.request.source},
        {QStringLiteral("target"), record.preview.target},
        {QStringLiteral("state"), core::actionStateName(record.state)},
        {QStringLiteral("progress"), record.progress.percent >= 0 ? QJsonValue(record.progress.percent) : QJsonValue()},
        {QStringLiteral("progress_text"), record.progress.text},
        {QStringLiteral("message"), record.message},
        {QStringLiteral("user"), record.user},
        {QStringLiteral("submitted"), timeOrNull(record.submitted)},
        {QStringLiteral("finished"), timeOrNull(record.finished)}};
}

QJsonObject auditEntryToJson(const core::AuditEntry &entry)
{
    return QJsonObject{{QStringLiteral("time"), timeOrNull(entry.time)},
                       {QStringLiteral("user"), entry.user},
                       {QStringLiteral("action"), entry.kind},
                       {QStringLiteral("source"), entry.source},
                       {QStringLiteral("target"), entry.target},
                       {QStringLiteral("from"), entry.fromState},
                       {QStringLiteral("to"), entry.toState},
                       {QStringLiteral("outcome"), entry.outcome},
                       {QStringLiteral("message"), entry.message},
                       {QStringLiteral("action_id"), entry.actionId},
                       {QStringLiteral("replica"), entry.replica}};
}

QJsonObject projectSampleToJson(const core::ProjectSample &sample)
{
    return QJsonObject{{QStringLiteral("time"), timeOrNull(sample.time)},
                       {QStringLiteral("project"), sample.project},
                       {QStringLiteral("allocated"), gpus(sample.allocated)},
                       {QStringLiteral("quota"), sample.quota >= 0 ? gpus(sample.quota) : QJsonValue()},
                       {QStringLiteral("pending"), gpus(sample.pending)},
                       {QStringLiteral("utilization"),
                        sample.utilization >= 0 ? QJsonValue(sample.utilization / 100.0) : QJsonValue()}};
}

} // namespace strata::web
