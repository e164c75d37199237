#include "app/cli/cli.h"

#include "app/cli/actionrun.h"
#include "app/cli/bundlecommand.h"
#include "app/cli/datacommands.h"
#include "app/cli/whycommand.h"
#include "models/core/clock.h"
#include "models/core/config.h"
#include "models/core/datasethub.h"
#include "models/core/engine.h"
#include "models/core/historyservice.h"
#include "models/core/runtime.h"
#include "models/core/schedule.h"
#include "models/core/servicelevels.h"
#include "models/core/source.h"
#include "models/core/timeline.h"
#include "models/rows/computerows.h"
#include "models/rows/datarows.h"
#include "models/rows/levelrows.h"
#include "models/rows/output.h"
#include "models/rows/resources.h"
#include "models/rows/triagerows.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <tuple>

namespace strata::cli {

namespace {

const QStringList &verbs()
{
    static const QStringList v{QStringLiteral("get"),
                               QStringLiteral("set"),
                               QStringLiteral("commit"),
                               QStringLiteral("cache"),
                               QStringLiteral("evict"),
                               QStringLiteral("diff"),
                               QStringLiteral("bundle"),
                               QStringLiteral("why")};
    return v;
}

/// The options `get events` reads, for eventFilterFromOptions().
struct EventOptions
{
    const QCommandLineOption &system, &severity, &since, &until, &search, &job, &source, &volume, &project;
};

/// `get events` flags as a filter; a usage error (unknown system or severity, malformed time)
/// as the returned text, empty when they are fine.
QString
eventFilterFromOptions(const QCommandLineParser &parser, const EventOptions &options, rows::ResourceFilter *filter)
{
    for (const QString &system : parser.values(options.system)) {
        if (!rows::timelineSystemNames().contains(system)) {
            return QCoreApplication::translate("cli", "unknown --system \"%1\" (%2)")
                .arg(system, rows::timelineSystemNames().join(QStringLiteral(", ")));
        }
    }
    filter->systems = parser.values(options.system);
    filter->severity = parser.value(options.severity);
    if (parser.isSet(options.severity) && !core::timelineSeverityFromName(filter->severity)) {
        return QCoreApplication::translate("cli", "unknown --severity \"%1\" (critical, error, warning, info)")
            .arg(filter->severity);
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const auto &[option, bound] :
         {std::pair{&options.since, &filter->since}, std::pair{&options.until, &filter->until}}) {
        if (!parser.isSet(*option)) {
            continue;
        }
        const auto t = rows::parseTimeBound(parser.value(*option), now);
        if (!t) {
            return QCoreApplication::translate("cli",
                                               "--%1 needs an ISO 8601 time (2026-11-22T10:00:00Z) or a duration "
                                               "ago like 30m, 2h, 7d, not \"%2\"")
                .arg(option->names().constFirst(), parser.value(*option));
        }
        *bound = *t;
    }
    filter->search = parser.value(options.search);
    filter->jobs = parser.values(options.job);
    filter->sources = parser.values(options.source);
    filter->volumes = parser.values(options.volume);
    filter->projects = parser.values(options.project);
    return {};
}

/// Waits for one emission of `signal` from `sender` (or the timeout); false on timeout.
template <class Sender, class Signal> bool waitForSignal(Sender *sender, Signal signal, int timeoutMs)
{
    QEventLoop loop;
    bool fired = false;
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    QObject::connect(sender, signal, &loop, [&] {
        fired = true;
        loop.quit();
    });
    deadline.start(timeoutMs);
    loop.exec();
    return fired;
}

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

int setServiceLevel(core::Engine &engine,
                    const LevelChangeArgs &args,
                    const QStringList &sources,
                    rows::Format format,
                    const QString &programName,
                    const QString &user,
                    int timeoutSeconds,
                    QTextStream &out,
                    QTextStream &err)
{
    auto fail = [&](const QString &message, int code) {
        err << programName << ": " << message << '\n';
        return code;
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
    auto saveSchedule = [&](const core::ServiceLevelSchedule &schedule) -> qint64 {
        core::HistoryService *history = engine.history();
        if (!history) {
            return -1;
        }
        qint64 id = 0;
        bool done = false;
        history->saveSchedule(schedule, &engine, [&](qint64 newId) {
            id = newId;
            done = true;
        });
        waitFor(
            [&] {
                return done;
            },
            &engine,
            timeoutSeconds);
        return done ? id : -1;
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
                const qint64 id = saveSchedule(schedule);
                if (id <= 0) {
                    return fail(
                        QCoreApplication::translate("cli", "the schedule could not be saved in the history store"), 1);
                }
                o.insert(QStringLiteral("schedule_id"), id);
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
        const qint64 id = saveSchedule(schedule);
        if (id <= 0) {
            return fail(QCoreApplication::translate("cli", "the schedule could not be saved in the history store"), 1);
        }
        out << QCoreApplication::translate(
                   "cli",
                   "Scheduled as #%1. It runs in the Strata desktop app or strata-server that has source %2; "
                   "the preview is checked again when it runs.")
                   .arg(id)
                   .arg(volume.source)
            << '\n';
        return 0;
    }

    return runAction(engine, request, preview, ActionRun{format, args.dryRun, timeoutSeconds, programName}, out, err);
}

} // namespace

bool isCommand(const QStringList &arguments)
{
    for (const QString &a : arguments) {
        if (verbs().contains(a) || a == QLatin1String("--help") || a == QLatin1String("-h")
            || a == QLatin1String("--version") || a == QLatin1String("-v")) {
            return true;
        }
    }
    return false;
}

int run(const QStringList &arguments,
        const QString &programName,
        core::ICredentialStore &credentials,
        const QString &user,
        QTextStream &out,
        QTextStream &err,
        const RunHooks &hooks)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("cli", "Strata: storage and GPUs behind AI work."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption configOption(
        QStringLiteral("config"),
        QCoreApplication::translate("cli", "Config file (default: %1).").arg(core::AppConfig::defaultPath()),
        QStringLiteral("path"));
    const QCommandLineOption demoOption(
        QStringLiteral("demo"),
        QCoreApplication::translate("cli", "Use the built-in simulated estate instead of a config file."));
    const QCommandLineOption sourceOption(QStringLiteral("source"),
                                          QCoreApplication::translate("cli", "Only this source (repeatable)."),
                                          QStringLiteral("name"));
    const QCommandLineOption volumeOption(
        QStringLiteral("volume"),
        QCoreApplication::translate("cli", "Only this volume (name or id; repeatable)."),
        QStringLiteral("name"));
    const QCommandLineOption projectOption(
        QStringList{QStringLiteral("p"), QStringLiteral("project")},
        QCoreApplication::translate("cli", "Only this project (projects, jobs, pvcs; repeatable)."),
        QStringLiteral("name"));
    const QCommandLineOption outputOption(QStringList{QStringLiteral("o"), QStringLiteral("output")},
                                          QCoreApplication::translate("cli", "Output format: table, json or csv."),
                                          QStringLiteral("format"),
                                          QStringLiteral("table"));
    const QCommandLineOption timeoutOption(
        QStringLiteral("timeout"),
        QCoreApplication::translate("cli",
                                    "Give up after this many seconds: get, why and bundle export wait this long for "
                                    "the sources, then print what arrived and name the rest (default %1); a change "
                                    "is followed this long (default 120).")
            .arg(kDefaultReadTimeoutSeconds),
        QStringLiteral("seconds"));
    const QCommandLineOption toOption(
        QStringLiteral("to"),
        QCoreApplication::translate("cli",
                                    "set service-level: the new level (ANF Standard, Premium, Ultra; ONTAP a QoS "
                                    "policy name or none)."),
        QStringLiteral("level"));
    const QCommandLineOption atOption(
        QStringLiteral("at"),
        QCoreApplication::translate("cli",
                                    "set service-level: schedule it at this time (ISO 8601, or +30m, +2h, +1d)."),
        QStringLiteral("time"));
    const QCommandLineOption windowOption(
        QStringLiteral("window"),
        QCoreApplication::translate("cli",
                                    "set service-level: raise for a window START..END, then return to the current "
                                    "level (or --then)."),
        QStringLiteral("start..end"));
    const QCommandLineOption thenOption(
        QStringLiteral("then"),
        QCoreApplication::translate("cli", "set service-level --window: the level after the window."),
        QStringLiteral("level"));
    const QCommandLineOption repeatOption(
        QStringLiteral("repeat"),
        QCoreApplication::translate("cli", "set service-level --at/--window: once, daily, weekdays or weekly."),
        QStringLiteral("recurrence"),
        QStringLiteral("once"));
    const QCommandLineOption poolOption(
        QStringLiteral("pool"),
        QCoreApplication::translate("cli", "set service-level (ANF): the capacity pool to move to."),
        QStringLiteral("name"));
    const QCommandLineOption createPoolOption(
        QStringLiteral("create-pool"),
        QCoreApplication::translate("cli", "set service-level (ANF): create the target pool when none has room."));
    const QCommandLineOption poolSizeOption(
        QStringLiteral("pool-size"),
        QCoreApplication::translate("cli",
                                    "set service-level --create-pool: its size in TiB (default: the preview's)."),
        QStringLiteral("tib"));
    const QCommandLineOption dryRunOption(
        QStringLiteral("dry-run"),
        QCoreApplication::translate("cli", "set, commit, cache, evict: show the preview and change nothing."));
    const QCommandLineOption messageOption(QStringList{QStringLiteral("m"), QStringLiteral("message")},
                                           QCoreApplication::translate("cli", "commit: the commit message."),
                                           QStringLiteral("text"));
    const QCommandLineOption targetOption(
        QStringLiteral("target"),
        QCoreApplication::translate("cli",
                                    "cache, evict, get caches: the cache target (default: the only one); cache of an "
                                    "ONTAP snapshot commit: the FlexClone's name (default: <volume>_<snapshot>)."),
        QStringLiteral("name"));
    const QCommandLineOption datasetOption(
        QStringLiteral("dataset"),
        QCoreApplication::translate("cli", "get commits: only this dataset (repeatable)."),
        QStringLiteral("name"));
    const QCommandLineOption systemOption(
        QStringLiteral("system"),
        QCoreApplication::translate("cli",
                                    "get events: only this system: ontap, storagegrid, azure, kubernetes or strata "
                                    "(repeatable)."),
        QStringLiteral("name"));
    const QCommandLineOption severityOption(
        QStringLiteral("severity"),
        QCoreApplication::translate("cli", "get events: this severity and worse: critical, error, warning or info."),
        QStringLiteral("level"));
    const QCommandLineOption sinceOption(
        QStringLiteral("since"),
        QCoreApplication::translate("cli", "get events: from this time (ISO 8601, or 30m, 2h, 7d ago)."),
        QStringLiteral("time"));
    const QCommandLineOption untilOption(
        QStringLiteral("until"),
        QCoreApplication::translate("cli", "get events: up to this time (ISO 8601, or 30m, 2h, 7d ago)."),
        QStringLiteral("time"));
    const QCommandLineOption searchOption(
        QStringLiteral("search"),
        QCoreApplication::translate("cli",
                                    "get events: only entries whose title, message, object or source contain "
                                    "this text."),
        QStringLiteral("text"));
    const QCommandLineOption jobOption(
        QStringLiteral("job"),
        QCoreApplication::translate("cli", "get events: only this job (<namespace>/<name> or name; repeatable)."),
        QStringLiteral("name"));
    parser.addOptions({systemOption, severityOption, sinceOption, untilOption, searchOption, jobOption});
    const QCommandLineOption bundleOption(
        QStringLiteral("bundle"),
        QCoreApplication::translate("cli", "Answer from this support bundle, offline and read-only."),
        QStringLiteral("file"));
    const QCommandLineOption hoursOption(
        QStringLiteral("hours"),
        QCoreApplication::translate("cli", "bundle export: hours of history to include (default 24)."),
        QStringLiteral("n"),
        QStringLiteral("24"));
    parser.addOptions({bundleOption, hoursOption});
    parser.addOptions({configOption,
                       demoOption,
                       sourceOption,
                       volumeOption,
                       projectOption,
                       outputOption,
                       timeoutOption,
                       toOption,
                       atOption,
                       windowOption,
                       thenOption,
                       repeatOption,
                       poolOption,
                       createPoolOption,
                       poolSizeOption,
                       dryRunOption,
                       messageOption,
                       targetOption,
                       datasetOption});
    parser.addPositionalArgument(QStringLiteral("verb"),
                                 QCoreApplication::translate("cli", "get, set, commit, cache, evict or diff"));
    parser.addPositionalArgument(
        QStringLiteral("resource"),
        QCoreApplication::translate("cli",
                                    "get: sources, volumes, snapshots, clusters, nodes, "
                                    "projects, jobs, pvcs, service-levels, pools, aks, "
                                    "schedules, datasets, commits, caches, cache-targets, "
                                    "grids, tenants, buckets, alerts, events, systems, attention; set: service-level "
                                    "VOLUME; commit DATASET; cache|evict COMMIT; diff FROM "
                                    "TO"));

    QStringList argv = arguments;
    argv.prepend(programName);
    if (!parser.parse(argv)) {
        err << programName << ": " << parser.errorText() << '\n';
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << parser.helpText();
        return 0;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        out << programName << ' ' << QCoreApplication::applicationVersion() << '\n';
        return 0;
    }
    const QStringList positional = parser.positionalArguments();
    const bool setVerb = !positional.isEmpty() && positional[0] == QLatin1String("set");
    const bool dataVerb = !positional.isEmpty() && isDataVerb(positional[0]);
    const bool bundleVerb = !positional.isEmpty() && positional[0] == QLatin1String("bundle");
    const bool whyVerb = !positional.isEmpty() && positional[0] == QLatin1String("why");
    const bool usageOk =
        bundleVerb ? (positional.size() == 3 && positional[1] == QLatin1String("export"))
                         || (positional.size() == 4 && positional[1] == QLatin1String("diff"))
        : whyVerb ? positional.size() == 2
        : dataVerb
            ? positional.size() == 1 + dataVerbOperands(positional[0])
                  && (positional[0] != QLatin1String("commit") || !parser.value(messageOption).trimmed().isEmpty())
        : setVerb ? positional.size() == 3 && rows::normaliseResource(positional[1]) == QLatin1String("service-levels")
                        && parser.isSet(toOption)
                  : positional.size() == 2 && positional[0] == QLatin1String("get")
                        && rows::resourceNames().contains(rows::normaliseResource(positional[1]));
    // Name the word that is wrong before the whole usage: "get widgets" is a typo, not a lost user.
    if (!usageOk && !positional.isEmpty() && !verbs().contains(positional[0])) {
        err << programName << ": "
            << QCoreApplication::translate("cli", "unknown command \"%1\"; commands: %2 (see %3 --help)")
                   .arg(positional[0], verbs().join(QStringLiteral(", ")), programName)
            << '\n';
        return 2;
    }
    if (!usageOk && positional.size() == 2 && positional[0] == QLatin1String("get")
        && !rows::resourceNames().contains(rows::normaliseResource(positional[1]))) {
        err << programName << ": "
            << QCoreApplication::translate("cli", "unknown resource \"%1\"; get lists: %2")
                   .arg(positional[1], rows::resourceNames().join(QStringLiteral(", ")))
            << '\n';
        return 2;
    }
    if (!usageOk) {
        err << programName << ": "
            << QCoreApplication::translate(
                   "cli",
                   "usage: %1 [--config PATH | --demo] get "
                   "sources|volumes|snapshots|clusters|nodes|projects|jobs|pvcs|service-levels|pools|aks|schedules|"
                   "datasets|commits|caches|cache-targets|grids|tenants|buckets|alerts|events|systems|attention "
                   "[--source NAME] [--volume NAME] [--project NAME] [--dataset NAME] [--target NAME] "
                   "[-o table|json|csv]\n"
                   "       %1 [--config PATH | --demo] get events [--system NAME] [--severity "
                   "critical|error|warning|info] [--since TIME] [--until TIME] [--search TEXT] [--job NAME]\n"
                   "       %1 [--config PATH | --demo] commit DATASET -m MESSAGE [--dry-run] [-o json]\n"
                   "       %1 [--config PATH | --demo] cache|evict COMMIT [--target NAME] [--dry-run] [-o json]\n"
                   "       %1 [--config PATH | --demo] diff FROM TO [-o table|json|csv]\n"
                   "       %1 [--config PATH | --demo] why JOB [--source NAME] [-o table|json]\n"
                   "       %1 [--config PATH | --demo] set service-level VOLUME --to LEVEL [--at TIME | --window "
                   "START..END [--then LEVEL]] [--repeat once|daily|weekdays|weekly] [--pool NAME] [--create-pool "
                   "[--pool-size TIB]] [--dry-run] [-o json]\n"
                   "       %1 [--config PATH | --demo] bundle export FILE [--hours N]\n"
                   "       %1 bundle diff A B [-o table|json]\n"
                   "       %1 --bundle FILE get RESOURCE [...]")
                   .arg(programName)
            << '\n';
        return 2;
    }
    const QString resource = dataVerb || bundleVerb || whyVerb ? QString() : rows::normaliseResource(positional[1]);
    LevelChangeArgs levelArgs;
    if (setVerb) {
        levelArgs.volume = positional[2];
        levelArgs.to = parser.value(toOption);
        levelArgs.then = parser.value(thenOption);
        levelArgs.pool = parser.value(poolOption);
        levelArgs.createPool = parser.isSet(createPoolOption);
        if (parser.isSet(poolSizeOption)) {
            bool sizeOk = false;
            const int tib = parser.value(poolSizeOption).toInt(&sizeOk);
            // ANF pools come in whole TiB, at least 1.
            if (!sizeOk || tib < 1) {
                err << programName << ": "
                    << QCoreApplication::translate("cli", "--pool-size needs a whole number of TiB, at least 1")
                    << '\n';
                return 2;
            }
            levelArgs.poolSizeTiB = tib;
        }
        levelArgs.at = parser.value(atOption);
        levelArgs.window = parser.value(windowOption);
        levelArgs.dryRun = parser.isSet(dryRunOption);
        const auto recurrence = core::recurrenceFromName(parser.value(repeatOption));
        if (!recurrence || (!levelArgs.at.isEmpty() && !levelArgs.window.isEmpty())) {
            err << programName << ": "
                << QCoreApplication::translate("cli",
                                               "use --at or --window (not both), and --repeat once, daily, weekdays "
                                               "or weekly")
                << '\n';
            return 2;
        }
        levelArgs.recurrence = *recurrence;
    }
    const QString formatName = parser.value(outputOption);
    rows::Format format = rows::Format::Table;
    if (formatName == QLatin1String("json")) {
        format = rows::Format::Json;
    } else if (formatName == QLatin1String("csv")) {
        format = rows::Format::Csv;
    } else if (formatName != QLatin1String("table") && formatName != QLatin1String("wide")) {
        err << programName << ": "
            << QCoreApplication::translate("cli", "unknown output format \"%1\" (table, json, csv)").arg(formatName)
            << '\n';
        return 2;
    }
    rows::ResourceFilter eventFilter;
    if (resource == QLatin1String("events")) {
        const QString usageError = eventFilterFromOptions(parser,
                                                          EventOptions{systemOption,
                                                                       severityOption,
                                                                       sinceOption,
                                                                       untilOption,
                                                                       searchOption,
                                                                       jobOption,
                                                                       sourceOption,
                                                                       volumeOption,
                                                                       projectOption},
                                                          &eventFilter);
        if (!usageError.isEmpty()) {
            err << programName << ": " << usageError << '\n';
            return 2;
        }
    }
    bool timeoutOk = true;
    const bool changes = setVerb || dataVerb;
    const int timeoutSeconds = parser.isSet(timeoutOption) ? parser.value(timeoutOption).toInt(&timeoutOk)
                               : changes                   ? 120
                                                           : kDefaultReadTimeoutSeconds;
    if (!timeoutOk || timeoutSeconds <= 0) {
        err << programName << ": " << QCoreApplication::translate("cli", "--timeout needs a positive number of seconds")
            << '\n';
        return 2;
    }

    if (bundleVerb && positional[1] == QLatin1String("diff")) {
        return diffBundleFiles(positional[2], positional[3], format, programName, out, err);
    }
    bool hoursOk = false;
    const int hours = parser.value(hoursOption).toInt(&hoursOk);
    if (!hoursOk || hours < 1) {
        err << programName << ": " << QCoreApplication::translate("cli", "--hours needs a whole number, at least 1")
            << '\n';
        return 2;
    }
    if (parser.isSet(bundleOption)) {
        if (positional[0] != QLatin1String("get")) {
            err << programName << ": "
                << QCoreApplication::translate("cli", "a support bundle is read-only: only get answers from it")
                << '\n';
            return 2;
        }
        rows::ResourceFilter bundleFilter = eventFilter; // `get events` keeps its --system, --severity, ...
        bundleFilter.sources = parser.values(sourceOption);
        bundleFilter.volumes = parser.values(volumeOption);
        bundleFilter.projects = parser.values(projectOption);
        bundleFilter.datasets = parser.values(datasetOption);
        bundleFilter.targets = parser.values(targetOption);
        return getFromBundle(parser.value(bundleOption), resource, bundleFilter, format, programName, out, err);
    }

    core::RuntimeOptions runtimeOptions;
    if (parser.isSet(demoOption)) {
        runtimeOptions.demo =
            hooks.startDemo ? hooks.startDemo : [](core::AppConfig *, core::ICredentialStore **, QString *error) {
                *error = QCoreApplication::translate("cli", "this program was built without it");
                return std::shared_ptr<void>();
            };
    } else {
        const QString path = parser.isSet(configOption) ? parser.value(configOption) : core::AppConfig::defaultPath();
        if (!parser.isSet(configOption) && !QFileInfo::exists(path)) {
            err << programName << ": "
                << QCoreApplication::translate("cli",
                                               "no sources configured yet (%1 does not exist). Add them on the "
                                               "desktop app's Sources page or write that file (see the README), "
                                               "pass --config PATH, or try the simulated estate: %2 --demo %3")
                       .arg(path, programName, arguments.join(QLatin1Char(' ')))
                << '\n';
            return 2;
        }
        runtimeOptions.configPath = path;
        runtimeOptions.credentials = &credentials;
    }
    // Service levels need the history store: p95 throughput, the cool-down's last change, and
    // schedules (shared with the desktop app and strata-server through the same SQLite file).
    runtimeOptions.history = setVerb || dataVerb || bundleVerb || resource == QLatin1String("service-levels")
                             || resource == QLatin1String("schedules") || resource == QLatin1String("events");
    runtimeOptions.user = user;
    // Sources name what they still lack a little before the command's own deadline, so the answer
    // says which resource stalled, not only which source.
    runtimeOptions.firstPollDeadline = std::chrono::milliseconds(timeoutSeconds * 750);
    runtimeOptions.startSources = false; // only the --source ones, below
    QString runtimeError;
    const std::unique_ptr<core::Runtime> runtime = core::Runtime::build(runtimeOptions, &runtimeError);
    if (!runtime) {
        err << programName << ": "
            << (runtimeOptions.demo
                    ? QCoreApplication::translate("cli", "cannot start the demo estate: %1").arg(runtimeError)
                    : runtimeError)
            << '\n';
        return 2;
    }
    const core::AppConfig &config = runtime->config();

    QList<core::SourceConfig> selected;
    const QStringList wanted = parser.values(sourceOption);
    for (const QString &name : wanted) {
        if (!config.source(name)) {
            err << programName << ": "
                << QCoreApplication::translate("cli", "no source named \"%1\" is configured").arg(name) << '\n';
            return 2;
        }
    }
    for (const core::SourceConfig &s : std::as_const(config.sources)) {
        if (wanted.isEmpty() || wanted.contains(s.name)) {
            selected.append(s);
        }
    }

    if (!runtime->historyError().isEmpty()) {
        err << programName << ": "
            << QCoreApplication::translate("cli", "history store unavailable: %1").arg(runtime->historyError()) << '\n';
        if (resource == QLatin1String("schedules") || !levelArgs.at.isEmpty() || !levelArgs.window.isEmpty()) {
            return 1;
        }
    }
    core::HistoryService *history = runtime->history();
    core::Engine &engine = runtime->engine();
    const core::IClock &clock = engine.clock();
    // The answer is computed while the engine lives; the hook runs before its sources (and the
    // demo estate) are torn down.
    const int answerCode = [&]() -> int {
        if (resource == QLatin1String("schedules")) {
            std::vector<core::ServiceLevelSchedule> stored;
            bool done = false;
            history->schedules(&engine, [&](std::vector<core::ServiceLevelSchedule> list) {
                stored = std::move(list);
                done = true;
            });
            if (!waitFor(
                    [&] {
                        return done;
                    },
                    &engine,
                    timeoutSeconds)) {
                err << programName << ": " << QCoreApplication::translate("cli", "timed out reading the schedules")
                    << '\n';
                return 1;
            }
            QList<core::ServiceLevelSchedule> list(stored.begin(), stored.end());
            if (!wanted.isEmpty()) {
                list.removeIf([&](const core::ServiceLevelSchedule &s) {
                    return !wanted.contains(s.source);
                });
            }
            rows::write(rows::scheduleRows(list, clock.now()), format, out);
            return 0;
        }
        engine.setSources(selected);
        // One deadline for the whole answer: the sources, then what a verb reads after them.
        const QDeadlineTimer deadline{std::chrono::seconds(timeoutSeconds)};
        const auto remainingSeconds = [&deadline] {
            return std::max(1, int((deadline.remainingTime() + 999) / 1000));
        };
        waitFor(
            [&] {
                return engine.allPolledOnce();
            },
            &engine,
            timeoutSeconds);
        if (history) {
            // An action a killed Strata left open is settled (followed to its end, or recorded as
            // found) before this command answers or changes anything.
            waitFor(
                [&] {
                    return engine.actions().recoveryIdle();
                },
                &engine,
                remainingSeconds());
        }

        // A source that failed, or has not finished its first poll by the deadline, is named with what
        // went wrong; what it did return (a degraded Kubernetes cluster's other resources) is listed
        // with everything else.
        int exitCode = 0;
        QStringList failed;
        for (const core::SourceStatus &s : engine.statuses()) {
            const core::Source *source = engine.source(s.name);
            const bool answered = !source || source->hasPolledOnce();
            if (s.health == core::Health::Ok && answered) {
                continue;
            }
            failed << s.name;
            QString why = s.lastError;
            if (!answered) {
                const QString stalled = QCoreApplication::translate("cli", "no complete answer within %1 s (--timeout)")
                                            .arg(timeoutSeconds);
                why = why.isEmpty() ? stalled : stalled + QStringLiteral("; ") + why;
            } else if (why.isEmpty()) {
                why = core::healthName(s.health);
            }
            err << programName << ": " << QCoreApplication::translate("cli", "source %1: %2").arg(s.name, why) << '\n';
            exitCode = 1;
        }

        if (resource == QLatin1String("sources")) {
            rows::write(rows::sourceRows(engine.statuses()), format, out);
            return exitCode;
        }
        if (bundleVerb) {
            // A failing source is what a support bundle is made for: the bundle is written with its
            // status in it, and the exit code says it is partial, as for get.
            const int written =
                exportBundleFile(engine, positional[2], hours, user, remainingSeconds(), programName, out, err);
            return written != 0 ? written : exitCode;
        }

        // Reads list what every source returned; changes act only on sources that answered in full.
        QStringList listed;
        QStringList healthy;
        for (const core::SourceConfig &s : std::as_const(selected)) {
            listed << s.name;
            if (!failed.contains(s.name)) {
                healthy << s.name;
            }
        }
        for (QStringList *names : {&listed, &healthy}) {
            if (names->isEmpty()) {
                *names << QString(); // nothing to list from: never all of the estate
            }
        }
        if (whyVerb) {
            const int answered =
                runWhy(engine, positional[1], listed, format, remainingSeconds(), programName, out, err);
            return answered != 0 ? answered : exitCode;
        }
        if (dataVerb) {
            const DataVerb verb{
                positional[0], positional.mid(1), parser.value(messageOption), parser.value(targetOption)};
            return runDataVerb(engine,
                               verb,
                               healthy,
                               ActionRun{format, parser.isSet(dryRunOption), timeoutSeconds, programName},
                               out,
                               err);
        }
        if (resource == QLatin1String("events")) {
            // The audit log is read asynchronously: Strata's own operations belong in the listing.
            waitFor(
                [&] {
                    return engine.timeline().auditLoaded();
                },
                &engine,
                remainingSeconds());
            rows::write(*rows::resourceRows(engine, resource, eventFilter, clock.now()), format, out);
            return exitCode;
        }
        rows::ResourceFilter listFilter;
        listFilter.sources = listed;
        listFilter.volumes = parser.values(volumeOption);
        listFilter.projects = parser.values(projectOption);
        listFilter.datasets = parser.values(datasetOption);
        listFilter.targets = parser.values(targetOption);
        if (resource == QLatin1String("datasets") && format == rows::Format::Table) {
            out << core::summarize(engine.estate()).headerText() << "\n\n";
        }
        if (resource == QLatin1String("systems")) {
            // ONTAP polls performance for watchers only: watch until each ONTAP source answered,
            // so "throughput now" is a figure as on the Overviews.
            engine.subscribePerformance();
            waitFor(
                [&] {
                    return std::all_of(selected.cbegin(), selected.cend(), [&](const core::SourceConfig &s) {
                        return s.kind != core::SourceKind::Ontap || engine.estate().volumePerf().scope(s.name);
                    });
                },
                &engine,
                std::min(remainingSeconds(), 15));
            engine.unsubscribePerformance();
        }
        if (resource == QLatin1String("datasets") || resource == QLatin1String("commits")
            || resource == QLatin1String("caches") || resource == QLatin1String("cache-targets")
            || resource == QLatin1String("grids") || resource == QLatin1String("tenants")
            || resource == QLatin1String("buckets") || resource == QLatin1String("alerts")
            || resource == QLatin1String("systems") || resource == QLatin1String("attention")) {
            rows::write(*rows::resourceRows(engine, resource, listFilter, clock.now()), format, out);
            return exitCode;
        }
        if (setVerb) {
            if (history) {
                // The preview's p95 and cool-down come from history: let the first read land.
                engine.serviceLevels().refreshStatistics();
                waitForSignal(&engine.serviceLevels(), &core::ServiceLevels::changed, 5000);
            }
            return setServiceLevel(engine, levelArgs, healthy, format, programName, user, timeoutSeconds, out, err);
        }
        if (resource == QLatin1String("service-levels")) {
            if (history) {
                engine.serviceLevels().refreshStatistics();
                waitForSignal(&engine.serviceLevels(), &core::ServiceLevels::changed, 5000);
            }
            rows::write(*rows::resourceRows(engine, resource, listFilter, clock.now()), format, out);
            return exitCode;
        }
        if (resource == QLatin1String("pools") || resource == QLatin1String("aks")) {
            rows::write(*rows::resourceRows(engine, resource, listFilter, clock.now()), format, out);
            return exitCode;
        }

        if (rows::isComputeResource(resource)) {
            rows::ComputeFilter filter;
            filter.projects = parser.values(projectOption);
            for (const core::SourceConfig &s : std::as_const(selected)) {
                if (s.kind == core::SourceKind::Kubernetes) {
                    filter.sources << s.name;
                }
            }
            if (filter.sources.isEmpty()) {
                // Nothing to list from (no Kubernetes source): never all of the estate.
                filter.sources << QString();
            }
            const QStringList unknown = rows::unknownProjects(engine.estate(), filter);
            if (!unknown.isEmpty() && resource != QLatin1String("clusters") && resource != QLatin1String("nodes")
                && exitCode == 0) {
                err << programName << ": "
                    << QCoreApplication::translate("cli", "no project named %1").arg(unknown.join(QStringLiteral(", ")))
                    << '\n';
                return 1;
            }
            if (resource == QLatin1String("clusters")) {
                rows::write(rows::clusterRows(engine.estate(), filter), format, out);
            } else if (resource == QLatin1String("nodes")) {
                rows::write(rows::nodeRows(engine.estate(), filter), format, out);
            } else if (resource == QLatin1String("projects")) {
                rows::write(rows::projectRows(engine.estate(), filter), format, out);
            } else if (resource == QLatin1String("jobs")) {
                rows::write(rows::jobRows(engine.estate(), filter, clock.now()), format, out);
            } else {
                rows::write(rows::pvcRows(engine.estate(), filter), format, out);
            }
            return exitCode;
        }

        std::vector<core::Ptr<core::Volume>> volumes;
        const QStringList volumeFilter = parser.values(volumeOption);
        for (const core::SourceConfig &s : std::as_const(selected)) {
            const auto list = engine.estate().volumes().scope(s.name);
            if (!list) {
                continue;
            }
            for (const core::Ptr<core::Volume> &v : list->items()) {
                if (volumeFilter.isEmpty() || volumeFilter.contains(v->name) || volumeFilter.contains(v->id)) {
                    volumes.push_back(v);
                }
            }
        }
        if (!volumeFilter.isEmpty() && volumes.empty() && exitCode == 0) {
            err << programName << ": "
                << QCoreApplication::translate("cli", "no volume matches %1")
                       .arg(volumeFilter.join(QStringLiteral(", ")))
                << '\n';
            return 1;
        }
        // Stable, readable order whatever order the systems answered in (kubectl lists by name).
        std::sort(
            volumes.begin(), volumes.end(), [](const core::Ptr<core::Volume> &a, const core::Ptr<core::Volume> &b) {
                return std::tie(a->source, a->svm, a->name) < std::tie(b->source, b->svm, b->name);
            });
        if (resource == QLatin1String("volumes")) {
            rows::write(rows::volumeRows(volumes), format, out);
            return exitCode;
        }

        // Snapshots: one listing per volume, run concurrently (the transport caps in-flight requests).
        // The state outlives this frame: a listing that answers after the deadline finds it still there.
        struct SnapshotListing
        {
            QStringList pending; ///< labels of the volumes still listing
            QStringList errors;
        };
        const auto listing = std::make_shared<SnapshotListing>();
        for (const core::Ptr<core::Volume> &v : volumes) {
            core::Source *source = engine.source(v->source);
            const QString label = v->source + QLatin1Char('/') + v->svm + QLatin1Char('/') + v->name;
            listing->pending << label;
            source->fetchSnapshots(v->id, [listing, label](const QString &error) {
                if (!error.isEmpty()) {
                    listing->errors << label + QStringLiteral(": ") + error;
                }
                listing->pending.removeOne(label);
            });
        }
        if (!waitFor(
                [&] {
                    return listing->pending.isEmpty();
                },
                &engine,
                remainingSeconds())) {
            for (const QString &label : std::as_const(listing->pending)) {
                listing->errors << QCoreApplication::translate("cli", "%1: no snapshot listing within %2 s (--timeout)")
                                       .arg(label)
                                       .arg(timeoutSeconds);
            }
        }
        const std::vector<core::Ptr<core::Snapshot>> snapshots = rows::snapshotsOf(engine.estate(), volumes);
        for (const QString &e : std::as_const(listing->errors)) {
            err << programName << ": " << e << '\n';
            exitCode = 1;
        }
        rows::write(rows::snapshotRows(snapshots), format, out);
        return exitCode;
    }();
    if (hooks.answered) {
        hooks.answered(answerCode);
    }
    return answerCode;
}

void armExitWatchdog(int exitCode, int graceSeconds, const QString &programName, QTextStream &out, QTextStream &err)
{
    out.flush();
    err.flush();
    std::fflush(stdout);
    std::fflush(stderr);
    const QString text =
        programName + QStringLiteral(": ")
        + QCoreApplication::translate("cli", "a source did not stop within %1 s after the answer; exiting")
              .arg(graceSeconds)
        + QLatin1Char('\n');
    const std::string message = text.toStdString();
    std::thread([exitCode, graceSeconds, message] {
        std::this_thread::sleep_for(std::chrono::seconds(graceSeconds));
        std::fflush(stdout);
        std::fputs(message.c_str(), stderr);
        std::fflush(stderr);
        std::_Exit(exitCode);
    }).detach();
}

} // namespace strata::cli
