#pragma once

#include <QDateTime>
#include <QString>

#include <optional>

namespace strata::core {

enum class Recurrence
{
    Once,
    Daily,
    Weekdays, ///< Monday to Friday, in the schedule's UTC offset at creation
    Weekly
};

QString recurrenceName(Recurrence recurrence); ///< "once", "daily", "weekdays", "weekly"
std::optional<Recurrence> recurrenceFromName(const QString &name);

/// A planned service-level change, persisted in the history store so it survives restarts and
/// is run by whichever Strata process (desktop or strata-server) has the source.
/// - "at": set `level` at `start` (`end` invalid, `revertLevel` empty);
/// - window: set `level` at `start` and `revertLevel` at `end` (raise before a training run,
///   lower after).
struct ServiceLevelSchedule
{
    qint64 id = 0; ///< assigned by the store
    QString source;
    QString volumeId; ///< Volume::id (stable across ANF pool moves)
    QString volumeName;
    QString level;       ///< ANF level or ONTAP QoS policy name
    QString revertLevel; ///< window only: the level after the window
    QDateTime start;     ///< UTC
    QDateTime end;       ///< UTC, window only; invalid for "at"
    Recurrence recurrence = Recurrence::Once;
    bool enabled = true;
    QString createdBy;
    QDateTime created; ///< UTC
    /// UTC time of the last occurrence edge (start or end) already submitted, so a restart never
    /// submits it again; invalid = none yet.
    QDateTime lastFired;
    QString lastOutcome; ///< "succeeded", "failed: <reason>", "missed", empty

    [[nodiscard]] bool isWindow() const { return end.isValid(); }
    bool operator==(const ServiceLevelSchedule &) const = default;
};

/// One upcoming edge of a schedule, for the "Upcoming actions" list.
struct UpcomingChange
{
    qint64 scheduleId = 0;
    QDateTime time; ///< UTC
    QString source;
    QString volumeId;
    QString volumeName;
    QString toLevel;
    bool revert = false; ///< the end of a window

    bool operator==(const UpcomingChange &) const = default;
};

/// The next edges of `schedule` strictly after `after`, at most `limit`, oldest first.
QList<UpcomingChange> nextEdges(const ServiceLevelSchedule &schedule, const QDateTime &after, int limit);

} // namespace strata::core
