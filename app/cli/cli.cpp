#include "app/cli/cli.h"

#include "app/cli/actionrun.h"
#include "app/cli/bundlecommand.h"
#include "app/cli/datacommands.h"
#include "app/cli/whycommand.h"
#include "models/core/domain/clock.h"
#include "models/core/domain/schedule.h"
#include "models/core/planning/datasethub.h"
#include "models/core/runtime/engine.h"
#include "models/core/runtime/runtime.h"
#include "models/core/runtime/timeline.h"
#include "models/core/services/historyservice.h"
#include "models/core/services/servicelevels.h"
#include "models/core/sources/source.h"
#include "models/core/store/config.h"
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
#include <vector>

namespace strata::cli {

namespace {

/// Every command's forms, listed when the words do not make one and by --help (reads, the
/// dataset verbs, why and what-if, set, bundles).
QString usageText(const QString &programName)
{
    QStringList lines;
    for (const char *verb : {"get", "commit", "cache", "evict", "diff", "why", "what-if", "set", "bundle"}) {
        for (const QString &form :
             QCoreApplication::translate("cli", findCommand(QLatin1String(verb))->usage).split(QLatin1Char('\n'))) {
            if (!lines.contains(form)) { // cache and evict share theirs
                lines << form;
            }
        }
    }
    QString text;
    for (const QString &form : std::as_const(lines)) {
        text += (text.isEmpty() ? QStringLiteral("usage: ") : QStringLiteral("\n       ")) + programName
                + QLatin1Char(' ') + form;
    }
    return text;
}

/// Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`, case-insensitive.
int editDistance(const QString &a, const QString &b)
{
    const QString x = a.toLower();
    const QString y = b.toLower();
    std::vector<std::vector<int>> d(x.size() + 1, std::vector<int>(y.size() + 1));
    for (qsizetype i = 0; i <= x.size(); ++i) {
        d[i][0] = int(i);
    }
    for (qsizetype j = 0; j <= y.size(); ++j) {
        d[0][j] = int(j);
    }
    for (qsizetype i = 1; i <= x.size(); ++i) {
        for (qsizetype j = 1; j <= y.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1]) {
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
            }
        }
    }
    return d[x.size()][y.size()];
}

/// The candidate a mistyped `word` most likely meant: the nearest within a third of its length
/// (at least 2 edits), or one it starts or ends; empty when none is that close.
QString closestWord(const QString &word, const QStringList &candidates)
{
    QString best;
    int bestDistance = std::max(2, int(word.size()) / 3) + 1;
    for (const QString &c : candidates) {
        const int distance = editDistance(word, c);
        if (distance < bestDistance) {
            best = c;
            bestDistance = distance;
        }
    }
    if (best.isEmpty() && word.size() >= 3) {
        for (const QString &c : candidates) {
            if (c.startsWith(word, Qt::CaseInsensitive) || word.startsWith(c, Qt::CaseInsensitive)) {
                return c;
            }
        }
    }
    return best;
}

/// What `get` lists: the resources, and the chargeback.
QStringList getWords()
{
    return rows::resourceNames() + QStringList{QStringLiteral("chargeback")};
}

/// The sources `in` reads, started and polled once (or until the deadline): names every source
/// that failed or did not answer on err.
void pollSources(const Invocation &in, const core::Runtime &runtime, Polled &polled)
{
    core::Engine &engine = polled.engine;
    engine.setSources(polled.selected);
    waitFor(
        [&] {
            return engine.allPolledOnce();
        },
        &engine,
        in.timeoutSeconds);
    if (runtime.history()) {
        // An action a killed Strata left open is settled (followed to its end, or recorded as
        // found) before this command answers or changes anything.
        waitFor(
            [&] {
                return engine.actions().recoveryIdle();
            },
            &engine,
            polled.remainingSeconds());
    }

    // A source that failed, or has not finished its first poll by the deadline, is named with what
    // went wrong; what it did return (a degraded Kubernetes cluster's other resources) is listed
    // with everything else.
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
            const QString stalled =
                QCoreApplication::translate("cli", "no complete answer within %1 s (--timeout)").arg(in.timeoutSeconds);
            why = why.isEmpty() ? stalled : stalled + QStringLiteral("; ") + why;
        } else if (why.isEmpty()) {
            why = core::healthName(s.health);
        }
        polled.exitCode = in.console.fail(QCoreApplication::translate("cli", "source %1: %2").arg(s.name, why), 1);
    }

    // Reads list what every source returned; changes act only on sources that answered in full.
    for (const core::SourceConfig &s : std::as_const(polled.selected)) {
        polled.listed << s.name;
        if (!failed.contains(s.name)) {
            polled.healthy << s.name;
        }
    }
    for (QStringList *names : {&polled.listed, &polled.healthy}) {
        if (names->isEmpty()) {
            *names << QString(); // nothing to list from: never all of the estate
        }
    }
}

