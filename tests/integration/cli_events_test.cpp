// `strata get events` on the demo estate: the merged triage timeline of every system, its
// filters, and usage errors for values it does not know.

#include "app/cli/cli.h"
#include "demo/demoestate.h"
#include "models/core/runtime/timeline.h"
#include "models/core/store/credentialstore.h"
#include "models/rows/triagerows.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTextStream>

#include <gtest/gtest.h>

using namespace strata;

namespace {

struct EventsCliRun
{
    int code = -1;
    QString out;
    QString err;
};

EventsCliRun runEventsDemo(QStringList args, bool demo = true)
{
    core::InMemoryCredentialStore unused; // --demo brings its own in-memory secrets
    EventsCliRun r;
    QTextStream out(&r.out);
    QTextStream err(&r.err);
    if (demo) {
        args.prepend(QStringLiteral("--demo"));
    }
    r.code = cli::run(args,
                      unused,
                      cli::Console{QStringLiteral("strata"), QStringLiteral("cli-test"), out, err},
                      cli::RunHooks{.answered = {}, .startDemo = strata::demo::startScopedForCommand});
    out.flush();
    err.flush();
    return r;
}

QJsonArray parseArray(const QString &text)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
    EXPECT_EQ(error.error, QJsonParseError::NoError) << text.left(300).toStdString();
    return doc.array();
}

} // namespace

TEST(CliEvents, DemoTimelineMergesEverySystemNewestFirst)
{
    const EventsCliRun r =
        runEventsDemo({QStringLiteral("get"), QStringLiteral("events"), QStringLiteral("-o"), QStringLiteral("json")});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    const QJsonArray rows = parseArray(r.out);
    ASSERT_FALSE(rows.isEmpty());
    QSet<QString> systems;
    QSet<QString> categories;
    QString previous;
    for (const QJsonValue &v : rows) {
        const QJsonObject row = v.toObject();
        for (const char *key : {"time",
                                "severity",
                                "system",
                                "source",
                                "category",
                                "title",
                                "message",
                                "object_kind",
                                "object_id",
                                "object_name",
                                "project",
                                "volume",
                                "job",
                                "user",
                                "id",
                                "state",
                                "count",
                                "first_seen",
                                "group"}) {
            EXPECT_TRUE(row.contains(QLatin1String(key))) << key;
        }
        systems << row.value(QLatin1String("system")).toString();
        categories << row.value(QLatin1String("category")).toString();
        // Active alerts lead; the rest is newest first.
        const QString time = row.value(QLatin1String("time")).toString();
        if (row.value(QLatin1String("state")).toString() == QLatin1String("active")) {
            continue;
        }
        if (!previous.isEmpty()) {
            EXPECT_LE(time, previous) << "not newest first";
        }
        previous = time;
    }
    // ONTAP EMS, Kubernetes events and scheduler decisions, StorageGRID alerts.
    EXPECT_TRUE(systems.contains(QStringLiteral("ontap")));
    EXPECT_TRUE(systems.contains(QStringLiteral("kubernetes")));
    EXPECT_TRUE(systems.contains(QStringLiteral("storagegrid")));
    EXPECT_TRUE(categories.contains(QStringLiteral("event")));
    EXPECT_TRUE(categories.contains(QStringLiteral("alert")));
    EXPECT_TRUE(categories.contains(QStringLiteral("scheduler")));
}

TEST(CliEvents, FiltersNarrowTheTimeline)
{
    const EventsCliRun r = runEventsDemo({QStringLiteral("get"),
                                          QStringLiteral("events"),
                                          QStringLiteral("--system"),
                                          QStringLiteral("storagegrid"),
                                          QStringLiteral("--severity"),
                                          QStringLiteral("warning"),
                                          QStringLiteral("--since"),
                                          QStringLiteral("7d"),
                                          QStringLiteral("-o"),
                                          QStringLiteral("json")});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    const QJsonArray rows = parseArray(r.out);
    ASSERT_FALSE(rows.isEmpty()) << "the demo grid's major alert fires every ten minutes";
    const QString weekAgo = QDateTime::currentDateTimeUtc().addDays(-7).addSecs(-60).toString(Qt::ISODate);
    for (const QJsonValue &v : rows) {
        const QJsonObject row = v.toObject();
        EXPECT_EQ(row.value(QLatin1String("system")).toString(), QStringLiteral("storagegrid"));
        EXPECT_NE(row.value(QLatin1String("severity")).toString(), QStringLiteral("info"));
        EXPECT_GE(row.value(QLatin1String("time")).toString(), weekAgo);
    }
}

TEST(CliEvents, UnknownValuesAreUsageErrors)
{
    for (const QStringList &flags : {QStringList{QStringLiteral("--severity"), QStringLiteral("major")},
                                     QStringList{QStringLiteral("--system"), QStringLiteral("netapp")},
                                     QStringList{QStringLiteral("--since"), QStringLiteral("yesterday")},
                                     QStringList{QStringLiteral("--until"), QStringLiteral("2h ago")}}) {
        const EventsCliRun r = runEventsDemo(QStringList{QStringLiteral("get"), QStringLiteral("events")} + flags);
        EXPECT_EQ(r.code, 2) << flags.join(QLatin1Char(' ')).toStdString();
        EXPECT_TRUE(r.err.contains(flags.front())) << r.err.toStdString();
        EXPECT_TRUE(r.out.isEmpty());
    }
}

