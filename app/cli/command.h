#pragma once

// The CLI's command table: each verb names how its words are checked, which sources it reads,
// its default deadline, and the function that answers it. cli::run() parses the flags, finds the
// verb here, starts the sources it reads, waits for their first poll and hands over.

#include "models/core/store/config.h"
#include "models/rows/output.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QDeadlineTimer>
#include <QList>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include <optional>
#include <vector>

namespace strata::core {
class Engine;
}

namespace strata::cli {

/// Default deadline of the reading verbs (`get`, `why`, `bundle export`): how long they wait for
/// the sources, in seconds. Verbs that change something follow their action for 120 s.
inline constexpr int kDefaultReadTimeoutSeconds = 60;

/// Who runs a command and where it answers.
struct Console
{
    QString programName; ///< "strata" or "strata-server": the prefix of every error line
    QString user;        ///< recorded in the audit log of what a command changes
    QTextStream &out;
    QTextStream &err;

    /// Writes "<programName>: <message>" and a newline on `err`; returns `code`.
    int fail(const QString &message, int code) const;
};

/// Every flag of the CLI, registered once on the parser (see --help for what each does).
struct Flags
{
    Flags();
    /// Adds them all to `parser`.
    void addTo(QCommandLineParser &parser) const;

    QCommandLineOption config, demo, source, volume, project, output, timeout;
    QCommandLineOption to, at, window, then, repeat, pool, createPool, poolSize, dryRun; // set service-level
    QCommandLineOption message, target, dataset;                                         // dataset verbs
    QCommandLineOption system, severity, since, until, search, job;                      // get events
    QCommandLineOption bundle, hours;                                                    // support bundles
    QCommandLineOption weight;                                                           // what-if quota
    QCommandLineOption month;                                                            // get chargeback
};

/// A parsed command line.
struct Invocation
{
    const QCommandLineParser &parser;
    const Flags &flags;
    QStringList positional; ///< the verb, then its words
    QString resource;       ///< `get`: the resource as rows::normaliseResource names it; else empty
    rows::Format format = rows::Format::Table;
    int timeoutSeconds = 60; ///< --timeout, or the verb's default
    const Console &console;

    [[nodiscard]] const QString &verb() const { return positional.constFirst(); }
};

/// The sources a command reads, after their first poll (or the deadline).
struct Polled
{
    core::Engine &engine;
    QList<core::SourceConfig> selected; ///< the sources asked for that the command reads
    QStringList listed;                 ///< their names ({""} when none: never all of the estate)
    QStringList healthy;                ///< of those, the ones that answered in full ({""} when none)
    /// 1 when a source failed or did not answer in time (already named on err), else 0.
    int exitCode = 0;
    QDeadlineTimer deadline; ///< the whole answer's: the sources, then what the verb reads after

    /// Whole seconds left before the deadline, at least 1.
    [[nodiscard]] int remainingSeconds() const;
};

/// How a command uses the history store.
enum class HistoryUse
{
    None,
    Optional, ///< opened; when it does not open the command still answers
    Required, ///< opened; when it does not open the command fails with exit code 1
};

/// One verb of the CLI.
struct Command
{
    const char *verb;
    /// Its forms after the program name, one a line (marked for translation in context "cli").
    const char *usage;
    /// Whether the words after the verb (and the flags it cannot do without) make a command.
    bool (*complete)(const Invocation &in);
    /// A usage error in the verb's own flags, printed and returned as exit code 2; 0 when fine.
    int (*check)(const Invocation &in);
    /// Answers without any source (`bundle diff`, `--bundle FILE get`); nullopt = reads sources.
    std::optional<int> (*offline)(const Invocation &in);
    /// The kinds of source it reads (empty = every kind): only those start and are waited for.
    QList<core::SourceKind> (*reads)(const Invocation &in);
    HistoryUse (*history)(const Invocation &in);
    /// Changes something: its default deadline is 120 s, a read's kDefaultReadTimeoutSeconds.
    bool changes;
    /// Whether it waits for the sources' first poll (`get schedules` reads only the history).
    bool (*polls)(const Invocation &in);
    /// The answer, with the sources polled; returns the exit code.
    int (*answer)(const Invocation &in, Polled &polled);
};

/// Table defaults: no check of the verb's own flags, no offline answer, every kind of source,
/// the history store opened if it can be, and the sources polled first.
int noCheck(const Invocation &in);
std::optional<int> noOfflineAnswer(const Invocation &in);
QList<core::SourceKind> readsEveryKind(const Invocation &in);
HistoryUse historyOptional(const Invocation &in);
bool pollsFirst(const Invocation &in);

/// The verbs in the order `unknown command` lists them: get, set, commit, cache, evict, diff,
/// bundle, why, what-if.
const std::vector<Command> &commands();
/// The entry of `verb`; nullptr for an unknown word.
const Command *findCommand(const QString &verb);

} // namespace strata::cli