/// The words as a command of the table, or the usage error (exit code 2) printed.
const Command *commandOf(Invocation &in)
{
    const Console &console = in.console;
    const Command *command = in.positional.isEmpty() ? nullptr : findCommand(in.verb());
    if (command && in.verb() == QLatin1String("get")) {
        in.resource = rows::normaliseResource(in.positional.value(1));
    }
    if (command && command->complete(in)) {
        return command;
    }
    // Name the word that is wrong before the whole usage: "get widgets" is a typo, not a lost user.
    if (!command && !in.positional.isEmpty()) {
        QStringList verbs;
        for (const Command &c : commands()) {
            verbs << QLatin1String(c.verb);
        }
        QString message = QCoreApplication::translate("cli", "unknown command \"%1\"; commands: %2 (see %3 --help)")
                              .arg(in.verb(), verbs.join(QStringLiteral(", ")), console.programName);
        // A verb typed wrong, or a resource typed without `get`.
        QString meant = closestWord(in.verb(), verbs);
        if (meant.isEmpty()) {
            const QString resource = closestWord(rows::normaliseResource(in.verb()), getWords());
            meant = resource.isEmpty() ? QString() : QStringLiteral("get ") + resource;
        }
        if (!meant.isEmpty()) {
            message += QCoreApplication::translate("cli", "; did you mean \"%1\"?").arg(meant);
        }
        console.fail(message, 2);
    } else if (in.positional.size() == 2 && in.verb() == QLatin1String("get")) {
        QString message = QCoreApplication::translate("cli", "unknown resource \"%1\"; get lists: %2")
                              .arg(in.positional[1], getWords().join(QStringLiteral(", ")));
        if (const QString meant = closestWord(in.positional[1], getWords()); !meant.isEmpty()) {
            message += QCoreApplication::translate("cli", "; did you mean \"%1\"?").arg(meant);
        }
        console.fail(message, 2);
    } else {
        console.fail(usageText(console.programName), 2);
    }
    return nullptr;
}

/// -o and --timeout into `in`; a usage error printed as exit code 2, else 0.
int readCommonFlags(const Command &command, Invocation &in)
{
    const QString formatName = in.parser.value(in.flags.output);
    if (formatName == QLatin1String("json")) {
        in.format = rows::Format::Json;
    } else if (formatName == QLatin1String("csv")) {
        in.format = rows::Format::Csv;
    } else if (formatName != QLatin1String("table") && formatName != QLatin1String("wide")) {
        return in.console.fail(
            QCoreApplication::translate("cli", "unknown output format \"%1\" (table, json, csv)").arg(formatName), 2);
    }
    if (const int usage = command.check(in)) {
        return usage;
    }
    bool timeoutOk = true;
    in.timeoutSeconds = in.parser.isSet(in.flags.timeout) ? in.parser.value(in.flags.timeout).toInt(&timeoutOk)
                        : command.changes                 ? 120
                                                          : kDefaultReadTimeoutSeconds;
    if (!timeoutOk || in.timeoutSeconds <= 0) {
        return in.console.fail(QCoreApplication::translate("cli", "--timeout needs a positive number of seconds"), 2);
    }
    return 0;
}

} // namespace

bool isCommand(const QStringList &arguments)
{
    for (const QString &a : arguments) {
        if (findCommand(a) || a == QLatin1String("--help") || a == QLatin1String("-h")
            || a == QLatin1String("--version") || a == QLatin1String("-v")) {
            return true;
        }
    }
    return false;
}

