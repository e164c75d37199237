#pragma once

#include "models/rows/output.h"

#include <QTextStream>

#include <functional>

class QObject;

namespace strata::core {
class Engine;
struct ActionPreview;
struct ActionRequest;
} // namespace strata::core

namespace strata::cli {

/// Runs the event loop until `done()` or the deadline; false on timeout.
bool waitFor(const std::function<bool()> &done, QObject *context, int timeoutSeconds);

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
