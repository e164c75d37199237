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

/// `get events`: the merged triage timeline, newest first. Keys: time, severity, system, source,
/// category, title, object_name (table OBJECT), message, object_kind, object_id, project,
/// volume, job, user, id (stable across polls; the row key of the web API).
ResultSet eventRows(const core::Timeline &timeline, const core::TimelineFilter &filter);

} // namespace strata::rows
