#pragma once

#include "models/core/domain/action.h"
#include "models/core/domain/error.h"
#include "models/rows/output.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace strata::core {
struct AuditEntry;
struct ProjectSample;
} // namespace strata::core

namespace strata::web {

/// The stable identity of one row of GET /api/v1/<resource> (the LiveFeed diff key): the
/// resource's natural key columns joined with '/', e.g. "ontap-ai/<volume uuid>" for volumes,
/// "dgx/team-a/train-7" for jobs, the name for sources.
QString rowKey(const QString &resource, const QJsonObject &row);

/// `rows` as the JSON array `strata get <resource> -o json` prints, each row with its "key".
QJsonArray keyedRows(const QString &resource, const rows::ResultSet &rows);

/// The action kinds the web console may run (operator role): cache.load, cache.evict,
/// job.delete, volume.service_level, snapshot.create, volume.clone, dataset.commit.
bool webActionAllowed(core::ActionKind kind);

/// An ActionRequest from the web's JSON: {"kind": actionKindName, "source", "volume_id",
/// "snapshot_id", "name", "comment", "project", "job_ids": [..] (or "job": "ns/name"),
/// "dataset_source", "dataset_id", "commit_id", "cache_target", "level", "pool"}. An
/// Error::Kind::Invalid for an unknown or not allowed kind, or a missing source.
core::Result<core::ActionRequest> actionRequestFromJson(const QJsonObject &json);

/// {"title","target","from","to","effects","warnings","destructive","blocked_reason"}.
QJsonObject previewToJson(const core::ActionPreview &preview);
/// {"id","kind","source","target","state","progress" (null = indeterminate),"progress_text",
///  "message","user","submitted","finished" (null while running)}.
QJsonObject actionRecordToJson(const core::ActionRecord &record);
/// {"time","user","action","source","target","from","to","outcome","message","action_id"}.
QJsonObject auditEntryToJson(const core::AuditEntry &entry);
/// {"time","project","allocated","quota" (null = none),"pending","utilization" (0..1 or null)},
/// GPU amounts as numbers of GPUs.
QJsonObject projectSampleToJson(const core::ProjectSample &sample);

} // namespace strata::web
