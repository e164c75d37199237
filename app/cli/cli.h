#pragma once

#include "app/cli/command.h"

#include <QString>
#include <QStringList>
#include <QTextStream>

#include <functional>
#include <memory>

namespace strata::core {
class ICredentialStore;
struct AppConfig;
struct DemoScope;
} // namespace strata::core

namespace strata::cli {

/// True when the arguments (argv without the program name) ask for a CLI verb (`get`, ...)
/// or `--help`/`--version`, rather than the desktop app or the server.
bool isCommand(const QStringList &arguments);

/// Hooks of the process that runs the CLI (the `strata` and `strata-server` binaries); tests that
/// call run() in-process leave them empty.
struct RunHooks
{
    /// Called once the answer is printed, before the sources and the demo estate are torn down,
    /// with the exit code run() is about to return. The binaries arm an exit watchdog here, so
    /// a source stuck on a server that stopped answering cannot keep a finished command alive.
    std::function<void(int exitCode)> answered;
    /// Starts the simulated estate `--demo` runs against (the binaries pass
    /// demo::startForCommand; the CLI itself links no simulator). Sets `config` to its sources and
    /// `credentials` to the store of their secrets, both owned by the returned handle, which run()
    /// holds until the sources are torn down; why not on failure. Unset: `--demo` fails with
    /// exit code 2.
    /// `scope` names what the command reads (a listing of volumes: ONTAP and Azure), so only the
    /// simulators behind those sources start (demo::startScopedForCommand).
    std::function<core::Result<std::shared_ptr<void>>(
        const core::DemoScope &scope, core::AppConfig *config, core::ICredentialStore **credentials)>
        startDemo;
};

/// Runs `strata [--config PATH | --demo] VERB ...` (the verbs of commands(): get, set, commit,
/// cache, evict, diff, bundle, why; see --help) for `console` and returns the exit code: 0
/// success, 1 a source failed or did not answer before the deadline (one line per source on
/// `err`, naming it and what failed; what every source returned, a degraded one's other
/// resources included, is still printed; also an unknown --project or a --volume that matches
/// nothing), 2 usage or configuration error. Blocks in a local event loop; call from the main
/// thread with a Q(Core)Application running.
int run(const QStringList &arguments,
        core::ICredentialStore &credentials,
        const Console &console,
        const RunHooks &hooks = {});

/// Ends the process with `exitCode` if it is still running `graceSeconds` from now, after
/// flushing `out` and `err` and saying on stderr that `programName` gave up waiting for its
/// sources to stop. For the binaries' RunHooks::answered; never call it in a test process.
void armExitWatchdog(int exitCode, int graceSeconds, const QString &programName, QTextStream &out, QTextStream &err);

} // namespace strata::cli
