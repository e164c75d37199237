#pragma once

#include "app/cli/command.h"
#include "models/rows/resources.h"

#include <QDateTime>

#include <functional>

namespace strata::cli {

/// `strata [--config P | --demo] bundle export FILE [--hours N]` and `strata bundle diff A B
/// [-o table|json]`: the command-table entry. Export runs once every source was polled and
/// writes the estate and N hours of history to FILE (0600), printing the objects per source, the
/// size in bytes and the body's SHA-256 (exit 0 written, 1 not written or a source failing).
/// Diff says what appeared, disappeared and changed from A to B, per system, source and
/// resource (0 also when they differ, 2 when a bundle cannot be opened).
Command bundleCommand();

/// `strata --bundle FILE get RESOURCE [...]`: the rows `get` printed when the bundle was made,
/// answered from the bundle at `path` with no connection to any system (`now` is the bundle's
/// time, so ages and waits read as they did). Sources that were failing are reported on `err`
/// and left out, as live; exit codes as for `get`, and 2 when the bundle cannot be opened.
/// `filterAt` makes the filter for the bundle's time (`get events --since 2h` counts back from it).
int getFromBundle(const QString &path,
                  const std::function<rows::ResourceFilter(const QDateTime &bundleNow)> &filterAt,
                  const Invocation &in);

} // namespace strata::cli
