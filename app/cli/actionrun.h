#pragma once

#include "models/rows/output.h"

#include <QEventLoop>
#include <QTextStream>
#include <QTimer>

#include <functional>

namespace strata::core {
class Engine;
struct ActionPreview;
struct ActionRequest;
} // namespace strata::core

namespace strata::cli {

/// Runs the event loop until `done()` or the deadline; false on timeout.
bool waitFor(const std::function<bool()> &done, QObject *context, int timeoutSeconds);

/// Recomputes `engine`'s forecasts and waits (at most `timeoutMs`) until no computation is under
/// way, so a computation started earlier (while the sources' first answers came in) is not taken
/// for this one. False on timeout.
bool refreshForecasts(core::Engine &engine, int timeoutMs);

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

/// How a CLI verb that changes something runs its action.
struct ActionRun
{
    rows::Format format = rows::Format::Table;
    bool dryRun = false;
    int timeoutSeconds = 120;
    QString programName;
};

/// The standard tail of every changing verb: prints the preview (text or, with -o json, inside
/// the result object), stops there for --dry-run or a blocked preview, else submits `request`,
/// echoes its progress on `err` while it runs and prints "Done: ..." / "Failed: ..." (or a JSON
/// object {preview, action_id, state, message}). Returns the exit code: 0 on success, 1 when
/// blocked, failed or still running at the deadline.
int runAction(core::Engine &engine,
              const core::ActionRequest &request,
              const core::ActionPreview &preview,
              const ActionRun &run,
              QTextStream &out,
              QTextStream &err);

} // namespace strata::cli
