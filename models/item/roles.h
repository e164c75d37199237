#pragma once

#include <Qt>

namespace strata::models {

/// Roles shared by Strata's item models. Models return semantic values only (no QColor/QIcon):
/// delegates in views/ map StatusRole to colours and icons.
enum Role
{
    RawValueRole = Qt::UserRole + 1, ///< sortable raw value (qint64 bytes, double percent, QDateTime)
    KeyRole,                         ///< estate key "<source>/<id>" (QString)
    SourceRole,                      ///< source name (QString)
    IdRole,                          ///< the system's stable id (QString)
    /// Semantic state of the row/cell: "ok", "warning", "critical", "offline", "stale",
    /// "running", "failed", "succeeded", "unknown", and for jobs "pending", "preempted",
    /// "starting", and "none" where there is nothing to show (a badge column draws no dot)
    /// (QString)
    StatusRole,
    StaleRole,      ///< bool: the row's source is stale
    FilterTextRole, ///< text a free-text filter matches against (QString)
    ProjectRole,    ///< compute rows: the project (queue) name (QString)
    JobStatusRole,  ///< jobs: int(core::JobStatus) of the row, whatever the column
    /// A threshold on RawValueRole's scale for the same cell (double), e.g. a cache target's
    /// high watermark in percent next to its usage; invalid when none.
    LimitRole,
};

} // namespace strata::models