TEST(CliEvents, TimeBoundsAreIsoOrDurationsAgo)
{
    const QDateTime now(QDate(2026, 3, 1), QTime(12, 0), Qt::UTC);
    EXPECT_EQ(rows::parseTimeBound(QStringLiteral("2h"), now), now.addSecs(-7200));
    EXPECT_EQ(rows::parseTimeBound(QStringLiteral("30m"), now), now.addSecs(-1800));
    EXPECT_EQ(rows::parseTimeBound(QStringLiteral("7d"), now), now.addDays(-7));
    EXPECT_EQ(rows::parseTimeBound(QStringLiteral("2026-02-28T10:00:00Z"), now),
              QDateTime(QDate(2026, 2, 28), QTime(10, 0), Qt::UTC));
    EXPECT_EQ(rows::parseTimeBound(QStringLiteral("2026-02-28T10:00:00"), now),
              QDateTime(QDate(2026, 2, 28), QTime(10, 0), Qt::UTC));
    EXPECT_EQ(rows::parseTimeBound(QStringLiteral("2026-02-28T11:00:00+01:00"), now),
              QDateTime(QDate(2026, 2, 28), QTime(10, 0), Qt::UTC));
    EXPECT_FALSE(rows::parseTimeBound(QStringLiteral("yesterday"), now));
    EXPECT_FALSE(rows::parseTimeBound(QStringLiteral("2w"), now));
    EXPECT_FALSE(rows::parseTimeBound(QString(), now));
}

TEST(CliEvents, RepeatedAlertFiringsAreOneRowWithActiveAlertsFirst)
{
    // The demo grid's memory alert fires every ten minutes: a week of it is one row, not 1,000.
    const EventsCliRun table = runEventsDemo({QStringLiteral("get"), QStringLiteral("events")});
    ASSERT_EQ(table.code, 0) << table.err.toStdString();
    const qsizetype lines = table.out.count(QLatin1Char('\n'));
    EXPECT_LT(lines, 200) << "one line per firing again";

    const EventsCliRun r =
        runEventsDemo({QStringLiteral("get"), QStringLiteral("events"), QStringLiteral("-o"), QStringLiteral("json")});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    const QJsonArray rows = parseArray(r.out);
    QSet<QString> groups;
    QJsonObject memory;
    bool pastActive = false;
    for (const QJsonValue &v : rows) {
        const QJsonObject row = v.toObject();
        const QString group = row.value(QLatin1String("group")).toString();
        EXPECT_FALSE(groups.contains(group)) << group.toStdString() << " is on two rows";
        groups << group;
        EXPECT_GE(row.value(QLatin1String("count")).toInt(), 1);
        EXPECT_LE(row.value(QLatin1String("first_seen")).toString(), row.value(QLatin1String("time")).toString());
        const bool active = row.value(QLatin1String("state")).toString() == QLatin1String("active");
        EXPECT_FALSE(active && pastActive) << "an active alert below other rows";
        pastActive = pastActive || !active;
        if (row.value(QLatin1String("title")).toString().contains(QLatin1String("Low installed node memory"))) {
            EXPECT_TRUE(memory.isEmpty()) << "the alert's firings are on more than one row";
            memory = row;
        }
    }
    ASSERT_FALSE(memory.isEmpty());
    EXPECT_GT(memory.value(QLatin1String("count")).toInt(), 100);
    EXPECT_EQ(memory.value(QLatin1String("category")).toString(), QStringLiteral("alert"));
    EXPECT_NE(memory.value(QLatin1String("state")).toString(), QString());
}

TEST(CliEvents, AnAlertHasOneSeverityInAlertsAndEvents)
{
    const EventsCliRun alerts =
        runEventsDemo({QStringLiteral("get"), QStringLiteral("alerts"), QStringLiteral("-o"), QStringLiteral("json")});
    ASSERT_EQ(alerts.code, 0) << alerts.err.toStdString();
    QHash<QString, QString> severityOf; // alert id -> severity
    for (const QJsonValue &v : parseArray(alerts.out)) {
        const QJsonObject row = v.toObject();
        severityOf.insert(row.value(QLatin1String("id")).toString(), row.value(QLatin1String("severity")).toString());
    }
    ASSERT_FALSE(severityOf.isEmpty());
    const EventsCliRun events = runEventsDemo({QStringLiteral("get"),
                                               QStringLiteral("events"),
                                               QStringLiteral("--system"),
                                               QStringLiteral("storagegrid"),
                                               QStringLiteral("-o"),
                                               QStringLiteral("json")});
    ASSERT_EQ(events.code, 0) << events.err.toStdString();
    int compared = 0;
    for (const QJsonValue &v : parseArray(events.out)) {
        const QJsonObject row = v.toObject();
        if (row.value(QLatin1String("category")).toString() != QLatin1String("alert")) {
            continue;
        }
        const QString id = row.value(QLatin1String("object_id")).toString();
        if (!severityOf.contains(id)) {
            continue;
        }
        EXPECT_EQ(row.value(QLatin1String("severity")).toString(), severityOf.value(id)) << id.toStdString();
        ++compared;
    }
    EXPECT_GT(compared, 0);
    for (const QString &severity : std::as_const(severityOf)) {
        EXPECT_TRUE(core::timelineSeverityFromName(severity).has_value()) << severity.toStdString();
    }
}
