#include "models/rows/triagerows.h"

#include "models/core/runtime/timeline.h"
#include "models/rows/rowsupport.h"

#include <QRegularExpression>

namespace strata::rows {

const QStringList &timelineSystemNames()
{
    static const QStringList names{QStringLiteral("ontap"),
                                   QStringLiteral("storagegrid"),
                                   QStringLiteral("azure"),
                                   QStringLiteral("kubernetes"),
                                   QStringLiteral("strata")};
    return names;
}

std::optional<QDateTime> parseTimeBound(const QString &text, const QDateTime &now)
{
    static const QRegularExpression relative(QStringLiteral("^(\\d{1,7})([smhd])$"));
    const QString trimmed = text.trimmed();
    if (const auto seconds = relativeSeconds(relative, trimmed)) {
        return now.toUTC().addSecs(-*seconds);
    }
    QDateTime t = parseIsoTime(trimmed);
    if (!t.isValid()) {
        return std::nullopt;
    }
    if (t.timeSpec() == Qt::LocalTime) {
        t = QDateTime(t.date(), t.time(), Qt::UTC); // no offset given: UTC, not this machine's zone
    }
    return t.toUTC();
}

ResultSet eventRows(const core::Timeline &timeline, const core::TimelineFilter &filter)
{
    ResultSet rs;
    rs.columns = {{QStringLiteral("time"), QStringLiteral("LAST SEEN")},
                  {QStringLiteral("severity"), QStringLiteral("SEVERITY")},
                  {QStringLiteral("state"), QStringLiteral("STATE")},
                  {QStringLiteral("count"), QStringLiteral("COUNT")},
                  {QStringLiteral("system"), QStringLiteral("SYSTEM")},
                  {QStringLiteral("source"), QStringLiteral("SOURCE")},
                  {QStringLiteral("category"), QStringLiteral("CATEGORY")},
                  {QStringLiteral("title"), QStringLiteral("TITLE")},
                  {QStringLiteral("object_name"), QStringLiteral("OBJECT")},
                  {QStringLiteral("first_seen"), QStringLiteral("FIRST SEEN")},
                  {QStringLiteral("message"), QStringLiteral("MESSAGE")},
                  {QStringLiteral("object_kind"), QString()},
                  {QStringLiteral("object_id"), QString()},
                  {QStringLiteral("project"), QString()},
                  {QStringLiteral("volume"), QString()},
                  {QStringLiteral("job"), QString()},
                  {QStringLiteral("user"), QString()},
                  {QStringLiteral("id"), QString()},
                  {QStringLiteral("group"), QString()}};
    const auto timeText = [](const QDateTime &t) {
        return t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    };
    for (const core::TimelineGroup &g : timeline.groups(filter)) {
        const core::TimelineEntry &e = g.entry;
        QStringList display(rs.columns.size());
        display[0] = timeText(g.lastSeen);
        display[2] = g.alert ? core::timelineGroupStateName(g) : QStringLiteral("-");
        display[9] = g.count > 1 ? timeText(g.firstSeen) : QStringLiteral("-");
        // A table row stays one line: messages can carry newlines (EMS, Kubernetes).
        display[10] = QString(e.message).replace(QLatin1Char('\n'), QLatin1Char(' '));
        rs.addRow({g.lastSeen,
                   core::timelineSeverityName(e.severity),
                   core::timelineGroupStateName(g),
                   g.count,
                   e.system,
                   e.source,
                   core::timelineCategoryName(e.category),
                   e.title,
                   e.objectName,
                   g.firstSeen,
                   e.message,
                   e.objectKind,
                   e.objectId,
                   e.project,
                   e.volume,
                   e.job,
                   e.user,
                   e.id,
                   g.key},
                  display);
    }
    return rs;
}

} // namespace strata::rows
