#include "models/core/domain/schedule.h"

#include <QList>

#include <algorithm>

namespace strata::core {

QString recurrenceName(Recurrence recurrence)
{
    switch (recurrence) {
    case Recurrence::Once:
        return QStringLiteral("once");
    case Recurrence::Daily:
        return QStringLiteral("daily");
    case Recurrence::Weekdays:
        return QStringLiteral("weekdays");
    case Recurrence::Weekly:
        return QStringLiteral("weekly");
    }
    return {};
}

std::optional<Recurrence> recurrenceFromName(const QString &name)
{
    for (Recurrence r : {Recurrence::Once, Recurrence::Daily, Recurrence::Weekdays, Recurrence::Weekly}) {
        if (name == recurrenceName(r)) {
            return r;
        }
    }
    return std::nullopt;
}

namespace {

bool isWeekday(const QDateTime &t)
{
    return t.date().dayOfWeek() <= 5;
}

} // namespace

QList<UpcomingChange> nextEdges(const ServiceLevelSchedule &schedule, const QDateTime &after, int limit)
{
    QList<UpcomingChange> out;
    if (limit <= 0 || !schedule.start.isValid()) {
        return out;
    }
    const QDateTime start = schedule.start.toUTC();
    const QDateTime end = schedule.isWindow() ? schedule.end.toUTC() : QDateTime();
    const auto edge = [&](const QDateTime &time, bool revert) {
        UpcomingChange c;
        c.scheduleId = schedule.id;
        c.time = time;
        c.source = schedule.source;
        c.volumeId = schedule.volumeId;
        c.volumeName = schedule.volumeName;
        c.toLevel = revert ? schedule.revertLevel : schedule.level;
        c.revert = revert;
        return c;
    };
    // Adds the edges of the occurrence shifted by `days`; returns false once enough edges exist
    // beyond every later occurrence's start (occurrences never overlap in order of start).
    const auto addOccurrence = [&](qint64 days) {
        const QDateTime s = start.addDays(days);
        if (s > after) {
            out.append(edge(s, false));
        }
        if (end.isValid()) {
            const QDateTime e = end.addDays(days);
            if (e > after) {
                out.append(edge(e, true));
            }
        }
    };

    if (schedule.recurrence == Recurrence::Once) {
        addOccurrence(0);
    } else {
        const qint64 step = schedule.recurrence == Recurrence::Weekly ? 7 : 1;
        // Skip whole occurrences that ended before `after`, keeping one in hand for windows
        // longer than a period.
        const qint64 lastEdgeSpanDays = end.isValid() ? std::max<qint64>(0, start.daysTo(end)) + 1 : 0;
        qint64 k = 0;
        if (after.isValid() && after > start) {
            k = std::max<qint64>(0, (start.daysTo(after) - lastEdgeSpanDays) / step - 1);
        }
        // Enough occurrences to fill `limit` edges, weekends included.
        for (int produced = 0; out.size() < limit + 2 && produced < limit * 3 + 8; ++k) {
            const qint64 days = k * step;
            if (schedule.recurrence == Recurrence::Weekdays && !isWeekday(start.addDays(days))) {
                continue;
            }
            const qsizetype before = out.size();
            addOccurrence(days);
            if (out.size() > before) {
                ++produced;
            }
        }
    }
    std::sort(out.begin(), out.end(), [](const UpcomingChange &a, const UpcomingChange &b) {
        return a.time < b.time || (a.time == b.time && !a.revert && b.revert);
    });
    if (out.size() > limit) {
        out.resize(limit);
    }
    return out;
}

} // namespace strata::core
