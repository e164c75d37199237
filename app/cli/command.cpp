#include "app/cli/command.h"

#include "app/cli/bundlecommand.h"
#include "app/cli/datacommands.h"
#include "app/cli/getcommand.h"
#include "app/cli/setcommand.h"
#include "app/cli/whatifcommand.h"
#include "app/cli/whycommand.h"
#include "models/core/store/config.h"

#include <QCoreApplication>

#include <algorithm>

namespace strata::cli {

int Console::fail(const QString &message, int code) const
{
    err << programName << ": " << message << '\n';
    return code;
}

Flags::Flags()
    : config(QStringLiteral("config"),
             QCoreApplication::translate("cli", "Config file (default: %1).").arg(core::AppConfig::defaultPath()),
             QStringLiteral("path"))
    , demo(QStringLiteral("demo"),
           QCoreApplication::translate("cli", "Use the built-in simulated estate instead of a config file."))
    , source(QStringLiteral("source"),
             QCoreApplication::translate("cli", "Only this source (repeatable)."),
             QStringLiteral("name"))
    , volume(QStringLiteral("volume"),
             QCoreApplication::translate("cli", "Only this volume (name or id; repeatable)."),
             QStringLiteral("name"))
    , project(QStringList{QStringLiteral("p"), QStringLiteral("project")},
              QCoreApplication::translate("cli", "Only this project (projects, jobs, pvcs; repeatable)."),
              QStringLiteral("name"))
    , output(QStringList{QStringLiteral("o"), QStringLiteral("output")},
             QCoreApplication::translate("cli", "Output format: table, json or csv."),
             QStringLiteral("format"),
             QStringLiteral("table"))
    , timeout(
          QStringLiteral("timeout"),
          QCoreApplication::translate("cli",
                                      "Give up after this many seconds: get, why and bundle export wait this long for "
                                      "the sources, then print what arrived and name the rest (default %1); a change "
                                      "is followed this long (default 120).")
              .arg(kDefaultReadTimeoutSeconds),
          QStringLiteral("seconds"))
    , to(QStringLiteral("to"),
         QCoreApplication::translate("cli",
                                     "set service-level: the new level (ANF Standard, Premium, Ultra; ONTAP a QoS "
                                     "policy name or none)."),
         QStringLiteral("level"))
    , at(QStringLiteral("at"),
         QCoreApplication::translate("cli",
                                     "set service-level: schedule it at this time (ISO 8601, or +30m, +2h, +1d)."),
         QStringLiteral("time"))
    , window(QStringLiteral("window"),
             QCoreApplication::translate("cli",
                                         "set service-level: raise for a window START..END, then return to the current "
                                         "level (or --then)."),
             QStringLiteral("start..end"))
    , then(QStringLiteral("then"),
           QCoreApplication::translate("cli", "set service-level --window: the level after the window."),
           QStringLiteral("level"))
    , repeat(QStringLiteral("repeat"),
             QCoreApplication::translate("cli", "set service-level --at/--window: once, daily, weekdays or weekly."),
             QStringLiteral("recurrence"),
             QStringLiteral("once"))
    , pool(QStringLiteral("pool"),
           QCoreApplication::translate("cli", "set service-level (ANF): the capacity pool to move to."),
           QStringLiteral("name"))
    , createPool(
          QStringLiteral("create-pool"),
          QCoreApplication::translate("cli", "set service-level (ANF): create the target pool when none has room."))
    , poolSize(QStringLiteral("pool-size"),
               QCoreApplication::translate(
                   "cli", "set service-level --create-pool: its size in TiB (default: the preview's)."),
               QStringLiteral("tib"))
    , dryRun(QStringLiteral("dry-run"),
             QCoreApplication::translate("cli", "set, commit, cache, evict: show the preview and change nothing."))
    , message(QStringList{QStringLiteral("m"), QStringLiteral("message")},
              QCoreApplication::translate("cli", "commit: the commit message."),
              QStringLiteral("text"))
    , target(
          QStringLiteral("target"),
          QCoreApplication::translate("cli",
                                      "cache, evict, get caches: the cache target (default: the only one); cache of an "
                                      "ONTAP snapshot commit: the FlexClone's name (default: <volume>_<snapshot>)."),
          QStringLiteral("name"))
    , dataset(QStringLiteral("dataset"),
              QCoreApplication::translate("cli", "get commits: only this dataset (repeatable)."),
              QStringLiteral("name"))
    , system(
          QStringLiteral("system"),
          QCoreApplication::translate("cli",
                                      "get events: only this system: ontap, storagegrid, azure, kubernetes or strata "
                                      "(repeatable)."),
          QStringLiteral("name"))
    , severity(
          QStringLiteral("severity"),
          QCoreApplication::translate("cli", "get events: this severity and worse: critical, error, warning or info."),
          QStringLiteral("level"))
    , since(QStringLiteral("since"),
            QCoreApplication::translate("cli", "get events: from this time (ISO 8601, or 30m, 2h, 7d ago)."),
            QStringLiteral("time"))
    , until(QStringLiteral("until"),
            QCoreApplication::translate("cli", "get events: up to this time (ISO 8601, or 30m, 2h, 7d ago)."),
            QStringLiteral("time"))
    , search(QStringLiteral("search"),
             QCoreApplication::translate("cli",
                                         "get events: only entries whose title, message, object or source contain "
                                         "this text."),
             QStringLiteral("text"))
    , job(QStringLiteral("job"),
          QCoreApplication::translate("cli", "get events: only this job (<namespace>/<name> or name; repeatable)."),
          QStringLiteral("name"))
    , bundle(QStringLiteral("bundle"),
             QCoreApplication::translate("cli", "Answer from this support bundle, offline and read-only."),
             QStringLiteral("file"))
    , hours(QStringLiteral("hours"),
            QCoreApplication::translate("cli", "bundle export: hours of history to include (default 24)."),
            QStringLiteral("n"),
            QStringLiteral("24"))
    , weight(QStringLiteral("over-quota-weight"),
             QCoreApplication::translate("cli",
                                         "what-if quota: this project's over-quota weight (PROJECT=W, repeatable); "
                                         "spare GPUs are then split by weight as KAI does, not by quota."),
             QStringLiteral("project=weight"))
    , month(QStringLiteral("month"),
            QCoreApplication::translate("cli",
                                        "get chargeback: the calendar month in UTC, YYYY-MM (default: this month)."),
            QStringLiteral("yyyy-mm"))
{}

void Flags::addTo(QCommandLineParser &parser) const
{
    // In the order --help lists them.
    parser.addOptions({system, severity, since, until, search, job});
    parser.addOptions({bundle, hours, weight, month});
    parser.addOptions({config,
                       demo,
                       source,
                       volume,
                       project,
                       output,
                       timeout,
                       to,
                       at,
                       window,
                       then,
                       repeat,
                       pool,
                       createPool,
                       poolSize,
                       dryRun,
                       message,
                       target,
                       dataset});
}

int Polled::remainingSeconds() const
{
    return std::max(1, int((deadline.remainingTime() + 999) / 1000));
}

int noCheck(const Invocation &)
{
    return 0;
}

std::optional<int> noOfflineAnswer(const Invocation &)
{
    return std::nullopt;
}

QList<core::SourceKind> readsEveryKind(const Invocation &)
{
    return {};
}

HistoryUse historyOptional(const Invocation &)
{
    return HistoryUse::Optional;
}

bool pollsFirst(const Invocation &)
{
    return true;
}

const std::vector<Command> &commands()
{
    static const std::vector<Command> table{getCommand(),
                                            setCommand(),
                                            dataCommand("commit"),
                                            dataCommand("cache"),
                                            dataCommand("evict"),
                                            dataCommand("diff"),
                                            bundleCommand(),
                                            whyCommand(),
                                            whatIfCommand()};
    return table;
}

const Command *findCommand(const QString &verb)
{
    for (const Command &c : commands()) {
        if (verb == QLatin1String(c.verb)) {
            return &c;
        }
    }
    return nullptr;
}

} // namespace strata::cli