int run(const QStringList &arguments,
        core::ICredentialStore &credentials,
        const Console &console,
        const RunHooks &hooks)
{
    const QString &programName = console.programName;
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("cli", "Strata: storage and GPUs behind AI work."));
    parser.addHelpOption();
    parser.addVersionOption();
    const Flags flags;
    flags.addTo(parser);
    QStringList verbs;
    for (const Command &c : commands()) {
        verbs << QLatin1String(c.verb);
    }
    parser.addPositionalArgument(QStringLiteral("verb"), verbs.join(QStringLiteral(", ")));
    parser.addPositionalArgument(
        QStringLiteral("words"),
        QCoreApplication::translate("cli",
                                    "get: %1; set: service-level VOLUME; commit DATASET; cache|evict COMMIT; diff "
                                    "FROM TO; why JOB; what-if quota PROJECT=GPUS; bundle export FILE | diff A B "
                                    "(the forms below)")
            .arg(getWords().join(QStringLiteral(", "))));

    QStringList argv = arguments;
    argv.prepend(programName);
    if (!parser.parse(argv)) {
        return console.fail(parser.errorText(), 2);
    }
    if (parser.isSet(QStringLiteral("help"))) {
        console.out << parser.helpText() << '\n' << usageText(programName) << '\n';
        return 0;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        console.out << programName << ' ' << QCoreApplication::applicationVersion() << '\n';
        return 0;
    }
    Invocation in{parser, flags, parser.positionalArguments(), {}, rows::Format::Table, 0, console};
    const Command *command = commandOf(in);
    if (!command) {
        return 2;
    }
    if (const int usage = readCommonFlags(*command, in)) {
        return usage;
    }
    const bool get = in.verb() == QLatin1String("get");
    if (!get) {
        if (const std::optional<int> answered = command->offline(in)) {
            return *answered; // bundle diff
        }
    }
    bool hoursOk = false;
    const int hours = parser.value(flags.hours).toInt(&hoursOk);
    if (!hoursOk || hours < 1) {
        return console.fail(QCoreApplication::translate("cli", "--hours needs a whole number, at least 1"), 2);
    }
    if (parser.isSet(flags.bundle)) {
        if (!get) {
            return console.fail(
                QCoreApplication::translate("cli", "a support bundle is read-only: only get answers from it"), 2);
        }
        return *command->offline(in);
    }

    // A command starts and waits for only the sources it reads.
    const QList<core::SourceKind> kinds = command->reads(in);
    const HistoryUse historyUse = command->history(in);
    core::RuntimeOptions runtimeOptions;
    runtimeOptions.history = historyUse != HistoryUse::None;
    if (parser.isSet(flags.demo)) {
        core::DemoScope scope{kinds, runtimeOptions.history};
        scope.fullHistory = in.resource == QLatin1String("chargeback") || in.resource == QLatin1String("forecasts");
        // Jobs and the timeline show how far back the estate reaches: a one-shot demo's reaches
        // less far than the app's, which is said rather than shown as the same estate's figures.
        if (!scope.fullHistory && get
            && (in.resource == QLatin1String("jobs") || in.resource == QLatin1String("events"))) {
            console.err << programName << ": "
                        << QCoreApplication::translate(
                               "cli",
                               "note: this --demo estate began %1 h ago, the desktop app's and strata-server's %2 h "
                               "ago: job ages, the jobs listed and the events reach back %1 h here, not %2 h.")
                               .arg(core::DemoScope::kOneShotHistoryHours)
                               .arg(core::DemoScope::kFullHistoryHours)
                        << '\n';
        }
        runtimeOptions.demo = [&hooks, scope](core::AppConfig *config,
                                              core::ICredentialStore **store) -> core::Result<std::shared_ptr<void>> {
            if (!hooks.startDemo) {
                return core::fail(QCoreApplication::translate("cli", "this program was built without it"));
            }
            return hooks.startDemo(scope, config, store);
        };
    } else {
        const QString path = parser.isSet(flags.config) ? parser.value(flags.config) : core::AppConfig::defaultPath();
        if (!parser.isSet(flags.config) && !QFileInfo::exists(path)) {
            return console.fail(QCoreApplication::translate("cli",
                                                            "no sources configured yet (%1 does not exist). Add them "
                                                            "on the desktop app's Sources page or write that file "
                                                            "(see the README), pass --config PATH, or try the "
                                                            "simulated estate: %2 --demo %3")
                                    .arg(path, programName, arguments.join(QLatin1Char(' '))),
                                2);
        }
        runtimeOptions.configPath = path;
        runtimeOptions.credentials = &credentials;
    }
    runtimeOptions.user = console.user;
    // Sources name what they still lack a little before the command's own deadline, so the answer
    // says which resource stalled, not only which source.
    runtimeOptions.firstPollDeadline = std::chrono::milliseconds(in.timeoutSeconds * 750);
    runtimeOptions.startSources = false; // only the --source ones, below
    core::Result<std::unique_ptr<core::Runtime>> built = core::Runtime::build(runtimeOptions);
    if (!built) {
        const QString &runtimeError = built.error().message;
        return console.fail(
            runtimeOptions.demo
                ? QCoreApplication::translate("cli", "cannot start the demo estate: %1").arg(runtimeError)
                : runtimeError,
            2);
    }
    const std::unique_ptr<core::Runtime> runtime = std::move(*built);
    const core::AppConfig &config = runtime->config();

    Polled polled{runtime->engine(), {}, {}, {}, 0, {}};
    const QStringList wanted = parser.values(flags.source);
    for (const QString &name : wanted) {
        if (!config.source(name)) {
            return console.fail(QCoreApplication::translate("cli", "no source named \"%1\" is configured").arg(name),
                                2);
        }
    }
    for (const core::SourceConfig &s : std::as_const(config.sources)) {
        if ((wanted.isEmpty() || wanted.contains(s.name)) && (kinds.isEmpty() || kinds.contains(s.kind))) {
            polled.selected.append(s);
        }
    }
    if (!runtime->historyError().isEmpty()) {
        console.fail(QCoreApplication::translate("cli", "history store unavailable: %1").arg(runtime->historyError()),
                     1);
        if (historyUse == HistoryUse::Required) {
            return 1;
        }
    }
    // The answer is computed while the engine lives; the hook runs before its sources (and the
    // demo estate) are torn down. One deadline for the whole answer: the sources, then what a
    // verb reads after them.
    polled.deadline = QDeadlineTimer(std::chrono::seconds(in.timeoutSeconds));
    if (command->polls(in)) {
        pollSources(in, *runtime, polled);
    }
    const int answerCode = command->answer(in, polled);
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
