#pragma once

#include "models/rows/output.h"

#include <QDateTime>
#include <QStringList>

#include <optional>

namespace strata::core {
class Timeline;
struct TimelineFilter;
} // namespace strata::core

namespace strata::rows {

/// The systems `get events --system` accepts: "ontap", "storagegrid", "azure", "kubernetes",
/// "strata" (Strata's own entries without a source).
const QStringList &timelineSystemNames();

/// A --since/--until bound: ISO 8601 ("2026-11-22T10:00:00Z"; without an offset it is UTC) or a
/// relative "<n>s|m|h|d" meaning that long before `now` ("2h", "30m", "7d"). nullopt when it is
/// neither.
std::optional<QDateTime> parseTimeBound(const QString &text, const QDateTime &now);

/// `get events`: the merged triage timeline as core::Timeline::groups() rows: active alerts
/// first, then newest first; the filter's offset and limit page them. Keys: time (last seen),
/// severity (the group's worst), state ("active"/"resolved" for an alert, else ""), count
/// (occurrences, >= 1), system, source, category, title, object_name (table OBJECT), first_seen,
/// message, object_kind, object_id, project, volume, job, user, id (the shown entry's), group
/// (timelineGroupKey(), stable across polls; the row key of the web API).
ResultSet eventRows(const core::Timeline &timeline, const core::TimelineFilter &filter);

} // namespace strata::rows
