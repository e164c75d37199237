#include "app/cli/setcommand.h"

#include "app/cli/actionrun.h"
#include "models/core/domain/action.h"
#include "models/core/domain/schedule.h"
#include "models/core/runtime/engine.h"
#include "models/core/services/historyservice.h"
#include "models/core/services/servicelevels.h"
#include "models/rows/levelrows.h"
#include "models/rows/resources.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <optional>

namespace strata::cli {

namespace {

/// What `set service-level` was asked to do.
struct LevelChangeArgs
{
    QString volume; ///< name, "svm/name", "account/pool/name" or id
    QString to;
    QString then; ///< window: the level after it (default: the current level)
    QString pool;
    bool createPool = false;
    double poolSizeTiB = 0;
    QString at;
    QString window;
    core::Recurrence recurrence = core::Recurrence::Once;
    bool dryRun = false;
};

QString currentLevel(const core::Volume &v)
{
    return v.isAnf() ? v.serviceLevel : v.qosPolicy;
}

int setServiceLevel(const Invocation &in, core::Engine &engine, const LevelChangeArgs &args, const QStringList &sources)
{
    const rows::Format format = in.format;
    const int timeoutSeconds = in.timeoutSeconds;
    const QString &user = in.console.user;
    QTextStream &out = in.console.out;
    auto fail = [&in](const QString &message, int code) {
        return in.console.fail(message, code);
    };
    std::vector<core::Ptr<core::Volume>> matches;
    for (const QString &source : sources) {
        const auto list = engine.estate().volumes().scope(source);
        if (!list) {
            continue;
        }
        for (const core::Ptr<core::Volume> &v : list->items()) {
            const QString qualified = v->svm + QLatin1Char('/') + v->name;
            const QString anfQualified = v->svm + QLatin1Char('/') + v->aggregate + QLatin1Char('/') + v->name;
            if (v->name == args.volume || v->id == args.volume || qualified == args.volume
                || anfQualified == args.volume || v->armId.compare(args.volume, Qt::CaseInsensitive) == 0) {
                matches.push_back(v);
            }
        }
    }
    if (matches.empty()) {
        return fail(QCoreApplication::translate("cli", "no volume matches %1").arg(args.volume), 1);
    }
    if (matches.size() > 1) {
        QStringList names;
        for (const auto &v : matches) {
            names << v->source + QLatin1Char('/') + v->svm + QLatin1Char('/') + v->name;
        }
        return fail(
            QCoreApplication::translate("cli", "%1 matches several volumes (%2): name one with --source or svm/name")
                .arg(args.volume, names.join(QStringLiteral(", "))),
            2);
    }
    const core::Volume &volume = *matches.front();
    const QList<core::LevelOption> options = engine.serviceLevels().options(volume.source, volume.id);
    QStringList levels;
    for (const core::LevelOption &o : options) {
        levels << (o.level.isEmpty() ? QStringLiteral("none") : o.level);
    }
    const QString to = args.to == QLatin1String("none") && !volume.isAnf() ? QString() : args.to;
    if (!levels.contains(args.to)) {
        return fail(QCoreApplication::translate("cli", "%1 is not a service level of %2; choose one of: %3")
                        .arg(args.to, volume.name, levels.join(QStringLiteral(", "))),
                    2);
    }

    core::ActionRequest request(core::ActionKind::ServiceLevelChange, volume.source, volume.id);
    request.targetLevel = to;
    request.targetPool = args.pool;
    request.createPool = args.createPool;
    request.poolSizeBytes = qint64(args.poolSizeTiB * 1024.0 * 1024.0 * 1024.0 * 1024.0);
    const core::ActionPreview preview = engine.actions().preview(request);

    const QDateTime now = engine.clock().now();
    // The CLI only stores a schedule: the desktop app or strata-server that runs the source
    // fires it (a short-lived CLI process must not start changes it cannot see through).
    auto saveSchedule = [&](const core::ServiceLevelSchedule &schedule) -> core::Result<qint64> {
        core::HistoryService *history = engine.history();
        if (!history) {
            return core::fail(QCoreApplication::translate("cli", "no history store is configured"));
        }
        std::optional<core::Result<qint64>> saved;
        history->saveSchedule(schedule, &engine, [&](core::Result<qint64> id) {
            saved = std::move(id);
        });
        waitFor(
            [&] {
                return saved.has_value();
            },
            &engine,
            timeoutSeconds);
        if (!saved) {
            return core::fail(QCoreApplication::translate("cli", "the history store did not answer in time"));
        }
        return *saved;
    };
    const auto notSaved = [&](const core::Error &error) {
        return fail(QCoreApplication::translate("cli", "the schedule could not be saved in the history store: %1")
                        .arg(error.message),
                    1);
    };
    if (!args.at.isEmpty() || !args.window.isEmpty()) {
        core::ServiceLevelSchedule schedule;
        schedule.source = volume.source;
        schedule.volumeId = volume.id;
        schedule.volumeName = volume.name;
        schedule.level = to;
        schedule.recurrence = args.recurrence;
        schedule.createdBy = user;
        schedule.created = now;
        if (!args.at.isEmpty()) {
            const auto when = rows::parseWhen(args.at, now);
            if (!when) {
                return fail(
                    QCoreApplication::translate(
                        "cli", "--at needs an ISO 8601 time (2026-11-23T08:00, 2026-11-23T08:00Z) or +30m, +2h, +1d")
                        .arg(args.at),
                    2);
            }
            schedule.start = *when;
        } else {
            const auto window = rows::parseWindow(args.window, now);
            if (!window) {
                return fail(QCoreApplication::translate("cli", "--window needs START..END with END after START"), 2);
            }
            schedule.start = window->first;
            schedule.end = window->second;
            schedule.revertLevel = args.then.isEmpty() ? currentLevel(volume) : args.then;
        }
        if (schedule.recurrence == core::Recurrence::Once && schedule.start <= now) {
            return fail(
                QCoreApplication::translate("cli", "that time has passed; without --repeat a schedule must lie ahead"),
                2);
        }
        if (format == rows::Format::Json) {
            QJsonObject o{{QStringLiteral("preview_now"), rows::previewJson(preview)},
                          {QStringLiteral("dry_run"), args.dryRun}};
            QJsonArray edges;
            for (const core::UpcomingChange &e : core::nextEdges(schedule, now, 4)) {
                edges.append(QJsonObject{{QStringLiteral("time"), e.time.toString(Qt::ISODate)},
                                         {QStringLiteral("to"), e.toLevel},
                                         {QStringLiteral("revert"), e.revert}});
            }
            o.insert(QStringLiteral("upcoming"), edges);
            if (!args.dryRun) {
                const core::Result<qint64> id = saveSchedule(schedule);
                if (!id) {
                    return notSaved(id.error());
                }
                o.insert(QStringLiteral("schedule_id"), *id);
            }
            out << QJsonDocument(o).toJson(QJsonDocument::Indented);
            return 0;
        }
        rows::writePreview(preview, out);
        out << QCoreApplication::translate("cli", "Upcoming:") << '\n';
        for (const core::UpcomingChange &e : core::nextEdges(schedule, now, 4)) {
            out << "  " << e.time.toLocalTime().toString(Qt::ISODate) << "  " << volume.name << " -> "
                << (e.toLevel.isEmpty() ? QStringLiteral("none") : e.toLevel) << '\n';
        }
        if (args.dryRun) {
            out << QCoreApplication::translate("cli", "Dry run: nothing was scheduled.") << '\n';
            return 0;
        }
        const core::Result<qint64> id = saveSchedule(schedule);
        if (!id) {
            return notSaved(id.error());
        }
        out << QCoreApplication::translate(
                   "cli",
                   "Scheduled as #%1. It runs in the Strata desktop app or strata-server that has source %2; "
                   "the preview is checked again when it runs.")
                   .arg(*id)
                   .arg(volume.source)
            << '\n';
        return 0;
    }

    const ActionRun run{format, args.dryRun, timeoutSeconds, in.console.programName};
    return runAction(engine, request, preview, run, out, in.console.err);
}

/// `set service-level` flags as LevelChangeArgs; a usage error is printed and nullopt returned.
std::optional<LevelChangeArgs> levelChangeArgs(const Invocation &in)
{
    const QCommandLineParser &parser = in.parser;
    const Flags &flags = in.flags;
    LevelChangeArgs args;
    args.volume = in.positional.value(2);
    args.to = parser.value(flags.to);
    args.then = parser.value(flags.then);
    args.pool = parser.value(flags.pool);
    args.createPool = parser.isSet(flags.createPool);
    if (parser.isSet(flags.poolSize)) {
        bool sizeOk = false;
        const int tib = parser.value(flags.poolSize).toInt(&sizeOk);
        // ANF pools come in whole TiB, at least 1.
        if (!sizeOk || tib < 1) {
            in.console.fail(QCoreApplication::translate("cli", "--pool-size needs a whole number of TiB, at least 1"),
                            2);
            return std::nullopt;
        }
        args.poolSizeTiB = tib;
    }
    args.at = parser.value(flags.at);
    args.window = parser.value(flags.window);
    args.dryRun = parser.isSet(flags.dryRun);
    const auto recurrence = core::recurrenceFromName(parser.value(flags.repeat));
    if (!recurrence || (!args.at.isEmpty() && !args.window.isEmpty())) {
        in.console.fail(QCoreApplication::translate("cli",
                                                    "use --at or --window (not both), and --repeat once, daily, "
                                                    "weekdays or weekly"),
                        2);
        return std::nullopt;
    }
    args.recurrence = *recurrence;
    return args;
}

bool setComplete(const Invocation &in)
{
    return in.positional.size() == 3 && rows::normaliseResource(in.positional[1]) == QLatin1String("service-levels")
           && in.parser.isSet(in.flags.to);
}

int checkSet(const Invocation &in)
{
    return levelChangeArgs(in) ? 0 : 2;
}

QList<core::SourceKind> setReads(const Invocation &)
{
    return {core::SourceKind::Ontap, core::SourceKind::Azure};
}

// A scheduled change is stored in the history store: without it there is nothing to do.
HistoryUse setHistory(const Invocation &in)
{
    const bool scheduled = in.parser.isSet(in.flags.at) || in.parser.isSet(in.flags.window);
    return scheduled ? HistoryUse::Required : HistoryUse::Optional;
}

int answerSet(const Invocation &in, Polled &polled)
{
    core::Engine &engine = polled.engine;
    if (engine.history()) {
        // The preview's p95 and cool-down come from history: let the first read land.
        engine.serviceLevels().refreshStatistics();
        waitForSignal(&engine.serviceLevels(), &core::ServiceLevels::changed, 5000);
    }
    return setServiceLevel(in, engine, *levelChangeArgs(in), polled.healthy);
}

} // namespace

Command setCommand()
{
    static const char *const usage = QT_TRANSLATE_NOOP(
        "cli",
        "[--config PATH | --demo] set service-level VOLUME --to LEVEL [--at TIME | --window "
        "START..END [--then LEVEL]] [--repeat once|daily|weekdays|weekly] [--pool NAME] [--create-pool "
        "[--pool-size TIB]] [--dry-run] [-o json]");
    return Command{
        "set", usage, setComplete, checkSet, noOfflineAnswer, setReads, setHistory, true, pollsFirst, answerSet};
}

} // namespace strata::cli
